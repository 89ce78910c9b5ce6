/* perf_event_attr <-> struct hwprof_attr, at the kernel's byte offsets.
 * Decoding honours attr.size: fields past it read as zero, so files from
 * any perf version (VER0 = 64 bytes up to VER10 = 176 and beyond) work. */
#include <string.h>

#include "hwprof/perf_event.h"
#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

/* One row per field: offset, width in bytes, offset in struct hwprof_attr. */
struct attr_field { uint16_t off, width, member; };
#define F(o, w, m) { o, w, (uint16_t)offsetof(struct hwprof_attr, m) }
static const struct attr_field fields[] = {
	F(0, 4, type), F(4, 4, size), F(8, 8, config), F(16, 8, sample_period),
	F(24, 8, sample_type), F(32, 8, read_format), F(40, 8, flags),
	F(48, 4, wakeup_events), F(52, 4, bp_type), F(56, 8, config1), F(64, 8, config2),
	F(72, 8, branch_sample_type), F(80, 8, sample_regs_user), F(88, 4, sample_stack_user),
	F(92, 4, clockid), F(96, 8, sample_regs_intr), F(104, 4, aux_watermark),
	F(108, 2, sample_max_stack), F(110, 2, reserved_2), F(112, 4, aux_sample_size),
	F(116, 4, aux_action), F(120, 8, sig_data), F(128, 8, config3), F(136, 8, config4),
	F(144, 2, sample_simd_regs_enabled), F(146, 2, sample_simd_pred_reg_qwords),
	F(148, 2, sample_simd_vec_reg_qwords), F(150, 2, reserved_4),
	F(152, 4, sample_simd_pred_reg_intr), F(156, 4, sample_simd_pred_reg_user),
	F(160, 8, sample_simd_vec_reg_intr), F(168, 8, sample_simd_vec_reg_user),
};
#undef F

HWPROF_API void hwprof_attr_decode(struct hwprof_attr *attr, const uint8_t *in, uint32_t size, int swap)
{
	memset(attr, 0, sizeof(*attr));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];
		/* The size field itself is always present; others only within size. */
		if (f->off + f->width > size && f->off != 4)
			continue;
		char *m = (char *)attr + f->member;
		switch (f->width) {
		case 2: { uint16_t v = ld16s(in + f->off, swap); memcpy(m, &v, 2); break; }
		case 4: { uint32_t v = ld32s(in + f->off, swap); memcpy(m, &v, 4); break; }
		default: { uint64_t v = ld64s(in + f->off, swap); memcpy(m, &v, 8); break; }
		}
	}
	if (swap && size >= 48) {
		/* The flags word is a C bitfield. On a big-endian host field 0 is
		 * the top bit of byte 0, on a little-endian one the bottom bit: the
		 * bytes stay in place and only the bit order inside each byte flips
		 * (this is also what perf does). */
		uint64_t v = ld64(in + 40), r = 0;
		for (int b = 0; b < 8; b++) {
			uint8_t byte = (uint8_t)(v >> (8 * b)), rev = 0;
			for (int k = 0; k < 8; k++)
				if (byte & (1u << k))
					rev |= (uint8_t)(0x80u >> k);
			r |= (uint64_t)rev << (8 * b);
		}
		attr->flags = r;
	}
}

HWPROF_API void hwprof_attr_encode(const struct hwprof_attr *attr, uint8_t *out)
{
	uint32_t size = attr->size ? attr->size : HWPROF_ATTR_SIZE_VER7;
	uint32_t n = size < HWPROF_ATTR_SIZE_VER10 ? HWPROF_ATTR_SIZE_VER10 : size;
	memset(out, 0, n);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];
		if (f->off + f->width > size)
			continue;
		const char *m = (const char *)attr + f->member;
		memcpy(out + f->off, m, f->width);
	}
	st32(out + 4, size);
}

/* Byte-swap an encoded attr in place (either direction): every field at
 * its width, and the flags bitfield by reversing the bits of each byte. */
void pdata_attr_swap(uint8_t *a, uint32_t size)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];
		if (f->off + f->width > size)
			continue;
		uint8_t *p = a + f->off;
		if (f->off == 40) {
			for (int b = 0; b < 8; b++) {
				uint8_t byte = p[b], rev = 0;
				for (int k = 0; k < 8; k++)
					if (byte & (1u << k))
						rev |= (uint8_t)(0x80u >> k);
				p[b] = rev;
			}
			continue;
		}
		switch (f->width) {
		case 2: st16(p, __builtin_bswap16(ld16(p))); break;
		case 4: st32(p, __builtin_bswap32(ld32(p))); break;
		default: st64(p, __builtin_bswap64(ld64(p))); break;
		}
	}
}
