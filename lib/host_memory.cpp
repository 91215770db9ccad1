#include <hipamp/detail/host_memory.hpp>

#include <cstdlib>
#include <string>

#include <hipamp/exceptions.hpp>

namespace hipamp::detail {

void aligned_free::operator()(void* p) const noexcept {
  std::free(p);  // NOLINT(cppcoreguidelines-*): the deleter of host_buffer, the RAII owner
}

host_buffer allocate_host(std::size_t bytes) {
  constexpr std::size_t alignment = 4096;
  const std::size_t rounded = ((bytes == 0 ? 1 : bytes) + alignment - 1) / alignment * alignment;
  // Owned from here by host_buffer, whose deleter frees it.
  void* p = std::aligned_alloc(alignment, rounded);  // NOLINT(cppcoreguidelines-*)
  if (p == nullptr) {
    throw out_of_memory("hipamp: cannot allocate " + std::to_string(bytes) +
                        " bytes of host memory");
  }
  return host_buffer(static_cast<std::byte*>(p));
}

}  // namespace hipamp::detail
