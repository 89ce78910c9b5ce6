/* Arm SPE data fed to the synthesizer as perf 6.1 does (see spe_feed.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/spe_feed.h"
#include "hwprof/perf_event.h"
#include "util/bytes.h"

#define AUXTRACE_ARM_SPE 4

void spe_feed_init(struct spe_feed *f, struct hwprof_perfdata *h, const struct hwprof_itrace_opts *itrace)
{
	memset(f, 0, sizeof(*f));
	f->h = h;
	f->itrace = *itrace;
	const uint8_t *d;
	uint64_t sz, off;
	f->have_index = hwprof_perfdata_feature(h, HWPROF_FEAT_AUXTRACE, &d, &sz, &off) == 1;
}

void spe_feed_fini(struct spe_feed *f)
{
	hwprof_spe_synth_free(f->synth);
	for (size_t i = 0; i < f->nr_copies; i++)
		free(f->copies[i]);
	free(f->copies);
	if (f->file)
		munmap((void *)f->file, f->file_len);
	memset(f, 0, sizeof(*f));
}

bool spe_feed_wants_info(const struct spe_feed *f, const struct hwprof_record *rec)
{
	return rec->size >= 16 && ld32(rec->data + 8) == AUXTRACE_ARM_SPE && !f->synth;
}

static int map_file(struct spe_feed *f)
{
	const char *path = hwprof_perfdata_file_path(f->h, 0);
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
	f->file = m;
	f->file_len = (size_t)st.st_size;
	return 0;
}

/* perf: strtol(cpuid, 16); without the feature it reads the local cpuid */
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
const char *spe_feed_start(struct spe_feed *f, const struct hwprof_record *rec,
			   const struct hwprof_spe_synth_config *callbacks, FILE *out,
			   const struct hwprof_evsel **spep)
{
	struct hwprof_spe_info info;
	uint64_t priv[64];
	size_t np = (size_t)(rec->size - 16) / 8;
	if (np > 64)
		np = 64;
	memcpy(priv, rec->data + 16, np * 8);
	if (hwprof_spe_info_parse(priv, np, &info, NULL, 0, NULL) < 0)
		return "bad arm_spe AUXTRACE_INFO record";
	struct hwprof_spe_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.itrace = f->itrace;
	cfg.timeless = true;
	const struct hwprof_evsel *spe = NULL;
	uint32_t n = hwprof_perfdata_nr_evsels(f->h);
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(f->h, i);
		if (e->attr.sample_type & HWPROF_SAMPLE_TIME)
			cfg.timeless = false;
		if (!spe && e->attr.type == info.pmu_type)
			spe = e;
	}
	if (!spe || !spe->nr_ids)
		return "no arm_spe event with sample ids in the file";
	if (!cfg.timeless && (!f->have_tc || !f->tc.time_mult))
		return "arm_spe data without a TIME_CONV record";
	if (f->have_tc)
		cfg.tc = f->tc;
	cfg.midr = file_midr(f->h);
	cfg.spe_id = spe->ids[0];
	cfg.emit = callbacks->emit;
	cfg.thread_pid = callbacks->thread_pid;
	cfg.thread_pid_version = callbacks->thread_pid_version;
	cfg.notice = callbacks->notice;
	cfg.ctx = callbacks->ctx;
	cfg.no_data_src = callbacks->no_data_src;
	if (hwprof_spe_synth_new(&f->synth, &cfg) < 0)
		return "out of memory";
	f->timeless = cfg.timeless;
	struct hwprof_itrace_opts eff = f->itrace;
	if (!eff.set)
		hwprof_itrace_opts_default(&eff, false);
	unsigned groups = hwprof_spe_synth_groups(f->synth);
	if (eff.instructions && !(groups & 1u << HWPROF_SPE_G_INSTRUCTIONS)) {
		fflush(out);
		fprintf(stderr, "Only instruction-based sampling period is currently supported by Arm SPE.\n");
	} else if ((groups & 1u << HWPROF_SPE_G_INSTRUCTIONS) && eff.period > 1) {
		fflush(out);
		fprintf(stderr, "Arm SPE has a hardware-based sample period.\n"
				"Additional instruction events will be discarded by --itrace\n");
	}
	*spep = spe;
	return NULL;
}

/* The buffer of the AUXTRACE record at file offset off (indexed files). */
static const char *queue_indexed(struct spe_feed *f, uint64_t off)
{
	if (off > f->file_len || f->file_len - off < 48 || ld32(f->file + off) != HWPROF_RECORD_AUXTRACE)
		return "bad AUXTRACE index entry";
	const uint8_t *r = f->file + off;
	uint64_t size = ld64(r + 8);
	if (size > f->file_len - off - 48)
		return "AUXTRACE data past the end of the file";
	if (hwprof_spe_synth_add_buffer(f->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36),
					r + 48, size, off + 48) < 0)
		return "out of memory queueing AUXTRACE buffers";
	return NULL;
}

const char *spe_feed_queue_index(struct spe_feed *f)
{
	if (!f->have_index || f->itrace.dont_decode)
		return NULL;
	/* the index lets perf queue every buffer now */
	const uint8_t *idx;
	uint64_t idx_size, off;
	if (hwprof_perfdata_feature(f->h, HWPROF_FEAT_AUXTRACE, &idx, &idx_size, &off) != 1 || idx_size < 8)
		return NULL;
	if (map_file(f) < 0)
		return "cannot map the file for its AUXTRACE data";
	uint64_t nr = ld64(idx);
	if (nr > (idx_size - 8) / 16)
		return "bad AUXTRACE index";
	for (uint64_t i = 0; i < nr; i++) {
		const char *why = queue_indexed(f, ld64(idx + 8 + 16 * i));
		if (why)
			return why;
	}
	return NULL;
}

/* A buffer met in the stream (no index): file mode keeps its mapping,
 * pipe mode's bytes are copied since the stream buffer is reused. */
static const char *queue_streamed(struct spe_feed *f, const struct hwprof_record *rec)
{
	if (rec->size < 48 || !rec->payload)
		return "bad AUXTRACE record";
	const uint8_t *r = rec->data, *data = rec->payload;
	if (hwprof_perfdata_info(f->h)->pipe) {
		uint8_t **nc = realloc(f->copies, (f->nr_copies + 1) * sizeof(*nc));
		if (!nc)
			return "out of memory";
		f->copies = nc;
		uint8_t *c = malloc(rec->payload_size ? rec->payload_size : 1);
		if (!c)
			return "out of memory";
		memcpy(c, rec->payload, rec->payload_size);
		f->copies[f->nr_copies++] = c;
		data = c;
	}
	if (hwprof_spe_synth_add_buffer(f->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36), data,
					rec->payload_size, rec->offset + 48) < 0)
		return "out of memory queueing AUXTRACE buffers";
	return NULL;
}

const char *spe_feed_record(struct spe_feed *f, const struct hwprof_event *ev, int *rc)
{
	const struct hwprof_record *rec = &ev->rec;
	*rc = 0;
	switch (rec->type) {
	case HWPROF_RECORD_TIME_CONV:
		f->have_tc = hwprof_tsc_conv_parse(&f->tc, rec->data + 8, rec->size - 8u) == 0;
		return NULL;
	case HWPROF_RECORD_AUXTRACE:
		return f->synth && !f->have_index && !f->itrace.dont_decode ? queue_streamed(f, rec) : NULL;
	default:
		break;
	}
	if (rec->type >= HWPROF_RECORD_USER_TYPE_START || !f->synth || f->itrace.dont_decode)
		return NULL;
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
	*rc = hwprof_spe_synth_event(f->synth, &se);
	return NULL;
}

void spe_feed_warn_context(const struct spe_feed *f, FILE *out)
{
	/* perf's ui__warning at the end of timed decoding (--no-itrace too) */
	if (f->synth && !f->timeless && !hwprof_spe_synth_used_context(f->synth)) {
		fflush(out);
		fprintf(stderr, "Warning:\nArm SPE CONTEXT packets not found in the traces.\n"
				"Matching of TIDs to SPE events could be inaccurate.\n");
	}
}
