/* The SIMD/eGPR/SSP sampling rules: the kernel's attr checks restated as our
 * own validator with one-line reasons (so a refused open can be explained
 * before or after asking the kernel), and perf's -I / --user-regs list
 * parser that builds the register part of an attr. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "regs/regs_int.h"

static int fail(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t len, const char *fmt, ...)
{
	if (msg && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return -HWPROF_E_INVAL;
}

HWPROF_API uint64_t hwprof_simd_block_bytes(uint64_t vec_qwords, uint64_t vec_mask,
					    uint64_t pred_qwords, uint64_t pred_mask)
{
	return 32 + ((uint64_t)__builtin_popcountll(vec_mask) * vec_qwords +
		     (uint64_t)__builtin_popcountll(pred_mask) * pred_qwords) * 8;
}

static int is_x86(enum hwprof_arch arch)
{
	return arch == HWPROF_ARCH_X86_64 || arch == HWPROF_ARCH_I386;
}

/* sample_regs_* bits, the generic perf_reg_validate() of one side. */
static int check_gpr_mask(uint64_t mask, int simd, int have_simd_regs, enum hwprof_arch arch,
			  const char *side, char *msg, size_t len)
{
	if (!mask && !have_simd_regs)
		return fail(msg, len, "sample_regs_%s is empty but PERF_SAMPLE_REGS_%s is set",
			    side, side[0] == 'u' ? "USER" : "INTR");
	uint64_t bad = 0;
	const char *why = "reserved";
	switch (arch) {
	case HWPROF_ARCH_X86_64:
		if (mask & HWPROF_X86_SEG_MASK) {
			bad = mask & HWPROF_X86_SEG_MASK;
			why = "DS/ES/FS/GS, which 64-bit kernels do not sample";
		} else {
			bad = mask & (simd ? HWPROF_X86_SIMD_RESERVED : HWPROF_X86_LEGACY_RESERVED);
			if (simd)
				why = "reserved with sample_simd_regs_enabled (only bits 0-40 are)";
		}
		break;
	case HWPROF_ARCH_I386:
		/* no R8+ and no eGPRs on 32-bit; legacy XMM pairs stay valid */
		bad = mask & (simd ? ~HWPROF_X86_32_GPR_MASK : 0x00000000ffff0000ULL);
		break;
	case HWPROF_ARCH_ARM64:
		bad = mask & ~(HWPROF_ARM64_GPR_MASK | HWPROF_ARM64_VG_MASK);
		break;
	default: /* architectures hwprof only reads files of */
		break;
	}
	if (bad)
		return fail(msg, len, "sample_regs_%s 0x%llx: bits 0x%llx are %s", side,
			    (unsigned long long)mask, (unsigned long long)bad, why);
	return 0;
}

/* x86 perf_simd_reg_validate() for one side; qwords are shared. */
static int check_simd_x86(const struct hwprof_attr *a, uint64_t vec, uint32_t pred,
			  const char *side, char *msg, size_t len)
{
	unsigned vq = a->sample_simd_vec_reg_qwords, pq = a->sample_simd_pred_reg_qwords;

	if (!vq && !pq && (vec || pred))
		return fail(msg, len, "SIMD %s masks are set but both sample_simd_*_reg_qwords are 0", side);
	if (vq && vq != 2 && vq != 4 && vq != 8)
		return fail(msg, len, "sample_simd_vec_reg_qwords %u: must be 2 (XMM), 4 (YMM) or 8 (ZMM)", vq);
	if (vec & ~0xffffffffULL)
		return fail(msg, len, "sample_simd_vec_reg_%s 0x%llx: only 32 vector registers (bits 0-31) exist",
			    side, (unsigned long long)vec);
	if (vec && !vq)
		return fail(msg, len, "sample_simd_vec_reg_%s is set but sample_simd_vec_reg_qwords is 0", side);
	if (vec && (vec & 0xffff) != 0xffff)
		return fail(msg, len, "sample_simd_vec_reg_%s 0x%llx: only whole classes can be sampled "
			    "(0xffff for XMM/YMM/ZMM0-15, 0xffffffff for ZMM0-31)",
			    side, (unsigned long long)vec);
	if (vec && vq == 8 && (vec >> 16) && (vec >> 16) != 0xffff)
		return fail(msg, len, "sample_simd_vec_reg_%s 0x%llx: ZMM16-31 must be requested all "
			    "together (0xffffffff)", side, (unsigned long long)vec);
	if (pq && pq != 1)
		return fail(msg, len, "sample_simd_pred_reg_qwords %u: must be 1 (OPMASK)", pq);
	if (pred & ~0xffu)
		return fail(msg, len, "sample_simd_pred_reg_%s 0x%x: only 8 predicate registers (bits 0-7) exist",
			    side, pred);
	if (pred && !pq)
		return fail(msg, len, "sample_simd_pred_reg_%s is set but sample_simd_pred_reg_qwords is 0", side);
	if (pred && pred != 0xff)
		return fail(msg, len, "sample_simd_pred_reg_%s 0x%x: only the whole OPMASK class (0xff) can be sampled",
			    side, pred);
	return 0;
}

static int check_side(const struct hwprof_attr *a, enum hwprof_arch arch, int user,
		      char *msg, size_t len)
{
	const char *side = user ? "user" : "intr";
	uint64_t mask = user ? a->sample_regs_user : a->sample_regs_intr;
	uint64_t vec = user ? a->sample_simd_vec_reg_user : a->sample_simd_vec_reg_intr;
	uint32_t pred = user ? a->sample_simd_pred_reg_user : a->sample_simd_pred_reg_intr;
	int simd = a->sample_simd_regs_enabled != 0;
	int rc = check_gpr_mask(mask, simd, simd && (vec || pred), arch, side, msg, len);
	if (rc < 0 || !simd)
		return rc;
	if (!is_x86(arch))
		return fail(msg, len, "SIMD register sampling (sample_simd_regs_enabled) is not supported on %s",
			    hwprof_arch_name(arch));
	uint64_t bytes = hwprof_simd_block_bytes(a->sample_simd_vec_reg_qwords, vec,
						 a->sample_simd_pred_reg_qwords, pred);
	if (bytes >= HWPROF_SIMD_BLOCK_MAX)
		return fail(msg, len, "SIMD %s register block of %llu bytes is too large (limit %d)",
			    side, (unsigned long long)bytes, HWPROF_SIMD_BLOCK_MAX);
	return check_simd_x86(a, vec, pred, side, msg, len);
}

HWPROF_API int hwprof_regs_validate(const struct hwprof_attr *a, enum hwprof_arch arch,
				    char *msg, size_t len)
{
	if (msg && len)
		msg[0] = 0;
	if (!a)
		return fail(msg, len, "no attr");
	if (a->reserved_4)
		return fail(msg, len, "__reserved_4 is 0x%x: must be zero", a->reserved_4);
	int rc;
	if ((a->sample_type & HWPROF_SAMPLE_REGS_USER) && (rc = check_side(a, arch, 1, msg, len)) < 0)
		return rc;
	if ((a->sample_type & HWPROF_SAMPLE_REGS_INTR) && (rc = check_side(a, arch, 0, msg, len)) < 0)
		return rc;
	return 0;
}

/* ---- the -I / --user-regs list ------------------------------------------- */

static void widen_vec(uint64_t *mine, uint64_t mask)
{
	if (__builtin_popcountll(mask) > __builtin_popcountll(*mine))
		*mine = mask;
}

/* One name of a -I / --user-regs list (n bytes at name, not terminated)
 * into a: a register the kernel offers, or a whole SIMD class (widest
 * class wins). -1 when it is neither. */
static int add_name(struct hwprof_attr *a, int user, const char *name, size_t n,
		    const struct hwprof_regs_avail *avail, int *want_simd)
{
	char buf[64];
	if (n >= sizeof(buf))
		return -1; /* longer than any register name */
	memcpy(buf, name, n);
	buf[n] = 0;
	uint64_t bits = hwprof_reg_lookup(avail->arch, avail->abi, buf);
	if (bits && (bits & avail->mask) == bits) {
		*(user ? &a->sample_regs_user : &a->sample_regs_intr) |= bits;
		return 0;
	}
	size_t ncls;
	const struct hwprof_simd_class *cls = hwprof_simd_classes(avail->arch, &ncls);
	for (size_t i = 0; (avail->abi & HWPROF_REGS_ABI_SIMD) && i < ncls; i++) {
		uint64_t cmask = avail->class_mask[i];
		if (!cmask || !regs_name_eq(buf, cls[i].name))
			continue;
		if (cls[i].pred) {
			uint32_t *pred = user ? &a->sample_simd_pred_reg_user : &a->sample_simd_pred_reg_intr;
			if (cls[i].qwords > a->sample_simd_pred_reg_qwords)
				a->sample_simd_pred_reg_qwords = cls[i].qwords;
			if (__builtin_popcountll(cmask) > __builtin_popcount(*pred))
				*pred = (uint32_t)cmask;
		} else {
			if (cls[i].qwords > a->sample_simd_vec_reg_qwords)
				a->sample_simd_vec_reg_qwords = cls[i].qwords;
			widen_vec(user ? &a->sample_simd_vec_reg_user : &a->sample_simd_vec_reg_intr, cmask);
		}
		*want_simd = 1;
		return 0;
	}
	return -1;
}

HWPROF_API int hwprof_regs_parse_list(struct hwprof_attr *attr, int user, const char *list,
				      const struct hwprof_regs_avail *avail, char *msg, size_t msglen)
{
	if (msg && msglen)
		msg[0] = 0;
	if (!attr || !avail)
		return fail(msg, msglen, "no attr or register set");
	struct hwprof_attr a = *attr;
	uint64_t *mask = user ? &a.sample_regs_user : &a.sample_regs_intr;
	const int simd_abi = (avail->abi & HWPROF_REGS_ABI_SIMD) != 0;
	int want_simd = 0;

	if (!list) {
		*mask |= avail->mask; /* bare -I: every available (e)GPR, no classes */
	} else {
		/* Every comma-separated entry is a name, empty ones too ("",
		 * "ax,", "ax,,bx"): perf warns about those as well. */
		for (const char *p = list;;) {
			const char *end = strchr(p, ',');
			size_t n = end ? (size_t)(end - p) : strlen(p);
			if (add_name(&a, user, p, n, avail, &want_simd) < 0)
				return fail(msg, msglen, "Unknown register \"%.*s\", check man page or run "
					    "\"perf record %s\"", (int)n, p, user ? "--user-regs=?" : "-I?");
			if (!end)
				break;
			p = end + 1;
		}
	}
	/* One qwords value serves both sides, so both bitmaps must cover the
	 * widest class either side asked for. */
	if (a.sample_simd_vec_reg_intr && a.sample_simd_vec_reg_user) {
		widen_vec(&a.sample_simd_vec_reg_intr, a.sample_simd_vec_reg_user);
		widen_vec(&a.sample_simd_vec_reg_user, a.sample_simd_vec_reg_intr);
	}
	if (a.sample_simd_pred_reg_intr && a.sample_simd_pred_reg_user) {
		uint32_t m = __builtin_popcount(a.sample_simd_pred_reg_intr) >=
				     __builtin_popcount(a.sample_simd_pred_reg_user)
			     ? a.sample_simd_pred_reg_intr : a.sample_simd_pred_reg_user;
		a.sample_simd_pred_reg_intr = a.sample_simd_pred_reg_user = m;
	}
	if (simd_abi && (*mask & (HWPROF_X86_EGPR_MASK | HWPROF_X86_SSP_MASK)) && is_x86(avail->arch))
		want_simd = 1;
	if (want_simd) {
		a.sample_simd_regs_enabled = 1;
		if (a.size < HWPROF_ATTR_SIZE_VER10)
			a.size = HWPROF_ATTR_SIZE_VER10;
	}
	a.sample_type |= user ? HWPROF_SAMPLE_REGS_USER : HWPROF_SAMPLE_REGS_INTR;
	*attr = a;
	return 0;
}
