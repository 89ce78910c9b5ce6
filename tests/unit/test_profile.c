/* Unit tests of the profile model and its exporters on a perf.data file
 * written here with the library's writer: callchains with context
 * markers, stacks shared and deduplicated, weights summed per thread and
 * stack, the default and a custom resolver, streaming order, and the
 * exporters' output on that profile and on an empty one. */
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
#include "hwprof/profile.h"

#define KADDR 0xffffffff81000100ULL

static struct hwprof_attr fixture_attr(void)
{
	struct hwprof_attr a = { 0 };
	a.type = HWPROF_TYPE_SOFTWARE;
	a.config = 0; /* cpu-clock */
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.sample_period = 100;
	a.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_CALLCHAIN |
			HWPROF_SAMPLE_ID | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD;
	a.flags = (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) | (1ULL << HWPROF_ATTR_MMAP) | (1ULL << HWPROF_ATTR_COMM) |
		  (1ULL << HWPROF_ATTR_MMAP2);
	return a;
}

static void put(struct hwprof_writer *w, uint8_t *buf, int n)
{
	assert_true(n > 0);
	assert_int_equal(hwprof_writer_write(w, buf, (size_t)n), 0);
}

static void sample(struct hwprof_writer *w, const struct hwprof_attr *a, uint32_t tid, uint64_t time,
		   uint64_t period, uint64_t ip, const uint64_t *chain, uint64_t nr)
{
	uint8_t buf[1024];
	struct hwprof_sample s = { 0 };
	s.pid = 100;
	s.tid = tid;
	s.time = time;
	s.id = 1;
	s.cpu = 1;
	s.period = period;
	s.ip = ip;
	s.misc = ip >= KADDR ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	s.callchain = (const uint8_t *)chain;
	s.callchain_nr = nr;
	put(w, buf, hwprof_build_sample(buf, sizeof(buf), a, &s));
}

/* Writes the fixture; samples (time order):
 *   t=10 tid 100  kernel KADDR <- user 0x401000 <- 0x402000, period 100
 *   t=20 tid 100  same stack, period 200
 *   t=30 tid 100  user 0x401000 <- 0x402000, period 50
 *   t=40 tid 100  no callchain entries: ip 0x401000, period 25
 *   t=50 tid 101  user 0x500000 (unmapped), period 7 */
static char *write_fixture(int empty)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/test_profile.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct hwprof_writer *w;
	struct hwprof_error err;
	assert_int_equal(hwprof_writer_open_fd(&w, fd, HWPROF_WRITE_FILE, &err), 0);
	struct hwprof_attr a = fixture_attr();
	uint64_t ids[1] = { 1 };
	assert_int_equal(hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1), 0);
	uint8_t buf[1024];
	struct hwprof_sample id = { 0 };
	id.pid = id.tid = 100;
	id.id = 1;
	put(w, buf, hwprof_build_comm(buf, sizeof(buf), &a, &id, 100, 100, "fixture", 1));
	put(w, buf, hwprof_build_mmap(buf, sizeof(buf), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, 0xffffffff81000000ULL,
				      0x1000000, 0xffffffff81000000ULL, "[kernel.kallsyms]_text"));
	put(w, buf, hwprof_build_mmap2(buf, sizeof(buf), &a, &id, HWPROF_MISC_USER, 100, 100, 0x400000, 0x10000, 0,
				       8, 1, 1234, 0, 5, 2, "/usr/bin/fixture"));
	put(w, buf, hwprof_build_task(buf, sizeof(buf), &a, &id, HWPROF_RECORD_FORK, 100, 100, 101, 100, 5));
	if (!empty) {
		const uint64_t c1[] = { HWPROF_CONTEXT_KERNEL, KADDR, HWPROF_CONTEXT_USER, 0x401000, 0x402000 };
		const uint64_t c3[] = { HWPROF_CONTEXT_USER, 0x401000, 0x402000 };
		const uint64_t c5[] = { HWPROF_CONTEXT_USER, 0x500000 };
		sample(w, &a, 100, 10, 100, KADDR, c1, 5);
		sample(w, &a, 100, 20, 200, KADDR, c1, 5);
		sample(w, &a, 100, 30, 50, 0x401000, c3, 3);
		sample(w, &a, 100, 40, 25, 0x401000, NULL, 0);
		sample(w, &a, 101, 50, 7, 0x500000, c5, 2);
	}
	assert_int_equal(hwprof_writer_close(w, &err), 0);
	close(fd);
	return path;
}

static struct hwprof_profile *load(const char *path, const struct hwprof_profile_opts *o,
				   struct hwprof_session **sess)
{
	struct hwprof_error err;
	struct hwprof_profile *p;
	assert_int_equal(hwprof_session_open(sess, path, &err), 0);
	assert_int_equal(hwprof_profile_build(&p, *sess, o, &err), 0);
	return p;
}

static const char *stack_str(const struct hwprof_profile *p, uint32_t stack, char *buf, size_t len)
{
	uint32_t fr[16];
	uint32_t d = hwprof_profile_stack_frames(p, stack, fr, 16);
	buf[0] = 0;
	for (uint32_t i = 0; i < d && i < 16; i++) {
		strncat(buf, i ? ";" : "", len - strlen(buf) - 1);
		strncat(buf, hwprof_profile_frame(p, fr[i])->label, len - strlen(buf) - 1);
	}
	return buf;
}

static void test_default_resolver(void **state)
{
	char *path = write_fixture(0);
	struct hwprof_session *s;
	struct hwprof_profile *p = load(path, NULL, &s);
	char b[512];
	/* Frames: DSO-only names, one per (name, dso, kernel). */
	assert_int_equal(hwprof_profile_nr_frames(p), 3);
	const struct hwprof_profile_frame *k = hwprof_profile_frame(p, 0);
	assert_string_equal(k->name, "[unknown]");
	assert_string_equal(k->dso, "[kernel.kallsyms]");
	assert_string_equal(k->label, "[unknown] ([kernel.kallsyms])");
	assert_true(k->kernel);
	assert_false(k->resolved);
	assert_string_equal(hwprof_profile_frame(p, 1)->label, "[unknown] (fixture)");
	assert_false(hwprof_profile_frame(p, 1)->kernel);
	assert_null(hwprof_profile_frame(p, 2)->dso);
	assert_string_equal(hwprof_profile_frame(p, 2)->label, "[unknown]");
	/* Stacks root first, shared prefixes deduplicated. */
	assert_int_equal(hwprof_profile_nr_stacks(p), 4);
	assert_int_equal(hwprof_profile_nr_entries(p), 4);
	const struct hwprof_profile_entry *e = hwprof_profile_entry(p, 0);
	assert_string_equal(stack_str(p, e->stack, b, sizeof(b)),
			    "[unknown] (fixture);[unknown] (fixture);[unknown] ([kernel.kallsyms])");
	assert_int_equal(e->nr_samples, 2);
	assert_int_equal(e->weight, 300);
	e = hwprof_profile_entry(p, 1);
	assert_string_equal(stack_str(p, e->stack, b, sizeof(b)), "[unknown] (fixture);[unknown] (fixture)");
	assert_int_equal(e->weight, 50);
	assert_int_equal(hwprof_profile_stack_parent(p, hwprof_profile_entry(p, 0)->stack), e->stack);
	e = hwprof_profile_entry(p, 2);
	assert_string_equal(stack_str(p, e->stack, b, sizeof(b)), "[unknown] (fixture)");
	assert_int_equal(e->weight, 25);
	assert_int_equal(hwprof_profile_stack_parent(p, e->stack), HWPROF_STACK_NONE);
	e = hwprof_profile_entry(p, 3);
	assert_string_equal(stack_str(p, e->stack, b, sizeof(b)), "[unknown]");
	assert_int_equal(e->weight, 7);
	/* Threads and events. */
	assert_int_equal(hwprof_profile_nr_threads(p), 2);
	const struct hwprof_profile_thread *t = hwprof_profile_thread(p, 0);
	assert_int_equal(t->tid, 100);
	assert_string_equal(t->comm, "fixture");
	assert_int_equal(t->nr_samples, 4);
	assert_int_equal(t->weight, 375);
	t = hwprof_profile_thread(p, 1);
	assert_int_equal(t->tid, 101);
	assert_int_equal(t->pid, 100);
	assert_string_equal(t->comm, "fixture");
	assert_int_equal(hwprof_profile_nr_events(p), 1);
	assert_string_equal(hwprof_profile_event(p, 0)->name, "cpu-clock");
	assert_true(hwprof_profile_event(p, 0)->period_is_ns);
	assert_int_equal(hwprof_profile_event(p, 0)->weight, 382);
	uint64_t t0, t1;
	hwprof_profile_time_range(p, &t0, &t1);
	assert_int_equal(t0, 10);
	assert_int_equal(t1, 50);
	hwprof_profile_free(p);
	hwprof_session_close(s);
	unlink(path);
}

/* Names each address; resolved symbols keep their name as the label. */
static int by_addr(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr,
		   char *name, size_t len, const char **dso)
{
	(*(int *)ctx)++;
	snprintf(name, len, "f_%llx", (unsigned long long)addr);
	*dso = cpumode == HWPROF_MISC_KERNEL ? "[kernel.kallsyms]" : NULL;
	return 1;
}

struct seen { int n; uint64_t last_time; uint32_t stacks[8]; };

static int on_sample(void *ctx, struct hwprof_profile *p, const struct hwprof_profile_sample *s)
{
	struct seen *v = ctx;
	assert_true(s->time >= v->last_time);
	assert_true(s->stack < hwprof_profile_nr_stacks(p));
	v->last_time = s->time;
	v->stacks[v->n++ & 7] = s->stack;
	return 0;
}

static void test_custom_resolver_and_stream(void **state)
{
	char *path = write_fixture(0);
	int calls = 0;
	struct seen v = { 0 };
	struct hwprof_profile_opts o = { .resolve = by_addr, .resolve_ctx = &calls, .on_sample = on_sample,
					 .sample_ctx = &v };
	struct hwprof_session *s;
	struct hwprof_profile *p = load(path, &o, &s);
	char b[512];
	assert_int_equal(calls, 3 + 3 + 2 + 1 + 1);
	assert_int_equal(v.n, 5);
	assert_int_equal(v.stacks[0], v.stacks[1]);
	assert_string_equal(stack_str(p, v.stacks[0], b, sizeof(b)), "f_402000;f_401000;f_ffffffff81000100");
	assert_string_equal(stack_str(p, v.stacks[2], b, sizeof(b)), "f_402000;f_401000");
	assert_string_equal(stack_str(p, v.stacks[3], b, sizeof(b)), "f_401000");
	assert_int_equal(hwprof_profile_nr_frames(p), 4);
	assert_true(hwprof_profile_frame(p, 0)->resolved);
	assert_string_equal(hwprof_profile_frame(p, 0)->label, "f_ffffffff81000100"); /* leaf resolved first */
	hwprof_profile_free(p);
	hwprof_session_close(s);
	unlink(path);
}

static int fail_resolver(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid, unsigned cpumode,
			 uint64_t addr, char *name, size_t len, const char **dso)
{
	return -HWPROF_E_INVAL;
}

static void test_resolver_error_aborts(void **state)
{
	char *path = write_fixture(0);
	struct hwprof_profile_opts o = { .resolve = fail_resolver };
	struct hwprof_session *s;
	struct hwprof_profile *p;
	struct hwprof_error err;
	assert_int_equal(hwprof_session_open(&s, path, &err), 0);
	assert_int_equal(hwprof_profile_build(&p, s, &o, &err), -HWPROF_E_INVAL);
	assert_null(p);
	assert_int_equal(err.code, -HWPROF_E_INVAL);
	hwprof_session_close(s);
	unlink(path);
}

/* Runs an exporter over the fixture into memory. */
static char *export_mem(int fmt, int empty, size_t *len)
{
	char *path = write_fixture(empty);
	struct hwprof_export *x = NULL;
	struct hwprof_profile_opts o = { 0 };
	if (fmt >= 0) {
		assert_int_equal(hwprof_export_create(&x, (enum hwprof_export_format)fmt), 0);
		o.on_sample = hwprof_export_on_sample;
		o.sample_ctx = x;
	}
	struct hwprof_session *s;
	struct hwprof_profile *p = load(path, &o, &s);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	if (fmt >= 0)
		assert_int_equal(hwprof_export_finish(x, p, f), 0);
	else if (fmt == -1)
		assert_int_equal(hwprof_export_pprof(p, f), 0);
	else
		assert_int_equal(hwprof_flamegraph_svg(p, NULL, f), 0);
	fclose(f);
	hwprof_export_free(x);
	hwprof_profile_free(p);
	hwprof_session_close(s);
	unlink(path);
	return buf;
}

static void test_speedscope(void **state)
{
	size_t n;
	char *out = export_mem(HWPROF_EXPORT_SPEEDSCOPE, 0, &n);
	/* Thread 100: samples root first over shared frame ids, period weights. */
	assert_non_null(strstr(out, "\"name\":\"fixture 100/100\",\"unit\":\"nanoseconds\",\"startValue\":0,"
				    "\"endValue\":375,\"samples\":[[1,1,0],[1,1,0],[1,1],[1]],\"weights\":[100,200,50,25]"));
	assert_non_null(strstr(out, "\"samples\":[[2]],\"weights\":[7]"));
	assert_non_null(strstr(out, "{\"name\":\"[unknown] ([kernel.kallsyms])\",\"file\":\"[kernel.kallsyms]\"}"));
	free(out);
	out = export_mem(HWPROF_EXPORT_SPEEDSCOPE, 1, &n);
	assert_non_null(strstr(out, "\"profiles\":[],"));
	free(out);
}

static void test_firefox(void **state)
{
	size_t n;
	char *out = export_mem(HWPROF_EXPORT_FIREFOX, 0, &n);
	/* Thread 100: local stacks 0 = fixture, 1 = fixture;fixture, 2 = +kernel. */
	assert_non_null(strstr(out, "\"data\":[[2,0.000000,0],[2,0.000010,0],[1,0.000020,0],[0,0.000030,0]]"));
	assert_non_null(strstr(out, "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0],[0,0],[1,1]]}"));
	assert_non_null(strstr(out, "\"data\":[[0,false,0,null,null,null,null,0,0],[1,false,0,null,null,null,null,1,0]]"));
	assert_non_null(strstr(out, "\"stringTable\":[\"[unknown] (fixture)\",\"[unknown] ([kernel.kallsyms])\"]"));
	free(out);
}

static void test_chrome(void **state)
{
	size_t n;
	char *out = export_mem(HWPROF_EXPORT_CHROME, 0, &n);
	/* The kernel leaf of samples 1-2 spans 10..30 ns; the root spans all
	 * four samples and closes one period (25 ns) after the last. */
	assert_non_null(strstr(out, "{\"name\":\"[unknown] ([kernel.kallsyms])\",\"cat\":\"kernel\",\"ph\":\"X\","
				    "\"ts\":0.000,\"dur\":0.020,\"pid\":100,\"tid\":100"));
	assert_non_null(strstr(out, "{\"name\":\"[unknown] (fixture)\",\"cat\":\"user\",\"ph\":\"X\","
				    "\"ts\":0.000,\"dur\":0.055,\"pid\":100,\"tid\":100"));
	assert_non_null(strstr(out, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":101,"
				    "\"args\":{\"name\":\"fixture\"}}"));
	free(out);
}

static void test_pprof_gzip(void **state)
{
	size_t n;
	char *out = export_mem(-1, 0, &n);
	assert_true(n > 20);
	assert_int_equal((unsigned char)out[0], 0x1f);
	assert_int_equal((unsigned char)out[1], 0x8b);
	free(out);
	out = export_mem(-1, 1, &n);
	assert_true(n > 10);
	free(out);
}

static void test_flamegraph(void **state)
{
	size_t n;
	char *out = export_mem(-2, 0, &n);
	assert_non_null(strstr(out, "<svg version=\"1.1\" width=\"1200\""));
	/* Merged by label: fixture (382-7 = 375), under it fixture (350), kernel (300). */
	assert_non_null(strstr(out, "data-n=\"[unknown] (fixture)\"><title>[unknown] (fixture) (4 samples, 98.17%)</title>"));
	assert_non_null(strstr(out, "<title>[unknown] ([kernel.kallsyms]) (2 samples, 78.53%)</title>"));
	assert_non_null(strstr(out, "<title>all (5 samples, 100.00%)</title>"));
	assert_non_null(strstr(out, "</svg>\n"));
	free(out);
	out = export_mem(-2, 1, &n);
	assert_non_null(strstr(out, "</svg>\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_resolver),
		cmocka_unit_test(test_custom_resolver_and_stream),
		cmocka_unit_test(test_resolver_error_aborts),
		cmocka_unit_test(test_speedscope),
		cmocka_unit_test(test_firefox),
		cmocka_unit_test(test_chrome),
		cmocka_unit_test(test_pprof_gzip),
		cmocka_unit_test(test_flamegraph),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
