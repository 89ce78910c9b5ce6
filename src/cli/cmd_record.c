/* hwprof record: for now only the register parts of perf record work:
 * -I? / --user-regs=? list what the kernel can sample, and --dry-run with
 * -e cpu-clock|task-clock and -I/--user-regs prints the attr perf -vv would
 * show. Recording itself is not implemented and says so. */
#include <stdio.h>
#include <string.h>

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

/* The attr perf record builds for a software clock event on a workload. */
static void clock_attr(struct hwprof_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = HWPROF_TYPE_SOFTWARE;
	a->size = HWPROF_ATTR_SIZE_VER7;
	a->config = config;
	a->sample_period = 4000; /* -F 4000, the default frequency */
	a->sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_PERIOD;
	a->read_format = HWPROF_FORMAT_ID | HWPROF_FORMAT_LOST;
	static const unsigned on[] = {
		HWPROF_ATTR_DISABLED, HWPROF_ATTR_INHERIT, HWPROF_ATTR_MMAP, HWPROF_ATTR_COMM,
		HWPROF_ATTR_FREQ, HWPROF_ATTR_ENABLE_ON_EXEC, HWPROF_ATTR_TASK,
		HWPROF_ATTR_SAMPLE_ID_ALL, HWPROF_ATTR_EXCLUDE_GUEST, HWPROF_ATTR_MMAP2,
		HWPROF_ATTR_COMM_EXEC, HWPROF_ATTR_KSYMBOL, HWPROF_ATTR_BPF_EVENT,
	};
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		a->flags |= 1ULL << on[i];
}

int cmd_record(int argc, char **argv)
{
	struct hwprof_attr a;
	const char *event = NULL;
	int dry_run = 0, unsupported = 0, rc = 0;

	clock_attr(&a, 0);
	for (int i = 1; i < argc && !rc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--") || s[0] != '-')
			break; /* the workload */
		if (!strncmp(s, "-I", 2))
			rc = reg_option(&a, 0, s[2] ? s + 2 : NULL, 1);
		else if (!strcmp(s, "--intr-regs") || !strncmp(s, "--intr-regs=", 12))
			rc = reg_option(&a, 0, s[11] ? s + 12 : NULL, 0);
		else if (!strcmp(s, "--user-regs") || !strncmp(s, "--user-regs=", 12))
			rc = reg_option(&a, 1, s[11] ? s + 12 : NULL, 0);
		else if (!strcmp(s, "-e") || !strcmp(s, "--event"))
			event = i + 1 < argc ? argv[++i] : NULL;
		else if (!strncmp(s, "-e", 2))
			event = s + 2;
		else if (!strncmp(s, "--event=", 8))
			event = s + 8;
		else if (!strcmp(s, "--dry-run"))
			dry_run = 1;
		else if (s[1] && strspn(s + 1, "v") == strlen(s + 1))
			; /* -v, -vv: verbosity */
		else if (!strcmp(s, "-o") || !strcmp(s, "--output"))
			unsupported = 1, i++; /* takes a file name */
		else
			unsupported = 1;
	}
	if (rc)
		return rc;
	if (!dry_run || unsupported)
		return cli_error("record", NOT_YET);
	if (event && !strcmp(event, "cpu-clock"))
		a.config = 0;
	else if (event && !strcmp(event, "task-clock"))
		a.config = 1;
	else
		return cli_error("record", NOT_YET);

	char why[256];
	if (hwprof_regs_validate(&a, hwprof_arch_host(), why, sizeof(why)) < 0)
		return cli_error("record", "%s", why);
	static const char dots[] = "------------------------------------------------------------";
	printf("%s\n", dots);
	print_event_attr(stdout, &a);
	printf("%s\n", dots);
	return 0;
}
