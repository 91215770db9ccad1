// The kernel emulator's runtime (README.md): a grid's blocks on worker threads, each block's
// GPU threads as fibers that switch at block and warp barriers.
#include <ucontext.h>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include "include/cuda_runtime.h"

// Saves the callee-saved registers, FP control words and stack pointer to *save_sp and resumes
// the fiber suspended at load_sp (x86-64 System V; used below).
#if defined(__x86_64__) && !defined(HIPAMP_EMULATOR_UCONTEXT)
extern "C" void hipamp_emu_switch(void** save_sp, void* load_sp);
asm(R"(
  .pushsection .text
  .p2align 4
  .globl hipamp_emu_switch
  .hidden hipamp_emu_switch
  .type hipamp_emu_switch, @function
hipamp_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size hipamp_emu_switch, .-hipamp_emu_switch
  .popsection
)");
#endif

namespace emu {
int multiprocessors = 3;
int blocks_per_multiprocessor = 2;
int workers = 4;

namespace {
// A fiber switch. glibc's swapcontext makes a system call (sigprocmask) on every switch, and
// the emulated kernels switch at every barrier: that was about half of the emulator's CPU time
// (CI, issue 17). On x86-64 a switch is instead the System V callee-saved registers, the
// stack pointer and the floating-point control words (MXCSR, x87), as swapcontext keeps them;
// the signal mask never differs between a block's fibers. Elsewhere: ucontext.
#if defined(__x86_64__) && !defined(HIPAMP_EMULATOR_UCONTEXT)
struct context {
  void* sp = nullptr;
};
inline void switch_context(context& from, context& to) { hipamp_emu_switch(&from.sp, to.sp); }
// A fresh fiber's stack, as hipamp_emu_switch leaves a suspended one: the FP control words, six
// registers, then `entry` as the return address, 16-byte aligned so that entry starts as if
// called (rsp + 8 aligned); entry never returns.
inline void make_context(context& c, char* stack, std::size_t bytes, void (*entry)()) {
  auto top = (reinterpret_cast<std::uintptr_t>(stack) + bytes) & ~std::uintptr_t{15};
  auto* slot = reinterpret_cast<std::uint64_t*>(top);
  *--slot = 0;                                       // entry's return address: none
  *--slot = reinterpret_cast<std::uint64_t>(entry);  // hipamp_emu_switch's ret
  for (int i = 0; i < 6; ++i) *--slot = 0;           // rbp rbx r12 r13 r14 r15
  std::uint32_t mxcsr;
  std::uint16_t fpucw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  *--slot = mxcsr | (std::uint64_t{fpucw} << 32);
  c.sp = slot;
}
#else
struct context {
  ucontext_t uc{};
};
inline void switch_context(context& from, context& to) { swapcontext(&from.uc, &to.uc); }
inline void make_context(context& c, char* stack, std::size_t bytes, void (*entry)()) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = bytes;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}
#endif

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

void trampoline() {
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
