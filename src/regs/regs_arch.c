/* Architecture selection and the arch dispatch of the register tables:
 * a perf.data ARCH string or the build host picks the table. */
#include <string.h>

#include "regs/regs_int.h"

int regs_name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
		if (!x)
			return 1;
	}
}

HWPROF_API enum hwprof_arch hwprof_arch_from_name(const char *name)
{
	if (!name)
		return HWPROF_ARCH_UNKNOWN;
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64") || !strcmp(name, "x86"))
		return HWPROF_ARCH_X86_64;
	/* uname -m on 32-bit x86: i386 .. i686 */
	if (name[0] == 'i' && name[1] >= '3' && name[1] <= '6' && !strcmp(name + 2, "86"))
		return HWPROF_ARCH_I386;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64") || !strcmp(name, "aarch64_be"))
		return HWPROF_ARCH_ARM64;
	/* the others as perf normalizes uname -m */
	if (!strncmp(name, "ppc", 3) || !strncmp(name, "powerpc", 7))
		return HWPROF_ARCH_POWERPC;
	if (!strncmp(name, "s390", 4))
		return HWPROF_ARCH_S390;
	if (!strncmp(name, "arm", 3))
		return HWPROF_ARCH_ARM;
	if (!strncmp(name, "mips", 4))
		return HWPROF_ARCH_MIPS;
	if (!strcmp(name, "csky"))
		return HWPROF_ARCH_CSKY;
	return HWPROF_ARCH_UNKNOWN;
}

HWPROF_API enum hwprof_arch hwprof_arch_host(void)
{
#if defined(__x86_64__)
	return HWPROF_ARCH_X86_64;
#elif defined(__i386__)
	return HWPROF_ARCH_I386;
#elif defined(__aarch64__)
	return HWPROF_ARCH_ARM64;
#else
	return HWPROF_ARCH_UNKNOWN;
#endif
}

HWPROF_API const char *hwprof_arch_name(enum hwprof_arch arch)
{
	switch (arch) {
	case HWPROF_ARCH_X86_64: return "x86_64";
	case HWPROF_ARCH_I386: return "i386";
	case HWPROF_ARCH_ARM64: return "arm64";
	case HWPROF_ARCH_POWERPC: return "powerpc";
	case HWPROF_ARCH_S390: return "s390";
	case HWPROF_ARCH_ARM: return "arm";
	case HWPROF_ARCH_MIPS: return "mips";
	case HWPROF_ARCH_CSKY: return "csky";
	case HWPROF_ARCH_OTHER: return "other";
	case HWPROF_ARCH_UNKNOWN: break;
	}
	return "unknown";
}

HWPROF_API const char *hwprof_reg_name(enum hwprof_arch arch, uint64_t abi, unsigned bit)
{
	if (bit > 63)
		return NULL;
	switch (arch) {
	case HWPROF_ARCH_X86_64:
	case HWPROF_ARCH_I386: return regs_x86_name(abi, bit);
	case HWPROF_ARCH_ARM64: return regs_arm64_name(bit);
	case HWPROF_ARCH_POWERPC:
	case HWPROF_ARCH_S390:
	case HWPROF_ARCH_ARM:
	case HWPROF_ARCH_MIPS:
	case HWPROF_ARCH_CSKY: return regs_other_name(arch, bit);
	case HWPROF_ARCH_OTHER:
	case HWPROF_ARCH_UNKNOWN: break;
	}
	return NULL;
}

HWPROF_API uint64_t hwprof_reg_lookup(enum hwprof_arch arch, uint64_t abi, const char *name)
{
	if (!name)
		return 0;
	switch (arch) {
	case HWPROF_ARCH_X86_64: return regs_x86_lookup(1, abi, name);
	case HWPROF_ARCH_I386: return regs_x86_lookup(0, abi, name);
	case HWPROF_ARCH_ARM64: return regs_arm64_lookup(name);
	default: break; /* no recording on the others */
	}
	return 0;
}

HWPROF_API const struct hwprof_simd_class *hwprof_simd_classes(enum hwprof_arch arch, size_t *nr)
{
	if (arch == HWPROF_ARCH_X86_64 || arch == HWPROF_ARCH_I386) {
		if (nr)
			*nr = HWPROF_SIMD_NR_CLASSES;
		return regs_x86_classes;
	}
	if (nr)
		*nr = 0;
	return NULL;
}

HWPROF_API const struct hwprof_simd_class *hwprof_simd_class_by_qwords(enum hwprof_arch arch,
									int pred, uint64_t qwords)
{
	size_t n;
	const struct hwprof_simd_class *c = hwprof_simd_classes(arch, &n);
	for (size_t i = 0; i < n; i++)
		if (c[i].qwords == qwords && c[i].pred == !!pred)
			return &c[i];
	return NULL;
}

HWPROF_API void hwprof_regs_avail_default(struct hwprof_regs_avail *avail, enum hwprof_arch arch)
{
	memset(avail, 0, sizeof(*avail));
	avail->arch = arch;
	switch (arch) {
	case HWPROF_ARCH_X86_64:
		avail->abi = HWPROF_REGS_ABI_64;
		avail->mask = HWPROF_X86_64_GPR_MASK;
		break;
	case HWPROF_ARCH_I386:
		avail->abi = HWPROF_REGS_ABI_32;
		avail->mask = HWPROF_X86_32_GPR_MASK;
		break;
	case HWPROF_ARCH_ARM64:
		avail->abi = HWPROF_REGS_ABI_64;
		avail->mask = HWPROF_ARM64_GPR_MASK;
		break;
	default: /* none to record on the others */
		break;
	}
}

HWPROF_API void hwprof_regs_avail_full(struct hwprof_regs_avail *avail, enum hwprof_arch arch)
{
	hwprof_regs_avail_default(avail, arch);
	if (arch == HWPROF_ARCH_ARM64)
		avail->mask |= HWPROF_ARM64_VG_MASK; /* with SVE */
	if (arch != HWPROF_ARCH_X86_64)
		return;
	avail->abi |= HWPROF_REGS_ABI_SIMD;
	avail->mask |= HWPROF_X86_EGPR_MASK | HWPROF_X86_SSP_MASK;
	avail->class_mask[HWPROF_SIMD_XMM] = 0xffff;
	avail->class_mask[HWPROF_SIMD_YMM] = 0xffff;
	avail->class_mask[HWPROF_SIMD_ZMM] = 0xffffffff;
	avail->class_mask[HWPROF_SIMD_OPMASK] = 0xff;
}
