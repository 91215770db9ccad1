// expect: C\+\+ AMP: code in a kernel supports only the fundamental types int
// What tools/amp2hipamp.py writes before a kernel that names short, char, long long or wchar_t.
#include <hipamp/hipamp.hpp>
void f() {
  hipamp::array_view<int, 1> v(8);
  {
    static_assert(
        hipamp::detail::amp_code_rule_broken<hipamp::detail::amp_code_rule::narrow_type>::ok,
        "C++ AMP rules");
    hipamp::parallel_for_each(v.extent, [=](hipamp::index<1> i) {
      short s = 1;
      v[i] = s;
    });
  }
}
