/* Shared front of `hwprof flamegraph` and `hwprof export`: session,
 * resolver, progress bar, and the output file. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/profile_load.h"
#include "cli/progress.h"
#include "hwprof/symbols.h"

int cli_profile_load(const char *cmd, const char *path, bool quiet, bool dso_only,
		     int (*on_sample)(void *, struct hwprof_profile *, const struct hwprof_profile_sample *),
		     void *sample_ctx, struct hwprof_session **sess, struct hwprof_profile **out)
{
	struct hwprof_error err;
	*out = NULL;
	int r = hwprof_session_open(sess, path, &err);
	if (r < 0)
		return cli_error(cmd, "%s: %s", path, err.msg[0] ? err.msg : hwprof_strerror(r));
	/* Symbols as perf finds them (build-id cache, paths, kallsyms); without
	 * them frames keep their DSO names. */
	struct hwprof_symbols *syms = NULL;
	struct hwprof_symcfg cfg = { 0 };
	char kcore_ks[4096];
	cli_kernel_symcfg(&cfg, path, kcore_ks, sizeof(kcore_ks));
	if (!dso_only && hwprof_symbols_open(&syms, &cfg) == 0)
		hwprof_symbols_load_build_ids(syms, hwprof_session_data(*sess));
	struct cli_progress bar;
	cli_progress_init(&bar, "reading", 0, quiet);
	struct hwprof_profile_opts o = {
		.resolve = syms ? hwprof_resolve_symbols : hwprof_resolve_dso_only,
		.resolve_ctx = syms,
		.on_sample = on_sample,
		.sample_ctx = sample_ctx,
		.progress = cli_progress_cb,
		.progress_ctx = &bar,
	};
	r = hwprof_profile_build(out, *sess, &o, &err);
	cli_progress_done(&bar);
	hwprof_symbols_close(syms);
	if (r < 0) {
		cli_error(cmd, "%s: %s", path, err.msg[0] ? err.msg : hwprof_strerror(r));
		if (!*out)
			return 1;
		/* Input damaged part way: keep what came before, like perf. */
		fprintf(stderr, "hwprof %s: using the samples before the error\n", cmd);
	}
	if (!quiet && hwprof_profile_nr_bad(*out))
		fprintf(stderr, "hwprof %s: %llu samples could not be parsed\n", cmd,
			(unsigned long long)hwprof_profile_nr_bad(*out));
	return 0;
}

FILE *cli_open_output(const char *cmd, const char *path)
{
	if (!strcmp(path, "-"))
		return stdout;
	FILE *f = fopen(path, "wb");
	if (!f)
		cli_error(cmd, "cannot create %s: %m", path);
	return f;
}

int cli_close_output(const char *cmd, const char *path, FILE *f, int err)
{
	if (f != stdout) {
		if (fclose(f) && !err)
			err = -HWPROF_E_IO;
	} else if (fflush(f) && !err) {
		err = -HWPROF_E_IO;
	}
	if (err) {
		cli_error(cmd, "writing %s: %s", path, hwprof_strerror(err));
		if (f != stdout)
			unlink(path);
		return 1;
	}
	return 0;
}
