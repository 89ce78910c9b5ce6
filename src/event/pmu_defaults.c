/* What perf presets for particular PMUs before the user's terms: intel_pt
 * starts from "tsc,mtc,mtc_period=N,psb_period=N,pt,branch" where the
 * periods are picked from caps/mtc_periods and caps/psb_periods (the
 * supported value closest to 3 from below, else the smallest above), and
 * which PMUs write to the AUX area. */
#include <stdlib.h>
#include <string.h>

#include "event/event_int.h"

int evt_pmu_is_aux(const char *name)
{
	return !strcmp(name, "intel_pt") || !strcmp(name, "intel_bts") ||
	       !strncmp(name, "arm_spe", 7) || !strcmp(name, "cs_etm");
}

static long cap_num(const struct hwprof_pmu *pmu, const char *cap, int base, long dflt)
{
	const char *v = hwprof_pmu_cap(pmu, cap);
	if (!v || !*v)
		return dflt;
	char *end;
	long n = strtol(v, &end, base);
	return *end ? dflt : n;
}

/* The set bit of `bits` nearest to target: the highest at or below it,
 * else the lowest above it; -1 for no bits. */
static int pick_bit(unsigned long bits, int target)
{
	int pick = -1;
	for (int pos = 0; pos < 32; pos++) {
		if (!(bits >> pos & 1))
			continue;
		if (pos <= target || pick < 0)
			pick = pos;
		if (pos >= target)
			break;
	}
	return pick;
}

static void set_term(const struct hwprof_pmu *pmu, const char *term, uint64_t v,
		     uint64_t cfg[HWPROF_CFG_WORDS])
{
	const struct hwprof_pmu_format *f = hwprof_pmu_format_find(pmu, term);
	if (f)
		hwprof_pmu_format_place(f, v, cfg);
}

void evt_pmu_default_config(const struct hwprof_pmu *pmu, uint64_t cfg[HWPROF_CFG_WORDS])
{
	if (strcmp(pmu->name, "intel_pt"))
		return;
	set_term(pmu, "tsc", 1, cfg);
	long mtc_periods = 0;
	if (cap_num(pmu, "mtc", 10, 1)) {
		mtc_periods = cap_num(pmu, "mtc_periods", 16, 0);
		if (mtc_periods) {
			set_term(pmu, "mtc", 1, cfg);
			set_term(pmu, "mtc_period", (uint64_t)pick_bit((unsigned long)mtc_periods, 3), cfg);
		}
	}
	if (cap_num(pmu, "psb_cyc", 10, 1) && mtc_periods) {
		long psb_periods = cap_num(pmu, "psb_periods", 16, 0);
		if (psb_periods)
			set_term(pmu, "psb_period", (uint64_t)pick_bit((unsigned long)psb_periods, 3), cfg);
	}
	if (hwprof_pmu_format_find(pmu, "pt") && hwprof_pmu_format_find(pmu, "branch")) {
		set_term(pmu, "pt", 1, cfg);
		set_term(pmu, "branch", 1, cfg);
	}
}
