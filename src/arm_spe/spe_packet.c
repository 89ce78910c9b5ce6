/* Arm SPE packet decoder: header byte -> packet through one 256-entry
 * table, then a uniform payload read (size is always 1 << hdr[5:4]).
 * Also the packet iterator, which folds PAD runs and steps over bad bytes
 * exactly like perf 6.1 so that dumps line up with `perf report -D`. */
#include <stdio.h>
#include <string.h>

#include "hwprof/arm_spe.h"
#include "arm_spe/spe_fast.h"
#include "util/bytes.h"

HWPROF_API int hwprof_spe_pkt_decode(const void *vbuf, size_t len, uint64_t addr,
				     struct hwprof_spe_pkt *pkt)
{
	const uint8_t *buf = vbuf;
	unsigned h, cls, hdr_len = 1, plen;

	if (!buf || !pkt)
		return -HWPROF_E_INVAL;
	memset(pkt, 0, sizeof(*pkt));
	if (len == 0)
		return -HWPROF_E_NEED_MORE;
	h = buf[0];
	cls = spe_hdr_class[h];
	pkt->type = spe_class_type[cls];
	pkt->hdr_len = 1;

	switch (cls) {
	case SC_B:
		return -HWPROF_E_BAD_PACKET;
	case SC_P:
	case SC_E:
		pkt->len = 1;
		return 1;
	case SC_V:
		pkt->index = (uint8_t)(1u << ((h >> 4) & 3));
		break;
	case SC_C:
	case SC_O:
		pkt->index = h & 3;
		break;
	case SC_A:
	case SC_N:
		pkt->index = h & 7;
		break;
	case SC_X: {
		unsigned h1, cls1;

		if (len < 2)
			return -HWPROF_E_NEED_MORE;
		h1 = buf[1];
		if (h1 == 0) {
			/* ALIGNMENT: pads to a 2/4/8/16-byte boundary. perf
			 * measures the boundary on the memory address of the
			 * packet, hence `addr`. */
			unsigned align = 1u << ((h & 0xf) + 1);

			if (len < align)
				return -HWPROF_E_NEED_MORE;
			pkt->type = HWPROF_SPE_PAD;
			pkt->len = (uint8_t)(align - (addr & (align - 1)));
			pkt->hdr_len = pkt->len < 2 ? pkt->len : 2;
			return pkt->len;
		}
		cls1 = spe_hdr_class[h1];
		if (cls1 != SC_A && cls1 != SC_N)
			return -HWPROF_E_BAD_PACKET;
		pkt->type = spe_class_type[cls1];
		pkt->index = (uint8_t)(((h & 3) << 3) | (h1 & 7));
		hdr_len = 2;
		pkt->hdr_len = 2;
		h = h1;
		break;
	}
	default: /* T, D: no index */
		break;
	}

	plen = 1u << ((h >> 4) & 3);
	if (len < hdr_len + plen)
		return -HWPROF_E_NEED_MORE;
	pkt->payload = ld_le(buf + hdr_len, plen);
	pkt->len = (uint8_t)(hdr_len + plen);
	return pkt->len;
}

HWPROF_API void hwprof_spe_decoder_init(struct hwprof_spe_decoder *dec, const void *buf,
					size_t len, uint64_t addr)
{
	if (!dec)
		return;
	memset(dec, 0, sizeof(*dec));
	dec->buf = buf;
	dec->len = buf ? len : 0;
	dec->addr = addr;
}

HWPROF_API int hwprof_spe_decoder_next(struct hwprof_spe_decoder *dec, struct hwprof_spe_pkt *pkt)
{
	size_t pos, n;
	int r;

	if (!dec || !pkt)
		return -HWPROF_E_INVAL;
	pos = dec->pos;
	if (pos >= dec->len)
		return 0;
	r = hwprof_spe_pkt_decode(dec->buf + pos, dec->len - pos, dec->addr + pos, pkt);
	pkt->offset = pos;
	if (r < 0) {
		dec->err.code = r;
		dec->err.offset = pos;
		snprintf(dec->err.msg, sizeof(dec->err.msg), "%s at offset %#zx (header byte 0x%02x)",
			 r == -HWPROF_E_BAD_PACKET ? "bad SPE packet" : "SPE packet cut by the buffer end",
			 pos, dec->buf[pos]);
		/* One byte at a time, as perf: the byte after may start a
		 * valid packet. */
		pkt->type = HWPROF_SPE_BAD;
		pkt->len = 1;
		pkt->hdr_len = 1;
		dec->pos = pos + 1;
		return r;
	}
	n = (size_t)r;
	if (pkt->type == HWPROF_SPE_PAD) {
		/* perf prints a run of zero bytes as one PAD line of up to 16. */
		while (n < 16 && pos + n < dec->len && dec->buf[pos + n] == 0)
			n++;
		pkt->len = (uint8_t)n;
	}
	dec->pos = pos + n;
	return 1;
}

HWPROF_API size_t hwprof_spe_decoder_offset(const struct hwprof_spe_decoder *dec)
{
	return dec ? dec->pos : 0;
}

HWPROF_API const struct hwprof_error *hwprof_spe_decoder_error(const struct hwprof_spe_decoder *dec)
{
	return dec ? &dec->err : NULL;
}

HWPROF_API uint64_t hwprof_spe_addr_value(unsigned index, uint64_t payload)
{
	return spe_addr_inline(index, payload);
}
