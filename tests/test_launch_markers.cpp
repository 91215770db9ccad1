// hipamp-test: host-only
// Recycled launch markers (detail/launch_markers.hpp, the code a GPU queue runs) and the launch
// scope's reuse of a repeated bind (issue 19), without a GPU: a stand-in queue whose "stream"
// counts the work that entered it, so a marker's recorded event is a position in the stream
// that the tests compare with where its launch's work ended.
//
// What must hold: a marker is handed out again only when nobody holds it, so no waiter of an
// earlier launch ever ends up waiting for a later one and a later launch never inherits an
// earlier one's event; a marker is recorded exactly at the end of its launch's work (never
// before it); a loop of launches reuses two markers and records nothing.
#include <atomic>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include <hipamp/detail/launch_markers.hpp>

#include "stand_in_gpu.hpp"
#include "support.hpp"

namespace hx = hipamp;
namespace hd = hipamp::detail;

namespace {

// The stream: `position` counts work items queued so far; recording an event returns it.
// Atomic, as a stream is thread-safe: another thread's host access may record a marker.
struct markers_counting_stream {
  using handle = long;
  std::shared_ptr<std::atomic<long>> position = std::make_shared<std::atomic<long>>(0);
  std::shared_ptr<std::atomic<int>> records = std::make_shared<std::atomic<int>>(0);
  handle record() {
    ++*records;
    return *position;
  }
  void release(handle) noexcept {}
  static bool ready(handle) { return true; }
  static void wait(handle) {}
};
using markers_t = hd::launch_markers<markers_counting_stream>;

class markers_test_queue;
using markers_test_device = hipamp_test::stand_in_device<markers_test_queue>;

// gpu_queue's use of its markers: settle before any work enters the stream, markers from
// begin_launch/end_launch. Waits record what the queue was ordered after.
class markers_test_queue final : public hipamp_test::stand_in_queue_base {
 public:
  explicit markers_test_queue(markers_test_device& device, bool markers = true)
      : stand_in_queue_base(device),
        markers_(markers ? std::make_shared<markers_t>(stream_) : nullptr) {}
  ~markers_test_queue() override {
    if (markers_) markers_->shutdown();
  }
  // A launching queue records what it was ordered after; the directory's read-back queue
  // waits (and keeps nothing, so it holds no marker).
  void wait_for(const hd::event_ptr& event) override {
    if (!event) return;
    if (!markers_) {
      event->wait();
      return;
    }
    settle();
    waited.push_back(event);
  }
  hd::event_ptr record() override {
    settle();
    return hd::ready_event();
  }
  hd::event_ptr begin_launch() override { return markers_ ? markers_->begin() : nullptr; }
  void end_launch(const hd::event_ptr& marker) override { markers_->end(marker); }
  void resolve_launch(const hd::event_ptr& marker, const hd::event_ptr& done) override {
    markers_t::resolve(marker, done);
  }

  // A kernel entering the stream (prepare_launch settles first, as on a GPU).
  void enqueue() {
    settle();
    ++*stream_.position;
  }
  void settle() {
    if (markers_) markers_->settle();
  }
  long position() const { return *stream_.position; }
  int records() const { return *stream_.records; }
  const markers_t* ring() const { return markers_.get(); }
  // The stream's counter, which the ring's copy of the stream shares: alive while the ring is.
  std::weak_ptr<std::atomic<long>> stream_position() const { return stream_.position; }
  std::size_t ring_size() const { return markers_->size(); }

 private:
  void on_copy() override { enqueue(); }

  markers_counting_stream stream_;
  std::shared_ptr<markers_t> markers_;
};

markers_test_device& markers_device() { return markers_test_device::get(); }

// bind_and_run around one kernel: bind copies of the views, queue the kernel (body(bound
// views...) stands for what it does to device memory), complete.
template <class Body, class... Views>
void markers_launch_with(markers_test_queue& queue, const Body& body, const Views&... views) {
  hd::launch_scope scope(queue);
  const std::tuple<const Views...> bound(views...);
  scope.close();
  queue.enqueue();
  std::apply(body, bound);
  scope.complete(nullptr);
}
template <class... Views>
void markers_launch(markers_test_queue& queue, const Views&... views) {
  markers_launch_with(
      queue, [](const auto&...) {}, views...);
}

// What the directory makes others wait for before they write the view's bytes.
hd::event_ptr markers_last_write(const hx::array_view<int, 1>& v) {
  auto* source = const_cast<hd::data_source*>(v.source());
  return source->pending_writes(v.where());
}

}  // namespace

TEST_CASE("a loop of launches reuses its markers and records none", "[coherence][launch_markers]") {
  std::vector<int> data(256, 1);
  markers_test_queue queue(markers_device());
  {
    hx::array_view<int, 1> v(256, data);
    // The first launch copies in on the directory's slow path, which notes its marker in the
    // replica (held there, and so recorded once the next launch enters the stream); the
    // launches after it note theirs in the kernel ticket, replacing each other.
    for (int k = 0; k < 3; ++k) markers_launch(queue, v);
    const std::size_t ring = queue.ring_size();
    const int records = queue.records();
    CHECK(ring <= 3);
    for (int k = 0; k < 100; ++k) markers_launch(queue, v);
    CHECK(queue.ring_size() == ring);
    CHECK(queue.records() == records);
    v.synchronize();
  }
}

TEST_CASE("a held marker is never handed out again and is recorded where its launch ended",
          "[coherence][launch_markers]") {
  std::vector<int> a_data(64, 1);
  std::vector<int> b_data(64, 2);
  markers_test_queue queue(markers_device());
  hx::array_view<int, 1> a(64, a_data);
  hx::array_view<int, 1> b(64, b_data);
  markers_launch(queue, a);  // copies in, then the kernel
  const long a_end = queue.position();
  // Many launches over another view while the directory holds a's marker (a's last write).
  for (int k = 0; k < 50; ++k) markers_launch(queue, b);
  // Another queue writing a must be ordered after a's launch: the marker it waits for is
  // still a's, recorded exactly where a's kernel ended (when b's first launch entered the
  // stream), not at some later launch's end.
  markers_test_queue other(markers_device());
  markers_launch(other, a);
  bool waited_for_a = false;
  for (const hd::event_ptr& e : other.waited) {
    if (const auto* m = dynamic_cast<const markers_t::marker*>(e.get())) {
      waited_for_a = waited_for_a || m->materialize() == a_end;
    }
  }
  CHECK(waited_for_a);
  a.synchronize();
  b.synchronize();
}

TEST_CASE("a marker nobody holds is reused, but never the pending one before it is settled",
          "[coherence][launch_markers]") {
  markers_test_queue queue(markers_device());
  std::vector<int> b_data(32, 2);
  hx::array_view<int, 1> b(32, b_data);
  markers_launch(queue, b);
  {
    // A source that dies right after its launch: nobody holds that launch's marker any more,
    // but it is the queue's pending one.
    std::vector<int> a_data(32, 1);
    hx::array_view<int, 1> a(32, a_data);
    markers_launch(queue, a);
  }  // a's source waits for its launch and lets go of the marker
  // The next launch must not get a marker that settle() still takes for the last launch's:
  // it would be recorded when the kernel enters the stream, before the kernel, and whoever
  // waits for it would not wait for the kernel.
  markers_launch(queue, b);
  const long b_end = queue.position();
  queue.enqueue();  // new work: b's marker is settled now, at b_end
  markers_test_queue other(markers_device());
  markers_launch(other, b);
  bool exact = false;
  for (const hd::event_ptr& e : other.waited) {
    if (const auto* m = dynamic_cast<const markers_t::marker*>(e.get())) {
      exact = exact || m->materialize() == b_end;
      CHECK(m->materialize() >= b_end);  // never before b's kernel
    }
  }
  CHECK(exact);
  b.synchronize();
}

TEST_CASE("a launch binds a view captured twice once, and each different use on its own",
          "[coherence][launch_markers]") {
  std::vector<int> data(1024, 5);
  markers_test_queue queue(markers_device());
  hx::array_view<int, 1> v(1024, data);
  const hx::array_view<const int, 1> r(v);
  hx::array_view<int, 1> head = v.section(0, 512);
  // The whole view, its first half (covered), a read (covered by the write), the view again.
  markers_launch(queue, v, head, r, v);
  v.synchronize();  // host and device both hold the bytes now
  // A read, then a write of the same bytes: the write must still bind, which makes the
  // device the only holder, so host access copies the kernel's result back. (A struct, whose
  // members are copied in order: a tuple copies its last element first.)
  struct read_then_write {
    hx::array_view<const int, 1> read;
    hx::array_view<int, 1> write;
  };
  markers_launch_with(
      queue, [](const read_then_write& k) { k.write.data()[3] = 9 + k.read.data()[0]; },
      read_then_write{r, v});
  CHECK(v[3] == 14);
  // Two halves that were never bound apart: each binds on its own, nothing is skipped.
  std::vector<int> fresh(1024, 7);
  hx::array_view<int, 1> w(1024, fresh);
  hx::array_view<int, 1> w_head = w.section(0, 512);
  hx::array_view<int, 1> w_tail = w.section(512, 512);
  const long before = queue.position();
  markers_launch(queue, w_head, w_tail);
  // Both halves were copied in (two copies) before the kernel (one more item).
  CHECK(queue.position() - before == 3);
  v.synchronize();
  w.synchronize();
  CHECK(fresh == std::vector<int>(1024, 7));
}

// Issue 19: a kernel ticket notes a launch's marker by address, counted in batches
// (counted_marker, launch_notes), not by a shared_ptr. A marker only such notes keep must still
// be kept from reuse and recorded where its launch ended.
TEST_CASE("a marker noted only by a kernel ticket is kept and recorded where its launch ended",
          "[coherence][launch_markers]") {
  std::vector<int> a_data(64, 1);
  std::vector<int> b_data(64, 2);
  markers_test_queue queue(markers_device());
  hx::array_view<int, 1> a(64, a_data);
  hx::array_view<int, 1> b(64, b_data);
  markers_launch(queue, a);  // the slow path: copies in, installs the ticket
  markers_launch(queue, a);  // the ticket notes this launch's marker
  markers_launch(queue, a);  // and this one's, replacing it: only the note keeps this marker
  const long a_end = queue.position();
  // Many launches over another view: none may get a's last marker, which must be recorded
  // when the first of them enters the stream (someone may still wait for a's write).
  for (int k = 0; k < 50; ++k) markers_launch(queue, b);
  markers_test_queue other(markers_device());
  markers_launch(other, a);  // folds the ticket's note, and waits for a's last launch
  bool waited_for_a = false;
  for (const hd::event_ptr& e : other.waited) {
    if (const auto* m = dynamic_cast<const markers_t::marker*>(e.get())) {
      waited_for_a = waited_for_a || m->materialize() == a_end;
    }
  }
  CHECK(waited_for_a);
  a.synchronize();
  b.synchronize();
}

TEST_CASE("a marker noted by a kernel ticket outlives its queue until the note is given back",
          "[coherence][launch_markers]") {
  std::vector<int> data(64, 1);
  std::weak_ptr<std::atomic<long>> ring_alive;
  {
    hx::array_view<int, 1> v(64, data);
    auto queue = std::make_unique<markers_test_queue>(markers_device());
    for (int k = 0; k < 3; ++k) markers_launch(*queue, v);  // the last two on the ticket
    const long end = queue->position();
    const markers_t* ring = queue->ring();
    ring_alive = queue->stream_position();
    queue.reset();  // the ring closes; the marker v's ticket notes must stay
    CHECK_FALSE(ring_alive.expired());
    {
      // Another queue's write folds the ticket, turning the note into a reference, and waits
      // for the marker: recorded where its launch ended, when the ring closed.
      markers_test_queue other(markers_device());
      markers_launch(other, v);
      bool waited_for_last = false;
      for (const hd::event_ptr& e : other.waited) {
        if (const auto* m = dynamic_cast<const markers_t::marker*>(e.get())) {
          waited_for_last = waited_for_last || (&m->home() == ring && m->materialize() == end);
        }
      }
      CHECK(waited_for_last);
    }
    v.synchronize();
  }
  // Once the source let go of its events, nothing keeps the closed ring: no cycle left behind.
  CHECK(ring_alive.expired());
}

// For ThreadSanitizer (the cpu-debug-tsan preset): launches on two queues with launch markers
// note their markers in one source's ticket by address while a third thread's host access folds
// those notes and gives them back.
TEST_CASE("threads noting markers in one ticket and folding them share the counts safely",
          "[coherence][launch_markers][threads]") {
  std::vector<int> data(4096, 3);
  hx::array_view<int, 1> v(4096, data);
  const hx::array_view<const int, 1> reader(v);
  const hx::array_view<const int, 1> half = reader.section(0, 2048);
  hx::array_view<const int, 1> host_view(v);  // a view object of its own: host access writes it
  std::atomic<bool> failed{false};
  auto launcher = [&] {
    markers_test_queue queue(markers_device());
    for (int k = 0; k < 1000; ++k) markers_launch(queue, k % 2 == 0 ? reader : half);
    // The other thread's launches and host reads fold notes of this queue's markers: every
    // one of them must be back, so the ring holds no more than a loop needs plus what a note
    // kept at the time (bounded: each note replaced the one before it).
    if (queue.ring_size() > 64) failed = true;
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
