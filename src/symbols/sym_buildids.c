/* Build ids recorded in a perf.data (BUILD_ID feature) into the DSO cache. */
#include <stdio.h>
#include <string.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/symbols.h"
#include "symbols/sym_int.h"

/* perf 6.1's is_kernel_module() for a kernel-mode build-id entry
 * (kmod_path__parse): a "[name]" other than the kernel's, vDSOs' and
 * vsyscall's, or a file name ending in .ko, perhaps compressed. */
static bool names_module(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (base[0] == '[') {
		static const char *const not_mod[] = { "[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]",
						       "[vdso32]", "[vdsox32]", "[vsyscall]" };
		for (size_t i = 0; i < sizeof(not_mod) / sizeof(not_mod[0]); i++)
			if (!strncmp(base, not_mod[i], strlen(not_mod[i])))
				return false;
		return true;
	}
	const char *ext = strrchr(path, '.');
	if (!ext)
		return false;
	static const char *const comp[] = { ".gz", ".xz", ".zst" };
	for (size_t i = 0; i < sizeof(comp) / sizeof(comp[0]); i++)
		if (!strcmp(ext, comp[i])) {
			ext -= 3;
			break;
		}
	return ext > base && !strncmp(ext, ".ko", 3);
}

/* The build-id table's first kernel entry that is not a module is what
 * perf takes for the kernel: a vmlinux's path names it and gives
 * [kernel.kallsyms] its build id. */
static void note_kernel(struct hwprof_symbols *syms, const struct hwprof_feat_build_id *b)
{
	if (!strcmp(b->filename, "[kernel.kallsyms]") || sym_set_kernel_name(syms, b->filename) < 0)
		return;
	if (b->id_size)
		hwprof_symbols_set_build_id(syms, "[kernel.kallsyms]", b->id, b->id_size);
}

HWPROF_API void hwprof_symbols_load_build_ids(struct hwprof_symbols *syms, struct hwprof_perfdata *h)
{
	const uint8_t *d;
	uint64_t size;
	struct hwprof_feat *ft;
	struct hwprof_feat_ctx ctx = { .swap = hwprof_perfdata_info(h)->swapped };
	/* the OS release names perf's vmlinux candidates */
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_OSRELEASE, &d, &size, NULL) == 1 &&
	    hwprof_feat_parse(HWPROF_FEAT_OSRELEASE, d, size, &ctx, &ft, NULL) >= 0) {
		if (ft->u.str)
			sym_set_os_release(syms, ft->u.str);
		hwprof_feat_free(ft);
	}
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_BUILD_ID, &d, &size, NULL) != 1)
		return;
	if (hwprof_feat_parse(HWPROF_FEAT_BUILD_ID, d, size, &ctx, &ft, NULL) < 0)
		return;
	const struct hwprof_feat_build_id *kernel = NULL;
	for (uint32_t i = 0; i < ft->u.build_id.nr; i++) {
		const struct hwprof_feat_build_id *b = &ft->u.build_id.ids[i];
		if (b->filename && b->id_size)
			hwprof_symbols_set_build_id(syms, b->filename, b->id, b->id_size);
		if (!kernel && b->filename && (b->misc & HWPROF_MISC_CPUMODE_MASK) == HWPROF_MISC_KERNEL &&
		    !names_module(b->filename))
			kernel = b;
	}
	if (kernel) /* its build id wins over a later [kernel.kallsyms] entry's */
		note_kernel(syms, kernel);
	hwprof_feat_free(ft);
}

/* A kernel module's map (perf's machine__addnew_module_map()): named as
 * perf's kmod_path__parse_name() names it, "[ext4]" for .../ext4.ko.xz. */
static void note_module(struct hwprof_symbols *syms, const struct hwprof_record *rec)
{
	size_t fo = rec->type == HWPROF_RECORD_MMAP ? 40 : rec->type == HWPROF_RECORD_MMAP2 ? 72 : 0;
	if (!fo || rec->size <= fo || (rec->misc & HWPROF_MISC_CPUMODE_MASK) != HWPROF_MISC_KERNEL)
		return;
	const char *path = (const char *)rec->data + fo;
	size_t max = rec->size - fo;
	if (strnlen(path, max) == max || !strncmp(path, "[kernel.kallsyms", 16) ||
	    (path[0] != '/' && path[0] != '['))
		return;
	uint64_t start;
	memcpy(&start, rec->data + 16, 8);
	if (path[0] == '[') {
		sym_add_module(syms, path, start);
		return;
	}
	const char *base = strrchr(path, '/') + 1;
	char name[64];
	size_t n = strlen(base);
	static const char *const comp[] = { ".gz", ".xz", ".zst" };
	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(comp[i]);
		if (n > l && !strcmp(base + n - l, comp[i])) {
			n -= l;
			break;
		}
	}
	if (n > 3 && !strncmp(base + n - 3, ".ko", 3)) {
		snprintf(name, sizeof(name), "[%.*s]", (int)(n - 3), base);
		for (char *c = name; *c; c++)
			if (*c == '-')
				*c = '_';
	} else {
		snprintf(name, sizeof(name), "%s", base);
	}
	sym_add_module(syms, name, start);
}

HWPROF_API void hwprof_symbols_note_record(struct hwprof_symbols *syms, const struct hwprof_record *rec)
{
	if (rec->type == HWPROF_RECORD_HEADER_BUILD_ID) {
		/* one build_id_event, as the BUILD_ID feature holds them */
		struct hwprof_feat *ft;
		struct hwprof_feat_ctx ctx = { 0 };
		if (hwprof_feat_parse(HWPROF_FEAT_BUILD_ID, rec->data, rec->size, &ctx, &ft, NULL) < 0)
			return;
		for (uint32_t i = 0; i < ft->u.build_id.nr; i++) {
			const struct hwprof_feat_build_id *b = &ft->u.build_id.ids[i];
			if (b->filename && b->id_size)
				hwprof_symbols_set_build_id(syms, b->filename, b->id, b->id_size);
		}
		hwprof_feat_free(ft);
		return;
	}
	note_module(syms, rec);
	/* MMAP2: header, pid, tid, addr, len, pgoff; then build_id_size
	 * (u8), two reserved, 20 id bytes; prot, flags; the name at 72 */
	const uint8_t *d = rec->data;
	if (rec->type != HWPROF_RECORD_MMAP2 || !(rec->misc & HWPROF_MISC_MMAP_BUILD_ID) || rec->size <= 72)
		return;
	size_t max = rec->size - 72;
	const char *name = (const char *)d + 72;
	if (strnlen(name, max) == max || !d[40] || d[40] > 20)
		return;
	if ((rec->misc & HWPROF_MISC_CPUMODE_MASK) == HWPROF_MISC_KERNEL && !strncmp(name, "[kernel.kallsyms]", 17))
		name = "[kernel.kallsyms]";
	hwprof_symbols_set_build_id(syms, name, d + 44, d[40]);
}
