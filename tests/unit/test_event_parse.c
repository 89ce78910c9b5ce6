/* perf's event grammar against the fake sysfs trees: a table of specs and
 * the attrs they parse to (symbolic, cache, raw, PMU terms across config
 * words, events/ aliases, intel_pt and arm_spe terms, modifiers, groups),
 * perf record's defaults checked against perf 6.1 -vv output taken on this
 * machine, and every error with its message and offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/event.h"
#include "hwprof/pmu.h"

#define INTEL "tests/data/sysfs/intel"
#define NEOVERSE "tests/data/sysfs/neoverse"

#define F(x) (1ULL << HWPROF_ATTR_##x)
#define PREC(n) ((uint64_t)(n) << HWPROF_ATTR_PRECISE_IP)
#define MODS (F(EXCLUDE_USER) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_HOST) | \
	      F(EXCLUDE_GUEST) | F(EXCLUDE_IDLE) | PREC(3) | F(PINNED) | F(EXCLUSIVE) | F(AUX_OUTPUT))

static struct hwprof_pmus *tree(const char *root)
{
	struct hwprof_pmu_config cfg = { .sysfs_root = root };
	struct hwprof_pmus *p = NULL;
	assert_int_equal(hwprof_pmus_open(&p, &cfg), 0);
	return p;
}

static const struct {
	const char *root, *spec;
	int idx; /* which event of the result */
	int nr;  /* events parsed */
	uint32_t type;
	uint64_t config, config1, config2, config3;
	uint64_t flags; /* the MODS bits */
	const char *name;
} ok_cases[] = {
	/* symbolic hardware / software, perf's default exclude_guest */
	{ INTEL, "cycles", 0, 1, 0, 0, 0, 0, 0, F(EXCLUDE_GUEST), "cycles" },
	{ INTEL, "cpu-cycles", 0, 1, 0, 0, 0, 0, 0, F(EXCLUDE_GUEST), "cpu-cycles" },
	{ INTEL, "instructions", 0, 1, 0, 1, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "branches", 0, 1, 0, 4, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cache-misses", 0, 1, 0, 3, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "ref-cycles", 0, 1, 0, 9, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "idle-cycles-backend", 0, 1, 0, 8, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "task-clock", 0, 1, 1, 1, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "page-faults", 0, 1, 1, 2, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "faults", 0, 1, 1, 2, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "cs", 0, 1, 1, 3, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "context-switches", 0, 1, 1, 3, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "migrations", 0, 1, 1, 4, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "dummy", 0, 1, 1, 9, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "cgroup-switches", 0, 1, 1, 11, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* modifiers, as perf 6.1 sets them (checked with perf record -vv) */
	{ NULL, "cpu-clock:u", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), "cpu-clock:u" },
	{ NULL, "task-clock:k", 0, 1, 1, 1, 0, 0, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV), NULL },
	{ NULL, "cpu-clock:uh", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:ukh", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:H", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:G", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_HOST), NULL },
	{ NULL, "cpu-clock:GH", 0, 1, 1, 0, 0, 0, 0, 0, NULL },
	{ NULL, "cpu-clock:I", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_IDLE), NULL },
	{ NULL, "cpu-clock:D", 0, 1, 1, 0, 0, 0, 0, F(PINNED), NULL },
	{ NULL, "cpu-clock:e", 0, 1, 1, 0, 0, 0, 0, F(EXCLUSIVE), NULL },
	{ NULL, "cpu-clock:W", 0, 1, 1, 0, 0, 0, 0, 0, NULL },
	{ NULL, "cpu-clock:S", 0, 1, 1, 0, 0, 0, 0, 0, NULL },
	{ NULL, "cpu-clock:p", 0, 1, 1, 0, 0, 0, 0, PREC(1) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:pp", 0, 1, 1, 0, 0, 0, 0, PREC(2) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:ppp", 0, 1, 1, 0, 0, 0, 0, PREC(3) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "cpu-clock:Gp", 0, 1, 1, 0, 0, 0, 0, PREC(1) | F(EXCLUDE_HOST), NULL },
	/* hardware cache events: cache | op << 8 | result << 16 */
	{ INTEL, "L1-dcache-load-misses", 0, 1, 3, 0x10000, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "L1-dcache-loads", 0, 1, 3, 0x0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "L1-dcache-stores", 0, 1, 3, 0x100, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "L1-dcache", 0, 1, 3, 0x0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "l1d-misses", 0, 1, 3, 0x10000, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "L1-icache-load-misses", 0, 1, 3, 0x10001, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "LLC-loads", 0, 1, 3, 0x2, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "LLC-store-misses", 0, 1, 3, 0x10102, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "dTLB-prefetch-misses", 0, 1, 3, 0x10203, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "iTLB-load-misses", 0, 1, 3, 0x10004, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "branch-loads", 0, 1, 3, 0x5, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "branch-load-misses", 0, 1, 3, 0x10005, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "node-stores", 0, 1, 3, 0x106, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "L1-dcache-misses-load", 0, 1, 3, 0x10000, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "LLC-speculative-read-misses", 0, 1, 3, 0x10202, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* raw */
	{ NULL, "r1a8", 0, 1, 4, 0x1a8, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "rFFFFffffFFFFffff:k", 0, 1, 4, ~0ULL, 0, 0, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV), NULL },
	{ INTEL, "r01c2/period=3/", 0, 1, 4, 0x1c2, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* PMU terms: format fields, config words, events/ aliases */
	{ INTEL, "cpu/event=0x3c,umask=0x1/", 0, 1, 4, 0x13c, 0, 0, 0, F(EXCLUDE_GUEST), "cpu/event=0x3c,umask=0x1/" },
	{ INTEL, "cpu/event=0xc0,inv,cmask=3,edge/", 0, 1, 4, 0x38400c0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/event=0xc0,in_tx=1,in_tx_cp/", 0, 1, 4, 0x3000000c0ULL, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/event=0xb7,umask=1,offcore_rsp=0x10001/", 0, 1, 4, 0x1b7, 0x10001, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/config=0x1234,config1=5,config2=0x6/", 0, 1, 4, 0x1234, 5, 6, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/cpu-cycles/", 0, 1, 4, 0x3c, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/bus-cycles/u", 0, 1, 4, 0x13c, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/mem-loads/", 0, 1, 4, 0x1cd, 3, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/mem-loads,ldlat=30/pp", 0, 1, 4, 0x1cd, 30, 0, 0, PREC(2) | F(EXCLUDE_GUEST), NULL },
	{ INTEL, "mem-loads", 0, 1, 4, 0x1cd, 3, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "tx-start:u", 0, 1, 4, 0x1c9, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cpu/event=0x3c/:k", 0, 1, 4, 0x3c, 0, 0, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV), NULL },
	{ INTEL, "cpu/event=0x3c,name=mycycles/", 0, 1, 4, 0x3c, 0, 0, 0, F(EXCLUDE_GUEST), "mycycles" },
	{ INTEL, "cpu/event=0x3c,aux-output/", 0, 1, 4, 0x3c, 0, 0, 0, F(EXCLUDE_GUEST) | F(AUX_OUTPUT), NULL },
	{ INTEL, "msr/tsc/", 0, 1, 9, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "software//", 0, 1, 1, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* intel_pt: perf's default config from caps (0x300e601), then terms */
	{ INTEL, "intel_pt//", 0, 1, 8, 0x300e601, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt//u", 0, 1, 8, 0x300e601, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt/cyc/", 0, 1, 8, 0x300e603, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt/cyc,cyc_thresh=2,mtc_period=0,psb_period=5/", 0, 1, 8, 0x5102603, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt/tsc=0,mtc=0,branch=0/", 0, 1, 8, 0x300c001, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt/pwr_evt,ptw,fup_on_ptw,noretcomp,event,notnt/", 0, 1, 8,
	  0x300e601ULL | 0x10 | 0x1000 | 0x20 | 0x800 | 0x80000000ULL | (1ULL << 55), 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "intel_pt/config=0x2001/", 0, 1, 8, 0x2001, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* arm_spe terms across config, config1, config2, config3 */
	{ NEOVERSE, "arm_spe_0//", 0, 1, 9, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "arm_spe_0/ts_enable=1,pa_enable=1,pct_enable=1,jitter=1/", 0, 1, 9, 0x10007, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "arm_spe_0/branch_filter,load_filter,store_filter/u", 0, 1, 9, 0x700000000ULL, 0, 0, 0,
	  F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "arm_spe_0/event_filter=0x2,min_latency=100,inv_event_filter=0x8000000000000000/", 0, 1, 9,
	  0, 2, 100, 0x8000000000000000ULL, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "arm_spe_0/min_latency=0xfff/", 0, 1, 9, 0, 0, 0xfff, 0, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "armv8_pmuv3_0/event=0x11/", 0, 1, 8, 0x11, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "armv8_pmuv3_0/event=0x11,long/", 0, 1, 8, 0x11, 1, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "inst_retired:u", 0, 1, 8, 0x8, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NEOVERSE, "armv8_pmuv3_0/br_mis_pred/", 0, 1, 8, 0x10, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	/* lists and groups */
	{ NULL, "cpu-clock,task-clock:u", 1, 2, 1, 1, 0, 0, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "{cpu-clock,task-clock}:k", 0, 2, 1, 0, 0, 0, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "{cpu-clock,task-clock}:k", 1, 2, 1, 1, 0, 0, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "{cpu-clock:u,task-clock}:k", 0, 2, 1, 0, 0, 0, 0, F(EXCLUDE_HV) | F(EXCLUDE_GUEST), NULL },
	{ NULL, "{cpu-clock,task-clock}:D", 1, 2, 1, 1, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ NULL, "{cpu-clock,task-clock}:D", 0, 2, 1, 0, 0, 0, 0, F(PINNED) | F(EXCLUDE_GUEST), NULL },
	{ INTEL, "{intel_pt//,cycles/aux-sample-size=4096/}", 1, 2, 0, 0, 0, 0, 0, F(EXCLUDE_GUEST), NULL },
	{ INTEL, "cycles,{instructions,branches}:S,faults", 3, 4, 1, 2, 0, 0, 0, F(EXCLUDE_GUEST), "faults" },
};

static void test_specs(void **state)
{
	struct hwprof_pmus *intel = tree(INTEL), *neo = tree(NEOVERSE);
	for (size_t i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		struct hwprof_evlist l = { 0 };
		struct hwprof_error err;
		const struct hwprof_pmus *p = !ok_cases[i].root ? NULL : !strcmp(ok_cases[i].root, INTEL) ? intel : neo;
		int rc = hwprof_evlist_parse(&l, ok_cases[i].spec, p, &err);
		if (rc != ok_cases[i].nr)
			fail_msg("'%s': rc %d (%s)", ok_cases[i].spec, rc, err.msg);
		const struct hwprof_event *e = &l.ev[ok_cases[i].idx];
		const struct hwprof_attr *a = &e->attr;
		if (a->type != ok_cases[i].type || a->config != ok_cases[i].config ||
		    a->config1 != ok_cases[i].config1 || a->config2 != ok_cases[i].config2 ||
		    a->config3 != ok_cases[i].config3 || (a->flags & MODS) != ok_cases[i].flags)
			fail_msg("'%s'[%d]: type %u config %#llx/%#llx/%#llx/%#llx flags %#llx", ok_cases[i].spec,
				 ok_cases[i].idx, a->type, (unsigned long long)a->config,
				 (unsigned long long)a->config1, (unsigned long long)a->config2,
				 (unsigned long long)a->config3, (unsigned long long)(a->flags & MODS));
		if (ok_cases[i].name)
			assert_string_equal(e->name, ok_cases[i].name);
		hwprof_evlist_free(&l);
	}
	hwprof_pmus_close(intel);
	hwprof_pmus_close(neo);
}

static void test_groups_and_settings(void **state)
{
	struct hwprof_pmus *intel = tree(INTEL);
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	assert_int_equal(hwprof_evlist_parse(&l, "cycles,{instructions,branches}:S", intel, &err), 3);
	assert_int_equal(hwprof_evlist_parse(&l, "cpu-clock/period=1000,call-graph=dwarf,stack-size=4096,no-inherit,max-stack=5,time=0/", intel, &err), 1);
	assert_int_equal(l.nr, 4);
	assert_int_equal(l.ev[0].leader, 0);
	assert_int_equal(l.ev[0].nr_members, 1);
	assert_int_equal(l.ev[1].leader, 1);
	assert_int_equal(l.ev[1].nr_members, 2);
	assert_int_equal(l.ev[2].leader, 1);
	assert_true(l.ev[1].sample_read && l.ev[2].sample_read);
	assert_false(l.ev[0].sample_read);
	const struct hwprof_event *e = &l.ev[3];
	assert_int_equal(e->leader, 3);
	assert_int_equal(e->set, HWPROF_EVSET_PERIOD | HWPROF_EVSET_CALL_GRAPH | HWPROF_EVSET_STACK_SIZE |
				      HWPROF_EVSET_INHERIT | HWPROF_EVSET_MAX_STACK | HWPROF_EVSET_TIME);
	assert_int_equal(e->period, 1000);
	assert_int_equal(e->call_graph, HWPROF_CG_DWARF);
	assert_int_equal(e->stack_size, 4096);
	assert_int_equal(e->inherit, 0);
	assert_int_equal(e->max_stack, 5);
	assert_int_equal(e->time, 0);
	/* an error leaves the list as it was */
	assert_int_equal(hwprof_evlist_parse(&l, "cycles,nosuch", intel, &err), -HWPROF_E_INVAL);
	assert_int_equal(l.nr, 4);
	hwprof_evlist_free(&l);
	hwprof_pmus_close(intel);
}

/* ---- perf record defaults ------------------------------------------------- */

#define TRACK (F(MMAP) | F(COMM) | F(TASK) | F(MMAP2) | F(COMM_EXEC) | F(KSYMBOL) | F(BPF_EVENT))
#define LEADER (F(DISABLED) | F(ENABLE_ON_EXEC))
#define ST(x) HWPROF_SAMPLE_##x
#define BASE (ST(IP) | ST(TID) | ST(TIME))

static const struct {
	const char *root, *spec;
	int idx;
	uint64_t sample_type, read_format, flags, period;
	uint64_t regs_user;
	uint32_t stack_user;
	uint16_t max_stack;
} cfg_cases[] = {
	/* each row is perf record -vv -e <spec> -- true on perf 6.1 (x86_64) */
	{ NULL, "cpu-clock", 0, BASE | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock/period=1000/", 0, BASE, 0x14,
	  LEADER | TRACK | F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 1000, 0, 0, 0 },
	{ NULL, "cpu-clock/freq=100/", 0, BASE | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 100, 0, 0, 0 },
	{ NULL, "cpu-clock/no-inherit/", 0, BASE | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock/call-graph=fp/", 0, BASE | ST(CALLCHAIN) | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock/call-graph=dwarf,stack-size=4096/", 0,
	  BASE | ST(ADDR) | ST(CALLCHAIN) | ST(PERIOD) | ST(REGS_USER) | ST(STACK_USER) | ST(DATA_SRC), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST) | F(MMAP_DATA) |
	  F(EXCLUDE_CALLCHAIN_USER), 4000, 0xff0fff, 4096, 0 },
	{ NULL, "cpu-clock/call-graph=dwarf/", 0,
	  BASE | ST(ADDR) | ST(CALLCHAIN) | ST(PERIOD) | ST(REGS_USER) | ST(STACK_USER) | ST(DATA_SRC), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST) | F(MMAP_DATA) |
	  F(EXCLUDE_CALLCHAIN_USER), 4000, 0xff0fff, 8192, 0 },
	{ NULL, "cpu-clock/max-stack=5,call-graph=fp/", 0, BASE | ST(CALLCHAIN) | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 5 },
	{ NULL, "cpu-clock/time=0/", 0, ST(IP) | ST(TID) | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock:S", 0, BASE | ST(READ) | ST(ID) | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock:k,task-clock:u", 1, BASE | ST(ID) | ST(PERIOD), 0x14,
	  LEADER | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST),
	  4000, 0, 0, 0 },
	{ NULL, "{cpu-clock,task-clock}:u", 1, BASE | ST(ID) | ST(PERIOD), 0x14,
	  F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST),
	  4000, 0, 0, 0 },
	{ NULL, "{cpu-clock,task-clock}:S", 0, BASE | ST(READ) | ST(ID) | ST(PERIOD), 0x1c,
	  LEADER | TRACK | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "{cpu-clock,task-clock}:S", 1, BASE | ST(READ) | ST(ID) | ST(PERIOD), 0x1c,
	  F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 0, 0, 0, 0 },
	{ NULL, "cpu-clock/call-graph=fp/,task-clock", 1, BASE | ST(PERIOD) | ST(IDENTIFIER), 0x14,
	  LEADER | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
	{ NULL, "{cpu-clock,task-clock/period=7/}", 1, BASE | ST(IDENTIFIER), 0x14,
	  F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 7, 0, 0, 0 },
	{ NULL, "cpu-clock:e", 0, BASE | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(EXCLUSIVE) | F(FREQ) | F(SAMPLE_ID_ALL), 4000, 0, 0, 0 },
	{ NULL, "cpu-clock:P", 0, BASE | ST(PERIOD), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | PREC(3), 4000, 0, 0, 0 },
	/* AUX area PMUs sample with a fixed period (not compared with perf) */
	{ INTEL, "intel_pt//u", 0, BASE, 0x14,
	  LEADER | TRACK | F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST),
	  1, 0, 0, 0 },
	/* arm_spe: perf's SPE recording options (the full set in test_spe_config) */
	{ NEOVERSE, "arm_spe_0//", 0, BASE | ST(CPU) | ST(DATA_SRC) | ST(IDENTIFIER), 0x14,
	  LEADER | F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 1024, 0, 0, 0 },
	{ NEOVERSE, "arm_spe_0/period=4096/", 0, BASE | ST(CPU) | ST(DATA_SRC) | ST(IDENTIFIER), 0x14,
	  LEADER | F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4096, 0, 0, 0 },
	{ NEOVERSE, "arm_spe_0//", 1, BASE | ST(CPU) | ST(IDENTIFIER), 0x14,
	  LEADER | TRACK | F(INHERIT) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) |
	  F(CONTEXT_SWITCH), 1, 0, 0, 0 },
	{ INTEL, "{intel_pt//,cycles/aux-sample-size=4096/}", 1, BASE | ST(PERIOD) | ST(AUX) | ST(IDENTIFIER), 0x14,
	  F(INHERIT) | F(FREQ) | F(SAMPLE_ID_ALL) | F(EXCLUDE_GUEST), 4000, 0, 0, 0 },
};

static void test_record_defaults(void **state)
{
	struct hwprof_pmus *intel = tree(INTEL), *neo = tree(NEOVERSE);
	struct hwprof_evlist_opts o;
	hwprof_evlist_opts_default(&o);
	o.arch = HWPROF_ARCH_X86_64;
	for (size_t i = 0; i < sizeof(cfg_cases) / sizeof(cfg_cases[0]); i++) {
		struct hwprof_evlist l = { 0 };
		struct hwprof_error err;
		const struct hwprof_pmus *p = !cfg_cases[i].root ? NULL : !strcmp(cfg_cases[i].root, INTEL) ? intel : neo;
		if (hwprof_evlist_parse(&l, cfg_cases[i].spec, p, &err) < 0)
			fail_msg("'%s': %s", cfg_cases[i].spec, err.msg);
		if (hwprof_evlist_config(&l, &o, p, &err) < 0)
			fail_msg("'%s': config: %s", cfg_cases[i].spec, err.msg);
		const struct hwprof_attr *a = &l.ev[cfg_cases[i].idx].attr;
		if (a->size != 128 || a->sample_type != cfg_cases[i].sample_type ||
		    a->read_format != cfg_cases[i].read_format || a->flags != cfg_cases[i].flags ||
		    a->sample_period != cfg_cases[i].period || a->sample_regs_user != cfg_cases[i].regs_user ||
		    a->sample_stack_user != cfg_cases[i].stack_user || a->sample_max_stack != cfg_cases[i].max_stack)
			fail_msg("'%s'[%d]: sample_type %#llx read_format %#llx flags %#llx period %llu (want %#llx %#llx %#llx %llu)",
				 cfg_cases[i].spec, cfg_cases[i].idx, (unsigned long long)a->sample_type,
				 (unsigned long long)a->read_format, (unsigned long long)a->flags,
				 (unsigned long long)a->sample_period, (unsigned long long)cfg_cases[i].sample_type,
				 (unsigned long long)cfg_cases[i].read_format, (unsigned long long)cfg_cases[i].flags,
				 (unsigned long long)cfg_cases[i].period);
		hwprof_evlist_free(&l);
	}
	/* -c 1000 and -F 99 */
	struct hwprof_evlist l = { 0 };
	assert_int_equal(hwprof_evlist_parse(&l, "cpu-clock", NULL, NULL), 1);
	o.period = 1000;
	assert_int_equal(hwprof_evlist_config(&l, &o, NULL, NULL), 0);
	assert_int_equal(l.ev[0].attr.sample_period, 1000);
	assert_int_equal(l.ev[0].attr.sample_type, BASE);
	assert_false(l.ev[0].attr.flags & F(FREQ));
	hwprof_evlist_free(&l);
	/* aux-sample-size needs an AUX leader */
	struct hwprof_error err;
	assert_int_equal(hwprof_evlist_parse(&l, "cpu-clock/aux-sample-size=4096/", NULL, NULL), 1);
	assert_int_equal(hwprof_evlist_config(&l, NULL, NULL, &err), -HWPROF_E_INVAL);
	assert_string_equal(err.msg, "cpu-clock/aux-sample-size=4096/: aux-sample-size needs an AUX area event "
				     "(intel_pt, arm_spe) as group leader");
	hwprof_evlist_free(&l);
	hwprof_pmus_close(intel);
	hwprof_pmus_close(neo);
}

/* ---- errors ------------------------------------------------------------------ */

static const struct {
	const char *root, *spec;
	int rc;
	size_t off;
	const char *msg;
} err_cases[] = {
	{ INTEL, "cyclez", -HWPROF_E_INVAL, 0, "unknown event 'cyclez' (did you mean 'cycles'?)" },
	{ INTEL, "instrucions", -HWPROF_E_INVAL, 0, "unknown event 'instrucions' (did you mean 'instructions'?)" },
	{ INTEL, "cpu-clok", -HWPROF_E_INVAL, 0, "unknown event 'cpu-clok' (did you mean 'cpu-clock'?)" },
	{ INTEL, "cycles,L1-dcache-lod-misses", -HWPROF_E_INVAL, 7,
	  "unknown event 'L1-dcache-lod-misses' (did you mean 'L1-dcache-load-misses'?)" },
	{ NULL, "zzzzzzzzzzzz", -HWPROF_E_INVAL, 0, "unknown event 'zzzzzzzzzzzz'" },
	{ INTEL, "intel_ptt//", -HWPROF_E_INVAL, 0, "unknown PMU or event 'intel_ptt' (did you mean 'intel_pt'?)" },
	{ INTEL, "cpu/evnt=1/", -HWPROF_E_INVAL, 4, "unknown term 'evnt' for PMU 'cpu' (did you mean 'event'?)" },
	{ INTEL, "msr/foo=1/", -HWPROF_E_INVAL, 4,
	  "unknown term 'foo' for PMU 'msr' (valid: event, config..config4 and period, freq, ...)" },
	{ INTEL, "cpu-clock/foo/", -HWPROF_E_INVAL, 10, "unknown term 'foo' for event 'cpu-clock'" },
	{ NEOVERSE, "arm_spe_0/min_latency=4096/", -HWPROF_E_INVAL, 10,
	  "value 0x1000 out of range for term 'min_latency' of PMU 'arm_spe_0' (config2:0-11, at most 0xfff)" },
	{ NEOVERSE, "arm_spe_0/load_filter=2/", -HWPROF_E_INVAL, 10,
	  "value 0x2 out of range for term 'load_filter' of PMU 'arm_spe_0' (config:33, at most 0x1)" },
	{ INTEL, "intel_pt/psb_period=16/", -HWPROF_E_INVAL, 9,
	  "value 0x10 out of range for term 'psb_period' of PMU 'intel_pt' (config:24-27, at most 0xf)" },
	{ INTEL, "cpu/event=0x100/", -HWPROF_E_INVAL, 4,
	  "value 0x100 out of range for term 'event' of PMU 'cpu' (config:0-7, at most 0xff)" },
	{ INTEL, "cpu/event=0x10000000000000000/", -HWPROF_E_INVAL, 4,
	  "term 'event' expects a number, not '0x10000000000000000'" },
	{ NULL, "cpu-clock:x", -HWPROF_E_INVAL, 10,
	  "invalid modifier 'x' in 'cpu-clock:x' (valid: u k h H G I D W e S P p pp ppp)" },
	{ NULL, "cpu-clock:uu", -HWPROF_E_INVAL, 10, "modifier 'u' repeated in 'cpu-clock:uu'" },
	{ NULL, "cpu-clock:pppp", -HWPROF_E_INVAL, 10, "invalid modifier in 'cpu-clock:pppp': at most 3 'p' (ppp)" },
	{ NULL, "{cpu-clock:pp,task-clock}:pp", -HWPROF_E_INVAL, 26,
	  "invalid modifier in '{cpu-clock:pp,task-clock}:pp': at most 3 'p' (ppp)" },
	{ NULL, "cpu-clock:", -HWPROF_E_INVAL, 9, "empty modifier after ':'" },
	{ INTEL, "cpu/event=1/k:u", -HWPROF_E_INVAL, 13, "modifiers given twice" },
	{ NULL, "cpu-clock/period=abc/", -HWPROF_E_INVAL, 10, "term 'period' expects a number, not 'abc'" },
	{ NULL, "cpu-clock/period/", -HWPROF_E_INVAL, 10, "term 'period' needs a value" },
	{ NULL, "cpu-clock/period=/", -HWPROF_E_INVAL, 10, "term 'period' has an empty value" },
	{ NULL, "cpu-clock/call-graph=xyz/", -HWPROF_E_INVAL, 10, "invalid call-graph 'xyz' (fp, dwarf, lbr or no)" },
	{ NULL, "cpu-clock/max-stack=70000/", -HWPROF_E_INVAL, 10, "max-stack 70000 is too large (at most 65535)" },
	{ NULL, "cpu-clock/no-inherit=1/", -HWPROF_E_INVAL, 10, "term 'no-inherit' takes no value" },
	{ NULL, "cpu-clock/period=1,,freq=2/", -HWPROF_E_INVAL, 19, "empty term in 'period=1,,freq=2'" },
	{ NULL, "cpu-clock/period=1", -HWPROF_E_INVAL, 9, "missing closing '/' after the terms of 'cpu-clock'" },
	{ NULL, "{cpu-clock", -HWPROF_E_INVAL, 10, "missing '}' to close the group opened at offset 0" },
	{ NULL, "{cpu-clock,{task-clock}}", -HWPROF_E_INVAL, 11, "groups cannot be nested" },
	{ NULL, "cpu-clock,", -HWPROF_E_INVAL, 10, "expected an event after ','" },
	{ NULL, ",cpu-clock", -HWPROF_E_INVAL, 0, "expected an event name before ','" },
	{ NULL, "cpu-clock}", -HWPROF_E_INVAL, 9, "unexpected '}'" },
	{ NULL, "", -HWPROF_E_INVAL, 0, "empty event specification" },
	{ NULL, "sched:sched_switch", -HWPROF_E_INVAL, 0,
	  "'sched:...' looks like a tracepoint; tracepoints are not supported" },
	{ NULL, "mem:0x1000", -HWPROF_E_INVAL, 0, "breakpoint events (mem:ADDR) are not supported" },
	{ NULL, "duration_time", -HWPROF_E_INVAL, 0, "'duration_time' is a tool event for perf stat; it cannot be recorded" },
	{ INTEL, "L1-icache-stores", -HWPROF_E_INVAL, 0,
	  "hardware cache event 'L1-icache-stores' does not exist (see 'hwprof list cache')" },
	{ NULL, "r12345678123456789", -HWPROF_E_INVAL, 0, "raw event 'r12345678123456789' does not fit in 64 bits" },
};

static void test_errors(void **state)
{
	struct hwprof_pmus *intel = tree(INTEL), *neo = tree(NEOVERSE);
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		struct hwprof_evlist l = { 0 };
		struct hwprof_error err;
		const struct hwprof_pmus *p = !err_cases[i].root ? NULL : !strcmp(err_cases[i].root, INTEL) ? intel : neo;
		int rc = hwprof_evlist_parse(&l, err_cases[i].spec, p, &err);
		if (rc != err_cases[i].rc || strcmp(err.msg, err_cases[i].msg) || err.offset != err_cases[i].off)
			fail_msg("'%s': rc %d offset %llu msg \"%s\"", err_cases[i].spec, rc,
				 (unsigned long long)err.offset, err.msg);
		assert_int_equal(err.code, rc);
		assert_int_equal(l.nr, 0);
		hwprof_evlist_free(&l);
	}
	hwprof_pmus_close(intel);
	hwprof_pmus_close(neo);
}

static void test_names(void **state)
{
	size_t nr;
	char b[64];
	const struct hwprof_event_name *sw = hwprof_event_names(HWPROF_TYPE_SOFTWARE, &nr);
	assert_int_equal(nr, 12);
	for (size_t i = 1; i < nr; i++)
		assert_true(strcmp(sw[i - 1].name, sw[i].name) < 0);
	assert_non_null(hwprof_event_names(HWPROF_TYPE_HARDWARE, &nr));
	assert_int_equal(nr, 10);
	assert_null(hwprof_event_names(HWPROF_TYPE_RAW, &nr));
	assert_int_equal(nr, 0);
	assert_int_equal(hwprof_cache_event_name(b, sizeof(b), HWPROF_CACHE_LL, HWPROF_CACHE_OP_WRITE,
						 HWPROF_CACHE_RESULT_MISS), 0);
	assert_string_equal(b, "LLC-store-misses");
	assert_int_equal(hwprof_cache_event_name(b, sizeof(b), HWPROF_CACHE_BPU, HWPROF_CACHE_OP_READ,
						 HWPROF_CACHE_RESULT_ACCESS), 0);
	assert_string_equal(b, "branch-loads");
	assert_int_equal(hwprof_cache_event_name(b, sizeof(b), HWPROF_CACHE_ITLB, HWPROF_CACHE_OP_WRITE,
						 HWPROF_CACHE_RESULT_ACCESS), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_cache_event_name(b, sizeof(b), 7, 0, 0), -HWPROF_E_INVAL);
	/* every cache name perf lists parses back to its config */
	unsigned count = 0;
	for (unsigned c = 0; c < HWPROF_CACHE_MAX; c++)
		for (unsigned o = 0; o < HWPROF_CACHE_OP_MAX; o++)
			for (unsigned r = 0; r < HWPROF_CACHE_RESULT_MAX; r++) {
				if (hwprof_cache_event_name(b, sizeof(b), c, o, r))
					continue;
				struct hwprof_evlist l = { 0 };
				assert_int_equal(hwprof_evlist_parse(&l, b, NULL, NULL), 1);
				assert_int_equal(l.ev[0].attr.type, HWPROF_TYPE_HW_CACHE);
				assert_int_equal(l.ev[0].attr.config, c | o << 8 | r << 16);
				hwprof_evlist_free(&l);
				count++;
			}
	assert_int_equal(count, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_groups_and_settings),
		cmocka_unit_test(test_record_defaults),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
