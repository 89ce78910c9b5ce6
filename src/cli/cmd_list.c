/* hwprof list [hw|sw|cache|pmu|GLOB]: the events that exist here, in perf
 * list's layout ("  %-50s [kind]"). Hardware and cache events appear only
 * when a core PMU exists under the sysfs root ($HWPROF_SYSFS or /sys);
 * Kernel PMU events come from each PMU's events/ directory. Tracepoints
 * and metrics are not listed. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/event.h"
#include "hwprof/pmu.h"
#include "cli/cli.h"

enum { SEC_HW = 1, SEC_SW = 2, SEC_CACHE = 4, SEC_PMU = 8, SEC_RAW = 16, SEC_ALL = 31 };

struct lister {
	const char *glob; /* NULL: no filter */
};

static int wanted(const struct lister *ls, const char *name, const char *alias)
{
	if (!ls->glob)
		return 1;
	return !fnmatch(ls->glob, name, 0) || (alias && !fnmatch(ls->glob, alias, 0));
}

static void line(const char *name, const char *kind)
{
	printf("  %-50s [%s]\n", name, kind);
}

static void list_sym(const struct lister *ls, uint32_t type, const char *kind)
{
	size_t nr;
	const struct hwprof_event_name *t = hwprof_event_names(type, &nr);
	char b[128];
	for (size_t i = 0; i < nr; i++) {
		if (!wanted(ls, t[i].name, t[i].alias))
			continue;
		if (t[i].alias)
			snprintf(b, sizeof(b), "%s OR %s", t[i].name, t[i].alias);
		else
			snprintf(b, sizeof(b), "%s", t[i].name);
		line(b, kind);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects, sorts and prints; perf sorts cache and PMU events as strings. */
static int print_sorted(char **v, size_t n, const char *kind)
{
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++) {
		line(v[i], kind);
		free(v[i]);
	}
	free(v);
	return 0;
}

static int list_cache(const struct lister *ls)
{
	char **v = calloc(HWPROF_CACHE_MAX * HWPROF_CACHE_OP_MAX * HWPROF_CACHE_RESULT_MAX, sizeof(*v));
	size_t n = 0;
	char b[96];
	if (!v)
		return -1;
	for (unsigned c = 0; c < HWPROF_CACHE_MAX; c++)
		for (unsigned o = 0; o < HWPROF_CACHE_OP_MAX; o++)
			for (unsigned r = 0; r < HWPROF_CACHE_RESULT_MAX; r++)
				if (!hwprof_cache_event_name(b, sizeof(b), c, o, r) && wanted(ls, b, NULL))
					if (!(v[n++] = strdup(b)))
						return -1;
	return print_sorted(v, n, "Hardware cache event");
}

static int list_pmu_events(const struct lister *ls, const struct hwprof_pmus *pmus)
{
	size_t total = 0, n = 0;
	for (size_t i = 0; i < hwprof_pmus_count(pmus); i++)
		total += hwprof_pmus_get(pmus, i)->nr_aliases;
	char **v = calloc(total ? total : 1, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < hwprof_pmus_count(pmus); i++) {
		const struct hwprof_pmu *p = hwprof_pmus_get(pmus, i);
		for (size_t k = 0; k < p->nr_aliases; k++) {
			char b[2 * HWPROF_PMU_NAME_MAX + 4];
			snprintf(b, sizeof(b), "%s/%s/", p->name, p->aliases[k].name);
			if (!wanted(ls, b, p->aliases[k].name))
				continue;
			if (!(v[n++] = strdup(b)))
				return -1;
		}
	}
	return print_sorted(v, n, "Kernel PMU event");
}

static void list_raw(const struct lister *ls)
{
	if (wanted(ls, "rNNN", NULL))
		line("rNNN", "Raw hardware event descriptor");
	if (wanted(ls, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL))
		line("cpu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor");
	if (wanted(ls, "mem:<addr>[/len][:access]", NULL))
		line("mem:<addr>[/len][:access]", "Hardware breakpoint");
}

int cmd_list(int argc, char **argv)
{
	struct lister ls = { NULL };
	unsigned sections = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "hw") || !strcmp(a, "hardware"))
			sections |= SEC_HW;
		else if (!strcmp(a, "sw") || !strcmp(a, "software"))
			sections |= SEC_SW;
		else if (!strcmp(a, "cache") || !strcmp(a, "hwcache"))
			sections |= SEC_CACHE;
		else if (!strcmp(a, "pmu"))
			sections |= SEC_PMU;
		else if (a[0] == '-')
			return cli_usage_error("list", "unknown option '%s'", a);
		else if (!ls.glob)
			ls.glob = a;
		else
			return cli_usage_error("list", "only one event glob is supported");
	}
	if (!sections)
		sections = SEC_ALL;

	struct hwprof_pmus *pmus = NULL;
	int rc = cli_pmus_open(&pmus);
	if (rc < 0)
		return cli_error("list", "cannot read PMUs: %s", hwprof_strerror(rc));
	int core = hwprof_pmus_core(pmus) != NULL;
	rc = 0;
	if ((sections & SEC_HW) && core)
		list_sym(&ls, HWPROF_TYPE_HARDWARE, "Hardware event");
	if (sections & SEC_SW) {
		size_t nr;
		const char *const *tools = hwprof_tool_event_names(&nr);
		list_sym(&ls, HWPROF_TYPE_SOFTWARE, "Software event");
		for (size_t i = 0; i < nr; i++)
			if (wanted(&ls, tools[i], NULL))
				line(tools[i], "Tool event");
	}
	if ((sections & SEC_CACHE) && core && list_cache(&ls))
		rc = 1;
	if ((sections & SEC_PMU) && list_pmu_events(&ls, pmus))
		rc = 1;
	if (sections & SEC_RAW)
		list_raw(&ls);
	hwprof_pmus_close(pmus);
	return rc ? cli_error("list", "out of memory") : 0;
}
