/* PMU discovery from sysfs: one struct hwprof_pmu per directory under
 * <root>/bus/event_source/devices with a numeric `type`. The root is a
 * parameter so tests can point it at fake trees; every file read and every
 * list is size-limited so an odd tree cannot make us allocate without
 * bound. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwprof/pmu.h"

struct hwprof_pmus {
	struct hwprof_pmu *v;
	size_t nr;
};

/* Reads at most HWPROF_PMU_FILE_MAX - 1 bytes, NUL-terminates and strips
 * trailing whitespace. Returns the length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd); /* a directory or device where a sysfs file belongs */
		return -1;
	}
	size_t n = 0;
	while (n + 1 < size) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = 0;
	return (ssize_t)n;
}

/* a/b or a/b/c into out; -1 when it does not fit (the file is skipped). */
static int path_join(char *out, size_t n, const char *a, const char *b, const char *c)
{
	int w = c ? snprintf(out, n, "%s/%s/%s", a, b, c) : snprintf(out, n, "%s/%s", a, b);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int name_ok(const char *s)
{
	return s[0] != '.' && strlen(s) < HWPROF_PMU_NAME_MAX;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b); /* name is the first member */
}

/* The names in dir (no dot files), sorted, at most HWPROF_PMU_FILES_MAX. */
static int list_dir(const char *dir, char (**names)[HWPROF_PMU_NAME_MAX], size_t *nr)
{
	*names = NULL;
	*nr = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t cap = 0;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)) && *nr < HWPROF_PMU_FILES_MAX) {
		if (!name_ok(e->d_name))
			continue;
		if (*nr == cap) {
			size_t nc = cap ? cap * 2 : 32;
			void *p = realloc(*names, nc * sizeof(**names));
			if (!p) {
				rc = -HWPROF_E_NOMEM;
				break;
			}
			*names = p;
			cap = nc;
		}
		snprintf((*names)[(*nr)++], HWPROF_PMU_NAME_MAX, "%s", e->d_name);
	}
	closedir(d);
	if (*nr)
		qsort(*names, *nr, sizeof(**names), cmp_names);
	return rc;
}

static int load_formats(struct hwprof_pmu *pmu, const char *dir)
{
	char (*names)[HWPROF_PMU_NAME_MAX];
	size_t nr;
	char path[4096], text[256];
	int rc = list_dir(dir, &names, &nr);
	if (rc || !nr)
		return rc;
	pmu->formats = calloc(nr, sizeof(*pmu->formats));
	if (!pmu->formats) {
		free(names);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		struct hwprof_pmu_format *f = &pmu->formats[pmu->nr_formats];
		if (path_join(path, sizeof(path), dir, names[i], NULL))
			continue;
		if (read_small(path, text, sizeof(text)) <= 0 || hwprof_pmu_format_parse(f, text))
			continue; /* unusable term: leave it out */
		memcpy(f->name, names[i], sizeof(f->name));
		pmu->nr_formats++;
	}
	free(names);
	return 0;
}

static int load_caps(struct hwprof_pmu *pmu, const char *dir)
{
	char (*names)[HWPROF_PMU_NAME_MAX];
	size_t nr;
	char path[4096];
	int rc = list_dir(dir, &names, &nr);
	if (rc || !nr)
		return rc;
	pmu->caps = calloc(nr, sizeof(*pmu->caps));
	if (!pmu->caps) {
		free(names);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		struct hwprof_pmu_cap *c = &pmu->caps[pmu->nr_caps];
		if (path_join(path, sizeof(path), dir, names[i], NULL))
			continue;
		if (read_small(path, c->value, sizeof(c->value)) < 0)
			continue;
		memcpy(c->name, names[i], sizeof(c->name));
		pmu->nr_caps++;
	}
	free(names);
	return 0;
}

static char *dup_file(const char *path)
{
	char buf[HWPROF_PMU_FILE_MAX];
	if (read_small(path, buf, sizeof(buf)) < 0)
		return NULL;
	return strdup(buf);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n > m && !strcmp(s + n - m, suf);
}

/* events/: every file except <alias>.scale, .unit, .per-pkg, .snapshot,
 * which describe the alias of the same stem. */
static int load_aliases(struct hwprof_pmu *pmu, const char *dir)
{
	char (*names)[HWPROF_PMU_NAME_MAX];
	size_t nr;
	char path[4096];
	int rc = list_dir(dir, &names, &nr);
	if (rc || !nr)
		return rc;
	pmu->aliases = calloc(nr, sizeof(*pmu->aliases));
	if (!pmu->aliases) {
		free(names);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 0; i < nr && !rc; i++) {
		if (has_suffix(names[i], ".scale") || has_suffix(names[i], ".unit") ||
		    has_suffix(names[i], ".per-pkg") || has_suffix(names[i], ".snapshot"))
			continue;
		struct hwprof_pmu_alias *a = &pmu->aliases[pmu->nr_aliases];
		if (path_join(path, sizeof(path), dir, names[i], NULL))
			continue;
		a->value = dup_file(path);
		if (!a->value)
			continue;
		memcpy(a->name, names[i], sizeof(a->name));
		char side[HWPROF_PMU_NAME_MAX + 8];
		snprintf(side, sizeof(side), "%s.scale", names[i]);
		a->scale = path_join(path, sizeof(path), dir, side, NULL) ? NULL : dup_file(path);
		snprintf(side, sizeof(side), "%s.unit", names[i]);
		a->unit = path_join(path, sizeof(path), dir, side, NULL) ? NULL : dup_file(path);
		pmu->nr_aliases++;
	}
	free(names);
	return rc;
}

static int core_name(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") || !strcmp(n, "cpu_atom") ||
	       !strncmp(n, "armv8_", 6) || !strncmp(n, "armv7_", 6);
}

static void pmu_free(struct hwprof_pmu *p)
{
	for (size_t i = 0; i < p->nr_aliases; i++) {
		free(p->aliases[i].value);
		free(p->aliases[i].scale);
		free(p->aliases[i].unit);
	}
	free(p->aliases);
	free(p->formats);
	free(p->caps);
}

/* A PMU's top-level decimal file (nr_addr_filters, ...), -1 if absent. */
static long long top_num(const char *devdir, const char *name, const char *file)
{
	char path[4096], buf[64], *end;
	if (path_join(path, sizeof(path), devdir, name, file) || read_small(path, buf, sizeof(buf)) <= 0 ||
	    buf[0] < '0' || buf[0] > '9')
		return -1;
	long long v = strtoll(buf, &end, 10);
	return *end ? -1 : v;
}

/* 1 loaded, 0 skipped (no numeric type), < 0 error. */
static int pmu_load(struct hwprof_pmu *p, const char *devdir, const char *name)
{
	char path[4096], buf[64];
	memset(p, 0, sizeof(*p));
	if (path_join(path, sizeof(path), devdir, name, "type") || read_small(path, buf, sizeof(buf)) <= 0)
		return 0;
	char *end;
	unsigned long t = strtoul(buf, &end, 10);
	if (*end || t > 0xffffffffUL || buf[0] < '0' || buf[0] > '9')
		return 0;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = (uint32_t)t;
	if (path_join(path, sizeof(path), devdir, name, "cpumask") ||
	    read_small(path, p->cpumask, sizeof(p->cpumask)) < 0) {
		if (!path_join(path, sizeof(path), devdir, name, "cpus") &&
		    read_small(path, p->cpumask, sizeof(p->cpumask)) >= 0)
			p->is_core = 1; /* arm core PMUs and hybrid x86 list their cpus */
		else
			p->cpumask[0] = 0;
	}
	p->is_core |= core_name(name);
	p->nr_addr_filters = top_num(devdir, name, "nr_addr_filters");
	p->max_nonturbo_ratio = top_num(devdir, name, "max_nonturbo_ratio");
	int rc;
	if (!path_join(path, sizeof(path), devdir, name, "format") && (rc = load_formats(p, path)))
		goto fail;
	if (!path_join(path, sizeof(path), devdir, name, "events") && (rc = load_aliases(p, path)))
		goto fail;
	if (!path_join(path, sizeof(path), devdir, name, "caps") && (rc = load_caps(p, path)))
		goto fail;
	return 1;
fail:
	pmu_free(p);
	return rc;
}

HWPROF_API int hwprof_pmus_open(struct hwprof_pmus **out, const struct hwprof_pmu_config *cfg)
{
	const char *root = cfg && cfg->sysfs_root && cfg->sysfs_root[0] ? cfg->sysfs_root : "/sys";
	char devdir[4096];
	*out = NULL;
	struct hwprof_pmus *l = calloc(1, sizeof(*l));
	if (!l)
		return -HWPROF_E_NOMEM;
	int w = snprintf(devdir, sizeof(devdir), "%s/bus/event_source/devices", root);
	if (w < 0 || (size_t)w >= sizeof(devdir)) {
		free(l);
		return -HWPROF_E_INVAL;
	}
	char (*names)[HWPROF_PMU_NAME_MAX];
	size_t nr;
	int rc = list_dir(devdir, &names, &nr);
	if (rc) {
		free(l);
		return rc;
	}
	if (nr > HWPROF_PMUS_MAX)
		nr = HWPROF_PMUS_MAX;
	if (nr && !(l->v = calloc(nr, sizeof(*l->v)))) {
		free(names);
		free(l);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		int r = pmu_load(&l->v[l->nr], devdir, names[i]);
		if (r < 0) {
			free(names);
			hwprof_pmus_close(l);
			return r;
		}
		l->nr += (size_t)r;
	}
	free(names);
	*out = l;
	return 0;
}

HWPROF_API void hwprof_pmus_close(struct hwprof_pmus *pmus)
{
	if (!pmus)
		return;
	for (size_t i = 0; i < pmus->nr; i++)
		pmu_free(&pmus->v[i]);
	free(pmus->v);
	free(pmus);
}

HWPROF_API size_t hwprof_pmus_count(const struct hwprof_pmus *pmus)
{
	return pmus ? pmus->nr : 0;
}

HWPROF_API const struct hwprof_pmu *hwprof_pmus_get(const struct hwprof_pmus *pmus, size_t i)
{
	return pmus && i < pmus->nr ? &pmus->v[i] : NULL;
}

HWPROF_API const struct hwprof_pmu *hwprof_pmus_find(const struct hwprof_pmus *pmus, const char *name)
{
	for (size_t i = 0; pmus && i < pmus->nr; i++)
		if (!strcmp(pmus->v[i].name, name))
			return &pmus->v[i];
	return NULL;
}

HWPROF_API const struct hwprof_pmu *hwprof_pmus_core(const struct hwprof_pmus *pmus)
{
	for (size_t i = 0; pmus && i < pmus->nr; i++)
		if (pmus->v[i].is_core)
			return &pmus->v[i];
	return NULL;
}

HWPROF_API const struct hwprof_pmu_format *hwprof_pmu_format_find(const struct hwprof_pmu *pmu,
								   const char *name)
{
	for (size_t i = 0; pmu && i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

HWPROF_API const struct hwprof_pmu_alias *hwprof_pmu_alias(const struct hwprof_pmu *pmu,
							    const char *name)
{
	for (size_t i = 0; pmu && i < pmu->nr_aliases; i++)
		if (!strcmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

HWPROF_API const char *hwprof_pmu_cap(const struct hwprof_pmu *pmu, const char *name)
{
	for (size_t i = 0; pmu && i < pmu->nr_caps; i++)
		if (!strcmp(pmu->caps[i].name, name))
			return pmu->caps[i].value;
	return NULL;
}
