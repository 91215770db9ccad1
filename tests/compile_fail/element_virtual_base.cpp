// expect: elements must be trivially copyable
#include <hipamp/hipamp.hpp>
struct base {
  int m;
};
struct derived : virtual base {};
void f() { hipamp::array<derived, 1> a(10); }
