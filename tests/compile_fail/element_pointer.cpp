// expect: C\+\+ AMP forbids pointers and references as array/array_view elements
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array<int, 1> a(1);
  hipamp::array_view<int*, 1> r = a.reinterpret_as<int*>();
}
