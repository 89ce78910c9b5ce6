/* `report --tasks` / `--mmaps`: the recorded threads as a process tree,
 * with each thread's memory maps for --mmaps, as perf 6.1 prints them. */
#ifndef HWPROF_CLI_REPORT_TASKS_H
#define HWPROF_CLI_REPORT_TASKS_H

#include <stdbool.h>
#include <stdio.h>

#include "hwprof/session.h"

/* Prints the tree of a session read to its end. Returns 0, or -1 after
 * perf's message when a thread's parent is unknown. */
int print_tasks(FILE *out, struct hwprof_session *s, bool mmaps);

#endif
