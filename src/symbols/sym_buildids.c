/* Build ids recorded in a perf.data (BUILD_ID feature) into the DSO cache. */
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/symbols.h"

HWPROF_API void hwprof_symbols_load_build_ids(struct hwprof_symbols *syms, struct hwprof_perfdata *h)
{
	const uint8_t *d;
	uint64_t size;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_BUILD_ID, &d, &size, NULL) != 1)
		return;
	struct hwprof_feat *ft;
	struct hwprof_feat_ctx ctx = { .swap = hwprof_perfdata_info(h)->swapped };
	if (hwprof_feat_parse(HWPROF_FEAT_BUILD_ID, d, size, &ctx, &ft, NULL) < 0)
		return;
	for (uint32_t i = 0; i < ft->u.build_id.nr; i++) {
		const struct hwprof_feat_build_id *b = &ft->u.build_id.ids[i];
		if (b->filename && b->id_size)
			hwprof_symbols_set_build_id(syms, b->filename, b->id, b->id_size);
	}
	hwprof_feat_free(ft);
}
