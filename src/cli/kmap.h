/* Map lookups with perf's kernel map extent: perf grows the kernel map to
 * its last symbol once kallsyms are loaded (init text lies past the MMAP
 * record's length), so kernel addresses there still belong to
 * [kernel.kallsyms]; with a vmlinux it remaps it onto the file's .text
 * instead. Shared by report and script. */
#ifndef HWPROF_CLI_KMAP_H
#define HWPROF_CLI_KMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/session.h"
#include "hwprof/symbols.h"

struct kmap_ext {
	bool checked, have;
	bool remapped, only;          /* a vmlinux or kcore gave the kernel's
	                               * maps (hwprof_symbols_kernel_map());
	                               * only: none of the recorded stay */
	size_t nmaps;
	bool reloc_passed;            /* the session's kernel reference symbol
	                               * handed to the symbols */
	struct hwprof_map_info map;   /* the kernel's map, as recorded */
	uint64_t first, end;          /* its first symbol's start; its end,
	                               * grown to the last symbol */
};

/* A map's size as perf's dso_size shows it: the kernel's runs from its
 * first symbol to the end of its last (perf's map fix-ups). */
uint64_t kmap_size(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms,
		   const struct hwprof_map_info *mi);

/* hwprof_session_find_map(), then the grown kernel map: 1 found, 0 not. */
int kmap_find_map(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms, int32_t pid,
		  int32_t tid, unsigned cpumode, uint64_t ip, struct hwprof_map_info *mi, char *level);

#endif
