// The reference count of a data source, biased to the thread that made it (issue 19): copies
// and destructions on that thread are plain stores; the first on any other thread demotes the
// count to a shared atomic one. These tests check that the count stays exact across the
// demotion, that the last view still writes its data back wherever it dies, and that launches
// leave the count biased (so the call site pays no locked instruction). Every expectation
// holds in both modes: HIPAMP_BIASED_REFS=0 (ctest's biased_refs_off) starts sources shared.
#include <atomic>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;

namespace biased_refs_test {

bool biased(const hx::array_view<int, 1>& v) { return v.source()->biased_to_this_thread(); }

// The count a fresh view over `data` starts with: 1 unless an older source over it still lives.
int fresh_count(std::vector<int>& data) {
  const hx::array_view<int, 1> probe(static_cast<int>(data.size()), data);
  return probe.source()->use_count();
}

}  // namespace biased_refs_test

TEST_CASE("copies on the creating thread keep the count biased and exact", "[biased_refs]") {
  using namespace biased_refs_test;
  std::vector<int> data = hipamp_test::random_vector<int>(1000, -100, 100);
  const hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
  CHECK(biased(view) == hx::detail::data_source::biasing_enabled());
  CHECK(view.source()->use_count() == 1);
  {
    std::vector<hx::array_view<int, 1>> copies(37, view);
    CHECK(view.source()->use_count() == 38);
    copies.erase(copies.begin() + 5, copies.end());
    CHECK(view.source()->use_count() == 6);
  }
  CHECK(view.source()->use_count() == 1);
  CHECK(biased(view) == hx::detail::data_source::biasing_enabled());
}

TEST_CASE("launches leave the launching thread's count biased", "[biased_refs]") {
  using namespace biased_refs_test;
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> data = hipamp_test::random_vector<int>(4096, -1000, 1000);
    std::vector<int> expected = data;
    for (int& x : expected) x = 3 * x + 7;
    {
      hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
      hx::array<int, 1> scratch(view.extent, acc.get_default_view());
      hx::array_view<int, 1> scratch_view(scratch);
      for (int round = 0; round < 3; ++round) {
        hx::parallel_for_each(acc.get_default_view(), view.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { scratch_view[i] = round; });
      }
      hx::parallel_for_each(
          acc.get_default_view(), view.extent,
          [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = 3 * view[i] + 7 + scratch_view[i] - 2; });
      acc.get_default_view().wait();
      CHECK(view.source()->use_count() == 1);
      CHECK(scratch_view.source()->use_count() == 2);  // the array holds one
      CHECK(biased(view) == hx::detail::data_source::biasing_enabled());
      CHECK(biased(scratch_view) == hx::detail::data_source::biasing_enabled());
    }
    // The last view died on this thread: the data is back in the vector.
    CHECK(data == expected);
    CHECK(fresh_count(data) == 1);
  }
}

TEST_CASE("the last view, released on another thread, writes the data back", "[biased_refs]") {
  using namespace biased_refs_test;
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> data = hipamp_test::random_vector<int>(2048, -1000, 1000);
    std::vector<int> expected = data;
    for (int& x : expected) x = x * x - 5;
    std::promise<void> main_released;
    std::future<void> go = main_released.get_future();
    std::thread holder;
    {
      hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
      hx::parallel_for_each(
          acc.get_default_view(), view.extent,
          [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = view[i] * view[i] - 5; });
      // The thread's copy is made here, on the owner; the thread drops it after the owner
      // dropped its own, so the other thread's release is the last one.
      holder = std::thread([copy = view, &go]() mutable {
        go.wait();
        std::optional<hx::array_view<int, 1>> last(std::move(copy));
        last.reset();
      });
    }
    main_released.set_value();
    holder.join();
    CHECK(data == expected);
    CHECK(fresh_count(data) == 1);
  }
}

TEST_CASE("a count biased to a thread that has exited is demoted by the next user",
          "[biased_refs]") {
  using namespace biased_refs_test;
  std::vector<int> data = hipamp_test::random_vector<int>(512, -50, 50);
  std::vector<int> expected = data;
  for (int& x : expected) x += 11;
  std::optional<hx::array_view<int, 1>> kept;
  std::thread maker([&] {
    hx::array_view<int, 1> made(static_cast<int>(data.size()), data);
    kept.emplace(made);  // copied on the maker, the owner
  });
  maker.join();
  CHECK(kept->source()->use_count() == 1);
  CHECK_FALSE(biased(*kept));
  {
    std::vector<hx::array_view<int, 1>> copies(9, *kept);
    CHECK(kept->source()->use_count() == 10);
    const hx::array_view<int, 1> v = copies.back();
    hx::parallel_for_each(v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] += 11; });
  }
  CHECK(kept->source()->use_count() == 1);
  kept.reset();
  CHECK(data == expected);
  CHECK(fresh_count(data) == 1);
}

TEST_CASE("threads copying, dropping and re-creating views of one source keep the count exact",
          "[biased_refs]") {
  using namespace biased_refs_test;
  static constexpr int threads = 4;
  static constexpr int slice = 256;
  constexpr int rounds = 3000;
  std::vector<int> data = hipamp_test::random_vector<int>(threads * slice, -1000, 1000);
  std::vector<int> expected = data;
  for (int t = 0; t < threads; ++t) {
    for (int k = 0; k < slice; ++k) expected[t * slice + k] += t + 1;
  }
  {
    const hx::array_view<int, 1> view(static_cast<int>(data.size()), data);
    std::atomic<bool> start{false};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([view, t, &start, &data] {  // a copy made on the owner
        while (!start.load()) std::this_thread::yield();
        std::vector<hx::array_view<int, 1>> held;
        for (int r = 0; r < rounds; ++r) {
          held.push_back(view);                            // copies on this thread
          if (r % 7 == 0) held.emplace_back(slice, data);  // a new view: the registry's lookup
          if (held.size() > 5) held.erase(held.begin(), held.begin() + 3);
        }
        held.clear();
        const hx::array_view<int, 1> mine = view.section(t * slice, slice);
        for (int k = 0; k < slice; ++k) mine[k] += t + 1;
      });
    }
    start.store(true);
    std::vector<hx::array_view<int, 1>> owner_copies;
    for (int r = 0; r < rounds; ++r) {  // the owner copies meanwhile, biased or not
      owner_copies.push_back(view);
      if (owner_copies.size() > 4)
        owner_copies.erase(owner_copies.begin(), owner_copies.begin() + 2);
    }
    owner_copies.clear();
    for (std::thread& w : workers) w.join();
    CHECK(view.source()->use_count() == 1);
    CHECK_FALSE(biased(view));
  }
  CHECK(data == expected);
  CHECK(fresh_count(data) == 1);
}

TEST_CASE("the owner dropping its last view while another thread looks the source up",
          "[biased_refs]") {
  using namespace biased_refs_test;
  constexpr int n = 128;
  std::vector<int> data(n, 0);
  std::atomic<bool> stop{false};
  std::atomic<int> lookups{0};
  std::thread other([&] {  // only makes and drops views: no element access, no data race
    while (!stop.load()) {
      const hx::array_view<const int, 1> v(n, data);
      lookups.fetch_add(v.source()->use_count() > 0 ? 1 : 0);
    }
  });
  for (int r = 1; r <= 20000; ++r) {
    // Each round the owner's view may be the only one (its release unregisters the source) or
    // share the other thread's (its lookup revived it).
    const hx::array_view<int, 1> v(n, data);
    v[r % (n - 1)] = r;
    v[n - 1] = r;
  }
  stop.store(true);
  other.join();
  CHECK(lookups.load() > 0);
  CHECK(data[n - 1] == 20000);
  for (int k = 0; k < n - 1; ++k) CHECK(data[k] == 20000 - (20000 % (n - 1) + n - 1 - k) % (n - 1));
  CHECK(fresh_count(data) == 1);
}
