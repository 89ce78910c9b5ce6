/* hwprof report's reading pass: every sample of the session resolved like
 * perf report resolves it (thread comm at the sample, the map for its
 * cpumode, the symbol) and summed into one histogram per event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/report_run.h"
#include "util/bytes.h"
#include "util/grow.h"
#include "cli/report_pt.h"
#include "cli/report_spe.h"
#include "cli/kmap.h"
#include "cli/lbr_chain.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/session.h"
#include "hwprof/unwind.h"
#include "cli/kptr_warn.h"

#define PROGRESS_EVERY 4096

static int add_dso(struct report_run *r, const char *name);
static int32_t socket_of(struct report_run *r, int32_t cpu);
static void cgroup_ns_of(struct report_run *r, int32_t tid, uint64_t *dev, uint64_t *ino);

/* One histogram per event index below n (pipe streams announce their
 * events as they go). */
/* perf's get_trace_output(): the print-fmt text of the entry's raw data
 * (cpu 0: perf's record has no cpu there) */
static const char *trace_text(void *ctx, const struct hwprof_hist_entry *e)
{
	struct report_run *r = ctx;
	const char *text;
	if (!r->trace || !e->raw || hwprof_trace_print(r->trace, e->tp_id, 0, e->raw, e->raw_size, &text) < 0)
		return NULL;
	trace_print_warnings(r->trace, &r->trace_warned, &r->trace_first_warned);
	return text;
}

static int grow(struct report_run *r, uint32_t n)
{
	if (n <= r->nr_hists)
		return 0;
	struct hwprof_hist **v = realloc(r->hists, n * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	r->hists = v;
	const char **nm = realloc(r->names, n * sizeof(*nm));
	if (!nm)
		return -HWPROF_E_NOMEM;
	r->names = nm;
	for (uint32_t i = r->nr_hists; i < n; i++)
		nm[i] = NULL;
	for (; r->nr_hists < n; r->nr_hists++) {
		int rc = hwprof_hist_new(&r->hists[r->nr_hists], r->sort, r->nr_sort);
		if (rc < 0)
			return rc;
		if (!r->srclines && !(r->srclines = report_srclines_new(r->syms)))
			return -HWPROF_E_NOMEM;
		hwprof_hist_set_srcline(r->hists[r->nr_hists], report_srcline, r->srclines);
		hwprof_hist_set_cacheline(r->hists[r->nr_hists], report_cacheline_size());
		hwprof_hist_set_dso_names(r->hists[r->nr_hists], r->syms);
		hwprof_hist_set_srcfile(r->hists[r->nr_hists], report_srcfile, r->srclines);
		hwprof_hist_set_trace(r->hists[r->nr_hists], trace_text, r);
		if (r->callchain)
			hwprof_hist_set_callchain(r->hists[r->nr_hists], r->chain_flags);
		for (unsigned k = 0; k < HWPROF_HK_NR; k++)
			if (r->elided[k])
				hwprof_hist_elide(r->hists[r->nr_hists], (enum hwprof_hist_key)k);
	}
	return 0;
}

/* perf makes a DSO object for each BUILD_ID header entry, in order, when
 * it opens the file: those come first. The kernel's is the one perf names
 * it by (hwprof_symbols_perf_name), if any. */
static int dsos_from_build_ids(struct report_run *r)
{
	const char *kernel = "[kernel.kallsyms]", *kpath = hwprof_symbols_perf_name(r->syms, kernel, false, NULL, 0);
	const uint8_t *p;
	uint64_t size;
	if (hwprof_perfdata_feature(hwprof_session_data(r->s), HWPROF_FEAT_BUILD_ID, &p, &size, NULL) != 1)
		return 0;
	for (uint64_t off = 0; off + 8 <= size;) {
		uint16_t rs;
		memcpy(&rs, p + off + 6, 2);
		if (rs < 8 + 4 + 24 || rs > size - off)
			break;
		const char *name = (const char *)p + off + 36;
		size_t max = rs - 36;
		if (strnlen(name, max) < max && name[0] && add_dso(r, kpath != kernel && !strcmp(name, kpath) ? kernel : name) < 0)
			return -HWPROF_E_NOMEM;
		off += rs;
	}
	return 0;
}

int report_run_init(struct report_run *r, struct hwprof_session *s, struct hwprof_symbols *syms,
		    const enum hwprof_hist_key *sort, size_t nr_sort)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->syms = syms;
	if (nr_sort > sizeof(r->sort) / sizeof(r->sort[0]))
		return -HWPROF_E_INVAL;
	r->max_stack = -1;
	memcpy(r->sort, sort, nr_sort * sizeof(*sort));
	r->nr_sort = nr_sort;
	for (size_t i = 0; i < nr_sort; i++)
		r->map_sizes |= sort[i] == HWPROF_HK_DSO_SIZE;
	if (dsos_from_build_ids(r) < 0 || add_dso(r, "[kernel.kallsyms]") < 0)
		return -HWPROF_E_NOMEM;
	return grow(r, hwprof_perfdata_nr_evsels(hwprof_session_data(s)));
}

int report_run_find_parents(struct report_run *r)
{
	/* perf's default_parent_pattern */
	if (regcomp(&r->parent_re, "^sys_|^do_page_fault", REG_EXTENDED) != 0)
		return -HWPROF_E_NOMEM;
	r->parent_key = true;
	return 0;
}

/* perf's cacheline_size(): this machine's L1 data cache line, 0 when
 * unknown */
uint64_t report_cacheline_size(void)
{
	long n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	return n > 0 ? (uint64_t)n : 0;
}

void report_run_set_callchain(struct report_run *r, bool children, bool graph, bool caller_order, unsigned key)
{
	r->callchain = true;
	r->caller_order = caller_order;
	r->chain_flags = (children ? HWPROF_HIST_CHILDREN : 0) | (graph ? HWPROF_HIST_GRAPH : 0) |
			 (caller_order ? HWPROF_HIST_CALLER : 0) | key;
	for (uint32_t i = 0; i < r->nr_hists; i++)
		hwprof_hist_set_callchain(r->hists[i], r->chain_flags);
}

void report_run_elide(struct report_run *r, enum hwprof_hist_key k)
{
	if ((unsigned)k < HWPROF_HK_NR)
		r->elided[k] = true;
	for (uint32_t i = 0; i < r->nr_hists; i++)
		hwprof_hist_elide(r->hists[i], k);
}

static int rpt_grow_frames(struct report_run *r, uint64_t n)
{
	if (n <= r->cap_frames)
		return 0;
	if (n > (1u << 24))
		return -HWPROF_E_NOMEM;
	struct hwprof_hist_frame *v = realloc(r->frames, n * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	r->frames = v;
	r->cap_frames = n;
	return 0;
}

/* Rank of a DSO among perf's DSO objects: creation order, the kernel's
 * first (perf makes it before reading), names not seen in MMAP records
 * after those. Linear in the number of DSOs, which stays small; the last
 * answer is cached as chains repeat DSOs. */
static uint32_t dso_rank(struct report_run *r, const char *name)
{
	if (!name)
		return 0;
	if (r->last_dso_name == name)
		return r->last_dso_rank;
	size_t i;
	for (i = 0; i < r->nr_dsos; i++)
		if (!strcmp(r->dso_names[i], name))
			break;
	if (i == r->nr_dsos && add_dso(r, name) < 0)
		return UINT32_MAX;
	r->last_dso_name = name;
	r->last_dso_rank = (uint32_t)i + 1;
	return r->last_dso_rank;
}

static int add_dso(struct report_run *r, const char *name)
{
	for (size_t i = 0; i < r->nr_dsos; i++)
		if (!strcmp(r->dso_names[i], name))
			return 0;
	if (r->nr_dsos == r->cap_dsos) {
		size_t nc = r->cap_dsos ? r->cap_dsos * 2 : 64;
		const char **v = realloc(r->dso_names, nc * sizeof(*v));
		if (!v)
			return -HWPROF_E_NOMEM;
		r->dso_names = v;
		r->cap_dsos = nc;
	}
	char *c = strdup(name);
	if (!c)
		return -HWPROF_E_NOMEM;
	r->dso_names[r->nr_dsos++] = c;
	return 0;
}

/* MMAP/MMAP2: the file name creates perf's DSO object */
static int note_mmap(struct report_run *r, const struct hwprof_record *rec)
{
	size_t off = rec->type == HWPROF_RECORD_MMAP ? 40 : 72;
	if (rec->size <= off)
		return 0;
	const char *name = (const char *)rec->data + off;
	size_t max = rec->size - off;
	if (strnlen(name, max) == max)
		return 0;
	unsigned cpumode = rec->misc & HWPROF_MISC_CPUMODE_MASK;
	if (cpumode == HWPROF_MISC_KERNEL && !strncmp(name, "[kernel.kallsyms]", 17))
		name = "[kernel.kallsyms]";
	r->kernel_map |= kptr_is_kernel_map(rec);
	return add_dso(r, name);
}

int report_run_add_event(struct report_run *r, const char *name)
{
	uint32_t base = hwprof_perfdata_nr_evsels(hwprof_session_data(r->s));
	uint32_t idx = r->nr_hists > base ? r->nr_hists : base;
	if (grow(r, idx + 1) < 0)
		return -HWPROF_E_NOMEM;
	r->names[idx] = name;
	return (int)idx;
}

int report_run_enable_spe(struct report_run *r, const struct hwprof_itrace_opts *itrace)
{
	int rc = report_spe_new(&r->spe, r, itrace);
	return rc < 0 ? rc : report_pt_new(&r->pt, r, itrace);
}

void report_run_use_trace(struct report_run *r, struct hwprof_trace *t, const char *input, int warned,
			  bool first_warned)
{
	r->input = input;
	r->trace = t;
	r->trace_warned = warned;
	r->trace_first_warned = first_warned;
	/* perf sets its kernel symbol resolver at session open: file mode */
	r->ksyms.s = r->s;
	r->ksyms.syms = r->syms;
	if (t)
		hwprof_trace_set_resolver(t, trace_ksym, &r->ksyms);
}

void report_run_fini(struct report_run *r)
{
	hwprof_trace_free(r->trace);
	r->trace = NULL;
	report_spe_free(r->spe);
	r->spe = NULL;
	report_pt_free(r->pt);
	r->pt = NULL;
	free(r->names);
	for (size_t i = 0; i < r->nr_dsos; i++)
		free((char *)r->dso_names[i]);
	free(r->dso_names);
	for (size_t i = 0; i < r->threads.n; i++)
		free(r->threads.row[i].value);
	for (size_t i = 0; i < r->threads.ncounters; i++)
		free(r->threads.ctr[i].name);
	free(r->threads.row);
	free(r->threads.ctr);
	free(r->frames);
	free(r->ips);
	hwprof_unwinder_free(r->uw);
	inline_syms_free(r->isyms);
	report_srclines_free(r->srclines);
	if (r->parent_key)
		regfree(&r->parent_re);
	r->parent_key = false;
	free(r->sockets);
	for (size_t i = 0; i < r->nr_cgroups; i++)
		free(r->cgroups[i].path);
	free(r->cgroups);
	free(r->ns);
	for (uint32_t i = 0; r->hists && i < r->nr_hists; i++)
		hwprof_hist_free(r->hists[i]);
	free(r->hists);
	r->hists = NULL;
}

#define MAX_STACK 127   /* perf report's default --max-stack */
#define MAX_STACK_LIMIT 1024 /* unwound addresses kept at most */

/* The map start for perf's unmap_ip (start - pgoff + addr): anonymous
 * and DSO-less maps (JIT code, [heap]) are the identity there. */
static uint64_t map_base(const struct hwprof_map_info *mi)
{
	return mi->identity ? mi->pgoff : mi->start;
}

static int find_map(struct report_run *r, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
		    struct hwprof_map_info *mi, char *level)
{
	return kmap_find_map(&r->kmap, r->s, r->syms, pid, tid, cpumode, ip, mi, level);
}

/* A callchain frame for ip in the map of cpumode, resolved. Returns
 * whether it stays in the chain (perf's -U leaves out frames without a
 * symbol). */
static bool resolve_frame(struct report_run *r, struct hwprof_hist_frame *fr, int32_t pid, int32_t tid,
			  unsigned cpumode, uint64_t ip, struct hwprof_symres *res)
{
	memset(fr, 0, sizeof(*fr));
	memset(res, 0, sizeof(*res));
	fr->ip = ip;
	fr->level = '.';
	struct hwprof_map_info mi;
	if (find_map(r, pid, tid, cpumode, ip, &mi, &fr->level) == 1) {
		hwprof_symbols_resolve(r->syms, mi.dso, mi.start, mi.pgoff, ip, res);
		fr->dso = mi.dso;
		fr->map_start = map_base(&mi);
		fr->map_pgoff = mi.pgoff;
		if (r->map_sizes)
			fr->map_size = kmap_size(&r->kmap, r->s, r->syms, &mi);
		fr->dso_rank = dso_rank(r, mi.dso);
		fr->kernel_map = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
		fr->sym = res->sym;
	}
	return res->sym || !r->hide_unresolved;
}

static bool chain_srclines(const struct report_run *r)
{
	return r->chain_flags & (HWPROF_HIST_KEY_SRCLINE | HWPROF_HIST_KEY_ADDRESS);
}

/* The srcline of a resolved frame for -g srcline/address (perf asks
 * only for frames with a map and no inlined expansion). */
static void frame_srcline(struct report_run *r, struct hwprof_hist_frame *fr, const struct hwprof_symres *res)
{
	if (chain_srclines(r) && fr->dso)
		fr->srcline = report_chain_srcline(r->srclines, fr->dso, fr->kernel_map, res->sym, res->addr,
						   r->chain_flags & HWPROF_HIST_KEY_ADDRESS);
}

static void reverse_frames(struct hwprof_hist_frame *f, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		struct hwprof_hist_frame t = f[i];
		f[i] = f[n - 1 - i];
		f[n - 1 - i] = t;
	}
}

#define MAX_INLINE 64

/* --call-graph dwarf: perf unwinds the user stack (at most max_stack
 * addresses) and puts each unwound frame's inlined functions in its place
 * (innermost first), after the sample's own chain. Appends them at
 * r->frames + n in callee order; returns the new count or < 0. */
static int unwound_frames(struct report_run *r, const struct hwprof_sample *sm, size_t n, size_t max)
{
	if (!r->uw && !r->uw_failed) {
		enum hwprof_arch arch = hwprof_perfdata_arch(hwprof_session_data(r->s));
		if (hwprof_unwinder_new(&r->uw, r->s, r->syms, arch) < 0)
			return -HWPROF_E_NOMEM;
		r->uw_failed = !r->uw;
	}
	if (!r->uw)
		return (int)n;
	if (!r->ips && !(r->ips = malloc(MAX_STACK_LIMIT * sizeof(*r->ips))))
		return -HWPROF_E_NOMEM;
	if (max > MAX_STACK_LIMIT)
		max = MAX_STACK_LIMIT;
	int nu = hwprof_unwind_sample(r->uw, sm, r->ips, max);
	if (nu < 0)
		return nu;
	int32_t pid = (int32_t)sm->pid, tid = (int32_t)sm->tid;
	for (int i = 0; i < nu; i++) {
		uint64_t ip = r->ips[i];
		if (!ip)
			continue; /* perf skips zero addresses */
		if (rpt_grow_frames(r, n + MAX_INLINE) < 0)
			return -HWPROF_E_NOMEM;
		struct hwprof_symres res;
		struct hwprof_hist_frame *fr = &r->frames[n];
		if (!resolve_frame(r, fr, pid, tid, HWPROF_MISC_USER, ip, &res))
			continue;
		struct hwprof_inline_entry ent[MAX_INLINE];
		/* perf's addr2line needs a file: not [vdso] and the like */
		int ne = res.sym && res.dso && !r->no_inline && hwprof_dso_is_file(res.dso)
				 ? hwprof_dso_inline_entries(res.dso, res.addr, res.sym, ent, MAX_INLINE) : 0;
		if (ne <= 0) {
			frame_srcline(r, fr, &res);
			n++;
			continue;
		}
		struct hwprof_hist_frame base = *fr;
		for (int k = 0; k < ne; k++) {
			r->frames[n] = base;
			/* perf's inline list keeps each entry's own position */
			r->frames[n].srcline = report_fileline(r->srclines, ent[k].file, ent[k].line);
			if (ent[k].inlined) {
				const struct hwprof_sym *is = inline_syms_get(&r->isyms, res.sym, ent[k].name);
				if (!is)
					return -HWPROF_E_NOMEM;
				r->frames[n].sym = is;
			}
			n++;
		}
	}
	return (int)n;
}

/* perf's thread__resolve_callchain(): the sample's chain, where context
 * markers set the cpumode of the entries after them (an unknown one
 * discards the chain), at most --max-stack entries counted from the end
 * shown first; then, for DWARF stacks, the unwound user frames (before it
 * when callers come first). Fills r->frames in cursor order; returns the
 * count. */
static int resolve_chain(struct report_run *r, const struct hwprof_sample *sm)
{
	uint64_t nr = sm->callchain_nr;
	r->parent = NULL;
	if (rpt_grow_frames(r, nr + (sm->branches ? sm->branch_nr + 1 : 0)) < 0)
		return -HWPROF_E_NOMEM;
	unsigned cpumode = HWPROF_MISC_USER;
	size_t n = 0;
	int32_t pid = (int32_t)sm->pid, tid = (int32_t)sm->tid;
	size_t max = r->max_stack >= 0 ? (size_t)r->max_stack : MAX_STACK;
	bool lbr = lbr_chain_applies(sm, max);
	if (lbr) {
		struct lbr_frame *lf = malloc((nr + sm->branch_nr + 1) * sizeof(*lf));
		long m = lf ? lbr_chain_frames(sm, max, r->caller_order, lf, nr + sm->branch_nr + 1) : -1;
		for (long i = 0; i < m; i++) {
			struct hwprof_symres res;
			if (!resolve_frame(r, &r->frames[n], pid, tid, lf[i].cpumode, lf[i].ip, &res))
				continue;
			frame_srcline(r, &r->frames[n++], &res);
		}
		free(lf);
		if (m < 0)
			return -HWPROF_E_NOMEM;
		nr = 0; /* the LBR call stack stands for the chain, whole */
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = hwprof_u64_at(sm->callchain, i);
		if (ip >= HWPROF_CONTEXT_MAX) {
			switch (ip) {
			case HWPROF_CONTEXT_HV: cpumode = HWPROF_MISC_HYPERVISOR; break;
			case HWPROF_CONTEXT_KERNEL: cpumode = HWPROF_MISC_KERNEL; break;
			case HWPROF_CONTEXT_USER: cpumode = HWPROF_MISC_USER; break;
			default: return 0;
			}
			continue;
		}
		struct hwprof_symres res;
		if (!resolve_frame(r, &r->frames[n], pid, tid, cpumode, ip, &res))
			continue;
		frame_srcline(r, &r->frames[n++], &res);
	}
	if (r->caller_order && !lbr)
		reverse_frames(r->frames, n);
	if (n > max && !lbr)
		n = max;
	/* perf's add_callchain_ip(): the parent is the first symbol of the
	 * sample's chain, in the order shown, that matches (unwound frames
	 * are not tried) */
	r->parent = NULL;
	for (size_t i = 0; i < n && r->parent_key && !r->parent; i++)
		if (r->frames[i].sym && regexec(&r->parent_re, r->frames[i].sym->name, 0, NULL, 0) == 0)
			r->parent = r->frames[i].sym->name;
	if (!r->callchain)
		return 0; /* resolved for the parent key alone */
	const uint64_t dwarf = HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
	if (lbr || !sm->evsel || (sm->evsel->attr.sample_type & dwarf) != dwarf)
		return (int)n;
	int m = unwound_frames(r, sm, n, max);
	if (m < 0)
		return m;
	if (r->caller_order && (size_t)m > n) {
		/* the unwound frames, root first, go before the sample's chain */
		size_t nu = (size_t)m - n;
		if (rpt_grow_frames(r, (size_t)m + n) < 0)
			return -HWPROF_E_NOMEM;
		struct hwprof_hist_frame *f = r->frames;
		memcpy(f + m, f, n * sizeof(*f));
		reverse_frames(f + n, nu);
		memmove(f, f + n, nu * sizeof(*f));
		memcpy(f + nu, f + m, n * sizeof(*f));
	}
	return m;
}

/* The entry fields of an address: comm, map, symbol. */
static void resolve_ip(struct report_run *r, struct hwprof_hist_sample *hs, int32_t pid, int32_t tid,
		       unsigned cpumode, uint64_t ip)
{
	struct hwprof_thread_info th = { .comm = NULL };
	hwprof_session_thread(r->s, pid, tid, &th); /* out of memory: no comm, as before */
	hs->comm = r->synth_comm ? r->synth_comm : th.comm;
	hs->pid = pid;
	hs->tid = tid;
	hs->thread = th.serial;
	hs->ip = ip;
	hs->level = '.';
	struct hwprof_map_info mi;
	if (find_map(r, pid, tid, cpumode, ip, &mi, &hs->level) == 1) {
		struct hwprof_symres res = { 0 };
		hwprof_symbols_resolve(r->syms, mi.dso, mi.start, mi.pgoff, ip, &res);
		hs->dso = mi.dso;
		hs->map_start = map_base(&mi);
		hs->map_pgoff = mi.pgoff;
		if (r->map_sizes)
			hs->map_size = kmap_size(&r->kmap, r->s, r->syms, &mi);
		hs->kernel_map = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
		hs->sym = res.sym;
		hs->ip = res.addr;
	}
}

/* --mem-mode: perf's sample__resolve_mem(): the data address resolved in
 * the sample's cpumode, the data source, and the weight as the period
 * (1 for none). */
static void resolve_mem(struct report_run *r, struct hwprof_hist_sample *hs, int32_t pid, int32_t tid,
			unsigned cpumode, const struct report_mem *m)
{
	hs->data_src = m->data_src;
	hs->weight = m->weight;
	hs->ins_lat = m->ins_lat;
	hs->daddr = m->addr;
	hs->period = m->weight ? m->weight : 1;
	struct hwprof_map_info mi;
	char level;
	if (find_map(r, pid, tid, cpumode, m->addr, &mi, &level) == 1) {
		struct hwprof_symres res = { 0 };
		hwprof_symbols_resolve(r->syms, mi.dso, mi.start, mi.pgoff, m->addr, &res);
		hs->daddr_dso = mi.dso;
		hs->daddr_kernel_map = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
		hs->daddr_sym = res.sym;
		hs->daddr_map_start = mi.start;
		hs->daddr_map_pgoff = mi.pgoff;
		hs->daddr_map = (struct hwprof_hist_dmap){ mi.prot, mi.flags, mi.maj, mi.min, mi.ino, mi.ino_generation,
							    mi.identity };
	}
}

/* A sample's common start: 1 with hs resolved at ip (its cpu set), 0
 * when --cpu drops it, or an error for a bad event index. */
static int begin_sample(struct report_run *r, struct hwprof_hist_sample *hs, uint32_t idx, int32_t pid, int32_t tid,
			int32_t cpu, unsigned cpumode, uint64_t ip)
{
	if (idx >= r->nr_hists)
		return -HWPROF_E_INVAL;
	if (r->filter && report_filter_drops_cpu(r->filter, cpu))
		return 0;
	memset(hs, 0, sizeof(*hs));
	resolve_ip(r, hs, pid, tid, cpumode, ip);
	if (r->hide_unresolved && !hs->sym)
		return 0; /* perf's -U: the sample is not counted */
	hs->cpu = cpu;
	hs->socket = socket_of(r, cpu);
	hs->cpumode = (uint8_t)cpumode;
	cgroup_ns_of(r, tid, &hs->cgroup_dev, &hs->cgroup_ino);
	return 1;
}

int report_run_add(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu, unsigned cpumode,
		   uint64_t ip, uint64_t period, const struct report_mem *m)
{
	struct hwprof_hist_sample hs;
	int b = begin_sample(r, &hs, idx, pid, tid, cpu, cpumode, ip);
	if (b <= 0)
		return b;
	hs.period = period;
	if (m) { /* perf keeps the weights in every entry */
		hs.weight = m->weight;
		hs.ins_lat = m->ins_lat;
	}
	if (r->mem_mode)
		resolve_mem(r, &hs, pid, tid, cpumode, m);
	hs.filtered = r->filter && report_filter_hides(r->filter, r->syms, &hs, ip);
	return hwprof_hist_add(r->hists[idx], &hs);
}

int report_run_add_chain(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu,
			 unsigned cpumode, uint64_t ip, uint64_t period, const uint64_t *chain, size_t nchain)
{
	struct hwprof_hist_sample hs;
	int b = begin_sample(r, &hs, idx, pid, tid, cpu, cpumode, ip);
	if (b <= 0)
		return b;
	hs.period = period;
	hs.filtered = r->filter && report_filter_hides(r->filter, r->syms, &hs, ip);
	if (!r->callchain)
		return hwprof_hist_add(r->hists[idx], &hs);
	if (!chain) {
		/* no chain of its own: perf's cursor still holds the last */
		hs.stale_chain = true;
		return hwprof_hist_add_chain(r->hists[idx], &hs, r->frames, r->cursor_n);
	}
	if (rpt_grow_frames(r, nchain) < 0)
		return -HWPROF_E_NOMEM;
	size_t n = 0;
	for (size_t i = 0; i < nchain; i++) {
		struct hwprof_symres res;
		unsigned mode = chain[i] >= (1ULL << 63) ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
		if (!resolve_frame(r, &r->frames[n], pid, tid, mode, chain[i], &res))
			continue;
		frame_srcline(r, &r->frames[n++], &res);
	}
	size_t max = r->max_stack >= 0 ? (size_t)r->max_stack : MAX_STACK;
	if (r->caller_order)
		reverse_frames(r->frames, n);
	if (n > max)
		n = max;
	r->cursor_n = n;
	return hwprof_hist_add_chain(r->hists[idx], &hs, r->frames, n);
}

/* perf's ip__resolve_ams(): a branch address has no cpumode of its own,
 * so the user maps are tried, then the kernel's; none holds it: level H. */
static void resolve_branch_end(struct report_run *r, struct hwprof_hist_branch_end *b, int32_t pid, int32_t tid,
			       uint64_t addr)
{
	static const unsigned modes[] = { HWPROF_MISC_USER, HWPROF_MISC_KERNEL };
	memset(b, 0, sizeof(*b));
	b->addr = b->al_addr = addr;
	b->level = 'H';
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct hwprof_map_info mi;
		char level;
		if (find_map(r, pid, tid, modes[i], addr, &mi, &level) != 1)
			continue;
		struct hwprof_symres res = { 0 };
		hwprof_symbols_resolve(r->syms, mi.dso, mi.start, mi.pgoff, addr, &res);
		b->dso = mi.dso;
		b->kernel_map = modes[i] == HWPROF_MISC_KERNEL;
		b->sym = res.sym;
		b->al_addr = res.addr;
		b->map_start = map_base(&mi);
		b->map_pgoff = mi.pgoff;
		if (r->map_sizes)
			b->map_size = kmap_size(&r->kmap, r->s, r->syms, &mi);
		b->level = level;
		return;
	}
}

/* perf's branch_type_count(): a branch of known type from a known place
 * counts by type (PERF_BR_EXTEND_ABI by its new type), conditional ones
 * by direction, and each by the 2M or 4K boundary it crosses */
static void count_brtype(struct report_brtype *st, const struct hwprof_hist_branch *b)
{
	unsigned type = b->type, new_type = b->new_type;
	uint64_t from = b->from.addr, to = b->to.addr;
	if (!type || !from)
		return;
	if (type == 15)
		st->new_counts[new_type]++;
	else
		st->counts[type]++;
	if (type == 1)
		to > from ? st->cond_fwd++ : st->cond_bwd++;
	if ((from ^ to) & ~(uint64_t)(2 * 1024 * 1024 - 1))
		st->cross_2m++;
	else if ((from ^ to) & ~(uint64_t)4095)
		st->cross_4k++;
}

/* perf report's branch view: each branch of the stack is an entry of its
 * own, keyed by its target as the sample's address, with period 1 and
 * the branch's cycles (or 1) as weight. Entry i is from/to/flags at
 * v[3i..3i+2] (stride 3, a sample's PERF_SAMPLE_BRANCH_STACK words) or
 * from/to at v[2i..2i+1] with no flags (stride 2). */
static int add_branch_entries(struct report_run *r, struct hwprof_hist_sample *hs, uint32_t idx, int32_t pid,
			      int32_t tid, const uint8_t *v, uint64_t n, unsigned stride)
{
	for (uint64_t i = 0; i < n; i++) {
		struct hwprof_hist_branch b;
		uint64_t fl = stride == 3 ? hwprof_u64_at(v, 3 * i + 2) : 0;
		resolve_branch_end(r, &b.from, pid, tid, hwprof_u64_at(v, stride * i));
		resolve_branch_end(r, &b.to, pid, tid, hwprof_u64_at(v, stride * i + 1));
		if (r->hide_unresolved && !(b.from.sym && b.to.sym))
			continue; /* perf's -U: both ends resolved, or no entry */
		b.mispred = fl & 1;
		b.predicted = fl >> 1 & 1;
		b.in_tx = fl >> 2 & 1;
		b.abort = fl >> 3 & 1;
		b.cycles = (uint16_t)(fl >> 4);
		b.type = (uint8_t)(fl >> 20 & 0xf);
		b.new_type = (uint8_t)(fl >> 26 & 0xf);
		hs->dso = b.to.dso;
		hs->kernel_map = b.to.kernel_map;
		hs->sym = b.to.sym;
		hs->ip = b.to.addr;
		hs->map_start = b.to.map_start;
		hs->map_pgoff = b.to.map_pgoff;
		hs->map_size = b.to.map_size;
		hs->period = 1;
		hs->weight = b.cycles ? b.cycles : 1;
		hs->branch = &b;
		int rc = hwprof_hist_add(r->hists[idx], hs);
		if (rc < 0)
			return rc;
		/* perf counts the entry's branch: its first sample's */
		const struct hwprof_hist_entry *e = hwprof_hist_last_entry(r->hists[idx]);
		if (e && e->has_branch)
			count_brtype(&r->brtype, &e->br);
	}
	return 0;
}

/* Samples without a stack count nothing in the branch view. */
static int add_branches(struct report_run *r, struct hwprof_hist_sample *hs, const struct hwprof_sample *sm,
			uint32_t idx)
{
	if (!(sm->sample_type & HWPROF_SAMPLE_BRANCH_STACK))
		return 0;
	return add_branch_entries(r, hs, idx, (int32_t)sm->pid, (int32_t)sm->tid, sm->branches, sm->branch_nr, 3);
}

int report_run_add_branches(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu,
			    unsigned cpumode, uint64_t ip, const uint64_t *pairs, size_t n)
{
	struct hwprof_hist_sample hs;
	int b = begin_sample(r, &hs, idx, pid, tid, cpu, cpumode, ip);
	if (b <= 0)
		return b;
	hs.filtered = r->filter && report_filter_hides(r->filter, r->syms, &hs, ip);
	return add_branch_entries(r, &hs, idx, pid, tid, (const uint8_t *)pairs, n, 2);
}

/* perf's env->cpu: the CPU_TOPOLOGY feature's per-cpu socket ids, when
 * the section has them and (except on s390 and aarch64) none is larger
 * than the number of cpus */
static void load_topology(struct report_run *r)
{
	r->topo_loaded = true;
	struct hwprof_perfdata *h = hwprof_session_data(r->s);
	const uint8_t *p;
	uint64_t size;
	struct hwprof_feat *f;
	if (hwprof_perfdata_feat(h, HWPROF_FEAT_CPU_TOPOLOGY, &f) != 1)
		return;
	const struct hwprof_feat_cpu_topology *t = &f->u.cpu_topology;
	bool check = true;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_ARCH, &p, &size, NULL) == 1 && size > 4) {
		/* a string section: a u32 length, then the text */
		const char *arch = (const char *)p + 4;
		size_t max = size - 4;
		check = !(strnlen(arch, max) >= 4 && !strncmp(arch, "s390", 4)) &&
			!(strnlen(arch, max) >= 7 && !strncmp(arch, "aarch64", 7));
	}
	bool ok = t->has_cpus && t->nr_cpus;
	for (uint32_t i = 0; ok && check && i < t->nr_cpus; i++)
		ok = t->cpus[i].socket_id == UINT32_MAX || t->cpus[i].socket_id <= t->nr_cpus; /* nr_cpus: NRCPUS */
	if (ok && (r->sockets = malloc(t->nr_cpus * sizeof(*r->sockets)))) {
		for (uint32_t i = 0; i < t->nr_cpus; i++)
			r->sockets[i] = (int32_t)t->cpus[i].socket_id;
		r->nr_sockets = t->nr_cpus;
	}
	hwprof_feat_free(f);
}

/* perf's al->socket: -1 without a cpu or a topology */
static int32_t socket_of(struct report_run *r, int32_t cpu)
{
	if (!r->topo_loaded)
		load_topology(r);
	return cpu >= 0 && (uint32_t)cpu < r->nr_sockets ? r->sockets[cpu] : -1;
}

/* The thread's cgroup namespace (perf's thread__namespaces()), 0/0 for
 * none. The last thread asked is remembered: samples come in runs. */
static void cgroup_ns_of(struct report_run *r, int32_t tid, uint64_t *dev, uint64_t *ino)
{
	*dev = *ino = 0;
	size_t i = r->last_ns < r->nr_ns && r->ns[r->last_ns].tid == tid ? r->last_ns : 0;
	for (; i < r->nr_ns && r->ns[i].tid != tid; i++)
		;
	if (i == r->nr_ns)
		return;
	r->last_ns = i;
	*dev = r->ns[i].dev;
	*ino = r->ns[i].ino;
}

/* NAMESPACES: pid, tid, nr, then {dev, ino} per namespace; the cgroup
 * namespace is the 7th (perf's CGROUP_NS_INDEX) */
static int note_namespaces(struct report_run *r, const struct hwprof_record *rec)
{
	if (rec->size < 24)
		return 0;
	int32_t tid;
	memcpy(&tid, rec->data + 12, 4);
	uint64_t nr = hwprof_u64_at(rec->data + 16, 0), dev = 0, ino = 0;
	if (nr > 6 && rec->size >= 24 + 16 * 7) {
		dev = hwprof_u64_at(rec->data + 24, 12);
		ino = hwprof_u64_at(rec->data + 24, 13);
	}
	size_t i;
	for (i = 0; i < r->nr_ns && r->ns[i].tid != tid; i++)
		;
	if (i == r->nr_ns) {
		if (r->nr_ns == r->cap_ns) {
			size_t nc = r->cap_ns ? r->cap_ns * 2 : 64;
			struct report_ns *v = realloc(r->ns, nc * sizeof(*v));
			if (!v)
				return -HWPROF_E_NOMEM;
			r->ns = v;
			r->cap_ns = nc;
		}
		r->nr_ns++;
	}
	r->ns[i] = (struct report_ns){ tid, dev, ino };
	return 0;
}

/* CGROUP: id, then the path; perf keeps the first path of an id */
static int note_cgroup(struct report_run *r, const struct hwprof_record *rec)
{
	if (rec->size <= 16)
		return 0;
	uint64_t id = hwprof_u64_at(rec->data + 8, 0);
	const char *path = (const char *)rec->data + 16;
	size_t max = rec->size - 16u;
	if (report_run_cgroup_name(r, id))
		return 0;
	if (r->nr_cgroups == r->cap_cgroups) {
		size_t nc = r->cap_cgroups ? r->cap_cgroups * 2 : 16;
		struct report_cgroup *v = realloc(r->cgroups, nc * sizeof(*v));
		if (!v)
			return -HWPROF_E_NOMEM;
		r->cgroups = v;
		r->cap_cgroups = nc;
	}
	char *c = strndup(path, max);
	if (!c)
		return -HWPROF_E_NOMEM;
	r->cgroups[r->nr_cgroups++] = (struct report_cgroup){ id, c };
	return 0;
}

const char *report_run_cgroup_name(void *ctx, uint64_t id)
{
	const struct report_run *r = ctx;
	for (size_t i = 0; i < r->nr_cgroups; i++)
		if (r->cgroups[i].id == id)
			return r->cgroups[i].path;
	return NULL;
}

/* The fields every sample's entries keep whatever their keys: socket,
 * cgroup namespace, cpumode; the sampled transaction, cgroup and page
 * sizes. */
static void sample_fields(struct report_run *r, struct hwprof_hist_sample *hs, const struct hwprof_sample *sm)
{
	hs->socket = socket_of(r, hs->cpu);
	cgroup_ns_of(r, (int32_t)sm->tid, &hs->cgroup_dev, &hs->cgroup_ino);
	hs->cpumode = (uint8_t)(sm->misc & HWPROF_MISC_CPUMODE_MASK);
	uint64_t st = sm->sample_type;
	hs->transaction = st & HWPROF_SAMPLE_TRANSACTION ? sm->transaction : 0;
	hs->cgroup = st & HWPROF_SAMPLE_CGROUP ? sm->cgroup : 0;
	hs->code_page_size = st & HWPROF_SAMPLE_CODE_PAGE_SIZE ? sm->code_page_size : 0;
	hs->data_page_size = st & HWPROF_SAMPLE_DATA_PAGE_SIZE ? sm->data_page_size : 0;
	hs->phys_addr = st & HWPROF_SAMPLE_PHYS_ADDR ? sm->phys_addr : 0;
}

/* perf's comm__override(): the first COMM of a thread whose name was the
 * ":tid" stand-in renames the entries its samples made so far */
static int comm_override(struct report_run *r, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	int32_t pid = (int32_t)ld32(d + 8), tid = (int32_t)ld32(d + 12);
	if (hwprof_session_thread_comm_set(r->s, tid) != 0)
		return 0;
	char from[32], to[256];
	snprintf(from, sizeof(from), "%s", hwprof_session_thread_comm(r->s, pid, tid));
	size_t n = strnlen((const char *)d + 16, rec->size - 16u);
	if (n >= sizeof(to))
		n = sizeof(to) - 1;
	memcpy(to, d + 16, n);
	to[n] = 0;
	for (uint32_t i = 0; i < r->nr_hists; i++)
		if (hwprof_hist_rename_comm(r->hists[i], from, to) < 0)
			return -HWPROF_E_NOMEM;
	return 0;
}

int report_run_sample(struct report_run *r, const struct hwprof_sample *sm)
{
	if (r->time && time_ranges_skip(r->time, sm->time))
		return 0; /* perf drops it before anything else */
	const struct hwprof_evsel *ev = sm->evsel;
	if (!ev)
		return 0;
	int rc = grow(r, ev->idx + 1);
	if (rc < 0)
		return rc;
	struct hwprof_hist_sample hs;
	int32_t cpu = (sm->sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)sm->cpu : -1;
	if (r->filter && report_filter_drops_cpu(r->filter, cpu))
		return 0;
	memset(&hs, 0, sizeof(hs));
	resolve_ip(r, &hs, (int32_t)sm->pid, (int32_t)sm->tid, sm->misc & HWPROF_MISC_CPUMODE_MASK, sm->ip);
	if (r->hide_unresolved && !hs.sym)
		return 0; /* perf's -U: the sample is not counted */
	hs.cpu = cpu;
	sample_fields(r, &hs, sm);
	if (ev->attr.type == 2 /* PERF_TYPE_TRACEPOINT */) {
		hs.tracepoint = true;
		hs.tp_id = ev->attr.config;
		if (sm->sample_type & HWPROF_SAMPLE_RAW) {
			hs.raw = sm->raw;
			hs.raw_size = sm->raw_size;
		}
	}
	hs.filtered = r->filter && report_filter_hides(r->filter, r->syms, &hs, sm->ip);
	/* a READ sample's period is its value's growth (see hwprof_session_split_read()) */
	hs.period = (ev->attr.sample_type & HWPROF_SAMPLE_PERIOD) || (sm->sample_type & HWPROF_SAMPLE_READ)
			    ? sm->period : ev->attr.sample_period;
	hs.weight = sm->weight; /* perf keeps them in every entry */
	hs.ins_lat = sm->ins_lat;
	if (sm->sample_type & HWPROF_SAMPLE_TIME) /* perf's hist_time() */
		hs.time = r->time_quantum ? sm->time / r->time_quantum * r->time_quantum : sm->time;
	if (r->branch_mode)
		return add_branches(r, &hs, sm, ev->idx);
	if (r->mem_mode) {
		/* unsampled fields: perf's PERF_MEM_DATA_SRC_NONE, zeros */
		struct report_mem m = { (sm->sample_type & HWPROF_SAMPLE_ADDR) ? sm->addr : 0,
					(sm->sample_type & HWPROF_SAMPLE_DATA_SRC) ? sm->data_src : 0x5080021, sm->weight,
					sm->ins_lat };
		resolve_mem(r, &hs, (int32_t)sm->pid, (int32_t)sm->tid, sm->misc & HWPROF_MISC_CPUMODE_MASK, &m);
	}
	size_t n = 0;
	if ((r->callchain || r->parent_key) && (sm->sample_type & HWPROF_SAMPLE_CALLCHAIN)) {
		int cn = resolve_chain(r, sm);
		if (cn < 0)
			return cn;
		n = r->cursor_n = (size_t)cn;
		hs.parent = r->parent;
	} else if (r->callchain) {
		/* no chain of its own: perf's cursor still holds the last */
		hs.stale_chain = true;
		n = r->cursor_n;
	}
	return hwprof_hist_add_chain(r->hists[ev->idx], &hs, r->frames, n);
}

/* perf's perf_read_values_add_value(): a READ record's first value, summed
 * per thread (pid/tid) and counter (the record's event) */
static int note_read(struct report_run *r, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	const struct hwprof_perfdata *h = hwprof_session_data(r->s);
	if (rec->size < 24 || !hwprof_perfdata_nr_evsels(h))
		return 0;
	const struct hwprof_evsel *es = ev->parse_err >= 0 && ev->sample.evsel ? ev->sample.evsel
										 : hwprof_perfdata_evsel(h, 0);
	struct report_threads *t = &r->threads;
	int32_t pid = (int32_t)ld32(rec->data + 8), tid = (int32_t)ld32(rec->data + 12);
	size_t ti = 0, ci = 0;
	while (ti < t->n && (t->row[ti].pid != pid || t->row[ti].tid != tid))
		ti++;
	while (ci < t->ncounters && t->ctr[ci].rawid != es->idx)
		ci++;
	if (ci == t->ncounters) {
		size_t old = t->capcounters;
		if (util_grow(&t->ctr, &t->capcounters, ci + 1, sizeof(*t->ctr)) < 0)
			return -HWPROF_E_NOMEM;
		/* every row holds a value per counter */
		for (size_t i = 0; old != t->capcounters && i < t->n; i++) {
			uint64_t *v = realloc(t->row[i].value, t->capcounters * sizeof(*v));
			if (!v)
				return -HWPROF_E_NOMEM;
			memset(v + old, 0, (t->capcounters - old) * sizeof(*v));
			t->row[i].value = v;
		}
		char nb[256];
		const char *name = hwprof_evsel_name(es, nb, sizeof(nb));
		if (!(t->ctr[ci].name = strdup(name ? name : "")))
			return -HWPROF_E_NOMEM;
		t->ctr[ci].rawid = es->idx;
		t->ncounters++;
	}
	if (ti == t->n) {
		if (util_grow(&t->row, &t->cap, ti + 1, sizeof(*t->row)) < 0)
			return -HWPROF_E_NOMEM;
		uint64_t *v = calloc(t->capcounters, sizeof(*v));
		if (!v)
			return -HWPROF_E_NOMEM;
		t->row[ti] = (struct report_thread_row){ pid, tid, v };
		t->n++;
	}
	t->row[ti].value[ci] += hwprof_u64_at(rec->data, 2);
	return 0;
}

bool report_run_event_has_chains(const struct report_run *r, uint32_t idx)
{
	const struct hwprof_perfdata *h = hwprof_session_data(r->s);
	if (idx < hwprof_perfdata_nr_evsels(h))
		return (hwprof_perfdata_evsel(h, idx)->attr.sample_type & HWPROF_SAMPLE_CALLCHAIN) ||
		       (r->pt && report_pt_chains(r->pt, true, idx));
	return !r->pt || report_pt_chains(r->pt, false, idx);
}

int report_run_read(struct report_run *r, struct cli_progress *bar)
{
	struct hwprof_event ev;
	int rc;
	uint64_t n = 0;
	while ((rc = hwprof_session_next(r->s, &ev)) > 0) {
		if (bar && ++n % PROGRESS_EVERY == 0)
			cli_progress_update(bar, ev.rec.offset);
		hwprof_symbols_note_record(r->syms, &ev.rec);
		if (ev.rec.type == HWPROF_RECORD_MMAP || ev.rec.type == HWPROF_RECORD_MMAP2) {
			if (note_mmap(r, &ev.rec) < 0)
				return -HWPROF_E_NOMEM;
			if (r->pt && report_pt_event(r->pt, &ev) < 0)
				return -HWPROF_E_INVAL; /* message printed */
			continue;
		}
		if (r->spe) {
			int e = report_spe_event(r->spe, &ev);
			int p = r->pt ? report_pt_event(r->pt, &ev) : 1;
			if (e < 0 || p < 0)
				return -HWPROF_E_INVAL; /* message printed */
			if (e > 0 && p > 0)
				return -HWPROF_E_UNSUPPORTED; /* AUX data other than SPE or PT */
		} else if (ev.rec.type == HWPROF_RECORD_AUXTRACE_INFO) {
			return -HWPROF_E_UNSUPPORTED; /* pipe streams say it here */
		}
		if (ev.rec.type == HWPROF_RECORD_NAMESPACES || ev.rec.type == HWPROF_RECORD_CGROUP) {
			int e = ev.rec.type == HWPROF_RECORD_CGROUP ? note_cgroup(r, &ev.rec) : note_namespaces(r, &ev.rec);
			if (e < 0)
				return e;
			continue;
		}
		if (ev.rec.type == HWPROF_RECORD_COMM && ev.rec.size > 16) {
			int e = comm_override(r, &ev.rec);
			if (e < 0)
				return e;
			continue;
		}
		if (ev.rec.type == HWPROF_RECORD_HEADER_TRACING_DATA) {
			struct hwprof_trace *old = r->trace;
			if (trace_load_record(hwprof_session_data(r->s), &ev.rec, &r->trace, "report",
					      r->input ? r->input : "<stdin>") < 0)
				return -HWPROF_E_INVAL; /* message printed */
			if (r->trace != old)
				r->trace_warned = 0;
			trace_print_warnings(r->trace, &r->trace_warned, &r->trace_first_warned);
			continue;
		}
		if (ev.rec.type == HWPROF_RECORD_READ && r->show_threads) {
			int e = note_read(r, &ev);
			if (e < 0)
				return e;
			continue;
		}
		if (ev.rec.type == HWPROF_RECORD_LOST_SAMPLES && ev.rec.size >= 16) {
			r->lost_samples += hwprof_u64_at(ev.rec.data, 1);
			continue;
		}
		if (ev.rec.type != HWPROF_RECORD_SAMPLE || ev.parse_err < 0)
			continue;
		if (r->pt && report_pt_sample(r->pt, &ev.sample) < 0)
			return -HWPROF_E_INVAL; /* message printed */
		int e = report_run_sample(r, &ev.sample);
		if (e < 0)
			return e;
	}
	if (rc < 0)
		return rc;
	if (r->spe && report_spe_flush(r->spe) < 0)
		return -HWPROF_E_INVAL;
	if (r->pt && report_pt_flush(r->pt) < 0)
		return -HWPROF_E_INVAL;
	return 0;
}

int report_run_finish(struct report_run *r, const uint32_t *group_size, uint32_t n)
{
	/* perf's report__collapse_hists(): each hist collapsed in event
	 * order, a member matched and linked to its leader right after */
	for (uint32_t i = 0; i < r->nr_hists; i++) {
		int e = hwprof_hist_collapse(r->hists[i]);
		if (e < 0)
			return e;
		if (!group_size || i >= n || group_size[i] != 0)
			continue;
		uint32_t l = i;
		while (l > 0 && group_size[l] == 0)
			l--;
		if ((e = hwprof_hist_link(r->hists[l], r->hists[i])) < 0)
			return e;
	}
	for (uint32_t i = 0; i < r->nr_hists; i++) {
		hwprof_hist_set_group_sort_idx(r->hists[i], r->group_sort_idx);
		int e = hwprof_hist_finish(r->hists[i]);
		if (e < 0)
			return e;
	}
	return 0;
}
