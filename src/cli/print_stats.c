/* perf's event statistics blocks (see print_stats.h). */
#include "cli/print_stats.h"

#include "hwprof/perfdata_feat.h"

static const char *const record_names[128] = {
	[0] = "TOTAL", [1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT", [5] = "THROTTLE",
	[6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ", [9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX",
	[12] = "ITRACE_START", [13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT", [19] = "CGROUP", [20] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID", [64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA",
	[67] = "BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO",
	[71] = "AUXTRACE", [72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP", [74] = "CPU_MAP",
	[75] = "STAT_CONFIG", [76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE",
	[79] = "TIME_CONV", [80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
	[83] = "COMPRESSED2",
};

/* perf 6.1 knows types up to 82 (PERF_RECORD_HEADER_MAX = 83). */
#define PERF61_HEADER_MAX 83

const char *stats_record_name(uint32_t type)
{
	return type < 128 ? record_names[type] : NULL;
}

/* perf prints the counts as ints and the total without a share */
static void stats_line(FILE *out, const char *name, uint64_t n, uint64_t total, bool first)
{
	if (!first && total)
		fprintf(out, "%16s events: %10d  (%4.1f%%)\n", name, (int)n, (double)n * 100.0 / (double)total);
	else
		fprintf(out, "%16s events: %10d\n", name, (int)n);
}

void print_evsel_stats_line(FILE *out, const char *name, uint64_t n)
{
	stats_line(out, name, n, 0, true);
}

void print_aggregated_stats(FILE *out, const uint64_t *nr_events, uint32_t n, bool aux)
{
	fprintf(out, "\nAggregated stats:%s\n",
		aux ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	for (uint32_t t = 0; t < PERF61_HEADER_MAX + 1 && t < n; t++) {
		if (!record_names[t] || (t && !nr_events[t]))
			continue;
		stats_line(out, record_names[t], nr_events[t], nr_events[0], t == 0);
	}
}

void print_session_stats(FILE *out, struct hwprof_session *s)
{
	struct hwprof_perfdata *h = hwprof_session_data(s);
	const struct hwprof_session_stats *st = hwprof_session_stats(s);
	const uint8_t *fp;
	uint64_t fsz;
	bool aux = hwprof_perfdata_feature(h, HWPROF_FEAT_AUXTRACE, &fp, &fsz, NULL) == 1;
	print_aggregated_stats(out, st->nr_events, HWPROF_SESSION_STAT_TYPES, aux);
	for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++) {
		struct hwprof_evsel_stats es = hwprof_session_evsel_stats(s, i);
		/* perf skips events with neither (the dummy tracking event) */
		if (!es.samples && !es.lost_samples)
			continue;
		char buf[128];
		fprintf(out, "%s stats:\n", hwprof_evsel_name(hwprof_perfdata_evsel(h, i), buf, sizeof(buf)));
		if (es.samples)
			print_evsel_stats_line(out, "SAMPLE", es.samples);
		if (es.lost_samples)
			print_evsel_stats_line(out, "LOST_SAMPLES", es.lost_samples);
	}
}
