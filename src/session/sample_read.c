/* PERF_SAMPLE_READ values to per-event samples (see sample_read.h). */
#include <stdlib.h>
#include <string.h>

#include "hwprof/hwprof.h"
#include "session/sample_read.h"
#include "util/bytes.h"

void sread_fini(struct sread *r)
{
	free(r->ids);
	free(r->last);
	free(r->used);
	free(r->out);
	memset(r, 0, sizeof(*r));
}

static size_t slot_of(const struct sread *r, uint64_t id)
{
	size_t i = (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 20) & (r->cap - 1);
	while (r->used[i] && r->ids[i] != id)
		i = (i + 1) & (r->cap - 1);
	return i;
}

static int grow(struct sread *r)
{
	struct sread old = *r;
	size_t cap = r->cap ? r->cap * 2 : 64;
	r->ids = calloc(cap, sizeof(*r->ids));
	r->last = calloc(cap, sizeof(*r->last));
	r->used = calloc(cap, 1);
	if (!r->ids || !r->last || !r->used) {
		free(r->ids);
		free(r->last);
		free(r->used);
		r->ids = old.ids;
		r->last = old.last;
		r->used = old.used;
		return -HWPROF_E_NOMEM;
	}
	r->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		size_t j = slot_of(r, old.ids[i]);
		r->used[j] = 1;
		r->ids[j] = old.ids[i];
		r->last[j] = old.last[i];
	}
	free(old.ids);
	free(old.last);
	free(old.used);
	return 0;
}

/* The id's last value (0 before its first), to be updated in place. */
static uint64_t *last_of(struct sread *r, uint64_t id)
{
	if ((r->n + 1) * 2 > r->cap && grow(r) < 0)
		return NULL;
	size_t i = slot_of(r, id);
	if (!r->used[i]) {
		r->used[i] = 1;
		r->ids[i] = id;
		r->last[i] = 0;
		r->n++;
	}
	return &r->last[i];
}

int sread_split(struct sread *r, const struct hwprof_perfdata *h, const struct hwprof_sample *smp,
		uint64_t *unknown)
{
	const struct hwprof_evsel *ev = smp->evsel;
	bool group = ev->attr.read_format & HWPROF_FORMAT_GROUP;
	bool has_id = ev->attr.read_format & HWPROF_FORMAT_ID;
	uint64_t nr = group ? smp->read_nr : 1;
	if (nr > r->out_cap) {
		struct hwprof_read_member *o = realloc(r->out, nr * sizeof(*o));
		if (!o)
			return -HWPROF_E_NOMEM;
		r->out = o;
		r->out_cap = nr;
	}
	int k = 0;
	for (uint64_t i = 0; i < nr; i++) {
		/* a group entry is {value, [id], [lost]}; without PERF_FORMAT_ID
		 * the id is 0, which no event has */
		const uint8_t *e = group ? smp->read_values + i * smp->read_value_stride : NULL;
		uint64_t value = group ? ld64(e) : smp->read_one.value;
		uint64_t id = !has_id ? 0 : group ? ld64(e + 8) : smp->read_one.id;
		const struct hwprof_evsel *m = hwprof_perfdata_evsel_by_id(h, id);
		if (!m) {
			(*unknown)++;
			continue;
		}
		uint64_t *last = last_of(r, id);
		if (!last)
			return -HWPROF_E_NOMEM;
		uint64_t period = value - *last;
		*last = value;
		/* perf delivers nothing for a counter that did not move */
		if (!period)
			continue;
		r->out[k++] = (struct hwprof_read_member){ m, id, period };
	}
	return k;
}
