// expect: error
// C++ AMP 1.2 (5.1.3): accelerator_view is a read-only property of an array.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array<float, 2> a(3, 3);
  a.get_accelerator_view() = hipamp::accelerator().get_default_view();
}
