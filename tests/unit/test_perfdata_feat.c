/* Unit tests of hwprof_feat_parse(): each feature decoder on payloads built
 * here in perf's layout (both byte orders for some), every payload cut at
 * every byte (a clean error, never a crash), and absurd counts refused as
 * CORRUPT before any allocation (an allocation that large would fail with
 * NOMEM instead, or abort the sanitizer build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hwprof/perfdata_feat.h"

/* ---- payload builder ------------------------------------------------------ */

struct buf { uint8_t d[8192]; size_t n; int be; };

static void put(struct buf *b, uint64_t v, int bytes)
{
	assert_true(b->n + (size_t)bytes <= sizeof(b->d));
	for (int i = 0; i < bytes; i++)
		b->d[b->n + (size_t)i] = (uint8_t)(v >> (8 * (b->be ? bytes - 1 - i : i)));
	b->n += (size_t)bytes;
}
static void u16(struct buf *b, uint64_t v) { put(b, v, 2); }
static void u32(struct buf *b, uint64_t v) { put(b, v, 4); }
static void u64(struct buf *b, uint64_t v) { put(b, v, 8); }
static void raw(struct buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->d));
	memcpy(b->d + b->n, p, n);
	b->n += n;
}
/* perf's string: u32 len (strlen + 1 rounded up to 64), NUL padded */
static void str(struct buf *b, const char *s)
{
	size_t len = (strlen(s) + 1 + 63) / 64 * 64;
	u32(b, len);
	assert_true(b->n + len <= sizeof(b->d));
	memset(b->d + b->n, 0, len);
	memcpy(b->d + b->n, s, strlen(s));
	b->n += len;
}

static struct hwprof_feat *parse_ok(unsigned feat, const struct buf *b, uint32_t nr_cpus)
{
	struct hwprof_feat_ctx ctx = { .swap = b->be != 0, .nr_cpus_avail = nr_cpus };
	struct hwprof_feat *f = NULL;
	struct hwprof_error err;
	int r = hwprof_feat_parse(feat, b->d, b->n, &ctx, &f, &err);
	if (r != 0)
		fail_msg("feature %u: %d %s", feat, r, err.msg);
	assert_non_null(f);
	assert_int_equal(f->id, feat);
	return f;
}

static int parse_err(unsigned feat, const uint8_t *d, uint64_t n, int be, uint32_t nr_cpus,
		     struct hwprof_error *err)
{
	struct hwprof_feat_ctx ctx = { .swap = be != 0, .nr_cpus_avail = nr_cpus };
	struct hwprof_feat *f = (struct hwprof_feat *)1;
	int r = hwprof_feat_parse(feat, d, n, &ctx, &f, err);
	if (r == 0) {
		hwprof_feat_free(f);
		return 0;
	}
	assert_null(f);
	return r;
}

/* Every strict prefix must fail cleanly with the offset inside the prefix. */
static void cut_everywhere(unsigned feat, const struct buf *b, uint32_t nr_cpus, bool strict)
{
	for (size_t n = 0; n < b->n; n++) {
		uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees overreads */
		memcpy(copy, b->d, n);
		struct hwprof_error err;
		int r = parse_err(feat, copy, n, b->be, nr_cpus, &err);
		if (strict && r == 0)
			fail_msg("feature %u accepted a payload cut to %zu of %zu bytes", feat, n, b->n);
		if (r) {
			assert_true(r == -HWPROF_E_TRUNCATED || r == -HWPROF_E_CORRUPT);
			assert_true(err.offset <= n);
			assert_non_null(strstr(err.msg, hwprof_feat_name(feat)));
		}
		free(copy);
	}
}

/* ---- tests --------------------------------------------------------------- */

static void test_strings(void **state)
{
	(void)state;
	static const unsigned ids[] = { HWPROF_FEAT_HOSTNAME, HWPROF_FEAT_OSRELEASE,
					HWPROF_FEAT_VERSION, HWPROF_FEAT_ARCH,
					HWPROF_FEAT_CPUDESC, HWPROF_FEAT_CPUID };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct buf b = { .n = 0 };
		str(&b, "GenuineIntel,6,167,1");
		assert_int_equal(b.n, 68);
		struct hwprof_feat *f = parse_ok(ids[i], &b, 0);
		assert_string_equal(f->u.str, "GenuineIntel,6,167,1");
		hwprof_feat_free(f);
		cut_everywhere(ids[i], &b, 0, true);
	}
	/* a string without NUL inside its length is still terminated */
	struct buf b = { .n = 0 };
	u32(&b, 4);
	raw(&b, "abcd", 4);
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_HOSTNAME, &b, 0);
	assert_string_equal(f->u.str, "abcd");
	hwprof_feat_free(f);
}

static void test_scalars_both_orders(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b = { .be = be };
		u32(&b, 8);
		u32(&b, 6);
		struct hwprof_feat *f = parse_ok(HWPROF_FEAT_NRCPUS, &b, 0);
		assert_int_equal(f->u.nrcpus.avail, 8);
		assert_int_equal(f->u.nrcpus.online, 6);
		hwprof_feat_free(f);
		cut_everywhere(HWPROF_FEAT_NRCPUS, &b, 0, true);

		b.n = 0;
		u64(&b, 24684084);
		f = parse_ok(HWPROF_FEAT_TOTAL_MEM, &b, 0);
		assert_int_equal(f->u.total_mem, 24684084);
		hwprof_feat_free(f);

		b.n = 0;
		u64(&b, 1100674487000ULL);
		u64(&b, 1100675739000ULL);
		f = parse_ok(HWPROF_FEAT_SAMPLE_TIME, &b, 0);
		assert_int_equal(f->u.sample_time.first, 1100674487000ULL);
		assert_int_equal(f->u.sample_time.last, 1100675739000ULL);
		hwprof_feat_free(f);
		cut_everywhere(HWPROF_FEAT_SAMPLE_TIME, &b, 0, true);

		b.n = 0;
		u64(&b, 1);
		f = parse_ok(HWPROF_FEAT_CLOCKID, &b, 0);
		assert_int_equal(f->u.clockid_res_ns, 1);
		hwprof_feat_free(f);
		f = parse_ok(HWPROF_FEAT_DIR_FORMAT, &b, 0);
		assert_int_equal(f->u.dir_version, 1);
		hwprof_feat_free(f);

		b.n = 0;
		for (int i = 0; i < 5; i++)
			u32(&b, (uint32_t[]){ 1, 1, 1, 2, 65536 }[i]);
		f = parse_ok(HWPROF_FEAT_COMPRESSED, &b, 0);
		assert_int_equal(f->u.compressed.type, 1);
		assert_int_equal(f->u.compressed.ratio, 2);
		assert_int_equal(f->u.compressed.mmap_len, 65536);
		hwprof_feat_free(f);
		cut_everywhere(HWPROF_FEAT_COMPRESSED, &b, 0, true);

		b.n = 0;
		u32(&b, 1);
		u32(&b, 1);
		u64(&b, 1795390895400428000ULL);
		u64(&b, 1128988743543ULL);
		f = parse_ok(HWPROF_FEAT_CLOCK_DATA, &b, 0);
		assert_int_equal(f->u.clock_data.clockid, 1);
		assert_int_equal(f->u.clock_data.tod_ns, 1795390895400428000ULL);
		assert_int_equal(f->u.clock_data.clockid_ns, 1128988743543ULL);
		hwprof_feat_free(f);
		cut_everywhere(HWPROF_FEAT_CLOCK_DATA, &b, 0, true);
	}
}

static void test_cmdline(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	u32(&b, 3);
	str(&b, "/usr/bin/perf");
	str(&b, "record");
	str(&b, "it's");
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_CMDLINE, &b, 0);
	assert_int_equal(f->u.cmdline.nr, 3);
	assert_string_equal(f->u.cmdline.argv[0], "/usr/bin/perf");
	assert_string_equal(f->u.cmdline.argv[2], "it's");
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_CMDLINE, &b, 0, true);
}

static void event_desc_payload(struct buf *b)
{
	u32(b, 2);
	u32(b, 128);
	for (int e = 0; e < 2; e++) {
		size_t at = b->n;
		u32(b, 1);                 /* type SOFTWARE */
		u32(b, 128);               /* size */
		u64(b, (uint64_t)e);       /* config */
		u64(b, 4000);              /* sample_freq */
		u64(b, 0x107);             /* IP|TID|TIME|PERIOD */
		u64(b, 0x14);              /* ID|LOST */
		while (b->n < at + 128)
			u32(b, 0);
		u32(b, 2);
		str(b, e ? "task-clock" : "cpu-clock");
		u64(b, 26 + 2 * (uint64_t)e);
		u64(b, 27 + 2 * (uint64_t)e);
	}
}

static void test_event_desc(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b = { .be = be };
		event_desc_payload(&b);
		struct hwprof_feat *f = parse_ok(HWPROF_FEAT_EVENT_DESC, &b, 0);
		assert_int_equal(f->u.event_desc.nr, 2);
		assert_int_equal(f->u.event_desc.attr_size, 128);
		const struct hwprof_feat_event *e = &f->u.event_desc.events[1];
		assert_string_equal(e->name, "task-clock");
		assert_int_equal(e->attr.type, 1);
		assert_int_equal(e->attr.config, 1);
		assert_int_equal(e->attr.sample_period, 4000);
		assert_int_equal(e->attr.sample_type, 0x107);
		assert_int_equal(e->attr.read_format, 0x14);
		assert_int_equal(e->nr_ids, 2);
		assert_int_equal(e->ids[0], 28);
		assert_int_equal(e->ids[1], 29);
		hwprof_feat_free(f);
		cut_everywhere(HWPROF_FEAT_EVENT_DESC, &b, 0, true);
	}
}

static void test_cpu_topology_tails(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	u32(&b, 1);
	str(&b, "0-1");
	u32(&b, 2);
	str(&b, "0");
	str(&b, "1");
	size_t lists = b.n;
	/* old perf: sibling lists only */
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_CPU_TOPOLOGY, &b, 2);
	assert_false(f->u.cpu_topology.has_cpus);
	assert_int_equal(f->u.cpu_topology.nr_thread_sibs, 2);
	assert_string_equal(f->u.cpu_topology.thread_sibs[1], "1");
	hwprof_feat_free(f);
	/* + core/socket ids */
	u32(&b, 0); u32(&b, 0);
	u32(&b, 1); u32(&b, 0);
	size_t cpus = b.n;
	f = parse_ok(HWPROF_FEAT_CPU_TOPOLOGY, &b, 2);
	assert_true(f->u.cpu_topology.has_cpus);
	assert_false(f->u.cpu_topology.has_dies);
	assert_int_equal(f->u.cpu_topology.cpus[1].core_id, 1);
	hwprof_feat_free(f);
	/* + dies */
	u32(&b, 1);
	str(&b, "0-1");
	u32(&b, 0); u32(&b, 0);
	f = parse_ok(HWPROF_FEAT_CPU_TOPOLOGY, &b, 2);
	assert_true(f->u.cpu_topology.has_dies);
	assert_string_equal(f->u.cpu_topology.die_sibs[0], "0-1");
	hwprof_feat_free(f);
	/* cuts: only the tail boundaries may succeed */
	for (size_t n = 0; n < b.n; n++) {
		struct hwprof_error err;
		int r = parse_err(HWPROF_FEAT_CPU_TOPOLOGY, b.d, n, 0, 2, &err);
		if (n == lists || n == cpus)
			assert_int_equal(r, 0);
		else /* a cut table is CORRUPT: its count no longer fits */
			assert_true(r == -HWPROF_E_TRUNCATED || r == -HWPROF_E_CORRUPT);
	}
	/* the per-cpu table needs nr_cpus_avail: more cpus than bytes fails */
	struct hwprof_error err;
	assert_int_equal(parse_err(HWPROF_FEAT_CPU_TOPOLOGY, b.d, cpus, 0, 1000000, &err),
			 -HWPROF_E_CORRUPT);
}

static void test_lists(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	u32(&b, 1);
	u32(&b, 0); u64(&b, 4024524); u64(&b, 3867184); str(&b, "0-1");
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_NUMA_TOPOLOGY, &b, 0);
	assert_int_equal(f->u.numa.nodes[0].mem_free, 3867184);
	assert_string_equal(f->u.numa.nodes[0].cpus, "0-1");
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_NUMA_TOPOLOGY, &b, 0, true);

	b.n = 0;
	u32(&b, 2);
	u32(&b, 1); str(&b, "software");
	u32(&b, 9); str(&b, "msr");
	f = parse_ok(HWPROF_FEAT_PMU_MAPPINGS, &b, 0);
	assert_int_equal(f->u.pmu_mappings.pmus[1].type, 9);
	assert_string_equal(f->u.pmu_mappings.pmus[1].name, "msr");
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_PMU_MAPPINGS, &b, 0, true);

	b.n = 0;
	u32(&b, 1);
	str(&b, "{anon_group}"); u32(&b, 0); u32(&b, 2);
	f = parse_ok(HWPROF_FEAT_GROUP_DESC, &b, 0);
	assert_string_equal(f->u.group_desc.groups[0].name, "{anon_group}");
	assert_int_equal(f->u.group_desc.groups[0].nr_members, 2);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_GROUP_DESC, &b, 0, true);

	b.n = 0;
	u64(&b, 2);
	u64(&b, 0x1000); u64(&b, 0x40);
	u64(&b, 0x2000); u64(&b, 0x80);
	f = parse_ok(HWPROF_FEAT_AUXTRACE, &b, 0);
	assert_int_equal(f->u.auxtrace.nr, 2);
	assert_int_equal(f->u.auxtrace.entries[1].offset, 0x2000);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_AUXTRACE, &b, 0, true);

	b.n = 0;
	u32(&b, 1); u32(&b, 1);
	u32(&b, 1); u32(&b, 64); u32(&b, 64); u32(&b, 8);
	str(&b, "Data"); str(&b, "32K"); str(&b, "0");
	f = parse_ok(HWPROF_FEAT_CACHE, &b, 0);
	assert_string_equal(f->u.cache.caches[0].size, "32K");
	assert_int_equal(f->u.cache.caches[0].ways, 8);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_CACHE, &b, 0, true);

	b.n = 0;
	u32(&b, 1);
	str(&b, "cpu_core"); str(&b, "0-15");
	f = parse_ok(HWPROF_FEAT_HYBRID_TOPOLOGY, &b, 0);
	assert_string_equal(f->u.hybrid.nodes[0].cpus, "0-15");
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_HYBRID_TOPOLOGY, &b, 0, true);
}

static void test_mem_topology(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	u64(&b, 1); u64(&b, 0x8000000); u64(&b, 1);
	u64(&b, 0); u64(&b, 200); u64(&b, 200);
	u64(&b, 0xffffff); u64(&b, ~0ULL << 32); u64(&b, ~0ULL); u64(&b, 0xff);
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_MEM_TOPOLOGY, &b, 0);
	assert_int_equal(f->u.mem_topology.block_size, 0x8000000);
	assert_int_equal(f->u.mem_topology.nodes[0].nbits, 200);
	assert_int_equal(f->u.mem_topology.nodes[0].bits[3], 0xff);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_MEM_TOPOLOGY, &b, 0, true);
	/* unknown version */
	b.d[0] = 2;
	struct hwprof_error err;
	assert_int_equal(parse_err(HWPROF_FEAT_MEM_TOPOLOGY, b.d, b.n, 0, 0, &err), -HWPROF_E_CORRUPT);
	assert_int_equal(err.offset, 0);
}

static void test_caps_bpf(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	u32(&b, 2);
	str(&b, "branches"); str(&b, "32");
	str(&b, "max_precise"); str(&b, "3");
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_CPU_PMU_CAPS, &b, 0);
	assert_int_equal(f->u.cpu_pmu_caps.nr, 2);
	assert_string_equal(f->u.cpu_pmu_caps.values[1], "3");
	assert_null(f->u.cpu_pmu_caps.pmu);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_CPU_PMU_CAPS, &b, 0, true);

	b.n = 0;
	u32(&b, 1);
	u32(&b, 1); str(&b, "branches"); str(&b, "32"); str(&b, "cpu_atom");
	f = parse_ok(HWPROF_FEAT_PMU_CAPS, &b, 0);
	assert_string_equal(f->u.pmu_caps.pmus[0].pmu, "cpu_atom");
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_PMU_CAPS, &b, 0, true);

	b.n = 0;
	u32(&b, 1);
	u32(&b, 8); u32(&b, 4); u64(&b, 0);
	u32(&b, 2); u32(&b, 77); /* type, id */
	u32(&b, 0xdeadbeef);
	f = parse_ok(HWPROF_FEAT_BPF_PROG_INFO, &b, 0);
	assert_int_equal(f->u.bpf_prog_info.nr, 1);
	assert_int_equal(f->u.bpf_prog_info.progs[0].id, 77);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_BPF_PROG_INFO, &b, 0, true);

	b.n = 0;
	u32(&b, 2);
	u32(&b, 9); u32(&b, 3); raw(&b, "abc", 3);
	u32(&b, 4); u32(&b, 0);
	f = parse_ok(HWPROF_FEAT_BPF_BTF, &b, 0);
	assert_int_equal(f->u.bpf_btf.nr, 2);
	assert_int_equal(f->u.bpf_btf.btfs[1].id, 4);
	hwprof_feat_free(f);
	cut_everywhere(HWPROF_FEAT_BPF_BTF, &b, 0, true);
}

static void build_id_rec(struct buf *b, uint16_t misc, int32_t pid, uint8_t idlen, const char *name)
{
	size_t fn = (strlen(name) + 1 + 63) / 64 * 64;
	u32(b, 0);
	u16(b, misc);
	u16(b, (uint16_t)(36 + fn));
	u32(b, (uint32_t)pid);
	for (int i = 0; i < 20; i++)
		put(b, (uint64_t)(0xa0 + i), 1);
	put(b, idlen, 1); put(b, 0, 1); u16(b, 0);
	size_t at = b->n;
	b->n += fn;
	memset(b->d + at, 0, fn);
	memcpy(b->d + at, name, strlen(name));
}

static void test_build_id(void **state)
{
	(void)state;
	struct buf b = { .n = 0 };
	build_id_rec(&b, 0x8001, -1, 20, "[kernel.kallsyms]");
	size_t first = b.n;
	build_id_rec(&b, 0x8002, 1234, 16, "/usr/bin/ls");
	struct hwprof_feat *f = parse_ok(HWPROF_FEAT_BUILD_ID, &b, 0);
	assert_int_equal(f->u.build_id.nr, 2);
	assert_int_equal(f->u.build_id.ids[0].pid, -1);
	assert_string_equal(f->u.build_id.ids[0].filename, "[kernel.kallsyms]");
	assert_int_equal(f->u.build_id.ids[1].id_size, 16);
	assert_int_equal(f->u.build_id.ids[1].id[0], 0xa0);
	assert_string_equal(f->u.build_id.ids[1].filename, "/usr/bin/ls");
	hwprof_feat_free(f);
	for (size_t n = 0; n < b.n; n++) {
		struct hwprof_error err;
		int r = parse_err(HWPROF_FEAT_BUILD_ID, b.d, n, 0, 0, &err);
		assert_int_equal(r, n == 0 || n == first ? 0 : -HWPROF_E_TRUNCATED);
	}
	/* a record claiming less than its fixed part */
	b.d[6] = 8; b.d[7] = 0;
	struct hwprof_error err;
	assert_int_equal(parse_err(HWPROF_FEAT_BUILD_ID, b.d, b.n, 0, 0, &err), -HWPROF_E_CORRUPT);
}

static void test_empty_and_unknown(void **state)
{
	(void)state;
	struct hwprof_feat *f = NULL;
	assert_int_equal(hwprof_feat_parse(HWPROF_FEAT_BRANCH_STACK, NULL, 0, NULL, &f, NULL), 0);
	hwprof_feat_free(f);
	assert_int_equal(hwprof_feat_parse(HWPROF_FEAT_STAT, NULL, 0, NULL, &f, NULL), 0);
	hwprof_feat_free(f);
	uint8_t td[100] = { 0 };
	assert_int_equal(hwprof_feat_parse(HWPROF_FEAT_TRACING_DATA, td, sizeof(td), NULL, &f, NULL), 0);
	assert_int_equal(f->u.tracing_data_size, 100);
	hwprof_feat_free(f);
	struct hwprof_error err;
	assert_int_equal(hwprof_feat_parse(40, td, 8, NULL, &f, &err), -HWPROF_E_UNSUPPORTED);
	assert_null(f);
	assert_int_equal(hwprof_feat_parse(0, td, 8, NULL, &f, &err), -HWPROF_E_UNSUPPORTED);
	assert_int_equal(hwprof_feat_parse(HWPROF_FEAT_HOSTNAME, td, 8, NULL, NULL, &err), -HWPROF_E_INVAL);
	assert_int_equal(hwprof_feat_parse(HWPROF_FEAT_HOSTNAME, NULL, 8, NULL, &f, &err), -HWPROF_E_INVAL);
	hwprof_feat_free(NULL);
	assert_string_equal(hwprof_feat_name(HWPROF_FEAT_PMU_CAPS), "PMU_CAPS");
	assert_string_equal(hwprof_feat_name(HWPROF_FEAT_TRACING_DATA), "TRACING_DATA");
	assert_null(hwprof_feat_name(HWPROF_FEAT_LAST));
}

/* Counts that promise far more than the section holds: CORRUPT, checked
 * before allocating (they would need gigabytes). */
static void test_absurd_counts(void **state)
{
	(void)state;
	struct { unsigned feat; int width; uint64_t count; int prefix_u64; } cases[] = {
		{ HWPROF_FEAT_CMDLINE, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_EVENT_DESC, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_NUMA_TOPOLOGY, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_PMU_MAPPINGS, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_GROUP_DESC, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_AUXTRACE, 8, 1ULL << 62, 0 },
		{ HWPROF_FEAT_BPF_PROG_INFO, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_BPF_BTF, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_CPU_PMU_CAPS, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_PMU_CAPS, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_HYBRID_TOPOLOGY, 4, 0xffffffff, 0 },
		{ HWPROF_FEAT_MEM_TOPOLOGY, 8, 1ULL << 60, 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = { .n = 0 };
		if (cases[i].prefix_u64) {
			u64(&b, 1); /* version */
			u64(&b, 4096);
		}
		put(&b, cases[i].count, cases[i].width);
		if (cases[i].feat == HWPROF_FEAT_EVENT_DESC)
			u32(&b, 128);
		for (int k = 0; k < 16; k++)
			u64(&b, 0);
		struct hwprof_error err;
		int r = parse_err(cases[i].feat, b.d, b.n, 0, 0, &err);
		if (r != -HWPROF_E_CORRUPT)
			fail_msg("feature %u: %d (%s)", cases[i].feat, r, err.msg);
	}
	/* nested counts: a mem node bitmap of 2^62 bits; an event's 2^32-1 ids */
	struct buf b = { .n = 0 };
	u64(&b, 1); u64(&b, 4096); u64(&b, 1);
	u64(&b, 0); u64(&b, 0); u64(&b, 1ULL << 62);
	u64(&b, 0);
	struct hwprof_error err;
	assert_int_equal(parse_err(HWPROF_FEAT_MEM_TOPOLOGY, b.d, b.n, 0, 0, &err), -HWPROF_E_CORRUPT);
	assert_int_equal(err.offset, 48);
	b.n = 0;
	event_desc_payload(&b);
	/* first event's nr_ids sits right after its 128-byte attr */
	b.d[8 + 128] = 0xff; b.d[8 + 129] = 0xff; b.d[8 + 130] = 0xff; b.d[8 + 131] = 0xff;
	assert_int_equal(parse_err(HWPROF_FEAT_EVENT_DESC, b.d, b.n, 0, 0, &err), -HWPROF_E_CORRUPT);
	/* CPU_TOPOLOGY with nr_cpus_avail of 4 billion */
	b.n = 0;
	u32(&b, 0); u32(&b, 0); u64(&b, 0);
	assert_int_equal(parse_err(HWPROF_FEAT_CPU_TOPOLOGY, b.d, b.n, 0, 0xffffffff, &err),
			 -HWPROF_E_CORRUPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_scalars_both_orders),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_event_desc),
		cmocka_unit_test(test_cpu_topology_tails),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_mem_topology),
		cmocka_unit_test(test_caps_bpf),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_empty_and_unknown),
		cmocka_unit_test(test_absurd_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
