/* pt_emulate: runs a program under the library's ptrace PT emulator and
 * writes PREFIX.raw (PT bytes), PREFIX.gt (ground truth: one executed
 * instruction address per line, hex), PREFIX.maps ("start end pgoff path"
 * per executable mapping) and PREFIX.data, a perf.data that perf 6.1
 * decodes with --itrace (layout and pitfalls: docs/intel-pt-notes.md §2).
 * Threads after the first get PREFIX.tN.raw / PREFIX.tN.gt (N = 1, 2, ...),
 * PREFIX.tids lists "N tid" per thread, and the perf.data holds one
 * AUXTRACE buffer per thread (per-thread mode: idx N, that tid, cpu -1).
 * --repeat N writes each thread's trace N times in a row (one AUXTRACE
 * buffer each: large inputs for benchmarks).
 * --time-zero sets AUXTRACE_INFO's cap_user_time_zero, so that perf decodes
 * a --timing trace with timestamps (without it perf decodes timeless).
 * Usage: pt_emulate [--noretcomp] [--long-tnt] [--timing] [--time-zero] [--defer-tip] [--psb N]
 *                   [--max N] PREFIX PROG [ARGS...] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt_flow.h"

struct out {
	unsigned char *b;
	size_t pos, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->pos + n > o->cap) {
		size_t c = o->cap ? o->cap * 2 : 1 << 16;
		while (c < o->pos + n)
			c *= 2;
		o->b = realloc(o->b, c);
		if (!o->b) {
			perror("pt_emulate");
			exit(1);
		}
		o->cap = c;
	}
	memcpy(o->b + o->pos, p, n);
	o->pos += n;
}
static void u16(struct out *o, uint16_t v) { put(o, &v, 2); }
static void u32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void u64(struct out *o, uint64_t v) { put(o, &v, 8); }
static void pad8(struct out *o) { while (o->pos % 8) put(o, "", 1); }

/* sample_id trailer for sample_type TID|TIME|IDENTIFIER: pid, tid, time, id */
static void trailer(struct out *o, uint32_t pid, uint32_t tid)
{
	u32(o, pid); u32(o, tid); u64(o, 0); u64(o, 42);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void perf_data(const char *path, const struct hwprof_pt_emu_result *r, uint64_t config,
		      unsigned timing, int time_zero, unsigned repeat)
{
	struct out o = { 0 };
	const uint64_t attr_off = 104, ids_off = 104 + 144, data_off = 256;
	uint32_t pid = (uint32_t)r->pid;

	put(&o, "PERFILE2", 8);
	u64(&o, 104); u64(&o, 144);
	u64(&o, attr_off); u64(&o, 144);
	u64(&o, data_off); u64(&o, 0); /* data size patched below */
	u64(&o, 0); u64(&o, 0);
	for (int i = 0; i < 4; i++) u64(&o, 0);

	/* intel_pt attr (type 8 = PMU_TYPE below): sample IP|TID|TIME|IDENTIFIER;
	 * disabled, exclude_kernel, exclude_hv, enable_on_exec, sample_id_all */
	u32(&o, 8); u32(&o, 128); u64(&o, config); u64(&o, 0); u64(&o, 0x10007); u64(&o, 0);
	u64(&o, 1 | 0x20 | 0x40 | 0x1000 | 0x40000);
	while (o.pos < attr_off + 128) u64(&o, 0);
	u64(&o, ids_off); u64(&o, 8);
	u64(&o, 42);

	/* AUXTRACE_INFO, 17 fields */
	u32(&o, 70); u16(&o, 0); u16(&o, 16 + 17 * 8); u32(&o, 1); u32(&o, 0);
	/* time: shift 1, mult 1 -> perf time = TSC / 2 (fake clocks) */
	uint64_t priv[17] = { 8, timing ? 1 : 0, timing ? 1 : 0, 0, time_zero, 0x400, 0x800, 0, 0, 0,
			      0x200, 0x3c000, timing ? 32 : 0, timing ? 1 : 0, 0x2, 0, 0 };
	put(&o, priv, sizeof(priv));

	/* COMM per thread (perf learns the threads' pid from them) */
	size_t cl = strlen(r->comm) + 1, cpad = (cl + 7) & ~(size_t)7;
	for (size_t t = 0; t < r->nthreads; t++) {
		uint32_t tid = (uint32_t)r->threads[t].tid;
		u32(&o, 3); u16(&o, 0); u16(&o, (uint16_t)(8 + 8 + cpad + 24));
		u32(&o, pid); u32(&o, tid);
		put(&o, r->comm, cl);
		pad8(&o);
		trailer(&o, pid, tid);
	}

	/* MMAP2 per executable mapping, time 0 (pitfall 5) */
	for (size_t i = 0; i < r->nmaps; i++) {
		const struct hwprof_pt_emu_map *m = &r->maps[i];
		size_t pl = strlen(m->path) + 1, ppad = (pl + 7) & ~(size_t)7;
		u32(&o, 10); u16(&o, 2 /* MISC_USER */); u16(&o, (uint16_t)(8 + 64 + ppad + 24));
		u32(&o, pid); u32(&o, pid);
		u64(&o, m->start); u64(&o, m->end - m->start); u64(&o, m->pgoff);
		u32(&o, 0); u32(&o, 0); u64(&o, 0); u64(&o, 0);
		u32(&o, 5); u32(&o, 2);
		put(&o, m->path, pl);
		pad8(&o);
		trailer(&o, pid, pid);
	}

	/* AUXTRACE: one buffer per thread (perf wants buffers split at PSBs,
	 * pitfall 7: each holds a whole thread's trace); with repeat > 1 the
	 * same buffer follows itself (large traces for benchmarks) */
	size_t nthr = r->nthreads < 64 ? r->nthreads : 64, nbuf = nthr * repeat;
	uint64_t *aux_off = malloc(nbuf * sizeof(*aux_off));
	if (!aux_off) {
		perror("pt_emulate");
		exit(1);
	}
	for (size_t t = 0, k = 0; t < nthr; t++) {
		const struct hwprof_pt_emu_thread *th = &r->threads[t];
		size_t padded = (th->trace_len + 7) & ~(size_t)7;
		for (unsigned rep = 0; rep < repeat; rep++) {
			aux_off[k++] = o.pos;
			u32(&o, 71); u16(&o, 0); u16(&o, 48);
			u64(&o, padded); u64(&o, (uint64_t)rep * padded); u64(&o, 0x1234 + t);
			u32(&o, (uint32_t)t);
			u32(&o, (uint32_t)th->tid); u32(&o, 0xffffffff); u32(&o, 0);
			put(&o, th->trace, th->trace_len);
			pad8(&o);
		}
	}

	uint64_t dsize = o.pos - data_off;
	memcpy(o.b + 48, &dsize, 8);

	/* HEADER_AUXTRACE (feature 18), as perf record writes it: its index of
	 * {file offset, 48} per AUXTRACE record. perf 6.1 accepts -F addr and
	 * flags for the synthesized events only when it is there (pitfall 4). */
	uint64_t feat_off = o.pos + 16, feat_size = 8 + 16 * nbuf;
	u64(&o, feat_off); u64(&o, feat_size);
	u64(&o, nbuf);
	for (size_t k = 0; k < nbuf; k++) {
		u64(&o, aux_off[k]); u64(&o, 48);
	}
	free(aux_off);
	uint64_t bits = 1ULL << 18;
	memcpy(o.b + 72, &bits, 8);
	write_file(path, o.b, o.pos);
	free(o.b);
}

int main(int argc, char **argv)
{
	struct hwprof_pt_emu_config cfg = { .mtc_freq = 3 };
	int i = 1, time_zero = 0;
	unsigned repeat = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--noretcomp"))
			cfg.flags |= HWPROF_PT_EMU_NORETCOMP;
		else if (!strcmp(argv[i], "--long-tnt"))
			cfg.flags |= HWPROF_PT_EMU_LONG_TNT;
		else if (!strcmp(argv[i], "--timing"))
			cfg.flags |= HWPROF_PT_EMU_TIMING;
		else if (!strcmp(argv[i], "--time-zero"))
			time_zero = 1; /* cap_user_time_zero: perf decodes with timestamps */
		else if (!strcmp(argv[i], "--defer-tip"))
			cfg.flags |= HWPROF_PT_EMU_DEFER_TIP;
		else if (!strcmp(argv[i], "--psb") && i + 1 < argc)
			cfg.psb_period = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = (unsigned)strtoul(argv[++i], NULL, 0) ? (unsigned)strtoul(argv[i], NULL, 0) : 1;
		else if (!strcmp(argv[i], "--max") && i + 1 < argc)
			cfg.max_steps = strtoull(argv[++i], NULL, 0);
		else
			break;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: pt_emulate [--noretcomp] [--long-tnt] [--timing] [--time-zero] [--defer-tip] [--psb N] "
				"[--max N] PREFIX PROG [ARGS...]\n");
		return 2;
	}
	const char *prefix = argv[i];
	struct hwprof_pt_emu_result r;
	int ret = hwprof_pt_emulate(argv + i + 1, &cfg, &r);
	if (ret < 0) {
		fprintf(stderr, "pt_emulate: %s\n", hwprof_strerror(ret));
		return 1;
	}
	char path[4096];
	FILE *f;
	snprintf(path, sizeof(path), "%s.tids", prefix);
	FILE *tids = fopen(path, "w");
	if (!tids) {
		perror(path);
		return 1;
	}
	size_t total = 0;
	for (size_t t = 0; t < r.nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r.threads[t];
		char base[3072];
		if (t)
			snprintf(base, sizeof(base), "%s.t%zu", prefix, t);
		else
			snprintf(base, sizeof(base), "%s", prefix);
		snprintf(path, sizeof(path), "%s.raw", base);
		write_file(path, th->trace, th->trace_len);
		snprintf(path, sizeof(path), "%s.gt", base);
		f = fopen(path, "w");
		for (size_t k = 0; f && k < th->ninsn; k++)
			fprintf(f, "%" PRIx64 "\n", th->insns[k]);
		if (!f || fclose(f)) {
			perror(path);
			return 1;
		}
		fprintf(tids, "%zu %d\n", t, th->tid);
		total += th->ninsn;
	}
	if (fclose(tids))
		return 1;
	snprintf(path, sizeof(path), "%s.maps", prefix);
	f = fopen(path, "w");
	for (size_t k = 0; f && k < r.nmaps; k++)
		fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIx64 " %s\n", r.maps[k].start,
			r.maps[k].end, r.maps[k].pgoff, r.maps[k].path);
	if (!f || fclose(f)) {
		perror(path);
		return 1;
	}
	uint64_t config = 0x2001;
	if (cfg.flags & HWPROF_PT_EMU_NORETCOMP)
		config |= 0x800;
	if (cfg.flags & HWPROF_PT_EMU_TIMING) /* tsc, mtc, mtc_period, cyc: perf decodes timed */
		config |= 0x400 | 0x200 | ((uint64_t)cfg.mtc_freq << 14) | 0x2;
	snprintf(path, sizeof(path), "%s.data", prefix);
	perf_data(path, &r, config, cfg.flags & HWPROF_PT_EMU_TIMING, time_zero, repeat);
	fprintf(stderr, "pt_emulate: %zu threads, %zu instructions, %zu maps%s\n", r.nthreads,
		total, r.nmaps, r.truncated ? " (truncated)" : "");
	hwprof_pt_emu_result_free(&r);
	return 0;
}
