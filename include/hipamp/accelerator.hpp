// accelerator and accelerator_view (C++ AMP 1.2, chapter 3): the devices hipamp found and
// the in-order queues on them. The CPU device is always present.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <hipamp/completion_future.hpp>
#include <hipamp/detail/backend.hpp>

namespace hipamp {

class accelerator;

class accelerator_view {
 public:
  accelerator get_accelerator() const;
  bool get_is_debug() const noexcept;
  unsigned int get_version() const noexcept;
  queuing_mode get_queuing_mode() const noexcept;
  bool get_is_auto_selection() const noexcept { return auto_selection_; }

  // Submits queued work; every hipamp queue submits at once, so this only orders.
  void flush();
  // Blocks until all work queued so far has finished.
  void wait();
  // Completes when all work queued before it has finished.
  completion_future create_marker();

  friend bool operator==(const accelerator_view& a, const accelerator_view& b) noexcept {
    return a.queue_ == b.queue_;
  }
  friend bool operator!=(const accelerator_view& a, const accelerator_view& b) noexcept {
    return !(a == b);
  }

  // hipamp extensions
  bool runs_on_cpu() const noexcept { return queue_->device().runs_on_cpu(); }
  // True when kernels launched here check every array_view/array index and throw
  // index_out_of_range (the reference device; create_checked_view; HIPAMP_CHECK_BOUNDS=1).
  bool get_checks_bounds() const noexcept { return queue_->checks_bounds(); }
  void* native_handle() const noexcept { return queue_->native_handle(); }
  detail::queue_impl& queue() const noexcept { return *queue_; }
  const std::shared_ptr<detail::queue_impl>& queue_ptr() const noexcept { return queue_; }
  accelerator_view(const accelerator_view&) = default;
  accelerator_view(accelerator_view&&) noexcept = default;
  // Assignment to lvalues only: C++ AMP's accelerator_view properties are read-only, so
  // `a.get_accelerator_view() = v` (a temporary, changing nothing) must not compile, while
  // calls such as `a.get_accelerator_view().wait()` must.
  accelerator_view& operator=(const accelerator_view&) & = default;
  accelerator_view& operator=(accelerator_view&&) & noexcept = default;
  ~accelerator_view() = default;
  explicit accelerator_view(std::shared_ptr<detail::queue_impl> queue, bool auto_selection = false)
      : queue_(std::move(queue)), auto_selection_(auto_selection) {}

 private:
  std::shared_ptr<detail::queue_impl> queue_;
  bool auto_selection_ = false;
};

class accelerator {
 public:
  // Device paths with a fixed meaning, as in C++ AMP. The CPU device answers to "cpu" and,
  // since it plays WARP's role, to direct3d_warp. direct3d_ref is the reference device: the
  // CPU device run serially and deterministically, every kernel index bounds-checked; it is
  // listed by get_all() but never chosen by default or by auto selection.
  //
  // get_all() lists the CPU device a second time, last, as direct3d_warp: C++ AMP on a machine
  // without a GPU lists WARP beside "cpu" and REF, and programs skip those two to test "every
  // real accelerator" or look WARP up by path. The WARP entry is the CPU device (same queues,
  // same data, == the "cpu" entry); only its path and description differ.
  static const wchar_t default_accelerator[];
  static const wchar_t cpu_accelerator[];
  static const wchar_t direct3d_warp[];
  static const wchar_t direct3d_ref[];

  // The default accelerator: HIPAMP_DEFAULT_ACCELERATOR (cpu, gpu, emulated, ref or an index
  // into get_all()) if set, else the best GPU, else the CPU device (never the reference device).
  accelerator();
  // Throws runtime_exception naming the path if no such accelerator exists.
  explicit accelerator(const std::wstring& device_path);

  static std::vector<accelerator> get_all();
  // Fails (returns false) once the default was used, as in C++ AMP.
  static bool set_default(const std::wstring& device_path);
  static accelerator_view get_auto_selection_view();

  accelerator_view get_default_view() const;
  accelerator_view create_view(queuing_mode mode = queuing_mode_automatic) const;
  // hipamp extension: a view whose kernels check every array_view/array index and throw
  // index_out_of_range naming the view, the index and the extent. CPU-executed accelerators
  // only (others throw unsupported_feature); the reference device's views always check.
  accelerator_view create_checked_view(queuing_mode mode = queuing_mode_automatic) const;

  std::wstring get_device_path() const;
  std::wstring get_description() const;
  unsigned int get_version() const noexcept;
  // In KB, as in C++ AMP.
  std::size_t get_dedicated_memory() const noexcept;
  bool get_supports_double_precision() const noexcept;
  bool get_supports_limited_double_precision() const noexcept;
  bool get_has_display() const noexcept;
  bool get_is_emulated() const noexcept;
  bool get_is_debug() const noexcept;
  bool get_supports_cpu_shared_memory() const noexcept;
  access_type get_default_cpu_access_type() const noexcept;
  bool set_default_cpu_access_type(access_type type);

  friend bool operator==(const accelerator& a, const accelerator& b) noexcept {
    return a.device_ == b.device_;
  }
  friend bool operator!=(const accelerator& a, const accelerator& b) noexcept { return !(a == b); }

  // hipamp extensions
  bool is_cpu() const noexcept { return device_->runs_on_cpu(); }
  int get_max_tile_size() const noexcept;
  // True when this accelerator copies data straight out of `source`'s memory (GPUs with
  // peer access to each other): a view last written on `source` then reaches this
  // accelerator in one device-to-device copy instead of two copies through the host.
  bool can_copy_directly_from(const accelerator& source) const noexcept;
  detail::device_impl& device() const noexcept { return *device_; }
  explicit accelerator(std::shared_ptr<detail::device_impl> device) : device_(std::move(device)) {}

 private:
  std::shared_ptr<detail::device_impl> device_;
  // This is get_all()'s direct3d_warp entry (or accelerator(direct3d_warp)): the CPU device
  // under WARP's path.
  bool as_warp_ = false;
};

}  // namespace hipamp
