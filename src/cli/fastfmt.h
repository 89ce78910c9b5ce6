/* printf's few conversions that perf script's per-sample lines use, without
 * printf: parsing the format and locking the stream for each call was most
 * of what printing millions of lines cost. The CLI prints from one thread,
 * so the stream's unlocked calls are safe. Output is byte for byte what
 * the printf conversion named beside each function gives. */
#ifndef HWPROF_CLI_FASTFMT_H
#define HWPROF_CLI_FASTFMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* n spaces */
static inline void ff_pad(FILE *f, int n)
{
	while (n-- > 0)
		putc_unlocked(' ', f);
}

/* v in base 16 or 10 at the end of b[24]; returns the first digit */
static inline char *ff_digits(char *end, uint64_t v, unsigned base)
{
	do {
		*--end = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	return end;
}

/* "%*llu" (width > 0) / "%0*llu" (zero) */
static inline void ff_udec(FILE *f, uint64_t v, int width, bool zero)
{
	char b[24], *p = ff_digits(b + 24, v, 10);
	int n = (int)(b + 24 - p);
	while (n < width) {
		putc_unlocked(zero ? '0' : ' ', f);
		width--;
	}
	fwrite_unlocked(p, 1, (size_t)n, f);
}

/* "%*d" (width > 0) or "%-*d" (left) */
static inline void ff_dec(FILE *f, int64_t v, int width, bool left)
{
	char b[24], *p = ff_digits(b + 24, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10);
	if (v < 0)
		*--p = '-';
	int n = (int)(b + 24 - p);
	if (!left)
		ff_pad(f, width - n);
	fwrite_unlocked(p, 1, (size_t)n, f);
	if (left)
		ff_pad(f, width - n);
}

/* "%*llx" */
static inline void ff_hex(FILE *f, uint64_t v, int width)
{
	char b[24], *p = ff_digits(b + 24, v, 16);
	int n = (int)(b + 24 - p);
	ff_pad(f, width - n);
	fwrite_unlocked(p, 1, (size_t)n, f);
}

/* "%*s" */
static inline void ff_str(FILE *f, const char *s, int width)
{
	size_t n = strlen(s);
	if (width > 0 && (size_t)width > n)
		ff_pad(f, width - (int)n);
	fwrite_unlocked(s, 1, n, f);
}

#endif
