/* The Intel PT decoder log of --itrace=d (see pt_log.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/pt_log.h"
#include "hwprof/intel_pt_flow.h"

/* The synthesis' log hook: one line per event, and a line per
 * instruction of a walked block (its bytes from the queue's image). */
static void log_event(void *ctx, const struct hwprof_pt_event *ev)
{
	struct pt_feed *f = ctx;
	fprintf(f->log, "%08" PRIx64 " %-10s ip %#" PRIx64 " tsc %#" PRIx64, ev->offset, hwprof_pt_ev_name(ev->type),
		ev->ip, ev->tsc);
	if (ev->type == HWPROF_PT_EV_BLOCK)
		fprintf(f->log, " insns %" PRIu32 " %s\n", ev->ninsn, hwprof_pt_iclass_name(ev->iclass));
	else if (ev->type == HWPROF_PT_EV_ERROR)
		fprintf(f->log, " error %" PRIu32 " (%s)\n", ev->count, hwprof_strerror(ev->err));
	else
		fprintf(f->log, " to %#" PRIx64 " payload %#" PRIx64 "\n", ev->to, ev->payload);
	if (ev->type != HWPROF_PT_EV_BLOCK || !ev->ilen)
		return;
	uint64_t ip = ev->ip;
	for (uint32_t i = 0; i < ev->ninsn; ip += ev->ilen[i++]) {
		uint8_t b[16];
		int n = f->log_img ? hwprof_pt_image_read(f->log_img, ip, b, ev->ilen[i]) : 0;
		fprintf(f->log, "          %016" PRIx64 ":", ip);
		for (int k = 0; k < 16; k++)
			fprintf(f->log, k < n ? " %02x" : "   ", b[k < n ? k : 0]);
		fprintf(f->log, " %s\n", i + 1 == ev->ninsn ? hwprof_pt_iclass_name(ev->iclass) : "");
	}
}

const char *pt_log_open(struct pt_feed *f)
{
	if (!f->itrace.log)
		return NULL;
	if (!(f->log = fopen("intel_pt.log", "w"))) {
		snprintf(f->msg, sizeof(f->msg), "intel_pt.log: %s", strerror(errno));
		return f->msg;
	}
	f->cfg.log = log_event;
	f->cfg.log_ctx = f;
	return NULL;
}

void pt_log_close(struct pt_feed *f)
{
	if (f->log)
		fclose(f->log);
	f->log = NULL;
}

void pt_log_queue(struct pt_feed *f, size_t q, int32_t pid, int32_t tid)
{
	if (!f->log)
		return;
	f->log_img = f->q[q].img;
	fprintf(f->log, "queue %zu decoding cpu %d pid %d tid %d\n", q, (int)f->q[q].cpu, (int)pid, (int)tid);
}

void pt_log_record(struct pt_feed *f, const struct hwprof_event *ev, uint64_t tsc)
{
	unsigned minus = f->itrace.log_minus_flags, plus = f->itrace.log_plus_flags;
	if (!f->log || (minus & HWPROF_ITRACE_FLAG('a')))
		return;
	if (f->cfg.nranges && !(plus & HWPROF_ITRACE_FLAG('a'))) {
		bool in = false;
		for (size_t i = 0; i < f->cfg.nranges && !in; i++)
			in = tsc >= f->cfg.ranges[i].start && tsc <= f->cfg.ranges[i].end;
		if (!in)
			return;
	}
	bool has = ev->parse_err >= 0;
	fprintf(f->log, "event %" PRIu32 ": cpu %d time %" PRIu64 " tsc %#" PRIx64 " offset %#" PRIx64 "\n", ev->rec.type,
		has && (ev->sample.sample_type & HWPROF_SAMPLE_CPU) ? (int)ev->sample.cpu : -1,
		has && (ev->sample.sample_type & HWPROF_SAMPLE_TIME) ? ev->sample.time : 0, tsc, ev->rec.offset);
}
