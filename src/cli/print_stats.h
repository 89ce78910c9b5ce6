/* perf's per-record-type event statistics ("Aggregated stats:" and the
 * per-event "... stats:" blocks) as report -D ends and report --stats
 * prints them. */
#ifndef HWPROF_CLI_PRINT_STATS_H
#define HWPROF_CLI_PRINT_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/session.h"

/* perf's name of a record type (PERF_RECORD_<name>), or NULL for types it
 * has no name for; types up to 127. */
const char *stats_record_name(uint32_t type);
/* The "Aggregated stats:" block: nr_events[0] is the total, then each
 * type perf 6.1 counts that occurred (n entries); aux adds perf's note for
 * files with AUX area data. */
void print_aggregated_stats(FILE *out, const uint64_t *nr_events, uint32_t n, bool aux);
/* One "NAME events: N" line of an event's block. */
void print_evsel_stats_line(FILE *out, const char *name, uint64_t n);
/* What `perf report --stats` prints of a read session: the aggregated
 * counts, then each event with samples or lost samples. */
void print_session_stats(FILE *out, struct hwprof_session *s);

#endif
