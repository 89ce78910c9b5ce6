/* Queue scheduling for timed Intel PT decoding (see pt_sched.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pt_sched.h"

enum { W_BLOCKED, W_DONE };

struct worker;

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct worker *turn;     /* who may run: a worker, or NULL (the caller) */
	bool stop;               /* held runs end at their gate */
	struct pt_feed *f;
};

struct worker {
	struct sched *s;
	size_t q;
	pthread_t th;
	bool started;
	struct hwprof_pt_synth_config cfg;
	uint64_t limit, ordinal;
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
static int gate(void *ctx, uint64_t tsc)
{
	struct worker *w = ctx;
	struct sched *s = w->s;
	if (tsc < w->limit)
		return 0;
	pthread_mutex_lock(&s->mu);
	w->ordinal = tsc;
	w->state = W_BLOCKED;
	s->turn = NULL;
	pthread_cond_broadcast(&s->cv);
	while (s->turn != w)
		pthread_cond_wait(&s->cv, &s->mu);
	bool stop = s->stop;
	pthread_mutex_unlock(&s->mu);
	return stop ? 1 : 0;
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

int pt_sched_run(struct pt_feed *f, pt_sched_select_fn select, void *ctx)
{
	const uint64_t *limits = f->limits;
	size_t nlimits = f->nlimits;
	struct sched s = { .f = f };
	struct worker *w = calloc(f->nq ? f->nq : 1, sizeof(*w));
	struct heap_item *heap = calloc(f->nq ? f->nq : 1, sizeof(*heap));
	size_t cnt = 0;
	int rc = 0;
	if (!w || !heap) {
		free(w);
		free(heap);
		return -HWPROF_E_NOMEM;
	}
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	/* perf's queue set-up: each queue decodes to its first state with a
	 * time, which is its place in the heap */
	for (size_t i = 0; i < f->nq && !rc; i++) {
		if (!f->q[i].len)
			continue;
		struct worker *k = &w[i];
		k->s = &s;
		k->q = i;
		k->cfg = f->cfg;
		k->cfg.gate = gate;
		k->cfg.gate_ctx = k;
		if (pthread_create(&k->th, NULL, worker_main, k)) {
			rc = -HWPROF_E_NOMEM;
			break;
		}
		k->started = true;
		select(ctx, i, 0);
		resume(&s, k, 0);
		if (k->state == W_DONE) /* no state with a time: perf never decodes it */
			rc = k->rc;
		else
			heapify(heap, cnt++, i, k->ordinal);
	}
	/* perf's intel_pt_process_queues() at each event, then at the end */
	for (size_t l = 0; l <= nlimits && !rc; l++) {
		uint64_t limit = l < nlimits ? limits[l] : UINT64_MAX;
		while (cnt && heap[0].ordinal < limit && !rc) {
			size_t q = heap[0].q;
			heap_pop(heap, &cnt);
			uint64_t ts = limit;
			if (cnt && heap[0].ordinal + 1 < ts)
				ts = heap[0].ordinal + 1;
			select(ctx, q, l);
			resume(&s, &w[q], ts);
			if (w[q].state == W_DONE)
				rc = w[q].rc;
			else
				heapify(heap, cnt++, q, w[q].ordinal);
		}
	}
	/* after an error, the runs still held end at their gate */
	s.stop = true;
	for (size_t i = 0; i < f->nq; i++) {
		if (!w[i].started)
			continue;
		if (w[i].state != W_DONE)
			resume(&s, &w[i], 0);
		pthread_join(w[i].th, NULL);
	}
	pthread_cond_destroy(&s.cv);
	pthread_mutex_destroy(&s.mu);
	free(w);
	free(heap);
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
		select(ctx, order[k], q->exit_at ? q->exit_at - 1 : SIZE_MAX);
		f->cfg.flow.ref_tsc = q->ref;
		rc = hwprof_pt_synth_queue(&f->cfg, q->buf, q->len);
	}
	free(order);
	return rc;
}
