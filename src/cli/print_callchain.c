/* perf script's callchain block: one line per frame of the sample's own
 * callchain (kernel, or frame pointers), then for `--call-graph dwarf`
 * samples the user frames the DWARF unwinder finds. Like perf 6.1, an
 * unwound frame in a DSO with a symbol expands into the inlined functions
 * at that address (innermost first, marked "(inlined)"), and srcline
 * shows each one's source position. */
#include <stdlib.h>
#include <string.h>

#include "cli/lbr_chain.h"
#include "cli/print_script.h"
#include "cli/fastfmt.h"
#include "hwprof/perf_event.h"
#include "hwprof/unwind.h"

#define PF(t, x) ((o->out[t].fields & SFB(SF_##x)) != 0)

/* perf's srcline_from_fileline: the file's base name and the line */
static void put_srcline(FILE *f, const char *pre, const char *file, unsigned line)
{
	const char *b = file ? strrchr(file, '/') : NULL;
	fprintf(f, "%s%s:%u", pre, b ? b + 1 : file ? file : "??", line);
}

/* map__fprintf_srcline: a file DSO's line from its debuginfo (nothing
 * when unknown); perf's "<dso>[addr]" for the kernel and other DSOs
 * without a file. */
static void srcline_of(FILE *f, const char *pre, const struct hwprof_symbols *syms, const struct hwprof_map_info *mi,
		       const struct hwprof_symres *r)
{
	char sn[4096];
	const char *short_name = hwprof_symbols_perf_name(syms, mi->dso, true, sn, sizeof(sn));
	uint64_t objdump = hwprof_dso_objdump_addr(r->dso, mi->start, mi->pgoff, r->addr);
	if (!r->dso || !hwprof_dso_is_file(r->dso)) {
		fprintf(f, "%s%s[%llx]", pre, short_name, (unsigned long long)objdump);
		return;
	}
	const struct hwprof_srcframe *fr;
	if (r->dso && hwprof_dso_srcframes(r->dso, r->addr, &fr) > 0) {
		if (fr[0].file)
			put_srcline(f, pre, fr[0].file, fr[0].line);
		return;
	}
	/* no line: addr2line names the symbol and the symbol table's file
	 * ("crtstuff.c:0"; "??:0", which perf leaves out, without one) or,
	 * without a symbol, fails and perf shows "<dso base name>[addr]" */
	if (!r->dso || !hwprof_dso_addr2line_names(r->dso, r->addr)) {
		const char *b = short_name == mi->dso ? strrchr(mi->dso, '/') : NULL;
		fprintf(f, "%s%s[%llx]", pre, b ? b + 1 : short_name, (unsigned long long)objdump);
	} else if (hwprof_dso_addr2line_file(r->dso, r->addr)) {
		put_srcline(f, pre, hwprof_dso_addr2line_file(r->dso, r->addr), 0);
	}
}

size_t script_srcline_text(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			   char *buf, size_t size)
{
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	if (size < 2 || script_printer_find_map(p, pid, tid, cpumode, ip, &mi, &level) != 1)
		return 0;
	hwprof_symbols_resolve(script_printer_symbols(p), mi.dso, mi.start, mi.pgoff, ip, &r);
	FILE *f = fmemopen(buf, size, "w");
	if (!f)
		return 0;
	srcline_of(f, "\n  ", script_printer_symbols(p), &mi, &r);
	long n = ftell(f);
	fclose(f);
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

void script_print_srcline(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip)
{
	script_print_srcline_pre(p, pid, tid, cpumode, ip, "\n  ");
}

void script_print_srcline_pre(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			      const char *pre)
{
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	if (script_printer_find_map(p, pid, tid, cpumode, ip, &mi, &level) != 1)
		return;
	hwprof_symbols_resolve(script_printer_symbols(p), mi.dso, mi.start, mi.pgoff, ip, &r);
	srcline_of(script_printer_file(p), pre, script_printer_symbols(p), &mi, &r);
}

/* One frame: a line, or for unwound frames (perf 6.1 expands only those)
 * one per inlined function at the address. */
static void print_frame(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			bool unwound)
{
	const struct script_opts *o = script_printer_opts(p);
	struct hwprof_symbols *syms = script_printer_symbols(p);
	FILE *f = script_printer_file(p);
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	bool have_map = script_printer_find_map(p, pid, tid, cpumode, ip, &mi, &level) == 1;
	if (have_map)
		hwprof_symbols_resolve(syms, mi.dso, mi.start, mi.pgoff, ip, &r);
	uint64_t addr = have_map && level != 'k' ? r.addr : ip; /* kernel DSOs: as is */
	/* perf expands unwound frames into their inlined functions */
	struct hwprof_inline_entry ent[64];
	int nent = 0;
	if (unwound && have_map && r.sym && r.dso && hwprof_dso_is_file(r.dso) && !o->no_inline)
		nent = hwprof_dso_inline_entries(r.dso, r.addr, r.sym, ent, sizeof(ent) / sizeof(ent[0]));
	if (nent < 0)
		nent = 0;
	uint64_t off = 0;
	if (r.sym)
		off = r.addr < r.sym->end ? r.addr - r.sym->start : r.addr - mi.start - r.sym->start;
	for (int k = 0; k < (nent ? nent : 1); k++) {
		const char *name = nent ? ent[k].name : r.sym ? r.sym->name : NULL;
		bool inlined = nent && ent[k].inlined;
		if (PF(t, IP)) { /* "\t%16llx" */
			putc_unlocked('\t', f);
			ff_hex(f, addr, 16);
		}
		if (PF(t, SYM)) {
			if (!name) {
				fputs_unlocked(" [unknown]", f);
			} else if (PF(t, SYMOFFSET)) { /* " %s+0x%llx" */
				putc_unlocked(' ', f);
				fputs_unlocked(name, f);
				fputs_unlocked("+0x", f);
				ff_hex(f, off, 0);
			} else {
				putc_unlocked(' ', f);
				fputs_unlocked(name, f);
			}
		}
		if (PF(t, DSO) && !inlined) {
			char dn[256];
			fputs_unlocked(" (", f);
			fputs_unlocked(have_map ? script_dso_name(p, &mi, level, dn, sizeof(dn)) : "[unknown]", f);
			putc_unlocked(')', f);
		}
		if (PF(t, SRCLINE)) {
			if (nent)
				put_srcline(f, "\n  ", ent[k].file, ent[k].line);
			else if (have_map)
				srcline_of(f, "\n  ", script_printer_symbols(p), &mi, &r);
		}
		if (inlined)
			fputs(" (inlined)", f);
		putc_unlocked('\n', f);
	}
}

void script_print_callchain(struct script_printer *p, int t, const struct hwprof_sample *s)
{
	const struct script_opts *o = script_printer_opts(p);
	unsigned cpumode = HWPROF_MISC_USER;
	uint64_t nr = s->callchain_nr, entries = 0;
	uint64_t max = o->max_stack >= 0 ? (uint64_t)o->max_stack : HWPROF_MAX_STACK;
	/* an unknown context marker empties the chain, like perf */
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = hwprof_u64_at(s->callchain, i);
		if (ip >= HWPROF_CONTEXT_MAX && ip != HWPROF_CONTEXT_HV && ip != HWPROF_CONTEXT_KERNEL &&
		    ip != HWPROF_CONTEXT_USER)
			return;
	}
	if (lbr_chain_applies(s, max)) {
		/* --call-graph lbr: the LBR call stack stands for the user part */
		size_t cap = nr + s->branch_nr + 1;
		struct lbr_frame *lf = malloc(cap * sizeof(*lf));
		long m = lf ? lbr_chain_frames(s, max, false, lf, cap) : 0;
		for (long i = 0; i < m; i++)
			print_frame(p, t, (int32_t)s->pid, (int32_t)s->tid, lf[i].cpumode, lf[i].ip, false);
		free(lf);
		return;
	}
	for (uint64_t i = 0; i < nr && entries < max; i++) {
		uint64_t ip = hwprof_u64_at(s->callchain, i);
		if (ip >= HWPROF_CONTEXT_MAX) {
			cpumode = ip == HWPROF_CONTEXT_HV ? 3 /* HYPERVISOR */
				  : ip == HWPROF_CONTEXT_KERNEL ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
			continue;
		}
		entries++;
		print_frame(p, t, (int32_t)s->pid, (int32_t)s->tid, cpumode, ip, false);
	}
	/* --call-graph dwarf: the user part is unwound from the stack copy */
	const uint64_t need = HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
	if (!s->evsel || (s->evsel->attr.sample_type & need) != need)
		return;
	struct hwprof_unwinder *uw = script_printer_unwinder(p);
	uint64_t ips[1024];
	if (max > sizeof(ips) / sizeof(ips[0]))
		max = sizeof(ips) / sizeof(ips[0]);
	int n = uw ? hwprof_unwind_sample(uw, s, ips, (size_t)max) : 0;
	for (int i = 0; i < n; i++)
		if (ips[i]) /* perf skips zero addresses */
			print_frame(p, t, (int32_t)s->pid, (int32_t)s->tid, HWPROF_MISC_USER, ips[i], true);
}
