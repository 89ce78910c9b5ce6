/* `hwprof report`: in this build only `--header-only` (and `-I` with it),
 * which prints the perf.data header exactly as `perf report --header-only`.
 * The full report lives on the main branch; the two get merged there. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print_header.h"
#include "cli/reader_weak.h"

static int header_report(const char *path, bool full)
{
	struct hwprof_error err = { 0 };
	int r;
	if (reader_available()) {
		struct hwprof_perfdata *h = NULL;
		r = hwprof_perfdata_open(&h, path, &err);
		if (r < 0)
			return cli_error("report", "%s: %s (offset %llu)", path, err.msg,
					 (unsigned long long)err.offset);
		r = print_header_opts(stdout, h, true, full);
		if (r < 0) {
			const struct hwprof_error *e = hwprof_perfdata_error(h);
			cli_error("report", "%s: %s", path, e && e->code ? e->msg : hwprof_strerror(r));
		}
		hwprof_perfdata_close(h);
		return r < 0;
	}
	struct hdr_view v;
	void *keep = NULL;
	r = hdr_minread(path, &v, &keep, &err);
	if (r < 0) {
		hdr_minread_free(keep);
		return cli_error("report", "%s: %s (offset %llu)", path, err.msg,
				 (unsigned long long)err.offset);
	}
	r = print_header_view(stdout, &v, true, full);
	hdr_minread_free(keep);
	return r < 0;
}

int cmd_report(int argc, char **argv)
{
	const char *input = NULL;
	bool header_only = false, full = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--header-only"))
			header_only = true;
		else if (!strcmp(a, "-I") || !strcmp(a, "--show-info"))
			full = true;
		else if (!strcmp(a, "-i") || !strcmp(a, "--input")) {
			if (++i == argc)
				return cli_usage_error("report", "option `%s' requires a value", a);
			input = argv[i];
		} else if (!strncmp(a, "--input=", 8))
			input = a + 8;
		else if (!strncmp(a, "-i", 2))
			input = a + 2;
		else
			return cli_usage_error("report", "only --header-only is implemented in this build");
	}
	if (!header_only)
		return cli_usage_error("report", "only --header-only is implemented in this build");
	if (!input) {
		/* like perf: a pipe on stdin is the input, else ./perf.data */
		struct stat st;
		input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	fflush(stdout);
	return header_report(input, full);
}
