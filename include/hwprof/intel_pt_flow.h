/* hwprof Intel PT control flow: rebuilds the executed instructions from a PT
 * packet stream and the traced code.
 *
 * Sections:
 *   1. Code image: address ranges -> bytes of files or caller memory
 *   2. Instruction classes (Zydis: length and branch kind only)
 *   3. Flow decoder: buffer + image in, events (blocks, branches, trace
 *      begin/end, async events, modes, timing, errors) out
 *   4. Time conversion (TSC -> perf time, as AUXTRACE_INFO describes it)
 *   5. Emulator: a ptrace single-stepping tracer that writes the packets a
 *      CPU would for a program's user-mode run (tests without PT hardware)
 *
 * The decoder never prints and allocates only its block cache (amortised,
 * bounded), never per packet or per instruction.
 */
#ifndef HWPROF_INTEL_PT_FLOW_H
#define HWPROF_INTEL_PT_FLOW_H

#include <stddef.h>
#include <stdint.h>
#include "hwprof/hwprof.h"
#include "hwprof/intel_pt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. Image --------------------------------------------------------------- */

/* A set of sections (vaddr range -> file offset or memory). A section added
 * later replaces the overlapping parts of earlier ones (as a new mmap does).
 * Files are mapped read-only once per path. The image also holds the cache
 * of decoded blocks its decoders share: use an image (and its decoders)
 * from one thread at a time. */
struct hwprof_pt_image;

HWPROF_API int hwprof_pt_image_new(struct hwprof_pt_image **img);
HWPROF_API void hwprof_pt_image_free(struct hwprof_pt_image *img);

/* [vaddr, vaddr + size) holds the bytes of `path` from `file_off` on (an MMAP
 * record). Bytes past the file's end read as absent. A file that cannot be
 * opened is mapped as by hwprof_pt_image_add_missing() (and -HWPROF_E_IO
 * returned). */
HWPROF_API int hwprof_pt_image_add_file(struct hwprof_pt_image *img, const char *path,
					uint64_t file_off, uint64_t size, uint64_t vaddr);
/* [vaddr, vaddr + size) is mapped to `name`, whose code cannot be read (a
 * missing file, the kernel without its image): as in perf, failures to get
 * an instruction there are reported twice per name, then no more. */
HWPROF_API int hwprof_pt_image_add_missing(struct hwprof_pt_image *img, const char *name, uint64_t size,
					   uint64_t vaddr);

/* perf tried to read the code at addr outside the trace and failed (its
 * DSO's data status is an error then: perf script fetching a sample's
 * instruction, or its search for the ELF class of a thread's files when a
 * [vdso] is mapped): a failure to get an instruction there is reported once
 * more at most. Returns 1 for code that cannot be read (marked), else 0. */
HWPROF_API int hwprof_pt_image_mark_unreadable(struct hwprof_pt_image *img, uint64_t addr);

/* The executable PT_LOAD segments of an ELF file (read with libelf), moved by
 * `bias` (0 for ET_EXEC, the load base for ET_DYN). Returns the number of
 * sections added. */
HWPROF_API int hwprof_pt_image_add_elf(struct hwprof_pt_image *img, const char *path,
				       uint64_t bias);

/* A copy of src's sections with an empty block cache, for a decoder on
 * another thread. It reads src's file mappings: free it before src. */
HWPROF_API int hwprof_pt_image_clone(struct hwprof_pt_image **out, const struct hwprof_pt_image *src);
/* Another address space that starts as a copy of src's (a process that
 * src's forked, or one with the same kernel): sections are added to
 * either alone, but the files stay shared (opened once; one that cannot
 * be read counts as such in both), and the blocks at kernel addresses
 * (bit 63 set) are decoded into the first image's cache, once for all
 * its forks. Freeing an image a fork still uses leaves it to the fork.
 * Not for decoders on other threads (hwprof_pt_image_clone is). */
HWPROF_API int hwprof_pt_image_fork(struct hwprof_pt_image **out, struct hwprof_pt_image *src);
/* Caller-owned bytes that must outlive the image. */
HWPROF_API int hwprof_pt_image_add_buf(struct hwprof_pt_image *img, const void *buf,
				       size_t len, uint64_t vaddr);

/* Copies up to len bytes at addr, stopping at a gap. Returns the count (> 0)
 * or -HWPROF_E_NOENT when addr is not mapped. */
HWPROF_API int hwprof_pt_image_read(const struct hwprof_pt_image *img, uint64_t addr,
				    void *buf, size_t len);

/* Number of sections. */
HWPROF_API size_t hwprof_pt_image_count(const struct hwprof_pt_image *img);

/* ---- 2. Instructions -------------------------------------------------------- */

/* What an instruction does to control flow, which is all PT decoding needs. */
enum hwprof_pt_iclass {
	HWPROF_PT_IC_OTHER = 0,   /* falls through */
	HWPROF_PT_IC_JCC,         /* conditional direct (Jcc, JrCXZ, LOOPcc): TNT */
	HWPROF_PT_IC_JMP,         /* direct near jump */
	HWPROF_PT_IC_JMP_IND,     /* indirect near jump: TIP */
	HWPROF_PT_IC_CALL,        /* direct near call: pushes */
	HWPROF_PT_IC_CALL_IND,    /* indirect near call: TIP, pushes */
	HWPROF_PT_IC_RET,         /* near return: TNT (compressed) or TIP */
	HWPROF_PT_IC_SYSCALL,     /* SYSCALL, SYSENTER */
	HWPROF_PT_IC_SYSRET,      /* SYSRET, SYSEXIT */
	HWPROF_PT_IC_INT,         /* INT n, INT3, INTO, INT1 */
	HWPROF_PT_IC_IRET,        /* IRET* */
	HWPROF_PT_IC_FAR,         /* far JMP/CALL/RET */
	HWPROF_PT_IC_PTWRITE,     /* PTWRITE (falls through) */
	HWPROF_PT_IC_COUNT
};

struct hwprof_pt_insn {
	uint64_t ip;
	uint64_t target;   /* direct branches: the destination; else 0 */
	uint8_t len;
	uint8_t iclass;    /* enum hwprof_pt_iclass */
};

/* Decodes the instruction at buf (ip gives direct targets) in `mode` (16, 32
 * or 64). Returns its length or -HWPROF_E_BAD_PACKET when the bytes are no
 * instruction (or are cut short). */
HWPROF_API int hwprof_pt_insn_decode(const uint8_t *buf, size_t len, uint64_t ip,
				     unsigned mode, struct hwprof_pt_insn *insn);

/* "jcc", "jmp", "ret", ... */
HWPROF_API const char *hwprof_pt_iclass_name(unsigned iclass);

/* ---- 3. Flow decoder ---------------------------------------------------------- */

/* perf's TSC <-> perf time parameters (AUXTRACE_INFO / TIME_CONV). */
struct hwprof_pt_time_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
};

/* Configuration flags. */
#define HWPROF_PT_FLOW_NORETCOMP 0x1  /* the trace was made with noretcomp:
				       * every RET has a TIP */
#define HWPROF_PT_FLOW_CYC_COUNT 0x4  /* keep perf's cycle count for IPC
				       * (the events' cyc_tot, cyc_gen) */
#define HWPROF_PT_FLOW_RESYNC_IP 0x2  /* after an error resume at the next
				       * packet with an IP (perf's recovery),
				       * not at the next PSB */

struct hwprof_pt_flow_config {
	unsigned flags;          /* HWPROF_PT_FLOW_* */
	unsigned mtc_freq;       /* MTC period exponent (attr config mtc_period) */
	uint32_t tsc_ctc_n;      /* CPUID.15H EBX; 0: no MTC timing */
	uint32_t tsc_ctc_d;      /* CPUID.15H EAX */
	unsigned max_nonturbo_ratio; /* for CYC -> TSC (0: CYC only counted) */
	unsigned initial_mode;   /* 16/32/64 before any MODE.Exec (0 -> 64) */
	struct hwprof_pt_time_conv time_conv; /* TSC -> perf time (mult 0: none) */
	uint64_t ref_tsc;        /* the AUXTRACE buffer's reference TSC: the top
				  * byte of the first TSC packet's value */
	unsigned cyc_threshold;  /* the config's cyc_thresh (0: none) */
};

enum hwprof_pt_ev_type {
	HWPROF_PT_EV_NONE = 0,
	HWPROF_PT_EV_BLOCK,      /* ninsn instructions from ip to end_ip */
	HWPROF_PT_EV_ENABLE,     /* tracing starts/resumes at ip (TIP.PGE, PSB+ FUP,
				  * FUP after OVF; payload: the packet type) */
	HWPROF_PT_EV_DISABLE,    /* tracing stops (TIP.PGD); ip: where the next
				  * instruction would have been, to: PGD target
				  * (0 if suppressed); flags ASYNC if from a FUP */
	HWPROF_PT_EV_ASYNC,      /* interrupt/exception: from ip (not executed)
				  * to `to` */
	HWPROF_PT_EV_OVF,        /* internal buffer overflow: packets lost */
	HWPROF_PT_EV_MODE_EXEC,  /* payload: 16/32/64 */
	HWPROF_PT_EV_MODE_TSX,   /* payload: bit0 InTX, bit1 TXAbort; ip: FUP ip */
	HWPROF_PT_EV_PIP,        /* payload: CR3, flags: NR */
	HWPROF_PT_EV_VMCS,       /* payload: VMCS base */
	HWPROF_PT_EV_PTWRITE,    /* payload: value; ip: PTWRITE insn if known */
	HWPROF_PT_EV_CBR,        /* payload: core:bus ratio */
	HWPROF_PT_EV_PWRE,       /* power events: payload raw as in the packet */
	HWPROF_PT_EV_PWRX,
	HWPROF_PT_EV_MWAIT,
	HWPROF_PT_EV_EXSTOP,     /* ip: FUP ip if IP bit set */
	HWPROF_PT_EV_CFE,        /* payload: vector, count: type; ip: FUP ip if any */
	HWPROF_PT_EV_EVD,        /* payload: data, count: type */
	HWPROF_PT_EV_TRACESTOP,
	HWPROF_PT_EV_ERROR,      /* err: -HWPROF_E_*, code: HWPROF_PT_ERR_*,
				  * offset: trace offset; decoding resumes at
				  * the next PSB; ninsn: instructions walked
				  * that no BLOCK has (the branch that failed) */
	HWPROF_PT_EV_PSB,        /* a PSB+ (offset: the PSB's); ip: its FUP, where
				  * the walk reached it, 0 when tracing was off
				  * or at a synchronisation */
	HWPROF_PT_EV_SKIP,       /* blocks walked as one (hwprof_pt_flow_skip):
				  * ninsn instructions in all; end_ip, iclass,
				  * flags, to: the last block's; count: the
				  * length of its last instruction; tsc: the
				  * latest of the blocks'; payload: see
				  * hwprof_pt_flow_skip_ticks() */
	HWPROF_PT_EV_COUNT
};

/* Error kinds of EV_ERROR (count field). */
enum hwprof_pt_err_kind {
	HWPROF_PT_ERR_PACKET = 1,   /* undecodable packet */
	HWPROF_PT_ERR_NOCODE,       /* instruction fetch failed at ip */
	HWPROF_PT_ERR_TNT,          /* branch needs a TNT bit, other packet seen */
	HWPROF_PT_ERR_TIP,          /* branch needs a TIP, other packet seen */
	HWPROF_PT_ERR_RET,          /* compressed return with an empty call stack */
	HWPROF_PT_ERR_FUP,          /* FUP ip never reached / unexpected packet */
	HWPROF_PT_ERR_NOIP,         /* IP packet with suppressed IP where one is needed */
	HWPROF_PT_ERR_LOOP,         /* walked too far without any packet */
};

/* event flags */
#define HWPROF_PT_EVF_TAKEN  0x1  /* BLOCK: the last insn branched to `to` */
#define HWPROF_PT_EVF_ASYNC  0x2  /* DISABLE: asynchronous (FUP + TIP.PGD) */
#define HWPROF_PT_EVF_NR     0x4  /* PIP: non-root */
#define HWPROF_PT_EVF_STATUS 0x8  /* ENABLE: from PSB+ or OVF (not a PGE) */
#define HWPROF_PT_EVF_COMPRESSED 0x10 /* BLOCK ending in RET: compressed */
#define HWPROF_PT_EVF_AT_IP  0x40  /* BLOCK: stops before a FUP's address */
#define HWPROF_PT_EVF_WALK0  0x80  /* ASYNC, DISABLE: perf's walk to the FUP
				    * starts at its address and stops there
				    * (walk_ts and walk_cnt are set) */
#define HWPROF_PT_EVF_END    0x20  /* ENABLE: and off again at once (a
				    * resynchronisation that found TIP.PGD) */

struct hwprof_pt_event {
	uint8_t type;        /* enum hwprof_pt_ev_type */
	uint8_t iclass;      /* BLOCK: class of the last instruction */
	uint8_t mode;        /* execution mode (16/32/64) */
	uint8_t flags;       /* HWPROF_PT_EVF_* */
	uint32_t ninsn;      /* BLOCK: instruction count */
	uint32_t count;      /* CFE/EVD type, ERROR kind; PSB: 1 at a
			      * synchronisation (the start, or a new buffer) */
	int32_t err;         /* ERROR: -HWPROF_E_* */
	uint64_t ip;
	uint64_t end_ip;     /* BLOCK: address of the last instruction */
	uint64_t to;
	uint64_t payload;
	uint64_t offset;     /* trace offset of the packet behind the event */
	uint64_t tsc;        /* perf's sample TSC for the event: the TSC/MTC/CYC
			      * clock when the trace packet deciding it was
			      * read (0 if none yet) */
	uint64_t tsc_in;     /* BLOCK: the same for the instructions before its
			      * last one (an older value when the packet that
			      * decides the branch was not used before) */
	uint64_t est_tsc;    /* tsc plus perf's estimate for the instructions
			      * walked since the clock last moved */
	uint64_t cyc;        /* CYC cycles seen so far */
	/* perf's cycle count for IPC (its tot_cyc_cnt: CYC cycles while
	 * tracing is on, or without CYC TSC ticks times CBR / max non-turbo
	 * ratio) at the event's sample time, and cyc_gen: non-zero when that
	 * sample time is one where perf takes a new count (perf's sample_cyc
	 * then, a new value each time it is set; 0 when the event's state is
	 * not one where perf updates its sample time). Only with
	 * HWPROF_PT_FLOW_CYC_COUNT; not set by the parallel decoder. */
	uint64_t cyc_tot;
	uint64_t cyc_tot_in; /* BLOCK: the same for the instructions before its
			      * last one (as tsc_in) */
	uint32_t cyc_gen;
	uint8_t have_cyc;    /* the decoder had seen a CYC packet by then */
	uint64_t time;       /* perf time of tsc per the config's time_conv
			      * (= tsc when time_mult is 0) */
	uint64_t walk_ts;    /* BLOCK (and ERROR with ninsn): perf's decoder clock while it walks the
			      * block (the time of the packet its walk goes
			      * by: the loaded TNT, or the next packet) */
	uint64_t walk_cnt;   /* BLOCK: instructions walked since that clock
			      * last moved, before the block (perf's
			      * timestamp_insn_cnt: its estimate of the time
			      * between timing packets, one tick each) */
	const uint8_t *ilen; /* BLOCK: lengths of the ninsn instructions, valid
			      * until the next call */
};

struct hwprof_pt_flow;

/* buf must outlive the decoder; the image too. cfg may be NULL. */
HWPROF_API int hwprof_pt_flow_new(struct hwprof_pt_flow **flow, const void *buf, size_t len,
				  struct hwprof_pt_image *img,
				  const struct hwprof_pt_flow_config *cfg);
HWPROF_API void hwprof_pt_flow_free(struct hwprof_pt_flow *flow);
/* The code the walk reads from now on (the traced thread went to another
 * process, hwprof_pt_image_fork); blocks walked already stay walked. */
HWPROF_API int hwprof_pt_flow_set_image(struct hwprof_pt_flow *flow, struct hwprof_pt_image *img);

/* The trace ends at offset end for now (the end of an AUXTRACE buffer that
 * the next does not continue; hwprof_pt_flow_seek() then goes on in the
 * next). Returns 0 or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pt_flow_set_end(struct hwprof_pt_flow *flow, uint64_t end);
/* Where the trace ends for now. */
HWPROF_API uint64_t hwprof_pt_flow_end(const struct hwprof_pt_flow *flow);
/* Repositions the decoder at offset (a PSB), as perf's decoder does when it
 * fast-forwards: it synchronises there afresh, keeping nothing of the walk;
 * the clock loses its time and TMA. ref_tsc: the reference TSC of the
 * AUXTRACE buffer entered there (0: the same buffer, whose first TSC has
 * been used: perf's TSCs then set no time). Returns 0 or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pt_flow_seek(struct hwprof_pt_flow *flow, uint64_t offset, uint64_t ref_tsc);

/* Next event. Returns 1 with an event, 0 at the end of the trace, or
 * -HWPROF_E_INVAL. Errors in the trace are events, never return codes. */
HWPROF_API int hwprof_pt_flow_next(struct hwprof_pt_flow *flow, struct hwprof_pt_event *ev);
/* The same without the copy: *ev points into the decoder, valid until the
 * next call. */
HWPROF_API int hwprof_pt_flow_next_ref(struct hwprof_pt_flow *flow, const struct hwprof_pt_event **ev);

/* Lets the decoder walk the next blocks without an event each, as long as
 * they hold at most ninsn instructions in all, end in user space (below
 * 2^63) and no other event comes between: one EV_SKIP then stands for
 * them. For a consumer that samples every Nth instruction and needs
 * nothing else of the blocks in between. Counts from the events handed
 * out so far: ignored while some are queued (the budget given before
 * goes on shrinking by each block's instructions); an error or overflow
 * event ends it. 0 (the default) turns it off. */
HWPROF_API void hwprof_pt_flow_skip(struct hwprof_pt_flow *flow, uint64_t ninsn);
/* The same for periods in TSC ticks (period: a power of two), block by
 * block as perf's walk goes: a walk (to the next branch) starting at
 * clock t (walk_ts + walk_cnt + bias) may go that many instructions
 * before a sample: none when t & ~(period - 1) > last, period when below
 * last, else up to the next multiple of period. Blocks within it go by;
 * a walk that goes on past the last of them (a block the cache split off
 * without a branch) hands the rest on in the EV_SKIP's payload. walk_left:
 * the rest of a walk under way (0: none). Any other event ends it.
 * period 0 turns it off. */
HWPROF_API void hwprof_pt_flow_skip_ticks(struct hwprof_pt_flow *flow, uint64_t period, uint64_t last,
					  uint64_t bias, uint64_t walk_left);

/* Block cache statistics of the image's cache (all its decoders so far):
 * blocks decoded, block lookups that hit. */
HWPROF_API void hwprof_pt_flow_stats(const struct hwprof_pt_flow *flow, uint64_t *decoded,
				     uint64_t *hits);

HWPROF_API const char *hwprof_pt_ev_name(unsigned type);

/* Parallel decoding: the trace is cut at PSBs into segments decoded on
 * worker threads (each with a clone of img) and joined so that fn sees
 * exactly the events hwprof_pt_flow_next() gives (the cyc totals included),
 * in the same order, on the calling thread. ev->ilen is valid during the
 * call only. fn returns 0 to go on; anything else stops the decode and is
 * returned. img must not change meanwhile. Returns 0, fn's value or
 * -HWPROF_E_*. */
struct hwprof_pt_par_opts {
	unsigned nthreads;       /* 0: the online CPUs; 1: serial */
	size_t segment_bytes;    /* cut at the first PSB after this many bytes
				  * (0: 64 KiB) */
};
struct hwprof_pt_par_stats {
	size_t segments;         /* segments decoded in parallel */
	size_t joins;            /* cuts where the segments were joined */
	size_t reruns;           /* cuts decoded again serially (no join) */
};
typedef int (*hwprof_pt_event_fn)(void *ctx, const struct hwprof_pt_event *ev);
HWPROF_API int hwprof_pt_flow_decode_parallel(const void *buf, size_t len, struct hwprof_pt_image *img,
					      const struct hwprof_pt_flow_config *cfg,
					      const struct hwprof_pt_par_opts *opts,
					      hwprof_pt_event_fn fn, void *ctx,
					      struct hwprof_pt_par_stats *stats);
/* ---- 4. Time ------------------------------------------------------------------ */

/* perf time (ns) of a TSC value: time_zero + tsc * mult >> shift, computed
 * without overflow. mult 0 -> returns tsc. */
HWPROF_API uint64_t hwprof_pt_tsc_to_perf_time(const struct hwprof_pt_time_conv *tc,
					       uint64_t tsc);

/* ---- 5. Emulator ----------------------------------------------------------------- */

#define HWPROF_PT_EMU_NORETCOMP 0x1   /* every RET gets a TIP */
#define HWPROF_PT_EMU_LONG_TNT  0x2   /* up to 47 bits per TNT (else short, 6) */
#define HWPROF_PT_EMU_TIMING    0x4   /* TSC+TMA in PSB+, MTC, CYC */
#define HWPROF_PT_EMU_DEFER_TIP 0x8   /* hold indirect JMP/CALL TIPs behind a
				       * filling TNT, send them after it (SDM
				       * "Deferred TIPs"); implies long TNTs */
#define HWPROF_PT_EMU_TIME_ZERO 0x10  /* perf.data: cap_user_time_zero set, so
				       * perf decodes a TIMING trace with time */
#define HWPROF_PT_EMU_PER_CPU   0x20  /* perf.data in perf's per-cpu layout
				       * (per_cpu_mmaps, switch events): thread
				       * n's trace on cpu n, where a context
				       * switch to it comes first */
#define HWPROF_PT_EMU_KERNEL    0x40  /* perf.data as from intel_pt// (kernel
				       * not excluded; the trace is of user
				       * code all the same) */
#define HWPROF_PT_EMU_KERNEL_BID 0x80 /* with KERNEL: a kernel map whose build
				       * id is another machine's (no kernel
				       * symbols for perf or hwprof) */
#define HWPROF_PT_EMU_SAMPLES   0x100 /* perf.data: a cpu-clock event too,
				       * with samples every 2048 ns of perf
				       * time across the threads (their tools
				       * show them among the trace's) */
#define HWPROF_PT_EMU_VDSO      0x200 /* perf.data: a [vdso] mapping after the
				       * files', as perf records one (perf then
				       * opens the thread's files for their ELF
				       * class) */
#define HWPROF_PT_EMU_NO_CYC    0x400 /* with TIMING: no CYC packets (the cyc
				       * config bit off) and a CBR in PSB+, as
				       * perf's default intel_pt// records */

/* Where the written perf.data's kernel map puts the kernel: its MMAP
 * record "[kernel.kallsyms]_text" has _text there (16 MB long). */
#define HWPROF_PT_EMU_SWITCHES  0x800 /* with PER_CPU and kcode: a context
                                       * switch at each system call (see
                                       * hwprof_pt_emu_write_perfdata) */
#define HWPROF_PT_EMU_TASK_SWITCHES 0x1000 /* with PER_CPU: per-task switch
                                       * records (perf record's when it
                                       * cannot record cpu-wide ones) at
                                       * each system call, out and back in */
#define HWPROF_PT_EMU_KTEXT 0xffffffff81000000ULL

struct hwprof_pt_emu_config {
	unsigned flags;           /* HWPROF_PT_EMU_* */
	unsigned psb_period;      /* PSB+ at the first instruction after this many
				   * bytes (0: 4096) */
	uint64_t max_steps;       /* stop (kill) after this many (0: 5,000,000) */
	unsigned mtc_freq;        /* MTC every 2^mtc_freq CTC ticks (default 3) */
	/* perf.data in snapshot mode (perf record -S): each thread's trace
	 * as snapshots of a snap_size-byte AUX ring taken every snap_step
	 * bytes of trace and at its end (overlapping when the step is the
	 * smaller, with gaps when it is the larger); 0: one whole buffer */
	unsigned snap_size, snap_step;
	/* Kernel code (with HWPROF_PT_EMU_KERNEL): each system call enters it
	 * at kentry and leaves by its SYSRET, traced: TIP to kentry, the
	 * kernel's packets, TIP back to the caller. kcode holds kcode_len
	 * bytes of code at kbase (a vmlinux's .text where the kernel map
	 * puts it). The walk takes conditional branches forward, not
	 * backward; an indirect branch or undecodable byte ends it with
	 * TIP.PGD. NULL: the kernel is not traced (TIP.PGD, later TIP.PGE). */
	const uint8_t *kcode;
	size_t kcode_len;
	uint64_t kbase, kentry;
};

struct hwprof_pt_emu_map {
	uint64_t start, end, pgoff;
	char path[256];
};

/* One traced thread: its own PT buffer (per-thread mode) and ground truth. */
struct hwprof_pt_emu_thread {
	int tid;
	uint8_t *trace;           /* the PT bytes */
	size_t trace_len;
	uint64_t *insns;          /* ground truth: executed instructions (user,
	                           * and kernel with kcode) */
	size_t ninsn;
	/* with kcode: the TSC at each system call's entry and at its SYSRET */
	uint64_t (*syscalls)[2];
	size_t nsyscalls;
};

struct hwprof_pt_emu_result {
	struct hwprof_pt_emu_thread *threads; /* [0] is the main thread */
	size_t nthreads;
	struct hwprof_pt_emu_map *maps; /* executable file mappings at exit */
	size_t nmaps;
	int pid;
	int status;               /* waitpid status of the child */
	int truncated;            /* max_steps was hit */
	char comm[16];
};

/* Runs argv[0] (a path) with argv under PTRACE_SINGLESTEP, x86-64 user mode
 * only. Threads are followed (up to 64, each with its own trace); signals
 * too (async FUP + TIP.PGD, TIP.PGE at the handler). max_steps counts all
 * threads. Returns 0 or -HWPROF_E_*. */
HWPROF_API int hwprof_pt_emulate(char *const argv[], const struct hwprof_pt_emu_config *cfg,
				 struct hwprof_pt_emu_result *res);
HWPROF_API void hwprof_pt_emu_result_free(struct hwprof_pt_emu_result *res);

/* The intel_pt config word of the emulated PMU for cfg (pt, branch, plus
 * noretcomp, or tsc/mtc/mtc_period/cyc with HWPROF_PT_EMU_TIMING). */
HWPROF_API uint64_t hwprof_pt_emu_config_word(const struct hwprof_pt_emu_config *cfg);
/* Writes res as a perf.data that perf 6.1 and hwprof decode with --itrace:
 * an intel_pt event, AUXTRACE_INFO, COMM and MMAP2 records, one AUXTRACE
 * buffer per thread (per-thread mode). Returns 0 or -HWPROF_E_* (err set). */
HWPROF_API int hwprof_pt_emu_write_perfdata(const char *path, const struct hwprof_pt_emu_result *res,
					    const struct hwprof_pt_emu_config *cfg,
					    struct hwprof_error *err);

#ifdef __cplusplus
}
#endif
#endif
