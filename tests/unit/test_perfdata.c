/* Unit tests of the perf.data reader and session on images built here by
 * hand: file and pipe mode, every sample field group used, SIMD register
 * blocks, attr sizes from 64 to beyond 176 bytes, unknown records, perf's
 * event ordering, and input cut at every byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_write.h"
#include "hwprof/session.h"
#include "util/bytes.h"

/* ---- a tiny image builder ------------------------------------------------ */

struct img { uint8_t b[16384]; size_t n; };

static size_t put(struct img *m, const void *p, size_t n)
{
	size_t at = m->n;
	memcpy(m->b + m->n, p, n);
	m->n += n;
	return at;
}
static size_t put64(struct img *m, uint64_t v) { return put(m, &v, 8); }
static size_t put32(struct img *m, uint32_t v) { return put(m, &v, 4); }
static void set64(struct img *m, size_t at, uint64_t v) { memcpy(m->b + at, &v, 8); }
static void set16(struct img *m, size_t at, uint16_t v) { memcpy(m->b + at, &v, 2); }

static size_t rec_begin(struct img *m, uint32_t type, uint16_t misc)
{
	size_t at = put32(m, type);
	put(m, &misc, 2);
	uint16_t z = 0;
	put(m, &z, 2);
	return at;
}
static void rec_end(struct img *m, size_t at) { set16(m, at + 6, (uint16_t)(m->n - at)); }

#define ST_BASIC (HWPROF_SAMPLE_IDENTIFIER | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | \
		  HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD)

static struct hwprof_attr basic_attr(uint64_t st)
{
	struct hwprof_attr a = { 0 };
	a.type = HWPROF_TYPE_SOFTWARE;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.sample_period = 1000;
	a.sample_type = st;
	a.flags = (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) | (1ULL << HWPROF_ATTR_DISABLED);
	return a;
}

/* File header with one attr (id 7), returns where data starts; the data
 * section is closed by file_end(). */
static void file_begin(struct img *m, const struct hwprof_attr *a)
{
	m->n = 0;
	uint8_t hdr[104] = { 0 };
	put(m, hdr, sizeof(hdr));
	size_t ids = put64(m, 7);
	uint8_t attr[512];
	hwprof_attr_encode(a, attr);
	size_t attrs = put(m, attr, a->size);
	put64(m, ids);
	put64(m, 8);
	memcpy(m->b, "PERFILE2", 8);
	set64(m, 8, 104);
	set64(m, 16, a->size + 16);
	set64(m, 24, attrs);
	set64(m, 32, a->size + 16);
	set64(m, 40, m->n);
}
static void file_end(struct img *m) { set64(m, 48, m->n - ld64(m->b + 40)); }

static void sample_basic(struct img *m, uint64_t ip, uint32_t tid, uint64_t time)
{
	size_t r = rec_begin(m, HWPROF_RECORD_SAMPLE, HWPROF_MISC_USER);
	put64(m, 7);            /* IDENTIFIER */
	put64(m, ip);           /* IP */
	put32(m, tid);          /* PID */
	put32(m, tid);          /* TID */
	put64(m, time);         /* TIME */
	put32(m, 1);            /* CPU */
	put32(m, 0);
	put64(m, 1000);         /* PERIOD */
	rec_end(m, r);
}

static void comm(struct img *m, uint32_t tid, const char *name, uint64_t time)
{
	size_t r = rec_begin(m, HWPROF_RECORD_COMM, 0);
	put32(m, tid);
	put32(m, tid);
	char s[16] = { 0 };
	strncpy(s, name, 15);
	put(m, s, 16);
	/* trailer: TID TIME CPU IDENTIFIER */
	put32(m, tid);
	put32(m, tid);
	put64(m, time);
	put32(m, 1);
	put32(m, 0);
	put64(m, 7);
	rec_end(m, r);
}

/* ---- tests -------------------------------------------------------------- */

static void test_basic_file(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	comm(&m, 42, "worker", 5);
	sample_basic(&m, 0x401000, 42, 10);
	size_t r = rec_begin(&m, 99, 0); /* a record type from the future */
	put64(&m, 0x1234);
	rec_end(&m, r);
	file_end(&m);

	struct hwprof_perfdata *h;
	struct hwprof_error err;
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "mem", &err), 0);
	assert_int_equal(hwprof_perfdata_nr_evsels(h), 1);
	const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, 0);
	assert_int_equal(ev->nr_ids, 1);
	assert_int_equal(ev->ids[0], 7);
	assert_ptr_equal(hwprof_perfdata_evsel_by_id(h, 7), ev);
	assert_null(hwprof_perfdata_evsel_by_id(h, 8));

	struct hwprof_record rec;
	struct hwprof_sample s;
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(rec.type, HWPROF_RECORD_COMM);
	assert_int_equal(hwprof_sample_id_parse(h, &rec, &s), 1);
	assert_int_equal(s.tid, 42);
	assert_int_equal(s.time, 5);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.id, 7);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(rec.type, HWPROF_RECORD_SAMPLE);
	assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 42);
	assert_int_equal(s.time, 10);
	assert_int_equal(s.period, 1000);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(rec.type, 99);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 0);
	hwprof_perfdata_close(h);
}

static void test_cut_everywhere(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	comm(&m, 42, "worker", 5);
	for (int i = 0; i < 4; i++)
		sample_basic(&m, 0x401000 + i, 42, 10 + i);
	file_end(&m);
	for (size_t cut = 0; cut < m.n; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, m.b, cut);
		struct hwprof_session *s;
		struct hwprof_error err;
		if (hwprof_session_open_mem(&s, copy, cut, "cut", &err) == 0) {
			struct hwprof_event ev;
			int rc, n = 0;
			while ((rc = hwprof_session_next(s, &ev)) > 0)
				n++;
			/* a cut inside the data is an error, never silent success */
			assert_true(rc < 0);
			assert_true(n <= 5);
			assert_true(hwprof_perfdata_error(hwprof_session_data(s))->msg[0] != 0);
			hwprof_session_close(s);
		} else {
			assert_true(err.code < 0);
			assert_true(err.msg[0] != 0);
		}
		free(copy);
	}
}

static void test_ordering(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	sample_basic(&m, 1, 1, 30);
	sample_basic(&m, 2, 1, 10);
	size_t r = rec_begin(&m, HWPROF_RECORD_FINISHED_ROUND, 0);
	rec_end(&m, r);
	sample_basic(&m, 3, 1, 20);
	r = rec_begin(&m, HWPROF_RECORD_FINISHED_ROUND, 0);
	rec_end(&m, r);
	sample_basic(&m, 4, 1, 5);
	file_end(&m);
	struct hwprof_session *s;
	assert_int_equal(hwprof_session_open_mem(&s, m.b, m.n, "ord", NULL), 0);
	/* round 1 flushes nothing (limit 0); round 2 flushes up to 30, the
	 * newest time of round 1: 10, 20, 30; the end flushes 5. */
	const uint64_t want[] = { 0 /*round*/, 0 /*round*/, 2, 3, 1, 4 };
	const uint32_t want_type[] = { 68, 68, 9, 9, 9, 9 };
	struct hwprof_event ev;
	for (int i = 0; i < 6; i++) {
		assert_int_equal(hwprof_session_next(s, &ev), 1);
		assert_int_equal(ev.rec.type, want_type[i]);
		if (ev.rec.type == 9)
			assert_int_equal(ev.sample.ip, want[i]);
	}
	assert_int_equal(hwprof_session_next(s, &ev), 0);
	hwprof_session_close(s);
}

/* A kernel record's body and its sample_id_all trailer (time 0: delivered
 * as read). */
static void kernel_rec(struct img *m, uint32_t type, const uint64_t *body, int n)
{
	size_t r = rec_begin(m, type, 0);
	for (int i = 0; i < n; i++)
		put64(m, body[i]);
	put32(m, 1);
	put32(m, 1);
	put64(m, 0);
	put32(m, 1);
	put32(m, 0);
	put64(m, 7);
	rec_end(m, r);
}

/* What perf's session counts for its warnings: records by type when read,
 * the rest when delivered, out-of-order records, synthesized events. */
static void test_session_stats(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	sample_basic(&m, 1, 1, 30);
	sample_basic(&m, 2, 1, 10);
	size_t r = rec_begin(&m, HWPROF_RECORD_FINISHED_ROUND, 0);
	rec_end(&m, r);
	r = rec_begin(&m, HWPROF_RECORD_FINISHED_ROUND, 0);
	rec_end(&m, r);
	sample_basic(&m, 3, 1, 5); /* older than 30, delivered already */
	const uint64_t aux[] = { 0, 0x1000, 1 | 4 | 8 }, lost[] = { 9 }, future[] = { 0 };
	kernel_rec(&m, HWPROF_RECORD_AUX, aux, 3);
	kernel_rec(&m, HWPROF_RECORD_LOST_SAMPLES, lost, 1);
	kernel_rec(&m, 30, future, 1);
	r = rec_begin(&m, HWPROF_RECORD_AUXTRACE_ERROR, 0);
	put32(&m, 1);
	put32(&m, 0);
	rec_end(&m, r);
	file_end(&m);
	struct hwprof_session *s;
	assert_int_equal(hwprof_session_open_mem(&s, m.b, m.n, "stats", NULL), 0);
	struct hwprof_event ev;
	while (hwprof_session_next(s, &ev) > 0)
		;
	hwprof_session_count_synth(s, HWPROF_RECORD_SAMPLE, 0);
	hwprof_session_count_synth(s, HWPROF_RECORD_AUXTRACE_ERROR, 1);
	const struct hwprof_session_stats *st = hwprof_session_stats(s);
	assert_int_equal(st->nr_events[0], 11);
	assert_int_equal(st->nr_events[HWPROF_RECORD_SAMPLE], 4);
	assert_int_equal(st->nr_events[HWPROF_RECORD_FINISHED_ROUND], 2);
	assert_int_equal(st->nr_events[HWPROF_RECORD_AUX], 1);
	assert_int_equal(st->nr_events[HWPROF_RECORD_AUXTRACE_ERROR], 2);
	assert_int_equal(st->unordered, 1);
	assert_int_equal(st->aux_truncated, 1);
	assert_int_equal(st->aux_partial, 1);
	assert_int_equal(st->aux_collision, 1);
	assert_int_equal(st->lost_samples, 9);
	assert_int_equal(st->unknown_events, 1);
	assert_int_equal(st->auxtrace_errors[0], 0);
	assert_int_equal(st->auxtrace_errors[1], 2);
	assert_int_equal(st->unknown_id, 0);
	hwprof_session_close(s);
}

/* Out-of-order arrivals among in-order runs, equal times kept in arrival
 * order (in-order records take the queue's FIFO, the others its heap). */
static void test_ordering_mixed(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	static const uint64_t t[] = { 5, 5, 3, 7, 7, 1, 9, 5, 9, 2, 10, 5 };
	for (unsigned i = 0; i < 12; i++)
		sample_basic(&m, 100 + i, 1, t[i]);
	file_end(&m);
	struct hwprof_session *s;
	assert_int_equal(hwprof_session_open_mem(&s, m.b, m.n, "ord", NULL), 0);
	static const uint64_t want[] = { 105, 109, 102, 100, 101, 107, 111, 103, 104, 106, 108, 110 };
	struct hwprof_event ev;
	for (int i = 0; i < 12; i++) {
		assert_int_equal(hwprof_session_next(s, &ev), 1);
		assert_int_equal(ev.sample.ip, want[i]);
	}
	assert_int_equal(hwprof_session_next(s, &ev), 0);
	hwprof_session_close(s);
}

static void mmap_rec(struct img *m, uint16_t misc, uint32_t pid, uint64_t start, uint64_t len, const char *name,
		     uint64_t time)
{
	size_t r = rec_begin(m, HWPROF_RECORD_MMAP, misc);
	put32(m, pid);
	put32(m, pid);
	put64(m, start);
	put64(m, len);
	put64(m, 0);
	char f[32] = { 0 };
	strncpy(f, name, 31);
	put(m, f, 32);
	put32(m, pid); /* trailer: TID TIME CPU IDENTIFIER */
	put32(m, pid);
	put64(m, time);
	put32(m, 1);
	put32(m, 0);
	put64(m, 7);
	rec_end(m, r);
}

/* The kernel's own map shows once its MMAP record is applied (when the
 * next event is asked for); modules and user maps do not count. */
static void test_kernel_map(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	mmap_rec(&m, HWPROF_MISC_USER, 5, 0x400000, 0x1000, "/bin/true", 1);
	mmap_rec(&m, HWPROF_MISC_KERNEL, -1, 0xffff000000100000ull, 0x1000, "/lib/mod/x.ko", 2);
	mmap_rec(&m, HWPROF_MISC_KERNEL, -1, 0xffff800008000000ull, 0x200000, "[kernel.kallsyms]_text", 3);
	file_end(&m);
	struct hwprof_session *s;
	struct hwprof_map_info mi;
	struct hwprof_event ev;
	assert_int_equal(hwprof_session_open_mem(&s, m.b, m.n, "kmap", NULL), 0);
	assert_int_equal(hwprof_session_kernel_map(s, &mi), 0);
	assert_int_equal(hwprof_session_next(s, &ev), 1);
	assert_int_equal(hwprof_session_next(s, &ev), 1);
	assert_int_equal(hwprof_session_kernel_map(s, &mi), 0);
	assert_int_equal(hwprof_session_next(s, &ev), 1);
	assert_int_equal(hwprof_session_kernel_map(s, &mi), 0);
	assert_int_equal(hwprof_session_next(s, &ev), 0);
	assert_int_equal(hwprof_session_kernel_map(s, &mi), 1);
	assert_int_equal(mi.start, 0xffff800008000000ull);
	assert_int_equal(mi.end, 0xffff800008200000ull);
	assert_string_equal(mi.dso, "[kernel.kallsyms]");
	hwprof_session_close(s);
}

static void test_simd_regs(void **state)
{
	(void)state;
	static struct img m;
	struct hwprof_attr a = basic_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_REGS_INTR);
	a.size = HWPROF_ATTR_SIZE_VER10;
	a.sample_regs_intr = 0x3 | (1ULL << 40); /* AX BX SSP */
	a.sample_simd_regs_enabled = 1;
	a.sample_simd_vec_reg_qwords = 8;
	a.sample_simd_pred_reg_qwords = 1;
	a.sample_simd_vec_reg_intr = 0xffffffff;
	a.sample_simd_pred_reg_intr = 0xff;
	file_begin(&m, &a);
	size_t r = rec_begin(&m, HWPROF_RECORD_SAMPLE, HWPROF_MISC_KERNEL);
	put64(&m, 0xffffffff81000000ULL);
	put64(&m, HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD);
	put64(&m, 0xa); put64(&m, 0xb); put64(&m, 0x55);
	put64(&m, 2); put64(&m, 8); put64(&m, 1); put64(&m, 1); /* fewer regs than the mask */
	for (int i = 0; i < 16; i++)
		put64(&m, 0x1000 + i);
	put64(&m, 0x77);
	rec_end(&m, r);
	/* the same with a SIMD header claiming more data than present */
	r = rec_begin(&m, HWPROF_RECORD_SAMPLE, HWPROF_MISC_KERNEL);
	put64(&m, 0xffffffff81000000ULL);
	put64(&m, HWPROF_REGS_ABI_64 | HWPROF_REGS_ABI_SIMD);
	put64(&m, 0xa); put64(&m, 0xb); put64(&m, 0x55);
	put64(&m, 32); put64(&m, 8); put64(&m, 8); put64(&m, 1);
	put64(&m, 0);
	rec_end(&m, r);
	file_end(&m);
	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "simd", NULL), 0);
	const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, 0);
	assert_int_equal(ev->attr.size, 176);
	assert_int_equal(ev->attr.sample_simd_vec_reg_intr, 0xffffffff);
	assert_int_equal(ev->attr.sample_simd_pred_reg_intr, 0xff);
	struct hwprof_record rec;
	struct hwprof_sample s;
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
	assert_int_equal(s.intr_regs.abi, 6);
	assert_int_equal(s.intr_regs.nr, 3);
	assert_int_equal(hwprof_u64_at(s.intr_regs.regs, 2), 0x55);
	assert_int_equal(s.intr_regs.nr_vectors, 2);
	assert_int_equal(s.intr_regs.vector_qwords, 8);
	assert_int_equal(hwprof_u64_at(s.intr_regs.simd_data, 15), 0x100f);
	assert_int_equal(hwprof_u64_at(s.intr_regs.simd_data, 16), 0x77);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(hwprof_sample_parse(h, &rec, &s), -HWPROF_E_CORRUPT);
	assert_non_null(strstr(hwprof_perfdata_error(h)->msg, "SIMD"));
	hwprof_perfdata_close(h);
}

/* attr -> our writer -> a file -> our reader: the same attr (every SIMD
 * field) and the same register blocks: ZMM+OPMASK on intr with XMM on
 * user, fewer vectors than the mask, abi NONE, a 32-bit SIMD abi, and an
 * event with legacy XMM pairs. */
static void expect_regs(const struct hwprof_regs *got, const struct hwprof_regs *want, uint64_t nvals)
{
	assert_int_equal(got->abi, want->abi);
	assert_int_equal(got->mask, want->mask);
	if (!want->abi)
		return;
	assert_int_equal(got->nr, __builtin_popcountll(want->mask));
	assert_memory_equal(got->regs, want->regs, 8 * (size_t)got->nr);
	assert_int_equal(got->nr_vectors, want->nr_vectors);
	assert_int_equal(got->vector_qwords, want->vector_qwords);
	assert_int_equal(got->nr_pred, want->nr_pred);
	assert_int_equal(got->pred_qwords, want->pred_qwords);
	if (nvals)
		assert_memory_equal(got->simd_data, want->simd_data, 8 * (size_t)nvals);
}

static void test_simd_round_trip(void **state)
{
	(void)state;
	char path[] = "/tmp/hwprof-simd-rt-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct hwprof_attr a[2];
	memset(a, 0, sizeof(a));
	for (int i = 0; i < 2; i++) {
		a[i].size = i ? HWPROF_ATTR_SIZE_VER7 : HWPROF_ATTR_SIZE_VER10;
		a[i].sample_period = 1000;
		a[i].sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_ID | HWPROF_SAMPLE_REGS_USER |
				   HWPROF_SAMPLE_REGS_INTR;
		a[i].flags = 1ULL << HWPROF_ATTR_SAMPLE_ID_ALL;
	}
	a[0].sample_regs_intr = 0x3 | (1ULL << 24) | (1ULL << 40); /* AX BX R16 SSP */
	a[0].sample_regs_user = 0x1;
	a[0].sample_simd_regs_enabled = 1;
	a[0].sample_simd_vec_reg_qwords = 8;
	a[0].sample_simd_pred_reg_qwords = 1;
	a[0].sample_simd_vec_reg_intr = 0xffffffff;
	a[0].sample_simd_vec_reg_user = 0xffff;
	a[0].sample_simd_pred_reg_intr = 0xff;
	a[0].sample_simd_pred_reg_user = 0xff;
	a[1].sample_regs_intr = 0x1 | (3ULL << 32) | (3ULL << 62); /* AX XMM0 XMM15, legacy */
	a[1].sample_regs_user = 0x2 | (1ULL << 34);
	struct hwprof_writer *w;
	struct hwprof_error err;
	assert_int_equal(hwprof_writer_open_fd(&w, fd, HWPROF_WRITE_FILE, &err), 0);
	uint64_t id0 = 1, id1 = 2;
	assert_int_equal(hwprof_writer_add_evsel(w, &a[0], "simd", &id0, 1), 0);
	assert_int_equal(hwprof_writer_add_evsel(w, &a[1], "xmm", &id1, 1), 0);

	static uint64_t vals[8 * 32 + 8], g[5];
	for (unsigned i = 0; i < sizeof(vals) / 8; i++)
		vals[i] = 0x5100000000000000ULL + i;
	for (unsigned i = 0; i < 5; i++)
		g[i] = 0x100 + i;
	const uint8_t *v = (const uint8_t *)vals, *gr = (const uint8_t *)g;
	struct hwprof_sample in[4];
	memset(in, 0, sizeof(in));
	/* 0: ZMM0-31 + OPMASK on intr, XMM0-15 (2 qwords) on user */
	in[0].intr_regs = (struct hwprof_regs){ .abi = 6, .mask = a[0].sample_regs_intr, .regs = gr,
						.nr_vectors = 32, .vector_qwords = 8, .nr_pred = 8,
						.pred_qwords = 1, .simd_data = v };
	in[0].user_regs = (struct hwprof_regs){ .abi = 6, .mask = a[0].sample_regs_user, .regs = gr,
						.nr_vectors = 16, .vector_qwords = 2, .simd_data = v };
	/* 1: fewer registers than the masks; intr abi NONE; user 32-bit SIMD */
	in[1].intr_regs = (struct hwprof_regs){ .abi = 0, .mask = a[0].sample_regs_intr };
	in[1].user_regs = (struct hwprof_regs){ .abi = 5, .mask = a[0].sample_regs_user, .regs = gr,
						.nr_vectors = 3, .vector_qwords = 8, .nr_pred = 1,
						.pred_qwords = 1, .simd_data = v };
	/* 2: SIMD bit with an empty block */
	in[2].intr_regs = (struct hwprof_regs){ .abi = 6, .mask = a[0].sample_regs_intr, .regs = gr,
						.simd_data = v };
	in[2].user_regs = in[1].user_regs;
	/* 3: the legacy event, XMM pairs as plain sample_regs values */
	in[3].intr_regs = (struct hwprof_regs){ .abi = 2, .mask = a[1].sample_regs_intr, .regs = gr };
	in[3].user_regs = (struct hwprof_regs){ .abi = 2, .mask = a[1].sample_regs_user, .regs = gr };
	static const uint64_t nvals[4][2] = { { 8 * 32 + 8, 32 }, { 0, 25 }, { 0, 25 }, { 0, 0 } };
	uint8_t buf[4096];
	for (int k = 0; k < 4; k++) {
		in[k].ip = 0x401000 + (uint64_t)k;
		in[k].id = k == 3 ? 2 : 1;
		int n = hwprof_build_sample(buf, sizeof(buf), &a[k == 3], &in[k]);
		assert_true(n > 0);
		assert_int_equal(hwprof_writer_write(w, buf, (size_t)n), 0);
	}
	assert_int_equal(hwprof_writer_close(w, &err), 0);
	close(fd);

	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open(&h, path, &err), 0);
	unlink(path);
	for (int i = 0; i < 2; i++) {
		const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, (uint32_t)i);
		assert_non_null(ev);
		assert_memory_equal(&ev->attr, &a[i], sizeof(a[i]));
	}
	struct hwprof_record rec;
	struct hwprof_sample s;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
		assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
		assert_int_equal(s.ip, in[k].ip);
		expect_regs(&s.intr_regs, &in[k].intr_regs, nvals[k][0]);
		expect_regs(&s.user_regs, &in[k].user_regs, nvals[k][1]);
		if (k < 3) {
			assert_int_equal(s.intr_regs.vec_mask, 0xffffffff);
			assert_int_equal(s.user_regs.vec_mask, 0xffff);
			assert_int_equal(s.user_regs.pred_mask, 0xff);
		}
	}
	assert_int_equal(hwprof_perfdata_next(h, &rec), 0);
	hwprof_perfdata_close(h);
}

static void test_attr_sizes(void **state)
{
	(void)state;
	static struct img m;
	/* VER0 (64 bytes): sample_type and flags present, the rest zero */
	struct hwprof_attr a = basic_attr(ST_BASIC);
	a.size = HWPROF_ATTR_SIZE_VER0;
	a.sample_regs_user = 0xff; /* past 64 bytes: must not be encoded */
	file_begin(&m, &a);
	sample_basic(&m, 9, 1, 1);
	file_end(&m);
	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "v0", NULL), 0);
	const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, 0);
	assert_int_equal(ev->attr.size, 64);
	assert_int_equal(ev->attr.sample_type, ST_BASIC);
	assert_int_equal(ev->attr.sample_regs_user, 0);
	hwprof_perfdata_close(h);

	/* 200 bytes: a future attr; the unknown tail is kept */
	a = basic_attr(ST_BASIC);
	a.size = 200;
	file_begin(&m, &a);
	m.b[ld64(m.b + 24) + 190] = 0xab;
	sample_basic(&m, 9, 1, 1);
	file_end(&m);
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "v200", NULL), 0);
	ev = hwprof_perfdata_evsel(h, 0);
	assert_int_equal(ev->attr.size, 200);
	assert_int_equal(ev->attr_tail_len, 24);
	assert_int_equal(ev->attr_tail[14], 0xab);
	struct hwprof_record rec;
	struct hwprof_sample s;
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
	assert_int_equal(s.ip, 9);
	hwprof_perfdata_close(h);
}

static void test_pipe_unaligned(void **state)
{
	(void)state;
	static struct img m;
	m.n = 0;
	put(&m, "PERFILE2", 8);
	put64(&m, 16);
	struct hwprof_attr a = basic_attr(ST_BASIC);
	uint8_t attr[512];
	hwprof_attr_encode(&a, attr);
	size_t r = rec_begin(&m, HWPROF_RECORD_HEADER_ATTR, 0);
	put(&m, attr, a.size);
	put64(&m, 7);
	rec_end(&m, r);
	r = rec_begin(&m, HWPROF_RECORD_HEADER_FEATURE, 0); /* 8 + 8 + 5: unaligned */
	put64(&m, HWPROF_FEAT_HOSTNAME);
	put(&m, "host", 5);
	rec_end(&m, r);
	sample_basic(&m, 0xabc, 3, 4);
	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "pipe", NULL), 0);
	assert_true(hwprof_perfdata_info(h)->pipe);
	struct hwprof_record rec;
	struct hwprof_sample s;
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(rec.offset, 0);
	assert_int_equal(hwprof_perfdata_nr_evsels(h), 1);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	const uint8_t *fp;
	uint64_t fs;
	assert_int_equal(hwprof_perfdata_feature(h, HWPROF_FEAT_HOSTNAME, &fp, &fs, NULL), 1);
	assert_int_equal(fs, 5);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 1);
	assert_int_equal(rec.offset % 8, 5);
	assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
	assert_int_equal(s.ip, 0xabc);
	assert_int_equal(hwprof_perfdata_next(h, &rec), 0);
	hwprof_perfdata_close(h);
}

static void test_bad_headers(void **state)
{
	(void)state;
	struct hwprof_perfdata *h;
	struct hwprof_error err;
	uint8_t junk[200] = "NOTPERF!";
	assert_int_equal(hwprof_perfdata_open_mem(&h, junk, sizeof(junk), "j", &err), -HWPROF_E_MAGIC);
	assert_null(h);
	static struct img m;
	struct hwprof_attr a = basic_attr(ST_BASIC);
	file_begin(&m, &a);
	file_end(&m);
	set64(&m, 16, 40); /* attr entry smaller than the minimum */
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "a", &err), -HWPROF_E_CORRUPT);
	assert_int_equal(err.offset, 16);
	file_begin(&m, &a);
	file_end(&m);
	set64(&m, 40, 1ULL << 40); /* data beyond the file */
	assert_int_equal(hwprof_perfdata_open_mem(&h, m.b, m.n, "d", &err), -HWPROF_E_CORRUPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_file),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_ordering),
		cmocka_unit_test(test_ordering_mixed),
		cmocka_unit_test(test_kernel_map),
		cmocka_unit_test(test_simd_regs),
		cmocka_unit_test(test_simd_round_trip),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_pipe_unaligned),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_session_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
