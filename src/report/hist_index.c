/* The histogram's identity hash table (see hist_index.h): a slot keeps
 * the hash's high half, which also picks its bucket, so growing moves
 * slots without asking the caller for hashes again. */
#include <stdlib.h>

#include "hwprof/hwprof.h"
#include "report/hist_index.h"

static int grow(struct hist_index *x)
{
	size_t nc = x->cap ? x->cap * 2 : 1024;
	uint64_t *ns = calloc(nc, sizeof(*ns));
	if (!ns)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < x->cap; i++) {
		uint64_t s = x->slot[i];
		if (!s)
			continue;
		size_t j = hix_bucket((uint32_t)(s >> 32), nc);
		while (ns[j])
			j = (j + 1) & (nc - 1);
		ns[j] = s;
	}
	free(x->slot);
	x->slot = ns;
	x->cap = nc;
	return 0;
}

int hix_add(struct hist_index *x, uint64_t h, uint32_t i)
{
	if ((x->len + 1) * 2 > x->cap && grow(x) < 0)
		return -HWPROF_E_NOMEM;
	uint64_t s = (h & 0xffffffff00000000ull) | ((uint64_t)i + 1);
	size_t j = hix_bucket((uint32_t)(s >> 32), x->cap);
	while (x->slot[j])
		j = (j + 1) & (x->cap - 1);
	x->slot[j] = s;
	x->len++;
	return 0;
}

void hix_free(struct hist_index *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = x->len = 0;
}
