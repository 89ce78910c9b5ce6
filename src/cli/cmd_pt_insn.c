/* `hwprof pt insn`: rebuilds the executed instructions of an Intel PT trace
 * with the flow decoder and prints one address per line (or branches, or
 * every event). Input: a perf.data (-i; code from its MMAP/MMAP2 records,
 * trace from its AUXTRACE buffers, each queue decoded in turn) or raw PT
 * bytes with --maps / --image. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwprof/intel_pt_flow.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"
#include "cli/cli.h"
#include "cli/print_pt_flow.h"

struct insn_opts {
	const char *input, *raw, *maps;
	const char *images[64];
	int nimages;
	enum print_pt_flow_what what;
	int stats, noretcomp, quiet;
	struct hwprof_pt_par_opts par;
	int jobs_given;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: hwprof pt insn -i perf.data [--branches|--events] [--stats]\n"
		   "       hwprof pt insn RAW (--maps FILE | --image ELF[@BIAS]...) [--noretcomp]\n"
		   "  --maps FILE   lines 'start end pgoff path' (hex), as pt_emulate writes\n"
		   "  --branches    print 'from => to' per taken branch (0: trace begin/end)\n"
		   "  --events      print every decoder event\n"
		   "  --stats       decode statistics on stderr\n"
		   "  --quiet       decode only, print nothing (with --stats: speed)\n"
		   "  -j, --jobs N  decode on N threads (default 1; 0: every online CPU);\n"
		   "                the output is the serial decoder's either way\n"
		   "  --segment B   parallel decode: cut the trace at the first PSB after\n"
		   "                every B bytes (default 65536)\n");
}

static int parse(int argc, char **argv, struct insn_opts *o)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-i") || !strcmp(a, "--maps") || !strcmp(a, "--image")) {
			if (i + 1 >= argc)
				return cli_usage_error("pt", "%s needs a value", a);
			const char *v = argv[++i];
			if (a[1] == 'i')
				o->input = v;
			else if (a[2] == 'm')
				o->maps = v;
			else if (o->nimages < 64)
				o->images[o->nimages++] = v;
			else
				return cli_usage_error("pt", "too many --image");
		} else if (!strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--segment")) {
			char *end;
			if (i + 1 >= argc)
				return cli_usage_error("pt", "%s needs a number", a);
			unsigned long long v = strtoull(argv[++i], &end, 0);
			int jobs = a[1] != '-' || a[2] == 'j';
			if (*end || !argv[i][0] || (!v && !jobs) || (jobs ? v > 64 : v > (1ULL << 40)))
				return cli_usage_error("pt", "bad value '%s' for %s", argv[i], a);
			if (!strcmp(a, "--segment"))
				o->par.segment_bytes = (size_t)v;
			else
				o->par.nthreads = v ? (unsigned)v : 0;
			o->jobs_given = 1;
		} else if (!strcmp(a, "--branches")) {
			o->what = PRINT_PT_BRANCH;
		} else if (!strcmp(a, "--events")) {
			o->what = PRINT_PT_EVENTS;
		} else if (!strcmp(a, "--stats")) {
			o->stats = 1;
		} else if (!strcmp(a, "--quiet")) {
			o->quiet = 1;
		} else if (!strcmp(a, "--noretcomp")) {
			o->noretcomp = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("pt", "unknown option '%s'", a);
		} else if (!o->raw) {
			o->raw = a;
		} else {
			return cli_usage_error("pt", "more than one FILE given");
		}
	}
	if (!!o->input == !!o->raw)
		return cli_usage_error("pt", "give either -i perf.data or a raw trace file");
	if (o->raw && !o->maps && !o->nimages)
		return cli_usage_error("pt", "a raw trace needs --maps or --image");
	return 0;
}

static int read_all(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return cli_error("pt", "%s: offset 0x0: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	for (;;) {
		if (!b) {
			fclose(f);
			return cli_error("pt", "%s: out of memory", path);
		}
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *nb = realloc(b, cap * 2);
		if (!nb)
			free(b);
		b = nb;
		cap *= 2;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static int load_maps(struct hwprof_pt_image *img, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return cli_error("pt", "%s: %s", path, strerror(errno));
	char line[4352], file[4097];
	unsigned long long s, e, off;
	int ret = 0, lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, "%llx %llx %llx %4096s", &s, &e, &off, file) != 4 || e <= s) {
			ret = cli_error("pt", "%s:%d: expected 'start end pgoff path'", path, lineno);
			break;
		}
		int r = hwprof_pt_image_add_file(img, file, off, e - s, s);
		if (r < 0) {
			ret = cli_error("pt", "%s: %s", file, hwprof_strerror(r));
			break;
		}
	}
	fclose(f);
	return ret;
}

static int load_image(struct hwprof_pt_image *img, const char *spec)
{
	char path[4096];
	uint64_t bias = 0;
	const char *at = strrchr(spec, '@');
	size_t n = at ? (size_t)(at - spec) : strlen(spec);
	if (n >= sizeof(path))
		return cli_error("pt", "image path too long");
	memcpy(path, spec, n);
	path[n] = 0;
	if (at) {
		char *end;
		errno = 0;
		bias = strtoull(at + 1, &end, 0);
		if (*end || errno)
			return cli_usage_error("pt", "bad --image bias '%s'", at + 1);
	}
	int r = hwprof_pt_image_add_elf(img, path, bias);
	if (r <= 0)
		return cli_error("pt", "%s: %s", path, r < 0 ? hwprof_strerror(r) :
			"no executable segment");
	return 0;
}

#define MAX_QUEUES 256

/* One trace stream: the AUXTRACE buffers of one mmap index (a CPU in
 * per-cpu mode, a thread in per-thread mode), in file order. */
struct queue {
	uint8_t *buf;
	size_t len, cap;
};

/* MMAP/MMAP2 -> image, AUXTRACE data -> a buffer per queue, AUXTRACE_INFO
 * -> decoder configuration. */
static int load_perfdata(const struct insn_opts *o, struct hwprof_pt_image *img,
			 struct queue *qs, struct hwprof_pt_flow_config *cfg)
{
	struct hwprof_perfdata *h;
	int r = hwprof_perfdata_open(&h, o->input, NULL);
	if (r < 0)
		return cli_error("pt", "%s: %s", o->input, hwprof_strerror(r));
	struct hwprof_record rec;
	uint64_t pmu_type = ~0ULL, noretcomp_bit = 0, mtc_bits = 0;
	int ret = 0;
	while ((r = hwprof_perfdata_next(h, &rec)) == 1) {
		const uint8_t *d = rec.data;
		if ((rec.type == 1 && rec.size > 40) || (rec.type == 10 && rec.size > 72)) {
			size_t fo = rec.type == 1 ? 40 : 72;
			char file[4096];
			size_t fl = strnlen((const char *)d + fo, rec.size - fo);
			if (fl >= sizeof(file))
				continue;
			memcpy(file, d + fo, fl);
			file[fl] = 0;
			if (file[0] == '/')
				hwprof_pt_image_add_file(img, file, ld64(d + 32), ld64(d + 24),
							 ld64(d + 16));
		} else if (rec.type == 70 && rec.size >= 16 + 9 * 8 && ld32(d + 8) == 1) {
			unsigned nr = (rec.size - 16) / 8;
			pmu_type = ld64(d + 16);
			cfg->time_conv.time_shift = (uint16_t)ld64(d + 16 + 1 * 8);
			cfg->time_conv.time_mult = (uint32_t)ld64(d + 16 + 2 * 8);
			cfg->time_conv.time_zero = ld64(d + 16 + 3 * 8);
			noretcomp_bit = ld64(d + 16 + 6 * 8);
			if (nr > 11)
				mtc_bits = ld64(d + 16 + 11 * 8);
			if (nr > 13) {
				cfg->tsc_ctc_n = (uint32_t)ld64(d + 16 + 12 * 8);
				cfg->tsc_ctc_d = (uint32_t)ld64(d + 16 + 13 * 8);
			}
			if (nr > 15)
				cfg->max_nonturbo_ratio = (unsigned)ld64(d + 16 + 15 * 8);
		} else if (rec.type == 71 && rec.size >= 48 && rec.payload && rec.payload_size) {
			uint32_t idx = ld32(d + 32);
			if (idx >= MAX_QUEUES) {
				ret = cli_error("pt", "%s: offset %#" PRIx64 ": AUXTRACE idx %u "
						"(more than %d queues)", o->input, rec.offset, idx,
						MAX_QUEUES);
				break;
			}
			struct queue *q = &qs[idx];
			size_t n = (size_t)rec.payload_size;
			if (q->len + n > q->cap) {
				size_t c = q->cap ? q->cap : 1 << 16;
				while (c < q->len + n)
					c *= 2;
				uint8_t *p = realloc(q->buf, c);
				if (!p) {
					ret = cli_error("pt", "out of memory");
					break;
				}
				q->buf = p;
				q->cap = c;
			}
			memcpy(q->buf + q->len, rec.payload, n);
			q->len += n;
		}
	}
	if (r < 0 && !ret)
		ret = cli_error("pt", "%s: offset %#" PRIx64 ": %s", o->input,
				hwprof_perfdata_error(h)->offset, hwprof_perfdata_error(h)->msg);
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++) {
		const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, i);
		if (ev->attr.type != pmu_type)
			continue;
		if (ev->attr.config & noretcomp_bit)
			cfg->flags |= HWPROF_PT_FLOW_NORETCOMP;
		if (mtc_bits)
			cfg->mtc_freq = (unsigned)((ev->attr.config & mtc_bits) >>
						   __builtin_ctzll(mtc_bits));
	}
	hwprof_perfdata_close(h);
	return ret;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct totals {
	uint64_t ninsn, nev, nerr, bytes;
	double secs;
	struct hwprof_pt_par_stats par;
};

struct sink {
	const struct insn_opts *o;
	struct totals *t;
};

static int on_event(void *ctx, const struct hwprof_pt_event *ev)
{
	struct sink *k = ctx;
	k->t->nev++;
	if (ev->type == HWPROF_PT_EV_BLOCK)
		k->t->ninsn += ev->ninsn;
	if (ev->type == HWPROF_PT_EV_ERROR)
		k->t->nerr++;
	if (!k->o->quiet)
		print_pt_flow_event(stdout, k->o->what, ev);
	return 0;
}

static int decode(const struct insn_opts *o, const uint8_t *buf, size_t len,
		  struct hwprof_pt_image *img, const struct hwprof_pt_flow_config *cfg,
		  struct totals *t)
{
	struct sink k = { o, t };
	struct hwprof_pt_par_stats ps;
	double t0 = now();
	int r = hwprof_pt_flow_decode_parallel(buf, len, img, cfg, &o->par, on_event, &k, &ps);
	if (r < 0)
		return cli_error("pt", "decoding: %s", hwprof_strerror(r));
	t->secs += now() - t0;
	t->bytes += len;
	t->par.segments += ps.segments;
	t->par.joins += ps.joins;
	t->par.reruns += ps.reruns;
	return 0;
}

int cmd_pt_insn(int argc, char **argv)
{
	struct insn_opts o = { 0 };
	int ret = parse(argc, argv, &o);
	if (ret)
		return ret;
	if (!o.jobs_given)
		o.par.nthreads = 1; /* parallel only when asked: it costs CPU */
	struct hwprof_pt_image *img;
	if (hwprof_pt_image_new(&img) < 0)
		return cli_error("pt", "out of memory");
	struct hwprof_pt_flow_config cfg = { 0 };
	struct totals t = { 0 };
	if (o.input) {
		/* queues are decoded one after the other, in index order */
		struct queue *qs = calloc(MAX_QUEUES, sizeof(*qs));
		ret = qs ? load_perfdata(&o, img, qs, &cfg) : cli_error("pt", "out of memory");
		for (size_t i = 0; !ret && i < MAX_QUEUES; i++)
			if (qs[i].len)
				ret = decode(&o, qs[i].buf, qs[i].len, img, &cfg, &t);
		for (size_t i = 0; qs && i < MAX_QUEUES; i++)
			free(qs[i].buf);
		free(qs);
	} else {
		uint8_t *trace = NULL;
		size_t tlen = 0;
		ret = read_all(o.raw, &trace, &tlen);
		if (!ret && o.maps)
			ret = load_maps(img, o.maps);
		for (int i = 0; !ret && i < o.nimages; i++)
			ret = load_image(img, o.images[i]);
		if (o.noretcomp)
			cfg.flags |= HWPROF_PT_FLOW_NORETCOMP;
		if (!ret)
			ret = decode(&o, trace, tlen, img, &cfg, &t);
		free(trace);
	}
	if (!ret && fflush(stdout) != 0)
		ret = cli_error("pt", "writing output: %s", strerror(errno));
	if (!ret && o.stats)
		fprintf(stderr, "%" PRIu64 " trace bytes, %" PRIu64 " events, %" PRIu64
			" instructions, %" PRIu64 " errors, %.3f s (%.1f M insn/s)\n", t.bytes,
			t.nev, t.ninsn, t.nerr, t.secs,
			t.secs > 0 ? t.ninsn / t.secs / 1e6 : 0.0);
	if (!ret && o.stats && t.par.segments)
		fprintf(stderr, "parallel: %zu segments, %zu joined, %zu decoded again serially\n",
			t.par.segments, t.par.joins, t.par.reruns);
	hwprof_pt_image_free(img);
	return ret;
}
