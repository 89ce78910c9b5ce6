/* hwprof report's reading pass: every sample of the session resolved like
 * perf report resolves it (thread comm at the sample, the map for its
 * cpumode, the symbol) and summed into one histogram per event. */
#include <stdlib.h>
#include <string.h>

#include "cli/report_run.h"
#include "hwprof/session.h"

#define PROGRESS_EVERY 4096

/* One histogram per event index below n (pipe streams announce their
 * events as they go). */
static int grow(struct report_run *r, uint32_t n)
{
	if (n <= r->nr_hists)
		return 0;
	struct hwprof_hist **v = realloc(r->hists, n * sizeof(*v));
	if (!v)
		return -HWPROF_E_NOMEM;
	r->hists = v;
	for (; r->nr_hists < n; r->nr_hists++) {
		int rc = hwprof_hist_new(&r->hists[r->nr_hists], r->sort, r->nr_sort);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int report_run_init(struct report_run *r, struct hwprof_session *s, struct hwprof_symbols *syms,
		    const enum hwprof_hist_key *sort, size_t nr_sort)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->syms = syms;
	if (nr_sort > sizeof(r->sort) / sizeof(r->sort[0]))
		return -HWPROF_E_INVAL;
	memcpy(r->sort, sort, nr_sort * sizeof(*sort));
	r->nr_sort = nr_sort;
	return grow(r, hwprof_perfdata_nr_evsels(hwprof_session_data(s)));
}

void report_run_fini(struct report_run *r)
{
	for (uint32_t i = 0; r->hists && i < r->nr_hists; i++)
		hwprof_hist_free(r->hists[i]);
	free(r->hists);
	r->hists = NULL;
}

int report_run_sample(struct report_run *r, const struct hwprof_sample *sm)
{
	const struct hwprof_evsel *ev = sm->evsel;
	if (!ev)
		return 0;
	int rc = grow(r, ev->idx + 1);
	if (rc < 0)
		return rc;
	int32_t pid = (int32_t)sm->pid, tid = (int32_t)sm->tid;
	struct hwprof_hist_sample hs;
	memset(&hs, 0, sizeof(hs));
	hs.comm = hwprof_session_thread_comm(r->s, pid, tid);
	hs.pid = pid;
	hs.tid = tid;
	hs.cpu = (sm->sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)sm->cpu : -1;
	hs.period = (ev->attr.sample_type & HWPROF_SAMPLE_PERIOD) ? sm->period : ev->attr.sample_period;
	unsigned cpumode = sm->misc & HWPROF_MISC_CPUMODE_MASK;
	struct hwprof_map_info mi;
	hs.ip = sm->ip;
	hs.level = '.';
	if (hwprof_session_find_map(r->s, pid, tid, cpumode, sm->ip, &mi, &hs.level) == 1) {
		struct hwprof_symres res = { 0 };
		hwprof_symbols_resolve(r->syms, mi.dso, mi.start, mi.pgoff, sm->ip, &res);
		hs.dso = mi.dso;
		hs.kernel_map = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
		hs.sym = res.sym;
		hs.ip = res.addr;
	}
	return hwprof_hist_add(r->hists[ev->idx], &hs);
}

int report_run_read(struct report_run *r, struct cli_progress *bar)
{
	struct hwprof_event ev;
	int rc;
	uint64_t n = 0;
	while ((rc = hwprof_session_next(r->s, &ev)) > 0) {
		if (bar && ++n % PROGRESS_EVERY == 0)
			cli_progress_update(bar, ev.rec.offset);
		if (ev.rec.type == HWPROF_RECORD_LOST_SAMPLES && ev.rec.size >= 16) {
			r->lost_samples += hwprof_u64_at(ev.rec.data, 1);
			continue;
		}
		if (ev.rec.type != HWPROF_RECORD_SAMPLE || ev.parse_err < 0)
			continue;
		int e = report_run_sample(r, &ev.sample);
		if (e < 0)
			return e;
	}
	if (rc < 0)
		return rc;
	for (uint32_t i = 0; i < r->nr_hists; i++) {
		int e = hwprof_hist_finish(r->hists[i]);
		if (e < 0)
			return e;
	}
	return 0;
}
