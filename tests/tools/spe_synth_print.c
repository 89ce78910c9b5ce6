/* spe_synth_print: runs the library's Arm SPE sample synthesis over a
 * perf.data and prints the samples as `perf script -F ...` does, so tests
 * can diff against Debian perf 6.1 (the real `hwprof script` lives in the
 * CLI; this tool shares its line printer, src/cli/print_spe_samples.c).
 *   spe_synth_print [--itrace[=STR]] [-F fields] [--counts] [--quiet] FILE
 * --counts prints "<n> <event>" per synthesized event instead of lines;
 * --quiet prints only the totals (for benchmarks). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/print_spe_samples.c" /* CLI printer; the tool links only the library */
#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/session.h"
#include "util/bytes.h"

struct tool {
	struct hwprof_session *sess;
	struct hwprof_perfdata *h;
	const uint8_t *file;
	size_t file_len;
	struct hwprof_spe_synth *synth;
	struct script_fmt fmt;
	struct hwprof_itrace_opts itrace;
	int counts, quiet;
	uint64_t nsamples[HWPROF_SPE_G_NR];
	int32_t pids[1 << 16];    /* tid -> pid from COMM/FORK (tids < 65536) */
	/* last lookups (samples come in runs of one thread and one DSO) */
	int32_t c_pid, c_tid;
	const char *c_comm;
	int32_t m_pid;
	unsigned m_mode;
	struct hwprof_map_info m;
	uint64_t gen, c_gen, m_gen; /* bumped by COMM/FORK/MMAP records */
};

static int32_t tool_thread_pid(void *ctx, int32_t tid)
{
	struct tool *t = ctx;

	return tid >= 0 && tid < (1 << 16) ? t->pids[tid] : -1;
}

static const char *tool_comm(void *ctx, int32_t pid, int32_t tid)
{
	struct tool *t = ctx;

	if (t->c_comm && t->c_gen == t->gen && t->c_pid == pid && t->c_tid == tid)
		return t->c_comm;
	t->c_comm = hwprof_session_thread_comm(t->sess, pid, tid);
	t->c_pid = pid;
	t->c_tid = tid;
	t->c_gen = t->gen;
	return t->c_comm;
}

static void tool_sym(void *ctx, const struct hwprof_spe_sample *s, unsigned f, char *buf, size_t size)
{
	struct tool *t = ctx;
	struct hwprof_map_info m;
	char level;
	int found;

	if (t->m_gen == t->gen && t->m.dso && t->m_pid == s->pid && t->m_mode == s->cpumode &&
	    s->ip >= t->m.start && s->ip < t->m.end) {
		m = t->m;
		found = 1;
	} else {
		found = hwprof_session_find_map(t->sess, s->pid, s->tid, s->cpumode, s->ip, &m, &level);
		if (found == 1) {
			t->m = m;
			t->m_pid = s->pid;
			t->m_mode = s->cpumode;
			t->m_gen = t->gen;
		}
	}

	/* no symbol tables here: perf prints [unknown] for the symbol */
	snprintf(buf, size, "%s%s%s%s", f & SCRIPT_F_SYM ? " [unknown]" : "", f & SCRIPT_F_DSO ? " (" : "",
		 f & SCRIPT_F_DSO ? (found == 1 ? m.dso : "[unknown]") : "", f & SCRIPT_F_DSO ? ")" : "");
}

static int tool_emit(void *ctx, const struct hwprof_spe_sample *s)
{
	struct tool *t = ctx;

	t->nsamples[s->group]++;
	if (!t->counts && !t->quiet)
		script_print_spe_sample(stdout, &t->fmt, s);
	return 0;
}

static void die(const char *what)
{
	fprintf(stderr, "spe_synth_print: %s\n", what);
	exit(1);
}

static void queue_buffer(struct tool *t, uint64_t rec_off)
{
	const uint8_t *r;

	if (rec_off + 48 > t->file_len || ld32(t->file + rec_off) != HWPROF_RECORD_AUXTRACE)
		die("bad AUXTRACE index entry");
	r = t->file + rec_off;
	uint64_t size = ld64(r + 8);
	if (size > t->file_len - rec_off - 48)
		die("AUXTRACE data past the end");
	if (hwprof_spe_synth_add_buffer(t->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36),
					r + 48, size, rec_off + 48))
		die("add_buffer");
}

/* perf 6.1 at AUXTRACE_INFO: settings from the file, synthesized events. */
static void start_synth(struct tool *t, const struct hwprof_record *rec, const struct hwprof_tsc_conv *tc,
			int have_tc)
{
	struct hwprof_spe_synth_config cfg;
	struct hwprof_spe_info info;
	const struct hwprof_evsel *spe = NULL;
	const uint8_t *cpuid;
	uint64_t cpuid_size, off;
	char cpuid_str[128] = "";
	uint32_t n = hwprof_perfdata_nr_evsels(t->h);
	int name_w = 0;
	char nb[256];

	if (rec->size < 16 || (rec->size - 16) % 8)
		die("bad AUXTRACE_INFO");
	{
		uint64_t priv[64];
		size_t np = (size_t)(rec->size - 16) / 8;
		if (np > 64)
			np = 64;
		memcpy(priv, rec->data + 16, np * 8);
		if (hwprof_spe_info_parse(priv, np, &info, NULL, 0, NULL))
			die("bad arm_spe AUXTRACE_INFO");
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.itrace = t->itrace;
	cfg.timeless = true;
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(t->h, i);
		const char *nm = hwprof_evsel_name(e, nb, sizeof(nb));

		if (e->attr.sample_type & HWPROF_SAMPLE_TIME)
			cfg.timeless = false;
		if (!spe && e->attr.type == info.pmu_type)
			spe = e;
		if (nm && (int)strlen(nm) > name_w)
			name_w = (int)strlen(nm);
	}
	if (!spe || !spe->nr_ids)
		die("no SPE event with ids");
	if (!cfg.timeless && (!have_tc || !tc->time_mult))
		die("TIME_CONV missing");
	if (have_tc)
		cfg.tc = *tc;
	/* perf: strtol(cpuid, 16); without the feature the local (x86) cpuid -> 0 */
	if (hwprof_perfdata_feature(t->h, HWPROF_FEAT_CPUID, &cpuid, &cpuid_size, &off) == 1 && cpuid_size > 4) {
		size_t l = cpuid_size - 4 < sizeof(cpuid_str) - 1 ? cpuid_size - 4 : sizeof(cpuid_str) - 1;
		memcpy(cpuid_str, cpuid + 4, l);
		cpuid_str[l] = 0;
		long v = strtol(cpuid_str, NULL, 16);
		cfg.midr = (uint64_t)v;
	}
	cfg.spe_id = spe->ids[0];
	cfg.emit = tool_emit;
	cfg.thread_pid = tool_thread_pid;
	cfg.ctx = t;
	if (hwprof_spe_synth_new(&t->synth, &cfg))
		die("synth_new");
	for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++)
		if (hwprof_spe_synth_groups(t->synth) & 1u << g && (int)strlen(hwprof_spe_group_name(g)) > name_w)
			name_w = (int)strlen(hwprof_spe_group_name(g));
	t->fmt.name_width = name_w;
	/* the AUXTRACE index lets perf queue every buffer now */
	const uint8_t *idx;
	uint64_t idx_size;
	if (hwprof_perfdata_feature(t->h, HWPROF_FEAT_AUXTRACE, &idx, &idx_size, &off) == 1 && idx_size >= 8) {
		uint64_t nr = ld64(idx);
		if (nr > (idx_size - 8) / 16)
			die("bad AUXTRACE index");
		for (uint64_t i = 0; i < nr; i++)
			queue_buffer(t, ld64(idx + 8 + 16 * i));
	}
}

int main(int argc, char **argv)
{
	static struct tool t;
	const char *path = NULL;
	struct hwprof_event ev;
	struct hwprof_tsc_conv tc;
	int have_tc = 0, have_index = 0, r;
	struct stat st;
	int fd;

	t.fmt.fields = SCRIPT_F_DEFAULT_HW;
	t.fmt.comm = tool_comm;
	t.fmt.sym = tool_sym;
	t.fmt.ctx = &t;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--itrace")) {
			memset(&t.itrace, 0, sizeof(t.itrace));
			if (hwprof_itrace_opts_parse(&t.itrace, NULL, false))
				die("bad --itrace");
		} else if (!strncmp(argv[a], "--itrace=", 9)) {
			memset(&t.itrace, 0, sizeof(t.itrace));
			if (hwprof_itrace_opts_parse(&t.itrace, argv[a] + 9, false))
				die("bad --itrace");
		} else if (!strcmp(argv[a], "-F") && a + 1 < argc) {
			if (script_fmt_parse_fields(argv[++a], &t.fmt.fields))
				die("bad -F");
		} else if (!strcmp(argv[a], "--counts")) {
			t.counts = 1;
		} else if (!strcmp(argv[a], "--quiet")) {
			t.quiet = 1;
		} else if (!path) {
			path = argv[a];
		} else {
			die("usage: spe_synth_print [--itrace[=STR]] [-F fields] [--counts] FILE");
		}
	}
	if (!path)
		die("no file");
	for (int i = 0; i < (1 << 16); i++)
		t.pids[i] = -1;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("cannot open file");
	t.file_len = (size_t)st.st_size;
	t.file = mmap(NULL, t.file_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (t.file == MAP_FAILED)
		die("mmap");
	if (hwprof_session_open_mem(&t.sess, t.file, t.file_len, path, NULL))
		die("not a perf.data file");
	t.h = hwprof_session_data(t.sess);
	{
		const uint8_t *d;
		uint64_t sz, off;
		have_index = hwprof_perfdata_feature(t.h, HWPROF_FEAT_AUXTRACE, &d, &sz, &off) == 1;
	}
	while ((r = hwprof_session_next(t.sess, &ev)) > 0) {
		const struct hwprof_record *rec = &ev.rec;

		if (rec->type == HWPROF_RECORD_TIME_CONV) {
			have_tc = hwprof_tsc_conv_parse(&tc, rec->data + 8, rec->size - 8) == 0;
		} else if (rec->type == HWPROF_RECORD_AUXTRACE_INFO) {
			if (rec->size >= 16 && ld32(rec->data + 8) == 4 && !t.synth)
				start_synth(&t, rec, &tc, have_tc);
		} else if (rec->type == HWPROF_RECORD_AUXTRACE) {
			if (t.synth && !have_index)
				queue_buffer(&t, rec->offset);
		} else if (rec->type < HWPROF_RECORD_USER_TYPE_START && t.synth) {
			struct hwprof_spe_side_event se = { 0 };

			se.type = rec->type;
			se.misc = rec->misc;
			se.time = (ev.sample.sample_type & HWPROF_SAMPLE_TIME) ? ev.sample.time : 0;
			se.cpu = (ev.sample.sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)ev.sample.cpu : -1;
			if ((rec->type == HWPROF_RECORD_SWITCH_CPU_WIDE || rec->type == HWPROF_RECORD_SWITCH) &&
			    rec->size >= 16) {
				se.pid = (int32_t)ld32(rec->data + 8);
				se.tid = (int32_t)ld32(rec->data + 12);
			} else if (rec->type == HWPROF_RECORD_EXIT && rec->size >= 24) {
				se.pid = (int32_t)ld32(rec->data + 8);
				se.tid = (int32_t)ld32(rec->data + 16);
			}
			if (hwprof_spe_synth_event(t.synth, &se))
				die("synthesis failed");
		}
		if (rec->type < HWPROF_RECORD_USER_TYPE_START && rec->type != HWPROF_RECORD_SAMPLE)
			t.gen++; /* process state may have changed: drop cached lookups */
		/* perf's thread table as of after this record */
		if ((rec->type == HWPROF_RECORD_COMM || rec->type == HWPROF_RECORD_FORK) && rec->size >= 16) {
			uint32_t pid = ld32(rec->data + 8), tid = ld32(rec->data + (rec->type == HWPROF_RECORD_FORK ? 16 : 12));
			if (tid < (1u << 16))
				t.pids[tid] = (int32_t)pid;
		}
	}
	if (r < 0)
		die("read error");
	if (t.synth && hwprof_spe_synth_flush(t.synth))
		die("synthesis failed");
	if (t.counts || t.quiet)
		for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++)
			if (t.synth && hwprof_spe_synth_groups(t.synth) & 1u << g)
				printf("%llu %s\n", (unsigned long long)t.nsamples[g], hwprof_spe_group_name(g));
	hwprof_spe_synth_free(t.synth);
	hwprof_session_close(t.sess);
	munmap((void *)t.file, t.file_len);
	close(fd);
	return 0;
}
