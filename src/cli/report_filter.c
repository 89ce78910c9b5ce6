#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_filter.h"
#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_strs(struct str_list *l);

int report_filter_strs(struct str_list *l, const char *arg)
{
	free_strs(l);
	char *copy = strdup(arg);
	if (!copy)
		return -1;
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char **v = realloc(l->v, (l->n + 1) * sizeof(*v));
		if (!v || !(v[l->n] = strdup(t))) {
			if (v)
				l->v = v;
			free(copy);
			return -1;
		}
		l->v = v;
		l->n++;
	}
	free(copy);
	/* a strlist: sorted, each string once */
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	size_t m = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (m && !strcmp(l->v[m - 1], l->v[i])) {
			free(l->v[i]);
			continue;
		}
		l->v[m++] = l->v[i];
	}
	l->n = m;
	return 0;
}

/* perf's setup_addrlist(): an entry that strtoul() reads whole in base
 * 16 (trailing blanks allowed) is an address, no longer a name */
int report_filter_symbols(struct report_filter *f, const char *arg)
{
	if (report_filter_strs(&f->syms, arg) < 0)
		return -1;
	free(f->addrs.v);
	f->addrs.v = NULL;
	f->addrs.n = 0;
	f->syms_set = true;
	size_t m = 0;
	for (size_t i = 0; i < f->syms.n; i++) {
		const char *s = f->syms.v[i];
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 16);
		bool num = !errno && end != s;
		for (const char *t = end; num && *t; t++)
			num = isspace((unsigned char)*t);
		if (!num) {
			f->syms.v[m++] = f->syms.v[i];
			continue;
		}
		int64_t *a = realloc(f->addrs.v, (f->addrs.n + 1) * sizeof(*a));
		if (!a)
			return -1;
		f->addrs.v = a;
		a[f->addrs.n++] = (int64_t)v;
		free(f->syms.v[i]);
	}
	f->syms.n = m;
	return 0;
}

int report_filter_ints(struct int_list *l, const char *arg)
{
	const char *p = arg;
	while (*p) {
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || errno || (*end && *end != ','))
			return -1; /* the caller says it, in perf's words */
		int64_t *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!nv)
			return -1;
		l->v = nv;
		l->v[l->n++] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* perf's perf_cpu_map__new() then perf_session__cpu_bitmap(): numbers or
 * ranges (strtoul base 0) separated by commas, read while a token starts
 * with a digit (the rest of "0-1,x" is ignored); no CPU at all, a bad
 * token or a backwards range is invalid; libperf warns once past 2048
 * CPUs, the bitmap refuses the first CPU past the file's available ones
 * (NRCPUS, at most 4096). */
int report_filter_cpus(struct report_filter *f, const char *arg, uint32_t nr_cpus)
{
	uint64_t limit = nr_cpus < REPORT_MAX_CPUS ? nr_cpus : REPORT_MAX_CPUS;
	static bool warned;
	const char *p = arg;
	unsigned long too_large = ULONG_MAX;
	size_t n = 0;
	f->cpus_set = true;
	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long a = strtoul(p, &end, 0), b = a;
		if (a >= INT_MAX || (*end && *end != ',' && *end != '-'))
			goto invalid;
		if (*end == '-') {
			const char *q = end + 1;
			b = strtoul(q, &end, 0);
			if (b >= INT_MAX || (*end && *end != ',') || b < a)
				goto invalid;
		}
		if (b >= 2048 && !warned) {
			fprintf(stderr, "Perf can support 2048 CPUs. Consider raising MAX_NR_CPUS\n");
			warned = true;
		}
		for (unsigned long c = a; c <= b && c < limit; c++)
			f->cpus[c / 64] |= 1ull << (c % 64);
		if (b >= limit) {
			unsigned long first = a > limit ? a : (unsigned long)limit;
			if (first < too_large)
				too_large = first;
		}
		n += b - a + 1;
		p = *end ? end + 1 : end;
	}
	if (!n)
		goto invalid;
	if (too_large != ULONG_MAX) {
		fprintf(stderr, "Requested CPU %lu too large. Consider raising MAX_NR_CPUS\n", too_large);
		return -1;
	}
	return 0;
invalid:
	fprintf(stderr, "Invalid cpu_list\n");
	return -1;
}

static void free_strs(struct str_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void report_filter_free(struct report_filter *f)
{
	free_strs(&f->comms);
	free_strs(&f->dsos);
	free_strs(&f->syms);
	free(f->addrs.v);
	free(f->pids.v);
	free(f->tids.v);
	memset(f, 0, sizeof(*f));
}

bool report_filter_any(const struct report_filter *f)
{
	return f->comms.n || f->dsos.n || f->syms_set || f->pids.n || f->tids.n;
}

static bool has_str(const struct str_list *l, const char *s)
{
	return bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str) != NULL;
}

static bool has_int(const struct int_list *l, int64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

bool report_filter_hides(const struct report_filter *f, const struct hwprof_symbols *syms,
			 const struct hwprof_hist_sample *hs, uint64_t ip)
{
	/* perf's thread__is_filtered(): the thread's comm now, its pid, tid */
	if (f->comms.n && !has_str(&f->comms, hs->comm ? hs->comm : ""))
		return true;
	if (f->pids.n && !has_int(&f->pids, hs->pid))
		return true;
	if (f->tids.n && !has_int(&f->tids, hs->tid))
		return true;
	/* the DSO by short or long name; no map at all is outside */
	if (f->dsos.n) {
		char sn[1024];
		if (!hs->dso)
			return true;
		/* the kernel's long name is what its symbols came from, which
		 * for kallsyms is its name here (a vmlinux path also names it
		 * for perf: left alone) */
		const char *name = hs->dso;
		const char *short_name = hwprof_symbols_perf_name(syms, hs->dso, true, sn, sizeof(sn));
		if (short_name == hs->dso) {
			hwprof_dso_short_name(hs->dso, hs->kernel_map, sn, sizeof(sn));
			short_name = sn;
		}
		if (!has_str(&f->dsos, short_name) && (!strcmp(short_name, name) || !has_str(&f->dsos, name)))
			return true;
	}
	/* the symbol by name (perf also compares its start address as text
	 * with the names, which no longer hold any number), else the
	 * sample's address when a map holds it */
	if (f->syms_set) {
		if (hs->sym && has_str(&f->syms, hs->sym->name))
			return false;
		if (!hs->dso)
			return true;
		for (size_t i = 0; i < f->addrs.n; i++) {
			uint64_t a = (uint64_t)f->addrs.v[i];
			if (ip == a || (f->addr_range && ip >= a && ip < a + (uint64_t)(int64_t)f->addr_range))
				return false;
		}
		return true;
	}
	return false;
}

bool report_filter_drops_cpu(const struct report_filter *f, int32_t cpu)
{
	if (!f->cpus_set)
		return false;
	if (cpu < 0 || cpu >= REPORT_MAX_CPUS)
		return true;
	return !(f->cpus[cpu / 64] >> (cpu % 64) & 1);
}

uint32_t report_filter_nr_cpus(struct hwprof_perfdata *h)
{
	struct hwprof_feat *f;
	uint32_t n = 0;
	if (hwprof_perfdata_feat(h, HWPROF_FEAT_NRCPUS, &f) == 1) {
		n = f->u.nrcpus.avail;
		hwprof_feat_free(f);
	}
	return n;
}
