/* Intel PT sample synthesis on hand-built traces over a tiny code buffer:
 * instruction samples every N instructions (ip, period, branch flags and
 * target on branch instructions, bytes), branch samples (trace begin/end,
 * calls/returns filters, async branches), PSB and CBR samples, error
 * samples, option checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/intel_pt_synth.h"
#include "hwprof/perf_event.h"

/* Code at 0x1000 */
static const uint8_t code[] = {
	/* 1000 */ 0x48, 0x31, 0xc0,                /* xor rax, rax     */
	/* 1003 */ 0x48, 0xff, 0xc0,                /* inc rax          */
	/* 1006 */ 0x48, 0x83, 0xf8, 0x03,          /* cmp rax, 3       */
	/* 100a */ 0x75, 0xf7,                      /* jne 1003         */
	/* 100c */ 0xe8, 0x0f, 0x00, 0x00, 0x00,    /* call 1020        */
	/* 1011 */ 0xff, 0xd3,                      /* call rbx         */
	/* 1013 */ 0xff, 0xe0,                      /* jmp rax          */
	/* 1015 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 1020 */ 0x90,                            /* nop              */
	/* 1021 */ 0xc3,                            /* ret              */
	/* 1022 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc,
	/* 1030 */ 0x0f, 0x05,                      /* syscall          */
	/* 1032 */ 0xc3,                            /* ret              */
};

/* executed: 1000 (1003 1006 100a)x3 100c 1020 1021 1011 1020 1021 1013 1030 */
static const uint64_t path[] = {
	0x1000, 0x1003, 0x1006, 0x100a, 0x1003, 0x1006, 0x100a, 0x1003, 0x1006, 0x100a,
	0x100c, 0x1020, 0x1021, 0x1011, 0x1020, 0x1021, 0x1013, 0x1030,
};
#define NPATH (sizeof(path) / sizeof(path[0]))

struct trace {
	uint8_t buf[1024];
	struct hwprof_pt_encoder enc;
	size_t len;
};

static void ip(struct trace *t, enum hwprof_pt_type type, uint64_t a)
{
	assert_true(hwprof_pt_encode_ip(&t->enc, type, a) > 0);
}

/* PSB+, PGE at 1000, the loop, both calls, the jump, trace end at syscall */
static void build(struct trace *t)
{
	hwprof_pt_encoder_init(&t->enc, t->buf, sizeof(t->buf));
	assert_true(hwprof_pt_encode_psb(&t->enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_MODE_EXEC, .payload = 64 };
	assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
	ip(t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t->enc, 0xd, 4) > 0); /* T T N, ret T */
	ip(t, HWPROF_PT_TIP, 0x1020);
	assert_true(hwprof_pt_encode_tnt(&t->enc, 1, 1) > 0);   /* ret T */
	ip(t, HWPROF_PT_TIP, 0x1030);
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_TIP_PGD };
	assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
	t->len = hwprof_pt_encoder_offset(&t->enc);
}

struct got {
	struct hwprof_pt_sample s[64];
	uint64_t chain[64][2];  /* the chains live only during the callback */
	uint64_t br[64][6];     /* the first 3 branch stack entries, likewise */
	size_t n;
	int stop_after;   /* >0: return 7 from the emit after that many */
};

static int emit(void *ctx, const struct hwprof_pt_sample *s)
{
	struct got *g = ctx;
	assert_true(g->n < 64);
	for (uint32_t i = 0; i < s->nchain && i < 2; i++)
		g->chain[g->n][i] = s->chain[i];
	for (uint32_t i = 0; i < 2 * s->nbr && i < 6; i++)
		g->br[g->n][i] = s->brstack[i];
	g->s[g->n++] = *s;
	return g->stop_after && (int)g->n >= g->stop_after ? 7 : 0;
}

static bool with_stack;
static unsigned flow_flags;

static int run(const char *itrace, const struct trace *t, struct got *g)
{
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_true(hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000) >= 0);
	struct hwprof_pt_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, itrace, false), 0);
	cfg.img = img;
	cfg.thread_stack = with_stack;
	cfg.flow.flags = flow_flags;
	cfg.emit = emit;
	cfg.ctx = g;
	int stop = g->stop_after;
	memset(g, 0, sizeof(*g));
	g->stop_after = stop;
	int rc = hwprof_pt_synth_queue(&cfg, t->buf, t->len);
	hwprof_pt_image_free(img);
	return rc;
}

static void test_every_instruction(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i1i", &t, &g), 0);
	assert_int_equal(g.n, NPATH);
	for (size_t i = 0; i < NPATH; i++) {
		assert_int_equal(g.s[i].kind, HWPROF_PT_SAMPLE_INSTRUCTIONS);
		assert_int_equal(g.s[i].ip, path[i]);
		assert_int_equal(g.s[i].period, 1);
	}
	/* the first jne is taken back to 1003; the third falls through */
	assert_int_equal(g.s[3].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL);
	assert_int_equal(g.s[3].addr, 0x1003);
	assert_int_equal(g.s[9].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL);
	assert_int_equal(g.s[9].addr, 0);
	/* plain instructions: no flags, no target; bytes from the image */
	assert_int_equal(g.s[0].flags, 0);
	assert_int_equal(g.s[0].addr, 0);
	assert_int_equal(g.s[0].insn_len, 3);
	assert_memory_equal(g.s[0].insn, code, 3);
	/* calls and returns */
	assert_int_equal(g.s[10].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL);
	assert_int_equal(g.s[10].addr, 0x1020);
	assert_int_equal(g.s[12].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN);
	assert_int_equal(g.s[12].addr, 0x1011);
	/* the syscall leaves the trace: trace end, no target */
	assert_int_equal(g.s[NPATH - 1].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL |
					       HWPROF_PT_FLAG_SYSCALLRET | HWPROF_PT_FLAG_TRACE_END);
	assert_int_equal(g.s[NPATH - 1].addr, 0);
}

static void test_period(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i5i", &t, &g), 0);
	/* the 5th, 10th, 15th instructions; the 3 after the last are not a sample */
	assert_int_equal(g.n, NPATH / 5);
	for (size_t i = 0; i < g.n; i++) {
		assert_int_equal(g.s[i].ip, path[5 * i + 4]);
		assert_int_equal(g.s[i].period, 5);
	}
}

/* Periods in ticks without timing packets: perf's clock stays 0 and each
 * instruction walked counts a tick; i10t is rounded down to 8 ticks, the
 * first period ends one tick early (perf's first walk takes the next
 * tick), so the 7th, 15th, 23rd... instructions are samples. */
static void test_period_ticks(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i10t", &t, &g), 0);
	assert_int_equal(g.n, (NPATH + 1) / 8);
	for (size_t i = 0; i < g.n; i++) {
		assert_int_equal(g.s[i].ip, path[8 * i + 6]);
		assert_int_equal(g.s[i].period, i ? 8 : 7);
	}
}

static void test_branches(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("b", &t, &g), 0);
	static const struct { uint64_t from, to; uint32_t flags; } want[] = {
		{ 0, 0x1000, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN },
		{ 0x100a, 0x1003, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL },
		{ 0x100a, 0x1003, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL },
		{ 0x100c, 0x1020, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL },
		{ 0x1021, 0x1011, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN },
		{ 0x1011, 0x1020, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL },
		{ 0x1021, 0x1013, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN },
		{ 0x1013, 0x1030, HWPROF_PT_FLAG_BRANCH },
		{ 0x1030, 0, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_SYSCALLRET |
			     HWPROF_PT_FLAG_TRACE_END },
	};
	assert_int_equal(g.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < g.n; i++) {
		assert_int_equal(g.s[i].kind, HWPROF_PT_SAMPLE_BRANCHES);
		assert_int_equal(g.s[i].ip, want[i].from);
		assert_int_equal(g.s[i].addr, want[i].to);
		assert_int_equal(g.s[i].flags, want[i].flags);
		assert_int_equal(g.s[i].period, 1);
	}
	assert_int_equal(g.s[3].insn_len, 5); /* the call's bytes */
	assert_int_equal(g.s[0].insn_len, 0); /* nothing walked before the begin */

	/* c: calls and trace ends; r: returns and trace begins */
	assert_int_equal(run("c", &t, &g), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.s[0].ip, 0x100c);
	assert_int_equal(g.s[1].ip, 0x1011);
	assert_int_equal(g.s[2].ip, 0x1030);
	assert_int_equal(run("r", &t, &g), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.s[0].ip, 0);
	assert_int_equal(g.s[1].ip, 0x1021);
	assert_int_equal(g.s[2].addr, 0x1013);
	assert_int_equal(run("cr", &t, &g), 0);
	assert_int_equal(g.n, 6);
}

static void test_both_and_stop(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("bi4i", &t, &g), 0);
	/* samples come in trace order: the 4th instruction (100a, a taken
	 * jne) before that jne's branch sample */
	size_t k = 0;
	while (k < g.n && g.s[k].kind != HWPROF_PT_SAMPLE_INSTRUCTIONS)
		k++;
	assert_true(k + 1 < g.n);
	assert_int_equal(g.s[k].ip, 0x100a);
	assert_int_equal(g.s[k + 1].kind, HWPROF_PT_SAMPLE_BRANCHES);
	assert_int_equal(g.s[k + 1].ip, 0x100a);
	/* a non-zero emit return stops the run and is passed back */
	g.stop_after = 2;
	assert_int_equal(run("b", &t, &g), 7);
	assert_int_equal(g.n, 2);
}

static void test_errors(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	/* a TIP where the first jne wants a TNT bit */
	hwprof_pt_encoder_init(&t.enc, t.buf, sizeof(t.buf));
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	ip(&t, HWPROF_PT_TIP, 0x1020);
	t.len = hwprof_pt_encoder_offset(&t.enc);
	assert_int_equal(run("be", &t, &g), 0);
	size_t nerr = 0;
	for (size_t i = 0; i < g.n; i++)
		if (g.s[i].kind == HWPROF_PT_SAMPLE_ERROR) {
			nerr++;
			assert_int_equal(g.s[i].code, HWPROF_PT_SERR_MISMAT);
			assert_string_equal(hwprof_pt_synth_err_msg(g.s[i].code),
					    "Trace doesn't match instruction");
		}
	assert_int_equal(nerr, 1);
	/* without e: no error samples */
	assert_int_equal(run("b", &t, &g), 0);
	for (size_t i = 0; i < g.n; i++)
		assert_int_not_equal(g.s[i].kind, HWPROF_PT_SAMPLE_ERROR);
	/* garbage: no crash, some errors */
	uint8_t junk[512];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	memcpy(t.buf, junk, sizeof(junk));
	t.len = sizeof(junk);
	assert_int_equal(run("bi1ie", &t, &g), 0);
}

static void test_psb_cbr(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("pb", &t, &g), 0);
	/* the PSB at offset 0 (tracing off: ip 0), then the first CBR sample
	 * (ratio 0; 10 = 1 GHz / 100 MHz with no time conversion), then the
	 * branches */
	assert_true(g.n >= 3);
	assert_int_equal(g.s[0].kind, HWPROF_PT_SAMPLE_PSB);
	assert_int_equal(g.s[0].payload, 0);
	assert_int_equal(g.s[0].ip, 0);
	assert_int_equal(g.s[1].kind, HWPROF_PT_SAMPLE_CBR);
	assert_int_equal(g.s[1].cbr, 0);
	assert_int_equal(g.s[1].max_nonturbo, 10);
	assert_int_equal(g.s[2].kind, HWPROF_PT_SAMPLE_BRANCHES);
	size_t n = 0;
	for (size_t i = 0; i < g.n; i++)
		n += g.s[i].kind == HWPROF_PT_SAMPLE_CBR;
	assert_int_equal(n, 1);

	/* a CBR packet changes the ratio: one more CBR sample before the next
	 * sample, at its ip, with frequency = ratio * 100 MHz */
	hwprof_pt_encoder_init(&t.enc, t.buf, sizeof(t.buf));
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_CBR, .payload = 24 };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0xd, 4) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1020);
	t.len = hwprof_pt_encoder_offset(&t.enc);
	assert_int_equal(run("pc", &t, &g), 0);
	n = 0;
	for (size_t i = 0; i < g.n; i++)
		if (g.s[i].kind == HWPROF_PT_SAMPLE_CBR && g.s[i].cbr == 24) {
			n++;
			assert_int_equal(g.s[i].cbr_khz, 2400000);
			/* perf's comes with the next decoder state, the jne's
			 * branch (no sample of its own with c) */
			assert_int_equal(g.s[i].ip, 0x100a);
			assert_true(i + 1 < g.n);
			assert_int_equal(g.s[i + 1].ip, 0x100c);
		}
	assert_int_equal(n, 1);
}

/* IPC from CYC packets: the first taken branch after a CYC takes its
 * cycles (the instructions since the start: xor, inc, cmp, jne); the next
 * branches have no new count; a branch not taken uses a CYC up (perf's
 * "non-taken branches are not sampled"), so the ret after it shows none,
 * and the call rbx's TIP after another CYC takes both CYCs' cycles */
static void test_ipc(void **state)
{
	(void)state;
	struct trace t;
	hwprof_pt_encoder_init(&t.enc, t.buf, sizeof(t.buf));
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_cyc(&t.enc, 10) > 0);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0x3, 2) > 0); /* T T */
	assert_true(hwprof_pt_encode_cyc(&t.enc, 6) > 0);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0x1, 2) > 0); /* N, ret T */
	assert_true(hwprof_pt_encode_cyc(&t.enc, 5) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1020); /* call rbx */
	t.len = hwprof_pt_encoder_offset(&t.enc);
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_true(hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000) >= 0);
	struct hwprof_pt_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, "b", false), 0);
	cfg.img = img;
	cfg.ipc = true;
	cfg.emit = emit;
	struct got g;
	memset(&g, 0, sizeof(g));
	cfg.ctx = &g;
	assert_int_equal(hwprof_pt_synth_queue(&cfg, t.buf, t.len), 0);
	hwprof_pt_image_free(img);
	size_t n = 0;
	for (size_t i = 0; i < g.n; i++) {
		if (!g.s[i].cyc_cnt)
			continue;
		if (n == 0) { /* the first jne: 4 instructions in 10 cycles */
			assert_int_equal(g.s[i].ip, 0x100a);
			assert_int_equal(g.s[i].cyc_cnt, 10);
			assert_int_equal(g.s[i].insn_cnt, 4);
		} else { /* call rbx: the loop's other two rounds, call,
			  * nop, ret, call rbx */
			assert_int_equal(g.s[i].ip, 0x1011);
			assert_int_equal(g.s[i].cyc_cnt, 6 + 5);
			assert_int_equal(g.s[i].insn_cnt, 3 + 3 + 1 + 2 + 1);
		}
		n++;
	}
	assert_int_equal(n, 2);
}

/* A trace of PSB+s with TSCs 100, 200, ..., each followed by a few TNTs. */
static size_t psb_run(uint8_t *buf, size_t cap, unsigned from, unsigned n)
{
	struct hwprof_pt_encoder enc;
	hwprof_pt_encoder_init(&enc, buf, cap);
	for (unsigned k = from; k < from + n; k++) {
		assert_true(hwprof_pt_encode_psb(&enc) > 0);
		struct hwprof_pt_packet p = { .type = HWPROF_PT_TSC, .payload = 100u * k };
		assert_true(hwprof_pt_encode(&enc, &p) > 0);
		p = (struct hwprof_pt_packet){ .type = HWPROF_PT_PSBEND };
		assert_true(hwprof_pt_encode(&enc, &p) > 0);
		for (unsigned i = 0; i < 5; i++)
			assert_true(hwprof_pt_encode_tnt(&enc, (k + i) & 7, 3) > 0);
	}
	return hwprof_pt_encoder_offset(&enc);
}

/* Snapshot buffers: b's new data starts where a ends (b continues a, found
 * by the TSCs or by the bytes), at b's first PSB when they do not overlap,
 * and b holds nothing new when a holds all of it */
static void test_find_overlap(void **state)
{
	(void)state;
	uint8_t t[4096];
	size_t len = psb_run(t, sizeof(t), 1, 12), per = len / 12;
	bool consec;
	/* a: PSB+s 1-8 from byte 5 on, b: 5-12 */
	const uint8_t *a = t + 5, *b = t + 4 * per;
	size_t la = 8 * per - 5, lb = len - 4 * per;
	for (int tsc = 0; tsc < 2; tsc++) {
		assert_int_equal(hwprof_pt_find_overlap(a, la, b, lb, tsc, &consec), 4 * per);
		assert_true(consec);
	}
	/* no overlap: b starts at its first PSB (here after 3 bytes) */
	assert_int_equal(hwprof_pt_find_overlap(t, 4 * per, t + 6 * per - 3, len - 6 * per + 3, true, &consec), 3);
	assert_false(consec);
	/* nothing new */
	assert_int_equal(hwprof_pt_find_overlap(t, len, t + per, 4 * per, true, &consec), 4 * per);
	/* no PSB in b */
	assert_int_equal(hwprof_pt_find_overlap(t, len, t + 1, per - 1, true, &consec), per - 1);
}

/* Three PSB+ with TSCs 1000, 2000 and 3000, each followed by the loop's
 * branches; the first and last segments end at code that is not there (an
 * error each), the middle one with a trace end. */
static void build_timed(struct trace *t)
{
	hwprof_pt_encoder_init(&t->enc, t->buf, sizeof(t->buf));
	for (int k = 1; k <= 3; k++) {
		assert_true(hwprof_pt_encode_psb(&t->enc) > 0);
		struct hwprof_pt_packet p = { .type = HWPROF_PT_TSC, .payload = 1000u * (unsigned)k };
		assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
		p = (struct hwprof_pt_packet){ .type = HWPROF_PT_MODE_EXEC, .payload = 64 };
		assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
		p = (struct hwprof_pt_packet){ .type = HWPROF_PT_PSBEND };
		assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
		ip(t, HWPROF_PT_TIP_PGE, 0x1000);
		assert_true(hwprof_pt_encode_tnt(&t->enc, 0xd, 4) > 0);
		ip(t, HWPROF_PT_TIP, k == 2 ? 0x1020 : 0x9000);
		if (k != 2) /* a walk from 0x9000 */
			assert_true(hwprof_pt_encode_tnt(&t->enc, 1, 1) > 0);
		p = (struct hwprof_pt_packet){ .type = HWPROF_PT_TIP_PGD };
		assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
	}
	t->len = hwprof_pt_encoder_offset(&t->enc);
}

static int run_ranges(const struct trace *t, const struct hwprof_pt_range *rg, size_t n, struct got *g)
{
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_true(hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000) >= 0);
	struct hwprof_pt_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, "be", false), 0);
	cfg.img = img;
	cfg.timed = true;
	cfg.flow.ref_tsc = 500; /* the buffer's: the first TSC needs it */
	cfg.emit = emit;
	cfg.ctx = g;
	cfg.ranges = rg;
	cfg.nranges = n;
	memset(g, 0, sizeof(*g));
	int rc = hwprof_pt_synth_queue(&cfg, t->buf, t->len);
	hwprof_pt_image_free(img);
	return rc;
}

/* --time: decoding starts at the last PSB before a range, states outside
 * make no samples, and the run ends after the last range */
static void test_time_ranges(void **state)
{
	(void)state;
	struct trace t;
	struct got g;
	build_timed(&t);
	struct hwprof_pt_range all = { 0, 0 };
	assert_int_equal(run_ranges(&t, &all, 1, &g), 0);
	size_t errors = 0, branches = 0;
	for (size_t i = 0; i < g.n; i++)
		errors += g.s[i].kind == HWPROF_PT_SAMPLE_ERROR;
	assert_int_equal(errors, 2);

	struct hwprof_pt_range mid = { 1500, 2500 };
	assert_int_equal(run_ranges(&t, &mid, 1, &g), 0);
	errors = 0;
	for (size_t i = 0; i < g.n; i++) {
		if (g.s[i].kind == HWPROF_PT_SAMPLE_ERROR) {
			errors++;
			continue;
		}
		branches++;
		assert_int_equal(g.s[i].tsc, 2000);
	}
	/* the run starts at the PSB of 1000 (its error comes: errors are not
	 * filtered) and ends in the third segment, before its error */
	assert_int_equal(errors, 1);
	assert_true(branches >= 4); /* trace begin, the loop, the call, ... */

	/* from 2500: the run starts at the PSB of 2000, whose states are
	 * before the range; the third segment's come with its error */
	struct hwprof_pt_range late = { 2500, 0 };
	assert_int_equal(run_ranges(&t, &late, 1, &g), 0);
	errors = 0;
	for (size_t i = 0; i < g.n; i++) {
		errors += g.s[i].kind == HWPROF_PT_SAMPLE_ERROR;
		if (g.s[i].kind != HWPROF_PT_SAMPLE_ERROR)
			assert_int_equal(g.s[i].tsc, 3000);
	}
	assert_int_equal(errors, 1);
	assert_true(g.n > 1);

	/* perf's TSC range for perf times: the least TSC at or after the
	 * start, the greatest at or before the end (a "negative" time_zero) */
	struct hwprof_pt_time_conv tc = { .time_shift = 10, .time_mult = 427, .time_zero = (uint64_t)-5000000 };
	struct hwprof_pt_range r = hwprof_pt_tsc_range(&tc, 123456789, 223456789);
	assert_true(hwprof_pt_tsc_to_perf_time(&tc, r.start) >= 123456789);
	assert_true(hwprof_pt_tsc_to_perf_time(&tc, r.start - 1) < 123456789);
	assert_true(hwprof_pt_tsc_to_perf_time(&tc, r.end) <= 223456789);
	assert_true(hwprof_pt_tsc_to_perf_time(&tc, r.end + 1) > 223456789);
	r = hwprof_pt_tsc_range(&tc, 0, 0);
	assert_true(r.start == 0 && r.end == 0);
}

/* x / w: samples we do not make yet stop the run when the trace has them */
static void test_unsupported_packets(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	hwprof_pt_encoder_init(&t.enc, t.buf, sizeof(t.buf));
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_PTWRITE, .payload = 0x1234 };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	t.len = hwprof_pt_encoder_offset(&t.enc);
	assert_int_equal(run("bw", &t, &g), -HWPROF_E_UNSUPPORTED);
	assert_int_equal(run("b", &t, &g), 0);
}

/* perf's thread stack: a call pushes its return address, a return pops
 * down to it, the trace begin pops what the trace end left */
static void test_thread_stack(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	with_stack = true;
	assert_int_equal(run("cr", &t, &g), 0);
	with_stack = false;
	/* tr strt, call 1020, ret, call rbx, ret, syscall (trace end) */
	static const uint32_t depth[] = { 0, 1, 0, 1, 0, 0 };
	assert_int_equal(g.n, 6);
	for (size_t i = 0; i < g.n; i++)
		assert_int_equal(g.s[i].depth, depth[i]);
}

/* perf's recovery (HWPROF_PT_FLOW_RESYNC_IP): after a mismatch the next
 * IP packet begins the trace again; a bad byte is reported and skipped */
static void test_resync_ip(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	hwprof_pt_encoder_init(&t.enc, t.buf, sizeof(t.buf));
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_PSBEND };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	ip(&t, HWPROF_PT_TIP, 0x1020);     /* the jne wants a TNT bit */
	size_t bad = hwprof_pt_encoder_offset(&t.enc);
	t.buf[bad] = 0x02;                 /* not a packet (then a PAD) */
	t.buf[bad + 1] = 0x00;
	t.enc.pos = bad + 2;
	ip(&t, HWPROF_PT_TIP, 0x1030);     /* resume here */
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_TIP_PGD };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	t.len = hwprof_pt_encoder_offset(&t.enc);

	/* the default: wait for a PSB (there is none) */
	assert_int_equal(run("be", &t, &g), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.s[1].kind, HWPROF_PT_SAMPLE_ERROR);

	flow_flags = HWPROF_PT_FLOW_RESYNC_IP;
	assert_int_equal(run("be", &t, &g), 0);
	flow_flags = 0;
	/* tr strt, mismatch at the jne, bad packet, tr strt at 1030, syscall
	 * leaving the trace */
	assert_int_equal(g.n, 5);
	assert_int_equal(g.s[1].kind, HWPROF_PT_SAMPLE_ERROR);
	assert_int_equal(g.s[1].code, HWPROF_PT_SERR_MISMAT);
	assert_int_equal(g.s[1].ip, 0x100a);
	assert_int_equal(g.s[2].kind, HWPROF_PT_SAMPLE_ERROR);
	assert_int_equal(g.s[2].code, HWPROF_PT_SERR_BADPKT);
	assert_int_equal(g.s[2].ip, 0x100a); /* perf: the IP it resumes from */
	assert_int_equal(g.s[3].kind, HWPROF_PT_SAMPLE_BRANCHES);
	assert_int_equal(g.s[3].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN);
	assert_int_equal(g.s[3].addr, 0x1030);
	assert_int_equal(g.s[4].ip, 0x1030);
	assert_true(g.s[4].flags & HWPROF_PT_FLAG_TRACE_END);
}

/* s<N>: the first N samples are dropped; a dropped instruction sample's
 * instructions count into the next one's period */
static void test_initial_skip(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i1is3", &t, &g), 0);
	assert_int_equal(g.n, NPATH - 3);
	assert_int_equal(g.s[0].ip, path[3]);
	assert_int_equal(g.s[0].period, 4);
	assert_int_equal(g.s[1].period, 1);
	assert_int_equal(run("bs2", &t, &g), 0);
	assert_int_equal(g.n, 7);
	assert_int_equal(g.s[0].ip, 0x100a);
}

/* g: instruction samples carry ip and the thread stack's return addresses */
static void test_callchain(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i1ig", &t, &g), 0);
	/* 1020 (nop) inside the first call: called from 100c, returns to 1011 */
	assert_int_equal(g.s[11].ip, 0x1020);
	assert_int_equal(g.s[11].nchain, 2);
	assert_int_equal(g.chain[11][0], 0x1020);
	assert_int_equal(g.chain[11][1], 0x1011);
	assert_int_equal(g.s[0].nchain, 1);
	assert_int_equal(run("i1ig1", &t, &g), 0);
	assert_int_equal(g.s[11].nchain, 1);
}

/* G and L: a stack the caller keeps (a thread's) holds the calls and the
 * ring after the run stops; the chain and branch stack perf gives a late
 * sample of the file come from it */
static void test_thread_stack_late(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	struct hwprof_pt_tstack *ts = hwprof_pt_tstack_new();
	assert_non_null(ts);
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_true(hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000) >= 0);
	struct hwprof_pt_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(hwprof_itrace_opts_parse(&cfg.itrace, "i1iGL3", false), 0);
	cfg.img = img;
	cfg.tstack = &ts;
	cfg.trace_nr = 1;
	cfg.ring_cap = 4;
	cfg.emit = emit;
	cfg.ctx = &g;
	g.stop_after = 12; /* at 1020, inside the call from 100c */
	assert_int_equal(hwprof_pt_synth_queue(&cfg, t.buf, t.len), 7);
	uint64_t out[3 * 8];
	/* the return address, in user space; kernel addresses on top
	 * (none here) would be skipped */
	assert_int_equal(hwprof_pt_tstack_chain_late(ts, 0x1020, 17, 1ULL << 63, out), 2);
	assert_int_equal(out[0], HWPROF_CONTEXT_USER);
	assert_int_equal(out[1], 0x1011);
	/* before perf's decoder first runs, everything is kernel to it:
	 * the return address is skipped, the sample alone remains */
	assert_int_equal(hwprof_pt_tstack_chain_late(ts, 0x1020, 17, 0, out), 2);
	assert_int_equal(out[0], HWPROF_CONTEXT_KERNEL);
	assert_int_equal(out[1], 0x1020);
	/* no stack: the sample's context and ip */
	assert_int_equal(hwprof_pt_tstack_chain_late(NULL, 0xffffffff81000000ULL, 17, 1ULL << 63, out), 2);
	assert_int_equal(out[0], HWPROF_CONTEXT_KERNEL);
	/* the ring (4 entries) newest first: the call, two loop branches,
	 * the trace begin; L takes at most sz of them */
	assert_int_equal(hwprof_pt_tstack_branches_late(ts, 0x1020, 8, 1ULL << 63, out), 4);
	assert_int_equal(out[0], 0x100c);
	assert_int_equal(out[1], 0x1020);
	assert_int_equal(out[2], 0x100a);
	assert_int_equal(out[3], 0x1003);
	assert_int_equal(out[6], 0);
	assert_int_equal(out[7], 0x1000);
	assert_int_equal(hwprof_pt_tstack_branches_late(ts, 0x1020, 2, 1ULL << 63, out), 2);
	/* a run of another queue (trace number) empties the stack first */
	cfg.trace_nr = 2;
	g.n = 0;
	g.stop_after = 2; /* at 1003: after the trace begin */
	assert_int_equal(hwprof_pt_synth_queue(&cfg, t.buf, t.len), 7);
	assert_int_equal(hwprof_pt_tstack_branches_late(ts, 0x1003, 8, 1ULL << 63, out), 1);
	/* no thread (*tstack NULL): the run keeps no stack, so a g chain
	 * inside the call is the sampled ip alone */
	struct hwprof_pt_tstack *none = NULL;
	cfg.tstack = &none;
	cfg.itrace.callchain = true;
	g.n = 0;
	g.stop_after = 0;
	assert_int_equal(hwprof_pt_synth_queue(&cfg, t.buf, t.len), 0);
	assert_int_equal(g.s[11].ip, 0x1020);
	assert_int_equal(g.s[11].nchain, 1);
	hwprof_pt_tstack_free(ts);
	hwprof_pt_image_free(img);
}

static void test_kinds(void **state)
{
	(void)state;
	struct hwprof_itrace_opts o;
	unsigned kinds;
	const char *what;
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "bi10ie", false), 0);
	assert_int_equal(hwprof_pt_synth_kinds(&o, &kinds, &what), 0);
	assert_int_equal(kinds, 1u << HWPROF_PT_SAMPLE_INSTRUCTIONS | 1u << HWPROF_PT_SAMPLE_BRANCHES |
					1u << HWPROF_PT_SAMPLE_ERROR);
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "bZ", false), 0); /* timeless: the caller's */
	assert_int_equal(hwprof_pt_synth_kinds(&o, &kinds, &what), 0);
	static const char *const taken[] = { "G", "i10us", "i5t", "i3ms" };
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		memset(&o, 0, sizeof(o));
		assert_int_equal(hwprof_itrace_opts_parse(&o, taken[i], false), 0);
		assert_int_equal(hwprof_pt_synth_kinds(&o, &kinds, &what), 0);
	}
	/* a later --itrace without a period puts perf's default back on the
	 * instructions an earlier one asked for */
	memset(&o, 0, sizeof(o));
	assert_int_equal(hwprof_itrace_opts_parse(&o, "i100i", false), 0);
	assert_int_equal(hwprof_itrace_opts_parse(&o, "b", false), 0);
	assert_true(o.instructions && o.branches);
	assert_int_equal(o.period_type, HWPROF_ITRACE_PERIOD_NANOSECS);
	assert_int_equal(o.period, HWPROF_ITRACE_DEFAULT_PERIOD);
	/* the log and error flags make no samples of their own */
	static const char *const none[] = { "d", "d-a", "e-o-l" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		memset(&o, 0, sizeof(o));
		assert_int_equal(hwprof_itrace_opts_parse(&o, none[i], false), 0);
		assert_int_equal(hwprof_pt_synth_kinds(&o, &kinds, &what), 0);
		assert_int_equal(kinds & ~(1u << HWPROF_PT_SAMPLE_ERROR), 0);
	}
	assert_int_equal(hwprof_pt_iclass_flags(HWPROF_PT_IC_OTHER), 0);
	assert_int_equal(hwprof_pt_iclass_flags(HWPROF_PT_IC_IRET),
			 HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_INTERRUPT);
	assert_int_equal(hwprof_pt_synth_queue(NULL, NULL, 0), -HWPROF_E_INVAL);
}

/* l3: each instruction sample carries the newest 3 taken branches
 * (trace begin included), kept across samples; branch samples none */
static void test_last_branch(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i1il3", &t, &g), 0);
	assert_int_equal(g.n, NPATH);
	/* 1000: the trace begin only; 100a: its own branch not yet */
	assert_int_equal(g.s[0].nbr, 1);
	assert_int_equal(g.br[0][0], 0);
	assert_int_equal(g.br[0][1], 0x1000);
	assert_int_equal(g.s[3].nbr, 1);
	/* 1003 after the first jne: newest first */
	assert_int_equal(g.s[4].nbr, 2);
	assert_int_equal(g.br[4][0], 0x100a);
	assert_int_equal(g.br[4][1], 0x1003);
	assert_int_equal(g.br[4][3], 0x1000);
	/* 1020 after the call: at most 3, the begin has dropped out */
	assert_int_equal(path[11], 0x1020);
	assert_int_equal(g.s[11].nbr, 3);
	static const uint64_t want[6] = { 0x100c, 0x1020, 0x100a, 0x1003, 0x100a, 0x1003 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(g.br[11][i], want[i]);
	/* the default size holds all 9 of this trace */
	assert_int_equal(run("i1il", &t, &g), 0);
	assert_int_equal(g.s[NPATH - 1].nbr, 8);
	assert_int_equal(run("bl", &t, &g), 0);
	for (size_t i = 0; i < g.n; i++)
		assert_int_equal(g.s[i].nbr, 0);
}

/* q: no code walked, TNT ignored; an instruction sample (period 1) at
 * the trace begin's address and at each TIP's target; qq: PSB+ only */
static void test_quick(void **state)
{
	(void)state;
	struct trace t;
	struct got g = { 0 };
	build(&t);
	assert_int_equal(run("i1iq", &t, &g), 0);
	static const uint64_t want[] = { 0x1000, 0x1020, 0x1030 };
	assert_int_equal(g.n, 3);
	for (size_t i = 0; i < g.n; i++) {
		assert_int_equal(g.s[i].kind, HWPROF_PT_SAMPLE_INSTRUCTIONS);
		assert_int_equal(g.s[i].ip, want[i]);
		assert_int_equal(g.s[i].period, 1);
		assert_int_equal(g.s[i].flags, 0);
	}
	assert_int_equal(run("i100iq", &t, &g), 0); /* the period is not used */
	assert_int_equal(g.n, 3);
	assert_int_equal(run("bq", &t, &g), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.s[0].ip, 0);
	assert_int_equal(g.s[0].addr, 0x1000);
	assert_int_equal(g.s[0].flags, HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN);
	assert_int_equal(run("ibqq", &t, &g), 0); /* no FUP in the PSB+ */
	assert_int_equal(g.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_instruction),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_period_ticks),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_last_branch),
		cmocka_unit_test(test_quick),
		cmocka_unit_test(test_both_and_stop),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_psb_cbr),
		cmocka_unit_test(test_unsupported_packets),
		cmocka_unit_test(test_thread_stack),
		cmocka_unit_test(test_resync_ip),
		cmocka_unit_test(test_initial_skip),
		cmocka_unit_test(test_callchain),
		cmocka_unit_test(test_thread_stack_late),
		cmocka_unit_test(test_time_ranges),
		cmocka_unit_test(test_ipc),
		cmocka_unit_test(test_find_overlap),
		cmocka_unit_test(test_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
