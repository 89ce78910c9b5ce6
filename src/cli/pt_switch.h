/* perf 6.1's sync_switch: a per-cpu Intel PT trace of the kernel decoded
 * with timestamps follows each cpu's context switches through the trace,
 * at the branch to the kernel's __switch_to, rather than at the time of
 * the switch records (which is only near it). Each queue keeps perf's
 * switch state; the switch records move it (pt_feed_switches) and so
 * does its decoder (the synthesis' switch hook, run by pt_sched). */
#ifndef HWPROF_CLI_PT_SWITCH_H
#define HWPROF_CLI_PT_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_feed;
struct hwprof_symbols;

/* Where the kernel's symbols put __switch_to (global) and, for the state
 * machine's other landmark, __perf_event_task_sched_out (*ptss; 0 when
 * missing), as perf's intel_pt_switch_ip() finds them. 0: no __switch_to
 * (perf then goes by the switch records alone). */
uint64_t pt_switch_ip(struct hwprof_symbols *syms, uint64_t *ptss);

/* The queue perf's intel_pt_cpu_to_ptq() gives for cpu (SIZE_MAX: none). */
size_t pt_switch_queue(const struct pt_feed *f, int32_t cpu);

/* A switch-out record on queue q's cpu to thread tid at TSC tsc: whether
 * perf makes tid the cpu's thread now (else at the switch ip); *wake: the
 * queue, held at the switch ip, goes back on perf's heap at tsc. */
bool pt_switch_out(struct pt_feed *f, size_t q, int32_t tid, bool *wake);
/* A switch-in record on queue q's cpu. */
void pt_switch_in(struct pt_feed *f, size_t q);

/* The decoder's side, after a state's samples (to: where it went, flags:
 * HWPROF_PT_FLAG_*). */
enum pt_switch_act { PT_SW_GO, PT_SW_NEXT_TID, PT_SW_HOLD };
enum pt_switch_act pt_switch_state(struct pt_feed *f, size_t q, uint64_t to, uint32_t flags);
/* Whether a state takes its estimated time (an unknown switch state at
 * the switch ip, with no thread to switch to). */
bool pt_switch_estimate(const struct pt_feed *f, size_t q, uint64_t to, uint32_t flags);
/* A decoder error at ip: in the kernel, the queue stops following the
 * trace; true when a thread to switch to is then taken. */
bool pt_switch_error(struct pt_feed *f, size_t q, uint64_t ip);
/* Time ranges fast-forward the decoder: the queue's switch state is
 * unknown; true when a thread to switch to is taken. */
bool pt_switch_ffwd(struct pt_feed *f, size_t q);
/* After the last time range: not tracing. */
void pt_switch_end(struct pt_feed *f, size_t q);
/* perf's intel_pt_next_tid(): the thread a switch record named becomes
 * queue q's cpu's (the caller selects the queue's thread again). */
void pt_switch_next_tid(struct pt_feed *f, size_t q);

#endif
