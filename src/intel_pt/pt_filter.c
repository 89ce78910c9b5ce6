/* Address filters in perf's --filter grammar for intel_pt (and any PMU
 * with nr_addr_filters): "filter|start|stop|tracestop ADDR|SYM[#n]
 * [/ SIZE|SYM[#n]] [@FILE]", several separated by ' ' or ','. Parsing
 * follows perf 6.1's tokenizer (a symbol runs to the next space, a file
 * name to the next space or comma), symbols resolve through the file's
 * ELF symbol table as perf loads it (functions and objects, aliases kept,
 * names demangled, file offsets for ET_EXEC/ET_REL), and the result is the kernel's filter
 * text ("filter 0x11ef/0x99@/tmp/fx"). Messages are perf's. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwprof/intel_pt_cfg.h"
#include "hwprof/symbols.h"

#include <libiberty/demangle.h>

static const char *const action_names[] = { "filter", "start", "stop", "tracestop" };

static int perr(struct hwprof_error *err, size_t off, const char *what)
{
	if (err) {
		err->code = -HWPROF_E_INVAL;
		err->offset = off;
		snprintf(err->msg, sizeof(err->msg), "address filter, offset %zu: %s", off, what);
	}
	return -HWPROF_E_INVAL;
}

/* A token up to one of delim (perf's parse_num_or_str for strings). The
 * delimiter that ends it is consumed. Returns its length, 0 if empty. */
static size_t token(const char **p, const char *delim, char *out, size_t outlen)
{
	*p += strspn(*p, " ");
	size_t n = strcspn(*p, delim);
	if (!n || n >= outlen)
		return 0;
	memcpy(out, *p, n);
	out[n] = 0;
	*p += n;
	if (**p)
		*p += 1;
	return n;
}

/* ADDR or SYM[ #n]: a number when it starts with a digit. */
static int addr_or_sym(const char **p, uint64_t *num, char *sym, size_t symlen, int *idx)
{
	*idx = -1;
	*p += strspn(*p, " ");
	if (isdigit((unsigned char)**p)) {
		char *end;
		errno = 0;
		*num = strtoull(*p, &end, 0);
		if (errno || end == *p)
			return -1;
		*p = end;
		return 0;
	}
	if (!token(p, " ", sym, symlen))
		return -1;
	*p += strspn(*p, " ");
	if (**p != '#')
		return 0;
	*p += 1;
	if (**p == 'g' || **p == 'G') {
		*p += 1;
		*idx = 0;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long n = strtoul(*p, &end, 0);
	if (errno || end == *p || n > INT_MAX)
		return -1;
	*p = end;
	*idx = (int)n;
	return 0;
}

HWPROF_API int hwprof_pt_filter_parse(const char *text, struct hwprof_pt_filter *out, size_t max,
				      struct hwprof_error *err)
{
	const char *p = text;
	size_t n = 0;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!text)
		return -HWPROF_E_INVAL;
	while (*p) {
		struct hwprof_pt_filter f;
		char action[16];
		memset(&f, 0, sizeof(f));
		const char *start = p;
		p += strspn(p, " ");
		if (isdigit((unsigned char)*p) || !token(&p, " ", action, sizeof(action)))
			return perr(err, (size_t)(start - text), "expected filter, start, stop or tracestop");
		f.action = -1;
		for (int a = 0; a < 4; a++)
			if (!strcmp(action, action_names[a]))
				f.action = a;
		if (f.action < 0)
			return perr(err, (size_t)(start - text), "expected filter, start, stop or tracestop");
		f.range = f.action == HWPROF_PT_FILTER || f.action == HWPROF_PT_TRACESTOP;
		if (addr_or_sym(&p, &f.addr, f.sym_from, sizeof(f.sym_from), &f.from_idx))
			return perr(err, (size_t)(p - text), "expected an address or a symbol");
		p += strspn(p, " ");
		if (*p == '/') {
			p++;
			if (addr_or_sym(&p, &f.size, f.sym_to, sizeof(f.sym_to), &f.to_idx))
				return perr(err, (size_t)(p - text), "expected a size or a symbol after '/'");
			f.range = true;
		} else {
			f.to_idx = -1;
		}
		p += strspn(p, " ");
		if (*p == '@') {
			p++;
			p += strspn(p, " ");
			if (isdigit((unsigned char)*p) || !token(&p, " ,", f.file, sizeof(f.file)))
				return perr(err, (size_t)(p - text), "expected a file name after '@'");
		}
		p += strspn(p, " ,");
		if (out && n == max)
			return -HWPROF_E_NOMEM;
		if (out)
			out[n] = f;
		if (n++ == INT_MAX)
			return -HWPROF_E_NOMEM;
	}
	return (int)n;
}

/* ---- symbols of a file, as perf loads them for filters -------------------- */

struct fsym {
	uint64_t start, end;
	char bind;          /* 'g' global, 'l' local, 'w' weak */
	size_t order;       /* position in the table, to keep equal starts stable */
	char *name;
};

struct fsyms {
	struct fsym *v;
	size_t n, cap;
	bool loaded;        /* the file opened and had a symbol table */
};

static void fsyms_free(struct fsyms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
}

static int cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Symbols of one table; 1 when the table had any, 0 none, < 0 no memory. */
static int load_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, bool adjust, bool params, struct fsyms *s)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return 0;
	size_t cnt = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < cnt; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		uint64_t start = sym.st_value;
		if (adjust) { /* perf keeps file offsets for executables */
			GElf_Shdr ss;
			Elf_Scn *sec = elf_getscn(e, sym.st_shndx);
			if (!sec || !gelf_getshdr(sec, &ss))
				continue;
			start = start - ss.sh_addr + ss.sh_offset;
		}
		if (s->n == s->cap) {
			size_t nc = s->cap ? s->cap * 2 : 256;
			struct fsym *nv = realloc(s->v, nc * sizeof(*nv));
			if (!nv)
				return -HWPROF_E_NOMEM;
			s->v = nv;
			s->cap = nc;
		}
		struct fsym *f = &s->v[s->n];
		f->start = start;
		f->end = start + sym.st_size;
		int b = GELF_ST_BIND(sym.st_info);
		f->bind = b == STB_GLOBAL ? 'g' : b == STB_LOCAL ? 'l' : 'w';
		f->order = s->n;
		/* perf matches filter names against its demangled symbol names */
		char *dem = params ? cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI) : hwprof_demangle(name);
		if (!(f->name = dem ? dem : strdup(name)))
			return -HWPROF_E_NOMEM;
		s->n++;
	}
	return s->n > 0;
}

/* .symtab, else .dynsym; sorted by address; zero sizes end at the next
 * symbol. A file that cannot be read leaves the table empty. */
static int fsyms_load(const char *path, bool params, struct fsyms *s)
{
	memset(s, 0, sizeof(*s));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	int rc = 0;
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh)) {
		bool adjust = eh.e_type == ET_EXEC || eh.e_type == ET_REL;
		Elf_Scn *tab[2] = { NULL, NULL };
		GElf_Shdr sh[2];
		for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
			GElf_Shdr h;
			if (!gelf_getshdr(scn, &h))
				continue;
			int k = h.sh_type == SHT_SYMTAB ? 0 : h.sh_type == SHT_DYNSYM ? 1 : -1;
			if (k >= 0 && !tab[k]) {
				tab[k] = scn;
				sh[k] = h;
			}
		}
		for (int k = 0; k < 2 && rc == 0; k++)
			if (tab[k])
				rc = load_table(e, tab[k], &sh[k], adjust, params, s);
	}
	if (e)
		elf_end(e);
	close(fd);
	if (rc < 0)
		return rc;
	s->loaded = s->n > 0;
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_fsym);
	for (size_t i = 0; i + 1 < s->n; i++)
		if (s->v[i].end == s->v[i].start)
			s->v[i].end = s->v[i + 1].start;
	return 0;
}

/* ---- messages --------------------------------------------------------------- */

struct msgbuf {
	char *p;
	size_t len, at;
};

static void say(struct msgbuf *m, const char *fmt, ...)
{
	if (!m->p || !m->len)
		return;
	if (m->at && m->at < m->len - 1)
		m->p[m->at++] = '\n';
	if (m->at >= m->len - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(m->p + m->at, m->len - m->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->at += (size_t)n < m->len - m->at ? (size_t)n : m->len - m->at - 1;
}

static bool sym_match(const struct fsym *s, const char *name, int *cnt, int idx)
{
	return !strcmp(name, s->name) &&
	       ((!idx && s->bind == 'g') || (idx > 0 && ++*cnt == idx) || idx < 0);
}

static void list_duplicates(struct msgbuf *m, const struct fsyms *s, const char *name)
{
	int cnt = 0;
	bool near = false;
	say(m, "Multiple symbols with name '%s'", name);
	for (size_t i = 0; i < s->n; i++) {
		if (sym_match(&s->v[i], name, &cnt, -1)) {
			say(m, "#%d\t0x%llx\t%c\t%s", ++cnt, (unsigned long long)s->v[i].start, s->v[i].bind, name);
			near = true;
		} else if (near) {
			near = false;
			say(m, "\t\twhich is near\t\t%s", s->v[i].name);
		}
	}
	say(m, "Disambiguate symbol name by inserting #n after the name e.g. %s #2", name);
	say(m, "Or select a global symbol by inserting #0 or #g or #G");
}

static int not_found(struct msgbuf *m, const char *name, int idx)
{
	if (idx > 0)
		say(m, "N'th occurrence (N=%d) of symbol '%s' not found.", idx, name);
	else if (!idx)
		say(m, "Global symbol '%s' not found.", name);
	else
		say(m, "Symbol '%s' not found.", name);
	say(m, "Note that symbols must be functions.");
	return -HWPROF_E_INVAL;
}

/* perf's lookup: the first match (the n'th with #n, the global one with
 * #0), its size from the symbol or the next one; a second match without
 * #n is ambiguous. */
static int find_sym(struct msgbuf *m, const struct fsyms *s, const char *name, int idx, uint64_t *start,
		    uint64_t *size)
{
	int cnt = 0;
	*start = *size = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct fsym *y = &s->v[i];
		if (*start) {
			if (!*size)
				*size = y->start - *start;
			if (idx > 0) {
				if (*size)
					return 0;
			} else if (sym_match(y, name, &cnt, idx)) {
				list_duplicates(m, s, name);
				return -HWPROF_E_INVAL;
			}
		} else if (sym_match(y, name, &cnt, idx)) {
			*start = y->start;
			*size = y->end - y->start;
		}
	}
	return *start ? 0 : not_found(m, name, idx);
}

/* ---- kernel symbols (/proc/kallsyms) ------------------------------------- */

#define KALLSYMS "/proc/kallsyms"

static bool kfunc(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W';
}

/* One kallsyms line: "addr type name[\tmodule]". */
static bool kline(char *line, uint64_t *addr, char *type, char **name)
{
	char *end;
	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return false;
	*type = end[1];
	*name = end + 3;
	(*name)[strcspn(*name, "\t\n")] = 0;
	return true;
}

static bool kmatch(const char *want, int idx, int *cnt, const char *name, char type)
{
	return kfunc(type) && !strcmp(name, want) &&
	       ((!idx && isupper((unsigned char)type)) || (idx > 0 && ++*cnt == idx) || idx < 0);
}

static int kern_sym(struct msgbuf *m, const char *want, int idx, uint64_t *start, uint64_t *size)
{
	FILE *f = fopen(KALLSYMS, "re");
	char line[1024], type, *name;
	uint64_t a;
	int cnt = 0;
	bool started = false, dup = false;
	*start = *size = 0;
	if (!f) {
		say(m, "Failed to parse /proc/kallsyms");
		return -HWPROF_E_INVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!kline(line, &a, &type, &name))
			continue;
		if (started) {
			if (!*size)
				*size = a - *start;
			if (idx > 0) {
				if (*size)
					break;
			} else if (kmatch(want, idx, &cnt, name, type)) {
				dup = true;
				break;
			}
		} else if (kmatch(want, idx, &cnt, name, type)) {
			started = true;
			*start = a;
		}
	}
	if (dup) {
		bool near = false;
		say(m, "Multiple kernel symbols with name '%s'", want);
		rewind(f);
		cnt = 0;
		while (fgets(line, sizeof(line), f)) {
			if (!kline(line, &a, &type, &name))
				continue;
			if (kmatch(want, -1, &cnt, name, type)) {
				say(m, "#%d\t0x%llx\t%c\t%s", ++cnt, (unsigned long long)a, type, name);
				near = true;
			} else if (near) {
				near = false;
				say(m, "\t\twhich is near\t\t%s", name);
			}
		}
		say(m, "Disambiguate symbol name by inserting #n after the name e.g. %s #2", want);
		say(m, "Or select a global symbol by inserting #0 or #g or #G");
	}
	fclose(f);
	if (dup)
		return -HWPROF_E_INVAL;
	if (!started) {
		/* perf starts this line, the not-found message ends it */
		char more[512];
		struct msgbuf tail = { more, sizeof(more), 0 };
		more[0] = 0;
		not_found(&tail, want, idx);
		say(m, "Kernel symbol lookup: %s", more);
		return -HWPROF_E_INVAL;
	}
	return 0;
}

/* '*' without a file: from the first kernel function to a page past the last. */
static int kern_all(struct msgbuf *m, struct hwprof_pt_filter *f)
{
	FILE *fp = fopen(KALLSYMS, "re");
	char line[1024], type, *name;
	uint64_t a, first = 0, size = 0;
	bool started = false;
	long pg = sysconf(_SC_PAGESIZE);
	while (fp && fgets(line, sizeof(line), fp)) {
		if (!kline(line, &a, &type, &name) || !kfunc(type))
			continue;
		if (!started) {
			started = true;
			first = a;
		}
		size = ((a + (uint64_t)pg - 1) & ~((uint64_t)pg - 1)) + (uint64_t)pg - first;
	}
	if (fp)
		fclose(fp);
	if (!started) {
		say(m, "Failed to parse /proc/kallsyms");
		return -HWPROF_E_INVAL;
	}
	f->addr = first;
	f->size = size;
	return 0;
}

static bool kptr_restricted(void)
{
	FILE *f = fopen("/proc/sys/kernel/kptr_restrict", "re");
	char line[16];
	int v = 0;
	if (f && fgets(line, sizeof(line), f))
		v = atoi(line);
	if (f)
		fclose(f);
	return geteuid() == 0 ? v >= 2 : v != 0;
}

static int resolve_kernel(struct hwprof_pt_filter *f, struct msgbuf *m)
{
	uint64_t start, size;
	bool no_size = false;
	int rc;
	if (kptr_restricted()) {
		say(m, "Kernel addresses are restricted. Unable to resolve kernel symbols.");
		return -HWPROF_E_INVAL;
	}
	if (!strcmp(f->sym_from, "*"))
		return kern_all(m, f);
	if (f->sym_from[0]) {
		if ((rc = kern_sym(m, f->sym_from, f->from_idx, &start, &size)))
			return rc;
		f->addr = start;
		if (f->range && !f->size && !f->sym_to[0]) {
			f->size = size;
			no_size = !size;
		}
	}
	if (f->sym_to[0]) {
		if ((rc = kern_sym(m, f->sym_to, f->to_idx, &start, &size)))
			return rc;
		if (start + size < f->addr) {
			if (f->sym_from[0])
				say(m, "Symbol '%s' (0x%llx) comes before '%s' (0x%llx)", f->sym_to,
				    (unsigned long long)start, f->sym_from, (unsigned long long)f->addr);
			else
				say(m, "Symbol '%s' (0x%llx) comes before address 0x%llx)", f->sym_to,
				    (unsigned long long)start, (unsigned long long)f->addr);
			return -HWPROF_E_INVAL;
		}
		f->size = start + size - f->addr;
		no_size = !size;
	}
	if (no_size) {
		say(m, "Cannot determine size of symbol '%s'", f->sym_to[0] ? f->sym_to : f->sym_from);
		return -HWPROF_E_INVAL;
	}
	return 0;
}

static int resolve(struct hwprof_pt_filter *f, unsigned flags, struct msgbuf *m)
{
	if (!f->sym_from[0] && !f->sym_to[0])
		return 0;
	if (!f->file[0])
		return resolve_kernel(f, m);
	struct fsyms s;
	int rc = fsyms_load(f->file, flags & HWPROF_PT_FILTER_PARAMS, &s);
	if (rc < 0)
		return rc;
	if (!s.loaded)
		say(m, "File '%s' not found or has no symbols.", f->file);
	uint64_t start, size;
	if (!strcmp(f->sym_from, "*")) {
		struct stat st;
		if (stat(f->file, &st) || !S_ISREG(st.st_mode)) {
			say(m, "Failed to determine filter for %s", f->file);
			say(m, "Cannot determine file size.");
			rc = -HWPROF_E_INVAL;
		} else {
			f->addr = 0;
			f->size = (uint64_t)st.st_size;
		}
		goto out;
	}
	if (f->sym_from[0]) {
		if ((rc = find_sym(m, &s, f->sym_from, f->from_idx, &start, &size)))
			goto out;
		f->addr = start;
		if (f->range && !f->size && !f->sym_to[0])
			f->size = size;
	}
	if (f->sym_to[0]) {
		if ((rc = find_sym(m, &s, f->sym_to, f->to_idx, &start, &size)))
			goto out;
		if (start + size < f->addr) {
			if (f->sym_from[0])
				say(m, "Symbol '%s' (0x%llx) comes before '%s' (0x%llx)", f->sym_to,
				    (unsigned long long)start, f->sym_from, (unsigned long long)f->addr);
			else
				say(m, "Symbol '%s' (0x%llx) comes before address 0x%llx)", f->sym_to,
				    (unsigned long long)start, (unsigned long long)f->addr);
			rc = -HWPROF_E_INVAL;
			goto out;
		}
		f->size = start + size - f->addr;
	}
out:
	fsyms_free(&s);
	return rc;
}

HWPROF_API int hwprof_pt_filter_resolve(struct hwprof_pt_filter *f, unsigned flags, char *msg, size_t len)
{
	struct msgbuf m = { msg, len, 0 };
	if (msg && len)
		msg[0] = 0;
	if (!f)
		return -HWPROF_E_INVAL;
	int rc = resolve(f, flags, &m);
	if (rc)
		return rc < 0 ? rc : -HWPROF_E_INVAL;
	if (f->file[0]) {
		char real[PATH_MAX];
		if (!realpath(f->file, real))
			return -HWPROF_E_NOENT; /* perf gives only its trailer here */
		if (strlen(real) >= sizeof(f->file))
			return -HWPROF_E_NOMEM;
		memcpy(f->file, real, strlen(real) + 1);
	}
	return 0;
}

HWPROF_API int hwprof_pt_filter_append(char *buf, size_t len, const struct hwprof_pt_filter *f)
{
	if (!buf || !len || !f || f->action < 0 || f->action > 3)
		return -HWPROF_E_INVAL;
	size_t at = strnlen(buf, len);
	/* the kernel knows tracestop as stop with a range */
	const char *act = f->action == HWPROF_PT_TRACESTOP ? "stop" : action_names[f->action];
	int n;
	if (f->range)
		n = snprintf(buf + at, len - at, "%s%s 0x%llx/0x%llx%s%s", at ? "," : "", act,
			     (unsigned long long)f->addr, (unsigned long long)f->size, f->file[0] ? "@" : "", f->file);
	else
		n = snprintf(buf + at, len - at, "%s%s 0x%llx%s%s", at ? "," : "", act, (unsigned long long)f->addr,
			     f->file[0] ? "@" : "", f->file);
	if (n < 0 || (size_t)n >= len - at) {
		buf[at] = 0;
		return -HWPROF_E_NOMEM;
	}
	return 0;
}

HWPROF_API int hwprof_pt_filter_build(const struct hwprof_pmu *pmu, const char *text, unsigned flags, char *out,
				      size_t outlen, char *msg, size_t msglen)
{
	struct msgbuf m = { msg, msglen, 0 };
	struct hwprof_error perr_;
	if (msg && msglen)
		msg[0] = 0;
	if (!out || !outlen || !text)
		return -HWPROF_E_INVAL;
	out[0] = 0;
	long long max = pmu ? pmu->nr_addr_filters : -1;
	if (max <= 0) {
		say(&m, "This CPU does not support address filtering");
		return -HWPROF_E_OPNOTSUPP;
	}
	/* count first: perf names the count even when it is far too many */
	int n = hwprof_pt_filter_parse(text, NULL, 0, &perr_), rc = n < 0 ? n : 0;
	if (!rc && n > max) {
		say(&m, "Error: number of address filters (%d) exceeds maximum (%lld)", n, max);
		rc = -HWPROF_E_INVAL;
	}
	struct hwprof_pt_filter *f = NULL;
	if (!rc && n && !(f = calloc((size_t)n, sizeof(*f))))
		rc = -HWPROF_E_NOMEM;
	if (!rc && n)
		n = hwprof_pt_filter_parse(text, f, (size_t)n, &perr_);
	for (int i = 0; !rc && i < n; i++) {
		char why[2048];
		rc = hwprof_pt_filter_resolve(&f[i], flags, why, sizeof(why));
		if (why[0])
			say(&m, "%s", why);
		if (!rc)
			rc = hwprof_pt_filter_append(out, outlen, &f[i]);
	}
	free(f);
	if (rc) {
		out[0] = 0;
		say(&m, "Failed to parse address filter: '%s'", text);
		say(&m, "Filter format is: filter|start|stop|tracestop <start symbol or address> "
			"[/ <end symbol or size>] [@<file name>]");
		say(&m, "Where multiple filters are separated by space or comma.");
	}
	return rc;
}
