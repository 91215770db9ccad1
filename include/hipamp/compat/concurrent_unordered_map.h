// <concurrent_unordered_map.h> for Linux: concurrency::concurrent_unordered_map as C++ AMP
// programs use it (ampblas keeps a context per host thread in one: several threads find and
// insert at once), on a std::mutex: tools/amp2hipamp.py points
// `#include <concurrent_unordered_map.h>` here. PPL's guarantees are kept: insert, find, count,
// at, operator[] and iteration may run on several threads at once; an element, once inserted,
// stays where it is (iterators and references to it stay valid) until unsafe_erase or clear,
// which, as their names say in PPL, must not run beside anything else. Elements live in a list
// (stable nodes, so an iterator survives other threads' inserts; moving to the next element
// takes the lock) with a hash index over their keys.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace concurrency {

template <class Key, class T, class Hasher = std::hash<Key>, class KeyEquality = std::equal_to<Key>,
          class Allocator = std::allocator<std::pair<const Key, T>>>
class concurrent_unordered_map {
  using list_type = std::list<std::pair<const Key, T>>;

 public:
  using key_type = Key;
  using mapped_type = T;
  using value_type = std::pair<const Key, T>;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using hasher = Hasher;
  using key_equal = KeyEquality;
  using allocator_type = Allocator;
  using reference = value_type&;
  using const_reference = const value_type&;

  template <bool Const>
  class basic_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = concurrent_unordered_map::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const value_type*, value_type*>;
    using reference = std::conditional_t<Const, const value_type&, value_type&>;

    basic_iterator() = default;
    template <bool C = Const, class = std::enable_if_t<C>>
    basic_iterator(const basic_iterator<false>& other) : owner_(other.owner_), at_(other.at_) {}

    reference operator*() const { return *at_; }
    pointer operator->() const { return &*at_; }
    basic_iterator& operator++() {
      std::lock_guard<std::mutex> lock(owner_->mutex_);  // another thread may append after us
      ++at_;
      return *this;
    }
    basic_iterator operator++(int) {
      basic_iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const basic_iterator& a, const basic_iterator& b) {
      return a.at_ == b.at_;
    }
    friend bool operator!=(const basic_iterator& a, const basic_iterator& b) {
      return a.at_ != b.at_;
    }

   private:
    friend class concurrent_unordered_map;
    friend class basic_iterator<true>;
    using position = typename list_type::iterator;
    basic_iterator(const concurrent_unordered_map* owner, position at) : owner_(owner), at_(at) {}
    const concurrent_unordered_map* owner_ = nullptr;
    position at_{};
  };
  using iterator = basic_iterator<false>;
  using const_iterator = basic_iterator<true>;

  concurrent_unordered_map() = default;
  template <class InputIterator>
  concurrent_unordered_map(InputIterator first, InputIterator last) {
    insert(first, last);
  }
  concurrent_unordered_map(const concurrent_unordered_map& other) {
    std::lock_guard<std::mutex> lock(other.mutex_);
    for (const value_type& v : other.items_) insert_locked(v);
  }
  concurrent_unordered_map& operator=(const concurrent_unordered_map&) = delete;

  // Inserts value unless its key is there; the element with that key, and whether it is new.
  std::pair<iterator, bool> insert(const value_type& value) {
    std::lock_guard<std::mutex> lock(mutex_);
    return insert_locked(value);
  }
  std::pair<iterator, bool> insert(value_type&& value) {
    std::lock_guard<std::mutex> lock(mutex_);
    return insert_locked(std::move(value));
  }
  template <class InputIterator>
  void insert(InputIterator first, InputIterator last) {
    for (; first != last; ++first) insert(*first);
  }
  template <class... Args>
  std::pair<iterator, bool> emplace(Args&&... args) {
    return insert(value_type(std::forward<Args>(args)...));
  }

  iterator find(const key_type& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    return found == index_.end() ? iterator(this, items_.end()) : iterator(this, found->second);
  }
  const_iterator find(const key_type& key) const {
    return const_cast<concurrent_unordered_map*>(this)->find(key);
  }
  size_type count(const key_type& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return index_.count(key);
  }
  mapped_type& operator[](const key_type& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found != index_.end()) return found->second->second;
    return insert_locked(value_type(key, mapped_type())).first->second;
  }
  mapped_type& at(const key_type& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found == index_.end()) throw std::out_of_range("concurrent_unordered_map::at: no such key");
    return found->second->second;
  }
  const mapped_type& at(const key_type& key) const {
    return const_cast<concurrent_unordered_map*>(this)->at(key);
  }

  iterator begin() {
    std::lock_guard<std::mutex> lock(mutex_);
    return iterator(this, items_.begin());
  }
  iterator end() { return iterator(this, items_.end()); }  // a list's end never moves
  const_iterator begin() const { return const_cast<concurrent_unordered_map*>(this)->begin(); }
  const_iterator end() const { return const_cast<concurrent_unordered_map*>(this)->end(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }

  size_type size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  bool empty() const { return size() == 0; }

  // Not safe beside any other call (PPL's unsafe_ prefix): iterators to the erased elements die.
  size_type unsafe_erase(const key_type& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found == index_.end()) return 0;
    items_.erase(found->second);
    index_.erase(found);
    return 1;
  }
  iterator unsafe_erase(const_iterator where) {
    std::lock_guard<std::mutex> lock(mutex_);
    index_.erase(where.at_->first);
    return iterator(this, items_.erase(where.at_));
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    index_.clear();
    items_.clear();
  }

 private:
  template <class V>
  std::pair<iterator, bool> insert_locked(V&& value) {
    auto found = index_.find(value.first);
    if (found != index_.end()) return {iterator(this, found->second), false};
    auto at = items_.insert(items_.end(), std::forward<V>(value));
    try {
      index_.emplace(at->first, at);
    } catch (...) {
      items_.erase(at);
      throw;
    }
    return {iterator(this, at), true};
  }

  mutable std::mutex mutex_;
  list_type items_;
  std::unordered_map<Key, typename list_type::iterator, Hasher, KeyEquality> index_;
};

}  // namespace concurrency
