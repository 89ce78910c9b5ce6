/* Binary min-heap on (time, seq); see ordered.h. */
#include <stdlib.h>
#include <string.h>

#include "hwprof/hwprof.h"
#include "session/ordered.h"

#define CHUNK_SIZE (1u << 20)

void ord_init(struct ord_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->cur = -1;
}

void ord_fini(struct ord_queue *q)
{
	free(q->heap);
	free(q->fifo);
	for (size_t i = 0; i < q->nchunks; i++)
		free(q->chunks[i].mem);
	free(q->chunks);
	memset(q, 0, sizeof(*q));
}

static bool less(const struct ord_entry *a, const struct ord_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int32_t chunk_for(struct ord_queue *q, size_t need)
{
	if (q->cur >= 0 && q->chunks[q->cur].cap - q->chunks[q->cur].used >= need)
		return q->cur;
	/* Reuse an empty chunk, or make a new one. */
	for (size_t i = 0; i < q->nchunks; i++)
		if (q->chunks[i].live == 0 && q->chunks[i].cap >= need) {
			q->chunks[i].used = 0;
			q->cur = (int32_t)i;
			return q->cur;
		}
	struct ord_chunk *c = realloc(q->chunks, (q->nchunks + 1) * sizeof(*c));
	if (!c)
		return -1;
	q->chunks = c;
	size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;
	c[q->nchunks].mem = malloc(cap);
	if (!c[q->nchunks].mem)
		return -1;
	c[q->nchunks].cap = cap;
	c[q->nchunks].used = 0;
	c[q->nchunks].live = 0;
	q->cur = (int32_t)q->nchunks++;
	return q->cur;
}

/* Room for one more in the FIFO ring: a full ring doubles in place
 * (realloc moves a large block's pages without copying or touching them
 * again; a file with one FINISHED_ROUND queues all its records), and the
 * entries that had wrapped to the front move behind the old end. */
static int fifo_room(struct ord_queue *q)
{
	if (q->fn < q->fcap)
		return 0;
	size_t n = q->fcap ? q->fcap * 2 : 1024;
	struct ord_entry *f = realloc(q->fifo, n * sizeof(*f));
	if (!f)
		return -HWPROF_E_NOMEM;
	/* full: fhead..fcap-1, then 0..fhead-1 */
	memcpy(f + q->fcap, f, q->fhead * sizeof(*f));
	q->fifo = f;
	q->fcap = n;
	return 0;
}

int ord_push(struct ord_queue *q, const struct hwprof_record *rec, uint64_t time, bool copy)
{
	/* in order after the FIFO's newest: there, else the heap */
	bool in_order = !q->fn || q->fifo[(q->fhead + q->fn - 1) & (q->fcap - 1)].time <= time;
	if (in_order ? fifo_room(q) < 0 : 0)
		return -HWPROF_E_NOMEM;
	if (!in_order && q->n == q->cap) {
		size_t n = q->cap ? q->cap * 2 : 1024;
		struct ord_entry *h = realloc(q->heap, n * sizeof(*h));
		if (!h)
			return -HWPROF_E_NOMEM;
		q->heap = h;
		q->cap = n;
	}
	struct ord_entry e = { time, q->seq++, *rec, -1 };
	if (copy) {
		size_t need = (rec->size + 7u) & ~7u;
		int32_t ci = chunk_for(q, need);
		if (ci < 0)
			return -HWPROF_E_NOMEM;
		struct ord_chunk *c = &q->chunks[ci];
		memcpy(c->mem + c->used, rec->data, rec->size);
		e.rec.data = c->mem + c->used;
		c->used += need;
		c->live++;
		e.chunk = ci;
	}
	if (in_order) { /* seq grows, so (time, seq) order holds */
		q->fifo[(q->fhead + q->fn++) & (q->fcap - 1)] = e;
		return 0;
	}
	size_t i = q->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!less(&e, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = e;
	return 0;
}

int ord_pop(struct ord_queue *q, uint64_t limit, struct ord_entry *out)
{
	const struct ord_entry *f = q->fn ? &q->fifo[q->fhead] : NULL;
	if (f && (!q->n || less(f, &q->heap[0]))) {
		if (f->time > limit)
			return 0;
		*out = *f;
		if (out->chunk >= 0)
			q->chunks[out->chunk].live--;
		q->fhead = (q->fhead + 1) & (q->fcap - 1);
		q->fn--;
		if (q->fn && q->fifo[q->fhead].rec.data && q->fifo[q->fhead].rec.size >= 8) {
			/* the next one's record was read a round ago and has
			 * left the caches: start loading its head and its tail
			 * (a sample's user stack puts fields after the stack)
			 * while the caller works on this one */
			const struct hwprof_record *nx = &q->fifo[q->fhead].rec;
			__builtin_prefetch(nx->data);
			__builtin_prefetch(nx->data + nx->size - 8);
		}
		return 1;
	}
	if (!q->n || q->heap[0].time > limit)
		return 0;
	*out = q->heap[0];
	/* The popped copy stays readable until the chunk is reused, which
	 * needs a later push: release it now. */
	if (out->chunk >= 0)
		q->chunks[out->chunk].live--;
	struct ord_entry last = q->heap[--q->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct ord_entry *best = &last;
		if (l < q->n && less(&q->heap[l], best)) {
			m = l;
			best = &q->heap[l];
		}
		if (r < q->n && less(&q->heap[r], best))
			m = r;
		if (m == i)
			break;
		q->heap[i] = q->heap[m];
		i = m;
	}
	if (q->n)
		q->heap[i] = last;
	return 1;
}
