/* A red-black tree over array indexes, balanced exactly as the kernel's
 * lib/rbtree.c balances its trees (insertion and erasure). perf keeps hist
 * entries and symbols in such trees and finds one by walking from the
 * root, so where entries compare equal or symbols overlap, the tree's
 * exact shape decides the answer; replaying perf's inserts and erases here
 * gives the same shape. Nodes are indexes into the caller's array; the
 * caller walks the tree and links a new node itself. */
#ifndef HWPROF_UTIL_IXTREE_H
#define HWPROF_UTIL_IXTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HT_NIL UINT32_MAX

struct ht_node { uint32_t left, right, parent; bool red; };

struct ht_tree {
	uint32_t root;
	struct ht_node *n;      /* indexed by entry index */
	size_t cap;
};

void ht_init(struct ht_tree *t);
void ht_free(struct ht_tree *t);
/* Room for node indexes below n. */
int ht_reserve(struct ht_tree *t, size_t n);
/* Links node x as the left (or right) child of parent (HT_NIL: root) and
 * rebalances. */
void ht_insert(struct ht_tree *t, uint32_t x, uint32_t parent, bool left);
/* Unlinks node x and rebalances. */
void ht_erase(struct ht_tree *t, uint32_t x);
uint32_t ht_first(const struct ht_tree *t);
uint32_t ht_next(const struct ht_tree *t, uint32_t x);

#endif
