// The C++ AMP exception hierarchy. Every throw site names the bad value in its message.
#pragma once

#include <stdexcept>
#include <string>

namespace hipamp {

// C++ AMP exposes an HRESULT-style code; hipamp keeps the accessor for porting and uses
// the same numeric values where C++ AMP defined them.
using error_code = long;

class runtime_exception : public std::runtime_error {
 public:
  explicit runtime_exception(const std::string& message, error_code code = 0x80004005L)
      : std::runtime_error(message), code_(code) {}
  runtime_exception(const char* message, error_code code) : std::runtime_error(message), code_(code) {}
  error_code get_error_code() const noexcept { return code_; }

 private:
  error_code code_;
};

class out_of_memory : public runtime_exception {
 public:
  explicit out_of_memory(const std::string& message) : runtime_exception(message, 0x8007000EL) {}
};

class invalid_compute_domain : public runtime_exception {
 public:
  explicit invalid_compute_domain(const std::string& message)
      : runtime_exception(message, 0x80070057L) {}
};

class unsupported_feature : public runtime_exception {
 public:
  explicit unsupported_feature(const std::string& message)
      : runtime_exception(message, 0x80004001L) {}
};

class accelerator_view_removed : public runtime_exception {
 public:
  explicit accelerator_view_removed(const std::string& message, error_code reason = 0x887A0005L)
      : runtime_exception(message, reason) {}
  error_code get_view_removed_reason() const noexcept { return get_error_code(); }
};

}  // namespace hipamp
