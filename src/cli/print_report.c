/* perf report --stdio's histogram text, as perf 6.1 prints it.
 *
 * Columns are joined by two spaces and every line starts with "# " (header)
 * or two spaces (rows). Column widths are perf's: the header's length or
 * the widest value over all entries (also those under the percent limit),
 * where the comm width comes from each entry's thread's final comm, an
 * unresolved symbol counts as 16 hex digits plus "[.] " and 2, and an
 * unresolved symbol makes the DSO column at least 16 wide. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/print_report.h"
#include "cli/report_run.h"
#include "cli/print_spe_samples.h"
#include "hwprof/session.h"

#define TIPS_FILE "/usr/share/doc/linux-perf/tips.txt"

static const char *col_header(enum hwprof_hist_key k)
{
	switch (k) {
	case HWPROF_HK_COMM: return "Command";
	case HWPROF_HK_PID: return "    Pid:Command";
	case HWPROF_HK_DSO: return "Shared Object";
	case HWPROF_HK_SYM: return "Symbol";
	case HWPROF_HK_CPU: return "CPU";
	case HWPROF_HK_SYM_SIZE: return "Symbol size";
	case HWPROF_HK_DSO_SIZE: return "DSO size";
	case HWPROF_HK_ADDR: return "Address";
	case HWPROF_HK_INS_LAT: return "INSTR Latency";
	case HWPROF_HK_TIME: return "Time";
	case HWPROF_HK_SRCLINE: return "Source:Line";
	case HWPROF_HK_LOCAL_WEIGHT: return "Local Weight";
	case HWPROF_HK_WEIGHT: return "Weight";
	case HWPROF_HK_MEM: return "Memory access";
	case HWPROF_HK_SYM_DADDR: return "Data Symbol";
	case HWPROF_HK_DSO_DADDR: return "Data Object";
	case HWPROF_HK_SNOOP: return "Snoop";
	case HWPROF_HK_TLB: return "TLB access";
	case HWPROF_HK_LOCKED: return "Locked";
	case HWPROF_HK_BLOCKED: return "Blocked";
	case HWPROF_HK_LOCAL_INS_LAT: return "Local INSTR Latency";
	case HWPROF_HK_IPC_NULL: return "IPC   [IPC Coverage]";
	case HWPROF_HK_DSO_FROM: return "Source Shared Object";
	case HWPROF_HK_DSO_TO: return "Target Shared Object";
	case HWPROF_HK_SYM_FROM: return "Source Symbol";
	case HWPROF_HK_SYM_TO: return "Target Symbol";
	case HWPROF_HK_MISPREDICT: return "Branch Mispredicted";
	case HWPROF_HK_IN_TX: return "Branch in transaction";
	case HWPROF_HK_ABORT: return "Transaction abort";
	case HWPROF_HK_CYCLES: return "Basic Block Cycles";
	case HWPROF_HK_ADDR_FROM: return "Source Address";
	case HWPROF_HK_ADDR_TO: return "Target Address";
	case HWPROF_HK_DCACHELINE: return "Data Cacheline";
	case HWPROF_HK_SRCLINE_FROM: return "From Source:Line";
	case HWPROF_HK_SRCLINE_TO: return "To Source:Line";
	case HWPROF_HK_SOCKET: return "Socket";
	case HWPROF_HK_SRCFILE: return "Source File";
	case HWPROF_HK_TRANSACTION: return "Transaction                ";
	case HWPROF_HK_TRACE: return "Trace output";
	case HWPROF_HK_CGROUP: return "Cgroup";
	case HWPROF_HK_CGROUP_ID: return "cgroup id (dev/inode)";
	case HWPROF_HK_CODE_PAGE_SIZE: return "Code Page Size";
	case HWPROF_HK_PARENT: return "Parent symbol";
	case HWPROF_HK_DATA_PAGE_SIZE: return "Data Page Size";
	case HWPROF_HK_PHYS_DADDR: return "Data Physical Address";
	case HWPROF_HK_SYM_IADDR: return "Code Symbol";
	case HWPROF_HK_OVERHEAD_SYS: return "sys";
	case HWPROF_HK_OVERHEAD_US: return "usr";
	case HWPROF_HK_OVERHEAD_GUEST_SYS: return "guest sys";
	case HWPROF_HK_OVERHEAD_GUEST_US: return "guest usr";
	case HWPROF_HK_OVERHEAD: return "Overhead";
	case HWPROF_HK_CHILDREN: return "Children";
	case HWPROF_HK_SAMPLES: return "Samples";
	case HWPROF_HK_PERIOD: return "Period";
	case HWPROF_HK_DYN0: /* dynamic keys: handled before the switch */
	case HWPROF_HK_DYN_LAST:
	case HWPROF_HK_NR: break;
	}
	return "";
}

static bool is_field(enum hwprof_hist_key k)
{
	return k >= HWPROF_HK_FIRST_FIELD;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* Value widths over all entries (perf's hists__calc_col_len). */
struct widths {
	int comm, thread, dso, sym, cpu, sym_size, srcline, srcline_end[2], dcacheline, daddr_sym, daddr_dso, sym_end[2],
	    dso_end[2], time;
	int srcfile, transaction, cgroup, parent, iaddr_sym, addr_end[2], trace;
	int dyn[HWPROF_HK_NR_DYN];
};

/* perf's name of a PERF_SAMPLE_CGROUP id: the CGROUP record's path,
 * "unknown" without one */
static const char *cgroup_name(const struct report_layout *l, uint64_t id)
{
	const char *n = l->cgroup_name ? l->cgroup_name(l->cgroup_ctx, id) : NULL;
	return n ? n : "unknown";
}

static void calc_widths(const struct report_layout *l, const struct hwprof_hist *h, struct hwprof_session *s,
			struct widths *w)
{
	memset(w, 0, sizeof(*w));
	/* perf's hists__set_unres_dso_col_len(): an unresolved entry's DSO
	 * columns take an address's room, but not with -t or --dsos */
	int unres = l->field_sep || l->dso_filter ? 0 : 16;
	w->cpu = 3;
	w->cgroup = 6;

	for (unsigned i = 0; i < HWPROF_HK_NR_DYN; i++)
		w->dyn[i] = hwprof_hist_dyn_width(h, i);
	size_t n = hwprof_hist_nr_entries(h);
	for (size_t i = 0; i < n; i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(h, i);
		const char *comm = hwprof_session_thread_comm(s, e->pid, e->tid);
		int cl = comm ? (int)strlen(comm) : 0;
		if (cl > w->comm) {
			w->comm = cl;
			w->thread = cl + 8;
		}
		if (e->dso_short)
			w->dso = imax(w->dso, (int)strlen(e->dso_short));
		w->srcline = imax(w->srcline, (int)e->srcline_width);
		for (int end = 0; end < 2; end++)
			w->srcline_end[end] = imax(w->srcline_end[end], (int)e->srcline_end_width[end]);
		w->srcfile = imax(w->srcfile, (int)e->srcfile_width);
		w->trace = imax(w->trace, (int)e->trace_width);
		if (e->transaction) /* perf's hist_entry__transaction_len() */
			w->transaction = 32;
		if (e->cgroup)
			w->cgroup = imax(w->cgroup, (int)strlen(cgroup_name(l, e->cgroup)));
		if (e->parent)
			w->parent = imax(w->parent, (int)strlen(e->parent));
		w->iaddr_sym = imax(w->iaddr_sym, e->sym ? (int)strlen(e->sym->name) + 4 + 16 + 2 : 16 + 4 + 2);
		if (e->sym) {
			w->sym = imax(w->sym, (int)strlen(e->sym->name) + 4);
		} else {
			w->sym = imax(w->sym, 16 + 4 + 2);
			w->dso = imax(w->dso, unres);
		}
		/* perf's mem_info columns: a symbol's name plus an address's
		 * room, or the unresolved address; the DSO's short name or
		 * the unresolved width */
		w->daddr_sym = imax(w->daddr_sym, e->daddr_sym ? (int)strlen(e->daddr_sym->name) + 4 + 16 + 2 : 16 + 4 + 2);
		w->dcacheline = imax(w->dcacheline, e->daddr_sym ? (int)strlen(e->daddr_sym->name) + 4 + 16 + 2 + 1 : 16 + 4 + 2);
		w->daddr_dso = imax(w->daddr_dso, e->daddr_dso_short ? (int)strlen(e->daddr_dso_short) : unres);
		if (e->has_branch) {
			/* perf: a resolved end's name and its map's DSO; an
			 * unresolved one the address's room and a DSO column
			 * of at least 16 */
			const struct hwprof_hist_branch_end *end[2] = { &e->br.from, &e->br.to };
			const char *dso[2] = { e->from_dso_short, e->to_dso_short };
			for (int j = 0; j < 2; j++) {
				if (end[j]->sym) {
					w->sym_end[j] = imax(w->sym_end[j], (int)strlen(end[j]->sym->name) + 4);
					w->dso_end[j] = imax(w->dso_end[j], dso[j] ? (int)strlen(dso[j]) : 0);
				} else {
					/* perf widens the address column for
					 * unresolved ends only */
					w->sym_end[j] = imax(w->sym_end[j], 16 + 4 + 2);
					w->addr_end[j] = imax(w->addr_end[j], 16 + 4 + 2);
					w->dso_end[j] = imax(w->dso_end[j], unres);
				}
			}
		}
	}
}

/* One part of perf's data source text ("|LVL L1 hit|SNP None|..."): the
 * text after "|<tag> " up to the next '|'. */
static const char *mem_part(uint64_t data_src, const char *tag, char *out, size_t size)
{
	char text[128];
	script_mem_text(data_src, text, sizeof(text));
	const char *p = strstr(text, tag);
	out[0] = 0;
	if (!p)
		return out;
	p += strlen(tag);
	size_t n = strcspn(p, "|");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = 0;
	return out;
}

/* Values per overhead column: the leader's and each group member's */
static int group_cols(const struct hwprof_hist *h)
{
	return 1 + (int)hwprof_hist_nr_members(h);
}

static int col_width(enum hwprof_hist_key k, const struct widths *w, int cols)
{
	int v = 0;
	if (HWPROF_HK_IS_DYN(k)) /* perf's hde_width: the name counted in */
		return w->dyn[k - HWPROF_HK_DYN0];
	switch (k) {
	case HWPROF_HK_COMM: v = w->comm; break;
	case HWPROF_HK_PID: v = w->thread; break;
	case HWPROF_HK_DSO: v = w->dso; break;
	case HWPROF_HK_SYM: v = w->sym; break;
	case HWPROF_HK_CPU: v = w->cpu; break;
	case HWPROF_HK_SYM_SIZE: v = w->sym_size; break;
	case HWPROF_HK_DSO_SIZE: v = 0; break;
	case HWPROF_HK_ADDR: v = 16 + 2; break;
	case HWPROF_HK_INS_LAT: v = 13; break;
	case HWPROF_HK_TIME: v = w->time; break;
	case HWPROF_HK_SRCLINE: v = w->srcline; break;
	case HWPROF_HK_LOCAL_WEIGHT: v = 12; break;
	case HWPROF_HK_WEIGHT: v = 12; break;
	case HWPROF_HK_MEM: v = 21 + 3; break;
	case HWPROF_HK_SYM_DADDR: v = w->daddr_sym; break;
	case HWPROF_HK_DSO_DADDR: v = w->daddr_dso; break;
	case HWPROF_HK_SNOOP: v = 12; break;
	case HWPROF_HK_TLB: v = 22; break;
	case HWPROF_HK_LOCKED: v = 6; break;
	case HWPROF_HK_BLOCKED: v = 10; break;
	case HWPROF_HK_LOCAL_INS_LAT: v = 13; break;
	case HWPROF_HK_IPC_NULL: v = 0; break;
	case HWPROF_HK_DSO_FROM: v = w->dso_end[0]; break;
	case HWPROF_HK_DSO_TO: v = w->dso_end[1]; break;
	case HWPROF_HK_SYM_FROM: v = w->sym_end[0]; break;
	case HWPROF_HK_SYM_TO: v = w->sym_end[1]; break;
	case HWPROF_HK_MISPREDICT:
	case HWPROF_HK_IN_TX:
	case HWPROF_HK_ABORT:
	case HWPROF_HK_CYCLES: v = 0; break;
	case HWPROF_HK_ADDR_FROM: v = w->addr_end[0]; break;
	case HWPROF_HK_ADDR_TO: v = w->addr_end[1]; break;
	case HWPROF_HK_DCACHELINE: v = w->dcacheline; break;
	case HWPROF_HK_SRCLINE_FROM: v = w->srcline_end[0]; break;
	case HWPROF_HK_SRCLINE_TO: v = w->srcline_end[1]; break;
	case HWPROF_HK_SOCKET: v = 6; break;
	case HWPROF_HK_SRCFILE: v = w->srcfile; break;
	case HWPROF_HK_TRANSACTION: v = w->transaction; break;
	case HWPROF_HK_TRACE: v = w->trace; break;
	case HWPROF_HK_CGROUP: v = w->cgroup; break;
	case HWPROF_HK_CGROUP_ID: v = 20; break;
	case HWPROF_HK_CODE_PAGE_SIZE: v = 6; break;
	case HWPROF_HK_PARENT: v = w->parent; break;
	case HWPROF_HK_DATA_PAGE_SIZE: v = 16 + 4 + 2; break;
	case HWPROF_HK_PHYS_DADDR: v = 16 + 4 + 2; break;
	case HWPROF_HK_SYM_IADDR: v = w->iaddr_sym; break;
	/* perf's hpp widths: 8 (9 for the guest shares, 12 for counts) per
	 * group member */
	case HWPROF_HK_OVERHEAD_GUEST_SYS:
	case HWPROF_HK_OVERHEAD_GUEST_US: return 9 * cols;
	case HWPROF_HK_OVERHEAD_SYS:
	case HWPROF_HK_OVERHEAD_US:
	case HWPROF_HK_OVERHEAD: return 8 * cols;
	case HWPROF_HK_CHILDREN: return 8 * cols;
	case HWPROF_HK_SAMPLES: return 12 * cols;
	case HWPROF_HK_PERIOD: return 12 * cols;
	case HWPROF_HK_DYN0: /* dynamic keys: handled before the switch */
	case HWPROF_HK_DYN_LAST:
	case HWPROF_HK_NR: break;
	}
	return imax(v, (int)strlen(col_header(k)));
}

static uint64_t total_of(const struct report_layout *l, const struct hwprof_hist *h)
{
	return l->relative ? hwprof_hist_shown_period(h) : hwprof_hist_total_period(h);
}

/* perf's convert_unit for the sample count; a group's counts are summed */
static void print_samples_line(FILE *f, const struct report_layout *l, const struct hwprof_hist *h,
			       const char *evname, bool relative)
{
	uint64_t sn = relative ? hwprof_hist_shown_samples(h) : hwprof_hist_nr_samples(h);
	unsigned long long events = total_of(l, h);
	for (uint32_t k = 0; k < hwprof_hist_nr_members(h); k++) {
		const struct hwprof_hist *m = hwprof_hist_member(h, k);
		sn += relative ? hwprof_hist_shown_samples(m) : hwprof_hist_nr_samples(m);
		events += total_of(l, m);
	}
	unsigned long n = (unsigned long)sn;
	const char *s = l->plural ? "s" : "";
	char unit = ' ';
	if (n > 1000) { n /= 1000; unit = 'K'; }
	if (n > 1000) { n /= 1000; unit = 'M'; }
	if (n > 1000) { n /= 1000; unit = 'G'; }
	fprintf(f, "# Samples: %lu%c of event%s '%s'", n, unit, s, evname);
	if (l->time_str)
		fprintf(f, " (time slices: %s)", l->time_str);
	if (l->mem_mode)
		fprintf(f, "\n# Total weight : %llu\n# Sort order   : %s\n#\n", events, l->sort_order);
	else
		fprintf(f, "\n# Event count (approx.): %llu\n#\n",
			events);
}

static void print_header(FILE *f, const struct report_layout *l, const struct widths *w, int cols)
{
	const char *sep = l->field_sep ? l->field_sep : "  ";
	fputs("# ", f);
	for (size_t i = 0; i < l->nr_cols; i++) {
		int wd = col_width(l->cols[i], w, cols);
		if (i)
			fputs(sep, f);
		if (l->cols[i] == HWPROF_HK_OVERHEAD && l->self_header)
			fprintf(f, "%*s", wd, "Self");
		else if (HWPROF_HK_IS_DYN(l->cols[i])) /* perf's __sort__hde_header */
			fprintf(f, "%*.*s", wd, wd, l->dyn_name[l->cols[i] - HWPROF_HK_DYN0]);
		else if (is_field(l->cols[i]))
			fprintf(f, "%*s", wd, col_header(l->cols[i]));
		else
			fprintf(f, "%-*.*s", wd, wd, col_header(l->cols[i]));
	}
	if (l->field_sep) { /* perf leaves out the dotted line with -t */
		fputc('\n', f);
		return;
	}
	fputs("\n# ", f);
	for (size_t i = 0; i < l->nr_cols; i++) {
		int wd = col_width(l->cols[i], w, cols);
		if (i)
			fputs("  ", f);
		for (int j = 0; j < wd; j++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/* One value of an overhead column (perf's hpp__fmt): a space, then the
 * number right-aligned in what is left, so a value wider than that (a
 * children share of 1000% and more) pushes the line right as in perf.
 * With -t (sep) the number takes the room it needs. */
static int value_cell(FILE *f, enum hwprof_hist_key k, int wd, bool sep, const struct hwprof_hist_entry *e,
		      uint64_t total)
{
	switch (k) {
	case HWPROF_HK_OVERHEAD_SYS:
	case HWPROF_HK_OVERHEAD_US:
	case HWPROF_HK_OVERHEAD_GUEST_SYS:
	case HWPROF_HK_OVERHEAD_GUEST_US:
	case HWPROF_HK_OVERHEAD:
	case HWPROF_HK_CHILDREN: {
		uint64_t v = !e ? 0
			     : k == HWPROF_HK_CHILDREN ? e->acc_period
			     : k == HWPROF_HK_OVERHEAD_SYS ? e->period_sys
			     : k == HWPROF_HK_OVERHEAD_US ? e->period_us
			     : k == HWPROF_HK_OVERHEAD_GUEST_SYS ? e->period_guest_sys
			     : k == HWPROF_HK_OVERHEAD_GUEST_US ? e->period_guest_us : e->period;
		double pct = total ? 100.0 * (double)v / (double)total : 0.0;
		return fprintf(f, " %*.2f%%", sep ? 1 : wd - 2, pct);
	}
	case HWPROF_HK_SAMPLES:
		return fprintf(f, " %*llu", sep ? 1 : wd - 1, (unsigned long long)(e ? e->nr_samples : 0));
	default: return fprintf(f, " %*llu", sep ? 1 : wd - 1, (unsigned long long)(e ? e->period : 0));
	}
}

/* perf's _hist_entry__sym_snprintf(): "[level] " then the symbol (an
 * object's as name+offset from its start, ip minus unmap_ip(start); the
 * kernel map's is the identity) or the address in 16 hex digits. */
static int sym_text(FILE *f, int wd, char level, const struct hwprof_sym *sym, uint64_t ip, bool kernel_map,
		    uint64_t map_start, uint64_t map_pgoff)
{
	int n = fprintf(f, "[%c] ", level);
	if (sym && sym->object) {
		uint64_t base = sym->start;
		if (!kernel_map)
			base += map_start - map_pgoff;
		return n + fprintf(f, "%s+0x%llx", sym->name, (unsigned long long)(ip - base));
	}
	if (sym)
		return n + fprintf(f, "%.*s%s", imax(wd - n, 0), sym->name, sym->inlined ? " (inlined)" : "");
	return n + fprintf(f, "%-#.*llx", 16, (unsigned long long)ip);
}

/* perf's get_page_size_name(): "N/A" for none, else in B, K, M or G
 * (unit_number__scnprintf(): divided while a 1024th is above 1) */
static const char *page_size_text(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "BKMG";
	int i = 0;
	if (!size) {
		snprintf(buf, len, "N/A");
		return buf;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)size, units[i]);
	return buf;
}

/* perf's hist_entry__transaction_snprintf(): the PERF_TXN_* flag names,
 * "NEITHER " without SYNC or ASYNC, the abort code after ':' */
static void transaction_text(uint64_t t, char *buf, size_t len)
{
	static const struct { uint64_t flag; const char *name; } bits[] = {
		{ 1u << 0, "EL " }, { 1u << 1, "TX " }, { 1u << 2, "SYNC " }, { 1u << 3, "ASYNC " },
		{ 1u << 4, "RETRY " }, { 1u << 5, "CON " }, { 1u << 6, "CAP-WRITE " }, { 1u << 7, "CAP-READ " },
	};
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (t & bits[i].flag)
			n += (size_t)snprintf(buf + n, len - n, "%s", bits[i].name);
	if (t && !(t & (4 | 8)))
		n += (size_t)snprintf(buf + n, len - n, "NEITHER ");
	if (t & 0xffffffff00000000ull) /* PERF_TXN_ABORT_MASK */
		snprintf(buf + n, len - n, ":%llx", (unsigned long long)(t >> 32));
}

/* One cell; returns the number of bytes written. */
static int print_cell(FILE *f, struct report_layout *l, enum hwprof_hist_key k, int wd,
		      const struct hwprof_hist_entry *e, struct hwprof_hist *h, struct hwprof_session *s, uint64_t total)
{
	if (HWPROF_HK_IS_DYN(k)) { /* perf's __sort__hde_entry */
		const char *t = l->dyn_text ? l->dyn_text(l->dyn_ctx, h, (unsigned)(k - HWPROF_HK_DYN0), e) : NULL;
		return fprintf(f, "%*.*s", wd, wd, t ? t : "");
	}
	switch (k) {
	case HWPROF_HK_OVERHEAD_SYS:
	case HWPROF_HK_OVERHEAD_US:
	case HWPROF_HK_OVERHEAD_GUEST_SYS:
	case HWPROF_HK_OVERHEAD_GUEST_US:
	case HWPROF_HK_OVERHEAD:
	case HWPROF_HK_CHILDREN:
	case HWPROF_HK_SAMPLES:
	case HWPROF_HK_PERIOD: {
		if (k == HWPROF_HK_CHILDREN && !l->children)
			return fprintf(f, " %*s", 8 - 1, "N/A"); /* perf's hpp__fmt_acc() */
		/* the group view: each member's value of its own total after
		 * the leader's; none where the member has no pair or no total */
		uint32_t nm = hwprof_hist_nr_members(h);
		int one = wd / (int)(nm + 1);
		bool sep = l->field_sep != NULL;
		int n = value_cell(f, k, one, sep, e, total);
		for (uint32_t m = 0; m < nm; m++) {
			const struct hwprof_hist *mh = hwprof_hist_member(h, m);
			uint64_t mt = total_of(l, mh);
			n += value_cell(f, k, one, sep, mt ? hwprof_hist_pair(h, e, m) : NULL, mt);
		}
		return n;
	}
	case HWPROF_HK_COMM: return fprintf(f, "%-*.*s", wd, wd, e->comm);
	case HWPROF_HK_PID: {
		const char *comm = hwprof_session_thread_comm(s, e->pid, e->tid);
		return fprintf(f, "%7d:%-*.*s", (int)e->tid, wd - 8, wd - 8, comm ? comm : "");
	}
	case HWPROF_HK_DSO: return fprintf(f, "%-*.*s", wd, wd, e->dso_short ? e->dso_short : "[unknown]");
	case HWPROF_HK_CPU: return fprintf(f, "%*.*d", wd, wd, (int)e->cpu);
	case HWPROF_HK_SYM_SIZE:
		if (e->sym)
			return fprintf(f, "%*d", wd, (int)(e->sym->end - e->sym->start));
		return fprintf(f, "%*s", wd, "unknown");
	case HWPROF_HK_DSO_SIZE:
		if (e->dso)
			return fprintf(f, "%*d", wd, (int)e->map_size);
		return fprintf(f, "%*s", wd, "unknown");
	case HWPROF_HK_ADDR: return fprintf(f, "%-#*llx", wd, (unsigned long long)hwprof_hist_entry_addr(e));
	case HWPROF_HK_INS_LAT: return fprintf(f, "%-*u", wd, (unsigned)(e->ins_lat1 * e->nr_samples));
	case HWPROF_HK_TIME: {
		char t[48];
		if (l->nanosecs)
			snprintf(t, sizeof(t), "%llu.%09llu", (unsigned long long)(e->time / 1000000000ULL),
				 (unsigned long long)(e->time % 1000000000ULL));
		else
			snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(e->time / 1000000000ULL),
				 (unsigned long long)(e->time / 1000ULL % 1000000ULL));
		return fprintf(f, "%-.*s", wd, t);
	}
	case HWPROF_HK_IPC_NULL: /* "-" for the IPC, "-" for the coverage */
		return fprintf(f, "%-*s", wd, "-      -");
	case HWPROF_HK_LOCAL_WEIGHT:
		return fprintf(f, "%-*llu", wd, (unsigned long long)(e->nr_samples ? e->weight / e->nr_samples : 0));
	case HWPROF_HK_WEIGHT: return fprintf(f, "%-*llu", wd, (unsigned long long)(e->weight1 * e->nr_samples));
	case HWPROF_HK_LOCAL_INS_LAT:
		return fprintf(f, "%-*u", wd, (unsigned)(e->nr_samples ? e->ins_lat / e->nr_samples : 0));
	case HWPROF_HK_MEM:
	case HWPROF_HK_SNOOP:
	case HWPROF_HK_TLB:
	case HWPROF_HK_LOCKED:
	case HWPROF_HK_BLOCKED: {
		/* perf's 64-byte buffers (16 for blocked); the lock and blocked
		 * texts are cut to the width, the others padded to it */
		static const char *const tag[] = { [HWPROF_HK_MEM] = "|LVL ", [HWPROF_HK_SNOOP] = "|SNP ",
						   [HWPROF_HK_TLB] = "|TLB ", [HWPROF_HK_LOCKED] = "|LCK ",
						   [HWPROF_HK_BLOCKED] = "|BLK " };
		char out[64];
		mem_part(e->data_src, tag[k], out, k == HWPROF_HK_BLOCKED ? 16 : sizeof(out));
		if (k == HWPROF_HK_LOCKED || k == HWPROF_HK_BLOCKED)
			return fprintf(f, "%.*s", wd, out);
		return fprintf(f, "%-*s", wd, out);
	}
	case HWPROF_HK_DSO_DADDR:
		return fprintf(f, "%-*.*s", wd, wd, e->daddr_dso_short ? e->daddr_dso_short : "[unknown]");
	case HWPROF_HK_DCACHELINE: {
		/* perf's hist_entry__dcacheline_snprintf(): [s] for shared
		 * data file mappings, [X] without a map */
		const struct hwprof_hist_dmap *m = &e->daddr_map;
		char level = e->level;
		if (e->cpumode != HWPROF_MISC_KERNEL && e->daddr_dso && !(m->prot & 4 /* PROT_EXEC */) &&
		    (m->flags & 1 /* MAP_SHARED */) && (m->maj || m->min || m->ino || m->ino_generation))
			level = 's';
		else if (!e->daddr_dso)
			level = 'X';
		return sym_text(f, wd, level, e->daddr_dso ? e->daddr_sym : NULL, hwprof_hist_entry_dcacheline(h, e),
				e->level == 'k' || e->level == 'g', e->daddr_map_start, e->daddr_map_pgoff);
	}
	case HWPROF_HK_SYM_DADDR: {
		int n = fprintf(f, "[%c] ", e->level);
		if (e->daddr_sym && e->daddr_sym->object) {
			uint64_t base = e->daddr_sym->start;
			if (e->level != 'k' && e->level != 'g')
				base += e->daddr_map_start - e->daddr_map_pgoff;
			return n + fprintf(f, "%s+0x%llx", e->daddr_sym->name, (unsigned long long)(e->daddr - base));
		}
		if (e->daddr_sym)
			return n + fprintf(f, "%.*s", imax(wd - n, 0), e->daddr_sym->name);
		return n + fprintf(f, "%-#.*llx", 16, (unsigned long long)e->daddr);
	}
	case HWPROF_HK_SRCLINE_FROM:
	case HWPROF_HK_SRCLINE_TO: {
		/* perf prints what its comparisons computed: a lone entry's
		 * text was never made (glibc's "(null)" for the NULL) */
		const char *t = e->srcline_end[k == HWPROF_HK_SRCLINE_TO];
		return fprintf(f, "%-*.*s", wd, wd, t ? t : wd >= 6 ? "(null)" : "");
	}
	case HWPROF_HK_SRCLINE: /* computed now if perf had not yet */
		return fprintf(f, "%-.*s", wd, hwprof_hist_entry_srcline(h, e));
	case HWPROF_HK_SYM: return sym_text(f, wd, e->level, e->sym, e->ip, e->kernel_map, e->map_start, e->map_pgoff);
	case HWPROF_HK_DSO_FROM:
	case HWPROF_HK_DSO_TO: {
		const char *d = k == HWPROF_HK_DSO_FROM ? e->from_dso_short : e->to_dso_short;
		if (!e->has_branch)
			d = "N/A";
		return fprintf(f, "%-*.*s", wd, wd, d ? d : "[unknown]");
	}
	case HWPROF_HK_SYM_FROM:
	case HWPROF_HK_SYM_TO: {
		if (!e->has_branch)
			return fprintf(f, "%-*.*s", wd, wd, "N/A");
		const struct hwprof_hist_branch_end *b = k == HWPROF_HK_SYM_FROM ? &e->br.from : &e->br.to;
		return sym_text(f, wd, b->level, b->sym, b->al_addr, b->kernel_map, b->map_start, b->map_pgoff);
	}
	case HWPROF_HK_ADDR_FROM:
	case HWPROF_HK_ADDR_TO: {
		/* perf's _hist_entry__addr_snprintf(): the entry's level, the
		 * symbol cut to the width and its offset, an object's offset
		 * from its start, or the address */
		if (!e->has_branch)
			return fprintf(f, "%-*.*s", wd, wd, "N/A");
		const struct hwprof_hist_branch_end *b = k == HWPROF_HK_ADDR_FROM ? &e->br.from : &e->br.to;
		int n = fprintf(f, "[%c] ", e->level);
		if (b->sym && b->sym->object) {
			uint64_t base = b->sym->start;
			if (!b->kernel_map)
				base += b->map_start - b->map_pgoff;
			return n + fprintf(f, "%s+0x%llx", b->sym->name, (unsigned long long)(b->al_addr - base));
		}
		if (b->sym) {
			n += fprintf(f, "%.*s", imax(wd - n, 0), b->sym->name);
			if (b->al_addr != b->sym->start)
				n += fprintf(f, "+0x%llx", (unsigned long long)(b->al_addr - b->sym->start));
			return n;
		}
		return n + fprintf(f, "%-#.*llx", 16, (unsigned long long)b->al_addr);
	}
	case HWPROF_HK_MISPREDICT:
		if (e->has_branch && (e->br.predicted || e->br.mispred))
			l->mispredict = e->br.predicted ? "N" : "Y";
		return fprintf(f, "%-*.*s", wd, wd, l->mispredict ? l->mispredict : "N/A");
	case HWPROF_HK_IN_TX:
		return fprintf(f, "%-*s", wd, !e->has_branch ? "N/A" : e->br.in_tx ? "T" : ".");
	case HWPROF_HK_ABORT:
		return fprintf(f, "%-*s", wd, !e->has_branch ? "N/A" : e->br.abort ? "A" : ".");
	case HWPROF_HK_CYCLES:
		if (!e->has_branch)
			return fprintf(f, "%-.*s", wd, "N/A");
		if (!e->br.cycles)
			return fprintf(f, "%-*s", wd, "-");
		return fprintf(f, "%-*hd", wd, (short)e->br.cycles);
	case HWPROF_HK_SOCKET: return fprintf(f, "%*.*d", wd, wd - 3, (int)e->socket);
	case HWPROF_HK_SRCFILE: return fprintf(f, "%-.*s", wd, hwprof_hist_entry_srcfile(h, e));
	case HWPROF_HK_TRANSACTION: {
		char t[128];
		transaction_text(e->transaction, t, sizeof(t));
		return fprintf(f, "%-*s", wd, t);
	}
	case HWPROF_HK_TRACE: /* perf's hist_entry__trace_snprintf */
		return fprintf(f, "%-.*s", wd, e->tracepoint ? hwprof_hist_entry_trace(h, e) : "N/A");
	case HWPROF_HK_CGROUP: return fprintf(f, "%s", e->cgroup ? cgroup_name(l, e->cgroup) : "N/A");
	case HWPROF_HK_CGROUP_ID:
		return fprintf(f, "%llu/0x%llx", (unsigned long long)e->cgroup_dev, (unsigned long long)e->cgroup_ino);
	case HWPROF_HK_CODE_PAGE_SIZE:
	case HWPROF_HK_DATA_PAGE_SIZE: {
		char t[32];
		return fprintf(f, "%-*s", wd,
			       page_size_text(k == HWPROF_HK_CODE_PAGE_SIZE ? e->code_page_size : e->data_page_size, t,
					      sizeof(t)));
	}
	case HWPROF_HK_PARENT: return fprintf(f, "%-*.*s", wd, wd, e->parent ? e->parent : "[other]");
	case HWPROF_HK_PHYS_DADDR: {
		/* perf's text cut or padded to the width */
		char t[64];
		snprintf(t, sizeof(t), "[%c] %-#.*llx", e->level, 16, (unsigned long long)e->phys_addr);
		return fprintf(f, "%-*.*s", wd, wd, t);
	}
	case HWPROF_HK_SYM_IADDR:
		/* the sample's own address, raw, and its symbol */
		return sym_text(f, wd, e->level, e->sym, hwprof_hist_entry_addr(e), e->kernel_map, e->map_start,
				e->map_pgoff);
	case HWPROF_HK_DYN0: /* dynamic keys: handled before the switch */
	case HWPROF_HK_DYN_LAST:
	case HWPROF_HK_NR: break;
	}
	return 0;
}

static void print_row(FILE *f, struct report_layout *l, const struct widths *w,
		      const struct hwprof_hist_entry *e, struct hwprof_hist *h, struct hwprof_session *s)
{
	fputs("  ", f);
	for (size_t i = 0; i < l->nr_cols; i++) {
		int wd = col_width(l->cols[i], w, group_cols(h));
		if (i)
			fputs("  ", f);
		int n = print_cell(f, l, l->cols[i], wd, e, h, s, total_of(l, h));
		/* every column but the last is padded to its width */
		if (i + 1 < l->nr_cols && n < wd)
			fprintf(f, "%*s", wd - n, "");
	}
	fputc('\n', f);
}

/* A row with -t: the separator between the columns (none before the
 * first), and in the keys' texts (not the values', nor a tracepoint
 * field's) its first character replaced by '.', as perf's
 * repsep_snprintf() does. The cells are printed to memory first. */
static void print_row_sep(FILE *out, struct report_layout *l, const struct widths *w,
			  const struct hwprof_hist_entry *e, struct hwprof_hist *h, struct hwprof_session *s)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f) {
		fputs("out of memory\n", out);
		return;
	}
	for (size_t i = 0; i < l->nr_cols; i++) {
		enum hwprof_hist_key k = l->cols[i];
		int wd = col_width(k, w, group_cols(h));
		if (i)
			fputs(l->field_sep, f);
		fflush(f);
		size_t at = size;
		int n = print_cell(f, l, k, wd, e, h, s, total_of(l, h));
		fflush(f);
		if (!is_field(k) && !HWPROF_HK_IS_DYN(k))
			for (char *c = buf + at; (c = memchr(c, l->field_sep[0], (size_t)(buf + size - c))); c++)
				*c = '.';
		if (i + 1 < l->nr_cols && n < wd)
			fprintf(f, "%*s", wd - n, "");
	}
	fputc('\n', f);
	fclose(f);
	fwrite(buf, 1, size, out);
	free(buf);
}

/* --hierarchy (perf's hists__fprintf with report_hierarchy): the output
 * fields, then one level per sort key, each HIERARCHY_INDENT deeper. */
#define HIERARCHY_INDENT 3

struct hier {
	FILE *f;
	struct report_layout *l;
	const struct widths *w;
	struct hwprof_hist *h;
	struct hwprof_session *s;
	uint64_t total;
	enum hwprof_hist_key fields[REPORT_MAX_COLS], keys[REPORT_MAX_COLS];
	size_t nfields, nkeys;
	int fields_width;        /* perf's hists__overhead_width() */
};

/* A key's text as its cell prints it (leading blanks left out, as perf's
 * skip_spaces()). Returns a malloc'd string or NULL. */
static char *key_text(const struct hier *x, enum hwprof_hist_key k, const struct hwprof_hist_entry *e)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);
	if (!m)
		return NULL;
	print_cell(m, x->l, k, col_width(k, x->w, 1), e, x->h, x->s, x->total);
	fclose(m);
	if (buf) {
		size_t lead = strspn(buf, " ");
		memmove(buf, buf + lead, size - lead + 1);
	}
	return buf;
}

/* What tells a level's entries apart for perf: the text, and for a symbol
 * its sort__sym_cmp(): unresolved ones by address alone, else the DSO and
 * the symbol's range (two symbols of one name are two entries). */
static bool same_node(enum hwprof_hist_key k, const struct hwprof_hist_entry *a, const struct hwprof_hist_entry *b,
		      const char *ta, const char *tb)
{
	if (k != HWPROF_HK_SYM)
		return ta && tb && !strcmp(ta, tb);
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym && a->ip == b->ip;
	const char *da = a->dso_short ? a->dso_short : "", *db = b->dso_short ? b->dso_short : "";
	if (strcmp(da, db))
		return false;
	if (a->sym == b->sym)
		return true;
	if ((a->sym->inlined || b->sym->inlined) && !strcmp(a->sym->name, b->sym->name))
		return a->sym->start <= b->sym->end && a->sym->end >= b->sym->start;
	return a->sym->start == b->sym->start && a->sym->end == b->sym->end;
}

struct hgroup {
	const struct hier *x;
	size_t depth;                  /* the level's */
	enum hwprof_hist_key key;
	char *text;
	struct hwprof_hist_entry sum;  /* the first entry's keys, summed values */
	size_t *idx, n;                /* its entries, in the hist's order */
};

/* perf's output order of a level: by share, then by the key (threads by
 * tid, cpus by number, symbols by name with none last, the rest by their
 * text, ascending) */
static int hgroup_cmp(const void *a, const void *b)
{
	const struct hgroup *x = a, *y = b;
	if (!x->n || !y->n) /* no memory for its members: not shown */
		return !x->n - !y->n;
	if (x->sum.period != y->sum.period)
		return x->sum.period > y->sum.period ? -1 : 1;
	if (x->key == HWPROF_HK_PID && x->sum.tid != y->sum.tid)
		return x->sum.tid < y->sum.tid ? -1 : 1;
	if (x->key == HWPROF_HK_CPU && x->sum.cpu != y->sum.cpu)
		return x->sum.cpu < y->sum.cpu ? -1 : 1;
	if (x->key == HWPROF_HK_SYM && (x->sum.sym || y->sum.sym)) { /* by name, none last */
		if (!x->sum.sym || !y->sum.sym)
			return x->sum.sym ? -1 : 1;
		int c = strcmp(x->sum.sym->name, y->sum.sym->name);
		if (c)
			return c;
	}
	/* two unresolved symbols are equal for perf's sort__sym_sort() */
	int c = x->key == HWPROF_HK_SYM ? 0 : strcmp(x->text ? x->text : "", y->text ? y->text : "");
	/* then perf's next keys, of the entries that made the groups */
	for (size_t k = x->depth + 1; !c && k < x->x->nkeys; k++) {
		char *ta = key_text(x->x, x->x->keys[k], hwprof_hist_entry(x->x->h, x->idx[0]));
		char *tb = key_text(x->x, x->x->keys[k], hwprof_hist_entry(x->x->h, y->idx[0]));
		c = strcmp(ta ? ta : "", tb ? tb : "");
		free(ta);
		free(tb);
	}
	if (c)
		return c;
	return x->idx[0] < y->idx[0] ? -1 : x->idx[0] > y->idx[0];
}

static float hier_pct(const struct hier *x, uint64_t period)
{
	return x->total ? (float)((double)period * 100.0 / (double)x->total) : 0.0f;
}

struct hmember {
	size_t idx;
	char *text;
};

static int hmember_cmp(const void *a, const void *b)
{
	const struct hmember *x = a, *y = b;
	int c = strcmp(x->text ? x->text : "", y->text ? y->text : "");
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The entries idx[0..n) share the keys above depth: their groups by the
 * key at depth, ordered by their share. Returns how many were shown. */
static size_t hier_level(const struct hier *x, const size_t *idx, size_t n, size_t depth)
{
	struct hgroup *g = calloc(n ? n : 1, sizeof(*g));
	struct hmember *m = calloc(n ? n : 1, sizeof(*m));
	size_t ng = 0, shown = 0, run = 0;
	if (!g || !m) {
		free(g);
		free(m);
		return 0;
	}
	/* the entries by their text (then their order): a group's members
	 * are next to each other, or at least in one run of one text */
	for (size_t i = 0; i < n; i++)
		m[i] = (struct hmember){ idx[i], key_text(x, x->keys[depth], hwprof_hist_entry(x->h, idx[i])) };
	qsort(m, n, sizeof(*m), hmember_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(x->h, m[i].idx);
		char *t = m[i].text;
		if (i && strcmp(m[i - 1].text ? m[i - 1].text : "", t ? t : ""))
			run = ng; /* a new text: its groups start here (texts are
				   * freed at the end: the next one compares) */
		/* the last level's nodes are the entries themselves (told apart
		 * by all the keys, as perf's) */
		size_t k = depth + 1 == x->nkeys ? ng : run;
		while (k < ng && !same_node(x->keys[depth], e, &g[k].sum, t, g[k].text))
			k++;
		if (k == ng) {
			g[ng].x = x;
			g[ng].depth = depth;
			g[ng].key = x->keys[depth];
			g[ng].sum = *e;
			g[ng].sum.period = g[ng].sum.nr_samples = 0;
			g[ng].sum.period_sys = g[ng].sum.period_us = 0;
			g[ng].sum.period_guest_sys = g[ng].sum.period_guest_us = 0;
			g[ng].text = t ? strdup(t) : NULL;
			ng++;
		}
		struct hgroup *gr = &g[k];
		if (!(gr->n & (gr->n - 1))) { /* 0, 1, 2, 4...: room to double */
			size_t *p = realloc(gr->idx, (gr->n ? 2 * gr->n : 1) * sizeof(*p));
			if (!p)
				continue;
			gr->idx = p;
		}
		gr->idx[gr->n++] = m[i].idx;
		gr->sum.period += e->period;
		gr->sum.nr_samples += e->nr_samples;
		gr->sum.period_sys += e->period_sys;
		gr->sum.period_us += e->period_us;
		gr->sum.period_guest_sys += e->period_guest_sys;
		gr->sum.period_guest_us += e->period_guest_us;
	}
	qsort(g, ng, sizeof(*g), hgroup_cmp);
	bool leaf = depth + 1 == x->nkeys;
	for (size_t k = 0; k < ng; k++) {
		if (!g[k].n || hier_pct(x, g[k].sum.period) < x->l->percent_limit)
			continue;
		shown++;
		fprintf(x->f, "%*s", (int)(depth * HIERARCHY_INDENT), "");
		for (size_t i = 0; i < x->nfields; i++) {
			int wd = col_width(x->fields[i], x->w, 1);
			fputs("  ", x->f);
			int c = print_cell(x->f, x->l, x->fields[i], wd, &g[k].sum, x->h, x->s, x->total);
			if (c < wd)
				fprintf(x->f, "%*s", wd - c, "");
		}
		fprintf(x->f, "%*s  %s\n", (int)((x->nkeys - 1) * HIERARCHY_INDENT), "", g[k].text ? g[k].text : "");
		if (leaf) {
			const struct hwprof_hist_entry *e = hwprof_hist_entry(x->h, g[k].idx[0]);
			if (x->l->graph && e->chain != HWPROF_CHAIN_NONE) {
				if (x->l->graph_mode == RG_GRAPH || x->l->graph_mode == RG_FRACTAL)
					print_report_graph(x->f, x->l, x->h, e->chain, hwprof_hist_total_period(x->h),
							   e->period);
				else
					print_report_flat(x->f, x->l, x->h, e->chain, hwprof_hist_total_period(x->h));
			}
			continue;
		}
		if (!hier_level(x, g[k].idx, g[k].n, depth + 1)) {
			/* perf: its "no entry" line, at the children's depth */
			fprintf(x->f, "%*s%*sno entry >= %.2f%%\n",
				(int)((x->nkeys + 1 + depth + 1 - 2) * HIERARCHY_INDENT), "", x->fields_width + 4, "",
				(double)x->l->percent_limit);
		}
	}
	for (size_t k = 0; k < ng; k++) {
		free(g[k].text);
		free(g[k].idx);
	}
	free(g);
	for (size_t i = 0; i < n; i++)
		free(m[i].text);
	free(m);
	return shown;
}

static void print_hierarchy(FILE *f, struct report_layout *l, const struct widths *w, struct hwprof_hist *h,
			    struct hwprof_session *s, uint64_t total)
{
	struct hier x = { .f = f, .l = l, .w = w, .h = h, .s = s, .total = total };
	for (size_t i = 0; i < l->nr_cols; i++) {
		if (is_field(l->cols[i]))
			x.fields[x.nfields++] = l->cols[i];
		else
			x.keys[x.nkeys++] = l->cols[i];
	}
	for (size_t i = 0; i < x.nfields; i++)
		x.fields_width += (i ? 2 : 0) + col_width(x.fields[i], w, 1);
	if (!x.nkeys)
		return;
	int indent = (int)(x.nkeys - 1) * HIERARCHY_INDENT;
	if (!l->quiet) {
		/* perf's hists__fprintf_hierarchy_headers() */
		fprintf(f, "# %*s", indent, "");
		for (size_t i = 0; i < x.nfields; i++)
			fprintf(f, "%*s  ", col_width(x.fields[i], w, 1), x.fields[i] == HWPROF_HK_OVERHEAD && l->self_header
									    ? "Self" : col_header(x.fields[i]));
		int hw = 0;
		for (size_t i = 0; i < x.nkeys; i++) { /* perf's strim()'d headers */
			const char *t = col_header(x.keys[i]);
			t += strspn(t, " ");
			int len = (int)strlen(t);
			while (len && t[len - 1] == ' ')
				len--;
			hw += fprintf(f, "%s%.*s", i ? " / " : "", len, t);
		}
		fprintf(f, "\n# %.*s", indent, "........................................................................");
		for (size_t i = 0; i < x.nfields; i++) {
			if (i)
				fputs("..", f);
			for (int k = 0; k < col_width(x.fields[i], w, 1); k++)
				fputc('.', f);
		}
		for (size_t i = 0; i < x.nkeys; i++)
			hw = imax(hw, (int)i * HIERARCHY_INDENT + col_width(x.keys[i], w, 1));
		fputs("  ", f);
		for (int k = 0; k < hw; k++)
			fputc('.', f);
		fputs("\n#\n", f);
	}
	size_t n = hwprof_hist_nr_entries(h);
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	if (!idx)
		return;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	hier_level(&x, idx, n, 0);
	free(idx);
}

void print_report_hist(FILE *f, struct report_layout *layout, struct hwprof_hist *h, const char *evname,
		       struct hwprof_session *s)
{
	/* perf skips the dynamic keys of other events' fields here */
	struct report_layout own = *layout, *l = &own;
	size_t kept = 0;
	for (size_t i = 0; i < own.nr_cols; i++)
		if (!HWPROF_HK_IS_DYN(own.cols[i]) || hwprof_hist_dyn_defined(h, own.cols[i] - HWPROF_HK_DYN0))
			own.cols[kept++] = own.cols[i];
	own.nr_cols = kept;
	struct widths w;
	calc_widths(l, h, s, &w);
	w.time = l->nanosecs ? 16 : 12;
	uint64_t total = l->relative ? hwprof_hist_shown_period(h) : hwprof_hist_total_period(h);
	if (l->hierarchy) {
		if (!l->quiet)
			print_samples_line(f, l, h, evname, l->relative);
		print_hierarchy(f, l, &w, h, s, total);
		fputs("\n\n", f);
		return;
	}
	if (!l->quiet) {
		print_samples_line(f, l, h, evname, l->relative);
		print_header(f, l, &w, group_cols(h));
	}
	size_t n = hwprof_hist_nr_entries(h);
	for (size_t i = 0; i < n; i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(h, i);
		uint64_t v = l->children ? e->acc_period : e->period;
		float pct = total ? (float)((double)v * 100.0 / (double)total) : 0.0f;
		if (pct < l->percent_limit)
			continue;
		if (l->field_sep)
			print_row_sep(f, l, &w, e, h, s);
		else
			print_row(f, l, &w, e, h, s);
		if (!l->graph || e->chain == HWPROF_CHAIN_NONE)
			continue;
		/* shares of all samples */
		if (l->graph_mode == RG_GRAPH || l->graph_mode == RG_FRACTAL)
			print_report_graph(f, l, h, e->chain, hwprof_hist_total_period(h), v);
		else
			print_report_flat(f, l, h, e->chain, hwprof_hist_total_period(h));
	}
	fputs("\n\n", f);
	layout->mispredict = own.mispredict; /* perf keeps it across events */
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf's branch_type_stat_display(): shares of the branch view's typed
 * branches (the extended types' shares of the same total), no newline at
 * the end; nothing when no branch had a type */
void print_report_brtype(FILE *f, const struct report_brtype *st)
{
	static const char *const names[15] = { "N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					       "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
					       "SERROR", "NO_TX" };
	/* perf 6.1 built for x86 names the architecture-specific ones so */
	static const char *const new_names[8] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						  "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5" };
	uint64_t total = 0;
	for (int i = 0; i < 16; i++)
		total += st->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", f);
	const struct { const char *name; uint64_t n; } extra[] = {
		{ "COND_FWD", st->cond_fwd }, { "COND_BWD", st->cond_bwd },
		{ "CROSS_4K", st->cross_4k }, { "CROSS_2M", st->cross_2m },
	};
	for (size_t i = 0; i < 4; i++)
		if (extra[i].n)
			fprintf(f, "\n%8s: %5.1f%%", extra[i].name, 100.0 * (double)extra[i].n / (double)total);
	for (int i = 0; i < 15; i++)
		if (st->counts[i])
			fprintf(f, "\n%8s: %5.1f%%", names[i], 100.0 * (double)st->counts[i] / (double)total);
	for (int i = 0; i < 8; i++)
		if (st->new_counts[i])
			fprintf(f, "\n%8s: %5.1f%%", new_names[i], 100.0 * (double)st->new_counts[i] / (double)total);
}

/* perf picks tips.txt's line number random() % count (after sorting the
 * distinct non-empty lines), random() seeded with time(NULL) at start. */
void print_report_tip(FILE *f)
{
	FILE *t = fopen(TIPS_FILE, "r");
	char **lines = NULL;
	size_t n = 0, cap = 0;
	char buf[4096];
	while (t && fgets(buf, sizeof(buf), t)) {
		char *nl = strchr(buf, '\n');
		if (nl)
			*nl = 0;
		if (!buf[0])
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			char **nv = realloc(lines, nc * sizeof(*lines));
			if (!nv)
				break;
			lines = nv;
			cap = nc;
		}
		if (!(lines[n] = strdup(buf)))
			break;
		n++;
	}
	if (t)
		fclose(t);
	qsort(lines, n, sizeof(*lines), str_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && !strcmp(lines[m - 1], lines[i])) {
			free(lines[i]);
			continue;
		}
		lines[m++] = lines[i];
	}
	if (m) {
		srandom((unsigned)time(NULL));
		fprintf(f, "#\n# (Tip: %s)\n#\n", lines[(size_t)random() % m]);
	} else {
		fputs("#\n# (Cannot load tips.txt file, please install perf!)\n#\n", f);
	}
	for (size_t i = 0; i < m; i++)
		free(lines[i]);
	free(lines);
}

static int udigits(uint64_t v)
{
	return snprintf(NULL, 0, "%llu", (unsigned long long)v);
}

static int idigits(int32_t v)
{
	return snprintf(NULL, 0, "%d", v);
}

void print_report_threads(FILE *f, const struct report_threads *t, bool raw)
{
	int pw = 3, tw = 3;
	for (size_t i = 0; i < t->n; i++) {
		pw = idigits(t->row[i].pid) > pw ? idigits(t->row[i].pid) : pw;
		tw = idigits(t->row[i].tid) > tw ? idigits(t->row[i].tid) : tw;
	}
	if (raw) {
		int nw = 4, rw = 3, cw = 5;
		for (size_t j = 0; j < t->ncounters; j++) {
			int w = (int)strlen(t->ctr[j].name);
			nw = w > nw ? w : nw;
			w = snprintf(NULL, 0, "%x", t->ctr[j].rawid);
			rw = w > rw ? w : rw;
		}
		for (size_t i = 0; i < t->n; i++)
			for (size_t j = 0; j < t->ncounters; j++)
				cw = udigits(t->row[i].value[j]) > cw ? udigits(t->row[i].value[j]) : cw;
		fprintf(f, "# %*s  %*s  %*s  %*s  %*s\n", pw, "PID", tw, "TID", nw, "Name", rw, "Raw", cw, "Count");
		for (size_t i = 0; i < t->n; i++)
			for (size_t j = 0; j < t->ncounters; j++)
				fprintf(f, "  %*d  %*d  %*s  %*x  %*llu", pw, t->row[i].pid, tw, t->row[i].tid, nw,
					t->ctr[j].name, rw, t->ctr[j].rawid, cw, (unsigned long long)t->row[i].value[j]);
		return;
	}
	/* each counter's column: its name or its widest value */
	int *cw = calloc(t->ncounters ? t->ncounters : 1, sizeof(*cw));
	if (!cw)
		return;
	for (size_t j = 0; j < t->ncounters; j++) {
		cw[j] = (int)strlen(t->ctr[j].name);
		for (size_t i = 0; i < t->n; i++)
			cw[j] = udigits(t->row[i].value[j]) > cw[j] ? udigits(t->row[i].value[j]) : cw[j];
	}
	fprintf(f, "# %*s  %*s", pw, "PID", tw, "TID");
	for (size_t j = 0; j < t->ncounters; j++)
		fprintf(f, "  %*s", cw[j], t->ctr[j].name);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		fprintf(f, "  %*d  %*d", pw, t->row[i].pid, tw, t->row[i].tid);
		for (size_t j = 0; j < t->ncounters; j++)
			fprintf(f, "  %*llu", cw[j], (unsigned long long)t->row[i].value[j]);
		fputc('\n', f);
	}
	free(cw);
}
