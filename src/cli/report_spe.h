/* hwprof report over Arm SPE data: the library's SPE synthesis run as
 * perf report 6.1 runs it, each synthesized sample summed into the
 * histogram of its event (l1d-miss, ..., appended after the file's
 * events). report_run feeds it every event in delivery order. */
#ifndef HWPROF_CLI_REPORT_SPE_H
#define HWPROF_CLI_REPORT_SPE_H

#include "hwprof/itrace.h"
#include "hwprof/session.h"

struct report_run;
struct report_spe;

int report_spe_new(struct report_spe **out, struct report_run *r, const struct hwprof_itrace_opts *itrace);
void report_spe_free(struct report_spe *x);
/* Every event before its own sample is added; < 0 on failure (message
 * printed), 1 when the file's AUX data is not Arm SPE. */
int report_spe_event(struct report_spe *x, const struct hwprof_event *ev);
int report_spe_flush(struct report_spe *x);

#endif
