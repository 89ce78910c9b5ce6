/* Quick (hop / leap) decoding of an Intel PT trace into perf's decoder
 * states (see pt_hop.h). */
#include <string.h>

#include "hwprof/intel_pt_synth.h"
#include "intel_pt/pt_hop.h"

int pt_hop_init(struct pt_hop *h, const void *buf, size_t len, unsigned quick, bool branch_enable)
{
	memset(h, 0, sizeof(*h));
	h->leap = quick > 1;
	h->branch_enable = branch_enable;
	h->st = PT_HOP_NO_PSB;
	hwprof_pt_last_ip_init(&h->lip);
	return hwprof_pt_decoder_init(&h->dec, buf, len, 0);
}

/* 1 with a packet (PADs skipped), 0 at the end, -1 on a bad packet (the
 * decoder then steps one byte, as perf's does). */
static int next_pkt(struct pt_hop *h, struct hwprof_pt_packet *p)
{
	if (h->again) {
		h->again = false;
		*p = h->pkt;
		return 1;
	}
	for (;;) {
		h->pkt_off = hwprof_pt_decoder_offset(&h->dec);
		int rc = hwprof_pt_decoder_next(&h->dec, p);
		if (rc == 0 || rc == -HWPROF_E_NEED_MORE)
			return 0;
		if (rc < 0) {
			hwprof_pt_decoder_skip(&h->dec, 1);
			return -1;
		}
		if (p->type != HWPROF_PT_PAD)
			return 1;
	}
}

/* The packet's address through the last-IP compression: 1 and *ip, or 0
 * when it carries none. */
static int pkt_ip(struct pt_hop *h, const struct hwprof_pt_packet *p, uint64_t *ip)
{
	return hwprof_pt_last_ip_update(&h->lip, p, ip) == 1;
}

static void reset_ip(struct pt_hop *h)
{
	hwprof_pt_last_ip_init(&h->lip);
}

/* The packets of a PSB+ up to PSBEND: a FUP there is where tracing is
 * (sync: it becomes the current address too). Returns 0, 1 when a packet
 * that cannot be in PSB+ ends it (looked at again), -1 at the end. */
static int walk_psb(struct pt_hop *h, bool sync)
{
	struct hwprof_pt_packet p;
	for (;;) {
		int rc = next_pkt(h, &p);
		if (rc == 0)
			return -1;
		if (rc < 0)
			continue;
		uint64_t ip;
		switch (p.type) {
		case HWPROF_PT_PSBEND:
			return 0;
		case HWPROF_PT_FUP:
			h->pge = true;
			if (pkt_ip(h, &p, &ip)) {
				h->psb_ip = ip;
				if (sync)
					h->ip = ip;
			}
			break;
		case HWPROF_PT_CBR:
			h->cbr = (uint32_t)(p.payload & 0xff);
			break;
		case HWPROF_PT_TIP:
		case HWPROF_PT_TIP_PGE:
		case HWPROF_PT_TIP_PGD:
		case HWPROF_PT_TNT:
		case HWPROF_PT_TRACESTOP:
		case HWPROF_PT_PSB:
		case HWPROF_PT_OVF:
			h->pkt = p;
			h->again = true;
			return 1;
		default:
			break;
		}
	}
}

/* perf's overflow: tracing state unknown, the address lost */
static int overflow(struct pt_hop *h, struct pt_hop_state *s)
{
	s->type = 0;
	s->err = HWPROF_PT_SERR_OVR;
	s->from = h->ip;
	h->ip = 0;
	h->pge = false;
	h->st = PT_HOP_IN_SYNC;
	return 1;
}

static int bad_packet(struct pt_hop *h, struct pt_hop_state *s)
{
	s->type = 0;
	s->err = HWPROF_PT_SERR_BADPKT;
	s->from = h->ip;
	return 1;
}

/* Synchronisation at the next PSB: its psb state */
static int sync_psb(struct pt_hop *h, struct pt_hop_state *s)
{
	h->pge = false;
	h->ip = h->psb_ip = 0;
	reset_ip(h);
	if (hwprof_pt_decoder_sync(&h->dec) < 0)
		return 0;
	struct hwprof_pt_packet p;
	if (next_pkt(h, &p) <= 0)
		return 0;
	/* in sync from here: with qq, on to the next PSB even when this
	 * PSB+ had no address */
	h->st = PT_HOP_IN_SYNC;
	if (walk_psb(h, true) < 0)
		return 0;
	s->type = PT_HOP_PSB;
	s->from = h->psb_ip;
	s->psb_offset = h->psb_offset;
	if (h->ip)
		h->st = PT_HOP_RESAMPLE;
	return 1;
}

/* On to the first packet that gives an address: with none yet (the
 * address and last IP forgotten), or after an error (both kept) */
static int walk_to_ip(struct pt_hop *h, struct pt_hop_state *s)
{
	struct hwprof_pt_packet p;
	if (h->st == PT_HOP_NO_IP) {
		h->ip = 0;
		reset_ip(h);
	}
	for (;;) {
		int rc = next_pkt(h, &p);
		if (rc == 0)
			return 0;
		if (rc < 0)
			return bad_packet(h, s);
		uint64_t ip;
		bool has = pkt_ip(h, &p, &ip);
		switch (p.type) {
		case HWPROF_PT_TIP_PGD:
			h->pge = false;
			if (has)
				h->ip = ip;
			if (!h->ip)
				continue;
			s->type |= PT_HOP_TRACE_END;
			break;
		case HWPROF_PT_TIP_PGE:
		case HWPROF_PT_TIP:
			h->pge = true;
			if (has)
				h->ip = ip;
			if (!h->ip)
				continue;
			if (p.type == HWPROF_PT_TIP_PGE)
				s->type |= PT_HOP_TRACE_BEGIN;
			break;
		case HWPROF_PT_FUP:
			if (has)
				h->ip = ip;
			if (!h->ip)
				continue;
			break;
		case HWPROF_PT_CBR:
			h->cbr = (uint32_t)(p.payload & 0xff);
			continue;
		case HWPROF_PT_TRACESTOP:
			h->pge = false;
			continue;
		case HWPROF_PT_OVF:
			return overflow(h, s);
		case HWPROF_PT_PSB:
			h->psb_offset = h->pkt_off;
			h->psb_ip = 0;
			if (walk_psb(h, true) < 0)
				return 0;
			s->type = PT_HOP_PSB;
			s->from = h->psb_ip;
			s->psb_offset = h->psb_offset;
			if (!h->ip)
				return 1;
			break;
		default:
			continue;
		}
		break;
	}
	h->st = PT_HOP_RESAMPLE;
	s->from = 0;
	s->to = h->ip;
	return 1;
}

/* FUP + TIP: the asynchronous branch's destination */
static int walk_fup_tip(struct pt_hop *h, struct pt_hop_state *s)
{
	struct hwprof_pt_packet p;
	s->type |= PT_HOP_ASYNC;
	for (;;) {
		int rc = next_pkt(h, &p);
		if (rc == 0)
			return 0;
		if (rc < 0)
			return bad_packet(h, s);
		uint64_t ip;
		switch (p.type) {
		case HWPROF_PT_CBR:
			h->cbr = (uint32_t)(p.payload & 0xff);
			continue;
		case HWPROF_PT_OVF:
			return overflow(h, s);
		case HWPROF_PT_MTC:
		case HWPROF_PT_CYC:
		case HWPROF_PT_PIP:
		case HWPROF_PT_MODE_EXEC:
		case HWPROF_PT_VMCS:
		case HWPROF_PT_MNT:
			continue;
		case HWPROF_PT_TIP_PGD:
			s->from = h->ip;
			s->to = pkt_ip(h, &p, &ip) ? (h->ip = ip) : 0;
			h->pge = false;
			s->type |= PT_HOP_TRACE_END;
			break;
		case HWPROF_PT_TIP_PGE:
			h->pge = true;
			s->from = 0;
			s->to = pkt_ip(h, &p, &ip) ? (h->ip = ip) : 0;
			s->type |= PT_HOP_TRACE_BEGIN;
			break;
		case HWPROF_PT_TIP:
			s->from = h->ip;
			s->to = pkt_ip(h, &p, &ip) ? (h->ip = ip) : 0;
			break;
		default:
			/* perf: "Missing TIP after FUP"; the packet is looked
			 * at again once the decoder has an address */
			h->pkt = p;
			h->again = true;
			h->st = PT_HOP_RESYNC;
			s->type = 0;
			s->err = HWPROF_PT_SERR_MISMAT;
			s->from = h->ip;
			return 1;
		}
		if (s->to)
			h->st = PT_HOP_RESAMPLE;
		return 1;
	}
}

/* In sync: the next packet with an address */
static int walk_trace(struct pt_hop *h, struct pt_hop_state *s)
{
	struct hwprof_pt_packet p;
	for (;;) {
		int rc = next_pkt(h, &p);
		if (rc == 0)
			return 0;
		if (rc < 0)
			return bad_packet(h, s);
		if (h->leap && p.type != HWPROF_PT_PSB) {
			/* qq: straight on to the next PSB */
			if (hwprof_pt_decoder_sync(&h->dec) < 0 || next_pkt(h, &p) <= 0)
				return 0;
		}
		uint64_t ip;
		switch (p.type) {
		case HWPROF_PT_TIP_PGD:
			if (!pkt_ip(h, &p, &ip))
				continue;
			h->ip = ip;
			s->type |= PT_HOP_TRACE_END;
			s->from = 0;
			s->to = ip;
			return 1;
		case HWPROF_PT_TIP:
			if (!pkt_ip(h, &p, &ip))
				continue;
			h->ip = ip;
			s->type = PT_HOP_INSN;
			s->from = ip;
			return 1;
		case HWPROF_PT_FUP:
			if (!pkt_ip(h, &p, &ip))
				continue;
			h->ip = ip;
			if (!h->branch_enable || !h->pge) {
				s->type = PT_HOP_INSN;
				s->from = ip;
				return 1;
			}
			s->type |= PT_HOP_INSN;
			return walk_fup_tip(h, s);
		case HWPROF_PT_PSB:
			h->psb_offset = h->pkt_off;
			h->psb_ip = 0;
			pkt_ip(h, &p, &ip); /* the last IP starts again */
			if (walk_psb(h, false) > 0)
				continue;
			s->type = PT_HOP_PSB;
			if (h->psb_ip) {
				s->type |= PT_HOP_INSN;
				h->ip = h->psb_ip;
			}
			s->from = h->psb_ip;
			s->psb_offset = h->psb_offset;
			return 1;
		case HWPROF_PT_TIP_PGE:
			h->pge = true;
			if (!pkt_ip(h, &p, &ip))
				continue;
			h->ip = ip;
			s->type |= PT_HOP_TRACE_BEGIN;
			s->from = 0;
			s->to = ip;
			h->st = PT_HOP_RESAMPLE;
			return 1;
		case HWPROF_PT_OVF:
			return overflow(h, s);
		case HWPROF_PT_CBR:
			h->cbr = (uint32_t)(p.payload & 0xff);
			continue;
		case HWPROF_PT_TRACESTOP:
			h->pge = false;
			continue;
		default: /* TNT and the rest: nothing to decode */
			continue;
		}
	}
}

int pt_hop_next(struct pt_hop *h, struct pt_hop_state *s)
{
	memset(s, 0, sizeof(*s));
	s->type = PT_HOP_BRANCH;
	int rc;
	switch (h->st) {
	case PT_HOP_NO_PSB:
		rc = sync_psb(h, s);
		break;
	case PT_HOP_NO_IP:
	case PT_HOP_RESYNC:
		rc = walk_to_ip(h, s);
		break;
	case PT_HOP_RESAMPLE:
		h->st = PT_HOP_IN_SYNC;
		s->type = PT_HOP_INSN;
		s->from = h->ip;
		rc = 1;
		break;
	default:
		rc = walk_trace(h, s);
		break;
	}
	s->cbr = h->cbr;
	return rc;
}
