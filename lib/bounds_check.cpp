// The slow path of kernel bounds checks: a message that names the view, the index and the
// extent, thrown as index_out_of_range.
#include <hipamp/detail/bounds_check.hpp>

#include <cstdlib>
#include <memory>
#include <string>

#if defined(__GNUC__) || defined(__clang__)
#include <cxxabi.h>
#endif

#include <hipamp/exceptions.hpp>

namespace hipamp::detail {
namespace {

std::string type_name(const std::type_info& type) {
#if defined(__GNUC__) || defined(__clang__)
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  if (status == 0 && demangled) return demangled.get();
#endif
  return type.name();
}

std::string bracketed(int rank, const int* values) {
  std::string s = "[";
  for (int d = 0; d < rank; ++d) {
    if (d) s += ", ";
    s += std::to_string(values[d]);
  }
  return s + "]";
}

}  // namespace

void throw_index_out_of_range(const std::type_info& element, bool read_only, const char* container,
                              int rank, const int* index, const int* extent) {
  std::string dims;
  for (int d = 0; d < rank; ++d) {
    if (index[d] < 0 || index[d] >= extent[d]) {
      if (!dims.empty()) dims += ", ";
      dims += std::to_string(d);
    }
  }
  throw index_out_of_range("hipamp: " + std::string(container) + "<" + (read_only ? "const " : "") +
                           type_name(element) + ", " + std::to_string(rank) +
                           "> accessed at index " + bracketed(rank, index) +
                           ", outside its extent " + bracketed(rank, extent) + " (dimension " +
                           dims + ") in a kernel with bounds checks on");
}

}  // namespace hipamp::detail
