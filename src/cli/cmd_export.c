/* hwprof export: converts perf.data samples to the formats of other
 * profile viewers: speedscope, the Firefox Profiler (Gecko JSON), Perfetto
 * (Chrome trace JSON) and pprof (gzipped profile.proto). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#define CMDNAME "export"
#include "cli/profile_load.h"

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof export --format <fmt> [-i <file>] -o <file>\n\n"
		   "    -f, --format <fmt>    speedscope, firefox, perfetto (Chrome trace JSON) or pprof\n"
		   "    -i, --input <file>    input file name (\"-\" for stdin; default perf.data)\n"
		   "    -o, --output <file>   output file name (\"-\" for stdout)\n"
		   "        --sort sym|dso    name frames by symbol (default) or by DSO only\n"
		   "    -q, --quiet           no progress bar or warnings\n\n");
}

static const struct {
	const char *name;
	int fmt; /* enum hwprof_export_format, or -1 for pprof */
} formats[] = {
	{ "speedscope", HWPROF_EXPORT_SPEEDSCOPE },
	{ "firefox", HWPROF_EXPORT_FIREFOX },
	{ "gecko", HWPROF_EXPORT_FIREFOX },
	{ "perfetto", HWPROF_EXPORT_CHROME },
	{ "chrome", HWPROF_EXPORT_CHROME },
	{ "pprof", -1 },
};

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sort", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL, *output = NULL, *fname = NULL;
	bool quiet = false, dso_only = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:i:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': fname = optarg; break;
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case 'S':
			/* frames by symbol (sym, the default) or by DSO only */
			if (strcmp(optarg, "dso") && strcmp(optarg, "sym"))
				return cli_usage_error(CMDNAME, "--sort takes sym or dso, not '%s'", optarg);
			dso_only = !strcmp(optarg, "dso");
			break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		default:
			usage(stderr);
			return cli_usage_error("export", "unknown option or missing argument '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("export", "unexpected argument '%s'", argv[optind]);
	if (!fname)
		return cli_usage_error("export", "--format is required (speedscope, firefox, perfetto, pprof)");
	if (!output)
		return cli_usage_error("export", "-o <file> is required");
	int fmt = -2;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(fname, formats[i].name))
			fmt = formats[i].fmt;
	if (fmt == -2)
		return cli_usage_error("export", "unknown format '%s' (speedscope, firefox, perfetto, pprof)", fname);
	if (!input) {
		struct stat st;
		input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}

	struct hwprof_export *x = NULL;
	if (fmt >= 0 && hwprof_export_create(&x, (enum hwprof_export_format)fmt) < 0)
		return cli_error("export", "out of memory");
	struct hwprof_session *s = NULL;
	struct hwprof_profile *p = NULL;
	if (cli_profile_load("export", input, quiet, dso_only, x ? hwprof_export_on_sample : NULL, x, &s, &p)) {
		hwprof_export_free(x);
		hwprof_session_close(s);
		return 1;
	}
	int rc = 1;
	FILE *f = cli_open_output("export", output);
	if (f) {
		int r = x ? hwprof_export_finish(x, p, f) : hwprof_export_pprof(p, f);
		rc = cli_close_output("export", output, f, r < 0 ? r : 0);
	}
	hwprof_export_free(x);
	hwprof_profile_free(p);
	hwprof_session_close(s);
	return rc;
}
