#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/time_range.h"
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"

/* "sec[.frac]" (at most 9 fraction digits) in ns */
static int parse_ns(const char *s, uint64_t *out)
{
	char *end;
	uint64_t sec = strtoul(s, &end, 10), ns = 0;
	if (*end != '.' && *end)
		return -1;
	if (*end == '.') {
		const char *f = end + 1;
		size_t n = strlen(f);
		if (n > 9)
			return -1;
		char buf[10];
		memcpy(buf, f, n);
		memset(buf + n, '0', 9 - n);
		buf[9] = 0;
		ns = strtoul(buf, &end, 10);
		if (*end)
			return -1;
	}
	*out = sec * 1000000000ULL + ns;
	return 0;
}

/* perf_time__parse_str(): "start,end", either side may be empty */
static int parse_pair(struct time_range *r, const char *s)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	char *comma = strchr(buf, ',');
	if (comma)
		*comma = 0;
	r->start = r->end = 0;
	if (*buf && parse_ns(buf, &r->start) < 0)
		return -1;
	if (comma && comma[1] && parse_ns(comma + 1, &r->end) < 0)
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/* perf_time__parse_strs(): one pair per comma, pairs split at the space
 * after their comma's value, and no overlaps */
static int parse_pairs(struct time_range *r, int size, const char *s)
{
	int num = 0;
	for (const char *c = s; *c; c++)
		num += *c == ',';
	if (!num || num > size)
		return -1;
	char *str = strdup(s), *p = str;
	if (!str)
		return -1;
	int i = 0;
	for (; i < num - 1; i++) {
		char *arg = p;
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',') {
				free(str);
				return -1;
			}
		if (*p)
			*p++ = 0;
		if (parse_pair(&r[i], arg) < 0) {
			free(str);
			return -1;
		}
	}
	int rc = parse_pair(&r[i], p);
	free(str);
	if (rc < 0)
		return -1;
	for (i = 0; i < num - 1; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return num;
}

static int percent(const char *s, double *out)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", s);
	char *pc = strchr(buf, '%'), *end;
	if (!pc)
		return -1;
	*pc = 0;
	double d = strtod(buf, &end);
	if (end != buf + strlen(buf))
		return -1;
	*out = d / 100.0;
	return 0;
}

/* perf's set_percent_time(): the slice of [first, last], its end one ns
 * short unless it is the last */
static int set_slice(struct time_range *r, double a, double b, uint64_t first, uint64_t last)
{
	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	uint64_t total = last - first;
	r->start = first + (uint64_t)round(a * (double)total);
	r->end = first + (uint64_t)round(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* "P%/N": the N-th slice of P percent */
static int slash_slice(struct time_range *r, const char *s, uint64_t first, uint64_t last)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", s);
	char *slash = strchr(buf, '/'), *end;
	if (!slash)
		return -1;
	*slash = 0;
	double p;
	if (percent(buf, &p) < 0)
		return -1;
	int i = (int)strtol(slash + 1, &end, 10);
	if (*end || p <= 0.0)
		return -1;
	return set_slice(r, p * (i - 1), p * i, first, last);
}

/* "A%-B%" */
static int dash_slice(struct time_range *r, const char *s, uint64_t first, uint64_t last)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", s);
	char *dash = strchr(buf, '-');
	double a, b;
	if (!dash)
		return -1; /* perf: its end part is missing */
	*dash = 0;
	if (percent(buf, &a) < 0 || percent(dash + 1, &b) < 0)
		return -1;
	return set_slice(r, a, b, first, last);
}

/* perf_time__percent_parse_str(): comma-separated slices of one form */
static int parse_percent(struct time_range *r, int size, const char *s, uint64_t first, uint64_t last)
{
	memset(r, 0, (size_t)size * sizeof(*r));
	int (*one)(struct time_range *, const char *, uint64_t, uint64_t) =
		strchr(s, '/') ? slash_slice : strchr(s, '-') ? dash_slice : NULL;
	if (!one) {
		/* "P%": the first slice; the % must end the string */
		const char *pc = strchr(s, '%');
		if (!pc || pc[1])
			return -1;
		char buf[70];
		snprintf(buf, sizeof(buf), "%s/1", s);
		return slash_slice(r, buf, first, last) < 0 ? -1 : 1;
	}
	int i = 0;
	char *str = strdup(s), *p1 = str;
	if (!str)
		return -1;
	size_t len = strlen(str);
	while (p1 < str + len) {
		if (i >= size) {
			free(str);
			return -1;
		}
		char *p2 = strchr(p1, ',');
		if (p2)
			*p2 = 0;
		if (one(&r[i], p1, first, last) < 0) {
			free(str);
			return -1;
		}
		i++;
		if (!p2)
			break;
		p1 = p2 + 1;
	}
	free(str);
	return i;
}

int time_ranges_parse(struct time_ranges *t, const char *str, uint64_t first, uint64_t last, bool reltime)
{
	int size = 1;
	for (const char *c = str; *c; c++)
		size += *c == ',';
	t->n = 0;
	t->r = calloc((size_t)size, sizeof(*t->r));
	if (!t->r) {
		fprintf(stderr, "out of memory\n");
		return -1;
	}
	bool has_percent = strchr(str, '%') != NULL;
	if ((has_percent || reltime) && !first && !last) {
		fprintf(stderr, "HINT: no first/last sample time found in perf data.\n"
				"Please use latest perf binary to execute 'perf record'\n"
				"(if '--buildid-all' is enabled, please set '--timestamp-boundary').\n");
		time_ranges_free(t);
		return -1;
	}
	int num = has_percent ? parse_percent(t->r, size, str, first, last) : parse_pairs(t->r, size, str);
	if (num < 0) {
		fprintf(stderr, "Invalid time string\n");
		time_ranges_free(t);
		return -1;
	}
	if (reltime)
		for (int i = 0; i < num; i++) {
			t->r[i].start += first;
			t->r[i].end += first;
		}
	t->n = num;
	return 0;
}

void time_ranges_free(struct time_ranges *t)
{
	free(t->r);
	t->r = NULL;
	t->n = 0;
}

bool time_ranges_skip(const struct time_ranges *t, uint64_t time)
{
	if (!t->r || !time || !t->n)
		return false;
	if (t->n == 1)
		return (t->r[0].start && time < t->r[0].start) || (t->r[0].end && time > t->r[0].end);
	for (int i = 0; i < t->n; i++)
		if (time >= t->r[i].start && (time <= t->r[i].end || !t->r[i].end))
			return false;
	return true;
}

void time_ranges_bounds(struct hwprof_perfdata *h, uint64_t *first, uint64_t *last)
{
	struct hwprof_feat *f;
	*first = *last = 0;
	if (hwprof_perfdata_feat(h, HWPROF_FEAT_SAMPLE_TIME, &f) == 1) {
		*first = f->u.sample_time.first;
		*last = f->u.sample_time.last;
		hwprof_feat_free(f);
	}
}
