// C++ AMP: a matrix product checked the way student projects check it: the GPU's C == the CPU's
// C, element by element, in float. That held on Direct3D under MSVC's default /fp:precise,
// where the kernel's sum += a * b rounded the product and the sum separately, as the CPU loop
// does. A port keeps it only when built without multiply-add contraction
// (hipamp_cxxamp_port: nvcc --fmad=false, -ffp-contract=off); an FMA rounds once and the
// comparison fails in the last bit. Also reads past its input, as such programs sometimes do,
// and relies on Direct3D's zero for it. Returns non-zero on a mismatch.
#include <amp.h>

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <vector>

using namespace concurrency;

static const int TILE = 16;

int main() {
  const int m = 5 * TILE, w = 7 * TILE + 3, n = 9 * TILE;
  std::srand(static_cast<unsigned>(std::time(nullptr)));
  std::vector<float> a(m * w), b(w * n), gpu(m * n, -1.0f), cpu(m * n);
  for (float& x : a) x = float(std::rand()) / RAND_MAX * 2.0f - 1.0f;
  for (float& x : b) x = float(std::rand()) / RAND_MAX * 2.0f - 1.0f;

  array_view<const float, 2> av(m, w, a);
  array_view<const float, 2> bv(w, n, b);
  array_view<float, 2> cv(m, n, gpu);
  cv.discard_data();
  // Tiled, with the last partial tile of k read past the end of a row of av (and of bv's last
  // rows): the zeros Direct3D returned there add nothing, and w is not a multiple of TILE.
  parallel_for_each(
      cv.extent.tile<TILE, TILE>(), [=](tiled_index<TILE, TILE> t) restrict(amp) {
        tile_static float as[TILE][TILE];
        tile_static float bs[TILE][TILE];
        const int row = t.global[0];
        const int col = t.global[1];
        float sum = 0.0f;
        for (int k0 = 0; k0 < w; k0 += TILE) {
          const int ka = k0 + t.local[1];
          const int kb = k0 + t.local[0];
          as[t.local[0]][t.local[1]] = ka < w ? av(row, ka) : av(m, 0);  // av(m, 0): past the end
          bs[t.local[0]][t.local[1]] = bv(kb, col);  // past the end in the last partial tile
          t.barrier.wait();
          for (int k = 0; k < TILE; ++k) {
            if (k0 + k < w) sum += as[t.local[0]][k] * bs[k][t.local[1]];
          }
          t.barrier.wait();
        }
        cv[t.global] = sum;
      });
  cv.synchronize();

  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < w; ++k) sum += a[i * w + k] * b[k * n + j];
      cpu[i * n + j] = sum;
    }
  }
  int wrong = 0;
  for (int i = 0; i < m * n; ++i) {
    if (gpu[i] != cpu[i] && wrong++ < 5) {
      std::cout << "mismatch at " << i << ": " << gpu[i] << " != " << cpu[i] << std::endl;
    }
  }
  std::cout << (wrong ? "FAILED" : "Data matches") << std::endl;
  return wrong ? 1 : 0;
}
