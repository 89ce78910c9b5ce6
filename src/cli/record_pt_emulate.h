/* hwprof record --pt-emulate: Intel PT traces without PT hardware. */
#ifndef HWPROF_CLI_RECORD_PT_EMULATE_H
#define HWPROF_CLI_RECORD_PT_EMULATE_H

#include <stdbool.h>

/* --pt-emulate among the options before the workload */
bool record_wants_pt_emulate(int argc, char **argv);
int record_pt_emulate(int argc, char **argv);

#endif
