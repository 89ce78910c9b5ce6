/* perf report's warning for files without a kernel map: recorded where
 * /proc/kallsyms was hidden (kptr_restrict), so perf wrote no kernel
 * MMAP and kernel samples cannot be resolved. */
#ifndef HWPROF_CLI_KPTR_WARN_H
#define HWPROF_CLI_KPTR_WARN_H

#include <stdbool.h>

#include "hwprof/perfdata.h"

/* Whether an MMAP/MMAP2 record makes perf's host kernel map: kernel
 * cpumode and a name starting "[kernel.kallsyms" (modules do not). */
bool kptr_is_kernel_map(const struct hwprof_record *rec);

/* perf's warning on stderr, after the records are read, when no record
 * made the kernel map and some event counts the kernel. */
void kptr_warn(const struct hwprof_perfdata *h, bool have_kernel_map);

#endif
