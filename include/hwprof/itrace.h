/* Instruction-trace synthesis options: perf's `--itrace=...` letters parsed
 * into a struct shared by every AUX-trace decoder (Arm SPE, Intel PT).
 *
 *   hwprof_itrace_opts_default()  what perf uses when --itrace is absent
 *                                 (or given without letters)
 *   hwprof_itrace_opts_parse()    the letter syntax of Debian perf 6.1
 *
 * The syntax (perf-intel-pt(1), perf-arm-spe(1)): i[period] instructions,
 * b branches, c calls, r returns, x transactions, w ptwrites, p power
 * events, o other events, I interrupt events, e[+-flags] errors,
 * d[+-flags] debug log, f first-level cache, m last-level cache, t TLB,
 * a remote access, M memory, g[n]/G[n] callchains, l[n]/L[n] last branch,
 * s<n> initial skip, q quick (repeatable), A approximate IPC, Z timeless.
 * A period is a number with a unit: i (instructions), t (ticks), ns, us,
 * ms; without a unit the period type stays the default (nanoseconds).
 */
#ifndef HWPROF_ITRACE_H
#define HWPROF_ITRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwprof_itrace_period_type {
	HWPROF_ITRACE_PERIOD_INSTRUCTIONS = 0,
	HWPROF_ITRACE_PERIOD_TICKS = 1,
	HWPROF_ITRACE_PERIOD_NANOSECS = 2,
};

/* perf's defaults. */
#define HWPROF_ITRACE_DEFAULT_PERIOD 100000           /* nanoseconds */
#define HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ 16
#define HWPROF_ITRACE_MAX_CALLCHAIN_SZ 1024
#define HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ 64
#define HWPROF_ITRACE_MAX_LAST_BRANCH_SZ 1024

/* Flags after 'e' / 'd' ('+x' / '-x'): bit (letter - 'a'). */
#define HWPROF_ITRACE_FLAG(letter) (1u << ((letter) - 'a'))

struct hwprof_itrace_opts {
	bool set;             /* --itrace was given (else decoders use the default) */
	bool dont_decode;     /* --no-itrace */
	bool instructions, branches, transactions, ptwrites, pwr_events;
	bool other_events, intr_events, errors, log, calls, returns;
	bool callchain, add_callchain, last_branch, add_last_branch;
	bool flc, llc, tlb, remote_access, mem; /* Arm SPE groups (f m t a M) */
	bool approx_ipc, timeless;
	unsigned quick;       /* number of 'q' */
	enum hwprof_itrace_period_type period_type;
	uint64_t period;
	unsigned callchain_sz, last_branch_sz;
	uint64_t initial_skip;
	unsigned error_plus_flags, error_minus_flags;
	unsigned log_plus_flags, log_minus_flags;
};

/* perf's default set: everything but calls/returns/callchains/logs, with
 * instructions every 100000 ns; no_sample (perf's tools that do not sample
 * instructions) instead turns on calls with a period of 1 instruction and
 * leaves instructions off. Sets o->set to false. */
HWPROF_API void hwprof_itrace_opts_default(struct hwprof_itrace_opts *o, bool no_sample);

/* Parses str into o, which should start zeroed (letters only turn things
 * on, as in perf). str NULL means `--itrace` without a value: the default
 * set (with no_sample). Returns 0, or -HWPROF_E_INVAL on a bad letter or
 * period (o is then partly updated, as perf leaves it). */
HWPROF_API int hwprof_itrace_opts_parse(struct hwprof_itrace_opts *o, const char *str, bool no_sample);

#ifdef __cplusplus
}
#endif
#endif
