/* What hwprof script and hwprof report share to decode Intel PT data in a
 * perf.data: the AUXTRACE_INFO record read as perf 6.1's
 * intel_pt_process_auxtrace_info() reads it (decoder configuration, the
 * intel_pt event, timed or timeless decoding), the code image from
 * MMAP/MMAP2 records, and the trace buffers gathered per queue (the
 * AUXTRACE record's idx). The caller then runs the library's synthesis
 * over each queue. */
#ifndef HWPROF_CLI_PT_FEED_H
#define HWPROF_CLI_PT_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/report_filter.h"
#include "hwprof/intel_pt_synth.h"
#include "hwprof/itrace.h"
#include "hwprof/perfdata.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"

struct pt_queue {
	uint8_t *buf;
	size_t len, cap;
	int32_t tid, cpu;
	uint64_t ref;   /* the first buffer's reference TSC */
	size_t exit_at; /* timeless: 1 + the events before the EXIT of its
			 * thread, where perf decodes it (0: at the end) */
	struct hwprof_pt_tstack *ts; /* the stack of the thread it runs */
	struct hwprof_pt_image *img; /* the code of that thread's process */
	struct hwprof_pt_bufmark *bufs; /* its AUXTRACE buffers */
	size_t nbufs, capbufs;
	uint8_t *prev;                  /* snapshot mode: the last buffer */
	size_t prev_len;
	/* perf's sync_switch (pt_switch.h): whether the queue follows
	 * switches through the trace, its switch state, the thread a switch
	 * record named (-1: none), held off perf's heap until a switch */
	bool sync;
	uint8_t switch_state;
	int32_t next_tid;
};

struct pt_feed {
	struct hwprof_perfdata *h;
	struct hwprof_symbols *syms;
	bool kernel_maps_only;              /* a kcore's maps replace modules' */
	bool want_switch_ip;                /* perf looks for __switch_to at
					     * its first run */
	uint64_t switch_ip, ptss_ip;        /* found: the queues follow it */
	struct hwprof_itrace_opts itrace;   /* effective */
	struct hwprof_pt_synth_config cfg;  /* flow configuration, image, timed */
	/* perf's maps: the kernel's (and an unknown thread's) code in img,
	 * each process's in its own image, a fork of img or of its parent
	 * process's (by pid: open addressing); images of a pid used again
	 * stay until the end (a paused decoder may read them) */
	struct hwprof_pt_image *img;
	struct pt_space {
		int32_t pid;
		struct hwprof_pt_image *img;
	} *spaces;
	size_t nspaces, capspaces;
	struct hwprof_pt_image **old_spaces;
	size_t nold_spaces, capold_spaces;
	const struct hwprof_evsel *pt;      /* the intel_pt event (NULL: none) */
	bool active;                        /* started with an intel_pt event */
	bool per_cpu;
	bool others;                        /* the file has events of its own
					     * besides the trace and sideband */
	bool prescanned;                    /* every queue's data read ahead */
	bool native;                        /* the file's arch is this machine's */
	bool ran;                           /* perf's decoder ran a queue */
	bool snapshot;                      /* snapshot mode: buffers overlap */
	bool have_tsc;                      /* the trace has TSC packets */
	uint64_t timing_bits;               /* config bits of tsc, mtc and cyc */
	struct pt_queue *q;
	size_t nq;
	uint64_t *limits;        /* timed: TSC times of the file's kernel records */
	size_t nlimits, caplimits; /* timeless: nlimits counts the events */
	unsigned have_sched_switch;         /* AUXTRACE_INFO: 3 = switch events */
	/* the thread each cpu runs, as perf learns it from switch records
	 * and ITRACE_START records: after `at` limits (tsc: the record's) */
	struct pt_switch {
		size_t at;
		int32_t cpu, pid, tid;
		enum { PT_SW_START, PT_SW_OUT, PT_SW_IN } kind;
		uint64_t tsc;
	} *sw;
	size_t nsw, capsw, sw_applied;
	int32_t *cur;            /* per cpu: [2n] pid, [2n+1] tid */
	size_t ncur;
	/* timed: each COMM record's thread and the comm it had before, after
	 * `at` limits (perf's samples decoded before the record have that) */
	struct pt_comm {
		size_t at;
		int32_t tid;
		char *old;
	} *comms;
	size_t ncomms, capcomms;
	/* perf's thread stacks, by thread (a hash: open addressing) */
	struct pt_stack_ent {
		uint64_t key;
		struct hwprof_pt_tstack *ts;
	} *stacks;
	size_t nstacks, capstacks;
	uint64_t *late_chain, *late_br;     /* pt_feed_add_late()'s */
	/* code perf has failed to read by then (its data status), after
	 * `at` limits: the files of a thread mapping a [vdso] */
	struct pt_mark {
		size_t at;
		uint64_t addr;
		int32_t pid;
	} *marks;
	size_t nmarks, capmarks, marks_applied;
	/* -C (NULL: none): perf queues no AUXTRACE buffer of another cpu
	 * (its itrace cpu_bitmap), so their trace is never decoded */
	const struct report_filter *cpu_filter;
	FILE *log;                          /* itrace d (pt_log.h), or NULL */
	struct hwprof_pt_image *log_img;    /* the running queue's code */
	/* --time: the ranges in TSC ticks (cfg.ranges points here) */
	struct hwprof_pt_range *ranges;
	char msg[192];
};

/* syms: the kernel's symbols tell whether perf follows context switches
 * through the trace (NULL: as if they did) */
void pt_feed_init(struct pt_feed *f, struct hwprof_perfdata *h, struct hwprof_symbols *syms,
		  const struct hwprof_itrace_opts *itrace);
void pt_feed_fini(struct pt_feed *f);
/* An intel_pt AUXTRACE_INFO record. Returns NULL, or why decoding cannot
 * go on (one line). f->active tells whether there is anything to decode. */
const char *pt_feed_start(struct pt_feed *f, const struct hwprof_record *rec);
/* Reads every AUXTRACE buffer of the file at path ahead (as perf does
 * from its index), so queues can be decoded while the events are read;
 * AUXTRACE records read afterwards are then skipped. Returns 0, 1 when it
 * cannot (a stream, stdin) or -HWPROF_E_NOMEM. */
int pt_feed_prescan(struct pt_feed *f, const char *path);
/* MMAP, MMAP2 and AUXTRACE records (others are ignored). NULL or why not. */
const char *pt_feed_record(struct pt_feed *f, const struct hwprof_record *rec);
/* perf's synthesized event (type, config: 0/4 branches, 0/1 instructions,
 * PERF_TYPE_SYNTH/n) for the intel_pt event: sample type and exclusions
 * derived from it, as perf 6.1's intel_pt_synth_events() does. */
#define PT_FEED_TYPE_SYNTH 0x80000000u
void pt_feed_synth_evsel(const struct pt_feed *f, struct hwprof_evsel *e, uint32_t type, uint64_t config);
/* Every event after the start, before the session applies it (s: its
 * state just before): perf runs its queues up to the time of each kernel
 * record (timed decoding), context switches tell which thread a cpu runs,
 * and a COMM record the comm its thread had until then; kept for
 * pt_sched_run(), pt_feed_select() and pt_feed_comm_at(). Returns
 * 0 or -HWPROF_E_NOMEM. */
int pt_feed_note_event(struct pt_feed *f, struct hwprof_session *s, const struct hwprof_event *ev);
/* Queue q is about to run after `at` limits (at SIZE_MAX: the end of the
 * file): whose samples its are (its thread, or for per-cpu queues the
 * thread its cpu runs then; -1/-1 when unknown), and that thread's stack
 * goes in its slot. ran: a run of perf's decoder (not the set-up one to a
 * queue's first time). thread_pid: the session's pid of a tid (-1
 * unknown). */
void pt_feed_select(struct pt_feed *f, size_t q, size_t at, bool ran, int32_t (*thread_pid)(void *, int32_t),
		    void *ctx, int32_t *pid, int32_t *tid);
/* The switch records up to `at` limits, in order, as perf takes them:
 * the thread each cpu runs, and the switch state of the queues that
 * follow switches through the trace (wake: a queue held at the switch ip
 * goes back on perf's heap at the record's TSC). pt_feed_select() does it
 * too (with no queue held). */
void pt_feed_switches(struct pt_feed *f, size_t at, void (*wake)(void *ctx, size_t q, uint64_t tsc), void *ctx);
/* Before the queues first run: whether they follow switches through the
 * trace (f->switch_ip). */
void pt_feed_sync_start(struct pt_feed *f);
/* perf's machine__set_current_tid(): cpu runs pid/tid. */
void pt_feed_set_current(struct pt_feed *f, int32_t cpu, int32_t pid, int32_t tid);
/* The stack perf keeps for thread pid/tid (on cpu, for the idle task):
 * NULL when there is none (create: make it; NULL then on no memory or no
 * thread). */
struct hwprof_pt_tstack *pt_feed_tstack(struct pt_feed *f, int32_t pid, int32_t tid, int32_t cpu, bool create);
/* Thread tid's comm when perf runs a queue after `at` limits, if a COMM
 * record changes it later; NULL: the thread's comm now. */
const char *pt_feed_comm_at(const struct pt_feed *f, int32_t tid, size_t at);
/* itrace G and L for a sample of the file's own (perf's
 * intel_pt_add_callchain() and intel_pt_add_br_stack()): the callchain and
 * branch stack its thread's stack gives as far as the trace is decoded,
 * for a sample that has none of its own. sm then points into f's buffers
 * (valid until the next call). Returns 0 or -HWPROF_E_NOMEM. */
int pt_feed_add_late(struct pt_feed *f, struct hwprof_sample *sm);
/* perf's --time ranges for the decoder, once
 * started: timed decoding starts and stops at them (timeless decoding
 * ignores them, as perf does). Returns 0 or -HWPROF_E_NOMEM. */
struct time_ranges;
int pt_feed_time_ranges(struct pt_feed *f, const struct time_ranges *tr);
/* The code perf reads for a thread of process pid: its image, or for an
 * unknown one the kernel's only. */
struct hwprof_pt_image *pt_feed_image(const struct pt_feed *f, int32_t pid);
/* Queues holding trace data. */
size_t pt_feed_queues_used(const struct pt_feed *f);

#endif
