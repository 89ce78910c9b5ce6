/* perf report's processing failures in its stats and tasks modes (see
 * tool_fail.h). */
#include <stdio.h>

#include "cli/tool_fail.h"

/* kernel record types perf 6.1 delivers: 1 (MMAP) to 21 (AUX_OUTPUT_HW_ID) */
static bool unknown_kernel_type(uint32_t type)
{
	return type < HWPROF_RECORD_USER_TYPE_START && (type == 0 || type > 21);
}

bool tool_fails(const struct hwprof_event *ev)
{
	if (ev->rec.type == HWPROF_RECORD_SAMPLE)
		return ev->parse_err < 0;
	return unknown_kernel_type(ev->rec.type);
}

void tool_fail_print(const struct hwprof_event *ev, bool unordered, bool pipe)
{
	bool sample = ev->rec.type == HWPROF_RECORD_SAMPLE;
	fflush(stdout);
	/* perf's sample parser fails with -EFAULT; an unknown type's
	 * delivery with -1 (EPERM) */
	if (sample)
		fprintf(stderr, "Can't parse sample, err = -14\n");
	if (unordered) {
		fprintf(stderr, "%#llx [%#x]: failed to process type: %u", (unsigned long long)ev->rec.offset,
			ev->rec.size, ev->rec.type);
		if (!pipe)
			fprintf(stderr, " [%s]", sample ? "Bad address" : "Operation not permitted");
		fputc('\n', stderr);
	}
	fprintf(stderr, "Error:\nfailed to process sample\n");
}
