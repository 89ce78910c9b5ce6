/* Time-ordering queue for kernel records (perf's "ordered events"): records
 * are queued with their timestamp and handed back in (time, arrival) order
 * up to a limit. Records that live in the mapped file are referenced in
 * place; others (pipe, swapped, decompressed) are copied into chunks that
 * are recycled once all their records are delivered. */
#ifndef HWPROF_SESSION_ORDERED_H
#define HWPROF_SESSION_ORDERED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/perfdata.h"

struct ord_entry {
	uint64_t time, seq;
	struct hwprof_record rec;
	int32_t chunk;              /* -1 when rec.data is not a copy */
};

struct ord_chunk {
	uint8_t *mem;
	size_t used, cap;
	size_t live;
};

/* Records mostly arrive in time order (a round, or a whole file that has
 * one FINISHED_ROUND), so an entry not older than the newest queued in
 * order goes to a FIFO (constant time); only the others go to the heap.
 * The oldest is the smaller of the two fronts. */
struct ord_queue {
	struct ord_entry *heap;
	size_t n, cap;
	struct ord_entry *fifo;     /* ring of fcap (a power of 2) entries */
	size_t fhead, fn, fcap;
	uint64_t seq;
	struct ord_chunk *chunks;
	size_t nchunks;
	int32_t cur;                /* chunk being filled */
};

void ord_init(struct ord_queue *q);
void ord_fini(struct ord_queue *q);
int ord_push(struct ord_queue *q, const struct hwprof_record *rec, uint64_t time, bool copy);
/* Pops the oldest entry if its time <= limit: 1 and *out, else 0. The
 * entry's data stays valid until the next ord_pop/ord_push. */
int ord_pop(struct ord_queue *q, uint64_t limit, struct ord_entry *out);

#endif
