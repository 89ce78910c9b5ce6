/* pt_perfdata_wrap: wraps raw Intel PT bytes into the smallest perf.data
 * that `perf report -D` dumps (one intel_pt attr, AUXTRACE_INFO, AUXTRACE),
 * so tests can compare our packet dump with perf's on arbitrary bytes.
 * Usage: pt_perfdata_wrap IN.raw OUT.data [NR_PRIV [FILTER]]
 * NR_PRIV (10..17, default 17) and FILTER vary the AUXTRACE_INFO record
 * (layout: docs/intel-pt-notes.md §2). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char out[1 << 20];
static size_t pos;

static void put(const void *p, size_t n) { memcpy(out + pos, p, n); pos += n; }
static void u16(uint16_t v) { put(&v, 2); }
static void u32(uint32_t v) { put(&v, 4); }
static void u64(uint64_t v) { put(&v, 8); }

int main(int argc, char **argv)
{
	static unsigned char raw[(1 << 20) - 4096];
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: pt_perfdata_wrap IN.raw OUT.data [NR_PRIV [FILTER]]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) { perror(argv[1]); return 1; }
	size_t n = fread(raw, 1, sizeof(raw), f);
	fclose(f);

	unsigned nr_priv = argc > 3 ? (unsigned)atoi(argv[3]) : 17;
	const char *filter = argc > 4 ? argv[4] : "";
	size_t flen = strlen(filter), fpad = flen ? (flen + 1 + 7) & ~(size_t)7 : 0;
	if (nr_priv < 10 || nr_priv > 17 || (flen && nr_priv != 17) || fpad > 4096) {
		fprintf(stderr, "pt_perfdata_wrap: bad NR_PRIV/FILTER\n");
		return 2;
	}
	uint16_t info_size = (uint16_t)(16 + 8 * nr_priv + fpad);
	const uint64_t attr_off = 104, ids_off = 104 + 144, data_off = 256;
	size_t padded = (n + 7) & ~(size_t)7;
	uint64_t data_size = info_size + 48 + padded;

	/* perf_file_header */
	put("PERFILE2", 8);
	u64(104); u64(144);
	u64(attr_off); u64(144);
	u64(data_off); u64(data_size);
	u64(0); u64(0);
	for (int i = 0; i < 4; i++) u64(0); /* no feature sections */

	/* perf_file_attr: attr (VER7, 128 bytes) + ids section */
	u32(8); u32(128); u64(0x2001); u64(0); u64(0x10007); u64(0);
	u64(1 | 0x20 | 0x40 | 0x1000 | 0x40000);
	while (pos < attr_off + 128) u64(0);
	u64(ids_off); u64(8);
	u64(42);

	/* PERF_RECORD_AUXTRACE_INFO, intel_pt, 17 priv fields */
	u32(70); u16(0); u16(info_size); u32(1); u32(0);
	uint64_t priv[17] = { 8, 0, 0, 0, 0, 0x400, 0x800, 0, 0, 0,
			      0x200, 0x3c000, 0, 0, 0x2, 0, flen };
	/* PT_WRAP_PRIV="v0,v1,..." overrides the first fields (tests of the
	 * info printer's number formats). */
	const char *ov = getenv("PT_WRAP_PRIV");
	for (unsigned i = 0; ov && *ov && i < 16; i++) {
		char *end;
		priv[i] = strtoull(ov, &end, 0);
		ov = *end == ',' ? end + 1 : NULL;
	}
	put(priv, 8 * nr_priv);
	if (fpad) {
		memset(out + pos, 0, fpad);
		put(filter, flen);
		pos += fpad - flen;
	}

	/* PERF_RECORD_AUXTRACE + trace bytes padded with zeros to 8 */
	u32(71); u16(0); u16(48);
	u64(padded); u64(0); u64(0x1234); u32(0); u32(4242); u32(0xffffffff); u32(0);
	put(raw, n);
	while (pos % 8) out[pos++] = 0;

	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, pos, f) != pos || fclose(f)) { perror(argv[2]); return 1; }
	return 0;
}
