/* Tracepoint formats: the tracing data perf stores in perf.data (the
 * HEADER_TRACING_DATA feature, or the record of that name in pipe mode)
 * and the text of a tracepoint sample's raw data.
 *
 *   hwprof_trace_parse()       read the tracing data (header_page, event
 *                              format files, printk formats, saved comms)
 *   hwprof_trace_event()       an event's system and name by its id
 *                              (a tracepoint evsel's attr.config)
 *   hwprof_trace_print()       the event's print-fmt text for a raw sample,
 *                              as perf 6.1 prints it in `perf script`
 *   hwprof_trace_field*()      the event's fields, their values as text
 *
 * Formats and printing are libtraceevent's; the handle hides it. Raw data
 * is in the byte order of the file the tracing data came from.
 */
#ifndef HWPROF_TRACE_H
#define HWPROF_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_trace;

/* Parse tracing data of size bytes. base is the file offset of data[0],
 * used in error offsets. On failure *out is NULL and err (if given) says
 * what and where. *used (if given) gets the bytes the data took. */
HWPROF_API int hwprof_trace_parse(struct hwprof_trace **out, const uint8_t *data, uint64_t size,
				  uint64_t base, uint64_t *used, struct hwprof_error *err);
HWPROF_API void hwprof_trace_free(struct hwprof_trace *t);

/* libtraceevent's warnings so far (parsing formats, printing samples),
 * one line each without the two-space indent perf adds: perf prints them
 * on stderr as they come, "libtraceevent: <errno text>" before the first. */
HWPROF_API int hwprof_trace_nr_warnings(const struct hwprof_trace *t);
HWPROF_API const char *hwprof_trace_warning(const struct hwprof_trace *t, int i);

/* Resolver for kernel addresses printed as functions (%pS, __func__-like
 * fields): returns the symbol name holding addr (NULL: unknown) and sets
 * *start to its address. */
typedef const char *(*hwprof_trace_resolver)(void *ctx, uint64_t addr, uint64_t *start);
HWPROF_API int hwprof_trace_set_resolver(struct hwprof_trace *t, hwprof_trace_resolver fn, void *ctx);

/* The event with format id `id`: 1 found (sys, name set), 0 not. */
HWPROF_API int hwprof_trace_event(const struct hwprof_trace *t, uint64_t id, const char **sys,
				  const char **name);

/* The event's text for a raw sample (perf's print-fmt output, no newline)
 * into a buffer the handle owns, valid until the next call on it. Returns
 * the length, or -HWPROF_E_NOENT for an unknown event. */
HWPROF_API int hwprof_trace_print(struct hwprof_trace *t, uint64_t id, int cpu, const void *raw,
				  uint32_t raw_size, const char **text);

/* Fields of an event, common_* ones excluded (perf's format.fields). */
enum hwprof_trace_field_flags {
	HWPROF_TF_ARRAY = 1, HWPROF_TF_POINTER = 2, HWPROF_TF_SIGNED = 4, HWPROF_TF_STRING = 8,
	HWPROF_TF_DYNAMIC = 16, HWPROF_TF_LONG = 32, HWPROF_TF_FLAG = 64, HWPROF_TF_SYMBOLIC = 128,
	HWPROF_TF_RELATIVE = 256,
};
struct hwprof_trace_field {
	const char *name;
	const char *type;
	int offset, size;
	unsigned flags;            /* HWPROF_TF_* */
};
/* Number of fields of event id (0 if unknown); field i of them. A
 * negative i names common field -1 - i (common_pid ...). */
HWPROF_API int hwprof_trace_nr_fields(const struct hwprof_trace *t, uint64_t id);
HWPROF_API int hwprof_trace_field(const struct hwprof_trace *t, uint64_t id, int i,
				  struct hwprof_trace_field *f);
/* The index of the field called name, common fields too (libtraceevent's
 * tep_find_any_field): 1 found, 0 not. */
HWPROF_API int hwprof_trace_find_field(const struct hwprof_trace *t, uint64_t id, const char *name, int *index);
/* Field i of a raw sample as libtraceevent prints a lone field (perf's
 * "field/raw" sort key value). Returns the length; the text is in a
 * buffer the handle owns, valid until the next call on it. */
HWPROF_API int hwprof_trace_field_text(struct hwprof_trace *t, uint64_t id, int i, const void *raw,
				       uint32_t raw_size, const char **text);
/* Every field as "name=value " (perf report's --raw-trace trace output). */
HWPROF_API int hwprof_trace_print_fields(struct hwprof_trace *t, uint64_t id, const void *raw,
					 uint32_t raw_size, const char **text);
/* A field's value from the raw data as a number (what perf compares for
 * non-dynamic fields are the bytes; this is for callers that need one). */
HWPROF_API int hwprof_trace_field_bytes(const struct hwprof_trace *t, uint64_t id, int i, const void *raw,
					uint32_t raw_size, const uint8_t **bytes, uint32_t *len);

#ifdef __cplusplus
}
#endif
#endif
