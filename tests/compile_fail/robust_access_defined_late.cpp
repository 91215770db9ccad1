// expect: HIPAMP_ROBUST_ACCESS changed after the first hipamp header
// A port's HIPAMP_ROBUST_ACCESS defined after another hipamp header would reach only part of
// the unit (config.hpp has already chosen); <hipamp/amp.h> refuses it.
#include <hipamp/hipamp.hpp>
#define HIPAMP_ROBUST_ACCESS 1
#include <hipamp/amp.h>
int main() { return 0; }
