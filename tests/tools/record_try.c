/* record_try: drives record_run() (src/cli/record_run.c, compiled in
 * here) without the CLI's option parser, for the differential tests.
 * Events go through the library's parser and hwprof_evlist_config (no
 * PMUs: symbolic events only), the one place options become attrs:
 *   record_try [-e cpu-clock|task-clock|cycles[,...]] [-c N | -F N] [-g]
 *              [--call-graph fp|dwarf[,n]] [-a] [-C list] [-p pid]
 *              [-I mask] [--simd zmm|xmm] [--no-simd-pmu] [-z] [-m pages] [-o file|-] [--pipe-file]
 *              [--no-inherit] [-d] [-s] [--sample-cpu] [--switch-events]
 *              [-q] [-v] [--control fifo:ctl,ack|fd:ctl,ack] [-D ms|-1]
 *              [-- cmd args]
 * Prints "samples=N lost=N" on stderr after perf's summary lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/record_run.c"
#include "hwprof/event.h"
#include "hwprof/sys.h"

/* --no-simd-pmu: the real kernel, except that SIMD register requests are
 * refused as by a PMU without the SIMD capability (EOPNOTSUPP). */
static int no_simd_open(struct hwprof_attr *a, int pid, int cpu, int group_fd, unsigned long flags)
{
	if (a->sample_simd_regs_enabled)
		return -EOPNOTSUPP;
	return hwprof_sys_default()->perf_event_open(a, pid, cpu, group_fd, flags);
}

int main(int argc, char **argv)
{
	static struct hwprof_record_event ev[8];
	struct record_cli_opts o = { 0 };
	struct hwprof_evlist_opts eo;
	const char *events = "cpu-clock";
	uint64_t intr = 0;
	const char *simd = NULL;
	int i;
	hwprof_evlist_opts_default(&eo);
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
		else if (!strcmp(a, "-c")) eo.period = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-F")) eo.freq = strtoull(v, NULL, 0), eo.user_freq = 1, i++;
		else if (!strcmp(a, "-g")) eo.call_graph = HWPROF_CG_FP;
		else if (!strcmp(a, "--call-graph")) {
			i++;
			if (!strncmp(v, "dwarf", 5)) {
				eo.call_graph = HWPROF_CG_DWARF;
				if (v[5] == ',')
					eo.stack_size = (uint32_t)strtoul(v + 6, NULL, 0);
			} else if (!strcmp(v, "fp")) {
				eo.call_graph = HWPROF_CG_FP;
			} else {
				fprintf(stderr, "record_try: bad --call-graph %s\n", v);
				return 2;
			}
		}
		else if (!strcmp(a, "-a")) o.system_wide = true, eo.target_cpu = 1;
		else if (!strcmp(a, "-C")) o.cpus = v, eo.target_cpu = 1, i++;
		else if (!strcmp(a, "-p")) o.pid = atoi(v), i++;
		else if (!strcmp(a, "-I")) intr = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "--simd")) simd = v, i++;
		else if (!strcmp(a, "--no-simd-pmu")) {
			static struct hwprof_sys_ops ops;
			ops.perf_event_open = no_simd_open;
			ops.close = hwprof_sys_default()->close;
			o.sys = &ops;
		}
		else if (!strcmp(a, "-z")) o.zstd_level = 1;
		else if (!strcmp(a, "-m")) o.mmap_pages = (uint32_t)atoi(v), i++;
		else if (!strcmp(a, "-o")) o.output = v, i++;
		else if (!strcmp(a, "--no-inherit")) o.no_inherit = true, eo.no_inherit = 1;
		else if (!strcmp(a, "-d")) eo.data_addr = 1;
		else if (!strcmp(a, "-s")) eo.inherit_stat = 1;
		else if (!strcmp(a, "--sample-cpu")) eo.sample_cpu = 1;
		else if (!strcmp(a, "--switch-events")) eo.switch_events = 1;
		else if (!strcmp(a, "--control")) o.control = v, i++;
		else if (!strcmp(a, "-D")) o.delay_ms = atoi(v), eo.delay = o.delay_ms != 0, i++;
		else if (!strcmp(a, "-q")) o.quiet = 1;
		else if (!strcmp(a, "-v")) o.verbose++;
		else {
			fprintf(stderr, "record_try: unknown option %s\n", a);
			return 2;
		}
	}
	if (i < argc)
		o.argv = argv + i;
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	if (hwprof_evlist_parse(&l, events, NULL, &err) < 0 || hwprof_evlist_config(&l, &eo, NULL, &err) < 0) {
		fprintf(stderr, "record_try: %s\n", err.msg);
		return 2;
	}
	if (l.nr > 8) {
		fprintf(stderr, "record_try: too many events\n");
		return 2;
	}
	for (size_t k = 0; k < l.nr; k++) {
		struct hwprof_record_event *e = &ev[k];
		e->attr = l.ev[k].attr;
		e->name = l.ev[k].name;
		e->leader = l.ev[k].leader == k ? -1 : (int)l.ev[k].leader;
		e->tracking = (e->attr.flags >> HWPROF_ATTR_MMAP) & 1;
		e->configured = true;
		if (e->attr.type == HWPROF_TYPE_SOFTWARE && e->attr.config <= 1) {
			e->unit = "msec";
			e->scale = 1e-6;
		}
		if (intr && !(e->attr.type == HWPROF_TYPE_SOFTWARE && e->attr.config == 9)) {
			e->attr.sample_type |= HWPROF_SAMPLE_REGS_INTR;
			e->attr.sample_regs_intr = intr;
		}
		if (simd && !(e->attr.type == HWPROF_TYPE_SOFTWARE && e->attr.config == 9)) {
			/* a whole SIMD class on interrupt, through the size-176 fields */
			int zmm = !strcmp(simd, "zmm");
			e->attr.sample_type |= HWPROF_SAMPLE_REGS_INTR;
			e->attr.size = HWPROF_ATTR_SIZE_VER10;
			e->attr.sample_simd_regs_enabled = 1;
			e->attr.sample_simd_vec_reg_qwords = zmm ? 8 : 2;
			e->attr.sample_simd_vec_reg_intr = zmm ? 0xffffffffULL : 0xffffULL;
		}
	}
	o.events = ev;
	o.nr_events = (uint32_t)l.nr;
	o.argc = argc;
	o.argv_all = argv;
	int rc = record_run(&o);
	hwprof_evlist_free(&l);
	return rc;
}
