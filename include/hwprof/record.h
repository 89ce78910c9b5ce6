/* Recording: open perf events on a workload, processes, threads or CPUs,
 * drain their ring buffers (and AUX areas) and write a perf.data that perf
 * 6.1 reads, in file or pipe mode, optionally zstd-compressed.
 *
 *   hwprof_record_config()  perf record's target-dependent attr defaults
 *   hwprof_record_open()    open events, map rings, fork the workload
 *                           (held before exec), write the initial records
 *   hwprof_record_start()   let the workload exec / enable the events
 *   hwprof_record_poll()    one poll + drain pass (1 = go on, 0 = done)
 *   hwprof_record_wake()    async-signal-safe: stop / snapshot requests
 *   hwprof_record_close()   final drain, features, stats; frees
 *
 * The library never prints and installs no signal handlers; the caller's
 * handlers call hwprof_record_wake(). Every syscall on a perf fd goes
 * through the struct hwprof_sys_ops given in the options.
 */
#ifndef HWPROF_RECORD_H
#define HWPROF_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"
#include "hwprof/sys.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_recorder;

/* One event to open. */
struct hwprof_record_event {
	struct hwprof_attr attr;
	const char *name;        /* "cpu-clock"; written to EVENT_DESC */
	int leader;              /* index of its group leader; -1 or its own index = none */
	const char *unit;        /* EVENT_UPDATE unit ("msec" for clocks) or NULL */
	double scale;            /* EVENT_UPDATE scale (1e-6 for clocks), 0 = none */
	bool aux;                /* an AUX-area PMU (Intel PT, Arm SPE) */
	const char *filter;      /* PERF_EVENT_IOC_SET_FILTER text after open, or NULL
	                          * (address filters: "filter 0x1130/0x2a@/usr/bin/x") */
	bool tracking;           /* carries mmap/comm/task records (default: the first event) */
	bool configured;         /* attr from hwprof_evlist_config: only the target's bits are added */
};

/* AUX-area PMU hook: fills the AUXTRACE_INFO record body (after the
 * 8-byte header: u32 type, u32 reserved, u64 priv[]) for the events. */
struct hwprof_record_aux_ops {
	/* Returns the body size written into buf (<= len), or < 0. */
	int (*info)(void *ctx, const struct hwprof_record_event *ev, uint8_t *buf, size_t len);
	void *ctx;
};

struct hwprof_record_opts {
	const struct hwprof_sys_ops *sys;  /* NULL = hwprof_sys_default() */
	struct hwprof_record_event *events;
	uint32_t nr_events;
	/* target: a workload, or pid/tid, or system-wide; cpus narrows any */
	char *const *argv;       /* workload, NULL-terminated; NULL = none */
	pid_t pid;               /* -p: every thread of the process */
	pid_t tid;               /* -t: one thread */
	bool system_wide;        /* -a */
	const char *cpus;        /* -C list ("0-3,5"), NULL = all online */
	bool no_inherit;
	/* buffers */
	uint32_t mmap_pages;     /* data pages per ring (power of 2), 0 = 128 */
	uint32_t aux_pages;      /* AUX area pages (power of 2), 0 = 1024 */
	bool snapshot;           /* AUX snapshot mode: copy the AUX area on request */
	const struct hwprof_record_aux_ops *aux_ops;
	/* output */
	const char *output;      /* path or "-" (stdout); used when output_fd < 0 */
	int output_fd;           /* an open fd (not closed), or -1 */
	bool pipe;               /* pipe-mode stream */
	int zstd_level;          /* 0 = no compression, 1..22 */
	/* -k/--clockid: the CLOCKID (resolution) and CLOCK_DATA (reference
	 * times of the clock and of the time of day) features */
	bool use_clockid;
	int32_t clockid;
	uint64_t clockid_res_ns;
	/* CMDLINE feature: the recorder's argv as typed */
	int cmd_argc;
	char *const *cmd_argv;
	bool no_synth;           /* skip /proc synthesis (tests with fake kernels) */
	bool no_features;        /* skip system features (tests) */
	/* -D/--delay: 0 = events enabled at start (exec for a workload);
	 * otherwise they stay disabled until hwprof_record_enable() (the
	 * caller times the delay; -1 = until told). A tracking dummy event
	 * still runs from exec, as in perf. */
	int delay_ms;
	/* -S e (--snapshot=e): one last AUX snapshot when recording ends;
	 * without it perf 6.1 keeps only the snapshots asked for */
	bool snapshot_on_exit;
};

/* Why hwprof_record_open failed, beyond the hwprof_error. */
struct hwprof_record_fail {
	int event;               /* index of the event that failed to open, or -1 */
	int sys_errno;           /* errno from the kernel (EACCES, ENOENT, ...) */
	int cpu, pid;            /* the perf_event_open arguments that failed */
	uint32_t kernel_attr_size; /* on E2BIG: the kernel's attr size, 0 if unknown */
};

struct hwprof_record_stats {
	uint64_t samples;        /* SAMPLE records written */
	uint64_t lost;           /* samples lost (LOST records: sum of lost) */
	uint64_t lost_chunks;    /* LOST records */
	uint64_t lost_samples;   /* LOST_SAMPLES records: sum */
	uint64_t wakeups;        /* poll wakeups with data */
	uint64_t bytes;          /* bytes of output written */
	uint64_t bytes_raw;      /* bytes of records before compression */
	uint64_t compressed;     /* COMPRESSED records written */
	uint64_t aux_bytes;      /* AUX data written */
	uint64_t dropped;        /* ring bytes dropped as corrupt */
	int workload_status;     /* waitpid status of the workload, -1 if none */
	bool workload_failed;    /* exec failed; workload_errno says why */
	int workload_errno;
	/* PERF_RECORD_AUX records seen, and how many carried each flag
	 * (the kernel's PERF_AUX_FLAG_TRUNCATED, _PARTIAL, _COLLISION) */
	uint64_t aux_records, aux_truncated, aux_partial, aux_collision;
};

/* perf record's defaults for the target (evsel__config/evlist__config
 * facts): inherit unless no_inherit, disabled + enable_on_exec on a
 * workload, sample_id_all, read_format ID|LOST, tracking bits (mmap,
 * comm, task, mmap2, comm_exec, ksymbol, bpf_event) on the first event,
 * SAMPLE_ID with several events, SAMPLE_CPU and IDENTIFIER system-wide
 * or with -C, SAMPLE_ID in pipe mode. The tracking bits go on the event
 * marked tracking (a dummy: enabled at once for CPU targets, on exec with
 * a delay). With delay_ms no event is enabled on exec but the dummy.
 * Events marked configured keep their sample_type and inherit as
 * hwprof_evlist_config left them. Attr fields set by the caller
 * (sample_type bits, period/frequency, regs) are kept. */
HWPROF_API void hwprof_record_config(struct hwprof_record_event *ev, uint32_t n,
				     const struct hwprof_record_opts *o);

HWPROF_API int hwprof_record_open(struct hwprof_recorder **out, const struct hwprof_record_opts *o,
				  struct hwprof_error *err, struct hwprof_record_fail *fail);
HWPROF_API int hwprof_record_start(struct hwprof_recorder *r, struct hwprof_error *err);
/* Wait up to timeout_ms for data, drain every ring, FINISHED_ROUND.
 * 1 = keep going, 0 = finished (workload exited, all events hung up or a
 * stop was requested), < 0 = error (output failed). */
HWPROF_API int hwprof_record_poll(struct hwprof_recorder *r, int timeout_ms);
/* Drain every ring now (a pass of hwprof_record_poll without waiting). */
HWPROF_API int hwprof_record_drain(struct hwprof_recorder *r);
enum hwprof_record_wake { HWPROF_WAKE_STOP = 1, HWPROF_WAKE_SNAPSHOT = 2, HWPROF_WAKE_CHILD = 3 };
/* Async-signal-safe: asks the poll loop to stop, take an AUX snapshot or
 * reap the workload. */
HWPROF_API void hwprof_record_wake(struct hwprof_recorder *r, enum hwprof_record_wake what);
/* Enable (on) or disable every event (group leaders, the way perf's
 * evlist__enable/disable do): --control enable/disable and the end of
 * -D. Returns 0 or the first error (-HWPROF_E_*). */
HWPROF_API int hwprof_record_enable(struct hwprof_recorder *r, bool on);
/* The same for one event (index into opts.events), all its fds:
 * --control "enable NAME". */
HWPROF_API int hwprof_record_enable_event(struct hwprof_recorder *r, uint32_t event, bool on);
HWPROF_API pid_t hwprof_record_workload_pid(const struct hwprof_recorder *r);
/* Final drain, LOST_SAMPLES, features, close. The workload (if still
 * running) is sent SIGTERM and reaped. stats and err may be NULL. */
HWPROF_API int hwprof_record_close(struct hwprof_recorder *r, struct hwprof_record_stats *stats,
				   struct hwprof_error *err);

#ifdef __cplusplus
}
#endif
#endif
