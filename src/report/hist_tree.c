/* Red-black tree insertion as in the kernel's lib/rbtree.c (the classic
 * algorithm: recolour on a red uncle, else one or two rotations), over
 * array indexes. */
#include <stdlib.h>

#include "report/hist_tree.h"
#include "report/report_int.h"

void ht_init(struct ht_tree *t)
{
	t->root = HT_NIL;
	t->n = NULL;
	t->cap = 0;
}

void ht_free(struct ht_tree *t)
{
	free(t->n);
	ht_init(t);
}

int ht_reserve(struct ht_tree *t, size_t n)
{
	return n <= t->cap ? 0 : rpt_grow(&t->n, &t->cap, n, sizeof(*t->n));
}

static void rotate(struct ht_tree *t, uint32_t x, bool left)
{
	struct ht_node *n = t->n;
	uint32_t y = left ? n[x].right : n[x].left;
	uint32_t inner = left ? n[y].left : n[y].right;
	if (left)
		n[x].right = inner;
	else
		n[x].left = inner;
	if (inner != HT_NIL)
		n[inner].parent = x;
	uint32_t p = n[x].parent;
	n[y].parent = p;
	if (p == HT_NIL)
		t->root = y;
	else if (n[p].left == x)
		n[p].left = y;
	else
		n[p].right = y;
	if (left)
		n[y].left = x;
	else
		n[y].right = x;
	n[x].parent = y;
}

void ht_insert(struct ht_tree *t, uint32_t x, uint32_t parent, bool left)
{
	struct ht_node *n = t->n;
	n[x].left = n[x].right = HT_NIL;
	n[x].parent = parent;
	n[x].red = true;
	if (parent == HT_NIL)
		t->root = x;
	else if (left)
		n[parent].left = x;
	else
		n[parent].right = x;
	while (n[x].parent != HT_NIL && n[n[x].parent].red) {
		uint32_t p = n[x].parent, g = n[p].parent;
		bool p_left = n[g].left == p;
		uint32_t u = p_left ? n[g].right : n[g].left;
		if (u != HT_NIL && n[u].red) {
			n[p].red = false;
			n[u].red = false;
			n[g].red = true;
			x = g;
			continue;
		}
		if (p_left ? n[p].right == x : n[p].left == x) {
			rotate(t, p, p_left);
			x = p;
			p = n[x].parent;
		}
		n[p].red = false;
		n[g].red = true;
		rotate(t, g, !p_left);
	}
	n[t->root].red = false;
}

uint32_t ht_first(const struct ht_tree *t)
{
	uint32_t x = t->root;
	if (x == HT_NIL)
		return HT_NIL;
	while (t->n[x].left != HT_NIL)
		x = t->n[x].left;
	return x;
}

uint32_t ht_next(const struct ht_tree *t, uint32_t x)
{
	const struct ht_node *n = t->n;
	if (n[x].right != HT_NIL) {
		x = n[x].right;
		while (n[x].left != HT_NIL)
			x = n[x].left;
		return x;
	}
	uint32_t p = n[x].parent;
	while (p != HT_NIL && n[p].right == x) {
		x = p;
		p = n[x].parent;
	}
	return p;
}
