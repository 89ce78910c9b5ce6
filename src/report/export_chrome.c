/* The Chrome trace event JSON format, which the Perfetto UI and
 * chrome://tracing open: for each thread of the first event, a flame chart
 * of nested "X" (complete) slices. Consecutive samples sharing a stack
 * prefix extend the same slices; a slice ends where the next sample leaves
 * it. A gap much longer than the sampling interval (the thread slept)
 * closes every slice one interval after the last sample. Timestamps are
 * microseconds from the first sample. */
#include <stdlib.h>

#include "report/export_int.h"

struct ch_ctx {
	FILE *f;
	const struct hwprof_profile *p;
	uint64_t t0;
	int32_t pid, tid;
	bool ns_periods;       /* periods are nanoseconds: the interval */
	uint32_t *open;        /* open stack nodes, root first */
	uint64_t *start;       /* their start times */
	uint32_t depth, cap;
	uint64_t prev_time, prev_weight, min_gap;
	bool any;
	bool *first_event;
};

static void ch_emit(struct ch_ctx *c, uint32_t stack, uint64_t start, uint64_t end)
{
	const struct hwprof_profile_frame *fr = hwprof_profile_frame(c->p, hwprof_profile_stack_frame(c->p, stack));
	FILE *f = c->f;
	fputs(*c->first_event ? "\n{\"name\":" : ",\n{\"name\":", f);
	*c->first_event = false;
	rpt_json_str(f, fr->label);
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d",
		fr->kernel ? "kernel" : "user", (double)(start - c->t0) / 1e3, (double)(end - start) / 1e3, c->pid,
		c->tid);
	if (fr->dso) {
		fputs(",\"args\":{\"dso\":", f);
		rpt_json_str(f, fr->dso);
		fputc('}', f);
	}
	fputc('}', f);
}

/* Closes open slices deeper than keep, at time end. */
static void ch_close(struct ch_ctx *c, uint32_t keep, uint64_t end)
{
	while (c->depth > keep) {
		c->depth--;
		ch_emit(c, c->open[c->depth], c->start[c->depth], end < c->start[c->depth] ? c->start[c->depth] : end);
	}
}

static uint64_t ch_interval(const struct ch_ctx *c)
{
	if (c->ns_periods && c->prev_weight)
		return c->prev_weight;
	return c->min_gap ? c->min_gap : 1000;
}

static int ch_rec(void *ctx, const struct rpt_spool_rec *r)
{
	struct ch_ctx *c = ctx;
	uint64_t t = r->c < c->t0 ? c->t0 : r->c;
	uint32_t d = hwprof_profile_stack_depth(c->p, r->a);
	if (d > c->cap) {
		uint32_t *o = realloc(c->open, d * sizeof(*o));
		if (!o)
			return -HWPROF_E_NOMEM;
		c->open = o;
		uint64_t *s = realloc(c->start, d * sizeof(*s));
		if (!s)
			return -HWPROF_E_NOMEM;
		c->start = s;
		c->cap = d;
	}
	uint32_t common = 0;
	if (c->any) {
		if (t < c->prev_time) /* out of order: never end a slice before it starts */
			t = c->prev_time;
		uint64_t gap = t - c->prev_time;
		uint64_t iv = ch_interval(c);
		if (gap && (!c->min_gap || gap < c->min_gap))
			c->min_gap = gap;
		if (gap > 2 * iv) {
			ch_close(c, 0, c->prev_time + iv);
		} else {
			/* Walk the new stack up to the open depth, then both up
			 * until they meet: that is the shared prefix. */
			uint32_t a = r->a, k = d;
			for (; k > c->depth; k--)
				a = hwprof_profile_stack_parent(c->p, a);
			for (; k > 0 && c->open[k - 1] != a; k--)
				a = hwprof_profile_stack_parent(c->p, a);
			common = k;
			ch_close(c, common, t);
		}
	}
	/* Open the new stack's nodes beyond the common prefix. */
	uint32_t s = r->a;
	for (uint32_t k = d; k-- > common;) {
		c->open[k] = s;
		c->start[k] = t;
		s = hwprof_profile_stack_parent(c->p, s);
	}
	c->depth = d;
	c->prev_time = t;
	c->prev_weight = r->b;
	c->any = true;
	return 0;
}

int rpt_write_chrome(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f)
{
	struct ch_ctx c = { .f = f, .p = p };
	uint64_t last;
	bool first = true;
	int r = 0;
	c.first_event = &first;
	hwprof_profile_time_range(p, &c.t0, &last);
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"hwprof " HWPROF_VERSION "\"},"
	      "\"traceEvents\":[", f);
	for (size_t i = 0; i < x->nr_lanes; i++) {
		const struct rpt_lane *l = &x->lanes[i];
		if (l->event != 0)
			continue;
		const struct hwprof_profile_thread *t = hwprof_profile_thread(p, l->thread);
		const struct hwprof_profile_event *e = hwprof_profile_event(p, l->event);
		c.pid = t->pid;
		c.tid = t->tid;
		c.ns_periods = e && e->period_is_ns;
		c.depth = 0;
		c.any = false;
		c.min_gap = c.prev_weight = 0;
		fprintf(f, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
			first ? "" : ",", t->pid, t->tid);
		first = false;
		rpt_json_str(f, t->comm);
		fputs("}}", f);
		if (t->pid == t->tid) {
			fprintf(f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
				t->pid, t->tid);
			rpt_json_str(f, t->comm);
			fputs("}}", f);
		}
		if ((r = rpt_spool_read(x->spool, (uint32_t)i, ch_rec, &c)) < 0)
			break;
		if (c.any)
			ch_close(&c, 0, c.prev_time + ch_interval(&c));
	}
	fputs("]}\n", f);
	free(c.open);
	free(c.start);
	return r;
}
