/* hwprof report over Arm SPE data (see report_spe.h). Like perf 6.1 (and
 * script_spe.c), the decoder is set up at the AUXTRACE_INFO record: the
 * synthesized events are added, with an AUXTRACE index every buffer is
 * queued at once, side-band records then drive the decoding and the rest
 * is flushed at the end. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/report_run.h"
#include "cli/report_spe.h"
#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"

#define AUXTRACE_ARM_SPE 4

struct report_spe {
	struct report_run *r;
	struct hwprof_session *s;
	struct hwprof_perfdata *h;
	struct hwprof_itrace_opts itrace;
	const uint8_t *file;
	size_t file_len;
	bool have_index, have_tc, timeless;
	struct hwprof_tsc_conv tc;
	struct hwprof_spe_synth *synth;
	uint32_t group_hist[HWPROF_SPE_G_NR];  /* histogram index of each group */
	uint8_t **copies;
	size_t nr_copies;
};

static int32_t spe_thread_pid(void *ctx, int32_t tid)
{
	struct report_spe *x = ctx;
	return hwprof_session_thread_pid(x->s, tid);
}

static void spe_notice(void *ctx, unsigned notice, uint64_t value)
{
	(void)ctx;
	if (notice == HWPROF_SPE_NOTE_ADDR_INDEX)
		fprintf(stderr, "unsupported address packet index: 0x%llx\n", (unsigned long long)value);
	else if (notice == HWPROF_SPE_NOTE_OP_CLASS)
		fprintf(stderr, "Get packet error!\n");
}

static int spe_emit(void *ctx, const struct hwprof_spe_sample *s)
{
	struct report_spe *x = ctx;
	if (s->group >= HWPROF_SPE_G_NR)
		return 0;
	return report_run_add(x->r, x->group_hist[s->group], s->pid, s->tid, s->cpu, s->cpumode, s->ip, s->period);
}

int report_spe_new(struct report_spe **out, struct report_run *r, const struct hwprof_itrace_opts *itrace)
{
	struct report_spe *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->r = r;
	x->s = r->s;
	x->h = hwprof_session_data(r->s);
	x->itrace = *itrace;
	const uint8_t *d;
	uint64_t sz, off;
	x->have_index = hwprof_perfdata_feature(x->h, HWPROF_FEAT_AUXTRACE, &d, &sz, &off) == 1;
	*out = x;
	return 0;
}

void report_spe_free(struct report_spe *x)
{
	if (!x)
		return;
	hwprof_spe_synth_free(x->synth);
	for (size_t i = 0; i < x->nr_copies; i++)
		free(x->copies[i]);
	free(x->copies);
	if (x->file)
		munmap((void *)x->file, x->file_len);
	free(x);
}

static int fail(const char *msg)
{
	fflush(stdout);
	cli_error("report", "%s", msg);
	return -1;
}

static int queue_indexed(struct report_spe *x, uint64_t off)
{
	if (off > x->file_len || x->file_len - off < 48 || ld32(x->file + off) != HWPROF_RECORD_AUXTRACE)
		return fail("bad AUXTRACE index entry");
	const uint8_t *r = x->file + off;
	uint64_t size = ld64(r + 8);
	if (size > x->file_len - off - 48)
		return fail("AUXTRACE data past the end of the file");
	if (hwprof_spe_synth_add_buffer(x->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36),
					r + 48, size, off + 48) < 0)
		return fail("out of memory queueing AUXTRACE buffers");
	return 0;
}

static int map_file(struct report_spe *x)
{
	const char *path = hwprof_perfdata_file_path(x->h, 0);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	x->file = m;
	x->file_len = (size_t)st.st_size;
	return 0;
}

static uint64_t file_midr(struct hwprof_perfdata *h)
{
	const uint8_t *cpuid;
	uint64_t size, off;
	char str[128];
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_CPUID, &cpuid, &size, &off) != 1 || size <= 4)
		return 0;
	size_t l = size - 4 < sizeof(str) - 1 ? size - 4 : sizeof(str) - 1;
	memcpy(str, cpuid + 4, l);
	str[l] = 0;
	return (uint64_t)strtol(str, NULL, 16);
}

/* perf 6.1's arm_spe_process_auxtrace_info() */
static int start_synth(struct report_spe *x, const struct hwprof_record *rec)
{
	struct hwprof_spe_info info;
	uint64_t priv[64];
	size_t np = (size_t)(rec->size - 16) / 8;
	if (np > 64)
		np = 64;
	memcpy(priv, rec->data + 16, np * 8);
	if (hwprof_spe_info_parse(priv, np, &info, NULL, 0, NULL) < 0)
		return fail("bad arm_spe AUXTRACE_INFO record");
	struct hwprof_spe_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.itrace = x->itrace;
	cfg.timeless = true;
	const struct hwprof_evsel *spe = NULL;
	uint32_t n = hwprof_perfdata_nr_evsels(x->h);
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(x->h, i);
		if (e->attr.sample_type & HWPROF_SAMPLE_TIME)
			cfg.timeless = false;
		if (!spe && e->attr.type == info.pmu_type)
			spe = e;
	}
	if (!spe || !spe->nr_ids)
		return fail("no arm_spe event with sample ids in the file");
	if (!cfg.timeless && (!x->have_tc || !x->tc.time_mult))
		return fail("arm_spe data without a TIME_CONV record");
	if (x->have_tc)
		cfg.tc = x->tc;
	cfg.midr = file_midr(x->h);
	cfg.spe_id = spe->ids[0];
	cfg.emit = spe_emit;
	cfg.thread_pid = spe_thread_pid;
	cfg.notice = spe_notice;
	cfg.ctx = x;
	if (hwprof_spe_synth_new(&x->synth, &cfg) < 0)
		return fail("out of memory");
	x->timeless = cfg.timeless;
	struct hwprof_itrace_opts eff = x->itrace;
	if (!eff.set)
		hwprof_itrace_opts_default(&eff, false);
	unsigned groups = hwprof_spe_synth_groups(x->synth);
	if (eff.instructions && !(groups & 1u << HWPROF_SPE_G_INSTRUCTIONS)) {
		fflush(stdout);
		fprintf(stderr, "Only instruction-based sampling period is currently supported by Arm SPE.\n");
	} else if ((groups & 1u << HWPROF_SPE_G_INSTRUCTIONS) && eff.period > 1) {
		fflush(stdout);
		fprintf(stderr, "Arm SPE has a hardware-based sample period.\n"
				"Additional instruction events will be discarded by --itrace\n");
	}
	/* the synthesized events join the evlist after the file's, in order */
	for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++) {
		if (!(groups & 1u << g))
			continue;
		int idx = report_run_add_event(x->r, hwprof_spe_group_name(g));
		if (idx < 0)
			return fail("out of memory");
		x->group_hist[g] = (uint32_t)idx;
	}
	if (!x->have_index || x->itrace.dont_decode)
		return 0;
	const uint8_t *idx;
	uint64_t idx_size, off;
	if (hwprof_perfdata_feature(x->h, HWPROF_FEAT_AUXTRACE, &idx, &idx_size, &off) != 1 || idx_size < 8)
		return 0;
	if (map_file(x) < 0)
		return fail("cannot map the file for its AUXTRACE data");
	uint64_t nr = ld64(idx);
	if (nr > (idx_size - 8) / 16)
		return fail("bad AUXTRACE index");
	for (uint64_t i = 0; i < nr; i++)
		if (queue_indexed(x, ld64(idx + 8 + 16 * i)) < 0)
			return -1;
	return 0;
}

static int queue_streamed(struct report_spe *x, const struct hwprof_record *rec)
{
	if (rec->size < 48 || !rec->payload)
		return fail("bad AUXTRACE record");
	const uint8_t *r = rec->data, *data = rec->payload;
	if (hwprof_perfdata_info(x->h)->pipe) {
		uint8_t **nc = realloc(x->copies, (x->nr_copies + 1) * sizeof(*nc));
		if (!nc)
			return fail("out of memory");
		x->copies = nc;
		uint8_t *c = malloc(rec->payload_size ? rec->payload_size : 1);
		if (!c)
			return fail("out of memory");
		memcpy(c, rec->payload, rec->payload_size);
		x->copies[x->nr_copies++] = c;
		data = c;
	}
	if (hwprof_spe_synth_add_buffer(x->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36), data,
					rec->payload_size, rec->offset + 48) < 0)
		return fail("out of memory queueing AUXTRACE buffers");
	return 0;
}

int report_spe_event(struct report_spe *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	switch (rec->type) {
	case HWPROF_RECORD_TIME_CONV:
		x->have_tc = hwprof_tsc_conv_parse(&x->tc, rec->data + 8, rec->size - 8u) == 0;
		return 0;
	case HWPROF_RECORD_AUXTRACE_INFO:
		if (rec->size < 16 || ld32(rec->data + 8) != AUXTRACE_ARM_SPE)
			return 1;
		return x->synth ? 0 : start_synth(x, rec);
	case HWPROF_RECORD_AUXTRACE:
		return x->synth && !x->have_index && !x->itrace.dont_decode ? queue_streamed(x, rec) : 0;
	default:
		break;
	}
	if (rec->type >= HWPROF_RECORD_USER_TYPE_START || !x->synth || x->itrace.dont_decode)
		return 0;
	struct hwprof_spe_side_event se = { 0 };
	se.type = rec->type;
	se.misc = rec->misc;
	se.time = (ev->sample.sample_type & HWPROF_SAMPLE_TIME) ? ev->sample.time : 0;
	se.cpu = (ev->sample.sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)ev->sample.cpu : -1;
	if ((rec->type == HWPROF_RECORD_SWITCH_CPU_WIDE || rec->type == HWPROF_RECORD_SWITCH) && rec->size >= 16) {
		se.pid = (int32_t)ld32(rec->data + 8);
		se.tid = (int32_t)ld32(rec->data + 12);
	} else if (rec->type == HWPROF_RECORD_EXIT && rec->size >= 24) {
		se.pid = (int32_t)ld32(rec->data + 8);
		se.tid = (int32_t)ld32(rec->data + 16);
	}
	int rc = hwprof_spe_synth_event(x->synth, &se);
	if (rc < 0)
		return fail("Arm SPE synthesis failed");
	return rc ? -1 : 0;
}

int report_spe_flush(struct report_spe *x)
{
	if (!x->synth)
		return 0;
	int rc = x->itrace.dont_decode ? 0 : hwprof_spe_synth_flush(x->synth);
	if (rc < 0)
		return fail("Arm SPE synthesis failed");
	if (rc)
		return -1;
	if (!x->timeless && !hwprof_spe_synth_used_context(x->synth)) {
		fflush(stdout);
		fprintf(stderr, "Warning:\nArm SPE CONTEXT packets not found in the traces.\n"
				"Matching of TIDs to SPE events could be inaccurate.\n");
	}
	return 0;
}
