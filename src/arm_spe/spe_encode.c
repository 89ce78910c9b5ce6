/* Arm SPE encoder: writes packets and whole records into a caller buffer.
 * Tests, the demo and fuzz seeds build their SPE data with it, so it can
 * produce every header form the decoder accepts, extended ones included. */
#include <string.h>

#include "hwprof/arm_spe.h"

HWPROF_API void hwprof_spe_writer_init(struct hwprof_spe_writer *w, void *buf, size_t cap)
{
	if (!w)
		return;
	w->buf = buf;
	w->cap = buf ? cap : 0;
	w->pos = 0;
	w->err = 0;
}

HWPROF_API long hwprof_spe_writer_len(const struct hwprof_spe_writer *w)
{
	if (!w)
		return -HWPROF_E_INVAL;
	return w->err ? w->err : (long)w->pos;
}

/* size code (hdr bits 5:4) for 1, 2, 4, 8 bytes; -1 otherwise */
static int spe_size_code(unsigned n)
{
	switch (n) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return 3;
	default: return -1;
	}
}

static int spe_emit(struct hwprof_spe_writer *w, const uint8_t *hdr, unsigned hdr_len,
		    uint64_t payload, unsigned plen)
{
	if (w->err)
		return w->err;
	if (w->cap - w->pos < hdr_len + plen) {
		w->err = -HWPROF_E_NOMEM;
		return w->err;
	}
	memcpy(w->buf + w->pos, hdr, hdr_len);
	for (unsigned i = 0; i < plen; i++)
		w->buf[w->pos + hdr_len + i] = (uint8_t)(payload >> (8 * i));
	w->pos += hdr_len + plen;
	return (int)(hdr_len + plen);
}

HWPROF_API int hwprof_spe_put_packet(struct hwprof_spe_writer *w, unsigned type, unsigned index,
				     uint64_t payload, unsigned payload_len)
{
	uint8_t hdr[2];
	int code;

	if (!w)
		return -HWPROF_E_INVAL;
	switch (type) {
	case HWPROF_SPE_PAD:
		hdr[0] = 0x00;
		return spe_emit(w, hdr, 1, 0, 0);
	case HWPROF_SPE_END:
		hdr[0] = 0x01;
		return spe_emit(w, hdr, 1, 0, 0);
	case HWPROF_SPE_TIMESTAMP:
		hdr[0] = 0x71;
		return spe_emit(w, hdr, 1, payload, 8);
	case HWPROF_SPE_EVENTS:
	case HWPROF_SPE_DATA_SOURCE:
		code = spe_size_code(payload_len);
		if (code < 0)
			return -HWPROF_E_INVAL;
		hdr[0] = (uint8_t)((type == HWPROF_SPE_EVENTS ? 0x42 : 0x43) | (code << 4));
		return spe_emit(w, hdr, 1, payload, payload_len);
	case HWPROF_SPE_CONTEXT:
		if (index > 3)
			return -HWPROF_E_INVAL;
		hdr[0] = (uint8_t)(0x64 | index);
		return spe_emit(w, hdr, 1, payload, 4);
	case HWPROF_SPE_OP_TYPE:
		if (index > 3)
			return -HWPROF_E_INVAL;
		hdr[0] = (uint8_t)(0x48 | index);
		return spe_emit(w, hdr, 1, payload, 1);
	case HWPROF_SPE_ADDRESS:
	case HWPROF_SPE_COUNTER: {
		uint8_t base = type == HWPROF_SPE_ADDRESS ? 0xb0 : 0x98;
		unsigned plen = type == HWPROF_SPE_ADDRESS ? 8 : 2;

		if (index > 31)
			return -HWPROF_E_INVAL;
		if (index < 8) {
			hdr[0] = (uint8_t)(base | index);
			return spe_emit(w, hdr, 1, payload, plen);
		}
		/* Extended form: index bits 4:3 in byte 0, bits 2:0 in byte 1. */
		hdr[0] = (uint8_t)(0x20 | (index >> 3));
		hdr[1] = (uint8_t)(base | (index & 7));
		return spe_emit(w, hdr, 2, payload, plen);
	}
	default:
		return -HWPROF_E_INVAL;
	}
}

HWPROF_API uint64_t hwprof_spe_addr_ins(uint64_t va, unsigned el, unsigned ns)
{
	return HWPROF_SPE_ADDR_VA(va) | ((uint64_t)(el & 3) << 61) | ((uint64_t)(ns & 1) << 63);
}

HWPROF_API uint64_t hwprof_spe_addr_pa(uint64_t pa, unsigned ns, unsigned ch, unsigned pat)
{
	return HWPROF_SPE_ADDR_VA(pa) | ((uint64_t)(pat & 0xf) << 56) |
	       ((uint64_t)(ch & 1) << 62) | ((uint64_t)(ns & 1) << 63);
}

static unsigned spe_events_len(uint64_t ev)
{
	if (ev <= 0xff)
		return 1;
	if (ev <= 0xffff)
		return 2;
	if (ev <= 0xffffffffull)
		return 4;
	return 8;
}

HWPROF_API int hwprof_spe_put_record(struct hwprof_spe_writer *w, const struct hwprof_spe_record *rec)
{
	size_t start;
	uint32_t has;

	if (!w || !rec)
		return -HWPROF_E_INVAL;
	if (w->err)
		return w->err;
	start = w->pos;
	has = rec->present;
	if (has & HWPROF_SPE_HAS_PC)
		hwprof_spe_put_packet(w, HWPROF_SPE_ADDRESS, HWPROF_SPE_ADDR_INS,
				      hwprof_spe_addr_ins(rec->pc, rec->pc_el, rec->pc_ns), 8);
	if (has & HWPROF_SPE_HAS_LAT_ISSUE)
		hwprof_spe_put_packet(w, HWPROF_SPE_COUNTER, HWPROF_SPE_CNT_ISSUE, rec->lat_issue, 2);
	if (has & HWPROF_SPE_HAS_EVENTS)
		hwprof_spe_put_packet(w, HWPROF_SPE_EVENTS, 0, rec->events, spe_events_len(rec->events));
	if (has & HWPROF_SPE_HAS_OP)
		hwprof_spe_put_packet(w, HWPROF_SPE_OP_TYPE, rec->op_class & 3, rec->op, 1);
	if (has & HWPROF_SPE_HAS_VA)
		hwprof_spe_put_packet(w, HWPROF_SPE_ADDRESS, HWPROF_SPE_ADDR_DATA_VIRT,
				      HWPROF_SPE_ADDR_VA(rec->va) | ((uint64_t)rec->va_tag << 56), 8);
	if (has & HWPROF_SPE_HAS_LAT_XLAT)
		hwprof_spe_put_packet(w, HWPROF_SPE_COUNTER, HWPROF_SPE_CNT_TRANSLATION, rec->lat_xlat, 2);
	if (has & HWPROF_SPE_HAS_PA)
		hwprof_spe_put_packet(w, HWPROF_SPE_ADDRESS, HWPROF_SPE_ADDR_DATA_PHYS,
				      hwprof_spe_addr_pa(rec->pa, rec->pa_ns, rec->pa_ch, rec->pa_pat), 8);
	if (has & HWPROF_SPE_HAS_LAT_TOTAL)
		hwprof_spe_put_packet(w, HWPROF_SPE_COUNTER, HWPROF_SPE_CNT_TOTAL, rec->lat_total, 2);
	if (has & HWPROF_SPE_HAS_DATA_SOURCE)
		hwprof_spe_put_packet(w, HWPROF_SPE_DATA_SOURCE, 0, rec->data_source, 2);
	if (has & HWPROF_SPE_HAS_CONTEXT)
		hwprof_spe_put_packet(w, HWPROF_SPE_CONTEXT, rec->context_el & 3, rec->context_id, 4);
	if (has & HWPROF_SPE_HAS_TARGET)
		hwprof_spe_put_packet(w, HWPROF_SPE_ADDRESS, HWPROF_SPE_ADDR_BRANCH,
				      hwprof_spe_addr_ins(rec->target, rec->target_el, rec->target_ns), 8);
	if (has & HWPROF_SPE_HAS_PREV_BRANCH)
		hwprof_spe_put_packet(w, HWPROF_SPE_ADDRESS, HWPROF_SPE_ADDR_PREV_BRANCH,
				      HWPROF_SPE_ADDR_VA(rec->prev_branch), 8);
	if (has & HWPROF_SPE_HAS_TIMESTAMP)
		hwprof_spe_put_packet(w, HWPROF_SPE_TIMESTAMP, 0, rec->timestamp, 8);
	else
		hwprof_spe_put_packet(w, HWPROF_SPE_END, 0, 0, 0);
	if (w->err)
		return w->err;
	return (int)(w->pos - start);
}
