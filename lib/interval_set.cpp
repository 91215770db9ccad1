#include "interval_set.hpp"

#include <algorithm>
#include <iterator>

namespace hipamp::detail {

void interval_set::add(std::size_t begin, std::size_t end) {
  if (begin >= end) return;
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin()) {
    auto prev = std::prev(it);
    if (prev->second >= begin) {  // touches or overlaps: merge into prev
      begin = prev->first;
      end = std::max(end, prev->second);
      it = ranges_.erase(prev);
    }
  }
  while (it != ranges_.end() && it->first <= end) {
    end = std::max(end, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace(begin, end);
}

void interval_set::remove(std::size_t begin, std::size_t end) {
  if (begin >= end) return;
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin()) --it;
  while (it != ranges_.end() && it->first < end) {
    const std::size_t b = it->first;
    const std::size_t e = it->second;
    if (e <= begin) {
      ++it;
      continue;
    }
    it = ranges_.erase(it);
    if (b < begin) ranges_.emplace(b, begin);
    if (e > end) {
      ranges_.emplace(end, e);
      break;
    }
  }
}

bool interval_set::covers(std::size_t begin, std::size_t end) const {
  if (begin >= end) return true;
  auto it = ranges_.upper_bound(begin);
  if (it == ranges_.begin()) return false;
  --it;
  return it->first <= begin && it->second >= end;
}

bool interval_set::intersects(std::size_t begin, std::size_t end) const {
  if (begin >= end) return false;
  auto it = ranges_.upper_bound(begin);  // the first range starting after begin
  if (it != ranges_.end() && it->first < end) return true;
  if (it == ranges_.begin()) return false;
  return std::prev(it)->second > begin;  // the range starting at or before begin
}

std::vector<byte_range> interval_set::overlap(std::size_t begin, std::size_t end) const {
  std::vector<byte_range> out;
  if (begin >= end) return out;
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin()) --it;
  for (; it != ranges_.end() && it->first < end; ++it) {
    const std::size_t b = std::max(begin, it->first);
    const std::size_t e = std::min(end, it->second);
    if (b < e) out.push_back({b, e});
  }
  return out;
}

std::vector<byte_range> interval_set::gaps(std::size_t begin, std::size_t end) const {
  std::vector<byte_range> out;
  std::size_t cursor = begin;
  for (const byte_range& held : overlap(begin, end)) {
    if (held.begin > cursor) out.push_back({cursor, held.begin});
    cursor = held.end;
  }
  if (cursor < end) out.push_back({cursor, end});
  return out;
}

}  // namespace hipamp::detail
