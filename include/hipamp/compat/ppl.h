// The host-side Parallel Patterns Library (<ppl.h>, plus the ConcRT sample-pack extras
// parallel_reduce/parallel_transform/parallel_*sort that shipped into <ppl.h> with VS2012) as
// C++ AMP programs use it, on std::thread: tools/amp2hipamp.py points `#include <ppl.h>` here.
//
// In namespace concurrency: parallel_for (index ranges, with or without a step), parallel_for_each
// over iterators (beside C++ AMP's parallel_for_each over an extent, which keeps working
// qualified and unqualified), parallel_invoke, parallel_reduce, parallel_transform,
// parallel_sort / parallel_buffered_sort / parallel_radixsort over iterators (beside hipamp's
// array parallel_sort), combinable, critical_section, reader_writer_lock, task_group and
// structured_task_group (run / wait / run_and_wait; cancel() skips tasks not yet started).
// Partitioner arguments (auto_partitioner, static_partitioner, ...) are accepted and ignored.
//
// Work is split into one contiguous chunk per hardware thread; the first exception a body
// throws is rethrown on the calling thread after every chunk has finished (as PPL does).
#pragma once
#define HIPAMP_COMPAT_PPL_H 1  // see parallel_sort below

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <future>
#include <iterator>
#include <list>
#include <mutex>
#include <numeric>
#include <shared_mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hipamp/amp.h>

namespace hipamp::compat::ppl_detail {

inline std::size_t worker_count(std::size_t work) {
  const std::size_t hw = std::max<std::size_t>(1, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(hw, work));
}

// Runs body(chunk_begin, chunk_end) over [0, n) in contiguous chunks, one per worker; the
// calling thread takes the last chunk. Rethrows the first exception after all chunks end.
template <class Body>
void run_chunks(std::size_t n, const Body& body) {
  if (n == 0) return;
  const std::size_t workers = worker_count(n);
  if (workers == 1) {
    body(std::size_t{0}, n);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
  auto guarded = [&](std::size_t b, std::size_t e) {
    try {
      body(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  const std::size_t chunk = n / workers, extra = n % workers;
  std::size_t begin = 0;
  for (std::size_t w = 0; w < workers; ++w) {
    const std::size_t end = begin + chunk + (w < extra ? 1 : 0);
    if (w + 1 == workers) {
      guarded(begin, end);
    } else {
      threads.emplace_back(guarded, begin, end);
    }
    begin = end;
  }
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

template <class It>
using is_random_access = std::is_base_of<std::random_access_iterator_tag,
                                         typename std::iterator_traits<It>::iterator_category>;

}  // namespace hipamp::compat::ppl_detail

namespace concurrency {

// C++ AMP's parallel_for_each stays reachable as concurrency::parallel_for_each beside the
// iterator overloads declared here (a name declared directly in a namespace hides the ones its
// using-directive would otherwise supply to qualified lookup). hipamp's array parallel_sort gets
// the same using-declaration from whichever of this header and <hipamp/parallel_sort.hpp> comes
// second (HIPAMP_COMPAT_PPL_H): including the sort here would cost every unit that includes
// <ppl.h> the parse of the GPU sort (<hipamp/model.hpp> says how much).
using ::hipamp::parallel_for_each;
#if defined(HIPAMP_PARALLEL_SORT_HPP)
using ::hipamp::parallel_sort;
#endif

// Partitioners: accepted for source compatibility, chunking is always the same.
class auto_partitioner {};
class simple_partitioner {
 public:
  explicit simple_partitioner(std::size_t chunk_size = 1) : chunk_(chunk_size) {}
  std::size_t chunk_size() const noexcept { return chunk_; }

 private:
  std::size_t chunk_;
};
class static_partitioner {};
class affinity_partitioner {};

}  // namespace concurrency

namespace hipamp::compat::ppl_detail {
template <class P>
constexpr bool is_partitioner_v =
    std::is_same<std::decay_t<P>, concurrency::auto_partitioner>::value ||
    std::is_same<std::decay_t<P>, concurrency::simple_partitioner>::value ||
    std::is_same<std::decay_t<P>, concurrency::static_partitioner>::value ||
    std::is_same<std::decay_t<P>, concurrency::affinity_partitioner>::value;
}  // namespace hipamp::compat::ppl_detail

namespace concurrency {

// ---- parallel_for ------------------------------------------------------------------------------

template <class Index, class Function>
void parallel_for(Index first, Index last, Index step, const Function& f) {
  static_assert(std::is_integral<Index>::value,
                "concurrency::parallel_for needs an integral index");
  if (step < Index(1)) {
    throw std::invalid_argument("concurrency::parallel_for: step must be positive");
  }
  if (!(first < last)) return;
  const std::size_t count = static_cast<std::size_t>((last - first - 1) / step) + 1;
  hipamp::compat::ppl_detail::run_chunks(count, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) f(static_cast<Index>(first + static_cast<Index>(i) * step));
  });
}
template <class Index, class Function>
void parallel_for(Index first, Index last, const Function& f) {
  parallel_for(first, last, Index(1), f);
}
template <class Index, class Function, class Partitioner,
          typename = std::enable_if_t<hipamp::compat::ppl_detail::is_partitioner_v<Partitioner>>>
void parallel_for(Index first, Index last, const Function& f, Partitioner&&) {
  parallel_for(first, last, Index(1), f);
}
template <class Index, class Function, class Partitioner,
          typename = std::enable_if_t<hipamp::compat::ppl_detail::is_partitioner_v<Partitioner>>>
void parallel_for(Index first, Index last, Index step, const Function& f, Partitioner&&) {
  parallel_for(first, last, step, f);
}

// ---- parallel_for_each over iterators ----------------------------------------------------------

template <class It, class Function, typename = typename std::iterator_traits<It>::iterator_category>
void parallel_for_each(It first, It last, const Function& f) {
  if constexpr (hipamp::compat::ppl_detail::is_random_access<It>::value) {
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    hipamp::compat::ppl_detail::run_chunks(n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(first[static_cast<std::ptrdiff_t>(i)]);
    });
  } else {
    std::vector<It> positions;
    for (It it = first; it != last; ++it) positions.push_back(it);
    hipamp::compat::ppl_detail::run_chunks(positions.size(), [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) f(*positions[i]);
    });
  }
}
template <class It, class Function, class Partitioner,
          typename = typename std::iterator_traits<It>::iterator_category,
          typename = std::enable_if_t<hipamp::compat::ppl_detail::is_partitioner_v<Partitioner>>>
void parallel_for_each(It first, It last, const Function& f, Partitioner&&) {
  concurrency::parallel_for_each(first, last, f);
}

// ---- parallel_invoke ---------------------------------------------------------------------------

template <class... Functions>
void parallel_invoke(const Functions&... fs) {
  static_assert(sizeof...(Functions) >= 2, "concurrency::parallel_invoke takes 2 to 10 functions");
  std::vector<std::function<void()>> tasks{std::function<void()>(std::cref(fs))...};
  hipamp::compat::ppl_detail::run_chunks(tasks.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) tasks[i]();
  });
}

// ---- parallel_reduce / parallel_transform -----------------------------------------------------

// Each chunk folds its elements onto `identity` with `reduce`; the chunk results are then
// folded in order with `combine` (so an associative operation gives the sequential result).
template <class It, class T, class Reduce, class Combine>
T parallel_reduce(It first, It last, const T& identity, const Reduce& reduce,
                  const Combine& combine) {
  const auto n = static_cast<std::size_t>(std::distance(first, last));
  if (n == 0) return identity;
  const std::size_t workers = hipamp::compat::ppl_detail::worker_count(n);
  std::vector<T> partial(workers, identity);
  // One chunk per worker, so the chunk index is the worker index.
  hipamp::compat::ppl_detail::run_chunks(workers, [&](std::size_t wb, std::size_t we) {
    for (std::size_t w = wb; w < we; ++w) {
      const std::size_t b = n * w / workers, e = n * (w + 1) / workers;
      It it = std::next(first, static_cast<std::ptrdiff_t>(b));
      T acc = identity;
      for (std::size_t i = b; i < e; ++i, ++it) acc = reduce(acc, *it);
      partial[w] = acc;
    }
  });
  T result = partial[0];
  for (std::size_t w = 1; w < workers; ++w) result = combine(result, partial[w]);
  return result;
}
template <class It, class T, class Reduce>
T parallel_reduce(It first, It last, const T& identity, const Reduce& reduce) {
  return concurrency::parallel_reduce(first, last, identity, reduce, reduce);
}
template <class It>
typename std::iterator_traits<It>::value_type parallel_reduce(
    It first, It last, const typename std::iterator_traits<It>::value_type& identity) {
  return concurrency::parallel_reduce(first, last, identity,
                                      std::plus<typename std::iterator_traits<It>::value_type>());
}

template <class InIt, class OutIt, class Unary,
          typename = typename std::iterator_traits<OutIt>::iterator_category>
OutIt parallel_transform(InIt first, InIt last, OutIt result, const Unary& op) {
  const auto n = static_cast<std::size_t>(std::distance(first, last));
  hipamp::compat::ppl_detail::run_chunks(n, [&](std::size_t b, std::size_t e) {
    InIt in = std::next(first, static_cast<std::ptrdiff_t>(b));
    OutIt out = std::next(result, static_cast<std::ptrdiff_t>(b));
    for (std::size_t i = b; i < e; ++i, ++in, ++out) *out = op(*in);
  });
  return std::next(result, static_cast<std::ptrdiff_t>(n));
}
template <class InIt1, class InIt2, class OutIt, class Binary,
          typename = typename std::iterator_traits<InIt2>::iterator_category>
OutIt parallel_transform(InIt1 first1, InIt1 last1, InIt2 first2, OutIt result, const Binary& op) {
  const auto n = static_cast<std::size_t>(std::distance(first1, last1));
  hipamp::compat::ppl_detail::run_chunks(n, [&](std::size_t b, std::size_t e) {
    InIt1 a = std::next(first1, static_cast<std::ptrdiff_t>(b));
    InIt2 c = std::next(first2, static_cast<std::ptrdiff_t>(b));
    OutIt out = std::next(result, static_cast<std::ptrdiff_t>(b));
    for (std::size_t i = b; i < e; ++i, ++a, ++c, ++out) *out = op(*a, *c);
  });
  return std::next(result, static_cast<std::ptrdiff_t>(n));
}
template <class InIt, class OutIt, class Unary, class Partitioner,
          typename = typename std::iterator_traits<OutIt>::iterator_category,
          typename = std::enable_if_t<hipamp::compat::ppl_detail::is_partitioner_v<Partitioner>>>
OutIt parallel_transform(InIt first, InIt last, OutIt result, const Unary& op, Partitioner&&) {
  return concurrency::parallel_transform(first, last, result, op);
}

// ---- sorting over iterators ---------------------------------------------------------------------

// Chunks sorted in parallel, then merged pairwise.
template <class RandomIt, class Compare,
          typename = typename std::iterator_traits<RandomIt>::iterator_category>
void parallel_sort(RandomIt first, RandomIt last, const Compare& comp) {
  const auto n = static_cast<std::size_t>(std::distance(first, last));
  std::size_t parts = n < 4096 ? 1 : hipamp::compat::ppl_detail::worker_count(n / 2048);
  std::vector<std::size_t> bounds(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  hipamp::compat::ppl_detail::run_chunks(parts, [&](std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e; ++p) std::sort(first + bounds[p], first + bounds[p + 1], comp);
  });
  for (std::size_t width = 1; width < parts; width *= 2) {
    for (std::size_t p = 0; p + width < parts; p += 2 * width) {
      const std::size_t hi = std::min(parts, p + 2 * width);
      std::inplace_merge(first + bounds[p], first + bounds[p + width], first + bounds[hi], comp);
    }
  }
}
template <class RandomIt, typename = typename std::iterator_traits<RandomIt>::iterator_category>
void parallel_sort(RandomIt first, RandomIt last) {
  concurrency::parallel_sort(first, last,
                             std::less<typename std::iterator_traits<RandomIt>::value_type>());
}
template <class RandomIt, class... Rest>
void parallel_buffered_sort(RandomIt first, RandomIt last, const Rest&... rest) {
  concurrency::parallel_sort(first, last, rest...);
}
// A stable sort by an unsigned key (the element itself when no projection is given), which is
// what a radix sort delivers.
template <class RandomIt>
void parallel_radixsort(RandomIt first, RandomIt last) {
  std::stable_sort(first, last);
}
template <class RandomIt, class Projection>
void parallel_radixsort(RandomIt first, RandomIt last, const Projection& key) {
  using value_type = typename std::iterator_traits<RandomIt>::value_type;
  std::stable_sort(first, last,
                   [&](const value_type& a, const value_type& b) { return key(a) < key(b); });
}

// ---- combinable
// ----------------------------------------------------------------------------------

// One T per thread that calls local(); combine folds them.
template <class T>
class combinable {
 public:
  combinable() : init_([] { return T(); }) {}
  template <class Init,
            typename = std::enable_if_t<!std::is_same<std::decay_t<Init>, combinable>::value>>
  explicit combinable(Init init) : init_(std::move(init)) {}
  combinable(const combinable& other) : init_(other.init_) {
    std::lock_guard<std::mutex> lock(other.mutex_);
    locals_ = other.locals_;
  }
  combinable& operator=(const combinable& other) {
    if (this != &other) {
      combinable copy(other);
      std::lock_guard<std::mutex> lock(mutex_);
      init_ = std::move(copy.init_);
      locals_ = std::move(copy.locals_);
    }
    return *this;
  }

  T& local() {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = locals_.find(std::this_thread::get_id());
    if (it == locals_.end()) it = locals_.emplace(std::this_thread::get_id(), init_()).first;
    return it->second;  // unordered_map nodes stay put while others are inserted
  }
  T& local(bool& exists) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = locals_.find(std::this_thread::get_id());
    exists = it != locals_.end();
    if (!exists) it = locals_.emplace(std::this_thread::get_id(), init_()).first;
    return it->second;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    locals_.clear();
  }
  template <class Op>
  T combine(Op op) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (locals_.empty()) return init_();
    auto it = locals_.begin();
    T result = it->second;
    for (++it; it != locals_.end(); ++it) result = op(result, it->second);
    return result;
  }
  template <class Op>
  void combine_each(Op op) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : locals_) op(entry.second);
  }

 private:
  std::function<T()> init_;
  mutable std::mutex mutex_;
  std::unordered_map<std::thread::id, T> locals_;
};

// ---- locks ------------------------------------------------------------------------------------

class critical_section {
 public:
  critical_section() = default;
  critical_section(const critical_section&) = delete;
  critical_section& operator=(const critical_section&) = delete;
  void lock() { mutex_.lock(); }
  bool try_lock() { return mutex_.try_lock(); }
  void unlock() { mutex_.unlock(); }
  std::mutex& native_handle() noexcept { return mutex_; }

  class scoped_lock {
   public:
    explicit scoped_lock(critical_section& cs) : cs_(cs) { cs_.lock(); }
    ~scoped_lock() { cs_.unlock(); }
    scoped_lock(const scoped_lock&) = delete;
    scoped_lock& operator=(const scoped_lock&) = delete;

   private:
    critical_section& cs_;
  };

 private:
  std::mutex mutex_;
};

class reader_writer_lock {
 public:
  reader_writer_lock() = default;
  reader_writer_lock(const reader_writer_lock&) = delete;
  reader_writer_lock& operator=(const reader_writer_lock&) = delete;
  void lock() {
    mutex_.lock();
    writer_ = true;
  }
  bool try_lock() {
    if (!mutex_.try_lock()) return false;
    writer_ = true;
    return true;
  }
  void lock_read() { mutex_.lock_shared(); }
  bool try_lock_read() { return mutex_.try_lock_shared(); }
  // Releases whichever kind the caller holds: while a writer holds the lock no reader can.
  void unlock() {
    if (writer_) {
      writer_ = false;
      mutex_.unlock();
    } else {
      mutex_.unlock_shared();
    }
  }

  class scoped_lock {
   public:
    explicit scoped_lock(reader_writer_lock& l) : l_(l) { l_.lock(); }
    ~scoped_lock() { l_.unlock(); }
    scoped_lock(const scoped_lock&) = delete;
    scoped_lock& operator=(const scoped_lock&) = delete;

   private:
    reader_writer_lock& l_;
  };
  class scoped_lock_read {
   public:
    explicit scoped_lock_read(reader_writer_lock& l) : l_(l) { l_.lock_read(); }
    ~scoped_lock_read() { l_.unlock(); }
    scoped_lock_read(const scoped_lock_read&) = delete;
    scoped_lock_read& operator=(const scoped_lock_read&) = delete;

   private:
    reader_writer_lock& l_;
  };

 private:
  std::shared_mutex mutex_;
  std::atomic<bool> writer_{false};
};

// ---- task groups
// ---------------------------------------------------------------------------------

enum task_group_status { not_complete, completed, canceled };

class task_group {
 public:
  task_group() = default;
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  // PPL waits for outstanding tasks in the destructor too.
  ~task_group() {
    try {
      wait();
    } catch (...) {
    }
  }

  template <class Function>
  void run(const Function& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::async(std::launch::async, [this, f] {
      if (!canceling_.load()) f();
    }));
  }
  template <class Function>
  task_group_status run_and_wait(const Function& f) {
    if (!canceling_.load()) {
      try {
        f();
      } catch (...) {
        wait_no_throw();
        throw;
      }
    }
    return wait();
  }
  // Waits for every task; rethrows the first exception a task threw.
  task_group_status wait() {
    std::exception_ptr error = wait_no_throw();
    const bool was_canceled = canceling_.exchange(false);
    if (error) std::rethrow_exception(error);
    return was_canceled ? canceled : completed;
  }
  void cancel() noexcept { canceling_ = true; }
  bool is_canceling() const noexcept { return canceling_.load(); }

 private:
  std::exception_ptr wait_no_throw() {
    std::list<std::future<void>> tasks;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks.swap(tasks_);
    }
    std::exception_ptr error;
    for (auto& t : tasks) {
      try {
        t.get();
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    return error;
  }

  std::mutex mutex_;
  std::list<std::future<void>> tasks_;
  std::atomic<bool> canceling_{false};
};
// structured_task_group: the same, for the fork-join uses programs make of it.
using structured_task_group = task_group;

template <class Function>
class task_handle {
 public:
  explicit task_handle(const Function& f) : f_(f) {}
  void operator()() const { f_(); }

 private:
  Function f_;
};
template <class Function>
task_handle<Function> make_task(const Function& f) {
  return task_handle<Function>(f);
}

}  // namespace concurrency
