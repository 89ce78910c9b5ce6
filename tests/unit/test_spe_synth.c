/* Unit tests of Arm SPE sample synthesis: the --itrace parser (letters and
 * periods perf 6.1 accepts/rejects), AUXTRACE_INFO layouts, TIME_CONV
 * arithmetic, data_src tables, the group rules per record, instruction
 * periods, ordering across queues, records spanning buffers, the partial
 * record after a bad byte, and the timeless leading sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"

/* ---- itrace ---- */

static void test_itrace_parse(void **state)
{
	struct hwprof_itrace_opts o;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i1i", false), 0);
	assert_true(o.set && o.instructions && !o.branches && !o.flc);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_INSTRUCTIONS);
	assert_int_equal(o.period, 1);

	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "bxofmtMai100i", false), 0);
	assert_true(o.branches && o.transactions && o.other_events && o.flc && o.llc && o.tlb && o.mem &&
		    o.remote_access && o.instructions);
	assert_int_equal(o.period, 100);

	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i10ms", false), 0);
	assert_int_equal(o.period, 10000000);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_NANOSECS);
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i, 5 us", false), 0);
	assert_int_equal(o.period, 5000);
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i7t", false), 0);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_TICKS);
	/* bare 'i': perf's default period (100000 ns) */
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i", false), 0);
	assert_int_equal(o.period, HWPROF_ITRACE_DEFAULT_PERIOD);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_NANOSECS);
	/* a number without unit ends the string and keeps the default unit */
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i42", false), 0);
	assert_int_equal(o.period, 42);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_NANOSECS);

	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "g32l8e+f-od+a s5 qqAZIcrwpLG", false), 0);
	assert_true(o.callchain && o.last_branch && o.errors && o.log && o.approx_ipc && o.timeless);
	assert_true(o.intr_events && o.calls && o.returns && o.ptwrites && o.pwr_events);
	assert_true(o.add_callchain && o.add_last_branch);
	assert_int_equal(o.callchain_sz, HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ); /* G reset it */
	assert_int_equal(o.error_plus_flags, HWPROF_ITRACE_FLAG('f'));
	assert_int_equal(o.error_minus_flags, HWPROF_ITRACE_FLAG('o'));
	assert_int_equal(o.log_plus_flags, HWPROF_ITRACE_FLAG('a'));
	assert_int_equal(o.initial_skip, 5);
	assert_int_equal(o.quick, 2);

	/* rejected by perf 6.1 too: 'y', 'T', bad units and sizes */
	static const char *const bad[] = { "y", "T", "i1y", "iy", "i5x", "i5m", "g0", "l2000", "s", "e+" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&o, 0, sizeof(o));
		assert_int_equal(hwprof_itrace_opts_parse(&o, bad[i], false), -HWPROF_E_INVAL);
	}

	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, NULL, false), 0);
	assert_true(o.set && o.instructions && o.flc && o.mem && !o.calls);
	memset(&o, 0, sizeof(o));
	hwprof_itrace_opts_default(&o, true);
	assert_true(!o.set && !o.instructions && o.calls && o.period == 1);
}

/* ---- AUXTRACE_INFO, TIME_CONV ---- */

static void test_info_parse(void **state)
{
	struct hwprof_spe_info info;
	struct hwprof_spe_cpu_info cpus[2];
	struct hwprof_error err;
	uint64_t v1[2] = { 8, 1 };
	uint64_t v2[] = { 2, 4, 9, 2, HWPROF_SPE_CPU_MAGIC, 0, 3, 0x410fd0c0, 9, 1024,
			  HWPROF_SPE_CPU_MAGIC, 1, 4, 0x410fd4f0, UINT64_MAX, 256, 0x7 };

	(void)state;
	assert_int_equal(hwprof_spe_info_parse(v1, 2, &info, NULL, 0, NULL), 0);
	assert_int_equal(info.version, 1);
	assert_int_equal(info.pmu_type, 8);
	assert_true(info.per_cpu_mmaps);
	assert_int_equal(hwprof_spe_info_parse(v2, sizeof(v2) / 8, &info, cpus, 2, &err), 0);
	assert_int_equal(info.version, 2);
	assert_int_equal(info.pmu_type, 9);
	assert_int_equal(info.nr_cpus, 2);
	assert_int_equal(cpus[0].midr, 0x410fd0c0);
	assert_int_equal(cpus[1].cpu, 1);
	assert_true(cpus[1].pmu_type == UINT64_MAX);
	assert_int_equal(cpus[1].event_filter, 7);
	v2[10] = 5; /* bad magic */
	assert_int_equal(hwprof_spe_info_parse(v2, sizeof(v2) / 8, &info, cpus, 2, &err), -HWPROF_E_CORRUPT);
	assert_int_equal(err.offset, 16 + 8 * 10);
	v2[10] = HWPROF_SPE_CPU_MAGIC;
	for (size_t n = 3; n < sizeof(v2) / 8; n++) /* every cut is an error, never a crash */
		assert_int_equal(hwprof_spe_info_parse(v2, n, &info, cpus, 2, &err), -HWPROF_E_CORRUPT);
	assert_int_equal(hwprof_spe_info_parse(v1, 1, &info, NULL, 0, &err), -HWPROF_E_CORRUPT);
}

static void test_tsc_conv(void **state)
{
	uint8_t body[48] = { 0 };
	struct hwprof_tsc_conv tc;

	(void)state;
	body[0] = 8;                              /* shift */
	body[8] = 0x00; body[9] = 0x28;           /* mult = 40 << 8 */
	body[16] = 0x00; body[17] = 0xca; body[18] = 0x9a; body[19] = 0x3b; /* zero = 1e9 */
	assert_int_equal(hwprof_tsc_conv_parse(&tc, body, 24), 0);
	assert_int_equal(hwprof_tsc_to_perf_time(&tc, 1000000), 1040000000ULL);
	assert_int_equal(hwprof_perf_time_to_tsc(&tc, 1040000000ULL), 1000000);
	assert_int_equal(hwprof_perf_time_to_tsc(&tc, 1040000039ULL), 1000000);
	assert_int_equal(hwprof_tsc_conv_parse(&tc, body, 23), -HWPROF_E_CORRUPT);
	memset(&tc, 0, sizeof(tc));
	assert_int_equal(hwprof_perf_time_to_tsc(&tc, 5), 0); /* no division by zero */
}

/* ---- data_src ---- */

static struct hwprof_spe_record ldst(unsigned op, uint64_t events, uint16_t src)
{
	struct hwprof_spe_record r;

	hwprof_spe_record_init(&r);
	r.present = HWPROF_SPE_HAS_OP | HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_DATA_SOURCE;
	r.op_class = HWPROF_SPE_OP_CLASS_LDST;
	r.op = (uint8_t)op;
	r.events = events;
	r.data_source = src;
	return r;
}

static void test_data_src(void **state)
{
	const uint64_t n1 = 0x410fd0c0, a76 = 0x413fd0b0, v2 = 0x410fd4f0;
	struct hwprof_spe_record r;

	(void)state;
	assert_true(hwprof_spe_midr_is_neoverse(n1, 0));
	assert_true(hwprof_spe_midr_is_neoverse(0x410fd490, 0));  /* N2 */
	assert_true(hwprof_spe_midr_is_neoverse(0x411fd401, 0));  /* V1 r1p1 */
	assert_false(hwprof_spe_midr_is_neoverse(v2, 0));
	assert_true(hwprof_spe_midr_is_neoverse(v2, HWPROF_SPE_DS_NEOVERSE_V2));
	assert_false(hwprof_spe_midr_is_neoverse(a76, 0));
	assert_false(hwprof_spe_midr_is_neoverse(0, 0));

	/* values checked against perf 6.1 `perf script -F data_src` */
	r = ldst(0, 0x14, 0);        /* N1 load, L1D hit, TLB access */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x288100142ULL);
	r = ldst(0, 0x34, 0);        /* TLB walk -> miss */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x290100142ULL);
	r = ldst(0, 0x4, 0xe);       /* DRAM */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x1a00101042ULL);
	r = ldst(0, 0x4, 0x9);       /* peer core */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x8400000442ULL);
	r = ldst(1, 0x4, 0x0);       /* store: level unknown */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x1e00080024ULL);
	r = ldst(0, 0x4, 0xd);       /* remote */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0xbe00000022ULL);
	r = ldst(0, 0x4, 0x3);       /* unknown source: op only */
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x2ULL);
	/* generic: LLC miss wins over L1 */
	r = ldst(0, 0x30c, 0);
	assert_int_equal(hwprof_spe_data_src(&r, a76, 0) & 0x7ffe0, (0x40ULL | 0x4) << 5);
	r = ldst(0, 0x404, 0);       /* L1 hit + remote */
	assert_int_equal(hwprof_spe_data_src(&r, a76, 0), 0x2000000000ULL | (0xaULL << 5) | 2);
	/* not a memory op */
	r = ldst(0, 0x4, 0);
	r.op_class = HWPROF_SPE_OP_CLASS_BRANCH;
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0);
	r.present = 0;
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0);
	/* SVE data processing counts as a load in perf 6.1 */
	r = ldst(0x08, 0, 0);
	r.op_class = HWPROF_SPE_OP_CLASS_OTHER;
	assert_int_equal(hwprof_spe_data_src(&r, n1, 0), 0x200100142ULL);
}

/* ---- synthesis ---- */

struct collect {
	unsigned n;
	struct hwprof_spe_sample s[64];
};

static int collect_emit(void *ctx, const struct hwprof_spe_sample *s)
{
	struct collect *c = ctx;

	if (c->n < 64)
		c->s[c->n] = *s;
	c->n++;
	return 0;
}

static size_t put_rec(uint8_t *buf, size_t cap, uint64_t pc, unsigned op_class, unsigned op, uint64_t ev,
		      uint64_t ts, uint16_t lat)
{
	struct hwprof_spe_writer w;
	struct hwprof_spe_record r;

	hwprof_spe_record_init(&r);
	r.present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_OP | HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_LAT_TOTAL |
		    HWPROF_SPE_HAS_VA | HWPROF_SPE_HAS_TARGET | (ts ? HWPROF_SPE_HAS_TIMESTAMP : 0);
	r.pc = pc;
	r.pc_ns = 1;
	r.op_class = (uint8_t)op_class;
	r.op = (uint8_t)op;
	r.events = ev;
	r.timestamp = ts;
	r.lat_total = lat;
	r.va = 0xffffe0001000ULL;
	r.va_tag = 0x80;
	r.target = pc + 0x40;
	r.target_ns = 1;
	hwprof_spe_writer_init(&w, buf, cap);
	assert_true(hwprof_spe_put_record(&w, &r) > 0);
	return (size_t)hwprof_spe_writer_len(&w);
}

static struct hwprof_spe_synth *mk(struct collect *c, const char *itrace, bool timeless)
{
	struct hwprof_spe_synth_config cfg;
	struct hwprof_spe_synth *s;

	memset(&cfg, 0, sizeof(cfg));
	if (itrace)
		assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, itrace, false), 0);
	cfg.midr = 0x410fd0c0;
	cfg.timeless = timeless;
	cfg.tc.time_mult = 1;
	cfg.spe_id = 7;
	cfg.emit = collect_emit;
	cfg.ctx = c;
	assert_int_equal(hwprof_spe_synth_new(&s, &cfg), 0);
	return s;
}

static void test_groups(void **state)
{
	uint8_t buf[256];
	struct collect c = { 0 };
	struct hwprof_spe_synth *s = mk(&c, NULL, false);
	size_t n = 0;

	(void)state;
	/* perf's default: no instructions (period in ns), ids in group order */
	assert_int_equal(hwprof_spe_synth_groups(s), (1u << HWPROF_SPE_G_INSTRUCTIONS) - 1);
	assert_int_equal(hwprof_spe_synth_group_id(s, HWPROF_SPE_G_L1D_MISS), 1000000007ULL);
	assert_int_equal(hwprof_spe_synth_group_id(s, HWPROF_SPE_G_MEMORY), 1000000015ULL);
	/* load: L1 miss + access, LLC access, TLB access -> 4 + memory */
	n += put_rec(buf + n, sizeof(buf) - n, 0xaaaa1000, HWPROF_SPE_OP_CLASS_LDST, 0, 0x11e, 100, 33);
	/* mispredicted branch -> branch-miss with addr = target */
	n += put_rec(buf + n, sizeof(buf) - n, 0xaaaa2000, HWPROF_SPE_OP_CLASS_BRANCH, 1, 0x82, 200, 5);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 3, -1, buf, n, 0), 0);
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	assert_int_equal(c.n, 6);
	static const unsigned want[] = { HWPROF_SPE_G_L1D_MISS, HWPROF_SPE_G_L1D_ACCESS, HWPROF_SPE_G_LLC_ACCESS,
					 HWPROF_SPE_G_TLB_ACCESS, HWPROF_SPE_G_MEMORY, HWPROF_SPE_G_BRANCH_MISS };
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(c.s[i].group, want[i]);
	assert_string_equal(c.s[0].name, "l1d-miss");
	assert_int_equal(c.s[0].addr, 0xffffe0001000ULL); /* tag stripped */
	assert_int_equal(c.s[0].weight, 33);
	assert_int_equal(c.s[0].time, 100);
	assert_int_equal(c.s[0].cpu, 3);
	assert_int_equal(c.s[0].cpumode, HWPROF_MISC_USER);
	assert_int_equal(c.s[5].addr, 0xaaaa2040ULL);
	assert_int_equal(c.s[5].data_src, 0);
	assert_int_equal(c.s[5].weight, 5);
	hwprof_spe_synth_free(s);
}

static void test_instruction_period(void **state)
{
	uint8_t buf[1024];
	struct collect c = { 0 };
	struct hwprof_spe_synth *s = mk(&c, "i3i", false);
	size_t n = 0;

	(void)state;
	assert_int_equal(hwprof_spe_synth_groups(s), 1u << HWPROF_SPE_G_INSTRUCTIONS);
	for (unsigned i = 0; i < 10; i++)
		n += put_rec(buf + n, sizeof(buf) - n, 0x1000 + i, HWPROF_SPE_OP_CLASS_OTHER, 0, 2, 10 + i, 1);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, buf, n, 0), 0);
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	assert_int_equal(c.n, 3); /* records 3, 6, 9 */
	assert_int_equal(c.s[0].ip, 0x1002);
	assert_int_equal(c.s[0].period, 3);
	assert_int_equal(c.s[2].ip, 0x1008);
	hwprof_spe_synth_free(s);
}

static void test_ordering_and_buffers(void **state)
{
	uint8_t a[512], b[512];
	struct collect c = { 0 };
	struct hwprof_spe_synth *s = mk(&c, "i1i", false);
	size_t na = 0, nb = 0;
	struct hwprof_spe_side_event ev = { .type = HWPROF_RECORD_EXIT, .time = 250, .cpu = 0 };

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		na += put_rec(a + na, sizeof(a) - na, 0xa000 + i, 0, 0, 2, 100 + 100 * i, 1);
		nb += put_rec(b + nb, sizeof(b) - nb, 0xb000 + i, 0, 0, 2, 150 + 100 * i, 1);
	}
	/* queue 0 split after the first packet (PC): the record continues in the
	 * next buffer (a split inside a packet would be a bad byte, as in perf) */
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, a, 9, 0), 0);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, a + 9, na - 9, 9), 0);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 1, 1, -1, b, nb, 0), 0);
	assert_int_equal(hwprof_spe_synth_event(s, &ev), 0);
	assert_int_equal(c.n, 3); /* records at 100, 150, 200 are before t=250 */
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	assert_int_equal(c.n, 8);
	for (unsigned i = 1; i < 8; i++)
		assert_true(c.s[i].time > c.s[i - 1].time);
	assert_int_equal(c.s[0].ip, 0xa000);
	assert_int_equal(c.s[1].ip, 0xb000);
	assert_int_equal(c.s[1].cpu, 1);
	hwprof_spe_synth_free(s);
}

static void test_bad_byte_and_context(void **state)
{
	uint8_t buf[256];
	struct collect c = { 0 };
	struct hwprof_spe_synth *s = mk(&c, "i1i", false);
	size_t n = 0;

	(void)state;
	n += put_rec(buf + n, sizeof(buf) - n, 0x1000, 0, 0, 2, 100, 1);
	/* a record with a CONTEXT packet, then a bad byte inside the next one */
	buf[n++] = 0xb0;
	memcpy(buf + n, "\x00\x20\x00\x00\x00\x00\x00\x80", 8);
	n += 8;
	memcpy(buf + n, "\x64\x2a\x00\x00\x00", 5); /* CONTEXT 42 */
	n += 5;
	buf[n++] = 0x01;                               /* END */
	buf[n++] = 0xb0;
	memcpy(buf + n, "\x00\x30\x00\x00\x00\x00\x00\x80", 8);
	n += 8;
	buf[n++] = 0x02;                               /* bad byte */
	n += put_rec(buf + n, sizeof(buf) - n, 0x4000, 0, 0, 2, 300, 1);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, buf, n, 0), 0);
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.s[1].ip, 0x2000);
	assert_int_equal(c.s[1].tid, 42);     /* from CONTEXT */
	assert_int_equal(c.s[1].time, 0);     /* END record: no timestamp */
	assert_int_equal(c.s[2].ip, 0x3000);  /* broken record still sampled */
	assert_int_equal(c.s[3].ip, 0x4000);
	assert_int_equal(c.s[3].tid, 42);     /* thread stays */
	assert_true(hwprof_spe_synth_used_context(s));
	hwprof_spe_synth_free(s);
}

static void test_timeless(void **state)
{
	uint8_t buf[256];
	struct collect c = { 0 };
	struct hwprof_spe_synth *s = mk(&c, "i1i", true);
	size_t n = 0;

	(void)state;
	n += put_rec(buf + n, sizeof(buf) - n, 0x1000, 0, 0, 2, 100, 1);
	n += put_rec(buf + n, sizeof(buf) - n, 0x2000, 0, 0, 2, 200, 1);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, buf, n, 0), 0);
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	/* perf 6.1 first samples the empty record (ip 0), and ignores time */
	assert_int_equal(c.n, 3);
	assert_int_equal(c.s[0].ip, 0);
	assert_int_equal(c.s[1].ip, 0x1000);
	assert_int_equal(c.s[1].time, 0);
	assert_int_equal(c.s[1].pid, -1);
	hwprof_spe_synth_free(s);
}

static void test_bad_args(void **state)
{
	struct hwprof_spe_synth_config cfg;
	struct hwprof_spe_synth *s;
	struct collect c = { 0 };

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_spe_synth_new(&s, &cfg), -HWPROF_E_INVAL); /* no emit */
	s = mk(&c, NULL, false);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 1u << 20, 0, -1, "", 0, 0), -HWPROF_E_CORRUPT);
	assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, NULL, 5, 0), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_synth_event(s, NULL), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	assert_null(hwprof_spe_group_name(HWPROF_SPE_G_NR));
	hwprof_spe_synth_free(s);
	hwprof_spe_synth_free(NULL);
}

/* ---- packets in any order ---------------------------------------------------
 * The synthesizer's fast path tries the packets of a record in the order
 * hardware writes them, then takes any packet as it comes. Records of
 * random packets in random order (repeats, PADs anywhere, CONTEXT indexes
 * the fast path leaves to the general one), over buffers split at packet
 * boundaries, must assemble to what perf 6.1's rules give packet by packet:
 * the last packet of a kind wins, EVENTS and the op bits are ORed. */

#define ORD_RECS 400

struct ord_collect {
	unsigned n;
	struct hwprof_spe_record r[ORD_RECS + 1];
};

static int ord_emit(void *ctx, const struct hwprof_spe_sample *s)
{
	struct ord_collect *c = ctx;

	if (c->n <= ORD_RECS)
		c->r[c->n] = *s->rec;
	c->n++;
	return 0;
}

struct ord_pkt {
	unsigned type, index, len;
	uint64_t v;
};

static uint64_t ord_rng = 88172645463325252ULL;

static uint64_t ord_rand(void)
{
	ord_rng ^= ord_rng << 13;
	ord_rng ^= ord_rng >> 7;
	ord_rng ^= ord_rng << 17;
	return ord_rng;
}

/* perf 6.1's rule for one packet (spe_rec_packet's, written out again) */
static void ord_apply(struct hwprof_spe_record *r, unsigned type, unsigned index, uint64_t v)
{
	switch (type) {
	case HWPROF_SPE_ADDRESS:
		if (index == HWPROF_SPE_ADDR_INS) {
			r->present |= HWPROF_SPE_HAS_PC;
			r->pc = hwprof_spe_addr_value(index, v);
			r->pc_el = (uint8_t)HWPROF_SPE_ADDR_EL(v);
			r->pc_ns = (uint8_t)HWPROF_SPE_ADDR_NS(v);
		} else if (index == HWPROF_SPE_ADDR_BRANCH) {
			r->present |= HWPROF_SPE_HAS_TARGET;
			r->target = hwprof_spe_addr_value(index, v);
		} else if (index == HWPROF_SPE_ADDR_DATA_VIRT) {
			r->present |= HWPROF_SPE_HAS_VA;
			r->va = hwprof_spe_addr_value(index, v);
			r->va_tag = (uint8_t)HWPROF_SPE_ADDR_TAG(v);
		} else {
			r->present |= HWPROF_SPE_HAS_PA;
			r->pa = hwprof_spe_addr_value(index, v);
		}
		break;
	case HWPROF_SPE_COUNTER:
		if (index == HWPROF_SPE_CNT_TOTAL) {
			r->present |= HWPROF_SPE_HAS_LAT_TOTAL;
			r->lat_total = (uint16_t)v;
		} else if (index == HWPROF_SPE_CNT_ISSUE) {
			r->present |= HWPROF_SPE_HAS_LAT_ISSUE;
			r->lat_issue = (uint16_t)v;
		} else {
			r->present |= HWPROF_SPE_HAS_LAT_XLAT;
			r->lat_xlat = (uint16_t)v;
		}
		break;
	case HWPROF_SPE_EVENTS:
		r->present |= HWPROF_SPE_HAS_EVENTS;
		r->events |= v;
		break;
	case HWPROF_SPE_DATA_SOURCE:
		r->present |= HWPROF_SPE_HAS_DATA_SOURCE;
		r->data_source = (uint16_t)v;
		break;
	case HWPROF_SPE_CONTEXT:
		r->present |= HWPROF_SPE_HAS_CONTEXT;
		r->context_id = v;
		r->context_el = (uint8_t)index;
		break;
	case HWPROF_SPE_OP_TYPE:
		r->present |= HWPROF_SPE_HAS_OP;
		r->op_class = (uint8_t)index;
		r->op = (uint8_t)v;
		if (index == HWPROF_SPE_OP_CLASS_LDST)
			r->ldst_seen |= (v & 1) ? 2 : 1;
		else if (index == HWPROF_SPE_OP_CLASS_OTHER && (v & 0x89) == 0x08)
			r->ldst_seen |= 1;
		break;
	default:
		break;
	}
}

static void test_packet_orders(void **state)
{
	static uint8_t buf[ORD_RECS * 160];
	static struct hwprof_spe_record want[ORD_RECS];
	static struct ord_collect c;
	size_t cuts[4] = { 0 }, ncut = 0;
	struct hwprof_spe_writer w;
	struct hwprof_spe_synth_config cfg;
	struct hwprof_spe_synth *s;

	(void)state;
	memset(&c, 0, sizeof(c));
	hwprof_spe_writer_init(&w, buf, sizeof(buf));
	for (unsigned i = 0; i < ORD_RECS; i++) {
		struct ord_pkt pk[16];
		unsigned n = 0;
		static const unsigned sizes[4] = { 1, 2, 4, 8 };

		/* most records in the hardware order (the fast path's run),
		 * the rest with random kinds, repeats and order */
		bool canonical = ord_rand() % 3 != 0;
		unsigned kinds = canonical ? 9 : 3 + (unsigned)(ord_rand() % 10);
		for (unsigned k = 0; k < kinds && n < 16; k++) {
			unsigned kind = canonical ? k : (unsigned)(ord_rand() % 9);
			uint64_t v = ord_rand();

			if (canonical && ord_rand() % 4 == 0)
				continue; /* a packet this record has not */
			switch (kind) {
			case 0: pk[n++] = (struct ord_pkt){ HWPROF_SPE_ADDRESS, 0, 8, v }; break;
			case 1: pk[n++] = (struct ord_pkt){ HWPROF_SPE_COUNTER, 1, 2, v & 0xffff }; break;
			case 2: {
				unsigned len = sizes[ord_rand() % 4];
				pk[n++] = (struct ord_pkt){ HWPROF_SPE_EVENTS, 0, len,
							   len == 8 ? v : v & ((1ULL << (8 * len)) - 1) };
				break;
			}
			case 3: pk[n++] = (struct ord_pkt){ HWPROF_SPE_OP_TYPE, (unsigned)(v % 3), 1, (v >> 8) & 0xff }; break;
			case 4: pk[n++] = (struct ord_pkt){ HWPROF_SPE_ADDRESS, 2 + (unsigned)(v & 1), 8, v }; break;
			case 5: pk[n++] = (struct ord_pkt){ HWPROF_SPE_COUNTER, v & 1 ? 0 : 2, 2, (v >> 8) & 0xffff }; break;
			case 6: {
				unsigned len = sizes[ord_rand() % 4];
				pk[n++] = (struct ord_pkt){ HWPROF_SPE_DATA_SOURCE, 0, len,
							   len == 8 ? v : v & ((1ULL << (8 * len)) - 1) };
				break;
			}
			case 7: pk[n++] = (struct ord_pkt){ HWPROF_SPE_CONTEXT, (unsigned)(v % 4), 4, v >> 32 }; break;
			default: pk[n++] = (struct ord_pkt){ HWPROF_SPE_ADDRESS, 1, 8, v }; break;
			}
		}
		hwprof_spe_record_init(&want[i]);
		for (unsigned k = 0; k < n; k++) {
			for (unsigned pads = ord_rand() % 8 == 0 ? 1 + (unsigned)(ord_rand() % 3) : 0; pads; pads--)
				assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_PAD, 0, 0, 0), 1);
			assert_true(hwprof_spe_put_packet(&w, pk[k].type, pk[k].index, pk[k].v, pk[k].len) > 0);
			ord_apply(&want[i], pk[k].type, pk[k].index, pk[k].v);
			/* a few buffer ends between packets */
			if (ncut < 4 && i > 40 * (ncut + 1) && k == n / 2)
				cuts[ncut++] = (size_t)hwprof_spe_writer_len(&w);
		}
		if (ord_rand() % 5) {
			uint64_t ts = 1000 + i;
			assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_TIMESTAMP, 0, ts, 8), 9);
			want[i].present |= HWPROF_SPE_HAS_TIMESTAMP;
			want[i].timestamp = ts;
			want[i].end = HWPROF_SPE_REC_TIMESTAMP;
		} else {
			assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_END, 0, 0, 0), 1);
			want[i].end = HWPROF_SPE_REC_END;
		}
	}
	size_t total = (size_t)hwprof_spe_writer_len(&w);
	assert_int_equal(ncut, 4);

	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, "i1i", false), 0);
	cfg.midr = 0x410fd0c0;
	cfg.timeless = true;
	cfg.tc.time_mult = 1;
	cfg.emit = ord_emit;
	cfg.ctx = &c;
	assert_int_equal(hwprof_spe_synth_new(&s, &cfg), 0);
	size_t from = 0;
	for (unsigned k = 0; k <= ncut; k++) {
		size_t to = k < ncut ? cuts[k] : total;
		assert_int_equal(hwprof_spe_synth_add_buffer(s, 0, 0, -1, buf + from, to - from, from), 0);
		from = to;
	}
	assert_int_equal(hwprof_spe_synth_flush(s), 0);
	hwprof_spe_synth_free(s);

	/* timeless: perf samples the empty record first, then each record */
	assert_int_equal(c.n, ORD_RECS + 1);
	for (unsigned i = 0; i < ORD_RECS; i++) {
		const struct hwprof_spe_record *g = &c.r[i + 1], *e = &want[i];

		assert_int_equal(g->present, e->present);
		assert_int_equal(g->end, e->end);
		assert_int_equal(g->pc, e->pc);
		assert_int_equal(g->pc_el, e->pc_el);
		assert_int_equal(g->pc_ns, e->pc_ns);
		assert_int_equal(g->target, e->target);
		assert_int_equal(g->va, e->va);
		assert_int_equal(g->va_tag, e->va_tag);
		assert_int_equal(g->pa, e->pa);
		assert_int_equal(g->lat_total, e->lat_total);
		assert_int_equal(g->lat_issue, e->lat_issue);
		assert_int_equal(g->lat_xlat, e->lat_xlat);
		assert_int_equal(g->events, e->events);
		assert_int_equal(g->data_source, e->data_source);
		assert_int_equal(g->context_id, e->context_id);
		assert_int_equal(g->context_el, e->context_el);
		assert_int_equal(g->op_class, e->op_class);
		assert_int_equal(g->op, e->op);
		assert_int_equal(g->ldst_seen, e->ldst_seen);
		assert_int_equal(g->timestamp, e->timestamp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_itrace_parse),      cmocka_unit_test(test_info_parse),
		cmocka_unit_test(test_tsc_conv),          cmocka_unit_test(test_data_src),
		cmocka_unit_test(test_groups),            cmocka_unit_test(test_instruction_period),
		cmocka_unit_test(test_ordering_and_buffers), cmocka_unit_test(test_bad_byte_and_context),
		cmocka_unit_test(test_timeless),          cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_packet_orders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
