/* hwprof script over Arm SPE data (see script_spe.h). perf 6.1 sets up the
 * decoder at the AUXTRACE_INFO record: synthesized events are added, and
 * with an AUXTRACE index every buffer is queued at once; side-band records
 * then drive the decoding, and the rest is flushed at the end. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print_spe_samples.h"
#include "cli/script_spe.h"
#include "cli/spe_feed.h"
#include "cli/time_range.h"
#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"


/* Symbol text per (ip, pid, cpumode): 16-byte slots in pairs, a key in
 * either slot of its pair (the table stays in cache) naming texts in a
 * pool of distinct ones (a trace has few: one per symbol and DSO). With one
 * slot per key, ranges of ips of different processes that hash onto each
 * other evicted each other (6% of the bench file's lookups missed). A slot
 * is valid for one epoch; the epoch moves when the session's version does
 * (threads, comms or maps changed), and the table is cleared when the
 * 13-bit epoch wraps. */
#define SYM_SLOTS (1u << 15)
#define POOL_SLOTS (1u << 14)     /* distinct texts kept, at most half used */
struct sym_key {
	uint64_t ip;
	int32_t who;              /* pid, or -2 - tid for a thread without a pid */
	uint16_t tag;             /* epoch << 3 | cpumode; 0 = empty */
	uint16_t text;            /* index in pool_text */
};

/* User ips whose text is the same across a whole map: the map of a DSO
 * without symbols prints " [unknown] (dso)" for every ip in it (no
 * symbol, no offset), any map " (dso)" when the symbol column is off, and
 * a process's maps do not overlap. One range per key owner
 * (direct-mapped), tried before the ip table: it stays in L1 where the ip
 * table's slots missed. Valid for one epoch, as the keys. */
#define RANGE_SLOTS 32
struct sym_range {
	uint64_t lo, len;         /* [lo, lo + len) */
	int32_t who;              /* as sym_key */
	uint16_t tag;             /* as sym_key; 0 = empty */
	uint16_t text;            /* index in pool_text */
};

/* pid per tid, direct-mapped */
#define PID_SLOTS 256
struct pid_slot {
	uint64_t ver;             /* session version + 1; 0 = empty */
	int32_t tid, pid;
};

/* comm per (pid, tid), direct-mapped */
#define COMM_SLOTS 256
struct comm_slot {
	uint64_t ver;
	int32_t pid, tid;
	const char *comm;         /* NULL = empty; text or the session's */
	size_t len;
	char text[32];            /* a comm shorter than 32, zero-padded */
};

struct script_spe {
	struct script_printer *p;
	struct hwprof_session *s;
	struct spe_feed feed;
	FILE *f;
	bool failed;
	const struct time_ranges *tr; /* --time (NULL: none) */
	script_drops_fn drops;    /* perf script's sample filters */
	void *drops_ctx;
	bool shift_time;              /* --reltime / --deltatime */
	struct script_fmt fmt;
	int *ds_width;            /* the printer's running data_src width */
	const uint64_t *verp;     /* the session's version (hwprof_session_version) */
	/* lookups cached while the session's version stays (threads, comms
	 * and maps unchanged): the last comm, the last tid -> pid, and the
	 * symbol text of recent ips */
	struct pid_slot pids[PID_SLOTS];
	struct comm_slot comms[COMM_SLOTS];
	struct sym_key *sym_keys; /* SYM_SLOTS */
	struct sym_range ranges[RANGE_SLOTS];
	uint64_t sym_ver;         /* session version of the current epoch */
	bool kernel_shared;       /* kernel ips keyed without the thread (sym_who) */
	unsigned epoch;           /* 1..8191 */
	uint16_t *pool;           /* POOL_SLOTS: hash -> 1 + index in pool_text */
	char **pool_text;         /* the distinct texts, pool_n of them */
	uint16_t *pool_len;
	size_t pool_n;
	char sym_buf[512];        /* a text not cached */
	/* sample lines collect here and go out in large writes; flushed
	 * (script_spe_sync) before anything else is written to the file */
	char *out;
	size_t out_n;
};

#define OUT_SIZE (256u << 10)

static void out_flush(struct script_spe *x)
{
	if (x->out_n)
		fwrite(x->out, 1, x->out_n, x->f);
	x->out_n = 0;
}

/* A full buffer goes straight to the file descriptor: through stdio every
 * byte would be copied once more into its buffer. */
static void out_drain(struct script_spe *x)
{
	int fd = fileno(x->f);
	if (fd < 0 || fflush(x->f)) {
		out_flush(x);
		return;
	}
	for (size_t off = 0; off < x->out_n;) {
		ssize_t k = write(fd, x->out + off, x->out_n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) { /* as stdio would: the error stays on the stream */
			fwrite(x->out + off, 1, x->out_n - off, x->f);
			break;
		}
		off += (size_t)k;
	}
	x->out_n = 0;
}

/* SFB field -> the SPE line printer's bit (0: the printer has no such field) */
static const unsigned spe_field_bits[SF_NR] = {
	[SF_COMM] = SCRIPT_F_COMM, [SF_TID] = SCRIPT_F_TID, [SF_PID] = SCRIPT_F_PID,
	[SF_TIME] = SCRIPT_F_TIME, [SF_CPU] = SCRIPT_F_CPU, [SF_EVNAME] = SCRIPT_F_EVENT,
	[SF_IP] = SCRIPT_F_IP, [SF_SYM] = SCRIPT_F_SYM, [SF_DSO] = SCRIPT_F_DSO,
	[SF_ADDR] = SCRIPT_F_ADDR, [SF_PERIOD] = SCRIPT_F_PERIOD, [SF_DATA_SRC] = SCRIPT_F_DATA_SRC,
	[SF_WEIGHT] = SCRIPT_F_WEIGHT, [SF_PHYS_ADDR] = SCRIPT_F_PHYS_ADDR, [SF_MISC] = SCRIPT_F_MISC,
};

static int32_t spe_thread_pid(void *ctx, int32_t tid)
{
	struct script_spe *x = ctx;
	uint64_t v = *x->verp + 1;
	struct pid_slot *e = &x->pids[(uint32_t)tid & (PID_SLOTS - 1)];
	if (e->ver != v || e->tid != tid)
		*e = (struct pid_slot){ v, tid, hwprof_session_thread_pid(x->s, tid) }; /* a pure lookup */
	return e->pid;
}

/* A lookup is cached only if it changed nothing (it may create a thread). */
static const char *spe_comm_ref(void *ctx, int32_t pid, int32_t tid, size_t *len)
{
	struct script_spe *x = ctx;
	uint64_t v = *x->verp;
	struct comm_slot *c = &x->comms[((uint32_t)tid ^ ((uint32_t)pid << 3)) & (COMM_SLOTS - 1)];
	if (c->comm && c->ver == v && c->pid == pid && c->tid == tid) {
		*len = c->len;
		return c->comm;
	}
	const char *comm = hwprof_session_thread_comm(x->s, pid, tid);
	*len = comm ? strnlen(comm, 256) : 0;
	if (comm && *len < sizeof(c->text)) {
		/* a padded copy, even when it cannot be kept (the printer
		 * compares 32 bytes of it) */
		memset(c->text, 0, sizeof(c->text));
		memcpy(c->text, comm, *len);
		c->comm = *x->verp == v ? c->text : NULL;
		c->ver = v;
		c->pid = pid;
		c->tid = tid;
		c->len = *len;
		return c->text;
	}
	if (comm && *x->verp == v)
		*c = (struct comm_slot){ .ver = v, .pid = pid, .tid = tid, .comm = comm, .len = *len };
	return comm;
}

/* Whose maps an ip is looked up in: the threads of a process share them,
 * a thread without a known pid has its own. Kernel ips resolve the same
 * for everyone, and once the comm lookup before has made the thread, a
 * lookup for another thread would change nothing either: then they share
 * one key (fewer slots in use, fewer cache misses). */
static inline int32_t sym_who(const struct script_spe *x, const struct hwprof_spe_sample *s)
{
	if (s->cpumode == HWPROF_MISC_KERNEL && x->kernel_shared)
		return INT32_MAX;
	return s->pid >= 0 ? s->pid : -2 - s->tid;
}

/* The first slot of the pair for (ip, who) */
static inline size_t sym_slot(uint64_t ip, uint32_t who)
{
	return 2 * ((size_t)((ip >> 2) ^ ((uint64_t)who * 0x9e3779b97f4a7c15ULL >> 40)) & (SYM_SLOTS / 2 - 1));
}

static inline bool sym_match(const struct sym_key *k, uint64_t ip, int32_t who, uint16_t tag)
{
	return k->tag == tag && k->ip == ip && k->who == who;
}

/* The pool index of text (n bytes), or -1 when the pool is full. */
static int intern(struct script_spe *x, const char *text, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)text[i]) * 1099511628211ULL;
	for (size_t i = (size_t)h & (POOL_SLOTS - 1);; i = (i + 1) & (POOL_SLOTS - 1)) {
		if (!x->pool[i]) {
			char *e;
			/* at least 64 bytes: the printer copies short texts 64 at a time */
			if (x->pool_n >= POOL_SLOTS / 2 || n > UINT16_MAX || !(e = calloc(1, n + 1 > 64 ? n + 1 : 64)))
				return -1;
			memcpy(e, text, n);
			e[n] = 0;
			x->pool_text[x->pool_n] = e;
			x->pool_len[x->pool_n] = (uint16_t)n;
			x->pool[i] = (uint16_t)++x->pool_n;
			return (int)x->pool_n - 1;
		}
		unsigned k = x->pool[i] - 1u;
		if (x->pool_len[k] == n && !memcmp(x->pool_text[k], text, n))
			return (int)k;
	}
}

/* After a user ip's text was worked out (pool index t): when every ip of
 * its map gets the same text, the map becomes who's range. Only when the
 * look-up changed nothing (it may create the thread). */
static void sym_range_note(struct script_spe *x, const struct hwprof_spe_sample *s, int32_t who, uint16_t tag,
			   uint16_t t)
{
	uint64_t v = *x->verp;
	struct hwprof_map_info mi;
	char level;
	if (script_printer_find_map(x->p, s->pid, s->tid, s->cpumode, s->ip, &mi, &level) != 1 || *x->verp != v ||
	    mi.end <= mi.start || s->ip < mi.start || s->ip >= mi.end)
		return;
	if (x->fmt.fields & SCRIPT_F_SYM) {
		/* the text's symbol is " [unknown]" throughout only in a DSO
		 * without symbols (hwprof_symbols_resolve finds none) */
		struct hwprof_dso *d = NULL;
		if (hwprof_symbols_dso(script_printer_symbols(x->p), mi.dso, &d) < 0 || *x->verp != v ||
		    (d && hwprof_dso_nr_syms(d) > 0))
			return;
	}
	x->ranges[(uint32_t)who & (RANGE_SLOTS - 1)] =
		(struct sym_range){ .lo = mi.start, .len = mi.end - mi.start, .who = who, .tag = tag, .text = t };
}

static const char *spe_sym_ref(void *ctx, const struct hwprof_spe_sample *s, size_t *len)
{
	struct script_spe *x = ctx;
	uint64_t v = *x->verp;
	if (v != x->sym_ver || !x->epoch) {
		x->sym_ver = v;
		if (++x->epoch >= 8192) {
			memset(x->sym_keys, 0, SYM_SLOTS * sizeof(*x->sym_keys));
			memset(x->ranges, 0, sizeof(x->ranges));
			x->epoch = 1;
		}
	}
	if (s->pid < 0 && (s->tid < -1 || s->tid > 0x3fffffff)) { /* no room in the key: not cached */
		x->sym_buf[0] = 0;
		script_sym_text(x->p, OT_HW, s->pid, s->tid, s->cpumode, s->ip, x->sym_buf, sizeof(x->sym_buf));
		*len = strnlen(x->sym_buf, sizeof(x->sym_buf));
		return x->sym_buf;
	}
	int32_t who = sym_who(x, s);
	uint16_t tag = (uint16_t)(x->epoch << 3 | (s->cpumode & 7));
	struct sym_range *g = &x->ranges[(uint32_t)who & (RANGE_SLOTS - 1)];
	if (g->tag == tag && g->who == who && s->ip - g->lo < g->len) {
		*len = x->pool_len[g->text];
		return x->pool_text[g->text];
	}
	struct sym_key *k = &x->sym_keys[sym_slot(s->ip, (uint32_t)who)];
	const struct sym_key *hit = sym_match(&k[0], s->ip, who, tag)   ? &k[0]
				    : sym_match(&k[1], s->ip, who, tag) ? &k[1]
									: NULL;
	if (hit) {
		*len = x->pool_len[hit->text];
		return x->pool_text[hit->text];
	}
	x->sym_buf[0] = 0;
	script_sym_text(x->p, OT_HW, s->pid, s->tid, s->cpumode, s->ip, x->sym_buf, sizeof(x->sym_buf));
	size_t n = strnlen(x->sym_buf, sizeof(x->sym_buf));
	*len = n;
	int t;
	if (*x->verp != v || (t = intern(x, x->sym_buf, n)) < 0)
		return x->sym_buf;
	/* the newest first, the other one stays */
	k[1] = k[0];
	k[0] = (struct sym_key){ s->ip, who, tag, (uint16_t)t };
	if (s->cpumode == HWPROF_MISC_USER)
		sym_range_note(x, s, who, tag, (uint16_t)t);
	return x->pool_text[t];
}

/* perf's decoder messages, on stderr as it prints them */
static void spe_notice(void *ctx, unsigned notice, uint64_t value)
{
	struct script_spe *x = ctx;
	out_flush(x);
	fflush(x->f);
	if (notice == HWPROF_SPE_NOTE_ADDR_INDEX)
		fprintf(stderr, "unsupported address packet index: 0x%llx\n", (unsigned long long)value);
	else if (notice == HWPROF_SPE_NOTE_OP_CLASS)
		fprintf(stderr, "Get packet error!\n");
}

static int spe_emit(void *ctx, const struct hwprof_spe_sample *s)
{
	struct script_spe *x = ctx;
	/* perf counts its decoders' samples with the file's records */
	hwprof_session_count_synth(x->s, HWPROF_RECORD_SAMPLE, 0);
	/* perf script's checks of every sample: time, then al.filtered */
	if (x->tr && time_ranges_skip(x->tr, s->time))
		return 0;
	if (x->drops) {
		struct hwprof_sample sm;
		memset(&sm, 0, sizeof(sm));
		sm.pid = (uint32_t)s->pid;
		sm.tid = (uint32_t)s->tid;
		sm.cpu = (uint32_t)s->cpu;
		sm.ip = s->ip;
		sm.misc = s->cpumode;
		if (x->drops(x->drops_ctx, &sm, NULL))
			return 0;
	}
	struct hwprof_spe_sample shifted;
	if (x->shift_time) {
		shifted = *s;
		shifted.time = script_printer_shown_time(x->p, s->time);
		s = &shifted;
	}
	/* perf sizes the event column at the first sample it prints */
	if (!x->fmt.name_width && (x->fmt.fields & SCRIPT_F_EVENT))
		x->fmt.name_width = script_printer_name_width(x->p);
	/* the symbol slot is a likely cache miss: start it before the line */
	__builtin_prefetch(&x->sym_keys[sym_slot(s->ip, (uint32_t)sym_who(x, s))]);
	int *w = x->ds_width;
	x->fmt.data_src_width = *w;
	if (OUT_SIZE - x->out_n < SCRIPT_SPE_LINE_MAX)
		out_drain(x);
	x->out_n += script_format_spe_sample(x->out + x->out_n, &x->fmt, s);
	*w = x->fmt.data_src_width;
	return 0;
}

void script_spe_options(struct script_spe *x, script_drops_fn drops, void *ctx, const struct time_ranges *tr)
{
	x->drops = drops;
	x->drops_ctx = ctx;
	x->tr = tr;
	x->shift_time = script_printer_time_shifts(x->p);
}

int script_spe_new(struct script_spe **out, struct script_printer *p, struct hwprof_session *s,
		   const struct hwprof_itrace_opts *itrace, FILE *f)
{
	struct script_spe *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->p = p;
	x->s = s;
	x->ds_width = script_printer_data_src_width(p);
	x->verp = hwprof_session_version_ptr(s);
	x->f = f;
	x->out = malloc(OUT_SIZE);
	/* a pair of slots in one cache line */
	x->sym_keys = aligned_alloc(64, SYM_SLOTS * sizeof(*x->sym_keys));
	if (x->sym_keys)
		memset(x->sym_keys, 0, SYM_SLOTS * sizeof(*x->sym_keys));
	x->pool = calloc(POOL_SLOTS, sizeof(*x->pool));
	x->pool_text = calloc(POOL_SLOTS / 2, sizeof(*x->pool_text));
	x->pool_len = calloc(POOL_SLOTS / 2, sizeof(*x->pool_len));
	if (!x->out || !x->sym_keys || !x->pool || !x->pool_text || !x->pool_len) {
		free(x->out);
		free(x->sym_keys);
		free(x->pool);
		free(x->pool_text);
		free(x->pool_len);
		free(x);
		return -HWPROF_E_NOMEM;
	}
	spe_feed_init(&x->feed, hwprof_session_data(s), itrace);
	*out = x;
	return 0;
}

void script_spe_free(struct script_spe *x)
{
	if (!x)
		return;
	out_flush(x);
	free(x->out);
	free(x->sym_keys);
	for (size_t i = 0; i < x->pool_n; i++)
		free(x->pool_text[i]);
	free(x->pool);
	free(x->pool_text);
	free(x->pool_len);
	spe_feed_fini(&x->feed);
	free(x);
}

static int fail(struct script_spe *x, const char *msg)
{
	x->failed = true;
	out_flush(x);
	fflush(x->f);
	cli_error("script", "%s", msg);
	return 1;
}

/* perf 6.1's arm_spe_process_auxtrace_info(), then script's own set-up */
static int start_synth(struct script_spe *x, const struct hwprof_record *rec)
{
	struct hwprof_spe_synth_config cb = { .emit = spe_emit, .thread_pid = spe_thread_pid,
					      .thread_pid_version = x->verp, .notice = spe_notice, .ctx = x };
	/* the printer's fields are the options', known before the events */
	cb.no_data_src = !(script_printer_fields(x->p, OT_HW) & SFB(SF_DATA_SRC));
	const struct hwprof_evsel *spe;
	const char *why = spe_feed_start(&x->feed, rec, &cb, x->f, &spe);
	if (why)
		return fail(x, why);
	unsigned groups = hwprof_spe_synth_groups(x->feed.synth);
	/* the synthesized events join the session as perf adds them */
	struct hwprof_evsel ev;
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = 0; /* PERF_TYPE_HARDWARE */
	ev.attr.sample_type = hwprof_spe_synth_sample_type(spe->attr.sample_type, x->feed.timeless);
	bool checked = false;
	for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++) {
		if (!(groups & 1u << g))
			continue;
		script_printer_add_event_name(x->p, hwprof_spe_group_name(g));
		if (!checked) {
			checked = true;
			ev.name = hwprof_spe_group_name(g);
			if (script_printer_check_synth(x->p, &ev) < 0) {
				x->failed = true;
				return 1;
			}
		}
	}
	uint64_t sf = script_printer_fields(x->p, OT_HW);
	x->fmt.fields = 0;
	for (unsigned i = 0; i < SF_NR; i++) {
		if (!(sf & SFB(i)))
			continue;
		if (!spe_field_bits[i] && i != SF_SYMOFFSET) {
			char msg[128];
			snprintf(msg, sizeof(msg), "field '%s' is not supported for Arm SPE samples",
				 script_field_name(i));
			return fail(x, msg);
		}
		x->fmt.fields |= spe_field_bits[i];
	}
	x->fmt.nanosecs = script_printer_nanosecs(x->p);
	/* the printer looks the comm up (making the thread) before the symbol */
	x->kernel_shared = (x->fmt.fields & SCRIPT_F_COMM) != 0;
	x->fmt.comm_ref = spe_comm_ref;
	x->fmt.comm_padded = true;
	x->fmt.comm_ver = x->verp; /* spe_comm_ref's answers stay while it does */
	x->fmt.sym_ref = spe_sym_ref;
	x->fmt.ctx = x;
	x->fmt.name_width = 0;
	why = spe_feed_queue_index(&x->feed);
	return why ? fail(x, why) : 0;
}

int script_spe_event(struct script_spe *x, const struct hwprof_event *ev)
{
	if (x->failed)
		return 1;
	if (ev->rec.type == HWPROF_RECORD_AUXTRACE_INFO)
		return spe_feed_wants_info(&x->feed, &ev->rec) ? start_synth(x, &ev->rec) : 0;
	int r;
	const char *why = spe_feed_record(&x->feed, ev, &r);
	if (why)
		return fail(x, why);
	if (r < 0)
		return fail(x, "Arm SPE synthesis failed");
	return 0;
}

void script_spe_sync(struct script_spe *x)
{
	if (x)
		out_flush(x);
}

int script_spe_flush(struct script_spe *x)
{
	if (x->failed)
		return 1;
	if (!x->feed.synth)
		return 0;
	int r = x->feed.itrace.dont_decode ? 0 : hwprof_spe_synth_flush(x->feed.synth);
	out_flush(x);
	if (r < 0)
		return fail(x, "Arm SPE synthesis failed");
	spe_feed_warn_context(&x->feed, x->f);
	return 0;
}
