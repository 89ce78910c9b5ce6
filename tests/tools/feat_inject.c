/* Test helper: copies a file-mode perf.data and adds feature sections this
 * machine cannot record (BRANCH_STACK, AUXTRACE, CPU_PMU_CAPS,
 * HYBRID_TOPOLOGY, PMU_CAPS, BPF_BTF), so the header printer can be
 * compared with perf on them. Usage: feat_inject IN OUT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perf_event.h"
#include "util/bytes.h"

struct out { uint8_t *p; size_t n, cap; };

static void put(struct out *o, const void *d, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			exit(2);
	}
	memcpy(o->p + o->n, d, n);
	o->n += n;
}
static void p32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void p64(struct out *o, uint64_t v) { put(o, &v, 8); }
static void pstr(struct out *o, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
	uint8_t z[64] = { 0 };
	p32(o, len);
	put(o, s, strlen(s));
	put(o, z, len - strlen(s));
}

/* The payload of one added feature. */
static void payload(unsigned f, struct out *o)
{
	switch (f) {
	case HWPROF_FEAT_BRANCH_STACK: break;
	case HWPROF_FEAT_AUXTRACE: p64(o, 0); break;
	case HWPROF_FEAT_CPU_PMU_CAPS:
		p32(o, 2);
		pstr(o, "branches"); pstr(o, "32");
		pstr(o, "max_precise"); pstr(o, "3");
		break;
	case HWPROF_FEAT_HYBRID_TOPOLOGY:
		p32(o, 2);
		pstr(o, "cpu_core"); pstr(o, "0-1");
		pstr(o, "cpu_atom"); pstr(o, "2-3");
		break;
	case HWPROF_FEAT_PMU_CAPS:
		p32(o, 2);
		p32(o, 1); pstr(o, "branches"); pstr(o, "32"); pstr(o, "cpu_core");
		p32(o, 0); pstr(o, "cpu_atom");
		break;
	case HWPROF_FEAT_BPF_BTF:
		p32(o, 3);
		p32(o, 42); p32(o, 4); p32(o, 0);
		p32(o, 7); p32(o, 0);
		p32(o, 42); p32(o, 0);
		break;
	}
}

int main(int argc, char **argv)
{
	static const unsigned add[] = { HWPROF_FEAT_BRANCH_STACK, HWPROF_FEAT_AUXTRACE,
					HWPROF_FEAT_BPF_BTF, HWPROF_FEAT_CPU_PMU_CAPS,
					HWPROF_FEAT_HYBRID_TOPOLOGY, HWPROF_FEAT_PMU_CAPS };
	if (argc != 3)
		return fprintf(stderr, "usage: feat_inject IN OUT\n"), 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return perror(argv[1]), 2;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	uint8_t *in = malloc((size_t)len);
	if (!in || fread(in, 1, (size_t)len, f) != (size_t)len || len < 104 || ld64(in + 8) != 104)
		return fprintf(stderr, "%s: not a little-endian file-mode perf.data\n", argv[1]), 2;
	fclose(f);
	uint64_t idx = ld64(in + 40) + ld64(in + 48), feats[4];
	memcpy(feats, in + 72, 32);
	/* old sections, in bit order */
	uint64_t off[256] = { 0 }, size[256] = { 0 };
	uint64_t at = idx;
	for (unsigned b = 0; b < 256; b++)
		if ((feats[b / 64] >> (b % 64)) & 1) {
			if (at + 16 > (uint64_t)len)
				return fprintf(stderr, "feature index cut short\n"), 2;
			off[b] = ld64(in + at);
			size[b] = ld64(in + at + 8);
			at += 16;
		}
	struct out pl[256];
	memset(pl, 0, sizeof(pl));
	for (size_t i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		feats[add[i] / 64] |= 1ULL << (add[i] % 64);
		payload(add[i], &pl[add[i]]);
		off[add[i]] = UINT64_MAX; /* marks "new" */
	}
	unsigned nr = 0;
	for (unsigned b = 0; b < 256; b++)
		nr += (feats[b / 64] >> (b % 64)) & 1;
	/* header + everything before the index stays; index and payloads follow */
	struct out o = { 0 };
	put(&o, in, (size_t)idx);
	memcpy(o.p + 72, feats, 32);
	uint64_t pos = idx + 16ULL * nr;
	struct out body = { 0 };
	for (unsigned b = 0; b < 256; b++) {
		if (!((feats[b / 64] >> (b % 64)) & 1))
			continue;
		const uint8_t *d = off[b] == UINT64_MAX ? pl[b].p : in + off[b];
		uint64_t n = off[b] == UINT64_MAX ? pl[b].n : size[b];
		p64(&o, pos + body.n);
		p64(&o, n);
		if (n)
			put(&body, d, (size_t)n);
	}
	put(&o, body.p, body.n);
	f = fopen(argv[2], "wb");
	int bad = !f || fwrite(o.p, 1, o.n, f) != o.n || fclose(f);
	if (bad)
		perror(argv[2]);
	for (unsigned b = 0; b < 256; b++)
		free(pl[b].p);
	free(body.p);
	free(o.p);
	free(in);
	return bad ? 2 : 0;
}
