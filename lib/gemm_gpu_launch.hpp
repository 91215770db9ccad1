// Host side of the GPU GEMM, shared by the float and double translation units: launching one
// tile configuration for every transpose/alignment combination, and picking a configuration
// per device. Compiled only as CUDA or HIP.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <hipamp/backend/gpu/device_query.hpp>
#include <hipamp/backend/gpu/gemm.hpp>
#include <hipamp/backend/gpu/gemm_kernels.hpp>
#include <hipamp/backend/gpu/tuning_gemm.hpp>
#include <hipamp/exceptions.hpp>

namespace hipamp::detail::gpu::gemm {

using vendor::multiprocessor_count;
template <class Kernel>
error_t resident_blocks(int* blocks, Kernel kernel, int threads) {
  return vendor::resident_blocks(blocks, kernel, threads);
}

template <class Cfg, bool TRANS_A, bool TRANS_B, bool VEC>
void launch_variant(const gemm_problem<typename Cfg::value_type>& p, stream_t stream) {
  const long long tiles = tile_count<Cfg>(p.m, p.n);
  gemm_kernel<Cfg, TRANS_A, TRANS_B, VEC>
      <<<static_cast<unsigned>(tiles), Cfg::THREADS, 0, stream>>>(p);
  HIPAMP_GPU_CHECK_LAUNCH("hipamp::gemm: launching the GPU GEMM kernel");
}

template <class Cfg, bool TRANS_A, bool TRANS_B>
void launch_aligned_or_not(const gemm_problem<typename Cfg::value_type>& p, stream_t stream) {
  if (vector_access_ok(p)) {
    launch_variant<Cfg, TRANS_A, TRANS_B, true>(p, stream);
  } else {
    launch_variant<Cfg, TRANS_A, TRANS_B, false>(p, stream);
  }
}

template <class Cfg>
void launch(const gemm_problem<typename Cfg::value_type>& p, stream_t stream) {
  const bool ta = p.op_a == matrix_op::transpose;
  const bool tb = p.op_b == matrix_op::transpose;
  if (!ta && !tb) launch_aligned_or_not<Cfg, false, false>(p, stream);
  if (!ta && tb) launch_aligned_or_not<Cfg, false, true>(p, stream);
  if (ta && !tb) launch_aligned_or_not<Cfg, true, false>(p, stream);
  if (ta && tb) launch_aligned_or_not<Cfg, true, true>(p, stream);
}

// Blocks of the (non-transposed, aligned) kernel one multiprocessor holds: the others use
// the same registers and shared memory up to a few registers.
template <class Cfg>
int blocks_per_sm() {
  int blocks = 0;
  HIPAMP_GPU_CHECK(resident_blocks(&blocks, gemm_kernel<Cfg, false, false, true>, Cfg::THREADS));
  return blocks > 0 ? blocks : 1;
}

template <class T>
struct config_entry {
  gemm_config_info info;
  void (*launch)(const gemm_problem<T>&, stream_t);
  int (*blocks_per_sm)();
};

template <class Cfg>
config_entry<typename Cfg::value_type> entry() {
  gemm_config_info info;
  info.name =
      std::to_string(Cfg::BM) + "x" + std::to_string(Cfg::BN) + "x" + std::to_string(Cfg::BK);
  info.block_m = Cfg::BM;
  info.block_n = Cfg::BN;
  info.block_k = Cfg::BK;
  info.threads = Cfg::THREADS;
  return {info, &launch<Cfg>, &blocks_per_sm<Cfg>};
}

// What the picker knows about one device: multiprocessors and, per configuration, how many
// blocks fit on one. Queried once per device.
struct device_shape {
  int multiprocessors = 0;
  std::vector<int> blocks_per_sm;
};

template <class T>
const device_shape& shape_of(int device, const std::vector<config_entry<T>>& table) {
  static std::mutex mutex;
  static std::map<int, device_shape> shapes;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = shapes.find(device);
  if (it != shapes.end()) return it->second;
  current_device_guard guard(device);
  device_shape shape;
  HIPAMP_GPU_CHECK(multiprocessor_count(&shape.multiprocessors, device));
  for (const config_entry<T>& e : table) shape.blocks_per_sm.push_back(e.blocks_per_sm());
  return shapes.emplace(device, std::move(shape)).first->second;
}

// The table's first configuration (largest tiles first) whose tiles fill the device's
// resident-block slots to at least 75% in every wave (so few multiprocessors idle in the
// last wave); small problems fall through to the last, smallest configuration.
template <class T>
int pick(const gemm_problem<T>& p, int device, const std::vector<config_entry<T>>& table) {
  const device_shape& shape = shape_of(device, table);
  for (std::size_t i = 0; i + 1 < table.size(); ++i) {
    const long long tiles =
        static_cast<long long>((p.m + table[i].info.block_m - 1) / table[i].info.block_m) *
        ((p.n + table[i].info.block_n - 1) / table[i].info.block_n);
    const long long slots = static_cast<long long>(shape.multiprocessors) * shape.blocks_per_sm[i];
    const long long waves = (tiles + slots - 1) / slots;
    if (tiles * 4 >= waves * slots * 3) return static_cast<int>(i);
  }
  return static_cast<int>(table.size()) - 1;
}

template <class T>
void run(const gemm_problem<T>& p, void* stream, int device, int config,
         const std::vector<config_entry<T>>& table) {
  if (config >= static_cast<int>(table.size())) {
    throw runtime_exception("hipamp::gemm: GPU configuration " + std::to_string(config) +
                            " does not exist (" + std::to_string(table.size()) + " compiled in)");
  }
  if (p.m <= 0 || p.n <= 0) return;
  const int chosen = config >= 0 ? config : pick(p, device, table);
  current_device_guard guard(device);
  table[chosen].launch(p, static_cast<stream_t>(stream));
}

template <class... Configs>
auto make_table(config_list<Configs...>) {
  using T = typename std::tuple_element<0, std::tuple<typename Configs::value_type...>>::type;
  return std::vector<config_entry<T>>{entry<Configs>()...};
}

template <class T>
std::vector<gemm_config_info> infos(const std::vector<config_entry<T>>& table) {
  std::vector<gemm_config_info> out;
  for (const config_entry<T>& e : table) out.push_back(e.info);
  return out;
}

}  // namespace hipamp::detail::gpu::gemm
