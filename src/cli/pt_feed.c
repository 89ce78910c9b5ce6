/* Intel PT input for script and report (see pt_feed.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pt_feed.h"
#include "cli/pt_log.h"
#include "cli/pt_switch.h"
#include "cli/time_range.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/regs.h"
#include "util/bytes.h"
#include "util/grow.h"

#define MAX_QUEUES 1024

void pt_feed_init(struct pt_feed *f, struct hwprof_perfdata *h, struct hwprof_symbols *syms,
		  const struct hwprof_itrace_opts *itrace)
{
	memset(f, 0, sizeof(*f));
	f->h = h;
	f->syms = syms;
	f->itrace = *itrace;
}

void pt_feed_fini(struct pt_feed *f)
{
	for (size_t i = 0; i < f->nq; i++) {
		free(f->q[i].buf);
		free(f->q[i].bufs);
		free(f->q[i].prev);
	}
	free(f->q);
	free(f->ranges);
	free(f->limits);
	free(f->sw);
	free(f->cur);
	for (size_t i = 0; i < f->ncomms; i++)
		free(f->comms[i].old);
	free(f->comms);
	for (size_t i = 0; i < f->capstacks; i++)
		hwprof_pt_tstack_free(f->stacks[i].ts);
	free(f->stacks);
	free(f->late_chain);
	free(f->late_br);
	free(f->marks);
	pt_log_close(f);
	for (size_t i = 0; i < f->capspaces; i++)
		hwprof_pt_image_free(f->spaces[i].img);
	free(f->spaces);
	for (size_t i = 0; i < f->nold_spaces; i++)
		hwprof_pt_image_free(f->old_spaces[i]);
	free(f->old_spaces);
	hwprof_pt_image_free(f->img);
	memset(f, 0, sizeof(*f));
}

/* perf 6.1's intel_pt_process_auxtrace_info() */
const char *pt_feed_start(struct pt_feed *f, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	if (rec->size < 16 + 9 * 8)
		return "intel_pt AUXTRACE_INFO record too short";
	unsigned nr = (rec->size - 16) / 8;
#define PRIV(i) ld64(d + 16 + (i) * 8)
	uint64_t pmu_type = PRIV(0), cap_time_zero = PRIV(4), tsc_bit = PRIV(5), noretcomp_bit = PRIV(6);
	f->per_cpu = PRIV(9) != 0;
	bool snapshot = PRIV(8) != 0;
	f->have_sched_switch = (unsigned)PRIV(7);
	struct hwprof_pt_flow_config *fc = &f->cfg.flow;
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
	bool have_time = true, others = false;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(f->h); i++) {
		const struct hwprof_evsel *e = hwprof_perfdata_evsel(f->h, i);
		if (!(e->attr.sample_type & HWPROF_SAMPLE_TIME))
			have_time = false;
		if (!f->pt && e->attr.type == pmu_type && e->nr_ids)
			f->pt = e;
		/* events of the file's own besides the trace and perf's
		 * sideband dummy (G would give their samples callchains) */
		others |= e->attr.type != pmu_type &&
			  !(e->attr.type == HWPROF_TYPE_SOFTWARE && e->attr.config == 9 /* dummy */);
	}
	f->others = others;
	/* snapshot mode: perf cuts the overlap off each buffer and starts
	 * afresh at one that does not continue the one before
	 * (intel_pt_do_fix_overlap) */
	f->snapshot = snapshot;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(f->h); i++)
		if (hwprof_perfdata_evsel(f->h, i)->attr.sample_type & HWPROF_SAMPLE_AUX)
			return "Intel PT traces recorded in sampling mode (--aux-sample) are not supported yet";
	if (!f->pt) /* perf says so only in its debug output and shows nothing */
		return NULL;
	uint64_t config = f->pt->attr.config;
	f->have_tsc = tsc_bit && (config & tsc_bit);
	f->timing_bits = config & (cyc_bit | tsc_bit | mtc_bit);
	/* perf: pt on with branch off means no control flow packets */
	f->cfg.no_branch = (config & 1) && !(config & 0x2000);
	/* perf's branch ring with L: room for the branches between the
	 * sample's event and its record (about 200 measured, when the
	 * kernel is traced; else the one into the kernel) */
	if (f->itrace.add_last_branch) {
		unsigned sz = f->itrace.last_branch_sz ? f->itrace.last_branch_sz : HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
		f->cfg.ring_cap = sz + (f->pt->attr.flags & 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL ? 1 : 1024);
	}
	if (config & noretcomp_bit)
		fc->flags |= HWPROF_PT_FLOW_NORETCOMP;
	/* perf's decoder reads the CYC threshold from RTIT_CTL's layout */
	if (config & 2)
		fc->cyc_threshold = (unsigned)(config >> 19 & 0xf);
	/* perf: without the ratio in AUXTRACE_INFO, TSC frequency / 100 MHz
	 * (for CYC times and the cycle count) */
	if (!fc->max_nonturbo_ratio && fc->time_conv.time_mult) {
		uint64_t m = fc->time_conv.time_mult, ns = 1000000000ULL;
		unsigned sh = fc->time_conv.time_shift < 32 ? fc->time_conv.time_shift : 31;
		uint64_t tsc_freq = ((ns / m) << sh) + ((ns % m) << sh) / m;
		fc->max_nonturbo_ratio = (unsigned)((tsc_freq + 50000000) / 100000000);
	}
	fc->flags |= HWPROF_PT_FLOW_RESYNC_IP; /* perf's error recovery */
	if (mtc_bits)
		fc->mtc_freq = (unsigned)((config & mtc_bits) >> __builtin_ctzll(mtc_bits));
	/* perf decodes without time unless the tsc bit is on, the kernel
	 * gave time_zero (cap_user_time_zero) and every event samples time */
	f->cfg.timed = tsc_bit && (config & tsc_bit) && cap_time_zero && have_time && !f->itrace.timeless;
	/* perf follows the threads on each cpu through the kernel's switch
	 * records (or, tracing the kernel, its __switch_to in the trace) */
	if (f->have_sched_switch == 1)
		return "Intel PT traces with sched_switch tracepoints (perf record on kernels without context switch "
		       "records) are not supported yet";
	/* per-task switch records: only the traced tasks' switch-ins tell
	 * which thread a cpu runs (perf's intel_pt_context_switch()) */
	if (f->have_sched_switch == 2) {
		bool flag = false;
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(f->h); i++)
			flag |= (hwprof_perfdata_evsel(f->h, i)->attr.flags >> HWPROF_ATTR_CONTEXT_SWITCH) & 1;
		if (!flag)
			return "intel_pt_process_auxtrace_info: missing context_switch attribute flag";
	}
	/* decided when the queues first run, after the kernel's map (perf
	 * loads the kernel's symbols when it first decodes); perf follows
	 * switches through the trace with cpu-wide switch records only */
	f->want_switch_ip = f->per_cpu && f->cfg.timed && f->have_sched_switch == 3 &&
			    !(f->pt->attr.flags & 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL);
	if (f->itrace.quick && f->cfg.timed)
		return "--itrace option q (quick decoding) on a trace with timestamps is not supported for Intel PT "
		       "yet; --itrace=...Z decodes without";
	unsigned kinds;
	const char *what;
	if (hwprof_pt_synth_kinds(&f->itrace, &kinds, &what) < 0) {
		snprintf(f->msg, sizeof(f->msg), "--itrace option %s is not supported for Intel PT yet", what);
		return f->msg;
	}
	if (hwprof_pt_image_new(&f->img) < 0)
		return "out of memory";
	const uint8_t *arch;
	uint64_t arch_size;
	if (hwprof_perfdata_feature(f->h, HWPROF_FEAT_ARCH, &arch, &arch_size, NULL) == 1 && arch_size > 4) {
		char name[64];
		size_t n = arch_size - 4 < sizeof(name) - 1 ? (size_t)arch_size - 4 : sizeof(name) - 1;
		memcpy(name, arch + 4, n);
		name[n] = 0;
		enum hwprof_arch a = hwprof_arch_from_name(name);
		f->native = a != HWPROF_ARCH_UNKNOWN && a == hwprof_arch_host();
	}
	f->cfg.itrace = f->itrace;
	f->cfg.img = f->img;
	const char *why = pt_log_open(f);
	if (why)
		return why;
	f->active = true;
	return NULL;
}

/* perf's kernel maps: those of a vmlinux (-k, or one perf's search
 * finds), moved by the recorded reference symbol ("_text" at pgoff), or a
 * kcore copy's segments (perf record --kcore), where it reads the code;
 * without either, code that cannot be read, to the end of the address
 * space if len is 0 */
static int add_kernel(struct pt_feed *f, struct hwprof_pt_image *img, const char *ref, uint64_t pgoff,
		      uint64_t start, uint64_t len)
{
	struct hwprof_kernel_map m;
	int rc = 0;
	size_t i = 0;
	if (f->syms) {
		if (*ref)
			hwprof_symbols_set_kernel_reloc(f->syms, ref, pgoff);
		for (; rc >= 0 && (rc = hwprof_symbols_kernel_map(f->syms, i, false, &m)) == 1; i++) {
			f->kernel_maps_only = m.only;
			if (m.file)
				rc = hwprof_pt_image_add_file(img, m.file, m.pgoff, m.end - m.start, m.start);
			else
				rc = hwprof_pt_image_add_missing(img, m.dso, m.end - m.start, m.start);
		}
	}
	if (rc < 0 || i)
		return rc;
	return hwprof_pt_image_add_missing(img, "[kernel.kallsyms]", len ? len : 0 - start, start);
}

/* The slot of pid's image (or the empty one where it would go). */
static size_t space_slot(const struct pt_feed *f, int32_t pid)
{
	size_t i = (size_t)((uint32_t)pid * 0x9e3779b97f4a7c15ULL >> 20) & (f->capspaces - 1);
	while (f->spaces[i].img && f->spaces[i].pid != pid)
		i = (i + 1) & (f->capspaces - 1);
	return i;
}

struct hwprof_pt_image *pt_feed_image(const struct pt_feed *f, int32_t pid)
{
	if (pid >= 0 && f->capspaces) {
		const struct pt_space *s = &f->spaces[space_slot(f, pid)];
		if (s->img)
			return s->img;
	}
	return f->img;
}

/* Process pid starts with a copy of from's maps (perf's maps__clone() at
 * a fork; the kernel's only for a process first seen in a map). */
static int new_space(struct pt_feed *f, int32_t pid, struct hwprof_pt_image *from)
{
	if (2 * (f->nspaces + 1) > f->capspaces) {
		size_t c = f->capspaces ? 2 * f->capspaces : 64, oc = f->capspaces;
		struct pt_space *old = f->spaces, *n = calloc(c, sizeof(*n));
		if (!n)
			return -HWPROF_E_NOMEM;
		f->spaces = n;
		f->capspaces = c;
		for (size_t k = 0; k < oc; k++)
			if (old[k].img)
				f->spaces[space_slot(f, old[k].pid)] = old[k];
		free(old);
	}
	struct hwprof_pt_image *img;
	int rc = hwprof_pt_image_fork(&img, from);
	if (rc < 0)
		return rc;
	struct pt_space *s = &f->spaces[space_slot(f, pid)];
	if (s->img) {
		if (util_grow((void **)&f->old_spaces, &f->capold_spaces, f->nold_spaces + 1,
			      sizeof(*f->old_spaces)) < 0) {
			hwprof_pt_image_free(img);
			return -HWPROF_E_NOMEM;
		}
		f->old_spaces[f->nold_spaces++] = s->img;
	} else {
		f->nspaces++;
	}
	s->pid = pid;
	s->img = img;
	return 0;
}

/* perf's FORK: a new process (not a thread) copies its parent's maps,
 * unless perf record made the record for a running process */
static int note_fork(struct pt_feed *f, const struct hwprof_record *rec)
{
	if (rec->size < 24)
		return 0;
	int32_t pid = (int32_t)ld32(rec->data + 8), ppid = (int32_t)ld32(rec->data + 12);
	if (pid == ppid || pid < 0)
		return 0;
	return new_space(f, pid, rec->misc & HWPROF_MISC_COMM_EXEC ? f->img : pt_feed_image(f, ppid));
}

static const char *add_map(struct pt_feed *f, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	size_t fo = rec->type == HWPROF_RECORD_MMAP ? 40 : 72;
	if (rec->size <= fo)
		return NULL;
	char file[4096];
	size_t fl = strnlen((const char *)d + fo, rec->size - fo);
	if (fl >= sizeof(file))
		return NULL;
	memcpy(file, d + fo, fl);
	file[fl] = 0;
	/* code of files only ([vdso], [heap]... have no bytes here); perf
	 * opens a relative name from the current directory */
	uint64_t start = ld64(d + 16), len = ld64(d + 24);
	int rc = 0;
	bool kernel = (rec->misc & 7) == HWPROF_MISC_KERNEL;
	if (kernel && f->kernel_maps_only && strncmp(file, "[kernel.kallsyms]", 17)) {
		/* a module's map, which a kcore copy replaces */
	} else if (kernel) {
		/* the kernel's maps are every process's */
		bool text = !strncmp(file, "[kernel.kallsyms]", 17);
		char code[4096];
		const char *path = text || !f->syms ? file : hwprof_symbols_code_path(f->syms, file, code, sizeof(code));
		for (size_t i = 0; rc != -HWPROF_E_NOMEM && i <= f->capspaces; i++) {
			struct hwprof_pt_image *img = i < f->capspaces ? f->spaces[i].img : f->img;
			if (!img)
				continue;
			if (text)
				rc = add_kernel(f, img, file + 17, ld64(d + 32), start, len);
			else if (file[0] && file[0] != '[')
				rc = hwprof_pt_image_add_file(img, path, ld64(d + 32), len, start);
		}
	} else if (file[0] && file[0] != '[') {
		char code[4096];
		const char *path = f->syms ? hwprof_symbols_code_path(f->syms, file, code, sizeof(code)) : file;
		int32_t pid = (int32_t)ld32(d + 8);
		if (pid >= 0 && pt_feed_image(f, pid) == f->img)
			rc = new_space(f, pid, f->img);
		if (rc >= 0)
			rc = hwprof_pt_image_add_file(pid >= 0 ? pt_feed_image(f, pid) : f->img, path, ld64(d + 32), len,
						      start);
	}
	return rc == -HWPROF_E_NOMEM ? "out of memory" : NULL;
}

static const char *add_buffer(struct pt_feed *f, const struct hwprof_record *rec)
{
	if (rec->size < 48 || !rec->payload)
		return NULL;
	const uint8_t *d = rec->data;
	uint32_t idx = ld32(d + 32);
	if (idx >= MAX_QUEUES) {
		snprintf(f->msg, sizeof(f->msg), "offset %#llx: AUXTRACE idx %u (more than %d queues)",
			 (unsigned long long)rec->offset, idx, MAX_QUEUES);
		return f->msg;
	}
	if (idx >= f->nq) {
		struct pt_queue *nq = realloc(f->q, (idx + 1) * sizeof(*nq));
		if (!nq)
			return "out of memory";
		memset(nq + f->nq, 0, (idx + 1 - f->nq) * sizeof(*nq));
		f->q = nq;
		f->nq = idx + 1;
	}
	int32_t cpu = (int32_t)ld32(d + 40);
	if (f->cpu_filter && cpu >= 0 && report_filter_drops_cpu(f->cpu_filter, cpu))
		return NULL;
	struct pt_queue *q = &f->q[idx];
	if (!q->len) {
		q->ref = ld64(d + 24);
		q->tid = (int32_t)ld32(d + 36);
		q->cpu = (int32_t)ld32(d + 40);
		q->next_tid = -1;
	}
	const uint8_t *data = rec->payload;
	size_t n = (size_t)rec->payload_size;
	bool fresh = !q->nbufs;
	if (f->snapshot) {
		/* perf cuts off what the queue's previous buffer holds too;
		 * a buffer with nothing new is passed by */
		if (q->prev) {
			bool consecutive;
			size_t start = hwprof_pt_find_overlap(q->prev, q->prev_len, data, n, f->have_tsc, &consecutive);
			if (start >= n)
				return NULL;
			fresh = !consecutive;
			data += start;
			n -= start;
		}
		uint8_t *prev = realloc(q->prev, rec->payload_size ? (size_t)rec->payload_size : 1);
		if (!prev)
			return "out of memory";
		memcpy(prev, rec->payload, (size_t)rec->payload_size);
		q->prev = prev;
		q->prev_len = (size_t)rec->payload_size;
	}
	if (util_grow((void **)&q->bufs, &q->capbufs, q->nbufs + 1, sizeof(*q->bufs)) < 0)
		return "out of memory";
	q->bufs[q->nbufs++] = (struct hwprof_pt_bufmark){ q->len, ld64(d + 24), fresh };
	if (q->len + n > q->cap) {
		size_t c = q->cap ? q->cap : 1 << 16;
		while (c < q->len + n)
			c *= 2;
		uint8_t *b = realloc(q->buf, c);
		if (!b)
			return "out of memory";
		q->buf = b;
		q->cap = c;
	}
	memcpy(q->buf + q->len, data, n);
	q->len += n;
	return NULL;
}

const char *pt_feed_record(struct pt_feed *f, const struct hwprof_record *rec)
{
	if (!f->active)
		return NULL;
	switch (rec->type) {
	case HWPROF_RECORD_MMAP:
	case HWPROF_RECORD_MMAP2:
		return add_map(f, rec);
	case HWPROF_RECORD_FORK:
		return note_fork(f, rec) == -HWPROF_E_NOMEM ? "out of memory" : NULL;
	case HWPROF_RECORD_AUXTRACE:
		return f->prescanned ? NULL : add_buffer(f, rec);
	default:
		return NULL;
	}
}

int pt_feed_prescan(struct pt_feed *f, const char *path)
{
	if (!path || !*path || !strcmp(path, "-"))
		return 1;
	struct hwprof_perfdata *h;
	if (hwprof_perfdata_open(&h, path, NULL) < 0)
		return 1;
	if (hwprof_perfdata_info(h)->pipe) {
		hwprof_perfdata_close(h);
		return 1;
	}
	struct hwprof_record rec;
	int r;
	while ((r = hwprof_perfdata_next(h, &rec)) > 0)
		if (rec.type == HWPROF_RECORD_AUXTRACE && add_buffer(f, &rec))
			break;
	hwprof_perfdata_close(h);
	if (r > 0) { /* add_buffer failed: the stream's reading will say why */
		for (size_t i = 0; i < f->nq; i++)
			f->q[i].len = 0;
		return 1;
	}
	/* a damaged file: the read ahead stops where the session will report
	 * it; what was read before is what perf has too */
	f->prescanned = true;
	return 0;
}

size_t pt_feed_queues_used(const struct pt_feed *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nq; i++)
		n += f->q[i].len != 0;
	return n;
}

void pt_feed_synth_evsel(const struct pt_feed *f, struct hwprof_evsel *e, uint32_t type, uint64_t config)
{
	memset(e, 0, sizeof(*e));
	e->attr.type = type;
	e->attr.config = config;
	e->attr.sample_period = 1;
	uint64_t st = f->pt->attr.sample_type | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_PERIOD;
	if (f->cfg.timed)
		st |= HWPROF_SAMPLE_TIME;
	else
		st &= ~HWPROF_SAMPLE_TIME;
	if (!f->per_cpu)
		st &= ~HWPROF_SAMPLE_CPU;
	if (type == 0 && config == 4 /* branch-instructions */)
		st |= HWPROF_SAMPLE_ADDR;
	/* after instructions perf drops PERIOD; its PERF_TYPE_SYNTH events
	 * carry RAW */
	if (type != 0 || config != 1)
		st &= ~HWPROF_SAMPLE_PERIOD;
	if (type == PT_FEED_TYPE_SYNTH)
		st |= HWPROF_SAMPLE_RAW;
	/* l: every event after branches carries a branch stack */
	if (f->itrace.last_branch && (type != 0 || config != 4))
		st |= HWPROF_SAMPLE_BRANCH_STACK;
	e->attr.sample_type = st;
	const uint64_t excl = 1ULL << HWPROF_ATTR_EXCLUDE_USER | 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL |
			      1ULL << HWPROF_ATTR_EXCLUDE_HV | 1ULL << HWPROF_ATTR_EXCLUDE_HOST |
			      1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
	e->attr.flags = f->pt->attr.flags & excl;
}

static int note_limit(struct pt_feed *f, uint64_t time);

/* perf's intel_pt_context_switch() and intel_pt_process_itrace_start():
 * with cpu-wide switch events (have_sched_switch 3) a switch-out names
 * the next thread and a switch-in the thread itself; otherwise only
 * switch-ins count */
static int note_switch(struct pt_feed *f, const struct hwprof_event *ev, uint64_t tsc)
{
	const struct hwprof_record *rec = &ev->rec;
	bool out = rec->misc & 0x2000; /* SWITCH_OUT */
	bool has_sample = ev->parse_err >= 0;
	struct pt_switch w = { .at = f->nlimits };
	if (rec->type == HWPROF_RECORD_ITRACE_START && f->per_cpu && rec->size >= 16) {
		w.kind = PT_SW_START;
		w.pid = (int32_t)ld32(rec->data + 8);
		w.tid = (int32_t)ld32(rec->data + 12);
	} else if (rec->type == HWPROF_RECORD_SWITCH_CPU_WIDE && out && f->have_sched_switch == 3 && rec->size >= 16) {
		w.kind = PT_SW_OUT;
		w.pid = (int32_t)ld32(rec->data + 8);
		w.tid = (int32_t)ld32(rec->data + 12);
	} else if ((rec->type == HWPROF_RECORD_SWITCH || rec->type == HWPROF_RECORD_SWITCH_CPU_WIDE) && !out &&
		   has_sample && (ev->sample.sample_type & HWPROF_SAMPLE_TID)) {
		w.kind = PT_SW_IN;
		w.pid = (int32_t)ev->sample.pid;
		w.tid = (int32_t)ev->sample.tid;
	} else {
		return 0;
	}
	if (util_grow(&f->sw, &f->capsw, f->nsw + 1, sizeof(*f->sw)) < 0)
		return -HWPROF_E_NOMEM;
	/* perf's sample cpu: 0 when the record carries none */
	w.cpu = has_sample && (ev->sample.sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)ev->sample.cpu : 0;
	w.tsc = tsc; /* the queue time a held queue resumes at */
	f->sw[f->nsw++] = w;
	return 0;
}

static int note_comm(struct pt_feed *f, struct hwprof_session *s, const struct hwprof_record *rec);

/* perf's machine__thread_dso_type() when it maps a [vdso]: it opens the
 * thread's files in address order until one tells its ELF class, so every
 * file before that which cannot be opened has its data status set to an
 * error (before the [vdso] map is added: the session is before it) */
static int note_vdso(struct pt_feed *f, struct hwprof_session *s, const struct hwprof_record *rec)
{
	if (rec->type != HWPROF_RECORD_MMAP && rec->type != HWPROF_RECORD_MMAP2)
		return 0;
	size_t fo = rec->type == HWPROF_RECORD_MMAP ? 40 : 72;
	if (rec->size <= fo + 6 || strncmp((const char *)rec->data + fo, "[vdso]", 7) ||
	    (rec->misc & 7) != HWPROF_MISC_USER)
		return 0;
	struct hwprof_map_info mi[256];
	int32_t pid = (int32_t)ld32(rec->data + 8);
	size_t n = hwprof_session_thread_maps(s, (int32_t)ld32(rec->data + 12), mi, 256);
	for (size_t i = 0; i < n && i < 256; i++) {
		if (!mi[i].dso || mi[i].dso[0] != '/')
			continue;
		uint8_t b;
		if (hwprof_pt_image_read(pt_feed_image(f, pid), mi[i].start, &b, 1) == 1)
			break; /* perf can read it: its ELF class ends the search */
		if (util_grow(&f->marks, &f->capmarks, f->nmarks + 1, sizeof(*f->marks)) < 0)
			return -HWPROF_E_NOMEM;
		f->marks[f->nmarks++] = (struct pt_mark){ .at = f->nlimits, .addr = mi[i].start, .pid = pid };
	}
	return 0;
}

int pt_feed_note_event(struct pt_feed *f, struct hwprof_session *s, const struct hwprof_event *ev)
{
	const struct hwprof_pt_time_conv *tc = &f->cfg.flow.time_conv;
	if (!f->active)
		return 0;
	/* perf runs the queues up to the record's time first, then takes
	 * its switch */
	int rc = 0;
	uint64_t tsc = 0; /* the record's time as a limit */
	if (f->cfg.timed && ev->rec.type < HWPROF_RECORD_USER_TYPE_START && ev->parse_err >= 0 &&
	    (ev->sample.sample_type & HWPROF_SAMPLE_TIME) && ev->sample.time && ev->sample.time != UINT64_MAX &&
	    tc->time_mult && (rc = note_limit(f, ev->sample.time)) >= 0)
		tsc = f->limits[f->nlimits - 1];
	if (!f->cfg.timed) {
		/* perf decodes a timeless trace at the EXIT of a queue's
		 * thread (with what it knows then), the rest at the end */
		size_t before = f->nlimits++;
		if (ev->rec.type == HWPROF_RECORD_EXIT && ev->rec.size >= 24) {
			int32_t tid = (int32_t)ld32(ev->rec.data + 16);
			for (size_t i = 0; i < f->nq; i++)
				if (f->q[i].tid == tid && !f->q[i].exit_at)
					f->q[i].exit_at = before + 1;
		}
	}
	pt_log_record(f, ev, tsc);
	if (rc >= 0)
		rc = note_switch(f, ev, tsc);
	if (rc >= 0)
		rc = note_vdso(f, s, &ev->rec);
	return rc < 0 ? rc : note_comm(f, s, &ev->rec);
}

/* the comm a COMM record's thread had before it (the session is still
 * before the record) */
static int note_comm(struct pt_feed *f, struct hwprof_session *s, const struct hwprof_record *rec)
{
	if (rec->type != HWPROF_RECORD_COMM || rec->size < 16)
		return 0;
	int32_t tid = (int32_t)ld32(rec->data + 12);
	const char *old = hwprof_session_thread_comm(s, (int32_t)ld32(rec->data + 8), tid);
	if (!old)
		return 0;
	if (util_grow(&f->comms, &f->capcomms, f->ncomms + 1, sizeof(*f->comms)) < 0)
		return -HWPROF_E_NOMEM;
	char *o = strdup(old);
	if (!o)
		return -HWPROF_E_NOMEM;
	f->comms[f->ncomms++] = (struct pt_comm){ .at = f->nlimits, .tid = tid, .old = o };
	return 0;
}

const char *pt_feed_comm_at(const struct pt_feed *f, int32_t tid, size_t at)
{
	for (size_t i = 0; i < f->ncomms; i++)
		if (f->comms[i].tid == tid && f->comms[i].at > at)
			return f->comms[i].old;
	return NULL;
}

static int note_limit(struct pt_feed *f, uint64_t time)
{
	const struct hwprof_pt_time_conv *tc = &f->cfg.flow.time_conv;
	if (util_grow(&f->limits, &f->caplimits, f->nlimits + 1, sizeof(*f->limits)) < 0)
		return -HWPROF_E_NOMEM;
	/* perf_time_to_tsc() */
	uint64_t t = time - tc->time_zero, quot = t / tc->time_mult, rem = t % tc->time_mult;
	f->limits[f->nlimits++] = (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
	return 0;
}

static void queue_thread(struct pt_feed *f, size_t q, size_t at, int32_t (*thread_pid)(void *, int32_t),
			 void *ctx, int32_t *pid, int32_t *tid)
{
	const struct pt_queue *pq = &f->q[q];
	if (pq->tid != -1 && !f->have_sched_switch) {
		*tid = pq->tid;
		*pid = pq->tid >= 0 ? thread_pid(ctx, pq->tid) : -1;
		return;
	}
	/* replay the switches up to `at` (runs come in limit order) */
	pt_feed_switches(f, at, NULL, NULL);
	*pid = *tid = -1;
	if (pq->cpu >= 0 && 2 * ((size_t)pq->cpu + 1) <= f->ncur)
		*tid = f->cur[2 * pq->cpu + 1];
	if (*tid != -1) {
		/* perf: the pid of the thread it knows by that tid */
		int32_t p = thread_pid(ctx, *tid);
		*pid = p >= 0 ? p : f->cur[2 * pq->cpu];
	}
}

void pt_feed_sync_start(struct pt_feed *f)
{
	if (!f->want_switch_ip)
		return;
	/* perf 6.1's intel_pt_switch_ip(), at its first decoder run (the
	 * kernel's map known by then): tracing the kernel per cpu with time,
	 * perf follows context switches through the trace at __switch_to
	 * when the kernel's symbols (kallsyms of this machine matching the
	 * file's build id, a vmlinux, a kcore) have it; without them (a file
	 * from another machine), by the switch records alone, as for user
	 * space */
	f->want_switch_ip = false;
	f->switch_ip = pt_switch_ip(f->syms, &f->ptss_ip);
	for (size_t i = 0; i < f->nq; i++)
		f->q[i].sync = f->switch_ip != 0;
}

void pt_feed_set_current(struct pt_feed *f, int32_t cpu, int32_t pid, int32_t tid)
{
	if (cpu < 0 || cpu >= 4096)
		return;
	size_t need = 2 * ((size_t)cpu + 1);
	if (need > f->ncur) {
		int32_t *n = realloc(f->cur, need * sizeof(*n));
		if (!n)
			return;
		for (size_t k = f->ncur; k < need; k++)
			n[k] = -1;
		f->cur = n;
		f->ncur = need;
	}
	f->cur[2 * cpu] = pid;
	f->cur[2 * cpu + 1] = tid;
}

void pt_feed_switches(struct pt_feed *f, size_t at, void (*wake)(void *ctx, size_t q, uint64_t tsc), void *ctx)
{
	for (; f->sw_applied < f->nsw && f->sw[f->sw_applied].at <= at; f->sw_applied++) {
		const struct pt_switch *w = &f->sw[f->sw_applied];
		size_t q = f->switch_ip ? pt_switch_queue(f, w->cpu) : SIZE_MAX;
		bool set = true, woken = false;
		if (w->kind == PT_SW_OUT) {
			set = pt_switch_out(f, q, w->tid, &woken);
		} else if (w->kind == PT_SW_IN) {
			pt_switch_in(f, q);
			/* perf sets it only when it differs: the same */
		}
		if (woken && wake)
			wake(ctx, q, w->tsc);
		if (set)
			pt_feed_set_current(f, w->cpu, w->pid, w->tid);
	}
}

void pt_feed_select(struct pt_feed *f, size_t q, size_t at, bool ran, int32_t (*thread_pid)(void *, int32_t),
		    void *ctx, int32_t *pid, int32_t *tid)
{
	queue_thread(f, q, at, thread_pid, ctx, pid, tid);
	f->ran |= ran;
	for (; f->marks_applied < f->nmarks && f->marks[f->marks_applied].at <= at; f->marks_applied++)
		hwprof_pt_image_mark_unreadable(pt_feed_image(f, f->marks[f->marks_applied].pid),
						f->marks[f->marks_applied].addr);
	f->q[q].ts = pt_feed_tstack(f, *pid, *tid, f->q[q].cpu, true);
	f->q[q].img = pt_feed_image(f, *pid);
	pt_log_queue(f, q, *pid, *tid);
}

/* perf keeps a stack per thread, but per cpu for the idle task (pid and
 * tid 0) */
static uint64_t stack_key(int32_t pid, int32_t tid, int32_t cpu)
{
	if (!pid && !tid)
		return 1ULL << 32 | (uint32_t)cpu;
	return (uint32_t)tid;
}

static size_t stack_slot(const struct pt_feed *f, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & (f->capstacks - 1);
	while (f->stacks[i].ts && f->stacks[i].key != key)
		i = (i + 1) & (f->capstacks - 1);
	return i;
}

struct hwprof_pt_tstack *pt_feed_tstack(struct pt_feed *f, int32_t pid, int32_t tid, int32_t cpu, bool create)
{
	if (tid < 0) /* perf has no thread to keep a stack with */
		return NULL;
	uint64_t key = stack_key(pid, tid, cpu);
	if (f->capstacks) {
		size_t i = stack_slot(f, key);
		if (f->stacks[i].ts || !create)
			return f->stacks[i].ts;
	} else if (!create) {
		return NULL;
	}
	if (2 * (f->nstacks + 1) > f->capstacks) {
		size_t c = f->capstacks ? 2 * f->capstacks : 64;
		struct pt_stack_ent *old = f->stacks, *n = calloc(c, sizeof(*n));
		if (!n)
			return NULL;
		size_t oc = f->capstacks;
		f->stacks = n;
		f->capstacks = c;
		for (size_t k = 0; k < oc; k++)
			if (old[k].ts)
				f->stacks[stack_slot(f, old[k].key)] = old[k];
		free(old);
	}
	struct hwprof_pt_tstack *ts = hwprof_pt_tstack_new();
	if (!ts)
		return NULL;
	size_t i = stack_slot(f, key);
	f->stacks[i].key = key;
	f->stacks[i].ts = ts;
	f->nstacks++;
	return ts;
}

int pt_feed_add_late(struct pt_feed *f, struct hwprof_sample *sm)
{
	const struct hwprof_itrace_opts *o = &f->itrace;
	bool cc = o->add_callchain && !(sm->sample_type & HWPROF_SAMPLE_CALLCHAIN);
	bool br = o->add_last_branch && !(sm->sample_type & HWPROF_SAMPLE_BRANCH_STACK);
	if (!f->active || !f->pt || (!cc && !br))
		return 0;
	unsigned csz = (o->callchain_sz ? o->callchain_sz : HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ) + 1;
	unsigned bsz = o->last_branch_sz ? o->last_branch_sz : HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
	if (csz > HWPROF_ITRACE_MAX_CALLCHAIN_SZ + 1)
		csz = HWPROF_ITRACE_MAX_CALLCHAIN_SZ + 1;
	if (bsz > HWPROF_ITRACE_MAX_LAST_BRANCH_SZ)
		bsz = HWPROF_ITRACE_MAX_LAST_BRANCH_SZ;
	if ((cc && !f->late_chain && !(f->late_chain = malloc(csz * sizeof(uint64_t)))) ||
	    (br && !f->late_br && !(f->late_br = malloc(3 * (size_t)bsz * sizeof(uint64_t)))))
		return -HWPROF_E_NOMEM;
	int32_t cpu = (sm->sample_type & HWPROF_SAMPLE_CPU) ? (int32_t)sm->cpu : -1;
	const struct hwprof_pt_tstack *ts = pt_feed_tstack(f, (int32_t)sm->pid, (int32_t)sm->tid, cpu, false);
	/* perf learns where the kernel starts when its decoder first runs a
	 * queue (its set-up decoding aside): 0 until then */
	uint64_t ks = f->ran ? 1ULL << 63 : 0;
	if (cc) {
		sm->callchain_nr = hwprof_pt_tstack_chain_late(ts, sm->ip, csz, ks, f->late_chain);
		sm->callchain = (const uint8_t *)f->late_chain;
		sm->sample_type |= HWPROF_SAMPLE_CALLCHAIN;
	}
	if (br) {
		/* from/to pairs, spread to perf's entries (no flags: no
		 * transactions, no mispredictions known) */
		uint64_t *e = f->late_br;
		uint32_t n = hwprof_pt_tstack_branches_late(ts, sm->ip, bsz, ks, e);
		for (uint32_t i = n; i-- > 0;) {
			uint64_t from = e[2 * i], to = e[2 * i + 1];
			e[3 * i] = from;
			e[3 * i + 1] = to;
			e[3 * i + 2] = 0;
		}
		sm->branch_nr = n;
		sm->branches = (const uint8_t *)e;
		sm->branch_counters = NULL;
		sm->branch_has_hw_idx = false;
		sm->sample_type |= HWPROF_SAMPLE_BRANCH_STACK;
	}
	return 0;
}

int pt_feed_time_ranges(struct pt_feed *f, const struct time_ranges *tr)
{
	if (!f->cfg.timed || !tr || tr->n <= 0)
		return 0;
	free(f->ranges);
	f->ranges = calloc((size_t)tr->n, sizeof(*f->ranges));
	if (!f->ranges)
		return -HWPROF_E_NOMEM;
	for (int i = 0; i < tr->n; i++)
		f->ranges[i] = hwprof_pt_tsc_range(&f->cfg.flow.time_conv, tr->r[i].start, tr->r[i].end);
	f->cfg.ranges = f->ranges;
	f->cfg.nranges = (size_t)tr->n;
	return 0;
}
