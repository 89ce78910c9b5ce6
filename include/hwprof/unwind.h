/* DWARF unwinding of user stacks sampled with `--call-graph dwarf`
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), with elfutils' libdwfl.
 *
 *   hwprof_unwinder_new()     an unwinder over a session's maps and a symbol
 *                             cache (which finds each DSO's file)
 *   hwprof_unwind_sample()    sample -> user frame addresses, perf's way
 *   hwprof_unwind_dwarf_regs() perf register numbers -> DWARF numbers
 *   hwprof_unwind_stack_word() a word of the stack copy, perf's bounds
 *
 * Frames come out as Debian perf 6.1 (built with libunwind) reports them:
 * the sampled IP first, then each caller's return address minus one (the
 * call instruction, so symbols and source lines are the caller's), except
 * for signal frames, innermost first, at most max_stack entries. Like
 * perf's libunwind, unwinding stops after a frame outside any mapped file,
 * and a return address that cannot be read (beyond the stack copy) gives
 * one last frame at 0 - 1. Inlined functions are the symbol library's
 * business: hwprof_dso_inline_entries() expands a frame as perf does.
 *
 * Each process gets one Dwfl, kept while samples of it come; its modules
 * (ELF files, their CFI) are opened once when the unwinder first steps
 * into them. Memory reads come from the sample's stack copy, else from the
 * mapped file's contents; nothing reads the live system.
 */
#ifndef HWPROF_UNWIND_H
#define HWPROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/perfdata.h"
#include "hwprof/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_session;
struct hwprof_symbols;
struct hwprof_unwinder;

/* perf's PERF_MAX_STACK_DEPTH, the default of --max-stack */
#define HWPROF_MAX_STACK 127

/* arch: the recording machine's (the file's ARCH feature); only x86-64
 * and arm64 unwind, others give no user frames beyond the sampled IP. */
HWPROF_API int hwprof_unwinder_new(struct hwprof_unwinder **out, struct hwprof_session *s,
				   struct hwprof_symbols *syms, enum hwprof_arch arch);
HWPROF_API void hwprof_unwinder_free(struct hwprof_unwinder *u);

/* The user frames of a sample: fills ips[0..n) and returns n; 0 when the
 * sample has no user registers or no stack copy (perf prints no user
 * frames then). < 0 only on allocation failure. */
HWPROF_API int hwprof_unwind_sample(struct hwprof_unwinder *u, const struct hwprof_sample *s, uint64_t *ips,
				    size_t max_stack);

/* DWARF register file from a sample's user regs: dwarf[i] for DWARF
 * register i < n (0 when not sampled), *ip and *sp. Returns the number of
 * DWARF registers the arch unwinds with (17 on x86-64: rax..r15 and the
 * return address column; 32 on arm64: x0..x30, sp), or < 0 when the regs
 * lack IP or SP or the arch is not supported. */
HWPROF_API int hwprof_unwind_dwarf_regs(enum hwprof_arch arch, const struct hwprof_regs *r, uint64_t *dwarf,
					size_t n, uint64_t *ip, uint64_t *sp);

/* The 8-byte word at addr in a stack copy of size bytes taken at sp, with
 * perf's bounds (the copy's last word counts as outside, like perf's
 * libunwind reader). 1 and *val when inside, 0 when not. */
HWPROF_API int hwprof_unwind_stack_word(const uint8_t *stack, uint64_t size, uint64_t sp, uint64_t addr,
					uint64_t *val);

#ifdef __cplusplus
}
#endif
#endif
