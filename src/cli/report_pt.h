/* hwprof report over Intel PT data: the library's PT synthesis run as
 * perf report 6.1 runs it with --itrace, each synthesized branch or
 * instruction sample summed into the histogram of its event (appended
 * after the file's events). report_run feeds it every event in delivery
 * order; the queues are decoded at the end of the input. */
#ifndef HWPROF_CLI_REPORT_PT_H
#define HWPROF_CLI_REPORT_PT_H

#include "hwprof/itrace.h"
#include "hwprof/perfdata.h"
#include "hwprof/session.h"

struct report_run;
struct report_pt;

int report_pt_new(struct report_pt **out, struct report_run *r, const struct hwprof_itrace_opts *itrace);
void report_pt_free(struct report_pt *x);
/* Every event; < 0 on failure (message printed), 1 for an AUXTRACE_INFO
 * record that is not Intel PT's. */
int report_pt_event(struct report_pt *x, const struct hwprof_event *ev);
/* A sample of the file's own, before it is summed: itrace G and L give it
 * its thread's callchain and branch stack from the trace decoded so far
 * (sm then points into x's buffers until the next call). < 0 on failure
 * (message printed). */
int report_pt_sample(struct report_pt *x, struct hwprof_sample *sm);
/* Whether perf gives callchains to the samples of event idx: the file's
 * own (file: itrace G) or one synthesized here (itrace g; true for an
 * event that is not this decoder's). */
bool report_pt_chains(const struct report_pt *x, bool file, uint32_t idx);
/* End of input: decodes the queues into the histograms. < 0 on failure. */
int report_pt_flush(struct report_pt *x);

#endif
