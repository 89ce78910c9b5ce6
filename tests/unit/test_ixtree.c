/* The index red-black tree (src/util/ixtree.c) that replays perf's
 * rb-trees: after random inserts and erases it must stay a valid
 * red-black search tree (order, no red-red edge, equal black heights,
 * consistent parent links), and small cases have the kernel's shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/ixtree.h"

static uint64_t key[4096];

static void insert(struct ht_tree *t, uint32_t x)
{
	uint32_t p = HT_NIL, c = t->root;
	bool left = false;
	while (c != HT_NIL) {
		p = c;
		left = key[x] < key[c];
		c = left ? t->n[c].left : t->n[c].right;
	}
	ht_insert(t, x, p, left);
}

/* Black height of the subtree at x; fails the test on any violation. */
static int check(const struct ht_tree *t, uint32_t x, uint32_t parent, uint64_t lo, uint64_t hi, size_t *count)
{
	if (x == HT_NIL)
		return 1;
	const struct ht_node *n = &t->n[x];
	assert_int_equal(n->parent, parent);
	assert_true(key[x] >= lo && key[x] <= hi);
	if (n->red) {
		assert_true(n->left == HT_NIL || !t->n[n->left].red);
		assert_true(n->right == HT_NIL || !t->n[n->right].red);
	}
	(*count)++;
	int hl = check(t, n->left, x, lo, key[x], count);
	int hr = check(t, n->right, x, key[x], hi, count);
	assert_int_equal(hl, hr);
	return hl + !n->red;
}

static void test_random_insert_erase(void **state)
{
	(void)state;
	struct ht_tree t;
	ht_init(&t);
	assert_int_equal(ht_reserve(&t, 4096), 0);
	srand(7);
	bool alive[4096] = { false };
	size_t live = 0;
	for (uint32_t i = 0; i < 4096; i++) {
		key[i] = (uint64_t)(rand() % 512); /* many equal keys, like symbols */
		insert(&t, i);
		alive[i] = true;
		live++;
		/* erase now and then: a random live node */
		if (rand() % 3 == 0) {
			uint32_t v = (uint32_t)(rand() % (i + 1));
			if (alive[v]) {
				ht_erase(&t, v);
				alive[v] = false;
				live--;
			}
		}
		if (i % 512 == 0 || i == 4095) {
			size_t count = 0;
			check(&t, t.root, HT_NIL, 0, UINT64_MAX, &count);
			assert_int_equal(count, live);
			assert_true(t.root == HT_NIL || !t.n[t.root].red);
		}
	}
	/* in-order walk: sorted */
	uint64_t prev = 0;
	size_t seen = 0;
	for (uint32_t x = ht_first(&t); x != HT_NIL; x = ht_next(&t, x)) {
		assert_true(key[x] >= prev);
		prev = key[x];
		seen++;
	}
	assert_int_equal(seen, live);
	/* erase everything left */
	for (uint32_t i = 0; i < 4096; i++)
		if (alive[i])
			ht_erase(&t, i);
	assert_int_equal(t.root, HT_NIL);
	ht_free(&t);
}

/* Keys 1..7 inserted in order, then 4 erased: the kernel's tree is
 * 2(1,6(5,7)) after the rotations, with 4's successor 5 in its place. */
static void test_kernel_shape(void **state)
{
	(void)state;
	struct ht_tree t;
	ht_init(&t);
	assert_int_equal(ht_reserve(&t, 8), 0);
	for (uint32_t i = 1; i <= 7; i++) {
		key[i] = i;
		insert(&t, i);
	}
	/* inserting 1..7 in order: 2 at the root, 4 under it with 3 and 6 */
	assert_int_equal(t.root, 2);
	assert_int_equal(t.n[2].left, 1);
	assert_int_equal(t.n[2].right, 4);
	assert_int_equal(t.n[4].left, 3);
	assert_int_equal(t.n[4].right, 6);
	assert_int_equal(t.n[6].left, 5);
	assert_int_equal(t.n[6].right, 7);
	ht_erase(&t, 4);
	assert_int_equal(t.n[2].right, 5);
	assert_int_equal(t.n[5].left, 3);
	assert_int_equal(t.n[5].right, 6);
	assert_int_equal(t.n[6].left, HT_NIL);
	assert_int_equal(t.n[6].right, 7);
	size_t count = 0;
	check(&t, t.root, HT_NIL, 0, UINT64_MAX, &count);
	assert_int_equal(count, 6);
	ht_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_insert_erase),
		cmocka_unit_test(test_kernel_shape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
