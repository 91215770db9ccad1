// The test runner. It lists the accelerators the suite will run on before the tests start,
// so every log says which devices were covered.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdio>

#include "support.hpp"

int main(int argc, char* argv[]) {
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    std::printf("hipamp tests on: %s\n", hipamp_test::name(acc).c_str());
  }
  return Catch::Session().run(argc, argv);
}
