/* mkperfdata KIND OUT: writes perf.data fixtures with the library's writer
 * for record and sample kinds that software events cannot produce here.
 *   allrecords  every kernel record type 1-21 and perf's user types (file mode)
 *   allsample   samples using every PERF_SAMPLE_* field group
 *   pipe        a small recording in pipe mode
 *   arm64       an aarch64 file with arm64 user/intr registers
 *   simd        SIMD/eGPR/SSP register blocks (attr size 176)
 *   future      a 200-byte attr, record types and a feature perf 6.1 lacks
 *   mem         x86 memory samples (perf record -d -W): data addresses,
 *               data sources, weights
 *   branch      branch stacks with perf's BRANCH_STACK feature
 *   xmm         legacy XMM pairs in sample_regs (bits 32+2n, 33+2n) on
 *               both sides, as PEBS kernels write them
 *   branch-syms branch stacks over this program's own symbols, kernel and
 *               unmapped addresses, every branch flag
 *   branch-flow branch stacks that follow this program's own code (its
 *               jumps, taken or not at random), so basic blocks hold
 *               real instructions
 *   kreloc      kernel samples of a kernel 512 MB above the running one,
 *               module frames (kreloc-bid: a foreign kernel build id)
 *   chains      callchains over this program's symbols in three processes
 *               (perf's non-transitive chain compare, synthesized FORKs)
 *   keys        samples for perf report's socket, transaction, cgroup,
 *               cgroup_id, page size, srcfile and memory keys: a 4-cpu
 *               CPU_TOPOLOGY, CGROUP and NAMESPACES records, kernel and
 *               user samples in this program's functions (keys-g: with
 *               callchains)
 *   group       two events by IDENTIFIER, group reads, WEIGHT_STRUCT, build ids
 *   readone     single (non-group) read values: a repeated value, another
 *               event's id, unknown ids, a value going back
 *   lbr         --call-graph lbr call stacks, branch entries of every type
 *   bpf         the BPF_PROG_INFO and BPF_BTF sections of a machine with BPF programs
 *   brcntr      branch stacks with branch counters (kernel 6.8)
 *   noidall     no sample_id_all: samples out of time order, processed unordered
 *   auxsample   samples with AUX area data
 *   regs-ARCH   all 64 register bits of a sample from architecture ARCH
 *   topo        the header of a two-socket NUMA machine (topo-old: perf < 5.2 topology)
 *   attrN       one event whose attr is N bytes
 *   warn-KIND   what perf warns about after reading (see warn())
 *   pipeKIND    any of these in pipe mode
 * Values are fixed, so expected output can be checked by hand. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "hwprof/intel_pt_flow.h"
#include "hwprof/perfdata_write.h"
#include "util/bytes.h"

static struct hwprof_writer *w;
static uint8_t rb[65536];

static void die(const char *what)
{
	fprintf(stderr, "mkperfdata: %s failed\n", what);
	exit(1);
}

static void emit(int n)
{
	if (n < 0 || hwprof_writer_write(w, rb, (size_t)n))
		die("write");
}

/* This program's path: fixtures place samples in its own code. */
static void self_exe(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0)
		die("readlink /proc/self/exe");
	buf[n] = 0;
}

static struct hwprof_attr sw_attr(uint64_t st)
{
	struct hwprof_attr a = { 0 };
	a.type = HWPROF_TYPE_SOFTWARE;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.config = 0; /* cpu-clock */
	a.sample_period = 100000;
	a.sample_type = st;
	a.read_format = HWPROF_FORMAT_ID;
	a.flags = (1ULL << HWPROF_ATTR_DISABLED) | (1ULL << HWPROF_ATTR_INHERIT) | (1ULL << HWPROF_ATTR_MMAP) |
		  (1ULL << HWPROF_ATTR_COMM) | (1ULL << HWPROF_ATTR_SAMPLE_ID_ALL) |
		  (1ULL << HWPROF_ATTR_EXCLUDE_GUEST) | (1ULL << HWPROF_ATTR_MMAP2) | (1ULL << HWPROF_ATTR_COMM_EXEC);
	return a;
}

static void features(const char *arch)
{
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_HOSTNAME, "fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_OSRELEASE, "6.1.0-fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_VERSION, "6.1.0");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_ARCH, arch);
	uint8_t nr[8];
	st32(nr, 2);
	st32(nr + 4, 2);
	hwprof_writer_add_feature(w, HWPROF_FEAT_NRCPUS, nr, 8);
}

static struct hwprof_sample id_of(uint32_t pid, uint64_t time)
{
	struct hwprof_sample s = { 0 };
	s.pid = s.tid = pid;
	s.time = time;
	s.id = 1;
	s.cpu = 1;
	return s;
}

static void task_setup(const struct hwprof_attr *a, uint32_t pid, const char *path)
{
	struct hwprof_sample id = id_of(pid, 0);
	emit(hwprof_build_comm(rb, sizeof(rb), a, &id, pid, pid, "fixture", 0));
	id.time = 1000;
	emit(hwprof_build_comm(rb, sizeof(rb), a, &id, pid, pid, "worker", 1));
	id.time = 1100;
	emit(hwprof_build_mmap2(rb, sizeof(rb), a, &id, HWPROF_MISC_USER, pid, pid, 0x400000, 0x10000, 0x1000, 8,
				1, 1234, 0, 5, 2, path));
}

static void user_rec(uint32_t type, const void *body, size_t n)
{
	emit(hwprof_build_user_record(rb, sizeof(rb), type, body, n));
}

static void kern(const struct hwprof_attr *a, uint32_t type, uint16_t misc, const void *body, size_t n,
		 uint64_t time)
{
	struct hwprof_sample id = id_of(100, time);
	emit(hwprof_build_kernel_record(rb, sizeof(rb), a, &id, type, misc, body, n));
}

static void allrecords(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	uint8_t b[256];
	memset(b, 0, sizeof(b));
	/* ID_INDEX, THREAD_MAP, CPU_MAP, EVENT_UPDATE, TIME_CONV, STAT_CONFIG */
	st64(b, 1); st64(b + 8, 1); st64(b + 16, 0); st64(b + 24, 1); st64(b + 32, 100);
	user_rec(HWPROF_RECORD_ID_INDEX, b, 40);
	memset(b, 0, sizeof(b));
	st64(b, 2); st64(b + 8, 100); memcpy(b + 16, "worker", 6); st64(b + 32, 101); memcpy(b + 40, "helper", 6);
	user_rec(HWPROF_RECORD_THREAD_MAP, b, 56);
	memset(b, 0, sizeof(b));
	st16(b, 0); st16(b + 2, 3); st16(b + 4, 0); st16(b + 6, 1); st16(b + 8, 3);
	user_rec(HWPROF_RECORD_CPU_MAP, b, 16);
	/* the MASK forms: 64-bit words after a pad (what perf 5.x and 6.x
	 * write), 32-bit words right after long_size */
	memset(b, 0, sizeof(b));
	st16(b, 1); st16(b + 2, 2); st16(b + 4, 8); st64(b + 10, 0x0ffffff0ull); st64(b + 18, 0x5ull);
	user_rec(HWPROF_RECORD_CPU_MAP, b, 32);
	memset(b, 0, sizeof(b));
	st16(b, 1); st16(b + 2, 1); st16(b + 4, 4); st32(b + 6, 0x80000005u);
	user_rec(HWPROF_RECORD_CPU_MAP, b, 16);
	memset(b, 0, sizeof(b));
	st64(b, 2); st64(b + 8, 1); memcpy(b + 16, "cpu-clock", 9);
	user_rec(HWPROF_RECORD_EVENT_UPDATE, b, 32);
	/* EVENT_UPDATE unit, scale and cpus (a cpu list and a range) */
	memset(b, 0, sizeof(b));
	st64(b, 0); st64(b + 8, 1); memcpy(b + 16, "msec", 4);
	user_rec(HWPROF_RECORD_EVENT_UPDATE, b, 24);
	memset(b, 0, sizeof(b));
	double scale = 1e-6;
	st64(b, 1); st64(b + 8, 1); memcpy(b + 16, &scale, 8);
	user_rec(HWPROF_RECORD_EVENT_UPDATE, b, 24);
	memset(b, 0, sizeof(b));
	st64(b, 3); st64(b + 8, 1); st16(b + 16, 0); st16(b + 18, 3); st16(b + 20, 0); st16(b + 22, 2); st16(b + 24, 3);
	user_rec(HWPROF_RECORD_EVENT_UPDATE, b, 32);
	memset(b, 0, sizeof(b));
	st64(b, 3); st64(b + 8, 1); st16(b + 16, 2); b[18] = 1; st16(b + 20, 4); st16(b + 22, 7);
	user_rec(HWPROF_RECORD_EVENT_UPDATE, b, 24);
	/* ID_INDEX with perf's second array, {machine_pid, vcpu} per id
	 * (perf inject --guest-data; machine_pid 0 keeps the id on the host) */
	memset(b, 0, sizeof(b));
	st64(b, 1); st64(b + 8, 1); st64(b + 16, 0); st64(b + 24, 1); st64(b + 32, 100);
	st64(b + 40, 0); st64(b + 48, 3);
	user_rec(HWPROF_RECORD_ID_INDEX, b, 56);
	/* TIME_CONV as perf before 5.10 wrote it (3 u64s) */
	memset(b, 0, sizeof(b));
	st64(b, 10); st64(b + 8, 123456); st64(b + 16, 99);
	user_rec(HWPROF_RECORD_TIME_CONV, b, 24);
	memset(b, 0, sizeof(b));
	st64(b, 10); st64(b + 8, 123456); st64(b + 16, 99); st64(b + 24, 5); st64(b + 32, 0xffffffff);
	b[40] = 1; b[41] = 1;
	user_rec(HWPROF_RECORD_TIME_CONV, b, 48);
	memset(b, 0, sizeof(b));
	st64(b, 3); st64(b + 8, 0); st64(b + 16, 1); st64(b + 24, 1); st64(b + 32, 0); st64(b + 40, 2); st64(b + 48, 1);
	user_rec(HWPROF_RECORD_STAT_CONFIG, b, 56);
	memset(b, 0, sizeof(b));
	st64(b, 0); memcpy(b + 8, "cpu-clock", 9);
	user_rec(HWPROF_RECORD_HEADER_EVENT_TYPE, b, 72); /* legacy, still read */
	memset(b, 0, sizeof(b));
	user_rec(HWPROF_RECORD_FINISHED_INIT, b, 0);
	task_setup(&a, 100, "/usr/bin/fixture");
	/* kernel records 1..21 */
	struct hwprof_sample id = id_of(100, 1200);
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, 0x500000, 0x2000, 0,
			       "/usr/lib/libfixture.so"));
	st64(b, 1); st64(b + 8, 7);
	kern(&a, HWPROF_RECORD_LOST, 0, b, 16, 1300);
	id.time = 1400;
	emit(hwprof_build_task(rb, sizeof(rb), &a, &id, HWPROF_RECORD_FORK, 101, 100, 101, 100, 1400));
	st64(b, 1500); st64(b + 8, 1); st64(b + 16, 1);
	kern(&a, HWPROF_RECORD_THROTTLE, 0, b, 24, 1500);
	kern(&a, HWPROF_RECORD_UNTHROTTLE, 0, b, 24, 1510);
	memset(b, 0, sizeof(b));
	st32(b, 100); st32(b + 4, 100); st64(b + 8, 5555); st64(b + 16, 1);
	kern(&a, HWPROF_RECORD_READ, 0, b, 24, 1520);
	struct hwprof_sample s = id_of(100, 1600);
	s.ip = 0x401234;
	s.period = 100000;
	s.misc = HWPROF_MISC_USER;
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	st64(b, 0x1000); st64(b + 8, 0x2000); st64(b + 16, 3);
	kern(&a, HWPROF_RECORD_AUX, 0, b, 24, 1700);
	st64(b + 16, 0xff0c); /* partial, collision, a PMU format */
	kern(&a, HWPROF_RECORD_AUX, 0, b, 24, 1701);
	st64(b + 16, 0);
	kern(&a, HWPROF_RECORD_AUX, 0, b, 24, 1702);
	st32(b, 100); st32(b + 4, 101);
	kern(&a, HWPROF_RECORD_ITRACE_START, 0, b, 8, 1710);
	st64(b, 42);
	kern(&a, HWPROF_RECORD_LOST_SAMPLES, 0, b, 8, 1720);
	kern(&a, HWPROF_RECORD_LOST_SAMPLES, 1u << 15, b, 8, 1721); /* newer perf: lost by a BPF filter */
	kern(&a, HWPROF_RECORD_SWITCH, 0, b, 0, 1730);
	kern(&a, HWPROF_RECORD_SWITCH, HWPROF_MISC_SWITCH_OUT | HWPROF_MISC_SWITCH_OUT_PREEMPT, b, 0, 1731);
	st32(b, 101); st32(b + 4, 102);
	kern(&a, HWPROF_RECORD_SWITCH_CPU_WIDE, HWPROF_MISC_SWITCH_OUT, b, 8, 1740);
	kern(&a, HWPROF_RECORD_SWITCH_CPU_WIDE, 0, b, 8, 1741);
	memset(b, 0, sizeof(b));
	/* 9 namespaces: perf wraps the list every 4, names past cgroup unknown */
	st32(b, 100); st32(b + 4, 100); st64(b + 8, 9);
	for (int i = 0; i < 9; i++) {
		st64(b + 16 + 16 * i, 4);
		st64(b + 24 + 16 * i, 0xf0000001 + (uint64_t)i);
	}
	kern(&a, HWPROF_RECORD_NAMESPACES, 0, b, 16 + 16 * 9, 1750);
	memset(b, 0, sizeof(b));
	st64(b, 0xffffffffc0001000ULL); st32(b + 8, 0x80); st16(b + 12, 1); st16(b + 14, 0);
	memcpy(b + 16, "bpf_prog_fixture", 17);
	kern(&a, HWPROF_RECORD_KSYMBOL, HWPROF_MISC_KERNEL, b, 33, 1760);
	st16(b + 12, 2); st16(b + 14, 1); /* an out-of-line BPF symbol, unregistered */
	kern(&a, HWPROF_RECORD_KSYMBOL, HWPROF_MISC_KERNEL, b, 33, 1761);
	st16(b + 12, 1); st16(b + 14, 0);
	struct hwprof_sample ks = id_of(100, 1765); /* a sample inside that BPF program */
	ks.ip = 0xffffffffc0001010ULL;
	ks.period = 100000;
	ks.misc = HWPROF_MISC_KERNEL;
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &ks));
	memset(b, 0, sizeof(b));
	st16(b, 1); st16(b + 2, 0); st32(b + 4, 77); memcpy(b + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	kern(&a, HWPROF_RECORD_BPF_EVENT, 0, b, 16, 1770);
	st16(b, 2); /* PROG_UNLOAD */
	kern(&a, HWPROF_RECORD_BPF_EVENT, 0, b, 16, 1771);
	memset(b, 0, sizeof(b));
	st64(b, 33); memcpy(b + 8, "/sys/fs/cgroup/fixture", 23);
	kern(&a, HWPROF_RECORD_CGROUP, 0, b, 31, 1780);
	memset(b, 0, sizeof(b));
	st64(b, 0x600000); st16(b + 8, 2); st16(b + 10, 2); memcpy(b + 12, "\x90\x90\xcc\xcc", 4);
	kern(&a, HWPROF_RECORD_TEXT_POKE, HWPROF_MISC_USER, b, 16, 1790);
	/* kernel code patched in: no old bytes, 20 new ones (perf prints 16 a line) */
	st64(b, 0xffffffff81000000ULL); st16(b + 8, 0); st16(b + 10, 20);
	for (int i = 0; i < 20; i++)
		b[12 + i] = (uint8_t)(0xe8 + i);
	kern(&a, HWPROF_RECORD_TEXT_POKE, HWPROF_MISC_KERNEL, b, 32, 1791);
	st64(b, 0x12);
	kern(&a, HWPROF_RECORD_AUX_OUTPUT_HW_ID, 0, b, 8, 1795);
	id.time = 1800;
	emit(hwprof_build_task(rb, sizeof(rb), &a, &id, HWPROF_RECORD_EXIT, 101, 100, 101, 100, 1800));
	memset(b, 0, sizeof(b));
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
	/* perf-side records after the data */
	memset(b, 0, sizeof(b));
	st32(b, 1); st32(b + 4, 3); st32(b + 8, 1); st32(b + 12, 100); st32(b + 16, 100); st32(b + 20, 1);
	st64(b + 24, 0x401000); st64(b + 32, 1234567890);
	memcpy(b + 40, "fixture decoder error", 22);
	user_rec(HWPROF_RECORD_AUXTRACE_ERROR, b, 104);
	memset(b, 0, sizeof(b));
	st64(b, 1); st32(b + 8, 2); st32(b + 12, 3); st64(b + 16, 10); st64(b + 24, 20); st64(b + 32, 30);
	user_rec(HWPROF_RECORD_STAT, b, 40);
	memset(b, 0, sizeof(b));
	st64(b, 1); st64(b + 8, 2000);
	user_rec(HWPROF_RECORD_STAT_ROUND, b, 16);
}

static void allsample(void)
{
	struct hwprof_attr a = sw_attr(0x1ffffffULL & ~(HWPROF_SAMPLE_WEIGHT_STRUCT | HWPROF_SAMPLE_AUX |
							HWPROF_SAMPLE_ID));
	a.read_format = HWPROF_FORMAT_TOTAL_TIME_ENABLED | HWPROF_FORMAT_TOTAL_TIME_RUNNING | HWPROF_FORMAT_ID;
	a.sample_regs_user = 0x183;
	a.sample_regs_intr = 0xff0fff;
	a.sample_stack_user = 64;
	a.branch_sample_type = 1ULL << 17; /* HW_INDEX */
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t chain[8 * 4], br[8 * 6], regs_u[8 * 4], regs_i[8 * 24], stack[64], raw[12];
	st64(chain, HWPROF_CONTEXT_USER); st64(chain + 8, 0x401234); st64(chain + 16, 0x401100); st64(chain + 24, 0x400f00);
	st64(br, 0x401000); st64(br + 8, 0x401200); st64(br + 16, 0x5 | (12 << 4));
	st64(br + 24, 0x401210); st64(br + 32, 0x401300); st64(br + 40, 0x2 | (7 << 4));
	for (int i = 0; i < 4; i++) st64(regs_u + 8 * i, 0x1000 + i);
	for (int i = 0; i < 24; i++) st64(regs_i + 8 * i, 0x2000 + i);
	for (int i = 0; i < 64; i++) stack[i] = (uint8_t)i;
	memcpy(raw, "rawbytes!!!", 12);
	for (int k = 0; k < 3; k++) {
		struct hwprof_sample s = id_of(100, 2000 + k);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401234 + k;
		s.addr = 0x7fff0000 + k;
		s.stream_id = 5;
		s.period = 100000;
		s.read_one.value = 777 + k;
		s.read_one.id = 1;
		s.time_enabled = 1000;
		s.time_running = 900;
		s.callchain_nr = 4;
		s.callchain = chain;
		s.raw_size = 12;
		s.raw = raw;
		s.branch_nr = 2;
		s.branch_hw_idx = 1;
		s.branches = br;
		s.user_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_user, .regs = regs_u };
		s.intr_regs = (struct hwprof_regs){ .abi = k == 2 ? 0 : 2, .mask = a.sample_regs_intr, .regs = regs_i };
		s.stack_size = 64;
		s.stack_data = stack;
		s.stack_dyn_size = 48;
		s.weight = 250;
		/* L1 hit; the LFB level bit; the LFB level number (perf 6.1
		 * names both "LFB/MAB") */
		s.data_src = k == 0 ? 0x68100142ULL : k == 1 ? 0x68100242ULL : 0x1868100022ULL;
		s.transaction = 0x12;
		s.phys_addr = 0x12345000;
		s.cgroup = 33;
		s.data_page_size = k == 0 ? 4096 : k == 1 ? 2 << 20 : 0;
		s.code_page_size = 4096;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* What `perf record -d -W` writes on x86: memory samples with a data
 * address, data source and weight, over code, heap, stack, a library's
 * data and kernel addresses; several levels, snoops, TLB, lock and
 * blocked states, equal and differing weights. */
static void mem(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ADDR |
				       HWPROF_SAMPLE_ID | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD |
				       HWPROF_SAMPLE_DATA_SRC | HWPROF_SAMPLE_WEIGHT);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu/mem-loads,ldlat=30/P", ids, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	struct hwprof_sample id = id_of(100, 1200);
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, 0x7f0000000000, 0x20000, 0, 8, 1,
				99, 0, 3, 2, "/usr/lib/libfixture.so"));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, 0x1000000, 0x21000, 0, 0, 0, 0,
				0, 3, 0x22, "[heap]"));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, 0x7ffe0000000, 0x21000, 0, 0, 0,
				0, 0, 3, 0x22, "[stack]"));
	/* a shared file mapping (perf's dcacheline marks it [s]), and a
	 * second process whose heap is another process's anonymous memory */
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, 0x7f1000000000, 0x4000, 0, 0, 0x13,
				4242, 7, 3, 1, "/dev/shm/fixture-shared"));
	task_setup(&a, 200, "/usr/bin/fixture");
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 200, 200, 0x1000000, 0x21000, 0, 0, 0, 0,
				0, 3, 0x22, "[heap]"));
	static const uint64_t src[] = {
		0x68100142ULL,   /* load, L1 hit */
		0x68100242ULL,   /* load, LFB hit */
		0x6a100842ULL,   /* load, L3 hit, snoop hit */
		0x69102042ULL,   /* load, local RAM hit, locked */
		0x10068100842ULL, /* load, L3 hit, blocked data */
		0x68200144ULL,   /* store, L1 miss, snoop miss */
		0x5080021ULL,    /* N/A */
	};
	static const uint64_t daddr[] = { 0x1000040, 0x7ffe0001f00, 0x7f0000010008, 0x1000040, 0xffff888000001000,
					  0x7f0000010010, 0 };
	static const uint64_t ip[] = { 0x401000, 0x401010, 0x7f0000001000, 0xffffffff81000100 };
	for (int k = 0; k < 52; k++) {
		struct hwprof_sample s = id_of(k >= 46 ? 200 : 100, 2000 + 10 * k);
		s.ip = ip[k % 4];
		s.misc = k % 4 == 3 ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
		s.addr = k >= 46 ? 0x1000040 + 0x10 * (uint64_t)(k % 3) : k >= 40 ? 0x7f1000000100 + 0x48 * (uint64_t)k
										 : daddr[(k / 2) % 7];
		s.data_src = src[(k / 3) % 7];
		s.weight = k % 5 == 0 ? 7 : k % 5 == 1 ? 12 : 30 + (uint64_t)k;
		s.period = 1;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* Branch stacks as `perf record -b` writes them (the BRANCH_STACK
 * feature, stacks of varying depth, one empty): perf report counts one
 * entry per branch in its branch mode. */
static void branch(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_BRANCH_STACK);
	a.branch_sample_type = 0x1 | 0x8; /* user, any */
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cycles:u", ids, 1);
	features("x86_64");
	hwprof_writer_add_feature(w, HWPROF_FEAT_BRANCH_STACK, NULL, 0);
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t br[8 * 3 * 4];
	for (int i = 0; i < 4; i++) {
		st64(br + 24 * i, 0x401000 + 0x40 * (uint64_t)i);
		st64(br + 24 * i + 8, 0x401100 + 0x10 * (uint64_t)i);
		st64(br + 24 * i + 16, 0x1 | ((uint64_t)(3 + i) << 4));
	}
	for (int k = 0; k < 6; k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * k);
		s.ip = 0x401000 + 8 * (uint64_t)k;
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		s.branch_nr = (uint64_t)(k % 5); /* 0..4 branches */
		s.branches = br;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* Branch stacks over a real DSO (this program's own file, so the targets
 * resolve to symbols), the kernel map and unmapped addresses, in two
 * processes, with every flag perf's branch keys show (mispredicted,
 * predicted, in a transaction, abort, cycles or none): perf report's
 * branch view and its branch sort keys have something to tell apart. */
static void branch_syms(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_BRANCH_STACK);
	a.branch_sample_type = 0x1 | 0x2 | 0x8; /* user, kernel, any */
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cycles", ids, 1);
	features("x86_64");
	hwprof_writer_add_feature(w, HWPROF_FEAT_BRANCH_STACK, NULL, 0);
	char self[4096];
	self_exe(self, sizeof(self));
	struct hwprof_sample id = id_of(0, 10);
	id.pid = id.tid = (uint32_t)-1;
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, 0xffffffff81000000ULL,
			       0x1000000, 0xffffffff81000000ULL, "[kernel.kallsyms]_text"));
	static const uint32_t pids[2] = { 100, 200 };
	static const char *const comms[2] = { "worker", "helper" };
	for (int p = 0; p < 2; p++) {
		id = id_of(pids[p], 20 + (uint64_t)p);
		emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, pids[p], pids[p], comms[p], 0));
		/* the file from offset 0 at 0x555555554000, as a PIE is mapped */
		emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, pids[p], pids[p], 0x555555554000ULL,
					0x40000, 0, 8, 1, 4321, 0, 5, 2, self));
	}
	uint64_t seed = 12345;
	uint8_t br[24 * 8];
	for (int k = 0; k < 300; k++) {
		int p = k % 3 == 2;
		struct hwprof_sample s = id_of(pids[p], 1000 + 10 * (uint64_t)k);
		s.ip = 0x555555555000ULL + 16 * (uint64_t)(k % 64);
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		s.branch_nr = (uint64_t)(k % 9);
		for (uint64_t i = 0; i < s.branch_nr; i++) {
			uint64_t end[2];
			for (int j = 0; j < 2; j++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				unsigned r = (unsigned)(seed >> 33);
				/* mostly this program's text, some kernel, some nothing */
				end[j] = r % 10 < 7 ? 0x555555555000ULL + (r >> 4) % 0x6000
					 : r % 10 < 9 ? 0xffffffff81000000ULL + (r >> 4) % 0x100000
						      : 0x1000 + (r >> 4) % 0x100;
				if (r % 13 == 0) /* repeated branches */
					end[j] = j ? 0x555555556000ULL : 0x555555555100ULL;
			}
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned f = (unsigned)(seed >> 40);
			uint64_t flags = (f & 3) | (f % 7 == 0 ? 4 : 0) | (f % 11 == 0 ? 8 : 0);
			flags |= (uint64_t)(f % 5 ? (f >> 4) % 40 : 0) << 4;
			st64(br + 24 * i, end[0]);
			st64(br + 24 * i + 8, end[1]);
			st64(br + 24 * i + 16, flags);
		}
		s.branches = br;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* A cpu-clock event sampling callchains, the fixture's features, and the
 * path of this program (whose functions the chains go through). */
static struct hwprof_attr chain_evsel(char *self, size_t size)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_CALLCHAIN);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	self_exe(self, size);
	return a;
}

/* Callchains over this program's own symbols in three processes that map
 * it at different addresses, frames with and without symbols and outside
 * any map mixed at random (perf's callchain compare is not transitive
 * there, so its trees keep a second node for some frames); "beta" comes
 * from a FORK as perf synthesizes it for tasks that already ran
 * (PERF_RECORD_MISC_FORK_EXEC: no copy of the parent's maps), "gamma"
 * from a kernel FORK (a copy).
 * far: half the outermost frames at addresses nowhere, more than 2^63
 * apart (garbage frame-pointer return addresses), all periods equal:
 * perf's address compare, a difference taken as int64_t, is then not
 * transitive, its tree walk misses entries it holds and makes second
 * ones (whose longer chains the collapse then drops: the children order
 * of ties shows it) */
static void chains(bool far)
{
	char self[4096];
	struct hwprof_attr a = chain_evsel(self, sizeof(self));
	static const uint64_t base[3] = { 0x555555554000ULL, 0x565555554000ULL, 0x555555554000ULL };
	struct hwprof_sample id = id_of(0, 5);
	id.pid = id.tid = (uint32_t)-1;
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, 0xffffffff81000000ULL,
			       0x1000000, 0xffffffff81000000ULL, "[kernel.kallsyms]_text"));
	id = id_of(300, 10);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 300, 300, "alpha", 0));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 300, 300, base[0], 0x40000, 0, 8, 1, 4321,
				0, 5, 2, self));
	id = id_of(400, 11);
	int n = hwprof_build_task(rb, sizeof(rb), &a, &id, HWPROF_RECORD_FORK, 400, 300, 400, 300, 11);
	rb[5] |= 0x20; /* misc: PERF_RECORD_MISC_FORK_EXEC */
	emit(n);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 400, 400, "beta", 0));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 400, 400, base[1], 0x40000, 0, 8, 1, 4321,
				0, 5, 2, self));
	id = id_of(500, 12);
	emit(hwprof_build_task(rb, sizeof(rb), &a, &id, HWPROF_RECORD_FORK, 500, 300, 500, 300, 12));
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 500, 500, "gamma", 0));
	static const uint32_t pids[3] = { 300, 400, 500 };
	static const uint64_t nowhere[6] = { 0x8202820282028202ULL, 0xa50, 0x7ffffffffffff000ULL,
					     0xfffffffffffff000ULL, 0x4000000000000000ULL, 0xc000000000000010ULL };
	uint64_t seed = far ? 11 : 777; /* 11: a sequence where perf's walk misses */
	uint8_t chain[8 * 8];
	for (int k = 0; k < 600; k++) {
		int p = k % 3;
		struct hwprof_sample s = id_of(pids[p], 1000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.period = far ? 1000 : 1000 + (uint64_t)(k % 7) * 100; /* far: ties */
		unsigned depth = 2 + (unsigned)(k % 5);
		st64(chain, HWPROF_CONTEXT_USER);
		for (unsigned j = 1; j <= depth; j++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned r = (unsigned)(seed >> 33);
			/* a few symbols often (chains repeat), their neighbours,
			 * addresses past the text, nowhere, the parent's base */
			uint64_t v = r % 10 < 6 ? base[p] + 0x1000 + (r >> 8) % 0x40 * 0x80
				     : r % 10 < 8 ? base[p] + 0x3f000 + (r >> 8) % 0x800
				     : r % 10 < 9 ? 0x1000 + (r >> 8) % 0x100
						  : base[0] + 0x1000 + (r >> 8) % 0x40 * 0x80;
			if (far && j == depth && r % 2) /* the outermost frame */
				v = nowhere[(r >> 12) % 6];
			st64(chain + 8 * j, v);
		}
		s.ip = hwprof_u64_at(chain, 1);
		s.callchain_nr = depth + 1;
		s.callchain = chain;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}


/* A thread whose last samples carry pid -1 (as an exiting task's do once
 * the kernel has let go of its pid): to perf, which finds threads by tid,
 * they are the same thread, so in children mode equal entries of both
 * kinds are ordered by chain depth (caller above callee), not by self. */
extern char __executable_start;
static void exitpid(void)
{
	char self[4096];
	struct hwprof_attr a = chain_evsel(self, sizeof(self));
	const uint64_t base = 0x555555554000ULL;
	struct hwprof_sample id = id_of(300, 10);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 300, 300, "alpha", 0));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 300, 300, base, 0x400000, 0, 8, 1, 4321,
				0, 5, 2, self));
	const uintptr_t lo = (uintptr_t)&__executable_start;
	const uint64_t fn[7] = { base + ((uintptr_t)&emit - lo) + 4, base + ((uintptr_t)&sw_attr - lo) + 8,
				 base + ((uintptr_t)&features - lo) + 2, base + ((uintptr_t)&hwprof_writer_write - lo) + 6,
				 base + ((uintptr_t)&st64 - lo), base + ((uintptr_t)&chains - lo) + 3,
				 base + ((uintptr_t)&self_exe - lo) + 1 };
	/* chains (leaf first) of the live thread, then others over other
	 * functions with pid -1: every entry has the same children period */
	static const int shape[4][5] = { { 2, 0, 1 }, { 3, 2, 3, 6 }, { 3, 4, 5, 6 }, { 2, 1, 0 } };
	uint8_t chain[8 * 8];
	for (int k = 0; k < 4; k++) {
		const int *sh = shape[k];
		struct hwprof_sample s = id_of(300, 1000 + 10 * (uint64_t)k);
		if (k >= 2)
			s.pid = (uint32_t)-1;
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		st64(chain, HWPROF_CONTEXT_USER);
		for (int j = 0; j < sh[0]; j++)
			st64(chain + 8 * (j + 1), fn[sh[j + 1]]);
		s.ip = hwprof_u64_at(chain, 1);
		s.callchain_nr = (uint32_t)sh[0] + 1;
		s.callchain = chain;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* A kernel elsewhere than the running one (its _text 512 MB higher, as
 * after another boot): perf relocates the running kallsyms by the
 * recorded reference symbol. Kernel samples at three running functions
 * moved so, callchains through a module (frames printed at their
 * address); with bid, a BUILD_ID feature naming a kernel build id that is
 * not the running kernel's (perf's "No kallsyms or vmlinux" message). */
static void kreloc(bool bid)
{
	static const char *const fn[3] = { "vfs_read", "do_sys_openat2", "schedule" };
	uint64_t text = 0, addr[3] = { 0 };
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || strchr(line, '['))
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		for (int i = 0; i < 3; i++)
			if (!addr[i] && !strcmp(name, fn[i]))
				addr[i] = a;
	}
	if (f)
		fclose(f);
	if (!text || !addr[0] || !addr[1] || !addr[2])
		die("kreloc: /proc/kallsyms without _text and the functions (kptr_restrict?)");
	const uint64_t delta = 0x20000000;
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_CALLCHAIN);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	if (bid) {
		/* one build_id_event: header, pid, 24 id bytes, the name */
		uint8_t fb[8 + 4 + 24 + 24] = { 0 };
		st32(fb, HWPROF_RECORD_HEADER_BUILD_ID);
		fb[4] = 1; /* misc: kernel */
		fb[6] = sizeof(fb);
		st32(fb + 8, (uint32_t)-1);
		for (int i = 0; i < 20; i++)
			fb[12 + i] = (uint8_t)(0xa0 + i);
		memcpy(fb + 36, "[kernel.kallsyms]", 17);
		hwprof_writer_add_feature(w, HWPROF_FEAT_BUILD_ID, fb, sizeof(fb));
	}
	struct hwprof_sample id = id_of(0, 5);
	id.pid = id.tid = (uint32_t)-1;
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, text + delta, 0x2000000,
			       text + delta, "[kernel.kallsyms]_text"));
	const uint64_t mod = 0xffffffffc1000000ULL;
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, mod, 0x10000, 0,
			       "/lib/modules/0.0/kernel/drivers/fake/fake-mod.ko"));
	id = id_of(300, 10);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 300, 300, "alpha", 0));
	uint8_t chain[8 * 4];
	for (int k = 0; k < 90; k++) {
		struct hwprof_sample s = id_of(300, 1000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_KERNEL;
		s.period = 1000;
		st64(chain, HWPROF_CONTEXT_KERNEL);
		st64(chain + 8, addr[k % 3] + delta + (uint64_t)(k % 16));
		st64(chain + 16, mod + 0x100 + (uint64_t)(k % 32) * 4);
		st64(chain + 24, addr[(k + 1) % 3] + delta + 0x10);
		s.ip = hwprof_u64_at(chain, 1);
		s.callchain_nr = 4;
		s.callchain = chain;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* A feature payload under construction. */
struct fb { uint8_t d[4096]; size_t n; };
static void fb32(struct fb *f, uint32_t v) { st32(f->d + f->n, v); f->n += 4; }
static void fb64(struct fb *f, uint64_t v) { st64(f->d + f->n, v); f->n += 8; }
static void fbstr(struct fb *f, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
	fb32(f, len);
	memset(f->d + f->n, 0, len);
	memcpy(f->d + f->n, s, strlen(s));
	f->n += len;
}

extern char __executable_start; /* this program's load address (PIE) */

/* Functions named like perf's default parent pattern (^sys_|^do_page_fault)
 * for the parent key: keys-g callchains pass through them. */
__attribute__((noinline, used)) static uint64_t sys_fixture_call(uint64_t v)
{
	return v * 3 + 1;
}

__attribute__((noinline, used)) static uint64_t do_page_fault_fixture(uint64_t v)
{
	return v * 5 + 2;
}

/* See "keys" above. Samples cycle through tables of each field with
 * coprime lengths, so most combinations occur and several entries tie. */
static void keys(bool callchains)
{
	uint64_t st = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ADDR |
		      HWPROF_SAMPLE_ID | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_DATA_SRC |
		      HWPROF_SAMPLE_WEIGHT | HWPROF_SAMPLE_TRANSACTION | HWPROF_SAMPLE_CGROUP |
		      HWPROF_SAMPLE_PHYS_ADDR | HWPROF_SAMPLE_DATA_PAGE_SIZE | HWPROF_SAMPLE_CODE_PAGE_SIZE;
	if (callchains)
		st |= HWPROF_SAMPLE_CALLCHAIN;
	struct hwprof_attr a = sw_attr(st);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_HOSTNAME, "fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_OSRELEASE, "6.1.0-fixture");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_VERSION, "6.1.0");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_ARCH, "x86_64");
	struct fb f = { .n = 0 };
	fb32(&f, 4); fb32(&f, 4);
	hwprof_writer_add_feature(w, HWPROF_FEAT_NRCPUS, f.d, f.n);
	/* two sockets of two cores; cpu 3's ids are -1 (offline) */
	f.n = 0; fb32(&f, 2); fbstr(&f, "0-1"); fbstr(&f, "2"); fb32(&f, 3); fbstr(&f, "0"); fbstr(&f, "1");
	fbstr(&f, "2");
	static const uint32_t core[4] = { 0, 1, 0, (uint32_t)-1 }, sock[4] = { 0, 0, 1, (uint32_t)-1 };
	for (int i = 0; i < 4; i++) { fb32(&f, core[i]); fb32(&f, sock[i]); }
	fb32(&f, 2); fbstr(&f, "0-1"); fbstr(&f, "2");
	for (int i = 0; i < 4; i++) fb32(&f, sock[i]);
	hwprof_writer_add_feature(w, HWPROF_FEAT_CPU_TOPOLOGY, f.d, f.n);
	char self[4096];
	self_exe(self, sizeof(self));
	const uint64_t base = 0x555555554000ULL;
	struct hwprof_sample id = id_of(0, 5);
	id.pid = id.tid = (uint32_t)-1;
	emit(hwprof_build_mmap(rb, sizeof(rb), &a, &id, HWPROF_MISC_KERNEL, (uint32_t)-1, 0, 0xffffffff81000000ULL,
			       0x1000000, 0xffffffff81000000ULL, "[kernel.kallsyms]_text"));
	static const uint32_t pids[3] = { 300, 400, 500 };
	static const char *const comms[3] = { "alpha", "beta", "gamma" };
	uint8_t b[256];
	for (int p = 0; p < 3; p++) {
		id = id_of(pids[p], 10 + (uint64_t)p);
		emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, pids[p], pids[p], comms[p], 0));
		emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, pids[p], pids[p], base, 0x400000, 0,
					8, 1, 4321, 0, 5, 2, self));
		if (p == 2)
			continue; /* gamma has no namespaces: 0/0x0 */
		memset(b, 0, sizeof(b));
		st32(b, pids[p]); st32(b + 4, pids[p]); st64(b + 8, 7);
		for (int i = 0; i < 7; i++) {
			st64(b + 16 + 16 * i, 4);
			st64(b + 24 + 16 * i, (i == 6 ? 0xeffffffbULL : 0xf0000000ULL) + (uint64_t)p);
		}
		kern(&a, HWPROF_RECORD_NAMESPACES, 0, b, 16 + 16 * 7, 20 + (uint64_t)p);
	}
	/* cgroups: a second record for id 40 keeps perf's first path */
	static const struct { uint64_t id; const char *path; } cg[] = {
		{ 33, "/" }, { 34, "/system.slice/hwprof-fixture.service" }, { 40, "/user.slice" }, { 40, "/other" } };
	for (size_t i = 0; i < sizeof(cg) / sizeof(cg[0]); i++) {
		memset(b, 0, sizeof(b));
		st64(b, cg[i].id);
		memcpy(b + 8, cg[i].path, strlen(cg[i].path) + 1);
		kern(&a, HWPROF_RECORD_CGROUP, 0, b, 8 + strlen(cg[i].path) + 1, 30 + i);
	}
	/* user addresses inside this program's functions */
	const uintptr_t lo = (uintptr_t)&__executable_start;
	const uint64_t fn[5] = { base + ((uintptr_t)&emit - lo) + 4, base + ((uintptr_t)&sw_attr - lo) + 8,
				 base + ((uintptr_t)&features - lo) + 2, base + ((uintptr_t)&hwprof_writer_write - lo) + 6,
				 base + ((uintptr_t)&st64 - lo) };
	static const uint64_t txn[5] = { 0, 0x12, 0x1 | 0x4, 0x8 | 0x20 | (5ULL << 32), 0x40 | 0x80 };
	static const uint64_t cgroup[6] = { 0, 33, 34, 40, 77, 33 };
	static const uint64_t cps[7] = { 4096, 2ULL << 20, 0, 1ULL << 30, 1024, 8192, 4096 };
	static const uint64_t dps[4] = { 4096, 0, 2ULL << 20, 2048 };
	static const uint64_t phys[3] = { 0x12345000, 0, 0x7fff1000 };
	static const uint64_t src[3] = { 0x68100142ULL, 0x6a100842ULL, 0x5080021ULL };
	uint8_t chain[8 * 8];
	for (int k = 0; k < 210; k++) {
		int p = k % 3;
		struct hwprof_sample s = id_of(pids[p], 1000 + 10 * (uint64_t)k);
		s.cpu = (uint32_t)(k % 4);
		bool kernel = k % 11 == 5;
		s.misc = kernel ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
		s.ip = kernel ? 0xffffffff81000100ULL + (uint64_t)(k % 2) * 0x40 : fn[k % 5];
		/* kernel samples' periods end in 51, user ones in 00: sums of
		 * up to 99 kernel samples never equal a user sum, so sibling
		 * call graph nodes in the two DSOs never tie (perf orders such
		 * ties by heap address) */
		s.period = kernel ? 1051 : 1000 + (uint64_t)(k % 7) * 100;
		s.addr = 0x7f0000010000ULL + (uint64_t)(k % 3) * 0x40;
		s.data_src = src[k % 3];
		s.weight = 10 + (uint64_t)(k % 4);
		s.transaction = txn[k % 5];
		s.cgroup = cgroup[k % 6];
		s.code_page_size = cps[k % 7];
		s.data_page_size = dps[k % 4];
		s.phys_addr = phys[k % 3];
		if (callchains) {
			/* kernel samples: kernel frames only (see above); user
			 * chains pass through the parent functions in either
			 * order, one of them, or none */
			const uint64_t sys = base + ((uintptr_t)&sys_fixture_call - lo) + 1;
			const uint64_t dpf = base + ((uintptr_t)&do_page_fault_fixture - lo) + 1;
			const uint64_t par[4][3] = { { sys, 0, dpf }, { dpf, 0, sys }, { 0, sys, 0 }, { 0, 0, 0 } };
			unsigned n = 0;
			st64(chain + 8 * n++, kernel ? HWPROF_CONTEXT_KERNEL : HWPROF_CONTEXT_USER);
			st64(chain + 8 * n++, s.ip);
			for (int j = 1; j < 4; j++) {
				uint64_t v = par[k % 4][j - 1] ? par[k % 4][j - 1] : fn[(k + 2 * j + (k / 5)) % 5];
				st64(chain + 8 * n++, kernel ? 0xffffffff81000200ULL + 0x80 * (uint64_t)j : v);
			}
			s.callchain_nr = n;
			s.callchain = chain;
		}
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

/* Two events of a group told apart by IDENTIFIER: read values in group
 * format with ids and lost counts (samples and READ records), the
 * sample_id_all trailer with every id field on each kernel record,
 * WEIGHT_STRUCT, and an MMAP2 carrying a build id. */
static void group(void)
{
	uint64_t st = HWPROF_SAMPLE_IDENTIFIER | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME |
		      HWPROF_SAMPLE_ID | HWPROF_SAMPLE_STREAM_ID | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD |
		      HWPROF_SAMPLE_READ;
	struct hwprof_attr a = sw_attr(st), b2 = sw_attr(st | HWPROF_SAMPLE_WEIGHT_STRUCT | HWPROF_SAMPLE_DATA_SRC);
	a.read_format = b2.read_format = HWPROF_FORMAT_GROUP | HWPROF_FORMAT_ID | HWPROF_FORMAT_LOST |
					 HWPROF_FORMAT_TOTAL_TIME_ENABLED | HWPROF_FORMAT_TOTAL_TIME_RUNNING;
	b2.config = 1; /* task-clock */
	b2.flags &= ~((1ULL << HWPROF_ATTR_DISABLED) | (1ULL << HWPROF_ATTR_MMAP) | (1ULL << HWPROF_ATTR_COMM) |
		      (1ULL << HWPROF_ATTR_MMAP2) | (1ULL << HWPROF_ATTR_COMM_EXEC));
	uint64_t ids1[1] = { 11 }, ids2[1] = { 22 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids1, 1);
	hwprof_writer_add_evsel(w, &b2, "task-clock", ids2, 1);
	features("x86_64");
	struct hwprof_sample id = { 0 };
	id.pid = id.tid = 100;
	id.id = 11;
	id.stream_id = 11;
	id.cpu = 1;
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 100, 100, "grouped", 1));
	id.time = 1100;
	id.id = id.stream_id = 22;
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	int n = hwprof_build_mmap2(rb, sizeof(rb), &b2, &id, HWPROF_MISC_USER | HWPROF_MISC_MMAP_BUILD_ID, 100, 100,
				   0x400000, 0x10000, 0, 0, 0, 0, 0, 5, 2, "/usr/bin/grouped");
	if (n < 0)
		die("mmap2");
	rb[40] = 20; /* build_id_size, reserved, then the id where maj/min/ino were */
	memset(rb + 41, 0, 3);
	memcpy(rb + 44, bid, 20);
	emit(n);
	uint8_t vals[3 * 8 * 2];
	for (int k = 0; k < 4; k++) {
		const struct hwprof_attr *e = k & 1 ? &b2 : &a;
		struct hwprof_sample s = { 0 };
		s.pid = s.tid = 100;
		s.time = 2000 + 10 * (uint64_t)k;
		s.id = s.stream_id = k & 1 ? 22 : 11;
		s.cpu = (uint32_t)k;
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 4 * (uint64_t)k;
		s.period = 100000;
		s.read_nr = 2;
		s.time_enabled = 5000 + (uint64_t)k;
		s.time_running = 4000 + (uint64_t)k;
		st64(vals, 100 + (uint64_t)k); st64(vals + 8, 11); st64(vals + 16, (uint64_t)k);
		st64(vals + 24, 200 + (uint64_t)k); st64(vals + 32, 22); st64(vals + 40, 0);
		s.read_values = vals;
		s.read_value_stride = 24;
		s.weight = 0x11223344;
		s.ins_lat = 0x55;
		s.p_stage_cyc = 0x66;
		s.data_src = 0x68100142ULL;
		emit(hwprof_build_sample(rb, sizeof(rb), e, &s));
	}
	/* READ records: pid, tid, then the group read values */
	uint8_t b[128] = { 0 };
	st32(b, 100); st32(b + 4, 100);
	st64(b + 8, 2); st64(b + 16, 7000); st64(b + 24, 6000);
	st64(b + 32, 300); st64(b + 40, 11); st64(b + 48, 1);
	st64(b + 56, 400); st64(b + 64, 22); st64(b + 72, 2);
	id.time = 3000;
	id.id = id.stream_id = 11;
	emit(hwprof_build_kernel_record(rb, sizeof(rb), &a, &id, HWPROF_RECORD_READ, 0, b, 80));
	id.time = 3010;
	id.id = id.stream_id = 22;
	emit(hwprof_build_kernel_record(rb, sizeof(rb), &b2, &id, HWPROF_RECORD_READ, 0, b, 80));
	id.time = 3020;
	emit(hwprof_build_task(rb, sizeof(rb), &b2, &id, HWPROF_RECORD_EXIT, 100, 1, 100, 1, 3020));
	memset(b, 0, sizeof(b));
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* PERF_SAMPLE_READ without PERF_FORMAT_GROUP, in samples of cpu-clock
 * (id 1) and task-clock (id 2) (perf 6.1 cannot parse samples of events
 * whose read_format differ, so both have ids): perf
 * delivers each value to the event its id names, with the growth since
 * that id's last value as the period. */
static void readone(void)
{
	uint64_t st = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
		      HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_READ;
	struct hwprof_attr a = sw_attr(st), b2 = sw_attr(st);
	a.read_format = b2.read_format = HWPROF_FORMAT_ID;
	b2.config = 1;
	uint64_t ids1[1] = { 1 }, ids2[1] = { 2 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids1, 1);
	hwprof_writer_add_evsel(w, &b2, "task-clock", ids2, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	/* value, its id, the sample's event (2: task-clock) */
	static const uint64_t v[][3] = {
		{ 500, 1, 1 },  /* first value: all of it */
		{ 500, 1, 1 },  /* no growth: no sample */
		{ 900, 2, 1 },  /* task-clock's id in a cpu-clock sample */
		{ 950, 55, 1 }, /* unknown id */
		{ 123, 0, 2 },  /* id 0: no event's either */
		{ 400, 1, 1 },  /* smaller than the last: perf's u64 difference */
		{ 1700, 1, 1 },
		{ 1000, 2, 1 },
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * (uint64_t)k);
		s.id = v[k][2];
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 16 * (uint64_t)k;
		s.read_one.value = v[k][0];
		s.read_one.id = v[k][1];
		emit(hwprof_build_sample(rb, sizeof(rb), v[k][2] == 2 ? &b2 : &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* One event with an attr of `size` bytes (64 = PERF_ATTR_SIZE_VER0 ...),
 * in file or pipe mode. */
static void attrsize(uint32_t size)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME |
				       HWPROF_SAMPLE_PERIOD);
	a.size = size;
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	for (int k = 0; k < 3; k++) {
		struct hwprof_sample s = id_of(100, 3000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 16 * (uint64_t)k;
		s.period = 100000;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* What `perf record --call-graph lbr` writes on Intel: a callchain plus a
 * branch call stack with hw_idx (branch_sample_type USER | CALL_STACK |
 * NO_FLAGS | NO_CYCLES | HW_INDEX); and a second event with a plain
 * branch stack whose flags use every field (mispred, predicted, in_tx,
 * abort, cycles, type, spec, new_type, priv). */
static void lbr(void)
{
	uint64_t st = HWPROF_SAMPLE_IDENTIFIER | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME |
		      HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_CALLCHAIN | HWPROF_SAMPLE_BRANCH_STACK;
	struct hwprof_attr a = sw_attr(st), b2 = sw_attr(st);
	a.type = b2.type = HWPROF_TYPE_HARDWARE;
	a.branch_sample_type = 0x1 | (1ULL << 11) | (1ULL << 14) | (1ULL << 15) | (1ULL << 17);
	b2.config = 1;
	b2.branch_sample_type = 0x1 | 0x8;
	b2.flags &= ~((1ULL << HWPROF_ATTR_MMAP) | (1ULL << HWPROF_ATTR_COMM) | (1ULL << HWPROF_ATTR_MMAP2) |
		      (1ULL << HWPROF_ATTR_COMM_EXEC));
	uint64_t ids1[1] = { 1 }, ids2[1] = { 2 };
	hwprof_writer_add_evsel(w, &a, "cycles:u", ids1, 1);
	hwprof_writer_add_evsel(w, &b2, "instructions:u", ids2, 1);
	features("x86_64");
	hwprof_writer_add_feature(w, HWPROF_FEAT_BRANCH_STACK, NULL, 0);
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t chain[8 * 3], br[8 * 3 * 3], all[8 * 3 * 16], ext[8 * 3 * 16];
	st64(chain, HWPROF_CONTEXT_USER); st64(chain + 8, 0x401234); st64(chain + 16, 0x401100);
	for (int i = 0; i < 3; i++) {
		st64(br + 24 * i, 0x402000 + 0x40 * (uint64_t)i);
		st64(br + 24 * i + 8, 0x403000 + 0x10 * (uint64_t)i);
		st64(br + 24 * i + 16, 0);
	}
	/* the plain stack: entry i has branch type i (0..15) and the other
	 * fields varied: flags bits 0-3, cycles 4-19, type 20-23, spec
	 * 24-25, new_type 26-29, priv 30-32, reserved 33-63 */
	for (uint64_t i = 0; i < 16; i++) {
		st64(all + 24 * i, 0x402000 + 0x40 * i);
		st64(all + 24 * i + 8, 0x403000 + 0x10 * i);
		st64(all + 24 * i + 16, (i & 0xf) | ((i * 4099) & 0xffff) << 4 | i << 20 | (i & 3) << 24 |
						  ((15 - i) & 0xf) << 26 | (i & 7) << 30 | (i % 3) << 33);
		/* type 15 (EXTEND_ABI): new_type names the branch (the kernel
		 * defines 0-7; perf 6.1 crashes on exit past them) */
		st64(ext + 24 * i, 0x404000 + 0x40 * i);
		st64(ext + 24 * i + 8, 0x405000 + 0x10 * i);
		st64(ext + 24 * i + 16, 15ULL << 20 | (i & 7) << 26 | (i & 7) << 30);
	}
	for (int k = 0; k < 6; k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * (uint64_t)k);
		s.id = k & 1 ? 2 : 1;
		s.ip = 0x401234;
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		s.callchain_nr = 3; /* (perf 6.1 crashes on an LBR sample whose chain has no user part) */
		s.callchain = chain;
		/* (no empty call stack: perf 6.1 reads a first entry past it) */
		s.branch_nr = k & 1 ? (uint64_t)(k == 5 ? 0 : 16) : (uint64_t)(k == 4 ? 2 : k % 4 + 1);
		s.branch_hw_idx = 5;
		s.branches = k & 1 ? (k == 1 ? all : ext) : br;
		emit(hwprof_build_sample(rb, sizeof(rb), k & 1 ? &b2 : &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* One BPF program entry of the BPF_PROG_INFO feature as perf writes it:
 * u32 info_len, u32 data_len, u64 arrays, bpf_prog_info (info_len bytes,
 * here 192), data; array fields of the info hold offsets into data. */
static size_t bpf_prog(uint8_t *o, uint32_t id, const char *name, uint32_t nsub, uint32_t ntags, uint32_t btf_id,
		       uint32_t func_type)
{
	enum { INFO = 192 };
	uint8_t *info = o + 16, *data = info + INFO;
	memset(o, 0, 16 + INFO);
	uint32_t dl = 0;
	st32(info, 2); /* BPF_PROG_TYPE_KPROBE */
	st32(info + 4, id);
	memcpy(info + 64, name, strlen(name));
	st32(info + 104, nsub); st32(info + 108, nsub); st32(info + 180, ntags);
	st64(info + 112, dl); /* jited_ksyms */
	for (uint32_t i = 0; i < nsub; i++, dl += 8)
		st64(data + dl, 0xffffffffc0100000ULL + 0x1000ULL * id + 0x100 * i);
	st64(info + 120, dl); /* jited_func_lens */
	for (uint32_t i = 0; i < nsub; i++, dl += 4)
		st32(data + dl, 40 + 8 * i + id);
	dl = (dl + 7) & ~7u;
	st64(info + 184, dl); /* prog_tags */
	for (uint32_t i = 0; i < ntags; i++, dl += 8)
		for (int k = 0; k < 8; k++)
			data[dl + k] = (uint8_t)(0x10 * k + i + id);
	if (btf_id) {
		st32(info + 128, btf_id);
		st32(info + 132, 8); st32(info + 144, nsub); /* func_info_rec_size, nr_func_info */
		st64(info + 136, dl);
		for (uint32_t i = 0; i < nsub; i++, dl += 8) {
			st32(data + dl, 10 * i);
			st32(data + dl + 4, func_type + i);
		}
	}
	/* arrays: JITED_KSYMS, JITED_FUNC_LENS, FUNC_INFO, PROG_TAGS */
	st32(o, INFO); st32(o + 4, dl); st64(o + 8, (1u << 3) | (1u << 4) | (1u << 5) | (1u << 8));
	return 16 + INFO + dl;
}

/* A `perf record -a` file from a machine with BPF programs loaded: the
 * BPF_PROG_INFO listing (one or several jited sub-programs, names from
 * the program, from BTF, or perf's _F, a program whose counts disagree,
 * a duplicate id) and the BPF_BTF section it names functions from. */
static void bpf(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME |
				       HWPROF_SAMPLE_PERIOD);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	static uint8_t pi[8192];
	size_t n = 4;
	n += bpf_prog(pi + n, 42, "sd_devices", 1, 1, 0, 0);
	n += bpf_prog(pi + n, 7, "", 1, 1, 0, 0);
	n += bpf_prog(pi + n, 19, "tracer", 3, 3, 0, 0);
	n += bpf_prog(pi + n, 23, "with_btf", 2, 2, 5, 3);
	n += bpf_prog(pi + n, 24, "one_btf", 1, 1, 5, 4);
	n += bpf_prog(pi + n, 30, "mismatch", 2, 1, 0, 0);
	n += bpf_prog(pi + n, 7, "dup", 1, 1, 0, 0);
	st32(pi, 7);
	hwprof_writer_add_feature(w, HWPROF_FEAT_BPF_PROG_INFO, pi, n);
	/* BTF id 5: [1] INT int, [2] FUNC_PROTO, [3] FUNC handle_exec,
	 * [4] FUNC handle_exit, [5] STRUCT s {int a;} */
	static const char strs[] = "\0int\0handle_exec\0handle_exit\0s\0a";
	uint8_t bt[256] = { 0 };
	uint32_t t = 24, tl = 0;
	const uint32_t types[][3] = { { 1, 1u << 24, 4 }, { 0, 13u << 24, 1 }, { 5, 12u << 24, 2 },
				      { 17, 12u << 24, 2 }, { 29, 4u << 24 | 1, 4 } };
	for (int i = 0; i < 5; i++) {
		st32(bt + t + tl, types[i][0]); st32(bt + t + tl + 4, types[i][1]); st32(bt + t + tl + 8, types[i][2]);
		tl += 12;
		if (i == 0) { st32(bt + t + tl, 32); tl += 4; }          /* INT: 32 bits */
		if (i == 4) { st32(bt + t + tl, 31); st32(bt + t + tl + 4, 1); st32(bt + t + tl + 8, 0); tl += 12; }
	}
	st16(bt, 0xeb9f); bt[2] = 1; st32(bt + 4, 24); st32(bt + 8, 0); st32(bt + 12, tl);
	st32(bt + 16, tl); st32(bt + 20, sizeof(strs));
	memcpy(bt + t + tl, strs, sizeof(strs));
	uint32_t btf_len = 24 + tl + (uint32_t)sizeof(strs);
	static uint8_t bs[512];
	st32(bs, 1); st32(bs + 4, 5); st32(bs + 8, btf_len);
	memcpy(bs + 12, bt, btf_len);
	hwprof_writer_add_feature(w, HWPROF_FEAT_BPF_BTF, bs, 12 + btf_len);
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* Branch counters (PERF_SAMPLE_BRANCH_COUNTERS, kernel 6.8, perf record
 * -j any,counter on Intel): one u64 per branch entry after the entries,
 * before the user registers; the cpu PMU's caps give their geometry.
 * perf 6.1 cannot read this; tests/data/golden/brcntr.dump is checked by
 * hand. */
static void brcntr(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_BRANCH_STACK | HWPROF_SAMPLE_REGS_USER);
	a.type = HWPROF_TYPE_HARDWARE;
	a.branch_sample_type = 0x1 | 0x8 | HWPROF_BRANCH_HW_INDEX | HWPROF_BRANCH_COUNTERS;
	a.sample_regs_user = 0x3; /* AX BX */
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cycles:u", ids, 1);
	features("x86_64");
	static const char caps[] = "branch_counter_nr\0" "4\0" "branch_counter_width\0" "2\0" "max_precise\0" "3";
	uint8_t c[4 + 6 * 68] = { 0 };
	size_t n = 4;
	st32(c, 3);
	for (const char *q = caps; q < caps + sizeof(caps); q += strlen(q) + 1, n += 68) {
		st32(c + n, 64);
		memcpy(c + n + 4, q, strlen(q));
	}
	hwprof_writer_add_feature(w, HWPROF_FEAT_CPU_PMU_CAPS, c, n);
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t br[8 * 3 * 3], cnt[8 * 3], ru[16];
	for (int i = 0; i < 3; i++) {
		st64(br + 24 * i, 0x401000 + 0x40 * (uint64_t)i);
		st64(br + 24 * i + 8, 0x401100 + 0x10 * (uint64_t)i);
		st64(br + 24 * i + 16, 0x2 | ((uint64_t)(5 + i) << 4) | (1ULL << 20));
		st64(cnt + 8 * i, 0x1b + (uint64_t)i); /* counters of 2 bits, 4 of them */
	}
	st64(ru, 0xa); st64(ru + 8, 0xb);
	for (int k = 0; k < 2; k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000;
		s.period = 1000;
		s.branch_nr = k ? 3 : 1;
		s.branch_hw_idx = 2;
		s.branches = br;
		s.branch_counters = cnt;
		s.user_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_user, .regs = ru };
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* Events without sample_id_all (what perf stat record and kernels before
 * 2.6.38 write): perf cannot order by time and processes the records as
 * they come, samples out of time order included. */
static void noidall(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_CPU |
				       HWPROF_SAMPLE_PERIOD);
	a.flags &= ~(1ULL << HWPROF_ATTR_SAMPLE_ID_ALL);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	static const uint64_t t[] = { 3000, 2000, 5000, 1000, 4000 };
	uint8_t b[8] = { 0 };
	for (int k = 0; k < 5; k++) {
		struct hwprof_sample s = id_of(100, t[k]);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 16 * (uint64_t)k;
		s.period = 100000;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
		if (k == 2)
			user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
	}
	struct hwprof_sample id = id_of(100, 0);
	emit(hwprof_build_task(rb, sizeof(rb), &a, &id, HWPROF_RECORD_EXIT, 100, 1, 100, 1, 6000));
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

/* Samples with AUX area data (perf record --aux-sample): the u64 size and
 * the bytes come last, after the page sizes. */
static void auxsample(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_AUX | HWPROF_SAMPLE_CODE_PAGE_SIZE);
	a.aux_sample_size = 32;
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t aux[32];
	for (int i = 0; i < 32; i++)
		aux[i] = (uint8_t)(0x40 + i);
	for (int k = 0; k < 3; k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000;
		s.period = 1000;
		s.code_page_size = 4096;
		s.aux_size = k == 1 ? 0 : 8 * (uint64_t)(k + 2);
		s.aux_data = aux;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void small_task(const char *arch, struct hwprof_attr *a);
/* The header of a bigger machine than this one: 2 sockets x 2 cores x 2
 * threads with one cpu offline, 2 NUMA nodes, 3 cache levels, 2 memory
 * nodes, an event group, several PMUs, clock data. old != 0: the
 * CPU_TOPOLOGY of perf before 5.2 (no die section). */
static void topo(int old)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_ID);
	struct hwprof_attr b2 = a;
	b2.config = 1;
	b2.flags &= ~(1ULL << HWPROF_ATTR_DISABLED);
	uint64_t ids1[2] = { 1, 2 }, ids2[2] = { 3, 4 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids1, 2);
	hwprof_writer_add_evsel(w, &b2, "task-clock", ids2, 2);
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_HOSTNAME, "bigbox");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_OSRELEASE, "5.15.0-91-generic");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_VERSION, "5.15.126");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_ARCH, "x86_64");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_CPUDESC, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
	hwprof_writer_add_feature_string(w, HWPROF_FEAT_CPUID, "GenuineIntel,6,85,7");
	struct fb f = { .n = 0 };
	fb32(&f, 8); fb32(&f, 7);
	hwprof_writer_add_feature(w, HWPROF_FEAT_NRCPUS, f.d, f.n);
	f.n = 0; fb64(&f, 196608000);
	hwprof_writer_add_feature(w, HWPROF_FEAT_TOTAL_MEM, f.d, f.n);
	f.n = 0; fb32(&f, 5); fbstr(&f, "/usr/bin/perf"); fbstr(&f, "record"); fbstr(&f, "-a");
	fbstr(&f, "--"); fbstr(&f, "sh -c 'sleep 1'");
	hwprof_writer_add_feature(w, HWPROF_FEAT_CMDLINE, f.d, f.n);
	/* sockets, threads, then per cpu {core, socket}, then dies */
	f.n = 0; fb32(&f, 2); fbstr(&f, "0-1,4-5"); fbstr(&f, "2-3,6-7");
	fb32(&f, 4); fbstr(&f, "0,4"); fbstr(&f, "1,5"); fbstr(&f, "2,6"); fbstr(&f, "3,7");
	static const uint32_t core[8] = { 0, 1, 0, 1, 0, 1, 0, (uint32_t)-1 }, sock[8] = { 0, 0, 1, 1, 0, 0, 1, (uint32_t)-1 };
	for (int i = 0; i < 8; i++) { fb32(&f, core[i]); fb32(&f, sock[i]); }
	if (!old) {
		fb32(&f, 2); fbstr(&f, "0-1,4-5"); fbstr(&f, "2-3,6-7");
		for (int i = 0; i < 8; i++) fb32(&f, i == 7 ? (uint32_t)-1 : sock[i]);
	}
	hwprof_writer_add_feature(w, HWPROF_FEAT_CPU_TOPOLOGY, f.d, f.n);
	f.n = 0; fb32(&f, 2);
	fb32(&f, 0); fb64(&f, 98000000); fb64(&f, 12345678); fbstr(&f, "0-1,4-5");
	fb32(&f, 1); fb64(&f, 98304000); fb64(&f, 23456789); fbstr(&f, "2-3,6");
	hwprof_writer_add_feature(w, HWPROF_FEAT_NUMA_TOPOLOGY, f.d, f.n);
	f.n = 0; fb32(&f, 5);
	fb32(&f, 1); fbstr(&f, "software"); fb32(&f, 4); fbstr(&f, "cpu"); fb32(&f, 2); fbstr(&f, "tracepoint");
	fb32(&f, 10); fbstr(&f, "uncore_imc_0"); fb32(&f, 8); fbstr(&f, "intel_pt");
	hwprof_writer_add_feature(w, HWPROF_FEAT_PMU_MAPPINGS, f.d, f.n);
	f.n = 0; fb32(&f, 1); fbstr(&f, "{cpu-clock,task-clock}"); fb32(&f, 0); fb32(&f, 2);
	hwprof_writer_add_feature(w, HWPROF_FEAT_GROUP_DESC, f.d, f.n);
	f.n = 0; fb32(&f, 1); fb32(&f, 4);
	static const struct { uint32_t level, line, sets, ways; const char *type, *size, *map; } c[4] = {
		{ 1, 64, 64, 8, "Data", "32K", "0,4" }, { 1, 64, 64, 8, "Instruction", "32K", "0,4" },
		{ 2, 64, 1024, 16, "Unified", "1024K", "0,4" }, { 3, 64, 32768, 11, "Unified", "22528K", "0-1,4-5" } };
	for (int i = 0; i < 4; i++) {
		fb32(&f, c[i].level); fb32(&f, c[i].line); fb32(&f, c[i].sets); fb32(&f, c[i].ways);
		fbstr(&f, c[i].type); fbstr(&f, c[i].size); fbstr(&f, c[i].map);
	}
	hwprof_writer_add_feature(w, HWPROF_FEAT_CACHE, f.d, f.n);
	f.n = 0; fb64(&f, 1000000000ULL); fb64(&f, 3500000000ULL);
	hwprof_writer_add_feature(w, HWPROF_FEAT_SAMPLE_TIME, f.d, f.n);
	/* memory blocks of 128M: node 0 blocks 0-15 and 32, node 1 blocks 16-31 */
	f.n = 0; fb64(&f, 1); fb64(&f, 0x8000000); fb64(&f, 2);
	fb64(&f, 0); fb64(&f, 17ULL * 0x8000000); fb64(&f, 64); fb64(&f, 0x10000ffffULL);
	fb64(&f, 1); fb64(&f, 16ULL * 0x8000000); fb64(&f, 64); fb64(&f, 0xffff0000ULL);
	hwprof_writer_add_feature(w, HWPROF_FEAT_MEM_TOPOLOGY, f.d, f.n);
	f.n = 0; fb64(&f, 1);
	hwprof_writer_add_feature(w, HWPROF_FEAT_CLOCKID, f.d, f.n);
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}
/* A file from another architecture (ARCH feature `arch`, e.g. ppc64le,
 * s390x, armv7l, mips64): one sample with all 64 user and interrupt
 * register bits, named as perf names that architecture's registers. */
static void regs_arch(const char *arch)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_REGS_INTR);
	a.sample_regs_user = a.sample_regs_intr = ~0ULL;
	small_task(arch, &a);
	static uint8_t r[8 * 64];
	for (int i = 0; i < 64; i++)
		st64(r + 8 * i, 0x1000 + (uint64_t)i);
	struct hwprof_sample s = id_of(100, 4000);
	s.misc = HWPROF_MISC_USER;
	s.ip = 0x401000;
	s.period = 100000;
	s.user_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_user, .regs = r };
	s.intr_regs = (struct hwprof_regs){ .abi = 1, .mask = a.sample_regs_intr, .regs = r };
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void small_task(const char *arch, struct hwprof_attr *a)
{
	uint64_t ids[2] = { 1, 2 };
	hwprof_writer_add_evsel(w, a, "cpu-clock", ids, 2);
	features(arch);
	task_setup(a, 100, "/usr/bin/fixture");
}

static void pipe_mode(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_CALLCHAIN);
	small_task("x86_64", &a);
	uint8_t chain[16];
	st64(chain, HWPROF_CONTEXT_USER);
	st64(chain + 8, 0x401000);
	for (int k = 0; k < 5; k++) {
		struct hwprof_sample s = id_of(100, 3000 + 10 * (5 - k));
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 16 * k;
		s.period = 100000;
		s.callchain_nr = 2;
		s.callchain = chain;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void arm64(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_REGS_INTR);
	a.sample_regs_user = ((1ULL << 33) - 1) | (1ULL << 46); /* x0..x30, sp, pc, vg (SVE) */
	a.sample_regs_intr = 0x7ULL | (1ULL << 29) | (1ULL << 30) | (1ULL << 31) | (1ULL << 32);
	small_task("aarch64", &a);
	uint8_t ru[8 * 34], ri[8 * 7];
	for (int i = 0; i < 34; i++) st64(ru + 8 * i, 0xaaaa0000 + i);
	for (int i = 0; i < 7; i++) st64(ri + 8 * i, 0xffff800008000000ULL + i);
	struct hwprof_sample s = id_of(100, 4000);
	s.misc = HWPROF_MISC_USER;
	s.ip = 0x401000;
	s.period = 100000;
	s.user_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_user, .regs = ru };
	s.intr_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_intr, .regs = ri };
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void simd(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_REGS_INTR);
	a.type = HWPROF_TYPE_HARDWARE;
	a.size = HWPROF_ATTR_SIZE_VER10;
	a.sample_regs_intr = 0x3 | (1ULL << 16) | (1ULL << 24) | (1ULL << 39) | (1ULL << 40); /* AX BX R8 R16 R31 SSP */
	a.sample_regs_user = 0x3;
	a.sample_simd_regs_enabled = 1;
	a.sample_simd_vec_reg_qwords = 8;
	a.sample_simd_pred_reg_qwords = 1;
	a.sample_simd_vec_reg_intr = 0xffffffff;
	a.sample_simd_pred_reg_intr = 0xff;
	a.sample_simd_vec_reg_user = 0xffff;
	small_task("x86_64", &a);
	static uint8_t vec[8 * 8 * 32], pred[8 * 8], gi[8 * 6], gu[16];
	for (int r = 0; r < 32; r++)
		for (int q = 0; q < 8; q++)
			st64(vec + 8 * (8 * r + q), ((uint64_t)r << 8) | (uint64_t)q | 0x1100000000000000ULL);
	for (int r = 0; r < 8; r++) st64(pred + 8 * r, 0xf0 + (uint64_t)r);
	for (int i = 0; i < 6; i++) st64(gi + 8 * i, 0x100 + (uint64_t)i);
	st64(gu, 0xa); st64(gu + 8, 0xb);
	static uint8_t data[8 * (8 * 32 + 8)];
	memcpy(data, vec, sizeof(vec));
	memcpy(data + sizeof(vec), pred, sizeof(pred));
	/* 1: ZMM0-31 + OPMASK on intr, XMM (2 qwords of 16 regs) on user */
	static uint8_t udata[8 * 2 * 16];
	for (int r = 0; r < 16; r++) { st64(udata + 16 * r, 0x55000000 + (uint64_t)r); st64(udata + 16 * r + 8, 0x66000000 + (uint64_t)r); }
	struct hwprof_sample s = id_of(100, 5000);
	s.misc = HWPROF_MISC_KERNEL;
	s.ip = 0xffffffff81001000ULL;
	s.period = 100000;
	s.intr_regs = (struct hwprof_regs){ .abi = 6, .mask = a.sample_regs_intr, .regs = gi, .nr_vectors = 32,
					    .vector_qwords = 8, .nr_pred = 8, .pred_qwords = 1, .simd_data = data };
	s.user_regs = (struct hwprof_regs){ .abi = 6, .mask = a.sample_regs_user, .regs = gu, .nr_vectors = 16,
					    .vector_qwords = 2, .simd_data = udata };
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	/* 2: fewer vectors than the mask (kernel could not capture all) */
	s.time = 5010;
	s.intr_regs.nr_vectors = 2;
	s.intr_regs.nr_pred = 1;
	memcpy(data + 8 * 16, pred, 8);
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	/* 3: abi NONE on intr (exclude_kernel skid), 32-bit SIMD on user */
	s.time = 5020;
	s.intr_regs = (struct hwprof_regs){ .abi = 0, .mask = a.sample_regs_intr };
	s.user_regs.abi = 5;
	s.user_regs.nr_vectors = 1;
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void xmm(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_REGS_INTR);
	a.type = HWPROF_TYPE_HARDWARE;
	a.flags |= 3ULL << HWPROF_ATTR_PRECISE_IP; /* cycles:ppp, the PEBS way */
	/* AX, XMM0 (both qwords), XMM15 (both); user: BX, XMM1 low qword only */
	a.sample_regs_intr = 0x1 | (3ULL << 32) | (3ULL << 62);
	a.sample_regs_user = 0x2 | (1ULL << 34);
	small_task("x86_64", &a);
	uint8_t gi[8 * 5], gu[8 * 2];
	for (int i = 0; i < 5; i++) st64(gi + 8 * i, 0x1111000000000000ULL + (uint64_t)i);
	st64(gu, 0xb); st64(gu + 8, 0x2222000000000001ULL);
	for (int k = 0; k < 2; k++) {
		struct hwprof_sample s = id_of(100, 7000 + 10 * k);
		s.misc = k ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
		s.ip = k ? 0xffffffff81001000ULL : 0x401000;
		s.period = 100000;
		/* the second: exclude_kernel skid style, intr abi NONE */
		s.intr_regs = (struct hwprof_regs){ .abi = k ? 0 : 2, .mask = a.sample_regs_intr, .regs = gi };
		s.user_regs = (struct hwprof_regs){ .abi = 2, .mask = a.sample_regs_user, .regs = gu };
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	uint8_t b[8] = { 0 };
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
}

static void future(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_PERIOD);
	a.size = 200;
	uint8_t f[16] = "future feature";
	hwprof_writer_add_feature(w, 40, f, sizeof(f)); /* before any record: pipe mode writes features first */
	small_task("x86_64", &a);
	uint8_t b[64] = { 0 };
	st64(b, 0xfeed);
	kern(&a, 30, 0, b, 8, 6000);      /* a kernel type from the future */
	user_rec(99, b, 16);              /* a perf type from the future */
	struct hwprof_sample s = id_of(100, 6010);
	s.misc = HWPROF_MISC_USER;
	s.ip = 0x401000;
	s.period = 100000;
	emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	/* COMPRESSED2 (type 83, newer perf): u64 data_size, zstd data, padded */
	uint8_t inner[256];
	s.time = 6020;
	s.ip = 0x401010;
	int n1 = hwprof_build_sample(inner, sizeof(inner), &a, &s);
	s.time = 6030;
	s.ip = 0x401020;
	int n2 = hwprof_build_sample(inner + n1, sizeof(inner) - (size_t)n1, &a, &s);
	uint8_t z[512];
	size_t zn = ZSTD_compress(z, sizeof(z), inner, (size_t)(n1 + n2), 1);
	if (ZSTD_isError(zn))
		die("zstd");
	uint8_t body[600] = { 0 };
	st64(body, zn);
	memcpy(body + 8, z, zn);
	user_rec(HWPROF_RECORD_COMPRESSED2, body, (8 + zn + 7) & ~(size_t)7);
}

/* "dso:PATH@OFF,OFF,...": PATH mapped from offset 0 in one process, a
 * user sample at each offset (hex); for lookups that depend on a file
 * found on the machine (srcline of the system's libc). */
static void dso_at(const char *spec)
{
	const char *at = strrchr(spec, '@');
	if (!at || at == spec)
		die("dso:PATH@OFF,...");
	char path[4096];
	size_t pl = (size_t)(at - spec);
	if (pl >= sizeof(path))
		die("path too long");
	memcpy(path, spec, pl);
	path[pl] = 0;
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD);
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cycles", ids, 1);
	features("x86_64");
	struct hwprof_sample id = id_of(100, 10);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 100, 100, "worker", 0));
	const uint64_t base = 0x7f0000000000ULL;
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, base, 0x10000000, 0, 8, 1, 4321,
				0, 5, 2, path));
	uint64_t t = 1000;
	for (const char *p = at + 1; *p;) {
		char *end;
		uint64_t off = strtoull(p, &end, 16);
		if (end == p)
			die("bad offset");
		struct hwprof_sample s = id_of(100, t += 10);
		s.ip = base + off;
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
		p = *end == ',' ? end + 1 : end;
	}
}

/* What perf's session warns about after reading (one thing each):
 *   warn-lost       LOST, LOST_SAMPLES, AUX flags, AUXTRACE_ERRORs of
 *                   types 0 and 1, a proc-map timeout, without the STAT
 *                   records perf script stops at
 *   warn-unknownid  group reads naming an id no event has
 *   warn-unknownrec a kernel record type perf 6.1 does not know
 *   warn-badchain   a callchain longer than the record
 *   warn-guest      a guest kernel sample (no guest machine)
 *   warn-unordered  a sample older than a flushed round
 *   warn-backward   the same and a LOST record, with an event writing its
 *                   ring backward (perf then says nothing of the order) */
static void warn(const char *v)
{
	bool chain = !strcmp(v, "badchain"), group = !strcmp(v, "unknownid");
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD |
				       (chain ? HWPROF_SAMPLE_CALLCHAIN : 0) | (group ? HWPROF_SAMPLE_READ : 0));
	if (group)
		a.read_format = HWPROF_FORMAT_GROUP | HWPROF_FORMAT_ID;
	bool backward = !strcmp(v, "backward");
	if (backward) {
		a.flags |= 1ULL << HWPROF_ATTR_WRITE_BACKWARD;
		v = "unordered";
	}
	struct hwprof_attr a2 = a;
	a2.config = 1; /* task-clock */
	uint64_t ids[1] = { 1 }, ids2[1] = { 2 };
	hwprof_writer_add_evsel(w, &a, "cpu-clock", ids, 1);
	if (group)
		hwprof_writer_add_evsel(w, &a2, "task-clock", ids2, 1);
	features("x86_64");
	task_setup(&a, 100, "/usr/bin/fixture");
	uint8_t b[128] = { 0 };
	uint8_t cc[24] = { 0 }, vals[3 * 16];
	st64(cc, HWPROF_CONTEXT_USER);
	st64(cc + 8, 0x401000);
	for (int k = 0; k < 3; k++) {
		st64(vals + 16 * k, 1000 * (uint64_t)(k + 1));
		st64(vals + 8 + 16 * k, k == 2 ? 77 : (uint64_t)k + 1); /* id 77: no such event */
	}
	for (int k = 0; k < 4; k++) {
		struct hwprof_sample s = id_of(100, 2000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401000 + 16 * (uint64_t)k;
		s.period = 100000;
		if (chain) {
			s.callchain_nr = 2;
			s.callchain = cc;
		}
		if (group) {
			s.read_nr = 3;
			s.read_values = vals;
			s.read_value_stride = 16;
		}
		if (!strcmp(v, "guest") && k == 1)
			s.misc = HWPROF_MISC_GUEST_KERNEL;
		int n = hwprof_build_sample(rb, sizeof(rb), &a, &s);
		if (chain && k == 2 && n > 0)
			st64(rb + 8 + 6 * 8, 1000); /* nr, after ip, pid/tid, time, id, cpu, period */
		emit(n);
	}
	if (!strcmp(v, "lost")) {
		st64(b, 1); st64(b + 8, 7);
		kern(&a, HWPROF_RECORD_LOST, 0, b, 16, 2100);
		kern(&a, HWPROF_RECORD_LOST, 0, b, 16, 2101);
		st64(b, 3);
		kern(&a, HWPROF_RECORD_LOST_SAMPLES, 0, b, 8, 2110);
		st64(b, 0x1000); st64(b + 8, 0x2000);
		for (uint64_t f = 1; f <= 4; f++) {
			st64(b + 16, f == 4 ? 7 : f); /* truncated, overwrite, partial, all three */
			kern(&a, HWPROF_RECORD_AUX, 0, b, 24, 2120 + f);
		}
		struct hwprof_sample id = id_of(100, 2130);
		emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER | HWPROF_MISC_PROC_MAP_PARSE_TIMEOUT,
					100, 100, 0x600000, 0x1000, 0, 8, 1, 99, 0, 5, 2, "/usr/lib/libslow.so"));
	}
	if (backward) {
		st64(b, 1); st64(b + 8, 7);
		kern(&a, HWPROF_RECORD_LOST, 0, b, 16, 2100);
	}
	if (!strcmp(v, "unknownrec")) {
		st64(b, 0xfeed);
		kern(&a, 30, 0, b, 8, 2200);
	}
	if (!strcmp(v, "unordered")) {
		user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
		user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
		struct hwprof_sample s = id_of(100, 1500); /* before the flushed samples */
		s.misc = HWPROF_MISC_USER;
		s.ip = 0x401100;
		s.period = 100000;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
	user_rec(HWPROF_RECORD_FINISHED_ROUND, b, 0);
	if (!strcmp(v, "lost")) {
		/* perf's layouts: fmt 0 has the message where the time is, fmt 2
		 * adds the guest's machine_pid and vcpu after the message */
		for (uint32_t t = 0; t < 4; t++) {
			uint32_t fmt = t == 3 ? 2 : t;
			memset(b, 0, sizeof(b));
			st32(b, t % 3); st32(b + 4, 3 + t); st32(b + 8, 1); st32(b + 12, 100); st32(b + 16, 100 + t);
			st32(b + 20, fmt); st64(b + 24, 0x401000 + t);
			if (fmt)
				st64(b + 32, t == 1 ? 0 : 5000000007ULL * t);
			memcpy(b + (fmt ? 40 : 32), "fixture error", 14);
			st32(b + 104, t == 2 ? 7 : 0); st32(b + 108, t == 2 ? 1 : 0);
			user_rec(HWPROF_RECORD_AUXTRACE_ERROR, b, fmt >= 2 ? 112 : 104);
		}
	}
}

/* addresses minus __executable_start are the file's virtual addresses, as
 * a PIE mapped from offset 0 has them */
int main(int argc, char **argv);

/* Walks this program's code from fn as a CPU would with the jumps taken
 * or not at random (calls fall through, they are not followed) and
 * records up to max taken jumps, oldest first, as from/to pairs of file
 * addresses; stops at the first indirect branch or return. *end gets the
 * address after the last jump's target run (the sample's ip). */
static int walk_code(const uint8_t *fn, uint64_t *seed, uint64_t *from, uint64_t *to, int max, uint64_t *end)
{
	const uint8_t *ip = fn;
	int n = 0;
	for (int steps = 0; steps < 4000 && n < max; steps++) {
		struct hwprof_pt_insn in;
		if (hwprof_pt_insn_decode(ip, 15, (uint64_t)(uintptr_t)ip, 64, &in) <= 0)
			break;
		bool jump = in.iclass == HWPROF_PT_IC_JMP;
		if (in.iclass == HWPROF_PT_IC_JCC) {
			*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
			jump = (*seed >> 40) % 3 != 0;
		} else if (in.iclass != HWPROF_PT_IC_OTHER && in.iclass != HWPROF_PT_IC_CALL &&
			   in.iclass != HWPROF_PT_IC_JMP) {
			break;
		}
		if (!jump) {
			ip += in.len;
			continue;
		}
		from[n] = (uint64_t)(ip - (const uint8_t *)&__executable_start);
		ip = (const uint8_t *)(uintptr_t)in.target;
		to[n++] = (uint64_t)(ip - (const uint8_t *)&__executable_start);
	}
	*end = (uint64_t)(ip - (const uint8_t *)&__executable_start);
	return n;
}

/* Branch stacks as perf record -b takes them on this program's own code
 * (see walk_code): blocks of several instructions across symbols, with
 * cycles for IPC, a sample on its last branch, one whose ip lies before
 * the last target (perf then looks 128 bytes ahead), --max-blocks cuts. */
static void branch_flow(void)
{
	struct hwprof_attr a = sw_attr(HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
				       HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_BRANCH_STACK);
	a.branch_sample_type = 0x1 | 0x8; /* user, any */
	uint64_t ids[1] = { 1 };
	hwprof_writer_add_evsel(w, &a, "cycles:u", ids, 1);
	features("x86_64");
	hwprof_writer_add_feature(w, HWPROF_FEAT_BRANCH_STACK, NULL, 0);
	char self[4096];
	self_exe(self, sizeof(self));
	const uint64_t base = 0x555555554000ULL;
	/* the whole file mapped: sanitizer builds have much more code */
	FILE *fs = fopen(self, "rb");
	if (!fs || fseek(fs, 0, SEEK_END))
		die("reading /proc/self/exe");
	uint64_t size = ((uint64_t)ftell(fs) + 0xfff) & ~0xfffULL;
	fclose(fs);
	struct hwprof_sample id = id_of(100, 20);
	emit(hwprof_build_comm(rb, sizeof(rb), &a, &id, 100, 100, "flow", 0));
	emit(hwprof_build_mmap2(rb, sizeof(rb), &a, &id, HWPROF_MISC_USER, 100, 100, base, size, 0, 8, 1, 4321, 0, 5, 2,
				self));
	/* functions with loops and branches to start from */
	const uint8_t *roots[] = { (const uint8_t *)(uintptr_t)main, (const uint8_t *)(uintptr_t)branch_syms,
				   (const uint8_t *)(uintptr_t)mem, (const uint8_t *)(uintptr_t)chains };
	uint64_t seed = 777, from[32], to[32];
	uint8_t br[24 * 32];
	for (int k = 0; k < 40; k++) {
		uint64_t end;
		int n = walk_code(roots[k % 4], &seed, from, to, 2 + k % 30, &end);
		if (!n)
			continue;
		struct hwprof_sample s = id_of(100, 1000 + 10 * (uint64_t)k);
		s.misc = HWPROF_MISC_USER;
		s.period = 1000;
		s.ip = base + end;
		if (k % 7 == 3) /* the sample on the newest branch */
			s.ip = base + from[n - 1];
		else if (k % 7 == 5) /* before the newest target */
			s.ip = base + to[n - 1] - 0x10;
		s.branch_nr = (uint64_t)n;
		for (int i = 0; i < n; i++) { /* newest first */
			const int j = n - 1 - i;
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned f = (unsigned)(seed >> 40);
			uint64_t flags = (f & 3) | (f % 13 == 0 ? 4 : 0);
			flags |= (uint64_t)(f % 4 ? 1 + (f >> 4) % 60 : 0) << 4;
			st64(br + 24 * i, base + from[j]);
			st64(br + 24 * i + 8, base + to[j]);
			st64(br + 24 * i + 16, flags);
		}
		s.branches = br;
		emit(hwprof_build_sample(rb, sizeof(rb), &a, &s));
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkperfdata [pipe]allrecords|allsample|pipe|arm64|simd|future|mem|branch|group|readone|lbr|bpf|brcntr|noidall|auxsample|warn-KIND|regs-ARCH|topo|attrN|xmm|branch-syms|branch-flow|chains[-far]|exitpid|dso:PATH@OFF,.. OUT\n");
		return 2;
	}
	/* "pipeKIND" writes KIND in pipe mode ("pipe" alone: a small recording) */
	bool pipe = !strncmp(argv[1], "pipe", 4);
	const char *k = pipe && argv[1][4] ? argv[1] + 4 : argv[1];
	struct hwprof_error err;
	if (hwprof_writer_open(&w, argv[2], pipe ? HWPROF_WRITE_PIPE : HWPROF_WRITE_FILE, &err)) {
		fprintf(stderr, "mkperfdata: %s\n", err.msg);
		return 1;
	}
	if (!strcmp(k, "allrecords")) allrecords();
	else if (!strcmp(k, "allsample")) allsample();
	else if (!strcmp(k, "pipe")) pipe_mode();
	else if (!strcmp(k, "arm64")) arm64();
	else if (!strcmp(k, "simd")) simd();
	else if (!strcmp(k, "future")) future();
	else if (!strcmp(k, "mem")) mem();
	else if (!strcmp(k, "branch")) branch();
	else if (!strcmp(k, "xmm")) xmm();
	else if (!strcmp(k, "branch-syms")) branch_syms();
	else if (!strcmp(k, "branch-flow")) branch_flow();
	else if (!strcmp(k, "chains") || !strcmp(k, "chains-far")) chains(k[6] == '-');
	else if (!strcmp(k, "exitpid")) exitpid();
	else if (!strcmp(k, "kreloc") || !strcmp(k, "kreloc-bid")) kreloc(k[6] == '-');
	else if (!strcmp(k, "keys") || !strcmp(k, "keys-g")) keys(k[4] == '-');
	else if (!strcmp(k, "group")) group();
	else if (!strcmp(k, "readone")) readone();
	else if (!strcmp(k, "lbr")) lbr();
	else if (!strcmp(k, "bpf")) bpf();
	else if (!strcmp(k, "brcntr")) brcntr();
	else if (!strcmp(k, "noidall")) noidall();
	else if (!strcmp(k, "auxsample")) auxsample();
	else if (!strncmp(k, "warn-", 5)) warn(k + 5);
	else if (!strncmp(k, "regs-", 5)) regs_arch(k + 5);
	else if (!strncmp(k, "dso:", 4)) dso_at(k + 4);
	else if (!strcmp(k, "topo") || !strcmp(k, "topo-old")) topo(k[4] == '-');
	else if (!strncmp(k, "attr", 4) && atoi(k + 4) >= 64) attrsize((uint32_t)atoi(k + 4));
	else { fprintf(stderr, "mkperfdata: unknown kind %s\n", k); return 2; }
	if (hwprof_writer_close(w, &err)) {
		fprintf(stderr, "mkperfdata: %s\n", err.msg);
		return 1;
	}
	return 0;
}
