// expect: elements must be trivially copyable
// C++ AMP 1.2 (5.0): containers such as array_view are not members of element types.
#include <hipamp/hipamp.hpp>
struct holder {
  hipamp::array_view<float, 2> a;
};
void f() { hipamp::array<holder, 1> a(16); }
