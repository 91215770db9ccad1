// The one launch protocol. Every entry point that runs work on a device — the simple and tiled
// parallel_for_each, parallel_for_each_tile, the sort family, reduce, scan and gemm — goes
// through the four steps here and nowhere else:
//
//   1. pick the device      auto_selection_view() / natural_view(view), or the caller's view;
//   2. refuse what this translation unit cannot run (check_launchable_here), before any data
//      moves, with the one error text;
//   3. bind: copy the kernel object or views while a launch_scope is open, so every captured
//      array_view and array handle makes its data valid on the device (launch_scope.hpp);
//   4. run the bound work through the device's code (on_device) and complete the scope with the
//      device's event, so later host access waits for exactly this work.
//
// A device plugs in at on_device: it hands the entry point's body a `device_target` of its own
// room (fallback::device_target for the CPU devices, gpu::device_target for a GPU), and the
// body calls unqualified per-device functions — launch_simple(on, ...), sort_rows(on, ...),
// reduce(on, ...) — that argument-dependent lookup finds in that room only.
//
// Everything here lives in the inline namespace HIPAMP_ALGORITHMS_ABI: its bodies differ between
// host-compiled and GPU-compiled translation units (a host unit has no GPU room), and distinct
// names keep the linker from merging one kind's instantiation into the other (config.hpp).
#pragma once

#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include <hipamp/accelerator.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/config.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/simple_executor.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/capture_image.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#endif

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp {
namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// ---- 1. pick the device ---------------------------------------------------------------------

// C++ AMP's auto-selection (no accelerator_view given) picks the default accelerator. A
// translation unit compiled by a host compiler can run work only on the CPU device, so there
// auto-selection picks the CPU device rather than fail on the GPU.
inline accelerator_view auto_selection_view() {
#if HIPAMP_GPU_TRANSLATION_UNIT || HIPAMP_BACKEND_CPU
  return accelerator::get_auto_selection_view();
#else
  accelerator_view preferred = accelerator::get_auto_selection_view();
  if (preferred.runs_on_cpu()) return preferred;
  return accelerator(accelerator::cpu_accelerator).get_default_view();
#endif
}

// Where an algorithm runs when only its data is named: a view of an array where the array
// lives, any other view by auto-selection.
template <class T, int N>
accelerator_view natural_view(const array_view<T, N>& view) {
  accelerator_view source = view.get_source_accelerator_view();
  if (source != accelerator(accelerator::cpu_accelerator).get_default_view()) return source;
  return auto_selection_view();
}

// ---- 2. refuse what this unit cannot run ----------------------------------------------------

// The one error a host-compiled translation unit raises when asked to run work on a GPU.
[[noreturn]] inline void throw_not_launchable_here(const char* what) {
  throw unsupported_feature(std::string("hipamp: ") + what +
                            ": this translation unit was compiled by a host compiler, so it "
                            "cannot run work on the GPU accelerator; " HIPAMP_HOST_UNIT_FIX);
}

// Checked before any launch scope opens, so a refusal moves no data and leaves every view's
// copies as they were.
inline void check_launchable_here(const accelerator_view& av, const char* what) {
#if HIPAMP_GPU_TRANSLATION_UNIT
  (void)av;
  (void)what;
#else
  if (!av.runs_on_cpu()) throw_not_launchable_here(what);
#endif
}

// ---- 4. hand the work to the device ---------------------------------------------------------

// Calls body(target) with the device_target of av's device room and returns its result. The
// one place that knows which devices exist: a new device adds its branch here.
template <class Body>
decltype(auto) on_device(const accelerator_view& av, const char* what, Body&& body) {
  if (av.runs_on_cpu()) {
    // The CPU device, the reference device and the emulated discrete device.
    // HIPAMP_ROBUST_ACCESS_ON is why this body depends on more than the kind of unit, and why
    // the ABI tag names it (config.hpp).
    return std::forward<Body>(body)(
        fallback::device_target{av.queue(), HIPAMP_ROBUST_ACCESS_ON != 0});
  }
#if HIPAMP_GPU_TRANSLATION_UNIT
  return std::forward<Body>(body)(gpu::device_target{av});
#else
  throw_not_launchable_here(what);
#endif
}

// Copies of the bindables made while the launch scope is open, the bound form of launch():
// every captured array_view in them binds itself to the launch's device.
template <class... Bindables>
struct bound_copies {
  explicit bound_copies(const Bindables&... bindables) : copies(bindables...) {}
  template <class Run>
  decltype(auto) run_with(const Run& run) const {
    return std::apply(run, copies);
  }
  const std::tuple<const Bindables...> copies;
};

// Steps 3 and 4 for any work: makes the bound form `Bound` of `bindables` (bound_copies, or a
// GPU capture image) on av while a launch scope is open, calls run(bound...) -> event_ptr, and
// completes the scope with that event (a null event: "the work just queued on av's queue",
// recorded only if anything was bound).
template <class Bound, class Run, class... Bindables>
void bind_as_and_run(const accelerator_view& av, const Run& run, const Bindables&... bindables) {
  launch_scope scope(av.queue());
  // The arguments outlive the scope: views copied from them need no reference of the scope's.
  (scope.hold(std::addressof(bindables), sizeof(Bindables)), ...);
  const Bound bound{bindables...};
  scope.close();
  scope.complete(bound.run_with(run));
}

template <class Run, class... Bindables>
void bind_and_run(const accelerator_view& av, const Run& run, const Bindables&... bindables) {
  bind_as_and_run<bound_copies<Bindables...>>(av, run, bindables...);
}

// The run step of launch(): body(target, bound...) in av's device room.
template <class Body>
auto run_on_device(const accelerator_view& av, const char* what, const Body& body) {
  return [&av, what, &body](const auto&... bound) {
    return on_device(av, what, [&](const auto& target) { return body(target, bound...); });
  };
}

// The whole protocol for work whose device code is instantiated in the calling unit (kernels,
// sort, reduce, scan): refuses what this unit cannot run, binds, and calls
// body(target, bound...) -> event_ptr in av's device room.
template <class Body, class... Bindables>
void launch(const accelerator_view& av, const char* what, const Body& body,
            const Bindables&... bindables) {
  check_launchable_here(av, what);
  bind_and_run(av, run_on_device(av, what, body), bindables...);
}

// parallel_for_each's protocol (simple and tiled): launch(), except that a GPU launch of an nvcc
// extended lambda binds a capture image instead of a copy (backend/gpu/capture_image.hpp:
// nvcc's wrapper would allocate a heap copy of the lambda and copy every capture again, for a
// GPU that reads only the captures). Only these entry points opt in: their GPU rooms hand the
// kernel object to the runtime by address and never call or copy it on the host.
template <class Body, class Kernel>
void launch_kernel(const accelerator_view& av, const char* what, const Body& body,
                   const Kernel& kernel) {
#if HIPAMP_GPU_TRANSLATION_UNIT
  if constexpr (gpu::capture_image_applies<Kernel>()) {
    const int verdict = gpu::capture_image_verdict<Kernel>().load(std::memory_order_acquire);
    if (verdict != 2 && !av.runs_on_cpu() && gpu::capture_images_allowed() &&
        (verdict == 1 || gpu::check_capture_layout(kernel))) {
      bind_as_and_run<gpu::capture_image<Kernel>>(av, run_on_device(av, what, body), kernel);
      return;
    }
  }
#endif
  launch(av, what, body, kernel);
}

// The protocol for work whose every device's code is compiled into libhipamp (gemm): any unit
// may run it on any device, so nothing is refused here; run(bound...) calls into the library,
// which picks the device room with on_device there.
template <class Run, class... Bindables>
void launch_compiled(const accelerator_view& av, const Run& run, const Bindables&... bindables) {
  bind_and_run(av, run, bindables...);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail
}  // namespace hipamp
