/* Internals shared by the SPE library files. */
#ifndef HWPROF_ARM_SPE_INT_H
#define HWPROF_ARM_SPE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/arm_spe.h"

/* hwprof_spe_data_src with the CPU family decided once (the synthesizer
 * asks per record). */
uint64_t spe_data_src_kind(const struct hwprof_spe_record *rec, bool neoverse);

#endif
