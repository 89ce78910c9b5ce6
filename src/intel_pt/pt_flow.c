/* Intel PT flow decoder: walks the traced code block by block and consumes
 * packets only where the code cannot tell what happened (conditional
 * branches -> TNT, indirect branches and uncompressed returns -> TIP, async
 * events -> FUP [+ TIP/TIP.PGD]). One "ahead" packet is kept so that a
 * pending FUP is known before the walk reaches its address. Errors become
 * events and decoding resumes at the next PSB. */
#include <stdlib.h>
#include <string.h>

#include "intel_pt/pt_flow_int.h"

#define QSIZE 64
#define QROOM 8   /* free slots fetch() keeps: side events never push out blocks */
#define STACK_DEPTH 64           /* as the hardware's return-compression stack */
#define MAX_BLOCKS_WITHOUT_PACKET 65536u  /* direct branches only: a loop */

enum st { ST_SYNC, ST_OFF, ST_ON, ST_END, ST_RESYNC };

/* What the next flow-relevant packet says. */
enum ahead_kind {
	AH_NONE = 0, AH_TIP, AH_PGE, AH_PGD, AH_OVF, AH_EOS,
	AH_FUP_ASYNC,    /* FUP + TIP: interrupt/exception from ip to `to` */
	AH_FUP_DISABLE,  /* FUP + TIP.PGD */
	AH_FUP_STATUS,   /* FUP binding earlier packets (TSX, PTWRITE, ...) to ip */
};

/* Packets whose event happens at the following FUP's address. */
enum { BIND_TSX = 1, BIND_PTW = 2, BIND_EXSTOP = 4, BIND_CFE = 8, BIND_PSB = 16 };

/* The time perf's decoder knows when it reads a packet (pt_time.c): the
 * events a packet decides take it. */
struct tsnap {
	uint64_t ts, tsc_ts;
	uint32_t gen;
	unsigned cbr;
	uint64_t cyc_tot;        /* perf's cycle count for IPC */
	uint32_t cyc_sgen;       /* its sample_cyc (see struct ipt_cyc) */
	bool have_cyc;
};

struct ahead {
	uint8_t kind;
	uint8_t have_ip, have_to;
	uint8_t have_wsnap;      /* wsnap differs from snap */
	uint64_t ip, to, off;
	struct tsnap snap;
	struct tsnap wsnap;      /* the clock when the packet was read: a FUP's
				  * walk goes by it, before perf reads on to
				  * the TIP */
};

struct hwprof_pt_flow {
	struct hwprof_pt_decoder dec; /* its len: where the trace ends for now */
	size_t total_len;
	struct hwprof_pt_last_ip lip;
	struct hwprof_pt_image *img;
	struct hwprof_pt_flow_config cfg;
	struct ipt_bcache *cache; /* the image's: shared by its decoders */
	long klast_blk;           /* the same in a fork's kernel image's cache */
	long last_blk;            /* the cache's index of the block walked last
				   * (-1: none), whose successors it keeps */

	enum st st;
	uint64_t ip;
	unsigned mode;
	unsigned pending_mode;   /* MODE.Exec waiting for its TIP/PGE (0: none) */
	int after_ovf;

	uint64_t tnt;            /* remaining TNT bits, oldest at bit 63 */
	unsigned ntnt;
	uint64_t tnt_off;
	struct ahead ah;

	/* one pushed-back packet */
	int have_back;
	struct hwprof_pt_packet back;
	uint64_t back_off;

	/* packets bound to the next FUP */
	unsigned bind;
	uint64_t bind_tsx, bind_ptw, bind_cfe, bind_off;
	uint32_t bind_cfe_type;
	uint64_t bind_psb_off;

	uint64_t stack[STACK_DEPTH];
	unsigned sp, depth;

	/* timing: the clock as packets are read, and perf's sample time
	 * (its "sample_timestamp"): the clock when the walk last used up a
	 * packet, with the instructions walked since the clock last moved
	 * (for its estimate of time between timing packets) */
	struct ipt_time tm;
	struct tsnap tnt_snap;   /* the loaded TNT's */
	int tnt_used;            /* a bit of the loaded TNT was used */
	uint64_t s_ts, s_in;     /* sample time now, and before the last use */
	uint64_t s_cnt, tic, walked;
	uint32_t walking;        /* the block being resolved: perf has walked it
				  * when an error stops the walk there */
	uint32_t gen_applied;
	/* perf's decoder clock for the walk of a block and its count of
	 * instructions walked since that clock moved */
	uint64_t w_ts, w_cnt;
	uint32_t w_gen;
	int fup_reached;         /* the last block stopped at a FUP's address */
	unsigned s_cbr;
	uint64_t s_cyc, s_cyc_in; /* perf's cycle count at the sample time (and
				   * before the last use of a packet) */
	uint32_t s_sgen;         /* and its sample_cyc then (0: none) */
	bool s_have_cyc;
	uint64_t cyc;
	unsigned cbr;

	unsigned blocks_without_packet;
	uint64_t look_off;       /* first packet the walk has not used up */
	uint64_t sync_off;       /* PSB of the last synchronisation */
	uint64_t resync_ip;      /* RESYNC_IP: where the error was (perf keeps
				  * it as the IP of packets that suppress theirs) */
	bool no_last_ip;         /* resyncing after missing code: perf forgets
				  * the last IP, so only a full one (or a PSB)
				  * gives it back */
	struct hwprof_pt_event q[QSIZE];
	unsigned qh, qn;

	/* hwprof_pt_flow_skip(): instructions that may still go by without
	 * an event, and the blocks walked so far that have none (an EV_SKIP
	 * before the next event) */
	uint64_t skip_budget;
	uint64_t skip_period, skip_last, skip_bias; /* hwprof_pt_flow_skip_ticks() */
	uint64_t skip_walk;       /* the rest of the walk under way (0: none) */
	struct hwprof_pt_event skip;
	/* the perf time of the last sample time stamped */
	uint64_t time_of_ts, time_val;
	int time_ok;
};

static const char *const ev_names[HWPROF_PT_EV_COUNT] = {
	"none", "block", "enable", "disable", "async", "ovf", "mode.exec", "mode.tsx",
	"pip", "vmcs", "ptwrite", "cbr", "pwre", "pwrx", "mwait", "exstop", "cfe", "evd",
	"tracestop", "error", "psb", "skip",
};

HWPROF_API const char *hwprof_pt_ev_name(unsigned type)
{
	return type < HWPROF_PT_EV_COUNT ? ev_names[type] : "?";
}

HWPROF_API uint64_t hwprof_pt_tsc_to_perf_time(const struct hwprof_pt_time_conv *tc,
					       uint64_t tsc)
{
	if (!tc || !tc->time_mult)
		return tsc;
	unsigned s = tc->time_shift < 64 ? tc->time_shift : 63;
	uint64_t quot = tsc >> s, rem = tsc & ((1ULL << s) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> s);
}

/* ---- events ---------------------------------------------------------------- */

/* An event's times: perf's sample time now (and before the last use of a
 * packet, for the instructions of a block), and its estimate. */
static void stamp_event(struct hwprof_pt_flow *f, struct hwprof_pt_event *e)
{
	e->tsc = f->s_ts;
	e->tsc_in = f->s_in;
	/* perf's estimate: two cycles per instruction at the CBR's speed */
	uint64_t est = f->s_cnt << 1;
	if (f->s_cbr && f->tm.max_nonturbo)
		est = est * f->tm.max_nonturbo / f->s_cbr;
	e->est_tsc = f->s_ts + est;
	/* the sample time moves at timing packets, events come per block */
	if (f->s_ts != f->time_of_ts || !f->time_ok) {
		f->time_of_ts = f->s_ts;
		f->time_val = hwprof_pt_tsc_to_perf_time(&f->cfg.time_conv, f->s_ts);
		f->time_ok = 1;
	}
	e->time = f->time_val;
}

static void flush_skip(struct hwprof_pt_flow *f);

static struct hwprof_pt_event *push(struct hwprof_pt_flow *f, unsigned type, uint64_t off)
{
	/* blocks walked without events come before anything else */
	if (f->skip.ninsn)
		flush_skip(f);
	if (type == HWPROF_PT_EV_ERROR || type == HWPROF_PT_EV_OVF)
		f->skip_budget = 0; /* they count instructions their own way */
	f->skip_period = 0; /* the consumer's clock state may change */
	f->skip_walk = 0;
	/* the queue drains after every step; a full queue drops side events
	 * rather than growing (bounded memory on hostile input) */
	if (f->qn == QSIZE)
		return NULL;
	struct hwprof_pt_event *e = &f->q[(f->qh + f->qn++) % QSIZE];
	/* copied from a zero event: vector moves, where a memset's rep stos
	 * costs more than the rest of the event */
	static const struct hwprof_pt_event zero;
	*e = zero;
	e->type = (uint8_t)type;
	e->mode = (uint8_t)f->mode;
	e->offset = off;
	e->cyc = f->cyc;
	e->cyc_tot = f->s_cyc;
	e->cyc_tot_in = f->s_cyc_in;
	e->cyc_gen = f->s_sgen;
	e->have_cyc = f->s_have_cyc;
	stamp_event(f, e);
	return e;
}

/* The EV_SKIP of the blocks walked without events, into the queue. */
static void flush_skip(struct hwprof_pt_flow *f)
{
	/* no more than the budget (0 when the ticks rule let them go by) */
	f->skip_budget = f->skip_budget > f->skip.ninsn ? f->skip_budget - f->skip.ninsn : 0;
	if (f->qn < QSIZE)
		f->q[(f->qh + f->qn++) % QSIZE] = f->skip;
	f->skip.ninsn = 0;
	f->skip.payload = 0;
}

static struct tsnap now(const struct hwprof_pt_flow *f)
{
	return (struct tsnap){ .ts = f->tm.timestamp, .tsc_ts = f->tm.tsc_ts, .gen = f->tm.gen,
			       .cbr = f->tm.cbr, .cyc_tot = f->tm.ipc.tot, .cyc_sgen = f->tm.ipc.sample_gen,
			       .have_cyc = f->tm.ipc.have_cyc };
}

/* The walk used up the packet snapshot n was taken at, after walking
 * `walked` more instructions: perf's sample time moves there. Its count of
 * instructions restarts if the clock moved before that packet. */
static void use_time(struct hwprof_pt_flow *f, const struct tsnap *n, uint32_t walked)
{
	f->walking = 0;
	f->walked += walked;
	if (n->gen != f->gen_applied) {
		f->gen_applied = n->gen;
		f->tic = 0;
	}
	f->tic += f->walked;
	f->walked = 0;
	f->s_in = f->s_ts;
	f->s_ts = n->ts;
	f->s_cnt = f->tic;
	f->s_cbr = n->cbr;
	/* a sample-time state: perf takes a new cycle count here */
	f->s_cyc_in = f->s_cyc;
	f->s_cyc = n->cyc_tot;
	f->s_sgen = n->cyc_sgen;
	f->s_have_cyc = n->have_cyc;
}

/* Instructions walked without using a packet (perf's sample time stays). */
static void walk_time(struct hwprof_pt_flow *f, uint32_t walked)
{
	f->walking = 0;
	f->walked += walked;
	f->s_in = f->s_ts;
	f->s_cyc_in = f->s_cyc;
	f->s_sgen = 0; /* no sample-time state: no new cycle count */
}

/* A PSB+ used up: perf times its event by the PSB+'s TSC. */
static void psb_time(struct hwprof_pt_flow *f, const struct tsnap *n)
{
	if (n->gen != f->gen_applied) {
		f->gen_applied = n->gen;
		f->tic = 0;
		f->walked = 0; /* walked before the PSB+'s clock */
	}
	use_time(f, n, 0);
	if (n->tsc_ts)
		f->s_ts = n->tsc_ts;
}

/* An error: perf takes the clock as it is. */
static void error_time(struct hwprof_pt_flow *f)
{
	struct tsnap n = now(f);
	use_time(f, &n, f->walking);
}

static void push_val(struct hwprof_pt_flow *f, unsigned type, uint64_t off, uint64_t payload,
		     uint32_t count)
{
	struct hwprof_pt_event *e = push(f, type, off);
	if (e) {
		e->payload = payload;
		e->count = count;
	}
}

/* OVF: packets were lost; perf restarts its instruction count (an error
 * for it) and tracing resumes at the next FUP or PGE. */
static void overflow(struct hwprof_pt_flow *f, struct tsnap n, uint64_t off)
{
	n.gen = ++f->tm.gen;
	use_time(f, &n, 0);
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_OVF, off);
	if (e) /* perf's error is at the instruction it had reached */
		e->ip = f->ip;
	f->after_ovf = 1;
	f->depth = 0;
}

/* Error event, then resynchronise at the next PSB (or, with RESYNC_IP,
 * at the next packet with an IP). */
static void error(struct hwprof_pt_flow *f, unsigned kind, int err, uint64_t off)
{
	error_time(f);
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_ERROR, off);
	if (e) {
		e->err = err;
		e->count = kind;
		e->ip = f->ip;
	}
	/* a bad packet cannot be walked past by IP: it looks for a PSB */
	f->st = (f->cfg.flags & HWPROF_PT_FLOW_RESYNC_IP) && f->st != ST_SYNC && kind != HWPROF_PT_ERR_PACKET
			? ST_RESYNC : ST_SYNC;
	f->resync_ip = f->ip;
	/* perf 6.1, failing to get an instruction, goes to its NO_IP state:
	 * IP and last IP forgotten, it scans for a full IP (its non-strict
	 * build; a PSB in the way sets the last IP to 0 and resyncs there) */
	if (f->st == ST_RESYNC && kind == HWPROF_PT_ERR_NOCODE) {
		f->no_last_ip = true;
		f->resync_ip = 0;
		f->lip.ip = 0;
	}
}

/* ---- packets ----------------------------------------------------------------- */

/* Next packet (the pushed-back one first). 1: packet, 0: end, < 0: a bad
 * packet (error event queued, state set to resync). */
static int read_pkt(struct hwprof_pt_flow *f, struct hwprof_pt_packet *p, uint64_t *off)
{
	if (f->have_back) {
		f->have_back = 0;
		*p = f->back;
		*off = f->back_off;
		return 1;
	}
	for (;;) {
		*off = hwprof_pt_decoder_offset(&f->dec);
		int ret = hwprof_pt_decoder_next(&f->dec, p);
		if (ret == 1) {
			f->blocks_without_packet = 0;
			ipt_time_packet(&f->tm, p, &f->dec);
			if (p->type == HWPROF_PT_CYC)
				f->cyc += p->payload;
			return 1;
		}
		if (ret == 0)
			return 0;
		if ((f->cfg.flags & HWPROF_PT_FLOW_RESYNC_IP) && f->st != ST_SYNC && f->st != ST_END) {
			/* perf's way: report the byte and read on as if it
			 * were not there; the walk goes on */
			ipt_time_lost(&f->tm);
			error_time(f);
			struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_ERROR,
							 hwprof_pt_decoder_error_offset(&f->dec));
			if (e) {
				e->err = ret;
				e->count = HWPROF_PT_ERR_PACKET;
				e->ip = f->st == ST_RESYNC ? f->resync_ip : f->ip;
			}
			hwprof_pt_decoder_skip(&f->dec, 1);
			continue;
		}
		ipt_time_lost(&f->tm);
		error(f, HWPROF_PT_ERR_PACKET, ret, hwprof_pt_decoder_error_offset(&f->dec));
		hwprof_pt_decoder_skip(&f->dec, 1);
		return ret;
	}
}

static void unread(struct hwprof_pt_flow *f, const struct hwprof_pt_packet *p, uint64_t off)
{
	f->have_back = 1;
	f->back = *p;
	f->back_off = off;
}

/* IP of an IP packet: 1 with *ip, 0 when suppressed, < 0 bad compression. */
static int pkt_ip(struct hwprof_pt_flow *f, const struct hwprof_pt_packet *p, uint64_t *ip)
{
	int r = hwprof_pt_last_ip_update(&f->lip, p, ip);
	if (r == 1 && f->mode != 64)
		*ip &= 0xffffffff;
	return r;
}

/* Side packets: they never decide control flow. Returns 1 if handled. */
static int side(struct hwprof_pt_flow *f, const struct hwprof_pt_packet *p, uint64_t off)
{
	switch (p->type) {
	case HWPROF_PT_PAD: case HWPROF_PT_TSC: case HWPROF_PT_TMA: case HWPROF_PT_MTC:
	case HWPROF_PT_CYC: case HWPROF_PT_MNT: case HWPROF_PT_BBP: case HWPROF_PT_BIP:
	case HWPROF_PT_BEP: case HWPROF_PT_TRIG: case HWPROF_PT_PSBEND:
		return 1;
	case HWPROF_PT_CBR:
		f->cbr = (unsigned)(p->payload & 0xff);
		push_val(f, HWPROF_PT_EV_CBR, off, f->cbr, 0);
		return 1;
	case HWPROF_PT_PWRE:
		push_val(f, HWPROF_PT_EV_PWRE, off, p->payload, 0);
		return 1;
	case HWPROF_PT_PWRX:
		push_val(f, HWPROF_PT_EV_PWRX, off, p->payload, 0);
		return 1;
	case HWPROF_PT_MWAIT:
		push_val(f, HWPROF_PT_EV_MWAIT, off, p->payload, 0);
		return 1;
	case HWPROF_PT_EVD:
		push_val(f, HWPROF_PT_EV_EVD, off, p->payload, p->count);
		return 1;
	case HWPROF_PT_TRACESTOP:
		push_val(f, HWPROF_PT_EV_TRACESTOP, off, 0, 0);
		return 1;
	case HWPROF_PT_VMCS:
		push_val(f, HWPROF_PT_EV_VMCS, off, p->payload << 12, 0);
		return 1;
	case HWPROF_PT_PIP: {
		struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_PIP, off);
		if (e) {
			e->payload = (p->payload & ~1ULL) << 4;
			e->flags = (p->payload & 1) ? HWPROF_PT_EVF_NR : 0;
		}
		return 1;
	}
	case HWPROF_PT_MODE_EXEC:
		f->pending_mode = (unsigned)p->payload;
		return 1;
	case HWPROF_PT_MODE_TSX:
		f->bind |= BIND_TSX;
		f->bind_tsx = p->payload;
		f->bind_off = off;
		return 1;
	case HWPROF_PT_PTWRITE:
		if (p->ip) {
			f->bind |= BIND_PTW;
			f->bind_ptw = p->payload;
			f->bind_off = off;
		} else {
			push_val(f, HWPROF_PT_EV_PTWRITE, off, p->payload, 0);
		}
		return 1;
	case HWPROF_PT_EXSTOP:
		if (p->ip)
			f->bind |= BIND_EXSTOP;
		else
			push_val(f, HWPROF_PT_EV_EXSTOP, off, 0, 0);
		return 1;
	case HWPROF_PT_CFE:
		if (p->ip) {
			f->bind |= BIND_CFE;
			f->bind_cfe = p->payload;
			f->bind_cfe_type = p->count;
		} else {
			push_val(f, HWPROF_PT_EV_CFE, off, p->payload, p->count);
		}
		return 1;
	default:
		return 0;
	}
}

static void apply_mode(struct hwprof_pt_flow *f, uint64_t off)
{
	if (!f->pending_mode)
		return;
	if (f->pending_mode != f->mode) {
		f->mode = f->pending_mode;
		push_val(f, HWPROF_PT_EV_MODE_EXEC, off, f->mode, 0);
	}
	f->pending_mode = 0;
}

/* Events bound to a FUP at ip. */
static void emit_bound(struct hwprof_pt_flow *f, uint64_t ip, uint64_t off, const struct tsnap *n)
{
	struct hwprof_pt_event *e;
	if (f->bind & BIND_PSB)
		psb_time(f, n);
	else if (f->bind)
		use_time(f, n, 0);
	if ((f->bind & BIND_TSX) && (e = push(f, HWPROF_PT_EV_MODE_TSX, off))) {
		e->payload = f->bind_tsx;
		e->ip = ip;
	}
	if ((f->bind & BIND_PTW) && (e = push(f, HWPROF_PT_EV_PTWRITE, off))) {
		e->payload = f->bind_ptw;
		e->ip = ip;
	}
	if ((f->bind & BIND_EXSTOP) && (e = push(f, HWPROF_PT_EV_EXSTOP, off)))
		e->ip = ip;
	if ((f->bind & BIND_PSB) && (e = push(f, HWPROF_PT_EV_PSB, f->bind_psb_off)))
		e->ip = ip;
	if ((f->bind & BIND_CFE) && (e = push(f, HWPROF_PT_EV_CFE, off))) {
		e->payload = f->bind_cfe;
		e->count = f->bind_cfe_type;
		e->ip = ip;
	}
	f->bind = 0;
}

/* perf's PSB state comes after its PSB+ (with the ratio its CBR gave),
 * from the PSB+'s FUP if there is one (fip), or to it (to) */
static void psb_event(struct hwprof_pt_flow *f, uint64_t off, uint64_t fip, uint64_t to)
{
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_PSB, off);
	if (e) {
		e->ip = fip;
		e->to = to;
	}
}

/* PSB+ after its PSB: status packets up to PSBEND. Sets *fup to the status
 * FUP's IP (the next instruction) if there is one. Returns 1, 0 at the end
 * of the trace, < 0 after an error. */
static int psb_plus(struct hwprof_pt_flow *f, uint64_t *fup, int *have_fup)
{
	struct hwprof_pt_packet p;
	uint64_t off;
	*have_fup = 0;
	f->bind = 0;
	for (;;) {
		int r = read_pkt(f, &p, &off);
		if (r <= 0)
			return r;
		switch (p.type) {
		case HWPROF_PT_PSBEND:
			return 1;
		case HWPROF_PT_MODE_EXEC:
			if (p.payload != f->mode) {
				f->mode = (unsigned)p.payload;
				push_val(f, HWPROF_PT_EV_MODE_EXEC, off, f->mode, 0);
			}
			f->pending_mode = 0;
			break;
		case HWPROF_PT_MODE_TSX:
			push_val(f, HWPROF_PT_EV_MODE_TSX, off, p.payload, 0);
			break;
		case HWPROF_PT_FUP: {
			uint64_t ip;
			int ok = pkt_ip(f, &p, &ip);
			if (ok < 0) {
				error(f, HWPROF_PT_ERR_PACKET, -HWPROF_E_BAD_PACKET, off);
				return -HWPROF_E_BAD_PACKET;
			}
			if (ok == 1) {
				*fup = ip;
				*have_fup = 1;
			}
			break;
		}
		case HWPROF_PT_OVF: case HWPROF_PT_PSB: case HWPROF_PT_TNT: case HWPROF_PT_TIP:
		case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
			/* PSB+ cut short: let the caller see it */
			unread(f, &p, off);
			return 1;
		default:
			side(f, &p, off);
			break;
		}
	}
}

/* After a FUP at `fip`: what follows decides its meaning. */
static int classify_fup(struct hwprof_pt_flow *f, uint64_t fip, uint64_t foff)
{
	struct hwprof_pt_packet p;
	uint64_t off;
	f->ah = (struct ahead){ .kind = AH_FUP_STATUS, .have_ip = 1, .ip = fip, .off = foff };
	if (f->bind)
		return 1;
	for (;;) {
		int r = read_pkt(f, &p, &off);
		if (r < 0)
			return r;
		if (r == 0)
			return 1;
		if (p.type == HWPROF_PT_TIP || p.type == HWPROF_PT_TIP_PGD) {
			uint64_t ip;
			int ok = pkt_ip(f, &p, &ip);
			if (ok < 0) {
				error(f, HWPROF_PT_ERR_PACKET, -HWPROF_E_BAD_PACKET, off);
				return -HWPROF_E_BAD_PACKET;
			}
			f->ah.kind = p.type == HWPROF_PT_TIP ? AH_FUP_ASYNC : AH_FUP_DISABLE;
			f->ah.have_to = ok == 1;
			f->ah.to = ok == 1 ? ip : 0;
			if (p.type == HWPROF_PT_TIP && ok != 1) {
				error(f, HWPROF_PT_ERR_NOIP, -HWPROF_E_CORRUPT, off);
				return -HWPROF_E_CORRUPT;
			}
			return 1;
		}
		/* packets that bind to a later FUP end the look-ahead */
		if (p.type != HWPROF_PT_MODE_TSX && p.type != HWPROF_PT_PTWRITE &&
		    p.type != HWPROF_PT_EXSTOP && p.type != HWPROF_PT_CFE && side(f, &p, off))
			continue;
		unread(f, &p, off);
		return 1;
	}
}

/* Reads packets until the next one that decides control flow: loads TNT
 * bits or sets f->ah. Returns 1, or < 0 after an error. With may_pause, it
 * returns 0 (nothing decided yet) when side events (PTWRITE, power, ...)
 * fill the event queue, so they are handed out before it goes on. */
static int fetch(struct hwprof_pt_flow *f, int may_pause)
{
	struct hwprof_pt_packet p;
	uint64_t off;
	f->look_off = f->have_back ? f->back_off : hwprof_pt_decoder_offset(&f->dec);
	for (;;) {
		if (may_pause && f->qn > QSIZE - QROOM)
			return 0;
		int r = read_pkt(f, &p, &off);
		if (r < 0)
			return r;
		if (r == 0 && f->dec.len < f->total_len) {
			/* the end of a buffer the next does not continue: perf
			 * repositions at once, walking no further */
			f->st = ST_END;
			return 0;
		}
		if (r == 0) {
			f->ah = (struct ahead){ .kind = AH_EOS,
						.off = hwprof_pt_decoder_offset(&f->dec), .snap = now(f) };
			return 1;
		}
		if (side(f, &p, off))
			continue;
		uint64_t ip = 0;
		int ok;
		switch (p.type) {
		case HWPROF_PT_TNT:
			f->tnt = p.payload;
			f->ntnt = p.count;
			f->tnt_off = off;
			f->tnt_snap = now(f);
			f->tnt_used = 0;
			if (!p.count)
				continue;
			return 1;
		case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
		case HWPROF_PT_FUP:
			ok = pkt_ip(f, &p, &ip);
			if (ok < 0) {
				error(f, HWPROF_PT_ERR_PACKET, -HWPROF_E_BAD_PACKET, off);
				return ok;
			}
			if (p.type == HWPROF_PT_FUP) {
				if (ok != 1)
					continue; /* FUP without IP carries nothing to bind */
				if (f->after_ovf) { /* OVF, FUP: where tracing resumes */
					f->ah = (struct ahead){ .kind = AH_FUP_STATUS, .have_ip = 1,
								.ip = ip, .off = off, .snap = now(f) };
					return 1;
				}
				struct tsnap at_fup = now(f);
				r = classify_fup(f, ip, off);
				f->ah.snap = now(f); /* perf's walk reads on to the TIP */
				f->ah.wsnap = at_fup;
				f->ah.have_wsnap = 1;
				return r;
			}
			f->ah = (struct ahead){
				.kind = p.type == HWPROF_PT_TIP ? AH_TIP :
					p.type == HWPROF_PT_TIP_PGE ? AH_PGE : AH_PGD,
				.have_ip = ok == 1, .ip = ip, .off = off, .snap = now(f) };
			return 1;
		case HWPROF_PT_OVF:
			f->ah = (struct ahead){ .kind = AH_OVF, .off = off, .snap = now(f) };
			return 1;
		case HWPROF_PT_PSB: {
			uint64_t fip;
			int have;
			struct tsnap before = now(f);
			hwprof_pt_last_ip_update(&f->lip, &p, NULL);
			r = psb_plus(f, &fip, &have);
			if (r < 0)
				return r;
			struct tsnap n = now(f);
			if (f->st == ST_OFF && have) {
				/* tracing is on at a PSB+ with FUP: resume there */
				psb_time(f, &n);
				psb_event(f, off, fip, 0);
				f->ah = (struct ahead){ .kind = AH_PGE, .have_ip = 1, .ip = fip,
							.off = off, .snap = n };
				f->after_ovf = 2; /* mark: status enable */
				return 1;
			}
			if (f->st == ST_ON && have && !f->bind) {
				/* the PSB shows where the walk reaches its FUP (as
				 * perf reports it), like a status FUP */
				f->bind = BIND_PSB;
				f->bind_psb_off = off;
				/* perf looks ahead for the FUP and walks to it
				 * before it reads the PSB+'s timing packets */
				f->ah = (struct ahead){ .kind = AH_FUP_STATUS, .have_ip = 1, .have_wsnap = 1, .ip = fip,
							.off = off, .snap = n, .wsnap = before };
				return 1;
			}
			psb_time(f, &n);
			push(f, HWPROF_PT_EV_PSB, off);
			continue;
		}
		default:
			continue;
		}
	}
}

/* ---- walking ----------------------------------------------------------------- */

static void stack_push(struct hwprof_pt_flow *f, uint64_t ret)
{
	f->sp = (f->sp + 1) % STACK_DEPTH;
	f->stack[f->sp] = ret;
	if (f->depth < STACK_DEPTH)
		f->depth++;
}

static int stack_pop(struct hwprof_pt_flow *f, uint64_t *ret)
{
	if (!f->depth)
		return 0;
	*ret = f->stack[f->sp];
	f->sp = (f->sp + STACK_DEPTH - 1) % STACK_DEPTH;
	f->depth--;
	return 1;
}

static void enable(struct hwprof_pt_flow *f, uint64_t ip, uint64_t off, unsigned flags,
		   unsigned pkt_type)
{
	apply_mode(f, off);
	f->ip = ip;
	f->st = ST_ON;
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_ENABLE, off);
	if (e) {
		e->ip = ip;
		e->flags = (uint8_t)flags;
		e->payload = pkt_type;
	}
}

static void disable(struct hwprof_pt_flow *f, uint64_t off, unsigned flags)
{
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_DISABLE, off);
	if (e) {
		e->ip = f->ip;
		e->to = f->ah.have_to ? f->ah.to : (f->ah.kind == AH_PGD && f->ah.have_ip ? f->ah.ip : 0);
		e->flags = (uint8_t)flags;
	}
	f->st = ST_OFF;
	f->ah.kind = AH_NONE;
}

static void sync_state_reset(struct hwprof_pt_flow *f)
{
	f->ntnt = 0;
	f->ah.kind = AH_NONE;
	f->have_back = 0;
	f->bind = 0;
	f->depth = 0;
	f->pending_mode = 0;
	hwprof_pt_last_ip_init(&f->lip);
}

static void step_sync(struct hwprof_pt_flow *f)
{
	sync_state_reset(f);
	if (hwprof_pt_decoder_sync(&f->dec) < 0) {
		f->st = ST_END;
		return;
	}
	f->sync_off = hwprof_pt_decoder_offset(&f->dec);
	struct hwprof_pt_packet p;
	uint64_t off, fip;
	int have;
	if (read_pkt(f, &p, &off) <= 0) {
		f->st = ST_END;
		return;
	}
	hwprof_pt_last_ip_update(&f->lip, &p, NULL);
	f->st = ST_OFF;
	int r = psb_plus(f, &fip, &have);
	struct tsnap n = now(f);
	psb_time(f, &n);
	psb_event(f, off, r > 0 && have ? fip : 0, 0);
	if (f->qn) /* a synchronisation's (perf's intel_pt_sync() keeps its psb_offset) */
		f->q[(f->qh + f->qn - 1) % QSIZE].count = 1;
	if (r == 0)
		f->st = ST_END;
	else if (r > 0 && have)
		enable(f, fip, off, HWPROF_PT_EVF_STATUS, HWPROF_PT_PSB);
}

/* perf's recovery after an error in the walk: TNT bits are dropped and
 * the next packet with an IP (TIP, TIP.PGE, FUP, a PSB+'s FUP) is where
 * the trace begins again; the last IP is kept for its compression. */
static void step_resync(struct hwprof_pt_flow *f)
{
	f->ntnt = 0;
	f->ah.kind = AH_NONE;
	f->bind = 0;
	f->pending_mode = 0;
	for (;;) {
		struct hwprof_pt_packet p;
		uint64_t off, ip;
		int r = read_pkt(f, &p, &off);
		if (r == 0) {
			f->st = ST_END;
			return;
		}
		if (r < 0)
			return; /* bad packet: error queued, looking for a PSB */
		switch (p.type) {
		case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_FUP:
		case HWPROF_PT_TIP_PGD:
			/* with no last IP a compressed one is no IP at all */
			if (f->no_last_ip && (p.count == 1 || p.count == 2 || p.count == 4))
				break;
			/* an IP packet without its IP stands for the last IP
			 * known, where the error was */
			r = pkt_ip(f, &p, &ip);
			if (r < 0)
				break;
			if (r == 0)
				ip = f->resync_ip;
			if (!ip)
				break;
			f->no_last_ip = false;
			struct tsnap at = now(f);
			use_time(f, &at, 0);
			if (p.type == HWPROF_PT_TIP_PGD) { /* begins and ends there */
				enable(f, ip, off, HWPROF_PT_EVF_STATUS | HWPROF_PT_EVF_END, p.type);
				f->st = ST_OFF;
			} else {
				enable(f, ip, off, HWPROF_PT_EVF_STATUS, p.type);
			}
			return;
		case HWPROF_PT_OVF:
			f->no_last_ip = false;
			overflow(f, now(f), off);
			f->st = ST_OFF;
			return;
		case HWPROF_PT_PSB: {
			uint64_t fip;
			int have;
			f->no_last_ip = false;
			hwprof_pt_last_ip_update(&f->lip, &p, NULL);
			f->depth = 0;
			r = psb_plus(f, &fip, &have);
			struct tsnap n = now(f);
			psb_time(f, &n);
			/* perf's scan for an IP makes the PSB state a start at
			 * the FUP: from nowhere */
			psb_event(f, off, 0, r > 0 && have ? fip : 0);
			if (r == 0) {
				f->st = ST_END;
				return;
			}
			if (r > 0 && have) {
				enable(f, fip, off, HWPROF_PT_EVF_STATUS, HWPROF_PT_PSB);
				return;
			}
			if (r < 0 || f->qn)
				return;
			break;
		}
		default:
			side(f, &p, off);
			if (f->qn > QSIZE - QROOM)
				return;
			break;
		}
	}
}

static void step_off(struct hwprof_pt_flow *f)
{
	if (f->ah.kind == AH_NONE) {
		f->ntnt = 0;
		if (fetch(f, 1) <= 0)
			return;
	}
	struct ahead a = f->ah;
	f->ah.kind = AH_NONE;
	switch (a.kind) {
	case AH_EOS:
		f->st = ST_END;
		break;
	case AH_PGE:
		if (!a.have_ip) {
			error(f, HWPROF_PT_ERR_NOIP, -HWPROF_E_CORRUPT, a.off);
			break;
		}
		use_time(f, &a.snap, 0);
		enable(f, a.ip, a.off, f->after_ovf ? HWPROF_PT_EVF_STATUS : 0,
		       f->after_ovf == 2 ? HWPROF_PT_PSB : HWPROF_PT_TIP_PGE);
		f->after_ovf = 0;
		break;
	case AH_FUP_STATUS: case AH_FUP_ASYNC: case AH_FUP_DISABLE:
		emit_bound(f, a.ip, a.off, &a.snap);
		if (f->after_ovf) { /* OVF, FUP: tracing resumes at the FUP */
			f->after_ovf = 0;
			use_time(f, &a.snap, 0);
			enable(f, a.ip, a.off, HWPROF_PT_EVF_STATUS, HWPROF_PT_FUP);
			if (a.kind == AH_FUP_ASYNC) {
				f->ah = a; /* the async branch happens right there */
			} else if (a.kind == AH_FUP_DISABLE) {
				f->ah = a;
			}
		}
		break;
	case AH_OVF:
		overflow(f, a.snap, a.off);
		break;
	default: /* TIP/PGD while disabled: nothing to follow */
		break;
	}
}

/* The TNT bit for a conditional branch or compressed return: 1/0, or -1
 * when the next packet is something else (f->ah says what). */
static int tnt_bit(struct hwprof_pt_flow *f)
{
	if (!f->ntnt) {
		if (f->ah.kind != AH_NONE)
			return -1;
		if (fetch(f, 0) < 0)
			return -2;
		if (!f->ntnt)
			return -1;
	}
	int bit = (int)(f->tnt >> 63);
	f->tnt <<= 1;
	f->ntnt--;
	return bit;
}

/* A TIP needed while TNT bits remain: the CPU may defer TIPs behind a TNT
 * that is still filling (SDM "Deferred TIPs"); they follow the TNT packet
 * in order. 1 with *to, < 0 on error (event done). */
static int deferred_tip(struct hwprof_pt_flow *f, uint64_t *to)
{
	struct hwprof_pt_packet p;
	uint64_t off;
	for (;;) {
		int r = read_pkt(f, &p, &off);
		if (r < 0)
			return -2;
		if (r > 0 && p.type != HWPROF_PT_MODE_TSX && p.type != HWPROF_PT_PTWRITE &&
		    p.type != HWPROF_PT_EXSTOP && p.type != HWPROF_PT_CFE && side(f, &p, off))
			continue;
		if (r > 0 && p.type == HWPROF_PT_TIP && pkt_ip(f, &p, to) == 1) {
			apply_mode(f, off);
			return 1;
		}
		if (r > 0)
			unread(f, &p, off);
		error(f, HWPROF_PT_ERR_TIP, -HWPROF_E_CORRUPT, r > 0 ? off : f->tnt_off);
		return -1;
	}
}

/* For a branch that needs a TIP: 1 with the target in *to, 0 when tracing
 * stopped (TIP.PGD; disable event done), < 0 on error (event done). */
static int need_tip(struct hwprof_pt_flow *f, uint64_t *to)
{
	if (f->ntnt)
		return deferred_tip(f, to);
	if (f->ah.kind == AH_NONE && fetch(f, 0) < 0)
		return -2;
	if (f->ah.kind == AH_TIP) {
		if (!f->ah.have_ip) {
			error(f, HWPROF_PT_ERR_NOIP, -HWPROF_E_CORRUPT, f->ah.off);
			return -1;
		}
		*to = f->ah.ip;
		apply_mode(f, f->ah.off);
		f->ah.kind = AH_NONE;
		return 1;
	}
	if (f->ah.kind == AH_PGD)
		return 0;
	if (f->ah.kind == AH_EOS) {
		f->st = ST_END;
		return -1;
	}
	error(f, HWPROF_PT_ERR_TIP, -HWPROF_E_CORRUPT, f->ah.off);
	return -1;
}

/* The clock perf's walk of the next block goes by: the loaded TNT's, or
 * the next packet's (perf reads it before walking on); a new clock
 * restarts the count of instructions walked by it. */
static void walk_clock(struct hwprof_pt_flow *f)
{
	const struct tsnap *d = f->ntnt ? &f->tnt_snap : f->ah.have_wsnap ? &f->ah.wsnap : &f->ah.snap;
	if (d->gen != f->w_gen) {
		f->w_gen = d->gen;
		f->w_cnt = 0;
	}
	f->w_ts = d->ts;
}

static struct hwprof_pt_event *emit_block(struct hwprof_pt_flow *f, const struct ipt_block *b,
					  uint32_t n, uint64_t end_ip)
{
	struct hwprof_pt_event *e = push(f, HWPROF_PT_EV_BLOCK, f->ah.off);
	if (e) {
		e->ip = b->ip;
		e->end_ip = end_ip;
		e->ninsn = n;
		e->ilen = ipt_bcache_lens(f->cache, b);
		e->walk_ts = f->w_ts;
		e->walk_cnt = f->w_cnt;
	}
	f->skip_budget = f->skip_budget > n ? f->skip_budget - n : 0;
	f->w_cnt += n;
	f->fup_reached = 0;
	return e;
}

/* A block walked to its branch (or to a block the cache split off): an
 * event, unless the skip budget lets it go by in the next EV_SKIP */
static void emit_walked(struct hwprof_pt_flow *f, const struct ipt_block *b, unsigned flags, uint64_t to)
{
	uint64_t n = b->ninsn, walk = 0;
	bool pass = false;
	if (f->skip_budget) {
		pass = f->skip.ninsn + n <= f->skip_budget;
	} else if (f->skip_period) {
		/* perf's next_period() at the start of a walk */
		uint64_t left = f->skip_walk;
		if (!left) {
			uint64_t t = f->w_ts + f->w_cnt + f->skip_bias, m = t & ~(f->skip_period - 1);
			left = m > f->skip_last ? 0 : m < f->skip_last ? f->skip_period : f->skip_period - (t - m);
		}
		pass = left > n;
		/* the walk goes on past a block without a branch */
		walk = pass && b->iclass == HWPROF_PT_IC_OTHER ? left - n : 0;
	}
	/* (an EV_SKIP counts in 32 bits) */
	if (pass && !(b->end_ip >> 63) && f->skip.ninsn + n < UINT32_MAX) {
		f->skip.payload = f->skip_walk = walk;
		struct hwprof_pt_event *k = &f->skip;
		if (!k->ninsn) {
			k->type = HWPROF_PT_EV_SKIP;
			k->ip = b->ip;
			k->tsc = f->s_ts;
		}
		k->ninsn += (uint32_t)n;
		k->end_ip = b->end_ip;
		k->iclass = b->iclass;
		k->flags = (uint8_t)flags;
		k->to = to;
		k->count = b->last_len;
		k->mode = (uint8_t)f->mode;
		if (f->s_ts > k->tsc)
			k->tsc = f->s_ts;
		f->w_cnt += n;
		f->fup_reached = 0;
		return;
	}
	struct hwprof_pt_event *e = emit_block(f, b, b->ninsn, b->end_ip);
	if (e) {
		e->iclass = b->iclass;
		e->flags = (uint8_t)flags;
		e->to = to;
	}
}

static void step_on(struct hwprof_pt_flow *f)
{
	if (!f->ntnt && f->ah.kind == AH_NONE) {
		/* fetch() notes where it starts: packets read ahead are not
		 * used up by the walk, so an error in the code (not in the
		 * trace) resynchronises from there */
		if (fetch(f, 1) <= 0)
			return;
	}
	if (f->st != ST_ON)
		return;
	struct ahead *a = &f->ah;
	int fup = a->kind == AH_FUP_ASYNC || a->kind == AH_FUP_DISABLE || a->kind == AH_FUP_STATUS;
	if (fup && f->ntnt) {
		error(f, HWPROF_PT_ERR_FUP, -HWPROF_E_CORRUPT, a->off);
		return;
	}
	if (fup && a->ip == f->ip) {
		/* perf walks to a FUP that is not a PSB+'s even when it is
		 * there already (the walk stops at once), unless the walk
		 * that got there was this one */
		bool walk0 = !(f->bind & BIND_PSB) && !f->fup_reached;
		if (walk0)
			walk_clock(f);
		emit_bound(f, a->ip, a->off, &a->snap);
		if (a->kind != AH_FUP_STATUS)
			use_time(f, &a->snap, 0);
		struct hwprof_pt_event *e = NULL;
		if (a->kind == AH_FUP_ASYNC) {
			e = push(f, HWPROF_PT_EV_ASYNC, a->off);
			if (e) {
				e->ip = a->ip;
				e->to = a->to;
			}
			apply_mode(f, a->off);
			f->ip = a->to;
			a->kind = AH_NONE;
		} else if (a->kind == AH_FUP_DISABLE) {
			unsigned qn = f->qn;
			disable(f, a->off, HWPROF_PT_EVF_ASYNC);
			if (f->qn > qn)
				e = &f->q[(f->qh + f->qn - 1) % QSIZE];
		} else {
			a->kind = AH_NONE;
		}
		if (e && walk0) {
			e->flags |= HWPROF_PT_EVF_WALK0;
			e->walk_ts = f->w_ts;
			e->walk_cnt = f->w_cnt;
		}
		f->fup_reached = 0;
		return;
	}
	if (a->kind == AH_OVF) {
		overflow(f, a->snap, a->off);
		a->kind = AH_NONE;
		f->st = ST_OFF;
		return;
	}
	if (a->kind == AH_PGE) { /* enable while on: take it as a new start */
		a->kind = AH_NONE;
		if (a->have_ip) {
			use_time(f, &a->snap, 0);
			enable(f, a->ip, a->off, 0, HWPROF_PT_TIP_PGE);
		}
		return;
	}
	walk_clock(f);
	const struct ipt_block *b;
	struct hwprof_pt_image *im = ipt_image_for(f->img, f->ip);
	struct ipt_bcache *c = im == f->img ? f->cache : ipt_image_cache(im);
	long *last = im == f->img ? &f->last_blk : &f->klast_blk;
	if (!ipt_bcache_link(c, last, f->ip, f->mode, &b) && ipt_bcache_next(c, im, last, f->ip, f->mode, &b) < 0) {
		error(f, HWPROF_PT_ERR_NOCODE, -HWPROF_E_NOMEM, a->off);
		return;
	}
	/* branches walked without a packet, not blocks: where the cache
	 * splits a run of instructions depends on what it decoded before,
	 * and the error must not */
	if (b->iclass != HWPROF_PT_IC_OTHER && ++f->blocks_without_packet > MAX_BLOCKS_WITHOUT_PACKET) {
		error(f, HWPROF_PT_ERR_LOOP, -HWPROF_E_CORRUPT, hwprof_pt_decoder_offset(&f->dec));
		return;
	}
	if (!b->ninsn) {
		error(f, HWPROF_PT_ERR_NOCODE, -HWPROF_E_NOENT, f->look_off);
		if (f->st == ST_SYNC) {
			/* looking for a PSB: from the packets read ahead on, but
			 * never before the last sync's (every resync moves on) */
			uint64_t to = f->look_off > f->sync_off ? f->look_off : f->sync_off + 1;
			if (to < hwprof_pt_decoder_offset(&f->dec)) {
				hwprof_pt_decoder_seek(&f->dec, (size_t)to);
				f->have_back = 0;
			}
		} else if (!f->ntnt && (a->kind == AH_FUP_ASYNC || a->kind == AH_FUP_DISABLE ||
					(a->kind == AH_FUP_STATUS && !(f->bind & BIND_PSB)))) {
			/* perf read the packet that drove its walk and scans on
			 * after it (nothing read is read twice: the clock took
			 * it in); only a FUP's TIP was read further than that */
			struct hwprof_pt_packet p;
			hwprof_pt_decoder_seek(&f->dec, (size_t)a->off);
			hwprof_pt_decoder_next(&f->dec, &p);
			f->have_back = 0;
		}
		a->kind = AH_NONE;
		return;
	}
	if (fup && a->ip > b->ip && a->ip <= b->end_ip) {
		/* stop at the FUP's instruction */
		const uint8_t *len = ipt_bcache_lens(f->cache, b);
		uint64_t ip = b->ip;
		uint32_t k = 0;
		while (k < b->ninsn && ip < a->ip)
			ip += len[k++];
		if (ip == a->ip) {
			walk_time(f, k);
			struct hwprof_pt_event *e = emit_block(f, b, k, ip - len[k - 1]);
			if (e)
				e->flags = HWPROF_PT_EVF_AT_IP;
			f->fup_reached = 1;
			f->ip = ip;
			return;
		}
	}
	uint64_t next = b->end_ip + b->last_len, to = 0;
	unsigned flags = 0, q0 = f->qn, skipped = f->skip.ninsn;
	int r;
	f->walking = b->ninsn;
	switch (b->iclass) {
	case HWPROF_PT_IC_JCC:
		r = tnt_bit(f);
		if (r == -1 && f->ah.kind == AH_PGD && f->ah.have_ip && f->ah.ip == b->target)
			r = 2; /* taken out of the traced range */
		if (r == -1 && f->ah.kind == AH_EOS) {
			f->st = ST_END;
			goto unresolved;
		}
		if (r == -1)
			error(f, HWPROF_PT_ERR_TNT, -HWPROF_E_CORRUPT, f->ah.off);
		if (r < 0)
			goto unresolved;
		if (r) {
			flags = HWPROF_PT_EVF_TAKEN;
			to = b->target;
		}
		if (r == 2) {
			use_time(f, &f->ah.snap, b->ninsn);
			struct hwprof_pt_event *e = emit_block(f, b, b->ninsn, b->end_ip);
			if (e) {
				e->iclass = b->iclass;
				e->flags = (uint8_t)flags;
				e->to = to;
			}
			f->ip = to;
			disable(f, f->ah.off, 0);
			return;
		}
		use_time(f, &f->tnt_snap, b->ninsn);
		f->tnt_used = 1;
		f->ip = r ? b->target : next;
		break;
	case HWPROF_PT_IC_JMP: case HWPROF_PT_IC_CALL:
		if (b->iclass == HWPROF_PT_IC_CALL)
			stack_push(f, next);
		flags = HWPROF_PT_EVF_TAKEN;
		to = f->ip = b->target;
		if (!f->ntnt && f->ah.kind == AH_PGD && f->ah.have_ip && f->ah.ip == to) {
			use_time(f, &f->ah.snap, b->ninsn);
			struct hwprof_pt_event *e = emit_block(f, b, b->ninsn, b->end_ip);
			if (e) {
				e->iclass = b->iclass;
				e->flags = (uint8_t)flags;
				e->to = to;
			}
			disable(f, f->ah.off, 0);
			return;
		}
		/* perf updates its sample time only between two bits of a TNT */
		if (f->ntnt && f->tnt_used)
			use_time(f, &f->tnt_snap, b->ninsn);
		else
			walk_time(f, b->ninsn);
		break;
	case HWPROF_PT_IC_RET:
		if (!(f->cfg.flags & HWPROF_PT_FLOW_NORETCOMP) &&
		    (f->ntnt || (f->ah.kind == AH_NONE && fetch(f, 0) >= 0 && f->ntnt))) {
			/* the return address leaves the stack at the RET whatever
			 * the bit says (perf's decoder does the same) */
			int popped = stack_pop(f, &to);
			if (tnt_bit(f) != 1 || !popped) {
				error(f, HWPROF_PT_ERR_RET, -HWPROF_E_CORRUPT, f->tnt_off);
				goto unresolved;
			}
			flags = HWPROF_PT_EVF_TAKEN | HWPROF_PT_EVF_COMPRESSED;
			use_time(f, &f->tnt_snap, b->ninsn);
			f->tnt_used = 1;
			f->ip = to;
			break;
		}
		if (f->st != ST_ON)
			goto unresolved;
		/* fall through */
	default:
		if (b->iclass == HWPROF_PT_IC_OTHER || b->iclass == HWPROF_PT_IC_PTWRITE) {
			walk_time(f, b->ninsn);
			f->ip = next;
			break;
		}
		/* a call pushes its return address whatever its TIP says
		 * (the hardware does; perf's decoder too) */
		if (b->iclass == HWPROF_PT_IC_CALL_IND)
			stack_push(f, next);
		int deferred = f->ntnt != 0;
		r = need_tip(f, &to);
		if (r < 0)
			goto unresolved;
		if (r == 0) { /* TIP.PGD: the branch left the traced range */
			use_time(f, &f->ah.snap, b->ninsn);
			struct hwprof_pt_event *e = emit_block(f, b, b->ninsn, b->end_ip);
			if (e) {
				e->iclass = b->iclass;
				/* taken, to an address the trace does not show */
				e->to = f->ah.have_ip ? f->ah.ip : 0;
				e->flags = HWPROF_PT_EVF_TAKEN;
			}
			f->ip = next;
			disable(f, f->ah.off, 0);
			return;
		}
		if (b->iclass == HWPROF_PT_IC_RET) {
			uint64_t dummy;
			stack_pop(f, &dummy); /* the hardware pops on every RET */
		}
		if (!deferred)
			use_time(f, &f->ah.snap, b->ninsn);
		else if (f->tnt_used)
			use_time(f, &f->tnt_snap, b->ninsn);
		else
			walk_time(f, b->ninsn);
		flags = HWPROF_PT_EVF_TAKEN;
		f->ip = to;
		break;
	}
	emit_walked(f, b, flags, to);
	return;
unresolved:
	if (f->walking) /* no error event took them */
		f->walked += f->walking;
	f->walking = 0;
	/* the blocks walked before this one, flushed by the error: they stay
	 * first */
	if (skipped && !f->skip.ninsn && f->qn > q0 && f->q[(f->qh + q0) % QSIZE].type == HWPROF_PT_EV_SKIP)
		q0++;
	/* the error is at the branch that could not be resolved */
	unsigned nerr = 0;
	for (unsigned i = q0; i < f->qn; i++) {
		struct hwprof_pt_event *x = &f->q[(f->qh + i) % QSIZE];
		if (x->type == HWPROF_PT_EV_ERROR) {
			x->ip = f->resync_ip = b->end_ip;
			x->ninsn = 1; /* the branch: walked, in no block */
			nerr++;
		}
	}
	/* the instructions before the unresolved branch did run: report them
	 * ahead of the error */
	if (b->ninsn > 1) {
		const uint8_t *len = ipt_bcache_lens(f->cache, b);
		walk_time(f, 0);
		if (emit_block(f, b, b->ninsn - 1, b->end_ip - len[b->ninsn - 2]))
			for (unsigned i = f->qn - 1; i > q0; i--) {
				struct hwprof_pt_event *x = &f->q[(f->qh + i) % QSIZE];
				struct hwprof_pt_event *y = &f->q[(f->qh + i - 1) % QSIZE];
				struct hwprof_pt_event tmp = *x;
				*x = *y;
				*y = tmp;
			}
	}
	/* perf walked the branch too, by the same clock */
	for (unsigned i = q0; i < f->qn && nerr; i++) {
		struct hwprof_pt_event *x = &f->q[(f->qh + i) % QSIZE];
		if (x->type == HWPROF_PT_EV_ERROR) {
			x->walk_ts = f->w_ts;
			x->walk_cnt = f->w_cnt;
		}
	}
	f->w_cnt += nerr;
}
static void flow_init(struct hwprof_pt_flow *f, const void *buf, size_t len, struct hwprof_pt_image *img,
		      const struct hwprof_pt_flow_config *cfg)
{
	memset(f, 0, sizeof(*f));
	f->total_len = len;
	f->cache = ipt_image_cache(img);
	f->last_blk = f->klast_blk = -1;
	hwprof_pt_decoder_init(&f->dec, buf, len, 0);
	hwprof_pt_last_ip_init(&f->lip);
	if (cfg)
		f->cfg = *cfg;
	if (f->cfg.mtc_freq > 15)
		f->cfg.mtc_freq = 15;
	f->mode = f->cfg.initial_mode == 16 || f->cfg.initial_mode == 32 ? f->cfg.initial_mode : 64;
	f->img = img;
	f->st = ST_SYNC;
	ipt_time_init(&f->tm, f->cfg.tsc_ctc_n, f->cfg.tsc_ctc_d, f->cfg.mtc_freq, f->cfg.max_nonturbo_ratio,
		      f->cfg.ref_tsc);
	if (f->cfg.flags & HWPROF_PT_FLOW_CYC_COUNT)
		ipt_time_cyc_count(&f->tm, f->cfg.cyc_threshold);
}

HWPROF_API int hwprof_pt_flow_new(struct hwprof_pt_flow **flow, const void *buf, size_t len,
				  struct hwprof_pt_image *img,
				  const struct hwprof_pt_flow_config *cfg)
{
	if (!flow || !img || (!buf && len))
		return -HWPROF_E_INVAL;
	struct hwprof_pt_flow *f = calloc(1, sizeof(*f));
	if (!f)
		return -HWPROF_E_NOMEM;
	flow_init(f, len ? buf : "", len, img, cfg);
	*flow = f;
	return 0;
}

HWPROF_API int hwprof_pt_flow_set_image(struct hwprof_pt_flow *f, struct hwprof_pt_image *img)
{
	if (!f || !img)
		return -HWPROF_E_INVAL;
	if (img != f->img) { /* the walk goes on in another address space */
		f->img = img;
		f->cache = ipt_image_cache(img);
		f->last_blk = f->klast_blk = -1;
	}
	return 0;
}

/* The trace ends at offset for now (a buffer that is not continued). */
HWPROF_API int hwprof_pt_flow_set_end(struct hwprof_pt_flow *f, uint64_t end)
{
	if (!f || end > f->total_len || end < hwprof_pt_decoder_offset(&f->dec))
		return -HWPROF_E_INVAL;
	f->dec.len = (size_t)end;
	return 0;
}

HWPROF_API uint64_t hwprof_pt_flow_end(const struct hwprof_pt_flow *f)
{
	return f ? f->dec.len : 0;
}

/* perf's intel_pt_reposition() and the sync after it: nothing of the
 * walk or the IPs is kept. Its clock is: only the time and the TMA are
 * forgotten, so a TSC sets the time again only with a new buffer's
 * reference (until then the MTCs count from the old TMA, as perf's do). */
HWPROF_API int hwprof_pt_flow_seek(struct hwprof_pt_flow *f, uint64_t offset, uint64_t ref_tsc)
{
	if (!f || offset > f->total_len)
		return -HWPROF_E_INVAL;
	const uint8_t *buf = f->dec.buf;
	size_t len = f->dec.len, total = f->total_len;
	struct hwprof_pt_flow_config cfg = f->cfg;
	struct ipt_time tm = f->tm;
	flow_init(f, buf, total, f->img, &cfg);
	f->dec.len = len > offset ? len : total; /* the end set before, if past offset */
	f->tm = tm;
	f->tm.timestamp = 0;
	f->tm.have_tma = false;
	f->tm.ipc.pge = false; /* perf's intel_pt_sync() */
	if (ref_tsc)
		f->tm.ref_tsc = f->tm.buf_tsc = ref_tsc;
	return hwprof_pt_decoder_seek(&f->dec, (size_t)offset);
}

HWPROF_API void hwprof_pt_flow_free(struct hwprof_pt_flow *flow)
{
	if (!flow)
		return;
	free(flow);
}

HWPROF_API void hwprof_pt_flow_stats(const struct hwprof_pt_flow *flow, uint64_t *decoded,
				     uint64_t *hits)
{
	if (decoded)
		*decoded = flow ? flow->cache->decoded : 0;
	if (hits)
		*hits = flow ? flow->cache->hits : 0;
}

HWPROF_API int hwprof_pt_flow_next_ref(struct hwprof_pt_flow *f, const struct hwprof_pt_event **ev)
{
	if (!f || !ev)
		return -HWPROF_E_INVAL;
	while (!f->qn) {
		switch (f->st) {
		case ST_SYNC: step_sync(f); break;
		case ST_OFF: step_off(f); break;
		case ST_ON: step_on(f); break;
		case ST_RESYNC: step_resync(f); break;
		case ST_END:
			if (!f->skip.ninsn)
				return 0;
			flush_skip(f);
			break;
		}
	}
	/* the slot is reused only by the steps of the next call */
	*ev = &f->q[f->qh];
	f->qh = (f->qh + 1) % QSIZE;
	f->qn--;
	return 1;
}

HWPROF_API void hwprof_pt_flow_skip(struct hwprof_pt_flow *f, uint64_t ninsn)
{
	/* queued events were walked under the budget given before */
	if (f && !f->qn)
		f->skip_budget = ninsn;
}

HWPROF_API void hwprof_pt_flow_skip_ticks(struct hwprof_pt_flow *f, uint64_t period, uint64_t last,
					  uint64_t bias, uint64_t walk_left)
{
	if (f && !f->qn && !(period & (period - 1))) {
		f->skip_period = period;
		f->skip_last = last;
		f->skip_bias = bias;
		f->skip_walk = walk_left;
	}
}

HWPROF_API int hwprof_pt_flow_next(struct hwprof_pt_flow *f, struct hwprof_pt_event *ev)
{
	const struct hwprof_pt_event *e;
	int rc = ev ? hwprof_pt_flow_next_ref(f, &e) : -HWPROF_E_INVAL;
	if (rc == 1)
		*ev = *e;
	return rc;
}

/* ---- state for the parallel decoder (pt_flow_par.c) ---------------------------- */

int ipt_flow_state(const struct hwprof_pt_flow *f, struct ipt_flow_state *s)
{
	memset(s, 0, sizeof(*s));
	if (f->qn || f->skip.ninsn)
		return 0; /* events queued: the state is ahead of them */
	s->pos = hwprof_pt_decoder_offset(&f->dec);
	s->ctx = f->dec.ctx;
	s->st = f->st;
	s->ip = f->ip;
	s->mode = f->mode;
	s->pending_mode = f->pending_mode;
	s->after_ovf = f->after_ovf;
	s->tnt = f->ntnt ? f->tnt : 0;
	s->ntnt = f->ntnt;
	s->ah_kind = f->ah.kind;
	if (f->ah.kind != AH_NONE) { /* else stale */
		s->ah_have_ip = f->ah.have_ip;
		s->ah_have_to = f->ah.have_to;
		s->ah_ip = f->ah.ip;
		s->ah_to = f->ah.to;
		s->ah_off = f->ah.off;
		s->ah_snap_ts = f->ah.snap.ts;
		s->ah_snap_tsc = f->ah.snap.tsc_ts;
		s->ah_snap_cbr = f->ah.snap.cbr;
		s->ah_gen_new = f->ah.snap.gen != f->gen_applied;
	}
	s->have_back = f->have_back;
	s->back_off = f->have_back ? f->back_off : 0;
	s->bind = f->bind;
	s->bind_tsx = f->bind_tsx;
	s->bind_ptw = f->bind_ptw;
	s->bind_cfe = f->bind_cfe;
	s->bind_cfe_type = f->bind_cfe_type;
	s->bind_psb_off = (f->bind & BIND_PSB) ? f->bind_psb_off : 0;
	s->resync_ip = f->st == ST_RESYNC ? f->resync_ip : 0;
	s->no_last_ip = f->st == ST_RESYNC && f->no_last_ip;
	s->lip = f->lip.ip;
	s->lip_have = f->lip.have_ip;
	/* the clock: the same after a PSB+ whatever came before, except for
	 * what its TSC cannot reset (generations compare as changed or not) */
	s->tm = f->tm;
	s->tm.ref_tsc = s->tm.buf_tsc = 0;
	/* the cycle count runs on, like the cyc total (segments of a
	 * parallel decode count their own) */
	memset(&s->tm.ipc, 0, sizeof(s->tm.ipc));
	s->tm.gen = f->tm.gen != f->gen_applied;
	s->tnt_snap_ts = f->ntnt ? f->tnt_snap.ts : 0;
	s->tnt_snap_tsc = f->ntnt ? f->tnt_snap.tsc_ts : 0;
	s->tnt_snap_cbr = f->ntnt ? f->tnt_snap.cbr : 0;
	s->tnt_gen_new = f->ntnt && f->tnt_snap.gen != f->gen_applied;
	s->tnt_used = f->ntnt ? f->tnt_used : 0;
	s->s_ts = f->s_ts;
	s->s_cnt = f->s_cnt;
	s->s_cbr = f->s_cbr;
	s->tic = f->tic;
	s->walked = f->walked;
	s->cbr = f->cbr;
	s->blocks_without_packet = f->blocks_without_packet;
	return 1;
}

uint64_t ipt_flow_pos(const struct hwprof_pt_flow *f)
{
	return hwprof_pt_decoder_offset(&f->dec);
}
