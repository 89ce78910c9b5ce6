/* Arm SPE sample synthesis (see include/hwprof/arm_spe_synth.h).
 *
 * Reproduces the order and content of Debian perf 6.1's SPE samples:
 * - one decoder per AUX queue, fed the queue's buffers in order; a record
 *   may span buffers, a packet may not (a cut packet is a bad byte);
 * - after a bad byte the half-built record is still sampled (perf does);
 * - timed mode: queues sit on a min-heap keyed by the newest timestamp seen
 *   (raw counter units); before each side event at time T, queues run while
 *   their key is below T, each one until it passes the next queue's key;
 * - timeless mode: a queue is decoded in one go at EXIT or flush, starting
 *   with a sample of the empty record (perf 6.1 samples before decoding).
 */
#include <stdlib.h>
#include <string.h>

#include "hwprof/arm_spe_synth.h"
#include "hwprof/perf_event.h"
#include "arm_spe/spe_fast.h"
#include "arm_spe/spe_datasrc.h"
#include "event/tsc_inline.h"
#include "util/bytes.h"

struct spe_buf {
	const uint8_t *data;
	size_t len;
	uint64_t addr;
};

struct spe_queue {
	struct spe_buf *bufs;
	size_t nbufs, capbufs, next_buf;
	struct hwprof_spe_decoder dec;
	bool dec_live;            /* dec holds a buffer with bytes left */
	bool set_up, on_heap;
	struct hwprof_spe_record rec; /* perf's decoder->record */
	/* pid and tid not side by side: each is stored on its own per record,
	 * and gcc copied the pair into the sample with one 8-byte load, which
	 * waited for the two stores (no store forwarding) */
	int32_t pid, cpu, tid;
	int32_t queue_cpu, queue_tid; /* from the AUXTRACE records */
	uint64_t timestamp;       /* newest record timestamp (counter units) */
	/* thread_pid's last answer for this queue, while the version stays */
	int32_t pid_tid, pid_val;
	uint64_t pid_ver;         /* version + 1; 0 = none */
	uint64_t period_count;
};

struct spe_heap_item {
	uint32_t q;
	uint64_t key;
};

struct hwprof_spe_synth {
	struct hwprof_spe_synth_config cfg;
	unsigned groups;
	uint64_t ids[HWPROF_SPE_G_NR];
	uint64_t period;          /* instructions period */
	struct spe_queue *q;
	uint32_t nq;
	struct spe_heap_item *heap;
	uint32_t heap_n, heap_cap;
	int32_t *cur_tid, *cur_pid; /* machine's current thread per cpu */
	uint32_t ncur;
	bool use_ctx;
	bool new_data;
	bool neoverse;            /* data source table by the MIDR, decided once */
	bool need_ds;             /* data_src derived (cfg.no_data_src, memory group) */
};

static const char *const spe_group_names[HWPROF_SPE_G_NR] = {
	"l1d-miss", "l1d-access", "llc-miss", "llc-access", "tlb-miss",
	"tlb-access", "branch-miss", "remote-access", "memory", "instructions",
};

HWPROF_API const char *hwprof_spe_group_name(unsigned group)
{
	return group < HWPROF_SPE_G_NR ? spe_group_names[group] : NULL;
}

HWPROF_API uint64_t hwprof_spe_synth_sample_type(uint64_t spe_sample_type, bool timeless)
{
	const uint64_t keep = HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_TIME | HWPROF_SAMPLE_ADDR |
			      HWPROF_SAMPLE_ID | HWPROF_SAMPLE_STREAM_ID | HWPROF_SAMPLE_CPU |
			      HWPROF_SAMPLE_PERIOD | HWPROF_SAMPLE_IDENTIFIER | HWPROF_SAMPLE_PHYS_ADDR;
	uint64_t t = (spe_sample_type & keep) | HWPROF_SAMPLE_IP | HWPROF_SAMPLE_TID | HWPROF_SAMPLE_PERIOD |
		     HWPROF_SAMPLE_DATA_SRC | HWPROF_SAMPLE_WEIGHT | HWPROF_SAMPLE_ADDR;

	return timeless ? t & ~HWPROF_SAMPLE_TIME : t | HWPROF_SAMPLE_TIME;
}

/* ---- setup ---------------------------------------------------------------- */

HWPROF_API int hwprof_spe_synth_new(struct hwprof_spe_synth **out, const struct hwprof_spe_synth_config *cfg)
{
	struct hwprof_spe_synth *s;
	const struct hwprof_itrace_opts *o;
	uint64_t id;

	if (!out || !cfg || !cfg->emit)
		return -HWPROF_E_INVAL;
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -HWPROF_E_NOMEM;
	s->cfg = *cfg;
	if (!s->cfg.itrace.set)
		hwprof_itrace_opts_default(&s->cfg.itrace, false);
	if (!s->cfg.kernel_start)
		s->cfg.kernel_start = 1ULL << 63;
	o = &s->cfg.itrace;

	/* Event ids follow the SPE event's first id, in perf's group order. */
	id = cfg->spe_id + 1000000000ULL;
	if (!id)
		id = 1;
	bool on[HWPROF_SPE_G_NR] = {
		o->flc, o->flc, o->llc, o->llc, o->tlb, o->tlb, o->branches, o->remote_access, o->mem,
		o->instructions && o->period_type == HWPROF_ITRACE_PERIOD_INSTRUCTIONS,
	};
	for (unsigned g = 0; g < HWPROF_SPE_G_NR; g++) {
		if (!on[g])
			continue;
		s->groups |= 1u << g;
		s->ids[g] = id++;
	}
	s->period = o->period ? o->period : 1;
	s->neoverse = hwprof_spe_midr_is_neoverse(s->cfg.midr, s->cfg.ds_flags);
	s->need_ds = !s->cfg.no_data_src || (s->groups & 1u << HWPROF_SPE_G_MEMORY);
	*out = s;
	return 0;
}

HWPROF_API void hwprof_spe_synth_free(struct hwprof_spe_synth *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nq; i++)
		free(s->q[i].bufs);
	free(s->q);
	free(s->heap);
	free(s->cur_tid);
	free(s->cur_pid);
	free(s);
}

HWPROF_API unsigned hwprof_spe_synth_groups(const struct hwprof_spe_synth *s)
{
	return s ? s->groups : 0;
}

HWPROF_API uint64_t hwprof_spe_synth_group_id(const struct hwprof_spe_synth *s, unsigned group)
{
	return s && group < HWPROF_SPE_G_NR ? s->ids[group] : 0;
}

HWPROF_API bool hwprof_spe_synth_used_context(const struct hwprof_spe_synth *s)
{
	return s && s->use_ctx;
}

#define SPE_MAX_QUEUES 65536u
#define SPE_MAX_CPUS 65536u

HWPROF_API int hwprof_spe_synth_add_buffer(struct hwprof_spe_synth *s, uint32_t idx, int32_t cpu, int32_t tid,
					   const void *data, size_t len, uint64_t addr)
{
	struct spe_queue *q;

	if (!s || (!data && len))
		return -HWPROF_E_INVAL;
	if (idx >= SPE_MAX_QUEUES)
		return -HWPROF_E_CORRUPT;
	if (idx >= s->nq) {
		struct spe_queue *nq = realloc(s->q, (idx + 1) * sizeof(*nq));

		if (!nq)
			return -HWPROF_E_NOMEM;
		memset(nq + s->nq, 0, (idx + 1 - s->nq) * sizeof(*nq));
		for (uint32_t i = s->nq; i <= idx; i++) {
			nq[i].pid = nq[i].tid = nq[i].cpu = -1;
			nq[i].queue_cpu = nq[i].queue_tid = -1;
		}
		s->q = nq;
		s->nq = idx + 1;
	}
	q = &s->q[idx];
	if (q->nbufs == q->capbufs) {
		size_t cap = q->capbufs ? q->capbufs * 2 : 8;
		struct spe_buf *nb = realloc(q->bufs, cap * sizeof(*nb));

		if (!nb)
			return -HWPROF_E_NOMEM;
		q->bufs = nb;
		q->capbufs = cap;
	}
	/* perf takes the queue's cpu and tid from its first buffer */
	if (!q->nbufs) {
		q->queue_cpu = cpu;
		q->queue_tid = tid;
	}
	q->bufs[q->nbufs++] = (struct spe_buf){ (const uint8_t *)data, len, addr };
	s->new_data = true;
	return 0;
}

/* ---- per-cpu current thread (perf's machine current tid) ------------------- */

static int spe_set_current(struct hwprof_spe_synth *s, int32_t cpu, int32_t pid, int32_t tid)
{
	if (cpu >= 0 && (uint32_t)cpu < s->ncur) { /* the usual case: a known cpu */
		s->cur_tid[cpu] = tid;
		s->cur_pid[cpu] = pid;
		return 0;
	}
	if (cpu < 0)
		return 0;
	if ((uint32_t)cpu >= SPE_MAX_CPUS)
		return -HWPROF_E_CORRUPT;
	if ((uint32_t)cpu >= s->ncur) {
		uint32_t n = (uint32_t)cpu + 1;
		int32_t *t = realloc(s->cur_tid, n * sizeof(*t));

		if (!t)
			return -HWPROF_E_NOMEM;
		s->cur_tid = t;
		t = realloc(s->cur_pid, n * sizeof(*t));
		if (!t)
			return -HWPROF_E_NOMEM;
		s->cur_pid = t;
		for (uint32_t i = s->ncur; i < n; i++)
			s->cur_tid[i] = s->cur_pid[i] = -1;
		s->ncur = n;
	}
	s->cur_tid[cpu] = tid;
	s->cur_pid[cpu] = pid;
	return 0;
}

static int32_t spe_thread_pid(struct hwprof_spe_synth *s, int32_t cpu, int32_t tid)
{
	int32_t pid = -1;

	if (s->cfg.thread_pid)
		pid = s->cfg.thread_pid(s->cfg.ctx, tid);
	/* a switch event names the pid even for a thread never seen before */
	if (pid == -1 && cpu >= 0 && (uint32_t)cpu < s->ncur && s->cur_tid[cpu] == tid)
		pid = s->cur_pid[cpu];
	return pid;
}

/* perf's arm_spe_set_pid_tid_cpu */
static void spe_update_thread(struct hwprof_spe_synth *s, struct spe_queue *q)
{
	int32_t tid = -1;

	if (q->cpu >= 0 && (uint32_t)q->cpu < s->ncur)
		tid = s->cur_tid[q->cpu];
	q->tid = tid != -1 ? tid : q->queue_tid;
	if (q->tid != -1)
		q->pid = spe_thread_pid(s, q->cpu, q->tid);
}

/* ---- record assembly (perf 6.1's decoder semantics) ------------------------ */

static const struct hwprof_spe_record spe_rec_empty = { .context_id = (uint64_t)-1 };

/* Once per record: 8-byte moves (a memset was a slow rep stos). */
static void spe_rec_reset(struct hwprof_spe_record *r)
{
	char *d = (char *)r;
	const char *src = (const char *)&spe_rec_empty;
	size_t i = 0;

	for (; i + 8 <= sizeof(*r); i += 8)
		memcpy(d + i, src + i, 8);
	for (; i < sizeof(*r); i++)
		d[i] = src[i];
}

static void spe_rec_packet(struct hwprof_spe_record *r, const struct hwprof_spe_pkt *p)
{
	switch (p->type) {
	case HWPROF_SPE_ADDRESS: {
		uint64_t v = hwprof_spe_addr_value(p->index, p->payload);

		switch (p->index) {
		case HWPROF_SPE_ADDR_INS:
			r->present |= HWPROF_SPE_HAS_PC;
			r->pc = v;
			r->pc_el = (uint8_t)HWPROF_SPE_ADDR_EL(p->payload);
			r->pc_ns = (uint8_t)HWPROF_SPE_ADDR_NS(p->payload);
			break;
		case HWPROF_SPE_ADDR_BRANCH:
			r->present |= HWPROF_SPE_HAS_TARGET;
			r->target = v;
			break;
		case HWPROF_SPE_ADDR_DATA_VIRT:
			r->present |= HWPROF_SPE_HAS_VA;
			r->va = v;
			r->va_tag = (uint8_t)HWPROF_SPE_ADDR_TAG(p->payload);
			break;
		case HWPROF_SPE_ADDR_DATA_PHYS:
			r->present |= HWPROF_SPE_HAS_PA;
			r->pa = v;
			break;
		default:
			break;
		}
		break;
	}
	case HWPROF_SPE_COUNTER:
		if (p->index == HWPROF_SPE_CNT_TOTAL) {
			r->present |= HWPROF_SPE_HAS_LAT_TOTAL;
			r->lat_total = (uint16_t)p->payload;
		} else if (p->index == HWPROF_SPE_CNT_ISSUE) {
			r->present |= HWPROF_SPE_HAS_LAT_ISSUE;
			r->lat_issue = (uint16_t)p->payload;
		} else if (p->index == HWPROF_SPE_CNT_TRANSLATION) {
			r->present |= HWPROF_SPE_HAS_LAT_XLAT;
			r->lat_xlat = (uint16_t)p->payload;
		}
		break;
	case HWPROF_SPE_CONTEXT:
		r->present |= HWPROF_SPE_HAS_CONTEXT;
		r->context_id = p->payload;
		r->context_el = p->index;
		break;
	case HWPROF_SPE_OP_TYPE:
		r->present |= HWPROF_SPE_HAS_OP;
		r->op_class = p->index;
		r->op = (uint8_t)p->payload;
		/* perf 6.1 ORs op bits over the record; its "SVE other" bit is
		 * the same bit as "load" */
		if (p->index == HWPROF_SPE_OP_CLASS_LDST)
			r->ldst_seen |= (p->payload & 1) ? 2 : 1;
		else if (p->index == HWPROF_SPE_OP_CLASS_OTHER && (p->payload & 0x89) == 0x08)
			r->ldst_seen |= 1;
		break;
	case HWPROF_SPE_EVENTS:
		/* perf ORs each EVENTS packet into the record's type */
		r->present |= HWPROF_SPE_HAS_EVENTS;
		r->events |= p->payload;
		break;
	case HWPROF_SPE_DATA_SOURCE:
		r->present |= HWPROF_SPE_HAS_DATA_SOURCE;
		r->data_source = (uint16_t)p->payload;
		break;
	default:
		break;
	}
}

/* Next buffer of the queue into the decoder; false when none is left. */
static bool spe_next_buffer(struct spe_queue *q)
{
	while (q->next_buf < q->nbufs) {
		const struct spe_buf *b = &q->bufs[q->next_buf++];

		if (b->len) {
			hwprof_spe_decoder_init(&q->dec, b->data, b->len, b->addr);
			q->dec_live = true;
			return true;
		}
	}
	return false;
}

/* perf's arm_spe_decode: 1 record complete, 0 no more data (the partial
 * record is dropped), -1 bad byte (the partial record stays in q->rec). */
/* A payload of n = 1, 2, 4 or 8 bytes at p (8 bytes readable): one 8-byte
 * load and a mask (EVENTS come in sizes that vary from record to record; a
 * switch on the size mispredicted). */
static inline uint64_t spe_le_var(const uint8_t *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return ld64(p) & (~0ull >> (64 - 8 * n));
#else
	return spe_le(p, n);
#endif
}

/* What the fast paths do per packet kind (the general path's
 * spe_rec_packet for the common headers), on the record in place with the
 * present bits and events in registers. p: the header; 8 bytes after it
 * are readable. */
static inline void spe_put_pc(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	uint64_t v = spe_le(p + 1, 8);

	*present |= HWPROF_SPE_HAS_PC;
	r->pc = spe_addr_inline(HWPROF_SPE_ADDR_INS, v);
	r->pc_el = (uint8_t)HWPROF_SPE_ADDR_EL(v);
	r->pc_ns = (uint8_t)HWPROF_SPE_ADDR_NS(v);
}

static inline void spe_put_target(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	*present |= HWPROF_SPE_HAS_TARGET;
	r->target = spe_addr_inline(HWPROF_SPE_ADDR_BRANCH, spe_le(p + 1, 8));
}

static inline void spe_put_va(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	uint64_t v = spe_le(p + 1, 8);

	*present |= HWPROF_SPE_HAS_VA;
	r->va = spe_addr_inline(HWPROF_SPE_ADDR_DATA_VIRT, v);
	r->va_tag = (uint8_t)HWPROF_SPE_ADDR_TAG(v);
}

static inline void spe_put_pa(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	*present |= HWPROF_SPE_HAS_PA;
	r->pa = spe_addr_inline(HWPROF_SPE_ADDR_DATA_PHYS, spe_le(p + 1, 8));
}

/* EVENTS (0x42/52/62/72), ORed over the record; returns the length */
static inline unsigned spe_put_events(uint32_t *present, uint64_t *events, const uint8_t *p)
{
	unsigned n = 1u << ((p[0] >> 4) & 3);

	*present |= HWPROF_SPE_HAS_EVENTS;
	*events |= spe_le_var(p + 1, n);
	return 1 + n;
}

/* DATA_SOURCE (0x43/53/63/73); returns the length */
static inline unsigned spe_put_ds(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	unsigned n = 1u << ((p[0] >> 4) & 3);

	*present |= HWPROF_SPE_HAS_DATA_SOURCE;
	r->data_source = (uint16_t)spe_le_var(p + 1, n);
	return 1 + n;
}

/* CONTEXT (0x64/0x65) */
static inline void spe_put_context(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	*present |= HWPROF_SPE_HAS_CONTEXT;
	r->context_id = spe_le(p + 1, 4);
	r->context_el = p[0] & 3;
}

/* perf 6.1's op bits per OP_TYPE class and payload (spe_rec_packet's
 * rule, looked up: the class varies at random, and computing it took 20
 * instructions and spilled registers in the hot loop):
 *   OTHER   1 for SVE data processing (bits 7, 3, 0 = 0, 1, 0), else 0
 *   LDST    1 for a load, 2 for a store (bit 0)
 *   BRANCH  0 */
#define SPE_OT4 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0
#define SPE_OT16 SPE_OT4, SPE_OT4, SPE_OT4, SPE_OT4
#define SPE_Z16 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define SPE_Z64 SPE_Z16, SPE_Z16, SPE_Z16, SPE_Z16
#define SPE_LS16 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2
#define SPE_LS64 SPE_LS16, SPE_LS16, SPE_LS16, SPE_LS16
static const uint8_t spe_op_bits[3][256] = {
	[HWPROF_SPE_OP_CLASS_OTHER] = { SPE_OT16, SPE_OT16, SPE_Z64, SPE_Z64 },
	[HWPROF_SPE_OP_CLASS_LDST] = { SPE_LS64, SPE_LS64, SPE_LS64, SPE_LS64 },
	[HWPROF_SPE_OP_CLASS_BRANCH] = { 0 },
};
#undef SPE_OT4
#undef SPE_OT16
#undef SPE_Z16
#undef SPE_Z64
#undef SPE_LS16
#undef SPE_LS64

/* OP_TYPE of the classes perf knows (0x48-0x4a) */
static inline void spe_put_op(struct hwprof_spe_record *r, uint32_t *present, const uint8_t *p)
{
	unsigned cls = p[0] & 3, op = p[1];

	*present |= HWPROF_SPE_HAS_OP;
	r->op_class = (uint8_t)cls;
	r->op = (uint8_t)op;
	r->ldst_seen |= spe_op_bits[cls][op];
}

/* Bytes the canonical-order pass may read from where it starts: its
 * longest run (PC, issue latency, 8-byte EVENTS, OP_TYPE, VA, translation
 * latency, PA, total latency, 8-byte DATA_SOURCE, CONTEXT, target,
 * TIMESTAMP) is 84 bytes, and each packet reads 9 from its header. */
#define SPE_CANON_ROOM 96

/* The common packets straight from the buffer, the record updated in place
 * (what spe_rec_packet does for them): 1 when a record closed, 0 at a
 * packet for the general path (extended headers, unknown indexes, bad
 * packets) or where fewer than 9 bytes are left (the general path sees
 * packets cut by the buffer's end). PADs are skipped one byte at a time,
 * which ends where perf's folded PAD does. The record's present bits and
 * events stay in registers meanwhile.
 *
 * First a pass in the order hardware writes a record's packets (that of
 * hwprof_spe_put_record): one test per kind, each taken or not by whether
 * the record has that packet, so the branches follow the record's shape;
 * a jump per header byte through a table mispredicted several times a
 * record (which packets a record has varies at random). Each test handles
 * the packet that is really there, so a record in another order is still
 * decoded packet by packet, the rest of it by the switch below. */
static int spe_decode_fast(struct spe_queue *q)
{
	struct hwprof_spe_decoder *d = &q->dec;
	struct hwprof_spe_record *r = &q->rec;
	const uint8_t *b = d->buf;
	size_t pos = d->pos, len = d->len;
	uint32_t present = r->present; /* in registers while the loop runs */
	uint64_t events = r->events;

	/* queues interleave by time: fetch this one's next bytes early */
	if (len - pos > 512)
		__builtin_prefetch(b + pos + 512);
	/* every packet taken here is at most 9 bytes: one check each */
	while (len - pos >= 9) {
		const uint8_t *p = b + pos;

		if (len - pos >= SPE_CANON_ROOM + 16) {
			/* PADs between records (at most 16 here, so the
			 * pass keeps its room) */
			for (unsigned k = 0; p[0] == 0x00 && k < 16; k++)
				p++;
			if (p[0] == 0xb0) {
				spe_put_pc(r, &present, p);
				p += 9;
			}
			if (p[0] == 0x99) { /* issue latency */
				present |= HWPROF_SPE_HAS_LAT_ISSUE;
				r->lat_issue = (uint16_t)spe_le(p + 1, 2);
				p += 3;
			}
			if ((p[0] & 0xcf) == 0x42)
				p += spe_put_events(&present, &events, p);
			if ((uint8_t)(p[0] - 0x48) < 3) {
				spe_put_op(r, &present, p);
				p += 2;
			}
			if (p[0] == 0xb2) {
				spe_put_va(r, &present, p);
				p += 9;
			}
			if (p[0] == 0x9a) { /* translation latency */
				present |= HWPROF_SPE_HAS_LAT_XLAT;
				r->lat_xlat = (uint16_t)spe_le(p + 1, 2);
				p += 3;
			}
			if (p[0] == 0xb3) {
				spe_put_pa(r, &present, p);
				p += 9;
			}
			if (p[0] == 0x98) { /* total latency */
				present |= HWPROF_SPE_HAS_LAT_TOTAL;
				r->lat_total = (uint16_t)spe_le(p + 1, 2);
				p += 3;
			}
			if ((p[0] & 0xcf) == 0x43)
				p += spe_put_ds(r, &present, p);
			if ((p[0] & 0xfe) == 0x64) {
				spe_put_context(r, &present, p);
				p += 5;
			}
			if (p[0] == 0xb1) {
				spe_put_target(r, &present, p);
				p += 9;
			}
			pos = (size_t)(p - b);
		}
		switch (p[0]) {
		case 0x00: /* PAD */
			pos++;
			continue;
		case 0x01: /* END */
			r->end = HWPROF_SPE_REC_END;
			pos += 1;
			goto closed;
		case 0x71: /* TIMESTAMP */
			present |= HWPROF_SPE_HAS_TIMESTAMP;
			r->timestamp = spe_le(p + 1, 8);
			r->end = HWPROF_SPE_REC_TIMESTAMP;
			pos += 9;
			goto closed;
		case 0xb0: /* PC */
			spe_put_pc(r, &present, p);
			pos += 9;
			continue;
		case 0xb1: /* branch target */
			spe_put_target(r, &present, p);
			pos += 9;
			continue;
		case 0xb2: /* data VA */
			spe_put_va(r, &present, p);
			pos += 9;
			continue;
		case 0xb3: /* data PA */
			spe_put_pa(r, &present, p);
			pos += 9;
			continue;
		case 0x98: /* total latency */
			present |= HWPROF_SPE_HAS_LAT_TOTAL;
			r->lat_total = (uint16_t)spe_le(p + 1, 2);
			pos += 3;
			continue;
		case 0x99: /* issue latency */
			present |= HWPROF_SPE_HAS_LAT_ISSUE;
			r->lat_issue = (uint16_t)spe_le(p + 1, 2);
			pos += 3;
			continue;
		case 0x9a: /* translation latency */
			present |= HWPROF_SPE_HAS_LAT_XLAT;
			r->lat_xlat = (uint16_t)spe_le(p + 1, 2);
			pos += 3;
			continue;
		case 0x42: case 0x52: case 0x62: case 0x72: /* EVENTS, ORed over the record */
			pos += spe_put_events(&present, &events, p);
			continue;
		case 0x43: case 0x53: case 0x63: case 0x73: /* DATA_SOURCE */
			pos += spe_put_ds(r, &present, p);
			continue;
		case 0x64: case 0x65: /* CONTEXT */
			spe_put_context(r, &present, p);
			pos += 5;
			continue;
		case 0x48: case 0x49: case 0x4a: /* OP_TYPE classes perf knows */
			spe_put_op(r, &present, p);
			pos += 2;
			continue;
		default:
			goto slow;
		}
	}
slow:
	r->present = present;
	r->events = events;
	d->pos = pos;
	return 0;
closed:
	r->present = present;
	r->events = events;
	d->pos = pos;
	return 1;
}

static int spe_decode(struct hwprof_spe_synth *s, struct spe_queue *q)
{
	struct hwprof_spe_pkt pkt;

	spe_rec_reset(&q->rec);
	for (;;) {
		int r;

		if (!q->dec_live && !spe_next_buffer(q))
			return 0;
		if (spe_decode_fast(q))
			return 1;
		r = hwprof_spe_decoder_next(&q->dec, &pkt);
		if (r == 0) {
			q->dec_live = false;
			continue;
		}
		if (r < 0)
			return -1;
		switch (pkt.type) {
		case HWPROF_SPE_PAD:
			break;
		case HWPROF_SPE_TIMESTAMP:
			q->rec.present |= HWPROF_SPE_HAS_TIMESTAMP;
			q->rec.timestamp = pkt.payload;
			q->rec.end = HWPROF_SPE_REC_TIMESTAMP;
			return 1;
		case HWPROF_SPE_END:
			q->rec.end = HWPROF_SPE_REC_END;
			return 1;
		case HWPROF_SPE_OP_TYPE:
			/* perf 6.1 fails the record on an unknown class (after
			 * taking the packet) */
			if (pkt.index > HWPROF_SPE_OP_CLASS_BRANCH) {
				if (s->cfg.notice)
					s->cfg.notice(s->cfg.ctx, HWPROF_SPE_NOTE_OP_CLASS, pkt.index);
				return -1;
			}
			spe_rec_packet(&q->rec, &pkt);
			break;
		case HWPROF_SPE_ADDRESS:
			if (pkt.index > HWPROF_SPE_ADDR_DATA_PHYS && s->cfg.notice)
				s->cfg.notice(s->cfg.ctx, HWPROF_SPE_NOTE_ADDR_INDEX, pkt.index);
			spe_rec_packet(&q->rec, &pkt);
			break;
		default:
			spe_rec_packet(&q->rec, &pkt);
			break;
		}
	}
}

/* ---- samples -------------------------------------------------------------- */

static int spe_emit(struct hwprof_spe_synth *s, struct spe_queue *q, struct hwprof_spe_sample *smp, unsigned g)
{
	smp->group = g;
	smp->name = spe_group_names[g];
	smp->id = s->ids[g];
	return s->cfg.emit(s->cfg.ctx, smp);
}

/* The groups other than instructions a record belongs to (ds: its
 * data_src, 0 when it is neither a load nor a store). */
static unsigned spe_event_groups(uint64_t ev, uint64_t ds)
{
	unsigned want = 0;

	if (ev & 1u << HWPROF_SPE_EV_L1D_REFILL)
		want |= 1u << HWPROF_SPE_G_L1D_MISS;
	if (ev & 1u << HWPROF_SPE_EV_L1D_ACCESS)
		want |= 1u << HWPROF_SPE_G_L1D_ACCESS;
	if (ev & 1u << HWPROF_SPE_EV_LLC_MISS)
		want |= 1u << HWPROF_SPE_G_LLC_MISS;
	if (ev & 1u << HWPROF_SPE_EV_LLC_ACCESS)
		want |= 1u << HWPROF_SPE_G_LLC_ACCESS;
	if (ev & 1u << HWPROF_SPE_EV_TLB_WALK)
		want |= 1u << HWPROF_SPE_G_TLB_MISS;
	if (ev & 1u << HWPROF_SPE_EV_TLB_ACCESS)
		want |= 1u << HWPROF_SPE_G_TLB_ACCESS;
	if (ev & 1u << HWPROF_SPE_EV_MISPRED)
		want |= 1u << HWPROF_SPE_G_BRANCH_MISS;
	if (ev & 1u << HWPROF_SPE_EV_REMOTE_ACCESS)
		want |= 1u << HWPROF_SPE_G_REMOTE_ACCESS;
	if (ds) /* not a load or store: no memory sample */
		want |= 1u << HWPROF_SPE_G_MEMORY;
	return want;
}

/* perf's arm_spe_sample: the groups a record belongs to, in perf's order. */
static int spe_sample(struct hwprof_spe_synth *s, struct spe_queue *q)
{
	const struct hwprof_spe_record *r = &q->rec;
	struct hwprof_spe_sample smp;
	uint64_t ev = r->events, ds = 0;
	unsigned want = 0;
	int ret;

	if (s->need_ds)
		ds = spe_data_src_kind(r, s->neoverse);
	/* the event groups only when one is on (--itrace=i wants none) */
	if (s->groups & ~(1u << HWPROF_SPE_G_INSTRUCTIONS))
		want = spe_event_groups(ev, ds);
	want |= 1u << HWPROF_SPE_G_INSTRUCTIONS;
	want &= s->groups;
	if (!want)
		return 0;

	/* every field set here or per group below (a memset was a slow
	 * rep stos in the hottest loop) */
	smp.group = 0;
	smp.name = NULL;
	smp.id = 0;
	smp.addr = smp.phys_addr = smp.data_src = 0;
	smp.time = s->cfg.timeless ? 0 : tsc_to_perf_time_inline(&s->cfg.tc, r->timestamp);
	smp.ip = r->pc;
	smp.cpumode = r->pc >= s->cfg.kernel_start ? HWPROF_MISC_KERNEL : HWPROF_MISC_USER;
	smp.pid = q->pid;
	smp.tid = q->tid;
	smp.cpu = q->cpu;
	smp.weight = r->lat_total;
	smp.period = 1;
	smp.rec = r;
	/* the wanted groups before instructions, lowest first */
	for (unsigned m = want & ((1u << HWPROF_SPE_G_INSTRUCTIONS) - 1); m; m &= m - 1) {
		unsigned g = (unsigned)__builtin_ctz(m);

		if (g == HWPROF_SPE_G_BRANCH_MISS) {
			smp.addr = r->target;
			smp.phys_addr = 0;
			smp.data_src = 0;
		} else {
			smp.addr = r->va;
			smp.phys_addr = r->pa;
			smp.data_src = ds;
		}
		ret = spe_emit(s, q, &smp, g);
		if (ret)
			return ret;
	}
	if (want & 1u << HWPROF_SPE_G_INSTRUCTIONS) {
		/* every period-th record, counted per queue */
		if (++q->period_count < s->period)
			return 0;
		q->period_count = 0;
		smp.addr = r->va;
		smp.phys_addr = r->pa;
		smp.data_src = ds;
		smp.period = s->period;
		return spe_emit(s, q, &smp, HWPROF_SPE_G_INSTRUCTIONS);
	}
	return 0;
}

/* ---- the heap of queues (perf's auxtrace heap: ties keep heap order) ------- */

static int spe_heap_add(struct hwprof_spe_synth *s, uint32_t qn, uint64_t key)
{
	uint32_t pos;

	if (s->heap_n >= s->heap_cap)
		return -HWPROF_E_CORRUPT; /* cannot happen: one entry per queue */
	pos = s->heap_n++;
	while (pos) {
		uint32_t parent = (pos - 1) / 2;

		if (s->heap[parent].key <= key)
			break;
		s->heap[pos] = s->heap[parent];
		pos = parent;
	}
	s->heap[pos] = (struct spe_heap_item){ qn, key };
	return 0;
}

static void spe_heap_pop(struct hwprof_spe_synth *s)
{
	uint32_t pos = 0, n = s->heap_n;
	struct spe_heap_item last;

	if (!n)
		return;
	s->heap_n = n - 1;
	/* move the hole down along the smaller child (right on ties); a hole
	 * whose only child is the last item takes it and is done; otherwise the
	 * last item fills the hole and sifts up */
	for (;;) {
		uint32_t l = 2 * pos + 1, r = l + 1;

		if (l >= n)
			break;
		if (r >= n) {
			s->heap[pos] = s->heap[l];
			return;
		}
		/* the smaller child, right on ties; computed, not branched on
		 * (the keys of interleaved queues compare at random) */
		uint32_t c = l + (s->heap[r].key <= s->heap[l].key);

		s->heap[pos] = s->heap[c];
		pos = c;
	}
	last = s->heap[n - 1];
	while (pos) {
		uint32_t parent = (pos - 1) / 2;

		if (s->heap[parent].key <= last.key)
			break;
		s->heap[pos] = s->heap[parent];
		pos = parent;
	}
	s->heap[pos] = last;
}

/* ---- driving: perf's setup / run / process-queues loop --------------------- */

static int spe_setup_queues(struct hwprof_spe_synth *s)
{
	if (!s->new_data)
		return 0;
	s->new_data = false;
	if (s->heap_cap < s->nq) { /* one slot per queue */
		struct spe_heap_item *h = realloc(s->heap, s->nq * sizeof(*h));

		if (!h)
			return -HWPROF_E_NOMEM;
		s->heap = h;
		s->heap_cap = s->nq;
	}
	for (uint32_t i = 0; i < s->nq; i++) {
		struct spe_queue *q = &s->q[i];
		int r;

		if (!q->nbufs || q->set_up)
			continue;
		q->set_up = true;
		if (q->queue_cpu != -1)
			q->cpu = q->queue_cpu;
		if (s->cfg.timeless)
			continue;
		/* the first complete record sets the queue's place in time;
		 * records broken by a bad byte before it are not sampled */
		while ((r = spe_decode(s, q)) < 0)
			;
		if (!r)
			continue;
		q->timestamp = q->rec.timestamp;
		r = spe_heap_add(s, i, q->timestamp);
		if (r)
			return r;
		q->on_heap = true;
	}
	return 0;
}

/* Samples the current record and decodes on. Returns 1 when the queue is
 * out of data, 0 when it stopped at *ts (set to the queue's time), or the
 * emit callback's value / a negative error in *stop. */
static inline __attribute__((always_inline)) int spe_run_decoder(struct hwprof_spe_synth *s, struct spe_queue *q, uint64_t *ts, int *stop)
{
	for (;;) {
		int r;

		if (!s->cfg.timeless && q->rec.context_id != (uint64_t)-1) {
			int32_t tid = (int32_t)q->rec.context_id;

			/* the usual case inline: a known cpu, a real tid; what
			 * spe_set_current and spe_update_thread then do */
			if (q->cpu >= 0 && (uint32_t)q->cpu < s->ncur && tid != -1) {
				s->cur_tid[q->cpu] = tid;
				s->cur_pid[q->cpu] = -1;
				q->tid = tid;
				if (s->cfg.thread_pid_version && q->pid_tid == tid &&
				    q->pid_ver == *s->cfg.thread_pid_version + 1) {
					q->pid = q->pid_val;
				} else {
					q->pid = s->cfg.thread_pid ? s->cfg.thread_pid(s->cfg.ctx, tid) : -1;
					if (s->cfg.thread_pid_version) {
						q->pid_tid = tid;
						q->pid_val = q->pid;
						q->pid_ver = *s->cfg.thread_pid_version + 1;
					}
				}
				s->use_ctx = true;
				goto sample;
			}
			r = spe_set_current(s, q->cpu, -1, tid);
			if (r) {
				*stop = r;
				return 0;
			}
			spe_update_thread(s, q);
			s->use_ctx = true;
		}
sample:
		r = spe_sample(s, q);
		if (r) {
			*stop = r;
			return 0;
		}
		r = spe_decode(s, q);
		if (!r)
			return 1;
		if (r < 0)
			continue; /* the broken record is sampled too */
		if (q->rec.timestamp > q->timestamp)
			q->timestamp = q->rec.timestamp;
		if (!s->cfg.timeless && q->timestamp >= *ts) {
			*ts = q->timestamp;
			return 0;
		}
	}
}

static int spe_process_queues(struct hwprof_spe_synth *s, uint64_t limit)
{
	while (s->heap_n) {
		uint32_t qn;
		struct spe_queue *q;
		uint64_t ts;
		int stop = 0, r;

		if (s->heap[0].key >= limit)
			return 0;
		qn = s->heap[0].q;
		q = &s->q[qn];
		spe_heap_pop(s);
		if (s->heap_n) {
			ts = s->heap[0].key + 1;
			if (ts > limit)
				ts = limit;
		} else {
			ts = limit;
		}
		/* switch events set the CPU's thread until CONTEXT packets take over */
		if (!s->use_ctx)
			spe_update_thread(s, q);
		r = spe_run_decoder(s, q, &ts, &stop);
		if (stop) {
			spe_heap_add(s, qn, ts);
			return stop;
		}
		if (!r) {
			r = spe_heap_add(s, qn, ts);
			if (r)
				return r;
		} else {
			q->on_heap = false;
		}
	}
	return 0;
}

static int spe_process_timeless(struct hwprof_spe_synth *s, int32_t tid)
{
	for (uint32_t i = 0; i < s->nq; i++) {
		struct spe_queue *q = &s->q[i];
		uint64_t ts = 0;
		int stop = 0;

		if (!q->set_up || (tid != -1 && q->tid != tid))
			continue;
		spe_update_thread(s, q);
		spe_run_decoder(s, q, &ts, &stop);
		if (stop)
			return stop;
	}
	return 0;
}

HWPROF_API int hwprof_spe_synth_event(struct hwprof_spe_synth *s, const struct hwprof_spe_side_event *ev)
{
	uint64_t tsc = 0;
	int r;

	if (!s || !ev)
		return -HWPROF_E_INVAL;
	if (ev->time && ev->time != (uint64_t)-1)
		tsc = hwprof_perf_time_to_tsc(&s->cfg.tc, ev->time);
	if (tsc || s->cfg.timeless) {
		r = spe_setup_queues(s);
		if (r)
			return r;
	}
	if (s->cfg.timeless) {
		if (ev->type == HWPROF_RECORD_EXIT)
			return spe_process_timeless(s, ev->tid);
		return 0;
	}
	if (!tsc)
		return 0;
	r = spe_process_queues(s, tsc);
	if (r)
		return r;
	if (!s->use_ctx && (ev->type == HWPROF_RECORD_SWITCH || ev->type == HWPROF_RECORD_SWITCH_CPU_WIDE) &&
	    (ev->misc & HWPROF_MISC_SWITCH_OUT))
		return spe_set_current(s, ev->cpu, ev->pid, ev->tid);
	return 0;
}

HWPROF_API int hwprof_spe_synth_flush(struct hwprof_spe_synth *s)
{
	int r;

	if (!s)
		return -HWPROF_E_INVAL;
	r = spe_setup_queues(s);
	if (r)
		return r;
	if (s->cfg.timeless)
		return spe_process_timeless(s, -1);
	return spe_process_queues(s, UINT64_MAX);
}
