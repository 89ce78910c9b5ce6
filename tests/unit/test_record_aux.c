/* The recorder's AUX path without an AUX PMU: a fake kernel behind
 * hwprof_sys_ops maps a control page + data ring and an AUX area at the
 * offset the recorder asks for (checked as the kernel checks it), the
 * test plays the PMU by writing AUX bytes and moving aux_head, and puts
 * PERF_RECORD_AUX records (truncated / partial / collision flags) into the
 * ring. Checked: AUXTRACE records (offset, size, idx, cpu, the bytes
 * across the AUX area's wrap), aux_tail consumed, the AUX stats, snapshot
 * mode (read-only AUX mapping, the event disabled around the copy, the
 * last area-full of data, aux_tail untouched, a last snapshot at the end
 * only with -Se). With TEST_RECORD_AUX_OUT
 * set the streamed file is also copied there for tests/diff/record_aux.sh,
 * which has perf 6.1 read it. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_write.h"
#include "hwprof/record.h"
#include "util/bytes.h"

#define PAGE 4096
#define AUX_PAGES 2
#define AUX_LEN (AUX_PAGES * PAGE)
#define NFD 4

/* struct perf_event_mmap_page fields */
#define PG_DATA_HEAD 1024
#define PG_AUX_HEAD 1056
#define PG_AUX_TAIL 1064
#define PG_AUX_OFFSET 1072
#define PG_AUX_SIZE 1080

#define AUX_TRUNCATED 1
#define AUX_PARTIAL 4
#define AUX_COLLISION 8

static struct fake {
	int nfd;
	uint8_t *ring[NFD], *aux[NFD];
	size_t ring_len[NFD];
	int aux_prot[NFD];
	int enables[NFD], disables[NFD];
} fk;

static int fk_open(struct hwprof_attr *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	return fk.nfd < NFD ? 100 + fk.nfd++ : -EMFILE;
}

static int fk_close(int fd)
{
	return 0;
}

static int fk_mmap(int fd, size_t len, int prot, uint64_t off, void **out)
{
	int i = fd - 100;
	if (i < 0 || i >= NFD)
		return -EBADF;
	if (off == 0) {
		uint8_t *p = aligned_alloc(PAGE, len);
		memset(p, 0, len);
		st64(p + 1040, PAGE);
		st64(p + 1048, len - PAGE);
		fk.ring[i] = p;
		fk.ring_len[i] = len;
		*out = p;
		return 0;
	}
	/* the AUX area: the kernel wants aux_offset/aux_size written into the
	 * control page first, past the data area, the size a power of 2 pages */
	if (!fk.ring[i] || off != ld64(fk.ring[i] + PG_AUX_OFFSET) || len != ld64(fk.ring[i] + PG_AUX_SIZE) ||
	    off < fk.ring_len[i] || (len & (len - 1)))
		return -EINVAL;
	fk.aux[i] = aligned_alloc(PAGE, len);
	memset(fk.aux[i], 0, len);
	fk.aux_prot[i] = prot;
	*out = fk.aux[i];
	return 0;
}

static int fk_munmap(void *addr, size_t len)
{
	for (int i = 0; i < NFD; i++) {
		if (fk.ring[i] == addr)
			fk.ring[i] = NULL;
		else if (fk.aux[i] == addr)
			fk.aux[i] = NULL;
		else
			continue;
		free(addr);
		return 0;
	}
	return -EINVAL;
}

static int fk_ioctl(int fd, unsigned long req, unsigned long arg)
{
	int i = fd - 100;
	switch (req) {
	case 0x80082407UL: /* ID */
		st64((void *)(uintptr_t)arg, 500 + (uint64_t)i);
		return 0;
	case 0x2400UL:
		fk.enables[i]++;
		return 0;
	case 0x2401UL:
		fk.disables[i]++;
		return 0;
	case 0x2405UL:
		return 0;
	}
	return -ENOTTY;
}

static long fk_read(int fd, void *buf, size_t len)
{
	uint64_t v[3] = { 0, 500 + (uint64_t)(fd - 100), 0 };
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

static int fk_poll(void *fds, unsigned n, int timeout)
{
	return 0;
}

static const struct hwprof_sys_ops fk_ops = {
	.perf_event_open = fk_open, .close = fk_close, .mmap = fk_mmap, .munmap = fk_munmap,
	.ioctl = fk_ioctl, .read = fk_read, .poll = fk_poll,
};

/* ---- the test's side of the PMU ------------------------------------------- */

static struct hwprof_record_event ev[1];
static struct hwprof_record_opts opts;
static char path[64];

static uint8_t pattern(uint64_t logical)
{
	return (uint8_t)(logical * 7 + 3 + (logical >> 8));
}

/* The PMU writes logical AUX offsets [from, to) (wrapping in the area). */
static void aux_write(uint64_t from, uint64_t to)
{
	for (uint64_t o = from; o < to; o++)
		fk.aux[0][o % AUX_LEN] = pattern(o);
	__atomic_store_n((uint64_t *)(void *)(fk.ring[0] + PG_AUX_HEAD), to, __ATOMIC_RELEASE);
}

static void ring_put(const uint8_t *rec, size_t n)
{
	uint8_t *base = fk.ring[0];
	uint64_t size = ld64(base + 1048), head = ld64(base + PG_DATA_HEAD);
	for (size_t i = 0; i < n; i++)
		base[PAGE + ((head + i) & (size - 1))] = rec[i];
	st64(base + PG_DATA_HEAD, head + n);
}

static void put_aux_record(uint64_t off, uint64_t size, uint64_t flags)
{
	uint8_t body[24], rec[128];
	st64(body, off);
	st64(body + 8, size);
	st64(body + 16, flags);
	struct hwprof_sample id = { 0 };
	id.sample_type = ev[0].attr.sample_type;
	id.pid = id.tid = 77;
	id.time = 1000 + off;
	id.id = 500;
	id.cpu = 0;
	int n = hwprof_build_kernel_record(rec, sizeof(rec), &ev[0].attr, &id, HWPROF_RECORD_AUX, 0, body, 24);
	assert_true(n > 0);
	ring_put(rec, (size_t)n);
}

/* An AUXTRACE_INFO body perf 6.1 accepts without hardware: Arm SPE's
 * first layout (type 4, priv[0] = the PMU type, priv[1] = per-cpu mmaps),
 * so perf report -D dumps the AUX data as SPE packets. */
static int info_spe(void *ctx, const struct hwprof_record_event *e, uint8_t *buf, size_t len)
{
	if (len < 24)
		return -1;
	st32(buf, 4);
	st32(buf + 4, 0);
	st64(buf + 8, e->attr.type);
	st64(buf + 16, 1);
	return 24;
}
static const struct hwprof_record_aux_ops aux_ops = { .info = info_spe };

static int setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	memset(ev, 0, sizeof(ev));
	memset(&opts, 0, sizeof(opts));
	ev[0].leader = -1;
	ev[0].attr.type = 8; /* a dynamic PMU type, as intel_pt's */
	ev[0].attr.size = HWPROF_ATTR_SIZE_VER7;
	ev[0].attr.sample_period = 1;
	ev[0].name = "intel_pt//u";
	ev[0].aux = true;
	opts.sys = &fk_ops;
	opts.events = ev;
	opts.nr_events = 1;
	opts.cpus = "0";
	opts.mmap_pages = 1;
	opts.aux_pages = AUX_PAGES;
	opts.aux_ops = &aux_ops;
	opts.no_synth = true;
	opts.no_features = true;
	opts.output_fd = -1;
	snprintf(path, sizeof(path), "/tmp/test_record_aux.%d.data", (int)getpid());
	opts.output = path;
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

struct seen {
	int auxtrace, aux;
	uint64_t off[8], size[8], flags[8];
	int cpu[8];
	uint32_t idx[8];
	bool data_ok[8];
};

static void read_back(struct seen *s)
{
	struct hwprof_perfdata *h;
	struct hwprof_error err;
	memset(s, 0, sizeof(*s));
	assert_int_equal(hwprof_perfdata_open(&h, path, &err), 0);
	struct hwprof_record rec;
	int rc;
	while ((rc = hwprof_perfdata_next(h, &rec)) == 1) {
		if (rec.type == HWPROF_RECORD_AUXTRACE && s->auxtrace < 8) {
			int k = s->auxtrace++;
			s->size[k] = ld64(rec.data + 8);
			s->off[k] = ld64(rec.data + 16);
			s->idx[k] = ld32(rec.data + 32);
			s->cpu[k] = (int32_t)ld32(rec.data + 40);
			bool ok = rec.payload && rec.payload_size == ((s->size[k] + 7) & ~7ULL);
			for (uint64_t i = 0; ok && i < s->size[k]; i++)
				ok = rec.payload[i] == pattern(s->off[k] + i);
			s->data_ok[k] = ok;
		} else if (rec.type == HWPROF_RECORD_AUXTRACE_INFO) {
			assert_int_equal(ld32(rec.data + 8), 4);
		} else if (rec.type == HWPROF_RECORD_AUX && s->aux < 8) {
			s->flags[s->aux++] = ld64(rec.data + 24);
		}
	}
	assert_int_equal(rc, 0);
	hwprof_perfdata_close(h);
}

static void copy_out(void)
{
	const char *dst = getenv("TEST_RECORD_AUX_OUT");
	if (!dst)
		return;
	FILE *in = fopen(path, "rb"), *out = fopen(dst, "wb");
	assert_non_null(in);
	assert_non_null(out);
	char b[8192];
	size_t n;
	while ((n = fread(b, 1, sizeof(b), in)) > 0)
		assert_int_equal(fwrite(b, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* ---- tests ------------------------------------------------------------------ */

static void t_aux_stream(void **state)
{
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_non_null(fk.aux[0]);
	assert_int_equal(fk.aux_prot[0], PROT_READ | PROT_WRITE); /* not overwrite mode */
	assert_int_equal(hwprof_record_start(r, &err), 0);
	/* a first chunk, then one that wraps the 8 KiB area */
	aux_write(0, 5000);
	put_aux_record(0, 5000, 0);
	assert_int_equal(hwprof_record_drain(r), 0);
	assert_int_equal(ld64(fk.ring[0] + PG_AUX_TAIL), 5000);
	aux_write(5000, 12000);
	put_aux_record(5000, 7000, AUX_TRUNCATED | AUX_PARTIAL);
	put_aux_record(12000, 0, AUX_COLLISION);
	assert_int_equal(hwprof_record_poll(r, 0), 1);
	assert_int_equal(ld64(fk.ring[0] + PG_AUX_TAIL), 12000);
	struct hwprof_record_stats st;
	assert_int_equal(hwprof_record_close(r, &st, &err), 0);
	assert_int_equal(st.aux_bytes, 12000);
	assert_int_equal(st.aux_records, 3);
	assert_int_equal(st.aux_truncated, 1);
	assert_int_equal(st.aux_partial, 1);
	assert_int_equal(st.aux_collision, 1);

	struct seen s;
	read_back(&s);
	assert_int_equal(s.auxtrace, 2);
	assert_int_equal(s.off[0], 0);
	assert_int_equal(s.size[0], 5000);
	assert_int_equal(s.off[1], 5000);
	assert_int_equal(s.size[1], 7000);
	for (int k = 0; k < 2; k++) {
		assert_true(s.data_ok[k]);
		assert_int_equal(s.cpu[k], 0);
		assert_int_equal(s.idx[k], 0);
	}
	assert_int_equal(s.aux, 3);
	assert_int_equal(s.flags[0], 0);
	assert_int_equal(s.flags[1], AUX_TRUNCATED | AUX_PARTIAL);
	assert_int_equal(s.flags[2], AUX_COLLISION);
	copy_out();
}

static void t_aux_snapshot(void **state)
{
	opts.snapshot = true;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_int_equal(fk.aux_prot[0], PROT_READ); /* read-only: the kernel overwrites */
	assert_int_equal(hwprof_record_start(r, &err), 0);
	int en = fk.enables[0], dis = fk.disables[0];
	/* the PMU ran over the area more than once; nothing is drained
	 * until a snapshot is asked for */
	aux_write(0, 10000);
	assert_int_equal(hwprof_record_poll(r, 0), 1);
	assert_int_equal(ld64(fk.ring[0] + PG_AUX_TAIL), 0);
	hwprof_record_wake(r, HWPROF_WAKE_SNAPSHOT);
	assert_int_equal(hwprof_record_poll(r, 0), 1);
	assert_int_equal(fk.disables[0], dis + 1); /* stopped around the copy */
	assert_int_equal(fk.enables[0], en + 1);
	/* more data, then the end: no snapshot at exit without 'e' */
	aux_write(10000, 11000);
	struct hwprof_record_stats st;
	assert_int_equal(hwprof_record_close(r, &st, &err), 0);

	struct seen s;
	read_back(&s);
	assert_int_equal(s.auxtrace, 1);
	assert_int_equal(s.off[0], 10000 - AUX_LEN);
	assert_int_equal(s.size[0], AUX_LEN);
	assert_true(s.data_ok[0]);
}

static void t_aux_snapshot_short(void **state)
{
	opts.snapshot = true;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	aux_write(0, 3000); /* less than the area */
	hwprof_record_wake(r, HWPROF_WAKE_SNAPSHOT);
	assert_int_equal(hwprof_record_poll(r, 0), 1);
	aux_write(3000, 5000);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
	struct seen s;
	read_back(&s);
	assert_int_equal(s.auxtrace, 1);
	assert_int_equal(s.off[0], 0);
	assert_int_equal(s.size[0], 3000);
	assert_true(s.data_ok[0]);
}

/* -Se: a last snapshot when the recording ends */
static void t_aux_snapshot_on_exit(void **state)
{
	opts.snapshot = true;
	opts.snapshot_on_exit = true;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	aux_write(0, 9000);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
	struct seen s;
	read_back(&s);
	assert_int_equal(s.auxtrace, 1);
	assert_int_equal(s.off[0], 9000 - AUX_LEN);
	assert_int_equal(s.size[0], AUX_LEN);
	assert_true(s.data_ok[0]);
}

static void t_aux_bad_pages(void **state)
{
	opts.aux_pages = 3;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), -HWPROF_E_INVAL);
	assert_non_null(strstr(err.msg, "power of 2"));
	hwprof_record_close(r, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_aux_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(t_aux_snapshot, setup, teardown),
		cmocka_unit_test_setup_teardown(t_aux_snapshot_short, setup, teardown),
		cmocka_unit_test_setup_teardown(t_aux_snapshot_on_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(t_aux_bad_pages, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
