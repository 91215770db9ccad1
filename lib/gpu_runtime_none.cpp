// CPU-only builds: no GPU backend, so the device list holds the CPU device alone.
#include "device_registry.hpp"

namespace hipamp::detail {

std::vector<std::shared_ptr<device_impl>> enumerate_gpu_devices() { return {}; }

}  // namespace hipamp::detail
