/* hwprof record after option parsing: the parsed options in one struct,
 * and record_run() which applies them to the events' attrs the way perf
 * record does, records, and prints perf's messages and errors. */
#ifndef HWPROF_CLI_RECORD_RUN_H
#define HWPROF_CLI_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/record.h"

struct record_cli_opts {
	struct hwprof_record_event *events; /* from -e (or the default event) */
	uint32_t nr_events;
	uint64_t period;            /* -c, 0 = not given */
	uint64_t freq;              /* -F, 0 = not given (default 4000 when neither) */
	const char *call_graph;     /* -g = "fp"; "fp", "dwarf[,size]", "lbr"; NULL */
	bool data_addr;             /* -d */
	bool timestamp;             /* -T */
	bool sample_cpu;            /* --sample-cpu */
	bool inherit_stat;          /* -s */
	bool switch_events;         /* --switch-events */
	bool no_inherit;            /* --no-inherit */
	uint32_t aux_sample;        /* --aux-sample[=size], 0 = off */
	/* target */
	char *const *argv;          /* workload after the options (or after --) */
	int pid, tid;               /* -p, -t */
	bool system_wide;           /* -a */
	const char *cpus;           /* -C */
	/* buffers and output */
	uint32_t mmap_pages, aux_pages; /* -m pages[,auxpages] */
	const char *output;         /* -o, NULL = perf.data; "-" = pipe to stdout */
	int zstd_level;             /* -z = 1, --compression-level=n */
	bool snapshot;              /* -S */
	const char *control;        /* --control fifo:ctl[,ack] */
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
