#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "cli/srccode.h"

/* A source file read whole, with where each line starts. */
struct src_file {
	char *path;
	char *text;                /* NULL when the file could not be read */
	size_t size;
	size_t *starts;
	size_t nlines;
};

/* A thread's last printed position (perf's srccode_state). */
struct src_state {
	int32_t tid;
	const char *path;          /* a src_file's path */
	unsigned line;
};

struct srccode {
	void *files;               /* tsearch tree of struct src_file by path */
	void *states;              /* tsearch tree of struct src_state by tid */
};

struct srccode *srccode_new(void)
{
	return calloc(1, sizeof(struct srccode));
}

static void free_file(void *p)
{
	struct src_file *f = p;
	free(f->path);
	free(f->text);
	free(f->starts);
	free(f);
}

void srccode_free(struct srccode *c)
{
	if (!c)
		return;
	tdestroy(c->files, free_file);
	tdestroy(c->states, free);
	free(c);
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct src_file *)a)->path, ((const struct src_file *)b)->path);
}

static int state_cmp(const void *a, const void *b)
{
	int32_t x = ((const struct src_state *)a)->tid, y = ((const struct src_state *)b)->tid;
	return x < y ? -1 : x > y;
}

/* Reads path and indexes its lines (perf's countlines()/fill_lines(): a
 * last line without a newline counts). */
static void load(struct src_file *sf)
{
	FILE *in = fopen(sf->path, "rb");
	if (!in)
		return;
	size_t cap = 0;
	for (;;) {
		if (sf->size == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *t = realloc(sf->text, nc);
			if (!t)
				break;
			sf->text = t;
			cap = nc;
		}
		size_t n = fread(sf->text + sf->size, 1, cap - sf->size, in);
		if (!n)
			break;
		sf->size += n;
	}
	fclose(in);
	if (!sf->text)
		return;
	size_t capl = 0;
	for (size_t at = 0; at < sf->size;) {
		if (sf->nlines == capl) {
			size_t nc = capl ? capl * 2 : 1024;
			size_t *v = realloc(sf->starts, nc * sizeof(*v));
			if (!v)
				return;
			sf->starts = v;
			capl = nc;
		}
		sf->starts[sf->nlines++] = at;
		const char *nl = memchr(sf->text + at, '\n', sf->size - at);
		at = nl ? (size_t)(nl - sf->text) + 1 : sf->size;
	}
}

static struct src_file *file_of(struct srccode *c, const char *path)
{
	struct src_file key = { .path = (char *)path };
	struct src_file **found = tfind(&key, &c->files, file_cmp);
	if (found)
		return *found;
	struct src_file *sf = calloc(1, sizeof(*sf));
	if (!sf || !(sf->path = strdup(path))) {
		free(sf);
		return NULL;
	}
	load(sf);
	if (!tsearch(sf, &c->files, file_cmp)) {
		free_file(sf);
		return NULL;
	}
	return sf;
}

int srccode_print(struct srccode *c, FILE *f, int32_t tid, struct hwprof_dso *d, uint64_t addr)
{
	const struct hwprof_srcframe *fr;
	if (!c || !d || hwprof_dso_srcframes(d, addr, &fr) <= 0 || !fr[0].file || !fr[0].line)
		return 0;
	/* the thread's line already shown: nothing */
	struct src_state key = { .tid = tid }, **st = tfind(&key, &c->states, state_cmp);
	/* addr2line's name: a relative one under the unit's directory */
	char path[4096];
	if (fr[0].file[0] != '/' && fr[0].comp_dir)
		snprintf(path, sizeof(path), "%s/%s", fr[0].comp_dir, fr[0].file);
	else
		snprintf(path, sizeof(path), "%s", fr[0].file);
	if (st && (*st)->path && !strcmp((*st)->path, path) && (*st)->line == fr[0].line)
		return 0;
	struct src_file *sf = file_of(c, path);
	if (!sf || !sf->text || fr[0].line > sf->nlines)
		return 0;
	size_t at = sf->starts[fr[0].line - 1];
	const char *nl = memchr(sf->text + at, '\n', sf->size - at);
	/* perf prints the line only up to a newline it finds */
	if (!nl)
		return 0;
	fprintf(f, "|%-8u %.*s\n", fr[0].line, (int)(nl - (sf->text + at)), sf->text + at);
	if (!st) {
		struct src_state *ns = malloc(sizeof(*ns));
		if (ns)
			ns->tid = tid;
		if (!ns || !(st = tsearch(ns, &c->states, state_cmp))) {
			free(ns);
			return 1;
		}
	}
	(*st)->path = sf->path;
	(*st)->line = fr[0].line;
	return 1;
}
