// expect: an empty class, or one with only static members, is not
// C++ AMP 1.2 (5.0): a class whose only member is a static container is empty.
#include <hipamp/hipamp.hpp>
struct holder {
  static hipamp::array_view<unsigned, 1>* view;
};
void f(std::vector<holder>& v) { hipamp::array_view<holder, 1> a(10, v); }
