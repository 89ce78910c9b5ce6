/* Callchain tries. perf keeps a callchain per entry as a tree of nodes,
 * each a run of entries split where chains diverge or end; its numbers are
 * those of a trie of single frames (hits of chains ending at a frame,
 * children hits of those passing through), so we keep the trie and let
 * the printer show the runs. Children of a node are matched like perf's
 * match_chain(): same DSO and same symbol start, or same address when
 * either frame has no symbol (the frame key below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist_chain.h"
#include "util/ixtree.h"

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
		t->n[x].children_count++;
		uint32_t c;
		if (child(t, x, frames[i], &c) < 0)
			return -HWPROF_E_NOMEM;
		x = c;
	}
	t->n[x].hit += period;
	t->n[x].count++;
	return 0;
}

/* Adds src's numbers below dst; returns how many of src's nodes have
 * hits (or < 0). perf's callchain_merge() appends each of src's nodes with
 * hits as one chain of its period, so counts grow by one per such node,
 * whatever its own count. */
static int64_t merge(struct hc_trie *t, uint32_t dst, uint32_t src)
{
	int64_t below = 0;
	t->n[dst].hit += t->n[src].hit;
	t->n[dst].children_hit += t->n[src].children_hit;
	for (uint32_t c = t->n[src].first_child; c != HWPROF_CHAIN_NONE; c = t->n[c].next_sibling) {
		uint32_t d;
		int64_t k;
		if (child(t, dst, t->n[c].frame, &d) < 0 || (k = merge(t, d, c)) < 0)
			return -HWPROF_E_NOMEM;
		below += k;
	}
	t->n[dst].children_count += (uint32_t)below;
	if (t->n[src].hit) {
		t->n[dst].count++;
		below++;
	}
	return below;
}

int hc_merge(struct hc_trie *t, uint32_t dst, uint32_t src)
{
	return merge(t, dst, src) < 0 ? -HWPROF_E_NOMEM : 0;
}

/* perf's match_chain(new, existing) == MATCH_LT: existing < new, which
 * sends the new child left in the node's insertion tree (rb_root_in).
 * Inlined frames compare by name, others by DSO (creation order standing
 * for perf's object addresses) and symbol start, or address without a
 * symbol. Not transitive when the kinds mix: only replaying the inserts
 * gives perf's order. */
static bool existing_lt_new(const struct hc_trie *t, uint32_t existing, uint32_t nw)
{
	const struct hwprof_hist_frame *e = &t->f[t->n[existing].frame], *n = &t->f[t->n[nw].frame];
	if (e->sym && n->sym && (e->sym->inlined || n->sym->inlined))
		return strcmp(e->sym->name, n->sym->name) < 0;
	if (e->dso_rank != n->dso_rank)
		return e->dso_rank < n->dso_rank;
	uint64_t ke = e->sym && n->sym ? e->sym->start : e->ip;
	uint64_t kn = e->sym && n->sym ? n->sym->start : n->ip;
	return ke < kn;
}

/* A node's children in perf's insertion-tree order: inserted oldest first
 * into a red-black tree as perf inserts them, then read in order. v gets
 * them (room for nr_children); returns the count or < 0. */
static int child_order(const struct hc_trie *t, uint32_t x, uint32_t *v)
{
	uint32_t k = 0;
	for (uint32_t c = t->n[x].first_child; c != HWPROF_CHAIN_NONE; c = t->n[c].next_sibling)
		v[k++] = c;
	for (uint32_t i = 0; i < k / 2; i++) { /* the list is newest first */
		uint32_t tmp = v[i];
		v[i] = v[k - 1 - i];
		v[k - 1 - i] = tmp;
	}
	if (k < 2)
		return (int)k;
	struct ht_tree tr;
	ht_init(&tr);
	if (ht_reserve(&tr, k) < 0)
		return -HWPROF_E_NOMEM;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t y = tr.root, parent = HT_NIL;
		bool left = false;
		while (y != HT_NIL) {
			parent = y;
			left = existing_lt_new(t, v[y], v[i]);
			y = left ? tr.n[y].left : tr.n[y].right;
		}
		ht_insert(&tr, i, parent, left);
	}
	uint32_t *o = malloc(k * sizeof(*o));
	if (!o) {
		ht_free(&tr);
		return -HWPROF_E_NOMEM;
	}
	uint32_t m = 0;
	for (uint32_t y = ht_first(&tr); y != HT_NIL; y = ht_next(&tr, y))
		o[m++] = v[y];
	memcpy(v, o, k * sizeof(*v));
	free(o);
	ht_free(&tr);
	return (int)k;
}

static uint64_t cumul(const struct hc_trie *t, uint32_t x)
{
	return t->n[x].hit + t->n[x].children_hit;
}

/* Stable sort of nodes by a key, descending: perf's rb_insert_callchain()
 * puts equal keys after the ones before them. */
static int sort_desc(const struct hc_trie *t, uint32_t *v, uint32_t k, bool by_cumul)
{
	if (k < 2)
		return 0;
	uint64_t *key = malloc(k * sizeof(*key) * 2);
	if (!key)
		return -HWPROF_E_NOMEM;
	for (uint32_t i = 0; i < k; i++) {
		key[2 * i] = by_cumul ? cumul(t, v[i]) : t->n[v[i]].hit;
		key[2 * i + 1] = ((uint64_t)i << 32) | v[i];
	}
	/* insertion sort is fine for children lists; merge for long ones */
	for (uint32_t i = 1; i < k; i++) {
		uint64_t a0 = key[2 * i], a1 = key[2 * i + 1];
		uint32_t j = i;
		while (j > 0 && key[2 * (j - 1)] < a0) {
			key[2 * j] = key[2 * (j - 1)];
			key[2 * j + 1] = key[2 * (j - 1) + 1];
			j--;
		}
		key[2 * j] = a0;
		key[2 * j + 1] = a1;
	}
	for (uint32_t i = 0; i < k; i++)
		v[i] = (uint32_t)key[2 * i + 1];
	free(key);
	return 0;
}

struct flat_list {
	uint32_t *v;
	size_t n, cap;
};

/* perf's __sort_chain_flat(): children (in insertion-tree order) first,
 * then the node itself when chains end there with at least min_hit */
static int flat_walk(struct hc_trie *t, uint32_t x, uint64_t min_hit, struct flat_list *l)
{
	uint32_t n = t->n[x].nr_children;
	if (n) {
		uint32_t *v = malloc(n * sizeof(*v));
		if (!v)
			return -HWPROF_E_NOMEM;
		int k = child_order(t, x, v);
		if (k < 0) {
			free(v);
			return k;
		}
		int rc = 0;
		for (int i = 0; i < k && rc == 0; i++)
			rc = flat_walk(t, v[i], min_hit, l);
		free(v);
		if (rc < 0)
			return rc;
	}
	if (t->n[x].hit && t->n[x].hit >= min_hit) {
		if (rpt_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
			return -HWPROF_E_NOMEM;
		l->v[l->n++] = x;
	}
	return 0;
}

int hc_flat(struct hc_trie *t, uint32_t root, uint64_t min_hit, uint32_t **out, size_t *nr)
{
	struct flat_list l = { 0 };
	*out = NULL;
	*nr = 0;
	int rc = flat_walk(t, root, min_hit, &l);
	if (rc < 0 || !l.n) {
		free(l.v);
		return rc;
	}
	/* perf's rb_insert_callchain(CHAIN_FLAT): by hits, ties in order */
	if (l.n > UINT32_MAX || sort_desc(t, l.v, (uint32_t)l.n, false) < 0) {
		free(l.v);
		return -HWPROF_E_NOMEM;
	}
	*out = l.v;
	*nr = l.n;
	return 0;
}

/* A node where perf's callchain nodes end (a run of frames with one child
 * and no hits of their own is one perf node): the entry's root, a frame
 * with hits, a fork or a leaf. */
static bool node_end(const struct hc_trie *t, uint32_t x)
{
	return t->n[x].parent == HWPROF_CHAIN_NONE || t->n[x].hit || t->n[x].nr_children != 1;
}

static int sort_below(struct hc_trie *t, uint32_t root, uint64_t min_hit, double rel)
{
	uint32_t n = t->n[root].nr_children;
	t->n[root].sorted_first = HWPROF_CHAIN_NONE;
	if (!n)
		return 0;
	/* fractal (rel >= 0): perf's threshold is a share of what passes
	 * below each of its nodes, rounded up; frames inside a node are
	 * not filtered */
	uint64_t mh = min_hit;
	if (rel >= 0)
		mh = node_end(t, root) ? (uint64_t)ceil((double)t->n[root].children_hit * rel) : 0;
	uint32_t *v = malloc(n * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	int all = child_order(t, root, v);
	uint32_t k = 0;
	for (int i = 0; i < all; i++)
		if (cumul(t, v[i]) >= mh)
			v[k++] = v[i];
	if (all < 0 || sort_desc(t, v, k, true) < 0) {
		free(v);
		return -HWPROF_E_NOMEM;
	}
	uint32_t *link = &t->n[root].sorted_first;
	for (uint32_t i = 0; i < k; i++) {
		*link = v[i];
		link = &t->n[v[i]].sorted_next;
	}
	*link = HWPROF_CHAIN_NONE;
	int rc = 0;
	for (uint32_t i = 0; i < k && rc == 0; i++)
		rc = sort_below(t, v[i], min_hit, rel);
	free(v);
	return rc;
}

int hc_sort(struct hc_trie *t, uint32_t root, uint64_t min_hit)
{
	return sort_below(t, root, min_hit, -1.0);
}

int hc_sort_rel(struct hc_trie *t, uint32_t root, double min_percent)
{
	return sort_below(t, root, 0, min_percent / 100.0);
}
