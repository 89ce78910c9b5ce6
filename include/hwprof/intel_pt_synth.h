/* Intel PT sample synthesis: flow decoder events in, perf-style samples out.
 *
 * What Debian perf 6.1 does with an intel_pt perf.data and --itrace: the
 * control flow of each trace queue becomes samples of synthesized events
 *   instructions  every N instructions (i<N>i; ip = the Nth instruction,
 *                 period = instructions since the last one)
 *   branches      every taken branch, trace begin (from 0) and trace end
 *                 (to 0), filtered to calls / returns by c / r
 * and decoder errors become "instruction trace error" records (e).
 * With l[N], instruction, psb and cbr samples carry the last N taken
 * branches of the queue (perf's thread stack ring, not cleared between
 * samples, trace begins and ends included).
 * Each sample carries perf's fields: ip, addr (branch target), the branch
 * flags (PERF_IP_FLAG_*), the instruction bytes and length, the period and
 * the TSC / perf time.
 *
 *   hwprof_pt_synth_queue()   decodes one queue (a cpu's or a thread's
 *                             trace) and emits its samples in trace order
 *
 * Pure library: no files, no printing.
 */
#ifndef HWPROF_INTEL_PT_SYNTH_H
#define HWPROF_INTEL_PT_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/intel_pt_flow.h"
#include "hwprof/itrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf's sample flags (PERF_IP_FLAG_*): bit i is letter i of
 * HWPROF_PT_FLAG_CHARS. */
#define HWPROF_PT_FLAG_BRANCH       (1u << 0)
#define HWPROF_PT_FLAG_CALL         (1u << 1)
#define HWPROF_PT_FLAG_RETURN       (1u << 2)
#define HWPROF_PT_FLAG_CONDITIONAL  (1u << 3)
#define HWPROF_PT_FLAG_SYSCALLRET   (1u << 4)
#define HWPROF_PT_FLAG_ASYNC        (1u << 5)
#define HWPROF_PT_FLAG_INTERRUPT    (1u << 6)
#define HWPROF_PT_FLAG_TX_ABORT     (1u << 7)
#define HWPROF_PT_FLAG_TRACE_BEGIN  (1u << 8)
#define HWPROF_PT_FLAG_TRACE_END    (1u << 9)
#define HWPROF_PT_FLAG_IN_TX        (1u << 10)
#define HWPROF_PT_FLAG_VMENTRY      (1u << 11)
#define HWPROF_PT_FLAG_VMEXIT       (1u << 12)
#define HWPROF_PT_FLAG_INTR_DISABLE (1u << 13)
#define HWPROF_PT_FLAG_INTR_TOGGLE  (1u << 14)
#define HWPROF_PT_FLAG_BRANCH_MISS  (1u << 15)
#define HWPROF_PT_FLAG_CHARS "bcrosyiABExghDt"

/* perf's flags for an instruction class (0 for one that does not branch). */
HWPROF_API uint32_t hwprof_pt_iclass_flags(unsigned iclass);

enum hwprof_pt_sample_kind {
	HWPROF_PT_SAMPLE_INSTRUCTIONS = 0,
	HWPROF_PT_SAMPLE_BRANCHES,
	HWPROF_PT_SAMPLE_PSB,     /* p: a PSB (payload: its trace offset) */
	HWPROF_PT_SAMPLE_CBR,     /* p: core:bus ratio, at the first sample and
				   * after it changes (cbr, cbr_khz, max_nonturbo) */
	HWPROF_PT_SAMPLE_ERROR,
	HWPROF_PT_SAMPLE_KIND_NR
};

/* perf's decoder error codes (the `code` of its error records). */
enum hwprof_pt_synth_err {
	HWPROF_PT_SERR_NOMEM = 1,
	HWPROF_PT_SERR_INTERN,
	HWPROF_PT_SERR_BADPKT,
	HWPROF_PT_SERR_NODATA,
	HWPROF_PT_SERR_NOINSN,
	HWPROF_PT_SERR_MISMAT,
	HWPROF_PT_SERR_OVR,
	HWPROF_PT_SERR_LOST,
	HWPROF_PT_SERR_UNK,
	HWPROF_PT_SERR_NELOOP,
};

/* perf's message for an error code ("Bad packet", ...). */
HWPROF_API const char *hwprof_pt_synth_err_msg(unsigned code);

struct hwprof_pt_sample {
	uint8_t kind;            /* enum hwprof_pt_sample_kind */
	uint8_t insn_len;        /* bytes in insn (0: unknown) */
	uint8_t insn[16];
	uint32_t flags;          /* HWPROF_PT_FLAG_* */
	uint32_t code;           /* ERROR: enum hwprof_pt_synth_err */
	uint64_t ip;             /* instruction / branch source (0: trace begin) */
	uint64_t addr;           /* branch target (0: none, or trace end) */
	uint64_t period;
	uint64_t tsc;            /* 0 before the first timing packet */
	uint64_t time;           /* perf time of tsc (config's conversion) */
	uint64_t offset;         /* ERROR: trace offset of the packet */
	uint64_t cyc_cnt, insn_cnt; /* for IPC; 0 when not known */
	uint64_t payload;        /* PSB: trace offset */
	uint32_t cbr, cbr_khz;   /* CBR: ratio, frequency (kHz) */
	uint32_t max_nonturbo;   /* CBR: maximum non-turbo ratio (8 bits) */
	uint32_t depth;          /* with thread_stack: the call depth after this
				  * branch (perf's thread stack) */
	const uint64_t *chain;   /* g: ip and the return addresses on the thread
				  * stack, newest first (valid during emit) */
	uint32_t nchain;
	/* l: the last branches before the sample, newest first, as from/to
	 * pairs (brstack[2k], brstack[2k+1]); perf's entries carry no other
	 * flags for a trace without transactions (valid during emit) */
	const uint64_t *brstack;
	uint32_t nbr;
};

typedef int (*hwprof_pt_emit_fn)(void *ctx, const struct hwprof_pt_sample *s);

/* A --time range in TSC ticks (0: open at that end). */
struct hwprof_pt_range {
	uint64_t start, end;
};

/* One AUXTRACE buffer of a queue: where its data starts in the queue's
 * trace and its reference TSC. */
struct hwprof_pt_bufmark {
	uint64_t offset, ref;
	bool fresh;  /* not consecutive to the buffer before: perf's decoder
		      * starts again there (at its first PSB) */
};

/* Snapshot-mode traces: where the new data of AUXTRACE buffer b starts,
 * given the queue's previous buffer a (whole), as perf 6.1 trims them: at
 * b's first PSB, or past the part of b that a holds too (found by the TSCs
 * of their PSB+s, or without TSC by comparing bytes from a PSB of a on);
 * *consecutive: b's data goes on where a's ends (decoding continues),
 * else it starts afresh there. Returns len_b when b holds nothing new. */
HWPROF_API size_t hwprof_pt_find_overlap(const void *buf_a, size_t len_a, const void *buf_b, size_t len_b,
					 bool have_tsc, bool *consecutive);

/* perf's TSC range for a range of perf times (ns, 0: open): the least TSC
 * that converts to start_ns or later, the greatest that converts to end_ns
 * or earlier (its intel_pt_tsc_start() and _end()). */
HWPROF_API struct hwprof_pt_range hwprof_pt_tsc_range(const struct hwprof_pt_time_conv *tc, uint64_t start_ns,
						      uint64_t end_ns);

struct hwprof_pt_synth_config {
	struct hwprof_itrace_opts itrace;   /* effective options (defaults applied) */
	struct hwprof_pt_flow_config flow;
	struct hwprof_pt_image *img;        /* code (also for instruction bytes) */
	bool timed;                         /* samples get perf's times (else 0:
					     * timeless decoding) */
	bool no_branch;                     /* the trace has no control flow
					     * packets (intel_pt branch=0) */
	bool no_insn_bytes;                 /* samples carry no instruction
					     * bytes (insn_len 0): the caller
					     * shows none */
	bool thread_stack;                  /* keep perf's per-thread call stack
					     * (sample depth, for callindent; on
					     * anyway for g callchains) */
	/* Per-thread stacks (perf keeps one per thread, which follows it
	 * from cpu to cpu): *tstack is the stack of the thread the queue
	 * runs, read at each branch, so the caller may change it whenever
	 * the run pauses at its gate; *tstack NULL: no thread, no stack.
	 * tstack NULL: one stack for the whole run. */
	struct hwprof_pt_tstack *const *tstack;
	/* The code of the process the queue's thread is in, as tstack: the
	 * decoder reads *space (img when NULL) from its next block on. */
	struct hwprof_pt_image *const *space;
	uint64_t trace_nr;                  /* the queue's: a stack last used
					     * with another is emptied first */
	uint32_t ring_cap;                  /* the branch ring's size (0: the
					     * itrace l size); L wants more */
	uint64_t *events;                   /* s<N> (initial skip): samples made
					     * so far, kept by the caller across
					     * queues (NULL: counted per run) */
	hwprof_pt_emit_fn emit;             /* a non-zero return stops the run */
	/* itrace d: each decoder event, as the run takes it (NULL: none) */
	void (*log)(void *log_ctx, const struct hwprof_pt_event *ev);
	void *log_ctx;
	void *ctx;
	/* Timed decoding: called at each decoder state perf's run loop checks
	 * against its scheduler's limit, with perf's queue time, before the
	 * state's samples. A scheduler interleaving queues by time may hold
	 * the run there (the call returns when it may go on). Non-zero stops
	 * the run and is returned. NULL: no gate. */
	int (*gate)(void *gate_ctx, uint64_t tsc);
	void *gate_ctx;
	/* Timed decoding: perf's sync_switch, which follows a cpu's context
	 * switches through the trace at the kernel's __switch_to (the caller
	 * keeps the switch state; NULL: none). Called with gate_ctx:
	 * HWPROF_PT_SW_STATE after each decoder state's samples, before the
	 * decoder goes on (to: where the state went, 0 nowhere; flags:
	 * HWPROF_PT_FLAG_*; the caller may move the queue time *qts on; a
	 * non-zero return stops the run, as the gate's); HWPROF_PT_SW_TIME
	 * before a state's time is taken (1: it takes its estimate);
	 * HWPROF_PT_SW_ERROR at a decoder error at address `to`;
	 * HWPROF_PT_SW_FFWD when time ranges fast-forward the decoder, and
	 * HWPROF_PT_SW_END after the last range. */
	int (*switch_hook)(void *gate_ctx, int what, uint64_t to, uint32_t flags, uint64_t *qts);
	/* Timed decoding with time ranges (perf's --time, ascending): as
	 * perf's decoder, the run starts at the last PSB whose TSC is before
	 * a range's start (its fast forward, which goes by the first PSB of
	 * each buffer, then by the PSBs of one), decoder states outside the
	 * ranges make no samples and leave the thread stack alone, and the
	 * run ends after the last range. Errors are emitted wherever the run
	 * goes. bufs: the queue's AUXTRACE buffers (NULL: one). */
	const struct hwprof_pt_range *ranges;
	size_t nranges;
	/* IPC: instruction and branch samples carry perf's cyc_cnt and
	 * insn_cnt (the cycles and instructions since the last sample of
	 * their kind that had them, where perf's decoder took a new cycle
	 * count: from CYC packets, or without them from the time and the
	 * CBR) */
	bool ipc;
	const struct hwprof_pt_bufmark *bufs;
	size_t nbufs;
};

enum { HWPROF_PT_SW_STATE, HWPROF_PT_SW_TIME, HWPROF_PT_SW_ERROR, HWPROF_PT_SW_FFWD, HWPROF_PT_SW_END };

/* perf's per-thread stack: return addresses of the calls seen and a ring
 * of the last taken branches. */
struct hwprof_pt_tstack;
HWPROF_API struct hwprof_pt_tstack *hwprof_pt_tstack_new(void);
HWPROF_API void hwprof_pt_tstack_free(struct hwprof_pt_tstack *ts);
/* perf's thread_stack__sample_late(), the callchain itrace G gives a
 * sample of the file (at ip) from its thread's stack (ts may be NULL):
 * perf's layout, with HWPROF_CONTEXT_* markers, at most sz entries
 * (callchain_sz + 1). kernel_start: where perf's kernel space begins
 * (1 << 63 on x86_64; 0 until perf's decoder first runs a queue).
 * Returns the count written to out. */
HWPROF_API uint32_t hwprof_pt_tstack_chain_late(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz,
						uint64_t kernel_start, uint64_t *out);
/* perf's thread_stack__br_sample_late(), the branch stack itrace L gives
 * a sample of the file: at most sz branches, newest first, as from/to
 * pairs in out (kernel_start as above). Returns the count. */
HWPROF_API uint32_t hwprof_pt_tstack_branches_late(const struct hwprof_pt_tstack *ts, uint64_t ip, unsigned sz,
						   uint64_t kernel_start, uint64_t *out);

/* Which sample kinds the options ask for (bit per kind). Returns
 * -HWPROF_E_UNSUPPORTED (with *what naming the option) for options whose
 * samples this synthesis cannot give yet. x, w and I are accepted: their
 * samples need TSX, PTWRITE or event-trace packets, and a trace that has
 * them stops the run with -HWPROF_E_UNSUPPORTED. */
HWPROF_API int hwprof_pt_synth_kinds(const struct hwprof_itrace_opts *o, unsigned *kinds,
				     const char **what);

/* Decodes buf (one queue's trace, in order) and emits its samples.
 * Returns 0, the emit callback's non-zero value, or -HWPROF_E_*
 * (-HWPROF_E_UNSUPPORTED: see hwprof_pt_synth_kinds). */
HWPROF_API int hwprof_pt_synth_queue(const struct hwprof_pt_synth_config *cfg, const void *buf,
				     size_t len);

#ifdef __cplusplus
}
#endif
#endif
