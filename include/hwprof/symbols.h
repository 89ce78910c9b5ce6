/* Symbols: turning sampled addresses into function names, like perf does.
 *
 *   hwprof_symbols_open()       a DSO cache with its search configuration
 *   hwprof_symbols_set_build_id() tell the cache a DSO's build id (BUILD_ID
 *                               feature, MMAP2 records)
 *   hwprof_symbols_resolve()    the symbol for an address in a session map
 *   hwprof_symbols_dso() / hwprof_dso_find()  direct access to a DSO's table
 *
 * A DSO is loaded once, on first use, from the first file that has it:
 * the build-id cache (`<buildid_dir>/.build-id/xx/rest`), the debug root
 * (`<debug_root>/.build-id/xx/rest.debug`, `<debug_root><path>`), then the
 * path itself, each under `symfs`. Symbols come from .symtab (else .dynsym)
 * of the first file that has one, PLT entries (`foo@plt`) from the file the
 * program runs. Names are demangled (C++ via libiberty, Rust legacy
 * hashes). `[kernel.kallsyms]` reads kallsyms, `/tmp/perf-PID.map` perf's
 * JIT map format. Lookups are binary searches; nothing is allocated per
 * lookup.
 */
#ifndef HWPROF_SYMBOLS_H
#define HWPROF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_symbols;
struct hwprof_dso;

/* Where to look. NULL/empty fields take the defaults in brackets. */
struct hwprof_symcfg {
	const char *symfs;        /* prefix for every file path [none] */
	const char *buildid_dir;  /* perf's build-id cache [$HOME/.debug] */
	const char *debug_root;   /* separate debuginfo root [/usr/lib/debug] */
	const char *kallsyms;     /* kernel symbols [/proc/kallsyms, or the
	                           * build-id cache copy when the id is known] */
	const char *perfmap_dir;  /* directory of perf-PID.map files [/tmp] */
	const char *vmlinux;      /* the kernel's image for [kernel.kallsyms]
	                           * (perf's -k) when kallsyms is not given
	                           * [perf's search: the build-id cache, then
	                           * ./vmlinux, /boot/vmlinux, and by the OS
	                           * release /boot, /usr/lib/debug, /lib/modules;
	                           * then kallsyms] */
	const char *proc_dir;     /* the running kernel's kallsyms, kcore and
	                           * modules [/proc] */
	bool no_demangle;         /* keep mangled names */
	bool ignore_vmlinux;      /* perf's --ignore-vmlinux: neither cfg.vmlinux
	                           * nor perf's vmlinux_path is read */
	/* perf's messages while loading symbols ("No kallsyms or vmlinux with
	 * build-id ... was found"), one line without its newline; NULL:
	 * not reported */
	void (*notice)(void *ctx, const char *msg);
	void *notice_ctx;
};

struct hwprof_sym {
	uint64_t start, end;      /* DSO-relative (file offsets for ELF DSOs
	                           * and a vmlinux, absolute for kallsyms and
	                           * JIT maps) */
	const char *name;
	bool object;              /* a data object (STT_OBJECT; kallsyms D/B):
	                           * perf report shows it as name+offset */
	bool inlined;             /* an inlined function's stand-in (perf's
	                           * fake inline symbol: the inlined name over
	                           * its caller's extent); only report makes
	                           * these, a DSO's own symbols never are */
	bool global;              /* STB_GLOBAL (kallsyms: an upper-case type
	                           * other than W) */
};

/* The result of a lookup. */
struct hwprof_symres {
	const struct hwprof_sym *sym; /* NULL when no symbol covers the address */
	uint64_t addr;            /* the address inside the DSO (perf's map_ip) */
	struct hwprof_dso *dso;   /* NULL when the DSO could not be loaded */
};

HWPROF_API int hwprof_symbols_open(struct hwprof_symbols **out, const struct hwprof_symcfg *cfg);
HWPROF_API void hwprof_symbols_close(struct hwprof_symbols *s);
/* The recorded kernel's reference symbol (hwprof_session_kernel_reloc()):
 * kallsyms read later move by where that symbol is now, as perf's do.
 * Set it before the kernel's symbols are first looked up. */
HWPROF_API void hwprof_symbols_set_kernel_reloc(struct hwprof_symbols *s, const char *name, uint64_t addr);

/* The file perf 6.1 reads a DSO's code from (its try_to_open_dso()): the
 * build-id cache's copy when the DSO's build id is known and the copy is
 * there, else the path under the symfs. Written to buf. */
HWPROF_API const char *hwprof_symbols_code_path(struct hwprof_symbols *s, const char *name, char *buf,
						size_t len);

/* Record a DSO's build id (1..20 bytes) before it is loaded. */
HWPROF_API int hwprof_symbols_set_build_id(struct hwprof_symbols *s, const char *dso_name,
					   const uint8_t *id, size_t len);

/* The DSO of that name, loading it on first use. Returns 1 when symbols
 * were found, 0 when none (the DSO is still returned, empty), < 0 on
 * allocation failure. */
HWPROF_API int hwprof_symbols_dso(struct hwprof_symbols *s, const char *name, struct hwprof_dso **out);

/* Symbol covering a DSO-relative address, or NULL. */
HWPROF_API const struct hwprof_sym *hwprof_dso_find(const struct hwprof_dso *d, uint64_t addr);
HWPROF_API size_t hwprof_dso_nr_syms(const struct hwprof_dso *d);
HWPROF_API const struct hwprof_sym *hwprof_dso_sym(const struct hwprof_dso *d, size_t i);
/* The file the symbols came from (NULL if none). */
HWPROF_API const char *hwprof_dso_symsrc(const struct hwprof_dso *d);

/* perf 6.1's kernel maps once it has the kernel's symbols from a vmlinux
 * (its .text as [kernel.kallsyms], each other section with symbols as
 * "[kernel.kallsyms].init.text"...) or from kallsyms with a kcore copy
 * beside them (perf record --kcore: each kcore segment a map of
 * [kernel.kallsyms]). These replace the recorded kernel map; with a kcore
 * they replace module maps too (only). Symbols in them are at file
 * offsets (pgoff + ip - start). The kernel's symbols are loaded first:
 * with load_any, whatever perf would load; without it, only a vmlinux or
 * the kallsyms the user named (the kallsyms search, and its notices, wait
 * for a symbol lookup). Set the kernel's reference symbol before.
 * Returns 1 with the i-th map (by address), 0 past the last (at i = 0:
 * the recorded maps stand), < 0 on allocation failure. */
struct hwprof_kernel_map {
	uint64_t start, end, pgoff;
	const char *dso;          /* its DSO's name */
	const char *file;         /* where perf reads its code; NULL: nowhere */
	bool only;                /* no other kernel map stays (kcore) */
};
HWPROF_API int hwprof_symbols_kernel_map(struct hwprof_symbols *s, size_t i, bool load_any,
					 struct hwprof_kernel_map *m);
/* Whether the kernel's symbols have been looked for yet. */
HWPROF_API bool hwprof_symbols_kernel_loaded(const struct hwprof_symbols *s);

/* The address perf gives addr2line and prints in "dso[addr]" for addr in
 * a map [map_start.. at map_pgoff] of d (its map__rip_2objdump()): the
 * kernel's from a vmlinux or kcore maps back to link addresses; other
 * DSOs' (the vmlinux's other sections too) stay as they are here. */
HWPROF_API uint64_t hwprof_dso_objdump_addr(const struct hwprof_dso *d, uint64_t map_start, uint64_t map_pgoff,
					    uint64_t addr);

/* Whether perf names the DSO by a file it can run addr2line on: an ELF
 * file's path, the kernel's vmlinux or kcore (not kallsyms, [vdso], JIT
 * maps). */
HWPROF_API bool hwprof_dso_is_file(const struct hwprof_dso *d);

/* The file the program runs from (its code and CFI; NULL if none) and
 * the DSO's name as the maps give it. */
HWPROF_API const char *hwprof_dso_runfile(const struct hwprof_dso *d);
HWPROF_API const char *hwprof_dso_name(const struct hwprof_dso *d);
/* The name perf prints for the DSO called dso here (short_name: in
 * report's columns; else script's). That differs only for the kernel of
 * a recording whose build-id table names it by a path, a vmlinux perf
 * record found: perf calls it by the path, short "[kernel.vmlinux]", and
 * its sections "[kernel.vmlinux].init.text"... Returns dso, an internal
 * string, or buf (len bytes) with the name. */
HWPROF_API const char *hwprof_symbols_perf_name(const struct hwprof_symbols *s, const char *dso, bool short_name,
						char *buf, size_t len);
/* Bytes of the runfile at a file offset (code bytes for an address's
 * DSO-relative offset): the count read, 0 past the end, < 0 when the
 * DSO has no file. */
HWPROF_API ssize_t hwprof_dso_read(struct hwprof_dso *d, uint64_t offset, void *buf, size_t len);

/* Source positions of a DSO-relative address (a file offset, as in
 * hwprof_symres.addr) from the DSO's debuginfo, like `addr2line -i -f`:
 * frames[0] is the innermost inlined function, the last the function that
 * holds the code. func may be NULL when DWARF names none; file NULL and
 * line 0 when unknown. Returns the number of frames (0 when no debuginfo
 * covers the address). Results are cached per DSO and stay valid until
 * the cache is closed. */
struct hwprof_srcframe {
	const char *func;
	const char *file;           /* as the line table names it (may be
	                             * relative to comp_dir) */
	unsigned line;
	const char *comp_dir;       /* the unit's DW_AT_comp_dir, or NULL */
};
HWPROF_API int hwprof_dso_srcframes(struct hwprof_dso *d, uint64_t addr, const struct hwprof_srcframe **frames);
/* Whether binutils' addr2line (perf 6.1's source of srcline) names a
 * function at addr when DWARF does not: a function-like symbol at or
 * below it in its section (.symtab, else .dynsym). When it does not, perf
 * shows "<dso>[addr]" for the source line. */
HWPROF_API bool hwprof_dso_addr2line_names(struct hwprof_dso *d, uint64_t addr);
/* The source file binutils' addr2line names there in that case: the
 * symbol table's STT_FILE before the function (crtstuff.c for gcc's
 * start-up code), or NULL ("??"). */
HWPROF_API const char *hwprof_dso_addr2line_file(struct hwprof_dso *d, uint64_t addr);

/* perf 6.1's inline expansion of an unwound callchain entry (its
 * append_inlines): the entries perf puts in place of the frame at the
 * DSO-relative address addr whose symbol is sym, innermost first, at most
 * max. name is sym's name where addr2line names that function, else the
 * inlined (or aliased) function's name with inlined set (perf prints
 * "(inlined)" and no DSO for those; offsets stay relative to sym). file and
 * line are the entry's source position (file NULL: unknown, "??:0").
 * Returns the count, 0 when perf keeps the frame as one ordinary entry
 * (no DSO file, or addr2line knows nothing there). */
struct hwprof_inline_entry {
	const char *name;
	bool inlined;
	const char *file;
	unsigned line;
};
HWPROF_API int hwprof_dso_inline_entries(struct hwprof_dso *d, uint64_t addr, const struct hwprof_sym *sym,
					 struct hwprof_inline_entry *out, size_t max);

/* Resolve ip inside the map [start, end) at file offset pgoff of DSO
 * dso_name: perf's map_ip, then the symbol. Always fills *res; returns 1
 * when a symbol was found, 0 if not. */
HWPROF_API int hwprof_symbols_resolve(struct hwprof_symbols *s, const char *dso_name, uint64_t map_start,
				      uint64_t pgoff, uint64_t ip, struct hwprof_symres *res);

struct hwprof_perfdata;
/* Feed the BUILD_ID feature of a perf.data to the cache, so files of
 * another build are not used and the kernel's kallsyms copy is found. */
HWPROF_API void hwprof_symbols_load_build_ids(struct hwprof_symbols *s, struct hwprof_perfdata *h);

struct hwprof_record;
/* Build ids in the data: a HEADER_BUILD_ID record (perf inject -b, pipe
 * mode) or an MMAP2 record carrying its file's (perf record
 * --buildid-mmap) gives the DSO's build id from then on, as perf takes
 * them. Other records are ignored. */
HWPROF_API void hwprof_symbols_note_record(struct hwprof_symbols *s, const struct hwprof_record *rec);

/* Demangle one name as perf does (C++ without parameters, Rust legacy
 * paths without hash). Returns a malloc'ed string or NULL if not mangled. */
HWPROF_API char *hwprof_demangle(const char *name);

#ifdef __cplusplus
}
#endif
#endif
