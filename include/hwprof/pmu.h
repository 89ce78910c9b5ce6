/* PMUs as the kernel describes them in sysfs: <root>/bus/event_source/
 * devices/<pmu>/: type, format/, events/, caps/, cpumask, cpus.
 *
 *   hwprof_pmus_open()      read every PMU under a sysfs root (no env lookup:
 *                           the caller passes the root, NULL means "/sys")
 *   hwprof_pmus_find()      a PMU by name
 *   hwprof_pmu_format_*()   the format/ fields ("config:0-7,32-35") and how
 *                           a term value is spread over config..config4
 *   hwprof_pmu_alias()      an events/ alias ("event=0x3c,umask=0x01")
 *   hwprof_pmu_cap()        a caps/ file ("3f")
 */
#ifndef HWPROF_PMU_H
#define HWPROF_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which attr word a format range lives in. */
enum hwprof_cfg_word {
	HWPROF_CFG_CONFIG = 0, HWPROF_CFG_CONFIG1 = 1, HWPROF_CFG_CONFIG2 = 2,
	HWPROF_CFG_CONFIG3 = 3, HWPROF_CFG_CONFIG4 = 4, HWPROF_CFG_WORDS = 5,
};

#define HWPROF_FORMAT_MAX_RANGES 8
#define HWPROF_PMU_NAME_MAX 64

/* One format/ file: a term and the bit ranges it fills, lowest value bits
 * first ("config:0-7,32-35": value bits 0-7 go to config 0-7, value bits
 * 8-11 to config 32-35). */
struct hwprof_pmu_format {
	char name[HWPROF_PMU_NAME_MAX];
	uint8_t word;                      /* enum hwprof_cfg_word */
	uint8_t nr;                        /* ranges used */
	struct { uint8_t lo, hi; } r[HWPROF_FORMAT_MAX_RANGES];
};

/* One events/ file; scale and unit come from <name>.scale / <name>.unit. */
struct hwprof_pmu_alias {
	char name[HWPROF_PMU_NAME_MAX];
	char *value;                       /* terms, trailing newline removed */
	char *scale, *unit;                /* NULL when absent */
};

/* One caps/ file, value trimmed. */
struct hwprof_pmu_cap {
	char name[HWPROF_PMU_NAME_MAX];
	char value[64];
};

struct hwprof_pmu {
	char name[HWPROF_PMU_NAME_MAX];
	uint32_t type;                     /* contents of type */
	int is_core;                       /* cpu, cpu_core/atom, armv8_*, or has cpus */
	char cpumask[128];                 /* cpumask or cpus, "" when absent */
	struct hwprof_pmu_format *formats; /* sorted by name */
	size_t nr_formats;
	struct hwprof_pmu_alias *aliases;  /* sorted by name */
	size_t nr_aliases;
	struct hwprof_pmu_cap *caps;       /* sorted by name */
	size_t nr_caps;
	/* top-level files AUX PMUs have; -1 when absent or not a number */
	long long nr_addr_filters;         /* address filter slots (intel_pt, cs_etm) */
	long long max_nonturbo_ratio;      /* intel_pt: MSR_PLATFORM_INFO[15:8] */
};

struct hwprof_pmus;

/* Where to read from. sysfs_root NULL or "" means "/sys". */
struct hwprof_pmu_config {
	const char *sysfs_root;
};

/* Limits that keep a hostile or odd tree bounded. */
#define HWPROF_PMUS_MAX 512
#define HWPROF_PMU_FILES_MAX 4096
#define HWPROF_PMU_FILE_MAX 4096   /* bytes read from one sysfs file */

/* Read every PMU with a readable numeric `type` under the root, sorted by
 * name. A missing devices directory gives an empty list (not an error).
 * Malformed format files make the PMU's format unusable, not the call fail:
 * the bad file is skipped. Returns 0 or -HWPROF_E_NOMEM. */
HWPROF_API int hwprof_pmus_open(struct hwprof_pmus **out, const struct hwprof_pmu_config *cfg);
HWPROF_API void hwprof_pmus_close(struct hwprof_pmus *pmus);
HWPROF_API size_t hwprof_pmus_count(const struct hwprof_pmus *pmus);
HWPROF_API const struct hwprof_pmu *hwprof_pmus_get(const struct hwprof_pmus *pmus, size_t i);
HWPROF_API const struct hwprof_pmu *hwprof_pmus_find(const struct hwprof_pmus *pmus, const char *name);
/* The core PMU (cpu, cpu_core, armv8_pmuv3_0, ...), NULL if none. */
HWPROF_API const struct hwprof_pmu *hwprof_pmus_core(const struct hwprof_pmus *pmus);

HWPROF_API const struct hwprof_pmu_format *hwprof_pmu_format_find(const struct hwprof_pmu *pmu,
								   const char *name);
HWPROF_API const struct hwprof_pmu_alias *hwprof_pmu_alias(const struct hwprof_pmu *pmu,
							    const char *name);
/* caps/<name> value, or NULL. */
HWPROF_API const char *hwprof_pmu_cap(const struct hwprof_pmu *pmu, const char *name);

/* Parse a format file's text ("config1:0-15", "config:0-7,32-35",
 * "config:12\n") into f->word/nr/r (name untouched). Ranges must be
 * 0 <= lo <= hi <= 63 and at most 64 bits in total. 0 or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pmu_format_parse(struct hwprof_pmu_format *f, const char *text);
/* Largest value the format can hold (2^bits - 1). */
HWPROF_API uint64_t hwprof_pmu_format_max(const struct hwprof_pmu_format *f);
/* Put value into cfg[f->word] across the ranges, clearing the field's old
 * bits first. -HWPROF_E_INVAL (cfg untouched) if value > max. */
HWPROF_API int hwprof_pmu_format_place(const struct hwprof_pmu_format *f, uint64_t value,
				       uint64_t cfg[HWPROF_CFG_WORDS]);
/* "config", "config1", ... */
HWPROF_API const char *hwprof_cfg_word_name(unsigned word);
/* The format text back, as the kernel writes it ("config:0-7,32-35"). */
HWPROF_API int hwprof_pmu_format_text(char *buf, size_t len, const struct hwprof_pmu_format *f);

#ifdef __cplusplus
}
#endif
#endif
