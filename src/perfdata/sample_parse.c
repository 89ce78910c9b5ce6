/* PERF_RECORD_SAMPLE bodies and the sample_id_all trailer of other kernel
 * records, field by field in the kernel's order, every read bounds-checked
 * against header.size. Register blocks follow the merged SIMD ABI: abi is a
 * bitmap and, with the SIMD bit, a 4×u64 header and vector/predicate data
 * follow the GPRs, sized by the record itself. */
#include <string.h>

#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

HWPROF_API const struct hwprof_evsel *hwprof_perfdata_record_evsel(const struct hwprof_perfdata *h,
								   const struct hwprof_record *rec)
{
	if (h->nr_evsels == 0)
		return NULL;
	if (h->nr_evsels == 1)
		return &h->evsels[0];
	if (rec->type == HWPROF_RECORD_SAMPLE) {
		if (h->sample_id_pos < 0)
			return &h->evsels[0];
		uint32_t at = 8 + 8u * (uint32_t)h->sample_id_pos;
		if (at + 8 > rec->size)
			return NULL;
		return hwprof_perfdata_evsel_by_id(h, ld64(rec->data + at));
	}
	if (rec->type >= HWPROF_RECORD_USER_TYPE_START)
		return &h->evsels[0];
	if (!HWPROF_ATTR_HAS(&h->evsels[0].attr, HWPROF_ATTR_SAMPLE_ID_ALL) || h->trailer_id_pos < 0)
		return &h->evsels[0];
	uint32_t back = 8u * (uint32_t)h->trailer_id_pos;
	if (back + 8 > rec->size)
		return NULL;
	return hwprof_perfdata_evsel_by_id(h, ld64(rec->data + rec->size - back));
}

struct cursor {
	const uint8_t *p, *end;
	struct hwprof_perfdata *h;
	const struct hwprof_record *rec;
};

static int overrun(struct cursor *c, const char *field, uint64_t need)
{
	return pdata_error(c->h, HWPROF_E_CORRUPT, pdata_rec_off(c->h, c->rec->offset),
			   "sample field %s needs %llu bytes at record offset %ld but the record has %u bytes",
			   field, (unsigned long long)need, (long)(c->p - c->rec->data), c->rec->size);
}

#define TAKE64(c, dst, name)                                   \
	do {                                                   \
		if ((c)->end - (c)->p < 8)                     \
			return overrun((c), (name), 8);        \
		(dst) = ld64((c)->p);                          \
		(c)->p += 8;                                   \
	} while (0)

/* Reserve n u64s (n from the input: check before multiplying). */
static int take_array(struct cursor *c, const char *name, uint64_t n, const uint8_t **out)
{
	uint64_t left = (uint64_t)(c->end - c->p) / 8;
	if (n > left)
		return overrun(c, name, n > UINT64_MAX / 8 ? UINT64_MAX : n * 8);
	*out = c->p;
	c->p += n * 8;
	return 0;
}

static int parse_regs(struct cursor *c, const char *name, struct hwprof_regs *r, uint64_t mask,
		      uint64_t vec_mask, uint32_t pred_mask)
{
	int rc;
	TAKE64(c, r->abi, name);
	r->mask = mask;
	r->vec_mask = vec_mask;
	r->pred_mask = pred_mask;
	if (!r->abi)
		return 0;
	r->nr = (uint32_t)__builtin_popcountll(mask);
	if ((rc = take_array(c, name, r->nr, &r->regs)))
		return rc;
	if (!(r->abi & HWPROF_REGS_ABI_SIMD))
		return 0;
	TAKE64(c, r->nr_vectors, "SIMD nr_vectors");
	TAKE64(c, r->vector_qwords, "SIMD vector_qwords");
	TAKE64(c, r->nr_pred, "SIMD nr_pred");
	TAKE64(c, r->pred_qwords, "SIMD pred_qwords");
	/* Each factor is bounded by the record size (64 KiB) before multiplying. */
	if (r->nr_vectors > 65536 || r->vector_qwords > 65536 || r->nr_pred > 65536 || r->pred_qwords > 65536)
		return pdata_error(c->h, HWPROF_E_CORRUPT, pdata_rec_off(c->h, c->rec->offset),
				   "SIMD header (nr_vectors %llu, vector_qwords %llu, nr_pred %llu, pred_qwords %llu) "
				   "exceeds any record size",
				   (unsigned long long)r->nr_vectors, (unsigned long long)r->vector_qwords,
				   (unsigned long long)r->nr_pred, (unsigned long long)r->pred_qwords);
	uint64_t n = r->nr_vectors * r->vector_qwords + r->nr_pred * r->pred_qwords;
	return take_array(c, "SIMD register data", n, &r->simd_data);
}

HWPROF_API int hwprof_sample_parse(struct hwprof_perfdata *h, const struct hwprof_record *rec,
				   struct hwprof_sample *s)
{
	memset(s, 0, sizeof(*s));
	const struct hwprof_evsel *ev = hwprof_perfdata_record_evsel(h, rec);
	if (!ev)
		return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, rec->offset), "sample with an unknown event id");
	const struct hwprof_attr *a = &ev->attr;
	uint64_t st = a->sample_type;
	struct cursor cur = { rec->data + 8, rec->data + rec->size, h, rec }, *c = &cur;
	int rc;
	s->evsel = ev;
	s->sample_type = st;
	s->misc = rec->misc;
	s->period = a->sample_period;
	s->cpu = (uint32_t)-1;
	s->pid = s->tid = (uint32_t)-1;
	s->time = (uint64_t)-1;
	if (st & HWPROF_SAMPLE_IDENTIFIER) TAKE64(c, s->id, "IDENTIFIER");
	if (st & HWPROF_SAMPLE_IP) TAKE64(c, s->ip, "IP");
	if (st & HWPROF_SAMPLE_TID) {
		if (c->end - c->p < 8)
			return overrun(c, "TID", 8);
		s->pid = ld32(c->p);
		s->tid = ld32(c->p + 4);
		c->p += 8;
	}
	if (st & HWPROF_SAMPLE_TIME) TAKE64(c, s->time, "TIME");
	if (st & HWPROF_SAMPLE_ADDR) TAKE64(c, s->addr, "ADDR");
	if (st & HWPROF_SAMPLE_ID) TAKE64(c, s->id, "ID");
	if (st & HWPROF_SAMPLE_STREAM_ID) TAKE64(c, s->stream_id, "STREAM_ID");
	if (st & HWPROF_SAMPLE_CPU) {
		if (c->end - c->p < 8)
			return overrun(c, "CPU", 8);
		s->cpu = ld32(c->p);
		s->cpu_res = ld32(c->p + 4);
		c->p += 8;
	}
	if (st & HWPROF_SAMPLE_PERIOD) TAKE64(c, s->period, "PERIOD");
	if (st & HWPROF_SAMPLE_READ) {
		uint64_t rf = a->read_format;
		if (rf & HWPROF_FORMAT_GROUP) TAKE64(c, s->read_nr, "READ nr");
		else s->read_nr = 1;
		if (!(rf & HWPROF_FORMAT_GROUP))
			TAKE64(c, s->read_one.value, "READ value");
		if (rf & HWPROF_FORMAT_TOTAL_TIME_ENABLED) TAKE64(c, s->time_enabled, "READ time_enabled");
		if (rf & HWPROF_FORMAT_TOTAL_TIME_RUNNING) TAKE64(c, s->time_running, "READ time_running");
		if (rf & HWPROF_FORMAT_GROUP) {
			uint32_t per = 1 + !!(rf & HWPROF_FORMAT_ID) + !!(rf & HWPROF_FORMAT_LOST);
			s->read_value_stride = 8 * per;
			if (s->read_nr > 65536)
				return overrun(c, "READ group values", s->read_nr);
			if ((rc = take_array(c, "READ group values", s->read_nr * per, &s->read_values)))
				return rc;
		} else {
			if (rf & HWPROF_FORMAT_ID) TAKE64(c, s->read_one.id, "READ id");
			if (rf & HWPROF_FORMAT_LOST) TAKE64(c, s->read_one.lost, "READ lost");
		}
	}
	if (st & HWPROF_SAMPLE_CALLCHAIN) {
		TAKE64(c, s->callchain_nr, "CALLCHAIN nr");
		if ((rc = take_array(c, "CALLCHAIN", s->callchain_nr, &s->callchain)))
			return rc;
	}
	if (st & HWPROF_SAMPLE_RAW) {
		if (c->end - c->p < 4)
			return overrun(c, "RAW size", 4);
		s->raw_size = ld32(c->p);
		c->p += 4;
		if ((uint64_t)(c->end - c->p) < s->raw_size)
			return overrun(c, "RAW data", s->raw_size);
		s->raw = c->p;
		c->p += s->raw_size;
	}
	if (st & HWPROF_SAMPLE_BRANCH_STACK) {
		TAKE64(c, s->branch_nr, "BRANCH_STACK nr");
		if (a->branch_sample_type & (1ULL << 17)) { /* PERF_SAMPLE_BRANCH_HW_INDEX */
			s->branch_has_hw_idx = true;
			TAKE64(c, s->branch_hw_idx, "BRANCH_STACK hw_idx");
		}
		if (s->branch_nr > 65536)
			return overrun(c, "BRANCH_STACK entries", s->branch_nr);
		if ((rc = take_array(c, "BRANCH_STACK entries", 3 * s->branch_nr, &s->branches)))
			return rc;
		if (a->branch_sample_type & (1ULL << 19)) /* PERF_SAMPLE_BRANCH_COUNTERS */
			if ((rc = take_array(c, "BRANCH_STACK counters", s->branch_nr, &s->branch_counters)))
				return rc;
	}
	if (st & HWPROF_SAMPLE_REGS_USER)
		if ((rc = parse_regs(c, "REGS_USER", &s->user_regs, a->sample_regs_user,
				     a->sample_simd_vec_reg_user, a->sample_simd_pred_reg_user)))
			return rc;
	if (st & HWPROF_SAMPLE_STACK_USER) {
		TAKE64(c, s->stack_size, "STACK_USER size");
		if (s->stack_size) {
			if ((uint64_t)(c->end - c->p) < s->stack_size)
				return overrun(c, "STACK_USER data", s->stack_size);
			s->stack_data = c->p;
			c->p += s->stack_size;
			TAKE64(c, s->stack_dyn_size, "STACK_USER dyn_size");
		}
	}
	if (st & HWPROF_SAMPLE_WEIGHT_STRUCT) {
		if (c->end - c->p < 8)
			return overrun(c, "WEIGHT_STRUCT", 8);
		s->weight = ld32(c->p);
		s->ins_lat = ld16(c->p + 4);
		s->p_stage_cyc = ld16(c->p + 6);
		c->p += 8;
	} else if (st & HWPROF_SAMPLE_WEIGHT) {
		TAKE64(c, s->weight, "WEIGHT");
	}
	if (st & HWPROF_SAMPLE_DATA_SRC) TAKE64(c, s->data_src, "DATA_SRC");
	if (st & HWPROF_SAMPLE_TRANSACTION) TAKE64(c, s->transaction, "TRANSACTION");
	if (st & HWPROF_SAMPLE_REGS_INTR)
		if ((rc = parse_regs(c, "REGS_INTR", &s->intr_regs, a->sample_regs_intr,
				     a->sample_simd_vec_reg_intr, a->sample_simd_pred_reg_intr)))
			return rc;
	if (st & HWPROF_SAMPLE_PHYS_ADDR) TAKE64(c, s->phys_addr, "PHYS_ADDR");
	if (st & HWPROF_SAMPLE_CGROUP) TAKE64(c, s->cgroup, "CGROUP");
	if (st & HWPROF_SAMPLE_DATA_PAGE_SIZE) TAKE64(c, s->data_page_size, "DATA_PAGE_SIZE");
	if (st & HWPROF_SAMPLE_CODE_PAGE_SIZE) TAKE64(c, s->code_page_size, "CODE_PAGE_SIZE");
	if (st & HWPROF_SAMPLE_AUX) {
		TAKE64(c, s->aux_size, "AUX size");
		if ((uint64_t)(c->end - c->p) < s->aux_size)
			return overrun(c, "AUX data", s->aux_size);
		s->aux_data = c->p;
		c->p += s->aux_size;
	}
	return 0;
}

HWPROF_API int hwprof_sample_id_parse(struct hwprof_perfdata *h, const struct hwprof_record *rec,
				      struct hwprof_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = (uint32_t)-1;
	s->pid = s->tid = (uint32_t)-1;
	s->time = (uint64_t)-1;
	s->id = s->stream_id = (uint64_t)-1; /* perf's "not present" */
	if (rec->type == HWPROF_RECORD_SAMPLE || rec->type >= HWPROF_RECORD_USER_TYPE_START || !h->nr_evsels)
		return 0;
	const struct hwprof_evsel *ev = hwprof_perfdata_record_evsel(h, rec);
	if (!ev)
		ev = &h->evsels[0];
	if (!HWPROF_ATTR_HAS(&ev->attr, HWPROF_ATTR_SAMPLE_ID_ALL))
		return 0;
	uint64_t st = ev->attr.sample_type;
	s->evsel = ev;
	s->sample_type = st & (HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ID |
			       HWPROF_SAMPLE_STREAM_ID | HWPROF_SAMPLE_CPU | HWPROF_SAMPLE_IDENTIFIER);
	s->misc = rec->misc;
	const uint8_t *p = rec->data + rec->size;
	const uint8_t *lim = rec->data + 8;
#define BACK(name)                                                                              \
	do {                                                                                    \
		if (p - lim < 8)                                                                \
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, rec->offset),         \
					   "record of type %u (size %u) too short for its sample_id " \
					   "trailer (%s)", rec->type, rec->size, name);               \
		p -= 8;                                                                         \
	} while (0)
	if (st & HWPROF_SAMPLE_IDENTIFIER) { BACK("IDENTIFIER"); s->id = ld64(p); }
	if (st & HWPROF_SAMPLE_CPU) { BACK("CPU"); s->cpu = ld32(p); s->cpu_res = ld32(p + 4); }
	if (st & HWPROF_SAMPLE_STREAM_ID) { BACK("STREAM_ID"); s->stream_id = ld64(p); }
	if (st & HWPROF_SAMPLE_ID) { BACK("ID"); s->id = ld64(p); }
	if (st & HWPROF_SAMPLE_TIME) { BACK("TIME"); s->time = ld64(p); }
	if (st & HWPROF_SAMPLE_TID) { BACK("TID"); s->pid = ld32(p); s->tid = ld32(p + 4); }
#undef BACK
	return 1;
}
