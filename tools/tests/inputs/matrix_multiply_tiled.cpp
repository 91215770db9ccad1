// C++ AMP: integer matrix multiply with 16x16 tiles in tile_static memory, as in "Pro .NET
// Performance" (1024x1024 ints, 430x the CPU) and Daniel Moth's tiling posts: each step copies
// one tile of A and of B into tile_static memory, waits, accumulates 16 products, waits.
// Checks itself against a serial product (exact for ints); returns non-zero on a mismatch.
#include <amp.h>

#include <iostream>
#include <random>
#include <vector>

using namespace concurrency;

static const int TS = 16;

void multiply_tiled(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& c,
                    int m, int w, int n) {
  array_view<const int, 2> av(m, w, a);
  array_view<const int, 2> bv(w, n, b);
  array_view<int, 2> cv(m, n, c);
  cv.discard_data();
  parallel_for_each(cv.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    const int row = t_idx.local[0];
    const int col = t_idx.local[1];
    int sum = 0;
    for (int i = 0; i < w; i += TS) {
      tile_static int sa[TS][TS];
      tile_static int sb[TS][TS];
      sa[row][col] = av(t_idx.global[0], col + i);
      sb[row][col] = bv(row + i, t_idx.global[1]);
      t_idx.barrier.wait();
      for (int k = 0; k < TS; ++k) sum += sa[row][k] * sb[k][col];
      t_idx.barrier.wait();
    }
    cv[t_idx.global] = sum;
  });
  cv.synchronize();
}

int main() {
  const int m = 128, w = 96, n = 160;  // multiples of the tile
  std::mt19937 gen(1024);
  std::uniform_int_distribution<int> dist(-100, 100);
  std::vector<int> a(m * w), b(w * n), c(m * n, -1);
  for (int& x : a) x = dist(gen);
  for (int& x : b) x = dist(gen);

  multiply_tiled(a, b, c, m, w, n);

  int wrong = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int want = 0;
      for (int k = 0; k < w; ++k) want += a[i * w + k] * b[k * n + j];
      if (c[i * n + j] != want && wrong++ < 5) {
        std::wcout << L"c(" << i << L"," << j << L") = " << c[i * n + j] << L", expected " << want
                   << std::endl;
      }
    }
  }
  std::wcout << L"tiled integer matrix multiply: " << (wrong ? L"FAILED" : L"OK") << std::endl;
  return wrong ? 1 : 0;
}
