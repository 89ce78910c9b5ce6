/* Reading perf's tracing data block into libtraceevent. The layout (perf's
 * trace-event-read.c writes and reads it; numbers in the byte order the
 * block declares):
 *
 *   "\x17\x08\x44" "tracing" version"\0" bigendian:u8 long_size:u8 page_size:u32
 *   "header_page\0" size:u64 <header_page format>
 *   "header_event\0" size:u64 <header_event text, unused>
 *   nr_ftrace:u32 { size:u64 <ftrace event format> }
 *   nr_systems:u32 { system"\0" nr:u32 { size:u64 <event format> } }
 *   kallsyms_size:u32 <kallsyms text, unused: perf resolves with its own maps>
 *   printk_size:u32 <"addr : \"fmt\"" lines>
 *   version >= 0.6: cmdlines_size:u64 <"pid comm" lines>
 *
 * perf gives up on the whole block when any part of it is missing or an
 * event format does not parse; so do we, saying where. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-utils.h>

#include "trace/trace_int.h"

struct cur {
	const uint8_t *d;
	uint64_t size, pos, base;
	bool big;                  /* the block's numbers are big-endian */
	struct hwprof_error *err;
};

static int fail(struct cur *c, int code, uint64_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct cur *c, int code, uint64_t at, const char *fmt, ...)
{
	if (c->err) {
		va_list ap;
		c->err->code = -code;
		c->err->offset = c->base + at;
		va_start(ap, fmt);
		vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

static int need(struct cur *c, uint64_t n, const char *what)
{
	if (n > c->size - c->pos)
		return fail(c, HWPROF_E_TRUNCATED, c->pos,
			    "tracing data: %s needs %llu bytes, %llu left", what, (unsigned long long)n,
			    (unsigned long long)(c->size - c->pos));
	return 0;
}

static uint64_t num(const struct cur *c, const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[c->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int rd(struct cur *c, int n, uint64_t *v, const char *what)
{
	int rc = need(c, (uint64_t)n, what);
	if (rc)
		return rc;
	*v = num(c, c->d + c->pos, n);
	c->pos += (uint64_t)n;
	return 0;
}

/* a NUL-terminated string, in place */
static int rd_str(struct cur *c, const char **s, const char *what)
{
	const uint8_t *nul = memchr(c->d + c->pos, 0, c->size - c->pos);
	if (!nul)
		return fail(c, HWPROF_E_TRUNCATED, c->pos, "tracing data: %s has no terminating NUL", what);
	*s = (const char *)c->d + c->pos;
	c->pos = (uint64_t)(nul - c->d) + 1;
	return 0;
}

static int tag(struct cur *c, const char *t, size_t n)
{
	int rc = need(c, n, t);
	if (rc)
		return rc;
	if (memcmp(c->d + c->pos, t, n))
		return fail(c, HWPROF_E_CORRUPT, c->pos, "tracing data: '%s' tag missing", t);
	c->pos += n;
	return 0;
}

/* a u64 size and that many bytes; *p points at them */
static int blob(struct cur *c, int width, const uint8_t **p, uint64_t *n, const char *what)
{
	int rc = rd(c, width, n, what);
	if (rc || (rc = need(c, *n, what)))
		return rc;
	*p = c->d + c->pos;
	c->pos += *n;
	return 0;
}

/* libtraceevent 1.7 fails on a TAB inside the print fmt's string (the
 * kernel writes maple_tree's "%s\tNode" that way; perf 6.1's copy takes
 * it): a copy of the format with such TABs as "\t", which both print as
 * a TAB. */
static char *print_fmt_tabs(const char *p, uint64_t n, uint64_t *out_n)
{
	static const char key[] = "\nprint fmt: \"";
	char *out = malloc(2 * n + 1);
	if (!out)
		return NULL;
	uint64_t o = 0, i = 0;
	const char *k = memmem(p, n, key, sizeof(key) - 1);
	uint64_t start = k ? (uint64_t)(k - p) + sizeof(key) - 1 : n;
	memcpy(out, p, start);
	o = i = start;
	for (; i < n && p[i] != '"'; i++) {
		if (p[i] == '\\' && i + 1 < n) {
			out[o++] = p[i++];
			out[o++] = p[i];
		} else if (p[i] == '\t') {
			out[o++] = '\\';
			out[o++] = 't';
		} else {
			out[o++] = p[i];
		}
	}
	memcpy(out + o, p + i, n - i);
	o += n - i;
	out[o] = 0;
	*out_n = o;
	return out;
}

/* Helpers libtraceevent 1.7 knows in a print fmt but perf 6.1's copy does
 * not: there the print fmt fails ("function X not defined") and samples
 * print as "[FAILED TO PARSE]" and their fields. Done likewise here. */
static void perf_unknown_functions(struct hwprof_trace *t, const char *fmt)
{
	static const char *const newer[] = { "__get_cpumask", "__get_rel_cpumask", "__get_sockaddr",
					     "__get_sockaddr_rel" };
	const char *pf = strstr(fmt, "\nprint fmt:"), *id = strstr(fmt, "ID:");
	if (!pf || !id)
		return;
	const char *first = NULL, *which = NULL;
	for (size_t i = 0; i < sizeof(newer) / sizeof(newer[0]); i++) {
		size_t l = strlen(newer[i]);
		for (const char *q = strstr(pf, newer[i]); q; q = strstr(q + 1, newer[i])) {
			const char *e = q + l;
			while (*e == ' ')
				e++;
			bool ident_start = !(q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z') ||
					     (q[-1] >= 'A' && q[-1] <= 'Z') || (q[-1] >= '0' && q[-1] <= '9'));
			if (*e == '(' && ident_start && (!first || q < first)) {
				first = q;
				which = newer[i];
				break;
			}
		}
	}
	struct tep_event *ev = first ? tep_find_event(t->tep, (int)strtol(id + 3, NULL, 10)) : NULL;
	if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
		return;
	ev->flags |= TEP_EVENT_FL_FAILED;
	tep_warning("[%s:%s] function %s not defined", ev->system, ev->name, which);
}

/* libtraceevent's expression parser dereferences a missing token when
 * the print fmt ends inside a string or parenthesis (a cut or damaged
 * format): such formats are refused before it sees them. (It has more
 * such faults on hostile formats; perf's copy shares them.) */
static bool print_fmt_balanced(const char *fmt)
{
	const char *p = strstr(fmt, "\nprint fmt:");
	if (!p)
		return true; /* no print fmt: libtraceevent reports it */
	int depth = 0;
	bool str = false, chr = false;
	for (p += 11; *p; p++) {
		if ((str || chr) && *p == '\\' && p[1]) {
			p++;
		} else if (!chr && *p == '"') {
			str = !str;
		} else if (!str && *p == '\'') {
			chr = !chr;
		} else if (!str && !chr && *p == '(') {
			depth++;
		} else if (!str && !chr && *p == ')' && --depth < 0) {
			return false;
		}
	}
	return !str && !chr && depth == 0;
}

static int event_format(struct cur *c, struct hwprof_trace *t, const char *sys)
{
	uint64_t at = c->pos, n;
	const uint8_t *p;
	int rc = blob(c, 8, &p, &n, "event format");
	if (rc)
		return rc;
	char *fmt = print_fmt_tabs((const char *)p, n, &n);
	if (!fmt)
		return -HWPROF_E_NOMEM;
	if (!print_fmt_balanced(fmt)) {
		free(fmt);
		return fail(c, HWPROF_E_CORRUPT, at, "tracing data: %s event format: print fmt ends inside a string or parenthesis", sys);
	}
	enum tep_errno e = tep_parse_event(t->tep, fmt, n, sys);
	if (!e)
		perf_unknown_functions(t, fmt);
	free(fmt);
	if (e) {
		char msg[128];
		tep_strerror(t->tep, e, msg, sizeof(msg));
		return fail(c, HWPROF_E_CORRUPT, at, "tracing data: %s event format does not parse: %s", sys, msg);
	}
	return 0;
}

/* perf's parse_ftrace_printk(): "addr : fmt" lines, fmt after ": " */
static int printk_formats(struct hwprof_trace *t, const uint8_t *p, uint64_t n)
{
	char *buf = malloc(n + 1);
	if (!buf)
		return -HWPROF_E_NOMEM;
	memcpy(buf, p, n);
	buf[n] = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		/* libtraceevent looks 3 bytes back from a format's end, past a quote */
		if (!colon || !colon[1] || strlen(colon + 2) < 4)
			continue;
		*colon = 0;
		tep_register_print_string(t->tep, colon + 2, strtoull(line, NULL, 16));
	}
	free(buf);
	return 0;
}

/* perf's parse_saved_cmdline(): "pid comm" lines */
static int saved_cmdlines(struct hwprof_trace *t, const uint8_t *p, uint64_t n)
{
	char *buf = malloc(n + 1);
	if (!buf)
		return -HWPROF_E_NOMEM;
	memcpy(buf, p, n);
	buf[n] = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int pid;
		char comm[17];
		if (sscanf(line, "%d %16s", &pid, comm) == 2)
			tep_register_comm(t->tep, comm, pid);
	}
	free(buf);
	return 0;
}

static int header_page(struct cur *c, struct hwprof_trace *t, int long_size)
{
	const uint8_t *p;
	uint64_t n;
	int rc = tag(c, "header_page", 12);
	if (rc || (rc = blob(c, 8, &p, &n, "header_page")))
		return rc;
	char *copy = malloc(n + 1); /* libtraceevent wants a writable buffer */
	if (!copy)
		return -HWPROF_E_NOMEM;
	memcpy(copy, p, n);
	copy[n] = 0;
	/* the page's commit field is a kernel long: its size wins */
	if (!tep_parse_header_page(t->tep, copy, n, long_size))
		tep_set_long_size(t->tep, tep_get_header_page_size(t->tep));
	free(copy);
	if ((rc = tag(c, "header_event", 13)) || (rc = blob(c, 8, &p, &n, "header_event")))
		return rc;
	return 0;
}

static int parse(struct cur *c, struct hwprof_trace *t)
{
	static const uint8_t magic[3] = { 0x17, 0x08, 0x44 };
	uint64_t v, count;
	const char *version, *sys;
	const uint8_t *p;
	int rc = need(c, 10, "magic");
	if (rc)
		return rc;
	if (memcmp(c->d, magic, 3))
		return fail(c, HWPROF_E_CORRUPT, 0, "tracing data: bad magic");
	c->pos = 3;
	if ((rc = tag(c, "tracing", 7)) || (rc = rd_str(c, &version, "version")) || (rc = need(c, 2, "endianness")))
		return rc;
	c->big = c->d[c->pos] != 0;
	int long_size = c->d[c->pos + 1];
	c->pos += 2;
	uint64_t at = c->pos;
	if ((rc = rd(c, 4, &v, "page size")))
		return rc;
	if (!v)
		return fail(c, HWPROF_E_CORRUPT, at, "tracing data: page size is 0");
	tep_set_flag(t->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(t->tep, c->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									       : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)v);
	if ((rc = header_page(c, t, long_size)))
		return rc;
	if ((rc = rd(c, 4, &count, "ftrace format count")))
		return rc;
	for (uint64_t i = 0; i < count; i++)
		if ((rc = event_format(c, t, "ftrace")))
			return rc;
	if ((rc = rd(c, 4, &count, "system count")))
		return rc;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t nr;
		if ((rc = rd_str(c, &sys, "system name")) || (rc = rd(c, 4, &nr, "event format count")))
			return rc;
		for (uint64_t j = 0; j < nr; j++)
			if ((rc = event_format(c, t, sys)))
				return rc;
	}
	if ((rc = blob(c, 4, &p, &v, "kallsyms")))
		return rc;
	if ((rc = blob(c, 4, &p, &v, "printk formats")) || (rc = printk_formats(t, p, v)))
		return rc;
	if (strtod(version, NULL) >= 0.6 &&
	    ((rc = blob(c, 8, &p, &v, "saved cmdlines")) || (rc = saved_cmdlines(t, p, v))))
		return rc;
	return 0;
}

HWPROF_API int hwprof_trace_parse(struct hwprof_trace **out, const uint8_t *data, uint64_t size,
				  uint64_t base, uint64_t *used, struct hwprof_error *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	struct hwprof_trace *t = calloc(1, sizeof(*t));
	struct cur c = { .d = data, .size = size, .base = base, .err = err };
	if (!t || !(t->tep = tep_alloc())) {
		free(t);
		return fail(&c, HWPROF_E_NOMEM, 0, "tracing data: out of memory");
	}
	trace_seq_init(&t->seq);
	trace_warn_begin(t);
	int rc = parse(&c, t);
	trace_warn_end();
	if (rc < 0) {
		if (err && !err->msg[0])
			fail(&c, -rc, c.pos, "tracing data: %s", hwprof_strerror(rc));
		hwprof_trace_free(t);
		return rc;
	}
	if (used)
		*used = c.pos;
	*out = t;
	return 0;
}

HWPROF_API void hwprof_trace_free(struct hwprof_trace *t)
{
	if (!t)
		return;
	trace_seq_destroy(&t->seq);
	tep_free(t->tep);
	trace_warn_free(t);
	free(t->copy);
	free(t);
}

struct tep_event *trace_event_by_id(const struct hwprof_trace *t, uint64_t id)
{
	if (!t || id > 0x7fffffff)
		return NULL;
	return tep_find_event(t->tep, (int)id);
}

HWPROF_API int hwprof_trace_event(const struct hwprof_trace *t, uint64_t id, const char **sys,
				  const char **name)
{
	struct tep_event *ev = trace_event_by_id(t, id);
	if (!ev)
		return 0;
	*sys = ev->system;
	*name = ev->name;
	return 1;
}
