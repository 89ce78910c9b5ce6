/* hwprof record's runner (record_run.h): perf record's attr settings for
 * the options, the recording loop with signals and --control, and perf's
 * messages: the cycles -> cpu-clock fallback, the perf_event_paranoid
 * hint, workload failures, the end-of-run summary ("hwprof record" where
 * perf says "perf record"). Self-contained (no cli.h) so test tools can
 * build it too. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/record_run.h"
#include "hwprof/regs.h"

static struct hwprof_recorder *volatile run_rec; /* for the signal handlers */
static volatile sig_atomic_t run_signalled;

static void on_signal(int sig)
{
	if (sig == SIGINT || sig == SIGTERM)
		run_signalled = 1;
	hwprof_record_wake(run_rec, sig == SIGCHLD   ? HWPROF_WAKE_CHILD
				    : sig == SIGUSR2 ? HWPROF_WAKE_SNAPSHOT
						     : HWPROF_WAKE_STOP);
}

static void flag(struct hwprof_attr *a, unsigned bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

/* The user-register mask perf uses for DWARF unwinding on this arch. */
static uint64_t dwarf_regs(void)
{
#if defined(__x86_64__)
	return 0xff0fffULL;
#elif defined(__aarch64__)
	return (1ULL << 33) - 1;
#else
	return 0;
#endif
}

static int apply(const struct record_cli_opts *o, struct hwprof_record_event *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct hwprof_attr *a = &ev[i].attr;
		if (o->period) {
			a->sample_period = o->period;
			flag(a, HWPROF_ATTR_FREQ, false);
		} else if (o->freq) {
			a->sample_period = o->freq;
			flag(a, HWPROF_ATTR_FREQ, true);
		} else if (!a->sample_period && !ev[i].aux) {
			a->sample_period = 4000;
			flag(a, HWPROF_ATTR_FREQ, true);
		}
		if (o->call_graph && !ev[i].aux) {
			a->sample_type |= HWPROF_SAMPLE_CALLCHAIN;
			if (!strncmp(o->call_graph, "dwarf", 5)) {
				unsigned long size = 8192;
				if (o->call_graph[5] == ',')
					size = strtoul(o->call_graph + 6, NULL, 0);
				if (!size || size > 65528) {
					fprintf(stderr, "callchain: Incorrect stack dump size (max 65528): %s\n",
						o->call_graph + 6);
					return -1;
				}
				a->sample_type |= HWPROF_SAMPLE_REGS_USER | HWPROF_SAMPLE_STACK_USER |
						  HWPROF_SAMPLE_ADDR | HWPROF_SAMPLE_DATA_SRC;
				a->sample_regs_user = dwarf_regs();
				a->sample_stack_user = (uint32_t)((size + 7) & ~7UL);
				flag(a, HWPROF_ATTR_EXCLUDE_CALLCHAIN_USER, true);
				flag(a, HWPROF_ATTR_MMAP_DATA, true);
			} else if (!strcmp(o->call_graph, "lbr")) {
				a->sample_type |= HWPROF_SAMPLE_BRANCH_STACK;
				/* user, call stack, no flags, no cycles */
				a->branch_sample_type = (1ULL << 0) | (1ULL << 11) | (1ULL << 14) | (1ULL << 15);
			} else if (strcmp(o->call_graph, "fp")) {
				fprintf(stderr, "callchain: Unknown --call-graph option value: %s\n", o->call_graph);
				return -1;
			}
		}
		if (o->data_addr) {
			a->sample_type |= HWPROF_SAMPLE_ADDR | HWPROF_SAMPLE_DATA_SRC;
			flag(a, HWPROF_ATTR_MMAP_DATA, true);
		}
		if (o->timestamp)
			a->sample_type |= HWPROF_SAMPLE_TIME;
		if (o->sample_cpu)
			a->sample_type |= HWPROF_SAMPLE_CPU;
		if (o->inherit_stat) {
			flag(a, HWPROF_ATTR_INHERIT_STAT, true);
			a->read_format |= HWPROF_FORMAT_TOTAL_TIME_ENABLED | HWPROF_FORMAT_TOTAL_TIME_RUNNING;
		}
		if (o->switch_events && i == 0)
			flag(a, HWPROF_ATTR_CONTEXT_SWITCH, true);
		if (o->aux_sample && !ev[i].aux) {
			a->sample_type |= HWPROF_SAMPLE_AUX;
			a->aux_sample_size = o->aux_sample;
		}
	}
	return 0;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* perf's evsel__open_strerror texts for the errors a recording meets. */
static void open_error(const struct hwprof_record_event *e, int err)
{
	const char *name = e && e->name ? e->name : "event";
	fprintf(stderr, "Error:\n");
	/* SIMD / eGPR / SSP requests: say what is missing and what would work */
	if (e && (e->attr.sample_simd_regs_enabled || e->attr.size > HWPROF_ATTR_SIZE_VER8) &&
	    (err == E2BIG || err == EOPNOTSUPP || err == EINVAL)) {
		char why[512];
		hwprof_regs_explain_open_error(why, sizeof(why), &e->attr, hwprof_arch_host(), err,
					       err == E2BIG ? e->attr.size : 0);
		fprintf(stderr, "%s\n", why);
		return;
	}
	switch (err) {
	case EPERM:
	case EACCES:
		fprintf(stderr,
			"Access to performance monitoring and observability operations is limited.\n"
			"Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
			"access to performance monitoring and observability operations for processes\n"
			"without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
			"More information can be found at 'Perf events and tool security' document:\n"
			"https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html\n"
			"perf_event_paranoid setting is %d:\n"
			"  -1: Allow use of (almost) all events by all users\n"
			"      Ignore mlock limit after perf_event_mlock_kb without CAP_IPC_LOCK\n"
			">= 0: Disallow raw and ftrace function tracepoint access\n"
			">= 1: Disallow CPU event access\n"
			">= 2: Disallow kernel profiling\n"
			"To make the adjusted perf_event_paranoid setting permanent preserve it\n"
			"in /etc/sysctl.conf (e.g. kernel.perf_event_paranoid = <setting>)\n",
			paranoid());
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		fprintf(stderr, "The %s event is not supported.\n", name);
		break;
	case EMFILE:
		fprintf(stderr, "Too many events are opened.\n"
				"Probably the maximum number of open file descriptors has been reached.\n"
				"Hint: Try again after reducing the number of events.\n"
				"Hint: Try increasing the limit with 'ulimit -n <limit>'\n");
		break;
	default:
		fprintf(stderr,
			"The sys_perf_event_open() syscall returned with %d (%s) for event (%s).\n"
			"/bin/dmesg | grep -i perf may provide additional information.\n",
			err, strerror(err), name);
	}
}

/* perf's evsel__fallback: hardware cycles -> cpu-clock; kernel sampling
 * refused -> exclude kernel and hypervisor. Returns 1 when e changed. */
static int fallback(const struct record_cli_opts *o, struct hwprof_record_event *e, int err, char *namebuf,
		    size_t len)
{
	struct hwprof_attr *a = &e->attr;
	if ((err == ENOENT || err == ENXIO || err == ENODEV || err == EOPNOTSUPP) && a->type == HWPROF_TYPE_HARDWARE &&
	    a->config == 0) {
		if (o->verbose)
			fprintf(stderr, "The cycles event is not supported, trying to fall back to cpu-clock-ticks\n");
		a->type = HWPROF_TYPE_SOFTWARE;
		a->config = 0;
		a->flags &= ~(3ULL << HWPROF_ATTR_PRECISE_IP);
		const char *mod = e->name ? strchr(e->name, ':') : NULL;
		snprintf(namebuf, len, "cpu-clock%s", mod ? mod : "");
		e->name = namebuf;
		e->unit = "msec";
		e->scale = 1e-6;
		return 1;
	}
	if ((err == EACCES || err == EPERM) && !HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL) && paranoid() > 1 &&
	    geteuid() != 0) {
		if (o->verbose)
			fprintf(stderr, "kernel.perf_event_paranoid=%d, trying to fall back to excluding kernel and "
					"hypervisor  samples\n",
				paranoid());
		flag(a, HWPROF_ATTR_EXCLUDE_KERNEL, true);
		flag(a, HWPROF_ATTR_EXCLUDE_HV, true);
		return 1;
	}
	return 0;
}

/* --control fifo:ctl[,ack]: "snapshot", "stop" (and "enable"/"disable",
 * acknowledged but not acted on yet), "ack\n" on the ack fifo. */
static void control_poll(struct hwprof_recorder *r, int ctl, int ack)
{
	char buf[256];
	ssize_t n = read(ctl, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = 0;
	for (char *s = strtok(buf, "\n"); s; s = strtok(NULL, "\n")) {
		if (!strcmp(s, "snapshot"))
			hwprof_record_wake(r, HWPROF_WAKE_SNAPSHOT);
		else if (!strcmp(s, "stop"))
			hwprof_record_wake(r, HWPROF_WAKE_STOP);
		if (ack >= 0 && write(ack, "ack\n", 4) < 0)
			break;
	}
}

static int open_control(const char *spec, int *ctl, int *ack)
{
	*ctl = *ack = -1;
	if (!spec)
		return 0;
	if (strncmp(spec, "fifo:", 5)) {
		fprintf(stderr, "Failed to parse --control option: %s\n", spec);
		return -1;
	}
	char paths[512];
	snprintf(paths, sizeof(paths), "%s", spec + 5);
	char *comma = strchr(paths, ',');
	if (comma)
		*comma++ = 0;
	*ctl = open(paths, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (*ctl < 0) {
		fprintf(stderr, "Failed to open '%s'\n", paths);
		return -1;
	}
	if (comma && (*ack = open(comma, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
		fprintf(stderr, "Failed to open '%s'\n", comma);
		close(*ctl);
		return -1;
	}
	return 0;
}

int record_run(const struct record_cli_opts *o)
{
	if (!o->nr_events) {
		fprintf(stderr, "Error:\nno events to record\n");
		return 255;
	}
	if (!(o->argv && o->argv[0]) && !o->pid && !o->tid && !o->system_wide && !o->cpus) {
		fprintf(stderr, " Error: no target: give a command, -p, -t, -a or -C\n");
		return 129;
	}
	struct hwprof_record_event *ev = calloc(o->nr_events, sizeof(*ev));
	char (*names)[256] = calloc(o->nr_events, sizeof(*names));
	if (!ev || !names) {
		fprintf(stderr, "Error:\nout of memory\n");
		free(ev);
		free(names);
		return 255;
	}
	memcpy(ev, o->events, o->nr_events * sizeof(*ev));
	int status = 255;
	if (apply(o, ev, o->nr_events))
		goto out;

	struct hwprof_record_opts ro = { 0 };
	ro.sys = o->sys;
	ro.events = ev;
	ro.nr_events = o->nr_events;
	ro.argv = o->argv && o->argv[0] ? o->argv : NULL;
	ro.pid = o->pid;
	ro.tid = o->tid;
	ro.system_wide = o->system_wide;
	ro.cpus = o->cpus;
	ro.no_inherit = o->no_inherit;
	ro.mmap_pages = o->mmap_pages;
	ro.aux_pages = o->aux_pages;
	ro.snapshot = o->snapshot;
	ro.aux_ops = o->aux_ops;
	ro.output = o->output ? o->output : "perf.data";
	ro.output_fd = -1;
	ro.pipe = !strcmp(ro.output, "-");
	ro.zstd_level = o->zstd_level;
	ro.cmd_argc = o->argc;
	ro.cmd_argv = o->argv_all;
	hwprof_record_config(ev, o->nr_events, &ro);

	int ctl, ack;
	if (open_control(o->control, &ctl, &ack))
		goto out;

	struct hwprof_recorder *r = NULL;
	struct hwprof_error err;
	struct hwprof_record_fail fail;
	int rc;
	for (int tries = 0;; tries++) {
		rc = hwprof_record_open(&r, &ro, &err, &fail);
		if (!rc)
			break;
		hwprof_record_close(r, NULL, NULL);
		r = NULL;
		if (fail.event >= 0 && tries < 4 &&
		    fallback(o, &ev[fail.event], fail.sys_errno, names[fail.event], sizeof(names[0]))) {
			hwprof_record_config(ev, o->nr_events, &ro);
			continue;
		}
		if (fail.event >= 0)
			open_error(&ev[fail.event], fail.sys_errno);
		else
			fprintf(stderr, "Error:\n%s\n", err.msg);
		goto out_ctl;
	}

	struct sigaction sa = { 0 }, old[4];
	static const int sigs[4] = { SIGINT, SIGTERM, SIGCHLD, SIGUSR2 };
	sa.sa_handler = on_signal;
	run_rec = r;
	run_signalled = 0;
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);

	rc = hwprof_record_start(r, &err);
	if (rc) {
		const char *what = ro.argv ? ro.argv[0] : "";
		const char *ename = ev[0].name ? ev[0].name : "event";
		struct hwprof_record_stats st;
		hwprof_record_close(r, &st, NULL);
		run_rec = NULL;
		for (int i = 0; i < 4; i++)
			sigaction(sigs[i], &old[i], NULL);
		if (st.workload_failed)
			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n", ename, what,
				strerror(st.workload_errno));
		else
			fprintf(stderr, "Error:\n%s\n", err.msg);
		goto out_ctl;
	}
	while ((rc = hwprof_record_poll(r, ctl >= 0 ? 100 : 500)) > 0)
		if (ctl >= 0)
			control_poll(r, ctl, ack);
	int loop_rc = rc;
	struct hwprof_record_stats st;
	rc = hwprof_record_close(r, &st, &err);
	run_rec = NULL;
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (rc || loop_rc < 0) {
		fprintf(stderr, "failed to write perf data, error: %s\n",
			rc ? err.msg : hwprof_strerror(loop_rc));
		goto out_ctl;
	}
	if (o->verbose)
		fprintf(stderr, "samples=%llu lost=%llu lost_samples=%llu wakeups=%llu dropped=%llu\n",
			(unsigned long long)st.samples, (unsigned long long)st.lost,
			(unsigned long long)st.lost_samples, (unsigned long long)st.wakeups,
			(unsigned long long)st.dropped);
	if (st.lost_chunks)
		fprintf(stderr, "WARNING: LOST %llu chunks, Check IO/CPU overload\n",
			(unsigned long long)st.lost_chunks);
	if (!o->quiet) {
		fprintf(stderr, "[ hwprof record: Woken up %llu times to write data ]\n",
			(unsigned long long)st.wakeups);
		double mb = (double)st.bytes / 1024.0 / 1024.0;
		const char *name = ro.pipe ? "(null)" : ro.output;
		if (st.compressed) {
			double raw = (double)st.bytes_raw / 1024.0 / 1024.0;
			fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s, compressed (original %.3f MB, ratio is %.3f) ]\n",
				mb, name, raw, st.bytes ? (double)st.bytes_raw / (double)st.bytes : 0.0);
		} else {
			fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb, name,
				(unsigned long long)st.samples);
		}
	}
	status = 0;
	if (st.workload_status >= 0 && WIFEXITED(st.workload_status) && !run_signalled)
		status = WEXITSTATUS(st.workload_status);
out_ctl:
	if (ctl >= 0)
		close(ctl);
	if (ack >= 0)
		close(ack);
out:
	free(ev);
	free(names);
	return status;
}
