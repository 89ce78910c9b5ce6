/* Opening a perf.data file and building its profile for the commands that
 * export or draw it, with the progress bar and the symbol resolver in one
 * place. */
#ifndef HWPROF_CLI_PROFILE_LOAD_H
#define HWPROF_CLI_PROFILE_LOAD_H

#include <stdbool.h>

#include "hwprof/profile.h"

/* Builds the profile of path; on_sample/sample_ctx as in the opts. Prints
 * the error (as cmd) and returns non-zero on failure. */
/* dso_only: frames named "[unknown] (dso)" (--sort dso), else by symbol. */
int cli_profile_load(const char *cmd, const char *path, bool quiet, bool dso_only,
		     int (*on_sample)(void *, struct hwprof_profile *, const struct hwprof_profile_sample *),
		     void *sample_ctx, struct hwprof_session **sess, struct hwprof_profile **out);

/* Opens path for writing ("-" is stdout). */
FILE *cli_open_output(const char *cmd, const char *path);
/* Closes it; returns non-zero (after printing) if anything failed. */
int cli_close_output(const char *cmd, const char *path, FILE *f, int err);

#endif
