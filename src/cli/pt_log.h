/* --itrace=d for Intel PT: the decoder's debug log, written to
 * intel_pt.log in the current directory as perf names it. hwprof's own
 * format (perf's is its decoder's internals): each queue run ("queue N
 * decoding cpu C pid P tid T", perf's wording), each decoder event with
 * its trace offset and time, the instructions of each walked block with
 * their bytes, and the perf events read (d-a: none; with --time ranges
 * only those inside them, d+a: all). */
#ifndef HWPROF_CLI_PT_LOG_H
#define HWPROF_CLI_PT_LOG_H

#include "cli/pt_feed.h"

/* Creates the log when the options ask for it: NULL or why not. */
const char *pt_log_open(struct pt_feed *f);
void pt_log_close(struct pt_feed *f);
/* A queue's run starts (its thread is known). */
void pt_log_queue(struct pt_feed *f, size_t q, int32_t pid, int32_t tid);
/* A perf event read (tsc: its time as a TSC, 0 if none). */
void pt_log_record(struct pt_feed *f, const struct hwprof_event *ev, uint64_t tsc);

#endif
