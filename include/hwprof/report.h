/* Histograms for `hwprof report`: samples summed into entries keyed by
 * perf report's sort keys (comm, pid, dso, symbol, cpu), and the entries
 * ordered as perf 6.1 orders them. No printing here: the CLI's printer
 * formats the entries.
 *
 *   hwprof_hist_new()     a histogram for one event with its sort keys
 *   hwprof_hist_add()     one sample (already resolved to comm/dso/sym)
 *   hwprof_hist_finish()  sort into output order
 *   hwprof_hist_entry()   the entries in output order
 *
 * Equality and ordering follow perf's sort functions exactly: entries are
 * equal when every sort key compares equal (an unresolved symbol compares
 * by address, a resolved one by its DSO's short name and its start/end),
 * and the output order is overhead (period) descending, then each key's
 * sort order, then the order perf's entry tree had (ties left in insertion
 * order of that tree). Entries are kept in one array and found through a
 * red-black tree walked with perf's compare functions, as perf does (they
 * are not a total order, so the tree's shape matters); nothing is
 * allocated per sample once the arrays have grown.
 */
#ifndef HWPROF_REPORT_H
#define HWPROF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwprof_hist_key {
	HWPROF_HK_COMM,     /* "comm": the thread's comm at the sample */
	HWPROF_HK_PID,      /* "pid": the thread (by tid), shown pid:comm */
	HWPROF_HK_DSO,      /* "dso": the DSO's short name */
	HWPROF_HK_SYM,      /* "sym"/"symbol" */
	HWPROF_HK_CPU,      /* "cpu" */
	HWPROF_HK_SYM_SIZE, /* "symbol_size": size of the symbol */
	HWPROF_HK_DSO_SIZE, /* "dso_size": size of the sample's map */
	HWPROF_HK_ADDR,     /* "addr": the sample's address */
	HWPROF_HK_INS_LAT,  /* "ins_lat": instruction latency of the entry's
	                     * first sample, shown times its samples */
	HWPROF_HK_TIME,     /* "time": the sample's time, in quanta */
	HWPROF_HK_SRCLINE,  /* "srcline": entries by address and DSO, merged
	                     * by their source line text (the caller's
	                     * hwprof_hist_set_srcline() function names it) */
	/* memory keys (perf report --mem-mode): the sample's data source,
	 * data address and weights */
	HWPROF_HK_LOCAL_WEIGHT, /* "local_weight": weight per sample */
	HWPROF_HK_WEIGHT,   /* "weight": entries by their first sample's weight,
	                     * shown times their samples (perf 6.1 as Debian
	                     * ships it, with the hist_entry weight fix) */
	HWPROF_HK_MEM,      /* "mem": the memory level */
	HWPROF_HK_SYM_DADDR, /* "symbol_daddr": the data address (symbol) */
	HWPROF_HK_DSO_DADDR, /* "dso_daddr": the data address's DSO */
	HWPROF_HK_SNOOP,    /* "snoop" */
	HWPROF_HK_TLB,      /* "tlb" */
	HWPROF_HK_LOCKED,   /* "locked" */
	HWPROF_HK_BLOCKED,  /* "blocked" */
	HWPROF_HK_LOCAL_INS_LAT, /* "local_ins_lat": instruction latency per sample */
	HWPROF_HK_IPC_NULL, /* "ipc_null": perf 6.1 adds it to sort orders naming
	                     * "symbol"; an IPC column of dashes (no cycles) */
	HWPROF_HK_SOCKET,   /* "socket": the sample cpu's socket (CPU_TOPOLOGY),
	                     * -1 without one */
	HWPROF_HK_SRCFILE,  /* "srcfile": the source file of the entry's
	                     * address (the caller's srcfile function) */
	HWPROF_HK_TRANSACTION, /* "transaction": PERF_SAMPLE_TRANSACTION flags */
	HWPROF_HK_TRACE,    /* "trace": tracepoint output ("N/A" for others;
	                     * the caller's trace function) */
	HWPROF_HK_CGROUP,   /* "cgroup": PERF_SAMPLE_CGROUP id, shown by the
	                     * CGROUP record's path */
	HWPROF_HK_CGROUP_ID, /* "cgroup_id": the thread's cgroup namespace
	                     * (NAMESPACES records), dev/inode */
	HWPROF_HK_CODE_PAGE_SIZE, /* "code_page_size" */
	HWPROF_HK_PARENT,   /* "parent": the first callchain symbol matching
	                     * perf's parent pattern ("[other]": none) */
	/* memory keys of perf's memory mode only */
	HWPROF_HK_DATA_PAGE_SIZE, /* "data_page_size" */
	HWPROF_HK_PHYS_DADDR, /* "phys_daddr": the physical data address */
	HWPROF_HK_SYM_IADDR, /* "symbol_iaddr": the sample's own address */
	/* branch keys (perf report's branch view: one entry per branch of a
	 * sample's branch stack) */
	HWPROF_HK_DSO_FROM, /* "dso_from": the branch source's DSO */
	HWPROF_HK_DSO_TO,   /* "dso_to" */
	HWPROF_HK_SYM_FROM, /* "symbol_from": its symbol (address if none) */
	HWPROF_HK_SYM_TO,   /* "symbol_to" */
	HWPROF_HK_MISPREDICT, /* "mispredict": N (predicted), Y, N/A */
	HWPROF_HK_IN_TX,    /* "in_tx": in a transaction */
	HWPROF_HK_ABORT,    /* "abort": a transaction abort */
	HWPROF_HK_CYCLES,   /* "cycles": the basic block's cycles */
	HWPROF_HK_ADDR_FROM, /* "addr_from": the source's symbol+offset */
	HWPROF_HK_ADDR_TO,  /* "addr_to" */
	HWPROF_HK_SRCLINE_FROM, /* "srcline_from": the source's srcline text
	                     * (made by the srcline function, lazily) */
	HWPROF_HK_SRCLINE_TO, /* "srcline_to" */
	HWPROF_HK_DCACHELINE, /* "dcacheline": the data address's cache line
	                     * (memory mode; hwprof_hist_set_cacheline()) */
	/* perf's dynamic keys ("[event.]field[/raw]", "trace_fields"): a
	 * tracepoint field of one event, what each slot compares set per
	 * hist by hwprof_hist_set_dyn() (hists of other events skip it) */
	HWPROF_HK_DYN0,
	HWPROF_HK_DYN_LAST = HWPROF_HK_DYN0 + 11,
	/* output fields: they order entries but do not tell them apart */
	HWPROF_HK_CHILDREN, /* "overhead_children": accumulated period, desc. */
	HWPROF_HK_OVERHEAD, /* "overhead": period, descending */
	HWPROF_HK_SAMPLES,  /* "sample": number of samples, descending */
	HWPROF_HK_PERIOD,   /* "period": descending */
	HWPROF_HK_OVERHEAD_SYS, /* "overhead_sys": the kernel samples' share */
	HWPROF_HK_OVERHEAD_US, /* "overhead_us": the user samples' share */
	HWPROF_HK_OVERHEAD_GUEST_SYS, /* "overhead_guest_sys" */
	HWPROF_HK_OVERHEAD_GUEST_US, /* "overhead_guest_us" */
	HWPROF_HK_NR
};
#define HWPROF_HK_FIRST_FIELD HWPROF_HK_CHILDREN
#define HWPROF_HK_NR_DYN (HWPROF_HK_DYN_LAST - HWPROF_HK_DYN0 + 1)
#define HWPROF_HK_IS_DYN(k) ((k) >= HWPROF_HK_DYN0 && (k) <= HWPROF_HK_DYN_LAST)

/* One end of a branch, resolved by the caller (perf's addr_map_symbol:
 * the map found trying user, then kernel space). */
struct hwprof_hist_branch_end {
	const char *dso;            /* DSO long name (kept by the caller), NULL
	                             * without a map */
	bool kernel_map;
	const struct hwprof_sym *sym;
	uint64_t addr;              /* the raw address */
	uint64_t al_addr;           /* DSO-relative when a map holds it */
	uint64_t map_start, map_pgoff, map_size;
	char level;                 /* '.', 'k', or 'H' where no map holds it */
};

/* A branch of a sample's branch stack (perf's branch_info). */
struct hwprof_hist_branch {
	struct hwprof_hist_branch_end from, to;
	uint16_t cycles;
	bool mispred, predicted, in_tx, abort;
	uint8_t type, new_type;     /* PERF_BR_* and PERF_BR_NEW_* */
};

/* The mapping a data address fell in (perf's map and dso_id, which the
 * dcacheline key compares and marks shared data by) */
struct hwprof_hist_dmap {
	uint32_t prot, flags;       /* the mapping's PROT_* and MAP_* */
	uint32_t maj, min;          /* its DSO's device and inode, zero when */
	uint64_t ino, ino_generation; /* the records gave none */
	bool identity;              /* an anonymous or DSO-less map: addresses
	                             * are not made DSO-relative */
};

/* One sample, resolved by the caller. */
struct hwprof_hist_sample {
	const char *comm;           /* comm at sample time (copied) */
	int32_t pid, tid, cpu;
	uint32_t thread;            /* perf's thread object (see
	                             * hwprof_thread_info.serial); 0: by
	                             * pid and tid */
	uint64_t time;              /* sample time, quantized (the time key) */
	const char *dso;            /* DSO long name (kept by the caller for the
	                             * hist's lifetime), NULL without a map */
	bool kernel_map;            /* the map is a kernel map (modules get
	                             * "[name]" short names) */
	const struct hwprof_sym *sym; /* NULL when unresolved (kept by caller) */
	uint64_t ip;                /* DSO-relative when a map holds it */
	uint64_t map_start, map_pgoff; /* the map (perf's unmap_ip for data
	                             * objects' offsets) */
	uint64_t map_size;          /* its length (0 without a map) */
	char level;                 /* '.', 'k', 'g', 'u', 'H' */
	uint64_t period;
	/* memory samples (perf's mem_info, for the memory keys) */
	uint64_t data_src, weight, ins_lat;
	uint64_t daddr;             /* the data address, raw */
	const char *daddr_dso;      /* its map's DSO long name, NULL without */
	bool daddr_kernel_map;
	const struct hwprof_sym *daddr_sym;
	uint64_t daddr_map_start, daddr_map_pgoff;
	struct hwprof_hist_dmap daddr_map;
	const struct hwprof_hist_branch *branch; /* branch view: the branch
	                             * this entry counts (NULL: none) */
	int32_t socket;             /* the cpu's socket, -1 for none */
	uint64_t transaction, cgroup, code_page_size, data_page_size, phys_addr;
	uint64_t cgroup_dev, cgroup_ino; /* the thread's cgroup namespace */
	uint8_t cpumode;            /* HWPROF_MISC_*: overhead_sys/us/guest_* */
	const char *parent;         /* the parent key's symbol name (kept by
	                             * the caller), NULL for none */
	/* tracepoint samples: the raw data (kept by the caller while it is
	 * added; an entry copies its first sample's) and the format id */
	bool tracepoint;
	uint64_t tp_id;
	const uint8_t *raw;
	uint32_t raw_size;
	bool filtered;              /* outside --comm/--dsos/... filters: the
	                             * entries it creates are not shown (those
	                             * it adds to keep their own state, perf's
	                             * first-sample rule) */
	bool stale_chain;           /* the chain is an earlier sample's (perf's
	                             * callchain cursor, left as it was by a
	                             * sample with none): it makes cumulative
	                             * entries only, the sample's own has none */
};

/* One callchain entry, resolved by the caller (perf's cursor node). */
struct hwprof_hist_frame {
	const char *dso;            /* DSO long name (kept by the caller), NULL
	                             * without a map */
	uint32_t dso_rank;          /* perf's order of DSO objects: creation
	                             * order, 0 for none (siblings with equal
	                             * hits are ordered by it) */
	bool kernel_map;
	const struct hwprof_sym *sym;
	uint64_t ip;                /* the raw address */
	uint64_t map_start, map_pgoff;
	uint64_t map_size;          /* its map's (the dso_size key) */
	char level;                 /* the map's level; ignored without a map */
	const char *srcline;        /* perf's callchain srcline (kept by the
	                             * caller): for -g srcline/address, and an
	                             * inlined expansion's entries; NULL when
	                             * there is none. Also the srcline key's
	                             * text of the children entry it makes. */
};

struct hwprof_hist_entry {
	const char *comm;           /* interned */
	int32_t pid, tid, cpu;
	uint32_t thread;            /* the first sample's (as perf's entry) */
	uint32_t comm_id, dso_id;   /* internal (here: the identity a sample's
	                             * entry is found by shares a cache line) */
	uint64_t time;
	const char *dso;            /* long name of the first sample, or NULL */
	const char *dso_short;      /* interned short name, or NULL */
	const struct hwprof_sym *sym;
	uint64_t ip;
	uint64_t map_start, map_pgoff, map_size;
	bool kernel_map;            /* the map is a kernel map (its unmap_ip
	                             * is the identity) */
	char level;
	uint64_t period, nr_samples;
	uint64_t acc_period, acc_samples; /* children mode: with callees */
	uint32_t chain;             /* callchain root node (HWPROF_CHAIN_NONE) */
	uint32_t max_depth;         /* longest chain appended */
	bool filtered;              /* made by a filtered sample: not shown */
	/* memory keys: the first sample's data side, summed weights */
	uint64_t data_src, daddr, weight, ins_lat;
	uint64_t weight1;           /* the first sample's weight (the weight key's) */
	uint64_t ins_lat1;          /* and instruction latency (the ins_lat key's) */
	/* branch view: the branch, and its ends' interned DSO short names */
	bool has_branch;
	struct hwprof_hist_branch br;
	const char *from_dso_short, *to_dso_short;
	uint32_t from_dso_id, to_dso_id;
	const char *daddr_dso;      /* long name of the data map's DSO */
	const char *daddr_dso_short; /* interned short name, or NULL */
	uint32_t daddr_dso_id;
	const struct hwprof_sym *daddr_sym;
	uint64_t daddr_map_start, daddr_map_pgoff;
	bool daddr_kernel_map;
	struct hwprof_hist_dmap daddr_map;
	uint8_t cpumode;            /* the sample's HWPROF_MISC_* */
	const char *srcline;        /* the srcline key's text, NULL until perf
	                             * would have computed it (lazily, when a
	                             * comparison reached the key) */
	uint32_t srcline_width;     /* its length when the entry took its place
	                             * in the output (perf's column width) */
	const char *srcfile;        /* the srcfile key's text, lazily like srcline */
	uint32_t srcfile_width;
	const char *srcline_end[2]; /* branch view: the srcline texts of the
	                             * branch's source and target, lazily */
	uint32_t srcline_end_width[2];
	bool tracepoint;            /* a tracepoint's entry: its first sample's */
	uint64_t tp_id;             /* format id and raw data (owned) */
	const uint8_t *raw;
	uint32_t raw_size;
	const char *trace;          /* the trace key's text, lazily like srcline */
	uint32_t trace_width;
	int32_t socket;
	uint64_t transaction, cgroup, code_page_size, data_page_size, phys_addr;
	uint64_t cgroup_dev, cgroup_ino;
	const char *parent;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

struct hwprof_hist;

/* sort: perf's sort list in order (keys and fields, at most 2 * HK_NR);
 * entries are told apart by the keys (< HWPROF_HK_FIRST_FIELD) in it. */
HWPROF_API int hwprof_hist_new(struct hwprof_hist **out, const enum hwprof_hist_key *sort, size_t nr_sort);
HWPROF_API void hwprof_hist_free(struct hwprof_hist *h);
HWPROF_API int hwprof_hist_add(struct hwprof_hist *h, const struct hwprof_hist_sample *s);
/* The entry the last add counted its sample in (perf's iter->he, which
 * its callbacks see: the entry's first sample's fields), NULL before any. */
HWPROF_API const struct hwprof_hist_entry *hwprof_hist_last_entry(const struct hwprof_hist *h);
/* The text of the srcline key for an entry (perf's get_srcline()); the
 * string must live as long as the hist. */
typedef const char *(*hwprof_srcline_fn)(void *ctx, const struct hwprof_hist_entry *e);
HWPROF_API void hwprof_hist_set_srcline(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx);
/* perf's comm__override(): a thread first seen without a COMM (its comm
 * ":tid") gets its name, and the entries made with the old text take the
 * new one in place (they keep their places in the trees, as in perf). */
HWPROF_API int hwprof_hist_rename_comm(struct hwprof_hist *h, const char *from, const char *to);
/* The cache line size the dcacheline key rounds data addresses down to
 * (perf takes the reporting machine's L1 data cache line). */
HWPROF_API void hwprof_hist_set_cacheline(struct hwprof_hist *h, uint64_t size);
/* DSO columns show the names perf gives this recording's DSOs
 * (hwprof_symbols_perf_name: the kernel as "[kernel.vmlinux]" when perf
 * record found a vmlinux); syms must outlive the histogram. */
HWPROF_API void hwprof_hist_set_dso_names(struct hwprof_hist *h, const struct hwprof_symbols *syms);
/* An entry's data cache line: its data address, in its map's DSO when it
 * has one, rounded down to the cache line. */
HWPROF_API uint64_t hwprof_hist_entry_dcacheline(const struct hwprof_hist *h, const struct hwprof_hist_entry *e);
/* An entry's srcline text, computed now if perf had not yet. */
HWPROF_API const char *hwprof_hist_entry_srcline(struct hwprof_hist *h, const struct hwprof_hist_entry *e);
/* The same for the srcfile key (perf's srcline file part, "" for none). */
HWPROF_API void hwprof_hist_set_srcfile(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx);
HWPROF_API const char *hwprof_hist_entry_srcfile(struct hwprof_hist *h, const struct hwprof_hist_entry *e);
/* The same for the trace key (perf's tracepoint output of the entry's
 * raw data); only called for tracepoint entries. */
HWPROF_API void hwprof_hist_set_trace(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx);
HWPROF_API const char *hwprof_hist_entry_trace(struct hwprof_hist *h, const struct hwprof_hist_entry *e);
/* A dynamic key's field in the hist of its event (perf's hpp_dynamic_entry):
 * entries compare by the field's bytes in their raw data. */
struct hwprof_hist_dyn {
	const char *name;           /* the field's name (kept by the caller) */
	int offset, size;           /* its place in the raw data */
	bool data_loc;              /* a __data_loc: u32 offset | length << 16 */
	bool relative;              /* __rel_loc: the offset from the field's end */
	bool string;                /* a string: perf's width is its size, else
	                             * the hex digits of its size and "0x" */
	bool raw;                   /* "/raw": widths not from the entry's text */
};
HWPROF_API int hwprof_hist_set_dyn(struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_dyn *d);
/* Whether the slot belongs to this hist's event (its column shows). */
HWPROF_API bool hwprof_hist_dyn_defined(const struct hwprof_hist *h, unsigned slot);
/* perf's hde_width(): the widest value met (data_loc lengths compared,
 * values in the entries' text as they took their output places), the
 * name, the field's size. */
HWPROF_API int hwprof_hist_dyn_width(const struct hwprof_hist *h, unsigned slot);

/* A sort key whose column is elided (perf: a filter naming one value):
 * entries are still told apart by it, but the output order skips it. */
HWPROF_API void hwprof_hist_elide(struct hwprof_hist *h, enum hwprof_hist_key k);
/* Orders the entries for output (call once, after the last add). */
HWPROF_API int hwprof_hist_finish(struct hwprof_hist *h);

/* perf's collapse pass (entries equal by the collapse compares merged);
 * hwprof_hist_finish() does it if not done. */
HWPROF_API int hwprof_hist_collapse(struct hwprof_hist *h);

/* ---- event group view ------------------------------------------------------
 * perf's hists__match() and hists__link(): after both are collapsed and
 * before the leader is finished, each leader entry is paired with the
 * member's equal entry, and member entries without one get a new leader
 * entry with their keys and no period. Members are linked in group order;
 * ties in the leader's overhead, samples and period are then ordered by
 * the members' values. */
#define HWPROF_HIST_MAX_MEMBERS 64
HWPROF_API int hwprof_hist_link(struct hwprof_hist *leader, struct hwprof_hist *member);
HWPROF_API uint32_t hwprof_hist_nr_members(const struct hwprof_hist *leader);
/* perf's --group-sort-idx N (before hwprof_hist_finish()): a linked
 * leader's entries ordered by member N's overhead, samples or period (the
 * leader is 0), then the other members'; an N outside the group orders by
 * the leader's value alone. 0: perf's default (leader, then members). */
HWPROF_API void hwprof_hist_set_group_sort_idx(struct hwprof_hist *leader, int idx);
HWPROF_API const struct hwprof_hist *hwprof_hist_member(const struct hwprof_hist *leader, uint32_t k);
/* The pair of a leader's entry in member k, or NULL. */
HWPROF_API const struct hwprof_hist_entry *hwprof_hist_pair(const struct hwprof_hist *leader,
							     const struct hwprof_hist_entry *e, uint32_t k);

HWPROF_API size_t hwprof_hist_nr_entries(const struct hwprof_hist *h);
HWPROF_API const struct hwprof_hist_entry *hwprof_hist_entry(const struct hwprof_hist *h, size_t i);
HWPROF_API uint64_t hwprof_hist_total_period(const struct hwprof_hist *h);
HWPROF_API uint64_t hwprof_hist_nr_samples(const struct hwprof_hist *h);
/* The same over the shown (not filtered) entries' own samples, after
 * hwprof_hist_finish(): perf's --percentage relative base. */
HWPROF_API uint64_t hwprof_hist_shown_period(const struct hwprof_hist *h);
HWPROF_API uint64_t hwprof_hist_shown_samples(const struct hwprof_hist *h);

/* ---- callchains ----------------------------------------------------------
 * Each entry keeps the callchains appended to it as a trie of frames, as
 * perf's callchain_root does (its nodes are runs of this trie). With
 * children (perf's --children, "cumulate"), every distinct entry of a
 * sample's chain gets the period accumulated and the chain from that frame
 * on; the sample's own entry gets the whole chain. */
#define HWPROF_CHAIN_NONE UINT32_MAX

/* Before the first add. HWPROF_HIST_CHILDREN: accumulate callees'
 * periods; HWPROF_HIST_GRAPH: keep the chains for a call graph (perf's
 * use_callchain); HWPROF_HIST_CALLER: chains come root first (with both
 * children and graph, entries of equal accumulated period and thread are
 * ordered by their longest chain: the caller above the callee, as perf). */
#define HWPROF_HIST_CHILDREN 1u
#define HWPROF_HIST_GRAPH 2u
#define HWPROF_HIST_CALLER 4u
/* perf's callchain key (-g srcline / -g address): frames match by their
 * srcline (falling back to the function where neither has one) or by DSO
 * and address instead of by function. */
#define HWPROF_HIST_KEY_SRCLINE 8u
#define HWPROF_HIST_KEY_ADDRESS 16u
HWPROF_API void hwprof_hist_set_callchain(struct hwprof_hist *h, unsigned flags);
/* A sample with its chain in cursor order (caller or callee first, as the
 * graph is to be shown). n may be 0. */
HWPROF_API int hwprof_hist_add_chain(struct hwprof_hist *h, const struct hwprof_hist_sample *s,
				     const struct hwprof_hist_frame *chain, size_t n);
/* Sorts every entry's callchain for output: children by hits (cumulated
 * period) descending, ties in perf's node order, those under min_hit
 * dropped. Call after hwprof_hist_finish(). */
HWPROF_API void hwprof_hist_sort_chains(struct hwprof_hist *h, uint64_t min_hit);
/* The same for perf's fractal graph (-g fractal): below each node only the
 * children holding at least min_percent of what passes below it. */
HWPROF_API void hwprof_hist_sort_chains_rel(struct hwprof_hist *h, double min_percent);
/* Node accessors. A node is one frame; perf prints runs of nodes that
 * have one child and no hits of their own as one graph node. */
HWPROF_API const struct hwprof_hist_frame *hwprof_chain_frame(const struct hwprof_hist *h, uint32_t node);
/* period of the chains ending at the node / passing through it */
HWPROF_API uint64_t hwprof_chain_hit(const struct hwprof_hist *h, uint32_t node);
HWPROF_API uint64_t hwprof_chain_cumul(const struct hwprof_hist *h, uint32_t node);
/* perf's counts (-g ...,count): chains appended ending at the node /
 * passing through it; a merge of equal entries (perf's callchain_merge)
 * counts one per merged node with hits, as perf does */
HWPROF_API uint32_t hwprof_chain_count(const struct hwprof_hist *h, uint32_t node);
HWPROF_API uint32_t hwprof_chain_cumul_count(const struct hwprof_hist *h, uint32_t node);
/* number of children before sorting (the run rule uses it) */
HWPROF_API uint32_t hwprof_chain_nr_children(const struct hwprof_hist *h, uint32_t node);
/* sorted children: first, then next sibling; HWPROF_CHAIN_NONE at the end */
HWPROF_API uint32_t hwprof_chain_first(const struct hwprof_hist *h, uint32_t node);
/* The node above (HWPROF_CHAIN_NONE above an entry's root). */
HWPROF_API uint32_t hwprof_chain_parent(const struct hwprof_hist *h, uint32_t node);
/* perf's flat/folded chain lists (-g flat, -g folded): the nodes of an
 * entry's chains where chains end with at least min_hit, most hits first;
 * *nodes is malloc'ed (free it), NULL when there are none. */
HWPROF_API int hwprof_hist_flat_chains(struct hwprof_hist *h, uint32_t root, uint64_t min_hit, uint32_t **nodes,
				       size_t *n);
HWPROF_API uint32_t hwprof_chain_next(const struct hwprof_hist *h, uint32_t node);

/* perf's short DSO name: basename, "[name]" for kernel modules, names in
 * brackets unchanged. Writes at most len bytes (NUL-terminated). */
HWPROF_API void hwprof_dso_short_name(const char *long_name, bool kernel_map, char *out, size_t len);

/* Parses a perf sort key or field name ("comm", "pid", "dso", "sym",
 * "symbol", "cpu", "overhead", "sample", "period"); returns
 * the key or -1. */
HWPROF_API int hwprof_hist_key_parse(const char *name);
/* An entry's address as perf's addr key shows it (its map's unmap_ip). */
HWPROF_API uint64_t hwprof_hist_entry_addr(const struct hwprof_hist_entry *e);
/* perf's name of a key ("?" for none). */
HWPROF_API const char *hwprof_hist_key_name(enum hwprof_hist_key k);

#ifdef __cplusplus
}
#endif
#endif
