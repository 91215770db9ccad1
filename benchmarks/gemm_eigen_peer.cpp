// bench_gemm's CPU peer: Eigen's matrix product over the benchmark's own row-major buffers
// (Eigen::Map, no copies). Built in its own translation unit with -march=native where the
// compiler has it, so Eigen runs with the widest vectors this CPU offers (hipamp picks its
// kernel at run time), and with OpenMP, so Eigen uses all the threads hipamp uses.
#include "gemm_eigen_peer.hpp"

#include <Eigen/Core>

namespace gemm_peer {
namespace {

template <class T>
using row_major = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
void multiply(const T* a, const T* b, T* c, int m, int n, int k) {
  const Eigen::Map<const row_major<T>> A(a, m, k);
  const Eigen::Map<const row_major<T>> B(b, k, n);
  Eigen::Map<row_major<T>> C(c, m, n);
  C.noalias() = A * B;
}

}  // namespace

void eigen_gemm(const float* a, const float* b, float* c, int m, int n, int k) {
  multiply(a, b, c, m, n, k);
}
void eigen_gemm(const double* a, const double* b, double* c, int m, int n, int k) {
  multiply(a, b, c, m, n, k);
}
int eigen_threads() { return Eigen::nbThreads(); }
const char* eigen_simd() { return Eigen::SimdInstructionSetsInUse(); }

}  // namespace gemm_peer
