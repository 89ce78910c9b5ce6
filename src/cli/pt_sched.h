/* perf 6.1's order for the samples of several Intel PT queues decoded with
 * timestamps: each queue's decoder runs until its queue time reaches a
 * limit (the next queue's time + 1, or the time of the next perf.data
 * event), and the queue with the lowest time goes next (perf's auxtrace
 * heap, ties as it breaks them). Each queue's synthesis runs on a thread
 * of its own, and only one runs at a time: the library's synthesis stays
 * a plain loop, its gate callback is where a run pauses. */
#ifndef HWPROF_CLI_PT_SCHED_H
#define HWPROF_CLI_PT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/pt_feed.h"

/* Called on the calling thread before queue q runs (for its pid/tid), with
 * the number of file events perf has gone through by then; ran false for
 * the set-up run to the queue's first time. */
typedef void (*pt_sched_select_fn)(void *ctx, size_t q, size_t at, bool ran);

/* Decodes every queue of f with f->cfg (emit, ctx) in perf's order, its
 * runs limited by the times of the file's events (f->limits). Returns 0,
 * the synthesis' error or emit's non-zero value. */
int pt_sched_run(struct pt_feed *f, pt_sched_select_fn select, void *ctx);

/* The same while the events are read (their samples then come out in
 * perf's order with the file's): open once every queue's data is in f,
 * advance up to each event's limit index as it is noted (before the event
 * is handled), close at the end (finish: runs the rest; else the held
 * runs just stop). Returns as above. */
struct pt_sched;
int pt_sched_open(struct pt_sched **out, struct pt_feed *f, pt_sched_select_fn select, void *ctx);
int pt_sched_advance(struct pt_sched *p, size_t upto);
int pt_sched_close(struct pt_sched *p, bool finish);

/* The end of the input: the rest of the runs of *p when the queues were
 * decoded as the events were read (*p is closed and NULL then), else all
 * of them (pt_sched_decode). Returns as above. */
int pt_sched_finish(struct pt_sched **p, struct pt_feed *f, pt_sched_select_fn select, void *ctx);

/* All of f's queues in perf's order: through pt_sched_run() when perf
 * interleaves them (timed, several queues or per-cpu ones), else queue by
 * queue with the threads known at the end. */
int pt_sched_decode(struct pt_feed *f, pt_sched_select_fn select, void *ctx);

#endif
