/* The Gecko profile format that the Firefox Profiler imports (meta version
 * 24, the shape perf's own gecko converter emits): one thread per lane,
 * each with its own string, frame and stack tables holding only what its
 * samples use, prefixes before the stacks that extend them. Frames are in
 * category 0 "User" or 1 "Kernel". Times are milliseconds from the first
 * sample. */
#include <stdlib.h>
#include <string.h>

#include "report/export_int.h"

struct ff_ctx {
	FILE *f;
	const struct hwprof_profile *p;
	uint64_t t0;
	uint32_t *stack_local;   /* global stack -> local index, UINT32_MAX if unused */
	uint32_t *frame_local;   /* global frame -> local index */
	uint32_t *stacks;        /* local index -> global stack */
	uint32_t *frames;        /* local index -> global frame */
	uint32_t nr_stacks, nr_frames;
	uint32_t *walk;
	size_t cap_walk;
	bool first;
};

static uint32_t ff_frame(struct ff_ctx *c, uint32_t frame)
{
	if (c->frame_local[frame] == UINT32_MAX) {
		c->frame_local[frame] = c->nr_frames;
		c->frames[c->nr_frames++] = frame;
	}
	return c->frame_local[frame];
}

/* Maps a stack and its unmapped prefixes, root first. */
static int ff_stack(struct ff_ctx *c, uint32_t stack, uint32_t *local)
{
	size_t n = 0;
	for (uint32_t s = stack; s != HWPROF_STACK_NONE && c->stack_local[s] == UINT32_MAX;
	     s = hwprof_profile_stack_parent(c->p, s)) {
		if (rpt_grow(&c->walk, &c->cap_walk, n + 1, sizeof(uint32_t)) < 0)
			return -HWPROF_E_NOMEM;
		c->walk[n++] = s;
	}
	while (n-- > 0) {
		uint32_t s = c->walk[n];
		ff_frame(c, hwprof_profile_stack_frame(c->p, s));
		c->stack_local[s] = c->nr_stacks;
		c->stacks[c->nr_stacks++] = s;
	}
	*local = c->stack_local[stack];
	return 0;
}

static int ff_rec(void *ctx, const struct rpt_spool_rec *r)
{
	struct ff_ctx *c = ctx;
	uint32_t local;
	int e = ff_stack(c, r->a, &local);
	if (e < 0)
		return e;
	fprintf(c->f, "%s[%u,%.6f,0]", c->first ? "" : ",", local, r->c >= c->t0 ? (double)(r->c - c->t0) / 1e6 : 0.0);
	c->first = false;
	return 0;
}

static void ff_thread_tables(struct ff_ctx *c)
{
	FILE *f = c->f;
	fputs(",\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[", f);
	for (uint32_t i = 0; i < c->nr_stacks; i++) {
		uint32_t parent = hwprof_profile_stack_parent(c->p, c->stacks[i]);
		uint32_t fr = c->frame_local[hwprof_profile_stack_frame(c->p, c->stacks[i])];
		if (parent == HWPROF_STACK_NONE)
			fprintf(f, "%s[null,%u]", i ? "," : "", fr);
		else
			fprintf(f, "%s[%u,%u]", i ? "," : "", c->stack_local[parent], fr);
	}
	fputs("]},\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,"
	      "\"implementation\":3,\"optimizations\":4,\"line\":5,\"column\":6,\"category\":7,\"subcategory\":8},"
	      "\"data\":[", f);
	for (uint32_t i = 0; i < c->nr_frames; i++) {
		const struct hwprof_profile_frame *fr = hwprof_profile_frame(c->p, c->frames[i]);
		fprintf(f, "%s[%u,false,0,null,null,null,null,%d,0]", i ? "," : "", i, fr->kernel ? 1 : 0);
	}
	fputs("]},\"stringTable\":[", f);
	for (uint32_t i = 0; i < c->nr_frames; i++) {
		if (i)
			fputc(',', f);
		rpt_json_str(f, hwprof_profile_frame(c->p, c->frames[i])->label);
	}
	fputs("]}", f);
	/* Reset the maps for the next thread, touching only what was used. */
	for (uint32_t i = 0; i < c->nr_stacks; i++)
		c->stack_local[c->stacks[i]] = UINT32_MAX;
	for (uint32_t i = 0; i < c->nr_frames; i++)
		c->frame_local[c->frames[i]] = UINT32_MAX;
	c->nr_stacks = c->nr_frames = 0;
}

int rpt_write_firefox(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f)
{
	uint32_t ns = hwprof_profile_nr_stacks(p), nf = hwprof_profile_nr_frames(p);
	struct ff_ctx c = { .f = f, .p = p };
	uint64_t last;
	hwprof_profile_time_range(p, &c.t0, &last);
	c.stack_local = malloc((ns + 1) * sizeof(uint32_t));
	c.stacks = malloc((ns + 1) * sizeof(uint32_t));
	c.frame_local = malloc((nf + 1) * sizeof(uint32_t));
	c.frames = malloc((nf + 1) * sizeof(uint32_t));
	int r = 0;
	if (!c.stack_local || !c.stacks || !c.frame_local || !c.frames) {
		r = -HWPROF_E_NOMEM;
		goto out;
	}
	memset(c.stack_local, 0xff, (ns + 1) * sizeof(uint32_t));
	memset(c.frame_local, 0xff, (nf + 1) * sizeof(uint32_t));
	/* The sampling interval: the first event's period when it is a time. */
	double interval = 1.0;
	const struct hwprof_profile_event *e0 = hwprof_profile_event(p, 0);
	if (e0 && e0->period_is_ns && e0->nr_samples)
		interval = (double)e0->weight / (double)e0->nr_samples / 1e6;
	fprintf(f, "{\"meta\":{\"interval\":%.6f,\"startTime\":0,\"shutdownTime\":null,\"processType\":0,"
		   "\"product\":\"hwprof %s\",\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,\"asyncstack\":1,"
		   "\"version\":24,\"presymbolicated\":true,\"categories\":["
		   "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
		   "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}],"
		   "\"markerSchema\":[]},\"libs\":[],\"processes\":[],\"pausedRanges\":[],\n\"threads\":[",
		interval, HWPROF_VERSION);
	for (size_t i = 0; i < x->nr_lanes; i++) {
		const struct rpt_lane *l = &x->lanes[i];
		const struct hwprof_profile_thread *t = hwprof_profile_thread(p, l->thread);
		char title[512];
		rpt_lane_title(p, l, title, sizeof(title));
		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		rpt_json_str(f, title);
		fprintf(f, ",\"processType\":\"default\",\"pid\":%d,\"tid\":%d,\"registerTime\":0,"
			   "\"unregisterTime\":null,\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,"
			   "\"phase\":3,\"category\":4,\"data\":5},\"data\":[]},"
			   "\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"responsiveness\":2},\"data\":[",
			t->pid, t->tid);
		c.first = true;
		if ((r = rpt_spool_read(x->spool, (uint32_t)i, ff_rec, &c)) < 0)
			goto out;
		fputs("]}", f);
		ff_thread_tables(&c);
	}
	fputs("]}\n", f);
out:
	free(c.stack_local);
	free(c.stacks);
	free(c.frame_local);
	free(c.frames);
	free(c.walk);
	return r;
}
