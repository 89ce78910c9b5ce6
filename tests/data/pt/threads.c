/* Threads: each has its own trace (perf's per-thread mode); the main thread
 * waits in a futex while the workers run. */
#include <pthread.h>

static volatile long sink[4];

static void *work(void *arg)
{
	long k = (long)arg;
	for (int i = 0; i < 300 * (int)(k + 1); i++)
		sink[k] += i ^ k;
	return 0;
}

int main(void)
{
	pthread_t t[3];
	for (long k = 0; k < 3; k++)
		pthread_create(&t[k], 0, work, (void *)k);
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], 0);
	return sink[0] == 12345;
}
