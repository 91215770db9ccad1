// Issue 19 (session 21): can the launching thread's serial work (binding views, the launch
// protocol) hide behind the fork of the OpenMP region? saxpy over 2^16 floats, as the simple
// model benchmark, after `work_ns` of serial work done
//   before: by the launching thread before it forks (what a launch does today);
//   inside: by thread 0 inside the region while the others wait on a flag it then sets (bind
//           inside the region: the others' wake-up overlaps the work).
// Prints the median time per launch of each, and of the plain `omp parallel for simd` loop,
// timed in turn with them.
//   g++ -O2 -fopenmp -march=native scripts/probes/fork_first.cpp -o fork_first
//   OMP_NUM_THREADS=16 OMP_PROC_BIND=close ./fork_first
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

constexpr int n = 1 << 16;
float x[n], y[n];
volatile double sink;

// About `iterations` dependent multiply-adds: serial work the compiler cannot remove.
__attribute__((noinline)) void serial_work(long iterations) {
  double v = 1.0;
  for (long i = 0; i < iterations; ++i) v = v * 0.999999 + 1e-9;
  sink = v;
}

struct alignas(64) ready_flag {
  std::atomic<long> generation{0};
};
ready_flag ready;

__attribute__((noinline)) void plain(float a) {
#pragma omp parallel for simd
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) void before(float a, long work) {
  serial_work(work);
#pragma omp parallel for simd
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) void inside(float a, long work) {
  const long generation = ready.generation.load(std::memory_order_relaxed) + 1;
#pragma omp parallel firstprivate(a, work, generation)
  {
    if (omp_get_thread_num() == 0) {
      serial_work(work);
      ready.generation.store(generation, std::memory_order_release);
    } else {
      while (ready.generation.load(std::memory_order_acquire) != generation) {
        __builtin_ia32_pause();
      }
    }
#pragma omp for simd schedule(static) nowait
    for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
  }
}

double median(std::vector<double>& us) {
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// The three launches in turn, 20000 times: on this VM the time per region moves by up to 1 us
// between blocks of repetitions (libgomp's spinning, the host), far more than the effect, so
// each variant must be timed interleaved with the others.
void compare(long iterations, double work_ns) {
  std::vector<double> p, b, in;
  auto time = [](std::vector<double>& into, auto&& f) {
    const auto begin = std::chrono::steady_clock::now();
    f();
    const auto end = std::chrono::steady_clock::now();
    into.push_back(std::chrono::duration<double, std::micro>(end - begin).count());
  };
  for (int rep = 0; rep < 20000; ++rep) {
    time(p, [] { plain(1.0001f); });
    time(b, [&] { before(1.0001f, iterations); });
    time(in, [&] { inside(1.0001f, iterations); });
  }
  const double mp = median(p), mb = median(b), mi = median(in);
  std::printf("work %6.0f ns: plain %.3f us, before %.3f us (+%.3f), inside %.3f us (+%.3f)\n",
              work_ns, mp, mb, mb - mp, mi, mi - mp);
}
}  // namespace

int main() {
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7), y[i] = 1.0f;
  // Calibrate: iterations per ns of serial work on one thread.
  const auto t0 = std::chrono::steady_clock::now();
  serial_work(10000000);
  const double ns_per_iteration =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 1e7;
  std::printf("threads %d, serial work %.3f ns per iteration\n", omp_get_max_threads(),
              ns_per_iteration);
  for (int round = 0; round < 2; ++round) {
    for (const double work_ns : {0.0, 150.0, 300.0, 600.0, 1200.0}) {
      compare(static_cast<long>(work_ns / ns_per_iteration), work_ns);
    }
  }
}
