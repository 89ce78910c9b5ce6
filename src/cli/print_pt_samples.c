/* Intel PT sample lines as perf script 6.1 prints them (see
 * print_pt_samples.h). Widths and orders checked field by field against
 * /usr/bin/perf on emulator traces (tests/diff/pt_script.sh). */
#include <inttypes.h>
#include <string.h>

#include "cli/print_pt_samples.h"
#include "cli/print_script.h"

#define F(x) ((fmt->fields & SFB(SF_##x)) != 0)

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

static void prefix(FILE *f, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (F(COMM))
		fprintf(f, "%16s ", fmt->comm);
	if (F(PID) && F(TID))
		fprintf(f, "%5d/%-5d ", (int)fmt->pid, (int)fmt->tid);
	else if (F(PID))
		fprintf(f, "%5d ", (int)fmt->pid);
	else if (F(TID))
		fprintf(f, "%5d ", (int)fmt->tid);
	if (F(CPU))
		fprintf(f, "[%03d] ", (int)fmt->cpu);
	if (F(MISC))
		fprintf(f, "%*s", 6, " ");
	if (F(TIME)) {
		unsigned long long secs = s->time / 1000000000ULL, ns = s->time % 1000000000ULL;
		if (fmt->nanosecs) {
			fprintf(f, "%5llu.%09llu: ", secs, ns);
		} else {
			char buf[48];
			snprintf(buf, sizeof(buf), "%llu.%06llu", secs, ns / 1000);
			fprintf(f, "%12s: ", buf);
		}
	}
}

static void sym(FILE *f, struct pt_print_fmt *fmt, uint64_t addr)
{
	char buf[4096];
	size_t n = fmt->sym(fmt->ctx, addr, buf, sizeof(buf));
	fwrite(buf, 1, n, f);
}

static void insn(FILE *f, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (F(INSNLEN))
		fprintf(f, " ilen: %d", s->insn_len);
	if (F(INSN) && s->insn_len) {
		fputs(" insn:", f);
		for (unsigned i = 0; i < s->insn_len; i++)
			fprintf(f, " %02x", s->insn[i]);
	}
}

static void ipc(FILE *f, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	if (!F(IPC) || !s->cyc_cnt || !s->insn_cnt)
		return;
	unsigned v = (unsigned)(s->insn_cnt * 100 / s->cyc_cnt);
	fprintf(f, " \t IPC: %u.%02u (%" PRIu64 "/%" PRIu64 ") ", v / 100, v % 100, s->insn_cnt, s->cyc_cnt);
}

void print_pt_sample(FILE *f, struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	prefix(f, fmt, s);
	if (F(PERIOD))
		fprintf(f, "%10" PRIu64 " ", s->period);
	if (F(EVNAME))
		fprintf(f, "%*s: ", fmt->name_width, fmt->names[s->kind]);
	if (fmt->print_flags) {
		char buf[64];
		pt_flags_text(s->flags, buf, sizeof(buf));
		fprintf(f, "  %-21s ", buf);
	}
	if (s->kind == HWPROF_PT_SAMPLE_BRANCHES) {
		/* perf's BTS layout: branches with period 1 */
		if (F(IP)) {
			fprintf(f, " %16" PRIx64, s->ip);
			sym(f, fmt, s->ip);
		}
		if (F(ADDR) || fmt->addr_default) {
			fprintf(f, " => %16" PRIx64, s->addr);
			sym(f, fmt, s->addr);
		}
		ipc(f, fmt, s);
		insn(f, fmt, s);
	} else {
		if (F(ADDR))
			fprintf(f, "%16" PRIx64, s->addr);
		if (F(IP)) {
			fprintf(f, " %16" PRIx64, s->ip);
			sym(f, fmt, s->ip);
		}
		insn(f, fmt, s);
		ipc(f, fmt, s);
	}
	fputc('\n', f);
}

void print_pt_error(FILE *f, const struct pt_print_fmt *fmt, const struct hwprof_pt_sample *s)
{
	fprintf(f, " instruction trace error type 1");
	if (s->time)
		fprintf(f, " time %" PRIu64 ".%09" PRIu64, s->time / UINT64_C(1000000000), s->time % UINT64_C(1000000000));
	else
		fprintf(f, " time 0");
	fprintf(f, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", (int)fmt->cpu, (int)fmt->pid,
		(int)fmt->tid, s->ip, s->code, hwprof_pt_synth_err_msg(s->code));
}
