// Judges the two units' reports (two_units.hpp). Expected, for every operation:
//   - a GPU translation unit, with a GPU present: the GPU's view and auto-selection run on the
//     GPU (a sort of host data without a view runs where the data is: the CPU device);
//   - a host translation unit: auto-selection runs on the CPU device, and the GPU's view is
//     refused with hipamp::unsupported_feature before any byte moves;
//   - the CPU device's view runs on the CPU device in both; without a GPU, everything does.
// Results must equal the host references (or, after a refusal, the data be untouched).
// Exit status 0 when every outcome is as expected.
#include <cstdio>
#include <string>

#include "two_units.hpp"

namespace {

using two_units::ran;

const char* name(ran r) {
  switch (r) {
    case ran::cpu_device:
      return "CPU device";
    case ran::gpu:
      return "GPU";
    case ran::refused:
      return "refused";
    case ran::skipped:
      return "skipped (no GPU)";
    case ran::wrong:
      return "WRONG";
  }
  return "?";
}

bool gpu_present() {
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    if (!acc.is_cpu()) return true;
  }
  return false;
}

ran expected(const two_units::unit_report& unit, const two_units::outcome& o, bool gpu) {
  if (o.target == "cpu") return ran::cpu_device;
  if (o.target == "gpu") {
    if (!gpu) return ran::skipped;
    return unit.gpu_translation_unit ? ran::gpu : ran::refused;
  }
  // Auto-selection. A sort without a view runs where its data lives (sort.hpp): host memory.
  if (o.operation.rfind("sort(", 0) == 0) return ran::cpu_device;
  return gpu && unit.gpu_translation_unit ? ran::gpu : ran::cpu_device;
}

int judge(const two_units::unit_report& unit, bool gpu) {
  int failures = 0;
  std::printf("%s (%s translation unit):\n", unit.unit.c_str(),
              unit.gpu_translation_unit ? "GPU" : "host");
  for (const two_units::outcome& o : unit.outcomes) {
    const ran want = expected(unit, o, gpu);
    const bool ok = o.where == want && (o.where == ran::skipped || o.correct);
    failures += ok ? 0 : 1;
    std::printf(
        "  %-4s %-6s %-40s %-16s%s%s%s%s\n", ok ? "ok" : "FAIL", o.target.c_str(),
        o.operation.c_str(), name(o.where), ok ? "" : " expected ", ok ? "" : name(want),
        o.where != ran::skipped && !o.correct ? ", wrong result" : "",
        o.detail.empty() || (ok && o.where == ran::refused) ? "" : ("; " + o.detail).c_str());
  }
  return failures;
}

}  // namespace

int main() {
  const bool gpu = gpu_present();
  std::printf("two translation units, %s\n", gpu ? "with a GPU" : "without a GPU");
  const int failures =
      judge(two_units::run_gpu_unit(), gpu) + judge(two_units::run_host_unit(), gpu);
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
