/* The histogram's identity index (src/report/hist_index.c): every index
 * added under a hash is found again among that hash's candidates after
 * the table has grown many times, hashes that share a tag (the high half)
 * or a bucket keep their own entries, and a hash never added finds none
 * of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "report/hist_index.h"

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 29);
}

/* Whether i is among the candidates of hash h. */
static bool has(const struct hist_index *x, uint64_t h, uint32_t i)
{
	struct hix_iter it;
	for (uint32_t c = hix_first(x, h, &it); c != HIX_NONE; c = hix_next(x, &it))
		if (c == i)
			return true;
	return false;
}

static void empty_finds_nothing(void **state)
{
	(void)state;
	struct hist_index x = { 0 };
	struct hix_iter it;
	assert_int_equal(hix_first(&x, 12345, &it), HIX_NONE);
	hix_free(&x);
}

static void found_after_growth(void **state)
{
	(void)state;
	struct hist_index x = { 0 };
	enum { N = 50000 };
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(hix_add(&x, mix(i), i), 0);
	assert_true(x.cap >= 2 * N);
	for (uint32_t i = 0; i < N; i++)
		assert_true(has(&x, mix(i), i));
	/* another hash's candidates carry its tag: mostly none, never an
	 * index whose hash has another tag */
	for (uint32_t i = N; i < N + 1000; i++) {
		struct hix_iter it;
		for (uint32_t c = hix_first(&x, mix(i), &it); c != HIX_NONE; c = hix_next(&x, &it))
			assert_int_equal((uint32_t)(mix(c) >> 32), (uint32_t)(mix(i) >> 32));
	}
	hix_free(&x);
}

static void shared_tags_kept_apart(void **state)
{
	(void)state;
	struct hist_index x = { 0 };
	/* the same hash for many indexes (a full collision: the caller's
	 * compare tells them apart), and hashes differing in the low half
	 * only (same tag, same bucket) */
	for (uint32_t i = 0; i < 300; i++)
		assert_int_equal(hix_add(&x, 0xabcdef0100000000ull, i), 0);
	for (uint32_t i = 300; i < 600; i++)
		assert_int_equal(hix_add(&x, 0x1234567800000000ull | i, i), 0);
	for (uint32_t i = 0; i < 300; i++)
		assert_true(has(&x, 0xabcdef0100000000ull, i));
	for (uint32_t i = 300; i < 600; i++)
		assert_true(has(&x, 0x1234567800000000ull, i));
	assert_false(has(&x, 0xabcdef0100000000ull, 300));
	hix_free(&x);
	assert_null(x.slot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_finds_nothing),
		cmocka_unit_test(found_after_growth),
		cmocka_unit_test(shared_tags_kept_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
