/* A sampled profile built from a session: interned frames, call stacks
 * deduplicated in a trie, threads, events and per-(thread, event, stack)
 * totals. Exporters (speedscope, Firefox, Chrome trace, pprof, flame graph
 * SVG) read this model; formats that need every sample in time order get
 * them streamed through a callback while the profile is built, so memory
 * stays proportional to the distinct stacks, not to the samples.
 *
 * Symbol names come from a resolver callback; hwprof_resolve_dso_only()
 * names every frame "[unknown]" (as perf does for an unresolved symbol)
 * and gives the DSO from the session's maps.
 */
#ifndef HWPROF_PROFILE_H
#define HWPROF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwprof/hwprof.h"
#include "hwprof/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_profile;

/* Names the code at addr (cpumode HWPROF_MISC_KERNEL/USER/...) of thread
 * pid/tid: writes a NUL-terminated name into name[len] and sets *dso to
 * the object's path (or NULL; the string is copied by the caller).
 * Returns 1 for a resolved symbol, 0 for a placeholder name such as
 * "[unknown]", < 0 (-HWPROF_E_*) to abort the build. */
typedef int (*hwprof_resolve_fn)(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid,
				 unsigned cpumode, uint64_t addr, char *name, size_t len, const char **dso);

/* The default resolver: "[unknown]" and the DSO of the map holding addr. */
HWPROF_API int hwprof_resolve_dso_only(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid,
				       unsigned cpumode, uint64_t addr, char *name, size_t len,
				       const char **dso);
/* Resolver with real symbols: ctx is a struct hwprof_symbols (symbols.h);
 * frames get perf's symbol names, "[unknown]" where none covers the
 * address. */
HWPROF_API int hwprof_resolve_symbols(void *ctx, struct hwprof_session *s, int32_t pid, int32_t tid,
				      unsigned cpumode, uint64_t addr, char *name, size_t len,
				      const char **dso);

#define HWPROF_STACK_NONE UINT32_MAX   /* parent of a root stack node */

struct hwprof_profile_frame {
	const char *name;    /* as the resolver gave it */
	const char *dso;     /* path, or NULL */
	const char *label;   /* what viewers show: name, or for a placeholder
	                      * name "name (dso basename)" so DSOs stay apart */
	bool kernel;         /* kernel or guest-kernel code */
	bool resolved;       /* the resolver returned 1 */
};

struct hwprof_profile_thread {
	int32_t pid, tid;
	const char *comm;    /* the thread's comm at its last sample */
	uint64_t nr_samples, weight;
};

struct hwprof_profile_event {
	const char *name;    /* "cpu-clock", "cycles:u", ... */
	uint32_t evsel_idx;
	bool period_is_ns;   /* cpu-clock / task-clock: periods are nanoseconds */
	uint64_t nr_samples, weight;
};

/* Totals of one distinct (thread, event, stack). */
struct hwprof_profile_entry {
	uint32_t thread, event, stack;
	uint64_t nr_samples, weight;
};

/* One sample as streamed to hwprof_profile_opts.on_sample. */
struct hwprof_profile_sample {
	uint32_t stack, thread, event;
	uint64_t weight;     /* the period, 1 when not sampled */
	uint64_t time;       /* 0 without PERF_SAMPLE_TIME */
	uint32_t cpu;        /* UINT32_MAX without PERF_SAMPLE_CPU */
	int32_t pid, tid;
};

struct hwprof_profile_opts {
	hwprof_resolve_fn resolve;       /* NULL: hwprof_resolve_dso_only */
	void *resolve_ctx;
	/* Called for every sample in delivery (time) order; the profile's
	 * frames, stacks and threads up to this sample are readable. A
	 * negative return aborts the build with that error. */
	int (*on_sample)(void *ctx, struct hwprof_profile *p, const struct hwprof_profile_sample *s);
	void *sample_ctx;
	/* Called now and then with the input offset reached and the input
	 * size (0 when unknown, e.g. a pipe). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* Reads every event of the session (which must be fresh) and builds the
 * profile. On an input error the events before it are kept: *out is still
 * set and the error is returned (err says where). */
HWPROF_API int hwprof_profile_build(struct hwprof_profile **out, struct hwprof_session *s,
				    const struct hwprof_profile_opts *opts, struct hwprof_error *err);
HWPROF_API void hwprof_profile_free(struct hwprof_profile *p);

HWPROF_API uint32_t hwprof_profile_nr_frames(const struct hwprof_profile *p);
HWPROF_API const struct hwprof_profile_frame *hwprof_profile_frame(const struct hwprof_profile *p, uint32_t id);
/* Stacks are nodes of a trie: a stack is its leaf frame plus its parent
 * stack (HWPROF_STACK_NONE for a root frame). Parents have smaller ids. */
HWPROF_API uint32_t hwprof_profile_nr_stacks(const struct hwprof_profile *p);
HWPROF_API uint32_t hwprof_profile_stack_frame(const struct hwprof_profile *p, uint32_t stack);
HWPROF_API uint32_t hwprof_profile_stack_parent(const struct hwprof_profile *p, uint32_t stack);
HWPROF_API uint32_t hwprof_profile_stack_depth(const struct hwprof_profile *p, uint32_t stack);
/* Frame ids of a stack root first; returns the depth (frames beyond max
 * are not written: the leaf end is cut). */
HWPROF_API uint32_t hwprof_profile_stack_frames(const struct hwprof_profile *p, uint32_t stack,
						uint32_t *frames, uint32_t max);

HWPROF_API uint32_t hwprof_profile_nr_threads(const struct hwprof_profile *p);
HWPROF_API const struct hwprof_profile_thread *hwprof_profile_thread(const struct hwprof_profile *p, uint32_t i);
HWPROF_API uint32_t hwprof_profile_nr_events(const struct hwprof_profile *p);
HWPROF_API const struct hwprof_profile_event *hwprof_profile_event(const struct hwprof_profile *p, uint32_t i);
/* Distinct (thread, event, stack) totals, in order of first appearance. */
HWPROF_API uint32_t hwprof_profile_nr_entries(const struct hwprof_profile *p);
HWPROF_API const struct hwprof_profile_entry *hwprof_profile_entry(const struct hwprof_profile *p, uint32_t i);
/* Time of the first and last sample (0 when samples carry no time). */
HWPROF_API void hwprof_profile_time_range(const struct hwprof_profile *p, uint64_t *first, uint64_t *last);
/* Samples skipped because they could not be parsed. */
HWPROF_API uint64_t hwprof_profile_nr_bad(const struct hwprof_profile *p);

/* ---- exporters -----------------------------------------------------------
 * Each writes one file format to f. The time-ordered formats (speedscope,
 * firefox, chrome) need the samples as they stream: create the exporter,
 * pass hwprof_export_on_sample with it as opts.on_sample/sample_ctx to
 * hwprof_profile_build(), then finish it. pprof and the flame graph use
 * the totals only and take a built profile. */
enum hwprof_export_format {
	HWPROF_EXPORT_SPEEDSCOPE = 0, /* speedscope file format, "sampled" profiles */
	HWPROF_EXPORT_FIREFOX = 1,    /* Gecko profile JSON (Firefox Profiler) */
	HWPROF_EXPORT_CHROME = 2,     /* Chrome trace event JSON (Perfetto UI) */
};

struct hwprof_export;
HWPROF_API int hwprof_export_create(struct hwprof_export **out, enum hwprof_export_format fmt);
HWPROF_API int hwprof_export_on_sample(void *export_ctx, struct hwprof_profile *p,
				       const struct hwprof_profile_sample *s);
/* Writes the file; returns 0 or -HWPROF_E_IO / -HWPROF_E_NOMEM. */
HWPROF_API int hwprof_export_finish(struct hwprof_export *x, const struct hwprof_profile *p, FILE *f);
HWPROF_API void hwprof_export_free(struct hwprof_export *x);

/* pprof: profile.proto, gzipped. */
HWPROF_API int hwprof_export_pprof(const struct hwprof_profile *p, FILE *f);

struct hwprof_flamegraph_opts {
	const char *title;   /* NULL: "Flame Graph" */
	unsigned width;      /* pixels; 0: 1200 */
	int event;           /* event index to draw; -1: the first */
};
/* An interactive SVG flame graph (click to zoom, search, tooltips). */
HWPROF_API int hwprof_flamegraph_svg(const struct hwprof_profile *p, const struct hwprof_flamegraph_opts *o,
				     FILE *f);

#ifdef __cplusplus
}
#endif
#endif
