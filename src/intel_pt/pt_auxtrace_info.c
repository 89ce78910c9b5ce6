/* The intel_pt PERF_RECORD_AUXTRACE_INFO body perf 6.1 writes: type 1,
 * then 17 u64 words (PMU type, the mmap page's time conversion, config bit
 * masks from the PMU's format/, recording mode, CPUID 0x15's TSC:CTC
 * ratio, max_nonturbo_ratio) and the address filter string NUL-padded to
 * 8 bytes. The time conversion and CPUID come through replaceable
 * functions so the builder runs anywhere. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "hwprof/intel_pt_cfg.h"
#include "hwprof/perf_event.h"
#include "hwprof/sys.h"
#include "util/bytes.h"

#define AUXTRACE_INTEL_PT 1

static void real_cpuid15(void *ctx, uint32_t *eax, uint32_t *ebx)
{
	(void)ctx;
	*eax = *ebx = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a = 0, b = 0, c = 0, d = 0;
	if (__get_cpuid(0x15, &a, &b, &c, &d)) { /* 0 when the leaf does not exist */
		*eax = a;
		*ebx = b;
	}
#endif
}

/* The time fields of a perf mmap page (struct perf_event_mmap_page), read
 * under its seqlock: capabilities at 40, time_shift 50, time_mult 52,
 * time_zero 64. */
static void page_time(const volatile uint8_t *pg, struct hwprof_pt_time *t)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint32_t seq = *(const volatile uint32_t *)(pg + 8);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		uint64_t caps = *(const volatile uint64_t *)(pg + 40);
		t->time_shift = *(const volatile uint16_t *)(pg + 50);
		t->time_mult = *(const volatile uint32_t *)(pg + 52);
		t->time_zero = *(const volatile uint64_t *)(pg + 64);
		t->cap_user_time_zero = (caps >> 4) & 1;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (*(const volatile uint32_t *)(pg + 8) == seq && !(seq & 1))
			break;
	}
}

/* perf reads the first ring's page; any event's page carries the same
 * clock, so a dummy software event on this thread will do. */
static int real_time(void *ctx, struct hwprof_pt_time *t)
{
	(void)ctx;
	const struct hwprof_sys_ops *sys = hwprof_sys_default();
	struct hwprof_attr a;
	memset(&a, 0, sizeof(a));
	a.type = HWPROF_TYPE_SOFTWARE;
	a.size = HWPROF_ATTR_SIZE_VER7;
	a.config = 9; /* PERF_COUNT_SW_DUMMY */
	a.flags = 1ULL << HWPROF_ATTR_DISABLED | 1ULL << HWPROF_ATTR_EXCLUDE_KERNEL |
		  1ULL << HWPROF_ATTR_EXCLUDE_HV;
	int fd = sys->perf_event_open(&a, 0, -1, -1, 8 /* PERF_FLAG_FD_CLOEXEC */);
	if (fd < 0)
		return -HWPROF_E_IO;
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		sys->close(fd);
		return -HWPROF_E_IO;
	}
	page_time(p, t);
	munmap(p, (size_t)pg);
	sys->close(fd);
	return 0;
}

static size_t filter_bytes(const char *filter)
{
	size_t n = filter ? strlen(filter) : 0;
	return n ? (n + 1 + 7) & ~(size_t)7 : 0;
}

HWPROF_API size_t hwprof_pt_auxtrace_info_size(const struct hwprof_pt_info_opts *o)
{
	return 8 + 8 * HWPROF_PT_INFO_WORDS + filter_bytes(o ? o->filter : NULL);
}

HWPROF_API int hwprof_pt_auxtrace_info(const struct hwprof_pmu *pmu, const struct hwprof_pt_info_opts *o,
				       const struct hwprof_pt_info_src *src, uint8_t *buf, size_t len)
{
	static const struct hwprof_pt_info_opts none;
	if (!pmu || !buf)
		return -HWPROF_E_INVAL;
	if (!o)
		o = &none;
	size_t size = hwprof_pt_auxtrace_info_size(o);
	if (len < size)
		return -HWPROF_E_NOMEM;

	struct hwprof_pt_time t = { 0 };
	int rc = src && src->time ? src->time(src->ctx, &t) : real_time(NULL, &t);
	if (rc < 0)
		return rc;
	uint32_t eax = 0, ebx = 0;
	if (src && src->cpuid15)
		src->cpuid15(src->ctx, &eax, &ebx);
	else
		real_cpuid15(NULL, &eax, &ebx);

	uint64_t w[HWPROF_PT_INFO_WORDS] = { 0 };
	w[HWPROF_PT_INFO_PMU_TYPE] = pmu->type;
	w[HWPROF_PT_INFO_TIME_SHIFT] = t.time_shift;
	w[HWPROF_PT_INFO_TIME_MULT] = t.time_mult;
	w[HWPROF_PT_INFO_TIME_ZERO] = t.time_zero;
	w[HWPROF_PT_INFO_CAP_USER_TIME_ZERO] = t.cap_user_time_zero;
	w[HWPROF_PT_INFO_TSC_BIT] = hwprof_pt_term_bits(pmu, "tsc");
	w[HWPROF_PT_INFO_NORETCOMP_BIT] = hwprof_pt_term_bits(pmu, "noretcomp");
	w[HWPROF_PT_INFO_HAVE_SCHED_SWITCH] = (uint64_t)o->have_sched_switch;
	w[HWPROF_PT_INFO_SNAPSHOT_MODE] = o->snapshot_mode;
	w[HWPROF_PT_INFO_PER_CPU_MMAPS] = o->per_cpu_mmaps;
	w[HWPROF_PT_INFO_MTC_BIT] = hwprof_pt_term_bits(pmu, "mtc");
	w[HWPROF_PT_INFO_MTC_FREQ_BITS] = hwprof_pt_term_bits(pmu, "mtc_period");
	w[HWPROF_PT_INFO_TSC_CTC_N] = ebx;
	w[HWPROF_PT_INFO_TSC_CTC_D] = eax;
	w[HWPROF_PT_INFO_CYC_BIT] = hwprof_pt_term_bits(pmu, "cyc");
	w[HWPROF_PT_INFO_MAX_NONTURBO_RATIO] = pmu->max_nonturbo_ratio > 0 ? (uint64_t)pmu->max_nonturbo_ratio : 0;
	w[HWPROF_PT_INFO_FILTER_STR_LEN] = o->filter ? strlen(o->filter) : 0;

	memset(buf, 0, size);
	st32(buf, AUXTRACE_INTEL_PT);
	for (int i = 0; i < HWPROF_PT_INFO_WORDS; i++)
		st64(buf + 8 + 8 * i, w[i]);
	if (w[HWPROF_PT_INFO_FILTER_STR_LEN])
		memcpy(buf + 8 + 8 * HWPROF_PT_INFO_WORDS, o->filter, w[HWPROF_PT_INFO_FILTER_STR_LEN]);
	return (int)size;
}
