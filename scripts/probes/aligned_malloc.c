// EXPERIMENT (issue 19, session 19): every malloc rounded up to whole 64-byte lines and aligned
// to one, so no two heap blocks share a cache line. LD_PRELOAD it into bench_gpu_runtime to see
// whether the launch's slow group (scripts/probes/launch_placement.sh) is heap false sharing.
// Build with -fno-builtin: GCC otherwise turns calloc's malloc + memset into a call to calloc.
#define _GNU_SOURCE
#include <malloc.h>
#include <stddef.h>
#include <string.h>

extern void* __libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void* p);

static size_t lines(size_t n) { return n == 0 ? 64 : (n + 63) & ~(size_t)63; }
void* malloc(size_t n) { return __libc_memalign(64, lines(n)); }
void free(void* p) { __libc_free(p); }
void* calloc(size_t count, size_t size) {
  const size_t n = count * size;
  if (size != 0 && n / size != count) return NULL;
  void* p = malloc(n);
  if (p) memset(p, 0, n);
  return p;
}
void* realloc(void* p, size_t n) {
  if (p == NULL) return malloc(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  const size_t old = malloc_usable_size(p);
  void* q = malloc(n);
  if (q) {
    memcpy(q, p, old < n ? old : n);
    free(p);
  }
  return q;
}
