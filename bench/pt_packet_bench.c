/* pt_packet_bench: packet decoding throughput of our Intel PT decoder against
 * libipt's pt_pkt decoder over the same bytes in the same run. Three traces:
 *   mix  the original synthetic mix: a PSB+ every ~4 KB, then TNT (short and
 *        long), TIP and FUP with IP compression, MTC and CYC in random order
 *   hw   shaped like hardware output with cyc=1 mtc=1: runs of short TNTs
 *        each with a CYC before it, now and then a long TNT, TIP/FUP with
 *        16/32-bit IP compression, MTC every few hundred bytes, PADs, and a
 *        PSB+ (TSC, TMA, CBR, MODE, FUP) every 4 KB
 *   FILE raw PT files given on the command line (e.g. the emulated trace of
 *        a real program that bench/pt_flow_bench.sh writes to build/bench)
 * Each decoder runs `reps` times per trace, interleaved, and the best time
 * counts (this machine is shared; the best run is the least disturbed one).
 * Prints MB/s and packets/s for each and hwprof/libipt for the one-packet
 * call and the batch call. Not part of `make check`: timing is never a test.
 *   pt_packet_bench [-r reps] [-t mix|hw|none] [MB] [FILE...]
 * (defaults: 5 runs, both synthetic traces, 256 MB). -t picks one synthetic
 * trace or none, e.g. to count instructions per trace under callgrind. */
#include <inttypes.h>
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwprof/intel_pt.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* Every encode must succeed: a generator that silently drops packets
 * measures some other trace than the one it describes. */
static void ok(int ret, const char *what)
{
	if (ret <= 0) {
		fprintf(stderr, "pt_packet_bench: encoding %s failed (%d)\n", what, ret);
		exit(1);
	}
}

static void psb_plus(struct hwprof_pt_encoder *enc, uint64_t tsc, uint64_t ip, int hw)
{
	struct hwprof_pt_packet end = { .type = HWPROF_PT_PSBEND };
	struct hwprof_pt_packet mode = { .type = HWPROF_PT_MODE_EXEC, .payload = 64, .count = 1 };
	struct hwprof_pt_packet cbr = { .type = HWPROF_PT_CBR, .payload = 0x20 };
	ok(hwprof_pt_encode_psb(enc), "PSB");
	ok(hwprof_pt_encode_tsc(enc, tsc), "TSC");
	if (hw) {
		ok(hwprof_pt_encode_tma(enc, (uint16_t)(tsc >> 7), (uint16_t)(tsc & 0x1ff)), "TMA");
		ok(hwprof_pt_encode(enc, &cbr), "CBR");
	}
	ok(hwprof_pt_encode(enc, &mode), "MODE");
	ok(hwprof_pt_encode_ip(enc, HWPROF_PT_FUP, ip), "FUP");
	ok(hwprof_pt_encode(enc, &end), "PSBEND");
}

static size_t generate_mix(uint8_t *buf, size_t len)
{
	struct hwprof_pt_encoder enc;
	uint64_t s = 12345, ip = 0x401000, tsc = 1000000;
	size_t next_psb = 0;
	hwprof_pt_encoder_init(&enc, buf, len);
	while (hwprof_pt_encoder_offset(&enc) + 64 < len) {
		if (hwprof_pt_encoder_offset(&enc) >= next_psb) {
			psb_plus(&enc, tsc += 5000, ip, 0);
			next_psb += 4096;
		}
		uint64_t r = rnd(&s);
		unsigned n;
		switch (r % 10) {
		case 0: case 1: case 2: ok(hwprof_pt_encode_tnt(&enc, (r >> 20) & 0x3f, 6), "TNT"); break;
		case 3:
			n = 1 + (unsigned)((r >> 8) % 47);
			ok(hwprof_pt_encode_tnt(&enc, (r >> 16) & ((1ULL << n) - 1), n), "TNT");
			break;
		case 4: case 5:
			ip = (r >> 9) & 1 ? ip + ((r >> 12) & 0xfff) : 0x400000 + ((r >> 12) & 0xffffff);
			ok(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, ip), "TIP");
			break;
		case 6: ok(hwprof_pt_encode_mtc(&enc, (uint8_t)(r >> 16)), "MTC"); break;
		case 7: ok(hwprof_pt_encode_cyc(&enc, (r >> 16) & 0xfff), "CYC"); break;
		case 8: ok(hwprof_pt_encode_ip(&enc, HWPROF_PT_FUP, ip + 3), "FUP"); break;
		default: ok(hwprof_pt_encode_tnt(&enc, (r >> 30) & 7, 3), "TNT"); break;
		}
	}
	return hwprof_pt_encoder_offset(&enc);
}

/* Cycle counts between packets: mostly small (one-byte CYC), a tail of
 * larger ones (two and three bytes), as with a low cyc_thresh. */
static uint64_t cycles(uint64_t r)
{
	switch (r & 7) {
	case 0: return (r >> 8) & 0x3fff;
	case 1: case 2: return (r >> 8) & 0x3ff;
	default: return 1 + ((r >> 8) & 0x1f);
	}
}

static size_t generate_hw(uint8_t *buf, size_t len)
{
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_packet pad = { .type = HWPROF_PT_PAD };
	uint64_t s = 777, ip = 0x7f0000401000ULL, tsc = 1000000;
	size_t next_psb = 0, next_mtc = 300;
	hwprof_pt_encoder_init(&enc, buf, len);
	while (hwprof_pt_encoder_offset(&enc) + 256 < len) {
		size_t off = hwprof_pt_encoder_offset(&enc);
		if (off >= next_psb) {
			while (hwprof_pt_encoder_offset(&enc) & 7)
				ok(hwprof_pt_encode(&enc, &pad), "PAD");
			psb_plus(&enc, tsc += 20000, ip, 1);
			next_psb += 4096;
		}
		if (off >= next_mtc) {
			ok(hwprof_pt_encode_mtc(&enc, (uint8_t)(tsc >> 9)), "MTC");
			next_mtc += 200 + (rnd(&s) & 0xff);
		}
		uint64_t r = rnd(&s);
		/* a run of conditional branches: short TNTs, a CYC before most */
		unsigned run = 1 + (unsigned)(r % 24);
		for (unsigned i = 0; i < run; i++) {
			uint64_t q = rnd(&s);
			if (q & 3)
				ok(hwprof_pt_encode_cyc(&enc, cycles(q >> 2)), "CYC");
			if ((q >> 40) % 50 == 0) {
				unsigned n = 7 + (unsigned)((q >> 20) % 41);
				ok(hwprof_pt_encode_tnt(&enc, (q >> 8) & ((1ULL << n) - 1), n), "TNT");
			} else {
				unsigned n = (q >> 50) & 7 ? 6 : 1 + (unsigned)((q >> 53) % 6);
				ok(hwprof_pt_encode_tnt(&enc, (q >> 12) & ((1ULL << n) - 1), n), "TNT");
			}
		}
		/* then an indirect branch or return (TIP), a CYC before it; now and
		 * then an asynchronous event (FUP) or a far jump */
		if (r & 0x100)
			ok(hwprof_pt_encode_cyc(&enc, cycles(r >> 9)), "CYC");
		if (((r >> 20) & 15) == 0)
			ok(hwprof_pt_encode_ip(&enc, HWPROF_PT_FUP, ip + 7), "FUP");
		ip = ((r >> 24) & 7) == 0 ? 0x7f0000400000ULL + ((r >> 28) & 0xffffff)
					   : (ip & ~0xffffULL) | ((r >> 28) & 0xffff);
		ok(hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, ip), "TIP");
		if (((r >> 32) & 63) == 0)
			ok(hwprof_pt_encode(&enc, &pad), "PAD");
	}
	return hwprof_pt_encoder_offset(&enc);
}

static volatile uint64_t sink;

struct result {
	double t_one, t_batch, t_ipt;
	uint64_t packets;
};

static int run_ours(const uint8_t *buf, size_t len, int batched, uint64_t *packets, uint64_t *sum)
{
	static struct hwprof_pt_packet batch[256];
	struct hwprof_pt_decoder dec;
	uint64_t n = 0, s = 0;
	int ret;
	hwprof_pt_decoder_init(&dec, buf, len, 0);
	if (batched) {
		while ((ret = hwprof_pt_decoder_next_n(&dec, batch, 256)) > 0) {
			for (int i = 0; i < ret; i++)
				s += batch[i].payload + batch[i].type;
			n += (uint64_t)ret;
		}
	} else {
		struct hwprof_pt_packet pkt;
		while ((ret = hwprof_pt_decoder_next(&dec, &pkt)) == 1) {
			s += pkt.payload + pkt.type;
			n++;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "hwprof decoder: error %d at %zu\n", ret, hwprof_pt_decoder_error_offset(&dec));
		return -1;
	}
	*packets = n;
	*sum = s;
	return 0;
}

static int run_ipt(const uint8_t *buf, size_t len, uint64_t *packets)
{
	struct pt_config cfg;
	struct pt_packet q;
	uint64_t n = 0, s = 0;
	int ret;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	struct pt_packet_decoder *ipt = pt_pkt_alloc_decoder(&cfg);
	if (!ipt || pt_pkt_sync_set(ipt, 0) < 0)
		return -1;
	while ((ret = pt_pkt_next(ipt, &q, sizeof(q))) >= 0) {
		n++;
		s += q.size + q.type;
	}
	pt_pkt_free_decoder(ipt);
	if (ret != -pte_eos) {
		fprintf(stderr, "libipt: %s after %" PRIu64 " packets\n", pt_errstr(pt_errcode(ret)), n);
		return -1;
	}
	sink = s; /* reads each packet, as our loops do */
	*packets = n;
	return 0;
}

static int bench(const char *name, const uint8_t *buf, size_t len, int reps)
{
	struct result best = { 1e99, 1e99, 1e99, 0 };
	uint64_t n1 = 0, nb = 0, ni = 0, s1 = 0, sb = 0;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (run_ours(buf, len, 0, &n1, &s1) < 0)
			return -1;
		double t1 = now();
		if (run_ours(buf, len, 1, &nb, &sb) < 0)
			return -1;
		double t2 = now();
		if (run_ipt(buf, len, &ni) < 0)
			return -1;
		double t3 = now();
		if (n1 != nb || s1 != sb || n1 != ni) {
			fprintf(stderr, "%s: packets differ: one %" PRIu64 ", batch %" PRIu64 ", libipt %" PRIu64 "\n",
				name, n1, nb, ni);
			return -1;
		}
		if (t1 - t0 < best.t_one)
			best.t_one = t1 - t0;
		if (t2 - t1 < best.t_batch)
			best.t_batch = t2 - t1;
		if (t3 - t2 < best.t_ipt)
			best.t_ipt = t3 - t2;
	}
	double mb = (double)len / 1e6, np = (double)n1;
	printf("-- %s: %.1f MB, %" PRIu64 " packets (%.2f B/packet), best of %d runs\n", name, mb, n1,
	       (double)len / np, reps);
	printf("  hwprof next (one packet/call): %7.1f MB/s  %6.1f M packets/s\n", mb / best.t_one,
	       np / best.t_one / 1e6);
	printf("  hwprof next_n (batch of 256):  %7.1f MB/s  %6.1f M packets/s\n", mb / best.t_batch,
	       np / best.t_batch / 1e6);
	printf("  libipt pt_pkt_next:            %7.1f MB/s  %6.1f M packets/s\n", mb / best.t_ipt,
	       np / best.t_ipt / 1e6);
	printf("  ratio hwprof/libipt: %.2fx one packet per call, %.2fx batched\n", best.t_ipt / best.t_one,
	       best.t_ipt / best.t_batch);
	return 0;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || ftell(f) <= 0) {
		fprintf(stderr, "pt_packet_bench: cannot read %s\n", path);
		if (f)
			fclose(f);
		return NULL;
	}
	*len = (size_t)ftell(f);
	rewind(f);
	uint8_t *b = malloc(*len);
	if (!b || fread(b, 1, *len, f) != *len) {
		fprintf(stderr, "pt_packet_bench: cannot read %s\n", path);
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	int reps = 5, a = 1, rc = 0;
	const char *only = NULL;
	while (a + 1 < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-r"))
			reps = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "-t"))
			only = argv[a + 1];
		else
			break;
		a += 2;
	}
	size_t mb = a < argc ? (size_t)atol(argv[a++]) : 256;
	size_t cap = mb << 20;
	uint8_t *buf = malloc(cap);
	if (!buf || !mb || reps < 1) {
		fprintf(stderr, "usage: pt_packet_bench [-r reps] [MB] [FILE...]\n");
		return 2;
	}
	if ((!only || !strcmp(only, "mix")) && bench("mix (synthetic)", buf, generate_mix(buf, cap), reps) < 0)
		rc = 1;
	if (!rc && (!only || !strcmp(only, "hw")) &&
	    bench("hw (hardware-shaped, cyc+mtc)", buf, generate_hw(buf, cap), reps) < 0)
		rc = 1;
	free(buf);
	for (; a < argc && !rc; a++) {
		size_t len;
		uint8_t *f = read_file(argv[a], &len);
		if (!f || bench(argv[a], f, len, reps) < 0)
			rc = 1;
		free(f);
	}
	return rc;
}
