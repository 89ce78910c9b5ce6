/* The kernel's perf ABI as plain constants and a decoded attr struct.
 * Values are facts of include/uapi/linux/perf_event.h and perf's
 * tools/lib/perf/include/perf/event.h; our own names, host byte order. */
#ifndef HWPROF_PERF_EVENT_H
#define HWPROF_PERF_EVENT_H

#include <stdint.h>
#include "hwprof/hwprof.h"

/* perf_event_attr sizes by version. */
enum {
	HWPROF_ATTR_SIZE_VER0 = 64, HWPROF_ATTR_SIZE_VER1 = 72,
	HWPROF_ATTR_SIZE_VER2 = 80, HWPROF_ATTR_SIZE_VER3 = 96,
	HWPROF_ATTR_SIZE_VER4 = 104, HWPROF_ATTR_SIZE_VER5 = 112,
	HWPROF_ATTR_SIZE_VER6 = 120, HWPROF_ATTR_SIZE_VER7 = 128,
	HWPROF_ATTR_SIZE_VER8 = 136, HWPROF_ATTR_SIZE_VER9 = 144,
	HWPROF_ATTR_SIZE_VER10 = 176,
};

/* attr.type */
enum { HWPROF_TYPE_HARDWARE = 0, HWPROF_TYPE_SOFTWARE = 1, HWPROF_TYPE_TRACEPOINT = 2,
       HWPROF_TYPE_HW_CACHE = 3, HWPROF_TYPE_RAW = 4, HWPROF_TYPE_BREAKPOINT = 5 };

/* attr.sample_type bits */
#define HWPROF_SAMPLE_IP              (1ULL << 0)
#define HWPROF_SAMPLE_TID             (1ULL << 1)
#define HWPROF_SAMPLE_TIME            (1ULL << 2)
#define HWPROF_SAMPLE_ADDR            (1ULL << 3)
#define HWPROF_SAMPLE_READ            (1ULL << 4)
#define HWPROF_SAMPLE_CALLCHAIN       (1ULL << 5)
#define HWPROF_SAMPLE_ID              (1ULL << 6)
#define HWPROF_SAMPLE_CPU             (1ULL << 7)
#define HWPROF_SAMPLE_PERIOD          (1ULL << 8)
#define HWPROF_SAMPLE_STREAM_ID       (1ULL << 9)
#define HWPROF_SAMPLE_RAW             (1ULL << 10)
#define HWPROF_SAMPLE_BRANCH_STACK    (1ULL << 11)
#define HWPROF_SAMPLE_REGS_USER       (1ULL << 12)
#define HWPROF_SAMPLE_STACK_USER      (1ULL << 13)
#define HWPROF_SAMPLE_WEIGHT          (1ULL << 14)
#define HWPROF_SAMPLE_DATA_SRC        (1ULL << 15)
#define HWPROF_SAMPLE_IDENTIFIER      (1ULL << 16)
#define HWPROF_SAMPLE_TRANSACTION     (1ULL << 17)
#define HWPROF_SAMPLE_REGS_INTR       (1ULL << 18)
#define HWPROF_SAMPLE_PHYS_ADDR       (1ULL << 19)
#define HWPROF_SAMPLE_AUX             (1ULL << 20)
#define HWPROF_SAMPLE_CGROUP          (1ULL << 21)
#define HWPROF_SAMPLE_DATA_PAGE_SIZE  (1ULL << 22)
#define HWPROF_SAMPLE_CODE_PAGE_SIZE  (1ULL << 23)
#define HWPROF_SAMPLE_WEIGHT_STRUCT   (1ULL << 24)

/* attr.branch_sample_type bits that change the sample layout or its dump */
#define HWPROF_BRANCH_CALL_STACK      (1ULL << 11) /* entries form a user call stack (LBR) */
#define HWPROF_BRANCH_HW_INDEX        (1ULL << 17) /* a u64 hw_idx before the entries */
#define HWPROF_BRANCH_COUNTERS        (1ULL << 19) /* a u64 of counters per entry after them */

/* attr.read_format bits */
#define HWPROF_FORMAT_TOTAL_TIME_ENABLED (1ULL << 0)
#define HWPROF_FORMAT_TOTAL_TIME_RUNNING (1ULL << 1)
#define HWPROF_FORMAT_ID                 (1ULL << 2)
#define HWPROF_FORMAT_GROUP              (1ULL << 3)
#define HWPROF_FORMAT_LOST               (1ULL << 4)

/* attr flag bits (the u64 bitfield at offset 40) */
enum hwprof_attr_flag {
	HWPROF_ATTR_DISABLED = 0, HWPROF_ATTR_INHERIT = 1, HWPROF_ATTR_PINNED = 2,
	HWPROF_ATTR_EXCLUSIVE = 3, HWPROF_ATTR_EXCLUDE_USER = 4, HWPROF_ATTR_EXCLUDE_KERNEL = 5,
	HWPROF_ATTR_EXCLUDE_HV = 6, HWPROF_ATTR_EXCLUDE_IDLE = 7, HWPROF_ATTR_MMAP = 8,
	HWPROF_ATTR_COMM = 9, HWPROF_ATTR_FREQ = 10, HWPROF_ATTR_INHERIT_STAT = 11,
	HWPROF_ATTR_ENABLE_ON_EXEC = 12, HWPROF_ATTR_TASK = 13, HWPROF_ATTR_WATERMARK = 14,
	HWPROF_ATTR_PRECISE_IP = 15 /* 2 bits: 15-16 */, HWPROF_ATTR_MMAP_DATA = 17,
	HWPROF_ATTR_SAMPLE_ID_ALL = 18, HWPROF_ATTR_EXCLUDE_HOST = 19,
	HWPROF_ATTR_EXCLUDE_GUEST = 20, HWPROF_ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21,
	HWPROF_ATTR_EXCLUDE_CALLCHAIN_USER = 22, HWPROF_ATTR_MMAP2 = 23,
	HWPROF_ATTR_COMM_EXEC = 24, HWPROF_ATTR_USE_CLOCKID = 25,
	HWPROF_ATTR_CONTEXT_SWITCH = 26, HWPROF_ATTR_WRITE_BACKWARD = 27,
	HWPROF_ATTR_NAMESPACES = 28, HWPROF_ATTR_KSYMBOL = 29, HWPROF_ATTR_BPF_EVENT = 30,
	HWPROF_ATTR_AUX_OUTPUT = 31, HWPROF_ATTR_CGROUP = 32, HWPROF_ATTR_TEXT_POKE = 33,
	HWPROF_ATTR_BUILD_ID = 34, HWPROF_ATTR_INHERIT_THREAD = 35,
	HWPROF_ATTR_REMOVE_ON_EXEC = 36, HWPROF_ATTR_SIGTRAP = 37,
};
#define HWPROF_ATTR_HAS(a, bit) ((((a)->flags) >> (bit)) & 1)

/* A decoded perf_event_attr (VER10 layout, host byte order). Fields that
 * the file's attr.size does not cover are zero. */
struct hwprof_attr {
	uint32_t type;
	uint32_t size;               /* attr.size as found in the input */
	uint64_t config;
	uint64_t sample_period;      /* or sample_freq when the FREQ flag is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;              /* bitfield, enum hwprof_attr_flag */
	uint32_t wakeup_events;      /* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;            /* or bp_addr, kprobe_func, uprobe_path */
	uint64_t config2;            /* or bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action;         /* aux_start_paused:1, aux_pause:1, aux_resume:1 */
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;
	uint16_t sample_simd_regs_enabled;
	uint16_t sample_simd_pred_reg_qwords;
	uint16_t sample_simd_vec_reg_qwords;
	uint16_t reserved_4;
	uint32_t sample_simd_pred_reg_intr;
	uint32_t sample_simd_pred_reg_user;
	uint64_t sample_simd_vec_reg_intr;
	uint64_t sample_simd_vec_reg_user;
};

/* Record types: kernel (1..21) and perf's user types (64..). */
enum hwprof_record_type {
	HWPROF_RECORD_MMAP = 1, HWPROF_RECORD_LOST = 2, HWPROF_RECORD_COMM = 3,
	HWPROF_RECORD_EXIT = 4, HWPROF_RECORD_THROTTLE = 5, HWPROF_RECORD_UNTHROTTLE = 6,
	HWPROF_RECORD_FORK = 7, HWPROF_RECORD_READ = 8, HWPROF_RECORD_SAMPLE = 9,
	HWPROF_RECORD_MMAP2 = 10, HWPROF_RECORD_AUX = 11, HWPROF_RECORD_ITRACE_START = 12,
	HWPROF_RECORD_LOST_SAMPLES = 13, HWPROF_RECORD_SWITCH = 14,
	HWPROF_RECORD_SWITCH_CPU_WIDE = 15, HWPROF_RECORD_NAMESPACES = 16,
	HWPROF_RECORD_KSYMBOL = 17, HWPROF_RECORD_BPF_EVENT = 18, HWPROF_RECORD_CGROUP = 19,
	HWPROF_RECORD_TEXT_POKE = 20, HWPROF_RECORD_AUX_OUTPUT_HW_ID = 21,
	HWPROF_RECORD_KERNEL_MAX = 22,
	HWPROF_RECORD_USER_TYPE_START = 64,
	HWPROF_RECORD_HEADER_ATTR = 64, HWPROF_RECORD_HEADER_EVENT_TYPE = 65,
	HWPROF_RECORD_HEADER_TRACING_DATA = 66, HWPROF_RECORD_HEADER_BUILD_ID = 67,
	HWPROF_RECORD_FINISHED_ROUND = 68, HWPROF_RECORD_ID_INDEX = 69,
	HWPROF_RECORD_AUXTRACE_INFO = 70, HWPROF_RECORD_AUXTRACE = 71,
	HWPROF_RECORD_AUXTRACE_ERROR = 72, HWPROF_RECORD_THREAD_MAP = 73,
	HWPROF_RECORD_CPU_MAP = 74, HWPROF_RECORD_STAT_CONFIG = 75, HWPROF_RECORD_STAT = 76,
	HWPROF_RECORD_STAT_ROUND = 77, HWPROF_RECORD_EVENT_UPDATE = 78,
	HWPROF_RECORD_TIME_CONV = 79, HWPROF_RECORD_HEADER_FEATURE = 80,
	HWPROF_RECORD_COMPRESSED = 81, HWPROF_RECORD_FINISHED_INIT = 82,
	HWPROF_RECORD_COMPRESSED2 = 83,
};

/* header.misc */
#define HWPROF_MISC_CPUMODE_MASK     7
#define HWPROF_MISC_CPUMODE_UNKNOWN  0
#define HWPROF_MISC_KERNEL           1
#define HWPROF_MISC_USER             2
#define HWPROF_MISC_HYPERVISOR       3
#define HWPROF_MISC_GUEST_KERNEL     4
#define HWPROF_MISC_GUEST_USER       5
#define HWPROF_MISC_PROC_MAP_PARSE_TIMEOUT (1 << 12)
#define HWPROF_MISC_MMAP_DATA        (1 << 13) /* also COMM_EXEC, FORK_EXEC, SWITCH_OUT */
#define HWPROF_MISC_COMM_EXEC        (1 << 13)
#define HWPROF_MISC_SWITCH_OUT       (1 << 13)
#define HWPROF_MISC_EXACT_IP         (1 << 14) /* also SWITCH_OUT_PREEMPT, MMAP_BUILD_ID */
#define HWPROF_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define HWPROF_MISC_MMAP_BUILD_ID    (1 << 14)
#define HWPROF_MISC_EXT_RESERVED     (1 << 15)

/* Feature section ids (adds_features bits). */
enum hwprof_feature {
	HWPROF_FEAT_RESERVED = 0, HWPROF_FEAT_TRACING_DATA = 1, HWPROF_FEAT_BUILD_ID = 2,
	HWPROF_FEAT_HOSTNAME = 3, HWPROF_FEAT_OSRELEASE = 4, HWPROF_FEAT_VERSION = 5,
	HWPROF_FEAT_ARCH = 6, HWPROF_FEAT_NRCPUS = 7, HWPROF_FEAT_CPUDESC = 8,
	HWPROF_FEAT_CPUID = 9, HWPROF_FEAT_TOTAL_MEM = 10, HWPROF_FEAT_CMDLINE = 11,
	HWPROF_FEAT_EVENT_DESC = 12, HWPROF_FEAT_CPU_TOPOLOGY = 13,
	HWPROF_FEAT_NUMA_TOPOLOGY = 14, HWPROF_FEAT_BRANCH_STACK = 15,
	HWPROF_FEAT_PMU_MAPPINGS = 16, HWPROF_FEAT_GROUP_DESC = 17, HWPROF_FEAT_AUXTRACE = 18,
	HWPROF_FEAT_STAT = 19, HWPROF_FEAT_CACHE = 20, HWPROF_FEAT_SAMPLE_TIME = 21,
	HWPROF_FEAT_MEM_TOPOLOGY = 22, HWPROF_FEAT_CLOCKID = 23, HWPROF_FEAT_DIR_FORMAT = 24,
	HWPROF_FEAT_BPF_PROG_INFO = 25, HWPROF_FEAT_BPF_BTF = 26, HWPROF_FEAT_COMPRESSED = 27,
	HWPROF_FEAT_CPU_PMU_CAPS = 28, HWPROF_FEAT_CLOCK_DATA = 29,
	HWPROF_FEAT_HYBRID_TOPOLOGY = 30, HWPROF_FEAT_PMU_CAPS = 31,
	HWPROF_FEAT_LAST = 32, HWPROF_FEAT_BITS = 256,
};

/* AUXTRACE_INFO types */
enum { HWPROF_AUXTRACE_UNKNOWN = 0, HWPROF_AUXTRACE_INTEL_PT = 1, HWPROF_AUXTRACE_INTEL_BTS = 2,
       HWPROF_AUXTRACE_CS_ETM = 3, HWPROF_AUXTRACE_ARM_SPE = 4, HWPROF_AUXTRACE_S390_CPUMSF = 5,
       HWPROF_AUXTRACE_HISI_PTT = 6 };

/* sample regs abi (a bitmap since the SIMD series) */
#define HWPROF_REGS_ABI_NONE 0
#define HWPROF_REGS_ABI_32   1
#define HWPROF_REGS_ABI_64   2
#define HWPROF_REGS_ABI_SIMD 4

/* callchain context markers */
#define HWPROF_CONTEXT_HV           ((uint64_t)-32)
#define HWPROF_CONTEXT_KERNEL       ((uint64_t)-128)
#define HWPROF_CONTEXT_USER         ((uint64_t)-512)
#define HWPROF_CONTEXT_GUEST        ((uint64_t)-2048)
#define HWPROF_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define HWPROF_CONTEXT_GUEST_USER   ((uint64_t)-2560)
#define HWPROF_CONTEXT_MAX          ((uint64_t)-4095)

/* Encode an attr into its kernel byte layout (size = attr->size, at most
 * HWPROF_ATTR_SIZE_VER10 bytes are filled, the rest zero). out must hold
 * max(attr->size, 176) bytes. Decode the reverse from `size` bytes (fields
 * beyond size are zero); swap != 0 when the bytes are in the other order. */
HWPROF_API void hwprof_attr_encode(const struct hwprof_attr *attr, uint8_t *out);
HWPROF_API void hwprof_attr_decode(struct hwprof_attr *attr, const uint8_t *in, uint32_t size, int swap);

#endif
