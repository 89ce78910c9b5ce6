/* pt_info_perfdata: a perf.data whose intel_pt AUXTRACE_INFO comes from
 * the library's builder (hwprof_pt_auxtrace_info) for the intel_pt PMU of
 * a sysfs tree, written with the library's writer, around a trace made by
 * pt_emulate (PREFIX.raw, PREFIX.maps, PREFIX.tids), so perf 6.1 can dump
 * the record and decode the trace with --itrace.
 * Usage: pt_info_perfdata SYSFS_ROOT PREFIX OUT.data [--filter TEXT]
 *                         [--snapshot] [--switch N] [--ctc N/D] [--time SHIFT,MULT,ZERO]
 * --filter takes perf's --filter grammar (resolved like hwprof record). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt_cfg.h"
#include "hwprof/perfdata_write.h"

struct fixed { uint32_t n, d; struct hwprof_pt_time t; };

static void fixed_cpuid(void *ctx, uint32_t *eax, uint32_t *ebx)
{
	const struct fixed *f = ctx;
	*eax = f->d;
	*ebx = f->n;
}

static int fixed_time(void *ctx, struct hwprof_pt_time *t)
{
	*t = ((const struct fixed *)ctx)->t;
	return 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	*len = n;
	return b;
}

static int die(const char *what)
{
	fprintf(stderr, "pt_info_perfdata: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: pt_info_perfdata SYSFS_ROOT PREFIX OUT.data [--filter TEXT] [--snapshot] "
				"[--switch N] [--ctc N/D] [--time SHIFT,MULT,ZERO]\n");
		return 2;
	}
	struct fixed fx = { .n = 0, .d = 0 };
	struct hwprof_pt_info_opts io = { .per_cpu_mmaps = false };
	const char *filter_text = NULL;
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--filter") && i + 1 < argc)
			filter_text = argv[++i];
		else if (!strcmp(argv[i], "--snapshot"))
			io.snapshot_mode = true;
		else if (!strcmp(argv[i], "--switch") && i + 1 < argc)
			io.have_sched_switch = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--ctc") && i + 1 < argc)
			sscanf(argv[++i], "%" SCNu32 "/%" SCNu32, &fx.n, &fx.d);
		else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
			unsigned s = 0;
			sscanf(argv[++i], "%u,%" SCNu32 ",%" SCNu64, &s, &fx.t.time_mult, &fx.t.time_zero);
			fx.t.time_shift = (uint16_t)s;
			fx.t.cap_user_time_zero = fx.t.time_mult != 0;
		} else
			return die("bad option");
	}

	struct hwprof_pmus *pmus;
	struct hwprof_pmu_config pc = { .sysfs_root = argv[1] };
	if (hwprof_pmus_open(&pmus, &pc) < 0)
		return die("cannot read the sysfs tree");
	const struct hwprof_pmu *pt = hwprof_pmus_find(pmus, "intel_pt");
	if (!pt)
		return die("no intel_pt PMU in the tree");
	char filter[8192] = "", msg[4096];
	if (filter_text && hwprof_pt_filter_build(pt, filter_text, 0, filter, sizeof(filter), msg, sizeof(msg)) < 0) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	io.filter = filter;

	char path[4096];
	size_t rawlen = 0;
	snprintf(path, sizeof(path), "%s.raw", argv[2]);
	unsigned char *raw = slurp(path, &rawlen);
	if (!raw)
		return die("cannot read PREFIX.raw");
	snprintf(path, sizeof(path), "%s.tids", argv[2]);
	FILE *f = fopen(path, "r");
	int tid = 0, idx = 0;
	if (!f || fscanf(f, "%d %d", &idx, &tid) != 2 || !tid)
		return die("cannot read PREFIX.tids");
	fclose(f);

	/* the intel_pt event: pass-through and branches, no tsc (the emulated
	 * trace has no timing), as perf's timeless decode expects */
	struct hwprof_attr a;
	memset(&a, 0, sizeof(a));
	a.type = pt->type;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.config = hwprof_pt_term_bits(pt, "pt") | hwprof_pt_term_bits(pt, "branch");
	a.sample_period = 1;
	a.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_IDENTIFIER;
	a.flags = 1ULL << HWPROF_ATTR_DISABLED | 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL | 1ULL << HWPROF_ATTR_EXCLUDE_HV |
		  1ULL << HWPROF_ATTR_ENABLE_ON_EXEC | 1ULL << HWPROF_ATTR_SAMPLE_ID_ALL;
	uint64_t id = 42;
	struct hwprof_writer *w;
	struct hwprof_error err;
	if (hwprof_writer_open(&w, argv[3], HWPROF_WRITE_FILE, &err) < 0 ||
	    hwprof_writer_add_evsel(w, &a, "intel_pt//u", &id, 1) < 0)
		return die("cannot open the output");

	struct hwprof_pt_info_src src = { fixed_cpuid, fixed_time, &fx };
	uint8_t body[16384], rec[16400];
	int n = hwprof_pt_auxtrace_info(pt, &io, &src, body, sizeof(body));
	int rn = n < 0 ? n : hwprof_build_user_record(rec, sizeof(rec), 70, body, (size_t)n);
	if (rn < 0 || hwprof_writer_write(w, rec, (size_t)rn) < 0)
		return die("cannot write AUXTRACE_INFO");

	struct hwprof_sample sid;
	memset(&sid, 0, sizeof(sid));
	sid.pid = sid.tid = (uint32_t)tid;
	sid.id = id;
	char comm[256] = "prog";
	snprintf(path, sizeof(path), "%s.maps", argv[2]);
	f = fopen(path, "r");
	if (!f)
		return die("cannot read PREFIX.maps");
	char line[4608];
	int first = 1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t s, e, pg;
		char file[4096];
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %4095s", &s, &e, &pg, file) != 4)
			continue;
		if (first) { /* COMM first: perf learns the pid from it */
			const char *base = strrchr(file, '/');
			snprintf(comm, sizeof(comm), "%.15s", base ? base + 1 : file);
			rn = hwprof_build_comm(rec, sizeof(rec), &a, &sid, (uint32_t)tid, (uint32_t)tid, comm, 0);
			if (rn < 0 || hwprof_writer_write(w, rec, (size_t)rn) < 0)
				return die("cannot write COMM");
			first = 0;
		}
		rn = hwprof_build_mmap2(rec, sizeof(rec), &a, &sid, 2, (uint32_t)tid, (uint32_t)tid, s, e - s, pg, 0, 0,
					0, 0, 5, 2, file);
		if (rn < 0 || hwprof_writer_write(w, rec, (size_t)rn) < 0)
			return die("cannot write MMAP2");
	}
	fclose(f);
	if (hwprof_writer_write_auxtrace(w, 0, 0x1234, 0, tid, -1, raw, rawlen) < 0 ||
	    hwprof_writer_close(w, &err) < 0)
		return die("cannot finish the output");
	free(raw);
	hwprof_pmus_close(pmus);
	return 0;
}
