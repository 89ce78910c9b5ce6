/* AUXTRACE_INFO for Arm SPE: the unversioned perf 6.1 layout (PMU type,
 * per-cpu mmaps) and the versioned one newer perf writes (header version
 * and size, PMU type, CPU count, then per-CPU blocks with the MIDR). */
#include <stdio.h>
#include <string.h>

#include "hwprof/arm_spe_synth.h"

static int spe_info_bad(struct hwprof_error *err, size_t word, const char *what)
{
	if (err) {
		err->code = -HWPROF_E_CORRUPT;
		err->offset = 16 + 8 * (uint64_t)word; /* byte offset in the record */
		snprintf(err->msg, sizeof(err->msg), "arm_spe AUXTRACE_INFO word %zu: %s", word, what);
	}
	return -HWPROF_E_CORRUPT;
}

HWPROF_API int hwprof_spe_info_parse(const uint64_t *priv, size_t n, struct hwprof_spe_info *info,
				     struct hwprof_spe_cpu_info *cpus, size_t max_cpus,
				     struct hwprof_error *err)
{
	size_t pos, hdr;

	if (!priv || !info)
		return -HWPROF_E_INVAL;
	memset(info, 0, sizeof(*info));
	if (n < 2)
		return spe_info_bad(err, n, "fewer than 2 words");
	if (n == 2) {
		info->version = 1;
		info->pmu_type = (uint32_t)priv[0];
		info->per_cpu_mmaps = priv[1] != 0;
		return 0;
	}
	if (priv[0] < 2)
		return spe_info_bad(err, 0, "bad header version");
	hdr = (size_t)priv[1];
	if (priv[1] < 4 || priv[1] > n)
		return spe_info_bad(err, 1, "bad header size");
	info->version = (unsigned)priv[0];
	info->pmu_type = (uint32_t)priv[2];
	if (priv[3] > 1u << 20)
		return spe_info_bad(err, 3, "too many CPUs");
	info->nr_cpus = (uint32_t)priv[3];
	pos = hdr;
	for (uint32_t i = 0; i < info->nr_cpus; i++) {
		size_t np;

		if (n - pos < 3)
			return spe_info_bad(err, pos, "CPU block cut short");
		if (priv[pos] != HWPROF_SPE_CPU_MAGIC)
			return spe_info_bad(err, pos, "bad CPU block magic");
		if (priv[pos + 2] > n - pos - 3)
			return spe_info_bad(err, pos + 2, "CPU parameters run past the end");
		np = (size_t)priv[pos + 2];
		if (i < max_cpus && cpus) {
			struct hwprof_spe_cpu_info *c = &cpus[i];

			memset(c, 0, sizeof(*c));
			c->cpu = (int64_t)priv[pos + 1];
			c->midr = np > 0 ? priv[pos + 3] : 0;
			c->pmu_type = np > 1 ? priv[pos + 4] : UINT64_MAX;
			c->min_interval = np > 2 ? priv[pos + 5] : 0;
			c->event_filter = np > 3 ? priv[pos + 6] : 0;
		}
		pos += 3 + np;
	}
	return 0;
}
