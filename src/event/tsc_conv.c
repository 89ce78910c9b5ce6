/* TIME_CONV: converting between AUX trace timestamps (counter cycles) and
 * perf time (ns), the same arithmetic perf uses so times match to the ns. */
#include <string.h>

#include "hwprof/arm_spe_synth.h"
#include "event/tsc_inline.h"
#include "util/bytes.h"

HWPROF_API int hwprof_tsc_conv_parse(struct hwprof_tsc_conv *tc, const uint8_t *body, size_t len)
{
	if (!tc || !body)
		return -HWPROF_E_INVAL;
	memset(tc, 0, sizeof(*tc));
	if (len < 24)
		return -HWPROF_E_CORRUPT;
	tc->time_shift = ld64(body);
	tc->time_mult = ld64(body + 8);
	tc->time_zero = ld64(body + 16);
	if (len >= 48) { /* time_cycles and later were added in perf 5.10 */
		tc->time_cycles = ld64(body + 24);
		tc->time_mask = ld64(body + 32);
		tc->cap_user_time_zero = body[40] != 0;
		tc->cap_user_time_short = body[41] != 0;
	}
	return 0;
}

HWPROF_API uint64_t hwprof_tsc_to_perf_time(const struct hwprof_tsc_conv *tc, uint64_t cyc)
{
	return tsc_to_perf_time_inline(tc, cyc);
}

HWPROF_API uint64_t hwprof_perf_time_to_tsc(const struct hwprof_tsc_conv *tc, uint64_t ns)
{
	uint64_t t, quot, rem, shift = tc->time_shift & 63;

	if (!tc->time_mult)
		return 0;
	t = ns - tc->time_zero;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << shift) + (rem << shift) / tc->time_mult;
}
