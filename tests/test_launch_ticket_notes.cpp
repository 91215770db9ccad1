// hipamp-test: host-only
// The launch fast path's notes (data_source's kernel ticket, issue 19), on a queue with launch
// markers as a GPU queue has: a launch that takes the fast path notes its marker in the ticket,
// not in the replica, and whoever takes the directory's lock next must find it there. Without a
// GPU, a stand-in device with separate memory and markers whose readiness the test sets shows
// which launch host access and other queues wait for.
#include <atomic>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include "stand_in_gpu.hpp"
#include "support.hpp"

namespace hx = hipamp;
namespace hd = hipamp::detail;

namespace {

class stand_in_queue;
using stand_in_device = hipamp_test::stand_in_device<stand_in_queue>;

// A launch's marker whose completion the test decides. A counted_marker, as every marker a
// queue's begin_launch returns: kernel tickets note it by address.
class test_marker final : public hd::counted_marker,
                          public std::enable_shared_from_this<test_marker> {
 public:
  bool is_ready() const override { return ready.load(); }
  void wait() const override { REQUIRE(ready.load()); }  // a wait that would block forever
  hd::event_ptr share() const override { return shared_from_this(); }
  std::atomic<bool> ready{false};
};

class stand_in_queue final : public hipamp_test::stand_in_queue_base {
 public:
  explicit stand_in_queue(stand_in_device& device, bool markers = true)
      : stand_in_queue_base(device), markers_(markers) {}
  // Records what this queue was ordered after (a stream would wait on the device).
  void wait_for(const hd::event_ptr& event) override {
    if (event) waited.push_back(event);
  }
  hd::event_ptr record() override { return hd::ready_event(); }
  // Every marker handed out stays alive for the rest of the process: a marker a kernel ticket
  // notes by address must outlive its notes, also past its queue (backend.hpp's counted_marker
  // contract, which the GPU queues' marker ring keeps; before, a new launch or the queue's
  // destruction freed markers a data source's ticket still noted: a use after free under
  // AddressSanitizer).
  hd::event_ptr begin_launch() override {
    if (!markers_) return nullptr;
    static std::vector<std::shared_ptr<test_marker>> handed_out;
    last_marker = std::make_shared<test_marker>();
    handed_out.push_back(last_marker);
    return last_marker;
  }
  std::shared_ptr<test_marker> last_marker;

 private:
  bool markers_;
};

stand_in_device& device() { return stand_in_device::get(); }

// What bind_and_run does around a kernel: bind copies of the views, complete.
template <class... Views>
void launch(stand_in_queue& queue, const Views&... views) {
  hd::launch_scope scope(queue);
  const std::tuple<const Views...> bound(views...);
  scope.close();
  scope.complete(nullptr);
}

bool waited_for(const stand_in_queue& queue, const hd::event_ptr& event) {
  for (const hd::event_ptr& e : queue.waited) {
    if (e == event) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("launches on the fast path leave their markers where host access finds them",
          "[coherence][launch_ticket]") {
  std::vector<int> data(1000, 1);
  stand_in_queue queue(device());
  {
    hx::array_view<int, 1> v(1000, data);
    const hd::footprint all = v.where();
    std::vector<std::shared_ptr<test_marker>> markers;
    for (int k = 0; k < 4; ++k) {  // the first binds on the slow path, the rest on the ticket
      launch(queue, v);
      markers.push_back(queue.last_marker);
    }
    // Only the last launch's marker is pending: host access must wait for exactly it.
    for (std::size_t k = 0; k + 1 < markers.size(); ++k) markers[k]->ready = true;
    const auto* source = v.source();
    auto* writable = const_cast<hd::data_source*>(source);
    CHECK_FALSE(writable->pending_writes(all)->is_ready());
    markers.back()->ready = true;
    CHECK(writable->pending_writes(all)->is_ready());

    // A read-only launch after the writes (fast path, a read note), then a write on another
    // queue: that queue must be ordered after the read's marker and the last write's.
    hx::array_view<const int, 1> reader(v);
    launch(queue, reader);
    const hd::event_ptr read_marker = queue.last_marker;
    launch(queue, reader);  // the ticket is still in use: a second read note replaces the first
    const hd::event_ptr second_read = queue.last_marker;
    stand_in_queue other(device());
    launch(other, v);
    CHECK(waited_for(other, second_read));
    CHECK(waited_for(other, markers.back()));
    CHECK_FALSE(waited_for(other, read_marker));  // replaced, on the same in-order queue
    other.last_marker->ready = true;
    static_cast<test_marker&>(const_cast<hd::event_impl&>(*second_read)).ready = true;
    static_cast<test_marker&>(const_cast<hd::event_impl&>(*read_marker)).ready = true;
    v.synchronize();
  }
  CHECK(data == std::vector<int>(1000, 1));
}

TEST_CASE("the fast path never serves a queue that lives where an old one did",
          "[coherence][launch_ticket]") {
  std::vector<int> data(64, 2);
  hx::array_view<int, 1> v(64, data);
  auto first = std::make_unique<stand_in_queue>(device());
  launch(*first, v);
  launch(*first, v);
  first->last_marker->ready = true;
  const std::uint64_t old_serial = first->serial();
  first.reset();
  // Whatever address the next queue gets, its serial is new, so it takes the slow path, which
  // orders it after the old queue's last write.
  auto second = std::make_unique<stand_in_queue>(device());
  CHECK(second->serial() != old_serial);
  launch(*second, v);
  CHECK(second->waited.size() == 1);
  second->last_marker->ready = true;
  v.synchronize();
}

// For ThreadSanitizer (the cpu-debug-tsan preset): two threads launch over one source on two
// queues, so the ticket passes between them, each taking it with the slow path and using it
// with the fast path, while a third thread reads the data on the host (which revokes it).
TEST_CASE("threads launching over one source on two queues share its ticket safely",
          "[coherence][launch_ticket][threads]") {
  std::vector<int> data(4096, 3);
  hx::array_view<int, 1> v(4096, data);
  const hx::array_view<const int, 1> reader(v);
  const hx::array_view<const int, 1> half = reader.section(0, 2048);
  hx::array_view<const int, 1> host_view(v);  // a view object of its own: host access writes it
  std::atomic<bool> failed{false};
  auto launcher = [&] {
    stand_in_queue queue(device(), false);  // events, not markers: complete_kernel's notes
    for (int k = 0; k < 2000; ++k) launch(queue, k % 2 == 0 ? reader : half);
  };
  std::thread a(launcher);
  std::thread b(launcher);
  std::thread host([&] {
    for (int k = 0; k < 200; ++k) {
      if (host_view[k] != 3) failed = true;
      host_view.synchronize();
    }
  });
  a.join();
  b.join();
  host.join();
  CHECK_FALSE(failed.load());
  CHECK(data == std::vector<int>(4096, 3));
}
