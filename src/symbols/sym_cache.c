/* The DSO cache: one entry per DSO name, loaded on first use from the
 * first file that has its symbols (see symbols.h for the search order),
 * then only searched. Build ids, when known, must match the file's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/auxv.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/sym_int.h"

enum dso_kind { DSO_ELF, DSO_KERNEL, DSO_PERFMAP, DSO_VDSO, DSO_NONE };

struct kmap_ent {
	struct sym_kseg seg;
	struct hwprof_dso *dso;
};

struct hwprof_dso {
	char *name;
	enum dso_kind kind;
	uint8_t bid[20];
	size_t bid_len;
	bool loaded;
	struct sym_table tab;
	char *symsrc;
	char *runfile;             /* the file the program runs (CFI, code) */
	struct sym_dbg *dbg;       /* debuginfo for source lines, on first use */
	int runfd;                 /* runfile opened for reads, + 1 (0: not yet) */
	bool foff;                 /* a vmlinux's or kcore's symbols: at file
	                            * offsets, not addresses */
	/* the kernel from a vmlinux or a kcore copy: perf's kernel maps
	 * then, by address; symbols at file offsets */
	struct kmap_ent *kmaps;
	size_t nkmaps;
	bool kmaps_only;           /* kcore: no other kernel map stays */
	uint64_t kreloc;           /* a vmlinux: runtime - link addresses */
	struct hwprof_dso *next;
};

#define NBUCKETS 512

/* Resolving repeats itself: samples and their callchains hit the same
 * few thousand addresses of a few DSOs over and over. Two direct-mapped
 * caches answer those without hashing the name and searching the table:
 * DSO by name (the pointer picks the slot, the text is checked) and
 * symbol by (DSO, address). A loaded DSO's table never changes and DSOs
 * live as long as the handle, so their answers stay right. */
#define NAME_SLOTS 64
#define SYM_SLOTS 8192
_Static_assert(SYM_SLOTS == 1 << 13, "find_cached() takes 13 bits of the hash");

struct sym_slot {
	const struct hwprof_dso *d;
	uint64_t addr;
	const struct hwprof_sym *sym;
};

struct hwprof_symbols {
	struct hwprof_symcfg cfg;
	char *strs[7];             /* owned copies of the cfg strings */
	struct hwprof_dso *buckets[NBUCKETS];
	const char *last_name;     /* lookup cache: same pointer, same DSO */
	struct hwprof_dso *last;
	struct { const char *name; struct hwprof_dso *d; } names[NAME_SLOTS];
	struct sym_slot *syms;     /* SYM_SLOTS of them, on first use */
	char own_vdso[64];         /* this process's vDSO written out (perf's
	                            * fallback for [vdso]), "" until needed */
	bool kref_set;             /* the kernel's reference symbol, for */
	char kref_name[64];        /* relocating kallsyms */
	uint64_t kref_addr;
	char os_release[128];      /* the recording's, for perf's vmlinux_path */
	struct hwprof_dso *kdso;   /* [kernel.kallsyms], once looked up */
	struct sym_kmod *mods;     /* the recording's kernel modules */
	size_t nmods, capmods;
	bool symfs_given;          /* even "/": no vmlinux paths by release */
	char *kname, *kshort;      /* perf's names for [kernel.kallsyms] when
	                            * the build-id table gives it a path
	                            * (sym_set_kernel_name); else NULL */
};

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

HWPROF_API int hwprof_symbols_open(struct hwprof_symbols **out, const struct hwprof_symcfg *cfg)
{
	struct hwprof_symbols *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return -HWPROF_E_NOMEM;
	struct hwprof_symcfg c = { 0 };
	if (cfg)
		c = *cfg;
	const char *src[7] = { c.symfs, c.buildid_dir, c.debug_root, c.kallsyms, c.perfmap_dir, c.vmlinux,
			       c.proc_dir };
	for (int i = 0; i < 7; i++)
		s->strs[i] = dup_or_null(src[i]);
	if (!s->strs[1]) {
		/* perf: a symfs brings its own build-id cache */
		const char *home = getenv("HOME");
		char buf[4096];
		snprintf(buf, sizeof(buf), "%s/.debug", s->strs[0] ? s->strs[0] : home && *home ? home : "");
		s->strs[1] = strdup(buf);
	}
	s->symfs_given = s->strs[0] != NULL;
	if (s->strs[0]) {
		/* perf: a symfs of "/" is none (once its vmlinux paths are set) */
		char *rp = realpath(s->strs[0], NULL);
		if (!strcmp(rp ? rp : s->strs[0], "/")) {
			free(s->strs[0]);
			s->strs[0] = NULL;
		}
		free(rp);
	}
	if (!s->strs[2]) {
		char buf[4096];
		snprintf(buf, sizeof(buf), "%s/usr/lib/debug", s->strs[0] ? s->strs[0] : "");
		s->strs[2] = strdup(buf);
	}
	if (!s->strs[4])
		s->strs[4] = strdup("/tmp");
	if (!s->strs[6])
		s->strs[6] = strdup("/proc");
	if (!s->strs[1] || !s->strs[2] || !s->strs[4] || !s->strs[6]) {
		hwprof_symbols_close(s);
		return -HWPROF_E_NOMEM;
	}
	s->cfg.symfs = s->strs[0] ? s->strs[0] : "";
	s->cfg.buildid_dir = s->strs[1];
	s->cfg.debug_root = s->strs[2];
	s->cfg.kallsyms = s->strs[3];
	s->cfg.perfmap_dir = s->strs[4];
	s->cfg.vmlinux = s->strs[5];
	s->cfg.proc_dir = s->strs[6];
	s->cfg.no_demangle = c.no_demangle;
	s->cfg.ignore_vmlinux = c.ignore_vmlinux;
	s->cfg.notice = c.notice;
	s->cfg.notice_ctx = c.notice_ctx;
	*out = s;
	return 0;
}

HWPROF_API void hwprof_symbols_close(struct hwprof_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < NBUCKETS; i++) {
		struct hwprof_dso *d = s->buckets[i];
		while (d) {
			struct hwprof_dso *n = d->next;
			sym_table_free(&d->tab);
			free(d->name);
			free(d->symsrc);
			free(d->runfile);
			sym_dbg_free(d->dbg);
			free(d->kmaps);
			if (d->runfd > 0)
				close(d->runfd - 1);
			free(d);
			d = n;
		}
	}
	for (int i = 0; i < 7; i++)
		free(s->strs[i]);
	free(s->syms);
	free(s->mods);
	free(s->kname);
	free(s->kshort);
	if (s->own_vdso[0])
		unlink(s->own_vdso);
	free(s);
}

void sym_add_module(struct hwprof_symbols *s, const char *name, uint64_t start)
{
	if (s->nmods == s->capmods) {
		size_t c = s->capmods ? 2 * s->capmods : 16;
		struct sym_kmod *m = realloc(s->mods, c * sizeof(*m));
		if (!m)
			return; /* then perf's check of the modules is only shorter */
		s->mods = m;
		s->capmods = c;
	}
	struct sym_kmod *m = &s->mods[s->nmods++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->start = start;
}

/* perf 6.1 takes the build-id table's first kernel DSO for the kernel
 * (machine__process_kernel_mmap_event): its name is that entry's path
 * (a vmlinux perf record loaded the kernel's symbols from), and its short
 * name "[kernel.vmlinux]" when the path says vmlinux, else the path. */
int sym_set_kernel_name(struct hwprof_symbols *s, const char *path)
{
	free(s->kname);
	free(s->kshort);
	s->kname = strdup(path);
	s->kshort = strdup(strstr(path, "vmlinux") ? "[kernel.vmlinux]" : path);
	if (!s->kname || !s->kshort) {
		free(s->kname);
		free(s->kshort);
		s->kname = s->kshort = NULL;
		return -HWPROF_E_NOMEM;
	}
	return 0;
}

HWPROF_API const char *hwprof_symbols_perf_name(const struct hwprof_symbols *s, const char *dso, bool short_name,
						char *buf, size_t len)
{
	static const char kernel[] = "[kernel.kallsyms]";
	if (!s || !s->kname || strncmp(dso, kernel, sizeof(kernel) - 1))
		return dso;
	if (!dso[sizeof(kernel) - 1])
		return short_name ? s->kshort : s->kname;
	/* a vmlinux's other sections: perf names them after the short name */
	if (!buf || !len)
		return dso;
	snprintf(buf, len, "%s%s", s->kshort, dso + sizeof(kernel) - 1);
	return buf;
}

void sym_set_os_release(struct hwprof_symbols *s, const char *rel)
{
	snprintf(s->os_release, sizeof(s->os_release), "%s", rel);
}

HWPROF_API void hwprof_symbols_set_kernel_reloc(struct hwprof_symbols *s, const char *name, uint64_t addr)
{
	s->kref_set = true;
	snprintf(s->kref_name, sizeof(s->kref_name), "%s", name);
	s->kref_addr = addr;
}

/* perf's vdso__dso_findnew(): without the recording's vDSO in the cache,
 * perf reads its own (the same kernel's, as a rule) from memory into a
 * temporary file. The path, or NULL. */
static const char *own_vdso(struct hwprof_symbols *s)
{
	if (s->own_vdso[0])
		return s->own_vdso;
	const unsigned char *img = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	if (!img || memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64)
		return NULL;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	size_t size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > (64u << 20))
		return NULL;
	char path[] = "/tmp/hwprof-vdso.so-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	bool ok = write(fd, img, size) == (ssize_t)size;
	close(fd);
	if (!ok) {
		unlink(path);
		return NULL;
	}
	snprintf(s->own_vdso, sizeof(s->own_vdso), "%s", path);
	return s->own_vdso;
}

static size_t hash_name(const char *n)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *n; n++)
		h = (h ^ (unsigned char)*n) * 1099511628211ULL;
	return (size_t)(h % NBUCKETS);
}

static enum dso_kind kind_of(const char *name)
{
	if (!strcmp(name, "[kernel.kallsyms]"))
		return DSO_KERNEL;
	if (!strcmp(name, "[vdso]"))
		return DSO_VDSO;
	if (!strncmp(name, "/tmp/perf-", 10) && strlen(name) > 14 && !strcmp(name + strlen(name) - 4, ".map"))
		return DSO_PERFMAP;
	/* perf opens any other name as a file, a relative one from the
	 * current directory ([heap], [stack], ... are not files) */
	if (name[0] && name[0] != '[')
		return DSO_ELF;
	return DSO_NONE;
}

static struct hwprof_dso *findnew(struct hwprof_symbols *s, const char *name)
{
	size_t b = hash_name(name);
	for (struct hwprof_dso *d = s->buckets[b]; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	struct hwprof_dso *d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->kind = kind_of(name);
	d->next = s->buckets[b];
	s->buckets[b] = d;
	return d;
}

HWPROF_API int hwprof_symbols_set_build_id(struct hwprof_symbols *s, const char *dso_name,
					   const uint8_t *id, size_t len)
{
	if (!len || len > 20)
		return -HWPROF_E_INVAL;
	struct hwprof_dso *d = findnew(s, dso_name);
	if (!d)
		return -HWPROF_E_NOMEM;
	if (!d->loaded) {
		memcpy(d->bid, id, len);
		d->bid_len = len;
	}
	return 0;
}

static void bid_hex(const struct hwprof_dso *d, char *out)
{
	for (size_t i = 0; i < d->bid_len; i++)
		sprintf(out + 2 * i, "%02x", d->bid[i]);
	out[2 * d->bid_len] = 0;
}

static bool is_file(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* Whether /sys/kernel/notes holds the GNU build id the DSO was recorded
 * with (an unreadable notes file counts as a match, as before). */
static bool running_kernel_is(const struct hwprof_dso *d)
{
	uint8_t buf[4096];
	FILE *f = fopen("/sys/kernel/notes", "rb");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (size_t off = 0; off + 12 <= n;) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3u) & ~3u);
		if (desc_off > n || descsz > n - desc_off)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			size_t l = descsz < d->bid_len ? descsz : d->bid_len;
			return descsz >= d->bid_len && !memcmp(buf + desc_off, d->bid, l);
		}
		off = desc_off + ((descsz + 3u) & ~3u);
	}
	return true;
}

static int cmp_kmap(const void *a, const void *b)
{
	const struct kmap_ent *x = a, *y = b;
	return x->seg.start < y->seg.start ? -1 : x->seg.start > y->seg.start;
}

/* The kernel's own maps, sorted; its symbols at file offsets. */
static void finish_kmaps(struct hwprof_dso *d)
{
	qsort(d->kmaps, d->nkmaps, sizeof(*d->kmaps), cmp_kmap);
	d->foff = true;
}

/* perf 6.1's dso__load_vmlinux(): used only if its build id is the
 * recorded one (or none was recorded). */
static int load_vmlinux(struct hwprof_symbols *s, struct hwprof_dso *d, const char *file, char *path, size_t len)
{
	struct sym_elf_info info;
	if (file[0] == '/' || !s->cfg.symfs[0])
		snprintf(path, len, "%s", file);
	else /* perf joins a relative name to the symfs */
		snprintf(path, len, "%s/%s", s->cfg.symfs, file);
	if (!is_file(path) || !sym_elf_probe(path, &info))
		return 0;
	if (d->bid_len && (info.build_id_len != d->bid_len || memcmp(info.build_id, d->bid, d->bid_len)))
		return 0;
	struct sym_ksect *secs;
	size_t nsecs;
	struct sym_ktext text;
	int rc = sym_load_vmlinux(&d->tab, path, s->kref_set ? s->kref_name : NULL, s->kref_addr,
				  !s->cfg.no_demangle, &text, &secs, &nsecs);
	if (rc > 0 && text.have && !(d->runfile = strdup(path)))
		rc = -HWPROF_E_NOMEM;
	if (rc > 0 && !(d->kmaps = calloc(nsecs + 1, sizeof(*d->kmaps))))
		rc = -HWPROF_E_NOMEM;
	if (rc > 0 && text.have) {
		d->kmaps[d->nkmaps++] = (struct kmap_ent){ { text.start, text.end, text.file_off }, d };
		d->kreloc = text.reloc;
	}
	/* each other section is a DSO of its own, named as perf names it */
	for (size_t i = 0; rc > 0 && i < nsecs; i++) {
		char name[128];
		snprintf(name, sizeof(name), "%s%s", d->name, secs[i].name);
		struct hwprof_dso *x = findnew(s, name);
		if (!x || x->loaded)
			continue; /* out of memory, or a name seen twice */
		x->loaded = true;
		x->foff = true;
		x->tab = secs[i].tab;
		memset(&secs[i].tab, 0, sizeof(secs[i].tab));
		/* no runfile: perf cannot read these maps' bytes (their DSOs
		 * have no binary type to open) */
		if (sym_finish(&x->tab) < 0 || !(x->symsrc = strdup(path))) {
			rc = -HWPROF_E_NOMEM;
			break;
		}
		d->kmaps[d->nkmaps++] = (struct kmap_ent){ { secs[i].start, secs[i].end, secs[i].file_off }, x };
	}
	sym_ksects_free(secs, nsecs);
	if (rc > 0)
		finish_kmaps(d);
	return rc;
}

/* perf 6.1's search for a vmlinux when none is named: the build-id
 * cache's copy of the recorded kernel, then its vmlinux_path (the later
 * entries named by the recording's OS release, and only without a symfs).
 * 1 when one was loaded. */
static int find_vmlinux(struct hwprof_symbols *s, struct hwprof_dso *d, char *path, size_t len)
{
	char cand[4096];
	int rc;
	if (d->bid_len) {
		char hex[41];
		bid_hex(d, hex);
		snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s", s->cfg.buildid_dir, hex, hex + 2);
		if (!is_file(cand)) /* a directory in today's cache */
			snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s/elf", s->cfg.buildid_dir, hex, hex + 2);
		if ((rc = load_vmlinux(s, d, cand, path, len)) != 0)
			return rc;
	}
	if (s->cfg.ignore_vmlinux)
		return 0;
	static const char *const fixed[] = { "vmlinux", "/boot/vmlinux" };
	static const char *const by_release[] = { "/boot/vmlinux-%s", "/usr/lib/debug/boot/vmlinux-%s",
						  "/lib/modules/%s/build/vmlinux", "/usr/lib/debug/lib/modules/%s/vmlinux",
						  "/usr/lib/debug/boot/vmlinux-%s.debug" };
	for (size_t i = 0; i < 2; i++)
		if ((rc = load_vmlinux(s, d, fixed[i], path, len)) != 0)
			return rc;
	for (size_t i = 0; i < 5 && !s->symfs_given && s->os_release[0]; i++) {
		snprintf(cand, sizeof(cand), by_release[i], s->os_release);
		if ((rc = load_vmlinux(s, d, cand, path, len)) != 0)
			return rc;
	}
	return 0;
}

static bool readable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf's find_matching_kcore(): the first (by name) directory under dir
 * whose kallsyms and kcore hold the recorded kernel (perf buildid-cache
 * --kcore keeps them in [kernel.kcore]/<build id>/<date>). */
static bool cached_kcore(struct hwprof_symbols *s, const char *dir, char *path, size_t len)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return false;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dh))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (n == cap) {
			char **m = realloc(names, (cap = cap ? 2 * cap : 8) * sizeof(*m));
			if (!m)
				break;
			names = m;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(dh);
	qsort(names, n, sizeof(*names), cmp_str);
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		int w = found ? 0 : snprintf(path, len, "%s/%s/kallsyms", dir, names[i]);
		if (w > 0 && (size_t)w < len)
			found = sym_kcore_valid(path, s->kref_set ? s->kref_name : NULL, s->kref_addr, s->mods, s->nmods);
		free(names[i]);
	}
	free(names);
	return found;
}

/* perf 6.1's dso__find_kallsyms(): the running kernel's when the file has
 * no build id, or when it is the recorded kernel and its kcore is
 * readable and matches; else a kcore in the build-id cache; the running
 * kernel's again; perf record's copy in the build-id cache. 1 with the
 * path, 0 with perf's notice when none (unless quiet). */
static int find_kallsyms(struct hwprof_symbols *s, struct hwprof_dso *d, char *path, size_t len, bool quiet)
{
	char hex[41], dir[4096];
	const char *proc = s->cfg.proc_dir;
	snprintf(path, len, "%s/kallsyms", proc);
	if (!d->bid_len)
		return 1;
	bool host = running_kernel_is(d);
	snprintf(dir, sizeof(dir), "%s/kcore", proc);
	if (host && readable(dir) && sym_kcore_valid(path, s->kref_set ? s->kref_name : NULL, s->kref_addr, s->mods, s->nmods))
		return 1;
	bid_hex(d, hex);
	snprintf(dir, sizeof(dir), "%s/[kernel.kcore]/%s", s->cfg.buildid_dir, hex);
	if (cached_kcore(s, dir, path, len))
		return 1;
	if (host) {
		snprintf(path, len, "%s/kallsyms", proc);
		return 1;
	}
	snprintf(path, len, "%s/[kernel.kallsyms]/%s/kallsyms", s->cfg.buildid_dir, hex);
	if (is_file(path))
		return 1;
	if (s->cfg.notice && !quiet) {
		char msg[128];
		snprintf(msg, sizeof(msg), "No kallsyms or vmlinux with build-id %s was found", hex);
		s->cfg.notice(s->cfg.notice_ctx, msg);
	}
	return 0;
}

/* image_only: load only what holds the kernel's code (a vmlinux, a kcore
 * beside the kallsyms) or what the user named; else nothing loaded yet */
static int load_kernel(struct hwprof_symbols *s, struct hwprof_dso *d, char *path, size_t len, bool image_only)
{
	if (!s->cfg.kallsyms) {
		if (s->cfg.vmlinux && !s->cfg.ignore_vmlinux)
			return load_vmlinux(s, d, s->cfg.vmlinux, path, len);
		int rc = find_vmlinux(s, d, path, len);
		/* perf tries no local kallsyms with a symfs */
		if (rc || s->cfg.symfs[0])
			return rc;
	}
	const char *ref = s->kref_set ? s->kref_name : NULL;
	if (s->cfg.kallsyms)
		snprintf(path, len, "%s", s->cfg.kallsyms);
	else if (!find_kallsyms(s, d, path, len, image_only))
		return 0;
	/* kallsyms found by the search wait for a symbol lookup, unless a
	 * kcore beside them holds the kernel's code */
	if (image_only && !s->cfg.kallsyms && !sym_kcore_valid(path, ref, s->kref_addr, s->mods, s->nmods))
		return 0;
	/* perf reads the kernel's code from a kcore beside the kallsyms
	 * (perf record --kcore, the build-id cache's, /proc's) when it holds
	 * the kernel and modules where the recording had them */
	char kcore[4096];
	struct sym_kseg *segs;
	size_t nsegs;
	int rc = sym_kcore_valid(path, ref, s->kref_addr, s->mods, s->nmods)
		? sym_load_kcore(&d->tab, path, ref, s->kref_addr, &segs, &nsegs, kcore, sizeof(kcore)) : 0;
	if (rc <= 0)
		return rc < 0 ? rc : sym_load_kallsyms(&d->tab, path, ref, s->kref_addr);
	if (!(d->kmaps = calloc(nsegs, sizeof(*d->kmaps))) || !(d->runfile = strdup(kcore))) {
		free(segs);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 0; i < nsegs; i++)
		d->kmaps[d->nkmaps++] = (struct kmap_ent){ segs[i], d };
	free(segs);
	d->kmaps_only = true;
	finish_kmaps(d);
	return 1;
}

static void copy_path(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* ELF DSOs: pick the symbol file and the runtime file among candidates. */
static int load_elf(struct hwprof_symbols *s, struct hwprof_dso *d, char *syms, char *run, size_t len)
{
	char sys[4096], hex[41], cand[7][4096];
	struct sym_elf_info info;
	int nc = 0;
	snprintf(sys, sizeof(sys), "%s%s", s->cfg.symfs, d->name);
	if (!d->bid_len && d->kind == DSO_ELF && sym_elf_probe(sys, &info) && info.build_id_len) {
		memcpy(d->bid, info.build_id, info.build_id_len);
		d->bid_len = info.build_id_len;
	}
	bid_hex(d, hex);
	if (d->bid_len) {
		/* perf's cache: a file (older perf), or a directory holding the
		 * binary as "elf" ("vdso" for the vDSO, which has no file) */
		snprintf(cand[nc++], 4096, "%s/.build-id/%.2s/%s", s->cfg.buildid_dir, hex, hex + 2);
		snprintf(cand[nc++], 4096, "%s/.build-id/%.2s/%s/%s", s->cfg.buildid_dir, hex, hex + 2,
			 d->kind == DSO_VDSO ? "vdso" : "elf");
		/* the debuginfo perf copies next to it when it had one */
		snprintf(cand[nc++], 4096, "%s/.build-id/%.2s/%s/debug", s->cfg.buildid_dir, hex, hex + 2);
	}
	if (d->kind == DSO_ELF) {
		snprintf(cand[nc++], 4096, "%s%s.debug", s->cfg.debug_root, d->name);
		if (d->bid_len)
			snprintf(cand[nc++], 4096, "%s/.build-id/%.2s/%s.debug", s->cfg.debug_root, hex, hex + 2);
		snprintf(cand[nc++], 4096, "%s", sys);
	}
	/* last for the vDSO: this process's own, where its build id matches
	 * the recording's (or the recording has none) */
	const char *own = d->kind == DSO_VDSO ? own_vdso(s) : NULL;
	if (own)
		snprintf(cand[nc++], 4096, "%s", own);
	syms[0] = run[0] = 0;
	for (int i = 0; i < nc && !(syms[0] && run[0]); i++) {
		if (!is_file(cand[i]) || !sym_elf_probe(cand[i], &info))
			continue;
		if (d->bid_len && (info.build_id_len != d->bid_len || memcmp(info.build_id, d->bid, d->bid_len)))
			continue; /* another build of the file */
		if (!syms[0] && info.has_symtab)
			copy_path(syms, len, cand[i]);
		if (!run[0] && info.has_dynsym)
			copy_path(run, len, cand[i]);
		if (!syms[0] && !run[0] && i == nc - 1)
			copy_path(syms, len, cand[i]); /* hope for the best */
	}
	if (!syms[0] && !run[0])
		return 0;
	if (!syms[0])
		copy_path(syms, len, run);
	if (!run[0])
		copy_path(run, len, syms);
	return sym_load_elf(&d->tab, syms, run, !s->cfg.no_demangle);
}

/* image_only: the kernel's symbols only if they come from a vmlinux or
 * from the kallsyms the user named, else nothing loaded yet (the kallsyms
 * search waits for their first use, and its notices with it). */
static int dso_load(struct hwprof_symbols *s, struct hwprof_dso *d, bool image_only)
{
	char path[4096], run[4096] = "";
	int rc = 0;
	d->loaded = true;
	path[0] = 0;
	switch (d->kind) {
	case DSO_KERNEL:
		rc = load_kernel(s, d, path, sizeof(path), image_only);
		if (image_only && !rc) {
			d->loaded = false;
			return 0;
		}
		break;
	case DSO_PERFMAP:
		snprintf(path, sizeof(path), "%s/%s", s->cfg.perfmap_dir, d->name + 5);
		rc = sym_load_perfmap(&d->tab, path);
		break;
	case DSO_ELF:
	case DSO_VDSO:
		rc = load_elf(s, d, path, run, sizeof(path));
		break;
	case DSO_NONE:
		break;
	}
	if (rc < 0) {
		sym_table_free(&d->tab);
		return rc;
	}
	if (sym_finish(&d->tab) < 0) {
		sym_table_free(&d->tab);
		return -HWPROF_E_NOMEM;
	}
	if (rc > 0 && path[0] && !(d->symsrc = strdup(path)))
		return -HWPROF_E_NOMEM;
	if ((d->kind == DSO_ELF || d->kind == DSO_VDSO) && run[0] && !(d->runfile = strdup(run)))
		return -HWPROF_E_NOMEM;
	return d->tab.nsyms > 0;
}

HWPROF_API int hwprof_symbols_kernel_map(struct hwprof_symbols *s, size_t i, bool load_any,
					 struct hwprof_kernel_map *m)
{
	/* called per kernel address (a binary search over i): no name lookup */
	struct hwprof_dso *d = s->kdso ? s->kdso : (s->kdso = findnew(s, "[kernel.kallsyms]"));
	if (!d)
		return -HWPROF_E_NOMEM;
	if (!d->loaded) {
		int rc = dso_load(s, d, !load_any);
		if (rc < 0)
			return rc;
	}
	if (i >= d->nkmaps)
		return 0;
	const struct kmap_ent *k = &d->kmaps[i];
	m->start = k->seg.start;
	m->end = k->seg.end;
	m->pgoff = k->seg.pgoff;
	m->dso = k->dso->name;
	m->file = k->dso->runfile;
	m->only = d->kmaps_only;
	return 1;
}

HWPROF_API bool hwprof_symbols_kernel_loaded(const struct hwprof_symbols *s)
{
	return s->kdso && s->kdso->loaded;
}

HWPROF_API const char *hwprof_symbols_code_path(struct hwprof_symbols *s, const char *name, char *buf, size_t len)
{
	struct hwprof_dso *d = findnew(s, name);
	if (d && d->bid_len) {
		char hex[41];
		bid_hex(d, hex);
		snprintf(buf, len, "%s/.build-id/%.2s/%s", s->cfg.buildid_dir, hex, hex + 2);
		if (!is_file(buf)) /* a directory in today's cache */
			snprintf(buf, len, "%s/.build-id/%.2s/%s/elf", s->cfg.buildid_dir, hex, hex + 2);
		if (is_file(buf))
			return buf;
	}
	if (s->cfg.symfs[0])
		snprintf(buf, len, "%s/%s", s->cfg.symfs, name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

HWPROF_API int hwprof_symbols_dso(struct hwprof_symbols *s, const char *name, struct hwprof_dso **out)
{
	struct hwprof_dso *d;
	if (s->last_name == name && s->last) {
		d = s->last;
	} else {
		size_t slot = ((uintptr_t)name >> 4) % NAME_SLOTS;
		d = s->names[slot].d;
		if (!d || s->names[slot].name != name || strcmp(d->name, name) != 0) {
			d = findnew(s, name);
			if (!d)
				return -HWPROF_E_NOMEM;
			s->names[slot].name = name;
			s->names[slot].d = d;
		}
		s->last_name = name;
		s->last = d;
	}
	*out = d;
	if (!d->loaded) {
		int rc = dso_load(s, d, false);
		if (rc < 0)
			return rc;
	}
	return d->tab.nsyms > 0;
}

HWPROF_API const struct hwprof_sym *hwprof_dso_find(const struct hwprof_dso *d, uint64_t addr)
{
	return sym_table_find(&d->tab, addr);
}

HWPROF_API size_t hwprof_dso_nr_syms(const struct hwprof_dso *d)
{
	return d->tab.nsyms;
}

HWPROF_API const struct hwprof_sym *hwprof_dso_sym(const struct hwprof_dso *d, size_t i)
{
	return i < d->tab.nsyms ? &d->tab.syms[i] : NULL;
}

HWPROF_API const char *hwprof_dso_symsrc(const struct hwprof_dso *d)
{
	return d->symsrc;
}

HWPROF_API uint64_t hwprof_dso_objdump_addr(const struct hwprof_dso *d, uint64_t map_start, uint64_t map_pgoff,
					    uint64_t addr)
{
	/* perf's map__rip_2objdump(): the kernel's symbols adjusted to file
	 * offsets map back to link addresses (unmap_ip, less the vmlinux's
	 * relocation; whatever addr is) */
	if (d && d->kind == DSO_KERNEL && d->foff && d->nkmaps)
		return addr + map_start - map_pgoff - d->kreloc;
	return addr;
}

HWPROF_API bool hwprof_dso_is_file(const struct hwprof_dso *d)
{
	/* a vmlinux or kcore is the kernel's file then (perf's long name),
	 * and the vmlinux that of the DSOs of its other sections */
	return d->kind == DSO_ELF || (d->kind == DSO_KERNEL && (d->runfile || d->foff));
}

HWPROF_API const char *hwprof_dso_runfile(const struct hwprof_dso *d)
{
	return d->runfile;
}

HWPROF_API ssize_t hwprof_dso_read(struct hwprof_dso *d, uint64_t offset, void *buf, size_t len)
{
	if (!d->runfile)
		return -1;

	if (d->runfd == 0) {
		int fd = open(d->runfile, O_RDONLY | O_CLOEXEC);
		d->runfd = fd < 0 ? -1 : fd + 1;
	}
	if (d->runfd < 0 || offset > (uint64_t)INT64_MAX)
		return -1;
	return pread(d->runfd - 1, buf, len, (off_t)offset);
}

HWPROF_API const char *hwprof_dso_name(const struct hwprof_dso *d)
{
	return d->name;
}

struct sym_dbg **sym_dso_dbg(struct hwprof_dso *d)
{
	return &d->dbg;
}

/* sym_table_find() through the (DSO, address) cache */
static const struct hwprof_sym *find_cached(struct hwprof_symbols *s, const struct hwprof_dso *d, uint64_t addr)
{
	if (!s->syms && !(s->syms = calloc(SYM_SLOTS, sizeof(*s->syms))))
		return sym_table_find(&d->tab, addr);
	uint64_t h = (addr ^ ((uint64_t)(uintptr_t)d >> 4)) * 0x9e3779b97f4a7c15ull;
	struct sym_slot *e = &s->syms[h >> 51]; /* 13 bits: SYM_SLOTS */
	if (e->d != d || e->addr != addr) {
		e->d = d;
		e->addr = addr;
		e->sym = sym_table_find(&d->tab, addr);
	}
	return e->sym;
}

HWPROF_API int hwprof_symbols_resolve(struct hwprof_symbols *s, const char *dso_name, uint64_t map_start,
				      uint64_t pgoff, uint64_t ip, struct hwprof_symres *res)
{
	struct hwprof_dso *d = NULL;
	res->sym = NULL;
	res->dso = NULL;
	res->addr = ip - map_start + pgoff;
	if (hwprof_symbols_dso(s, dso_name, &d) < 0 || !d)
		return 0;
	res->dso = d;
	/* kallsyms and JIT maps hold absolute addresses (a vmlinux's
	 * symbols are file offsets, like any ELF file's) */
	if ((d->kind == DSO_KERNEL && !d->foff) || d->kind == DSO_PERFMAP)
		res->addr = ip;
	res->sym = find_cached(s, d, res->addr);
	return res->sym != NULL;
}
