/* perf report --stdio's text: the per-event "# Samples" block, the column
 * header and the entry rows of a histogram, byte for byte as perf 6.1
 * prints them. The reading and summing is report_run.c's job. */
#ifndef HWPROF_CLI_PRINT_REPORT_H
#define HWPROF_CLI_PRINT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/report.h"

struct hwprof_session;

#define REPORT_MAX_COLS 16

struct report_layout {
	enum hwprof_hist_key cols[REPORT_MAX_COLS];  /* output columns in order */
	size_t nr_cols;
	float percent_limit;
	bool quiet;
};

/* One event's section: "# Samples: ..." (unless quiet), the header and the
 * rows at or above the percent limit, then the two closing newlines.
 * Thread comms for the column widths come from the session, as perf takes
 * them from its thread table after reading. */
void print_report_hist(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, const char *evname,
		       struct hwprof_session *s);

/* The closing tip block perf prints after the sections (unless quiet). */
void print_report_tip(FILE *f);

#endif
