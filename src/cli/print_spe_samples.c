/* perf script sample lines for synthesized SPE samples and perf's data_src
 * text; see print_spe_samples.h. Widths and the data_src column's growing
 * padding follow Debian perf 6.1 (checked by tests/diff/spe_script.sh). */
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

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
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
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
	case 0xc: return "LFB/MAB";
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
 * Formatted straight into the caller's buffer with our own number
 * conversion: printf per field, then fwrite per line, were most of the
 * time of a large `script` run. */

static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static size_t fmt_u64(char *out, uint64_t v)
{
	char t[24];
	char *e = t + sizeof(t), *p = e;

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	memcpy(out, p, (size_t)(e - p));
	return (size_t)(e - p);
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
	size_t n = v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;

	for (size_t i = n; i-- > 0; v >>= 4)
		out[i] = hx[v & 15];
	return n;
}

/* s right-aligned in width (like %*s): returns the end */
static char *put_right(char *o, int width, const char *s, size_t len)
{
	if ((int)len < width) {
		memset(o, ' ', (size_t)width - len);
		o += (size_t)width - len;
	}
	memcpy(o, s, len);
	return o + len;
}

static const char spaces[32] = "                                ";

/* Fixed-size copies as 16-byte moves (the compiler turned 64 and 80 byte
 * memcpys into slow rep movs). */
static inline void copy16s(char *d, const char *src, unsigned n16)
{
	/* unrolled by hand: gcc -O2 kept a loop for the constant counts */
	switch (n16) {
	case 5: memcpy(d + 64, src + 64, 16); /* fall through */
	case 4: memcpy(d + 48, src + 48, 16); /* fall through */
	case 3: memcpy(d + 32, src + 32, 16); /* fall through */
	case 2: memcpy(d + 16, src + 16, 16); /* fall through */
	case 1: memcpy(d, src, 16); break;
	default:
		for (unsigned i = 0; i < n16; i++)
			memcpy(d + 16 * i, src + 16 * i, 16);
	}
}

/* a == b over 32 bytes (both readable that far) */
static inline bool eq32(const char *a, const char *b)
{
	uint64_t x[4], y[4];

	memcpy(x, a, 32);
	memcpy(y, b, 32);
	return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]));
}

/* v in hex right-aligned in 16 columns (always fits), written in place
 * without a loop or a branch on its length: all 16 digits, then the
 * leading zeros turned to spaces */
#if defined(__SSE2__) && defined(__x86_64__)
static inline char *put_hex16(char *o, uint64_t v)
{
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1, lead = 16 - n;
	/* bytes most significant first, split into nibbles, interleaved */
	__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
	__m128i lo4 = _mm_set1_epi8(0x0f);
	__m128i nib = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), lo4), _mm_and_si128(x, lo4));
	__m128i letter = _mm_and_si128(_mm_cmpgt_epi8(nib, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
	__m128i digits = _mm_add_epi8(_mm_add_epi8(nib, _mm_set1_epi8('0')), letter);
	__m128i lead_m = _mm_cmpgt_epi8(_mm_set1_epi8((char)lead),
					_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	digits = _mm_or_si128(_mm_andnot_si128(lead_m, digits), _mm_and_si128(lead_m, _mm_set1_epi8(' ')));
	_mm_storeu_si128((__m128i *)(void *)o, digits);
	return o + 16;
}
#else
/* The 8 hex digits of x as 8 ASCII bytes, first digit in the lowest byte:
 * nibbles spread to bytes, then '0'-'9' / 'a'-'f' added per byte. */
static inline uint64_t hex8(uint32_t x)
{
	uint64_t v = x;

	v = ((v & 0xffff0000u) << 16) | (v & 0xffffu);
	v = ((v & 0x0000ff000000ff00ull) << 8) | (v & 0x000000ff000000ffull);
	v = ((v & 0x00f000f000f000f0ull) << 4) | (v & 0x000f000f000f000full);
	v = __builtin_bswap64(v); /* most significant digit first in memory */
	uint64_t letters = ((v + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	return v + 0x3030303030303030ull + letters * ('a' - '0' - 10);
}

/* the low k (0..8) bytes of a word set */
static inline uint64_t low_bytes(unsigned k)
{
	return k >= 8 ? ~0ull : (1ull << (8 * k)) - 1;
}

static inline char *put_hex16(char *o, uint64_t v)
{
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1, lead = 16 - n;
	uint64_t a = hex8((uint32_t)(v >> 32)), b = hex8((uint32_t)v);
	uint64_t ma = low_bytes(lead), mb = low_bytes(lead > 8 ? lead - 8 : 0);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	a = (a & ~ma) | (0x2020202020202020ull & ma);
	b = (b & ~mb) | (0x2020202020202020ull & mb);
	memcpy(o, &a, 8);
	memcpy(o + 8, &b, 8);
#else
	for (unsigned i = 0; i < 8; i++) {
		o[i] = i < lead ? ' ' : (char)(a >> (8 * i));
		o[8 + i] = 8 + i < lead ? ' ' : (char)(b >> (8 * i));
	}
	(void)ma;
	(void)mb;
#endif
	return o + 16;
}
#endif

/* v in decimal right-aligned in width (<= 24) columns, written in place */
static inline char *put_dec(char *o, unsigned width, uint64_t v)
{
	unsigned n = 1;

	for (uint64_t p = 10; n < 20 && v >= p; p *= 10)
		n++;
	if (n > width)
		width = n;
	memcpy(o, spaces, 24); /* fixed size (the line buffer has room): no call */
	char *e = o + width, *p = e;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return e;
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

/* The comm, pid/tid, cpu and misc columns (comm is n bytes). */
static char *put_prefix(char *o, unsigned f, const char *comm, size_t n, const struct hwprof_spe_sample *s)
{
	char t[32];

	if (f & SCRIPT_F_COMM) {
		o = put_right(o, 16, comm, n);
		*o++ = ' ';
	}
	if ((f & SCRIPT_F_PID) && (f & SCRIPT_F_TID)) {
		n = fmt_i32(t, s->pid);
		o = put_right(o, 5, t, n);
		*o++ = '/';
		n = fmt_i32(t, s->tid);
		memcpy(o, t, n);
		o += n;
		while (n++ < 5)
			*o++ = ' ';
		*o++ = ' ';
	} else if (f & (SCRIPT_F_PID | SCRIPT_F_TID)) {
		n = fmt_i32(t, (f & SCRIPT_F_PID) ? s->pid : s->tid);
		o = put_right(o, 5, t, n);
		*o++ = ' ';
	}
	if (f & SCRIPT_F_CPU) {
		/* [%03d] */
		*o++ = '[';
		if (s->cpu < 0) {
			/* the sign counts in the width: -1 is "-01" */
			*o++ = '-';
			n = fmt_u64(t, (uint64_t)-(int64_t)s->cpu);
			for (size_t z = n; z < 2; z++)
				*o++ = '0';
		} else {
			n = fmt_u64(t, (uint64_t)s->cpu);
			for (size_t z = n; z < 3; z++)
				*o++ = '0';
		}
		memcpy(o, t, n);
		o += n;
		*o++ = ']';
		*o++ = ' ';
	}
	if (f & SCRIPT_F_MISC) {
		memset(o, ' ', 6); /* no K/U/H/G/g bits set: padding only */
		o += 6;
	}
	return o;
}

size_t script_format_spe_sample(char *out, struct script_fmt *fmt, const struct hwprof_spe_sample *s)
{
	unsigned f = fmt->fields;
	char *o = out;
	size_t n = 0;

	struct script_prefix *c = &fmt->prefix[((uint32_t)s->tid * 31u + (uint32_t)s->cpu) & (SCRIPT_PREFIX_SLOTS - 1)];
	if ((f & SCRIPT_F_COMM) && fmt->comm_ver && c->ver == *fmt->comm_ver + 1 && c->pid == s->pid &&
	    c->tid == s->tid && c->cpu == s->cpu && c->fields == f) {
		/* this thread's line start, written since the comm last changed */
		copy16s(o, c->text, sizeof(c->text) / 16); /* the line buffer has room */
		o += c->len;
	} else if (f & (SCRIPT_F_COMM | SCRIPT_F_PID | SCRIPT_F_TID | SCRIPT_F_CPU | SCRIPT_F_MISC)) {
		const char *comm = NULL;
		/* zero-padded to 32 like comm_ref's texts (compared as a block) */
		static const char no_comm[32] = "", unknown_comm[32] = ":-1";
		bool padded = true;       /* readable and zero-padded to 32 bytes */

		if (!(f & SCRIPT_F_COMM)) {
			comm = no_comm;
		} else if (fmt->comm_ref) {
			comm = fmt->comm_ref(fmt->ctx, s->pid, s->tid, &n);
			padded = fmt->comm_padded;
		} else {
			comm = fmt->comm ? fmt->comm(fmt->ctx, s->pid, s->tid) : NULL;
			n = comm ? strnlen(comm, 256) : 0;
			padded = false;
		}
		if (!comm) {
			comm = unknown_comm;
			n = 3;
			padded = true;
		}
		if (n > 256)
			n = 256;
		/* the columns of this thread as last written, if nothing changed */
		if (c->len && c->pid == s->pid && c->tid == s->tid && c->cpu == s->cpu && c->fields == f &&
		    c->comm_len == n &&
		    (padded && n < 32 ? eq32(c->comm, comm) : !memcmp(c->comm, comm, n))) {
			copy16s(o, c->text, sizeof(c->text) / 16); /* the line buffer has room */
			o += c->len;
			c->ver = fmt->comm_ver && (f & SCRIPT_F_COMM) ? *fmt->comm_ver + 1 : 0;
		} else {
			o = put_prefix(o, f, comm, n, s);
			size_t len = (size_t)(o - out);
			if (n <= sizeof(c->comm) && len <= sizeof(c->text)) {
				c->ver = fmt->comm_ver && (f & SCRIPT_F_COMM) ? *fmt->comm_ver + 1 : 0;
				c->pid = s->pid;
				c->tid = s->tid;
				c->cpu = s->cpu;
				c->fields = f;
				c->comm_len = (uint8_t)n;
				memset(c->comm, 0, sizeof(c->comm)); /* zero-padded for eq32 */
				memcpy(c->comm, comm, n);
				memcpy(c->text, out, len);
				c->len = (uint8_t)len;
			}
		}
	}
	if (f & SCRIPT_F_TIME) {
		/* seconds.microseconds (truncated) right-aligned in 12, or
		 * %5llu.%09llu with --ns */
		uint64_t secs = s->time / 1000000000;
		unsigned ns = (unsigned)(s->time % 1000000000);

		/* the seconds and '.' as written before, if one of the last
		 * two values (which one by a compare, not a branch) */
		struct script_secs *t = fmt->secs;
		unsigned i = t[1].secs == secs;
		if (t[i].secs != secs || !t[i].len) {
			i = fmt->secs_old;
			char *end = put_dec(t[i].text, 5, secs);
			*end++ = '.';
			t[i].secs = secs;
			t[i].len = (uint8_t)(end - t[i].text);
		}
		fmt->secs_old = i ^ 1; /* the one not used now */
		t += i;
		copy16s(o, t->text, sizeof(t->text) / 16); /* the line buffer has room */
		o += t->len;
		if (fmt->nanosecs) {
			o[0] = (char)('0' + ns / 100000000);
			ns %= 100000000;
			o++;
		} else {
			/* the seconds take what the 12 columns leave after ".uuuuuu" */
			ns /= 1000;
		}
		/* the rest in digit pairs: 8 digits of ns, or 6 of us */
		if (fmt->nanosecs) {
			unsigned hi = ns / 10000, lo = ns % 10000;
			memcpy(o, digits2 + 2 * (hi / 100), 2);
			memcpy(o + 2, digits2 + 2 * (hi % 100), 2);
			memcpy(o + 4, digits2 + 2 * (lo / 100), 2);
			memcpy(o + 6, digits2 + 2 * (lo % 100), 2);
			o += 8;
		} else {
			unsigned hi = ns / 10000, lo = ns % 10000;
			memcpy(o, digits2 + 2 * hi, 2);
			memcpy(o + 2, digits2 + 2 * (lo / 100), 2);
			memcpy(o + 4, digits2 + 2 * (lo % 100), 2);
			o += 6;
		}
		*o++ = ':';
		*o++ = ' ';
	}
	if ((f & SCRIPT_F_EVENT) && fmt->name_width <= 64) {
		/* the period and event columns as last written while they stay
		 * (group names are static strings: the pointer identifies one) */
		uint64_t period = (f & SCRIPT_F_PERIOD) ? s->period : 0;
		if (!fmt->ev_len || fmt->ev_name != s->name || fmt->ev_width != fmt->name_width ||
		    fmt->ev_period != period || fmt->ev_fields != (f & SCRIPT_F_PERIOD)) {
			char *e = fmt->ev_text;
			if (f & SCRIPT_F_PERIOD) {
				e = put_dec(e, 10, period);
				*e++ = ' ';
			}
			e = put_right(e, fmt->name_width, s->name, strnlen(s->name, 64));
			*e++ = ':';
			*e++ = ' ';
			fmt->ev_len = (uint8_t)(e - fmt->ev_text);
			fmt->ev_name = s->name;
			fmt->ev_width = fmt->name_width;
			fmt->ev_period = period;
			fmt->ev_fields = f & SCRIPT_F_PERIOD;
		}
		/* fixed-size copies (the line buffer has room); 64 bytes hold
		 * the usual columns */
		if (fmt->ev_len <= 64)
			copy16s(o, fmt->ev_text, 4);
		else
			copy16s(o, fmt->ev_text, sizeof(fmt->ev_text) / 16);
		o += fmt->ev_len;
	} else {
		if (f & SCRIPT_F_PERIOD) {
			o = put_dec(o, 10, s->period);
			*o++ = ' ';
		}
		if (f & SCRIPT_F_EVENT) {
			o = put_right(o, fmt->name_width, s->name, strnlen(s->name, 64));
			*o++ = ':';
			*o++ = ' ';
		}
	}
	if (f & SCRIPT_F_ADDR)
		o = put_hex16(o, s->addr);
	if (f & SCRIPT_F_DATA_SRC)
		o += script_data_src_field(s->data_src, &fmt->data_src_width, o);
	if (f & SCRIPT_F_WEIGHT)
		o = put_dec(o, 16, s->weight);
	if (f & SCRIPT_F_IP) {
		*o++ = ' ';
		o = put_hex16(o, s->ip);
		if ((f & (SCRIPT_F_SYM | SCRIPT_F_DSO)) && fmt->sym_ref) {
			const char *txt = fmt->sym_ref(fmt->ctx, s, &n);

			if (n > 511)
				n = 511;
			if (n <= 64)
				copy16s(o, txt, 4); /* one fixed-size copy; the line buffer has room */
			else
				memcpy(o, txt, n);
			o += n;
		} else if ((f & (SCRIPT_F_SYM | SCRIPT_F_DSO)) && fmt->sym) {
			char sym[512];

			sym[0] = 0;
			fmt->sym(fmt->ctx, s, f, sym, sizeof(sym));
			n = strnlen(sym, sizeof(sym));
			memcpy(o, sym, n);
			o += n;
		}
	}
	if (f & SCRIPT_F_PHYS_ADDR)
		o = put_hex16(o, s->phys_addr);
	*o++ = '\n';
	return (size_t)(o - out);
}

void script_print_spe_sample(FILE *fp, struct script_fmt *fmt, const struct hwprof_spe_sample *s)
{
	char line[SCRIPT_SPE_LINE_MAX];

	fwrite(line, 1, script_format_spe_sample(line, fmt, s), fp);
}
