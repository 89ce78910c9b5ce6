/* The SPE header-byte table shared by the packet decoder (spe_packet.c)
 * and the synthesizer's inner loop (spe_synth.c), and an inline decoder
 * for the packets that make up nearly every record (one-byte headers with
 * a known index), so the hot loop needs no call and no memset per packet.
 * Everything else (extended headers, alignment, unknown indexes, bad or
 * cut packets) goes through hwprof_spe_decoder_next. */
#ifndef HWPROF_ARM_SPE_FAST_H
#define HWPROF_ARM_SPE_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/arm_spe.h"
#include "util/bytes.h"

/* Header classes. The first byte picks one; for the extended 2-byte form
 * (0x20-0x23) the second byte is looked up again and must be ADDRESS or
 * COUNTER, or 0x00 for ALIGNMENT. */
enum { SC_B, SC_P, SC_E, SC_T, SC_V, SC_D, SC_C, SC_O, SC_X, SC_A, SC_N };

#define B SC_B
#define P SC_P
#define E SC_E
#define T SC_T
#define V SC_V
#define D SC_D
#define C SC_C
#define O SC_O
#define X SC_X
#define A SC_A
#define N SC_N

static const uint8_t spe_hdr_class[256] = {
	/* 00 */ P, E, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 10 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 20 */ X, X, X, X, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 30 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 40 */ B, B, V, D, B, B, B, B, O, O, O, O, B, B, B, B,
	/* 50 */ B, B, V, D, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 60 */ B, B, V, D, C, C, C, C, B, B, B, B, B, B, B, B,
	/* 70 */ B, T, V, D, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 80 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* 90 */ B, B, B, B, B, B, B, B, N, N, N, N, N, N, N, N,
	/* a0 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* b0 */ A, A, A, A, A, A, A, A, B, B, B, B, B, B, B, B,
	/* c0 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* d0 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* e0 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
	/* f0 */ B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
};

/* Packet type per class (X resolves through the second byte). */
static const uint8_t spe_class_type[] = {
	[B] = HWPROF_SPE_BAD, [P] = HWPROF_SPE_PAD, [E] = HWPROF_SPE_END,
	[T] = HWPROF_SPE_TIMESTAMP, [V] = HWPROF_SPE_EVENTS,
	[D] = HWPROF_SPE_DATA_SOURCE, [C] = HWPROF_SPE_CONTEXT,
	[O] = HWPROF_SPE_OP_TYPE, [X] = HWPROF_SPE_BAD,
	[A] = HWPROF_SPE_ADDRESS, [N] = HWPROF_SPE_COUNTER,
};

#undef B
#undef P
#undef E
#undef T
#undef V
#undef D
#undef C
#undef O
#undef X
#undef A
#undef N

/* Little-endian payload of 1, 2, 4 or 8 bytes. */
static inline uint64_t spe_le(const uint8_t *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	switch (n) {
	case 1: return p[0];
	case 2: return ld16(p);
	case 4: return ld32(p);
	default: return ld64(p);
	}
#else
	return ld_le(p, n);
#endif
}

/* Decodes the packet at b (avail bytes) into type/index/payload when it is
 * a common one; returns its length, or 0 for "take the general path". */
static inline unsigned spe_fast_decode(const uint8_t *b, size_t avail, struct hwprof_spe_pkt *pkt)
{
	unsigned h = b[0], cls = spe_hdr_class[h], plen;

	switch (cls) {
	case SC_P:
		pkt->type = HWPROF_SPE_PAD;
		return 1;
	case SC_E:
		pkt->type = HWPROF_SPE_END;
		return 1;
	case SC_T:
	case SC_D:
		pkt->index = 0;
		break;
	case SC_V:
		pkt->index = (uint8_t)(1u << ((h >> 4) & 3));
		break;
	case SC_C:
		pkt->index = h & 3;
		break;
	case SC_O:
		if ((h & 3) == 3)
			return 0;
		pkt->index = h & 3;
		break;
	case SC_A:
		if ((h & 7) > HWPROF_SPE_ADDR_DATA_PHYS)
			return 0;
		pkt->index = h & 7;
		break;
	case SC_N:
		pkt->index = h & 7;
		break;
	default:
		return 0;
	}
	plen = 1u << ((h >> 4) & 3);
	if (avail < 1 + plen)
		return 0;
	pkt->type = spe_class_type[cls];
	pkt->payload = spe_le(b + 1, plen);
	return 1 + plen;
}

#endif
