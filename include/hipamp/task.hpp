// task<T>: the part of PPL's concurrency::task (<ppltasks.h>) that C++ AMP code reaches through
// completion_future::to_task(): then() continuations, get(), wait(), is_done() and `a && b`.
// Built on std::shared_future; a continuation runs on a helper thread once its antecedent is
// done, and an exception thrown by the antecedent reaches the continuation's get() (as in PPL,
// where a value-based continuation is skipped when its antecedent throws).
#pragma once

#include <chrono>
#include <future>
#include <type_traits>
#include <utility>

namespace hipamp {

template <class T>
class task;

namespace detail {
// What a continuation returns: task<R> when it returns R, and task<R> again when it returns a
// task<R> (PPL unwraps it).
template <class R>
struct unwrapped_task {
  using type = R;
};
template <class R>
struct unwrapped_task<task<R>> {
  using type = R;
};
}  // namespace detail

template <class T>
class task {
 public:
  using result_type = T;

  task() noexcept = default;
  explicit task(std::shared_future<T> work) : work_(std::move(work)) {}

  // Blocks until the work is done; rethrows what it threw.
  T get() const {
    check_valid();
    if constexpr (std::is_void<T>::value) {
      work_.get();
    } else {
      return work_.get();
    }
  }
  // PPL returns a task_status; its enumerators would clash with <ppl.h>'s task_group_status
  // (the same values in PPL) under `using namespace concurrency`, so this returns nothing.
  void wait() const {
    check_valid();
    work_.wait();
  }
  bool is_done() const {
    check_valid();
    return work_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

  // `continuation` takes the antecedent's value (nothing for task<void>) or the antecedent
  // task itself, as PPL allows.
  template <class Functor>
  auto then(Functor continuation) const {
    check_valid();
    using R = decltype(invoke_with(continuation, std::declval<const task&>()));
    using U = typename detail::unwrapped_task<R>::type;
    const task self = *this;
    return task<U>(std::async(std::launch::async, [self, continuation]() mutable -> U {
                     if constexpr (std::is_same<R, task<U>>::value) {
                       return invoke_with(continuation, self).get();
                     } else {
                       return invoke_with(continuation, self);
                     }
                   }).share());
  }

 private:
  template <class Functor>
  static decltype(auto) invoke_with(Functor& f, const task& antecedent) {
    if constexpr (std::is_invocable<Functor&, task>::value) {
      return f(antecedent);
    } else if constexpr (std::is_void<T>::value) {
      antecedent.get();  // an exception skips the continuation and reaches its get()
      return f();
    } else {
      return f(antecedent.get());
    }
  }
  void check_valid() const {
    if (!work_.valid()) {
      throw std::future_error(std::future_errc::no_state);  // PPL: invalid_operation
    }
  }

  std::shared_future<T> work_;
};

// Done when both are; PPL's `t1 && t2` for task<void>.
inline task<void> operator&&(const task<void>& a, const task<void>& b) {
  return task<void>(std::async(std::launch::async, [a, b]() {
                      a.wait();
                      b.wait();
                      a.get();
                      b.get();
                    }).share());
}

}  // namespace hipamp
