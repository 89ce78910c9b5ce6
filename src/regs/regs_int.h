/* Internal interface between the register modules: per-arch name tables
 * (regs_x86.c, regs_arm64.c) behind the arch dispatch in regs_arch.c. */
#ifndef HWPROF_REGS_INT_H
#define HWPROF_REGS_INT_H

#include "hwprof/regs.h"

const char *regs_x86_name(uint64_t abi, unsigned bit);
uint64_t regs_x86_lookup(int is64, uint64_t abi, const char *name);
extern const struct hwprof_simd_class regs_x86_classes[HWPROF_SIMD_NR_CLASSES];

const char *regs_arm64_name(unsigned bit);
const char *regs_other_name(enum hwprof_arch arch, unsigned bit);
uint64_t regs_arm64_lookup(const char *name);

/* Case-insensitive ASCII compare of a name against a table entry. */
int regs_name_eq(const char *a, const char *b);

#endif
