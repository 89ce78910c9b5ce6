/* Where perf report's --stats and --tasks tools stop: a sample perf cannot
 * parse or a kernel record type perf 6.1 does not know fails processing,
 * and perf prints its messages instead of any result (exit status 0). */
#ifndef HWPROF_CLI_TOOL_FAIL_H
#define HWPROF_CLI_TOOL_FAIL_H

#include <stdbool.h>

#include "hwprof/session.h"

/* Whether perf fails on ev. */
bool tool_fails(const struct hwprof_event *ev);
/* perf's messages on stderr for that failure: with unordered processing
 * (--stats) the record's offset line too (the errno text only for files,
 * not pipes). */
void tool_fail_print(const struct hwprof_event *ev, bool unordered, bool pipe);

#endif
