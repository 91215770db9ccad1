// The checks both units run, as templates on a tag type each unit defines for itself, so each
// unit gets its own copy of the checks (a plain inline function here would itself be one
// definition compiled two ways) while the library templates they call are shared by name.
#pragma once

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "two_units.hpp"

namespace two_units {

// Not a power of two, so every sort path meets a tail.
inline constexpr int size = 100003;

template <class Unit>
class checks {
 public:
  explicit checks(const char* unit) {
    report_.unit = unit;
    report_.gpu_translation_unit = HIPAMP_GPU_TRANSLATION_UNIT != 0;
    for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
      if (!acc.is_cpu() && !gpu_) gpu_ = acc.get_default_view();
    }
    const std::random_device::result_type seed = std::random_device{}();
    rng_.seed(seed);
    seed_ = " (seed " + std::to_string(seed) + ")";
  }

  unit_report run() {
    for (const char* target : {"gpu", "cpu", "auto"}) {
      sort_view(target);
      reduce_view(target);
      scan_view(target);
      kernel(target);
      if (std::string(target) != "auto") {  // the array API runs where the array lives
        sort_array(target);
        sort_keys(target);
      }
    }
    return report_;
  }

 private:
  // What an operation moves when it runs on a GPU: views of host data it writes move in and
  // out; a read-only view (a reduction, whose one result comes back through the queue, not a
  // view) only moves in; the array API's data starts on its device, so only its result comes
  // back. On the CPU device nothing moves.
  enum class on_gpu_moves { in_and_out, in_only, out_only };

  // Runs `work` on `target`'s view ("auto": the overload without one) and classifies where it
  // ran from the bytes it moved (on_gpu_moves). `is_result` judges the data after a run,
  // `is_input` after a refusal.
  void attempt(const std::string& operation, const std::string& target, on_gpu_moves moves,
               const std::function<void(const hipamp::accelerator_view*)>& work,
               const std::function<bool()>& is_result, const std::function<bool()>& is_input) {
    outcome o;
    o.operation = operation;
    o.target = target;
    const std::optional<hipamp::accelerator_view> av = view_for(target);
    if (target == "gpu" && !av) {
      o.where = ran::skipped;
      report_.outcomes.push_back(o);
      return;
    }
    hipamp::reset_transfer_statistics();
    try {
      work(av ? &*av : nullptr);
      o.where = where_by_transfers(hipamp::get_transfer_statistics(), moves, o.detail);
      o.correct = is_result();
    } catch (const hipamp::unsupported_feature& e) {
      const hipamp::transfer_statistics moved = hipamp::get_transfer_statistics();
      o.where = moved_nothing(moved) ? ran::refused : ran::wrong;
      o.correct = is_input();
      o.detail = e.what();
    } catch (const std::exception& e) {
      o.where = ran::wrong;
      o.detail = std::string("unexpected exception: ") + e.what();
    }
    if (!o.correct) o.detail += seed_;
    report_.outcomes.push_back(o);
  }

  std::optional<hipamp::accelerator_view> view_for(const std::string& target) const {
    if (target == "gpu") return gpu_;
    if (target == "cpu") {
      return hipamp::accelerator(hipamp::accelerator::cpu_accelerator).get_default_view();
    }
    return std::nullopt;
  }

  static bool moved_nothing(const hipamp::transfer_statistics& s) {
    return s.host_to_device_bytes == 0 && s.device_to_host_bytes == 0 &&
           s.device_to_device_bytes == 0;
  }
  static ran where_by_transfers(const hipamp::transfer_statistics& s, on_gpu_moves moves,
                                std::string& detail) {
    if (moved_nothing(s)) return ran::cpu_device;
    const bool in = s.host_to_device_bytes > 0;
    const bool out = s.device_to_host_bytes > 0;
    if ((moves == on_gpu_moves::in_and_out && in && out) ||
        (moves == on_gpu_moves::in_only && in && !out) ||
        (moves == on_gpu_moves::out_only && out)) {
      return ran::gpu;
    }
    detail = "moved " + std::to_string(s.host_to_device_bytes) + " bytes in, " +
             std::to_string(s.device_to_host_bytes) + " out";
    return ran::wrong;
  }

  std::vector<unsigned> random_u32() {
    std::vector<unsigned> v(size);
    for (unsigned& x : v) x = static_cast<unsigned>(rng_());
    return v;
  }
  std::vector<int> random_int() {
    std::uniform_int_distribution<int> dist(-1000, 1000);
    std::vector<int> v(size);
    for (int& x : v) x = dist(rng_);
    return v;
  }

  void sort_view(const std::string& target) {
    std::vector<unsigned> data = random_u32();
    const std::vector<unsigned> input = data;
    std::vector<unsigned> expected = data;
    std::sort(expected.begin(), expected.end());
    attempt(
        "sort(view, less_u32)", target, on_gpu_moves::in_and_out,
        [&](const hipamp::accelerator_view* av) {
          const hipamp::array_view<unsigned, 1> view(size, data);
          if (av) {
            hipamp::sort(*av, view, less_u32{});
          } else {
            hipamp::sort(view, less_u32{});
          }
          view.synchronize();
        },
        [&] { return data == expected; }, [&] { return data == input; });
  }

  void reduce_view(const std::string& target) {
    const std::vector<int> data = random_int();
    const int expected = std::accumulate(data.begin(), data.end(), 0);
    int result = 0;
    attempt(
        "reduce(view, 0)", target, on_gpu_moves::in_only,
        [&](const hipamp::accelerator_view* av) {
          const hipamp::array_view<const int, 1> view(size, data);
          result = av ? hipamp::reduce(*av, view, 0) : hipamp::reduce(view, 0);
        },
        [&] { return result == expected; }, [&] { return result == 0; });
  }

  void scan_view(const std::string& target) {
    const std::vector<int> data = random_int();
    std::vector<int> out(size, -7);
    std::vector<int> expected(size);
    std::partial_sum(data.begin(), data.end(), expected.begin());
    attempt(
        "inclusive_scan(in, out)", target, on_gpu_moves::in_and_out,
        [&](const hipamp::accelerator_view* av) {
          const hipamp::array_view<const int, 1> in(size, data);
          const hipamp::array_view<int, 1> result(size, out);
          if (av) {
            hipamp::inclusive_scan(*av, in, result);
          } else {
            hipamp::inclusive_scan(in, result);
          }
          result.synchronize();
        },
        [&] { return out == expected; },
        [&] { return std::all_of(out.begin(), out.end(), [](int x) { return x == -7; }); });
  }

  // Where the kernel ran comes from the kernel itself (device code or not), checked against
  // the bytes moved.
  void kernel(const std::string& target) {
    const std::vector<int> data = random_int();
    std::vector<int> out(size, -7), gpu_code(size, -7);
    std::vector<int> expected(size);
    std::transform(data.begin(), data.end(), expected.begin(), [](int x) { return 3 * x + 1; });
    const std::string operation = "parallel_for_each(affine_and_mark)";
    attempt(
        operation, target, on_gpu_moves::in_and_out,
        [&](const hipamp::accelerator_view* av) {
          const affine_and_mark k{hipamp::array_view<const int, 1>(size, data),
                                  hipamp::array_view<int, 1>(size, out),
                                  hipamp::array_view<int, 1>(size, gpu_code)};
          if (av) {
            hipamp::parallel_for_each(*av, k.out.extent, k);
          } else {
            hipamp::parallel_for_each(k.out.extent, k);
          }
          k.out.synchronize();
          k.gpu_code.synchronize();
        },
        [&] { return out == expected; },
        [&] { return std::all_of(out.begin(), out.end(), [](int x) { return x == -7; }); });
    outcome& o = report_.outcomes.back();
    if (o.where == ran::gpu || o.where == ran::cpu_device) {
      const int want = o.where == ran::gpu ? 1 : 0;
      if (!std::all_of(gpu_code.begin(), gpu_code.end(), [&](int x) { return x == want; })) {
        o.detail = "the kernel's own report (HIPAMP_DEVICE_COMPILE) disagrees with the bytes moved";
        o.where = ran::wrong;
      }
    }
  }

  // parallel_sort runs on the array's accelerator_view (the array is made before the counters
  // start); the sorted copy stays there, so bringing it to the host moves bytes only from a GPU.
  void sort_array(const std::string& target) {
    const std::vector<unsigned> input = random_u32();
    std::vector<unsigned> expected = input;
    std::sort(expected.begin(), expected.end());
    std::vector<unsigned> out;
    attempt(
        "parallel_sort(array)", target, on_gpu_moves::out_only,
        [&](const hipamp::accelerator_view* av) {
          const hipamp::array<unsigned, 1> source(size, input.begin(), input.end(), *av);
          hipamp::reset_transfer_statistics();
          const std::shared_ptr<hipamp::array<unsigned, 1>> sorted = hipamp::parallel_sort(source);
          out.resize(size);
          hipamp::copy(*sorted, out.begin());
        },
        [&] { return out == expected; }, [&] { return out.empty(); });
  }

  void sort_keys(const std::string& target) {
    std::vector<particle> input(size);
    std::uniform_int_distribution<unsigned> cell(0, 999);  // many ties
    for (particle& p : input) p = {static_cast<float>(rng_() % 100), cell(rng_)};
    using key = hipamp::key_index_t<particle>;
    std::vector<key> keys;
    attempt(
        "parallel_sort_keys(array of particle)", target, on_gpu_moves::out_only,
        [&](const hipamp::accelerator_view* av) {
          const hipamp::array<particle, 1> source(size, input.begin(), input.end(), *av);
          hipamp::reset_transfer_statistics();
          const std::shared_ptr<hipamp::array<key, 1>> sorted = hipamp::parallel_sort_keys(source);
          keys.resize(size);
          hipamp::copy(*sorted, keys.begin());
        },
        [&] {
          // Sorted by cell, and a permutation of the source whose keys are its elements' cells.
          std::vector<bool> seen(size, false);
          for (std::size_t j = 0; j < keys.size(); ++j) {
            const key& kj = keys[j];
            if (kj.i < 0 || kj.i >= size || seen[kj.i] || kj.k != input[kj.i].cell) return false;
            if (j > 0 && keys[j - 1].k > kj.k) return false;
            seen[kj.i] = true;
          }
          return keys.size() == static_cast<std::size_t>(size);
        },
        [&] { return keys.empty(); });
  }

  unit_report report_;
  std::optional<hipamp::accelerator_view> gpu_;
  std::mt19937 rng_;
  std::string seed_;
};

}  // namespace two_units
