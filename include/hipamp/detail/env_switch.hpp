// The library's on/off switches read from the environment (HIPAMP_PEER_COPIES,
// HIPAMP_BIASED_REFS, HIPAMP_CAPTURE_IMAGE): on unless the variable is "0".
#pragma once

#include <cstdlib>
#include <cstring>

namespace hipamp::detail {

inline bool env_switch_off(const char* name) noexcept {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "0") == 0;
}

}  // namespace hipamp::detail
