/* record_try: drives the recording library without the CLI, for the
 * differential tests. Builds perf record's attrs for software clocks:
 *   record_try [-e cpu-clock|task-clock[,...]] [-c N | -F N] [-g] [-a]
 *              [-C list] [-p pid] [-I mask] [-z] [-m pages] [-o file|-]
 *              [--pipe] [--no-inherit] [-- cmd args]
 * Prints the stats line "samples=N lost=N lost_samples=N wakeups=N". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/record.h"

static struct hwprof_recorder *rec;

static void on_signal(int sig)
{
	hwprof_record_wake(rec, sig == SIGCHLD ? HWPROF_WAKE_CHILD : sig == SIGUSR2 ? HWPROF_WAKE_SNAPSHOT
										  : HWPROF_WAKE_STOP);
}

int main(int argc, char **argv)
{
	struct hwprof_record_event ev[8];
	uint32_t nev = 0;
	struct hwprof_record_opts o = { 0 };
	const char *events = "cpu-clock";
	uint64_t period = 0, freq = 4000, intr = 0;
	int callchain = 0, i;
	o.output = "perf.data";
	o.output_fd = -1;
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
		else if (!strcmp(a, "-c")) period = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-F")) freq = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-g")) callchain = 1;
		else if (!strcmp(a, "-a")) o.system_wide = true;
		else if (!strcmp(a, "-C")) o.cpus = v, i++;
		else if (!strcmp(a, "-p")) o.pid = atoi(v), i++;
		else if (!strcmp(a, "-I")) intr = strtoull(v, NULL, 0), i++;
		else if (!strcmp(a, "-z")) o.zstd_level = 1;
		else if (!strcmp(a, "-m")) o.mmap_pages = (uint32_t)atoi(v), i++;
		else if (!strcmp(a, "-o")) o.output = v, i++;
		else if (!strcmp(a, "--pipe")) o.pipe = true;
		else if (!strcmp(a, "--no-inherit")) o.no_inherit = true;
		else {
			fprintf(stderr, "record_try: unknown option %s\n", a);
			return 2;
		}
	}
	if (i < argc)
		o.argv = argv + i;
	if (!strcmp(o.output, "-"))
		o.pipe = true;
	char *list = strdup(events);
	for (char *s = strtok(list, ","); s && nev < 8; s = strtok(NULL, ",")) {
		struct hwprof_record_event *e = &ev[nev++];
		memset(e, 0, sizeof(*e));
		e->leader = -1;
		e->attr.type = HWPROF_TYPE_SOFTWARE;
		e->attr.size = HWPROF_ATTR_SIZE_VER7;
		if (!strcmp(s, "cpu-clock")) e->attr.config = 0;
		else if (!strcmp(s, "task-clock")) e->attr.config = 1;
		else {
			fprintf(stderr, "record_try: unknown event %s\n", s);
			return 2;
		}
		e->name = !strcmp(s, "cpu-clock") ? "cpu-clock" : "task-clock";
		e->unit = "msec";
		e->scale = 1e-6;
		e->attr.flags |= 1ULL << HWPROF_ATTR_EXCLUDE_GUEST;
		if (period) {
			e->attr.sample_period = period;
		} else {
			e->attr.sample_period = freq;
			e->attr.flags |= 1ULL << HWPROF_ATTR_FREQ;
		}
		if (callchain)
			e->attr.sample_type |= HWPROF_SAMPLE_CALLCHAIN;
		if (intr) {
			e->attr.sample_type |= HWPROF_SAMPLE_REGS_INTR;
			e->attr.sample_regs_intr = intr;
		}
	}
	o.events = ev;
	o.nr_events = nev;
	o.cmd_argc = argc;
	o.cmd_argv = argv;
	hwprof_record_config(ev, nev, &o);

	struct hwprof_error err;
	struct hwprof_record_fail fail;
	int rc = hwprof_record_open(&rec, &o, &err, &fail);
	if (rc) {
		fprintf(stderr, "record_try: %s\n", err.msg);
		hwprof_record_close(rec, NULL, NULL);
		return 1;
	}
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	if (hwprof_record_start(rec, &err)) {
		fprintf(stderr, "record_try: %s\n", err.msg);
	} else {
		while ((rc = hwprof_record_poll(rec, 500)) > 0)
			;
	}
	struct hwprof_record_stats st;
	int crc = hwprof_record_close(rec, &st, &err);
	if (crc || rc < 0) {
		fprintf(stderr, "record_try: %s\n", crc ? err.msg : hwprof_strerror(rc));
		return 1;
	}
	fprintf(stderr, "samples=%llu lost=%llu lost_samples=%llu wakeups=%llu\n", (unsigned long long)st.samples,
		(unsigned long long)st.lost, (unsigned long long)st.lost_samples, (unsigned long long)st.wakeups);
	free(list);
	return 0;
}
