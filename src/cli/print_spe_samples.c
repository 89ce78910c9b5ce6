/* perf script sample lines for synthesized SPE samples and perf's data_src
 * text; see print_spe_samples.h. Widths and the data_src column's growing
 * padding follow Debian perf 6.1 (checked by tests/diff/spe_script.sh). */
#include <inttypes.h>
#include <string.h>

#include "cli/print_spe_samples.h"

static const struct {
	const char *name;
	unsigned bit;
} script_field_names[] = {
	{ "comm", SCRIPT_F_COMM }, { "tid", SCRIPT_F_TID }, { "pid", SCRIPT_F_PID },
	{ "cpu", SCRIPT_F_CPU }, { "time", SCRIPT_F_TIME }, { "period", SCRIPT_F_PERIOD },
	{ "event", SCRIPT_F_EVENT }, { "addr", SCRIPT_F_ADDR }, { "data_src", SCRIPT_F_DATA_SRC },
	{ "weight", SCRIPT_F_WEIGHT }, { "ip", SCRIPT_F_IP }, { "sym", SCRIPT_F_SYM },
	{ "dso", SCRIPT_F_DSO }, { "phys_addr", SCRIPT_F_PHYS_ADDR },
};

int script_fmt_parse_fields(const char *list, unsigned *fields)
{
	*fields = 0;
	while (*list) {
		size_t n = strcspn(list, ",");
		unsigned i;

		for (i = 0; i < sizeof(script_field_names) / sizeof(script_field_names[0]); i++)
			if (strlen(script_field_names[i].name) == n && !strncmp(list, script_field_names[i].name, n))
				break;
		if (i == sizeof(script_field_names) / sizeof(script_field_names[0]))
			return -1;
		*fields |= script_field_names[i].bit;
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* ---- data_src text -------------------------------------------------------- */

/* bounded append, returns characters added (like perf's scnprintf) */
struct mem_buf {
	char *p;
	size_t len, size;
};

static void mb_add(struct mem_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + 1 >= b->size)
		return;
	if (n > b->size - 1 - b->len)
		n = b->size - 1 - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static const char *const mem_tlb_names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
static const char *const mem_lvl_names[] = {
	"N/A", "HIT", "MISS", "L1", "LFB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};
static const char *const mem_snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const mem_snoopx_names[] = { "Fwd", "Peer" };
static const char *const mem_hops_names[] = { "N/A", "core, same node", "node, same socket",
					      "socket, same board", "board" };

/* perf 6.1's level-number names (others print as "L<n>") */
static const char *mem_lvlnum_name(unsigned n)
{
	switch (n) {
	case 0xb: return "Any cache";
	case 0xc: return "LFB";
	case 0xd: return "RAM";
	case 0xe: return "PMEM";
	case 0xf: return "N/A";
	default: return NULL;
	}
}

/* "A or B or C" over the set bits of m naming table entries */
static int mem_list(struct mem_buf *b, uint64_t m, const char *const *names, unsigned n, int printed)
{
	for (unsigned i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			mb_add(b, " or ");
		mb_add(b, names[i]);
	}
	return printed;
}

int script_mem_text(uint64_t ds, char *buf, size_t size)
{
	struct mem_buf b = { buf, 0, size };
	uint64_t op = ds & 0x1f, lvl = (ds >> 5) & 0x3fff, snoop = (ds >> 19) & 0x1f;
	uint64_t lock = (ds >> 24) & 3, tlb = (ds >> 26) & 0x7f, lvlnum = (ds >> 33) & 0xf;
	uint64_t remote = (ds >> 37) & 1, snoopx = (ds >> 38) & 3, blk = (ds >> 40) & 7;
	uint64_t hops = (ds >> 43) & 7;
	size_t mark;
	char tmp[16];

	if (!size)
		return 0;
	buf[0] = 0;
	mb_add(&b, "|OP ");
	mb_add(&b, op & 1 ? "N/A" : op & 2 ? "LOAD" : op & 4 ? "STORE" : op & 8 ? "PFETCH" : op & 16 ? "EXEC" : "No");

	mb_add(&b, "|LVL ");
	mark = b.len;
	{
		int printed = 0;

		if (remote)
			mb_add(&b, "Remote ");
		if (hops) {
			mb_add(&b, hops < 5 ? mem_hops_names[hops] : "");
			mb_add(&b, " ");
		} else {
			printed = mem_list(&b, lvl & ~6ULL, mem_lvl_names, 14, 0);
		}
		if (lvlnum) {
			if (printed++)
				mb_add(&b, " or ");
			if (mem_lvlnum_name((unsigned)lvlnum)) {
				mb_add(&b, mem_lvlnum_name((unsigned)lvlnum));
			} else {
				snprintf(tmp, sizeof(tmp), "L%u", (unsigned)lvlnum);
				mb_add(&b, tmp);
			}
		}
		if (b.len == mark)
			mb_add(&b, "N/A");
		if (lvl & 2)
			mb_add(&b, " hit");
		if (lvl & 4)
			mb_add(&b, " miss");
	}

	mb_add(&b, "|SNP ");
	mark = b.len;
	mem_list(&b, snoopx, mem_snoopx_names, 2, mem_list(&b, snoop, mem_snoop_names, 5, 0));
	if (b.len == mark)
		mb_add(&b, "N/A");

	mb_add(&b, "|TLB ");
	mark = b.len;
	mem_list(&b, tlb & ~6ULL, mem_tlb_names, 7, 0);
	if (b.len == mark)
		mb_add(&b, "N/A");
	if (tlb & 2)
		mb_add(&b, " hit");
	if (tlb & 4)
		mb_add(&b, " miss");

	mb_add(&b, "|LCK ");
	mb_add(&b, lock & 1 ? "N/A" : lock & 2 ? "Yes" : "No");

	mb_add(&b, "|BLK ");
	if (!blk || (blk & 1)) {
		mb_add(&b, " N/A");
	} else {
		if (blk & 2)
			mb_add(&b, " Data");
		if (blk & 4)
			mb_add(&b, " Addr");
	}
	return (int)b.len;
}

/* ---- the line ------------------------------------------------------------- */

void script_print_spe_sample(FILE *fp, struct script_fmt *fmt, const struct hwprof_spe_sample *s)
{
	unsigned f = fmt->fields;

	if (f & SCRIPT_F_COMM) {
		const char *comm = fmt->comm ? fmt->comm(fmt->ctx, s->pid, s->tid) : NULL;

		fprintf(fp, "%16s ", comm ? comm : ":-1");
	}
	if ((f & SCRIPT_F_PID) && (f & SCRIPT_F_TID))
		fprintf(fp, "%5d/%-5d ", s->pid, s->tid);
	else if (f & SCRIPT_F_PID)
		fprintf(fp, "%5d ", s->pid);
	else if (f & SCRIPT_F_TID)
		fprintf(fp, "%5d ", s->tid);
	if (f & SCRIPT_F_CPU)
		fprintf(fp, "[%03d] ", s->cpu);
	if (f & SCRIPT_F_TIME) {
		char t[32];

		/* microseconds, truncated */
		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, s->time / 1000000000,
			 (s->time % 1000000000) / 1000);
		fprintf(fp, "%12s: ", t);
	}
	if (f & SCRIPT_F_PERIOD)
		fprintf(fp, "%10" PRIu64 " ", s->period);
	if (f & SCRIPT_F_EVENT)
		fprintf(fp, "%*s: ", fmt->name_width, s->name);
	if (f & SCRIPT_F_ADDR)
		fprintf(fp, "%16" PRIx64, s->addr);
	if (f & SCRIPT_F_DATA_SRC) {
		/* perf formats into 100-byte buffers and pads to the widest so far */
		char text[100], out[100];
		int len;

		script_mem_text(s->data_src, text, sizeof(text));
		len = snprintf(out, sizeof(out), "%16" PRIx64 " %s", s->data_src, text);
		if (len > (int)sizeof(out) - 1)
			len = (int)sizeof(out) - 1;
		if (fmt->data_src_width < len)
			fmt->data_src_width = len;
		fprintf(fp, "%-*s", fmt->data_src_width, out);
	}
	if (f & SCRIPT_F_WEIGHT)
		fprintf(fp, "%16" PRIu64, s->weight);
	if (f & SCRIPT_F_IP) {
		fprintf(fp, " %16" PRIx64, s->ip);
		if ((f & (SCRIPT_F_SYM | SCRIPT_F_DSO)) && fmt->sym) {
			char sym[512];

			sym[0] = 0;
			fmt->sym(fmt->ctx, s, f, sym, sizeof(sym));
			fputs(sym, fp);
		}
	}
	if (f & SCRIPT_F_PHYS_ADDR)
		fprintf(fp, "%16" PRIx64, s->phys_addr);
	fputc('\n', fp);
}
