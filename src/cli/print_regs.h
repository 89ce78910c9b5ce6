/* Printers for a sample's register blocks: perf report -D style dumps and
 * perf script -F iregs/uregs style lines (src/cli/print_regs.c). */
#ifndef HWPROF_CLI_PRINT_REGS_H
#define HWPROF_CLI_PRINT_REGS_H

#include <stddef.h>
#include <stdio.h>

#include "hwprof/perfdata.h"
#include "hwprof/regs.h"

/* "... user regs: mask 0x183 ABI 64-bit" and ".... AX    0x..." lines,
 * then the SIMD block; nothing for abi NONE (like perf). */
void print_regs_dump(FILE *out, const char *which, const struct hwprof_regs *r,
		     enum hwprof_arch arch);

/* " ABI:2    AX:0x200    BX:0x380 ..." (perf script), then SIMD registers
 * as whole values, most significant qword first: "zmm3=0x... k1=0x... ".
 * Buffer form has snprintf semantics. */
int print_regs_script_buf(char *buf, size_t len, const struct hwprof_regs *r,
			  enum hwprof_arch arch);
void print_regs_script(FILE *out, const struct hwprof_regs *r, enum hwprof_arch arch);

#endif
