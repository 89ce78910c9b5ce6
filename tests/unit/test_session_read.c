/* Unit tests of the session's perf report rules on a file written here:
 * PERF_SAMPLE_READ group samples split per value (periods as growth per
 * id, values that did not grow or with unknown ids skipped and counted),
 * the same values seen without splitting, per-event counts (samples,
 * LOST_SAMPLES by id), and the thread and map listing behind --tasks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perfdata_write.h"
#include "hwprof/session.h"

static void put(struct hwprof_writer *w, uint8_t *buf, int n)
{
	assert_true(n > 0);
	assert_int_equal(hwprof_writer_write(w, buf, (size_t)n), 0);
}

static void st64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Two events in a group, ids 1 and 2; group samples of id 1 whose values
 * are (id 1, id 2, id 9): (10, 5, 1), (10, 8, 2), (25, 8, 3), (30, 20, 4);
 * a LOST_SAMPLES of 7 for id 2; a FORK of thread 101 from 100. */
static char *write_fixture(void)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/test_session_read.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct hwprof_writer *w;
	struct hwprof_error err;
	assert_int_equal(hwprof_writer_open_fd(&w, fd, HWPROF_WRITE_FILE, &err), 0);
	struct hwprof_attr a = { 0 };
	a.type = HWPROF_TYPE_SOFTWARE;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.sample_period = 100;
	a.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID | HWPROF_SAMPLE_READ;
	a.read_format = HWPROF_FORMAT_GROUP | HWPROF_FORMAT_ID;
	a.flags = (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) | (1ULL << HWPROF_ATTR_COMM) | (1ULL << HWPROF_ATTR_MMAP2);
	struct hwprof_attr b = a;
	b.config = 1;
	uint64_t id1[1] = { 1 }, id2[1] = { 2 };
	assert_int_equal(hwprof_writer_add_evsel(w, &a, "cpu-clock", id1, 1), 0);
	assert_int_equal(hwprof_writer_add_evsel(w, &b, "task-clock", id2, 1), 0);
	uint8_t buf[1024];
	struct hwprof_sample id = { 0 };
	id.pid = id.tid = 100;
	id.id = 1;
	id.time = 1;
	put(w, buf, hwprof_build_comm(buf, sizeof(buf), &a, &id, 100, 100, "parent", 0));
	id.time = 2;
	put(w, buf, hwprof_build_mmap2(buf, sizeof(buf), &a, &id, HWPROF_MISC_USER, 100, 100, 0x400000, 0x1000, 0x2000,
				       8, 1, 4321, 0, 5, 2, "/usr/bin/parent"));
	id.time = 3;
	put(w, buf, hwprof_build_task(buf, sizeof(buf), &a, &id, HWPROF_RECORD_FORK, 100, 100, 101, 100, 3));
	static const uint64_t vals[4][3] = { { 10, 5, 1 }, { 10, 8, 2 }, { 25, 8, 3 }, { 30, 20, 4 } };
	for (int k = 0; k < 4; k++) {
		uint8_t v[6 * 8];
		for (int i = 0; i < 3; i++) {
			st64(v + 16 * i, vals[k][i]);
			st64(v + 16 * i + 8, i == 2 ? 9 : (uint64_t)i + 1);
		}
		struct hwprof_sample s = { 0 };
		s.pid = s.tid = 100;
		s.time = 10 + (uint64_t)k;
		s.id = 1;
		s.ip = 0x400100;
		s.misc = HWPROF_MISC_USER;
		s.read_nr = 3;
		s.read_values = v;
		s.read_value_stride = 16;
		put(w, buf, hwprof_build_sample(buf, sizeof(buf), &a, &s));
	}
	uint8_t lost[8];
	st64(lost, 7);
	id.id = 2;
	id.time = 20;
	put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &b, &id, HWPROF_RECORD_LOST_SAMPLES, 0, lost, 8));
	assert_int_equal(hwprof_writer_close(w, &err), 0);
	close(fd);
	return path;
}

static void test_split(void **state)
{
	(void)state;
	char *path = write_fixture();
	struct hwprof_session *s;
	struct hwprof_error err;
	assert_int_equal(hwprof_session_open(&s, path, &err), 0);
	hwprof_session_split_read(s, true);
	struct hwprof_event ev;
	/* expected (event idx, period): 10 and 5; 3 (id 1 did not grow); 15;
	 * 5 and 12 */
	static const uint64_t want[][2] = { { 0, 10 }, { 1, 5 }, { 1, 3 }, { 0, 15 }, { 0, 5 }, { 1, 12 } };
	size_t n = 0;
	while (hwprof_session_next(s, &ev) > 0) {
		if (ev.rec.type != HWPROF_RECORD_SAMPLE)
			continue;
		assert_true(n < 6);
		assert_int_equal(ev.sample.evsel->idx, want[n][0]);
		assert_int_equal(ev.sample.period, want[n][1]);
		assert_int_equal(ev.sample.id, want[n][0] + 1);
		n++;
	}
	assert_int_equal(n, 6);
	const struct hwprof_session_stats *st = hwprof_session_stats(s);
	assert_int_equal(st->unknown_id, 4); /* id 9, once per sample */
	assert_int_equal(st->nr_events[HWPROF_RECORD_SAMPLE], 4);
	struct hwprof_evsel_stats e0 = hwprof_session_evsel_stats(s, 0), e1 = hwprof_session_evsel_stats(s, 1);
	assert_int_equal(e0.samples, 3);
	assert_int_equal(e0.lost_samples, 0);
	assert_int_equal(e1.samples, 3);
	assert_int_equal(e1.lost_samples, 7);
	hwprof_session_close(s);
	unlink(path);
}

static void test_unsplit(void **state)
{
	(void)state;
	char *path = write_fixture();
	struct hwprof_session *s;
	struct hwprof_error err;
	assert_int_equal(hwprof_session_open(&s, path, &err), 0);
	struct hwprof_event ev;
	static const size_t members[4] = { 2, 1, 1, 2 };
	size_t n = 0;
	while (hwprof_session_next(s, &ev) > 0) {
		const struct hwprof_read_member *m;
		size_t k = hwprof_session_read_members(s, &m);
		if (ev.rec.type != HWPROF_RECORD_SAMPLE) {
			assert_int_equal(k, 0);
			continue;
		}
		assert_int_equal(ev.sample.evsel->idx, 0); /* the record's own event */
		assert_int_equal(k, members[n]);
		n++;
	}
	assert_int_equal(n, 4);
	assert_int_equal(hwprof_session_evsel_stats(s, 0).samples, 3);
	hwprof_session_close(s);
	unlink(path);
}

static void test_threads_maps(void **state)
{
	(void)state;
	char *path = write_fixture();
	struct hwprof_session *s;
	struct hwprof_error err;
	assert_int_equal(hwprof_session_open(&s, path, &err), 0);
	struct hwprof_event ev;
	/* a lookup before the FORK makes thread 101; the FORK replaces it
	 * with another of perf's thread objects */
	struct hwprof_thread_info early, late, other;
	assert_int_equal(hwprof_session_thread(s, 100, 101, &early), 0);
	while (hwprof_session_next(s, &ev) > 0)
		;
	assert_int_equal(hwprof_session_thread(s, 100, 101, &late), 0);
	assert_int_not_equal(early.serial, 0);
	assert_int_not_equal(late.serial, early.serial);
	assert_string_equal(late.comm, "parent");
	/* another pid for the same tid (an exiting task's last samples) is
	 * the same object */
	assert_int_equal(hwprof_session_thread(s, -1, 101, &other), 0);
	assert_int_equal(other.serial, late.serial);
	assert_int_equal(other.pid, 100);
	struct hwprof_thread_info t[8];
	size_t n = hwprof_session_threads(s, t, 8);
	assert_int_equal(n, 3); /* swapper, 100, 101 */
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].tid == 101) {
			assert_int_equal(t[i].ppid, 100);
			assert_string_equal(t[i].comm, "parent");
			seen++;
		} else if (t[i].tid == 0) {
			assert_string_equal(t[i].comm, "swapper");
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	struct hwprof_map_info m[4];
	/* the child's copy of its parent's map */
	assert_int_equal(hwprof_session_thread_maps(s, 101, m, 4), 1);
	assert_int_equal(m[0].start, 0x400000);
	assert_int_equal(m[0].end, 0x401000);
	assert_int_equal(m[0].pgoff, 0x2000);
	assert_int_equal(m[0].prot, 5);
	assert_int_equal(m[0].flags, 2);
	assert_int_equal(m[0].ino, 4321);
	assert_string_equal(m[0].dso, "/usr/bin/parent");
	assert_int_equal(hwprof_session_thread_maps(s, 555, m, 4), 0);
	hwprof_session_close(s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_unsplit),
		cmocka_unit_test(test_threads_maps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
