/* hwprof report over Arm SPE data (see report_spe.h). Like perf 6.1 (and
 * script_spe.c), the decoder is set up at the AUXTRACE_INFO record: the
 * synthesized events are added, with an AUXTRACE index every buffer is
 * queued at once, side-band records then drive the decoding and the rest
 * is flushed at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report_run.h"
#include "cli/report_spe.h"
#include "cli/spe_feed.h"
#include "cli/time_range.h"
#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"

#define AUXTRACE_ARM_SPE 4

struct report_spe {
	struct report_run *r;
	struct hwprof_session *s;
	struct spe_feed feed;
	uint32_t group_hist[HWPROF_SPE_G_NR];  /* histogram index of each group */
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
	/* perf counts its decoders' samples with the file's records */
	hwprof_session_count_synth(x->s, HWPROF_RECORD_SAMPLE, 0);
	if (s->group >= HWPROF_SPE_G_NR)
		return 0;
	/* perf synthesizes every record and drops the samples outside
	 * --time as it drops any other */
	if (x->r->time && time_ranges_skip(x->r->time, s->time))
		return 0;
	struct report_mem m = { s->addr, s->data_src, s->weight, 0 };
	return report_run_add(x->r, x->group_hist[s->group], s->pid, s->tid, s->cpu, s->cpumode, s->ip, s->period, &m);
}

int report_spe_new(struct report_spe **out, struct report_run *r, const struct hwprof_itrace_opts *itrace)
{
	struct report_spe *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->r = r;
	x->s = r->s;
	spe_feed_init(&x->feed, hwprof_session_data(r->s), itrace);
	*out = x;
	return 0;
}

void report_spe_free(struct report_spe *x)
{
	if (!x)
		return;
	spe_feed_fini(&x->feed);
	free(x);
}

static int fail(const char *msg)
{
	fflush(stdout);
	cli_error("report", "%s", msg);
	return -1;
}

/* perf 6.1's arm_spe_process_auxtrace_info(), then the histograms */
static int start_synth(struct report_spe *x, const struct hwprof_record *rec)
{
	struct hwprof_spe_synth_config cb = { .emit = spe_emit, .thread_pid = spe_thread_pid,
					      .notice = spe_notice, .ctx = x };
	const struct hwprof_evsel *spe;
	const char *why = spe_feed_start(&x->feed, rec, &cb, stdout, &spe);
	if (why)
		return fail(why);
	unsigned groups = hwprof_spe_synth_groups(x->feed.synth);
	/* the synthesized events join the evlist after the file's, in order */
	for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++) {
		if (!(groups & 1u << g))
			continue;
		int idx = report_run_add_event(x->r, hwprof_spe_group_name(g));
		if (idx < 0)
			return fail("out of memory");
		x->group_hist[g] = (uint32_t)idx;
	}
	why = spe_feed_queue_index(&x->feed);
	return why ? fail(why) : 0;
}

int report_spe_event(struct report_spe *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	if (rec->type == HWPROF_RECORD_AUXTRACE_INFO) {
		if (rec->size < 16 || ld32(rec->data + 8) != AUXTRACE_ARM_SPE)
			return 1;
		return spe_feed_wants_info(&x->feed, rec) ? start_synth(x, rec) : 0;
	}
	int rc;
	const char *why = spe_feed_record(&x->feed, ev, &rc);
	if (why)
		return fail(why);
	if (rc < 0)
		return fail("Arm SPE synthesis failed");
	return rc ? -1 : 0;
}

int report_spe_flush(struct report_spe *x)
{
	if (!x->feed.synth)
		return 0;
	int rc = x->feed.itrace.dont_decode ? 0 : hwprof_spe_synth_flush(x->feed.synth);
	if (rc < 0)
		return fail("Arm SPE synthesis failed");
	if (rc)
		return -1;
	spe_feed_warn_context(&x->feed, stdout);
	return 0;
}
