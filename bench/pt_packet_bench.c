/* pt_packet_bench: packet decoding throughput of our Intel PT decoder against
 * libipt's pt_pkt decoder over the same generated stream (>= 256 MB by
 * default): a PSB+ every ~4 KB, then a realistic mix of TNT, TIP, MTC, CYC,
 * FUP and TSC. Prints MB/s and packets/s for both and the ratio. Not part of
 * `make check` (timing is never a test).
 *   pt_packet_bench [MB]   (default 256) */
#include <inttypes.h>
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
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

static size_t generate(uint8_t *buf, size_t len)
{
	struct hwprof_pt_encoder enc;
	uint64_t s = 12345, ip = 0x401000, tsc = 1000000;
	size_t next_psb = 0;
	hwprof_pt_encoder_init(&enc, buf, len);
	while (hwprof_pt_encoder_offset(&enc) + 64 < len) {
		if (hwprof_pt_encoder_offset(&enc) >= next_psb) {
			struct hwprof_pt_packet end = { .type = HWPROF_PT_PSBEND };
			struct hwprof_pt_packet mode = { .type = HWPROF_PT_MODE_EXEC, .payload = 64, .count = 1 };
			hwprof_pt_encode_psb(&enc);
			hwprof_pt_encode_tsc(&enc, tsc += 5000);
			hwprof_pt_encode(&enc, &mode);
			hwprof_pt_encode_ip(&enc, HWPROF_PT_FUP, ip);
			hwprof_pt_encode(&enc, &end);
			next_psb += 4096;
		}
		uint64_t r = rnd(&s);
		switch (r % 10) {
		case 0: case 1: case 2: hwprof_pt_encode_tnt(&enc, r >> 20, 6); break;
		case 3: hwprof_pt_encode_tnt(&enc, r >> 20, 1 + (unsigned)((r >> 8) % 47)); break;
		case 4: case 5:
			ip = (r >> 9) & 1 ? ip + ((r >> 12) & 0xfff) : 0x400000 + ((r >> 12) & 0xffffff);
			hwprof_pt_encode_ip(&enc, HWPROF_PT_TIP, ip);
			break;
		case 6: hwprof_pt_encode_mtc(&enc, (uint8_t)(r >> 16)); break;
		case 7: hwprof_pt_encode_cyc(&enc, (r >> 16) & 0xfff); break;
		case 8: hwprof_pt_encode_ip(&enc, HWPROF_PT_FUP, ip + 3); break;
		default: hwprof_pt_encode_tnt(&enc, r >> 30, 3); break;
		}
	}
	return hwprof_pt_encoder_offset(&enc);
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 256;
	size_t cap = mb << 20;
	uint8_t *buf = malloc(cap);
	if (!buf || !mb)
		return 1;
	size_t len = generate(buf, cap);
	double mbytes = (double)len / 1e6;

	/* ours */
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	uint64_t ours = 0, sum = 0;
	double t0 = now();
	hwprof_pt_decoder_init(&dec, buf, len, 0);
	int ret;
	while ((ret = hwprof_pt_decoder_next(&dec, &pkt)) == 1) {
		ours++;
		sum += pkt.payload;
	}
	double t_ours = now() - t0;
	if (ret < 0) {
		fprintf(stderr, "our decoder failed at %zu\n", hwprof_pt_decoder_error_offset(&dec));
		return 1;
	}

	/* ours, in batches (the flow decoder's way of reading packets) */
	static struct hwprof_pt_packet batch[256];
	uint64_t ours_n = 0, sum_n = 0;
	t0 = now();
	hwprof_pt_decoder_init(&dec, buf, len, 0);
	while ((ret = hwprof_pt_decoder_next_n(&dec, batch, 256)) > 0) {
		for (int i = 0; i < ret; i++)
			sum_n += batch[i].payload;
		ours_n += (uint64_t)ret;
	}
	double t_batch = now() - t0;
	if (ret < 0 || ours_n != ours) {
		fprintf(stderr, "batch decoder: %" PRIu64 " packets, expected %" PRIu64 "\n", ours_n, ours);
		return 1;
	}
	sum += sum_n;

	/* libipt */
	struct pt_config cfg;
	struct pt_packet q;
	uint64_t theirs = 0;
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	t0 = now();
	struct pt_packet_decoder *ipt = pt_pkt_alloc_decoder(&cfg);
	if (!ipt || pt_pkt_sync_set(ipt, 0) < 0)
		return 1;
	while ((ret = pt_pkt_next(ipt, &q, sizeof(q))) >= 0) {
		theirs++;
		sum += q.size;
	}
	double t_ipt = now() - t0;
	pt_pkt_free_decoder(ipt);
	if (ret != -pte_eos || theirs != ours) {
		fprintf(stderr, "libipt: %s after %" PRIu64 " packets (ours %" PRIu64 ")\n",
			pt_errstr(pt_errcode(ret)), theirs, ours);
		return 1;
	}

	printf("stream: %.1f MB, %" PRIu64 " packets (%.2f B/packet) [checksum %" PRIx64 "]\n",
	       mbytes, ours, (double)len / (double)ours, sum);
	printf("hwprof pt decoder:  %8.1f MB/s  %7.1f M packets/s\n", mbytes / t_ours,
	       (double)ours / t_ours / 1e6);
	printf("hwprof batch (256):  %8.1f MB/s  %7.1f M packets/s\n", mbytes / t_batch,
	       (double)ours / t_batch / 1e6);
	printf("libipt pt_pkt_next: %8.1f MB/s  %7.1f M packets/s\n", mbytes / t_ipt,
	       (double)theirs / t_ipt / 1e6);
	printf("ratio (hwprof / libipt): %.2fx one packet per call, %.2fx batched\n", t_ipt / t_ours,
	       t_ipt / t_batch);
	free(buf);
	return 0;
}
