/* pt_emulate: runs a program under the library's ptrace PT emulator and
 * writes PREFIX.raw (PT bytes), PREFIX.gt (ground truth: one executed
 * instruction address per line, hex), PREFIX.maps ("start end pgoff path"
 * per executable mapping) and PREFIX.data, a perf.data that perf 6.1
 * decodes with --itrace (layout and pitfalls: docs/intel-pt-notes.md §2).
 * Threads after the first get PREFIX.tN.raw / PREFIX.tN.gt (N = 1, 2, ...),
 * PREFIX.tids lists "N tid" per thread, and the perf.data holds one
 * AUXTRACE buffer per thread (per-thread mode: idx N, that tid, cpu -1).
 * Usage: pt_emulate [--noretcomp] [--long-tnt] [--timing [--no-cyc]] [--snapshot SIZE,STEP] [--time-zero] [--per-cpu] [--defer-tip] [--psb N]
 *                   [--kernel] [--kernel-bid] [--vmlinux FILE] [--switches] [--samples] [--vdso]
 *                   [--max N] [--repeat N] PREFIX PROG [ARGS...]
 * --repeat N: the first thread's trace N times over in PREFIX.raw and .data
 * (PREFIX.gt stays one run's), for benchmarks that need a large trace of a
 * real program.
 * --time-zero: AUXTRACE_INFO's cap_user_time_zero set, so that perf decodes
 * a --timing trace with timestamps (without it perf decodes timeless).
 * --per-cpu: perf's per-cpu layout, thread n's trace on cpu n after a
 * context switch to it.
 * --kernel: recorded as intel_pt// (kernel not excluded; the trace is of
 * user code all the same); --kernel-bid: that and a kernel map whose build
 * id is another machine's; --vmlinux FILE: that, and every system call
 * runs FILE's kernel code, traced (entry_SYSCALL_64 to a SYSRET, FILE
 * moved so that its _text is the kernel map's _text: decode with -k FILE).
 * --switches (with --per-cpu --vmlinux): a context switch on the thread's
 * cpu at each system call, to another process and back (perf follows them
 * through the trace at the kernel's __switch_to);
 * --samples: a cpu-clock event too, its samples among the trace's;
 * --vdso: a [vdso] mapping after the files'. */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwprof/intel_pt_flow.h"

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* --vmlinux FILE: system calls run FILE's .text (from its entry_SYSCALL_64
 * to a SYSRET), the file placed so that its _text is the kernel map's. */
static void load_vmlinux(const char *path, struct hwprof_pt_emu_config *cfg)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t shstr;
	if (!e || elf_getshdrstrndx(e, &shstr)) {
		fprintf(stderr, "pt_emulate: %s: not an ELF file\n", path);
		exit(1);
	}
	uint64_t text = 0, entry = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, tsh = { 0 };
	Elf_Data *tdata = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(e, shstr, sh.sh_name);
		if (n && !strcmp(n, ".text")) {
			tsh = sh;
			tdata = elf_getdata(scn, NULL);
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Sym sym;
			const char *sn;
			if (!gelf_getsym(d, (int)k, &sym) || !(sn = elf_strptr(e, sh.sh_link, sym.st_name)))
				continue;
			if (!strcmp(sn, "_text"))
				text = sym.st_value;
			else if (!strcmp(sn, "entry_SYSCALL_64"))
				entry = sym.st_value;
		}
	}
	if (!tdata || !text || !entry) {
		fprintf(stderr, "pt_emulate: %s: no .text, _text or entry_SYSCALL_64\n", path);
		exit(1);
	}
	uint64_t reloc = HWPROF_PT_EMU_KTEXT - text;
	uint8_t *code = malloc(tdata->d_size);
	if (!code) {
		fprintf(stderr, "pt_emulate: out of memory\n");
		exit(1);
	}
	memcpy(code, tdata->d_buf, tdata->d_size);
	cfg->kcode = code;
	cfg->kcode_len = tdata->d_size;
	cfg->kbase = tsh.sh_addr + reloc;
	cfg->kentry = entry + reloc;
	cfg->flags |= HWPROF_PT_EMU_KERNEL;
	elf_end(e);
	close(fd);
}

int main(int argc, char **argv)
{
	struct hwprof_pt_emu_config cfg = { .mtc_freq = 3 };
	unsigned long repeat = 1;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--noretcomp"))
			cfg.flags |= HWPROF_PT_EMU_NORETCOMP;
		else if (!strcmp(argv[i], "--long-tnt"))
			cfg.flags |= HWPROF_PT_EMU_LONG_TNT;
		else if (!strcmp(argv[i], "--timing"))
			cfg.flags |= HWPROF_PT_EMU_TIMING;
		else if (!strcmp(argv[i], "--no-cyc"))
			cfg.flags |= HWPROF_PT_EMU_NO_CYC;
		else if (!strcmp(argv[i], "--snapshot") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%u,%u", &cfg.snap_size, &cfg.snap_step) == 2)
			i++;
		else if (!strcmp(argv[i], "--defer-tip"))
			cfg.flags |= HWPROF_PT_EMU_DEFER_TIP;
		else if (!strcmp(argv[i], "--per-cpu"))
			cfg.flags |= HWPROF_PT_EMU_PER_CPU;
		else if (!strcmp(argv[i], "--time-zero"))
			cfg.flags |= HWPROF_PT_EMU_TIME_ZERO;
		else if (!strcmp(argv[i], "--kernel"))
			cfg.flags |= HWPROF_PT_EMU_KERNEL;
		else if (!strcmp(argv[i], "--kernel-bid"))
			cfg.flags |= HWPROF_PT_EMU_KERNEL | HWPROF_PT_EMU_KERNEL_BID;
		else if (!strcmp(argv[i], "--vmlinux") && i + 1 < argc)
			load_vmlinux(argv[++i], &cfg);
		else if (!strcmp(argv[i], "--switches"))
			cfg.flags |= HWPROF_PT_EMU_SWITCHES;
		else if (!strcmp(argv[i], "--task-switches"))
			cfg.flags |= HWPROF_PT_EMU_TASK_SWITCHES;
		else if (!strcmp(argv[i], "--samples"))
			cfg.flags |= HWPROF_PT_EMU_SAMPLES;
		else if (!strcmp(argv[i], "--vdso"))
			cfg.flags |= HWPROF_PT_EMU_VDSO;
		else if (!strcmp(argv[i], "--psb") && i + 1 < argc)
			cfg.psb_period = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--max") && i + 1 < argc)
			cfg.max_steps = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = strtoul(argv[++i], NULL, 0);
		else
			break;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: pt_emulate [--noretcomp] [--long-tnt] [--timing [--no-cyc]] [--snapshot SIZE,STEP] [--time-zero] [--per-cpu] [--defer-tip] "
				"[--kernel] [--kernel-bid] [--vmlinux FILE] [--switches] [--samples] [--vdso] [--psb N] [--max N] [--repeat N] PREFIX PROG [ARGS...]\n");
		return 2;
	}
	const char *prefix = argv[i];
	struct hwprof_pt_emu_result r;
	int ret = hwprof_pt_emulate(argv + i + 1, &cfg, &r);
	if (ret < 0) {
		fprintf(stderr, "pt_emulate: %s\n", hwprof_strerror(ret));
		return 1;
	}
	if (repeat > 1 && r.nthreads) {
		/* each copy starts with its PSB+, so the stream stays valid */
		struct hwprof_pt_emu_thread *th = &r.threads[0];
		uint8_t *t = malloc(th->trace_len * repeat);
		if (!t) {
			fprintf(stderr, "pt_emulate: out of memory for --repeat\n");
			return 1;
		}
		for (unsigned long k = 0; k < repeat; k++)
			memcpy(t + k * th->trace_len, th->trace, th->trace_len);
		free(th->trace);
		th->trace = t;
		th->trace_len *= repeat;
	}
	char path[4096];
	FILE *f;
	snprintf(path, sizeof(path), "%s.tids", prefix);
	FILE *tids = fopen(path, "w");
	if (!tids) {
		perror(path);
		return 1;
	}
	size_t total = 0;
	for (size_t t = 0; t < r.nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r.threads[t];
		char base[3072];
		if (t)
			snprintf(base, sizeof(base), "%s.t%zu", prefix, t);
		else
			snprintf(base, sizeof(base), "%s", prefix);
		snprintf(path, sizeof(path), "%s.raw", base);
		write_file(path, th->trace, th->trace_len);
		snprintf(path, sizeof(path), "%s.gt", base);
		f = fopen(path, "w");
		for (size_t k = 0; f && k < th->ninsn; k++)
			fprintf(f, "%" PRIx64 "\n", th->insns[k]);
		if (!f || fclose(f)) {
			perror(path);
			return 1;
		}
		fprintf(tids, "%zu %d\n", t, th->tid);
		total += th->ninsn;
	}
	if (fclose(tids))
		return 1;
	snprintf(path, sizeof(path), "%s.maps", prefix);
	f = fopen(path, "w");
	for (size_t k = 0; f && k < r.nmaps; k++)
		fprintf(f, "%" PRIx64 " %" PRIx64 " %" PRIx64 " %s\n", r.maps[k].start,
			r.maps[k].end, r.maps[k].pgoff, r.maps[k].path);
	if (!f || fclose(f)) {
		perror(path);
		return 1;
	}
	struct hwprof_error err;
	snprintf(path, sizeof(path), "%s.data", prefix);
	if (hwprof_pt_emu_write_perfdata(path, &r, &cfg, &err) < 0) {
		fprintf(stderr, "pt_emulate: %s: %s\n", path, err.msg);
		return 1;
	}
	fprintf(stderr, "pt_emulate: %zu threads, %zu instructions, %zu maps%s\n", r.nthreads,
		total, r.nmaps, r.truncated ? " (truncated)" : "");
	hwprof_pt_emu_result_free(&r);
	return 0;
}
