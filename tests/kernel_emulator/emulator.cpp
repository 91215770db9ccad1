// The kernel emulator's runtime (README.md): a grid's blocks on worker threads, each block's
// GPU threads as ucontext fibers that switch at block and warp barriers.
#include <ucontext.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include "include/cuda_runtime.h"

namespace emu {
int multiprocessors = 3;
int blocks_per_multiprocessor = 2;
int workers = 4;

namespace {
struct warp_state {
  int arrived = 0;
  unsigned generation = 0;
  int slot[32]{};
};
struct fiber {
  fiber_state state;
  ucontext_t ctx{};
  bool done = false;
};
struct block_runtime {
  std::vector<fiber> fibers;
  std::vector<std::unique_ptr<char[]>> stacks;
  ucontext_t scheduler{};
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

void yield() { swapcontext(&rt->fibers[rt->current].ctx, &rt->scheduler); }

void trampoline() {
  (*rt->body)();
  rt->fibers[rt->current].done = true;
  // returns to uc_link (the scheduler)
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
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = r.stacks[t].get();
    f.ctx.uc_stack.ss_size = stack_bytes;
    f.ctx.uc_link = &r.scheduler;
    makecontext(&f.ctx, trampoline, 0);
  }
  for (;;) {
    bool any = false;
    for (unsigned t = 0; t < block; ++t) {
      if (r.fibers[t].done) continue;
      any = true;
      r.current = static_cast<int>(t);
      swapcontext(&r.scheduler, &r.fibers[t].ctx);
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
