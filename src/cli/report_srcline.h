/* The text of report's srcline sort key, as perf 6.1's get_srcline()
 * makes it for a hist entry: "file:line" from the DSO's debuginfo (the
 * innermost inlined position, the file's base name), else "sym+offset"
 * (decimal), else "dso[addr]"; "??:0" without a map. Like perf, a DSO
 * whose first 256 lookups all fail is not asked again. */
#ifndef HWPROF_CLI_REPORT_SRCLINE_H
#define HWPROF_CLI_REPORT_SRCLINE_H

#include "hwprof/report.h"
#include "hwprof/symbols.h"

struct report_srclines;

struct report_srclines *report_srclines_new(struct hwprof_symbols *syms);
void report_srclines_free(struct report_srclines *s);
/* A hwprof_srcline_fn: ctx is the report_srclines. */
const char *report_srcline(void *ctx, const struct hwprof_hist_entry *e);
/* The srcfile key's text (perf's hist_entry__get_srcfile()): the file
 * name of the srcline, "" when there is none. */
const char *report_srcfile(void *ctx, const struct hwprof_hist_entry *e);
/* perf's srcline of a callchain entry for -g srcline / -g address (its
 * callchain_srcline()): "file:line", else with show_addr "+offset" in sym
 * or "dso[addr]", else NULL; addr is DSO-relative. Asked once per DSO and
 * address. */
const char *report_chain_srcline(struct report_srclines *s, const char *dso, bool kernel_map,
				 const struct hwprof_sym *sym, uint64_t addr, bool show_addr);
/* perf's srcline_from_fileline() of an inlined entry's position:
 * "base:line" ("??:0" for an unknown one). */
const char *report_fileline(struct report_srclines *s, const char *file, unsigned line);

#endif
