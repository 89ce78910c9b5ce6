/* Intel PT packet decoder: bytes -> struct hwprof_pt_packet, one packet at a
 * time (every packet, any block context, perf dump mode, errors), the block
 * context and last-IP. The buffer iterator and its table fast path for the
 * common packets are in pt_packet_iter.c and fall back to this decoder.
 * Dispatch is two 256-entry tables (first byte, byte after 0x02), one load
 * and one switch; nothing allocates. Encodings: Intel SDM
 * Vol. 3C, Intel PT chapter; raw-field conventions: perf's (intel_pt.h). */
#include <string.h>

#include "intel_pt/pt_int.h"
#include "util/bytes.h"

const uint8_t ipt_ip_bytes[8] = { 0, 2, 4, 6, 6, 0xff, 8, 0xff };

/* Kinds of first byte. */
enum {
	F_BAD, F_PAD, F_TNT, F_EXT, F_PGD, F_PGE, F_TIP, F_FUP,
	F_TSC, F_MTC, F_MODE, F_CYC, F_TRIG,
};

/* Even bytes are short TNTs except PAD (0x00) and EXT (0x02); low bits 11
 * are CYC; low 5 bits name the IP packets; 0x19/0x59/0x99/0xd9 are TSC, MTC,
 * MODE and TRIG; every other odd byte is reserved. */
static const uint8_t first_kind[256] = {
	F_PAD, F_PGD, F_EXT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_TSC, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_MTC, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_MODE, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_TRIG, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
	F_TNT, F_PGD, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_TIP, F_TNT, F_CYC,
	F_TNT, F_PGE, F_TNT, F_CYC, F_TNT, F_BAD, F_TNT, F_CYC,
	F_TNT, F_BAD, F_TNT, F_CYC, F_TNT, F_FUP, F_TNT, F_CYC,
};

/* Kinds of the byte after 0x02 (0 = reserved). */
enum {
	X_BAD, X_PSB, X_PSBEND, X_CBR, X_TNT64, X_PIP, X_TMA, X_VMCS, X_OVF,
	X_EXT2, X_STOP, X_PTW, X_EXSTOP, X_MWAIT, X_PWRE, X_PWRX, X_BBP,
	X_BEP, X_CFE, X_EVD,
};

static const uint8_t ext_kind[256] = {
	[IPT_EXT_PSB] = X_PSB, [IPT_EXT_PSBEND] = X_PSBEND,
	[IPT_EXT_CBR] = X_CBR, [IPT_EXT_TNT64] = X_TNT64,
	[IPT_EXT_PIP] = X_PIP, [IPT_EXT_TMA] = X_TMA,
	[IPT_EXT_VMCS] = X_VMCS, [IPT_EXT_OVF] = X_OVF,
	[IPT_EXT_EXT2] = X_EXT2, [IPT_EXT_STOP] = X_STOP,
	/* PTWRITE: bits 6:5 payload size, bit 7 IP */
	[0x12] = X_PTW, [0x32] = X_PTW, [0x52] = X_PTW, [0x72] = X_PTW,
	[0x92] = X_PTW, [0xb2] = X_PTW, [0xd2] = X_PTW, [0xf2] = X_PTW,
	[IPT_EXT_EXSTOP] = X_EXSTOP, [IPT_EXT_EXSTOP | 0x80] = X_EXSTOP,
	[IPT_EXT_MWAIT] = X_MWAIT, [IPT_EXT_PWRE] = X_PWRE,
	[IPT_EXT_PWRX] = X_PWRX, [IPT_EXT_BBP] = X_BBP,
	[IPT_EXT_BEP] = X_BEP, [IPT_EXT_BEP | 0x80] = X_BEP,
	[IPT_EXT_CFE] = X_CFE, [IPT_EXT_EVD] = X_EVD,
};

#define NEED(n) do { if (len < (size_t)(n)) return -HWPROF_E_NEED_MORE; } while (0)

/* n (<= 8) little-endian bytes; one unaligned load when 8 are readable. */
static inline uint64_t le_n(const uint8_t *p, size_t avail, unsigned n)
{
	if (avail >= 8)
		return n == 8 ? ld64(p) : ld64(p) & ((1ULL << (8 * n)) - 1);
	return ld_le(p, n);
}

static int decode_ip(const uint8_t *b, size_t len, unsigned type,
		     struct hwprof_pt_packet *p)
{
	unsigned ipc = b[0] >> 5, n = ipt_ip_bytes[ipc];
	if (n == 0xff)
		return -HWPROF_E_BAD_PACKET;
	NEED(1 + n);
	p->type = (uint8_t)type;
	p->count = ipc;
	p->payload = n ? le_n(b + 1, len - 1, n) : 0;
	return 1 + (int)n;
}

/* CYC: 5 bits in the header (bit 2 = more), then 7 bits per byte (bit 0 =
 * more). perf and libipt stop at a 64-bit value: at most 9 extension bytes. */
static int decode_cyc(const uint8_t *b, size_t len, struct hwprof_pt_packet *p)
{
	uint64_t v = b[0] >> 3;
	unsigned more = b[0] & 4, i = 1, shift = 5;
	while (more) {
		if (i > 9)
			return -HWPROF_E_BAD_PACKET;
		NEED(i + 1);
		v |= (uint64_t)(b[i] >> 1) << shift;
		more = b[i] & 1;
		shift += 7;
		i++;
	}
	p->type = HWPROF_PT_CYC;
	p->payload = v;
	return (int)i;
}

static int decode_psb(const uint8_t *b, size_t len, struct hwprof_pt_packet *p)
{
	size_t n = len < HWPROF_PT_PSB_LEN ? len : HWPROF_PT_PSB_LEN;
	for (size_t i = 2; i < n; i++)
		if (b[i] != ((i & 1) ? IPT_EXT_PSB : IPT_OPC_EXT))
			return -HWPROF_E_BAD_PACKET;
	NEED(HWPROF_PT_PSB_LEN);
	p->type = HWPROF_PT_PSB;
	return HWPROF_PT_PSB_LEN;
}

/* Long TNT: the stop bit is the highest set bit of the 48-bit payload. We
 * left-align the whole 8 bytes as perf does; count = bits below the stop. */
static int decode_tnt64(const uint8_t *b, struct hwprof_pt_packet *p)
{
	uint64_t v = ld64(b);
	p->type = HWPROF_PT_TNT;
	if (!(v >> 16)) { /* no stop bit: perf reports 0 branches */
		p->count = 0;
		p->payload = v << 48;
		return 8;
	}
	unsigned stop = 63 - (unsigned)__builtin_clzll(v);
	p->count = stop - 16;
	p->payload = stop == 63 ? v << 1 : v << (64 - stop);
	return 8;
}

static int decode_ext(const uint8_t *b, size_t len, struct hwprof_pt_packet *p)
{
	NEED(2);
	uint8_t b1 = b[1];
	switch (ext_kind[b1]) {
	case X_PSB:
		return decode_psb(b, len, p);
	case X_PSBEND:
		p->type = HWPROF_PT_PSBEND;
		return 2;
	case X_OVF:
		p->type = HWPROF_PT_OVF;
		return 2;
	case X_STOP:
		p->type = HWPROF_PT_TRACESTOP;
		return 2;
	case X_CBR:
		NEED(4);
		p->type = HWPROF_PT_CBR; /* perf keeps byte 3 (reserved) too */
		p->payload = ld16(b + 2);
		return 4;
	case X_TNT64:
		NEED(8);
		return decode_tnt64(b, p);
	case X_PIP:
		NEED(8);
		p->type = HWPROF_PT_PIP;
		p->payload = le_n(b + 2, len - 2, 6);
		return 8;
	case X_TMA:
		NEED(7);
		p->type = HWPROF_PT_TMA;
		p->payload = ld16(b + 2);
		p->count = b[5] | (uint32_t)(b[6] & 1) << 8;
		return 7;
	case X_VMCS:
		NEED(7);
		p->type = HWPROF_PT_VMCS;
		p->payload = le_n(b + 2, len - 2, 5);
		p->count = 5;
		return 7;
	case X_EXT2:
		NEED(3);
		if (b[2] != IPT_EXT2_MNT)
			return -HWPROF_E_BAD_PACKET;
		NEED(11);
		p->type = HWPROF_PT_MNT;
		p->payload = ld64(b + 3);
		return 11;
	case X_PTW: {
		unsigned sz = (b1 >> 5) & 3, n = sz ? 8 : 4;
		if (sz > 1)
			return -HWPROF_E_BAD_PACKET;
		NEED(2 + n);
		p->type = HWPROF_PT_PTWRITE;
		p->count = sz;
		p->ip = b1 >> 7;
		p->payload = le_n(b + 2, len - 2, n);
		return 2 + (int)n;
	}
	case X_EXSTOP:
		p->type = HWPROF_PT_EXSTOP;
		p->ip = b1 >> 7;
		return 2;
	case X_MWAIT:
		NEED(10);
		p->type = HWPROF_PT_MWAIT;
		p->payload = ld64(b + 2);
		return 10;
	case X_PWRE:
		NEED(4);
		p->type = HWPROF_PT_PWRE;
		p->payload = ld16(b + 2);
		return 4;
	case X_PWRX:
		NEED(7);
		p->type = HWPROF_PT_PWRX;
		p->payload = le_n(b + 2, len - 2, 5);
		return 7;
	case X_BBP:
		NEED(3);
		p->type = HWPROF_PT_BBP;
		p->count = b[2] >> 7;
		p->payload = b[2] & 0x1f;
		return 3;
	case X_BEP:
		p->type = HWPROF_PT_BEP;
		p->ip = b1 >> 7;
		return 2;
	case X_CFE:
		NEED(4);
		p->type = HWPROF_PT_CFE;
		p->ip = b[2] >> 7;
		p->count = b[2] & 0x1f;
		p->payload = b[3];
		return 4;
	case X_EVD:
		NEED(11);
		p->type = HWPROF_PT_EVD;
		p->count = b[2] & 0x3f;
		p->payload = ld64(b + 3);
		return 11;
	default:
		return -HWPROF_E_BAD_PACKET;
	}
}

static int decode_mode(const uint8_t *b, size_t len, struct hwprof_pt_packet *p)
{
	NEED(2);
	uint8_t b1 = b[1];
	switch (b1 >> 5) {
	case 0: /* MODE.Exec: bit 0 CS.L, bit 1 CS.D, bit 2 IF */
		switch (b1 & 3) {
		case 0: p->payload = 16; break;
		case 1: p->payload = 64; break;
		case 2: p->payload = 32; break;
		default: return -HWPROF_E_BAD_PACKET; /* L and D both set */
		}
		p->type = HWPROF_PT_MODE_EXEC;
		p->count = b1 & 0x1f;
		return 2;
	case 1: /* MODE.TSX: bit 0 InTX, bit 1 TXAbort; both set is invalid */
		if ((b1 & 3) == 3)
			return -HWPROF_E_BAD_PACKET;
		p->type = HWPROF_PT_MODE_TSX;
		p->payload = b1 & 3;
		return 2;
	default:
		return -HWPROF_E_BAD_PACKET;
	}
}

static int decode_trig(const uint8_t *b, size_t len, struct hwprof_pt_packet *p)
{
	NEED(3);
	int size = 3;
	p->type = HWPROF_PT_TRIG;
	p->ip = b[1] >> 7;
	p->flags = (uint8_t)(((b[1] >> 6) & 1 ? HWPROF_PT_TRIG_ICNTV : 0) |
			     ((b[1] >> 5) & 1 ? HWPROF_PT_TRIG_MULT : 0));
	p->count = b[2];
	if (p->flags & HWPROF_PT_TRIG_ICNTV) {
		NEED(5);
		p->payload = ld16(b + 3);
		size = 5;
	}
	return size;
}

static inline int decode_one(const uint8_t *b, size_t len, enum hwprof_pt_ctx ctx,
			     unsigned flags, struct hwprof_pt_packet *p)
{
	uint8_t b0 = b[0];
	p->payload = 0;
	p->count = 0;
	p->ip = 0;
	p->flags = 0;

	/* In a block (after BBP) xxxxx100 is a BIP, not a short TNT. */
	if (ctx != HWPROF_PT_CTX_NONE && (b0 & 7) == 4) {
		unsigned n = ctx == HWPROF_PT_CTX_BLK4 ? 4 : 8;
		NEED(1 + n);
		p->type = HWPROF_PT_BIP;
		p->count = b0 >> 3;
		p->payload = le_n(b + 1, len - 1, n);
		return 1 + (int)n;
	}

	switch (first_kind[b0]) {
	case F_PAD:
		p->type = HWPROF_PT_PAD;
		return 1;
	case F_TNT: {
		unsigned stop = 31 - (unsigned)__builtin_clz(b0);
		p->type = HWPROF_PT_TNT;
		p->count = stop - 1;
		p->payload = (uint64_t)b0 << (64 - stop);
		return 1;
	}
	case F_EXT:
		return decode_ext(b, len, p);
	case F_TIP:
		return decode_ip(b, len, HWPROF_PT_TIP, p);
	case F_FUP:
		return decode_ip(b, len, HWPROF_PT_FUP, p);
	case F_PGE:
		return decode_ip(b, len, HWPROF_PT_TIP_PGE, p);
	case F_PGD:
		return decode_ip(b, len, HWPROF_PT_TIP_PGD, p);
	case F_CYC:
		return decode_cyc(b, len, p);
	case F_MTC:
		NEED(2);
		p->type = HWPROF_PT_MTC;
		p->payload = b[1];
		return 2;
	case F_TSC:
		NEED(8);
		p->type = HWPROF_PT_TSC;
		p->payload = le_n(b + 1, len - 1, 7);
		return 8;
	case F_MODE:
		return decode_mode(b, len, p);
	case F_TRIG:
		if (flags & HWPROF_PT_PERF_DUMP) /* perf 6.1 predates TRIG */
			return -HWPROF_E_BAD_PACKET;
		return decode_trig(b, len, p);
	default:
		return -HWPROF_E_BAD_PACKET;
	}
}

/* perf's decoder folds up to 7 following zero bytes (PADs) into a packet. */
static inline int absorb_zeros(const uint8_t *b, size_t len, int ret)
{
	while (ret < 8 && (size_t)ret < len && !b[ret])
		ret++;
	return ret;
}

HWPROF_API int hwprof_pt_packet_decode(const uint8_t *buf, size_t len,
				       enum hwprof_pt_ctx ctx, unsigned flags,
				       struct hwprof_pt_packet *pkt)
{
	struct hwprof_pt_packet tmp;
	if (!buf || !pkt)
		return -HWPROF_E_INVAL;
	if (!len)
		return -HWPROF_E_NEED_MORE;
	int ret = decode_one(buf, len, ctx, flags, &tmp);
	if (ret < 0)
		return ret;
	if (flags & HWPROF_PT_PERF_DUMP)
		ret = absorb_zeros(buf, len, ret);
	tmp.size = (uint8_t)ret;
	*pkt = tmp;
	return ret;
}

/* Effect of each packet type on the block context (perf's rules): packets
 * that end a block reset it, BBP opens one, the rest (timing, PAD, FUP, CBR,
 * MNT, EXSTOP, PWRE, PWRX, BIP, TRIG) leave it. A table, not a switch: this
 * runs once per packet. */
enum { CTX_KEEP, CTX_RESET, CTX_BBP };
static const uint8_t ctx_effect[HWPROF_PT_TYPE_COUNT] = {
	[HWPROF_PT_BBP] = CTX_BBP,
	[HWPROF_PT_TNT] = CTX_RESET, [HWPROF_PT_TIP] = CTX_RESET,
	[HWPROF_PT_TIP_PGE] = CTX_RESET, [HWPROF_PT_TIP_PGD] = CTX_RESET,
	[HWPROF_PT_MODE_EXEC] = CTX_RESET, [HWPROF_PT_MODE_TSX] = CTX_RESET,
	[HWPROF_PT_PIP] = CTX_RESET, [HWPROF_PT_OVF] = CTX_RESET,
	[HWPROF_PT_VMCS] = CTX_RESET, [HWPROF_PT_TRACESTOP] = CTX_RESET,
	[HWPROF_PT_PSB] = CTX_RESET, [HWPROF_PT_PSBEND] = CTX_RESET,
	[HWPROF_PT_PTWRITE] = CTX_RESET, [HWPROF_PT_MWAIT] = CTX_RESET,
	[HWPROF_PT_CFE] = CTX_RESET, [HWPROF_PT_EVD] = CTX_RESET,
	[HWPROF_PT_BEP] = CTX_RESET,
};

static inline enum hwprof_pt_ctx ctx_after(enum hwprof_pt_ctx ctx,
					   const struct hwprof_pt_packet *pkt)
{
	switch (pkt->type < HWPROF_PT_TYPE_COUNT ? ctx_effect[pkt->type] : CTX_KEEP) {
	case CTX_RESET: return HWPROF_PT_CTX_NONE;
	case CTX_BBP: return pkt->count ? HWPROF_PT_CTX_BLK4 : HWPROF_PT_CTX_BLK8;
	default: return ctx;
	}
}

HWPROF_API enum hwprof_pt_ctx hwprof_pt_ctx_next(enum hwprof_pt_ctx ctx,
						 const struct hwprof_pt_packet *pkt)
{
	return ctx_after(ctx, pkt);
}

/* One packet the general way (any context, perf dump mode, errors): the
 * iterator's fallback when its fast path does not apply. */
int ipt_decoder_next_general(struct hwprof_pt_decoder *dec, struct hwprof_pt_packet *pkt)
{
	if (dec->pos >= dec->len)
		return 0;
	const uint8_t *b = dec->buf + dec->pos;
	size_t len = dec->len - dec->pos;
	int ret = decode_one(b, len, dec->ctx, dec->flags, pkt);
	if (ret < 0) {
		dec->err_offset = dec->pos;
		return ret;
	}
	if (dec->flags & HWPROF_PT_PERF_DUMP)
		ret = absorb_zeros(b, len, ret);
	pkt->size = (uint8_t)ret;
	dec->ctx = ctx_after(dec->ctx, pkt);
	dec->pos += (size_t)ret;
	dec->ahead = 0;
	return 1;
}

HWPROF_API void hwprof_pt_last_ip_init(struct hwprof_pt_last_ip *lip)
{
	lip->ip = 0;
	lip->have_ip = 0;
}

HWPROF_API int hwprof_pt_last_ip_update(struct hwprof_pt_last_ip *lip,
					const struct hwprof_pt_packet *pkt,
					uint64_t *ip)
{
	if (!lip || !pkt)
		return -HWPROF_E_INVAL;
	switch (pkt->type) {
	case HWPROF_PT_PSB:
		hwprof_pt_last_ip_init(lip);
		return 0;
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP:
		break;
	default:
		return 0;
	}
	uint64_t v = pkt->payload, last = lip->ip;
	switch (pkt->count) {
	case 0:
		return 0;
	case 1: v = (last & ~0xffffULL) | (v & 0xffff); break;
	case 2: v = (last & ~0xffffffffULL) | (v & 0xffffffff); break;
	case 3: v = (uint64_t)((int64_t)(v << 16) >> 16); lip->have_ip = 1; break;
	case 4: v = (last & ~0xffffffffffffULL) | (v & 0xffffffffffffULL); break;
	case 6: lip->have_ip = 1; break;
	default: return -HWPROF_E_BAD_PACKET;
	}
	lip->ip = v;
	if (ip)
		*ip = v;
	return 1;
}
