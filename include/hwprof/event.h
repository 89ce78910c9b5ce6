/* Event specifications in perf's -e grammar, turned into attrs.
 *
 *   hwprof_evlist_parse()     one -e string ("cycles:u,{cpu/event=0x3c/,r1a8}:S",
 *                             "intel_pt/cyc,mtc_period=3/u", ...) appended to a list
 *   hwprof_evlist_config()    the attr defaults perf record applies (frequency,
 *                             sample_type, tracking on the first event, groups,
 *                             call graphs, AUX PMU defaults)
 *   hwprof_event_names()      symbolic hardware/software events (perf list order)
 *   hwprof_cache_event_name() perf's hardware cache event names
 *   hwprof_arm64_el_*()       which exception levels an attr counts on arm64
 *
 * The grammar: events separated by ',', groups '{a,b}' with optional
 * ':modifiers', an event is a symbolic name (cycles, cpu-clock,
 * L1-dcache-load-misses, ...), rHEX, pmu/term[=value],.../ or
 * name/terms/, followed by ':' modifiers (u k h H G I D W e S P p pp ppp);
 * pmu/terms/ may carry the modifiers right after the closing slash.
 * Tracepoints and breakpoints are not supported (clear error).
 */
#ifndef HWPROF_EVENT_H
#define HWPROF_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"
#include "hwprof/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_pmus;

enum hwprof_event_kind {
	HWPROF_EVENT_HARDWARE = 0, HWPROF_EVENT_SOFTWARE = 1, HWPROF_EVENT_HW_CACHE = 2,
	HWPROF_EVENT_RAW = 3, HWPROF_EVENT_PMU = 4,
};

/* Per-event terms that were given (hwprof_event.set). */
#define HWPROF_EVSET_PERIOD          (1u << 0)
#define HWPROF_EVSET_FREQ            (1u << 1)
#define HWPROF_EVSET_CALL_GRAPH      (1u << 2)
#define HWPROF_EVSET_STACK_SIZE      (1u << 3)
#define HWPROF_EVSET_NAME            (1u << 4)
#define HWPROF_EVSET_AUX_SAMPLE_SIZE (1u << 5)
#define HWPROF_EVSET_AUX_OUTPUT      (1u << 6)
#define HWPROF_EVSET_INHERIT         (1u << 7) /* inherit / no-inherit */
#define HWPROF_EVSET_MAX_STACK       (1u << 8)
#define HWPROF_EVSET_TIME            (1u << 9)

enum hwprof_call_graph {
	HWPROF_CG_UNSET = 0, HWPROF_CG_NO = 1, HWPROF_CG_FP = 2, HWPROF_CG_DWARF = 3,
	HWPROF_CG_LBR = 4,
};

struct hwprof_event {
	struct hwprof_attr attr;    /* parse: type/config*, modifiers; config: the rest */
	char name[160];             /* perf's evsel name: the spec text or name= */
	char pmu[64];               /* PMU name for HWPROF_EVENT_PMU, else "" */
	int kind;                   /* enum hwprof_event_kind */
	int is_aux;                 /* AUX area PMU (intel_pt, arm_spe*, cs_etm) */
	size_t leader;              /* index of the group leader (own index if none) */
	size_t nr_members;          /* on a leader: events in its group (1 alone) */
	size_t spec_off;            /* offset of the event in its -e string */
	unsigned set;               /* HWPROF_EVSET_* */
	uint64_t period, freq;
	int call_graph;             /* enum hwprof_call_graph */
	uint32_t stack_size, aux_sample_size;
	uint16_t max_stack;
	int inherit, time;          /* values of the inherit / time terms */
	int precise_max, weak, sample_read, exclude_gh;
	uint64_t terms_set;         /* bit i: the spec gave format term pmu->formats[i] (i < 64) */
	int added;                  /* appended by hwprof_evlist_config (a tracking dummy), not from -e */
};

struct hwprof_evlist {
	struct hwprof_event *ev;
	size_t nr, cap;
};

#define HWPROF_EVLIST_MAX 4096 /* events in one list */

/* Parse one -e string and append its events to l (several -e: call again).
 * pmus may be NULL (then only symbolic and raw events work). On error the
 * list is left as it was and err (may be NULL) holds one line and the
 * offset in spec: unknown event (with the closest names), unknown PMU,
 * unknown term (with the valid ones closest), value out of the format's
 * range, invalid modifier, syntax errors, tracepoints. Returns the number
 * of events added or -HWPROF_E_INVAL / -HWPROF_E_NOMEM / -HWPROF_E_UNSUPPORTED. */
HWPROF_API int hwprof_evlist_parse(struct hwprof_evlist *l, const char *spec,
				   const struct hwprof_pmus *pmus, struct hwprof_error *err);
HWPROF_API void hwprof_evlist_free(struct hwprof_evlist *l);

/* Record-wide settings (perf record options). */
struct hwprof_evlist_opts {
	uint64_t freq;           /* -F, default 4000 */
	uint64_t period;         /* -c, 0 = sample by frequency */
	int call_graph;          /* -g / --call-graph, enum hwprof_call_graph */
	uint32_t stack_size;     /* dwarf dump size, default 8192 */
	int no_inherit;          /* -i */
	int user_freq;           /* -F was given (Arm SPE refuses frequencies) */
	enum hwprof_arch arch;   /* register mask for dwarf call graphs */
	/* perf record options that change the attrs (the one place they are
	 * applied; the recorder adds only what depends on the target) */
	int data_addr;           /* -d: ADDR|DATA_SRC, mmap_data on the tracking event */
	int sample_cpu;          /* --sample-cpu */
	int inherit_stat;        /* -s */
	int switch_events;       /* --switch-events: context_switch on the tracking event */
	int use_clockid;         /* -k/--clockid: every event's time from clockid */
	int32_t clockid;
	uint32_t aux_sample;     /* --aux-sample[=size] on non-AUX events, 0 = off */
	/* perf's tracking dummy ("dummy:HG", software event 9) is appended to
	 * carry the sideband when the target has CPUs (-a, -C) or with an
	 * initial delay (-D), as perf 6.1's record__open does */
	int target_cpu;          /* -a or -C */
	int delay;               /* -D/--delay given (ms, or -1) */
};
HWPROF_API void hwprof_evlist_opts_default(struct hwprof_evlist_opts *o);

/* Apply perf record's attr defaults to every event of l (call once, after
 * all -e strings): size 128, sample_type IP|TID|TIME|PERIOD, read_format
 * ID|LOST, frequency or period, inherit, disabled + enable_on_exec on
 * leaders, tracking bits on the first event, ID / IDENTIFIER with several
 * events, group sampling (:S), call graphs, per-event terms, AUX PMU
 * defaults (intel_pt's default config from its caps, arm_spe's period from
 * caps/min_interval). pmus may be NULL. -HWPROF_E_INVAL with err on an
 * inconsistent list (aux-sample-size without an AUX leader). */
HWPROF_API int hwprof_evlist_config(struct hwprof_evlist *l, const struct hwprof_evlist_opts *o,
				    const struct hwprof_pmus *pmus, struct hwprof_error *err);

/* ---- names ---------------------------------------------------------------- */

struct hwprof_event_name {
	const char *name;        /* "cpu-cycles" */
	const char *alias;       /* "cycles" or NULL */
	uint64_t config;
};

/* HWPROF_TYPE_HARDWARE or HWPROF_TYPE_SOFTWARE events, sorted by name as
 * perf list prints them. NULL and *nr = 0 for other types. */
HWPROF_API const struct hwprof_event_name *hwprof_event_names(uint32_t type, size_t *nr);
/* perf's tool events (duration_time, user_time, system_time): counting only. */
HWPROF_API const char *const *hwprof_tool_event_names(size_t *nr);

enum { HWPROF_CACHE_L1D = 0, HWPROF_CACHE_L1I, HWPROF_CACHE_LL, HWPROF_CACHE_DTLB,
       HWPROF_CACHE_ITLB, HWPROF_CACHE_BPU, HWPROF_CACHE_NODE, HWPROF_CACHE_MAX };
enum { HWPROF_CACHE_OP_READ = 0, HWPROF_CACHE_OP_WRITE, HWPROF_CACHE_OP_PREFETCH,
       HWPROF_CACHE_OP_MAX };
enum { HWPROF_CACHE_RESULT_ACCESS = 0, HWPROF_CACHE_RESULT_MISS, HWPROF_CACHE_RESULT_MAX };

/* perf's name of a cache event ("L1-dcache-load-misses", "LLC-loads") into
 * buf; -HWPROF_E_INVAL for a combination perf does not offer (L1-icache
 * stores, ...). The attr config is cache | op << 8 | result << 16. */
HWPROF_API int hwprof_cache_event_name(char *buf, size_t len, unsigned cache, unsigned op,
				       unsigned result);

/* ---- arm64 exception levels ----------------------------------------------- */

/* Where the event is opened (Documentation/arch/arm64/perf.rst). */
enum hwprof_arm64_ctx {
	HWPROF_ARM64_VHE_HOST = 0,   /* host kernel at EL2 */
	HWPROF_ARM64_NVHE_HOST = 1,  /* host kernel at EL1, hyp code at EL2 */
	HWPROF_ARM64_GUEST = 2,      /* the event is opened inside a guest */
};
#define HWPROF_EL0 1u
#define HWPROF_EL1 2u
#define HWPROF_EL2 4u

struct hwprof_arm64_el {
	unsigned host;    /* HWPROF_EL* counted while the host (or, in a guest, the guest itself) runs */
	unsigned guest;   /* HWPROF_EL* counted while a guest runs (host contexts only) */
	int switched;     /* counting is switched on guest entry/exit, not by EL filters alone */
	int blackout;     /* non-VHE with !exclude_hv: a small window at guest entry/exit
			     where host events are not counted */
};

/* Which exception levels attr counts in ctx. */
HWPROF_API void hwprof_arm64_el_counted(const struct hwprof_attr *attr, enum hwprof_arm64_ctx ctx,
					struct hwprof_arm64_el *out);
/* Three lines, one per context, e.g.
 * "arm64 EL, VHE host:     host EL0,EL2; guest EL0,EL1\n". snprintf semantics. */
HWPROF_API int hwprof_arm64_el_format(char *buf, size_t len, const struct hwprof_attr *attr);

#ifdef __cplusplus
}
#endif
#endif
