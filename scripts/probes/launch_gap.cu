// Issue 19 (session 22): does the CUDA launch call itself get slower when the host does other
// work between launches? bench_gpu_runtime compares parallel_for_each with a raw `<<< >>>`
// launch issued back to back; a parallel_for_each spends 0.4-1.2 us of its own between two
// driver calls. If the driver's call costs more after such a gap (the GPU has drained the
// queue and must be woken, the driver's lines were evicted, ...), part of "pfe - raw" is the
// driver's, not the runtime's, and it would differ between processes if the driver's path
// does.
//
// Per variant: batches of 200 launches of a one-block kernel, each launch preceded by `gap`:
//   spin W:   W ns of spinning on the clock (no memory traffic);
//   touch K:  writing K KiB of a private buffer (evicts what the driver keeps in L1/L2);
//   locked L: L locked read-modify-writes right after the launch call (timed with it).
// Timed: the launch call alone (clock before and after), and the whole iteration. Variants
// alternate batch by batch, 40 rounds; printed: median over batches of the mean per launch.
//   nvcc -O2 -arch=sm_90 scripts/probes/launch_gap.cu -o launch_gap && ./launch_gap
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

__global__ void write_kernel(float* a, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct variant {
  std::string name;
  int spin_ns;
  int touch_kib;
  int locked;
};

std::atomic<long> counter{0};
std::vector<char> scratch(1 << 20);

void spin_for(int ns) {
  if (ns <= 0) return;
  const auto until = clock_type::now() + std::chrono::nanoseconds(ns);
  while (clock_type::now() < until) {
  }
}

void touch(int kib) {
  for (int off = 0; off < kib * 1024; off += 64) scratch[off] += 1;
}

}  // namespace

int main() {
  constexpr int n = 256, batch = 200, rounds = 40;
  float* a = nullptr;
  check(cudaMalloc(&a, n * sizeof(float)), "malloc");
  cudaStream_t stream{};
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  const std::vector<variant> variants = {
      {"spin 0", 0, 0, 0},       {"spin 300", 300, 0, 0},   {"spin 600", 600, 0, 0},
      {"spin 1200", 1200, 0, 0}, {"spin 2400", 2400, 0, 0}, {"touch 32", 0, 32, 0},
      {"touch 256", 0, 256, 0},  {"locked 4", 0, 0, 4},     {"locked 16", 0, 0, 16},
  };
  std::vector<std::vector<double>> call(variants.size()), whole(variants.size());
  for (int r = -3; r < rounds; ++r) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const variant& var = variants[v];
      double in_call = 0;
      const auto start = clock_type::now();
      for (int k = 0; k < batch; ++k) {
        spin_for(var.spin_ns);
        if (var.touch_kib > 0) touch(var.touch_kib);
        const auto t0 = clock_type::now();
        write_kernel<<<1, 256, 0, stream>>>(a, n);
        for (int l = 0; l < var.locked; ++l) counter.fetch_add(1, std::memory_order_seq_cst);
        in_call += std::chrono::duration<double>(clock_type::now() - t0).count();
      }
      const double total = std::chrono::duration<double>(clock_type::now() - start).count();
      check(cudaStreamSynchronize(stream), "sync");
      if (r < 0) continue;  // warm-up rounds
      call[v].push_back(in_call / batch * 1e6);
      whole[v].push_back(total / batch * 1e6);
    }
  }
  for (std::size_t v = 0; v < variants.size(); ++v) {
    std::printf("%-10s call %.3f us  iteration %.3f us\n", variants[v].name.c_str(),
                median(call[v]), median(whole[v]));
  }
  check(cudaGetLastError(), "launch");
  return 0;
}
