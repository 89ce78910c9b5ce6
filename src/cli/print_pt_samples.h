/* perf script's lines for synthesized Intel PT samples, as perf 6.1 prints
 * them: the sample prefix (comm, pid/tid, cpu, time, period, event name),
 * the flags column ("  %-21s "), then for the branches event perf's BTS
 * layout ("ip sym (dso) => addr sym (dso)", IPC, insn) and for the others
 * the plain one (addr, ip sym (dso), branch stack, insn, IPC); error records as
 * " instruction trace error type 1 ...". Symbols come from the caller. */
#ifndef HWPROF_CLI_PRINT_PT_SAMPLES_H
#define HWPROF_CLI_PRINT_PT_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/intel_pt_synth.h"

/* " sym+off (dso)" for addr as the fields of the hardware (synth false)
 * or synthesized event type ask; returns the length. */
typedef size_t (*pt_sym_fn)(void *ctx, bool synth, uint64_t addr, char *buf, size_t size);

/* A callchain line "\taddr sym (dso)" for addr; returns the length. */
typedef size_t (*pt_chain_fn)(void *ctx, uint64_t addr, char *buf, size_t size);

/* One end (addr) of a branch stack entry of a sample at ip: "sym+0xoff"
 * (sym) then "(dso)" (dso), as perf's brstack / brstacksym show it;
 * returns the length. */
typedef size_t (*pt_brend_fn)(void *ctx, uint64_t ip, uint64_t addr, bool sym, bool dso, char *buf, size_t size);
/* A branch end's brstackoff address for a sample at ip. */
typedef uint64_t (*pt_broff_fn)(void *ctx, uint64_t ip, uint64_t addr);

/* The symbol name at addr (NULL: none) and its DSO's name (NULL: no map). */
typedef const char *(*pt_symname_fn)(void *ctx, uint64_t addr, const char **dso);

/* addr as perf's "%16lx" then its " sym+off (dso)" text for a hardware
 * line; returns the length. */
typedef size_t (*pt_addrsym_fn)(void *ctx, uint64_t addr, char *buf, size_t size);

/* perf's "\n  file:line" for addr (nothing when unknown); returns the
 * length. */
typedef size_t (*pt_srcline_fn)(void *ctx, uint64_t addr, char *buf, size_t size);

/* A piece of a line kept from the last line that had it, with what it
 * was made of. */
struct pt_print_memo {
	bool ok;
	const char *comm;
	int32_t pid, tid, cpu;
	uint64_t cur, period;
	uint32_t flags;
	uint8_t kind, unpad;
	uint16_t n;
	char text[238];
};

struct pt_print_fmt {
	uint64_t fields_hw;       /* SFB(SF_*) of print_script.h: branches, ... */
	uint64_t fields_synth;    /* psb, cbr (perf's PERF_TYPE_SYNTH events) */
	uint64_t cur;             /* the printer's: fields of the line at hand */
	bool cur_synth;
	bool nanosecs;
	bool print_flags;         /* -F flags */
	bool addr_default;        /* => target without -F (sample has ADDR, fields not user set) */
	int name_width;
	const char *names[HWPROF_PT_SAMPLE_KIND_NR]; /* event names */
	const char *comm;         /* thread's comm (":-1" style when unknown) */
	int32_t pid, tid, cpu;
	pt_sym_fn sym;
	pt_addrsym_fn addrsym;    /* NULL: the hex, then sym() */
	pt_symname_fn symname;
	pt_chain_fn chain;
	pt_brend_fn brend;
	pt_broff_fn broff;
	pt_srcline_fn srcline;    /* for -F srcline */
	bool callchains;          /* perf's use_callchain (g): samples with a
				   * chain print it instead of ip, comm unpadded */
	void *ctx;
	int pad_dso;              /* DSO names in callindent padded to this */
	int callindent_spacing;   /* running width of the callindent column */
	char *out;                /* caller's output buffer (NULL: none), */
	size_t out_n, out_cap;    /* written by pt_print_flush() */
	/* the columns before the time (comm, pid/tid, cpu) and after it up
	 * to the flags (period, event name, flags): the same on most lines.
	 * Clear head.ok when the string at comm changes. */
	struct pt_print_memo head, mid;
};

/* perf's flags text ("call", "tr end  syscall", "bcrB", ...); returns its length. */
size_t pt_flags_text(uint32_t flags, char *buf, size_t size);

void print_pt_sample(FILE *f, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s);
/* Writes out the buffered lines (before anything else goes to f). */
void pt_print_flush(FILE *f, struct pt_print_fmt *fmt);

/* perf's AUXTRACE_ERROR line for a decoder error. */
void print_pt_error(FILE *f, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s);

#endif
