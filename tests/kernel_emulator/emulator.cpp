// The kernel emulator's runtime (README.md): a grid's blocks on worker threads, each block's
// GPU threads as fibers that switch at block and warp barriers.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include "include/cuda_runtime.h"
// The CPU device's own fiber switch (x86-64 and AArch64): the emulator links the library.
#include "../../fallback/src/fiber_context.hpp"

namespace emu {
int multiprocessors = 3;
int blocks_per_multiprocessor = 2;
int workers = 4;

namespace {
// A fiber switch: the CPU device's (fallback/src/fiber_context.hpp), which saves the
// callee-saved registers and the stack pointer only. glibc's swapcontext made a system call
// (sigprocmask) on every switch, and the emulated kernels switch at every barrier: that was
// about half of the emulator's CPU time (CI, issue 17). The floating-point control state is not
// switched, for the library's reason: every fiber of a block shares it, as the GPU threads of
// a block do, and no kernel changes it.
struct context {
  void* sp = nullptr;
};
inline void switch_context(context& from, const context& to) {
  hipamp_fiber_switch(&from.sp, to.sp);
}
inline void make_context(context& c, char* stack, std::size_t bytes,
                         hipamp::fallback::fiber::entry_function entry) {
  c.sp = hipamp::fallback::fiber::make_context(stack + bytes, entry, nullptr);
}

struct warp_state {
  int arrived = 0;
  unsigned generation = 0;
  int slot[32]{};
};
struct fiber {
  fiber_state state;
  context ctx;
  bool done = false;
};
struct block_runtime {
  std::vector<fiber> fibers;
  std::vector<std::unique_ptr<char[]>> stacks;
  context scheduler;
  int current = 0;
  int threads = 0;
  int arrived = 0;
  unsigned generation = 0;
  int count_acc = 0, count_result = 0;
  warp_state warps[32];
  const std::function<void()>* body = nullptr;
};
thread_local block_runtime* rt = nullptr;
constexpr std::size_t stack_bytes = std::size_t{128} * 1024;

void yield() { switch_context(rt->fibers[rt->current].ctx, rt->scheduler); }

void trampoline(void* /*unused*/) {
  (*rt->body)();
  rt->fibers[rt->current].done = true;
  // Back to the scheduler for good (the fiber is done and never resumed).
  switch_context(rt->fibers[rt->current].ctx, rt->scheduler);
  std::abort();
}

void run_block(block_runtime& r, unsigned block_index, unsigned grid, unsigned block) {
  r.threads = static_cast<int>(block);
  r.arrived = 0;
  r.count_acc = 0;
  for (auto& w : r.warps) w.arrived = 0;
  if (r.fibers.size() < block) {
    r.fibers.resize(block);
    while (r.stacks.size() < block)
      r.stacks.emplace_back(std::unique_ptr<char[]>(new char[stack_bytes]));
  }
  for (unsigned t = 0; t < block; ++t) {
    fiber& f = r.fibers[t];
    f.done = false;
    f.state.thread_idx = dim3(t);
    f.state.block_idx = dim3(block_index);
    f.state.block_dim = dim3(block);
    f.state.grid_dim = dim3(grid);
    make_context(f.ctx, r.stacks[t].get(), stack_bytes, trampoline);
  }
  for (;;) {
    bool any = false;
    for (unsigned t = 0; t < block; ++t) {
      if (r.fibers[t].done) continue;
      any = true;
      r.current = static_cast<int>(t);
      switch_context(r.scheduler, r.fibers[t].ctx);
    }
    if (!any) break;
  }
}

void block_barrier(int add, bool counting) {
  block_runtime& r = *rt;
  const unsigned gen = r.generation;
  r.count_acc += add;
  if (++r.arrived == r.threads) {
    r.arrived = 0;
    if (counting) {
      r.count_result = r.count_acc;
      r.count_acc = 0;
    }
    ++r.generation;
  } else {
    while (r.generation == gen) yield();
  }
}

warp_state& my_warp() { return rt->warps[rt->current / 32]; }
int my_lane() { return rt->current % 32; }

void warp_barrier() {
  warp_state& w = my_warp();
  const unsigned gen = w.generation;
  if (++w.arrived == 32) {
    w.arrived = 0;
    ++w.generation;
  } else {
    while (w.generation == gen) yield();
  }
}

int exchange(int value, int source) {
  warp_state& w = my_warp();
  w.slot[my_lane()] = value;
  warp_barrier();
  const int result = w.slot[source];
  warp_barrier();
  return result;
}
}  // namespace

fiber_state& self() { return rt->fibers[rt->current].state; }

void run_grid(unsigned grid, unsigned block, const std::function<void()>& body) {
  if (block % 32 != 0) {
    std::fprintf(stderr, "emu: block %u not a multiple of 32\n", block);
    std::abort();
  }
  std::atomic<unsigned> next{0};
  auto worker = [&] {
    block_runtime r;
    r.body = &body;
    rt = &r;
    for (unsigned b; (b = next.fetch_add(1)) < grid;) run_block(r, b, grid, block);
    rt = nullptr;
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(workers));
  for (int i = 0; i < workers; ++i) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}
}  // namespace emu

void __syncthreads() { emu::block_barrier(0, false); }
int __syncthreads_count(int predicate) {
  emu::block_barrier(predicate != 0, true);
  return emu::rt->count_result;
}
void __syncwarp(unsigned) { emu::warp_barrier(); }
int __shfl_down_sync(unsigned, int value, unsigned delta, int) {
  const int lane = emu::my_lane();
  const int src = lane + static_cast<int>(delta);
  const int r = emu::exchange(value, src < 32 ? src : lane);
  return r;
}
int __shfl_up_sync(unsigned, int value, unsigned delta, int) {
  const int lane = emu::my_lane();
  const int src = lane - static_cast<int>(delta);
  return emu::exchange(value, src >= 0 ? src : lane);
}
int __shfl_sync(unsigned, int value, int lane, int) { return emu::exchange(value, lane & 31); }
unsigned __ballot_sync(unsigned, int predicate) {
  emu::warp_state& w = emu::my_warp();
  w.slot[emu::my_lane()] = predicate != 0;
  emu::warp_barrier();
  unsigned mask = 0;
  for (int l = 0; l < 32; ++l) mask |= static_cast<unsigned>(w.slot[l] != 0) << l;
  emu::warp_barrier();
  return mask;
}
