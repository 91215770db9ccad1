// hipamp::gemm's compiled half: operand checks and the dispatch to the device's kernel.
#include <hipamp/matmul.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <hipamp/detail/launch.hpp>
#include <hipamp/fallback/gemm.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/gemm.hpp>
#endif

namespace hipamp::detail {
namespace {

std::string describe_op(const char* name, matrix_op op, const extent<2>& shape) {
  const int rows = op == matrix_op::none ? shape[0] : shape[1];
  const int cols = op == matrix_op::none ? shape[1] : shape[0];
  std::string s = "op(";
  s += name;
  s += ") = ";
  s += op == matrix_op::none ? name : std::string(name) + "^T";
  s += " is " + std::to_string(rows) + " x " + std::to_string(cols) + " (" + name + " has extent " +
       to_string(shape) + ")";
  return s;
}

using byte_run = std::pair<std::size_t, std::size_t>;

std::vector<byte_run> runs_of(const footprint& fp, std::size_t base) {
  std::vector<byte_run> runs;
  fp.for_each_run([&](std::size_t b, std::size_t e) { runs.emplace_back(base + b, base + e); });
  std::sort(runs.begin(), runs.end());
  return runs;
}

}  // namespace

bool footprints_overlap(const data_source* x_source, const footprint& x,
                        const data_source* y_source, const footprint& y) {
  std::size_t x_base = 0;
  std::size_t y_base = 0;
  if (x_source != y_source) {
    // Separate sources share memory only when both sit on user host memory that overlaps
    // (views made over a vector, then over a larger part of it); library-owned storage never
    // overlaps anything else.
    if (x_source->host_base() == nullptr || y_source->host_base() == nullptr) return false;
    x_base = reinterpret_cast<std::size_t>(x_source->host_base());
    y_base = reinterpret_cast<std::size_t>(y_source->host_base());
  }
  if (x_base + x.end_byte() <= y_base + y.begin_byte() ||
      y_base + y.end_byte() <= x_base + x.begin_byte()) {
    return false;
  }
  // The bounding ranges meet; sections such as two column blocks of one matrix interleave
  // without sharing an element, so compare the exact runs.
  const std::vector<byte_run> xs = runs_of(x, x_base);
  const std::vector<byte_run> ys = runs_of(y, y_base);
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < xs.size() && j < ys.size()) {
    if (xs[i].second <= ys[j].first) {
      ++i;
    } else if (ys[j].second <= xs[i].first) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

void check_gemm_operands(const char* function, matrix_op op_a, matrix_op op_b,
                         const gemm_operand& a, const gemm_operand& b, const gemm_operand& c) {
  for (const gemm_operand* x : {&a, &b, &c}) {
    if (x->shape[0] <= 0 || x->shape[1] <= 0) {
      throw runtime_exception(
          std::string(function) + ": " + x->name + " has extent " + to_string(x->shape) +
          "; empty matrices do not exist in C++ AMP (every extent is positive)");
    }
  }
  const int m = op_a == matrix_op::none ? a.shape[0] : a.shape[1];
  const int k_a = op_a == matrix_op::none ? a.shape[1] : a.shape[0];
  const int k_b = op_b == matrix_op::none ? b.shape[0] : b.shape[1];
  const int n = op_b == matrix_op::none ? b.shape[1] : b.shape[0];
  if (k_a != k_b) {
    throw runtime_exception(std::string(function) + ": " + describe_op("A", op_a, a.shape) +
                            " but " + describe_op("B", op_b, b.shape) + ": the inner dimensions " +
                            std::to_string(k_a) + " and " + std::to_string(k_b) + " differ");
  }
  if (c.shape[0] != m || c.shape[1] != n) {
    throw runtime_exception(std::string(function) + ": C has extent " + to_string(c.shape) +
                            " but op(A) * op(B) is " + std::to_string(m) + " x " +
                            std::to_string(n) + " (" + describe_op("A", op_a, a.shape) + ", " +
                            describe_op("B", op_b, b.shape) + ")");
  }
  for (const gemm_operand* input : {&a, &b}) {
    if (footprints_overlap(c.source, c.where, input->source, input->where)) {
      throw runtime_exception(std::string(function) + ": C (extent " + to_string(c.shape) +
                              ") shares elements with " + input->name + " (extent " +
                              to_string(input->shape) + "); the output must not overlap an input");
    }
  }
}

accelerator_view gemm_default_view(const data_source* c_source) {
  if (c_source != nullptr && c_source->home_queue())
    return accelerator_view(c_source->home_queue());
  return accelerator::get_auto_selection_view();  // libhipamp can run gemm on every device
}

// The device room's gemm_on; on_device is the launch protocol's one dispatch (detail/launch.hpp).
// This file is compiled as CUDA or HIP in GPU builds (HipampGemmKernels.cmake), so the GPU room
// is there; the GPU kernels themselves are precompiled in gemm_gpu_float/double.cpp.
event_ptr run_gemm(const accelerator_view& av, const gemm_problem<float>& problem) {
  return on_device(av, "hipamp::gemm", [&](const auto& on) { return gemm_on(on, problem); });
}
event_ptr run_gemm(const accelerator_view& av, const gemm_problem<double>& problem) {
  return on_device(av, "hipamp::gemm", [&](const auto& on) { return gemm_on(on, problem); });
}

}  // namespace hipamp::detail
