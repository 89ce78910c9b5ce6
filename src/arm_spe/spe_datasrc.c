/* perf_mem_data_src for Arm SPE records, as Debian perf 6.1 derives it: the
 * memory op from the OP_TYPE packets (load wins over store; an SVE
 * data-processing op counts as a load, a quirk of perf's op bits), the hit level and snoop from the Neoverse
 * DATA_SOURCE encoding (N1/N2/V1 and optionally V2, keyed by MIDR) or from
 * the cache events on other cores, and the TLB walk result from the TLB
 * events. The derivation itself is inline in spe_int.h (the synthesizer
 * asks per record). */
#include "hwprof/arm_spe_synth.h"
#include "arm_spe/spe_datasrc.h"

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

HWPROF_API uint64_t hwprof_spe_data_src(const struct hwprof_spe_record *rec, uint64_t midr, unsigned flags)
{
	if (!rec)
		return 0;
	return spe_data_src_kind(rec, hwprof_spe_midr_is_neoverse(midr, flags));
}
