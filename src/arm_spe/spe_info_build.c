/* AUXTRACE_INFO for an Arm SPE recording, in the versioned layout newer
 * perf writes (tools/perf/arch/arm64/util/arm-spe.c, util/arm-spe.h):
 *   priv[0] version 2, priv[1] header words 4, priv[2] PMU type,
 *   priv[3] CPU count, then per CPU {magic 0x1010101010101010, cpu,
 *   nr_params 4, MIDR, PMU type (UINT64_MAX if the CPU has no SPE),
 *   caps/min_interval, caps/event_filter}.
 * The CPUs are the recorded ones (all online without -C); the MIDR is what
 * the data-source decoding needs when the file is read elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/arm_spe_record.h"
#include "record/rec_int.h"

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -HWPROF_E_NOENT;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

static int info_fail(struct hwprof_error *err, int code, const char *path, const char *what)
{
	if (err) {
		err->code = code;
		err->offset = 0;
		int w = (int)(sizeof(err->msg) / 2);
		snprintf(err->msg, sizeof(err->msg), "%.*s: %.*s", w, path, w - 4, what);
	}
	return code;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static uint64_t cap(const struct hwprof_pmu *pmu, const char *name, int base)
{
	const char *s = hwprof_pmu_cap(pmu, name);
	char *end;
	uint64_t v = s ? strtoull(s, &end, base) : 0;
	return s && !*end ? v : 0;
}

HWPROF_API int hwprof_spe_rec_info_probe(struct hwprof_spe_rec_info *info, const char *sysfs_root,
					 const struct hwprof_pmu *pmu, const char *cpu_list,
					 struct hwprof_error *err)
{
	char path[4096], text[256];
	int *cpus = NULL, nr = 0, *spe = NULL, nspe = 0, rc;
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/sys";

	if (!info || !pmu)
		return -HWPROF_E_INVAL;
	memset(info, 0, sizeof(*info));
	info->pmu_type = pmu->type;
	if (!cpu_list) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
		if (read_small(path, text, sizeof(text)))
			return info_fail(err, -HWPROF_E_NOENT, path, "cannot read the online CPUs");
		cpu_list = text;
	}
	if ((rc = rec_cpus_parse(cpu_list, &cpus, &nr)) < 0)
		return info_fail(err, rc, cpu_list == text ? path : "-C", "bad CPU list");
	if (pmu->cpumask[0] && (rc = rec_cpus_parse(pmu->cpumask, &spe, &nspe)) < 0) {
		free(cpus);
		return info_fail(err, rc, pmu->name, "bad cpumask");
	}
	qsort(cpus, (size_t)nr, sizeof(*cpus), cmp_int);
	info->cpus = calloc((size_t)nr, sizeof(*info->cpus));
	if (!info->cpus) {
		free(cpus);
		free(spe);
		return -HWPROF_E_NOMEM;
	}
	info->nr_cpus = (size_t)nr;
	for (int i = 0; i < nr; i++) {
		struct hwprof_spe_cpu_info *c = &info->cpus[i];
		char *end;
		int has = !pmu->cpumask[0];
		for (int k = 0; k < nspe && !has; k++)
			has = spe[k] == cpus[i];
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/regs/identification/midr_el1", root, cpus[i]);
		if (read_small(path, text, sizeof(text)) || (c->midr = strtoull(text, &end, 16), end == text)) {
			free(cpus);
			free(spe);
			hwprof_spe_rec_info_free(info);
			return info_fail(err, -HWPROF_E_NOENT, path, "cannot read the CPU's MIDR");
		}
		c->cpu = cpus[i];
		c->pmu_type = has ? pmu->type : UINT64_MAX;
		c->min_interval = has ? cap(pmu, "min_interval", 10) : 0;
		c->event_filter = has ? cap(pmu, "event_filter", 16) : 0;
	}
	free(cpus);
	free(spe);
	return 0;
}

HWPROF_API void hwprof_spe_rec_info_free(struct hwprof_spe_rec_info *info)
{
	if (!info)
		return;
	free(info->cpus);
	info->cpus = NULL;
	info->nr_cpus = 0;
}

HWPROF_API size_t hwprof_spe_rec_info_size(const struct hwprof_spe_rec_info *info)
{
	return 8 + 8 * (HWPROF_SPE_INFO_HDR_WORDS + HWPROF_SPE_INFO_CPU_WORDS * info->nr_cpus);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

HWPROF_API int hwprof_spe_rec_info_build(const struct hwprof_spe_rec_info *info, uint8_t *buf, size_t len)
{
	if (!info || !buf || len < hwprof_spe_rec_info_size(info))
		return -HWPROF_E_INVAL;
	uint32_t type = 4; /* PERF_AUXTRACE_ARM_SPE */
	memset(buf, 0, 8);
	memcpy(buf, &type, 4);
	uint8_t *p = buf + 8;
	const uint64_t hdr[HWPROF_SPE_INFO_HDR_WORDS] = {
		HWPROF_SPE_INFO_VERSION, HWPROF_SPE_INFO_HDR_WORDS, info->pmu_type, info->nr_cpus,
	};
	for (size_t i = 0; i < HWPROF_SPE_INFO_HDR_WORDS; i++, p += 8)
		put64(p, hdr[i]);
	for (size_t i = 0; i < info->nr_cpus; i++) {
		const struct hwprof_spe_cpu_info *c = &info->cpus[i];
		const uint64_t blk[HWPROF_SPE_INFO_CPU_WORDS] = {
			HWPROF_SPE_CPU_MAGIC, (uint64_t)c->cpu, HWPROF_SPE_INFO_CPU_WORDS - 3, c->midr,
			c->pmu_type, c->min_interval, c->event_filter,
		};
		for (size_t k = 0; k < HWPROF_SPE_INFO_CPU_WORDS; k++, p += 8)
			put64(p, blk[k]);
	}
	return (int)(p - buf);
}

static int aux_info(void *ctx, const struct hwprof_record_event *ev, uint8_t *buf, size_t len)
{
	(void)ev;
	return hwprof_spe_rec_info_build(ctx, buf, len);
}

HWPROF_API void hwprof_spe_record_aux_ops(struct hwprof_record_aux_ops *ops, const struct hwprof_spe_rec_info *info)
{
	ops->info = aux_info;
	ops->ctx = (void *)info;
}
