/* What the running kernel lets us sample, found by trial opens through
 * hwprof_sys_ops (perf's way: a kernel without the SIMD series refuses the
 * 176-byte attr with E2BIG), perf's "available registers" line built from
 * the result, and plain-words explanations of refused opens. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hwprof/sys.h"
#include "regs/regs_int.h"

/* A sampling cycles event on the calling thread, any CPU, user only:
 * the shape perf's register probes use. */
static void probe_attr(struct hwprof_attr *a, int user, uint32_t size)
{
	memset(a, 0, sizeof(*a));
	a->type = HWPROF_TYPE_HARDWARE;
	a->config = 0; /* cycles */
	a->size = size;
	a->sample_period = 1;
	a->flags = 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL;
	a->sample_type = user ? HWPROF_SAMPLE_REGS_USER : HWPROF_SAMPLE_REGS_INTR;
}

static void set_mask(struct hwprof_attr *a, int user, uint64_t m)
{
	if (user)
		a->sample_regs_user = m;
	else
		a->sample_regs_intr = m;
}

/* 0 if the kernel accepted attr, else -errno (E2BIG size kept in *ksize). */
static int try_open(const struct hwprof_sys_ops *ops, struct hwprof_attr *a, uint32_t *ksize)
{
	uint32_t sent = a->size;
	int fd = ops->perf_event_open(a, 0, -1, -1, 0);
	if (fd >= 0) {
		if (ops->close)
			ops->close(fd);
		return 0;
	}
	if (fd == -E2BIG && a->size != sent && ksize)
		*ksize = a->size;
	return fd;
}

static int probe_simd_x86(const struct hwprof_sys_ops *ops, int user, struct hwprof_regs_avail *av)
{
	struct hwprof_attr a;
	int ok = 0, rc;
	static const uint64_t gpr_probes[2] = { HWPROF_X86_EGPR_MASK, HWPROF_X86_SSP_MASK };

	for (int i = 0; i < 2; i++) {
		probe_attr(&a, user, HWPROF_ATTR_SIZE_VER10);
		a.sample_simd_regs_enabled = 1;
		set_mask(&a, user, gpr_probes[i]);
		rc = try_open(ops, &a, &av->kernel_attr_size);
		if (rc == 0) {
			av->mask |= gpr_probes[i];
			ok = 1;
		} else if (!av->simd_errno) {
			av->simd_errno = -rc;
		}
		if (rc == -E2BIG)
			return 0; /* the kernel has no SIMD fields at all */
	}
	for (int c = 0; c < HWPROF_SIMD_NR_CLASSES; c++) {
		const struct hwprof_simd_class *k = &regs_x86_classes[c];
		/* ZMM: all 32 first, then the low 16 (no Hi16_ZMM state) */
		uint64_t tries[2] = { k->mask, c == HWPROF_SIMD_ZMM ? 0xffffULL : 0 };
		for (int t = 0; t < 2 && tries[t]; t++) {
			probe_attr(&a, user, HWPROF_ATTR_SIZE_VER10);
			a.sample_simd_regs_enabled = 1;
			set_mask(&a, user, 1ULL << HWPROF_X86_AX);
			if (k->pred) {
				a.sample_simd_pred_reg_qwords = k->qwords;
				*(user ? &a.sample_simd_pred_reg_user : &a.sample_simd_pred_reg_intr) =
					(uint32_t)tries[t];
			} else {
				a.sample_simd_vec_reg_qwords = k->qwords;
				*(user ? &a.sample_simd_vec_reg_user : &a.sample_simd_vec_reg_intr) = tries[t];
			}
			rc = try_open(ops, &a, &av->kernel_attr_size);
			if (rc == 0) {
				av->class_mask[c] = tries[t];
				ok = 1;
				break;
			}
			if (!av->simd_errno)
				av->simd_errno = -rc;
		}
	}
	if (ok)
		av->simd_errno = 0;
	return ok;
}

HWPROF_API int hwprof_regs_probe(const struct hwprof_sys_ops *ops, enum hwprof_arch arch,
				 int user, struct hwprof_regs_avail *av)
{
	hwprof_regs_avail_default(av, arch);
	if (!ops || !ops->perf_event_open)
		return 0;
	struct hwprof_attr a;
	if (arch == HWPROF_ARCH_X86_64 || arch == HWPROF_ARCH_I386) {
		if (arch == HWPROF_ARCH_X86_64 && probe_simd_x86(ops, user, av)) {
			av->abi |= HWPROF_REGS_ABI_SIMD;
			return 0;
		}
		/* Legacy XMM pairs: perf 6.1 probes cycles:p (PEBS) with the
		 * extended mask in a pre-VER8 attr. */
		probe_attr(&a, user, HWPROF_ATTR_SIZE_VER7);
		a.flags |= 1ULL << HWPROF_ATTR_PRECISE_IP;
		set_mask(&a, user, HWPROF_X86_LEGACY_XMM_MASK);
		if (try_open(ops, &a, NULL) == 0)
			av->mask |= HWPROF_X86_LEGACY_XMM_MASK;
	} else if (arch == HWPROF_ARCH_ARM64 && user) {
		/* vg only exists with SVE; the kernel refuses it otherwise */
		probe_attr(&a, user, HWPROF_ATTR_SIZE_VER7);
		set_mask(&a, user, HWPROF_ARM64_GPR_MASK | HWPROF_ARM64_VG_MASK);
		if (try_open(ops, &a, NULL) == 0)
			av->mask |= HWPROF_ARM64_VG_MASK;
	}
	return 0;
}

/* ---- the listing ---------------------------------------------------------- */

struct sbuf { char *p; size_t len, used; };

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = b->used < b->len ? b->len - b->used : 0;
	int n = vsnprintf(room ? b->p + b->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += (size_t)n;
}

HWPROF_API int hwprof_regs_format_avail(char *buf, size_t len, const struct hwprof_regs_avail *av)
{
	struct sbuf b = { buf, len, 0 };
	if (buf && len)
		buf[0] = 0;
	sb_printf(&b, "available registers: ");
	const char *prev = NULL;
	for (unsigned bit = 0; av && bit < 64; bit++) {
		if (!(av->mask >> bit & 1))
			continue;
		const char *name = hwprof_reg_name(av->arch, av->abi, bit);
		/* only names -I accepts (perf lists its option table) */
		if (!name || !(hwprof_reg_lookup(av->arch, av->abi, name) >> bit & 1))
			continue;
		if (prev && !strcmp(prev, name))
			continue; /* the two bits of a legacy XMM pair */
		sb_printf(&b, "%s ", name);
		prev = name;
	}
	size_t ncls;
	const struct hwprof_simd_class *cls = av ? hwprof_simd_classes(av->arch, &ncls) : NULL;
	for (int pred = 0; cls && (av->abi & HWPROF_REGS_ABI_SIMD) && pred < 2; pred++)
		for (size_t i = 0; i < ncls; i++)
			if (cls[i].pred == pred && av->class_mask[i])
				sb_printf(&b, "%s0-%d ", cls[i].name, 63 - __builtin_clzll(av->class_mask[i]));
	sb_printf(&b, "\n");
	return (int)b.used;
}

/* ---- explaining refused opens ------------------------------------------- */

static int wants_simd(const struct hwprof_attr *a)
{
	return a->sample_simd_regs_enabled || a->sample_simd_vec_reg_qwords ||
	       a->sample_simd_pred_reg_qwords || a->sample_simd_vec_reg_intr ||
	       a->sample_simd_vec_reg_user || a->sample_simd_pred_reg_intr ||
	       a->sample_simd_pred_reg_user;
}

static int wants_legacy_xmm(const struct hwprof_attr *a, enum hwprof_arch arch)
{
	if (arch != HWPROF_ARCH_X86_64 && arch != HWPROF_ARCH_I386)
		return 0;
	uint64_t m = 0;
	if (a->sample_type & HWPROF_SAMPLE_REGS_INTR)
		m |= a->sample_regs_intr;
	if (a->sample_type & HWPROF_SAMPLE_REGS_USER)
		m |= a->sample_regs_user;
	return !a->sample_simd_regs_enabled && (m & HWPROF_X86_LEGACY_XMM_MASK);
}

HWPROF_API int hwprof_regs_explain_open_error(char *buf, size_t len, const struct hwprof_attr *a,
					      enum hwprof_arch arch, int err, uint32_t ksize)
{
	struct sbuf b = { buf, len, 0 };
	if (buf && len)
		buf[0] = 0;
	if (err < 0)
		err = -err;
	if (!a) {
		sb_printf(&b, "perf_event_open failed: %s", strerror(err));
		return (int)b.used;
	}
	char why[200];
	switch (err) {
	case E2BIG:
		if (ksize)
			sb_printf(&b, "the kernel's perf_event_attr is %u bytes, ours is %u: ", ksize, a->size);
		else
			sb_printf(&b, "the kernel's perf_event_attr is smaller than ours (%u bytes): ", a->size);
		if (wants_simd(a))
			sb_printf(&b, "this kernel predates SIMD/eGPR/SSP register sampling (needs %d bytes); "
				  "drop xmm/ymm/zmm/opmask/r16-r31/ssp from -I/--user-regs or use a kernel "
				  "with the SIMD sampling series", HWPROF_ATTR_SIZE_VER10);
		else
			sb_printf(&b, "a field this kernel does not know is set; leave it zero");
		break;
	case EOPNOTSUPP:
		if (wants_simd(a) && (a->type == HWPROF_TYPE_SOFTWARE || a->type == HWPROF_TYPE_TRACEPOINT ||
				      a->type == HWPROF_TYPE_BREAKPOINT))
			sb_printf(&b, "this event's PMU cannot sample SIMD/eGPR/SSP registers (software events "
				  "like cpu-clock never can); use a hardware event such as cycles, or "
				  "drop the SIMD registers");
		else if (wants_simd(a))
			sb_printf(&b, "this event's PMU has no SIMD/eGPR/SSP register sampling; drop the SIMD "
				  "registers from -I/--user-regs, or on PEBS hardware sample xmm0-xmm15 the "
				  "older way with a precise event such as cycles:p");
		else if (wants_legacy_xmm(a, arch))
			sb_printf(&b, "this event's PMU cannot sample XMM registers (no extended-register "
				  "support); use cycles:p on PEBS hardware, or drop xmm0-xmm15");
		else
			sb_printf(&b, "the event or PMU does not support a requested feature: %s",
				  strerror(err));
		break;
	case EINVAL:
		if (hwprof_regs_validate(a, arch, why, sizeof(why)) < 0)
			sb_printf(&b, "%s", why);
		else if (a->sample_simd_regs_enabled)
			sb_printf(&b, "the kernel refused the SIMD register request: a requested class "
				  "(YMM/ZMM/OPMASK), the eGPRs or SSP may be missing on this CPU or PMU; "
				  "run 'hwprof record -I?' to list what is available");
		else if (wants_legacy_xmm(a, arch))
			sb_printf(&b, "XMM registers through sample_regs need PEBS (cycles:p) on this "
				  "kernel; use a precise hardware event or drop xmm0-xmm15");
		else
			sb_printf(&b, "invalid event attribute: %s", strerror(err));
		break;
	default:
		sb_printf(&b, "perf_event_open failed: %s", strerror(err));
		break;
	}
	return (int)b.used;
}

HWPROF_API int hwprof_regs_explain_unavailable(char *buf, size_t len, const char *list,
					       const struct hwprof_regs_avail *av)
{
	struct sbuf b = { buf, len, 0 };
	if (buf && len)
		buf[0] = 0;
	sb_printf(&b, "%s names SIMD, APX eGPR or SSP registers, which ", list ? list : "");
	if (av && (av->abi & HWPROF_REGS_ABI_SIMD))
		sb_printf(&b, "this CPU or PMU does not offer (the kernel samples SIMD registers, "
			  "but not these; 'hwprof record -I?' lists what it can)");
	else if (av && av->kernel_attr_size)
		sb_printf(&b, "this kernel cannot sample (its perf_event_attr is %u bytes, without the "
			  "sample_simd_* fields of %d-byte attrs)", av->kernel_attr_size, HWPROF_ATTR_SIZE_VER10);
	else if (av && av->simd_errno)
		sb_printf(&b, "cannot be sampled here (the kernel refused them on cycles: %s)",
			  strerror(av->simd_errno));
	else
		sb_printf(&b, "cannot be sampled here");
	sb_printf(&b, "; see the request with --dry-run, or sample the GPRs only");
	return (int)b.used;
}
