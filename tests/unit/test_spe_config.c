/* Arm SPE recording configuration against the fake sysfs trees: a table of
 * specs and the config words perf record would open them with (format/
 * mapping of every term from the manual, ts_enable set unless given), a
 * table of specs the driver would refuse with the message naming the SPE
 * feature, perf's recording options (order, tracking dummy, sample bits),
 * the notes, and the versioned AUXTRACE_INFO built from the tree and read
 * back by the parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/arm_spe_record.h"
#include "hwprof/event.h"
#include "hwprof/pmu.h"

#define NEO "tests/data/sysfs/neoverse"   /* Neoverse N2-like, SPEv1p2 */
#define EFT "tests/data/sysfs/spe_eft"    /* synthetic: FEAT_SPE_EFT + FDS, SPE on CPUs 0-3 of 0-7 */
#define INTEL "tests/data/sysfs/intel"

static struct hwprof_pmus *tree(const char *root)
{
	struct hwprof_pmu_config cfg = { .sysfs_root = root };
	struct hwprof_pmus *p = NULL;
	assert_int_equal(hwprof_pmus_open(&p, &cfg), 0);
	return p;
}

/* Parse + record defaults; the error message or "" on success. */
static int configure(const char *root, const char *spec, uint64_t period, int user_freq,
		     struct hwprof_evlist *l, struct hwprof_error *err, struct hwprof_pmus **pp)
{
	struct hwprof_evlist_opts o;
	hwprof_evlist_opts_default(&o);
	o.period = period;
	o.user_freq = user_freq;
	*pp = tree(root);
	memset(l, 0, sizeof(*l));
	memset(err, 0, sizeof(*err));
	int rc = hwprof_evlist_parse(l, spec, *pp, err);
	if (rc < 0)
		return rc;
	return hwprof_evlist_config(l, &o, *pp, err);
}

static const struct {
	const char *root, *spec;
	uint64_t config, config1, config2, config3, config4;
} cfg_cases[] = {
	/* ts_enable (config:0) is set by perf for per-cpu recording unless given */
	{ NEO, "arm_spe_0//", 0x1, 0, 0, 0, 0 },
	{ NEO, "arm_spe//", 0x1, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/ts_enable=0/", 0x0, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/pa_enable=1/", 0x3, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/pct_enable=1,jitter=1/", 0x10005, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/branch_filter=1/", 0x100000001ULL, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/load_filter=1,min_latency=20/", 0x200000001ULL, 0, 20, 0, 0 },
	{ NEO, "arm_spe_0/store_filter=1/", 0x400000001ULL, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/discard=1/", 0x800000001ULL, 0, 0, 0, 0 },
	{ NEO, "arm_spe_0/event_filter=2/", 0x1, 0x2, 0, 0, 0 },
	{ NEO, "arm_spe_0/event_filter=0x80/", 0x1, 0x80, 0, 0, 0 },
	{ NEO, "arm_spe_0/event_filter=0x60000,inv_event_filter=0x28/", 0x1, 0x60000, 0, 0x28, 0 },
	{ NEO, "arm_spe_0/event_filter=0xffff000000000000/", 0x1, 0xffff000000000000ULL, 0, 0, 0 }, /* IMPDEF 48-63 */
	{ NEO, "arm_spe_0/min_latency=4095/", 0x1, 0, 4095, 0, 0 },
	{ EFT, "arm_spe_0/branch_filter_mask=1/", 0x1000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/load_filter_mask=1/", 0x2000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/store_filter_mask=1/", 0x4000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/simd_filter=1/", 0x8000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/simd_filter_mask=1/", 0x10000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/float_filter=1/", 0x20000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/float_filter_mask=1/", 0x40000000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/store_filter=1,simd_filter=1,store_filter_mask=1,simd_filter_mask=1/",
	  0x1c400000001ULL, 0, 0, 0, 0 },
	{ EFT, "arm_spe_0/inv_data_src_filter=0xfffffffffffffff6/", 0x1, 0, 0, 0, 0xfffffffffffffff6ULL },
	{ EFT, "arm_spe_0/event_filter=0x3ffffe,inv_event_filter=0x200/", 0x1, 0x3ffffe, 0, 0x200, 0 },
	{ EFT, "arm_spe_0/config=0x4,config4=7/", 0x5, 0, 0, 0, 7 },
};

static void test_config_words(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cfg_cases) / sizeof(cfg_cases[0]); i++) {
		struct hwprof_evlist l;
		struct hwprof_error err;
		struct hwprof_pmus *p;
		if (configure(cfg_cases[i].root, cfg_cases[i].spec, 0, 0, &l, &err, &p) < 0)
			fail_msg("'%s': %s", cfg_cases[i].spec, err.msg);
		const struct hwprof_attr *a = &l.ev[0].attr;
		if (a->config != cfg_cases[i].config || a->config1 != cfg_cases[i].config1 ||
		    a->config2 != cfg_cases[i].config2 || a->config3 != cfg_cases[i].config3 ||
		    a->config4 != cfg_cases[i].config4)
			fail_msg("'%s': config %#llx %#llx %#llx %#llx %#llx", cfg_cases[i].spec,
				 (unsigned long long)a->config, (unsigned long long)a->config1,
				 (unsigned long long)a->config2, (unsigned long long)a->config3,
				 (unsigned long long)a->config4);
		hwprof_evlist_free(&l);
		hwprof_pmus_close(p);
	}
}

static const struct {
	const char *root, *spec;
	int user_freq;
	const char *msg;
} err_cases[] = {
	{ INTEL, "arm_spe//", 0, "Cannot find PMU `arm_spe'. Missing kernel support? (needs CONFIG_ARM_SPE_PMU built in "
				 "or loaded, kpti=off on some CPUs, the SPE interrupt described by ACPI/DT; VMs usually "
				 "have no SPE)" },
	{ INTEL, "arm_spe_0/load_filter=1/", 0, "Cannot find PMU `arm_spe_0'. Missing kernel support? (needs "
						"CONFIG_ARM_SPE_PMU built in or loaded, kpti=off on some CPUs, the SPE "
						"interrupt described by ACPI/DT; VMs usually have no SPE)" },
	{ NEO, "arm_spe_1//", 0, "unknown PMU or event 'arm_spe_1' (did you mean 'arm_spe_0'?)" },
	{ NEO, "arm_spe_0/simd_filter=1/", 0, "PMU 'arm_spe_0' has no term 'simd_filter': it needs FEAT_SPE_EFT "
					      "(PMSFCR_EL1.SIMD), which this SPE does not implement (the driver "
					      "lists only supported terms in format/)" },
	{ NEO, "arm_spe_0/float_filter_mask=1/", 0, "PMU 'arm_spe_0' has no term 'float_filter_mask': it needs "
						    "FEAT_SPE_EFT (PMSFCR_EL1.FPm), which this SPE does not "
						    "implement (the driver lists only supported terms in format/)" },
	{ NEO, "arm_spe_0/inv_data_src_filter=1/", 0, "PMU 'arm_spe_0' has no term 'inv_data_src_filter': it needs "
						      "FEAT_SPE_FDS (PMSDSFR_EL1), which this SPE does not implement "
						      "(the driver lists only supported terms in format/)" },
	{ NEO, "arm_spe_0/event_filter=0x4/", 0, "arm_spe_0/event_filter=0x4/: event_filter bit 2 (L1D access) needs "
						 "FEAT_SPEv1p4, which this SPE does not implement (caps/event_filter "
						 "0xffff0000ff06f8ea)" },
	{ NEO, "arm_spe_0/event_filter=0x10000/", 0, "arm_spe_0/event_filter=0x10000/: event_filter bit 16 "
						     "(transaction) needs FEAT_TME, which this SPE does not implement "
						     "(caps/event_filter 0xffff0000ff06f8ea)" },
	{ NEO, "arm_spe_0/inv_event_filter=0x80000/", 0, "arm_spe_0/inv_event_filter=0x80000/: inv_event_filter "
							 "bit 19 (L2D access) needs FEAT_SPEv1p4, which this SPE "
							 "does not implement (caps/event_filter 0xffff0000ff06f8ea)" },
	{ EFT, "arm_spe_0/event_filter=0x2000000/", 0, "arm_spe_0/event_filter=0x2000000/: event_filter bit 25 "
						       "(SMCU or external coprocessor operation) needs FEAT_SPE_SME, "
						       "which this SPE does not implement (caps/event_filter "
						       "0xffff0000fcfffffe)" },
	{ NEO, "arm_spe_0/event_filter=0x1/", 0, "arm_spe_0/event_filter=0x1/: event_filter bit 0 (reserved) is not "
						 "supported by this SPE (caps/event_filter 0xffff0000ff06f8ea)" },
	{ EFT, "arm_spe_0/event_filter=0x100000000/", 0, "arm_spe_0/event_filter=0x100000000/: event_filter bit 32 "
							 "(reserved) is not supported by this SPE "
							 "(caps/event_filter 0xffff0000fcfffffe)" },
	{ NEO, "arm_spe_0//", 1, "Arm SPE: Frequency is not supported. Set period with -c option or PMU parameter "
				 "(-e arm_spe_0/period=NUM/)." },
	{ NEO, "arm_spe_0/freq=1000/", 0, "Arm SPE: Frequency is not supported. Set period with -c option or PMU "
					  "parameter (-e arm_spe_0/period=NUM/)." },
	{ NEO, "arm_spe_0//,arm_spe//", 0, "There may be only one arm_spe_x event" },
	{ NEO, "arm_spe_0//I", 0, "arm_spe_0//I: SPE cannot exclude idle (the driver refuses exclude_idle), drop the "
				  "I modifier" },
	{ NEO, "arm_spe_0/min_latency=4096/", 0, "value 0x1000 out of range for term 'min_latency' of PMU "
						 "'arm_spe_0' (config2:0-11, at most 0xfff)" },
};

static void test_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		struct hwprof_evlist l;
		struct hwprof_error err;
		struct hwprof_pmus *p;
		int rc = configure(err_cases[i].root, err_cases[i].spec, 0, err_cases[i].user_freq, &l, &err, &p);
		if (rc >= 0)
			fail_msg("'%s': accepted", err_cases[i].spec);
		if (strcmp(err.msg, err_cases[i].msg))
			fail_msg("'%s':\n got  %s\n want %s", err_cases[i].spec, err.msg, err_cases[i].msg);
		hwprof_evlist_free(&l);
		hwprof_pmus_close(p);
	}
}

#define ST(x) HWPROF_SAMPLE_##x
#define F(x) (1ULL << HWPROF_ATTR_##x)

/* perf's arm_spe_recording_options around other events and groups */
static void test_recording_options(void **state)
{
	(void)state;
	struct hwprof_evlist l;
	struct hwprof_error err;
	struct hwprof_pmus *p;
	assert_int_equal(configure(NEO, "{cycles,instructions},arm_spe_0/pa_enable/", 0, 0, &l, &err, &p), 0);
	assert_int_equal(l.nr, 4);
	assert_string_equal(l.ev[0].name, "arm_spe_0/pa_enable/");
	assert_string_equal(l.ev[1].name, "cycles");
	assert_string_equal(l.ev[2].name, "instructions");
	assert_string_equal(l.ev[3].name, "dummy:u");
	assert_int_equal(l.ev[0].leader, 0);
	assert_int_equal(l.ev[1].leader, 1);
	assert_int_equal(l.ev[2].leader, 1);
	assert_int_equal(l.ev[3].leader, 3);
	assert_int_equal(l.ev[0].attr.sample_type,
			 ST(IP) | ST(TID) | ST(TIME) | ST(CPU) | ST(DATA_SRC) | ST(IDENTIFIER) | ST(PHYS_ADDR));
	assert_int_equal(l.ev[0].attr.sample_period, 1024);
	assert_false(l.ev[0].attr.flags & F(FREQ));
	assert_false(l.ev[0].attr.flags & F(MMAP));
	assert_true(l.ev[1].attr.sample_type & ST(IDENTIFIER));
	assert_false(l.ev[1].attr.sample_type & ST(ID));
	assert_false(l.ev[1].attr.flags & F(MMAP));
	const struct hwprof_attr *d = &l.ev[3].attr;
	assert_int_equal(d->type, 1);
	assert_int_equal(d->config, 9);
	assert_int_equal(d->sample_period, 1);
	assert_int_equal(d->sample_type, ST(IP) | ST(TID) | ST(TIME) | ST(CPU) | ST(IDENTIFIER));
	assert_true(d->flags & F(MMAP));
	assert_true(d->flags & F(COMM_EXEC));
	assert_true(d->flags & F(CONTEXT_SWITCH));
	assert_true(d->flags & F(EXCLUDE_KERNEL));
	hwprof_evlist_free(&l);
	hwprof_pmus_close(p);
	/* -c reaches the dummy too (perf 6.1 evsel__config); discard: no dummy */
	assert_int_equal(configure(NEO, "arm_spe//", 8192, 0, &l, &err, &p), 0);
	assert_int_equal(l.nr, 2);
	assert_int_equal(l.ev[0].attr.sample_period, 8192);
	assert_int_equal(l.ev[1].attr.sample_period, 8192);
	hwprof_evlist_free(&l);
	hwprof_pmus_close(p);
	assert_int_equal(configure(NEO, "cycles,arm_spe_0/discard/", 0, 0, &l, &err, &p), 0);
	assert_int_equal(l.nr, 2);
	assert_string_equal(l.ev[0].name, "arm_spe_0/discard/");
	assert_true(l.ev[1].attr.flags & F(MMAP)); /* cycles was parsed first: it keeps tracking */
	assert_false(l.ev[0].attr.flags & F(MMAP));
	hwprof_evlist_free(&l);
	hwprof_pmus_close(p);
}

static void test_notes(void **state)
{
	(void)state;
	struct hwprof_evlist l;
	struct hwprof_error err;
	struct hwprof_pmus *p;
	struct hwprof_evlist_opts o;
	char buf[1024];
	hwprof_evlist_opts_default(&o);
	assert_int_equal(configure(NEO, "arm_spe_0/period=1000/", 0, 0, &l, &err, &p), 0);
	hwprof_spe_notes(&l, p, &o, buf, sizeof(buf));
	assert_string_equal(buf,
			    "arm_spe_0/period=1000/: the driver sets the SPE interval in steps of 256 (256 to "
			    "0xffffff00): period 1000 samples every 768 operations\n"
			    "arm_spe_0/period=1000/: interval 768 is below caps/min_interval 1024: expect collisions "
			    "(dropped samples, see perf-arm-spe(1) COLLISIONS)\n");
	hwprof_evlist_free(&l);
	hwprof_pmus_close(p);
	assert_int_equal(configure(NEO, "arm_spe_0//", 0, 0, &l, &err, &p), 0);
	hwprof_spe_notes(&l, p, &o, buf, sizeof(buf));
	assert_string_equal(buf, "arm_spe_0//: sampling at the minimum interval 1024; if perf.data grows too large, "
				 "give a larger interval with -c\n");
	/* a tiny buffer is truncated, still terminated */
	assert_int_equal(hwprof_spe_notes(&l, p, &o, buf, 8), 7);
	assert_int_equal(strlen(buf), 7);
	hwprof_evlist_free(&l);
	hwprof_pmus_close(p);
}

static void roundtrip(const char *root, const char *cpus, size_t want_cpus, uint32_t type,
		      uint64_t midr, size_t spe_cpus)
{
	struct hwprof_pmus *p = tree(root);
	const struct hwprof_pmu *pmu = hwprof_pmus_find(p, "arm_spe_0");
	struct hwprof_spe_rec_info info;
	struct hwprof_error err;
	assert_int_equal(hwprof_spe_rec_info_probe(&info, root, pmu, cpus, &err), 0);
	assert_int_equal(info.nr_cpus, want_cpus);
	size_t size = hwprof_spe_rec_info_size(&info);
	assert_int_equal(size, 8 + 8 * (4 + 7 * want_cpus));
	uint8_t buf[8 + 8 * (4 + 7 * 64)];
	struct hwprof_record_aux_ops ops;
	hwprof_spe_record_aux_ops(&ops, &info);
	assert_int_equal(ops.info(ops.ctx, NULL, buf, size - 1), -HWPROF_E_INVAL);
	assert_int_equal(ops.info(ops.ctx, NULL, buf, sizeof(buf)), (int)size);
	uint32_t t;
	memcpy(&t, buf, 4);
	assert_int_equal(t, 4);
	uint64_t priv[4 + 7 * 64];
	memcpy(priv, buf + 8, size - 8);
	struct hwprof_spe_info pi;
	struct hwprof_spe_cpu_info c[64];
	assert_int_equal(hwprof_spe_info_parse(priv, (size - 8) / 8, &pi, c, 64, &err), 0);
	assert_int_equal(pi.version, 2);
	assert_int_equal(pi.pmu_type, type);
	assert_int_equal(pi.nr_cpus, want_cpus);
	size_t with = 0;
	for (size_t i = 0; i < want_cpus; i++) {
		assert_int_equal(c[i].midr, midr);
		if (c[i].pmu_type == type) {
			with++;
			assert_true(c[i].min_interval == 1024 || c[i].min_interval == 512);
			assert_true(c[i].event_filter != 0);
		} else {
			assert_int_equal(c[i].pmu_type, UINT64_MAX);
			assert_int_equal(c[i].min_interval, 0);
		}
	}
	assert_int_equal(with, spe_cpus);
	hwprof_spe_rec_info_free(&info);
	hwprof_pmus_close(p);
}

static void test_auxtrace_info(void **state)
{
	(void)state;
	roundtrip(NEO, NULL, 64, 9, 0x410fd490, 64);
	roundtrip(EFT, NULL, 8, 10, 0x410fd840, 4);   /* SPE on CPUs 0-3 only */
	roundtrip(EFT, "6,2-3", 3, 10, 0x410fd840, 2);
	/* a CPU without a MIDR file: the error names the file */
	struct hwprof_pmus *p = tree(EFT);
	struct hwprof_spe_rec_info info;
	struct hwprof_error err;
	assert_int_equal(hwprof_spe_rec_info_probe(&info, EFT, hwprof_pmus_find(p, "arm_spe_0"), "9", &err),
			 -HWPROF_E_NOENT);
	assert_string_equal(err.msg, EFT "/devices/system/cpu/cpu9/regs/identification/midr_el1: cannot read the "
				     "CPU's MIDR");
	assert_int_equal(hwprof_spe_rec_info_probe(&info, EFT, hwprof_pmus_find(p, "arm_spe_0"), "x", &err),
			 -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_rec_info_probe(&info, "/nonexistent", hwprof_pmus_find(p, "arm_spe_0"), NULL,
						   &err), -HWPROF_E_NOENT);
	hwprof_pmus_close(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_words),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_recording_options),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_auxtrace_info),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
