/* Loops, recursion, indirect calls and a switch (jump table): the flow
 * decoder must follow TNT, TIP and compressed returns through all of them. */
#include <stdlib.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int sq(int x) { return x * x; }
static int neg(int x) { return -x; }
static int (*volatile ops[2])(int) = { sq, neg };

static int sw(int k)
{
	switch (k & 7) {
	case 0: return 3;
	case 1: return k * 5;
	case 2: return k ^ 9;
	case 3: return k - 11;
	case 4: return k + 13;
	case 5: return k << 2;
	default: return 1;
	}
}

int main(int argc, char **argv)
{
	volatile int acc = 0;
	for (int i = 0; i < 200; i++)
		acc += ops[i & 1](i) + sw(i);
	acc += fib(12 + (argc > 5));
	return acc == 42 ? 1 : 0;
}
