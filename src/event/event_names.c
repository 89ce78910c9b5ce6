/* Symbolic event names: perf's hardware, software, tool and hardware cache
 * events with their attr configs (include/uapi/linux/perf_event.h values),
 * and the closest-name suggestions used in error messages. */
#include <stdio.h>
#include <string.h>

#include "event/event_int.h"

/* Sorted by name: perf list prints them in this order. */
static const struct hwprof_event_name hw_names[] = {
	{ "branch-instructions", "branches", 4 },
	{ "branch-misses", NULL, 5 },
	{ "bus-cycles", NULL, 6 },
	{ "cache-misses", NULL, 3 },
	{ "cache-references", NULL, 2 },
	{ "cpu-cycles", "cycles", 0 },
	{ "instructions", NULL, 1 },
	{ "ref-cycles", NULL, 9 },
	{ "stalled-cycles-backend", "idle-cycles-backend", 8 },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", 7 },
};

static const struct hwprof_event_name sw_names[] = {
	{ "alignment-faults", NULL, 7 },
	{ "bpf-output", NULL, 10 },
	{ "cgroup-switches", NULL, 11 },
	{ "context-switches", "cs", 3 },
	{ "cpu-clock", NULL, 0 },
	{ "cpu-migrations", "migrations", 4 },
	{ "dummy", NULL, 9 },
	{ "emulation-faults", NULL, 8 },
	{ "major-faults", NULL, 6 },
	{ "minor-faults", NULL, 5 },
	{ "page-faults", "faults", 2 },
	{ "task-clock", NULL, 1 },
};

static const char *const tool_names[] = { "duration_time", "user_time", "system_time" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

HWPROF_API const struct hwprof_event_name *hwprof_event_names(uint32_t type, size_t *nr)
{
	if (type == HWPROF_TYPE_HARDWARE) {
		*nr = NELEM(hw_names);
		return hw_names;
	}
	if (type == HWPROF_TYPE_SOFTWARE) {
		*nr = NELEM(sw_names);
		return sw_names;
	}
	*nr = 0;
	return NULL;
}

HWPROF_API const char *const *hwprof_tool_event_names(size_t *nr)
{
	*nr = NELEM(tool_names);
	return tool_names;
}

const struct hwprof_event_name *evt_sym_lookup(const char *name, uint32_t *type)
{
	for (size_t i = 0; i < NELEM(hw_names); i++)
		if (!strcmp(name, hw_names[i].name) || (hw_names[i].alias && !strcmp(name, hw_names[i].alias))) {
			*type = HWPROF_TYPE_HARDWARE;
			return &hw_names[i];
		}
	for (size_t i = 0; i < NELEM(sw_names); i++)
		if (!strcmp(name, sw_names[i].name) || (sw_names[i].alias && !strcmp(name, sw_names[i].alias))) {
			*type = HWPROF_TYPE_SOFTWARE;
			return &sw_names[i];
		}
	return NULL;
}

int evt_is_tool(const char *name)
{
	for (size_t i = 0; i < NELEM(tool_names); i++)
		if (!strcmp(name, tool_names[i]))
			return 1;
	return 0;
}

/* ---- hardware cache events ------------------------------------------------ */

/* First spelling is the one perf prints. */
static const char *const cache_types[HWPROF_CACHE_MAX][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data", NULL },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction", NULL },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node", NULL },
};
/* [0] in "<type>-<op>-misses", [1] in "<type>-<ops>" */
static const char *const cache_ops[HWPROF_CACHE_OP_MAX][5] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load", NULL },
};
static const char *const cache_results[HWPROF_CACHE_RESULT_MAX][5] = {
	{ "refs", "Reference", "ops", "access", NULL },
	{ "misses", "miss", NULL },
};
/* Which ops each cache offers, as bits 1 << op. */
static const unsigned char cache_valid_ops[HWPROF_CACHE_MAX] = {
	[HWPROF_CACHE_L1D] = 7, [HWPROF_CACHE_L1I] = 5, [HWPROF_CACHE_LL] = 7,
	[HWPROF_CACHE_DTLB] = 7, [HWPROF_CACHE_ITLB] = 1, [HWPROF_CACHE_BPU] = 1,
	[HWPROF_CACHE_NODE] = 7,
};

HWPROF_API int hwprof_cache_event_name(char *buf, size_t len, unsigned cache, unsigned op,
				       unsigned result)
{
	if (cache >= HWPROF_CACHE_MAX || op >= HWPROF_CACHE_OP_MAX ||
	    result >= HWPROF_CACHE_RESULT_MAX || !(cache_valid_ops[cache] >> op & 1))
		return -HWPROF_E_INVAL;
	if (result == HWPROF_CACHE_RESULT_ACCESS)
		snprintf(buf, len, "%s-%s", cache_types[cache][0], cache_ops[op][1]);
	else
		snprintf(buf, len, "%s-%s-%s", cache_types[cache][0], cache_ops[op][0],
			 cache_results[result][0]);
	return 0;
}

/* Length of the spelling in tbl[i][*] that starts s and ends at '-' or the
 * end, longest first; 0 if none. */
static size_t match_part(const char *s, const char *const *spellings, size_t n)
{
	size_t best = 0;
	for (size_t k = 0; k < n && spellings[k]; k++) {
		size_t l = strlen(spellings[k]);
		if (l > best && !strncmp(s, spellings[k], l) && (s[l] == '-' || !s[l]))
			best = l;
	}
	return best;
}

int evt_cache_lookup(const char *name, uint64_t *config)
{
	int cache = -1;
	size_t at = 0;
	for (int c = 0; c < HWPROF_CACHE_MAX; c++) {
		size_t l = match_part(name, cache_types[c], 5);
		if (l > at) {
			at = l;
			cache = c;
		}
	}
	if (cache < 0)
		return -1;
	int op = -1, result = -1;
	for (int part = 0; part < 2 && name[at] == '-'; part++) {
		const char *s = name + at + 1;
		size_t l = 0;
		for (int o = 0; o < HWPROF_CACHE_OP_MAX && op < 0; o++)
			if ((l = match_part(s, cache_ops[o], 5)))
				op = o;
		if (!l)
			for (int r = 0; r < HWPROF_CACHE_RESULT_MAX && result < 0; r++)
				if ((l = match_part(s, cache_results[r], 5)))
					result = r;
		if (!l)
			return -1;
		at += 1 + l;
	}
	if (name[at])
		return -1;
	if (op < 0)
		op = HWPROF_CACHE_OP_READ;
	if (result < 0)
		result = HWPROF_CACHE_RESULT_ACCESS;
	if (!(cache_valid_ops[cache] >> op & 1))
		return -2;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 0;
}

/* ---- suggestions ---------------------------------------------------------- */

unsigned evt_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[65];
	if (la > 64 || lb > 64)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned sub = diag + (a[i - 1] != b[j - 1]);
			unsigned del = up + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			diag = up;
		}
	}
	return row[lb];
}

void evt_suggest_init(struct evt_suggest *s, const char *word)
{
	memset(s, 0, sizeof(*s));
	s->word = word;
}

void evt_suggest_add(struct evt_suggest *s, const char *cand)
{
	size_t wl = strlen(s->word);
	unsigned limit = wl < 6 ? 2 : (unsigned)(wl / 3);
	unsigned d = evt_edit_distance(s->word, cand);
	if (d > limit || !d)
		return;
	for (int i = 0; i < 3; i++)
		if (s->best[i] && !strcmp(s->best[i], cand))
			return;
	for (int i = 0; i < 3; i++) {
		if (!s->best[i] || d < s->dist[i]) {
			/* shift the worse ones down, keeping own storage in step */
			for (int k = 2; k > i; k--) {
				s->dist[k] = s->dist[k - 1];
				memcpy(s->own[k], s->own[k - 1], sizeof(s->own[k]));
				s->best[k] = s->best[k - 1] ? s->own[k] : NULL;
			}
			snprintf(s->own[i], sizeof(s->own[i]), "%s", cand);
			s->best[i] = s->own[i];
			s->dist[i] = d;
			return;
		}
	}
}

void evt_suggest_text(const struct evt_suggest *s, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	/* only the closest ones: a farther name is rarely what was meant */
	for (int i = 0; i < 3 && s->best[i] && s->dist[i] == s->dist[0]; i++) {
		int w = snprintf(buf + n, len - n, "%s'%s'", i ? ", " : " (did you mean ", s->best[i]);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
	if (n)
		snprintf(buf + n, len - n, "?)");
}

void evt_suggest_all_events(struct evt_suggest *s, const struct hwprof_pmus *pmus)
{
	char b[96];
	for (size_t i = 0; i < NELEM(hw_names); i++) {
		evt_suggest_add(s, hw_names[i].name);
		if (hw_names[i].alias)
			evt_suggest_add(s, hw_names[i].alias);
	}
	for (size_t i = 0; i < NELEM(sw_names); i++) {
		evt_suggest_add(s, sw_names[i].name);
		if (sw_names[i].alias)
			evt_suggest_add(s, sw_names[i].alias);
	}
	for (unsigned c = 0; c < HWPROF_CACHE_MAX; c++)
		for (unsigned o = 0; o < HWPROF_CACHE_OP_MAX; o++)
			for (unsigned r = 0; r < HWPROF_CACHE_RESULT_MAX; r++)
				if (!hwprof_cache_event_name(b, sizeof(b), c, o, r))
					evt_suggest_add(s, b);
	for (size_t i = 0; i < hwprof_pmus_count(pmus); i++) {
		const struct hwprof_pmu *p = hwprof_pmus_get(pmus, i);
		evt_suggest_add(s, p->name);
		for (size_t k = 0; k < p->nr_aliases; k++)
			evt_suggest_add(s, p->aliases[k].name);
	}
}
