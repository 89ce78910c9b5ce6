/* Asynchronous signals (a timer firing in a busy loop: FUP + TIP.PGD at an
 * arbitrary instruction) and a fault (SIGSEGV at a store, handler leaves
 * with siglongjmp). */
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t alarmed;
static sigjmp_buf env;

static void on_alarm(int sig) { alarmed += sig; }
static void on_segv(int sig) { siglongjmp(env, sig); }

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, 0);
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, 0);

	struct itimerval it = { { 0, 0 }, { 0, 2000 } };
	setitimer(ITIMER_REAL, &it, 0);
	volatile long i = 0;
	while (!alarmed && i < 100000)
		i++;
	if (!sigsetjmp(env, 1))
		*(volatile int *)16 = 1;
	return alarmed == 0;
}
