/* perf report's event groups from the GROUP_DESC feature (see
 * report_group.h). perf rebuilds them walking its events: an event whose
 * index is the next group's leader opens it, the nr_members - 1 events
 * after it are members. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_group.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"

int report_groups_load(struct report_groups *g, struct hwprof_perfdata *h, bool force)
{
	memset(g, 0, sizeof(*g));
	g->n = hwprof_perfdata_nr_evsels(h);
	g->size = calloc(g->n ? g->n : 1, sizeof(*g->size));
	g->name = calloc(g->n ? g->n : 1, sizeof(*g->name));
	if (!g->size || !g->name)
		return -1;
	for (uint32_t i = 0; i < g->n; i++)
		g->size[i] = 1;
	struct hwprof_feat *f;
	uint32_t nr_groups = 0;
	if (hwprof_perfdata_feat(h, HWPROF_FEAT_GROUP_DESC, &f) == 1) {
		g->feat = f;
		nr_groups = f->u.group_desc.nr;
		uint32_t k = 0, left = 0;
		for (uint32_t i = 0; i < g->n; i++) {
			const struct hwprof_feat_group *gr = k < nr_groups ? &f->u.group_desc.groups[k] : NULL;
			if (gr && gr->leader_idx == i) {
				/* a damaged count stops at the last event */
				uint32_t m = gr->nr_members ? gr->nr_members : 1;
				if (m > g->n - i)
					m = g->n - i;
				g->size[i] = m;
				g->name[i] = strcmp(gr->name, "{anon_group}") ? gr->name : NULL;
				left = m - 1;
				k++;
			} else if (left) {
				g->size[i] = 0;
				left--;
			}
		}
	}
	if (force && !nr_groups && g->n > 1) {
		/* perf's evlist__force_leader() */
		g->forced = true;
		g->size[0] = g->n;
		for (uint32_t i = 1; i < g->n; i++)
			g->size[i] = 0;
	}
	return 0;
}

void report_groups_free(struct report_groups *g)
{
	free(g->size);
	free(g->name);
	hwprof_feat_free(g->feat);
	memset(g, 0, sizeof(*g));
}

void report_groups_desc(const struct report_groups *g, uint32_t i, const char *const *names, char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return;
	buf[0] = 0;
#define ADD(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__), o = o < len ? o : len - 1)
	if (!g->forced)
		ADD("%s { ", g->name[i] ? g->name[i] : "anon group");
	ADD("%s", names[i]);
	for (uint32_t j = i + 1; j < i + g->size[i] && j < g->n; j++)
		ADD(", %s", names[j]);
	if (!g->forced)
		ADD(" }");
#undef ADD
}
