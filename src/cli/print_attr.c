/* perf_event_attr as perf 6.1 prints it in `# event :` header lines and
 * `perf evlist -v`: non-zero fields only, in perf's order, flag bits by
 * name, sample_type/read_format/branch_sample_type as NAME|NAME lists. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/print_header.h"

struct bit_name { uint64_t bit; const char *name; };

/* perf's table order, which is not bit order (IDENTIFIER sits after
 * STACK_USER) and leaves TRANSACTION out. */
static const struct bit_name sample_bits[] = {
	{ HWPROF_SAMPLE_IP, "IP" }, { HWPROF_SAMPLE_TID, "TID" }, { HWPROF_SAMPLE_TIME, "TIME" },
	{ HWPROF_SAMPLE_ADDR, "ADDR" }, { HWPROF_SAMPLE_READ, "READ" },
	{ HWPROF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { HWPROF_SAMPLE_ID, "ID" },
	{ HWPROF_SAMPLE_CPU, "CPU" }, { HWPROF_SAMPLE_PERIOD, "PERIOD" },
	{ HWPROF_SAMPLE_STREAM_ID, "STREAM_ID" }, { HWPROF_SAMPLE_RAW, "RAW" },
	{ HWPROF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { HWPROF_SAMPLE_REGS_USER, "REGS_USER" },
	{ HWPROF_SAMPLE_STACK_USER, "STACK_USER" }, { HWPROF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ HWPROF_SAMPLE_REGS_INTR, "REGS_INTR" }, { HWPROF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ HWPROF_SAMPLE_WEIGHT, "WEIGHT" }, { HWPROF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ HWPROF_SAMPLE_AUX, "AUX" }, { HWPROF_SAMPLE_CGROUP, "CGROUP" },
	{ HWPROF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ HWPROF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ HWPROF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ HWPROF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ HWPROF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ HWPROF_FORMAT_ID, "ID" }, { HWPROF_FORMAT_GROUP, "GROUP" },
	{ HWPROF_FORMAT_LOST, "LOST" }, { 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ 1u << 0, "USER" }, { 1u << 1, "KERNEL" }, { 1u << 2, "HV" }, { 1u << 3, "ANY" },
	{ 1u << 4, "ANY_CALL" }, { 1u << 5, "ANY_RETURN" }, { 1u << 6, "IND_CALL" },
	{ 1u << 7, "ABORT_TX" }, { 1u << 8, "IN_TX" }, { 1u << 9, "NO_TX" }, { 1u << 10, "COND" },
	{ 1u << 11, "CALL_STACK" }, { 1u << 12, "IND_JUMP" }, { 1u << 13, "CALL" },
	{ 1u << 14, "NO_FLAGS" }, { 1u << 15, "NO_CYCLES" }, { 1u << 16, "TYPE_SAVE" },
	{ 1u << 17, "HW_INDEX" }, { 1u << 18, "PRIV_SAVE" }, { 0, NULL },
};

/* The attr flag bitfield, one name per bit from bit 0 (precise_ip takes
 * bits 15-16 and is printed as a number). */
static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
	"task", "watermark", "precise_ip", NULL, "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
	"remove_on_exec", "sigtrap",
};

static void field_bits(FILE *out, const char *name, uint64_t v, const struct bit_name *t)
{
	if (!v)
		return;
	fprintf(out, ", %s = ", name);
	const char *sep = "";
	for (; t->name; t++)
		if (v & t->bit) {
			fprintf(out, "%s%s", sep, t->name);
			sep = "|";
		}
}

static void field_u(FILE *out, const char *name, uint64_t v)
{
	if (v)
		fprintf(out, ", %s = %" PRIu64, name, v);
}

static void field_x(FILE *out, const char *name, uint64_t v)
{
	if (v)
		fprintf(out, ", %s = %#" PRIx64, name, v);
}

void print_attr_fields(FILE *out, const struct hwprof_attr *a)
{
	field_u(out, "type", a->type);
	field_u(out, "size", a->size);
	field_x(out, "config", a->config);
	field_u(out, "{ sample_period, sample_freq }", a->sample_period);
	field_bits(out, "sample_type", a->sample_type, sample_bits);
	field_bits(out, "read_format", a->read_format, read_bits);
	for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++) {
		if (!flag_names[b])
			continue;
		uint64_t v = (a->flags >> b) & (b == HWPROF_ATTR_PRECISE_IP ? 3 : 1);
		field_u(out, flag_names[b], v);
	}
	field_u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	field_u(out, "bp_type", a->bp_type);
	field_x(out, "{ bp_addr, config1 }", a->config1);
	field_x(out, "{ bp_len, config2 }", a->config2);
	field_bits(out, "branch_sample_type", a->branch_sample_type, branch_bits);
	field_x(out, "sample_regs_user", a->sample_regs_user);
	field_u(out, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(out, ", clockid = %" PRId32, a->clockid);
	field_x(out, "sample_regs_intr", a->sample_regs_intr);
	field_u(out, "aux_watermark", a->aux_watermark);
	field_u(out, "sample_max_stack", a->sample_max_stack);
	field_u(out, "aux_sample_size", a->aux_sample_size);
	field_u(out, "sig_data", a->sig_data);
}
