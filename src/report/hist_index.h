/* Entries of a histogram by a hash of their identity, an open-addressing
 * table of entry indexes with a tag of the hash beside each. The caller
 * hashes and compares: it walks the candidates whose tag matches and
 * decides which one is equal. Used where perf's tree walk is known to
 * find exactly the equal entry (hist.c says when), so a sample's entry
 * is one probe instead of a walk of compares. */
#ifndef HWPROF_REPORT_HIST_INDEX_H
#define HWPROF_REPORT_HIST_INDEX_H

#include <stddef.h>
#include <stdint.h>

#define HIX_NONE UINT32_MAX

struct hist_index {
	uint64_t *slot;     /* tag << 32 | (index + 1); 0: empty */
	size_t cap, len;
};

struct hix_iter {
	size_t j;
	uint32_t tag;
};

/* A tag's first bucket: the tag is the high half of a mixed hash, so it
 * picks the bucket too, and growing re-buckets from the slots alone. */
static inline size_t hix_bucket(uint32_t tag, size_t cap)
{
	return (size_t)(((uint64_t)tag * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static inline uint32_t hix_next(const struct hist_index *x, struct hix_iter *it)
{
	if (!x->cap)
		return HIX_NONE;
	for (;;) {
		uint64_t s = x->slot[it->j];
		it->j = (it->j + 1) & (x->cap - 1);
		if (!s)
			return HIX_NONE;
		if ((uint32_t)(s >> 32) == it->tag)
			return (uint32_t)s - 1;
	}
}

/* The first candidate for hash h (HIX_NONE: none); hix_next the others. */
static inline uint32_t hix_first(const struct hist_index *x, uint64_t h, struct hix_iter *it)
{
	it->tag = (uint32_t)(h >> 32);
	it->j = x->cap ? hix_bucket(it->tag, x->cap) : 0;
	return hix_next(x, it);
}

/* Adds index i (below UINT32_MAX - 1) under hash h; < 0 on NOMEM. */
int hix_add(struct hist_index *x, uint64_t h, uint32_t i);
void hix_free(struct hist_index *x);

#endif
