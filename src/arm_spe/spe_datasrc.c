/* perf_mem_data_src for Arm SPE records, as Debian perf 6.1 derives it: the
 * memory op from the OP_TYPE packets (load wins over store; an SVE
 * data-processing op counts as a load, a quirk of perf's op bits), the hit level and snoop from the Neoverse
 * DATA_SOURCE encoding (N1/N2/V1 and optionally V2, keyed by MIDR) or from
 * the cache events on other cores, and the TLB walk result from the TLB
 * events. Table-driven: one row per Neoverse source value. */
#include "hwprof/arm_spe_synth.h"
#include "arm_spe/spe_int.h"

/* perf_mem_data_src field values (uapi perf_event.h) */
enum {
	LVL_HIT = 0x02, LVL_MISS = 0x04, LVL_L1 = 0x08, LVL_L2 = 0x20, LVL_L3 = 0x40,
	LVL_LOC_RAM = 0x80, LVL_NA = 0x01,
	LVLNUM_L1 = 1, LVLNUM_L2 = 2, LVLNUM_L3 = 3, LVLNUM_RAM = 0xd,
	LVLNUM_NA = 0xf,
	SNOOP_NA = 0x01, SNOOP_NONE = 0x02, SNOOP_HIT = 0x04,
	SNOOPX_PEER = 0x02,
	TLB_HIT = 0x02, TLB_MISS = 0x04, TLB_WK = 0x20,
};

#define F(v, shift) ((uint64_t)(v) << HWPROF_MEM_##shift##_SHIFT)

/* Neoverse DATA_SOURCE values -> level/snoop bits (loads only). */
struct spe_nv_src {
	uint16_t source;
	uint64_t bits;
};

static const struct spe_nv_src spe_nv_table[] = {
	{ 0x0, F(LVL_L1 | LVL_HIT, LVL) | F(LVLNUM_L1, LVLNUM) | F(SNOOP_NONE, SNOOP) },   /* L1D */
	{ 0x8, F(LVL_L2 | LVL_HIT, LVL) | F(LVLNUM_L2, LVLNUM) | F(SNOOP_NONE, SNOOP) },   /* L2 */
	{ 0x9, F(LVL_L2 | LVL_HIT, LVL) | F(LVLNUM_L2, LVLNUM) | F(SNOOPX_PEER, SNOOPX) }, /* peer core */
	{ 0xa, F(LVL_L3 | LVL_HIT, LVL) | F(LVLNUM_L3, LVLNUM) | F(SNOOPX_PEER, SNOOPX) }, /* local cluster */
	{ 0xb, F(LVL_L3 | LVL_HIT, LVL) | F(LVLNUM_L3, LVLNUM) | F(SNOOP_HIT, SNOOP) },    /* system cache */
	{ 0xc, F(LVL_L3 | LVL_HIT, LVL) | F(LVLNUM_L3, LVLNUM) | F(SNOOPX_PEER, SNOOPX) }, /* peer cluster */
	/* other socket, level unknown (newer perf says REM_CCE1 / any cache) */
	{ 0xd, F(LVL_NA, LVL) | F(LVLNUM_NA, LVLNUM) | F(1, REMOTE) | F(SNOOPX_PEER, SNOOPX) },
	{ 0xe, F(LVL_LOC_RAM | LVL_HIT, LVL) | F(LVLNUM_RAM, LVLNUM) | F(SNOOP_NONE, SNOOP) }, /* DRAM */
};

HWPROF_API bool hwprof_spe_midr_is_neoverse(uint64_t midr, unsigned flags)
{
	/* implementer Arm (0x41), architecture 0xf, part number; any variant/revision */
	static const uint16_t parts[] = { 0xd0c /* N1 */, 0xd49 /* N2 */, 0xd40 /* V1 */ };
	uint32_t m = (uint32_t)midr;

	if ((m >> 24) != 0x41 || ((m >> 16) & 0xf) != 0xf || midr >> 32)
		return false;
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (((m >> 4) & 0xfff) == parts[i])
			return true;
	return (flags & HWPROF_SPE_DS_NEOVERSE_V2) && ((m >> 4) & 0xfff) == 0xd4f;
}

static uint64_t spe_ds_neoverse(const struct hwprof_spe_record *rec, bool store)
{
	/* Neoverse records say nothing about where a store went. */
	if (store)
		return F(LVL_NA, LVL) | F(LVLNUM_NA, LVLNUM) | F(SNOOP_NA, SNOOP);
	for (unsigned i = 0; i < sizeof(spe_nv_table) / sizeof(spe_nv_table[0]); i++)
		if (spe_nv_table[i].source == rec->data_source)
			return spe_nv_table[i].bits;
	return 0;
}

static uint64_t spe_ds_generic(uint64_t ev)
{
	uint64_t v = 0;

	if (ev & (1u << HWPROF_SPE_EV_LLC_ACCESS | 1u << HWPROF_SPE_EV_LLC_MISS))
		v = F(LVL_L3 | ((ev & 1u << HWPROF_SPE_EV_LLC_MISS) ? LVL_MISS : LVL_HIT), LVL);
	else if (ev & (1u << HWPROF_SPE_EV_L1D_ACCESS | 1u << HWPROF_SPE_EV_L1D_REFILL))
		v = F(LVL_L1 | ((ev & 1u << HWPROF_SPE_EV_L1D_REFILL) ? LVL_MISS : LVL_HIT), LVL);
	if (ev & 1u << HWPROF_SPE_EV_REMOTE_ACCESS)
		v |= F(1, REMOTE);
	return v;
}

HWPROF_API uint64_t hwprof_spe_data_src(const struct hwprof_spe_record *rec, uint64_t midr, unsigned flags)
{
	if (!rec)
		return 0;
	return spe_data_src_kind(rec, hwprof_spe_midr_is_neoverse(midr, flags));
}

uint64_t spe_data_src_kind(const struct hwprof_spe_record *rec, bool neoverse)
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
	v = F((seen & 1) ? HWPROF_MEM_OP_LOAD : HWPROF_MEM_OP_STORE, OP);
	if (neoverse)
		v |= spe_ds_neoverse(rec, seen & 2);
	else
		v |= spe_ds_generic(ev);
	if (ev & (1u << HWPROF_SPE_EV_TLB_ACCESS | 1u << HWPROF_SPE_EV_TLB_WALK))
		v |= F(TLB_WK | ((ev & 1u << HWPROF_SPE_EV_TLB_WALK) ? TLB_MISS : TLB_HIT), TLB);
	return v;
}
