/* Where drained ring data goes: straight to the writer, or (with -z)
 * through one zstd stream cut into PERF_RECORD_COMPRESSED records the way
 * perf 6.1 frames them: each record carries what the compressor produced
 * for part of the input, the stream is flushed at the end of every ring
 * drain, so one record never expands past the ring's size (perf sizes
 * its decompression buffer by the COMPRESSED feature's mmap_len). */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "record/rec_int.h"
#include "util/bytes.h"

/* payload bytes per COMPRESSED record: the 64 KiB record limit less the
 * header, rounded down to keep room */
#define REC_Z_MAX (65535 - 8)

struct rec_zstd {
	ZSTD_CStream *cs;
	uint8_t rec[8 + REC_Z_MAX];
	bool pending;   /* input fed since the last flush */
};

int rec_out_init(struct hwprof_recorder *r)
{
	if (!r->o.zstd_level)
		return 0;
	r->z = calloc(1, sizeof(*r->z));
	if (!r->z)
		return -HWPROF_E_NOMEM;
	r->z->cs = ZSTD_createCStream();
	if (!r->z->cs)
		return -HWPROF_E_NOMEM;
	size_t e = ZSTD_initCStream(r->z->cs, r->o.zstd_level);
	if (ZSTD_isError(e))
		return -HWPROF_E_INVAL;
	return 0;
}

void rec_out_free(struct hwprof_recorder *r)
{
	if (r->z) {
		ZSTD_freeCStream(r->z->cs);
		free(r->z);
		r->z = NULL;
	}
}

static int emit_z(struct hwprof_recorder *r, size_t n)
{
	if (!n)
		return 0;
	st32(r->z->rec, HWPROF_RECORD_COMPRESSED);
	st16(r->z->rec + 4, 0);
	st16(r->z->rec + 6, (uint16_t)(8 + n));
	r->st.compressed++;
	return hwprof_writer_write(r->w, r->z->rec, 8 + n);
}

static int z_feed(struct hwprof_recorder *r, const uint8_t *p, size_t len)
{
	ZSTD_inBuffer in = { p, len, 0 };
	while (in.pos < in.size) {
		ZSTD_outBuffer out = { r->z->rec + 8, REC_Z_MAX, 0 };
		size_t e = ZSTD_compressStream(r->z->cs, &out, &in);
		if (ZSTD_isError(e))
			return -HWPROF_E_IO;
		if (out.pos < out.size) {
			e = ZSTD_flushStream(r->z->cs, &out);
			if (ZSTD_isError(e))
				return -HWPROF_E_IO;
		}
		int rc = emit_z(r, out.pos);
		if (rc)
			return rc;
	}
	r->z->pending = true;
	return 0;
}

int rec_out_flush(struct hwprof_recorder *r)
{
	if (!r->z || !r->z->pending)
		return 0;
	for (;;) {
		ZSTD_outBuffer out = { r->z->rec + 8, REC_Z_MAX, 0 };
		size_t left = ZSTD_flushStream(r->z->cs, &out);
		if (ZSTD_isError(left))
			return -HWPROF_E_IO;
		int rc = emit_z(r, out.pos);
		if (rc)
			return rc;
		if (!left)
			break;
	}
	r->z->pending = false;
	return 0;
}

int rec_out_ring(void *ctx, const uint8_t *p, size_t len)
{
	struct hwprof_recorder *r = ctx;
	for (size_t at = 0; at < len;) {
		uint16_t sz = ld16(p + at + 6);
		rec_note_record(r, p + at, sz);
		at += sz;
	}
	r->st.bytes_raw += len;
	if (r->z)
		return z_feed(r, p, len);
	return hwprof_writer_write_records(r->w, p, len);
}
