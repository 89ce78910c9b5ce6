/* The progress bar: redrawn at most ten times a second on one stderr
 * line, starting one second into the run so quick runs print nothing.
 * HWPROF_PROGRESS_DELAY (seconds) changes that start, so tests can see
 * the bar on a pseudo-terminal without depending on the machine's speed. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

#define DELAY_S 1.0
#define REDRAW_S 0.1
#define BAR 24

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total, bool quiet)
{
	const char *d = getenv("HWPROF_PROGRESS_DELAY");
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->delay = d && *d ? atof(d) : DELAY_S;
	p->drawn = false;
	p->t0 = p->last = now_s();
	p->total = total;
	p->what = what;
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
	if (!p->enabled)
		return;
	double t = now_s();
	if (t - p->t0 < p->delay || (p->drawn && t - p->last < REDRAW_S))
		return;
	p->last = t;
	double mb = (double)done / 1e6, rate = t > p->t0 ? mb / (t - p->t0) : 0;
	char bar[BAR + 1];
	if (p->total && done <= p->total) {
		double frac = (double)done / (double)p->total;
		int fill = (int)(frac * BAR);
		for (int i = 0; i < BAR; i++)
			bar[i] = i < fill ? '#' : '-';
		bar[BAR] = 0;
		double eta = rate > 0 ? ((double)(p->total - done) / 1e6) / rate : 0;
		unsigned e = (unsigned)(eta + 0.5);
		fprintf(stderr, "\r%s [%s] %5.1f%%  %.1f/%.1f MB  %.1f MB/s  ETA %u:%02u\033[K", p->what, bar,
			100.0 * frac, mb, (double)p->total / 1e6, rate, e / 60, e % 60);
	} else {
		fprintf(stderr, "\r%s  %.1f MB  %.1f MB/s\033[K", p->what, mb, rate);
	}
	p->drawn = true;
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = false;
}

void cli_progress_cb(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;
	if (total && !p->total)
		p->total = total;
	cli_progress_update(p, done);
}
