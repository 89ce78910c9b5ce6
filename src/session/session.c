/* Session: delivers a perf.data's records in perf's processing order (see
 * session.h) and keeps the process state current. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/session.h"
#include "perfdata/perfdata_int.h"
#include "session/machine.h"
#include "session/ordered.h"
#include "session/sample_read.h"
#include "util/bytes.h"

struct hwprof_session {
	struct hwprof_perfdata *data;
	struct ord_queue q;
	struct sess_machine m;
	uint64_t next_flush, max_ts;
	bool draining;            /* delivering queued records up to drain_limit */
	uint64_t drain_limit;
	bool final;               /* the input has ended */
	int err;                  /* input error to report after the final drain */
	bool done;
	struct hwprof_record last; /* delivered last: its state change is applied next call */
	bool have_last;
	bool unordered;           /* perf's fallback without sample_id_all */
	uint64_t last_flush;      /* time of the last queued record delivered */
	struct hwprof_session_stats st; /* see count_read() and count_delivered() */
	struct hwprof_session_stats shown; /* st with the compressed batches added */
	struct sread rd;          /* read values' last values per id */
	bool split_read;          /* deliver a READ sample once per value (perf's report/script) */
	struct hwprof_event split_ev; /* the READ sample being delivered per value */
	int split_n, split_next;  /* its members in rd.out, the next to deliver */
	struct hwprof_evsel_stats *evst; /* per event, by idx (see count_evsel()) */
	uint32_t nr_evst;
};

static int session_new(struct hwprof_session **out, struct hwprof_perfdata *data, struct hwprof_error *err)
{
	struct hwprof_session *s = calloc(1, sizeof(*s));
	if (s) {
		ord_init(&s->q);
		s->data = data;
		/* perf checks its first event once the attrs are read: a pipe
		 * has none yet (and is ordered) */
		const struct hwprof_evsel *first = hwprof_perfdata_evsel(data, 0);
		s->unordered = !hwprof_perfdata_info(data)->pipe && first &&
			       !HWPROF_ATTR_HAS(&first->attr, HWPROF_ATTR_SAMPLE_ID_ALL);
		/* perf registers the idle task up front: pid/tid 0 is "swapper". */
		if (!sess_machine_init(&s->m) && !sess_process_comm(&s->m, 0, 0, "swapper")) {
			*out = s;
			return 0;
		}
		hwprof_session_close(s);
	} else {
		hwprof_perfdata_close(data);
	}
	if (err) {
		memset(err, 0, sizeof(*err));
		err->code = -HWPROF_E_NOMEM;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	return -HWPROF_E_NOMEM;
}

HWPROF_API int hwprof_session_open(struct hwprof_session **out, const char *path, struct hwprof_error *err)
{
	struct hwprof_perfdata *data;
	*out = NULL;
	int rc = hwprof_perfdata_open(&data, path, err);
	return rc ? rc : session_new(out, data, err);
}

HWPROF_API int hwprof_session_open_mem(struct hwprof_session **out, const void *buf, size_t len,
				       const char *name, struct hwprof_error *err)
{
	struct hwprof_perfdata *data;
	*out = NULL;
	int rc = hwprof_perfdata_open_mem(&data, buf, len, name, err);
	return rc ? rc : session_new(out, data, err);
}

HWPROF_API void hwprof_session_close(struct hwprof_session *s)
{
	if (!s)
		return;
	hwprof_perfdata_close(s->data);
	ord_fini(&s->q);
	sess_machine_fini(&s->m);
	sread_fini(&s->rd);
	free(s->evst);
	free(s);
}

HWPROF_API struct hwprof_perfdata *hwprof_session_data(struct hwprof_session *s)
{
	return s->data;
}

static bool in_map(const struct hwprof_perfdata *h, const struct hwprof_record *r)
{
	return pdata_record_in_map(h, r);
}

/* The timestamp perf orders a kernel record by: the sample's or trailer's
 * time, or none (-1). */
static uint64_t record_time(struct hwprof_session *s, const struct hwprof_record *rec)
{
	struct hwprof_sample smp;
	if (rec->type == HWPROF_RECORD_SAMPLE) {
		const struct hwprof_evsel *ev = hwprof_perfdata_record_evsel(s->data, rec);
		if (!ev || !(ev->attr.sample_type & HWPROF_SAMPLE_TIME))
			return (uint64_t)-1;
		/* TIME sits after IDENTIFIER, IP and TID */
		uint64_t st = ev->attr.sample_type;
		uint32_t at = 8 + 8u * (!!(st & HWPROF_SAMPLE_IDENTIFIER) + !!(st & HWPROF_SAMPLE_IP) +
					!!(st & HWPROF_SAMPLE_TID));
		return at + 8 <= rec->size ? ld64(rec->data + at) : (uint64_t)-1;
	}
	struct hwprof_error saved = s->data->err;
	int rc = hwprof_sample_id_parse(s->data, rec, &smp);
	s->data->err = saved; /* a bad trailer is reported at delivery */
	if (rc <= 0 || !(smp.sample_type & HWPROF_SAMPLE_TIME))
		return (uint64_t)-1;
	return smp.time;
}

/* Apply what a delivered record changes in the process state. */
static void apply(struct hwprof_session *s, const struct hwprof_record *r)
{
	const uint8_t *d = r->data;
	unsigned cpumode = r->misc & HWPROF_MISC_CPUMODE_MASK;
	if (r->type == HWPROF_RECORD_COMM || r->type == HWPROF_RECORD_FORK || r->type == HWPROF_RECORD_MMAP ||
	    r->type == HWPROF_RECORD_MMAP2 || r->type == HWPROF_RECORD_KSYMBOL)
		s->m.version++;
	switch (r->type) {
	case HWPROF_RECORD_COMM:
		if (r->size >= 16) {
			size_t n = strnlen((const char *)d + 16, r->size - 16u);
			char comm[256];
			if (n >= sizeof(comm))
				n = sizeof(comm) - 1;
			memcpy(comm, d + 16, n);
			comm[n] = 0;
			sess_process_comm(&s->m, (int32_t)ld32(d + 8), (int32_t)ld32(d + 12), comm);
		}
		break;
	case HWPROF_RECORD_FORK:
		/* perf marks the FORKs it synthesizes PERF_RECORD_MISC_FORK_EXEC */
		if (r->size >= 24)
			sess_process_fork(&s->m, (int32_t)ld32(d + 8), (int32_t)ld32(d + 16),
					  (int32_t)ld32(d + 12), (int32_t)ld32(d + 20), !(r->misc & (1u << 13)));
		break;
	case HWPROF_RECORD_MMAP:
	case HWPROF_RECORD_MMAP2: {
		uint32_t name_at = r->type == HWPROF_RECORD_MMAP ? 40 : 72;
		if (r->size <= name_at)
			break;
		size_t n = strnlen((const char *)d + name_at, r->size - name_at);
		char name[4096];
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, d + name_at, n);
		name[n] = 0;
		uint32_t prot, flags = 0;
		struct sess_dso_id id = { 0 };
		if (r->type == HWPROF_RECORD_MMAP2) {
			prot = ld32(d + 64);
			flags = ld32(d + 68);
			/* perf 6.1 reads the ids even where a build id is */
			id = (struct sess_dso_id){ ld32(d + 40), ld32(d + 44), ld64(d + 48), ld64(d + 56) };
		} else {
			/* perf: no protection for a data map */
			prot = (r->misc & HWPROF_MISC_MMAP_DATA) ? 0 : 4 /* PROT_EXEC */;
		}
		sess_process_mmap(&s->m, cpumode, (int32_t)ld32(d + 8), (int32_t)ld32(d + 12), ld64(d + 16),
				  ld64(d + 24), ld64(d + 32), prot, flags, &id, name);
		break;
	}
	case HWPROF_RECORD_KSYMBOL:
		if (r->size > 24) {
			size_t n = strnlen((const char *)d + 24, r->size - 24u);
			char name[512];
			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, d + 24, n);
			name[n] = 0;
			sess_process_ksymbol(&s->m, ld64(d + 8), ld32(d + 16), ld16(d + 22), name);
		}
		break;
	default:
		break;
	}
}

/* perf's events_stats__inc() for a record read (types past its table fail
 * to process in perf and are not counted) */
static void count_read(struct hwprof_session_stats *st, uint32_t type)
{
	if (type >= HWPROF_SESSION_STAT_TYPES)
		return;
	st->nr_events[0]++;
	st->nr_events[type]++;
}

/* A READ sample's values (perf's deliver_sample_value()): unknown ids
 * counted, each id's last value kept; with split_read the values that grew
 * become the samples to deliver. */
static int split_read(struct hwprof_session *s, const struct hwprof_sample *smp)
{
	if (!smp->evsel || !(smp->sample_type & HWPROF_SAMPLE_READ))
		return 0;
	return sread_split(&s->rd, s->data, smp, &s->st.unknown_id);
}

/* What perf's machines__deliver_event() and user-record processing count. */
static void count_delivered(struct hwprof_session *s, const struct hwprof_event *ev)
{
	const struct hwprof_record *r = &ev->rec;
	struct hwprof_session_stats *st = &s->st;
	switch (r->type) {
	case HWPROF_RECORD_SAMPLE: /* see split_read() */
		break;
	case HWPROF_RECORD_MMAP2:
		st->proc_map_timeout += !!(r->misc & HWPROF_MISC_PROC_MAP_PARSE_TIMEOUT);
		break;
	case HWPROF_RECORD_LOST_SAMPLES:
		/* perf 6.1 also counts the ones newer perf marks lost by BPF */
		if (r->size >= 16)
			st->lost_samples += ld64(r->data + 8);
		break;
	case HWPROF_RECORD_AUX:
		if (r->size >= 32) {
			uint64_t flags = ld64(r->data + 24);
			st->aux_truncated += !!(flags & 1);
			st->aux_partial += !!(flags & 4);
			st->aux_collision += !!(flags & 8);
		}
		break;
	case HWPROF_RECORD_AUXTRACE_ERROR:
		if (r->size >= 12 && ld32(r->data + 8) < 2)
			st->auxtrace_errors[ld32(r->data + 8)]++;
		break;
	default:
		/* kernel types after AUX_OUTPUT_HW_ID are newer than perf 6.1 */
		if (r->type < HWPROF_RECORD_USER_TYPE_START && (r->type == 0 || r->type > 21))
			st->unknown_events++;
		break;
	}
}

/* The counts of event e, grown to hold it (NULL without memory). */
static struct hwprof_evsel_stats *evst_of(struct hwprof_session *s, const struct hwprof_evsel *e)
{
	if (e->idx >= s->nr_evst) {
		uint32_t n = e->idx + 8;
		struct hwprof_evsel_stats *v = realloc(s->evst, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + s->nr_evst, 0, (n - s->nr_evst) * sizeof(*v));
		s->evst = v;
		s->nr_evst = n;
	}
	return &s->evst[e->idx];
}

/* The event perf's evlist__id2evsel() names for a record's trailer id:
 * the only or first one for id 0 or files without sample_id_all, none for
 * other unknown ids. */
static const struct hwprof_evsel *id2evsel(const struct hwprof_session *s, const struct hwprof_sample *smp)
{
	const struct hwprof_evsel *first = hwprof_perfdata_evsel(s->data, 0);
	if (!first || hwprof_perfdata_nr_evsels(s->data) == 1 || smp->id == 0)
		return first;
	const struct hwprof_evsel *e = hwprof_perfdata_evsel_by_id(s->data, smp->id);
	if (e || HWPROF_ATTR_HAS(&first->attr, HWPROF_ATTR_SAMPLE_ID_ALL))
		return e;
	return first;
}

/* perf report's per-event counts: the samples it delivers (n READ
 * members, else the sample's event) and LOST_SAMPLES' counts. */
static int count_evsel(struct hwprof_session *s, const struct hwprof_event *ev, int n)
{
	struct hwprof_evsel_stats *es;
	if (ev->rec.type == HWPROF_RECORD_LOST_SAMPLES) {
		const struct hwprof_evsel *e = id2evsel(s, &ev->sample);
		if (!e || ev->rec.size < 16)
			return 0;
		if (!(es = evst_of(s, e)))
			return -HWPROF_E_NOMEM;
		es->lost_samples += (uint32_t)ld64(ev->rec.data + 8); /* perf adds it as a u32 */
		return 0;
	}
	if (ev->rec.type != HWPROF_RECORD_SAMPLE || ev->parse_err < 0 || !ev->sample.evsel)
		return 0;
	if (!(ev->sample.sample_type & HWPROF_SAMPLE_READ)) {
		if (!(es = evst_of(s, ev->sample.evsel)))
			return -HWPROF_E_NOMEM;
		es->samples++;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (!(es = evst_of(s, s->rd.out[i].evsel)))
			return -HWPROF_E_NOMEM;
		es->samples++;
	}
	return 0;
}

/* The next value's sample of a split READ sample: 1, or 0 when none is left. */
static int next_member(struct hwprof_session *s, struct hwprof_event *ev)
{
	if (s->split_next >= s->split_n)
		return 0;
	const struct hwprof_read_member *m = &s->rd.out[s->split_next++];
	*ev = s->split_ev;
	ev->sample.evsel = m->evsel;
	ev->sample.id = m->id;
	ev->sample.period = m->period;
	return 1;
}

static int deliver(struct hwprof_session *s, const struct hwprof_record *rec, struct hwprof_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->rec = *rec;
	struct hwprof_error saved = s->data->err;
	s->split_n = s->split_next = 0;
	if (rec->type == HWPROF_RECORD_SAMPLE)
		ev->parse_err = hwprof_sample_parse(s->data, rec, &ev->sample);
	else if (rec->type < HWPROF_RECORD_USER_TYPE_START)
		ev->parse_err = hwprof_sample_id_parse(s->data, rec, &ev->sample) < 0 ? -HWPROF_E_CORRUPT : 0;
	else {
		ev->sample.time = 0;
		ev->sample.cpu = 0;
	}
	if (ev->parse_err >= 0)
		s->data->err = saved;
	else
		ev->parse_err = s->data->err.code;
	count_delivered(s, ev);
	s->last = *rec;
	s->have_last = true;
	bool read = rec->type == HWPROF_RECORD_SAMPLE && ev->parse_err >= 0 &&
		    (ev->sample.sample_type & HWPROF_SAMPLE_READ);
	int n = read ? split_read(s, &ev->sample) : 0;
	if (n >= 0 && count_evsel(s, ev, n) < 0)
		n = -HWPROF_E_NOMEM;
	if (n < 0) {
		s->err = pdata_error(s->data, HWPROF_E_NOMEM, pdata_rec_off(s->data, rec->offset),
				     "out of memory keeping read values");
		s->done = true;
		return s->err;
	}
	if (!read)
		return 1;
	s->split_n = n;
	if (!s->split_read) {
		s->split_next = n; /* nothing pending */
		return 1;
	}
	s->split_ev = *ev;
	return next_member(s, ev);
}

HWPROF_API void hwprof_session_apply(struct hwprof_session *s)
{
	if (s->have_last) {
		apply(s, &s->last);
		s->have_last = false;
	}
}

HWPROF_API int hwprof_session_next(struct hwprof_session *s, struct hwprof_event *ev)
{
	if (s->have_last) {
		apply(s, &s->last);
		s->have_last = false;
	}
	if (next_member(s, ev))
		return 1;
	for (;;) {
		if (s->done)
			return s->err;
		if (s->draining) {
			struct ord_entry e;
			if (ord_pop(&s->q, s->drain_limit, &e)) {
				s->last_flush = e.time;
				int d = deliver(s, &e.rec, ev);
				if (d)
					return d;
				continue; /* a READ sample with nothing to deliver */
			}
			s->draining = false;
			if (s->final) {
				s->done = true;
				return s->err;
			}
			continue;
		}
		struct hwprof_record rec;
		int rc = hwprof_perfdata_next(s->data, &rec);
		if (rc <= 0) {
			s->err = rc;
			s->final = true;
			s->draining = true;
			s->drain_limit = UINT64_MAX;
			continue;
		}
		count_read(&s->st, rec.type);
		if (rec.type >= HWPROF_RECORD_USER_TYPE_START) {
			if (rec.type == HWPROF_RECORD_FINISHED_ROUND) {
				/* Deliver the round marker, then everything up to the
				 * newest time of the previous round. */
				s->draining = true;
				s->drain_limit = s->next_flush;
				s->next_flush = s->max_ts;
			}
			return deliver(s, &rec, ev);
		}
		uint64_t t = s->unordered ? (uint64_t)-1 : record_time(s, &rec);
		if (t == 0 || t == (uint64_t)-1) {
			int d = deliver(s, &rec, ev);
			if (d)
				return d;
			continue;
		}
		if (t > s->max_ts)
			s->max_ts = t;
		/* perf's ordered_events__queue(): older than a delivered one */
		s->st.unordered += t < s->last_flush;
		rc = ord_push(&s->q, &rec, t, !in_map(s->data, &rec));
		if (rc) {
			s->err = pdata_error(s->data, HWPROF_E_NOMEM, pdata_rec_off(s->data, rec.offset), "out of memory queueing records");
			s->final = true;
			s->draining = true;
			s->drain_limit = UINT64_MAX;
		}
	}
}

HWPROF_API const struct hwprof_session_stats *hwprof_session_stats(struct hwprof_session *s)
{
	/* the reader unpacks COMPRESSED records in place; perf counts each */
	uint64_t nz = hwprof_perfdata_info(s->data)->nr_compressed;
	s->shown = s->st;
	s->shown.nr_events[HWPROF_RECORD_COMPRESSED] += nz;
	s->shown.nr_events[0] += nz;
	return &s->shown;
}

HWPROF_API struct hwprof_evsel_stats hwprof_session_evsel_stats(const struct hwprof_session *s, uint32_t idx)
{
	struct hwprof_evsel_stats z = { 0, 0 };
	return idx < s->nr_evst ? s->evst[idx] : z;
}

HWPROF_API void hwprof_session_count_synth(struct hwprof_session *s, uint32_t type, uint32_t error_type)
{
	count_read(&s->st, type);
	if (type == HWPROF_RECORD_AUXTRACE_ERROR && error_type < 2)
		s->st.auxtrace_errors[error_type]++;
}

HWPROF_API void hwprof_session_split_read(struct hwprof_session *s, bool on)
{
	s->split_read = on;
}

HWPROF_API size_t hwprof_session_read_members(const struct hwprof_session *s, const struct hwprof_read_member **m)
{
	*m = s->rd.out;
	return (size_t)s->split_n;
}

HWPROF_API bool hwprof_session_ordered(const struct hwprof_session *s)
{
	return !s->unordered;
}

HWPROF_API const char *hwprof_session_thread_comm(struct hwprof_session *s, int32_t pid, int32_t tid)
{
	struct sess_thread *t = sess_findnew_thread(&s->m, pid, tid);
	return t ? sess_thread_comm(t) : NULL;
}

HWPROF_API int hwprof_session_thread(struct hwprof_session *s, int32_t pid, int32_t tid,
				     struct hwprof_thread_info *out)
{
	struct sess_thread *t = sess_findnew_thread(&s->m, pid, tid);
	if (!t)
		return -HWPROF_E_NOMEM;
	*out = (struct hwprof_thread_info){ t->pid, t->tid, t->ppid, sess_thread_comm(t), t->serial };
	return 0;
}

HWPROF_API uint64_t hwprof_session_version(const struct hwprof_session *s)
{
	return s->m.version;
}

HWPROF_API const uint64_t *hwprof_session_version_ptr(const struct hwprof_session *s)
{
	return &s->m.version;
}

HWPROF_API int hwprof_session_thread_comm_set(struct hwprof_session *s, int32_t tid)
{
	struct sess_thread *t = sess_find_thread(&s->m, tid);
	return t ? t->comm_set : -1;
}

HWPROF_API int32_t hwprof_session_thread_pid(struct hwprof_session *s, int32_t tid)
{
	struct sess_thread *t = sess_find_thread(&s->m, tid);
	return t ? t->pid : -1;
}

/* 1 with mp's extent and DSO in mi, 0 without a map */
static int map_info(const struct sess_map *mp, struct hwprof_map_info *mi)
{
	if (!mp)
		return 0;
	mi->start = mp->start;
	mi->end = mp->end;
	mi->pgoff = mp->pgoff;
	mi->dso = mp->dso;
	mi->prot = mp->prot;
	mi->flags = mp->flags;
	mi->identity = mp->identity;
	mi->maj = mp->id.maj;
	mi->min = mp->id.min;
	mi->ino = mp->id.ino;
	mi->ino_generation = mp->id.ino_generation;
	return 1;
}

HWPROF_API size_t hwprof_session_threads(const struct hwprof_session *s, struct hwprof_thread_info *out, size_t max)
{
	size_t n = 0;
	for (size_t b = 0; b < s->m.nbuckets; b++)
		for (const struct sess_thread *t = s->m.buckets[b]; t; t = t->next, n++)
			if (n < max)
				out[n] = (struct hwprof_thread_info){ t->pid, t->tid, t->ppid, sess_thread_comm(t),
								      t->serial };
	return n;
}

HWPROF_API size_t hwprof_session_thread_maps(struct hwprof_session *s, int32_t tid, struct hwprof_map_info *out,
					     size_t max)
{
	const struct sess_thread *t = sess_find_thread(&s->m, tid);
	if (!t || !t->maps)
		return 0;
	for (size_t i = 0; i < t->maps->n && i < max; i++)
		map_info(&t->maps->v[i], &out[i]);
	return t->maps->n;
}

HWPROF_API int hwprof_session_find_map(struct hwprof_session *s, int32_t pid, int32_t tid, unsigned cpumode,
				       uint64_t addr, struct hwprof_map_info *mi, char *level)
{
	struct sess_thread *t = sess_findnew_thread(&s->m, pid, tid);
	return map_info(sess_find_map(&s->m, t, cpumode, addr, level), mi);
}

HWPROF_API int hwprof_session_kernel_map(struct hwprof_session *s, struct hwprof_map_info *mi)
{
	return map_info(sess_kernel_map(&s->m), mi);
}

HWPROF_API int hwprof_session_kernel_reloc(struct hwprof_session *s, const char **name, uint64_t *addr)
{
	if (!s->m.kref_set)
		return 0;
	*name = s->m.kref_name;
	*addr = s->m.kref_addr;
	return 1;
}
