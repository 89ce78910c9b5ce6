/* Register tables, SIMD validation, -I list parsing, kernel probing against
 * fake kernels (6.18 without the SIMD series, a SIMD-capable one, software
 * PMU only, legacy PEBS) and the report -D / script register printers.
 * Expected texts are literal perf 6.1 output where perf can produce them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/regs.h"
#include "hwprof/sys.h"
/* The printers live in the CLI, which the library does not contain. */
#include "cli/print_regs.c"

/* ---- names ---------------------------------------------------------------- */

static void test_names_x86(void **state)
{
	enum hwprof_arch x = HWPROF_ARCH_X86_64;
	uint64_t legacy = HWPROF_REGS_ABI_64, simd = HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD;
	assert_string_equal(hwprof_reg_name(x, legacy, 0), "AX");
	assert_string_equal(hwprof_reg_name(x, legacy, 9), "FLAGS");
	assert_string_equal(hwprof_reg_name(x, legacy, 12), "DS");
	assert_string_equal(hwprof_reg_name(x, legacy, 16), "R8");
	assert_string_equal(hwprof_reg_name(x, legacy, 23), "R15");
	assert_null(hwprof_reg_name(x, legacy, 24));
	assert_null(hwprof_reg_name(x, legacy, 31));
	assert_string_equal(hwprof_reg_name(x, legacy, 32), "XMM0");
	assert_string_equal(hwprof_reg_name(x, legacy, 33), "XMM0");
	assert_string_equal(hwprof_reg_name(x, legacy, 38), "XMM3");
	assert_string_equal(hwprof_reg_name(x, legacy, 63), "XMM15");
	assert_string_equal(hwprof_reg_name(x, simd, 24), "R16");
	assert_string_equal(hwprof_reg_name(x, simd, 32), "R24");
	assert_string_equal(hwprof_reg_name(x, simd, 39), "R31");
	assert_string_equal(hwprof_reg_name(x, simd, 40), "SSP");
	assert_null(hwprof_reg_name(x, simd, 41));
	assert_null(hwprof_reg_name(x, simd, 63));
	assert_null(hwprof_reg_name(x, legacy, 64));
	/* 32-bit samples (abi 1 and 5) use the same table */
	assert_string_equal(hwprof_reg_name(HWPROF_ARCH_I386, HWPROF_REGS_ABI_32, 15), "GS");
	assert_string_equal(hwprof_reg_name(x, HWPROF_REGS_ABI_32 | HWPROF_REGS_ABI_SIMD, 40), "SSP");
	assert_null(hwprof_reg_name(HWPROF_ARCH_UNKNOWN, legacy, 0));
}

static void test_names_arm64(void **state)
{
	enum hwprof_arch a = HWPROF_ARCH_ARM64;
	assert_string_equal(hwprof_reg_name(a, 2, 0), "x0");
	assert_string_equal(hwprof_reg_name(a, 2, 29), "x29");
	assert_string_equal(hwprof_reg_name(a, 2, 30), "lr");
	assert_string_equal(hwprof_reg_name(a, 2, 31), "sp");
	assert_string_equal(hwprof_reg_name(a, 2, 32), "pc");
	assert_string_equal(hwprof_reg_name(a, 2, 46), "vg");
	assert_null(hwprof_reg_name(a, 2, 33));
	assert_int_equal(hwprof_reg_lookup(a, 2, "LR"), 1ULL << 30);
	assert_int_equal(hwprof_reg_lookup(a, 2, "X3"), 1ULL << 3);
	assert_int_equal(hwprof_reg_lookup(a, 2, "vg"), 1ULL << 46);
	assert_int_equal(hwprof_reg_lookup(a, 2, "x30"), 0);
}

static void test_lookup_x86(void **state)
{
	enum hwprof_arch x = HWPROF_ARCH_X86_64;
	uint64_t legacy = HWPROF_REGS_ABI_64, simd = HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD;
	assert_int_equal(hwprof_reg_lookup(x, legacy, "ax"), 1);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "Flags"), 1 << 9);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "R15"), 1 << 23);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "ds"), 0);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "xmm3"), 3ULL << 38);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "r16"), 0);
	assert_int_equal(hwprof_reg_lookup(x, simd, "xmm3"), 0);
	assert_int_equal(hwprof_reg_lookup(x, simd, "r16"), 1ULL << 24);
	assert_int_equal(hwprof_reg_lookup(x, simd, "SSP"), 1ULL << 40);
	assert_int_equal(hwprof_reg_lookup(HWPROF_ARCH_I386, HWPROF_REGS_ABI_32, "r8"), 0);
	assert_int_equal(hwprof_reg_lookup(x, legacy, NULL), 0);
	assert_int_equal(hwprof_reg_lookup(x, legacy, "axe"), 0);
}

static void test_arch(void **state)
{
	assert_int_equal(hwprof_arch_from_name("x86_64"), HWPROF_ARCH_X86_64);
	assert_int_equal(hwprof_arch_from_name("i386"), HWPROF_ARCH_I386);
	assert_int_equal(hwprof_arch_from_name("i686"), HWPROF_ARCH_I386);
	assert_int_equal(hwprof_arch_from_name("aarch64"), HWPROF_ARCH_ARM64);
	assert_int_equal(hwprof_arch_from_name("arm64"), HWPROF_ARCH_ARM64);
	assert_int_equal(hwprof_arch_from_name("i786"), HWPROF_ARCH_UNKNOWN);
	assert_int_equal(hwprof_arch_from_name("sparc64"), HWPROF_ARCH_UNKNOWN);
	assert_int_equal(hwprof_arch_from_name(NULL), HWPROF_ARCH_UNKNOWN);
	assert_string_equal(hwprof_arch_name(HWPROF_ARCH_ARM64), "arm64");
	assert_string_equal(hwprof_arch_name(HWPROF_ARCH_UNKNOWN), "unknown");
#if defined(__x86_64__)
	assert_int_equal(hwprof_arch_host(), HWPROF_ARCH_X86_64);
#endif
}

static void test_classes(void **state)
{
	size_t n;
	const struct hwprof_simd_class *c = hwprof_simd_classes(HWPROF_ARCH_X86_64, &n);
	assert_int_equal(n, 4);
	assert_string_equal(c[HWPROF_SIMD_XMM].name, "XMM");
	assert_int_equal(c[HWPROF_SIMD_XMM].qwords, 2);
	assert_int_equal(c[HWPROF_SIMD_XMM].nr, 16);
	assert_int_equal(c[HWPROF_SIMD_YMM].qwords, 4);
	assert_int_equal(c[HWPROF_SIMD_ZMM].nr, 32);
	assert_int_equal(c[HWPROF_SIMD_ZMM].mask, 0xffffffffULL);
	assert_int_equal(c[HWPROF_SIMD_OPMASK].nr, 8);
	assert_int_equal(c[HWPROF_SIMD_OPMASK].qwords, 1);
	assert_string_equal(hwprof_simd_class_by_qwords(HWPROF_ARCH_X86_64, 0, 8)->name, "ZMM");
	assert_string_equal(hwprof_simd_class_by_qwords(HWPROF_ARCH_X86_64, 1, 1)->name, "OPMASK");
	assert_null(hwprof_simd_class_by_qwords(HWPROF_ARCH_X86_64, 0, 1));
	assert_null(hwprof_simd_class_by_qwords(HWPROF_ARCH_ARM64, 0, 2));
	assert_null(hwprof_simd_classes(HWPROF_ARCH_ARM64, &n));
	assert_int_equal(n, 0);
	assert_int_equal(hwprof_simd_block_bytes(8, 0xffffffff, 1, 0xff), 32 + (256 + 8) * 8);

	/* the full tables --dry-run checks against */
	struct hwprof_regs_avail av;
	hwprof_regs_avail_full(&av, HWPROF_ARCH_ARM64);
	assert_int_equal(av.mask, HWPROF_ARM64_GPR_MASK | HWPROF_ARM64_VG_MASK);
	assert_int_equal(av.abi, HWPROF_REGS_ABI_64);
	hwprof_regs_avail_full(&av, HWPROF_ARCH_I386);
	assert_int_equal(av.mask, HWPROF_X86_32_GPR_MASK);
	assert_int_equal(av.class_mask[HWPROF_SIMD_ZMM], 0);
	hwprof_regs_avail_full(&av, HWPROF_ARCH_X86_64);
	assert_int_equal(av.mask, 0x1ffffff0fffULL);
	assert_int_equal(av.abi, HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD);
	assert_int_equal(av.class_mask[HWPROF_SIMD_ZMM], 0xffffffff);
}

/* The attr tail at the merged layout's byte offsets (doc §1): config4 @136,
 * the SIMD fields @144..@168, 176 bytes in all; decoding a 136-byte attr
 * (a 6.18 kernel's) leaves them zero. */
static void test_attr_tail_offsets(void **state)
{
	struct hwprof_attr a, back;
	uint8_t b[HWPROF_ATTR_SIZE_VER10];
	memset(&a, 0, sizeof(a));
	a.size = HWPROF_ATTR_SIZE_VER10;
	a.config4 = 0x0102030405060708ULL;
	a.sample_simd_regs_enabled = 0x1112;
	a.sample_simd_pred_reg_qwords = 0x2122;
	a.sample_simd_vec_reg_qwords = 0x3132;
	a.reserved_4 = 0x4142;
	a.sample_simd_pred_reg_intr = 0x51525354;
	a.sample_simd_pred_reg_user = 0x61626364;
	a.sample_simd_vec_reg_intr = 0x7172737475767778ULL;
	a.sample_simd_vec_reg_user = 0x8182838485868788ULL;
	hwprof_attr_encode(&a, b);
	static const struct { unsigned off, len; uint64_t v; } f[] = {
		{ 136, 8, 0x0102030405060708ULL }, { 144, 2, 0x1112 }, { 146, 2, 0x2122 },
		{ 148, 2, 0x3132 }, { 150, 2, 0x4142 }, { 152, 4, 0x51525354 }, { 156, 4, 0x61626364 },
		{ 160, 8, 0x7172737475767778ULL }, { 168, 8, 0x8182838485868788ULL },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t v = 0;
		for (unsigned k = 0; k < f[i].len; k++) /* little endian, as the kernel on x86 */
			v |= (uint64_t)b[f[i].off + k] << (8 * k);
		assert_int_equal(v, f[i].v);
	}
	assert_int_equal(b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24, 176);
	for (unsigned k = 0; k < 136; k++)
		if (k < 4 || k >= 8)
			assert_int_equal(b[k], 0); /* nothing else set */
	assert_int_equal(HWPROF_ATTR_SIZE_VER10, 176);
	memset(&back, 0, sizeof(back));
	hwprof_attr_decode(&back, b, HWPROF_ATTR_SIZE_VER10, 0);
	assert_memory_equal(&back, &a, sizeof(a));
	hwprof_attr_decode(&back, b, 136, 0);
	assert_int_equal(back.config4, 0);
	assert_int_equal(back.sample_simd_vec_reg_user, 0);
}

/* ---- validation ------------------------------------------------------------- */

static struct hwprof_attr simd_attr(void)
{
	struct hwprof_attr a;
	memset(&a, 0, sizeof(a));
	a.size = HWPROF_ATTR_SIZE_VER10;
	a.sample_type = HWPROF_SAMPLE_REGS_INTR;
	a.sample_regs_intr = 0x3;
	a.sample_simd_regs_enabled = 1;
	a.sample_simd_vec_reg_qwords = 8;
	a.sample_simd_vec_reg_intr = 0xffffffff;
	a.sample_simd_pred_reg_qwords = 1;
	a.sample_simd_pred_reg_intr = 0xff;
	return a;
}

static void expect_reject(const struct hwprof_attr *a, enum hwprof_arch arch, const char *text)
{
	char msg[256];
	assert_int_equal(hwprof_regs_validate(a, arch, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_string_equal(msg, text);
}

static void expect_accept(const struct hwprof_attr *a, enum hwprof_arch arch)
{
	char msg[256];
	int rc = hwprof_regs_validate(a, arch, msg, sizeof(msg));
	if (rc)
		fail_msg("rejected: %s", msg);
	assert_string_equal(msg, "");
}

static void test_validate_accepts(void **state)
{
	struct hwprof_attr a = simd_attr();
	expect_accept(&a, HWPROF_ARCH_X86_64);
	a.sample_regs_intr = 0x18001010003ULL; /* ax,bx,r8,r16,r31,ssp */
	expect_accept(&a, HWPROF_ARCH_X86_64);
	a.sample_simd_vec_reg_intr = 0xffff; /* low-16 ZMM */
	expect_accept(&a, HWPROF_ARCH_X86_64);
	a.sample_simd_vec_reg_qwords = 2; /* XMM */
	expect_accept(&a, HWPROF_ARCH_X86_64);
	a.sample_regs_intr = 0; /* SIMD registers only */
	expect_accept(&a, HWPROF_ARCH_X86_64);
	struct hwprof_attr l;
	memset(&l, 0, sizeof(l));
	l.sample_type = HWPROF_SAMPLE_REGS_INTR | HWPROF_SAMPLE_REGS_USER;
	l.sample_regs_intr = 0xff0fff | HWPROF_X86_LEGACY_XMM_MASK;
	l.sample_regs_user = 0x183;
	expect_accept(&l, HWPROF_ARCH_X86_64);
	l.sample_type = 0;
	l.sample_regs_intr = ~0ULL; /* masks only count with their sample_type bit */
	expect_accept(&l, HWPROF_ARCH_X86_64);
	memset(&l, 0, sizeof(l));
	l.sample_type = HWPROF_SAMPLE_REGS_USER;
	l.sample_regs_user = HWPROF_ARM64_GPR_MASK | HWPROF_ARM64_VG_MASK;
	expect_accept(&l, HWPROF_ARCH_ARM64);
	assert_int_equal(hwprof_regs_validate(NULL, HWPROF_ARCH_X86_64, NULL, 0), -HWPROF_E_INVAL);
}

static void test_validate_rejects(void **state)
{
	struct hwprof_attr a = simd_attr();
	a.reserved_4 = 1;
	expect_reject(&a, HWPROF_ARCH_X86_64, "__reserved_4 is 0x1: must be zero");

	a = simd_attr();
	a.sample_regs_intr = 1ULL << 41;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_regs_intr 0x20000000000: bits 0x20000000000 are "
		      "reserved with sample_simd_regs_enabled (only bits 0-40 are)");

	a = simd_attr();
	a.sample_regs_intr = 0x1000;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_regs_intr 0x1000: bits 0x1000 are DS/ES/FS/GS, "
		      "which 64-bit kernels do not sample");

	struct hwprof_attr l;
	memset(&l, 0, sizeof(l));
	l.sample_type = HWPROF_SAMPLE_REGS_USER;
	l.sample_regs_user = 1ULL << 24; /* R16 without the SIMD interface */
	expect_reject(&l, HWPROF_ARCH_X86_64, "sample_regs_user 0x1000000: bits 0x1000000 are reserved");
	l.sample_regs_user = 0;
	expect_reject(&l, HWPROF_ARCH_X86_64, "sample_regs_user is empty but PERF_SAMPLE_REGS_USER is set");
	l.sample_regs_user = 1ULL << 33;
	expect_reject(&l, HWPROF_ARCH_ARM64, "sample_regs_user 0x200000000: bits 0x200000000 are reserved");

	a = simd_attr();
	expect_reject(&a, HWPROF_ARCH_ARM64,
		      "SIMD register sampling (sample_simd_regs_enabled) is not supported on arm64");

	a = simd_attr();
	a.sample_simd_vec_reg_qwords = 0;
	a.sample_simd_pred_reg_qwords = 0;
	expect_reject(&a, HWPROF_ARCH_X86_64,
		      "SIMD intr masks are set but both sample_simd_*_reg_qwords are 0");

	a = simd_attr();
	a.sample_simd_vec_reg_qwords = 3;
	expect_reject(&a, HWPROF_ARCH_X86_64,
		      "sample_simd_vec_reg_qwords 3: must be 2 (XMM), 4 (YMM) or 8 (ZMM)");

	a = simd_attr();
	a.sample_simd_vec_reg_intr = 0x1ffffffffULL;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_vec_reg_intr 0x1ffffffff: only 32 vector "
		      "registers (bits 0-31) exist");

	a = simd_attr();
	a.sample_simd_vec_reg_qwords = 0; /* pred qwords still 1 */
	expect_reject(&a, HWPROF_ARCH_X86_64,
		      "sample_simd_vec_reg_intr is set but sample_simd_vec_reg_qwords is 0");

	a = simd_attr();
	a.sample_simd_vec_reg_qwords = 2;
	a.sample_simd_vec_reg_intr = 0xff;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_vec_reg_intr 0xff: only whole classes can be "
		      "sampled (0xffff for XMM/YMM/ZMM0-15, 0xffffffff for ZMM0-31)");

	a = simd_attr();
	a.sample_simd_vec_reg_intr = 0x1ffff;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_vec_reg_intr 0x1ffff: ZMM16-31 must be "
		      "requested all together (0xffffffff)");

	a = simd_attr();
	a.sample_simd_pred_reg_qwords = 2;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_pred_reg_qwords 2: must be 1 (OPMASK)");

	a = simd_attr();
	a.sample_simd_pred_reg_intr = 0x1ff;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_pred_reg_intr 0x1ff: only 8 predicate "
		      "registers (bits 0-7) exist");

	a = simd_attr();
	a.sample_simd_pred_reg_qwords = 0;
	expect_reject(&a, HWPROF_ARCH_X86_64,
		      "sample_simd_pred_reg_intr is set but sample_simd_pred_reg_qwords is 0");

	a = simd_attr();
	a.sample_simd_pred_reg_intr = 0x0f;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_pred_reg_intr 0xf: only the whole OPMASK "
		      "class (0xff) can be sampled");

	a = simd_attr();
	a.sample_simd_vec_reg_qwords = 1000;
	expect_reject(&a, HWPROF_ARCH_X86_64,
		      "SIMD intr register block of 256096 bytes is too large (limit 32767)");

	/* the user side is checked too */
	a = simd_attr();
	a.sample_type |= HWPROF_SAMPLE_REGS_USER;
	a.sample_regs_user = 1;
	a.sample_simd_vec_reg_user = 0xfff;
	expect_reject(&a, HWPROF_ARCH_X86_64, "sample_simd_vec_reg_user 0xfff: only whole classes can be "
		      "sampled (0xffff for XMM/YMM/ZMM0-15, 0xffffffff for ZMM0-31)");
}

/* ---- list parsing ----------------------------------------------------------- */

static struct hwprof_regs_avail simd_avail(void)
{
	struct hwprof_regs_avail av;
	hwprof_regs_avail_default(&av, HWPROF_ARCH_X86_64);
	av.abi |= HWPROF_REGS_ABI_SIMD;
	av.mask |= HWPROF_X86_EGPR_MASK | HWPROF_X86_SSP_MASK;
	av.class_mask[HWPROF_SIMD_XMM] = 0xffff;
	av.class_mask[HWPROF_SIMD_YMM] = 0xffff;
	av.class_mask[HWPROF_SIMD_ZMM] = 0xffffffff;
	av.class_mask[HWPROF_SIMD_OPMASK] = 0xff;
	return av;
}

static void test_parse_legacy(void **state)
{
	struct hwprof_regs_avail av;
	struct hwprof_attr a, before;
	char msg[256];
	hwprof_regs_avail_default(&av, HWPROF_ARCH_X86_64);

	memset(&a, 0, sizeof(a));
	a.size = HWPROF_ATTR_SIZE_VER7;
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "ax,BX,r8,ax", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_intr, 0x10003);
	assert_int_equal(a.sample_type, HWPROF_SAMPLE_REGS_INTR);
	assert_int_equal(a.sample_simd_regs_enabled, 0);
	assert_int_equal(a.size, HWPROF_ATTR_SIZE_VER7);

	assert_int_equal(hwprof_regs_parse_list(&a, 1, NULL, &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_user, 0xff0fff);
	assert_int_equal(a.sample_type, HWPROF_SAMPLE_REGS_INTR | HWPROF_SAMPLE_REGS_USER);

	before = a;
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "ax,xmm0", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_string_equal(msg, "Unknown register \"xmm0\", check man page or run \"perf record -I?\"");
	assert_memory_equal(&a, &before, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 1, "zmm", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_string_equal(msg, "Unknown register \"zmm\", check man page or run \"perf record --user-regs=?\"");
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "ds", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "r16", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);

	/* PEBS-baseline machine: legacy XMM pairs by name */
	av.mask |= HWPROF_X86_LEGACY_XMM_MASK;
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "xmm0,XMM15", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_intr, (3ULL << 32) | (3ULL << 62));
	assert_int_equal(a.sample_simd_regs_enabled, 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, NULL, &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_intr, 0xff0fff | HWPROF_X86_LEGACY_XMM_MASK);

	/* empty names are names too (perf 6.1: -Iax, / --intr-regs= / -Iax,,bx) */
	static const char *const empty[] = { "", "ax,", ",ax", "ax,,bx", "," };
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		memset(&a, 0, sizeof(a));
		before = a;
		assert_int_equal(hwprof_regs_parse_list(&a, i & 1, empty[i], &av, msg, sizeof(msg)),
				 -HWPROF_E_INVAL);
		assert_string_equal(msg, i & 1 ? "Unknown register \"\", check man page or run "
						 "\"perf record --user-regs=?\""
					       : "Unknown register \"\", check man page or run \"perf record -I?\"");
		assert_memory_equal(&a, &before, sizeof(a));
	}
	/* a name longer than the parser's buffer is reported whole */
	char longname[100];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_int_equal(hwprof_regs_parse_list(&a, 0, longname, &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_non_null(strstr(msg, longname));
}

static void test_parse_simd(void **state)
{
	struct hwprof_regs_avail av = simd_avail();
	struct hwprof_attr a;
	char msg[256];

	memset(&a, 0, sizeof(a));
	a.size = HWPROF_ATTR_SIZE_VER7;
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "ax,bx,r8,r16,r31,ssp,xmm,ymm,zmm,opmask",
						&av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_intr, 0x18001010003ULL);
	assert_int_equal(a.sample_simd_regs_enabled, 1);
	assert_int_equal(a.sample_simd_vec_reg_qwords, 8);
	assert_int_equal(a.sample_simd_vec_reg_intr, 0xffffffff);
	assert_int_equal(a.sample_simd_pred_reg_qwords, 1);
	assert_int_equal(a.sample_simd_pred_reg_intr, 0xff);
	assert_int_equal(a.sample_simd_vec_reg_user, 0);
	assert_int_equal(a.size, HWPROF_ATTR_SIZE_VER10);
	expect_accept(&a, HWPROF_ARCH_X86_64);

	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "XMM,Ymm", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_simd_vec_reg_qwords, 4);
	assert_int_equal(a.sample_simd_vec_reg_intr, 0xffff);
	assert_int_equal(a.sample_regs_intr, 0);

	/* widest wins across intr and user: one qwords value for both */
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "xmm,opmask", &av, msg, sizeof(msg)), 0);
	assert_int_equal(hwprof_regs_parse_list(&a, 1, "zmm", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_simd_vec_reg_qwords, 8);
	assert_int_equal(a.sample_simd_vec_reg_intr, 0xffffffff);
	assert_int_equal(a.sample_simd_vec_reg_user, 0xffffffff);
	assert_int_equal(a.sample_simd_pred_reg_intr, 0xff);
	assert_int_equal(a.sample_simd_pred_reg_user, 0);
	expect_accept(&a, HWPROF_ARCH_X86_64);

	/* GPRs only: the SIMD fields stay untouched */
	memset(&a, 0, sizeof(a));
	a.size = HWPROF_ATTR_SIZE_VER7;
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "ax,r15", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_simd_regs_enabled, 0);
	assert_int_equal(a.size, HWPROF_ATTR_SIZE_VER7);

	/* bare -I takes eGPRs and SSP, so it uses the SIMD interface */
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, NULL, &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_regs_intr, 0x1ffffff0fffULL);
	assert_int_equal(a.sample_simd_regs_enabled, 1);
	assert_int_equal(a.sample_simd_vec_reg_qwords, 0);

	/* per-register xmm names do not exist with the SIMD interface */
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "xmm3", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
	assert_string_equal(msg, "Unknown register \"xmm3\", check man page or run \"perf record -I?\"");

	/* a CPU without Hi16_ZMM state: zmm means ZMM0-15 */
	av.class_mask[HWPROF_SIMD_ZMM] = 0xffff;
	av.class_mask[HWPROF_SIMD_OPMASK] = 0;
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 1, "zmm", &av, msg, sizeof(msg)), 0);
	assert_int_equal(a.sample_simd_vec_reg_user, 0xffff);
	assert_int_equal(a.sample_type, HWPROF_SAMPLE_REGS_USER);
	expect_accept(&a, HWPROF_ARCH_X86_64);
	assert_int_equal(hwprof_regs_parse_list(&a, 1, "opmask", &av, msg, sizeof(msg)), -HWPROF_E_INVAL);
}

/* ---- fake kernels ----------------------------------------------------------- */

enum fake_kind { FAKE_618, FAKE_SIMD, FAKE_SIMD_NO_HI16, FAKE_SW_ONLY, FAKE_PEBS, FAKE_ARM64_SVE };
static enum fake_kind fake;
static int fake_opens, fake_closes;

static int attr_tail_nonzero(const struct hwprof_attr *a, uint32_t from)
{
	uint8_t b[HWPROF_ATTR_SIZE_VER10];
	hwprof_attr_encode(a, b);
	for (uint32_t i = from; i < a->size && i < sizeof(b); i++)
		if (b[i])
			return 1;
	return 0;
}

static int fake_open(struct hwprof_attr *a, int pid, int cpu, int group_fd, unsigned long flags)
{
	fake_opens++;
	char msg[256];
	switch (fake) {
	case FAKE_618:
	case FAKE_PEBS:
		if (a->size > HWPROF_ATTR_SIZE_VER8 && attr_tail_nonzero(a, HWPROF_ATTR_SIZE_VER8)) {
			a->size = HWPROF_ATTR_SIZE_VER8;
			return -E2BIG;
		}
		if (fake == FAKE_PEBS && (a->flags >> HWPROF_ATTR_PRECISE_IP & 3))
			return 3;
		return a->type == HWPROF_TYPE_HARDWARE ? -ENOENT : 3;
	case FAKE_SIMD:
	case FAKE_SIMD_NO_HI16:
		if (hwprof_regs_validate(a, HWPROF_ARCH_X86_64, msg, sizeof(msg)) < 0)
			return -EINVAL;
		if (fake == FAKE_SIMD_NO_HI16 &&
		    ((a->sample_simd_vec_reg_intr | a->sample_simd_vec_reg_user) >> 16))
			return -EINVAL;
		return 3;
	case FAKE_SW_ONLY:
		if (a->sample_simd_regs_enabled ||
		    ((a->sample_regs_intr | a->sample_regs_user) & HWPROF_X86_LEGACY_XMM_MASK))
			return -EOPNOTSUPP;
		return 3;
	case FAKE_ARM64_SVE:
		return a->sample_simd_regs_enabled ? -EINVAL : 3;
	}
	return -ENOSYS;
}

static int fake_close(int fd)
{
	fake_closes++;
	return 0;
}

static const struct hwprof_sys_ops fake_ops = { .perf_event_open = fake_open, .close = fake_close };

static void probe(enum fake_kind k, enum hwprof_arch arch, int user, struct hwprof_regs_avail *av,
		  char *line, size_t len)
{
	fake = k;
	fake_opens = fake_closes = 0;
	assert_int_equal(hwprof_regs_probe(&fake_ops, arch, user, av), 0);
	hwprof_regs_format_avail(line, len, av);
}

#define GPR_LINE "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 "
#define EGPR_LIST "R16 R17 R18 R19 R20 R21 R22 R23 R24 R25 R26 R27 R28 R29 R30 R31 SSP "

static void test_probe_618(void **state)
{
	struct hwprof_regs_avail av;
	char line[1024];
	for (int user = 0; user < 2; user++) {
		probe(FAKE_618, HWPROF_ARCH_X86_64, user, &av, line, sizeof(line));
		assert_string_equal(line, GPR_LINE "\n"); /* what perf 6.1 prints here */
		assert_int_equal(av.kernel_attr_size, 136);
		assert_int_equal(av.simd_errno, E2BIG);
		assert_int_equal(av.abi, HWPROF_REGS_ABI_64);
		assert_int_equal(av.mask, 0xff0fff);
		assert_int_equal(fake_closes, 0);
	}
	/* the refused open explained */
	struct hwprof_attr a = simd_attr();
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, -E2BIG, 136);
	assert_string_equal(line, "the kernel's perf_event_attr is 136 bytes, ours is 176: this kernel "
			    "predates SIMD/eGPR/SSP register sampling (needs 176 bytes); drop "
			    "xmm/ymm/zmm/opmask/r16-r31/ssp from -I/--user-regs or use a kernel with "
			    "the SIMD sampling series");
	/* -Izmm refused by the probe: the CLI's reason */
	hwprof_regs_explain_unavailable(line, sizeof(line), "zmm", &av);
	assert_string_equal(line, "zmm names SIMD, APX eGPR or SSP registers, which this kernel cannot "
			    "sample (its perf_event_attr is 136 bytes, without the sample_simd_* fields of "
			    "176-byte attrs); see the request with --dry-run, or sample the GPRs only");
}

static void test_probe_simd(void **state)
{
	struct hwprof_regs_avail av;
	char line[1024];
	probe(FAKE_SIMD, HWPROF_ARCH_X86_64, 0, &av, line, sizeof(line));
	assert_string_equal(line, GPR_LINE EGPR_LIST "XMM0-15 YMM0-15 ZMM0-31 OPMASK0-7 \n");
	assert_int_equal(av.abi, HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD);
	assert_int_equal(av.simd_errno, 0);
	assert_int_equal(fake_closes, fake_opens);

	/* what the probe found is what -I accepts */
	struct hwprof_attr a;
	char msg[256];
	memset(&a, 0, sizeof(a));
	assert_int_equal(hwprof_regs_parse_list(&a, 0, "r31,zmm,opmask", &av, msg, sizeof(msg)), 0);
	assert_int_equal(fake_open(&a, 0, -1, -1, 0), 3);

	probe(FAKE_SIMD_NO_HI16, HWPROF_ARCH_X86_64, 1, &av, line, sizeof(line));
	assert_string_equal(line, GPR_LINE EGPR_LIST "XMM0-15 YMM0-15 ZMM0-15 OPMASK0-7 \n");
	assert_int_equal(av.class_mask[HWPROF_SIMD_ZMM], 0xffff);
	/* a SIMD kernel whose CPU lacks a class */
	av.class_mask[HWPROF_SIMD_OPMASK] = 0;
	hwprof_regs_explain_unavailable(line, sizeof(line), "ax,opmask", &av);
	assert_string_equal(line, "ax,opmask names SIMD, APX eGPR or SSP registers, which this CPU or PMU "
			    "does not offer (the kernel samples SIMD registers, but not these; 'hwprof "
			    "record -I?' lists what it can); see the request with --dry-run, or sample "
			    "the GPRs only");

	/* a kernel that accepts SIMD but refuses this request: EINVAL explained */
	a = simd_attr();
	a.sample_simd_vec_reg_intr = 0xff;
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EINVAL, 0);
	assert_string_equal(line, "sample_simd_vec_reg_intr 0xff: only whole classes can be sampled "
			    "(0xffff for XMM/YMM/ZMM0-15, 0xffffffff for ZMM0-31)");
	a = simd_attr();
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EINVAL, 0);
	assert_string_equal(line, "the kernel refused the SIMD register request: a requested class "
			    "(YMM/ZMM/OPMASK), the eGPRs or SSP may be missing on this CPU or PMU; run "
			    "'hwprof record -I?' to list what is available");
}

static void test_probe_software_pmu(void **state)
{
	struct hwprof_regs_avail av;
	char line[1024];
	probe(FAKE_SW_ONLY, HWPROF_ARCH_X86_64, 0, &av, line, sizeof(line));
	assert_string_equal(line, GPR_LINE "\n");
	assert_int_equal(av.simd_errno, EOPNOTSUPP);
	assert_int_equal(av.kernel_attr_size, 0);
	hwprof_regs_explain_unavailable(line, sizeof(line), "ssp", &av);
	assert_string_equal(line, "ssp names SIMD, APX eGPR or SSP registers, which cannot be sampled "
			    "here (the kernel refused them on cycles: Operation not supported); see the "
			    "request with --dry-run, or sample the GPRs only");

	struct hwprof_attr a = simd_attr();
	a.type = HWPROF_TYPE_SOFTWARE;
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EOPNOTSUPP, 0);
	assert_string_equal(line, "this event's PMU cannot sample SIMD/eGPR/SSP registers (software "
			    "events like cpu-clock never can); use a hardware event such as cycles, "
			    "or drop the SIMD registers");
	/* a hardware PMU without the capability: cycles would not help */
	a.type = HWPROF_TYPE_HARDWARE;
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EOPNOTSUPP, 0);
	assert_string_equal(line, "this event's PMU has no SIMD/eGPR/SSP register sampling; drop the SIMD "
			    "registers from -I/--user-regs, or on PEBS hardware sample xmm0-xmm15 the "
			    "older way with a precise event such as cycles:p");
	memset(&a, 0, sizeof(a));
	a.sample_type = HWPROF_SAMPLE_REGS_INTR;
	a.sample_regs_intr = 3ULL << 32;
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EOPNOTSUPP, 0);
	assert_string_equal(line, "this event's PMU cannot sample XMM registers (no extended-register "
			    "support); use cycles:p on PEBS hardware, or drop xmm0-xmm15");
	hwprof_regs_explain_open_error(line, sizeof(line), &a, HWPROF_ARCH_X86_64, EINVAL, 0);
	assert_string_equal(line, "XMM registers through sample_regs need PEBS (cycles:p) on this "
			    "kernel; use a precise hardware event or drop xmm0-xmm15");
	hwprof_regs_explain_open_error(line, sizeof(line), NULL, HWPROF_ARCH_X86_64, ENOENT, 0);
	assert_string_equal(line, "perf_event_open failed: No such file or directory");
}

static void test_probe_pebs_and_arm64(void **state)
{
	struct hwprof_regs_avail av;
	char line[1024];
	probe(FAKE_PEBS, HWPROF_ARCH_X86_64, 0, &av, line, sizeof(line));
	assert_string_equal(line, GPR_LINE "XMM0 XMM1 XMM2 XMM3 XMM4 XMM5 XMM6 XMM7 XMM8 XMM9 XMM10 "
			    "XMM11 XMM12 XMM13 XMM14 XMM15 \n");
	assert_int_equal(av.abi, HWPROF_REGS_ABI_64);

	probe(FAKE_ARM64_SVE, HWPROF_ARCH_ARM64, 1, &av, line, sizeof(line));
	assert_string_equal(line, "available registers: x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 "
			    "x14 x15 x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 lr sp pc vg \n");
	probe(FAKE_ARM64_SVE, HWPROF_ARCH_ARM64, 0, &av, line, sizeof(line));
	assert_int_equal(av.mask, HWPROF_ARM64_GPR_MASK);
	assert_int_equal(fake_opens, 0);

	/* no ops: GPRs only; tiny buffers still report the needed length */
	assert_int_equal(hwprof_regs_probe(NULL, HWPROF_ARCH_X86_64, 0, &av), 0);
	char small[8];
	int n = hwprof_regs_format_avail(small, sizeof(small), &av);
	assert_int_equal(n, (int)strlen(GPR_LINE "\n"));
	assert_string_equal(small, "availab");
}

/* The real syscall path: a SIMD request on a software event can never
 * succeed; an older kernel says E2BIG and writes its own size back. */
static void test_sys_default(void **state)
{
	const struct hwprof_sys_ops *ops = hwprof_sys_default();
	assert_non_null(ops->perf_event_open);
	struct hwprof_attr a = simd_attr();
	a.type = HWPROF_TYPE_SOFTWARE;
	a.sample_period = 100000;
	a.flags = 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL;
	int rc = ops->perf_event_open(&a, 0, -1, -1, 0);
	if (rc >= 0)
		ops->close(rc);
	assert_true(rc < 0);
	if (rc == -E2BIG) {
		assert_true(a.size >= HWPROF_ATTR_SIZE_VER0 && a.size < HWPROF_ATTR_SIZE_VER10);
	} else {
		assert_int_equal(a.size, HWPROF_ATTR_SIZE_VER10);
	}
	a.size = 4096; /* larger than the seam passes on */
	assert_int_equal(ops->perf_event_open(&a, 0, -1, -1, 0), -EINVAL);
}

/* ---- printers --------------------------------------------------------------- */

static char *capture_dump(const char *which, const struct hwprof_regs *r, enum hwprof_arch arch)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	print_regs_dump(f, which, r, arch);
	fclose(f);
	return buf;
}

static void test_dump_perf61(void **state)
{
	/* values of a real perf 6.1 recording (-I --user-regs=ax,bx,sp,ip) */
	uint64_t v[4] = { 0x200, 0x380, 0x00007fff3fb41c38ULL, 0x00007fa091b943e0ULL };
	struct hwprof_regs r;
	memset(&r, 0, sizeof(r));
	r.abi = HWPROF_REGS_ABI_64;
	r.mask = 0x183;
	r.regs = (const uint8_t *)v;
	r.nr = 4;
	char *s = capture_dump("user", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s, "... user regs: mask 0x183 ABI 64-bit\n"
			       ".... AX    0x0000000000000200\n"
			       ".... BX    0x0000000000000380\n"
			       ".... SP    0x00007fff3fb41c38\n"
			       ".... IP    0x00007fa091b943e0\n");
	free(s);

	/* legacy XMM pairs and unnamed bits, as perf 6.1 prints them */
	r.mask = 0x301000001ULL;
	s = capture_dump("user", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s, "... user regs: mask 0x301000001 ABI 64-bit\n"
			       ".... AX    0x0000000000000200\n"
			       ".... unknown 0x0000000000000380\n"
			       ".... XMM0  0x00007fff3fb41c38\n"
			       ".... XMM0  0x00007fa091b943e0\n");
	free(s);

	r.abi = 3;
	s = capture_dump("intr", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s, "... intr regs: mask 0x301000001 ABI unknown\n"
			       ".... AX    0x0000000000000200\n"
			       ".... unknown 0x0000000000000380\n"
			       ".... XMM0  0x00007fff3fb41c38\n"
			       ".... XMM0  0x00007fa091b943e0\n");
	free(s);

	r.abi = HWPROF_REGS_ABI_NONE; /* exclude_kernel skid: nothing printed */
	s = capture_dump("intr", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s, "");
	free(s);

	char line[512];
	r.abi = HWPROF_REGS_ABI_64;
	r.mask = 0x183;
	print_regs_script_buf(line, sizeof(line), &r, HWPROF_ARCH_X86_64);
	assert_string_equal(line, " ABI:2    AX:0x200    BX:0x380    SP:0x7fff3fb41c38    IP:0x7fa091b943e0 ");
	r.mask = 0x301000001ULL;
	print_regs_script_buf(line, sizeof(line), &r, HWPROF_ARCH_X86_64);
	assert_string_equal(line, " ABI:2    AX:0x200 unknown:0x380  XMM0:0x7fff3fb41c38  XMM0:0x7fa091b943e0 ");
	r.abi = 0;
	assert_int_equal(print_regs_script_buf(line, sizeof(line), &r, HWPROF_ARCH_X86_64), 0);
	assert_string_equal(line, "");
}

static void test_dump_simd(void **state)
{
	/* ax, r16, ssp; two ZMM registers and two OPMASK registers */
	uint64_t g[3] = { 1, 0x16, 0x7ffff000ULL };
	uint64_t d[2 * 8 + 2];
	for (int i = 0; i < 16; i++)
		d[i] = 0x1000 + (uint64_t)i;
	d[16] = 0x100221;
	d[17] = 0;
	struct hwprof_regs r;
	memset(&r, 0, sizeof(r));
	r.abi = HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD;
	r.mask = 0x10001000001ULL;
	r.regs = (const uint8_t *)g;
	r.nr = 3;
	r.nr_vectors = 2;
	r.vector_qwords = 8;
	r.nr_pred = 2;
	r.pred_qwords = 1;
	r.simd_data = (const uint8_t *)d;
	r.vec_mask = 0x3;
	r.pred_mask = 0x6;
	char *s = capture_dump("intr", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s,
		"... intr regs: mask 0x10001000001 ABI 64-bit SIMD\n"
		".... AX    0x0000000000000001\n"
		".... R16   0x0000000000000016\n"
		".... SSP   0x000000007ffff000\n"
		"... SIMD ABI nr_vectors 2 vector_qwords 8 nr_pred 2  pred_qwords 1\n"
		".... ZMM[0][0] 0x0000000000001000\n.... ZMM[0][1] 0x0000000000001001\n"
		".... ZMM[0][2] 0x0000000000001002\n.... ZMM[0][3] 0x0000000000001003\n"
		".... ZMM[0][4] 0x0000000000001004\n.... ZMM[0][5] 0x0000000000001005\n"
		".... ZMM[0][6] 0x0000000000001006\n.... ZMM[0][7] 0x0000000000001007\n"
		".... ZMM[1][0] 0x0000000000001008\n.... ZMM[1][1] 0x0000000000001009\n"
		".... ZMM[1][2] 0x000000000000100a\n.... ZMM[1][3] 0x000000000000100b\n"
		".... ZMM[1][4] 0x000000000000100c\n.... ZMM[1][5] 0x000000000000100d\n"
		".... ZMM[1][6] 0x000000000000100e\n.... ZMM[1][7] 0x000000000000100f\n"
		".... OPMASK[0] 0x0000000000100221\n"
		".... OPMASK[1] 0x0000000000000000\n");
	free(s);

	char line[1024];
	print_regs_script_buf(line, sizeof(line), &r, HWPROF_ARCH_X86_64);
	assert_string_equal(line,
		" ABI:6    AX:0x1   R16:0x16   SSP:0x7ffff000 "
		"zmm0=0x0000000000001007000000000000100600000000000010050000000000001004"
		"0000000000001003000000000000100200000000000010010000000000001000 "
		"zmm1=0x000000000000100f000000000000100e000000000000100d000000000000100c"
		"000000000000100b000000000000100a00000000000010090000000000001008 "
		"k1=0x0000000000100221 k2=0x0000000000000000 ");

	/* XMM width, 32-bit SIMD abi, unknown predicate width */
	r.abi = HWPROF_REGS_ABI_32 | HWPROF_REGS_ABI_SIMD;
	r.mask = 1;
	r.nr = 1;
	r.nr_vectors = 1;
	r.vector_qwords = 2;
	r.nr_pred = 1;
	r.pred_qwords = 2;
	s = capture_dump("user", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s,
		"... user regs: mask 0x1 ABI 32-bit SIMD\n"
		".... AX    0x0000000000000001\n"
		"... SIMD ABI nr_vectors 1 vector_qwords 2 nr_pred 1  pred_qwords 2\n"
		".... XMM[0][0] 0x0000000000001000\n"
		".... XMM[0][1] 0x0000000000001001\n"
		".... unknown[0][0] 0x0000000000001002\n"
		".... unknown[0][1] 0x0000000000001003\n");
	free(s);

	/* SIMD bit with an empty block: no SIMD line */
	r.nr_vectors = r.nr_pred = 0;
	s = capture_dump("user", &r, HWPROF_ARCH_X86_64);
	assert_string_equal(s, "... user regs: mask 0x1 ABI 32-bit SIMD\n"
			       ".... AX    0x0000000000000001\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_x86),
		cmocka_unit_test(test_names_arm64),
		cmocka_unit_test(test_lookup_x86),
		cmocka_unit_test(test_arch),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_attr_tail_offsets),
		cmocka_unit_test(test_validate_accepts),
		cmocka_unit_test(test_validate_rejects),
		cmocka_unit_test(test_parse_legacy),
		cmocka_unit_test(test_parse_simd),
		cmocka_unit_test(test_probe_618),
		cmocka_unit_test(test_probe_simd),
		cmocka_unit_test(test_probe_software_pmu),
		cmocka_unit_test(test_probe_pebs_and_arm64),
		cmocka_unit_test(test_sys_default),
		cmocka_unit_test(test_dump_perf61),
		cmocka_unit_test(test_dump_simd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
