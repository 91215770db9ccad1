// C++ AMP: the n-body simulation of "Pro .NET Performance": particles with float_4 position
// (w holds the mass) and velocity; each step every particle sums the softened inverse-square
// acceleration from all others, then updates its velocity and position. One
// parallel_for_each per step, reading the old positions and writing new ones.
// Checks itself against a serial simulation in double precision; returns non-zero on a mismatch.
#include <amp.h>
#include <amp_graphics.h>
#include <amp_math.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

using namespace concurrency;
using namespace concurrency::graphics;

static const float softening_squared = 0.01f;
static const float time_step = 0.005f;

void step(const array_view<const float_4, 1>& old_pos, const array_view<float_4, 1>& new_pos,
          const array_view<float_4, 1>& vel) {
  const int n = old_pos.extent[0];
  parallel_for_each(new_pos.extent, [=](index<1> idx) restrict(amp) {
    const float_4 p = old_pos[idx];
    float_3 acc(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; ++j) {
      const float_4 q = old_pos[j];
      const float_3 d = q.get_xyz() - p.get_xyz();
      const float r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening_squared;
      const float inv_r = fast_math::rsqrt(r2);
      acc += d * float_3(q.w * inv_r * inv_r * inv_r);
    }
    float_4 v = vel[idx];
    v.set_xyz(v.get_xyz() + acc * float_3(time_step));
    vel[idx] = v;
    float_4 moved = p;
    moved.set_xyz(p.get_xyz() + v.get_xyz() * float_3(time_step));
    new_pos[idx] = moved;
  });
}

struct body {
  double p[4];
  double v[3];
};

int main() {
  const int n = 512, steps = 10;
  std::mt19937 gen(10000);
  std::uniform_real_distribution<float> coord(-1.0f, 1.0f), mass(0.5f, 1.5f);
  std::vector<float_4> pos(n), pos2(n), vel(n);
  std::vector<body> ref(n);
  for (int i = 0; i < n; ++i) {
    pos[i] = float_4(coord(gen), coord(gen), coord(gen), mass(gen));
    vel[i] = float_4(0.1f * coord(gen), 0.1f * coord(gen), 0.1f * coord(gen), 0.0f);
    ref[i] = body{{pos[i].x, pos[i].y, pos[i].z, pos[i].w}, {vel[i].x, vel[i].y, vel[i].z}};
  }

  std::wcout << L"n-body, " << n << L" bodies, " << steps << L" steps on "
             << accelerator().get_description() << std::endl;
  {
    array_view<float_4, 1> a(n, pos), b(n, pos2), v(n, vel);
    for (int s = 0; s < steps; ++s) {
      if (s % 2 == 0) {
        step(a, b, v);
      } else {
        step(b, a, v);
      }
    }
    a.synchronize();
    b.synchronize();
    v.synchronize();
  }
  const std::vector<float_4>& result = steps % 2 == 0 ? pos : pos2;

  for (int s = 0; s < steps; ++s) {
    std::vector<body> next = ref;
    for (int i = 0; i < n; ++i) {
      double acc[3] = {0, 0, 0};
      for (int j = 0; j < n; ++j) {
        double d[3], r2 = softening_squared;
        for (int c = 0; c < 3; ++c) {
          d[c] = ref[j].p[c] - ref[i].p[c];
          r2 += d[c] * d[c];
        }
        const double inv_r3 = 1.0 / (r2 * std::sqrt(r2));
        for (int c = 0; c < 3; ++c) acc[c] += d[c] * ref[j].p[3] * inv_r3;
      }
      for (int c = 0; c < 3; ++c) {
        next[i].v[c] = ref[i].v[c] + acc[c] * time_step;
        next[i].p[c] = ref[i].p[c] + next[i].v[c] * time_step;
      }
    }
    ref = next;
  }

  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const float got[3] = {result[i].x, result[i].y, result[i].z};
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(got[c] - ref[i].p[c]));
  }
  const bool ok = worst < 1e-4;  // positions are O(1); float sums of 512 terms over 10 steps
  std::wcout << L"max position error " << worst << L": " << (ok ? L"OK" : L"FAILED") << std::endl;
  return ok ? 0 : 1;
}
