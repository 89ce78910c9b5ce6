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
#include "cli/pt_feed.h"
#include "cli/pt_sched.h"
#include "cli/script_pt.h"
#include "cli/time_range.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/intel_pt_synth.h"
#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "util/bytes.h"

#define AUXTRACE_INTEL_PT 1
#define KERNEL_START 0xffff800000000000ULL
#define PT_CFG_PWR_EVT 0x10ULL          /* intel_pt config: power events */
#define PT_CFG_EVENT_TRACE (1ULL << 31) /* intel_pt config: event trace */

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
	bool failed;
	struct pt_feed feed;                /* configuration, image, queues */
	struct pt_print_fmt fmt;
	char names[HWPROF_PT_SAMPLE_KIND_NR][64];
	uint64_t events;          /* samples so far, for s<N> across queues */
	struct symc_entry *symc; /* for the queue being printed */
	bool symc_valid;
	/* timed, with events of the file's own to print among the trace's
	 * samples: decoded as the events are read (NULL: at the end) */
	struct pt_sched *sched;
	script_drops_fn drops;   /* perf script's sample filters (NULL: none) */
	void *drops_ctx;
	bool side;                  /* --show-*-events: records printed too */
	const struct time_ranges *tr; /* --time (NULL: none) */
	bool shift_time;            /* --reltime / --deltatime */
};

static void select_queue(void *ctx, size_t i, size_t at, bool ran);
static int synth_failed(struct script_pt *x, int rc);

/* The event column's width, once the first lines are due (every event
 * name is known by then) */
static void set_name_width(struct script_pt *x)
{
	if (((x->fmt.fields_hw | x->fmt.fields_synth) & SFB(SF_EVNAME)) && !x->fmt.name_width)
		x->fmt.name_width = script_printer_name_width(x->p);
}

/* SF fields the PT lines can print */
static const uint64_t synth_fields = SFB(SF_COMM) | SFB(SF_TID) | SFB(SF_PID) | SFB(SF_TIME) | SFB(SF_CPU) |
				     SFB(SF_EVNAME) | SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_DSO) | SFB(SF_ADDR) |
				     SFB(SF_SYMOFFSET) | SFB(SF_PERIOD) | SFB(SF_SYNTH) | SFB(SF_MISC) |
				     SFB(SF_INSN) | SFB(SF_INSNLEN) | SFB(SF_CALLINDENT) | SFB(SF_BRSTACK) |
				     SFB(SF_BRSTACKSYM) | SFB(SF_SRCLINE) | SFB(SF_IPC);
static const uint64_t pt_fields = SFB(SF_COMM) | SFB(SF_TID) | SFB(SF_PID) | SFB(SF_TIME) | SFB(SF_CPU) |
				  SFB(SF_EVNAME) | SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_DSO) | SFB(SF_ADDR) |
				  SFB(SF_SYMOFFSET) | SFB(SF_PERIOD) | SFB(SF_FLAGS) | SFB(SF_INSN) |
				  SFB(SF_INSNLEN) | SFB(SF_IPC) | SFB(SF_MISC) | SFB(SF_SYNTH) | SFB(SF_CALLINDENT) |
				  SFB(SF_BRSTACK) | SFB(SF_BRSTACKSYM) | SFB(SF_BRSTACKOFF) | SFB(SF_SRCLINE);

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
	pt_feed_init(&x->feed, x->h, script_printer_symbols(p), &x->itrace);
	*out = x;
	return 0;
}

void script_pt_options(struct script_pt *x, script_drops_fn drops, void *ctx, bool side,
		       const struct time_ranges *tr)
{
	x->drops = drops;
	x->drops_ctx = ctx;
	x->side = side;
	x->tr = tr;
	x->shift_time = script_printer_time_shifts(x->p);
}

void script_pt_cpu_filter(struct script_pt *x, const struct report_filter *f)
{
	x->feed.cpu_filter = f && f->cpus_set ? f : NULL;
}

void script_pt_free(struct script_pt *x)
{
	if (!x)
		return;
	pt_sched_close(x->sched, false);
	pt_feed_fini(&x->feed);
	free(x->symc);
	free(x->fmt.out);
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
	return script_sym_text(x->p, synth ? OT_SYNTH : OT_HW, x->fmt.pid, x->fmt.tid, mode, addr, buf, size);
}

/* The "%16lx" of addr and its symbol text, kept per address */
static size_t pt_addrsym(void *ctx, uint64_t addr, char *buf, size_t size)
{
	struct script_pt *x = ctx;
	struct symc_entry *e = x->symc ? &x->symc[(addr ^ addr >> 12) % SYMC_SIZE] : NULL;
	if (e && e->len && e->addr == addr && e->len < size) {
		memcpy(buf, e->text, e->len);
		buf[e->len] = 0;
		return e->len;
	}
	if (size <= 16)
		return 0;
	uint64_t v = addr;
	int k = 16;
	do {
		buf[--k] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v && k);
	memset(buf, ' ', (size_t)k);
	if (v) { /* cannot happen: 64 bits are 16 digits */
		buf[0] = 0;
		return 0;
	}
	unsigned mode = addr >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	size_t n = 16 + script_sym_text(x->p, OT_HW, x->fmt.pid, x->fmt.tid, mode, addr, buf + 16, size - 16);
	if (e && n < SYMC_TEXT) {
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

static size_t pt_brend(void *ctx, uint64_t ip, uint64_t addr, bool sym, bool dso, char *buf, size_t size)
{
	struct script_pt *x = ctx;
	unsigned mode = ip >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	return script_branch_end(x->p, x->fmt.pid, x->fmt.tid, mode, addr, sym, dso, buf, size);
}

static size_t pt_srcline(void *ctx, uint64_t addr, char *buf, size_t size)
{
	struct script_pt *x = ctx;
	unsigned mode = addr >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	return script_srcline_text(x->p, x->fmt.pid, x->fmt.tid, mode, addr, buf, size);
}

static uint64_t pt_broff(void *ctx, uint64_t ip, uint64_t addr)
{
	struct script_pt *x = ctx;
	unsigned mode = ip >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	return script_branch_offset(x->p, x->fmt.pid, x->fmt.tid, mode, addr);
}

static int pt_emit(void *ctx, const struct hwprof_pt_sample *s)
{
	struct script_pt *x = ctx;
	/* perf delivers what its decoder synthesizes through the session,
	 * which counts it with the file's records (the errors too) */
	hwprof_session_count_synth(x->s, s->kind == HWPROF_PT_SAMPLE_ERROR ? HWPROF_RECORD_AUXTRACE_ERROR
									   : HWPROF_RECORD_SAMPLE, 1);
	if (s->kind == HWPROF_PT_SAMPLE_ERROR) {
		print_pt_error(x->f, &x->fmt, s);
		return 0;
	}
	/* perf script's --time check comes first (a time of 0, timeless
	 * decoding's, is in every range) */
	if (x->tr && time_ranges_skip(x->tr, s->time))
		return 0;
	struct hwprof_pt_sample shifted;
	if (x->shift_time) {
		shifted = *s;
		shifted.time = script_printer_shown_time(x->p, s->time);
		s = &shifted;
	}
	/* perf script fetches each printed sample's instruction from its
	 * file: one it cannot read counts as tried (see below) */
	if (x->feed.native && s->ip && !s->insn_len)
		hwprof_pt_image_mark_unreadable(pt_feed_image(&x->feed, x->fmt.pid), s->ip);
	if (x->drops) {
		/* perf's al.filtered of the synthesized sample, whose thread
		 * is the queue's and comm the one it had then */
		struct hwprof_sample sm;
		memset(&sm, 0, sizeof(sm));
		sm.pid = (uint32_t)x->fmt.pid;
		sm.tid = (uint32_t)x->fmt.tid;
		sm.cpu = (uint32_t)x->fmt.cpu;
		sm.ip = s->ip;
		sm.misc = s->ip >= KERNEL_START ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
		if (x->drops(x->drops_ctx, &sm, x->fmt.comm))
			return 0;
	}
	if (!s->insn_len && s->ip && x->feed.native && !x->feed.cfg.no_insn_bytes) {
		/* perf's script_fetch_insn(): the bytes at ip from the binary,
		 * as long as they decode */
		struct hwprof_pt_sample c = *s;
		uint8_t b[16];
		struct hwprof_pt_insn in;
		int n = hwprof_pt_image_read(pt_feed_image(&x->feed, x->fmt.pid), s->ip, b, sizeof(b));
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

/* perf 6.1's intel_pt_process_auxtrace_info() and intel_pt_synth_events() */
static int start(struct script_pt *x, const struct hwprof_record *rec)
{
	const char *why = pt_feed_start(&x->feed, rec);
	if (why)
		return fail(x, why);
	const struct hwprof_evsel *pt = x->feed.pt;
	if (!x->feed.active)
		return 0;
	if (pt_feed_time_ranges(&x->feed, x->tr) < 0)
		return fail(x, "out of memory");
	x->feed.cfg.events = &x->events;
	x->feed.cfg.emit = pt_emit;
	x->feed.cfg.ctx = x;
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
		{ x->itrace.ptwrites, PT_FEED_TYPE_SYNTH, 0, -1, "ptwrite" },
		{ x->itrace.pwr_events, PT_FEED_TYPE_SYNTH, 4, HWPROF_PT_SAMPLE_CBR, "cbr" },
		{ x->itrace.pwr_events, PT_FEED_TYPE_SYNTH, 5, HWPROF_PT_SAMPLE_PSB, "psb" },
	};
	bool checked[2] = { false, false };
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		if (!evs[i].on)
			continue;
		struct hwprof_evsel e;
		char buf[64];
		pt_feed_synth_evsel(&x->feed, &e, evs[i].type, evs[i].config);
		const char *name = evs[i].name ? evs[i].name : hwprof_evsel_name(&e, buf, sizeof(buf));
		script_printer_add_event_name(x->p, name);
		if (evs[i].kind >= 0)
			snprintf(x->names[evs[i].kind], sizeof(x->names[0]), "%s", name);
		bool synth = evs[i].type == PT_FEED_TYPE_SYNTH;
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
	/* IPC: perf's cycle count from CYC packets, or from TSC/MTC and the
	 * core ratio */
	x->feed.cfg.ipc = (x->fmt.fields_hw & SFB(SF_IPC)) != 0;
	x->fmt.fields_synth = checked[1] ? script_printer_fields(x->p, OT_SYNTH) : 0;
	/* instruction bytes are read for the lines that show them only */
	x->feed.cfg.no_insn_bytes = !((x->fmt.fields_hw | x->fmt.fields_synth) & (SFB(SF_INSN) | SFB(SF_INSNLEN)));
	x->fmt.nanosecs = script_printer_nanosecs(x->p);
	x->fmt.print_flags = script_printer_print_flags(x->p);
	x->fmt.addr_default = !script_printer_user_set(x->p, OT_HW);
	for (unsigned k = 0; k < HWPROF_PT_SAMPLE_KIND_NR; k++)
		x->fmt.names[k] = x->names[k];
	x->fmt.sym = pt_sym;
	x->fmt.addrsym = pt_addrsym;
	x->fmt.symname = pt_symname;
	x->fmt.chain = pt_chain;
	x->fmt.brend = pt_brend;
	x->fmt.broff = pt_broff;
	x->fmt.srcline = pt_srcline;
	/* perf turns callchains back on for g, even after -G */
	x->fmt.callchains = x->itrace.callchain;
	x->fmt.out_cap = 1 << 16;
	x->fmt.out = malloc(x->fmt.out_cap);
	if (!x->fmt.out)
		x->fmt.out_cap = 0;
	x->fmt.ctx = x;
	x->fmt.pad_dso = script_printer_pad_dso(x->p);
	/* perf keeps the thread stack for the callindent column */
	x->feed.cfg.thread_stack = (x->fmt.fields_hw & SFB(SF_CALLINDENT)) != 0 || x->itrace.callchain;
	/* the file's own samples go among the trace's in perf's order when
	 * the queues are decoded as the events are read, which needs their
	 * data first (a file: read ahead; a stream: decoded at the end) */
	/* perf decodes timeless traces at their thread's exit or the end:
	 * records it prints come in between, which we do not order yet */
	if (x->side && !x->feed.cfg.timed)
		return fail(x, "--show-*-events with Intel PT traces decoded without timestamps are not supported yet");
	if (x->feed.cfg.timed && (x->feed.others || x->side)) {
		int r = pt_feed_prescan(&x->feed, hwprof_perfdata_name(x->h));
		if (r < 0 || (r == 0 && pt_sched_open(&x->sched, &x->feed, select_queue, x) < 0))
			return fail(x, "out of memory");
		if (!x->sched && (x->itrace.add_callchain || x->itrace.add_last_branch || x->side))
			return fail(x, "--itrace options G and L and --show-*-events need the trace decoded as the "
				       "events are read, which a stream cannot give (its trace is decoded at its end); "
				       "read a file");
	}
	/* G: perf gives every event callchains (and shows them) */
	if (x->itrace.add_callchain && x->feed.others)
		script_printer_synth_callchain(x->p);
	return 0;
}

int script_pt_sample(struct script_pt *x, struct hwprof_event *ev)
{
	if (x->failed || !x->feed.active)
		return 0;
	/* perf script reads the instruction at each sample it prints (its
	 * script_fetch_insn()): a file it cannot open has its data status set
	 * to an error, so the decoder reports one failure there, not two */
	if (x->feed.native && ev->sample.ip)
		hwprof_pt_image_mark_unreadable(pt_feed_image(&x->feed, (int32_t)ev->sample.pid), ev->sample.ip);
	return pt_feed_add_late(&x->feed, &ev->sample) < 0 ? fail(x, "out of memory") : 0;
}

int script_pt_event(struct script_pt *x, const struct hwprof_event *ev)
{
	const struct hwprof_record *rec = &ev->rec;
	if (x->failed)
		return 1;
	if (rec->type == HWPROF_RECORD_AUXTRACE_INFO) {
		if (!x->feed.active && !x->itrace.dont_decode && rec->size >= 16 &&
		    ld32(rec->data + 8) == AUXTRACE_INTEL_PT)
			return start(x, rec);
		return 0;
	}
	if (!x->feed.active)
		return 0;
	const char *why = pt_feed_record(&x->feed, rec);
	if (why)
		return fail(x, why);
	size_t before = x->feed.nlimits;
	if (pt_feed_note_event(&x->feed, x->s, ev) < 0)
		return fail(x, "out of memory");
	if (x->sched && x->feed.nlimits > before) {
		/* the trace up to this event's time, before the event */
		set_name_width(x);
		int rc = pt_sched_advance(x->sched, x->feed.nlimits - 1);
		pt_print_flush(x->f, &x->fmt);
		if (rc < 0)
			return synth_failed(x, rc);
		if (rc)
			return 1;
	}
	return 0;
}

/* Before queue i's samples: whose they are. The symbol cache holds one
 * process' texts. */
static int32_t thread_pid(void *ctx, int32_t tid)
{
	struct script_pt *x = ctx;
	return hwprof_session_thread_pid(x->s, tid);
}

static void select_queue(void *ctx, size_t i, size_t at, bool ran)
{
	struct script_pt *x = ctx;
	struct pt_queue *q = &x->feed.q[i];
	int32_t pid, tid;
	pt_feed_select(&x->feed, i, at, ran, thread_pid, x, &pid, &tid);
	if (!x->symc)
		x->symc = malloc(SYMC_SIZE * sizeof(*x->symc));
	if (x->symc && (pid != x->fmt.pid || !x->symc_valid))
		for (size_t k = 0; k < SYMC_SIZE; k++)
			x->symc[k].len = 0;
	x->symc_valid = true;
	x->fmt.head.ok = false; /* the comm may have changed in place */
	x->fmt.tid = tid;
	x->fmt.pid = pid;
	x->fmt.cpu = q->cpu;
	const char *comm = pt_feed_comm_at(&x->feed, tid, at);
	if (!comm)
		comm = hwprof_session_thread_comm(x->s, x->fmt.pid, x->fmt.tid);
	x->fmt.comm = comm ? comm : ":-1";
}

static int synth_failed(struct script_pt *x, int rc)
{
	if (rc == -HWPROF_E_UNSUPPORTED)
		return fail(x, "Intel PT: the trace has TSX transaction, PTWRITE, power or event-trace "
			       "packets, whose samples are not supported yet (leave out x / w / p / I)");
	return fail(x, hwprof_strerror(rc));
}

int script_pt_flush(struct script_pt *x)
{
	if (x->failed)
		return 1;
	if (!x->feed.active)
		return 0;
	set_name_width(x);
	int rc = pt_sched_finish(&x->sched, &x->feed, select_queue, x);
	if (rc < 0)
		return synth_failed(x, rc);
	pt_print_flush(x->f, &x->fmt);
	return 0;
}
