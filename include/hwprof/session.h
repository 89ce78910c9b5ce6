/* A perf.data session: the records of a file delivered in the order perf
 * processes them, with samples parsed and process state tracked.
 *
 * Ordering follows perf's: records perf synthesizes (user types >= 64) and
 * kernel records without a timestamp are delivered as they are read; kernel
 * records with a timestamp are queued and delivered in time order when a
 * FINISHED_ROUND allows it (everything up to the newest time of the round
 * before) and at the end of the input. As in perf, a file whose first
 * event lacks sample_id_all is not ordered: records come as they are read
 * (hwprof_session_ordered() says which).
 *
 * Process state (threads, their comm and memory maps, kernel maps) is
 * updated from COMM/FORK/EXIT/MMAP/MMAP2 records as they are delivered, so
 * a lookup made while handling an event sees the state just before it.
 */
#ifndef HWPROF_SESSION_H
#define HWPROF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_session;

struct hwprof_event {
	struct hwprof_record rec;
	/* SAMPLE: the parsed sample; other kernel records: the sample_id_all
	 * trailer (sample.sample_type says which fields were found). */
	struct hwprof_sample sample;
	int parse_err;       /* < 0 if the sample or trailer could not be parsed */
};

HWPROF_API int hwprof_session_open(struct hwprof_session **out, const char *path,
				   struct hwprof_error *err);
/* The same over a perf.data image in memory (kept by the caller). */
HWPROF_API int hwprof_session_open_mem(struct hwprof_session **out, const void *buf, size_t len,
				       const char *name, struct hwprof_error *err);
HWPROF_API void hwprof_session_close(struct hwprof_session *s);
HWPROF_API struct hwprof_perfdata *hwprof_session_data(struct hwprof_session *s);

/* Next event in delivery order: 1, 0 at the end, < 0 on an input error
 * (events before the damage have been delivered; queued ones are flushed
 * first, then the error is returned). */
HWPROF_API int hwprof_session_next(struct hwprof_session *s, struct hwprof_event *ev);
/* Applies the event hwprof_session_next() returned last to the threads
 * and maps now instead of at the next call (perf's tools print a COMM or
 * MMAP after processing it, an EXIT before). */
HWPROF_API void hwprof_session_apply(struct hwprof_session *s);
/* With on, a PERF_SAMPLE_READ sample is delivered as perf's report and
 * script see it: once per read value, as a sample of the value's event
 * (sample.evsel, sample.id) with the value's growth since that id's last
 * value as sample.period; values that did not grow or whose id no event
 * has give none (so a record may give no event at all). Off (the default)
 * delivers each record once, as read. Set before the first
 * hwprof_session_next(). */
HWPROF_API void hwprof_session_split_read(struct hwprof_session *s, bool on);
/* The samples perf makes of the READ sample delivered last (either mode):
 * per value that grew, its event, id and growth; none for other events.
 * Valid until the next hwprof_session_next(). */
struct hwprof_read_member {
	const struct hwprof_evsel *evsel;
	uint64_t id, period;
};
HWPROF_API size_t hwprof_session_read_members(const struct hwprof_session *s,
					      const struct hwprof_read_member **m);
/* false when records are delivered unordered (file mode, first event
 * without sample_id_all: perf's "falling back to unordered processing") */
HWPROF_API bool hwprof_session_ordered(const struct hwprof_session *s);

/* ---- what perf counts while reading ------------------------------------- */

/* Record types perf 6.1 keeps counts for (its PERF_RECORD_HEADER_MAX). */
#define HWPROF_SESSION_STAT_TYPES 83

/* The counts perf's session keeps (its struct events_stats), from which it
 * warns about lost or odd input when it is done. Counted as perf does:
 * records by type when read (nr_events[0] is the total, records inside
 * COMPRESSED ones included), the rest when delivered. */
struct hwprof_session_stats {
	uint64_t nr_events[HWPROF_SESSION_STAT_TYPES];
	uint64_t lost_samples;      /* LOST_SAMPLES' counts, summed */
	uint64_t aux_truncated, aux_partial, aux_collision; /* AUX records by flag */
	uint64_t unknown_events;    /* kernel records of a type perf 6.1 does not know */
	uint64_t unknown_id;        /* sample read values with an id no event has */
	uint64_t unordered;         /* records queued older than one already delivered */
	uint64_t auxtrace_errors[2]; /* AUXTRACE_ERRORs of type 0 (unknown) and 1 (instruction trace) */
	uint64_t proc_map_timeout;  /* MMAP2s perf marked PROC_MAP_PARSE_TIMEOUT */
};

/* The counts so far (valid until the session is closed). */
HWPROF_API const struct hwprof_session_stats *hwprof_session_stats(struct hwprof_session *s);
/* perf report's counts per event (its hists stats): the samples perf
 * delivers to the event (a PERF_SAMPLE_READ sample counts once per value
 * perf delivers, see hwprof_session_split_read()) and the lost samples
 * LOST_SAMPLES records give it (by their id, as perf finds it). */
struct hwprof_evsel_stats {
	uint64_t samples, lost_samples;
};
HWPROF_API struct hwprof_evsel_stats hwprof_session_evsel_stats(const struct hwprof_session *s, uint32_t idx);
/* Counts an event a decoder synthesized from AUX data as perf counts the
 * events its decoders deliver: a SAMPLE, or an AUXTRACE_ERROR of
 * error_type (1: instruction trace). */
HWPROF_API void hwprof_session_count_synth(struct hwprof_session *s, uint32_t type, uint32_t error_type);

/* ---- process state ------------------------------------------------------- */

struct hwprof_map_info {
	uint64_t start, end, pgoff;
	const char *dso;     /* the DSO's long name */
	uint32_t prot, flags; /* the mapping's (MMAP2), PROT_EXEC for an MMAP
	                      * of code */
	bool identity;       /* anonymous or DSO-less ([heap], [stack]...):
	                      * perf's map_ip is the identity there */
	uint32_t maj, min;   /* the DSO's device and inode (perf's dso_id), */
	uint64_t ino, ino_generation; /* zero when no record gave them */
};

/* The threads perf's machine knows at this point (those records named
 * and the idle task), in no particular order: fills up to max, returns
 * how many there are. comm is valid until the session changes. */
struct hwprof_thread_info {
	int32_t pid, tid, ppid; /* ppid: the forking thread's tid, -1 if unknown */
	const char *comm;
	uint32_t serial;        /* which of perf's thread objects it is: never
	                         * 0, new once perf replaces the tid's thread
	                         * (a FORK of a tid it knows) */
};
HWPROF_API size_t hwprof_session_threads(const struct hwprof_session *s, struct hwprof_thread_info *out,
					 size_t max);
/* The user-space maps of thread tid's address space in address order
 * (fills up to max, returns how many; 0 for an unknown thread). */
HWPROF_API size_t hwprof_session_thread_maps(struct hwprof_session *s, int32_t tid, struct hwprof_map_info *out,
					     size_t max);

/* A number that changes whenever threads, comms or maps change (records
 * applied, threads created by lookups): lookups made at the same version
 * give the same answers, so callers may cache them. */
HWPROF_API uint64_t hwprof_session_version(const struct hwprof_session *s);
/* Where that number lives (for the session's life), for callers that
 * check it per sample without a call. */
HWPROF_API const uint64_t *hwprof_session_version_ptr(const struct hwprof_session *s);

/* Finds (creating it, like perf) the thread pid/tid and returns its comm
 * (":<tid>" until a COMM record names it). */
HWPROF_API const char *hwprof_session_thread_comm(struct hwprof_session *s, int32_t pid, int32_t tid);
/* Whether thread tid's comm came from a COMM or FORK record (1) or is
 * still the ":tid" stand-in (0); -1 for an unknown thread. */
HWPROF_API int hwprof_session_thread_comm_set(struct hwprof_session *s, int32_t tid);
/* The thread pid/tid, found or made like the comm above, in one lookup:
 * its comm and which of perf's thread objects it is (samples of one tid
 * may carry other pids, an exiting thread's last ones 0 or -1, and still
 * be one thread to perf). Returns 0, or -HWPROF_E_NOMEM. */
HWPROF_API int hwprof_session_thread(struct hwprof_session *s, int32_t pid, int32_t tid,
				     struct hwprof_thread_info *out);
/* pid of thread tid as perf's thread table has it, or -1 when the thread
 * is unknown (does not create it). */
HWPROF_API int32_t hwprof_session_thread_pid(struct hwprof_session *s, int32_t tid);
/* The map holding addr for cpumode (HWPROF_MISC_KERNEL/USER/...) in the
 * thread's address space. Returns 1 and fills *m, or 0 if none; *level
 * gets perf's level letter ('k', '.', 'g', 'u', 'H'). */
HWPROF_API int hwprof_session_find_map(struct hwprof_session *s, int32_t pid, int32_t tid,
				       unsigned cpumode, uint64_t addr, struct hwprof_map_info *m,
				       char *level);
/* Whether an MMAP record gave the host kernel its own map
 * ([kernel.kallsyms]): 1 and *m filled, or 0. Lets a caller skip loading
 * kernel symbols that no address could resolve to (perf loads them only
 * when a lookup lands in that map). */
HWPROF_API int hwprof_session_kernel_map(struct hwprof_session *s, struct hwprof_map_info *m);
/* The kernel map's reference symbol as recorded ("_text" and its address
 * then: the MMAP record "[kernel.kallsyms]_text" and its pgoff): 1 and
 * *name (the session's) and *addr, or 0 when the file has none. */
HWPROF_API int hwprof_session_kernel_reloc(struct hwprof_session *s, const char **name, uint64_t *addr);

#ifdef __cplusplus
}
#endif
#endif
