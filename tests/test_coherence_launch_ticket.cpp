// The launch fast path (data_source's kernel ticket, issue 19): after one launch has made a
// view's bytes valid on a device, later launches of the same views skip the directory's slow
// path. Every way the program can change what the ticket certified must still be seen by the
// next launch: a host write between launches, another view of the same data, discard_data,
// refresh, synchronize, copy, and a second accelerator_view. Each case runs a few launches
// first (so the ticket is in use), then the change, then more launches, and compares with a
// host reference computed alongside; on devices with their own memory it also checks that
// the steady-state launches moved nothing.
#include <numeric>
#include <vector>

#include "coherence_support.hpp"

using hipamp::array_view;
namespace hx = hipamp;

namespace {

constexpr int n = 4099;  // not a multiple of any block size
constexpr int steady_launches = 3;

// v[i] += k on the device, and on the host reference.
void add(const hx::accelerator_view& av, const array_view<int, 1>& v, int k) {
  hx::parallel_for_each(av, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] += k; });
}
void add(std::vector<int>& ref, int k) {
  for (int& x : ref) x += k;
}

std::vector<int> iota_vector() {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), -17);
  return v;
}

}  // namespace

TEST_CASE("repeated launches see host writes, discard_data, refresh and synchronize",
          "[coherence][launch_ticket]") {
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      const std::uint64_t bytes = sizeof(int) * static_cast<std::uint64_t>(n);
      const hx::accelerator_view av = acc.get_default_view();
      std::vector<int> data = iota_vector();
      std::vector<int> ref = data;
      array_view<int, 1> v(n, data);

      // The first launch copies in; the rest of a loop moves nothing.
      hipamp_test::transfer_meter meter(acc);
      for (int k = 1; k <= steady_launches; ++k) {
        add(av, v, k);
        add(ref, k);
      }
      CHECK_MOVES(acc, meter, hipamp_test::moves().h2d(1, bytes));

      // A host write through the view between launches: the next launch sees it.
      v[7] = 1000;
      ref[7] = 1000;
      v(n - 1) = -5;
      ref[n - 1] = -5;
      for (int k = 0; k < steady_launches; ++k) {
        add(av, v, 2);
        add(ref, 2);
      }
      v.synchronize();
      CHECK(data == ref);

      // synchronize between launches, then the host reads through the vector itself.
      add(av, v, 3);
      add(ref, 3);
      v.synchronize();
      CHECK(data == ref);
      add(av, v, 4);
      add(ref, 4);
      v.synchronize();
      CHECK(data == ref);

      // The host changes the vector behind the view; refresh says so.
      for (int& x : data) x = x * 2 - 1;
      ref = data;
      v.refresh();
      for (int k = 0; k < steady_launches; ++k) {
        add(av, v, 5);
        add(ref, 5);
      }
      v.synchronize();
      CHECK(data == ref);

      // discard_data: the next kernel overwrites everything, nothing may come in.
      hipamp_test::transfer_meter after_discard(acc);
      v.discard_data();
      hx::parallel_for_each(av, v.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = 3 * i[0] + 1; });
      for (int i = 0; i < n; ++i) ref[i] = 3 * i + 1;
      for (int k = 0; k < steady_launches; ++k) {
        add(av, v, 6);
        add(ref, 6);
      }
      v.synchronize();
      CHECK(data == ref);
      CHECK_MOVES(acc, after_discard, hipamp_test::moves().d2h(1, bytes));
    }
  }
}

TEST_CASE("repeated launches see other views of the same data and copies into it",
          "[coherence][launch_ticket]") {
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      const hx::accelerator_view av = acc.get_default_view();
      std::vector<int> data = iota_vector();
      std::vector<int> ref = data;
      array_view<int, 1> v(n, data);
      for (int k = 1; k <= steady_launches; ++k) {
        add(av, v, k);
        add(ref, k);
      }

      // A second view made separately over the same vector, and a section of it: one source.
      array_view<int, 1> again(n, data);
      array_view<int, 1> part = again.section(100, 1000);
      for (int k = 0; k < steady_launches; ++k) {
        add(av, part, 10);
        for (int i = 100; i < 1100; ++i) ref[i] += 10;
        add(av, v, 1);
        add(ref, 1);
      }
      // A read-only view of the same data in the same kernel as a writable one.
      array_view<const int, 1> reader(v);
      array_view<int, 1> shifted = v.section(1, n - 1);
      std::vector<int> expect = ref;
      for (int i = 1; i < n; ++i) expect[i] = ref[i] + (i % 3);
      hx::parallel_for_each(av, shifted.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        shifted[i] = reader[i + 1] + (i[0] + 1) % 3;
      });
      ref = expect;
      // A host write through the other view between launches.
      again[2000] = 77;
      ref[2000] = 77;
      add(av, v, 1);
      add(ref, 1);
      v.synchronize();
      CHECK(data == ref);

      // copy into the data from another view, between launches.
      std::vector<int> other = iota_vector();
      for (int& x : other) x = -x;
      array_view<int, 1> source(n, other);
      add(av, source, 1);  // the copy's source lives on the device too
      for (int& x : other) x += 1;
      for (int k = 0; k < steady_launches; ++k) {
        add(av, v, 2);
        add(ref, 2);
      }
      source.section(0, 500).copy_to(v.section(300, 500));
      for (int i = 0; i < 500; ++i) ref[300 + i] = other[i];
      for (int k = 0; k < steady_launches; ++k) {
        add(av, v, 3);
        add(ref, 3);
      }
      v.synchronize();
      CHECK(data == ref);
    }
  }
}

TEST_CASE("repeated launches alternate between two accelerator_views of one accelerator",
          "[coherence][launch_ticket]") {
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      const hx::accelerator_view first = acc.get_default_view();
      const hx::accelerator_view second = acc.create_view();
      std::vector<int> data = iota_vector();
      std::vector<int> ref = data;
      array_view<int, 1> v(n, data);
      array_view<const int, 1> reader(v);
      std::vector<int> copy(n, -1);
      array_view<int, 1> out(n, copy);
      for (int round = 0; round < 4; ++round) {
        // Writes on one view, reads on the other: each must wait for the other's work.
        for (int k = 0; k < steady_launches; ++k) {
          add(first, v, round + 1);
          add(ref, round + 1);
        }
        out.discard_data();
        hx::parallel_for_each(second, out.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { out[i] = reader[i] * 2; });
        for (int k = 0; k < steady_launches; ++k) {
          add(second, v, 1);
          add(ref, 1);
        }
        out.synchronize();
        std::size_t wrong = 0;
        for (int i = 0; i < n; ++i) wrong += copy[i] != (ref[i] - steady_launches) * 2;
        CHECK(wrong == 0);
      }
      v.synchronize();
      CHECK(data == ref);
    }
  }
}

// The CPU devices' fast path (data_source's host-sole mark, issue 19): after a CPU launch, later
// CPU launches of the same views bind without the directory's lock while host memory holds
// every byte. Work on a device with its own memory (the emulated discrete device, a GPU) in
// between must end that: the next CPU launch has to see what the device wrote, and the device
// what the CPU wrote. On a machine with only host-memory devices there is nothing to alternate.
TEST_CASE("CPU launches see another device's writes between them", "[coherence][launch_ticket]") {
  const hx::accelerator_view cpu =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    if (!hipamp_test::has_own_memory(acc)) continue;
    DYNAMIC_SECTION("with " << hipamp_test::name(acc)) {
      const hx::accelerator_view other = acc.get_default_view();
      std::vector<int> data = iota_vector();
      std::vector<int> ref = data;
      array_view<int, 1> v(n, data);
      std::vector<int> copy(n, -1);
      array_view<int, 1> out(n, copy);
      array_view<const int, 1> reader(v);
      for (int round = 0; round < 3; ++round) {
        for (int k = 0; k < steady_launches; ++k) {
          add(cpu, v, 1);
          add(ref, 1);
        }
        // The device writes; the CPU then reads and writes again.
        add(other, v, 10 * (round + 1));
        add(ref, 10 * (round + 1));
        hx::parallel_for_each(cpu, out.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { out[i] = reader[i] * 3; });
        add(cpu, v, 2);
        add(ref, 2);
        out.synchronize();
        std::size_t wrong = 0;
        for (int i = 0; i < n; ++i) wrong += copy[i] != (ref[i] - 2) * 3;
        CHECK(wrong == 0);
      }
      v.synchronize();
      CHECK(data == ref);
    }
  }
}
