/* Intel PT packet iterator: walks a buffer packet by packet (one per call or
 * a batch per call), finds PSBs, seeks. The hot loop of every PT consumer.
 *
 * Speed comes from one 32-byte table entry per first byte that decodes, with
 * no data-dependent branch, every packet a trace mostly consists of: PAD,
 * short TNT, TIP/TIP.PGE/TIP.PGD/FUP (IP bytes as one masked 8-byte load),
 * MTC, TSC, one- and two-byte CYC and long TNT; longer CYCs (up to 9 bytes)
 * take a short inline detour. The serial path from one packet to the next
 * is a byte-table load and a register shift: the next packet's first byte is
 * taken from the 8 bytes already loaded (the one-packet call keeps it in the
 * decoder between calls). The other extended packets, block context (BIP),
 * perf dump mode and a buffer's last 15 bytes go through the general
 * decoder (pt_packet.c), which also owns errors. Both paths give identical
 * packets; the unit tests compare them byte by byte. */
#include <string.h>

#include "intel_pt/pt_int.h"
#include "util/bytes.h"

/* The packed fields after the payload (count, type, size, ip = 0,
 * flags = 0) as one 8-byte word: a packet is two stores. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "PT fast path assumes little endian");
_Static_assert(offsetof(struct hwprof_pt_packet, count) == 8 &&
	       offsetof(struct hwprof_pt_packet, type) == 12 &&
	       offsetof(struct hwprof_pt_packet, size) == 13 &&
	       offsetof(struct hwprof_pt_packet, flags) == 15 &&
	       sizeof(struct hwprof_pt_packet) == 16, "packet layout");
#define META(count, type, size) \
	((uint64_t)(count) | (uint64_t)(type) << 32 | (uint64_t)(size) << 40)

/* The fast decode of a packet starting with byte b, given w1 = the 8 bytes
 * after it: payload = konst | (w1 & mask) << lsh, fields = meta, and it is
 * valid iff (w1 & vmask) == vval (never for the bytes the fast path leaves
 * to the general decoder). tnt64 marks the long TNT's first byte, whose
 * payload and count are computed. */
struct fast_ent {
	uint64_t konst, mask, meta;
	uint8_t vmask, vval;
	uint8_t lsh, tnt64, pad[4];
};

/* ---- the table, as constant expressions of the first byte b ------------- */
/* short TNT: even, not PAD (0x00) or EXT (0x02); the highest set bit stops */
#define IS_TNT(b) (!((b) & 1) && (b) > 2)
#define HB(b) ((b) >= 0x80 ? 7 : (b) >= 0x40 ? 6 : (b) >= 0x20 ? 5 : (b) >= 0x10 ? 4 : \
	       (b) >= 0x08 ? 3 : (b) >= 0x04 ? 2 : 1)
/* CYC: low bits 11; bit 2 = one more byte follows */
#define IS_CYC(b) (((b) & 3) == 3)
#define IS_CYC2(b) (((b) & 7) == 7)
/* IP packets: low 5 bits; bits 7:5 compression -> payload bytes */
#define IP_TYPE(b) (((b) & 0x1f) == IPT_OPC_TIP ? HWPROF_PT_TIP : \
		    ((b) & 0x1f) == IPT_OPC_FUP ? HWPROF_PT_FUP : \
		    ((b) & 0x1f) == IPT_OPC_TIP_PGE ? HWPROF_PT_TIP_PGE : \
		    ((b) & 0x1f) == IPT_OPC_TIP_PGD ? HWPROF_PT_TIP_PGD : 0)
#define IP_BYTES(b) ((b) >> 5 == 0 ? 0 : (b) >> 5 == 1 ? 2 : (b) >> 5 == 2 ? 4 : \
		     (b) >> 5 <= 4 ? 6 : (b) >> 5 == 6 ? 8 : -1)
#define IS_IP(b) (IP_TYPE(b) && IP_BYTES(b) >= 0)
#define BYTES_MASK(n) ((n) >= 8 ? ~0ULL : (n) <= 0 ? 0 : (1ULL << (8 * ((n) & 7))) - 1)

/* kind of first byte: the fast decodes below, or 0 (general decoder) */
enum { K_NONE, K_PAD, K_TNT, K_TNT64, K_CYC, K_CYC2, K_IP, K_TSC, K_MTC };
#define KIND(b) ((b) == IPT_OPC_PAD ? K_PAD : IS_TNT(b) ? K_TNT : \
		 /* long TNT (02 a3) is the only fast extended packet */ \
		 (b) == IPT_OPC_EXT ? K_TNT64 : IS_CYC2(b) ? K_CYC2 : IS_CYC(b) ? K_CYC : \
		 IS_IP(b) ? K_IP : (b) == IPT_OPC_TSC ? K_TSC : (b) == IPT_OPC_MTC ? K_MTC : K_NONE)
#define SIZE(b) (KIND(b) == K_TNT64 || KIND(b) == K_TSC ? 8 : \
		 KIND(b) == K_CYC2 || KIND(b) == K_MTC ? 2 : \
		 KIND(b) == K_IP ? 1 + IP_BYTES(b) : KIND(b) ? 1 : 0)
#define TYPE(b) (KIND(b) == K_PAD ? HWPROF_PT_PAD : KIND(b) == K_TNT || KIND(b) == K_TNT64 ? HWPROF_PT_TNT : \
		 KIND(b) == K_CYC || KIND(b) == K_CYC2 ? HWPROF_PT_CYC : KIND(b) == K_IP ? IP_TYPE(b) : \
		 KIND(b) == K_TSC ? HWPROF_PT_TSC : KIND(b) == K_MTC ? HWPROF_PT_MTC : 0)
#define COUNT(b) (KIND(b) == K_TNT ? HB(b) - 1 : KIND(b) == K_IP ? (b) >> 5 : 0)
#define KONST(b) (KIND(b) == K_TNT ? (uint64_t)(b) << (64 - HB(b)) : \
		  KIND(b) == K_CYC || KIND(b) == K_CYC2 ? (uint64_t)(b) >> 3 : 0)
#define MASK(b) (KIND(b) == K_IP ? BYTES_MASK(IP_BYTES(b)) : KIND(b) == K_TSC ? BYTES_MASK(7) : \
		 KIND(b) == K_MTC ? 0xff : KIND(b) == K_CYC2 ? 0xfe : 0)
/* two-byte CYC: byte 1 must not continue; long TNT: byte 1 must be a3 */
#define VMASK(b) (KIND(b) == K_CYC2 ? 0x01 : KIND(b) == K_TNT64 ? 0xff : 0)
#define VVAL(b) (KIND(b) == K_TNT64 ? IPT_EXT_TNT64 : KIND(b) ? 0 : 1)
#define ENT(b) { KONST(b), MASK(b), META(COUNT(b), TYPE(b), SIZE(b)), VMASK(b), VVAL(b), \
		 KIND(b) == K_CYC2 ? 4 : 0, KIND(b) == K_TNT64, { 0 } }
#define E4(b) ENT(b), ENT((b) + 1), ENT((b) + 2), ENT((b) + 3)
#define E16(b) E4(b), E4((b) + 4), E4((b) + 8), E4((b) + 12)
#define E64(b) E16(b), E16((b) + 16), E16((b) + 32), E16((b) + 48)

/* Per first byte: the size, where in the 8 bytes after the first byte the
 * next packet's first byte is (bit shift, sizes 1-8), and 0x100 where that
 * shift applies (the one-packet call's "known" bit). Small tables: the
 * serial dependency (packet -> size -> next first byte) goes through one
 * byte load and a register shift only. */
#define S4(b) SIZE(b), SIZE((b) + 1), SIZE((b) + 2), SIZE((b) + 3)
#define S16(b) S4(b), S4((b) + 4), S4((b) + 8), S4((b) + 12)
#define S64(b) S16(b), S16((b) + 16), S16((b) + 32), S16((b) + 48)
#define NSH(b) (SIZE(b) >= 1 && SIZE(b) <= 8 ? 8 * (SIZE(b) - 1) : 0)
#define N4(b) NSH(b), NSH((b) + 1), NSH((b) + 2), NSH((b) + 3)
#define N16(b) N4(b), N4((b) + 4), N4((b) + 8), N4((b) + 12)
#define N64(b) N16(b), N16((b) + 16), N16((b) + 32), N16((b) + 48)
#define NK(b) (SIZE(b) >= 1 && SIZE(b) <= 8 ? 0x100 : 0)
#define K4(b) NK(b), NK((b) + 1), NK((b) + 2), NK((b) + 3)
#define K16(b) K4(b), K4((b) + 4), K4((b) + 8), K4((b) + 12)
#define K64(b) K16(b), K16((b) + 16), K16((b) + 32), K16((b) + 48)

/* One object, so the hot loops address all four tables from one register. */
static const struct {
	struct fast_ent ent[256];
	uint8_t size[256];
	uint8_t next_shift[256];
	uint16_t next_known[256]; /* 0x100 if next_shift applies (sizes 1-8) */
} fast __attribute__((aligned(64))) = {
	{ E64(0), E64(64), E64(128), E64(192) },
	{ S64(0), S64(64), S64(128), S64(192) },
	{ N64(0), N64(64), N64(128), N64(192) },
	{ K64(0), K64(64), K64(128), K64(192) },
};

/* Bytes the fast path may read from a packet's start (two 8-byte loads,
 * and byte 9 after a 9-byte packet). */
#define FAST_AVAIL 16

/* The packet with first byte b0, w0 = its first 8 bytes and w1 = the 8
 * after b0: fields into *pay and *meta. Returns 0 if the general decoder
 * must decode it. */
static inline __attribute__((always_inline)) int
fast_fields(unsigned b0, uint64_t w0, uint64_t w1, uint64_t *pay, uint64_t *meta)
{
	const struct fast_ent *e = &fast.ent[b0];
	/* Long TNT: the stop bit is the highest set bit of the 48-bit payload
	 * (bits 16-63 of w0); left-aligned as perf does, count = bits below
	 * it. With no stop bit perf reports 0 branches and the payload << 48,
	 * which is what stop = 16 gives. Computed always and chosen by a mask:
	 * cheaper than a branch that the packet mix makes unpredictable. */
	unsigned stop = 63 - (unsigned)__builtin_clzll(w0 | 0x10000);
	uint64_t tnt64 = -(uint64_t)e->tnt64;
	/* konst and mask are 0 for long TNT */
	*pay = (e->konst | (w1 & e->mask) << e->lsh) | ((w0 << (64 - stop)) & tnt64);
	*meta = e->meta + ((stop - 16) & tnt64);
	return (w1 & e->vmask) == e->vval;
}

/* fast_fields with long TNT decoded on a branch: for the one-packet call,
 * whose few registers the always-computed long TNT would crowd */
static inline __attribute__((always_inline)) int
fast_fields_br(unsigned b0, const uint8_t *b, uint64_t w1, uint64_t *pay, uint64_t *meta)
{
	const struct fast_ent *e = &fast.ent[b0];
	if (__builtin_expect(e->tnt64, 0)) {
		uint64_t w0 = ld64(b);
		unsigned stop = 63 - (unsigned)__builtin_clzll(w0 | 0x10000);
		*pay = w0 << (64 - stop);
		*meta = e->meta + (stop - 16);
	} else {
		*pay = e->konst | (w1 & e->mask) << e->lsh;
		*meta = e->meta;
	}
	return (w1 & e->vmask) == e->vval;
}

/* CYC with 2-8 extension bytes (the table does those with one): returns its
 * size with the count in *pay, or 0. Extension bytes carry 7 bits above a
 * "more" bit 0; the first without it ends the packet. The 7-bit groups are
 * packed together by halving steps instead of a loop over the bytes. */
static inline int cyc_long(unsigned b0, uint64_t w1, uint64_t *pay)
{
	uint64_t last = ~w1 & 0x0101010101010101ULL;
	if ((b0 & 7) != 7 || !last)
		return 0; /* not a CYC with more, or more than 8 bytes */
	unsigned k = (unsigned)__builtin_ctzll(last) >> 3; /* index of the last byte */
	uint64_t x = w1 & ((2ULL << (8 * k + 7)) - 1);
	x = (x >> 1) & 0x7f7f7f7f7f7f7f7fULL;
	x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
	x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
	x = (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
	*pay = (b0 >> 3) | x << 5;
	return 2 + (int)k;
}

static inline int fast_ok(const struct hwprof_pt_decoder *dec)
{
	return (dec->ctx | (dec->flags & HWPROF_PT_PERF_DUMP)) == 0;
}

HWPROF_API int hwprof_pt_decoder_init(struct hwprof_pt_decoder *dec,
				      const void *buf, size_t len, unsigned flags)
{
	if (!dec || (!buf && len))
		return -HWPROF_E_INVAL;
	dec->buf = buf;
	dec->len = len;
	dec->pos = 0;
	dec->err_offset = 0;
	dec->flags = flags;
	dec->ctx = HWPROF_PT_CTX_NONE;
	dec->ahead = 0;
	return 0;
}

/* The one-packet call's way out of the table path, out of line so that the
 * hot path keeps its few registers: a long CYC, or the general decoder. */
static __attribute__((noinline)) int
next_cyc_or_general(struct hwprof_pt_decoder *dec, struct hwprof_pt_packet *pkt, unsigned b0, uint64_t w1)
{
	uint64_t pay, meta;
	int n = cyc_long(b0, w1, &pay);
	if (!n)
		return ipt_decoder_next_general(dec, pkt);
	pkt->payload = pay;
	meta = META(0, HWPROF_PT_CYC, n);
	memcpy(&pkt->count, &meta, 8);
	dec->ahead = 0;
	dec->pos += (size_t)n;
	return 1;
}

HWPROF_API int hwprof_pt_decoder_next(struct hwprof_pt_decoder *dec,
				      struct hwprof_pt_packet *pkt)
{
	size_t pos = dec->pos;
	/* The first byte as the previous call left it: the size lookup then
	 * waits for no load of this call. It is only ever set by the fast path
	 * and dropped by everything else, so a known byte also says the fast
	 * path applies (no block context, not perf dump mode). */
	unsigned b0 = dec->ahead;
	if (__builtin_expect(!(b0 & 0x100), 0)) {
		if (dec->len - pos < FAST_AVAIL || !fast_ok(dec))
			return ipt_decoder_next_general(dec, pkt);
		b0 = dec->buf[pos];
	} else if (__builtin_expect(dec->len - pos < FAST_AVAIL, 0)) {
		return ipt_decoder_next_general(dec, pkt);
	}
	b0 &= 0xff;
	const uint8_t *b = dec->buf + pos;
	uint64_t w1 = ld64(b + 1), pay, meta;
	if (__builtin_expect(!fast_fields_br(b0, b, w1, &pay, &meta), 0))
		return next_cyc_or_general(dec, pkt, b0, w1);
	unsigned size = fast.size[b0];
	pkt->payload = pay;
	memcpy(&pkt->count, &meta, 8);
	dec->ahead = (uint8_t)(w1 >> fast.next_shift[b0]) | fast.next_known[b0];
	dec->pos = pos + size;
	return 1;
}

HWPROF_API int hwprof_pt_decoder_next_n(struct hwprof_pt_decoder *dec,
					struct hwprof_pt_packet *pkts, size_t n)
{
	const uint8_t *buf = dec->buf;
	size_t i = 0;
	while (i < n) {
		/* the fast loop, with everything in registers, while it applies */
		if (fast_ok(dec) && dec->len - dec->pos >= FAST_AVAIL) {
			const uint8_t *restrict p = buf + dec->pos, *end = buf + dec->len - FAST_AVAIL;
			struct hwprof_pt_packet *restrict out = pkts + i, *out_end = pkts + n;
			unsigned b0 = *p;
			while (out < out_end && p <= end) {
				uint64_t w0 = ld64(p), w1 = ld64(p + 1), pay, meta;
				if (__builtin_expect(!fast_fields(b0, w0, w1, &pay, &meta), 0)) {
					int csize = cyc_long(b0, w1, &pay);
					if (!csize)
						break;
					out->payload = pay;
					meta = META(0, HWPROF_PT_CYC, csize);
					memcpy(&out->count, &meta, 8);
					out++;
					p += csize;
					b0 = *p;
					continue;
				}
				out->payload = pay;
				memcpy(&out->count, &meta, 8);
				out++;
				/* the next first byte from w1, not from memory */
				unsigned size = fast.size[b0];
				b0 = (uint8_t)(w1 >> fast.next_shift[b0]);
				if (__builtin_expect(size > 8, 0))
					b0 = p[size];
				p += size;
			}
			i = (size_t)(out - pkts);
			dec->pos = (size_t)(p - buf);
			dec->ahead = 0;
			if (i == n)
				break;
		}
		int rc = ipt_decoder_next_general(dec, &pkts[i]);
		if (rc <= 0)
			return i ? (int)i : rc;
		i++;
	}
	return (int)i;
}

static const uint8_t psb_pattern[HWPROF_PT_PSB_LEN] = {
	2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
};

HWPROF_API int hwprof_pt_find_psb(const void *buf, size_t len, size_t from,
				  size_t *psb_off)
{
	if ((!buf && len) || !psb_off)
		return -HWPROF_E_INVAL;
	if (from >= len)
		return -HWPROF_E_NOSYNC;
	const uint8_t *b = buf;
	const uint8_t *hit = memmem(b + from, len - from, psb_pattern, sizeof(psb_pattern));
	if (!hit)
		return -HWPROF_E_NOSYNC;
	*psb_off = (size_t)(hit - b);
	return 0;
}

HWPROF_API int hwprof_pt_decoder_sync(struct hwprof_pt_decoder *dec)
{
	size_t off;
	int ret = hwprof_pt_find_psb(dec->buf, dec->len, dec->pos, &off);
	dec->ctx = HWPROF_PT_CTX_NONE;
	dec->ahead = 0;
	if (ret < 0) {
		dec->err_offset = dec->pos;
		dec->pos = dec->len;
		return ret;
	}
	dec->pos = off;
	return 0;
}

HWPROF_API int hwprof_pt_decoder_seek(struct hwprof_pt_decoder *dec, size_t offset)
{
	if (!dec || offset > dec->len)
		return -HWPROF_E_INVAL;
	dec->pos = offset;
	dec->ahead = 0;
	return 0;
}

HWPROF_API int hwprof_pt_decoder_skip(struct hwprof_pt_decoder *dec, size_t n)
{
	if (!dec || n > dec->len - dec->pos)
		return -HWPROF_E_INVAL;
	dec->pos += n;
	dec->ahead = 0;
	return 0;
}

HWPROF_API size_t hwprof_pt_decoder_offset(const struct hwprof_pt_decoder *dec)
{
	return dec->pos;
}

HWPROF_API size_t hwprof_pt_decoder_error_offset(const struct hwprof_pt_decoder *dec)
{
	return dec->err_offset;
}

