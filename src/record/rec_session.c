/* The recording session: events opened per cpu x thread (perf's layout),
 * one ring per cpu (per thread when cpu is -1) shared through
 * PERF_EVENT_IOC_SET_OUTPUT, the poll/drain loop with a FINISHED_ROUND
 * after every pass that wrote data, AUX areas copied out as AUXTRACE
 * records, and the end: disable, last drain, LOST_SAMPLES, features. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <dirent.h>
#include <ctype.h>
#include <fcntl.h>
#include <unistd.h>

#include "record/rec_int.h"
#include "util/bytes.h"

#define PERF_FLAG_FD_CLOEXEC 8UL

int rec_set_error(struct hwprof_error *err, int code, const char *fmt, ...)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->code = -code;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

static int errno_code(int e)
{
	switch (e) {
	case EACCES: case EPERM: return HWPROF_E_PERM;
	case EOPNOTSUPP: case ENOENT: case ENODEV: return HWPROF_E_OPNOTSUPP;
	case E2BIG: return HWPROF_E_2BIG;
	case ENOMEM: return HWPROF_E_NOMEM;
	case EINVAL: return HWPROF_E_INVAL;
	default: return HWPROF_E_IO;
	}
}

/* Sample time: its offset in a SAMPLE record (0 = none). */
static size_t time_offset(const struct hwprof_attr *a)
{
	uint64_t st = a->sample_type;
	if (!(st & HWPROF_SAMPLE_TIME))
		return 0;
	return 8 + 8 * !!(st & HWPROF_SAMPLE_IDENTIFIER) + 8 * !!(st & HWPROF_SAMPLE_IP) +
	       8 * !!(st & HWPROF_SAMPLE_TID);
}

static void note_dso(struct hwprof_recorder *r, const char *name)
{
	if (name[0] != '/' || r->nr_hit >= 4096)
		return;
	for (size_t i = 0; i < r->nr_hit; i++)
		if (!strcmp(r->hit_dsos[i], name))
			return;
	if (r->nr_hit == r->cap_hit) {
		size_t c = r->cap_hit ? r->cap_hit * 2 : 32;
		char **t = realloc(r->hit_dsos, c * sizeof(*t));
		if (!t)
			return;
		r->hit_dsos = t;
		r->cap_hit = c;
	}
	char *s = strdup(name);
	if (s)
		r->hit_dsos[r->nr_hit++] = s;
}

void rec_note_record(struct hwprof_recorder *r, const uint8_t *rec, size_t size)
{
	uint32_t type = ld32(rec);
	uint16_t misc = ld16(rec + 4);
	switch (type) {
	case HWPROF_RECORD_SAMPLE: {
		r->st.samples++;
		size_t to = time_offset(&r->ev[0].attr);
		if (to && to + 8 <= size) {
			uint64_t t = ld64(rec + to);
			if (!r->first_time || t < r->first_time)
				r->first_time = t;
			if (t > r->last_time)
				r->last_time = t;
		}
		break;
	}
	case HWPROF_RECORD_LOST:
		r->st.lost_chunks++;
		if (size >= 24)
			r->st.lost += ld64(rec + 16);
		break;
	case HWPROF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			r->st.lost_samples += ld64(rec + 8);
		break;
	case HWPROF_RECORD_AUX:
		/* u64 aux_offset, aux_size, flags */
		r->st.aux_records++;
		if (size >= 32) {
			uint64_t f = ld64(rec + 24);
			r->st.aux_truncated += !!(f & 1);
			r->st.aux_partial += !!(f & 4);
			r->st.aux_collision += !!(f & 8);
		}
		break;
	case HWPROF_RECORD_MMAP2:
	case HWPROF_RECORD_MMAP: {
		size_t at = type == HWPROF_RECORD_MMAP ? 40 : 72;
		if (misc & HWPROF_MISC_MMAP_DATA || at >= size)
			break;
		char name[4096];
		size_t n = size - at < sizeof(name) - 1 ? size - at : sizeof(name) - 1;
		memcpy(name, rec + at, n);
		name[n] = 0;
		note_dso(r, name);
		break;
	}
	default:
		break;
	}
}

/* ---- configuration --------------------------------------------------------- */

static void set_flag(struct hwprof_attr *a, unsigned bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

HWPROF_API void hwprof_record_config(struct hwprof_record_event *ev, uint32_t n, const struct hwprof_record_opts *o)
{
	/* enable_on_exec only when the workload is the target (perf's
	 * target__none): with -p/-t as well it runs but is not the target */
	bool workload = o->argv && o->argv[0] && o->pid <= 0 && o->tid <= 0;
	bool cpu_wide = o->system_wide || o->cpus;
	bool same = true;
	uint32_t tracker = 0; /* perf's tracking evsel: a dummy for AUX tracing, else the first */
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].tracking)
			tracker = i;
	for (uint32_t i = 0; i < n; i++) {
		struct hwprof_attr *a = &ev[i].attr;
		if (!a->size)
			a->size = HWPROF_ATTR_SIZE_VER7;
		/* events from hwprof_evlist_config hold the option defaults
		 * already (time=0, no-inherit, group reads included) */
		if (!ev[i].configured) {
			a->sample_type |= HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME;
			if (HWPROF_ATTR_HAS(a, HWPROF_ATTR_FREQ))
				a->sample_type |= HWPROF_SAMPLE_PERIOD;
			set_flag(a, HWPROF_ATTR_INHERIT, !o->no_inherit);
		}
		if (cpu_wide)
			a->sample_type |= HWPROF_SAMPLE_CPU;
		if (o->pipe)
			a->sample_type |= HWPROF_SAMPLE_ID;
		a->read_format |= HWPROF_FORMAT_ID | HWPROF_FORMAT_LOST;
		set_flag(a, HWPROF_ATTR_DISABLED, true);
		/* enable_on_exec only works for events on the task itself; a
		 * delay enables the events later, by ioctl */
		set_flag(a, HWPROF_ATTR_ENABLE_ON_EXEC, workload && !cpu_wide && !o->delay_ms);
		if (i == tracker && rec_is_dummy(a)) {
			/* the sideband dummy: at once for CPU targets (it covers
			 * the delay and the synthesis), on exec otherwise */
			set_flag(a, HWPROF_ATTR_DISABLED, !cpu_wide);
			set_flag(a, HWPROF_ATTR_ENABLE_ON_EXEC, workload && !cpu_wide);
		}
		set_flag(a, HWPROF_ATTR_SAMPLE_ID_ALL, true);
		static const unsigned track[] = { HWPROF_ATTR_MMAP, HWPROF_ATTR_COMM, HWPROF_ATTR_TASK,
						  HWPROF_ATTR_MMAP2, HWPROF_ATTR_COMM_EXEC, HWPROF_ATTR_KSYMBOL,
						  HWPROF_ATTR_BPF_EVENT };
		for (size_t k = 0; k < sizeof(track) / sizeof(track[0]); k++)
			set_flag(a, track[k], i == tracker);
		if (i && a->sample_type != ev[0].attr.sample_type)
			same = false;
	}
	/* group members are enabled by their leader */
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].leader >= 0 && (uint32_t)ev[i].leader != i) {
			set_flag(&ev[i].attr, HWPROF_ATTR_DISABLED, false);
			set_flag(&ev[i].attr, HWPROF_ATTR_ENABLE_ON_EXEC, false);
		}
	if (n > 1)
		for (uint32_t i = 0; i < n; i++)
			ev[i].attr.sample_type |= same ? HWPROF_SAMPLE_ID : HWPROF_SAMPLE_IDENTIFIER;
}

/* ---- opening ----------------------------------------------------------------- */

static int add_int(int **v, int *n, int x)
{
	int *t = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	if (!t)
		return -HWPROF_E_NOMEM;
	*v = t;
	t[(*n)++] = x;
	return 0;
}

static int process_threads(struct hwprof_recorder *r, int pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return -HWPROF_E_NOENT;
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			rc = add_int(&r->threads, &r->nr_threads, atoi(de->d_name));
	closedir(d);
	return rc ? rc : r->nr_threads ? 0 : -HWPROF_E_NOENT;
}

static long page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? p : 4096;
}

/* 1 if every byte of a's encoding from offset `from` to its size is zero. */
static int attr_zero_from(const struct hwprof_attr *a, uint32_t from)
{
	uint8_t b[512];
	if (a->size > sizeof(b))
		return 0;
	hwprof_attr_encode(a, b);
	for (uint32_t i = from; i < a->size; i++)
		if (b[i])
			return 0;
	return 1;
}

static int open_one(struct hwprof_recorder *r, uint32_t e, int cpu, int tid, int group_fd, struct rec_fd *f,
		    struct hwprof_record_fail *fail)
{
	struct hwprof_attr a = r->ev[e].attr;
	uint32_t ksize = 0;
	int fd = r->sys.perf_event_open(&a, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd == -E2BIG && a.size && a.size < r->ev[e].attr.size) {
		/* An older kernel: its attr is smaller. Only a tail of zeros may be
		 * cut off; a set field past its size (SIMD registers, config3)
		 * would silently change what is recorded, so that stays E2BIG. */
		ksize = a.size;
		a = r->ev[e].attr;
		if (attr_zero_from(&a, ksize)) {
			a.size = ksize;
			fd = r->sys.perf_event_open(&a, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
		}
	}
	if (fd < 0) {
		if (fail) {
			fail->event = (int)e;
			fail->sys_errno = -fd;
			fail->cpu = cpu;
			fail->pid = tid;
			fail->kernel_attr_size = fd == -E2BIG ? ksize : 0;
		}
		return fd;
	}
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->ev = e;
	f->cpu = cpu;
	f->tid = tid;
	f->ring = -1;
	uint64_t id = 0;
	if (r->sys.ioctl(fd, REC_IOC_ID, (unsigned long)(uintptr_t)&id) < 0) {
		/* older kernels: the id comes with read() (read_format ID) */
		uint64_t v[8] = { 0 };
		const struct hwprof_attr *ra = &r->ev[e].attr;
		unsigned k = 1 + !!(ra->read_format & HWPROF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(ra->read_format & HWPROF_FORMAT_TOTAL_TIME_RUNNING);
		if (r->sys.read(fd, v, sizeof(v)) >= (long)(8 * (k + 1)))
			id = v[k];
	}
	f->id = id;
	return 0;
}

static int map_ring(struct hwprof_recorder *r, struct rec_fd *f, struct hwprof_error *err)
{
	long pg = page_size();
	uint32_t pages = r->o.mmap_pages ? r->o.mmap_pages : 128;
	if (pages & (pages - 1))
		return rec_set_error(err, HWPROF_E_INVAL, "--mmap_pages/-m: %u is not a power of 2", pages);
	struct rec_ring *t = realloc(r->rings, (r->nr_rings + 1) * sizeof(*t));
	if (!t)
		return rec_set_error(err, HWPROF_E_NOMEM, "out of memory");
	r->rings = t;
	struct rec_ring *rg = &r->rings[r->nr_rings];
	memset(rg, 0, sizeof(*rg));
	rg->len = (size_t)(pages + 1) * (size_t)pg;
	void *p = NULL;
	int rc = r->sys.mmap(f->fd, rg->len, PROT_READ | PROT_WRITE, 0, &p);
	if (rc < 0)
		return rec_set_error(err, errno_code(-rc),
				     "failed to mmap with %d (%s)", -rc, strerror(-rc));
	rg->base = p;
	uint64_t doff = ld64(rg->base + REC_PG_DATA_OFFSET), dsize = ld64(rg->base + REC_PG_DATA_SIZE);
	if (!doff || !dsize || doff + dsize > rg->len) {
		doff = (uint64_t)pg; /* kernels before 4.1 leave these 0 */
		dsize = (uint64_t)pages * (uint64_t)pg;
	}
	rg->data = rg->base + doff;
	rg->size = dsize;
	rg->fd = f->fd;
	rg->cpu = f->cpu;
	rg->tid = f->tid;
	rg->idx = (uint32_t)r->nr_rings;
	if (r->ev[f->ev].aux) {
		uint32_t ap = r->o.aux_pages ? r->o.aux_pages : 1024;
		if (ap & (ap - 1))
			return rec_set_error(err, HWPROF_E_INVAL, "AUX pages: %u is not a power of 2", ap);
		rg->aux_len = (size_t)ap * (size_t)pg;
		uint64_t aoff = rg->len;
		st64(rg->base + REC_PG_AUX_OFFSET, aoff);
		st64(rg->base + REC_PG_AUX_SIZE, rg->aux_len);
		/* read-only AUX = overwrite mode, for snapshots */
		int prot = r->o.snapshot ? PROT_READ : PROT_READ | PROT_WRITE;
		rc = r->sys.mmap(f->fd, rg->aux_len, prot, aoff, &p);
		if (rc < 0) {
			r->nr_rings++;
			return rec_set_error(err, errno_code(-rc), "failed to mmap AUX area with %d (%s)", -rc,
					     strerror(-rc));
		}
		rg->aux = p;
	}
	f->ring = (int)r->nr_rings++;
	return 0;
}

static int open_events(struct hwprof_recorder *r, struct hwprof_error *err, struct hwprof_record_fail *fail)
{
	size_t max = (size_t)r->nr_cpus * (size_t)r->nr_threads * r->o.nr_events;
	r->fds = calloc(max ? max : 1, sizeof(*r->fds));
	if (!r->fds)
		return rec_set_error(err, HWPROF_E_NOMEM, "out of memory");
	/* events outermost, like perf's ids; groups resolved per cpu x thread */
	for (uint32_t e = 0; e < r->o.nr_events; e++)
		for (int c = 0; c < r->nr_cpus; c++)
			for (int t = 0; t < r->nr_threads; t++) {
				int group_fd = -1, lead = r->ev[e].leader;
				if (lead >= 0 && (uint32_t)lead != e) {
					if ((uint32_t)lead > e)
						return rec_set_error(err, HWPROF_E_INVAL,
								     "group leader must come before its members");
					group_fd = r->fds[((size_t)lead * (size_t)r->nr_cpus + (size_t)c) *
								  (size_t)r->nr_threads + (size_t)t].fd;
				}
				int rc = open_one(r, e, r->cpus[c], r->threads[t], group_fd, &r->fds[r->nr_fds], fail);
				if (rc < 0) {
					const char *name = r->ev[e].name ? r->ev[e].name : "event";
					return rec_set_error(err, errno_code(-rc),
							     "The sys_perf_event_open() syscall returned with %d (%s) for event (%s).",
							     -rc, strerror(-rc), name);
				}
				r->nr_fds++;
				const char *flt = r->ev[e].filter;
				if (flt && *flt &&
				    (rc = r->sys.ioctl(r->fds[r->nr_fds - 1].fd, REC_IOC_SET_FILTER,
						       (unsigned long)(uintptr_t)flt)) < 0)
					return rec_set_error(err, errno_code(-rc),
							     "failed to set filter \"%s\" on event %s with %d (%s)", flt,
							     r->ev[e].name ? r->ev[e].name : "event", -rc, strerror(-rc));
			}
	/* rings: per cpu (all threads share it), or per thread on cpu -1; the
	 * AUX event (if any) owns the ring so its AUX area can be mapped */
	size_t per_ev = (size_t)r->nr_cpus * (size_t)r->nr_threads;
	for (int c = 0; c < r->nr_cpus; c++)
		for (int t = 0; t < r->nr_threads; t++) {
			int owner_ring = -1;
			if (r->cpus[c] >= 0)
				for (size_t i = 0; i < r->nr_fds; i++)
					if (r->fds[i].ring >= 0 && r->fds[i].cpu == r->cpus[c])
						owner_ring = r->fds[i].ring;
			for (int pass = 0; pass < 2; pass++)
				for (uint32_t e = 0; e < r->o.nr_events; e++) {
					if (r->ev[e].aux != (pass == 0))
						continue;
					struct rec_fd *f = &r->fds[e * per_ev + (size_t)c * (size_t)r->nr_threads + (size_t)t];
					int rc;
					if (owner_ring < 0) {
						rc = map_ring(r, f, err);
						if (rc)
							return rc;
						owner_ring = f->ring;
						continue;
					}
					rc = r->sys.ioctl(f->fd, REC_IOC_SET_OUTPUT, (unsigned long)r->rings[owner_ring].fd);
					if (rc < 0)
						return rec_set_error(err, errno_code(-rc),
								     "PERF_EVENT_IOC_SET_OUTPUT failed: %s", strerror(-rc));
					f->ring = owner_ring;
				}
		}
	return 0;
}

static int setup_targets(struct hwprof_recorder *r, struct hwprof_error *err)
{
	int rc;
	if (r->o.cpus) {
		if (rec_cpus_parse(r->o.cpus, &r->cpus, &r->nr_cpus))
			return rec_set_error(err, HWPROF_E_INVAL, "bad CPU list: %s", r->o.cpus);
	} else if (rec_cpus_online(&r->cpus, &r->nr_cpus)) {
		return rec_set_error(err, HWPROF_E_IO, "cannot read the online CPUs");
	}
	bool workload = r->o.argv && r->o.argv[0];
	if (workload && (rc = rec_workload_fork(r, err)))
		return rc;
	/* -p/-t, then -a/-C name the target even when a command runs too
	 * (as in perf: the command is then only what runs meanwhile) */
	if (r->o.pid > 0) {
		rc = process_threads(r, r->o.pid);
		if (rc)
			return rec_set_error(err, HWPROF_E_NOENT, "Couldn't find process %d", r->o.pid);
	} else if (r->o.tid > 0) {
		rc = add_int(&r->threads, &r->nr_threads, r->o.tid);
	} else if (r->o.system_wide || r->o.cpus || !workload) {
		rc = add_int(&r->threads, &r->nr_threads, -1); /* system-wide or -C */
	} else {
		rc = add_int(&r->threads, &r->nr_threads, r->child);
	}
	return rc ? rec_set_error(err, HWPROF_E_NOMEM, "out of memory") : 0;
}

static int aux_info(struct hwprof_recorder *r)
{
	if (!r->o.aux_ops || !r->o.aux_ops->info)
		return 0;
	for (uint32_t e = 0; e < r->o.nr_events; e++) {
		if (!r->ev[e].aux)
			continue;
		uint8_t *b = r->tmp;
		int n = r->o.aux_ops->info(r->o.aux_ops->ctx, &r->ev[e], b + 8, sizeof(r->tmp) - 8);
		if (n < 8 || n > 65535 - 8)
			return -HWPROF_E_INVAL;
		size_t size = (8 + (size_t)n + 7) & ~(size_t)7;
		memset(b + 8 + n, 0, size - 8 - (size_t)n);
		st32(b, HWPROF_RECORD_AUXTRACE_INFO);
		st16(b + 4, 0);
		st16(b + 6, (uint16_t)size);
		return rec_write(r, b, (int)size);
	}
	return 0;
}

HWPROF_API int hwprof_record_open(struct hwprof_recorder **out, const struct hwprof_record_opts *o,
				  struct hwprof_error *err, struct hwprof_record_fail *fail)
{
	*out = NULL;
	if (fail) {
		memset(fail, 0, sizeof(*fail));
		fail->event = -1;
	}
	if (!o || !o->events || !o->nr_events)
		return rec_set_error(err, HWPROF_E_INVAL, "no events to record");
	struct hwprof_recorder *r = calloc(1, sizeof(*r));
	if (!r)
		return rec_set_error(err, HWPROF_E_NOMEM, "out of memory");
	r->o = *o;
	if (o->use_clockid) {
		/* perf's record__init_clock(): the time of day and the chosen
		 * clock read together, for tools that convert sample times */
		struct timespec tod, clk;
		if (clock_gettime(CLOCK_REALTIME, &tod) || clock_gettime(o->clockid, &clk)) {
			free(r);
			return rec_set_error(err, HWPROF_E_INVAL, "clock_gettime failed, cannot set reference time");
		}
		r->tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)(tod.tv_nsec / 1000) * 1000ULL;
		r->clockid_ns = (uint64_t)clk.tv_sec * 1000000000ULL + (uint64_t)clk.tv_nsec;
	}
	r->ev = o->events;
	r->go_fd = r->err_fd = r->wake_rd = r->wake_wr = -1;
	r->st.workload_status = -1;
	rec_sys_fill(&r->sys, o->sys ? o->sys : hwprof_sys_default());
	*out = r;
	int p[2];
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return rec_set_error(err, HWPROF_E_IO, "pipe: %s", strerror(errno));
	r->wake_rd = p[0];
	r->wake_wr = p[1];
	int rc = setup_targets(r, err);
	if (!rc)
		rc = open_events(r, err, fail);
	if (rc)
		return rc;
	struct hwprof_error werr;
	if (o->output_fd >= 0)
		rc = hwprof_writer_open_fd(&r->w, o->output_fd, o->pipe ? HWPROF_WRITE_PIPE : HWPROF_WRITE_FILE, &werr);
	else
		rc = hwprof_writer_open(&r->w, o->output ? o->output : "perf.data",
					o->pipe ? HWPROF_WRITE_PIPE : HWPROF_WRITE_FILE, &werr);
	if (rc) {
		if (err)
			*err = werr;
		return rc;
	}
	for (uint32_t e = 0; e < o->nr_events && !rc; e++) {
		uint64_t *ids = malloc((r->nr_fds ? r->nr_fds : 1) * sizeof(*ids));
		uint32_t n = 0;
		for (size_t i = 0; ids && i < r->nr_fds; i++)
			if (r->fds[i].ev == e)
				ids[n++] = r->fds[i].id;
		rc = ids ? hwprof_writer_add_evsel(r->w, &r->ev[e].attr, r->ev[e].name, ids, n) : -HWPROF_E_NOMEM;
		free(ids);
	}
	if (!rc && o->pipe)
		rc = rec_feat_add_all(r, false);
	if (!rc)
		rc = rec_out_init(r);
	if (!rc)
		rc = rec_synth_header_records(r);
	if (!rc)
		rc = aux_info(r);
	if (!rc)
		rc = rec_synth_tasks(r);
	if (rc)
		return rec_set_error(err, -rc, "cannot write the output: %s", hwprof_strerror(rc));
	return 0;
}

HWPROF_API int hwprof_record_start(struct hwprof_recorder *r, struct hwprof_error *err)
{
	if (r->started)
		return 0;
	r->started = true;
	/* events that exec does not enable (no workload, or per-cpu ones) are
	 * enabled here, before the workload runs */
	for (size_t i = 0; i < r->nr_fds; i++) {
		const struct hwprof_record_event *e = &r->ev[r->fds[i].ev];
		if (e->leader >= 0 && (uint32_t)e->leader != r->fds[i].ev)
			continue;
		if (HWPROF_ATTR_HAS(&e->attr, HWPROF_ATTR_ENABLE_ON_EXEC) && r->child > 0)
			continue;
		if (r->o.delay_ms && !(e->tracking && rec_is_dummy(&e->attr)))
			continue; /* hwprof_record_enable() after the delay */
		int rc = r->sys.ioctl(r->fds[i].fd, REC_IOC_ENABLE, 0);
		if (rc < 0)
			return rec_set_error(err, errno_code(-rc), "cannot enable the events: %s", strerror(-rc));
	}
	if (r->child > 0)
		return rec_workload_go(r, err);
	return 0;
}

/* ---- draining -------------------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Copy [from, to) of the AUX area (wrapping) into one AUXTRACE record. */
static int aux_copy(struct hwprof_recorder *r, struct rec_ring *rg, uint64_t from, uint64_t to)
{
	if (to <= from)
		return 0;
	if (to - from > rg->aux_len)
		from = to - rg->aux_len;
	size_t len = (size_t)(to - from), off = (size_t)(from % rg->aux_len);
	uint8_t *buf = malloc(len);
	if (!buf)
		return -HWPROF_E_NOMEM;
	size_t a = rg->aux_len - off < len ? rg->aux_len - off : len;
	memcpy(buf, rg->aux + off, a);
	memcpy(buf + a, rg->aux, len - a);
	int rc = hwprof_writer_write_auxtrace(r->w, from, now_ns(), rg->idx, rg->tid, rg->cpu, buf, len);
	free(buf);
	r->st.aux_bytes += len;
	return rc;
}

static int aux_drain(struct hwprof_recorder *r, struct rec_ring *rg)
{
	uint64_t *head = (uint64_t *)(void *)(rg->base + REC_PG_AUX_HEAD);
	uint64_t *tail = (uint64_t *)(void *)(rg->base + REC_PG_AUX_TAIL);
	uint64_t h = __atomic_load_n(head, __ATOMIC_ACQUIRE), t = *tail;
	int rc = aux_copy(r, rg, t, h);
	if (!rc)
		__atomic_store_n(tail, h, __ATOMIC_RELEASE);
	return rc;
}

static int snapshot(struct hwprof_recorder *r)
{
	int rc = 0;
	for (size_t i = 0; i < r->nr_fds; i++)
		if (r->ev[r->fds[i].ev].aux)
			r->sys.ioctl(r->fds[i].fd, REC_IOC_DISABLE, 0);
	for (size_t i = 0; i < r->nr_rings && !rc; i++) {
		struct rec_ring *rg = &r->rings[i];
		if (!rg->aux)
			continue;
		uint64_t h = __atomic_load_n((uint64_t *)(void *)(rg->base + REC_PG_AUX_HEAD), __ATOMIC_ACQUIRE);
		rc = aux_copy(r, rg, h > rg->aux_len ? h - rg->aux_len : 0, h);
	}
	for (size_t i = 0; i < r->nr_fds; i++)
		if (r->ev[r->fds[i].ev].aux)
			r->sys.ioctl(r->fds[i].fd, REC_IOC_ENABLE, 0);
	return rc;
}

HWPROF_API int hwprof_record_drain(struct hwprof_recorder *r)
{
	uint64_t before = r->st.bytes_raw;
	uint64_t aux_before = r->st.aux_bytes;
	for (size_t i = 0; i < r->nr_rings; i++) {
		struct rec_ring *rg = &r->rings[i];
		long n = rec_ring_read(rg, r->bounce, rec_out_ring, r, &r->st.dropped);
		if (n < 0)
			return (int)n;
		int rc = rec_out_flush(r);
		if (!rc && rg->aux && !r->o.snapshot)
			rc = aux_drain(r, rg);
		if (rc)
			return rc;
	}
	bool wrote = r->st.bytes_raw != before || r->st.aux_bytes != aux_before;
	/* go round again without sleeping only when the rings were filling
	 * fast (an eighth of a ring in one pass); trickles wait for the
	 * kernel's wakeup, which keeps the recorder off the workload's CPUs */
	r->drained_data = r->nr_rings && r->st.bytes_raw - before >= r->rings[0].size / 8;
	if (wrote) {
		uint8_t fr[8];
		st32(fr, HWPROF_RECORD_FINISHED_ROUND);
		st16(fr + 4, 0);
		st16(fr + 6, 8);
		return hwprof_writer_write(r->w, fr, 8);
	}
	return 0;
}

static void reap(struct hwprof_recorder *r)
{
	if (r->child <= 0 || r->child_done)
		return;
	int status;
	pid_t p = waitpid(r->child, &status, WNOHANG);
	if (p == r->child) {
		r->child_done = true;
		r->st.workload_status = status;
	} else if (p < 0 && errno == ECHILD) {
		r->child_done = true;
	}
}

HWPROF_API int hwprof_record_poll(struct hwprof_recorder *r, int timeout_ms)
{
	if (r->finished)
		return 0;
	size_t n = r->nr_rings + 1;
	struct pollfd *pf = calloc(n, sizeof(*pf));
	if (!pf)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < r->nr_rings; i++) {
		pf[i].fd = r->rings[i].fd;
		pf[i].events = POLLIN;
	}
	pf[r->nr_rings].fd = r->wake_rd;
	pf[r->nr_rings].events = POLLIN;
	/* like perf: poll only when the last pass found nothing */
	int ready = 0;
	if (!r->drained_data) {
		ready = r->sys.poll(pf, (unsigned)n, timeout_ms);
		/* perf counts every return of its endless poll, a signal's
		 * (the workload's SIGCHLD) included; our timeouts are not */
		if (ready > 0 || ready == -EINTR)
			r->st.wakeups++;
	}
	bool all_hup = r->nr_rings > 0 && ready > 0;
	for (size_t i = 0; i < r->nr_rings && all_hup; i++)
		all_hup = pf[i].revents & (POLLHUP | POLLERR);
	free(pf);
	uint8_t cmd[16];
	ssize_t k;
	while ((k = read(r->wake_rd, cmd, sizeof(cmd))) > 0)
		for (ssize_t i = 0; i < k; i++) {
			if (cmd[i] == HWPROF_WAKE_STOP)
				r->stop = true;
			else if (cmd[i] == HWPROF_WAKE_SNAPSHOT && r->o.snapshot) {
				int rc = snapshot(r);
				if (rc)
					return rc;
			}
		}
	int rc = hwprof_record_drain(r);
	if (rc)
		return rc;
	reap(r);
	/* every event hung up: its tasks are gone (perf stops here too and
	 * reaps the workload at the end) */
	if (r->stop || (r->child > 0 && r->child_done) || all_hup) {
		r->finished = true;
		return 0;
	}
	return 1;
}

HWPROF_API void hwprof_record_wake(struct hwprof_recorder *r, enum hwprof_record_wake what)
{
	uint8_t c = (uint8_t)what;
	if (r && r->wake_wr >= 0) {
		ssize_t w = write(r->wake_wr, &c, 1);
		(void)w;
	}
}

HWPROF_API int hwprof_record_enable(struct hwprof_recorder *r, bool on)
{
	int first = 0;
	for (size_t i = 0; r && i < r->nr_fds; i++) {
		const struct hwprof_record_event *e = &r->ev[r->fds[i].ev];
		if (e->leader >= 0 && (uint32_t)e->leader != r->fds[i].ev)
			continue; /* members follow their leader */
		int rc = r->sys.ioctl(r->fds[i].fd, on ? REC_IOC_ENABLE : REC_IOC_DISABLE, 0);
		if (rc < 0 && !first)
			first = -errno_code(-rc);
	}
	return first;
}

HWPROF_API int hwprof_record_enable_event(struct hwprof_recorder *r, uint32_t event, bool on)
{
	int first = 0;
	for (size_t i = 0; r && i < r->nr_fds; i++) {
		if (r->fds[i].ev != event)
			continue;
		int rc = r->sys.ioctl(r->fds[i].fd, on ? REC_IOC_ENABLE : REC_IOC_DISABLE, 0);
		if (rc < 0 && !first)
			first = -errno_code(-rc);
	}
	return first;
}

HWPROF_API pid_t hwprof_record_workload_pid(const struct hwprof_recorder *r)
{
	return r ? r->child : -1;
}

HWPROF_API int hwprof_record_close(struct hwprof_recorder *r, struct hwprof_record_stats *stats,
				   struct hwprof_error *err)
{
	if (!r)
		return 0;
	int rc = 0;
	if (r->go_fd >= 0) {
		close(r->go_fd); /* a workload that never started exits */
		r->go_fd = -1;
	}
	if (r->err_fd >= 0)
		close(r->err_fd);
	if (r->child > 0 && !r->child_done) {
		reap(r);
		if (!r->child_done) {
			kill(r->child, SIGTERM);
			int status;
			if (waitpid(r->child, &status, 0) == r->child)
				r->st.workload_status = status;
			r->child_done = true;
		}
	}
	for (size_t i = 0; i < r->nr_fds; i++)
		r->sys.ioctl(r->fds[i].fd, REC_IOC_DISABLE, 0);
	if (r->w) {
		if (r->o.snapshot && r->o.snapshot_on_exit && r->started)
			rc = snapshot(r);
		if (!rc && r->started)
			rc = hwprof_record_drain(r);
		if (!rc && r->started)
			rc = rec_synth_lost_samples(r);
	}
	for (size_t i = 0; i < r->nr_rings; i++) {
		if (r->rings[i].aux)
			r->sys.munmap(r->rings[i].aux, r->rings[i].aux_len);
		if (r->rings[i].base)
			r->sys.munmap(r->rings[i].base, r->rings[i].len);
	}
	for (size_t i = 0; i < r->nr_fds; i++)
		r->sys.close(r->fds[i].fd);
	if (r->w) {
		r->st.bytes = hwprof_writer_pos(r->w);
		if (!r->o.pipe)
			rec_feat_add_all(r, true);
		struct hwprof_error werr = { 0 };
		int wrc = hwprof_writer_close(r->w, &werr);
		if (wrc && !rc) {
			rc = wrc;
			if (err)
				*err = werr;
		} else if (rc) {
			rec_set_error(err, -rc, "cannot write the output: %s", werr.code ? werr.msg : hwprof_strerror(rc));
		}
	}
	rec_out_free(r);
	if (stats)
		*stats = r->st;
	if (r->wake_rd >= 0)
		close(r->wake_rd);
	if (r->wake_wr >= 0)
		close(r->wake_wr);
	for (size_t i = 0; i < r->nr_hit; i++)
		free(r->hit_dsos[i]);
	free(r->hit_dsos);
	free(r->rings);
	free(r->fds);
	free(r->cpus);
	free(r->threads);
	free(r);
	return rc;
}
