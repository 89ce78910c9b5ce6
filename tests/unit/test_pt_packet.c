/* Intel PT packets: every packet type through encoder -> decoder, packets cut
 * at every byte, random packet sequences, last-IP compression, PSB sync and
 * errors, perf dump mode, and descriptions / dump lines whose expected texts
 * are literal perf 6.1 `report -D` output (docs/intel-pt-notes.md and runs of
 * perf on tests/tools/pt_perfdata_wrap files). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/intel_pt.h"
/* The printer lives in the CLI, which the library does not contain. */
#include "cli/print_pt.c"

#define P(t, pl, c) { .type = HWPROF_PT_##t, .payload = (pl), .count = (c) }
#define PIP_(t, pl, c, i) { .type = HWPROF_PT_##t, .payload = (pl), .count = (c), .ip = (i) }

/* One or more samples of every packet type (BIP needs a BBP before it). */
static const struct hwprof_pt_packet samples[] = {
	P(PAD, 0, 0), P(PSB, 0, 0), P(PSBEND, 0, 0), P(OVF, 0, 0), P(TRACESTOP, 0, 0),
	P(TNT, 0x8000000000000000ULL, 1), P(TNT, 0xa400000000000000ULL, 6),
	P(TNT, 0xdead000000000000ULL, 16), P(TNT, 0xfffffffffffe0000ULL, 47),
	P(TIP, 0, 0), P(TIP, 0x1234, 1), P(TIP, 0x12345678, 2),
	P(TIP, 0xffff80001000ULL, 3), P(TIP, 0x7fff12345678ULL, 4),
	P(TIP, 0xcccccccccc4000ULL, 6), P(TIP_PGE, 0x401000, 3), P(TIP_PGD, 0, 0),
	P(TIP_PGD, 0xabcd, 1), P(FUP, 0x1122334455667788ULL, 6), P(FUP, 0, 0),
	P(TSC, 0x12345, 0), P(TSC, 0xffffffffffffffULL, 0), P(MTC, 0x94, 0),
	P(TMA, 0x12, 0x34), P(TMA, 0xffff, 0x1ff), P(CYC, 0, 0), P(CYC, 0x57, 0),
	P(CYC, 0x1f, 0), P(CYC, 0x20, 0), P(CYC, 0xffffffffffffffffULL, 0),
	P(MODE_EXEC, 64, 1), P(MODE_EXEC, 32, 2), P(MODE_EXEC, 16, 4), P(MODE_EXEC, 64, 5),
	P(MODE_TSX, 1, 0), P(MODE_TSX, 2, 0), P(MODE_TSX, 0, 0),
	P(VMCS, 0xabcd, 5), P(VMCS, 0xffffffffffULL, 5), P(CBR, 0x24, 0),
	P(PIP, 0xafafb, 0), P(PIP, 0xfffffffffffeULL, 0), P(MNT, 0x2a2242e5d4c3b2a1ULL, 0),
	PIP_(PTWRITE, 0x90abcdef, 0, 1), PIP_(PTWRITE, 0x1122334455667788ULL, 1, 0),
	PIP_(EXSTOP, 0, 0, 1), PIP_(EXSTOP, 0, 0, 0), P(MWAIT, 0x10000000bULL, 0),
	P(PWRE, 0xff00, 0), P(PWRE, 0x1280, 0), P(PWRX, 0x105, 0), P(PWRX, 0xffffff0ff3ULL, 0),
	P(BBP, 0x1f, 1), P(BIP, 0x44332211, 0), P(BIP, 0xffffffff, 31),
	P(BBP, 0x05, 0), P(BIP, 0x8877665544332211ULL, 7), PIP_(BEP, 0, 0, 1),
	PIP_(BEP, 0, 0, 0), PIP_(CFE, 0xf0, 3, 1), PIP_(CFE, 0, 0x1f, 0),
	P(EVD, 0xf00baa, 2), P(EVD, ~0ULL, 0x3f),
	{ .type = HWPROF_PT_TRIG, .count = 0x5a, .ip = 1, .flags = HWPROF_PT_TRIG_MULT },
	{ .type = HWPROF_PT_TRIG, .count = 0x01, .payload = 0x1234, .flags = HWPROF_PT_TRIG_ICNTV },
};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

/* Meaningful fields equal? (TNT: only the top `count` bits carry data.) */
static void assert_same_packet(const struct hwprof_pt_packet *a, const struct hwprof_pt_packet *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->ip, b->ip);
	assert_int_equal(a->flags, b->flags);
	if (a->type == HWPROF_PT_TNT) {
		uint64_t mask = a->count ? ~0ULL << (64 - a->count) : 0;
		assert_int_equal(a->payload & mask, b->payload & mask);
	} else {
		assert_int_equal(a->payload, b->payload);
	}
}

static void test_round_trip_every_type(void **state)
{
	uint8_t buf[2048];
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	int seen[HWPROF_PT_TYPE_COUNT] = { 0 };

	assert_int_equal(hwprof_pt_encoder_init(&enc, buf, sizeof(buf)), 0);
	for (size_t i = 0; i < NSAMPLES; i++)
		assert_true(hwprof_pt_encode(&enc, &samples[i]) > 0);
	assert_int_equal(hwprof_pt_decoder_init(&dec, buf, hwprof_pt_encoder_offset(&enc), 0), 0);
	for (size_t i = 0; i < NSAMPLES; i++) {
		assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 1);
		assert_same_packet(&samples[i], &pkt);
		seen[pkt.type] = 1;
	}
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 0);
	for (int t = HWPROF_PT_PAD; t < HWPROF_PT_TYPE_COUNT; t++)
		assert_true(seen[t]);
}

/* Every sample cut short at every length: NEED_MORE, never a packet. */
static void test_truncated_every_byte(void **state)
{
	uint8_t buf[32];
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_packet pkt;
	enum hwprof_pt_ctx ctx = HWPROF_PT_CTX_NONE;

	for (size_t i = 0; i < NSAMPLES; i++) {
		hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
		enc.ctx = ctx;
		int n = hwprof_pt_encode(&enc, &samples[i]);
		assert_true(n > 0);
		for (int cut = 0; cut < n; cut++) {
			/* a heap copy of exactly `cut` bytes lets ASan catch overreads */
			uint8_t *cp = malloc(cut ? (size_t)cut : 1);
			memcpy(cp, buf, (size_t)cut);
			assert_int_equal(hwprof_pt_packet_decode(cp, (size_t)cut, ctx, 0, &pkt),
					 -HWPROF_E_NEED_MORE);
			free(cp);
		}
		assert_int_equal(hwprof_pt_packet_decode(buf, (size_t)n, ctx, 0, &pkt), n);
		assert_int_equal(pkt.size, n);
		ctx = hwprof_pt_ctx_next(ctx, &pkt);
	}
}

/* Vectors in perf's test style: bytes, resulting type/count/payload. */
static void test_perf_vectors(void **state)
{
	static const struct {
		int len;
		uint8_t bytes[16];
		enum hwprof_pt_ctx ctx;
		unsigned flags;
		struct hwprof_pt_packet want;
		enum hwprof_pt_ctx ctx_out;
	} v[] = {
		{ 1, { 0x00 }, 0, 0, P(PAD, 0, 0), 0 },
		{ 8, { 0x02, 0xa3, 0x02 }, 0, 0, P(TNT, 0x5181000000000000ULL, 1), 0 },
		{ 1, { 0x1c }, 0, 0, P(TNT, 0xc000000000000000ULL, 3), 0 },
		{ 4, { 0x02, 0x22 }, 0, HWPROF_PT_PERF_DUMP, P(PWRE, 0, 0), 0 },
		{ 4, { 0x01 }, 0, HWPROF_PT_PERF_DUMP, P(TIP_PGD, 0, 0), 0 },
		{ 7, { 0x71, 0x00, 0x10, 0x40 }, 0, 0, P(TIP_PGE, 0x401000, 3), 0 },
		{ 2, { 0x99, 0x04 }, 0, 0, P(MODE_EXEC, 16, 4), 0 },
		{ 2, { 0x99, 0x22 }, 0, 0, P(MODE_TSX, 2, 0), 0 },
		{ 7, { 0x02, 0x73, 0x02, 0x01, 0x00, 0x04, 0x01 }, 0, 0, P(TMA, 0x102, 0x104), 0 },
		{ 8, { 0x02, 0x43, 0x01, 0x7d, 0x7d, 0x05 }, 0, 0, P(PIP, 0x57d7d01, 0), 0 },
		{ 7, { 0x02, 0xc8, 0xcd, 0xab }, 0, 0, P(VMCS, 0xabcd, 5), 0 },
		{ 4, { 0x02, 0x03, 0x04, 0x02 }, 0, 0, P(CBR, 0x204, 0), 0 },
		{ 2, { 0x07, 0x08 }, 0, 0, P(CYC, 0x80, 0), 0 },
		{ 3, { 0x02, 0x63, 0x80 }, 0, 0, P(BBP, 0, 1), HWPROF_PT_CTX_BLK4 },
		{ 3, { 0x02, 0x63, 0x05 }, 0, 0, P(BBP, 5, 0), HWPROF_PT_CTX_BLK8 },
		{ 5, { 0xfc, 1, 2, 3, 4 }, HWPROF_PT_CTX_BLK4, 0, P(BIP, 0x4030201, 0x1f),
		  HWPROF_PT_CTX_BLK4 },
		{ 9, { 0x0c, 1, 2, 3, 4, 5, 6, 7, 8 }, HWPROF_PT_CTX_BLK8, 0,
		  P(BIP, 0x0807060504030201ULL, 1), HWPROF_PT_CTX_BLK8 },
		{ 1, { 0xfc }, HWPROF_PT_CTX_NONE, 0, P(TNT, 0xf800000000000000ULL, 6), 0 },
		{ 1, { 0x1d }, HWPROF_PT_CTX_BLK4, 0, P(FUP, 0, 0), HWPROF_PT_CTX_BLK4 },
		{ 2, { 0x59, 0x01 }, HWPROF_PT_CTX_BLK8, 0, P(MTC, 1, 0), HWPROF_PT_CTX_BLK8 },
		{ 2, { 0x02, 0x33 }, HWPROF_PT_CTX_BLK4, 0, P(BEP, 0, 0), 0 },
		{ 11, { 0x02, 0x53, 0x02, 0xaa, 0x0b, 0xf0 }, 0, 0, P(EVD, 0xf00baa, 2), 0 },
		{ 8, { 0x02, 0x83 }, 0, HWPROF_PT_PERF_DUMP, P(TRACESTOP, 0, 0), 0 },
		{ 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 }, 0, 0,
		  P(CYC, 0x1fffffffffffffffULL, 0), 0 },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct hwprof_pt_packet pkt;
		int ret = hwprof_pt_packet_decode(v[i].bytes, (size_t)v[i].len, v[i].ctx,
						  v[i].flags, &pkt);
		assert_int_equal(ret, v[i].len);
		assert_int_equal(pkt.type, v[i].want.type);
		assert_int_equal(pkt.count, v[i].want.count);
		assert_int_equal(pkt.payload, v[i].want.payload);
		assert_int_equal(hwprof_pt_ctx_next(v[i].ctx, &pkt), v[i].ctx_out);
	}
}

static void test_bad_packets(void **state)
{
	static const uint8_t bad[][16] = {
		{ 0x05 }, { 0x09 }, { 0x15 }, { 0x39 }, { 0xc9 }, { 0xb1, 1, 2, 3, 4, 5, 6, 7, 8 },
		{ 0xed, 1, 2, 3, 4, 5, 6, 7, 8 }, { 0x99, 0x03 }, { 0x99, 0x23 }, { 0x99, 0x40 },
		{ 0x02, 0x04 }, { 0x02, 0xff }, { 0x02, 0xc3, 0x77 }, { 0x02, 0x52, 1, 2, 3, 4 },
		{ 0x02, 0x82, 0x02, 0x83 },
		{ 0x07, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 },
	};
	struct hwprof_pt_packet pkt;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(hwprof_pt_packet_decode(bad[i], 16, 0, 0, &pkt),
				 -HWPROF_E_BAD_PACKET);
	/* TRIG is valid by default and unknown to perf 6.1 */
	static const uint8_t trig[] = { 0xd9, 0x40, 0x02, 0x34, 0x12 };
	assert_int_equal(hwprof_pt_packet_decode(trig, 5, 0, 0, &pkt), 5);
	assert_int_equal(pkt.type, HWPROF_PT_TRIG);
	assert_int_equal(pkt.payload, 0x1234);
	assert_int_equal(hwprof_pt_packet_decode(trig, 5, 0, HWPROF_PT_PERF_DUMP, &pkt),
			 -HWPROF_E_BAD_PACKET);
	assert_int_equal(hwprof_pt_packet_decode(NULL, 5, 0, 0, &pkt), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_packet_decode(trig, 0, 0, 0, &pkt), -HWPROF_E_NEED_MORE);
}

/* Tiny deterministic PRNG (xorshift64*) so failures reproduce. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static unsigned ipt_bytes_for(unsigned ipc)
{
	static const unsigned n[8] = { 0, 2, 4, 6, 6, 0, 8, 0 };
	return n[ipc & 7];
}

/* A random valid packet; ctx says whether a BIP may follow. */
static struct hwprof_pt_packet random_packet(uint64_t *s, enum hwprof_pt_ctx ctx)
{
	struct hwprof_pt_packet p = samples[rnd(s) % NSAMPLES];
	uint64_t r = rnd(s);
	switch (p.type) {
	case HWPROF_PT_TNT:
		p.count = 1 + (unsigned)(r % 47);
		p.payload = rnd(s) & (~0ULL << (64 - p.count));
		break;
	case HWPROF_PT_TIP: case HWPROF_PT_FUP: case HWPROF_PT_TIP_PGE:
	case HWPROF_PT_TIP_PGD: {
		static const unsigned ipcs[] = { 0, 1, 2, 3, 4, 6 };
		p.count = ipcs[r % 6];
		unsigned n = ipt_bytes_for(p.count);
		p.payload = n == 8 ? rnd(s) : rnd(s) & ((1ULL << (8 * n)) - 1);
		break;
	}
	case HWPROF_PT_TSC: p.payload = r >> 8; break;
	case HWPROF_PT_CYC: p.payload = r >> (r % 64); break;
	case HWPROF_PT_MNT: case HWPROF_PT_MWAIT: case HWPROF_PT_EVD: p.payload = r; break;
	case HWPROF_PT_BIP:
		if (ctx == HWPROF_PT_CTX_NONE)
			p = (struct hwprof_pt_packet)P(BBP, r & 0x1f, (r >> 5) & 1);
		else
			p.payload = ctx == HWPROF_PT_CTX_BLK4 ? r >> 32 : r;
		break;
	default: break;
	}
	return p;
}

static void test_random_sequences(void **state)
{
	enum { N = 4000 };
	static uint8_t buf[N * 16];
	static struct hwprof_pt_packet want[N];
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	for (int round = 0; round < 20; round++) {
		struct hwprof_pt_encoder enc;
		struct hwprof_pt_decoder dec;
		struct hwprof_pt_packet pkt;
		hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
		for (int i = 0; i < N; i++) {
			want[i] = random_packet(&s, enc.ctx);
			assert_true(hwprof_pt_encode(&enc, &want[i]) > 0);
		}
		hwprof_pt_decoder_init(&dec, buf, hwprof_pt_encoder_offset(&enc), 0);
		for (int i = 0; i < N; i++) {
			size_t off = hwprof_pt_decoder_offset(&dec);
			assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 1);
			assert_same_packet(&want[i], &pkt);
			assert_int_equal(hwprof_pt_decoder_offset(&dec), off + pkt.size);
		}
		assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 0);
	}
}

static void test_last_ip(void **state)
{
	uint8_t buf[64 * 1024];
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	struct hwprof_pt_last_ip lip;
	uint64_t s = 42, ips[3000], ip = 0x401000;
	static const unsigned types[] = { HWPROF_PT_TIP, HWPROF_PT_FUP, HWPROF_PT_TIP_PGE,
					  HWPROF_PT_TIP_PGD };

	/* shortest compression against the last IP */
	hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
	assert_int_equal(hwprof_pt_encode_psb(&enc), 16);
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP_PGE, 0x401000), 5);
	assert_int_equal(buf[16], 0x51); /* ipc 2 against last IP 0 */
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, 0x401234), 3);
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, 0xffffffff81000000ULL), 7);
	assert_int_equal(buf[16 + 5 + 3], 0x6d); /* sign-extended 48 bits */
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, 0x7fff00000000ULL), 7);
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, 0x8000000000000000ULL), 9);
	assert_int_equal(hwprof_pt_encode_ip(&enc, HWPROF_PT_PSB, 0), -HWPROF_E_INVAL);

	/* random IPs near each other and far: decoder reconstructs each one */
	hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
	for (int i = 0; i < 3000; i++) {
		uint64_t r = rnd(&s);
		switch (r % 5) {
		case 0: ip += (r >> 8) & 0xff; break;
		case 1: ip ^= (r >> 8) & 0xffffff; break;
		case 2: ip = 0xffff800000000000ULL | (r >> 20); break;
		case 3: ip = r >> 16; break;
		default: ip = r; break;
		}
		if (i % 500 == 0)
			hwprof_pt_encode_psb(&enc);
		ips[i] = ip;
		assert_true(hwprof_pt_encode_ip(&enc, types[r % 4], ip) > 0);
	}
	hwprof_pt_decoder_init(&dec, buf, hwprof_pt_encoder_offset(&enc), 0);
	hwprof_pt_last_ip_init(&lip);
	int i = 0;
	while (hwprof_pt_decoder_next(&dec, &pkt) == 1) {
		uint64_t got;
		if (hwprof_pt_last_ip_update(&lip, &pkt, &got) == 1)
			assert_int_equal(got, ips[i++]);
	}
	assert_int_equal(i, 3000);

	/* suppressed IP, reserved compression, PSB reset */
	struct hwprof_pt_packet p = P(TIP, 0, 0);
	assert_int_equal(hwprof_pt_last_ip_update(&lip, &p, NULL), 0);
	p.count = 5;
	assert_int_equal(hwprof_pt_last_ip_update(&lip, &p, NULL), -HWPROF_E_BAD_PACKET);
	p = (struct hwprof_pt_packet)P(PSB, 0, 0);
	assert_int_equal(hwprof_pt_last_ip_update(&lip, &p, NULL), 0);
	assert_int_equal(lip.ip, 0);
	assert_int_equal(hwprof_pt_last_ip_update(NULL, &p, NULL), -HWPROF_E_INVAL);
}

static void test_sync_and_errors(void **state)
{
	uint8_t buf[256];
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	size_t off;

	memset(buf, 0x05, sizeof(buf)); /* 0x05 is no packet */
	hwprof_pt_encoder_init(&enc, buf + 37, 100);
	hwprof_pt_encode_psb(&enc);
	hwprof_pt_encode_tnt(&enc, 5, 3);
	assert_int_equal(hwprof_pt_find_psb(buf, sizeof(buf), 0, &off), 0);
	assert_int_equal(off, 37);
	assert_int_equal(hwprof_pt_find_psb(buf, sizeof(buf), 38, &off), -HWPROF_E_NOSYNC);
	assert_int_equal(hwprof_pt_find_psb(buf, 52, 0, &off), -HWPROF_E_NOSYNC);
	assert_int_equal(hwprof_pt_find_psb(NULL, 1, 0, &off), -HWPROF_E_INVAL);

	hwprof_pt_decoder_init(&dec, buf, sizeof(buf), 0);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), -HWPROF_E_BAD_PACKET);
	assert_int_equal(hwprof_pt_decoder_error_offset(&dec), 0);
	assert_int_equal(hwprof_pt_decoder_offset(&dec), 0); /* not advanced */
	assert_int_equal(hwprof_pt_decoder_sync(&dec), 0);
	assert_int_equal(hwprof_pt_decoder_offset(&dec), 37);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 1);
	assert_int_equal(pkt.type, HWPROF_PT_PSB);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 1);
	assert_int_equal(pkt.type, HWPROF_PT_TNT);
	assert_int_equal(pkt.count, 3);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), -HWPROF_E_BAD_PACKET);
	assert_int_equal(hwprof_pt_decoder_error_offset(&dec), 54);
	assert_int_equal(hwprof_pt_decoder_sync(&dec), -HWPROF_E_NOSYNC);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 0);

	/* truncated at the end: NEED_MORE with the packet's offset */
	static const uint8_t tail[] = { 0x00, 0x19, 1, 2, 3 };
	hwprof_pt_decoder_init(&dec, tail, sizeof(tail), 0);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 1);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), -HWPROF_E_NEED_MORE);
	assert_int_equal(hwprof_pt_decoder_error_offset(&dec), 1);
	assert_int_equal(hwprof_pt_decoder_skip(&dec, 5), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_decoder_seek(&dec, 6), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_decoder_skip(&dec, 4), 0);
	assert_int_equal(hwprof_pt_decoder_next(&dec, &pkt), 0);
}

static void test_encoder_limits(void **state)
{
	uint8_t buf[4];
	struct hwprof_pt_encoder enc;
	hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
	assert_int_equal(hwprof_pt_encode_psb(&enc), -HWPROF_E_NOMEM);
	assert_int_equal(hwprof_pt_encoder_offset(&enc), 0);
	struct hwprof_pt_packet bad[] = {
		P(TNT, 0, 48), P(TIP, 0x10000, 1), P(TIP, 0, 5), P(MODE_EXEC, 48, 0),
		P(MODE_TSX, 3, 0), P(TMA, 0, 0x200), P(PTWRITE, 0, 2), P(BIP, 0, 0),
		P(CFE, 0x100, 0), P(TYPE_COUNT, 0, 0),
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(hwprof_pt_encode(&enc, &bad[i]), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_encode_tnt(&enc, 0, 0), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_encode_tnt(&enc, 4, 2), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_pt_encode_mtc(&enc, 7), 2);
	assert_int_equal(hwprof_pt_encode(NULL, &bad[0]), -HWPROF_E_INVAL);
}

/* Descriptions: each expected string was printed by perf 6.1 for these bytes. */
static void test_desc_perf_texts(void **state)
{
	static const struct {
		uint8_t len, bytes[16];
		enum hwprof_pt_ctx ctx;
		const char *text;
	} v[] = {
		{ 16, { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 }, 0, "PSB" },
		{ 2, { 0x99, 0x01 }, 0, "MODE.Exec IF:0 64" },
		{ 2, { 0x99, 0x1d }, 0, "MODE.Exec IF:1 64" },
		{ 2, { 0x99, 0x06 }, 0, "MODE.Exec IF:1 32" },
		{ 2, { 0x99, 0x21 }, 0, "MODE.TSX TXAbort:0 InTX:1" },
		{ 2, { 0x02, 0x23 }, 0, "PSBEND" },
		{ 7, { 0x71, 0x00, 0x10, 0x40 }, 0, "TIP.PGE 0x401000" },
		{ 1, { 0x1c }, 0, "TNT TTN (3)" },
		{ 1, { 0x01 }, 0, "TIP.PGD no ip" },
		{ 8, { 0x02, 0xa3, 0x01 }, 0, "TNT  (0)" },
		{ 8, { 0x02, 0xa3, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0x55 }, 0,
		  "TNT NTNTNTTNTNTNTNTNTNTNTNTNTNTNTNTNTNTNTNTNTNTNTN (46)" },
		{ 9, { 0xcd, 0x00, 0x40, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x00 }, 0, "TIP 0xcccccccccc4000" },
		{ 8, { 0x19, 1, 2, 3, 4, 5, 6, 7 }, 0, "TSC 0x7060504030201" },
		{ 7, { 0x02, 0x73, 0xff, 0xff, 0x00, 0x34, 0xff }, 0, "TMA CTC 0xffff FC 0x134" },
		{ 2, { 0x59, 0x94 }, 0, "MTC 0x94" },
		{ 2, { 0x07, 0x08 }, 0, "CYC 0x80" },
		{ 8, { 0x02, 0x43, 0x01, 0x7d, 0x7d, 0x05 }, 0, "PIP 0x2bebe80 (NR=1)" },
		{ 8, { 0x02, 0x43, 0x00, 1, 2, 3, 4, 5 }, 0, "PIP 0x28201810080 (NR=0)" },
		{ 7, { 0x02, 0xc8, 0xcd, 0xab }, 0, "VMCS 0xabcd" },
		{ 11, { 0x02, 0xc3, 0x88, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0x42, 0x22, 0x2a }, 0,
		  "MNT 0x2a2242e5d4c3b2a1" },
		{ 2, { 0x02, 0xf3 }, 0, "OVF" },
		{ 2, { 0x02, 0x83 }, 0, "TraceSTOP" },
		{ 4, { 0x02, 0x03, 0x24, 0x00 }, 0, "CBR 0x24" },
		{ 6, { 0x02, 0x92, 0xef, 0xcd, 0xab, 0x90 }, 0, "PTWRITE 0x90abcdef IP:1" },
		{ 10, { 0x02, 0x32, 1, 2, 3, 4, 5, 6, 7, 8 }, 0, "PTWRITE 0x807060504030201 IP:0" },
		{ 2, { 0x02, 0xe2 }, 0, "EXSTOP IP:1" },
		{ 10, { 0x02, 0xc2, 0x0b, 0, 0, 0, 1 }, 0, "MWAIT 0x10000000b Hints 0xb Extensions 0x1" },
		{ 4, { 0x02, 0x22, 0x00, 0xff }, 0, "PWRE 0xff00 HW:0 CState:15 Sub-CState:15" },
		{ 4, { 0x02, 0x22, 0x80, 0x12 }, 0, "PWRE 0x1280 HW:1 CState:1 Sub-CState:2" },
		{ 7, { 0x02, 0xa2, 0x05, 0x01 }, 0,
		  "PWRX 0x105 Last CState:0 Deepest CState:5 Wake Reason 0x1" },
		{ 3, { 0x02, 0x63, 0x80 }, 0, "BBP SZ 4-byte Type 0x0" },
		{ 5, { 0x0c, 0x55, 0x66, 0x77, 0x88 }, HWPROF_PT_CTX_BLK4, "BIP ID 0x01 Value 0x88776655" },
		{ 2, { 0x02, 0xb3 }, 0, "BEP IP:1" },
		{ 4, { 0x02, 0x13, 0x83, 0xf0 }, 0, "CFE IP:1 Type 0x03 Vector 0xf0" },
		{ 11, { 0x02, 0x53, 0x02, 0xaa, 0x0b, 0xf0 }, 0, "EVD Type 0x02 Payload 0xf00baa" },
		{ 11, { 0x02, 0x53, 0xff, 0x01 }, 0, "EVD Type 0x3f Payload 0x1" },
		/* ours: perf 6.1 has no TRIG */
		{ 5, { 0xd9, 0xc0, 0x02, 0x34, 0x12 }, 0, "TRIG TRBV 0x02 IP:1 MULT:0 ICNT 0x1234" },
		{ 3, { 0xd9, 0x20, 0xff }, 0, "TRIG TRBV 0xff IP:0 MULT:1" },
	};
	char text[256];
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct hwprof_pt_packet pkt;
		assert_int_equal(hwprof_pt_packet_decode(v[i].bytes, v[i].len, v[i].ctx, 0, &pkt),
				 v[i].len);
		int n = hwprof_pt_packet_desc(&pkt, text, sizeof(text));
		assert_string_equal(text, v[i].text);
		assert_int_equal(n, (int)strlen(v[i].text));
	}
	/* short buffers truncate like snprintf and still report the full length */
	static const uint8_t trig[] = { 0xd9, 0xc0, 0x02, 0x34, 0x12 };
	const int trig_len = (int)strlen("TRIG TRBV 0x02 IP:1 MULT:0 ICNT 0x1234");
	struct hwprof_pt_packet pkt;
	hwprof_pt_packet_decode(trig, sizeof(trig), 0, 0, &pkt);
	assert_int_equal(hwprof_pt_packet_desc(&pkt, text, 10), trig_len);
	assert_string_equal(text, "TRIG TRBV");
	assert_int_equal(hwprof_pt_packet_desc(&pkt, NULL, 0), trig_len);
	assert_int_equal(hwprof_pt_packet_desc(NULL, text, 1), -HWPROF_E_INVAL);
	assert_string_equal(hwprof_pt_type_name(HWPROF_PT_TRACESTOP), "TraceSTOP");
	assert_string_equal(hwprof_pt_type_name(999), "BAD");
}

/* The trace of docs/intel-pt-notes.md, printed as perf 6.1 printed it. */
static void test_print_dump_notes_example(void **state)
{
	static const uint8_t trace[32] = {
		2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
		0x99, 0x01, 0x02, 0x23, 0x71, 0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x1c, 0x01,
	};
	static const char want[] =
		".\n"
		". ... Intel Processor Trace data: size 32 bytes\n"
		".  00000000:  02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 PSB\n"
		".  00000010:  99 01                                           MODE.Exec IF:0 64\n"
		".  00000012:  02 23                                           PSBEND\n"
		".  00000014:  71 00 10 40 00 00 00                            TIP.PGE 0x401000\n"
		".  0000001b:  1c                                              TNT TTN (3)\n"
		".  0000001c:  01 00 00 00                                     TIP.PGD no ip\n";
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	print_pt_dump(f, trace, sizeof(trace));
	fclose(f);
	assert_string_equal(text, want);
	free(text);

	/* a packet cut by the buffer end is one "Bad packet!" byte at a time */
	static const uint8_t cut[] = { 0x19, 0x11, 0x22 };
	static const char want_cut[] =
		".\n"
		". ... Intel Processor Trace data: size 3 bytes\n"
		".  00000000:  19                                              Bad packet!\n"
		".  00000001:  11                                              TIP.PGE no ip\n"
		".  00000002:  22                                              TNT NNNT (4)\n";
	f = open_memstream(&text, &size);
	print_pt_dump(f, cut, sizeof(cut));
	fclose(f);
	assert_string_equal(text, want_cut);
	free(text);
}

/* AUXTRACE_INFO fields, as perf 6.1 printed them for the same values. */
static void test_print_auxtrace_info(void **state)
{
	uint64_t priv[17 + 4] = { 8, 0, 0, 0, 0, 0x400, 0x800, 0, 0, 0,
				  0x200, 0x3c000, 0, 0, 0x2, 0, 0 };
	static const char head[] =
		"  PMU Type            8\n"
		"  Time Shift          0\n"
		"  Time Muliplier      0\n"
		"  Time Zero           0\n"
		"  Cap Time Zero       0\n"
		"  TSC bit             0x400\n"
		"  NoRETComp bit       0x800\n"
		"  Have sched_switch   0\n"
		"  Snapshot mode       0\n"
		"  Per-cpu maps        0\n";
	static const char mid[] =
		"  MTC bit             0x200\n"
		"  MTC freq bits       0x3c000\n"
		"  TSC:CTC numerator   0\n"
		"  TSC:CTC denominator 0\n"
		"  CYC bit             0x2\n";
	char want[2048], *text = NULL;
	size_t size = 0;

	FILE *f = open_memstream(&text, &size);
	print_pt_auxtrace_info(f, priv, 17, NULL, 0);
	fclose(f);
	snprintf(want, sizeof(want), "%s%s%s", head, mid,
		 "  Max non-turbo ratio 0\n  Filter string len.  0\n  Filter string       \n");
	assert_string_equal(text, want);
	free(text);

	f = open_memstream(&text, &size);
	print_pt_auxtrace_info(f, priv, 10, NULL, 0);
	fclose(f);
	assert_string_equal(text, head);
	free(text);

	f = open_memstream(&text, &size);
	print_pt_auxtrace_info(f, priv, 15, NULL, 0);
	fclose(f);
	snprintf(want, sizeof(want), "%s%s", head, mid);
	assert_string_equal(text, want);
	free(text);

	/* signedness of each field: perf prints -1s this way */
	for (int i = 1; i < 16; i++)
		priv[i] = (uint64_t)-i;
	static const char *const neg[] = {
		"  Time Shift          18446744073709551615\n", "  Cap Time Zero       -4\n",
		"  TSC bit             0xfffffffffffffffb\n", "  Per-cpu maps        -9\n",
		"  Max non-turbo ratio 18446744073709551601\n",
	};
	f = open_memstream(&text, &size);
	print_pt_auxtrace_info(f, priv, 17, NULL, 0);
	fclose(f);
	for (size_t i = 0; i < sizeof(neg) / sizeof(neg[0]); i++)
		assert_non_null(strstr(text, neg[i]));
	free(text);

	/* a filter string after the fields */
	priv[16] = 5;
	memcpy(&priv[17], "abcde\0\0\0", 8);
	f = open_memstream(&text, &size);
	print_pt_auxtrace_info(f, priv, 18, NULL, 0);
	fclose(f);
	assert_non_null(strstr(text, "  Filter string len.  5\n  Filter string       abcde\n"));
	free(text);
}

/* The batch call and the table fast path give exactly the packets (and
 * errors, at the same offsets) of one-at-a-time decoding, on valid streams
 * and on garbage, up to the buffer's last bytes. */
static void test_batch_equals_single(void **state)
{
	(void)state;
	static uint8_t buf[1 << 16];
	uint64_t seed = 99;
	for (int round = 0; round < 8; round++) {
		size_t len = 1000 + (size_t)round * 7000;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* bias towards valid first bytes in even rounds */
			buf[i] = (uint8_t)(seed >> 56);
			if (round % 2 == 0 && (seed & 0x300) == 0)
				buf[i] = 0x02;
		}
		struct hwprof_pt_decoder a, b;
		hwprof_pt_decoder_init(&a, buf, len, 0);
		hwprof_pt_decoder_init(&b, buf, len, 0);
		struct hwprof_pt_packet pa, pb[64];
		int nb = 0, ib = 0;
		for (;;) {
			int ra = hwprof_pt_decoder_next(&a, &pa);
			if (ib == nb) {
				nb = hwprof_pt_decoder_next_n(&b, pb, 1 + (size_t)(seed % 63));
				ib = 0;
			}
			if (ra <= 0) {
				assert_int_equal(nb, ra);
				if (ra == 0)
					break;
				assert_int_equal(hwprof_pt_decoder_error_offset(&a), hwprof_pt_decoder_error_offset(&b));
				hwprof_pt_decoder_skip(&a, 1);
				hwprof_pt_decoder_skip(&b, 1);
				nb = ib = 0;
				continue;
			}
			assert_true(nb > 0);
			assert_memory_equal(&pa, &pb[ib], sizeof(pa));
			ib++;
		}
	}
}

/* Texts into buffers of every small size are the full text's prefix with
 * the full length returned, as snprintf does, for the hand-built texts (TNT,
 * IP packets, NAME 0x<hex>, bare names) and the snprintf ones alike. */
static void test_desc_truncation(void **state)
{
	(void)state;
	static const struct hwprof_pt_packet pkts[] = {
		P(TNT, 0xfffffffffffe0000ULL, 47), P(TNT, 0x8000000000000000ULL, 1), P(TNT, 0, 0),
		P(TIP, 0xffffffffffffffffULL, 6), P(FUP, 0, 0), P(TIP_PGD, 0x10, 1),
		P(TSC, 0xffffffffffffffULL, 0), P(CYC, 0, 0), P(MTC, 0xab, 0), P(PSB, 0, 0),
		P(PAD, 0, 0), P(TMA, 0x1234, 0x1ff), P(MODE_EXEC, 64, 4),
	};
	char full[256], small[128];
	for (size_t i = 0; i < sizeof(pkts) / sizeof(pkts[0]); i++) {
		int n = hwprof_pt_packet_desc(&pkts[i], full, sizeof(full));
		assert_true(n > 0 && (size_t)n == strlen(full));
		for (size_t len = 0; len <= sizeof(small); len++) {
			memset(small, 'x', sizeof(small));
			assert_int_equal(hwprof_pt_packet_desc(&pkts[i], len ? small : NULL, len), n);
			if (!len)
				continue;
			size_t c = (size_t)n < len - 1 ? (size_t)n : len - 1;
			assert_memory_equal(small, full, c);
			assert_int_equal(small[c], 0);
		}
	}
	/* every TNT length: T/N per bit, oldest first, then the count */
	for (unsigned c = 0; c <= 64; c++) {
		struct hwprof_pt_packet p = P(TNT, 0xa5a5a5a5a5a5a5a5ULL, c);
		char want[128];
		int k = sprintf(want, "TNT ");
		for (unsigned i = 0; i < c; i++)
			want[k++] = (0xa5a5a5a5a5a5a5a5ULL >> (63 - i)) & 1 ? 'T' : 'N';
		sprintf(want + k, " (%u)", c);
		assert_int_equal(hwprof_pt_packet_desc(&p, full, sizeof(full)), (int)strlen(want));
		assert_string_equal(full, want);
	}
}

/* The iterator's table fast path gives exactly what the general decoder
 * (hwprof_pt_packet_decode) gives, for every first and second byte with
 * varied bytes after them, in the middle of a buffer (where the fast path
 * applies) and within its last 16 bytes (where it does not). */
static void test_fast_equals_general(void **state)
{
	(void)state;
	uint8_t buf[40];
	uint64_t seed = 7;
	for (unsigned b0 = 0; b0 < 256; b0++) {
		for (unsigned b1 = 0; b1 < 256; b1++) {
			for (int v = 0; v < 4; v++) {
				for (size_t i = 0; i < sizeof(buf); i++) {
					seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
					buf[i] = (uint8_t)(seed >> 56);
					/* v 1: zero tail; v 2: 0xff tail; v 3: long TNT / PSB shapes */
					if (v == 1 && i > 2)
						buf[i] = 0;
					if (v == 2 && i > 2)
						buf[i] = 0xff;
				}
				if (v == 3)
					buf[(seed >> 8) % 8 + 2] = 0;
				buf[0] = (uint8_t)b0;
				buf[1] = (uint8_t)b1;
				for (size_t len = 9; len <= sizeof(buf); len += sizeof(buf) - 9) {
					struct hwprof_pt_decoder dec;
					struct hwprof_pt_packet pa, pb, pc;
					/* exactly len bytes on the heap: the sanitizer
					 * build sees any read past the end */
					uint8_t *hb = malloc(len);
					assert_non_null(hb);
					memcpy(hb, buf, len);
					memset(&pa, 0, sizeof(pa));
					int rg = hwprof_pt_packet_decode(hb, len, HWPROF_PT_CTX_NONE, 0, &pa);
					hwprof_pt_decoder_init(&dec, hb, len, 0);
					int r1 = hwprof_pt_decoder_next(&dec, &pb);
					hwprof_pt_decoder_init(&dec, hb, len, 0);
					int rn = hwprof_pt_decoder_next_n(&dec, &pc, 1);
					free(hb);
					if (rg < 0) {
						assert_int_equal(r1, rg);
						assert_int_equal(rn, rg);
						assert_int_equal(hwprof_pt_decoder_offset(&dec), 0);
						continue;
					}
					assert_int_equal(r1, 1);
					assert_int_equal(rn, 1);
					assert_int_equal(hwprof_pt_decoder_offset(&dec), (size_t)rg);
					assert_memory_equal(&pa, &pb, sizeof(pa));
					assert_memory_equal(&pa, &pc, sizeof(pa));
				}
			}
		}
	}
}

/* Whole streams: the batch call equals the general decoder driven by hand
 * (hwprof_pt_packet_decode plus hwprof_pt_ctx_next), with block context
 * (BBP/BIP) and perf dump mode, including error offsets. */
static void test_stream_equals_general(void **state)
{
	(void)state;
	static uint8_t buf[1 << 15];
	uint64_t seed = 5;
	for (int round = 0; round < 12; round++) {
		size_t len = 500 + (size_t)round * 2700;
		unsigned flags = round % 3 == 2 ? HWPROF_PT_PERF_DUMP : 0;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (uint8_t)(seed >> 56);
			if (round % 2 == 0 && (seed & 0x700) == 0)
				buf[i] = 0x02;
			if ((seed & 0x7f000) == 0)
				buf[i] = 0x00;
		}
		struct hwprof_pt_decoder dec;
		struct hwprof_pt_packet want, got[32];
		enum hwprof_pt_ctx ctx = HWPROF_PT_CTX_NONE;
		size_t pos = 0;
		int n = 0, k = 0;
		uint8_t *hb = malloc(len); /* exact size: overreads show under ASan */
		assert_non_null(hb);
		memcpy(hb, buf, len);
		hwprof_pt_decoder_init(&dec, hb, len, flags);
		while (pos < len) {
			int rg = hwprof_pt_packet_decode(buf + pos, len - pos, ctx, flags, &want);
			if (k == n) {
				n = hwprof_pt_decoder_next_n(&dec, got, 1 + (size_t)(seed++ % 31));
				k = 0;
			}
			if (rg < 0) {
				assert_int_equal(n, rg);
				assert_int_equal(hwprof_pt_decoder_error_offset(&dec), pos);
				assert_int_equal(hwprof_pt_decoder_skip(&dec, 1), 0);
				pos++;
				n = k = 0;
				continue;
			}
			assert_true(n > 0);
			assert_memory_equal(&want, &got[k], sizeof(want));
			k++;
			pos += (size_t)rg;
			ctx = hwprof_pt_ctx_next(ctx, &want);
		}
		if (k == n)
			n = hwprof_pt_decoder_next_n(&dec, got, 4);
		assert_int_equal(n, 0);
		free(hb);
	}
}

/* The one-packet call against the general decoder over whole streams,
 * with seeks and skips between calls (the call keeps the next packet's
 * first byte from one call to the next; moving must forget it). */
static void test_single_equals_general_with_seeks(void **state)
{
	(void)state;
	static uint8_t buf[1 << 14];
	uint64_t seed = 11;
	for (int round = 0; round < 8; round++) {
		size_t len = 300 + (size_t)round * 2000;
		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (uint8_t)(seed >> 56);
			if (round % 2 && (seed & 0x300) == 0)
				buf[i] = 0x02;
		}
		struct hwprof_pt_decoder dec;
		struct hwprof_pt_packet want, got;
		hwprof_pt_decoder_init(&dec, buf, len, 0);
		enum hwprof_pt_ctx ctx = HWPROF_PT_CTX_NONE;
		for (int step = 0; step < 4000; step++) {
			size_t pos = hwprof_pt_decoder_offset(&dec);
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			if ((seed >> 60) == 0 && pos < len) { /* jump somewhere else */
				size_t to = (size_t)(seed >> 20) % len;
				if ((seed >> 59) & 1)
					assert_int_equal(hwprof_pt_decoder_seek(&dec, to), 0);
				else if (to >= pos)
					assert_int_equal(hwprof_pt_decoder_skip(&dec, to - pos), 0);
				else
					assert_int_equal(hwprof_pt_decoder_seek(&dec, to), 0);
				pos = hwprof_pt_decoder_offset(&dec);
			}
			if (pos >= len) {
				assert_int_equal(hwprof_pt_decoder_next(&dec, &got), 0);
				break;
			}
			ctx = dec.ctx; /* a seek keeps the block context */
			int rg = hwprof_pt_packet_decode(buf + pos, len - pos, ctx, 0, &want);
			int r1 = hwprof_pt_decoder_next(&dec, &got);
			if (rg < 0) {
				assert_int_equal(r1, rg);
				assert_int_equal(hwprof_pt_decoder_error_offset(&dec), pos);
				assert_int_equal(hwprof_pt_decoder_skip(&dec, 1), 0);
				continue;
			}
			assert_int_equal(r1, 1);
			assert_memory_equal(&want, &got, sizeof(want));
			assert_int_equal(hwprof_pt_decoder_offset(&dec), pos + (size_t)rg);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_type),
		cmocka_unit_test(test_truncated_every_byte),
		cmocka_unit_test(test_perf_vectors),
		cmocka_unit_test(test_bad_packets),
		cmocka_unit_test(test_random_sequences),
		cmocka_unit_test(test_last_ip),
		cmocka_unit_test(test_sync_and_errors),
		cmocka_unit_test(test_encoder_limits),
		cmocka_unit_test(test_desc_perf_texts),
		cmocka_unit_test(test_print_dump_notes_example),
		cmocka_unit_test(test_print_auxtrace_info),
		cmocka_unit_test(test_batch_equals_single),
		cmocka_unit_test(test_fast_equals_general),
		cmocka_unit_test(test_desc_truncation),
		cmocka_unit_test(test_stream_equals_general),
		cmocka_unit_test(test_single_equals_general_with_seeks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
