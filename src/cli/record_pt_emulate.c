/* hwprof record --pt-emulate[=opts] [-o FILE] [-q] -- PROG [ARGS]: runs PROG
 * under the library's ptrace Intel PT emulator (single-stepping its user
 * code) and writes a perf.data holding the packet stream a real CPU would
 * have produced, which `hwprof script --itrace`, `hwprof pt insn` and perf
 * decode. For developing PT tooling on machines without PT; it is slow
 * (one ptrace stop per instruction) and traces user mode only.
 *   opts: noretcomp, timing (TSC/MTC/CYC), long-tnt, defer-tip, psb=BYTES,
 *         max=INSTRUCTIONS (default 5,000,000; the workload is killed then) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hwprof/intel_pt_flow.h"
#include "cli/cli.h"
#include "cli/record_pt_emulate.h"

static int parse_opts(const char *s, struct hwprof_pt_emu_config *cfg)
{
	char buf[256];
	if (strlen(s) >= sizeof(buf))
		return cli_usage_error("record", "--pt-emulate options too long");
	strcpy(buf, s);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		if (!strcmp(t, "noretcomp"))
			cfg->flags |= HWPROF_PT_EMU_NORETCOMP;
		else if (!strcmp(t, "timing"))
			cfg->flags |= HWPROF_PT_EMU_TIMING;
		else if (!strcmp(t, "long-tnt"))
			cfg->flags |= HWPROF_PT_EMU_LONG_TNT;
		else if (!strcmp(t, "defer-tip"))
			cfg->flags |= HWPROF_PT_EMU_DEFER_TIP;
		else if (!strncmp(t, "psb=", 4)) {
			unsigned long v = strtoul(t + 4, &end, 0);
			if (!t[4] || *end || !v || v > (1u << 20))
				return cli_usage_error("record", "--pt-emulate: bad psb period '%s' (bytes, 1..1048576)", t + 4);
			cfg->psb_period = (unsigned)v;
		} else if (!strncmp(t, "max=", 4)) {
			unsigned long long v = strtoull(t + 4, &end, 0);
			if (!t[4] || *end || !v)
				return cli_usage_error("record", "--pt-emulate: bad instruction limit '%s'", t + 4);
			cfg->max_steps = v;
		} else
			return cli_usage_error("record",
					       "--pt-emulate: unknown option '%s' (noretcomp, timing, long-tnt, "
					       "defer-tip, psb=N, max=N)", t);
	}
	return 0;
}

bool record_wants_pt_emulate(int argc, char **argv)
{
	for (int i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--pt-emulate") || !strncmp(argv[i], "--pt-emulate=", 13))
			return true;
	return false;
}

int record_pt_emulate(int argc, char **argv)
{
	struct hwprof_pt_emu_config cfg = { .mtc_freq = 3 };
	const char *out = "perf.data";
	int quiet = 0, i, rc;
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--")) {
			i++;
			break;
		}
		if (s[0] != '-')
			break;
		if (!strcmp(s, "--pt-emulate"))
			continue;
		if (!strncmp(s, "--pt-emulate=", 13)) {
			if ((rc = parse_opts(s + 13, &cfg)))
				return rc;
		} else if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
			if (++i >= argc)
				return cli_usage_error("record", "option '%s' requires a file name", s);
			out = argv[i];
		} else if (!strncmp(s, "-o", 2) || !strncmp(s, "--output=", 9))
			out = s[1] == 'o' ? s + 2 : s + 9;
		else if (!strcmp(s, "-q") || !strcmp(s, "--quiet"))
			quiet = 1;
		else
			return cli_usage_error("record", "--pt-emulate takes only -o FILE and -q, not '%s'", s);
	}
	if (i >= argc)
		return cli_usage_error("record", "--pt-emulate needs a command to run");
	if (!strcmp(out, "-"))
		return cli_usage_error("record", "--pt-emulate writes a file, not a pipe (-o -)");

	struct hwprof_pt_emu_result r;
	rc = hwprof_pt_emulate(argv + i, &cfg, &r);
	if (rc < 0)
		return cli_error("record", "PT emulation of %s failed: %s", argv[i], hwprof_strerror(rc));
	struct hwprof_error err;
	size_t ninsn = 0, bytes = 0;
	for (size_t t = 0; t < r.nthreads; t++) {
		ninsn += r.threads[t].ninsn;
		bytes += r.threads[t].trace_len;
	}
	rc = hwprof_pt_emu_write_perfdata(out, &r, &cfg, &err);
	int truncated = r.truncated;
	size_t nthreads = r.nthreads;
	hwprof_pt_emu_result_free(&r);
	if (rc < 0)
		return cli_error("record", "%s", err.msg);
	if (!quiet) {
		struct stat st;
		double mb = stat(out, &st) ? 0 : (double)st.st_size / (1024.0 * 1024.0);
		fprintf(stderr, "[ hwprof record: emulated Intel PT: %zu thread(s), %zu instructions, %zu bytes of trace%s ]\n",
			nthreads, ninsn, bytes, truncated ? " (stopped at the instruction limit)" : "");
		fprintf(stderr, "[ hwprof record: Captured and wrote %.3f MB %s ]\n", mb, out);
	}
	return 0;
}
