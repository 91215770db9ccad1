// Helpers shared by the tests: the accelerators every test runs on, random data and
// references computed independently of hipamp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

#include "catch.hpp"

namespace hipamp_test {

// Every accelerator present (GPUs, the CPU device, and the emulated discrete device when
// HIPAMP_EMULATE_DISCRETE_DEVICE=1).
// Every device once: get_all() without its direct3d_warp entry, which is the CPU device again.
inline std::vector<hipamp::accelerator> accelerators() {
  std::vector<hipamp::accelerator> all = hipamp::accelerator::get_all();
  all.erase(std::remove_if(all.begin(), all.end(),
                           [](const hipamp::accelerator& acc) {
                             return acc.get_device_path() == hipamp::accelerator::direct3d_warp;
                           }),
            all.end());
  return all;
}

inline std::string name(const hipamp::accelerator& acc) {
  std::string s;
  for (wchar_t c : acc.get_device_path()) s += static_cast<char>(c);
  return s;
}

inline std::mt19937& rng() {
  static std::mt19937 engine(std::random_device{}());
  return engine;
}

template <class T>
std::vector<T> random_vector(std::size_t n, T lo, T hi) {
  std::vector<T> v(n);
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (T& x : v) x = dist(rng());
  } else {
    std::uniform_int_distribution<T> dist(lo, hi);
    for (T& x : v) x = dist(rng());
  }
  return v;
}

}  // namespace hipamp_test

// Runs the enclosing test body once per accelerator, as a named section. The section is
// opened without Catch's DYNAMIC_SECTION: Catch2 v3 wraps it in _Pragma()s, and nvcc 13 stops
// with an internal error (unlink_src_seq_entries) on extended lambdas in a body opened that way
// through a second macro (seen on the H200 machine; scripts/probes/ checks it).
#define FOR_EACH_ACCELERATOR(acc)                                    \
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) \
    if (Catch::Section const& hipamp_test_section_ =                 \
            Catch::SectionInfo(CATCH_INTERNAL_LINEINFO, "on " + hipamp_test::name(acc)))
