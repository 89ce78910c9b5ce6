/* Event names: the name recorded in the file (EVENT_DESC feature, or an
 * EVENT_UPDATE NAME record in pipe mode), else one derived from the attr
 * the way perf names events (cpu-clock, cycles:u, raw 0x...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perfdata.h"
#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
};

/* perf's modifier suffix: k/u/h when some level is excluded, p's for
 * precise_ip, H/G when the guest/host split differs from the default. */
static size_t modifiers(const struct hwprof_attr *a, char *bf, size_t size)
{
	size_t r = 0;
	size_t colon = 0;
	bool excl_guest_default = false;
#define MOD(bit, c)                                          \
	do {                                                 \
		if (!HWPROF_ATTR_HAS(a, bit) && r + 2 < size) { \
			if (!colon)                          \
				colon = ++r;                 \
			bf[r++] = (c);                       \
		}                                            \
	} while (0)
	if (HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL) || HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_USER) ||
	    HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HV)) {
		MOD(HWPROF_ATTR_EXCLUDE_KERNEL, 'k');
		MOD(HWPROF_ATTR_EXCLUDE_USER, 'u');
		MOD(HWPROF_ATTR_EXCLUDE_HV, 'h');
		excl_guest_default = true;
	}
	unsigned precise = (unsigned)((a->flags >> HWPROF_ATTR_PRECISE_IP) & 3);
	if (precise) {
		if (!colon)
			colon = ++r;
		for (unsigned i = 0; i < precise && r + 2 < size; i++)
			bf[r++] = 'p';
		excl_guest_default = true;
	}
	if (HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HOST) ||
	    (bool)HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_GUEST) == excl_guest_default) {
		MOD(HWPROF_ATTR_EXCLUDE_HOST, 'H');
		MOD(HWPROF_ATTR_EXCLUDE_GUEST, 'G');
	}
#undef MOD
	if (colon)
		bf[colon - 1] = ':';
	bf[r] = 0;
	return r;
}

HWPROF_API const char *hwprof_evsel_name(const struct hwprof_evsel *ev, char *buf, size_t len)
{
	if (ev->name)
		return ev->name;
	const struct hwprof_attr *a = &ev->attr;
	char mods[16];
	switch (a->type) {
	case HWPROF_TYPE_HARDWARE:
		modifiers(a, mods, sizeof(mods));
		if (a->config < sizeof(hw_names) / sizeof(hw_names[0]))
			snprintf(buf, len, "%s%s", hw_names[a->config], mods);
		else
			snprintf(buf, len, "unknown-hardware%s", mods);
		break;
	case HWPROF_TYPE_SOFTWARE:
		modifiers(a, mods, sizeof(mods));
		if (a->config < sizeof(sw_names) / sizeof(sw_names[0]))
			snprintf(buf, len, "%s%s", sw_names[a->config], mods);
		else
			snprintf(buf, len, "unknown-software%s", mods);
		break;
	case HWPROF_TYPE_RAW:
		modifiers(a, mods, sizeof(mods));
		snprintf(buf, len, "raw 0x%llx%s", (unsigned long long)a->config, mods);
		break;
	case HWPROF_TYPE_TRACEPOINT:
		snprintf(buf, len, "unknown tracepoint");
		break;
	default:
		snprintf(buf, len, "unknown attr type: %u", a->type);
		break;
	}
	return buf;
}

/* Names from the EVENT_DESC feature: u32 nr, u32 attr_size, then per event
 * the attr, u32 nr_ids, a string (u32 len + bytes) and the ids. */
void pdata_load_event_desc(struct hwprof_perfdata *h)
{
	const uint8_t *p;
	uint64_t size;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_EVENT_DESC, &p, &size, NULL) != 1 || size < 8)
		return;
	int sw = h->info.swapped;
	const uint8_t *end = p + size;
	uint32_t nr = ld32s(p, sw), asz = ld32s(p + 4, sw);
	p += 8;
	for (uint32_t i = 0; i < nr; i++) {
		if ((uint64_t)(end - p) < (uint64_t)asz + 8)
			return;
		p += asz;
		uint32_t nids = ld32s(p, sw), slen = ld32s(p + 4, sw);
		p += 8;
		if ((uint64_t)(end - p) < slen)
			return;
		const char *name = (const char *)p;
		size_t n = strnlen(name, slen);
		p += slen;
		if ((uint64_t)(end - p) / 8 < nids)
			return;
		uint64_t first = nids ? ld64s(p, sw) : 0;
		p += 8ull * nids;
		struct hwprof_evsel *ev = NULL;
		if (nids)
			ev = (struct hwprof_evsel *)hwprof_perfdata_evsel_by_id(h, first);
		if (!ev && i < h->nr_evsels)
			ev = &h->evsels[i];
		if (ev && !ev->name && ev->nr_ids)
			pdata_set_evsel_name(h, ev->ids[0], name, n);
		else if (ev && !ev->name) {
			/* no ids: name it directly */
			char *s = strndup(name, n);
			if (s && !pdata_keep(h, s))
				ev->name = s;
			else
				free(s);
		}
	}
}
