// C++ AMP: vector add with exp, as in the GPU chapter of "Pro .NET Performance":
// c[i] = a[i] + exp(b[i]). The inputs are read-only views, the output discards its old
// contents, and synchronize() brings the result home once. Checks itself against a serial
// loop in double precision; returns non-zero on a mismatch.
#include <amp.h>
#include <amp_math.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

using namespace concurrency;

void add_exp(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c) {
  const int n = static_cast<int>(a.size());
  array_view<const float, 1> av(n, a), bv(n, b);
  array_view<float, 1> cv(n, c);
  cv.discard_data();
  parallel_for_each(cv.extent, [=](index<1> idx) restrict(amp) {
    cv[idx] = av[idx] + fast_math::exp(bv[idx]);
  });
  cv.synchronize();
}

int main() {
  accelerator acc;
  std::wcout << L"vector add with exp on " << acc.description << std::endl;

  const int n = 1 << 20;
  std::mt19937 gen(2012);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = dist(gen);
    b[i] = dist(gen);
  }
  add_exp(a, b, c);

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double want = static_cast<double>(a[i]) + std::exp(static_cast<double>(b[i]));
    if (std::abs(c[i] - want) > 1e-5 * std::max(1.0, std::abs(want)) && wrong++ < 5) {
      std::wcout << L"c[" << i << L"] = " << c[i] << L", expected " << want << std::endl;
    }
  }
  std::wcout << (wrong ? L"FAILED" : L"OK") << std::endl;
  return wrong ? 1 : 0;
}
