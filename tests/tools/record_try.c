/* record_try: drives record_run() (src/cli/record_run.c, compiled in
 * here) without the CLI's option parser, for the differential tests.
 * Builds perf record's attrs for software clocks itself:
 *   record_try [-e cpu-clock|task-clock|cycles[,...]] [-c N | -F N] [-g]
 *              [--call-graph fp|dwarf[,n]] [-a] [-C list] [-p pid]
 *              [-I mask] [-z] [-m pages] [-o file|-] [--pipe-file]
 *              [--no-inherit] [-d] [-s] [--sample-cpu] [--switch-events]
 *              [-q] [-v] [--control fifo:ctl,ack] [-- cmd args]
 * Prints "samples=N lost=N" on stderr after perf's summary lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/record_run.c"

int main(int argc, char **argv)
{
	static struct hwprof_record_event ev[8];
	uint32_t nev = 0;
	struct record_cli_opts o = { 0 };
	const char *events = "cpu-clock";
	uint64_t intr = 0;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : "";
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-e")) events = v, i++;
		else if (!strcmp(a, "-c")) o.period = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-F")) o.freq = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-g")) o.call_graph = "fp";
		else if (!strcmp(a, "--call-graph")) o.call_graph = v, i++;
		else if (!strcmp(a, "-a")) o.system_wide = true;
		else if (!strcmp(a, "-C")) o.cpus = v, i++;
		else if (!strcmp(a, "-p")) o.pid = atoi(v), i++;
		else if (!strcmp(a, "-I")) intr = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-z")) o.zstd_level = 1;
		else if (!strcmp(a, "-m")) o.mmap_pages = (uint32_t)atoi(v), i++;
		else if (!strcmp(a, "-o")) o.output = v, i++;
		else if (!strcmp(a, "--no-inherit")) o.no_inherit = true;
		else if (!strcmp(a, "-d")) o.data_addr = true;
		else if (!strcmp(a, "-s")) o.inherit_stat = true;
		else if (!strcmp(a, "--sample-cpu")) o.sample_cpu = true;
		else if (!strcmp(a, "--switch-events")) o.switch_events = true;
		else if (!strcmp(a, "--control")) o.control = v, i++;
		else if (!strcmp(a, "-q")) o.quiet = 1;
		else if (!strcmp(a, "-v")) o.verbose++;
		else {
			fprintf(stderr, "record_try: unknown option %s\n", a);
			return 2;
		}
	}
	if (i < argc)
		o.argv = argv + i;
	char *list = strdup(events);
	for (char *s = strtok(list, ","); s && nev < 8; s = strtok(NULL, ",")) {
		struct hwprof_record_event *e = &ev[nev++];
		e->leader = -1;
		e->attr.size = HWPROF_ATTR_SIZE_VER7;
		e->attr.flags |= 1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
		e->name = s;
		if (!strcmp(s, "cycles")) {
			e->attr.type = HWPROF_TYPE_HARDWARE;
			continue;
		}
		e->attr.type = HWPROF_TYPE_SOFTWARE;
		if (!strcmp(s, "cpu-clock")) e->attr.config = 0;
		else if (!strcmp(s, "task-clock")) e->attr.config = 1;
		else {
			fprintf(stderr, "record_try: unknown event %s\n", s);
			return 2;
		}
		e->unit = "msec";
		e->scale = 1e-6;
		if (intr) {
			e->attr.sample_type |= HWPROF_SAMPLE_REGS_INTR;
			e->attr.sample_regs_intr = intr;
		}
	}
	o.events = ev;
	o.nr_events = nev;
	o.argc = argc;
	o.argv_all = argv;
	int rc = record_run(&o);
	free(list);
	return rc;
}
