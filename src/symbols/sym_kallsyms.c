/* Kernel symbols from a kallsyms file ("addr type name[\t[module]]" lines),
 * kept like perf keeps them for [kernel.kallsyms]: text, weak, data and
 * bss symbols; ends fixed up, then duplicates folded, over the whole list
 * (modules included), then module symbols dropped, since their DSOs are
 * the modules' own. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/sym_int.h"

static bool kernel_only(const struct sym_table *t, const struct sym_raw *r)
{
	return !strchr(sym_raw_name(t, r), '\t');
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The whole file: /proc/kallsyms has no size, and reading it in big
 * chunks instead of lines is most of what loading it costs here. */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			char *b = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

struct ks_line {
	uint64_t addr;
	char type;                 /* as written: 't', 'T', 'W'... */
	const char *name;          /* up to the end of the line */
	size_t nlen;
};

/* An "addr type name[\t[module]]" line (no newline): false if it is none. */
static bool parse_line(const char *line, size_t len, struct ks_line *l)
{
	size_t i = 0;
	int h;
	l->addr = 0;
	while (i < len && i < 16 && (h = hexval((unsigned char)line[i])) >= 0) {
		l->addr = l->addr << 4 | (uint64_t)h;
		i++;
	}
	if (i == 0 || i + 3 > len || line[i] != ' ' || line[i + 2] != ' ')
		return false;
	l->type = line[i + 1];
	l->name = line + i + 3;
	l->nlen = len - i - 3;
	return true;
}

/* One line's symbol, if perf keeps it; 0 or NOMEM. */
static int add_line(struct sym_table *t, const struct ks_line *l)
{
	char raw = l->type, type = (char)toupper((unsigned char)raw);
	if (type != 'T' && type != 'W' && type != 'D' && type != 'B')
		return 0;
	if (!l->nlen || l->name[0] == '$' || memchr(l->name, 0, l->nlen))
		return 0;
	unsigned bind = raw == 'W' || raw == 'w' ? STB_WEAK : isupper((unsigned char)raw) ? STB_GLOBAL : STB_LOCAL;
	unsigned stt = type == 'T' || type == 'W' ? STT_FUNC : STT_OBJECT;
	return sym_add(t, l->addr, 0, bind, stt, l->name, l->nlen);
}

/* Whether a line is function (or absolute) symbol ref's, as perf's
 * kallsyms__get_function_start() takes it: types T, t, W, w or A. */
static bool ref_line(const struct ks_line *l, const char *ref)
{
	size_t rl = strlen(ref);
	return strchr("TtWwA", l->type) && l->nlen == rl && !memcmp(l->name, ref, rl);
}

int sym_load_kallsyms(struct sym_table *t, const char *path, const char *ref, uint64_t ref_addr)
{
	size_t len;
	char *buf = slurp(path, &len);
	if (!buf)
		return 0;
	int rc = 0;
	bool have_ref = false;
	uint64_t ref_now = 0;
	for (const char *p = buf, *end = buf + len; p < end && rc >= 0;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ks_line l;
		if (n < 1024 && parse_line(p, n, &l)) { /* longer lines are no kallsyms lines */
			rc = add_line(t, &l);
			if (ref && !have_ref && ref_line(&l, ref)) {
				have_ref = true;
				ref_now = l.addr;
			}
		}
		p += n + 1;
	}
	free(buf);
	if (rc < 0)
		return rc;
	/* perf's kallsyms__delta(): the file's kernel may sit elsewhere than
	 * the recorded one (KASLR, another boot, another machine); without
	 * the reference symbol perf loads nothing */
	if (ref && !have_ref) {
		t->n = 0;
		return 0;
	}
	sym_sort(t);
	sym_fixup_end(t, true);
	sym_fixup_duplicate(t);
	sym_filter(t, kernel_only);
	if (ref && ref_now != ref_addr)
		sym_shift(t, ref_now - ref_addr);
	return (int)(t->n > 0);
}
