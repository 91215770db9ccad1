// Issue 19 (session 22): where does a 16-thread saxpy 2^16 launch on the CPU device spend the
// 0.3-0.6 us it takes beyond `omp parallel for simd`? This probe interposes GOMP_parallel (the
// call every OpenMP region of GCC makes) and stamps the time at its entry and return, so each
// launch splits into
//   pre:    from the call of parallel_for_each to the fork (the launching thread's serial work),
//   region: GOMP_parallel itself (fork, every thread's work, join),
//   post:   from the join back to the caller (serial again, fully exposed).
// The OpenMP peer is timed the same way, interleaved launch by launch with hipamp, and so are
// two parts of the launch: a kernel capturing raw pointers (no views), and a kernel object built
// once (no caller copies); and the OpenMP loop whose threads first read lines the launching
// thread wrote (or left as they were) just before the fork. Medians over `launches` of each.
// Built with -DHIPAMP_PROBE_STAMPS against a libhipamp of branch probe-stamps-s22 (also built
// with it), it prints the time between stamps inside the launch as well
// (STAMPS=1 scripts/probes/launch_phases.sh). Results:
// benchmarks/results/h100_s22_issue19_2026-11-27/.
//   g++ -O3 -fopenmp -I include -I fallback/include -I <build>/generated/include \
//     scripts/probes/launch_phases.cpp <build>/libhipamp.a -ldl -o launch_phases
//   OMP_NUM_THREADS=16 ./launch_phases [launches [elements]]
#include <dlfcn.h>
#include <omp.h>
#include <x86intrin.h>

#include <hipamp/hipamp.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace hx = hipamp;

namespace {

std::uint64_t gomp_enter = 0, gomp_leave = 0;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

#if defined(HIPAMP_PROBE_STAMPS)
// Stamps inside the launch (branch probe-stamps-s22): HIPAMP_STAMP(k) writes slot k.
extern "C" {
unsigned long long hipamp_probe_stamps[16] = {};
}
#endif

// Interposed: the executable's definition wins over libgomp's for every caller in the program.
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  using real_type = void (*)(void (*)(void*), void*, unsigned, unsigned);
  static const auto real = reinterpret_cast<real_type>(dlsym(RTLD_NEXT, "GOMP_parallel"));
  gomp_enter = __rdtsc();
  real(fn, data, num_threads, flags);
  gomp_leave = __rdtsc();
}

namespace {

int n = 1 << 16;  // elements: argv[2] (default 2^16)

const hx::accelerator_view& cpu_view() {
  static const hx::accelerator_view view =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  return view;
}

__attribute__((noinline)) void run_hipamp(float a, hx::array_view<const float, 1> xv,
                                          hx::array_view<float, 1> yv) {
  hx::parallel_for_each(cpu_view(), hx::extent<1>(n),
                        [=] HIPAMP_RESTRICT(hx::index<1> i) { yv[i] = a * xv[i] + yv[i]; });
}

__attribute__((noinline)) void run_omp(float a, const float* __restrict x, float* __restrict y) {
#pragma omp parallel for simd
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

// The OpenMP loop, but each thread first reads `shared_lines` cache lines that the launching
// thread wrote just before the fork (as a launch's threads read its bound kernel and region
// data): `rewrite` stores new values each launch (each store must take the line back from the
// cores that read it last time), else the launching thread compares and stores nothing (the
// lines stay shared). What one such line costs a launch.
struct alignas(64) line {
  long v[8];
};
line shared_block[8];
long shared_sink[64 * 8];
__attribute__((noinline)) void run_omp_lines(float a, const float* __restrict x,
                                             float* __restrict y, int shared_lines, bool rewrite,
                                             long value) {
  for (int l = 0; l < shared_lines; ++l) {
    if (rewrite || shared_block[l].v[0] != value) shared_block[l].v[0] = value;
  }
#pragma omp parallel
  {
    long sum = 0;
    for (int l = 0; l < shared_lines; ++l) sum += shared_block[l].v[0];
    shared_sink[omp_get_thread_num() * 8] = sum;
#pragma omp for simd nowait
    for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
  }
}

// The launch with no views: the kernel captures raw pointers (the protocol and the executor).
__attribute__((noinline)) void run_hipamp_raw(float a, const float* x, float* y) {
  hx::parallel_for_each(cpu_view(), hx::extent<1>(n),
                        [=] HIPAMP_RESTRICT(hx::index<1> i) { y[i[0]] = a * x[i[0]] + y[i[0]]; });
}

// The launch of a kernel object built once (views bound at each launch, no caller copies).
template <class Kernel>
__attribute__((noinline)) void run_hipamp_prebuilt(const Kernel& kernel) {
  hx::parallel_for_each(cpu_view(), hx::extent<1>(n), kernel);
}

double ticks_per_us() {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t c0 = __rdtsc();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(200)) {
  }
  const std::uint64_t c1 = __rdtsc();
  return double(c1 - c0) /
         std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

struct phases {
  std::vector<double> pre, region, post, total;
  void print(const char* name) const {
    std::printf("%-16s total %.3f  pre %.3f  region %.3f  post %.3f us\n", name, median(total),
                median(pre), median(region), median(post));
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  if (argc > 2) n = std::atoi(argv[2]);
  const double tpu = ticks_per_us();
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97) * 0.01f;
    y[i] = float(i % 89) * 0.02f;
  }
  hx::array_view<const float, 1> xv(n, x);
  hx::array_view<float, 1> yv(n, y);
  const int threads = omp_get_max_threads();
  const auto prebuilt = [=] HIPAMP_RESTRICT(hx::index<1> i) { yv[i] = 1.5f * xv[i] + yv[i]; };
  // Each launch kind, interleaved one launch each in a rotating order.
  struct kind {
    const char* name;
    std::function<void()> call;
    phases p;
    std::vector<std::vector<double>> steps;  // HIPAMP_PROBE_STAMPS: time between stamps
  };
  std::vector<kind> kinds;
  kinds.push_back({"omp", [&] { run_omp(1.5f, x.data(), y.data()); }, {}});
  kinds.push_back({"hipamp", [&] { run_hipamp(1.5f, xv, yv); }, {}});
  kinds.push_back({"hipamp prebuilt", [&] { run_hipamp_prebuilt(prebuilt); }, {}});
  kinds.push_back({"hipamp raw", [&] { run_hipamp_raw(1.5f, x.data(), y.data()); }, {}});
  long launch_number = 0;
  kinds.push_back(
      {"omp 0 lines", [&] { run_omp_lines(1.5f, x.data(), y.data(), 0, false, 1); }, {}});
  kinds.push_back(
      {"omp 4 lines same", [&] { run_omp_lines(1.5f, x.data(), y.data(), 4, false, 1); }, {}});
  kinds.push_back({"omp 4 lines new",
                   [&] { run_omp_lines(1.5f, x.data(), y.data(), 4, true, ++launch_number); },
                   {}});
  for (int k = -200; k < launches; ++k) {
    for (std::size_t j = 0; j < kinds.size(); ++j) {
      kind& kd = kinds[(j + static_cast<std::size_t>(k + 200)) % kinds.size()];
      gomp_enter = gomp_leave = 0;
      const std::uint64_t t0 = __rdtsc();
      kd.call();
      const std::uint64_t t1 = __rdtsc();
      if (k < 0 || gomp_enter == 0) continue;  // warm-up, or ran inline (one thread)
      kd.p.total.push_back(double(t1 - t0) / tpu);
      kd.p.pre.push_back(double(gomp_enter - t0) / tpu);
      kd.p.region.push_back(double(gomp_leave - gomp_enter) / tpu);
      kd.p.post.push_back(double(t1 - gomp_leave) / tpu);
#if defined(HIPAMP_PROBE_STAMPS)
      if (kd.name[0] == 'o') continue;  // the OpenMP peer passes no stamps
      const unsigned long long* st = hipamp_probe_stamps;
      const std::uint64_t seq[] = {t0,    st[0],  st[1],  st[2],      st[3],      st[4],
                                   st[5], st[6],  st[7],  gomp_enter, gomp_leave, st[8],
                                   st[9], st[10], st[11], t1};
      const std::size_t count = sizeof(seq) / sizeof(seq[0]);
      kd.steps.resize(count - 1);
      for (std::size_t q = 0; q + 1 < count; ++q)
        kd.steps[q].push_back(double(std::int64_t(seq[q + 1] - seq[q])) / tpu);
      for (int q = 0; q < 16; ++q) hipamp_probe_stamps[q] = 0;
#endif
    }
  }
  std::printf("threads %d, %d launches of each, saxpy of %d elements\n", threads, launches, n);
  for (const kind& kd : kinds) kd.p.print(kd.name);
#if defined(HIPAMP_PROBE_STAMPS)
  static const char* const step_names[] = {"call -> pfe entry",
                                           "check_compute_domain",
                                           "launch_scope ctor",
                                           "binds (bound copy)",
                                           "scope.close",
                                           "-> on_device CPU",
                                           "-> run_simple",
                                           "-> run_region before fork",
                                           "-> GOMP_parallel entry",
                                           "GOMP_parallel (region)",
                                           "-> run_region after join",
                                           "-> run_with returned",
                                           "scope.complete",
                                           "-> pfe exit (scope dtor)",
                                           "-> caller"};
  for (const kind& kd : kinds) {
    if (kd.steps.empty()) continue;
    std::printf("  steps of %s (median us):", kd.name);
    for (std::size_t q = 0; q < kd.steps.size(); ++q)
      std::printf(" [%s] %.3f", step_names[q], median(kd.steps[q]));
    std::printf("\n");
  }
#endif
  std::printf("ratio (omp / hipamp total): %.3f\n",
              median(kinds[0].p.total) / median(kinds[1].p.total));
  return 0;
}
