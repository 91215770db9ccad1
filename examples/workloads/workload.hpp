// What every seed workload reports to the demo: one row of its table.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

namespace demo {

struct result {
  std::string workload;
  std::string size;
  double seconds = 0;  // median of the timed repetitions, data movement included
  bool ok = false;     // matches the serial reference within the stated tolerance
  std::string note;    // e.g. the error measured, or a throughput
};

// Median wall time of `reps` runs of `work` after one warm-up run (which also fills caches
// and compiles nothing: hipamp kernels are compiled ahead of time).
template <class Work>
double median_seconds(int reps, Work&& work) {
  work();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

inline std::string narrow(const std::wstring& w) {
  std::string s;
  for (wchar_t c : w) s += (c >= 0 && c < 128) ? static_cast<char>(c) : '?';
  return s;
}

}  // namespace demo
