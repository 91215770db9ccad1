// Links the vendor's device primitives with hipamp (rocPRIM in the ROCm build, CUB in the
// CUDA build) and, where a GPU is present, runs an inclusive scan on the device memory of
// array_views, the way library algorithms reach raw pointers: open a launch_scope on the
// queue, copy the views, close, use unchecked_data(), complete with an event.
// Without a GPU it only proves that the translation unit builds and links.
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include <hipamp/hipamp.hpp>

#if defined(__HIPCC__)
#include <rocprim/rocprim.hpp>
#elif defined(__CUDACC__)
#include <cub/device/device_scan.cuh>
#endif

namespace hx = hipamp;

namespace {

#if defined(__HIPCC__)
using error_type = hipError_t;
constexpr error_type ok = hipSuccess;
error_type scan(void* temp, std::size_t& bytes, const int* in, int* out, int n, void* stream) {
  return rocprim::inclusive_scan(temp, bytes, in, out, static_cast<std::size_t>(n),
                                 rocprim::plus<int>(), static_cast<hipStream_t>(stream));
}
#else
using error_type = cudaError_t;
constexpr error_type ok = cudaSuccess;
error_type scan(void* temp, std::size_t& bytes, const int* in, int* out, int n, void* stream) {
  return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, static_cast<cudaStream_t>(stream));
}
#endif

}  // namespace

int main() {
  const hx::accelerator* gpu = nullptr;
  const std::vector<hx::accelerator> all = hx::accelerator::get_all();
  for (const hx::accelerator& acc : all) {
    if (!acc.is_cpu()) {
      gpu = &acc;
      break;
    }
  }
  if (gpu == nullptr) {
    std::printf("vendor primitives: linked; no GPU to run on\n");
    return 0;
  }
  hx::accelerator_view av = gpu->get_default_view();
  const int n = 1000003;
  std::vector<int> in(n);
  std::mt19937 gen(42);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (int& x : in) x = dist(gen);
  std::vector<int> out(n, 0x7f7f7f7f);
  hx::array_view<const int, 1> vin(n, in);
  hx::array_view<int, 1> vout(n, out);
  vout.discard_data();

  std::size_t temp_bytes = 0;
  if (scan(nullptr, temp_bytes, nullptr, nullptr, n, av.native_handle()) != ok) {
    std::printf("vendor primitives: temporary-storage query failed\n");
    return 1;
  }
  hx::array<unsigned char, 1> temp(static_cast<int>(temp_bytes + 1), av);
  hx::array_view<unsigned char, 1> vtemp(temp);
  {
    hx::detail::launch_scope scope(av.queue());
    const hx::array_view<const int, 1> a = vin;
    const hx::array_view<int, 1> b = vout;
    const hx::array_view<unsigned char, 1> t = vtemp;
    scope.close();
    if (scan(t.unchecked_data(), temp_bytes, a.unchecked_data(), b.unchecked_data(), n,
             av.native_handle()) != ok) {
      std::printf("vendor primitives: scan failed\n");
      return 1;
    }
    scope.complete(av.queue().record());
  }
  vout.synchronize();
  long long running = 0;
  std::size_t bad = 0;
  for (int i = 0; i < n; ++i) {
    running += in[i];
    bad += out[i] != running;
  }
  std::printf("vendor primitives: inclusive scan of %d ints on %ls: %zu mismatches\n", n,
              gpu->get_description().c_str(), bad);
  return bad == 0 ? 0 : 1;
}
