/* spe_mkperf: writes an Arm SPE perf.data with the library's writer and
 * SPE encoder, shaped like a real per-cpu `perf record -e arm_spe_0//`
 * session, for differential tests of sample synthesis against perf 6.1.
 *   spe_mkperf [options] OUT.data
 *   --midr STR      CPUID feature (default N1 "0x00000000410fd0c0")
 *   --cpus N        per-cpu AUX queues (default 2)
 *   --records N     SPE records per cpu (default 200)
 *   --bufsize B     split each cpu's trace into AUXTRACE buffers of B bytes
 *                   (records then span buffers; default: one buffer)
 *   --timeless      no PERF_SAMPLE_TIME anywhere (perf's timeless decoding)
 *   --no-context    no CONTEXT packets: threads come from switch events
 *   --garbage       sprinkle bad bytes (perf samples the broken records)
 *   --phys          SPE event samples PHYS_ADDR (pa_enable)
 *   --seed S        record mix (default 1)
 *   --raw FILE      use FILE's bytes as the trace of every cpu instead
 *   --dso PATH      map PATH (file offset 0x1000 at spetest's text start)
 *                   so user ips resolve to its symbols
 *   --clock N       also a cpu-clock event with N samples spread over the
 *                   trace (ordinary samples printed among the SPE ones)
 * Threads: pid 100 "spetest" (tids 100, 101), pid 200 "other"; context
 * ids 100, 101, 200 and an unknown 300. TIME_CONV: 40 ns per tick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/arm_spe.h"
#include "hwprof/perfdata_write.h"
#include "util/bytes.h"

static struct hwprof_writer *w;
static uint8_t rb[65536];
static uint64_t rng;

static void die(const char *what)
{
	fprintf(stderr, "spe_mkperf: %s failed\n", what);
	exit(1);
}

static void emit(int n)
{
	if (n < 0 || hwprof_writer_write(w, rb, (size_t)n))
		die("write");
}

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng >> 33) % n;
}

/* string feature payload helper: u32 len + string padded to 64 */
static size_t put_str(uint8_t *p, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) & ~63u);

	st32(p, len);
	memset(p + 4, 0, len);
	memcpy(p + 4, s, strlen(s));
	return 4 + len;
}

#define TS_BASE 1000000ULL
#define NS_PER_TICK 40
#define TIME_ZERO 1000000000ULL

static uint64_t tick_time(uint64_t ts)
{
	return TIME_ZERO + ts * NS_PER_TICK;
}

static const uint32_t ctx_tids[] = { 100, 101, 200, 300 };

static void mk_record(struct hwprof_spe_writer *sw, int cpu, int i, uint64_t ts, int context, int garbage)
{
	struct hwprof_spe_record r;
	static const uint16_t sources[] = { 0, 8, 9, 10, 11, 12, 13, 14, 3 };
	unsigned kind = rnd(10);

	hwprof_spe_record_init(&r);
	r.present = HWPROF_SPE_HAS_PC | HWPROF_SPE_HAS_EVENTS | HWPROF_SPE_HAS_LAT_TOTAL | HWPROF_SPE_HAS_LAT_ISSUE;
	r.pc = 0xaaaad0001000ull + 4u * rnd(1024);
	r.pc_ns = 1;
	if (rnd(8) == 0) { /* kernel text */
		r.pc_el = 1;
		r.pc = 0xffff800008010000ull + 4u * rnd(4096);
	}
	r.lat_total = (uint16_t)(rnd(3) ? 4 + rnd(60) : 100 + rnd(60000));
	r.lat_issue = (uint16_t)rnd(20);
	r.events = 1u << HWPROF_SPE_EV_RETIRED;
	if (rnd(16) == 0)
		r.events = 0; /* speculative, not retired */
	r.op_class = HWPROF_SPE_OP_CLASS_LDST;
	switch (kind) {
	case 0: case 1: case 2: r.op = HWPROF_SPE_OP_LD_GP; break;
	case 3: r.op = HWPROF_SPE_OP_ST_GP; break;
	case 4: r.op = rnd(2) ? HWPROF_SPE_OP_LD_SIMD : HWPROF_SPE_OP_ST_SIMD; break;
	case 5: r.op = (uint8_t)(HWPROF_SPE_OP_LD_SVE(rnd(4), rnd(2)) | (rnd(2) ? 0x80 : 0) | rnd(2)); break;
	case 6: r.op = rnd(2) ? HWPROF_SPE_OP_LD_EXCL : HWPROF_SPE_OP_ST_EXCL; break;
	case 7: case 8:
		r.op_class = HWPROF_SPE_OP_CLASS_BRANCH;
		r.op = (uint8_t)rnd(4);
		break;
	default:
		r.op_class = HWPROF_SPE_OP_CLASS_OTHER;
		r.op = rnd(2) ? HWPROF_SPE_OP_OTHER : HWPROF_SPE_OP_SVE_OTHER(rnd(4), rnd(2), rnd(2));
		break;
	}
	if (rnd(12))
		r.present |= HWPROF_SPE_HAS_OP;
	if (r.op_class == HWPROF_SPE_OP_CLASS_LDST) {
		static const unsigned cache_ev[] = { 0x4, 0xc, 0x10c, 0x30c, 0x70c, 0x404 };
		r.events |= cache_ev[rnd(6)];
		if (rnd(3))
			r.events |= 1u << HWPROF_SPE_EV_TLB_ACCESS;
		if (rnd(5) == 0)
			r.events |= 1u << HWPROF_SPE_EV_TLB_WALK;
		if (rnd(9) == 0)
			r.events |= 1u << HWPROF_SPE_EV_ALIGNMENT;
		if (kind == 5 && rnd(2))
			r.events |= 1u << (HWPROF_SPE_EV_PARTIAL_PRED + rnd(2));
		r.present |= HWPROF_SPE_HAS_VA | HWPROF_SPE_HAS_LAT_XLAT;
		r.va = 0xffffe0001000ull + 8u * rnd(100000);
		if (rnd(6) == 0)
			r.va = 0xffff000012340000ull + 8u * rnd(1000); /* kernel data */
		r.va_tag = (uint8_t)(rnd(3) == 0 ? 0x80 + rnd(16) : 0);
		r.lat_xlat = (uint16_t)rnd(9);
		if (rnd(5)) {
			r.present |= HWPROF_SPE_HAS_PA;
			r.pa = 0x8a000000ull + 8u * rnd(1 << 20);
			r.pa_ns = 1;
			r.pa_pat = (uint8_t)rnd(16);
		}
		if (rnd(7)) {
			r.present |= HWPROF_SPE_HAS_DATA_SOURCE;
			r.data_source = sources[rnd(9)];
		}
	} else if (r.op_class == HWPROF_SPE_OP_CLASS_BRANCH) {
		if (rnd(2))
			r.events |= 1u << HWPROF_SPE_EV_NOT_TAKEN;
		if (rnd(3) == 0)
			r.events |= 1u << HWPROF_SPE_EV_MISPRED;
		if (rnd(6)) {
			r.present |= HWPROF_SPE_HAS_TARGET;
			r.target = r.pc + 4u * rnd(4096);
			r.target_el = r.pc_el;
			r.target_ns = 1;
		}
	}
	if (context) {
		r.present |= HWPROF_SPE_HAS_CONTEXT;
		r.context_id = ctx_tids[(unsigned)(i / 7 + cpu) % 4];
		r.context_el = (uint8_t)rnd(2);
	}
	if (rnd(10)) {
		r.present |= HWPROF_SPE_HAS_TIMESTAMP;
		r.timestamp = ts;
	}
	if (hwprof_spe_put_record(sw, &r) < 0)
		die("spe record");
	if (rnd(9) == 0 && sw->cap - sw->pos > 8) /* padding between records */
		for (unsigned k = 1 + rnd(6); k--;)
			hwprof_spe_put_packet(sw, HWPROF_SPE_PAD, 0, 0, 0);
	if (garbage && rnd(25) == 0 && sw->pos < sw->cap)
		sw->buf[sw->pos++] = 0x02; /* not a packet header */
}

int main(int argc, char **argv)
{
	const char *midr = "0x00000000410fd0c0", *out = NULL;
	int cpus = 2, records = 200, timeless = 0, context = 1, garbage = 0, phys = 0;
	size_t bufsize = 0;
	const char *raw = NULL, *dso = "/usr/bin/spetest";
	int clock = 0, dso_set = 0;

	rng = 1;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--midr") && a + 1 < argc)
			midr = argv[++a];
		else if (!strcmp(argv[a], "--cpus") && a + 1 < argc)
			cpus = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--records") && a + 1 < argc)
			records = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--bufsize") && a + 1 < argc)
			bufsize = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			rng = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--raw") && a + 1 < argc)
			raw = argv[++a];
		else if (!strcmp(argv[a], "--dso") && a + 1 < argc)
			dso = argv[++a], dso_set = 1;
		else if (!strcmp(argv[a], "--clock") && a + 1 < argc)
			clock = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--timeless"))
			timeless = 1;
		else if (!strcmp(argv[a], "--no-context"))
			context = 0;
		else if (!strcmp(argv[a], "--garbage"))
			garbage = 1;
		else if (!strcmp(argv[a], "--phys"))
			phys = 1;
		else if (argv[a][0] != '-' && !out)
			out = argv[a];
		else
			die("usage: spe_mkperf [options] OUT.data; arguments");
	}
	if (!out || cpus < 1 || cpus > 64 || records < 0)
		die("arguments");
	if (hwprof_writer_open(&w, out, HWPROF_WRITE_FILE, NULL))
		die("open");

	uint64_t tflag = timeless ? 0 : HWPROF_SAMPLE_TIME;
	struct hwprof_attr spe = { 0 }, dummy = { 0 };
	spe.type = 8; /* dynamic type of arm_spe_0, see PMU_MAPPINGS */
	spe.size = HWPROF_ATTR_SIZE_VER7;
	spe.sample_period = 4096;
	spe.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | tflag | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_IDENTIFIER |
			  HWPROF_SAMPLE_DATA_SRC | (phys ? HWPROF_SAMPLE_PHYS_ADDR : 0);
	spe.flags = (1ULL << HWPROF_ATTR_DISABLED) | (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) |
		    (1ULL << HWPROF_ATTR_EXCLUDE_GUEST);
	dummy.type = HWPROF_TYPE_SOFTWARE;
	dummy.size = HWPROF_ATTR_SIZE_VER7;
	dummy.config = 9; /* dummy */
	dummy.sample_period = 1;
	dummy.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | tflag | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_IDENTIFIER;
	dummy.flags = (1ULL << HWPROF_ATTR_DISABLED) | (1ULL << HWPROF_ATTR_EXCLUDE_KERNEL) |
		      (1ULL << HWPROF_ATTR_MMAP) | (1ULL << HWPROF_ATTR_COMM) | (1ULL << HWPROF_ATTR_TASK) |
		      (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) | (1ULL << HWPROF_ATTR_EXCLUDE_GUEST) |
		      (1ULL << HWPROF_ATTR_MMAP2) | (1ULL << HWPROF_ATTR_COMM_EXEC) |
		      (1ULL << HWPROF_ATTR_CONTEXT_SWITCH);
	struct hwprof_attr clk = dummy;
	clk.config = 0; /* cpu-clock */
	clk.sample_period = 250000;
	clk.sample_type |= HWPROF_SAMPLE_PERIOD;
	clk.flags = (1ULL << HWPROF_ATTR_DISABLED) | (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) |
		    (1ULL << HWPROF_ATTR_EXCLUDE_GUEST);
	uint64_t spe_ids[64], dummy_ids[64], clk_ids[64];
	for (int c = 0; c < cpus; c++) {
		spe_ids[c] = 1 + (uint64_t)c;
		dummy_ids[c] = 100 + (uint64_t)c;
		clk_ids[c] = 200 + (uint64_t)c;
	}
	if (hwprof_writer_add_evsel(w, &spe, "arm_spe_0//", spe_ids, (uint32_t)cpus) ||
	    (clock && hwprof_writer_add_evsel(w, &clk, "cpu-clock", clk_ids, (uint32_t)cpus)) ||
	    hwprof_writer_add_evsel(w, &dummy, "dummy:u", dummy_ids, (uint32_t)cpus))
		die("evsel");

	uint8_t f[512];
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_HOSTNAME, "spe-fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_OSRELEASE, "6.1.0-fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_VERSION, "6.1.0");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_ARCH, "aarch64");
	st32(f, (uint32_t)cpus);
	st32(f + 4, (uint32_t)cpus);
	hwprof_writer_add_feature(w, HWPROF_FEAT_NRCPUS, f, 8);
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_CPUID, midr);
	size_t n = 4;
	st32(f, 2);
	st32(f + n, 8);
	n += 4 + put_str(f + n + 4, "arm_spe_0");
	st32(f + n, 1);
	n += 4 + put_str(f + n + 4, "software");
	hwprof_writer_add_feature(w, HWPROF_FEAT_PMU_MAPPINGS, f, n);

	/* initial state as perf synthesizes it (zero trailers) */
	struct hwprof_sample id = { 0 };
	static const struct { uint32_t pid, tid; const char *comm; } th[] = {
		{ 100, 100, "spetest" }, { 100, 101, "spetest" }, { 200, 200, "other" },
	};
	for (unsigned t = 0; t < 3; t++) {
		id.pid = th[t].pid;
		id.tid = th[t].tid;
		id.id = dummy_ids[0];
		emit(hwprof_build_comm(rb, sizeof(rb), &dummy, &id, th[t].pid, th[t].tid, th[t].comm, 0));
		if (th[t].pid == th[t].tid)
			emit(hwprof_build_mmap2(rb, sizeof(rb), &dummy, &id, HWPROF_MISC_USER, th[t].pid, th[t].tid,
						0xaaaad0000000ull, 0x100000, t == 0 && dso_set ? 0x1000 : 0, 8, 1,
						1000 + t, 0, 5, 2,
						t ? "/usr/bin/other" : dso));
	}
	uint8_t tc[56] = { 0 };
	st64(tc, 8);                       /* time_shift */
	st64(tc + 8, NS_PER_TICK << 8);    /* time_mult */
	st64(tc + 16, TIME_ZERO);          /* time_zero */
	st64(tc + 24, 0);                  /* time_cycles */
	st64(tc + 32, ~0ULL);              /* time_mask */
	tc[40] = 1;                        /* cap_user_time_zero */
	emit(hwprof_build_user_record(rb, sizeof(rb), 79, tc, sizeof(tc)));
	uint64_t info[3] = { 4, 8, 1 };    /* type ARM_SPE (+reserved), PMU type 8, per-cpu */
	emit(hwprof_build_user_record(rb, sizeof(rb), 70, info, sizeof(info)));

	/* SPE data per cpu; timestamps distinct across cpus */
	size_t cap = (size_t)records * 96 + 64;
	uint8_t *spe_buf = malloc(cap);
	if (!spe_buf)
		die("malloc");
	for (int c = 0; c < cpus; c++) {
		struct hwprof_spe_writer sw;
		hwprof_spe_writer_init(&sw, spe_buf, cap);
		for (int i = 0; i < records; i++)
			mk_record(&sw, c, i, TS_BASE + (uint64_t)i * 1000 + (uint64_t)c * 137, context, garbage);
		long len = hwprof_spe_writer_len(&sw);
		if (raw) {
			FILE *rf = fopen(raw, "rb");
			if (!rf)
				die("--raw open");
			len = (long)fread(spe_buf, 1, cap, rf);
			fclose(rf);
		}
		if (len < 0)
			die("spe writer");
		size_t step = bufsize ? bufsize : (size_t)len, off = 0;
		do {
			size_t k = (size_t)len - off < step ? (size_t)len - off : step;
			if (hwprof_writer_write_auxtrace(w, off, 0, (uint32_t)c, -1, c, spe_buf + off, k))
				die("auxtrace");
			off += k;
		} while (off < (size_t)len);
	}
	free(spe_buf);

	/* switch events (used when there are no CONTEXT packets), then exits */
	for (int k = 0; k < records / 5; k++) {
		int c = k % cpus;
		uint64_t ts = TS_BASE + (uint64_t)k * 5000 + 500;
		uint32_t next = ctx_tids[(unsigned)k % 3];
		uint8_t body[8];
		st32(body, next == 101 ? 100 : next);
		st32(body + 4, next);
		id.pid = id.tid = next;
		id.time = tick_time(ts);
		id.cpu = (uint32_t)c;
		id.id = dummy_ids[c];
		emit(hwprof_build_kernel_record(rb, sizeof(rb), &dummy, &id, 15, HWPROF_MISC_SWITCH_OUT, body, 8));
	}
	/* cpu-clock samples: user text of the three threads, spread in time */
	for (int k = 0; k < clock; k++) {
		int c = k % cpus;
		uint64_t ts = TS_BASE + (uint64_t)k * ((uint64_t)records * 1000 / (uint64_t)clock) + 300;
		unsigned t = (unsigned)k % 3;
		struct hwprof_sample s = { 0 };
		s.ip = 0xaaaad0001000ull + 4u * rnd(1024);
		s.pid = th[t].pid;
		s.tid = th[t].tid;
		s.time = tick_time(ts);
		s.cpu = (uint32_t)c;
		s.period = 250000;
		s.misc = HWPROF_MISC_USER;
		s.id = clk_ids[c];
		emit(hwprof_build_sample(rb, sizeof(rb), &clk, &s));
	}
	for (unsigned t = 0; t < 3; t++) {
		uint64_t ts = TS_BASE + (uint64_t)records * 1000 + 1000 * t;
		id.pid = th[t].pid;
		id.tid = th[t].tid;
		id.time = tick_time(ts);
		id.cpu = 0;
		id.id = dummy_ids[0];
		emit(hwprof_build_task(rb, sizeof(rb), &dummy, &id, 4, th[t].pid, 1, th[t].tid, 1, id.time));
	}
	emit(hwprof_build_user_record(rb, sizeof(rb), 68, NULL, 0));
	if (hwprof_writer_close(w, NULL))
		die("close");
	return 0;
}
