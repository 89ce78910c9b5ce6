/* Histogram entries keyed by perf report's sort keys. perf 6.1 finds a
 * sample's entry by walking a red-black tree with the keys' compare
 * functions; those are not a total order (an unresolved symbol compares by
 * address alone, a resolved one by DSO first), so an equal entry can be
 * missed and a second one made. To give the same entries we keep the same
 * tree (hist_tree.c), then redo perf's collapse pass when a key has a
 * collapse function (comm), and order the result as perf's output tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perf_event.h"
#include "hwprof/report.h"
#include "report/hist_chain.h"
#include "report/hist_index.h"
#include "util/ixtree.h"
#include "report/report_int.h"

struct hwprof_hist {
	enum hwprof_hist_key keys[HWPROF_HK_NR * 2];  /* identity keys */
	size_t nr_keys;
	enum hwprof_hist_key sort[HWPROF_HK_NR * 2];  /* output order */
	size_t nr_sort;
	struct hwprof_hist_entry *e;
	size_t n, cap;
	struct ht_tree in;          /* perf's entries_in */
	/* entries by identity (hist_index.h), while fast: the keys are
	 * total orders in which only entries with the same identity (see
	 * ident_hash) compare equal, so perf's walk of entries_in finds
	 * the entry this index holds. Keys outside that set, a symbol key
	 * before the DSO key (an unresolved symbol then compares by address
	 * alone, a resolved one by DSO: not transitive), an entry of an
	 * inlined stand-in (equal to others by name and overlap) or a comm
	 * renamed in place turn it off for good. An address further than
	 * 2^63 from another of its DSO's turns it off for that DSO (see
	 * note_addrs). */
	struct hist_index ix;
	bool fast;
	bool sym_key;
	struct addr_span { uint64_t lo, hi; bool wide; } *span; /* by DSO id + 1 */
	size_t cap_span;
	bool chains, children, graph, caller;
	struct hc_trie trie;
	uint32_t *frame_ids, *cache; /* per-sample scratch */
	const struct hwprof_hist_sample *key_sample; /* its comm, interned */
	const char *key_comm;
	uint32_t key_comm_id;
	struct rpt_map short_ids;   /* (long name pointer, kernel) -> id */
	struct { const char *dso; bool kernel; uint32_t id; } short_last[8]; /* in
	                             * front of it: chains go through few DSOs */
	const char **short_names;   /* by id (ids are shared with comms) */
	size_t cap_short;
	size_t cap_frame_ids, cap_cache;
	bool need_collapse;
	int64_t last;               /* the entry the last sample went to */
	uint64_t cacheline;         /* the dcacheline key's line size */
	const struct hwprof_symbols *names; /* perf's names for DSOs, or NULL */
	bool elided[HWPROF_HK_NR];  /* keys the output order skips */
	uint64_t add_weight, add_ins_lat; /* the sample being added */
	unsigned add_cpumode;       /* its cpumode, or its frame's (perf's
	                             * fill_callchain_info() sets it by map) */
	struct hwprof_hist_dyn dyn[HWPROF_HK_NR_DYN]; /* dynamic keys of this hist */
	bool dyn_set[HWPROF_HK_NR_DYN];
	size_t dyn_len[HWPROF_HK_NR_DYN];   /* perf's hde->dynamic_len */
	hwprof_srcline_fn srcline_fn, srcfile_fn, trace_fn;
	void *srcline_ctx, *srcfile_ctx, *trace_ctx;
	struct rpt_strings strs;
	struct rpt_map ids;         /* interned string pointer -> id */
	uint32_t *sorted, *rank;    /* ids in strcmp order; each id's place */
	const char **id_str;
	size_t nr_sorted, cap_sorted, cap_rank, cap_id_str;
	uint64_t total_period, nr_samples;
	uint64_t shown_period, shown_samples;
	uint32_t *order;            /* output order (indexes into e) */
	size_t n_out;               /* entries left after collapsing */
	struct ht_tree coll;        /* perf's entries_collapsed */
	bool collapsed, finished;
	/* group view: the members' hists and, per member, each entry's pair
	 * there (HT_NIL: none) */
	struct hwprof_hist *members[HWPROF_HIST_MAX_MEMBERS];
	uint32_t nr_members;
	int group_sort_idx;         /* perf's --group-sort-idx (0: none) */
	uint32_t *pair[HWPROF_HIST_MAX_MEMBERS];
	size_t pair_cap[HWPROF_HIST_MAX_MEMBERS];
};

static const struct { const char *name; enum hwprof_hist_key key; } key_names[] = {
	{ "comm", HWPROF_HK_COMM }, { "pid", HWPROF_HK_PID }, { "dso", HWPROF_HK_DSO },
	{ "sym", HWPROF_HK_SYM }, { "symbol", HWPROF_HK_SYM }, { "cpu", HWPROF_HK_CPU },
	{ "overhead", HWPROF_HK_OVERHEAD }, { "overhead_children", HWPROF_HK_CHILDREN },
	{ "sample", HWPROF_HK_SAMPLES }, { "period", HWPROF_HK_PERIOD }, { "srcline", HWPROF_HK_SRCLINE },
	{ "symbol_size", HWPROF_HK_SYM_SIZE }, { "dso_size", HWPROF_HK_DSO_SIZE }, { "addr", HWPROF_HK_ADDR },
	{ "ins_lat", HWPROF_HK_INS_LAT }, { "time", HWPROF_HK_TIME }, { "local_weight", HWPROF_HK_LOCAL_WEIGHT }, { "weight", HWPROF_HK_WEIGHT }, { "mem", HWPROF_HK_MEM },
	{ "symbol_daddr", HWPROF_HK_SYM_DADDR }, { "dso_daddr", HWPROF_HK_DSO_DADDR }, { "snoop", HWPROF_HK_SNOOP },
	{ "tlb", HWPROF_HK_TLB }, { "locked", HWPROF_HK_LOCKED }, { "blocked", HWPROF_HK_BLOCKED },
	{ "local_ins_lat", HWPROF_HK_LOCAL_INS_LAT }, { "ipc_null", HWPROF_HK_IPC_NULL },
	{ "dso_from", HWPROF_HK_DSO_FROM }, { "dso_to", HWPROF_HK_DSO_TO }, { "symbol_from", HWPROF_HK_SYM_FROM },
	{ "symbol_to", HWPROF_HK_SYM_TO }, { "mispredict", HWPROF_HK_MISPREDICT }, { "in_tx", HWPROF_HK_IN_TX },
	{ "abort", HWPROF_HK_ABORT }, { "cycles", HWPROF_HK_CYCLES }, { "addr_from", HWPROF_HK_ADDR_FROM },
	{ "addr_to", HWPROF_HK_ADDR_TO }, { "srcline_from", HWPROF_HK_SRCLINE_FROM },
	{ "srcline_to", HWPROF_HK_SRCLINE_TO }, { "dcacheline", HWPROF_HK_DCACHELINE },
	{ "socket", HWPROF_HK_SOCKET }, { "srcfile", HWPROF_HK_SRCFILE }, { "transaction", HWPROF_HK_TRANSACTION },
	{ "trace", HWPROF_HK_TRACE }, { "cgroup", HWPROF_HK_CGROUP }, { "cgroup_id", HWPROF_HK_CGROUP_ID },
	{ "code_page_size", HWPROF_HK_CODE_PAGE_SIZE }, { "parent", HWPROF_HK_PARENT },
	{ "data_page_size", HWPROF_HK_DATA_PAGE_SIZE }, { "phys_daddr", HWPROF_HK_PHYS_DADDR },
	{ "symbol_iaddr", HWPROF_HK_SYM_IADDR },
	{ "overhead_sys", HWPROF_HK_OVERHEAD_SYS }, { "overhead_us", HWPROF_HK_OVERHEAD_US },
	{ "overhead_guest_sys", HWPROF_HK_OVERHEAD_GUEST_SYS }, { "overhead_guest_us", HWPROF_HK_OVERHEAD_GUEST_US },
};

HWPROF_API int hwprof_hist_key_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcmp(name, key_names[i].name))
			return (int)key_names[i].key;
	return -1;
}

HWPROF_API uint64_t hwprof_hist_entry_addr(const struct hwprof_hist_entry *e)
{
	/* perf's map unmap_ip(); kernel maps are the identity */
	if (!e->dso || e->kernel_map)
		return e->ip;
	return e->ip + e->map_start - e->map_pgoff;
}

HWPROF_API const char *hwprof_hist_key_name(enum hwprof_hist_key k)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == k)
			return key_names[i].name;
	return "?";
}

HWPROF_API void hwprof_dso_short_name(const char *name, bool kernel_map, char *out, size_t len)
{
	if (!len)
		return;
	int tid;
	if (sscanf(name, "/tmp/perf-%d.map", &tid) == 1) {
		/* anonymous executable memory: perf names it by thread */
		snprintf(out, len, "[JIT] tid %d", tid);
		return;
	}
	const char *base = rpt_basename(name);
	size_t bl = strlen(base);
	/* kernel modules: "[name]" without .ko[.xz|.gz|.zst], '-' as '_' */
	const char *ko = kernel_map && name[0] == '/' ? strstr(base, ".ko") : NULL;
	if (ko && (ko[3] == 0 || ko[3] == '.')) {
		size_t n = (size_t)(ko - base), o = 0;
		if (o + 1 < len)
			out[o++] = '[';
		for (size_t i = 0; i < n && o + 1 < len; i++)
			out[o++] = base[i] == '-' ? '_' : base[i];
		if (o + 1 < len)
			out[o++] = ']';
		out[o] = 0;
		return;
	}
	if (bl >= len)
		bl = len - 1;
	memcpy(out, base, bl);
	out[bl] = 0;
}

HWPROF_API int hwprof_hist_new(struct hwprof_hist **out, const enum hwprof_hist_key *sort, size_t nr_sort)
{
	if (nr_sort > HWPROF_HK_NR * 2)
		return -HWPROF_E_INVAL;
	struct hwprof_hist *h = calloc(1, sizeof(*h));
	if (h)
		h->last = -1;
	if (!h)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < nr_sort; i++) {
		if ((unsigned)sort[i] >= HWPROF_HK_NR) {
			free(h);
			return -HWPROF_E_INVAL;
		}
		h->sort[h->nr_sort++] = sort[i];
		if (sort[i] < HWPROF_HK_FIRST_FIELD)
			h->keys[h->nr_keys++] = sort[i];
	}
	for (size_t i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == HWPROF_HK_COMM)
			h->need_collapse = true;
	h->fast = true;
	bool dso_seen = false;
	for (size_t i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case HWPROF_HK_COMM:
		case HWPROF_HK_PID:
		case HWPROF_HK_CPU:
			break;
		case HWPROF_HK_DSO:
			dso_seen = true;
			break;
		case HWPROF_HK_SYM:
			h->fast &= dso_seen;
			h->sym_key = true;
			break;
		default:
			h->fast = false;
			break;
		}
	}
	ht_init(&h->in);
	ht_init(&h->coll);
	*out = h;
	return 0;
}

HWPROF_API void hwprof_hist_free(struct hwprof_hist *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		free((void *)h->e[i].raw);
	free(h->e);
	ht_free(&h->in);
	ht_free(&h->coll);
	hix_free(&h->ix);
	for (uint32_t k = 0; k < h->nr_members; k++)
		free(h->pair[k]);
	hc_free(&h->trie);
	rpt_map_free(&h->short_ids);
	free(h->short_names);
	free(h->frame_ids);
	free(h->cache);
	free(h->span);
	free(h->order);
	rpt_strings_free(&h->strs);
	rpt_map_free(&h->ids);
	free(h->sorted);
	free(h->rank);
	free(h->id_str);
	free(h);
}

/* Interned string and a dense id for it (equal strings, equal ids). */
static int intern_id(struct hwprof_hist *h, const char *s, const char **out, uint32_t *id)
{
	const char *p = rpt_intern(&h->strs, s);
	if (!p)
		return -HWPROF_E_NOMEM;
	uint32_t v = (uint32_t)h->ids.len;
	int r = rpt_map_get(&h->ids, (uint64_t)(uintptr_t)p, 0, &v, true);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 0) {
		/* a new string: its place in strcmp order, so compares are
		 * rank compares (few distinct comms and DSOs) */
		if (rpt_grow(&h->sorted, &h->cap_sorted, h->nr_sorted + 1, sizeof(*h->sorted)) < 0 ||
		    rpt_grow(&h->rank, &h->cap_rank, (size_t)v + 1, sizeof(*h->rank)) < 0 ||
		    rpt_grow(&h->id_str, &h->cap_id_str, (size_t)v + 1, sizeof(*h->id_str)) < 0)
			return -HWPROF_E_NOMEM;
		h->id_str[v] = p;
		size_t lo = 0, hi = h->nr_sorted;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strcmp(h->id_str[h->sorted[mid]], p) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(h->sorted + lo + 1, h->sorted + lo, (h->nr_sorted - lo) * sizeof(*h->sorted));
		h->sorted[lo] = v;
		h->nr_sorted++;
		for (size_t i = lo; i < h->nr_sorted; i++)
			h->rank[h->sorted[i]] = (uint32_t)i;
	}
	*out = p;
	*id = v;
	return 0;
}

HWPROF_API int hwprof_hist_rename_comm(struct hwprof_hist *h, const char *from, const char *to)
{
	const char *pf = rpt_intern(&h->strs, from);
	uint32_t x;
	if (!pf)
		return -HWPROF_E_NOMEM;
	if (rpt_map_get(&h->ids, (uint64_t)(uintptr_t)pf, 0, &x, false) != 1)
		return 0; /* no entry has it */
	const char *pt = rpt_intern(&h->strs, to);
	if (!pt)
		return -HWPROF_E_NOMEM;
	uint32_t y = x;
	int r = rpt_map_get(&h->ids, (uint64_t)(uintptr_t)pt, 0, &y, false);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 0) {
		/* the id takes the new text: its map key and its place in
		 * strcmp order move */
		y = x;
		if (rpt_map_get(&h->ids, (uint64_t)(uintptr_t)pt, 0, &y, true) < 0)
			return -HWPROF_E_NOMEM;
		h->id_str[x] = pt;
		size_t at = 0;
		while (h->sorted[at] != x)
			at++;
		memmove(h->sorted + at, h->sorted + at + 1, (h->nr_sorted - at - 1) * sizeof(*h->sorted));
		size_t lo = 0, hi = h->nr_sorted - 1;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strcmp(h->id_str[h->sorted[mid]], pt) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(h->sorted + lo + 1, h->sorted + lo, (h->nr_sorted - 1 - lo) * sizeof(*h->sorted));
		h->sorted[lo] = x;
		for (size_t i = 0; i < h->nr_sorted; i++)
			h->rank[h->sorted[i]] = (uint32_t)i;
	}
	/* entries keep their places in the trees, as perf's do: the
	 * tree's order is no longer the ranks', the index cannot stand for
	 * its walk */
	h->fast = false;
	for (size_t i = 0; i < h->n; i++)
		if (h->e[i].comm_id == x) {
			h->e[i].comm_id = y;
			h->e[i].comm = pt;
		}
	h->key_sample = NULL;
	return 0;
}

static uint64_t sym_size(const struct hwprof_sym *s)
{
	return s ? s->end - s->start : 0;
}

/* perf's cmp_null(l, r): a missing value sorts as the larger one */
static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int sgn64(int64_t v)
{
	return v < 0 ? -1 : v > 0;
}

/* perf's field_cmp for output fields: the larger value sorts first */
static int u64_cmp(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/* strcmp(b, a) of two interned strings, by their ranks */
static int str_cmp_ids(const struct hwprof_hist *h, uint32_t a, uint32_t b)
{
	return a == b ? 0 : h->rank[b] < h->rank[a] ? -1 : 1;
}

/* The same for strings of entries of two hists (the group view pairs
 * them): ranks within one hist, the text across two. */
static int str_cmp2(const struct hwprof_hist *ha, const struct hwprof_hist *hb, const char *sa, uint32_t ia,
		    const char *sb, uint32_t ib)
{
	if (ha == hb)
		return str_cmp_ids(ha, ia, ib);
	return sgn64(strcmp(sb, sa));
}

static int dso_cmp(const struct hwprof_hist *ha, const struct hwprof_hist *hb, const struct hwprof_hist_entry *a,
		   const struct hwprof_hist_entry *b)
{
	if (!a->dso_short || !b->dso_short)
		return cmp_null(a->dso_short, b->dso_short);
	return str_cmp2(ha, hb, a->dso_short, a->dso_id, b->dso_short, b->dso_id);
}

/* the trace key's text, like srcfile; interned: the caller's is reused */
static const char *trace_of(const struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	if (!e->trace) {
		const char *t = h->trace_fn ? h->trace_fn(h->trace_ctx, e) : NULL;
		t = t ? rpt_intern((struct rpt_strings *)&h->strs, t) : NULL;
		((struct hwprof_hist_entry *)e)->trace = t ? t : "";
	}
	return e->trace;
}

/* perf's __sort__hde_cmp(): the field's bytes, where left's data puts
 * a __data_loc (whose length widens the column); bytes past a sample's
 * raw data count as zeros */
static int dyn_cmp(const struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_entry *a,
		   const struct hwprof_hist_entry *b)
{
	const struct hwprof_hist_dyn *d = &h->dyn[slot];
	uint64_t off = (uint64_t)d->offset, size = (uint64_t)d->size;
	if (d->data_loc) {
		uint32_t v = 0;
		if (a->raw && off + 4 <= a->raw_size)
			memcpy(&v, a->raw + off, 4); /* raw data in host order */
		uint64_t rel = d->relative ? off + (uint64_t)d->size : 0;
		off = (v & 0xffff) + rel;
		size = v >> 16;
		if (size > h->dyn_len[slot])
			((struct hwprof_hist *)h)->dyn_len[slot] = size;
	}
	for (uint64_t i = 0; i < size; i++) {
		uint8_t x = a->raw && off + i < a->raw_size ? a->raw[off + i] : 0;
		uint8_t y = b->raw && off + i < b->raw_size ? b->raw[off + i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* perf's update_dynamic_len(): the value after "name" and one character
 * in the entry's text, up to a space */
static void dyn_text_len(struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_entry *e)
{
	const struct hwprof_hist_dyn *d = &h->dyn[slot];
	if (d->raw)
		return;
	const char *str = trace_of(h, e);
	size_t n = strlen(d->name);
	while (str) {
		const char *pos = strchr(str, ' ');
		bool last = !pos;
		if (!pos)
			pos = str + strlen(str);
		if (!strncmp(str, d->name, n)) {
			size_t len = str + n + 1 <= pos ? (size_t)(pos - (str + n + 1)) : 0;
			if (len > h->dyn_len[slot])
				h->dyn_len[slot] = len;
			break;
		}
		str = last ? NULL : pos + 1;
	}
}

/* perf computes an entry's srcline the first time a comparison needs it */
static const char *srcline_of(const struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	if (!e->srcline)
		((struct hwprof_hist_entry *)e)->srcline = h->srcline_fn ? h->srcline_fn(h->srcline_ctx, e) : "??:0";
	return e->srcline;
}

/* perf's addr_map_symbol__srcline() of a branch end (end 0: the source,
 * 1: the target), made the first time a comparison needs it: the srcline
 * function asked about an entry standing for that end */
static const char *srcline_end_of(const struct hwprof_hist *h, const struct hwprof_hist_entry *e, int end)
{
	if (!e->srcline_end[end]) {
		const struct hwprof_hist_branch_end *b = end ? &e->br.to : &e->br.from;
		struct hwprof_hist_entry t;
		memset(&t, 0, sizeof(t));
		t.dso = b->dso;
		t.dso_short = end ? e->to_dso_short : e->from_dso_short;
		t.kernel_map = b->kernel_map;
		t.sym = b->sym;
		t.ip = b->al_addr;
		t.map_start = b->map_start;
		t.map_pgoff = b->map_pgoff;
		((struct hwprof_hist_entry *)e)->srcline_end[end] =
			h->srcline_fn ? h->srcline_fn(h->srcline_ctx, &t) : "??:0";
	}
	return e->srcline_end[end];
}

/* the srcfile key's text, also computed when a comparison first needs it */
static const char *srcfile_of(const struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	if (!e->srcfile)
		((struct hwprof_hist_entry *)e)->srcfile = h->srcfile_fn ? h->srcfile_fn(h->srcfile_ctx, e) : "";
	return e->srcfile;
}

/* perf's _sort__sym_cmp(): symbols alone (no DSO), inlined stand-ins by
 * name and overlap, then start and end */
static int sym_only_cmp(const struct hwprof_sym *l, const struct hwprof_sym *r)
{
	if (!l || !r)
		return cmp_null(l, r);
	if (l == r)
		return 0;
	if (l->inlined || r->inlined) {
		int c = strcmp(l->name, r->name);
		if (c)
			return c < 0 ? -1 : 1;
		if (l->start <= r->end && l->end >= r->start)
			return 0;
	}
	if (l->start != r->start)
		return sgn64((int64_t)(r->start - l->start));
	return sgn64((int64_t)(r->end - l->end));
}

/* perf's branch keys (sort__dso_from_cmp() ...): entries without a branch
 * sort first; the DSO keys take the maps in the order _sort__dso_cmp()
 * gets them here (the reverse of the dso key's) */
static int branch_cmp(const struct hwprof_hist *ha, const struct hwprof_hist *hb, enum hwprof_hist_key k,
		      const struct hwprof_hist_entry *a, const struct hwprof_hist_entry *b)
{
	if (!a->has_branch || !b->has_branch)
		return cmp_null(a->has_branch ? a : NULL, b->has_branch ? b : NULL);
	const struct hwprof_hist_branch *l = &a->br, *r = &b->br;
	switch (k) {
	case HWPROF_HK_SRCLINE_FROM:
	case HWPROF_HK_SRCLINE_TO: { /* perf's sort__srcline_from_cmp: the texts */
		int end = k == HWPROF_HK_SRCLINE_TO;
		return sgn64(strcmp(srcline_end_of(hb, b, end), srcline_end_of(ha, a, end)));
	}
	case HWPROF_HK_DSO_FROM:
	case HWPROF_HK_DSO_TO: {
		bool from = k == HWPROF_HK_DSO_FROM;
		const char *sl = from ? a->from_dso_short : a->to_dso_short;
		const char *sr = from ? b->from_dso_short : b->to_dso_short;
		if (!sl || !sr)
			return cmp_null(sr, sl);
		return -str_cmp2(ha, hb, sl, from ? a->from_dso_id : a->to_dso_id, sr,
				 from ? b->from_dso_id : b->to_dso_id);
	}
	case HWPROF_HK_SYM_FROM:
	case HWPROF_HK_SYM_TO: {
		const struct hwprof_hist_branch_end *el = k == HWPROF_HK_SYM_FROM ? &l->from : &l->to;
		const struct hwprof_hist_branch_end *er = k == HWPROF_HK_SYM_FROM ? &r->from : &r->to;
		if (!el->sym && !er->sym)
			return sgn64((int64_t)(er->addr - el->addr));
		return sym_only_cmp(el->sym, er->sym);
	}
	case HWPROF_HK_ADDR_FROM:
	case HWPROF_HK_ADDR_TO: {
		/* the DSOs as for dso_from, then the raw addresses */
		bool from = k == HWPROF_HK_ADDR_FROM;
		const char *sl = from ? a->from_dso_short : a->to_dso_short;
		const char *sr = from ? b->from_dso_short : b->to_dso_short;
		if (!sl || !sr) {
			if (sl || sr)
				return cmp_null(sr, sl);
		} else {
			int c = -str_cmp2(ha, hb, sl, from ? a->from_dso_id : a->to_dso_id, sr,
					  from ? b->from_dso_id : b->to_dso_id);
			if (c)
				return c;
		}
		const struct hwprof_hist_branch_end *el = from ? &l->from : &l->to;
		const struct hwprof_hist_branch_end *er = from ? &r->from : &r->to;
		return sgn64((int64_t)(er->addr - el->addr));
	}
	/* perf: 1 when they differ, never -1 */
	case HWPROF_HK_MISPREDICT: return l->mispred != r->mispred || l->predicted != r->predicted;
	case HWPROF_HK_IN_TX: return l->in_tx != r->in_tx;
	case HWPROF_HK_ABORT: return l->abort != r->abort;
	case HWPROF_HK_CYCLES: return sgn64((int64_t)l->cycles - (int64_t)r->cycles);
	default: return 0;
	}
}

/* perf's se_cmp(left = a, right = b) for one key; a is an entry of ha,
 * b of hb */
/* perf's cl_address(): the line of addr */
static uint64_t cl_address(const struct hwprof_hist *h, uint64_t addr)
{
	return h->cacheline ? addr & ~(h->cacheline - 1) : addr;
}

/* perf's map_ip of the data address (al_addr): DSO-relative in a map,
 * kernel maps being the identity */
static uint64_t daddr_al_addr(const struct hwprof_hist_entry *e)
{
	if (!e->daddr_dso || e->daddr_kernel_map || e->daddr_map.identity)
		return e->daddr;
	return e->daddr - e->daddr_map_start + e->daddr_map_pgoff;
}

HWPROF_API uint64_t hwprof_hist_entry_dcacheline(const struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	return cl_address(h, daddr_al_addr(e));
}

/* perf's sort__dcacheline_cmp(): kernel samples before user ones, then
 * the data map's DSO id, anonymous user memory by process, then the
 * cache line (each "left > right" first) */
static int dcacheline_cmp(const struct hwprof_hist *ha, const struct hwprof_hist *hb,
			  const struct hwprof_hist_entry *a, const struct hwprof_hist_entry *b)
{
	if (a->cpumode != b->cpumode)
		return a->cpumode > b->cpumode ? -1 : 1;
	if (a->daddr_dso || b->daddr_dso) {
		if (!a->daddr_dso || !b->daddr_dso)
			return a->daddr_dso ? 1 : -1;
		const struct hwprof_hist_dmap *l = &a->daddr_map, *r = &b->daddr_map;
		if (l->maj != r->maj)
			return l->maj > r->maj ? -1 : 1;
		if (l->min != r->min)
			return l->min > r->min ? -1 : 1;
		if (l->ino != r->ino)
			return l->ino > r->ino ? -1 : 1;
		if (l->ino_generation && r->ino_generation && l->ino_generation != r->ino_generation)
			return l->ino_generation > r->ino_generation ? -1 : 1;
		bool anon = !l->maj && !l->min && !l->ino && !l->ino_generation;
		if (a->cpumode != HWPROF_MISC_KERNEL && !(l->flags & 0x01 /* MAP_SHARED */) && anon &&
		    a->pid != b->pid)
			return a->pid > b->pid ? -1 : 1;
	}
	uint64_t x = cl_address(ha, daddr_al_addr(a)), y = cl_address(hb, daddr_al_addr(b));
	return x > y ? -1 : x < y;
}

static int key_cmp2(const struct hwprof_hist *ha, const struct hwprof_hist *hb, enum hwprof_hist_key k,
		    const struct hwprof_hist_entry *a, const struct hwprof_hist_entry *b)
{
	switch (k) {
	case HWPROF_HK_COMM:
		return str_cmp2(ha, hb, a->comm, a->comm_id, b->comm, b->comm_id);
	case HWPROF_HK_PID: return sgn64((int64_t)b->tid - a->tid);
	case HWPROF_HK_CPU: return sgn64((int64_t)b->cpu - a->cpu);
	case HWPROF_HK_DSO: return dso_cmp(ha, hb, a, b);
	case HWPROF_HK_DCACHELINE: return dcacheline_cmp(ha, hb, a, b);
	case HWPROF_HK_SYM_SIZE: {
		uint64_t l = sym_size(b->sym), r = sym_size(a->sym);
		return l < r ? -1 : l > r;
	}
	case HWPROF_HK_DSO_SIZE: { /* perf passes the maps the other way round */
		uint64_t l = b->dso ? b->map_size : 0, r = a->dso ? a->map_size : 0;
		return l < r ? -1 : l > r;
	}
	case HWPROF_HK_ADDR: return sgn64((int64_t)(hwprof_hist_entry_addr(b) - hwprof_hist_entry_addr(a)));
	case HWPROF_HK_INS_LAT: return sgn64((int64_t)(a->ins_lat1 - b->ins_lat1));
	case HWPROF_HK_TIME: return sgn64((int64_t)(b->time - a->time));
	case HWPROF_HK_SYM: {
		if (!a->sym && !b->sym)
			return sgn64((int64_t)(b->ip - a->ip));
		int d = dso_cmp(ha, hb, a, b);
		return d ? d : sym_only_cmp(a->sym, b->sym);
	}
	/* perf's memory keys: right minus left of the field */
	case HWPROF_HK_LOCAL_WEIGHT: {
		uint64_t l = a->nr_samples ? a->weight / a->nr_samples : 0;
		uint64_t r = b->nr_samples ? b->weight / b->nr_samples : 0;
		return sgn64((int64_t)(l - r));
	}
	case HWPROF_HK_WEIGHT: return sgn64((int64_t)(a->weight1 - b->weight1));
	case HWPROF_HK_LOCAL_INS_LAT: {
		uint64_t l = a->nr_samples ? a->ins_lat / a->nr_samples : 0;
		uint64_t r = b->nr_samples ? b->ins_lat / b->nr_samples : 0;
		return sgn64((int64_t)(l - r));
	}
	case HWPROF_HK_MEM: return sgn64((int64_t)(((b->data_src >> 5) & 0x3fff) - ((a->data_src >> 5) & 0x3fff)));
	case HWPROF_HK_SNOOP: return sgn64((int64_t)(((b->data_src >> 19) & 0x1f) - ((a->data_src >> 19) & 0x1f)));
	case HWPROF_HK_TLB: return sgn64((int64_t)(((b->data_src >> 26) & 0x7f) - ((a->data_src >> 26) & 0x7f)));
	case HWPROF_HK_LOCKED: return sgn64((int64_t)(((b->data_src >> 24) & 3) - ((a->data_src >> 24) & 3)));
	case HWPROF_HK_BLOCKED: return sgn64((int64_t)(((b->data_src >> 40) & 7) - ((a->data_src >> 40) & 7)));
	case HWPROF_HK_SYM_DADDR: return sgn64((int64_t)(b->daddr - a->daddr));
	case HWPROF_HK_IPC_NULL: /* perf gives it the symbol compare */
		return key_cmp2(ha, hb, HWPROF_HK_SYM, a, b);
	case HWPROF_HK_DSO_DADDR:
		/* perf's _sort__dso_cmp(left, right): the dso key passes them
		 * the other way round */
		if (!a->daddr_dso_short || !b->daddr_dso_short)
			return cmp_null(b->daddr_dso_short, a->daddr_dso_short);
		return -str_cmp2(ha, hb, a->daddr_dso_short, a->daddr_dso_id, b->daddr_dso_short, b->daddr_dso_id);
	case HWPROF_HK_DSO_FROM:
	case HWPROF_HK_DSO_TO:
	case HWPROF_HK_SYM_FROM:
	case HWPROF_HK_SYM_TO:
	case HWPROF_HK_MISPREDICT:
	case HWPROF_HK_IN_TX:
	case HWPROF_HK_ABORT:
	case HWPROF_HK_CYCLES:
	case HWPROF_HK_ADDR_FROM:
	case HWPROF_HK_ADDR_TO:
	case HWPROF_HK_SRCLINE_FROM:
	case HWPROF_HK_SRCLINE_TO:
		return branch_cmp(ha, hb, k, a, b);
	case HWPROF_HK_SRCLINE: /* perf 6.1's sort__srcline_cmp: by the text */
		return sgn64(strcmp(srcline_of(hb, b), srcline_of(ha, a)));
	/* perf's right - left of the socket, cgroup and page sizes, left -
	 * right of the transaction flags and the cgroup namespace */
	case HWPROF_HK_SOCKET: return sgn64((int64_t)b->socket - a->socket);
	case HWPROF_HK_TRANSACTION: return sgn64((int64_t)(a->transaction - b->transaction));
	case HWPROF_HK_CGROUP: return sgn64((int64_t)(b->cgroup - a->cgroup));
	case HWPROF_HK_CGROUP_ID: {
		int c = sgn64((int64_t)(a->cgroup_dev - b->cgroup_dev));
		return c ? c : sgn64((int64_t)(a->cgroup_ino - b->cgroup_ino));
	}
	case HWPROF_HK_CODE_PAGE_SIZE: return sgn64((int64_t)(b->code_page_size - a->code_page_size));
	case HWPROF_HK_DATA_PAGE_SIZE: return sgn64((int64_t)(b->data_page_size - a->data_page_size));
	case HWPROF_HK_PHYS_DADDR: return sgn64((int64_t)(b->phys_addr - a->phys_addr));
	case HWPROF_HK_SRCFILE: return sgn64(strcmp(srcfile_of(hb, b), srcfile_of(ha, a)));
	case HWPROF_HK_TRACE: /* perf: equal unless tracepoints */
		if (!a->tracepoint || !b->tracepoint)
			return 0;
		return sgn64(strcmp(trace_of(hb, b), trace_of(ha, a)));
	case HWPROF_HK_PARENT:
		if (!a->parent || !b->parent)
			return cmp_null(a->parent, b->parent);
		return sgn64(strcmp(b->parent, a->parent));
	case HWPROF_HK_SYM_IADDR: /* perf: the sample addresses, right - left */
		return sgn64((int64_t)(hwprof_hist_entry_addr(b) - hwprof_hist_entry_addr(a)));
	case HWPROF_HK_OVERHEAD_SYS: return u64_cmp(a->period_sys, b->period_sys);
	case HWPROF_HK_OVERHEAD_US: return u64_cmp(a->period_us, b->period_us);
	case HWPROF_HK_OVERHEAD_GUEST_SYS: return u64_cmp(a->period_guest_sys, b->period_guest_sys);
	case HWPROF_HK_OVERHEAD_GUEST_US: return u64_cmp(a->period_guest_us, b->period_guest_us);
	case HWPROF_HK_OVERHEAD: return u64_cmp(a->period, b->period);
	case HWPROF_HK_CHILDREN: return u64_cmp(a->acc_period, b->acc_period);
	case HWPROF_HK_PERIOD: return u64_cmp(a->period, b->period);
	case HWPROF_HK_SAMPLES: return u64_cmp(a->nr_samples, b->nr_samples);
	case HWPROF_HK_NR: break;
	default:
		if (HWPROF_HK_IS_DYN(k)) { /* perf skips keys of other events */
			unsigned slot = (unsigned)(k - HWPROF_HK_DYN0);
			return ha->dyn_set[slot] ? dyn_cmp(ha, slot, a, b) : 0;
		}
		break;
	}
	return 0;
}

static int key_cmp(const struct hwprof_hist *h, enum hwprof_hist_key k, const struct hwprof_hist_entry *a,
		   const struct hwprof_hist_entry *b)
{
	return key_cmp2(h, h, k, a, b);
}

/* perf's se_sort (output order) for one key: like cmp except symbols,
 * which sort by name */
static int key_sort(const struct hwprof_hist *h, enum hwprof_hist_key k, const struct hwprof_hist_entry *a,
		    const struct hwprof_hist_entry *b)
{
	if (k == HWPROF_HK_SRCLINE) /* by the text */
		return sgn64(strcmp(srcline_of(h, b), srcline_of(h, a)));
	if (k != HWPROF_HK_SYM)
		return key_cmp(h, k, a, b);
	if (!a->sym || !b->sym)
		return cmp_null(a->sym, b->sym);
	return sgn64(strcmp(b->sym->name, a->sym->name));
}

/* entry_cmp(a, b) == 0, without ordering strings (also the identity
 * index's compare: its keys are the cheap cases here) */
static bool entry_eq(const struct hwprof_hist *h, const struct hwprof_hist_entry *a,
		     const struct hwprof_hist_entry *b)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case HWPROF_HK_COMM:
			if (a->comm_id != b->comm_id)
				return false;
			break;
		case HWPROF_HK_PID:
			if (a->tid != b->tid)
				return false;
			break;
		case HWPROF_HK_CPU:
			if (a->cpu != b->cpu)
				return false;
			break;
		case HWPROF_HK_DSO:
			if (a->dso_id != b->dso_id)
				return false;
			break;
		case HWPROF_HK_SYM:
			if (!a->sym && !b->sym) {
				if (a->ip != b->ip)
					return false;
				break;
			}
			if (a->dso_id != b->dso_id || !a->sym || !b->sym)
				return false;
			if (a->sym != b->sym && (a->sym->inlined || b->sym->inlined)) {
				if (key_cmp(h, HWPROF_HK_SYM, a, b))
					return false;
				break;
			}
			if (a->sym != b->sym && (a->sym->start != b->sym->start || a->sym->end != b->sym->end))
				return false;
			break;
		default:
			if (key_cmp(h, h->keys[i], a, b))
				return false;
			break;
		}
	}
	return true;
}

static int entry_cmp(const struct hwprof_hist *h, const struct hwprof_hist_entry *a,
		     const struct hwprof_hist_entry *b)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		int c = key_cmp(h, h->keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

/* The key fields of an entry for a sample or a callchain frame. */
static int dso_short_id(struct hwprof_hist *h, const char *dso, bool kernel_map, uint32_t *id,
			const char **name);

static int make_key(struct hwprof_hist *h, struct hwprof_hist_entry *k, const struct hwprof_hist_sample *s,
		    const char *dso, bool kernel_map, const struct hwprof_sym *sym, uint64_t ip, char level,
		    uint64_t map_start, uint64_t map_pgoff)
{
	memset(k, 0, sizeof(*k));
	k->filtered = s->filtered;
	int rc;
	if (h->key_sample == s) { /* frames of the sample being added */
		k->comm = h->key_comm;
		k->comm_id = h->key_comm_id;
	} else {
		if ((rc = intern_id(h, s->comm ? s->comm : "", &k->comm, &k->comm_id)) < 0)
			return rc;
		h->key_sample = s;
		h->key_comm = k->comm;
		h->key_comm_id = k->comm_id;
	}
	k->pid = s->pid;
	k->tid = s->tid;
	k->thread = s->thread;
	k->cpu = s->cpu;
	k->time = s->time;
	k->dso = dso;
	k->dso_id = UINT32_MAX;
	if (dso && (rc = dso_short_id(h, dso, kernel_map, &k->dso_id, &k->dso_short)) < 0)
		return rc;
	k->sym = sym;
	k->ip = ip;
	k->map_start = map_start;
	k->map_pgoff = map_pgoff;
	k->map_size = dso ? s->map_size : 0;
	k->kernel_map = dso && kernel_map;
	k->level = level;
	k->chain = HWPROF_CHAIN_NONE;
	/* perf's callchain entries are added with the sample's fields too */
	k->socket = s->socket;
	k->transaction = s->transaction;
	k->cgroup = s->cgroup;
	k->cgroup_dev = s->cgroup_dev;
	k->cgroup_ino = s->cgroup_ino;
	k->code_page_size = s->code_page_size;
	k->parent = s->parent;
	k->tracepoint = s->tracepoint;
	k->tp_id = s->tp_id;
	k->raw = s->raw; /* copied when the key becomes an entry */
	k->raw_size = s->raw_size;
	/* the memory side is the sample's, for its own entry */
	if (sym == s->sym && ip == s->ip) {
		/* perf's new entry holds the sample's own stats while it is
		 * compared (local_weight averages them) */
		k->nr_samples = 1;
		k->weight = k->weight1 = s->weight;
		k->ins_lat1 = s->ins_lat;
		k->ins_lat = s->ins_lat;
		k->data_src = s->data_src;
		k->daddr = s->daddr;
		k->daddr_dso = s->daddr_dso;
		k->daddr_sym = s->daddr_sym;
		k->daddr_map_start = s->daddr_map_start;
		k->daddr_map_pgoff = s->daddr_map_pgoff;
		k->daddr_kernel_map = s->daddr_kernel_map;
		k->daddr_map = s->daddr_map;
		k->cpumode = s->cpumode;
		k->daddr_dso_id = UINT32_MAX;
		k->data_page_size = s->data_page_size;
		k->phys_addr = s->phys_addr;
		if (s->daddr_dso &&
		    (rc = dso_short_id(h, s->daddr_dso, s->daddr_kernel_map, &k->daddr_dso_id, &k->daddr_dso_short)) < 0)
			return rc;
		if (s->branch) {
			k->has_branch = true;
			k->br = *s->branch;
			k->from_dso_id = k->to_dso_id = UINT32_MAX;
			if ((k->br.from.dso && (rc = dso_short_id(h, k->br.from.dso, k->br.from.kernel_map,
								   &k->from_dso_id, &k->from_dso_short)) < 0) ||
			    (k->br.to.dso && (rc = dso_short_id(h, k->br.to.dso, k->br.to.kernel_map, &k->to_dso_id,
								 &k->to_dso_short)) < 0))
				return rc;
		}
	}
	return 0;
}

/* make_key() for the next frame of the sample whose key k holds (*plain:
 * made by make_key() for this sample, without the sample's own memory
 * side): only the frame's fields change, so those are set, and the ones
 * a comparison fills in lazily cleared, instead of building all of it. */
static int frame_key(struct hwprof_hist *h, struct hwprof_hist_entry *k, const struct hwprof_hist_sample *s,
		     const struct hwprof_hist_frame *f, char level, bool *plain)
{
	bool own = f->sym == s->sym && f->ip == s->ip;
	if (!*plain || own) {
		*plain = !own;
		int rc = make_key(h, k, s, f->dso, f->kernel_map, f->sym, f->ip, level, f->map_start, f->map_pgoff);
		k->map_size = f->dso ? f->map_size : 0; /* the frame's map, not the sample's */
		return rc;
	}
	k->dso = f->dso;
	k->dso_id = UINT32_MAX;
	k->dso_short = NULL;
	int rc;
	if (f->dso && (rc = dso_short_id(h, f->dso, f->kernel_map, &k->dso_id, &k->dso_short)) < 0)
		return rc;
	k->sym = f->sym;
	k->ip = f->ip;
	k->map_start = f->map_start;
	k->map_pgoff = f->map_pgoff;
	k->map_size = f->dso ? f->map_size : 0;
	k->kernel_map = f->dso && f->kernel_map;
	k->level = level;
	k->srcline = k->srcfile = k->trace = NULL;
	k->srcline_end[0] = k->srcline_end[1] = NULL;
	return 0;
}

/* A DSO's short name, interned, by the caller's (stable) long-name
 * pointer. */
static int dso_short_id(struct hwprof_hist *h, const char *dso, bool kernel_map, uint32_t *id,
			const char **name)
{
	uint32_t v = UINT32_MAX;
	uint64_t key = (uint64_t)(uintptr_t)dso;
	size_t slot = (key >> 4) % (sizeof(h->short_last) / sizeof(h->short_last[0]));
	if (h->short_last[slot].dso == dso && h->short_last[slot].kernel == kernel_map) {
		*id = h->short_last[slot].id;
		*name = h->short_names[*id];
		return 0;
	}
	int r = rpt_map_get(&h->short_ids, key, kernel_map, &v, false);
	if (r < 0)
		return -HWPROF_E_NOMEM;
	if (r == 1) {
		*id = v;
		*name = h->short_names[v];
		h->short_last[slot].dso = dso;
		h->short_last[slot].kernel = kernel_map;
		h->short_last[slot].id = v;
		return 0;
	}
	char sn[1024];
	const char *perf = hwprof_symbols_perf_name(h->names, dso, true, sn, sizeof(sn));
	if (perf == dso)
		hwprof_dso_short_name(dso, kernel_map, sn, sizeof(sn));
	else if (perf != sn)
		snprintf(sn, sizeof(sn), "%s", perf);
	int rc = intern_id(h, sn, name, id);
	if (rc < 0)
		return rc;
	if (rpt_grow(&h->short_names, &h->cap_short, (size_t)*id + 1, sizeof(*h->short_names)) < 0)
		return -HWPROF_E_NOMEM;
	h->short_names[*id] = *name;
	v = *id;
	if (rpt_map_get(&h->short_ids, key, kernel_map, &v, true) < 0)
		return -HWPROF_E_NOMEM;
	return 0;
}

/* perf's he_stat__add_cpumode_period() */
static void add_cpumode_period(struct hwprof_hist_entry *e, unsigned cpumode, uint64_t period)
{
	switch (cpumode) {
	case HWPROF_MISC_KERNEL: e->period_sys += period; break;
	case HWPROF_MISC_USER: e->period_us += period; break;
	case HWPROF_MISC_GUEST_KERNEL: e->period_guest_sys += period; break;
	case HWPROF_MISC_GUEST_USER: e->period_guest_us += period; break;
	default: break;
	}
}

/* The identity the index keys an entry by (see hwprof_hist.fast): the
 * fields the keys compare, a symbol by its range (perf's compare looks no
 * further), an unresolved one by its address. */
static uint64_t ident_hash(const struct hwprof_hist *h, const struct hwprof_hist_entry *k)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < h->nr_keys; i++) {
		uint64_t v;
		switch (h->keys[i]) {
		case HWPROF_HK_COMM: v = k->comm_id; break;
		case HWPROF_HK_PID: v = (uint32_t)k->tid; break;
		case HWPROF_HK_CPU: v = (uint32_t)k->cpu; break;
		case HWPROF_HK_DSO: v = k->dso_id; break;
		default: /* the symbol key */
			v = k->sym ? k->sym->start ^ (k->sym->end << 21) ^ (k->sym->end >> 43) : ~k->ip;
			break;
		}
		x = (x ^ v) * 0xff51afd7ed558ccdULL; /* the final mix spreads it */
	}
	return rpt_mix64(x);
}

/* Whether the index answers for key k: an inlined stand-in's key is
 * compared by name, so it is walked. */
static bool span_wide(const struct hwprof_hist *h, const struct hwprof_hist_entry *k);

static bool use_index(const struct hwprof_hist *h, const struct hwprof_hist_entry *k)
{
	return h->fast && !(k->sym && k->sym->inlined) && !span_wide(h, k);
}

/* The entry with k's identity from the index, or HIX_NONE. */
static uint32_t ident_find(const struct hwprof_hist *h, const struct hwprof_hist_entry *k, uint64_t hash)
{
	struct hix_iter it;
	for (uint32_t x = hix_first(&h->ix, hash, &it); x != HIX_NONE; x = hix_next(&h->ix, &it))
		if (entry_eq(h, &h->e[x], k))
			return x;
	return HIX_NONE;
}

/* perf's symbol key compares addresses (an unresolved entry's, a
 * symbol's start and end) by the sign of their difference as int64_t.
 * Among addresses less than 2^63 apart that is their order; once an
 * entry's is further from another of its DSO's (a kernel address and a
 * user one among unresolved frames, a garbage frame-pointer return
 * address), the order within that DSO is no longer transitive, perf's walk
 * of entries_in can miss an equal entry there and make a second one, and
 * the index cannot stand for it. Other DSOs' entries keep their order
 * (the keys before the symbol order them among the rest), so their walks
 * still find what the index finds. Returns < 0 on allocation failure. */
static size_t span_slot(const struct hwprof_hist_entry *k)
{
	return k->dso_id == UINT32_MAX ? 0 : (size_t)k->dso_id + 1; /* 0: no DSO */
}

static int note_addrs(struct hwprof_hist *h, const struct hwprof_hist_entry *k)
{
	size_t slot = span_slot(k);
	if (slot >= h->cap_span) {
		size_t old = h->cap_span;
		if (rpt_grow(&h->span, &h->cap_span, slot + 1, sizeof(*h->span)) < 0)
			return -HWPROF_E_NOMEM;
		for (size_t i = old; i < h->cap_span; i++)
			h->span[i] = (struct addr_span){UINT64_MAX, 0, false};
	}
	struct addr_span *sp = &h->span[slot];
	uint64_t v[2] = {k->sym ? k->sym->start : k->ip, k->sym ? k->sym->end : k->ip};
	for (int i = 0; i < 2; i++) {
		sp->lo = v[i] < sp->lo ? v[i] : sp->lo;
		sp->hi = v[i] > sp->hi ? v[i] : sp->hi;
	}
	if (sp->hi - sp->lo > (uint64_t)INT64_MAX)
		sp->wide = true;
	return 0;
}

/* Whether k's DSO has addresses too far apart for the index (above). */
static bool span_wide(const struct hwprof_hist *h, const struct hwprof_hist_entry *k)
{
	size_t slot = span_slot(k);
	return slot < h->cap_span && h->span[slot].wide;
}

/* perf's hists__findnew_entry(): walk the tree with cmp(iter, new), < 0
 * going left, or link a new entry where the walk ended (found: the index
 * when it answers, HIX_NONE: walk). Returns the entry index or < 0. */
static int64_t find_entry(struct hwprof_hist *h, const struct hwprof_hist_entry *k, uint32_t found)
{
	bool indexed = use_index(h, k);
	uint64_t hash = 0;
	if (indexed) {
		hash = ident_hash(h, k);
		if (found == HIX_NONE)
			found = ident_find(h, k, hash);
		if (found != HIX_NONE)
			return found;
	}
	uint32_t x = h->in.root, parent = HT_NIL;
	bool left = false;
	while (x != HT_NIL) {
		int c = entry_cmp(h, &h->e[x], k);
		if (!c)
			return x;
		parent = x;
		left = c < 0;
		x = left ? h->in.n[x].left : h->in.n[x].right;
	}
	if (h->n >= UINT32_MAX - 2)
		return -HWPROF_E_NOMEM;
	if (rpt_grow(&h->e, &h->cap, h->n + 1, sizeof(*h->e)) < 0 || ht_reserve(&h->in, h->n + 1) < 0)
		return -HWPROF_E_NOMEM;
	x = (uint32_t)h->n;
	h->e[x] = *k;
	if (k->raw) { /* perf's hist entry keeps a copy of the raw data */
		void *raw = malloc(k->raw_size ? k->raw_size : 1);
		if (!raw)
			return -HWPROF_E_NOMEM;
		memcpy(raw, k->raw, k->raw_size);
		h->e[x].raw = raw;
	}
	h->e[x].nr_samples = 0; /* counted below */
	h->e[x].period_sys = h->e[x].period_us = h->e[x].period_guest_sys = h->e[x].period_guest_us = 0;
	h->e[x].weight = 0;
	h->e[x].ins_lat = 0;
	if (h->chains && hc_new_root(&h->trie, &h->e[x].chain) < 0)
		return -HWPROF_E_NOMEM;
	ht_insert(&h->in, x, parent, left);
	h->n++;
	if (k->sym && k->sym->inlined)
		h->fast = false; /* equal to others by name: see hwprof_hist.fast */
	else if (h->fast && h->sym_key && note_addrs(h, k) < 0)
		return -HWPROF_E_NOMEM;
	if (h->fast && hix_add(&h->ix, indexed ? hash : ident_hash(h, k), x) < 0)
		return -HWPROF_E_NOMEM;
	return x;
}

/* Adds the period to entry x as the sample's own (self) or only to the
 * accumulated numbers. */
static void count_entry(struct hwprof_hist *h, uint32_t x, uint64_t period, bool self)
{
	struct hwprof_hist_entry *e = &h->e[x];
	if (self) {
		e->period += period;
		e->nr_samples++;
		e->weight += h->add_weight;
		e->ins_lat += h->add_ins_lat;
		add_cpumode_period(e, h->add_cpumode, period);
	}
	if (h->children) {
		e->acc_period += period;
		e->acc_samples++;
	}
}

static int64_t findnew(struct hwprof_hist *h, const struct hwprof_hist_entry *k, uint64_t period, bool self)
{
	int64_t x = find_entry(h, k, HIX_NONE);
	if (x >= 0)
		count_entry(h, (uint32_t)x, period, self);
	return x;
}

HWPROF_API const struct hwprof_hist_entry *hwprof_hist_last_entry(const struct hwprof_hist *h)
{
	return h->last >= 0 && (size_t)h->last < h->n ? &h->e[h->last] : NULL;
}

HWPROF_API int hwprof_hist_add(struct hwprof_hist *h, const struct hwprof_hist_sample *s)
{
	return hwprof_hist_add_chain(h, s, NULL, 0);
}

HWPROF_API void hwprof_hist_set_srcline(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx)
{
	h->srcline_fn = fn;
	h->srcline_ctx = ctx;
}

HWPROF_API const char *hwprof_hist_entry_srcline(struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	return srcline_of(h, e);
}

HWPROF_API void hwprof_hist_set_srcfile(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx)
{
	h->srcfile_fn = fn;
	h->srcfile_ctx = ctx;
}

HWPROF_API const char *hwprof_hist_entry_srcfile(struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	return srcfile_of(h, e);
}

HWPROF_API void hwprof_hist_set_cacheline(struct hwprof_hist *h, uint64_t size)
{
	h->cacheline = size;
}

HWPROF_API void hwprof_hist_set_dso_names(struct hwprof_hist *h, const struct hwprof_symbols *syms)
{
	h->names = syms;
}

HWPROF_API int hwprof_hist_set_dyn(struct hwprof_hist *h, unsigned slot, const struct hwprof_hist_dyn *d)
{
	if (slot >= HWPROF_HK_NR_DYN)
		return -HWPROF_E_INVAL;
	h->dyn[slot] = *d;
	h->dyn_set[slot] = true;
	return 0;
}

HWPROF_API bool hwprof_hist_dyn_defined(const struct hwprof_hist *h, unsigned slot)
{
	return slot < HWPROF_HK_NR_DYN && h->dyn_set[slot];
}

HWPROF_API int hwprof_hist_dyn_width(const struct hwprof_hist *h, unsigned slot)
{
	if (!hwprof_hist_dyn_defined(h, slot))
		return 0;
	const struct hwprof_hist_dyn *d = &h->dyn[slot];
	size_t len = h->dyn_len[slot], name = strlen(d->name);
	size_t field = d->string ? (size_t)d->size : (size_t)d->size * 2 + 2;
	if (name > len)
		len = name;
	if (field > len)
		len = field;
	return (int)len;
}

HWPROF_API void hwprof_hist_set_trace(struct hwprof_hist *h, hwprof_srcline_fn fn, void *ctx)
{
	h->trace_fn = fn;
	h->trace_ctx = ctx;
}

HWPROF_API const char *hwprof_hist_entry_trace(struct hwprof_hist *h, const struct hwprof_hist_entry *e)
{
	return trace_of(h, e);
}

HWPROF_API void hwprof_hist_elide(struct hwprof_hist *h, enum hwprof_hist_key k)
{
	if ((unsigned)k < HWPROF_HK_NR)
		h->elided[k] = true;
}

HWPROF_API void hwprof_hist_set_callchain(struct hwprof_hist *h, unsigned flags)
{
	h->children = flags & HWPROF_HIST_CHILDREN;
	h->graph = flags & HWPROF_HIST_GRAPH;
	h->caller = flags & HWPROF_HIST_CALLER;
	h->trie.key = flags & HWPROF_HIST_KEY_ADDRESS ? HC_KEY_ADDRESS
		      : flags & HWPROF_HIST_KEY_SRCLINE ? HC_KEY_SRCLINE : HC_KEY_FUNCTION;
	h->chains = h->children || h->graph;
}

HWPROF_API int hwprof_hist_add_chain(struct hwprof_hist *h, const struct hwprof_hist_sample *s,
				     const struct hwprof_hist_frame *chain, size_t n)
{
	struct hwprof_hist_entry k;
	h->key_sample = NULL; /* the caller may reuse the sample struct */
	int rc = make_key(h, &k, s, s->dso, s->kernel_map, s->sym, s->ip, s->level, s->map_start, s->map_pgoff);
	if (rc < 0)
		return rc;
	h->nr_samples++;
	h->total_period += s->period;
	h->add_weight = s->weight;
	h->add_ins_lat = s->ins_lat;
	h->add_cpumode = s->cpumode;
	int64_t self = findnew(h, &k, s->period, true);
	h->last = self;
	if (self < 0)
		return (int)self;
	if (!h->chains || !n)
		return 0;
	if (rpt_grow(&h->frame_ids, &h->cap_frame_ids, n, sizeof(*h->frame_ids)) < 0 ||
	    rpt_grow(&h->cache, &h->cap_cache, n + 1, sizeof(*h->cache)) < 0)
		return -HWPROF_E_NOMEM;
	for (size_t i = 0; i < n; i++)
		if (hc_frame(&h->trie, &chain[i], &h->frame_ids[i]) < 0)
			return -HWPROF_E_NOMEM;
	if (!s->stale_chain) {
		if (hc_append(&h->trie, h->e[self].chain, h->frame_ids, chain, n, s->period) < 0)
			return -HWPROF_E_NOMEM;
		if (n > h->e[self].max_depth)
			h->e[self].max_depth = (uint32_t)n;
	}
	if (!h->children)
		return 0;
	/* perf's cumulative entries: each distinct entry of the chain once */
	size_t nc = 0;
	h->cache[nc++] = (uint32_t)self;
	char level = s->level;
	bool plain = false;
	for (size_t i = 0; i < n; i++) {
		const struct hwprof_hist_frame *f = &chain[i];
		if (f->dso) {
			level = f->level;  /* else perf keeps the previous level */
			h->add_cpumode = level == 'k' ? HWPROF_MISC_KERNEL
					 : level == 'g' ? HWPROF_MISC_GUEST_KERNEL
					 : level == 'u' ? HWPROF_MISC_GUEST_USER : HWPROF_MISC_USER;
		}
		if ((rc = frame_key(h, &k, s, f, level, &plain)) < 0)
			return rc;
		/* perf's fill_callchain_info(): the frame's own srcline, if it
		 * has one, is the entry's */
		k.srcline = f->srcline;
		/* perf compares with an entry that has only the thread,
		 * cpu, address, symbol and parent (its he_tmp), so with the
		 * time key, a socket other than 0, transaction flags, a
		 * cgroup or a code page size a frame is counted again */
		bool dup = false;
		uint32_t found = HIX_NONE;
		if (use_index(h, &k)) {
			/* none of those keys is the index's: the entry equal
			 * to the frame's is the one it holds, if any */
			found = ident_find(h, &k, ident_hash(h, &k));
			for (size_t j = 0; j < nc && found != HIX_NONE && !dup; j++)
				dup = h->cache[j] == found;
		} else {
			struct hwprof_hist_entry tmp = k;
			tmp.time = 0;
			tmp.socket = 0;
			tmp.transaction = tmp.cgroup = tmp.cgroup_dev = tmp.cgroup_ino = tmp.code_page_size = 0;
			for (size_t j = 0; j < nc && !dup; j++)
				dup = entry_eq(h, &h->e[h->cache[j]], &tmp);
		}
		if (dup)
			continue;
		int64_t x = find_entry(h, &k, found);
		if (x < 0)
			return (int)x;
		count_entry(h, (uint32_t)x, s->period, false);
		h->cache[nc++] = (uint32_t)x;
		if (hc_append(&h->trie, h->e[x].chain, h->frame_ids + i, chain + i, n - i, s->period) < 0)
			return -HWPROF_E_NOMEM;
		if (n - i > h->e[x].max_depth)
			h->e[x].max_depth = (uint32_t)(n - i);
	}
	return 0;
}

/* The value perf's __hpp__sort() compares for an output field. */
static uint64_t field_value(const struct hwprof_hist_entry *e, enum hwprof_hist_key key)
{
	switch (key) {
	case HWPROF_HK_SAMPLES: return e->nr_samples;
	case HWPROF_HK_OVERHEAD_SYS: return e->period_sys;
	case HWPROF_HK_OVERHEAD_US: return e->period_us;
	case HWPROF_HK_OVERHEAD_GUEST_SYS: return e->period_guest_sys;
	case HWPROF_HK_OVERHEAD_GUEST_US: return e->period_guest_us;
	default: return e->period;
	}
}

/* The fields __hpp__sort() orders by (children have their own) */
static bool is_hpp_sort_field(enum hwprof_hist_key k)
{
	return k == HWPROF_HK_OVERHEAD || k == HWPROF_HK_SAMPLES || k == HWPROF_HK_PERIOD ||
	       k == HWPROF_HK_OVERHEAD_SYS || k == HWPROF_HK_OVERHEAD_US || k == HWPROF_HK_OVERHEAD_GUEST_SYS ||
	       k == HWPROF_HK_OVERHEAD_GUEST_US;
}

/* A group member's value of an entry's pair (0 without one). */
static uint64_t pair_value(const struct hwprof_hist *h, uint32_t k, const struct hwprof_hist_entry *e,
			   enum hwprof_hist_key key)
{
	const struct hwprof_hist_entry *p = hwprof_hist_pair(h, e, k);
	return p ? field_value(p, key) : 0;
}

/* perf's __hpp__sort() in the group view: equal leader values are ordered
 * by the members' values, in group order. With --group-sort-idx N inside
 * the group (__hpp__group_sort_idx()): member N's value, then the other
 * members' in order; the leader's own value is not compared. */
static int group_cmp(const struct hwprof_hist *h, enum hwprof_hist_key key, const struct hwprof_hist_entry *a,
		     const struct hwprof_hist_entry *b)
{
	int idx = h->group_sort_idx;
	int c = u64_cmp(field_value(a, key), field_value(b, key));
	if (idx && (idx < 1 || (uint32_t)idx > h->nr_members))
		return c;
	if (idx) {
		c = u64_cmp(pair_value(h, (uint32_t)idx - 1, a, key), pair_value(h, (uint32_t)idx - 1, b, key));
		for (uint32_t k = 0; k < h->nr_members && !c; k++)
			if (k + 1 != (uint32_t)idx)
				c = u64_cmp(pair_value(h, k, a, key), pair_value(h, k, b, key));
		return c;
	}
	for (uint32_t k = 0; k < h->nr_members && !c; k++)
		c = u64_cmp(pair_value(h, k, a, key), pair_value(h, k, b, key));
	return c;
}

HWPROF_API void hwprof_hist_set_group_sort_idx(struct hwprof_hist *h, int idx)
{
	h->group_sort_idx = idx;
}

/* perf's a->thread == b->thread: its thread objects, or without them the
 * pid and tid */
static bool same_thread(const struct hwprof_hist_entry *a, const struct hwprof_hist_entry *b)
{
	if (a->thread && b->thread)
		return a->thread == b->thread;
	return a->tid == b->tid && a->pid == b->pid;
}

/* perf's hist_entry__sort(a, b): > 0 puts a before b. */
static int sort_cmp(const struct hwprof_hist *h, const struct hwprof_hist_entry *a,
		    const struct hwprof_hist_entry *b)
{
	for (size_t i = 0; i < h->nr_sort; i++) {
		if (h->elided[h->sort[i]])
			continue; /* perf_hpp__should_skip() */
		int c = h->nr_members && is_hpp_sort_field(h->sort[i]) ? group_cmp(h, h->sort[i], a, b)
									 : key_sort(h, h->sort[i], a, b);
		if (!c && h->sort[i] == HWPROF_HK_CHILDREN && h->graph && same_thread(a, b)) {
			/* perf's __hpp__sort_acc: caller above callee */
			int64_t d = (int64_t)b->max_depth - a->max_depth;
			c = sgn64(h->caller ? -d : d);
		}
		if (c)
			return c;
	}
	return 0;
}

/* perf's hist_entry__collapse(): the identity compare (comm's collapse
 * compares the same interned names); a is an entry of ha, b of hb (the
 * same hist, or a group's leader and member) */
static int entry_collapse2(const struct hwprof_hist *ha, const struct hwprof_hist_entry *a,
			   const struct hwprof_hist *hb, const struct hwprof_hist_entry *b)
{
	for (size_t i = 0; i < ha->nr_keys; i++) {
		int c = key_cmp2(ha, hb, ha->keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

/* perf's hists__collapse_resort(): the entries re-inserted in tree order
 * into a new tree (h->coll) with the collapse compare, merging those it
 * finds equal. */
static int collapse(struct hwprof_hist *h)
{
	struct ht_tree *t = &h->coll;
	if (ht_reserve(t, h->n) < 0)
		return -HWPROF_E_NOMEM;
	for (uint32_t x = ht_first(&h->in); x != HT_NIL; x = ht_next(&h->in, x)) {
		uint32_t y = t->root, parent = HT_NIL;
		bool left = false, merged = false;
		while (y != HT_NIL) {
			int c = entry_collapse2(h, &h->e[y], h, &h->e[x]);
			if (!c) {
				struct hwprof_hist_entry *d = &h->e[y], *e = &h->e[x];
				d->period += e->period;
				d->nr_samples += e->nr_samples;
				d->acc_period += e->acc_period;
				d->acc_samples += e->acc_samples;
				d->weight += e->weight;
				d->ins_lat += e->ins_lat;
				/* perf's callchain_merge() leaves max_depth alone */
				if (h->chains && hc_merge(&h->trie, d->chain, e->chain) < 0)
					return -HWPROF_E_NOMEM;
				merged = true;
				break;
			}
			parent = y;
			left = c < 0;
			y = left ? t->n[y].left : t->n[y].right;
		}
		if (!merged)
			ht_insert(t, x, parent, left);
	}
	return 0;
}

/* The tree perf's later passes walk: the collapsed one, or entries_in
 * when no key collapses. */
static struct ht_tree *done_tree(struct hwprof_hist *h)
{
	return h->need_collapse ? &h->coll : &h->in;
}

HWPROF_API int hwprof_hist_collapse(struct hwprof_hist *h)
{
	if (h->collapsed)
		return 0;
	if (h->need_collapse && collapse(h) < 0)
		return -HWPROF_E_NOMEM;
	h->collapsed = true;
	return 0;
}

/* perf's hists__find_entry(): a walk of the member's tree with the
 * collapse compare, which may miss an equal entry as perf's does */
static uint32_t find_pair(struct hwprof_hist *m, const struct hwprof_hist *l, const struct hwprof_hist_entry *he)
{
	struct ht_tree *t = done_tree(m);
	uint32_t y = t->root;
	while (y != HT_NIL) {
		int c = entry_collapse2(m, &m->e[y], l, he);
		if (!c)
			return y;
		y = c < 0 ? t->n[y].left : t->n[y].right;
	}
	return HT_NIL;
}

/* The leader's pair slot of entry x for member k (grown as needed). */
static int pair_slot(struct hwprof_hist *l, uint32_t k, uint32_t x, uint32_t **slot)
{
	size_t old = l->pair_cap[k];
	if (x >= old) {
		if (rpt_grow(&l->pair[k], &l->pair_cap[k], (size_t)x + 1, sizeof(**l->pair)) < 0)
			return -HWPROF_E_NOMEM;
		for (size_t i = old; i < l->pair_cap[k]; i++)
			l->pair[k][i] = HT_NIL;
	}
	*slot = &l->pair[k][x];
	return 0;
}

/* perf's hists__add_dummy_entry(): the leader's entry equal to the
 * member's entry me (by the collapse walk), or a new one with its keys and
 * no period, linked where the walk ended. Returns its index or < 0. */
static int64_t dummy_entry(struct hwprof_hist *l, const struct hwprof_hist *m, const struct hwprof_hist_entry *me)
{
	struct ht_tree *t = done_tree(l);
	uint32_t y = t->root, parent = HT_NIL;
	bool left = false;
	while (y != HT_NIL) {
		int c = entry_collapse2(l, &l->e[y], m, me);
		if (!c)
			return y;
		parent = y;
		left = c < 0;
		y = left ? t->n[y].left : t->n[y].right;
	}
	if (l->n >= UINT32_MAX - 1 || rpt_grow(&l->e, &l->cap, l->n + 1, sizeof(*l->e)) < 0 ||
	    ht_reserve(t, l->n + 1) < 0)
		return -HWPROF_E_NOMEM;
	uint32_t x = (uint32_t)l->n;
	struct hwprof_hist_entry *d = &l->e[x];
	*d = *me;
	/* its strings get the leader's ids, for the leader's compares */
	if (intern_id(l, me->comm ? me->comm : "", &d->comm, &d->comm_id) < 0 ||
	    (me->dso_short && intern_id(l, me->dso_short, &d->dso_short, &d->dso_id) < 0) ||
	    (me->daddr_dso_short && intern_id(l, me->daddr_dso_short, &d->daddr_dso_short, &d->daddr_dso_id) < 0) ||
	    (me->from_dso_short && intern_id(l, me->from_dso_short, &d->from_dso_short, &d->from_dso_id) < 0) ||
	    (me->to_dso_short && intern_id(l, me->to_dso_short, &d->to_dso_short, &d->to_dso_id) < 0))
		return -HWPROF_E_NOMEM;
	d->period = d->nr_samples = d->acc_period = d->acc_samples = 0;
	d->period_sys = d->period_us = d->period_guest_sys = d->period_guest_us = 0;
	d->weight = d->ins_lat = 0;
	d->chain = HWPROF_CHAIN_NONE; /* perf's new entry has an empty chain */
	d->max_depth = 0;
	if (me->trace && !(d->trace = rpt_intern(&l->strs, me->trace)))
		return -HWPROF_E_NOMEM;
	d->raw = NULL; /* the member's copy stays the member's */
	d->raw_size = 0;
	if (me->raw) {
		void *raw = malloc(me->raw_size ? me->raw_size : 1);
		if (!raw)
			return -HWPROF_E_NOMEM;
		memcpy(raw, me->raw, me->raw_size);
		d->raw = raw;
		d->raw_size = me->raw_size;
	}
	ht_insert(t, x, parent, left);
	l->n++;
	l->fast = false; /* not in the index (no samples come after these) */
	return x;
}

HWPROF_API int hwprof_hist_link(struct hwprof_hist *l, struct hwprof_hist *m)
{
	if (l->finished || l->nr_members >= HWPROF_HIST_MAX_MEMBERS)
		return -HWPROF_E_INVAL;
	if (hwprof_hist_collapse(l) < 0 || hwprof_hist_collapse(m) < 0)
		return -HWPROF_E_NOMEM;
	uint32_t k = l->nr_members++;
	l->members[k] = m;
	bool *paired = calloc(m->n ? m->n : 1, sizeof(*paired));
	if (!paired)
		return -HWPROF_E_NOMEM;
	int rc = 0;
	uint32_t *slot;
	/* hists__match(): each leader entry gets the member's equal one */
	struct ht_tree *lt = done_tree(l);
	for (uint32_t x = ht_first(lt); x != HT_NIL && rc == 0; x = ht_next(lt, x)) {
		uint32_t y = find_pair(m, l, &l->e[x]);
		if (y == HT_NIL)
			continue;
		if ((rc = pair_slot(l, k, x, &slot)) == 0) {
			*slot = y;
			paired[y] = true;
		}
	}
	/* hists__link(): the member's other entries get leader entries */
	struct ht_tree *mt = done_tree(m);
	for (uint32_t y = ht_first(mt); y != HT_NIL && rc == 0; y = ht_next(mt, y)) {
		if (paired[y])
			continue;
		int64_t x = dummy_entry(l, m, &m->e[y]);
		if (x < 0) {
			rc = (int)x;
			break;
		}
		if ((rc = pair_slot(l, k, (uint32_t)x, &slot)) == 0 && *slot == HT_NIL)
			*slot = y;
	}
	free(paired);
	return rc;
}

HWPROF_API const struct hwprof_hist_entry *hwprof_hist_pair(const struct hwprof_hist *l,
							     const struct hwprof_hist_entry *e, uint32_t k)
{
	if (k >= l->nr_members || e < l->e || e >= l->e + l->n)
		return NULL;
	size_t x = (size_t)(e - l->e);
	if (x >= l->pair_cap[k] || l->pair[k][x] == HT_NIL)
		return NULL;
	return &l->members[k]->e[l->pair[k][x]];
}

HWPROF_API uint32_t hwprof_hist_nr_members(const struct hwprof_hist *h)
{
	return h->nr_members;
}

HWPROF_API const struct hwprof_hist *hwprof_hist_member(const struct hwprof_hist *h, uint32_t k)
{
	return k < h->nr_members ? h->members[k] : NULL;
}

HWPROF_API int hwprof_hist_finish(struct hwprof_hist *h)
{
	if (h->finished)
		return 0;
	if (hwprof_hist_collapse(h) < 0)
		return -HWPROF_E_NOMEM;
	h->order = malloc((h->n ? h->n : 1) * sizeof(*h->order));
	if (!h->order)
		return -HWPROF_E_NOMEM;
	/* perf's output tree, filled in the collapsed tree's order:
	 * sort(new, iter) > 0 goes left. The children tie-break makes the
	 * order intransitive, so the tree itself decides. */
	struct ht_tree *src = done_tree(h);
	struct ht_tree t;
	ht_init(&t);
	if (ht_reserve(&t, h->n) < 0)
		return -HWPROF_E_NOMEM;
	for (uint32_t x = ht_first(src); x != HT_NIL; x = ht_next(src, x)) {
		uint32_t y = t.root, parent = HT_NIL;
		bool left = false;
		while (y != HT_NIL) {
			parent = y;
			left = sort_cmp(h, &h->e[x], &h->e[y]) > 0;
			y = left ? t.n[y].left : t.n[y].right;
		}
		ht_insert(&t, x, parent, left);
		/* perf's hists__calc_col_len() right after: what is known */
		h->e[x].srcline_width = h->e[x].srcline ? (uint32_t)strlen(h->e[x].srcline) : 0;
		h->e[x].srcfile_width = h->e[x].srcfile ? (uint32_t)strlen(h->e[x].srcfile) : 0;
		for (int end = 0; end < 2; end++)
			h->e[x].srcline_end_width[end] =
				h->e[x].srcline_end[end] ? (uint32_t)strlen(h->e[x].srcline_end[end]) : 0;
		/* perf's dynamic keys take their width from the entry's
		 * text after its trace width was taken */
		for (size_t i = 0; i < h->nr_sort; i++)
			if (HWPROF_HK_IS_DYN(h->sort[i]) && h->dyn_set[h->sort[i] - HWPROF_HK_DYN0])
				dyn_text_len(h, (unsigned)(h->sort[i] - HWPROF_HK_DYN0), &h->e[x]);
		h->e[x].trace_width = h->e[x].trace ? (uint32_t)strlen(h->e[x].trace) : 0;
	}
	/* filtered entries are not shown; perf's non-filtered stats count
	 * the shown entries' own samples */
	size_t k = 0;
	for (uint32_t x = ht_first(&t); x != HT_NIL; x = ht_next(&t, x)) {
		if (h->e[x].filtered)
			continue;
		h->shown_period += h->e[x].period;
		h->shown_samples += h->e[x].nr_samples;
		h->order[k++] = x;
	}
	ht_free(&t);
	h->n_out = k;
	h->finished = true;
	return 0;
}

HWPROF_API size_t hwprof_hist_nr_entries(const struct hwprof_hist *h)
{
	return h->finished ? h->n_out : h->n;
}

HWPROF_API const struct hwprof_hist_entry *hwprof_hist_entry(const struct hwprof_hist *h, size_t i)
{
	if (i >= hwprof_hist_nr_entries(h))
		return NULL;
	return &h->e[h->finished ? h->order[i] : i];
}

HWPROF_API uint64_t hwprof_hist_total_period(const struct hwprof_hist *h)
{
	return h->total_period;
}

HWPROF_API uint64_t hwprof_hist_shown_period(const struct hwprof_hist *h)
{
	return h->shown_period;
}

HWPROF_API uint64_t hwprof_hist_shown_samples(const struct hwprof_hist *h)
{
	return h->shown_samples;
}

HWPROF_API uint64_t hwprof_hist_nr_samples(const struct hwprof_hist *h)
{
	return h->nr_samples;
}

HWPROF_API void hwprof_hist_sort_chains(struct hwprof_hist *h, uint64_t min_hit)
{
	for (size_t i = 0; i < hwprof_hist_nr_entries(h); i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(h, i);
		if (e->chain != HWPROF_CHAIN_NONE)
			hc_sort(&h->trie, e->chain, min_hit);
	}
}

HWPROF_API void hwprof_hist_sort_chains_rel(struct hwprof_hist *h, double min_percent)
{
	for (size_t i = 0; i < hwprof_hist_nr_entries(h); i++) {
		const struct hwprof_hist_entry *e = hwprof_hist_entry(h, i);
		if (e->chain != HWPROF_CHAIN_NONE)
			hc_sort_rel(&h->trie, e->chain, min_percent);
	}
}

HWPROF_API uint32_t hwprof_chain_parent(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].parent;
}

HWPROF_API int hwprof_hist_flat_chains(struct hwprof_hist *h, uint32_t root, uint64_t min_hit, uint32_t **nodes,
				       size_t *n)
{
	return hc_flat(&h->trie, root, min_hit, nodes, n);
}

HWPROF_API const struct hwprof_hist_frame *hwprof_chain_frame(const struct hwprof_hist *h, uint32_t node)
{
	return &h->trie.f[h->trie.n[node].frame];
}

HWPROF_API uint64_t hwprof_chain_hit(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].hit;
}

HWPROF_API uint64_t hwprof_chain_cumul(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].hit + h->trie.n[node].children_hit;
}

HWPROF_API uint32_t hwprof_chain_count(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].count;
}

HWPROF_API uint32_t hwprof_chain_cumul_count(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].count + h->trie.n[node].children_count;
}

HWPROF_API uint32_t hwprof_chain_nr_children(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].nr_children;
}

HWPROF_API uint32_t hwprof_chain_first(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].sorted_first;
}

HWPROF_API uint32_t hwprof_chain_next(const struct hwprof_hist *h, uint32_t node)
{
	return h->trie.n[node].sorted_next;
}
