/* perf report's dynamic sort keys (see report_dyn.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_dyn.h"
#include "cli/report_run.h"

/* one column: the field (by index) of event idx */
static int add_col(struct report_dyn *d, uint32_t idx, int field, bool raw, enum hwprof_hist_key *out, int *nout,
		   int max)
{
	const struct hwprof_evsel *ev = hwprof_perfdata_evsel(d->h, idx);
	struct hwprof_trace_field f;
	if (hwprof_trace_field(d->t, ev->attr.config, field, &f) < 0)
		return 0;
	if (d->n == HWPROF_HK_NR_DYN || *nout >= max) {
		fprintf(stderr, "hwprof report: more than %d tracepoint field keys are not supported\n",
			HWPROF_HK_NR_DYN);
		return -1;
	}
	unsigned slot = d->n++;
	d->col[slot].evsel = idx;
	d->col[slot].field = field;
	d->col[slot].d = (struct hwprof_hist_dyn){
		.name = f.name, .offset = f.offset, .size = f.size, .data_loc = (f.flags & HWPROF_TF_DYNAMIC) != 0,
		.relative = (f.flags & HWPROF_TF_RELATIVE) != 0, .string = (f.flags & HWPROF_TF_STRING) != 0,
		.raw = raw };
	out[(*nout)++] = (enum hwprof_hist_key)(HWPROF_HK_DYN0 + slot);
	return 1;
}

/* every (non-common) field of event idx, perf's add_evsel_fields() */
static int add_all(struct report_dyn *d, uint32_t idx, bool raw, enum hwprof_hist_key *out, int *nout, int max)
{
	uint64_t id = hwprof_perfdata_evsel(d->h, idx)->attr.config;
	int nf = hwprof_trace_nr_fields(d->t, id);
	for (int i = 0; i < nf; i++)
		if (add_col(d, idx, i, raw, out, nout, max) < 0)
			return -1;
	return 1;
}

static bool is_tp(const struct report_dyn *d, uint32_t i)
{
	return hwprof_perfdata_evsel(d->h, i)->attr.type == HWPROF_TYPE_TRACEPOINT;
}

/* perf's find_evsel(): "%N" (1-based), a full "sys:name", or a part of
 * one name (none when two match) */
static int find_evsel(const struct report_dyn *d, const char *name, uint32_t *out)
{
	uint32_t n = hwprof_perfdata_nr_evsels(d->h);
	if (name[0] == '%') {
		long nr = strtol(name + 1, NULL, 0);
		if (nr > (long)n || n == 0)
			return 0;
		*out = nr > 1 ? (uint32_t)(nr - 1) : 0;
		return 1;
	}
	bool full = strchr(name, ':') != NULL;
	int found = 0;
	for (uint32_t i = 0; i < n; i++) {
		char buf[256];
		const char *en = hwprof_evsel_name(hwprof_perfdata_evsel(d->h, i), buf, sizeof(buf));
		if (!en)
			continue;
		if (full && !strcmp(en, name)) {
			*out = i;
			return 1;
		}
		if (!full && strstr(en, name)) {
			if (found)
				return 0; /* ambiguous */
			*out = i;
			found = 1;
		}
	}
	return found;
}

int report_dyn_add(struct report_dyn *d, const char *tok, enum hwprof_hist_key *out, int *nout, int max)
{
	char str[512];
	snprintf(str, sizeof(str), "%s", tok);
	/* perf's parse_field_name(): event before the first '.', an option
	 * after the field's '/' */
	char *event = str, *field = strchr(str, '.'), *opt;
	if (field)
		*field++ = 0;
	else {
		event = NULL;
		field = str;
	}
	if ((opt = strchr(field, '/')))
		*opt++ = 0;
	if (opt && strcmp(opt, "raw"))
		return 0;
	bool raw = opt != NULL; /* perf's --raw-trace is not offered */
	uint32_t n = hwprof_perfdata_nr_evsels(d->h);
	if (!strcmp(field, "trace_fields")) {
		for (uint32_t i = 0; i < n; i++)
			if (is_tp(d, i) && add_all(d, i, raw, out, nout, max) < 0)
				return -1;
		return 1;
	}
	if (!event) { /* every tracepoint event with the field */
		int any = 0;
		for (uint32_t i = 0; i < n; i++) {
			int idx;
			if (!is_tp(d, i) || !hwprof_trace_find_field(d->t, hwprof_perfdata_evsel(d->h, i)->attr.config,
								     field, &idx))
				continue;
			int r = add_col(d, i, idx, raw, out, nout, max);
			if (r < 0)
				return -1;
			any |= r;
		}
		return any;
	}
	uint32_t i;
	if (!find_evsel(d, event, &i) || !is_tp(d, i))
		return 0;
	if (!strcmp(field, "*"))
		return add_all(d, i, raw, out, nout, max);
	int idx;
	if (!hwprof_trace_find_field(d->t, hwprof_perfdata_evsel(d->h, i)->attr.config, field, &idx))
		return 0;
	return add_col(d, i, idx, raw, out, nout, max);
}

int report_dyn_setup(const struct report_dyn *d, struct hwprof_hist **hists, uint32_t nr_hists)
{
	for (unsigned s = 0; s < d->n; s++)
		if (d->col[s].evsel < nr_hists && hwprof_hist_set_dyn(hists[d->col[s].evsel], s, &d->col[s].d) < 0)
			return -1;
	return 0;
}

const char *report_dyn_text(void *ctx, struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_entry *e)
{
	struct report_dyn *d = ctx;
	if (slot >= d->n)
		return "";
	const struct hwprof_hist_dyn *c = &d->col[slot].d;
	if (!c->raw) {
		/* perf's __sort__hde_entry: the space-separated item that
		 * begins with the name; the text after it and one more
		 * character */
		const char *str = hwprof_hist_entry_trace(h, e);
		size_t n = strlen(c->name);
		while (str && *str) {
			const char *pos = strchr(str, ' ');
			bool last = !pos;
			if (!pos)
				pos = str + strlen(str);
			if (!strncmp(str, c->name, n)) {
				const char *v = str + n + 1 <= pos ? str + n + 1 : pos;
				snprintf(d->buf, sizeof(d->buf), "%.*s", (int)(pos - v), v);
				return d->buf;
			}
			str = last ? NULL : pos + 1;
		}
	}
	const char *text;
	struct hwprof_trace *t = d->run ? d->run->trace : d->t;
	if (!t || !e->raw || hwprof_trace_field_text(t, e->tp_id, d->col[slot].field, e->raw, e->raw_size, &text) < 0)
		return "";
	snprintf(d->buf, sizeof(d->buf), "%s", text);
	return d->buf;
}
