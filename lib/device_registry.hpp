// Internal: the process-wide list of devices, built once on first use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <hipamp/detail/backend.hpp>
#include <hipamp/fallback/cpu_device.hpp>  // the CPU device, the reference and emulated devices

namespace hipamp::detail {

// The GPUs of the configured backend, best first (an empty list in CPU builds).
std::vector<std::shared_ptr<device_impl>> enumerate_gpu_devices();

const std::vector<std::shared_ptr<device_impl>>& all_devices();

// ASCII rendering of a device path or description, for exception messages.
std::string narrow_path(const std::wstring& w);

}  // namespace hipamp::detail
