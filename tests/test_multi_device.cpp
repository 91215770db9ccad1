// Several devices with their own memory in one process (issue 20): every GPU, and on machines
// without several GPUs the emulated discrete devices (HIPAMP_EMULATE_DISCRETE_DEVICE=2) in
// their place. One view visits the devices in turn, arrays live on different devices and
// copy between them, a workload is split across all of them, and the library's algorithms
// run on each device of one process. Transfer counts are exact: device to device where the
// destination copies straight from the source (peer access), through the host otherwise.
//
// CTest runs this file's cases with two emulated devices, with peer copies on and off
// (HIPAMP_PEER_COPIES=0); the GPU machine runs them on its GPUs. With fewer than two such
// devices the cases say so and check only what one device allows.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "coherence_support.hpp"

namespace hx = hipamp;

namespace {

// Devices with memory of their own, in get_all() order: GPUs and emulated discrete devices.
std::vector<hx::accelerator> separate_memory_devices() {
  std::vector<hx::accelerator> out;
  for (const hx::accelerator& acc : hipamp_test::accelerators()) {
    if (hipamp_test::has_own_memory(acc)) out.push_back(acc);
  }
  return out;
}

int count_if_env(const char* name) {
  const char* env = std::getenv(name);
  return env == nullptr ? -1 : std::atoi(env);
}

}  // namespace

TEST_CASE("every device is listed once, with its own default view", "[multi-device]") {
  const std::vector<hx::accelerator> all = hipamp_test::accelerators();
  std::set<std::wstring> paths;
  int gpus = 0;
  int emulated = 0;
  for (const hx::accelerator& acc : all) {
    INFO("device " << hipamp_test::name(acc));
    CHECK(paths.insert(acc.get_device_path()).second);
    CHECK(hx::accelerator(acc.get_device_path()) == acc);
    const hx::accelerator_view view = acc.get_default_view();
    CHECK(view.get_accelerator() == acc);
    CHECK(acc.get_default_view() == view);  // one default view per device, kept
    for (const hx::accelerator& other : all) {
      if (other != acc) CHECK(other.get_default_view() != view);
    }
    if (!acc.is_cpu()) ++gpus;
    if (acc.get_device_path().rfind(L"cpu-discrete", 0) == 0) ++emulated;
    // A device never copies from itself "directly": its own bytes do not move.
    CHECK(!acc.can_copy_directly_from(acc));
  }
  CHECK(paths.count(hx::accelerator::cpu_accelerator) == 1);
  // The route each pair of devices with their own memory takes, in the log of every run.
  const std::vector<hx::accelerator> own = separate_memory_devices();
  for (const hx::accelerator& to : own) {
    for (const hx::accelerator& from : own) {
      if (from == to) continue;
      WARN("route " << hipamp_test::name(from) << " -> " << hipamp_test::name(to) << ": "
                    << (to.can_copy_directly_from(from) ? "peer copy" : "through the host"));
    }
  }
  // The GPU machine's scripts say how many GPUs nvidia-smi sees; every one must be listed.
  if (const int want_gpus = count_if_env("HIPAMP_TEST_EXPECT_GPUS"); want_gpus >= 0) {
    CHECK(gpus == want_gpus);
  }
  if (const int want_emulated = count_if_env("HIPAMP_EMULATE_DISCRETE_DEVICE");
      want_emulated >= 0) {
    CHECK(emulated == want_emulated);
  }
}

TEST_CASE("HIPAMP_DEFAULT_ACCELERATOR=<n> picks get_all()[n]", "[multi-device][accelerator]") {
  const char* env = std::getenv("HIPAMP_DEFAULT_ACCELERATOR");
  const std::string want = env == nullptr ? "" : env;
  if (want.empty() || want.find_first_not_of("0123456789") != std::string::npos) {
    WARN("HIPAMP_DEFAULT_ACCELERATOR is not an index here; CTest's multi-device runs set it");
    return;
  }
  const std::vector<hx::accelerator> all = hx::accelerator::get_all();
  const std::size_t n = std::stoul(want);
  REQUIRE(n < all.size());
  CHECK(hx::accelerator() == all[n]);
  // Views made without an accelerator_view run there too.
  std::vector<int> data(1000, 1);
  hx::array_view<int, 1> v(1000, data);
  hipamp_test::transfer_meter meter(all[n]);
  hx::parallel_for_each(v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] += i[0]; });
  v.synchronize();
  for (int i = 0; i < 1000; ++i) REQUIRE(data[i] == 1 + i);
  const std::uint64_t bytes = sizeof(int) * 1000;
  CHECK_MOVES(all[n], meter, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
}

TEST_CASE("one view used on one device, then another, then the host", "[multi-device][coherence]") {
  const std::vector<hx::accelerator> devices = separate_memory_devices();
  if (devices.size() < 2) WARN("fewer than two devices with their own memory: nothing to visit");
  // A plain loop, not FOR_EACH_ACCELERATOR (nvcc and nested section macros, see support.hpp).
  for (const hx::accelerator& first : devices) {
    for (const hx::accelerator& second : devices) {
      if (first == second) continue;
      DYNAMIC_SECTION(hipamp_test::name(first) << " then " << hipamp_test::name(second)) {
        const int n = 100003;
        const std::uint64_t bytes = sizeof(int) * static_cast<std::uint64_t>(n);
        const std::vector<int> original = hipamp_test::random_vector<int>(n, -100000, 100000);
        std::vector<int> data = original;
        hx::array_view<int, 1> v(n, data);
        hipamp_test::transfer_meter on_first(first);
        hipamp_test::transfer_meter on_second(second);

        hx::parallel_for_each(first.get_default_view(), v.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] * 3 + 1; });
        CHECK_MOVES(first, on_first, hipamp_test::moves().h2d(1, bytes));
        hx::parallel_for_each(second.get_default_view(), v.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] - i[0]; });
        // The second device reads the first one's writes: straight from its memory where it
        // can, else through the host (the first device's bytes go out, then in again).
        const bool direct = second.can_copy_directly_from(first);
        INFO((direct ? "peer copy" : "through the host"));
        if (direct) {
          CHECK_MOVES(first, on_first, hipamp_test::moves().h2d(1, bytes));
          CHECK_MOVES(second, on_second, hipamp_test::moves().d2d(1, bytes));
        } else {
          CHECK_MOVES(first, on_first, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
          CHECK_MOVES(second, on_second, hipamp_test::moves().h2d(1, bytes));
        }
        hipamp_test::transfer_meter second_out(second);
        v.synchronize();
        CHECK_MOVES(second, second_out, hipamp_test::moves().d2h(1, bytes));
        std::size_t bad = 0;
        for (int i = 0; i < n; ++i) bad += data[i] != (original[i] * 3 + 1) - i;
        CHECK(bad == 0);

        // Back to the first device: its replica is stale, and the host holds the data now.
        hipamp_test::transfer_meter again(first);
        hx::parallel_for_each(first.get_default_view(), v.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = -v[i]; });
        v.synchronize();
        CHECK_MOVES(first, again, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
        bad = 0;
        for (int i = 0; i < n; ++i) bad += data[i] != -((original[i] * 3 + 1) - i);
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("arrays on two devices copy both ways at once", "[multi-device][coherence][array]") {
  const std::vector<hx::accelerator> devices = separate_memory_devices();
  if (devices.size() < 2) WARN("fewer than two devices with their own memory: no pair to copy");
  for (std::size_t k = 0; k + 1 < devices.size(); ++k) {
    const hx::accelerator& a = devices[k];
    const hx::accelerator& b = devices[k + 1];
    DYNAMIC_SECTION(hipamp_test::name(a) << " and " << hipamp_test::name(b)) {
      const int n = 1 << 20;
      const std::uint64_t bytes = sizeof(float) * static_cast<std::uint64_t>(n);
      const std::vector<float> x = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
      const std::vector<float> y = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
      // Each source array is written by a kernel on its own device, so that it is valid
      // there only (an array filled from iterators would still hold its data on the host).
      hx::array<float, 1> x_on_a(n, a.get_default_view());
      hx::array<float, 1> y_on_b(n, b.get_default_view());
      {
        hx::array_view<const float, 1> x_in(n, x);
        hx::array_view<const float, 1> y_in(n, y);
        hx::array_view<float, 1> xa(x_on_a);
        hx::array_view<float, 1> yb(y_on_b);
        hx::parallel_for_each(a.get_default_view(), xa.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { xa[i] = x_in[i]; });
        hx::parallel_for_each(b.get_default_view(), yb.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { yb[i] = y_in[i]; });
      }
      hx::array<float, 1> x_on_b(n, b.get_default_view());
      hx::array<float, 1> y_on_a(n, a.get_default_view());
      hipamp_test::transfer_meter meter_a(a);
      hipamp_test::transfer_meter meter_b(b);
      // Both copies in flight together: each device sends and receives.
      hx::completion_future to_b = hx::copy_async(x_on_a, x_on_b);
      hx::completion_future to_a = hx::copy_async(y_on_b, y_on_a);
      to_b.get();
      to_a.get();
      if (b.can_copy_directly_from(a) && a.can_copy_directly_from(b)) {
        CHECK_MOVES(a, meter_a, hipamp_test::moves().d2d(1, bytes));
        CHECK_MOVES(b, meter_b, hipamp_test::moves().d2d(1, bytes));
      } else {
        CHECK_MOVES(a, meter_a, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
        CHECK_MOVES(b, meter_b, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
      }
      // Each copy is used where it landed, then read back.
      hx::array_view<float, 1> xb(x_on_b);
      hx::array_view<float, 1> ya(y_on_a);
      hx::parallel_for_each(b.get_default_view(), xb.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { xb[i] = xb[i] * 2.0f; });
      hx::parallel_for_each(a.get_default_view(), ya.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { ya[i] = ya[i] + 1.0f; });
      std::vector<float> x_back(n);
      std::vector<float> y_back(n);
      hx::copy(x_on_b, x_back.begin());
      hx::copy(y_on_a, y_back.begin());
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) {
        bad += x_back[i] != x[i] * 2.0f;
        bad += y_back[i] != y[i] + 1.0f;
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("a vector add split across every device", "[multi-device][coherence]") {
  std::vector<hx::accelerator> devices = separate_memory_devices();
  if (devices.empty()) devices.push_back(hx::accelerator(hx::accelerator::cpu_accelerator));
  const int parts = static_cast<int>(devices.size());
  const int n = (1 << 20) + 7;  // not a multiple of the parts: the last one is longer
  const std::vector<float> a = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> b = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> c(n, -7.0f);
  hx::array_view<const float, 1> av(n, a);
  hx::array_view<const float, 1> bv(n, b);
  hx::array_view<float, 1> cv(n, c);
  cv.discard_data();
  std::vector<hipamp_test::transfer_meter> meters;
  for (const hx::accelerator& d : devices) meters.emplace_back(d);
  const int share = n / parts;
  for (int p = 0; p < parts; ++p) {
    const int begin = p * share;
    const int length = p + 1 == parts ? n - begin : share;
    hx::array_view<const float, 1> as = av.section(begin, length);
    hx::array_view<const float, 1> bs = bv.section(begin, length);
    hx::array_view<float, 1> cs = cv.section(begin, length);
    // Launches are asynchronous: every device works at once.
    hx::parallel_for_each(devices[p].get_default_view(), cs.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { cs[i] = as[i] + bs[i]; });
  }
  cv.synchronize();
  std::size_t bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  CHECK(bad == 0);
  // Each device received exactly its share of a and b and sent back its share of c.
  for (int p = 0; p < parts; ++p) {
    const int length = p + 1 == parts ? n - p * share : share;
    const std::uint64_t bytes = sizeof(float) * static_cast<std::uint64_t>(length);
    INFO("part " << p << " on " << hipamp_test::name(devices[p]));
    CHECK_MOVES(devices[p], meters[p], hipamp_test::moves().h2d(2, 2 * bytes).d2h(1, bytes));
  }
}

TEST_CASE("sort, reduce and scan run on each device of one process", "[multi-device][sort]") {
  const std::vector<hx::accelerator> devices = separate_memory_devices();
  if (devices.size() < 2) WARN("fewer than two devices with their own memory");
  // Twice round, so that each device's cached scratch memory is reused after another
  // device's algorithms ran (a cache keyed by the wrong device fails the second round).
  for (int round = 0; round < 2; ++round) {
    for (const hx::accelerator& d : devices) {
      DYNAMIC_SECTION("round " << round << " on " << hipamp_test::name(d)) {
        const hx::accelerator_view on = d.get_default_view();
        const int n = 300007;  // above the radix-sort threshold, not a power of two
        const std::vector<int> keys = hipamp_test::random_vector<int>(n, -1000000, 1000000);
        const long long want_sum = std::accumulate(keys.begin(), keys.end(), 0LL);
        std::vector<long long> want_scan(n);
        std::partial_sum(keys.begin(), keys.end(), want_scan.begin(),
                         [](long long s, int k) { return s + k; });

        hx::array_view<const int, 1> in(n, keys);
        CHECK(hx::reduce(on, in, 0LL) == want_sum);
        std::vector<long long> scanned(n, -1);
        hx::array_view<long long, 1> out(n, scanned);
        hx::inclusive_scan(on, in, out);
        out.synchronize();
        CHECK(scanned == want_scan);

        // Radix sort above 2^16 keys, the bitonic network below: both of each device.
        for (const int length : {n, 5000}) {
          std::vector<int> data(keys.begin(), keys.begin() + length);
          std::vector<int> want(data);
          std::sort(want.begin(), want.end());
          hx::array_view<int, 1> sorted(length, data);
          hx::sort(on, sorted);
          sorted.synchronize();
          CHECK(data == want);
        }
      }
    }
  }
}
