/* perf 6.1's data_src for an SPE record, inline: the synthesizer derives
 * it per record (spe_synth.c), hwprof_spe_data_src() wraps it. */
#ifndef HWPROF_ARM_SPE_DATASRC_H
#define HWPROF_ARM_SPE_DATASRC_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/arm_spe.h"
#include "hwprof/arm_spe_synth.h"

/* perf_mem_data_src field values (uapi perf_event.h) */
enum {
	SPE_LVL_HIT = 0x02, SPE_LVL_MISS = 0x04, SPE_LVL_L1 = 0x08, SPE_LVL_L2 = 0x20, SPE_LVL_L3 = 0x40,
	SPE_LVL_LOC_RAM = 0x80, SPE_LVL_NA = 0x01,
	SPE_LVLNUM_L1 = 1, SPE_LVLNUM_L2 = 2, SPE_LVLNUM_L3 = 3, SPE_LVLNUM_RAM = 0xd,
	SPE_LVLNUM_NA = 0xf,
	SPE_SNOOP_NA = 0x01, SPE_SNOOP_NONE = 0x02, SPE_SNOOP_HIT = 0x04,
	SPE_SNOOPX_PEER = 0x02,
	SPE_TLB_HIT = 0x02, SPE_TLB_MISS = 0x04, SPE_TLB_WK = 0x20,
};

#define SPE_F(v, shift) ((uint64_t)(v) << HWPROF_MEM_##shift##_SHIFT)

/* Neoverse DATA_SOURCE values -> level/snoop bits (loads only); values
 * not listed give 0. */
static const uint64_t spe_nv_bits[16] = {
	[0x0] = SPE_F(SPE_LVL_L1 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L1, LVLNUM) | SPE_F(SPE_SNOOP_NONE, SNOOP), /* L1D */
	[0x8] = SPE_F(SPE_LVL_L2 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L2, LVLNUM) | SPE_F(SPE_SNOOP_NONE, SNOOP), /* L2 */
	[0x9] = SPE_F(SPE_LVL_L2 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L2, LVLNUM) | SPE_F(SPE_SNOOPX_PEER, SNOOPX), /* peer core */
	[0xa] = SPE_F(SPE_LVL_L3 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L3, LVLNUM) | SPE_F(SPE_SNOOPX_PEER, SNOOPX), /* local cluster */
	[0xb] = SPE_F(SPE_LVL_L3 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L3, LVLNUM) | SPE_F(SPE_SNOOP_HIT, SNOOP), /* system cache */
	[0xc] = SPE_F(SPE_LVL_L3 | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_L3, LVLNUM) | SPE_F(SPE_SNOOPX_PEER, SNOOPX), /* peer cluster */
	/* other socket, level unknown (newer perf says REM_CCE1 / any cache) */
	[0xd] = SPE_F(SPE_LVL_NA, LVL) | SPE_F(SPE_LVLNUM_NA, LVLNUM) | SPE_F(1, REMOTE) | SPE_F(SPE_SNOOPX_PEER, SNOOPX),
	[0xe] = SPE_F(SPE_LVL_LOC_RAM | SPE_LVL_HIT, LVL) | SPE_F(SPE_LVLNUM_RAM, LVLNUM) | SPE_F(SPE_SNOOP_NONE, SNOOP), /* DRAM */
};

/* What follows is written without data-dependent branches: the op and
 * event bits of consecutive records vary at random, and this runs per
 * record. */

/* a mask of all ones when c, else 0 */
static inline uint64_t spe_ds_mask(bool c)
{
	return 0 - (uint64_t)c;
}

static inline uint64_t spe_ds_neoverse(const struct hwprof_spe_record *rec, bool store)
{
	/* Neoverse records say nothing about where a store went. */
	const uint64_t na = SPE_F(SPE_LVL_NA, LVL) | SPE_F(SPE_LVLNUM_NA, LVLNUM) | SPE_F(SPE_SNOOP_NA, SNOOP);
	uint64_t load = spe_nv_bits[rec->data_source & 15] & spe_ds_mask(rec->data_source < 16);

	return (na & spe_ds_mask(store)) | (load & ~spe_ds_mask(store));
}

static inline uint64_t spe_ds_generic(uint64_t ev)
{
	bool llc = ev & (1u << HWPROF_SPE_EV_LLC_ACCESS | 1u << HWPROF_SPE_EV_LLC_MISS);
	bool l1 = ev & (1u << HWPROF_SPE_EV_L1D_ACCESS | 1u << HWPROF_SPE_EV_L1D_REFILL);
	bool llc_miss = ev & 1u << HWPROF_SPE_EV_LLC_MISS, l1_miss = ev & 1u << HWPROF_SPE_EV_L1D_REFILL;
	uint64_t v_llc = SPE_F(SPE_LVL_L3 | (llc_miss ? SPE_LVL_MISS : SPE_LVL_HIT), LVL);
	uint64_t v_l1 = SPE_F(SPE_LVL_L1 | (l1_miss ? SPE_LVL_MISS : SPE_LVL_HIT), LVL);
	uint64_t v = (v_llc & spe_ds_mask(llc)) | (v_l1 & spe_ds_mask(!llc && l1));

	return v | (SPE_F(1, REMOTE) & spe_ds_mask(ev & 1u << HWPROF_SPE_EV_REMOTE_ACCESS));
}

/* hwprof_spe_data_src with the CPU family decided once (the synthesizer
 * asks per record, so it is inline). */
static inline uint64_t spe_data_src_kind(const struct hwprof_spe_record *rec, bool neoverse)
{
	unsigned op = rec->op, cls = rec->op_class;
	/* perf 6.1's op bits from the last OP_TYPE when the assembler left
	 * none: load or store (LDST), SVE data processing as a load (OTHER) */
	unsigned from_op = (cls == HWPROF_SPE_OP_CLASS_LDST ? 1u + (op & 1) : 0) |
			   (cls == HWPROF_SPE_OP_CLASS_OTHER && (op & 0x89) == 0x08);
	unsigned seen = rec->ldst_seen ? rec->ldst_seen : from_op & (unsigned)spe_ds_mask(rec->present & HWPROF_SPE_HAS_OP);
	uint64_t ev = rec->events, v;

	/* a record with both a load and a store packet is a load for the op,
	 * and a store for the Neoverse table (as perf 6.1) */
	v = (seen & 1) ? SPE_F(HWPROF_MEM_OP_LOAD, OP) : SPE_F(HWPROF_MEM_OP_STORE, OP);
	if (neoverse) /* the same for every record */
		v |= spe_ds_neoverse(rec, seen & 2);
	else
		v |= spe_ds_generic(ev);
	bool walk = ev & 1u << HWPROF_SPE_EV_TLB_WALK;
	v |= SPE_F(SPE_TLB_WK | (walk ? SPE_TLB_MISS : SPE_TLB_HIT), TLB) &
	     spe_ds_mask(ev & (1u << HWPROF_SPE_EV_TLB_ACCESS | 1u << HWPROF_SPE_EV_TLB_WALK));
	return v & spe_ds_mask(seen != 0); /* neither a load nor a store: 0 */
}

#endif
