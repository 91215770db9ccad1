// expect: error
// C++ AMP 1.2 (4.2.4): extents of different rank do not add.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::extent<1> a(1);
  hipamp::extent<2> b(1, 2);
  a = a + b;
}
