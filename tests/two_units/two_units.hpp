// One program, two kinds of translation unit (issue 16): gpu_unit.cpp is compiled by the GPU
// compiler in GPU builds, host_unit.cpp always by the C++ compiler, and both instantiate the
// very same library templates from this header: hipamp::sort and parallel_sort on unsigned
// with one comparator type, parallel_sort_keys of a key_index type, reduce, inclusive_scan and
// parallel_for_each of one named kernel type. Those templates' bodies differ between the two
// kinds of unit (only a GPU unit can launch GPU kernels); if the library let the linker merge
// them, one unit would run the other's copy: the GPU unit's work would land on the CPU device
// or throw, or the host unit's refused GPU launch would run. Each unit reports where its work
// ran; main.cpp judges the reports. CTest links the objects in both orders (the linker keeps
// the first definition it sees of an inline function).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

namespace two_units {

// The comparator both units sort with: one type, so one sort specialisation.
struct less_u32 {
  HIPAMP_HOST_DEVICE bool operator()(const unsigned& a, const unsigned& b) const { return a < b; }
};

// The kernel both units launch: a result to check, and in `gpu_code` whether the work-item ran
// as code compiled for the GPU (HIPAMP_DEVICE_COMPILE is 1 only in a GPU compiler's device
// pass). A named type, so both units instantiate one parallel_for_each specialisation.
struct affine_and_mark {
  hipamp::array_view<const int, 1> in;
  hipamp::array_view<int, 1> out;
  hipamp::array_view<int, 1> gpu_code;
  HIPAMP_RESTRICT void operator()(hipamp::index<1> i) const {
    out[i] = 3 * in[i] + 1;
    gpu_code[i] = HIPAMP_DEVICE_COMPILE;
  }
};

// A user type that parallel_sort_keys sorts through key_index_type.
struct particle {
  float mass;
  unsigned cell;
};

// Where one operation ran, as its unit observed it.
enum class ran {
  cpu_device,  // no bytes moved (the CPU device aliases host memory), kernel code host-compiled
  gpu,         // bytes moved in and out (views of host data), or device code ran
  refused,     // threw hipamp::unsupported_feature before moving any data
  skipped,     // not tried: it needs a GPU and there is none
  wrong,       // anything else: an unexpected exception, bytes moved on a refusal, ...
};

struct outcome {
  std::string operation;
  std::string target;  // "gpu" or "cpu" (that device's accelerator_view), or "auto" (none given)
  ran where = ran::wrong;
  bool correct = false;  // the result equals the host reference (or the data is untouched)
  std::string detail;
};

struct unit_report {
  std::string unit;
  bool gpu_translation_unit = false;
  std::vector<outcome> outcomes;
};

unit_report run_gpu_unit();   // gpu_unit.cpp
unit_report run_host_unit();  // host_unit.cpp

}  // namespace two_units

template <>
struct hipamp::key_index_type<two_units::particle> {
  unsigned k;
  int i;
  key_index_type() = default;
  HIPAMP_RESTRICT key_index_type(two_units::particle value, int index) : k(value.cell), i(index) {}
  HIPAMP_RESTRICT bool operator<(const key_index_type& other) const { return k < other.k; }
};
