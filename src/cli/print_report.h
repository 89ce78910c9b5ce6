/* perf report --stdio's text: the per-event "# Samples" block, the column
 * header and the entry rows of a histogram, byte for byte as perf 6.1
 * prints them. The reading and summing is report_run.c's job. */
#ifndef HWPROF_CLI_PRINT_REPORT_H
#define HWPROF_CLI_PRINT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/report.h"

struct hwprof_session;

#define REPORT_MAX_COLS 16

struct report_layout {
	enum hwprof_hist_key cols[REPORT_MAX_COLS];  /* output columns in order */
	size_t nr_cols;
	float percent_limit;
	bool quiet;
	bool children;          /* accumulated periods (limit, graph root) */
	bool self_header;       /* "Self" heads the overhead column */
	bool graph;             /* call graph under each row */
	bool graph_skip_first;  /* --sort starting with "sym": a single root's
	                         * first frame is the row's symbol, not shown */
	bool relative;          /* --percentage relative: shares of the shown
	                         * entries, not of all samples */
	enum { RG_GRAPH, RG_FLAT, RG_FOLDED, RG_FRACTAL } graph_mode; /* -g print type */
	bool value_period;      /* -g ...,period: periods, not percentages */
	bool value_count;       /* -g ...,count: counts of chains */
	bool chain_srcline;     /* -g srcline/address: frames show their
	                         * srcline after the symbol */
	uint32_t print_limit;   /* -g's second number: chains per level (0: all) */
	uint64_t min_hit;       /* the threshold in period, per histogram */
	bool mem_mode;          /* --mem-mode: "Total weight" and "Sort order" */
	const char *sort_order;
	bool plural;            /* "of events": a group's leader (perf says so
	                         * also outside the group view) */
	bool nanosecs;          /* --ns: the time key in nanoseconds */
	const char *time_str;   /* --time: said after the sample count */
	/* the cgroup key's names: the CGROUP records' paths (NULL: none) */
	const char *(*cgroup_name)(void *ctx, uint64_t id);
	void *cgroup_ctx;
	/* perf's dynamic keys (tracepoint fields): each slot's field name and
	 * its value's text for an entry (the layout is per report, a slot's
	 * column shows in the hist of its event only) */
	const char *dyn_name[HWPROF_HK_NR_DYN];
	const char *(*dyn_text)(void *ctx, struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_entry *e);
	void *dyn_ctx;
	const char *field_sep;  /* -t: between columns instead of two spaces,
	                         * no dotted line; its first character reads
	                         * '.' in the keys' texts (NULL: none) */
	bool hierarchy;         /* --hierarchy: a level per sort key */
	bool dso_filter;        /* --dsos: unresolved entries do not widen
	                         * the DSO columns */
	const char *mispredict; /* the mispredict column's last text: perf keeps
	                         * it (a static) for branches that are neither
	                         * predicted nor mispredicted (NULL: "N/A") */
};

/* One event's section: "# Samples: ..." (unless quiet), the header and the
 * rows at or above the percent limit, then the two closing newlines. A
 * group leader's hist with linked members (the group view) shows each
 * member's value after the leader's in the overhead, sample and period
 * columns, and their summed counts.
 * Thread comms for the column widths come from the session, as perf takes
 * them from its thread table after reading. */
void print_report_hist(FILE *f, struct report_layout *l, struct hwprof_hist *h, const char *evname,
		       struct hwprof_session *s);

/* perf's graph call graph (absolute percentages of total) of one entry's
 * sorted callchain root; parent is the entry's period (accumulated in
 * children mode): a single root is drawn without percentage only when it
 * holds all of it. */
void print_report_graph(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t root,
			uint64_t total, uint64_t parent);
/* perf's flat and folded chain lists of one entry (-g flat, -g folded). */
void print_report_flat(FILE *f, const struct report_layout *l, struct hwprof_hist *h, uint32_t root,
		       uint64_t total);

/* The closing tip block perf prints after the sections (unless quiet). */
void print_report_tip(FILE *f);
/* perf report -T: the per-thread values of the file's READ records,
 * perf's pretty table (raw: its --pretty raw rows, which perf runs
 * together on one line). */
struct report_threads;
void print_report_threads(FILE *f, const struct report_threads *t, bool raw);
struct report_brtype;
void print_report_brtype(FILE *f, const struct report_brtype *st);

#endif
