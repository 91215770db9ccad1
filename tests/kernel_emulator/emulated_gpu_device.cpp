// An emulated GPU device: separate (host-allocated) memory, kernels run by the emulator.
#include <cstdlib>
#include <cstring>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/detail/backend.hpp>
#include <mutex>
#include <string>
#include "../../lib/device_registry.hpp"

namespace hipamp::detail {
namespace gpu {
[[noreturn]] void throw_error(error_t, const char* what) {
  throw runtime_exception(std::string("emulated GPU error in ") + what);
}
}  // namespace gpu
namespace {
class emu_queue final : public queue_impl {
 public:
  explicit emu_queue(device_impl& d) : d_(d) {}
  device_impl& device() const noexcept override { return d_; }
  queuing_mode mode() const noexcept override { return queuing_mode_automatic; }
  void copy_host_to_device(void* d, const void* s, std::size_t b) override { std::memcpy(d, s, b); }
  void copy_device_to_host(void* d, const void* s, std::size_t b) override { std::memcpy(d, s, b); }
  void copy_device_to_device(void* d, const void* s, std::size_t b) override {
    std::memmove(d, s, b);
  }
  void wait_for(const event_ptr& e) override { e->wait(); }
  event_ptr record() override { return ready_event(); }
  void flush() override {}
  void wait() override {}
  void* native_handle() const noexcept override { return nullptr; }

 private:
  device_impl& d_;
};
class emu_gpu final : public device_impl {
 public:
  emu_gpu() {
    props_.description = L"emulated GPU (fibers)";
    props_.device_path = L"emugpu";
    props_.ordinal = 0;
  }
  device_kind kind() const noexcept override { return device_kind::gpu; }
  const device_properties& properties() const noexcept override { return props_; }
  // Mimics a device allocator: hands out raw memory that deallocate() frees.
  void* allocate(std::size_t bytes) override {
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);  // NOLINT(cppcoreguidelines-*)
    std::memset(p, 0xcd, (bytes + 255) / 256 * 256);  // poison: device memory starts as garbage
    return p;
  }
  void deallocate(void* p) noexcept override { std::free(p); }  // NOLINT(cppcoreguidelines-*)
  std::shared_ptr<queue_impl> create_queue(queuing_mode) override {
    return std::make_shared<emu_queue>(*this);
  }
  std::shared_ptr<queue_impl> default_queue() override {
    std::call_once(once_, [this] { q_ = create_queue(queuing_mode_automatic); });
    return q_;
  }

 private:
  device_properties props_;
  std::once_flag once_;
  std::shared_ptr<queue_impl> q_;
};
}  // namespace
std::vector<std::shared_ptr<device_impl>> enumerate_gpu_devices() {
  return {std::make_shared<emu_gpu>()};
}
}  // namespace hipamp::detail
