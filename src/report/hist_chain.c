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
	free(t->fk);
	free(t->scratch);
	ht_free(&t->kids);
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
	int r;
	if (t->key != HC_KEY_FUNCTION) {
		/* one frame per address, srcline (its texts are interned: the
		 * inlined functions at one address differ there), symbol and
		 * DSO; a hit with another symbol or DSO probes on with a salt */
		for (uint64_t salt = 0;; salt++) {
			k1 = fr->ip;
			k2 = (uint64_t)(uintptr_t)fr->srcline ^ (salt * 0x9e3779b97f4a7c15ull);
			v = (uint32_t)t->nf;
			if ((r = rpt_map_get(&t->frame_map, k1, k2, &v, false)) != 1)
				break;
			const struct hwprof_hist_frame *e = &t->f[v];
			if (e->ip == fr->ip && e->srcline == fr->srcline && e->sym == fr->sym && e->dso == fr->dso) {
				*id = v;
				return 0;
			}
		}
		v = (uint32_t)t->nf;
	}
	r = rpt_map_get(&t->frame_map, k1, k2, &v, true);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 0) {
		if (rpt_grow(&t->f, &t->capf, t->nf + 1, sizeof(*t->f)) < 0 ||
		    rpt_grow(&t->fk, &t->capfk, t->nf + 1, sizeof(*t->fk)) < 0)
			return -HWPROF_E_NOMEM;
		t->fk[t->nf] = (struct hc_fkey){ fr->sym ? fr->sym->start : 0, fr->dso_rank, fr->sym != NULL,
						  fr->sym && fr->sym->inlined };
		t->f[t->nf++] = *fr;
	}
	*id = v;
	return 0;
}

static int new_node(struct hc_trie *t, uint32_t frame, uint64_t ip, uint32_t parent, uint32_t *id)
{
	if (t->nr >= UINT32_MAX - 1 || rpt_grow(&t->n, &t->cap, t->nr + 1, sizeof(*t->n)) < 0 ||
	    ht_reserve(&t->kids, t->nr + 1) < 0)
		return -HWPROF_E_NOMEM;
	struct hc_node *n = &t->n[t->nr];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->ip = ip;
	n->parent = parent;
	n->first_child = n->next_sibling = n->sorted_first = n->sorted_next = HWPROF_CHAIN_NONE;
	n->kids_root = HT_NIL;
	*id = (uint32_t)t->nr++;
	return 0;
}

int hc_new_root(struct hc_trie *t, uint32_t *root)
{
	return new_node(t, HWPROF_CHAIN_NONE, 0, HWPROF_CHAIN_NONE, root);
}

/* perf's match_chain() for the srcline and address keys, the existing
 * node against the new frame: < 0 existing < new (MATCH_LT), 0 equal,
 * > 0. The srcline key compares texts where either frame has one (a frame
 * without one sorts after), else falls back to the function; the address
 * key compares DSO, then address. */
static int key_cmp(const struct hc_trie *t, uint32_t existing, uint32_t frame, uint64_t ip)
{
	const struct hwprof_hist_frame *e = &t->f[t->n[existing].frame], *n = &t->f[frame];
	if (t->key == HC_KEY_SRCLINE && (e->srcline || n->srcline)) {
		if (!e->srcline || !n->srcline)
			return e->srcline ? -1 : 1;
		return strcmp(e->srcline, n->srcline);
	}
	bool by_sym = t->key == HC_KEY_SRCLINE && e->sym && n->sym;
	if (by_sym && (e->sym->inlined || n->sym->inlined))
		return strcmp(e->sym->name, n->sym->name);
	if (e->dso_rank != n->dso_rank)
		return e->dso_rank < n->dso_rank ? -1 : 1;
	uint64_t ke = by_sym ? e->sym->start : t->n[existing].ip;
	uint64_t kn = by_sym ? n->sym->start : ip;
	return ke < kn ? -1 : ke > kn;
}

/* perf's match_chain(new, existing) == MATCH_LT: existing < new, which
 * sends the new child left in the node's insertion tree (rb_root_in).
 * Inlined frames compare by name, others by DSO (creation order standing
 * for perf's object addresses) and symbol start, or, where either has no
 * symbol, by the addresses the nodes were made with. Not transitive when
 * the kinds mix. */
static bool existing_lt_new(const struct hc_trie *t, uint32_t existing, uint32_t frame, uint64_t ip)
{
	if (t->key != HC_KEY_FUNCTION)
		return key_cmp(t, existing, frame, ip) < 0;
	const struct hc_fkey *e = &t->fk[t->n[existing].frame], *n = &t->fk[frame];
	if (e->sym && n->sym && (e->inlined || n->inlined))
		return strcmp(t->f[t->n[existing].frame].sym->name, t->f[frame].sym->name) < 0;
	if (e->rank != n->rank)
		return e->rank < n->rank;
	uint64_t ke = e->sym && n->sym ? e->start : t->n[existing].ip;
	uint64_t kn = e->sym && n->sym ? n->start : ip;
	return ke < kn;
}

/* perf's match_chain() == MATCH_EQ: the same frame, or names that are
 * equal when either frame is an inlined stand-in (perf compares those by
 * name alone, so a function merges with its own inlined copy). */
static bool match_eq(const struct hc_trie *t, uint32_t existing, uint32_t frame, uint64_t ip)
{
	if (t->n[existing].frame == frame)
		return true;
	if (t->key != HC_KEY_FUNCTION)
		return key_cmp(t, existing, frame, ip) == 0;
	const struct hc_fkey *e = &t->fk[t->n[existing].frame], *n = &t->fk[frame];
	return e->sym && n->sym && (e->inlined || n->inlined) &&
	       !strcmp(t->f[t->n[existing].frame].sym->name, t->f[frame].sym->name);
}

/* perf's append_chain_children(): the child of parent that matches the
 * frame, found by walking the children's insertion tree, or a new one
 * linked where the walk ended. */
static int child(struct hc_trie *t, uint32_t parent, uint32_t frame, uint64_t ip, uint32_t *out)
{
	uint32_t y = t->n[parent].kids_root, at = HT_NIL;
	bool left = false;
	while (y != HT_NIL) {
		if (match_eq(t, y, frame, ip)) {
			*out = y;
			return 0;
		}
		at = y;
		left = existing_lt_new(t, y, frame, ip);
		y = left ? t->kids.n[y].left : t->kids.n[y].right;
	}
	uint32_t id;
	if (new_node(t, frame, ip, parent, &id) < 0)
		return -HWPROF_E_NOMEM;
	t->kids.root = t->n[parent].kids_root;
	ht_insert(&t->kids, id, at, left);
	t->n[parent].kids_root = t->kids.root;
	t->n[id].next_sibling = t->n[parent].first_child;
	t->n[parent].first_child = id;
	t->n[parent].nr_children++;
	*out = id;
	return 0;
}

/* The chain of frames (ids, with their addresses) below x: perf's
 * append_chain_children() at each level. */
static int append(struct hc_trie *t, uint32_t x, const uint32_t *frames, const uint64_t *ips, size_t stride, size_t n,
		  uint64_t period)
{
	for (size_t i = 0; i < n; i++) {
		t->n[x].children_hit += period;
		t->n[x].children_count++;
		uint32_t c;
		if (child(t, x, frames[i], *(const uint64_t *)((const char *)ips + i * stride), &c) < 0)
			return -HWPROF_E_NOMEM;
		x = c;
	}
	t->n[x].hit += period;
	t->n[x].count++;
	return 0;
}

int hc_append(struct hc_trie *t, uint32_t root, const uint32_t *frames, const struct hwprof_hist_frame *chain,
	      size_t n, uint64_t period)
{
	if (!n)
		return 0;
	return append(t, root, frames, &chain[0].ip, sizeof(*chain), n, period);
}

/* The first and next node of x's children in insertion-tree order. */
static uint32_t kid_first(struct hc_trie *t, uint32_t x)
{
	t->kids.root = t->n[x].kids_root;
	return ht_first(&t->kids);
}

/* perf's merge_chain_branch(): every node of src with hits appended to
 * dst as the chain from src's root to it, with its hits as the period;
 * each node before its children, the children in insertion-tree order
 * (their links stay: appends only touch dst's nodes). p holds the chain
 * so far (depth entries). */
static int merge(struct hc_trie *t, uint32_t dst, uint32_t src, struct hc_path *p, size_t depth)
{
	if (depth && t->n[src].hit &&
	    append(t, dst, p->frame, p->ip, sizeof(*p->ip), depth, t->n[src].hit) < 0)
		return -HWPROF_E_NOMEM;
	for (uint32_t c = kid_first(t, src); c != HT_NIL; c = ht_next(&t->kids, c)) {
		if (rpt_grow(&p->frame, &p->cap_frame, depth + 1, sizeof(*p->frame)) < 0 ||
		    rpt_grow(&p->ip, &p->cap_ip, depth + 1, sizeof(*p->ip)) < 0)
			return -HWPROF_E_NOMEM;
		p->frame[depth] = t->n[c].frame;
		p->ip[depth] = t->n[c].ip;
		if (merge(t, dst, c, p, depth + 1) < 0)
			return -HWPROF_E_NOMEM;
	}
	return 0;
}

int hc_merge(struct hc_trie *t, uint32_t dst, uint32_t src)
{
	struct hc_path p = { 0 };
	int rc = merge(t, dst, src, &p, 0);
	free(p.frame);
	free(p.ip);
	return rc;
}

/* A node's children in perf's insertion-tree order. v gets them (room for
 * nr_children); returns the count. */
static int child_order(struct hc_trie *t, uint32_t x, uint32_t *v)
{
	uint32_t k = 0;
	for (uint32_t c = kid_first(t, x); c != HT_NIL; c = ht_next(&t->kids, c))
		v[k++] = c;
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
