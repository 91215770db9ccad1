// Arrays live on their accelerator; copies into, out of and between arrays take the shortest
// route: one host-to-device copy in, one device-to-host copy out, device to device between
// arrays on one device or on two devices with peer access, through the host otherwise.
#include <vector>

#include "coherence_support.hpp"

using hipamp::array;
using hipamp::array_view;
namespace hx = hipamp;

TEST_CASE("copies into, between and out of arrays on one accelerator", "[coherence][array]") {
  // A plain loop, not FOR_EACH_ACCELERATOR: nvcc 13 with Catch2 v3 fails (internal error in
  // unlink_src_seq_entries) on extended lambdas inside a section opened by a nested macro.
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      const int n = 123457;
      const std::uint64_t bytes = sizeof(int) * static_cast<std::uint64_t>(n);
      const std::vector<int> source = hipamp_test::random_vector<int>(n, -1000000, 1000000);
      std::vector<int> back(n, -1);
      hx::accelerator_view av = acc.get_default_view();
      hipamp_test::transfer_meter meter(acc);

      array<int, 1> first(n, av);
      hx::copy(source.begin(), source.end(), first);  // through the array's host view
      array<int, 1> second(n, av);
      hx::copy(first, second);
      array_view<int, 1> second_view(second);
      hx::parallel_for_each(av, second_view.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        second_view[i] = second_view[i] + i[0];
      });
      array<int, 1> third(n, av);
      hx::copy(second, third);
      array_view<int, 1> back_view(n, back);
      hx::copy(third, back_view);
      back_view.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) bad += back[i] != source[i] + i;
      CHECK(bad == 0);
      // The iterator copy fills the array's host storage, which moves in once when `first` is
      // copied to `second`; `second` to `third` stays on the device; `third` goes straight into
      // the user's memory.
      CHECK_MOVES(acc, meter, hipamp_test::moves().h2d(1, bytes).d2d(1, bytes).d2h(1, bytes));

      // A view of user memory copied into an array moves once, straight to the device.
      const std::vector<int> more = hipamp_test::random_vector<int>(n, -5, 5);
      hipamp_test::transfer_meter meter2(acc);
      array_view<const int, 1> more_view(n, more);
      hx::copy(more_view, first);
      std::vector<int> check = first;  // array -> std::vector conversion reads it back
      CHECK(check == more);
      CHECK_MOVES(acc, meter2, hipamp_test::moves().h2d(1, bytes).d2h(1, bytes));
    }
  }
}

TEST_CASE("arrays copy between accelerators", "[coherence][array]") {
  const std::vector<hx::accelerator> all = hipamp_test::accelerators();
  for (const hx::accelerator& from : all) {
    for (const hx::accelerator& to : all) {
      if (from == to) continue;
      DYNAMIC_SECTION("from " << hipamp_test::name(from) << " to " << hipamp_test::name(to)) {
        const int n = 77777;
        const std::uint64_t bytes = sizeof(float) * static_cast<std::uint64_t>(n);
        const std::vector<float> data = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
        array<float, 1> a(n, from.get_default_view());
        array_view<float, 1> av_a(a);
        array_view<const float, 1> in(n, data);
        hx::parallel_for_each(from.get_default_view(), av_a.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { av_a[i] = in[i] * 0.5f; });
        array<float, 1> b(n, to.get_default_view());
        hipamp_test::transfer_meter out_meter(from);
        hipamp_test::transfer_meter in_meter(to);
        hx::copy(a, b);
        // Peer copies between GPUs (or emulated devices) that allow them; the host otherwise.
        if (to.can_copy_directly_from(from)) {
          CHECK_MOVES(from, out_meter, hipamp_test::moves());
          CHECK_MOVES(to, in_meter, hipamp_test::moves().d2d(1, bytes));
        } else {
          CHECK_MOVES(from, out_meter, hipamp_test::moves().d2h(1, bytes));
          CHECK_MOVES(to, in_meter, hipamp_test::moves().h2d(1, bytes));
        }
        std::vector<float> result(n, -9.0f);
        array_view<float, 1> out(n, result);
        array_view<const float, 1> bv(b);
        out.discard_data();
        hx::parallel_for_each(to.get_default_view(), out.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { out[i] = bv[i] + 1.0f; });
        out.synchronize();
        std::size_t bad = 0;
        for (int i = 0; i < n; ++i) bad += result[i] != data[i] * 0.5f + 1.0f;
        CHECK(bad == 0);
      }
    }
  }
}
