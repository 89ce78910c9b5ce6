/* Loading tracing data for script and report (see trace_load.h). */
#include <stdio.h>

#include "cli/trace_load.h"
#include "hwprof/perfdata_feat.h"

static int report(const char *cmd, const char *shown, const struct hwprof_error *e, int rc)
{
	fflush(stdout);
	fprintf(stderr, "hwprof %s: %s: offset %#llx: %s\n", cmd, shown, (unsigned long long)e->offset,
		e->msg[0] ? e->msg : hwprof_strerror(rc));
	return rc;
}

int trace_load_feature(struct hwprof_perfdata *h, struct hwprof_trace **out, const char *cmd, const char *shown)
{
	const uint8_t *d;
	uint64_t size, off;
	struct hwprof_error e;
	*out = NULL;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_TRACING_DATA, &d, &size, &off) != 1)
		return 0;
	int rc = hwprof_trace_parse(out, d, size, off, NULL, &e);
	return rc < 0 ? report(cmd, shown, &e, rc) : 0;
}

int trace_load_record(struct hwprof_perfdata *h, const struct hwprof_record *rec, struct hwprof_trace **t,
		      const char *cmd, const char *shown)
{
	if (rec->type != HWPROF_RECORD_HEADER_TRACING_DATA)
		return 0;
	struct hwprof_error e;
	struct hwprof_trace *n;
	uint64_t used = 0;
	/* the payload starts after the 12-byte record; offsets count from
	 * the file's start like perf's dump does */
	uint64_t base = rec->offset + rec->size + (hwprof_perfdata_info(h)->pipe ? 16 : 0);
	int rc = hwprof_trace_parse(&n, rec->payload, rec->payload ? rec->payload_size : 0, base, &used, &e);
	if (rc < 0)
		return report(cmd, shown, &e, rc);
	hwprof_trace_free(*t);
	*t = n;
	return 0;
}
