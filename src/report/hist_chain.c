/* Callchain tries. perf keeps a callchain per entry as a tree of nodes,
 * each a run of entries split where chains diverge or end; its numbers are
 * those of a trie of single frames (hits of chains ending at a frame,
 * children hits of those passing through), so we keep the trie and let
 * the printer show the runs. Children of a node are matched like perf's
 * match_chain(): same DSO and same symbol start, or same address when
 * either frame has no symbol (the frame key below). */
#include <stdlib.h>
#include <string.h>

#include "report/hist_chain.h"

void hc_free(struct hc_trie *t)
{
	free(t->n);
	free(t->f);
	free(t->scratch);
	rpt_map_free(&t->child_map);
	rpt_map_free(&t->frame_map);
	memset(t, 0, sizeof(*t));
}

int hc_frame(struct hc_trie *t, const struct hwprof_hist_frame *fr, uint32_t *id)
{
	/* inlined stand-ins match by name (perf's match_chain_strings); their
	 * names are interned, so the pointer is the name */
	bool inl = fr->sym && fr->sym->inlined;
	uint64_t k1 = inl ? 2 : (uint64_t)(uintptr_t)fr->dso * 4 + (fr->sym != NULL);
	uint64_t k2 = inl ? (uint64_t)(uintptr_t)fr->sym->name : fr->sym ? fr->sym->start : fr->ip;
	uint32_t v = (uint32_t)t->nf;
	int r = rpt_map_get(&t->frame_map, k1, k2, &v, true);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 0) {
		if (rpt_grow(&t->f, &t->capf, t->nf + 1, sizeof(*t->f)) < 0)
			return -HWPROF_E_NOMEM;
		t->f[t->nf++] = *fr;
	}
	*id = v;
	return 0;
}

static int new_node(struct hc_trie *t, uint32_t frame, uint32_t parent, uint32_t *id)
{
	if (t->nr >= UINT32_MAX - 1 || rpt_grow(&t->n, &t->cap, t->nr + 1, sizeof(*t->n)) < 0)
		return -HWPROF_E_NOMEM;
	struct hc_node *n = &t->n[t->nr];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	n->first_child = n->next_sibling = n->sorted_first = n->sorted_next = HWPROF_CHAIN_NONE;
	n->last_child = HWPROF_CHAIN_NONE;
	*id = (uint32_t)t->nr++;
	return 0;
}

int hc_new_root(struct hc_trie *t, uint32_t *root)
{
	return new_node(t, HWPROF_CHAIN_NONE, HWPROF_CHAIN_NONE, root);
}

static int child(struct hc_trie *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint32_t last = t->n[parent].last_child;
	if (last != HWPROF_CHAIN_NONE && t->n[last].frame == frame) {
		*out = last;
		return 0;
	}
	uint32_t v = (uint32_t)t->nr;
	int r = rpt_map_get(&t->child_map, (uint64_t)parent << 32 | frame, 0, &v, true);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 0) {
		uint32_t id;
		if (new_node(t, frame, parent, &id) < 0)
			return -HWPROF_E_NOMEM;
		t->n[id].next_sibling = t->n[parent].first_child;
		t->n[parent].first_child = id;
		t->n[parent].nr_children++;
		v = id;
	}
	t->n[parent].last_child = v;
	*out = v;
	return 0;
}

int hc_append(struct hc_trie *t, uint32_t root, const uint32_t *frames, size_t n, uint64_t period)
{
	if (!n)
		return 0;
	uint32_t x = root;
	for (size_t i = 0; i < n; i++) {
		t->n[x].children_hit += period;
		uint32_t c;
		if (child(t, x, frames[i], &c) < 0)
			return -HWPROF_E_NOMEM;
		x = c;
	}
	t->n[x].hit += period;
	return 0;
}

int hc_merge(struct hc_trie *t, uint32_t dst, uint32_t src)
{
	/* same trie: add src's numbers node by node (depth first) */
	t->n[dst].hit += t->n[src].hit;
	t->n[dst].children_hit += t->n[src].children_hit;
	for (uint32_t c = t->n[src].first_child; c != HWPROF_CHAIN_NONE; c = t->n[c].next_sibling) {
		uint32_t d;
		if (child(t, dst, t->n[c].frame, &d) < 0 || hc_merge(t, d, c) < 0)
			return -HWPROF_E_NOMEM;
	}
	return 0;
}

static uint64_t cumul(const struct hc_trie *t, uint32_t x)
{
	return t->n[x].hit + t->n[x].children_hit;
}

/* perf's order of a node's children before sorting by hits: its rb tree
 * keeps a new child left of an existing one with a smaller DSO object
 * (creation order here), then smaller symbol start or address, so the
 * traversal is descending in those. */
static int tree_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct hc_trie *t = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t ca = cumul(t, a), cb = cumul(t, b);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	const struct hwprof_hist_frame *fa = &t->f[t->n[a].frame], *fb = &t->f[t->n[b].frame];
	if (fa->sym && fb->sym && (fa->sym->inlined || fb->sym->inlined)) {
		/* perf orders inlined frames by name alone */
		int c = strcmp(fa->sym->name, fb->sym->name);
		if (c)
			return c > 0 ? -1 : 1;
		return a < b ? -1 : a > b;
	}
	if (fa->dso_rank != fb->dso_rank)
		return fa->dso_rank > fb->dso_rank ? -1 : 1;
	uint64_t ka = fa->sym && fb->sym ? fa->sym->start : fa->ip;
	uint64_t kb = fa->sym && fb->sym ? fb->sym->start : fb->ip;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return a < b ? -1 : a > b;
}

int hc_sort(struct hc_trie *t, uint32_t root, uint64_t min_hit)
{
	uint32_t n = t->n[root].nr_children;
	t->n[root].sorted_first = HWPROF_CHAIN_NONE;
	if (!n)
		return 0;
	uint32_t *v = malloc(n * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	uint32_t k = 0;
	for (uint32_t c = t->n[root].first_child; c != HWPROF_CHAIN_NONE; c = t->n[c].next_sibling)
		if (cumul(t, c) >= min_hit)
			v[k++] = c;
	qsort_r(v, k, sizeof(*v), tree_cmp, t);
	uint32_t *link = &t->n[root].sorted_first;
	for (uint32_t i = 0; i < k; i++) {
		*link = v[i];
		link = &t->n[v[i]].sorted_next;
	}
	*link = HWPROF_CHAIN_NONE;
	int rc = 0;
	for (uint32_t i = 0; i < k && rc == 0; i++)
		rc = hc_sort(t, v[i], min_hit);
	free(v);
	return rc;
}
