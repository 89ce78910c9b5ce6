/* hwprof script's Arm SPE samples: runs the library's SPE synthesis over a
 * perf.data with arm_spe AUXTRACE data, as perf script 6.1 does, and prints
 * the samples through print_spe_samples.c with print_script.c's symbols.
 * cmd_script feeds it every event before printing the event's own sample,
 * so synthesized samples come out in perf's order. */
#ifndef HWPROF_CLI_SCRIPT_SPE_H
#define HWPROF_CLI_SCRIPT_SPE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/print_script.h"
#include "hwprof/itrace.h"
#include "hwprof/session.h"

struct script_spe;

/* itrace: the --itrace options (set false: perf's default). */
int script_spe_new(struct script_spe **out, struct script_printer *p, struct hwprof_session *s,
		   const struct hwprof_itrace_opts *itrace, FILE *f);
/* perf script's filters on the synthesized samples: --time (tr, NULL:
 * none; perf's SPE decoder itself does not go by it), and drops (NULL:
 * none) for --comms, --pid, --tid, --dsos, -S and -C: whether a sample is
 * left out (comm NULL: its thread's now). --reltime / --deltatime come
 * from the printer. */
struct time_ranges;
void script_spe_options(struct script_spe *x, script_drops_fn drops, void *ctx, const struct time_ranges *tr);
void script_spe_free(struct script_spe *x);
/* Every event in delivery order, before it is printed. Returns 0, or
 * non-zero when perf would stop (the message is printed). */
int script_spe_event(struct script_spe *x, const struct hwprof_event *ev);
/* Sample lines are kept in a buffer across calls: writes the pending ones
 * to the FILE. Call it before writing anything else there. */
void script_spe_sync(struct script_spe *x);
/* End of input: the samples left. */
int script_spe_flush(struct script_spe *x);

#endif
