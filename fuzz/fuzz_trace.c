/* Fuzz target: the tracing data parser (perf's HEADER_TRACING_DATA block:
 * event formats into libtraceevent) and the printing of raw samples
 * against every event it knows. The input's first half is the block, the
 * second half the raw sample bytes, so both are fuzzed together. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an 8-byte split point first: where the block ends */
	if (size < 8)
		return 0;
	uint64_t split;
	memcpy(&split, data, 8);
	data += 8;
	size -= 8;
	split = size ? split % (size + 1) : 0;
	/* copies: nothing past either part may be read */
	uint8_t *block = malloc(split ? split : 1), *raw = malloc(size - split ? size - split : 1);
	if (!block || !raw)
		goto out;
	memcpy(block, data, split);
	memcpy(raw, data + split, size - split);
	struct hwprof_trace *t;
	if (hwprof_trace_parse(&t, block, split, 0, NULL, NULL) == 0) {
		const char *text;
		/* event ids are small integers: try the first 4096 */
		for (uint64_t id = 0; id < 4096; id++) {
			const char *sys, *name;
			if (!hwprof_trace_event(t, id, &sys, &name))
				continue;
			hwprof_trace_print(t, id, 0, raw, (uint32_t)(size - split), &text);
			hwprof_trace_print_fields(t, id, raw, (uint32_t)(size - split), &text);
			int nf = hwprof_trace_nr_fields(t, id);
			for (int i = 0; i < nf; i++) {
				const uint8_t *b;
				uint32_t l;
				hwprof_trace_field_text(t, id, i, raw, (uint32_t)(size - split), &text);
				hwprof_trace_field_bytes(t, id, i, raw, (uint32_t)(size - split), &b, &l);
			}
		}
		hwprof_trace_free(t);
	}
out:
	free(block);
	free(raw);
	return 0;
}
