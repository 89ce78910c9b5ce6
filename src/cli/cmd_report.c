/* hwprof report: perf report's options. --stdio (the default) prints the
 * overhead table; -D/--dump-raw-trace prints every record;
 * --header/--header-only print the file header. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/kptr_warn.h"
#include "cli/session_warn.h"
#include "cli/print_dump.h"
#include "cli/print_header.h"
#include "cli/print_report.h"
#include "cli/print_stats.h"
#include "cli/report_tasks.h"
#include "cli/tool_fail.h"
#include "cli/progress.h"
#include "cli/report_filter.h"
#include "cli/report_group.h"
#include "cli/report_dyn.h"
#include "cli/report_run.h"
#include "hwprof/itrace.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof report [<options>]\n\n"
		   "    -c, --comms <comm[,comm...]>\n"
		   "                          only consider symbols in these comms\n"
		   "    -C, --cpu <cpu>       list of cpus to profile\n"
		   "    -d, --dsos <dso[,dso...]>\n"
		   "                          only consider symbols in these dsos\n"
		   "    -D, --dump-raw-trace  dump raw trace in ASCII\n"
		   "    -b, --branch-stack    perf's branch view: an entry per branch of the samples' stacks\n"
		   "                          (the default for files with branch stacks)\n"
		   "        --no-branch-stack use the normal view for files with branch stacks\n"
		   "    -F, --fields <key[,keys...]>\n"
		   "                          output field(s): overhead sample period and the sort keys\n"
		   "    -g, --call-graph <print_type,threshold,order,sort_key,value>\n"
		   "                          graph, fractal, flat, folded or none, a threshold (percent),\n"
		   "                          a print limit, caller or callee,\n"
		   "                          function, percent, period or count (default: graph,0.5,caller,function,percent)\n"
		   "    -G, --inverted        alias for inverted call graph (caller order)\n"
		   "        --children        accumulate callchains of children and show total overhead as well\n"
		   "        --no-children     do not accumulate callchains of children\n"
		   "        --itrace[=<opts>] Instruction Tracing options for Arm SPE (i[period] b f m t a M g)\n"
		   "                          and Intel PT (i<N>i b c r e s g Z)\n"
		   "        --no-itrace       do not decode AUX trace data\n"
		   "        --header          show the data header\n"
		   "        --header-only     show only the data header\n"
		   "    -I, --show-info       with --header: display extended information\n"
		   "    -i, --input <file>    input file name (\"-\" for stdin)\n"
		   "        --max-stack <n>   callchain entries to parse (default 127)\n"
		   "    -n, --show-nr-samples show the number of samples for each symbol\n"
		   "        --percent-limit <percent>\n"
		   "                          don't show entries under that percent\n"
		   "        --percentage <relative|absolute>\n"
		   "                          how to display percentage of filtered entries\n"
		   "        --pid <pid[,pid...]>\n"
		   "                          only consider symbols in these pids\n"
		   "        --hierarchy       show entries in a hierarchy (a level per sort key)\n"
		   "    -q, --quiet           do not show any message\n"
		   "    -t, --field-separator <separator>\n"
		   "                          separate the columns with it (no dotted line; it reads '.'\n"
		   "                          where a column's text holds it)\n"
		   "    -T, --threads         show per-thread event counters (from the file's READ records)\n"
		   "        --pretty <key>    pretty printing style of -T: normal, raw\n"
		   "    -S, --symbols <symbol[,symbol...]>\n"
		   "                          only consider these symbols\n"
		   "        --tid <tid[,tid...]>\n"
		   "                          only consider symbols in these tids\n"
		   "    -s, --sort <key[,key2...]>\n"
		   "                          sort by key(s): overhead overhead_sys overhead_us overhead_guest_sys\n"
		   "                          overhead_guest_us overhead_children sample period pid comm dso\n"
		   "                          symbol parent cpu socket srcline srcfile local_weight weight\n"
		   "                          transaction trace symbol_size dso_size cgroup cgroup_id time\n"
		   "                          code_page_size ins_lat local_ins_lat addr, the branch and memory\n"
		   "                          keys in those views (default: comm,dso,symbol; +KEYS adds to it)\n"
		   "        --group-sort-idx <n>\n"
		   "                          sort a group's entries by the event at index n in the group\n"
		   "        --stdio           use the stdio interface\n"
		   "        --symfs <directory>\n"
		   "                          look for files with symbols relative to this directory\n"
		   "    -k, --vmlinux <file>  vmlinux pathname\n"
		   "        --ignore-vmlinux  don't load vmlinux even if found\n"
		   "        --kallsyms <file> kallsyms pathname\n"
		   "        --buildid-dir <dir>\n"
		   "                          build-id cache directory (default ~/.debug)\n"
		   "        --no-demangle     do not demangle symbol names\n"
		   "        --group           show event group information together (the default\n"
		   "                          for files with groups; --no-group: one section per event)\n\n");
}

static const char *display_name(const char *input)
{
	return strcmp(input, "-") ? input : "<stdin>";
}

/* --header-only: the file header as perf prints it. */
/* Feature sections newer perf versions write (bits past PMU_CAPS) are
 * skipped by the printers as perf skips them; say so once on stderr so a
 * reader knows the file had more than was shown. Called after the records
 * were read: in pipe mode features arrive as records. */
static void note_unknown_features(const char *input, const struct hwprof_perfdata *h)
{
	for (unsigned f = 0; f < HWPROF_FEAT_BITS; f++) {
		const uint8_t *p;
		uint64_t size;
		/* 32: the end-of-features marker of pipe mode, not a section */
		if (f && f != 32 && !hwprof_feat_name(f) && hwprof_perfdata_feature(h, f, &p, &size, NULL) == 1)
			fprintf(stderr,
				"hwprof report: %s: note: feature section %u (%llu bytes) is unknown to this version, "
				"skipped\n",
				display_name(input), f, (unsigned long long)size);
	}
}

static int report_header(const char *input, bool full)
{
	struct hwprof_error err;
	struct hwprof_perfdata *h;
	if (hwprof_perfdata_open(&h, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", display_name(input),
			(unsigned long long)err.offset, err.msg);
		return 1;
	}
	int r = print_header_opts(stdout, h, true, full);
	fflush(stdout);
	if (r >= 0)
		note_unknown_features(input, h);
	if (r < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(h);
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", display_name(input),
			(unsigned long long)e->offset, e->code ? e->msg : hwprof_strerror(r));
	}
	hwprof_perfdata_close(h);
	return r < 0;
}

/* perf's sort dimensions in the order it tries them: a key is the first
 * whose name the token begins (case aside); branch keys exist in its
 * branch view only, memory keys in its memory mode only. */
enum key_table { KT_COMMON, KT_HPP, KT_BRANCH, KT_MEM };
static const struct { const char *name; enum key_table t; } perf_keys[] = {
	{ "pid", KT_COMMON }, { "comm", KT_COMMON }, { "dso", KT_COMMON }, { "symbol", KT_COMMON },
	{ "parent", KT_COMMON }, { "cpu", KT_COMMON }, { "socket", KT_COMMON }, { "srcline", KT_COMMON },
	{ "srcfile", KT_COMMON }, { "local_weight", KT_COMMON }, { "weight", KT_COMMON },
	{ "transaction", KT_COMMON }, { "trace", KT_COMMON }, { "symbol_size", KT_COMMON },
	{ "dso_size", KT_COMMON }, { "cgroup", KT_COMMON }, { "cgroup_id", KT_COMMON }, { "ipc_null", KT_COMMON },
	{ "time", KT_COMMON }, { "code_page_size", KT_COMMON }, { "local_ins_lat", KT_COMMON },
	{ "ins_lat", KT_COMMON }, { "local_p_stage_cyc", KT_COMMON }, { "p_stage_cyc", KT_COMMON },
	{ "addr", KT_COMMON },
	{ "overhead", KT_HPP }, { "overhead_sys", KT_HPP }, { "overhead_us", KT_HPP },
	{ "overhead_guest_sys", KT_HPP }, { "overhead_guest_us", KT_HPP }, { "overhead_children", KT_HPP },
	{ "sample", KT_HPP }, { "period", KT_HPP },
	{ "dso_from", KT_BRANCH }, { "dso_to", KT_BRANCH }, { "symbol_from", KT_BRANCH }, { "symbol_to", KT_BRANCH },
	{ "mispredict", KT_BRANCH }, { "in_tx", KT_BRANCH }, { "abort", KT_BRANCH }, { "cycles", KT_BRANCH },
	{ "srcline_from", KT_BRANCH }, { "srcline_to", KT_BRANCH }, { "ipc_lbr", KT_BRANCH },
	{ "addr_from", KT_BRANCH }, { "addr_to", KT_BRANCH },
	{ "symbol_daddr", KT_MEM }, { "symbol_iaddr", KT_MEM }, { "dso_daddr", KT_MEM }, { "locked", KT_MEM },
	{ "tlb", KT_MEM }, { "mem", KT_MEM }, { "snoop", KT_MEM }, { "dcacheline", KT_MEM },
	{ "phys_daddr", KT_MEM }, { "data_page_size", KT_MEM }, { "blocked", KT_MEM },
};

/* perf's usage lines of -s and -F, shown after a refused key */
static const char sort_usage[] =
	"    -s, --sort <key[,key2...]>\n"
	"                          sort by key(s): overhead overhead_sys overhead_us overhead_guest_sys\n"
	"\t\t\t  overhead_guest_us overhead_children sample period\n"
	"\t\t\t  pid comm dso symbol parent cpu socket srcline srcfile\n"
	"\t\t\t  local_weight weight transaction trace symbol_size\n"
	"\t\t\t  dso_size cgroup cgroup_id ipc_null time code_page_size\n"
	"\t\t\t  local_ins_lat ins_lat local_p_stage_cyc p_stage_cyc\n"
	"\t\t\t  addr dso_from dso_to symbol_from symbol_to mispredict\n"
	"\t\t\t  abort in_tx cycles srcline_from srcline_to ipc_lbr\n"
	"\t\t\t  addr_from addr_to symbol_daddr dso_daddr locked tlb\n"
	"\t\t\t  mem snoop dcacheline symbol_iaddr phys_daddr data_page_size\n"
	"\t\t\t  blocked\n";
static const char fields_usage[] =
	"    -F, --fields <key[,keys...]>\n"
	"                          output field(s): overhead period sample  overhead overhead_sys\n"
	"\t\t\t  overhead_us overhead_guest_sys overhead_guest_us overhead_children\n"
	"\t\t\t  sample period pid comm dso symbol parent cpu socket\n"
	"\t\t\t  srcline srcfile local_weight weight transaction trace\n"
	"\t\t\t  symbol_size dso_size cgroup cgroup_id ipc_null time\n"
	"\t\t\t  code_page_size local_ins_lat ins_lat local_p_stage_cyc\n"
	"\t\t\t  p_stage_cyc addr dso_from dso_to symbol_from symbol_to\n"
	"\t\t\t  mispredict abort in_tx cycles srcline_from srcline_to\n"
	"\t\t\t  ipc_lbr addr_from addr_to symbol_daddr dso_daddr locked\n"
	"\t\t\t  tlb mem snoop dcacheline symbol_iaddr phys_daddr data_page_size\n"
	"\t\t\t  blocked\n";

/* perf's usage text after a sorting error: -s's lines when --sort was
 * given, -F's when --fields was (the heading once) */
static void sort_usage_lines(bool sort, bool fields)
{
	if (sort || fields)
		fputs("\n Usage: perf report [<options>]\n\n", stderr);
	if (sort)
		fputs(sort_usage, stderr);
	if (fields)
		fputs(fields_usage, stderr);
}

enum { KEY_OK, KEY_SKIP, KEY_INVALID, KEY_UNKNOWN, KEY_UNSUPPORTED, KEY_DYNAMIC, KEY_NO_CACHELINE };

/* One token as perf's sort_dimension__add() (or output_field_add() for
 * -F) takes it. mode: 0 normal, 1 branch view, 2 memory mode; tp: the
 * file has tracepoint events. */
static int lookup_key(const char *tok, bool fields, int mode, bool tp, enum hwprof_hist_key *out)
{
	/* perf skips the pipeline-stage keys where the architecture has
	 * none (all but powerpc) */
	if (!fields && (!strcmp(tok, "local_p_stage_cyc") || !strcmp(tok, "p_stage_cyc")))
		return KEY_SKIP;
	size_t n = strlen(tok);
	/* -F tries the output fields before the sort keys */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(perf_keys) / sizeof(perf_keys[0]); i++) {
			bool hpp = perf_keys[i].t == KT_HPP;
			if ((fields ? hpp != (pass == 0) : pass == 1) || strncasecmp(tok, perf_keys[i].name, n))
				continue;
			if ((perf_keys[i].t == KT_BRANCH && mode != 1) || (perf_keys[i].t == KT_MEM && mode != 2))
				return KEY_INVALID;
			if (!strcmp(perf_keys[i].name, "dcacheline") && !report_cacheline_size())
				return KEY_NO_CACHELINE;
			int k = hwprof_hist_key_parse(perf_keys[i].name);
			if (k < 0)
				return KEY_UNSUPPORTED;
			*out = (enum hwprof_hist_key)k;
			return KEY_OK;
		}
	}
	if (fields)
		return KEY_UNKNOWN;
	/* perf's tracepoint fields ([event.]field[/raw], trace_fields):
	 * without tracepoint events only "trace_fields" (adding nothing) */
	if (tp)
		return KEY_DYNAMIC;
	return !strcmp(tok, "trace_fields") || !strcmp(tok, "trace_fields/raw") ? KEY_SKIP : KEY_UNKNOWN;
}

/* The --sort and -F lists as perf's setup_sorting() reads them (a sort
 * order beginning with '+' extends the mode's default). Returns 0, 1
 * after perf's refusal (its message and usage lines; the caller exits
 * with status 0) or -1 after a refusal of ours. */
struct key_lists {
	enum hwprof_hist_key sort[REPORT_MAX_COLS], fields[REPORT_MAX_COLS];
	int ns, nf;
	bool sort_given, fields_given;
	bool tp_only;          /* every event a tracepoint: perf's tracepoint
	                        * mode, its default order "trace" */
	char sort_order[1200]; /* the order perf shows in its memory mode */
};

static int resolve_list(const char *list, bool fields, int mode, bool tp, struct report_dyn *dk,
			enum hwprof_hist_key *out, int *nout)
{
	char buf[1200];
	int n = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	/* perf splits --sort at '{', '}', ',' and ' ' (its hierarchy
	 * groups), -F at ',' and ' ' */
	const char *seps = fields ? ", " : "{}, ";
	for (char *p = buf, *tok; p;) {
		tok = p;
		p = strpbrk(p, seps);
		if (p)
			*p++ = 0;
		if (!*tok)
			continue;
		enum hwprof_hist_key k;
		int r = lookup_key(tok, fields, mode, tp, &k);
		if (r == KEY_SKIP)
			continue;
		if (r == KEY_NO_CACHELINE) {
			fputs("Error:\nThe \"dcacheline\" --sort key needs to know the cacheline size and it couldn't be "
			      "determined on this system", stderr);
			return 1;
		}
		if (r == KEY_DYNAMIC && dk && dk->t) {
			int d = report_dyn_add(dk, tok, out, &n, REPORT_MAX_COLS);
			if (d < 0)
				return -1;
			if (d > 0)
				continue;
			r = KEY_UNKNOWN; /* perf: no such event or field */
		} else if (r == KEY_DYNAMIC) {
			r = KEY_UNSUPPORTED; /* a pipe's formats come too late */
		}
		if (r == KEY_INVALID || r == KEY_UNKNOWN) {
			fprintf(stderr, "Error:\n%s --%s key: `%s'", r == KEY_INVALID ? "Invalid" : "Unknown",
				fields ? "fields" : "sort", tok);
			return 1;
		}
		if (r == KEY_UNSUPPORTED) {
			fprintf(stderr, "hwprof report: %s key '%s' is not supported in this build\n",
				fields ? "--fields" : "--sort", tok);
			return -1;
		}
		bool dup = false;
		for (int i = 0; i < n; i++)
			dup |= out[i] == k;
		if (dup)
			continue; /* perf takes a dimension once */
		if (n == REPORT_MAX_COLS) {
			fprintf(stderr, "hwprof report: too many %s keys\n", fields ? "--fields" : "--sort");
			return -1;
		}
		out[n++] = k;
	}
	*nout = n;
	return 0;
}

static int resolve_keys(const char *sort, const char *fields, int mode, bool tp, bool tp_only, struct report_dyn *dk,
			struct key_lists *kl)
{
	memset(kl, 0, sizeof(*kl));
	kl->tp_only = tp_only;
	kl->sort_given = sort != NULL;
	kl->fields_given = fields != NULL;
	if (sort && strstr(sort, "ipc")) {
		/* perf: its IPC keys are its own to add; just the usage */
		sort_usage_lines(true, false);
		return 1;
	}
	/* perf 6.1 appends its IPC column to sort orders naming "symbol" */
	char order[1100];
	if (sort && strstr(sort, "symbol") && mode != 1 && strlen(sort) < 1024)
		snprintf(order, sizeof(order), "%s,ipc_null", sort);
	else
		snprintf(order, sizeof(order), "%s", sort ? sort : "");
	if (sort && order[0] == '+') {
		/* perf's default orders: normal, branch view, memory mode */
		static const char mem_order[] = "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,"
						"blocked,local_ins_lat,local_p_stage_cyc";
		static const char *const defaults[] = { "comm,dso,symbol", "comm,dso_from,symbol_from,symbol_to,cycles",
							mem_order };
		snprintf(kl->sort_order, sizeof(kl->sort_order), "%s,%s", tp_only ? "trace" : defaults[mode],
			 order + 1);
	} else {
		snprintf(kl->sort_order, sizeof(kl->sort_order), "%s", order);
	}
	int r = 0;
	if (sort)
		r = resolve_list(kl->sort_order, false, mode, tp, dk, kl->sort, &kl->ns);
	if (r == 0 && fields)
		r = resolve_list(fields, true, mode, tp, NULL, kl->fields, &kl->nf);
	if (r == 1)
		sort_usage_lines(sort != NULL, fields != NULL);
	return r;
}

static bool has_key(const enum hwprof_hist_key *v, size_t n, enum hwprof_hist_key k)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == k)
			return true;
	return false;
}

struct report_args;
static int parse_graph(struct report_args *a, const char *arg);

struct report_args {
	const char *input;
	const char *sort, *fields;
	bool show_nr, show_period, quiet, header, children_set, children, graph_none, graph_given;
	bool threads, pretty_raw;      /* -T, --pretty raw */
	bool no_inline;             /* --no-inline: unwound frames not expanded */
	bool hide_unresolved;       /* -U */
	bool hierarchy;             /* --hierarchy */
	const char *field_sep;      /* -t */
	bool order_set, caller, inverted;
	double cc_min_percent;
	int graph_mode;             /* RG_GRAPH, RG_FLAT, RG_FOLDED, RG_FRACTAL */
	bool value_period, value_count;
	unsigned chain_key;         /* 0 (function) or HWPROF_HIST_KEY_* */
	const char *time_str;       /* --time */
	uint32_t print_limit;
	struct hwprof_itrace_opts itrace;
	int max_stack;              /* < 0: the default */
	float percent_limit;
	struct hwprof_symcfg cfg;
	struct report_filter filter;
	const char *pid_arg, *tid_arg, *cpu_arg; /* parsed when perf parses them */
	bool relative;              /* --percentage relative */
	bool mem_mode;              /* --mem-mode */
	int branch_mode;            /* -1: the file decides, 0: --no-branch-stack,
	                             * 1: -b/--branch-stack */
	bool group_set, group;      /* --group / --no-group given; which */
	uint64_t time_quantum;      /* --time-quantum (ns); the time key's buckets */
	bool nanosecs;              /* --ns */
	int group_sort_idx;         /* --group-sort-idx: order a group's
	                             * entries by this member first */
};

static const char group_sort_idx_usage[] =
	"        --group-sort-idx <n>\n"
	"                          Sort the output by the event at the index n in group. If n is invalid, sort by "
	"the first event. WARNING: should be used on grouped events.\n";

/* perf's column and sort lists: without -F, "overhead" (and -n's
 * "sample") then the sort keys, sorted by overhead, the keys, then the
 * other columns; with -F, exactly those columns (plus sort keys not among
 * them), sorted by the --sort keys then the columns in order. */
static int build_lists(const struct report_args *a, const struct key_lists *kl, bool children, bool branch,
		       struct report_layout *l, enum hwprof_hist_key *sort, size_t *nr_sort)
{
	enum hwprof_hist_key keys[REPORT_MAX_COLS];
	const enum hwprof_hist_key *fl = kl->fields;
	int nk = kl->ns, nf = kl->nf;
	memcpy(keys, kl->sort, sizeof(keys));
	size_t ns = 0;
	l->nr_cols = 0;
	if (!a->fields) {
		if (!a->sort && kl->tp_only) {
			keys[0] = HWPROF_HK_TRACE;
			nk = 1;
		} else if (!a->sort && a->mem_mode) {
			/* perf's default memory sort order (its last key,
			 * local_p_stage_cyc, exists on powerpc only) */
			static const enum hwprof_hist_key mem[] = {
				HWPROF_HK_LOCAL_WEIGHT, HWPROF_HK_MEM,	   HWPROF_HK_SYM,   HWPROF_HK_DSO,
				HWPROF_HK_SYM_DADDR,	HWPROF_HK_DSO_DADDR, HWPROF_HK_SNOOP, HWPROF_HK_TLB,
				HWPROF_HK_LOCKED,	HWPROF_HK_BLOCKED,   HWPROF_HK_LOCAL_INS_LAT,
			};
			memcpy(keys, mem, sizeof(mem));
			nk = (int)(sizeof(mem) / sizeof(mem[0]));
		} else if (!a->sort && branch) {
			/* perf's default branch sort order */
			static const enum hwprof_hist_key br[] = { HWPROF_HK_COMM, HWPROF_HK_DSO_FROM, HWPROF_HK_SYM_FROM,
								   HWPROF_HK_SYM_TO, HWPROF_HK_CYCLES };
			memcpy(keys, br, sizeof(br));
			nk = (int)(sizeof(br) / sizeof(br[0]));
		} else if (!a->sort) {
			keys[0] = HWPROF_HK_COMM;
			keys[1] = HWPROF_HK_DSO;
			keys[2] = HWPROF_HK_SYM;
			nk = 3;
		}
		if (children)
			l->cols[l->nr_cols++] = HWPROF_HK_CHILDREN;
		l->cols[l->nr_cols++] = HWPROF_HK_OVERHEAD;
		if (a->show_nr)
			l->cols[l->nr_cols++] = HWPROF_HK_SAMPLES;
		if (a->show_period) /* perf_hpp__init(): after the samples */
			l->cols[l->nr_cols++] = HWPROF_HK_PERIOD;
		/* perf's setup_overhead(): "overhead" (and in children mode
		 * "overhead_children") put first unless the order names them,
		 * found as text (overhead_sys names "overhead" too) */
		bool ovh = kl->sort_given && strstr(kl->sort_order, "overhead");
		bool ovh_children = kl->sort_given && strstr(kl->sort_order, "overhead_children");
		if (children && !ovh_children)
			sort[ns++] = HWPROF_HK_CHILDREN;
		if (!ovh)
			sort[ns++] = HWPROF_HK_OVERHEAD;
		for (int i = 0; i < nk; i++) {
			if (!has_key(l->cols, l->nr_cols, keys[i]))
				l->cols[l->nr_cols++] = keys[i];
			if (!has_key(sort, ns, keys[i]))
				sort[ns++] = keys[i];
		}
	} else {
		for (int i = 0; i < nf; i++)
			if (!has_key(l->cols, l->nr_cols, fl[i]))
				l->cols[l->nr_cols++] = fl[i];
		if (a->show_nr && !has_key(l->cols, l->nr_cols, HWPROF_HK_SAMPLES)) {
			fprintf(stderr, "hwprof report: -n with -F is not supported; add 'sample' to -F\n");
			return -1;
		}
		if (a->show_period && !has_key(l->cols, l->nr_cols, HWPROF_HK_PERIOD)) {
			fprintf(stderr, "hwprof report: --show-total-period with -F is not supported; add 'period' to -F\n");
			return -1;
		}
		for (int i = 0; i < nk; i++) {
			sort[ns++] = keys[i];
			if (!has_key(l->cols, l->nr_cols, keys[i])) {
				if (l->nr_cols == REPORT_MAX_COLS)
					return -1;
				l->cols[l->nr_cols++] = keys[i];
			}
		}
	}
	for (size_t i = 0; i < l->nr_cols; i++)
		if (!has_key(sort, ns, l->cols[i]))
			sort[ns++] = l->cols[i];
	*nr_sort = ns;
	return 0;
}

/* Whether any event samples callchains (perf then defaults to children
 * mode with call graphs). */
static bool has_callchains(struct hwprof_perfdata *h)
{
	uint32_t n = hwprof_perfdata_nr_evsels(h);
	for (uint32_t i = 0; i < n; i++)
		if (hwprof_perfdata_evsel(h, i)->attr.sample_type & HWPROF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* The columns perf elides (sort__setup_elide(): a filter naming a single
 * comm, dso or symbol), in column order: their keys and values. */
static size_t elided_cols(const struct report_args *a, const struct report_layout *l, enum hwprof_hist_key *k,
			  const char **val)
{
	size_t n = 0;
	for (size_t i = 0; i < l->nr_cols && n < 3; i++) {
		const struct str_list *one = l->cols[i] == HWPROF_HK_COMM ? &a->filter.comms
					     : l->cols[i] == HWPROF_HK_DSO ? &a->filter.dsos
					     : l->cols[i] == HWPROF_HK_SYM ? &a->filter.syms : NULL;
		if (one && one->n == 1) {
			k[n] = l->cols[i];
			val[n++] = one->v[0];
		}
	}
	return n;
}

static void print_elided(const enum hwprof_hist_key *k, const char **val, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("# %s: %s\n", k[i] == HWPROF_HK_COMM ? "comm" : k[i] == HWPROF_HK_DSO ? "dso" : "symbol", val[i]);
}

static const char aux_msg[] = "the file holds AUX trace data other than Arm SPE and Intel PT, which report "
			      "does not decode in this build; use 'hwprof report -D'";

/* perf's name of group leader i's section */
static int group_desc(struct hwprof_perfdata *h, const struct report_groups *g, uint32_t i, char *buf, size_t len)
{
	const char **names = calloc(g->n, sizeof(*names));
	char (*nb)[256] = calloc(g->n, sizeof(*nb));
	if (!names || !nb) {
		free(names);
		free(nb);
		return -1;
	}
	for (uint32_t j = 0; j < g->n; j++)
		names[j] = hwprof_evsel_name(hwprof_perfdata_evsel(h, j), nb[j], sizeof(nb[j]));
	report_groups_desc(g, i, names, buf, len);
	free(names);
	free(nb);
	return 0;
}

/* perf's refusals of an option the file has no data for: its first lines
 * (unless quiet), the message on stderr, and its exit status 0. */
static int perf_refusal(struct hwprof_session *s, bool quiet, const char *msg)
{
	hwprof_session_close(s);
	if (!quiet)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", stdout);
	fflush(stdout);
	fputs(msg, stderr);
	return 0;
}

/* The whole-file tools: --stats (perf's per-record-type counts, without
 * warnings: its stats mode sets no_warn) and --tasks / --mmaps (the thread
 * tree after every record; perf's tasks tool prints no warnings either).
 * Both stop on a record perf's tools cannot take. */
enum file_tool { TOOL_STATS, TOOL_TASKS, TOOL_MMAPS };

static int report_file_tool(const char *input, bool header, bool full, enum file_tool tool)
{
	const char *shown = display_name(input);
	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", shown, (unsigned long long)err.offset,
			err.msg);
		return 1;
	}
	if (header) /* perf prints it before reading the records */
		print_header_now(stdout, hwprof_session_data(s), full);
	struct hwprof_event ev;
	int rc;
	bool pipe = hwprof_perfdata_info(hwprof_session_data(s))->pipe;
	while ((rc = hwprof_session_next(s, &ev)) > 0) {
		if (tool_fails(&ev)) {
			/* perf's stats tool processes records unordered */
			tool_fail_print(&ev, tool == TOOL_STATS, tool == TOOL_STATS && pipe);
			hwprof_session_close(s);
			return 0;
		}
	}
	int status = 0;
	if (rc < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(hwprof_session_data(s));
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", shown, (unsigned long long)e->offset,
			e->msg[0] ? e->msg : hwprof_strerror(rc));
		status = 1;
	} else if (tool == TOOL_STATS) {
		print_session_stats(stdout, s);
	} else if (print_tasks(stdout, s, tool == TOOL_MMAPS) < 0) {
		status = 1;
	}
	hwprof_session_close(s);
	return status;
}

static int report_stdio(const struct report_args *a, bool full)
{
	const char *input = a->input, *shown = display_name(input);
	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", shown, (unsigned long long)err.offset,
			err.msg);
		return 1;
	}
	struct hwprof_perfdata *h = hwprof_session_data(s);
	hwprof_session_split_read(s, true); /* a READ sample per group member, as perf */
	/* perf: callchains in the file turn on call graphs and, unless
	 * --no-children, children mode; -g none keeps children, drops graphs */
	const uint8_t *fd;
	uint64_t fsz;
	bool pipe = hwprof_perfdata_info(h)->pipe;
	bool aux = hwprof_perfdata_feature(h, HWPROF_FEAT_AUXTRACE, &fd, &fsz, NULL) == 1;
	/* perf: AUX files decoded with the default --itrace get callchains
	 * (so children mode), as does --itrace with g */
	/* a pipe's events come later: perf draws the callchains of whatever
	 * samples have them, and never accumulates children there */
	bool cc = pipe || has_callchains(h) || a->itrace.callchain || a->itrace.add_callchain ||
		  (!pipe && aux && !a->itrace.set);
	if (a->group_sort_idx) {
		/* perf: the option needs event groups (the file's, or one
		 * forced by --group/--no-group); a pipe's arrive later */
		struct report_groups g;
		bool none = true;
		if (report_groups_load(&g, h, a->group_set) == 0)
			for (uint32_t i = 0; i < g.n; i++)
				none &= g.size[i] <= 1 || (pipe && !g.forced);
		report_groups_free(&g);
		if (none) {
			hwprof_session_close(s);
			fputs(group_sort_idx_usage, stderr);
			return 234; /* perf's -EINVAL as its exit status */
		}
	}
	/* perf's branch view: its default for files with branch stacks
	 * (unless user stacks are sampled too), or asked for with -b */
	uint64_t st_all = 0;
	bool tp = false, tp_only = hwprof_perfdata_nr_evsels(h) > 0;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++) {
		st_all |= hwprof_perfdata_evsel(h, i)->attr.sample_type;
		tp |= hwprof_perfdata_evsel(h, i)->attr.type == HWPROF_TYPE_TRACEPOINT;
		tp_only &= hwprof_perfdata_evsel(h, i)->attr.type == HWPROF_TYPE_TRACEPOINT;
	}
	const uint8_t *bp;
	uint64_t bsz;
	bool has_br = hwprof_perfdata_feature(h, HWPROF_FEAT_BRANCH_STACK, &bp, &bsz, NULL) == 1 &&
		      !(st_all & HWPROF_SAMPLE_STACK_USER);
	bool itrace_l = a->itrace.last_branch || a->itrace.add_last_branch;
	bool branch = (a->branch_mode < 0 && (has_br || itrace_l)) || a->branch_mode == 1;
	if (a->mem_mode && branch) {
		hwprof_session_close(s);
		fputs("branch and mem mode incompatible\n", stderr);
		return 0;
	}
	/* perf's setup_sorting(): before its first lines */
	struct key_lists kl;
	/* the file's tracepoint formats, for perf's dynamic sort keys (and
	 * the trace key): perf reads them with the header */
	struct hwprof_trace *trace = NULL;
	int tw = 0;
	bool tw_first = false;
	if (!pipe && trace_load_feature(h, &trace, "report", shown) < 0) {
		hwprof_session_close(s);
		return 1;
	}
	trace_print_warnings(trace, &tw, &tw_first);
	static struct report_dyn dk;
	memset(&dk, 0, sizeof(dk));
	dk.h = h;
	dk.t = trace;
	int kr = resolve_keys(a->sort, a->fields, branch ? 1 : a->mem_mode ? 2 : 0, tp, tp_only, &dk, &kl);
	if (kr != 0) {
		hwprof_session_close(s);
		return kr < 0;
	}
	/* perf resolves parents for a parent key of --sort only (with -F
	 * alone the column says "[other]") */
	bool parent_key = has_key(kl.sort, (size_t)kl.ns, HWPROF_HK_PARENT);
	if ((!cc && !pipe && parent_key) || (!cc && a->graph_given && !a->graph_none)) {
		/* perf's message, after its first lines, and its exit status 0 */
		hwprof_session_close(s);
		if (!a->quiet)
			fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
			      stdout);
		struct report_layout nl;
		enum hwprof_hist_key ns[REPORT_MAX_COLS * 2], ek[3];
		const char *ev[3];
		size_t nns = 0;
		memset(&nl, 0, sizeof(nl));
		if (build_lists(a, &kl, false, false, &nl, ns, &nns) == 0)
			print_elided(ek, ev, elided_cols(a, &nl, ek, ev));
		fflush(stdout);
		if (parent_key && !pipe)
			fputs("Error:\nSelected --sort parent, but no callchain data. Did you call 'perf record' "
			      "without -g?\n",
			      stderr);
		else
			fprintf(stderr, "Error:\nSelected -g or --branch-history.\nBut no callchain or branch data.\n"
					"Did you call 'perf record' without -g or -b?\n");
		return 0;
	}
	{
		if (branch && !has_br && !itrace_l)
			return perf_refusal(s, a->quiet,
					    "Error:\nSelected -b but no branch data. Did you call perf record without -b?\n");
		/* perf's branch view appends no callchains to its entries
		 * (and accumulates no children): the table alone */
		if (branch)
			cc = false;
		const char *why = !branch ? NULL
				  : a->sort && strstr(a->sort, "symbol") ? "sort keys naming symbol (perf adds its ipc_lbr column)"
				  : a->group_set && a->group ? "--group" : NULL;
		if (why) {
			hwprof_session_close(s);
			return cli_error("report", "%s: perf's branch view (its default for files with branch stacks) "
						   "with %s is not supported in this build; --no-branch-stack shows "
						   "the samples",
					 shown, why);
		}
	}
	if (a->mem_mode && !pipe) {
		/* perf: memory data needed (Arm SPE events get it synthesized) */
		uint64_t st = 0;
		bool spe = false;
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++) {
			char nb[256];
			const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, i);
			st |= ev->attr.sample_type;
			spe |= strstr(hwprof_evsel_name(ev, nb, sizeof(nb)), "arm_spe") != NULL;
		}
		if (!(st & HWPROF_SAMPLE_DATA_SRC) && !spe)
			return perf_refusal(s, a->quiet, "Error:\nSelected --mem-mode but no mem data. Did you call "
							 "perf record without -d?\n");
	}
	/* perf's memory mode accumulates no children */
	bool children = cc && !pipe && !a->mem_mode && !a->hierarchy && (a->children_set ? a->children : true);
	bool graph = cc && !a->graph_none;
	/* perf picks the caller order for children mode before --mem-mode
	 * turns that off */
	bool caller = a->inverted || (a->order_set ? a->caller : cc && (a->children_set ? a->children : true));
	struct report_layout l;
	enum hwprof_hist_key sort[REPORT_MAX_COLS * 2];
	size_t nr_sort = 0;
	memset(&l, 0, sizeof(l));
	if (build_lists(a, &kl, children, branch, &l, sort, &nr_sort) < 0) {
		hwprof_session_close(s);
		return 1;
	}
	/* perf's perf_hpp__cancel_cumulate(): children mode on (the default
	 * outside the branch and memory views) but no callchains drops an
	 * overhead_children column; else it shows "N/A" */
	bool cumulate = !branch && !a->mem_mode && !a->hierarchy && (a->children_set ? a->children : true);
	if (cumulate && !children && !a->fields) {
		size_t kept = 0;
		for (size_t i = 0; i < l.nr_cols; i++)
			if (l.cols[i] != HWPROF_HK_CHILDREN)
				l.cols[kept++] = l.cols[i];
		l.nr_cols = kept;
	}
	if (aux && has_key(sort, nr_sort, HWPROF_HK_TIME)) {
		hwprof_session_close(s);
		return cli_error("report", "%s: the time key on samples synthesized from AUX trace data is not "
					   "supported in this build",
				 shown);
	}
	if (a->hierarchy && (branch || a->mem_mode || a->field_sep || report_filter_any(&a->filter) || aux)) {
		/* (perf 6.1 itself finds no samples in AUX trace files then) */
		hwprof_session_close(s);
		return cli_error("report", "--hierarchy in the branch or memory view, on AUX trace data, with -t or "
					   "with the --comms, --pid, --tid, --dsos and --symbols filters is not supported "
					   "yet");
	}
	l.hierarchy = a->hierarchy;
	l.quiet = a->quiet;
	l.percent_limit = a->percent_limit;
	l.children = children;
	l.self_header = children && !a->fields;
	l.graph = graph;
	l.graph_skip_first = a->sort && !a->fields && !strncmp(a->sort, "sym", 3);
	struct hwprof_symbols *syms;
	struct hwprof_symcfg cfg = a->cfg;
	char kcore_ks[4096];
	cli_kernel_symcfg(&cfg, a->input, kcore_ks, sizeof(kcore_ks));
	if (!a->quiet)
		cfg.notice = cli_notice;
	if (hwprof_symbols_open(&syms, &cfg) < 0) {
		hwprof_session_close(s);
		return cli_error("report", "out of memory");
	}
	hwprof_symbols_load_build_ids(syms, h);
	/* perf parses these after its first lines; a bad one ends the run
	 * there, with success */
	const char *bad = NULL;
	struct report_filter *flt = (struct report_filter *)&a->filter;
	if (a->cpu_arg) {
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h) && !bad; i++)
			if (!(hwprof_perfdata_evsel(h, i)->attr.sample_type & HWPROF_SAMPLE_CPU))
				bad = "File does not contain CPU events. Remove -C option to proceed.\n"
				      "Error:\nfailed to set cpu bitmap\n";
		if (!bad && report_filter_cpus(flt, a->cpu_arg, report_filter_nr_cpus(h)) < 0)
			bad = "Error:\nfailed to set cpu bitmap\n";
	}
	if (!bad && a->pid_arg && report_filter_ints(&flt->pids, a->pid_arg) < 0)
		bad = "problems parsing pid list\n";
	if (!bad && a->tid_arg && report_filter_ints(&flt->tids, a->tid_arg) < 0)
		bad = "problems parsing tid list\n";
	if (bad) {
		if (!a->quiet)
			fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
			      stdout);
		fflush(stdout);
		fputs(bad, stderr);
		hwprof_symbols_close(syms);
		hwprof_session_close(s);
		return 0;
	}
	struct time_ranges tr = { 0 };
	if (a->time_str) {
		uint64_t first, last;
		time_ranges_bounds(h, &first, &last);
		if (time_ranges_parse(&tr, a->time_str, first, last, false) < 0) {
			/* perf has printed its first lines by then */
			if (a->header)
				print_header_opts(stdout, h, true, full);
			else if (!a->quiet)
				fputs("# To display the perf.data header info, please use --header/--header-only "
				      "options.\n#\n", stdout);
			fflush(stdout);
			hwprof_symbols_close(syms);
			hwprof_session_close(s);
			return 234; /* perf's -EINVAL */
		}
	}
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct report_run run;
	int rc = report_run_init(&run, s, syms, sort, nr_sort);
	/* the run owns the formats from here (dk keeps them reachable
	 * before: the early returns above end the process) */
	report_run_use_trace(&run, trace, shown, tw, tw_first);
	if (rc >= 0 && report_dyn_setup(&dk, run.hists, run.nr_hists) < 0)
		rc = -HWPROF_E_NOMEM;
	dk.run = &run;
	l.dyn_text = report_dyn_text;
	l.dyn_ctx = &dk;
	for (unsigned i = 0; i < dk.n; i++)
		l.dyn_name[i] = dk.col[i].d.name;
	if (rc >= 0 && (children || graph))
		report_run_set_callchain(&run, children, graph, caller, a->chain_key);
	if (rc >= 0 && parent_key)
		rc = report_run_find_parents(&run);
	run.max_stack = a->max_stack;
	/* perf: callchains from the trace (g, G) are kept to their size */
	if ((a->itrace.callchain || a->itrace.add_callchain) &&
	    (int)a->itrace.callchain_sz > (a->max_stack < 0 ? 127 : a->max_stack))
		run.max_stack = (int)a->itrace.callchain_sz;
	run.no_inline = a->no_inline;
	run.hide_unresolved = a->hide_unresolved;
	run.mem_mode = a->mem_mode;
	run.graph_none = a->graph_none;
	run.show_threads = a->threads;
	run.branch_mode = branch;
	run.time_quantum = a->time_quantum;
	run.time = a->time_str ? &tr : NULL;
	l.time_str = a->time_str;
	l.field_sep = a->field_sep;
	l.dso_filter = a->filter.dsos.n != 0;
	l.nanosecs = a->nanosecs;
	if (report_filter_any(&a->filter) || a->filter.cpus_set)
		run.filter = &a->filter;
	/* perf's sort__setup_elide(): a column whose filter names a single
	 * value is left out (and skipped when ordering), the value said once
	 * above the table */
	enum hwprof_hist_key elided[3];
	const char *elided_val[3];
	size_t nel = elided_cols(a, &l, elided, elided_val), kept = 0, keys_kept = 0;
	for (size_t i = 0; i < l.nr_cols; i++) {
		bool out = false;
		for (size_t j = 0; j < nel; j++)
			out |= l.cols[i] == elided[j];
		keys_kept += !out && l.cols[i] < HWPROF_HK_FIRST_FIELD;
	}
	/* eliding every sort key, perf shows them all again (the values
	 * are still said above the table) */
	for (size_t i = 0; keys_kept && i < l.nr_cols; i++) {
		bool out = false;
		for (size_t j = 0; j < nel; j++)
			out |= l.cols[i] == elided[j];
		if (!out)
			l.cols[kept++] = l.cols[i];
	}
	if (keys_kept) {
		l.nr_cols = kept;
		for (size_t j = 0; j < nel && rc >= 0; j++)
			report_run_elide(&run, elided[j]);
	}
	l.relative = a->relative;
	l.mem_mode = a->mem_mode;
	l.cgroup_name = report_run_cgroup_name;
	l.cgroup_ctx = &run;
	l.sort_order = a->sort ? kl.sort_order
			       : "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,"
				 "local_p_stage_cyc";
	l.graph_mode = a->graph_mode;
	l.value_period = a->value_period;
	l.value_count = a->value_count;
	l.chain_srcline = a->chain_key != 0;
	l.print_limit = a->print_limit;
	if (rc >= 0 && (aux || pipe))
		rc = report_run_enable_spe(&run, &a->itrace);
	struct cli_progress bar;
	cli_progress_init(&bar, "reading", hwprof_perfdata_info(h)->file_size, a->quiet);
	if (rc >= 0)
		rc = report_run_read(&run, &bar);
	cli_progress_done(&bar);
	/* perf's session warnings, then its kernel map warning */
	if (rc >= 0 && !a->quiet) {
		session_warn(run.s);
		kptr_warn(h, run.kernel_map);
	}
	/* perf's group view is on unless --no-group; --group or --no-group
	 * make one group of a file's events when it has none */
	struct report_groups groups;
	memset(&groups, 0, sizeof(groups));
	bool group_view = !a->group_set || a->group;
	if (rc >= 0 && report_groups_load(&groups, h, a->group_set) < 0)
		rc = -HWPROF_E_NOMEM;
	run.group_sort_idx = a->group_sort_idx;
	if (rc >= 0)
		rc = report_run_finish(&run, group_view ? groups.size : NULL, groups.n);
	int status = 0;
	if (rc == -HWPROF_E_INVAL) { /* the SPE decoder said why */
		status = 1;
		goto out;
	}
	if (rc == -HWPROF_E_UNSUPPORTED) {
		fflush(stdout);
		cli_error("report", "%s: %s", shown, aux_msg);
		status = 1;
		goto out;
	}
	for (uint32_t i = 0; rc >= 0 && a->hierarchy && group_view && i < groups.n; i++)
		if (groups.size[i] > 1) {
			cli_error("report", "--hierarchy with the event group view is not supported yet (--no-group "
					    "shows each event)");
			status = 1;
			goto out;
		}
	if (rc < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(h);
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", shown, (unsigned long long)e->offset,
			e->msg[0] ? e->msg : hwprof_strerror(rc));
		status = 1;
		goto out;
	}
	uint64_t total_samples = 0;
	for (uint32_t i = 0; i < run.nr_hists; i++)
		total_samples += hwprof_hist_nr_samples(run.hists[i]);
	if (!total_samples) {
		/* perf: its first lines, the message, and success */
		if (a->header)
			print_header_opts(stdout, h, true, full);
		else if (!a->quiet)
			fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
			      stdout);
		fflush(stdout);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
		goto out;
	}
	if (a->header)
		print_header_opts(stdout, h, true, full);
	else if (!a->quiet)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      stdout);
	print_elided(elided, elided_val, nel);
	if (!a->quiet)
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)run.lost_samples);
	for (uint32_t i = 0; i < run.nr_hists; i++) {
		uint32_t gsize = i < groups.n ? groups.size[i] : 1;
		if (group_view && gsize == 0)
			continue; /* a member: in its leader's columns */
		if (!hwprof_hist_nr_samples(run.hists[i]))
			continue; /* perf's --skip-empty default (the leader's) */
		char nb[256], desc[1024];
		const char *name = run.names[i] ? run.names[i]
						: hwprof_evsel_name(hwprof_perfdata_evsel(h, i), nb, sizeof(nb));
		l.plural = gsize > 1;
		/* perf sorts (and shows) the call graphs of an event whose
		 * samples have callchains only */
		l.graph = graph && report_run_event_has_chains(&run, i);
		if (group_view && gsize > 1 && group_desc(h, &groups, i, desc, sizeof(desc)) == 0)
			name = desc;
		uint64_t base = a->relative ? hwprof_hist_shown_period(run.hists[i])
					    : hwprof_hist_total_period(run.hists[i]);
		/* perf's min_callchain_hits: a share of the total */
		l.min_hit = (uint64_t)((double)base * (a->cc_min_percent / 100.0));
		if (graph && l.graph_mode == RG_GRAPH)
			hwprof_hist_sort_chains(run.hists[i], l.min_hit);
		else if (graph && l.graph_mode == RG_FRACTAL)
			hwprof_hist_sort_chains_rel(run.hists[i], a->cc_min_percent);
		print_report_hist(stdout, &l, run.hists[i], name ? name : "[unknown]", s);
	}
	if (!a->quiet)
		print_report_tip(stdout);
	if (a->threads)
		print_report_threads(stdout, &run.threads, a->pretty_raw);
	if (branch)
		print_report_brtype(stdout, &run.brtype);
out:
	fflush(stdout);
	report_groups_free(&groups);
	report_run_fini(&run);
	time_ranges_free(&tr);
	hwprof_symbols_close(syms);
	hwprof_session_close(s);
	return status;
}

static int report_cmd(struct report_args *ap, int argc, char **argv)
{
	enum { O_HEADER = 256, O_HEADER_ONLY, O_STDIO, O_PERCENT_LIMIT, O_CHILDREN, O_NO_CHILDREN, O_SYMFS,
	       O_KALLSYMS, O_BUILDID_DIR, O_NO_DEMANGLE, O_TUI, O_GTK, O_HIERARCHY, O_ITRACE, O_NO_ITRACE, O_MEM_MODE, O_MAX_STACK,
	       O_PID, O_TID, O_PERCENTAGE, O_NO_BRANCH_STACK, O_GROUP, O_NO_GROUP, O_TIME_QUANTUM, O_TIME, O_SHOW_PERIOD,
	       O_INLINE, O_NO_INLINE, O_NS, O_GROUP_SORT_IDX, O_STATS, O_TASKS, O_MMAPS, O_PRETTY, O_IGNORE_VMLINUX };
	static const struct option opts[] = {
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "input", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "field-separator", required_argument, NULL, 't' },
		{ "stdio", no_argument, NULL, O_STDIO },
		{ "tui", no_argument, NULL, O_TUI },
		{ "gtk", no_argument, NULL, O_GTK },
		{ "hierarchy", no_argument, NULL, O_HIERARCHY },
		{ "help", no_argument, NULL, 'h' },
		{ "header", no_argument, NULL, O_HEADER },
		{ "header-only", no_argument, NULL, O_HEADER_ONLY },
		{ "show-info", no_argument, NULL, 'I' },
		{ "sort", required_argument, NULL, 's' },
		{ "fields", required_argument, NULL, 'F' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "show-total-period", no_argument, NULL, O_SHOW_PERIOD },
		{ "inline", no_argument, NULL, O_INLINE },
		{ "no-inline", no_argument, NULL, O_NO_INLINE },
		{ "hide-unresolved", no_argument, NULL, 'U' },
		{ "percent-limit", required_argument, NULL, O_PERCENT_LIMIT },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "inverted", no_argument, NULL, 'G' },
		{ "children", no_argument, NULL, O_CHILDREN },
		{ "no-children", no_argument, NULL, O_NO_CHILDREN },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "ignore-vmlinux", no_argument, NULL, O_IGNORE_VMLINUX },
		{ "buildid-dir", required_argument, NULL, O_BUILDID_DIR },
		{ "no-demangle", no_argument, NULL, O_NO_DEMANGLE },
		{ "itrace", optional_argument, NULL, O_ITRACE },
		{ "no-itrace", no_argument, NULL, O_NO_ITRACE },
		{ "mem-mode", no_argument, NULL, O_MEM_MODE },
		{ "max-stack", required_argument, NULL, O_MAX_STACK },
		{ "comms", required_argument, NULL, 'c' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, O_PID },
		{ "tid", required_argument, NULL, O_TID },
		{ "percentage", required_argument, NULL, O_PERCENTAGE },
		{ "no-branch-stack", no_argument, NULL, O_NO_BRANCH_STACK },
		{ "branch-stack", no_argument, NULL, 'b' },
		{ "group", no_argument, NULL, O_GROUP },
		{ "no-group", no_argument, NULL, O_NO_GROUP },
		{ "time-quantum", required_argument, NULL, O_TIME_QUANTUM },
		{ "time", required_argument, NULL, O_TIME },
		{ "ns", no_argument, NULL, O_NS },
		{ "group-sort-idx", required_argument, NULL, O_GROUP_SORT_IDX },
		{ "stats", no_argument, NULL, O_STATS },
		{ "tasks", no_argument, NULL, O_TASKS },
		{ "mmaps", no_argument, NULL, O_MMAPS },
		{ "threads", no_argument, NULL, 'T' },
		{ "pretty", required_argument, NULL, O_PRETTY },
		{ NULL, 0, NULL, 0 },
	};
	/* perf seeds random() with the start time; its tip line depends on it */
	srandom((unsigned)time(NULL));
	ap->cc_min_percent = 0.5;
	ap->max_stack = -1;
	bool dump = false, header_only = false, full = false, stats = false, tasks = false, mmaps = false, ignore_vmlinux = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Di:qhIs:F:ng::Gc:d:S:C:bTk:Ut:", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dump = true; break;
		case 'T': ap->threads = true; break;
		case 'U': ap->hide_unresolved = true; break;
		case 'i': ap->input = optarg; break;
		case 'q': ap->quiet = true; break;
		case 't':
			/* perf ignores an empty one; '.' is what it puts in
			 * texts for the separator */
			if (*optarg == '.')
				return cli_error("report", "'.' is the only non valid --field-separator argument");
			ap->field_sep = *optarg ? optarg : NULL;
			break;
		case O_STDIO: break;
		case O_HIERARCHY: ap->hierarchy = true; break;
		case O_TUI:
		case O_GTK:
			return cli_error("report", "only the --stdio interface is implemented");
		case 'h': usage(stdout); return 0;
		case O_HEADER: ap->header = true; break;
		case O_HEADER_ONLY: header_only = true; break;
		case 'I': full = true; break;
		case 's': ap->sort = optarg; break;
		case 'F': ap->fields = optarg; break;
		case 'n': ap->show_nr = true; break;
		case O_SHOW_PERIOD: ap->show_period = true; break;
		case O_INLINE: ap->no_inline = false; break;
		case O_NO_INLINE: ap->no_inline = true; break;
		case O_PERCENT_LIMIT:
			/* perf: also the call graph's threshold */
			ap->percent_limit = strtof(optarg, NULL);
			ap->cc_min_percent = ap->percent_limit;
			break;
		case 'g': {
			/* perf: the next word is the argument unless it is an option
			 * or missing (then the default, "graph,0.5,caller") */
			const char *arg = optarg;
			if (!arg && optind < argc && argv[optind][0] != '-')
				arg = argv[optind++];
			if (parse_graph(ap, arg ? arg : "graph,0.5,caller,function,percent") < 0)
				return 129;
			break;
		}
		case 'G': ap->inverted = true; break;
		case O_CHILDREN: ap->children_set = true; ap->children = true; break;
		case O_NO_CHILDREN: ap->children_set = true; ap->children = false; break;
		case O_SYMFS: ap->cfg.symfs = optarg; break;
		case O_KALLSYMS: ap->cfg.kallsyms = optarg; break;
		case 'k': ap->cfg.vmlinux = optarg; break;
		case O_IGNORE_VMLINUX: ignore_vmlinux = true; break;
		case O_BUILDID_DIR: ap->cfg.buildid_dir = optarg; break;
		case O_NO_DEMANGLE: ap->cfg.no_demangle = true; break;
		case O_ITRACE:
			/* letters add to earlier --itrace options, as in perf */
			if (hwprof_itrace_opts_parse(&ap->itrace, optarg, false) < 0) {
				fprintf(stderr, "Bad Instruction Tracing options '%s'\n", optarg ? optarg : "");
				return 129;
			}
			break;
		case O_NO_ITRACE:
			ap->itrace.set = true;
			ap->itrace.dont_decode = true;
			break;
		case O_MAX_STACK: {
			char *end;
			unsigned long v = strtoul(optarg, &end, 0);
			if (*end || end == optarg || v > 1000000)
				return cli_usage_error("report", "bad --max-stack '%s'", optarg);
			ap->max_stack = (int)v;
			break;
		}
		case 'c':
		case 'd':
		case 'S': {
			struct report_filter *f = &ap->filter;
			if ((c == 'S' ? report_filter_symbols(f, optarg)
				      : report_filter_strs(c == 'c' ? &f->comms : &f->dsos, optarg)) < 0)
				return cli_error("report", "out of memory");
			break;
		}
		case 'C': ap->cpu_arg = optarg; break;
		case O_PID: ap->pid_arg = optarg; break;
		case O_TID: ap->tid_arg = optarg; break;
		case O_PERCENTAGE:
			if (!strcmp(optarg, "relative"))
				ap->relative = true;
			else if (!strcmp(optarg, "absolute"))
				ap->relative = false;
			else {
				/* perf: its usage line and this option's help */
				fprintf(stderr, "\n Usage: hwprof report [<options>]\n\n"
						"        --percentage <relative|absolute>\n"
						"                          how to display percentage of filtered entries\n");
				return 129;
			}
			break;
		case O_MEM_MODE: ap->mem_mode = true; break;
		case O_NO_BRANCH_STACK: ap->branch_mode = 0; break;
		case O_TIME: ap->time_str = optarg; break;
		case O_TIME_QUANTUM: {
			/* perf's parse_time_quantum(): a number, in ns unless
			 * followed by s, ms, us or ns */
			char *end;
			unsigned long long q = strtoull(optarg, &end, 0);
			while (*end == ' ')
				end++;
			if (end == optarg)
				return cli_usage_error("report", "Cannot parse time quantum `%s'", optarg);
			if (!q)
				return cli_usage_error("report", "time quantum cannot be 0");
			if (!strcmp(end, "s"))
				q *= 1000000000ULL;
			else if (!strcmp(end, "ms"))
				q *= 1000000ULL;
			else if (!strcmp(end, "us"))
				q *= 1000ULL;
			else if (*end && strcmp(end, "ns"))
				return cli_usage_error("report", "Cannot parse time quantum `%s'", optarg);
			ap->time_quantum = q;
			break;
		}
		case O_NS: ap->nanosecs = true; break;
		case O_GROUP_SORT_IDX: {
			/* perf's OPT_INTEGER: strtol's number, all of the text */
			char *end;
			long v = strtol(optarg, &end, 0);
			if (!*optarg || *end) {
				fprintf(stderr, " Error: option `group-sort-idx' expects a numerical value\n"
						" Usage: perf report [<options>]\n\n%s",
					group_sort_idx_usage);
				return 129;
			}
			ap->group_sort_idx = (int)v;
			break;
		}
		case O_GROUP:
		case O_NO_GROUP:
			ap->group_set = true;
			ap->group = c == O_GROUP;
			break;
		case 'b': ap->branch_mode = 1; break;
		case O_STATS: stats = true; break;
		case O_TASKS: tasks = true; break;
		case O_MMAPS: mmaps = tasks = true; break; /* perf: --mmaps implies --tasks */
		case O_PRETTY: ap->pretty_raw = !strcmp(optarg, "raw"); break;
		default:
			usage(stderr);
			return cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	if (ap->hierarchy && ap->fields)
		return cli_error("report", "--hierarchy and --fields options cannot be used together");
	if (!cli_sym_files_ok(&ap->cfg, ap->quiet))
		return 234; /* perf's -EINVAL */
	ap->cfg.ignore_vmlinux = ignore_vmlinux;
	if (!ap->input) {
		/* like perf: a pipe on stdin is the input, else ./perf.data */
		struct stat st;
		ap->input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	const char *input = ap->input;
	if (stats && tasks && !dump) {
		/* perf refuses the pair once the input opened, before any output */
		struct hwprof_error err;
		struct hwprof_session *s;
		if (hwprof_session_open(&s, input, &err) < 0) {
			fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", display_name(input),
				(unsigned long long)err.offset, err.msg);
			return 1;
		}
		hwprof_session_close(s);
		fprintf(stderr, "Error: --tasks and --mmaps can't be used together with --stats\n");
		return 0;
	}
	if (header_only)
		return report_header(input, full);
	if (stats && !dump)
		return report_file_tool(input, ap->header, full, TOOL_STATS);
	if (tasks && !dump)
		return report_file_tool(input, ap->header, full, mmaps ? TOOL_MMAPS : TOOL_TASKS);
	if (!dump)
		return report_stdio(ap, full);

	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", strcmp(input, "-") ? input : "<stdin>",
			(unsigned long long)err.offset, err.msg);
		return 1;
	}
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	/* NULL: each record's file as the reader names it (a directory's data.N) */
	const char *display = hwprof_perfdata_info(hwprof_session_data(s))->pipe ? "pipe" : NULL;
	if (!hwprof_session_ordered(s))
		printf("WARNING: No sample_id_all support, falling back to unordered processing\n");
	printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	const uint8_t *bp;
	uint64_t bsz;
	if (ap->branch_mode == 1 &&
	    hwprof_perfdata_feature(hwprof_session_data(s), HWPROF_FEAT_BRANCH_STACK, &bp, &bsz, NULL) != 1) {
		/* perf's refusal, before any record, with its exit status 0 */
		fflush(stdout);
		fputs("Error:\nSelected -b but no branch data. Did you call perf record without -b?\n", stderr);
		hwprof_session_close(s);
		return 0;
	}
	struct cli_progress bar;
	cli_progress_init(&bar, "reading", hwprof_perfdata_info(hwprof_session_data(s))->file_size, ap->quiet);
	bool kernel_map = false;
	int rc = print_dump(stdout, s, display, ap->branch_mode, &bar, &kernel_map);
	fflush(stdout);
	cli_progress_done(&bar);
	if (rc >= 0 && !ap->quiet) {
		session_warn(s);
		kptr_warn(hwprof_session_data(s), kernel_map);
	}
	note_unknown_features(input, hwprof_session_data(s));
	if (rc < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(hwprof_session_data(s));
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", strcmp(input, "-") ? input : "<stdin>",
			(unsigned long long)e->offset, e->msg[0] ? e->msg : hwprof_strerror(rc));
		hwprof_session_close(s);
		return 1;
	}
	hwprof_session_close(s);
	return 0;
}

/* perf's word match: tok is a prefix of word ("f" is flat, "fr" fractal) */
static bool word(const char *tok, const char *w)
{
	return !strncmp(tok, w, strlen(tok));
}

/* perf's -g/--call-graph: print_type,threshold[,print_limit],order,
 * sort_key[,branch],value in any order, each word by any prefix, tried as
 * perf tries them (none, print types, orders, keys, values, numbers).
 * "none" ends the list. branch (LBR call stacks) is refused. */
static int parse_graph(struct report_args *a, const char *arg)
{
	static const char *const modes[] = { "graph", "flat", "fractal", "folded" };
	static const int mode_ids[] = { RG_GRAPH, RG_FLAT, RG_FRACTAL, RG_FOLDED };
	char buf[256];
	int nums = 0;
	a->graph_given = true;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		int m = -1;
		for (int i = 0; i < 4 && m < 0; i++)
			if (word(tok, modes[i]))
				m = i;
		if (word(tok, "none")) {
			a->graph_none = true;
			return 0;
		} else if (m >= 0) {
			a->graph_none = false;
			a->graph_mode = mode_ids[m];
		} else if (word(tok, "caller") || word(tok, "callee")) {
			a->order_set = true;
			a->caller = word(tok, "caller");
		} else if (word(tok, "function") || word(tok, "address") || word(tok, "srcline")) {
			a->chain_key = word(tok, "function") ? 0
				       : word(tok, "address") ? HWPROF_HIST_KEY_ADDRESS : HWPROF_HIST_KEY_SRCLINE;
		} else if (word(tok, "percent") || word(tok, "period") || word(tok, "count")) {
			a->value_period = !word(tok, "percent") && word(tok, "period");
			a->value_count = !word(tok, "percent") && !word(tok, "period");
		} else if (word(tok, "branch")) {
			fprintf(stderr, "hwprof report: -g '%s': '%s' is not supported in this build (graph, fractal, "
					"flat, folded, none, caller, callee, function, percent, period, count, a threshold and a "
					"limit are)\n", arg, tok);
			return -1;
		} else if (nums == 0 && (strtod(tok, &end), end != tok)) {
			a->cc_min_percent = strtod(tok, NULL);
			nums++;
		} else if (nums > 0 && (strtoul(tok, &end, 0), end != tok)) {
			/* perf's print_limit: chains shown per level */
			a->print_limit = (uint32_t)strtoul(tok, NULL, 0);
		} else {
			fprintf(stderr, "hwprof report: -g '%s': bad word '%s'\n", arg, tok);
			return -1;
		}
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	memset(&a, 0, sizeof(a));
	a.branch_mode = -1;
	a.time_quantum = 100000000ULL; /* perf's default: 100 ms */
	int rc = report_cmd(&a, argc, argv);
	report_filter_free(&a.filter);
	return rc;
}
