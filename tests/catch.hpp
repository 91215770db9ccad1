// Catch2 v2 (Debian 12) and v3 (the GPU machine) behind one include.
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#define HIPAMP_CATCH_V3 1
#else
#include <catch2/catch.hpp>
#define HIPAMP_CATCH_V3 0
#endif

// The substring matcher for REQUIRE_THROWS_WITH: v3 renamed Catch::Contains.
#if HIPAMP_CATCH_V3
#define HIPAMP_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#else
#define HIPAMP_CONTAINS(text) Catch::Contains(text)
#endif
