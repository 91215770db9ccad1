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
  runtime_exception(const char* message, error_code code)
      : std::runtime_error(message), code_(code) {}
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

// hipamp extension: an array_view or array index outside the extent, caught where bounds
// checks are on (the reference device, or the CPU device with HIPAMP_CHECK_BOUNDS=1). C++ AMP
// left such an access undefined (DirectX read zero and dropped the write); the code is
// E_INVALIDARG. Not named out_of_range: C++ AMP programs put `using namespace std;` beside `using
// namespace concurrency;`, and std::out_of_range would become ambiguous.
class index_out_of_range : public runtime_exception {
 public:
  explicit index_out_of_range(const std::string& message)
      : runtime_exception(message, 0x80070057L) {}
};

// hipamp extension: a tile whose work-items did not all reach the same tile_barrier::wait
// (C++ AMP 1.2, 8.1.2 makes that undefined; its compiler rejected what it could see). Caught
// at run time on the CPU and reference devices, where it would otherwise hang or run on.
class barrier_divergence : public runtime_exception {
 public:
  explicit barrier_divergence(const std::string& message) : runtime_exception(message) {}
};

class accelerator_view_removed : public runtime_exception {
 public:
  explicit accelerator_view_removed(const std::string& message, error_code reason = 0x887A0005L)
      : runtime_exception(message, reason) {}
  error_code get_view_removed_reason() const noexcept { return get_error_code(); }
};

}  // namespace hipamp
