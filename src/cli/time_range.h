/* perf's --time option of report and script: sample time ranges given as
 * "start,stop" in seconds (several separated by spaces), or as shares of
 * the recording ("10%/2" the second tenth, "0%-10%,30%-40%", "25%"),
 * which need the file's first and last sample times (SAMPLE_TIME). */
#ifndef HWPROF_CLI_TIME_RANGE_H
#define HWPROF_CLI_TIME_RANGE_H

#include <stdbool.h>
#include <stdint.h>

struct time_range {
	uint64_t start, end;       /* ns; 0: open */
};

struct time_ranges {
	struct time_range *r;
	int n;
};

/* perf's perf_time__parse_for_ranges_reltime(): 0, or -1 after printing
 * perf's message (its exit status is then 234). reltime: the ranges count
 * from the first sample. */
int time_ranges_parse(struct time_ranges *t, const char *str, uint64_t first, uint64_t last, bool reltime);
void time_ranges_free(struct time_ranges *t);
/* The file's first and last sample times (its SAMPLE_TIME feature), 0 and
 * 0 without them. */
struct hwprof_perfdata;
void time_ranges_bounds(struct hwprof_perfdata *h, uint64_t *first, uint64_t *last);
/* perf's perf_time__ranges_skip_sample(): whether a sample at time t is
 * outside every range (a time of 0 never is). */
bool time_ranges_skip(const struct time_ranges *t, uint64_t time);

#endif
