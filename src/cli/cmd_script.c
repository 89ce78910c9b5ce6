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
#include "cli/time_range.h"
#include "cli/report_filter.h"
#include "cli/print_aux_error.h"
#include "cli/script_pt.h"
#include "cli/session_warn.h"
#include "cli/trace_load.h"
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
		if (fields) /* perf: the -F option's help line, nothing after it */
			fputs(fields_help, f);
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
		   "    -c, --comms <comm[,comm...]>\n"
		   "                          only display events for these comms\n"
		   "        --pid <pid[,pid...]>\n"
		   "                          only consider these pids\n"
		   "        --tid <tid[,tid...]>\n"
		   "                          only consider these tids\n"
		   "    -C, --cpu <cpu>       list of cpus to profile\n"
		   "        --dsos <dso[,dso...]>\n"
		   "                          only consider symbols in these DSOs\n"
		   "    -S, --symbols <symbol[,symbol...]>\n"
		   "                          only consider these symbols\n"
		   "        --addr-range <n>  Use with -S to list traced records within address range\n"
		   "        --time <str>      Time span of interest (start,stop)\n"
		   "        --ns              Use 9 decimal places when displaying time\n"
		   "        --symfs <directory>\n"
		   "                          Look for files with symbols relative to this directory\n"
		   "    -k, --vmlinux <file>  vmlinux pathname\n"
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

/* perf script's al.filtered by --comms/--pid/--tid (the thread's comm
 * now, or comm), --dsos and --symbols (the sample's map and symbol), and
 * its --cpu bitmap */
static bool script_filter_drops(struct script_printer *p, const struct report_filter *f,
				const struct hwprof_sample *sm, const char *comm)
{
	if (report_filter_drops_cpu(f, (int32_t)sm->cpu))
		return true;
	struct hwprof_session *s = script_printer_session(p);
	struct hwprof_hist_sample hs;
	memset(&hs, 0, sizeof(hs));
	hs.comm = comm ? comm : hwprof_session_thread_comm(s, (int32_t)sm->pid, (int32_t)sm->tid);
	hs.pid = (int32_t)sm->pid;
	hs.tid = (int32_t)sm->tid;
	struct hwprof_map_info mi;
	char level;
	unsigned cpumode = sm->misc & HWPROF_MISC_CPUMODE_MASK;
	if ((f->dsos.n || f->syms_set) &&
	    script_printer_find_map(p, hs.pid, hs.tid, cpumode, sm->ip, &mi, &level) == 1) {
		struct hwprof_symres res = { 0 };
		hwprof_symbols_resolve(script_printer_symbols(p), mi.dso, mi.start, mi.pgoff, sm->ip, &res);
		hs.dso = mi.dso;
		hs.kernel_map = cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL;
		hs.sym = res.sym;
	}
	return report_filter_hides(f, script_printer_symbols(p), &hs, sm->ip);
}

/* the filters, for the samples synthesized from traces */
struct trace_filter_ctx {
	struct script_printer *p;
	const struct report_filter *f;
};

static bool trace_drops(void *ctx, const struct hwprof_sample *sm, const char *comm)
{
	const struct trace_filter_ctx *c = ctx;
	return script_filter_drops(c->p, c->f, sm, comm);
}

int cmd_script(int argc, char **argv)
{
	enum { O_HEADER = 256, O_HEADER_ONLY, O_NS, O_SYMFS, O_KALLSYMS, O_BUILDID_DIR, O_NO_DEMANGLE,
	       O_SHOW_KPATH, O_ITRACE, O_NO_ITRACE, O_INLINE, O_NO_INLINE, O_MAX_STACK, O_MAX_BLOCKS, O_INSN_TRACE,
	       O_CALL_TRACE, O_CALL_RET_TRACE, O_TIME, O_RELTIME, O_DELTATIME, O_PID, O_TID,
	       O_SHOW_TASK, O_SHOW_MMAP, O_SHOW_SWITCH, O_SHOW_NS, O_SHOW_CGROUP, O_SHOW_LOST, O_SHOW_BPF,
	       O_SHOW_POKE, O_DSOS, O_ADDR_RANGE };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "header", no_argument, NULL, O_HEADER },
		{ "header-only", no_argument, NULL, O_HEADER_ONLY },
		{ "ns", no_argument, NULL, O_NS },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "vmlinux", required_argument, NULL, 'k' },
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
		{ "time", required_argument, NULL, O_TIME },
		{ "comms", required_argument, NULL, 'c' },
		{ "dsos", required_argument, NULL, O_DSOS },
		{ "symbols", required_argument, NULL, 'S' },
		{ "addr-range", required_argument, NULL, O_ADDR_RANGE },
		{ "show-task-events", no_argument, NULL, O_SHOW_TASK },
		{ "show-mmap-events", no_argument, NULL, O_SHOW_MMAP },
		{ "show-switch-events", no_argument, NULL, O_SHOW_SWITCH },
		{ "show-namespace-events", no_argument, NULL, O_SHOW_NS },
		{ "show-cgroup-events", no_argument, NULL, O_SHOW_CGROUP },
		{ "show-lost-events", no_argument, NULL, O_SHOW_LOST },
		{ "show-bpf-events", no_argument, NULL, O_SHOW_BPF },
		{ "show-text-poke-events", no_argument, NULL, O_SHOW_POKE },
		{ "pid", required_argument, NULL, O_PID },
		{ "tid", required_argument, NULL, O_TID },
		{ "cpu", required_argument, NULL, 'C' },
		{ "reltime", no_argument, NULL, O_RELTIME },
		{ "deltatime", no_argument, NULL, O_DELTATIME },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct script_opts o;
	struct hwprof_symcfg cfg = { 0 };
	const char *input = NULL, *time_str = NULL, *pid_arg = NULL, *tid_arg = NULL, *cpu_arg = NULL;
	static struct report_filter flt;
	uint64_t show = 0; /* record types (bits) printed as perf's --show-*-events do */
	bool header = false, header_only = false, quiet = false;
	struct hwprof_itrace_opts itrace;
	int c;
	memset(&itrace, 0, sizeof(itrace));
	script_opts_init(&o);
	o.max_stack = sysctl_max_stack();
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:F:Gqhc:C:S:k:", opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'F': {
			int rc = script_parse_fields(&o, optarg);
			if (rc < 0) /* perf's option parser adds its usage to every -F error */
				usage(stderr, false, true);
			if (rc < 0)
				return 129;
			break;
		}
		case 'G': o.no_callchain = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout, true, true); return 0;
		case O_HEADER: header = true; break;
		case O_HEADER_ONLY: header_only = true; break;
		case O_NS: o.nanosecs = true; break;
		case O_SYMFS: cfg.symfs = optarg; break;
		case O_KALLSYMS: cfg.kallsyms = optarg; break;
		case 'k': cfg.vmlinux = optarg; break;
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
		case O_TIME: time_str = optarg; break;
		case O_SHOW_TASK:
			show |= 1ull << HWPROF_RECORD_COMM | 1ull << HWPROF_RECORD_FORK | 1ull << HWPROF_RECORD_EXIT;
			break;
		case O_SHOW_MMAP: show |= 1ull << HWPROF_RECORD_MMAP | 1ull << HWPROF_RECORD_MMAP2; break;
		case O_SHOW_SWITCH:
			show |= 1ull << HWPROF_RECORD_SWITCH | 1ull << HWPROF_RECORD_SWITCH_CPU_WIDE;
			break;
		case O_SHOW_NS: show |= 1ull << HWPROF_RECORD_NAMESPACES; break;
		case O_SHOW_CGROUP: show |= 1ull << HWPROF_RECORD_CGROUP; break;
		case O_SHOW_LOST: show |= 1ull << HWPROF_RECORD_LOST; break;
		case O_SHOW_BPF: show |= 1ull << HWPROF_RECORD_KSYMBOL | 1ull << HWPROF_RECORD_BPF_EVENT; break;
		case O_SHOW_POKE: show |= 1ull << HWPROF_RECORD_TEXT_POKE; break;
		case 'c':
		case O_DSOS:
			if (report_filter_strs(c == 'c' ? &flt.comms : &flt.dsos, optarg) < 0)
				return cli_error("script", "out of memory");
			break;
		case 'S':
			if (report_filter_symbols(&flt, optarg) < 0)
				return cli_error("script", "out of memory");
			break;
		case O_ADDR_RANGE: {
			char *end;
			long v = strtol(optarg, &end, 10); /* perf's OPT_INTEGER, an int */
			if (*end) {
				fprintf(stderr, " Error: option `addr-range' expects a numerical value\n");
				return 129;
			}
			flt.addr_range = (int)v;
			break;
		}
		case O_PID: pid_arg = optarg; break;
		case O_TID: tid_arg = optarg; break;
		case 'C': cpu_arg = optarg; break;
		case O_RELTIME: o.reltime = true; break;
		case O_DELTATIME: o.deltatime = true; break;
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
	/* perf: callchains from the trace (g, G) are shown to their size */
	if ((itrace.callchain || itrace.add_callchain) && (int)itrace.callchain_sz > o.max_stack)
		o.max_stack = (int)itrace.callchain_sz;
	if (o.reltime && o.deltatime) {
		fprintf(stderr, "reltime and deltatime - the two don't get along well. Please limit to --reltime or "
				"--deltatime.\n");
		return 255;
	}
	if (!cli_sym_files_ok(&cfg, false))
		return 255;
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
	hwprof_session_split_read(s, true); /* a READ sample per group member, as perf */
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
	char kcore_ks[4096];
	cli_kernel_symcfg(&cfg, input, kcore_ks, sizeof(kcore_ks));
	if (!quiet)
		cfg.notice = cli_notice;
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
	struct time_ranges tr = { 0 };
	bool pipe = hwprof_perfdata_info(h)->pipe;
	struct hwprof_trace *trace = NULL;
	struct script_spe *spe = NULL;
	struct script_pt *pt = NULL;
	if (!pipe && trace_load_feature(h, &trace, "script", shown) < 0) {
		status = 1;
		goto out;
	}
	script_printer_set_trace(p, trace, true);
	if (!pipe && (status = checks(p, shown)))
		goto out;
	/* perf's symbol__init(): a bad pid or tid list ends the run, quietly
	 * successful; -C needs CPUs in every event (a bad list ends it too) */
	const char *bad_list = pid_arg && report_filter_ints(&flt.pids, pid_arg) < 0   ? "pid"
			       : tid_arg && report_filter_ints(&flt.tids, tid_arg) < 0 ? "tid" : NULL;
	if (bad_list) {
		fprintf(stderr, "problems parsing %s list\n", bad_list);
		goto out;
	}
	if (cpu_arg) {
		for (uint32_t i = 0; i < hwprof_perfdata_nr_evsels(h); i++)
			if (!(hwprof_perfdata_evsel(h, i)->attr.sample_type & HWPROF_SAMPLE_CPU)) {
				fprintf(stderr, "File does not contain CPU events. Remove -C option to proceed.\n");
				status = 255;
				goto out;
			}
		if (report_filter_cpus(&flt, cpu_arg, report_filter_nr_cpus(h)) < 0) {
			status = 255;
			goto out;
		}
	}
	bool filtered = report_filter_any(&flt) || flt.cpus_set;
	/* perf script's filters and --time reach the samples the trace
	 * decoders synthesize too */
	struct trace_filter_ctx pfc = { p, &flt };
	if (time_str) {
		uint64_t first, last;
		time_ranges_bounds(h, &first, &last);
		if (time_ranges_parse(&tr, time_str, first, last, o.reltime) < 0) {
			status = 234; /* perf's -EINVAL */
			goto out;
		}
	}
	if (script_spe_new(&spe, p, s, &itrace, stdout) < 0 || script_pt_new(&pt, p, s, &itrace, stdout) < 0) {
		status = cli_error("script", "out of memory");
		goto out;
	}
	script_spe_options(spe, filtered ? trace_drops : NULL, &pfc, time_str ? &tr : NULL);
	script_pt_options(pt, filtered ? trace_drops : NULL, &pfc, show != 0, time_str ? &tr : NULL);
	script_pt_cpu_filter(pt, &flt);
	struct hwprof_event ev;
	while ((rc = hwprof_session_next(s, &ev)) > 0) {
		hwprof_symbols_note_record(syms, &ev.rec);
		if ((status = script_spe_event(spe, &ev)) || (status = script_pt_event(pt, &ev)))
			break;
		if (ev.rec.type == HWPROF_RECORD_HEADER_TRACING_DATA) {
			if (trace_load_record(h, &ev.rec, &trace, "script", shown) < 0) {
				status = 1;
				break;
			}
			script_printer_set_trace(p, trace, false);
			continue;
		}
		if (ev.rec.type == HWPROF_RECORD_AUXTRACE_ERROR && !itrace.dont_decode) {
			/* perf script prints the file's trace errors as they are read */
			script_spe_sync(spe);
			print_aux_error(stdout, &ev.rec);
			continue;
		}
		if (ev.rec.type < 64 && (show >> ev.rec.type & 1)) {
			if (pipe && !status) {
				pipe = false;
				if ((status = checks(p, shown)))
					break;
			}
			script_spe_sync(spe); /* the trace's lines before it come first */
			script_print_side_event(p, &ev, filtered ? &flt : NULL);
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
		if (time_ranges_skip(&tr, ev.sample.time))
			continue;
		if (filtered && script_filter_drops(p, &flt, &ev.sample, NULL))
			continue;
		if ((status = script_pt_sample(pt, &ev)))
			break;
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
	time_ranges_free(&tr);
	report_filter_free(&flt);
	script_spe_sync(spe);
	fflush(stdout);
	script_spe_free(spe);
	script_pt_free(pt);
	script_printer_free(p);
	hwprof_trace_free(trace);
	hwprof_symbols_close(syms);
	hwprof_session_close(s);
	return status;
}
