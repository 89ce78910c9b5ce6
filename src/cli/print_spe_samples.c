/* perf script sample lines for synthesized SPE samples and perf's data_src
 * text; see print_spe_samples.h. Widths and the data_src column's growing
 * padding follow Debian perf 6.1 (checked by tests/diff/spe_script.sh). */
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
	{ "dso", SCRIPT_F_DSO }, { "phys_addr", SCRIPT_F_PHYS_ADDR }, { "misc", SCRIPT_F_MISC },
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

/* ---- the line -------------------------------------------------------------
 * Built by hand into one buffer and written with a single fwrite: printf
 * per field was most of the time of a large `script` run. */

struct line {
	char b[1024];
	size_t n;
};

static void ln_pad(struct line *l, int width, size_t len)
{
	while ((int)len < width && l->n < sizeof(l->b) - 1) {
		l->b[l->n++] = ' ';
		len++;
	}
}

static void ln_str(struct line *l, const char *s, size_t len)
{
	if (len > sizeof(l->b) - 1 - l->n)
		len = sizeof(l->b) - 1 - l->n;
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

/* right-aligned in width (like %*s / %*d / %*lx) */
static void ln_right(struct line *l, int width, const char *s, size_t len)
{
	ln_pad(l, width, len);
	ln_str(l, s, len);
}

static size_t fmt_u64(char *out, uint64_t v)
{
	char t[24];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	return n;
}

static size_t fmt_i32(char *out, int32_t v)
{
	if (v < 0) {
		out[0] = '-';
		return 1 + fmt_u64(out + 1, (uint64_t)-(int64_t)v);
	}
	return fmt_u64(out, (uint64_t)v);
}

static size_t fmt_hex(char *out, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char t[16];
	size_t n = 0, i;

	do {
		t[n++] = hx[v & 15];
		v >>= 4;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	return n;
}

size_t script_data_src_field(uint64_t data_src, int *width, char *out)
{
	/* perf formats into 100-byte buffers and pads to the widest so far */
	char text[100], t[32];
	size_t len = 0, n;
	script_mem_text(data_src, text, sizeof(text));
	n = fmt_hex(t, data_src);
	for (size_t z = n; z < 16; z++)
		out[len++] = ' ';
	memcpy(out + len, t, n);
	len += n;
	out[len++] = ' ';
	n = strlen(text);
	if (n > 99 - len)
		n = 99 - len;
	memcpy(out + len, text, n);
	len += n;
	if (*width < (int)len)
		*width = (int)len;
	while ((int)len < *width && len < 99)
		out[len++] = ' ';
	return len;
}

void script_print_spe_sample(FILE *fp, struct script_fmt *fmt, const struct hwprof_spe_sample *s)
{
	unsigned f = fmt->fields;
	struct line l;
	char t[32];
	size_t n;

	l.n = 0;
	if (f & SCRIPT_F_COMM) {
		const char *comm = fmt->comm ? fmt->comm(fmt->ctx, s->pid, s->tid) : NULL;

		if (!comm)
			comm = ":-1";
		ln_right(&l, 16, comm, strlen(comm));
		ln_str(&l, " ", 1);
	}
	if ((f & SCRIPT_F_PID) && (f & SCRIPT_F_TID)) {
		n = fmt_i32(t, s->pid);
		ln_right(&l, 5, t, n);
		ln_str(&l, "/", 1);
		n = fmt_i32(t, s->tid);
		ln_str(&l, t, n);
		ln_pad(&l, 5, n);
		ln_str(&l, " ", 1);
	} else if (f & (SCRIPT_F_PID | SCRIPT_F_TID)) {
		n = fmt_i32(t, (f & SCRIPT_F_PID) ? s->pid : s->tid);
		ln_right(&l, 5, t, n);
		ln_str(&l, " ", 1);
	}
	if (f & SCRIPT_F_CPU) {
		/* [%03d] */
		if (s->cpu < 0) {
			n = (size_t)snprintf(t, sizeof(t), "%03d", s->cpu);
		} else {
			char d[16];
			size_t k = fmt_u64(d, (uint64_t)s->cpu);

			n = 0;
			while (n + k < 3)
				t[n++] = '0';
			memcpy(t + n, d, k);
			n += k;
		}
		ln_str(&l, "[", 1);
		ln_str(&l, t, n);
		ln_str(&l, "] ", 2);
	}
	if (f & SCRIPT_F_MISC)
		ln_str(&l, "      ", 6); /* no K/U/H/G/g bits set: padding only */
	if (f & SCRIPT_F_TIME) {
		/* seconds.microseconds (truncated) right-aligned in 12, or
		 * %5llu.%09llu with --ns */
		int digits = fmt->nanosecs ? 9 : 6;
		uint64_t frac = fmt->nanosecs ? s->time % 1000000000 : (s->time % 1000000000) / 1000;

		n = fmt_u64(t, s->time / 1000000000);
		t[n++] = '.';
		for (int d = digits - 1; d >= 0; d--) {
			t[n + (size_t)d] = (char)('0' + frac % 10);
			frac /= 10;
		}
		n += (size_t)digits;
		ln_right(&l, fmt->nanosecs ? 6 + digits : 12, t, n);
		ln_str(&l, ": ", 2);
	}
	if (f & SCRIPT_F_PERIOD) {
		n = fmt_u64(t, s->period);
		ln_right(&l, 10, t, n);
		ln_str(&l, " ", 1);
	}
	if (f & SCRIPT_F_EVENT) {
		ln_right(&l, fmt->name_width, s->name, strlen(s->name));
		ln_str(&l, ": ", 2);
	}
	if (f & SCRIPT_F_ADDR) {
		n = fmt_hex(t, s->addr);
		ln_right(&l, 16, t, n);
	}
	if (f & SCRIPT_F_DATA_SRC) {
		char out[100];
		n = script_data_src_field(s->data_src, &fmt->data_src_width, out);
		ln_str(&l, out, n);
	}
	if (f & SCRIPT_F_WEIGHT) {
		n = fmt_u64(t, s->weight);
		ln_right(&l, 16, t, n);
	}
	if (f & SCRIPT_F_IP) {
		ln_str(&l, " ", 1);
		n = fmt_hex(t, s->ip);
		ln_right(&l, 16, t, n);
		if ((f & (SCRIPT_F_SYM | SCRIPT_F_DSO)) && fmt->sym) {
			char sym[512];

			sym[0] = 0;
			fmt->sym(fmt->ctx, s, f, sym, sizeof(sym));
			ln_str(&l, sym, strlen(sym));
		}
	}
	if (f & SCRIPT_F_PHYS_ADDR) {
		n = fmt_hex(t, s->phys_addr);
		ln_right(&l, 16, t, n);
	}
	l.b[l.n++] = '\n';
	fwrite(l.b, 1, l.n, fp);
}
