/* perf's --time support for Intel PT (see pt_ffwd.h and hwprof_pt_tsc_range()
 * in intel_pt_synth.h). */
#include <string.h>

#include "hwprof/intel_pt.h"
#include "hwprof/intel_pt_flow.h"
#include "intel_pt/pt_ffwd.h"
#include "intel_pt/pt_flow_int.h"

bool ipt_psb_tsc(const uint8_t *buf, size_t end, size_t psb, uint64_t *tsc, size_t *rem)
{
	enum hwprof_pt_ctx ctx = HWPROF_PT_CTX_NONE;
	for (size_t p = psb; p < end;) {
		struct hwprof_pt_packet pkt;
		int n = hwprof_pt_packet_decode(buf + p, end - p, ctx, 0, &pkt);
		if (n <= 0)
			return false;
		if (pkt.type == HWPROF_PT_TSC) {
			*tsc = pkt.payload;
			if (rem)
				*rem = end - p;
			return true;
		}
		if (pkt.type == HWPROF_PT_PSBEND)
			return false;
		ctx = hwprof_pt_ctx_next(ctx, &pkt);
		p += (size_t)n;
	}
	return false;
}

static size_t buf_end(const struct hwprof_pt_bufmark *bufs, size_t nbufs, size_t b, size_t len)
{
	return b + 1 < nbufs && bufs[b + 1].offset < len ? (size_t)bufs[b + 1].offset : len;
}

bool ipt_ffwd_find(const uint8_t *buf, size_t len, const struct hwprof_pt_bufmark *bufs, size_t nbufs,
		   uint64_t ref, size_t pos, uint64_t target, size_t *off, size_t *bufidx)
{
	struct hwprof_pt_bufmark one = { 0, ref, true };
	if (!bufs || !nbufs) {
		bufs = &one;
		nbufs = 1;
	}
	bool started = pos != SIZE_MAX;
	size_t cur = 0;
	while (started && cur + 1 < nbufs && bufs[cur + 1].offset <= pos)
		cur++;
	/* the lookahead: buffers after the current one (all of them before
	 * the decoder has read any), each by its first PSB+'s TSC */
	size_t sel = SIZE_MAX;
	for (size_t b = started ? cur + 1 : 0; b < nbufs; b++) {
		size_t end = buf_end(bufs, nbufs, b, len), p;
		uint64_t tsc;
		if (bufs[b].offset >= end || hwprof_pt_find_psb(buf, end, (size_t)bufs[b].offset, &p) < 0 ||
		    !ipt_psb_tsc(buf, end, p, &tsc, NULL))
			continue;
		if (ipt_tsc_near(tsc, bufs[b].ref) >= target)
			break;
		sel = b;
	}
	size_t from, b, re = SIZE_MAX;
	if (sel != SIZE_MAX) {
		/* perf's walk to that buffer repositions its decoder there */
		b = sel;
		from = re = (size_t)bufs[b].offset;
	} else if (started) {
		b = cur;
		from = pos;
	} else {
		return false;
	}
	size_t end = buf_end(bufs, nbufs, b, len), p;
	if (from < end && hwprof_pt_find_psb(buf, end, from, &p) == 0) {
		do {
			uint64_t tsc;
			if (!ipt_psb_tsc(buf, end, p, &tsc, NULL) || ipt_tsc_near(tsc, bufs[b].ref) >= target)
				break;
			re = p;
		} while (p + 1 < end && hwprof_pt_find_psb(buf, end, p + 1, &p) == 0);
	}
	if (re == SIZE_MAX)
		return false;
	*off = re;
	*bufidx = sel != SIZE_MAX ? b : SIZE_MAX;
	return true;
}

/* perf's perf_time_to_tsc() */
static uint64_t time_to_tsc(const struct hwprof_pt_time_conv *tc, uint64_t ns)
{
	if (!tc->time_mult)
		return ns;
	unsigned s = tc->time_shift < 64 ? tc->time_shift : 63;
	uint64_t t = ns - tc->time_zero, quot = t / tc->time_mult, rem = t % tc->time_mult;
	return (quot << s) + (rem << s) / tc->time_mult;
}

/* Steps are bounded: the first guess is off by a tick or so. */
#define TSC_STEPS (1u << 20)

HWPROF_API struct hwprof_pt_range hwprof_pt_tsc_range(const struct hwprof_pt_time_conv *tc, uint64_t start_ns,
						      uint64_t end_ns)
{
	struct hwprof_pt_range r = { 0, 0 };
	if (!tc)
		return r;
	/* time_zero is often "negative": the arithmetic wraps, as perf's */
	if (start_ns) {
		uint64_t tsc = time_to_tsc(tc, start_ns), tm = 0;
		for (unsigned i = 0; i < TSC_STEPS; i++, tsc--)
			if ((tm = hwprof_pt_tsc_to_perf_time(tc, tsc)) < start_ns)
				break;
		for (unsigned i = 0; i < TSC_STEPS && tm < start_ns; i++)
			tm = hwprof_pt_tsc_to_perf_time(tc, ++tsc);
		r.start = tsc;
	}
	if (end_ns) {
		uint64_t tsc = time_to_tsc(tc, end_ns), tm = 0;
		for (unsigned i = 0; i < TSC_STEPS; i++, tsc++)
			if ((tm = hwprof_pt_tsc_to_perf_time(tc, tsc)) > end_ns)
				break;
		for (unsigned i = 0; i < TSC_STEPS && tm > end_ns; i++)
			tm = hwprof_pt_tsc_to_perf_time(tc, --tsc);
		r.end = tsc;
	}
	return r;
}
