/* The SPE header-byte table of the packet decoder (spe_packet.c)
 * and the helpers the synthesizer's inner loop (spe_synth.c) inlines:
 * little-endian payloads and perf's address adjustment. */
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

/* perf 6.1's calc_ip for the address kinds the synthesizer keeps (the
 * body of hwprof_spe_addr_value, inline for the hot loop). */
static inline uint64_t spe_addr_inline(unsigned index, uint64_t payload)
{
	uint64_t va = HWPROF_SPE_ADDR_VA(payload);

	switch (index) {
	case HWPROF_SPE_ADDR_INS:
	case HWPROF_SPE_ADDR_BRANCH: {
		/* Kernel (and VHE hypervisor) text lives in the top half: NS
		 * set and EL 1 or 2 (the two EL bits differ). By mask, not a
		 * branch: user and kernel samples mix at random. */
		uint64_t k = (payload >> 63) & ((payload >> 61) ^ (payload >> 62)) & 1;

		return va | ((0 - k) & (0xffull << 56));
	}
	case HWPROF_SPE_ADDR_DATA_VIRT: {
		/* Top byte is a tag; bits 55:52 all set means a kernel address
		 * (by mask too) */
		uint64_t k = ((va >> 52) & 0xf) == 0xf;

		return va | ((0 - k) & (0xffull << 56));
	}
	case HWPROF_SPE_ADDR_DATA_PHYS:
		return va;
	default:
		return payload;
	}
}

#endif
