/* Parallel Intel PT flow decoding with the serial decoder's results.
 *
 * A PSB+ carries what a decoder needs to start (last IP reset, mode,
 * timing, the FUP of where execution is), and our traces, like the CPU's,
 * restart return compression there. So the trace is cut at PSBs into
 * segments that worker threads decode independently, each with its own
 * copy of the image (the block cache is per image).
 *
 * Joining segment k to k+1: k's decoder runs on past the cut for a few
 * events (its "tail", the serial continuation). Once it reaches a decoder
 * state (packet position, pending TNT bits, IP, mode, last IP, timing:
 * struct ipt_flow_state) that k+1's fresh decoder also passed through, the
 * two produce the same instructions from there on; the output is k's
 * events up to that point and k+1's after it. Where no common state is
 * found (an error or overflow right at the cut, say), k's decoder is run
 * again through k+1, so the result is the serial decoder's in every case:
 * the same instructions, branches and events, with block boundaries that
 * may differ where a block cache split a run of instructions.
 *
 * Memory is bounded: workers stay at most WINDOW segments ahead of the
 * events handed to the caller, whose function runs on the calling thread
 * in trace order. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwprof/intel_pt_flow.h"
#include "intel_pt/pt_flow_int.h"

#define TAIL 64          /* events a decoder produces past its cut */
#define HEAD 64          /* how far into the next segment a join may be */
#define WINDOW_PER_THREAD 3
#define RERUN_LIMIT 8    /* segments a re-run may reach back */

struct seg {
	size_t start, end;               /* trace offsets [start, end) */
	size_t dec_start;                /* its events are those of a decoder
					  * started here, from offset start on */
	struct hwprof_pt_event *ev;
	size_t nev, cap, nmain;          /* ev[nmain..nev) is the tail */
	uint8_t *lens;                   /* BLOCK instruction lengths; ev.ilen
					  * holds an index into it until emitted */
	size_t nlens, caplens;
	struct ipt_flow_state *st;       /* after ev[i], i < HEAD, then after
					  * the tail's events: HEAD + TAIL */
	uint8_t *st_ok;                  /* st[i] valid (no events queued) */
	int err;
	int done;
	int to_end;                      /* no cut point: decoded to the end */
	int troubled;                    /* an error or overflow among ev */
};

/* Event and length buffers of emitted segments, kept for the next ones:
 * allocating and faulting in tens of MB per segment costs more than
 * decoding it. */
#define POOL 16
struct buffers {
	struct hwprof_pt_event *ev;
	size_t cap;
	uint8_t *lens;
	size_t caplens;
};

struct par {
	const uint8_t *buf;
	size_t len;
	const struct hwprof_pt_image *img;
	const struct hwprof_pt_flow_config *cfg;
	struct seg *segs;
	size_t nsegs;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t next;                     /* next segment to claim */
	size_t emitted;                  /* segments before this are freed */
	size_t window;
	int stop;
	struct buffers pool[POOL];      /* under mu */
	size_t npool;
};

static int push_event(struct seg *s, const struct hwprof_pt_event *e)
{
	if (s->nev == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 1024;
		struct hwprof_pt_event *n = realloc(s->ev, c * sizeof(*n));
		if (!n)
			return -HWPROF_E_NOMEM;
		s->ev = n;
		s->cap = c;
	}
	struct hwprof_pt_event *d = &s->ev[s->nev];
	*d = *e;
	if (e->type == HWPROF_PT_EV_BLOCK && e->ilen) {
		if (s->nlens + e->ninsn > s->caplens) {
			size_t c = s->caplens ? s->caplens * 2 : 4096;
			while (c < s->nlens + e->ninsn)
				c *= 2;
			uint8_t *n = realloc(s->lens, c);
			if (!n)
				return -HWPROF_E_NOMEM;
			s->lens = n;
			s->caplens = c;
		}
		memcpy(s->lens + s->nlens, e->ilen, e->ninsn);
		d->ilen = (const uint8_t *)(uintptr_t)(s->nlens + 1); /* 0 = none */
		s->nlens += e->ninsn;
	} else {
		d->ilen = NULL;
	}
	s->nev++;
	return 0;
}

static void seg_free(struct seg *s)
{
	free(s->ev);
	free(s->lens);
	free(s->st);
	free(s->st_ok);
	s->ev = NULL;
	s->lens = NULL;
	s->st = NULL;
	s->st_ok = NULL;
	s->nev = s->cap = s->nmain = s->nlens = s->caplens = 0;
}

/* Gives s's buffers to the pool (call with p->mu held). */
static void seg_recycle(struct par *p, struct seg *s)
{
	if (p->npool < POOL && s->ev) {
		p->pool[p->npool++] = (struct buffers){ s->ev, s->cap, s->lens, s->caplens };
		s->ev = NULL;
		s->lens = NULL;
	}
	seg_free(s);
}

/* Takes pooled buffers for s (call with p->mu held). */
static void seg_reuse(struct par *p, struct seg *s)
{
	if (!p->npool)
		return;
	struct buffers b = p->pool[--p->npool];
	s->ev = b.ev;
	s->cap = b.cap;
	s->lens = b.lens;
	s->caplens = b.caplens;
}

static int is_branch_block(const struct hwprof_pt_event *e)
{
	return e->type == HWPROF_PT_EV_BLOCK && e->iclass != HWPROF_PT_IC_OTHER;
}

/* Decodes from `from` on. A segment's events end after the first block
 * ending in a branch that left the decoder at `end` or later: a point in
 * the instruction stream every decoder of the trace agrees on (unlike
 * event counts or blocks ending without a branch, which depend on the
 * block cache). Events up to the same point for `start` are dropped (a
 * serial re-run's already emitted part); then the segment's events, then
 * TAIL more; all of them when end is the trace's end. */
static int decode_range(const struct par *p, struct hwprof_pt_image *img, size_t from, size_t start,
			size_t end, struct seg *s)
{
	s->st = calloc(HEAD + TAIL, sizeof(*s->st));
	s->st_ok = calloc(HEAD + TAIL, 1);
	if (!s->st || !s->st_ok)
		return -HWPROF_E_NOMEM;
	struct hwprof_pt_flow *flow;
	int ret = hwprof_pt_flow_new(&flow, p->buf + from, p->len - from, img, p->cfg);
	if (ret < 0)
		return ret;
	struct hwprof_pt_event ev;
	int skipping = start > from, in_tail = 0;
	s->nmain = SIZE_MAX;
	while ((ret = hwprof_pt_flow_next(flow, &ev)) == 1) {
		ev.offset += from;
		uint64_t pos = from + ipt_flow_pos(flow);
		if (skipping) {
			skipping = !(is_branch_block(&ev) && pos >= start);
			continue;
		}
		if (in_tail && s->nev - s->nmain >= TAIL)
			break;
		if ((ret = push_event(s, &ev)) < 0)
			break;
		s->troubled |= ev.type == HWPROF_PT_EV_ERROR || ev.type == HWPROF_PT_EV_OVF;
		size_t k = in_tail ? HEAD + (s->nev - 1 - s->nmain) : s->nev - 1;
		if (k < HEAD + TAIL && (in_tail || k < HEAD)) {
			struct ipt_flow_state *st = &s->st[k];
			if ((s->st_ok[k] = (uint8_t)ipt_flow_state(flow, st))) {
				/* absolute offsets, comparable across segments */
				st->pos += from;
				st->ah_off += st->ah_kind ? from : 0;
				st->back_off += st->have_back ? from : 0;
			}
		}
		if (!in_tail && end < p->len && is_branch_block(&ev) && pos >= end) {
			in_tail = 1;
			s->nmain = s->nev;
		}
	}
	if (s->nmain == SIZE_MAX) {
		s->nmain = s->nev;
		s->to_end = 1;
	}
	hwprof_pt_flow_free(flow);
	return ret < 0 ? ret : 0;
}

/* The rest of the trace on this thread: a decoder from `from`, past the
 * cut point of `start` (as decode_range), every event to fn. */
static int serial_rest(const struct par *p, struct hwprof_pt_image *img, size_t from, size_t start,
		       uint64_t cyc_delta, hwprof_pt_event_fn fn, void *ctx)
{
	struct hwprof_pt_flow *flow;
	int ret = hwprof_pt_flow_new(&flow, p->buf + from, p->len - from, img, p->cfg), r = 0;
	if (ret < 0)
		return ret;
	struct hwprof_pt_event ev;
	int skipping = start > from;
	while ((ret = hwprof_pt_flow_next(flow, &ev)) == 1) {
		ev.offset += from;
		if (skipping) {
			skipping = !(is_branch_block(&ev) && from + ipt_flow_pos(flow) >= start);
			continue;
		}
		ev.cyc += cyc_delta;
		if ((r = fn(ctx, &ev)) != 0)
			break;
	}
	hwprof_pt_flow_free(flow);
	return r ? r : ret < 0 ? ret : 0;
}

static void *worker(void *arg)
{
	struct par *p = arg;
	struct hwprof_pt_image *img = NULL;
	int ierr = hwprof_pt_image_clone(&img, p->img);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next < p->nsegs && p->next >= p->emitted + p->window)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop || p->next >= p->nsegs)
			break;
		struct seg *s = &p->segs[p->next++];
		seg_reuse(p, s);
		pthread_mutex_unlock(&p->mu);
		s->dec_start = s->start;
		int err = ierr < 0 ? ierr : decode_range(p, img, s->start, s->start, s->end, s);
		pthread_mutex_lock(&p->mu);
		s->err = err;
		s->done = 1;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	hwprof_pt_image_free(img);
	return NULL;
}

/* The first tail state of a that b passed through too: t (in a's tail)
 * and j (among b's first events). */
static int find_join(const struct seg *a, const struct seg *b, size_t *t_out, size_t *j_out)
{
	/* After an error or overflow a decoder resynchronises from positions
	 * the state does not hold (the last sync, the look-ahead): a segment
	 * with one is decoded serially instead, as are cuts after one. */
	if (b->troubled)
		return 0;
	size_t nt = a->nev - a->nmain, nj = b->nmain < HEAD ? b->nmain : HEAD;
	for (size_t t = 0; t < nt && t < TAIL; t++) {
		const struct hwprof_pt_event *e = &a->ev[a->nmain + t];
		if (e->type == HWPROF_PT_EV_ERROR || e->type == HWPROF_PT_EV_OVF)
			return 0;
		if (!a->st_ok[HEAD + t])
			continue;
		for (size_t j = 0; j < nj; j++)
			if (b->st_ok[j] && !memcmp(&a->st[HEAD + t], &b->st[j], sizeof(b->st[j]))) {
				*t_out = t;
				*j_out = j;
				return 1;
			}
	}
	return 0;
}

static int emit(struct seg *s, size_t from, size_t to, uint64_t cyc_delta, hwprof_pt_event_fn fn,
		void *ctx)
{
	for (size_t i = from; i < to; i++) {
		struct hwprof_pt_event ev = s->ev[i];
		ev.ilen = ev.ilen ? s->lens + ((uintptr_t)ev.ilen - 1) : NULL;
		ev.cyc += cyc_delta;
		int r = fn(ctx, &ev);
		if (r)
			return r;
	}
	return 0;
}

static int serial(const uint8_t *buf, size_t len, struct hwprof_pt_image *img,
		  const struct hwprof_pt_flow_config *cfg, hwprof_pt_event_fn fn, void *ctx)
{
	struct hwprof_pt_flow *flow;
	int ret = hwprof_pt_flow_new(&flow, buf, len, img, cfg), r = 0;
	if (ret < 0)
		return ret;
	struct hwprof_pt_event ev;
	while ((ret = hwprof_pt_flow_next(flow, &ev)) == 1)
		if ((r = fn(ctx, &ev)) != 0)
			break;
	hwprof_pt_flow_free(flow);
	return r ? r : ret < 0 ? ret : 0;
}

/* Cuts at the first PSB at or after every `step` bytes. */
static int plan(struct par *p, size_t step)
{
	size_t cap = p->len / step + 2, n = 0;
	p->segs = calloc(cap, sizeof(*p->segs));
	if (!p->segs)
		return -HWPROF_E_NOMEM;
	size_t start = 0;
	for (;;) {
		size_t cut;
		if (n + 1 >= cap || start + step >= p->len ||
		    hwprof_pt_find_psb(p->buf, p->len, start + step, &cut) < 0)
			cut = p->len;
		p->segs[n].start = start;
		p->segs[n].end = cut;
		n++;
		if (cut >= p->len)
			break;
		start = cut;
	}
	p->nsegs = n;
	return 0;
}

HWPROF_API int hwprof_pt_flow_decode_parallel(const void *buf, size_t len, struct hwprof_pt_image *img,
					      const struct hwprof_pt_flow_config *cfg,
					      const struct hwprof_pt_par_opts *opts,
					      hwprof_pt_event_fn fn, void *ctx,
					      struct hwprof_pt_par_stats *stats)
{
	if ((!buf && len) || !img || !fn)
		return -HWPROF_E_INVAL;
	unsigned nthreads = opts && opts->nthreads ? opts->nthreads : 0;
	if (!nthreads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = n > 0 ? (unsigned)(n > 64 ? 64 : n) : 1;
	}
	size_t step = opts && opts->segment_bytes ? opts->segment_bytes : 64 * 1024;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	struct par p = { .buf = buf, .len = len, .img = img, .cfg = cfg };
	if (nthreads < 2 || len <= step)
		return serial(buf, len, img, cfg, fn, ctx);
	int ret = plan(&p, step);
	if (ret < 0)
		return ret;
	if (p.nsegs < 2) {
		free(p.segs);
		return serial(buf, len, img, cfg, fn, ctx);
	}
	if (stats)
		stats->segments = p.nsegs;
	p.window = (size_t)nthreads * WINDOW_PER_THREAD;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	pthread_t th[64];
	unsigned started = 0;
	for (; started < nthreads; started++)
		if (pthread_create(&th[started], NULL, worker, &p))
			break;
	if (!started) {
		ret = serial(buf, len, img, cfg, fn, ctx);
		goto out;
	}

	size_t pos = 0;         /* first event of the current segment to emit */
	uint64_t delta = 0;     /* cyc of the serial stream minus the segment's */
	for (size_t k = 0; k < p.nsegs && !ret; k++) {
		pthread_mutex_lock(&p.mu);
		while (!p.segs[k].done || (k + 1 < p.nsegs && !p.segs[k + 1].done))
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		struct seg *s = &p.segs[k];
		if ((ret = s->err) < 0)
			break;
		if (k + 1 == p.nsegs || s->to_end) {
			/* the last segment, or one whose decoder met no cut point
			 * before the trace's end: it holds everything */
			ret = emit(s, pos, s->nev, delta, fn, ctx);
			break;
		}
		struct seg *nx = &p.segs[k + 1];
		if ((ret = nx->err) < 0)
			break;
		size_t t, j;
		if ((ret = emit(s, pos, s->nmain, delta, fn, ctx)) != 0)
			break;
		if (find_join(s, nx, &t, &j)) {
			if ((ret = emit(s, s->nmain, s->nmain + t + 1, delta, fn, ctx)) != 0)
				break;
			delta = s->ev[s->nmain + t].cyc + delta - nx->ev[j].cyc;
			pos = j + 1;
			if (stats)
				stats->joins++;
		} else if (nx->end - s->dec_start > RERUN_LIMIT * step) {
			/* a long run of cuts without joins (a badly damaged
			 * trace): re-running from further and further back
			 * would cost quadratic time, so finish serially */
			ret = serial_rest(&p, img, s->dec_start, nx->start, delta, fn, ctx);
			if (stats)
				stats->reruns++;
			break;
		} else {
			/* serial continuation of k through k+1, replacing k+1 */
			struct seg r = { .start = nx->start, .end = nx->end, .done = 1,
					 .dec_start = s->dec_start };
			ret = decode_range(&p, img, r.dec_start, r.start, r.end, &r);
			if (ret < 0) {
				seg_free(&r);
				break;
			}
			seg_free(nx);
			*nx = r;
			pos = 0;
			if (stats)
				stats->reruns++;
		}
		pthread_mutex_lock(&p.mu);
		seg_recycle(&p, s);
		p.emitted = k + 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
	}
	pthread_mutex_lock(&p.mu);
	p.stop = 1;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
out:
	for (size_t k = 0; k < p.nsegs; k++)
		seg_free(&p.segs[k]);
	for (size_t i = 0; i < p.npool; i++) {
		free(p.pool[i].ev);
		free(p.pool[i].lens);
	}
	free(p.segs);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return ret;
}
