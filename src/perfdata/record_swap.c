/* Cross-endian records: a perf.data written on a big-endian machine read on
 * a little-endian one (or the reverse). Each record is copied and every
 * field swapped according to its layout, so all later parsing sees host
 * order. Strings and opaque bytes (RAW, stack dumps, AUX data) stay as
 * they are. */
#include <string.h>

#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

static void sw16(uint8_t *p) { st16(p, __builtin_bswap16(ld16(p))); }
static void sw32(uint8_t *p) { st32(p, __builtin_bswap32(ld32(p))); }
static void sw64(uint8_t *p) { st64(p, __builtin_bswap64(ld64(p))); }

/* Swap a field and return its host-order value: read after swapping when
 * converting to host order, before when converting from it. */
static uint64_t sw64v(uint8_t *p, bool to_host)
{
	uint64_t raw = ld64(p);
	sw64(p);
	return to_host ? __builtin_bswap64(raw) : raw;
}
static uint32_t sw32v(uint8_t *p, bool to_host)
{
	uint32_t raw = ld32(p);
	sw32(p);
	return to_host ? __builtin_bswap32(raw) : raw;
}
static uint16_t sw16v(uint8_t *p, bool to_host)
{
	uint16_t raw = ld16(p);
	sw16(p);
	return to_host ? __builtin_bswap16(raw) : raw;
}

/* Body layouts after the 8-byte header: '2','4','8' swap a field of that
 * width, 'A' swaps all remaining u64s, 's' stops (string or bytes follow),
 * 'N' reads a u64 count (already swapped) and swaps that many u64s. */
static const char *const layouts[] = {
	[HWPROF_RECORD_MMAP] = "44888s",
	[HWPROF_RECORD_LOST] = "88",
	[HWPROF_RECORD_COMM] = "44s",
	[HWPROF_RECORD_EXIT] = "44448",
	[HWPROF_RECORD_THROTTLE] = "888",
	[HWPROF_RECORD_UNTHROTTLE] = "888",
	[HWPROF_RECORD_FORK] = "44448",
	[HWPROF_RECORD_MMAP2] = "44888448844s",
	[HWPROF_RECORD_AUX] = "888",
	[HWPROF_RECORD_ITRACE_START] = "44",
	[HWPROF_RECORD_LOST_SAMPLES] = "8",
	[HWPROF_RECORD_SWITCH] = "",
	[HWPROF_RECORD_SWITCH_CPU_WIDE] = "44",
	[HWPROF_RECORD_NAMESPACES] = "448A",
	[HWPROF_RECORD_KSYMBOL] = "8422s",
	[HWPROF_RECORD_BPF_EVENT] = "224s",
	[HWPROF_RECORD_CGROUP] = "8s",
	[HWPROF_RECORD_TEXT_POKE] = "822s",
	[HWPROF_RECORD_AUX_OUTPUT_HW_ID] = "8",
	[HWPROF_RECORD_FINISHED_ROUND] = "",
	[HWPROF_RECORD_ID_INDEX] = "A",
	[HWPROF_RECORD_AUXTRACE_INFO] = "44A",
	[HWPROF_RECORD_AUXTRACE] = "8884444",
	[HWPROF_RECORD_AUXTRACE_ERROR] = "44444488s",
	[HWPROF_RECORD_THREAD_MAP] = "8s", /* entries {u64 pid; char comm[16]}: done below */
	[HWPROF_RECORD_STAT_CONFIG] = "A",
	[HWPROF_RECORD_STAT] = "844888",
	[HWPROF_RECORD_STAT_ROUND] = "88",
	[HWPROF_RECORD_EVENT_UPDATE] = "88s",
	[HWPROF_RECORD_TIME_CONV] = "88888s",
	[HWPROF_RECORD_HEADER_FEATURE] = "8s",
	[HWPROF_RECORD_HEADER_TRACING_DATA] = "4",
	[HWPROF_RECORD_HEADER_BUILD_ID] = "4s",
	[HWPROF_RECORD_FINISHED_INIT] = "",
	[HWPROF_RECORD_COMPRESSED2] = "8s",
};

static void swap_layout(uint8_t *p, uint8_t *end, const char *l)
{
	for (; *l; l++) {
		switch (*l) {
		case '2': if (end - p < 2) return; sw16(p); p += 2; break;
		case '4': if (end - p < 4) return; sw32(p); p += 4; break;
		case '8': if (end - p < 8) return; sw64(p); p += 8; break;
		case 'A': while (end - p >= 8) { sw64(p); p += 8; } return;
		case 's': return;
		}
	}
}

/* Swap the sample_id_all trailer at the end of a kernel record. */
static void swap_trailer(uint8_t *rec, uint32_t size, uint64_t st)
{
	uint8_t *p = rec + size;
	if ((st & HWPROF_SAMPLE_IDENTIFIER) && p - rec >= 16) { p -= 8; sw64(p); }
	if ((st & HWPROF_SAMPLE_CPU) && p - rec >= 16) { p -= 8; sw32(p); sw32(p + 4); }
	if ((st & HWPROF_SAMPLE_STREAM_ID) && p - rec >= 16) { p -= 8; sw64(p); }
	if ((st & HWPROF_SAMPLE_ID) && p - rec >= 16) { p -= 8; sw64(p); }
	if ((st & HWPROF_SAMPLE_TIME) && p - rec >= 16) { p -= 8; sw64(p); }
	if ((st & HWPROF_SAMPLE_TID) && p - rec >= 16) { p -= 8; sw32(p); sw32(p + 4); }
}

static size_t trailer_size(uint64_t st)
{
	size_t n = 0;
	uint64_t bits = HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID | HWPROF_SAMPLE_STREAM_ID |
			HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_IDENTIFIER;
	for (uint64_t b = st & bits; b; b &= b - 1)
		n += 8;
	return n;
}

#define NEED(n) do { if ((size_t)(end - p) < (size_t)(n)) return; } while (0)

/* A branch entry's flags are a bitfield, laid out from the low bit on a
 * little-endian kernel and from the high bit on a big-endian one; after
 * the u64 is swapped each field still has to move to its mirrored place
 * (fields in order: mispred 1, predicted 1, in_tx 1, abort 1, cycles 16,
 * type 4, spec 2, new_type 4, priv 3, reserved 31). Values are returned
 * in the little-endian layout, which is what hwprof's printers read. */
static const uint8_t branch_field_bits[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31 };

static uint64_t branch_flags_from_be(uint64_t v)
{
	uint64_t out = 0;
	unsigned pos = 0;
	for (size_t i = 0; i < sizeof(branch_field_bits); i++) {
		unsigned n = branch_field_bits[i];
		uint64_t m = (1ULL << n) - 1;
		out |= ((v >> (64 - pos - n)) & m) << pos;
		pos += n;
	}
	return out;
}

static uint64_t branch_flags_to_be(uint64_t v)
{
	uint64_t out = 0;
	unsigned pos = 0;
	for (size_t i = 0; i < sizeof(branch_field_bits); i++) {
		unsigned n = branch_field_bits[i];
		uint64_t m = (1ULL << n) - 1;
		out |= ((v >> pos) & m) << (64 - pos - n);
		pos += n;
	}
	return out;
}

static void swap_regs(uint8_t **pp, uint8_t *end, uint64_t mask, bool th)
{
	uint8_t *p = *pp;
	NEED(8);
	uint64_t abi = sw64v(p, th);
	p += 8;
	if (abi) {
		for (int i = __builtin_popcountll(mask); i > 0 && end - p >= 8; i--, p += 8)
			sw64(p);
		if (abi & HWPROF_REGS_ABI_SIMD) {
			NEED(32);
			uint64_t v[4];
			for (int i = 0; i < 4; i++)
				v[i] = sw64v(p + 8 * i, th);
			if (v[0] > 65536 || v[1] > 65536 || v[2] > 65536 || v[3] > 65536)
				return;
			uint64_t n = v[0] * v[1] + v[2] * v[3];
			p += 32;
			for (; n && end - p >= 8; n--, p += 8)
				sw64(p);
		}
	}
	*pp = p;
}

static void swap_sample(uint8_t *p, uint8_t *end, const struct hwprof_attr *a, bool th)
{
	uint64_t st = a->sample_type;
	if (st & HWPROF_SAMPLE_IDENTIFIER) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_IP) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_TID) { NEED(8); sw32(p); sw32(p + 4); p += 8; }
	if (st & HWPROF_SAMPLE_TIME) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_ADDR) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_ID) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_STREAM_ID) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_CPU) { NEED(8); sw32(p); sw32(p + 4); p += 8; }
	if (st & HWPROF_SAMPLE_PERIOD) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_READ) {
		uint64_t rf = a->read_format, n = 1;
		if (rf & HWPROF_FORMAT_GROUP) { NEED(8); n = sw64v(p, th); p += 8; }
		else { NEED(8); sw64(p); p += 8; }
		if (rf & HWPROF_FORMAT_TOTAL_TIME_ENABLED) { NEED(8); sw64(p); p += 8; }
		if (rf & HWPROF_FORMAT_TOTAL_TIME_RUNNING) { NEED(8); sw64(p); p += 8; }
		uint64_t per = ((rf & HWPROF_FORMAT_GROUP) ? 1 : 0) + !!(rf & HWPROF_FORMAT_ID) + !!(rf & HWPROF_FORMAT_LOST);
		for (uint64_t i = 0; i < n * per && end - p >= 8; i++, p += 8)
			sw64(p);
	}
	if (st & HWPROF_SAMPLE_CALLCHAIN) {
		NEED(8);
		uint64_t n = sw64v(p, th);
		p += 8;
		for (; n && end - p >= 8; n--, p += 8)
			sw64(p);
	}
	if (st & HWPROF_SAMPLE_RAW) {
		NEED(4);
		uint32_t n = sw32v(p, th);
		p += 4;
		NEED(n);
		p += n;
	}
	if (st & HWPROF_SAMPLE_BRANCH_STACK) {
		NEED(8);
		uint64_t n = sw64v(p, th);
		p += 8;
		if (a->branch_sample_type & (1ULL << 17)) { NEED(8); sw64(p); p += 8; }
		for (uint64_t i = 0; i < 3 * n && end - p >= 8; i++, p += 8) {
			if (i % 3 == 2 && !th)
				st64(p, branch_flags_to_be(ld64(p)));
			sw64(p);
			if (i % 3 == 2 && th)
				st64(p, branch_flags_from_be(ld64(p)));
		}
		if (a->branch_sample_type & (1ULL << 19)) /* PERF_SAMPLE_BRANCH_COUNTERS: one u64 per entry */
			for (uint64_t i = 0; i < n && end - p >= 8; i++, p += 8)
				sw64(p);
	}
	if (st & HWPROF_SAMPLE_REGS_USER)
		swap_regs(&p, end, a->sample_regs_user, th);
	if (st & HWPROF_SAMPLE_STACK_USER) {
		NEED(8);
		uint64_t n = sw64v(p, th);
		p += 8;
		if (n) {
			NEED(n + 8);
			p += n;
			sw64(p);
			p += 8;
		}
	}
	if (st & (HWPROF_SAMPLE_WEIGHT | HWPROF_SAMPLE_WEIGHT_STRUCT)) {
		NEED(8);
		if (st & HWPROF_SAMPLE_WEIGHT_STRUCT) { sw32(p); sw16(p + 4); sw16(p + 6); }
		else sw64(p);
		p += 8;
	}
	if (st & HWPROF_SAMPLE_DATA_SRC) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_TRANSACTION) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_REGS_INTR)
		swap_regs(&p, end, a->sample_regs_intr, th);
	if (st & HWPROF_SAMPLE_PHYS_ADDR) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_CGROUP) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_DATA_PAGE_SIZE) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_CODE_PAGE_SIZE) { NEED(8); sw64(p); p += 8; }
	if (st & HWPROF_SAMPLE_AUX) { NEED(8); sw64(p); p += 8; }
}

int pdata_swap_record(struct hwprof_perfdata *h, const uint8_t *src, uint32_t size, uint64_t offset)
{
	if (pdata_buf_reserve(&h->swapbuf, size))
		return pdata_error(h, HWPROF_E_NOMEM, offset, "out of memory");
	memcpy(h->swapbuf.p, src, size);
	pdata_swap_inplace(h, h->swapbuf.p, size, true);
	return 0;
}

void pdata_swap_inplace(const struct hwprof_perfdata *h, uint8_t *r, uint32_t size, bool th)
{
	uint8_t bid[24]; /* MMAP2 build-id bytes: restored after the swap below */
	if (size >= 64)
		memcpy(bid, r + 40, 24);
	uint32_t type = sw32v(r, th);
	sw16(r + 4);
	uint16_t misc = th ? ld16(r + 4) : __builtin_bswap16(ld16(r + 4));
	sw16(r + 6);
	uint8_t *end = r + size;
	const struct hwprof_evsel *ev0 = h->nr_evsels ? &h->evsels[0] : NULL;

	if (type == HWPROF_RECORD_SAMPLE) {
		/* Find the evsel: IDENTIFIER is the first u64 after the header. */
		const struct hwprof_evsel *ev = ev0;
		if (h->sample_id_pos >= 0 && size >= 16u + 8u * (unsigned)h->sample_id_pos) {
			uint64_t raw = ld64(r + 8 + 8 * h->sample_id_pos);
			const struct hwprof_evsel *e =
				hwprof_perfdata_evsel_by_id(h, th ? __builtin_bswap64(raw) : raw);
			if (e)
				ev = e;
		}
		if (ev)
			swap_sample(r + 8, end, &ev->attr, th);
		return;
	}
	if (type == HWPROF_RECORD_HEADER_ATTR) {
		/* The attr (by its own size field), then u64 ids to the end. */
		if (size < 16)
			return;
		uint32_t asz = th ? __builtin_bswap32(ld32(r + 12)) : ld32(r + 12);
		if (asz == 0)
			asz = HWPROF_ATTR_SIZE_VER0;
		if (asz > size - 8u)
			return;
		pdata_attr_swap(r + 8, asz);
		for (uint8_t *p = r + 8 + asz; end - p >= 8; p += 8)
			sw64(p);
		return;
	}
	if (type == HWPROF_RECORD_THREAD_MAP) {
		uint8_t *p = r + 8;
		if (end - p < 8)
			return;
		uint64_t n = sw64v(p, th);
		p += 8;
		for (; n && end - p >= 24; n--, p += 24)
			sw64(p);
		return;
	}
	if (type == HWPROF_RECORD_CPU_MAP) {
		/* u16 type, then u16/u32/u64 fields depending on type */
		uint8_t *p = r + 8;
		if (end - p < 2)
			return;
		uint16_t t = sw16v(p, th);
		if (t == 0 && end - p >= 4) { /* CPUS: u16 nr, u16 cpu[nr] */
			uint16_t n = sw16v(p + 2, th);
			for (uint8_t *q = p + 4; n && end - q >= 2; n--, q += 2)
				sw16(q);
		} else if (t == 1 && end - p >= 6) { /* MASK: u16 nr, u16 long_size, words */
			uint16_t n = sw16v(p + 2, th), ls = sw16v(p + 4, th);
			uint8_t *q = p + (ls == 8 ? 10 : 6); /* 64-bit words after a pad */
			for (; n && end - q >= ls; n--, q += ls)
				ls == 8 ? sw64(q) : sw32(q);
		} else if (t == 2 && end - p >= 8) { /* RANGE: u8 any, u8 pad, u16 start, end */
			sw16(p + 4);
			sw16(p + 6);
		}
		return;
	}
	const char *l = type < sizeof(layouts) / sizeof(layouts[0]) ? layouts[type] : NULL;
	bool kernel = type < HWPROF_RECORD_USER_TYPE_START;
	uint64_t st = 0;
	bool sid = ev0 && HWPROF_ATTR_HAS(&ev0->attr, HWPROF_ATTR_SAMPLE_ID_ALL);
	if (sid)
		st = ev0->attr.sample_type;
	uint8_t *body_end = end;
	if (kernel && sid && trailer_size(st) + 8 <= size) {
		swap_trailer(r, size, st);
		body_end = end - trailer_size(st);
	}
	if (l)
		swap_layout(r + 8, body_end, l);
	if (type == HWPROF_RECORD_MMAP2 && (misc & HWPROF_MISC_MMAP_BUILD_ID) && size >= 64) {
		/* build-id variant: u8 size, u8, u16, u8[20] — undo the maj/min/ino swaps */
		memcpy(r + 40, bid, 24);
	}
}
