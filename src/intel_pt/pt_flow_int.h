/* Intel PT flow internals shared by the image, the instruction block cache
 * and the flow decoder. Not public. */
#ifndef HWPROF_PT_FLOW_INT_H
#define HWPROF_PT_FLOW_INT_H

#include <stdbool.h>
#include <Zydis/Zydis.h>
#include "hwprof/intel_pt_flow.h"

uint64_t ipt_image_generation(const struct hwprof_pt_image *img);
/* The image whose block cache holds the blocks at ip: a fork's kernel
 * addresses are its source's (hwprof_pt_image_fork). */
struct hwprof_pt_image *ipt_image_for(struct hwprof_pt_image *img, uint64_t ip);
/* The range the image's change to generation gen made (its section put
 * in), if the image still remembers it: 1 with [*start, *end), else 0. */
int ipt_image_change(const struct hwprof_pt_image *img, uint64_t gen, uint64_t *start, uint64_t *end);

/* A straight run of instructions ending at a branch (or a PTWRITE, the start
 * of another cached block, a size limit, or code that cannot be read). */
struct ipt_block {
	uint64_t ip;          /* first instruction */
	uint64_t end_ip;      /* last instruction */
	uint64_t target;      /* direct branch target of the last instruction */
	const uint8_t *lens;  /* the lengths, in the cache's pages */
	uint32_t ninsn;       /* 0: nothing decodable at ip */
	/* the blocks walked next the last times (index + 1, 0: none): [0]
	 * the fall-through, [1] any other; a hint, checked on use */
	uint32_t next[2];
	uint8_t iclass;       /* class of the last instruction */
	uint8_t mode;
	uint8_t last_len;
	uint8_t pad;
};

/* Per-image cache of decoded blocks, hashed by (ip, mode). */
struct ipt_bcache {
	struct ipt_block *blk;
	size_t nblk, capblk;
	uint32_t *tab;        /* block index + 1, 0 = empty; open addressing */
	size_t tabsize;
	/* instruction lengths, in pages that never move: a decoder's events
	 * point into them while other decoders add blocks (and they stay
	 * until the cache starts over twice) */
	uint8_t **pages, **old_pages;
	size_t npages, cappages, nold_pages;
	size_t page_used, nlens;
	uint64_t gen;         /* image generation the blocks belong to */
	const uint64_t *img_gen; /* the image's generation now */
	uint64_t decoded, hits;
	ZydisDecoder zd[3];   /* 16, 32, 64-bit */
};

int ipt_bcache_init(struct ipt_bcache *c);
void ipt_bcache_fini(struct ipt_bcache *c);
/* The block at ip; *out is valid until the next call. Returns 0 or
 * -HWPROF_E_NOMEM. */
int ipt_bcache_get(struct ipt_bcache *c, const struct hwprof_pt_image *img, uint64_t ip,
		   unsigned mode, const struct ipt_block **out);
/* The same for the block walked after block *from (an index a call gave,
 * or -1): its successors are remembered, so a walk that comes back the
 * same way does not hash. *from becomes the new block's index. */
int ipt_bcache_next(struct ipt_bcache *c, const struct hwprof_pt_image *img, long *from, uint64_t ip,
		    unsigned mode, const struct ipt_block **out);
/* ipt_bcache_next()'s quick case, inline in the walk: block *from's link
 * leads to ip. 1 with *out (and *from moved on), else 0. */
static inline int ipt_bcache_link(struct ipt_bcache *c, long *from, uint64_t ip, unsigned mode,
				  const struct ipt_block **out)
{
	long f = *from;
	if (f < 0 || (size_t)f >= c->nblk || *c->img_gen != c->gen)
		return 0;
	const struct ipt_block *p = &c->blk[f];
	uint32_t v = p->next[ip != p->end_ip + p->last_len];
	if (!v || v > c->nblk)
		return 0;
	const struct ipt_block *b = &c->blk[v - 1];
	if (b->ip != ip || b->mode != mode)
		return 0;
	c->hits++;
	*from = (long)(v - 1);
	*out = b;
	return 1;
}

static inline const uint8_t *ipt_bcache_lens(const struct ipt_bcache *c,
					     const struct ipt_block *b)
{
	(void)c;
	return b->lens;
}

/* Classifies one decoded Zydis instruction. */
int ipt_insn_classify(const ZydisDecodedInstruction *zi, uint64_t ip, struct hwprof_pt_insn *out);

/* The image's block cache (created with the image). */
struct ipt_bcache *ipt_image_cache(struct hwprof_pt_image *img);
/* Whether a failure to get an instruction at addr is reported (perf's
 * rule: see pt_image.c). Counts it. */
bool ipt_image_nocode_report(struct hwprof_pt_image *img, uint64_t addr);

/* perf's TSC estimate while decoding (pt_time.c). */
struct ipt_time {
	uint32_t ctc_n, ctc_d, ctc_mult;  /* TSC:CTC */
	unsigned mtc_shift, max_nonturbo;
	uint64_t ref_tsc;        /* the buffer's reference TSC, until the first TSC */
	uint64_t buf_tsc;        /* the buffer's reference TSC */
	uint64_t timestamp;      /* the current estimate (0: none yet) */
	uint64_t tsc_ts;         /* the last TSC packet's */
	uint64_t ctc_ts, ctc_delta; /* TSC at the TMA's CTC; CTC ticks since */
	uint64_t cycles, cyc_ref;   /* CYC cycles since cyc_ref (a TSC/MTC time) */
	double calc_ratio, cbr_ratio; /* TSC ticks per cycle: measured, from CBR */
	uint32_t last_mtc, gen;
	unsigned cbr, last_type;
	bool have_tma, fixup_last_mtc, have_calc_ratio;
	/* perf's cycle count for IPC (its tot_cyc_cnt): CYC cycles while
	 * tracing is on, or without CYC packets the TSC ticks since tracing
	 * went on times CBR / max non-turbo ratio. sample_gen: non-zero while
	 * perf's sample_cyc is set, a new value each time it is set (perf
	 * takes the count into its next sample-time state then) */
	struct ipt_cyc {
		uint64_t tot, base, base_ts;
		double tsc_to_cyc;
		uint32_t gen, sample_gen;
		unsigned cbr, threshold;
		bool on, have_cyc, pge, in_psb;
	} ipc;
};

void ipt_time_init(struct ipt_time *t, uint32_t ctc_n, uint32_t ctc_d, unsigned mtc_shift,
		   unsigned max_nonturbo, uint64_t ref_tsc);
/* Feeds every packet in trace order; la: the packet decoder just past p (for the look-ahead an MTC after a CYC does), or NULL. */
void ipt_time_packet(struct ipt_time *t, const struct hwprof_pt_packet *p,
		     const struct hwprof_pt_decoder *la);
/* An 8-byte TSC from a 7-byte TSC packet's, nearest to ref (perf's
 * intel_pt_8b_tsc()). */
uint64_t ipt_tsc_near(uint64_t tsc, uint64_t ref);
/* Keeps perf's cycle count (for IPC; off by default: it costs a little
 * per packet). CYC packets come only after threshold cycles (the config's
 * cyc_thresh, 0: none): perf then takes a count only from a CYC just
 * before. */
void ipt_time_cyc_count(struct ipt_time *t, unsigned threshold);
/* Packets were lost or were not decodable: the TMA reference is gone. */
void ipt_time_lost(struct ipt_time *t);

/* What decides a flow decoder's future events (all but the return stack,
 * the block cache and the running cyc total). Two decoders of one trace
 * with equal states produce the same instructions from there on, which is
 * how pt_flow_par.c joins segments. Zero-filled (compared with memcmp). */
struct ipt_flow_state {
	uint64_t pos, ip, tnt, ah_ip, ah_to, ah_off, back_off, lip;
	uint64_t bind_tsx, bind_ptw, bind_cfe, bind_psb_off, resync_ip;
	struct ipt_time tm;
	uint64_t tnt_snap_ts, tnt_snap_tsc, ah_snap_ts, ah_snap_tsc, s_ts, s_cnt, tic, walked;
	uint32_t tnt_gen_new, tnt_used, tnt_snap_cbr, ah_snap_cbr, s_cbr, ah_gen_new;
	uint32_t ctx, st, mode, pending_mode, ntnt, bind, bind_cfe_type, cbr;
	uint32_t blocks_without_packet;
	int32_t after_ovf, have_back;
	uint8_t ah_kind, ah_have_ip, ah_have_to, lip_have;
	uint8_t no_last_ip, pad8[3];
	uint32_t pad;
};
struct hwprof_pt_flow;
/* Fills s when no events are queued (returns 1), else returns 0. */
int ipt_flow_state(const struct hwprof_pt_flow *f, struct ipt_flow_state *s);
/* The offset of the next packet the decoder reads. */
uint64_t ipt_flow_pos(const struct hwprof_pt_flow *f);

#endif
