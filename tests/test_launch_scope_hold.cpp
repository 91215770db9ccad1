// hipamp-test: host-only
// launch_scope::hold (issue 19): a view copied for a launch from the launch's own argument, which
// owns a reference and outlives the launch, takes no reference of the scope's; a view copied
// from anything else (a temporary, another object) is still kept alive by the scope.
#include <vector>

#include "support.hpp"

namespace hx = hipamp;
namespace hd = hipamp::detail;

namespace {

// A kernel whose copy made for the launch (the one copy made while the scope is open) records
// how many references its view's source has right after the view bound.
struct counting_kernel {
  hx::array_view<int, 1> view;
  int* seen;
  counting_kernel(const hx::array_view<int, 1>& v, int* s) : view(v), seen(s) {}
  counting_kernel(const counting_kernel& other) : view(other.view), seen(other.seen) {
    if (hd::launch_scope::current() != nullptr) *seen = view.source()->use_count();
  }
  counting_kernel& operator=(const counting_kernel&) = delete;
  ~counting_kernel() = default;
  void operator()(hx::index<1> i) const { view[i] += 1; }
};

// A view copied inside the scope from a temporary (not the launch's argument): records the
// references right after the copy bound, while the temporary still holds its own.
hx::array_view<int, 1> copy_of_temporary(std::vector<int>& data, int* seen) {
  const hx::array_view<int, 1> temporary(static_cast<int>(data.size()), data);
  // The copy is the point: it binds inside the scope.
  hx::array_view<int, 1> copy(temporary);  // NOLINT(performance-unnecessary-copy-initialization)
  *seen = copy.source()->use_count();
  return copy;
}

// A kernel whose launch copy views other memory than the original does, through a temporary.
struct rebinding_kernel {
  hx::array_view<int, 1> view;
  std::vector<int>* other;
  int* seen;
  rebinding_kernel(const hx::array_view<int, 1>& v, std::vector<int>* o, int* s)
      : view(v), other(o), seen(s) {}
  rebinding_kernel(const rebinding_kernel& from)
      : view(hd::launch_scope::current() != nullptr ? copy_of_temporary(*from.other, from.seen)
                                                    : from.view),
        other(from.other),
        seen(from.seen) {}
  rebinding_kernel& operator=(const rebinding_kernel&) = delete;
  ~rebinding_kernel() = default;
  void operator()(hx::index<1> i) const { view[i] += 10; }
};

}  // namespace

TEST_CASE("a view copied from the launch's argument takes no reference of the launch's",
          "[launch_scope]") {
  std::vector<int> data(64, 1);
  const hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
  int seen = -1;
  const counting_kernel launched(view, &seen);
  const int before = view.source()->use_count();  // `view` and the kernel's copy
  REQUIRE(before == 2);
  hx::parallel_for_each(view.get_extent(), launched);
  // The launch's copy owns none and the scope took none: the argument's keeps the source.
  CHECK(seen == before);
  CHECK(view.source()->use_count() == before);
  view.synchronize();
  CHECK(data[0] == 2);
  CHECK(data[63] == 2);
}

TEST_CASE("a view copied from a temporary inside a launch is kept alive by the launch",
          "[launch_scope]") {
  std::vector<int> data(64, 1);
  std::vector<int> other(64, 1);
  const hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
  // Shares the temporary's source (same memory), so the count is readable after it is gone.
  const hx::array_view<int, 1> keep(static_cast<int>(other.size()), other);
  int seen = -1;
  const rebinding_kernel launched(view, &other, &seen);
  const int before = keep.source()->use_count();
  hx::parallel_for_each(view.get_extent(), launched);
  // `keep`, the temporary and the scope's own reference (the bound copy owns none).
  CHECK(seen == before + 2);
  CHECK(keep.source()->use_count() == before);
  keep.synchronize();
  view.synchronize();
  CHECK(other[0] == 11);
  CHECK(other[63] == 11);
  CHECK(data[0] == 1);
}
