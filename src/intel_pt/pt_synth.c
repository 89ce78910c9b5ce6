/* Intel PT sample synthesis (see include/hwprof/intel_pt_synth.h): turns the
 * flow decoder's events for one queue into the samples perf 6.1 makes of
 * them. Facts checked against Debian perf 6.1 on emulator traces
 * (tests/diff/pt_script.sh):
 *  - an instruction sample is the Nth instruction since the last one; when
 *    it is a branch it carries the branch's flags, and its target as addr
 *    when taken; a conditional branch not taken keeps its flags, addr 0
 *  - a branch sample is a taken branch; the trace begin is a branch from 0
 *    (flags "tr strt"), a trace end a branch to 0 ("tr end" + the branch)
 *  - c keeps calls, async branches and trace ends, r returns and trace
 *    begins (both: either)
 *  - FUP + TIP.PGD is "tr end  async": Debian's 6.1 has the stable fix that
 *    marks every asynchronous branch ASYNC */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt_synth.h"
#include "intel_pt/pt_ffwd.h"
#include "intel_pt/pt_flow_int.h"
#include "intel_pt/pt_hop.h"
#include "intel_pt/pt_tstack.h"

uint32_t hwprof_pt_iclass_flags(unsigned iclass)
{
	switch (iclass) {
	case HWPROF_PT_IC_JCC:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL;
	case HWPROF_PT_IC_JMP:
	case HWPROF_PT_IC_JMP_IND:
	case HWPROF_PT_IC_FAR:
		return HWPROF_PT_FLAG_BRANCH;
	case HWPROF_PT_IC_CALL:
	case HWPROF_PT_IC_CALL_IND:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL;
	case HWPROF_PT_IC_RET:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN;
	case HWPROF_PT_IC_SYSCALL:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_SYSCALLRET;
	case HWPROF_PT_IC_SYSRET:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_SYSCALLRET;
	case HWPROF_PT_IC_INT:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_INTERRUPT;
	case HWPROF_PT_IC_IRET:
		return HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_INTERRUPT;
	default:
		return 0;
	}
}

static const char *const err_msgs[] = {
	[HWPROF_PT_SERR_NOMEM] = "Memory allocation failed",
	[HWPROF_PT_SERR_INTERN] = "Internal error",
	[HWPROF_PT_SERR_BADPKT] = "Bad packet",
	[HWPROF_PT_SERR_NODATA] = "No more data",
	[HWPROF_PT_SERR_NOINSN] = "Failed to get instruction",
	[HWPROF_PT_SERR_MISMAT] = "Trace doesn't match instruction",
	[HWPROF_PT_SERR_OVR] = "Overflow packet",
	[HWPROF_PT_SERR_LOST] = "Lost trace data",
	[HWPROF_PT_SERR_UNK] = "Unknown error!",
	[HWPROF_PT_SERR_NELOOP] = "Never-ending loop",
};

const char *hwprof_pt_synth_err_msg(unsigned code)
{
	if (code >= sizeof(err_msgs) / sizeof(err_msgs[0]) || !err_msgs[code])
		return "Unknown error!";
	return err_msgs[code];
}

int hwprof_pt_synth_kinds(const struct hwprof_itrace_opts *o, unsigned *kinds, const char **what)
{
	*kinds = 0;
	*what = NULL;
	if (o->instructions)
		*kinds |= 1u << HWPROF_PT_SAMPLE_INSTRUCTIONS;
	if (o->branches)
		*kinds |= 1u << HWPROF_PT_SAMPLE_BRANCHES;
	if (o->pwr_events)
		*kinds |= 1u << HWPROF_PT_SAMPLE_PSB | 1u << HWPROF_PT_SAMPLE_CBR;
	if (o->errors)
		*kinds |= 1u << HWPROF_PT_SAMPLE_ERROR;
	/* options that add samples or events we do not make yet */

	return 0;
}

/* perf's error code for a flow decoder error kind */
static unsigned err_code(unsigned kind)
{
	switch (kind) {
	case HWPROF_PT_ERR_PACKET: return HWPROF_PT_SERR_BADPKT;
	case HWPROF_PT_ERR_NOCODE: return HWPROF_PT_SERR_NOINSN;
	case HWPROF_PT_ERR_LOOP: return HWPROF_PT_SERR_NELOOP;
	default: return HWPROF_PT_SERR_MISMAT;
	}
}

struct run {
	const struct hwprof_pt_synth_config *cfg;
	struct hwprof_pt_image *img; /* the code read now (cfg->space) */
	bool want_insn, want_br, want_err, want_pwr;
	bool cbr_pending;        /* a CBR sample goes before the next sample */
	uint32_t cbr, cbr_seen;
	uint32_t max_nonturbo, cbr2khz;
	uint32_t br_filter;      /* 0: every branch */
	uint64_t period, left;   /* instructions */
	/* periods in TSC ticks: perf's decoder samples the instruction where
	 * its clock plus one tick per instruction walked since the clock
	 * moved crosses the next multiple of the period (a power of two) */
	bool ticks;
	uint64_t period_ticks, period_mask, last_masked;
	bool continuous;         /* perf's continuous_period */
	bool mid_walk;           /* perf's walk goes on into the next block */
	uint64_t walk_left;      /* instructions its walk may go before a sample */
	uint64_t tot, last;      /* instruction counts */
	uint64_t last_ip;        /* the last instruction walked: a trace */
	unsigned last_len;       /* begin shows its bytes, as perf's does */
	bool at_branch;          /* nothing walked since the last branch */
	/* perf's thread stack: the run's own, or the current thread's
	 * (*slot, per-thread stacks kept by the caller) */
	struct hwprof_pt_tstack own;
	struct hwprof_pt_tstack *const *slot;
	uint64_t skip, own_events, *events; /* s<N>: perf's initial skip */
	uint64_t chain[HWPROF_ITRACE_MAX_CALLCHAIN_SZ + 1];
	bool thread_stack;       /* callindent or callchains need it */
	/* the stack's branch ring holds ring_cap branches (0: none); an l
	 * sample takes the newest lbr_sz of them into lbr_out */
	uint32_t ring_cap, lbr_sz;
	uint64_t *lbr_out;
	/* perf's queue time (timed decoding): the latest of its decoder's
	 * sample times, except where it takes the estimate instead */
	bool timed, started;
	uint64_t qts;
	bool end_gated;          /* the block's last state passed the gate */
	bool branch_noop;        /* emit_branch() has nothing to do */
	/* blocks with no sample need no event of their own: no branch
	 * samples, stack or ring, no gate between queues, periods counted
	 * in instructions */
	bool skip_ok;
	bool time_ok;            /* time_val is the perf time of time_of_qts */
	uint64_t time_of_qts, time_val;
	/* --time (perf's sel_start, sel_timestamp and sel_idx): the next
	 * range start or end to look out for */
	size_t sel_idx;
	bool sel_start;
	uint64_t sel_ts, ff_ts;  /* ff_ts: the time last fast-forwarded to */
	bool have_sample;        /* perf's, for the state at the gate */
	/* the last state's branch, for the switch hook once its samples are
	 * made (perf's check at the end of intel_pt_sample()) */
	bool sw_pend;
	uint64_t sw_to;
	uint32_t sw_flags;
	bool first_state;        /* the queue's first state: not filtered */
	bool unwind;             /* the gate moved the decoder (or ended the
				  * run): the event's other states are gone */
	bool stop;               /* after the last range */
	bool decoding;           /* the decoder has read some of the trace */
	uint64_t trace_nr;
	/* IPC (perf's ipc_* and last_br_* / last_in_* counts): instructions
	 * walked, the decoder's cycle count as of its last sample-time state
	 * that took one (perf's sample_tot_cyc_cnt) and the sample_cyc it
	 * used up then; the IPC state of the current block's end */
	uint64_t psb_off;        /* perf's state psb_offset */
	bool want_ipc, approx_ipc;
	uint64_t insn_tot, insn_before, cyc_snap;
	uint64_t last_br_insn, last_br_cyc, last_in_insn, last_in_cyc;
	uint32_t cyc_used;
	bool end_ipc_done, end_ipc;
	struct hwprof_pt_flow *flow;
	const uint8_t *buf;
	size_t len;
};

static struct hwprof_pt_tstack *cur(struct run *r)
{
	return r->slot ? *r->slot : &r->own;
}

/* perf's thread_stack__sample(): the sampled ip, then return addresses
 * from the top of the stack (callchain_sz + 1 entries of perf's chain) */
static void fill_chain(struct run *r, struct hwprof_pt_sample *s)
{
	unsigned sz = r->cfg->itrace.callchain_sz ? r->cfg->itrace.callchain_sz : HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ;
	if (sz > HWPROF_ITRACE_MAX_CALLCHAIN_SZ)
		sz = HWPROF_ITRACE_MAX_CALLCHAIN_SZ;
	s->nchain = pt_tstack_chain(cur(r), s->ip, sz + 1, r->chain);
	s->chain = r->chain;
}

/* perf's thread_stack__br_sample(): the held branches, newest first */
static void fill_lbr(struct run *r, struct hwprof_pt_sample *s)
{
	if (!r->lbr_sz)
		return;
	s->nbr = pt_tstack_ring(cur(r), r->lbr_sz, r->lbr_out);
	s->brstack = r->lbr_out;
}

/* perf's intel_pt_skip_event(): the first `skip` samples are dropped */
static bool skip_event(struct run *r)
{
	return r->skip && (*r->events)++ < r->skip;
}

/* perf's CBR sample for the state s stands for (a CBR sample is not
 * counted, but waits until at most 4 samples are left to skip so that it
 * comes first) */
static int emit_cbr(struct run *r, const struct hwprof_pt_sample *s)
{
	if (r->skip && *r->events + 4 < r->skip)
		return 0;
	r->cbr_pending = false;
	r->cbr_seen = r->cbr;
	struct hwprof_pt_sample c;
	memset(&c, 0, sizeof(c));
	c.kind = HWPROF_PT_SAMPLE_CBR;
	c.ip = s->ip;
	c.addr = s->kind == HWPROF_PT_SAMPLE_PSB ? s->addr : 0;
	c.tsc = s->tsc;
	c.time = s->time;
	c.period = 1;
	c.cbr = r->cbr;
	c.cbr_khz = (uint32_t)(r->cbr * r->cbr2khz);
	c.max_nonturbo = r->max_nonturbo & 0xff;
	c.insn_len = s->insn_len;
	memcpy(c.insn, s->insn, sizeof(c.insn));
	if (r->cfg->itrace.callchain)
		fill_chain(r, &c);
	fill_lbr(r, &c);
	return r->cfg->emit(r->cfg->ctx, &c);
}

/* perf: the CBR sample comes with the first decoder state after the
 * ratio changed (and with the very first one), before that state's own
 * samples, at its ip */
/* Emits s (unless the initial skip drops it; *skipped says so), with a
 * pending CBR sample in perf's order. */
static int emit(struct run *r, struct hwprof_pt_sample *s, bool *skipped)
{
	bool dropped = false;
	/* a PSB state's own sample comes first */
	if (s->kind == HWPROF_PT_SAMPLE_PSB) {
		int rc = 0;
		if (!(dropped = skip_event(r)))
			rc = r->cfg->emit(r->cfg->ctx, s);
		if (rc || !r->cbr_pending)
			return rc;
	}
	if (r->cbr_pending && s->kind != HWPROF_PT_SAMPLE_ERROR) {
		int rc = emit_cbr(r, s);
		if (rc || (s->kind == HWPROF_PT_SAMPLE_PSB && !r->cbr_pending))
			return rc;
	}
	if (s->kind == HWPROF_PT_SAMPLE_PSB)
		return 0;
	if (s->kind != HWPROF_PT_SAMPLE_ERROR && (dropped = skip_event(r))) {
		if (skipped)
			*skipped = true;
		return 0;
	}
	return r->cfg->emit(r->cfg->ctx, s);
}

static void insn_bytes(const struct run *r, struct hwprof_pt_sample *s, uint64_t ip, unsigned len)
{
	s->insn_len = 0;
	if (!len || len > sizeof(s->insn) || r->cfg->no_insn_bytes)
		return;
	if (hwprof_pt_image_read(r->img, ip, s->insn, len) == (int)len)
		s->insn_len = (uint8_t)len;
}

#define KERNEL_START (1ULL << 63) /* perf's for x86_64 */

/* perf's queue time after a decoder state from `from` to `to` with time
 * ts: it moves on to ts, but on a return to user space from the kernel or
 * from nowhere (trace begin) it takes the state's estimate. */
static void qtime(struct run *r, const struct hwprof_pt_event *ev, uint64_t from, uint64_t to, uint32_t flags,
		  uint64_t ts)
{
	if ((!from || from >= KERNEL_START) && to && to < KERNEL_START)
		r->qts = ev->est_tsc;
	else if (r->cfg->switch_hook &&
		 r->cfg->switch_hook(r->cfg->gate_ctx, HWPROF_PT_SW_TIME, to, flags, &r->qts) == 1)
		r->qts = ev->est_tsc; /* perf's estimate in an unknown switch state */
	else if (ts > r->qts)
		r->qts = ts;
}

/* A new decoder state (or error) is about to be taken: the last state's
 * switch check first. Non-zero: the run stops. */
static int sw_flush(struct run *r)
{
	if (!r->sw_pend)
		return 0;
	r->sw_pend = false;
	return r->cfg->switch_hook(r->cfg->gate_ctx, HWPROF_PT_SW_STATE, r->sw_to, r->sw_flags, &r->qts);
}

/* A branch state at the gate makes its samples: its branch is checked
 * after (perf checks no other state). */
static void sw_note(struct run *r, uint64_t to, uint32_t flags)
{
	if (!r->cfg->switch_hook)
		return;
	r->sw_pend = true;
	r->sw_to = to;
	r->sw_flags = flags;
}

/* A decoder state where perf may take a new cycle count (a sample-time
 * state: the flow's event says which): it does when its sample_cyc is set,
 * and uses it up. Returns whether the state's samples show IPC (perf's
 * INTEL_PT_SAMPLE_IPC: such a state, or any without CYC packets). */
static bool state_ipc(struct run *r, const struct hwprof_pt_event *ev)
{
	if (!r->want_ipc)
		return false;
	if (ev->cyc_gen && ev->cyc_gen != r->cyc_used) {
		r->cyc_used = ev->cyc_gen;
		r->cyc_snap = ev->cyc_tot;
		return true;
	}
	return !ev->have_cyc;
}

/* The state at a block's branch, once for the block (its instruction
 * sample and its branch sample share it). */
static bool end_state_ipc(struct run *r, const struct hwprof_pt_event *ev)
{
	if (!r->end_ipc_done) {
		r->end_ipc_done = true;
		r->end_ipc = state_ipc(r, ev);
	}
	return r->end_ipc;
}

/* perf's IPC of a sample: the cycles and instructions since the last
 * sample of its kind that showed one (*last_cyc, *last_insn), when the
 * state shows IPC and its cycle count cyc moved. Returns the cycles. */
static uint64_t sample_ipc(bool ipc, uint64_t cyc, uint64_t insn_cnt, const uint64_t *last_cyc,
			   const uint64_t *last_insn, struct hwprof_pt_sample *s)
{
	if (!ipc || cyc == *last_cyc)
		return 0;
	s->cyc_cnt = cyc - *last_cyc;
	s->insn_cnt = insn_cnt - *last_insn;
	return s->cyc_cnt;
}

/* perf's intel_pt_next_time(): the next range end or start */
static bool next_time(struct run *r)
{
	const struct hwprof_pt_synth_config *c = r->cfg;
	if (r->sel_start) {
		r->sel_start = false;
		r->sel_ts = c->ranges[r->sel_idx].end;
		return true;
	}
	if (r->sel_idx + 1 < c->nranges) {
		r->sel_start = true;
		r->sel_ts = c->ranges[++r->sel_idx].start;
		return true;
	}
	return false;
}

/* Where the trace from offset on ends for perf's decoder: at the next
 * buffer it starts afresh at (snapshot mode), or at the end. */
static uint64_t seg_end(const struct run *r, uint64_t off)
{
	const struct hwprof_pt_synth_config *c = r->cfg;
	for (size_t b = 0; c->bufs && b < c->nbufs; b++)
		if (c->bufs[b].fresh && c->bufs[b].offset > off && c->bufs[b].offset < r->len)
			return c->bufs[b].offset;
	return r->len;
}

/* perf's reposition: its decoder synchronises afresh at off (a new buffer
 * b brings its reference TSC, trace number and end; SIZE_MAX: the same
 * buffer). Returns whether it moved. */
static bool reposition(struct run *r, uint64_t off, size_t b)
{
	const struct hwprof_pt_synth_config *c = r->cfg;
	uint64_t ref = b == SIZE_MAX ? 0 : c->bufs && b < c->nbufs ? c->bufs[b].ref : c->flow.ref_tsc;
	if (hwprof_pt_flow_seek(r->flow, off, ref) < 0)
		return false;
	if (b != SIZE_MAX) {
		r->trace_nr = c->trace_nr + ((uint64_t)b << 32);
		hwprof_pt_flow_set_end(r->flow, seg_end(r, off));
	}
	r->continuous = false;
	r->mid_walk = false;
	r->at_branch = false;
	return true;
}

/* The decoder reached the end of a buffer that the next does not
 * continue: it goes on at that one. Returns false at the end. */
static bool next_fresh(struct run *r)
{
	const struct hwprof_pt_synth_config *c = r->cfg;
	uint64_t at = hwprof_pt_flow_end(r->flow);
	for (size_t b = 0; at < r->len && c->bufs && b < c->nbufs; b++)
		if (c->bufs[b].fresh && c->bufs[b].offset == at)
			return reposition(r, at, b);
	return false;
}

/* perf's fast forward towards TSC target: its decoder starts again at the
 * PSB pt_ffwd picks. Returns whether it moved. */
static bool fast_forward(struct run *r, uint64_t target)
{
	const struct hwprof_pt_synth_config *c = r->cfg;
	size_t pos = r->decoding ? (size_t)ipt_flow_pos(r->flow) : SIZE_MAX, off, b;
	return ipt_ffwd_find(r->buf, r->len, c->bufs, c->nbufs, c->flow.ref_tsc, pos, target, &off, &b) &&
	       reposition(r, off, b);
}

/* perf's intel_pt_time_filter() at a state: whether it makes samples,
 * and a fast forward when it is before a range's start. Returns 1 when
 * the run is over (after the last range). */
static int time_filter(struct run *r)
{
	if (r->first_state) {
		/* perf sets a queue up at its first state without the filter */
		r->first_state = false;
		r->have_sample = !(r->sel_start && r->sel_ts && r->qts < r->sel_ts);
		return 0;
	}
	for (;;) {
		if (r->sel_start) {
			if (r->qts >= r->sel_ts) {
				next_time(r);
				if (!r->sel_ts)
					return 0;
				continue;
			}
			r->have_sample = false;
			if (r->sel_ts > r->ff_ts) {
				if (r->cfg->switch_hook)
					r->cfg->switch_hook(r->cfg->gate_ctx, HWPROF_PT_SW_FFWD, 0, 0, &r->qts);
				r->ff_ts = r->sel_ts;
				r->unwind = fast_forward(r, r->sel_ts);
			}
			return 0;
		}
		if (r->qts > r->sel_ts) {
			if (!next_time(r)) {
				if (r->cfg->switch_hook)
					r->cfg->switch_hook(r->cfg->gate_ctx, HWPROF_PT_SW_END, 0, 0, &r->qts);
				r->have_sample = false;
				r->stop = r->unwind = true;
				return 1;
			}
			continue;
		}
		return 0;
	}
}

/* A decoder state: perf's run loop filters it by time, then compares its
 * queue time with the scheduler's limit, before the state's samples are
 * made. Non-zero: the run stops (r->unwind: or goes on elsewhere). */
static int gate(struct run *r)
{
	r->have_sample = true;
	if (!r->timed)
		return 0;
	if (r->sel_ts && time_filter(r))
		return 1;
	int rc = r->cfg->gate ? r->cfg->gate(r->cfg->gate_ctx, r->qts) : 0;
	if (rc)
		r->unwind = false; /* the caller's stop is returned */
	return rc ? rc : r->unwind;
}

static void stamp(struct run *r, struct hwprof_pt_sample *s)
{
	if (!r->timed)
		return;
	s->tsc = r->qts;
	/* samples come many to a queue time */
	if (r->qts != r->time_of_qts || !r->time_ok) {
		r->time_of_qts = r->qts;
		r->time_val = hwprof_pt_tsc_to_perf_time(&r->cfg->flow.time_conv, r->qts);
		r->time_ok = true;
	}
	s->time = r->time_val;
}

static int emit_branch(struct run *r, const struct hwprof_pt_event *ev, uint64_t from, uint64_t to,
		       uint32_t flags, unsigned len, bool ipc)
{
	if (!r->end_gated && sw_flush(r))
		return 1;
	qtime(r, ev, from, to, flags, ev->tsc);
	int rc = r->end_gated ? 0 : gate(r);
	r->end_gated = false;
	if (rc || !r->have_sample)
		return rc;
	sw_note(r, to, flags);
	/* after the gate: a state perf holds at its limit goes on the stack
	 * of the thread its queue runs when it resumes */
	struct hwprof_pt_tstack *ts = r->thread_stack || r->ring_cap ? cur(r) : NULL;
	if (ts && pt_tstack_branch(ts, r->trace_nr, flags, from, to, len, r->ring_cap, r->thread_stack) < 0)
		return -HWPROF_E_NOMEM;
	bool sampled = r->want_br && (!r->br_filter || (r->br_filter & flags));
	if (!sampled && !r->cbr_pending)
		return 0;
	struct hwprof_pt_sample s;
	memset(&s, 0, sizeof(s));
	s.kind = HWPROF_PT_SAMPLE_BRANCHES;
	s.ip = from;
	s.addr = to;
	s.flags = flags;
	s.period = 1;
	s.depth = ts ? (uint32_t)ts->depth : 0;
	stamp(r, &s);
	if (from)
		insn_bytes(r, &s, from, len);
	else if (r->last_len)
		insn_bytes(r, &s, r->last_ip, r->last_len);
	/* a state with no sample of its own still brings a changed ratio's */
	if (!sampled)
		return emit_cbr(r, &s);
	bool skipped = false;
	/* A (approximate IPC): every state, with the count of its sample time */
	uint64_t cyc = r->approx_ipc ? ev->cyc_tot : r->cyc_snap;
	bool moved = sample_ipc(ipc || r->approx_ipc, cyc, r->insn_tot, &r->last_br_cyc, &r->last_br_insn, &s) != 0;
	rc = emit(r, &s, &skipped);
	if (!rc && !skipped && moved) {
		r->last_br_insn = r->insn_tot;
		r->last_br_cyc = cyc;
	}
	return rc;
}

/* The instruction sample at the block's i-th instruction (at ip, len
 * bytes; the block's last carries its branch's flags and target). */
static int insn_sample(struct run *r, const struct hwprof_pt_event *ev, uint32_t i, uint64_t ip, unsigned len,
		       uint32_t last_flags, uint64_t last_addr)
{
	uint32_t n = ev->ninsn;
	struct hwprof_pt_sample s;
	memset(&s, 0, sizeof(s));
	s.kind = HWPROF_PT_SAMPLE_INSTRUCTIONS;
	s.ip = ip;
	if (i + 1 == n) {
		s.flags = last_flags;
		s.addr = last_addr;
	}
	s.period = r->tot - r->last;
	/* the branch's state may take a cycle count; the instructions before
	 * it are walked without one */
	bool ipc = i + 1 == n ? end_state_ipc(r, ev) : r->want_ipc && !ev->have_cyc;
	uint64_t insn_cnt = r->insn_before + i + 1;
	/* perf's state at an instruction before the block's branch has the
	 * older time, at the branch the new one */
	if (sw_flush(r))
		return 1;
	if (i + 1 == n)
		qtime(r, ev, ip, last_addr, last_flags, ev->tsc);
	else
		qtime(r, ev, ip, 0, 0, ev->tsc_in);
	int gr = gate(r);
	if (gr)
		return gr;
	r->end_gated = i + 1 == n;
	if (!r->have_sample) /* its instructions count into the next period */
		return 0;
	stamp(r, &s);
	insn_bytes(r, &s, ip, len);
	if (r->cfg->itrace.callchain)
		fill_chain(r, &s);
	fill_lbr(r, &s);
	bool skipped = false;
	uint64_t cyc = !r->approx_ipc ? r->cyc_snap : i + 1 == n ? ev->cyc_tot : ev->cyc_tot_in;
	bool moved = sample_ipc(ipc || r->approx_ipc, cyc, insn_cnt, &r->last_in_cyc, &r->last_in_insn, &s) != 0;
	int rc = emit(r, &s, &skipped);
	/* perf counts a skipped sample's instructions into the next one's
	 * period */
	if (!rc && !skipped)
		r->last = r->tot;
	if (!rc && !skipped && moved) {
		r->last_in_insn = insn_cnt;
		r->last_in_cyc = cyc;
	}
	return rc;
}

/* perf's intel_pt_next_period(): how many instructions its walk may go
 * before the one to sample, at clock ts (the decoder's clock plus the
 * instructions walked since it moved); the first walk after a start
 * takes the period it is in as the last one sampled */
static uint64_t next_period(struct run *r, uint64_t ts)
{
	uint64_t masked = ts & r->period_mask;
	if (r->continuous) {
		if (masked > r->last_masked)
			return 1;
	} else {
		ts += 1;
		masked = ts & r->period_mask;
		if (masked > r->last_masked) {
			r->last_masked = masked;
			r->continuous = true;
		}
	}
	if (masked < r->last_masked)
		return r->period_ticks;
	return r->period_ticks - (ts - masked);
}

/* perf's intel_pt_sample_insn() for tick periods */
static void ticks_sampled(struct run *r, uint64_t ts)
{
	uint64_t masked = ts & r->period_mask;
	if (masked > r->last_masked)
		r->last_masked = masked;
	else
		r->last_masked += r->period_ticks;
}

/* The address of a block's instruction k, from instruction i at ip: the
 * lengths are summed only up to a sample, and the last instruction's
 * address is known */
static uint64_t insn_ip(const struct hwprof_pt_event *ev, uint32_t i, uint64_t ip, uint32_t k)
{
	if (k + 1 == ev->ninsn)
		return ev->end_ip;
	for (; i < k; i++)
		ip += ev->ilen[i];
	return ip;
}

/* The instructions of a block with tick periods: perf walks to the next
 * branch (or a FUP's address) at most next_period() instructions at a
 * time, sampling the last one when it got that far. */
static int block_insns_ticks(struct run *r, const struct hwprof_pt_event *ev, uint32_t last_flags,
			     uint64_t last_addr)
{
	uint64_t ip = ev->ip, cnt = ev->walk_cnt;
	uint32_t n = ev->ninsn, i = 0, at = 0; /* ip is instruction at's */
	while (i < n) {
		if (!r->mid_walk) {
			r->walk_left = next_period(r, ev->walk_ts + cnt);
			r->mid_walk = true;
		}
		uint64_t take = r->walk_left < n - i ? r->walk_left : n - i;
		i += (uint32_t)take - 1; /* the last one taken */
		cnt += take;
		r->tot += take;
		r->walk_left -= take;
		if (!r->walk_left) {
			r->mid_walk = false;
			ticks_sampled(r, ev->walk_ts + cnt);
			/* sampled at the last instruction before a FUP's address:
			 * perf's next walk starts there and stops at once, after
			 * asking for the next period (which may start one) */
			if ((ev->flags & HWPROF_PT_EVF_AT_IP) && i + 1 == n)
				next_period(r, ev->walk_ts + cnt);
			ip = insn_ip(ev, at, ip, i);
			at = i;
			int rc = insn_sample(r, ev, i, ip, ev->ilen[i], last_flags, last_addr);
			if (rc)
				return rc;
		}
		i++;
	}
	/* the walk ends at a branch or at a FUP's address; a block the cache
	 * split without one goes on in the next */
	if (ev->iclass != HWPROF_PT_IC_OTHER || (ev->flags & HWPROF_PT_EVF_AT_IP))
		r->mid_walk = false;
	return 0;
}

/* The instructions of a block: every period-th one is a sample. A block
 * with no sample in it only moves the counts on. */
static int block_insns(struct run *r, const struct hwprof_pt_event *ev, uint32_t last_flags,
		       uint64_t last_addr)
{
	if (r->ticks)
		return block_insns_ticks(r, ev, last_flags, last_addr);
	uint64_t ip = ev->ip;
	uint32_t n = ev->ninsn, i = 0;
	while (n - i >= r->left) {
		uint32_t k = i + (uint32_t)r->left - 1;
		ip = insn_ip(ev, i, ip, k);
		r->tot += r->left;
		r->left = r->period;
		int rc = insn_sample(r, ev, k, ip, ev->ilen[k], last_flags, last_addr);
		if (rc)
			return rc;
		ip += ev->ilen[k];
		i = k + 1;
	}
	r->tot += n - i;
	r->left -= n - i;
	return 0;
}

/* perf's sample flags of a block's last instruction, by its class */
static const uint32_t iclass_flags[HWPROF_PT_IC_COUNT] = {
	[HWPROF_PT_IC_JCC] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL,
	[HWPROF_PT_IC_JMP] = HWPROF_PT_FLAG_BRANCH,
	[HWPROF_PT_IC_JMP_IND] = HWPROF_PT_FLAG_BRANCH,
	[HWPROF_PT_IC_FAR] = HWPROF_PT_FLAG_BRANCH,
	[HWPROF_PT_IC_CALL] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL,
	[HWPROF_PT_IC_CALL_IND] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL,
	[HWPROF_PT_IC_RET] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN,
	[HWPROF_PT_IC_SYSCALL] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_SYSCALLRET,
	[HWPROF_PT_IC_SYSRET] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_SYSCALLRET,
	[HWPROF_PT_IC_INT] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_INTERRUPT,
	[HWPROF_PT_IC_IRET] = HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_INTERRUPT,
};

static int on_block(struct run *r, const struct hwprof_pt_event *ev)
{
	uint32_t flags = ev->iclass < HWPROF_PT_IC_COUNT ? iclass_flags[ev->iclass] : 0;
	bool taken = (ev->flags & HWPROF_PT_EVF_TAKEN) && flags;
	uint64_t to = taken ? ev->to : 0;
	if (taken && !to)
		flags |= HWPROF_PT_FLAG_TRACE_END;
	int rc = 0;
	r->end_gated = false;
	r->end_ipc_done = false;
	r->insn_before = r->insn_tot;
	r->insn_tot += ev->ninsn;
	if (ev->ninsn) {
		r->last_ip = ev->end_ip;
		r->last_len = ev->ilen[ev->ninsn - 1];
	}
	r->at_branch = ev->ninsn && flags;
	if (r->want_insn && ev->ninsn)
		rc = block_insns(r, ev, flags, to);
	/* untimed, with no branch samples, stack or ring a taken branch
	 * changes nothing */
	if (!rc && taken && r->branch_noop)
		r->end_gated = false;
	else if (!rc && taken)
		rc = emit_branch(r, ev, ev->end_ip, to, flags, ev->ninsn ? ev->ilen[ev->ninsn - 1] : 0,
				 r->want_ipc && end_state_ipc(r, ev));
	else if (!rc && ev->ninsn && !(rc = sw_flush(r)))
		qtime(r, ev, ev->end_ip, 0, 0, ev->tsc);
	/* the decoder's side of IPC when no sample needed the state: a taken
	 * branch takes the cycle count, a branch not taken (no state) uses
	 * its sample_cyc up */
	if (r->want_ipc && !r->end_ipc_done && ev->ninsn) {
		if (taken)
			end_state_ipc(r, ev);
		else if (ev->iclass == HWPROF_PT_IC_JCC && ev->cyc_gen)
			r->cyc_used = ev->cyc_gen;
	}
	return rc;
}

/* Blocks the flow decoder walked as one (hwprof_pt_flow_skip): no sample
 * falls in them and their branches make none, so only the counts, the
 * queue time and the last instruction move on. */
static void on_skip(struct run *r, const struct hwprof_pt_event *ev)
{
	r->end_gated = false;
	r->insn_tot += ev->ninsn;
	if (r->want_insn) {
		r->tot += ev->ninsn;
		if (!r->ticks)
			r->left -= ev->ninsn; /* less than it: the budget said so */
		/* a walk in ticks that goes on into the next block */
		r->mid_walk = ev->payload != 0;
		r->walk_left = ev->payload;
	}
	r->last_ip = ev->end_ip;
	r->last_len = ev->count;
	r->at_branch = ev->iclass < HWPROF_PT_IC_COUNT && iclass_flags[ev->iclass];
	if (ev->tsc > r->qts) /* user-space branches: perf's queue time */
		r->qts = ev->tsc;
}

static int on_error(struct run *r, const struct hwprof_pt_event *ev, unsigned code)
{
	if (sw_flush(r))
		return 1;
	if (r->cfg->switch_hook)
		r->cfg->switch_hook(r->cfg->gate_ctx, HWPROF_PT_SW_ERROR, ev->ip, 0, &r->qts);
	r->qts = ev->est_tsc; /* perf's error path */
	r->insn_tot += ev->ninsn;
	r->cyc_snap = ev->cyc_tot; /* perf takes the count at an error */
	if (r->ticks && ev->ninsn) {
		/* perf's walk reached the branch it failed at: a sample due
		 * there moves its period on, and is lost with the error */
		if (!r->mid_walk)
			r->walk_left = next_period(r, ev->walk_ts + ev->walk_cnt);
		if (!--r->walk_left)
			ticks_sampled(r, ev->walk_ts + ev->walk_cnt + 1);
	}
	r->mid_walk = false;
	/* perf counts a branch it failed at into the periods; a sample due
	 * there is lost with the error */
	for (uint32_t i = 0; i < ev->ninsn; i++) {
		r->tot++;
		if (--r->left == 0)
			r->left = r->period;
	}
	if (!r->want_err)
		return 0;
	/* e-o, e-l: perf leaves out overflow and lost-data errors */
	unsigned minus = r->cfg->itrace.error_minus_flags;
	if ((code == HWPROF_PT_SERR_OVR && (minus & HWPROF_ITRACE_FLAG('o'))) ||
	    (code == HWPROF_PT_SERR_LOST && (minus & HWPROF_ITRACE_FLAG('l'))))
		return 0;
	struct hwprof_pt_sample s;
	memset(&s, 0, sizeof(s));
	s.kind = HWPROF_PT_SAMPLE_ERROR;
	s.code = code;
	s.ip = ev->ip;
	s.offset = ev->offset;
	stamp(r, &s);
	return emit(r, &s, NULL);
}

static int on_psb(struct run *r, const struct hwprof_pt_event *ev)
{
	state_ipc(r, ev);
	/* perf's PSB offset is set where its walk meets a PSB, not where
	 * it synchronises (that PSB shows the last one's, 0 at first) */
	if (ev->count != 1)
		r->psb_off = ev->offset;
	if (sw_flush(r))
		return 1;
	qtime(r, ev, ev->ip, 0, 0, ev->tsc);
	int rc = gate(r);
	if (rc || !r->want_pwr || !r->have_sample)
		return rc;
	struct hwprof_pt_sample s;
	memset(&s, 0, sizeof(s));
	s.kind = HWPROF_PT_SAMPLE_PSB;
	s.ip = ev->ip;
	/* perf's PSB state keeps the bytes of the branch its walk stopped
	 * at, unless it walked on to the PSB's FUP (then none) */
	if (r->at_branch && r->last_len)
		insn_bytes(r, &s, r->last_ip, r->last_len);
	s.payload = r->psb_off;
	s.addr = ev->to; /* perf's state: where a scan for an IP resumed */
	s.period = 1;
	stamp(r, &s);
	if (r->cfg->itrace.callchain)
		fill_chain(r, &s);
	fill_lbr(r, &s);
	return emit(r, &s, NULL);
}

/* perf's instruction periods in time: nanoseconds become TSC ticks by
 * the time conversion (mult 0 taken as 1), the ticks are rounded down to
 * a power of two; a period of no ticks is one instruction */
static void ticks_setup(struct run *r, const struct hwprof_itrace_opts *o, const struct hwprof_pt_flow_config *fc)
{
	uint64_t t = o->period;
	if (o->period_type == HWPROF_ITRACE_PERIOD_NANOSECS) {
		uint64_t mult = fc->time_conv.time_mult ? fc->time_conv.time_mult : 1;
		unsigned shift = fc->time_conv.time_shift < 64 ? fc->time_conv.time_shift : 63;
		t = ((t / mult) << shift) + ((t % mult) << shift) / mult;
	}
	if (!t) {
		r->period = 1;
		return;
	}
	uint64_t p = 1;
	while (t >>= 1)
		p <<= 1;
	r->ticks = true;
	r->period_ticks = p;
	r->period_mask = ~(p - 1);
}

/* perf's TSC frequency guess when AUXTRACE_INFO has no ratio: the ticks
 * of one second by the time conversion (mult 0 taken as 1, as perf does
 * for timeless decoding), and 100 MHz per ratio step */
static void cbr_setup(struct run *r, const struct hwprof_pt_flow_config *fc)
{
	uint64_t mult = fc->time_conv.time_mult ? fc->time_conv.time_mult : 1;
	unsigned shift = fc->time_conv.time_shift < 32 ? fc->time_conv.time_shift : 31;
	uint64_t ns = 1000000000ULL;
	uint64_t tsc_freq = ((ns / mult) << shift) + ((ns % mult) << shift) / mult;
	r->max_nonturbo = fc->max_nonturbo_ratio ? fc->max_nonturbo_ratio
						 : (uint32_t)((tsc_freq + 50000000) / 100000000);
	r->cbr2khz = r->max_nonturbo ? (uint32_t)(tsc_freq / r->max_nonturbo / 1000) : 0;
}

/* perf's sample flags for a quick-decoding state (its
 * intel_pt_sample_flags(): no instruction is decoded, so a state from an
 * address has no branch type of its own) */
static uint32_t hop_flags(const struct pt_hop_state *st)
{
	uint32_t f;
	if (st->type & PT_HOP_ASYNC)
		f = st->to ? HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_ASYNC | HWPROF_PT_FLAG_INTERRUPT
			   : HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_ASYNC | HWPROF_PT_FLAG_TRACE_END;
	else
		f = st->from ? 0 : HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN;
	if (st->type & PT_HOP_TRACE_BEGIN)
		f |= HWPROF_PT_FLAG_TRACE_BEGIN;
	if (st->type & PT_HOP_TRACE_END)
		f |= HWPROF_PT_FLAG_TRACE_END;
	return f;
}

/* perf's quick decoding (q, qq): the samples of each state pt_hop gives,
 * in perf's order (psb, cbr, instruction, then the branch); an
 * instruction sample for every instruction state, period 1 */
static int synth_hop(struct run *r, const void *buf, size_t len)
{
	struct pt_hop h;
	int rc = pt_hop_init(&h, buf, len, r->cfg->itrace.quick, !r->cfg->no_branch);
	if (rc < 0)
		return rc;
	struct pt_hop_state st;
	while (!rc && pt_hop_next(&h, &st) == 1) {
		struct hwprof_pt_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.ip = st.from;
		ev.offset = st.psb_offset;
		if (st.cbr != r->cbr) {
			r->cbr = st.cbr;
			if (r->want_pwr && r->cbr != r->cbr_seen)
				r->cbr_pending = true;
		}
		if (st.err) {
			rc = on_error(r, &ev, st.err);
			continue;
		}
		uint32_t flags = hop_flags(&st);
		if (st.type & PT_HOP_PSB)
			rc = on_psb(r, &ev);
		if (!rc && (st.type & PT_HOP_INSN) && r->want_insn) {
			struct hwprof_pt_sample s;
			memset(&s, 0, sizeof(s));
			s.kind = HWPROF_PT_SAMPLE_INSTRUCTIONS;
			s.ip = st.from;
			s.addr = st.to;
			s.flags = flags;
			s.period = 1;
			if (r->cfg->itrace.callchain)
				fill_chain(r, &s);
			fill_lbr(r, &s);
			rc = emit(r, &s, NULL);
		}
		if (!rc && (st.type & PT_HOP_BRANCH))
			rc = emit_branch(r, &ev, st.from, st.to, flags, 0, false);
	}
	return rc;
}

/* The queue's thread may be in another process since the decoder last
 * paused: its walk reads that one's code from the next block on (the
 * blocks walked already stay). */
static void follow_space(struct run *r, struct hwprof_pt_flow *flow)
{
	struct hwprof_pt_image *img = r->cfg->space ? *r->cfg->space : NULL;
	if (img && img != r->img) {
		r->img = img;
		hwprof_pt_flow_set_image(flow, img);
	}
}

int hwprof_pt_synth_queue(const struct hwprof_pt_synth_config *cfg, const void *buf, size_t len)
{
	if (!cfg || !cfg->emit || !cfg->img || (!buf && len))
		return -HWPROF_E_INVAL;
	unsigned kinds;
	const char *what;
	int rc = hwprof_pt_synth_kinds(&cfg->itrace, &kinds, &what);
	if (rc < 0)
		return rc;
	struct run r;
	memset(&r, 0, sizeof(r));
	r.cfg = cfg;
	r.img = cfg->space && *cfg->space ? *cfg->space : cfg->img;
	r.want_insn = kinds & 1u << HWPROF_PT_SAMPLE_INSTRUCTIONS;
	r.want_br = kinds & 1u << HWPROF_PT_SAMPLE_BRANCHES;
	r.want_err = kinds & 1u << HWPROF_PT_SAMPLE_ERROR;
	if (cfg->itrace.calls)
		r.br_filter |= HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_ASYNC | HWPROF_PT_FLAG_TRACE_END;
	if (cfg->itrace.returns)
		r.br_filter |= HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_TRACE_BEGIN;
	r.period = cfg->itrace.period ? cfg->itrace.period : 1;
	if (cfg->itrace.period_type != HWPROF_ITRACE_PERIOD_INSTRUCTIONS && cfg->itrace.period)
		ticks_setup(&r, &cfg->itrace, &cfg->flow);
	r.left = r.period;
	r.want_pwr = kinds & 1u << HWPROF_PT_SAMPLE_PSB;
	r.cbr_pending = r.want_pwr;
	r.cbr_seen = UINT32_MAX;
	r.skip = cfg->itrace.initial_skip;
	r.thread_stack = cfg->thread_stack || cfg->itrace.callchain || cfg->itrace.add_callchain;
	r.slot = cfg->tstack;
	r.events = cfg->events ? cfg->events : &r.own_events;
	r.timed = cfg->timed;
	cbr_setup(&r, &cfg->flow);
	if (cfg->itrace.last_branch || cfg->itrace.add_last_branch) {
		/* the ring may be larger (L adds room), but an l sample takes
		 * the newest last_branch_sz of it */
		uint32_t sz = cfg->itrace.last_branch_sz ? cfg->itrace.last_branch_sz
							 : HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
		if (sz > HWPROF_ITRACE_MAX_LAST_BRANCH_SZ)
			sz = HWPROF_ITRACE_MAX_LAST_BRANCH_SZ;
		r.ring_cap = cfg->ring_cap > sz ? cfg->ring_cap : sz;
		if (cfg->itrace.last_branch) {
			r.lbr_sz = sz;
			r.lbr_out = malloc(2 * (size_t)sz * sizeof(*r.lbr_out));
			if (!r.lbr_out)
				return -HWPROF_E_NOMEM;
		}
	}
	/* the queue time matters only for timed decoding (its gate and
	 * sample times) */
	r.branch_noop = !r.want_br && !r.thread_stack && !r.ring_cap && !r.timed && !r.want_pwr;
	r.skip_ok = !r.want_br && !r.thread_stack && !r.ring_cap && !(r.timed && cfg->gate);
	r.trace_nr = cfg->trace_nr;
	r.have_sample = true;
	r.want_ipc = cfg->ipc && !cfg->itrace.quick;
	struct hwprof_pt_flow_config fc = cfg->flow;
	if (r.want_ipc)
		fc.flags |= HWPROF_PT_FLOW_CYC_COUNT;
	r.approx_ipc = r.want_ipc && cfg->itrace.approx_ipc;
	if (r.want_ipc)
		r.skip_ok = false; /* every state may take a cycle count */
	if (r.timed && cfg->nranges && cfg->ranges) {
		/* perf's intel_pt_setup_time_range() */
		r.sel_ts = cfg->ranges[0].start;
		r.sel_start = r.sel_ts != 0;
		if (!r.sel_start)
			r.sel_ts = cfg->ranges[0].end;
		r.skip_ok = false; /* every state is filtered */
	}

	if (cfg->itrace.quick) {
		rc = synth_hop(&r, buf, len);
		pt_tstack_fini(&r.own);
		free(r.lbr_out);
		return rc;
	}
	struct hwprof_pt_flow *flow;
	rc = hwprof_pt_flow_new(&flow, buf, len, r.img, &fc);
	if (rc < 0) {
		free(r.lbr_out);
		return rc;
	}
	r.flow = flow;
	r.buf = buf;
	r.len = len;
	hwprof_pt_flow_set_end(flow, seg_end(&r, 0));
	/* perf fast-forwards a queue to its first range before it decodes */
	if (r.sel_start && r.sel_ts) {
		r.ff_ts = r.sel_ts;
		fast_forward(&r, r.sel_ts);
	}
	const struct hwprof_pt_event *ev;
	struct hwprof_pt_event first; /* the first timed state, with its estimate */
next_buffer:
	while (!rc && (follow_space(&r, flow), (rc = hwprof_pt_flow_next_ref(flow, &ev)) == 1)) {
		rc = 0;
		if (cfg->log)
			cfg->log(cfg->log_ctx, ev);
		r.decoding = true;
		if (r.timed && !r.started) {
			/* perf starts a queue at its first state with a time:
			 * errors and states before it make no samples */
			if (!ev->tsc || ev->type == HWPROF_PT_EV_ERROR || ev->type == HWPROF_PT_EV_OVF) {
				if (ev->type == HWPROF_PT_EV_CBR) /* the decoder's ratio all the same */
					r.cbr = (uint32_t)ev->payload;
				continue;
			}
			r.started = true;
			r.first_state = true;
			r.qts = ev->tsc;
			first = *ev;
			first.est_tsc = first.tsc;
			ev = &first;
		}
		/* perf's walk to a FUP it is at already asks for the next
		 * period (which may start one) and stops */
		if ((ev->flags & HWPROF_PT_EVF_WALK0) && r.ticks &&
		    (ev->type == HWPROF_PT_EV_ASYNC || ev->type == HWPROF_PT_EV_DISABLE)) {
			r.mid_walk = false;
			next_period(&r, ev->walk_ts + ev->walk_cnt);
		}
		switch (ev->type) {
		case HWPROF_PT_EV_BLOCK:
			rc = on_block(&r, ev);
			break;
		case HWPROF_PT_EV_SKIP:
			on_skip(&r, ev);
			break;
		case HWPROF_PT_EV_ENABLE:
			r.mid_walk = false;
			if (ev->flags & HWPROF_PT_EVF_END)
				r.continuous = false; /* a TIP.PGD where perf resumed */
			/* a PSB+'s FUP (sync, resync) is perf's PSB state, which
			 * is no branch */
			if ((ev->flags & HWPROF_PT_EVF_STATUS) && ev->payload == HWPROF_PT_PSB)
				break;
			rc = emit_branch(&r, ev, 0, ev->ip,
					 HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN |
					 ((ev->flags & HWPROF_PT_EVF_END) ? HWPROF_PT_FLAG_TRACE_END : 0), 0,
					 state_ipc(&r, ev));
			break;
		case HWPROF_PT_EV_ASYNC:
			r.last_len = 0; /* perf keeps no instruction for async branches */
			rc = emit_branch(&r, ev, ev->ip, ev->to,
					 HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_ASYNC |
					 HWPROF_PT_FLAG_INTERRUPT, 0, state_ipc(&r, ev));
			break;
		case HWPROF_PT_EV_DISABLE:
			r.continuous = false; /* perf's decoder at a trace end */
			r.mid_walk = false;
			/* a branch's TIP.PGD ends its block; FUP + TIP.PGD is async */
			if (ev->flags & HWPROF_PT_EVF_ASYNC) {
				r.last_len = 0;
				rc = emit_branch(&r, ev, ev->ip, 0,
						 HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_ASYNC |
						 HWPROF_PT_FLAG_TRACE_END, 0, state_ipc(&r, ev));
			}
			break;
		case HWPROF_PT_EV_PSB:
			rc = on_psb(&r, ev);
			break;
		case HWPROF_PT_EV_CBR:
			r.cbr = (uint32_t)ev->payload;
			if (r.want_pwr && r.cbr != r.cbr_seen)
				r.cbr_pending = true;
			break;
		case HWPROF_PT_EV_MODE_TSX:
			/* PSB+ carries MODE.TSX status on TSX parts: only a
			 * transaction (InTX / abort) makes samples */
			if (cfg->itrace.transactions && ev->payload)
				rc = -HWPROF_E_UNSUPPORTED;
			break;
		case HWPROF_PT_EV_PTWRITE:
			if (cfg->itrace.ptwrites)
				rc = -HWPROF_E_UNSUPPORTED;
			break;
		case HWPROF_PT_EV_CFE:
		case HWPROF_PT_EV_EVD:
			if (cfg->itrace.intr_events)
				rc = -HWPROF_E_UNSUPPORTED;
			break;
		case HWPROF_PT_EV_PWRE:
		case HWPROF_PT_EV_PWRX:
		case HWPROF_PT_EV_MWAIT:
		case HWPROF_PT_EV_EXSTOP:
			if (r.want_pwr)
				rc = -HWPROF_E_UNSUPPORTED;
			break;
		case HWPROF_PT_EV_OVF:
			rc = on_error(&r, ev, HWPROF_PT_SERR_OVR);
			break;
		case HWPROF_PT_EV_ERROR:
			/* perf's decoder goes on quietly from a DSO it knows it
			 * cannot read (no error state, so no time from it) */
			if (ev->count == HWPROF_PT_ERR_NOCODE && !ipt_image_nocode_report(r.img, ev->ip)) {
				r.mid_walk = false;
				break;
			}
			rc = on_error(&r, ev, err_code(ev->count));
			break;
		default:
			break;
		}
		if (r.unwind) {
			/* the gate fast-forwarded (the event's other states are
			 * gone with the decoder's position) or ended the run */
			r.unwind = r.end_gated = false;
			rc = 0;
			if (r.stop)
				break;
			continue;
		}
		/* the instructions up to the one before the next sample may
		 * go by as one event (a timed run starts at its first time) */
		if (r.skip_ok && (!r.timed || r.started)) {
			if (!r.want_insn || !r.ticks)
				hwprof_pt_flow_skip(flow, r.want_insn ? r.left - 1 : UINT64_MAX);
			else /* next_period() on the clock (one on when not continuous) */
				hwprof_pt_flow_skip_ticks(flow, r.period_ticks, r.last_masked, !r.continuous,
							  r.mid_walk ? r.walk_left : 0);
		}
	}
	/* snapshot mode: at a buffer that does not continue this one, perf's
	 * decoder starts afresh (its reposition: the new buffer's reference
	 * TSC and trace number) */
	if (!rc && !r.stop && next_fresh(&r))
		goto next_buffer;
	hwprof_pt_flow_free(flow);
	pt_tstack_fini(&r.own);
	free(r.lbr_out);
	return rc;
}
