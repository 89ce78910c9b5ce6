/* Intel PT time: the TSC estimate perf 6.1 keeps while it decodes a trace,
 * rebuilt from the SDM's timing packets with perf's rules (so that sample
 * times match perf's to the nanosecond):
 *  - TSC sets the time (the first one after a new buffer takes its top byte
 *    from the buffer's reference TSC; later ones from the current time, and
 *    a TSC up to 0x10000 ticks behind the time is taken as slip, not as a
 *    step back);
 *  - TMA ties the crystal clock (CTC) to the last TSC; each MTC then adds
 *    the CTC ticks since the previous one, times the TSC:CTC ratio, and is
 *    ignored when it would move the time backwards;
 *  - CYC adds cycles times TSC ticks per cycle: a ratio measured between
 *    two MTCs that follow CYCs (looking ahead in the trace), else the one
 *    the CBR implies (max non-turbo ratio / CBR); without either it only
 *    counts cycles.
 * `gen` changes whenever perf restarts its count of instructions since the
 * last time update (that count estimates time between updates). */
#include <string.h>

#include "intel_pt/pt_flow_int.h"

#define TSC_SLIP 0x10000ULL

static uint64_t multdiv(uint64_t t, uint32_t n, uint32_t d)
{
	return d ? (t / d) * n + ((t % d) * n) / d : 0;
}

void ipt_time_init(struct ipt_time *t, uint32_t ctc_n, uint32_t ctc_d, unsigned mtc_shift,
		   unsigned max_nonturbo, uint64_t ref_tsc)
{
	memset(t, 0, sizeof(*t));
	t->ctc_n = ctc_n;
	t->ctc_d = ctc_n ? ctc_d : 0;
	if (t->ctc_d && !(t->ctc_n % t->ctc_d))
		t->ctc_mult = t->ctc_n / t->ctc_d;
	t->mtc_shift = mtc_shift < 24 ? mtc_shift : 24;
	t->max_nonturbo = max_nonturbo;
	t->ref_tsc = t->buf_tsc = ref_tsc;
	t->last_type = HWPROF_PT_PAD;
}

static uint64_t ctc_to_tsc(const struct ipt_time *t, uint64_t ctc)
{
	return t->ctc_mult ? ctc * t->ctc_mult : multdiv(ctc, t->ctc_n, t->ctc_d);
}

/* An 8-byte TSC from a 7-byte one, nearest to ref (perf's
 * intel_pt_8b_tsc()). */
uint64_t ipt_tsc_near(uint64_t tsc, uint64_t ref)
{
	tsc |= ref & (0xffULL << 56);
	if (tsc < ref) {
		if (ref - tsc > (1ULL << 55))
			tsc += 1ULL << 56;
	} else if (tsc - ref > (1ULL << 55)) {
		tsc -= 1ULL << 56;
	}
	return tsc;
}

/* TMA carries CTC[15:0]: when MTCs cover CTC bits above 15, the ones the
 * TMA lacks come from the first MTC, which must come after it. */
static void fixup_last_mtc(uint32_t mtc, unsigned shift, uint32_t *last)
{
	uint32_t first_missing = 1U << (16 - shift);
	*last |= mtc & ~(first_missing - 1);
	if (*last >= mtc) {
		*last -= first_missing;
		*last &= 0xff;
	}
}

/* What the look-ahead for a cycles-to-TSC ratio keeps. */
struct cyc_scan {
	uint64_t cycles, ctc_ts, ctc_delta, tsc_ts, ts;
	uint32_t last_mtc;
	unsigned cbr;
	bool have_tma, fixup;
	double cbr_ratio;
};

/* Reads on from la (a copy of the decoder, just past an MTC that followed
 * a CYC) to the next MTC that follows a CYC, and sets the measured TSC
 * ticks per cycle when the cycles in between give a plausible one. The
 * scan gives up at packets after which timing may have stopped. */
static void calibrate(struct ipt_time *t, const struct hwprof_pt_decoder *dec)
{
	struct hwprof_pt_decoder copy = *dec, *la = &copy;
	struct cyc_scan d = {
		.ctc_ts = t->ctc_ts, .ctc_delta = t->ctc_delta, .tsc_ts = t->tsc_ts, .ts = t->timestamp,
		.last_mtc = t->last_mtc, .have_tma = t->have_tma, .fixup = t->fixup_last_mtc,
	};
	unsigned last = HWPROF_PT_CYC; /* the packet before the MTC */
	struct hwprof_pt_packet p;
	for (;; last = p.type) {
		do {
			if (hwprof_pt_decoder_next(la, &p) != 1)
				return;
		} while (p.type == HWPROF_PT_PAD);
		uint64_t ts;
		switch (p.type) {
		case HWPROF_PT_TNT: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP: case HWPROF_PT_FUP:
		case HWPROF_PT_PSB: case HWPROF_PT_PIP: case HWPROF_PT_MODE_EXEC: case HWPROF_PT_MODE_TSX:
		case HWPROF_PT_PSBEND: case HWPROF_PT_VMCS: case HWPROF_PT_MNT: case HWPROF_PT_PTWRITE:
		case HWPROF_PT_BBP: case HWPROF_PT_BIP: case HWPROF_PT_BEP:
			continue;
		case HWPROF_PT_MTC: {
			if (!d.have_tma)
				continue;
			uint32_t mtc = (uint32_t)p.payload & 0xff;
			if (t->mtc_shift > 8 && d.fixup) {
				d.fixup = false;
				fixup_last_mtc(mtc, t->mtc_shift, &d.last_mtc);
			}
			uint32_t delta = mtc > d.last_mtc ? mtc - d.last_mtc : mtc + 256 - d.last_mtc;
			d.ctc_delta += (uint64_t)delta << t->mtc_shift;
			d.last_mtc = mtc;
			ts = d.ctc_ts + ctc_to_tsc(t, d.ctc_delta);
			if (ts < d.ts)
				return;
			if (last != HWPROF_PT_CYC) {
				d.ts = ts;
				continue;
			}
			break;
		}
		case HWPROF_PT_TSC:
			return; /* from an MTC: TSCs are not used (timing may have stopped) */
		case HWPROF_PT_TMA:
			return;
		case HWPROF_PT_CYC:
			d.cycles += p.payload;
			continue;
		case HWPROF_PT_CBR: {
			unsigned cbr = (unsigned)(p.payload & 0xff);
			if (d.cbr && d.cbr != cbr)
				return;
			d.cbr = cbr;
			d.cbr_ratio = cbr ? (double)t->max_nonturbo / cbr : 0;
			continue;
		}
		default: /* PGD, TraceStop, power events, OVF: timing may stop */
			return;
		}
		if (!d.cbr && t->cbr) {
			d.cbr = t->cbr;
			d.cbr_ratio = t->cbr_ratio;
		}
		if (!d.cycles)
			return;
		double ratio = (double)(ts - t->timestamp) / (double)d.cycles;
		if (d.cbr && ratio > d.cbr_ratio && ratio / d.cbr_ratio > 1.25)
			return; /* implausible: the CBR says much faster */
		t->calc_ratio = ratio;
		t->have_calc_ratio = true;
		return;
	}
}

/* perf's sample_cyc is set: a new generation (never 0, which means unset) */
static void set_sample_cyc(struct ipt_cyc *c)
{
	c->sample_gen = ++c->gen ? c->gen : ++c->gen;
}

/* perf's intel_pt_mtc_cyc_cnt_pge(): without CYC, the count goes on from
 * here at the TSC rate the CBR gives */
static void cyc_rebase(struct ipt_time *t)
{
	if (t->ipc.have_cyc)
		return;
	t->ipc.base_ts = t->timestamp;
	t->ipc.base = t->ipc.tot;
}

/* perf's intel_pt_mtc_cyc_cnt_upd(): the count from the time (a double
 * product, as perf's) */
static void cyc_update(struct ipt_time *t)
{
	struct ipt_cyc *c = &t->ipc;
	if (c->have_cyc)
		return;
	set_sample_cyc(c);
	if (!c->pge || t->timestamp <= c->base_ts)
		return;
	uint64_t tot = (uint64_t)((double)(t->timestamp - c->base_ts) * c->tsc_to_cyc + (double)c->base);
	if (tot > c->tot)
		c->tot = tot;
}

void ipt_time_cyc_count(struct ipt_time *t, unsigned threshold)
{
	t->ipc.on = true;
	t->ipc.threshold = threshold;
}

/* The cycle count's side of a packet (perf's decoder, in packet order). */
static void cyc_packet(struct ipt_time *t, const struct hwprof_pt_packet *p)
{
	struct ipt_cyc *c = &t->ipc;
	/* with a threshold, only a CYC right before counts */
	if (c->threshold && c->sample_gen && t->last_type != HWPROF_PT_CYC && !c->in_psb)
		c->sample_gen = 0;
	switch (p->type) {
	case HWPROF_PT_CYC:
		c->have_cyc = true;
		if (c->pge)
			c->tot += p->payload;
		set_sample_cyc(c);
		break;
	case HWPROF_PT_TIP_PGE:
		c->pge = true;
		cyc_rebase(t);
		break;
	case HWPROF_PT_TIP: case HWPROF_PT_FUP:
		c->pge = true; /* a FUP in PSB+ or after an overflow, a TIP after an error */
		break;
	case HWPROF_PT_TIP_PGD: case HWPROF_PT_TRACESTOP: case HWPROF_PT_OVF:
		c->pge = false;
		break;
	case HWPROF_PT_PSB:
		c->in_psb = true;
		break;
	case HWPROF_PT_PSBEND:
		c->in_psb = false;
		break;
	default:
		break;
	}
}

static void on_tsc(struct ipt_time *t, uint64_t payload)
{
	t->have_tma = false;
	if (t->ref_tsc) {
		t->tsc_ts = t->timestamp = ipt_tsc_near(payload, t->ref_tsc);
		t->ref_tsc = 0;
		t->gen++;
	} else if (t->timestamp) {
		uint64_t ts = payload | (t->timestamp & (0xffULL << 56));
		t->tsc_ts = ts;
		if (ts < t->timestamp && t->timestamp - ts < TSC_SLIP)
			ts = t->timestamp;
		if (ts < t->timestamp) {
			if (!t->buf_tsc || ts + (1ULL << 56) < t->buf_tsc) {
				ts += 1ULL << 56; /* wrapped */
				t->tsc_ts = ts;
			} else {
				ts = t->timestamp; /* a bad one: kept out */
			}
		}
		t->timestamp = ts;
		t->gen++;
	}
	if (t->last_type == HWPROF_PT_CYC) {
		t->cyc_ref = t->timestamp;
		t->cycles = 0;
		t->have_calc_ratio = false; /* TSCs are not used to measure it */
	}
}

static void on_tma(struct ipt_time *t, const struct hwprof_pt_packet *p)
{
	if (!t->ctc_d)
		return;
	if (t->ipc.on && t->ipc.pge && !t->ipc.in_psb)
		cyc_rebase(t);
	else if (t->ipc.on)
		cyc_update(t);
	uint32_t ctc = (uint32_t)p->payload & 0xffff, fc = p->count;
	uint32_t rem = ctc & ((1U << t->mtc_shift) - 1);
	t->last_mtc = (ctc >> t->mtc_shift) & 0xff;
	t->ctc_ts = t->tsc_ts - fc - ctc_to_tsc(t, rem);
	t->ctc_delta = 0;
	t->have_tma = true;
	t->fixup_last_mtc = true;
}

static void on_mtc(struct ipt_time *t, uint32_t mtc, const struct hwprof_pt_decoder *la)
{
	if (!t->have_tma)
		return;
	if (t->mtc_shift > 8 && t->fixup_last_mtc) {
		t->fixup_last_mtc = false;
		fixup_last_mtc(mtc, t->mtc_shift, &t->last_mtc);
	}
	uint32_t delta = mtc > t->last_mtc ? mtc - t->last_mtc : mtc + 256 - t->last_mtc;
	t->ctc_delta += (uint64_t)delta << t->mtc_shift;
	uint64_t ts = t->ctc_ts + ctc_to_tsc(t, t->ctc_delta);
	if (ts >= t->timestamp)
		t->timestamp = ts;
	if (t->ipc.on)
		cyc_update(t);
	t->gen++;
	t->last_mtc = mtc;
	if (t->last_type == HWPROF_PT_CYC) {
		t->cyc_ref = t->timestamp;
		t->cycles = 0;
		t->have_calc_ratio = false;
		if (la)
			calibrate(t, la);
	}
}

static void on_cyc(struct ipt_time *t, uint64_t cycles)
{
	t->cycles += cycles;
	if (!t->cyc_ref)
		return;
	if (!t->have_calc_ratio && !t->cbr)
		return;
	double ratio = t->have_calc_ratio ? t->calc_ratio : t->cbr_ratio;
	/* the sum in double, as perf adds it */
	uint64_t ts = (uint64_t)((double)t->cyc_ref + (double)t->cycles * ratio);
	if (ts >= t->timestamp)
		t->timestamp = ts;
	t->gen++;
}

void ipt_time_packet(struct ipt_time *t, const struct hwprof_pt_packet *p, const struct hwprof_pt_decoder *la)
{
	if (p->type == HWPROF_PT_PAD)
		return;
	if (t->ipc.on)
		cyc_packet(t, p);
	switch (p->type) {
	case HWPROF_PT_TSC:
		on_tsc(t, p->payload);
		break;
	case HWPROF_PT_TMA:
		on_tma(t, p);
		break;
	case HWPROF_PT_MTC:
		on_mtc(t, (uint32_t)p->payload & 0xff, la);
		break;
	case HWPROF_PT_CYC:
		on_cyc(t, p->payload);
		break;
	case HWPROF_PT_CBR: {
		unsigned cbr = (unsigned)(p->payload & 0xff);
		if (cbr && cbr != t->cbr) {
			t->cbr = cbr;
			t->cbr_ratio = (double)t->max_nonturbo / cbr;
		}
		/* perf's intel_pt_mtc_cyc_cnt_cbr() (no ratio without a
		 * maximum non-turbo one, where perf's would be infinite) */
		if (t->ipc.on && cbr != t->ipc.cbr) {
			t->ipc.cbr = cbr;
			t->ipc.tsc_to_cyc = t->max_nonturbo ? (double)cbr / t->max_nonturbo : 0;
			if (t->ipc.pge)
				cyc_rebase(t);
		}
		break;
	}
	case HWPROF_PT_TRACESTOP:
		t->have_tma = false;
		break;
	default:
		break;
	}
	t->last_type = p->type;
}

void ipt_time_lost(struct ipt_time *t)
{
	t->have_tma = false;
}
