// expect: C\+\+ AMP: a parallel_for_each kernel cannot capture an array or a texture by value
// What tools/amp2hipamp.py writes for `[=]` capturing the array b.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array<int, 1> b(8);
  hipamp::array_view<int, 1> v(b.extent);
  {
    auto& hipamp_ref_b = b;
    auto b =
        hipamp::detail::forbid_capture<hipamp::detail::capture_rule::array_by_value>(hipamp_ref_b);
    hipamp::parallel_for_each(v.extent, [=](hipamp::index<1> i) { v[i] = b[i]; });
  }
}
