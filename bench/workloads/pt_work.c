/* make bench: a small real workload (sorting, hashing, calls through
 * qsort's comparison function) for the Intel PT emulator to trace. */
#include <stdlib.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static unsigned h(unsigned x) { for (int i = 0; i < 8; i++) x = x * 2654435761u ^ (x >> 13); return x; }
int main(void) {
  int v[512]; unsigned s = 1, acc = 0;
  for (int r = 0; r < 40; r++) {
    for (int i = 0; i < 512; i++) v[i] = (int)(h(s++) & 0xffff);
    qsort(v, 512, sizeof(int), cmp);
    for (int i = 0; i < 512; i++) if (v[i] & 1) acc += h(v[i]); else acc ^= (unsigned)v[i];
  }
  return acc == 42;
}
