/* The profile model: walks a session's samples, turns each callchain into
 * a stack of interned frames (deduplicated in a trie keyed by parent and
 * frame) and sums weights per (thread, event, stack). Callchains are read
 * as perf does by default: context markers switch the cpumode and are
 * skipped, the first entry is the sampled ip, and a sample without a
 * callchain is its ip alone. */
#include <stdlib.h>
#include <string.h>

#include "hwprof/profile.h"
#include "hwprof/symbols.h"
#include "report/report_int.h"

#define NAME_MAX_LEN 1024
#define PROGRESS_EVERY 4096

struct prof_node { uint32_t parent, frame, depth; };

struct hwprof_profile {
	struct rpt_strings strs;
	struct hwprof_profile_frame *frames;
	size_t nr_frames, cap_frames;
	struct rpt_map frame_map;
	struct prof_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct rpt_map node_map;
	struct hwprof_profile_thread *threads;
	size_t nr_threads, cap_threads;
	struct rpt_map thread_map;
	struct hwprof_profile_event *events;
	size_t nr_events, cap_events;
	struct rpt_map event_map;     /* evsel idx -> event */
	struct hwprof_profile_entry *entries;
	size_t nr_entries, cap_entries;
	struct rpt_map entry_map;
	uint64_t first_time, last_time, nr_bad;
	bool have_time;
	/* scratch: frame ids of the sample being added, leaf first */
	uint32_t *chain;
	size_t cap_chain;
};

HWPROF_API int hwprof_resolve_dso_only(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid,
				       unsigned cpumode, uint64_t addr, char *name, size_t len,
				       const char **dso)
{
	struct hwprof_map_info m;
	char level;
	snprintf(name, len, "[unknown]");
	*dso = NULL;
	if (hwprof_session_find_map(s, pid, tid, cpumode, addr, &m, &level) == 1)
		*dso = m.dso;
	return 0;
}

HWPROF_API int hwprof_resolve_symbols(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid,
				      unsigned cpumode, uint64_t addr, char *name, size_t len,
				      const char **dso)
{
	struct hwprof_map_info m;
	struct hwprof_symres res;
	char level;
	snprintf(name, len, "[unknown]");
	*dso = NULL;
	if (hwprof_session_find_map(s, pid, tid, cpumode, addr, &m, &level) != 1)
		return 0;
	*dso = m.dso;
	if (ctx && hwprof_symbols_resolve(ctx, m.dso, m.start, m.pgoff, addr, &res) >= 0 && res.sym) {
		snprintf(name, len, "%s", res.sym->name);
		return 1;
	}
	return 0;
}

static int intern_frame(struct hwprof_profile *p, const char *name, const char *dso, bool kernel,
			bool resolved, uint32_t *id)
{
	const char *n = rpt_intern(&p->strs, name);
	const char *d = dso ? rpt_intern(&p->strs, dso) : NULL;
	if (!n || (dso && !d))
		return -HWPROF_E_NOMEM;
	uint64_t k2 = (uint64_t)(uintptr_t)d | (kernel ? 1 : 0) | (resolved ? 2 : 0);
	*id = (uint32_t)p->nr_frames;
	int r = rpt_map_get(&p->frame_map, (uint64_t)(uintptr_t)n, k2, id, true);
	if (r != 0)
		return r < 0 ? r : 0;
	if (rpt_grow(&p->frames, &p->cap_frames, p->nr_frames + 1, sizeof(*p->frames)) < 0)
		return -HWPROF_E_NOMEM;
	struct hwprof_profile_frame *f = &p->frames[p->nr_frames++];
	f->name = n;
	f->dso = d;
	f->kernel = kernel;
	f->resolved = resolved;
	f->label = n;
	if (!resolved && d) {
		/* A placeholder name alone would merge every DSO into one frame. */
		char buf[NAME_MAX_LEN + 256];
		snprintf(buf, sizeof(buf), "%s (%s)", n, rpt_basename(d));
		if (!(f->label = rpt_intern(&p->strs, buf)))
			return -HWPROF_E_NOMEM;
	}
	return 0;
}

static int resolve_frame(struct hwprof_profile *p, struct hwprof_session *s, const struct hwprof_profile_opts *o,
			 int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr, uint32_t *id)
{
	char name[NAME_MAX_LEN];
	const char *dso = NULL;
	name[0] = 0;
	hwprof_resolve_fn fn = o && o->resolve ? o->resolve : hwprof_resolve_dso_only;
	int r = fn(o ? o->resolve_ctx : NULL, s, pid, tid, cpumode, addr, name, sizeof(name), &dso);
	if (r < 0)
		return r;
	name[sizeof(name) - 1] = 0;
	if (!name[0])
		snprintf(name, sizeof(name), "[unknown]");
	bool kernel = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
	return intern_frame(p, name, dso, kernel, r > 0, id);
}

/* The cpumode a callchain context marker switches to, or -1 if the entry
 * is an address. */
static int context_mode(uint64_t v)
{
	if (v < HWPROF_CONTEXT_MAX)
		return -1;
	switch (v) {
	case HWPROF_CONTEXT_HV: return HWPROF_MISC_HYPERVISOR;
	case HWPROF_CONTEXT_KERNEL: return HWPROF_MISC_KERNEL;
	case HWPROF_CONTEXT_USER: return HWPROF_MISC_USER;
	case HWPROF_CONTEXT_GUEST_KERNEL: return HWPROF_MISC_GUEST_KERNEL;
	case HWPROF_CONTEXT_GUEST_USER: return HWPROF_MISC_GUEST_USER;
	default: return -2; /* GUEST and unknown markers: keep the mode */
	}
}

/* Builds the stack of a sample; *stack gets its trie node. */
static int sample_stack(struct hwprof_profile *p, struct hwprof_session *s, const struct hwprof_profile_opts *o,
			const struct hwprof_sample *sm, uint32_t *stack)
{
	int32_t pid = (int32_t)sm->pid, tid = (int32_t)sm->tid;
	unsigned mode = sm->misc & HWPROF_MISC_CPUMODE_MASK;
	size_t n = 0;
	int r;
	bool chain = (sm->sample_type & HWPROF_SAMPLE_CALLCHAIN) && sm->callchain_nr;
	size_t want = chain ? sm->callchain_nr : 1;
	if (rpt_grow(&p->chain, &p->cap_chain, want, sizeof(uint32_t)) < 0)
		return -HWPROF_E_NOMEM;
	if (chain) {
		for (uint64_t i = 0; i < sm->callchain_nr; i++) {
			uint64_t v = hwprof_u64_at(sm->callchain, i);
			int m = context_mode(v);
			if (m >= 0)
				mode = (unsigned)m;
			if (m != -1)
				continue;
			if ((r = resolve_frame(p, s, o, pid, tid, mode, v, &p->chain[n])) < 0)
				return r;
			n++;
		}
	}
	if (!n) {
		if ((r = resolve_frame(p, s, o, pid, tid, sm->misc & HWPROF_MISC_CPUMODE_MASK, sm->ip,
				       &p->chain[0])) < 0)
			return r;
		n = 1;
	}
	uint32_t parent = HWPROF_STACK_NONE;
	for (size_t i = n; i-- > 0;) {
		uint32_t id = (uint32_t)p->nr_nodes;
		r = rpt_map_get(&p->node_map, parent, p->chain[i], &id, true);
		if (r < 0)
			return r;
		if (r == 0) {
			if (rpt_grow(&p->nodes, &p->cap_nodes, p->nr_nodes + 1, sizeof(*p->nodes)) < 0)
				return -HWPROF_E_NOMEM;
			p->nodes[p->nr_nodes].parent = parent;
			p->nodes[p->nr_nodes].frame = p->chain[i];
			p->nodes[p->nr_nodes].depth = parent == HWPROF_STACK_NONE ? 1 : p->nodes[parent].depth + 1;
			p->nr_nodes++;
		}
		parent = id;
	}
	*stack = parent;
	return 0;
}

static int sample_thread(struct hwprof_profile *p, struct hwprof_session *s, const struct hwprof_sample *sm,
			 uint32_t *idx)
{
	int32_t pid = (int32_t)sm->pid, tid = (int32_t)sm->tid;
	const char *comm = hwprof_session_thread_comm(s, pid, tid);
	const char *c = rpt_intern(&p->strs, comm ? comm : "[unknown]");
	if (!c)
		return -HWPROF_E_NOMEM;
	*idx = (uint32_t)p->nr_threads;
	int r = rpt_map_get(&p->thread_map, (uint32_t)pid, (uint32_t)tid, idx, true);
	if (r < 0)
		return r;
	if (r == 0) {
		if (rpt_grow(&p->threads, &p->cap_threads, p->nr_threads + 1, sizeof(*p->threads)) < 0)
			return -HWPROF_E_NOMEM;
		memset(&p->threads[p->nr_threads], 0, sizeof(*p->threads));
		p->threads[p->nr_threads].pid = pid;
		p->threads[p->nr_threads].tid = tid;
		p->nr_threads++;
	}
	p->threads[*idx].comm = c;
	return 0;
}

static int sample_event(struct hwprof_profile *p, const struct hwprof_sample *sm, uint32_t *idx)
{
	const struct hwprof_evsel *ev = sm->evsel;
	uint32_t key = ev ? ev->idx : UINT32_MAX;
	*idx = (uint32_t)p->nr_events;
	int r = rpt_map_get(&p->event_map, key, 0, idx, true);
	if (r != 0)
		return r < 0 ? r : 0;
	if (rpt_grow(&p->events, &p->cap_events, p->nr_events + 1, sizeof(*p->events)) < 0)
		return -HWPROF_E_NOMEM;
	struct hwprof_profile_event *e = &p->events[p->nr_events++];
	memset(e, 0, sizeof(*e));
	char buf[256];
	const char *name = ev ? hwprof_evsel_name(ev, buf, sizeof(buf)) : "unknown";
	if (!(e->name = rpt_intern(&p->strs, name ? name : "unknown")))
		return -HWPROF_E_NOMEM;
	e->evsel_idx = key;
	/* The software clocks count nanoseconds, so their periods are times. */
	e->period_is_ns = ev && ev->attr.type == HWPROF_TYPE_SOFTWARE && (ev->attr.config == 0 || ev->attr.config == 1);
	return 0;
}

static int add_sample(struct hwprof_profile *p, struct hwprof_session *s, const struct hwprof_profile_opts *o,
		      const struct hwprof_sample *sm)
{
	struct hwprof_profile_sample ps;
	int r;
	if ((r = sample_stack(p, s, o, sm, &ps.stack)) < 0 || (r = sample_thread(p, s, sm, &ps.thread)) < 0 ||
	    (r = sample_event(p, sm, &ps.event)) < 0)
		return r;
	ps.weight = (sm->sample_type & HWPROF_SAMPLE_PERIOD) ? sm->period : 1;
	if (!(sm->sample_type & HWPROF_SAMPLE_PERIOD) && sm->evsel && !HWPROF_ATTR_HAS(&sm->evsel->attr, HWPROF_ATTR_FREQ) &&
	    sm->evsel->attr.sample_period)
		ps.weight = sm->evsel->attr.sample_period;
	ps.time = (sm->sample_type & HWPROF_SAMPLE_TIME) ? sm->time : 0;
	ps.cpu = (sm->sample_type & HWPROF_SAMPLE_CPU) ? sm->cpu : UINT32_MAX;
	ps.pid = (int32_t)sm->pid;
	ps.tid = (int32_t)sm->tid;
	if (sm->sample_type & HWPROF_SAMPLE_TIME) {
		if (!p->have_time || ps.time < p->first_time)
			p->first_time = ps.time;
		if (!p->have_time || ps.time > p->last_time)
			p->last_time = ps.time;
		p->have_time = true;
	}
	struct hwprof_profile_thread *t = &p->threads[ps.thread];
	t->nr_samples++;
	t->weight += ps.weight;
	p->events[ps.event].nr_samples++;
	p->events[ps.event].weight += ps.weight;
	uint32_t ei = (uint32_t)p->nr_entries;
	r = rpt_map_get(&p->entry_map, ((uint64_t)ps.thread << 32) | ps.event, ps.stack, &ei, true);
	if (r < 0)
		return r;
	if (r == 0) {
		if (rpt_grow(&p->entries, &p->cap_entries, p->nr_entries + 1, sizeof(*p->entries)) < 0)
			return -HWPROF_E_NOMEM;
		struct hwprof_profile_entry *e = &p->entries[p->nr_entries++];
		e->thread = ps.thread;
		e->event = ps.event;
		e->stack = ps.stack;
		e->nr_samples = e->weight = 0;
	}
	p->entries[ei].nr_samples++;
	p->entries[ei].weight += ps.weight;
	if (o && o->on_sample && (r = o->on_sample(o->sample_ctx, p, &ps)) < 0)
		return r;
	return 0;
}

HWPROF_API int hwprof_profile_build(struct hwprof_profile **out, struct hwprof_session *s,
				    const struct hwprof_profile_opts *opts, struct hwprof_error *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	struct hwprof_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return -HWPROF_E_NOMEM;
	const struct hwprof_perfdata_info *info = hwprof_perfdata_info(hwprof_session_data(s));
	uint64_t total = info ? info->file_size : 0;
	struct hwprof_event ev;
	uint64_t n = 0;
	int r;
	while ((r = hwprof_session_next(s, &ev)) > 0) {
		if (opts && opts->progress && ++n % PROGRESS_EVERY == 0)
			opts->progress(opts->progress_ctx, ev.rec.offset, total);
		if (ev.rec.type != HWPROF_RECORD_SAMPLE)
			continue;
		if (ev.parse_err < 0) {
			p->nr_bad++;
			continue;
		}
		if ((r = add_sample(p, s, opts, &ev.sample)) < 0) {
			if (err) {
				err->code = r;
				err->offset = ev.rec.offset;
				snprintf(err->msg, sizeof(err->msg), "building the profile at offset %#llx: %s",
					 (unsigned long long)ev.rec.offset, hwprof_strerror(r));
			}
			hwprof_profile_free(p);
			return r;
		}
	}
	if (opts && opts->progress)
		opts->progress(opts->progress_ctx, total, total);
	if (r < 0 && err) {
		const struct hwprof_error *e = hwprof_perfdata_error(hwprof_session_data(s));
		if (e && e->code)
			*err = *e;
		else
			err->code = r;
	}
	*out = p;
	return r < 0 ? r : 0;
}

HWPROF_API void hwprof_profile_free(struct hwprof_profile *p)
{
	if (!p)
		return;
	rpt_strings_free(&p->strs);
	free(p->frames);
	rpt_map_free(&p->frame_map);
	free(p->nodes);
	rpt_map_free(&p->node_map);
	free(p->threads);
	rpt_map_free(&p->thread_map);
	free(p->events);
	rpt_map_free(&p->event_map);
	free(p->entries);
	rpt_map_free(&p->entry_map);
	free(p->chain);
	free(p);
}

HWPROF_API uint32_t hwprof_profile_nr_frames(const struct hwprof_profile *p) { return (uint32_t)p->nr_frames; }
HWPROF_API const struct hwprof_profile_frame *hwprof_profile_frame(const struct hwprof_profile *p, uint32_t id)
{
	return id < p->nr_frames ? &p->frames[id] : NULL;
}
HWPROF_API uint32_t hwprof_profile_nr_stacks(const struct hwprof_profile *p) { return (uint32_t)p->nr_nodes; }
HWPROF_API uint32_t hwprof_profile_stack_frame(const struct hwprof_profile *p, uint32_t stack)
{
	return stack < p->nr_nodes ? p->nodes[stack].frame : UINT32_MAX;
}
HWPROF_API uint32_t hwprof_profile_stack_parent(const struct hwprof_profile *p, uint32_t stack)
{
	return stack < p->nr_nodes ? p->nodes[stack].parent : HWPROF_STACK_NONE;
}
HWPROF_API uint32_t hwprof_profile_stack_depth(const struct hwprof_profile *p, uint32_t stack)
{
	return stack < p->nr_nodes ? p->nodes[stack].depth : 0;
}
HWPROF_API uint32_t hwprof_profile_stack_frames(const struct hwprof_profile *p, uint32_t stack,
						uint32_t *frames, uint32_t max)
{
	uint32_t d = hwprof_profile_stack_depth(p, stack);
	for (uint32_t i = d; i-- > 0; stack = p->nodes[stack].parent)
		if (i < max)
			frames[i] = p->nodes[stack].frame;
	return d;
}
HWPROF_API uint32_t hwprof_profile_nr_threads(const struct hwprof_profile *p) { return (uint32_t)p->nr_threads; }
HWPROF_API const struct hwprof_profile_thread *hwprof_profile_thread(const struct hwprof_profile *p, uint32_t i)
{
	return i < p->nr_threads ? &p->threads[i] : NULL;
}
HWPROF_API uint32_t hwprof_profile_nr_events(const struct hwprof_profile *p) { return (uint32_t)p->nr_events; }
HWPROF_API const struct hwprof_profile_event *hwprof_profile_event(const struct hwprof_profile *p, uint32_t i)
{
	return i < p->nr_events ? &p->events[i] : NULL;
}
HWPROF_API uint32_t hwprof_profile_nr_entries(const struct hwprof_profile *p) { return (uint32_t)p->nr_entries; }
HWPROF_API const struct hwprof_profile_entry *hwprof_profile_entry(const struct hwprof_profile *p, uint32_t i)
{
	return i < p->nr_entries ? &p->entries[i] : NULL;
}
HWPROF_API void hwprof_profile_time_range(const struct hwprof_profile *p, uint64_t *first, uint64_t *last)
{
	*first = p->first_time;
	*last = p->last_time;
}
HWPROF_API uint64_t hwprof_profile_nr_bad(const struct hwprof_profile *p) { return p->nr_bad; }
