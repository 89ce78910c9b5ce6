/* perf's "perf_event_attr:" block (perf record -vv, perf evlist -vv). */
#ifndef HWPROF_CLI_PRINT_EVENT_ATTR_H
#define HWPROF_CLI_PRINT_EVENT_ATTR_H

#include <stdio.h>

#include "hwprof/perf_event.h"

/* Prints "perf_event_attr:" and one "  %-32s %s" line per non-zero field in
 * perf 6.1's order; the VER8+ fields (config3, config4, sample_simd_*)
 * follow when non-zero. No separator lines. */
void print_event_attr(FILE *out, const struct hwprof_attr *a);

#endif
