/* Unaligned little/big-endian loads and stores. Input records are not always
 * aligned (pipe mode) and may be in the other byte order, so every parser
 * reads through these instead of casting pointers. */
#ifndef HWPROF_UTIL_BYTES_H
#define HWPROF_UTIL_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t ld16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t ld32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st16(void *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void st32(void *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void st64(void *p, uint64_t v) { memcpy(p, &v, 8); }

/* Loads in file byte order: swap != 0 means the file is the other endianness. */
static inline uint16_t ld16s(const void *p, int swap) { uint16_t v = ld16(p); return swap ? __builtin_bswap16(v) : v; }
static inline uint32_t ld32s(const void *p, int swap) { uint32_t v = ld32(p); return swap ? __builtin_bswap32(v) : v; }
static inline uint64_t ld64s(const void *p, int swap) { uint64_t v = ld64(p); return swap ? __builtin_bswap64(v) : v; }

/* Explicit little-endian access, for formats defined as LE (PT, SPE). */
static inline uint64_t ld_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#endif
