/* perf's fake symbols for inlined frames of unwound callchains: the
 * inlined function's name over its caller's extent, flagged inlined. One
 * per (caller symbol, name), so histogram entries and callchain frames
 * can keep the pointers; names are interned, so frames of the same
 * inlined function compare by pointer (perf matches them by name). */
#ifndef HWPROF_CLI_INLINE_SYMS_H
#define HWPROF_CLI_INLINE_SYMS_H

#include "hwprof/symbols.h"

struct inline_syms;

/* The stand-in for name inlined into base; NULL on allocation failure. */
const struct hwprof_sym *inline_syms_get(struct inline_syms **pool, const struct hwprof_sym *base,
					 const char *name);
void inline_syms_free(struct inline_syms *pool);

#endif
