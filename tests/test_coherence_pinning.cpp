// Pinning the program's memory (data_source::pin_min_bytes): a large buffer that moves between
// the host and a device again and again is page-locked once, its later copies run directly
// (on a GPU: DMA without the staging ring), it is unpinned when its last view goes, and none
// of this changes a byte the program sees. Small buffers and buffers moved only in and out
// once are never pinned. On the CPU device nothing moves, so nothing is pinned.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "coherence_support.hpp"

namespace hx = hipamp;

namespace {

std::uint64_t pinned_buffers(const hx::accelerator& acc) {
  return hx::get_transfer_statistics(acc).pinned_buffers;
}

// One round of host change, kernel and read-back on a whole view: the host rewrites the
// data behind the view's back (refresh), a kernel maps every element, the host reads it.
// `host` is the view's memory; returns the number of elements that differ from the
// reference computed here on the host.
std::size_t round_trip(const hx::accelerator_view& av, hx::array_view<float, 1>& view,
                       std::vector<float>& host, float add) {
  for (std::size_t i = 0; i < host.size(); i += 4099) host[i] = static_cast<float>(i % 7);
  std::vector<float> want(host.size());
  std::transform(host.begin(), host.end(), want.begin(), [add](float x) { return 2.0f * x + add; });
  view.refresh();
  hx::parallel_for_each(av, view.extent,
                        [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = 2.0f * view[i] + add; });
  view.synchronize();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < host.size(); ++i) wrong += host[i] != want[i];
  return wrong;
}

}  // namespace

TEST_CASE("a large buffer moved again and again is pinned once, and its data stays right",
          "[coherence][pinning]") {
  for (const hx::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      hx::accelerator_view av = acc.get_default_view();
      const bool moves = hipamp_test::has_own_memory(acc);
      // Just over the threshold, and an odd element count.
      const std::size_t n = hx::detail::data_source::pin_min_bytes / sizeof(float) + 257;
      std::vector<float> host = hipamp_test::random_vector<float>(n, -8.0f, 8.0f);
      const std::uint64_t before = pinned_buffers(acc);
      {
        hx::array_view<float, 1> view(static_cast<int>(n), host);
        // In and out once: moved twice its size, not yet pinned.
        CHECK(round_trip(av, view, host, 1.0f) == 0);
        CHECK(pinned_buffers(acc) == before);
        // The third move pins it (on a device with its own memory).
        CHECK(round_trip(av, view, host, 2.0f) == 0);
        CHECK(pinned_buffers(acc) == before + (moves ? 1 : 0));
        if (moves) {
          CHECK(hx::get_transfer_statistics(acc).pinned_bytes >= n * sizeof(float));
        }
        CHECK(round_trip(av, view, host, 3.0f) == 0);
        CHECK(pinned_buffers(acc) == before + (moves ? 1 : 0));

        // Part of a pinned buffer: a section written on the device and read back alone.
        const int first = 1000003;
        const int count = 3000017;
        std::vector<float> want(host.begin() + first, host.begin() + first + count);
        for (float& x : want) x = x - 5.0f;
        hx::array_view<float, 1> part = view.section(first, count);
        hx::parallel_for_each(av, part.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { part[i] = part[i] - 5.0f; });
        part.synchronize();
        CHECK(std::equal(want.begin(), want.end(), host.begin() + first));
      }
      // The last view is gone: the memory was unpinned, so a new view over it pins again (on
      // a GPU a second registration of a range still registered fails, and this count stays).
      {
        hx::array_view<float, 1> view(static_cast<int>(n), host);
        for (int r = 0; r < 3; ++r) CHECK(round_trip(av, view, host, 1.0f + r) == 0);
        CHECK(pinned_buffers(acc) == before + (moves ? 2 : 0));
      }
    }
  }
}

TEST_CASE("small buffers are never pinned, however often they move", "[coherence][pinning]") {
  for (const hx::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      hx::accelerator_view av = acc.get_default_view();
      const std::size_t n = hx::detail::data_source::pin_min_bytes / sizeof(float) / 2;
      std::vector<float> host = hipamp_test::random_vector<float>(n, -8.0f, 8.0f);
      const std::uint64_t before = pinned_buffers(acc);
      hx::array_view<float, 1> view(static_cast<int>(n), host);
      for (int r = 0; r < 4; ++r) CHECK(round_trip(av, view, host, 0.5f * r) == 0);
      CHECK(pinned_buffers(acc) == before);
    }
  }
}
