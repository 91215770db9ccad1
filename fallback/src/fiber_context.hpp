// A minimal user-space context switch for the tile scheduler's fibers.
//
// Why hand-written rather than Boost.Context or ucontext: swapcontext saves and restores the
// signal mask with a system call on every switch (hundreds of ns), and Boost.Context would
// make every hipamp build and every consumer of an installed hipamp depend on a compiled
// Boost library for about forty lines of assembly. The switch below saves only what the
// ABI says a callee must preserve (x86-64 System V: rbx, rbp, r12-r15; AAPCS64: x19-x30,
// d8-d15) and the stack pointer, so a barrier costs a few nanoseconds per work-item. The
// floating-point control state (MXCSR / x87 control word / FPCR) is not switched: it is
// thread state that all work-items of a tile share, as on a GPU, and kernels do not change it.
#pragma once

namespace hipamp::fallback::fiber {

using entry_function = void (*)(void* arg);

// Prepares a context on a fresh stack whose highest usable address is `stack_top`: the
// first switch to it calls entry(arg) on that stack. `entry` must never return (it switches
// away for the last time instead).
void* make_context(void* stack_top, entry_function entry, void* arg) noexcept;

}  // namespace hipamp::fallback::fiber

// Saves the running context's stack pointer in *save and resumes `next` (a pointer returned
// by make_context or stored by an earlier switch). Returns when something switches back.
extern "C" void hipamp_fiber_switch(void** save, void* next) noexcept;
