// Marked by hipamp_as_kernel_sources: nvcc / ROCm clang compile it in GPU packages, so its
// kernels can run on the GPU.
#include "kernels.hpp"

#include <hipamp/hipamp.hpp>

namespace consumer {

void square_auto(std::vector<int>& data) {
  const hipamp::array_view<int, 1> view(static_cast<int>(data.size()), data);
  hipamp::parallel_for_each(view.extent,
                            [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] *= view[i]; });
  view.synchronize();
}

void square_on(const hipamp::accelerator_view& av, std::vector<int>& data) {
  const hipamp::array_view<int, 1> view(static_cast<int>(data.size()), data);
  hipamp::parallel_for_each(av, view.extent,
                            [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] *= view[i]; });
  view.synchronize();
}

}  // namespace consumer
