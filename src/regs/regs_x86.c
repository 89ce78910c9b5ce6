/* x86 register names by sample_regs bit (kernel uapi perf_regs.h numbering)
 * and the SIMD class table. Bits 24..40 have two meanings, chosen by the
 * sample's abi: R16..R31/SSP with the SIMD bit, legacy XMM pairs without. */
#include "regs/regs_int.h"

static const char *const gpr_names[24] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

static const char *const egpr_names[17] = {
	"R16", "R17", "R18", "R19", "R20", "R21", "R22", "R23",
	"R24", "R25", "R26", "R27", "R28", "R29", "R30", "R31", "SSP",
};

static const char *const xmm_names[16] = {
	"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
	"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

const struct hwprof_simd_class regs_x86_classes[HWPROF_SIMD_NR_CLASSES] = {
	[HWPROF_SIMD_XMM] = { "XMM", "xmm", 2, 16, 0xffffULL, 0 },
	[HWPROF_SIMD_YMM] = { "YMM", "ymm", 4, 16, 0xffffULL, 0 },
	[HWPROF_SIMD_ZMM] = { "ZMM", "zmm", 8, 32, 0xffffffffULL, 0 },
	[HWPROF_SIMD_OPMASK] = { "OPMASK", "k", 1, 8, 0xffULL, 1 },
};

const char *regs_x86_name(uint64_t abi, unsigned bit)
{
	if (bit < 24)
		return gpr_names[bit];
	if (abi & HWPROF_REGS_ABI_SIMD)
		return bit <= HWPROF_X86_SSP ? egpr_names[bit - HWPROF_X86_R16] : NULL;
	if (bit >= HWPROF_X86_XMM0 && bit < 64)
		return xmm_names[(bit - HWPROF_X86_XMM0) / 2]; /* both bits of a pair */
	return NULL;
}

uint64_t regs_x86_lookup(int is64, uint64_t abi, const char *name)
{
	/* perf's -I table has no segment registers but DS..GS; 32-bit has no R8+. */
	for (unsigned b = 0; b < (is64 ? 24u : 12u); b++)
		if (!(HWPROF_X86_SEG_MASK >> b & 1) && regs_name_eq(name, gpr_names[b]))
			return 1ULL << b;
	if (abi & HWPROF_REGS_ABI_SIMD) {
		for (unsigned i = 0; i < 17; i++)
			if (is64 && regs_name_eq(name, egpr_names[i]))
				return 1ULL << (HWPROF_X86_R16 + i);
		return 0;
	}
	for (unsigned i = 0; i < 16; i++)
		if (regs_name_eq(name, xmm_names[i]))
			return 3ULL << (HWPROF_X86_XMM0 + 2 * i);
	return 0;
}
