/* Kernel symbols from a kallsyms file ("addr type name[\t[module]]" lines),
 * kept like perf keeps them for [kernel.kallsyms]: text, weak, data and
 * bss symbols; ends fixed up, then duplicates folded, over the whole list
 * (modules included), then module symbols dropped, since their DSOs are
 * the modules' own. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
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

/* The address of ref's first function line in a kallsyms file (perf's
 * kallsyms__get_function_start()): true when found. */
static bool kallsyms_ref(const char *path, const char *ref, uint64_t *addr)
{
	size_t len;
	char *buf = slurp(path, &len);
	bool found = false;
	for (const char *p = buf, *end = buf + len; buf && p < end && !found;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ks_line l;
		if (n < 1024 && parse_line(p, n, &l) && ref_line(&l, ref)) {
			*addr = l.addr;
			found = true;
		}
		p += n + 1;
	}
	free(buf);
	return found;
}

/* Whether every recorded module sits where a modules file ("name size
 * refs deps state 0xaddr" lines) puts it (perf's
 * do_validate_kcore_modules()); a file that cannot be read fails. */
static bool modules_match(const char *path, const struct sym_kmod *mods, size_t nmods)
{
	size_t len;
	char *buf = slurp(path, &len);
	if (!buf)
		return false;
	bool ok = true;
	for (size_t i = 0; i < nmods && ok; i++) {
		ok = false;
		size_t nl = strlen(mods[i].name);
		for (const char *p = buf, *end = buf + len; p < end && !ok;) {
			const char *e = memchr(p, '\n', (size_t)(end - p));
			size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
			/* "[name]" against the line's first word; the address
			 * after its last 'x' */
			const char *x = memrchr(p, 'x', n);
			if (x && nl > 2 && n > nl - 2 && !memcmp(p, mods[i].name + 1, nl - 2) && p[nl - 2] == ' ') {
				uint64_t a = 0;
				int h;
				for (const char *q = x + 1; q < p + n && (h = hexval((unsigned char)*q)) >= 0; q++)
					a = a << 4 | (uint64_t)h;
				ok = a == mods[i].start;
			}
			p += n + 1;
		}
	}
	free(buf);
	return ok;
}

bool sym_kcore_valid(const char *kallsyms, const char *ref, uint64_t ref_addr, const struct sym_kmod *mods,
		     size_t nmods)
{
	uint64_t a;
	if (ref && (!kallsyms_ref(kallsyms, ref, &a) || a != ref_addr))
		return false;
	const char *base = strrchr(kallsyms, '/');
	char path[4096];
	if (!base || strcmp(base + 1, "kallsyms") || (size_t)(base - kallsyms) + 9 > sizeof(path))
		return false;
	snprintf(path, sizeof(path), "%.*s/modules", (int)(base - kallsyms), kallsyms);
	return modules_match(path, mods, nmods);
}

/* The readable PT_LOAD segments of a kcore copy (perf's file__read_maps()
 * for the kernel map, whose prot is 0), in file order. */
static int kcore_segments(const char *path, struct sym_kseg **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* read, not mapped: /proc/kcore cannot be mapped, and its headers are all we need */
	Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t nph = 0;
	int rc = 0;
	if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &nph)) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph)) {
				*n = 0;
				break;
			}
			uint64_t sz = ph.p_memsz < ph.p_filesz ? ph.p_memsz : ph.p_filesz;
			if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_R) || !sz || ph.p_vaddr + sz < ph.p_vaddr)
				continue;
			struct sym_kseg *g = realloc(*out, (*n + 1) * sizeof(*g));
			if (!g) {
				rc = -HWPROF_E_NOMEM;
				break;
			}
			*out = g;
			g[(*n)++] = (struct sym_kseg){ ph.p_vaddr, ph.p_vaddr + sz, ph.p_offset };
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	if (rc < 0 || !*n) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc < 0 ? rc : *n > 0;
}

int sym_load_kcore(struct sym_table *t, const char *path, const char *ref, uint64_t ref_addr, struct sym_kseg **segs,
		   size_t *nsegs, char *kcore, size_t kcore_len)
{
	*segs = NULL;
	*nsegs = 0;
	/* perf looks for "kcore" beside a file named kallsyms */
	const char *base = strrchr(path, '/');
	if (!base || strcmp(base + 1, "kallsyms") || (size_t)(base - path) + 7 > kcore_len)
		return 0;
	snprintf(kcore, kcore_len, "%.*s/kcore", (int)(base - path), path);
	size_t len;
	char *buf = slurp(path, &len);
	if (!buf)
		return 0;
	struct sym_table all = { 0 };
	int rc = 0;
	bool found = false;
	uint64_t ref_now = 0;
	for (const char *p = buf, *end = buf + len; p < end && rc >= 0;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ks_line l;
		if (n < 1024 && parse_line(p, n, &l)) {
			rc = add_line(&all, &l);
			if (ref && !found && ref_line(&l, ref)) {
				found = true;
				ref_now = l.addr;
			}
		}
		p += n + 1;
	}
	free(buf);
	struct sym_kseg *g = NULL;
	size_t ng = 0;
	/* the kernel must sit where it was recorded (perf's
	 * validate_kcore_addresses(); its check of the modules is not
	 * made here) */
	if (rc >= 0 && (!ref || (found && ref_now == ref_addr)))
		rc = kcore_segments(kcore, &g, &ng);
	else if (rc >= 0)
		rc = 0;
	if (rc <= 0) {
		sym_table_free(&all);
		return rc;
	}
	sym_sort(&all);
	sym_fixup_end(&all, true);
	sym_fixup_duplicate(&all);
	/* perf's maps__split_kallsyms_for_kcore(): each symbol into the
	 * segment holding it, at its offset in the kcore file, clipped to
	 * the segment, its module's name dropped; the rest deleted */
	for (size_t i = 0; i < all.n && rc >= 0; i++) {
		const struct sym_raw *r = &all.raw[i];
		const struct sym_kseg *k = NULL;
		for (size_t j = 0; j < ng && !k; j++)
			if (r->start >= g[j].start && r->start < g[j].end)
				k = &g[j];
		if (!k)
			continue;
		uint64_t e = r->end > k->end ? k->end : r->end;
		const char *name = sym_raw_name(&all, r);
		rc = sym_add(t, r->start - k->start + k->pgoff, e > r->start ? e - r->start : 0, r->bind, r->type, name,
			     strcspn(name, "\t"));
	}
	sym_table_free(&all);
	if (rc < 0) {
		free(g);
		return rc;
	}
	sym_sort(t);
	*segs = g;
	*nsegs = ng;
	return 1;
}
