// MSVC's stdext::checked_array_iterator and stdext::unchecked_array_iterator (an extension its
// <iterator> declares) for Linux: a pointer with the size of the array it walks, checked on
// every move and access. tools/amp2hipamp.py includes this header in a file that names them.
//
// checked_array_iterator<Ptr>(ptr, size, index = 0) stands at ptr + index in [ptr, ptr + size).
// Dereferencing outside [0, size) or moving outside [0, size] throws std::out_of_range with the
// position and the size (MSVC's checks end the program, or are off in release builds).
// Comparison and difference are those of the positions ptr + index, which is what MSVC's
// release std::copy sees (it unwraps both ends to pointers): a range whose two ends were made
// over different base pointers, as in `std::copy(checked(p, n), checked(p + k, n), dest)`, is
// the k elements from p (the book's chapter 9 writes that).
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace stdext {

template <class Ptr>
class checked_array_iterator {
  static_assert(std::is_pointer<Ptr>::value,
                "stdext::checked_array_iterator<Ptr>: Ptr must be a pointer type (float*, ...)");

 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = typename std::iterator_traits<Ptr>::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = Ptr;
  using reference = typename std::iterator_traits<Ptr>::reference;

  checked_array_iterator() = default;
  checked_array_iterator(Ptr array, std::size_t size, std::size_t index = 0)
      : array_(array), size_(size), index_(index) {
    if (index > size) fail("constructed at", static_cast<std::ptrdiff_t>(index));
  }

  Ptr base() const noexcept { return array_ + index_; }

  reference operator*() const { return at(0); }
  pointer operator->() const { return &at(0); }
  reference operator[](difference_type n) const { return at(n); }

  checked_array_iterator& operator++() { return *this += 1; }
  checked_array_iterator operator++(int) {
    checked_array_iterator old = *this;
    *this += 1;
    return old;
  }
  checked_array_iterator& operator--() { return *this -= 1; }
  checked_array_iterator operator--(int) {
    checked_array_iterator old = *this;
    *this -= 1;
    return old;
  }
  checked_array_iterator& operator+=(difference_type n) {
    const difference_type to = static_cast<difference_type>(index_) + n;
    if (to < 0 || to > static_cast<difference_type>(size_)) fail("moved to", to);
    index_ = static_cast<std::size_t>(to);
    return *this;
  }
  checked_array_iterator& operator-=(difference_type n) { return *this += -n; }
  checked_array_iterator operator+(difference_type n) const {
    checked_array_iterator out = *this;
    return out += n;
  }
  friend checked_array_iterator operator+(difference_type n, const checked_array_iterator& it) {
    return it + n;
  }
  checked_array_iterator operator-(difference_type n) const {
    checked_array_iterator out = *this;
    return out -= n;
  }
  difference_type operator-(const checked_array_iterator& other) const noexcept {
    return base() - other.base();
  }

  bool operator==(const checked_array_iterator& o) const noexcept { return base() == o.base(); }
  bool operator!=(const checked_array_iterator& o) const noexcept { return base() != o.base(); }
  bool operator<(const checked_array_iterator& o) const noexcept { return base() < o.base(); }
  bool operator>(const checked_array_iterator& o) const noexcept { return base() > o.base(); }
  bool operator<=(const checked_array_iterator& o) const noexcept { return base() <= o.base(); }
  bool operator>=(const checked_array_iterator& o) const noexcept { return base() >= o.base(); }

 private:
  reference at(difference_type n) const {
    const difference_type i = static_cast<difference_type>(index_) + n;
    if (i < 0 || i >= static_cast<difference_type>(size_)) fail("dereferenced at", i);
    return array_[i];
  }
  [[noreturn]] void fail(const char* what, difference_type i) const {
    throw std::out_of_range("stdext::checked_array_iterator " + std::string(what) + " index " +
                            std::to_string(i) + " of an array of " + std::to_string(size_) +
                            " elements (valid: 0.." + std::to_string(size_) +
                            ", the end not dereferenceable)");
  }

  Ptr array_ = nullptr;
  std::size_t size_ = 0;
  std::size_t index_ = 0;
};

template <class Ptr>
checked_array_iterator<Ptr> make_checked_array_iterator(Ptr array, std::size_t size,
                                                        std::size_t index = 0) {
  return checked_array_iterator<Ptr>(array, size, index);
}

// MSVC's marker for a pointer the program vouches for: a plain pointer is as unchecked.
template <class Ptr>
using unchecked_array_iterator = Ptr;

template <class Ptr>
Ptr make_unchecked_array_iterator(Ptr array) {
  return array;
}

}  // namespace stdext
