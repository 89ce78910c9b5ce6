/* hwprof report: perf report's options. -D/--dump-raw-trace prints every
 * record; --header/--header-only print the file header. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/print_dump.h"
#include "hwprof/session.h"

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof report [<options>]\n\n"
		   "    -D, --dump-raw-trace  dump raw trace in ASCII\n"
		   "    -i, --input <file>    input file name (\"-\" for stdin)\n"
		   "    -q, --quiet           do not show any message\n"
		   "        --stdio           use the stdio interface\n\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "input", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stdio", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	bool dump = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Di:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dump = true; break;
		case 'i': input = optarg; break;
		case 'q': break;
		case 's': break;
		case 'h': usage(stdout); return 0;
		default:
			usage(stderr);
			return cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	if (!input)
		input = "perf.data";
	if (!dump)
		return cli_error("report", "only -D (--dump-raw-trace) is implemented in this build");

	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof report: %s: offset %#llx: %s\n", strcmp(input, "-") ? input : "<stdin>",
			(unsigned long long)err.offset, err.msg);
		return 1;
	}
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	const char *display = hwprof_perfdata_info(hwprof_session_data(s))->pipe ? "pipe" : input;
	printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	int rc = print_dump(stdout, s, display);
	fflush(stdout);
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
