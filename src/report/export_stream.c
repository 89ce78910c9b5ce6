/* The streaming exporters' front: collects each sample into its lane's
 * spool while the profile is built, then hands the lanes to the format
 * writer. */
#include <stdlib.h>
#include <string.h>

#include "report/export_int.h"

HWPROF_API int hwprof_export_create(struct hwprof_export **out, enum hwprof_export_format fmt)
{
	*out = NULL;
	if (fmt != HWPROF_EXPORT_SPEEDSCOPE && fmt != HWPROF_EXPORT_FIREFOX && fmt != HWPROF_EXPORT_CHROME)
		return -HWPROF_E_INVAL;
	struct hwprof_export *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->fmt = fmt;
	if (rpt_spool_create(&x->spool) < 0) {
		free(x);
		return -HWPROF_E_NOMEM;
	}
	*out = x;
	return 0;
}

HWPROF_API int hwprof_export_on_sample(void *export_ctx, struct hwprof_profile *p,
				       const struct hwprof_profile_sample *s)
{
	struct hwprof_export *x = export_ctx;
	uint32_t lane = (uint32_t)x->nr_lanes;
	int r = rpt_map_get(&x->lane_map, s->thread, s->event, &lane, true);
	if (r < 0)
		return r;
	if (r == 0) {
		if (rpt_grow(&x->lanes, &x->cap_lanes, x->nr_lanes + 1, sizeof(*x->lanes)) < 0)
			return -HWPROF_E_NOMEM;
		struct rpt_lane *l = &x->lanes[x->nr_lanes++];
		memset(l, 0, sizeof(*l));
		l->thread = s->thread;
		l->event = s->event;
		l->first_time = s->time;
	}
	struct rpt_lane *l = &x->lanes[lane];
	l->nr_samples++;
	l->weight += s->weight;
	l->last_time = s->time;
	struct rpt_spool_rec rec = { .lane = lane, .a = s->stack, .b = s->weight, .c = s->time };
	return rpt_spool_add(x->spool, &rec);
}

HWPROF_API int hwprof_export_finish(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f)
{
	int r;
	switch (x->fmt) {
	case HWPROF_EXPORT_SPEEDSCOPE: r = rpt_write_speedscope(x, p, f); break;
	case HWPROF_EXPORT_FIREFOX: r = rpt_write_firefox(x, p, f); break;
	case HWPROF_EXPORT_CHROME: r = rpt_write_chrome(x, p, f); break;
	default: return -HWPROF_E_INVAL;
	}
	if (r >= 0 && (fflush(f) || ferror(f)))
		r = -HWPROF_E_IO;
	return r;
}

HWPROF_API void hwprof_export_free(struct hwprof_export *x)
{
	if (!x)
		return;
	rpt_spool_free(x->spool);
	rpt_map_free(&x->lane_map);
	free(x->lanes);
	free(x);
}

void rpt_lane_title(const struct hwprof_profile *p, const struct rpt_lane *l, char *buf, size_t len)
{
	const struct hwprof_profile_thread *t = hwprof_profile_thread(p, l->thread);
	const struct hwprof_profile_event *e = hwprof_profile_event(p, l->event);
	int n = snprintf(buf, len, "%s %d/%d", t && t->comm ? t->comm : "?", t ? t->pid : -1, t ? t->tid : -1);
	if (hwprof_profile_nr_events(p) > 1 && e && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " %s", e->name);
}
