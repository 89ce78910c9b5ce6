/* Counter cycles -> perf time, inline for loops that convert per record
 * (the SPE synthesizer); hwprof_tsc_to_perf_time() is this. */
#ifndef HWPROF_EVENT_TSC_INLINE_H
#define HWPROF_EVENT_TSC_INLINE_H

#include <stdint.h>

#include "hwprof/arm_spe_synth.h"

static inline uint64_t tsc_to_perf_time_inline(const struct hwprof_tsc_conv *tc, uint64_t cyc)
{
	uint64_t quot, rem, shift = tc->time_shift & 63;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> shift;
	rem = cyc & ((1ULL << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

#endif
