// C++ AMP: a tiled sum reduction, as EPGPU recommends: the lower levels of the tree in
// tile_static memory with tile barriers, repeated until one tile's worth is left, and the top
// levels on the CPU. Checks itself against a serial sum in double precision; returns non-zero
// on a mismatch.
#include <amp.h>

#include <cmath>
#include <iostream>
#include <numeric>
#include <random>
#include <vector>

using namespace Concurrency;

static const int TILE = 256;

// One level: every tile of `in` sums to one element of `out`.
void reduce_tiles(const array_view<const float, 1>& in, const array_view<float, 1>& out) {
  out.discard_data();
  parallel_for_each(in.extent.tile<TILE>(), [=](tiled_index<TILE> t) restrict(amp) {
    tile_static float partial[TILE];
    const int local = t.local[0];
    partial[local] = in[t.global];
    t.barrier.wait();
    for (int stride = TILE / 2; stride > 0; stride /= 2) {
      if (local < stride) partial[local] += partial[local + stride];
      t.barrier.wait();
    }
    if (local == 0) out[t.tile] = partial[0];
  });
}

float sum(const std::vector<float>& data) {
  array<float, 1> level(static_cast<int>(data.size()), data.begin(), data.end());
  while (level.extent[0] > TILE && level.extent[0] % TILE == 0) {
    array<float, 1> next(level.extent[0] / TILE);
    reduce_tiles(level, next);
    level = std::move(next);
  }
  std::vector<float> rest(level.extent[0]);
  copy(level, rest.begin());
  return std::accumulate(rest.begin(), rest.end(), 0.0f);  // the top of the tree
}

int main() {
  const int n = TILE * TILE * 8;
  std::mt19937 gen(8000);
  std::uniform_real_distribution<float> dist(0.0f, 2.0f);
  std::vector<float> data(n);
  for (float& x : data) x = dist(gen);

  const float got = sum(data);
  double want = 0;
  for (float x : data) want += x;
  const bool ok = std::abs(got - want) <= 1e-5 * want;
  std::wcout << L"tiled reduction of " << n << L" floats: " << got << L", serial " << want
             << L": " << (ok ? L"OK" : L"FAILED") << std::endl;
  return ok ? 0 : 1;
}
