/* Record builders (see perfdata_write.h): SAMPLE bodies in the kernel's
 * field order, kernel records with their sample_id_all trailer, and perf's
 * own record types. All bounds-checked against the caller's buffer and the
 * 64 KiB record limit. */
#include <string.h>

#include "hwprof/perfdata_write.h"
#include "util/bytes.h"

struct wbuf {
	uint8_t *p;
	size_t n, cap;
	bool over;
};

static void w_bytes(struct wbuf *b, const void *s, size_t n)
{
	if (b->over || n > b->cap - b->n || b->n + n > 65535) {
		b->over = true;
		return;
	}
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
}
static void w64(struct wbuf *b, uint64_t v) { uint8_t t[8]; st64(t, v); w_bytes(b, t, 8); }
static void w32(struct wbuf *b, uint32_t v) { uint8_t t[4]; st32(t, v); w_bytes(b, t, 4); }
static void w_pad8(struct wbuf *b)
{
	static const uint8_t z[8];
	w_bytes(b, z, (8 - b->n % 8) % 8);
}
static void w_u64s(struct wbuf *b, const uint8_t *p, uint64_t n)
{
	if (n > 65535 / 8) {
		b->over = true;
		return;
	}
	w_bytes(b, p, 8 * n);
}

static void w_header(struct wbuf *b, uint32_t type, uint16_t misc)
{
	w32(b, type);
	uint8_t t[4];
	st16(t, misc);
	st16(t + 2, 0);
	w_bytes(b, t, 4);
}

static int w_finish(struct wbuf *b)
{
	if (b->over)
		return -HWPROF_E_NOMEM;
	st16(b->p + 6, (uint16_t)b->n);
	return (int)b->n;
}

static void w_trailer(struct wbuf *b, const struct hwprof_attr *a, const struct hwprof_sample *id)
{
	if (!a || !HWPROF_ATTR_HAS(a, HWPROF_ATTR_SAMPLE_ID_ALL))
		return;
	static const struct hwprof_sample zero;
	if (!id)
		id = &zero;
	uint64_t st = a->sample_type;
	if (st & HWPROF_SAMPLE_TID) { w32(b, id->pid); w32(b, id->tid); }
	if (st & HWPROF_SAMPLE_TIME) w64(b, id->time);
	if (st & HWPROF_SAMPLE_ID) w64(b, id->id);
	if (st & HWPROF_SAMPLE_STREAM_ID) w64(b, id->stream_id);
	if (st & HWPROF_SAMPLE_CPU) { w32(b, id->cpu); w32(b, id->cpu_res); }
	if (st & HWPROF_SAMPLE_IDENTIFIER) w64(b, id->id);
}

static void w_regs(struct wbuf *b, const struct hwprof_regs *r)
{
	w64(b, r->abi);
	if (!r->abi)
		return;
	w_u64s(b, r->regs, (uint64_t)__builtin_popcountll(r->mask));
	if (!(r->abi & HWPROF_REGS_ABI_SIMD))
		return;
	w64(b, r->nr_vectors);
	w64(b, r->vector_qwords);
	w64(b, r->nr_pred);
	w64(b, r->pred_qwords);
	if (r->nr_vectors > 65536 || r->vector_qwords > 65536 || r->nr_pred > 65536 || r->pred_qwords > 65536) {
		b->over = true;
		return;
	}
	w_u64s(b, r->simd_data, r->nr_vectors * r->vector_qwords + r->nr_pred * r->pred_qwords);
}

HWPROF_API int hwprof_build_sample(uint8_t *buf, size_t len, const struct hwprof_attr *a,
				   const struct hwprof_sample *s)
{
	struct wbuf b = { buf, 0, len, false };
	uint64_t st = a->sample_type;
	w_header(&b, HWPROF_RECORD_SAMPLE, s->misc);
	if (st & HWPROF_SAMPLE_IDENTIFIER) w64(&b, s->id);
	if (st & HWPROF_SAMPLE_IP) w64(&b, s->ip);
	if (st & HWPROF_SAMPLE_TID) { w32(&b, s->pid); w32(&b, s->tid); }
	if (st & HWPROF_SAMPLE_TIME) w64(&b, s->time);
	if (st & HWPROF_SAMPLE_ADDR) w64(&b, s->addr);
	if (st & HWPROF_SAMPLE_ID) w64(&b, s->id);
	if (st & HWPROF_SAMPLE_STREAM_ID) w64(&b, s->stream_id);
	if (st & HWPROF_SAMPLE_CPU) { w32(&b, s->cpu); w32(&b, s->cpu_res); }
	if (st & HWPROF_SAMPLE_PERIOD) w64(&b, s->period);
	if (st & HWPROF_SAMPLE_READ) {
		uint64_t rf = a->read_format;
		if (rf & HWPROF_FORMAT_GROUP) {
			w64(&b, s->read_nr);
		} else {
			w64(&b, s->read_one.value);
		}
		if (rf & HWPROF_FORMAT_TOTAL_TIME_ENABLED) w64(&b, s->time_enabled);
		if (rf & HWPROF_FORMAT_TOTAL_TIME_RUNNING) w64(&b, s->time_running);
		if (rf & HWPROF_FORMAT_GROUP) {
			uint64_t per = 1 + !!(rf & HWPROF_FORMAT_ID) + !!(rf & HWPROF_FORMAT_LOST);
			w_u64s(&b, s->read_values, s->read_nr > 65535 ? 65536 : s->read_nr * per);
		} else {
			if (rf & HWPROF_FORMAT_ID) w64(&b, s->read_one.id);
			if (rf & HWPROF_FORMAT_LOST) w64(&b, s->read_one.lost);
		}
	}
	if (st & HWPROF_SAMPLE_CALLCHAIN) {
		w64(&b, s->callchain_nr);
		w_u64s(&b, s->callchain, s->callchain_nr);
	}
	if (st & HWPROF_SAMPLE_RAW) {
		/* u32 size + data, padded so the pair ends 8-byte aligned */
		w32(&b, s->raw_size);
		w_bytes(&b, s->raw, s->raw_size);
		w_pad8(&b);
	}
	if (st & HWPROF_SAMPLE_BRANCH_STACK) {
		w64(&b, s->branch_nr);
		if (a->branch_sample_type & (1ULL << 17))
			w64(&b, s->branch_hw_idx);
		w_u64s(&b, s->branches, s->branch_nr > 65535 ? 65536 : 3 * s->branch_nr);
		if (a->branch_sample_type & (1ULL << 19))
			w_u64s(&b, s->branch_counters, s->branch_nr);
	}
	if (st & HWPROF_SAMPLE_REGS_USER) w_regs(&b, &s->user_regs);
	if (st & HWPROF_SAMPLE_STACK_USER) {
		w64(&b, s->stack_size);
		if (s->stack_size) {
			w_bytes(&b, s->stack_data, s->stack_size > 65535 ? 65536 : (size_t)s->stack_size);
			w64(&b, s->stack_dyn_size);
		}
	}
	if (st & HWPROF_SAMPLE_WEIGHT_STRUCT) {
		w32(&b, (uint32_t)s->weight);
		uint8_t t[4];
		st16(t, s->ins_lat);
		st16(t + 2, s->p_stage_cyc);
		w_bytes(&b, t, 4);
	} else if (st & HWPROF_SAMPLE_WEIGHT) {
		w64(&b, s->weight);
	}
	if (st & HWPROF_SAMPLE_DATA_SRC) w64(&b, s->data_src);
	if (st & HWPROF_SAMPLE_TRANSACTION) w64(&b, s->transaction);
	if (st & HWPROF_SAMPLE_REGS_INTR) w_regs(&b, &s->intr_regs);
	if (st & HWPROF_SAMPLE_PHYS_ADDR) w64(&b, s->phys_addr);
	if (st & HWPROF_SAMPLE_CGROUP) w64(&b, s->cgroup);
	if (st & HWPROF_SAMPLE_DATA_PAGE_SIZE) w64(&b, s->data_page_size);
	if (st & HWPROF_SAMPLE_CODE_PAGE_SIZE) w64(&b, s->code_page_size);
	if (st & HWPROF_SAMPLE_AUX) {
		w64(&b, s->aux_size);
		w_bytes(&b, s->aux_data, s->aux_size > 65535 ? 65536 : (size_t)s->aux_size);
		w_pad8(&b);
	}
	return w_finish(&b);
}

static void w_string8(struct wbuf *b, const char *s)
{
	w_bytes(b, s, strlen(s) + 1);
	w_pad8(b);
}

HWPROF_API int hwprof_build_comm(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint32_t pid, uint32_t tid, const char *comm,
				 int exec)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, HWPROF_RECORD_COMM, exec ? HWPROF_MISC_COMM_EXEC : 0);
	w32(&b, pid);
	w32(&b, tid);
	w_string8(&b, comm);
	w_trailer(&b, attr, id);
	return w_finish(&b);
}

HWPROF_API int hwprof_build_mmap2(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				  const struct hwprof_sample *id, uint16_t misc, uint32_t pid, uint32_t tid,
				  uint64_t addr, uint64_t size, uint64_t pgoff, uint32_t maj, uint32_t min,
				  uint64_t ino, uint64_t ino_generation, uint32_t prot, uint32_t flags,
				  const char *filename)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, HWPROF_RECORD_MMAP2, misc);
	w32(&b, pid);
	w32(&b, tid);
	w64(&b, addr);
	w64(&b, size);
	w64(&b, pgoff);
	w32(&b, maj);
	w32(&b, min);
	w64(&b, ino);
	w64(&b, ino_generation);
	w32(&b, prot);
	w32(&b, flags);
	w_string8(&b, filename);
	w_trailer(&b, attr, id);
	return w_finish(&b);
}

HWPROF_API int hwprof_build_mmap(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint16_t misc, uint32_t pid, uint32_t tid,
				 uint64_t addr, uint64_t size, uint64_t pgoff, const char *filename)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, HWPROF_RECORD_MMAP, misc);
	w32(&b, pid);
	w32(&b, tid);
	w64(&b, addr);
	w64(&b, size);
	w64(&b, pgoff);
	w_string8(&b, filename);
	w_trailer(&b, attr, id);
	return w_finish(&b);
}

HWPROF_API int hwprof_build_task(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint32_t type, uint32_t pid, uint32_t ppid,
				 uint32_t tid, uint32_t ptid, uint64_t time)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, type, 0);
	w32(&b, pid);
	w32(&b, ppid);
	w32(&b, tid);
	w32(&b, ptid);
	w64(&b, time);
	w_trailer(&b, attr, id);
	return w_finish(&b);
}

HWPROF_API int hwprof_build_kernel_record(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
					  const struct hwprof_sample *id, uint32_t type, uint16_t misc,
					  const void *body, size_t body_len)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, type, misc);
	w_bytes(&b, body, body_len);
	w_pad8(&b);
	w_trailer(&b, attr, id);
	return w_finish(&b);
}

HWPROF_API int hwprof_build_user_record(uint8_t *buf, size_t len, uint32_t type, const void *body,
					size_t body_len)
{
	struct wbuf b = { buf, 0, len, false };
	w_header(&b, type, 0);
	w_bytes(&b, body, body_len);
	return w_finish(&b);
}
