/* Reading a perf ring buffer: the kernel writes records at data_head, we
 * consume from data_tail. head is loaded with acquire (records before it
 * are visible), tail stored with release (the kernel may reuse the space
 * only after we are done reading it). Records may wrap at the end. */
#include <string.h>

#include "record/rec_int.h"
#include "util/bytes.h"

static inline uint64_t *pg64(uint8_t *base, size_t off)
{
	return (uint64_t *)(void *)(base + off);
}

long rec_ring_read(struct rec_ring *rg, uint8_t *bounce, rec_emit_fn emit, void *ctx, uint64_t *dropped)
{
	uint64_t head = __atomic_load_n(pg64(rg->base, REC_PG_DATA_HEAD), __ATOMIC_ACQUIRE);
	uint64_t tail = *pg64(rg->base, REC_PG_DATA_TAIL);
	uint64_t mask = rg->size - 1, start = tail;
	if (head - tail > rg->size) {
		/* cannot happen with a sane kernel: skip everything */
		*dropped += head - tail;
		__atomic_store_n(pg64(rg->base, REC_PG_DATA_TAIL), head, __ATOMIC_RELEASE);
		return 0;
	}
	uint64_t run = tail; /* start of the pending contiguous run */
	int rc = 0;
	while (tail + 8 <= head) {
		uint64_t off = tail & mask;
		uint8_t hdr[8];
		if (off + 8 <= rg->size) {
			memcpy(hdr, rg->data + off, 8);
		} else {
			size_t a = (size_t)(rg->size - off);
			memcpy(hdr, rg->data + off, a);
			memcpy(hdr + a, rg->data, 8 - a);
		}
		uint16_t size = ld16(hdr + 6);
		if (size < 8) {
			/* corrupt: nothing after it can be trusted; what came
			 * before it is fine */
			if (tail > run && (rc = emit(ctx, rg->data + (run & mask), (size_t)(tail - run))) < 0)
				break;
			*dropped += head - tail;
			tail = head;
			run = head;
			break;
		}
		if (tail + size > head)
			break; /* partial: the rest is not published yet */
		if (off + size > rg->size) {
			/* wraps: flush the run before it, then the record via bounce */
			if (tail > run && (rc = emit(ctx, rg->data + (run & mask), (size_t)(tail - run))) < 0)
				break;
			size_t a = (size_t)(rg->size - off);
			memcpy(bounce, rg->data + off, a);
			memcpy(bounce + a, rg->data, size - a);
			if ((rc = emit(ctx, bounce, size)) < 0)
				break;
			tail += size;
			run = tail;
			continue;
		}
		tail += size;
		if ((tail & mask) == 0) {
			/* the run ends exactly at the end of the area */
			if ((rc = emit(ctx, rg->data + (run & mask), (size_t)(tail - run))) < 0)
				break;
			run = tail;
		}
	}
	if (rc >= 0 && tail > run)
		rc = emit(ctx, rg->data + (run & mask), (size_t)(tail - run));
	if (rc < 0)
		return rc;
	__atomic_store_n(pg64(rg->base, REC_PG_DATA_TAIL), tail, __ATOMIC_RELEASE);
	return (long)(tail - start);
}
