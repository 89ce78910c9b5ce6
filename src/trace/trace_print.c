/* A tracepoint sample's text through libtraceevent: the event's print-fmt
 * output (perf's event_format__fprintf), one field, or all fields.
 *
 * libtraceevent trusts the raw data: __data_loc offsets (16 bits, from the
 * start or, relative, from the field) and unterminated char arrays make it
 * read past the sample. So it is handed a copy followed by enough zero
 * bytes that every such read stays inside it and every string ends. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace_int.h"

/* largest reach of a __data_loc past the sample or its fields: offset
 * and length are 16 bits each, a relative offset adds the field's place */
#define TAIL (3u << 16)

/* The end of the event's furthest field: libtraceevent reads each field
 * at its offset whatever the sample's size. 0 when a field lies beyond
 * any sample (a corrupt format): such events are not printed. */
static uint32_t fields_end(const struct tep_event *ev)
{
	uint64_t end = 1;
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	for (int l = 0; l < 2; l++)
		for (const struct tep_format_field *f = lists[l]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0)
				return 0;
			uint64_t e = (uint64_t)f->offset + (uint64_t)f->size;
			if (e > end)
				end = e;
		}
	return end > (1u << 16) ? 0 : (uint32_t)end;
}

static void *padded(struct hwprof_trace *t, const struct tep_event *ev, const void *raw, uint32_t size)
{
	uint32_t fend = fields_end(ev);
	if (!fend)
		return NULL;
	size_t want = (size_t)(size > fend ? size : fend) + TAIL;
	if (want > t->copy_cap) {
		char *p = calloc(1, want);
		if (!p)
			return NULL;
		free(t->copy);
		t->copy = p;
		t->copy_cap = want;
		t->copy_dirty = 0;
	}
	/* all else stays zero: only the last sample's bytes are cleared */
	memset(t->copy, 0, t->copy_dirty < t->copy_cap ? t->copy_dirty : t->copy_cap);
	memcpy(t->copy, raw, size);
	t->copy_dirty = size;
	return t->copy;
}

static int done(struct hwprof_trace *t, const char **text)
{
	if (t->seq.state != TRACE_SEQ__GOOD)
		return -HWPROF_E_NOMEM;
	trace_seq_terminate(&t->seq);
	*text = t->seq.buffer;
	return (int)t->seq.len;
}

HWPROF_API int hwprof_trace_print(struct hwprof_trace *t, uint64_t id, int cpu, const void *raw,
				  uint32_t raw_size, const char **text)
{
	struct tep_event *ev = trace_event_by_id(t, id);
	if (!ev)
		return -HWPROF_E_NOENT;
	void *data = padded(t, ev, raw, raw_size);
	if (!data)
		return -HWPROF_E_CORRUPT;
	struct tep_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)raw_size;
	rec.data = data;
	trace_seq_reset(&t->seq);
	trace_warn_begin(t);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_warn_end();
	return done(t, text);
}

struct tep_format_field *trace_field_at(struct tep_event *ev, int i)
{
	struct tep_format_field *f = !ev ? NULL : i < 0 ? ev->format.common_fields : ev->format.fields;
	for (int n = i < 0 ? -1 - i : i; f && n > 0; n--)
		f = f->next;
	return f;
}

HWPROF_API int hwprof_trace_find_field(const struct hwprof_trace *t, uint64_t id, const char *name, int *index)
{
	struct tep_event *ev = trace_event_by_id(t, id);
	if (!ev)
		return 0;
	/* tep_find_any_field's order: the common fields first */
	int i = 0;
	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next, i++)
		if (!strcmp(f->name, name)) {
			*index = -1 - i;
			return 1;
		}
	i = 0;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next, i++)
		if (!strcmp(f->name, name)) {
			*index = i;
			return 1;
		}
	return 0;
}

HWPROF_API int hwprof_trace_nr_fields(const struct hwprof_trace *t, uint64_t id)
{
	struct tep_event *ev = trace_event_by_id(t, id);
	return ev ? ev->format.nr_fields : 0;
}

HWPROF_API int hwprof_trace_field(const struct hwprof_trace *t, uint64_t id, int i,
				  struct hwprof_trace_field *f)
{
	struct tep_format_field *tf = trace_field_at(trace_event_by_id(t, id), i);
	if (!tf)
		return -HWPROF_E_NOENT;
	f->name = tf->name;
	f->type = tf->type;
	f->offset = tf->offset;
	f->size = tf->size;
	f->flags = (unsigned)tf->flags; /* HWPROF_TF_* share libtraceevent's bits */
	return 0;
}

HWPROF_API int hwprof_trace_field_text(struct hwprof_trace *t, uint64_t id, int i, const void *raw,
				       uint32_t raw_size, const char **text)
{
	struct tep_format_field *tf = trace_field_at(trace_event_by_id(t, id), i);
	if (!tf)
		return -HWPROF_E_NOENT;
	void *data = padded(t, tf->event, raw, raw_size);
	if (!data)
		return -HWPROF_E_CORRUPT;
	trace_seq_reset(&t->seq);
	trace_warn_begin(t);
	tep_print_field(&t->seq, data, tf);
	trace_warn_end();
	return done(t, text);
}

HWPROF_API int hwprof_trace_print_fields(struct hwprof_trace *t, uint64_t id, const void *raw,
					 uint32_t raw_size, const char **text)
{
	struct tep_event *ev = trace_event_by_id(t, id);
	if (!ev)
		return -HWPROF_E_NOENT;
	void *data = padded(t, ev, raw, raw_size);
	if (!data)
		return -HWPROF_E_CORRUPT;
	trace_seq_reset(&t->seq);
	trace_warn_begin(t);
	tep_print_fields(&t->seq, data, (int)raw_size, ev);
	trace_warn_end();
	return done(t, text);
}

HWPROF_API int hwprof_trace_field_bytes(const struct hwprof_trace *t, uint64_t id, int i, const void *raw,
					uint32_t raw_size, const uint8_t **bytes, uint32_t *len)
{
	struct tep_format_field *tf = trace_field_at(trace_event_by_id(t, id), i);
	if (!tf)
		return -HWPROF_E_NOENT;
	uint32_t off = (uint32_t)tf->offset, n = (uint32_t)tf->size;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC) {
		/* a __data_loc: u32 (offset | len << 16) */
		if (off + 4 > raw_size)
			return -HWPROF_E_CORRUPT;
		unsigned long long dyn = 0;
		if (tep_read_number_field(tf, raw, &dyn))
			return -HWPROF_E_CORRUPT;
		n = (uint32_t)(dyn >> 16) & 0xffff;
		uint32_t rel = (tf->flags & TEP_FIELD_IS_RELATIVE) ? off + (uint32_t)tf->size : 0;
		off = (uint32_t)(dyn & 0xffff) + rel;
	}
	if ((uint64_t)off + n > raw_size)
		return -HWPROF_E_CORRUPT;
	*bytes = (const uint8_t *)raw + off;
	*len = n;
	return 0;
}

/* libtraceevent's resolver callback onto the caller's */
static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct hwprof_trace *t = priv;
	uint64_t start = *addrp;
	const char *name = t->fn(t->fn_ctx, *addrp, &start);
	if (!name)
		return NULL;
	*addrp = start;
	if (modp)
		*modp = NULL;
	return (char *)name; /* libtraceevent only reads it */
}

HWPROF_API int hwprof_trace_set_resolver(struct hwprof_trace *t, hwprof_trace_resolver fn, void *ctx)
{
	t->fn = fn;
	t->fn_ctx = ctx;
	if (!fn) {
		tep_reset_function_resolver(t->tep);
		return 0;
	}
	return tep_set_function_resolver(t->tep, resolve, t) < 0 ? -HWPROF_E_NOMEM : 0;
}
