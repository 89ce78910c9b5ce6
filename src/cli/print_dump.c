/* perf report -D output (see print_dump.h). Record lines follow perf 6.1:
 * "\n<off>@<file> [<size>]: event: <type>", the raw bytes, then
 * "[cpu ][time ]<off> [<size>]: PERF_RECORD_<NAME>" and the type's fields.
 * Output volume is large, so the raw hex dump is formatted by hand. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/print_dump.h"
#include "cli/kptr_warn.h"
#include "hwprof/perfdata_feat.h"
#include "cli/progress.h"
#include "cli/print_pt.h"
#include "cli/print_regs.h"
#include "cli/print_spe.h"
#include "cli/print_stats.h"
#include "hwprof/regs.h"
#include "util/bytes.h"

#define MAX_TYPES 128

struct dump {
	FILE *out;
	struct hwprof_session *s;
	struct hwprof_perfdata *h;
	const char *path;
	uint64_t nr_events[MAX_TYPES];
	uint64_t *evsel_samples;  /* per evsel */
	enum hwprof_arch arch;    /* register names: the file's arch, else the host's */
	uint32_t aux_type;        /* from AUXTRACE_INFO: which decoder dumps AUXTRACE data */
	uint32_t nr_evsel_slots;
	bool branch_mode;         /* perf report's branch mode (branch stack files) */
	unsigned br_cntr_nr, br_cntr_width; /* the cpu PMU's branch counter caps */
};

static const char *record_name(uint32_t type)
{
	if (type >= MAX_TYPES)
		return "INVALID";
	const char *n = stats_record_name(type);
	return n ? n : "UNKNOWN";
}

static const char hexd[] = "0123456789abcdef";

/* ".\n. ... raw event: size N bytes\n" and 16-byte hex+ASCII lines. */
static void raw_dump(FILE *out, const uint8_t *p, uint32_t len)
{
	char line[128];
	fprintf(out, ".\n. ... raw event: size %u bytes\n", len);
	for (uint32_t off = 0; off < len; off += 16) {
		uint32_t n = len - off < 16 ? len - off : 16;
		char *w = line;
		*w++ = '.';
		*w++ = ' ';
		*w++ = ' ';
		*w++ = hexd[(off >> 12) & 15];
		*w++ = hexd[(off >> 8) & 15];
		*w++ = hexd[(off >> 4) & 15];
		*w++ = hexd[off & 15];
		*w++ = ':';
		*w++ = ' ';
		for (uint32_t i = 0; i < 16; i++) {
			if (i < n) {
				*w++ = ' ';
				*w++ = hexd[p[off + i] >> 4];
				*w++ = hexd[p[off + i] & 15];
			} else {
				*w++ = ' ';
				*w++ = ' ';
				*w++ = ' ';
			}
		}
		*w++ = ' ';
		*w++ = ' ';
		for (uint32_t i = 0; i < 16; i++) {
			if (i < n) {
				uint8_t c = p[off + i];
				*w++ = (c >= 0x20 && c < 0x7f) ? (char)c : '.';
			} else {
				*w++ = ' ';
			}
		}
		*w++ = '\n';
		fwrite(line, 1, (size_t)(w - line), out);
	}
	fputc('\n', out);
}

/* The hex of an offset as perf's %#x / %#lx prints it ("0" for zero). */
static void print_hex_alt(FILE *out, uint64_t v)
{
	if (v)
		fprintf(out, "%#" PRIx64, v);
	else
		fputc('0', out);
}

static uint64_t combined_sample_type(struct hwprof_perfdata *h)
{
	uint64_t st = 0;
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++)
		st |= hwprof_perfdata_evsel(h, i)->attr.sample_type;
	return st;
}

static bool sample_id_all(struct hwprof_perfdata *h)
{
	const struct hwprof_evsel *ev = hwprof_perfdata_evsel(h, 0);
	return ev && HWPROF_ATTR_HAS(&ev->attr, HWPROF_ATTR_SAMPLE_ID_ALL);
}

static void print_string_field(FILE *out, const uint8_t *p, size_t max)
{
	fwrite(p, 1, strnlen((const char *)p, max), out);
}

static void print_cpu_map(FILE *out, const uint8_t *d, uint32_t len)
{
	/* Decode to perf's cpu list, then print its runs as ranges "0-3,5". */
	int cpus[4096];
	int n = 0;
	if (len < 2)
		return;
	uint16_t type = ld16(d);
	if (type == 0 && len >= 4) {
		uint16_t nr = ld16(d + 2);
		for (uint16_t i = 0; i < nr && 4u + 2u * i + 2 <= len && n < 4096; i++) {
			uint16_t c = ld16(d + 4 + 2 * i);
			cpus[n++] = c == 0xffff ? -1 : c; /* (u16)-1: "any cpu" (perf stat's per-thread maps) */
		}
	} else if (type == 1 && len >= 6) {
		/* packed after the type: nr, long_size, then 64-bit words after
		 * a 4-byte pad (perf's mask64: what 5.x's unsigned long mask[]
		 * at offset 8 of its struct gave), 32-bit ones at once */
		uint16_t nr = ld16(d + 2), ls = ld16(d + 4);
		uint32_t base = ls == 8 ? 10 : 6;
		for (uint16_t i = 0; i < nr; i++) {
			if (base + (uint32_t)(i + 1) * ls > len)
				break;
			uint64_t w = ls == 8 ? ld64(d + base + i * 8u) : ld32(d + base + i * 4u);
			for (unsigned b = 0; b < ls * 8u && n < 4096; b++)
				if ((w >> b) & 1)
					cpus[n++] = (int)(i * ls * 8u + b);
		}
	} else if (type == 2 && len >= 8) {
		uint16_t a = ld16(d + 4), b = ld16(d + 6);
		if (d[2]) /* any_cpu: -1 first */
			cpus[n++] = -1;
		for (unsigned c = a; c <= b && n < 4096; c++)
			cpus[n++] = (int)c;
	}
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (i)
			fputc(',', out);
		if (j > i)
			fprintf(out, "%d-%d", cpus[i], cpus[j]);
		else
			fprintf(out, "%d", cpus[i]);
		i = j + 1;
	}
}

static const char *page_size_name(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "BKMGTPEZY";
	if (!size) {
		snprintf(buf, len, "N/A");
		return buf;
	}
	int i = 0;
	while (size / 1024 > 1 && i < 8) {
		size /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", size, units[i]);
	return buf;
}

static void resolve_sample(struct dump *d, const struct hwprof_event *ev, const struct hwprof_evsel *e)
{
	FILE *out = d->out;
	const struct hwprof_sample *s = &ev->sample;
	const char *comm = hwprof_session_thread_comm(d->s, (int32_t)s->pid, (int32_t)s->tid);
	fprintf(out, " ... thread: %s:%d\n", comm ? comm : "", (int)s->tid);
	struct hwprof_map_info mi;
	char level = 0;
	int found = hwprof_session_find_map(d->s, (int32_t)s->pid, (int32_t)s->tid,
					    ev->rec.misc & HWPROF_MISC_CPUMODE_MASK, s->ip, &mi, &level);
	fprintf(out, " ...... dso: %s\n", found ? mi.dso : level == 'H' ? "[hypervisor]" : "<not found>");
	/* perf report -D counts what its report adds: in branch mode one
	 * entry per branch of the stack (none without a stack) */
	if (e->idx < d->nr_evsel_slots)
		d->evsel_samples[e->idx] += !d->branch_mode ? 1
					    : (s->sample_type & HWPROF_SAMPLE_BRANCH_STACK) ? s->branch_nr : 0;
}

/* The name perf 6.1 gives a branch entry's type (flags bits 20-23; type
 * 15, EXTEND_ABI, names new_type, bits 26-29). perf prints glibc's
 * "(null)" for values it has no name for; type 0 prints nothing. */
static const char *branch_type_text(uint64_t fl)
{
	static const char *const type[16] = { "",	  "COND",     "UNCOND",	   "IND",      "CALL",	  "IND_CALL",
					      "RET",	  "SYSCALL",  "SYSRET",	   "COND_CALL", "COND_RET", "ERET",
					      "IRQ",	  "SERROR",   "NO_TX",	   NULL };
	static const char *const new_type[16] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						  "ARCH_2",	"ARCH_3",     "ARCH_4",	    "ARCH_5" };
	unsigned t = (unsigned)(fl >> 20) & 0xf;
	const char *name = t == 15 ? new_type[(fl >> 26) & 0xf] : type[t];
	return name ? name : "(null)";
}

static void print_branch_entries(FILE *out, const struct hwprof_sample *s);

/* A branch stack. With CALL_STACK (perf record --call-graph lbr) the
 * entries are a user call stack: perf lists the first entry's target,
 * then every entry's source, and counts nr + 1. */
static void print_branch_stack(const struct dump *d, const struct hwprof_sample *s, bool callstack)
{
	FILE *out = d->out;
	if (callstack) {
		fprintf(out, "... branch callstack: nr:%" PRIu64 "\n", s->branch_nr + 1);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			if (!i)
				fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i, hwprof_u64_at(s->branches, 1));
			fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i + 1, hwprof_u64_at(s->branches, 3 * i));
		}
	} else {
		print_branch_entries(out, s);
	}
	/* PERF_SAMPLE_BRANCH_COUNTERS (kernel 6.8; perf 6.1 cannot read it):
	 * the text of the perf that added them */
	if (s->branch_counters) {
		fprintf(out, "... branch stack counters: nr:%" PRIu64 " (counter width: %u max counter nr:%u)\n",
			s->branch_nr, d->br_cntr_width, d->br_cntr_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++)
			fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i, hwprof_u64_at(s->branch_counters, i));
	}
}

static void print_branch_entries(FILE *out, const struct hwprof_sample *s)
{
	fprintf(out, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		uint64_t from = hwprof_u64_at(s->branches, 3 * i), to = hwprof_u64_at(s->branches, 3 * i + 1);
		uint64_t fl = hwprof_u64_at(s->branches, 3 * i + 2);
		fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x %s\n", i, from,
			to, (unsigned short)((fl >> 4) & 0xffff), (fl & 1) ? "M" : " ", (fl & 2) ? "P" : " ",
			(fl & 8) ? "A" : " ", (fl & 4) ? "T" : " ", (unsigned)(fl >> 33), branch_type_text(fl));
	}
}

/* perf's "LBR call chain" for CALL_STACK samples: the callchain up to and
 * including its PERF_CONTEXT_USER marker, then the user stack from the
 * branch entries (first target, every source). Printed only when the
 * chain has that marker and the stack has entries. */
static void print_lbr_chain(FILE *out, const struct hwprof_sample *s)
{
	uint64_t k = 0;
	while (k < s->callchain_nr && hwprof_u64_at(s->callchain, k) != HWPROF_CONTEXT_USER)
		k++;
	if (k == s->callchain_nr || !s->branch_nr)
		return;
	fprintf(out, "... LBR call chain: nr:%" PRIu64 "\n", k + 1 + s->branch_nr + 1);
	for (uint64_t i = 0; i <= k; i++)
		fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)i, hwprof_u64_at(s->callchain, i));
	fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)(k + 1), hwprof_u64_at(s->branches, 1));
	for (uint64_t i = 0; i < s->branch_nr; i++)
		fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)(i + k + 2), hwprof_u64_at(s->branches, 3 * i));
}

static void print_sample(struct dump *d, const struct hwprof_event *ev)
{
	FILE *out = d->out;
	const struct hwprof_sample *s = &ev->sample;
	const struct hwprof_attr *a = &s->evsel->attr;
	uint64_t st = a->sample_type;
	fprintf(out, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n", ev->rec.misc,
		(int)s->pid, (int)s->tid, s->ip, s->period, s->addr);
	bool callstack = (a->branch_sample_type & HWPROF_BRANCH_CALL_STACK) && (st & HWPROF_SAMPLE_BRANCH_STACK);
	if (st & HWPROF_SAMPLE_CALLCHAIN) {
		if (callstack)
			print_lbr_chain(out, s);
		fprintf(out, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)i, hwprof_u64_at(s->callchain, i));
	}
	if (st & HWPROF_SAMPLE_BRANCH_STACK)
		print_branch_stack(d, s, callstack);
	if (st & HWPROF_SAMPLE_REGS_USER)
		print_regs_dump(out, "user", &s->user_regs, d->arch);
	if (st & HWPROF_SAMPLE_REGS_INTR)
		print_regs_dump(out, "intr", &s->intr_regs, d->arch);
	if (st & HWPROF_SAMPLE_STACK_USER)
		fprintf(out, "... ustack: size %" PRIu64 ", offset 0x%x\n", s->stack_dyn_size,
			s->stack_size ? (unsigned)(s->stack_data - 8 - ev->rec.data) : 0u);
	if (st & (HWPROF_SAMPLE_WEIGHT | HWPROF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(out, "... weight: %" PRIu64, s->weight);
		/* perf 6.1 fills p_stage_cyc (var3) only in its powerpc
		 * build; on x86 and arm64 it prints 0 whatever the file says */
		if (st & HWPROF_SAMPLE_WEIGHT_STRUCT)
			fprintf(out, ",0x%" PRIx16 ",0x%" PRIx16, s->ins_lat, (uint16_t)0);
		fputc('\n', out);
	}
	if (st & HWPROF_SAMPLE_DATA_SRC)
		fprintf(out, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & HWPROF_SAMPLE_PHYS_ADDR)
		fprintf(out, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	char buf[32];
	if (st & HWPROF_SAMPLE_DATA_PAGE_SIZE)
		fprintf(out, " .. data page size: %s\n", page_size_name(s->data_page_size, buf, sizeof(buf)));
	if (st & HWPROF_SAMPLE_CODE_PAGE_SIZE)
		fprintf(out, " .. code page size: %s\n", page_size_name(s->code_page_size, buf, sizeof(buf)));
	if (st & HWPROF_SAMPLE_TRANSACTION)
		fprintf(out, "... transaction: %" PRIx64 "\n", s->transaction);
	if (st & HWPROF_SAMPLE_READ) {
		uint64_t rf = a->read_format;
		fprintf(out, "... sample_read:\n");
		if (rf & HWPROF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "...... time enabled %016" PRIx64 "\n", s->time_enabled);
		if (rf & HWPROF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "...... time running %016" PRIx64 "\n", s->time_running);
		if (rf & HWPROF_FORMAT_GROUP) {
			fprintf(out, ".... group nr %" PRIu64 "\n", s->read_nr);
			for (uint64_t i = 0; i < s->read_nr; i++) {
				const uint8_t *v = s->read_values + i * s->read_value_stride;
				uint64_t id = (rf & HWPROF_FORMAT_ID) ? ld64(v + 8) : 0;
				fprintf(out, "..... id %016" PRIx64 ", value %016" PRIx64, id, ld64(v));
				if (rf & HWPROF_FORMAT_LOST)
					fprintf(out, ", lost %" PRIu64, ld64(v + ((rf & HWPROF_FORMAT_ID) ? 16 : 8)));
				fputc('\n', out);
			}
		} else {
			fprintf(out, "..... id %016" PRIx64 ", value %016" PRIx64, s->read_one.id, s->read_one.value);
			if (rf & HWPROF_FORMAT_LOST)
				fprintf(out, ", lost %" PRIu64, s->read_one.lost);
			fputc('\n', out);
		}
	}
	/* perf report resolves the sample (thread and DSO lines) once, or
	 * with PERF_SAMPLE_READ once per value it delivers (see
	 * hwprof_session_read_members()). */
	if (!(st & HWPROF_SAMPLE_READ)) {
		resolve_sample(d, ev, s->evsel);
		return;
	}
	const struct hwprof_read_member *m;
	size_t n = hwprof_session_read_members(d->s, &m);
	for (size_t i = 0; i < n; i++)
		resolve_sample(d, ev, m[i].evsel);
}

static void print_mmap2(FILE *out, const uint8_t *p, uint32_t size)
{
	uint32_t prot = ld32(p + 64), flags = ld32(p + 68);
	fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)ld32(p + 8), (int)ld32(p + 12),
		ld64(p + 16), ld64(p + 24), ld64(p + 32));
	if (ld16(p + 4) & HWPROF_MISC_MMAP_BUILD_ID) {
		unsigned n = p[40] > 20 ? 20 : p[40];
		fputs(" <", out);
		for (unsigned i = 0; i < n; i++)
			fprintf(out, "%02x", p[44 + i]);
		fputs(">", out);
	} else {
		fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, ld32(p + 40), ld32(p + 44), ld64(p + 48), ld64(p + 56));
	}
	fprintf(out, "]: %c%c%c%c ", (prot & 1) ? 'r' : '-', (prot & 2) ? 'w' : '-', (prot & 4) ? 'x' : '-',
		(flags & 1) ? 's' : 'p');
	print_string_field(out, p + 72, size - 72u);
	fputc('\n', out);
}

/* The type-specific text after "PERF_RECORD_<NAME>". min_size says how
 * many bytes the fixed part needs; shorter records get a note instead. */
static void print_details(struct dump *d, const struct hwprof_event *ev)
{
	FILE *out = d->out;
	const struct hwprof_record *r = &ev->rec;
	const uint8_t *p = r->data;
	uint32_t size = r->size;
	switch (r->type) {
	case HWPROF_RECORD_MMAP:
		if (size < 40)
			break;
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c ", (int)ld32(p + 8),
			(int)ld32(p + 12), ld64(p + 16), ld64(p + 24), ld64(p + 32),
			(r->misc & HWPROF_MISC_MMAP_DATA) ? 'r' : 'x');
		print_string_field(out, p + 40, size - 40u);
		fputc('\n', out);
		return;
	case HWPROF_RECORD_MMAP2:
		if (size < 72)
			break;
		print_mmap2(out, p, size);
		return;
	case HWPROF_RECORD_COMM:
		if (size < 16)
			break;
		fprintf(out, "%s: ", (r->misc & HWPROF_MISC_COMM_EXEC) ? " exec" : "");
		print_string_field(out, p + 16, size - 16u);
		fprintf(out, ":%d/%d\n", (int)ld32(p + 8), (int)ld32(p + 12));
		return;
	case HWPROF_RECORD_EXIT:
	case HWPROF_RECORD_FORK:
		if (size < 24)
			break;
		fprintf(out, "(%d:%d):(%d:%d)\n", (int)ld32(p + 8), (int)ld32(p + 16), (int)ld32(p + 12),
			(int)ld32(p + 20));
		return;
	case HWPROF_RECORD_LOST:
		if (size < 24)
			break;
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ld64(p + 8), ld64(p + 16));
		return;
	case HWPROF_RECORD_LOST_SAMPLES:
		if (size < 16)
			break;
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", ev->sample.id, ld64(p + 8));
		return;
	case HWPROF_RECORD_SAMPLE:
		if (ev->parse_err < 0 || !ev->sample.evsel)
			break;
		print_sample(d, ev);
		return;
	case HWPROF_RECORD_AUX:
		if (size < 32)
			break;
		{
			uint64_t fl = ld64(p + 24);
			fputs(" offset: ", out);
			print_hex_alt(out, ld64(p + 8));
			fputs(" size: ", out);
			print_hex_alt(out, ld64(p + 16));
			fputs(" flags: ", out);
			print_hex_alt(out, fl);
			fprintf(out, " [%s%s%s]\n", (fl & 1) ? "T" : "", (fl & 2) ? "O" : "", (fl & 4) ? "P" : "");
		}
		return;
	case HWPROF_RECORD_ITRACE_START:
		if (size < 16)
			break;
		fprintf(out, " pid: %u tid: %u\n", ld32(p + 8), ld32(p + 12));
		return;
	case HWPROF_RECORD_SWITCH:
	case HWPROF_RECORD_SWITCH_CPU_WIDE: {
		bool sw_out = r->misc & HWPROF_MISC_SWITCH_OUT;
		const char *in_out = !sw_out ? "IN         "
				     : !(r->misc & HWPROF_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " : "OUT preempt";
		if (r->type == HWPROF_RECORD_SWITCH) {
			fprintf(out, " %s\n", in_out);
			return;
		}
		if (size < 16)
			break;
		fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out, sw_out ? "next" : "prev", (int)ld32(p + 8),
			(int)ld32(p + 12));
		return;
	}
	case HWPROF_RECORD_ID_INDEX: {
		if (size < 16)
			break;
		uint64_t n = ld64(p + 8);
		fprintf(out, " nr: %" PRIu64 "\n", n);
		uint64_t max = (size - 16u) / 32u;
		/* room for a second array of {machine_pid, vcpu} per id after
		 * the first (perf inject --guest-data) */
		const uint8_t *e2 = n <= max && size - 16u >= n * 48 ? p + 16 + 32 * n : NULL;
		for (uint64_t i = 0; i < n && i < max; i++) {
			const uint8_t *e = p + 16 + 32 * i;
			fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64, ld64(e),
				ld64(e + 8), (int64_t)ld64(e + 16), (int64_t)ld64(e + 24));
			if (e2)
				fprintf(out, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64, (int64_t)ld64(e2 + 16 * i),
					ld64(e2 + 16 * i + 8));
			fputc('\n', out);
		}
		return;
	}
	case HWPROF_RECORD_THREAD_MAP: {
		if (size < 16)
			break;
		uint64_t n = ld64(p + 8);
		uint64_t max = (size - 16u) / 24u;
		if (n > max)
			n = max;
		fprintf(out, " nr: %d thread%s: ", (int)n, n > 1 ? "s" : "");
		for (uint64_t i = 0; i < n; i++)
			fprintf(out, "%s%d", i ? ", " : "", (int)ld64(p + 16 + 24 * i));
		fputs("\n: unhandled!\n", out);
		return;
	}
	case HWPROF_RECORD_CPU_MAP:
		fputs(": ", out);
		print_cpu_map(out, p + 8, size - 8u);
		fputs("\n: unhandled!\n", out);
		return;
	case HWPROF_RECORD_EVENT_UPDATE: {
		if (size < 24)
			break;
		uint64_t type = ld64(p + 8);
		fprintf(out, "\n... id:    %" PRIu64 "\n", ld64(p + 16));
		if (type == 0) {
			fputs("... unit:  ", out);
			print_string_field(out, p + 24, size - 24u);
			fputc('\n', out);
		} else if (type == 1 && size >= 32) {
			double sc;
			memcpy(&sc, p + 24, 8);
			fprintf(out, "... scale: %f\n", sc);
		} else if (type == 2) {
			fputs("... name:  ", out);
			print_string_field(out, p + 24, size - 24u);
			fputc('\n', out);
		} else if (type == 3) {
			fputs("... ", out);
			print_cpu_map(out, p + 24, size - 24u);
			fputc('\n', out);
		} else {
			fputs("... unknown type\n", out);
		}
		return;
	}
	case HWPROF_RECORD_TIME_CONV:
		if (size < 32)
			break;
		fprintf(out, "\n... Time Shift      %" PRIu64 "\n", ld64(p + 8));
		fprintf(out, "... Time Muliplier  %" PRIu64 "\n", ld64(p + 16));
		fprintf(out, "... Time Zero       %" PRIu64 "\n", ld64(p + 24));
		if (size >= 56) {
			fprintf(out, "... Time Cycles     %" PRIu64 "\n", ld64(p + 32));
			fprintf(out, "... Time Mask       %#" PRIx64 "\n", ld64(p + 40));
			fprintf(out, "... Cap Time Zero   %d\n", p[48]);
			fprintf(out, "... Cap Time Short  %d\n", p[49]);
		}
		fputs(": unhandled!\n", out);
		return;
	case HWPROF_RECORD_AUXTRACE_INFO: {
		if (size < 16)
			break;
		d->aux_type = ld32(p + 8);
		fprintf(out, " type: %u\n", d->aux_type);
		size_t nr = (size - 16u) / 8u;
		uint64_t priv[64];
		size_t np = nr < 64 ? nr : 64;
		for (size_t i = 0; i < np; i++)
			priv[i] = ld64(p + 16 + 8 * i);
		if (d->aux_type == HWPROF_AUXTRACE_INTEL_PT) {
			size_t fixed = np < 17 ? np : 17;
			print_pt_auxtrace_info(out, priv, fixed, p + 16 + 8 * fixed, size - 16u - 8 * fixed);
		} else if (d->aux_type == HWPROF_AUXTRACE_ARM_SPE) {
			print_spe_auxtrace_info_61(out, priv, np);
		}
		return;
	}
	case HWPROF_RECORD_AUXTRACE:
		if (size < 48)
			break;
		fputs(" size: ", out);
		print_hex_alt(out, ld64(p + 8));
		fputs("  offset: ", out);
		print_hex_alt(out, ld64(p + 16));
		fputs("  ref: ", out);
		print_hex_alt(out, ld64(p + 24));
		fprintf(out, "  idx: %u  tid: %d  cpu: %d\n", ld32(p + 32), (int)ld32(p + 36), (int)ld32(p + 40));
		if (d->aux_type == HWPROF_AUXTRACE_INTEL_PT)
			print_pt_dump(out, r->payload, (size_t)r->payload_size);
		else if (d->aux_type == HWPROF_AUXTRACE_ARM_SPE)
			/* SPE alignment packets depend on where the data lies:
			 * in perf's file mapping, its file offset */
			print_spe_dump_at(out, r->payload, (size_t)r->payload_size, r->offset + r->size);
		return;
	case HWPROF_RECORD_READ: {
		/* perf reads the record as its fixed struct (value, enabled,
		 * running, id, lost at fixed offsets) whatever the read_format. */
		if (size < 24)
			break;
		char nb[128];
		const struct hwprof_evsel *e = hwprof_perfdata_record_evsel(d->h, r);
		fprintf(out, ": %d %d %s %" PRIu64 "\n", (int)ld32(p + 8), (int)ld32(p + 12),
			e ? hwprof_evsel_name(e, nb, sizeof(nb)) : "unknown", ld64(p + 16));
		if (!e)
			return;
		uint64_t rf = e->attr.read_format;
#define AT(off) ((off) + 8u <= size ? ld64(p + (off)) : 0)
		if (rf & HWPROF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "... time enabled : %" PRIu64 "\n", AT(24));
		if (rf & HWPROF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "... time running : %" PRIu64 "\n", AT(32));
		if (rf & HWPROF_FORMAT_ID)
			fprintf(out, "... id           : %" PRIu64 "\n", AT(40));
		if (rf & HWPROF_FORMAT_LOST)
			fprintf(out, "... lost         : %" PRIu64 "\n", AT(48));
#undef AT
		return;
	}
	case HWPROF_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		if (size < 24)
			break;
		uint64_t n = ld64(p + 16), max = (size - 24u) / 16u;
		fprintf(out, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (int)ld32(p + 8), (int)ld32(p + 12), n);
		if (n > max)
			n = max;
		for (uint64_t i = 0; i < n; i++) {
			if (i && i % 4 == 0) /* perf wraps the list every four */
				fputs("\n\t\t ", out);
			fprintf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i, i < 7 ? ns[i] : "UNKNOWN",
				ld64(p + 24 + 16 * i), ld64(p + 32 + 16 * i), i + 1 != n ? ", " : "]\n");
		}
		if (!n)
			fputc('\n', out);
		return;
	}
	case HWPROF_RECORD_KSYMBOL:
		if (size < 24)
			break;
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name ", ld64(p + 8), ld32(p + 16), ld16(p + 20),
			ld16(p + 22));
		print_string_field(out, p + 24, size - 24u);
		fputc('\n', out);
		return;
	case HWPROF_RECORD_BPF_EVENT:
		if (size < 16)
			break;
		fprintf(out, " type %u, flags %u, id %u\n", ld16(p + 8), ld16(p + 10), ld32(p + 12));
		return;
	case HWPROF_RECORD_CGROUP:
		if (size < 16)
			break;
		fprintf(out, " cgroup: %" PRIu64 " ", ld64(p + 8));
		print_string_field(out, p + 16, size - 16u);
		fputc('\n', out);
		return;
	case HWPROF_RECORD_TEXT_POKE: {
		if (size < 20)
			break;
		uint16_t ol = ld16(p + 16), nl = ld16(p + 18);
		fprintf(out, " %" PRIx64 "  old len %u new len %u\n", ld64(p + 8), ol, nl);
		for (int pass = 0; pass < 2; pass++) {
			uint32_t at = 20u + (pass ? ol : 0u), n = pass ? nl : ol;
			/* perf's byte printer: 16 a line, each with the label;
			 * no line for none */
			for (uint32_t i = 0; i < n && at + i < size; i++) {
				if (i % 16 == 0)
					fputs(pass ? "            New bytes:" : "            Old bytes:", out);
				fprintf(out, " %02x", p[at + i]);
				if (i % 16 == 15 || i + 1 == n || at + i + 1 == size)
					fputc('\n', out);
			}
		}
		return;
	}
	case HWPROF_RECORD_AUX_OUTPUT_HW_ID:
		if (size < 16)
			break;
		fprintf(out, " hw_id: %#" PRIx64 "\n", ld64(p + 8));
		return;
	case HWPROF_RECORD_STAT_CONFIG: {
		if (size < 16)
			break;
		int64_t aggr = 0, scale = 0;
		uint64_t interval = 0, n = ld64(p + 8), max = (size - 16u) / 16u;
		for (uint64_t i = 0; i < n && i < max; i++) {
			uint64_t tag = ld64(p + 16 + 16 * i), val = ld64(p + 24 + 16 * i);
			if (tag == 0)
				aggr = (int64_t)val;
			else if (tag == 1)
				interval = val;
			else if (tag == 2)
				scale = (int64_t)val;
		}
		fprintf(out, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n", (int)aggr,
			(int)scale, (unsigned)interval);
		return;
	}
	case HWPROF_RECORD_STAT:
		if (size < 48)
			break;
		fprintf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n... value %" PRIu64 ", enabled %" PRIu64
			     ", running %" PRIu64 "\n: unhandled!\n",
			ld64(p + 8), (int)ld32(p + 16), (int)ld32(p + 20), ld64(p + 24), ld64(p + 32), ld64(p + 40));
		return;
	case HWPROF_RECORD_STAT_ROUND:
		if (size < 24)
			break;
		fprintf(out, "\n... time %" PRIu64 ", type %s\n: unhandled!\n", ld64(p + 16),
			ld64(p + 8) == 1 ? "FINAL" : "INTERVAL");
		return;
	case HWPROF_RECORD_FINISHED_ROUND:
		/* unordered, perf has no round handler */
		fputs(hwprof_session_ordered(d->s) ? "\n" : ": unhandled!\n", out);
		return;
	case HWPROF_RECORD_FINISHED_INIT:
		fputs(": unhandled!\n", out);
		return;
	case HWPROF_RECORD_HEADER_ATTR:
	case HWPROF_RECORD_HEADER_FEATURE:
	case HWPROF_RECORD_HEADER_TRACING_DATA:
	case HWPROF_RECORD_HEADER_BUILD_ID:
	case HWPROF_RECORD_HEADER_EVENT_TYPE:
		/* perf prints nothing more, not even a newline */
		return;
	default:
		break;
	}
	fputs(": unhandled!\n", out);
}

static void print_event(struct dump *d, const struct hwprof_event *ev)
{
	FILE *out = d->out;
	const struct hwprof_record *r = &ev->rec;
	fputc('\n', out);
	print_hex_alt(out, r->offset);
	fprintf(out, "@%s [%#x]: event: %u\n", d->path ? d->path : hwprof_perfdata_file_path(d->h, r->file_idx),
		r->size, r->type);
	raw_dump(out, r->data, r->size);
	/* A HEADER_ATTR is printed against the events before it. */
	bool sid = sample_id_all(d->h);
	if (r->type == HWPROF_RECORD_HEADER_ATTR && hwprof_perfdata_nr_evsels(d->h) <= 1)
		sid = false;
	if (r->type != HWPROF_RECORD_SAMPLE && !sid) {
		fputs("-1 -1 ", out);
	} else {
		uint64_t st = combined_sample_type(d->h);
		if (st & HWPROF_SAMPLE_CPU)
			fprintf(out, "%u ", ev->sample.cpu);
		if (st & HWPROF_SAMPLE_TIME)
			fprintf(out, "%" PRIu64 " ", ev->sample.time);
	}
	print_hex_alt(out, r->offset);
	fprintf(out, " [%#x]: PERF_RECORD_%s", r->size, record_name(r->type));
	print_details(d, ev);
}

void print_record_text(FILE *out, struct hwprof_session *s, const struct hwprof_event *ev)
{
	struct dump d;
	memset(&d, 0, sizeof(d));
	d.out = out;
	d.s = s;
	d.h = hwprof_session_data(s);
	d.arch = hwprof_perfdata_arch(d.h);
	fprintf(out, "PERF_RECORD_%s", record_name(ev->rec.type));
	print_details(&d, ev);
}

/* The branch counter geometry newer perf prints with branch counters:
 * the branch_counter_nr / branch_counter_width capabilities of the cpu
 * PMU (CPU_PMU_CAPS, else the first PMU of PMU_CAPS); 0 without them. */
static void branch_counter_caps(struct dump *d)
{
	const unsigned feats[] = { HWPROF_FEAT_CPU_PMU_CAPS, HWPROF_FEAT_PMU_CAPS };
	for (int k = 0; k < 2; k++) {
		struct hwprof_feat *f;
		if (hwprof_perfdata_feat(d->h, feats[k], &f) != 1)
			continue;
		const struct hwprof_feat_caps *c = k == 0 ? &f->u.cpu_pmu_caps
						  : f->u.pmu_caps.nr ? &f->u.pmu_caps.pmus[0] : NULL;
		for (uint32_t i = 0; c && i < c->nr; i++) {
			if (!strcmp(c->names[i], "branch_counter_nr"))
				d->br_cntr_nr = (unsigned)strtoul(c->values[i], NULL, 0);
			else if (!strcmp(c->names[i], "branch_counter_width"))
				d->br_cntr_width = (unsigned)strtoul(c->values[i], NULL, 0);
		}
		hwprof_feat_free(f);
		if (k == 0)
			return;
	}
}

/* The ARCH feature (u32 len + string), as perf_env__arch() uses it. */
int print_dump(FILE *out, struct hwprof_session *s, const char *display_path, int branch_mode,
	       struct cli_progress *progress, bool *kernel_map)
{
	uint64_t nrec = 0;
	struct dump d = { .out = out, .s = s, .h = hwprof_session_data(s), .path = display_path };
	struct hwprof_event ev;
	int rc;
	d.arch = hwprof_perfdata_arch(d.h);
	branch_counter_caps(&d);
	{
		/* perf report's default for files with branch stacks, unless
		 * user stacks are sampled too; -b and --no-branch-stack decide */
		const uint8_t *fp;
		uint64_t fsz;
		d.branch_mode = branch_mode > 0 ||
				(branch_mode < 0 &&
				 hwprof_perfdata_feature(d.h, HWPROF_FEAT_BRANCH_STACK, &fp, &fsz, NULL) == 1 &&
				 !(combined_sample_type(d.h) & HWPROF_SAMPLE_STACK_USER));
	}
	while ((rc = hwprof_session_next(s, &ev)) > 0) {
		uint32_t n = hwprof_perfdata_nr_evsels(d.h);
		if (n > d.nr_evsel_slots) {
			uint64_t *v = realloc(d.evsel_samples, n * sizeof(*v));
			if (!v) {
				rc = -HWPROF_E_NOMEM;
				break;
			}
			memset(v + d.nr_evsel_slots, 0, (n - d.nr_evsel_slots) * sizeof(*v));
			d.evsel_samples = v;
			d.nr_evsel_slots = n;
		}
		if (ev.rec.type < MAX_TYPES)
			d.nr_events[ev.rec.type]++;
		d.nr_events[0]++;
		print_event(&d, &ev);
		if (ev.rec.type == HWPROF_RECORD_MMAP || ev.rec.type == HWPROF_RECORD_MMAP2)
			*kernel_map |= kptr_is_kernel_map(&ev.rec);
		if (progress && (nrec++ & 4095) == 0)
			cli_progress_update(progress, ev.rec.offset);
		if (ev.parse_err < 0) {
			rc = ev.parse_err;
			break;
		}
	}
	if (rc == 0) {
		uint64_t nc = hwprof_perfdata_info(d.h)->nr_compressed;
		d.nr_events[HWPROF_RECORD_COMPRESSED] += nc;
		d.nr_events[0] += nc;
		/* perf's note on files with an AUX area index */
		const uint8_t *fp;
		uint64_t fsz;
		bool aux = hwprof_perfdata_feature(d.h, HWPROF_FEAT_AUXTRACE, &fp, &fsz, NULL) == 1;
		print_aggregated_stats(out, d.nr_events, MAX_TYPES, aux);
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(d.h); i++) {
			char buf[128];
			const struct hwprof_evsel *e = hwprof_perfdata_evsel(d.h, i);
			/* perf skips events without samples (the dummy tracking event) */
			if (i >= d.nr_evsel_slots || !d.evsel_samples[i])
				continue;
			fprintf(out, "%s stats:\n", hwprof_evsel_name(e, buf, sizeof(buf)));
			print_evsel_stats_line(out, "SAMPLE", d.evsel_samples[i]);
		}
	}
	free(d.evsel_samples);
	return rc;
}
