/* hwprof script over Intel PT data (see script_pt.h). perf 6.1 sets up its
 * decoder at the AUXTRACE_INFO record and adds the synthesized events
 * (branches, then instructions) there; in timeless mode it decodes every
 * queue, in queue order, when the input ends. We do the same: MMAP/MMAP2
 * records build the code image, AUXTRACE buffers are gathered per queue
 * (the record's idx), and the flush decodes and prints. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/print_pt_samples.h"
#include "cli/script_pt.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/intel_pt_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/regs.h"
#include "util/bytes.h"

#define AUXTRACE_INTEL_PT 1
#define MAX_QUEUES 1024
#define KERNEL_START 0xffff800000000000ULL
#define PERF_TYPE_SYNTH 0x80000000u
#define PT_CFG_PWR_EVT 0x10ULL          /* intel_pt config: power events */
#define PT_CFG_EVENT_TRACE (1ULL << 31) /* intel_pt config: event trace */

struct pt_queue {
	uint8_t *buf;
	size_t len, cap;
	int32_t tid, cpu;
	uint64_t ref;   /* the first buffer's reference TSC */
};

/* Symbol text of recent addresses: samples of a trace come back to the
 * same few thousand branch addresses over and over. */
#define SYMC_SIZE 4096
#define SYMC_TEXT 232
struct symc_entry {
	uint64_t addr;
	uint16_t len;         /* 0: empty */
	char text[SYMC_TEXT];
};

struct script_pt {
	struct script_printer *p;
	struct hwprof_session *s;
	struct hwprof_perfdata *h;
	struct hwprof_itrace_opts itrace;   /* effective */
	FILE *f;
	bool active, failed;
	struct hwprof_pt_image *img;
	struct hwprof_pt_synth_config cfg;
	struct pt_queue *q;
	size_t nq;
	struct pt_print_fmt fmt;
	char names[HWPROF_PT_SAMPLE_KIND_NR][64];
	uint64_t nerrors;
	uint64_t events;          /* samples so far, for s<N> across queues */
	bool native;              /* the file's arch is this machine's: perf
				   * then reads missing instruction bytes itself */
	struct symc_entry *symc; /* for the queue being printed */
};

/* SF fields the PT lines can print */
static const uint64_t synth_fields = SFB(SF_COMM) | SFB(SF_TID) | SFB(SF_PID) | SFB(SF_TIME) | SFB(SF_CPU) |
				     SFB(SF_EVNAME) | SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_DSO) | SFB(SF_ADDR) |
				     SFB(SF_SYMOFFSET) | SFB(SF_PERIOD) | SFB(SF_SYNTH) | SFB(SF_MISC) |
				     SFB(SF_INSN) | SFB(SF_INSNLEN) | SFB(SF_CALLINDENT);
static const uint64_t pt_fields = SFB(SF_COMM) | SFB(SF_TID) | SFB(SF_PID) | SFB(SF_TIME) | SFB(SF_CPU) |
				  SFB(SF_EVNAME) | SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_DSO) | SFB(SF_ADDR) |
				  SFB(SF_SYMOFFSET) | SFB(SF_PERIOD) | SFB(SF_FLAGS) | SFB(SF_INSN) |
				  SFB(SF_INSNLEN) | SFB(SF_IPC) | SFB(SF_MISC) | SFB(SF_SYNTH) | SFB(SF_CALLINDENT);

int script_pt_new(struct script_pt **out, struct script_printer *p, struct hwprof_session *s,
		  const struct hwprof_itrace_opts *itrace, FILE *f)
{
	struct script_pt *x = calloc(1, sizeof(*x));
	if (!x)
		return -HWPROF_E_NOMEM;
	x->p = p;
	x->s = s;
	x->h = hwprof_session_data(s);
	x->itrace = *itrace;
	if (!x->itrace.set && !x->itrace.dont_decode)
		hwprof_itrace_opts_default(&x->itrace, true);
	x->f = f;
	*out = x;
	return 0;
}

void script_pt_free(struct script_pt *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nq; i++)
		free(x->q[i].buf);
	free(x->q);
	free(x->symc);
	free(x->fmt.out);
	hwprof_pt_image_free(x->img);
	free(x);
}

static int fail(struct script_pt *x, const char *msg)
{
	x->failed = true;
	pt_print_flush(x->f, &x->fmt);
	fflush(x->f);
	cli_error("script", "%s", msg);
	return 1;
}

static size_t pt_sym(void *ctx, bool synth, uint64_t addr, char *buf, size_t size)
{
	struct script_pt *x = ctx;
	unsigned mode = addr >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	if (synth) /* psb, cbr: rare, with their own fields */
		return script_sym_text(x->p, OT_SYNTH, x->fmt.pid, x->fmt.tid, mode, addr, buf, size);
	struct symc_entry *e = x->symc ? &x->symc[(addr ^ addr >> 12) % SYMC_SIZE] : NULL;
	if (e && e->len && e->addr == addr && e->len < size) {
		memcpy(buf, e->text, e->len);
		buf[e->len] = 0;
		return e->len;
	}
	size_t n = script_sym_text(x->p, OT_HW, x->fmt.pid, x->fmt.tid, mode, addr, buf, size);
	if (e && n && n < SYMC_TEXT) {
		e->addr = addr;
		e->len = (uint16_t)n;
		memcpy(e->text, buf, n);
	}
	return n;
}

static const char *pt_symname(void *ctx, uint64_t addr, const char **dso)
{
	struct script_pt *x = ctx;
	unsigned mode = addr >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	return script_sym_name(x->p, x->fmt.pid, x->fmt.tid, mode, addr, dso);
}

static size_t pt_chain(void *ctx, uint64_t addr, char *buf, size_t size)
{
	struct script_pt *x = ctx;
	unsigned mode = addr >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	return script_chain_entry(x->p, OT_HW, x->fmt.pid, x->fmt.tid, mode, addr, buf, size);
}

static int pt_emit(void *ctx, const struct hwprof_pt_sample *s)
{
	struct script_pt *x = ctx;
	if (s->kind == HWPROF_PT_SAMPLE_ERROR) {
		x->nerrors++;
		print_pt_error(x->f, &x->fmt, s);
		return 0;
	}
	if (!s->insn_len && s->ip && x->native) {
		/* perf's script_fetch_insn(): the bytes at ip from the binary,
		 * as long as they decode */
		struct hwprof_pt_sample c = *s;
		uint8_t b[16];
		struct hwprof_pt_insn in;
		int n = hwprof_pt_image_read(x->img, s->ip, b, sizeof(b));
		if (n > 0 && hwprof_pt_insn_decode(b, (size_t)n, s->ip, 64, &in) > 0) {
			c.insn_len = in.len;
			memcpy(c.insn, b, in.len);
		}
		print_pt_sample(x->f, &x->fmt, &c);
		return 0;
	}
	print_pt_sample(x->f, &x->fmt, s);
	return 0;
}

/* The synthesized event as perf adds it: the PT event's sample_type and
 * exclude bits, TIME only when timed, CPU only with per-cpu buffers. */
static void synth_evsel(struct hwprof_evsel *e, const struct hwprof_evsel *pt, uint32_t type, uint64_t config,
			bool timeless, bool per_cpu)
{
	memset(e, 0, sizeof(*e));
	e->attr.type = type;
	e->attr.config = config;
	e->attr.sample_period = 1;
	uint64_t st = pt->attr.sample_type | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_PERIOD;
	if (timeless)
		st &= ~HWPROF_SAMPLE_TIME;
	else
		st |= HWPROF_SAMPLE_TIME;
	if (!per_cpu)
		st &= ~HWPROF_SAMPLE_CPU;
	if (type == 0 && config == 4 /* branch-instructions */)
		st |= HWPROF_SAMPLE_ADDR;
	/* after instructions perf drops PERIOD; its PERF_TYPE_SYNTH events
	 * carry RAW */
	if (type != 0 || config != 1)
		st &= ~HWPROF_SAMPLE_PERIOD;
	if (type == PERF_TYPE_SYNTH)
		st |= HWPROF_SAMPLE_RAW;
	e->attr.sample_type = st;
	const uint64_t excl = 1ULL << HWPROF_ATTR_EXCLUDE_USER | 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL |
			      1ULL << HWPROF_ATTR_EXCLUDE_HV | 1ULL << HWPROF_ATTR_EXCLUDE_HOST |
			      1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
	e->attr.flags = pt->attr.flags & excl;
}

/* perf 6.1's intel_pt_process_auxtrace_info() and intel_pt_synth_events() */
static int start(struct script_pt *x, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	if (rec->size < 16 + 9 * 8)
		return fail(x, "intel_pt AUXTRACE_INFO record too short");
	unsigned nr = (rec->size - 16) / 8;
#define PRIV(i) ld64(d + 16 + (i) * 8)
	uint64_t pmu_type = PRIV(0), cap_time_zero = PRIV(4), tsc_bit = PRIV(5), noretcomp_bit = PRIV(6);
	bool per_cpu = PRIV(9) != 0;
	struct hwprof_pt_flow_config *fc = &x->cfg.flow;
	fc->time_conv.time_shift = (uint16_t)PRIV(1);
	fc->time_conv.time_mult = (uint32_t)PRIV(2);
	fc->time_conv.time_zero = PRIV(3);
	uint64_t mtc_bits = nr > 11 ? PRIV(11) : 0;
	uint64_t cyc_bit = nr > 14 ? PRIV(14) : 0, mtc_bit = nr > 10 ? PRIV(10) : 0;
	if (nr > 13) {
		fc->tsc_ctc_n = (uint32_t)PRIV(12);
		fc->tsc_ctc_d = (uint32_t)PRIV(13);
	}
	if (nr > 15)
		fc->max_nonturbo_ratio = (unsigned)PRIV(15);
#undef PRIV
	const struct hwprof_evsel *pt = NULL;
	bool timeless = true, have_time = true;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(x->h); i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(x->h, i);
		if (!(e->attr.sample_type & HWPROF_SAMPLE_TIME))
			have_time = false;
		if (!pt && e->attr.type == pmu_type && e->nr_ids)
			pt = e;
	}
	if (!pt) /* perf says so only in its debug output and shows nothing */
		return 0;
	if (pt->attr.config & noretcomp_bit)
		fc->flags |= HWPROF_PT_FLOW_NORETCOMP;
	fc->flags |= HWPROF_PT_FLOW_RESYNC_IP; /* perf's error recovery */
	if (mtc_bits)
		fc->mtc_freq = (unsigned)((pt->attr.config & mtc_bits) >> __builtin_ctzll(mtc_bits));
	/* perf decodes without time unless the tsc bit is on, the kernel
	 * gave time_zero (cap_user_time_zero) and every event samples time */
	timeless = !tsc_bit || !(pt->attr.config & tsc_bit) || !cap_time_zero || !have_time ||
		   x->itrace.timeless;
	x->cfg.timed = !timeless;
	if (per_cpu)
		return fail(x, "Intel PT per-cpu traces are not supported yet (per-thread only)");
	unsigned kinds;
	const char *what;
	if (hwprof_pt_synth_kinds(&x->itrace, &kinds, &what) < 0) {
		char msg[160];
		snprintf(msg, sizeof(msg), "--itrace option %s is not supported for Intel PT yet", what);
		return fail(x, msg);
	}
	if (hwprof_pt_image_new(&x->img) < 0)
		return fail(x, "out of memory");
	const uint8_t *arch;
	uint64_t arch_size;
	if (hwprof_perfdata_feature(x->h, HWPROF_FEAT_ARCH, &arch, &arch_size, NULL) == 1 && arch_size > 4) {
		char name[64];
		size_t n = arch_size - 4 < sizeof(name) - 1 ? (size_t)arch_size - 4 : sizeof(name) - 1;
		memcpy(name, arch + 4, n);
		name[n] = 0;
		enum hwprof_arch a = hwprof_arch_from_name(name);
		x->native = a != HWPROF_ARCH_UNKNOWN && a == hwprof_arch_host();
	}
	x->cfg.itrace = x->itrace;
	x->cfg.img = x->img;
	x->cfg.events = &x->events;
	x->cfg.emit = pt_emit;
	x->cfg.ctx = x;
	/* perf adds its events in this order; the first of each output type
	 * is checked against the fields like the file's events were */
	if ((x->itrace.pwr_events && (pt->attr.config & PT_CFG_PWR_EVT)) ||
	    (x->itrace.intr_events && (pt->attr.config & PT_CFG_EVENT_TRACE)))
		return fail(x, "Intel PT power-event and event-trace samples (mwait, pwre, exstop, pwrx, evt, "
			       "iflag) are not supported yet; leave out p / I from --itrace");
	for (uint32_t i = 0; x->itrace.other_events && i < hwprof_perfdata_nr_evsels(x->h); i++)
		if (hwprof_perfdata_evsel(x->h, i)->attr.flags & 1ULL << HWPROF_ATTR_AUX_OUTPUT)
			return fail(x, "Intel PT PEBS-via-PT samples (aux_output events) are not supported yet; "
				       "leave out o from --itrace");
	struct { bool on; uint32_t type; uint64_t config; int kind; const char *name; } evs[] = {
		{ x->itrace.branches, 0, 4, HWPROF_PT_SAMPLE_BRANCHES, NULL },
		{ x->itrace.instructions, 0, 1, HWPROF_PT_SAMPLE_INSTRUCTIONS, NULL },
		{ x->itrace.transactions, 0, 1, -1, "transactions" },
		{ x->itrace.ptwrites, PERF_TYPE_SYNTH, 0, -1, "ptwrite" },
		{ x->itrace.pwr_events, PERF_TYPE_SYNTH, 4, HWPROF_PT_SAMPLE_CBR, "cbr" },
		{ x->itrace.pwr_events, PERF_TYPE_SYNTH, 5, HWPROF_PT_SAMPLE_PSB, "psb" },
	};
	bool checked[2] = { false, false };
	x->active = true;
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		if (!evs[i].on)
			continue;
		struct hwprof_evsel e;
		char buf[64];
		synth_evsel(&e, pt, evs[i].type, evs[i].config, timeless, per_cpu);
		const char *name = evs[i].name ? evs[i].name : hwprof_evsel_name(&e, buf, sizeof(buf));
		script_printer_add_event_name(x->p, name);
		if (evs[i].kind >= 0)
			snprintf(x->names[evs[i].kind], sizeof(x->names[0]), "%s", name);
		bool synth = evs[i].type == PERF_TYPE_SYNTH;
		if (checked[synth])
			continue;
		checked[synth] = true;
		e.name = name;
		if (script_printer_check_synth(x->p, &e) < 0) {
			x->failed = true;
			return 1;
		}
		uint64_t sf = script_printer_fields(x->p, synth ? OT_SYNTH : OT_HW);
		uint64_t ok = synth ? synth_fields : pt_fields;
		for (unsigned f = 0; f < SF_NR; f++)
			if ((sf & SFB(f)) && !(ok & SFB(f))) {
				char msg[128];
				snprintf(msg, sizeof(msg), "field '%s' is not supported for Intel PT samples yet",
					 script_field_name(f));
				return fail(x, msg);
			}
	}
	x->fmt.fields_hw = checked[0] ? script_printer_fields(x->p, OT_HW) : 0;
	/* IPC needs perf's cycle counting (CYC, or TSC/MTC with the core
	 * ratio), not done yet; without timing packets perf prints no IPC */
	if ((x->fmt.fields_hw & SFB(SF_IPC)) && (pt->attr.config & (cyc_bit | tsc_bit | mtc_bit)))
		return fail(x, "field 'ipc' is not supported for Intel PT traces with timing packets yet");
	x->fmt.fields_synth = checked[1] ? script_printer_fields(x->p, OT_SYNTH) : 0;
	x->fmt.nanosecs = script_printer_nanosecs(x->p);
	x->fmt.print_flags = script_printer_print_flags(x->p);
	x->fmt.addr_default = !script_printer_user_set(x->p, OT_HW);
	for (unsigned k = 0; k < HWPROF_PT_SAMPLE_KIND_NR; k++)
		x->fmt.names[k] = x->names[k];
	x->fmt.sym = pt_sym;
	x->fmt.symname = pt_symname;
	x->fmt.chain = pt_chain;
	/* perf turns callchains back on for g, even after -G */
	x->fmt.callchains = x->itrace.callchain;
	x->fmt.out_cap = 1 << 16;
	x->fmt.out = malloc(x->fmt.out_cap);
	if (!x->fmt.out)
		x->fmt.out_cap = 0;
	x->fmt.ctx = x;
	x->fmt.pad_dso = script_printer_pad_dso(x->p);
	/* perf keeps the thread stack for the callindent column */
	x->cfg.thread_stack = (x->fmt.fields_hw & SFB(SF_CALLINDENT)) != 0 || x->itrace.callchain;
	return 0;
}

static int add_map(struct script_pt *x, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	size_t fo = rec->type == HWPROF_RECORD_MMAP ? 40 : 72;
	if (rec->size <= fo)
		return 0;
	char file[4096];
	size_t fl = strnlen((const char *)d + fo, rec->size - fo);
	if (fl >= sizeof(file))
		return 0;
	memcpy(file, d + fo, fl);
	file[fl] = 0;
	/* code of files only: anonymous and special maps have no bytes here */
	if (file[0] == '/' && hwprof_pt_image_add_file(x->img, file, ld64(d + 32), ld64(d + 24), ld64(d + 16)) ==
				      -HWPROF_E_NOMEM)
		return fail(x, "out of memory");
	return 0;
}

static int add_buffer(struct script_pt *x, const struct hwprof_record *rec)
{
	if (rec->size < 48 || !rec->payload)
		return 0;
	const uint8_t *d = rec->data;
	uint32_t idx = ld32(d + 32);
	if (idx >= MAX_QUEUES) {
		char msg[128];
		snprintf(msg, sizeof(msg), "offset %#llx: AUXTRACE idx %u (more than %d queues)",
			 (unsigned long long)rec->offset, idx, MAX_QUEUES);
		return fail(x, msg);
	}
	if (idx >= x->nq) {
		struct pt_queue *nq = realloc(x->q, (idx + 1) * sizeof(*nq));
		if (!nq)
			return fail(x, "out of memory");
		memset(nq + x->nq, 0, (idx + 1 - x->nq) * sizeof(*nq));
		x->q = nq;
		x->nq = idx + 1;
	}
	struct pt_queue *q = &x->q[idx];
	if (!q->len) {
		q->tid = (int32_t)ld32(d + 36);
		q->cpu = (int32_t)ld32(d + 40);
		q->ref = ld64(d + 24);
	}
	size_t n = (size_t)rec->payload_size;
	if (q->len + n > q->cap) {
		size_t c = q->cap ? q->cap : 1 << 16;
		while (c < q->len + n)
			c *= 2;
		uint8_t *b = realloc(q->buf, c);
		if (!b)
			return fail(x, "out of memory");
		q->buf = b;
		q->cap = c;
	}
	memcpy(q->buf + q->len, rec->payload, n);
	q->len += n;
	return 0;
}

int script_pt_event(struct script_pt *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	if (x->failed)
		return 1;
	if (rec->type == HWPROF_RECORD_AUXTRACE_INFO) {
		if (!x->active && !x->itrace.dont_decode && rec->size >= 16 &&
		    ld32(rec->data + 8) == AUXTRACE_INTEL_PT)
			return start(x, rec);
		return 0;
	}
	if (!x->active)
		return 0;
	switch (rec->type) {
	case HWPROF_RECORD_MMAP:
	case HWPROF_RECORD_MMAP2:
		return add_map(x, rec);
	case HWPROF_RECORD_AUXTRACE:
		return add_buffer(x, rec);
	default:
		return 0;
	}
}

int script_pt_flush(struct script_pt *x)
{
	if (x->failed)
		return 1;
	if (!x->active)
		return 0;
	size_t used = 0;
	for (size_t i = 0; i < x->nq; i++)
		used += x->q[i].len != 0;
	/* perf interleaves the samples of several queues by their times as
	 * it goes through the file's events; with one queue, order is the
	 * queue's own */
	if (x->cfg.timed && used > 1)
		return fail(x, "Intel PT traces of several threads decoded with timestamps are not supported "
			       "yet; --itrace=...Z decodes them without timestamps");
	for (size_t i = 0; i < x->nq; i++) {
		struct pt_queue *q = &x->q[i];
		if (!q->len)
			continue;
		x->fmt.tid = q->tid;
		x->fmt.pid = q->tid >= 0 ? hwprof_session_thread_pid(x->s, q->tid) : -1;
		x->fmt.cpu = q->cpu;
		const char *comm = hwprof_session_thread_comm(x->s, x->fmt.pid, x->fmt.tid);
		x->fmt.comm = comm ? comm : ":-1";
		/* the maps are complete at the end: cache per queue (thread) */
		if (!x->symc)
			x->symc = malloc(SYMC_SIZE * sizeof(*x->symc));
		if (x->symc)
			for (size_t k = 0; k < SYMC_SIZE; k++)
				x->symc[k].len = 0;
		if (((x->fmt.fields_hw | x->fmt.fields_synth) & SFB(SF_EVNAME)) && !x->fmt.name_width)
			x->fmt.name_width = script_printer_name_width(x->p);
		x->cfg.flow.ref_tsc = q->ref;
		int rc = hwprof_pt_synth_queue(&x->cfg, q->buf, q->len);
		if (rc == -HWPROF_E_UNSUPPORTED)
			return fail(x, "Intel PT: the trace has TSX transaction, PTWRITE, power or event-trace "
				       "packets, whose samples are not supported yet (leave out x / w / p / I)");
		if (rc < 0)
			return fail(x, hwprof_strerror(rc));
	}
	pt_print_flush(x->f, &x->fmt);
	if (x->nerrors) {
		fflush(x->f);
		fprintf(stderr, "Warning:\n%llu instruction trace errors\n", (unsigned long long)x->nerrors);
	}
	return 0;
}
