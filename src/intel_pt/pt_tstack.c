/* perf's thread stack for Intel PT (see pt_tstack.h), and the chains and
 * branch stacks it gives the file's own samples (itrace G and L). */
#include <stdlib.h>
#include <string.h>

#include "hwprof/perf_event.h"
#include "intel_pt/pt_tstack.h"

#define KERNEL_START (1ULL << 63) /* perf's machine__kernel_start() on x86_64 */
#define MAX_STACK (1u << 20)      /* frames: the oldest half goes beyond */

static int push(struct hwprof_pt_tstack *ts, uint64_t ret, bool trace_end)
{
	if (ts->depth == ts->cap) {
		size_t c = ts->cap ? ts->cap * 2 : 64;
		struct pt_frame *n = c <= MAX_STACK ? realloc(ts->stack, c * sizeof(*n)) : NULL;
		if (!n && !ts->cap)
			return -HWPROF_E_NOMEM;
		if (!n) {
			/* bounded: drop the oldest half rather than grow */
			size_t keep = ts->depth / 2;
			memmove(ts->stack, ts->stack + (ts->depth - keep), keep * sizeof(*ts->stack));
			ts->depth = keep;
		} else {
			ts->stack = n;
			ts->cap = c;
		}
	}
	ts->stack[ts->depth].ret = ret;
	ts->stack[ts->depth].trace_end = trace_end;
	ts->depth++;
	return 0;
}

/* pops down to (and including) the newest frame returning to ret; none
 * found: a return from a call the trace did not show, left alone */
static void pop(struct hwprof_pt_tstack *ts, uint64_t ret)
{
	for (size_t i = ts->depth; i;)
		if (ts->stack[--i].ret == ret) {
			ts->depth = i;
			return;
		}
}

int pt_tstack_branch(struct hwprof_pt_tstack *ts, uint64_t trace_nr, uint32_t flags, uint64_t from, uint64_t to,
		     unsigned len, uint32_t ring_cap, bool callstack)
{
	/* a discontinuous trace: the stack may be all wrong, so perf
	 * forgets it (and the ring) */
	if (trace_nr != ts->trace_nr) {
		ts->depth = 0;
		ts->ring_pos = ts->ring_nr = 0;
		ts->trace_nr = trace_nr;
	}
	if (ring_cap) {
		if (!ts->ring) {
			ts->ring = malloc(2 * (size_t)ring_cap * sizeof(*ts->ring));
			if (!ts->ring)
				return -HWPROF_E_NOMEM;
			ts->ring_cap = ring_cap;
		}
		ts->ring_pos = (ts->ring_pos ? ts->ring_pos : ts->ring_cap) - 1;
		ts->ring[2 * ts->ring_pos] = from;
		ts->ring[2 * ts->ring_pos + 1] = to;
		if (ts->ring_nr < ts->ring_cap)
			ts->ring_nr++;
	}
	if (!callstack)
		return 0;
	if (flags & HWPROF_PT_FLAG_CALL) {
		uint64_t ret = from + len;
		if (to && ret != to) /* zero-length calls (get the ip) do not count */
			return push(ts, ret, (flags & HWPROF_PT_FLAG_TRACE_END) != 0);
	} else if (flags & HWPROF_PT_FLAG_TRACE_BEGIN) {
		/* tracing may have begun after a return to here; calls made as
		 * the trace ended are not expected to return */
		pop(ts, to);
		while (ts->depth && ts->stack[ts->depth - 1].trace_end)
			ts->depth--;
	} else if ((flags & HWPROF_PT_FLAG_RETURN) && from) {
		pop(ts, to);
	}
	return 0;
}

/* perf's callchain_context(), as a test */
static bool kern(uint64_t kernel_start, uint64_t ip)
{
	return ip >= kernel_start;
}

uint32_t pt_tstack_chain(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz, uint64_t *out)
{
	if (sz < 2)
		return 0;
	uint32_t n = 0;
	out[n++] = ip;
	if (!ts)
		return n;
	/* i counts perf's entries: a context marker before ip, and one more
	 * wherever the space changes */
	bool last = kern(KERNEL_START, ip);
	for (size_t i = 2, j = 1; i < sz && j <= ts->depth; i++, j++) {
		uint64_t r = ts->stack[ts->depth - j].ret;
		if (kern(KERNEL_START, r) != last) {
			if (i >= sz - 1)
				break;
			i++;
			last = kern(KERNEL_START, r);
		}
		out[n++] = r;
	}
	return n;
}

uint32_t pt_tstack_ring(const struct hwprof_pt_tstack *ts, unsigned sz, uint64_t *out)
{
	if (!ts || !ts->ring)
		return 0;
	uint32_t n = ts->ring_nr < sz ? ts->ring_nr : sz, first = ts->ring_cap - ts->ring_pos;
	if (first > n)
		first = n;
	memcpy(out, ts->ring + 2 * ts->ring_pos, 2 * first * sizeof(*out));
	memcpy(out + 2 * first, ts->ring, 2 * (n - first) * sizeof(*out));
	return n;
}

void pt_tstack_fini(struct hwprof_pt_tstack *ts)
{
	free(ts->stack);
	free(ts->ring);
	memset(ts, 0, sizeof(*ts));
}

struct hwprof_pt_tstack *hwprof_pt_tstack_new(void)
{
	return calloc(1, sizeof(struct hwprof_pt_tstack));
}

void hwprof_pt_tstack_free(struct hwprof_pt_tstack *ts)
{
	if (!ts)
		return;
	pt_tstack_fini(ts);
	free(ts);
}

/* perf's thread_stack__sample_late(): a sample the hardware wrote some
 * time after its event. Kernel return addresses on top of the stack came
 * after the event (tracing went on into the kernel): they are skipped up
 * to the first user one, or one equal to the sample's ip. The chain is the
 * rest with context markers; an empty one is the sample's context and
 * ip. */
uint32_t hwprof_pt_tstack_chain_late(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz, uint64_t kernel_start,
				     uint64_t *out)
{
	uint64_t ks = kernel_start;
	if (sz < 2)
		return 0;
	uint32_t nr = 0;
	size_t j = 1;
	if (ts) {
		for (; j <= ts->depth; j++) {
			uint64_t r = ts->stack[ts->depth - j].ret;
			if (!kern(ks, r) || (kern(ks, r) == kern(ks, ip) && r == ip))
				break;
		}
		/* the sample's ip stands for "no context yet" */
		uint64_t last = ip;
		for (; nr < sz && j <= ts->depth; nr++, j++) {
			uint64_t r = ts->stack[ts->depth - j].ret;
			uint64_t ctx = kern(ks, r) ? HWPROF_CONTEXT_KERNEL : HWPROF_CONTEXT_USER;
			if (ctx != last) {
				if (nr >= sz - 1)
					break;
				out[nr++] = ctx;
				last = ctx;
			}
			out[nr] = r;
		}
	}
	if (nr)
		return nr;
	out[0] = kern(ks, ip) ? HWPROF_CONTEXT_KERNEL : HWPROF_CONTEXT_USER;
	out[1] = ip;
	return 2;
}

/* perf's us_start(): from the first branch into user space */
static bool us_start(uint64_t ks, const uint64_t *e, bool *start)
{
	if (!*start)
		*start = e[1] && !kern(ks, e[1]);
	return *start;
}

/* perf's ks_start(): from the branch before which the sample's ip falls
 * (between its target and the next newer branch's source), or the first
 * one touching user space */
static bool ks_start(uint64_t ks, const uint64_t *e, uint64_t ip, bool *start, const uint64_t *nb)
{
	if (!*start)
		*start = (nb && ip >= e[1] && ip <= nb[0]) || !kern(ks, e[0]) || (e[1] && !kern(ks, e[1]));
	return *start;
}

/* perf's thread_stack__br_sample_late(): the ring newest first, from where
 * the sample's event happened (the branches after it are dropped), at most
 * sz entries, as from/to pairs. */
uint32_t hwprof_pt_tstack_branches_late(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz,
					uint64_t kernel_start, uint64_t *out)
{
	uint64_t ks = kernel_start;
	if (!ts || !ts->ring || !ts->ring_nr)
		return 0;
	uint32_t nr = 0;
	bool start = false, full = ts->ring_nr >= ts->ring_cap;
	const uint64_t *nb = NULL;
	/* the newest part (pos up to the end), then the wrapped part */
	for (int part = 0; part < (full ? 2 : 1); part++) {
		uint32_t a = part ? 0 : ts->ring_pos, b = part ? ts->ring_pos : ts->ring_cap;
		for (uint32_t k = a; k < b && nr < sz; k++) {
			const uint64_t *e = ts->ring + 2 * k;
			bool take = kern(ks, ip) ? ks_start(ks, e, ip, &start, nb) : us_start(ks, e, &start);
			if (take) {
				out[2 * nr] = e[0];
				out[2 * nr + 1] = e[1];
				nr++;
			}
			nb = e;
		}
	}
	return nr;
}
