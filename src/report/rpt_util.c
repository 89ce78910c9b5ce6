/* Small containers and text escaping for the profile model and exporters:
 * a two-word-key hash map, string interning, JSON and XML escaping. Kept
 * here so every exporter escapes names the same way. */
#include <stdlib.h>
#include <string.h>

#include "hwprof/hwprof.h"
#include "report/report_int.h"
#include "util/grow.h"

uint64_t rpt_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t rpt_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return rpt_mix64(h);
}

int rpt_grow(void *arr, size_t *cap, size_t n, size_t es)
{
	return util_grow(arr, cap, n, es);
}

static int map_rehash(struct rpt_map *m)
{
	size_t nc = m->cap ? m->cap * 2 : 64;
	struct rpt_slot *ns = calloc(nc, sizeof(*ns));
	if (!ns)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		struct rpt_slot *o = &m->slots[i];
		if (!o->used)
			continue;
		size_t j = rpt_mix64(o->k1 * 31 + rpt_mix64(o->k2)) & (nc - 1);
		while (ns[j].used)
			j = (j + 1) & (nc - 1);
		ns[j] = *o;
	}
	free(m->slots);
	m->slots = ns;
	m->cap = nc;
	return 0;
}

int rpt_map_get(struct rpt_map *m, uint64_t k1, uint64_t k2, uint32_t *val, bool insert)
{
	if ((m->len + 1) * 4 > m->cap * 3) {
		int r = map_rehash(m);
		if (r < 0)
			return r;
	}
	size_t j = rpt_mix64(k1 * 31 + rpt_mix64(k2)) & (m->cap - 1);
	for (;;) {
		struct rpt_slot *s = &m->slots[j];
		if (!s->used)
			break;
		if (s->k1 == k1 && s->k2 == k2) {
			*val = s->val;
			return 1;
		}
		j = (j + 1) & (m->cap - 1);
	}
	if (insert) {
		struct rpt_slot *s = &m->slots[j];
		s->k1 = k1;
		s->k2 = k2;
		s->val = *val;
		s->used = 1;
		m->len++;
	}
	return 0;
}

void rpt_map_free(struct rpt_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->len = 0;
}

/* Strings are keyed by their hash and length; a hash collision between
 * different strings is resolved by probing with a salt in k2. */
const char *rpt_intern(struct rpt_strings *t, const char *s)
{
	size_t n = strlen(s);
	uint64_t h = rpt_hash_bytes(s, n);
	for (uint64_t salt = 0;; salt++) {
		uint32_t idx = (uint32_t)t->nr;
		int r = rpt_map_get(&t->map, h, ((uint64_t)n << 16) | salt, &idx, false);
		if (r < 0)
			return NULL;
		if (r == 1) {
			if (!strcmp(t->strs[idx], s))
				return t->strs[idx];
			continue;
		}
		if (rpt_grow(&t->strs, &t->cap, t->nr + 1, sizeof(char *)) < 0)
			return NULL;
		char *c = malloc(n + 1);
		if (!c)
			return NULL;
		memcpy(c, s, n + 1);
		idx = (uint32_t)t->nr;
		if (rpt_map_get(&t->map, h, ((uint64_t)n << 16) | salt, &idx, true) < 0) {
			free(c);
			return NULL;
		}
		t->strs[t->nr++] = c;
		return c;
	}
}

void rpt_strings_free(struct rpt_strings *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->strs[i]);
	free(t->strs);
	rpt_map_free(&t->map);
	memset(t, 0, sizeof(*t));
}

/* Length of a valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) { n = 2; min = 0x80; c &= 0x1f; }
	else if ((c & 0xf0) == 0xe0) { n = 3; min = 0x800; c &= 0x0f; }
	else if ((c & 0xf8) == 0xf0) { n = 4; min = 0x10000; c &= 0x07; }
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

void rpt_json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	fputc('"', f);
	while (*s) {
		unsigned c = *s;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
			s++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			s++;
		} else if (c < 0x80) {
			fputc((int)c, f);
			s++;
		} else {
			size_t n = utf8_len(s);
			if (n) {
				fwrite(s, 1, n, f);
				s += n;
			} else {
				fputs("\\ufffd", f);
				s++;
			}
		}
	}
	fputc('"', f);
}

void rpt_xml_text(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *end = max ? s + max : NULL;
	while (*s && (!end || s < end)) {
		unsigned c = *s;
		size_t n = 1;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fputc('?', f);
			} else if (c < 0x80) {
				fputc((int)c, f);
			} else if ((n = utf8_len(s)) != 0 && (!end || s + n <= end)) {
				fwrite(s, 1, n, f);
			} else {
				n = 1;
				fputc('?', f);
			}
		}
		s += n;
	}
}

const char *rpt_basename(const char *path)
{
	if (!path)
		return "";
	const char *b = strrchr(path, '/');
	return b && b[1] ? b + 1 : path;
}
