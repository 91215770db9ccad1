// key_index_type<T>: the customization point of Steve Dower's "Bitonic Sort for C++ AMP",
// which parallel_sort and parallel_sort_keys use to sort values of T.
//
// Arithmetic types (the paper's float, int and unsigned, and the other integer and
// floating-point types) sort directly: key_index_type<T>::type is T and no key array is
// built. Any other type needs a specialisation holding the sort key `k` and the source
// index `i`, usable in kernels on every device:
//
//   template <>
//   struct hipamp::key_index_type<my_type> {
//     unsigned k;  // the sort key
//     int i;       // index of the element in the source
//     key_index_type() = default;
//     HIPAMP_RESTRICT key_index_type(my_type value, int index) : k(value.y), i(index) {}
//     HIPAMP_RESTRICT bool operator<(const key_index_type& other) const { return k < other.k; }
//   };
//
// The specialisation may instead name another struct with the same members as its nested
// `type`. Such structs are copied many times while sorting; small ones sort fastest.
#pragma once

#include <type_traits>
#include <utility>

namespace hipamp {

namespace detail {
// Marks the primary template, so the checks can tell "not specialised" from "incomplete".
struct key_index_not_specialised {};
}  // namespace detail

template <class T>
struct key_index_type {
  using type = std::conditional_t<std::is_arithmetic<T>::value && !std::is_same<T, bool>::value, T,
                                  detail::key_index_not_specialised>;
};

namespace detail {

template <class K, class = void>
struct has_nested_type : std::false_type {};
template <class K>
struct has_nested_type<K, std::void_t<typename K::type>> : std::true_type {};

template <class T, bool = has_nested_type<key_index_type<T>>::value>
struct key_of {
  using type = typename key_index_type<T>::type;
};
template <class T>
struct key_of<T, false> {
  using type = key_index_type<T>;
};

template <class K, class = void>
struct has_key_member : std::false_type {};
template <class K>
struct has_key_member<K, std::void_t<decltype(std::declval<K&>().k)>> : std::true_type {};

template <class K, class = void>
struct has_index_member : std::false_type {};
template <class K>
struct has_index_member<K, std::void_t<decltype(std::declval<K&>().i)>>
    : std::is_convertible<decltype(std::declval<K&>().i), int> {};

template <class K, class = void>
struct has_less : std::false_type {};
template <class K>
struct has_less<K, std::void_t<decltype(std::declval<const K&>() < std::declval<const K&>())>>
    : std::is_convertible<decltype(std::declval<const K&>() < std::declval<const K&>()), bool> {};

}  // namespace detail

// The key type parallel_sort uses for T: T itself for arithmetic types, else the user's
// key_index_type<T> (or its nested `type`).
template <class T>
using key_index_t = typename detail::key_of<T>::type;

// True when values of T sort directly, without building keys.
template <class T>
inline constexpr bool sorts_directly_v = std::is_same<key_index_t<T>, T>::value;

// True when key_index_type<T> provides everything parallel_sort needs.
template <class T, class K = key_index_t<T>>
inline constexpr bool is_valid_key_index_type_v =
    sorts_directly_v<T> ||
    (!std::is_same<K, detail::key_index_not_specialised>::value &&
     detail::has_key_member<K>::value && detail::has_index_member<K>::value &&
     std::is_default_constructible<K>::value && std::is_constructible<K, const T&, int>::value &&
     detail::has_less<K>::value && std::is_trivially_copyable<K>::value);

namespace detail {

// Compile-time check with one readable message per missing requirement.
template <class T>
constexpr bool check_key_index_type() {
  using K = key_index_t<T>;
  if constexpr (!sorts_directly_v<T>) {
    static_assert(!std::is_same<K, key_index_not_specialised>::value,
                  "hipamp: parallel_sort of a type that is not arithmetic needs a specialisation "
                  "of hipamp::key_index_type<T> with members k (the key), i (the index), a "
                  "default constructor, a constructor (T value, int index) and operator<");
    if constexpr (!std::is_same<K, key_index_not_specialised>::value) {
      static_assert(has_key_member<K>::value,
                    "hipamp: key_index_type<T> needs a data member `k` holding the sort key");
      static_assert(has_index_member<K>::value,
                    "hipamp: key_index_type<T> needs a data member `i` (convertible to int) "
                    "holding the element's index in the source");
      static_assert(std::is_default_constructible<K>::value,
                    "hipamp: key_index_type<T> needs a default constructor");
      static_assert(std::is_constructible<K, const T&, int>::value,
                    "hipamp: key_index_type<T> needs a constructor (T value, int index) marked "
                    "HIPAMP_RESTRICT");
      static_assert(has_less<K>::value,
                    "hipamp: key_index_type<T> needs `bool operator<(const key_index_type&) "
                    "const` marked HIPAMP_RESTRICT");
      static_assert(std::is_trivially_copyable<K>::value,
                    "hipamp: key_index_type<T> must be trivially copyable (keys live in arrays)");
    }
  }
  return true;
}

}  // namespace detail
}  // namespace hipamp
