/* The streaming exporters' shared state: samples regrouped per lane (one
 * thread's samples of one event) in a spool, so each format can write a
 * lane's samples in time order after the whole input has been read. */
#ifndef HWPROF_EXPORT_INT_H
#define HWPROF_EXPORT_INT_H

#include "hwprof/profile.h"
#include "report/report_int.h"

struct rpt_lane {
	uint32_t thread, event;
	uint64_t nr_samples, weight;
	uint64_t first_time, last_time;
};

struct hwprof_export {
	enum hwprof_export_format fmt;
	struct rpt_spool *spool;      /* record: lane, a = stack, b = weight, c = time */
	struct rpt_map lane_map;      /* (thread, event) -> lane */
	struct rpt_lane *lanes;
	size_t nr_lanes, cap_lanes;
};

int rpt_write_speedscope(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f);
int rpt_write_firefox(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f);
int rpt_write_chrome(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f);

/* A lane's title: "comm pid/tid" plus " event" when the profile has more
 * than one event. */
void rpt_lane_title(const struct hwprof_profile *p, const struct rpt_lane *l, char *buf, size_t len);

#endif
