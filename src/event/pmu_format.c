/* PMU format/ fields: parsing "config1:0-7,32-35" and spreading a term
 * value over split bit ranges. The kernel writes these strings; a split
 * field takes the value's low bits in its first range, the next bits in the
 * next range, and so on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/pmu.h"

static const char *const word_names[HWPROF_CFG_WORDS] = {
	"config", "config1", "config2", "config3", "config4",
};

HWPROF_API const char *hwprof_cfg_word_name(unsigned word)
{
	return word < HWPROF_CFG_WORDS ? word_names[word] : "?";
}

static int parse_bit(const char **p, unsigned *out)
{
	const char *s = *p;
	unsigned v = 0, n = 0;
	while (*s >= '0' && *s <= '9' && n < 3)
		v = v * 10 + (unsigned)(*s++ - '0'), n++;
	if (!n || v > 63 || (*s >= '0' && *s <= '9'))
		return -1;
	*p = s;
	*out = v;
	return 0;
}

HWPROF_API int hwprof_pmu_format_parse(struct hwprof_pmu_format *f, const char *text)
{
	const char *p = text;
	int word = -1;
	/* longest name first so "config1" is not read as "config" */
	for (int w = HWPROF_CFG_WORDS - 1; w >= 0; w--) {
		size_t n = strlen(word_names[w]);
		if (!strncmp(p, word_names[w], n) && p[n] == ':') {
			word = w;
			p += n + 1;
			break;
		}
	}
	if (word < 0)
		return -HWPROF_E_INVAL;
	unsigned nr = 0, bits = 0;
	for (;;) {
		unsigned lo, hi;
		if (nr == HWPROF_FORMAT_MAX_RANGES || parse_bit(&p, &lo))
			return -HWPROF_E_INVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_bit(&p, &hi) || hi < lo)
				return -HWPROF_E_INVAL;
		}
		bits += hi - lo + 1;
		if (bits > 64)
			return -HWPROF_E_INVAL;
		f->r[nr].lo = (uint8_t)lo;
		f->r[nr].hi = (uint8_t)hi;
		nr++;
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ')
		p++;
	if (*p)
		return -HWPROF_E_INVAL;
	f->word = (uint8_t)word;
	f->nr = (uint8_t)nr;
	return 0;
}

HWPROF_API uint64_t hwprof_pmu_format_max(const struct hwprof_pmu_format *f)
{
	unsigned bits = 0;
	for (unsigned i = 0; i < f->nr; i++)
		bits += f->r[i].hi - f->r[i].lo + 1u;
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

static uint64_t range_mask(unsigned lo, unsigned hi)
{
	unsigned w = hi - lo + 1;
	return (w >= 64 ? ~0ULL : (1ULL << w) - 1) << lo;
}

HWPROF_API int hwprof_pmu_format_place(const struct hwprof_pmu_format *f, uint64_t value,
				       uint64_t cfg[HWPROF_CFG_WORDS])
{
	if (f->word >= HWPROF_CFG_WORDS || !f->nr || value > hwprof_pmu_format_max(f))
		return -HWPROF_E_INVAL;
	uint64_t *w = &cfg[f->word];
	unsigned shift = 0;
	for (unsigned i = 0; i < f->nr; i++) {
		unsigned lo = f->r[i].lo, hi = f->r[i].hi, width = hi - lo + 1;
		uint64_t part = shift >= 64 ? 0 : value >> shift;
		*w = (*w & ~range_mask(lo, hi)) | ((part << lo) & range_mask(lo, hi));
		shift += width;
	}
	return 0;
}

HWPROF_API int hwprof_pmu_format_text(char *buf, size_t len, const struct hwprof_pmu_format *f)
{
	int n = snprintf(buf, len, "%s:", hwprof_cfg_word_name(f->word));
	for (unsigned i = 0; i < f->nr && n >= 0; i++) {
		size_t at = (size_t)n < len ? (size_t)n : len;
		if (f->r[i].lo == f->r[i].hi)
			n += snprintf(buf + at, len - at, "%s%u", i ? "," : "", f->r[i].lo);
		else
			n += snprintf(buf + at, len - at, "%s%u-%u", i ? "," : "", f->r[i].lo, f->r[i].hi);
	}
	return n;
}
