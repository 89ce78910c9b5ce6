/* hwprof report over Intel PT data (see report_pt.h). Like perf 6.1, the
 * synthesized events are added at the AUXTRACE_INFO record (branches,
 * instructions, then the power events cbr and psb); each sample counts at
 * its ip (a branch at its source) with its period, in the user or kernel
 * space its address is in. Without --itrace, perf's report default:
 * instruction samples every 100 us of trace time with callchains, power
 * events and errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/pt_feed.h"
#include "cli/pt_sched.h"
#include "cli/report_pt.h"
#include "cli/report_run.h"
#include "hwprof/intel_pt_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"

#define AUXTRACE_INTEL_PT 1
#define KERNEL_START (1ULL << 63) /* perf's for x86_64 */

struct report_pt {
	struct report_run *r;
	struct hwprof_session *s;
	struct pt_feed feed;
	uint32_t hist[HWPROF_PT_SAMPLE_KIND_NR]; /* histogram per sample kind */
	char names[HWPROF_PT_SAMPLE_KIND_NR][64];
	int32_t pid, tid, cpu;     /* of the queue being decoded */
	uint64_t events;
	/* timed, with events of the file's own: decoded as the events are
	 * read (their samples then go in among the trace's, and G and L see
	 * the trace up to them); NULL: at the end */
	struct pt_sched *sched;
};

static void select_queue(void *ctx, size_t i, size_t at, bool ran);

int report_pt_new(struct report_pt **out, struct report_run *r, const struct hwprof_itrace_opts *itrace)
{
	struct report_pt *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->r = r;
	x->s = r->s;
	pt_feed_init(&x->feed, hwprof_session_data(r->s), r->syms, itrace);
	/* -C: perf queues none of the other cpus' trace */
	if (r->filter && r->filter->cpus_set)
		x->feed.cpu_filter = r->filter;
	*out = x;
	return 0;
}

void report_pt_free(struct report_pt *x)
{
	if (!x)
		return;
	pt_sched_close(x->sched, false);
	pt_feed_fini(&x->feed);
	free(x);
}

static int fail(const char *msg)
{
	fflush(stdout);
	cli_error("report", "%s", msg);
	return -1;
}

static int pt_emit(void *ctx, const struct hwprof_pt_sample *s)
{
	struct report_pt *x = ctx;
	/* perf delivers what its decoder synthesizes through the session,
	 * which counts it with the file's records (the errors too) */
	hwprof_session_count_synth(x->s, s->kind == HWPROF_PT_SAMPLE_ERROR ? HWPROF_RECORD_AUXTRACE_ERROR
									   : HWPROF_RECORD_SAMPLE, 1);
	if (s->kind == HWPROF_PT_SAMPLE_ERROR) {
		return 0;
	}
	if (s->kind >= HWPROF_PT_SAMPLE_KIND_NR)
		return 0;
	/* perf report's --time check (a time of 0 is in every range) */
	if (x->r->time && time_ranges_skip(x->r->time, s->time))
		return 0;
	/* perf's intel_pt_cpumode(): by the ip, or by the target when the
	 * sample has none (a trace begin) */
	uint64_t at = s->ip ? s->ip : s->addr;
	unsigned mode = at >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	uint32_t h = x->hist[s->kind];
	if (x->r->branch_mode) {
		/* perf's branch view takes samples with a branch stack only:
		 * with l, the branches event's is its own branch (perf makes
		 * a one-entry stack for it there), the others' their l stack */
		if (!x->feed.itrace.last_branch)
			return 0;
		uint64_t one[2] = { s->ip, s->addr };
		int rc = s->kind == HWPROF_PT_SAMPLE_BRANCHES
				 ? report_run_add_branches(x->r, h, x->pid, x->tid, x->cpu, mode, s->ip, one, 1)
				 : report_run_add_branches(x->r, h, x->pid, x->tid, x->cpu, mode, s->ip, s->brstack,
							   s->nbr);
		return rc < 0 ? rc : 0;
	}
	int rc = report_run_add_chain(x->r, h, x->pid, x->tid, x->cpu, mode, s->ip, s->period, s->chain,
				      s->nchain);
	return rc < 0 ? rc : 0;
}

/* perf 6.1's intel_pt_process_auxtrace_info() and intel_pt_synth_events() */
static int start(struct report_pt *x, const struct hwprof_record *rec)
{
	struct hwprof_itrace_opts *it = &x->feed.itrace;
	if (!it->set) {
		/* perf's default for report: no branches, callchains */
		hwprof_itrace_opts_default(it, false);
		it->branches = false;
		it->callchain = true;
		it->add_callchain = true;
	}
	/* -g none: perf's decoder fails to register its callchain
	 * parameters and goes on without chains */
	if (x->r->graph_none)
		it->callchain = it->add_callchain = false;
	const char *why = pt_feed_start(&x->feed, rec);
	if (why)
		return fail(why);
	if (!x->feed.active)
		return 0;
	/* perf's decoder starts and stops at the ranges too */
	if (pt_feed_time_ranges(&x->feed, x->r->time) < 0)
		return fail("out of memory");
	x->feed.cfg.emit = pt_emit;
	x->feed.cfg.ctx = x;
	x->feed.cfg.events = &x->events;
	/* perf's order of its synthesized events; the power events are
	 * named, the others as perf names their attrs */
	static const struct { unsigned kind; uint64_t config; const char *name; } evs[] = {
		{ HWPROF_PT_SAMPLE_BRANCHES, 4, NULL },
		{ HWPROF_PT_SAMPLE_INSTRUCTIONS, 1, NULL },
		{ HWPROF_PT_SAMPLE_CBR, 0, "cbr" },
		{ HWPROF_PT_SAMPLE_PSB, 0, "psb" },
	};
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		unsigned k = evs[i].kind;
		bool on = k == HWPROF_PT_SAMPLE_BRANCHES ? it->branches
			  : k == HWPROF_PT_SAMPLE_INSTRUCTIONS ? it->instructions : it->pwr_events;
		if (!on)
			continue;
		if (evs[i].name) {
			snprintf(x->names[k], sizeof(x->names[k]), "%s", evs[i].name);
		} else {
			struct hwprof_evsel e;
			pt_feed_synth_evsel(&x->feed, &e, 0, evs[i].config);
			hwprof_evsel_name(&e, x->names[k], sizeof(x->names[k]));
		}
		int idx = report_run_add_event(x->r, x->names[k]);
		if (idx < 0)
			return fail("out of memory");
		x->hist[k] = (uint32_t)idx;
	}
	if (x->feed.cfg.timed && x->feed.others) {
		int r = pt_feed_prescan(&x->feed, hwprof_perfdata_name(hwprof_session_data(x->s)));
		if (r < 0 || (r == 0 && pt_sched_open(&x->sched, &x->feed, select_queue, x) < 0))
			return fail("out of memory");
		if (!x->sched && (it->add_callchain || it->add_last_branch))
			return fail("--itrace options G and L (G is perf report's default) need the trace decoded as "
				    "the events are read, which a stream cannot give (its trace is decoded at its end); "
				    "read a file, or give --itrace without them");
	}
	return 0;
}

static int synth_failed(int rc);

int report_pt_event(struct report_pt *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	if (rec->type == HWPROF_RECORD_AUXTRACE_INFO) {
		if (rec->size < 16 || ld32(rec->data + 8) != AUXTRACE_INTEL_PT)
			return 1;
		if (x->feed.active || x->feed.itrace.dont_decode)
			return 0;
		return start(x, rec);
	}
	const char *why = pt_feed_record(&x->feed, rec);
	if (why)
		return fail(why);
	size_t before = x->feed.nlimits;
	if (pt_feed_note_event(&x->feed, x->s, ev) < 0)
		return fail("out of memory");
	if (x->sched && x->feed.nlimits > before) {
		/* the trace up to this event's time, before the event */
		int rc = pt_sched_advance(x->sched, x->feed.nlimits - 1);
		x->r->synth_comm = NULL;
		if (rc < 0)
			return synth_failed(rc);
	}
	return 0;
}

bool report_pt_chains(const struct report_pt *x, bool file, uint32_t idx)
{
	if (!x->feed.active)
		return !file;
	if (file)
		return x->feed.itrace.add_callchain;
	for (unsigned k = 0; k < HWPROF_PT_SAMPLE_KIND_NR; k++)
		if (x->names[k][0] && x->hist[k] == idx) /* perf adds the bit after branches */
			return k != HWPROF_PT_SAMPLE_BRANCHES && x->feed.itrace.callchain;
	return true;
}

int report_pt_sample(struct report_pt *x, struct hwprof_sample *sm)
{
	return pt_feed_add_late(&x->feed, sm) < 0 ? fail("out of memory") : 0;
}

static int32_t thread_pid(void *ctx, int32_t tid)
{
	struct report_pt *x = ctx;
	return hwprof_session_thread_pid(x->s, tid);
}

static void select_queue(void *ctx, size_t i, size_t at, bool ran)
{
	struct report_pt *x = ctx;
	pt_feed_select(&x->feed, i, at, ran, thread_pid, x, &x->pid, &x->tid);
	x->cpu = x->feed.q[i].cpu;
	x->r->synth_comm = pt_feed_comm_at(&x->feed, x->tid, at);
}

static int synth_failed(int rc)
{
	if (rc == -HWPROF_E_UNSUPPORTED)
		return fail("Intel PT: the trace has TSX transaction, PTWRITE, power or event-trace "
			    "packets, whose samples are not supported yet");
	return fail(hwprof_strerror(rc));
}

int report_pt_flush(struct report_pt *x)
{
	if (!x->feed.active)
		return 0;
	/* in perf's order: the s<N> skip counts across queues */
	int rc = pt_sched_finish(&x->sched, &x->feed, select_queue, x);
	x->r->synth_comm = NULL;
	if (rc < 0)
		return synth_failed(rc);
	return 0;
}
