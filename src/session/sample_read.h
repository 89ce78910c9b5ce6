/* PERF_SAMPLE_READ samples as perf's report and script see them: one sample
 * per read value, for the event that value's id belongs to, with the
 * counter's growth since that id's previous value as its period (perf's
 * deliver_sample_value()). The last value is kept per id for the whole
 * session, as perf 6.1 keeps it in the id's perf_sample_id. */
#ifndef HWPROF_SESSION_SAMPLE_READ_H
#define HWPROF_SESSION_SAMPLE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/session.h"

struct sread {
	uint64_t *ids, *last;   /* open addressing, cap a power of 2 */
	uint8_t *used;
	size_t n, cap;
	struct hwprof_read_member *out; /* the current sample's members */
	size_t out_cap;
};

void sread_fini(struct sread *r);
/* Walks smp's read values in order: values with an id no event has count
 * in *unknown (and are skipped), each known id's last value is updated,
 * and the values that grew become members in r->out. Returns how many,
 * or -HWPROF_E_NOMEM. */
int sread_split(struct sread *r, const struct hwprof_perfdata *h, const struct hwprof_sample *smp,
		uint64_t *unknown);

#endif
