/* Arm SPE record assembly: packets accumulate into one record (one sampled
 * operation) until an END or TIMESTAMP packet closes it. Mirrors perf 6.1's
 * decoder so the later sample synthesis sees the same records: PADs are
 * skipped, the last packet of a kind wins, a bad byte discards the record. */
#include <string.h>

#include "hwprof/arm_spe.h"

HWPROF_API void hwprof_spe_record_init(struct hwprof_spe_record *rec)
{
	if (!rec)
		return;
	memset(rec, 0, sizeof(*rec));
	rec->context_id = (uint64_t)-1;
}

static void spe_rec_address(struct hwprof_spe_record *rec, const struct hwprof_spe_pkt *pkt)
{
	uint64_t p = pkt->payload;
	uint64_t v = hwprof_spe_addr_value(pkt->index, p);

	switch (pkt->index) {
	case HWPROF_SPE_ADDR_INS:
		rec->present |= HWPROF_SPE_HAS_PC;
		rec->pc = v;
		rec->pc_el = (uint8_t)HWPROF_SPE_ADDR_EL(p);
		rec->pc_ns = (uint8_t)HWPROF_SPE_ADDR_NS(p);
		break;
	case HWPROF_SPE_ADDR_BRANCH:
		rec->present |= HWPROF_SPE_HAS_TARGET;
		rec->target = v;
		rec->target_el = (uint8_t)HWPROF_SPE_ADDR_EL(p);
		rec->target_ns = (uint8_t)HWPROF_SPE_ADDR_NS(p);
		break;
	case HWPROF_SPE_ADDR_DATA_VIRT:
		rec->present |= HWPROF_SPE_HAS_VA;
		rec->va = v;
		rec->va_tag = (uint8_t)HWPROF_SPE_ADDR_TAG(p);
		break;
	case HWPROF_SPE_ADDR_DATA_PHYS:
		rec->present |= HWPROF_SPE_HAS_PA;
		rec->pa = v;
		rec->pa_ns = (uint8_t)HWPROF_SPE_ADDR_NS(p);
		rec->pa_ch = (uint8_t)HWPROF_SPE_ADDR_CH(p);
		rec->pa_pat = (uint8_t)HWPROF_SPE_ADDR_PAT(p);
		break;
	case HWPROF_SPE_ADDR_PREV_BRANCH:
		rec->present |= HWPROF_SPE_HAS_PREV_BRANCH;
		rec->prev_branch = HWPROF_SPE_ADDR_VA(p);
		break;
	default: /* perf ignores unknown address kinds */
		break;
	}
}

static void spe_rec_counter(struct hwprof_spe_record *rec, const struct hwprof_spe_pkt *pkt)
{
	uint16_t v = (uint16_t)pkt->payload;

	switch (pkt->index) {
	case HWPROF_SPE_CNT_TOTAL:
		rec->present |= HWPROF_SPE_HAS_LAT_TOTAL;
		rec->lat_total = v;
		break;
	case HWPROF_SPE_CNT_ISSUE:
		rec->present |= HWPROF_SPE_HAS_LAT_ISSUE;
		rec->lat_issue = v;
		break;
	case HWPROF_SPE_CNT_TRANSLATION:
		rec->present |= HWPROF_SPE_HAS_LAT_XLAT;
		rec->lat_xlat = v;
		break;
	default:
		break;
	}
}

/* Adds one packet; returns 1 when it closes the record. */
static int spe_rec_add(struct hwprof_spe_record *rec, const struct hwprof_spe_pkt *pkt)
{
	switch (pkt->type) {
	case HWPROF_SPE_TIMESTAMP:
		rec->present |= HWPROF_SPE_HAS_TIMESTAMP;
		rec->timestamp = pkt->payload;
		rec->end = HWPROF_SPE_REC_TIMESTAMP;
		return 1;
	case HWPROF_SPE_END:
		rec->end = HWPROF_SPE_REC_END;
		return 1;
	case HWPROF_SPE_ADDRESS:
		spe_rec_address(rec, pkt);
		break;
	case HWPROF_SPE_COUNTER:
		spe_rec_counter(rec, pkt);
		break;
	case HWPROF_SPE_CONTEXT:
		rec->present |= HWPROF_SPE_HAS_CONTEXT;
		rec->context_id = pkt->payload;
		rec->context_el = pkt->index;
		break;
	case HWPROF_SPE_OP_TYPE:
		rec->present |= HWPROF_SPE_HAS_OP;
		rec->op_class = pkt->index;
		rec->op = (uint8_t)pkt->payload;
		break;
	case HWPROF_SPE_EVENTS:
		rec->present |= HWPROF_SPE_HAS_EVENTS;
		rec->events = pkt->payload;
		break;
	case HWPROF_SPE_DATA_SOURCE:
		rec->present |= HWPROF_SPE_HAS_DATA_SOURCE;
		rec->data_source = (uint16_t)pkt->payload;
		break;
	default:
		break;
	}
	return 0;
}

HWPROF_API int hwprof_spe_record_next(struct hwprof_spe_decoder *dec, struct hwprof_spe_record *rec)
{
	struct hwprof_spe_pkt pkt;
	int started = 0, r;

	if (!dec || !rec)
		return -HWPROF_E_INVAL;
	hwprof_spe_record_init(rec);
	rec->offset = dec->pos;
	for (;;) {
		r = hwprof_spe_decoder_next(dec, &pkt);
		if (r < 0) {
			/* The record so far is lost; the caller may go on. */
			hwprof_spe_record_init(rec);
			rec->offset = pkt.offset;
			return r;
		}
		if (r == 0)
			break;
		if (pkt.type == HWPROF_SPE_PAD) {
			if (!started)
				rec->offset = dec->pos;
			continue;
		}
		started = 1;
		if (spe_rec_add(rec, &pkt)) {
			rec->size = dec->pos - rec->offset;
			return 1;
		}
	}
	if (!started)
		return 0;
	rec->end = HWPROF_SPE_REC_TRUNCATED;
	rec->size = dec->pos - rec->offset;
	return 1;
}
