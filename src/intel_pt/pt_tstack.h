/* perf's thread stack (tools/perf/util/thread-stack.c, as perf 6.1 keeps
 * it for Intel PT): the return addresses of the calls a thread made in the
 * trace, and a ring of its last taken branches. One per thread, so that
 * the file's own samples can be given the stack of their thread (itrace
 * G, L) and a thread's stack follows it from cpu to cpu. */
#ifndef HWPROF_INTEL_PT_TSTACK_H
#define HWPROF_INTEL_PT_TSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/intel_pt_synth.h"

struct hwprof_pt_tstack {
	struct pt_frame {
		uint64_t ret;
		bool trace_end;     /* a call made as the trace ended */
	} *stack;
	size_t depth, cap;
	/* the branch ring: from/to pairs, filled downwards from pos; nr
	 * held, at most cap (set by the first branch: perf sizes it when it
	 * makes the stack) */
	uint64_t *ring;
	uint32_t ring_cap, ring_pos, ring_nr;
	uint64_t trace_nr;          /* perf's trace number of its last branch */
};

/* perf's thread_stack__event() for one taken branch: a trace number other
 * than the stack's empties it first; ring_cap > 0 keeps the ring (of that
 * size), callstack the return addresses. Returns 0 or -HWPROF_E_NOMEM. */
int pt_tstack_branch(struct hwprof_pt_tstack *ts, uint64_t trace_nr, uint32_t flags, uint64_t from, uint64_t to,
		     unsigned len, uint32_t ring_cap, bool callstack);
/* perf's thread_stack__sample(): ip and the return addresses, newest
 * first, as many as fit in sz entries of perf's chain counting its
 * context markers (which are left out of out). ts may be NULL. */
uint32_t pt_tstack_chain(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz, uint64_t *out);
/* perf's thread_stack__br_sample(): the newest sz branches of the ring
 * as from/to pairs, newest first. ts may be NULL. */
uint32_t pt_tstack_ring(const struct hwprof_pt_tstack *ts, unsigned sz, uint64_t *out);
void pt_tstack_fini(struct hwprof_pt_tstack *ts);

#endif
