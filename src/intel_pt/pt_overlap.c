/* Where a snapshot-mode AUXTRACE buffer's new data starts (see
 * hwprof_pt_find_overlap() in intel_pt_synth.h): the rules of perf 6.1's
 * intel_pt_find_overlap(), over byte offsets. */
#include <string.h>

#include "hwprof/intel_pt.h"
#include "hwprof/intel_pt_synth.h"
#include "intel_pt/pt_ffwd.h"

#define MAX_PADDING 7 /* AUXTRACE data is padded to 8 bytes */

/* The first PSB at or after from (len: none). */
static size_t next_psb(const uint8_t *b, size_t len, size_t from)
{
	size_t off;
	return hwprof_pt_find_psb(b, len, from, &off) == 0 ? off : len;
}

/* The last PSB that ends within len (len: none). */
static size_t last_psb(const uint8_t *b, size_t len)
{
	size_t last = len;
	for (size_t p = next_psb(b, len, 0); p < len; p = next_psb(b, len, p + 1))
		last = p;
	return last;
}

/* perf's intel_pt_tsc_cmp(): 7-byte TSCs that may have wrapped */
static int tsc_cmp(uint64_t a, uint64_t b)
{
	const uint64_t half = 1ULL << 55;
	if (a == b)
		return 0;
	if (a < b)
		return b - a < half ? -1 : 1;
	return a - b < half ? 1 : -1;
}

/* perf's adj_for_padding(): a's end may be padding that b lacks */
static size_t adj_for_padding(const uint8_t *b, size_t start, const uint8_t *a, size_t alen)
{
	size_t n = MAX_PADDING;
	if (n > start)
		n = start;
	if (n > alen)
		n = alen;
	size_t p = start - n, q = alen - n;
	while (n && b[p] == a[q]) {
		p++;
		q++;
		n--;
	}
	return p;
}

/* By TSC: the last full PSB+ of a against the PSB+s of b, from b's first
 * PSB (a starts at its first PSB). */
static size_t overlap_tsc(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, size_t bpos, bool *consecutive)
{
	size_t p = last_psb(a, alen);
	if (p == alen)
		return bpos; /* no PSB in a: no overlap */
	uint64_t tsc_a, tsc_b;
	size_t rem_a, rem_b;
	if (!ipt_psb_tsc(a, alen, p, &tsc_a, &rem_a)) {
		alen = p; /* the last PSB+ is cut short: one more back */
		p = last_psb(a, alen);
		if (p == alen || !ipt_psb_tsc(a, alen, p, &tsc_a, &rem_a))
			return bpos;
	}
	for (;;) {
		if (ipt_psb_tsc(b, blen, bpos, &tsc_b, &rem_b)) { /* PSB+s without TSC are passed by */
			int c = tsc_cmp(tsc_a, tsc_b);
			if (!c && rem_b >= rem_a) {
				*consecutive = true;
				return adj_for_padding(b, blen - (rem_b - rem_a), a, alen);
			}
			if (c < 0)
				return bpos; /* b's data is later: no overlap from here */
		}
		size_t next = next_psb(b, blen, bpos + 1);
		if (next == blen)
			return blen; /* no PSB left in b: nothing new */
		bpos = next;
	}
}

HWPROF_API size_t hwprof_pt_find_overlap(const void *buf_a, size_t len_a, const void *buf_b, size_t len_b,
					 bool have_tsc, bool *consecutive)
{
	const uint8_t *a = buf_a, *b = buf_b;
	bool consec = false;
	size_t res;
	/* b's data counts from its first PSB */
	size_t bpos = next_psb(b, len_b, 0);
	size_t apos = next_psb(a, len_a, 0);
	if (bpos == len_b) {
		res = len_b;
	} else if (apos == len_a) {
		res = bpos; /* no PSB in a: no overlap */
	} else if (have_tsc) {
		res = overlap_tsc(a + apos, len_a - apos, b, len_b, bpos, &consec);
	} else {
		/* by bytes: a's data from one of its PSBs on is the start of b's
		 * (b cannot end within a, so a's first PSBs may go at once) */
		const uint8_t *pa = a + apos;
		size_t la = len_a - apos, lb = len_b - bpos, n;
		res = bpos;
		while (lb < la && (n = next_psb(pa, la, 1)) != la) {
			pa += n;
			la -= n;
		}
		while (lb >= la) {
			if (!memcmp(pa, b + bpos, la)) {
				consec = true;
				res = adj_for_padding(b, bpos + la, pa, la);
				break;
			}
			if ((n = next_psb(pa, la, 1)) == la)
				break;
			pa += n;
			la -= n;
		}
	}
	if (consecutive)
		*consecutive = consec;
	return res;
}
