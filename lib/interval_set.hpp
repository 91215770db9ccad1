// A set of disjoint half-open byte ranges: which bytes of a source a location holds.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

namespace hipamp::detail {

struct byte_range {
  std::size_t begin;
  std::size_t end;
  std::size_t size() const noexcept { return end - begin; }
};

class interval_set {
 public:
  void add(std::size_t begin, std::size_t end);
  void remove(std::size_t begin, std::size_t end);
  bool covers(std::size_t begin, std::size_t end) const;
  // Whether the set holds any byte of [begin, end) (overlap() without building the list).
  bool intersects(std::size_t begin, std::size_t end) const;
  // The parts of [begin, end) this set holds.
  std::vector<byte_range> overlap(std::size_t begin, std::size_t end) const;
  // The parts of [begin, end) this set lacks.
  std::vector<byte_range> gaps(std::size_t begin, std::size_t end) const;
  bool empty() const noexcept { return ranges_.empty(); }
  void clear() noexcept { ranges_.clear(); }

 private:
  std::map<std::size_t, std::size_t> ranges_;  // begin -> end, disjoint, never adjacent
};

}  // namespace hipamp::detail
