// expect: C\+\+ AMP: an array_view without a data source can be made only on the CPU
// What tools/amp2hipamp.py writes before `array_view<int, 2> v(16, 16);` in amp code.
#include <hipamp/hipamp.hpp>
HIPAMP_RESTRICT void f() {
  static_assert(hipamp::detail::amp_code_rule_broken<
                    hipamp::detail::amp_code_rule::view_without_data_source>::ok,
                "C++ AMP rules");
}
