/* arm64 register names by sample_regs bit: x0..x29, lr (x30), sp, pc and
 * the SVE vector-granule pseudo register vg (bit 46, user regs only). */
#include "regs/regs_int.h"

static const char *const arm64_names[33] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
	"lr", "sp", "pc",
};

const char *regs_arm64_name(unsigned bit)
{
	if (bit < 33)
		return arm64_names[bit];
	return bit == HWPROF_ARM64_VG ? "vg" : NULL;
}

uint64_t regs_arm64_lookup(const char *name)
{
	for (unsigned b = 0; b < 33; b++)
		if (regs_name_eq(name, arm64_names[b]))
			return 1ULL << b;
	return regs_name_eq(name, "vg") ? HWPROF_ARM64_VG_MASK : 0;
}
