/* Register names of the architectures hwprof does not sample on but
 * whose perf.data files it reads (perf report -D names each bit by the
 * file's ARCH): powerpc, s390, 32-bit arm, mips and csky, as perf 6.1
 * names them; NULL where perf prints "unknown" (every bit of the other
 * architectures: riscv, loongarch, sparc, ...). */
#include "regs/regs_int.h"

static const char *const powerpc_names[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
	"nip", "msr", "orig_r3", "ctr", "link", "xer", "ccr", "softe", "trap", "dar", "dsisr", "sier", "mmcra",
	"mmcr0", "mmcr1", "mmcr2", "mmcr3", "sier2", "sier3", "pmc1", "pmc2", "pmc3", "pmc4", "pmc5", "pmc6",
	"sdar", "siar",
};

static const char *const s390_names[] = {
	"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	"FP0", "FP1", "FP2", "FP3", "FP4", "FP5", "FP6", "FP7", "FP8", "FP9", "FP10", "FP11", "FP12", "FP13",
	"FP14", "FP15", "MASK", "PC",
};

static const char *const arm_names[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

/* $26 and $27 (k0, k1) have no name in perf */
static const char *const mips_names[] = {
	"PC", "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15",
	"$16", "$17", "$18", "$19", "$20", "$21", "$22", "$23", "$24", "$25", NULL, NULL, "$28", "$29", "$30", "$31",
};

/* tls, sr and orig_a0 (bits 0, 3, 5) have no name in perf 6.1 */
static const char *const csky_names[] = {
	NULL, "lr", "pc", NULL, "sp", NULL, "a0", "a1", "a2", "a3",
	"regs0", "regs1", "regs2", "regs3", "regs4", "regs5", "regs6", "regs7", "regs8", "regs9",
};

#define PICK(t, bit) ((bit) < sizeof(t) / sizeof((t)[0]) ? (t)[bit] : NULL)

const char *regs_other_name(enum hwprof_arch arch, unsigned bit)
{
	switch (arch) {
	case HWPROF_ARCH_POWERPC: return PICK(powerpc_names, bit);
	case HWPROF_ARCH_S390: return PICK(s390_names, bit);
	case HWPROF_ARCH_ARM: return PICK(arm_names, bit);
	case HWPROF_ARCH_MIPS: return PICK(mips_names, bit);
	case HWPROF_ARCH_CSKY: return PICK(csky_names, bit);
	default: return NULL;
	}
}
