/* perf's fast forward (intel_pt_fast_forward()): where its decoder starts
 * again to reach a time, given a queue's trace and its AUXTRACE buffers;
 * and the PSB+ TSC look-up it shares with the snapshot overlap search. */
#ifndef HWPROF_INTEL_PT_FFWD_H
#define HWPROF_INTEL_PT_FFWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/intel_pt_synth.h"

/* perf's intel_pt_next_tsc(): the TSC packet of the PSB+ at psb, before its
 * PSBEND and end (a packet that does not decode ends the search); *rem
 * (NULL: not wanted): the bytes from that packet to end. */
bool ipt_psb_tsc(const uint8_t *buf, size_t end, size_t psb, uint64_t *tsc, size_t *rem);
/* The offset of the PSB to decode from for TSC target (and the index of
 * its buffer), given the decoder's position pos in buf (SIZE_MAX: it has
 * read nothing yet). perf looks ahead at the first PSB+'s TSC of each
 * later buffer and takes the last buffer that starts before target, then
 * walks that buffer's PSBs (or the current buffer's from pos) while
 * their TSC is before target. bufs NULL: one buffer with reference ref.
 * Returns false when the decoder stays where it is; *bufidx is SIZE_MAX
 * when it stays in its buffer. */
bool ipt_ffwd_find(const uint8_t *buf, size_t len, const struct hwprof_pt_bufmark *bufs, size_t nbufs,
		   uint64_t ref, size_t pos, uint64_t target, size_t *off, size_t *bufidx);

#endif
