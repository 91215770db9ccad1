// The GPU bitonic sort's schedule (algorithm/sort/bitonic_network.hpp) replayed on the host, pass
// by pass exactly as the kernels run it, tile by tile and thread by thread, with every round
// checked for two groups touching one element (a race on the GPU): the network's logic
// without a GPU (the kernels themselves run on the kernel emulator: tests/kernel_emulator).
// hipamp-test: host-only (launches no kernel; the C++ compiler builds it in GPU builds)
#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include <hipamp/algorithm/sort/bitonic_network.hpp>
#include <hipamp/backend/gpu/tuning_sort.hpp>

#include "support.hpp"

namespace bn = hipamp::detail::bitonic;

namespace {

// Replays bn::run_schedule on host memory the way the GPU kernels execute it.
class schedule_replay {
 public:
  schedule_replay(std::vector<int>& data, const bn::layout& lay, const bn::tile_shape& shape)
      : data_(data), lay_(lay), shape_(shape), last_touch_(data.size(), 0) {}

  bool raced() const { return raced_; }

  // As tile_kernel: load the tile's existing elements, run the rounds (each thread its
  // groups), store them back.
  void tile_pass(int s_first, int s_last) {
    const bn::tile_map tiles = bn::map_tiles(lay_, shape_.log2_tile);
    const unsigned tile_size = 1u << shape_.log2_tile;
    for (unsigned t = 0; t < tiles.count; ++t) {
      const unsigned start = bn::tile_start(tiles, lay_, shape_.log2_tile, t);
      std::vector<int> tile(bn::padded_tile_size(shape_.log2_tile, sizeof(int)), poison);
      for (unsigned i = 0; i < tile_size; ++i) {
        if (lay_.exists(start + i))
          tile[bn::tile_memory<int>::slot(i)] = data_[lay_.real(start + i)];
      }
      const bn::tile_memory<int> local{tile.data()};
      const unsigned reach = bn::tile_reach(tiles, lay_, shape_.log2_tile, start);
      bn::for_each_tile_round(
          s_first, s_last, shape_.log2_tile, shape_.k, [&](const bn::round_spec& r) {
            std::vector<int> owner(tile_size, -1);
            const unsigned groups = bn::groups_below(reach, r);
            for (unsigned thread = 0; thread < static_cast<unsigned>(shape_.threads); ++thread) {
              for (unsigned g = thread; g < groups; g += static_cast<unsigned>(shape_.threads)) {
                const bn::group grp = bn::group_at(g, r);
                for (unsigned j = 0; j < (1u << (r.bits - 1)); ++j) {
                  for (unsigned q :
                       {grp.lower + (j << grp.log2_step), grp.upper + (j << grp.log2_step)}) {
                    if (q >= tile_size || owner[q] != -1) raced_ = true;
                    if (q < tile_size) owner[q] = static_cast<int>(g);
                  }
                }
                bn::run_group_dynamic<5, int>(local, lay_, r, g, start, std::less<>());
              }
            }
          });
      for (unsigned i = 0; i < tile_size; ++i) {
        if (lay_.exists(start + i))
          data_[lay_.real(start + i)] = tile[bn::tile_memory<int>::slot(i)];
      }
    }
  }

  // As global_round_kernel: one group per launched thread.
  void global_round(const bn::round_spec& r) {
    ++epoch_;
    const bn::group_map groups = bn::map_groups(lay_, r);
    const tracked memory{data_.data(), lay_, this};
    for (unsigned long long t = 0; t < groups.count; ++t) {
      bn::run_group_dynamic<5, int>(
          memory, lay_, r, bn::group_index(groups, static_cast<unsigned>(t)), 0, std::less<>());
    }
  }

  static constexpr int poison = -123456789;

 private:
  // Global memory that notices an element loaded twice in one round.
  struct tracked {
    int* data = nullptr;
    bn::layout lay;
    schedule_replay* self = nullptr;
    std::size_t at(unsigned q) const { return lay.real(q); }
    std::size_t next(std::size_t a, unsigned step) const { return a + step; }
    int load(std::size_t a) const {
      if (self->last_touch_[a] == self->epoch_) self->raced_ = true;
      self->last_touch_[a] = self->epoch_;
      return data[a];
    }
    void store(std::size_t a, int e) const { data[a] = e; }
  };

  std::vector<int>& data_;
  bn::layout lay_;
  bn::tile_shape shape_;
  std::vector<int> last_touch_;
  int epoch_ = 0;
  bool raced_ = false;
};

void check_schedule(const bn::tile_shape& shape, unsigned length, unsigned rows, unsigned gap) {
  INFO("tile 2^" << shape.log2_tile << ", 2^" << shape.k << " per thread, " << rows << " rows of "
                 << length << ", gap " << gap);
  const std::size_t pitch = length + gap;
  std::vector<int> data(pitch * rows, schedule_replay::poison);
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned i = 0; i < length; ++i) {
      data[r * pitch + i] = static_cast<int>(hipamp_test::rng()() % (length / 2 + 2));
    }
  }
  std::vector<int> expected = data;
  for (unsigned r = 0; r < rows; ++r) {
    std::stable_sort(expected.begin() + static_cast<std::ptrdiff_t>(r * pitch),
                     expected.begin() + static_cast<std::ptrdiff_t>(r * pitch + length));
  }
  schedule_replay replay(data, bn::make_layout(length, rows, pitch), shape);
  bn::run_schedule(bn::make_layout(length, rows, pitch), shape, replay);
  CHECK_FALSE(replay.raced());
  CHECK(data == expected);  // gaps between rows untouched too
}

}  // namespace

TEST_CASE("bitonic schedule: small tiles force many global rounds", "[sort][network]") {
  const bn::tile_shape small_shapes[] = {{1, 1, 1}, {2, 3, 2}, {2, 4, 4}, {3, 5, 4}, {5, 7, 4}};
  for (const bn::tile_shape& shape : small_shapes) {
    for (unsigned length : {1u, 2u, 3u, 5u, 8u, 31u, 33u, 100u, 255u, 256u, 257u, 1000u, 4097u}) {
      for (unsigned rows : {1u, 3u, 7u}) {
        check_schedule(shape, length, rows, 0);
        check_schedule(shape, length, rows, 5);
      }
    }
  }
}

TEST_CASE("bitonic schedule: the GPU's tile shapes", "[sort][network]") {
  for (std::size_t bytes : {4, 8, 12, 16, 32}) {
    const bn::tile_shape shape = bn::shape_for_bytes(bytes);
    CHECK(shape.threads >= 32);
    CHECK((shape.threads << shape.k) == (1 << shape.log2_tile));
    CHECK((std::size_t(bn::padded_tile_size(shape.log2_tile, bytes)) * bytes) <=
          std::size_t{48} * 1024);
    for (unsigned length : {2u, 257u, 8191u, 8193u, 20001u}) check_schedule(shape, length, 1, 0);
    check_schedule(shape, 70001, 1, 0);
    check_schedule(shape, 300, 37, 3);
  }
}

TEST_CASE("bitonic schedule: launches only what holds existing elements", "[sort][network]") {
  const bn::tile_shape shape = bn::shape_for_bytes(4);
  const bn::layout exact = bn::make_layout(1u << 20, 1, 1u << 20);
  const bn::layout one_more = bn::make_layout((1u << 20) + 1, 1, (1u << 20) + 1);
  CHECK(bn::map_tiles(exact, shape.log2_tile).count == (1u << 20) >> shape.log2_tile);
  CHECK(bn::map_tiles(one_more, shape.log2_tile).count == ((1u << 20) >> shape.log2_tile) + 1);
  // The last stage of 2^20 + 1 elements: its mirror round launches the groups of the lower
  // half (whose partners mostly do not exist), not the 2^21 / 2^bits of the virtual size.
  bn::for_each_global_round(21, shape.log2_tile, shape.k, [&](const bn::round_spec& r) {
    const bn::group_map groups = bn::map_groups(one_more, r);
    const unsigned long long virtual_groups = (1ull << 21) >> r.bits;
    if (r.mirror) CHECK(groups.count == virtual_groups);  // every lower half exists
    if (!r.mirror) CHECK(groups.count == virtual_groups / 2 + 1);
  });
}

TEST_CASE("bitonic schedule: groups_below counts the groups that reach below a position",
          "[sort][network]") {
  // Against a count of group_at's lowest positions, for every round of stages up to 2^10.
  for (int s = 1; s <= 10; ++s) {
    for (int bits = 1; bits <= 5; ++bits) {
      for (int hi_bit = bits - 1; hi_bit < s; ++hi_bit) {
        for (const bool mirror : {false, true}) {
          const bn::round_spec r{hi_bit, bits, mirror};
          const unsigned all_groups = (1u << s) >> bits;
          for (unsigned positions : {0u, 1u, 2u, 3u, 7u, 100u, 511u, 512u, 513u, 1023u, 1024u}) {
            if (positions > (1u << s)) continue;
            unsigned reaching = 0;
            unsigned prefix = all_groups;  // the first group that does not reach
            for (unsigned g = 0; g < all_groups; ++g) {
              const bool reaches = bn::group_at(g, r).lower < positions;
              reaching += reaches ? 1 : 0;
              if (!reaches && prefix == all_groups) prefix = g;
            }
            INFO("stage " << s << ", bits " << hi_bit << ".." << hi_bit - bits + 1 << ", below "
                          << positions);
            CHECK(bn::groups_below(positions, r) == reaching);
            CHECK(reaching == prefix);  // the tile kernel loops over the first ones only
          }
        }
      }
    }
  }
}

TEST_CASE("bitonic network: a tile's first K stages run as one register round", "[sort][network]") {
  // tile_kernel sorts runs of 2^K consecutive positions of whole tiles with sort_runs
  // instead of K rounds; it must sort, and leave ties exactly where the rounds would.
  struct item {
    int key;
    int id;
  };
  const auto by_key = [](const item& a, const item& b) { return a.key < b.key; };
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    item registers[32], by_rounds[32];
    for (int i = 0; i < 32; ++i) {
      registers[i] = {static_cast<int>(rng() % (trial % 2 ? 4u : 1000u)), i};  // many ties
      by_rounds[i] = registers[i];
    }
    bn::sort_runs<5>(registers, by_key);
    // The same stages as rounds, with the schedule's own round code.
    const bn::layout lay = bn::make_layout(32, 1, 32);
    const bn::array_memory<item> mem{by_rounds, lay};
    bn::for_each_tile_round(1, 5, 5, 5, [&](const bn::round_spec& r) {
      for (unsigned g = 0; g < (32u >> r.bits); ++g) {
        bn::run_group_dynamic<5, item>(mem, lay, r, g, 0u, by_key);
      }
    });
    CHECK(std::is_sorted(std::begin(registers), std::end(registers), by_key));
    std::size_t moved_differently = 0;
    for (int i = 0; i < 32; ++i) {
      moved_differently +=
          registers[i].key != by_rounds[i].key || registers[i].id != by_rounds[i].id;
    }
    CHECK(moved_differently == 0);
  }
}

namespace {

// An element of Bytes bytes: a key with many ties and the position it started at, so that
// two schedules agree only if they move every element, ties included, identically.
template <std::size_t Bytes>
struct tagged {
  int key;
  int id;
  char pad[Bytes - 2 * sizeof(int)];
};
template <>
struct tagged<8> {
  int key;
  int id;
};
template <>
struct tagged<4> {  // the key in the high half, the position in the low half
  std::uint32_t bits;
};
template <std::size_t B>
void tag(tagged<B>& e, int key, int id) {
  e.key = key;
  e.id = id;
}
void tag(tagged<4>& e, int key, int id) {
  e.bits = static_cast<std::uint32_t>(key) << 16 | static_cast<std::uint32_t>(id);
}
template <std::size_t B>
int key_of(const tagged<B>& e) {
  return e.key;
}
int key_of(const tagged<4>& e) { return static_cast<int>(e.bits >> 16); }
template <std::size_t B>
int id_of(const tagged<B>& e) {
  return e.id;
}
int id_of(const tagged<4>& e) { return static_cast<int>(e.bits & 0xffffu); }
template <std::size_t B>
bool same(const tagged<B>& a, const tagged<B>& b) {
  return a.key == b.key && a.id == b.id;
}
bool same(const tagged<4>& a, const tagged<4>& b) { return a.bits == b.bits; }

// Whole tiles of the GPU's shape for E: the compile-time rounds (static_tile_round, thread by
// thread, as tile_kernel runs them) against the rounds chosen at run time (run_group_dynamic)
// on the same random tile, for the first pass and for a later stage's bits below the tile.
template <class E>
void check_static_rounds() {
  constexpr bn::tile_shape shape = bn::shape_of<E>;
  constexpr int log2_tile = shape.log2_tile;
  constexpr unsigned tile_size = 1u << log2_tile;
  INFO(sizeof(E) << "-byte elements, tile 2^" << log2_tile << ", 2^" << shape.k << " per thread");
  const auto by_key = [](const E& a, const E& b) { return key_of(a) < key_of(b); };
  const bn::layout whole = bn::make_layout(tile_size, 1, tile_size);
  using slots = bn::tile_memory<E>;
  std::vector<E> by_static(bn::padded_tile_size(log2_tile, sizeof(E)));
  for (int stage : {1, log2_tile + 1}) {
    for (unsigned i = 0; i < tile_size; ++i) {
      by_static[slots::slot(i)] = E{};
      tag(by_static[slots::slot(i)], static_cast<int>(hipamp_test::rng()() % 50),
          static_cast<int>(i));
    }
    std::vector<E> by_checked = by_static;
    const auto run_static = [&](auto round) {
      for (unsigned tid = 0; tid < static_cast<unsigned>(shape.threads); ++tid) {
        bn::static_tile_round<decltype(round), log2_tile, shape.threads>(by_static.data(), tid,
                                                                         by_key);
      }
    };
    if (stage == 1) {  // as tile_kernel: the first K stages in registers, then rounds
      for (unsigned run = 0; run < tile_size; run += 1u << shape.k) {
        E x[1 << shape.k];
        for (unsigned j = 0; j < (1u << shape.k); ++j) x[j] = by_static[slots::slot(run + j)];
        bn::sort_runs<shape.k>(x, by_key);
        for (unsigned j = 0; j < (1u << shape.k); ++j) by_static[slots::slot(run + j)] = x[j];
      }
      bn::for_each_static_tile_round<shape.k + 1, log2_tile, log2_tile, shape.k>(run_static);
    } else {
      bn::for_each_static_tile_round<log2_tile + 1, log2_tile + 1, log2_tile, shape.k>(run_static);
    }
    const slots checked{by_checked.data()};
    bn::for_each_tile_round(stage, stage == 1 ? log2_tile : stage, log2_tile, shape.k,
                            [&](const bn::round_spec& r) {
                              for (unsigned g = 0; g < (tile_size >> r.bits); ++g) {
                                bn::run_group_dynamic<5, E>(checked, whole, r, g, 0u, by_key);
                              }
                            });
    INFO("schedule from stage " << stage);
    std::size_t differ = 0;
    for (unsigned i = 0; i < tile_size; ++i) {
      differ += !same(by_static[slots::slot(i)], by_checked[slots::slot(i)]);
    }
    CHECK(differ == 0);
    if (stage == 1) {  // the first pass sorts the tile
      bool sorted = true;
      for (unsigned i = 1; i < tile_size; ++i) {
        sorted = sorted && !by_key(by_static[slots::slot(i)], by_static[slots::slot(i - 1)]);
      }
      CHECK(sorted);
    }
  }
}

}  // namespace

TEST_CASE("bitonic network: whole tiles' compile-time rounds move elements as the run-time rounds",
          "[sort][network]") {
  check_static_rounds<tagged<4>>();
  check_static_rounds<tagged<8>>();
  check_static_rounds<tagged<12>>();
  check_static_rounds<tagged<16>>();
  check_static_rounds<tagged<24>>();
  check_static_rounds<tagged<32>>();
}

// A segment's partial last tile runs the network one step at a time over its existing prefix
// (bn::for_each_tile_step, the GPU tile kernel's path for a small last tile): the same
// compare-exchanges as the rounds of for_each_tile_round over the groups below the prefix.
TEST_CASE("bitonic schedule: a partial tile's steps equal its rounds", "[sort][network]") {
  constexpr int log2_tile = 13, k = 5;
  const auto less = [](const std::uint32_t& a, const std::uint32_t& b) { return a < b; };
  std::mt19937 gen(1234);
  for (const unsigned reach : {1u, 2u, 3u, 5u, 31u, 32u, 33u, 576u, 1025u, 4097u, 8191u}) {
    for (const auto& stages : {std::pair<int, int>{1, log2_tile}, std::pair<int, int>{14, 14},
                               std::pair<int, int>{20, 20}}) {
      INFO("reach " << reach << ", stages " << stages.first << ".." << stages.second);
      std::vector<std::uint32_t> by_steps(1u << log2_tile, 0);
      for (unsigned i = 0; i < reach; ++i) by_steps[i] = static_cast<std::uint32_t>(gen());
      std::vector<std::uint32_t> by_rounds = by_steps;
      bn::for_each_tile_step(stages.first, stages.second, log2_tile, reach,
                             [&](unsigned mask, int bit) {
                               for (unsigned i = 0; i < reach; ++i) {
                                 if ((i >> bit) & 1u) continue;
                                 const unsigned partner = i ^ mask;
                                 if (partner < reach) {
                                   bn::compare_exchange(by_steps[i], by_steps[partner], less);
                                 }
                               }
                             });
      // The rounds over a layout of one tile-sized segment whose first `reach` positions exist.
      bn::layout lay;
      lay.length = reach;
      lay.segments = 1;
      lay.log2_size = log2_tile;
      lay.pitch = reach;
      const bn::array_memory<std::uint32_t> mem{by_rounds.data(), lay};
      bn::for_each_tile_round(stages.first, stages.second, log2_tile, k,
                              [&](const bn::round_spec& r) {
                                const unsigned groups = bn::groups_below(reach, r);
                                for (unsigned g = 0; g < groups; ++g) {
                                  bn::run_group_dynamic<k, std::uint32_t>(mem, lay, r, g, 0u, less);
                                }
                              });
      CHECK(by_steps == by_rounds);
      if (stages.first == 1) {
        CHECK(std::is_sorted(by_steps.begin(), by_steps.begin() + reach));
      }
    }
  }
}

namespace {

namespace gpu_tuning = hipamp::detail::gpu::sort_kernels;

template <class E>
bool before_by_key_id(const E& a, const E& b) {
  const int ka = key_of(a), kb = key_of(b);
  return ka != kb ? ka < kb : id_of(a) < id_of(b);
}

// tile_kernel's pad_partial_tile replayed thread by thread: each thread's strided fold, each
// warp's shuffle tree (lane l takes lane l + offset's value where that lane exists), the warps'
// results through the tile's spare slots, then the missing positions [reach, S) filled with
// the maximum. Warps of 32 lanes, as on NVIDIA (64 on AMD fold the same values in another
// order; any maximum pads correctly).
template <class E, class Less>
E pad_like_the_gpu(std::vector<E>& tile, unsigned reach, int log2_tile, unsigned threads,
                   const Less& less) {
  using slots = bn::tile_memory<E>;
  constexpr unsigned warp = 32;
  const auto fold_warp = [&less](std::vector<E> lanes) {  // lane 0's value after the shuffles
    for (unsigned offset = warp / 2; offset > 0; offset /= 2) {
      for (unsigned lane = 0; lane + offset < warp; ++lane) {  // reads before writes, as shuffles
        if (less(lanes[lane], lanes[lane + offset])) lanes[lane] = lanes[lane + offset];
      }
    }
    return lanes[0];
  };
  const unsigned tile_size = 1u << log2_tile;
  std::vector<E> folded(threads);
  for (unsigned tid = 0; tid < threads; ++tid) {
    E m = tile[slots::slot(tid < reach ? tid : 0u)];
    for (unsigned i = tid + threads; i < tile_size; i += threads) {
      if (i < reach && less(m, tile[slots::slot(i)])) m = tile[slots::slot(i)];
    }
    folded[tid] = m;
  }
  const unsigned warps = threads / warp;
  for (unsigned w = 0; w < warps; ++w) {
    tile[slots::spare(w)] =
        fold_warp(std::vector<E>(folded.begin() + std::ptrdiff_t(w * warp),
                                 folded.begin() + std::ptrdiff_t((w + 1) * warp)));
  }
  std::vector<E> leaders(warp);
  for (unsigned lane = 0; lane < warp; ++lane) {
    leaders[lane] = tile[slots::spare(lane < warps ? lane : 0u)];
  }
  tile[slots::spare(0)] = fold_warp(leaders);
  const E padding = tile[slots::spare(0)];
  for (unsigned i = reach; i < tile_size; ++i) tile[slots::slot(i)] = padding;
  return padding;
}

// A whole tile's compile-time rounds of the first pass (stage 1) or of a later stage's bits
// below the tile, thread by thread, as tile_kernel runs them.
template <class E, class Less>
void static_rounds_like_the_gpu(std::vector<E>& tile, bool first_pass, const Less& less) {
  constexpr bn::tile_shape shape = bn::shape_of<E>;
  constexpr int log2_tile = shape.log2_tile;
  using slots = bn::tile_memory<E>;
  const auto run_static = [&](auto round) {
    for (unsigned tid = 0; tid < static_cast<unsigned>(shape.threads); ++tid) {
      bn::static_tile_round<decltype(round), log2_tile, shape.threads>(tile.data(), tid, less);
    }
  };
  if (first_pass) {
    for (unsigned run = 0; run < (1u << log2_tile); run += 1u << shape.k) {
      E x[1 << shape.k];
      for (unsigned j = 0; j < (1u << shape.k); ++j) x[j] = tile[slots::slot(run + j)];
      bn::sort_runs<shape.k>(x, less);
      for (unsigned j = 0; j < (1u << shape.k); ++j) tile[slots::slot(run + j)] = x[j];
    }
    bn::for_each_static_tile_round<shape.k + 1, log2_tile, log2_tile, shape.k>(run_static);
  } else {
    bn::for_each_static_tile_round<log2_tile + 1, log2_tile + 1, log2_tile, shape.k>(run_static);
  }
}

// One tile pass over a partial tile (prefix [0, reach)): padded and the whole tile's
// compile-time rounds against the checked rounds chosen at run time on the same prefix. They
// must move every element identically (ties included), the paddings never move, and the
// first pass sorts the prefix; the prefix stays a permutation of its elements.
template <class E, class Less>
void check_padded_tile(const Less& less, const char* order) {
  constexpr bn::tile_shape shape = bn::shape_of<E>;
  constexpr int log2_tile = shape.log2_tile;
  constexpr unsigned tile_size = 1u << log2_tile;
  using slots = bn::tile_memory<E>;
  // The spare slots are pad slots: no position's slot, all inside the padded tile.
  std::vector<int> used(bn::padded_tile_size(log2_tile, sizeof(E)), 0);
  for (unsigned i = 0; i < tile_size; ++i) ++used[slots::slot(i)];
  for (unsigned j = 0; j < slots::spares(log2_tile); ++j) ++used.at(slots::spare(j));
  CHECK(std::count(used.begin(), used.end(), 1) == static_cast<std::ptrdiff_t>(used.size()));
  for (const unsigned reach : {1u, 2u, 3u, gpu_tuning::partial_tile_step_reach(log2_tile) + 1u,
                               tile_size / 2, tile_size / 2 + 1, tile_size - 3, tile_size - 1}) {
    for (const int stage : {1, log2_tile + 1, log2_tile + 7}) {
      INFO(sizeof(E) << "-byte elements, " << order << ", tile 2^" << log2_tile << ", reach "
                     << reach << ", stage " << stage);
      std::vector<E> padded(bn::padded_tile_size(log2_tile, sizeof(E)));
      for (unsigned i = 0; i < reach; ++i) {
        padded[slots::slot(i)] = E{};
        tag(padded[slots::slot(i)], static_cast<int>(hipamp_test::rng()() % 7),
            static_cast<int>(i));  // few keys: ties everywhere, each with its own id
      }
      std::vector<E> checked = padded;
      std::vector<E> input(reach);
      for (unsigned i = 0; i < reach; ++i) input[i] = padded[slots::slot(i)];
      const E padding =
          pad_like_the_gpu(padded, reach, log2_tile, static_cast<unsigned>(shape.threads), less);
      bool is_maximum = true;
      for (const E& e : input) is_maximum = is_maximum && !less(padding, e);
      CHECK(is_maximum);
      static_rounds_like_the_gpu(padded, stage == 1, less);
      bn::layout lay;  // one segment whose tile at 0 holds `reach` positions
      lay.length = reach;
      lay.segments = 1;
      lay.log2_size = stage > log2_tile ? stage : log2_tile;
      lay.pitch = reach;
      const slots local{checked.data()};
      bn::for_each_tile_round(stage, stage == 1 ? log2_tile : stage, log2_tile, shape.k,
                              [&](const bn::round_spec& r) {
                                const unsigned groups = bn::groups_below(reach, r);
                                for (unsigned g = 0; g < groups; ++g) {
                                  bn::run_group_dynamic<5, E>(local, lay, r, g, 0u, less);
                                }
                              });
      std::size_t differ = 0, paddings_moved = 0;
      std::vector<E> output(reach);
      for (unsigned i = 0; i < reach; ++i) {
        output[i] = padded[slots::slot(i)];
        differ += !same(output[i], checked[slots::slot(i)]);
      }
      for (unsigned i = reach; i < tile_size; ++i) {
        paddings_moved += !same(padded[slots::slot(i)], padding);
      }
      CHECK(differ == 0);
      CHECK(paddings_moved == 0);
      std::sort(input.begin(), input.end(), before_by_key_id<E>);
      std::vector<E> got = output;
      std::sort(got.begin(), got.end(), before_by_key_id<E>);
      std::size_t lost = 0;
      for (unsigned i = 0; i < reach; ++i) lost += !same(input[i], got[i]);
      CHECK(lost == 0);  // a permutation: nothing lost, nothing duplicated
      if (stage == 1) {
        CHECK(std::is_sorted(output.begin(), output.end(), less));
      }
    }
  }
}

// bn::run_schedule replayed as tile_kernel and global_round_kernel run it for the GPU's tile
// shape of E: whole tiles and padded partial last tiles (past partial_tile_step_reach) by the
// compile-time rounds, small last tiles by the steps, packed tiles by the checked rounds.
template <class E, class Less>
class kernel_replay {
 public:
  static constexpr bn::tile_shape shape = bn::shape_of<E>;
  kernel_replay(std::vector<E>& data, const bn::layout& lay, const Less& less)
      : data_(data), lay_(lay), less_(less) {}
  int padded_tiles = 0;
  int stepped_tiles = 0;

  void tile_pass(int s_first, int s_last) {
    constexpr int log2_tile = shape.log2_tile;
    constexpr unsigned tile_size = 1u << log2_tile;
    using slots = bn::tile_memory<E>;
    const bn::tile_map tiles = bn::map_tiles(lay_, log2_tile);
    for (unsigned t = 0; t < tiles.count; ++t) {
      const unsigned start = bn::tile_start(tiles, lay_, log2_tile, t);
      const unsigned reach = bn::tile_reach(tiles, lay_, log2_tile, start);
      std::vector<E> tile(bn::padded_tile_size(log2_tile, sizeof(E)));
      for (unsigned i = 0; i < tile_size; ++i) {
        if (lay_.exists(start + i)) tile[slots::slot(i)] = data_[lay_.real(start + i)];
      }
      const bool whole = !tiles.packed && reach == tile_size;
      const bool first_pass = s_first == 1 && s_last == log2_tile;
      const bool later_pass = s_first == s_last && s_first > log2_tile;
      const bool padded = !tiles.packed && !whole && (first_pass || later_pass) &&
                          reach > gpu_tuning::partial_tile_step_reach(log2_tile);
      if (padded) {
        pad_like_the_gpu(tile, reach, log2_tile, static_cast<unsigned>(shape.threads), less_);
        ++padded_tiles;
      }
      if ((whole || padded) && (first_pass || later_pass)) {
        static_rounds_like_the_gpu(tile, first_pass, less_);
      } else if (!tiles.packed) {
        ++stepped_tiles;
        bn::for_each_tile_step(s_first, s_last, log2_tile, reach, [&](unsigned mask, int bit) {
          for (unsigned i = 0; i < reach; ++i) {
            if ((i >> bit) & 1u) continue;
            const unsigned partner = i ^ mask;
            if (partner < reach) {
              bn::compare_exchange(tile[slots::slot(i)], tile[slots::slot(partner)], less_);
            }
          }
        });
      } else {
        const slots local{tile.data()};
        bn::for_each_tile_round(s_first, s_last, log2_tile, shape.k, [&](const bn::round_spec& r) {
          const unsigned groups = bn::groups_below(reach, r);
          for (unsigned g = 0; g < groups; ++g) {
            bn::run_group_dynamic<shape.k, E>(local, lay_, r, g, start, less_);
          }
        });
      }
      for (unsigned i = 0; i < tile_size; ++i) {
        if (lay_.exists(start + i)) data_[lay_.real(start + i)] = tile[slots::slot(i)];
      }
    }
  }

  void global_round(const bn::round_spec& r) {
    const bn::group_map groups = bn::map_groups(lay_, r);
    const bn::array_memory<E> mem{data_.data(), lay_};
    for (unsigned long long t = 0; t < groups.count; ++t) {
      bn::run_group_dynamic<shape.k, E>(
          mem, lay_, r, bn::group_index(groups, static_cast<unsigned>(t)), 0u, less_);
    }
  }

 private:
  std::vector<E>& data_;
  bn::layout lay_;
  Less less_;
};

// Whole sorts through kernel_replay: `rows` rows of n, against std::stable_sort's keys and the
// input's multiset of (key, id).
template <class E, class Less>
void check_padded_sort(std::size_t n, unsigned rows, const Less& less, int keys) {
  constexpr bn::tile_shape shape = bn::shape_of<E>;
  INFO(sizeof(E) << "-byte elements, tile 2^" << shape.log2_tile << ", " << rows << " rows of " << n
                 << " (last tile " << n % (std::size_t(1) << shape.log2_tile) << ")");
  std::vector<E> data(n * rows);
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = E{};
    tag(data[i], static_cast<int>(hipamp_test::rng()() % static_cast<unsigned>(keys)),
        static_cast<int>(i % 65536));
  }
  std::vector<E> input = data;
  const bn::layout lay = bn::make_layout(static_cast<unsigned>(n), rows, n);
  kernel_replay<E, Less> replay(data, lay, less);
  bn::run_schedule(lay, shape, replay);
  if (n % (std::size_t(1) << shape.log2_tile) >
      gpu_tuning::partial_tile_step_reach(shape.log2_tile))
    CHECK(replay.padded_tiles > 0);
  std::size_t keys_differ = 0, lost = 0;
  for (unsigned r = 0; r < rows; ++r) {
    const auto from = static_cast<std::ptrdiff_t>(r * n),
               to = from + static_cast<std::ptrdiff_t>(n);
    std::vector<E> expected(input.begin() + from, input.begin() + to);
    std::stable_sort(expected.begin(), expected.end(), less);
    std::vector<E> got(data.begin() + from, data.begin() + to);
    for (std::size_t i = 0; i < n; ++i) keys_differ += key_of(got[i]) != key_of(expected[i]);
    std::sort(expected.begin(), expected.end(), before_by_key_id<E>);
    std::sort(got.begin(), got.end(), before_by_key_id<E>);
    for (std::size_t i = 0; i < n; ++i) lost += !same(got[i], expected[i]);
  }
  CHECK(keys_differ == 0);
  CHECK(lost == 0);
}

template <class E>
void check_padded_sorts() {
  constexpr unsigned s = 1u << bn::shape_of<E>.log2_tile;
  const auto up = [](const E& a, const E& b) { return key_of(a) < key_of(b); };
  const auto down = [](const E& a, const E& b) { return key_of(a) > key_of(b); };
  for (const std::size_t n :
       {std::size_t(s) + 1, std::size_t(s) + 2, std::size_t(s) + s / 2, std::size_t(2) * s - 1,
        std::size_t(3) * s - 1, std::size_t(4) * s - 3, std::size_t(8) * s - 1,
        std::size_t(5) * s + s / 8 + 1, std::size_t(16) * s - 1}) {
    check_padded_sort<E>(n, 1, up, 13);
    check_padded_sort<E>(n, 1, down, 1000);
  }
  check_padded_sort<E>(std::size_t(2) * s - 1, 3, up, 5);  // each row's last tile padded
}

}  // namespace

TEST_CASE("bitonic network: a padded partial tile moves its prefix as the checked rounds",
          "[sort][network]") {
  const auto up = [](const auto& a, const auto& b) { return key_of(a) < key_of(b); };
  const auto down = [](const auto& a, const auto& b) { return key_of(a) > key_of(b); };
  check_padded_tile<tagged<4>>(up, "ascending");
  check_padded_tile<tagged<4>>(down, "descending");
  check_padded_tile<tagged<8>>(up, "ascending");
  check_padded_tile<tagged<12>>(down, "descending");
  check_padded_tile<tagged<16>>(up, "ascending");
  check_padded_tile<tagged<32>>(down, "descending");
}

TEST_CASE("bitonic schedule: sorts with padded partial last tiles as the GPU runs them",
          "[sort][network]") {
  check_padded_sorts<tagged<4>>();
  check_padded_sorts<tagged<8>>();
  check_padded_sorts<tagged<12>>();
}
