/* Source lines and inlined-function chains of a DSO's addresses from its
 * DWARF (libdw), the answers `addr2line -i -f` gives, which is what perf
 * 6.1 (built without libbfd) asks for its srcline and inline frames. One
 * libdw handle per DSO, opened on the first question; answers are cached
 * per address, since profiles ask about the same few addresses again and
 * again. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/sym_int.h"

struct dbg_entry {
	uint64_t addr;
	struct hwprof_srcframe *frames; /* NULL: not looked up (empty slot) */
	int n;
};

struct dbg_str {
	struct dbg_str *next;
	char s[];
};

struct sym_dbg {
	int fd;
	Elf *elf;
	Dwarf *dw;                 /* NULL when the file has no DWARF */
	GElf_Phdr *loads;          /* PT_LOAD headers: file offset -> address */
	size_t nloads;
	struct dbg_entry *tab;     /* open addressing, keyed by addr */
	size_t cap, used;
	struct dbg_str *strs;      /* demangled names we own */
	/* binutils' fallback naming: per section of the file, the lowest
	 * function-like symbol (FUNC/NOTYPE, .symtab else .dynsym) */
	GElf_Shdr *secs;
	uint64_t *min_func;
	/* and the source file it names then: BFD's elf_find_function takes
	 * the STT_FILE symbol before the function found (for a global one,
	 * only until a file symbol follows other symbols) */
	struct a2l_sym *a2l;       /* by section, value, symbol order */
	size_t na2l;
	size_t nsecs;
	/* units by address from their own ranges, for files without
	 * .debug_aranges (clang does not write it; libdw's dwarf_addrdie
	 * finds nothing then); made on the first miss */
	struct cu_range *cur;
	size_t ncur;
	bool cur_made;
	/* static-storage variables by address (binutils names a variable's
	 * declaration for its exact address); made on the first miss */
	struct var_decl *vars;
	size_t nvars;
	bool vars_made;
};

struct var_decl {
	uint64_t addr;
	const char *file, *comp_dir;
	unsigned line;
};

struct cu_range {
	uint64_t lo, hi;
	Dwarf_Off die;             /* the unit DIE's offset */
};

struct a2l_sym {
	uint64_t value;
	uint32_t shndx, order;
	const char *file;          /* NULL: addr2line prints "??" */
};

static struct hwprof_srcframe no_frames[1];

void sym_dbg_free(struct sym_dbg *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->cap; i++)
		if (g->tab[i].frames != no_frames)
			free(g->tab[i].frames);
	free(g->tab);
	while (g->strs) {
		struct dbg_str *n = g->strs->next;
		free(g->strs);
		g->strs = n;
	}
	free(g->loads);
	free(g->secs);
	free(g->min_func);
	free(g->a2l);
	free(g->cur);
	free(g->vars);
	if (g->dw)
		dwarf_end(g->dw);
	if (g->elf)
		elf_end(g->elf);
	if (g->fd >= 0)
		close(g->fd);
	free(g);
}

static void read_loads(struct sym_dbg *g, Elf *elf)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) || !n)
		return;
	g->loads = calloc(n, sizeof(*g->loads));
	if (!g->loads)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			g->loads[g->nloads++] = ph;
	}
}

static int cmp_a2l(const void *pa, const void *pb)
{
	const struct a2l_sym *a = pa, *b = pb;
	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void read_funcs(struct sym_dbg *g)
{
	size_t n;
	if (elf_getshdrnum(g->elf, &n) || !n || n > 65536)
		return;
	g->secs = calloc(n, sizeof(*g->secs));
	g->min_func = malloc(n * sizeof(*g->min_func));
	if (!g->secs || !g->min_func)
		return;
	g->nsecs = n;
	Elf_Scn *symtab = NULL, *dynsym = NULL;
	for (size_t i = 0; i < n; i++) {
		Elf_Scn *scn = elf_getscn(g->elf, i);
		g->min_func[i] = UINT64_MAX;
		if (!scn || !gelf_getshdr(scn, &g->secs[i]))
			continue;
		if (g->secs[i].sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (g->secs[i].sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	Elf_Scn *scn = symtab ? symtab : dynsym;
	GElf_Shdr sh;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return;
	size_t nsyms = sh.sh_size / sh.sh_entsize;
	g->a2l = malloc((nsyms ? nsyms : 1) * sizeof(*g->a2l));
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	const char *file = NULL;
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		unsigned type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			file = elf_strptr(g->elf, sh.sh_link, sym.st_name);
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (type == STT_SECTION)
			continue;
		if ((type == STT_FUNC || type == STT_NOTYPE || type == STT_GNU_IFUNC) && sym.st_shndx &&
		    sym.st_shndx < n) {
			if (sym.st_value < g->min_func[sym.st_shndx])
				g->min_func[sym.st_shndx] = sym.st_value;
			bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
			if (g->a2l)
				g->a2l[g->na2l++] = (struct a2l_sym){ sym.st_value, sym.st_shndx, (uint32_t)i,
								 file && (local || state != FILE_AFTER_SYMBOL) ? file
														 : NULL };
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
	}
	if (g->a2l)
		qsort(g->a2l, g->na2l, sizeof(*g->a2l), cmp_a2l);
}

static struct sym_dbg *dbg_open(struct hwprof_dso *d)
{
	struct sym_dbg *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->fd = -1;
	const char *path = hwprof_dso_symsrc(d);
	if (!path)
		path = hwprof_dso_runfile(d);
	if (!path)
		return g;
	elf_version(EV_CURRENT);
	g->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (g->fd >= 0)
		g->elf = elf_begin(g->fd, ELF_C_READ_MMAP, NULL);
	if (g->elf && elf_kind(g->elf) != ELF_K_ELF) {
		elf_end(g->elf);
		g->elf = NULL;
	}
	if (!g->elf && hwprof_dso_runfile(d) && strcmp(path, hwprof_dso_runfile(d))) {
		/* symbols from kallsyms: addr2line reads the kcore, as perf's */
		if (g->fd >= 0)
			close(g->fd);
		path = hwprof_dso_runfile(d);
		g->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (g->fd >= 0)
			g->elf = elf_begin(g->fd, ELF_C_READ, NULL);
	}
	if (!g->elf)
		return g;
	g->dw = dwarf_begin_elf(g->elf, DWARF_C_READ, NULL);
	read_funcs(g);
	/* offsets -> addresses by the file run: a debug file's program
	 * headers keep the addresses but not the offsets */
	const char *run = hwprof_dso_runfile(d);
	int rfd = run && strcmp(run, path) ? open(run, O_RDONLY | O_CLOEXEC) : -1;
	Elf *relf = rfd >= 0 ? elf_begin(rfd, ELF_C_READ_MMAP, NULL) : NULL;
	read_loads(g, relf ? relf : g->elf);
	if (relf)
		elf_end(relf);
	if (rfd >= 0)
		close(rfd);
	return g;
}

/* DSO-relative file offset -> link-time address */
static bool offset_to_vaddr(const struct sym_dbg *g, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < g->nloads; i++) {
		const GElf_Phdr *ph = &g->loads[i];
		if (off >= ph->p_offset && off < ph->p_offset + ph->p_memsz) {
			*vaddr = off - ph->p_offset + ph->p_vaddr;
			return true;
		}
	}
	return false;
}

static const char *keep_str(struct sym_dbg *g, char *s)
{
	size_t l = strlen(s);
	struct dbg_str *e = malloc(sizeof(*e) + l + 1);
	if (!e) {
		free(s);
		return NULL;
	}
	memcpy(e->s, s, l + 1);
	free(s);
	e->next = g->strs;
	g->strs = e;
	return e->s;
}

/* addr2line's function name: the linkage name (demangled, as perf then
 * does) when there is one, else the plain name, through abstract origins */
static const char *die_func_name(struct sym_dbg *g, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
		n = dwarf_formstring(&at);
	if (n) {
		char *dm = sym_demangle(n);
		if (dm)
			return keep_str(g, dm);
		return n;
	}
	return dwarf_diename(die) ? dwarf_diename(die)
	       : (dwarf_attr_integrate(die, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL);
}

/* Length of the range of die holding vaddr, 0 when none does. */
static uint64_t range_len(Dwarf_Die *die, uint64_t vaddr)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (vaddr >= lo && vaddr < hi)
			return hi - lo;
	return 0;
}

/* The concrete function scopes holding vaddr, outermost first: the
 * subprogram, then each inlined_subroutine inside it. (dwarf_getscopes
 * continues past an inline with its abstract origin's parents, which is
 * right for variables, not for call chains.) Where several siblings hold
 * the address (an assembly function's aliases each get a subprogram),
 * binutils takes the one with the smallest range, the last of equals. */
static int find_path(Dwarf_Die *parent, uint64_t vaddr, Dwarf_Die *path, int n, int max, int depth)
{
	Dwarf_Die child, best;
	uint64_t best_len = 0;
	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return n;
	do {
		int tag = dwarf_tag(&child);
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block: {
			uint64_t len = range_len(&child, vaddr);
			if (len && (!best_len || len <= best_len)) {
				best = child;
				best_len = len;
			}
			break;
		}
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (n == 0 && !best_len) {
				int m = find_path(&child, vaddr, path, n, max, depth + 1);
				if (m > n)
					return m;
			}
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (!best_len)
		return n;
	int tag = dwarf_tag(&best);
	if (tag != DW_TAG_lexical_block && tag != DW_TAG_try_block && tag != DW_TAG_catch_block && n < max)
		path[n++] = best;
	return find_path(&best, vaddr, path, n, max, depth + 1);
}

#define MAX_INLINE 64

/* Whether line (the row for vaddr) and every row before it in its
 * sequence are on file 1. */
static bool initial_file_row(Dwarf_Die *cu, Dwarf_Line *line, uint64_t vaddr)
{
	Dwarf_Lines *lines;
	size_t n;
	if (dwarf_getsrclines(cu, &lines, &n) != 0 || n == 0)
		return false;
	/* rows are sorted by address: the first past vaddr, then back to
	 * our row and on to the start of its sequence */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr a;
		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a) == 0 && a <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t i = lo;
	while (i > 0 && dwarf_onesrcline(lines, i - 1) != line)
		i--;
	if (i == 0)
		return false;
	for (i--; ; i--) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Files *lf;
		size_t idx;
		bool end = false;
		if (dwarf_line_file(l, &lf, &idx) != 0 || idx != 1)
			return false;
		if (i == 0)
			return true;
		if (dwarf_lineendsequence(dwarf_onesrcline(lines, i - 1), &end) == 0 && end)
			return true;
	}
}

static const char *file_name(Dwarf_Files *files, size_t idx)
{
	return files ? dwarf_filesrc(files, idx, NULL, NULL) : NULL; /* NULL when out of range */
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void make_cu_ranges(struct sym_dbg *g)
{
	g->cur_made = true;
	Dwarf_CU *unit = NULL;
	Dwarf_Die cudie;
	size_t cap = 0;
	while (dwarf_get_units(g->dw, unit, &unit, NULL, NULL, &cudie, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t o = 0;
		while ((o = dwarf_ranges(&cudie, o, &base, &lo, &hi)) > 0) {
			if (hi <= lo)
				continue;
			if (g->ncur == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct cu_range *v = realloc(g->cur, nc * sizeof(*v));
				if (!v)
					return; /* what we have still answers */
				g->cur = v;
				cap = nc;
			}
			g->cur[g->ncur++] = (struct cu_range){ lo, hi, dwarf_dieoffset(&cudie) };
		}
	}
	if (g->ncur > 1)
		qsort(g->cur, g->ncur, sizeof(*g->cur), cmp_cu_range);
}

/* The unit covering vaddr: libdw's answer from .debug_aranges, else the
 * units' own ranges (binutils reads those when aranges are missing). */
static bool unit_at(struct sym_dbg *g, uint64_t vaddr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(g->dw, vaddr, cu))
		return true;
	if (!g->cur_made)
		make_cu_ranges(g);
	size_t lo = 0, hi = g->ncur;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->cur[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges may nest or overlap: the nearest start first */
	for (size_t i = lo; i-- > 0;)
		if (vaddr < g->cur[i].hi)
			return dwarf_offdie(g->dw, g->cur[i].die, cu) != NULL;
	return false;
}

static int cmp_var(const void *a, const void *b)
{
	const struct var_decl *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every variable of fixed address (a lone DW_OP_addr location) with a
 * declaration line, in the unit die and below. */
static void scan_vars(struct sym_dbg *g, Dwarf_Die *die, Dwarf_Files *files, const char *comp_dir, int depth,
		      size_t *cap)
{
	Dwarf_Die child;
	if (depth > 64 || dwarf_child(die, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_variable) {
			Dwarf_Attribute at;
			Dwarf_Op *ops;
			size_t nops;
			Dwarf_Word file, line;
			if (dwarf_attr(&child, DW_AT_location, &at) && dwarf_getlocation(&at, &ops, &nops) == 0 &&
			    nops == 1 && ops[0].atom == DW_OP_addr &&
			    dwarf_attr_integrate(&child, DW_AT_decl_file, &at) && !dwarf_formudata(&at, &file) &&
			    dwarf_attr_integrate(&child, DW_AT_decl_line, &at) && !dwarf_formudata(&at, &line) &&
			    file_name(files, file)) {
				if (g->nvars == *cap) {
					size_t nc = *cap ? *cap * 2 : 256;
					struct var_decl *v = realloc(g->vars, nc * sizeof(*v));
					if (!v)
						return;
					g->vars = v;
					*cap = nc;
				}
				g->vars[g->nvars++] = (struct var_decl){ ops[0].number, file_name(files, file), comp_dir,
									 (unsigned)line };
			}
		}
		if (dwarf_haschildren(&child))
			scan_vars(g, &child, files, comp_dir, depth + 1, cap);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void make_vars(struct sym_dbg *g)
{
	size_t cap = 0;
	g->vars_made = true;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(g->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Files *files;
		size_t nfiles;
		if (dwarf_offdie(g->dw, off + hsize, &cu) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0) {
			Dwarf_Attribute cd;
			scan_vars(g, &cu, files, dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &cd)), 0, &cap);
		}
		off = next;
	}
	if (g->nvars > 1)
		qsort(g->vars, g->nvars, sizeof(*g->vars), cmp_var);
}

/* binutils' answer for an address no unit's code covers: a variable
 * starting exactly there gives its declaration, with no function (the
 * caller names the symbol) */
static int lookup_var(struct sym_dbg *g, uint64_t vaddr, struct hwprof_srcframe **out)
{
	if (!g->vars_made)
		make_vars(g);
	struct var_decl key = { .addr = vaddr };
	const struct var_decl *v = g->nvars ? bsearch(&key, g->vars, g->nvars, sizeof(key), cmp_var) : NULL;
	if (!v)
		return 0;
	struct hwprof_srcframe *f = calloc(1, sizeof(*f));
	if (!f)
		return -HWPROF_E_NOMEM;
	f->file = v->file;
	f->comp_dir = v->comp_dir;
	f->line = v->line;
	*out = f;
	return 1;
}

static int lookup(struct sym_dbg *g, uint64_t vaddr, struct hwprof_srcframe **out)
{
	Dwarf_Die cu, path[MAX_INLINE];
	*out = NULL;
	if (!g->dw)
		return 0;
	if (!unit_at(g, vaddr, &cu))
		return lookup_var(g, vaddr, out);
	int np = find_path(&cu, vaddr, path, 0, MAX_INLINE, 0);
	Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
	/* neither a function nor a line row (top-level asm in a C unit,
	 * glibc's __restore_rt): binutils' DWARF lookup finds nothing and
	 * addr2line names the file from the symbol table's STT_FILE, as
	 * for no debug info at all */
	if (!np && !line)
		return 0;
	/* no function (assembly): one frame the caller names from the
	 * symbol table, as addr2line does; inside a function but without a
	 * line row binutils names the file "" */
	int nf = np ? np : 1;
	struct hwprof_srcframe *f = calloc((size_t)nf, sizeof(*f));
	if (!f)
		return -HWPROF_E_NOMEM;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	if (dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
		files = NULL;
	Dwarf_Attribute cd;
	const char *comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &cd));
	for (int k = 0; k < nf; k++)
		f[k].comp_dir = comp_dir;
	if (!line)
		f[0].file = "";
	if (line) {
		int ln = 0;
		Dwarf_Files *lf;
		size_t idx;
		if (dwarf_line_file(line, &lf, &idx) == 0) {
			/* binutils 2.40 (whose addr2line perf 6.1 runs) names
			 * the rows of a DWARF 5 sequence that never set the file
			 * register (it starts at 1) by entry 0, the unit's own
			 * file; rows after an explicit "set file" by their entry.
			 * gas sets the file only when it changes, so a row still
			 * on file 1 with no other file before it in its sequence
			 * is such a row. Found by comparing with perf's output. */
			Dwarf_Half version = 0;
			dwarf_cu_info(cu.cu, &version, NULL, NULL, NULL, NULL, NULL, NULL);
			if (version >= 5 && idx == 1 && initial_file_row(&cu, line, vaddr))
				idx = 0;
			f[0].file = file_name(lf, idx);
		}
		/* an entry libdw cannot name (crtstuff.c's rows in some
		 * toolchains): binutils falls back to the unit's name */
		if (!f[0].file)
			f[0].file = dwarf_diename(&cu);
		dwarf_lineno(line, &ln);
		f[0].line = ln > 0 ? (unsigned)ln : 0;
	}
	/* frames innermost first: frame k is path[np - 1 - k] */
	for (int k = 0; k < np; k++) {
		Dwarf_Die *die = &path[np - 1 - k];
		f[k].func = die_func_name(g, die);
		if (dwarf_tag(die) == DW_TAG_inlined_subroutine && k + 1 < nf) {
			/* the caller's position is the call site of this inline */
			Dwarf_Attribute at;
			Dwarf_Word w;
			if (dwarf_attr(die, DW_AT_call_file, &at) && !dwarf_formudata(&at, &w))
				f[k + 1].file = file_name(files, w);
			if (dwarf_attr(die, DW_AT_call_line, &at) && !dwarf_formudata(&at, &w))
				f[k + 1].line = (unsigned)w;
		}
	}
	*out = f;
	return nf;
}

static int grow(struct sym_dbg *g)
{
	size_t ncap = g->cap ? g->cap * 2 : 256;
	struct dbg_entry *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < g->cap; i++) {
		if (!g->tab[i].frames)
			continue;
		size_t h = (size_t)(g->tab[i].addr * 0x9e3779b97f4a7c15ULL >> 20) & (ncap - 1);
		while (nt[h].frames)
			h = (h + 1) & (ncap - 1);
		nt[h] = g->tab[i];
	}
	free(g->tab);
	g->tab = nt;
	g->cap = ncap;
	return 0;
}

HWPROF_API int hwprof_dso_srcframes(struct hwprof_dso *d, uint64_t addr, const struct hwprof_srcframe **frames)
{
	struct sym_dbg **gp = sym_dso_dbg(d);
	*frames = NULL;
	if (!*gp && !(*gp = dbg_open(d)))
		return -HWPROF_E_NOMEM;
	struct sym_dbg *g = *gp;
	if (!g->dw)
		return 0;
	if ((g->used + 1) * 10 > g->cap * 7 && grow(g) < 0)
		return -HWPROF_E_NOMEM;
	size_t h = (size_t)(addr * 0x9e3779b97f4a7c15ULL >> 20) & (g->cap - 1);
	while (g->tab[h].frames) {
		if (g->tab[h].addr == addr) {
			*frames = g->tab[h].frames;
			return g->tab[h].n;
		}
		h = (h + 1) & (g->cap - 1);
	}
	uint64_t vaddr;
	struct hwprof_srcframe *f = NULL;
	int n = offset_to_vaddr(g, addr, &vaddr) ? lookup(g, vaddr, &f) : 0;
	if (n < 0)
		return n;
	g->tab[h].addr = addr;
	g->tab[h].frames = n ? f : no_frames;
	g->tab[h].n = n;
	g->used++;
	*frames = f;
	return n;
}

HWPROF_API const char *hwprof_dso_addr2line_file(struct hwprof_dso *d, uint64_t addr)
{
	struct sym_dbg **gp = sym_dso_dbg(d);
	if (!*gp && !(*gp = dbg_open(d)))
		return NULL;
	struct sym_dbg *g = *gp;
	uint64_t vaddr;
	if (!g->nsecs || !g->na2l || !offset_to_vaddr(g, addr, &vaddr))
		return NULL;
	for (uint32_t i = 1; i < g->nsecs; i++) {
		const GElf_Shdr *sh = &g->secs[i];
		if (!(sh->sh_flags & SHF_ALLOC) || vaddr < sh->sh_addr || vaddr - sh->sh_addr >= sh->sh_size)
			continue;
		/* the last symbol of the section at or below vaddr (equal
		 * values: the later in the table, as BFD keeps the last) */
		size_t lo = 0, hi = g->na2l;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct a2l_sym *m = &g->a2l[mid];
			if (m->shndx < i || (m->shndx == i && m->value <= vaddr))
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo && g->a2l[lo - 1].shndx == i ? g->a2l[lo - 1].file : NULL;
	}
	return NULL;
}

HWPROF_API bool hwprof_dso_addr2line_names(struct hwprof_dso *d, uint64_t addr)
{
	struct sym_dbg **gp = sym_dso_dbg(d);
	if (!*gp && !(*gp = dbg_open(d)))
		return false;
	struct sym_dbg *g = *gp;
	uint64_t vaddr;
	if (!g->nsecs || !offset_to_vaddr(g, addr, &vaddr))
		return false;
	for (size_t i = 1; i < g->nsecs; i++) {
		const GElf_Shdr *sh = &g->secs[i];
		if ((sh->sh_flags & SHF_ALLOC) && vaddr >= sh->sh_addr && vaddr - sh->sh_addr < sh->sh_size)
			return g->min_func[i] <= vaddr;
	}
	return false;
}

HWPROF_API int hwprof_dso_inline_entries(struct hwprof_dso *d, uint64_t addr, const struct hwprof_sym *sym,
					 struct hwprof_inline_entry *out, size_t max)
{
	const struct hwprof_srcframe *fr;
	if (!d || !sym || !max || !hwprof_dso_runfile(d))
		return 0;
	int n = hwprof_dso_srcframes(d, addr, &fr);
	if (n < 0)
		return n;
	if (n == 0) {
		/* addr2line's one record named from the symbol table */
		if (!hwprof_dso_addr2line_names(d, addr))
			return 0;
		out[0] = (struct hwprof_inline_entry){ sym->name, false, hwprof_dso_addr2line_file(d, addr), 0 };
		return 1;
	}
	if ((size_t)n > max)
		n = (int)max;
	for (int k = 0; k < n; k++) {
		/* perf reuses the frame's own symbol when the names agree */
		bool same = !fr[k].func || !strcmp(fr[k].func, sym->name);
		out[k] = (struct hwprof_inline_entry){ same ? sym->name : fr[k].func, !same, fr[k].file, fr[k].line };
	}
	return n;
}
