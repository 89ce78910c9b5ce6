/* hwprof record's Intel PT (and address filter) part: perf record's
 * intel_pt checks with its messages, --filter for the preceding -e, and
 * the AUXTRACE_INFO builder handed to the recorder. */
#ifndef HWPROF_CLI_RECORD_PT_H
#define HWPROF_CLI_RECORD_PT_H

#include <stdbool.h>
#include <stddef.h>

#include "hwprof/event.h"
#include "hwprof/intel_pt_cfg.h"
#include "hwprof/pmu.h"
#include "hwprof/record.h"

#define RECORD_PT_MAX_FILTERS 64

/* --filter texts, each for the events of the -e given before it. */
struct record_pt_filters {
	struct { int spec; const char *text; } f[RECORD_PT_MAX_FILTERS];
	int n;
};

/* Per-run state: the filter string of each event and the AUXTRACE_INFO
 * context. */
struct record_pt {
	char **filter;                      /* per event, NULL = none */
	size_t nr;
	const struct hwprof_pmu *pt;        /* the intel_pt PMU when an intel_pt event exists */
	struct hwprof_pt_info_opts info;
	struct hwprof_record_aux_ops ops;
};

/* Records one --filter. spec = number of -e seen so far. Returns 0 or
 * perf's exit code (129) with its message when no -e came before. */
int record_pt_add_filter(struct record_pt_filters *fl, int spec, const char *text);

/* After parsing (spec_end[i] = events in the list after -e number i),
 * before hwprof_evlist_config: perf's intel_pt checks (one intel_pt
 * event, config values against caps/ with perf's messages, pt=0 forced
 * with perf's warning) and the address filters resolved into kernel
 * filter strings (-v prints them as perf's "Address filter: ..."). */
int record_pt_prepare(struct record_pt *p, struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
		      const struct record_pt_filters *fl, const size_t *spec_end, int verbose);

/* After hwprof_evlist_config, what perf's intel_pt recording options do:
 * buffer sizes when not given (AUX 4 MiB privileged, else 128 KiB AUX and
 * 256 KiB data), the AUX size check ("Invalid mmap size for Intel
 * Processor Trace: ..."), SAMPLE_CPU on the intel_pt event and, outside
 * snapshot mode, an AUX watermark of a quarter of the AUX area. Pages are
 * in/out (0 = not given). Returns 0 or an exit code after perf's message. */
int record_pt_finish(const struct record_pt *p, struct hwprof_evlist *l, uint32_t *aux_pages,
		     uint32_t *mmap_pages, int snapshot);

/* Hands filters and the intel_pt AUXTRACE_INFO builder to the recorder's
 * events / options. cpu_wide: -a or -C; *switch_events (--switch-events)
 * is turned on for an intel_pt event with tsc, as perf does. */
void record_pt_attach(struct record_pt *p, struct hwprof_record_event *ev, size_t n,
		      const struct hwprof_record_aux_ops **ops, int cpu_wide, bool *switch_events);

void record_pt_free(struct record_pt *p);

#endif
