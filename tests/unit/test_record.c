/* Unit tests of the recorder against a fake kernel (hwprof_sys_ops): ring
 * contents crafted here (records wrapping the end of the area, a record
 * published in two steps, LOST and corrupt records), attr size fallback
 * on E2BIG, EACCES/EOPNOTSUPP failures, LOST_SAMPLES from the counters,
 * zstd and pipe output, read back with the library's reader. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_write.h"
#include "hwprof/record.h"
#include "util/bytes.h"

#define PAGE 4096
#define NFD 8

/* ---- the fake kernel ------------------------------------------------------ */

static struct fake {
	uint32_t ksize;          /* the kernel's attr size (E2BIG above it) */
	int fail_errno;          /* perf_event_open fails with this */
	int nfd;
	uint32_t opened_size[NFD];
	uint8_t *ring[NFD];      /* mapping per fd */
	size_t ring_len[NFD];
	int output_of[NFD];      /* SET_OUTPUT target fd, -1 */
	int enabled[NFD];
	uint64_t lost[NFD];      /* read_format LOST value */
} fk;

static int fk_open(struct hwprof_attr *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	if (fk.fail_errno)
		return -fk.fail_errno;
	if (fk.ksize && attr->size > fk.ksize) {
		attr->size = fk.ksize;
		return -E2BIG;
	}
	if (fk.nfd == NFD)
		return -EMFILE;
	fk.opened_size[fk.nfd] = attr->size;
	fk.output_of[fk.nfd] = -1;
	return 100 + fk.nfd++;
}

static int fk_close(int fd)
{
	return fd >= 100 && fd < 100 + NFD ? 0 : -EBADF;
}

static int fk_mmap(int fd, size_t len, int prot, uint64_t off, void **out)
{
	int i = fd - 100;
	if (i < 0 || i >= NFD || off)
		return -EINVAL;
	uint8_t *p = aligned_alloc(PAGE, len);
	memset(p, 0, len);
	st64(p + 1040, PAGE);       /* data_offset */
	st64(p + 1048, len - PAGE); /* data_size */
	fk.ring[i] = p;
	fk.ring_len[i] = len;
	*out = p;
	return 0;
}

static int fk_munmap(void *addr, size_t len)
{
	for (int i = 0; i < NFD; i++)
		if (fk.ring[i] == addr) {
			free(addr);
			fk.ring[i] = NULL;
		}
	return 0;
}

static int fk_ioctl(int fd, unsigned long req, unsigned long arg)
{
	int i = fd - 100;
	if (i < 0 || i >= NFD)
		return -EBADF;
	switch (req) {
	case 0x80082407UL: /* ID */
		st64((void *)(uintptr_t)arg, 1000 + (uint64_t)i);
		return 0;
	case 0x2405UL: /* SET_OUTPUT */
		fk.output_of[i] = (int)arg;
		return 0;
	case 0x2400UL:
		fk.enabled[i] = 1;
		return 0;
	case 0x2401UL:
		fk.enabled[i] = 0;
		return 0;
	}
	return -ENOTTY;
}

static long fk_read(int fd, void *buf, size_t len)
{
	/* read_format ID|LOST: value, id, lost */
	int i = fd - 100;
	uint64_t v[3] = { 7, 1000 + (uint64_t)i, fk.lost[i] };
	if (len < sizeof(v))
		return -ENOSPC;
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

/* ---- helpers --------------------------------------------------------------- */

static struct hwprof_record_event ev[2];
static struct hwprof_record_opts opts;
static char path[64];

static int setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	memset(ev, 0, sizeof(ev));
	memset(&opts, 0, sizeof(opts));
	for (int i = 0; i < 2; i++) {
		ev[i].leader = -1;
		ev[i].attr.type = HWPROF_TYPE_SOFTWARE;
		ev[i].attr.size = HWPROF_ATTR_SIZE_VER7;
		ev[i].attr.config = (uint64_t)i;
		ev[i].attr.sample_period = 1000;
		ev[i].name = i ? "task-clock" : "cpu-clock";
	}
	opts.sys = &fk_ops;
	opts.events = ev;
	opts.nr_events = 1;
	opts.cpus = "0";
	opts.mmap_pages = 1;
	opts.no_synth = true;
	opts.no_features = true;
	opts.output_fd = -1;
	snprintf(path, sizeof(path), "/tmp/test_record.%d.data", (int)getpid());
	opts.output = path;
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

/* Kernel-side ring writer: puts a record at head (wrapping) and publishes. */
static void ring_put(int fd_idx, const uint8_t *rec, size_t n, bool publish)
{
	uint8_t *base = fk.ring[fd_idx];
	uint64_t size = ld64(base + 1048), head = ld64(base + 1024);
	for (size_t i = 0; i < n; i++)
		base[PAGE + ((head + i) & (size - 1))] = rec[i];
	if (publish)
		st64(base + 1024, head + n);
}

static size_t sample(uint8_t *b, uint64_t ip, uint32_t tid, uint64_t time)
{
	struct hwprof_sample s = { 0 };
	s.sample_type = ev[0].attr.sample_type;
	s.ip = ip;
	s.pid = s.tid = tid;
	s.time = time;
	s.period = 1000;
	s.misc = HWPROF_MISC_USER;
	int n = hwprof_build_sample(b, 4096, &ev[0].attr, &s);
	assert_true(n > 0);
	return (size_t)n;
}

/* The samples' ips in file order, and the counts of other record types. */
static int read_back(uint64_t *ips, int max, int *lost, int *lost_samples)
{
	struct hwprof_perfdata *h;
	struct hwprof_error err;
	assert_int_equal(hwprof_perfdata_open(&h, path, &err), 0);
	struct hwprof_record rec;
	int n = 0, rc;
	*lost = *lost_samples = 0;
	while ((rc = hwprof_perfdata_next(h, &rec)) == 1) {
		if (rec.type == HWPROF_RECORD_SAMPLE) {
			struct hwprof_sample s;
			assert_int_equal(hwprof_sample_parse(h, &rec, &s), 0);
			if (n < max)
				ips[n] = s.ip;
			n++;
		} else if (rec.type == HWPROF_RECORD_LOST) {
			(*lost)++;
		} else if (rec.type == HWPROF_RECORD_LOST_SAMPLES) {
			(*lost_samples)++;
		}
	}
	assert_int_equal(rc, 0);
	hwprof_perfdata_close(h);
	return n;
}

/* ---- tests ----------------------------------------------------------------- */

static void t_config(void **state)
{
	opts.nr_events = 2;
	hwprof_record_config(ev, 2, &opts);
	for (int i = 0; i < 2; i++) {
		assert_true(HWPROF_ATTR_HAS(&ev[i].attr, HWPROF_ATTR_SAMPLE_ID_ALL));
		assert_true(HWPROF_ATTR_HAS(&ev[i].attr, HWPROF_ATTR_DISABLED));
		assert_true(ev[i].attr.sample_type & HWPROF_SAMPLE_ID);
		assert_true(ev[i].attr.sample_type & HWPROF_SAMPLE_CPU); /* -C */
		assert_int_equal(ev[i].attr.read_format, HWPROF_FORMAT_ID | HWPROF_FORMAT_LOST);
	}
	assert_true(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_MMAP2));
	assert_false(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_MMAP2));
	assert_false(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_ENABLE_ON_EXEC));
}

static void t_ring_wrap_partial_lost(void **state)
{
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	assert_true(fk.enabled[0]);
	/* start near the end of the 4 KiB area so records wrap */
	uint8_t *base = fk.ring[0];
	st64(base + 1024, 4096 - 24);
	st64(base + 1032, 4096 - 24);
	uint8_t b[4096];
	size_t n = sample(b, 0x1000, 42, 10); /* 48 bytes: wraps */
	assert_true(n > 24);
	ring_put(0, b, n, true);
	n = sample(b, 0x2000, 42, 20);
	ring_put(0, b, n, true);
	uint8_t lost[8 + 16 + 32] = { 0 };
	int ln = hwprof_build_kernel_record(lost, sizeof(lost), &ev[0].attr, NULL, HWPROF_RECORD_LOST, 0,
					    (const uint8_t[16]){ [8] = 3 }, 16);
	assert_true(ln > 0);
	ring_put(0, lost, (size_t)ln, true);
	/* a sample of which only the first half is published */
	n = sample(b, 0x3000, 42, 30);
	ring_put(0, b, n, false);
	st64(base + 1024, ld64(base + 1024) + n / 2);
	assert_int_equal(hwprof_record_poll(r, 0), 1);
	uint64_t tail = ld64(base + 1032);
	assert_int_equal(ld64(base + 1024) - tail, n / 2); /* partial left in place */
	st64(base + 1024, tail + n);                       /* the rest arrives */
	assert_int_equal(hwprof_record_drain(r), 0);
	assert_int_equal(ld64(base + 1032), tail + n);
	struct hwprof_record_stats st;
	assert_int_equal(hwprof_record_close(r, &st, &err), 0);
	assert_int_equal(st.samples, 3);
	assert_int_equal(st.lost, 3);
	assert_int_equal(st.lost_chunks, 1);
	assert_int_equal(st.dropped, 0);
	uint64_t ips[8];
	int nl, nls;
	assert_int_equal(read_back(ips, 8, &nl, &nls), 3);
	assert_int_equal(ips[0], 0x1000);
	assert_int_equal(ips[1], 0x2000);
	assert_int_equal(ips[2], 0x3000);
	assert_int_equal(nl, 1);
	assert_int_equal(nls, 0);
}

static void t_corrupt_and_lost_samples(void **state)
{
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	uint8_t b[4096];
	size_t n = sample(b, 0x4000, 7, 5);
	ring_put(0, b, n, true);
	uint8_t bad[16] = { 9, 0, 0, 0, 0, 0, 0, 0 }; /* size 0 */
	ring_put(0, bad, sizeof(bad), true);
	fk.lost[0] = 5;
	struct hwprof_record_stats st;
	assert_int_equal(hwprof_record_close(r, &st, &err), 0);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.dropped, 16);
	assert_int_equal(st.lost_samples, 5);
	uint64_t ips[4];
	int nl, nls;
	assert_int_equal(read_back(ips, 4, &nl, &nls), 1);
	assert_int_equal(nls, 1);
}

static void t_e2big_fallback(void **state)
{
	fk.ksize = HWPROF_ATTR_SIZE_VER5;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
	assert_int_equal(fk.opened_size[0], HWPROF_ATTR_SIZE_VER5);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
}

/* A set field past the kernel's attr size (SIMD registers on a 6.18
 * kernel, which answers E2BIG and size 136) must not be cut off: the open
 * fails with E2BIG and the kernel's size, nothing is opened. */
static void t_e2big_simd(void **state)
{
	fk.ksize = 136;
	ev[0].attr.size = HWPROF_ATTR_SIZE_VER10;
	ev[0].attr.sample_type |= HWPROF_SAMPLE_REGS_INTR;
	ev[0].attr.sample_regs_intr = 0x3;
	ev[0].attr.sample_simd_regs_enabled = 1;
	ev[0].attr.sample_simd_vec_reg_qwords = 8;
	ev[0].attr.sample_simd_vec_reg_intr = 0xffffffff;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), -HWPROF_E_2BIG);
	assert_int_equal(fail.sys_errno, E2BIG);
	assert_int_equal(fail.kernel_attr_size, 136);
	assert_int_equal(fk.nfd, 0);
	assert_int_equal(hwprof_record_close(r, NULL, NULL), 0);
	/* the same size with nothing set past 136 is cut down and opens */
	ev[0].attr.sample_simd_regs_enabled = 0;
	ev[0].attr.sample_simd_vec_reg_qwords = 0;
	ev[0].attr.sample_simd_vec_reg_intr = 0;
	hwprof_record_config(ev, 1, &opts);
	assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), 0);
	assert_int_equal(fk.opened_size[0], 136);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
}

static void t_open_errors(void **state)
{
	static const struct { int e, code; } cases[] = {
		{ EACCES, HWPROF_E_PERM }, { EPERM, HWPROF_E_PERM }, { EOPNOTSUPP, HWPROF_E_OPNOTSUPP },
		{ ENOENT, HWPROF_E_OPNOTSUPP }, { EINVAL, HWPROF_E_INVAL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setup(state);
		fk.fail_errno = cases[i].e;
		hwprof_record_config(ev, 1, &opts);
		struct hwprof_recorder *r;
		struct hwprof_error err;
		struct hwprof_record_fail fail;
		assert_int_equal(hwprof_record_open(&r, &opts, &err, &fail), -cases[i].code);
		assert_int_equal(fail.event, 0);
		assert_int_equal(fail.sys_errno, cases[i].e);
		assert_int_equal(fail.cpu, 0);
		assert_non_null(strstr(err.msg, "cpu-clock"));
		assert_int_equal(hwprof_record_close(r, NULL, NULL), 0);
	}
}

static void t_two_events_share_ring(void **state)
{
	opts.nr_events = 2;
	hwprof_record_config(ev, 2, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
	assert_int_equal(fk.nfd, 2);
	assert_non_null(fk.ring[0]);
	assert_null(fk.ring[1]);
	assert_int_equal(fk.output_of[1], 100);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open(&h, path, &err), 0);
	assert_int_equal(hwprof_perfdata_nr_evsels(h), 2);
	assert_int_equal(hwprof_perfdata_evsel(h, 1)->ids[0], 1001);
	hwprof_perfdata_close(h);
}

static void t_zstd_and_pipe(void **state)
{
	for (int mode = 0; mode < 2; mode++) {
		setup(state);
		opts.zstd_level = mode == 0 ? 3 : 0;
		opts.pipe = mode == 1;
		hwprof_record_config(ev, 1, &opts);
		struct hwprof_recorder *r;
		struct hwprof_error err;
		assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
		assert_int_equal(hwprof_record_start(r, &err), 0);
		uint8_t b[4096];
		for (int k = 0; k < 200; k++) {
			size_t n = sample(b, 0x5000 + (uint64_t)k, 9, (uint64_t)k);
			ring_put(0, b, n, true);
			if (k % 40 == 39)
				assert_int_equal(hwprof_record_drain(r), 0);
		}
		struct hwprof_record_stats st;
		assert_int_equal(hwprof_record_close(r, &st, &err), 0);
		assert_int_equal(st.samples, 200);
		if (mode == 0)
			assert_true(st.compressed > 0);
		uint64_t ips[200];
		int nl, nls;
		assert_int_equal(read_back(ips, 200, &nl, &nls), 200);
		for (int k = 0; k < 200; k++)
			assert_int_equal(ips[k], 0x5000 + (uint64_t)k);
		teardown(state);
	}
}

static void t_bad_opts(void **state)
{
	struct hwprof_recorder *r;
	struct hwprof_error err;
	opts.nr_events = 0;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), -HWPROF_E_INVAL);
	assert_null(r);
	opts.nr_events = 1;
	opts.cpus = "3-1";
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), -HWPROF_E_INVAL);
	hwprof_record_close(r, NULL, NULL);
	opts.cpus = "0";
	opts.mmap_pages = 3;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), -HWPROF_E_INVAL);
	hwprof_record_close(r, NULL, NULL);
}

/* perf 6.1's tracking dummy: the sideband bits move to it; for CPU
 * targets it runs from the start (not disabled), with a delay and a
 * workload it starts on exec while the other events wait. */
static void t_tracking_dummy(void **state)
{
	ev[1].attr.config = 9; /* dummy */
	ev[1].tracking = true;
	ev[1].name = "dummy:HG";
	opts.nr_events = 2;
	hwprof_record_config(ev, 2, &opts); /* -C 0 */
	assert_false(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_MMAP2));
	assert_true(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_MMAP2));
	assert_true(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_COMM));
	assert_true(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_DISABLED));
	assert_false(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_DISABLED));

	char *argv[] = { "true", NULL };
	opts.cpus = NULL;
	opts.argv = argv;
	opts.delay_ms = -1;
	hwprof_record_config(ev, 2, &opts);
	assert_true(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_DISABLED));
	assert_false(HWPROF_ATTR_HAS(&ev[0].attr, HWPROF_ATTR_ENABLE_ON_EXEC));
	assert_true(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_DISABLED));
	assert_true(HWPROF_ATTR_HAS(&ev[1].attr, HWPROF_ATTR_ENABLE_ON_EXEC));
}

/* -D -1 / --control: nothing enabled at start; hwprof_record_enable
 * switches every event (group leaders) by ioctl. */
static void t_delay_enable(void **state)
{
	opts.delay_ms = -1;
	opts.nr_events = 2;
	hwprof_record_config(ev, 2, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	assert_false(fk.enabled[0]);
	assert_false(fk.enabled[1]);
	assert_int_equal(hwprof_record_enable(r, true), 0);
	assert_true(fk.enabled[0] && fk.enabled[1]);
	assert_int_equal(hwprof_record_enable(r, false), 0);
	assert_false(fk.enabled[0] || fk.enabled[1]);
	assert_int_equal(hwprof_record_close(r, NULL, &err), 0);
}

/* A disk that fills up mid-recording (RLIMIT_FSIZE: writes stop part way
 * through the buffer, then fail): close reports the error and the file's
 * header covers exactly the whole records that reached the disk, so the
 * reader takes it and sees every sample up to there. */
static void t_disk_full(void **state)
{
	opts.mmap_pages = 4;
	hwprof_record_config(ev, 1, &opts);
	struct hwprof_recorder *r;
	struct hwprof_error err;
	assert_int_equal(hwprof_record_open(&r, &opts, &err, NULL), 0);
	assert_int_equal(hwprof_record_start(r, &err), 0);
	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 100000; /* a little over one output buffer */
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	uint8_t b[4096];
	int rc = 0, put = 0;
	/* feed samples until the output fails */
	for (int round = 0; round < 200 && rc >= 0; round++) {
		for (int k = 0; k < 100; k++, put++) {
			size_t n = sample(b, 0x10000 + (uint64_t)put, 42, (uint64_t)put + 1);
			ring_put(0, b, n, true);
		}
		rc = hwprof_record_drain(r);
	}
	assert_true(rc < 0);
	struct hwprof_record_stats st;
	rc = hwprof_record_close(r, &st, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_true(rc < 0);
	assert_true(err.msg[0] != 0);
	static uint64_t ips[20000];
	int nl, nls;
	int got = read_back(ips, 20000, &nl, &nls); /* asserts the reader takes the file */
	assert_true(got > 100 && got < put);
	for (int i = 0; i < got; i++)
		assert_int_equal(ips[i], 0x10000 + (uint64_t)i); /* in order, none torn */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_config, setup, teardown),
		cmocka_unit_test_setup_teardown(t_ring_wrap_partial_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(t_corrupt_and_lost_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(t_e2big_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(t_e2big_simd, setup, teardown),
		cmocka_unit_test_setup_teardown(t_open_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(t_two_events_share_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(t_zstd_and_pipe, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_opts, setup, teardown),
		cmocka_unit_test_setup_teardown(t_disk_full, setup, teardown),
		cmocka_unit_test_setup_teardown(t_tracking_dummy, setup, teardown),
		cmocka_unit_test_setup_teardown(t_delay_enable, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
