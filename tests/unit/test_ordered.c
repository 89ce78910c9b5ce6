/* The session's time-ordering queue (src/session/ordered.c): records come
 * back in (time, arrival) order, from the FIFO of in-order arrivals and the
 * heap of the others, also when the FIFO ring grows while its entries wrap
 * around its end, and copies of records stay intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "session/ordered.h"

/* a record named by its offset */
static struct hwprof_record rec(uint64_t id)
{
	struct hwprof_record r;
	memset(&r, 0, sizeof(r));
	r.offset = id;
	return r;
}

static void push(struct ord_queue *q, uint64_t id, uint64_t time)
{
	struct hwprof_record r = rec(id);
	assert_int_equal(ord_push(q, &r, time, false), 0);
}

/* pops one and checks it is record id */
static void pop_id(struct ord_queue *q, uint64_t id)
{
	struct ord_entry e;
	assert_int_equal(ord_pop(q, UINT64_MAX, &e), 1);
	assert_int_equal(e.rec.offset, id);
}

/* The ring grows when full; here its live entries wrap around the end at
 * that moment (600 popped of the first 1024 slots), so the front part moves
 * behind the old end and the order holds. */
static void test_fifo_grows_wrapped(void **state)
{
	(void)state;
	struct ord_queue q;
	ord_init(&q);
	uint64_t next_pop = 0;
	for (uint64_t i = 0; i < 1000; i++)
		push(&q, i, 10 * i);
	for (; next_pop < 600; next_pop++)
		pop_id(&q, next_pop);
	for (uint64_t i = 1000; i < 5000; i++)
		push(&q, i, 10 * i);
	for (; next_pop < 5000; next_pop++)
		pop_id(&q, next_pop);
	struct ord_entry e;
	assert_int_equal(ord_pop(&q, UINT64_MAX, &e), 0);
	ord_fini(&q);
}

/* Late arrivals go to the heap; equal times keep the arrival order, and a
 * limit holds back what is newer. */
static void test_heap_and_fifo(void **state)
{
	(void)state;
	struct ord_queue q;
	ord_init(&q);
	push(&q, 0, 100);
	push(&q, 1, 200);
	push(&q, 2, 150); /* late: heap */
	push(&q, 3, 200); /* not older than the FIFO's newest: FIFO */
	push(&q, 4, 100); /* late, ties with 0 */
	struct ord_entry e;
	assert_int_equal(ord_pop(&q, 99, &e), 0);
	pop_id(&q, 0);
	pop_id(&q, 4);
	pop_id(&q, 2);
	assert_int_equal(ord_pop(&q, 199, &e), 0);
	pop_id(&q, 1);
	pop_id(&q, 3);
	assert_int_equal(ord_pop(&q, UINT64_MAX, &e), 0);
	ord_fini(&q);
}

/* Copied records: the bytes come back as pushed, across many chunks' worth. */
static void test_copies(void **state)
{
	(void)state;
	struct ord_queue q;
	ord_init(&q);
	uint8_t buf[4096];
	for (uint64_t i = 0; i < 2000; i++) {
		memset(buf, (int)(i & 0xff), sizeof(buf));
		struct hwprof_record r = rec(i);
		r.data = buf;
		r.size = (uint16_t)(8 + (i % 4000));
		assert_int_equal(ord_push(&q, &r, i, true), 0);
	}
	for (uint64_t i = 0; i < 2000; i++) {
		struct ord_entry e;
		assert_int_equal(ord_pop(&q, UINT64_MAX, &e), 1);
		assert_int_equal(e.rec.offset, i);
		assert_int_equal(e.rec.size, 8 + (i % 4000));
		for (size_t k = 0; k < e.rec.size; k++)
			if (e.rec.data[k] != (uint8_t)(i & 0xff))
				fail_msg("record %llu byte %zu", (unsigned long long)i, k);
	}
	ord_fini(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_grows_wrapped),
		cmocka_unit_test(test_heap_and_fifo),
		cmocka_unit_test(test_copies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
