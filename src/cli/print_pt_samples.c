/* Intel PT sample lines as perf script 6.1 prints them (see
 * print_pt_samples.h). Widths and orders checked field by field against
 * /usr/bin/perf on emulator traces (tests/diff/pt_script.sh). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/print_pt_samples.h"
#include "cli/print_script.h"

#define F(x) ((fmt->cur & SFB(SF_##x)) != 0)

static const struct {
	uint32_t flags;
	const char *name;
} flag_names[] = {
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL, "call" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN, "return" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CONDITIONAL, "jcc" },
	{ HWPROF_PT_FLAG_BRANCH, "jmp" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_INTERRUPT, "int" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_INTERRUPT, "iret" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_SYSCALLRET, "syscall" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_SYSCALLRET, "sysret" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_ASYNC, "async" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_ASYNC | HWPROF_PT_FLAG_INTERRUPT,
	  "hw int" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TX_ABORT, "tx abrt" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_BEGIN, "tr strt" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_TRACE_END, "tr end" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_VMENTRY, "vmentry" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_VMEXIT, "vmexit" },
	{ HWPROF_PT_FLAG_BRANCH | HWPROF_PT_FLAG_BRANCH_MISS, "br miss" },
};

static const char *flag_name(uint32_t flags)
{
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (flag_names[i].flags == flags)
			return flag_names[i].name;
	return NULL;
}

size_t pt_flags_text(uint32_t flags, char *buf, size_t size)
{
	/* these three show as a "(xDt)" suffix next to a known name */
	const uint32_t extra = HWPROF_PT_FLAG_IN_TX | HWPROF_PT_FLAG_INTR_DISABLE | HWPROF_PT_FLAG_INTR_TOGGLE;
	char xs[8] = "";
	if (flags & extra)
		snprintf(xs, sizeof(xs), "(%s%s%s)", flags & HWPROF_PT_FLAG_IN_TX ? "x" : "",
			 flags & HWPROF_PT_FLAG_INTR_DISABLE ? "D" : "",
			 flags & HWPROF_PT_FLAG_INTR_TOGGLE ? "t" : "");
	const char *name = flag_name(flags & ~extra);
	int n = -1;
	if (name)
		n = snprintf(buf, size, "%-15s%6s", name, xs);
	else if ((flags & HWPROF_PT_FLAG_TRACE_BEGIN) &&
		 (name = flag_name(flags & ~(extra | HWPROF_PT_FLAG_TRACE_BEGIN))))
		n = snprintf(buf, size, "tr strt %-7s%6s", name, xs);
	else if ((flags & HWPROF_PT_FLAG_TRACE_END) &&
		 (name = flag_name(flags & ~(extra | HWPROF_PT_FLAG_TRACE_END))))
		n = snprintf(buf, size, "tr end  %-7s%6s", name, xs);
	if (n >= 0)
		return (size_t)n < size ? (size_t)n : size - 1;
	/* otherwise one letter per flag, '?' for bits without a letter */
	const char *chars = HWPROF_PT_FLAG_CHARS;
	size_t nc = strlen(chars), pos = 0;
	for (unsigned i = 0; i < 32 && pos + 1 < size; i++)
		if (flags & (1u << i))
			buf[pos++] = i < nc ? chars[i] : '?';
	buf[pos] = 0;
	return pos;
}

/* The line is built in a buffer and written once: printf was most of the
 * run time on large traces. */
struct line {
	char *b;
	size_t n, cap;
};

static void put(struct line *l, const char *s, size_t n)
{
	if (n > l->cap - 1 - l->n)
		n = l->cap - 1 - l->n;
	memcpy(l->b + l->n, s, n);
	l->n += n;
}

/* Room for n more bytes: the caller's buffer grows (a line with a
 * 1024-entry branch stack is long); a line on the stack is cut. */
static void reserve(struct line *l, struct pt_print_fmt *fmt, size_t n)
{
	if (l->cap - l->n > n || l->b != fmt->out)
		return;
	size_t c = fmt->out_cap * 2;
	while (c - l->n <= n)
		c *= 2;
	char *b = realloc(fmt->out, c);
	if (!b)
		return;
	fmt->out = l->b = b;
	fmt->out_cap = l->cap = c;
}

static void puts_(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void spaces(struct line *l, int n)
{
	static const char sp[] = "                                                                ";
	while (n > 0) {
		int k = n < (int)sizeof(sp) - 1 ? n : (int)sizeof(sp) - 1;
		put(l, sp, (size_t)k);
		n -= k;
	}
}

/* %*s (right) or %-*s (left) */
static void padded(struct line *l, const char *s, int width, bool left)
{
	size_t n = strlen(s);
	if (!left)
		spaces(l, width - (int)n);
	put(l, s, n);
	if (left)
		spaces(l, width - (int)n);
}

static void num(struct line *l, uint64_t v, bool neg, unsigned base, int width, bool left)
{
	char t[24], *e = t + sizeof(t), *p = e;
	if (base == 16) {
		do {
			*--p = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			*--p = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	if (neg)
		*--p = '-';
	size_t n = (size_t)(e - p);
	if (!left)
		spaces(l, width - (int)n);
	put(l, p, n);
	if (left)
		spaces(l, width - (int)n);
}

static void dec(struct line *l, int32_t v, int width, bool left)
{
	num(l, v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)v, v < 0, 10, width, left);
}

/* v in decimal, at least `digits` of them (zeros in front) */
static void zeroed(struct line *l, uint64_t v, int digits)
{
	char t[24], *e = t + sizeof(t), *p = e;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v || e - p < digits);
	put(l, p, (size_t)(e - p));
}

/* comm, pid/tid, cpu, misc */
static void ids(struct line *l, const struct pt_print_fmt *fmt, bool unpad)
{
	if (F(COMM)) {
		/* perf: unpadded when the sample's callchain is shown */
		padded(l, fmt->comm, unpad ? 0 : 16, false);
		put(l, " ", 1);
	}
	if (F(PID) && F(TID)) {
		dec(l, fmt->pid, 5, false);
		put(l, "/", 1);
		dec(l, fmt->tid, 5, true);
		put(l, " ", 1);
	} else if (F(PID) || F(TID)) {
		dec(l, F(PID) ? fmt->pid : fmt->tid, 5, false);
		put(l, " ", 1);
	}
	if (F(CPU)) {
		char b[24];
		snprintf(b, sizeof(b), "[%03d] ", (int)fmt->cpu);
		puts_(l, b);
	}
	if (F(MISC))
		spaces(l, 6);
}

static void prefix(struct line *l, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	bool unpad = F(IP) && fmt->callchains && s->chain;
	struct pt_print_memo *m = &fmt->head;
	if (!m->ok || m->comm != fmt->comm || m->pid != fmt->pid || m->tid != fmt->tid || m->cpu != fmt->cpu ||
	    m->cur != fmt->cur || m->unpad != unpad) {
		struct line t = { m->text, 0, sizeof(m->text) };
		ids(&t, fmt, unpad);
		/* a line too long to keep is made each time */
		*m = (struct pt_print_memo){ .ok = t.n + 1 < sizeof(m->text), .comm = fmt->comm, .pid = fmt->pid,
					     .tid = fmt->tid, .cpu = fmt->cpu, .cur = fmt->cur, .unpad = unpad,
					     .n = (uint16_t)t.n };
		if (!m->ok) {
			ids(l, fmt, unpad);
			goto time;
		}
		t.n = 0;
		ids(&t, fmt, unpad);
	}
	put(l, m->text, m->n);
time:
	if (F(TIME)) {
		uint64_t secs = s->time / 1000000000ULL, ns = s->time % 1000000000ULL;
		/* perf's "%5llu.%09llu: ", or "%12s: " of "%llu.%06llu" */
		if (fmt->nanosecs) {
			/* one piece: ".", nine digits, ": " */
			char b[12];
			b[0] = '.';
			for (int i = 9; i >= 1; i--, ns /= 10)
				b[i] = (char)('0' + ns % 10);
			b[10] = ':';
			b[11] = ' ';
			num(l, secs, false, 10, 5, false);
			put(l, b, sizeof(b));
			return;
		} else {
			size_t n0 = l->n;
			num(l, secs, false, 10, 0, false);
			put(l, ".", 1);
			zeroed(l, ns / 1000, 6);
			size_t w = l->n - n0;
			if (w < 12 && l->n + 12 - w < l->cap) {
				memmove(l->b + n0 + 12 - w, l->b + n0, w);
				memset(l->b + n0, ' ', 12 - w);
				l->n += 12 - w;
			}
		}
		put(l, ": ", 2);
	}
}

static void sym(struct line *l, struct pt_print_fmt *fmt, uint64_t addr)
{
	l->n += fmt->sym(fmt->ctx, fmt->cur_synth, addr, l->b + l->n, l->cap - l->n);
}

/* addr in 16 columns of hex, then its symbol text: in one piece from the
 * caller for hardware lines (it keeps the texts of recent addresses) */
static void addr_sym(struct line *l, struct pt_print_fmt *fmt, uint64_t addr)
{
	if (fmt->addrsym && !fmt->cur_synth) {
		l->n += fmt->addrsym(fmt->ctx, addr, l->b + l->n, l->cap - l->n);
		return;
	}
	num(l, addr, false, 16, 16, false);
	sym(l, fmt, addr);
}

/* period, event name and flags columns */
static void counts(struct line *l, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (F(PERIOD)) {
		num(l, s->period, false, 10, 10, false);
		put(l, " ", 1);
	}
	if (F(EVNAME)) {
		padded(l, fmt->names[s->kind], fmt->name_width, false);
		put(l, ": ", 2);
	}
	if (fmt->print_flags) {
		char buf[64];
		pt_flags_text(s->flags, buf, sizeof(buf));
		put(l, "  ", 2);
		padded(l, buf, 21, true);
		put(l, " ", 1);
	}
}

static void counts_memo(struct line *l, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	struct pt_print_memo *m = &fmt->mid;
	uint32_t flags = fmt->print_flags ? s->flags : 0;
	if (!m->ok || m->period != s->period || m->kind != s->kind || m->flags != flags || m->cur != fmt->cur) {
		struct line t = { m->text, 0, sizeof(m->text) };
		counts(&t, fmt, s);
		*m = (struct pt_print_memo){ .ok = t.n + 1 < sizeof(m->text), .period = s->period, .kind = s->kind,
					     .flags = flags, .cur = fmt->cur, .n = (uint16_t)t.n };
		if (!m->ok) {
			counts(l, fmt, s);
			return;
		}
		t.n = 0;
		counts(&t, fmt, s);
	}
	put(l, m->text, m->n);
}

/* perf's synth text, padded to 34 columns like its PT events */
static void synth(struct line *l, const struct hwprof_pt_sample *s)
{
	char b[96];
	int n = 0;
	if (s->kind == HWPROF_PT_SAMPLE_PSB) {
		n = snprintf(b, sizeof(b), " psb offs: %#" PRIx64, s->payload);
	} else if (s->kind == HWPROF_PT_SAMPLE_CBR) {
		unsigned freq = (s->cbr_khz + 500) / 1000;
		n = snprintf(b, sizeof(b), " cbr: %2u freq: %4u MHz ", s->cbr, freq);
		if (s->max_nonturbo)
			n += snprintf(b + n, sizeof(b) - (size_t)n, "(%3u%%) ",
				      (5 + (1000 * s->cbr) / s->max_nonturbo) / 10);
	}
	if (n < 0)
		return;
	put(l, b, (size_t)n);
	spaces(l, 34 - n);
}

/* perf's brstack (" 0xfrom(dso)/0xto(dso)/...") or, when brstack is
 * not asked for, brstacksym ("sym+0xoff(dso)/sym+0xoff(dso)/...") or
 * brstackoff (brstack with DSO offsets where perf takes them); the
 * flags of a trace's branches: not predicted or mispredicted, no TSX,
 * no cycles, no type */
static void brstack(struct line *l, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	bool sym = !F(BRSTACK) && F(BRSTACKSYM);
	bool off = !F(BRSTACK) && !F(BRSTACKSYM);
	if (!F(BRSTACK) && !F(BRSTACKSYM) && !F(BRSTACKOFF))
		return;
	for (uint32_t i = 0; i < s->nbr; i++) {
		for (int end = 0; end < 2; end++) {
			uint64_t a = s->brstack[2 * i + (uint32_t)end];
			reserve(l, fmt, 8192);
			if (end)
				put(l, "/", 1);
			if (sym) {
				l->n += fmt->brend(fmt->ctx, s->ip, a, true, F(DSO), l->b + l->n, l->cap - l->n);
			} else {
				put(l, end ? "0x" : " 0x", end ? 2 : 3);
				num(l, off ? fmt->broff(fmt->ctx, s->ip, a) : a, false, 16, 0, false);
				if (F(DSO))
					l->n += fmt->brend(fmt->ctx, s->ip, a, false, true, l->b + l->n, l->cap - l->n);
			}
		}
		puts_(l, "/-/-/-/0/ ");
	}
}

static void insn(struct line *l, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (F(INSNLEN)) {
		puts_(l, " ilen: ");
		dec(l, s->insn_len, 0, false);
	}
	if (F(INSN) && s->insn_len) {
		char b[6 + 3 * sizeof(s->insn)];
		size_t n = 6;
		memcpy(b, " insn:", 6);
		for (unsigned i = 0; i < s->insn_len && i < sizeof(s->insn); i++) {
			b[n++] = ' ';
			b[n++] = "0123456789abcdef"[s->insn[i] >> 4];
			b[n++] = "0123456789abcdef"[s->insn[i] & 15];
		}
		put(l, b, n);
	}
}

static void ipc(struct line *l, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (!F(IPC) || !s->cyc_cnt || !s->insn_cnt)
		return;
	unsigned v = (unsigned)(s->insn_cnt * 100 / s->cyc_cnt);
	char b[96];
	snprintf(b, sizeof(b), " \t IPC: %u.%02u (%" PRIu64 "/%" PRIu64 ") ", v / 100, v % 100, s->insn_cnt,
		 s->cyc_cnt);
	puts_(l, b);
}

/* perf's callindent column: "(dso)\t" when neither ip nor addr is shown,
 * the callee (calls, trace begins) or the function left (returns, trace
 * ends) indented by the call depth, padded to a width that changes
 * rarely so the output lines up */
static void callindent(struct line *l, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	int depth = (int)s->depth + ((s->flags & HWPROF_PT_FLAG_RETURN) ? 1 : 0);
	const char *ip_dso, *addr_dso, *name = NULL;
	const char *ip_name = fmt->symname(fmt->ctx, s->ip, &ip_dso);
	uint64_t ip = 0;
	if (s->flags & (HWPROF_PT_FLAG_CALL | HWPROF_PT_FLAG_TRACE_BEGIN)) {
		name = fmt->symname(fmt->ctx, s->addr, &addr_dso);
		if (!name)
			ip = s->addr;
	} else if (s->flags & (HWPROF_PT_FLAG_RETURN | HWPROF_PT_FLAG_TRACE_END)) {
		name = ip_name;
		if (!name)
			ip = s->ip;
	}
	if (F(DSO) && !(F(IP) || F(ADDR))) {
		const char *d = ip_dso ? ip_dso : "[unknown]";
		put(l, "(", 1);
		if (fmt->pad_dso) {
			/* perf's scnprintf_pad: at most pad - 1 characters, then spaces */
			size_t n = strlen(d);
			if (n > (size_t)fmt->pad_dso - 1)
				n = (size_t)fmt->pad_dso - 1;
			put(l, d, n);
			spaces(l, fmt->pad_dso - (int)n);
		} else {
			puts_(l, d);
		}
		put(l, ")\t", 2);
	}
	size_t start = l->n;
	if (name) {
		spaces(l, depth * 4);
		puts_(l, name);
	} else if (ip) {
		spaces(l, depth * 4);
		num(l, ip, false, 16, 16, false);
	}
	int len = (int)(l->n - start);
	int *spacing = &fmt->callindent_spacing;
	if (len > *spacing || (len && len < *spacing - 52))
		*spacing = (len + 4 + 31) / 32 * 32;
	spaces(l, *spacing - len);
}

void print_pt_sample(FILE *f, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	/* lines go to the format's buffer, written out in large pieces */
	if (fmt->out_cap - fmt->out_n < 8192)
		pt_print_flush(f, fmt);
	struct line l = { fmt->out, fmt->out_n, fmt->out_cap };
	bool is_synth = s->kind == HWPROF_PT_SAMPLE_PSB || s->kind == HWPROF_PT_SAMPLE_CBR;
	fmt->cur = is_synth ? fmt->fields_synth : fmt->fields_hw;
	fmt->cur_synth = is_synth;
	if (!fmt->cur)
		return;
	char one[8192];
	if (!l.b) /* no buffer: one line on the stack */
		l = (struct line){ one, 0, sizeof(one) };
	prefix(&l, fmt, s);
	counts_memo(&l, fmt, s);
	if (s->kind == HWPROF_PT_SAMPLE_BRANCHES) {
		/* perf's BTS layout: branches with period 1 */
		if (F(CALLINDENT))
			callindent(&l, fmt, s);
		if (F(IP)) {
			put(&l, " ", 1);
			addr_sym(&l, fmt, s->ip);
		}
		if (F(ADDR) || fmt->addr_default) {
			put(&l, " => ", 4);
			addr_sym(&l, fmt, s->addr);
		}
		ipc(&l, fmt, s);
		/* perf's BTS lines show the source line last, before insn */
		if (F(IP) && F(SRCLINE))
			l.n += fmt->srcline(fmt->ctx, s->ip, l.b + l.n, l.cap - l.n);
		insn(&l, fmt, s);
	} else {
		if (is_synth && F(SYNTH))
			synth(&l, s);
		if (F(ADDR))
			num(&l, s->addr, false, 16, 16, false);
		if (F(IP) && fmt->callchains && s->chain) {
			for (uint32_t i = 0; i < s->nchain; i++) {
				put(&l, "\n", 1);
				l.n += fmt->chain(fmt->ctx, s->chain[i], l.b + l.n, l.cap - l.n);
				if (F(SRCLINE))
					l.n += fmt->srcline(fmt->ctx, s->chain[i], l.b + l.n, l.cap - l.n);
			}
			put(&l, "\n", 1);
		} else if (F(IP)) {
			put(&l, " ", 1);
			addr_sym(&l, fmt, s->ip);
			if (F(SRCLINE))
				l.n += fmt->srcline(fmt->ctx, s->ip, l.b + l.n, l.cap - l.n);
		}
		brstack(&l, fmt, s);
		insn(&l, fmt, s);
		ipc(&l, fmt, s);
	}
	put(&l, "\n", 1);
	if (l.b == fmt->out)
		fmt->out_n = l.n;
	else
		fwrite(l.b, 1, l.n, f);
}

void pt_print_flush(FILE *f, struct pt_print_fmt *fmt)
{
	if (!fmt->out_n)
		return;
	/* the buffer goes straight to the file after what stdio holds:
	 * fwrite would copy it into stdout's large buffer first (a tenth of
	 * the run on traces printed whole) */
	int fd = fmt->out_n >= 4096 && fflush(f) == 0 ? fileno(f) : -1;
	size_t done = 0;
	while (fd >= 0 && done < fmt->out_n) {
		ssize_t w = write(fd, fmt->out + done, fmt->out_n - done);
		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EINTR)
			break; /* as fwrite's error: the rest is lost */
	}
	if (fd < 0)
		fwrite(fmt->out, 1, fmt->out_n, f);
	fmt->out_n = 0;
}

void print_pt_error(FILE *f, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	pt_print_flush(f, fmt);
	fprintf(f, " instruction trace error type 1");
	if (s->time)
		fprintf(f, " time %" PRIu64 ".%09" PRIu64, s->time / UINT64_C(1000000000), s->time % UINT64_C(1000000000));
	else
		fprintf(f, " time 0");
	fprintf(f, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", (int)fmt->cpu, (int)fmt->pid,
		(int)fmt->tid, s->ip, s->code, hwprof_pt_synth_err_msg(s->code));
}
