/* Printers for Intel PT flow events (hwprof pt insn). */
#ifndef HWPROF_PRINT_PT_FLOW_H
#define HWPROF_PRINT_PT_FLOW_H

#include <stdio.h>
#include "hwprof/intel_pt_flow.h"

enum print_pt_flow_what {
	PRINT_PT_INSN,     /* one instruction address per line */
	PRINT_PT_BRANCH,   /* "from => to" per taken branch, trace begin/end */
	PRINT_PT_EVENTS,   /* every event, one line each (debugging) */
};

/* Prints ev per `what`. Returns the number of lines printed. */
size_t print_pt_flow_event(FILE *f, enum print_pt_flow_what what,
			   const struct hwprof_pt_event *ev);

#endif
