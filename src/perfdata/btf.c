/* BTF (BPF type format) blobs as perf stores them in the BPF_BTF feature:
 * just enough to name a type, which perf's listing of BPF programs uses
 * for each sub-program's function name.
 *
 * Layout (little-endian here): header {u16 magic 0xeb9f; u8 version 1;
 * u8 flags; u32 hdr_len; u32 type_off, type_len, str_off, str_len}, the
 * type and string sections at hdr_len + their offsets. Types are numbered
 * from 1 in order; each is {u32 name_off; u32 info; u32 size_or_type}
 * followed by kind-specific data whose size depends on the kind (info
 * bits 24-28) and vlen (info bits 0-15). */
#include <stdint.h>
#include <string.h>

#include "hwprof/perfdata_feat.h"
#include "util/bytes.h"

/* Bytes following the 12-byte common part, or -1 for an unknown kind. */
static int64_t kind_extra(uint32_t info)
{
	uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
	switch (kind) {
	case 1: return 4;                      /* INT */
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18:
		return 0;                      /* PTR FWD TYPEDEF VOLATILE CONST RESTRICT FUNC FLOAT TYPE_TAG */
	case 3: return 12;                     /* ARRAY */
	case 4: case 5: return 12LL * vlen;    /* STRUCT UNION */
	case 6: return 8LL * vlen;             /* ENUM */
	case 13: return 8LL * vlen;            /* FUNC_PROTO */
	case 14: return 4;                     /* VAR */
	case 15: return 12LL * vlen;           /* DATASEC */
	case 17: return 4;                     /* DECL_TAG */
	case 19: return 12LL * vlen;           /* ENUM64 */
	default: return -1;
	}
}

HWPROF_API const char *hwprof_btf_type_name(const uint8_t *btf, uint64_t size, uint32_t type_id)
{
	if (!btf || size < 24 || ld16(btf) != 0xeb9f || btf[2] != 1 || !type_id)
		return NULL;
	uint64_t hdr = ld32(btf + 4), toff = ld32(btf + 8), tlen = ld32(btf + 12);
	uint64_t soff = ld32(btf + 16), slen = ld32(btf + 20);
	if (hdr < 24 || hdr > size || toff + tlen > size - hdr || soff + slen > size - hdr || !slen)
		return NULL;
	const uint8_t *types = btf + hdr + toff, *strs = btf + hdr + soff;
	if (strs[slen - 1] != 0) /* the string section ends in a NUL */
		return NULL;
	uint64_t at = 0;
	for (uint32_t id = 1; at + 12 <= tlen; id++) {
		uint32_t name_off = ld32(types + at), info = ld32(types + at + 4);
		int64_t extra = kind_extra(info);
		if (extra < 0 || (uint64_t)extra > tlen - at - 12)
			return NULL;
		if (id == type_id)
			return name_off < slen ? (const char *)strs + name_off : NULL;
		at += 12 + (uint64_t)extra;
	}
	return NULL;
}
