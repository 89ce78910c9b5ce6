/* hwprof record: perf record's options. -I? / --user-regs=? list what the
 * kernel can sample; events come from perf's grammar (-e, several times)
 * with -c/-F/-g/--call-graph/-i applied as perf does; --dry-run prints the
 * attrs perf -vv would show (with --arch arm64, or -vv on arm64, the
 * exception levels each event counts), otherwise record_run() records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>

#include "hwprof/event.h"
#include "hwprof/pmu.h"

#include "hwprof/perf_event.h"
#include "hwprof/regs.h"
#include "hwprof/sys.h"
#include "cli/cli.h"
#include "cli/print_event_attr.h"
#include "cli/record_pt.h"
#include "cli/record_pt_emulate.h"
#include "cli/record_run.h"
#include "cli/record_spe.h"

/* perf's usage trailer after -I? and register warnings (parse-options):
 * the help of the option is shown only when its short form -I was used. */
static void usage_tail(int short_opt)
{
	fprintf(stderr, "\n Usage: hwprof record [<options>] [<command>]\n"
			"    or: hwprof record [<options>] -- <command> [<options>]\n\n");
	if (short_opt)
		fprintf(stderr, "    -I, --intr-regs[=<any register>]\n"
				"                          sample selected machine registers on "
				"interrupt, use '-I?' to list register names\n");
}

static int list_regs(int user, int short_opt)
{
	struct hwprof_regs_avail av;
	char buf[1024];
	hwprof_regs_probe(hwprof_sys_default(), hwprof_arch_host(), user, &av);
	hwprof_regs_format_avail(buf, sizeof(buf), &av);
	fputs(buf, stderr);
	usage_tail(short_opt);
	return 129;
}

/* What -I / --user-regs may name: the running kernel's registers, or for
 * another architecture (--arch, for --dry-run) its plain GPRs. */
static void regs_offered(struct hwprof_regs_avail *av, enum hwprof_arch arch, int user)
{
	if (arch == hwprof_arch_host())
		hwprof_regs_probe(hwprof_sys_default(), arch, user, av);
	else
		hwprof_regs_avail_default(av, arch);
}

/* The names of list before its first "?" entry, into buf ("" if there
 * are none); NULL when no entry is "?". */
static const char *before_question(const char *list, char *buf, size_t len)
{
	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (p[0] == '?' && (p[1] == ',' || !p[1])) {
			size_t n = p == list ? 0 : (size_t)(p - list) - 1; /* without its comma */
			snprintf(buf, len, "%.*s", (int)n, list);
			return p == list ? "" : buf;
		}
	return NULL;
}

/* -I / --user-regs value (NULL = bare): list or add it to attr, as perf
 * does while parsing options (given[user]: the option came before, which
 * perf refuses with its usage). Returns 0 or the exit code. */
static int reg_option(struct hwprof_attr *a, int user, const char *list, int short_opt, int dry,
		      int given[2], enum hwprof_arch arch)
{
	if (given[user]++) {
		usage_tail(short_opt);
		return 129;
	}
	struct hwprof_regs_avail av, full;
	char msg[256], fmsg[256], head[256];
	/* perf takes the names in order: a "?" lists, unless a name before it
	 * is unknown (then it warns about that one) */
	const char *q = list ? before_question(list, head, sizeof(head)) : NULL;
	if (q) {
		struct hwprof_attr t = *a;
		if (!*q && q != head)
			return list_regs(user, short_opt);
		regs_offered(&av, arch, user);
		if (hwprof_regs_parse_list(&t, user, q, &av, msg, sizeof(msg)) >= 0)
			return list_regs(user, short_opt);
		fprintf(stderr, "Warning:\n%s\n", msg);
		usage_tail(short_opt);
		return 129;
	}
	/* What this kernel offers decides (bare -I means its GPRs); a request
	 * it cannot take but the architecture defines is accepted by --dry-run,
	 * checked against the full table, so users of older kernels can see
	 * what would be requested. */
	hwprof_regs_avail_full(&full, arch);
	regs_offered(&av, arch, user);
	struct hwprof_attr saved = *a;
	if (hwprof_regs_parse_list(a, user, list, &av, msg, sizeof(msg)) < 0) {
		if (dry) {
			*a = saved;
			if (hwprof_regs_parse_list(a, user, list, &full, fmsg, sizeof(fmsg)) >= 0)
				return 0;
			*a = saved;
		}
		fprintf(stderr, "Warning:\n%s\n", msg);
		usage_tail(short_opt);
		/* Known to the architecture but not to this kernel: say why. */
		if (!dry && hwprof_regs_parse_list(&saved, user, list, &full, fmsg, sizeof(fmsg)) >= 0) {
			char why[512];
			hwprof_regs_explain_unavailable(why, sizeof(why), list, &av);
			fprintf(stderr, "hwprof record: %s\n", why);
		}
		return 129;
	}
	return 0;
}

/* Copy the register request collected from -I / --user-regs (in r) into
 * an event's attr, as perf applies them to every event. */
static void merge_regs(struct hwprof_attr *a, const struct hwprof_attr *r)
{
	a->sample_type |= r->sample_type & (HWPROF_SAMPLE_REGS_INTR | HWPROF_SAMPLE_REGS_USER);
	a->sample_regs_intr |= r->sample_regs_intr;
	a->sample_regs_user |= r->sample_regs_user;
	a->sample_simd_regs_enabled = r->sample_simd_regs_enabled;
	a->sample_simd_pred_reg_qwords = r->sample_simd_pred_reg_qwords;
	a->sample_simd_vec_reg_qwords = r->sample_simd_vec_reg_qwords;
	a->sample_simd_pred_reg_intr = r->sample_simd_pred_reg_intr;
	a->sample_simd_pred_reg_user = r->sample_simd_pred_reg_user;
	a->sample_simd_vec_reg_intr = r->sample_simd_vec_reg_intr;
	a->sample_simd_vec_reg_user = r->sample_simd_vec_reg_user;
	if (r->size > a->size)
		a->size = r->size;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

#define MAX_E 64

/* Parse and configure the events: the -e specs (or perf's default), the
 * evlist defaults, then the -I/--user-regs registers, checked. */
static int build_events(const char **specs, int nspecs, const struct hwprof_evlist_opts *o,
			const struct hwprof_attr *regs, struct hwprof_evlist *l, struct hwprof_pmus **pmusp,
			struct record_pt *pt, const struct record_pt_filters *fl, int verbose)
{
	size_t spec_end[MAX_E];
	struct hwprof_error err;
	int rc = cli_pmus_open(pmusp);
	if (rc < 0)
		return cli_error("record", "cannot read PMUs: %s", hwprof_strerror(rc));
	const char *dflt = hwprof_pmus_core(*pmusp) ? "cycles" : "cpu-clock";
	if (!nspecs) {
		specs = &dflt; /* perf falls back to cpu-clock without a hardware PMU */
		nspecs = 1;
	}
	rc = 0;
	for (int i = 0; i < nspecs && !rc; i++) {
		if (hwprof_evlist_parse(l, specs[i], *pmusp, &err) < 0)
			rc = cli_error("record", "%s", err.msg);
		spec_end[i] = l->nr;
	}
	if (!rc)
		rc = record_pt_prepare(pt, l, *pmusp, fl, spec_end, verbose);
	if (!rc && hwprof_evlist_config(l, o, *pmusp, &err) < 0)
		rc = cli_error("record", "%s", err.msg);
	for (size_t i = 0; !rc && i < l->nr; i++) {
		struct hwprof_attr *a = &l->ev[i].attr;
		char why[256];
		/* perf leaves its tracking dummy without registers */
		if (a->type == HWPROF_TYPE_SOFTWARE && a->config == 9 /* dummy */)
			continue;
		merge_regs(a, regs);
		if (hwprof_regs_validate(a, o->arch, why, sizeof(why)) < 0)
			rc = cli_error("record", "%s", why);
	}
	return rc;
}

/* The attrs in perf -vv's format: on stdout for --dry-run, on stderr
 * before recording with -vv (where perf prints them). */
static int print_attrs(FILE *out, const struct hwprof_record_event *ev, size_t n, const struct hwprof_evlist_opts *o,
		       int arch_given, int verbose)
{
	static const char dots[] = "------------------------------------------------------------";
	for (size_t i = 0; i < n; i++) {
		const struct hwprof_attr *a = &ev[i].attr;
		fprintf(out, "%s\n", dots);
		print_event_attr(out, a);
		fprintf(out, "%s\n", dots);
		if (o->arch == HWPROF_ARCH_ARM64 && (arch_given || verbose >= 2)) {
			char el[512];
			hwprof_arm64_el_format(el, sizeof(el), a);
			fputs(el, out);
		}
	}
	return 0;
}

/* The target's part of the attrs (CPU for -a/-C, enable_on_exec for a
 * workload, the tracking dummy's start), as the recorder will open them
 * and perf -vv prints them. --dry-run without a target assumes a
 * workload, the target perf needs. */
static void config_for_target(struct hwprof_record_event *ev, uint32_t n, const struct record_cli_opts *ro,
			      bool workload)
{
	static char *const cmd[] = { "true", NULL };
	struct hwprof_record_opts t = { 0 };
	t.argv = workload ? cmd : NULL;
	t.pid = ro->pid;
	t.tid = ro->tid;
	t.system_wide = ro->system_wide;
	t.cpus = ro->cpus;
	t.no_inherit = ro->no_inherit;
	t.pipe = ro->output && !strcmp(ro->output, "-");
	t.delay_ms = ro->delay_ms;
	hwprof_record_config(ev, n, &t);
}

/* The parsed events as the recorder takes them. Clocks carry perf's
 * EVENT_UPDATE unit and scale (msec, 1e-6). */
static struct hwprof_record_event *record_events(const struct hwprof_evlist *l)
{
	struct hwprof_record_event *v = calloc(l->nr ? l->nr : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < l->nr; i++) {
		const struct hwprof_event *e = &l->ev[i];
		v[i].attr = e->attr;
		v[i].name = e->name;
		v[i].leader = e->leader == i ? -1 : (int)e->leader;
		v[i].aux = e->is_aux;
		v[i].tracking = (e->attr.flags >> HWPROF_ATTR_MMAP) & 1;
		v[i].configured = true;
		if (e->attr.type == HWPROF_TYPE_SOFTWARE && e->attr.config <= 1) {
			v[i].unit = "msec";
			v[i].scale = 1e-6;
		}
	}
	return v;
}

/* Value of an option given as "-x V", "-xV", "--long V" or "--long=V". */
static const char *opt_value(int argc, char **argv, int *i, const char *s, const char *shrt, const char *lng)
{
	size_t ls = shrt ? strlen(shrt) : 0, ll = lng ? strlen(lng) : 0;
	if ((shrt && !strcmp(s, shrt)) || (lng && !strcmp(s, lng)))
		return *i + 1 < argc ? argv[++*i] : NULL;
	if (shrt && !strncmp(s, shrt, ls) && s[ls] && s[1] != '-')
		return s + ls;
	if (lng && !strncmp(s, lng, ll) && s[ll] == '=')
		return s + ll + 1;
	return NULL;
}

static bool is_opt(const char *s, const char *shrt, const char *lng)
{
	size_t ls = shrt ? strlen(shrt) : 0, ll = lng ? strlen(lng) : 0;
	return (shrt && !strncmp(s, shrt, ls) && (s[ls] == 0 || s[1] != '-')) ||
	       (lng && !strncmp(s, lng, ll) && (s[ll] == 0 || s[ll] == '='));
}

/* Options whose value is the next argument when written alone (the main
 * loop below takes them so). */
static bool separate_value(const char *s)
{
	static const char *const with_value[] = {
		"-e", "--event", "-c", "-F", "--count", "--freq", "--call-graph", "--arch", "-o", "--output",
		"-p", "--pid", "-t", "--tid", "-C", "--cpu", "-m", "--mmap-pages", "--filter", "--control",
		"-D", "--delay", "-k", "--clockid",
	};
	for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
		if (!strcmp(s, with_value[k]))
			return true;
	return false;
}

/* perf's -k/--clockid names (a number, or a name with an optional CLOCK_
 * prefix, any case); the clock's resolution for the CLOCKID feature.
 * Returns 0, or -1 for a name perf does not know. */
static int parse_clockid(const char *str, int32_t *id, uint64_t *res_ns)
{
	static const struct { const char *name; int32_t id; } map[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },	  { "boottime", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },		  { "mono", CLOCK_MONOTONIC },
		{ "raw", CLOCK_MONOTONIC_RAW },	  { "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	int n;
	bool found = sscanf(str, "%d", &n) == 1;
	if (found) {
		*id = n;
	} else {
		if (!strncasecmp(str, "CLOCK_", 6))
			str += 6;
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]) && !found; i++)
			if (!strcasecmp(str, map[i].name)) {
				*id = map[i].id;
				found = true;
			}
		if (!found)
			return -1;
	}
	struct timespec ts;
	*res_ns = 0;
	if (clock_getres(*id, &ts) == 0)
		*res_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	else
		fprintf(stderr, "WARNING: Failed to determine specified clock resolution.\n");
	return 0;
}

/* perf's -F max: the kernel's perf_event_max_sample_rate */
static uint64_t max_sample_rate(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? v : 100000; /* the kernel's default when it cannot be read */
}

/* -S and --aux-sample without an AUX area event: perf's errors (and its
 * exit status, -EINVAL) instead of a recording without what was asked. */
static int aux_options_need_aux(const struct hwprof_evlist *l, const struct hwprof_evlist_opts *o,
				const struct record_cli_opts *ro)
{
	bool aux = false;
	for (size_t i = 0; i < l->nr; i++)
		aux |= l->ev[i].is_aux;
	if (aux)
		return 0;
	if (ro->snapshot) {
		fprintf(stderr, "No AUX area tracing to snapshot\n");
		return 234;
	}
	if (o->aux_sample) {
		fprintf(stderr, "No AUX area event to sample\n");
		return 234;
	}
	return 0;
}

/* perf's target__validate: a pid or tid overrides -C and -a (with its
 * warning); a thread target is recorded without inherit. */
static int target_validate(struct record_cli_opts *ro, struct hwprof_evlist_opts *o)
{
	if (ro->pid < 0 && ro->tid < 0)
		return 0;
	const char *why = NULL;
	if (ro->cpus) {
		ro->cpus = NULL;
		why = "CPU";
	}
	if (ro->system_wide) {
		ro->system_wide = false;
		why = why ? why : "SYSTEM";
	}
	o->target_cpu = 0;
	if (why)
		fprintf(stderr, "Warning:\nPID/TID switch overriding %s\n", why);
	if (ro->tid > 0 && ro->pid < 0) {
		o->no_inherit = 1;
		ro->no_inherit = true;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct hwprof_attr regs;
	struct hwprof_evlist_opts o;
	struct record_cli_opts ro;
	struct record_pt_filters filters = { .n = 0 };
	struct record_pt pt = { 0 };
	const char *specs[MAX_E];
	int nspecs = 0, dry = 0, rc = 0, verbose = 0, arch_given = 0, freq_max = 0, i;
	int regs_given[2] = { 0, 0 }; /* -I/--intr-regs, --user-regs seen */

	if (record_wants_pt_emulate(argc, argv))
		return record_pt_emulate(argc, argv);
	memset(&regs, 0, sizeof(regs));
	memset(&ro, 0, sizeof(ro));
	regs.size = HWPROF_ATTR_SIZE_VER7;
	hwprof_evlist_opts_default(&o);
	ro.pid = ro.tid = -1;
	/* --dry-run and --arch change how -I is checked, wherever they stand
	 * among the options (option values such as -e's are stepped over) */
	enum hwprof_arch reg_arch = hwprof_arch_host();
	for (i = 1; i < argc && strcmp(argv[i], "--") && argv[i][0] == '-'; i++) {
		dry |= !strcmp(argv[i], "--dry-run");
		const char *n = !strncmp(argv[i], "--arch=", 7) ? argv[i] + 7
				: !strcmp(argv[i], "--arch") && i + 1 < argc ? argv[i + 1] : NULL;
		if (n && hwprof_arch_from_name(n) != HWPROF_ARCH_UNKNOWN)
			reg_arch = hwprof_arch_from_name(n);
		if (separate_value(argv[i]))
			i++;
	}
	for (i = 1; i < argc && !rc; i++) {
		const char *s = argv[i], *ev = NULL, *v;
		if (!strcmp(s, "--")) {
			i++;
			break;
		}
		if (s[0] != '-')
			break; /* the workload */
		if (!strncmp(s, "-I", 2))
			rc = reg_option(&regs, 0, s[2] ? s + 2 : NULL, 1, dry, regs_given, reg_arch);
		else if (!strcmp(s, "--intr-regs") || !strncmp(s, "--intr-regs=", 12))
			rc = reg_option(&regs, 0, s[11] ? s + 12 : NULL, 0, dry, regs_given, reg_arch);
		else if (!strcmp(s, "--user-regs") || !strncmp(s, "--user-regs=", 12))
			rc = reg_option(&regs, 1, s[11] ? s + 12 : NULL, 0, dry, regs_given, reg_arch);
		else if (is_opt(s, "-e", "--event")) {
			if (!(ev = opt_value(argc, argv, &i, s, "-e", "--event")))
				return cli_usage_error("record", "option '%s' requires a value", s);
		} else if (is_opt(s, "-c", "--count") || is_opt(s, "-F", "--freq")) {
			/* -c N, -cN, --count=N; -F also takes perf's "max" */
			bool count = s[1] == 'c' || !strncmp(s, "--count", 7);
			uint64_t val;
			v = opt_value(argc, argv, &i, s, count ? "-c" : "-F", count ? "--count" : "--freq");
			if (v && !count && !strcmp(v, "max"))
				val = max_sample_rate(), freq_max = 1;
			else if (!v || parse_u64(v, &val) || !val)
				return cli_usage_error("record", "option '%s' expects a positive number", s);
			if (count)
				o.period = val;
			else
				o.freq = val, o.period = 0, o.user_freq = 1;
		} else if (!strcmp(s, "-g"))
			o.call_graph = HWPROF_CG_FP;
		else if (!strncmp(s, "--call-graph=", 13) || !strcmp(s, "--call-graph")) {
			const char *m = s[12] ? s + 13 : (i + 1 < argc ? argv[++i] : "");
			if (!strcmp(m, "fp"))
				o.call_graph = HWPROF_CG_FP;
			else if (!strncmp(m, "dwarf", 5) && (!m[5] || m[5] == ',')) {
				uint64_t val;
				o.call_graph = HWPROF_CG_DWARF;
				if (m[5] && (parse_u64(m + 6, &val) || !val || val > 0xffffffffULL))
					return cli_usage_error("record", "bad dwarf stack size in '%s'", m);
				if (m[5])
					o.stack_size = (uint32_t)val;
			} else if (!strcmp(m, "lbr"))
				o.call_graph = HWPROF_CG_LBR;
			else
				return cli_usage_error("record", "unknown --call-graph mode '%s' (fp, dwarf[,size], lbr)", m);
		} else if (!strcmp(s, "-i") || !strcmp(s, "--no-inherit")) {
			o.no_inherit = 1;
			ro.no_inherit = true;
		} else if (!strcmp(s, "--arch") || !strncmp(s, "--arch=", 7)) {
			const char *n = s[6] ? s + 7 : (i + 1 < argc ? argv[++i] : "");
			o.arch = hwprof_arch_from_name(n);
			if (!strcmp(n, "arm64"))
				o.arch = HWPROF_ARCH_ARM64;
			if (o.arch == HWPROF_ARCH_UNKNOWN)
				return cli_usage_error("record", "unknown --arch '%s' (x86_64, i386, arm64)", n);
			arch_given = 1;
		} else if (!strcmp(s, "--dry-run"))
			dry = 1;
		else if (s[1] && s[1] != '-' && strspn(s + 1, "v") == strlen(s + 1))
			verbose += (int)strlen(s + 1); /* -v, -vv */
		else if (!strcmp(s, "--verbose"))
			verbose++;
		else if (!strcmp(s, "-q") || !strcmp(s, "--quiet"))
			ro.quiet = 1;
		else if (is_opt(s, "-o", "--output")) {
			if (!(ro.output = opt_value(argc, argv, &i, s, "-o", "--output")))
				return cli_usage_error("record", "option '%s' requires a file name", s);
		} else if (is_opt(s, "-p", "--pid") || is_opt(s, "-t", "--tid")) {
			bool pid = s[1] == 'p' || !strncmp(s, "--pid", 5);
			uint64_t val;
			v = opt_value(argc, argv, &i, s, pid ? "-p" : "-t", pid ? "--pid" : "--tid");
			if (!v || parse_u64(v, &val) || !val || val > 0x7fffffff)
				return cli_usage_error("record", "option '%s' expects a process id", s);
			*(pid ? &ro.pid : &ro.tid) = (int)val;
		} else if (!strcmp(s, "-a") || !strcmp(s, "--all-cpus"))
			ro.system_wide = true, o.target_cpu = 1;
		else if (is_opt(s, "-C", "--cpu")) {
			if (!(ro.cpus = opt_value(argc, argv, &i, s, "-C", "--cpu")))
				return cli_usage_error("record", "option '%s' requires a cpu list", s);
			o.target_cpu = 1;
		} else if (is_opt(s, "-m", "--mmap-pages")) {
			uint64_t a = 0, b = 0;
			v = opt_value(argc, argv, &i, s, "-m", "--mmap-pages");
			const char *comma = v ? strchr(v, ',') : NULL;
			char first[32] = "";
			if (v)
				snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - v) : (int)strlen(v), v);
			if (!v || (first[0] && parse_u64(first, &a)) || (comma && parse_u64(comma + 1, &b)) ||
			    a > (1u << 20) || b > (1u << 20))
				return cli_usage_error("record", "option '%s' expects pages[,auxpages]", s);
			ro.mmap_pages = (uint32_t)a;
			ro.aux_pages = (uint32_t)b;
		} else if (!strcmp(s, "-z") || !strcmp(s, "--compression-level"))
			ro.zstd_level = 1;
		else if (!strncmp(s, "--compression-level=", 20)) {
			uint64_t val;
			if (parse_u64(s + 20, &val) || !val || val > 22)
				return cli_usage_error("record", "compression level must be 1..22");
			ro.zstd_level = (int)val;
		} else if (!strcmp(s, "-d") || !strcmp(s, "--data"))
			o.data_addr = 1;
		else if (!strcmp(s, "-T") || !strcmp(s, "--timestamp"))
			; /* samples carry TIME anyway */
		else if (!strcmp(s, "--sample-cpu"))
			o.sample_cpu = 1;
		else if (!strcmp(s, "-s") || !strcmp(s, "--stat"))
			o.inherit_stat = 1;
		else if (!strcmp(s, "--switch-events"))
			o.switch_events = 1;
		else if (is_opt(s, "-k", "--clockid")) {
			if (!(v = opt_value(argc, argv, &i, s, "-k", "--clockid")))
				return cli_usage_error("record", "option '%s' requires a clock", s);
			if (ro.use_clockid)
				return cli_usage_error("record", "option '%s' given twice", s);
			if (parse_clockid(v, &ro.clockid, &ro.clockid_res_ns) < 0) {
				/* perf's warning, then its usage with the option's help */
				fprintf(stderr, "Warning:\nunknown clockid %s, check man page\n", v);
				usage_tail(0);
				fprintf(stderr, "    -k, --clockid <clockid>\n"
						"                          clockid to use for events, see clock_gettime()\n");
				return 129;
			}
			ro.use_clockid = true;
			o.use_clockid = 1;
			o.clockid = ro.clockid;
		}
		else if (!strcmp(s, "-S") || !strcmp(s, "--snapshot"))
			ro.snapshot = true;
		else if (!strcmp(s, "-Se") || !strcmp(s, "--snapshot=e"))
			ro.snapshot = ro.snapshot_on_exit = true; /* perf's 'e': a snapshot at the end too */
		else if (!strcmp(s, "--aux-sample") || !strncmp(s, "--aux-sample=", 13)) {
			uint64_t val = 4096;
			if (s[12] && (parse_u64(s + 13, &val) || !val || val > 0xffffffffULL))
				return cli_usage_error("record", "bad --aux-sample size '%s'", s + 13);
			o.aux_sample = (uint32_t)val;
		} else if (is_opt(s, NULL, "--filter")) {
			if (!(v = opt_value(argc, argv, &i, s, NULL, "--filter")))
				return cli_usage_error("record", "option '%s' requires a value", s);
			rc = record_pt_add_filter(&filters, nspecs, v);
		} else if (is_opt(s, NULL, "--control")) {
			if (!(ro.control = opt_value(argc, argv, &i, s, NULL, "--control")))
				return cli_usage_error("record", "option '%s' requires fifo:ctl[,ack] or fd:ctl[,ack]", s);
		} else if (is_opt(s, "-D", "--delay")) {
			char *end;
			v = opt_value(argc, argv, &i, s, "-D", "--delay");
			long ms = v ? strtol(v, &end, 10) : 0;
			if (!v || !*v || *end || ms < -1 || ms > 0x7fffffff)
				return cli_usage_error("record", "option '%s' expects ms (or -1: start disabled)", s);
			ro.delay_ms = (int)ms;
			o.delay = ms != 0;
		}
		else
			return cli_usage_error("record", "unknown option '%s'", s);
		if (ev) {
			if (nspecs == MAX_E)
				return cli_usage_error("record", "too many -e options (at most %d)", MAX_E);
			specs[nspecs++] = ev;
		}
	}
	if (rc)
		return rc;
	if (freq_max && !ro.quiet)
		fprintf(stderr, "info: Using a maximum frequency rate of %llu Hz\n", (unsigned long long)o.freq);
	rc = target_validate(&ro, &o);
	if (rc)
		return rc;
	struct hwprof_evlist l = { 0 };
	struct hwprof_pmus *pmus = NULL;
	rc = build_events(specs, nspecs, &o, &regs, &l, &pmus, &pt, &filters, verbose);
	if (!rc)
		rc = aux_options_need_aux(&l, &o, &ro);
	if (!rc)
		rc = record_pt_finish(&pt, &l, &ro.aux_pages, &ro.mmap_pages, ro.snapshot);
	rc = rc ? rc : record_spe_setup(&l, pmus, &o, &ro, dry);
	bool no_target = i >= argc && !ro.system_wide && ro.pid < 0 && ro.tid < 0 && !ro.cpus;
	if (!rc && !dry && no_target)
		rc = cli_usage_error("record", "nothing to record: give a command, -p, -t, -a or -C");
	if (!rc) {
		ro.events = record_events(&l);
		ro.nr_events = (uint32_t)l.nr;
		if (!ro.events)
			rc = cli_error("record", "out of memory");
	}
	if (!rc) {
		config_for_target(ro.events, ro.nr_events, &ro, i < argc || no_target);
		if (dry || verbose >= 2)
			print_attrs(dry ? stdout : stderr, ro.events, ro.nr_events, &o, arch_given, verbose);
		if (!dry) {
			bool sw = false;
			record_pt_attach(&pt, ro.events, l.nr, &ro.aux_ops, ro.system_wide || ro.cpus, &sw);
			for (uint32_t k = 0; sw && k < ro.nr_events; k++)
				if (ro.events[k].tracking) /* perf's switch events ride the tracking event */
					ro.events[k].attr.flags |= 1ULL << HWPROF_ATTR_CONTEXT_SWITCH;
			ro.argv = i < argc ? argv + i : NULL;
			ro.verbose = verbose;
			ro.argc = argc;
			ro.argv_all = argv;
			rc = record_run(&ro);
		}
	}
	free(ro.events);
	record_pt_free(&pt);
	hwprof_evlist_free(&l);
	hwprof_pmus_close(pmus);
	return rc;
}
