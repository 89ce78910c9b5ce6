/* pt_gen: writes Intel PT test streams for the differential tests, fuzz seeds
 * and the benchmark.
 *   pt_gen packets SEED N OUT [--no-trig]  N random valid packets of every
 *                                          type, made by our encoder, PSB first
 *   pt_gen bytes SEED N OUT                N random bytes biased to opcodes
 * Deterministic for a given SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int gen_packet(struct hwprof_pt_encoder *enc, uint64_t *s, int trig)
{
	uint64_t r = rnd(s), r2 = rnd(s);
	unsigned t = 1 + (unsigned)(r % (HWPROF_PT_TYPE_COUNT - 1));
	struct hwprof_pt_packet p = { .type = (uint8_t)t };
	r >>= 8;
	switch (t) {
	case HWPROF_PT_TNT:
		p.count = 1 + (unsigned)(r % 47);
		p.payload = r2 & (~0ULL << (64 - p.count));
		break;
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP:
		if (r % 7 == 0)
			break;
		return hwprof_pt_encode_ip(enc, t, r % 3 ? r2 >> (r % 48) : r2);
	case HWPROF_PT_MODE_EXEC: {
		static const uint64_t modes[] = { 16, 64, 32 };
		p.payload = modes[r % 3];
		p.count = (r % 3) | (r & 4);
		break;
	}
	case HWPROF_PT_MODE_TSX: p.payload = r % 3; break;
	case HWPROF_PT_PIP: p.payload = r2 >> 16; break;
	case HWPROF_PT_VMCS: p.payload = r2 >> 24; p.count = 5; break;
	case HWPROF_PT_CBR: p.payload = r2 & 0xff; break;
	case HWPROF_PT_TSC: p.payload = r2 >> 8; break;
	case HWPROF_PT_TMA: p.payload = r2 & 0xffff; p.count = (r >> 16) & 0x1ff; break;
	case HWPROF_PT_MTC: p.payload = r2 & 0xff; break;
	case HWPROF_PT_CYC: p.payload = r2 >> (r % 64); break;
	case HWPROF_PT_MNT: case HWPROF_PT_MWAIT: p.payload = r2; break;
	case HWPROF_PT_EXSTOP: case HWPROF_PT_BEP: p.ip = r & 1; break;
	case HWPROF_PT_PWRE: p.payload = r2 & 0xffff; break;
	case HWPROF_PT_PWRX: p.payload = r2 >> 24; break;
	case HWPROF_PT_PTWRITE:
		p.count = r & 1;
		p.ip = (r >> 1) & 1;
		p.payload = p.count ? r2 : r2 >> 32;
		break;
	case HWPROF_PT_BBP: p.count = r & 1; p.payload = (r >> 1) & 0x1f; break;
	case HWPROF_PT_BIP:
		if (enc->ctx == HWPROF_PT_CTX_NONE) {
			p.type = HWPROF_PT_BBP;
			p.count = r & 1;
		} else {
			p.count = r & 0x1f;
			p.payload = enc->ctx == HWPROF_PT_CTX_BLK4 ? r2 >> 32 : r2;
		}
		break;
	case HWPROF_PT_CFE: p.ip = r & 1; p.count = (r >> 1) & 0x1f; p.payload = r2 & 0xff; break;
	case HWPROF_PT_EVD: p.count = r & 0x3f; p.payload = r2; break;
	case HWPROF_PT_TRIG:
		if (!trig) {
			p.type = HWPROF_PT_PAD;
			break;
		}
		p.ip = r & 1;
		p.flags = (r >> 1) & 3;
		p.count = (r >> 3) & 0xff;
		p.payload = p.flags & HWPROF_PT_TRIG_ICNTV ? r2 & 0xffff : 0;
		break;
	default: break;
	}
	return hwprof_pt_encode(enc, &p);
}

int main(int argc, char **argv)
{
	if (argc < 5 || (strcmp(argv[1], "packets") && strcmp(argv[1], "bytes"))) {
		fprintf(stderr, "usage: pt_gen packets|bytes SEED N OUT [--no-trig]\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[2], NULL, 0) * 2 + 1; /* odd: never 0 */
	long n = atol(argv[3]);
	int trig = !(argc > 5 && !strcmp(argv[5], "--no-trig"));
	if (n <= 0)
		return 2;
	size_t cap = (size_t)n * 16 + 16, len;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return 1;
	if (!strcmp(argv[1], "packets")) {
		struct hwprof_pt_encoder enc;
		hwprof_pt_encoder_init(&enc, buf, cap);
		hwprof_pt_encode_psb(&enc);
		for (long i = 0; i < n; i++)
			if (gen_packet(&enc, &seed, trig) <= 0) {
				fprintf(stderr, "pt_gen: encoder failed at packet %ld\n", i);
				return 1;
			}
		len = hwprof_pt_encoder_offset(&enc);
	} else {
		static const uint8_t ops[] = {
			0x02, 0x02, 0x02, 0x99, 0x19, 0x59, 0xd9, 0x00, 0x63, 0x33, 0xb3, 0x13,
			0x53, 0x82, 0xa3, 0x43, 0x73, 0xc8, 0xc3, 0x88, 0x12, 0x32, 0x92, 0xb2,
			0x62, 0xe2, 0xc2, 0x22, 0xa2, 0x03, 0x23, 0x83, 0xf3, 0x04, 0x0c,
		};
		for (long i = 0; i < n; i++) {
			uint64_t r = rnd(&seed);
			buf[i] = (r & 0xff) < 150 ? ops[(r >> 8) % sizeof(ops)] : (uint8_t)(r >> 16);
		}
		len = (size_t)n;
	}
	FILE *f = fopen(argv[4], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(argv[4]);
		return 1;
	}
	free(buf);
	return 0;
}
