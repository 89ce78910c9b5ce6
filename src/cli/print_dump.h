/* `report -D`: every record of a perf.data printed the way perf report -D
 * prints it (raw bytes, record line, decoded fields), then the stats. */
#ifndef HWPROF_CLI_PRINT_DUMP_H
#define HWPROF_CLI_PRINT_DUMP_H

#include <stdbool.h>
#include <stdio.h>

#include "hwprof/session.h"

/* Returns 0, or the reader's negative error after printing what came
 * before the damage. */
struct cli_progress;
/* progress (may be NULL) is fed the file offset as records go by;
 * *kernel_map is set when a record made perf's host kernel map. */
int print_dump(FILE *out, struct hwprof_session *s, const char *display_path, int branch_mode,
	       struct cli_progress *progress, bool *kernel_map);

/* perf_event__fprintf(): a record's "PERF_RECORD_<NAME>" and its fields
 * (with the newline), as -D prints them after the offset */
void print_record_text(FILE *out, struct hwprof_session *s, const struct hwprof_event *ev);

#endif
