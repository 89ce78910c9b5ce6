/* PMU discovery against the fake sysfs trees in tests/data/sysfs (an Intel
 * Skylake-like machine with cpu, intel_pt and msr; a Neoverse machine with
 * armv8_pmuv3_0 and arm_spe_0), format parsing and value placement across
 * split bit ranges, and bad trees built on the fly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/pmu.h"

#define INTEL "tests/data/sysfs/intel"
#define NEOVERSE "tests/data/sysfs/neoverse"

static struct hwprof_pmus *open_tree(const char *root)
{
	struct hwprof_pmu_config cfg = { .sysfs_root = root };
	struct hwprof_pmus *p = NULL;
	assert_int_equal(hwprof_pmus_open(&p, &cfg), 0);
	assert_non_null(p);
	return p;
}

/* ---- format strings -------------------------------------------------- */

static const struct {
	const char *text;
	int ok;
	unsigned word, nr, lo0, hi0, lo1, hi1;
} fmt_cases[] = {
	{ "config:0-7", 1, 0, 1, 0, 7, 0, 0 },
	{ "config:0-7\n", 1, 0, 1, 0, 7, 0, 0 },
	{ "config:12", 1, 0, 1, 12, 12, 0, 0 },
	{ "config1:0-63", 1, 1, 1, 0, 63, 0, 0 },
	{ "config2:0-11", 1, 2, 1, 0, 11, 0, 0 },
	{ "config3:0-63", 1, 3, 1, 0, 63, 0, 0 },
	{ "config4:5", 1, 4, 1, 5, 5, 0, 0 },
	{ "config:0-7,32-35", 1, 0, 2, 0, 7, 32, 35 },
	{ "config:0-7,21", 1, 0, 2, 0, 7, 21, 21 },
	{ "config5:0", 0, 0, 0, 0, 0, 0, 0 }, { "cfg:0", 0, 0, 0, 0, 0, 0, 0 }, { "config:", 0, 0, 0, 0, 0, 0, 0 }, { "config:7-3", 0, 0, 0, 0, 0, 0, 0 },
	{ "config:64", 0, 0, 0, 0, 0, 0, 0 }, { "config:0-64", 0, 0, 0, 0, 0, 0, 0 }, { "config:0-63,1", 0, 0, 0, 0, 0, 0, 0 }, { "config:1x", 0, 0, 0, 0, 0, 0, 0 },
	{ "config:0,", 0, 0, 0, 0, 0, 0, 0 }, { "config:1000", 0, 0, 0, 0, 0, 0, 0 }, { "", 0, 0, 0, 0, 0, 0, 0 }, { "config1:0-7 junk", 0, 0, 0, 0, 0, 0, 0 },
};

static void test_format_parse(void **state)
{
	for (size_t i = 0; i < sizeof(fmt_cases) / sizeof(fmt_cases[0]); i++) {
		struct hwprof_pmu_format f;
		memset(&f, 0, sizeof(f));
		int rc = hwprof_pmu_format_parse(&f, fmt_cases[i].text);
		if (!fmt_cases[i].ok) {
			if (rc != -HWPROF_E_INVAL)
				fail_msg("'%s' accepted", fmt_cases[i].text);
			continue;
		}
		if (rc)
			fail_msg("'%s' rejected", fmt_cases[i].text);
		assert_int_equal(f.word, fmt_cases[i].word);
		assert_int_equal(f.nr, fmt_cases[i].nr);
		assert_int_equal(f.r[0].lo, fmt_cases[i].lo0);
		assert_int_equal(f.r[0].hi, fmt_cases[i].hi0);
		if (f.nr > 1) {
			assert_int_equal(f.r[1].lo, fmt_cases[i].lo1);
			assert_int_equal(f.r[1].hi, fmt_cases[i].hi1);
		}
	}
}

static void test_format_place(void **state)
{
	struct hwprof_pmu_format f;
	uint64_t cfg[HWPROF_CFG_WORDS] = { 0 };
	char text[64];

	assert_int_equal(hwprof_pmu_format_parse(&f, "config:0-7,32-35"), 0);
	assert_int_equal(hwprof_pmu_format_max(&f), 0xfff);
	assert_int_equal(hwprof_pmu_format_place(&f, 0xabc, cfg), 0);
	assert_int_equal(cfg[0], 0xa000000bcULL);
	/* placing again replaces the field's bits, leaves the others */
	cfg[0] |= 0x100;
	assert_int_equal(hwprof_pmu_format_place(&f, 0x001, cfg), 0);
	assert_int_equal(cfg[0], 0x101ULL);
	/* out of range: refused, cfg untouched */
	assert_int_equal(hwprof_pmu_format_place(&f, 0x1000, cfg), -HWPROF_E_INVAL);
	assert_int_equal(cfg[0], 0x101ULL);
	hwprof_pmu_format_text(text, sizeof(text), &f);
	assert_string_equal(text, "config:0-7,32-35");

	assert_int_equal(hwprof_pmu_format_parse(&f, "config2:0-11"), 0);
	assert_int_equal(hwprof_pmu_format_place(&f, 0xfff, cfg), 0);
	assert_int_equal(cfg[2], 0xfff);
	assert_int_equal(hwprof_pmu_format_place(&f, 0x1000, cfg), -HWPROF_E_INVAL);

	assert_int_equal(hwprof_pmu_format_parse(&f, "config1:0-63"), 0);
	assert_int_equal(hwprof_pmu_format_max(&f), ~0ULL);
	assert_int_equal(hwprof_pmu_format_place(&f, ~0ULL, cfg), 0);
	assert_int_equal(cfg[1], ~0ULL);

	assert_int_equal(hwprof_pmu_format_parse(&f, "config:55"), 0);
	assert_int_equal(hwprof_pmu_format_max(&f), 1);
	assert_int_equal(hwprof_pmu_format_place(&f, 1, cfg), 0);
	assert_int_equal(cfg[0], (1ULL << 55) | 0x101ULL);
	assert_int_equal(hwprof_pmu_format_place(&f, 2, cfg), -HWPROF_E_INVAL);
	hwprof_pmu_format_text(text, sizeof(text), &f);
	assert_string_equal(text, "config:55");
	assert_string_equal(hwprof_cfg_word_name(3), "config3");
}

/* ---- trees ------------------------------------------------------------- */

static void test_intel_tree(void **state)
{
	struct hwprof_pmus *p = open_tree(INTEL);
	const char *names[] = { "breakpoint", "cpu", "intel_pt", "msr", "software", "tracepoint", "uprobe" };
	assert_int_equal(hwprof_pmus_count(p), 7);
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(hwprof_pmus_get(p, i)->name, names[i]);
	assert_null(hwprof_pmus_get(p, 7));

	const struct hwprof_pmu *cpu = hwprof_pmus_find(p, "cpu");
	assert_non_null(cpu);
	assert_ptr_equal(hwprof_pmus_core(p), cpu);
	assert_int_equal(cpu->type, 4);
	assert_true(cpu->is_core);
	assert_int_equal(cpu->nr_formats, 12);
	const struct hwprof_pmu_format *f = hwprof_pmu_format_find(cpu, "cmask");
	assert_non_null(f);
	assert_int_equal(f->word, HWPROF_CFG_CONFIG);
	assert_int_equal(f->r[0].lo, 24);
	assert_int_equal(f->r[0].hi, 31);
	f = hwprof_pmu_format_find(cpu, "ldlat");
	assert_int_equal(f->word, HWPROF_CFG_CONFIG1);
	/* .scale files describe an alias, they are not one */
	assert_int_equal(cpu->nr_aliases, 13);
	assert_null(hwprof_pmu_alias(cpu, "topdown-total-slots.scale"));
	const struct hwprof_pmu_alias *a = hwprof_pmu_alias(cpu, "topdown-total-slots");
	assert_non_null(a);
	assert_string_equal(a->value, "event=0x3c,umask=0x0,any=1");
	assert_string_equal(a->scale, "2");
	assert_null(a->unit);
	assert_string_equal(hwprof_pmu_alias(cpu, "bus-cycles")->value, "event=0x3c,umask=0x01");
	assert_string_equal(hwprof_pmu_cap(cpu, "max_precise"), "3");
	assert_string_equal(hwprof_pmu_cap(cpu, "pmu_name"), "skylake");
	assert_null(hwprof_pmu_cap(cpu, "nope"));

	const struct hwprof_pmu *pt = hwprof_pmus_find(p, "intel_pt");
	assert_int_equal(pt->type, 8);
	assert_false(pt->is_core);
	assert_int_equal(pt->nr_formats, 14);
	assert_int_equal(pt->nr_caps, 18);
	assert_string_equal(hwprof_pmu_cap(pt, "psb_periods"), "3f");
	assert_string_equal(hwprof_pmu_cap(pt, "mtc_periods"), "249");
	assert_string_equal(hwprof_pmu_cap(pt, "cycle_thresholds"), "3fff");
	f = hwprof_pmu_format_find(pt, "psb_period");
	assert_int_equal(f->r[0].lo, 24);
	assert_int_equal(f->r[0].hi, 27);
	assert_int_equal(hwprof_pmu_format_find(pt, "notnt")->r[0].lo, 55);
	assert_int_equal(pt->nr_aliases, 0);

	/* PMUs without format/ or events/ still count */
	const struct hwprof_pmu *sw = hwprof_pmus_find(p, "software");
	assert_int_equal(sw->type, 1);
	assert_int_equal(sw->nr_formats, 0);
	assert_null(hwprof_pmus_find(p, "arm_spe_0"));
	hwprof_pmus_close(p);
}

static void test_neoverse_tree(void **state)
{
	struct hwprof_pmus *p = open_tree(NEOVERSE);
	const struct hwprof_pmu *core = hwprof_pmus_core(p);
	assert_non_null(core);
	assert_string_equal(core->name, "armv8_pmuv3_0");
	assert_string_equal(core->cpumask, "0-63");
	assert_string_equal(hwprof_pmu_alias(core, "cpu_cycles")->value, "event=0x0011");
	assert_int_equal(hwprof_pmu_format_find(core, "event")->r[0].hi, 15);

	const struct hwprof_pmu *spe = hwprof_pmus_find(p, "arm_spe_0");
	assert_non_null(spe);
	assert_int_equal(spe->type, 9);
	assert_false(spe->is_core);
	assert_string_equal(spe->cpumask, "0-63");
	assert_string_equal(hwprof_pmu_cap(spe, "min_interval"), "1024");
	assert_string_equal(hwprof_pmu_cap(spe, "count_size"), "12");
	assert_string_equal(hwprof_pmu_cap(spe, "arch_inst"), "1");
	const struct hwprof_pmu_format *f = hwprof_pmu_format_find(spe, "min_latency");
	assert_int_equal(f->word, HWPROF_CFG_CONFIG2);
	assert_int_equal(hwprof_pmu_format_max(f), 0xfff);
	assert_int_equal(hwprof_pmu_format_find(spe, "event_filter")->word, HWPROF_CFG_CONFIG1);
	assert_int_equal(hwprof_pmu_format_find(spe, "inv_event_filter")->word, HWPROF_CFG_CONFIG3);
	assert_int_equal(hwprof_pmu_format_find(spe, "store_filter")->r[0].lo, 34);
	hwprof_pmus_close(p);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Odd trees: no devices dir, a PMU with a non-numeric type, a malformed
 * format file, a directory where a file should be. */
static void test_bad_trees(void **state)
{
	char root[] = "/tmp/hwprof_sysfs_XXXXXX", path[512];
	assert_non_null(mkdtemp(root));
	struct hwprof_pmus *p = open_tree(root);
	assert_int_equal(hwprof_pmus_count(p), 0);
	assert_null(hwprof_pmus_core(p));
	hwprof_pmus_close(p);

	const char *dirs[] = { "/bus", "/bus/event_source", "/bus/event_source/devices",
			       "/bus/event_source/devices/odd", "/bus/event_source/devices/odd/format",
			       "/bus/event_source/devices/odd/events", "/bus/event_source/devices/odd/events/dir",
			       "/bus/event_source/devices/notype", "/bus/event_source/devices/wordtype" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/odd/type", root);
	put(path, "42\n");
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/odd/format/good", root);
	put(path, "config:0-3\n");
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/odd/format/bad", root);
	put(path, "config9:0-3\n");
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/odd/events/ok", root);
	put(path, "good=1\n");
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/wordtype/type", root);
	put(path, "four\n");

	p = open_tree(root);
	assert_int_equal(hwprof_pmus_count(p), 1);
	const struct hwprof_pmu *odd = hwprof_pmus_get(p, 0);
	assert_string_equal(odd->name, "odd");
	assert_int_equal(odd->type, 42);
	assert_int_equal(odd->nr_formats, 1);
	assert_string_equal(odd->formats[0].name, "good");
	assert_int_equal(odd->nr_aliases, 1);
	assert_string_equal(odd->aliases[0].value, "good=1");
	hwprof_pmus_close(p);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_default_root(void **state)
{
	/* NULL config reads /sys: whatever is there, it must not fail */
	struct hwprof_pmus *p = NULL;
	assert_int_equal(hwprof_pmus_open(&p, NULL), 0);
	hwprof_pmus_close(p);
	hwprof_pmus_close(NULL);
	assert_int_equal(hwprof_pmus_count(NULL), 0);
	assert_null(hwprof_pmus_find(NULL, "cpu"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_place),
		cmocka_unit_test(test_intel_tree),
		cmocka_unit_test(test_neoverse_tree),
		cmocka_unit_test(test_bad_trees),
		cmocka_unit_test(test_default_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
