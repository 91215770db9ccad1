// expect: C\+\+ AMP: a parallel_for_each kernel cannot capture a pointer
// What tools/amp2hipamp.py writes for `[=]` capturing the pointer p.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array<int, 1> a(8);
  hipamp::array_view<int, 1> v(a);
  int* p = nullptr;
  {
    auto& hipamp_ref_p = p;
    auto p = hipamp::detail::forbid_capture<hipamp::detail::capture_rule::pointer>(hipamp_ref_p);
    hipamp::parallel_for_each(v.extent, [=](hipamp::index<1> i) { v[i] = *p; });
  }
}
