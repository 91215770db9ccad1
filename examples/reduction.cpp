// The EPGPU summation seed: total up an array three ways and print how far each lands from
// the exact sum (accumulated in long double on the host).
//   1. a serial loop in float, the obvious code: slow on a GPU and inaccurate, because every
//      addition rounds against an ever larger running total;
//   2. the recursive tree of kernel launches: each level a parallel_for_each that adds the
//      upper half of the array onto the lower half, log2(n) launches in all;
//   3. hipamp::reduce, the library call: the tree done inside one pass over memory.
//
// Usage: reduction [n] [accelerator: cpu | gpu | default]   (n defaults to 10,000,000)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

double milliseconds_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

hipamp::accelerator_view pick(const std::string& which) {
  if (which == "cpu")
    return hipamp::accelerator(hipamp::accelerator::cpu_accelerator).get_default_view();
  if (which == "gpu") {
    for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
      if (!acc.is_cpu()) return acc.get_default_view();
    }
    throw hipamp::runtime_exception("reduction: no GPU accelerator was found");
  }
  return hipamp::accelerator().get_default_view();
}

std::string narrow(const std::wstring& w) { return {w.begin(), w.end()}; }

void report(const char* method, float sum, long double exact, double ms) {
  const long double error = static_cast<long double>(sum) - exact;
  std::printf("%-28s %18.3f   error %+14.3f (%9.2e relative)   %9.3f ms\n", method, sum,
              static_cast<double>(error), static_cast<double>(std::fabs(error / exact)), ms);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const long requested = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10000000L;
    if (requested < 1 || requested > 0x7fffffffL) {
      std::fprintf(stderr, "reduction: n must be between 1 and 2^31 - 1, got %s\n", argv[1]);
      return 2;
    }
    const int n = static_cast<int>(requested);
    const hipamp::accelerator_view av = pick(argc > 2 ? argv[2] : "default");

    // Values around 1000, like EPGPU's 8000 floats that summed to 8 million.
    std::vector<float> data(static_cast<std::size_t>(n));
    std::mt19937 rng(2011);
    std::uniform_real_distribution<float> dist(500.0f, 1500.0f);
    for (float& x : data) x = dist(rng);
    long double exact = 0;
    for (float x : data) exact += x;

    std::printf("summing %d floats on %s\n", n,
                narrow(av.get_accelerator().get_description()).c_str());
    std::printf("%-28s %18.3Lf\n", "exact (long double)", exact);

    // 1. The serial loop.
    auto start = clock_type::now();
    float serial = 0;
    for (float x : data) serial += x;
    report("serial loop (host, float)", serial, exact, milliseconds_since(start));

    // 2. The tree of launches: each level folds the upper half onto the lower half.
    std::vector<float> scratch = data;
    {
      const hipamp::array_view<float, 1> a(n, scratch.data());
      a.synchronize_to(av);  // time the launches, not the copy to the device
      start = clock_type::now();
      int launches = 0;
      for (int length = n; length > 1; ++launches) {
        const int kept = (length + 1) / 2;  // an odd element in the middle stays put
        parallel_for_each(av, hipamp::extent<1>(length - kept),
                          [=] HIPAMP_RESTRICT(hipamp::index<1> i) { a[i] += a[i + kept]; });
        length = kept;
      }
      const float tree = a[0];  // host access waits for the last launch
      const double ms = milliseconds_since(start);
      char label[64];
      std::snprintf(label, sizeof label, "tree of %d launches", launches);
      report(label, tree, exact, ms);
    }

    // 3. The library call, timed on its second run: the first copies the data to the device
    //    and sets up the device's scratch memory.
    const hipamp::array_view<const float, 1> view(n, data.data());
    float total = hipamp::reduce(av, view, 0.0f);
    start = clock_type::now();
    total = hipamp::reduce(av, view, 0.0f);
    report("hipamp::reduce", total, exact, milliseconds_since(start));
    return 0;
  } catch (const hipamp::runtime_exception& e) {
    std::fprintf(stderr, "reduction: %s\n", e.what());
    return 1;
  }
}
