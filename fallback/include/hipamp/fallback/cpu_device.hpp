// The CPU device's constructors, which the runtime's registry (lib/runtime.cpp) calls: the CPU
// device itself, the reference device and the emulated discrete devices all run kernels on the
// CPU executors of this folder (fallback/src/cpu_device.cpp). Internal to libhipamp; installed
// only because the device interface (detail/backend.hpp) is.
#pragma once

#include <memory>

#include <hipamp/detail/backend.hpp>

namespace hipamp::detail {

// The CPU device, present in every build.
std::shared_ptr<device_impl> make_cpu_device();
// A CPU-executed device with separate memory, added when HIPAMP_EMULATE_DISCRETE_DEVICE=N
// (N devices, 1 to 8): it makes every coherence path observable without a GPU, and several
// of them stand in for several GPUs. `number` 0 is "cpu-discrete", the others
// "cpu-discrete:<number>".
std::shared_ptr<device_impl> make_discrete_emulator_device(int number);
// The reference device (accelerator::direct3d_ref): the CPU device run serially with every
// kernel index checked. Listed last; never the default.
std::shared_ptr<device_impl> make_reference_device();

}  // namespace hipamp::detail
