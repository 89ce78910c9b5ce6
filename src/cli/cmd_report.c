/* hwprof report: perf report's options. -D/--dump-raw-trace prints every
 * record; --header/--header-only print the file header. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/print_dump.h"
#include "cli/print_header.h"
#include "cli/progress.h"
#include "hwprof/session.h"

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof report [<options>]\n\n"
		   "    -D, --dump-raw-trace  dump raw trace in ASCII\n"
		   "        --header          show the data header\n"
		   "        --header-only     show only the data header\n"
		   "    -I, --show-info       with --header: display extended information\n"
		   "    -i, --input <file>    input file name (\"-\" for stdin)\n"
		   "    -q, --quiet           do not show any message\n"
		   "        --stdio           use the stdio interface\n\n");
}

static const char *display_name(const char *input)
{
	return strcmp(input, "-") ? input : "<stdin>";
}

/* --header-only: the file header as perf prints it. */
static int report_header(const char *input, bool full)
{
	struct hwprof_error err;
	struct hwprof_perfdata *h;
	if (hwprof_perfdata_open(&h, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", display_name(input),
			(unsigned long long)err.offset, err.msg);
		return 1;
	}
	int r = print_header_opts(stdout, h, true, full);
	fflush(stdout);
	if (r < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(h);
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", display_name(input),
			(unsigned long long)e->offset, e->code ? e->msg : hwprof_strerror(r));
	}
	hwprof_perfdata_close(h);
	return r < 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "input", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stdio", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'O' },
		{ "show-info", no_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	bool dump = false, header = false, header_only = false, full = false, quiet = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Di:qhI", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dump = true; break;
		case 'i': input = optarg; break;
		case 'q': quiet = true; break;
		case 's': break;
		case 'h': usage(stdout); return 0;
		case 'H': header = true; break;
		case 'O': header_only = true; break;
		case 'I': full = true; break;
		default:
			usage(stderr);
			return cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	if (!input) {
		/* like perf: a pipe on stdin is the input, else ./perf.data */
		struct stat st;
		input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	if (header_only || (header && !dump))
		return report_header(input, full);
	if (!dump)
		return cli_error("report", "only -D (--dump-raw-trace) and --header-only are implemented in this build");

	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", strcmp(input, "-") ? input : "<stdin>",
			(unsigned long long)err.offset, err.msg);
		return 1;
	}
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	/* NULL: each record's file as the reader names it (a directory's data.N) */
	const char *display = hwprof_perfdata_info(hwprof_session_data(s))->pipe ? "pipe" : NULL;
	printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	struct cli_progress bar;
	cli_progress_init(&bar, "reading", hwprof_perfdata_info(hwprof_session_data(s))->file_size, quiet);
	int rc = print_dump(stdout, s, display, &bar);
	fflush(stdout);
	cli_progress_done(&bar);
	if (rc < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(hwprof_session_data(s));
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", strcmp(input, "-") ? input : "<stdin>",
			(unsigned long long)e->offset, e->msg[0] ? e->msg : hwprof_strerror(rc));
		hwprof_session_close(s);
		return 1;
	}
	hwprof_session_close(s);
	return 0;
}
