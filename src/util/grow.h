/* Growing arrays by doubling: one helper for every layer (the library's
 * report code, the command line). */
#ifndef HWPROF_UTIL_GROW_H
#define HWPROF_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "hwprof/hwprof.h"

/* Grows *arr (element size es, capacity *cap) to hold at least n
 * elements, doubling from 16. Returns 0 or -HWPROF_E_NOMEM (*arr kept). */
static inline int util_grow(void *arr, size_t *cap, size_t n, size_t es)
{
	void **a = arr;
	if (n <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 16;
	while (nc < n) {
		if (nc > SIZE_MAX / 2 / es)
			return -HWPROF_E_NOMEM;
		nc *= 2;
	}
	void *p = realloc(*a, nc * es);
	if (!p)
		return -HWPROF_E_NOMEM;
	*a = p;
	*cap = nc;
	return 0;
}

#endif
