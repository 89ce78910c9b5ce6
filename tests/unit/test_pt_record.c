/* Recording an intel_pt event through the recorder against a fake kernel
 * (the machines here have no PT): the address filter reaches the kernel
 * with PERF_EVENT_IOC_SET_FILTER on every fd of the event, the
 * AUXTRACE_INFO record in the file is the builder's body, and trace bytes
 * the "hardware" puts in the AUX area come out as an AUXTRACE record. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hwprof/event.h"
#include "hwprof/intel_pt_cfg.h"
#include "hwprof/perfdata.h"
#include "hwprof/record.h"
#include "util/bytes.h"

#define PAGE 4096
#define NFD 4

static struct {
	int nfd;
	uint32_t type[NFD];
	uint8_t *map[NFD][2];     /* ring, AUX area */
	size_t len[NFD][2];
	char filter[NFD][128];    /* SET_FILTER text seen */
} fk;

static int fk_open(struct hwprof_attr *a, int pid, int cpu, int group_fd, unsigned long flags)
{
	(void)pid, (void)cpu, (void)group_fd, (void)flags;
	if (fk.nfd == NFD)
		return -EMFILE;
	fk.type[fk.nfd] = a->type;
	return 100 + fk.nfd++;
}

static int fk_close(int fd)
{
	return fd >= 100 && fd < 100 + NFD ? 0 : -EBADF;
}

static int fk_mmap(int fd, size_t len, int prot, uint64_t off, void **out)
{
	(void)prot;
	int i = fd - 100, k = off ? 1 : 0;
	if (i < 0 || i >= NFD)
		return -EINVAL;
	if (k && (!fk.map[i][0] || off != ld64(fk.map[i][0] + 1072) || len != ld64(fk.map[i][0] + 1080)))
		return -EINVAL; /* the AUX area must be announced in the user page first */
	uint8_t *p = aligned_alloc(PAGE, len);
	memset(p, 0, len);
	if (!k) {
		st64(p + 1040, PAGE);
		st64(p + 1048, len - PAGE);
	}
	fk.map[i][k] = p;
	fk.len[i][k] = len;
	*out = p;
	return 0;
}

static int fk_munmap(void *addr, size_t len)
{
	(void)len;
	for (int i = 0; i < NFD; i++)
		for (int k = 0; k < 2; k++)
			if (fk.map[i][k] == addr) {
				free(addr);
				fk.map[i][k] = NULL;
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
	case 0x40082406UL: /* SET_FILTER */
		snprintf(fk.filter[i], sizeof(fk.filter[i]), "%s", (const char *)(uintptr_t)arg);
		return fk.type[i] == 10 ? 0 : -EINVAL;
	case 0x2405UL: case 0x2400UL: case 0x2401UL:
		return 0;
	}
	return -ENOTTY;
}

static long fk_read(int fd, void *buf, size_t len)
{
	uint64_t v[3] = { 0, 1000 + (uint64_t)(fd - 100), 0 };
	if (len < sizeof(v))
		return -ENOSPC;
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

static int fk_poll(void *fds, unsigned n, int timeout)
{
	(void)fds, (void)n, (void)timeout;
	return 0;
}

static const struct hwprof_sys_ops fk_ops = {
	.perf_event_open = fk_open, .close = fk_close, .mmap = fk_mmap, .munmap = fk_munmap,
	.ioctl = fk_ioctl, .read = fk_read, .poll = fk_poll,
};

static void cpuid(void *ctx, uint32_t *eax, uint32_t *ebx)
{
	(void)ctx;
	*eax = 2;
	*ebx = 176;
}

static int tconv(void *ctx, struct hwprof_pt_time *t)
{
	(void)ctx;
	t->time_shift = 31;
	t->time_mult = 0x2aaaaaab;
	t->time_zero = 0xffffe4c1a3f0e000ULL;
	t->cap_user_time_zero = true;
	return 0;
}

struct ctx {
	const struct hwprof_pmu *pmu;
	struct hwprof_pt_info_src src;
	struct hwprof_pt_info_opts o;
};

static int info(void *c, const struct hwprof_record_event *ev, uint8_t *buf, size_t len)
{
	struct ctx *x = c;
	x->o.filter = ev->filter;
	return hwprof_pt_auxtrace_info(x->pmu, &x->o, &x->src, buf, len);
}

static void test_record_pt(void **state)
{
	(void)state;
	struct hwprof_pmu_config pc = { .sysfs_root = "tests/data/sysfs/alderlake" };
	struct hwprof_pmus *pmus;
	assert_int_equal(hwprof_pmus_open(&pmus, &pc), 0);
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	assert_int_equal(hwprof_evlist_parse(&l, "intel_pt//u", pmus, &err), 1);
	assert_int_equal(hwprof_evlist_config(&l, NULL, pmus, &err), 0);

	const char *flt = "filter 0x1129/0x15f@/usr/bin/x";
	struct hwprof_record_event ev = { .attr = l.ev[0].attr, .name = "intel_pt//u", .leader = -1, .aux = true,
					  .filter = flt };
	struct ctx x = { hwprof_pmus_find(pmus, "intel_pt"), { cpuid, tconv, NULL },
			 { .per_cpu_mmaps = true, .have_sched_switch = 2 } };
	struct hwprof_record_aux_ops ops = { info, &x };
	char path[64];
	snprintf(path, sizeof(path), "/tmp/test_pt_record.%d.data", (int)getpid());
	struct hwprof_record_opts o = { .sys = &fk_ops, .events = &ev, .nr_events = 1, .cpus = "0",
					.mmap_pages = 1, .aux_pages = 2, .aux_ops = &ops, .output = path,
					.output_fd = -1, .no_synth = true, .no_features = true };
	memset(&fk, 0, sizeof(fk));
	hwprof_record_config(&ev, 1, &o);
	struct hwprof_recorder *r;
	struct hwprof_record_fail fail;
	assert_int_equal(hwprof_record_open(&r, &o, &err, &fail), 0);
	assert_int_equal(fk.type[0], 10);
	assert_string_equal(fk.filter[0], flt);
	assert_int_equal(hwprof_record_start(r, &err), 0);

	/* the hardware writes a PSB, PSBEND and a TIP.PGE into the AUX area */
	static const uint8_t trace[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
					 0x02, 0x82, 0x02, 0x82, 0x02, 0x23, 0x71, 0x29, 0x11, 0x00, 0x00, 0x00 };
	assert_non_null(fk.map[0][1]);
	memcpy(fk.map[0][1], trace, sizeof(trace));
	st64(fk.map[0][0] + 1056, sizeof(trace)); /* aux_head */
	assert_true(hwprof_record_drain(r) >= 0);
	struct hwprof_record_stats st;
	assert_int_equal(hwprof_record_close(r, &st, &err), 0);
	assert_int_equal(st.aux_bytes, sizeof(trace));

	uint8_t want[512];
	int wn = hwprof_pt_auxtrace_info(x.pmu, &x.o, &x.src, want, sizeof(want));
	assert_true(wn > 0);
	struct hwprof_perfdata *h;
	assert_int_equal(hwprof_perfdata_open(&h, path, &err), 0);
	struct hwprof_record rec;
	int seen_info = 0, seen_aux = 0, rc;
	while ((rc = hwprof_perfdata_next(h, &rec)) == 1) {
		if (rec.type == 70) {
			seen_info++;
			assert_int_equal(rec.size, 8 + wn);
			assert_memory_equal(rec.data + 8, want, (size_t)wn);
			assert_int_equal(ld64(rec.data + 8 + 8 + 8 * HWPROF_PT_INFO_PMU_TYPE), 10);
			assert_int_equal(ld64(rec.data + 8 + 8 + 8 * HWPROF_PT_INFO_FILTER_STR_LEN), strlen(flt));
			assert_string_equal((const char *)rec.data + 8 + 8 + 8 * HWPROF_PT_INFO_WORDS, flt);
		} else if (rec.type == 71) {
			seen_aux++;
			assert_int_equal(rec.payload_size, 24);
			assert_memory_equal(rec.payload, trace, sizeof(trace));
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(seen_info, 1);
	assert_int_equal(seen_aux, 1);
	hwprof_perfdata_close(h);
	unlink(path);

	/* the kernel refusing the filter is an error naming it */
	ev.attr.type = 9;
	ev.filter = "filter 0x10/0x20";
	memset(&fk, 0, sizeof(fk));
	assert_true(hwprof_record_open(&r, &o, &err, &fail) < 0);
	assert_string_equal(err.msg, "failed to set filter \"filter 0x10/0x20\" on event intel_pt//u with 22 "
				     "(Invalid argument)");
	hwprof_record_close(r, NULL, NULL);
	unlink(path);
	hwprof_evlist_free(&l);
	hwprof_pmus_close(pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_pt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
