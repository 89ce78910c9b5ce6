#include "cli/lbr_chain.h"
#include "hwprof/perf_event.h"
#include "util/bytes.h"

/* The index of the chain's PERF_CONTEXT_USER marker within max_stack
 * entries, or -1. */
static long user_marker(const struct hwprof_sample *s, uint64_t max_stack)
{
	uint64_t n = s->callchain_nr < max_stack ? s->callchain_nr : max_stack;
	for (uint64_t i = 0; s->callchain && i < n; i++)
		if (hwprof_u64_at(s->callchain, i) == HWPROF_CONTEXT_USER)
			return (long)i;
	return -1;
}

bool lbr_chain_applies(const struct hwprof_sample *s, uint64_t max_stack)
{
	return s->evsel && (s->evsel->attr.branch_sample_type & HWPROF_BRANCH_CALL_STACK) && s->branches &&
	       user_marker(s, max_stack) >= 0;
}

static unsigned marker_mode(uint64_t ip, unsigned mode)
{
	switch (ip) {
	case HWPROF_CONTEXT_HV: return HWPROF_MISC_HYPERVISOR;
	case HWPROF_CONTEXT_KERNEL: return HWPROF_MISC_KERNEL;
	case HWPROF_CONTEXT_USER: return HWPROF_MISC_USER;
	default: return mode;
	}
}

/* The kernel part (entries 0..end), walked forwards or backwards, the
 * markers setting the mode as they are met. */
static int kernel_part(const struct hwprof_sample *s, long end, bool backwards, struct lbr_frame *out, size_t *n,
		       size_t max)
{
	unsigned mode = HWPROF_MISC_USER;
	for (long j = 0; j <= end; j++) {
		uint64_t ip = hwprof_u64_at(s->callchain, (uint64_t)(backwards ? end - j : j));
		if (ip >= HWPROF_CONTEXT_MAX) {
			mode = marker_mode(ip, mode);
			continue;
		}
		if (*n >= max)
			return -1;
		out[(*n)++] = (struct lbr_frame){ ip, mode };
	}
	return 0;
}

long lbr_chain_frames(const struct hwprof_sample *s, uint64_t max_stack, bool caller, struct lbr_frame *out,
		      size_t max)
{
	long end = user_marker(s, max_stack);
	size_t n = 0;
	uint64_t nr = s->branch_nr;
	if (!caller && kernel_part(s, end, false, out, &n, max) < 0)
		return -1;
	if (nr) {
		if (n + nr + 1 > max)
			return -1;
		/* the newest branch's target, then each branch's source */
		if (!caller)
			out[n++] = (struct lbr_frame){ hwprof_u64_at(s->branches, 1), HWPROF_MISC_USER };
		for (uint64_t j = 0; j < nr; j++) {
			uint64_t i = caller ? nr - 1 - j : j;
			out[n++] = (struct lbr_frame){ hwprof_u64_at(s->branches, 3 * i), HWPROF_MISC_USER };
		}
		if (caller)
			out[n++] = (struct lbr_frame){ hwprof_u64_at(s->branches, 1), HWPROF_MISC_USER };
	}
	if (caller && kernel_part(s, end, true, out, &n, max) < 0)
		return -1;
	return (long)n;
}
