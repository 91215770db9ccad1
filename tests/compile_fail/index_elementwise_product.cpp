// expect: deleted
// C++ AMP 1.2 (4.1.4): an index scales by an int only; there is no index * index.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::index<2> a(5, 15), b(10, 30);
  a *= b;
}
