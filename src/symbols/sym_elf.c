/* ELF symbols with libelf, as perf 6.1 reads them: functions, objects and
 * text labels from .symtab (else .dynsym), values made file-relative with
 * their section's sh_addr - sh_offset, ends fixed up, duplicates folded;
 * then one "name@plt" symbol per .rela.plt/.rel.plt entry, laid out from
 * the .plt section's offset in entries of its sh_entsize. A separate
 * debug file supplies the symbols; the runtime file the section offsets
 * of NOBITS sections and the PLT. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/sym_int.h"

struct elf_file {
	int fd;
	Elf *elf;
	size_t shstrndx;
};

static int ef_open(struct elf_file *f, const char *path)
{
	f->fd = -1;
	f->elf = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -1;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || elf_getshdrstrndx(f->elf, &f->shstrndx)) {
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		f->fd = -1;
		f->elf = NULL;
		return -1;
	}
	return 0;
}

static void ef_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

static Elf_Scn *section_by_name(struct elf_file *f, const char *name, GElf_Shdr *sh, size_t *idx)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(f->elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		const char *n = elf_strptr(f->elf, f->shstrndx, sh->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static Elf_Scn *section_of_type(struct elf_file *f, const char *name, unsigned type, GElf_Shdr *sh,
				size_t *idx)
{
	Elf_Scn *s = section_by_name(f, name, sh, idx);
	return s && sh->sh_type == type ? s : NULL;
}

static int read_build_id(struct elf_file *f, uint8_t *id, size_t *len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	*len = 0;
	while ((scn = elf_nextscn(f->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz > 0) {
				size_t n = nh.n_descsz < 20 ? nh.n_descsz : 20;
				memcpy(id, (char *)d->d_buf + desc_off, n);
				*len = n;
				return 1;
			}
		}
	}
	return 0;
}

int sym_elf_probe(const char *path, struct sym_elf_info *info)
{
	struct elf_file f;
	memset(info, 0, sizeof(*info));
	if (ef_open(&f, path))
		return 0;
	GElf_Shdr sh;
	info->has_symtab = section_of_type(&f, ".symtab", SHT_SYMTAB, &sh, NULL) != NULL;
	info->has_dynsym = section_of_type(&f, ".dynsym", SHT_DYNSYM, &sh, NULL) != NULL;
	read_build_id(&f, info->build_id, &info->build_id_len);
	ef_close(&f);
	return 1;
}

static bool load_phdr(struct elf_file *f, uint64_t vaddr, GElf_Phdr *out)
{
	size_t n;
	if (elf_getphdrnum(f->elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr < ph.p_vaddr + ph.p_memsz) {
			*out = ph;
			return true;
		}
	}
	return false;
}

static bool sym_wanted(const GElf_Sym *s, bool *label)
{
	unsigned type = GELF_ST_TYPE(s->st_info);
	*label = false;
	if (!s->st_name || s->st_shndx == SHN_UNDEF)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	if (type == STT_NOTYPE && s->st_shndx != SHN_ABS) {
		*label = true;
		return true;
	}
	return false;
}

static int add_named(struct sym_table *t, uint64_t start, uint64_t size, unsigned bind, unsigned type,
		     const char *name, const char *suffix, bool demangle)
{
	char *d = demangle ? sym_demangle(name) : NULL;
	const char *n = d ? d : name;
	int rc;
	if (suffix) {
		size_t a = strlen(n), b = strlen(suffix);
		char *buf = malloc(a + b + 1);
		if (!buf) {
			free(d);
			return -HWPROF_E_NOMEM;
		}
		memcpy(buf, n, a);
		memcpy(buf + a, suffix, b + 1);
		rc = sym_add(t, start, size, bind, type, buf, a + b);
		free(buf);
	} else {
		rc = sym_add(t, start, size, bind, type, n, strlen(n));
	}
	free(d);
	return rc;
}

/* A vmlinux as perf 6.1 reads one for [kernel.kallsyms]: the symbols of
 * the ".text" section are the kernel map's, those of any other section go
 * to a map of that section (perf's "[kernel.kallsyms].init.text"...), all
 * at file offsets; the maps run where reloc moves the sections. */
struct ktext_sel {
	uint64_t reloc;
	struct sym_ksect *secs;
	size_t nsecs;
};

/* The table for symbols of section shndx, made on its first symbol. */
static struct sym_table *ksect_table(struct ktext_sel *k, size_t shndx, const char *name, const GElf_Shdr *sh)
{
	for (size_t i = 0; i < k->nsecs; i++)
		if (k->secs[i].shndx == shndx)
			return &k->secs[i].tab;
	struct sym_ksect *n = realloc(k->secs, (k->nsecs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	k->secs = n;
	struct sym_ksect *x = &n[k->nsecs++];
	memset(x, 0, sizeof(*x));
	x->shndx = shndx;
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->start = sh->sh_addr + k->reloc;
	x->end = x->start + sh->sh_size;
	x->file_off = sh->sh_offset;
	return &x->tab;
}

static int load_symtab(struct sym_table *t, struct elf_file *sf, struct elf_file *rf, bool demangle,
		       struct ktext_sel *kernel)
{
	GElf_Shdr symsh;
	Elf_Scn *symscn = section_of_type(sf, ".symtab", SHT_SYMTAB, &symsh, NULL);
	if (!symscn)
		symscn = section_of_type(sf, ".dynsym", SHT_DYNSYM, &symsh, NULL);
	if (!symscn || !symsh.sh_entsize)
		return 0;
	Elf_Data *data = elf_getdata(symscn, NULL);
	if (!data)
		return 0;
	GElf_Ehdr eh;
	if (!gelf_getehdr(sf->elf, &eh))
		return 0;
	bool arm = eh.e_machine == EM_ARM || eh.e_machine == EM_AARCH64;
	size_t nsyms = symsh.sh_size / symsh.sh_entsize;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;
		bool label;
		if (!gelf_getsym(data, (int)i, &s) || !sym_wanted(&s, &label))
			continue;
		const char *name = elf_strptr(sf->elf, symsh.sh_link, s.st_name);
		if (!name)
			continue;
		/* ARM mapping symbols ($a, $d, $t, $x) name no function */
		if (arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == 0 || name[2] == '.'))
			continue;
		GElf_Shdr sh;
		Elf_Scn *sec = elf_getscn(sf->elf, s.st_shndx);
		if (!sec || !gelf_getshdr(sec, &sh))
			continue;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		struct elf_file *secf = sf;
		if (sh.sh_type == SHT_NOBITS && rf != sf) {
			/* debug files keep no contents, so no real offsets */
			sec = elf_getscn(rf->elf, s.st_shndx);
			if (!sec || !gelf_getshdr(sec, &sh))
				continue;
			secf = rf;
		}
		const char *secname = elf_strptr(secf->elf, secf->shstrndx, sh.sh_name);
		if (label && (!secname || !strstr(secname, "text")))
			continue;
		struct sym_table *into = t;
		if (kernel && (!secname || strcmp(secname, ".text")) &&
		    !(into = ksect_table(kernel, s.st_shndx, secname ? secname : "", &sh)))
			return -HWPROF_E_NOMEM;
		uint64_t value = s.st_value;
		if (eh.e_machine == EM_ARM && GELF_ST_TYPE(s.st_info) == STT_FUNC && (value & 1))
			value--;
		/* file-relative: by the runtime file's PT_LOAD holding the value
		 * (right for .bss too), else by the section */
		GElf_Phdr ph;
		if (kernel)
			value -= sh.sh_addr - sh.sh_offset; /* perf's adjust_kernel_syms */
		else if (load_phdr(rf, value, &ph))
			value -= ph.p_vaddr - ph.p_offset;
		else
			value -= sh.sh_addr - sh.sh_offset;
		int rc = add_named(into, value, s.st_size, GELF_ST_BIND(s.st_info), GELF_ST_TYPE(s.st_info), name,
				   NULL, demangle);
		if (rc < 0)
			return rc;
	}
	sym_sort(t);
	sym_fixup_end(t, false);
	sym_fixup_duplicate(t);
	return (int)t->n;
}

static int load_plt(struct sym_table *t, struct elf_file *f, bool demangle)
{
	GElf_Shdr dynsh, relsh, pltsh;
	size_t dynidx = 0;
	if (!section_of_type(f, ".dynsym", SHT_DYNSYM, &dynsh, &dynidx))
		return 0;
	Elf_Scn *rel = section_by_name(f, ".rela.plt", &relsh, NULL);
	if (!rel)
		rel = section_by_name(f, ".rel.plt", &relsh, NULL);
	if (!rel || relsh.sh_link != dynidx || !relsh.sh_entsize)
		return 0;
	if (!section_by_name(f, ".plt", &pltsh, NULL))
		return 0;
	Elf_Data *reld = elf_getdata(rel, NULL);
	Elf_Data *syms = elf_getdata(elf_getscn(f->elf, dynidx), NULL);
	if (!reld || !syms)
		return 0;
	GElf_Ehdr eh;
	if (!gelf_getehdr(f->elf, &eh))
		return 0;
	uint64_t hdr, ent;
	switch (eh.e_machine) {
	case EM_ARM: hdr = 20; ent = 12; break;
	case EM_AARCH64: hdr = 32; ent = 16; break;
	case EM_SPARC: hdr = 48; ent = 12; break;
	case EM_SPARCV9: hdr = 128; ent = 32; break;
	default: hdr = ent = pltsh.sh_entsize; break;
	}
	uint64_t off = pltsh.sh_offset + hdr;
	size_t nrel = relsh.sh_size / relsh.sh_entsize;
	int nr = 0;
	for (size_t i = 0; i < nrel; i++) {
		uint64_t info;
		if (relsh.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(reld, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			GElf_Rel r;
			if (!gelf_getrel(reld, (int)i, &r))
				break;
			info = r.r_info;
		}
		GElf_Sym s;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &s))
			break;
		const char *name = elf_strptr(f->elf, dynsh.sh_link, s.st_name);
		int rc = add_named(t, off, ent, STB_GLOBAL, STT_FUNC, name ? name : "", "@plt", demangle);
		if (rc < 0)
			return rc;
		off += ent;
		nr++;
	}
	return nr;
}

int sym_load_elf(struct sym_table *t, const char *syms_path, const char *run_path, bool demangle)
{
	struct elf_file sf, rf;
	if (ef_open(&sf, syms_path))
		return 0;
	struct elf_file *runf = &sf;
	if (run_path && strcmp(run_path, syms_path) && !ef_open(&rf, run_path))
		runf = &rf;
	int rc = load_symtab(t, &sf, runf, demangle, NULL);
	if (rc > 0) {
		/* PLT symbols come after the fixups: they have their sizes */
		int n = load_plt(t, runf, demangle);
		if (n < 0)
			rc = n;
		else if (n > 0)
			sym_sort(t);
	}
	if (runf != &sf)
		ef_close(runf);
	ef_close(&sf);
	return rc < 0 ? rc : rc > 0;
}

/* perf's ref_reloc_sym: the first symbol of that name in the table perf
 * reads (.symtab, else .dynsym), whatever its type. */
static bool find_ref(struct elf_file *f, const char *ref, uint64_t *value)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_of_type(f, ".symtab", SHT_SYMTAB, &sh, NULL);
	if (!scn)
		scn = section_of_type(f, ".dynsym", SHT_DYNSYM, &sh, NULL);
	Elf_Data *data = scn && sh.sh_entsize ? elf_getdata(scn, NULL) : NULL;
	if (!data)
		return false;
	for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n; i++) {
		GElf_Sym s;
		const char *name;
		if (gelf_getsym(data, (int)i, &s) && (name = elf_strptr(f->elf, sh.sh_link, s.st_name)) &&
		    !strcmp(name, ref)) {
			*value = s.st_value;
			return true;
		}
	}
	return false;
}

int sym_load_vmlinux(struct sym_table *t, const char *path, const char *ref, uint64_t ref_addr, bool demangle,
		     struct sym_ktext *text, struct sym_ksect **secs, size_t *nsecs)
{
	struct elf_file f;
	memset(text, 0, sizeof(*text));
	*secs = NULL;
	*nsecs = 0;
	if (ef_open(&f, path))
		return 0;
	struct ktext_sel sel = { 0 };
	uint64_t unrelocated;
	/* perf needs the symbol's unrelocated address to be non-zero */
	if (ref && find_ref(&f, ref, &unrelocated) && unrelocated)
		sel.reloc = ref_addr - unrelocated;
	GElf_Shdr sh;
	int rc = load_symtab(t, &f, &f, demangle, &sel);
	/* perf remaps the kernel map onto .text when it meets the first
	 * symbol there */
	if (rc > 0 && t->n && section_by_name(&f, ".text", &sh, NULL)) {
		text->start = sh.sh_addr + sel.reloc;
		text->end = text->start + sh.sh_size;
		text->file_off = sh.sh_offset;
		text->reloc = sel.reloc;
		text->have = true;
	}
	ef_close(&f);
	/* perf sorts a section map's symbols but fixes up none of them */
	for (size_t i = 0; i < sel.nsecs; i++)
		sym_sort(&sel.secs[i].tab);
	if (rc < 0) {
		sym_ksects_free(sel.secs, sel.nsecs);
		return rc;
	}
	*secs = sel.secs;
	*nsecs = sel.nsecs;
	return rc > 0 || sel.nsecs;
}

void sym_ksects_free(struct sym_ksect *secs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sym_table_free(&secs[i].tab);
	free(secs);
}
