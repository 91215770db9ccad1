// Compiled, not run (hipamp_tests_include_order): <ppl.h>'s iterator parallel_sort hides
// hipamp's array parallel_sort from concurrency::parallel_sort unless whichever of the two
// headers comes second names it there. This unit includes <hipamp/parallel_sort.hpp> first;
// ppl_then_sort.cpp the other order.
#include <hipamp/compat/ppl.h>
#include <hipamp/parallel_sort.hpp>

#include <vector>

std::vector<int> include_order_sort_then_ppl(const concurrency::array<int, 1>& source,
                                             std::vector<int> host) {
  concurrency::parallel_sort(host.begin(), host.end());
  std::vector<int> sorted = *concurrency::parallel_sort(source, true);
  sorted.insert(sorted.end(), host.begin(), host.end());
  return sorted;
}
