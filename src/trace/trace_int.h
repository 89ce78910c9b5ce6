/* Internal state of a parsed tracing data block (src/trace/): the
 * libtraceevent handle holding the formats, and the text buffer printing
 * fills. trace_data.c reads the block, trace_print.c prints samples. */
#ifndef HWPROF_TRACE_INT_H
#define HWPROF_TRACE_INT_H

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "hwprof/trace.h"

struct hwprof_trace {
	struct tep_handle *tep;
	struct trace_seq seq;      /* text of the last print call */
	hwprof_trace_resolver fn;  /* kernel symbol lookup, or NULL */
	void *fn_ctx;
	char **warnings;           /* libtraceevent's messages, in order */
	size_t nr_warnings;
	char *copy;                /* an aligned copy of the last raw sample */
	size_t copy_cap, copy_dirty; /* its size; bytes of it not zero */
};

/* The event by id, or NULL. */
struct tep_event *trace_event_by_id(const struct hwprof_trace *t, uint64_t id);
/* The event's non-common field i, or NULL. */
struct tep_format_field *trace_field_at(struct tep_event *ev, int i);

/* Warnings go to t while libtraceevent works for it (trace_warn.c). */
void trace_warn_begin(struct hwprof_trace *t);
void trace_warn_end(void);
void trace_warn_free(struct hwprof_trace *t);

#endif
