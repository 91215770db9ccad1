// hipamp's demo: every seed workload on the best accelerator and on the CPU device (and any
// other accelerator present), each checked against a serial reference and timed.
// Exit status is non-zero if any check fails.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "workloads/matrix_multiply.hpp"
#include "workloads/nbody.hpp"
#include "workloads/reduction.hpp"
#include "workloads/sort.hpp"
#include "workloads/vector_add.hpp"

namespace {

struct workload {
  const char* name;
  std::function<std::vector<demo::result>(const hipamp::accelerator_view&)> run;
};

std::vector<workload> workloads() {
  return {
      {"vector add",
       [](const hipamp::accelerator_view& av) {
         return std::vector<demo::result>{demo::run_vector_add(av)};
       }},
      {"matrix multiply", demo::run_matrix_multiply},
      {"sort", demo::run_sort},
      {"reduction", [](const hipamp::accelerator_view& av) { return demo::run_reduction(av); }},
      {"n-body",
       [](const hipamp::accelerator_view& av) {
         std::vector<demo::result> rows;
         for (demo::nbody::kernel k : {demo::nbody::kernel::simple, demo::nbody::kernel::tiled}) {
           if (demo::nbody::has_kernel(k)) rows.push_back(demo::run_nbody(av, k));
         }
         return rows;
       }},
  };
}

std::vector<hipamp::accelerator> demo_accelerators() {
  std::vector<hipamp::accelerator> out{hipamp::accelerator()};  // the best accelerator first
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    if (acc != out.front()) out.push_back(acc);
  }
  return out;
}

}  // namespace

int main() {
  std::printf("hipamp %d.%d.%d demo (backend: %s)\n\n", HIPAMP_VERSION_MAJOR, HIPAMP_VERSION_MINOR,
              HIPAMP_VERSION_PATCH, HIPAMP_BACKEND_NAME);
  std::printf("%-12s | %-26s | %-22s | %10s | %s\n", "accelerator", "workload", "size", "time (ms)",
              "check");
  std::printf("%s\n", std::string(100, '-').c_str());
  bool all_ok = true;
  for (const hipamp::accelerator& acc : demo_accelerators()) {
    for (const workload& w : workloads()) {
      std::fprintf(stderr, "running %s on %s...\n", w.name,
                   demo::narrow(acc.get_device_path()).c_str());
      std::vector<demo::result> rows;
      try {
        rows = w.run(acc.get_default_view());
      } catch (const std::exception& e) {
        demo::result failed;
        failed.workload = w.name;
        failed.note = std::string("error: ") + e.what();
        rows.push_back(failed);
      }
      for (const demo::result& r : rows) {
        all_ok = all_ok && r.ok;
        std::printf("%-12s | %-26s | %-22s | %10.3f | %s (%s)\n",
                    demo::narrow(acc.get_device_path()).c_str(), r.workload.c_str(), r.size.c_str(),
                    r.seconds * 1e3, r.ok ? "OK" : "FAILED", r.note.c_str());
      }
      std::fflush(stdout);
    }
  }
  std::printf("\naccelerators:\n");
  for (const hipamp::accelerator& acc : demo_accelerators()) {
    std::printf("  %-12s %s\n", demo::narrow(acc.get_device_path()).c_str(),
                demo::narrow(acc.get_description()).c_str());
  }
  std::printf("\n%s\n", all_ok ? "all checks passed" : "SOME CHECKS FAILED");
  return all_ok ? 0 : 1;
}
