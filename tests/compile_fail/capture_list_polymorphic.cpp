// expect: C\+\+ AMP: a parallel_for_each kernel cannot capture a value of a class with virtual
// What tools/amp2hipamp.py writes for `[&, s]`: a name in the capture list is always copied.
#include <hipamp/hipamp.hpp>
struct shape {
  virtual ~shape() {}
  int n = 1;
};
void f() {
  hipamp::array_view<int, 1> v(8);
  shape s;
  {
    static_assert(hipamp::detail::by_value_capture<decltype(s)>::ok, "C++ AMP capture rules");
    hipamp::parallel_for_each(v.extent, [=](hipamp::index<1> i) { v[i] = s.n; });
  }
}
