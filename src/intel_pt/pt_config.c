/* intel_pt config terms: perf 6.1's default terms from caps/, its value
 * checks against the caps bitmaps (with its messages), and the
 * capability checks the kernel's driver makes when the event is opened
 * (done here first so the user learns which caps/ file says no, instead
 * of a bare EINVAL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt_cfg.h"

/* caps/<name> as a number in base; dflt when absent or not a number. */
static long long cap_num(const struct hwprof_pmu *pmu, const char *name, int base, long long dflt)
{
	const char *v = hwprof_pmu_cap(pmu, name);
	char *end;
	if (!v || !*v)
		return dflt;
	long long n = strtoll(v, &end, base);
	return end == v ? dflt : n;
}

HWPROF_API uint64_t hwprof_pt_term_bits(const struct hwprof_pmu *pmu, const char *term)
{
	const struct hwprof_pmu_format *f = pmu ? hwprof_pmu_format_find(pmu, term) : NULL;
	uint64_t cfg[HWPROF_CFG_WORDS] = { 0 };
	if (!f || f->word != HWPROF_CFG_CONFIG)
		return 0;
	hwprof_pmu_format_place(f, hwprof_pmu_format_max(f), cfg);
	return cfg[0];
}

/* The set bit nearest target: the highest at or below it, else the
 * lowest above it; -1 when there are none. */
static int nearest_bit(unsigned long long bits, int target)
{
	int pick = -1;
	for (int pos = 0; pos < 64; pos++) {
		if (!(bits >> pos & 1))
			continue;
		if (pos <= target || pick < 0)
			pick = pos;
		if (pos >= target)
			break;
	}
	return pick;
}

/* ",name=value" (value < 0: ",name") at *n into buf, keeping *n the length
 * the whole text needs, as snprintf does. */
static void put(char *buf, size_t len, int *n, const char *name, int value)
{
	size_t at = (size_t)*n < len ? (size_t)*n : len;
	int k = value < 0 ? snprintf(buf + at, len - at, ",%s", name)
			  : snprintf(buf + at, len - at, ",%s=%d", name, value);
	if (k > 0)
		*n += k;
}

HWPROF_API int hwprof_pt_default_terms(const struct hwprof_pmu *pmu, char *buf, size_t len)
{
	int n = snprintf(buf, len, "tsc");
	long long mtc_periods = 0;
	if (cap_num(pmu, "mtc", 10, 1)) {
		mtc_periods = cap_num(pmu, "mtc_periods", 16, 0);
		if (mtc_periods) {
			put(buf, len, &n, "mtc", -1);
			put(buf, len, &n, "mtc_period", nearest_bit((unsigned long long)mtc_periods, 3));
		}
	}
	if (cap_num(pmu, "psb_cyc", 10, 1) && mtc_periods) {
		long long psb_periods = cap_num(pmu, "psb_periods", 16, 0);
		if (psb_periods)
			put(buf, len, &n, "psb_period", nearest_bit((unsigned long long)psb_periods, 3));
	}
	if (hwprof_pmu_format_find(pmu, "pt") && hwprof_pmu_format_find(pmu, "branch")) {
		put(buf, len, &n, "pt", -1);
		put(buf, len, &n, "branch", -1);
	}
	return n;
}

HWPROF_API int hwprof_pt_valid_values(char *buf, size_t len, uint64_t bitmap)
{
	int n = 0;
	if (len)
		buf[0] = 0;
	for (int v = 0; v < 64; v++) {
		if (!(bitmap >> v & 1))
			continue;
		int e = v;
		while (e + 1 < 64 && (bitmap >> (e + 1) & 1))
			e++;
		size_t at = (size_t)n < len ? (size_t)n : len;
		const char *sep = n ? "," : "";
		if (e == v)
			n += snprintf(buf + at, len - at, "%s%d", sep, v);
		else /* two in a row are listed, three or more are a range */
			n += snprintf(buf + at, len - at, "%s%d%c%d", sep, v, e == v + 1 ? ',' : '-', e);
		v = e;
	}
	return n;
}

static int fail(struct hwprof_error *err, int code, const char *fmt, const char *a, const char *b)
{
	if (err) {
		err->code = code;
		err->offset = 0;
		snprintf(err->msg, sizeof(err->msg), fmt, a, b);
	}
	return code;
}

/* The term's value inside config (0 when the PMU has no such term). */
static uint64_t term_value(const struct hwprof_pmu *pmu, const char *term, uint64_t config)
{
	uint64_t bits = hwprof_pt_term_bits(pmu, term);
	if (!bits)
		return 0;
	config &= bits;
	while (!(bits & 1)) {
		bits >>= 1;
		config >>= 1;
	}
	return config;
}

/* perf's check of one multi-valued term against a caps bitmap; `gate` is
 * the caps/ flag that, when present and 0, leaves only the value 0. */
static int check_values(const struct hwprof_pmu *pmu, const char *caps, const char *term, const char *gate,
			uint64_t config, struct hwprof_error *err)
{
	uint64_t valid = (uint64_t)cap_num(pmu, caps, 16, 0);
	if (gate && !cap_num(pmu, gate, 10, 1))
		valid = 0;
	valid |= 1;
	uint64_t v = term_value(pmu, term, config);
	if (v < 64 && (valid >> v & 1))
		return 0;
	char list[160];
	hwprof_pt_valid_values(list, sizeof(list), valid);
	return fail(err, -HWPROF_E_INVAL, "Invalid %s for intel_pt. Valid values are: %s", term, list);
}

static int set(const struct hwprof_pmu *pmu, const char *term, uint64_t config)
{
	return term_value(pmu, term, config) != 0;
}

/* A term that needs a caps/ flag the CPU reports as 0 (or lacks). */
static int need_cap(const struct hwprof_pmu *pmu, const char *term, const char *cap, uint64_t config,
		    struct hwprof_error *err)
{
	if (!set(pmu, term, config) || cap_num(pmu, cap, 10, 0))
		return 0;
	return fail(err, -HWPROF_E_OPNOTSUPP,
		    "intel_pt: %s is not supported by this CPU (caps/%s is 0 or missing); the kernel refuses the event",
		    term, cap);
}

HWPROF_API int hwprof_pt_check_config(const struct hwprof_pmu *pmu, uint64_t *config, unsigned *flags,
				      struct hwprof_error *err)
{
	int rc;
	if (flags)
		*flags = 0;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!pmu || !config)
		return -HWPROF_E_INVAL;
	/* perf forces pass-through on (config bit 0), whatever the user said */
	if (hwprof_pmu_format_find(pmu, "pt") && !(*config & 1)) {
		*config |= 1;
		if (flags)
			*flags |= HWPROF_PT_FORCED_PT;
	}
	uint64_t c = *config;
	if ((rc = check_values(pmu, "cycle_thresholds", "cyc_thresh", "psb_cyc", c, err)) ||
	    (rc = check_values(pmu, "mtc_periods", "mtc_period", "mtc", c, err)) ||
	    (rc = check_values(pmu, "psb_periods", "psb_period", "psb_cyc", c, err)))
		return rc;

	/* what the driver checks when the event is opened */
	if ((rc = need_cap(pmu, "cyc", "psb_cyc", c, err)) || (rc = need_cap(pmu, "mtc", "mtc", c, err)) ||
	    (rc = need_cap(pmu, "ptw", "ptwrite", c, err)) || (rc = need_cap(pmu, "fup_on_ptw", "ptwrite", c, err)) ||
	    (rc = need_cap(pmu, "pwr_evt", "power_event_trace", c, err)) ||
	    (rc = need_cap(pmu, "event", "event_trace", c, err)) || (rc = need_cap(pmu, "notnt", "tnt_disable", c, err)))
		return rc;
	if (set(pmu, "mtc", c) && !cap_num(pmu, "mtc_periods", 16, 0))
		return fail(err, -HWPROF_E_OPNOTSUPP,
			    "intel_pt: %s needs MTC periods, and caps/%s is 0; the kernel refuses the event",
			    "mtc", "mtc_periods");
	if (set(pmu, "fup_on_ptw", c) && !set(pmu, "ptw", c))
		return fail(err, -HWPROF_E_INVAL, "intel_pt: %s without %s; the kernel refuses the event",
			    "fup_on_ptw", "ptw");
	/* branch tracing can only be switched off through pass-through */
	if (hwprof_pmu_format_find(pmu, "branch") && !hwprof_pmu_format_find(pmu, "pt") && !set(pmu, "branch", c))
		return fail(err, -HWPROF_E_OPNOTSUPP,
			    "intel_pt: %s needs the %s (pass-through) format, which this kernel lacks",
			    "branch=0", "pt");
	return 0;
}
