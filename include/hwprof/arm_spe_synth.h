/* Arm SPE sample synthesis: SPE AUXTRACE buffers in, perf-style samples out.
 *
 * What Debian perf 6.1 does with an arm_spe perf.data (`perf script`,
 * `perf report`): every SPE record (one sampled operation) becomes zero or
 * more samples of synthesized events, named as perf names them:
 *   l1d-miss l1d-access llc-miss llc-access tlb-miss tlb-access  (events)
 *   branch-miss (mispredicted branches; addr = branch target)
 *   remote-access, memory (loads/stores; data_src != 0), instructions
 * chosen with --itrace letters f m t b a M i (see hwprof/itrace.h).
 *
 *   hwprof_spe_info_parse()        AUXTRACE_INFO priv[] (6.1 and versioned)
 *   hwprof_spe_data_src()          perf_mem_data_src of a record (generic, or
 *                                  Neoverse N1/N2/V1[/V2] tables by MIDR)
 *   hwprof_spe_synth_new()         a synthesizer; buffers are queued per AUX
 *   hwprof_spe_synth_add_buffer()  queue (AUXTRACE idx) in file order
 *   hwprof_spe_synth_event()       feed the other records in perf's delivery
 *                                  order (time, switches, exits): samples are
 *                                  emitted in perf's order, interleaved by
 *                                  timestamp across queues
 *   hwprof_spe_synth_flush()       end of input: emit the rest
 *
 * Pure library: no files, no printing; buffers stay owned by the caller
 * and must live until the synthesizer is freed.
 */
#ifndef HWPROF_ARM_SPE_SYNTH_H
#define HWPROF_ARM_SPE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/arm_spe.h"
#include "hwprof/hwprof.h"
#include "hwprof/itrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- AUXTRACE_INFO ------------------------------------------------------ */

#define HWPROF_SPE_CPU_MAGIC 0x1010101010101010ULL

struct hwprof_spe_cpu_info {
	int64_t cpu;
	uint64_t midr;
	uint64_t pmu_type;        /* UINT64_MAX: no SPE on that CPU */
	uint64_t min_interval;
	uint64_t event_filter;    /* newest layout only, else 0 */
};

struct hwprof_spe_info {
	unsigned version;         /* 1 = perf 6.1 layout {pmu_type, per_cpu_mmaps} */
	uint32_t pmu_type;
	bool per_cpu_mmaps;       /* version 1 only */
	uint32_t nr_cpus;         /* versioned: CPUs described (may exceed max_cpus) */
};

/* Parses the priv[] words of an AUXTRACE_INFO record of type 4 (ARM_SPE):
 * n == 2 is the unversioned 6.1 layout; otherwise priv[0] is the version,
 * priv[1] the header size in words, then PMU type and CPU count, then one
 * block per CPU {magic, cpu, nr_params, midr, pmu_type, min_interval
 * [, event_filter]}. Up to max_cpus blocks are stored in cpus.
 * Returns 0, or -HWPROF_E_CORRUPT naming the word index in err. */
HWPROF_API int hwprof_spe_info_parse(const uint64_t *priv, size_t n, struct hwprof_spe_info *info,
				     struct hwprof_spe_cpu_info *cpus, size_t max_cpus,
				     struct hwprof_error *err);

/* ---- data source -------------------------------------------------------- */

/* perf_mem_data_src fields (values as in the kernel's uapi). */
#define HWPROF_MEM_OP_LOAD      0x02ULL
#define HWPROF_MEM_OP_STORE     0x04ULL
#define HWPROF_MEM_OP_SHIFT     0
#define HWPROF_MEM_LVL_SHIFT    5
#define HWPROF_MEM_SNOOP_SHIFT  19
#define HWPROF_MEM_LOCK_SHIFT   24
#define HWPROF_MEM_TLB_SHIFT    26
#define HWPROF_MEM_LVLNUM_SHIFT 33
#define HWPROF_MEM_REMOTE_SHIFT 37
#define HWPROF_MEM_SNOOPX_SHIFT 38
#define HWPROF_MEM_BLK_SHIFT    40
#define HWPROF_MEM_HOPS_SHIFT   43

/* Flags for hwprof_spe_data_src(). */
enum {
	/* Also decode Neoverse V2 with the Neoverse table (newer perf does;
	 * perf 6.1 knows only N1, N2 and V1 and uses the generic rules). */
	HWPROF_SPE_DS_NEOVERSE_V2 = 1u << 0,
};

/* Neoverse core with an SPE data-source table (MIDR implementer/part,
 * any variant/revision)? */
HWPROF_API bool hwprof_spe_midr_is_neoverse(uint64_t midr, unsigned flags);

/* The data_src perf gives the record's samples: 0 unless the record is a
 * load or store (OP_TYPE class LDST); then op, the cache level and snoop
 * from the Neoverse table (loads only) or from the cache events (generic),
 * remote, and the TLB walker hit/miss from the TLB events. */
HWPROF_API uint64_t hwprof_spe_data_src(const struct hwprof_spe_record *rec, uint64_t midr, unsigned flags);

/* ---- time conversion (TIME_CONV record) --------------------------------- */

struct hwprof_tsc_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	bool cap_user_time_zero, cap_user_time_short;
};

/* From a TIME_CONV record's body (after the 8-byte header); older records
 * carry only the first three fields. -HWPROF_E_CORRUPT if shorter. */
HWPROF_API int hwprof_tsc_conv_parse(struct hwprof_tsc_conv *tc, const uint8_t *body, size_t len);
HWPROF_API uint64_t hwprof_tsc_to_perf_time(const struct hwprof_tsc_conv *tc, uint64_t cyc);
/* Returns 0 when time_mult is 0 (perf would divide by zero). */
HWPROF_API uint64_t hwprof_perf_time_to_tsc(const struct hwprof_tsc_conv *tc, uint64_t ns);

/* ---- synthesis ---------------------------------------------------------- */

enum hwprof_spe_group {
	HWPROF_SPE_G_L1D_MISS = 0,
	HWPROF_SPE_G_L1D_ACCESS,
	HWPROF_SPE_G_LLC_MISS,
	HWPROF_SPE_G_LLC_ACCESS,
	HWPROF_SPE_G_TLB_MISS,
	HWPROF_SPE_G_TLB_ACCESS,
	HWPROF_SPE_G_BRANCH_MISS,
	HWPROF_SPE_G_REMOTE_ACCESS,
	HWPROF_SPE_G_MEMORY,
	HWPROF_SPE_G_INSTRUCTIONS,
	HWPROF_SPE_G_NR,
};

/* "l1d-miss", ... "instructions"; NULL past the end. */
HWPROF_API const char *hwprof_spe_group_name(unsigned group);

/* One synthesized sample, with the fields perf fills in. */
struct hwprof_spe_sample {
	unsigned group;           /* enum hwprof_spe_group */
	const char *name;         /* hwprof_spe_group_name(group) */
	uint64_t id;              /* synthesized event id (SPE evsel id + 1e9 + k) */
	uint16_t cpumode;         /* HWPROF_MISC_KERNEL or _USER (ip vs kernel start) */
	uint64_t time;            /* perf time (ns); 0 in timeless mode */
	uint64_t ip;
	int32_t pid, tid, cpu;
	uint64_t addr;            /* data VA, or the branch target for branch-miss */
	uint64_t phys_addr;       /* 0 for branch-miss */
	uint64_t data_src;        /* 0 for branch-miss */
	uint64_t weight;          /* total latency (cycles) */
	uint64_t period;          /* 1, or the 'i' period for instructions */
	const struct hwprof_spe_record *rec; /* the SPE record (valid during the callback) */
};

/* Called for each sample; a non-zero return stops synthesis and is
 * returned by the call that was running. */
typedef int (*hwprof_spe_emit_fn)(void *ctx, const struct hwprof_spe_sample *s);
/* pid of thread tid as the session knows it (perf's thread pid), or -1. */
typedef int32_t (*hwprof_spe_thread_pid_fn)(void *ctx, int32_t tid);

/* Conditions perf 6.1 reports on stderr while decoding, each time it meets
 * them (the library never prints; a perf-like tool prints perf's text):
 * an address packet of an index perf does not use (value = index, perf:
 * "unsupported address packet index: 0x%x"), an OP_TYPE packet of an
 * unknown class (value = class, perf: "Get packet error!"). */
enum hwprof_spe_notice {
	HWPROF_SPE_NOTE_ADDR_INDEX = 1,
	HWPROF_SPE_NOTE_OP_CLASS = 2,
};
typedef void (*hwprof_spe_notice_fn)(void *ctx, unsigned notice, uint64_t value);

struct hwprof_spe_synth_config {
	struct hwprof_itrace_opts itrace; /* itrace.set false: perf's default set */
	uint64_t midr;            /* for data_src (from the CPUID feature) */
	unsigned ds_flags;        /* HWPROF_SPE_DS_* */
	bool timeless;            /* no event in the file samples TIME */
	struct hwprof_tsc_conv tc;
	uint64_t kernel_start;    /* 0: 1 << 63 (perf without a kernel map) */
	uint64_t spe_id;          /* first sample id of the SPE event */
	hwprof_spe_emit_fn emit;
	hwprof_spe_thread_pid_fn thread_pid; /* NULL: pid = -1 unless known by a switch */
	/* optional: a number that moves whenever thread_pid's answers may
	 * change (hwprof_session_version_ptr); while it stays, a queue whose
	 * records keep naming the same thread asks thread_pid once */
	const uint64_t *thread_pid_version;
	hwprof_spe_notice_fn notice;         /* NULL: not told */
	void *ctx;
	/* the emit callback never reads a sample's data_src: it is left 0
	 * (perf's derivation of it costs per record; the memory group still
	 * derives it to decide which records it takes) */
	bool no_data_src;
};

struct hwprof_spe_synth;

HWPROF_API int hwprof_spe_synth_new(struct hwprof_spe_synth **out, const struct hwprof_spe_synth_config *cfg);
HWPROF_API void hwprof_spe_synth_free(struct hwprof_spe_synth *s);

/* Bit g set when group g is synthesized (what perf adds as events; perf
 * prints a warning and leaves instructions out when the 'i' period is not
 * in instructions). */
HWPROF_API unsigned hwprof_spe_synth_groups(const struct hwprof_spe_synth *s);
/* Id of a group's synthesized event (0 if not synthesized). */
HWPROF_API uint64_t hwprof_spe_synth_group_id(const struct hwprof_spe_synth *s, unsigned group);

/* Queues an AUXTRACE buffer: idx = AUX queue (per-cpu mmap index), cpu and
 * tid from the AUXTRACE record; addr = file offset of data[0] (perf sizes
 * ALIGNMENT packets by address). Buffers of a queue are decoded as one
 * stream in the order added: a record may continue in the next buffer. */
HWPROF_API int hwprof_spe_synth_add_buffer(struct hwprof_spe_synth *s, uint32_t idx, int32_t cpu, int32_t tid,
					   const void *data, size_t len, uint64_t addr);

/* A non-AUX record as perf delivers it to the decoder (kernel records in
 * time order). */
struct hwprof_spe_side_event {
	uint32_t type;            /* HWPROF_RECORD_* */
	uint16_t misc;
	uint64_t time;            /* sample time (0 / -1: none) */
	int32_t cpu;              /* sample cpu */
	int32_t pid, tid;         /* SWITCH_CPU_WIDE next_prev_pid/tid; EXIT tid */
};

/* Emits the samples perf emits before delivering ev: in timed mode all SPE
 * records older than ev's time; switch-out events set the current thread
 * of the CPU (until a CONTEXT packet is seen); in timeless mode an EXIT
 * decodes the queues of that thread. Returns 0, the emit callback's
 * non-zero value, or a negative error. */
HWPROF_API int hwprof_spe_synth_event(struct hwprof_spe_synth *s, const struct hwprof_spe_side_event *ev);

/* End of input: emits everything left. */
HWPROF_API int hwprof_spe_synth_flush(struct hwprof_spe_synth *s);

/* True once a CONTEXT packet set a thread (else perf warns that TIDs may
 * be inaccurate). */
HWPROF_API bool hwprof_spe_synth_used_context(const struct hwprof_spe_synth *s);

/* sample_type of the synthesized events, given the SPE event's. */
HWPROF_API uint64_t hwprof_spe_synth_sample_type(uint64_t spe_sample_type, bool timeless);

#ifdef __cplusplus
}
#endif
#endif
