// TEST DOUBLE for <hipamp/backend/gpu/kernel_language.hpp>: runs HIP/CUDA kernel-language
// code on CPU threads, so GPU kernels' index arithmetic, edge handling and barriers can be
// checked on machines without a GPU. One std::thread per GPU thread of a block; the threads
// walk the grid's blocks together, a real barrier standing in for __syncthreads (and closing
// each block). __shared__ becomes a function-local static, shared by the threads of the one
// block in flight. Launches go through emulated::launch, not <<< >>>.
// Only for kernels that use nothing but threadIdx.x, blockIdx.x, __shared__, __syncthreads
// and fma; it checks logic, not speed or memory-model subtleties.
#pragma once

#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include <hipamp/config.hpp>
#include <hipamp/exceptions.hpp>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

namespace emulated {

inline thread_local dim3 thread_index;
inline thread_local dim3 block_index;

class barrier {
 public:
  explicit barrier(int parties) : parties_(parties) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned long generation = generation_;
    if (++waiting_ == parties_) {
      waiting_ = 0;
      ++generation_;
      all_arrived_.notify_all();
      return;
    }
    all_arrived_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  int parties_;
  int waiting_ = 0;
  unsigned long generation_ = 0;
};

inline barrier* block_barrier = nullptr;

// Runs kernel() as `threads` threads of each of `blocks` blocks, one block at a time.
template <class Kernel>
void launch(unsigned blocks, unsigned threads, const Kernel& kernel) {
  barrier all(static_cast<int>(threads));
  block_barrier = &all;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      thread_index.x = t;
      for (unsigned b = 0; b < blocks; ++b) {
        block_index.x = b;
        kernel();
        all.wait();  // the block's shared memory is reused by the next block
      }
    });
  }
  for (std::thread& th : pool) th.join();
  block_barrier = nullptr;
}

}  // namespace emulated

#define threadIdx (::emulated::thread_index)
#define blockIdx (::emulated::block_index)
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __syncthreads() ::emulated::block_barrier->wait()
using std::fma;

namespace hipamp::detail::gpu {
using stream_t = void*;
using error_t = int;
}  // namespace hipamp::detail::gpu
