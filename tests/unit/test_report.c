/* Unit tests of the report histograms: merging by sort keys, perf's
 * output order (overhead, then each key's order, then entry-tree order),
 * unresolved symbols by address, fields that order but do not merge,
 * DSO short names, key parsing, chain counts and the fractal threshold,
 * the group view's pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/report.h"

static const struct hwprof_sym sym_a = { .start = 0x100, .end = 0x180, .name = "alpha" };
static const struct hwprof_sym sym_b = { .start = 0x200, .end = 0x240, .name = "beta" };
static const struct hwprof_sym sym_z = { .start = 0x300, .end = 0x310, .name = "zeta" };

static void add(struct hwprof_hist *h, const char *comm, int tid, const char *dso, const struct hwprof_sym *sym,
		uint64_t ip, uint64_t period)
{
	struct hwprof_hist_sample s = { .comm = comm, .pid = tid, .tid = tid, .cpu = 0, .dso = dso,
					.sym = sym, .ip = ip, .level = '.', .period = period };
	assert_int_equal(hwprof_hist_add(h, &s), 0);
}

static struct hwprof_hist *default_hist(void)
{
	enum hwprof_hist_key sort[] = { HWPROF_HK_OVERHEAD, HWPROF_HK_COMM, HWPROF_HK_DSO, HWPROF_HK_SYM };
	struct hwprof_hist *h;
	assert_int_equal(hwprof_hist_new(&h, sort, 4), 0);
	return h;
}

static void test_merge_and_order(void **state)
{
	(void)state;
	struct hwprof_hist *h = default_hist();
	add(h, "ls", 1, "/usr/lib/libc.so.6", &sym_b, 0x210, 10);
	add(h, "ls", 1, "/usr/lib/libc.so.6", &sym_a, 0x110, 10);
	add(h, "ls", 1, "/usr/lib/libc.so.6", &sym_b, 0x220, 10);  /* merges with the first */
	add(h, "sh", 2, "/usr/lib/libc.so.6", &sym_b, 0x220, 10);  /* other comm */
	add(h, "ls", 1, "/other/libc.so.6", &sym_a, 0x110, 10);    /* same short name: merges */
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_nr_entries(h), 3);
	assert_int_equal(hwprof_hist_total_period(h), 50);
	assert_int_equal(hwprof_hist_nr_samples(h), 5);
	const struct hwprof_hist_entry *e0 = hwprof_hist_entry(h, 0), *e1 = hwprof_hist_entry(h, 1),
				       *e2 = hwprof_hist_entry(h, 2);
	/* 20/20/10: equal periods order by comm, then symbol name */
	assert_string_equal(e0->comm, "ls");
	assert_string_equal(e0->sym->name, "alpha");
	assert_int_equal(e0->period, 20);
	assert_string_equal(e1->sym->name, "beta");
	assert_int_equal(e1->nr_samples, 2);
	assert_string_equal(e2->comm, "sh");
	assert_string_equal(e2->dso_short, "libc.so.6");
	assert_null(hwprof_hist_entry(h, 3));
	hwprof_hist_free(h);
}

static void test_unresolved(void **state)
{
	(void)state;
	struct hwprof_hist *h = default_hist();
	add(h, "ls", 1, "/bin/ls", NULL, 0x900, 5);
	add(h, "ls", 1, "/bin/ls", NULL, 0x100, 5);
	add(h, "ls", 1, "/bin/ls", &sym_z, 0x305, 5);
	add(h, "ls", 1, NULL, NULL, 0x50, 5);
	add(h, "ls", 1, "/bin/ls", NULL, 0x900, 5);
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_nr_entries(h), 4);
	/* 10 first; then the resolved symbol before unresolved ones, those in
	 * DSO order (no DSO last), by address within a DSO */
	assert_int_equal(hwprof_hist_entry(h, 0)->ip, 0x900);
	assert_ptr_equal(hwprof_hist_entry(h, 1)->sym, &sym_z);
	assert_int_equal(hwprof_hist_entry(h, 2)->ip, 0x100);
	assert_null(hwprof_hist_entry(h, 3)->dso_short);
	hwprof_hist_free(h);
}

static void test_fields_do_not_merge(void **state)
{
	(void)state;
	/* perf's -F sample,comm: sorted by samples, then comm; merged by comm */
	enum hwprof_hist_key sort[] = { HWPROF_HK_SAMPLES, HWPROF_HK_COMM };
	struct hwprof_hist *h;
	assert_int_equal(hwprof_hist_new(&h, sort, 2), 0);
	add(h, "b", 1, "/x", &sym_a, 0, 100);
	add(h, "a", 2, "/y", &sym_b, 0, 1);
	add(h, "a", 3, "/z", &sym_z, 0, 1);
	add(h, "c", 4, "/z", &sym_z, 0, 1);
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_nr_entries(h), 3);
	assert_string_equal(hwprof_hist_entry(h, 0)->comm, "a");
	assert_int_equal(hwprof_hist_entry(h, 0)->nr_samples, 2);
	assert_string_equal(hwprof_hist_entry(h, 1)->comm, "b");
	assert_string_equal(hwprof_hist_entry(h, 2)->comm, "c");
	hwprof_hist_free(h);
}

static void test_pid_and_cpu(void **state)
{
	(void)state;
	enum hwprof_hist_key sort[] = { HWPROF_HK_OVERHEAD, HWPROF_HK_CPU, HWPROF_HK_PID };
	struct hwprof_hist *h;
	assert_int_equal(hwprof_hist_new(&h, sort, 3), 0);
	struct hwprof_hist_sample s = { .comm = "x", .pid = 7, .tid = 9, .cpu = 3, .period = 1 };
	assert_int_equal(hwprof_hist_add(h, &s), 0);
	s.cpu = 1;
	assert_int_equal(hwprof_hist_add(h, &s), 0);
	s.tid = 8;
	assert_int_equal(hwprof_hist_add(h, &s), 0);
	s.tid = 9;
	assert_int_equal(hwprof_hist_add(h, &s), 0);
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_nr_entries(h), 3);
	assert_int_equal(hwprof_hist_entry(h, 0)->cpu, 1);
	assert_int_equal(hwprof_hist_entry(h, 0)->tid, 9);
	assert_int_equal(hwprof_hist_entry(h, 0)->period, 2);
	assert_int_equal(hwprof_hist_entry(h, 1)->tid, 8);   /* cpu 1 before cpu 3 */
	assert_int_equal(hwprof_hist_entry(h, 2)->cpu, 3);
	hwprof_hist_free(h);
}

static void test_many_entries(void **state)
{
	(void)state;
	struct hwprof_hist *h = default_hist();
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 5000; i++)
			add(h, "w", 1, "/bin/w", NULL, (uint64_t)i * 16, (uint64_t)(i % 7 + 1));
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_nr_entries(h), 5000);
	uint64_t prev = UINT64_MAX, prev_ip = 0;
	for (size_t i = 0; i < 5000; i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(h, i);
		assert_int_equal(e->nr_samples, 3);
		assert_true(e->period <= prev);
		if (e->period == prev)
			assert_true(e->ip > prev_ip);
		prev = e->period;
		prev_ip = e->ip;
	}
	hwprof_hist_free(h);
}

static void test_short_names(void **state)
{
	(void)state;
	char b[64];
	hwprof_dso_short_name("/usr/lib/x86_64-linux-gnu/libc.so.6", false, b, sizeof(b));
	assert_string_equal(b, "libc.so.6");
	hwprof_dso_short_name("/lib/modules/6.1/kernel/drivers/virtio-blk.ko.xz", true, b, sizeof(b));
	assert_string_equal(b, "[virtio_blk]");
	hwprof_dso_short_name("[kernel.kallsyms]", true, b, sizeof(b));
	assert_string_equal(b, "[kernel.kallsyms]");
	hwprof_dso_short_name("[vdso]", false, b, sizeof(b));
	assert_string_equal(b, "[vdso]");
	assert_int_equal(hwprof_hist_key_parse("sym"), HWPROF_HK_SYM);
	assert_int_equal(hwprof_hist_key_parse("symbol"), HWPROF_HK_SYM);
	assert_int_equal(hwprof_hist_key_parse("pid"), HWPROF_HK_PID);
	assert_int_equal(hwprof_hist_key_parse("sample"), HWPROF_HK_SAMPLES);
	assert_int_equal(hwprof_hist_key_parse("nosuch"), -1);
	struct hwprof_hist *h;
	enum hwprof_hist_key bad = (enum hwprof_hist_key)99;
	assert_int_not_equal(hwprof_hist_new(&h, &bad, 1), 0);
}

static void test_children_and_chains(void **state)
{
	(void)state;
	enum hwprof_hist_key sort[] = { HWPROF_HK_CHILDREN, HWPROF_HK_OVERHEAD, HWPROF_HK_COMM, HWPROF_HK_DSO,
					HWPROF_HK_SYM };
	struct hwprof_hist *h;
	assert_int_equal(hwprof_hist_new(&h, sort, 5), 0);
	hwprof_hist_set_callchain(h, HWPROF_HIST_CHILDREN | HWPROF_HIST_GRAPH | HWPROF_HIST_CALLER);
	const char *dso = "/bin/app";
	struct hwprof_hist_frame fa = { .dso = dso, .dso_rank = 1, .sym = &sym_a, .ip = 0x110, .level = '.' };
	struct hwprof_hist_frame fb = { .dso = dso, .dso_rank = 1, .sym = &sym_b, .ip = 0x210, .level = '.' };
	struct hwprof_hist_frame fz = { .dso = dso, .dso_rank = 1, .sym = &sym_z, .ip = 0x305, .level = '.' };
	/* caller order: alpha -> beta -> zeta (leaf zeta), twice; alpha ->
	 * alpha (recursion) -> beta once */
	struct hwprof_hist_frame c1[] = { fa, fb, fz }, c2[] = { fa, fa, fb };
	struct hwprof_hist_sample s1 = { .comm = "app", .pid = 5, .tid = 5, .dso = dso, .sym = &sym_z,
					 .ip = 0x305, .level = '.', .period = 10 };
	struct hwprof_hist_sample s2 = s1;
	s2.sym = &sym_b;
	s2.ip = 0x210;
	assert_int_equal(hwprof_hist_add_chain(h, &s1, c1, 3), 0);
	assert_int_equal(hwprof_hist_add_chain(h, &s1, c1, 3), 0);
	assert_int_equal(hwprof_hist_add_chain(h, &s2, c2, 3), 0);
	assert_int_equal(hwprof_hist_finish(h), 0);
	assert_int_equal(hwprof_hist_total_period(h), 30);
	assert_int_equal(hwprof_hist_nr_entries(h), 3);
	/* alpha: 30 accumulated once per sample (recursion not twice), self 0;
	 * beta 30 (its own 10 and 20 from zeta). Equal accumulated periods of
	 * one thread go by the longest chain (the caller first), here 3 for
	 * both (beta's own sample has the whole chain), then by self. */
	const struct hwprof_hist_entry *e1 = hwprof_hist_entry(h, 0), *e0 = hwprof_hist_entry(h, 1),
				       *e2 = hwprof_hist_entry(h, 2);
	assert_ptr_equal(e0->sym, &sym_a);
	assert_int_equal(e0->acc_period, 30);
	assert_int_equal(e0->period, 0);
	assert_int_equal(e0->max_depth, 3);
	assert_ptr_equal(e1->sym, &sym_b);
	assert_int_equal(e1->acc_period, 30);
	assert_int_equal(e1->period, 10);
	assert_int_equal(e1->max_depth, 3);
	assert_ptr_equal(e2->sym, &sym_z);
	assert_int_equal(e2->acc_period, 20);
	hwprof_hist_sort_chains(h, 0);
	/* alpha's graph: one root alpha (30) with children beta (20) and
	 * alpha (10), sorted by hits */
	uint32_t r = hwprof_chain_first(h, e0->chain);
	assert_int_not_equal(r, HWPROF_CHAIN_NONE);
	assert_ptr_equal(hwprof_chain_frame(h, r)->sym, &sym_a);
	assert_int_equal(hwprof_chain_cumul(h, r), 30);
	assert_int_equal(hwprof_chain_next(h, r), HWPROF_CHAIN_NONE);
	uint32_t c = hwprof_chain_first(h, r);
	assert_ptr_equal(hwprof_chain_frame(h, c)->sym, &sym_b);
	assert_int_equal(hwprof_chain_cumul(h, c), 20);
	uint32_t d = hwprof_chain_next(h, c);
	assert_ptr_equal(hwprof_chain_frame(h, d)->sym, &sym_a);
	assert_int_equal(hwprof_chain_cumul(h, d), 10);
	assert_int_equal(hwprof_chain_next(h, d), HWPROF_CHAIN_NONE);
	/* a threshold drops the smaller branch */
	hwprof_hist_sort_chains(h, 15);
	c = hwprof_chain_first(h, r);
	assert_int_equal(hwprof_chain_next(h, c), HWPROF_CHAIN_NONE);
	/* zeta's own chain (self samples): the whole chain, leaf last */
	r = hwprof_chain_first(h, e2->chain);
	assert_ptr_equal(hwprof_chain_frame(h, r)->sym, &sym_a);
	assert_int_equal(hwprof_chain_nr_children(h, r), 1);
	assert_int_equal(hwprof_chain_hit(h, r), 0);
	hwprof_hist_free(h);
}

/* Chain counts and the fractal threshold on alpha's graph of
 * test_children_and_chains' samples, without children. */
static void test_counts_and_fractal(void **state)
{
	(void)state;
	enum hwprof_hist_key sort[] = { HWPROF_HK_OVERHEAD, HWPROF_HK_SYM };
	struct hwprof_hist *h;
	assert_int_equal(hwprof_hist_new(&h, sort, 2), 0);
	hwprof_hist_set_callchain(h, HWPROF_HIST_GRAPH | HWPROF_HIST_CALLER);
	const char *dso = "/bin/app";
	struct hwprof_hist_frame fa = { .dso = dso, .dso_rank = 1, .sym = &sym_a, .ip = 0x110, .level = '.' };
	struct hwprof_hist_frame fb = { .dso = dso, .dso_rank = 1, .sym = &sym_b, .ip = 0x210, .level = '.' };
	struct hwprof_hist_frame fz = { .dso = dso, .dso_rank = 1, .sym = &sym_z, .ip = 0x305, .level = '.' };
	/* zeta sampled under alpha -> beta (3 x 10) and alpha -> zeta (1 x 2) */
	struct hwprof_hist_frame c1[] = { fa, fb, fz }, c2[] = { fa, fz };
	struct hwprof_hist_sample s = { .comm = "app", .pid = 5, .tid = 5, .dso = dso, .sym = &sym_z,
					.ip = 0x305, .level = '.', .period = 10 };
	for (int i = 0; i < 3; i++)
		assert_int_equal(hwprof_hist_add_chain(h, &s, c1, 3), 0);
	s.period = 2;
	assert_int_equal(hwprof_hist_add_chain(h, &s, c2, 2), 0);
	assert_int_equal(hwprof_hist_finish(h), 0);
	const struct hwprof_hist_entry *e = hwprof_hist_entry(h, 0);
	hwprof_hist_sort_chains_rel(h, 10.0);
	uint32_t r = hwprof_chain_first(h, e->chain);
	assert_int_equal(hwprof_chain_cumul(h, r), 32);
	assert_int_equal(hwprof_chain_cumul_count(h, r), 4);
	uint32_t b = hwprof_chain_first(h, r);
	assert_ptr_equal(hwprof_chain_frame(h, b)->sym, &sym_b);
	assert_int_equal(hwprof_chain_cumul_count(h, b), 3);
	/* 10% of the 32 below alpha, rounded up, is 4: zeta's 2 is dropped */
	assert_int_equal(hwprof_chain_next(h, b), HWPROF_CHAIN_NONE);
	hwprof_hist_sort_chains_rel(h, 6.25); /* ceil(32 * 6.25%) = 2: kept */
	b = hwprof_chain_first(h, r);
	uint32_t z = hwprof_chain_next(h, b);
	assert_int_not_equal(z, HWPROF_CHAIN_NONE);
	assert_int_equal(hwprof_chain_count(h, z), 1);
	assert_int_equal(hwprof_chain_cumul(h, z), 2);
	hwprof_hist_free(h);
}

/* The group view: a member's entries paired with the leader's, the
 * member's own entries added to the leader without period, ties in the
 * leader's overhead ordered by the member. */
static void test_group_link(void **state)
{
	(void)state;
	struct hwprof_hist *l = default_hist(), *m = default_hist();
	add(l, "ls", 1, "/bin/app", &sym_a, 0x110, 10);
	add(l, "ls", 1, "/bin/app", &sym_b, 0x210, 10);
	add(m, "ls", 1, "/bin/app", &sym_b, 0x210, 7);
	add(m, "ls", 1, "/bin/app", &sym_a, 0x110, 3);
	add(m, "ls", 1, "/bin/app", &sym_z, 0x305, 5); /* the member's only */
	assert_int_equal(hwprof_hist_link(l, m), 0);
	assert_int_equal(hwprof_hist_finish(m), 0);
	assert_int_equal(hwprof_hist_finish(l), 0);
	assert_int_equal(hwprof_hist_nr_members(l), 1);
	assert_ptr_equal(hwprof_hist_member(l, 0), m);
	assert_int_equal(hwprof_hist_nr_entries(l), 3);
	assert_int_equal(hwprof_hist_total_period(l), 20);
	/* alpha and beta tie at 10: beta first, its member value is larger */
	const struct hwprof_hist_entry *e0 = hwprof_hist_entry(l, 0), *e1 = hwprof_hist_entry(l, 1),
				       *e2 = hwprof_hist_entry(l, 2);
	assert_ptr_equal(e0->sym, &sym_b);
	assert_int_equal(hwprof_hist_pair(l, e0, 0)->period, 7);
	assert_ptr_equal(e1->sym, &sym_a);
	assert_int_equal(hwprof_hist_pair(l, e1, 0)->period, 3);
	assert_ptr_equal(e2->sym, &sym_z);
	assert_int_equal(e2->period, 0);
	assert_string_equal(e2->comm, "ls");
	assert_int_equal(hwprof_hist_pair(l, e2, 0)->period, 5);
	assert_null(hwprof_hist_pair(l, e2, 1));
	/* linking a finished leader is refused */
	assert_int_equal(hwprof_hist_link(l, m), -HWPROF_E_INVAL);
	hwprof_hist_free(l);
	hwprof_hist_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_and_order),
		cmocka_unit_test(test_unresolved),
		cmocka_unit_test(test_fields_do_not_merge),
		cmocka_unit_test(test_pid_and_cpu),
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_children_and_chains),
		cmocka_unit_test(test_counts_and_fractal),
		cmocka_unit_test(test_group_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
