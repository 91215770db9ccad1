// What every benchmark shares on the host side: the median of timed samples, wall-clock
// timing, and which accelerators are GPUs. Included by every bench_*.cpp and benchmarks/sort/.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hipamp/hipamp.hpp>

namespace bench {

// The median of timed samples: the middle one, or for an even count the mean of the two middle
// ones. One definition for every figure, so that two benchmarks' medians of the same samples
// agree. The mean of the middle two is the textbook median (Python's statistics.median, which
// scripts/plot_benchmarks.py uses): it neither favours the slower half (the upper median, which
// bench_reduce used until issue 16, so its medians over an even number of iterations may now
// read slightly lower) nor the faster one. For an odd count, every definition gives the
// middle sample.
inline double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid),
                   samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 != 0) return upper;
  const double lower =
      *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

// The median of `reps` calls of `once`, which returns one sample.
template <class Once>
double median_of(int reps, Once&& once) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) samples.push_back(once());
  return median(std::move(samples));
}

using clock_type = std::chrono::steady_clock;

inline double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// Wall-clock seconds of one call of f.
template <class F>
double seconds_of(F&& f) {
  const auto start = clock_type::now();
  f();
  return seconds_since(start);
}

// Every GPU accelerator, in the runtime's order (the best first).
// The CPU device's default view, made once: what the CPU benchmarks launch on.
inline const hipamp::accelerator_view& cpu_view() {
  static const hipamp::accelerator_view view =
      hipamp::accelerator(hipamp::accelerator::cpu_accelerator).get_default_view();
  return view;
}

inline std::vector<hipamp::accelerator> gpu_accelerators() {
  std::vector<hipamp::accelerator> out;
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    if (!acc.is_cpu()) out.push_back(acc);
  }
  return out;
}

inline std::optional<hipamp::accelerator> first_gpu() {
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    if (!acc.is_cpu()) return acc;
  }
  return std::nullopt;
}

// An accelerator's description for a benchmark label (descriptions are ASCII).
inline std::string narrow(const std::wstring& w) {
  std::string s;
  for (wchar_t c : w) s += static_cast<char>(c);
  return s;
}

}  // namespace bench
