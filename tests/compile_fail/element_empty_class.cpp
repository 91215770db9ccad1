// expect: size of a class element type of array/array_view to be a multiple of 4 bytes
// C++ AMP 1.2 (5.0): an empty class (sizeof 1) is no element type.
#include <hipamp/hipamp.hpp>
struct empty {
  int get() const { return 1; }
};
void f() { hipamp::array<empty, 1> a(10); }
