/* perf script's brstackinsn and brstackinsnlen fields as perf 6.1 built
 * for x86 without libxed prints them: after the sample line's other
 * fields a newline, then the branch stack replayed oldest first. The
 * first branch is shown alone (its block's start is unknown); each later
 * block runs from the previous branch's target to the next branch's
 * source, one "\t<ip>\tinsn: <bytes> " line per instruction (lengths from
 * the x86 decoder, bytes from the DSO's file); the branch itself ends its
 * block with its flags, cycles and IPC; the last block runs from the
 * newest target up to the sample's ip. A symbol line "\tsym+off:" comes
 * first whenever the address leaves the last symbol shown. */
#include <string.h>

#include "cli/print_script.h"
#include "cli/srccode.h"
#include "cli/x86_insn_len.h"
#include "hwprof/perf_event.h"

#define MAXBB 16384u      /* perf's largest block */
#define MAXINSN 15u       /* the longest x86 instruction */
#define BB_CROSSES (-2)   /* a block from kernel to user code or back */

#define PF(t, x) ((o->out[t].fields & SFB(SF_##x)) != 0)

struct bi {
	struct script_printer *p;
	const struct script_opts *o;
	FILE *f;
	int t;
	int32_t pid, tid;
	unsigned cpumode;          /* of the last block read (perf's x.cpumode) */
	bool have_last;            /* the range of the last symbol line */
	uint64_t last_start, last_end;
	int total_cycles;
	uint8_t buf[MAXBB];
};

/* perf's machine__kernel_ip() on x86_64: the upper half */
static bool kernel_ip(uint64_t ip)
{
	return ip >= 1ULL << 63;
}

/* The code bytes from start to end plus one instruction: their count,
 * 0 (or less) when there are none, BB_CROSSES when the block leaves the
 * kernel or enters it (LBR ring filtering). Sets the block's cpumode
 * first, as perf does, even when it reads nothing. */
static int grab_bb(struct bi *b, uint64_t start, uint64_t end)
{
	if (!start || !end)
		return 0;
	bool k = kernel_ip(start);
	b->cpumode = k ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	if (k != kernel_ip(end))
		return BB_CROSSES;
	if (end - start > MAXBB - MAXINSN)
		return 0;
	struct hwprof_map_info mi;
	char level;
	if (script_printer_find_map(b->p, b->pid, b->tid, b->cpumode, start, &mi, &level) != 1)
		return 0;
	struct hwprof_symres r = { 0 };
	hwprof_symbols_resolve(script_printer_symbols(b->p), mi.dso, mi.start, mi.pgoff, start, &r);
	/* kernel code has no file here (perf's kallsyms DSO has none either) */
	if (!r.dso || k)
		return 0;
	ssize_t n = hwprof_dso_read(r.dso, r.addr, b->buf, (size_t)(end - start + MAXINSN));
	return n > 0 ? (int)n : 0;
}

/* perf's dump_insn(): "insn: " and the instruction's bytes each followed
 * by a space, its length in *ilen; "<bad>" (and *ilen untouched) when
 * the bytes are no instruction. */
static const char *insn_text(const uint8_t *code, long len, int *ilen, char *out)
{
	struct x86_insn in;
	if (len <= 0 || x86_insn_decode(code, (size_t)len, &in) < 0)
		return "<bad>";
	*ilen = in.len;
	char *e = out + sizeof("insn: ") - 1;
	memcpy(out, "insn: ", sizeof("insn: "));
	for (unsigned i = 0; i < in.len; i++) {
		*e++ = "0123456789abcdef"[code[i] >> 4];
		*e++ = "0123456789abcdef"[code[i] & 15];
		*e++ = ' ';
	}
	*e = 0;
	return out;
}

/* perf's arch_is_branch() */
static bool is_branch(const uint8_t *code, long len)
{
	struct x86_insn in;
	if (len <= 0 || x86_insn_decode(code, (size_t)len, &in) < 0)
		return true; /* perf's -1 */
	return in.branch;
}

static void print_srccode(struct bi *b, uint64_t ip)
{
	struct hwprof_map_info mi;
	char level;
	if (!b->cpumode || script_printer_find_map(b->p, b->pid, b->tid, b->cpumode, ip, &mi, &level) != 1)
		return;
	struct hwprof_symres r = { 0 };
	hwprof_symbols_resolve(script_printer_symbols(b->p), mi.dso, mi.start, mi.pgoff, ip, &r);
	srccode_print(script_printer_srccode(b->p), b->f, b->tid, r.dso, r.addr);
}

/* perf's ip__fprintf_sym(): "\tsym+off:" when ip's symbol differs from
 * the last one shown. perf compares the address inside ip's map with the
 * last symbol's range, whatever map that symbol came from. */
static void print_sym(struct bi *b, uint64_t ip)
{
	const struct script_opts *o = b->o;
	struct hwprof_map_info mi;
	char level;
	struct hwprof_symres r = { 0 };
	/* no block read yet: perf's unset cpumode finds no map */
	bool have_map = b->cpumode &&
			script_printer_find_map(b->p, b->pid, b->tid, b->cpumode, ip, &mi, &level) == 1;
	if (have_map)
		hwprof_symbols_resolve(script_printer_symbols(b->p), mi.dso, mi.start, mi.pgoff, ip, &r);
	uint64_t addr = have_map ? r.addr : ip;
	if (b->have_last && addr >= b->last_start && addr < b->last_end)
		return;
	if (!r.sym)
		return;
	int off = (int)(addr < r.sym->end ? addr - r.sym->start : addr - mi.start - r.sym->start);
	fprintf(b->f, "\t%s", r.sym->name);
	if (off)
		fprintf(b->f, "%+d", off);
	fputc(':', b->f);
	if (PF(b->t, SRCLINE))
		script_print_srcline_pre(b->p, b->pid, b->tid, b->cpumode, ip, "\t");
	fputc('\n', b->f);
	b->have_last = true;
	b->last_start = r.sym->start;
	b->last_end = r.sym->end;
}

/* perf's ip__fprintf_jump(): the branch with its flags; cycles add up
 * over the stack, IPC counts the block's instructions (insn) */
static void print_jump(struct bi *b, uint64_t ip, uint64_t flags, const uint8_t *code, long len, int insn)
{
	const struct script_opts *o = b->o;
	char out[64];
	int ilen = 0;
	fprintf(b->f, "\t%016llx\t%-30s\t", (unsigned long long)ip, insn_text(code, len, &ilen, out));
	if (PF(b->t, BRSTACKINSNLEN))
		fprintf(b->f, "ilen: %d\t", ilen);
	fprintf(b->f, "#%s%s%s%s", flags & 2 ? " PRED" : "", flags & 1 ? " MISPRED" : "", flags & 4 ? " INTX" : "",
		flags & 8 ? " ABORT" : "");
	int cycles = (int)(flags >> 4 & 0xffff);
	if (cycles) {
		b->total_cycles += cycles;
		fprintf(b->f, " %d cycles [%d]", cycles, b->total_cycles);
		if (insn)
			fprintf(b->f, " %.2f IPC", (double)((float)insn / (float)cycles));
	}
	fputc('\n', b->f);
}

/* one instruction line; returns its length (0: undecodable) */
static int print_line(struct bi *b, uint64_t ip, const uint8_t *code, long len)
{
	const struct script_opts *o = b->o;
	char out[64];
	int ilen = 0;
	fprintf(b->f, "\t%016llx\t%s", (unsigned long long)ip, insn_text(code, len, &ilen, out));
	if (PF(b->t, BRSTACKINSNLEN))
		fprintf(b->f, "\tilen: %d", ilen);
	fputc('\n', b->f);
	return ilen;
}

static void print_blocks(struct bi *b, const struct hwprof_sample *s, int nr)
{
	const struct script_opts *o = b->o;
#define FROM(i) hwprof_u64_at(s->branches, 3 * (uint64_t)(i))
#define TO(i) hwprof_u64_at(s->branches, 3 * (uint64_t)(i) + 1)
#define FLAGS(i) hwprof_u64_at(s->branches, 3 * (uint64_t)(i) + 2)
	/* the oldest branch: where its block began is unknown */
	int len = grab_bb(b, FROM(nr - 1), FROM(nr - 1));
	if (len > 0) {
		print_sym(b, FROM(nr - 1));
		print_jump(b, FROM(nr - 1), FLAGS(nr - 1), b->buf, len, 0);
		if (PF(b->t, SRCCODE))
			print_srccode(b, FROM(nr - 1));
	}
	for (int i = nr - 2; i >= 0; i--) {
		uint64_t start = TO(i + 1), end = FROM(i);
		len = grab_bb(b, start, end);
		/* a ring-filtered kernel entry: the block runs to the next branch */
		if (len == BB_CROSSES && i > 0) {
			end = FROM(--i);
			len = grab_bb(b, start, end);
		}
		if (len <= 0)
			continue;
		int insn = 0, ilen = 0;
		unsigned off;
		for (off = 0; off < (unsigned)len; off += (unsigned)ilen) {
			uint64_t ip = start + off;
			print_sym(b, ip);
			if (ip == end) {
				print_jump(b, ip, FLAGS(i), b->buf + off, len - (long)off, ++insn);
				if (PF(b->t, SRCCODE))
					print_srccode(b, ip);
				break;
			}
			ilen = print_line(b, ip, b->buf + off, len - (long)off);
			if (!ilen)
				break;
			if (PF(b->t, SRCCODE))
				print_srccode(b, ip);
			insn++;
		}
		if (off != end - start)
			fputs("\tmismatch of LBR data and executable\n", b->f);
	}
	/* the sample hit the newest branch, or it aborted: nothing ran since */
	if (FROM(0) == s->ip || (FLAGS(0) & 8))
		return;
	/* the newest target up to the sample; a block that would run
	 * backwards misses a branch: 128 bytes until the next one */
	uint64_t start = TO(0), end = s->ip;
	if (end < start)
		end = start + 128;
	len = grab_bb(b, start, end);
	print_sym(b, start);
	if (len <= 0) {
		/* at least the sample's instruction */
		len = grab_bb(b, s->ip, s->ip);
		if (len <= 0)
			return;
		print_line(b, s->ip, b->buf, len);
		if (PF(b->t, SRCCODE))
			print_srccode(b, s->ip);
		return;
	}
	for (uint64_t off = 0; off <= end - start;) {
		long left = len - (long)off;
		int ilen = print_line(b, start + off, left > 0 ? b->buf + off : b->buf, left);
		if (!ilen)
			break;
		if (is_branch(b->buf + off, left) && start + off != s->ip) {
			fputs("\t... not reaching sample ...\n", b->f);
			break;
		}
		if (PF(b->t, SRCCODE))
			print_srccode(b, start + off);
		off += (unsigned)ilen;
	}
#undef FROM
#undef TO
#undef FLAGS
}

void script_print_brstackinsn(struct script_printer *p, int t, const struct hwprof_sample *s)
{
	struct bi b; /* with its 16 KiB block buffer, as perf has it */
	if (!s->branches || !s->branch_nr)
		return;
	const struct script_opts *o = script_printer_opts(p);
	int nr = s->branch_nr > 0x7fffffff ? 0x7fffffff : (int)s->branch_nr;
	if (o->max_blocks > 0 && nr > o->max_blocks + 1)
		nr = o->max_blocks + 1;
	b.p = p;
	b.o = o;
	b.f = script_printer_file(p);
	b.t = t;
	b.pid = (int32_t)s->pid;
	b.tid = (int32_t)s->tid;
	b.cpumode = 0; /* perf's is unset until a block is read */
	b.have_last = false;
	b.total_cycles = 0;
	fputc('\n', b.f);
	print_blocks(&b, s, nr);
}
