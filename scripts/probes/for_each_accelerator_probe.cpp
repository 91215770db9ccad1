// Compile-only probe, run by scripts/gpu_check.sh: nvcc 13 with Catch2 v3 stops with an
// internal error (unlink_src_seq_entries) on extended lambdas inside a section that a macro
// opens through DYNAMIC_SECTION (FOR_EACH_ACCELERATOR's first form). Variant 1 opens the
// section without Catch's warning-suppression _Pragmas (tests/support.hpp's form now);
// variant 2 is the old form, to confirm the failure.
#include "../../tests/support.hpp"

#ifndef PROBE_VARIANT
#define PROBE_VARIANT 1
#endif

#if PROBE_VARIANT == 1
#define PROBE_FOR_EACH(acc)                                          \
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) \
    if (Catch::Section const& hipamp_test_section_ =                 \
            Catch::SectionInfo(CATCH_INTERNAL_LINEINFO, "on " + hipamp_test::name(acc)))
#else
#define PROBE_FOR_EACH(acc)                                          \
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) \
  DYNAMIC_SECTION("on " << hipamp_test::name(acc))
#endif

TEST_CASE("for_each_accelerator probe") {
  PROBE_FOR_EACH(acc) {
    std::vector<int> data(10, 1);
    hipamp::array_view<int, 1> view(10, data);
    hipamp::parallel_for_each(acc.get_default_view(), view.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) { view[i] += 1; });
    CHECK(view[0] == 2);
  }
}
