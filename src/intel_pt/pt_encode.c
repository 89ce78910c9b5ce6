/* Intel PT packet encoder: struct hwprof_pt_packet -> bytes, the inverse of
 * pt_packet.c. It tracks last IP and block context like a decoder would, so
 * IP packets can pick the shortest compression. Used by tests, fuzz seeds,
 * benchmarks and demo traces; never on a decoding path. */
#include <string.h>

#include "intel_pt/pt_int.h"
#include "util/bytes.h"

HWPROF_API int hwprof_pt_encoder_init(struct hwprof_pt_encoder *enc, void *buf, size_t len)
{
	if (!enc || (!buf && len))
		return -HWPROF_E_INVAL;
	enc->buf = buf;
	enc->len = len;
	enc->pos = 0;
	enc->last_ip = 0;
	enc->ctx = HWPROF_PT_CTX_NONE;
	return 0;
}

HWPROF_API size_t hwprof_pt_encoder_offset(const struct hwprof_pt_encoder *enc)
{
	return enc->pos;
}

static void st_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int fits(uint64_t v, unsigned bits)
{
	return bits >= 64 || !(v >> bits);
}

/* Bytes of pkt into b (>= 16 bytes). Returns the size or -HWPROF_E_INVAL. */
static int encode_bytes(const struct hwprof_pt_packet *p, enum hwprof_pt_ctx ctx, uint8_t *b)
{
	uint64_t v = p->payload;
	unsigned c = p->count;
	switch (p->type) {
	case HWPROF_PT_PAD:
		b[0] = IPT_OPC_PAD;
		return 1;
	case HWPROF_PT_TNT:
		if (c >= 1 && c <= 6) { /* stop bit above the branches, bit 0 clear */
			b[0] = (uint8_t)(((v >> (64 - c)) | (1u << c)) << 1);
			/* in a block xxxxx100 would read as a BIP: go long instead */
			if (ctx == HWPROF_PT_CTX_NONE || (b[0] & 7) != 4)
				return 1;
		}
		if (c > 47)
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_TNT64;
		st_le(b + 2, (c ? v >> (64 - c) : 0) | (1ULL << c), 6);
		return 8;
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP: {
		static const uint8_t opc[] = {
			[HWPROF_PT_TIP] = IPT_OPC_TIP, [HWPROF_PT_TIP_PGE] = IPT_OPC_TIP_PGE,
			[HWPROF_PT_TIP_PGD] = IPT_OPC_TIP_PGD, [HWPROF_PT_FUP] = IPT_OPC_FUP,
		};
		if (c > 7 || ipt_ip_bytes[c] == 0xff || !fits(v, 8 * ipt_ip_bytes[c]))
			return -HWPROF_E_INVAL;
		b[0] = (uint8_t)(opc[p->type] | c << 5);
		st_le(b + 1, v, ipt_ip_bytes[c]);
		return 1 + ipt_ip_bytes[c];
	}
	case HWPROF_PT_TSC:
		if (!fits(v, 56))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_TSC;
		st_le(b + 1, v, 7);
		return 8;
	case HWPROF_PT_MTC:
		if (!fits(v, 8))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_MTC;
		b[1] = (uint8_t)v;
		return 2;
	case HWPROF_PT_TMA:
		if (!fits(v, 16) || !fits(c, 9))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_TMA;
		st_le(b + 2, v, 2);
		b[4] = 0;
		b[5] = (uint8_t)c;
		b[6] = (uint8_t)(c >> 8);
		return 7;
	case HWPROF_PT_CYC: { /* 5 bits in the header, then 7 per byte */
		int n = 1;
		b[0] = (uint8_t)(IPT_OPC_CYC | (v & 0x1f) << 3);
		v >>= 5;
		if (v)
			b[0] |= 4;
		while (v) {
			b[n] = (uint8_t)((v & 0x7f) << 1);
			v >>= 7;
			if (v)
				b[n] |= 1;
			n++;
		}
		return n;
	}
	case HWPROF_PT_MODE_EXEC: {
		uint8_t bits = v == 64 ? 1 : v == 32 ? 2 : v == 16 ? 0 : 0xff;
		if (bits == 0xff || (c & 3 && (c & 3) != bits) || !fits(c, 5))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_MODE;
		b[1] = (uint8_t)((c & 0x1c) | bits);
		return 2;
	}
	case HWPROF_PT_MODE_TSX:
		if (v > 2)
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_MODE;
		b[1] = (uint8_t)(0x20 | v);
		return 2;
	case HWPROF_PT_VMCS:
		if (!fits(v, 40))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_VMCS;
		st_le(b + 2, v, 5);
		return 7;
	case HWPROF_PT_PSB:
		for (int i = 0; i < HWPROF_PT_PSB_LEN; i += 2) {
			b[i] = IPT_OPC_EXT;
			b[i + 1] = IPT_EXT_PSB;
		}
		return HWPROF_PT_PSB_LEN;
	case HWPROF_PT_PSBEND:
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_PSBEND;
		return 2;
	case HWPROF_PT_CBR:
		if (!fits(v, 16))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_CBR;
		st_le(b + 2, v, 2);
		return 4;
	case HWPROF_PT_TRACESTOP:
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_STOP;
		return 2;
	case HWPROF_PT_PIP:
		if (!fits(v, 48))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_PIP;
		st_le(b + 2, v, 6);
		return 8;
	case HWPROF_PT_OVF:
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_OVF;
		return 2;
	case HWPROF_PT_MNT:
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_EXT2;
		b[2] = IPT_EXT2_MNT;
		st64(b + 3, v);
		return 11;
	case HWPROF_PT_PTWRITE:
		if (c > 1 || (!c && !fits(v, 32)))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = (uint8_t)(IPT_EXT_PTW | c << 5 | (p->ip ? 0x80 : 0));
		st_le(b + 2, v, c ? 8 : 4);
		return c ? 10 : 6;
	case HWPROF_PT_EXSTOP:
		b[0] = IPT_OPC_EXT;
		b[1] = (uint8_t)(IPT_EXT_EXSTOP | (p->ip ? 0x80 : 0));
		return 2;
	case HWPROF_PT_MWAIT:
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_MWAIT;
		st64(b + 2, v);
		return 10;
	case HWPROF_PT_PWRE:
		if (!fits(v, 16))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_PWRE;
		st_le(b + 2, v, 2);
		return 4;
	case HWPROF_PT_PWRX:
		if (!fits(v, 40))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_PWRX;
		st_le(b + 2, v, 5);
		return 7;
	case HWPROF_PT_BBP:
		if (c > 1 || !fits(v, 5))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_BBP;
		b[2] = (uint8_t)(c << 7 | v);
		return 3;
	case HWPROF_PT_BIP: {
		unsigned n = ctx == HWPROF_PT_CTX_BLK4 ? 4 : 8;
		if (ctx == HWPROF_PT_CTX_NONE || c > 31 || !fits(v, 8 * n))
			return -HWPROF_E_INVAL; /* a BIP only exists after a BBP */
		b[0] = (uint8_t)(c << 3 | 4);
		st_le(b + 1, v, n);
		return 1 + (int)n;
	}
	case HWPROF_PT_BEP:
		b[0] = IPT_OPC_EXT;
		b[1] = (uint8_t)(IPT_EXT_BEP | (p->ip ? 0x80 : 0));
		return 2;
	case HWPROF_PT_CFE:
		if (c > 31 || !fits(v, 8))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_CFE;
		b[2] = (uint8_t)(c | (p->ip ? 0x80 : 0));
		b[3] = (uint8_t)v;
		return 4;
	case HWPROF_PT_EVD:
		if (c > 63)
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_EXT;
		b[1] = IPT_EXT_EVD;
		b[2] = (uint8_t)c;
		st64(b + 3, v);
		return 11;
	case HWPROF_PT_TRIG: {
		int icntv = p->flags & HWPROF_PT_TRIG_ICNTV;
		if (c > 255 || !fits(v, icntv ? 16 : 0))
			return -HWPROF_E_INVAL;
		b[0] = IPT_OPC_TRIG;
		b[1] = (uint8_t)((p->ip ? 0x80 : 0) | (icntv ? 0x40 : 0) |
				 (p->flags & HWPROF_PT_TRIG_MULT ? 0x20 : 0));
		b[2] = (uint8_t)c;
		if (!icntv)
			return 3;
		st_le(b + 3, v, 2);
		return 5;
	}
	default:
		return -HWPROF_E_INVAL;
	}
}

/* The last IP a decoder holds after this packet (SDM IP compression). */
static uint64_t next_last_ip(uint64_t last, const struct hwprof_pt_packet *p)
{
	uint64_t v = p->payload;
	switch (p->type) {
	case HWPROF_PT_PSB:
		return 0;
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP:
		break;
	default:
		return last;
	}
	switch (p->count) {
	case 1: return (last & ~0xffffULL) | v;
	case 2: return (last & ~0xffffffffULL) | v;
	case 3: return (uint64_t)((int64_t)(v << 16) >> 16);
	case 4: return (last & ~0xffffffffffffULL) | v;
	case 6: return v;
	default: return last;
	}
}

HWPROF_API int hwprof_pt_encode(struct hwprof_pt_encoder *enc,
				const struct hwprof_pt_packet *pkt)
{
	uint8_t b[HWPROF_PT_MAX_PACKET];
	if (!enc || !pkt)
		return -HWPROF_E_INVAL;
	int n = encode_bytes(pkt, enc->ctx, b);
	if (n < 0)
		return n;
	if ((size_t)n > enc->len - enc->pos)
		return -HWPROF_E_NOMEM;
	memcpy(enc->buf + enc->pos, b, (size_t)n);
	enc->pos += (size_t)n;
	enc->last_ip = next_last_ip(enc->last_ip, pkt);
	enc->ctx = hwprof_pt_ctx_next(enc->ctx, pkt);
	return n;
}

HWPROF_API int hwprof_pt_encode_ip(struct hwprof_pt_encoder *enc,
				   enum hwprof_pt_type type, uint64_t ip)
{
	if (!enc)
		return -HWPROF_E_INVAL;
	if (type != HWPROF_PT_TIP && type != HWPROF_PT_TIP_PGE &&
	    type != HWPROF_PT_TIP_PGD && type != HWPROF_PT_FUP)
		return -HWPROF_E_INVAL;
	uint64_t last = enc->last_ip;
	struct hwprof_pt_packet p = { .type = (uint8_t)type };
	int64_t sext = (int64_t)(ip << 16) >> 16;
	if ((ip >> 16) == (last >> 16)) {
		p.count = 1;
		p.payload = ip & 0xffff;
	} else if ((ip >> 32) == (last >> 32)) {
		p.count = 2;
		p.payload = ip & 0xffffffff;
	} else if ((uint64_t)sext == ip) { /* canonical: no dependence on last IP */
		p.count = 3;
		p.payload = ip & 0xffffffffffffULL;
	} else if ((ip >> 48) == (last >> 48)) {
		p.count = 4;
		p.payload = ip & 0xffffffffffffULL;
	} else {
		p.count = 6;
		p.payload = ip;
	}
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_psb(struct hwprof_pt_encoder *enc)
{
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSB };
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_tnt(struct hwprof_pt_encoder *enc, uint64_t bits, unsigned n)
{
	if (n < 1 || n > 47 || !fits(bits, n))
		return -HWPROF_E_INVAL;
	struct hwprof_pt_packet p = { .type = HWPROF_PT_TNT, .count = n,
				      .payload = bits << (64 - n) };
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_tsc(struct hwprof_pt_encoder *enc, uint64_t tsc)
{
	struct hwprof_pt_packet p = { .type = HWPROF_PT_TSC, .payload = tsc };
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_mtc(struct hwprof_pt_encoder *enc, uint8_t ctc)
{
	struct hwprof_pt_packet p = { .type = HWPROF_PT_MTC, .payload = ctc };
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_tma(struct hwprof_pt_encoder *enc, uint16_t ctc, uint16_t fc)
{
	struct hwprof_pt_packet p = { .type = HWPROF_PT_TMA, .payload = ctc, .count = fc };
	return hwprof_pt_encode(enc, &p);
}

HWPROF_API int hwprof_pt_encode_cyc(struct hwprof_pt_encoder *enc, uint64_t cycles)
{
	struct hwprof_pt_packet p = { .type = HWPROF_PT_CYC, .payload = cycles };
	return hwprof_pt_encode(enc, &p);
}
