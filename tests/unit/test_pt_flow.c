/* Intel PT flow decoder on hand-built packet sequences over a tiny
 * hand-assembled code buffer: TNT loops, direct/indirect calls, compressed
 * and uncompressed returns, FUP async events, OVF recovery, PSB resync after
 * bad packets, inconsistent traces, code fetch failures, timing; plus the
 * code image (overlaps, gaps, ELF) and instruction classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/intel_pt_flow.h"
#include "intel_pt/pt_flow_int.h"

/* Code at 0x1000 (each line: address, bytes, instruction). */
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
#define BASE 0x1000

/* 32-bit code at 0x2000 */
static const uint8_t code32[] = {
	/* 2000 */ 0xe8, 0x05, 0x00, 0x00, 0x00,    /* call 200a        */
	/* 2005 */ 0xff, 0xe0,                      /* jmp eax          */
	/* 2007 */ 0x90, 0x90, 0x90,                /* nop x3           */
	/* 200a */ 0xc3,                            /* ret              */
};

struct trace {
	uint8_t buf[4096];
	struct hwprof_pt_encoder enc;
};

static void t_init(struct trace *t)
{
	hwprof_pt_encoder_init(&t->enc, t->buf, sizeof(t->buf));
}

static void pkt(struct trace *t, enum hwprof_pt_type type, uint64_t payload)
{
	struct hwprof_pt_packet p = { .type = (uint8_t)type, .payload = payload };
	assert_true(hwprof_pt_encode(&t->enc, &p) > 0);
}

static void psb_plus(struct trace *t, int fup, uint64_t ip)
{
	assert_true(hwprof_pt_encode_psb(&t->enc) > 0);
	pkt(t, HWPROF_PT_MODE_EXEC, 64);
	if (fup)
		assert_true(hwprof_pt_encode_ip(&t->enc, HWPROF_PT_FUP, ip) > 0);
	pkt(t, HWPROF_PT_PSBEND, 0);
}

static void ip(struct trace *t, enum hwprof_pt_type type, uint64_t a)
{
	assert_true(hwprof_pt_encode_ip(&t->enc, type, a) > 0);
}

static void pgd_noip(struct trace *t)
{
	pkt(t, HWPROF_PT_TIP_PGD, 0);
}

/* Decoded output, flattened: instruction addresses and other events. */
struct out {
	uint64_t insn[256];
	size_t ninsn;
	struct hwprof_pt_event ev[64];   /* non-block events */
	size_t nev;
	struct hwprof_pt_event blk[64];
	size_t nblk;
};

static void decode(const struct trace *t, const struct hwprof_pt_flow_config *cfg,
		   struct out *o)
{
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, code, sizeof(code), BASE), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, code32, sizeof(code32), 0x2000), 0);
	struct hwprof_pt_flow *f;
	assert_int_equal(hwprof_pt_flow_new(&f, t->buf, hwprof_pt_encoder_offset(&t->enc), img,
					    cfg), 0);
	memset(o, 0, sizeof(*o));
	struct hwprof_pt_event ev;
	int r, guard = 0;
	while ((r = hwprof_pt_flow_next(f, &ev)) == 1 && guard++ < 1000) {
		if (ev.type == HWPROF_PT_EV_BLOCK) {
			uint64_t a = ev.ip;
			for (uint32_t i = 0; i < ev.ninsn; i++) {
				assert_true(o->ninsn < 256);
				o->insn[o->ninsn++] = a;
				a += ev.ilen[i];
			}
			if (o->nblk < 64)
				o->blk[o->nblk++] = ev;
		} else if (o->nev < 64) {
			o->ev[o->nev++] = ev;
		}
	}
	assert_int_equal(r, 0);
	hwprof_pt_flow_free(f);
	hwprof_pt_image_free(img);
}

static void expect_insns(const struct out *o, const uint64_t *want, size_t n)
{
	for (size_t i = 0; i < n && i < o->ninsn; i++)
		if (o->insn[i] != want[i])
			fail_msg("insn %zu: got %#llx want %#llx", i, (unsigned long long)o->insn[i],
				 (unsigned long long)want[i]);
	assert_int_equal(o->ninsn, n);
}

static const struct hwprof_pt_event *find_ev(const struct out *o, unsigned type, size_t nth)
{
	for (size_t i = 0; i < o->nev; i++)
		if (o->ev[i].type == type && !nth--)
			return &o->ev[i];
	return NULL;
}

/* loop x3 (T T N), call 1020 / ret compressed, call rbx -> 1020 (TIP) / ret
 * compressed, jmp rax -> 1030 (TIP), syscall -> TIP.PGD */
static const uint64_t main_path[] = {
	0x1000, 0x1003, 0x1006, 0x100a, 0x1003, 0x1006, 0x100a, 0x1003, 0x1006, 0x100a,
	0x100c, 0x1020, 0x1021, 0x1011, 0x1020, 0x1021, 0x1013, 0x1030,
};

static void test_tnt_tip_retcomp(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0xd, 4) > 0); /* T T N, ret T */
	ip(&t, HWPROF_PT_TIP, 0x1020);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 1, 1) > 0);   /* ret T */
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	expect_insns(&o, main_path, sizeof(main_path) / 8);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ENABLE, 0);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1000);
	assert_int_equal(e->flags & HWPROF_PT_EVF_STATUS, 0);
	e = find_ev(&o, HWPROF_PT_EV_DISABLE, 0);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1032);
	assert_null(find_ev(&o, HWPROF_PT_EV_ERROR, 0));
	/* the block ending in the first ret says it was compressed */
	int seen = 0;
	for (size_t i = 0; i < o.nblk; i++)
		if (o.blk[i].iclass == HWPROF_PT_IC_RET && o.blk[i].to == 0x1011) {
			assert_true(o.blk[i].flags & HWPROF_PT_EVF_COMPRESSED);
			seen = 1;
		}
	assert_true(seen);
	/* the last block ends at the syscall, taken to an unknown address */
	assert_int_equal(o.blk[o.nblk - 1].end_ip, 0x1030);
	assert_int_equal(o.blk[o.nblk - 1].iclass, HWPROF_PT_IC_SYSCALL);
}

/* hwprof_pt_flow_skip(): blocks within the budget come as one EV_SKIP
 * with their instruction count and the last one's end; the walk is the
 * same (the same instructions, the ends of the blocks between events) */
static void test_skip(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0xd, 4) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1020);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 1, 1) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, code, sizeof(code), BASE), 0);
	uint64_t ref[32];
	size_t nref = 0;
	static const uint64_t budgets[] = { 0, 1, 3, 7, UINT64_MAX };
	for (size_t k = 0; k < sizeof(budgets) / sizeof(budgets[0]); k++) {
		uint64_t budget = budgets[k], total = 0, ends[32];
		size_t nend = 0, nskip = 0, at = 0;
		struct hwprof_pt_flow *f;
		assert_int_equal(hwprof_pt_flow_new(&f, t.buf, hwprof_pt_encoder_offset(&t.enc), img, NULL), 0);
		const struct hwprof_pt_event *e;
		while (hwprof_pt_flow_next_ref(f, &e) == 1) {
			if (e->type == HWPROF_PT_EV_BLOCK || e->type == HWPROF_PT_EV_SKIP) {
				total += e->ninsn;
				assert_true(nend < 32);
				ends[nend++] = e->end_ip;
			}
			if (e->type == HWPROF_PT_EV_SKIP) {
				nskip++;
				assert_true(e->ninsn <= budget);
			}
			hwprof_pt_flow_skip(f, budget);
		}
		hwprof_pt_flow_free(f);
		assert_int_equal(total, sizeof(main_path) / 8);
		if (!budget) {
			assert_int_equal(nskip, 0);
			memcpy(ref, ends, nend * sizeof(*ends));
			nref = nend;
			continue;
		}
		/* the ends seen are the walk's block ends, in order, the last too */
		for (size_t i = 0; i < nend; i++) {
			while (at < nref && ref[at] != ends[i])
				at++;
			assert_true(at < nref);
		}
		assert_int_equal(ends[nend - 1], ref[nref - 1]);
		if (budget >= 3)
			assert_true(nskip > 0 && nend < nref);
	}
	hwprof_pt_image_free(img);
}

/* Deferred TIPs: the indirect call's and jump's TIPs come after the TNT
 * that holds branches executed after them. */
static void test_deferred_tip(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0x1b, 5) > 0); /* T T N T(ret) T(ret) */
	ip(&t, HWPROF_PT_TIP, 0x1020);   /* call rbx */
	ip(&t, HWPROF_PT_TIP, 0x1030);   /* jmp rax */
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	expect_insns(&o, main_path, sizeof(main_path) / 8);
	assert_null(find_ev(&o, HWPROF_PT_EV_ERROR, 0));
}

static void test_noretcomp(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0x6, 3) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1011);   /* ret */
	ip(&t, HWPROF_PT_TIP, 0x1020);   /* call rbx */
	ip(&t, HWPROF_PT_TIP, 0x1013);   /* ret */
	ip(&t, HWPROF_PT_TIP, 0x1030);   /* jmp rax */
	pgd_noip(&t);
	struct hwprof_pt_flow_config cfg = { .flags = HWPROF_PT_FLOW_NORETCOMP };
	struct out o;
	decode(&t, &cfg, &o);
	expect_insns(&o, main_path, sizeof(main_path) / 8);
	/* the same trace without the flag decodes the same: a TIP always wins */
	decode(&t, NULL, &o);
	expect_insns(&o, main_path, sizeof(main_path) / 8);
}

/* A compressed return with nothing on the stack: error, then resync at the
 * next PSB whose FUP says where execution is. */
static void test_ret_empty_stack_resync(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 1, 0x1020);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 1, 1) > 0); /* ret "compressed" */
	size_t psb2 = hwprof_pt_encoder_offset(&t.enc);
	psb_plus(&t, 1, 0x1020);
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ERROR, 0);
	assert_non_null(e);
	assert_int_equal(e->count, HWPROF_PT_ERR_RET);
	assert_true(e->offset < psb2);
	/* first pass: nop only (the ret failed); after resync: nop, ret, syscall */
	static const uint64_t want[] = { 0x1020, 0x1020, 0x1021, 0x1030 };
	expect_insns(&o, want, 4);
	e = find_ev(&o, HWPROF_PT_EV_ENABLE, 1);
	assert_non_null(e);
	assert_true(e->flags & HWPROF_PT_EVF_STATUS);
}

/* FUP + TIP: an interrupt before the instruction at 0x1006. */
static void test_fup_async(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	ip(&t, HWPROF_PT_FUP, 0x1006);
	ip(&t, HWPROF_PT_TIP, 0x1020);
	ip(&t, HWPROF_PT_TIP, 0x1030);   /* ret: nothing on the stack */
	ip(&t, HWPROF_PT_FUP, 0x1030);   /* then a fault at the syscall */
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	static const uint64_t want[] = { 0x1000, 0x1003, 0x1020, 0x1021 };
	expect_insns(&o, want, 4);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ASYNC, 0);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1006);
	assert_int_equal(e->to, 0x1020);
	e = find_ev(&o, HWPROF_PT_EV_DISABLE, 0);
	assert_non_null(e);
	assert_true(e->flags & HWPROF_PT_EVF_ASYNC);
	assert_int_equal(e->ip, 0x1030);
	assert_null(find_ev(&o, HWPROF_PT_EV_ERROR, 0));
}

/* OVF: packets lost; tracing resumes at the FUP that follows. */
static void test_ovf(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	pkt(&t, HWPROF_PT_OVF, 0);
	ip(&t, HWPROF_PT_FUP, 0x1020);
	ip(&t, HWPROF_PT_TIP, 0x1030);   /* the ret after the nop */
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	assert_non_null(find_ev(&o, HWPROF_PT_EV_OVF, 0));
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ENABLE, 1);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1020);
	assert_true(e->flags & HWPROF_PT_EVF_STATUS);
	assert_null(find_ev(&o, HWPROF_PT_EV_ASYNC, 0)); /* the FUP is no interrupt */
	/* before the OVF the walk reached the jne without a TNT */
	static const uint64_t want[] = { 0x1020, 0x1021, 0x1030 };
	expect_insns(&o, want, 3);
}

/* A bad packet: error naming its offset, then the next PSB+ resumes. */
static void test_bad_packet_resync(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1020);
	size_t bad = hwprof_pt_encoder_offset(&t.enc);
	t.buf[t.enc.pos++] = 0x02;   /* extended opcode 02 ff: no such packet */
	t.buf[t.enc.pos++] = 0xff;
	psb_plus(&t, 1, 0x1020);
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ERROR, 0);
	assert_non_null(e);
	assert_int_equal(e->count, HWPROF_PT_ERR_PACKET);
	assert_int_equal(e->offset, bad);
	/* the look-ahead for a FUP failed before the walk: nothing before it */
	static const uint64_t want[] = { 0x1020, 0x1021, 0x1030 };
	expect_insns(&o, want, 3);
}

/* A conditional branch meets a TIP: inconsistent trace. Code that is not in
 * the image: fetch error. Both resume at the next PSB. */
static void test_inconsistent_and_nocode(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	ip(&t, HWPROF_PT_TIP, 0x1030);
	psb_plus(&t, 1, 0x5000);
	psb_plus(&t, 1, 0x1030);
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ERROR, 0);
	assert_non_null(e);
	assert_int_equal(e->count, HWPROF_PT_ERR_TNT);
	e = find_ev(&o, HWPROF_PT_EV_ERROR, 1);
	assert_non_null(e);
	assert_int_equal(e->count, HWPROF_PT_ERR_NOCODE);
	assert_int_equal(e->ip, 0x5000);
	static const uint64_t want[] = { 0x1000, 0x1003, 0x1006, 0x1030 };
	expect_insns(&o, want, 4);
}

/* perf's recovery from code it cannot get (RESYNC_IP): the IP and last IP
 * are forgotten, so a compressed IP is skipped and the next full one is
 * where the trace begins again (not the next PSB). */
static void test_nocode_full_ip(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x9000);  /* no code there */
	assert_true(hwprof_pt_encode_tnt(&t.enc, 1, 1) > 0);
	struct hwprof_pt_packet p = { .type = HWPROF_PT_TIP, .payload = 0x1020, .count = 1 };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0); /* 16 bits: no last IP to add them to */
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_TIP, .payload = 0x1030, .count = 6 };
	assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	pgd_noip(&t);
	struct hwprof_pt_flow_config cfg = { .flags = HWPROF_PT_FLOW_RESYNC_IP };
	struct out o;
	decode(&t, &cfg, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ERROR, 0);
	assert_non_null(e);
	assert_int_equal(e->count, HWPROF_PT_ERR_NOCODE);
	assert_int_equal(e->ip, 0x9000);
	assert_null(find_ev(&o, HWPROF_PT_EV_ERROR, 1));
	e = find_ev(&o, HWPROF_PT_EV_ENABLE, 1);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1030);
	static const uint64_t want[] = { 0x1030 };
	expect_insns(&o, want, 1);
}

/* A mapping whose file cannot be opened: no bytes, and perf's count of the
 * failures reported there (twice, then no more; no map: every time). */
static void test_image_missing(void **state)
{
	(void)state;
	struct hwprof_pt_image *img;
	uint8_t buf[4];
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_file(img, "/nonexistent/lib.so", 0, 0x1000, 0x4000), -HWPROF_E_IO);
	assert_int_equal(hwprof_pt_image_add_missing(img, "[kernel.kallsyms]", 0x1000, 0x8000), 0);
	assert_int_equal(hwprof_pt_image_count(img), 2);
	assert_int_equal(hwprof_pt_image_read(img, 0x4000, buf, 4), -HWPROF_E_NOENT);
	for (int i = 0; i < 2; i++) {
		assert_true(ipt_image_nocode_report(img, 0x4010));
		assert_true(ipt_image_nocode_report(img, 0x8fff));
	}
	assert_false(ipt_image_nocode_report(img, 0x4020));
	assert_false(ipt_image_nocode_report(img, 0x8000));
	for (int i = 0; i < 3; i++)
		assert_true(ipt_image_nocode_report(img, 0x6000));
	/* a clone keeps the counts */
	struct hwprof_pt_image *c;
	assert_int_equal(hwprof_pt_image_clone(&c, img), 0);
	assert_false(ipt_image_nocode_report(c, 0x4000));
	hwprof_pt_image_free(c);
	hwprof_pt_image_free(img);
}

/* Processes' images (hwprof_pt_image_fork): sections apart, files and
 * their read failures shared; the block cache decodes again only what a
 * change touched, and the lengths it gave before stay readable. */
static void test_image_fork(void **state)
{
	(void)state;
	static const uint8_t other[] = { 0x90, 0x90, 0xc3 }; /* nop; nop; ret */
	static const uint8_t ret[] = { 0xc3 };
	struct hwprof_pt_image *img, *f;
	uint8_t b1, b2;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000), 0);
	assert_int_equal(hwprof_pt_image_add_missing(img, "/lost.so", 0x1000, 0x4000), 0);
	assert_int_equal(hwprof_pt_image_fork(&f, img), 0);
	assert_int_equal(hwprof_pt_image_add_buf(f, other, sizeof(other), 0x1000), 0);
	assert_int_equal(hwprof_pt_image_read(img, 0x1000, &b1, 1), 1);
	assert_int_equal(hwprof_pt_image_read(f, 0x1000, &b2, 1), 1);
	assert_int_equal(b1, code[0]);
	assert_int_equal(b2, other[0]);
	assert_true(ipt_image_nocode_report(img, 0x4000));
	assert_true(ipt_image_nocode_report(img, 0x4000));
	assert_false(ipt_image_nocode_report(f, 0x4800)); /* the same file */
	/* the kernel's blocks: decoded in the first image's cache */
	assert_ptr_equal(ipt_image_for(f, 0xffffffff81000000ULL), img);
	assert_ptr_equal(ipt_image_for(f, 0x1000), f);
	assert_ptr_equal(ipt_image_for(img, 0xffffffff81000000ULL), img);

	struct ipt_bcache *c = ipt_image_cache(img);
	const struct ipt_block *b;
	assert_int_equal(ipt_bcache_get(c, img, 0x1000, 64, &b), 0);
	const uint8_t *lens = ipt_bcache_lens(c, b);
	uint32_t n = b->ninsn;
	assert_int_equal(n, 4); /* xor, inc, cmp, jne */
	assert_int_equal(ipt_bcache_get(c, img, 0x1020, 64, &b), 0);
	uint64_t decoded = c->decoded;
	/* a ret over the inc: the block there is decoded again, not 0x1020's */
	assert_int_equal(hwprof_pt_image_add_buf(img, ret, sizeof(ret), 0x1003), 0);
	assert_int_equal(ipt_bcache_get(c, img, 0x1020, 64, &b), 0);
	assert_int_equal(c->decoded, decoded);
	assert_int_equal(ipt_bcache_get(c, img, 0x1000, 64, &b), 0);
	assert_int_equal(c->decoded, decoded + 1);
	assert_int_equal(b->ninsn, 2); /* xor, ret */
	assert_int_equal(lens[0], 3);  /* the old block's lengths, still there */
	assert_int_equal(lens[n - 1], 2);
	hwprof_pt_image_free(img); /* the fork keeps it (and the files) */
	assert_int_equal(hwprof_pt_image_read(f, 0x1000, &b2, 1), 1);
	hwprof_pt_image_free(f);
}

/* A new trace starting with a PSB+ at TSC 100000, CTC 0x1230, FastCounter 4. */
static void timed_psb(struct trace *t)
{
	t_init(t);
	assert_true(hwprof_pt_encode_psb(&t->enc) > 0);
	assert_true(hwprof_pt_encode_tsc(&t->enc, 100000) > 0);
	assert_true(hwprof_pt_encode_tma(&t->enc, 0x1230, 4) > 0);
	pkt(t, HWPROF_PT_MODE_EXEC, 64);
	pkt(t, HWPROF_PT_PSBEND, 0);
}

/* Timing: TSC, TMA, then MTCs advance the TSC by CTC * n / d; CYC counts. */
static void test_timing(void **state)
{
	(void)state;
	struct trace t;
	timed_psb(&t);
	/* mtc_freq 3: MTC payload = CTC >> 3; 0x1230 >> 3 = 0x246 -> 0x46 */
	assert_true(hwprof_pt_encode_mtc(&t.enc, 0x47) > 0);    /* CTC + 8 */
	ip(&t, HWPROF_PT_TIP_PGE, 0x1020);
	assert_true(hwprof_pt_encode_cyc(&t.enc, 7) > 0);
	assert_true(hwprof_pt_encode_mtc(&t.enc, 0x48) > 0);    /* CTC + 16 */
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	/* perf takes a first TSC only with the buffer's reference TSC */
	struct hwprof_pt_flow_config cfg = { .mtc_freq = 3, .tsc_ctc_n = 10, .tsc_ctc_d = 2,
					     .time_conv = { .time_shift = 1, .time_mult = 1,
							    .time_zero = 1000 },
					     .ref_tsc = 99000 };
	struct out o;
	decode(&t, &cfg, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_ENABLE, 0);
	assert_non_null(e);
	/* TSC at the CTC edge = 100000 - 4; + 8 CTC * 5 */
	assert_int_equal(e->tsc, 100000 - 4 + 40);
	assert_int_equal(e->time, 1000 + (100000 - 4 + 40) / 2);
	e = find_ev(&o, HWPROF_PT_EV_DISABLE, 0);
	assert_non_null(e);
	assert_int_equal(e->tsc, 100000 - 4 + 80);
	assert_int_equal(e->cyc, 7);

	/* CYC between MTCs: an MTC after a CYC looks ahead to the next MTC
	 * after a CYC for TSC ticks per cycle (40 ticks / 20 cycles = 2), and
	 * later CYCs move the time by it */
	timed_psb(&t);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1020);
	assert_true(hwprof_pt_encode_cyc(&t.enc, 10) > 0);
	assert_true(hwprof_pt_encode_mtc(&t.enc, 0x47) > 0);    /* 100036 */
	assert_true(hwprof_pt_encode_cyc(&t.enc, 5) > 0);       /* + 5 * 2 */
	ip(&t, HWPROF_PT_TIP, 0x1030);
	assert_true(hwprof_pt_encode_cyc(&t.enc, 15) > 0);
	assert_true(hwprof_pt_encode_mtc(&t.enc, 0x48) > 0);    /* 100076 */
	pgd_noip(&t);
	decode(&t, &cfg, &o);
	assert_true(o.nblk > 0);
	assert_int_equal(o.blk[0].tsc, 100046);
	e = find_ev(&o, HWPROF_PT_EV_DISABLE, 0);
	assert_non_null(e);
	assert_int_equal(e->tsc, 100076);
	assert_int_equal(e->cyc, 30);

	struct hwprof_pt_time_conv tc = { .time_shift = 10, .time_mult = 1 << 9, .time_zero = 5 };
	assert_int_equal(hwprof_pt_tsc_to_perf_time(&tc, 1000), 5 + 500);
	assert_int_equal(hwprof_pt_tsc_to_perf_time(&tc, 1ULL << 50), 5 + (1ULL << 49));
	assert_int_equal(hwprof_pt_tsc_to_perf_time(NULL, 77), 77);
}

/* Events other than flow: MODE.TSX bound to its FUP, PTWRITE, CBR. */
static void test_side_events(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1020);
	pkt(&t, HWPROF_PT_CBR, 0x2a);
	pkt(&t, HWPROF_PT_MODE_TSX, 1);
	ip(&t, HWPROF_PT_FUP, 0x1021);
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_MODE_TSX, 0);
	assert_non_null(e);
	assert_int_equal(e->ip, 0x1021);
	assert_int_equal(e->payload, 1);
	e = find_ev(&o, HWPROF_PT_EV_CBR, 0);
	assert_non_null(e);
	assert_int_equal(e->payload, 0x2a);
	assert_null(find_ev(&o, HWPROF_PT_EV_ASYNC, 0));
	static const uint64_t want[] = { 0x1020, 0x1021, 0x1030 };
	expect_insns(&o, want, 3);
}

/* MODE.Exec: 32-bit code, then a far return into 64-bit code. */
static void test_mode_exec(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	assert_true(hwprof_pt_encode_psb(&t.enc) > 0);
	pkt(&t, HWPROF_PT_MODE_EXEC, 32);
	pkt(&t, HWPROF_PT_PSBEND, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x2000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 1, 1) > 0);   /* ret compressed */
	ip(&t, HWPROF_PT_TIP, 0x2007);                          /* jmp eax */
	pkt(&t, HWPROF_PT_MODE_EXEC, 64);                       /* applies at the TIP */
	ip(&t, HWPROF_PT_TIP, 0x1030);                          /* ret, nothing pushed */
	pgd_noip(&t);
	struct out o;
	decode(&t, NULL, &o);
	static const uint64_t want[] = { 0x2000, 0x200a, 0x2005, 0x2007, 0x2008, 0x2009,
					 0x200a, 0x1030 };
	expect_insns(&o, want, 8);
	assert_int_equal(o.blk[0].mode, 32);
	assert_int_equal(o.blk[o.nblk - 1].mode, 64);
	const struct hwprof_pt_event *e = find_ev(&o, HWPROF_PT_EV_MODE_EXEC, 0);
	assert_non_null(e);
	assert_int_equal(e->payload, 32);
	e = find_ev(&o, HWPROF_PT_EV_MODE_EXEC, 1);
	assert_non_null(e);
	assert_int_equal(e->payload, 64);
	assert_null(find_ev(&o, HWPROF_PT_EV_ERROR, 0));
}

/* Many side events between two branches: none is lost, nor any block. */
static void test_many_side_events(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1020);
	for (int i = 0; i < 200; i++) {
		struct hwprof_pt_packet p = { .type = HWPROF_PT_PTWRITE, .payload = (uint64_t)i,
					      .count = 1 };
		assert_true(hwprof_pt_encode(&t.enc, &p) > 0);
	}
	ip(&t, HWPROF_PT_TIP, 0x1030);
	pgd_noip(&t);
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, code, sizeof(code), BASE), 0);
	struct hwprof_pt_flow *f;
	assert_int_equal(hwprof_pt_flow_new(&f, t.buf, hwprof_pt_encoder_offset(&t.enc), img,
					    NULL), 0);
	struct hwprof_pt_event ev;
	unsigned ptw = 0, insns = 0;
	while (hwprof_pt_flow_next(f, &ev) == 1) {
		if (ev.type == HWPROF_PT_EV_PTWRITE)
			assert_int_equal(ev.payload, ptw++);
		if (ev.type == HWPROF_PT_EV_BLOCK)
			insns += ev.ninsn;
		assert_int_not_equal(ev.type, HWPROF_PT_EV_ERROR);
	}
	assert_int_equal(ptw, 200);
	assert_int_equal(insns, 3);
	hwprof_pt_flow_free(f);
	hwprof_pt_image_free(img);
}

/* Truncated and random traces never crash or loop. */
static void test_robust(void **state)
{
	(void)state;
	struct trace t;
	t_init(&t);
	psb_plus(&t, 0, 0);
	ip(&t, HWPROF_PT_TIP_PGE, 0x1000);
	assert_true(hwprof_pt_encode_tnt(&t.enc, 0xd, 4) > 0);
	ip(&t, HWPROF_PT_TIP, 0x1020);
	size_t full = hwprof_pt_encoder_offset(&t.enc);
	struct out o;
	for (size_t cut = 0; cut <= full; cut++) {
		struct trace c = t;
		c.enc.pos = cut;
		decode(&c, NULL, &o);
	}
	uint32_t seed = 12345;
	for (int round = 0; round < 200; round++) {
		struct trace r;
		t_init(&r);
		psb_plus(&r, 1, 0x1000);
		for (size_t i = r.enc.pos; i < 300; i++) {
			seed = seed * 1103515245 + 12345;
			r.buf[i] = (uint8_t)(seed >> 16);
		}
		r.enc.pos = 300;
		decode(&r, NULL, &o);
	}
}

static void test_image(void **state)
{
	(void)state;
	static const uint8_t a[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint8_t b[4] = { 2, 2, 2, 2 };
	struct hwprof_pt_image *img;
	uint8_t buf[32];
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_read(img, 0x100, buf, 4), -HWPROF_E_NOENT);
	assert_int_equal(hwprof_pt_image_add_buf(img, a, 16, 0x100), 0);
	assert_int_equal(hwprof_pt_image_add_buf(img, b, 4, 0x104), 0); /* splits a */
	assert_int_equal(hwprof_pt_image_count(img), 3);
	assert_int_equal(hwprof_pt_image_read(img, 0x100, buf, 32), 16);
	static const uint8_t want[16] = { 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1 };
	assert_memory_equal(buf, want, 16);
	assert_int_equal(hwprof_pt_image_read(img, 0x10f, buf, 8), 1);
	assert_int_equal(hwprof_pt_image_read(img, 0x110, buf, 8), -HWPROF_E_NOENT);
	/* covering everything replaces everything */
	assert_int_equal(hwprof_pt_image_add_buf(img, code, sizeof(code), 0xf0), 0);
	assert_int_equal(hwprof_pt_image_count(img), 1);
	/* ELF: this test program's own executable segment */
	assert_true(hwprof_pt_image_add_elf(img, "/proc/self/exe", 0x10000000) >= 1);
	assert_int_equal(hwprof_pt_image_add_elf(img, "/nonexistent", 0), -HWPROF_E_IO);
	assert_true(hwprof_pt_image_add_file(img, "/proc/self/exe", 1ULL << 40, 16, 0x7000) == 0);
	assert_int_equal(hwprof_pt_image_read(img, 0x7000, buf, 4), -HWPROF_E_NOENT);
	hwprof_pt_image_free(img);
	hwprof_pt_image_free(NULL);
}

/* A file that cannot be mapped (as /proc/kcore cannot) is read on demand:
 * sysfs's kernel notes are such a file. The bytes must be the file's,
 * also after a later section splits the mapping. */
static void test_image_unmappable(void **state)
{
	(void)state;
	uint8_t want[64], buf[64];
	FILE *f = fopen("/sys/kernel/notes", "rb");
	size_t n = f ? fread(want, 1, sizeof(want), f) : 0;
	if (f)
		fclose(f);
	if (n < 24) {
		skip();
		return;
	}
	struct hwprof_pt_image *img;
	assert_int_equal(hwprof_pt_image_new(&img), 0);
	assert_int_equal(hwprof_pt_image_add_file(img, "/sys/kernel/notes", 4, 0x1000, 0x5000), 0);
	assert_int_equal(hwprof_pt_image_read(img, 0x5000, buf, n - 4), (int)(n - 4));
	assert_memory_equal(buf, want + 4, n - 4);
	static const uint8_t b[2] = { 0xaa, 0xbb };
	assert_int_equal(hwprof_pt_image_add_buf(img, b, 2, 0x5004), 0);
	assert_int_equal(hwprof_pt_image_read(img, 0x5006, buf, 8), 8);
	assert_memory_equal(buf, want + 10, 8);
	assert_int_equal(hwprof_pt_image_read(img, 0x5002, buf, 4), 4);
	assert_memory_equal(buf, want + 6, 2);
	assert_memory_equal(buf + 2, b, 2);
	hwprof_pt_image_free(img);
}

static void test_insn_classes(void **state)
{
	(void)state;
	static const struct {
		uint8_t bytes[8];
		uint8_t len, iclass;
		uint64_t target;
	} cases[] = {
		{ { 0x90 }, 1, HWPROF_PT_IC_OTHER, 0 },
		{ { 0x75, 0xfe }, 2, HWPROF_PT_IC_JCC, 0x1000 },
		{ { 0xe3, 0x00 }, 2, HWPROF_PT_IC_JCC, 0x1002 },          /* jrcxz */
		{ { 0xe2, 0xfe }, 2, HWPROF_PT_IC_JCC, 0x1000 },          /* loop */
		{ { 0xeb, 0x10 }, 2, HWPROF_PT_IC_JMP, 0x1012 },
		{ { 0xff, 0xe0 }, 2, HWPROF_PT_IC_JMP_IND, 0 },
		{ { 0xe8, 0, 0, 0, 0 }, 5, HWPROF_PT_IC_CALL, 0x1005 },
		{ { 0xff, 0x13 }, 2, HWPROF_PT_IC_CALL_IND, 0 },
		{ { 0xc3 }, 1, HWPROF_PT_IC_RET, 0 },
		{ { 0xc2, 8, 0 }, 3, HWPROF_PT_IC_RET, 0 },
		{ { 0x0f, 0x05 }, 2, HWPROF_PT_IC_SYSCALL, 0 },
		{ { 0x0f, 0x07 }, 2, HWPROF_PT_IC_SYSRET, 0 },
		{ { 0xcd, 0x80 }, 2, HWPROF_PT_IC_INT, 0 },
		{ { 0xcc }, 1, HWPROF_PT_IC_INT, 0 },
		{ { 0x48, 0xcf }, 2, HWPROF_PT_IC_IRET, 0 },
		{ { 0xcb }, 1, HWPROF_PT_IC_FAR, 0 },                    /* retf */
		{ { 0xff, 0x2b }, 2, HWPROF_PT_IC_FAR, 0 },              /* jmp far [rbx] */
		{ { 0xf3, 0x0f, 0xae, 0xe0 }, 4, HWPROF_PT_IC_PTWRITE, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwprof_pt_insn in;
		int r = hwprof_pt_insn_decode(cases[i].bytes, cases[i].len, 0x1000, 64, &in);
		if (r != cases[i].len || in.iclass != cases[i].iclass || in.target != cases[i].target)
			fail_msg("case %zu: len %d class %s target %#llx", i, r,
				 hwprof_pt_iclass_name(in.iclass), (unsigned long long)in.target);
	}
	struct hwprof_pt_insn in;
	static const uint8_t cut[] = { 0xe8, 0 };
	assert_int_equal(hwprof_pt_insn_decode(cut, 2, 0, 64, &in), -HWPROF_E_BAD_PACKET);
	assert_int_equal(hwprof_pt_insn_decode(cut, 2, 0, 48, &in), -HWPROF_E_INVAL);
	/* 32-bit mode wraps direct targets at 4 GiB */
	static const uint8_t jmp32[] = { 0xe9, 0x00, 0x00, 0x00, 0x80 };
	assert_int_equal(hwprof_pt_insn_decode(jmp32, 5, 0x80000000, 32, &in), 5);
	assert_int_equal(in.target, 5);
	assert_string_equal(hwprof_pt_iclass_name(HWPROF_PT_IC_RET), "ret");
	assert_string_equal(hwprof_pt_ev_name(HWPROF_PT_EV_BLOCK), "block");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tnt_tip_retcomp),
		cmocka_unit_test(test_deferred_tip),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_noretcomp),
		cmocka_unit_test(test_ret_empty_stack_resync),
		cmocka_unit_test(test_fup_async),
		cmocka_unit_test(test_ovf),
		cmocka_unit_test(test_bad_packet_resync),
		cmocka_unit_test(test_inconsistent_and_nocode),
		cmocka_unit_test(test_image_fork),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_side_events),
		cmocka_unit_test(test_mode_exec),
		cmocka_unit_test(test_many_side_events),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_image_missing),
		cmocka_unit_test(test_image_unmappable),
		cmocka_unit_test(test_nocode_full_ip),
		cmocka_unit_test(test_insn_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
