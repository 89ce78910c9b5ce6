/* perf report's event groups: which events are a group's leader and
 * members (the GROUP_DESC feature), the forced group of --group and
 * --no-group on files without groups, and perf's names for them. The
 * group view itself (one overhead column per member) is the hist's
 * hwprof_hist_link() and the printer's job. */
#ifndef HWPROF_CLI_REPORT_GROUP_H
#define HWPROF_CLI_REPORT_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hwprof_perfdata;

struct report_groups {
	uint32_t n;         /* the file's events */
	uint32_t *size;     /* per event: on a leader its group's size (1
	                     * alone), 0 on a member */
	const char **name;  /* per leader: the group's name, NULL for perf's
	                     * "anon group" */
	bool forced;        /* one group of all events (perf's forced leader) */
	void *feat;         /* the decoded feature (names point into it) */
};

/* Reads the groups from h (after its records: a pipe's features come
 * with them). force: --group or --no-group was given, which makes a file
 * without groups one group of all its events, as perf does. */
int report_groups_load(struct report_groups *g, struct hwprof_perfdata *h, bool force);
void report_groups_free(struct report_groups *g);

/* perf's evsel__group_desc() for leader i: "anon group { a, b }", "name
 * { a, b }", or "a, b" for a forced group; names[j] is event j's name. */
void report_groups_desc(const struct report_groups *g, uint32_t i, const char *const *names, char *buf,
			size_t len);

#endif
