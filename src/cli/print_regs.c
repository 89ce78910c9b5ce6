/* Register block printers. The -D dump matches perf report -D of perf 6.1
 * byte for byte for GPR/legacy-XMM blocks, and the merged upstream layout
 * ("ABI 64-bit SIMD", "... SIMD ABI ...", ZMM[i][q]) for SIMD blocks. The
 * script form matches perf script's iregs/uregs and adds whole SIMD values. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli/print_regs.h"

static const char *abi_name(uint64_t abi)
{
	switch (abi) {
	case HWPROF_REGS_ABI_NONE: return "none";
	case HWPROF_REGS_ABI_32: return "32-bit";
	case HWPROF_REGS_ABI_64: return "64-bit";
	case HWPROF_REGS_ABI_32 | HWPROF_REGS_ABI_SIMD: return "32-bit SIMD";
	case HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD: return "64-bit SIMD";
	}
	return "unknown";
}

static const char *class_name(enum hwprof_arch arch, int pred, uint64_t qwords, int script)
{
	const struct hwprof_simd_class *c = hwprof_simd_class_by_qwords(arch, pred, qwords);
	if (c)
		return script ? c->script_prefix : c->name;
	return script ? (pred ? "pred" : "vec") : "unknown";
}

void print_regs_dump(FILE *out, const char *which, const struct hwprof_regs *r,
		     enum hwprof_arch arch)
{
	if (!r || r->abi == HWPROF_REGS_ABI_NONE)
		return; /* perf prints nothing for a block without registers */
	fprintf(out, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", which, r->mask, abi_name(r->abi));
	uint32_t i = 0;
	for (unsigned bit = 0; bit < 64 && r->regs; bit++) {
		if (!(r->mask >> bit & 1))
			continue;
		if (i >= r->nr)
			break;
		const char *name = hwprof_reg_name(arch, r->abi, bit);
		fprintf(out, ".... %-5s 0x%016" PRIx64 "\n", name ? name : "unknown",
			hwprof_u64_at(r->regs, i++));
	}
	if (!(r->abi & HWPROF_REGS_ABI_SIMD) || !r->simd_data || (!r->nr_vectors && !r->nr_pred))
		return;
	/* two spaces before pred_qwords, as in perf's format string */
	fprintf(out, "... SIMD ABI nr_vectors %" PRIu64 " vector_qwords %" PRIu64 " nr_pred %" PRIu64
		"  pred_qwords %" PRIu64 "\n", r->nr_vectors, r->vector_qwords, r->nr_pred, r->pred_qwords);
	uint64_t k = 0;
	for (int pred = 0; pred < 2; pred++) {
		uint64_t nr = pred ? r->nr_pred : r->nr_vectors;
		uint64_t qw = pred ? r->pred_qwords : r->vector_qwords;
		const char *cls = class_name(arch, pred, qw, 0);
		for (uint64_t reg = 0; reg < nr; reg++)
			for (uint64_t q = 0; q < qw; q++, k++) {
				if (qw > 1)
					fprintf(out, ".... %3s[%" PRIu64 "][%" PRIu64 "] 0x%016" PRIx64 "\n",
						cls, reg, q, hwprof_u64_at(r->simd_data, k));
				else
					fprintf(out, ".... %3s[%" PRIu64 "] 0x%016" PRIx64 "\n",
						cls, reg, hwprof_u64_at(r->simd_data, k));
			}
	}
}

/* Output to a FILE or to a buffer with snprintf semantics. */
struct rout { FILE *f; char *p; size_t len, used; };

static void ro_printf(struct rout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ro_printf(struct rout *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (o->f) {
		vfprintf(o->f, fmt, ap);
	} else {
		size_t room = o->used < o->len ? o->len - o->used : 0;
		int n = vsnprintf(room ? o->p + o->used : NULL, room, fmt, ap);
		if (n > 0)
			o->used += (size_t)n;
	}
	va_end(ap);
}

/* The n-th set bit of mask (the register number of the n-th value), or n
 * itself when the mask is unknown or shorter. */
static unsigned nth_bit(uint64_t mask, uint64_t n)
{
	uint64_t left = n;
	for (unsigned b = 0; b < 64; b++)
		if ((mask >> b & 1) && left-- == 0)
			return b;
	return (unsigned)n;
}

static void script_regs(struct rout *o, const struct hwprof_regs *r, enum hwprof_arch arch)
{
	if (!r || r->abi == HWPROF_REGS_ABI_NONE || !r->regs)
		return;
	ro_printf(o, " ABI:%" PRIu64 " ", r->abi);
	uint32_t i = 0;
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(r->mask >> bit & 1))
			continue;
		if (i >= r->nr)
			break;
		const char *name = hwprof_reg_name(arch, r->abi, bit);
		ro_printf(o, "%5s:0x%" PRIx64 " ", name ? name : "unknown", hwprof_u64_at(r->regs, i++));
	}
	if (!(r->abi & HWPROF_REGS_ABI_SIMD) || !r->simd_data)
		return;
	uint64_t k = 0;
	for (int pred = 0; pred < 2; pred++) {
		uint64_t nr = pred ? r->nr_pred : r->nr_vectors;
		uint64_t qw = pred ? r->pred_qwords : r->vector_qwords;
		uint64_t mask = pred ? r->pred_mask : r->vec_mask;
		const char *pfx = class_name(arch, pred, qw, 1);
		for (uint64_t reg = 0; reg < nr; reg++, k += qw) {
			if (!qw)
				continue;
			ro_printf(o, "%s%u=0x", pfx, nth_bit(mask, reg));
			for (uint64_t q = qw; q-- > 0;)
				ro_printf(o, "%016" PRIx64, hwprof_u64_at(r->simd_data, k + q));
			ro_printf(o, " ");
		}
	}
}

int print_regs_script_buf(char *buf, size_t len, const struct hwprof_regs *r, enum hwprof_arch arch)
{
	struct rout o = { NULL, buf, len, 0 };
	if (buf && len)
		buf[0] = 0;
	script_regs(&o, r, arch);
	return (int)o.used;
}

void print_regs_script(FILE *out, const struct hwprof_regs *r, enum hwprof_arch arch)
{
	struct rout o = { out, NULL, 0, 0 };
	script_regs(&o, r, arch);
}
