/* Internals shared by the event-spec files (evt_ prefix): name lookups,
 * closest-name suggestions and PMU default configs. */
#ifndef HWPROF_EVENT_INT_H
#define HWPROF_EVENT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/event.h"
#include "hwprof/pmu.h"

/* A symbolic hardware or software event by name or alias. */
const struct hwprof_event_name *evt_sym_lookup(const char *name, uint32_t *type);
/* 1 if name is a tool event (duration_time, ...). */
int evt_is_tool(const char *name);
/* Hardware cache event name -> config; 0 ok, -1 not a cache name,
 * -2 a cache name perf does not allow (L1-icache-stores). */
int evt_cache_lookup(const char *name, uint64_t *config);

/* Up to three closest candidates to a word by edit distance. */
struct evt_suggest {
	const char *word;
	const char *best[3];
	unsigned dist[3];
	char own[3][96];  /* storage for generated candidates */
};
void evt_suggest_init(struct evt_suggest *s, const char *word);
void evt_suggest_add(struct evt_suggest *s, const char *cand);
/* " (did you mean 'a', 'b'?)" or "" into buf. */
void evt_suggest_text(const struct evt_suggest *s, char *buf, size_t len);
/* Every event name we know: symbolic, tool, cache, PMU names and aliases. */
void evt_suggest_all_events(struct evt_suggest *s, const struct hwprof_pmus *pmus);

unsigned evt_edit_distance(const char *a, const char *b);

/* AUX area PMUs: trace goes to the AUX buffer (intel_pt, arm_spe_N, cs_etm). */
int evt_pmu_is_aux(const char *name);
/* Config words perf presets for a PMU before the user's terms (intel_pt's
 * "tsc,mtc,mtc_period=N,psb_period=N,pt,branch" chosen from caps). */
void evt_pmu_default_config(const struct hwprof_pmu *pmu, uint64_t cfg[HWPROF_CFG_WORDS]);

/* Arm SPE (spe_config.c). */
int evt_pmu_is_spe(const char *name);
/* "arm_spe" names the first arm_spe_N PMU, as in perf; NULL otherwise. */
const struct hwprof_pmu *evt_spe_pmu_by_prefix(const struct hwprof_pmus *pmus, const char *name);
/* name is arm_spe[_N] and no SPE PMU exists: perf's message and what to
 * check into buf, 1; else 0. */
int evt_spe_pmu_missing(const struct hwprof_pmus *pmus, const char *name, char *buf, size_t len);
/* term is an SPE term this PMU does not list in format/: which SPE feature
 * it needs into buf, 1; else 0. */
int evt_spe_term_missing(char *buf, size_t len, const struct hwprof_pmu *pmu, const char *term);
/* Before the record defaults: checks, SPE group to the front, the dummy:u
 * tracking event appended. *track = the index of the tracking event. */
int evt_spe_prepare(struct hwprof_evlist *l, const struct hwprof_evlist_opts *o,
		    const struct hwprof_pmus *pmus, size_t *track, int *spe, struct hwprof_error *err);
/* After them: the sample bits and config perf's arm_spe_recording_options set. */
void evt_spe_finish(struct hwprof_evlist *l, const struct hwprof_pmus *pmus, size_t track);

#endif
