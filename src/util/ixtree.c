/* Red-black trees as in the kernel's lib/rbtree.c, over array indexes:
 * insertion (recolour on a red uncle, else one or two rotations) and
 * erasure (the successor takes the erased node's place and colour, then
 * the kernel's four recolouring cases), so shapes match the kernel's. */
#include <stdlib.h>

#include "hwprof/hwprof.h"
#include "util/ixtree.h"

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
	if (n <= t->cap)
		return 0;
	size_t c = t->cap ? t->cap : 16;
	while (c < n) {
		if (c > SIZE_MAX / 2 / sizeof(*t->n))
			return -HWPROF_E_NOMEM;
		c *= 2;
	}
	struct ht_node *v = realloc(t->n, c * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	t->n = v;
	t->cap = c;
	return 0;
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

/* Puts y where x was under x's parent. */
static void replace_child(struct ht_tree *t, uint32_t x, uint32_t y, uint32_t p)
{
	if (p == HT_NIL)
		t->root = y;
	else if (t->n[p].left == x)
		t->n[p].left = y;
	else
		t->n[p].right = y;
}

static bool is_red(const struct ht_tree *t, uint32_t x)
{
	return x != HT_NIL && t->n[x].red;
}

/* The kernel's erase colour fix-up: every path through parent's `node`
 * side (node black, or none) is one black short. */
static void erase_fixup(struct ht_tree *t, uint32_t parent)
{
	struct ht_node *n = t->n;
	uint32_t node = HT_NIL;
	for (;;) {
		bool node_left = n[parent].right != node; /* node is the left child */
		uint32_t sib = node_left ? n[parent].right : n[parent].left;
		if (n[sib].red) {
			/* case 1: rotate the red sibling above parent */
			rotate(t, parent, node_left);
			n[sib].red = false;
			n[parent].red = true;
			sib = node_left ? n[parent].right : n[parent].left;
		}
		uint32_t far = node_left ? n[sib].right : n[sib].left;
		uint32_t near = node_left ? n[sib].left : n[sib].right;
		if (!is_red(t, far)) {
			if (!is_red(t, near)) {
				/* case 2: sibling turns red; the shortage moves up */
				n[sib].red = true;
				if (n[parent].red) {
					n[parent].red = false;
				} else {
					node = parent;
					parent = n[node].parent;
					if (parent != HT_NIL)
						continue;
				}
				return;
			}
			/* case 3: rotate the near nephew above the sibling */
			rotate(t, sib, !node_left);
			n[near].red = false;
			n[sib].red = true;
			far = sib;
			sib = near;
		}
		/* case 4: rotate at parent; sibling takes parent's colour */
		rotate(t, parent, node_left);
		n[sib].red = n[parent].red;
		n[parent].red = false;
		n[far].red = false;
		return;
	}
}

void ht_erase(struct ht_tree *t, uint32_t x)
{
	struct ht_node *n = t->n;
	uint32_t child = n[x].right, left = n[x].left, rebalance = HT_NIL;
	if (left == HT_NIL || child == HT_NIL) {
		/* at most one child: it (red, if any) takes x's place and colour */
		uint32_t only = left == HT_NIL ? child : left;
		uint32_t p = n[x].parent;
		replace_child(t, x, only, p);
		if (only != HT_NIL) {
			n[only].parent = p;
			n[only].red = n[x].red;
		} else if (!n[x].red) {
			rebalance = p;
		}
	} else {
		/* the successor s takes x's place and colour; its own place is
		 * taken by its right child c2 (if any) */
		uint32_t s = child, p, c2;
		if (n[child].left == HT_NIL) {
			p = s;
			c2 = n[s].right;
		} else {
			do {
				p = s;
				s = n[s].left;
			} while (n[s].left != HT_NIL);
			c2 = n[s].right;
			n[p].left = c2;
			n[s].right = child;
			n[child].parent = s;
		}
		n[s].left = left;
		n[left].parent = s;
		replace_child(t, x, s, n[x].parent);
		if (c2 != HT_NIL) {
			n[c2].parent = p;
			n[c2].red = false;
		} else if (!n[s].red) {
			rebalance = p;
		}
		n[s].parent = n[x].parent;
		n[s].red = n[x].red;
	}
	if (rebalance != HT_NIL)
		erase_fixup(t, rebalance);
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
