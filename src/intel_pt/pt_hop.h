/* perf's quick decoding of an Intel PT trace (--itrace=q "hop", qq
 * "leap"), written from perf 6.1's documented behaviour and its decoder's
 * observable states (checked against Debian perf 6.1, tests/diff/pt_script.sh):
 *  - no code is walked and TNT packets are ignored: decoder states come
 *    from packets that carry an address
 *  - q: TIP.PGE is a trace begin (0 -> ip) followed by an instruction
 *    state at ip; TIP an instruction state at its target; TIP.PGD with an
 *    address a branch from 0 to it marked trace end; FUP + TIP (an
 *    asynchronous branch) an instruction and branch state from the FUP's
 *    address to the TIP's, then an instruction state at the target (a FUP
 *    while tracing is off: an instruction state only); PSB+ a psb state,
 *    an instruction state too when PSB+ holds a FUP
 *  - qq: after each PSB+, on to the next PSB (only the PSB+ states)
 *  - the first PSB+ (synchronisation) gives its psb state and then, with
 *    a FUP, an instruction state of its own
 * Internal to the library. */
#ifndef HWPROF_PT_HOP_H
#define HWPROF_PT_HOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/intel_pt.h"

/* state types (perf's INTEL_PT_BRANCH, INSTRUCTION, PSB_EVT, ...) */
#define PT_HOP_BRANCH      0x01u
#define PT_HOP_INSN        0x02u
#define PT_HOP_PSB         0x04u
#define PT_HOP_TRACE_BEGIN 0x08u
#define PT_HOP_TRACE_END   0x10u
#define PT_HOP_ASYNC       0x20u  /* the branch is asynchronous (FUP + TIP) */

struct pt_hop_state {
	unsigned type;        /* PT_HOP_*; 0 with err: a decoder error */
	unsigned err;         /* enum hwprof_pt_synth_err, 0: none */
	uint64_t from, to;    /* perf's from_ip / to_ip */
	uint64_t psb_offset;  /* PSB: offset of the PSB packet */
	uint32_t cbr;         /* the core:bus ratio last seen */
};

struct pt_hop {
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_last_ip lip;
	struct hwprof_pt_packet pkt;  /* a packet to look at again */
	bool again;
	bool leap, pge, branch_enable;
	enum { PT_HOP_NO_PSB, PT_HOP_NO_IP, PT_HOP_RESYNC, PT_HOP_IN_SYNC, PT_HOP_RESAMPLE } st;
	uint64_t ip, psb_ip, psb_offset, pkt_off;
	uint32_t cbr;
};

/* quick: 1 (q) or more (qq). branch_enable: the trace has control flow
 * packets (the intel_pt config's branch bit). */
int pt_hop_init(struct pt_hop *h, const void *buf, size_t len, unsigned quick, bool branch_enable);
/* The next decoder state: 1, or 0 at the end of the trace. */
int pt_hop_next(struct pt_hop *h, struct pt_hop_state *s);

#endif
