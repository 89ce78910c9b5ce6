/* Loading tracing data for script and report (see trace_load.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/trace_load.h"
#include "hwprof/perfdata_feat.h"

static int report(const char *cmd, const char *shown, const struct hwprof_error *e, int rc)
{
	fflush(stdout);
	fprintf(stderr, "hwprof %s: %s: offset %#llx: %s\n", cmd, shown, (unsigned long long)e->offset,
		e->msg[0] ? e->msg : hwprof_strerror(rc));
	return rc;
}

/* perf prints libtraceevent's warnings through perror() first: errno is
 * then what perf's plugin search left, the failed stat() of the plugin
 * directories it looks in ($TRACEEVENT_PLUGIN_DIR, then
 * ~/.local/lib/traceevent/plugins/); perf clears it after a warning. */
static int perf_errno(void)
{
	struct stat st;
	int e = 0;
	const char *env = getenv("TRACEEVENT_PLUGIN_DIR"), *home = getenv("HOME");
	if (env && stat(env, &st) < 0)
		e = errno;
	if (home) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", home, ".local/lib/traceevent/plugins/");
		if (stat(path, &st) < 0)
			e = errno;
	}
	return e;
}

void trace_print_warnings(const struct hwprof_trace *t, int *shown, bool *first_done)
{
	int n = hwprof_trace_nr_warnings(t);
	if (*shown >= n)
		return;
	fflush(stdout);
	for (; *shown < n; (*shown)++) {
		if (!*first_done) {
			int e = perf_errno();
			if (e)
				fprintf(stderr, "libtraceevent: %s\n", strerror(e));
			*first_done = true;
		}
		fprintf(stderr, "  %s\n", hwprof_trace_warning(t, *shown));
	}
}

int trace_load_feature(struct hwprof_perfdata *h, struct hwprof_trace **out, const char *cmd, const char *shown)
{
	const uint8_t *d;
	uint64_t size, off;
	struct hwprof_error e;
	*out = NULL;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_TRACING_DATA, &d, &size, &off) != 1)
		return 0;
	int rc = hwprof_trace_parse(out, d, size, off, NULL, &e);
	return rc < 0 ? report(cmd, shown, &e, rc) : 0;
}

int trace_load_record(struct hwprof_perfdata *h, const struct hwprof_record *rec, struct hwprof_trace **t,
		      const char *cmd, const char *shown)
{
	if (rec->type != HWPROF_RECORD_HEADER_TRACING_DATA)
		return 0;
	struct hwprof_error e;
	struct hwprof_trace *n;
	uint64_t used = 0;
	/* the payload starts after the 12-byte record; offsets count from
	 * the file's start like perf's dump does */
	uint64_t base = rec->offset + rec->size + (hwprof_perfdata_info(h)->pipe ? 16 : 0);
	int rc = hwprof_trace_parse(&n, rec->payload, rec->payload ? rec->payload_size : 0, base, &used, &e);
	if (rc < 0)
		return report(cmd, shown, &e, rc);
	hwprof_trace_free(*t);
	*t = n;
	return 0;
}

const char *trace_ksym(void *ctx, uint64_t addr, uint64_t *start)
{
	struct trace_ksyms *ks = ctx;
	struct hwprof_map_info mi;
	struct hwprof_symres r = { 0 };
	char level;
	if (kmap_find_map(&ks->k, ks->s, ks->syms, -1, -1, HWPROF_MISC_KERNEL, addr, &mi, &level) != 1)
		return NULL;
	hwprof_symbols_resolve(ks->syms, mi.dso, mi.start, mi.pgoff, addr, &r);
	if (!r.sym)
		return NULL;
	*start = addr - (r.addr - r.sym->start);
	return r.sym->name;
}
