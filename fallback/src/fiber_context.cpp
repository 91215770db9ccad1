// The context switch of fiber_context.hpp, in assembly for x86-64 (System V) and AArch64.
#include "fiber_context.hpp"

#include <cstdint>

#if defined(__x86_64__)

// Frame left on a suspended fiber's stack, lowest address first:
//   r15 r14 r13 r12 rbx rbp <return address>
asm(R"(
  .text
  .globl hipamp_fiber_switch
  .hidden hipamp_fiber_switch
  .type hipamp_fiber_switch, @function
  .p2align 4
hipamp_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size hipamp_fiber_switch, .-hipamp_fiber_switch

  .globl hipamp_fiber_trampoline
  .hidden hipamp_fiber_trampoline
  .type hipamp_fiber_trampoline, @function
  .p2align 4
hipamp_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %r13, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size hipamp_fiber_trampoline, .-hipamp_fiber_trampoline
)");

extern "C" void hipamp_fiber_trampoline();

namespace hipamp::fallback::fiber {

void* make_context(void* stack_top, entry_function entry, void* arg) noexcept {
  auto top = reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15};
  // After the six pops and the ret the trampoline runs with rsp = top - 16, 16-byte aligned
  // as the call it makes requires.
  // NOLINTNEXTLINE(performance-no-int-to-ptr): a hand-built stack frame at a computed address
  auto* frame = reinterpret_cast<std::uintptr_t*>(top - 72);
  frame[0] = 0;                                                           // r15
  frame[1] = 0;                                                           // r14
  frame[2] = reinterpret_cast<std::uintptr_t>(arg);                       // r13
  frame[3] = reinterpret_cast<std::uintptr_t>(entry);                     // r12
  frame[4] = 0;                                                           // rbx
  frame[5] = 0;                                                           // rbp
  frame[6] = reinterpret_cast<std::uintptr_t>(&hipamp_fiber_trampoline);  // return address
  return frame;
}

}  // namespace hipamp::fallback::fiber

#elif defined(__aarch64__)

// Frame (176 bytes, 16-aligned): x19..x30 at 0..95, d8..d15 at 96..159.
asm(R"(
  .text
  .globl hipamp_fiber_switch
  .hidden hipamp_fiber_switch
  .type hipamp_fiber_switch, %function
  .p2align 4
hipamp_fiber_switch:
  .cfi_startproc
  sub sp, sp, #176
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x9, sp
  str x9, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  add sp, sp, #176
  ret
  .cfi_endproc
  .size hipamp_fiber_switch, .-hipamp_fiber_switch

  .globl hipamp_fiber_trampoline
  .hidden hipamp_fiber_trampoline
  .type hipamp_fiber_trampoline, %function
  .p2align 4
hipamp_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined x30
  mov x0, x20
  blr x19
  brk #0
  .cfi_endproc
  .size hipamp_fiber_trampoline, .-hipamp_fiber_trampoline
)");

extern "C" void hipamp_fiber_trampoline();

namespace hipamp::fallback::fiber {

void* make_context(void* stack_top, entry_function entry, void* arg) noexcept {
  auto top = reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15};
  auto* frame = reinterpret_cast<std::uintptr_t*>(top - 176);
  for (int i = 0; i < 22; ++i) frame[i] = 0;
  frame[0] = reinterpret_cast<std::uintptr_t>(entry);                      // x19
  frame[1] = reinterpret_cast<std::uintptr_t>(arg);                        // x20
  frame[11] = reinterpret_cast<std::uintptr_t>(&hipamp_fiber_trampoline);  // x30 (lr)
  return frame;
}

}  // namespace hipamp::fallback::fiber

#else
#error "hipamp: the CPU tile scheduler has context switches for x86-64 and AArch64 only"
#endif
