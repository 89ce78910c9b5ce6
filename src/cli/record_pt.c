/* hwprof record's Intel PT glue (record_pt.h): what perf record does for
 * intel_pt between parsing the events and opening them, with perf's
 * messages, and the AUXTRACE_INFO callback for the recorder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/record_pt.h"

int record_pt_add_filter(struct record_pt_filters *fl, int spec, const char *text)
{
	if (!spec) {
		fprintf(stderr, "--filter option should follow a -e tracepoint or HW tracer option\n\n"
				" Usage: hwprof record [<options>] [<command>]\n"
				"    or: hwprof record [<options>] -- <command> [<options>]\n\n"
				"        --filter <filter>\n"
				"                          event filter\n");
		return 129;
	}
	if (fl->n == RECORD_PT_MAX_FILTERS) {
		fprintf(stderr, "hwprof record: too many --filter options (at most %d)\n", RECORD_PT_MAX_FILTERS);
		return 1;
	}
	fl->f[fl->n].spec = spec - 1;
	fl->f[fl->n].text = text;
	fl->n++;
	return 0;
}

/* The filters of one event joined with ',' as perf appends them. */
static char *joined(const struct record_pt_filters *fl, int spec)
{
	size_t len = 1;
	for (int i = 0; i < fl->n; i++)
		if (fl->f[i].spec == spec)
			len += strlen(fl->f[i].text) + 1;
	if (len == 1)
		return NULL;
	char *s = calloc(1, len);
	for (int i = 0; s && i < fl->n; i++)
		if (fl->f[i].spec == spec) {
			if (*s)
				strcat(s, ",");
			strcat(s, fl->f[i].text);
		}
	return s;
}

static int check_pt(struct record_pt *p, struct hwprof_evlist *l, const struct hwprof_pmus *pmus, int verbose)
{
	struct hwprof_event *pt = NULL;
	for (size_t i = 0; i < l->nr; i++) {
		if (strcmp(l->ev[i].pmu, "intel_pt"))
			continue;
		if (pt) {
			fprintf(stderr, "There may be only one intel_pt event\n");
			return 1;
		}
		pt = &l->ev[i];
	}
	if (!pt)
		return 0;
	/* perf cannot tell PEBS events apart in the trace: one aux-output only */
	int aux_output = 0;
	for (size_t i = 0; i < l->nr; i++)
		aux_output += HWPROF_ATTR_HAS(&l->ev[i].attr, HWPROF_ATTR_AUX_OUTPUT) != 0;
	if (aux_output > 1) {
		fprintf(stderr, "intel_pt supports at most one event with aux-output\n");
		return 1;
	}
	p->pt = hwprof_pmus_find(pmus, "intel_pt");
	unsigned flags;
	if (verbose >= 2 && p->pt) {
		char terms[256];
		hwprof_pt_default_terms(p->pt, terms, sizeof(terms));
		fprintf(stderr, "intel_pt default config: %s\n", terms); /* perf -vv says it too */
	}
	struct hwprof_error err;
	if (hwprof_pt_check_config(p->pt, &pt->attr.config, &flags, &err) < 0) {
		if (flags & HWPROF_PT_FORCED_PT)
			fprintf(stderr, "pt=0 doesn't make sense, forcing pt=1\n");
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (flags & HWPROF_PT_FORCED_PT)
		fprintf(stderr, "pt=0 doesn't make sense, forcing pt=1\n");
	return 0;
}

int record_pt_prepare(struct record_pt *p, struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
		      const struct record_pt_filters *fl, const size_t *spec_end, int verbose)
{
	memset(p, 0, sizeof(*p));
	p->nr = l->nr;
	p->filter = calloc(l->nr ? l->nr : 1, sizeof(*p->filter));
	if (!p->filter) {
		fprintf(stderr, "hwprof record: out of memory\n");
		return 1;
	}
	/* perf checks --filter against the PMU while parsing options */
	for (int i = 0; i < fl->n; i++) {
		size_t first = fl->f[i].spec ? spec_end[fl->f[i].spec - 1] : 0;
		for (size_t e = first; e < spec_end[fl->f[i].spec]; e++) {
			const struct hwprof_pmu *pmu = l->ev[e].pmu[0] ? hwprof_pmus_find(pmus, l->ev[e].pmu) : NULL;
			if (!pmu || pmu->nr_addr_filters <= 0) {
				fprintf(stderr, "This CPU does not support address filtering\n\n"
						" Usage: hwprof record [<options>] [<command>]\n"
						"    or: hwprof record [<options>] -- <command> [<options>]\n\n"
						"        --filter <filter>\n"
						"                          event filter\n");
				return 129;
			}
		}
	}
	int rc = check_pt(p, l, pmus, verbose);
	if (rc)
		return rc;
	int last = -1;
	for (int i = 0; i < fl->n; i++)
		if (fl->f[i].spec > last)
			last = fl->f[i].spec;
	for (int s = 0; s <= last && !rc; s++) {
		char *text = joined(fl, s);
		if (!text)
			continue;
		size_t first = s ? spec_end[s - 1] : 0;
		for (size_t e = first; e < spec_end[s] && !rc; e++) {
			const struct hwprof_pmu *pmu = hwprof_pmus_find(pmus, l->ev[e].pmu);
			char out[8192], msg[4096];
			unsigned how = verbose > 0 ? HWPROF_PT_FILTER_PARAMS : 0; /* as perf demangles */
			if (hwprof_pt_filter_build(pmu, text, how, out, sizeof(out), msg, sizeof(msg)) < 0) {
				fprintf(stderr, "%s\n", msg);
				rc = 1;
			} else if (!(p->filter[e] = strdup(out))) {
				rc = 1;
			} else if (verbose) {
				fprintf(stderr, "Address filter: %s\n", out);
			}
		}
		free(text);
	}
	return rc;
}

/* perf_event_paranoid_check(-1): root, or a paranoid level of -1 or less */
static int privileged(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 2;
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return geteuid() == 0 || level <= -1;
}

int record_pt_finish(const struct record_pt *p, struct hwprof_evlist *l, uint32_t *aux_pages,
		     uint32_t *mmap_pages, int snapshot)
{
	if (!p->pt)
		return 0;
	long pg = sysconf(_SC_PAGESIZE);
	if (!*aux_pages) {
		if (privileged()) {
			*aux_pages = (uint32_t)((4u << 20) / pg);
		} else {
			*aux_pages = (uint32_t)((128u << 10) / pg);
			if (!*mmap_pages)
				*mmap_pages = (uint32_t)((256u << 10) / pg);
		}
	}
	uint64_t sz = (uint64_t)*aux_pages * (uint64_t)pg, min = snapshot ? 4096 : 8192;
	if (sz < min || (sz & (sz - 1))) {
		fprintf(stderr, "Invalid mmap size for Intel Processor Trace: must be at least %lluKiB and a power of 2\n",
			(unsigned long long)min / 1024);
		return 1;
	}
	for (size_t i = 0; i < l->nr; i++) {
		struct hwprof_attr *a = &l->ev[i].attr;
		if (a->type != p->pt->type)
			continue;
		a->sample_type |= HWPROF_SAMPLE_CPU;
		if (!snapshot)
			a->aux_watermark = (uint32_t)(sz / 4);
	}
	return 0;
}

/* The recorder's AUXTRACE_INFO hook for the intel_pt event. */
static int pt_info(void *ctx, const struct hwprof_record_event *ev, uint8_t *buf, size_t len)
{
	struct record_pt *p = ctx;
	if (!p->pt || ev->attr.type != p->pt->type)
		return -HWPROF_E_INVAL;
	p->info.filter = ev->filter;
	int n = hwprof_pt_auxtrace_info(p->pt, &p->info, NULL, buf, len);
	if (n >= 8 + 8 * HWPROF_PT_INFO_WORDS && !buf[8 + 8 * HWPROF_PT_INFO_CAP_USER_TIME_ZERO])
		fprintf(stderr, "Warning:\nIntel Processor Trace: TSC not available\n"); /* perf's ui__warning */
	return n;
}

void record_pt_attach(struct record_pt *p, struct hwprof_record_event *ev, size_t n,
		      const struct hwprof_record_aux_ops **ops, int cpu_wide, bool *switch_events)
{
	for (size_t i = 0; i < n && i < p->nr; i++)
		ev[i].filter = p->filter[i];
	if (!p->pt)
		return;
	/* hwprof records per cpu; perf's decoder then needs switch events to
	 * tell threads apart when the trace has timestamps, so perf turns
	 * them on (its --switch-events fallback: 2, or 3 cpu-wide) */
	p->info.per_cpu_mmaps = true;
	for (size_t i = 0; i < n; i++)
		if (ev[i].attr.type == p->pt->type && (ev[i].attr.config & hwprof_pt_term_bits(p->pt, "tsc")))
			*switch_events = true;
	p->info.have_sched_switch = *switch_events ? (cpu_wide ? 3 : 2) : 0;
	p->ops.info = pt_info;
	p->ops.ctx = p;
	*ops = &p->ops;
}

void record_pt_free(struct record_pt *p)
{
	for (size_t i = 0; p->filter && i < p->nr; i++)
		free(p->filter[i]);
	free(p->filter);
	p->filter = NULL;
}
