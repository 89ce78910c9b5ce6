/* Symbol tables: built once per DSO from any loader, then a sorted array
 * searched by binary search. The fixups give symbols the extents perf
 * gives them, so lookups name the same function perf names. Where
 * symbols overlap (a PLT inside the extended _init, objects placed by a
 * debug file's program headers), perf's answer is the first covering
 * symbol on its red-black tree's search path: the table then rebuilds
 * that tree by replaying perf's inserts and erases, and walks it. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/sym_int.h"

int sym_add(struct sym_table *t, uint64_t start, uint64_t size, unsigned bind, unsigned type,
	    const char *name, size_t name_len)
{
	if (t->n == t->cap) {
		size_t c = t->cap ? t->cap * 2 : 256;
		struct sym_raw *v = realloc(t->raw, c * sizeof(*v));
		if (!v)
			return -HWPROF_E_NOMEM;
		t->raw = v;
		t->cap = c;
	}
	if (t->pool_len + name_len + 1 > t->pool_cap) {
		size_t c = t->pool_cap ? t->pool_cap : 4096;
		while (c < t->pool_len + name_len + 1)
			c *= 2;
		char *p = realloc(t->pool, c);
		if (!p)
			return -HWPROF_E_NOMEM;
		t->pool = p;
		t->pool_cap = c;
	}
	if (t->pool_len > UINT32_MAX - name_len - 1)
		return -HWPROF_E_NOMEM;
	memcpy(t->pool + t->pool_len, name, name_len);
	t->pool[t->pool_len + name_len] = 0;
	struct sym_raw *r = &t->raw[t->n];
	r->start = start;
	r->end = start + size;
	r->name = (uint32_t)t->pool_len;
	r->seq = t->clock++;
	r->bind = (uint8_t)bind;
	r->type = (uint8_t)type;
	t->pool_len += name_len + 1;
	t->n++;
	return 0;
}

static int cmp_raw(const void *a, const void *b)
{
	const struct sym_raw *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void sym_sort(struct sym_table *t)
{
	/* kallsyms and most symbol tables come sorted already */
	for (size_t i = 1; i < t->n; i++)
		if (cmp_raw(&t->raw[i - 1], &t->raw[i]) > 0) {
			qsort(t->raw, t->n, sizeof(*t->raw), cmp_raw);
			return;
		}
}

void sym_fixup_end(struct sym_table *t, bool kallsyms)
{
	if (!t->n)
		return;
	for (size_t i = 0; i + 1 < t->n; i++) {
		struct sym_raw *p = &t->raw[i], *c = &t->raw[i + 1];
		if (p->end != p->start)
			continue;
		/* Kernel text and modules are far apart: the last symbol on
		 * either side only gets to the end of its page. */
		if (kallsyms && (!strchr(sym_raw_name(t, p), '[') != !strchr(sym_raw_name(t, c), '[')))
			p->end = ((p->end + 4096) + 4095) & ~4095ULL;
		else
			p->end = c->start;
	}
	struct sym_raw *l = &t->raw[t->n - 1];
	if (l->end == l->start)
		l->end = ((l->start + 4095) & ~4095ULL) + 4096;
}

static size_t lead_underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* true when a should be kept over b (perf's preference order). */
static bool better(const struct sym_table *t, const struct sym_raw *a, const struct sym_raw *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	bool wa = a->bind == STB_WEAK, wb = b->bind == STB_WEAK;
	if (wb && !wa)
		return true;
	if (wa && !wb)
		return false;
	bool ga = a->bind == STB_GLOBAL, gb = b->bind == STB_GLOBAL;
	if (ga && !gb)
		return true;
	if (gb && !ga)
		return false;
	size_t ua = lead_underscores(sym_raw_name(t, a)), ub = lead_underscores(sym_raw_name(t, b));
	if (ub > ua)
		return true;
	if (ua > ub)
		return false;
	size_t na = strlen(sym_raw_name(t, a)), nb = strlen(sym_raw_name(t, b));
	return na >= nb;
}

/* Remembers a dropped symbol for the tree replay; false on NOMEM (the
 * replay is then skipped: lookups fall back to the nearest start). */
static bool bury(struct sym_table *t, const struct sym_raw *r)
{
	if (t->ngone == t->gone_cap) {
		size_t c = t->gone_cap ? t->gone_cap * 2 : 64;
		struct sym_gone *v = realloc(t->gone, c * sizeof(*v));
		if (!v)
			return false;
		t->gone = v;
		t->gone_cap = c;
	}
	t->gone[t->ngone++] = (struct sym_gone){ r->start, r->seq, t->clock++ };
	return true;
}

void sym_fixup_duplicate(struct sym_table *t)
{
	size_t w = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (w > 0 && t->raw[w - 1].start == t->raw[i].start) {
			/* in perf's order: the loser of each pair is erased */
			if (!better(t, &t->raw[w - 1], &t->raw[i])) {
				bury(t, &t->raw[w - 1]);
				t->raw[w - 1] = t->raw[i];
			} else {
				bury(t, &t->raw[i]);
			}
			continue;
		}
		t->raw[w++] = t->raw[i];
	}
	t->n = w;
}

void sym_shift(struct sym_table *t, uint64_t delta)
{
	for (size_t i = 0; i < t->n; i++) {
		t->raw[i].start -= delta;
		t->raw[i].end -= delta;
	}
	for (size_t i = 0; i < t->ngone; i++)
		t->gone[i].start -= delta;
}

void sym_filter(struct sym_table *t, bool (*keep)(const struct sym_table *, const struct sym_raw *))
{
	size_t w = 0;
	for (size_t i = 0; i < t->n; i++)
		if (keep(t, &t->raw[i]))
			t->raw[w++] = t->raw[i];
	t->n = w;
}

struct replay_op {
	uint32_t stamp, node;
	bool erase;
};

static int cmp_op(const void *a, const void *b)
{
	const struct replay_op *x = a, *y = b;
	return x->stamp < y->stamp ? -1 : x->stamp > y->stamp;
}

/* Rebuilds perf's tree: every symbol inserted in load order (ties to the
 * right), the dropped ones erased when perf erased them. Alive symbols
 * are nodes 0..n-1 (their final index), dropped ones n.. */
static int replay_tree(struct sym_table *t)
{
	size_t n = t->n, total = n + t->ngone;
	struct replay_op *ops = malloc((total + t->ngone) * sizeof(*ops));
	uint64_t *start = malloc(total * sizeof(*start));
	int rc = -HWPROF_E_NOMEM;
	if (!ops || !start || total >= HT_NIL || ht_reserve(&t->tree, total) < 0)
		goto out;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		start[i] = t->raw[i].start;
		ops[k++] = (struct replay_op){ t->raw[i].seq, (uint32_t)i, false };
	}
	for (size_t j = 0; j < t->ngone; j++) {
		start[n + j] = t->gone[j].start;
		ops[k++] = (struct replay_op){ t->gone[j].seq, (uint32_t)(n + j), false };
		ops[k++] = (struct replay_op){ t->gone[j].erased, (uint32_t)(n + j), true };
	}
	qsort(ops, k, sizeof(*ops), cmp_op);
	t->tree.root = HT_NIL;
	for (size_t i = 0; i < k; i++) {
		uint32_t x = ops[i].node;
		if (ops[i].erase) {
			ht_erase(&t->tree, x);
			continue;
		}
		uint32_t p = HT_NIL, c = t->tree.root;
		bool left = false;
		while (c != HT_NIL) {
			p = c;
			left = start[x] < start[c];
			c = left ? t->tree.n[c].left : t->tree.n[c].right;
		}
		ht_insert(&t->tree, x, p, left);
	}
	t->has_tree = true;
	rc = 0;
out:
	free(ops);
	free(start);
	return rc;
}

static bool overlapping(const struct sym_table *t)
{
	for (size_t i = 0; i + 1 < t->n; i++)
		if (t->raw[i].end > t->raw[i + 1].start || t->raw[i].end == t->raw[i].start)
			return true;
	return false;
}

int sym_finish(struct sym_table *t)
{
	free(t->syms);
	t->syms = NULL;
	t->nsyms = 0;
	if (t->n) {
		t->syms = malloc(t->n * sizeof(*t->syms));
		if (!t->syms)
			return -HWPROF_E_NOMEM;
		for (size_t i = 0; i < t->n; i++) {
			t->syms[i].start = t->raw[i].start;
			t->syms[i].end = t->raw[i].end;
			t->syms[i].name = t->pool + t->raw[i].name;
			t->syms[i].object = t->raw[i].type == STT_OBJECT;
			t->syms[i].inlined = false;
			t->syms[i].global = t->raw[i].bind == STB_GLOBAL;
		}
	}
	t->nsyms = t->n;
	int rc = 0;
	if (t->n && overlapping(t))
		rc = replay_tree(t);
	free(t->raw);
	free(t->gone);
	t->raw = NULL;
	t->gone = NULL;
	t->n = t->cap = t->ngone = t->gone_cap = 0;
	return rc;
}

void sym_table_free(struct sym_table *t)
{
	free(t->raw);
	free(t->pool);
	free(t->syms);
	free(t->gone);
	ht_free(&t->tree);
	memset(t, 0, sizeof(*t));
}

const struct hwprof_sym *sym_table_find(const struct sym_table *t, uint64_t addr)
{
	const struct hwprof_sym *v = t->syms;
	if (t->has_tree) {
		/* perf's walk: the first symbol on the path that covers addr
		 * (a zero-sized one covers its start) */
		uint32_t x = t->tree.root;
		while (x != HT_NIL) {
			const struct hwprof_sym *s = &v[x];
			if (addr < s->start)
				x = t->tree.n[x].left;
			else if (addr > s->end || (addr == s->end && addr != s->start))
				x = t->tree.n[x].right;
			else
				return s;
		}
		return NULL;
	}
	size_t lo = 0, hi = t->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct hwprof_sym *s = &v[lo - 1];
	return addr < s->end ? s : NULL;
}
