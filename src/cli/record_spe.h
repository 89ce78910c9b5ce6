/* hwprof record's Arm SPE hook (record_spe.c). */
#ifndef HWPROF_CLI_RECORD_SPE_H
#define HWPROF_CLI_RECORD_SPE_H

#include "hwprof/event.h"
#include "hwprof/pmu.h"
#include "cli/record_run.h"

/* With an arm_spe_N event in l: notes on stderr; unless dry, SPE's AUX
 * buffer sizes and the AUXTRACE_INFO builder in ro. 0 or an exit status. */
int record_spe_setup(const struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
		     const struct hwprof_evlist_opts *o, struct record_cli_opts *ro, int dry);

#endif
