// Internal: the process-wide list of devices, built once on first use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <hipamp/detail/backend.hpp>

namespace hipamp::detail {

// The CPU device, present in every build (fallback/).
std::shared_ptr<device_impl> make_cpu_device();
// A CPU-executed device with separate memory, added when HIPAMP_EMULATE_DISCRETE_DEVICE=N
// (N devices, 1 to 8): it makes every coherence path observable without a GPU, and several
// of them stand in for several GPUs. `number` 0 is "cpu-discrete", the others
// "cpu-discrete:<number>".
std::shared_ptr<device_impl> make_discrete_emulator_device(int number);
// False when HIPAMP_PEER_COPIES=0: devices then never copy from each other's memory
// directly, and every byte moving between two of them goes through the host (to test that
// path on machines whose GPUs could copy peer to peer, and to work around broken peer links).
bool peer_copies_allowed() noexcept;
// The reference device (accelerator::direct3d_ref): the CPU device run serially with every
// kernel index checked. Listed last; never the default.
std::shared_ptr<device_impl> make_reference_device();
// The GPUs of the configured backend, best first (an empty list in CPU builds).
std::vector<std::shared_ptr<device_impl>> enumerate_gpu_devices();

const std::vector<std::shared_ptr<device_impl>>& all_devices();

// ASCII rendering of a device path or description, for exception messages.
std::string narrow_path(const std::wstring& w);

}  // namespace hipamp::detail
