/* speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile per lane, each sample a list of indexes into the
 * shared frame table, root first, with its period as the weight. The
 * samples and weights arrays are written in two passes over the lane. */
#include <stdlib.h>

#include "report/export_int.h"

struct ss_ctx {
	FILE *f;
	const struct hwprof_profile *p;
	uint32_t *frames;
	uint32_t cap;
	bool first;
	bool weights;
};

static int ss_rec(void *ctx, const struct rpt_spool_rec *r)
{
	struct ss_ctx *c = ctx;
	if (!c->first)
		fputc(',', c->f);
	c->first = false;
	if (c->weights) {
		fprintf(c->f, "%llu", (unsigned long long)r->b);
		return 0;
	}
	uint32_t d = hwprof_profile_stack_depth(c->p, r->a);
	if (d > c->cap) {
		uint32_t *n = realloc(c->frames, d * sizeof(*n));
		if (!n)
			return -HWPROF_E_NOMEM;
		c->frames = n;
		c->cap = d;
	}
	hwprof_profile_stack_frames(c->p, r->a, c->frames, c->cap);
	fputc('[', c->f);
	for (uint32_t i = 0; i < d; i++)
		fprintf(c->f, i ? ",%u" : "%u", c->frames[i]);
	fputc(']', c->f);
	return 0;
}

int rpt_write_speedscope(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f)
{
	struct ss_ctx c = { .f = f, .p = p };
	int r = 0;
	fprintf(f, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		   "\"exporter\":\"hwprof %s\",\"name\":\"hwprof profile\",\"activeProfileIndex\":0,"
		   "\"profiles\":[", HWPROF_VERSION);
	for (size_t i = 0; i < x->nr_lanes && r >= 0; i++) {
		const struct rpt_lane *l = &x->lanes[i];
		const struct hwprof_profile_event *e = hwprof_profile_event(p, l->event);
		char title[512];
		rpt_lane_title(p, l, title, sizeof(title));
		fprintf(f, "%s\n{\"type\":\"sampled\",\"name\":", i ? "," : "");
		rpt_json_str(f, title);
		fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
			e && e->period_is_ns ? "nanoseconds" : "none", (unsigned long long)l->weight);
		c.first = true;
		c.weights = false;
		r = rpt_spool_read(x->spool, (uint32_t)i, ss_rec, &c);
		if (r < 0)
			break;
		fputs("],\"weights\":[", f);
		c.first = true;
		c.weights = true;
		r = rpt_spool_read(x->spool, (uint32_t)i, ss_rec, &c);
		fputs("]}", f);
	}
	free(c.frames);
	if (r < 0)
		return r;
	fputs("],\n\"shared\":{\"frames\":[", f);
	for (uint32_t i = 0; i < hwprof_profile_nr_frames(p); i++) {
		const struct hwprof_profile_frame *fr = hwprof_profile_frame(p, i);
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		rpt_json_str(f, fr->label);
		if (fr->dso) {
			fputs(",\"file\":", f);
			rpt_json_str(f, fr->dso);
		}
		fputc('}', f);
	}
	fputs("]}}\n", f);
	return 0;
}
