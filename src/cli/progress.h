/* A progress bar on stderr for long reads: shown only when stderr is a
 * terminal, the run has taken more than a second and -q was not given.
 * Shows bytes processed, the rate and, when the size is known, the ETA. */
#ifndef HWPROF_CLI_PROGRESS_H
#define HWPROF_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct cli_progress {
	bool enabled, drawn;
	double t0, last, delay;
	uint64_t total;
	const char *what;
};

void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total, bool quiet);
void cli_progress_update(struct cli_progress *p, uint64_t done);
/* Erases the bar if it was drawn. */
void cli_progress_done(struct cli_progress *p);
/* Adapter for callbacks of the form (ctx, done, total); ctx is the bar. */
void cli_progress_cb(void *ctx, uint64_t done, uint64_t total);

#endif
