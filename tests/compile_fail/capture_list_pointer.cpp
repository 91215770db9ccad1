// expect: C\+\+ AMP: a parallel_for_each kernel cannot capture a pointer
// What tools/amp2hipamp.py writes for `[&, p]` with p an `array_view<int, 1>*`.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array_view<int, 1> v(8);
  hipamp::array_view<int, 1>* p = &v;
  {
    static_assert(hipamp::detail::by_value_capture<decltype(p)>::ok, "C++ AMP capture rules");
    hipamp::parallel_for_each(v.extent, [=](hipamp::index<1> i) { (*p)[i] = 1; });
  }
}
