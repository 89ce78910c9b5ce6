/* spe_mkbuf: writes Arm SPE test buffers with the hwprof encoder.
 *   spe_mkbuf example OUT     the packets of perfdata-format.md §3's verified dump
 *   spe_mkbuf records OUT     loads, stores, branches, SIMD/SVE ops via records
 *   spe_mkbuf allkinds OUT    every OP_TYPE payload of every class, each EVENTS
 *                             bit, every address/counter/context index (short
 *                             and extended), signed TS/DATA-SOURCE extremes
 *   spe_mkbuf random SEED LEN OUT   packet soup: valid packets, garbage
 *                             bytes, zero runs, alignment, cut at the end
 * Used by tests/diff/spe_dump.sh (with perf 6.1 as the oracle). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/arm_spe.h"

static uint8_t mem[1 << 20];

static void pk(struct hwprof_spe_writer *w, unsigned type, unsigned idx, uint64_t p, unsigned n)
{
	if (hwprof_spe_put_packet(w, type, idx, p, n) < 0) {
		fprintf(stderr, "spe_mkbuf: put_packet(%u,%u) failed\n", type, idx);
		exit(1);
	}
}

static void raw(struct hwprof_spe_writer *w, const char *bytes, size_t n)
{
	if (w->cap - w->pos < n)
		exit(1);
	memcpy(w->buf + w->pos, bytes, n);
	w->pos += n;
}

/* Same packets, same bytes, as the verified perf 6.1 example. */
static void mk_example(struct hwprof_spe_writer *w)
{
	pk(w, HWPROF_SPE_ADDRESS, 0, 0x8000aaaad0001234ull, 8);
	pk(w, HWPROF_SPE_COUNTER, 1, 5, 2);
	pk(w, HWPROF_SPE_EVENTS, 0, 0x16, 2);
	pk(w, HWPROF_SPE_OP_TYPE, 1, 0x00, 1);
	pk(w, HWPROF_SPE_ADDRESS, 2, 0x8000ffffe0001000ull, 8);
	pk(w, HWPROF_SPE_COUNTER, 2, 1, 2);
	pk(w, HWPROF_SPE_ADDRESS, 3, 0x800000008a001000ull, 8);
	pk(w, HWPROF_SPE_COUNTER, 0, 12, 2);
	pk(w, HWPROF_SPE_DATA_SOURCE, 0, 0, 2);
	pk(w, HWPROF_SPE_CONTEXT, 1, 0x64, 4);
	pk(w, HWPROF_SPE_TIMESTAMP, 0, 1000000, 8);
	pk(w, HWPROF_SPE_ADDRESS, 0, 0xa0ff800008001000ull, 8);
	pk(w, HWPROF_SPE_OP_TYPE, 2, 0x01, 1);
	pk(w, HWPROF_SPE_EVENTS, 0, 0xc2, 2);
	pk(w, HWPROF_SPE_ADDRESS, 1, 0xa0ff800008001100ull, 8);
	pk(w, HWPROF_SPE_OP_TYPE, 0, 0x00, 1);
	pk(w, HWPROF_SPE_EVENTS, 0, 0x02, 1);
	pk(w, HWPROF_SPE_END, 0, 0, 0);
	raw(w, "\0\0\0\0\0", 5);
	pk(w, HWPROF_SPE_EVENTS, 0, 0x33e, 2);
	pk(w, HWPROF_SPE_OP_TYPE, 1, 0x0b, 1);
	pk(w, HWPROF_SPE_OP_TYPE, 1, 0x1c, 1);
	/* the odd cases listed under the example */
	pk(w, HWPROF_SPE_ADDRESS, 4, 0x8000aaaad0001280ull, 8);
	pk(w, HWPROF_SPE_ADDRESS, 8, 0x1234, 8);
	pk(w, HWPROF_SPE_OP_TYPE, 3, 0x55, 1);
	raw(w, "\x02", 1);
}

static void mk_records(struct hwprof_spe_writer *w)
{
	struct hwprof_spe_record r;
	uint64_t ts = 1000000;

	for (int i = 0; i < 64; i++, ts += 1000) {
		hwprof_spe_record_init(&r);
		r.present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_OP |
			    HWPROF_SPE_HAS_LAT_TOTAL | HWPROF_SPE_HAS_LAT_ISSUE |
			    HWPROF_SPE_HAS_CONTEXT | ((i & 3) ? HWPROF_SPE_HAS_TIMESTAMP : 0);
		r.pc = 0xaaaad0001000ull + 4u * (unsigned)i;
		r.pc_ns = 1;
		r.pc_el = (i % 5 == 0) ? 1 : 0;
		if (r.pc_el)
			r.pc |= 0xffff800008000000ull;
		r.lat_total = (uint16_t)(10 + i * 37);
		r.lat_issue = (uint16_t)(i + 1);
		r.context_id = 100 + (unsigned)(i & 1);
		r.context_el = (uint8_t)(i & 1);
		r.timestamp = ts;
		r.events = 1u << HWPROF_SPE_EV_RETIRED;
		switch (i % 6) {
		case 0: /* load, L1 hit */
			r.op_class = HWPROF_SPE_OP_CLASS_LDST;
			r.op = HWPROF_SPE_OP_LD_GP;
			r.events |= 1u << HWPROF_SPE_EV_L1D_ACCESS | 1u << HWPROF_SPE_EV_TLB_ACCESS;
			goto mem;
		case 1: /* store missing to LLC */
			r.op_class = HWPROF_SPE_OP_CLASS_LDST;
			r.op = HWPROF_SPE_OP_ST_GP;
			r.events |= 0x33cu;
			r.data_source = 14;
			goto mem;
		case 2: /* SIMD load, exclusive store */
			r.op_class = HWPROF_SPE_OP_CLASS_LDST;
			r.op = (i & 1) ? HWPROF_SPE_OP_ST_EXCL : HWPROF_SPE_OP_LD_SIMD;
			goto mem;
		case 3: /* SVE gather load */
			r.op_class = HWPROF_SPE_OP_CLASS_LDST;
			r.op = HWPROF_SPE_OP_LD_SVE(2, 1) | 0x80;
			r.events |= 1u << HWPROF_SPE_EV_PARTIAL_PRED;
		mem:
			r.present |= HWPROF_SPE_HAS_VA | HWPROF_SPE_HAS_PA | HWPROF_SPE_HAS_LAT_XLAT |
				     HWPROF_SPE_HAS_DATA_SOURCE;
			r.va = 0xffffe0001000ull + 64u * (unsigned)i;
			r.va_tag = (uint8_t)(i & 0xf0 ? 0x80 : 0);
			r.pa = 0x8a001000ull + 64u * (unsigned)i;
			r.pa_ns = 1;
			r.pa_pat = (uint8_t)(i & 0xf);
			r.lat_xlat = 3;
			break;
		case 4: /* conditional branch, mispredicted */
			r.op_class = HWPROF_SPE_OP_CLASS_BRANCH;
			r.op = (i & 1) ? HWPROF_SPE_OP_BR_IND : HWPROF_SPE_OP_BR_COND;
			r.events |= 1u << HWPROF_SPE_EV_MISPRED | 1u << HWPROF_SPE_EV_NOT_TAKEN;
			r.present |= HWPROF_SPE_HAS_TARGET;
			r.target = r.pc + 0x100;
			r.target_el = r.pc_el;
			r.target_ns = 1;
			break;
		default: /* SVE/SIMD data processing */
			r.op_class = HWPROF_SPE_OP_CLASS_OTHER;
			r.op = HWPROF_SPE_OP_SVE_OTHER(1, 1, i & 1);
			break;
		}
		if (hwprof_spe_put_record(w, &r) < 0)
			exit(1);
		if (i % 7 == 0)
			raw(w, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 19);
	}
}

static void mk_allkinds(struct hwprof_spe_writer *w)
{
	for (unsigned cls = 0; cls < 4; cls++)
		for (unsigned p = 0; p < 256; p++)
			pk(w, HWPROF_SPE_OP_TYPE, cls, p, 1);
	for (unsigned b = 0; b < 64; b++)
		pk(w, HWPROF_SPE_EVENTS, 0, 1ull << b, 8);
	for (unsigned n = 1; n <= 8; n *= 2) {
		pk(w, HWPROF_SPE_EVENTS, 0, 0xffffffffffffffffull >> (64 - 8 * n), n);
		pk(w, HWPROF_SPE_DATA_SOURCE, 0, 0xffffffffffffffffull >> (64 - 8 * n), n);
		pk(w, HWPROF_SPE_DATA_SOURCE, 0, 1ull << (8 * n - 1), n);
	}
	for (unsigned i = 0; i < 32; i++) {
		pk(w, HWPROF_SPE_ADDRESS, i, 0xf123456789abcdefull + i, 8);
		pk(w, HWPROF_SPE_ADDRESS, i, 0x6fedcba987654321ull, 8);
		pk(w, HWPROF_SPE_COUNTER, i, 0xfff0 + i, 2);
	}
	for (unsigned i = 0; i < 4; i++)
		pk(w, HWPROF_SPE_CONTEXT, i, 0xfedcba98u - i, 4);
	pk(w, HWPROF_SPE_TIMESTAMP, 0, 0xffffffffffffffffull, 8);
	pk(w, HWPROF_SPE_TIMESTAMP, 0, 0x8000000000000000ull, 8);
	/* extended headers with a non address/counter second byte */
	raw(w, "\x20\x42\x00\x22\x71\x01\x23\x01", 8);
	for (unsigned h = 0; h < 256; h++) { /* every header byte, padded */
		uint8_t b[10] = { (uint8_t)h, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x01 };
		raw(w, (const char *)b, sizeof(b));
	}
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void mk_random(struct hwprof_spe_writer *w, unsigned len)
{
	static const uint8_t hdrs[] = {
		0x00, 0x01, 0x71, 0x42, 0x52, 0x62, 0x72, 0x43, 0x53, 0x63, 0x73,
		0x64, 0x65, 0x66, 0x67, 0x48, 0x49, 0x4a, 0x4b, 0x20, 0x21, 0x22, 0x23,
		0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
		0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	};
	while (w->pos < len) {
		uint64_t r = rnd();
		size_t room = len - w->pos;

		if ((r & 15) == 0) { /* garbage byte */
			w->buf[w->pos++] = (uint8_t)(r >> 8);
		} else if ((r & 15) == 1) { /* zero run */
			size_t n = (r >> 8) % 40 + 1;
			n = n < room ? n : room;
			memset(w->buf + w->pos, 0, n);
			w->pos += n;
		} else { /* header + random bytes; the decoder decides the size */
			size_t n = 17 < room ? 17 : room;
			uint64_t v = rnd(), v2 = rnd();
			uint8_t b[17];

			b[0] = hdrs[(r >> 8) % sizeof(hdrs)];
			for (int i = 1; i < 17; i++)
				b[i] = (uint8_t)((i < 9 ? v : v2) >> (8 * (i % 8)));
			if (b[0] >= 0x20 && b[0] <= 0x23)
				b[1] = (r >> 20) & 1 ? 0x00 : hdrs[(r >> 24) % sizeof(hdrs)];
			/* take just the packet, or cut it to test truncation */
			{
				struct hwprof_spe_pkt p;
				int k = hwprof_spe_pkt_decode(b, sizeof(b), 0, &p);
				size_t take = k > 0 ? (size_t)k : 1;
				if (take < n)
					n = take;
			}
			memcpy(w->buf + w->pos, b, n);
			w->pos += n;
		}
	}
}

int main(int argc, char **argv)
{
	struct hwprof_spe_writer w;
	const char *out;
	FILE *f;

	hwprof_spe_writer_init(&w, mem, sizeof(mem));
	if (argc == 3 && !strcmp(argv[1], "example")) {
		mk_example(&w);
	} else if (argc == 3 && !strcmp(argv[1], "records")) {
		mk_records(&w);
	} else if (argc == 3 && !strcmp(argv[1], "allkinds")) {
		mk_allkinds(&w);
	} else if (argc == 5 && !strcmp(argv[1], "random")) {
		unsigned len = (unsigned)strtoul(argv[3], NULL, 0);
		rng_state = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
		if (len > sizeof(mem))
			return 2;
		mk_random(&w, len);
	} else {
		fprintf(stderr, "usage: spe_mkbuf example|records|allkinds OUT | random SEED LEN OUT\n");
		return 2;
	}
	out = argv[argc - 1];
	f = fopen(out, "wb");
	if (!f || fwrite(mem, 1, w.pos, f) != w.pos || fclose(f)) {
		perror(out);
		return 1;
	}
	return 0;
}
