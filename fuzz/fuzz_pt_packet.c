/* Fuzz target for the Intel PT packet layer: decodes the input in normal and
 * perf dump mode (resyncing after errors), describes every packet, runs the
 * last-IP helper, and checks that re-encoding each decoded packet decodes to
 * the same fields; quick decoding (q, qq) runs over the input too. Any
 * crash, overread or abort() is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt.h"
#include "intel_pt/pt_hop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reencode(const struct hwprof_pt_packet *p, enum hwprof_pt_ctx ctx)
{
	uint8_t buf[HWPROF_PT_MAX_PACKET];
	struct hwprof_pt_encoder enc;
	struct hwprof_pt_packet q;
	hwprof_pt_encoder_init(&enc, buf, sizeof(buf));
	enc.ctx = ctx;
	int n = hwprof_pt_encode(&enc, p);
	if (n <= 0)
		abort(); /* every decodable packet must be encodable */
	if (hwprof_pt_packet_decode(buf, (size_t)n, ctx, 0, &q) != n)
		abort();
	uint64_t mask = ~0ULL;
	if (p->type == HWPROF_PT_TNT)
		mask = p->count ? ~0ULL << (64 - p->count) : 0;
	if (q.type != p->type || q.count != p->count || q.ip != p->ip ||
	    q.flags != p->flags || ((q.payload ^ p->payload) & mask))
		abort();
}

static void run(const uint8_t *data, size_t size, unsigned flags)
{
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	struct hwprof_pt_last_ip lip;
	char desc[256];
	hwprof_pt_last_ip_init(&lip);
	hwprof_pt_decoder_init(&dec, data, size, flags);
	for (;;) {
		enum hwprof_pt_ctx ctx = dec.ctx;
		size_t off = hwprof_pt_decoder_offset(&dec);
		int ret = hwprof_pt_decoder_next(&dec, &pkt);
		if (ret == 0)
			break;
		if (ret < 0) {
			if (hwprof_pt_decoder_error_offset(&dec) != off)
				abort();
			if (flags & HWPROF_PT_PERF_DUMP)
				hwprof_pt_decoder_skip(&dec, 1);
			else if (hwprof_pt_decoder_skip(&dec, 1) < 0 ||
				 hwprof_pt_decoder_sync(&dec) < 0)
				break;
			continue;
		}
		if (pkt.size == 0 || hwprof_pt_decoder_offset(&dec) != off + pkt.size)
			abort();
		hwprof_pt_packet_desc(&pkt, desc, sizeof(desc));
		hwprof_pt_last_ip_update(&lip, &pkt, NULL);
		if (!(flags & HWPROF_PT_PERF_DUMP))
			check_reencode(&pkt, ctx);
	}
}

/* quick decoding (--itrace=q, qq) over the same bytes: it must end, and
 * a state takes at least one packet's worth of input (a few states per
 * packet at most), so their number is bounded by the size */
static void hop(const uint8_t *data, size_t size, unsigned quick, bool branch_enable)
{
	struct pt_hop h;
	struct pt_hop_state s;
	if (pt_hop_init(&h, data, size, quick, branch_enable) < 0)
		return;
	size_t n = 0;
	while (pt_hop_next(&h, &s) == 1)
		if (++n > 4 * size + 64)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, HWPROF_PT_PERF_DUMP);
	hop(data, size, 1, true);
	hop(data, size, 2, true);
	hop(data, size, 1, false);
	return 0;
}
