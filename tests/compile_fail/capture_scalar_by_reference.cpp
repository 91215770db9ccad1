// expect: C\+\+ AMP: a parallel_for_each kernel may capture only an array or a texture by
// What tools/amp2hipamp.py writes for `[&]` capturing the int x
// (include/hipamp/kernel_capture.hpp); the valid neighbours (the shadow left uncaptured) are
// tools/tests' CaptureRules.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array<int, 1> a(8);
  int x = 5;
  {
    auto& hipamp_ref_x = x;
    auto x =
        hipamp::detail::forbid_capture<hipamp::detail::capture_rule::by_reference>(hipamp_ref_x);
    auto& hipamp_ref_a = a;
    auto a = hipamp::kernel_handle(hipamp_ref_a);
    hipamp::parallel_for_each(a.extent, [=](hipamp::index<1> i) { a[i] = a[i] * x; });
  }
}
