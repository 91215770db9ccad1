// The consumer's kernel source, seen from its host-compiled main.cpp.
#pragma once

#include <vector>

#include <hipamp/accelerator.hpp>

namespace consumer {

// Squares every element with parallel_for_each on the auto-selected accelerator (C++ AMP's
// default: the best GPU when the package has one) and synchronizes.
void square_auto(std::vector<int>& data);

// The same on the given accelerator_view.
void square_on(const hipamp::accelerator_view& av, std::vector<int>& data);

}  // namespace consumer
