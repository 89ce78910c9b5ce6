/* The x86 instruction decoder perf 6.1 uses for brstackinsn (its copy of
 * the kernel's instruction decoder): how long an instruction is and
 * whether perf counts it as a branch. It accepts what its opcode tables
 * describe, undefined encodings included (a lone 0x06 in 64-bit code is
 * one byte to it), so its lengths differ from a validating decoder's on
 * bytes that are no real code; brstackinsn output must match perf's. */
#ifndef HWPROF_CLI_X86_INSN_LEN_H
#define HWPROF_CLI_X86_INSN_LEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct x86_insn {
	unsigned len;
	bool branch;   /* perf's arch_is_branch() */
};

/* Decodes the instruction at code (len bytes, at most 15 are looked at)
 * in 64-bit mode; 0 on success, -1 when perf's decoder fails ("<bad>"). */
int x86_insn_decode(const uint8_t *code, size_t len, struct x86_insn *out);

#endif
