/* The arm64 exception-level rules of Documentation/arch/arm64/perf.rst
 * (seed 003) as a table: exclude_* bits x {VHE host, non-VHE host, guest}
 * -> the ELs counted while the host runs, while a guest runs, and whether
 * non-VHE leaves a blackout window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/event.h"

enum { U = 1, K = 2, HV = 4, HOST = 8, GUEST = 16 };
#define E0 HWPROF_EL0
#define E1 HWPROF_EL1
#define E2 HWPROF_EL2

static const struct {
	unsigned ex; /* U K HV HOST GUEST */
	enum hwprof_arm64_ctx ctx;
	unsigned host, guest;
	int blackout;
} cases[] = {
	/* nothing excluded */
	{ 0, HWPROF_ARM64_VHE_HOST, E0 | E2, E0 | E1, 0 },
	{ 0, HWPROF_ARM64_NVHE_HOST, E0 | E1 | E2, E0 | E1, 1 },
	{ 0, HWPROF_ARM64_GUEST, E0 | E1, 0, 0 },
	/* exclude_user excludes EL0 everywhere */
	{ U, HWPROF_ARM64_VHE_HOST, E2, E1, 0 },
	{ U, HWPROF_ARM64_NVHE_HOST, E1 | E2, E1, 1 },
	{ U, HWPROF_ARM64_GUEST, E1, 0, 0 },
	/* exclude_kernel: EL1 and EL2 on VHE, EL1 on non-VHE and in guests */
	{ K, HWPROF_ARM64_VHE_HOST, E0, E0, 0 },
	{ K, HWPROF_ARM64_NVHE_HOST, E0 | E2, E0, 1 },
	{ K, HWPROF_ARM64_GUEST, E0, 0, 0 },
	/* exclude_hv: ignored on VHE, EL2 on non-VHE, no effect in a guest */
	{ HV, HWPROF_ARM64_VHE_HOST, E0 | E2, E0 | E1, 0 },
	{ HV, HWPROF_ARM64_NVHE_HOST, E0 | E1, E0 | E1, 0 },
	{ HV, HWPROF_ARM64_GUEST, E0 | E1, 0, 0 },
	/* :u as perf sets it (exclude_kernel|exclude_hv) */
	{ K | HV, HWPROF_ARM64_VHE_HOST, E0, E0, 0 },
	{ K | HV, HWPROF_ARM64_NVHE_HOST, E0, E0, 0 },
	/* :k (exclude_user|exclude_hv) */
	{ U | HV, HWPROF_ARM64_VHE_HOST, E2, E1, 0 },
	{ U | HV, HWPROF_ARM64_NVHE_HOST, E1, E1, 0 },
	/* exclude_guest (perf's default): host only */
	{ GUEST, HWPROF_ARM64_VHE_HOST, E0 | E2, 0, 0 },
	{ GUEST, HWPROF_ARM64_NVHE_HOST, E0 | E1 | E2, 0, 1 },
	{ GUEST, HWPROF_ARM64_GUEST, E0 | E1, 0, 0 },
	/* exclude_host: VHE drops EL0 and EL2, non-VHE disables outside guests */
	{ HOST, HWPROF_ARM64_VHE_HOST, 0, E0 | E1, 0 },
	{ HOST, HWPROF_ARM64_NVHE_HOST, 0, E0 | E1, 1 },
	{ HOST | HV, HWPROF_ARM64_NVHE_HOST, 0, E0 | E1, 0 },
	/* both: nothing at all */
	{ HOST | GUEST, HWPROF_ARM64_VHE_HOST, 0, 0, 0 },
	{ U | K | HV, HWPROF_ARM64_NVHE_HOST, 0, 0, 0 },
	/* EL2 is never counted inside a guest */
	{ U | HOST | GUEST, HWPROF_ARM64_GUEST, E1, 0, 0 },
};

static void attr_of(struct hwprof_attr *a, unsigned ex)
{
	memset(a, 0, sizeof(*a));
	if (ex & U) a->flags |= 1ULL << HWPROF_ATTR_EXCLUDE_USER;
	if (ex & K) a->flags |= 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL;
	if (ex & HV) a->flags |= 1ULL << HWPROF_ATTR_EXCLUDE_HV;
	if (ex & HOST) a->flags |= 1ULL << HWPROF_ATTR_EXCLUDE_HOST;
	if (ex & GUEST) a->flags |= 1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
}

static void test_table(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwprof_attr a;
		struct hwprof_arm64_el el;
		attr_of(&a, cases[i].ex);
		hwprof_arm64_el_counted(&a, cases[i].ctx, &el);
		if (el.host != cases[i].host || el.guest != cases[i].guest || el.blackout != cases[i].blackout)
			fail_msg("case %zu (ex %#x ctx %d): host %#x guest %#x blackout %d, want %#x %#x %d", i,
				 cases[i].ex, cases[i].ctx, el.host, el.guest, el.blackout, cases[i].host,
				 cases[i].guest, cases[i].blackout);
		/* guest/host exclusion is done by switching at entry/exit */
		int want_switch = cases[i].ctx != HWPROF_ARM64_GUEST && (cases[i].ex & (HOST | GUEST));
		assert_int_equal(el.switched, want_switch);
	}
}

static void test_format(void **state)
{
	struct hwprof_attr a;
	char buf[512];
	attr_of(&a, K | HV | GUEST); /* cycles:u as perf builds it */
	hwprof_arm64_el_format(buf, sizeof(buf), &a);
	assert_string_equal(buf, "arm64 EL, VHE host:     host EL0; guest none\n"
				 "arm64 EL, non-VHE host: host EL0; guest none\n"
				 "arm64 EL, in a guest:   EL0\n");
	attr_of(&a, GUEST);
	hwprof_arm64_el_format(buf, sizeof(buf), &a);
	assert_string_equal(buf, "arm64 EL, VHE host:     host EL0,EL2; guest none\n"
				 "arm64 EL, non-VHE host: host EL0,EL1,EL2; guest none (!exclude_hv: host events "
				 "are lost in a short window at guest entry/exit)\n"
				 "arm64 EL, in a guest:   EL0,EL1\n");
	/* snprintf semantics */
	int need = hwprof_arm64_el_format(buf, 8, &a);
	assert_true(need > 8);
	assert_int_equal(strlen(buf), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
