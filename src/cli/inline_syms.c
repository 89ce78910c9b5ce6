#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/inline_syms.h"

/* Open addressing over two kinds of slots: names (base NULL) and
 * (base, name) symbols; grown at half load. */
struct slot {
	const struct hwprof_sym *base;
	const char *name;           /* interned */
	struct hwprof_sym *sym;     /* NULL for a name slot */
};

struct inline_syms {
	struct slot *v;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t slot_hash(const struct hwprof_sym *base, const char *name)
{
	uint64_t h = hash_str(name) ^ ((uint64_t)(uintptr_t)base * 0x9e3779b97f4a7c15ull);
	return h ^ (h >> 29);
}

static struct slot *find(struct inline_syms *p, const struct hwprof_sym *base, const char *name)
{
	size_t mask = p->cap - 1;
	for (size_t i = slot_hash(base, name) & mask;; i = (i + 1) & mask) {
		struct slot *s = &p->v[i];
		if (!s->name || (s->base == base && !strcmp(s->name, name)))
			return s;
	}
}

static int grow(struct inline_syms *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256;
	struct slot *old = p->v;
	size_t ocap = p->cap;
	p->v = calloc(cap, sizeof(*p->v));
	if (!p->v) {
		p->v = old;
		return -1;
	}
	p->cap = cap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].name)
			*find(p, old[i].base, old[i].name) = old[i];
	free(old);
	return 0;
}

/* A slot for (base, name), made if new: NULL on allocation failure. */
static struct slot *get(struct inline_syms *p, const struct hwprof_sym *base, const char *name)
{
	if ((p->n + 1) * 2 > p->cap && grow(p) < 0)
		return NULL;
	struct slot *s = find(p, base, name);
	if (!s->name) {
		s->base = base;
		s->name = name;
		p->n++;
	}
	return s;
}

const struct hwprof_sym *inline_syms_get(struct inline_syms **pool, const struct hwprof_sym *base,
					 const char *name)
{
	if (!*pool && !(*pool = calloc(1, sizeof(**pool))))
		return NULL;
	struct inline_syms *p = *pool;
	/* the name, interned under base NULL (those slots own their names) */
	struct slot *ns = get(p, NULL, name);
	if (!ns)
		return NULL;
	if (ns->name == name) {
		char *copy = strdup(name);
		if (!copy) {
			ns->name = NULL; /* the newest slot: no chain passes it */
			p->n--;
			return NULL;
		}
		ns->name = copy;
	}
	struct slot *s = get(p, base, ns->name);
	if (!s)
		return NULL;
	if (!s->sym) {
		struct hwprof_sym *sym = malloc(sizeof(*sym));
		if (!sym)
			return NULL;
		*sym = (struct hwprof_sym){ .start = base->start, .end = base->end, .name = s->name, .inlined = true };
		s->sym = sym;
	}
	return s->sym;
}

void inline_syms_free(struct inline_syms *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++) {
		if (p->v[i].base)
			free(p->v[i].sym);
		else
			free((char *)p->v[i].name);
	}
	free(p->v);
	free(p);
}
