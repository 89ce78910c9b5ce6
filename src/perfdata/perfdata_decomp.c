/* PERF_RECORD_COMPRESSED / COMPRESSED2: zstd-compressed batches of ordinary
 * records (perf record -z). A record may straddle two batches, so the
 * undelivered tail of one batch is carried over in front of the next.
 * Records that come out of a batch report the batch record's file offset,
 * as perf does. */
#include <string.h>
#include <stdlib.h>
#include <zstd.h>

#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

void pdata_decomp_free(struct pdata_decomp *d)
{
	if (d->dctx)
		ZSTD_freeDCtx(d->dctx);
	free(d->out.p);
	memset(d, 0, sizeof(*d));
}

int pdata_decomp_start(struct hwprof_perfdata *h, const uint8_t *rec, uint32_t size, uint64_t offset,
		       uint32_t type)
{
	struct pdata_decomp *d = &h->srcs[h->batch_src].decomp;
	const uint8_t *src = rec + 8;
	size_t src_len = size - 8u;
	if (type == HWPROF_RECORD_COMPRESSED2) {
		if (size < 16)
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, offset), "COMPRESSED2 record too short");
		uint64_t n = ld64(rec + 8);
		if (n > size - 16u)
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, offset),
					   "COMPRESSED2 data size %llu exceeds the record",
					   (unsigned long long)n);
		src = rec + 16;
		src_len = (size_t)n;
	}
	if (!d->dctx) {
		d->dctx = ZSTD_createDCtx();
		if (!d->dctx)
			return pdata_error(h, HWPROF_E_NOMEM, pdata_rec_off(h, offset), "cannot create a zstd context");
	}
	/* Carry the undelivered tail of the previous batch to the front. */
	size_t keep = d->out.len - d->pos;
	if (keep && d->pos)
		memmove(d->out.p, d->out.p + d->pos, keep);
	d->out.len = keep;
	d->pos = 0;
	ZSTD_inBuffer in = { src, src_len, 0 };
	while (in.pos < in.size) {
		if (d->out.cap - d->out.len < 65536) {
			if (d->out.cap >= PDATA_MAX_DECOMP)
				return pdata_error(h, HWPROF_E_NOMEM, pdata_rec_off(h, offset),
						   "compressed batch expands past %u MB", PDATA_MAX_DECOMP >> 20);
			if (pdata_buf_reserve(&d->out, d->out.cap ? d->out.cap * 2 : 1u << 20))
				return pdata_error(h, HWPROF_E_NOMEM, pdata_rec_off(h, offset), "out of memory");
		}
		ZSTD_outBuffer out = { d->out.p, d->out.cap, d->out.len };
		size_t r = ZSTD_decompressStream(d->dctx, &out, &in);
		if (ZSTD_isError(r))
			return pdata_error(h, HWPROF_E_DECOMPRESS, pdata_rec_off(h, offset), "zstd: %s", ZSTD_getErrorName(r));
		if (out.pos == d->out.len && in.pos < in.size && out.pos < out.size)
			return pdata_error(h, HWPROF_E_DECOMPRESS, pdata_rec_off(h, offset), "zstd made no progress");
		d->out.len = out.pos;
	}
	d->container = offset;
	d->active = true;
	return 0;
}

/* 1 = a record, 0 = batch exhausted (decomp goes inactive), < 0 error. */
int pdata_decomp_next(struct hwprof_perfdata *h, struct hwprof_record *rec)
{
	struct pdata_decomp *d = &h->srcs[h->batch_src].decomp;
	size_t avail = d->out.len - d->pos;
	if (avail < 8) {
		d->active = false;
		return 0;
	}
	const uint8_t *p = d->out.p + d->pos;
	int swap = h->info.swapped;
	uint32_t type = ld32s(p, swap);
	uint16_t size = ld16s(p + 6, swap);
	if (size < 8)
		return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, d->container),
				   "record of size %u inside the compressed batch", size);
	if (size > avail) {
		d->active = false; /* the rest comes with the next batch */
		return 0;
	}
	const uint8_t *host = p;
	if (swap) {
		int rc = pdata_swap_record(h, p, size, d->container);
		if (rc)
			return rc;
		host = h->swapbuf.p;
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = type;
	rec->misc = ld16(host + 4);
	rec->size = size;
	rec->data = host;
	rec->offset = d->container;
	rec->file_idx = h->batch_src;
	rec->compressed = true;
	rec->container_offset = d->container;
	d->pos += size;
	return 1;
}
