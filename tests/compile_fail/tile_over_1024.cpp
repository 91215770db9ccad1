// expect: C\+\+ AMP allows at most 1024 work-items in a tile
// C++ AMP 1.2 (4.3): a tile holds at most 1024 work-items; the launch does not compile.
#include <hipamp/hipamp.hpp>
void f() {
  const hipamp::tiled_extent<32, 32, 2> big = hipamp::extent<3>(64, 64, 4).tile<32, 32, 2>();
  hipamp::parallel_for_each(big, [=](hipamp::tiled_index<32, 32, 2>) {});
}
