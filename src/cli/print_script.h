/* perf script's sample lines (src/cli/print_script.c): the field set per
 * event type, perf 6.1's checks of it against the file's events, and one
 * line (or callchain block) per sample. */
#ifndef HWPROF_CLI_PRINT_SCRIPT_H
#define HWPROF_CLI_PRINT_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/regs.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"

/* Output fields, in perf's -F order (the bit is 1 << index). */
enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_EVNAME, SF_TRACE, SF_IP, SF_SYM, SF_DSO,
	SF_ADDR, SF_SYMOFFSET, SF_SRCLINE, SF_PERIOD, SF_IREGS, SF_UREGS, SF_BRSTACK,
	SF_BRSTACKSYM, SF_FLAGS, SF_DATA_SRC, SF_WEIGHT, SF_BPF_OUTPUT, SF_BRSTACKINSN,
	SF_BRSTACKINSNLEN, SF_BRSTACKOFF, SF_CALLINDENT, SF_INSN, SF_INSNLEN, SF_SYNTH,
	SF_PHYS_ADDR, SF_METRIC, SF_MISC, SF_SRCCODE, SF_IPC, SF_TOD, SF_DATA_PAGE_SIZE,
	SF_CODE_PAGE_SIZE, SF_INS_LAT, SF_NR
};
#define SFB(f) (1ULL << (f))

/* Output types: perf's attr types, synthesized and the rest. */
enum { OT_HW, OT_SW, OT_TRACE, OT_HWCACHE, OT_RAW, OT_BP, OT_SYNTH, OT_OTHER, OT_NR };

struct script_output {
	uint64_t fields, invalid, user_set_fields, user_unset_fields;
	bool user_set, wildcard_set;
};

struct script_opts {
	struct script_output out[OT_NR];
	bool no_callchain;         /* -G */
	bool nanosecs;             /* --ns */
	bool show_kernel_path;
	bool print_flags;          /* -F flags: perf 6.1 keeps it apart from the
				    * per-type fields (it sets no user_set) */
	int pad_dso;               /* --call-trace: DSO names padded to this */
	bool no_inline;            /* --no-inline: no inlined-function frames */
	int max_stack;             /* --max-stack (perf: kernel.perf_event_max_stack) */
	bool reltime, deltatime;   /* --reltime / --deltatime sample times */
	int max_blocks;            /* --max-blocks: brstackinsn's blocks (0: all) */
};

const char *script_field_name(unsigned f);
int script_output_type(uint32_t attr_type);
void script_opts_init(struct script_opts *o);
/* perf's -F parser; prints perf's message on stderr and returns < 0. */
int script_parse_fields(struct script_opts *o, const char *arg);

struct script_printer;
int script_printer_new(struct script_printer **out, struct script_opts *o, struct hwprof_session *s,
		       struct hwprof_symbols *syms, FILE *f);
void script_printer_free(struct script_printer *p);
/* tracepoint formats for the trace field (kept by the caller); resolve:
 * print kernel function names (perf sets its resolver when the session
 * opens, so only for the file header's tracing data, never a pipe's) */
struct hwprof_trace;
void script_printer_set_trace(struct script_printer *p, struct hwprof_trace *t, bool resolve);
/* Checks the fields against the events once they are known (perf's
 * evsel__check_attr); prints perf's message and returns < 0 on a field the
 * events cannot give. */
int script_printer_check(struct script_printer *p);
int script_print_sample(struct script_printer *p, const struct hwprof_event *ev);
/* perf script's --show-*-events line for a non-sample record: the start
 * fields of its event (sample_id_all, else the record's pid/tid and 0),
 * then the record as report -D names it; nothing when -C drops its cpu. */
struct report_filter;
/* perf script's al.filtered for a sample synthesized from a trace (comm:
 * the one its thread had then, NULL: the thread's now): whether --comms,
 * --pid, --tid, --dsos, -S or -C leave it out. */
typedef bool (*script_drops_fn)(void *ctx, const struct hwprof_sample *sm, const char *comm);
int script_print_side_event(struct script_printer *p, const struct hwprof_event *ev, const struct report_filter *flt);

/* For samples synthesized from AUX-trace data (src/cli/script_spe.c). */
/* The fields type t prints (SFB bits), after the checks. */
uint64_t script_printer_fields(const struct script_printer *p, int t);
bool script_printer_nanosecs(const struct script_printer *p);
/* --reltime / --deltatime: whether a sample's time is shown shifted, and
 * the time shown for the next line printed (perf keeps one first and one
 * previous time for every line it prints). */
bool script_printer_time_shifts(const struct script_printer *p);
uint64_t script_printer_shown_time(struct script_printer *p, uint64_t time);
/* -F named fields for type t (perf's output[type].user_set) */
bool script_printer_user_set(const struct script_printer *p, int t);
bool script_printer_print_flags(const struct script_printer *p);
int script_printer_pad_dso(const struct script_printer *p);
/* One callchain line "\t<addr in dso> sym+off (dso)" (no newline) as the
 * sample lines of type t show it; returns the length. */
size_t script_chain_entry(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			  char *buf, size_t size);
/* The symbol name at ip (NULL: none) and its DSO's name (NULL: no map),
 * for perf's callindent column. */
const char *script_sym_name(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			    const char **dso);
/* the data_src column's running width, shared by every sample line */
int *script_printer_data_src_width(struct script_printer *p);
/* A synthesized event's name counts in the event column's width. */
void script_printer_add_event_name(struct script_printer *p, const char *name);
/* A decoder gives every event's samples callchains (perf's
 * synth_sample_type, itrace G): they are shown, even after -G. */
void script_printer_synth_callchain(struct script_printer *p);
int script_printer_name_width(struct script_printer *p);
/* perf's check of a synthesized event's fields as it is added; prints
 * perf's message and returns < 0 when a requested field is missing. */
int script_printer_check_synth(struct script_printer *p, const struct hwprof_evsel *ev);
/* " sym+off (dso)" for ip as the sample line of type t shows it (the
 * fields decide which parts); returns the length. */
size_t script_sym_text(struct script_printer *p, int t, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
		       char *buf, size_t size);

/* One end of a brstack / brstacksym entry as perf prints it: "sym+0xoff"
 * ("[unknown]" without a symbol) when sym, then "(dso)" when dso; the
 * map of the sample's cpumode or else the other one. Returns the length. */
size_t script_branch_end(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr,
			 bool sym, bool dso, char *buf, size_t size);

/* perf's brstackoff address: DSO-relative where a map holds it and perf
 * would not adjust symbols there (no ELF file it loaded), else as is. */
uint64_t script_branch_offset(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t addr);

/* Callchain lines (src/cli/print_callchain.c): the sample's own chain,
 * then for DWARF-mode samples the unwound user stack, one "\t<addr>
 * sym+off (dso)" line per frame, inlined functions expanded like perf. */
struct hwprof_unwinder;
void script_print_callchain(struct script_printer *p, int t, const struct hwprof_sample *s);
/* The same into buf (for lines built in memory); returns the length. */
size_t script_srcline_text(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			   char *buf, size_t size);
/* perf's map__fprintf_srcline: "\n  file:line" for ip, nothing when unknown */
void script_print_srcline(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip);
/* the same after the prefix pre instead of "\n  " */
void script_print_srcline_pre(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			      const char *pre);

/* perf's brstackinsn / brstackinsnlen (src/cli/print_brstackinsn.c): the
 * code of each basic block between the sample's branches, then up to the
 * sample's ip, one instruction a line, from the DSOs' files. */
void script_print_brstackinsn(struct script_printer *p, int t, const struct hwprof_sample *s);
/* the thread's srccode state (perf's thread->srccode_state), made on
 * first use; NULL on allocation failure */
struct srccode *script_printer_srccode(struct script_printer *p);
/* accessors for print_callchain.c */
struct hwprof_session *script_printer_session(struct script_printer *p);
/* The map holding ip, perf's way (the kernel map grown to its last
 * symbol): 1 found, 0 not. */
/* The DSO name perf's script prints for a map found at level (see
 * hwprof_session_find_map()); buf holds a module's short name. */
const char *script_dso_name(struct script_printer *p, const struct hwprof_map_info *mi, char level, char *buf,
			    size_t len);
int script_printer_find_map(struct script_printer *p, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			    struct hwprof_map_info *mi, char *level);
struct hwprof_symbols *script_printer_symbols(struct script_printer *p);
FILE *script_printer_file(struct script_printer *p);
const struct script_opts *script_printer_opts(const struct script_printer *p);
/* the DWARF unwinder, made on first use; NULL on allocation failure */
struct hwprof_unwinder *script_printer_unwinder(struct script_printer *p);

#endif
