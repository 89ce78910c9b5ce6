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

static inline uint64_t spe_ds_neoverse(const struct hwprof_spe_record *rec, bool store)
{
	/* Neoverse records say nothing about where a store went. */
	if (store)
		return SPE_F(SPE_LVL_NA, LVL) | SPE_F(SPE_LVLNUM_NA, LVLNUM) | SPE_F(SPE_SNOOP_NA, SNOOP);
	return rec->data_source < 16 ? spe_nv_bits[rec->data_source] : 0;
}

static inline uint64_t spe_ds_generic(uint64_t ev)
{
	uint64_t v = 0;

	if (ev & (1u << HWPROF_SPE_EV_LLC_ACCESS | 1u << HWPROF_SPE_EV_LLC_MISS))
		v = SPE_F(SPE_LVL_L3 | ((ev & 1u << HWPROF_SPE_EV_LLC_MISS) ? SPE_LVL_MISS : SPE_LVL_HIT), LVL);
	else if (ev & (1u << HWPROF_SPE_EV_L1D_ACCESS | 1u << HWPROF_SPE_EV_L1D_REFILL))
		v = SPE_F(SPE_LVL_L1 | ((ev & 1u << HWPROF_SPE_EV_L1D_REFILL) ? SPE_LVL_MISS : SPE_LVL_HIT), LVL);
	if (ev & 1u << HWPROF_SPE_EV_REMOTE_ACCESS)
		v |= SPE_F(1, REMOTE);
	return v;
}

/* hwprof_spe_data_src with the CPU family decided once (the synthesizer
 * asks per record, so it is inline). */
static inline uint64_t spe_data_src_kind(const struct hwprof_spe_record *rec, bool neoverse)
{
	uint64_t v, ev;
	unsigned seen;

	seen = rec->ldst_seen;
	if (!seen && (rec->present & HWPROF_SPE_HAS_OP)) {
		if (rec->op_class == HWPROF_SPE_OP_CLASS_LDST)
			seen = (rec->op & 1) ? 2 : 1;
		else if (rec->op_class == HWPROF_SPE_OP_CLASS_OTHER && (rec->op & 0x89) == 0x08)
			seen = 1; /* perf 6.1: SVE data processing shares the load bit */
	}
	if (!seen)
		return 0;
	ev = rec->events;
	/* a record with both a load and a store packet is a load for the op,
	 * and a store for the Neoverse table (as perf 6.1) */
	v = SPE_F((seen & 1) ? HWPROF_MEM_OP_LOAD : HWPROF_MEM_OP_STORE, OP);
	if (neoverse)
		v |= spe_ds_neoverse(rec, seen & 2);
	else
		v |= spe_ds_generic(ev);
	if (ev & (1u << HWPROF_SPE_EV_TLB_ACCESS | 1u << HWPROF_SPE_EV_TLB_WALK))
		v |= SPE_F(SPE_TLB_WK | ((ev & 1u << HWPROF_SPE_EV_TLB_WALK) ? SPE_TLB_MISS : SPE_TLB_HIT), TLB);
	return v;
}

#endif
