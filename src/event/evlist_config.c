/* perf record's attr defaults over a parsed event list (what perf 6.1
 * prints with -vv): sampling by frequency 4000 unless told otherwise,
 * IP|TID|TIME|PERIOD, ID|LOST, tracking bits on the first event, groups
 * disabled through their leader, per-event terms over the record options,
 * and IDENTIFIER when the events' sample types differ. AUX area PMUs
 * (intel_pt, arm_spe) sample by a fixed period instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_int.h"
#include "hwprof/intel_pt_cfg.h"

HWPROF_API void hwprof_evlist_opts_default(struct hwprof_evlist_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = 4000;
	o->stack_size = 8192;
	o->call_graph = HWPROF_CG_UNSET;
	o->arch = hwprof_arch_host();
}

static void on(struct hwprof_attr *a, unsigned bit)
{
	a->flags |= 1ULL << bit;
}

static void off(struct hwprof_attr *a, unsigned bit)
{
	a->flags &= ~(1ULL << bit);
}

static uint64_t user_regs_mask(enum hwprof_arch arch)
{
	switch (arch) {
	case HWPROF_ARCH_X86_64: return HWPROF_X86_64_GPR_MASK;
	case HWPROF_ARCH_I386: return HWPROF_X86_32_GPR_MASK;
	case HWPROF_ARCH_ARM64: return HWPROF_ARM64_GPR_MASK;
	default: return 0;
	}
}

/* The period an AUX PMU samples with: intel_pt 1, arm_spe its minimum
 * interval (caps/min_interval, 4096 when the driver does not say). */
static uint64_t aux_period(const struct hwprof_event *e, const struct hwprof_pmus *pmus)
{
	if (strncmp(e->pmu, "arm_spe", 7))
		return 1;
	const char *v = hwprof_pmu_cap(hwprof_pmus_find(pmus, e->pmu), "min_interval");
	char *end;
	unsigned long long n = v ? strtoull(v, &end, 10) : 0;
	return v && !*end && n ? n : 4096;
}

/* One call graph mode onto an attr, as perf's evsel__config_callchain. */
static void apply_call_graph(struct hwprof_attr *a, int cg, uint32_t stack_size, int first,
			     const struct hwprof_evlist_opts *o)
{
	switch (cg) {
	case HWPROF_CG_FP:
		a->sample_type |= HWPROF_SAMPLE_CALLCHAIN;
		break;
	case HWPROF_CG_DWARF:
		a->sample_type |= HWPROF_SAMPLE_CALLCHAIN | HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER;
		a->sample_regs_user |= user_regs_mask(o->arch);
		a->sample_stack_user = stack_size;
		on(a, HWPROF_ATTR_EXCLUDE_CALLCHAIN_USER);
		/* perf samples data addresses for a dwarf call graph, global or
		 * per event ("Enable data address sampling for DWARF unwind"):
		 * the data maps it brings are what perf's libunwind reads
		 * .eh_frame_hdr through, so without them perf cannot unwind */
		a->sample_type |= HWPROF_SAMPLE_ADDR | HWPROF_SAMPLE_DATA_SRC;
		if (first)
			on(a, HWPROF_ATTR_MMAP_DATA);
		break;
	case HWPROF_CG_LBR:
		a->sample_type |= HWPROF_SAMPLE_CALLCHAIN | HWPROF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = (1ULL << 0) /* USER */ | (1ULL << 11) /* CALL_STACK */ |
					(1ULL << 15) /* NO_CYCLES */ | (1ULL << 14) /* NO_FLAGS */ |
					(1ULL << 17) /* HW_INDEX */;
		break;
	default:
		break;
	}
}

/* perf's evsel__reset_callgraph: what a per-event call graph term takes
 * back from the global one (the data address bits, the user registers
 * mask and the stack size stay, as in perf). */
static void reset_call_graph(struct hwprof_attr *a, int cg)
{
	a->sample_type &= ~HWPROF_SAMPLE_CALLCHAIN;
	if (cg == HWPROF_CG_LBR) {
		a->sample_type &= ~HWPROF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type &= ~((1ULL << 0) | (1ULL << 11) | (1ULL << 17));
	}
	if (cg == HWPROF_CG_DWARF)
		a->sample_type &= ~(HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER);
}

/* The global call graph (-g, --call-graph), then the event's terms as
 * perf applies them: call-graph=, or fp when only max-stack= is given;
 * any of call-graph/stack-size/max-stack replaces the global mode (so a
 * lone stack-size= turns it off, as in perf 6.1). */
static void config_call_graph(struct hwprof_event *e, int first, const struct hwprof_evlist_opts *o)
{
	struct hwprof_attr *a = &e->attr;
	apply_call_graph(a, o->call_graph, o->stack_size, first, o);
	if (!(e->set & (HWPROF_EVSET_CALL_GRAPH | HWPROF_EVSET_STACK_SIZE | HWPROF_EVSET_MAX_STACK)))
		return;
	int cg = (e->set & HWPROF_EVSET_CALL_GRAPH) ? e->call_graph
		 : (e->set & HWPROF_EVSET_MAX_STACK) ? HWPROF_CG_FP
						      : HWPROF_CG_NO;
	/* perf's per-event dump size: the term's, rounded up to 8 bytes, or
	 * its default (not the global --call-graph dwarf,N) */
	uint32_t stack = (e->set & HWPROF_EVSET_STACK_SIZE) ? (e->stack_size + 7u) & ~7u : 8192;
	reset_call_graph(a, o->call_graph);
	apply_call_graph(a, cg, stack, first, o);
}

/* perf record's -d, --sample-cpu, -s, --switch-events, -k and --aux-sample
 * (evsel__config): the sideband bits go on the tracking event only. */
static void config_record_opts(struct hwprof_event *e, int tracking, const struct hwprof_evlist_opts *o)
{
	struct hwprof_attr *a = &e->attr;
	if (o->data_addr) {
		a->sample_type |= HWPROF_SAMPLE_ADDR | HWPROF_SAMPLE_DATA_SRC;
		if (tracking)
			on(a, HWPROF_ATTR_MMAP_DATA);
	}
	if (o->sample_cpu)
		a->sample_type |= HWPROF_SAMPLE_CPU;
	if (o->inherit_stat) {
		on(a, HWPROF_ATTR_INHERIT_STAT);
		a->read_format |= HWPROF_FORMAT_TOTAL_TIME_ENABLED | HWPROF_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (o->switch_events && tracking)
		on(a, HWPROF_ATTR_CONTEXT_SWITCH);
	if (o->use_clockid) {
		on(a, HWPROF_ATTR_USE_CLOCKID);
		a->clockid = o->clockid;
	}
	if (o->aux_sample && !e->is_aux) {
		a->sample_type |= HWPROF_SAMPLE_AUX;
		a->aux_sample_size = o->aux_sample;
	}
}

static int is_dummy(const struct hwprof_attr *a)
{
	return a->type == HWPROF_TYPE_SOFTWARE && a->config == 9;
}

static int is_bpf_output(const struct hwprof_attr *a)
{
	return a->type == HWPROF_TYPE_SOFTWARE && a->config == 10;
}

/* perf 6.1 (record__open): with an initial delay or CPUs as the target,
 * the sideband (mmap, comm, task, ...) is carried by a "dummy:HG" event
 * appended to the list, unless the tracking event already is a dummy. It
 * is enabled at once for CPU targets (so the sideband covers the delay
 * and the synthesis), on exec otherwise; the recorder sets those bits. */
static int add_tracking_dummy(struct hwprof_evlist *l, const struct hwprof_evlist_opts *o, size_t *track,
			      struct hwprof_error *err)
{
	if (!(o->target_cpu || o->delay) || !l->nr || is_dummy(&l->ev[*track].attr))
		return 0;
	int rc = hwprof_evlist_parse(l, "dummy:HG", NULL, err);
	if (rc < 0)
		return rc;
	*track = l->nr - 1;
	l->ev[*track].added = 1;
	return 0;
}

HWPROF_API int hwprof_evlist_config(struct hwprof_evlist *l, const struct hwprof_evlist_opts *o,
				    const struct hwprof_pmus *pmus, struct hwprof_error *err)
{
	struct hwprof_evlist_opts dflt;
	if (!l)
		return -HWPROF_E_INVAL;
	if (!o) {
		hwprof_evlist_opts_default(&dflt);
		o = &dflt;
	}
	if (err)
		memset(err, 0, sizeof(*err));
	size_t track; /* perf's tracking evsel: the first, or a dummy */
	int spe, rc = evt_spe_prepare(l, o, pmus, &track, &spe, err);
	if (rc)
		return rc;
	if ((rc = add_tracking_dummy(l, o, &track, err)) < 0)
		return rc;
	for (size_t i = 0; i < l->nr; i++) {
		struct hwprof_event *e = &l->ev[i];
		struct hwprof_event *lead = &l->ev[e->leader];
		struct hwprof_attr *a = &e->attr;
		int is_leader = e->leader == i;
		int group_read = lead->sample_read && lead->nr_members > 1;

		a->size = HWPROF_ATTR_SIZE_VER7;
		a->sample_type |= HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME;
		if (is_bpf_output(a)) /* perf's sample type for what BPF programs write */
			a->sample_type |= HWPROF_SAMPLE_RAW | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD;
		a->read_format |= HWPROF_FORMAT_ID | HWPROF_FORMAT_LOST;
		on(a, HWPROF_ATTR_SAMPLE_ID_ALL);
		if (e->precise_max)
			a->flags |= 3ULL << HWPROF_ATTR_PRECISE_IP; /* perf lowers it to what opens */

		if (e->is_aux && !strcmp(e->pmu, "intel_pt")) {
			/* perf record's checks against caps/ (a copy: forcing pt=1
			 * is the caller's, who also owes perf's warning) */
			const struct hwprof_pmu *pmu = pmus ? hwprof_pmus_find(pmus, e->pmu) : NULL;
			uint64_t cfg = a->config;
			struct hwprof_error perr;
			int prc = pmu ? hwprof_pt_check_config(pmu, &cfg, NULL, &perr) : 0;
			if (prc < 0) {
				if (err) {
					*err = perr;
					err->offset = e->spec_off;
				}
				return prc;
			}
		}
		if (e->is_aux) {
			off(a, HWPROF_ATTR_FREQ);
			/* -c overrides the AUX PMU's own period too (perf 6.1 evsel__config) */
			a->sample_period = (e->set & HWPROF_EVSET_PERIOD) ? e->period
					   : o->period ? o->period : aux_period(e, pmus);
		} else if (e->set & HWPROF_EVSET_PERIOD) {
			off(a, HWPROF_ATTR_FREQ);
			a->sample_period = e->period;
		} else if (e->set & HWPROF_EVSET_FREQ) {
			on(a, HWPROF_ATTR_FREQ);
			a->sample_period = e->freq;
			a->sample_type |= HWPROF_SAMPLE_PERIOD;
		} else if (o->period) {
			off(a, HWPROF_ATTR_FREQ);
			a->sample_period = o->period;
		} else if (is_bpf_output(a) && !o->user_freq) {
			off(a, HWPROF_ATTR_FREQ); /* perf: every output is a sample */
			a->sample_period = 1;
		} else {
			on(a, HWPROF_ATTR_FREQ);
			a->sample_period = o->freq;
			a->sample_type |= HWPROF_SAMPLE_PERIOD;
		}

		int inherit = !o->no_inherit;
		if (e->set & HWPROF_EVSET_INHERIT)
			inherit = e->inherit;
		if (group_read)
			inherit = 0; /* the kernel refuses inherited group reads */
		if (inherit)
			on(a, HWPROF_ATTR_INHERIT);
		if (is_leader) {
			on(a, HWPROF_ATTR_DISABLED);
			on(a, HWPROF_ATTR_ENABLE_ON_EXEC);
		}
		if (i == track) {
			static const unsigned track_bits[] = {
				HWPROF_ATTR_MMAP, HWPROF_ATTR_COMM, HWPROF_ATTR_TASK, HWPROF_ATTR_MMAP2,
				HWPROF_ATTR_COMM_EXEC, HWPROF_ATTR_KSYMBOL, HWPROF_ATTR_BPF_EVENT,
			};
			for (size_t k = 0; k < sizeof(track_bits) / sizeof(track_bits[0]); k++)
				on(a, track_bits[k]);
		}
		if (i == track && e->added && is_dummy(a) && !o->period && !o->user_freq) {
			/* the dummy samples nothing: perf gives it period 1 rather
			 * than the default frequency (a dummy named with -e gets
			 * the defaults of any event) */
			off(a, HWPROF_ATTR_FREQ);
			a->sample_period = 1;
			a->sample_type &= ~HWPROF_SAMPLE_PERIOD;
		}
		config_call_graph(e, i == track, o);
		config_record_opts(e, i == track, o);
		if (e->set & HWPROF_EVSET_MAX_STACK)
			a->sample_max_stack = e->max_stack;
		if ((e->set & HWPROF_EVSET_TIME) && !e->time)
			a->sample_type &= ~HWPROF_SAMPLE_TIME;
		if (e->set & HWPROF_EVSET_AUX_SAMPLE_SIZE) {
			if (is_leader || !lead->is_aux) {
				if (err) {
					err->code = -HWPROF_E_INVAL;
					err->offset = e->spec_off;
					snprintf(err->msg, sizeof(err->msg),
						 "%s: aux-sample-size needs an AUX area event (intel_pt, arm_spe) as group leader",
						 e->name);
				}
				return -HWPROF_E_INVAL;
			}
			a->aux_sample_size = e->aux_sample_size;
			a->sample_type |= HWPROF_SAMPLE_AUX;
		}
		if (e->sample_read) {
			a->sample_type |= HWPROF_SAMPLE_READ | HWPROF_SAMPLE_ID;
			if (group_read)
				a->read_format |= HWPROF_FORMAT_GROUP;
		}
		if (group_read && !is_leader) {
			/* members are read with the leader's samples, they do not sample */
			a->sample_period = 0;
			off(a, HWPROF_ATTR_FREQ);
		}
	}
	if (l->nr > 1) {
		int same = 1;
		for (size_t i = 1; i < l->nr; i++)
			same &= l->ev[i].attr.sample_type == l->ev[0].attr.sample_type;
		for (size_t i = 0; i < l->nr; i++) {
			struct hwprof_attr *a = &l->ev[i].attr;
			if (same) {
				a->sample_type |= HWPROF_SAMPLE_ID;
			} else {
				a->sample_type &= ~HWPROF_SAMPLE_ID;
				a->sample_type |= HWPROF_SAMPLE_IDENTIFIER;
			}
		}
	}
	if (spe)
		evt_spe_finish(l, pmus, track);
	return 0;
}
