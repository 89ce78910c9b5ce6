/* DWARF unwinding: perf register numbers -> DWARF numbers (x86-64, arm64),
 * the stack copy's bounds, and whole unwinds of this test program's own
 * stack written into a perf.data (a real sample: registers and a stack
 * copy taken here), including damaged copies (short, empty, random bytes,
 * a wild SP or IP) which must give at most the sampled IP, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perfdata_write.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"
#include "hwprof/unwind.h"

/* ---- register mapping ----------------------------------------------------- */

static struct hwprof_regs make_regs(uint64_t mask, uint64_t *vals)
{
	struct hwprof_regs r = { .abi = HWPROF_REGS_ABI_64, .mask = mask };
	unsigned n = 0;
	for (unsigned id = 0; id < 64; id++)
		if (mask & (1ULL << id))
			vals[n++] = 1000 + id;
	r.regs = (const uint8_t *)vals;
	r.nr = n;
	return r;
}

static void test_regs_x86_64(void **state)
{
	uint64_t vals[64], dw[20], ip, sp;
	struct hwprof_regs r = make_regs(0xff0fffULL, vals);
	assert_int_equal(hwprof_unwind_dwarf_regs(HWPROF_ARCH_X86_64, &r, dw, 20, &ip, &sp), 17);
	/* psABI order rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip; perf's
	 * bits AX BX CX DX SI DI BP SP IP FLAGS .. R8=16 */
	static const uint64_t want[17] = { 1000, 1003, 1002, 1001, 1004, 1005, 1006, 1007,
					   1016, 1017, 1018, 1019, 1020, 1021, 1022, 1023, 1008 };
	for (int i = 0; i < 17; i++)
		assert_int_equal(dw[i], want[i]);
	assert_int_equal(dw[17], 0);
	assert_int_equal(ip, 1008);
	assert_int_equal(sp, 1007);
	/* registers not sampled read as 0; IP and SP are required */
	r = make_regs((1ULL << 7) | (1ULL << 8), vals);
	assert_int_equal(hwprof_unwind_dwarf_regs(HWPROF_ARCH_X86_64, &r, dw, 20, &ip, &sp), 17);
	assert_int_equal(dw[0], 0);
	assert_int_equal(dw[7], 1007);
	r = make_regs(0xff0fffULL & ~(1ULL << 7), vals);
	assert_true(hwprof_unwind_dwarf_regs(HWPROF_ARCH_X86_64, &r, dw, 20, &ip, &sp) < 0);
	r = make_regs(0xff0fffULL, vals);
	r.abi = 0; /* no user regs (kernel thread) */
	assert_true(hwprof_unwind_dwarf_regs(HWPROF_ARCH_X86_64, &r, dw, 20, &ip, &sp) < 0);
	r.abi = HWPROF_REGS_ABI_64;
	r.nr = 3; /* fewer values than the mask says */
	assert_true(hwprof_unwind_dwarf_regs(HWPROF_ARCH_X86_64, &r, dw, 20, &ip, &sp) < 0);
	assert_true(hwprof_unwind_dwarf_regs(HWPROF_ARCH_I386, &r, dw, 20, &ip, &sp) < 0);
	assert_true(hwprof_unwind_dwarf_regs(HWPROF_ARCH_UNKNOWN, &r, dw, 20, &ip, &sp) < 0);
}

static void test_regs_arm64(void **state)
{
	uint64_t vals[64], dw[40], ip, sp;
	struct hwprof_regs r = make_regs(HWPROF_ARM64_GPR_MASK, vals);
	assert_int_equal(hwprof_unwind_dwarf_regs(HWPROF_ARCH_ARM64, &r, dw, 40, &ip, &sp), 32);
	for (int i = 0; i < 32; i++) /* x0..x30 (lr), sp: the same numbers */
		assert_int_equal(dw[i], 1000 + i);
	assert_int_equal(dw[32], 0);
	assert_int_equal(ip, 1032);
	assert_int_equal(sp, 1031);
}

/* ---- stack copy bounds -------------------------------------------------- */

static void test_stack_word(void **state)
{
	uint8_t stack[64];
	uint64_t v;
	for (int i = 0; i < 64; i++)
		stack[i] = (uint8_t)i;
	const uint64_t sp = 0x7ffc0000;
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp, &v), 1);
	assert_int_equal(v, 0x0706050403020100ULL);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp + 3, &v), 1);
	assert_int_equal(v, 0x0a09080706050403ULL);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp + 55, &v), 1);
	/* perf's reader counts the last word of the copy as outside */
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp + 56, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp + 60, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, sp - 1, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, sp, UINT64_MAX - 3, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 64, UINT64_MAX - 16, UINT64_MAX - 8, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 0, sp, sp, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(stack, 7, sp, sp, &v), 0);
	assert_int_equal(hwprof_unwind_stack_word(NULL, 64, sp, sp, &v), 0);
}

/* ---- whole unwinds of our own stack ---------------------------------------- */

#if defined(__x86_64__)
#define STACK_COPY 4096

struct captured {
	uint64_t regs[24];         /* perf's x86-64 user mask 0xff0fff, in bit order */
	uint8_t stack[STACK_COPY];
	uint64_t ip;
};

/* registers and the stack as the kernel would sample them here (a raw
 * copy: it reads other frames' bytes, which AddressSanitizer would flag) */
__attribute__((noinline, no_sanitize("address"))) static void capture(struct captured *c)
{
	uint64_t rsp, rbp, rip, rbx, r12, r13, r14, r15;
	__asm__ volatile("mov %%rsp, %0\n\tmov %%rbp, %1\n\tlea 0(%%rip), %2\n\t"
			 "mov %%rbx, %3\n\tmov %%r12, %4\n\tmov %%r13, %5\n\tmov %%r14, %6\n\tmov %%r15, %7"
			 : "=r"(rsp), "=r"(rbp), "=r"(rip), "=r"(rbx), "=r"(r12), "=r"(r13), "=r"(r14), "=r"(r15));
	uint64_t v[24] = { 0 };
	/* bit order of mask 0xff0fff: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15 */
	v[1] = rbx;
	v[6] = rbp;
	v[7] = rsp;
	v[8] = rip;
	v[20] = r12;
	v[21] = r13;
	v[22] = r14;
	v[23] = r15;
	memcpy(c->regs, v, sizeof(v));
	const volatile uint8_t *sp = (const volatile uint8_t *)(uintptr_t)rsp;
	for (size_t i = 0; i < STACK_COPY; i++)
		c->stack[i] = sp[i];
	c->ip = rip;
}

__attribute__((noinline)) static void capture_outer(struct captured *c)
{
	capture(c);
	__asm__ volatile("" ::: "memory");
}

/* our own text mapping, from /proc/self/maps */
static int self_text(uint64_t *start, uint64_t *end, uint64_t *pgoff, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;
	uint64_t here = (uint64_t)(uintptr_t)&capture;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perm[8], file[4096];
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off, file) == 5 && here >= s &&
		    here < e) {
			*start = s;
			*end = e;
			*pgoff = off;
			snprintf(path, len, "%s", file);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}

struct uw_fixture {
	char path[256];
	struct hwprof_session *s;
	struct hwprof_symbols *syms;
	struct hwprof_unwinder *u;
	struct hwprof_event ev;
};

/* a perf.data with our text map and one sample of c, opened up to the sample */
static void write_and_open(struct uw_fixture *fx, const struct captured *c, uint64_t stack_size,
			   uint64_t dyn_size)
{
	uint64_t start = 0, end = 0, pgoff = 0;
	char exe[4096];
	assert_true(self_text(&start, &end, &pgoff, exe, sizeof(exe)));
	snprintf(fx->path, sizeof(fx->path), "/tmp/hwprof_test_unwind_%d.data", (int)getpid());
	struct hwprof_attr a;
	memset(&a, 0, sizeof(a));
	a.type = 1;
	a.size = 128;
	a.sample_period = 1;
	a.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_CALLCHAIN |
			HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
	a.sample_regs_user = 0xff0fffULL;
	a.sample_stack_user = STACK_COPY;
	a.flags |= 1ULL << HWPROF_ATTR_SAMPLE_ID_ALL;
	struct hwprof_writer *w;
	struct hwprof_error err;
	assert_int_equal(hwprof_writer_open(&w, fx->path, HWPROF_WRITE_FILE, &err), 0);
	assert_int_equal(hwprof_writer_add_evsel(w, &a, "cpu-clock", NULL, 0), 0);
	static uint8_t buf[70000];
	struct hwprof_sample id;
	memset(&id, 0, sizeof(id));
	id.pid = id.tid = (uint32_t)getpid();
	int n = hwprof_build_mmap2(buf, sizeof(buf), &a, &id, HWPROF_MISC_USER, id.pid, id.tid, start, end - start,
				   pgoff, 0, 0, 0, 0, 5 /* r-x */, 2 /* private */, exe);
	assert_true(n > 0);
	assert_int_equal(hwprof_writer_write(w, buf, (size_t)n), 0);
	struct hwprof_sample s = id;
	uint64_t chain[1] = { 0xfffffffffffffe00ULL }; /* PERF_CONTEXT_USER only */
	s.time = 1;
	s.ip = c->ip;
	s.misc = HWPROF_MISC_USER;
	s.callchain_nr = 1;
	s.callchain = (const uint8_t *)chain;
	s.user_regs.abi = HWPROF_REGS_ABI_64;
	s.user_regs.mask = a.sample_regs_user;
	s.user_regs.regs = (const uint8_t *)c->regs;
	s.user_regs.nr = 24;
	s.stack_size = stack_size;
	s.stack_data = c->stack;
	s.stack_dyn_size = dyn_size;
	n = hwprof_build_sample(buf, sizeof(buf), &a, &s);
	assert_true(n > 0);
	assert_int_equal(hwprof_writer_write(w, buf, (size_t)n), 0);
	assert_int_equal(hwprof_writer_close(w, &err), 0);
	assert_int_equal(hwprof_session_open(&fx->s, fx->path, &err), 0);
	assert_int_equal(hwprof_symbols_open(&fx->syms, NULL), 0);
	assert_int_equal(hwprof_unwinder_new(&fx->u, fx->s, fx->syms, HWPROF_ARCH_X86_64), 0);
	int rc;
	while ((rc = hwprof_session_next(fx->s, &fx->ev)) > 0 && fx->ev.rec.type != HWPROF_RECORD_SAMPLE)
		;
	assert_int_equal(rc, 1);
	assert_int_equal(fx->ev.parse_err, 0);
}

static void close_fixture(struct uw_fixture *fx)
{
	hwprof_unwinder_free(fx->u);
	hwprof_symbols_close(fx->syms);
	hwprof_session_close(fx->s);
	unlink(fx->path);
}

static const char *sym_at(struct uw_fixture *fx, uint64_t ip)
{
	struct hwprof_map_info mi;
	struct hwprof_symres r;
	char level;
	if (hwprof_session_find_map(fx->s, (int32_t)getpid(), (int32_t)getpid(), HWPROF_MISC_USER, ip, &mi, &level) != 1)
		return "?";
	hwprof_symbols_resolve(fx->syms, mi.dso, mi.start, mi.pgoff, ip, &r);
	return r.sym ? r.sym->name : "?";
}

static struct captured cap;

static void test_unwind_own_stack(void **state)
{
	struct uw_fixture fx;
	memset(&fx, 0, sizeof(fx));
	capture_outer(&cap);
	write_and_open(&fx, &cap, STACK_COPY, STACK_COPY);
	uint64_t ips[HWPROF_MAX_STACK];
	int n = hwprof_unwind_sample(fx.u, &fx.ev.sample, ips, HWPROF_MAX_STACK);
	assert_true(n >= 3);
	assert_int_equal(ips[0], cap.ip);
	/* names as the compiler left them: gcc may add .constprop.0 */
	assert_true(!strncmp(sym_at(&fx, ips[0]), "capture", 7) && strncmp(sym_at(&fx, ips[0]), "capture_", 8));
	assert_true(!strncmp(sym_at(&fx, ips[1]), "capture_outer", 13));
	assert_true(!strncmp(sym_at(&fx, ips[2]), "test_unwind_own_stack", 21));
	/* the same sample again comes from the cached process state */
	uint64_t again[HWPROF_MAX_STACK];
	assert_int_equal(hwprof_unwind_sample(fx.u, &fx.ev.sample, again, HWPROF_MAX_STACK), n);
	assert_memory_equal(ips, again, (size_t)n * 8);
	/* --max-stack */
	assert_int_equal(hwprof_unwind_sample(fx.u, &fx.ev.sample, ips, 2), 2);
	assert_int_equal(hwprof_unwind_sample(fx.u, &fx.ev.sample, ips, 1), 1);
	close_fixture(&fx);
}

/* damaged copies: short, empty, random; a wild SP or IP */
static void test_unwind_bad_stacks(void **state)
{
	static const uint64_t sizes[][2] = { { STACK_COPY, 0 }, { STACK_COPY, 8 }, { STACK_COPY, 13 },
					     { STACK_COPY, 100 }, { 16, 16 }, { STACK_COPY, STACK_COPY } };
	capture_outer(&cap);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (unsigned seed = 0; seed < 4; seed++) {
			struct captured c = cap;
			srand(seed * 7919 + (unsigned)k);
			if (seed) /* random bytes over the copy (seed 0: the real one) */
				for (size_t i = 0; i < STACK_COPY; i++)
					c.stack[i] = (uint8_t)rand();
			if (seed == 2)
				c.regs[7] = 0xfffffffffffffff8ULL; /* SP at the end of memory */
			if (seed == 3)
				c.regs[8] = c.ip = 0; /* IP nowhere */
			struct uw_fixture fx;
			memset(&fx, 0, sizeof(fx));
			write_and_open(&fx, &c, sizes[k][0], sizes[k][1]);
			uint64_t ips[HWPROF_MAX_STACK];
			int n = hwprof_unwind_sample(fx.u, &fx.ev.sample, ips, HWPROF_MAX_STACK);
			assert_true(n >= 0 && n <= HWPROF_MAX_STACK);
			if (sizes[k][1] == 0)
				assert_int_equal(n, 0); /* nothing captured: perf shows no user frames */
			else
				assert_int_equal(ips[0], c.ip);
			close_fixture(&fx);
		}
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs_x86_64),
		cmocka_unit_test(test_regs_arm64),
		cmocka_unit_test(test_stack_word),
#if defined(__x86_64__)
		cmocka_unit_test(test_unwind_own_stack),
		cmocka_unit_test(test_unwind_bad_stacks),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
