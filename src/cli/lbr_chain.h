/* perf's callchain of a sample recorded with --call-graph lbr (its
 * resolve_lbr_callchain_sample(), without --stitch-lbr): the kernel part
 * of the sample's chain up to its PERF_CONTEXT_USER marker, then the LBR
 * call stack (the newest branch's target, then every branch's source)
 * in place of the user part; reversed for callers first, where perf also
 * walks the context markers backwards (so the kernel frames take the user
 * cpumode, as in perf). */
#ifndef HWPROF_CLI_LBR_CHAIN_H
#define HWPROF_CLI_LBR_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/perfdata.h"

struct lbr_frame {
	uint64_t ip;
	unsigned cpumode;          /* HWPROF_MISC_* the address resolves in */
};

/* Whether perf takes the sample's chain from its LBR call stack: the
 * event records branch call stacks and the chain (within max_stack
 * entries) has a user part. */
bool lbr_chain_applies(const struct hwprof_sample *s, uint64_t max_stack);
/* The frames in cursor order (callers first when caller); returns their
 * number (at most max), or < 0 when out is too small. */
long lbr_chain_frames(const struct hwprof_sample *s, uint64_t max_stack, bool caller, struct lbr_frame *out,
		      size_t max);

#endif
