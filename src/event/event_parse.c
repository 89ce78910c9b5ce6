/* perf's -e grammar into struct hwprof_event entries: events, groups,
 * raw rNNNN, hardware cache names, pmu/terms/ with terms resolved through
 * the PMU's format/ and events/ files, per-event terms and modifiers.
 * A hand-written recursive descent over the string; every error names the
 * offset and, where it can, the closest valid names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_int.h"

struct parser {
	const char *s;
	size_t pos;
	const struct hwprof_pmus *pmus;
	struct hwprof_evlist *l;
	struct hwprof_error *err;
};

static int fail(struct parser *p, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parser *p, size_t off, const char *fmt, ...)
{
	if (p->err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
		p->err->code = -HWPROF_E_INVAL;
		p->err->offset = off;
	}
	return -HWPROF_E_INVAL;
}

/* ---- values ----------------------------------------------------------- */

/* Decimal or 0x hex, the whole string, fits in u64. */
static int parse_num(const char *v, uint64_t *out)
{
	const char *s = v;
	int base = 10;
	uint64_t n = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (n > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		n = n * (uint64_t)base + (uint64_t)d;
	}
	*out = n;
	return 0;
}

/* ---- modifiers -------------------------------------------------------- */

static const char modifier_chars[] = "ukhGHpPSDIWe";

struct mods {
	int eu, ek, eh, eH, eG, eI, precise, precise_max, sample_read, pinned, exclusive, weak;
	int exclude_gh;
};

/* perf's modifier rules: u/k/h first exclude all three privilege levels and
 * then re-include their own; G/H likewise for guest/host; u and p also
 * exclude the guest unless G/H were given. `from` holds the starting state
 * (an event's own for group modifiers, all zero for an event's modifiers). */
static int mods_parse(struct parser *p, size_t off, const char *m, size_t n, struct mods *st,
		      size_t ev_start)
{
	int wl = (int)(off + n - ev_start);
	const char *w = p->s + ev_start;
	int exclude = st->eu | st->ek | st->eh, pc = 0;
	for (size_t i = 0; i < n; i++) {
		char c = m[i];
		if (!strchr(modifier_chars, c) || !c)
			return fail(p, off + i, "invalid modifier '%c' in '%.*s' (valid: u k h H G I D W e S P p pp ppp)",
				    c, wl, w);
		if (c != 'p' && memchr(m + i + 1, c, n - i - 1))
			return fail(p, off + i, "modifier '%c' repeated in '%.*s'", c, wl, w);
		switch (c) {
		case 'u':
		case 'k':
		case 'h':
			if (!exclude)
				exclude = st->eu = st->ek = st->eh = 1;
			if (c == 'u') {
				if (!st->exclude_gh)
					st->eG = 1;
				st->eu = 0;
			}
			if (c == 'k')
				st->ek = 0;
			if (c == 'h')
				st->eh = 0;
			break;
		case 'G':
		case 'H':
			if (!st->exclude_gh)
				st->exclude_gh = st->eG = st->eH = 1;
			if (c == 'G')
				st->eG = 0;
			else
				st->eH = 0;
			break;
		case 'I': st->eI = 1; break;
		case 'p':
			pc++;
			st->precise++;
			if (!st->exclude_gh)
				st->eG = 1; /* precise events need exclude_guest */
			break;
		case 'P': st->precise_max = 1; break;
		case 'S': st->sample_read = 1; break;
		case 'D': st->pinned = 1; break;
		case 'e': st->exclusive = 1; break;
		case 'W': st->weak = 1; break;
		}
	}
	if (st->precise > 3 || pc > 3)
		return fail(p, off, "invalid modifier in '%.*s': at most 3 'p' (ppp)", wl, w);
	return 0;
}

static void set_flag(struct hwprof_attr *a, unsigned bit, int on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

static void mods_from_event(const struct hwprof_event *e, struct mods *m)
{
	const struct hwprof_attr *a = &e->attr;
	memset(m, 0, sizeof(*m));
	m->eu = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_USER);
	m->ek = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL);
	m->eh = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HV);
	m->eH = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HOST);
	m->eG = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_GUEST);
	m->eI = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_IDLE);
	m->precise = (int)(a->flags >> HWPROF_ATTR_PRECISE_IP & 3);
	m->pinned = HWPROF_ATTR_HAS(a, HWPROF_ATTR_PINNED);
	m->exclusive = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUSIVE);
	m->precise_max = e->precise_max;
	m->sample_read = e->sample_read;
	m->weak = e->weak;
	m->exclude_gh = e->exclude_gh;
}

static void mods_apply(struct hwprof_event *e, const struct mods *m, int leader_only_pins, int is_leader)
{
	struct hwprof_attr *a = &e->attr;
	set_flag(a, HWPROF_ATTR_EXCLUDE_USER, m->eu);
	set_flag(a, HWPROF_ATTR_EXCLUDE_KERNEL, m->ek);
	set_flag(a, HWPROF_ATTR_EXCLUDE_HV, m->eh);
	set_flag(a, HWPROF_ATTR_EXCLUDE_HOST, m->eH);
	set_flag(a, HWPROF_ATTR_EXCLUDE_GUEST, m->eG);
	set_flag(a, HWPROF_ATTR_EXCLUDE_IDLE, m->eI);
	a->flags = (a->flags & ~(3ULL << HWPROF_ATTR_PRECISE_IP)) |
		   ((uint64_t)m->precise << HWPROF_ATTR_PRECISE_IP);
	if (!leader_only_pins || is_leader) {
		set_flag(a, HWPROF_ATTR_PINNED, m->pinned);
		set_flag(a, HWPROF_ATTR_EXCLUSIVE, m->exclusive);
	}
	e->precise_max = m->precise_max;
	e->sample_read = m->sample_read;
	e->weak = m->weak;
	e->exclude_gh = m->exclude_gh;
}

/* ---- terms -------------------------------------------------------------- */

static const char *const setting_terms[] = {
	"period", "freq", "call-graph", "stack-size", "name", "aux-sample-size",
	"aux-output", "no-inherit", "inherit", "max-stack", "time",
};
static const char *const config_terms[] = { "config", "config1", "config2", "config3", "config4" };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct term {
	char key[64];
	char val[128];
	int has_val;
	size_t off;
};

/* Splits "a=1,b,c=x" (n bytes at s, offset base) into terms. */
static int split_terms(struct parser *p, const char *s, size_t n, size_t base, struct term *t,
		       size_t max, size_t *nr)
{
	size_t i = 0;
	*nr = 0;
	while (i < n) {
		size_t start = i;
		while (i < n && s[i] != ',')
			i++;
		size_t len = i - start;
		if (!len)
			return fail(p, base + start, "empty term in '%.*s'", (int)n, s);
		if (*nr == max)
			return fail(p, base + start, "too many terms");
		struct term *cur = &t[(*nr)++];
		const char *eq = memchr(s + start, '=', len);
		size_t kl = eq ? (size_t)(eq - (s + start)) : len;
		size_t vl = eq ? len - kl - 1 : 0;
		if (!kl || kl >= sizeof(cur->key) || vl >= sizeof(cur->val))
			return fail(p, base + start, "bad term '%.*s'", (int)len, s + start);
		memcpy(cur->key, s + start, kl);
		cur->key[kl] = 0;
		cur->has_val = eq != NULL;
		memcpy(cur->val, eq ? eq + 1 : "", vl);
		cur->val[vl] = 0;
		cur->off = base + start;
		if (eq && !vl)
			return fail(p, cur->off, "term '%s' has an empty value", cur->key);
		i++; /* skip ',' */
	}
	return 0;
}

static int term_num(struct parser *p, const struct term *t, uint64_t *v)
{
	if (!t->has_val) {
		*v = 1;
		return 0;
	}
	if (parse_num(t->val, v))
		return fail(p, t->off, "term '%s' expects a number, not '%s'", t->key, t->val);
	return 0;
}

static int apply_setting(struct parser *p, struct hwprof_event *e, const struct term *t, int *handled)
{
	uint64_t v;
	*handled = 1;
	if (!strcmp(t->key, "name")) {
		if (!t->has_val)
			return fail(p, t->off, "term 'name' needs a value");
		snprintf(e->name, sizeof(e->name), "%s", t->val);
		e->set |= HWPROF_EVSET_NAME;
		return 0;
	}
	if (!strcmp(t->key, "call-graph")) {
		static const struct { const char *n; int v; } cg[] = {
			{ "fp", HWPROF_CG_FP }, { "dwarf", HWPROF_CG_DWARF },
			{ "lbr", HWPROF_CG_LBR }, { "no", HWPROF_CG_NO },
		};
		for (size_t i = 0; i < NELEM(cg); i++)
			if (t->has_val && !strcmp(t->val, cg[i].n)) {
				e->call_graph = cg[i].v;
				e->set |= HWPROF_EVSET_CALL_GRAPH;
				return 0;
			}
		return fail(p, t->off, "invalid call-graph '%s' (fp, dwarf, lbr or no)", t->has_val ? t->val : "");
	}
	if (!strcmp(t->key, "no-inherit") || !strcmp(t->key, "inherit")) {
		if (t->has_val)
			return fail(p, t->off, "term '%s' takes no value", t->key);
		e->inherit = t->key[0] == 'i';
		e->set |= HWPROF_EVSET_INHERIT;
		return 0;
	}
	int i;
	for (i = 0; i < (int)NELEM(setting_terms); i++)
		if (!strcmp(t->key, setting_terms[i]))
			break;
	if (i == (int)NELEM(setting_terms)) {
		*handled = 0;
		return 0;
	}
	if (strcmp(t->key, "aux-output") && !t->has_val)
		return fail(p, t->off, "term '%s' needs a value", t->key);
	if (term_num(p, t, &v))
		return -HWPROF_E_INVAL;
	if (!strcmp(t->key, "period")) {
		e->period = v;
		e->set = (e->set | HWPROF_EVSET_PERIOD) & ~HWPROF_EVSET_FREQ;
	} else if (!strcmp(t->key, "freq")) {
		e->freq = v;
		e->set = (e->set | HWPROF_EVSET_FREQ) & ~HWPROF_EVSET_PERIOD;
	} else if (!strcmp(t->key, "stack-size")) {
		if (v > 0xffffffffULL)
			return fail(p, t->off, "stack-size %s is too large", t->val);
		e->stack_size = (uint32_t)v;
		e->set |= HWPROF_EVSET_STACK_SIZE;
	} else if (!strcmp(t->key, "aux-sample-size")) {
		if (v > 0xffffffffULL)
			return fail(p, t->off, "aux-sample-size %s is too large", t->val);
		e->aux_sample_size = (uint32_t)v;
		e->set |= HWPROF_EVSET_AUX_SAMPLE_SIZE;
	} else if (!strcmp(t->key, "aux-output")) {
		set_flag(&e->attr, HWPROF_ATTR_AUX_OUTPUT, v != 0);
		e->set |= HWPROF_EVSET_AUX_OUTPUT;
	} else if (!strcmp(t->key, "max-stack")) {
		if (v > 0xffff)
			return fail(p, t->off, "max-stack %s is too large (at most 65535)", t->val);
		e->max_stack = (uint16_t)v;
		e->set |= HWPROF_EVSET_MAX_STACK;
	} else if (!strcmp(t->key, "time")) {
		e->time = v != 0;
		e->set |= HWPROF_EVSET_TIME;
	}
	return 0;
}

static uint64_t *cfg_word(struct hwprof_attr *a, unsigned w)
{
	switch (w) {
	case 0: return &a->config;
	case 1: return &a->config1;
	case 2: return &a->config2;
	case 3: return &a->config3;
	default: return &a->config4;
	}
}

static int unknown_term(struct parser *p, const struct term *t, const struct hwprof_pmu *pmu,
			const char *what)
{
	struct evt_suggest s;
	char sug[200];
	evt_suggest_init(&s, t->key);
	for (size_t i = 0; pmu && i < pmu->nr_formats; i++)
		evt_suggest_add(&s, pmu->formats[i].name);
	for (size_t i = 0; pmu && i < pmu->nr_aliases; i++)
		evt_suggest_add(&s, pmu->aliases[i].name);
	for (size_t i = 0; i < NELEM(config_terms); i++)
		evt_suggest_add(&s, config_terms[i]);
	for (size_t i = 0; i < NELEM(setting_terms); i++)
		evt_suggest_add(&s, setting_terms[i]);
	if (pmu && evt_spe_term_missing(sug, sizeof(sug), pmu, t->key))
		return fail(p, t->off, "%s", sug);
	evt_suggest_text(&s, sug, sizeof(sug));
	if (!sug[0] && pmu && pmu->nr_formats) {
		size_t n = (size_t)snprintf(sug, sizeof(sug), " (valid:");
		for (size_t i = 0; i < pmu->nr_formats && n < sizeof(sug); i++)
			n += (size_t)snprintf(sug + n, sizeof(sug) - n, " %s", pmu->formats[i].name);
		if (n < sizeof(sug))
			snprintf(sug + n, sizeof(sug) - n, ", config..config4 and period, freq, ...)");
	}
	return fail(p, t->off, "unknown term '%s' for %s%s", t->key, what, sug);
}

static int apply_terms(struct parser *p, struct hwprof_event *e, const struct hwprof_pmu *pmu,
		       const struct term *t, size_t nr, int from_alias);

/* An events/ alias used as a term: its own terms, then the user's. */
static int apply_alias(struct parser *p, struct hwprof_event *e, const struct hwprof_pmu *pmu,
		       const struct hwprof_pmu_alias *al, size_t off)
{
	struct term t[32];
	size_t nr;
	struct hwprof_error *saved = p->err, tmp;
	p->err = &tmp;
	int rc = split_terms(p, al->value, strlen(al->value), 0, t, NELEM(t), &nr);
	p->err = saved;
	if (rc)
		return fail(p, off, "PMU %s event '%s' has unreadable terms '%s'", pmu->name, al->name,
			    al->value);
	for (size_t i = 0; i < nr; i++)
		t[i].off = off;
	return apply_terms(p, e, pmu, t, nr, 1);
}

static int apply_terms(struct parser *p, struct hwprof_event *e, const struct hwprof_pmu *pmu,
		       const struct term *t, size_t nr, int from_alias)
{
	char what[200];
	if (pmu)
		snprintf(what, sizeof(what), "PMU '%s'", pmu->name);
	else
		snprintf(what, sizeof(what), "event '%s'", e->name);
	for (size_t i = 0; i < nr; i++) {
		int handled, rc;
		uint64_t v;
		if (from_alias && !strcmp(t[i].val, "?"))
			continue; /* a value the user is expected to give */
		for (unsigned w = 0; w < NELEM(config_terms); w++)
			if (!strcmp(t[i].key, config_terms[w])) {
				if (!t[i].has_val)
					return fail(p, t[i].off, "term '%s' needs a value", t[i].key);
				if (term_num(p, &t[i], &v))
					return -HWPROF_E_INVAL;
				*cfg_word(&e->attr, w) = v;
				goto next;
			}
		const struct hwprof_pmu_format *f = hwprof_pmu_format_find(pmu, t[i].key);
		if (f) {
			uint64_t cfg[HWPROF_CFG_WORDS] = {
				e->attr.config, e->attr.config1, e->attr.config2, e->attr.config3,
				e->attr.config4,
			};
			char ft[96];
			if (term_num(p, &t[i], &v))
				return -HWPROF_E_INVAL;
			if (f - pmu->formats < 64)
				e->terms_set |= 1ULL << (f - pmu->formats);
			if (hwprof_pmu_format_place(f, v, cfg)) {
				hwprof_pmu_format_text(ft, sizeof(ft), f);
				return fail(p, t[i].off,
					    "value %#llx out of range for term '%s' of PMU '%s' (%s, at most %#llx)",
					    (unsigned long long)v, t[i].key, pmu->name, ft,
					    (unsigned long long)hwprof_pmu_format_max(f));
			}
			e->attr.config = cfg[0];
			e->attr.config1 = cfg[1];
			e->attr.config2 = cfg[2];
			e->attr.config3 = cfg[3];
			e->attr.config4 = cfg[4];
			continue;
		}
		if ((rc = apply_setting(p, e, &t[i], &handled)))
			return rc;
		if (handled)
			continue;
		const struct hwprof_pmu_alias *al = from_alias ? NULL : hwprof_pmu_alias(pmu, t[i].key);
		if (al && !t[i].has_val) {
			if ((rc = apply_alias(p, e, pmu, al, t[i].off)))
				return rc;
			continue;
		}
		return unknown_term(p, &t[i], pmu, what);
next:;
	}
	return 0;
}

/* ---- events ------------------------------------------------------------- */

static struct hwprof_event *new_event(struct parser *p, size_t off)
{
	struct hwprof_evlist *l = p->l;
	if (l->nr >= HWPROF_EVLIST_MAX)
		return NULL;
	if (l->nr == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 8;
		void *n = realloc(l->ev, nc * sizeof(*l->ev));
		if (!n)
			return NULL;
		l->ev = n;
		l->cap = nc;
	}
	struct hwprof_event *e = &l->ev[l->nr];
	memset(e, 0, sizeof(*e));
	e->leader = l->nr;
	e->nr_members = 1;
	e->spec_off = off;
	e->inherit = 1;
	e->time = 1;
	/* perf counts the host only unless told otherwise */
	e->attr.flags = 1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
	l->nr++;
	return e;
}

static int is_raw(const char *n)
{
	if (n[0] != 'r' || !n[1])
		return 0;
	return strspn(n + 1, "0123456789abcdefABCDEF") == strlen(n + 1);
}

static int unknown_event(struct parser *p, size_t off, const char *name)
{
	struct evt_suggest s;
	char sug[200];
	evt_suggest_init(&s, name);
	evt_suggest_all_events(&s, p->pmus);
	evt_suggest_text(&s, sug, sizeof(sug));
	return fail(p, off, "unknown event '%s'%s", name, sug);
}

/* A bare name (no slash terms): symbolic, cache, raw or a PMU alias. */
static int resolve_name(struct parser *p, struct hwprof_event *e, const char *name, size_t off,
			int has_colon)
{
	uint32_t type;
	uint64_t config;
	const struct hwprof_event_name *sym = evt_sym_lookup(name, &type);
	if (sym) {
		e->attr.type = type;
		e->attr.config = sym->config;
		e->kind = type == HWPROF_TYPE_HARDWARE ? HWPROF_EVENT_HARDWARE : HWPROF_EVENT_SOFTWARE;
		return 0;
	}
	if (evt_is_tool(name))
		return fail(p, off, "'%s' is a tool event for perf stat; it cannot be recorded", name);
	int c = evt_cache_lookup(name, &config);
	if (c == 0) {
		e->attr.type = HWPROF_TYPE_HW_CACHE;
		e->attr.config = config;
		e->kind = HWPROF_EVENT_HW_CACHE;
		return 0;
	}
	if (c == -2)
		return fail(p, off, "hardware cache event '%s' does not exist (see 'hwprof list cache')", name);
	if (is_raw(name)) {
		if (strlen(name + 1) > 16)
			return fail(p, off, "raw event '%s' does not fit in 64 bits", name);
		e->attr.type = HWPROF_TYPE_RAW;
		e->attr.config = strtoull(name + 1, NULL, 16);
		e->kind = HWPROF_EVENT_RAW;
		return 0;
	}
	/* an events/ alias of some PMU, core PMU first */
	const struct hwprof_pmu *core = hwprof_pmus_core(p->pmus);
	const struct hwprof_pmu *pmu = hwprof_pmu_alias(core, name) ? core : NULL;
	for (size_t i = 0; !pmu && i < hwprof_pmus_count(p->pmus); i++)
		if (hwprof_pmu_alias(hwprof_pmus_get(p->pmus, i), name))
			pmu = hwprof_pmus_get(p->pmus, i);
	if (pmu) {
		struct term t = { .off = off, .has_val = 0 };
		snprintf(t.key, sizeof(t.key), "%s", name);
		e->attr.type = pmu->type;
		e->kind = HWPROF_EVENT_PMU;
		e->is_aux = evt_pmu_is_aux(pmu->name);
		snprintf(e->pmu, sizeof(e->pmu), "%s", pmu->name);
		return apply_terms(p, e, pmu, &t, 1, 0);
	}
	if (!strcmp(name, "mem") && has_colon)
		return fail(p, off, "breakpoint events (mem:ADDR) are not supported");
	if (has_colon)
		return fail(p, off, "'%s:...' looks like a tracepoint; tracepoints are not supported", name);
	return unknown_event(p, off, name);
}

static size_t span_until(const char *s, const char *stop)
{
	return strcspn(s, stop);
}

/* event := name [ '/' terms '/' [mods] ] [ ':' mods ] */
static int parse_event(struct parser *p, int in_group)
{
	size_t start = p->pos;
	const char *s = p->s;
	size_t n = span_until(s + start, ",:/{}");
	char name[128];
	if (!n && s[start])
		return fail(p, start, "expected an event name before '%c'", s[start]);
	if (!n)
		return fail(p, start, "expected an event name");
	if (n >= sizeof(name))
		return fail(p, start, "event name too long");
	memcpy(name, s + start, n);
	name[n] = 0;
	p->pos += n;

	struct hwprof_event *e = new_event(p, start);
	if (!e)
		return p->l->nr >= HWPROF_EVLIST_MAX ? fail(p, start, "too many events") : -HWPROF_E_NOMEM;
	size_t idx = p->l->nr - 1;
	int rc;

	const char *mods = NULL;
	size_t mods_len = 0, mods_off = 0;
	if (s[p->pos] == '/') {
		size_t tstart = p->pos + 1;
		const char *close = strchr(s + tstart, '/');
		if (!close)
			return fail(p, p->pos, "missing closing '/' after the terms of '%s'", name);
		size_t tlen = (size_t)(close - (s + tstart));
		struct term t[64];
		size_t nr;
		if ((rc = split_terms(p, s + tstart, tlen, tstart, t, NELEM(t), &nr)))
			return rc;
		const struct hwprof_pmu *pmu = hwprof_pmus_find(p->pmus, name);
		if (!pmu)
			pmu = evt_spe_pmu_by_prefix(p->pmus, name); /* "arm_spe//" means arm_spe_N */
		snprintf(e->name, sizeof(e->name), "%s", name);
		if (pmu) {
			uint64_t cfg[HWPROF_CFG_WORDS] = { 0 };
			evt_pmu_default_config(pmu, cfg);
			e->attr.type = pmu->type;
			e->attr.config = cfg[0];
			e->attr.config1 = cfg[1];
			e->attr.config2 = cfg[2];
			e->attr.config3 = cfg[3];
			e->attr.config4 = cfg[4];
			e->kind = HWPROF_EVENT_PMU;
			e->is_aux = evt_pmu_is_aux(pmu->name);
			snprintf(e->pmu, sizeof(e->pmu), "%s", pmu->name);
		} else {
			uint32_t type;
			uint64_t config;
			const struct hwprof_event_name *sym = evt_sym_lookup(name, &type);
			int c = sym ? -1 : evt_cache_lookup(name, &config);
			if (sym) {
				e->attr.type = type;
				e->attr.config = sym->config;
				e->kind = type == HWPROF_TYPE_HARDWARE ? HWPROF_EVENT_HARDWARE : HWPROF_EVENT_SOFTWARE;
			} else if (c == 0) {
				e->attr.type = HWPROF_TYPE_HW_CACHE;
				e->attr.config = config;
				e->kind = HWPROF_EVENT_HW_CACHE;
			} else if (is_raw(name)) {
				if ((rc = resolve_name(p, e, name, start, 0)))
					return rc;
			} else {
				struct evt_suggest sg;
				char sug[200];
				evt_suggest_init(&sg, name);
				for (size_t i = 0; i < hwprof_pmus_count(p->pmus); i++)
					evt_suggest_add(&sg, hwprof_pmus_get(p->pmus, i)->name);
				evt_suggest_all_events(&sg, p->pmus);
				evt_suggest_text(&sg, sug, sizeof(sug));
				if (evt_spe_pmu_missing(p->pmus, name, sug, sizeof(sug)))
					return fail(p, start, "%s", sug);
				return fail(p, start, "unknown PMU or event '%s'%s", name, sug);
			}
		}
		if ((rc = apply_terms(p, e, pmu, t, nr, 0)))
			return rc;
		p->pos = (size_t)(close - s) + 1;
		/* pmu/terms/mods: modifiers may follow the slash directly */
		size_t m = span_until(s + p->pos, ",:{}");
		if (m) {
			mods = s + p->pos;
			mods_len = m;
			mods_off = p->pos;
			p->pos += m;
		}
	} else {
		int has_colon = s[p->pos] == ':';
		if ((rc = resolve_name(p, e, name, start, has_colon)))
			return rc;
	}
	if (s[p->pos] == ':') {
		if (mods)
			return fail(p, p->pos, "modifiers given twice");
		mods_off = p->pos + 1;
		mods = s + mods_off;
		mods_len = span_until(mods, ",{}:/");
		p->pos = mods_off + mods_len;
		if (!mods_len)
			return fail(p, mods_off - 1, "empty modifier after ':'");
		if (s[p->pos] == ':' || s[p->pos] == '/')
			return fail(p, p->pos, "unexpected '%c' after the modifiers; tracepoints are not supported",
				    s[p->pos]);
	}
	e = &p->l->ev[idx];
	if (mods) {
		struct mods st;
		memset(&st, 0, sizeof(st));
		if ((rc = mods_parse(p, mods_off, mods, mods_len, &st, start)))
			return rc;
		mods_apply(e, &st, 0, 1);
	}
	if (!(e->set & HWPROF_EVSET_NAME)) {
		size_t len = p->pos - start;
		snprintf(e->name, sizeof(e->name), "%.*s", (int)len, s + start);
	}
	(void)in_group;
	return 0;
}

static int parse_group(struct parser *p)
{
	size_t open = p->pos, first = p->l->nr;
	int rc;
	p->pos++; /* '{' */
	for (;;) {
		if (p->s[p->pos] == '{')
			return fail(p, p->pos, "groups cannot be nested");
		if ((rc = parse_event(p, 1)))
			return rc;
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == '}')
			break;
		if (p->s[p->pos])
			return fail(p, p->pos, "expected ',' or '}' in the group");
		return fail(p, p->pos, "missing '}' to close the group opened at offset %zu", open);
	}
	p->pos++; /* '}' */
	size_t nr = p->l->nr - first;
	for (size_t i = first; i < p->l->nr; i++) {
		p->l->ev[i].leader = first;
		p->l->ev[i].nr_members = i == first ? nr : 1;
	}
	if (p->s[p->pos] == ':') {
		size_t off = p->pos + 1;
		size_t len = span_until(p->s + off, ",{}:/");
		if (!len)
			return fail(p, p->pos, "empty modifier after ':'");
		for (size_t i = first; i < p->l->nr; i++) {
			struct mods st;
			mods_from_event(&p->l->ev[i], &st);
			if ((rc = mods_parse(p, off, p->s + off, len, &st, open)))
				return rc;
			mods_apply(&p->l->ev[i], &st, 1, i == first);
		}
		p->pos = off + len;
	}
	return 0;
}

HWPROF_API int hwprof_evlist_parse(struct hwprof_evlist *l, const char *spec,
				   const struct hwprof_pmus *pmus, struct hwprof_error *err)
{
	if (!l || !spec)
		return -HWPROF_E_INVAL;
	struct parser p = { .s = spec, .pos = 0, .pmus = pmus, .l = l, .err = err };
	size_t before = l->nr;
	int rc = 0;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!*spec)
		rc = fail(&p, 0, "empty event specification");
	while (!rc && spec[p.pos]) {
		rc = spec[p.pos] == '{' ? parse_group(&p) : parse_event(&p, 0);
		if (rc)
			break;
		if (spec[p.pos] == ',') {
			p.pos++;
			if (!spec[p.pos])
				rc = fail(&p, p.pos, "expected an event after ','");
		} else if (spec[p.pos]) {
			rc = fail(&p, p.pos, "unexpected '%c'", spec[p.pos]);
		}
	}
	if (rc) {
		if (rc == -HWPROF_E_NOMEM && err) {
			err->code = rc;
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		}
		l->nr = before;
		return rc;
	}
	return (int)(l->nr - before);
}

HWPROF_API void hwprof_evlist_free(struct hwprof_evlist *l)
{
	if (!l)
		return;
	free(l->ev);
	l->ev = NULL;
	l->nr = l->cap = 0;
}
