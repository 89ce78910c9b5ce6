/* The perf.data of an emulated Intel PT run (hwprof_pt_emulate): one
 * intel_pt event, an AUXTRACE_INFO with the fields perf 6.1 needs to
 * decode it offline, COMM and MMAP2 records for the traced process and one
 * AUXTRACE buffer per thread (perf's per-thread mode: idx = thread number,
 * tid, cpu -1). What perf requires of such a file is listed in
 * docs/intel-pt-notes.md §2 (sample_id_all with an IDENTIFIER, mappings at
 * time 0, whole traces per buffer). */
#include <string.h>

#include "hwprof/intel_pt.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/perfdata_write.h"

/* intel_pt AUXTRACE_INFO private words, in perf's order */
enum {
	PTI_PMU_TYPE, PTI_TIME_SHIFT, PTI_TIME_MULT, PTI_TIME_ZERO, PTI_CAP_USER_TIME_ZERO,
	PTI_TSC_BIT, PTI_NORETCOMP_BIT, PTI_HAVE_SCHED_SWITCH, PTI_SNAPSHOT_MODE,
	PTI_PER_CPU_MMAPS, PTI_MTC_BIT, PTI_MTC_FREQ_BITS, PTI_TSC_CTC_N, PTI_TSC_CTC_D,
	PTI_CYC_BIT, PTI_MAX_NONTURBO_RATIO, PTI_FILTER_STR_LEN, PTI_NR
};

/* The emulated PMU: type 8 with the config bits of a Skylake-era intel_pt
 * format/ directory (pt 0, cyc 1, mtc 9, tsc 10, noretcomp 11, mtc_period
 * 14-17, branch 13). */
#define EMU_PMU_TYPE 8
#define EMU_SAMPLE_ID 42

uint64_t hwprof_pt_emu_config_word(const struct hwprof_pt_emu_config *cfg)
{
	uint64_t config = 0x2001; /* pt, branch */
	if (cfg->flags & HWPROF_PT_EMU_NORETCOMP)
		config |= 0x800;
	if (cfg->flags & HWPROF_PT_EMU_TIMING) /* tsc, mtc, mtc_period, cyc */
		config |= 0x400 | 0x200 | ((uint64_t)(cfg->mtc_freq ? cfg->mtc_freq : 3) << 14) |
			  (cfg->flags & HWPROF_PT_EMU_NO_CYC ? 0 : 0x2);
	return config;
}

static int put(struct hwprof_writer *w, const uint8_t *buf, int n)
{
	return n < 0 ? n : hwprof_writer_write(w, buf, (size_t)n);
}

HWPROF_API int hwprof_pt_emu_write_perfdata(const char *path, const struct hwprof_pt_emu_result *r,
					    const struct hwprof_pt_emu_config *cfg, struct hwprof_error *err)
{
	const bool timing = cfg->flags & HWPROF_PT_EMU_TIMING;
	const bool per_cpu = cfg->flags & HWPROF_PT_EMU_PER_CPU;
	struct hwprof_attr a;
	memset(&a, 0, sizeof(a));
	a.type = EMU_PMU_TYPE;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.config = hwprof_pt_emu_config_word(cfg);
	a.sample_type = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_IDENTIFIER;
	if (per_cpu)
		a.sample_type |= HWPROF_SAMPLE_CPU;
	const bool kernel = cfg->flags & HWPROF_PT_EMU_KERNEL;
	a.flags = 1ULL << HWPROF_ATTR_DISABLED | (kernel ? 0 : 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL) |
		  1ULL << HWPROF_ATTR_EXCLUDE_HV | 1ULL << HWPROF_ATTR_ENABLE_ON_EXEC |
		  1ULL << HWPROF_ATTR_SAMPLE_ID_ALL;
	const bool task_switches = per_cpu && (cfg->flags & HWPROF_PT_EMU_TASK_SWITCHES);
	if (task_switches) /* perf record sets it on the traced event */
		a.flags |= 1ULL << HWPROF_ATTR_CONTEXT_SWITCH;

	struct hwprof_writer *w;
	int rc = hwprof_writer_open(&w, path, HWPROF_WRITE_FILE, err);
	if (rc < 0)
		return rc;
	const uint64_t id = EMU_SAMPLE_ID;
	rc = hwprof_writer_add_evsel(w, &a, kernel ? "intel_pt//" : "intel_pt//u", &id, 1);
	const bool samples = cfg->flags & HWPROF_PT_EMU_SAMPLES;
	struct hwprof_attr sa;
	memset(&sa, 0, sizeof(sa));
	sa.type = HWPROF_TYPE_SOFTWARE; /* config 0: cpu-clock */
	sa.size = HWPROF_ATTR_SIZE_VER7;
	sa.sample_period = 2048;
	sa.sample_type = a.sample_type | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_PERIOD;
	sa.flags = a.flags;
	const uint64_t sid = EMU_SAMPLE_ID + 1;
	if (!rc && samples)
		rc = hwprof_writer_add_evsel(w, &sa, "cpu-clock", &sid, 1);
	if (!rc)
		rc = hwprof_writer_add_feature_string(w, HWPROF_FEAT_ARCH, "x86_64");
	if (!rc && per_cpu) { /* cpus available and online: perf's -C checks them */
		const uint32_t nr[2] = { 8, 8 };
		rc = hwprof_writer_add_feature(w, HWPROF_FEAT_NRCPUS, nr, sizeof(nr));
	}
	const bool kernel_bid = kernel && (cfg->flags & HWPROF_PT_EMU_KERNEL_BID);
	if (!rc && kernel_bid) {
		/* one build_id_event: header (misc: kernel), pid -1, 24 id
		 * bytes (20 used), the name */
		uint8_t fb[8 + 4 + 24 + 24] = { 0 };
		fb[0] = HWPROF_RECORD_HEADER_BUILD_ID;
		fb[4] = HWPROF_MISC_KERNEL;
		fb[6] = sizeof(fb);
		memset(fb + 8, 0xff, 4);
		for (int i = 0; i < 20; i++)
			fb[12 + i] = (uint8_t)(0xb0 + i);
		memcpy(fb + 36, "[kernel.kallsyms]", 17);
		rc = hwprof_writer_add_feature(w, HWPROF_FEAT_BUILD_ID, fb, sizeof(fb));
	}

	/* Fake clocks: perf time = TSC >> 1 when timing packets are emitted. */
	uint64_t info[1 + PTI_NR]; /* u32 type, u32 reserved, the words */
	memset(info, 0, sizeof(info));
	info[0] = 1; /* PERF_AUXTRACE_INTEL_PT */
	uint64_t *p = info + 1;
	p[PTI_PMU_TYPE] = EMU_PMU_TYPE;
	p[PTI_TIME_SHIFT] = timing;
	p[PTI_TIME_MULT] = timing;
	p[PTI_CAP_USER_TIME_ZERO] = (cfg->flags & HWPROF_PT_EMU_TIME_ZERO) != 0;
	p[PTI_TSC_BIT] = 0x400;
	p[PTI_NORETCOMP_BIT] = 0x800;
	p[PTI_MTC_BIT] = 0x200;
	p[PTI_MTC_FREQ_BITS] = 0x3c000;
	p[PTI_TSC_CTC_N] = timing ? 32 : 0;
	p[PTI_TSC_CTC_D] = timing;
	p[PTI_CYC_BIT] = 0x2;
	const bool snapshot = cfg->snap_size && cfg->snap_step;
	p[PTI_SNAPSHOT_MODE] = snapshot;
	if (per_cpu) {
		p[PTI_PER_CPU_MMAPS] = 1;
		/* context switch events: cpu-wide, or the traced tasks' */
		p[PTI_HAVE_SCHED_SWITCH] = cfg->flags & HWPROF_PT_EMU_TASK_SWITCHES ? 2 : 3;
	}
	uint8_t buf[8 + sizeof(info) > 512 ? 8 + sizeof(info) : 512];
	if (!rc)
		rc = put(w, buf, hwprof_build_user_record(buf, sizeof(buf), HWPROF_RECORD_AUXTRACE_INFO, info,
							 sizeof(info)));

	struct hwprof_sample id_s;
	memset(&id_s, 0, sizeof(id_s));
	id_s.id = EMU_SAMPLE_ID;
	id_s.pid = (uint32_t)r->pid;
	/* perf learns each thread's pid from its COMM */
	for (size_t t = 0; !rc && t < r->nthreads; t++) {
		id_s.tid = (uint32_t)r->threads[t].tid;
		rc = put(w, buf, hwprof_build_comm(buf, sizeof(buf), &a, &id_s, (uint32_t)r->pid,
						   id_s.tid, r->comm, 0));
	}
	if (!rc && (kernel_bid || (kernel && cfg->kcode))) { /* the kernel's map, as perf writes it first */
		struct hwprof_sample k = id_s;
		k.pid = k.tid = (uint32_t)-1;
		rc = put(w, buf, hwprof_build_mmap(buf, sizeof(buf), &a, &k, HWPROF_MISC_KERNEL, (uint32_t)-1, 0,
						   HWPROF_PT_EMU_KTEXT, 0x1000000, HWPROF_PT_EMU_KTEXT,
						   "[kernel.kallsyms]_text"));
	}
	/* mappings at time 0 so every trace position finds its code */
	id_s.tid = (uint32_t)r->pid;
	for (size_t i = 0; !rc && i < r->nmaps; i++) {
		const struct hwprof_pt_emu_map *m = &r->maps[i];
		rc = put(w, buf, hwprof_build_mmap2(buf, sizeof(buf), &a, &id_s, HWPROF_MISC_USER,
						    (uint32_t)r->pid, (uint32_t)r->pid, m->start,
						    m->end - m->start, m->pgoff, 0, 0, 0, 0,
						    5 /* r-x */, 2 /* MAP_PRIVATE */, m->path));
	}
	if (!rc && (cfg->flags & HWPROF_PT_EMU_VDSO)) /* no code of it is traced */
		rc = put(w, buf, hwprof_build_mmap2(buf, sizeof(buf), &a, &id_s, HWPROF_MISC_USER, (uint32_t)r->pid,
						    (uint32_t)r->pid, 0x7fff00000000ULL, 0x2000, 0, 0, 0, 0, 0,
						    5 /* r-x */, 2 /* MAP_PRIVATE */, "[vdso]"));
	/* per cpu: a switch from idle to thread n on cpu n (perf takes the
	 * next task of a switch-out as the cpu's current thread), or with
	 * per-task records thread n's switch in */
	for (size_t t = 0; per_cpu && !rc && t < r->nthreads; t++) {
		struct hwprof_sample sw = id_s;
		sw.pid = task_switches ? (uint32_t)r->pid : 0;
		sw.tid = task_switches ? (uint32_t)r->threads[t].tid : 0;
		sw.cpu = (uint32_t)t;
		sw.time = 1000 + t;
		uint32_t body[2] = { (uint32_t)r->pid, (uint32_t)r->threads[t].tid };
		rc = task_switches ? put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw,
									    HWPROF_RECORD_SWITCH, 0, NULL, 0))
				   : put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw,
									    HWPROF_RECORD_SWITCH_CPU_WIDE,
									    0x2000 /* SWITCH_OUT */, body, sizeof(body)));
	}
	/* HWPROF_PT_EMU_TASK_SWITCHES: thread n is switched out at each
	 * system call's entry and back in at its SYSRET (perf records the
	 * traced tasks' switches only) */
	for (size_t t = 0; task_switches && !rc && t < r->nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r->threads[t];
		for (size_t k = 0; !rc && k < th->nsyscalls; k++) {
			struct hwprof_sample sw = id_s;
			sw.tid = (uint32_t)th->tid;
			sw.cpu = (uint32_t)t;
			sw.time = th->syscalls[k][0] / 2;
			rc = put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw, HWPROF_RECORD_SWITCH,
								    0x2000, NULL, 0));
			sw.time = th->syscalls[k][1] / 2;
			if (!rc)
				rc = put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw,
									    HWPROF_RECORD_SWITCH, 0, NULL, 0));
		}
	}
	/* HWPROF_PT_EMU_SWITCHES: at each system call of thread n, cpu n
	 * switches (out, then in) to another thread of the process (tid
	 * pid + 1000, "sw_other": the same maps) or back, at the call's
	 * entry (before the trace reaches the kernel's switch code) or, every
	 * third, at its SYSRET (after it): perf follows such switches through
	 * the trace when the kernel's symbols name __switch_to. Perf time is
	 * TSC / 2. */
	const bool switches = per_cpu && (cfg->flags & HWPROF_PT_EMU_SWITCHES);
	const uint32_t pid = (uint32_t)r->pid, other = pid + 1000;
	if (switches && !rc) {
		struct hwprof_sample c = id_s;
		c.tid = other;
		rc = put(w, buf, hwprof_build_comm(buf, sizeof(buf), &a, &c, pid, other, "sw_other", 0));
	}
	for (size_t t = 0; switches && !rc && t < r->nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r->threads[t];
		uint32_t cur = (uint32_t)th->tid;
		for (size_t k = 0; !rc && k < th->nsyscalls; k++) {
			uint32_t next = k % 2 == 0 ? other : (uint32_t)th->tid;
			struct hwprof_sample sw = id_s;
			sw.cpu = (uint32_t)t;
			sw.time = th->syscalls[k][k % 3 == 2] / 2;
			sw.tid = cur;
			uint32_t body[2] = { pid, next };
			rc = put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw,
								    HWPROF_RECORD_SWITCH_CPU_WIDE, 0x2000, body,
								    sizeof(body)));
			sw.tid = next;
			sw.time++;
			body[1] = cur;
			if (!rc)
				rc = put(w, buf, hwprof_build_kernel_record(buf, sizeof(buf), &a, &sw,
									    HWPROF_RECORD_SWITCH_CPU_WIDE, 0, body,
									    sizeof(body)));
			cur = next;
		}
	}
	/* the other event's samples: perf time is TSC / 2 from the first
	 * PSB's TSC (0x100000) on; the ip is the first mapping's start */
	for (unsigned k = 0; samples && !rc && k < 64 && r->nmaps && r->nthreads; k++) {
		size_t t = k % r->nthreads;
		struct hwprof_sample s = id_s;
		s.id = sid;
		s.tid = (uint32_t)r->threads[t].tid;
		s.cpu = per_cpu ? (uint32_t)t : 0;
		s.time = 0x80000 + (uint64_t)k * 2048;
		s.period = 2048;
		s.ip = r->maps[0].start;
		s.misc = HWPROF_MISC_USER;
		rc = put(w, buf, hwprof_build_sample(buf, sizeof(buf), &sa, &s));
	}
	/* one whole trace per buffer: perf splits nothing at PSBs itself */
	for (size_t t = 0; !rc && !snapshot && t < r->nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r->threads[t];
		rc = hwprof_writer_write_auxtrace(w, 0, 0x1234 + t, (uint32_t)t, per_cpu ? -1 : th->tid,
						  per_cpu ? (int32_t)t : -1, th->trace, th->trace_len);
	}
	/* snapshots: the ring's last snap_size bytes up to each point (the
	 * record's offset: the ring's head then), which is where a packet
	 * ends (the hardware stops tracing for a snapshot) */
	for (size_t t = 0; !rc && snapshot && t < r->nthreads; t++) {
		const struct hwprof_pt_emu_thread *th = &r->threads[t];
		struct hwprof_pt_decoder dec;
		hwprof_pt_decoder_init(&dec, th->trace, th->trace_len, 0);
		for (size_t end = 0; !rc && end < th->trace_len;) {
			end = end + cfg->snap_step < th->trace_len ? end + cfg->snap_step : th->trace_len;
			struct hwprof_pt_packet pk;
			while (hwprof_pt_decoder_offset(&dec) < end && hwprof_pt_decoder_next(&dec, &pk) == 1)
				;
			end = hwprof_pt_decoder_offset(&dec) > end ? hwprof_pt_decoder_offset(&dec) : end;
			size_t start = end > cfg->snap_size ? end - cfg->snap_size : 0;
			rc = hwprof_writer_write_auxtrace(w, end, 0x1234 + t, (uint32_t)t, per_cpu ? -1 : th->tid,
							  per_cpu ? (int32_t)t : -1, th->trace + start, end - start);
		}
	}
	int crc = hwprof_writer_close(w, err);
	return rc < 0 ? rc : crc;
}
