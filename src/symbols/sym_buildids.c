/* Build ids recorded in a perf.data (BUILD_ID feature) into the DSO cache. */
#include <string.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/symbols.h"
#include "symbols/sym_int.h"

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
	for (uint32_t i = 0; i < ft->u.build_id.nr; i++) {
		const struct hwprof_feat_build_id *b = &ft->u.build_id.ids[i];
		if (b->filename && b->id_size)
			hwprof_symbols_set_build_id(syms, b->filename, b->id, b->id_size);
	}
	hwprof_feat_free(ft);
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
