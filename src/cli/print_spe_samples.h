/* perf script's sample line for synthesized AUX-trace samples (Arm SPE
 * now, Intel PT later): the fields of `perf script -F ...` that such
 * samples carry, in perf 6.1's order and widths, and perf's data_src text
 * ("|OP LOAD|LVL L1 or L1 hit|SNP None|TLB Walker hit|LCK No|BLK  N/A").
 *
 * Usage: fill a struct script_fmt (fields from script_fmt_parse_fields,
 * name_width = longest event name of the session), then call
 * script_print_spe_sample() per sample. The struct keeps perf's running
 * data_src column width, so use one per output stream. */
#ifndef HWPROF_CLI_PRINT_SPE_SAMPLES_H
#define HWPROF_CLI_PRINT_SPE_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/arm_spe_synth.h"

enum {
	SCRIPT_F_COMM = 1u << 0, SCRIPT_F_TID = 1u << 1, SCRIPT_F_PID = 1u << 2,
	SCRIPT_F_CPU = 1u << 3, SCRIPT_F_TIME = 1u << 4, SCRIPT_F_PERIOD = 1u << 5,
	SCRIPT_F_EVENT = 1u << 6, SCRIPT_F_ADDR = 1u << 7, SCRIPT_F_DATA_SRC = 1u << 8,
	SCRIPT_F_WEIGHT = 1u << 9, SCRIPT_F_IP = 1u << 10, SCRIPT_F_SYM = 1u << 11,
	SCRIPT_F_DSO = 1u << 12, SCRIPT_F_PHYS_ADDR = 1u << 13,
	SCRIPT_F_MISC = 1u << 14,   /* blank: perf's synthesized samples have misc 0 */
};

/* perf script's default for hardware-type events (what SPE samples are). */
#define SCRIPT_F_DEFAULT_HW (SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_TIME | SCRIPT_F_PERIOD | \
			     SCRIPT_F_EVENT | SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_DSO)

/* Writes " <sym> (<dso>)" style text for ip into buf (the caller's symbol
 * layer); the printer adds nothing when it is NULL. */
typedef void (*script_sym_fn)(void *ctx, const struct hwprof_spe_sample *s, unsigned fields, char *buf,
			      size_t size);

/* The start of a line (comm, pid/tid, cpu, misc columns) for recent
 * threads: samples come in runs of a few threads. */
#define SCRIPT_PREFIX_SLOTS 64
struct script_prefix {
	uint64_t ver;             /* *comm_ver + 1 when written (0: unknown) */
	int32_t pid, tid, cpu;
	unsigned fields;
	uint8_t comm_len, len;    /* len 0 = empty */
	char comm[32];
	char text[64];
};

struct script_fmt {
	unsigned fields;          /* SCRIPT_F_* */
	int name_width;           /* longest event name in the session */
	int data_src_width;       /* running width of the data_src column */
	bool nanosecs;            /* --ns: time with 9 decimals */
	const char *(*comm)(void *ctx, int32_t pid, int32_t tid);
	script_sym_fn sym;
	/* optional, preferred when set: text and length kept by the caller
	 * (cached lookups), so the printer copies each once; a sym_ref text
	 * must be readable for at least 64 bytes whatever its length */
	const char *(*comm_ref)(void *ctx, int32_t pid, int32_t tid, size_t *len);
	bool comm_padded;         /* comm_ref texts shorter than 32 bytes are
	                           * zero-padded to 32 (compared as one block) */
	const char *(*sym_ref)(void *ctx, const struct hwprof_spe_sample *s, size_t *len);
	/* optional: comm_ref's answer for a thread stays the same while
	 * *comm_ver does, so a line start kept under the same value is
	 * reused without asking */
	const uint64_t *comm_ver;
	void *ctx;
	struct script_prefix prefix[SCRIPT_PREFIX_SLOTS]; /* zeroed with the struct */
	/* the seconds of the time column and its '.', the last two values
	 * written (samples of a trace may alternate between two, as when
	 * some records have no timestamp); secs_old: the one used less
	 * recently, replaced next */
	struct script_secs {
		uint64_t secs;
		uint8_t len;              /* 0 = none yet */
		char text[32];
	} secs[2];
	unsigned secs_old;
	/* the period and event columns as last written: period, name
	 * padded, ": " */
	const char *ev_name;
	int ev_width;
	uint64_t ev_period;
	unsigned ev_fields;       /* SCRIPT_F_PERIOD or 0 */
	uint8_t ev_len;           /* 0 = none yet */
	char ev_text[96];
};

/* "comm,tid,ip" -> SCRIPT_F_* (perf -F names; a leading "hw:" or "+"/"-"
 * forms are not handled). Returns -1 on an unknown field. */
int script_fmt_parse_fields(const char *list, unsigned *fields);

/* perf's data_src decoding (perf_script__meminfo_scnprintf), without the
 * hex value. Returns the length written (at most size - 1). */
int script_mem_text(uint64_t data_src, char *buf, size_t size);

/* The data_src column: "%16lx <text>" padded to the widest so far
 * (*width, perf keeps one for the whole run). out needs 100 bytes;
 * returns the length (no NUL). */
size_t script_data_src_field(uint64_t data_src, int *width, char *out);

/* The longest line script_format_spe_sample writes (comm <= 256, event
 * name <= 64, data_src <= 100, symbol text <= 511 and the numbers). */
#define SCRIPT_SPE_LINE_MAX 1280

/* One sample line with its newline into out (SCRIPT_SPE_LINE_MAX bytes
 * available, no NUL); returns its length. */
size_t script_format_spe_sample(char *out, struct script_fmt *fmt, const struct hwprof_spe_sample *s);
void script_print_spe_sample(FILE *fp, struct script_fmt *fmt, const struct hwprof_spe_sample *s);

#endif
