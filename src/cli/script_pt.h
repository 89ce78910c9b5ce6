/* hwprof script's Intel PT samples: runs the library's PT synthesis over a
 * perf.data with intel_pt AUXTRACE data, as perf script 6.1 does with
 * --itrace, and prints the samples with print_pt_samples.c and
 * print_script.c's symbols. cmd_script feeds it every event in delivery
 * order; the trace queues are decoded at the end of the input (perf's
 * timeless decoding). */
#ifndef HWPROF_CLI_SCRIPT_PT_H
#define HWPROF_CLI_SCRIPT_PT_H

#include <stdio.h>

#include "cli/print_script.h"
#include "hwprof/itrace.h"
#include "hwprof/session.h"

struct script_pt;

/* itrace: the --itrace options (set false: perf script's default). */
int script_pt_new(struct script_pt **out, struct script_printer *p, struct hwprof_session *s,
		  const struct hwprof_itrace_opts *itrace, FILE *f);
void script_pt_free(struct script_pt *x);
/* Every event in delivery order. Returns 0, or non-zero when perf would
 * stop (the message is printed). */
int script_pt_event(struct script_pt *x, const struct hwprof_event *ev);
/* perf script's sample filters (--comms, --pid, --tid, --dsos, -S, --cpu)
 * apply to the trace's samples too: drops says whether a sample (of the
 * thread whose comm is given) is left out. side: --show-*-events prints
 * records among the samples, which then come in perf's order. tr: --time
 * (NULL: none), which perf's decoder goes by too (it starts decoding at
 * the last PSB before each range). */
struct time_ranges;
struct report_filter;
/* -C: the trace of other cpus is not decoded at all (perf queues none of
 * their buffers); NULL or a filter without cpus: all. */
void script_pt_cpu_filter(struct script_pt *x, const struct report_filter *f);
void script_pt_options(struct script_pt *x, script_drops_fn drops, void *ctx, bool side,
		       const struct time_ranges *tr);
/* A sample of the file's own, before it is printed: itrace G and L give it
 * its thread's callchain and branch stack from the trace decoded so far
 * (ev then points into x's buffers until the next call). Returns 0, or
 * non-zero when perf would stop (the message is printed). */
int script_pt_sample(struct script_pt *x, struct hwprof_event *ev);
/* End of input: decodes the queues and prints their samples. */
int script_pt_flush(struct script_pt *x);

#endif
