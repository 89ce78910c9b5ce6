/* Regroups a time-ordered sample stream by lane (thread, event) without
 * holding every sample in memory: each lane buffers up to CHUNK records
 * and flushes full buffers as chunks to an unlinked temporary file,
 * remembering where each chunk went. Reading a lane replays its chunks
 * and then its buffer, which keeps append order. */
#include <stdlib.h>
#include <string.h>

#include "hwprof/hwprof.h"
#include "report/report_int.h"

#define CHUNK 256

struct lane {
	struct rpt_spool_rec *buf;  /* CHUNK records, allocated on first use */
	uint32_t n;
	uint64_t *chunks;           /* file offsets of flushed chunks */
	size_t nr_chunks, cap_chunks;
};

struct rpt_spool {
	FILE *tmp;
	uint64_t tmp_size;
	struct lane *lanes;
	size_t nr_lanes, cap_lanes;
};

int rpt_spool_create(struct rpt_spool **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -HWPROF_E_NOMEM;
}

uint32_t rpt_spool_nr_lanes(const struct rpt_spool *sp)
{
	return (uint32_t)sp->nr_lanes;
}

int rpt_spool_add(struct rpt_spool *sp, const struct rpt_spool_rec *r)
{
	if (r->lane >= sp->nr_lanes) {
		if (rpt_grow(&sp->lanes, &sp->cap_lanes, (size_t)r->lane + 1, sizeof(struct lane)) < 0)
			return -HWPROF_E_NOMEM;
		memset(sp->lanes + sp->nr_lanes, 0, (r->lane + 1 - sp->nr_lanes) * sizeof(struct lane));
		sp->nr_lanes = (size_t)r->lane + 1;
	}
	struct lane *l = &sp->lanes[r->lane];
	if (!l->buf && !(l->buf = malloc(CHUNK * sizeof(*l->buf))))
		return -HWPROF_E_NOMEM;
	if (l->n == CHUNK) {
		if (!sp->tmp && !(sp->tmp = tmpfile()))
			return -HWPROF_E_IO;
		if (rpt_grow(&l->chunks, &l->cap_chunks, l->nr_chunks + 1, sizeof(uint64_t)) < 0)
			return -HWPROF_E_NOMEM;
		if (fseeko(sp->tmp, (off_t)sp->tmp_size, SEEK_SET) ||
		    fwrite(l->buf, sizeof(*l->buf), CHUNK, sp->tmp) != CHUNK)
			return -HWPROF_E_IO;
		l->chunks[l->nr_chunks++] = sp->tmp_size;
		sp->tmp_size += CHUNK * sizeof(*l->buf);
		l->n = 0;
	}
	l->buf[l->n++] = *r;
	return 0;
}

int rpt_spool_read(struct rpt_spool *sp, uint32_t lane,
		   int (*fn)(void *ctx, const struct rpt_spool_rec *r), void *ctx)
{
	if (lane >= sp->nr_lanes)
		return 0;
	struct lane *l = &sp->lanes[lane];
	if (l->nr_chunks) {
		struct rpt_spool_rec *tmp = malloc(CHUNK * sizeof(*tmp));
		if (!tmp)
			return -HWPROF_E_NOMEM;
		for (size_t c = 0; c < l->nr_chunks; c++) {
			if (fflush(sp->tmp) || fseeko(sp->tmp, (off_t)l->chunks[c], SEEK_SET) ||
			    fread(tmp, sizeof(*tmp), CHUNK, sp->tmp) != CHUNK) {
				free(tmp);
				return -HWPROF_E_IO;
			}
			for (uint32_t i = 0; i < CHUNK; i++) {
				int r = fn(ctx, &tmp[i]);
				if (r < 0) {
					free(tmp);
					return r;
				}
			}
		}
		free(tmp);
	}
	for (uint32_t i = 0; i < l->n; i++) {
		int r = fn(ctx, &l->buf[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

void rpt_spool_free(struct rpt_spool *sp)
{
	if (!sp)
		return;
	for (size_t i = 0; i < sp->nr_lanes; i++) {
		free(sp->lanes[i].buf);
		free(sp->lanes[i].chunks);
	}
	free(sp->lanes);
	if (sp->tmp)
		fclose(sp->tmp);
	free(sp);
}
