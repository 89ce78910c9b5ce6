#include <inttypes.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_srcline.h"

#define A2L_FAIL_LIMIT 256

/* perf's per-DSO addr2line state */
struct dso_state {
	const char *name;          /* the entries' long-name pointer */
	unsigned fails;            /* perf's a2l_fails: 1 at first, 0 after a success */
	bool off;                  /* has_srcline cleared */
};

struct report_srclines {
	struct hwprof_symbols *syms;
	struct dso_state *dsos;
	size_t nr_dsos;
	char **strs;               /* every text handed out */
	size_t nr_strs, cap_strs;
	void *chain_cache;         /* tsearch tree of struct chain_line */
	void *chain_texts;         /* tsearch tree of their texts: one copy
	                            * of each, so pointers compare as texts */
};

/* A callchain address's srcline, asked once (perf's dso->srclines) */
struct chain_line {
	const char *dso;
	uint64_t addr;
	const char *text;          /* NULL: none */
};

struct report_srclines *report_srclines_new(struct hwprof_symbols *syms)
{
	struct report_srclines *s = calloc(1, sizeof(*s));
	if (s)
		s->syms = syms;
	return s;
}

void report_srclines_free(struct report_srclines *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_strs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s->dsos);
	tdestroy(s->chain_cache, free);
	tdestroy(s->chain_texts, free);
	free(s);
}

static struct dso_state *state_of(struct report_srclines *s, const char *name)
{
	for (size_t i = 0; i < s->nr_dsos; i++)
		if (s->dsos[i].name == name || !strcmp(s->dsos[i].name, name))
			return &s->dsos[i];
	struct dso_state *v = realloc(s->dsos, (s->nr_dsos + 1) * sizeof(*v));
	if (!v)
		return NULL;
	s->dsos = v;
	v[s->nr_dsos] = (struct dso_state){ name, 1, false };
	return &v[s->nr_dsos++];
}

static const char *keep(struct report_srclines *s, char *str)
{
	if (!str)
		return "??:0";
	if (s->nr_strs == s->cap_strs) {
		size_t c = s->cap_strs ? s->cap_strs * 2 : 256;
		char **v = realloc(s->strs, c * sizeof(*v));
		if (!v) {
			free(str);
			return "??:0";
		}
		s->strs = v;
		s->cap_strs = c;
	}
	s->strs[s->nr_strs++] = str;
	return str;
}

/* A file DSO's "file:line" from addr2line's first record: NULL when
 * addr2line knows nothing there, "??:0" when it names a function but no
 * line (perf takes that as an answer). */
static char *file_line(struct report_srclines *s, const char *dso, uint64_t addr)
{
	struct hwprof_dso *d = NULL;
	const struct hwprof_srcframe *fr;
	if (hwprof_symbols_dso(s->syms, dso, &d) != 1 || !d)
		return NULL;
	int n = hwprof_dso_srcframes(d, addr, &fr);
	if (n <= 0 && !hwprof_dso_addr2line_names(d, addr))
		return NULL;
	const char *file = n > 0 && fr[0].file ? fr[0].file : n > 0 ? "??" : hwprof_dso_addr2line_file(d, addr);
	if (!file)
		file = "??";
	const char *b = strrchr(file, '/');
	char *out;
	return asprintf(&out, "%s:%u", b ? b + 1 : file, n > 0 && fr[0].file ? fr[0].line : 0) < 0 ? NULL : out;
}

/* addr2line's "file:line" for the entry as perf asks for it (only for
 * DSOs with a file, and no more for a DSO after A2L_FAIL_LIMIT failures
 * in a row), or NULL. */
static char *a2l_text(struct report_srclines *s, const char *dso, uint64_t addr)
{
	struct dso_state *st = state_of(s, dso);
	struct hwprof_dso *d = NULL;
	bool file = hwprof_symbols_dso(s->syms, dso, &d) >= 0 && d && hwprof_dso_is_file(d);
	if (st && !st->off && file) {
		char *fl = file_line(s, dso, addr);
		if (fl) {
			st->fails = 0;
			return fl;
		}
	}
	if (st && st->fails && ++st->fails > A2L_FAIL_LIMIT)
		st->off = true;
	return NULL;
}

static uint64_t objdump_addr(struct report_srclines *s, const struct hwprof_hist_entry *e)
{
	struct hwprof_dso *d = NULL;
	if (hwprof_symbols_dso(s->syms, e->dso, &d) < 0 || !d)
		return e->ip;
	return hwprof_dso_objdump_addr(d, e->map_start, e->map_pgoff, e->ip);
}

const char *report_srcline(void *ctx, const struct hwprof_hist_entry *e)
{
	struct report_srclines *s = ctx;
	if (!e->dso)
		return "??:0";
	char *fl = a2l_text(s, e->dso, e->ip);
	if (fl)
		return keep(s, fl);
	char *out = NULL;
	if (e->sym) {
		if (asprintf(&out, "%s+%" PRIu64, e->sym->name, e->ip - e->sym->start) < 0)
			out = NULL;
	} else if (asprintf(&out, "%s[%" PRIx64 "]", e->dso_short ? e->dso_short : e->dso,
			    objdump_addr(s, e)) < 0) {
		out = NULL;
	}
	return keep(s, out);
}

/* perf's srcfile: the srcline's file part ("file:line" up to ':'), ""
 * for an unknown line or a text without one (sym+offset, dso[addr]);
 * the DSO's failure count moves as for the srcline key. */
const char *report_srcfile(void *ctx, const struct hwprof_hist_entry *e)
{
	struct report_srclines *s = ctx;
	if (!e->dso)
		return "";
	char *fl = a2l_text(s, e->dso, e->ip);
	if (!fl)
		return "";
	char *colon = strchr(fl, ':');
	if (!strcmp(fl, "??:0") || !colon || colon == fl) {
		free(fl);
		return "";
	}
	*colon = 0;
	return keep(s, fl);
}

static int text_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The one copy of str (taken over), NULL on allocation failure. */
static const char *chain_text(struct report_srclines *s, char *str)
{
	if (!str)
		return NULL;
	char **found = tsearch(str, &s->chain_texts, text_cmp);
	if (!found) {
		free(str);
		return NULL;
	}
	if (*found != str)
		free(str);
	return *found;
}

static int chain_line_cmp(const void *a, const void *b)
{
	const struct chain_line *x = a, *y = b;
	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* perf's callchain_srcline(): get_srcline() without the symbol's name,
 * kept per DSO and address, so a failing address counts once towards the
 * DSO's failure limit */
const char *report_chain_srcline(struct report_srclines *s, const char *dso, bool kernel_map,
				 const struct hwprof_sym *sym, uint64_t addr, bool show_addr)
{
	struct chain_line key = { dso, addr, NULL }, **found = tfind(&key, &s->chain_cache, chain_line_cmp);
	if (found)
		return (*found)->text;
	struct chain_line *c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = key;
	char *out = a2l_text(s, dso, addr);
	if (!out && show_addr) {
		char buf[256];
		const char *short_name = hwprof_symbols_perf_name(s->syms, dso, true, buf, sizeof(buf));
		if (short_name == dso) {
			hwprof_dso_short_name(dso, kernel_map, buf, sizeof(buf));
			short_name = buf;
		}
		if (sym ? asprintf(&out, "+%" PRIu64, addr - sym->start) < 0
			: asprintf(&out, "%s[%" PRIx64 "]", short_name, addr) < 0)
			out = NULL;
	}
	c->text = chain_text(s, out);
	if (!tsearch(c, &s->chain_cache, chain_line_cmp)) {
		free(c);
		return NULL;
	}
	return c->text;
}

const char *report_fileline(struct report_srclines *s, const char *file, unsigned line)
{
	if (!file)
		file = "??"; /* addr2line's answer without a file: "??:?" */
	const char *b = strrchr(file, '/');
	char *out;
	return asprintf(&out, "%s:%u", b ? b + 1 : file, line) < 0 ? NULL : chain_text(s, out);
}
