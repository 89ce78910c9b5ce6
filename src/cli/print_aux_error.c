#include "cli/print_aux_error.h"

#include <inttypes.h>
#include <string.h>

#include "util/bytes.h"

/* The record after its header: u32 type, code, cpu, pid, tid, fmt; u64 ip;
 * u64 time; char msg[64]; u32 machine_pid, vcpu. perf's first layout
 * (fmt 0) has no time: the message starts where the time is. */
#define AE_IP 32
#define AE_TIME 40
#define AE_MSG 48
#define AE_MACHINE_PID 112
#define AE_VCPU 116

void print_aux_error(FILE *f, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	if (rec->size < AE_TIME)
		return;
	uint32_t type = ld32(d + 8), fmt = ld32(d + 28);
	fprintf(f, " %s error type %u", type == 1 ? "instruction trace" : "unknown AUX", type);
	uint64_t t = fmt && rec->size >= AE_MSG ? ld64(d + AE_TIME) : 0;
	if (t)
		fprintf(f, " time %" PRIu64 ".%09" PRIu64, t / 1000000000, t % 1000000000);
	else
		fputs(" time 0", f);
	if (fmt >= 2 && rec->size >= AE_VCPU + 4 && ld32(d + AE_MACHINE_PID))
		fprintf(f, " machine_pid %d vcpu %d", (int)ld32(d + AE_MACHINE_PID), (int)ld32(d + AE_VCPU));
	size_t at = fmt ? AE_MSG : AE_TIME, max = rec->size > at ? rec->size - at : 0;
	if (max > 64)
		max = 64;
	fprintf(f, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %.*s\n", (int)ld32(d + 16), (int)ld32(d + 20),
		(int)ld32(d + 24), ld64(d + AE_IP), ld32(d + 12), (int)strnlen((const char *)d + at, max),
		(const char *)d + at);
}
