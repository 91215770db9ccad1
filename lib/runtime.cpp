// The accelerator registry, default-device selection and the transfer counters.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/env_switch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/transfer_statistics.hpp>

#include "device_registry.hpp"

namespace hipamp {
namespace detail {

namespace {

class ready_event_impl final : public event_impl {
 public:
  bool is_ready() const override { return true; }
  void wait() const override {}
};

std::string narrow(const std::wstring& w) {
  std::string s;
  for (wchar_t c : w) s += (c >= 0 && c < 128) ? static_cast<char>(c) : '?';
  return s;
}

std::vector<std::shared_ptr<device_impl>> build_devices() {
  std::vector<std::shared_ptr<device_impl>> devices = enumerate_gpu_devices();
  devices.push_back(make_cpu_device());
  if (const char* emulate = std::getenv("HIPAMP_EMULATE_DISCRETE_DEVICE")) {
    const std::string want(emulate);
    if (want.size() != 1 || want[0] < '0' || want[0] > '8') {
      throw runtime_exception("hipamp: HIPAMP_EMULATE_DISCRETE_DEVICE='" + want +
                              "' is not a number of emulated devices from 0 to 8");
    }
    for (int number = 0; number < want[0] - '0'; ++number) {
      devices.push_back(make_discrete_emulator_device(number));
    }
  }
  // Last, so that get_all()'s indices of the other devices stay what they were.
  devices.push_back(make_reference_device());
  return devices;
}

struct default_selection {
  std::mutex mutex;
  std::shared_ptr<device_impl> chosen;
  bool used = false;
};

default_selection& selection() {
  static default_selection s;
  return s;
}

}  // namespace

bool peer_copies_allowed() noexcept {
  static const bool allowed = !env_switch_off("HIPAMP_PEER_COPIES");
  return allowed;
}

namespace {

std::shared_ptr<device_impl> find_by_path(const std::wstring& path) {
  for (const auto& d : all_devices()) {
    if (d->properties().device_path == path) return d;
  }
  return nullptr;
}

std::shared_ptr<device_impl> choose_default() {
  const auto& devices = all_devices();
  if (const char* env = std::getenv("HIPAMP_DEFAULT_ACCELERATOR")) {
    const std::string want(env);
    auto first_of = [&](bool gpu) -> std::shared_ptr<device_impl> {
      for (const auto& d : devices) {
        if ((d->kind() == device_kind::gpu) == gpu && d->kind() != device_kind::discrete_emulator &&
            !d->properties().is_reference) {
          return d;
        }
      }
      return nullptr;
    };
    if (want == "cpu") return first_of(false);
    if (want == "gpu") {
      if (auto gpu = first_of(true)) return gpu;
      throw runtime_exception("hipamp: HIPAMP_DEFAULT_ACCELERATOR=gpu but no GPU was found");
    }
    if (want == "emulated") {
      for (const auto& d : devices) {
        if (d->kind() == device_kind::discrete_emulator) return d;
      }
      throw runtime_exception(
          "hipamp: HIPAMP_DEFAULT_ACCELERATOR=emulated needs HIPAMP_EMULATE_DISCRETE_DEVICE=1");
    }
    if (want == "ref") return find_by_path(accelerator::direct3d_ref);  // asked for by name
    char* end = nullptr;
    const long n = std::strtol(want.c_str(), &end, 10);
    if (end != want.c_str() && *end == '\0' && n >= 0 && n < static_cast<long>(devices.size())) {
      return devices[static_cast<std::size_t>(n)];
    }
    throw runtime_exception("hipamp: HIPAMP_DEFAULT_ACCELERATOR='" + want +
                            "' is not cpu, gpu, emulated, ref or an index below " +
                            std::to_string(devices.size()));
  }
  // GPUs come first, best first; the CPU device otherwise. Never the reference device: like
  // C++ AMP's REF it is far slower and is used only when asked for by name.
  for (const auto& d : devices) {
    if (!d->properties().is_reference) return d;
  }
  throw runtime_exception("hipamp: no accelerator but the reference device");
}

std::shared_ptr<device_impl> default_device(bool mark_used) {
  default_selection& s = selection();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.chosen) s.chosen = choose_default();
  if (mark_used) s.used = true;
  return s.chosen;
}

struct counters {
  std::atomic<std::uint64_t> h2d_bytes{0}, h2d_calls{0}, d2h_bytes{0}, d2h_calls{0}, d2d_bytes{0},
      d2d_calls{0}, pinned_bytes{0}, pinned_buffers{0};
};

struct counter_table {
  std::mutex mutex;
  std::map<const device_impl*, std::unique_ptr<counters>> by_device;
  counters& of(const device_impl& d) {
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = by_device[&d];
    if (!slot) slot = std::make_unique<counters>();
    return *slot;
  }
};

counter_table& table() {
  static counter_table t;
  return t;
}

transfer_statistics read(const counters& c) {
  transfer_statistics s;
  s.host_to_device_bytes = c.h2d_bytes.load();
  s.host_to_device_calls = c.h2d_calls.load();
  s.device_to_host_bytes = c.d2h_bytes.load();
  s.device_to_host_calls = c.d2h_calls.load();
  s.device_to_device_bytes = c.d2d_bytes.load();
  s.device_to_device_calls = c.d2d_calls.load();
  s.pinned_bytes = c.pinned_bytes.load();
  s.pinned_buffers = c.pinned_buffers.load();
  return s;
}

}  // namespace

std::shared_ptr<queue_impl> device_impl::create_checked_queue(queuing_mode) {
  throw unsupported_feature("hipamp: accelerator '" + narrow(properties().device_path) +
                            "' cannot check kernel indices; bounds checks run only on the CPU "
                            "device and the reference device");
}

std::uint64_t queue_impl::next_serial() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;  // 0 means "no queue"
}

event_ptr ready_event() {
  static const event_ptr ready = std::make_shared<ready_event_impl>();
  return ready;
}

const std::vector<std::shared_ptr<device_impl>>& all_devices() {
  static const std::vector<std::shared_ptr<device_impl>> devices = build_devices();
  return devices;
}

void record_transfer(const device_impl& device, transfer_direction direction,
                     std::size_t bytes) noexcept {
  counters& c = table().of(device);
  switch (direction) {
    case transfer_direction::host_to_device:
      c.h2d_bytes += bytes;
      ++c.h2d_calls;
      break;
    case transfer_direction::device_to_host:
      c.d2h_bytes += bytes;
      ++c.d2h_calls;
      break;
    case transfer_direction::device_to_device:
      c.d2d_bytes += bytes;
      ++c.d2d_calls;
      break;
  }
}

void record_pin(const device_impl& device, std::size_t bytes) noexcept {
  counters& c = table().of(device);
  c.pinned_bytes += bytes;
  ++c.pinned_buffers;
}

std::string narrow_path(const std::wstring& w) { return narrow(w); }

}  // namespace detail

// ---- accelerator ----------------------------------------------------------------------

const wchar_t accelerator::default_accelerator[] = L"default";
const wchar_t accelerator::cpu_accelerator[] = L"cpu";
const wchar_t accelerator::direct3d_warp[] = L"direct3d\\warp";
const wchar_t accelerator::direct3d_ref[] = L"direct3d\\ref";

accelerator::accelerator() : device_(detail::default_device(true)) {}

accelerator::accelerator(const std::wstring& device_path) {
  if (device_path == default_accelerator) {
    device_ = detail::default_device(true);
  } else if (device_path == direct3d_warp) {
    device_ = detail::find_by_path(cpu_accelerator);
    as_warp_ = true;
  } else {
    device_ = detail::find_by_path(device_path);
  }
  if (!device_) {
    std::string known;
    for (const auto& d : detail::all_devices())
      known += " '" + detail::narrow(d->properties().device_path) + "'";
    throw runtime_exception("hipamp: no accelerator has device path '" +
                            detail::narrow(device_path) + "'; present:" + known);
  }
}

std::vector<accelerator> accelerator::get_all() {
  std::vector<accelerator> out;
  for (const auto& d : detail::all_devices()) out.emplace_back(d);
  // Last, after the reference device, so that every device keeps its index (the indices
  // HIPAMP_DEFAULT_ACCELERATOR takes).
  out.emplace_back(direct3d_warp);
  return out;
}

bool accelerator::set_default(const std::wstring& device_path) {
  accelerator wanted(device_path);  // throws for unknown paths
  detail::default_selection& s = detail::selection();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.used) return s.chosen == wanted.device_;
  s.chosen = wanted.device_;
  return true;
}

accelerator_view accelerator::get_auto_selection_view() {
  return accelerator_view(detail::default_device(true)->default_queue(), true);
}

accelerator_view accelerator::get_default_view() const {
  return accelerator_view(device_->default_queue());
}
accelerator_view accelerator::create_view(queuing_mode mode) const {
  return accelerator_view(device_->create_queue(mode));
}
accelerator_view accelerator::create_checked_view(queuing_mode mode) const {
  return accelerator_view(device_->create_checked_queue(mode));
}
std::wstring accelerator::get_device_path() const {
  return as_warp_ ? direct3d_warp : device_->properties().device_path;
}
std::wstring accelerator::get_description() const {
  const std::wstring& own = device_->properties().description;
  return as_warp_ ? own + L", as WARP (direct3d\\warp)" : own;
}
unsigned int accelerator::get_version() const noexcept { return device_->properties().version; }
std::size_t accelerator::get_dedicated_memory() const noexcept {
  return device_->properties().dedicated_memory_kb;
}
bool accelerator::get_supports_double_precision() const noexcept {
  return device_->properties().supports_double_precision;
}
bool accelerator::get_supports_limited_double_precision() const noexcept {
  return device_->properties().supports_limited_double_precision;
}
bool accelerator::get_has_display() const noexcept { return device_->properties().has_display; }
bool accelerator::get_is_emulated() const noexcept { return device_->properties().is_emulated; }
bool accelerator::get_is_debug() const noexcept { return device_->properties().is_debug; }
bool accelerator::get_supports_cpu_shared_memory() const noexcept {
  return device_->properties().supports_cpu_shared_memory;
}
access_type accelerator::get_default_cpu_access_type() const noexcept {
  const access_type chosen = device_->default_cpu_access.load(std::memory_order_relaxed);
  if (chosen != access_type_auto) return chosen;
  return device_->properties().supports_cpu_shared_memory ? access_type_read_write
                                                          : access_type_none;
}
bool accelerator::set_default_cpu_access_type(access_type type) {
  if (type < access_type_none || type > access_type_auto) {
    throw runtime_exception("hipamp: set_default_cpu_access_type: " +
                            std::to_string(static_cast<int>(type)) + " is not an access_type");
  }
  // Only devices that share memory with the host make CPU-accessible arrays; GPU arrays stay
  // device-resident, so a GPU accepts only access_type_none (and auto, its own choice).
  if (type != access_type_none && type != access_type_auto &&
      !device_->properties().supports_cpu_shared_memory) {
    return false;
  }
  // C++ AMP 1.2 lets this succeed once, before the accelerator allocated anything; hipamp
  // lets it change at any time (arrays keep the type they were made with), so one process
  // can use several defaults in turn.
  device_->default_cpu_access.store(type, std::memory_order_relaxed);
  return true;
}
int accelerator::get_max_tile_size() const noexcept { return device_->properties().max_tile_size; }
bool accelerator::can_copy_directly_from(const accelerator& source) const noexcept {
  return device_->copies_directly_from(*source.device_);
}

// ---- accelerator_view -----------------------------------------------------------------

accelerator accelerator_view::get_accelerator() const {
  for (const auto& d : detail::all_devices()) {
    if (d.get() == &queue_->device()) return accelerator(d);
  }
  throw accelerator_view_removed("hipamp: the accelerator of this accelerator_view is gone");
}
bool accelerator_view::get_is_debug() const noexcept {
  return queue_->device().properties().is_debug;
}
unsigned int accelerator_view::get_version() const noexcept {
  return queue_->device().properties().version;
}
queuing_mode accelerator_view::get_queuing_mode() const noexcept { return queue_->mode(); }
void accelerator_view::flush() { queue_->flush(); }
void accelerator_view::wait() { queue_->wait(); }
completion_future accelerator_view::create_marker() { return completion_future(queue_->record()); }

// ---- transfer counters -----------------------------------------------------------------

transfer_statistics get_transfer_statistics(const accelerator& acc) {
  return detail::read(detail::table().of(acc.device()));
}

transfer_statistics get_transfer_statistics() {
  transfer_statistics sum;
  for (const auto& d : detail::all_devices()) {
    const transfer_statistics s = detail::read(detail::table().of(*d));
    sum.host_to_device_bytes += s.host_to_device_bytes;
    sum.host_to_device_calls += s.host_to_device_calls;
    sum.device_to_host_bytes += s.device_to_host_bytes;
    sum.device_to_host_calls += s.device_to_host_calls;
    sum.device_to_device_bytes += s.device_to_device_bytes;
    sum.device_to_device_calls += s.device_to_device_calls;
    sum.pinned_bytes += s.pinned_bytes;
    sum.pinned_buffers += s.pinned_buffers;
  }
  return sum;
}

void reset_transfer_statistics() noexcept {
  detail::counter_table& t = detail::table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (auto& entry : t.by_device) {
    entry.second->h2d_bytes = 0;
    entry.second->h2d_calls = 0;
    entry.second->d2h_bytes = 0;
    entry.second->d2h_calls = 0;
    entry.second->d2d_bytes = 0;
    entry.second->d2d_calls = 0;
    entry.second->pinned_bytes = 0;
    entry.second->pinned_buffers = 0;
  }
}

}  // namespace hipamp
