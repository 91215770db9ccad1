// The bitonic network of Dower's sort, cut into the passes the GPU runs, as host/device
// code with no vendor names: the GPU kernels (backend/gpu/sort.hpp) call it, and a
// test replays the same schedule on the host.
//
// Index space. A sort of n elements is a network over the virtual size V = 2^log2_size >= n;
// positions >= n do not exist and behave as elements that sort after everything, so every
// compare-exchange whose upper partner does not exist is skipped and nothing is padded. The
// network is the paper's: in the stage that sorts blocks of 2^s, the first step compares
// position o of a block with position 2^s - 1 - o (the "mirror"), the others are
// half-cleaners at distances 2^(s-2), ..., 1; every step puts the smaller element at the
// lower position, which is why the missing elements can stay missing. A batched sort is
// the same over `segments` virtual segments of V positions (stages never cross segments).
//
// Passes. A "round" applies the network steps of bits hi, hi-1, ..., hi-bits+1 of one stage
// at once: each group of 2^bits positions, spaced 2^(hi-bits+1) apart, is loaded into
// registers, exchanged there, and stored once (the degree-k partitions of Peters et al.).
// A tile of S = threads * 2^K positions is sorted in shared memory by rounds of up to K
// bits (stages 1 .. log2 S), and every later stage runs its bits >= log2 S as global
// rounds of up to K bits followed by one tile pass for the bits below log2 S.
// Only groups whose lowest position exists are launched, so the work follows n, not V.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <hipamp/config.hpp>

// Templates below call user code (comparators, memory adapters) that may be host-only when
// instantiated from host code (the CPU replay of the schedule); nvcc would warn for each.
#if defined(__NVCC__)
#define HIPAMP_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define HIPAMP_NO_EXEC_CHECK
#endif

namespace hipamp::detail::bitonic {

// Shape of the tile kernels for elements of `bytes` bytes: 2^K elements per thread in
// registers (32 for small keys, as the seed's degree 5) and about 32 KiB of tile.
struct tile_shape {
  int k;          // log2 elements per thread
  int log2_tile;  // log2 S
  int threads;    // S >> k
};
constexpr int floor_log2(std::size_t x) {
  int l = 0;
  while ((std::size_t(1) << (l + 1)) <= x) ++l;
  return l;
}
constexpr tile_shape shape_for_bytes(std::size_t bytes) {
  const int k = bytes <= 4 ? 5 : bytes <= 12 ? 4 : bytes <= 32 ? 3 : 2;
  const int by_memory = floor_log2(32768 / (bytes ? bytes : 1));
  const int log2_tile = by_memory < 13 ? by_memory : 13;
  return {k, log2_tile, 1 << (log2_tile - k)};
}
template <class E>
inline constexpr tile_shape shape_of = shape_for_bytes(sizeof(E));

// The virtual index space (see the header comment) and where its positions live in memory.
struct layout {
  unsigned length = 0;  // real elements per segment
  unsigned segments = 1;
  int log2_size = 0;      // virtual positions per segment: 2^log2_size >= length
  std::size_t pitch = 0;  // elements between the starts of consecutive segments

  HIPAMP_HOST_DEVICE unsigned offset_of(unsigned q) const noexcept {
    return q & ((1u << log2_size) - 1u);
  }
  // Packed tiles (segments smaller than a tile) may reach past the last segment.
  HIPAMP_HOST_DEVICE bool exists(unsigned q) const noexcept {
    return offset_of(q) < length && (q >> log2_size) < segments;
  }
  HIPAMP_HOST_DEVICE std::size_t real(unsigned q) const noexcept {
    return static_cast<std::size_t>(q >> log2_size) * pitch + offset_of(q);
  }
  // How many of q, q + 2^log2_step, ... (count positions, all in one segment) exist.
  HIPAMP_HOST_DEVICE unsigned existing_run(unsigned q, int log2_step,
                                           unsigned count) const noexcept {
    if (!exists(q)) return 0;
    const unsigned o = offset_of(q);
    const unsigned run = ((length - o - 1u) >> log2_step) + 1u;
    return run < count ? run : count;
  }
  unsigned long long virtual_size() const noexcept {
    return static_cast<unsigned long long>(segments) << log2_size;
  }
};

inline layout make_layout(unsigned length, unsigned segments, std::size_t pitch) {
  layout l;
  l.length = length;
  l.segments = segments;
  l.pitch = pitch;
  while ((1ull << l.log2_size) < length) ++l.log2_size;
  return l;
}

// A round: network bits hi_bit .. hi_bit - bits + 1 of a stage; `mirror` when it starts
// with the stage's first step.
struct round_spec {
  int hi_bit;
  int bits;
  bool mirror;
};

// Positions of one group: 2^(bits-1) "lower" positions from `lower` and as many "upper"
// ones from `upper`, each 2^log2_step apart. Register j < H holds lower + j*step, register
// H + j holds upper + j*step; in a mirror round the upper run is the mirror image of the
// lower one's partners, so the first step compares registers j and 2H-1-j.
struct group {
  unsigned lower;
  unsigned upper;
  int log2_step;
};
HIPAMP_HOST_DEVICE inline group group_at(unsigned g, const round_spec& r) noexcept {
  const int log2_step = r.hi_bit - r.bits + 1;
  const unsigned step = 1u << log2_step;
  const unsigned block = g >> log2_step;
  const unsigned within = g & (step - 1u);
  const unsigned block_start = block << (r.hi_bit + 1);
  group out{};
  out.lower = block_start + within;
  out.upper = block_start + (1u << r.hi_bit) + (r.mirror ? step - 1u - within : within);
  out.log2_step = log2_step;
  return out;
}

// How many groups of round r, in group_at order, have their lowest position below
// `positions`. A group's lowest position grows with its index, so they are the first ones;
// every other group holds no position below `positions` at all.
HIPAMP_HOST_DEVICE inline unsigned groups_below(unsigned positions, const round_spec& r) noexcept {
  const int log2_step = r.hi_bit - r.bits + 1;
  const int log2_span = r.hi_bit + 1;
  const unsigned step = 1u << log2_step;
  const unsigned rest = positions & ((1u << log2_span) - 1u);
  return ((positions >> log2_span) << log2_step) + (rest < step ? rest : step);
}

HIPAMP_NO_EXEC_CHECK
template <class E, class Less>
HIPAMP_HOST_DEVICE inline void compare_exchange(E& a, E& b, const Less& less) {
  const bool swap = less(b, a);
  const E lo = swap ? b : a;
  const E hi = swap ? a : b;
  a = lo;
  b = hi;
}

// The steps of one round on the 2^Bits registers x[Base ..]. Register i's partner always
// holds the higher position; when `Checked`, an exchange happens only if that partner exists
// (registers j < existing_lower and H + j < H + existing_upper hold existing elements).
// Base is a template argument so every register index stays a compile-time constant (on a
// GPU, a runtime index would move the whole array to local memory).
HIPAMP_NO_EXEC_CHECK
template <int Bits, bool Mirror, bool Checked, int Base = 0, class E, int N, class Less>
HIPAMP_HOST_DEVICE inline void network(E (&x)[N], unsigned existing_lower, unsigned existing_upper,
                                       const Less& less) {
  constexpr int G = 1 << Bits;
  constexpr int H = G / 2;
  static_assert(Base >= 0 && Base + G <= N, "hipamp: a network round past its registers");
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
  for (int j = 0; j < H; ++j) {
    const int partner = Mirror ? G - 1 - j : j + H;
    if (!Checked || static_cast<unsigned>(partner - H) < existing_upper) {
      compare_exchange(x[Base + j], x[Base + partner], less);
    }
  }
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
  for (int dist = H / 2; dist >= 1; dist /= 2) {
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
    for (int i = 0; i < G; ++i) {
      if ((i & dist) != 0) continue;
      const int partner = i + dist;
      if (Checked) {
        const bool exists = partner < H ? static_cast<unsigned>(partner) < existing_lower
                                        : static_cast<unsigned>(partner - H) < existing_upper;
        if (!exists) continue;
      }
      compare_exchange(x[Base + i], x[Base + partner], less);
    }
  }
}

namespace network_detail {
// Stage S of the network on every run of 2^S registers, then stages S+1 .. K.
HIPAMP_NO_EXEC_CHECK
template <int S, int K, class E, class Less, int... Run>
HIPAMP_HOST_DEVICE inline void stages_from(E (&x)[1 << K], const Less& less,
                                           std::integer_sequence<int, Run...>) {
  constexpr unsigned H = 1u << (S - 1);
  (network<S, true, false, (Run << S)>(x, H, H, less), ...);
  if constexpr (S < K) {
    stages_from<S + 1, K>(x, less, std::make_integer_sequence<int, (1 << (K - S - 1))>{});
  }
}
}  // namespace network_detail

// Stages 1..K of the network on 2^K registers holding consecutive existing positions (the
// first of them at a multiple of 2^K): sorts them, exactly as the K stages' rounds would.
HIPAMP_NO_EXEC_CHECK
template <int K, class E, class Less>
HIPAMP_HOST_DEVICE inline void sort_runs(E (&x)[1 << K], const Less& less) {
  network_detail::stages_from<1, K>(x, less, std::make_integer_sequence<int, (1 << (K - 1))>{});
}

// Hides a value's origin from the optimiser: addresses computed from it after this point
// are recomputed instead of being kept live across the network (2^K of them would double a
// thread's registers on a GPU).
HIPAMP_HOST_DEVICE inline unsigned opaque(unsigned x) noexcept {
#if HIPAMP_DEVICE_COMPILE && defined(__AMDGCN__)
  // A vector register: with "r", LLVM 15's AMDGPU back end failed on some global rounds of
  // 8-byte keys ("illegal SGPR to VGPR copy").
  asm volatile("" : "+v"(x));
#elif HIPAMP_DEVICE_COMPILE
  asm volatile("" : "+r"(x));
#endif
  return x;
}

// The rounds below reach elements through `mem`, which maps virtual positions to storage:
//   mem.at(q) -> an address;  mem.next(address, step) -> the address step positions on
//   (positions of a run share a segment);  mem.load(address) / mem.store(address, e);
//   Mem::folds_offsets: the round's step is a compile-time constant and its offsets fold
//   into the instructions, so nothing is gained by recomputing them (see opaque).
template <class Mem, class = void>
inline constexpr bool folds_offsets = false;
template <class Mem>
inline constexpr bool folds_offsets<Mem, std::void_t<decltype(Mem::folds_offsets)>> =
    Mem::folds_offsets;

// One round on one group, every load issued before the first exchange. When Checked, only
// the first existing_lower / existing_upper positions of the lower and upper runs exist,
// and only those are loaded, exchanged and stored.
HIPAMP_NO_EXEC_CHECK
template <int Bits, bool Mirror, bool Checked, class E, class Mem, class Less>
HIPAMP_HOST_DEVICE inline void exchange_group(const Mem& mem, const group& grp,
                                              unsigned existing_lower, unsigned existing_upper,
                                              const Less& less) {
  constexpr int G = 1 << Bits;
  constexpr int H = G / 2;
  const unsigned step = 1u << grp.log2_step;
  const auto lower = mem.at(grp.lower);
  const auto upper = mem.at(grp.upper);
  E x[G];
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
  for (int j = 0; j < H; ++j) {
    if (!Checked || static_cast<unsigned>(j) < existing_lower)
      x[j] = mem.load(mem.next(lower, j * step));
    if (!Checked || static_cast<unsigned>(j) < existing_upper)
      x[H + j] = mem.load(mem.next(upper, j * step));
  }
  network<Bits, Mirror, Checked>(x, existing_lower, existing_upper, less);
  const unsigned store_step = folds_offsets<Mem> ? step : opaque(step);
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
  for (int j = 0; j < H; ++j) {
    if (!Checked || static_cast<unsigned>(j) < existing_lower)
      mem.store(mem.next(lower, j * store_step), x[j]);
    if (!Checked || static_cast<unsigned>(j) < existing_upper)
      mem.store(mem.next(upper, j * store_step), x[H + j]);
  }
}

// One round on a group whose positions all exist (the caller knows, or has checked).
HIPAMP_NO_EXEC_CHECK
template <int Bits, bool Mirror, class E, class Mem, class Less>
HIPAMP_HOST_DEVICE inline void run_existing_group(const Mem& mem, const group& grp,
                                                  const Less& less) {
  constexpr unsigned H = 1u << (Bits - 1);
  exchange_group<Bits, Mirror, false, E>(mem, grp, H, H, less);
}

// Runs one round on one group, exchanging only elements that exist in `lay`.
// `q_offset` is added to the group's positions for existence checks (a tile's start).
HIPAMP_NO_EXEC_CHECK
template <int Bits, bool Mirror, class E, class Mem, class Less>
HIPAMP_HOST_DEVICE inline void run_group(const Mem& mem, const layout& lay, const group& grp,
                                         unsigned q_offset, const Less& less) {
  constexpr unsigned H = 1u << (Bits - 1);
  const unsigned existing_lower = lay.existing_run(q_offset + grp.lower, grp.log2_step, H);
  if (existing_lower == 0) return;  // upper positions are higher still: nothing exists
  const unsigned existing_upper = lay.existing_run(q_offset + grp.upper, grp.log2_step, H);
  if (existing_lower == H && existing_upper == H) {
    run_existing_group<Bits, Mirror, E>(mem, grp, less);
  } else {
    exchange_group<Bits, Mirror, true, E>(mem, grp, existing_lower, existing_upper, less);
  }
}

// run_group with the round's width and mirror flag chosen at run time (1 <= bits <= MaxBits).
HIPAMP_NO_EXEC_CHECK
template <int MaxBits, class E, class Mem, class Less>
HIPAMP_HOST_DEVICE inline void run_group_dynamic(const Mem& mem, const layout& lay,
                                                 const round_spec& r, unsigned g, unsigned q_offset,
                                                 const Less& less) {
  static_assert(MaxBits >= 1 && MaxBits <= 6, "hipamp: rounds hold 2 to 64 elements");
  const group grp = group_at(g, r);
  switch (r.bits) {
#define HIPAMP_BITONIC_CASE(B)                                 \
  case B:                                                      \
    if constexpr (B <= MaxBits) {                              \
      if (r.mirror) {                                          \
        run_group<B, true, E>(mem, lay, grp, q_offset, less);  \
      } else {                                                 \
        run_group<B, false, E>(mem, lay, grp, q_offset, less); \
      }                                                        \
    }                                                          \
    break;
    HIPAMP_BITONIC_CASE(1)
    HIPAMP_BITONIC_CASE(2)
    HIPAMP_BITONIC_CASE(3)
    HIPAMP_BITONIC_CASE(4)
    HIPAMP_BITONIC_CASE(5)
    HIPAMP_BITONIC_CASE(6)
#undef HIPAMP_BITONIC_CASE
    default:
      break;
  }
}

// Calls f(round_spec) for the rounds of stages s_first .. s_last inside a tile of
// 2^log2_tile positions, K bits at most per round. Stages larger than the tile contribute
// their bits below log2_tile (their higher bits ran as global rounds). The last round of
// each stage takes the lowest min(bits, K) bits, so its groups are runs of consecutive
// positions and the other rounds' steps are >= 2^K (both conflict-free in shared memory).
HIPAMP_NO_EXEC_CHECK
template <class F>
HIPAMP_HOST_DEVICE constexpr void for_each_tile_round(int s_first, int s_last, int log2_tile, int k,
                                                      F&& f) {
  for (int s = s_first; s <= s_last; ++s) {
    const int top = (s < log2_tile ? s : log2_tile) - 1;
    const int total = top + 1;
    const int low = total < k ? total : k;
    bool mirror = s <= log2_tile;
    int hi_bit = top;
    for (int upper = total - low; upper > 0;) {
      const int bits = (upper - 1) % k + 1;
      f(round_spec{hi_bit, bits, mirror});
      mirror = false;
      hi_bit -= bits;
      upper -= bits;
    }
    f(round_spec{hi_bit, low, mirror});
  }
}

// The network steps of for_each_tile_round's rounds one at a time, for a tile whose existing
// positions are a prefix [0, reach) of it (a segment's last tile): f(mask, bit) for each step
// in network order, where position i with `bit` clear meets partner i ^ mask (mask = 2^bit,
// or 2^(bit+1) - 1 for a stage's first, mirror, step). Every partner of a step is at least
// 2^bit, so steps with 2^bit >= reach hold no existing pair and are left out: a tile with one
// element takes no step at all.
HIPAMP_NO_EXEC_CHECK
template <class F>
HIPAMP_HOST_DEVICE inline void for_each_tile_step(int s_first, int s_last, int log2_tile,
                                                  unsigned reach, F&& f) {
  for (int s = s_first; s <= s_last; ++s) {
    const int top = (s < log2_tile ? s : log2_tile) - 1;
    for (int b = top; b >= 0; --b) {
      if ((1u << b) >= reach) continue;
      const bool mirror = b == top && s <= log2_tile;
      f(mirror ? (2u << b) - 1u : 1u << b, b);
    }
  }
}

// The rounds of for_each_tile_round as a constant. Whole tiles (every position exists) run
// the two schedules the network repeats, the first pass's and a later stage's bits below
// the tile, from it: with each round's width, mirror flag and step known to the compiler,
// the shared-memory offsets fold into the instructions and no existence checks remain.
struct tile_schedule {
  static constexpr int capacity = 64;
  round_spec rounds[capacity]{};
  int count = 0;
};
constexpr tile_schedule make_tile_schedule(int s_first, int s_last, int log2_tile, int k) {
  tile_schedule schedule{};
  for_each_tile_round(s_first, s_last, log2_tile, k, [&schedule](const round_spec& r) {
    if (schedule.count < tile_schedule::capacity) schedule.rounds[schedule.count] = r;
    ++schedule.count;
  });
  return schedule;
}

// One round of a whole tile known at compile time, as a type.
template <int HiBit, int Bits, bool Mirror>
struct static_round {
  static constexpr round_spec spec{HiBit, Bits, Mirror};
};

namespace schedule_detail {
template <int SFirst, int SLast, int Log2Tile, int K>
inline constexpr tile_schedule schedule_of = make_tile_schedule(SFirst, SLast, Log2Tile, K);

template <int SFirst, int SLast, int Log2Tile, int K, int I>
using round_at = static_round<schedule_of<SFirst, SLast, Log2Tile, K>.rounds[I].hi_bit,
                              schedule_of<SFirst, SLast, Log2Tile, K>.rounds[I].bits,
                              schedule_of<SFirst, SLast, Log2Tile, K>.rounds[I].mirror>;

HIPAMP_NO_EXEC_CHECK
template <int SFirst, int SLast, int Log2Tile, int K, class F, int... I>
HIPAMP_HOST_DEVICE HIPAMP_ALWAYS_INLINE inline void apply_rounds(F& f,
                                                                 std::integer_sequence<int, I...>) {
  (f(round_at<SFirst, SLast, Log2Tile, K, I>{}), ...);
}
}  // namespace schedule_detail

// Calls f(static_round<...>{}) for each round of for_each_tile_round(SFirst, SLast, ...),
// inlined: f's kernel context (which memory a pointer addresses) must reach every round.
HIPAMP_NO_EXEC_CHECK
template <int SFirst, int SLast, int Log2Tile, int K, class F>
HIPAMP_HOST_DEVICE HIPAMP_ALWAYS_INLINE inline void for_each_static_tile_round(F&& f) {
  constexpr int count = schedule_detail::schedule_of<SFirst, SLast, Log2Tile, K>.count;
  static_assert(count <= tile_schedule::capacity, "hipamp: a tile schedule past its capacity");
  schedule_detail::apply_rounds<SFirst, SLast, Log2Tile, K>(
      f, std::make_integer_sequence<int, count>{});
}

// Calls f(round_spec) for the global rounds of stage s (bits s-1 .. log2_tile), K bits at
// most per round, balanced.
template <class F>
inline void for_each_global_round(int s, int log2_tile, int k, F&& f) {
  const int total = s - log2_tile;
  if (total <= 0) return;
  const int rounds = (total + k - 1) / k;
  int hi_bit = s - 1;
  for (int i = 0; i < rounds; ++i) {
    const int bits = total / rounds + (i < total % rounds ? 1 : 0);
    f(round_spec{hi_bit, bits, i == 0});
    hi_bit -= bits;
  }
}

// The whole network as passes: exec.tile_pass(s_first, s_last) sorts or finishes stages
// inside every tile that holds an existing element; exec.global_round(r) runs one global
// round over every group whose lowest position exists.
template <class Exec>
inline void run_schedule(const layout& lay, const tile_shape& shape, Exec& exec) {
  if (lay.log2_size == 0) return;  // one element per segment
  exec.tile_pass(1, lay.log2_size < shape.log2_tile ? lay.log2_size : shape.log2_tile);
  for (int s = shape.log2_tile + 1; s <= lay.log2_size; ++s) {
    for_each_global_round(s, shape.log2_tile, shape.k,
                          [&](const round_spec& r) { exec.global_round(r); });
    exec.tile_pass(s, s);
  }
}

// ---- which tiles and groups to launch: only those that touch existing elements ----------

// Tiles of 2^log2_tile positions holding at least one existing element.
struct tile_map {
  unsigned tiles_per_segment;  // when a segment spans whole tiles
  bool packed;                 // segments smaller than a tile: tile t covers positions t*S..
  unsigned count;
};
inline tile_map map_tiles(const layout& lay, int log2_tile) {
  tile_map m{};
  if (lay.log2_size >= log2_tile) {
    m.packed = false;
    m.tiles_per_segment = ((lay.length - 1u) >> log2_tile) + 1u;
    m.count = m.tiles_per_segment * lay.segments;
  } else {
    m.packed = true;
    m.tiles_per_segment = 0;
    const unsigned long long positions = lay.virtual_size();
    m.count = static_cast<unsigned>(((positions - 1) >> log2_tile) + 1);
  }
  return m;
}
HIPAMP_HOST_DEVICE inline unsigned tile_start(const tile_map& m, const layout& lay, int log2_tile,
                                              unsigned t) noexcept {
  if (m.packed) return t << log2_tile;
  const unsigned segment = t / m.tiles_per_segment;
  return (segment << lay.log2_size) + ((t - segment * m.tiles_per_segment) << log2_tile);
}
// Positions from a tile's start below which its groups can hold existing elements: a tile
// inside a segment holds a prefix of existing positions (the segment's last tile a partial
// one); a packed tile holds several segments, each with missing positions, so all of it.
HIPAMP_HOST_DEVICE inline unsigned tile_reach(const tile_map& m, const layout& lay, int log2_tile,
                                              unsigned start) noexcept {
  const unsigned tile_size = 1u << log2_tile;
  if (m.packed) return tile_size;
  const unsigned left = lay.length - lay.offset_of(start);
  return left < tile_size ? left : tile_size;
}

// Groups of a global round whose lowest position exists: per segment, the first `per_segment`
// group indices (see group_at) qualify.
struct group_map {
  unsigned per_segment;
  unsigned groups_per_segment_log2;  // log2 of all groups in a segment
  unsigned long long count;
};
inline group_map map_groups(const layout& lay, const round_spec& r) {
  group_map m{};
  m.per_segment = groups_below(lay.length, r);
  m.groups_per_segment_log2 = static_cast<unsigned>(lay.log2_size - r.bits);
  m.count = static_cast<unsigned long long>(m.per_segment) * lay.segments;
  return m;
}
HIPAMP_HOST_DEVICE inline unsigned group_index(const group_map& m, unsigned t) noexcept {
  const unsigned segment = t / m.per_segment;
  return (segment << m.groups_per_segment_log2) + (t - segment * m.per_segment);
}

// ---- memory adapters -----------------------------------------------------------------------

// Elements in global memory: one array, positions mapped through the layout.
template <class T>
struct array_memory {
  T* data;
  layout lay;
  HIPAMP_HOST_DEVICE std::size_t at(unsigned q) const noexcept { return lay.real(q); }
  HIPAMP_HOST_DEVICE std::size_t next(std::size_t a, unsigned step) const noexcept {
    return a + step;
  }
  HIPAMP_HOST_DEVICE T load(std::size_t a) const { return data[a]; }
  HIPAMP_HOST_DEVICE void store(std::size_t a, const T& e) const { data[a] = e; }
};

// Key-value pairs sorted together by key, in two arrays.
template <class K, class V>
struct key_value {
  K key;
  V value;
};
template <class Less>
struct by_key {
  Less less;
  HIPAMP_NO_EXEC_CHECK
  template <class P>
  HIPAMP_HOST_DEVICE bool operator()(const P& a, const P& b) const {
    return less(a.key, b.key);
  }
};
// Ties ordered by the value, which holds the original index: a stable sort.
template <class Less>
struct by_key_then_index {
  Less less;
  HIPAMP_NO_EXEC_CHECK
  template <class P>
  HIPAMP_HOST_DEVICE bool operator()(const P& a, const P& b) const {
    if (less(a.key, b.key)) return true;
    if (less(b.key, a.key)) return false;
    return a.value < b.value;
  }
};
template <class K, class V>
struct pair_memory {
  K* keys;
  V* values;
  layout lay;
  HIPAMP_HOST_DEVICE std::size_t at(unsigned q) const noexcept { return lay.real(q); }
  HIPAMP_HOST_DEVICE std::size_t next(std::size_t a, unsigned step) const noexcept {
    return a + step;
  }
  HIPAMP_HOST_DEVICE key_value<K, V> load(std::size_t a) const { return {keys[a], values[a]}; }
  HIPAMP_HOST_DEVICE void store(std::size_t a, const key_value<K, V>& e) const {
    keys[a] = e.key;
    values[a] = e.value;
  }
};

// One array read and another written (they may be the same): a tile pass that sorts its
// tiles out of place, as the first pass of the merge sort does, costs no extra copy. Global
// rounds read and write the same positions, so they need in == out.
template <class T>
struct copy_memory {
  const T* in;
  T* out;
  layout lay;
  HIPAMP_HOST_DEVICE std::size_t at(unsigned q) const noexcept { return lay.real(q); }
  HIPAMP_HOST_DEVICE std::size_t next(std::size_t a, unsigned step) const noexcept {
    return a + step;
  }
  HIPAMP_HOST_DEVICE T load(std::size_t a) const { return in[a]; }
  HIPAMP_HOST_DEVICE void store(std::size_t a, const T& e) const { out[a] = e; }
};

// A tile in shared memory, with one pad slot after every 2^shift elements so that the
// rounds' accesses are free of bank conflicts (see for_each_tile_round): a warp's access is
// served 128 bytes at a time, so 4-, 8- and 16-byte elements pad every 32, 16 and 8
// elements; other sizes every 32 (12-byte elements: 3 words, coprime with the 32 banks).
constexpr int pad_shift_for_bytes(std::size_t bytes) noexcept {
  return bytes == 8 ? 4 : bytes == 16 ? 3 : 5;
}
HIPAMP_HOST_DEVICE constexpr unsigned padded(unsigned i, int shift) noexcept {
  return i + (i >> shift);
}
constexpr unsigned padded_tile_size(int log2_tile, std::size_t bytes) noexcept {
  return padded(1u << log2_tile, pad_shift_for_bytes(bytes));
}
template <class E>
struct tile_memory {
  static constexpr int shift = pad_shift_for_bytes(sizeof(E));
  E* tile;
  HIPAMP_HOST_DEVICE static constexpr unsigned slot(unsigned i) noexcept {
    return padded(i, shift);
  }
  // The pad slots themselves, which no round reads: spare(j) for j < spares(log2_tile) is the
  // one after position 2^shift * (j + 1) - 1 (scratch for a block reduction, pad_partial_tile).
  HIPAMP_HOST_DEVICE static constexpr unsigned spare(unsigned j) noexcept {
    return ((j + 1u) << shift) + j;
  }
  static constexpr unsigned spares(int log2_tile) noexcept { return (1u << log2_tile) >> shift; }
  HIPAMP_HOST_DEVICE unsigned at(unsigned q) const noexcept { return q; }
  HIPAMP_HOST_DEVICE unsigned next(unsigned a, unsigned step) const noexcept { return a + step; }
  HIPAMP_HOST_DEVICE E load(unsigned a) const { return tile[slot(a)]; }
  HIPAMP_HOST_DEVICE void store(unsigned a, const E& e) const { tile[slot(a)] = e; }
};

// A segment's partial last tile (existing positions [0, reach), reach < S) may run a whole
// tile's compile-time rounds (static_tile_round, sort_runs) if its missing positions
// [reach, S) are first filled with a padding element P that no existing element of the tile
// is greater than: !less(P, e) for every e of the tile's prefix at that pass (its maximum
// under `less`, recomputed each pass); the tile's prefix is then stored alone.
// Why it moves the prefix exactly as the checked rounds: every compare-exchange pairs a lower
// position with a higher one and swaps only if less(hi, lo) strictly. A pair (existing lo,
// padding hi) swaps iff less(P, lo): never, P being a maximum; a pair of two paddings swaps iff
// less(P, P): never (irreflexive); a padding below an existing element cannot be paired, since
// positions >= reach all hold padding at the start and, by the two cases before, keep it. So
// the paddings never move, every pair touching one is a no-op, and the pairs of two existing
// elements are exactly those the checked rounds run (they skip pairs with a missing upper
// partner): the prefix ends as the checked rounds leave it, a permutation of the tile's
// elements, sorted by the first pass, whatever its ties (equal keys with distinct payloads,
// key_index, custom comparators) — no element lost or duplicated. The later stages' tile
// passes only pair positions inside the tile, so the argument holds per pass. It needs
// `less` to be a strict weak ordering (irreflexive, and the maximum found by folding with
// less not less than any element), as every sort of the library does.

// A padded shared-memory tile addressed by slot, for rounds whose step is a compile-time
// constant that is a whole number of padding periods, or 1 inside one period (every round
// of for_each_tile_round when the registers per round fill a period): then the slot `step`
// positions on is the slot plus a constant, and the offsets fold.
template <class E>
struct padded_slots {
  static constexpr int shift = pad_shift_for_bytes(sizeof(E));
  static constexpr bool folds_offsets = true;
  E* tile;
  HIPAMP_HOST_DEVICE unsigned at(unsigned q) const noexcept { return padded(q, shift); }
  HIPAMP_HOST_DEVICE unsigned next(unsigned slot, unsigned step) const noexcept {
    return slot + step + (step >> shift);
  }
  HIPAMP_HOST_DEVICE E load(unsigned slot) const { return tile[slot]; }
  HIPAMP_HOST_DEVICE void store(unsigned slot, const E& e) const { tile[slot] = e; }
};
constexpr bool slots_fold(int log2_step, int bits, int shift) noexcept {
  return log2_step >= shift || (log2_step == 0 && bits <= shift);
}

// Round R of a whole tile (every position exists) on groups tid, tid + Threads, ... for one
// thread of Threads.
HIPAMP_NO_EXEC_CHECK
template <class R, int Log2Tile, int Threads, class E, class Less>
HIPAMP_HOST_DEVICE inline void static_tile_round(E* tile, unsigned tid, const Less& less) {
  constexpr round_spec r = R::spec;
  constexpr unsigned groups = 1u << (Log2Tile - r.bits);
  static_assert(groups % Threads == 0, "hipamp: a tile round's groups must share out evenly");
  constexpr bool fold = slots_fold(r.hi_bit - r.bits + 1, r.bits, pad_shift_for_bytes(sizeof(E)));
  using memory = std::conditional_t<fold, padded_slots<E>, tile_memory<E>>;
  const memory mem{tile};
#if HIPAMP_DEVICE_COMPILE
#pragma unroll
#endif
  for (unsigned i = 0; i < groups / Threads; ++i) {
    run_existing_group<r.bits, r.mirror, E>(mem, group_at(tid + i * Threads, r), less);
  }
}

}  // namespace hipamp::detail::bitonic
