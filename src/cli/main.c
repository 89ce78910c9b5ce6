/* hwprof command line: dispatches `hwprof <command> ...` to the cmd_*()
 * functions, perf style. The commands own their option parsing and output. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>

#include "hwprof/hwprof.h"
#include "cli/cli.h"
#include "hwprof/symbols.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static int cmd_version(int argc, char **argv)
{
	printf("hwprof version %s\n", HWPROF_VERSION);
	return 0;
}

static const struct command commands[] = {
	{ "list", cmd_list, "List the events and PMUs of this machine (like perf list)" },
	{ "record", cmd_record, "Record a profile (perf record's options; --pt-emulate traces Intel PT by single-stepping)" },
	{ "report", cmd_report, "Read perf.data and display it (-D dumps every record)" },
	{ "script", cmd_script, "Read perf.data and display its samples, like perf script" },
	{ "version", cmd_version, "Print the hwprof version" },
	{ "flamegraph", cmd_flamegraph, "Draw an interactive SVG flame graph (-o out.svg)" },
	{ "export", cmd_export, "Convert samples for speedscope, firefox, perfetto, pprof" },
	{ "pt", cmd_pt, "Intel PT: packet dump (pt dump FILE), instruction flow (pt insn)" },
	{ "spe", cmd_spe, "Dump raw Arm SPE buffers (perf report -D format)" },
};

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "hwprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void cli_notice(void *ctx, const char *msg)
{
	(void)ctx;
	fflush(stdout); /* in order with what was printed before */
	fprintf(stderr, "%s\n", msg);
}

bool cli_sym_files_ok(const struct hwprof_symcfg *c, bool quiet)
{
	const char *bad = c->vmlinux && access(c->vmlinux, R_OK) ? c->vmlinux
			  : c->kallsyms && access(c->kallsyms, R_OK) ? c->kallsyms : NULL;
	if (bad && !quiet)
		fprintf(stderr, "Invalid file: %s\n", bad);
	return !bad;
}

void cli_kernel_symcfg(struct hwprof_symcfg *c, const char *input, char *buf, size_t len)
{
	struct stat st;
	c->proc_dir = getenv("HWPROF_PROCFS");
	if (c->kallsyms || c->vmlinux || stat(input, &st) || !S_ISDIR(st.st_mode))
		return;
	snprintf(buf, len, "%s/kcore_dir/kallsyms", input);
	if (!stat(buf, &st))
		c->kallsyms = buf;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "hwprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 129; /* perf's exit code for usage errors */
}

static void usage(FILE *f)
{
	fprintf(f, "\n usage: hwprof [--version] [--help] COMMAND [ARGS]\n\n"
		   " The commands are:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "hwprof: '%s' is not a hwprof command. See 'hwprof --help'.\n", argv[1]);
	return 1;
}
