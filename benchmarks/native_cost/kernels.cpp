// What native element access costs on the CPU device, one kernel kind at a time, for counting
// instructions under valgrind (scripts/native_access_cost.sh): run as `kernels KIND REPS`, it
// launches KIND once to warm up and then REPS more times, so the difference between two REPS
// is the launches alone. Built from two source trees (a base and a change), the counts say
// whether the change made native kernels pay for something (issue 14: robust access must cost
// code without HIPAMP_ROBUST_ACCESS nothing). Define HIPAMP_ROBUST_ACCESS=1 on the command line
// to count a ported unit instead.
#include <hipamp/array_ref.hpp>
#include <hipamp/hipamp.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace hx = hipamp;

namespace {

constexpr int n1 = 1 << 18;  // rank 1: elements
constexpr int side = 512;    // rank 2: side x side
constexpr int cube = 64;     // rank 3: cube^3

struct data {
  std::vector<float> x = std::vector<float>(n1, 1.5f);
  std::vector<float> y = std::vector<float>(n1, 2.0f);
  std::vector<float> img = std::vector<float>(side * side, 1.0f);
  std::vector<float> out = std::vector<float>(side * side, 0.0f);
  std::vector<float> vol = std::vector<float>(cube * cube * cube, 1.0f);
  std::vector<float> vol_out = std::vector<float>(cube * cube * cube, 0.0f);
  hx::array<float, 1> arr{n1, x.begin(), x.end()};
  hx::array<float, 2> arr2{side, side, img.begin(), img.end()};
};

// simple, rank 1: saxpy through array_views.
void simple_saxpy(data& d) {
  hx::array_view<const float, 1> xv(n1, d.x);
  hx::array_view<float, 1> yv(n1, d.y);
  const float a = 0.5f;
  hx::parallel_for_each(yv.extent, [=](hx::index<1> i) { yv[i] = a * xv[i] + yv[i]; });
  yv.synchronize();
}

// simple, rank 2: a 5-point stencil through array_views.
void simple_stencil(data& d) {
  hx::array_view<const float, 2> iv(side, side, d.img);
  hx::array_view<float, 2> ov(side, side, d.out);
  hx::parallel_for_each(hx::extent<2>(side - 2, side - 2), [=](hx::index<2> i) {
    const int r = i[0] + 1, c = i[1] + 1;
    ov(r, c) = 0.2f * (iv(r, c) + iv(r - 1, c) + iv(r + 1, c) + iv(r, c - 1) + iv(r, c + 1));
  });
  ov.synchronize();
}

// simple, rank 3: a 3-D neighbour sum through array_views.
void simple_rank3(data& d) {
  hx::array_view<const float, 3> in(cube, cube, cube, d.vol);
  hx::array_view<float, 3> out(cube, cube, cube, d.vol_out);
  hx::parallel_for_each(hx::extent<3>(cube - 2, cube - 2, cube - 2), [=](hx::index<3> i) {
    const hx::index<3> at = i + hx::index<3>(1, 1, 1);
    out[at] = in[at] + in[at - hx::index<3>(1, 0, 0)] + in[at + hx::index<3>(0, 1, 0)] +
              in[at - hx::index<3>(0, 0, 1)];
  });
  out.synchronize();
}

// simple, rank 1: an array through kernel_handle (how ports capture arrays by reference).
void simple_handle(data& d) {
  hx::array_view<float, 1> yv(n1, d.y);
  auto h = hx::kernel_handle(d.arr);
  hx::parallel_for_each(yv.extent, [=](hx::index<1> i) { yv[i] += h[i]; });
  yv.synchronize();
}

// simple, rank 2: an array through kernel_handle, written.
void simple_handle2(data& d) {
  auto h = hx::kernel_handle(d.arr2);
  hx::parallel_for_each(d.arr2.extent, [=](hx::index<2> i) { h[i] = h[i] * 0.5f + 1.0f; });
}

// tiled without barriers, rank 1: an array through kernel_handle (issue 14's +50% case).
void tiled_handle(data& d) {
  hx::array_view<float, 1> yv(n1, d.y);
  auto h = hx::kernel_handle(d.arr);
  hx::parallel_for_each(yv.extent.tile<256>(),
                        [=](hx::tiled_index<256> t) { yv[t.global] += h[t.global]; });
  yv.synchronize();
}

// tiled without barriers, rank 2: array_views.
void tiled_view2(data& d) {
  hx::array_view<const float, 2> iv(side, side, d.img);
  hx::array_view<float, 2> ov(side, side, d.out);
  hx::parallel_for_each(ov.extent.tile<16, 16>(), [=](hx::tiled_index<16, 16> t) {
    ov[t.global] = 2.0f * iv[t.global] + iv(t.global[0], side - 1 - t.global[1]);
  });
  ov.synchronize();
}

// tiled with a barrier, rank 1: a tile_static tree reduction, one sum per tile.
void tiled_barrier(data& d) {
  hx::array_view<const float, 1> xv(n1, d.x);
  hx::array_view<float, 1> yv(n1 / 256, d.y);
  hx::parallel_for_each(xv.extent.tile<256>(), [=](hx::tiled_index<256> t) {
    HIPAMP_TILE_STATIC float part[256];
    const int l = t.local[0];
    part[l] = xv[t.global];
    t.barrier.wait();
    for (int s = 128; s > 0; s /= 2) {
      if (l < s) part[l] += part[l + s];
      t.barrier.wait();
    }
    if (l == 0) yv[t.tile] = part[0];
  });
  yv.synchronize();
}

// tiled with barriers, rank 2: a 16x16-tiled matrix product, its view reads between barriers.
void tiled_matmul(data& d) {
  constexpr int m = 128;  // m x m, out of the image's rows
  hx::array_view<const float, 2> a(m, m, d.img);
  hx::array_view<const float, 2> b(m, m, d.img.data() + m * m);
  hx::array_view<float, 2> c(m, m, d.out);
  hx::parallel_for_each(c.extent.tile<16, 16>(), [=](hx::tiled_index<16, 16> t) {
    HIPAMP_TILE_STATIC float ta[16][16];
    HIPAMP_TILE_STATIC float tb[16][16];
    const int row = t.local[0], col = t.local[1];
    float sum = 0.0f;
    for (int i = 0; i < m; i += 16) {
      ta[row][col] = a(t.global[0], col + i);
      tb[row][col] = b(row + i, t.global[1]);
      t.barrier.wait();
      for (int k = 0; k < 16; ++k) sum += ta[row][k] * tb[k][col];
      t.barrier.wait();
    }
    c[t.global] = sum;
  });
  c.synchronize();
}

// tile groups, rank 2: a tile transposed through tile_static memory.
void tile_groups(data& d) {
  hx::array_view<const float, 2> iv(side, side, d.img);
  hx::array_view<float, 2> ov(side, side, d.out);
  hx::parallel_for_each_tile(ov.extent.tile<16, 16>(), [=](const hx::tile_context<16, 16>& t) {
    HIPAMP_TILE_STATIC float block[16][16];
    t.for_each_item(
        [&](const hx::tile_item<2>& it) { block[it.local[1]][it.local[0]] = iv[it.global]; });
    t.for_each_item([&](const hx::tile_item<2>& it) {
      ov[it.global] = block[it.local[0]][it.local[1]] + 1.0f;
    });
  });
  ov.synchronize();
}

struct kind {
  const char* name;
  void (*run)(data&);
};
constexpr kind kinds[] = {
    {"simple_saxpy", simple_saxpy},     {"simple_stencil", simple_stencil},
    {"simple_rank3", simple_rank3},     {"simple_handle", simple_handle},
    {"simple_handle2", simple_handle2}, {"tiled_handle", tiled_handle},
    {"tiled_view2", tiled_view2},       {"tiled_barrier", tiled_barrier},
    {"tiled_matmul", tiled_matmul},     {"tile_groups", tile_groups},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const kind& k : kinds) std::printf("%s\n", k.name);
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s KIND REPS, or %s list\n", argv[0], argv[0]);
    return 2;
  }
  const int reps = std::atoi(argv[2]);
  for (const kind& k : kinds) {
    if (std::strcmp(argv[1], k.name) != 0) continue;
    data d;
    for (int r = 0; r <= reps; ++r) k.run(d);
    // Something the launches computed, so that none of them is dead code.
    std::printf("%s %g %g\n", k.name, double(d.y[12345 % d.y.size()]), double(d.out[side * 3 + 7]));
    return 0;
  }
  std::fprintf(stderr, "unknown kind %s\n", argv[1]);
  return 2;
}
