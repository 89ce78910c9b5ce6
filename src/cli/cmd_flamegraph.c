/* hwprof flamegraph: an interactive SVG flame graph of the samples of one
 * event (the first by default), drawn by our own code. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#define CMDNAME "flamegraph"
#include "cli/profile_load.h"

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof flamegraph [-i <file>] [-o <file.svg>]\n\n"
		   "    -i, --input <file>    input file name (\"-\" for stdin; default perf.data)\n"
		   "    -o, --output <file>   output SVG (\"-\" for stdout; default flamegraph.svg)\n"
		   "    -e, --event <name>    the event to draw (default: the first sampled)\n"
		   "        --title <text>    title line\n"
		   "        --width <pixels>  image width (default 1200)\n"
		   "        --sort sym|dso    name frames by symbol (default) or by DSO only\n"
		   "    -q, --quiet           no progress bar or warnings\n\n");
}

int cmd_flamegraph(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "title", required_argument, NULL, 'T' },
		{ "width", required_argument, NULL, 'W' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sort", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL, *output = "flamegraph.svg", *event = NULL;
	struct hwprof_flamegraph_opts fo = { .event = -1 };
	bool quiet = false, dso_only = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:o:e:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case 'e': event = optarg; break;
		case 'T': fo.title = optarg; break;
		case 'W': {
			char *end;
			unsigned long w = strtoul(optarg, &end, 10);
			if (*end || w < 100 || w > 100000)
				return cli_usage_error("flamegraph", "bad --width '%s' (100..100000)", optarg);
			fo.width = (unsigned)w;
			break;
		}
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
			return cli_usage_error("flamegraph", "unknown option or missing argument '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("flamegraph", "unexpected argument '%s'", argv[optind]);
	if (!input) {
		struct stat st;
		input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	struct hwprof_session *s = NULL;
	struct hwprof_profile *p = NULL;
	if (cli_profile_load("flamegraph", input, quiet, dso_only, NULL, NULL, &s, &p)) {
		hwprof_session_close(s);
		return 1;
	}
	int rc = 1;
	if (event) {
		for (uint32_t i = 0; i < hwprof_profile_nr_events(p); i++)
			if (!strcmp(hwprof_profile_event(p, i)->name, event))
				fo.event = (int)i;
		if (fo.event < 0) {
			cli_error("flamegraph", "no samples of event '%s'", event);
			goto out;
		}
	}
	FILE *f = cli_open_output("flamegraph", output);
	if (f)
		rc = cli_close_output("flamegraph", output, f, hwprof_flamegraph_svg(p, &fo, f));
out:
	hwprof_profile_free(p);
	hwprof_session_close(s);
	return rc;
}
