/* hwprof record: for now the option parts of perf record work: -I? /
 * --user-regs=? list what the kernel can sample, and --dry-run prints the
 * attrs perf -vv would show for -e (the full event grammar, several -e),
 * -c/-F, -g/--call-graph, -i and -I/--user-regs; with --arch arm64 (or -vv
 * on arm64) the exception levels each event counts follow its attr.
 * Recording itself is not implemented and says so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/event.h"
#include "hwprof/pmu.h"

#include "hwprof/perf_event.h"
#include "hwprof/regs.h"
#include "hwprof/sys.h"
#include "cli/cli.h"
#include "cli/print_event_attr.h"

#define NOT_YET "recording is not implemented yet"

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

/* -I / --user-regs value (NULL = bare): list or add it to attr, as perf
 * does while parsing options. Returns 0 or the exit code. */
static int reg_option(struct hwprof_attr *a, int user, const char *list, int short_opt)
{
	/* a "?" anywhere in the list asks for the listing, as in perf */
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (p[0] == '?' && (p[1] == ',' || !p[1]))
			return list_regs(user, short_opt);
	struct hwprof_regs_avail av;
	char msg[256];
	hwprof_regs_probe(hwprof_sys_default(), hwprof_arch_host(), user, &av);
	if (hwprof_regs_parse_list(a, user, list, &av, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "Warning:\n%s\n", msg);
		usage_tail(short_opt);
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

static int dry_run(const char **specs, int nspecs, const struct hwprof_record_opts *o,
		   const struct hwprof_attr *regs, int arch_given, int verbose)
{
	struct hwprof_pmus *pmus = NULL;
	struct hwprof_evlist l = { 0 };
	struct hwprof_error err;
	int rc = cli_pmus_open(&pmus);
	if (rc < 0)
		return cli_error("record", "cannot read PMUs: %s", hwprof_strerror(rc));
	const char *dflt = hwprof_pmus_core(pmus) ? "cycles" : "cpu-clock";
	if (!nspecs) {
		specs = &dflt; /* perf falls back to cpu-clock without a hardware PMU */
		nspecs = 1;
	}
	for (int i = 0; i < nspecs && !rc; i++)
		if (hwprof_evlist_parse(&l, specs[i], pmus, &err) < 0)
			rc = cli_error("record", "%s", err.msg);
	if (!rc && hwprof_evlist_config(&l, o, pmus, &err) < 0)
		rc = cli_error("record", "%s", err.msg);
	static const char dots[] = "------------------------------------------------------------";
	for (size_t i = 0; !rc && i < l.nr; i++) {
		struct hwprof_attr *a = &l.ev[i].attr;
		char why[256];
		merge_regs(a, regs);
		if (hwprof_regs_validate(a, o->arch, why, sizeof(why)) < 0) {
			rc = cli_error("record", "%s", why);
			break;
		}
		printf("%s\n", dots);
		print_event_attr(stdout, a);
		printf("%s\n", dots);
		if (o->arch == HWPROF_ARCH_ARM64 && (arch_given || verbose >= 2)) {
			char el[512];
			hwprof_arm64_el_format(el, sizeof(el), a);
			fputs(el, stdout);
		}
	}
	hwprof_evlist_free(&l);
	hwprof_pmus_close(pmus);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct hwprof_attr regs;
	struct hwprof_record_opts o;
	const char *specs[MAX_E];
	int nspecs = 0, dry = 0, unsupported = 0, rc = 0, verbose = 0, arch_given = 0;

	memset(&regs, 0, sizeof(regs));
	regs.size = HWPROF_ATTR_SIZE_VER7;
	hwprof_record_opts_default(&o);
	for (int i = 1; i < argc && !rc; i++) {
		const char *s = argv[i], *ev = NULL;
		if (!strcmp(s, "--") || s[0] != '-')
			break; /* the workload */
		if (!strncmp(s, "-I", 2))
			rc = reg_option(&regs, 0, s[2] ? s + 2 : NULL, 1);
		else if (!strcmp(s, "--intr-regs") || !strncmp(s, "--intr-regs=", 12))
			rc = reg_option(&regs, 0, s[11] ? s + 12 : NULL, 0);
		else if (!strcmp(s, "--user-regs") || !strncmp(s, "--user-regs=", 12))
			rc = reg_option(&regs, 1, s[11] ? s + 12 : NULL, 0);
		else if (!strcmp(s, "-e") || !strcmp(s, "--event")) {
			if (i + 1 >= argc)
				return cli_usage_error("record", "option '%s' requires a value", s);
			ev = argv[++i];
		} else if (!strncmp(s, "-e", 2))
			ev = s + 2;
		else if (!strncmp(s, "--event=", 8))
			ev = s + 8;
		else if (!strcmp(s, "-c") || !strcmp(s, "-F") || !strcmp(s, "--count") || !strcmp(s, "--freq")) {
			uint64_t v;
			if (i + 1 >= argc || parse_u64(argv[i + 1], &v) || !v)
				return cli_usage_error("record", "option '%s' expects a positive number", s);
			i++;
			if (s[1] == 'c' || s[2] == 'c')
				o.period = v;
			else
				o.freq = v, o.period = 0;
		} else if (!strcmp(s, "-g"))
			o.call_graph = HWPROF_CG_FP;
		else if (!strncmp(s, "--call-graph=", 13)) {
			const char *m = s + 13;
			if (!strcmp(m, "fp"))
				o.call_graph = HWPROF_CG_FP;
			else if (!strncmp(m, "dwarf", 5) && (!m[5] || m[5] == ',')) {
				uint64_t v;
				o.call_graph = HWPROF_CG_DWARF;
				if (m[5] && (parse_u64(m + 6, &v) || !v || v > 0xffffffffULL))
					return cli_usage_error("record", "bad dwarf stack size in '%s'", s);
				if (m[5])
					o.stack_size = (uint32_t)v;
			} else if (!strcmp(m, "lbr"))
				o.call_graph = HWPROF_CG_LBR;
			else
				return cli_usage_error("record", "unknown --call-graph mode '%s' (fp, dwarf[,size], lbr)", m);
		} else if (!strcmp(s, "-i") || !strcmp(s, "--no-inherit"))
			o.no_inherit = 1;
		else if (!strcmp(s, "--arch") || !strncmp(s, "--arch=", 7)) {
			const char *n = s[6] ? s + 7 : (i + 1 < argc ? argv[++i] : "");
			o.arch = hwprof_arch_from_name(n);
			if (!strcmp(n, "arm64"))
				o.arch = HWPROF_ARCH_ARM64;
			if (o.arch == HWPROF_ARCH_UNKNOWN)
				return cli_usage_error("record", "unknown --arch '%s' (x86_64, i386, arm64)", n);
			arch_given = 1;
		} else if (!strcmp(s, "--dry-run"))
			dry = 1;
		else if (s[1] && strspn(s + 1, "v") == strlen(s + 1))
			verbose += (int)strlen(s + 1); /* -v, -vv */
		else if (!strcmp(s, "-o") || !strcmp(s, "--output"))
			unsupported = 1, i++; /* takes a file name */
		else
			unsupported = 1;
		if (ev) {
			if (nspecs == MAX_E)
				return cli_usage_error("record", "too many -e options (at most %d)", MAX_E);
			specs[nspecs++] = ev;
		}
	}
	if (rc)
		return rc;
	if (!dry || unsupported)
		return cli_error("record", NOT_YET);
	return dry_run(specs, nspecs, &o, &regs, arch_given, verbose);
}
