/* hwprof record after option parsing: the parsed options in one struct,
 * and record_run() which records and prints perf's messages and errors. */
#ifndef HWPROF_CLI_RECORD_RUN_H
#define HWPROF_CLI_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/record.h"

struct record_cli_opts {
	/* from -e (or the default event), configured by hwprof_evlist_config
	 * (the one place options become attrs); the target's bits are added
	 * by hwprof_record_config */
	struct hwprof_record_event *events;
	uint32_t nr_events;
	/* target */
	char *const *argv;          /* workload after the options (or after --) */
	int pid, tid;               /* -p, -t */
	bool system_wide;           /* -a */
	const char *cpus;           /* -C */
	bool no_inherit;            /* --no-inherit */
	/* buffers and output */
	uint32_t mmap_pages, aux_pages; /* -m pages[,auxpages] */
	const char *output;         /* -o, NULL = perf.data; "-" = pipe to stdout */
	int zstd_level;             /* -z = 1, --compression-level=n */
	bool use_clockid;           /* -k/--clockid */
	int32_t clockid;
	uint64_t clockid_res_ns;    /* the clock's resolution (0: unknown) */
	bool snapshot;              /* -S */
	bool snapshot_on_exit;      /* -Se / --snapshot=e */
	const char *control;        /* --control fifo:ctl[,ack] or fd:ctl[,ack] */
	int delay_ms;               /* -D: 0, ms, or -1 = until --control enable */
	const struct hwprof_record_aux_ops *aux_ops;
	int quiet, verbose;         /* -q, -v count */
	int argc;                   /* the command line, for the CMDLINE feature */
	char *const *argv_all;
	const struct hwprof_sys_ops *sys; /* NULL = the real kernel */
};

/* Returns the exit status for main(): the workload's exit code, 0, or 255
 * after an error (perf's -1). */
int record_run(const struct record_cli_opts *o);

#endif
