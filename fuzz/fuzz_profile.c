/* Fuzz target: the profile model and every exporter over arbitrary
 * perf.data bytes: stack building from damaged callchains, the spool,
 * and each writer's output (sent to /dev/null). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fan { struct hwprof_export *x[3]; };

static int fan_out(void *ctx, struct hwprof_profile *p, const struct hwprof_profile_sample *s)
{
	struct fan *f = ctx;
	for (int i = 0; i < 3; i++) {
		int r = hwprof_export_on_sample(f->x[i], p, s);
		if (r < 0)
			return r;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct hwprof_session *s;
	struct fan fan = { { NULL, NULL, NULL } };
	if (hwprof_session_open_mem(&s, copy, size, "fuzz", NULL) == 0) {
		int ok = 1;
		for (int i = 0; i < 3; i++)
			ok &= hwprof_export_create(&fan.x[i], (enum hwprof_export_format)i) == 0;
		struct hwprof_profile_opts o = { .on_sample = fan_out, .sample_ctx = &fan };
		struct hwprof_profile *p = NULL;
		if (ok)
			hwprof_profile_build(&p, s, &o, NULL);
		FILE *null = fopen("/dev/null", "w");
		if (p && null) {
			for (int i = 0; i < 3; i++)
				hwprof_export_finish(fan.x[i], p, null);
			hwprof_export_pprof(p, null);
			hwprof_flamegraph_svg(p, NULL, null);
		}
		if (null)
			fclose(null);
		for (int i = 0; i < 3; i++)
			hwprof_export_free(fan.x[i]);
		hwprof_profile_free(p);
		hwprof_session_close(s);
	}
	free(copy);
	return 0;
}
