#include "cli/kptr_warn.h"

#include <stdio.h>
#include <string.h>

#include "hwprof/perf_event.h"

bool kptr_is_kernel_map(const struct hwprof_record *rec)
{
	size_t off = rec->type == HWPROF_RECORD_MMAP ? 40 : rec->type == HWPROF_RECORD_MMAP2 ? 72 : 0;
	static const char prefix[] = "[kernel.kallsyms";
	return off && (rec->misc & HWPROF_MISC_CPUMODE_MASK) == HWPROF_MISC_KERNEL &&
	       rec->size >= off + sizeof(prefix) - 1 &&
	       !memcmp((const char *)rec->data + off, prefix, sizeof(prefix) - 1);
}

void kptr_warn(const struct hwprof_perfdata *h, bool have_kernel_map)
{
	if (have_kernel_map)
		return;
	/* perf's evlist__exclude_kernel(): every event excludes the kernel */
	bool all_exclude = true;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++)
		if (!(hwprof_perfdata_evsel(h, i)->attr.flags >> HWPROF_ATTR_EXCLUDE_KERNEL & 1))
			all_exclude = false;
	if (all_exclude)
		return;
	fflush(stdout);
	fputs("Warning:\nKernel address maps (/proc/{kallsyms,modules}) were restricted.\n\n"
	      "Check /proc/sys/kernel/kptr_restrict before running 'perf record'.\n\n"
	      "As no suitable kallsyms nor vmlinux was found, kernel samples\ncan't be resolved.\n\n"
	      "Samples in kernel modules can't be resolved as well.\n\n",
	      stderr);
}
