/* Internals of the symbol library: the table builder every loader fills
 * (ELF, kallsyms, perf maps) and the DSO record the cache keeps. */
#ifndef HWPROF_SYMBOLS_INT_H
#define HWPROF_SYMBOLS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/symbols.h"
#include "util/ixtree.h"

/* A symbol while the table is built: name is an offset into the pool. */
struct sym_raw {
	uint64_t start, end;
	uint32_t name;
	uint32_t seq;          /* insertion order: ties keep it, like perf's tree */
	uint8_t bind, type;    /* STB_*, STT_* */
};

/* A symbol the duplicate fix-up dropped: perf erased it from its tree at
 * that point, which reshaped the tree (see sym_finish). */
struct sym_gone {
	uint64_t start;
	uint32_t seq, erased;  /* when inserted, when erased (t->clock) */
};

struct sym_table {
	struct sym_raw *raw;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	struct hwprof_sym *syms; /* final, sorted by start */
	size_t nsyms;
	uint32_t clock;        /* counts inserts and erases */
	struct sym_gone *gone;
	size_t ngone, gone_cap;
	/* perf's tree over syms, kept only when symbols overlap: then the
	 * symbol perf finds for an address depends on the tree's shape */
	struct ht_tree tree;
	bool has_tree;
};

int sym_add(struct sym_table *t, uint64_t start, uint64_t size, unsigned bind, unsigned type,
	    const char *name, size_t name_len);
/* Sort by start (stable). */
void sym_sort(struct sym_table *t);
/* perf's fixups: zero-sized symbols end where the next starts (kallsyms:
 * not across the kernel/module boundary), the last one a page on; of
 * symbols sharing a start only the best one is kept. */
void sym_fixup_end(struct sym_table *t, bool kallsyms);
void sym_fixup_duplicate(struct sym_table *t);
/* Drop the entries for which keep() is false. */
void sym_filter(struct sym_table *t, bool (*keep)(const struct sym_table *, const struct sym_raw *));
/* Build the final array (names point into the pool); frees raw. */
int sym_finish(struct sym_table *t);
void sym_table_free(struct sym_table *t);
/* The symbol perf names for addr (after sym_finish), or NULL. */
const struct hwprof_sym *sym_table_find(const struct sym_table *t, uint64_t addr);

static inline const char *sym_raw_name(const struct sym_table *t, const struct sym_raw *r)
{
	return t->pool + r->name;
}

/* Loaders: > 0 symbols loaded, 0 none / not found, < 0 on NOMEM. */
struct sym_elf_src;
/* ref: the recorded kernel's reference symbol (NULL: none), at ref_addr
 * then: the symbols move by the difference, as perf relocates them */
int sym_load_kallsyms(struct sym_table *t, const char *path, const char *ref, uint64_t ref_addr);
/* Every symbol (and every dropped one) moves down by delta. */
void sym_shift(struct sym_table *t, uint64_t delta);
int sym_load_perfmap(struct sym_table *t, const char *path);
/* ELF: symbols from syms_path (.symtab, else .dynsym), section fixes and
 * PLT from run_path (may be the same file). */
int sym_load_elf(struct sym_table *t, const char *syms_path, const char *run_path, bool demangle);
/* A vmlinux for [kernel.kallsyms]: the symbols of its .text at their file
 * offsets (as perf adjusts them). text: where .text runs, moved so that
 * the reference symbol ref (the kernel MMAP record's "_text"; NULL: none)
 * lands at ref_addr, and its file offset (perf's kernel map from then
 * on). secs: the other sections with symbols, likewise. */
struct sym_ktext {
	uint64_t start, end, file_off;
	uint64_t reloc;        /* start less .text's link address */
	bool have;
};
/* perf's kernel maps from a kcore copy: [start, end) at file offset pgoff. */
struct sym_kseg {
	uint64_t start, end, pgoff;
};
/* A kernel module the recording mapped: perf's name for it ("[ext4]")
 * and where it starts. */
struct sym_kmod {
	char name[64];
	uint64_t start;
};
/* perf's validate_kcore_addresses(): the kallsyms file puts ref (NULL:
 * none) at ref_addr, and the "modules" file beside it puts every module
 * where the recording had it. */
bool sym_kcore_valid(const char *kallsyms, const char *ref, uint64_t ref_addr, const struct sym_kmod *mods,
		     size_t nmods);
/* kallsyms with perf's kcore beside it (a file named kallsyms, "kcore" in
 * its directory, the reference symbol ref where the recording had it):
 * every symbol (modules' too, their names without the module) at its
 * offset in the kcore file, in the segment holding it; segs: the kcore's
 * readable segments. 1 when used, 0 when perf would not (kcore path in
 * kcore either way). */
int sym_load_kcore(struct sym_table *t, const char *kallsyms, const char *ref, uint64_t ref_addr, struct sym_kseg **segs,
		   size_t *nsegs, char *kcore, size_t kcore_len);

/* A section other than .text with symbols: perf's map of its own. */
struct sym_ksect {
	size_t shndx;
	char name[64];         /* ".init.text" */
	uint64_t start, end, file_off;
	struct sym_table tab;  /* sorted, not finished */
};
int sym_load_vmlinux(struct sym_table *t, const char *path, const char *ref, uint64_t ref_addr, bool demangle,
		     struct sym_ktext *text, struct sym_ksect **secs, size_t *nsecs);
void sym_ksects_free(struct sym_ksect *secs, size_t n);
/* Facts about an ELF file: 1 if it opens as ELF, with has_symtab /
 * has_dynsym and its build id (len 0 if none). */
struct sym_elf_info {
	bool has_symtab, has_dynsym;
	uint8_t build_id[20];
	size_t build_id_len;
};
int sym_elf_probe(const char *path, struct sym_elf_info *info);

char *sym_demangle(const char *name);

/* A kernel module map of the recording (perf checks a kcore against them). */
void sym_add_module(struct hwprof_symbols *s, const char *name, uint64_t start);
/* The recording's OS release (its OSRELEASE feature). */
int sym_set_kernel_name(struct hwprof_symbols *s, const char *path);
void sym_set_os_release(struct hwprof_symbols *s, const char *rel);

/* Debuginfo of one DSO (sym_srcline.c), kept by the cache. */
struct sym_dbg;
void sym_dbg_free(struct sym_dbg *g);
struct sym_dbg **sym_dso_dbg(struct hwprof_dso *d);

#endif
