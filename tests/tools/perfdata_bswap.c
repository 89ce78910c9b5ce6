/* Test tool: rewrites a little-endian file-mode perf.data as big-endian
 * (the layout a big-endian machine's perf writes), so that cross-endian
 * reading can be checked against perf itself. Keeps the attrs, ids, every
 * record and the ARCH/HOSTNAME/OSRELEASE/VERSION/NRCPUS/BRANCH_STACK features.
 *   perfdata_bswap IN OUT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perfdata.h"
#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

static void be64(uint8_t *p, uint64_t v) { st64(p, __builtin_bswap64(v)); }

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: perfdata_bswap IN OUT\n");
		return 2;
	}
	struct hwprof_perfdata *h;
	struct hwprof_error err;
	if (hwprof_perfdata_open(&h, argv[1], &err)) {
		fprintf(stderr, "perfdata_bswap: %s: %s\n", argv[1], err.msg);
		return 1;
	}
	const struct hwprof_perfdata_info *in = hwprof_perfdata_info(h);
	if (in->pipe || in->swapped) {
		fprintf(stderr, "perfdata_bswap: %s: only little-endian file-mode input\n", argv[1]);
		return 1;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f)
		return 1;
	uint8_t hdr[104] = { 0 };
	put(f, hdr, sizeof(hdr));
	/* ids, then attrs (perf's order) */
	uint32_t n = hwprof_perfdata_nr_evsels(h);
	uint64_t pos = 104, attr_sz = 0;
	uint64_t *ids_off = calloc(n ? n : 1, sizeof(*ids_off));
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(h, i);
		ids_off[i] = pos;
		for (uint32_t k = 0; k < e->nr_ids; k++) {
			uint8_t b[8];
			be64(b, e->ids[k]);
			put(f, b, 8);
		}
		pos += 8ull * e->nr_ids;
		if (e->attr.size > attr_sz)
			attr_sz = e->attr.size;
	}
	uint64_t attrs_off = pos;
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(h, i);
		uint8_t a[512] = { 0 };
		struct hwprof_attr at = e->attr;
		at.size = (uint32_t)attr_sz;
		hwprof_attr_encode(&at, a);
		pdata_attr_swap(a, (uint32_t)attr_sz);
		be64(a + attr_sz, ids_off[i]);
		be64(a + attr_sz + 8, 8ull * e->nr_ids);
		put(f, a, attr_sz + 16);
	}
	pos += n * (attr_sz + 16);
	uint64_t data_off = pos;
	struct hwprof_record rec;
	uint8_t *buf = malloc(65536);
	int rc;
	while ((rc = hwprof_perfdata_next(h, &rec)) > 0) {
		memcpy(buf, rec.data, rec.size);
		pdata_swap_inplace(h, buf, rec.size, false);
		put(f, buf, rec.size);
		if (rec.payload_size)
			put(f, rec.payload, rec.payload_size);
		pos += rec.size + rec.payload_size;
	}
	if (rc < 0) {
		fprintf(stderr, "perfdata_bswap: %s\n", hwprof_perfdata_error(h)->msg);
		return 1;
	}
	uint64_t data_size = pos - data_off;
	/* features: string ones (u32 len + bytes), NRCPUS (2 x u32) and
	 * BRANCH_STACK (empty; it puts perf's report in branch mode) */
	static const unsigned keep[] = { HWPROF_FEAT_HOSTNAME, HWPROF_FEAT_OSRELEASE, HWPROF_FEAT_VERSION,
					 HWPROF_FEAT_ARCH, HWPROF_FEAT_NRCPUS, HWPROF_FEAT_BRANCH_STACK };
	uint64_t feats[4] = { 0 };
	const uint8_t *fp[6];
	uint64_t fsz[6];
	unsigned nf = 0;
	for (unsigned i = 0; i < 6; i++) {
		if (hwprof_perfdata_feature(h, keep[i], &fp[nf], &fsz[nf], NULL) == 1 &&
		    (fsz[nf] >= 8 || keep[i] == HWPROF_FEAT_BRANCH_STACK)) {
			feats[keep[i] / 64] |= 1ULL << (keep[i] % 64);
			nf++;
		}
	}
	uint64_t payload_pos = pos + 16ull * nf;
	for (unsigned i = 0; i < nf; i++) {
		uint8_t idx[16];
		be64(idx, payload_pos);
		be64(idx + 8, fsz[i]);
		put(f, idx, 16);
		payload_pos += fsz[i];
	}
	for (unsigned i = 0; i < nf; i++) {
		if (!fsz[i])
			continue;
		uint8_t *c = malloc(fsz[i]);
		memcpy(c, fp[i], fsz[i]);
		st32(c, __builtin_bswap32(ld32(c)));
		st32(c + 4, __builtin_bswap32(ld32(c + 4))); /* NRCPUS second u32; string: first 4 chars reversed below */
		if (fsz[i] > 8 && fp[i] != NULL && ld32(fp[i]) + 4 <= fsz[i] && ld32(fp[i]) >= 4)
			memcpy(c + 4, fp[i] + 4, fsz[i] - 4); /* a string: only the length swaps */
		put(f, c, fsz[i]);
		free(c);
	}
	st64(hdr, __builtin_bswap64(0x32454c4946524550ULL));
	be64(hdr + 8, 104);
	be64(hdr + 16, attr_sz + 16);
	be64(hdr + 24, attrs_off);
	be64(hdr + 32, n * (attr_sz + 16));
	be64(hdr + 40, data_off);
	be64(hdr + 48, data_size);
	for (int i = 0; i < 4; i++)
		be64(hdr + 72 + 8 * i, feats[i]);
	fseek(f, 0, SEEK_SET);
	put(f, hdr, sizeof(hdr));
	fclose(f);
	free(buf);
	free(ids_off);
	hwprof_perfdata_close(h);
	return 0;
}
