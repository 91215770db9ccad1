// accelerator, accelerator_view and completion_future, and parallel_for_each's errors.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "support.hpp"

namespace hx = hipamp;
using hx::accelerator;

TEST_CASE("the CPU device is always present and emulated", "[accelerator]") {
  const std::vector<accelerator> all = accelerator::get_all();
  REQUIRE(!all.empty());
  int cpu_devices = 0;
  for (const accelerator& a : all) {
    if (a.get_device_path() == accelerator::cpu_accelerator) {
      ++cpu_devices;
      CHECK(a.get_is_emulated());
      CHECK(a.get_supports_cpu_shared_memory());
      CHECK(a.get_supports_double_precision());
      CHECK(a.get_max_tile_size() >= 1024);
      CHECK(!a.get_description().empty());
      CHECK(a.get_default_cpu_access_type() == hx::access_type_read_write);
    }
    CHECK(a == accelerator(a.get_device_path()));
  }
  CHECK(cpu_devices == 1);
  // C++ AMP code that asks for WARP gets the CPU device.
  CHECK(accelerator(accelerator::direct3d_warp) == accelerator(accelerator::cpu_accelerator));
}

TEST_CASE("get_all() lists the CPU device a second time, last, as WARP", "[accelerator]") {
  const std::vector<accelerator> all = accelerator::get_all();
  const accelerator cpu(accelerator::cpu_accelerator);
  std::vector<accelerator> warp_entries;
  for (const accelerator& a : all) {
    if (a.get_device_path() == accelerator::direct3d_warp) warp_entries.push_back(a);
  }
  REQUIRE(warp_entries.size() == 1);
  const accelerator& warp = warp_entries.front();
  CHECK(all.back().get_device_path() == accelerator::direct3d_warp);
  // The CPU device under WARP's path: equal to it, emulated as WARP is, same queue and memory.
  CHECK(warp == cpu);
  CHECK(warp.is_cpu());
  CHECK(warp.get_is_emulated());
  CHECK(warp.get_default_view() == cpu.get_default_view());
  CHECK(warp.get_description().find(cpu.get_description()) == 0);
  CHECK(warp.get_description().find(L"WARP") != std::wstring::npos);
  CHECK(accelerator(accelerator::direct3d_warp).get_device_path() == accelerator::direct3d_warp);
  CHECK(cpu.get_device_path() == accelerator::cpu_accelerator);
  // The C++ AMP idiom "every accelerator but the CPU and REF ones" finds WARP where no GPU is.
  std::vector<accelerator> real;
  for (const accelerator& a : all) {
    if (a.get_device_path() != accelerator::cpu_accelerator &&
        a.get_device_path() != accelerator::direct3d_ref) {
      real.push_back(a);
    }
  }
  CHECK(std::count_if(real.begin(), real.end(), [](const accelerator& a) {
          return a.get_device_path() == accelerator::direct3d_warp;
        }) == 1);
  // A kernel run through it lands in the same data as through "cpu", on random data.
  const std::vector<int> in = hipamp_test::random_vector<int>(5000, -1000, 1000);
  std::vector<int> out(in.size(), 0);
  {
    const hx::array_view<const int, 1> vin(static_cast<int>(in.size()), in);
    hx::array_view<int, 1> vout(static_cast<int>(out.size()), out);
    hx::parallel_for_each(warp.get_default_view(), vout.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { vout[i] = 3 * vin[i] - 1; });
  }
  for (std::size_t i = 0; i < in.size(); ++i) REQUIRE(out[i] == 3 * in[i] - 1);
}

TEST_CASE("the default accelerator is the first GPU, else the CPU device", "[accelerator]") {
  const accelerator def;
  const std::vector<accelerator> all = accelerator::get_all();
  const char* env = std::getenv("HIPAMP_DEFAULT_ACCELERATOR");
  if (env == nullptr) {
    CHECK(def == all.front());
  } else if (std::string(env) == "cpu") {
    CHECK(def == accelerator(accelerator::cpu_accelerator));
  } else if (std::string(env) == "emulated") {
    CHECK(def.get_device_path() == L"cpu-discrete");
  }
  CHECK(accelerator(accelerator::default_accelerator) == def);
  // The default is fixed once used; setting it to the same device still succeeds.
  CHECK(accelerator::set_default(def.get_device_path()));
  const bool other_ok = accelerator::set_default(accelerator::cpu_accelerator);
  CHECK(other_ok == (def == accelerator(accelerator::cpu_accelerator)));
}

TEST_CASE("unknown device paths throw naming the path", "[accelerator][errors]") {
  try {
    accelerator bogus(L"no-such-device");
    FAIL("no exception");
  } catch (const hx::runtime_exception& e) {
    CHECK(std::string(e.what()).find("no-such-device") != std::string::npos);
  }
}

TEST_CASE("accelerator views are in-order queues with markers", "[accelerator_view]") {
  FOR_EACH_ACCELERATOR(acc) {
    hx::accelerator_view immediate = acc.create_view(hx::queuing_mode_immediate);
    hx::accelerator_view automatic = acc.create_view();
    CHECK(immediate.get_queuing_mode() == hx::queuing_mode_immediate);
    CHECK(automatic.get_queuing_mode() == hx::queuing_mode_automatic);
    CHECK(immediate != automatic);
    CHECK(immediate.get_accelerator() == acc);
    CHECK(acc.get_default_view() == acc.get_default_view());
    std::vector<int> data(4096, 1);
    hx::array_view<int, 1> v(4096, data);
    for (int step = 0; step < 5; ++step) {
      hx::parallel_for_each(immediate, v.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] *= 2; });
    }
    hx::completion_future marker = immediate.create_marker();
    marker.wait();
    CHECK(marker.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    immediate.flush();
    immediate.wait();
    CHECK(v[4095] == 32);
  }
}

TEST_CASE("completion_future get, wait_for and then", "[completion_future]") {
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  hx::completion_future f(std::async(std::launch::async, [opened] { opened.wait(); }).share());
  CHECK(f.valid());
  CHECK(f.wait_for(std::chrono::milliseconds(5)) == std::future_status::timeout);
  std::atomic<bool> continued{false};
  f.then([&continued] { continued = true; });
  gate.set_value();
  f.get();
  // Up to 10 s for the continuation thread: CI runs this beside compiles on 2 cores.
  for (int i = 0; i < 10000 && !continued; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(continued);
  const std::shared_future<void> as_std = f;
  CHECK(as_std.valid());

  hx::completion_future failing(
      std::async(std::launch::async, [] { throw hx::out_of_memory("test: no memory"); }).share());
  CHECK_THROWS_AS(failing.get(), hx::out_of_memory);
  CHECK(!hx::completion_future().valid());
}

TEST_CASE("parallel_for_each rejects empty and negative domains", "[parallel_for_each][errors]") {
  FOR_EACH_ACCELERATOR(acc) {
    auto kernel1 = [] HIPAMP_RESTRICT(hx::index<1>) {};
    auto kernel2 = [] HIPAMP_RESTRICT(hx::index<2>) {};
    CHECK_THROWS_AS(hx::parallel_for_each(acc.get_default_view(), hx::extent<1>(0), kernel1),
                    hx::invalid_compute_domain);
    CHECK_THROWS_AS(hx::parallel_for_each(acc.get_default_view(), hx::extent<2>(4, -2), kernel2),
                    hx::invalid_compute_domain);
    try {
      hx::parallel_for_each(acc.get_default_view(), hx::extent<2>(4, -2), kernel2);
    } catch (const hx::invalid_compute_domain& e) {
      CHECK(std::string(e.what()).find("[4, -2]") != std::string::npos);
    }
  }
}

TEST_CASE("exceptions carry their C++ AMP error codes", "[exceptions]") {
  CHECK(hx::out_of_memory("x").get_error_code() == 0x8007000EL);
  CHECK(hx::invalid_compute_domain("x").get_error_code() == 0x80070057L);
  CHECK(hx::unsupported_feature("x").get_error_code() == 0x80004001L);
  const hx::accelerator_view_removed removed("gone", 0x887A0006L);
  CHECK(removed.get_view_removed_reason() == 0x887A0006L);
  const hx::runtime_exception& base = removed;
  CHECK(std::string(base.what()) == "gone");
}

// A throwing lambda is no kernel a GPU compiler accepts (C++ AMP kernels cannot throw either);
// in CPU-only translation units the CPU device still reports the exception.
#if !HIPAMP_GPU_TRANSLATION_UNIT
TEST_CASE("a kernel's exception on the CPU device reaches the caller",
          "[parallel_for_each][errors]") {
  hx::accelerator cpu(hx::accelerator::cpu_accelerator);
  auto throwing = [](hx::index<1> i) {
    if (i[0] == 77777) throw std::runtime_error("kernel failed at 77777");
  };
  CHECK_THROWS_WITH(hx::parallel_for_each(cpu.get_default_view(), hx::extent<1>(100000), throwing),
                    "kernel failed at 77777");
}
#endif

TEST_CASE("allocations beyond memory throw out_of_memory naming the size", "[exceptions][memory]") {
  struct page {
    char bytes[1 << 16];
  };
  FOR_EACH_ACCELERATOR(acc) {
    try {
      hx::array<page, 1> huge(0x7FFFFFFF, acc.get_default_view());  // 128 TiB
      FAIL("a 128 TiB array was allocated");
    } catch (const hx::out_of_memory& e) {
      CHECK(std::string(e.what()).find("140737488289792") != std::string::npos);
    }
  }
}
