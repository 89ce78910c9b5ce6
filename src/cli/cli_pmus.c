/* The CLI's one place that reads the environment for PMUs: HWPROF_SYSFS
 * replaces /sys as the sysfs root (tests point it at tests/data/sysfs/...).
 * The library itself takes the root as a parameter. */
#include <stdlib.h>

#include "hwprof/pmu.h"
#include "cli/cli.h"

int cli_pmus_open(struct hwprof_pmus **out)
{
	struct hwprof_pmu_config cfg = { .sysfs_root = getenv("HWPROF_SYSFS") };
	return hwprof_pmus_open(out, &cfg);
}
