/* Arm SPE data of a session fed to the library's synthesizer the way perf
 * 6.1 does it, for `script` and `report` alike: TIME_CONV noted, the
 * decoder set up at the arm_spe AUXTRACE_INFO, AUXTRACE buffers queued
 * (all at once from the file's index, else as the stream meets them; pipe
 * mode copies them), side-band records passed on. Errors come back as a
 * message for the command to print its own way. */
#ifndef HWPROF_CLI_SPE_FEED_H
#define HWPROF_CLI_SPE_FEED_H

#include <stdbool.h>
#include <stdio.h>

#include "hwprof/arm_spe_synth.h"
#include "hwprof/perfdata.h"
#include "hwprof/session.h"

struct spe_feed {
	struct hwprof_perfdata *h;
	struct hwprof_itrace_opts itrace;
	const uint8_t *file;      /* the file mapped for indexed buffers */
	size_t file_len;
	bool have_index, have_tc, timeless;
	struct hwprof_tsc_conv tc;
	struct hwprof_spe_synth *synth;
	uint8_t **copies;         /* pipe mode: buffers copied out of the stream */
	size_t nr_copies;
};

void spe_feed_init(struct spe_feed *f, struct hwprof_perfdata *h, const struct hwprof_itrace_opts *itrace);
void spe_feed_fini(struct spe_feed *f);

/* An arm_spe AUXTRACE_INFO while no decoder exists yet. */
bool spe_feed_wants_info(const struct spe_feed *f, const struct hwprof_record *rec);
/* Sets up the decoder from that record with the caller's callbacks (cfg's
 * emit, thread_pid, notice, ctx); perf's period warnings go to stderr
 * after flushing out. *spe: the file's arm_spe event. NULL or the error. */
const char *spe_feed_start(struct spe_feed *f, const struct hwprof_record *rec,
			   const struct hwprof_spe_synth_config *callbacks, FILE *out,
			   const struct hwprof_evsel **spe);
/* With an index: every buffer queued now (after the caller's set-up). */
const char *spe_feed_queue_index(struct spe_feed *f);
/* Any record of the session: TIME_CONV, a streamed AUXTRACE, or side band
 * for the decoder (*rc: hwprof_spe_synth_event's result). NULL or the
 * error; AUXTRACE_INFO is the caller's (spe_feed_wants_info). */
const char *spe_feed_record(struct spe_feed *f, const struct hwprof_event *ev, int *rc);
/* perf's warning at the end of timed decoding without CONTEXT packets. */
void spe_feed_warn_context(const struct spe_feed *f, FILE *out);

#endif
