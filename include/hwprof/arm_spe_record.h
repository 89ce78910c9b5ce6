/* Recording with Arm SPE (arm64): what perf record sets up for an
 * arm_spe_N event beyond the generic defaults.
 *
 *   hwprof_evlist_config()        (event.h) applies perf's SPE recording
 *                                 options and refuses what the driver would,
 *                                 naming the SPE feature that is missing
 *   hwprof_spe_term_value()       an SPE term's value in an attr (format/)
 *   hwprof_spe_notes()            warnings for the user (interval rounding,
 *                                 below caps/min_interval, micro-op sampling)
 *   hwprof_spe_rec_info_probe()   per-CPU facts for AUXTRACE_INFO from a
 *                                 sysfs root: online CPUs, MIDRs, PMU caps
 *   hwprof_spe_rec_info_build()   the AUXTRACE_INFO body, newer versioned
 *                                 layout (version 2, per-CPU MIDR blocks)
 *   hwprof_spe_record_aux_ops()   the struct hwprof_record_aux_ops for it
 */
#ifndef HWPROF_ARM_SPE_RECORD_H
#define HWPROF_ARM_SPE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/arm_spe_synth.h"
#include "hwprof/event.h"
#include "hwprof/hwprof.h"
#include "hwprof/pmu.h"
#include "hwprof/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value of format term `term` in attr; -HWPROF_E_NOENT (value 0) if
 * the PMU has no such term. */
HWPROF_API int hwprof_spe_term_value(const struct hwprof_pmu *pmu, const struct hwprof_attr *attr,
				     const char *term, uint64_t *value);

/* One line per note ("arm_spe_0/.../: ...\n") for the SPE events of a
 * configured list into buf (NUL-terminated, truncated to len); returns the
 * length written. */
HWPROF_API size_t hwprof_spe_notes(const struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
				   const struct hwprof_evlist_opts *o, char *buf, size_t len);

/* What the AUXTRACE_INFO of a recording says about each CPU. */
struct hwprof_spe_rec_info {
	uint32_t pmu_type;
	size_t nr_cpus;
	struct hwprof_spe_cpu_info *cpus;  /* sorted by CPU */
};

#define HWPROF_SPE_INFO_VERSION 2
#define HWPROF_SPE_INFO_HDR_WORDS 4       /* version, header size, PMU type, CPU count */
#define HWPROF_SPE_INFO_CPU_WORDS 7       /* magic, cpu, nr_params, midr, pmu type, min ival, ev filter */

/* Fill info for `pmu` from sysfs_root (NULL = "/sys"): the CPUs are
 * `cpu_list` ("0-3,5", as -C) or <root>/devices/system/cpu/online; each
 * CPU's MIDR from <root>/devices/system/cpu/cpuN/regs/identification/
 * midr_el1; CPUs outside the PMU's cpumask get PMU type UINT64_MAX and
 * min interval 0 (perf's convention). 0, or -HWPROF_E_* with err naming
 * the file. */
HWPROF_API int hwprof_spe_rec_info_probe(struct hwprof_spe_rec_info *info, const char *sysfs_root,
					 const struct hwprof_pmu *pmu, const char *cpu_list,
					 struct hwprof_error *err);
HWPROF_API void hwprof_spe_rec_info_free(struct hwprof_spe_rec_info *info);
/* Bytes of the AUXTRACE_INFO body (u32 type, u32 reserved, u64 priv[]). */
HWPROF_API size_t hwprof_spe_rec_info_size(const struct hwprof_spe_rec_info *info);
/* Write the body into buf; returns its size, or -HWPROF_E_INVAL if len is
 * too small. Little-endian host words, as perf writes them. */
HWPROF_API int hwprof_spe_rec_info_build(const struct hwprof_spe_rec_info *info, uint8_t *buf, size_t len);
/* aux_ops whose info() builds the body from info (which must outlive the
 * recording). */
HWPROF_API void hwprof_spe_record_aux_ops(struct hwprof_record_aux_ops *ops, const struct hwprof_spe_rec_info *info);

#ifdef __cplusplus
}
#endif
#endif
