/* Workload for bench/pt_script_bench.sh: sorting, recursion and loops, N
 * rounds (argv[1]); traced by the PT emulator. */
#include <stdlib.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	static int v[256];
	unsigned acc = 0;
	for (long i = 0; i < n; i++) {
		for (int k = 0; k < 256; k++)
			v[k] = (int)((k * 2654435761u + (unsigned)i) >> 7);
		qsort(v, 256, sizeof(v[0]), cmp);
		acc += fib(10 + (unsigned)(i & 3)) + (unsigned)v[i & 255];
	}
	return (int)(acc & 1);
}
