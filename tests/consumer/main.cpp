// Squares a vector on the default accelerator and checks the answer on the host.
#include <cstdio>
#include <exception>
#include <vector>

#include <hipamp/hipamp.hpp>

int main() try {
  std::vector<int> data(1000);
  for (int i = 0; i < 1000; ++i) data[i] = i;
  hipamp::array_view<int, 1> view(1000, data);
  hipamp::parallel_for_each(view.extent,
                            [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] *= view[i]; });
  view.synchronize();
  for (int i = 0; i < 1000; ++i) {
    if (data[i] != i * i) {
      std::printf("consumer: element %d is %d, expected %d\n", i, data[i], i * i);
      return 1;
    }
  }
  std::printf("consumer: OK on %ls\n", hipamp::accelerator().get_description().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer: %s\n", e.what());
  return 1;
}
