// expect: deleted member function 'view_as'|use of deleted function
// C++ AMP 1.2 (5.2.5): view_as is for an array_view of rank 1 only.
#include <hipamp/hipamp.hpp>
void f(std::vector<int>& v) {
  hipamp::array_view<int, 2> av(5, 2, v);
  hipamp::array_view<int, 2> r = av.view_as(hipamp::extent<2>(2, 5));
}
