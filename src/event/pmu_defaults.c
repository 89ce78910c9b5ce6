/* What perf presets for particular PMUs before the user's terms: intel_pt
 * starts from perf's default terms ("tsc,mtc,mtc_period=N,psb_period=N,
 * pt,branch", chosen from caps/ by hwprof_pt_default_terms), and which
 * PMUs write to the AUX area. */
#include <stdlib.h>
#include <string.h>

#include "event/event_int.h"
#include "hwprof/intel_pt_cfg.h"

int evt_pmu_is_aux(const char *name)
{
	return !strcmp(name, "intel_pt") || !strcmp(name, "intel_bts") ||
	       !strncmp(name, "arm_spe", 7) || !strcmp(name, "cs_etm");
}

static void set_term(const struct hwprof_pmu *pmu, const char *term, uint64_t v,
		     uint64_t cfg[HWPROF_CFG_WORDS])
{
	const struct hwprof_pmu_format *f = hwprof_pmu_format_find(pmu, term);
	if (f)
		hwprof_pmu_format_place(f, v, cfg);
}

/* intel_pt: perf's default terms (hwprof_pt_default_terms, one source for
 * the text -vv prints and the bits) placed through the PMU's formats. */
void evt_pmu_default_config(const struct hwprof_pmu *pmu, uint64_t cfg[HWPROF_CFG_WORDS])
{
	char terms[256];
	if (strcmp(pmu->name, "intel_pt") || hwprof_pt_default_terms(pmu, terms, sizeof(terms)) >= (int)sizeof(terms))
		return;
	char *save = NULL;
	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 10);
		}
		set_term(pmu, t, v, cfg);
	}
}
