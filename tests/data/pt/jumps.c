/* setjmp/longjmp (returns that do not match calls), a signal handler entered
 * asynchronously and via raise(), deep recursion past the 64-entry return
 * stack, and function pointers through a table. */
#include <setjmp.h>
#include <signal.h>
#include <string.h>

static jmp_buf env;
static volatile int hits;

static void deep(int n)
{
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
	hits++;
}

static int rec(int n) { return n ? 1 + rec(n - 1) : 0; }

static void on_sig(int sig) { hits += sig; }

int main(void)
{
	for (int i = 0; i < 3; i++)
		if (!setjmp(env))
			deep(5 + i * 40);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, 0);
	raise(SIGUSR1);
	volatile int *p = &hits;
	for (int i = 0; i < 3; i++)
		*p += rec(100);
	return hits == 12345;
}
