/* perf script's line for an AUXTRACE_ERROR record of the file
 * (perf_event__fprintf_auxtrace_error of perf 6.1). */
#ifndef HWPROF_CLI_PRINT_AUX_ERROR_H
#define HWPROF_CLI_PRINT_AUX_ERROR_H

#include <stdio.h>

#include "hwprof/perfdata.h"

/* " <kind> error type T time S.NS [machine_pid P vcpu V] cpu C pid P tid T
 * ip 0x… code N: message"; nothing for a record too short to hold one. */
void print_aux_error(FILE *f, const struct hwprof_record *rec);

#endif
