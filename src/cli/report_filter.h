/* perf report's sample filters: --comms, --pid, --tid, --dsos, --symbols
 * (samples outside them make hidden entries: perf's al->filtered) and
 * --cpu (samples on other CPUs are dropped). Lists are perf's strlists:
 * comma separated, kept sorted and without duplicates. */
#ifndef HWPROF_CLI_REPORT_FILTER_H
#define HWPROF_CLI_REPORT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/report.h"

struct str_list {
	char **v;
	size_t n;
};

struct int_list {
	int64_t *v;
	size_t n;
};

#define REPORT_MAX_CPUS 4096

struct report_filter {
	struct str_list comms, dsos, syms;
	struct int_list pids, tids;
	/* -S: perf moves the entries that read as hex numbers (even "add")
	 * from the names to addresses a sample's ip must equal, or fall
	 * in [a, a + addr_range) (script's --addr-range) */
	bool syms_set;
	struct int_list addrs;
	int addr_range;
	bool cpus_set;
	uint64_t cpus[REPORT_MAX_CPUS / 64];
};

/* Parsers for the option values: 0, or -1 (cpus: with perf's message).
 * A list option given again replaces the list, as perf's do. */
int report_filter_strs(struct str_list *l, const char *arg);
int report_filter_symbols(struct report_filter *f, const char *arg);
int report_filter_ints(struct int_list *l, const char *arg);
/* cpus: perf's list (with its messages) for a file of nr_cpus CPUs */
int report_filter_cpus(struct report_filter *f, const char *arg, uint32_t nr_cpus);
/* The file's available CPUs (NRCPUS), 0 without the feature. */
struct hwprof_perfdata;
uint32_t report_filter_nr_cpus(struct hwprof_perfdata *h);
void report_filter_free(struct report_filter *f);

bool report_filter_any(const struct report_filter *f);
/* Whether a sample at ip resolved to hs (comm, dso, symbol, map) is
 * outside the --comms/--pid/--tid/--dsos/--symbols filters. */
bool report_filter_hides(const struct report_filter *f, const struct hwprof_symbols *syms,
			 const struct hwprof_hist_sample *hs, uint64_t ip);
/* Whether --cpu drops a sample of this cpu. */
bool report_filter_drops_cpu(const struct report_filter *f, int32_t cpu);

#endif
