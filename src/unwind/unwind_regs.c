/* Sampled user registers in the unwinder's terms: perf's register bits
 * (arch/<arch>/include/uapi/asm/perf_regs.h) mapped onto the DWARF
 * register numbers of each psABI, and the bounds of the stack copy. */
#include <string.h>

#include "hwprof/unwind.h"

/* x86-64 psABI DWARF order: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
static const int x86_64_perf_of_dwarf[17] = {
	HWPROF_X86_AX, HWPROF_X86_DX, HWPROF_X86_CX, HWPROF_X86_BX, HWPROF_X86_SI, HWPROF_X86_DI,
	HWPROF_X86_BP, HWPROF_X86_SP, 16, 17, 18, 19, 20, 21, 22, 23, HWPROF_X86_IP,
};

/* The value of perf register bit `id`, when the sample holds it. */
static int reg_value(const struct hwprof_regs *r, unsigned id, uint64_t *v)
{
	if (!r->abi || !r->regs || id > 63 || !(r->mask & (1ULL << id)))
		return 0;
	unsigned idx = (unsigned)__builtin_popcountll(r->mask & ((1ULL << id) - 1));
	if (idx >= r->nr)
		return 0;
	memcpy(v, r->regs + 8 * (size_t)idx, 8);
	return 1;
}

HWPROF_API int hwprof_unwind_dwarf_regs(enum hwprof_arch arch, const struct hwprof_regs *r, uint64_t *dwarf,
					size_t n, uint64_t *ip, uint64_t *sp)
{
	int count;
	unsigned ip_id, sp_id;
	switch (arch) {
	case HWPROF_ARCH_X86_64:
		count = 17;
		ip_id = HWPROF_X86_IP;
		sp_id = HWPROF_X86_SP;
		break;
	case HWPROF_ARCH_ARM64:
		count = 32;
		ip_id = HWPROF_ARM64_PC;
		sp_id = HWPROF_ARM64_SP;
		break;
	default:
		return -1;
	}
	if (!reg_value(r, ip_id, ip) || !reg_value(r, sp_id, sp))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0;
		if ((int)i < count) {
			unsigned id = arch == HWPROF_ARCH_X86_64 ? (unsigned)x86_64_perf_of_dwarf[i] : (unsigned)i;
			reg_value(r, id, &v);
		}
		dwarf[i] = v;
	}
	return count;
}

HWPROF_API int hwprof_unwind_stack_word(const uint8_t *stack, uint64_t size, uint64_t sp, uint64_t addr,
					uint64_t *val)
{
	/* perf's libunwind reader: inside when sp <= addr and addr + 8 < end,
	 * with no wrap-around anywhere */
	if (!stack || addr < sp || addr + 8 < addr || sp + size < sp)
		return 0;
	if (addr + 8 >= sp + size)
		return 0;
	memcpy(val, stack + (addr - sp), 8);
	return 1;
}
