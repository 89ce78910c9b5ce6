/* hwprof record with an Arm SPE event: the library's notes on stderr, and
 * for a real recording perf's AUX buffer sizing for SPE (4 MiB privileged,
 * 128 KiB and 256 KiB data rings otherwise; at least 8 KiB and a power of
 * 2) and the AUXTRACE_INFO builder (versioned layout, per-CPU MIDRs read
 * through the sysfs root, HWPROF_SYSFS in tests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwprof/arm_spe_record.h"
#include "cli/cli.h"
#include "cli/record_spe.h"

/* Lives until the recording ends (the aux_ops point into it). */
static struct hwprof_spe_rec_info spe_info;
static struct hwprof_record_aux_ops spe_ops;

static int privileged(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return geteuid() == 0 || v <= 1; /* CAP_PERFMON is not looked at */
}

static const struct hwprof_event *spe_event(const struct hwprof_evlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->ev[i].kind == HWPROF_EVENT_PMU && !strncmp(l->ev[i].pmu, "arm_spe_", 8))
			return &l->ev[i];
	return NULL;
}

static void record_spe_free(void)
{
	hwprof_spe_rec_info_free(&spe_info);
}

int record_spe_setup(const struct hwprof_evlist *l, const struct hwprof_pmus *pmus,
		     const struct hwprof_evlist_opts *o, struct record_cli_opts *ro, int dry)
{
	const struct hwprof_event *e = spe_event(l);
	char notes[2048];
	if (!e)
		return 0;
	hwprof_spe_notes(l, pmus, o, notes, sizeof(notes));
	for (char *line = notes, *nl; *line; line = nl + 1) {
		if (!(nl = strchr(line, '\n')))
			break;
		fprintf(stderr, "Warning: %.*s\n", (int)(nl - line), line);
	}
	if (dry)
		return 0;
	const struct hwprof_pmu *pmu = hwprof_pmus_find(pmus, e->pmu);
	uint64_t pa = 0, pct = 0;
	hwprof_spe_term_value(pmu, &e->attr, "pa_enable", &pa);
	hwprof_spe_term_value(pmu, &e->attr, "pct_enable", &pct);
	int priv = privileged();
	if (!priv && (pa || pct))
		fprintf(stderr, "Warning: %s: pa_enable and pct_enable need privilege (perf_event_paranoid <= 1, "
				"CAP_PERFMON or root); the kernel will refuse the event\n", e->name);
	else if (!priv && !ro->quiet)
		fprintf(stderr, "Warning: %s: without privilege SPE writes no CONTEXT packets: kernel samples "
				"cannot be given a pid (user-space sampling is unaffected)\n", e->name);
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	if (!ro->aux_pages) {
		ro->aux_pages = (uint32_t)((priv ? 4L << 20 : 128L << 10) / page);
		if (!priv && !ro->mmap_pages)
			ro->mmap_pages = (uint32_t)((256L << 10) / page);
	}
	uint64_t sz = (uint64_t)ro->aux_pages * (uint64_t)page;
	if (sz < 8192 || (sz & (sz - 1)))
		return cli_error("record", "Invalid mmap size for ARM SPE: must be at least 8KiB and a power of 2");
	struct hwprof_error err;
	int rc = hwprof_spe_rec_info_probe(&spe_info, getenv("HWPROF_SYSFS"), pmu, ro->cpus, &err);
	if (rc < 0)
		return cli_error("record", "arm_spe AUXTRACE_INFO: %s", err.msg);
	atexit(record_spe_free);
	hwprof_spe_record_aux_ops(&spe_ops, &spe_info);
	ro->aux_ops = &spe_ops;
	return 0;
}
