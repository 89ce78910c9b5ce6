/* Fuzz target: the perf.data reader and session (records, samples,
 * trailers, ordering, thread and map tracking, feature decoders) over
 * arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Copy: the reader must not depend on anything past size. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct hwprof_session *s;
	if (hwprof_session_open_mem(&s, copy, size, "fuzz", NULL) == 0) {
		struct hwprof_event ev;
		unsigned n = 0;
		while (hwprof_session_next(s, &ev) > 0 && n++ < 100000) {
			if (ev.rec.type == HWPROF_RECORD_SAMPLE && ev.parse_err >= 0 && ev.sample.evsel) {
				struct hwprof_map_info mi;
				char level;
				hwprof_session_thread_comm(s, (int32_t)ev.sample.pid, (int32_t)ev.sample.tid);
				hwprof_session_find_map(s, (int32_t)ev.sample.pid, (int32_t)ev.sample.tid,
							ev.rec.misc & 7, ev.sample.ip, &mi, &level);
			}
		}
		struct hwprof_perfdata *h = hwprof_session_data(s);
		/* every feature section, raw and through its decoder (the
		 * nrcpus guess varies with the input so the per-cpu tables of
		 * CPU_TOPOLOGY meet both too few and too many bytes) */
		struct hwprof_feat_ctx ctx = { .swap = hwprof_perfdata_info(h)->swapped,
					       .nr_cpus_avail = size ? data[size / 2] % 64 : 0 };
		for (unsigned f = 0; f < HWPROF_FEAT_BITS; f++) {
			const uint8_t *p;
			uint64_t sz;
			if (hwprof_perfdata_feature(h, f, &p, &sz, NULL) != 1)
				continue;
			if (sz)
				(void)*(volatile const uint8_t *)&p[sz - 1];
			struct hwprof_feat *ft;
			if (hwprof_feat_parse(f, p, sz, &ctx, &ft, NULL) != 0)
				continue;
			if (f == HWPROF_FEAT_BPF_BTF) /* the BTF type lookup of perf's BPF listing */
				for (uint32_t k = 0; k < ft->u.bpf_btf.nr; k++)
					for (uint32_t id = 0; id < 8; id++)
						(void)hwprof_btf_type_name(ft->u.bpf_btf.btfs[k].data,
									   ft->u.bpf_btf.btfs[k].data_size, id);
			hwprof_feat_free(ft);
		}
		hwprof_session_close(s);
	}
	free(copy);
	return 0;
}
