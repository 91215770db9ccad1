// Kernel atomics under contention: many work-items hit few locations; the final values and
// the old values each operation returned are checked exactly against host arithmetic.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;
using hipamp_test::random_vector;

namespace {

constexpr int items = 1 << 15;
constexpr int slots = 8;

// True if `olds` (the values fetch_add(+1) returned, split by slot) is 0..count-1 per slot.
bool olds_are_a_permutation(const std::vector<int>& olds) {
  std::vector<std::vector<int>> per_slot(slots);
  for (int i = 0; i < items; ++i) per_slot[i % slots].push_back(olds[std::size_t(i)]);
  for (auto& seen : per_slot) {
    std::sort(seen.begin(), seen.end());
    for (std::size_t k = 0; k < seen.size(); ++k) {
      if (seen[k] != int(k)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("atomic_fetch_add/sub/inc/dec on int and unsigned are exact under contention",
          "[atomics]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    SECTION("fetch_add(+1) and fetch_inc hand out every count exactly once") {
      std::vector<int> counters(slots, 0), olds(items, -1);
      std::vector<unsigned> ucounters(slots, 0u);
      std::vector<int> uolds(items, -1);
      hx::array_view<int, 1> c(slots, counters), o(items, olds), uo(items, uolds);
      hx::array_view<unsigned, 1> uc(slots, ucounters);
      hx::parallel_for_each(av, hx::extent<1>(items), [=] HIPAMP_RESTRICT(hx::index<1> i) {
        o[i] = hx::atomic_fetch_add(&c[i[0] % slots], 1);
        uo[i] = static_cast<int>(hx::atomic_fetch_inc(&uc[i[0] % slots]));
      });
      c.synchronize();
      o.synchronize();
      uc.synchronize();
      uo.synchronize();
      CHECK(
          std::all_of(counters.begin(), counters.end(), [](int x) { return x == items / slots; }));
      CHECK(std::all_of(ucounters.begin(), ucounters.end(),
                        [](unsigned x) { return x == unsigned(items / slots); }));
      CHECK(olds_are_a_permutation(olds));
      CHECK(olds_are_a_permutation(uolds));
    }
    SECTION("fetch_sub and fetch_dec count down exactly") {
      const std::vector<int> amounts = random_vector<int>(items, -1000, 1000);
      std::vector<int> counters(slots, 12345);
      std::vector<unsigned> ucounters(slots, 4000000000u);
      std::vector<int> decs(slots, 0);
      hx::array_view<const int, 1> a(items, amounts);
      hx::array_view<int, 1> c(slots, counters), d(slots, decs);
      hx::array_view<unsigned, 1> uc(slots, ucounters);
      hx::parallel_for_each(av, a.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        hx::atomic_fetch_sub(&c[i[0] % slots], a[i]);
        hx::atomic_fetch_sub(&uc[i[0] % slots], static_cast<unsigned>(a[i] + 1000));
        hx::atomic_fetch_dec(&d[i[0] % slots]);
      });
      c.synchronize();
      uc.synchronize();
      d.synchronize();
      for (int s = 0; s < slots; ++s) {
        int expected = 12345;
        unsigned uexpected = 4000000000u;
        for (int i = s; i < items; i += slots) {
          expected -= amounts[std::size_t(i)];
          uexpected -= unsigned(amounts[std::size_t(i)] + 1000);
        }
        CHECK(counters[std::size_t(s)] == expected);
        CHECK(ucounters[std::size_t(s)] == uexpected);
        CHECK(decs[std::size_t(s)] == -items / slots);
      }
    }
  }
}

TEST_CASE("atomic_fetch_max/min/and/or/xor give the host's answer", "[atomics]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::vector<int> values = random_vector<int>(items, -2000000000, 2000000000);
    const std::vector<unsigned> bits = random_vector<unsigned>(items, 0u, 0xffffffffu);
    // [0] max, [1] min of the ints; unsigned [0] max [1] min [2] and [3] or [4] xor;
    // int [2] and [3] or [4] xor.
    std::vector<int> r(5);
    std::vector<unsigned> ur(5);
    r[0] = -2100000000;
    r[1] = 2100000000;
    r[2] = -1;
    r[3] = 0;
    r[4] = 0x5a5a5a5a;
    ur[0] = 0u;
    ur[1] = 0xffffffffu;
    ur[2] = 0xffffffffu;
    ur[3] = 0u;
    ur[4] = 0xa5a5a5a5u;
    std::vector<int> max_olds(items, 0);
    hx::array_view<const int, 1> v(items, values);
    hx::array_view<const unsigned, 1> b(items, bits);
    hx::array_view<int, 1> res(5, r), mo(items, max_olds);
    hx::array_view<unsigned, 1> ures(5, ur);
    hx::parallel_for_each(av, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
      mo[i] = hx::atomic_fetch_max(&res[0], v[i]);
      hx::atomic_fetch_min(&res[1], v[i]);
      hx::atomic_fetch_and(&res[2], static_cast<int>(b[i] | 0x80000001u));
      hx::atomic_fetch_or(&res[3], static_cast<int>(b[i] & 0x00ff00ffu));
      hx::atomic_fetch_xor(&res[4], v[i]);
      hx::atomic_fetch_max(&ures[0], b[i]);
      hx::atomic_fetch_min(&ures[1], b[i]);
      hx::atomic_fetch_and(&ures[2], b[i] | 0x0f0f0f0fu);
      hx::atomic_fetch_or(&ures[3], b[i] & 0x11111111u);
      hx::atomic_fetch_xor(&ures[4], b[i]);
    });
    res.synchronize();
    ures.synchronize();
    mo.synchronize();
    int max = -2100000000, min = 2100000000, and_ = -1, or_ = 0, xor_ = 0x5a5a5a5a;
    unsigned umax = 0, umin = 0xffffffffu, uand = 0xffffffffu, uor = 0, uxor = 0xa5a5a5a5u;
    for (int i = 0; i < items; ++i) {
      const int x = values[std::size_t(i)];
      const unsigned u = bits[std::size_t(i)];
      max = std::max(max, x);
      min = std::min(min, x);
      and_ &= static_cast<int>(u | 0x80000001u);
      or_ |= static_cast<int>(u & 0x00ff00ffu);
      xor_ ^= x;
      umax = std::max(umax, u);
      umin = std::min(umin, u);
      uand &= u | 0x0f0f0f0fu;
      uor |= u & 0x11111111u;
      uxor ^= u;
    }
    CHECK(r[0] == max);
    CHECK(r[1] == min);
    CHECK(r[2] == and_);
    CHECK(r[3] == or_);
    CHECK(r[4] == xor_);
    CHECK(ur[0] == umax);
    CHECK(ur[1] == umin);
    CHECK(ur[2] == uand);
    CHECK(ur[3] == uor);
    CHECK(ur[4] == uxor);
    // Every old value fetch_max returned was a running maximum, so none exceeds the final one.
    CHECK(std::all_of(max_olds.begin(), max_olds.end(), [&](int x) { return x <= max; }));
  }
}

TEST_CASE("atomic_exchange hands every value on exactly once", "[atomics]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    // Each work-item puts its id into one of few slots and keeps what it took out: the
    // values taken out plus what remains are exactly the initial values plus all ids.
    std::vector<int> islot(slots), iolds(items);
    std::vector<unsigned> uslot(slots), uolds(items);
    std::vector<float> fslot(slots), folds(items);
    for (int s = 0; s < slots; ++s) {
      islot[std::size_t(s)] = -1 - s;
      uslot[std::size_t(s)] = 1000000u + unsigned(s);
      fslot[std::size_t(s)] = -0.5f - float(s);
    }
    hx::array_view<int, 1> is(slots, islot), io(items, iolds);
    hx::array_view<unsigned, 1> us(slots, uslot), uo(items, uolds);
    hx::array_view<float, 1> fs(slots, fslot), fo(items, folds);
    hx::parallel_for_each(av, hx::extent<1>(items), [=] HIPAMP_RESTRICT(hx::index<1> i) {
      const int s = i[0] % slots;
      io[i] = hx::atomic_exchange(&is[s], i[0]);
      uo[i] = hx::atomic_exchange(&us[s], static_cast<unsigned>(i[0]));
      fo[i] = hx::atomic_exchange(&fs[s], static_cast<float>(i[0]) + 0.25f);
    });
    is.synchronize();
    io.synchronize();
    us.synchronize();
    uo.synchronize();
    fs.synchronize();
    fo.synchronize();
    std::vector<double> ids(items), out_i, out_u, out_f;
    std::iota(ids.begin(), ids.end(), 0.0);
    for (int s = 0; s < slots; ++s) {
      std::vector<double> expected_i{-1.0 - s}, expected_u{1000000.0 + s}, expected_f{-0.5 - s};
      std::vector<double> got_i{double(islot[std::size_t(s)])},
          got_u{double(uslot[std::size_t(s)])}, got_f{double(fslot[std::size_t(s)])};
      for (int i = s; i < items; i += slots) {
        expected_i.push_back(i);
        expected_u.push_back(i);
        expected_f.push_back(i + 0.25);
        got_i.push_back(iolds[std::size_t(i)]);
        got_u.push_back(uolds[std::size_t(i)]);
        got_f.push_back(folds[std::size_t(i)]);
      }
      for (auto* v : {&expected_i, &expected_u, &expected_f, &got_i, &got_u, &got_f}) {
        std::sort(v->begin(), v->end());
      }
      CHECK(got_i == expected_i);
      CHECK(got_u == expected_u);
      CHECK(got_f == expected_f);
    }
  }
}

TEST_CASE("atomic_compare_exchange: one winner per slot, and exact CAS-loop sums", "[atomics]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::vector<int> amounts = random_vector<int>(items, -100000, 100000);
    std::vector<int> owner(slots, -1), won(items, -1), seen(items, -2), sums(slots, 0);
    std::vector<unsigned> usums(slots, 0u);
    hx::array_view<const int, 1> a(items, amounts);
    hx::array_view<int, 1> ow(slots, owner), w(items, won), se(items, seen), su(slots, sums);
    hx::array_view<unsigned, 1> us(slots, usums);
    hx::parallel_for_each(av, a.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
      const int s = i[0] % slots;
      int expected = -1;
      w[i] = hx::atomic_compare_exchange(&ow[s], &expected, i[0]) ? 1 : 0;
      se[i] = expected;
      int old = su[s];
      while (!hx::atomic_compare_exchange(&su[s], &old, old + a[i])) {
      }
      unsigned uold = us[s];
      while (!hx::atomic_compare_exchange(&us[s], &uold, uold + static_cast<unsigned>(a[i]) * 3u)) {
      }
    });
    ow.synchronize();
    w.synchronize();
    se.synchronize();
    su.synchronize();
    us.synchronize();
    for (int s = 0; s < slots; ++s) {
      int winners = 0, sum = 0;
      unsigned usum = 0;
      bool losers_saw_winner = true;
      for (int i = s; i < items; i += slots) {
        winners += won[std::size_t(i)];
        if (!won[std::size_t(i)] && seen[std::size_t(i)] != owner[std::size_t(s)]) {
          losers_saw_winner = false;
        }
        sum += amounts[std::size_t(i)];
        usum += unsigned(amounts[std::size_t(i)]) * 3u;
      }
      CHECK(winners == 1);
      CHECK(owner[std::size_t(s)] % slots == s);
      CHECK(won[std::size_t(owner[std::size_t(s)])] == 1);
      CHECK(seen[std::size_t(owner[std::size_t(s)])] == -1);
      CHECK(losers_saw_winner);
      CHECK(sums[std::size_t(s)] == sum);
      CHECK(usums[std::size_t(s)] == usum);
    }
  }
}

TEST_CASE("float atomic_fetch_add/sub (hipamp extension) are exact on integral values",
          "[atomics]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<int> amounts = random_vector<int>(items, -64, 64);
    std::vector<float> sums(slots, 0.5f), diffs(slots, 1000.0f);
    hx::array_view<const int, 1> a(items, amounts);
    hx::array_view<float, 1> su(slots, sums), di(slots, diffs);
    hx::parallel_for_each(acc.get_default_view(), a.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
      hx::atomic_fetch_add(&su[i[0] % slots], static_cast<float>(a[i]));
      hx::atomic_fetch_sub(&di[i[0] % slots], static_cast<float>(a[i]) * 2.0f);
    });
    su.synchronize();
    di.synchronize();
    for (int s = 0; s < slots; ++s) {
      double sum = 0.5, diff = 1000.0;  // all partial sums are exact in float (< 2^24)
      for (int i = s; i < items; i += slots) {
        sum += amounts[std::size_t(i)];
        diff -= 2.0 * amounts[std::size_t(i)];
      }
      CHECK(double(sums[std::size_t(s)]) == sum);
      CHECK(double(diffs[std::size_t(s)]) == diff);
    }
  }
}

TEST_CASE("atomics on tile_static memory inside a tiled kernel", "[atomics][tiled]") {
  // A per-tile histogram in tile_static memory, merged into the global one after a barrier.
  constexpr int width = 256, bins = 16;
  const int n = width * 40;
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<int> data = random_vector<int>(std::size_t(n), 0, bins - 1);
    std::vector<unsigned> histogram(bins, 0u);
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<unsigned, 1> h(bins, histogram);
    hx::parallel_for_each(acc.get_default_view(), in.extent.tile<width>(),
                          [=] HIPAMP_RESTRICT(hx::tiled_index<width> t) {
                            HIPAMP_TILE_STATIC unsigned local[bins];
                            if (t.local[0] < bins) local[t.local[0]] = 0u;
                            t.barrier.wait();
                            hx::atomic_fetch_inc(&local[in[t.global]]);
                            t.barrier.wait();
                            if (t.local[0] < bins) {
                              hx::atomic_fetch_add(&h[t.local[0]], local[t.local[0]]);
                            }
                          });
    h.synchronize();
    std::vector<unsigned> expected(bins, 0u);
    for (int x : data) ++expected[std::size_t(x)];
    CHECK(histogram == expected);
  }
}
