/* perf script's srccode field: the source line of an address, printed
 * "|LINE     text" once per thread until the thread moves to another line
 * (perf's map__fprintf_srccode() with the thread's srccode_state). The
 * position is addr2line's first answer (file as DWARF names it, which may
 * be relative to the current directory); source files are read once. */
#ifndef HWPROF_CLI_SRCCODE_H
#define HWPROF_CLI_SRCCODE_H

#include <stdint.h>
#include <stdio.h>

#include "hwprof/symbols.h"

struct srccode;

struct srccode *srccode_new(void);
void srccode_free(struct srccode *c);
/* Prints the line for the DSO-relative address addr of d (a line and a
 * newline) unless thread tid printed that line last. Returns whether it
 * printed. */
int srccode_print(struct srccode *c, FILE *f, int32_t tid, struct hwprof_dso *d, uint64_t addr);

#endif
