// Eigen's matrix product, C = A * B on row-major host buffers (see gemm_eigen_peer.cpp).
#pragma once

namespace gemm_peer {

void eigen_gemm(const float* a, const float* b, float* c, int m, int n, int k);
void eigen_gemm(const double* a, const double* b, double* c, int m, int n, int k);
int eigen_threads();
const char* eigen_simd();

}  // namespace gemm_peer
