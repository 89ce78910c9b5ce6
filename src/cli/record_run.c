/* hwprof record's runner (record_run.h): the recording loop with signals,
 * -D and --control, and perf's
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/record_run.h"
#include "hwprof/perfdata.h"
#include "hwprof/regs.h"
#include "util/bytes.h"

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

/* perf's evsel__open_strerror texts for the errors a recording meets;
 * ksize is the attr size an E2BIG kernel wrote back (0 if unknown). */
static void open_error(const struct hwprof_record_event *e, int err, uint32_t ksize)
{
	const char *name = e && e->name ? e->name : "event";
	fprintf(stderr, "Error:\n");
	/* SIMD / eGPR / SSP requests: say what is missing and what would work */
	if (e && (e->attr.sample_simd_regs_enabled || e->attr.size > HWPROF_ATTR_SIZE_VER8) &&
	    (err == E2BIG || err == EOPNOTSUPP || err == EINVAL)) {
		char why[512];
		hwprof_regs_explain_open_error(why, sizeof(why), &e->attr, hwprof_arch_host(), err, ksize);
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

/* The name perf gives an event whose own name it dropped: the event's
 * name and the modifiers its attr implies (perf's evsel__add_modifiers:
 * k u h for privilege levels when any is excluded, the p's, then H G
 * when exclude_guest differs from what those imply). */
static void name_from_attr(char *buf, size_t len, const char *base, const struct hwprof_attr *a)
{
	char mod[16];
	size_t n = 0;
	bool guest_default = false;
	bool ek = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL), eu = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_USER);
	bool eh = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HV), eH = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_HOST);
	bool eG = HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_GUEST);
	unsigned precise = (unsigned)(a->flags >> HWPROF_ATTR_PRECISE_IP) & 3;
	if (ek || eu || eh) {
		if (!ek)
			mod[n++] = 'k';
		if (!eu)
			mod[n++] = 'u';
		if (!eh)
			mod[n++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < precise; i++)
		mod[n++] = 'p';
	if (precise)
		guest_default = true;
	if (eH || eG == guest_default) {
		if (!eH)
			mod[n++] = 'H';
		if (!eG)
			mod[n++] = 'G';
	}
	mod[n] = 0;
	snprintf(buf, len, "%s%s%s", base, n ? ":" : "", mod);
}

/* perf's evsel__fallback: hardware cycles -> cpu-clock (renamed from
 * the attr, precise_ip kept); kernel sampling refused -> exclude kernel
 * and hypervisor (":u" added to the name) unless user space is excluded.
 * With -v it says so as perf's warning. Returns 1 when e changed. */
static int fallback(const struct record_cli_opts *o, struct hwprof_record_event *e, int err, char *namebuf,
		    size_t len)
{
	struct hwprof_attr *a = &e->attr;
	/* (EOPNOTSUPP, also what a PMU without the SIMD capability says,
	 * is not among perf 6.1's reasons to fall back) */
	if ((err == ENOENT || err == ENXIO || err == ENODEV) && a->type == HWPROF_TYPE_HARDWARE && a->config == 0) {
		if (o->verbose)
			fprintf(stderr, "Warning:\nThe cycles event is not supported, trying to fall back to "
					"cpu-clock-ticks\n");
		a->type = HWPROF_TYPE_SOFTWARE;
		a->config = 0;
		name_from_attr(namebuf, len, "cpu-clock", a);
		e->name = namebuf;
		e->unit = "msec";
		e->scale = 1e-6;
		return 1;
	}
	if ((err == EACCES || err == EPERM) && !HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_KERNEL) && paranoid() > 1) {
		if (HWPROF_ATTR_HAS(a, HWPROF_ATTR_EXCLUDE_USER))
			return 0;
		const char *name = e->name ? e->name : "";
		/* perf adds ":u", or only "u" after a ':' or a PMU's '/' */
		const char *sep = strchr(name, '/') || strchr(name, ':') ? "" : ":";
		if (o->verbose)
			fprintf(stderr, "Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to excluding "
					"kernel and hypervisor  samples\n",
				paranoid());
		char tmp[256];
		snprintf(tmp, sizeof(tmp), "%s%su", name, sep);
		snprintf(namebuf, len, "%s", tmp);
		e->name = namebuf;
		flag(a, HWPROF_ATTR_EXCLUDE_KERNEL, true);
		flag(a, HWPROF_ATTR_EXCLUDE_HV, true);
		return 1;
	}
	return 0;
}

/* perf's messages when events are switched by -D or --control */
static void say_enabled(const struct record_cli_opts *o, bool on)
{
	if (!o->quiet)
		fprintf(stderr, on ? "Events enabled\n" : "Events disabled\n");
}

/* --control: one command per line, as perf 6.1's evlist__ctl_process:
 * enable, disable, snapshot, stop and ping are acted on and acknowledged
 * with "ack\n"; anything else is ignored without an ack. Commands may
 * arrive split over reads: a partial line waits in buf. */
struct control {
	int ctl, ack;
	char buf[256];
	size_t len;
};

/* Acts on one command; false for one perf does not know (no ack).
 * "enable NAME" / "disable NAME" switch one event, "evlist" lists the
 * events' names (its -v/-g/-F forms are not supported: an error line,
 * acked so that a client waiting for the ack goes on). */
static bool control_cmd(const struct record_cli_opts *o, const struct hwprof_record_event *ev, uint32_t nev,
			struct hwprof_recorder *r, const char *s)
{
	if (!strncmp(s, "enable ", 7) || !strncmp(s, "disable ", 8)) {
		bool on = s[0] == 'e';
		const char *name = s + (on ? 7 : 8);
		for (uint32_t i = 0; i < nev; i++)
			if (ev[i].name && !strcmp(ev[i].name, name)) {
				hwprof_record_enable_event(r, i, on);
				if (!o->quiet)
					fprintf(stderr, "Event %s %s\n", name, on ? "enabled" : "disabled");
				return true;
			}
		if (!o->quiet)
			fprintf(stderr, "failed: can't find '%s' event\n", name);
		return true;
	}
	if (!strcmp(s, "evlist")) {
		for (uint32_t i = 0; i < nev; i++)
			fprintf(stderr, "%s\n", ev[i].name ? ev[i].name : "");
		return true;
	}
	if (!strncmp(s, "evlist ", 7)) {
		/* acked like perf (a client waits for it), but said plainly */
		fprintf(stderr, "hwprof record: control command '%s': evlist options are not supported\n", s);
		return true;
	}
	if (!strcmp(s, "enable") || !strcmp(s, "disable")) {
		bool on = s[0] == 'e';
		hwprof_record_enable(r, on);
		say_enabled(o, on);
	} else if (!strcmp(s, "snapshot")) {
		hwprof_record_wake(r, HWPROF_WAKE_SNAPSHOT);
	} else if (!strcmp(s, "stop")) {
		hwprof_record_wake(r, HWPROF_WAKE_STOP);
	} else if (strcmp(s, "ping")) {
		return false;
	}
	return true;
}

static void control_poll(const struct record_cli_opts *o, const struct hwprof_record_event *ev, uint32_t nev,
			 struct hwprof_recorder *r, struct control *c)
{
	for (;;) {
		ssize_t n = read(c->ctl, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
		if (n <= 0)
			return;
		c->len += (size_t)n;
		char *line = c->buf, *nl;
		while ((nl = memchr(line, '\n', c->len - (size_t)(line - c->buf)))) {
			*nl = 0;
			if (control_cmd(o, ev, nev, r, line) && c->ack >= 0) {
				ssize_t w = write(c->ack, "ack\n", 4); /* a reader gone is not our error */
				(void)w;
			}
			line = nl + 1;
		}
		c->len -= (size_t)(line - c->buf);
		memmove(c->buf, line, c->len);
		if (c->len == sizeof(c->buf) - 1)
			c->len = 0; /* a line longer than any command: drop it */
	}
}

/* fifo:ctl[,ack] opens the fifos; fd:ctl[,ack] takes inherited fds. */
static int open_control(const char *spec, struct control *c)
{
	c->ctl = c->ack = -1;
	c->len = 0;
	if (!spec)
		return 0;
	bool fifo = !strncmp(spec, "fifo:", 5);
	if (!fifo && strncmp(spec, "fd:", 3)) {
		fprintf(stderr, "Failed to parse --control option: %s\n", spec);
		return -1;
	}
	char paths[512];
	snprintf(paths, sizeof(paths), "%s", spec + (fifo ? 5 : 3));
	char *comma = strchr(paths, ',');
	if (comma)
		*comma++ = 0;
	if (!fifo) {
		char *e1, *e2 = NULL;
		long a = strtol(paths, &e1, 10), b = comma ? strtol(comma, &e2, 10) : -1;
		if (!paths[0] || *e1 || a < 0 || (comma && (!comma[0] || *e2 || b < 0))) {
			fprintf(stderr, "Failed to parse --control option: %s\n", spec);
			return -1;
		}
		if (fcntl((int)a, F_GETFL) < 0 || (b >= 0 && fcntl((int)b, F_GETFL) < 0)) {
			fprintf(stderr, "Failed to parse --control option: %s: bad file descriptor\n", spec);
			return -1;
		}
		/* inherited descriptors are not ours to close; dup them */
		c->ctl = fcntl((int)a, F_DUPFD_CLOEXEC, 3);
		c->ack = b >= 0 ? fcntl((int)b, F_DUPFD_CLOEXEC, 3) : -1;
		if (c->ctl >= 0)
			fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK);
		return c->ctl >= 0 ? 0 : -1;
	}
	c->ctl = open(paths, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (c->ctl < 0) {
		fprintf(stderr, "Failed to open '%s'\n", paths);
		return -1;
	}
	if (comma && (c->ack = open(comma, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
		fprintf(stderr, "Failed to open '%s'\n", comma);
		close(c->ctl);
		c->ctl = -1;
		return -1;
	}
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* perf record reads its file back when it finishes (for build ids) and
 * its session then warns about LOST records and a high LOST_SAMPLES
 * rate (perf_session__warn_about_errors); the same counts and texts from
 * our file. Pipe output is not read back, as in perf. */
static void lost_warnings(const char *path)
{
	struct hwprof_perfdata *h;
	if (hwprof_perfdata_open(&h, path, NULL))
		return;
	struct hwprof_record rec;
	uint64_t total = 0, lost = 0, samples = 0, lost_samples = 0;
	while (hwprof_perfdata_next(h, &rec) == 1) {
		total++;
		if (rec.type == HWPROF_RECORD_LOST)
			lost++;
		else if (rec.type == HWPROF_RECORD_SAMPLE)
			samples++;
		else if (rec.type == HWPROF_RECORD_LOST_SAMPLES && rec.size >= 16)
			lost_samples += ld64(rec.data + 8);
	}
	hwprof_perfdata_close(h);
	if (lost)
		fprintf(stderr, "Warning:\nProcessed %d events and lost %d chunks!\n\nCheck IO/CPU overload!\n\n",
			(int)total, (int)lost);
	double rate = samples + lost_samples ? (double)lost_samples / (double)(samples + lost_samples) : 0;
	if (rate > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)(samples + lost_samples), rate * 100.0);
}

/* perf keeps the previous recording: a non-empty output file is first
 * renamed to FILE.old (replacing an older one). */
static int backup_old(const char *path)
{
	struct stat st;
	char old[4096];
	if (stat(path, &st) || !st.st_size)
		return 0;
	snprintf(old, sizeof(old), "%s.old", path);
	if (unlink(old) && errno != ENOENT && errno != EISDIR) {
		fprintf(stderr, "Can't remove old data: %s (%s)\n", strerror(errno), old);
		return -1;
	}
	if (rename(path, old)) {
		fprintf(stderr, "Can't move data: %s (%s to %s)\n", strerror(errno), path, old);
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
	ro.snapshot_on_exit = o->snapshot_on_exit;
	ro.aux_ops = o->aux_ops;
	ro.output = o->output ? o->output : "perf.data";
	ro.output_fd = -1;
	ro.pipe = !strcmp(ro.output, "-");
	ro.zstd_level = o->zstd_level;
	ro.use_clockid = o->use_clockid;
	ro.clockid = o->clockid;
	ro.clockid_res_ns = o->clockid_res_ns;
	ro.cmd_argc = o->argc;
	ro.cmd_argv = o->argv_all;
	ro.delay_ms = o->delay_ms;
	hwprof_record_config(ev, o->nr_events, &ro);

	struct control ctl;
	if (!ro.pipe && backup_old(ro.output))
		goto out;
	if (open_control(o->control, &ctl))
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
			open_error(&ev[fail.event], fail.sys_errno, fail.kernel_attr_size);
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
	/* -D: events start disabled; enabled after delay_ms (> 0) or by
	 * --control (-1) */
	uint64_t enable_at = o->delay_ms > 0 ? mono_ms() + (uint64_t)o->delay_ms : 0;
	if (o->delay_ms)
		say_enabled(o, false);
	for (;;) {
		int timeout = ctl.ctl >= 0 ? 100 : 500;
		if (enable_at) {
			uint64_t now = mono_ms();
			if (now >= enable_at) {
				hwprof_record_enable(r, true);
				say_enabled(o, true);
				enable_at = 0;
			} else if (enable_at - now < (uint64_t)timeout) {
				timeout = (int)(enable_at - now);
			}
		}
		if ((rc = hwprof_record_poll(r, timeout)) <= 0)
			break;
		if (ctl.ctl >= 0)
			control_poll(o, ev, o->nr_events, r, &ctl);
	}
	int loop_rc = rc;
	struct hwprof_record_stats st;
	rc = hwprof_record_close(r, &st, &err);
	run_rec = NULL;
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (rc || loop_rc < 0) {
		/* perf's line ends with strerror: the last part of our message */
		const char *m = rc ? err.msg : hwprof_strerror(loop_rc), *c = strrchr(m, ':');
		fprintf(stderr, "failed to write perf data, error: %s\n", c && c[1] == ' ' ? c + 2 : m);
		goto out_ctl;
	}
	if (o->verbose)
		fprintf(stderr, "samples=%llu lost=%llu lost_samples=%llu wakeups=%llu dropped=%llu\n",
			(unsigned long long)st.samples, (unsigned long long)st.lost,
			(unsigned long long)st.lost_samples, (unsigned long long)st.wakeups,
			(unsigned long long)st.dropped);
	if (!o->quiet) {
		fprintf(stderr, "[ hwprof record: Woken up %llu times to write data ]\n",
			(unsigned long long)st.wakeups);
		if (!ro.pipe)
			lost_warnings(ro.output);
		double mb = (double)st.bytes / 1024.0 / 1024.0;
		const char *name = ro.pipe ? "(null)" : ro.output;
		if (st.compressed) {
			double raw = (double)st.bytes_raw / 1024.0 / 1024.0;
			fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s, compressed (original %.3f MB, ratio is %.3f) ]\n",
				mb, name, raw, st.bytes ? (double)st.bytes_raw / (double)st.bytes : 0.0);
		} else {
			/* perf gives the count only when there are samples and
			 * no AUX area tracing */
			bool aux = false;
			for (uint32_t i = 0; i < o->nr_events; i++)
				aux |= ev[i].aux;
			if (st.samples && !aux)
				fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
					name, (unsigned long long)st.samples);
			else
				fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s ]\n", mb, name);
		}
	}
	status = 0;
	if (st.workload_status >= 0 && WIFEXITED(st.workload_status) && !run_signalled)
		status = WEXITSTATUS(st.workload_status);
out_ctl:
	if (ctl.ctl >= 0)
		close(ctl.ctl);
	if (ctl.ack >= 0)
		close(ctl.ack);
out:
	free(ev);
	free(names);
	return status;
}
