/* Intel PT configuration as perf 6.1 sets it up for recording.
 *
 *   hwprof_pt_default_terms()  perf's default config terms from the PMU's
 *                              caps ("tsc,mtc,mtc_period=3,psb_period=3,pt,branch")
 *   hwprof_pt_check_config()   the checks perf record makes on an intel_pt
 *                              config (psb_period / mtc_period / cyc_thresh
 *                              against caps/, with perf's messages), then
 *                              the terms the CPU lacks, which the kernel
 *                              would refuse with EINVAL
 *   hwprof_pt_filter_*()       perf's --filter grammar for address filters
 *                              into the kernel's filter string
 *   hwprof_pt_auxtrace_info()  the PERF_RECORD_AUXTRACE_INFO body perf
 *                              writes for intel_pt
 *
 * Everything reads the PMU as hwprof_pmus_open() found it (sysfs root
 * replaceable), never the live machine, except where a caller-replaceable
 * function is named (CPUID leaf 0x15, the perf mmap page).
 */
#ifndef HWPROF_INTEL_PT_CFG_H
#define HWPROF_INTEL_PT_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- config terms ----------------------------------------------------------- */

/* perf's default config terms for this intel_pt PMU into buf (snprintf
 * semantics): "tsc", then ",mtc,mtc_period=N" when caps/mtc allows and
 * caps/mtc_periods is non-zero, ",psb_period=N" when caps/psb_cyc allows
 * and MTC periods exist, ",pt,branch" when both formats exist. N is the
 * supported value nearest 3 from below, else the smallest above. */
HWPROF_API int hwprof_pt_default_terms(const struct hwprof_pmu *pmu, char *buf, size_t len);

/* Check results beyond the error. */
#define HWPROF_PT_FORCED_PT 1u   /* pt was 0 and has been set (perf warns
                                    "pt=0 doesn't make sense, forcing pt=1") */

/* perf record's intel_pt config checks, in perf's order, on *config:
 * force pt=1 when the pt format exists; cyc_thresh against caps/
 * cycle_thresholds (no values but 0 when caps/psb_cyc is 0), mtc_period
 * against caps/mtc_periods (caps/mtc), psb_period against caps/psb_periods
 * (caps/psb_cyc): -HWPROF_E_INVAL with perf's message "Invalid cyc_thresh
 * for intel_pt. Valid values are: 0-12". Then what the kernel's intel_pt
 * driver refuses with EINVAL for missing capabilities (cyc without
 * psb_cyc, mtc without mtc, ptw/fup_on_ptw without ptwrite, pwr_evt
 * without power_event_trace, event without event_trace, notnt without
 * tnt_disable, branch=0 without pt): -HWPROF_E_OPNOTSUPP with a line
 * naming the term and the missing caps/ file. *flags gets HWPROF_PT_*
 * (may be NULL). err may be NULL. */
HWPROF_API int hwprof_pt_check_config(const struct hwprof_pmu *pmu, uint64_t *config, unsigned *flags,
				      struct hwprof_error *err);

/* perf's list of valid values of a caps bitmap ("0-5", "0,3,6,9",
 * "0-3,5"): runs of three or more as a-b. snprintf semantics. */
HWPROF_API int hwprof_pt_valid_values(char *buf, size_t len, uint64_t bitmap);

/* The config bits of a term in config (0 if the PMU has no such term in
 * config), as perf puts them in AUXTRACE_INFO (tsc 0x400, mtc_period
 * 0x3c000). */
HWPROF_API uint64_t hwprof_pt_term_bits(const struct hwprof_pmu *pmu, const char *term);

/* ---- address filters ----------------------------------------------------- */

enum hwprof_pt_filter_action {
	HWPROF_PT_FILTER = 0,     /* "filter": trace only inside the range */
	HWPROF_PT_START = 1,      /* "start": start tracing at the address */
	HWPROF_PT_STOP = 2,       /* "stop": stop tracing at the address */
	HWPROF_PT_TRACESTOP = 3,  /* "tracestop": stop inside the range (kernel: "stop" with a size) */
};

/* One filter as written: numbers or symbol names, before resolution. */
struct hwprof_pt_filter {
	int action;               /* enum hwprof_pt_filter_action */
	bool range;               /* has a size (filter, tracestop, or "/size") */
	uint64_t addr, size;
	char sym_from[256], sym_to[256]; /* "" when a number was given */
	int from_idx, to_idx;     /* "#n" after a symbol: n > 0 the n'th, 0 (#0,
	                             #g, #G) the global one, -1 any (unique) */
	char file[4096];          /* after '@', "" for the kernel */
};

/* Parse perf's --filter text: filters separated by ',' or ' ', each
 * "filter|start|stop|tracestop ADDR|SYM[#n] [/ SIZE|SYM[#n]] [@FILE]".
 * Returns the number parsed (<= max) or -HWPROF_E_INVAL (err names the
 * offset); more than max filters is -HWPROF_E_NOMEM. out NULL only
 * counts (max ignored). */
HWPROF_API int hwprof_pt_filter_parse(const char *text, struct hwprof_pt_filter *out, size_t max,
				      struct hwprof_error *err);

/* Resolution flags. perf demangles C++ names with their parameters when
 * run with -v ("ns::work(int)"), without them otherwise ("ns::work"). */
#define HWPROF_PT_FILTER_PARAMS 1u

/* Resolve symbol names to file offsets through FILE's ELF symbol table
 * (.symtab, else .dynsym; functions and objects, as perf loads them,
 * names demangled), '*' to the whole file (0/file size); without FILE,
 * kernel symbols from /proc/kallsyms ('*' = the whole kernel text). The
 * file name becomes its realpath. -HWPROF_E_INVAL with perf's message(s)
 * in msg (lines joined by '\n', no trailing newline). */
HWPROF_API int hwprof_pt_filter_resolve(struct hwprof_pt_filter *f, unsigned flags, char *msg, size_t len);

/* The kernel's text for one resolved filter ("filter 0x1130/0x2a@/usr/bin/x",
 * "start 0xffffffff81000000"; tracestop is written "stop" with a size),
 * appended to buf after a ',' when buf is not empty. -HWPROF_E_NOMEM if it
 * does not fit. */
HWPROF_API int hwprof_pt_filter_append(char *buf, size_t len, const struct hwprof_pt_filter *f);

/* The whole of perf's address-filter processing for an event: parse,
 * check the count against the PMU's nr_addr_filters, resolve, join. On
 * error msg holds perf's lines, ending with its "Failed to parse address
 * filter: '...'" / "Filter format is: ..." / "Where multiple filters ..."
 * trailer. Returns 0 or -HWPROF_E_*. */
HWPROF_API int hwprof_pt_filter_build(const struct hwprof_pmu *pmu, const char *text, unsigned flags, char *out,
				      size_t outlen, char *msg, size_t msglen);

/* ---- AUXTRACE_INFO ------------------------------------------------------- */

/* Priv word indexes of perf's intel_pt AUXTRACE_INFO (tools/perf/util/intel-pt.h). */
enum hwprof_pt_info_idx {
	HWPROF_PT_INFO_PMU_TYPE = 0, HWPROF_PT_INFO_TIME_SHIFT, HWPROF_PT_INFO_TIME_MULT,
	HWPROF_PT_INFO_TIME_ZERO, HWPROF_PT_INFO_CAP_USER_TIME_ZERO, HWPROF_PT_INFO_TSC_BIT,
	HWPROF_PT_INFO_NORETCOMP_BIT, HWPROF_PT_INFO_HAVE_SCHED_SWITCH, HWPROF_PT_INFO_SNAPSHOT_MODE,
	HWPROF_PT_INFO_PER_CPU_MMAPS, HWPROF_PT_INFO_MTC_BIT, HWPROF_PT_INFO_MTC_FREQ_BITS,
	HWPROF_PT_INFO_TSC_CTC_N, HWPROF_PT_INFO_TSC_CTC_D, HWPROF_PT_INFO_CYC_BIT,
	HWPROF_PT_INFO_MAX_NONTURBO_RATIO, HWPROF_PT_INFO_FILTER_STR_LEN,
	HWPROF_PT_INFO_WORDS /* 17 */
};

/* The time conversion of a perf mmap page (perf_event_mmap_page). */
struct hwprof_pt_time {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	bool cap_user_time_zero;
};

/* Where the values that do not come from sysfs are read. Any NULL
 * function means "the real one": CPUID leaf 0x15 on x86 (0/0 elsewhere),
 * and the time fields of the mmap page of a dummy software event opened
 * through the sys seam. */
struct hwprof_pt_info_src {
	void (*cpuid15)(void *ctx, uint32_t *eax, uint32_t *ebx); /* TSC:CTC = ebx/eax */
	int (*time)(void *ctx, struct hwprof_pt_time *t);        /* 0 or -HWPROF_E_* */
	void *ctx;
};

/* What the recording adds beyond the PMU. */
struct hwprof_pt_info_opts {
	int have_sched_switch;    /* 0 none, 1 sched_switch tracepoint, 2 context_switch,
	                             3 context_switch on a cpu-wide dummy event */
	bool snapshot_mode;
	bool per_cpu_mmaps;
	const char *filter;       /* the kernel filter string, NULL/"" = none */
};

/* Bytes of the AUXTRACE_INFO body (u32 type, u32 reserved, the priv words,
 * the filter string NUL-padded to a multiple of 8). */
HWPROF_API size_t hwprof_pt_auxtrace_info_size(const struct hwprof_pt_info_opts *o);

/* Write the intel_pt AUXTRACE_INFO body (what follows the 8-byte record
 * header) into buf. Returns the bytes written or -HWPROF_E_NOMEM (buf too
 * small), or the time source's error. */
HWPROF_API int hwprof_pt_auxtrace_info(const struct hwprof_pmu *pmu, const struct hwprof_pt_info_opts *o,
				       const struct hwprof_pt_info_src *src, uint8_t *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
