/* hwprof report's reading pass: samples resolved (comm, map, symbol) and
 * summed into one histogram per event of the file. */
#ifndef HWPROF_CLI_REPORT_RUN_H
#define HWPROF_CLI_REPORT_RUN_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/progress.h"
#include "hwprof/itrace.h"
#include "hwprof/perfdata.h"
#include "hwprof/report.h"
#include "cli/time_range.h"
#include "cli/inline_syms.h"
#include "cli/kmap.h"
#include "cli/trace_load.h"
#include "cli/report_filter.h"
#include "cli/report_srcline.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"

struct hwprof_session;

/* perf's branch_type_stat: the branch view's entries by branch type */
struct report_brtype {
	uint64_t counts[16], new_counts[16];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

struct report_run {
	struct hwprof_session *s;
	/* the comm of the synthesized samples being added when it is not the
	 * thread's now (Intel PT decoded before a COMM renamed it); NULL */
	const char *synth_comm;
	struct hwprof_symbols *syms;
	struct hwprof_hist **hists;    /* one per evsel index */
	uint32_t nr_hists;
	uint64_t lost_samples;         /* sum of LOST_SAMPLES records */
	/* -T: perf's per-thread values of READ records (perf record -s),
	 * threads and counters in the order they came */
	bool show_threads;
	struct report_threads {
		struct report_thread_row {
			int32_t pid, tid;
			uint64_t *value;  /* per counter, summed (capcounters) */
		} *row;
		size_t n, cap;
		struct report_counter {
			uint32_t rawid;   /* the counter's event index */
			char *name;
		} *ctr;
		size_t ncounters, capcounters;
	} threads;
	struct report_brtype brtype;   /* branch view: counted as entries are made */
	const char **names;            /* per histogram: a synthesized event's
	                                * name, NULL for the file's events */
	struct report_spe *spe;        /* Arm SPE synthesis, or NULL */
	struct report_pt *pt;          /* Intel PT synthesis, or NULL */
	enum hwprof_hist_key sort[HWPROF_HK_NR * 2];
	size_t nr_sort;
	/* call graphs: chains resolved and kept per entry */
	bool callchain, caller_order;
	int max_stack;              /* --max-stack; < 0: perf's 127 */
	bool no_inline;             /* --no-inline: unwound frames stay whole */
	bool hide_unresolved;       /* -U: samples and callchain frames
				     * without a symbol are left out */
	unsigned chain_flags;       /* HWPROF_HIST_* */
	struct hwprof_hist_frame *frames;   /* per-sample scratch */
	size_t cap_frames;
	/* perf's callchain cursor: the last chain resolved (in frames) is
	 * what a sample without one cumulates in children mode */
	size_t cursor_n;
	/* perf's DSO objects in creation order (MMAP records), for ranks */
	const char **dso_names;
	size_t nr_dsos, cap_dsos;
	struct kmap_ext kmap;             /* the kernel map up to its last symbol */
	const struct report_filter *filter; /* --comms, --dsos, --cpu...; or NULL */
	const struct time_ranges *time;     /* --time: samples outside are dropped */
	bool elided[HWPROF_HK_NR];        /* hwprof_hist_elide() keys */
	bool mem_mode;                    /* --mem-mode: memory info, weights */
	bool graph_none;                  /* -g none: perf then cannot register
					   * callchain parameters, and its
					   * trace decoders drop itrace g and G */
	uint64_t time_quantum;            /* the time key's buckets (ns) */
	bool map_sizes;                   /* the dso_size key: maps' sizes as
	                                   * perf shows them (only then: the
	                                   * kernel's needs its symbols) */
	bool branch_mode;                 /* perf's branch view: an entry per
	                                   * branch of the samples' stacks */
	struct report_srclines *srclines; /* the srcline key's texts */
	/* --call-graph dwarf files: user stacks unwound, inlines expanded */
	struct hwprof_unwinder *uw;
	bool uw_failed;
	struct inline_syms *isyms;
	uint64_t *ips;                    /* unwound addresses (scratch) */
	const char *last_dso_name;
	uint32_t last_dso_rank;
	bool kernel_map;            /* a record made perf's host kernel map */
	/* the socket key: each cpu's socket from CPU_TOPOLOGY (perf's
	 * env->cpu), loaded at the first sample (pipe streams send it then) */
	bool topo_loaded;
	int32_t *sockets;
	uint32_t nr_sockets;
	/* the cgroup key: CGROUP records' ids and paths, first one kept */
	struct report_cgroup { uint64_t id; char *path; } *cgroups;
	size_t nr_cgroups, cap_cgroups;
	/* the cgroup_id key: each thread's last NAMESPACES record's cgroup
	 * namespace */
	struct report_ns { int32_t tid; uint64_t dev, ino; } *ns;
	size_t nr_ns, cap_ns, last_ns;
	int group_sort_idx;               /* --group-sort-idx (0: none) */
	/* the parent key: perf's default parent pattern, and the sample's
	 * first callchain symbol matching it */
	bool parent_key;
	regex_t parent_re;
	const char *parent;
	/* the trace key: the file's tracepoint formats (owned), a pipe's
	 * replacing them as its tracing data records come */
	struct hwprof_trace *trace;
	struct trace_ksyms ksyms;         /* function names (file mode only) */
	int trace_warned;                 /* its warnings printed so far */
	bool trace_first_warned;
	const char *input;                /* the input's name for messages */
};
/* A CGROUP record's path for a PERF_SAMPLE_CGROUP id, or NULL (the
 * layout's cgroup_name function; ctx is the report_run). */
const char *report_run_cgroup_name(void *ctx, uint64_t id);

int report_run_init(struct report_run *r, struct hwprof_session *s, struct hwprof_symbols *syms,
		    const enum hwprof_hist_key *sort, size_t nr_sort);
/* Before reading: keep call graphs (children: accumulate; caller_order:
 * chains root first). */
/* key: 0, HWPROF_HIST_KEY_SRCLINE or HWPROF_HIST_KEY_ADDRESS (-g srcline,
 * -g address) */
uint64_t report_cacheline_size(void);
void report_run_set_callchain(struct report_run *r, bool children, bool graph, bool caller_order, unsigned key);
void report_run_fini(struct report_run *r);
/* Before reading: the file header's tracing data (file mode, NULL for
 * none; the run owns it), the input's name for messages, and how many of
 * its warnings were printed. */
void report_run_use_trace(struct report_run *r, struct hwprof_trace *t, const char *input, int warned,
			  bool first_warned);
/* Before reading: the parent sort key (given with --sort; perf resolves
 * parents for it only) wants each sample's parent symbol. */
int report_run_find_parents(struct report_run *r);
/* A sort key whose column is elided: the output order skips it. */
void report_run_elide(struct report_run *r, enum hwprof_hist_key k);
/* A synthesized event after the file's: returns its histogram index. */
int report_run_add_event(struct report_run *r, const char *name);
/* Whether event idx's samples have callchains (recorded, or synthesized:
 * itrace g, G): perf shows call graphs under its entries only then (a
 * sample without one may still cumulate the last chain, see cursor_n). */
bool report_run_event_has_chains(const struct report_run *r, uint32_t idx);
/* The memory side of a sample (--mem-mode). */
struct report_mem {
	uint64_t addr, data_src, weight, ins_lat;
};
/* A synthesized sample into histogram idx (no callchain); m is used in
 * --mem-mode. */
int report_run_add(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu, unsigned cpumode,
		   uint64_t ip, uint64_t period, const struct report_mem *m);
/* The same with a call chain (chain[0] the sample's ip, then the return
 * addresses, newest first), kept when the report shows call graphs. */
int report_run_add_chain(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu,
			 unsigned cpumode, uint64_t ip, uint64_t period, const uint64_t *chain, size_t nchain);
/* A synthesized sample's branch stack into histogram idx for perf's
 * branch view: n from/to pairs (pairs[2i], pairs[2i+1]), no flags. */
int report_run_add_branches(struct report_run *r, uint32_t idx, int32_t pid, int32_t tid, int32_t cpu,
			    unsigned cpumode, uint64_t ip, const uint64_t *pairs, size_t n);
/* Decode Arm SPE AUX data with these --itrace options while reading. */
int report_run_enable_spe(struct report_run *r, const struct hwprof_itrace_opts *itrace);
/* One parsed sample into its event's histogram. */
int report_run_sample(struct report_run *r, const struct hwprof_sample *sm);
/* Reads the rest of the session; < 0 on an input error (the perfdata
 * handle says where) or allocation failure. */
int report_run_read(struct report_run *r, struct cli_progress *bar);
/* Collapses and finishes the histograms; with group_size (per event: a
 * leader's group size, 0 on members; n of them), members are linked to
 * their leaders for the group view. */
int report_run_finish(struct report_run *r, const uint32_t *group_size, uint32_t n);

#endif
