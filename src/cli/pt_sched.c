/* Queue scheduling for timed Intel PT decoding (see pt_sched.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pt_sched.h"
#include "cli/pt_switch.h"

/* a worker waits at its gate, at a switch (off the heap until a switch
 * record wakes it), or is done */
enum { W_BLOCKED, W_HELD, W_DONE };

struct worker;

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct worker *turn;     /* who may run: a worker, or NULL (the caller) */
	bool stop;               /* held runs end at their gate */
	struct pt_feed *f;
	/* for a queue's thread changed in its run: at the switch ip */
	pt_sched_select_fn select;
	void *sel_ctx;
	size_t at;               /* the limits of the run going on */
};

struct worker {
	struct sched *s;
	size_t q;
	pthread_t th;
	bool started;
	struct hwprof_pt_synth_config cfg;
	uint64_t limit, ordinal;
	uint64_t wake_tsc;       /* held: the switch record's time */
	int state, rc;
};

struct heap_item {
	uint64_t ordinal;
	size_t q;
};

/* perf's auxtrace heap: sift up while the parent is greater */
static void heapify(struct heap_item *h, size_t pos, size_t q, uint64_t ordinal)
{
	while (pos) {
		size_t parent = (pos - 1) >> 1;
		if (h[parent].ordinal <= ordinal)
			break;
		h[pos] = h[parent];
		pos = parent;
	}
	h[pos].q = q;
	h[pos].ordinal = ordinal;
}

/* perf's pop: the smaller child moves up (the right one on a tie), the
 * last item fills the hole */
static void heap_pop(struct heap_item *h, size_t *cnt)
{
	size_t n = *cnt, pos = 0;
	if (!n)
		return;
	*cnt = n - 1;
	for (;;) {
		size_t left = (pos << 1) + 1, right = left + 1;
		if (left >= n)
			break;
		if (right >= n) {
			h[pos] = h[left];
			return;
		}
		if (h[left].ordinal < h[right].ordinal) {
			h[pos] = h[left];
			pos = left;
		} else {
			h[pos] = h[right];
			pos = right;
		}
	}
	heapify(h, pos, h[n - 1].q, h[n - 1].ordinal);
}

/* On a worker: its decoder reached a state with queue time tsc. */
/* On a worker: hands the turn back in state (at ordinal) and waits for
 * its next turn. Returns 1 when the runs are to stop. */
static int pause_run(struct worker *w, int state, uint64_t ordinal)
{
	struct sched *s = w->s;
	pthread_mutex_lock(&s->mu);
	w->ordinal = ordinal;
	w->state = state;
	s->turn = NULL;
	pthread_cond_broadcast(&s->cv);
	while (s->turn != w)
		pthread_cond_wait(&s->cv, &s->mu);
	bool stop = s->stop;
	pthread_mutex_unlock(&s->mu);
	return stop ? 1 : 0;
}

static int gate(void *ctx, uint64_t tsc)
{
	struct worker *w = ctx;
	return tsc < w->limit ? 0 : pause_run(w, W_BLOCKED, tsc);
}

/* On a worker: perf's sync_switch (pt_switch.h) after a state, at a
 * state's time and at an error. */
static int switch_hook(void *ctx, int what, uint64_t to, uint32_t flags, uint64_t *qts)
{
	struct worker *w = ctx;
	struct sched *s = w->s;
	if (what == HWPROF_PT_SW_TIME)
		return pt_switch_estimate(s->f, w->q, to, flags);
	if (what == HWPROF_PT_SW_END) {
		pt_switch_end(s->f, w->q);
		return 0;
	}
	if (what == HWPROF_PT_SW_ERROR || what == HWPROF_PT_SW_FFWD) {
		if (what == HWPROF_PT_SW_ERROR ? pt_switch_error(s->f, w->q, to) : pt_switch_ffwd(s->f, w->q)) {
			pt_switch_next_tid(s->f, w->q);
			s->select(s->sel_ctx, w->q, s->at, true);
		}
		return 0;
	}
	enum pt_switch_act act = pt_switch_state(s->f, w->q, to, flags);
	if (act == PT_SW_NEXT_TID) {
		pt_switch_next_tid(s->f, w->q);
		s->select(s->sel_ctx, w->q, s->at, true);
	}
	if (act != PT_SW_HOLD)
		return 0;
	/* at the switch before its record: off perf's heap until the record
	 * puts it back, with the record's time as its queue time */
	if (pause_run(w, W_HELD, w->ordinal))
		return 1;
	*qts = w->wake_tsc; /* its thread: selected as the run resumes */
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct sched *s = w->s;
	pthread_mutex_lock(&s->mu);
	while (s->turn != w)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	struct pt_queue *q = &s->f->q[w->q];
	w->cfg.flow.ref_tsc = q->ref;
	w->cfg.bufs = q->bufs;
	w->cfg.nbufs = q->nbufs;
	int rc = hwprof_pt_synth_queue(&w->cfg, q->buf, q->len);
	pthread_mutex_lock(&s->mu);
	w->rc = rc;
	w->state = W_DONE;
	s->turn = NULL;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Lets w run until its decoder reaches limit (or its end). */
static void resume(struct sched *s, struct worker *w, uint64_t limit)
{
	pthread_mutex_lock(&s->mu);
	w->limit = limit;
	s->turn = w;
	pthread_cond_broadcast(&s->cv);
	while (s->turn != NULL)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

struct pt_sched {
	struct sched s;
	struct pt_feed *f;
	pt_sched_select_fn select;
	void *ctx;
	struct worker *w;
	struct heap_item *heap;
	size_t cnt, nq;
	size_t next;             /* limits run so far */
	bool set_up;
	int rc;
};

int pt_sched_open(struct pt_sched **out, struct pt_feed *f, pt_sched_select_fn select, void *ctx)
{
	struct pt_sched *p = calloc(1, sizeof(*p));
	size_t nq = f->nq ? f->nq : 1;
	if (p) {
		p->w = calloc(nq, sizeof(*p->w));
		p->heap = calloc(nq, sizeof(*p->heap));
	}
	if (!p || !p->w || !p->heap) {
		if (p) {
			free(p->w);
			free(p->heap);
		}
		free(p);
		return -HWPROF_E_NOMEM;
	}
	p->s.f = p->f = f;
	p->s.select = select;
	p->s.sel_ctx = ctx;
	p->nq = f->nq;
	p->select = select;
	p->ctx = ctx;
	pthread_mutex_init(&p->s.mu, NULL);
	pthread_cond_init(&p->s.cv, NULL);
	*out = p;
	return 0;
}

/* perf's queue set-up: each queue decodes to its first state with a time,
 * which is its place in the heap */
static void set_up(struct pt_sched *p)
{
	p->set_up = true;
	pt_feed_sync_start(p->f);
	for (size_t i = 0; i < p->nq && !p->rc; i++) {
		if (!p->f->q[i].len)
			continue;
		struct worker *k = &p->w[i];
		k->s = &p->s;
		k->q = i;
		k->cfg = p->f->cfg;
		/* the stack of the thread it runs: select() puts it there */
		k->cfg.tstack = &p->f->q[i].ts;
		k->cfg.space = &p->f->q[i].img;
		k->cfg.trace_nr = i + 1;
		k->cfg.gate = gate;
		k->cfg.gate_ctx = k;
		if (p->f->switch_ip)
			k->cfg.switch_hook = switch_hook;
		if (pthread_create(&k->th, NULL, worker_main, k)) {
			p->rc = -HWPROF_E_NOMEM;
			break;
		}
		k->started = true;
		p->select(p->ctx, i, 0, false);
		resume(&p->s, k, 0);
		if (k->state == W_DONE) /* no state with a time: perf never decodes it */
			p->rc = k->rc;
		else
			heapify(p->heap, p->cnt++, i, k->ordinal);
	}
}

/* A switch record puts a held queue back on the heap. */
static void wake(void *ctx, size_t q, uint64_t tsc)
{
	struct pt_sched *p = ctx;
	struct worker *w = &p->w[q];
	if (w->state != W_HELD)
		return;
	w->state = W_BLOCKED;
	w->wake_tsc = tsc;
	heapify(p->heap, p->cnt++, q, tsc);
}

int pt_sched_advance(struct pt_sched *p, size_t upto)
{
	if (!p->set_up)
		set_up(p);
	/* perf's intel_pt_process_queues() at each event, then at the end */
	for (; p->next <= upto && !p->rc; p->next++) {
		size_t l = p->next;
		/* the switch records before this limit's event */
		pt_feed_switches(p->f, l, wake, p);
		p->s.at = l;
		uint64_t limit = l < p->f->nlimits ? p->f->limits[l] : UINT64_MAX;
		while (p->cnt && p->heap[0].ordinal < limit && !p->rc) {
			size_t q = p->heap[0].q;
			heap_pop(p->heap, &p->cnt);
			uint64_t ts = limit;
			if (p->cnt && p->heap[0].ordinal + 1 < ts)
				ts = p->heap[0].ordinal + 1;
			p->select(p->ctx, q, l, true);
			resume(&p->s, &p->w[q], ts);
			if (p->w[q].state == W_DONE)
				p->rc = p->w[q].rc;
			else if (p->w[q].state != W_HELD)
				heapify(p->heap, p->cnt++, q, p->w[q].ordinal);
		}
	}
	return p->rc;
}

int pt_sched_close(struct pt_sched *p, bool finish)
{
	if (!p)
		return 0;
	int rc = finish ? pt_sched_advance(p, p->f->nlimits) : p->rc;
	/* after an error, the runs still held end at their gate */
	p->s.stop = true;
	for (size_t i = 0; i < p->nq; i++) {
		if (!p->w[i].started)
			continue;
		if (p->w[i].state != W_DONE)
			resume(&p->s, &p->w[i], 0);
		pthread_join(p->w[i].th, NULL);
	}
	pthread_cond_destroy(&p->s.cv);
	pthread_mutex_destroy(&p->s.mu);
	free(p->w);
	free(p->heap);
	free(p);
	return rc;
}

int pt_sched_run(struct pt_feed *f, pt_sched_select_fn select, void *ctx)
{
	struct pt_sched *p;
	int rc = pt_sched_open(&p, f, select, ctx);
	return rc < 0 ? rc : pt_sched_close(p, true);
}

int pt_sched_finish(struct pt_sched **p, struct pt_feed *f, pt_sched_select_fn select, void *ctx)
{
	if (!*p)
		return pt_sched_decode(f, select, ctx);
	int rc = pt_sched_close(*p, true);
	*p = NULL;
	return rc;
}

int pt_sched_decode(struct pt_feed *f, pt_sched_select_fn select, void *ctx)
{
	if (f->cfg.timed && (pt_feed_queues_used(f) > 1 || f->per_cpu))
		return pt_sched_run(f, select, ctx);
	/* timeless: the queues perf decodes at their thread's EXIT first, in
	 * that order, then the others in order */
	size_t *order = malloc((f->nq ? f->nq : 1) * sizeof(*order)), n = 0;
	if (!order)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < f->nq; i++)
		if (f->q[i].len)
			order[n++] = i;
	for (size_t a = 1; a < n; a++) { /* insertion sort: stable, few queues */
		size_t v = order[a], b = a;
		size_t kv = f->q[v].exit_at ? f->q[v].exit_at : SIZE_MAX;
		while (b && (f->q[order[b - 1]].exit_at ? f->q[order[b - 1]].exit_at : SIZE_MAX) > kv) {
			order[b] = order[b - 1];
			b--;
		}
		order[b] = v;
	}
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		struct pt_queue *q = &f->q[order[k]];
		select(ctx, order[k], q->exit_at ? q->exit_at - 1 : SIZE_MAX, true);
		f->cfg.flow.ref_tsc = q->ref;
		f->cfg.tstack = &q->ts;
		f->cfg.space = &q->img;
		f->cfg.trace_nr = order[k] + 1;
		f->cfg.bufs = q->bufs;
		f->cfg.nbufs = q->nbufs;
		rc = hwprof_pt_synth_queue(&f->cfg, q->buf, q->len);
	}
	free(order);
	return rc;
}
