/* Intel PT configuration: perf's default terms and config checks per fake
 * CPU tree (tests/data/sysfs/{intel,broadwell,icelake,alderlake}), perf's
 * valid-values lists, the --filter grammar, filter strings, and the
 * AUXTRACE_INFO body with replaced CPUID / time sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof/event.h"
#include "hwprof/intel_pt_cfg.h"
#include "hwprof/pmu.h"

static struct hwprof_pmus *open_tree(const char *name)
{
	char root[256];
	snprintf(root, sizeof(root), "tests/data/sysfs/%s", name);
	struct hwprof_pmu_config cfg = { .sysfs_root = root };
	struct hwprof_pmus *p = NULL;
	assert_int_equal(hwprof_pmus_open(&p, &cfg), 0);
	assert_non_null(hwprof_pmus_find(p, "intel_pt"));
	return p;
}

/* config of "intel_pt/terms/u" after parsing (perf's defaults + terms). */
static uint64_t parse_config(const struct hwprof_pmus *p, const char *terms)
{
	char spec[256];
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	snprintf(spec, sizeof(spec), "intel_pt/%s/u", terms);
	assert_int_equal(hwprof_evlist_parse(&l, spec, p, &err), 1);
	uint64_t c = l.ev[0].attr.config;
	hwprof_evlist_free(&l);
	return c;
}

static int check(const struct hwprof_pmus *p, const char *terms, char *msg, size_t len)
{
	uint64_t c = parse_config(p, terms);
	struct hwprof_error err;
	int rc = hwprof_pt_check_config(hwprof_pmus_find(p, "intel_pt"), &c, NULL, &err);
	snprintf(msg, len, "%s", rc ? err.msg : "");
	return rc;
}

static void test_default_terms(void **state)
{
	(void)state;
	static const struct { const char *tree, *terms; uint64_t config; } t[] = {
		{ "intel", "tsc,mtc,mtc_period=3,psb_period=3,pt,branch", 0x300e601 },
		{ "broadwell", "tsc,pt,branch", 0x2401 },
		{ "icelake", "tsc,mtc,mtc_period=3,psb_period=3,pt,branch", 0x300e601 },
		{ "alderlake", "tsc,mtc,mtc_period=3,psb_period=3,pt,branch", 0x300e601 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct hwprof_pmus *p = open_tree(t[i].tree);
		char buf[256];
		int n = hwprof_pt_default_terms(hwprof_pmus_find(p, "intel_pt"), buf, sizeof(buf));
		assert_string_equal(buf, t[i].terms);
		assert_int_equal(n, (int)strlen(t[i].terms));
		assert_int_equal(parse_config(p, ""), t[i].config);
		/* truncation keeps snprintf's count */
		char small[8];
		assert_int_equal(hwprof_pt_default_terms(hwprof_pmus_find(p, "intel_pt"), small, sizeof(small)), n);
		assert_int_equal(strlen(small), 7);
		hwprof_pmus_close(p);
	}
}

static void test_valid_values(void **state)
{
	(void)state;
	static const struct { uint64_t bits; const char *s; } t[] = {
		{ 0x3f, "0-5" }, { 0x249, "0,3,6,9" }, { 0x1fff, "0-12" }, { 1, "0" }, { 0x3, "0,1" },
		{ 0x2f, "0-3,5" }, { 0x1b, "0,1,3,4" }, { 0x8000000000000001ULL, "0,63" }, { 0, "" },
		{ 0x3c, "2-5" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char buf[128];
		hwprof_pt_valid_values(buf, sizeof(buf), t[i].bits);
		assert_string_equal(buf, t[i].s);
	}
}

static void test_checks_per_cpu(void **state)
{
	(void)state;
	static const struct { const char *tree, *terms; int rc; const char *msg; } t[] = {
		{ "intel", "", 0, "" },
		{ "intel", "psb_period=15", -HWPROF_E_INVAL, "Invalid psb_period for intel_pt. Valid values are: 0-5" },
		{ "intel", "mtc_period=15", -HWPROF_E_INVAL, "Invalid mtc_period for intel_pt. Valid values are: 0,3,6,9" },
		{ "intel", "cyc,cyc_thresh=15", -HWPROF_E_INVAL, "Invalid cyc_thresh for intel_pt. Valid values are: 0-13" },
		{ "intel", "cyc,cyc_thresh=13", 0, "" },
		{ "intel", "mtc_period=0", 0, "" },
		{ "intel", "ptw", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: ptw is not supported by this CPU (caps/ptwrite is 0 or missing); the kernel refuses the event" },
		{ "broadwell", "", 0, "" },
		{ "broadwell", "psb_period=3", -HWPROF_E_INVAL, "Invalid psb_period for intel_pt. Valid values are: 0" },
		{ "broadwell", "cyc", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: cyc is not supported by this CPU (caps/psb_cyc is 0 or missing); the kernel refuses the event" },
		{ "broadwell", "mtc", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: mtc is not supported by this CPU (caps/mtc is 0 or missing); the kernel refuses the event" },
		{ "broadwell", "noretcomp,tsc=0,branch=0", 0, "" },
		{ "icelake", "ptw,fup_on_ptw", 0, "" },
		{ "icelake", "fup_on_ptw", -HWPROF_E_INVAL, "intel_pt: fup_on_ptw without ptw; the kernel refuses the event" },
		{ "icelake", "pwr_evt", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: pwr_evt is not supported by this CPU (caps/power_event_trace is 0 or missing); the kernel refuses the event" },
		{ "alderlake", "pwr_evt,ptw", 0, "" },
		{ "alderlake", "notnt", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: notnt is not supported by this CPU (caps/tnt_disable is 0 or missing); the kernel refuses the event" },
		{ "alderlake", "event", -HWPROF_E_OPNOTSUPP,
		  "intel_pt: event is not supported by this CPU (caps/event_trace is 0 or missing); the kernel refuses the event" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct hwprof_pmus *p = open_tree(t[i].tree);
		char msg[256];
		int rc = check(p, t[i].terms, msg, sizeof(msg));
		if (rc != t[i].rc || strcmp(msg, t[i].msg))
			fail_msg("%s %s: rc %d msg '%s'", t[i].tree, t[i].terms, rc, msg);
		hwprof_pmus_close(p);
	}
}

static void test_pt_forced_and_evlist(void **state)
{
	(void)state;
	struct hwprof_pmus *p = open_tree("intel");
	const struct hwprof_pmu *pt = hwprof_pmus_find(p, "intel_pt");
	uint64_t c = parse_config(p, "pt=0");
	unsigned flags;
	assert_int_equal(c & 1, 0);
	assert_int_equal(hwprof_pt_check_config(pt, &c, &flags, NULL), 0);
	assert_int_equal(c & 1, 1);
	assert_int_equal(flags, HWPROF_PT_FORCED_PT);
	c = parse_config(p, "");
	assert_int_equal(hwprof_pt_check_config(pt, &c, &flags, NULL), 0);
	assert_int_equal(flags, 0);
	/* hwprof_evlist_config runs the same checks */
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	assert_int_equal(hwprof_evlist_parse(&l, "intel_pt/psb_period=9/u", p, &err), 1);
	assert_int_equal(hwprof_evlist_config(&l, NULL, p, &err), -HWPROF_E_INVAL);
	assert_string_equal(err.msg, "Invalid psb_period for intel_pt. Valid values are: 0-5");
	hwprof_evlist_free(&l);
	memset(&l, 0, sizeof(l));
	assert_int_equal(hwprof_evlist_parse(&l, "intel_pt/cyc/u", p, &err), 1);
	assert_int_equal(hwprof_evlist_config(&l, NULL, p, &err), 0);
	assert_int_equal(l.ev[0].attr.sample_period, 1);
	hwprof_evlist_free(&l);
	assert_int_equal(hwprof_pt_term_bits(pt, "tsc"), 0x400);
	assert_int_equal(hwprof_pt_term_bits(pt, "mtc_period"), 0x3c000);
	assert_int_equal(hwprof_pt_term_bits(pt, "psb_period"), 0xf000000);
	assert_int_equal(hwprof_pt_term_bits(pt, "nosuch"), 0);
	hwprof_pmus_close(p);
}

static void test_filter_parse(void **state)
{
	(void)state;
	struct hwprof_pt_filter f[8];
	struct hwprof_error err;
	assert_int_equal(hwprof_pt_filter_parse("filter main @ /bin/ls", f, 8, &err), 1);
	assert_int_equal(f[0].action, HWPROF_PT_FILTER);
	assert_true(f[0].range);
	assert_string_equal(f[0].sym_from, "main");
	assert_int_equal(f[0].from_idx, -1);
	assert_string_equal(f[0].file, "/bin/ls");

	assert_int_equal(hwprof_pt_filter_parse("start 0x400/0x10,stop 4096 @/x tracestop foo #2 / bar #g", f, 8, &err), 3);
	assert_int_equal(f[0].action, HWPROF_PT_START);
	assert_true(f[0].range); /* a size makes it a range */
	assert_int_equal(f[0].addr, 0x400);
	assert_int_equal(f[0].size, 0x10);
	assert_int_equal(f[1].action, HWPROF_PT_STOP);
	assert_false(f[1].range);
	assert_int_equal(f[1].addr, 4096);
	assert_string_equal(f[1].file, "/x");
	assert_int_equal(f[2].action, HWPROF_PT_TRACESTOP);
	assert_string_equal(f[2].sym_from, "foo");
	assert_int_equal(f[2].from_idx, 2);
	assert_string_equal(f[2].sym_to, "bar");
	assert_int_equal(f[2].to_idx, 0);
	assert_string_equal(f[2].file, "");

	/* perf's tokenizer: a symbol runs to the next space */
	assert_int_equal(hwprof_pt_filter_parse("filter main@/bin/ls", f, 8, &err), 1);
	assert_string_equal(f[0].sym_from, "main@/bin/ls");
	assert_string_equal(f[0].file, "");

	static const char *const bad[] = { "bogus 1", "filter", "12 filter", "filter 0x10 @ 123", "filter 0x10 /",
					   "filter foo #x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (hwprof_pt_filter_parse(bad[i], f, 8, &err) != -HWPROF_E_INVAL)
			fail_msg("'%s' parsed", bad[i]);
	assert_int_equal(hwprof_pt_filter_parse("start 1 start 2 start 3", f, 2, &err), -HWPROF_E_NOMEM);
	assert_int_equal(hwprof_pt_filter_parse("", f, 8, &err), 0);
}

static void test_filter_strings(void **state)
{
	(void)state;
	struct hwprof_pt_filter f;
	char buf[256] = "";
	memset(&f, 0, sizeof(f));
	f.action = HWPROF_PT_TRACESTOP;
	f.range = true;
	f.addr = 0x1000;
	f.size = 0x20;
	snprintf(f.file, sizeof(f.file), "/usr/bin/x");
	assert_int_equal(hwprof_pt_filter_append(buf, sizeof(buf), &f), 0);
	assert_string_equal(buf, "stop 0x1000/0x20@/usr/bin/x");
	f.action = HWPROF_PT_START;
	f.range = false;
	f.file[0] = 0;
	f.addr = 0xffffffff81000000ULL;
	assert_int_equal(hwprof_pt_filter_append(buf, sizeof(buf), &f), 0);
	assert_string_equal(buf, "stop 0x1000/0x20@/usr/bin/x,start 0xffffffff81000000");
	char tiny[8] = "";
	assert_int_equal(hwprof_pt_filter_append(tiny, sizeof(tiny), &f), -HWPROF_E_NOMEM);
	assert_string_equal(tiny, "");

	/* the whole pipeline on a tree: count limit and perf's trailer */
	struct hwprof_pmus *p = open_tree("icelake");
	const struct hwprof_pmu *pt = hwprof_pmus_find(p, "intel_pt");
	char out[512], msg[1024];
	assert_int_equal(hwprof_pt_filter_build(pt, "filter 0x10/0x20 , start 0x30", 0, out, sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, "filter 0x10/0x20,start 0x30");
	assert_string_equal(msg, "");
	assert_int_equal(hwprof_pt_filter_build(pt, "start 1 start 2 start 3", 0, out, sizeof(out), msg, sizeof(msg)),
			 -HWPROF_E_INVAL);
	assert_string_equal(out, "");
	assert_string_equal(msg, "Error: number of address filters (3) exceeds maximum (2)\n"
				 "Failed to parse address filter: 'start 1 start 2 start 3'\n"
				 "Filter format is: filter|start|stop|tracestop <start symbol or address> "
				 "[/ <end symbol or size>] [@<file name>]\n"
				 "Where multiple filters are separated by space or comma.");
	/* far more than fit anywhere: perf still names the count */
	char many[70 * 8 + 1] = "";
	for (int i = 0; i < 70; i++)
		strcat(many, "start 1 ");
	assert_int_equal(hwprof_pt_filter_parse(many, NULL, 0, NULL), 70);
	assert_int_equal(hwprof_pt_filter_build(pt, many, 0, out, sizeof(out), msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_non_null(strstr(msg, "Error: number of address filters (70) exceeds maximum (2)\n"));
	assert_int_equal(hwprof_pt_filter_build(pt, "filter nosuch_fn @ /nonexistent/file", 0, out, sizeof(out), msg,
						sizeof(msg)), -HWPROF_E_INVAL);
	assert_non_null(strstr(msg, "File '/nonexistent/file' not found or has no symbols.\n"
				    "Symbol 'nosuch_fn' not found.\nNote that symbols must be functions.\n"
				    "Failed to parse address filter"));
	hwprof_pmus_close(p);
	p = open_tree("broadwell");
	assert_int_equal(hwprof_pt_filter_build(hwprof_pmus_find(p, "intel_pt"), "filter 0x10/4", 0, out, sizeof(out),
						msg, sizeof(msg)), -HWPROF_E_OPNOTSUPP);
	assert_string_equal(msg, "This CPU does not support address filtering");
	hwprof_pmus_close(p);
}

static void fake_cpuid(void *ctx, uint32_t *eax, uint32_t *ebx)
{
	(void)ctx;
	*eax = 2;
	*ebx = 168;
}

static int fake_time(void *ctx, struct hwprof_pt_time *t)
{
	(void)ctx;
	t->time_shift = 31;
	t->time_mult = 0x12345678;
	t->time_zero = 0xfedcba9876543210ULL;
	t->cap_user_time_zero = true;
	return 0;
}

static int failing_time(void *ctx, struct hwprof_pt_time *t)
{
	(void)ctx;
	(void)t;
	return -HWPROF_E_IO;
}

static uint64_t word(const uint8_t *b, int i)
{
	uint64_t v;
	memcpy(&v, b + 8 + 8 * i, 8);
	return v;
}

static void test_auxtrace_info(void **state)
{
	(void)state;
	struct hwprof_pmus *p = open_tree("alderlake");
	const struct hwprof_pmu *pt = hwprof_pmus_find(p, "intel_pt");
	struct hwprof_pt_info_src src = { fake_cpuid, fake_time, NULL };
	struct hwprof_pt_info_opts o = { .have_sched_switch = 2, .snapshot_mode = true, .per_cpu_mmaps = true,
					 .filter = "filter 0x10/0x20" };
	uint8_t buf[512];
	size_t want = 8 + 17 * 8 + 24; /* 16 chars + NUL padded to 24 */
	assert_int_equal(hwprof_pt_auxtrace_info_size(&o), want);
	assert_int_equal(hwprof_pt_auxtrace_info(pt, &o, &src, buf, want - 1), -HWPROF_E_NOMEM);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(hwprof_pt_auxtrace_info(pt, &o, &src, buf, sizeof(buf)), (int)want);
	uint32_t type, res;
	memcpy(&type, buf, 4);
	memcpy(&res, buf + 4, 4);
	assert_int_equal(type, 1);
	assert_int_equal(res, 0);
	static const uint64_t expect[17] = { 10, 31, 0x12345678, 0xfedcba9876543210ULL, 1, 0x400, 0x800, 2, 1, 1,
					     0x200, 0x3c000, 168, 2, 0x2, 20, 16 };
	for (int i = 0; i < 17; i++)
		if (word(buf, i) != expect[i])
			fail_msg("word %d: 0x%llx, want 0x%llx", i, (unsigned long long)word(buf, i),
				 (unsigned long long)expect[i]);
	assert_memory_equal(buf + 8 + 17 * 8, "filter 0x10/0x20\0\0\0\0\0\0\0\0", 24);
	/* no filter: 17 words exactly; a time source error is passed on */
	o.filter = NULL;
	assert_int_equal(hwprof_pt_auxtrace_info(pt, &o, &src, buf, sizeof(buf)), 8 + 17 * 8);
	assert_int_equal(word(buf, HWPROF_PT_INFO_FILTER_STR_LEN), 0);
	src.time = failing_time;
	assert_int_equal(hwprof_pt_auxtrace_info(pt, &o, &src, buf, sizeof(buf)), -HWPROF_E_IO);
	hwprof_pmus_close(p);
	/* Broadwell's tree: no max_nonturbo_ratio change, bits from its formats */
	p = open_tree("broadwell");
	src.time = fake_time;
	assert_int_equal(hwprof_pt_auxtrace_info(hwprof_pmus_find(p, "intel_pt"), NULL, &src, buf, sizeof(buf)),
			 8 + 17 * 8);
	assert_int_equal(word(buf, HWPROF_PT_INFO_MAX_NONTURBO_RATIO), 26);
	assert_int_equal(word(buf, HWPROF_PT_INFO_PER_CPU_MMAPS), 0);
	hwprof_pmus_close(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_terms),
		cmocka_unit_test(test_valid_values),
		cmocka_unit_test(test_checks_per_cpu),
		cmocka_unit_test(test_pt_forced_and_evlist),
		cmocka_unit_test(test_filter_parse),
		cmocka_unit_test(test_filter_strings),
		cmocka_unit_test(test_auxtrace_info),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
