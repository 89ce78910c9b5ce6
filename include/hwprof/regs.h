/* Register tables and the SIMD / APX eGPR / SSP register sampling ABI.
 *
 *   hwprof_arch_*()            which register table applies (file or host)
 *   hwprof_reg_name()          perf's name of bit N of sample_regs_* for an abi
 *   hwprof_simd_class_*()      vector (XMM/YMM/ZMM) and predicate (OPMASK) classes
 *   hwprof_regs_validate()     the kernel's attr checks, as one-line messages
 *   hwprof_regs_parse_list()   perf's -I / --user-regs list into an attr
 *   hwprof_regs_probe()        what the kernel accepts (through hwprof_sys_ops)
 *   hwprof_regs_format_avail() perf's "available registers: ..." line
 *   hwprof_regs_explain_open_error()  why perf_event_open refused, what works
 *
 * Bit numbers are the kernel's (arch/<arch>/include/uapi/asm/perf_regs.h).
 * On x86-64 bits 24..40 mean R16..R31 and SSP when a sample's abi has
 * HWPROF_REGS_ABI_SIMD, and bits 32..63 are XMM0..15 (two bits each) when not.
 */
#ifndef HWPROF_REGS_H
#define HWPROF_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_sys_ops;

/* ---- architectures ------------------------------------------------------ */

enum hwprof_arch {
	HWPROF_ARCH_UNKNOWN = 0,
	HWPROF_ARCH_X86_64 = 1,
	HWPROF_ARCH_I386 = 2,
	HWPROF_ARCH_ARM64 = 3,
	/* architectures whose files are read (register names only) */
	HWPROF_ARCH_POWERPC = 4,
	HWPROF_ARCH_S390 = 5,
	HWPROF_ARCH_ARM = 6,      /* 32-bit arm */
	HWPROF_ARCH_MIPS = 7,
	HWPROF_ARCH_CSKY = 8,
	HWPROF_ARCH_OTHER = 9,    /* any other named architecture: no register names */
};

/* From perf.data's ARCH feature string (uname -m: "x86_64", "i686",
 * "aarch64", "ppc64le", "s390x", "armv7l", "mips64", ...). Other strings
 * and NULL give HWPROF_ARCH_UNKNOWN. */
HWPROF_API enum hwprof_arch hwprof_arch_from_name(const char *name);
/* The architecture this library was built for. */
HWPROF_API enum hwprof_arch hwprof_arch_host(void);
/* "x86_64", "i386", "arm64", "powerpc", "s390", "arm", "mips", "csky",
 * "other" or "unknown". */
HWPROF_API const char *hwprof_arch_name(enum hwprof_arch arch);

/* ---- register bits ------------------------------------------------------ */

enum hwprof_x86_reg {
	HWPROF_X86_AX = 0, HWPROF_X86_BX, HWPROF_X86_CX, HWPROF_X86_DX,
	HWPROF_X86_SI, HWPROF_X86_DI, HWPROF_X86_BP, HWPROF_X86_SP,
	HWPROF_X86_IP, HWPROF_X86_FLAGS, HWPROF_X86_CS, HWPROF_X86_SS,
	HWPROF_X86_DS, HWPROF_X86_ES, HWPROF_X86_FS, HWPROF_X86_GS,
	HWPROF_X86_R8 = 16, HWPROF_X86_R15 = 23,
	HWPROF_X86_R16 = 24, HWPROF_X86_R31 = 39, /* SIMD abi only */
	HWPROF_X86_SSP = 40,                      /* SIMD abi only */
	HWPROF_X86_XMM0 = 32,                     /* legacy: XMMn = 32 + 2n */
};

/* perf's default GPR masks (what bare -I records): x86-64 leaves out
 * DS/ES/FS/GS, which the kernel rejects on 64-bit. */
#define HWPROF_X86_64_GPR_MASK      0x0000000000ff0fffULL
#define HWPROF_X86_32_GPR_MASK      0x000000000000ffffULL
#define HWPROF_X86_SEG_MASK         0x000000000000f000ULL /* DS ES FS GS */
#define HWPROF_X86_EGPR_MASK        0x000000ffff000000ULL /* R16..R31 */
#define HWPROF_X86_SSP_MASK         (1ULL << HWPROF_X86_SSP)
#define HWPROF_X86_LEGACY_XMM_MASK  0xffffffff00000000ULL /* perf's EXTENDED_MASK */
#define HWPROF_X86_LEGACY_RESERVED  0x00000000ff000000ULL /* bits 24..31, !SIMD */
#define HWPROF_X86_SIMD_RESERVED    (~((1ULL << 41) - 1))  /* bits 41..63, SIMD */

enum { HWPROF_ARM64_LR = 30, HWPROF_ARM64_SP = 31, HWPROF_ARM64_PC = 32,
       HWPROF_ARM64_VG = 46 };
#define HWPROF_ARM64_GPR_MASK 0x00000001ffffffffULL /* x0..x29, lr, sp, pc */
#define HWPROF_ARM64_VG_MASK  (1ULL << HWPROF_ARM64_VG)

/* Name of bit `bit` (0..63) of sample_regs_{user,intr} as perf prints it,
 * for a sample's abi bitmap (HWPROF_REGS_ABI_*): "AX", "R16", "SSP",
 * "XMM3" (both bits of the pair), "x0", "lr", "vg". NULL when the bit has
 * no name for that arch/abi (perf prints "unknown"). */
HWPROF_API const char *hwprof_reg_name(enum hwprof_arch arch, uint64_t abi, unsigned bit);

/* Bits of a register name accepted by perf's -I / --user-regs (case
 * insensitive), under the abi the kernel supports: one bit for a GPR, two
 * for a legacy XMMn. 0 when the name is not a register there. DS/ES/FS/GS
 * have a name but cannot be requested, like in perf. */
HWPROF_API uint64_t hwprof_reg_lookup(enum hwprof_arch arch, uint64_t abi, const char *name);

/* ---- SIMD classes --------------------------------------------------------- */

enum hwprof_simd_class_id {
	HWPROF_SIMD_XMM = 0, HWPROF_SIMD_YMM = 1, HWPROF_SIMD_ZMM = 2, HWPROF_SIMD_OPMASK = 3,
	HWPROF_SIMD_NR_CLASSES = 4,
};

struct hwprof_simd_class {
	const char *name;          /* "XMM", "YMM", "ZMM", "OPMASK" */
	const char *script_prefix; /* "xmm", "ymm", "zmm", "k" */
	uint16_t qwords;           /* u64s per register: 2, 4, 8, 1 */
	uint16_t nr;               /* registers in the class: 16, 16, 32, 8 */
	uint64_t mask;             /* bitmap that requests the whole class */
	int pred;                  /* 1 for predicate classes (OPMASK) */
};

/* The class table of an arch (x86 only for now); NULL and *nr = 0 elsewhere. */
HWPROF_API const struct hwprof_simd_class *hwprof_simd_classes(enum hwprof_arch arch, size_t *nr);
/* The class whose registers are `qwords` u64s wide, vector or predicate;
 * NULL if none (perf then prints "unknown"). */
HWPROF_API const struct hwprof_simd_class *hwprof_simd_class_by_qwords(enum hwprof_arch arch,
									int pred, uint64_t qwords);

/* Bytes the kernel reserves for a SIMD block (32-byte header + data). */
HWPROF_API uint64_t hwprof_simd_block_bytes(uint64_t vec_qwords, uint64_t vec_mask,
					    uint64_t pred_qwords, uint64_t pred_mask);
#define HWPROF_SIMD_BLOCK_MAX 32767 /* U16_MAX / 2: the kernel needs less */

/* ---- validating an attr ------------------------------------------------- */

/* The kernel's register checks (perf_copy_attr, perf_reg_validate and the
 * x86 SIMD rules) applied to attr for arch. 0 when the kernel would accept
 * the register part, else -HWPROF_E_INVAL with a one-line reason in msg. */
HWPROF_API int hwprof_regs_validate(const struct hwprof_attr *attr, enum hwprof_arch arch,
				    char *msg, size_t msglen);

/* ---- what the kernel supports ----------------------------------------------- */

/* Result of a probe: for one side (intr or user), the abi the kernel speaks,
 * the sample_regs bits it accepts and, per SIMD class, the bitmap it
 * accepts (0 = class unavailable). */
struct hwprof_regs_avail {
	enum hwprof_arch arch;
	uint64_t abi;              /* HWPROF_REGS_ABI_64/32, | SIMD if usable */
	uint64_t mask;             /* requestable sample_regs_* bits */
	uint64_t class_mask[HWPROF_SIMD_NR_CLASSES];
	uint32_t kernel_attr_size; /* written back on E2BIG, else 0 */
	int simd_errno;            /* errno of the SIMD interface probe, 0 if ok */
};

/* Fill avail for arch without asking the kernel: GPRs only, like a kernel
 * without the SIMD series and without PEBS/extended regs. */
HWPROF_API void hwprof_regs_avail_default(struct hwprof_regs_avail *avail, enum hwprof_arch arch);

/* Everything the architecture defines (x86-64: GPRs, eGPRs, SSP and every
 * SIMD class through the SIMD interface), whatever the kernel offers: what
 * --dry-run checks requests against. */
HWPROF_API void hwprof_regs_avail_full(struct hwprof_regs_avail *avail, enum hwprof_arch arch);

/* Ask the kernel through ops (see hwprof/sys.h) what can be sampled on
 * interrupt (user = 0) or in user mode (user = 1): the SIMD interface
 * (eGPRs, SSP, XMM/YMM/ZMM/OPMASK classes) with size-176 attrs, and the
 * legacy XMM pairs (perf 6.1 probes cycles:p with the extended mask).
 * Never fails: what cannot be opened is left out. Returns 0. */
HWPROF_API int hwprof_regs_probe(const struct hwprof_sys_ops *ops, enum hwprof_arch arch,
				 int user, struct hwprof_regs_avail *avail);

/* perf's listing for -I? / --user-regs=?: "available registers: AX BX ...
 * R15 \n" (each entry followed by a space), then SIMD classes as
 * "XMM0-15 ". snprintf semantics: returns the length it needed. */
HWPROF_API int hwprof_regs_format_avail(char *buf, size_t len, const struct hwprof_regs_avail *avail);

/* ---- -I / --user-regs lists ----------------------------------------------- */

/* Parse a register list the way perf record does into attr (user = 0 for
 * -I/--intr-regs, 1 for --user-regs): list NULL is bare -I (every
 * available GPR); otherwise comma-separated names, case insensitive (an
 * empty name, as in "", "ax," or "ax,,bx", is unknown, as in perf): GPRs,
 * eGPRs/SSP (SIMD interface), classes xmm/ymm/zmm/opmask (SIMD interface;
 * widest vector class wins, qwords shared between intr and user) or legacy
 * xmm0..xmm15 (no SIMD interface). Sets sample_type REGS_INTR/REGS_USER,
 * the mask and, only when SIMD registers, eGPRs or SSP were asked for, the
 * sample_simd_* fields and size 176. On an unknown name returns
 * -HWPROF_E_INVAL with perf's warning text in msg and leaves attr as it was. */
HWPROF_API int hwprof_regs_parse_list(struct hwprof_attr *attr, int user, const char *list,
				      const struct hwprof_regs_avail *avail, char *msg, size_t msglen);

/* ---- open errors -------------------------------------------------------- */

/* One line explaining why perf_event_open(attr) failed with errno err
 * (sign ignored), and what would work instead: E2BIG (kernel older than
 * the attr; kernel_size is what it wrote back, 0 if unknown), EOPNOTSUPP
 * (software PMU / no capability), EINVAL (partial class masks, reserved
 * bits, missing CPU features). snprintf semantics. */
HWPROF_API int hwprof_regs_explain_open_error(char *buf, size_t len, const struct hwprof_attr *attr,
					      enum hwprof_arch arch, int err, uint32_t kernel_size);

/* One line for a -I / --user-regs list that names registers the
 * architecture has but this kernel (as probed into avail) cannot sample:
 * why (a kernel without the SIMD fields: the attr size it wrote back; a
 * kernel with them but not this CPU's class; the PMU refusing), and what
 * to do instead. snprintf semantics. */
HWPROF_API int hwprof_regs_explain_unavailable(char *buf, size_t len, const char *list,
					       const struct hwprof_regs_avail *avail);

#ifdef __cplusplus
}
#endif
#endif
