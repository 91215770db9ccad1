// Issue 18: where the GPU merge sort's time goes, kernel by kernel, on raw device buffers. Each
// configuration (tile kernel, merge policy) runs the merge sort's launches with a device event
// between every kernel (partition + merge count as one pass) and prints the median time of each
// step over 7 runs, beside CUB's merge sorts and a device-to-device copy of the same bytes
// (the bandwidth ceiling of one pass). Configurations are the library's kernels instantiated
// with other policies, so a sweep needs no library change.
//   nvcc -std=c++17 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr \
//        -I include -I <build>/include scripts/sort_pass_profile.cu -o sort_pass_profile
//   ./sort_pass_profile [log2 sizes...]        (default 22 24 26)
//   ./sort_pass_profile ncu                    one run of each kernel at 2^24, for ncu
//   ./sort_pass_profile s18 | s18c | s18d | s18e [sizes]  issue 18's stable-sort comparisons
//                                              (a negative size: that many elements)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cub/device/device_merge_sort.cuh>

#include <hipamp/backend/gpu/sort.hpp>

// The one library symbol the kernels' launch checks need (libhipamp is not linked).
namespace hipamp::detail::gpu {
[[noreturn]] void throw_error(error_t error, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(error));
  std::exit(1);
}
}  // namespace hipamp::detail::gpu

namespace gk = hipamp::detail::gpu::sort_kernels;
namespace mp = hipamp::detail::merge;
namespace bt = hipamp::detail::bitonic;

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

struct less_u32 {
  __host__ __device__ bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return a < b;
  }
};
// bench_sort's stable comparator: ties common.
struct by_high_u32 {
  __host__ __device__ bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return (a >> 8) < (b >> 8);
  }
};

// Issue 18's measured-and-dropped stable tiles (84f977e): bitonic tiles of (key, position) pairs,
// ties by the position (stable), 4x the unstable tile's time. Kept here to measure again.
namespace pairs {
// The stable tiles' elements: a key and its position in the input. Ordered by the key, ties by
// the position, the network's order is total, so its (unstable) result is the stable order.
// 8-byte pairs are 8-byte aligned so that a shared-memory access is one 64-bit load or store.
template <class T>
struct alignas(sizeof(T) + sizeof(unsigned) == 8    ? 8
               : sizeof(T) + sizeof(unsigned) == 16 ? 16
               : alignof(T) > alignof(unsigned)     ? alignof(T)
                                                    : alignof(unsigned)) positioned {
  T key;
  unsigned position;
};
template <class Less>
struct by_key_then_position {
  Less less;
  template <class P>
  __host__ __device__ bool operator()(const P& a, const P& b) const {
    return less(a.key, b.key) || (!less(b.key, a.key) && a.position < b.position);
  }
};
// Keys read from `in`, each paired with its position; only the keys are written to `out`.
template <class T>
struct positioning_memory {
  const T* in;
  T* out;
  bt::layout lay;
  __host__ __device__ std::size_t at(unsigned q) const noexcept { return lay.real(q); }
  __host__ __device__ std::size_t next(std::size_t a, unsigned step) const noexcept {
    return a + step;
  }
  __host__ __device__ positioned<T> load(std::size_t a) const {
    return {in[a], static_cast<unsigned>(a)};
  }
  __host__ __device__ void store(std::size_t a, const positioned<T>& e) const { out[a] = e.key; }
};

// Sorts tiles of 2^log2_tile stably, `data` to `to`: the bitonic tile kernel of Shape on
// (key, position) pairs ordered by the key, ties by the position (positioned).
template <class T, class Shape, class Less>
void stable_bitonic_tiles(const T* data, T* to, unsigned n, const Less& less, cudaStream_t stream) {
  using pair = positioned<T>;
  constexpr int log2_tile = gk::launch_shape<pair, Shape>::tile.log2_tile;
  const bt::layout lay = bt::make_layout(n, 1, n);
  const int tile_stages = lay.log2_size < log2_tile ? lay.log2_size : log2_tile;
  using mem = positioning_memory<T>;
  using order = by_key_then_position<Less>;
  gk::network_launcher<pair, Shape, mem, order>(mem{data, to, lay}, lay, order{less}, stream)
      .tile_pass(1, tile_stages);
}

}  // namespace pairs

// bench_sort's paper type, sorted by y (its sort and stable_sort both take merged tiles).
struct paper_type {
  float x;
  unsigned y;
  int z;
  bool operator==(const paper_type& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct by_y {
  __host__ __device__ bool operator()(const paper_type& a, const paper_type& b) const {
    return a.y < b.y;
  }
};
template <class G>
void fill(std::uint32_t& x, G& g, unsigned) {
  x = g();
}
template <class G>
void fill(paper_type& x, G& g, unsigned i) {
  x = {static_cast<float>(g() % 1000), static_cast<unsigned>(g()), static_cast<int>(i)};
}

static cudaStream_t stream;
static bool ncu_mode = false;
static bool s18 = false;
static bool s18c = false;
static bool s18d = false;
static bool s18e = false;

struct steps {
  std::vector<cudaEvent_t> ev;
  std::vector<std::string> names;
  void mark(const char* name) {
    cudaEvent_t e;
    CK(cudaEventCreate(&e));
    CK(cudaEventRecord(e, stream));
    ev.push_back(e);
    names.push_back(name);
  }
  std::vector<float> times() {
    CK(cudaEventSynchronize(ev.back()));
    std::vector<float> t;
    for (std::size_t i = 1; i < ev.size(); ++i) {
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, ev[i - 1], ev[i]));
      t.push_back(ms * 1000.f);
    }
    for (auto e : ev) cudaEventDestroy(e);
    return t;
  }
};

// The merge passes of merge_sort, with a mark after each.
template <class T, class Policy, int Lanes, class Less>
T* merge_passes(T* from, T* to, unsigned* splits, unsigned n, unsigned tile, Less less, steps& st) {
  for (unsigned long long width = tile; width < n; width *= 2) {
    const mp::pass_shape pass = mp::shape_pass(n, static_cast<unsigned>(width), Policy::per_block);
    const bool partition = pass.blocks >= gk::merge_partition_min_blocks;
    if (partition) {
      const unsigned long long lanes = static_cast<unsigned long long>(pass.blocks) * Lanes;
      gk::merge_partition_kernel<Lanes, T, Less>
          <<<static_cast<unsigned>((lanes + 255) / 256), 256, 0, stream>>>(
              from, n, pass, Policy::per_block, splits, gk::run_samples<const T>{}, 0u, less);
    }
    gk::merge_kernel<T, Policy, Less><<<pass.blocks, Policy::threads, 0, stream>>>(
        from, to, n, pass, partition ? splits : nullptr, gk::run_samples<T>{}, less);
    CK(cudaGetLastError());
    st.mark("pass");
    std::swap(from, to);
  }
  return from;
}

template <class T>
struct buffers {
  unsigned n;
  std::vector<T> host;
  T *pristine, *data, *scratch;
  unsigned* splits;
  T* samples;  // run_samples' two arrays (the library's merge_sort counts their halves)
  explicit buffers(unsigned count, unsigned seed) : n(count), host(count) {
    std::mt19937 g(seed);
    for (unsigned i = 0; i < count; ++i) fill(host[i], g, i);
    CK(cudaMalloc(&pristine, n * sizeof(T)));
    CK(cudaMalloc(&data, n * sizeof(T)));
    CK(cudaMalloc(&scratch, n * sizeof(T)));
    CK(cudaMalloc(&splits, (n / 512 + 16) * sizeof(unsigned)));
    CK(cudaMalloc(&samples, (n / 512 + 512) * sizeof(T)));
    CK(cudaMemcpy(pristine, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~buffers() {
    cudaFree(pristine);
    cudaFree(data);
    cudaFree(scratch);
    cudaFree(splits);
    cudaFree(samples);
  }
  void restore() {
    CK(cudaMemcpyAsync(data, pristine, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
  // References computed once per buffer: the full order (equal u32 keys are identical) and
  // by_high_u32's stable order.
  std::vector<T> sorted_ref, stable_ref;
  template <class Less>
  bool check(const T* out, Less less, bool stable) {
    std::vector<T> got(n);
    CK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    if (stable) {
      if (stable_ref.empty()) {
        stable_ref = host;
        std::stable_sort(stable_ref.begin(), stable_ref.end(), less);
      }
      return got == stable_ref;
    }
    if (sorted_ref.empty()) {
      sorted_ref = host;
      std::sort(sorted_ref.begin(), sorted_ref.end(), less);
    }
    return got == sorted_ref;
  }
};

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `sort` (which marks its own steps and returns the output pointer) 7 times after a
// warm-up; prints the median per step and of the whole.
template <class T, class Less, class Sort>
void profile(const char* name, buffers<T>& b, Less less, bool stable, Sort sort) {
  const int reps = ncu_mode ? 1 : 7;
  std::vector<std::vector<double>> per;
  std::vector<double> total;
  bool ok = true;
  for (int r = -1; r < reps; ++r) {
    b.restore();
    steps st;
    st.mark("start");
    const T* out = sort(b, st);
    const std::vector<float> t = st.times();
    if (r == -1) {
      ok = b.check(out, less, stable);
      per.assign(t.size(), {});
      continue;
    }
    double sum = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      per[i].push_back(t[i]);
      sum += t[i];
    }
    total.push_back(sum);
  }
  if (ncu_mode) return;
  std::printf("%-34s n=%-9u total %8.1f us %s |", name, b.n, median(total), ok ? "ok" : "WRONG");
  for (auto& v : per) std::printf(" %.1f", median(v));
  std::printf("\n");
}

// Bitonic tiles of Shape, then merge passes of Policy.
template <class Shape, class Policy, int Lanes, class T, class Less>
T* bitonic_then_merge(buffers<T>& b, Less less, steps& st) {
  using mem = bt::copy_memory<T>;
  constexpr int log2_tile = gk::launch_shape<T, Shape>::tile.log2_tile;
  const unsigned tile = 1u << log2_tile;
  const bt::layout lay = bt::make_layout(b.n, 1, b.n);
  gk::network_launcher<T, Shape, mem, Less>(mem{b.data, b.scratch, lay}, lay, less, stream)
      .tile_pass(1, log2_tile);
  CK(cudaGetLastError());
  st.mark("tile");
  return merge_passes<T, Policy, Lanes>(b.scratch, b.data, b.splits, b.n, tile, less, st);
}

// Block merge sort tiles of BlockPolicy, then merge passes of Policy.
template <class BlockPolicy, class Policy, int Lanes, class T, class Less>
T* merged_then_merge(buffers<T>& b, Less less, steps& st) {
  const unsigned tile = BlockPolicy::per_block;
  gk::block_merge_sort_kernel<T, BlockPolicy, Less>
      <<<(b.n + tile - 1) / tile, BlockPolicy::threads, 0, stream>>>(
          b.data, b.scratch, b.n, gk::run_samples<T>{}, 1u, less);
  CK(cudaGetLastError());
  st.mark("block");
  return merge_passes<T, Policy, Lanes>(b.scratch, b.data, b.splits, b.n, tile, less, st);
}

// Stable bitonic tiles of (key, position) pairs of Shape, then merge passes of Policy.
template <class Shape, class Policy, int Lanes, class T, class Less>
T* pairs_then_merge(buffers<T>& b, Less less, steps& st) {
  const unsigned tile = 1u << gk::launch_shape<pairs::positioned<T>, Shape>::tile.log2_tile;
  pairs::stable_bitonic_tiles<T, Shape>(b.data, b.scratch, b.n, less, stream);
  CK(cudaGetLastError());
  st.mark("tile");
  return merge_passes<T, Policy, Lanes>(b.scratch, b.data, b.splits, b.n, tile, less, st);
}
template <class Shape, class Policy, int Lanes>
void run_pairs(const char* name, buffers<std::uint32_t>& b) {
  profile(name, b, by_high_u32{}, true, [](buffers<std::uint32_t>& bb, steps& st) {
    return pairs_then_merge<Shape, Policy, Lanes>(bb, by_high_u32{}, st);
  });
}
template <class BlockPolicy, class Policy, int Lanes>
void run_paper(const char* name, buffers<paper_type>& b) {
  profile(name, b, by_y{}, true, [](buffers<paper_type>& bb, steps& st) {
    return merged_then_merge<BlockPolicy, Policy, Lanes>(bb, by_y{}, st);
  });
}

// Issue 18, s18c: the stable merge sort's launches as merge_sort makes them, with one mark at the
// end (a mark between kernels would break a chain), launched plainly or chained
// (vendor::launch_chained: programmatic dependent launch), for merge policies that differ in
// their stores only.
template <int Lanes, class T, class Less>
void partition_launch(bool chained, const T* in, unsigned n, const mp::pass_shape& pass,
                      unsigned per_block, unsigned* splits, Less less) {
  if constexpr (Lanes > 2) {
    if (gk::merge_partition_lanes(pass.blocks) < Lanes) {
      return partition_launch<Lanes / 4>(chained, in, n, pass, per_block, splits, less);
    }
  }
  const unsigned blocks =
      static_cast<unsigned>((static_cast<unsigned long long>(pass.blocks) * Lanes + 255) / 256);
  if (chained) {
    CK(hipamp::detail::gpu::vendor::launch_chained(gk::merge_partition_kernel<Lanes, T, Less>,
                                                   blocks, 256, stream, in, n, pass, per_block,
                                                   splits, gk::run_samples<const T>{}, 0u, less));
  } else {
    gk::merge_partition_kernel<Lanes, T, Less><<<blocks, 256, 0, stream>>>(
        in, n, pass, per_block, splits, gk::run_samples<const T>{}, 0u, less);
    CK(cudaGetLastError());
  }
}
// The library's merge_kernel with CUB's shortcuts (an experiment of s18c): every thread reads
// the block's two splits from merge_partition_kernel's array (no shared copy, no barrier; the
// passes of fewer blocks search in the block as the library does), a whole block (total ==
// per_block) loads and stores unchecked, and a thread whose outputs all exist merges without
// clamping its reads (they stay within the block's slots).
template <class E, class Policy, class Less>
__global__ void __launch_bounds__((Policy::threads), (Policy::min_blocks))
    lean_merge_kernel(const E* in, E* out, unsigned n, mp::pass_shape pass, const unsigned* splits,
                      gk::run_samples<E>, Less less) {
  constexpr unsigned threads = Policy::threads;
  constexpr int items = Policy::items;
  constexpr unsigned per_block = Policy::per_block;
  constexpr unsigned half = threads / 2;
  constexpr int pad = gk::merge_pad_shift<Policy>;
  __shared__ typename gk::merge_shared<E, Policy>::storage merge_storage;
  __shared__ unsigned split_bounds[2][2];
  __shared__ unsigned char split_flags[2][half];
  const mp::block_span s = mp::span_of(n, pass, per_block, blockIdx.x);
  const E* a = in + s.start;
  const E* b = a + s.a_count;
  const unsigned tid = threadIdx.x;
  hipamp::detail::gpu::wait_for_prior_grid();
  unsigned a_first, a_last;
  if (splits != nullptr) {
    const unsigned next = blockIdx.x + 1;
    const bool same_pair = next < pass.blocks && next % pass.blocks_per_pair != 0;
    a_first = splits[blockIdx.x];
    a_last = same_pair ? splits[next] : s.a_count;
  } else {
    const unsigned which = tid < half ? 0u : 1u;
    const unsigned j = tid - which * half;
    const unsigned diag = which == 0 ? s.d_first : s.d_last;
    if (j == 0) {
      split_bounds[which][0] = diag > s.b_count ? diag - s.b_count : 0u;
      split_bounds[which][1] = diag < s.a_count ? diag : s.a_count;
    }
    for (;;) {
      __syncthreads();
      if (split_bounds[0][0] >= split_bounds[0][1] && split_bounds[1][0] >= split_bounds[1][1])
        break;
      const unsigned lo = split_bounds[which][0];
      const unsigned span = split_bounds[which][1] - lo;
      const unsigned probes = span < half ? span : half;
      bool before = false;
      unsigned mid = 0;
      if (j < probes) {
        mid = span <= half ? lo + j
                           : lo + static_cast<unsigned>(static_cast<unsigned long long>(span) *
                                                        (j + 1) / (half + 1));
        before = mp::before_path(a, b, diag, mid, less);
      }
      split_flags[which][j] = before;
      __syncthreads();
      if (j < probes) {
        if (before && (j + 1 == probes || !split_flags[which][j + 1]))
          split_bounds[which][0] = mid + 1;
        if (!before && (j == 0 || split_flags[which][j - 1])) split_bounds[which][1] = mid;
      }
    }
    a_first = split_bounds[0][0];
    a_last = split_bounds[1][0];
  }
  const unsigned a_count = a_last - a_first;
  const unsigned b_first = s.d_first - a_first;
  const unsigned total = s.d_last - s.d_first;
  E* keys = reinterpret_cast<E*>(merge_storage.bytes);
  const bool whole_block = total == per_block;
  {
    E v[items];
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (whole_block || i < total)
        v[r] = i < a_count ? a[a_first + i] : b[b_first + (i - a_count)];
    }
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (whole_block || i < total) keys[i] = v[r];
    }
  }
  __syncthreads();
  hipamp::detail::gpu::release_next_grid();
  E x[items];
  {
    const unsigned first = tid * items < total ? tid * items : total;
    const unsigned split =
        mp::merge_path(keys, a_count, keys + a_count, total - a_count, first, less);
    unsigned ai = split;
    unsigned bi = a_count + (first - split);
    const auto merge = [&](auto whole) {
      constexpr bool unclamped = decltype(whole)::value;
      const auto at = [&](unsigned i) { return keys[unclamped || i < per_block ? i : per_block]; };
      E xa = at(ai);
      E xb = at(bi);
#pragma unroll
      for (int k = 0; k < items; ++k) {
        const bool take_a = bi >= total || (ai < a_count && !less(xb, xa));
        x[k] = take_a ? xa : xb;
        if (take_a) {
          ++ai;
          xa = at(ai);
        } else {
          ++bi;
          xb = at(bi);
        }
      }
    };
    if (first + items <= total) {
      merge(std::true_type{});
    } else {
      merge(std::false_type{});
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const unsigned i = tid * items + k;
    if (whole_block || i < total) keys[gk::merge_slot<pad>(i)] = x[k];
  }
  __syncthreads();
  E* o = out + s.start + s.d_first;
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const unsigned i = tid + r * threads;
    if (whole_block || i < total) o[i] = keys[gk::merge_slot<pad>(i)];
  }
}

template <class BlockPolicy, class Policy, bool Chained, bool Lean = false, class T, class Less>
T* whole_sort(buffers<T>& b, Less less, steps& st) {
  namespace vd = hipamp::detail::gpu::vendor;
  const unsigned n = b.n;
  const unsigned tile = BlockPolicy::per_block;
  const int passes = mp::pass_count(n, tile);
  T* from = passes % 2 == 1 ? b.scratch : b.data;
  const auto block_kernel = gk::block_merge_sort_kernel<T, BlockPolicy, Less>;
  const auto merge_kernel =
      Lean ? lean_merge_kernel<T, Policy, Less> : gk::merge_kernel<T, Policy, Less>;
  if (Chained) {
    CK(vd::launch_chained(block_kernel, (n + tile - 1) / tile, BlockPolicy::threads, stream, b.data,
                          from, n, gk::run_samples<T>{}, 1u, less));
  } else {
    block_kernel<<<(n + tile - 1) / tile, BlockPolicy::threads, 0, stream>>>(
        b.data, from, n, gk::run_samples<T>{}, 1u, less);
    CK(cudaGetLastError());
  }
  T* to = from == b.data ? b.scratch : b.data;
  for (unsigned long long width = tile; width < n; width *= 2) {
    const mp::pass_shape pass = mp::shape_pass(n, static_cast<unsigned>(width), Policy::per_block);
    const bool partition = pass.blocks >= gk::merge_partition_min_blocks;
    if (partition) partition_launch<32>(Chained, from, n, pass, Policy::per_block, b.splits, less);
    const unsigned* splits = partition ? b.splits : nullptr;
    if (Chained) {
      CK(vd::launch_chained(merge_kernel, pass.blocks, Policy::threads, stream,
                            static_cast<const T*>(from), to, n, pass, splits, gk::run_samples<T>{},
                            less));
    } else {
      merge_kernel<<<pass.blocks, Policy::threads, 0, stream>>>(from, to, n, pass, splits,
                                                                gk::run_samples<T>{}, less);
      CK(cudaGetLastError());
    }
    std::swap(from, to);
  }
  st.mark("sort");
  return from;
}
// The unstable sort's launches (the library's 2^15 bitonic tiles, launched plainly, then chained
// merge passes of Policy), one mark at the end.
template <class Policy, class T, class Less>
T* bitonic_chained(buffers<T>& b, Less less, steps& st) {
  namespace vd = hipamp::detail::gpu::vendor;
  const unsigned n = b.n;
  using shape = gk::large_merge_tile_shape<T>;
  const unsigned tile = 1u << gk::launch_shape<T, shape>::tile.log2_tile;
  const int passes = mp::pass_count(n, tile);
  T* from = passes % 2 == 1 ? b.scratch : b.data;
  gk::bitonic_tiles<T, shape>(b.data, from, n, less, stream);
  T* to = from == b.data ? b.scratch : b.data;
  for (unsigned long long width = tile; width < n; width *= 2) {
    const mp::pass_shape pass = mp::shape_pass(n, static_cast<unsigned>(width), Policy::per_block);
    const bool partition = pass.blocks >= gk::merge_partition_min_blocks;
    if (partition) partition_launch<32>(true, from, n, pass, Policy::per_block, b.splits, less);
    CK(vd::launch_chained(gk::merge_kernel<T, Policy, Less>, pass.blocks, Policy::threads, stream,
                          static_cast<const T*>(from), to, n, pass,
                          static_cast<const unsigned*>(partition ? b.splits : nullptr),
                          gk::run_samples<T>{}, less));
    std::swap(from, to);
  }
  st.mark("sort");
  return from;
}
template <class Policy>
void run_bitonic_chained(const char* name, buffers<std::uint32_t>& b) {
  profile(name, b, less_u32{}, false, [](buffers<std::uint32_t>& bb, steps& st) {
    return bitonic_chained<Policy>(bb, less_u32{}, st);
  });
}

template <class BlockPolicy, class Policy, bool Chained, bool Lean = false>
void run_whole(const char* name, buffers<std::uint32_t>& b) {
  profile(name, b, by_high_u32{}, true, [](buffers<std::uint32_t>& bb, steps& st) {
    return whole_sort<BlockPolicy, Policy, Chained, Lean>(bb, by_high_u32{}, st);
  });
}

template <class T, class Less>
void cub_sort(const char* name, buffers<T>& b, Less less, bool stable) {
  std::size_t bytes = 0;
  CK(cub::DeviceMergeSort::SortKeys(nullptr, bytes, b.data, static_cast<std::int64_t>(b.n), less,
                                    stream));
  void* temp;
  CK(cudaMalloc(&temp, bytes));
  profile(name, b, less, stable, [&](buffers<T>& bb, steps& st) {
    std::size_t t = bytes;
    if (stable) {
      CK(cub::DeviceMergeSort::StableSortKeys(temp, t, bb.data, static_cast<std::int64_t>(bb.n),
                                              less, stream));
    } else {
      CK(cub::DeviceMergeSort::SortKeys(temp, t, bb.data, static_cast<std::int64_t>(bb.n), less,
                                        stream));
    }
    st.mark("cub");
    return bb.data;
  });
  CK(cudaFree(temp));
}

template <class Shape, class Policy, int Lanes>
void run_bitonic(const char* name, buffers<std::uint32_t>& b) {
  profile(name, b, less_u32{}, false, [](buffers<std::uint32_t>& bb, steps& st) {
    return bitonic_then_merge<Shape, Policy, Lanes>(bb, less_u32{}, st);
  });
}
template <class BlockPolicy, class Policy, int Lanes>
void run_stable(const char* name, buffers<std::uint32_t>& b) {
  profile(name, b, by_high_u32{}, true, [](buffers<std::uint32_t>& bb, steps& st) {
    return merged_then_merge<BlockPolicy, Policy, Lanes>(bb, by_high_u32{}, st);
  });
}

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "ncu") == 0) {
      ncu_mode = true;
    } else if (std::strcmp(argv[i], "s18") == 0) {
      s18 = true;
    } else if (std::strcmp(argv[i], "s18c") == 0) {
      s18c = true;
    } else if (std::strcmp(argv[i], "s18d") == 0) {
      s18d = true;
    } else if (std::strcmp(argv[i], "s18e") == 0) {
      s18e = true;
    } else {
      sizes.push_back(std::atoi(argv[i]));
    }
  }
  if (sizes.empty()) sizes = ncu_mode ? std::vector<int>{24} : std::vector<int>{22, 24, 26};
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  using u32 = std::uint32_t;
  // Issue 18, s18c: chained launches beside plain ones, beside CUB (which chains its launches
  // since CCCL 2.8) and the library's sorts; a leaner merge kernel (lean_merge_kernel) and the
  // merge policy's blocks per multiprocessor, chained.
  // Issue 18, s18d: the library's merge sorts with the partition searching the samples of the
  // input's chunks first (run_samples) against the data alone, by partition lanes; larger block
  // merge sort tiles (a pass fewer) with the data-alone partition.
  if (s18d) {
    using m17 = gk::merge_policy<256, 17, 5>;
    using m6 = gk::merge_policy<256, 17, 6>;
    for (int p : sizes) {
      buffers<u32> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 7);
      cub_sort("cub stable merge sort", b, by_high_u32{}, true);
      // (256 x 17 tiles at every size: large_tile_min ~0u, as at 891ea83.)
      const auto lib_stable = [&](const char* name, bool sampled, int lanes) {
        profile(name, b, by_high_u32{}, true, [sampled, lanes](buffers<u32>& bb, steps& st) {
          gk::merge_sort<u32, true>(bb.data, bb.scratch, bb.splits, bb.n, by_high_u32{}, stream,
                                    gk::merge_partition_min_blocks, ~0u,
                                    sampled ? bb.samples : nullptr, lanes);
          st.mark("sort");
          return bb.data;
        });
      };
      lib_stable("stable, data search (e82d0d7)", false, 0);
      lib_stable("stable, sampled, tuning lanes", true, 0);
      lib_stable("stable, sampled, 32 lanes", true, 32);
      lib_stable("stable, sampled, 8 lanes", true, 8);
      lib_stable("stable, sampled, 2 lanes", true, 2);
      lib_stable("stable, data search, 8 lanes", false, 8);
      lib_stable("stable, data search, 32 lanes", false, 32);
      lib_stable("stable, data search (e82d0d7) again", false, 0);
      lib_stable("stable, sampled, tuning lanes again", true, 0);
      run_whole<m17, m6, true>("whole: block 256x17 min5, merge min6 (e82d0d7)", b);
      run_whole<gk::merge_policy<512, 17, 3>, m6, true>("whole: block 512x17 min3", b);
      run_whole<gk::merge_policy<512, 17, 2>, m6, true>("whole: block 512x17 min2", b);
      run_whole<gk::merge_policy<512, 17, 0>, m6, true>("whole: block 512x17 min0", b);
      run_whole<gk::merge_policy<1024, 11, 1>, m6, true>("whole: block 1024x11 min1", b);
      cub_sort("cub merge sort", b, less_u32{}, false);
      const auto lib_fast = [&](const char* name, bool sampled, int lanes) {
        profile(name, b, less_u32{}, false, [sampled, lanes](buffers<u32>& bb, steps& st) {
          gk::merge_sort<u32, false>(bb.data, bb.scratch, bb.splits, bb.n, less_u32{}, stream,
                                     gk::merge_partition_min_blocks, 0,
                                     sampled ? bb.samples : nullptr, lanes);
          st.mark("sort");
          return bb.data;
        });
      };
      lib_fast("merge sort, data search (e82d0d7)", false, 0);
      lib_fast("merge sort, sampled, tuning lanes", true, 0);
      lib_fast("merge sort, sampled, 32 lanes", true, 32);
    }
    CK(cudaStreamDestroy(stream));
    return 0;
  }
  // Issue 18, s18e: the library's merge sorts as they stand (samples, the stable sort's large
  // tiles from merge_large_block_min) against the same kernels configured as at e82d0d7 (data-
  // alone partitions, 256 x 17 tiles), each twice, CUB beside them.
  if (s18e) {
    for (int p : sizes) {
      buffers<u32> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 7);
      // large: 0 the tuning's, ~0u never, 2 always; lanes 0: the tuning's.
      const auto lib_stable = [&](const char* name, bool sampled, unsigned large) {
        profile(name, b, by_high_u32{}, true, [sampled, large](buffers<u32>& bb, steps& st) {
          gk::merge_sort<u32, true>(bb.data, bb.scratch, bb.splits, bb.n, by_high_u32{}, stream,
                                    gk::merge_partition_min_blocks, large,
                                    sampled ? bb.samples : nullptr, 0);
          st.mark("sort");
          return bb.data;
        });
      };
      const auto lib_fast = [&](const char* name, bool sampled) {
        profile(name, b, less_u32{}, false, [sampled](buffers<u32>& bb, steps& st) {
          gk::merge_sort<u32, false>(bb.data, bb.scratch, bb.splits, bb.n, less_u32{}, stream,
                                     gk::merge_partition_min_blocks, 0,
                                     sampled ? bb.samples : nullptr, 0);
          st.mark("sort");
          return bb.data;
        });
      };
      cub_sort("cub stable merge sort", b, by_high_u32{}, true);
      lib_stable("stable as e82d0d7 (data search, 256x17)", false, ~0u);
      lib_stable("stable, samples only", true, ~0u);
      lib_stable("stable, large tiles only (tuning)", false, 0);
      lib_stable("stable, this tree (samples, large tuning)", true, 0);
      lib_stable("stable, samples, large tiles forced", true, 2);
      lib_stable("stable as e82d0d7 again", false, ~0u);
      lib_stable("stable, this tree again", true, 0);
      cub_sort("cub stable merge sort again", b, by_high_u32{}, true);
      cub_sort("cub merge sort", b, less_u32{}, false);
      lib_fast("merge sort as e82d0d7 (data search)", false);
      lib_fast("merge sort, this tree (samples)", true);
      lib_fast("merge sort as e82d0d7 again", false);
      lib_fast("merge sort, this tree again", true);
    }
    CK(cudaStreamDestroy(stream));
    return 0;
  }
  if (s18c) {
    using m17 = gk::merge_policy<256, 17, 5>;
    for (int p : sizes) {
      buffers<u32> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 7);
      cub_sort("cub stable merge sort", b, by_high_u32{}, true);
      profile("library stable merge_sort (this tree)", b, by_high_u32{}, true,
              [](buffers<u32>& bb, steps& st) {
                gk::merge_sort<u32, true>(bb.data, bb.scratch, bb.splits, bb.n, by_high_u32{},
                                          stream);
                st.mark("sort");
                return bb.data;
              });
      using m6 = gk::merge_policy<256, 17, 6>;
      run_whole<m17, m17, false>("stable 256x17 plain (96e6dae)", b);
      run_whole<m17, m17, true>("stable 256x17 chained (4f0c1c4)", b);
      run_whole<m17, m6, true>("stable 256x17 chained, merge min6", b);
      run_whole<m17, m6, true, true>("stable 256x17 chained, lean merge min6", b);
      run_whole<m17, gk::merge_policy<256, 17, 8>, true>("stable 256x17 chained, merge min8", b);
      run_whole<m6, m6, true>("stable 256x17 chained, block min6, merge min6", b);
      cub_sort("cub merge sort", b, less_u32{}, false);
      profile(
          "library merge_sort (this tree)", b, less_u32{}, false, [](buffers<u32>& bb, steps& st) {
            gk::merge_sort<u32, false>(bb.data, bb.scratch, bb.splits, bb.n, less_u32{}, stream);
            st.mark("sort");
            return bb.data;
          });
      run_bitonic_chained<m17>("b15 + merge min5 chained (library's)", b);
      run_bitonic_chained<gk::merge_policy<256, 17, 6>>("b15 + merge min6 chained", b);
    }
    CK(cudaStreamDestroy(stream));
    return 0;
  }
  using base_tile = gk::default_tile_shape<u32>;
  using m16 = gk::merge_policy<256, 16>;
  using b13 = base_tile;
  using b14 = gk::fixed_tile_shape<5, 14>;
  using b15 = gk::fixed_tile_shape<5, 15>;
  using m512 = gk::merge_policy<512, 16>;
  // Issue 18, stable tiles: block merge sort and merge shapes (odd items: no pad slots), the
  // (key, position) bitonic tiles, the paper type's tiles.
  if (s18 && !ncu_mode) {
    for (int p : sizes) {
      buffers<u32> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 7);
      cub_sort("cub stable merge sort", b, by_high_u32{}, true);
      profile("library stable merge_sort (this tree)", b, by_high_u32{}, true,
              [](buffers<u32>& bb, steps& st) {
                gk::merge_sort<u32, true>(bb.data, bb.scratch, bb.splits, bb.n, by_high_u32{},
                                          stream);
                st.mark("sort");
                return bb.data;
              });
      using m5 = gk::merge_policy<256, 16, 5>;
      run_stable<m5, m5, 8>("stable bms256x16 m256x16 min5 L8 (main policy)", b);
      using o17 = gk::merge_policy<256, 17, 5>;
      run_stable<o17, m5, 8>("stable bms256x17 min5 (no pad) m256x16 L8", b);
      run_stable<gk::merge_policy<256, 15, 5>, m5, 8>("stable bms256x15 min5 (no pad) m256x16 L8",
                                                      b);
      run_stable<m5, o17, 8>("stable bms256x16 m256x17 min5 (no pad) L8", b);
      run_stable<o17, o17, 8>("stable bms256x17 m256x17 min5 (no pad) L8", b);
      run_bitonic<gk::fixed_tile_shape<5, 15>, m5, 8>("b15 m256x16 min5 L8 (main)", b);
      run_bitonic<gk::fixed_tile_shape<5, 15>, o17, 8>("b15 m256x17 min5 (no pad) L8", b);
      run_pairs<gk::fixed_tile_shape<4, 14>, m5, 8>("pairs k4 2^14 (1024 thr)", b);
      run_stable<gk::merge_policy<256, 19, 5>, o17, 8>("stable bms256x19 m256x17 min5 L8", b);
      run_stable<gk::merge_policy<256, 21, 5>, o17, 8>("stable bms256x21 m256x17 min5 L8", b);
      run_stable<gk::merge_policy<256, 23, 5>, o17, 8>("stable bms256x23 m256x17 min5 L8", b);
      run_stable<o17, gk::merge_policy<256, 15, 5>, 8>("stable bms256x17 m256x15 min5 L8", b);
      run_stable<o17, gk::merge_policy<256, 19, 5>, 8>("stable bms256x17 m256x19 min5 L8", b);
      run_stable<o17, gk::merge_policy<256, 21, 5>, 8>("stable bms256x17 m256x21 min5 L8", b);
      run_stable<o17, gk::merge_policy<256, 17, 0>, 8>("stable bms256x17 m256x17 min0 L8", b);
      run_stable<gk::merge_policy<256, 17, 4>, o17, 8>("stable bms256x17 min4 m256x17 L8", b);
    }
    for (int p : sizes) {
      buffers<paper_type> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 3);
      cub_sort("cub stable merge sort, paper type", b, by_y{}, true);
      profile("library stable merge_sort, paper type", b, by_y{}, true,
              [](buffers<paper_type>& bb, steps& st) {
                gk::merge_sort<paper_type, true>(bb.data, bb.scratch, bb.splits, bb.n, by_y{},
                                                 stream);
                st.mark("sort");
                return bb.data;
              });
      using pm = gk::merge_policy<256, 8>;  // main's
      run_paper<pm, pm, 8>("paper bms256x8 m256x8 L8 (main)", b);
      run_paper<gk::merge_policy<256, 12>, pm, 8>("paper bms256x12 m256x8 L8", b);
      run_paper<gk::merge_policy<256, 10>, pm, 8>("paper bms256x10 m256x8 L8", b);
      run_paper<gk::merge_policy<256, 11>, pm, 8>("paper bms256x11 (no pad) m256x8 L8", b);
      run_paper<gk::merge_policy<256, 9>, pm, 8>("paper bms256x9 (no pad) m256x8 L8", b);
      run_paper<gk::merge_policy<256, 11>, gk::merge_policy<256, 9>, 8>(
          "paper bms256x11 m256x9 (no pad) L8", b);
      run_paper<gk::merge_policy<128, 16>, pm, 8>("paper bms128x16 m256x8 L8", b);
      run_paper<gk::merge_policy<256, 12>, gk::merge_policy<256, 12>, 8>(
          "paper bms256x12 m256x12 L8", b);
      run_paper<pm, pm, 32>("paper bms256x8 m256x8 L32", b);
    }
    CK(cudaStreamDestroy(stream));
    return 0;
  }
  for (int p : sizes) {
    buffers<u32> b(p > 0 ? 1u << p : static_cast<unsigned>(-p), 7);
    if (ncu_mode && s18) {  // CUB's stable merge sort kernel by kernel beside ours
      cub_sort("cub stable merge sort", b, by_high_u32{}, true);
      run_stable<gk::merge_policy<256, 17, 5>, gk::merge_policy<256, 17, 5>, 8>(
          "stable bms256x17 m256x17 min5 L8", b);
      run_stable<gk::merge_policy<256, 16, 5>, gk::merge_policy<256, 16, 5>, 8>(
          "stable bms256x16 m256x16 min5 L8 (main policy)", b);
      continue;
    }
    if (ncu_mode) {  // one of each kernel: baseline merge sort and stable merge sort
      run_bitonic<b13, m16, 32>("bitonic13+m256x16", b);
      run_stable<m16, m16, 32>("stable block256x16+m256x16", b);
      continue;
    }
    profile("copy (one pass's bytes)", b, less_u32{}, false, [](buffers<u32>& bb, steps& st) {
      CK(cudaMemcpyAsync(bb.scratch, bb.data, bb.n * sizeof(u32), cudaMemcpyDeviceToDevice,
                         stream));
      st.mark("copy");
      CK(cudaMemcpyAsync(bb.data, bb.scratch, bb.n * sizeof(u32), cudaMemcpyDeviceToDevice,
                         stream));
      return bb.data;
    });
    cub_sort("cub merge sort", b, less_u32{}, false);
    profile("library merge_sort (this tree)", b, less_u32{}, false,
            [](buffers<u32>& bb, steps& st) {
              gk::merge_sort<u32, false>(bb.data, bb.scratch, bb.splits, bb.n, less_u32{}, stream);
              st.mark("sort");
              return bb.data;
            });
    // main's kernels and policies before issue 18's second round (a3fc68c): the baseline.
    run_bitonic<b13, gk::merge_policy<256, 16, 0>, 32>("main a3fc68c: b13 m256x16 L32", b);
    run_bitonic<b15, gk::merge_policy<256, 16, 4>, 8>("b15 m256x16 min4 L8 (64 regs as before)", b);
    run_bitonic<b15, m16, 8>("b15 m256x16 min1 L8 (98 regs)", b);
    run_bitonic<b15, gk::merge_policy<256, 16, 5>, 8>("b15 m256x16 min5 L8", b);
    run_bitonic<b15, gk::merge_policy<256, 16, 6>, 8>("b15 m256x16 min6 L8", b);
    run_bitonic<b15, gk::merge_policy<256, 16, 8>, 8>("b15 m256x16 min8 L8", b);
    run_bitonic<b15, gk::merge_policy<256, 12, 6>, 8>("b15 m256x12 min6 L8", b);
    run_bitonic<b15, gk::merge_policy<256, 12, 8>, 8>("b15 m256x12 min8 L8", b);
    run_bitonic<b15, gk::merge_policy<128, 16, 12>, 8>("b15 m128x16 min12 L8", b);
    cub_sort("cub stable merge sort", b, by_high_u32{}, true);
    profile("library stable merge_sort (this tree)", b, by_high_u32{}, true,
            [](buffers<u32>& bb, steps& st) {
              gk::merge_sort<u32, true>(bb.data, bb.scratch, bb.splits, bb.n, by_high_u32{},
                                        stream);
              st.mark("sort");
              return bb.data;
            });
    run_stable<gk::merge_policy<256, 16, 0>, gk::merge_policy<256, 16, 0>, 32>(
        "main a3fc68c: stable bms256x16 m256x16 L32", b);
    run_stable<gk::merge_policy<256, 16, 3>, gk::merge_policy<256, 16, 4>, 8>(
        "stable bms256x16 min3 m256x16 min4 L8 (as before)", b);
    run_stable<gk::merge_policy<256, 16, 4>, gk::merge_policy<256, 16, 4>, 8>(
        "stable bms256x16 min4 m256x16 min4 L8", b);
    run_stable<gk::merge_policy<256, 16, 5>, m16, 8>("stable bms256x16 min5 m256x16 L8", b);
    run_stable<gk::merge_policy<256, 16, 4>, gk::merge_policy<256, 16, 6>, 8>(
        "stable bms256x16 min4 m256x16 min6 L8", b);
    run_stable<gk::merge_policy<256, 12, 5>, gk::merge_policy<256, 16, 6>, 8>(
        "stable bms256x12 min5 m256x16 min6 L8", b);
  }
  CK(cudaStreamDestroy(stream));
  return 0;
}
