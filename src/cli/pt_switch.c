/* perf 6.1's sync_switch state machine (see pt_switch.h): its
 * intel_pt_sample() tail, intel_pt_sync_switch(),
 * intel_pt_context_switch_in() and the error path of
 * intel_pt_run_decoder(). */
#include <string.h>

#include "cli/pt_feed.h"
#include "cli/pt_switch.h"
#include "hwprof/intel_pt_synth.h"

enum { SS_NOT_TRACING, SS_UNKNOWN, SS_TRACING, SS_EXPECTING_SWITCH_EVENT, SS_EXPECTING_SWITCH_IP };

#define KERNEL_START (1ULL << 63) /* perf's for x86_64 */

/* The runtime address of the first kernel symbol called name (global
 * ones only if asked) that a map of the kernel holds. */
static uint64_t kernel_sym(struct hwprof_symbols *syms, const char *name, bool global)
{
	struct hwprof_dso *d;
	if (hwprof_symbols_dso(syms, "[kernel.kallsyms]", &d) != 1 || !d)
		return 0;
	struct hwprof_kernel_map m;
	size_t nmaps = 0;
	while (hwprof_symbols_kernel_map(syms, nmaps, false, &m) == 1)
		nmaps++;
	for (size_t i = 0, n = hwprof_dso_nr_syms(d); i < n; i++) {
		const struct hwprof_sym *s = hwprof_dso_sym(d, i);
		if (strcmp(s->name, name) || (global && !s->global))
			continue;
		if (!nmaps) /* kallsyms: addresses as they are */
			return s->start;
		/* a vmlinux or kcore: file offsets in the kernel's maps */
		for (size_t k = 0; k < nmaps; k++)
			if (hwprof_symbols_kernel_map(syms, k, false, &m) == 1 &&
			    !strcmp(m.dso, "[kernel.kallsyms]") && s->start >= m.pgoff &&
			    s->start - m.pgoff < m.end - m.start)
				return s->start - m.pgoff + m.start;
	}
	return 0;
}

uint64_t pt_switch_ip(struct hwprof_symbols *syms, uint64_t *ptss)
{
	*ptss = 0;
	uint64_t ip = syms ? kernel_sym(syms, "__switch_to", true) : 0;
	if (ip) /* perf_trace_sched_switch with sched_switch tracepoints */
		*ptss = kernel_sym(syms, "__perf_event_task_sched_out", false);
	return ip;
}

size_t pt_switch_queue(const struct pt_feed *f, int32_t cpu)
{
	for (size_t i = 0; i < f->nq; i++)
		if (f->q[i].len && f->q[i].cpu == cpu)
			return i;
	return SIZE_MAX;
}

static bool is_switch_ip(const struct pt_feed *f, uint64_t to, uint32_t flags)
{
	return to == f->switch_ip && (flags & HWPROF_PT_FLAG_BRANCH) &&
	       !(flags & (HWPROF_PT_FLAG_CONDITIONAL | HWPROF_PT_FLAG_ASYNC | HWPROF_PT_FLAG_INTERRUPT |
			  HWPROF_PT_FLAG_TX_ABORT));
}

bool pt_switch_out(struct pt_feed *f, size_t q, int32_t tid, bool *wake)
{
	*wake = false;
	if (q == SIZE_MAX || !f->q[q].sync)
		return true;
	struct pt_queue *pq = &f->q[q];
	switch (pq->switch_state) {
	case SS_UNKNOWN:
	case SS_TRACING:
		pq->next_tid = tid;
		pq->switch_state = SS_EXPECTING_SWITCH_IP;
		return false;
	case SS_EXPECTING_SWITCH_EVENT:
		*wake = true;
		pq->switch_state = SS_TRACING;
		break;
	default: /* not tracing; or expecting the switch ip (perf logs an error) */
		break;
	}
	pq->next_tid = -1;
	return true;
}

void pt_switch_in(struct pt_feed *f, size_t q)
{
	if (q == SIZE_MAX || !f->q[q].sync)
		return;
	struct pt_queue *pq = &f->q[q];
	pq->next_tid = -1;
	if (pq->switch_state == SS_EXPECTING_SWITCH_EVENT || pq->switch_state == SS_EXPECTING_SWITCH_IP)
		pq->switch_state = SS_TRACING;
}

enum pt_switch_act pt_switch_state(struct pt_feed *f, size_t q, uint64_t to, uint32_t flags)
{
	struct pt_queue *pq = &f->q[q];
	if (!pq->sync)
		return PT_SW_GO;
	if (is_switch_ip(f, to, flags)) {
		if (pq->switch_state == SS_TRACING || pq->switch_state == SS_EXPECTING_SWITCH_EVENT) {
			/* at the switch before its record: wait for it */
			pq->switch_state = SS_EXPECTING_SWITCH_EVENT;
			return PT_SW_HOLD;
		}
		pq->switch_state = SS_TRACING;
		return pq->next_tid != -1 ? PT_SW_NEXT_TID : PT_SW_GO;
	}
	if (!to)
		pq->switch_state = SS_NOT_TRACING;
	else if (pq->switch_state == SS_NOT_TRACING)
		pq->switch_state = SS_UNKNOWN;
	else if (pq->switch_state == SS_UNKNOWN && to == f->ptss_ip && (flags & HWPROF_PT_FLAG_CALL))
		pq->switch_state = SS_TRACING;
	return PT_SW_GO;
}

bool pt_switch_estimate(const struct pt_feed *f, size_t q, uint64_t to, uint32_t flags)
{
	const struct pt_queue *pq = &f->q[q];
	return pq->sync && pq->switch_state == SS_UNKNOWN && is_switch_ip(f, to, flags) && pq->next_tid == -1;
}

bool pt_switch_error(struct pt_feed *f, size_t q, uint64_t ip)
{
	struct pt_queue *pq = &f->q[q];
	if (!pq->sync || ip < KERNEL_START)
		return false;
	pq->sync = false;
	return pq->next_tid != -1;
}

bool pt_switch_ffwd(struct pt_feed *f, size_t q)
{
	struct pt_queue *pq = &f->q[q];
	if (!pq->sync)
		return false;
	pq->switch_state = SS_UNKNOWN;
	return pq->next_tid != -1;
}

void pt_switch_end(struct pt_feed *f, size_t q)
{
	f->q[q].switch_state = SS_NOT_TRACING;
}

void pt_switch_next_tid(struct pt_feed *f, size_t q)
{
	struct pt_queue *pq = &f->q[q];
	if (pq->next_tid == -1)
		return;
	pt_feed_set_current(f, pq->cpu, -1, pq->next_tid);
	pq->next_tid = -1;
}
