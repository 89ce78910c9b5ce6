/* perf report's dynamic sort keys (src/cli/report_dyn.c): tracepoint
 * fields as keys, "[event.]field[/raw]", "event.*" and "trace_fields",
 * expanded to columns as perf's add_dynamic_entry() does, each in a slot
 * HWPROF_HK_DYN0 + i of the hists of its event. */
#ifndef HWPROF_CLI_REPORT_DYN_H
#define HWPROF_CLI_REPORT_DYN_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/perfdata.h"
#include "hwprof/report.h"
#include "hwprof/trace.h"

struct report_run;

struct report_dyn {
	struct hwprof_perfdata *h;
	struct hwprof_trace *t;          /* the file's formats (not owned) */
	struct report_run *run;          /* its trace texts, once reading */
	struct {
		uint32_t evsel;              /* the event (its hist's index) */
		int field;                   /* hwprof_trace_field() index */
		struct hwprof_hist_dyn d;
	} col[HWPROF_HK_NR_DYN];
	unsigned n;
	char buf[4096];                  /* a value's text */
};

/* One --sort token: 1 with its columns' keys appended to out (up to max),
 * 0 when perf finds no such event or field ("Unknown --sort key"), -1
 * after a message of ours (too many columns). */
int report_dyn_add(struct report_dyn *d, const char *tok, enum hwprof_hist_key *out, int *nout, int max);
/* The columns into the hists of their events (hists[i] is event i's). */
int report_dyn_setup(const struct report_dyn *d, struct hwprof_hist **hists, uint32_t nr_hists);
/* An entry's value as perf shows it: taken from the entry's trace text
 * ("name=value" up to a space), else (or for /raw) the field alone. */
const char *report_dyn_text(void *ctx, struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_entry *e);

#endif
