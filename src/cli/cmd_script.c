/* hwprof script: perf script's sample listing. Reads the file through the
 * session (perf's event order, threads and maps), resolves symbols through
 * the symbol library, prints with print_script.c; Arm SPE AUX data becomes
 * samples through script_spe.c (--itrace). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/print_header.h"
#include "cli/print_script.h"
#include "cli/print_aux_error.h"
#include "cli/script_pt.h"
#include "cli/session_warn.h"
#include "cli/script_spe.h"
#include "hwprof/perfdata_feat.h"
#include "hwprof/session.h"
#include "hwprof/symbols.h"

static const char fields_help[] =
	"    -F, --fields <str>    comma separated output fields prepend with 'type:'. +field to add and "
	"-field to remove.Valid types: hw,sw,trace,raw,synth. Fields: comm,tid,pid,time,cpu,event,trace,"
	"ip,sym,dso,addr,symoff,srcline,period,iregs,uregs,brstack,brstacksym,flags,data_src,weight,"
	"bpf-output,brstackinsn,brstackinsnlen,brstackoff,callindent,insn,insnlen,synth,phys_addr,metric,"
	"misc,srccode,ipc,tod,data_page_size,code_page_size,ins_lat\n";

static void usage(FILE *f, bool full, bool fields)
{
	fprintf(f, "\n Usage: perf script [<options>]\n"
		   "    or: perf script [<options>] record <script> [<record-options>] <command>\n"
		   "    or: perf script [<options>] report <script> [script-args]\n"
		   "    or: perf script [<options>] <script> [<record-options>] <command>\n"
		   "    or: perf script [<options>] <top-script> [script-args]\n\n");
	if (!full) {
		if (fields) {
			fputs(fields_help, f);
			fputc('\n', f);
		}
		return;
	}
	fprintf(f, "    -i, --input <file>    input file name (\"-\" for stdin)\n");
	fputs(fields_help, f);
	fprintf(f, "    -G, --hide-call-graph\n"
		   "                          When printing symbols do not display call chain\n"
		   "        --header          Show data header.\n"
		   "        --inline          Show inline function\n"
		   "        --max-stack <n>   Set the maximum stack depth when parsing the callchain, anything "
		   "beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127\n"
		   "        --max-blocks <n>  Maximum number of code blocks to dump with brstackinsn\n"
		   "        --itrace[=<opts>]\n"
		   "                          Instruction Tracing options (Arm SPE: i[period] b f m t a M, see\n"
		   "                          perf-arm-spe(1); Intel PT: b c r e p g i<N>i s<N>, see perf-intel-pt(1));\n"
		   "                          without it perf's default set\n"
		   "        --no-itrace       Do not decode AUX trace data\n"
		   "        --insn-trace      Decode instructions from itrace\n"
		   "        --call-trace      Show call stack from itrace\n"
		   "        --call-ret-trace  Show call and return stack from itrace\n"
		   "        --header-only     Show only data header.\n"
		   "        --ns              Use 9 decimal places when displaying time\n"
		   "        --symfs <directory>\n"
		   "                          Look for files with symbols relative to this directory\n"
		   "        --kallsyms <file> kallsyms pathname\n"
		   "        --buildid-dir <dir>\n"
		   "                          build-id cache directory (default ~/.debug)\n"
		   "        --no-demangle     do not demangle symbol names\n\n");
}

/* perf's field checks (exit 255 like perf's -EINVAL). */
static int checks(struct script_printer *p, const char *shown)
{
	(void)shown;
	if (script_printer_check(p) < 0)
		return 255;
	return 0;
}

/* perf's default --max-stack: the kernel's perf_event_max_stack */
static int sysctl_max_stack(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	int v = 0;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 0 ? v : 127;
}

int cmd_script(int argc, char **argv)
{
	enum { O_HEADER = 256, O_HEADER_ONLY, O_NS, O_SYMFS, O_KALLSYMS, O_BUILDID_DIR, O_NO_DEMANGLE,
	       O_SHOW_KPATH, O_ITRACE, O_NO_ITRACE, O_INLINE, O_NO_INLINE, O_MAX_STACK, O_MAX_BLOCKS, O_INSN_TRACE,
	       O_CALL_TRACE, O_CALL_RET_TRACE };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "header", no_argument, NULL, O_HEADER },
		{ "header-only", no_argument, NULL, O_HEADER_ONLY },
		{ "ns", no_argument, NULL, O_NS },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "buildid-dir", required_argument, NULL, O_BUILDID_DIR },
		{ "no-demangle", no_argument, NULL, O_NO_DEMANGLE },
		{ "show-kernel-path", no_argument, NULL, O_SHOW_KPATH },
		{ "itrace", optional_argument, NULL, O_ITRACE },
		{ "no-itrace", no_argument, NULL, O_NO_ITRACE },
		{ "inline", no_argument, NULL, O_INLINE },
		{ "no-inline", no_argument, NULL, O_NO_INLINE },
		{ "max-stack", required_argument, NULL, O_MAX_STACK },
		{ "max-blocks", required_argument, NULL, O_MAX_BLOCKS },
		{ "insn-trace", no_argument, NULL, O_INSN_TRACE },
		{ "call-trace", no_argument, NULL, O_CALL_TRACE },
		{ "call-ret-trace", no_argument, NULL, O_CALL_RET_TRACE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct script_opts o;
	struct hwprof_symcfg cfg = { 0 };
	const char *input = NULL;
	bool header = false, header_only = false;
	struct hwprof_itrace_opts itrace;
	int c;
	memset(&itrace, 0, sizeof(itrace));
	script_opts_init(&o);
	o.max_stack = sysctl_max_stack();
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:F:Gqh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'F': {
			int rc = script_parse_fields(&o, optarg);
			if (rc == -2)
				usage(stderr, false, true);
			if (rc < 0)
				return 129;
			break;
		}
		case 'G': o.no_callchain = true; break;
		case 'q': break;
		case 'h': usage(stdout, true, true); return 0;
		case O_HEADER: header = true; break;
		case O_HEADER_ONLY: header_only = true; break;
		case O_NS: o.nanosecs = true; break;
		case O_SYMFS: cfg.symfs = optarg; break;
		case O_KALLSYMS: cfg.kallsyms = optarg; break;
		case O_BUILDID_DIR: cfg.buildid_dir = optarg; break;
		case O_NO_DEMANGLE: cfg.no_demangle = true; break;
		case O_SHOW_KPATH: o.show_kernel_path = true; break;
		case O_ITRACE:
			/* letters only add to what earlier --itrace options set; a bare
			 * --itrace is perf script's no-sample default (no warning) */
			if (hwprof_itrace_opts_parse(&itrace, optarg, !optarg) < 0) {
				fprintf(stderr, "Bad Instruction Tracing options '%s'\n", optarg ? optarg : "");
				usage(stderr, false, false);
				return 129;
			}
			break;
		case O_INLINE: o.no_inline = false; break;
		case O_NO_INLINE: o.no_inline = true; break;
		case O_MAX_STACK: {
			char *end;
			long v = strtol(optarg, &end, 0);
			if (*end || v < 0 || v > 1024)
				return cli_usage_error("script", "bad --max-stack '%s' (0..1024)", optarg);
			o.max_stack = (int)v;
			break;
		}
		case O_MAX_BLOCKS: {
			char *end;
			long v = strtol(optarg, &end, 0);
			if (!*optarg || *end || v < 0 || v > 0x7ffffffe)
				return cli_usage_error("script", "bad --max-blocks '%s' (0 or more)", optarg);
			o.max_blocks = (int)v;
			break;
		}
		case O_NO_ITRACE:
			itrace.set = true;
			itrace.dont_decode = true;
			break;
		case O_INSN_TRACE: /* perf 6.1: these fields, i0ns, --ns */
			if (script_parse_fields(&o, "+insn,-event,-period") < 0)
				return 129;
			hwprof_itrace_opts_parse(&itrace, "i0ns", false);
			o.nanosecs = true;
			break;
		case O_CALL_TRACE: /* perf 6.1: these fields, cewp, --ns, DSOs padded to 50 */
		case O_CALL_RET_TRACE: /* and crewp with flags, unpadded */
			if (script_parse_fields(&o, c == O_CALL_TRACE ? "-ip,-addr,-event,-period,+callindent"
								: "-ip,-addr,-event,-period,+callindent,+flags") < 0)
				return 129;
			hwprof_itrace_opts_parse(&itrace, c == O_CALL_TRACE ? "cewp" : "crewp", false);
			o.nanosecs = true;
			if (c == O_CALL_TRACE)
				o.pad_dso = 50;
			break;
		default:
			usage(stderr, true, true);
			return cli_usage_error("script", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("script", "scripts and record/report subcommands are not supported: '%s'",
				       argv[optind]);
	if (!input) {
		struct stat st;
		input = fstat(0, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	const char *shown = strcmp(input, "-") ? input : "<stdin>";
	struct hwprof_error err;
	struct hwprof_session *s;
	if (hwprof_session_open(&s, input, &err) < 0) {
		fprintf(stderr, "hwprof script: %s: offset %#llx: %s\n", shown, (unsigned long long)err.offset,
			err.msg);
		return 1;
	}
	struct hwprof_perfdata *h = hwprof_session_data(s);
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (header || header_only) {
		print_header_opts(stdout, h, true, false);
		if (header_only) {
			fflush(stdout);
			hwprof_session_close(s);
			return 0;
		}
	}
	struct hwprof_symbols *syms;
	struct script_printer *p;
	if (hwprof_symbols_open(&syms, &cfg) < 0) {
		hwprof_session_close(s);
		return cli_error("script", "out of memory");
	}
	hwprof_symbols_load_build_ids(syms, h);
	if (script_printer_new(&p, &o, s, syms, stdout) < 0) {
		hwprof_symbols_close(syms);
		hwprof_session_close(s);
		return cli_error("script", "out of memory");
	}
	int rc = 0, status = 0;
	bool pipe = hwprof_perfdata_info(h)->pipe;
	struct script_spe *spe = NULL;
	struct script_pt *pt = NULL;
	if (!pipe && (status = checks(p, shown)))
		goto out;
	if (script_spe_new(&spe, p, s, &itrace, stdout) < 0 || script_pt_new(&pt, p, s, &itrace, stdout) < 0) {
		status = cli_error("script", "out of memory");
		goto out;
	}
	struct hwprof_event ev;
	while ((rc = hwprof_session_next(s, &ev)) > 0) {
		if ((status = script_spe_event(spe, &ev)) || (status = script_pt_event(pt, &ev)))
			break;
		if (ev.rec.type == HWPROF_RECORD_AUXTRACE_ERROR && !itrace.dont_decode) {
			/* perf script prints the file's trace errors as they are read */
			script_spe_sync(spe);
			print_aux_error(stdout, &ev.rec);
			continue;
		}
		if (ev.rec.type != HWPROF_RECORD_SAMPLE || ev.parse_err < 0)
			continue;
		script_spe_sync(spe); /* lines in order with this sample's */
		if (pipe && !status) {
			/* pipe mode: the events are known once samples flow */
			pipe = false;
			if ((status = checks(p, shown)))
				break;
		}
		script_print_sample(p, &ev);
	}
	if (!status && rc >= 0)
		status = script_spe_flush(spe);
	script_spe_sync(spe);
	if (!status && rc >= 0)
		status = script_pt_flush(pt);
	if (!status && rc >= 0) {
		fflush(stdout);
		session_warn(s);
	}
	if (rc < 0) {
		const struct hwprof_error *e = hwprof_perfdata_error(h);
		script_spe_sync(spe);
		fflush(stdout);
		fprintf(stderr, "hwprof script: %s: offset %#llx: %s\n", shown, (unsigned long long)e->offset,
			e->msg[0] ? e->msg : hwprof_strerror(rc));
		status = 1;
	}
out:
	script_spe_sync(spe);
	fflush(stdout);
	script_spe_free(spe);
	script_pt_free(pt);
	script_printer_free(p);
	hwprof_symbols_close(syms);
	hwprof_session_close(s);
	return status;
}
