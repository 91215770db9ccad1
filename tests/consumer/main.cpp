// The consumer's checks, host-compiled on purpose:
//  1. a kernel from the kernel source runs on the default accelerator; when that is a GPU, the
//     GPU's transfer counters show the data went there and back (so the GPU ran it);
//  2. a kernel in this host-compiled file, launched with auto-selection, runs on the CPU device
//     and moves nothing;
//  3. launched on an explicit GPU accelerator_view it throws, naming the fix.
// HIPAMP_CONSUMER_EXPECT_GPU=1 (the GPU machine) makes a missing GPU an error.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

#include "kernels.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("consumer: %s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) ++failures;
}

std::vector<int> iota_vector(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), -n / 2);
  return v;
}

bool squared(const std::vector<int>& got, const std::vector<int>& input) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != input[i] * input[i]) {
      std::printf("consumer: element %zu is %d, expected %d\n", i, got[i], input[i] * input[i]);
      return false;
    }
  }
  return got.size() == input.size();
}

std::string narrow(const std::wstring& s) { return {s.begin(), s.end()}; }

}  // namespace

int main() try {
  const int n = 1000;
  const std::uint64_t bytes = n * sizeof(int);
  const hipamp::accelerator def;
  const bool gpu = !def.is_cpu();
  const char* expect_gpu = std::getenv("HIPAMP_CONSUMER_EXPECT_GPU");
  std::printf("consumer: hipamp %s package, default accelerator %s\n", HIPAMP_BACKEND_NAME,
              narrow(def.get_description()).c_str());
  if (expect_gpu != nullptr && std::string(expect_gpu) == "1") {
    check(gpu, "a GPU is the default accelerator (HIPAMP_CONSUMER_EXPECT_GPU=1)");
  }

  // 1. The kernel source's kernel, auto-selected.
  const std::vector<int> input = iota_vector(n);
  const hipamp::transfer_statistics before = hipamp::get_transfer_statistics(def);
  std::vector<int> data = input;
  consumer::square_auto(data);
  const hipamp::transfer_statistics after = hipamp::get_transfer_statistics(def);
  check(squared(data, input), "the kernel source's kernel squared the data");
  if (gpu) {
    check(after.host_to_device_bytes - before.host_to_device_bytes >= bytes &&
              after.device_to_host_bytes - before.device_to_host_bytes >= bytes,
          "the data went to the GPU and back (" +
              std::to_string(after.host_to_device_bytes - before.host_to_device_bytes) +
              " bytes in, " +
              std::to_string(after.device_to_host_bytes - before.device_to_host_bytes) +
              " bytes out)");
  }

  // 2. A kernel in this host-compiled file: auto-selection picks the CPU device.
  const hipamp::transfer_statistics host_before = hipamp::get_transfer_statistics(def);
  std::vector<int> host_data = input;
  const hipamp::array_view<int, 1> view(n, host_data);
  hipamp::parallel_for_each(view.extent,
                            [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] *= view[i]; });
  view.synchronize();
  const hipamp::transfer_statistics host_after = hipamp::get_transfer_statistics(def);
  check(squared(host_data, input), "a host-compiled kernel ran (on the CPU device)");
  if (gpu) {
    check(host_after.host_to_device_bytes == host_before.host_to_device_bytes,
          "the host-compiled kernel moved nothing to the GPU");
  }

  // 3. The same on an explicit GPU accelerator_view: refused, naming the fix.
  if (gpu) {
    std::string message = "(no exception)";
    try {
      hipamp::parallel_for_each(def.get_default_view(), view.extent,
                                [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] += 1; });
    } catch (const hipamp::runtime_exception& e) {
      message = e.what();
    }
    check(message.find("hipamp_as_kernel_sources") != std::string::npos,
          "a host-compiled launch on the GPU is refused, naming the fix: " + message);
    // The kernel source launches there explicitly.
    std::vector<int> explicit_data = input;
    consumer::square_on(def.get_default_view(), explicit_data);
    check(squared(explicit_data, input), "the kernel source's kernel on the explicit GPU view");
  }

  if (failures == 0) std::printf("consumer: OK\n");
  return failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer: %s\n", e.what());
  return 1;
}
