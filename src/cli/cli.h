/* Shared declarations of the hwprof command line: one cmd_<name>() per
 * subcommand, each in src/cli/cmd_<name>.c, registered in main.c's table. */
#ifndef HWPROF_CLI_H
#define HWPROF_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include <stdio.h>

int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_pt(int argc, char **argv);
int cmd_pt_insn(int argc, char **argv); /* hwprof pt insn (cmd_pt_insn.c) */
int cmd_spe(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);

struct hwprof_pmus;
/* PMUs under $HWPROF_SYSFS (default /sys); see hwprof_pmus_open(). */
int cli_pmus_open(struct hwprof_pmus **out);

/* Prints "hwprof <cmd>: <message>" on stderr; returns the exit code 1/2. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct hwprof_symcfg;
/* perf's symbol__validate_sym_arguments(): a -k/--vmlinux or --kallsyms
 * file that cannot be read ends the run, with "Invalid file: F" unless
 * quiet. Returns false then. */
bool cli_sym_files_ok(const struct hwprof_symcfg *c, bool quiet);

/* The kernel's symbols for input: perf's perf_data__kallsyms_name() (a
 * perf.data directory written with --kcore brings its kallsyms, and the
 * kcore beside them, unless -k or --kallsyms was given: c->kallsyms set to
 * buf then), and the running kernel's /proc from $HWPROF_PROCFS (tests). */
void cli_kernel_symcfg(struct hwprof_symcfg *c, const char *input, char *buf, size_t len);

/* A library notice (hwprof_symcfg.notice) on stderr, as perf prints it. */
void cli_notice(void *ctx, const char *msg);

#endif
