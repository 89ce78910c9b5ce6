/* Fuzz target for the Arm SPE packet layer: the packet iterator, the
 * description of every packet, and record assembly must take any bytes
 * without crashing, looping or reading out of bounds; the first input byte
 * picks the alignment address (perf's ALIGNMENT quirk). */
#include <stddef.h>
#include <stdint.h>

#include "hwprof/arm_spe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwprof_spe_decoder dec;
	struct hwprof_spe_pkt pkt;
	struct hwprof_spe_record rec;
	char desc[256];
	uint64_t addr;
	size_t steps = 0;
	int r;

	if (size == 0)
		return 0;
	addr = data[0];
	data++;
	size--;

	hwprof_spe_decoder_init(&dec, data, size, addr);
	while ((r = hwprof_spe_decoder_next(&dec, &pkt)) != 0) {
		/* every call makes progress: at most one per byte */
		if (++steps > size || pkt.len == 0 || pkt.offset + pkt.len > size)
			__builtin_trap();
		if (r > 0 && hwprof_spe_pkt_desc(&pkt, desc, sizeof(desc)) < 0)
			__builtin_trap();
	}

	hwprof_spe_decoder_init(&dec, data, size, addr);
	steps = 0;
	while ((r = hwprof_spe_record_next(&dec, &rec)) != 0) {
		if (++steps > size)
			__builtin_trap();
		if (r > 0 && rec.offset + rec.size > size)
			__builtin_trap();
	}
	return 0;
}
