// The n-body simulation of the .NET performance seed: every body has a float_4 position (w is
// its mass) and a float_4 velocity; each step every body sums the softened inverse-square
// acceleration from all bodies, a_i = sum_j m_j d_ij / (|d_ij|^2 + eps^2)^(3/2) with
// d_ij = p_j - p_i (G = 1), then updates its velocity and, with the new velocity, its position
// (semi-implicit Euler). One parallel_for_each per step; positions are double-buffered so that a
// step reads only the previous step's positions.
//
// Two kernels: the simple model, and (with the tiled API) a tiled one that stages a tile of
// positions in tile_static memory, so each position is read from global memory once per tile
// instead of once per work-item. Both are checked against a serial simulation in double
// precision.
#pragma once

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <hipamp/short_vector.hpp>

#include "workload.hpp"

#if __has_include(<hipamp/tiled_parallel_for_each.hpp>)
#include <hipamp/tiled_parallel_for_each.hpp>
#define HIPAMP_DEMO_HAS_TILED_NBODY 1
#else
#define HIPAMP_DEMO_HAS_TILED_NBODY 0
#endif

namespace demo {
namespace nbody {

using hipamp::graphics::float_4;

struct parameters {
  float softening_squared = 0.01f;  // eps^2: keeps close encounters finite
  float time_step = 0.01f;
};

enum class kernel { simple, tiled };

// The pull of body q on body p, added to acc (xyz; w unused).
HIPAMP_RESTRICT inline float_4 add_pull(float_4 acc, const float_4& p, const float_4& q,
                                        float softening_squared) {
  const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
  const float r2 = dx * dx + dy * dy + dz * dz + softening_squared;
  const float inv_r = 1.0f / sqrtf(r2);
  const float s = q.w * inv_r * inv_r * inv_r;
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
  return acc;
}

// Velocity, then position with the new velocity; the mass (w) is carried over.
HIPAMP_RESTRICT inline void advance(const float_4& acc, const float_4& p, float_4& v,
                                    float_4& new_p, float dt) {
  v.set_xyz(v.xyz() + acc.xyz() * dt);
  new_p = p;
  new_p.set_xyz(p.xyz() + v.xyz() * dt);
}

// One step in the simple model: one work-item per body, reading every position from the view.
inline void step_simple(const hipamp::accelerator_view& av,
                        const hipamp::array_view<const float_4, 1>& old_pos,
                        const hipamp::array_view<float_4, 1>& new_pos,
                        const hipamp::array_view<float_4, 1>& vel, parameters prm) {
  const int n = old_pos.extent[0];
  hipamp::parallel_for_each(av, new_pos.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> idx) {
    const int i = idx[0];
    const float_4 p = old_pos[i];
    float_4 acc(0.0f);
    for (int j = 0; j < n; ++j) acc = add_pull(acc, p, old_pos[j], prm.softening_squared);
    float_4 v = vel[i];
    float_4 moved;
    advance(acc, p, v, moved, prm.time_step);
    vel[i] = v;
    new_pos[i] = moved;
  });
}

#if HIPAMP_DEMO_HAS_TILED_NBODY
// One step in the tiled model: each tile of work-items loads Tile positions into tile_static
// memory, all of them use those, then the next Tile. The domain is padded to whole tiles; the
// padding bodies are massless, so they pull nothing, and write nothing.
template <int Tile = 256>
void step_tiled(const hipamp::accelerator_view& av,
                const hipamp::array_view<const float_4, 1>& old_pos,
                const hipamp::array_view<float_4, 1>& new_pos,
                const hipamp::array_view<float_4, 1>& vel, parameters prm) {
  const int n = old_pos.extent[0];
  hipamp::parallel_for_each(av, new_pos.extent.tile<Tile>().pad(),
                            [=] HIPAMP_RESTRICT(hipamp::tiled_index<Tile> t) {
                              const int i = t.global[0];
                              const int local = t.local[0];
                              const bool body = i < n;
                              const float_4 p = body ? old_pos[i] : float_4(0.0f);
                              float_4 acc(0.0f);
                              for (int base = 0; base < n; base += Tile) {
                                HIPAMP_TILE_STATIC float_4 tile_pos[Tile];
                                const int j = base + local;
                                tile_pos[local] = j < n ? old_pos[j] : float_4(0.0f);
                                t.barrier.wait();
                                for (int k = 0; k < Tile; ++k)
                                  acc = add_pull(acc, p, tile_pos[k], prm.softening_squared);
                                t.barrier.wait();
                              }
                              if (body) {
                                float_4 v = vel[i];
                                float_4 moved;
                                advance(acc, p, v, moved, prm.time_step);
                                vel[i] = v;
                                new_pos[i] = moved;
                              }
                            });
}
#endif

inline bool has_kernel(kernel k) { return k == kernel::simple || HIPAMP_DEMO_HAS_TILED_NBODY; }
inline const char* name(kernel k) { return k == kernel::simple ? "simple" : "tiled"; }

// Bodies in the unit cube with total mass 1, moving slowly: a well-conditioned system for a
// few hundred steps, so float and double trajectories stay close.
struct bodies {
  std::vector<float_4> pos, vel;
};
inline bodies random_bodies(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> coord(-1.0f, 1.0f), mass(0.5f, 1.5f);
  bodies b;
  b.pos.resize(n);
  b.vel.resize(n);
  for (int i = 0; i < n; ++i) {
    b.pos[i] = float_4(coord(gen), coord(gen), coord(gen), mass(gen) / static_cast<float>(n));
    b.vel[i] = float_4(0.1f * coord(gen), 0.1f * coord(gen), 0.1f * coord(gen), 0.0f);
  }
  return b;
}

// Runs `steps` steps on av; b holds the final positions and velocities afterwards.
inline void simulate(const hipamp::accelerator_view& av, bodies& b, int steps, kernel k,
                     parameters prm = {}) {
  if (!has_kernel(k)) {
    throw hipamp::unsupported_feature("hipamp demo: the tiled n-body kernel needs the tiled API");
  }
  const int n = static_cast<int>(b.pos.size());
  std::vector<float_4> other(b.pos.size());
  {
    hipamp::array_view<float_4, 1> a(n, b.pos), c(n, other), v(n, b.vel);
    for (int s = 0; s < steps; ++s) {
      const hipamp::array_view<float_4, 1>& from = s % 2 == 0 ? a : c;
      const hipamp::array_view<float_4, 1>& to = s % 2 == 0 ? c : a;
      to.discard_data();  // every position is rewritten: nothing to copy in
      if (k == kernel::simple) {
        step_simple(av, from, to, v, prm);
      }
#if HIPAMP_DEMO_HAS_TILED_NBODY
      else {
        step_tiled(av, from, to, v, prm);
      }
#endif
    }
    (steps % 2 == 0 ? a : c).synchronize();
    v.synchronize();
  }  // the views end here, so nothing is copied into b.pos after the line below
  if (steps % 2 != 0) b.pos = other;
}

// The same simulation, serial, in double precision.
inline void simulate_reference(std::vector<double>& pos4, std::vector<double>& vel4, int steps,
                               parameters prm = {}) {
  const std::size_t n = pos4.size() / 4;
  std::vector<double> acc(3 * n);
  const double eps2 = prm.softening_squared, dt = prm.time_step;
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      double a[3] = {0, 0, 0};
      for (std::size_t j = 0; j < n; ++j) {
        double d[3], r2 = eps2;
        for (int c = 0; c < 3; ++c) {
          d[c] = pos4[4 * j + c] - pos4[4 * i + c];
          r2 += d[c] * d[c];
        }
        const double scale = pos4[4 * j + 3] / (r2 * std::sqrt(r2));
        for (int c = 0; c < 3; ++c) a[c] += d[c] * scale;
      }
      for (int c = 0; c < 3; ++c) acc[3 * i + c] = a[c];
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) {
        vel4[4 * i + c] += acc[3 * i + c] * dt;
        pos4[4 * i + c] += vel4[4 * i + c] * dt;
      }
    }
  }
}

// Largest distance between a simulated position and the reference's after `steps` steps.
// The positions are O(1), so this is also the relative error.
inline double max_position_error(const hipamp::accelerator_view& av, int n, int steps, kernel k,
                                 unsigned seed) {
  bodies b = random_bodies(n, seed);
  std::vector<double> pos4, vel4;
  for (int i = 0; i < n; ++i) {
    const float_4& p = b.pos[i];
    const float_4& v = b.vel[i];
    pos4.insert(pos4.end(), {p.x, p.y, p.z, p.w});
    vel4.insert(vel4.end(), {v.x, v.y, v.z, v.w});
  }
  simulate(av, b, steps, k);
  simulate_reference(pos4, vel4, steps);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double d[3] = {b.pos[i].x - pos4[4 * i], b.pos[i].y - pos4[4 * i + 1],
                         b.pos[i].z - pos4[4 * i + 2]};
    const double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(dist <= worst)) worst = dist;  // a NaN position makes the error NaN, never hides it
  }
  return worst;
}

// The check every run states: 1000 bodies (not a whole number of tiles), 20 steps, positions
// within 1e-5 of the double-precision reference (the float error measured on the CPU device is
// about 3e-7).
constexpr int check_bodies = 1000;
constexpr int check_steps = 20;
constexpr double tolerance = 1e-5;

}  // namespace nbody

// The demo row: checked as above, then timed with more bodies (the .NET seed used 10,000).
inline result run_nbody(const hipamp::accelerator_view& av, nbody::kernel k, int bodies = 0,
                        int steps = 10) {
  if (bodies <= 0) bodies = av.runs_on_cpu() ? 4096 : 16384;
  result r;
  r.workload = std::string("n-body (") + nbody::name(k) + ")";
  r.size = std::to_string(bodies) + " bodies, " + std::to_string(steps) + " steps";
  const double error =
      nbody::max_position_error(av, nbody::check_bodies, nbody::check_steps, k, 1234);
  r.ok = error <= nbody::tolerance;
  nbody::bodies b = nbody::random_bodies(bodies, 42);
  r.seconds = median_seconds(3, [&] { nbody::simulate(av, b, steps, k); });
  char note[96];
  std::snprintf(note, sizeof note, "%.1f steps/s, max pos err %.1e", steps / r.seconds, error);
  r.note = note;
  return r;
}

}  // namespace demo
