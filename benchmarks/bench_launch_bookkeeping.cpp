// The host-side bookkeeping of a launch that captures views, without a GPU (issue 19: a GPU
// launch with 1 and 4 views must cost <= 1.2x a raw <<<>>> launch, and what is left over is
// host code). Three cases, each "one launch" per benchmark iteration:
//
//   marker_queue/V:  exactly what bind_and_run does around a GPU kernel (launch_scope, the
//                    captured lambda's copy binding V views, close, complete), on a stand-in
//                    queue whose launch markers cost what gpu_queue's do (one allocation, the
//                    marker mutex, a weak pointer to the pending marker) and whose device has
//                    separate memory. No kernel runs: the time is the runtime's alone.
//   event_queue/V:   the same with a queue that records an event per launch (no markers):
//                    the CPU devices' protocol (complete_kernel per view).
//   marker_queue_nvcc/V: marker_queue with the kernel object nvcc makes of an extended
//                    __host__ __device__ lambda, which copies each captured view twice.
//   nvcc_call_site/V: a GPU launch's whole host side: nvcc's wrapper built at the call site on
//                    every launch (five copies of each view, each owning a reference), then
//                    marker_queue_nvcc's steps. The case to read for the H100's per-view cost.
//   emulated_pfe/V:  a real parallel_for_each of one element on the emulated discrete device
//                    (its CPU executor included), V views.
//   cpu_pfe/V:       the same on the CPU device (views over host memory, no kernel ticket).
//
// V = 0 is the floor (the scope and, for markers, nothing: no view asks for one). Views are
// device-resident after the warm-up and nothing touches them on the host: the steady state of
// a loop of launches. Run with --benchmark_repetitions and compare medians of two builds.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/detail/launch_markers.hpp>
#include <hipamp/hipamp.hpp>

namespace hx = hipamp;
namespace hd = hipamp::detail;

namespace {

// ---- a device and queue that behave like the GPU room's, minus the GPU ----------------------

class fake_queue;

class fake_device final : public hd::device_impl {
 public:
  fake_device() { props_.description = L"bookkeeping stand-in (separate memory)"; }
  hd::device_kind kind() const noexcept override { return hd::device_kind::gpu; }
  const hd::device_properties& properties() const noexcept override { return props_; }
  void* allocate(std::size_t bytes) override { return ::operator new(bytes == 0 ? 1 : bytes); }
  void deallocate(void* ptr) noexcept override { ::operator delete(ptr); }
  std::shared_ptr<hd::queue_impl> create_queue(hx::queuing_mode) override;
  std::shared_ptr<hd::queue_impl> default_queue() override { return create_queue({}); }

 private:
  hd::device_properties props_;
};

// The stream side of the launch markers (detail/launch_markers.hpp, the code gpu_queue runs):
// nothing is ever recorded in the steady state (nobody waits for a marker), so recording only
// counts.
struct fake_stream {
  using handle = int;
  handle record() { return 1; }
  void release(handle) noexcept {}
  static bool ready(handle) { return true; }
  static void wait(handle) {}
};
using fake_markers = hd::launch_markers<fake_stream>;

class fake_queue final : public hd::queue_impl {
 public:
  fake_queue(fake_device& device, bool markers)
      : device_(device),
        markers_(markers ? std::make_shared<fake_markers>(fake_stream{}) : nullptr) {}
  hd::device_impl& device() const noexcept override { return device_; }
  hx::queuing_mode mode() const noexcept override { return hx::queuing_mode_automatic; }
  void copy_host_to_device(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_host(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_device(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void wait_for(const hd::event_ptr& event) override {
    if (event) event->wait();
  }
  hd::event_ptr record() override {
    settle();
    return hd::ready_event();
  }
  hd::event_ptr begin_launch() override {
    if (!markers_) return nullptr;
    return markers_->begin();
  }
  void end_launch(const hd::event_ptr& marker) override { markers_->end(marker); }
  void resolve_launch(const hd::event_ptr& marker, const hd::event_ptr& done) override {
    fake_markers::resolve(marker, done);
  }
  void flush() override {}
  void wait() override {}
  void* native_handle() const noexcept override { return nullptr; }
  // gpu_queue::settle_pending, which prepare_launch calls before every kernel launch.
  void settle() {
    if (markers_) markers_->settle();
  }
  ~fake_queue() override {
    if (markers_) markers_->shutdown();
  }

 private:
  fake_device& device_;
  std::shared_ptr<fake_markers> markers_;
};

// The coherence directory's read-back queue (synchronize) is one of these, without markers.
std::shared_ptr<hd::queue_impl> fake_device::create_queue(hx::queuing_mode) {
  return std::make_shared<fake_queue>(*this, false);
}

// bind_and_run's steps (detail/launch.hpp), with a queue_impl of our own: open the scope, copy
// the kernel object (which binds its views), close, "launch" (settle, as prepare_launch does),
// complete with a null event.
// Trees before issue 19's launch_scope::hold have no such member: the benchmark source builds
// against both (A/B runs copy it into the base tree).
template <class Scope, class = void>
struct scope_has_hold : std::false_type {};
template <class Scope>
struct scope_has_hold<Scope, std::void_t<decltype(std::declval<Scope&>().hold(nullptr, 0))>>
    : std::true_type {};
template <class Scope>
void hold_if_supported(Scope& scope, const void* object, std::size_t bytes) {
  if constexpr (scope_has_hold<Scope>::value) scope.hold(object, bytes);
}

template <class Kernel>
void bookkeeping_launch(fake_queue& queue, const Kernel& kernel) {
  hd::launch_scope scope(queue);
  hold_if_supported(scope, &kernel, sizeof(Kernel));  // as bind_and_run does
  const std::tuple<const Kernel> bound(kernel);
  scope.close();
  queue.settle();
  benchmark::DoNotOptimize(&bound);
  scope.complete(nullptr);
}

constexpr int elements = 256;

// What nvcc makes of an extended __host__ __device__ lambda on the host (cudafe++'s
// __nv_hdl_wrapper_t): the captures as a field, passed to the device, plus a heap copy of the
// lambda for calls on the host. Copying it copies both, so every captured view is copied (and,
// inside a launch scope, bound) twice: the GPU's launch path.
template <class Lambda>
class nvcc_style_kernel {
 public:
  explicit nvcc_style_kernel(const Lambda& lambda)
      : captures_(lambda), host_copy_(std::make_unique<Lambda>(lambda)) {}
  nvcc_style_kernel(const nvcc_style_kernel& other)
      : captures_(other.captures_), host_copy_(std::make_unique<Lambda>(*other.host_copy_)) {}
  nvcc_style_kernel& operator=(const nvcc_style_kernel&) = delete;
  ~nvcc_style_kernel() = default;

 private:
  Lambda captures_;
  std::unique_ptr<Lambda> host_copy_;
};

// nvcc's whole call site, as cudafe++ writes `parallel_for_each(av, e, [=] __host__ __device__
// (...) {...})` (CUDA 13, read off a .cudafe1.cpp): the lambda is built, then handed with each
// capture *by value* to __nv_hdl_create_wrapper, which passes them by value again to the
// wrapper's constructor, which copies them into its fields and moves the lambda into a heap
// copy; the copier and deleter are reached through function pointers. Every one of those copies
// is made outside any launch scope, on every launch, so each owns a reference: this is the part
// of a GPU launch's per-view cost that the marker_queue_nvcc case (one wrapper made before the
// loop) does not see.
template <class Tag>
struct nv_hdl_helper {
  static void* (*copier)(void*);
  static void (*deleter)(void*);
};
template <class Tag>
void* (*nv_hdl_helper<Tag>::copier)(void*) = nullptr;
template <class Tag>
void (*nv_hdl_helper<Tag>::deleter)(void*) = nullptr;

template <class Tag, class... Fields>
struct nv_hdl_wrapper {
  std::tuple<Fields...> fields;  // f1, f2, ...: what the device receives
  void* data;                    // the heap copy of the lambda, for host calls

  template <class Lambda>
  struct manager {
    static void* do_copy(void* buf) { return new Lambda(*static_cast<Lambda*>(buf)); }
    static void do_delete(void* buf) { delete static_cast<Lambda*>(buf); }
  };
  template <class Lambda>
  nv_hdl_wrapper(Tag, Lambda&& lam, Fields... in)
      : fields(in...), data(new Lambda(std::move(lam))) {
    nv_hdl_helper<Tag>::copier = &manager<Lambda>::do_copy;
    nv_hdl_helper<Tag>::deleter = &manager<Lambda>::do_delete;
  }
  nv_hdl_wrapper(const nv_hdl_wrapper& in)
      : fields(in.fields), data(nv_hdl_helper<Tag>::copier(in.data)) {}
  nv_hdl_wrapper& operator=(const nv_hdl_wrapper&) = delete;
  ~nv_hdl_wrapper() { nv_hdl_helper<Tag>::deleter(data); }
};

template <class Tag, class... CaptureArgs>
struct nv_hdl_create_wrapper_t {
  template <class Lambda>
  static nv_hdl_wrapper<Tag, CaptureArgs...> create(Lambda&& lam, CaptureArgs... args) {
    return nv_hdl_wrapper<Tag, CaptureArgs...>(Tag{}, std::move(lam), args...);
  }
};

template <int Views>
struct nv_tag {};

// One launch as the GPU sees it: the call site's wrapper, then bind_and_run's steps.
template <class Make>
__attribute__((noinline)) void nvcc_site_launch(fake_queue& queue, const Make& make) {
  bookkeeping_launch(queue, make());
}

void run_nvcc_site(benchmark::State& state) {
  const int views = static_cast<int>(state.range(0));
  static fake_device device;
  const auto queue = std::make_shared<fake_queue>(device, true);
  std::vector<float> a(elements, 1.0f), b(elements, 2.0f), c(elements, 3.0f), d(elements, 4.0f);
  hx::array_view<float, 1> va(elements, a), vb(elements, b), vc(elements, c), vd(elements, d);
  using view = hx::array_view<float, 1>;
  auto make_one = [&] {
    return nv_hdl_create_wrapper_t<nv_tag<1>, view>::create([=](hx::index<1> i) { va[i] = 1.0f; },
                                                            va);
  };
  auto make_four = [&] {
    return nv_hdl_create_wrapper_t<nv_tag<4>, view, view, view, view>::create(
        [=](hx::index<1> i) {
          va[i] = 1.0f;
          vb[i] = 2.0f;
          vc[i] = 3.0f;
          vd[i] = 4.0f;
        },
        va, vb, vc, vd);
  };
  auto launch = [&] {
    if (views == 1) {
      nvcc_site_launch(*queue, make_one);
    } else {
      nvcc_site_launch(*queue, make_four);
    }
  };
  for (int w = 0; w < 100; ++w) launch();
  for (auto _ : state) launch();
  va.synchronize();
  vb.synchronize();
  vc.synchronize();
  vd.synchronize();
}

void run_stand_in(benchmark::State& state, bool markers, bool nvcc = false) {
  const int views = static_cast<int>(state.range(0));
  // One device for the process: the directory keeps a read-back queue per device address.
  static fake_device device;
  const auto queue = std::make_shared<fake_queue>(device, markers);
  std::vector<float> a(elements, 1.0f), b(elements, 2.0f), c(elements, 3.0f), d(elements, 4.0f);
  hx::array_view<float, 1> va(elements, a), vb(elements, b), vc(elements, c), vd(elements, d);
  // The kernel objects a parallel_for_each would copy: lambdas capturing the views by value.
  auto one = [=](hx::index<1> i) { va[i] = 1.0f; };
  auto four = [=](hx::index<1> i) {
    va[i] = 1.0f;
    vb[i] = 2.0f;
    vc[i] = 3.0f;
    vd[i] = 4.0f;
  };
  auto none = [](hx::index<1>) {};
  const nvcc_style_kernel<decltype(one)> one_nvcc(one);
  const nvcc_style_kernel<decltype(four)> four_nvcc(four);
  const nvcc_style_kernel<decltype(none)> none_nvcc(none);
  auto launch = [&] {
    if (views == 1) {
      nvcc ? bookkeeping_launch(*queue, one_nvcc) : bookkeeping_launch(*queue, one);
    } else if (views == 4) {
      nvcc ? bookkeeping_launch(*queue, four_nvcc) : bookkeeping_launch(*queue, four);
    } else {
      nvcc ? bookkeeping_launch(*queue, none_nvcc) : bookkeeping_launch(*queue, none);
    }
  };
  for (int w = 0; w < 100; ++w) launch();  // copies in once; then the steady state
  for (auto _ : state) launch();
  // The views' destructors read the data back into a, b, c, d while `queue` still exists.
  va.synchronize();
  vb.synchronize();
  vc.synchronize();
  vd.synchronize();
}

void BM_marker_queue(benchmark::State& state) { run_stand_in(state, true); }
void BM_event_queue(benchmark::State& state) { run_stand_in(state, false); }
void BM_marker_queue_nvcc(benchmark::State& state) { run_stand_in(state, true, true); }
void BM_nvcc_call_site(benchmark::State& state) { run_nvcc_site(state); }

// A real launch of one element on `av`, V views (the emulated discrete device exists because
// main sets HIPAMP_EMULATE_DISCRETE_DEVICE before the runtime enumerates devices).
void run_pfe(benchmark::State& state, hx::accelerator_view av) {
  const int views = static_cast<int>(state.range(0));
  hx::array<float, 1> a(elements, av), b(elements, av), c(elements, av), d(elements, av);
  hx::array_view<float, 1> va(a), vb(b), vc(c), vd(d);
  const hx::extent<1> one_element(1);
  auto launch = [&] {
    if (views == 1) {
      hx::parallel_for_each(av, one_element, [=](hx::index<1> i) { va[i] = 1.0f; });
    } else if (views == 4) {
      hx::parallel_for_each(av, one_element, [=](hx::index<1> i) {
        va[i] = 1.0f;
        vb[i] = 2.0f;
        vc[i] = 3.0f;
        vd[i] = 4.0f;
      });
    } else {
      hx::parallel_for_each(av, one_element, [=](hx::index<1>) {});
    }
  };
  for (int w = 0; w < 100; ++w) launch();
  for (auto _ : state) launch();
  av.wait();
}

void BM_emulated_pfe(benchmark::State& state) {
  run_pfe(state, hx::accelerator(L"cpu-discrete").get_default_view());
}
// The same on the CPU device (views over host memory: no ticket, the host path).
void BM_cpu_pfe(benchmark::State& state) {
  run_pfe(state, hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view());
}

}  // namespace

BENCHMARK(BM_marker_queue)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_event_queue)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_marker_queue_nvcc)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_nvcc_call_site)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_emulated_pfe)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_cpu_pfe)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);

int main(int argc, char** argv) {
  // Before anything asks the runtime for its devices.
  setenv("HIPAMP_EMULATE_DISCRETE_DEVICE", "1", 0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
