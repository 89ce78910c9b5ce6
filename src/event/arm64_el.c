/* Which arm64 exception levels an event counts, from its exclude_* bits,
 * following Documentation/arch/arm64/perf.rst: the host kernel runs at EL2
 * with VHE and at EL1 without, user space at EL0, guest kernels at EL1,
 * and EL2 is never counted inside a guest. Guest/host exclusion is done by
 * switching counting at guest entry/exit; on non-VHE hosts with
 * !exclude_hv that leaves a short blackout window. */
#include <stdio.h>
#include <string.h>

#include "hwprof/event.h"

HWPROF_API void hwprof_arm64_el_counted(const struct hwprof_attr *a, enum hwprof_arm64_ctx ctx,
					struct hwprof_arm64_el *out)
{
	int eu = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_USER);
	int ek = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL);
	int eh = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HV);
	int eH = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HOST);
	int eG = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_GUEST);
	memset(out, 0, sizeof(*out));
	switch (ctx) {
	case HWPROF_ARM64_VHE_HOST:
		/* host: user EL0, kernel EL2 (exclude_kernel covers both EL1 and
		 * EL2, exclude_hv is ignored); exclude_host drops EL0 and EL2 */
		if (!eH) {
			out->host |= eu ? 0 : HWPROF_EL0;
			out->host |= ek ? 0 : HWPROF_EL2;
		}
		/* guest: EL0 and EL1; exclude_guest drops EL1 and guest EL0 */
		if (!eG) {
			out->guest |= eu ? 0 : HWPROF_EL0;
			out->guest |= ek ? 0 : HWPROF_EL1;
		}
		out->switched = eH || eG;
		break;
	case HWPROF_ARM64_NVHE_HOST:
		/* host: user EL0, kernel EL1, hypervisor (world switch) EL2;
		 * exclude_host drops EL2 and disables the event outside guests */
		if (!eH) {
			out->host |= eu ? 0 : HWPROF_EL0;
			out->host |= ek ? 0 : HWPROF_EL1;
			out->host |= eh ? 0 : HWPROF_EL2;
		}
		if (!eG) {
			out->guest |= eu ? 0 : HWPROF_EL0;
			out->guest |= ek ? 0 : HWPROF_EL1;
		}
		out->switched = eH || eG;
		out->blackout = !eh;
		break;
	case HWPROF_ARM64_GUEST:
		/* inside a guest: EL0 and EL1 only, exclude_hv has no effect */
		out->host |= eu ? 0 : HWPROF_EL0;
		out->host |= ek ? 0 : HWPROF_EL1;
		break;
	}
}

static const char *els(unsigned m, char *b, size_t n)
{
	size_t k = 0;
	b[0] = 0;
	for (unsigned el = 0; el < 3; el++)
		if (m >> el & 1)
			k += (size_t)snprintf(b + k, n - k, "%sEL%u", k ? "," : "", el);
	if (!k)
		snprintf(b, n, "none");
	return b;
}

HWPROF_API int hwprof_arm64_el_format(char *buf, size_t len, const struct hwprof_attr *a)
{
	struct hwprof_arm64_el v, n, g;
	char b1[16], b2[16], b3[16], b4[16], b5[16];
	hwprof_arm64_el_counted(a, HWPROF_ARM64_VHE_HOST, &v);
	hwprof_arm64_el_counted(a, HWPROF_ARM64_NVHE_HOST, &n);
	hwprof_arm64_el_counted(a, HWPROF_ARM64_GUEST, &g);
	return snprintf(buf, len,
			"arm64 EL, VHE host:     host %s; guest %s\n"
			"arm64 EL, non-VHE host: host %s; guest %s%s\n"
			"arm64 EL, in a guest:   %s\n",
			els(v.host, b1, sizeof(b1)), els(v.guest, b2, sizeof(b2)),
			els(n.host, b3, sizeof(b3)), els(n.guest, b4, sizeof(b4)),
			n.blackout ? " (!exclude_hv: host events are lost in a short window at guest entry/exit)" : "",
			els(g.host, b5, sizeof(b5)));
}
