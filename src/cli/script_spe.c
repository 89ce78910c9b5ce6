/* hwprof script over Arm SPE data (see script_spe.h). perf 6.1 sets up the
 * decoder at the AUXTRACE_INFO record: synthesized events are added, and
 * with an AUXTRACE index every buffer is queued at once; side-band records
 * then drive the decoding, and the rest is flushed at the end. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print_spe_samples.h"
#include "cli/script_spe.h"
#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"

#define AUXTRACE_ARM_SPE 4

/* Symbol text per (ip, pid, cpumode): direct-mapped 16-byte slots (the
 * table stays in cache) naming texts in a pool of distinct ones (a trace
 * has few: one per symbol and DSO). A slot is valid for one epoch; the
 * epoch moves when the session's version does (threads, comms or maps
 * changed), and the table is cleared when the 13-bit epoch wraps. */
#define SYM_SLOTS (1u << 15)
#define POOL_SLOTS (1u << 14)     /* distinct texts kept, at most half used */
struct sym_key {
	uint64_t ip;
	int32_t who;              /* pid, or -2 - tid for a thread without a pid */
	uint16_t tag;             /* epoch << 3 | cpumode; 0 = empty */
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
	const char *comm;         /* NULL = empty */
	size_t len;
};

struct script_spe {
	struct script_printer *p;
	struct hwprof_session *s;
	struct hwprof_perfdata *h;
	struct hwprof_itrace_opts itrace;
	FILE *f;
	const uint8_t *file;      /* the file mapped for indexed buffers */
	size_t file_len;
	bool have_index, have_tc, failed, timeless;
	struct hwprof_tsc_conv tc;
	struct hwprof_spe_synth *synth;
	struct script_fmt fmt;
	/* lookups cached while the session's version stays (threads, comms
	 * and maps unchanged): the last comm, the last tid -> pid, and the
	 * symbol text of recent ips */
	struct pid_slot pids[PID_SLOTS];
	struct comm_slot comms[COMM_SLOTS];
	struct sym_key *sym_keys; /* SYM_SLOTS */
	uint64_t sym_ver;         /* session version of the current epoch */
	unsigned epoch;           /* 1..8191 */
	uint16_t *pool;           /* POOL_SLOTS: hash -> 1 + index in pool_text */
	char **pool_text;         /* the distinct texts, pool_n of them */
	uint16_t *pool_len;
	size_t pool_n;
	char sym_buf[512];        /* a text not cached */
	/* sample lines collect here and go out in large writes; flushed
	 * before anything else is written and when a call returns */
	char *out;
	size_t out_n;
	uint8_t **copies;         /* pipe mode: buffers copied out of the stream */
	size_t nr_copies;
};

#define OUT_SIZE (256u << 10)

static void out_flush(struct script_spe *x)
{
	if (x->out_n)
		fwrite(x->out, 1, x->out_n, x->f);
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
	uint64_t v = hwprof_session_version(x->s) + 1;
	struct pid_slot *e = &x->pids[(uint32_t)tid & (PID_SLOTS - 1)];
	if (e->ver != v || e->tid != tid)
		*e = (struct pid_slot){ v, tid, hwprof_session_thread_pid(x->s, tid) }; /* a pure lookup */
	return e->pid;
}

/* A lookup is cached only if it changed nothing (it may create a thread). */
static const char *spe_comm_ref(void *ctx, int32_t pid, int32_t tid, size_t *len)
{
	struct script_spe *x = ctx;
	uint64_t v = hwprof_session_version(x->s);
	struct comm_slot *c = &x->comms[((uint32_t)tid ^ ((uint32_t)pid << 3)) & (COMM_SLOTS - 1)];
	if (c->comm && c->ver == v && c->pid == pid && c->tid == tid) {
		*len = c->len;
		return c->comm;
	}
	const char *comm = hwprof_session_thread_comm(x->s, pid, tid);
	*len = comm ? strnlen(comm, 256) : 0;
	if (comm && hwprof_session_version(x->s) == v)
		*c = (struct comm_slot){ v, pid, tid, comm, *len };
	return comm;
}

static inline size_t sym_slot(uint64_t ip, uint32_t who)
{
	return (size_t)((ip >> 2) ^ ((uint64_t)who * 0x9e3779b97f4a7c15ULL >> 40)) & (SYM_SLOTS - 1);
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

static const char *spe_sym_ref(void *ctx, const struct hwprof_spe_sample *s, size_t *len)
{
	struct script_spe *x = ctx;
	uint64_t v = hwprof_session_version(x->s);
	if (v != x->sym_ver || !x->epoch) {
		x->sym_ver = v;
		if (++x->epoch >= 8192) {
			memset(x->sym_keys, 0, SYM_SLOTS * sizeof(*x->sym_keys));
			x->epoch = 1;
		}
	}
	/* the threads of a process share its maps; a thread without a known
	 * pid has its own */
	if (s->pid < 0 && (s->tid < -1 || s->tid > 0x3fffffff)) { /* no room in the key: not cached */
		x->sym_buf[0] = 0;
		script_sym_text(x->p, OT_HW, s->pid, s->tid, s->cpumode, s->ip, x->sym_buf, sizeof(x->sym_buf));
		*len = strnlen(x->sym_buf, sizeof(x->sym_buf));
		return x->sym_buf;
	}
	int32_t who = s->pid >= 0 ? s->pid : -2 - s->tid;
	uint16_t tag = (uint16_t)(x->epoch << 3 | (s->cpumode & 7));
	struct sym_key *k = &x->sym_keys[sym_slot(s->ip, (uint32_t)who)];
	if (k->tag == tag && k->ip == s->ip && k->who == who) {
		*len = x->pool_len[k->text];
		return x->pool_text[k->text];
	}
	x->sym_buf[0] = 0;
	script_sym_text(x->p, OT_HW, s->pid, s->tid, s->cpumode, s->ip, x->sym_buf, sizeof(x->sym_buf));
	size_t n = strnlen(x->sym_buf, sizeof(x->sym_buf));
	*len = n;
	int t;
	if (hwprof_session_version(x->s) != v || (t = intern(x, x->sym_buf, n)) < 0)
		return x->sym_buf;
	*k = (struct sym_key){ s->ip, who, tag, (uint16_t)t };
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
	/* perf sizes the event column at the first sample it prints */
	if (!x->fmt.name_width && (x->fmt.fields & SCRIPT_F_EVENT))
		x->fmt.name_width = script_printer_name_width(x->p);
	/* the symbol slot is a likely cache miss: start it before the line */
	__builtin_prefetch(&x->sym_keys[sym_slot(s->ip, s->pid >= 0 ? (uint32_t)s->pid : 0xfffffffeu - (uint32_t)s->tid)]);
	int *w = script_printer_data_src_width(x->p);
	x->fmt.data_src_width = *w;
	if (OUT_SIZE - x->out_n < SCRIPT_SPE_LINE_MAX)
		out_flush(x);
	x->out_n += script_format_spe_sample(x->out + x->out_n, &x->fmt, s);
	*w = x->fmt.data_src_width;
	return 0;
}

int script_spe_new(struct script_spe **out, struct script_printer *p, struct hwprof_session *s,
		   const struct hwprof_itrace_opts *itrace, FILE *f)
{
	struct script_spe *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->p = p;
	x->s = s;
	x->h = hwprof_session_data(s);
	x->itrace = *itrace;
	x->f = f;
	x->out = malloc(OUT_SIZE);
	x->sym_keys = calloc(SYM_SLOTS, sizeof(*x->sym_keys));
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
	const uint8_t *d;
	uint64_t sz, off;
	x->have_index = hwprof_perfdata_feature(x->h, HWPROF_FEAT_AUXTRACE, &d, &sz, &off) == 1;
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
	hwprof_spe_synth_free(x->synth);
	for (size_t i = 0; i < x->nr_copies; i++)
		free(x->copies[i]);
	free(x->copies);
	if (x->file)
		munmap((void *)x->file, x->file_len);
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

/* The buffer of the AUXTRACE record at file offset off (indexed files). */
static int queue_indexed(struct script_spe *x, uint64_t off)
{
	if (off > x->file_len || x->file_len - off < 48 || ld32(x->file + off) != HWPROF_RECORD_AUXTRACE)
		return fail(x, "bad AUXTRACE index entry");
	const uint8_t *r = x->file + off;
	uint64_t size = ld64(r + 8);
	if (size > x->file_len - off - 48)
		return fail(x, "AUXTRACE data past the end of the file");
	if (hwprof_spe_synth_add_buffer(x->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36),
					r + 48, size, off + 48) < 0)
		return fail(x, "out of memory queueing AUXTRACE buffers");
	return 0;
}

static int map_file(struct script_spe *x)
{
	const char *path = hwprof_perfdata_file_path(x->h, 0);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	x->file = m;
	x->file_len = (size_t)st.st_size;
	return 0;
}

static uint64_t file_midr(struct hwprof_perfdata *h)
{
	const uint8_t *cpuid;
	uint64_t size, off;
	char str[128];
	/* perf: strtol(cpuid, 16); without the feature it reads the local cpuid */
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_CPUID, &cpuid, &size, &off) != 1 || size <= 4)
		return 0;
	size_t l = size - 4 < sizeof(str) - 1 ? size - 4 : sizeof(str) - 1;
	memcpy(str, cpuid + 4, l);
	str[l] = 0;
	return (uint64_t)strtol(str, NULL, 16);
}

/* perf 6.1's arm_spe_process_auxtrace_info() */
static int start_synth(struct script_spe *x, const struct hwprof_record *rec)
{
	struct hwprof_spe_info info;
	uint64_t priv[64];
	size_t np = (size_t)(rec->size - 16) / 8;
	if (np > 64)
		np = 64;
	memcpy(priv, rec->data + 16, np * 8);
	if (hwprof_spe_info_parse(priv, np, &info, NULL, 0, NULL) < 0)
		return fail(x, "bad arm_spe AUXTRACE_INFO record");
	struct hwprof_spe_synth_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.itrace = x->itrace;
	cfg.timeless = true;
	const struct hwprof_evsel *spe = NULL;
	uint32_t n = hwprof_perfdata_nr_evsels(x->h);
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(x->h, i);
		if (e->attr.sample_type & HWPROF_SAMPLE_TIME)
			cfg.timeless = false;
		if (!spe && e->attr.type == info.pmu_type)
			spe = e;
	}
	if (!spe || !spe->nr_ids)
		return fail(x, "no arm_spe event with sample ids in the file");
	if (!cfg.timeless && (!x->have_tc || !x->tc.time_mult))
		return fail(x, "arm_spe data without a TIME_CONV record");
	if (x->have_tc)
		cfg.tc = x->tc;
	cfg.midr = file_midr(x->h);
	cfg.spe_id = spe->ids[0];
	cfg.emit = spe_emit;
	cfg.thread_pid = spe_thread_pid;
	cfg.notice = spe_notice;
	cfg.ctx = x;
	if (hwprof_spe_synth_new(&x->synth, &cfg) < 0)
		return fail(x, "out of memory");
	x->timeless = cfg.timeless;
	struct hwprof_itrace_opts eff = x->itrace;
	if (!eff.set)
		hwprof_itrace_opts_default(&eff, false);
	unsigned groups = hwprof_spe_synth_groups(x->synth);
	if (eff.instructions && !(groups & 1u << HWPROF_SPE_G_INSTRUCTIONS)) {
		fflush(x->f);
		fprintf(stderr, "Only instruction-based sampling period is currently supported by Arm SPE.\n");
	} else if ((groups & 1u << HWPROF_SPE_G_INSTRUCTIONS) && eff.period > 1) {
		fflush(x->f);
		fprintf(stderr, "Arm SPE has a hardware-based sample period.\n"
				"Additional instruction events will be discarded by --itrace\n");
	}
	/* the synthesized events join the session as perf adds them */
	struct hwprof_evsel ev;
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = 0; /* PERF_TYPE_HARDWARE */
	ev.attr.sample_type = hwprof_spe_synth_sample_type(spe->attr.sample_type, cfg.timeless);
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
	x->fmt.comm_ref = spe_comm_ref;
	x->fmt.sym_ref = spe_sym_ref;
	x->fmt.ctx = x;
	x->fmt.name_width = 0;
	if (!x->have_index || x->itrace.dont_decode)
		return 0;
	/* the index lets perf queue every buffer now */
	const uint8_t *idx;
	uint64_t idx_size, off;
	if (hwprof_perfdata_feature(x->h, HWPROF_FEAT_AUXTRACE, &idx, &idx_size, &off) != 1 || idx_size < 8)
		return 0;
	if (map_file(x) < 0)
		return fail(x, "cannot map the file for its AUXTRACE data");
	uint64_t nr = ld64(idx);
	if (nr > (idx_size - 8) / 16)
		return fail(x, "bad AUXTRACE index");
	for (uint64_t i = 0; i < nr; i++)
		if (queue_indexed(x, ld64(idx + 8 + 16 * i)))
			return 1;
	return 0;
}

/* A buffer met in the stream (no index): file mode keeps its mapping,
 * pipe mode's bytes are copied since the stream buffer is reused. */
static int queue_streamed(struct script_spe *x, const struct hwprof_record *rec)
{
	if (rec->size < 48 || !rec->payload)
		return fail(x, "bad AUXTRACE record");
	const uint8_t *r = rec->data, *data = rec->payload;
	if (hwprof_perfdata_info(x->h)->pipe) {
		uint8_t **nc = realloc(x->copies, (x->nr_copies + 1) * sizeof(*nc));
		if (!nc)
			return fail(x, "out of memory");
		x->copies = nc;
		uint8_t *c = malloc(rec->payload_size ? rec->payload_size : 1);
		if (!c)
			return fail(x, "out of memory");
		memcpy(c, rec->payload, rec->payload_size);
		x->copies[x->nr_copies++] = c;
		data = c;
	}
	if (hwprof_spe_synth_add_buffer(x->synth, ld32(r + 32), (int32_t)ld32(r + 40), (int32_t)ld32(r + 36), data,
					rec->payload_size, rec->offset + 48) < 0)
		return fail(x, "out of memory queueing AUXTRACE buffers");
	return 0;
}

int script_spe_event(struct script_spe *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	if (x->failed)
		return 1;
	switch (rec->type) {
	case HWPROF_RECORD_TIME_CONV:
		x->have_tc = hwprof_tsc_conv_parse(&x->tc, rec->data + 8, rec->size - 8u) == 0;
		return 0;
	case HWPROF_RECORD_AUXTRACE_INFO:
		if (rec->size >= 16 && ld32(rec->data + 8) == AUXTRACE_ARM_SPE && !x->synth)
			return start_synth(x, rec);
		return 0;
	case HWPROF_RECORD_AUXTRACE:
		return x->synth && !x->have_index && !x->itrace.dont_decode ? queue_streamed(x, rec) : 0;
	default:
		break;
	}
	if (rec->type >= HWPROF_RECORD_USER_TYPE_START || !x->synth || x->itrace.dont_decode)
		return 0;
	struct hwprof_spe_side_event se = { 0 };
	se.type = rec->type;
	se.misc = rec->misc;
	se.time = (ev->sample.sample_type & HWPROF_SAMPLE_TIME) ? ev->sample.time : 0;
	se.cpu = (ev->sample.sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)ev->sample.cpu : -1;
	if ((rec->type == HWPROF_RECORD_SWITCH_CPU_WIDE || rec->type == HWPROF_RECORD_SWITCH) && rec->size >= 16) {
		se.pid = (int32_t)ld32(rec->data + 8);
		se.tid = (int32_t)ld32(rec->data + 12);
	} else if (rec->type == HWPROF_RECORD_EXIT && rec->size >= 24) {
		se.pid = (int32_t)ld32(rec->data + 8);
		se.tid = (int32_t)ld32(rec->data + 16);
	}
	int r = hwprof_spe_synth_event(x->synth, &se);
	out_flush(x);
	if (r < 0)
		return fail(x, "Arm SPE synthesis failed");
	return 0;
}

int script_spe_flush(struct script_spe *x)
{
	if (x->failed)
		return 1;
	if (!x->synth)
		return 0;
	int r = x->itrace.dont_decode ? 0 : hwprof_spe_synth_flush(x->synth);
	out_flush(x);
	if (r < 0)
		return fail(x, "Arm SPE synthesis failed");
	/* perf's ui__warning at the end of timed decoding (--no-itrace too) */
	if (!x->timeless && !hwprof_spe_synth_used_context(x->synth)) {
		fflush(x->f);
		fprintf(stderr, "Warning:\nArm SPE CONTEXT packets not found in the traces.\n"
				"Matching of TIDs to SPE events could be inaccurate.\n");
	}
	return 0;
}
