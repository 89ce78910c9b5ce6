/* The perf_event_attr block as perf 6.1 prints it with -vv: zero fields are
 * left out, bit sets print as NAME|NAME, flags one per line. Table driven:
 * one row per flag bit and per named bit of sample_type etc. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/print_event_attr.h"

struct bit_name { uint64_t bit; const char *name; };

/* perf's table order, which is not bit order (IDENTIFIER sits after
 * STACK_USER, WEIGHT after DATA_SRC) and leaves TRANSACTION out: -vv
 * prints with the same table as perf evlist -v. */
static const struct bit_name sample_type_names[] = {
	{ HWPROF_SAMPLE_IP, "IP" }, { HWPROF_SAMPLE_TID, "TID" }, { HWPROF_SAMPLE_TIME, "TIME" },
	{ HWPROF_SAMPLE_ADDR, "ADDR" }, { HWPROF_SAMPLE_READ, "READ" },
	{ HWPROF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { HWPROF_SAMPLE_ID, "ID" },
	{ HWPROF_SAMPLE_CPU, "CPU" }, { HWPROF_SAMPLE_PERIOD, "PERIOD" },
	{ HWPROF_SAMPLE_STREAM_ID, "STREAM_ID" }, { HWPROF_SAMPLE_RAW, "RAW" },
	{ HWPROF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { HWPROF_SAMPLE_REGS_USER, "REGS_USER" },
	{ HWPROF_SAMPLE_STACK_USER, "STACK_USER" }, { HWPROF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ HWPROF_SAMPLE_REGS_INTR, "REGS_INTR" }, { HWPROF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ HWPROF_SAMPLE_WEIGHT, "WEIGHT" },
	{ HWPROF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { HWPROF_SAMPLE_AUX, "AUX" },
	{ HWPROF_SAMPLE_CGROUP, "CGROUP" }, { HWPROF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ HWPROF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" }, { HWPROF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ HWPROF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ HWPROF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ HWPROF_FORMAT_ID, "ID" }, { HWPROF_FORMAT_GROUP, "GROUP" }, { HWPROF_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_names[] = {
	{ 1ULL << 0, "USER" }, { 1ULL << 1, "KERNEL" }, { 1ULL << 2, "HV" }, { 1ULL << 3, "ANY" },
	{ 1ULL << 4, "ANY_CALL" }, { 1ULL << 5, "ANY_RETURN" }, { 1ULL << 6, "IND_CALL" },
	{ 1ULL << 7, "ABORT_TX" }, { 1ULL << 8, "IN_TX" }, { 1ULL << 9, "NO_TX" },
	{ 1ULL << 10, "COND" }, { 1ULL << 11, "CALL_STACK" }, { 1ULL << 12, "IND_JUMP" },
	{ 1ULL << 13, "CALL" }, { 1ULL << 14, "NO_FLAGS" }, { 1ULL << 15, "NO_CYCLES" },
	{ 1ULL << 16, "TYPE_SAVE" }, { 1ULL << 17, "HW_INDEX" }, { 1ULL << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

/* Flag bits in bitfield order; precise_ip is two bits wide. */
static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", NULL /* precise_ip hi */,
	"mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec",
	"use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
	"remove_on_exec", "sigtrap",
};

static void line(FILE *out, const char *name, const char *val)
{
	fprintf(out, "  %-32s %s\n", name, val);
}

static void u(FILE *out, const char *name, uint64_t v)
{
	char b[32];
	if (!v)
		return;
	snprintf(b, sizeof(b), "%" PRIu64, v);
	line(out, name, b);
}

static void x(FILE *out, const char *name, uint64_t v)
{
	char b[32];
	if (!v)
		return;
	snprintf(b, sizeof(b), "%#" PRIx64, v);
	line(out, name, b);
}

static void bits(FILE *out, const char *name, uint64_t v, const struct bit_name *t)
{
	char b[512];
	size_t n = 0;
	if (!v)
		return;
	b[0] = 0;
	for (; t->name; t++)
		if ((v & t->bit) && n < sizeof(b))
			n += (size_t)snprintf(b + n, sizeof(b) - n, "%s%s", n ? "|" : "", t->name);
	line(out, name, b);
}

void print_event_attr(FILE *out, const struct hwprof_attr *a)
{
	fprintf(out, "perf_event_attr:\n");
	u(out, "type", a->type);
	u(out, "size", a->size);
	x(out, "config", a->config);
	u(out, "{ sample_period, sample_freq }", a->sample_period);
	bits(out, "sample_type", a->sample_type, sample_type_names);
	bits(out, "read_format", a->read_format, read_format_names);
	for (unsigned i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		if (!flag_names[i])
			continue;
		uint64_t v = a->flags >> i & (i == HWPROF_ATTR_PRECISE_IP ? 3 : 1);
		u(out, flag_names[i], v);
	}
	u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	u(out, "bp_type", a->bp_type);
	x(out, "{ bp_addr, config1 }", a->config1);
	x(out, "{ bp_len, config2 }", a->config2);
	bits(out, "branch_sample_type", a->branch_sample_type, branch_names);
	x(out, "sample_regs_user", a->sample_regs_user);
	u(out, "sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		char b[16];
		snprintf(b, sizeof(b), "%" PRId32, a->clockid);
		line(out, "clockid", b);
	}
	x(out, "sample_regs_intr", a->sample_regs_intr);
	u(out, "aux_watermark", a->aux_watermark);
	u(out, "sample_max_stack", a->sample_max_stack);
	u(out, "aux_sample_size", a->aux_sample_size);
	u(out, "sig_data", a->sig_data);
	/* fields perf 6.1 does not know: printed only when set */
	x(out, "config3", a->config3);
	x(out, "config4", a->config4);
	u(out, "sample_simd_regs_enabled", a->sample_simd_regs_enabled);
	u(out, "sample_simd_pred_reg_qwords", a->sample_simd_pred_reg_qwords);
	u(out, "sample_simd_vec_reg_qwords", a->sample_simd_vec_reg_qwords);
	x(out, "sample_simd_pred_reg_intr", a->sample_simd_pred_reg_intr);
	x(out, "sample_simd_pred_reg_user", a->sample_simd_pred_reg_user);
	x(out, "sample_simd_vec_reg_intr", a->sample_simd_vec_reg_intr);
	x(out, "sample_simd_vec_reg_user", a->sample_simd_vec_reg_user);
}
