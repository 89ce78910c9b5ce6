/* Unit tests of the Arm SPE packet layer: decoder (each kind, extended and
 * alignment forms, truncation at every byte, resync), perf 6.1 description
 * texts, record assembly and encoder round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwprof/arm_spe.h"

static int decode(const char *bytes, size_t n, struct hwprof_spe_pkt *p)
{
	return hwprof_spe_pkt_decode(bytes, n, 0, p);
}

static void test_null_args(void **state)
{
	struct hwprof_spe_pkt p;
	struct hwprof_spe_decoder d;
	struct hwprof_spe_record r;
	struct hwprof_spe_writer w;
	char buf[8];

	(void)state;
	assert_int_equal(hwprof_spe_pkt_decode(NULL, 4, 0, &p), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_pkt_decode("\x01", 1, 0, NULL), -HWPROF_E_INVAL);
	assert_int_equal(decode("", 0, &p), -HWPROF_E_NEED_MORE);
	assert_int_equal(hwprof_spe_decoder_next(NULL, &p), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_record_next(NULL, &r), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_pkt_desc(NULL, buf, sizeof(buf)), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_put_packet(NULL, HWPROF_SPE_END, 0, 0, 0), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_put_record(NULL, &r), -HWPROF_E_INVAL);
	hwprof_spe_decoder_init(NULL, NULL, 0, 0);
	hwprof_spe_record_init(NULL);
	hwprof_spe_writer_init(NULL, NULL, 0);
	hwprof_spe_decoder_init(&d, NULL, 10, 0);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 0);
	hwprof_spe_writer_init(&w, NULL, 10);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_END, 0, 0, 0), -HWPROF_E_NOMEM);
}

struct kind_case {
	const char *bytes;
	size_t len;
	uint8_t type, index, hdr_len;
	uint64_t payload;
};

static const struct kind_case kinds[] = {
	{ "\x00", 1, HWPROF_SPE_PAD, 0, 1, 0 },
	{ "\x01", 1, HWPROF_SPE_END, 0, 1, 0 },
	{ "\x71\x40\x42\x0f\x00\x00\x00\x00\x00", 9, HWPROF_SPE_TIMESTAMP, 0, 1, 1000000 },
	{ "\x42\x02", 2, HWPROF_SPE_EVENTS, 1, 1, 2 },
	{ "\x52\x16\x00", 3, HWPROF_SPE_EVENTS, 2, 1, 0x16 },
	{ "\x62\x01\x02\x03\x04", 5, HWPROF_SPE_EVENTS, 4, 1, 0x04030201 },
	{ "\x72\x01\x02\x03\x04\x05\x06\x07\x08", 9, HWPROF_SPE_EVENTS, 8, 1, 0x0807060504030201ull },
	{ "\x43\x07", 2, HWPROF_SPE_DATA_SOURCE, 0, 1, 7 },
	{ "\x53\x0e\x00", 3, HWPROF_SPE_DATA_SOURCE, 0, 1, 14 },
	{ "\x64\x64\x00\x00\x00", 5, HWPROF_SPE_CONTEXT, 0, 1, 100 },
	{ "\x65\x64\x00\x00\x00", 5, HWPROF_SPE_CONTEXT, 1, 1, 100 },
	{ "\x48\x00", 2, HWPROF_SPE_OP_TYPE, 0, 1, 0 },
	{ "\x49\x01", 2, HWPROF_SPE_OP_TYPE, 1, 1, 1 },
	{ "\x4a\x02", 2, HWPROF_SPE_OP_TYPE, 2, 1, 2 },
	{ "\x4b\x55", 2, HWPROF_SPE_OP_TYPE, 3, 1, 0x55 },
	{ "\xb0\x34\x12\x00\xd0\xaa\xaa\x00\x80", 9, HWPROF_SPE_ADDRESS, 0, 1, 0x8000aaaad0001234ull },
	{ "\xb1\x00\x11\x00\x08\x00\x80\xff\xa0", 9, HWPROF_SPE_ADDRESS, 1, 1, 0xa0ff800008001100ull },
	{ "\xb2\x00\x10\x00\xe0\xff\xff\x00\x80", 9, HWPROF_SPE_ADDRESS, 2, 1, 0x8000ffffe0001000ull },
	{ "\xb3\x00\x10\x00\x8a\x00\x00\x00\x80", 9, HWPROF_SPE_ADDRESS, 3, 1, 0x800000008a001000ull },
	{ "\xb4\x80\x12\x00\xd0\xaa\xaa\x00\x80", 9, HWPROF_SPE_ADDRESS, 4, 1, 0x8000aaaad0001280ull },
	{ "\x98\x0c\x00", 3, HWPROF_SPE_COUNTER, 0, 1, 12 },
	{ "\x99\x05\x00", 3, HWPROF_SPE_COUNTER, 1, 1, 5 },
	{ "\x9a\x01\x00", 3, HWPROF_SPE_COUNTER, 2, 1, 1 },
	{ "\x9f\xff\xff", 3, HWPROF_SPE_COUNTER, 7, 1, 0xffff },
	/* extended header: index = (byte0 & 3) << 3 | (byte1 & 7) */
	{ "\x21\xb0\x34\x12\x00\x00\x00\x00\x00\x00", 10, HWPROF_SPE_ADDRESS, 8, 2, 0x1234 },
	{ "\x23\xb7\x01\x00\x00\x00\x00\x00\x00\x00", 10, HWPROF_SPE_ADDRESS, 31, 2, 1 },
	{ "\x20\x98\x05\x00", 4, HWPROF_SPE_COUNTER, 0, 2, 5 },
	{ "\x22\x9b\x05\x01", 4, HWPROF_SPE_COUNTER, 19, 2, 0x105 },
};

static void test_each_kind(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct kind_case *k = &kinds[i];
		struct hwprof_spe_pkt p;
		char more[32];

		assert_int_equal(decode(k->bytes, k->len, &p), (int)k->len);
		assert_int_equal(p.type, k->type);
		assert_int_equal(p.index, k->index);
		assert_int_equal(p.hdr_len, k->hdr_len);
		assert_int_equal(p.len, k->len);
		assert_true(p.payload == k->payload);
		/* trailing bytes do not change the packet */
		memcpy(more, k->bytes, k->len);
		memset(more + k->len, 0x5a, sizeof(more) - k->len);
		assert_int_equal(decode(more, sizeof(more), &p), (int)k->len);
		assert_true(p.payload == k->payload);
		/* truncation at every byte */
		for (size_t cut = 0; cut < k->len; cut++)
			assert_int_equal(decode(k->bytes, cut, &p), -HWPROF_E_NEED_MORE);
	}
}

static void test_bad_headers(void **state)
{
	struct hwprof_spe_pkt p;
	int good = 0;

	(void)state;
	for (unsigned h = 0; h < 256; h++) {
		uint8_t b[16] = { (uint8_t)h, 0x98 };
		int r = hwprof_spe_pkt_decode(b, sizeof(b), 0, &p);

		if (r > 0)
			good++;
		else
			assert_int_equal(r, -HWPROF_E_BAD_PACKET);
	}
	/* PAD END TS, 4 EVENTS, 4 DATA_SOURCE, 4 CONTEXT, 4 OP, 4 EXT, 8 ADDR, 8 CNT */
	assert_int_equal(good, 3 + 4 + 4 + 4 + 4 + 4 + 8 + 8);
	/* extended header whose second byte is not ADDRESS/COUNTER */
	assert_int_equal(decode("\x20\x42\x00", 3, &p), -HWPROF_E_BAD_PACKET);
	assert_int_equal(decode("\x20\x71\x00", 3, &p), -HWPROF_E_BAD_PACKET);
	assert_int_equal(decode("\x20", 1, &p), -HWPROF_E_NEED_MORE);
}

static void test_alignment(void **state)
{
	static const char z[16] = "\x21";
	struct hwprof_spe_pkt p;

	(void)state;
	/* 0x21 0x00: align to 1 << (1 + 1) = 4, measured on the address */
	assert_int_equal(hwprof_spe_pkt_decode(z, 16, 0, &p), 4);
	assert_int_equal(p.type, HWPROF_SPE_PAD);
	assert_int_equal(hwprof_spe_pkt_decode(z, 16, 1, &p), 3);
	assert_int_equal(hwprof_spe_pkt_decode(z, 16, 3, &p), 1);
	assert_int_equal(p.hdr_len, 1);
	assert_int_equal(hwprof_spe_pkt_decode(z, 3, 0, &p), -HWPROF_E_NEED_MORE);
	/* 0x23 0x00: align to 16 */
	assert_int_equal(hwprof_spe_pkt_decode("\x23\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
					       16, 0, &p), 16);
	assert_int_equal(hwprof_spe_pkt_decode("\x23\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
					       16, 8, &p), 8);
	assert_int_equal(hwprof_spe_pkt_decode("\x23\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
					       15, 8, &p), -HWPROF_E_NEED_MORE);
}

static void test_pad_fold_and_resync(void **state)
{
	/* 20 zeros, 2 garbage bytes, a PC, END, then a cut TS */
	uint8_t b[64] = { 0 };
	size_t n = 20;
	struct hwprof_spe_decoder d;
	struct hwprof_spe_pkt p;

	(void)state;
	b[n++] = 0x02;
	b[n++] = 0xff;
	memcpy(b + n, "\xb0\x34\x12\x00\xd0\xaa\xaa\x00\x80\x01\x71\x01\x02", 13);
	n += 13;
	hwprof_spe_decoder_init(&d, b, n, 0);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 1);
	assert_int_equal(p.type, HWPROF_SPE_PAD);
	assert_int_equal(p.len, 16);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 1);
	assert_int_equal(p.len, 4);
	assert_int_equal(p.offset, 16);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), -HWPROF_E_BAD_PACKET);
	assert_int_equal(p.offset, 20);
	assert_int_equal(p.len, 1);
	assert_int_equal(hwprof_spe_decoder_error(&d)->offset, 20);
	assert_non_null(strstr(hwprof_spe_decoder_error(&d)->msg, "0x14"));
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), -HWPROF_E_BAD_PACKET);
	assert_int_equal(p.offset, 21);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 1);
	assert_int_equal(p.type, HWPROF_SPE_ADDRESS);
	assert_int_equal(p.offset, 22);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 1);
	assert_int_equal(p.type, HWPROF_SPE_END);
	/* cut TS: each remaining byte is bad on its own */
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), -HWPROF_E_NEED_MORE);
	assert_int_equal(p.offset, 32);
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 1); /* 0x01 = END */
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), -HWPROF_E_BAD_PACKET); /* 0x02 */
	assert_int_equal(hwprof_spe_decoder_next(&d, &p), 0);
	assert_int_equal(hwprof_spe_decoder_offset(&d), n);
}

struct desc_case {
	const char *bytes;
	size_t len;
	const char *desc;
};

static const struct desc_case descs[] = {
	/* verified perf 6.1 lines (perfdata-format.md §3) */
	{ "\xb0\x34\x12\x00\xd0\xaa\xaa\x00\x80", 9, "PC 0xaaaad0001234 el0 ns=1" },
	{ "\x99\x05\x00", 3, "LAT 5 ISSUE" },
	{ "\x52\x16\x00", 3, "EV RETIRED L1D-ACCESS TLB-ACCESS" },
	{ "\x49\x00", 2, "LD GP-REG" },
	{ "\xb2\x00\x10\x00\xe0\xff\xff\x00\x80", 9, "VA 0x8000ffffe0001000" },
	{ "\x9a\x01\x00", 3, "LAT 1 XLAT" },
	{ "\xb3\x00\x10\x00\x8a\x00\x00\x00\x80", 9, "PA 0x8a001000 ns=1 ch=0 pat=0" },
	{ "\x98\x0c\x00", 3, "LAT 12 TOT" },
	{ "\x53\x00\x00", 3, "DATA-SOURCE 0" },
	{ "\x65\x64\x00\x00\x00", 5, "CONTEXT 0x64 el2" },
	{ "\x71\x40\x42\x0f\x00\x00\x00\x00\x00", 9, "TS 1000000" },
	{ "\xb0\x00\x10\x00\x08\x00\x80\xff\xa0", 9, "PC 0xff800008001000 el1 ns=1" },
	{ "\x4a\x01", 2, "B COND" },
	{ "\x52\xc2\x00", 3, "EV RETIRED NOT-TAKEN MISPRED" },
	{ "\xb1\x00\x11\x00\x08\x00\x80\xff\xa0", 9, "TGT 0xff800008001100 el1 ns=1" },
	{ "\x48\x00", 2, "OTHER INSN-OTHER" },
	{ "\x42\x02", 2, "EV RETIRED" },
	{ "\x01", 1, "END" },
	{ "\x00", 1, "PAD" },
	{ "\x52\x3e\x03", 3, "EV RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS TLB-REFILL LLC-ACCESS LLC-REFILL" },
	{ "\x49\x0b", 2, "ST EXCL" },
	{ "\x49\x1c", 2, "LD EVLEN 64 PRED" },
	{ "\xb4\x80\x12\x00\xd0\xaa\xaa\x00\x80", 9, "ADDR 0x8000aaaad0001280 (4)" },
	{ "\x21\xb0\x34\x12\x00\x00\x00\x00\x00\x00", 10, "ADDR 0x1234 (8)" },
	{ "\x4b\x55", 2, "OP-TYPE 0x55 (3)" },
	/* further cases, checked against perf 6.1 by tests/diff/spe_dump.sh */
	{ "\x71\xff\xff\xff\xff\xff\xff\xff\xff", 9, "TS -1" },
	{ "\x73\x00\x00\x00\x00\x00\x00\x00\x80", 9, "DATA-SOURCE -9223372036854775808" },
	{ "\x9b\x07\x00", 3, "LAT 7 " },
	{ "\x66\xff\xff\xff\xff", 5, "CONTEXT 0xffffffff el3" },
	{ "\x42\x00", 2, "EV" },
	{ "\x62\x01\x08\x06\x00", 5, "EV EXCEPTION-GEN ALIGNMENT SVE-PARTIAL-PRED SVE-EMPTY-PRED" },
	{ "\x62\x00\x00\xf9\x03", 5, "EV" }, /* TXN, L2D, HITM...: perf 6.1 ignores */
	{ "\x48\x01", 2, "OTHER COND-SELECT" },
	{ "\x48\x0e", 2, "SVE-OTHER EVLEN 32 FP PRED" },
	{ "\x48\x78", 2, "SVE-OTHER EVLEN 4096" },
	{ "\x49\x05", 2, "ST SIMD-FP" },
	{ "\x49\x10", 2, "LD UNSPEC-REG" },
	{ "\x49\x31", 2, "ST NV-SYSREG" },
	{ "\x49\x16", 2, "LD AT AR" },
	{ "\x49\xac", 2, "LD EVLEN 128 PRED SG" },
	{ "\x4a\x02", 2, "B IND" },
	{ "\x4a\x03", 2, "B COND IND" },
	{ "\x4a\x06", 2, "B" },
	{ "\xb3\xff\xff\xff\xff\xff\xff\xff\x4c", 9, "PA 0xffffffffffffff ns=0 ch=1 pat=c" },
	{ "\x20\x9a\x10\x00", 4, "LAT 16 XLAT" },
	{ "\x21\x00\x00\x00", 4, "PAD" },
};

static void test_desc(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
		struct hwprof_spe_pkt p;
		char buf[256];
		int n;

		assert_int_equal(decode(descs[i].bytes, descs[i].len, &p), (int)descs[i].len);
		n = hwprof_spe_pkt_desc(&p, buf, sizeof(buf));
		assert_string_equal(buf, descs[i].desc);
		assert_int_equal(n, (int)strlen(descs[i].desc));
	}
}

static void test_desc_small_buffer(void **state)
{
	struct hwprof_spe_pkt p;
	char buf[6];

	(void)state;
	decode("\x52\x16\x00", 3, &p);
	assert_int_equal(hwprof_spe_pkt_desc(&p, buf, sizeof(buf)), 32);
	assert_string_equal(buf, "EV RE");
	assert_int_equal(hwprof_spe_pkt_desc(&p, NULL, 0), 32);
	p.type = 200;
	assert_int_equal(hwprof_spe_pkt_desc(&p, buf, sizeof(buf)), -HWPROF_E_INVAL);
}

static void test_addr_value(void **state)
{
	(void)state;
	/* user PC: top byte cleared */
	assert_true(hwprof_spe_addr_value(0, 0x8000aaaad0001234ull) == 0xaaaad0001234ull);
	/* NS EL1 and EL2: kernel half */
	assert_true(hwprof_spe_addr_value(0, 0xa0ff800008001000ull) == 0xffff800008001000ull);
	assert_true(hwprof_spe_addr_value(1, 0xc0ff800008001000ull) == 0xffff800008001000ull);
	/* secure EL1 or EL3: no fill */
	assert_true(hwprof_spe_addr_value(0, 0x20ff800008001000ull) == 0x00ff800008001000ull);
	assert_true(hwprof_spe_addr_value(0, 0xe0ff800008001000ull) == 0x00ff800008001000ull);
	/* VA: tag stripped, kernel pattern in bits 55:52 fills the top byte */
	assert_true(hwprof_spe_addr_value(2, 0x8000ffffe0001000ull) == 0xffffe0001000ull);
	assert_true(hwprof_spe_addr_value(2, 0x12f0000000001000ull) == 0xfff0000000001000ull);
	/* PA: bits 55:0 */
	assert_true(hwprof_spe_addr_value(3, 0xcf0000008a001000ull) == 0x8a001000ull);
	/* unknown: unchanged */
	assert_true(hwprof_spe_addr_value(4, 0xcf0000008a001000ull) == 0xcf0000008a001000ull);
}

static void fill_load(struct hwprof_spe_record *r, int ts)
{
	hwprof_spe_record_init(r);
	r->present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_VA | HWPROF_SPE_HAS_PA |
		     HWPROF_SPE_HAS_LAT_TOTAL | HWPROF_SPE_HAS_LAT_ISSUE | HWPROF_SPE_HAS_LAT_XLAT |
		     HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_OP | HWPROF_SPE_HAS_DATA_SOURCE |
		     HWPROF_SPE_HAS_CONTEXT | (ts ? HWPROF_SPE_HAS_TIMESTAMP : 0);
	r->pc = 0xaaaad0001234ull;
	r->pc_ns = 1;
	r->va = 0xffffe0001000ull;
	r->va_tag = 0x80;
	r->pa = 0x8a001000ull;
	r->pa_ns = 1;
	r->pa_pat = 5;
	r->lat_total = 12;
	r->lat_issue = 5;
	r->lat_xlat = 1;
	r->events = 0x16;
	r->op_class = HWPROF_SPE_OP_CLASS_LDST;
	r->op = HWPROF_SPE_OP_LD_GP;
	r->data_source = 14;
	r->context_id = 100;
	r->context_el = 1;
	r->timestamp = ts ? 1000000 : 0;
}

static void assert_same_record(const struct hwprof_spe_record *a, const struct hwprof_spe_record *b)
{
	assert_int_equal(a->present, b->present);
	assert_true(a->pc == b->pc);
	assert_int_equal(a->pc_el, b->pc_el);
	assert_int_equal(a->pc_ns, b->pc_ns);
	assert_true(a->target == b->target);
	assert_int_equal(a->target_el, b->target_el);
	assert_true(a->prev_branch == b->prev_branch);
	assert_true(a->va == b->va);
	assert_int_equal(a->va_tag, b->va_tag);
	assert_true(a->pa == b->pa);
	assert_int_equal(a->pa_ns, b->pa_ns);
	assert_int_equal(a->pa_ch, b->pa_ch);
	assert_int_equal(a->pa_pat, b->pa_pat);
	assert_int_equal(a->lat_total, b->lat_total);
	assert_int_equal(a->lat_issue, b->lat_issue);
	assert_int_equal(a->lat_xlat, b->lat_xlat);
	assert_true(a->events == b->events);
	assert_int_equal(a->op_class, b->op_class);
	assert_int_equal(a->op, b->op);
	assert_int_equal(a->data_source, b->data_source);
	assert_true(a->context_id == b->context_id);
	assert_int_equal(a->context_el, b->context_el);
	assert_true(a->timestamp == b->timestamp);
}

static void test_record_roundtrip(void **state)
{
	uint8_t buf[1024];
	struct hwprof_spe_writer w;
	struct hwprof_spe_decoder d;
	struct hwprof_spe_record in[4], out;
	int n;

	(void)state;
	fill_load(&in[0], 1);
	fill_load(&in[1], 0);
	/* kernel branch with a 64-bit event word */
	hwprof_spe_record_init(&in[2]);
	in[2].present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_TARGET | HWPROF_SPE_HAS_OP |
			HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_PREV_BRANCH | HWPROF_SPE_HAS_TIMESTAMP;
	in[2].pc = 0xffff800008001000ull;
	in[2].pc_el = 1;
	in[2].pc_ns = 1;
	in[2].target = 0xffff800008001100ull;
	in[2].target_el = 1;
	in[2].target_ns = 1;
	in[2].prev_branch = 0x800008000f00ull;
	in[2].op_class = HWPROF_SPE_OP_CLASS_BRANCH;
	in[2].op = HWPROF_SPE_OP_BR_COND;
	in[2].events = 0x1000000000c2ull;
	in[2].timestamp = 0xffffffffffffffffull;
	/* SVE data processing, END only */
	hwprof_spe_record_init(&in[3]);
	in[3].present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_OP | HWPROF_SPE_HAS_EVENTS;
	in[3].pc = 0x400000;
	in[3].op_class = HWPROF_SPE_OP_CLASS_OTHER;
	in[3].op = HWPROF_SPE_OP_SVE_OTHER(2, 1, 1);
	in[3].events = 0x60002;

	hwprof_spe_writer_init(&w, buf, sizeof(buf));
	for (int i = 0; i < 4; i++) {
		n = hwprof_spe_put_record(&w, &in[i]);
		assert_true(n > 0);
		if (i == 1) /* padding between records is skipped */
			hwprof_spe_put_packet(&w, HWPROF_SPE_PAD, 0, 0, 0);
	}
	assert_true(hwprof_spe_writer_len(&w) > 0);
	hwprof_spe_decoder_init(&d, buf, (size_t)hwprof_spe_writer_len(&w), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(hwprof_spe_record_next(&d, &out), 1);
		assert_same_record(&in[i], &out);
		assert_int_equal(out.end, (in[i].present & HWPROF_SPE_HAS_TIMESTAMP) ?
				 HWPROF_SPE_REC_TIMESTAMP : HWPROF_SPE_REC_END);
	}
	assert_int_equal(hwprof_spe_record_next(&d, &out), 0);
	/* the first record: PC 9, ISSUE 3, EV 2 (1-byte payload), OP 2, VA 9, XLAT 3,
	 * PA 9, TOT 3, DS 3, CONTEXT 5, TS 9 */
	hwprof_spe_decoder_init(&d, buf, (size_t)hwprof_spe_writer_len(&w), 0);
	assert_int_equal(hwprof_spe_record_next(&d, &out), 1);
	assert_int_equal(out.offset, 0);
	assert_int_equal(out.size, 57);
}

static void test_record_edges(void **state)
{
	/* PAD, PC, garbage, PC, END, PAD, TS alone, then a record cut short */
	static const uint8_t b[] = {
		0x00, 0xb0, 1, 0, 0, 0, 0, 0, 0, 0x80, 0xff,
		0xb0, 2, 0, 0, 0, 0, 0, 0, 0x80, 0x01,
		0x00, 0x71, 7, 0, 0, 0, 0, 0, 0, 0,
		0x49, 0x01, 0x99, 0x05,
	};
	struct hwprof_spe_decoder d;
	struct hwprof_spe_record r;

	(void)state;
	hwprof_spe_decoder_init(&d, b, sizeof(b), 0);
	assert_int_equal(hwprof_spe_record_next(&d, &r), -HWPROF_E_BAD_PACKET);
	assert_int_equal(hwprof_spe_decoder_error(&d)->offset, 10);
	assert_int_equal(r.present, 0);
	assert_int_equal(hwprof_spe_record_next(&d, &r), 1);
	assert_int_equal(r.offset, 11);
	assert_int_equal(r.end, HWPROF_SPE_REC_END);
	assert_true(r.pc == 2);
	assert_true(r.context_id == (uint64_t)-1);
	assert_int_equal(hwprof_spe_record_next(&d, &r), 1);
	assert_int_equal(r.offset, 22);
	assert_int_equal(r.end, HWPROF_SPE_REC_TIMESTAMP);
	assert_int_equal(r.present, HWPROF_SPE_HAS_TIMESTAMP);
	assert_true(r.timestamp == 7);
	/* OP then a cut counter: the cut packet is an error, the record lost */
	assert_int_equal(hwprof_spe_record_next(&d, &r), -HWPROF_E_NEED_MORE);
	assert_int_equal(hwprof_spe_decoder_error(&d)->offset, 33);
	assert_int_equal(hwprof_spe_record_next(&d, &r), -HWPROF_E_BAD_PACKET); /* 0x05 */
	assert_int_equal(hwprof_spe_record_next(&d, &r), 0);

	/* a buffer ending without END/TS */
	hwprof_spe_decoder_init(&d, b + 11, 9, 0);
	assert_int_equal(hwprof_spe_record_next(&d, &r), 1);
	assert_int_equal(r.end, HWPROF_SPE_REC_TRUNCATED);
	assert_int_equal(r.size, 9);
	assert_int_equal(hwprof_spe_record_next(&d, &r), 0);
}

static void test_encoder(void **state)
{
	uint8_t buf[16];
	struct hwprof_spe_writer w;
	struct hwprof_spe_pkt p;

	(void)state;
	hwprof_spe_writer_init(&w, buf, sizeof(buf));
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_ADDRESS, 8, 0x1234, 8), 10);
	assert_memory_equal(buf, "\x21\xb0\x34\x12\x00\x00\x00\x00\x00\x00", 10);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_COUNTER, 19, 0x105, 2), 4);
	assert_memory_equal(buf + 10, "\x22\x9b\x05\x01", 4);
	assert_int_equal(hwprof_spe_pkt_decode(buf + 10, 4, 0, &p), 4);
	assert_int_equal(p.index, 19);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_EVENTS, 0, 2, 3), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_CONTEXT, 4, 2, 4), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_ADDRESS, 32, 2, 8), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_BAD, 0, 0, 0), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_spe_writer_len(&w), 14);
	/* no room: error sticks, nothing more written */
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_COUNTER, 0, 1, 2), -HWPROF_E_NOMEM);
	assert_int_equal(hwprof_spe_put_packet(&w, HWPROF_SPE_END, 0, 0, 0), -HWPROF_E_NOMEM);
	assert_int_equal(hwprof_spe_writer_len(&w), -HWPROF_E_NOMEM);
	assert_int_equal(hwprof_spe_writer_len(NULL), -HWPROF_E_INVAL);
	assert_true(hwprof_spe_addr_ins(0xffff800008001000ull, 1, 1) == 0xa0ff800008001000ull);
	assert_true(hwprof_spe_addr_pa(0x8a001000, 1, 1, 0xc) == 0xcc0000008a001000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_args),
		cmocka_unit_test(test_each_kind),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_pad_fold_and_resync),
		cmocka_unit_test(test_desc),
		cmocka_unit_test(test_desc_small_buffer),
		cmocka_unit_test(test_addr_value),
		cmocka_unit_test(test_record_roundtrip),
		cmocka_unit_test(test_record_edges),
		cmocka_unit_test(test_encoder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
