// C++ AMP: matrix multiply, the simple model of Daniel Moth's blog and the 2011 study
// (C = A * B, one work-item per element of C). A helper runs on both the CPU and the GPU.
// Checks itself against a serial product in double precision; returns non-zero on a mismatch.
#include <amp.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

using namespace concurrency;

// restrict(cpu, amp): the same helper for the kernel and for the serial check.
inline float multiply_add(float sum, float x, float y) restrict(cpu, amp) { return sum + x * y; }

void multiply(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
              int m, int w, int n) {
  array_view<const float, 2> av(m, w, a);
  array_view<const float, 2> bv(w, n, b);
  array_view<float, 2> cv(m, n, c);
  cv.discard_data();
  parallel_for_each(cv.extent, [=](index<2> idx) restrict(amp) {
    const int row = idx[0];
    const int col = idx[1];
    float sum = 0.0f;
    for (int k = 0; k < w; ++k) {
      sum = multiply_add(sum, av(row, k), bv(k, col));
    }
    cv[idx] = sum;
  });
  cv.synchronize();
}

int main() {
  const int m = 120, w = 160, n = 200;  // the study used 480 x 640 x 960
  std::mt19937 gen(470);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(m * w), b(w * n), c(m * n, -1.0f);
  for (float& x : a) x = dist(gen);
  for (float& x : b) x = dist(gen);

  std::wcout << L"matrix multiply " << m << L"x" << w << L" * " << w << L"x" << n << L" on "
             << accelerator().description << std::endl;
  multiply(a, b, c, m, w, n);

  int wrong = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int k = 0; k < w; ++k) want += static_cast<double>(a[i * w + k]) * b[k * n + j];
      const float got = c[i * n + j];
      if (std::abs(got - want) > 1e-4 * (1 + std::abs(want)) && wrong++ < 5) {
        std::wcout << L"c(" << i << L"," << j << L") = " << got << L", expected " << want
                   << std::endl;
      }
    }
  }
  // The helper is an ordinary function on the CPU too.
  if (multiply_add(1.0f, 2.0f, 3.0f) != 7.0f) ++wrong;
  std::wcout << (wrong ? L"FAILED" : L"OK") << std::endl;
  return wrong ? 1 : 0;
}
