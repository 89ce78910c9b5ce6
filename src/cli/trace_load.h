/* The tracing data of a perf.data (src/cli/trace_load.c): parsed from the
 * TRACING_DATA feature up front, or from a pipe's HEADER_TRACING_DATA
 * record when it comes by; errors reported perf-style on one line. */
#ifndef HWPROF_CLI_TRACE_LOAD_H
#define HWPROF_CLI_TRACE_LOAD_H

#include <stdbool.h>

#include "hwprof/perfdata.h"
#include "hwprof/trace.h"

/* File mode: the feature's tracing data into *out (NULL when the file has
 * none). Prints "hwprof CMD: FILE: offset X: problem" and returns < 0 when
 * it is there but unreadable. */
int trace_load_feature(struct hwprof_perfdata *h, struct hwprof_trace **out, const char *cmd, const char *shown);
/* Pipe mode: a HEADER_TRACING_DATA record's payload replaces *t (perf
 * reads each one it meets); other records are ignored. Same errors. */
int trace_load_record(struct hwprof_perfdata *h, const struct hwprof_record *rec, struct hwprof_trace **t,
		      const char *cmd, const char *shown);

/* perf's machine__resolve_kernel_addr for printed function pointers: the
 * kernel symbol holding an address, from the session's kernel maps. */
#include "cli/kmap.h"
struct trace_ksyms {
	struct kmap_ext k;
	struct hwprof_session *s;
	struct hwprof_symbols *syms;
};
const char *trace_ksym(void *ctx, uint64_t addr, uint64_t *start);

/* libtraceevent's warnings past *shown on stderr as perf prints them;
 * *first_done: the process's first one (perf's perror) has been printed. */
void trace_print_warnings(const struct hwprof_trace *t, int *shown, bool *first_done);

#endif
