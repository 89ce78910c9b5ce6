/* Prints Arm SPE AUXTRACE data and AUXTRACE_INFO the way perf 6.1's
 * `report -D` does, byte for byte. The decoding itself (packet split,
 * PAD folding, one-byte resync) is the library's; this file only formats. */
#include <inttypes.h>
#include <stdio.h>

#include "hwprof/arm_spe.h"
#include "cli/print_spe.h"

void print_spe_packet_line(FILE *out, const uint8_t *pkt_bytes, size_t pkt_len,
			   uint64_t offset, const char *desc)
{
	/* Built by hand and written once: dumps run to millions of lines and
	 * a printf per byte would dominate. Layout: ".  %08x: " then " %02x"
	 * per byte, 3 spaces per missing byte up to 16, " " and the text. */
	static const char hex[] = "0123456789abcdef";
	char line[16 + 16 * 3 + 2];
	size_t n = 0, i;
	uint32_t off = (uint32_t)offset;

	line[n++] = '.';
	line[n++] = ' ';
	line[n++] = ' ';
	for (int sh = 28; sh >= 0; sh -= 4)
		line[n++] = hex[(off >> sh) & 0xf];
	line[n++] = ':';
	line[n++] = ' ';
	for (i = 0; i < pkt_len && i < 16; i++) {
		line[n++] = ' ';
		line[n++] = hex[pkt_bytes[i] >> 4];
		line[n++] = hex[pkt_bytes[i] & 0xf];
	}
	for (; i < 16; i++) {
		line[n++] = ' ';
		line[n++] = ' ';
		line[n++] = ' ';
	}
	line[n++] = ' ';
	fwrite(line, 1, n, out);
	fputs(desc, out);
	fputc('\n', out);
}

void print_spe_dump_at(FILE *out, const uint8_t *buf, size_t len, uint64_t addr)
{
	struct hwprof_spe_decoder dec;
	struct hwprof_spe_pkt pkt;
	char desc[256];
	int r;

	fprintf(out, ".\n. ... ARM SPE data: size %#zx bytes\n", len);
	hwprof_spe_decoder_init(&dec, buf, len, addr);
	while ((r = hwprof_spe_decoder_next(&dec, &pkt)) != 0) {
		if (r < 0)
			snprintf(desc, sizeof(desc), "Bad packet!");
		else
			hwprof_spe_pkt_desc(&pkt, desc, sizeof(desc));
		print_spe_packet_line(out, buf + pkt.offset, pkt.len, pkt.offset, desc);
	}
}

void print_spe_dump(FILE *out, const uint8_t *buf, size_t len)
{
	print_spe_dump_at(out, buf, len, 0);
}

/* The versioned layout newer perf writes (priv[0] = version >= 2). */
#define SPE_INFO_MAGIC 0x1010101010101010ull

static void print_spe_info_v2(FILE *out, const uint64_t *priv, size_t nr)
{
	/* Per-CPU values in newer perf's order and base (hex for magic/MIDR). */
	static const struct { const char *name; int hex; } field[] = {
		{ "Magic", 1 }, { "CPU #", 0 }, { "Num of params", 0 }, { "MIDR", 1 },
		{ "PMU Type", 0 }, { "Min Interval", 0 }, { "Event Filter", 1 },
	};
	uint64_t hdr_size = priv[1], ncpus, pos;

	fprintf(out, "  Header version     :%" PRId64 "\n", (int64_t)priv[0]);
	fprintf(out, "  Header size        :%" PRId64 "\n", (int64_t)hdr_size);
	if (hdr_size < 4 || hdr_size > nr) {
		fprintf(out, "  (header size out of range: %zu values)\n", nr);
		return;
	}
	fprintf(out, "  PMU type v2        :%" PRId64 "\n", (int64_t)priv[2]);
	ncpus = priv[3];
	fprintf(out, "  CPU number         :%" PRId64 "\n", (int64_t)ncpus);
	pos = hdr_size;
	for (uint64_t c = 0; c < ncpus; c++) {
		uint64_t nparams, end;

		if (nr - pos < 3) {
			fprintf(out, "  (per-CPU block %" PRIu64 " truncated)\n", c);
			return;
		}
		nparams = priv[pos + 2];
		if (priv[pos] != SPE_INFO_MAGIC || nparams > nr - pos - 3) {
			fprintf(out, "  (bad per-CPU block %" PRIu64 ")\n", c);
			return;
		}
		end = pos + 3 + nparams;
		for (uint64_t i = 0; pos < end; i++, pos++) {
			if (i < sizeof(field) / sizeof(field[0]) && field[i].hex)
				fprintf(out, "    %-16s :0x%" PRIx64 "\n", field[i].name, priv[pos]);
			else if (i < sizeof(field) / sizeof(field[0]))
				fprintf(out, "    %-16s :%" PRId64 "\n", field[i].name, (int64_t)priv[pos]);
			else
				fprintf(out, "    Param %-10" PRIu64 " :0x%" PRIx64 "\n", i, priv[pos]);
		}
	}
}

void print_spe_auxtrace_info(FILE *out, const uint64_t *priv, size_t nr_priv)
{
	/* perf 6.1 rejects records with fewer than 2 values and prints nothing. */
	if (!priv || nr_priv < 2)
		return;
	/* The unversioned layout (perf <= 6.12) is exactly {pmu_type,
	 * per_cpu_mmaps}. perf 6.1 knows no other: on the versioned layout it
	 * prints priv[0] (the version) as "PMU Type", then fails to match the
	 * SPE event. We print the newer layout the way newer perf does. */
	if (nr_priv < 4) {
		fprintf(out, "  PMU Type           %" PRId64 "\n", (int64_t)priv[0]);
		return;
	}
	print_spe_info_v2(out, priv, nr_priv);
}

void print_spe_auxtrace_info_61(FILE *out, const uint64_t *priv, size_t nr_priv)
{
	if (priv && nr_priv >= 2)
		fprintf(out, "  PMU Type           %" PRId64 "\n", (int64_t)priv[0]);
}
