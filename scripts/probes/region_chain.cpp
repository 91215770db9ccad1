// Issue 19 (session 20): what one more dependent read costs the threads of an OpenMP region
// when the line it reads was just written by the thread that forked the region. The master
// rewrites a chain of cache lines (as a launch writes its bound kernel and its records) and
// forks; each thread follows `depth` links before it is done. Prints the median and 25th
// percentile time per region for depth 0 (the region's own data only) to 6.
//   g++ -O2 -fopenmp scripts/probes/region_chain.cpp -o region_chain
//   OMP_NUM_THREADS=16 OMP_PROC_BIND=close ./region_chain
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

struct alignas(64) link {
  link* next;
  long payload[7];
};
link chain[8];
volatile long sink;

__attribute__((noinline)) void region(int depth) {
  for (int i = 0; i < 8; ++i) {
    chain[i].payload[0] = i;
    chain[i].next = &chain[(i + 1) % 8];
  }
  link* head = &chain[0];
#pragma omp parallel firstprivate(head, depth)
  {
    const link* at = head;
    for (int d = 0; d < depth; ++d) at = at->next;
    if (at->payload[0] == 12345) sink = 1;
  }
}

}  // namespace

int main() {
  for (const int depth : {0, 1, 2, 3, 4, 6}) {
    std::vector<double> us;
    for (int rep = 0; rep < 20000; ++rep) {
      const auto begin = std::chrono::steady_clock::now();
      region(depth);
      const auto end = std::chrono::steady_clock::now();
      us.push_back(std::chrono::duration<double, std::micro>(end - begin).count());
    }
    std::sort(us.begin(), us.end());
    std::printf("depth %d: median %.3f us, p25 %.3f us\n", depth, us[us.size() / 2],
                us[us.size() / 4]);
  }
}
