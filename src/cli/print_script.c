/* perf script's default sample output, byte for byte as perf 6.1 prints
 * it: "comm tid [cpu] time: period event: ip sym+off (dso)", or with a
 * callchain the comm unpadded and one "\t<ip> sym+off (dso)" line per
 * frame. Symbols come from the symbol library, maps from the session. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/print_regs.h"
#include "cli/print_spe_samples.h"
#include "cli/kmap.h"
#include "cli/trace_load.h"
#include "cli/print_script.h"
#include "cli/fastfmt.h"
#include "cli/print_dump.h"
#include "util/bytes.h"
#include "cli/report_filter.h"
#include "cli/srccode.h"
#include "cli/x86_insn_len.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/trace.h"
#include "hwprof/unwind.h"

struct script_printer {
	struct script_opts *o;
	struct hwprof_session *s;
	struct kmap_ext kmap;      /* the kernel map up to its last symbol */
	struct hwprof_perfdata *h;
	struct hwprof_symbols *syms;
	FILE *f;
	enum hwprof_arch arch;
	bool checked, use_callchain, has_stat;
	bool synth_cc;            /* every event has callchains synthesized */
	int name_width;
	int extra_width;           /* longest name of synthesized (AUX) events */
	int data_src_width;        /* perf pads data_src to the widest so far */
	struct hwprof_unwinder *uw;
	struct srccode *srccode;   /* srccode's files and per-thread lines */
	uint64_t initial_time, previous_time; /* --reltime / --deltatime */
	bool have_clock;           /* CLOCK_DATA: the tod field's reference */
	uint64_t clock_tod_ns, clock_clockid_ns;
	struct hwprof_trace *trace; /* tracepoint formats, or NULL */
	int trace_warned;           /* its warnings printed so far */
	struct trace_ksyms ksyms;   /* its function-name lookups */
	bool trace_first_warned;
	/* the header's build-id table (sorted names, perf's DSOs made before
	 * any MMAP record): a module not in it is named "[name]" */
	struct hwprof_feat *bids;
	const char **bid_names;
	size_t nbid;
	bool bids_loaded;
};

int script_printer_new(struct script_printer **out, struct script_opts *o, struct hwprof_session *s,
		       struct hwprof_symbols *syms, FILE *f)
{
	struct script_printer *p = calloc(1, sizeof(*p));
	if (!p)
		return -HWPROF_E_NOMEM;
	p->o = o;
	p->s = s;
	p->h = hwprof_session_data(s);
	p->syms = syms;
	p->f = f;
	p->arch = hwprof_perfdata_arch(p->h);
	*out = p;
	return 0;
}

void script_printer_free(struct script_printer *p)
{
	if (p) {
		hwprof_unwinder_free(p->uw);
		srccode_free(p->srccode);
		free(p->bid_names);
		hwprof_feat_free(p->bids);
	}
	free(p);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A map's DSO as perf's map__fprintf_dsoname() names it: the DSO's name,
 * which for a kernel module perf first met in an MMAP record (no build-id
 * table entry: pipe mode, --no-buildid) is its short "[name]", and for
 * the kernel may be a vmlinux's path (hwprof_symbols_perf_name). */
const char *script_dso_name(struct script_printer *p, const struct hwprof_map_info *mi, char level, char *buf,
			    size_t len)
{
	const char *name = hwprof_symbols_perf_name(p->syms, mi->dso, false, buf, len);
	if (name != mi->dso || level != 'k' || mi->dso[0] != '/' || p->o->show_kernel_path)
		return name;
	if (!p->bids_loaded) {
		p->bids_loaded = true;
		if (hwprof_perfdata_feat(p->h, HWPROF_FEAT_BUILD_ID, &p->bids) == 1 && p->bids->u.build_id.nr &&
		    (p->bid_names = calloc(p->bids->u.build_id.nr, sizeof(*p->bid_names)))) {
			for (uint32_t i = 0; i < p->bids->u.build_id.nr; i++)
				if (p->bids->u.build_id.ids[i].filename)
					p->bid_names[p->nbid++] = p->bids->u.build_id.ids[i].filename;
			qsort(p->bid_names, p->nbid, sizeof(*p->bid_names), cmp_name);
		}
	}
	if (p->nbid && bsearch(&mi->dso, p->bid_names, p->nbid, sizeof(*p->bid_names), cmp_name))
		return mi->dso;
	hwprof_dso_short_name(mi->dso, true, buf, len);
	return buf;
}

int script_printer_find_map(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			    struct hwprof_map_info *mi, char *level)
{
	return kmap_find_map(&p->kmap, p->s, p->syms, pid, tid, cpumode, ip, mi, level);
}

void script_printer_set_trace(struct script_printer *p, struct hwprof_trace *t, bool resolve)
{
	if (t != p->trace)
		p->trace_warned = 0;
	p->trace = t;
	p->ksyms.s = p->s;
	p->ksyms.syms = p->syms;
	if (t && resolve)
		hwprof_trace_set_resolver(t, trace_ksym, &p->ksyms);
	/* perf prints the format parser's warnings as it reads the header */
	trace_print_warnings(t, &p->trace_warned, &p->trace_first_warned);
}

struct hwprof_session *script_printer_session(struct script_printer *p)
{
	return p->s;
}

struct hwprof_symbols *script_printer_symbols(struct script_printer *p)
{
	return p->syms;
}

FILE *script_printer_file(struct script_printer *p)
{
	return p->f;
}

const struct script_opts *script_printer_opts(const struct script_printer *p)
{
	return p->o;
}

struct hwprof_unwinder *script_printer_unwinder(struct script_printer *p)
{
	if (!p->uw && hwprof_unwinder_new(&p->uw, p->s, p->syms, p->arch) < 0)
		p->uw = NULL;
	return p->uw;
}

#define PF(t, x) ((p->o->out[t].fields & SFB(SF_##x)) != 0)

static const char *evname(const struct hwprof_evsel *ev, char *buf, size_t len)
{
	const char *n = hwprof_evsel_name(ev, buf, len);
	return n ? n : "[unknown]";
}

/* perf's evsel__do_check_stype(): a field the samples lack is dropped from
 * the defaults, an error when the user asked for it. */
static int check_stype(struct script_printer *p, const struct hwprof_evsel *ev, uint64_t st, const char *msg,
		       uint64_t field, bool allow_user_set)
{
	int t = script_output_type(ev->attr.type);
	if (ev->attr.sample_type & st)
		return 0;
	struct script_output *so = &p->o->out[t];
	if (so->user_set_fields & field) {
		if (allow_user_set)
			return 0;
		char buf[256];
		unsigned fi = (unsigned)__builtin_ctzll(field);
		fprintf(stderr, "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.\n",
			evname(ev, buf, sizeof(buf)), msg, script_field_name(fi));
		return -1;
	}
	so->fields &= ~field;
	return 0;
}

static int check_attr(struct script_printer *p, const struct hwprof_evsel *ev, bool allow)
{
	int t = script_output_type(ev->attr.type);
	uint64_t st = ev->attr.sample_type;
	if (ev->attr.type == 1 && ev->attr.config == 9 /* dummy */)
		return 0;
	/* perf checks only that some event is a tracepoint; samples without
	 * RAW data print no trace text */
	if (PF(t, TRACE)) {
		bool any = false;
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(p->h); i++)
			any |= hwprof_perfdata_evsel(p->h, i)->attr.type == 2;
		if (!any) {
			fprintf(stderr, "No trace sample to read. Did you call 'perf %s'?\n", "record -R");
			return -1;
		}
	}
	if (PF(t, IP) && check_stype(p, ev, HWPROF_SAMPLE_IP, "IP", SFB(SF_IP), false))
		return -1;
	if (PF(t, ADDR) && check_stype(p, ev, HWPROF_SAMPLE_ADDR, "ADDR", SFB(SF_ADDR), allow))
		return -1;
	if (PF(t, DATA_SRC) && check_stype(p, ev, HWPROF_SAMPLE_DATA_SRC, "DATA_SRC", SFB(SF_DATA_SRC), allow))
		return -1;
	if (PF(t, WEIGHT) &&
	    check_stype(p, ev, HWPROF_SAMPLE_WEIGHT | HWPROF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", SFB(SF_WEIGHT), allow))
		return -1;
	if (PF(t, SYM) && !(st & (HWPROF_SAMPLE_IP | HWPROF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of symbols requested but neither sample IP nor sample address\n"
				"available. Hence, no addresses to convert to symbols.\n");
		return -1;
	}
	if (PF(t, SYMOFFSET) && !PF(t, SYM)) {
		fprintf(stderr, "Display of offsets requested but symbol is notselected.\n");
		return -1;
	}
	if (PF(t, DSO) && !(st & (HWPROF_SAMPLE_IP | HWPROF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of DSO requested but no address to convert.\n");
		return -1;
	}
	if ((PF(t, SRCLINE) || PF(t, SRCCODE)) && !PF(t, IP)) {
		fprintf(stderr, "Display of source line number requested but sample IP is not\n"
				"selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if ((PF(t, PID) || PF(t, TID)) &&
	    check_stype(p, ev, HWPROF_SAMPLE_TID, "TID", SFB(SF_TID) | SFB(SF_PID), false))
		return -1;
	if (PF(t, TIME) && check_stype(p, ev, HWPROF_SAMPLE_TIME, "TIME", SFB(SF_TIME), false))
		return -1;
	if (PF(t, CPU) && check_stype(p, ev, HWPROF_SAMPLE_CPU, "CPU", SFB(SF_CPU), allow))
		return -1;
	if (PF(t, IREGS) && check_stype(p, ev, HWPROF_SAMPLE_REGS_INTR, "IREGS", SFB(SF_IREGS), allow))
		return -1;
	if (PF(t, UREGS) && check_stype(p, ev, HWPROF_SAMPLE_REGS_USER, "UREGS", SFB(SF_UREGS), false))
		return -1;
	if (PF(t, PHYS_ADDR) && check_stype(p, ev, HWPROF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SFB(SF_PHYS_ADDR), allow))
		return -1;
	if (PF(t, DATA_PAGE_SIZE) &&
	    check_stype(p, ev, HWPROF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", SFB(SF_DATA_PAGE_SIZE), allow))
		return -1;
	if (PF(t, CODE_PAGE_SIZE) &&
	    check_stype(p, ev, HWPROF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", SFB(SF_CODE_PAGE_SIZE), allow))
		return -1;
	if (PF(t, INS_LAT) &&
	    check_stype(p, ev, HWPROF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SFB(SF_INS_LAT), false))
		return -1;
	return 0;
}

static bool has_feat(struct hwprof_perfdata *h, unsigned feat)
{
	const uint8_t *d;
	uint64_t size;
	return hwprof_perfdata_feature(h, feat, &d, &size, NULL) == 1;
}

int script_printer_check(struct script_printer *p)
{
	uint32_t n = hwprof_perfdata_nr_evsels(p->h);
	bool pipe = hwprof_perfdata_info(p->h)->pipe;
	p->checked = true;
	p->has_stat = has_feat(p->h, HWPROF_FEAT_STAT);
	bool allow = has_feat(p->h, HWPROF_FEAT_AUXTRACE);
	for (int j = 0; j < OT_NR; j++) {
		const struct hwprof_evsel *first = NULL;
		for (uint32_t i = 0; i < n && !first; i++) {
			const struct hwprof_evsel *ev = hwprof_perfdata_evsel(p->h, i);
			if (script_output_type(ev->attr.type) == j)
				first = ev;
		}
		struct script_output *so = &p->o->out[j];
		if (!first && so->user_set && !so->wildcard_set && j != OT_SYNTH && !pipe) {
			static const char *const tn[OT_NR] = { "hardware", "software", "tracepoint",
				"hardware-cache", "raw", "breakpoint", "synthesized", "unknown" };
			fprintf(stderr, "%s events do not exist. Remove corresponding -F option to proceed.\n", tn[j]);
			return -1;
		}
		if (first && so->fields && !p->has_stat && check_attr(p, first, allow))
			return -1;
	}
	bool any_cc = false, tod = false;
	uint64_t branch_types = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *ev = hwprof_perfdata_evsel(p->h, i);
		if (ev->attr.sample_type & HWPROF_SAMPLE_CALLCHAIN)
			any_cc = true;
		branch_types |= ev->attr.branch_sample_type;
		tod |= (p->o->out[script_output_type(ev->attr.type)].fields & SFB(SF_TOD)) != 0;
	}
	for (int j = 0; j < OT_NR; j++) {
		const uint64_t insn = SFB(SF_BRSTACKINSN) | SFB(SF_BRSTACKINSNLEN);
		bool used = false;
		for (uint32_t i = 0; i < n && !used; i++)
			used = script_output_type(hwprof_perfdata_evsel(p->h, i)->attr.type) == j;
		if (used && (p->o->out[j].fields & insn) && !allow && !(branch_types & 0x8 /* BRANCH_ANY */)) {
			fprintf(stderr, "Display of branch stack assembler requested, but non all-branch filter set\n"
					"Hint: run 'perf record -b ...'\n");
			return -1;
		}
		/* perf decodes x86 code on x86 only; others files' kernel bounds
		 * and code are not matched here */
		if (used && (p->o->out[j].fields & insn) &&
		    (p->arch != HWPROF_ARCH_X86_64 || hwprof_arch_host() != HWPROF_ARCH_X86_64)) {
			fprintf(stderr, "hwprof script: fields brstackinsn and brstackinsnlen are supported for "
					"x86_64 files read on x86_64 only\n");
			return -1;
		}
	}
	if (tod) {
		/* perf's tod_scnprintf() reference: CLOCK_DATA's pair */
		struct hwprof_feat *f;
		if (hwprof_perfdata_feat(p->h, HWPROF_FEAT_CLOCK_DATA, &f) == 1) {
			p->have_clock = true;
			p->clock_tod_ns = f->u.clock_data.tod_ns;
			p->clock_clockid_ns = f->u.clock_data.clockid_ns;
			hwprof_feat_free(f);
		}
		if (!p->have_clock) {
			fprintf(stderr, "Can't provide 'tod' time, missing clock data. Please record with -k/--clockid "
					"option.\n");
			return -1;
		}
	}
	p->use_callchain = !p->o->no_callchain && (any_cc || (pipe && n == 0));
	if (pipe && !p->o->no_callchain)
		p->use_callchain = true;
	/* perf: tracepoints with callchains show the frames by default; from
	 * a pipe (its process_attr) every event type gets ip and sym, unless
	 * -F removed them */
	uint64_t combined = 0;
	for (uint32_t i = 0; i < n; i++)
		combined |= hwprof_perfdata_evsel(p->h, i)->attr.sample_type;
	const uint64_t unw = HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
	struct script_output *tp = &p->o->out[OT_TRACE];
	if (pipe && p->use_callchain &&
	    ((combined & (HWPROF_SAMPLE_CALLCHAIN | HWPROF_SAMPLE_BRANCH_STACK)) || (combined & unw) == unw)) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t type = hwprof_perfdata_evsel(p->h, i)->attr.type;
			if (type < 6 /* PERF_TYPE_MAX */) {
				struct script_output *so = &p->o->out[script_output_type(type)];
				so->fields |= (SFB(SF_IP) | SFB(SF_SYM)) & ~so->user_unset_fields;
			}
		}
	} else if (!pipe && p->use_callchain && !tp->user_set)
		for (uint32_t i = 0; i < n; i++) {
			const struct hwprof_attr *a = &hwprof_perfdata_evsel(p->h, i)->attr;
			if (a->type == 2 && (a->sample_type & HWPROF_SAMPLE_CALLCHAIN)) {
				p->o->out[OT_TRACE].fields |= SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_SYMOFFSET) | SFB(SF_DSO);
				break;
			}
		}
	return 0;
}

/* s appended at buf[n] (truncated to size - 1); returns the new length */
static size_t str_add(char *buf, size_t n, size_t size, const char *s)
{
	size_t l = strlen(s);
	if (n + 1 >= size)
		return n;
	if (l > size - 1 - n)
		l = size - 1 - n;
	memcpy(buf + n, s, l);
	n += l;
	buf[n] = 0;
	return n;
}

/* lower-case hex without leading zeros (out: 17 bytes) */
static const char *hex_str(char *out, uint64_t v)
{
	char *e = out + 17;
	*--e = 0;
	do {
		*--e = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	return e;
}

/* " sym+off (dso)" for one address, as perf's sample__fprintf_sym does;
 * *addr gets the address inside the DSO when a map holds ip, else ip. */
static size_t sym_text(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
		       bool chain, char *buf, size_t size, uint64_t *addr)
{
	struct hwprof_map_info mi;
	char level;
	struct hwprof_symres r = { 0 };
	size_t n = 0;
	bool have_map = script_printer_find_map(p, pid, tid, cpumode, ip, &mi, &level) == 1;
	if (have_map && (chain || PF(t, SYM) || PF(t, DSO)))
		hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, ip, &r);
	/* perf shows a kernel DSO's frames (modules too) at their address, a
	 * user DSO's inside the DSO */
	*addr = have_map && level != 'k' ? r.addr : ip;
	buf[0] = 0;
	/* by hand: snprintf here was a sixth of a large SPE script run */
	if (PF(t, SYM)) {
		if (r.sym) {
			n = str_add(buf, n, size, " ");
			n = str_add(buf, n, size, r.sym->name);
			if (PF(t, SYMOFFSET)) {
				uint64_t off = r.addr < r.sym->end ? r.addr - r.sym->start
								   : r.addr - mi.start - r.sym->start;
				char hex[24];
				n = str_add(buf, n, size, "+0x");
				n = str_add(buf, n, size, hex_str(hex, off));
			}
		} else {
			n = str_add(buf, n, size, " [unknown]");
		}
	}
	if (PF(t, DSO)) {
		char dn[256];
		n = str_add(buf, n, size, " (");
		n = str_add(buf, n, size, have_map ? script_dso_name(p, &mi, level, dn, sizeof(dn)) : "[unknown]");
		n = str_add(buf, n, size, ")");
	}
	return n;
}

static void print_ip_sym(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode,
			 uint64_t ip, bool chain)
{
	char buf[4096];
	uint64_t addr;
	size_t n = sym_text(p, t, pid, tid, cpumode, ip, chain, buf, sizeof(buf), &addr);
	/* callchain frames show the address inside their DSO (perf's map_ip) */
	if (chain && PF(t, IP))
		fprintf(p->f, "\t%16llx", (unsigned long long)addr);
	fwrite(buf, 1, n, p->f);
}

size_t script_chain_entry(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			  char *buf, size_t size)
{
	char sym[4096];
	uint64_t addr;
	size_t n = sym_text(p, t, pid, tid, cpumode, ip, true, sym, sizeof(sym), &addr);
	int k = snprintf(buf, size, "\t%16llx", (unsigned long long)addr);
	if (k < 0 || (size_t)k >= size)
		return 0;
	if (n > size - 1 - (size_t)k)
		n = size - 1 - (size_t)k;
	memcpy(buf + k, sym, n);
	buf[k + n] = 0;
	return (size_t)k + n;
}

size_t script_sym_text(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
		       char *buf, size_t size)
{
	uint64_t addr;
	return sym_text(p, t, pid, tid, cpumode, ip, false, buf, size, &addr);
}

size_t script_branch_end(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr,
			 bool sym, bool dso, char *buf, size_t size)
{
	/* perf's thread__find_map_fb(): the sample's cpumode, then the other */
	unsigned other = cpumode == HWPROF_MISC_KERNEL ? HWPROF_MISC_USER : HWPROF_MISC_KERNEL;
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	bool have_map = script_printer_find_map(p, pid, tid, cpumode, addr, &mi, &level) == 1 ||
			script_printer_find_map(p, pid, tid, other, addr, &mi, &level) == 1;
	size_t n = 0;
	buf[0] = 0;
	if (sym) {
		if (have_map)
			hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, addr, &r);
		if (r.sym) {
			/* perf's symbol__fprintf_symname_offs(): always an offset */
			uint64_t off = r.addr < r.sym->end ? r.addr - r.sym->start : r.addr - mi.start - r.sym->start;
			char hex[24];
			n = str_add(buf, n, size, r.sym->name);
			n = str_add(buf, n, size, "+0x");
			n = str_add(buf, n, size, hex_str(hex, off));
		} else {
			n = str_add(buf, n, size, "[unknown]");
		}
	}
	if (dso) {
		char dn[256];
		n = str_add(buf, n, size, "(");
		n = str_add(buf, n, size, have_map ? script_dso_name(p, &mi, level, dn, sizeof(dn)) : "[unknown]");
		n = str_add(buf, n, size, ")");
	}
	return n;
}

void script_printer_synth_callchain(struct script_printer *p)
{
	p->synth_cc = true;
	p->use_callchain = true;
}

void script_printer_add_event_name(struct script_printer *p, const char *name)
{
	int l = (int)strlen(name);
	if (l > p->extra_width)
		p->extra_width = l;
}

uint64_t script_printer_fields(const struct script_printer *p, int t)
{
	return p->o->out[t].fields;
}

bool script_printer_time_shifts(const struct script_printer *p)
{
	return p->o->reltime || p->o->deltatime;
}

uint64_t script_printer_shown_time(struct script_printer *p, uint64_t time)
{
	if (p->o->reltime) {
		if (!p->initial_time)
			p->initial_time = time;
		return time - p->initial_time;
	}
	if (p->o->deltatime) {
		uint64_t tm = p->previous_time ? time - p->previous_time : 0;
		p->previous_time = time;
		return tm;
	}
	return time;
}

bool script_printer_nanosecs(const struct script_printer *p)
{
	return p->o->nanosecs;
}

bool script_printer_user_set(const struct script_printer *p, int t)
{
	return p->o->out[t].user_set;
}

bool script_printer_print_flags(const struct script_printer *p)
{
	return p->o->print_flags;
}

int script_printer_pad_dso(const struct script_printer *p)
{
	return p->o->pad_dso;
}

const char *script_sym_name(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			    const char **dso)
{
	struct hwprof_map_info mi;
	char level;
	struct hwprof_symres r = { 0 };
	*dso = NULL;
	if (script_printer_find_map(p, pid, tid, cpumode, ip, &mi, &level) != 1)
		return NULL;
	*dso = mi.dso;
	hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, ip, &r);
	return r.sym ? r.sym->name : NULL;
}

int *script_printer_data_src_width(struct script_printer *p)
{
	return &p->data_src_width;
}

int script_printer_name_width(struct script_printer *p)
{
	if (!p->name_width) {
		uint32_t n = hwprof_perfdata_nr_evsels(p->h);
		p->name_width = p->extra_width;
		for (uint32_t i = 0; i < n; i++) {
			char b[256];
			int l = (int)strlen(evname(hwprof_perfdata_evsel(p->h, i), b, sizeof(b)));
			if (l > p->name_width)
				p->name_width = l;
		}
	}
	return p->name_width;
}

/* perf's process_attr() for an event added while reading (AUX-trace
 * synthesis): the first event of its output type is checked like the
 * file's events were. */
int script_printer_check_synth(struct script_printer *p, const struct hwprof_evsel *ev)
{
	int t = script_output_type(ev->attr.type);
	uint32_t n = hwprof_perfdata_nr_evsels(p->h);
	for (uint32_t i = 0; i < n; i++)
		if (script_output_type(hwprof_perfdata_evsel(p->h, i)->attr.type) == t)
			return 0;
	if (!ev->attr.sample_type || p->has_stat)
		return 0;
	return check_attr(p, ev, has_feat(p->h, HWPROF_FEAT_AUXTRACE));
}

/* perf's arch_fetch_insn (x86 only, and only for files of the machine
 * reading them): up to 16 bytes at the sample's ip from the mapped file,
 * their first instruction's length; kernel code is not readable (ilen 0). */
static int fetch_insn(struct script_printer *p, const struct hwprof_sample *s, uint8_t *insn)
{
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	if (!s->ip || p->arch != HWPROF_ARCH_X86_64 || hwprof_arch_host() != HWPROF_ARCH_X86_64)
		return 0;
	unsigned cpumode = s->ip >= 0xffff800000000000ULL ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	if (script_printer_find_map(p, (int32_t)s->pid, (int32_t)s->tid, cpumode, s->ip, &mi, &level) != 1)
		return 0;
	hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, s->ip, &r);
	if (!r.dso) /* the kernel has no file to read; the vDSO's is in perf's cache */
		return 0;
	ssize_t n = hwprof_dso_read(r.dso, r.addr, insn, 16);
	struct x86_insn in; /* perf's own decoder: it takes undefined encodings */
	if (n <= 0 || x86_insn_decode(insn, (size_t)n, &in) < 0 || in.len > n)
		return 0;
	return (int)in.len;
}

/* perf's get_branch_type(): "" for an unknown type, the extended ABI's
 * types by their new names (perf 6.1 built for x86 calls the arch ones
 * ARCH_1..5) */
static const char *branch_type_name(unsigned type, unsigned new_type)
{
	static const char *const names[15] = { "", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					       "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
					       "SERROR", "NO_TX" };
	static const char *const new_names[8] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						  "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5" };
	if (type < 15)
		return names[type];
	return new_type < 8 ? new_names[new_type] : "(null)";
}

/* perf's brstackoff address: DSO-relative where a map holds it and perf
 * would not adjust symbols there (its DSO has no ELF file it loaded) */
uint64_t script_branch_offset(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr)
{
	unsigned other = cpumode == HWPROF_MISC_KERNEL ? HWPROF_MISC_USER : HWPROF_MISC_KERNEL;
	struct hwprof_map_info mi;
	char level;
	if (script_printer_find_map(p, pid, tid, cpumode, addr, &mi, &level) != 1 &&
	    script_printer_find_map(p, pid, tid, other, addr, &mi, &level) != 1)
		return addr;
	struct hwprof_symres r = { 0 };
	hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, addr, &r);
	if ((r.dso && hwprof_dso_runfile(r.dso)) || mi.identity)
		return addr;
	return addr - mi.start + mi.pgoff; /* perf's map__map_ip(), the kernel's map too */
}

/* perf's brstack, brstacksym or brstackoff (the first asked for): per
 * branch "from/to" (" 0xaddr" with "(dso)", "sym+0xoff(dso)", or " 0xoff")
 * then "/M|P|-/X|-/A|-/cycles/type " */
static void print_brstack(struct script_printer *p, int t, const struct hwprof_sample *s)
{
	int kind = PF(t, BRSTACK) ? 0 : PF(t, BRSTACKSYM) ? 1 : 2;
	unsigned cpumode = s->misc & HWPROF_MISC_CPUMODE_MASK;
	int32_t pid = (int32_t)s->pid, tid = (int32_t)s->tid;
	char buf[1024];
	for (uint64_t i = 0; s->branches && i < s->branch_nr; i++) {
		uint64_t fl = hwprof_u64_at(s->branches, 3 * i + 2);
		for (int end = 0; end < 2; end++) {
			uint64_t a = hwprof_u64_at(s->branches, 3 * i + (uint64_t)end);
			if (end)
				fputc('/', p->f);
			if (kind == 1) {
				script_branch_end(p, pid, tid, cpumode, a, true, PF(t, DSO), buf, sizeof(buf));
				fputs(buf, p->f);
				continue;
			}
			if (kind == 2)
				a = script_branch_offset(p, pid, tid, cpumode, a);
			fprintf(p->f, end ? "0x%llx" : " 0x%llx", (unsigned long long)a);
			if (PF(t, DSO)) {
				script_branch_end(p, pid, tid, cpumode, hwprof_u64_at(s->branches, 3 * i + (uint64_t)end),
						  false, true, buf, sizeof(buf));
				fputs(buf, p->f);
			}
		}
		bool mispred = fl & 1, predicted = fl >> 1 & 1;
		fprintf(p->f, "/%c/%c/%c/%u/%s ", !predicted && !mispred ? '-' : predicted ? 'P' : 'M',
			fl >> 2 & 1 ? 'X' : '-', fl >> 3 & 1 ? 'A' : '-', (unsigned)(fl >> 4 & 0xffff),
			branch_type_name((unsigned)(fl >> 20 & 0xf), (unsigned)(fl >> 26 & 0xf)));
	}
}

struct srccode *script_printer_srccode(struct script_printer *p)
{
	if (!p->srccode)
		p->srccode = srccode_new();
	return p->srccode;
}

/* perf's map__fprintf_srccode() for the sample's address */
static void print_srccode(struct script_printer *p, const struct hwprof_sample *s)
{
	struct hwprof_map_info mi;
	char level;
	if (script_printer_find_map(p, (int32_t)s->pid, (int32_t)s->tid, s->misc & HWPROF_MISC_CPUMODE_MASK, s->ip, &mi,
				    &level) != 1)
		return;
	struct hwprof_symres r = { 0 };
	hwprof_symbols_resolve(p->syms, mi.dso, mi.start, mi.pgoff, s->ip, &r);
	if (!script_printer_srccode(p))
		return;
	srccode_print(p->srccode, p->f, (int32_t)s->tid, r.dso, r.addr);
}

static void print_insn(struct script_printer *p, int t, const struct hwprof_sample *s)
{
	uint8_t insn[16];
	int len = fetch_insn(p, s, insn);
	if (PF(t, INSNLEN))
		fprintf(p->f, " ilen: %d", len);
	if (PF(t, INSN) && len) {
		fputs(" insn:", p->f);
		for (int i = 0; i < len; i++)
			fprintf(p->f, " %02x", insn[i]);
	}
}

/* perf's tod_scnprintf(): the sample time moved onto the wall clock of
 * CLOCK_DATA's reference pair, in local time */
static void print_tod(struct script_printer *p, uint64_t t)
{
	uint64_t tod = p->clock_tod_ns;
	if (t > p->clock_clockid_ns)
		tod += t - p->clock_clockid_ns;
	else
		tod -= p->clock_clockid_ns - t;
	time_t sec = (time_t)(tod / 1000000000ULL);
	unsigned long nsec = (unsigned long)(tod - (uint64_t)sec * 1000000000ULL);
	struct tm lt;
	char date[64];
	if (!localtime_r(&sec, &lt)) {
		fputs("failed ", p->f);
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &lt);
	if (p->o->nanosecs)
		fprintf(p->f, "%s.%09lu ", date, nsec);
	else
		fprintf(p->f, "%s.%06lu ", date, nsec / 1000);
}

static void print_time(struct script_printer *p, uint64_t t)
{
	unsigned long long secs = t / 1000000000ULL, ns = t % 1000000000ULL;
	if (p->o->nanosecs) {
		fprintf(p->f, "%5llu.%09llu: ", secs, ns);
	} else { /* "%12s: " of "%llu.%06llu" */
		char b[24], *d = ff_digits(b + 24, secs, 10);
		ff_pad(p->f, 12 - (int)(b + 24 - d) - 7);
		fwrite_unlocked(d, 1, (size_t)(b + 24 - d), p->f);
		putc_unlocked('.', p->f);
		ff_udec(p->f, ns / 1000, 6, true);
		fputs_unlocked(": ", p->f);
	}
}

/* perf's perf_sample__fprintf_start(): comm, pid/tid, cpu, misc (with a
 * record type's own letters), tod and time, as the fields of type t
 * ask; comm NULL prints ":-1" (no thread) */
static void print_start(struct script_printer *p, int t, const struct hwprof_sample *s, const char *comm,
			bool callchain, uint32_t rec_type)
{
	FILE *f = p->f;
	if (PF(t, COMM)) {
		ff_str(f, comm ? comm : ":-1", PF(t, IP) && callchain && p->use_callchain ? 0 : 16);
		putc_unlocked(' ', f);
	}
	if (PF(t, PID) && PF(t, TID)) {
		ff_dec(f, (int)s->pid, 5, false);
		putc_unlocked('/', f);
		ff_dec(f, (int)s->tid, 5, true);
		putc_unlocked(' ', f);
	} else if (PF(t, PID) || PF(t, TID)) {
		ff_dec(f, PF(t, PID) ? (int)s->pid : (int)s->tid, 5, false);
		putc_unlocked(' ', f);
	}
	if (PF(t, CPU))
		fprintf(f, "[%03d] ", (int)s->cpu);
	if (PF(t, MISC)) {
		/* perf tests each mode value as a bit pattern: HV shows "KUH" */
		unsigned m = s->misc, n = 0;
		static const struct { unsigned v; char c; } modes[] = {
			{ 1, 'K' }, { 2, 'U' }, { 3, 'H' }, { 4, 'G' }, { 5, 'g' },
		};
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			if ((m & modes[i].v) == modes[i].v) {
				fputc(modes[i].c, f);
				n++;
			}
		bool bit13 = m & HWPROF_MISC_MMAP_DATA; /* also COMM_EXEC, SWITCH_OUT */
		if ((rec_type == HWPROF_RECORD_MMAP || rec_type == HWPROF_RECORD_MMAP2) && bit13) {
			fputc('M', f);
			n++;
		} else if (rec_type == HWPROF_RECORD_COMM && bit13) {
			fputc('E', f);
			n++;
		} else if ((rec_type == HWPROF_RECORD_SWITCH || rec_type == HWPROF_RECORD_SWITCH_CPU_WIDE) && bit13) {
			fputc('S', f);
			n++;
			if (m & (1u << 14)) { /* SWITCH_OUT_PREEMPT */
				fputc('p', f);
				n++;
			}
		}
		fprintf(f, "%*s", 6 - (int)n, " ");
	}
	if (PF(t, TOD) && p->have_clock)
		print_tod(p, s->time);
	if (PF(t, TIME))
		print_time(p, script_printer_shown_time(p, s->time));
}

int script_print_sample(struct script_printer *p, const struct hwprof_event *ev)
{
	const struct hwprof_sample *s = &ev->sample;
	const struct hwprof_evsel *es = s->evsel;
	if (!es)
		return 0;
	int t = script_output_type(es->attr.type);
	if (!p->o->out[t].fields)
		return 0;
	FILE *f = p->f;
	char buf[256];
	const struct hwprof_attr *a = &es->attr;
	bool has_cc = (a->sample_type & HWPROF_SAMPLE_CALLCHAIN) || p->synth_cc;
	const char *comm = hwprof_session_thread_comm(p->s, (int32_t)s->pid, (int32_t)s->tid);
	print_start(p, t, s, comm, has_cc, HWPROF_RECORD_SAMPLE);
	if (PF(t, PERIOD)) {
		ff_udec(f, (a->sample_type & HWPROF_SAMPLE_PERIOD) || (s->sample_type & HWPROF_SAMPLE_READ)
				   ? s->period : a->sample_period, 10, false);
		putc_unlocked(' ', f);
	}
	if (PF(t, EVNAME)) {
		ff_str(f, evname(es, buf, sizeof(buf)), script_printer_name_width(p));
		fputs_unlocked(": ", f);
	}
	if (p->o->print_flags) /* no branch flags in these samples */
		fprintf(f, "  %-21s ", "");
	if (PF(t, TRACE) && s->raw && p->trace) {
		/* perf's event_format__fprintf: the print-fmt text, as is */
		const char *text;
		int n = hwprof_trace_print(p->trace, a->config, (int)s->cpu, s->raw, s->raw_size, &text);
		if (n > 0)
			fwrite(text, 1, (size_t)n, f);
		trace_print_warnings(p->trace, &p->trace_warned, &p->trace_first_warned);
	}
	if (PF(t, ADDR)) {
		fprintf(f, "%16llx", (unsigned long long)s->addr);
		/* page faults: the address is code or data of the process */
		if (a->type == 1 && (a->config == 2 || a->config == 5 || a->config == 6)) {
			unsigned cpumode = s->misc & HWPROF_MISC_CPUMODE_MASK;
			struct hwprof_map_info mi;
			char level;
			if (script_printer_find_map(p, (int32_t)s->pid, (int32_t)s->tid, cpumode, s->addr, &mi,
						    &level) != 1) {
				unsigned other = cpumode == HWPROF_MISC_KERNEL ? HWPROF_MISC_USER : HWPROF_MISC_KERNEL;
				bool kaddr = s->addr >= 0x8000000000000000ULL;
				if ((cpumode == HWPROF_MISC_KERNEL) != kaddr)
					cpumode = other;
			}
			print_ip_sym(p, t, (int32_t)s->pid, (int32_t)s->tid, cpumode, s->addr, false);
		}
	}
	if (PF(t, DATA_SRC)) {
		/* unsampled: perf's PERF_MEM_DATA_SRC_NONE (all N/A) */
		char out[100];
		uint64_t ds = (a->sample_type & HWPROF_SAMPLE_DATA_SRC) ? s->data_src : 0x5080021;
		fwrite(out, 1, script_data_src_field(ds, &p->data_src_width, out), f);
	}
	if (PF(t, WEIGHT))
		fprintf(f, "%16llu", (unsigned long long)s->weight);
	if (PF(t, INS_LAT))
		fprintf(f, "%16u", (unsigned)s->ins_lat);
	if (PF(t, IP)) {
		bool cursor = p->use_callchain && has_cc && s->callchain;
		/* perf's unwinder refuses --max-stack 0: no callchain at all
		 * then (a one-line sample), where it would have unwound */
		const uint64_t unw = HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
		if (p->o->max_stack == 0 && (a->sample_type & unw) == unw && s->user_regs.abi && s->stack_size &&
		    s->stack_dyn_size)
			cursor = false;
		fputc(cursor ? '\n' : ' ', f);
		if (cursor) {
			/* perf resolves the sample's own address first, which
			 * may load the kernel's symbols: its callchain's
			 * frames see the kernel's maps as they are then */
			struct hwprof_map_info mi;
			char level;
			if (!hwprof_symbols_kernel_loaded(p->syms))
				script_printer_find_map(p, (int32_t)s->pid, (int32_t)s->tid,
							s->misc & HWPROF_MISC_CPUMODE_MASK, s->ip, &mi, &level);
			script_print_callchain(p, t, s);
		} else {
			fprintf(f, "%16llx", (unsigned long long)s->ip);
			print_ip_sym(p, t, (int32_t)s->pid, (int32_t)s->tid, s->misc & HWPROF_MISC_CPUMODE_MASK, s->ip,
				     false);
			if (PF(t, SRCLINE))
				script_print_srcline(p, (int32_t)s->pid, (int32_t)s->tid,
						     s->misc & HWPROF_MISC_CPUMODE_MASK, s->ip);
		}
	}
	if (PF(t, IREGS))
		print_regs_script(f, &s->intr_regs, p->arch);
	if (PF(t, UREGS))
		print_regs_script(f, &s->user_regs, p->arch);
	if (PF(t, BRSTACK) || PF(t, BRSTACKSYM) || PF(t, BRSTACKOFF))
		print_brstack(p, t, s);
	if (PF(t, INSN) || PF(t, INSNLEN))
		print_insn(p, t, s);
	if (PF(t, BRSTACKINSN) || PF(t, BRSTACKINSNLEN))
		script_print_brstackinsn(p, t, s);
	if (PF(t, PHYS_ADDR))
		fprintf(f, "%16llx", (unsigned long long)s->phys_addr);
	fputc('\n', f);
	if (PF(t, SRCCODE))
		print_srccode(p, s);
	return 0;
}

int script_print_side_event(struct script_printer *p, const struct hwprof_event *ev, const struct report_filter *flt)
{
	const struct hwprof_record *r = &ev->rec;
	const uint8_t *d = r->data;
	struct hwprof_sample sm = ev->sample;
	int32_t pid = (int32_t)sm.pid, tid = (int32_t)sm.tid;
	uint64_t when = 0;
	/* the records' own pid/tid (and FORK/EXIT's time) stand in where the
	 * file has no sample_id_all */
	switch (r->type) {
	case HWPROF_RECORD_COMM:
	case HWPROF_RECORD_MMAP:
	case HWPROF_RECORD_MMAP2:
	case HWPROF_RECORD_NAMESPACES:
		if (r->size < 16)
			return 0;
		pid = (int32_t)ld32(d + 8);
		tid = (int32_t)ld32(d + 12);
		break;
	case HWPROF_RECORD_FORK:
	case HWPROF_RECORD_EXIT:
		if (r->size < 32)
			return 0;
		pid = (int32_t)ld32(d + 8);
		tid = (int32_t)ld32(d + 16);
		when = ld64(d + 24);
		break;
	default:
		break;
	}
	/* perf prints these after processing them, the others before */
	if (r->type != HWPROF_RECORD_EXIT && r->type != HWPROF_RECORD_LOST && r->type != HWPROF_RECORD_SWITCH &&
	    r->type != HWPROF_RECORD_SWITCH_CPU_WIDE)
		hwprof_session_apply(p->s);
	/* perf's evlist__id2evsel(): the first event for id 0 or one event */
	const struct hwprof_evsel *es = sm.evsel;
	if (!es && (!sm.id || hwprof_perfdata_nr_evsels(p->h) == 1) && hwprof_perfdata_nr_evsels(p->h))
		es = hwprof_perfdata_evsel(p->h, 0);
	if (es && !(es->attr.flags & (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL))) {
		sm.cpu = 0;
		sm.time = when;
		sm.pid = (uint32_t)pid;
		sm.tid = (uint32_t)tid;
	}
	if (flt && report_filter_drops_cpu(flt, (int32_t)sm.cpu))
		return 0;
	if (es) {
		int t = script_output_type(es->attr.type);
		const char *comm = tid != -1 ? hwprof_session_thread_comm(p->s, pid, tid) : NULL;
		print_start(p, t, &sm, comm, (es->attr.sample_type & HWPROF_SAMPLE_CALLCHAIN) || p->synth_cc, r->type);
	}
	if (r->type == HWPROF_RECORD_LOST && r->size >= 24) /* perf_event__fprintf_lost(), not -D's text */
		fprintf(p->f, "PERF_RECORD_LOST lost %llu\n", (unsigned long long)ld64(d + 16));
	else
		print_record_text(p->f, p->s, ev);
	return 0;
}
