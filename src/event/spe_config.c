/* Arm SPE events in perf record. Two sources of facts:
 *  - perf's recording options for an arm_spe_N event (arch/arm64/util/
 *    arm-spe.c): the SPE event goes to the front, samples CPU and sets
 *    ts_enable (unless given) with per-cpu buffers, samples DATA_SRC (and
 *    PHYS_ADDR with pa_enable), a "dummy:u" event (period 1, TIME|CPU,
 *    context_switch) carries the tracking records, every event samples
 *    IDENTIFIER; no dummy in discard mode; frequencies are refused.
 *  - the kernel driver (drivers/perf/arm_spe_pmu.c): format/ lists only the
 *    terms the hardware implements (discard and inv_event_filter need
 *    FEAT_SPEv1p2, the *_mask / simd / float filters FEAT_SPE_EFT,
 *    inv_data_src_filter FEAT_SPE_FDS), event filter bits outside
 *    caps/event_filter are refused, exclude_idle is refused.
 * Checking here lets the error name the missing SPE feature instead of the
 * kernel's bare EOPNOTSUPP. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_int.h"
#include "hwprof/arm_spe_record.h"

int evt_pmu_is_spe(const char *name)
{
	return !strncmp(name, "arm_spe", 7);
}

static int is_spe_n(const char *name)
{
	if (strncmp(name, "arm_spe_", 8) || !name[8])
		return 0;
	return strspn(name + 8, "0123456789") == strlen(name + 8);
}

const struct hwprof_pmu *evt_spe_pmu_by_prefix(const struct hwprof_pmus *pmus, const char *name)
{
	if (strcmp(name, "arm_spe"))
		return NULL;
	for (size_t i = 0; i < hwprof_pmus_count(pmus); i++) {
		const struct hwprof_pmu *p = hwprof_pmus_get(pmus, i);
		if (is_spe_n(p->name))
			return p;
	}
	return NULL;
}

int evt_spe_pmu_missing(const struct hwprof_pmus *pmus, const char *name, char *buf, size_t len)
{
	if (strcmp(name, "arm_spe") && !is_spe_n(name))
		return 0;
	for (size_t i = 0; i < hwprof_pmus_count(pmus); i++)
		if (is_spe_n(hwprof_pmus_get(pmus, i)->name))
			return 0; /* another arm_spe_N exists: the suggestion is better */
	/* perf's message, then the manual's "Common errors" checklist */
	snprintf(buf, len,
		 "Cannot find PMU `%s'. Missing kernel support? (needs CONFIG_ARM_SPE_PMU built in or loaded, "
		 "kpti=off on some CPUs, the SPE interrupt described by ACPI/DT; VMs usually have no SPE)",
		 name);
	return 1;
}

/* Terms the driver shows only with a feature (format attr is_visible). */
static const struct {
	const char *term, *feature;
} feature_terms[] = {
	{ "discard", "FEAT_SPEv1p2 (discard mode, PMBLIMITR_EL1.FM)" },
	{ "inv_event_filter", "FEAT_SPEv1p2 (PMSNEVFR_EL1)" },
	{ "branch_filter_mask", "FEAT_SPE_EFT (PMSFCR_EL1.Bm)" },
	{ "load_filter_mask", "FEAT_SPE_EFT (PMSFCR_EL1.LDm)" },
	{ "store_filter_mask", "FEAT_SPE_EFT (PMSFCR_EL1.STm)" },
	{ "simd_filter", "FEAT_SPE_EFT (PMSFCR_EL1.SIMD)" },
	{ "simd_filter_mask", "FEAT_SPE_EFT (PMSFCR_EL1.SIMDm)" },
	{ "float_filter", "FEAT_SPE_EFT (PMSFCR_EL1.FP)" },
	{ "float_filter_mask", "FEAT_SPE_EFT (PMSFCR_EL1.FPm)" },
	{ "inv_data_src_filter", "FEAT_SPE_FDS (PMSDSFR_EL1)" },
};

static const char *const base_terms[] = {
	"ts_enable", "pa_enable", "pct_enable", "jitter", "branch_filter", "load_filter",
	"store_filter", "event_filter", "min_latency",
};

int evt_spe_term_missing(char *buf, size_t len, const struct hwprof_pmu *pmu, const char *term)
{
	if (!is_spe_n(pmu->name))
		return 0;
	for (size_t i = 0; i < sizeof(feature_terms) / sizeof(feature_terms[0]); i++)
		if (!strcmp(term, feature_terms[i].term)) {
			snprintf(buf, len,
				 "PMU '%s' has no term '%s': it needs %s, which this SPE does not implement "
				 "(the driver lists only supported terms in format/)",
				 pmu->name, term, feature_terms[i].feature);
			return 1;
		}
	for (size_t i = 0; i < sizeof(base_terms) / sizeof(base_terms[0]); i++)
		if (!strcmp(term, base_terms[i])) {
			snprintf(buf, len, "PMU '%s' does not list the SPE term '%s' in format/ (a kernel too old?)",
				 pmu->name, term);
			return 1;
		}
	return 0;
}

/* ---- event filter bits (perf-arm-spe(1) table) ----------------------------- */

static const char *filter_bit_name(unsigned bit, const char **feature)
{
	static const struct {
		const char *name, *feature;
	} bits[26] = {
		[1] = { "instruction retired", NULL },
		[2] = { "L1D access", "FEAT_SPEv1p4" },
		[3] = { "L1D refill", NULL },
		[4] = { "TLB access", "FEAT_SPEv1p4" },
		[5] = { "TLB refill", NULL },
		[6] = { "not taken", "FEAT_SPEv1p2" },
		[7] = { "mispredict", NULL },
		[8] = { "last level cache access", "FEAT_SPEv1p4" },
		[9] = { "last level cache miss", "FEAT_SPEv1p4" },
		[10] = { "remote access", "FEAT_SPEv1p4" },
		[11] = { "misaligned access", "FEAT_SPEv1p1" },
		[16] = { "transaction", "FEAT_TME" },
		[17] = { "partial or empty SME or SVE predicate", "FEAT_SPEv1p1" },
		[18] = { "empty SME or SVE predicate", "FEAT_SPEv1p1" },
		[19] = { "L2D access", "FEAT_SPEv1p4" },
		[20] = { "L2D miss", "FEAT_SPEv1p4" },
		[21] = { "cache data modified", "FEAT_SPEv1p4" },
		[22] = { "recently fetched", "FEAT_SPEv1p4" },
		[23] = { "data snooped", "FEAT_SPEv1p4" },
		[24] = { "streaming SVE mode", "FEAT_SPE_SME" },
		[25] = { "SMCU or external coprocessor operation", "FEAT_SPE_SME" },
	};
	*feature = NULL;
	if (bit < 26 && bits[bit].name) {
		*feature = bits[bit].feature;
		return bits[bit].name;
	}
	if ((bit >= 12 && bit <= 15) || (bit >= 26 && bit <= 31) || bit >= 48)
		return "IMPLEMENTATION DEFINED";
	return "reserved";
}

/* The value of a format field in the attr (the inverse of
 * hwprof_pmu_format_place). */
static uint64_t field_get(const struct hwprof_pmu_format *f, const struct hwprof_attr *a)
{
	const uint64_t words[HWPROF_CFG_WORDS] = { a->config, a->config1, a->config2, a->config3, a->config4 };
	uint64_t v = 0, w = words[f->word < HWPROF_CFG_WORDS ? f->word : 0];
	unsigned pos = 0;
	for (unsigned r = 0; r < f->nr; r++) {
		unsigned n = (unsigned)(f->r[r].hi - f->r[r].lo) + 1;
		uint64_t mask = n >= 64 ? ~0ULL : (1ULL << n) - 1;
		if (pos < 64)
			v |= ((w >> f->r[r].lo) & mask) << pos;
		pos += n;
	}
	return v;
}

HWPROF_API int hwprof_spe_term_value(const struct hwprof_pmu *pmu, const struct hwprof_attr *attr,
				     const char *term, uint64_t *value)
{
	const struct hwprof_pmu_format *f = pmu ? hwprof_pmu_format_find(pmu, term) : NULL;
	*value = f ? field_get(f, attr) : 0;
	return f ? 0 : -HWPROF_E_NOENT;
}

static int cap_u64(const struct hwprof_pmu *pmu, const char *cap, int base, uint64_t *v)
{
	const char *s = hwprof_pmu_cap(pmu, cap);
	char *end;
	if (!s || !*s)
		return -1;
	*v = strtoull(s, &end, base);
	return *end ? -1 : 0;
}

static int spe_fail(struct hwprof_error *err, const struct hwprof_event *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int spe_fail(struct hwprof_error *err, const struct hwprof_event *e, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		err->code = -HWPROF_E_INVAL;
		err->offset = e->spec_off;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -HWPROF_E_INVAL;
}

static int check_filter(const struct hwprof_event *e, const struct hwprof_pmu *pmu, const char *term,
			struct hwprof_error *err)
{
	uint64_t v, allowed;
	if (hwprof_spe_term_value(pmu, &e->attr, term, &v) || !v || cap_u64(pmu, "event_filter", 16, &allowed))
		return 0; /* no caps/event_filter (older kernels): the driver decides */
	uint64_t bad = v & ~allowed;
	if (!bad)
		return 0;
	unsigned bit = (unsigned)__builtin_ctzll(bad);
	const char *feature, *name = filter_bit_name(bit, &feature);
	if (feature)
		return spe_fail(err, e, "%s: %s bit %u (%s) needs %s, which this SPE does not implement "
					"(caps/event_filter %#llx)", e->name, term, bit, name, feature,
				(unsigned long long)allowed);
	return spe_fail(err, e, "%s: %s bit %u (%s) is not supported by this SPE (caps/event_filter %#llx)",
			e->name, term, bit, name, (unsigned long long)allowed);
}

/* What the driver would refuse at open, said with the SPE feature. */
static int spe_check(const struct hwprof_event *e, const struct hwprof_pmu *pmu,
		     const struct hwprof_evlist_opts *o, struct hwprof_error *err)
{
	uint64_t v, size;
	if (o->user_freq || (e->set & HWPROF_EVSET_FREQ))
		return spe_fail(err, e, "Arm SPE: Frequency is not supported. Set period with -c option or "
					"PMU parameter (-e %s/period=NUM/).", pmu->name);
	if (e->attr.flags & (1ULL << HWPROF_ATTR_EXCLUDE_IDLE))
		return spe_fail(err, e, "%s: SPE cannot exclude idle (the driver refuses exclude_idle), "
					"drop the I modifier", e->name);
	if (check_filter(e, pmu, "event_filter", err) || check_filter(e, pmu, "inv_event_filter", err))
		return -HWPROF_E_INVAL;
	if (!hwprof_spe_term_value(pmu, &e->attr, "min_latency", &v) && v &&
	    !cap_u64(pmu, "count_size", 10, &size) && size < 64 && v > (1ULL << size) - 1)
		return spe_fail(err, e, "%s: min_latency %llu can never match: SPE latency counters saturate "
					"at %llu (caps/count_size %llu)", e->name, (unsigned long long)v,
				(unsigned long long)((1ULL << size) - 1), (unsigned long long)size);
	return 0;
}

/* perf's evlist__to_front: the SPE event's group first, the rest in order. */
static int to_front(struct hwprof_evlist *l, size_t lead, size_t *map)
{
	struct hwprof_event *v = malloc(l->nr * sizeof(*v));
	size_t n = 0;
	if (!v)
		return -HWPROF_E_NOMEM;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < l->nr; i++)
			if ((l->ev[i].leader == lead) == (pass == 0)) {
				map[i] = n;
				v[n++] = l->ev[i];
			}
	for (size_t i = 0; i < n; i++)
		v[i].leader = map[v[i].leader];
	memcpy(l->ev, v, n * sizeof(*v));
	free(v);
	return 0;
}

int evt_spe_prepare(struct hwprof_evlist *l, const struct hwprof_evlist_opts *o,
		    const struct hwprof_pmus *pmus, size_t *track, int *spe, struct hwprof_error *err)
{
	size_t at = SIZE_MAX;
	*track = 0;
	*spe = 0;
	for (size_t i = 0; i < l->nr; i++) {
		const struct hwprof_event *e = &l->ev[i];
		if (e->kind != HWPROF_EVENT_PMU || !is_spe_n(e->pmu))
			continue;
		if (at != SIZE_MAX)
			return spe_fail(err, e, "There may be only one arm_spe_x event");
		at = i;
	}
	if (at == SIZE_MAX)
		return 0;
	const struct hwprof_pmu *pmu = hwprof_pmus_find(pmus, l->ev[at].pmu);
	if (!pmu)
		return spe_fail(err, &l->ev[at], "Cannot find PMU `%s'. Missing kernel support?", l->ev[at].pmu);
	int rc = spe_check(&l->ev[at], pmu, o, err);
	if (rc)
		return rc;
	size_t *map = malloc(l->nr * sizeof(*map));
	if (!map)
		return -HWPROF_E_NOMEM;
	rc = to_front(l, l->ev[at].leader, map);
	/* perf's tracking evsel is the one parsed first, until a dummy takes over */
	if (!rc)
		*track = map[0];
	free(map);
	if (rc)
		return rc;
	*spe = 1;
	uint64_t discard = 0;
	hwprof_spe_term_value(pmu, &l->ev[0].attr, "discard", &discard);
	if (discard)
		return 0; /* discard mode: no AUX data, no tracking dummy */
	rc = hwprof_evlist_parse(l, "dummy:u", pmus, err);
	if (rc < 0)
		return rc;
	struct hwprof_event *d = &l->ev[l->nr - 1];
	d->added = 1;
	d->set |= HWPROF_EVSET_PERIOD;
	d->period = o->period ? o->period : 1; /* -c overrides perf's weak default of 1 */
	*track = l->nr - 1;
	return 0;
}

static void set_term(const struct hwprof_pmu *pmu, struct hwprof_attr *a, const char *term, uint64_t v)
{
	const struct hwprof_pmu_format *f = pmu ? hwprof_pmu_format_find(pmu, term) : NULL;
	uint64_t cfg[HWPROF_CFG_WORDS] = { a->config, a->config1, a->config2, a->config3, a->config4 };
	if (!f || hwprof_pmu_format_place(f, v, cfg))
		return;
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];
	a->config3 = cfg[3];
	a->config4 = cfg[4];
}

void evt_spe_finish(struct hwprof_evlist *l, const struct hwprof_pmus *pmus, size_t track)
{
	struct hwprof_event *e = &l->ev[0];
	const struct hwprof_pmu *pmu = hwprof_pmus_find(pmus, e->pmu);
	const struct hwprof_pmu_format *ts = pmu ? hwprof_pmu_format_find(pmu, "ts_enable") : NULL;
	uint64_t pa = 0;
	/* per-cpu buffers (perf record's default target): CPU and timestamps */
	e->attr.sample_type |= HWPROF_SAMPLE_CPU;
	if (ts && !(ts - pmu->formats < 64 && (e->terms_set >> (ts - pmu->formats) & 1)))
		set_term(pmu, &e->attr, "ts_enable", 1);
	e->attr.sample_type |= HWPROF_SAMPLE_DATA_SRC;
	if (!hwprof_spe_term_value(pmu, &e->attr, "pa_enable", &pa) && pa)
		e->attr.sample_type |= HWPROF_SAMPLE_PHYS_ADDR;
	if (track == l->nr - 1 && !strcmp(l->ev[track].name, "dummy:u") && track) {
		struct hwprof_attr *d = &l->ev[track].attr;
		d->sample_type |= HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_CPU;
		d->flags |= 1ULL << HWPROF_ATTR_CONTEXT_SWITCH;
	}
	/* full AUX tracing: every event is matched by IDENTIFIER */
	for (size_t i = 0; i < l->nr; i++) {
		l->ev[i].attr.sample_type &= ~HWPROF_SAMPLE_ID;
		l->ev[i].attr.sample_type |= HWPROF_SAMPLE_IDENTIFIER;
	}
}

/* ---- notes for the user ------------------------------------------------------ */

static size_t add_note(char *buf, size_t len, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t add_note(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (n < len) {
		int k = vsnprintf(buf + n, len - n, fmt, ap);
		n += k > 0 ? (size_t)k : 0;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "\n");
	}
	va_end(ap);
	return n < len ? n : (len ? len - 1 : 0);
}

HWPROF_API size_t hwprof_spe_notes(const struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
				   const struct hwprof_evlist_opts *o, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; l && i < l->nr; i++) {
		const struct hwprof_event *e = &l->ev[i];
		if (e->kind != HWPROF_EVENT_PMU || !is_spe_n(e->pmu))
			continue;
		const struct hwprof_pmu *pmu = hwprof_pmus_find(pmus, e->pmu);
		uint64_t period = e->attr.sample_period, min = 0, arch = 1, discard = 0;
		if (!pmu)
			continue;
		hwprof_spe_term_value(pmu, &e->attr, "discard", &discard);
		if (discard)
			continue;
		int has_min = !cap_u64(pmu, "min_interval", 10, &min);
		/* the driver programs PMSIRR_EL1.INTERVAL, bits 31:8 */
		uint64_t eff = period < 256 ? 256 : period > 0xffffff00ULL ? 0xffffff00ULL : period & ~0xffULL;
		if (eff != period)
			n = add_note(buf, len, n, "%s: the driver sets the SPE interval in steps of 256 "
				     "(256 to 0xffffff00): period %llu samples every %llu operations",
				     e->name, (unsigned long long)period, (unsigned long long)eff);
		if (has_min && eff < min)
			n = add_note(buf, len, n, "%s: interval %llu is below caps/min_interval %llu: expect "
				     "collisions (dropped samples, see perf-arm-spe(1) COLLISIONS)",
				     e->name, (unsigned long long)eff, (unsigned long long)min);
		else if (!(e->set & HWPROF_EVSET_PERIOD) && !o->period)
			n = add_note(buf, len, n, "%s: sampling at the minimum interval %llu; if perf.data "
				     "grows too large, give a larger interval with -c",
				     e->name, (unsigned long long)period);
		if (!cap_u64(pmu, "arch_inst", 10, &arch) && !arch)
			n = add_note(buf, len, n, "%s: this SPE samples micro-operations, not instructions "
				     "(caps/arch_inst 0): instructions made of several micro-ops are sampled "
				     "more often", e->name);
	}
	return n;
}
