/* The perf.data header as `perf report --header-only` prints it (perf 6.1):
 * print_header() for an open reader handle, print_header_view() for any
 * source that can hand out the file header facts and feature payloads. */
#ifndef HWPROF_CLI_PRINT_HEADER_H
#define HWPROF_CLI_PRINT_HEADER_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"

/* What the printer needs from a perf.data input. */
struct hdr_view {
	bool pipe, swapped;
	uint64_t data_offset, data_size; /* 0 in pipe mode */
	uint64_t features[4];            /* adds_features (file mode) */
	time_t mtime;                    /* the input's modification time */
	const uint8_t *feat_data[HWPROF_FEAT_LAST];
	uint64_t feat_size[HWPROF_FEAT_LAST];
	bool feat_present[HWPROF_FEAT_LAST];
	/* the events' names in file order (perf's evsel__name()), for the
	 * group listing of a file without EVENT_DESC; NULL: none known */
	uint32_t nr_evsels;
	const char *const *evsel_names;
};

/* `perf report --header-only` (header_only) or the header part of
 * `perf report --header`; the two print the same in perf 6.1. Pipe-mode
 * input is read to its end to collect HEADER_FEATURE records. */
int print_header(FILE *out, struct hwprof_perfdata *h, bool header_only);
/* Same, with full = true for `-I` (topology, caches, memory detail). */
int print_header_opts(FILE *out, struct hwprof_perfdata *h, bool header_only, bool full);
/* The header as known before any record is read (perf's report --stats
 * --header): a pipe's features, which arrive as records, are not shown and
 * nothing is read. */
int print_header_now(FILE *out, struct hwprof_perfdata *h, bool full);
int print_header_view(FILE *out, const struct hdr_view *v, bool header_only, bool full);

/* perf_event_attr fields as perf's attr printer lists them: every non-zero
 * field as `, name = value` (the `# event :` line format). */
void print_attr_fields(FILE *out, const struct hwprof_attr *a);

#endif
