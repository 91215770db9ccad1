// The CPU device (WARP's role in C++ AMP), its test double with separate memory, and the
// reference device (REF's role: the CPU device run serially, every index checked).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <hipamp/fallback/cpu_device.hpp>

#include <hipamp/detail/host_memory.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/simple_executor.hpp>

namespace hipamp::detail {
namespace {

// CPU work runs synchronously, so a CPU queue's events are complete when recorded.
class cpu_queue final : public queue_impl {
 public:
  cpu_queue(device_impl& device, queuing_mode mode, bool checks_bounds)
      : device_(device), mode_(mode), checks_bounds_(checks_bounds) {}
  device_impl& device() const noexcept override { return device_; }
  queuing_mode mode() const noexcept override { return mode_; }
  void copy_host_to_device(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_host(void* dst, const void* src, std::size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_device(void* dst, const void* src, std::size_t bytes) override {
    std::memmove(dst, src, bytes);
  }
  void wait_for(const event_ptr& event) override { event->wait(); }
  event_ptr record() override { return ready_event(); }
  void flush() override {}
  void wait() override {}
  void* native_handle() const noexcept override { return nullptr; }
  bool checks_bounds() const noexcept override { return checks_bounds_; }

 private:
  device_impl& device_;
  queuing_mode mode_;
  bool checks_bounds_;
};

class cpu_device final : public device_impl, public std::enable_shared_from_this<cpu_device> {
 public:
  cpu_device(device_kind kind, device_properties props) : kind_(kind), props_(std::move(props)) {}
  device_kind kind() const noexcept override { return kind_; }
  const device_properties& properties() const noexcept override { return props_; }
  void* allocate(std::size_t bytes) override { return allocate_host(bytes).release(); }
  void deallocate(void* ptr) noexcept override { aligned_free{}(ptr); }
  std::shared_ptr<queue_impl> create_queue(queuing_mode mode) override {
    return std::make_shared<cpu_queue>(*this, mode, props_.checks_bounds);
  }
  std::shared_ptr<queue_impl> create_checked_queue(queuing_mode mode) override {
    return std::make_shared<cpu_queue>(*this, mode, true);
  }
  std::shared_ptr<queue_impl> default_queue() override {
    std::call_once(default_once_, [this] { default_ = create_queue(queuing_mode_automatic); });
    return default_;
  }
  // Emulated discrete devices play GPUs with peer access to each other: their memory is all
  // host memory, so one's queue can read another's replica directly.
  // The emulated discrete device takes pin requests as a GPU does (its copies are memcpy
  // either way), so the pinning policy and its counters run in GPU-less test runs too.
  bool pin_host(void* /*host*/, std::size_t /*bytes*/) noexcept override {
    return kind_ == device_kind::discrete_emulator;
  }
  bool copies_directly_from(const device_impl& source) const noexcept override {
    return kind_ == device_kind::discrete_emulator &&
           source.kind() == device_kind::discrete_emulator && &source != this &&
           peer_copies_allowed();
  }

 private:
  device_kind kind_;
  device_properties props_;
  std::once_flag default_once_;
  std::shared_ptr<queue_impl> default_;
};

device_properties cpu_properties() {
  device_properties p;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  p.description = L"hipamp CPU device (OpenMP + SIMD, " +
                  std::to_wstring(fallback::thread_count()) + L" threads on " +
                  std::to_wstring(cores) + L" cores)";
  p.device_path = L"cpu";
  p.version = (HIPAMP_VERSION_MAJOR << 16) | HIPAMP_VERSION_MINOR;
  p.dedicated_memory_kb = 0;
  p.supports_double_precision = true;
  p.supports_limited_double_precision = true;
  p.is_emulated = true;
  p.supports_cpu_shared_memory = true;
  p.max_tile_size = 1024;
  // Opt-in checks (HIPAMP_CHECK_BOUNDS=1): kernels on the CPU devices check every index.
  const char* check = std::getenv("HIPAMP_CHECK_BOUNDS");
  p.checks_bounds = check != nullptr && std::string(check) == "1";
  return p;
}

}  // namespace

std::shared_ptr<device_impl> make_cpu_device() {
  return std::make_shared<cpu_device>(device_kind::cpu, cpu_properties());
}

std::shared_ptr<device_impl> make_discrete_emulator_device(int number) {
  device_properties p = cpu_properties();
  const std::wstring number_text = number == 0 ? L"" : L" " + std::to_wstring(number);
  p.description =
      L"hipamp emulated discrete device" + number_text + L" (CPU execution, separate memory)";
  p.device_path = number == 0 ? L"cpu-discrete" : L"cpu-discrete:" + std::to_wstring(number);
  p.supports_cpu_shared_memory = false;
  return std::make_shared<cpu_device>(device_kind::discrete_emulator, std::move(p));
}

// Memory: the reference device aliases host memory, as the CPU device does (device_kind::cpu).
// Its kernels run on the CPU over the very bytes the host sees, so a separate replica would
// be a fiction: the coherence directory would copy bytes onto themselves and count transfers
// that never happen. Separate-memory coherence paths are the emulated discrete device's job.
std::shared_ptr<device_impl> make_reference_device() {
  device_properties p = cpu_properties();
  p.description = L"Reference device (hipamp CPU, serial, bounds-checked)";
  p.device_path = L"direct3d\\ref";
  p.is_emulated = true;
  p.is_debug = true;  // C++ AMP's REF was the debugging device
  p.serial_execution = true;
  p.checks_bounds = true;
  p.is_reference = true;
  return std::make_shared<cpu_device>(device_kind::cpu, std::move(p));
}

}  // namespace hipamp::detail
