/* hwprof report over Intel PT data: the library's PT synthesis run as
 * perf report 6.1 runs it with --itrace, each synthesized branch or
 * instruction sample summed into the histogram of its event (appended
 * after the file's events). report_run feeds it every event in delivery
 * order; the queues are decoded at the end of the input. */
#ifndef HWPROF_CLI_REPORT_PT_H
#define HWPROF_CLI_REPORT_PT_H

#include "hwprof/itrace.h"
#include "hwprof/session.h"

struct report_run;
struct report_pt;

int report_pt_new(struct report_pt **out, struct report_run *r, const struct hwprof_itrace_opts *itrace);
void report_pt_free(struct report_pt *x);
/* Every event; < 0 on failure (message printed), 1 for an AUXTRACE_INFO
 * record that is not Intel PT's. */
int report_pt_event(struct report_pt *x, const struct hwprof_event *ev);
/* End of input: decodes the queues into the histograms. < 0 on failure. */
int report_pt_flush(struct report_pt *x);

#endif
