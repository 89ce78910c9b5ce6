/* Prints Intel PT data the way perf 6.1's `perf report -D` does: the packet
 * dump of an AUXTRACE buffer and the AUXTRACE_INFO private fields. Decoding
 * is the library's (perf dump mode); this file only formats. */
#include <inttypes.h>
#include <string.h>

#include "hwprof/intel_pt.h"
#include "cli/print_pt.h"

void print_pt_line(FILE *out, uint64_t offset, const uint8_t *bytes, size_t size,
		   const char *desc)
{
	static const char hex[] = "0123456789abcdef";
	char line[16 * 3 + 64];
	size_t n = 0;
	/* perf prints the offset with %08x: only the low 32 bits */
	n += (size_t)snprintf(line, sizeof(line), ".  %08x: ", (unsigned)offset);
	for (size_t i = 0; i < 16; i++) {
		if (i < size) {
			line[n++] = ' ';
			line[n++] = hex[bytes[i] >> 4];
			line[n++] = hex[bytes[i] & 15];
		} else {
			memcpy(line + n, "   ", 3);
			n += 3;
		}
	}
	fwrite(line, 1, n, out);
	/* packets are at most 16 bytes, so no line has more (perf pads to 16) */
	for (size_t i = 16; i < size; i++)
		fprintf(out, " %02x", bytes[i]);
	fprintf(out, " %s\n", desc ? desc : "Bad packet!");
}

void print_pt_dump(FILE *out, const uint8_t *buf, size_t len)
{
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	char desc[256];

	fprintf(out, ".\n. ... Intel Processor Trace data: size %zu bytes\n", len);
	if (hwprof_pt_decoder_init(&dec, buf, len, HWPROF_PT_PERF_DUMP) < 0)
		return;
	for (;;) {
		size_t off = hwprof_pt_decoder_offset(&dec);
		int ret = hwprof_pt_decoder_next(&dec, &pkt);
		if (ret == 0)
			break;
		if (ret < 0) {
			/* bad or truncated packet: perf shows one byte and moves on */
			print_pt_line(out, off, buf + off, 1, NULL);
			hwprof_pt_decoder_skip(&dec, 1);
			continue;
		}
		hwprof_pt_packet_desc(&pkt, desc, sizeof(desc));
		print_pt_line(out, off, buf + off, pkt.size, desc);
	}
}

/* Field names and formats by priv index (perf's intel-pt.h order). */
enum { F_DEC, F_UDEC, F_HEX };
static const struct {
	const char *name;
	int fmt;
} info_fields[17] = {
	{ "PMU Type", F_DEC },           { "Time Shift", F_UDEC },
	{ "Time Muliplier", F_UDEC },    { "Time Zero", F_UDEC },
	{ "Cap Time Zero", F_DEC },      { "TSC bit", F_HEX },
	{ "NoRETComp bit", F_HEX },      { "Have sched_switch", F_DEC },
	{ "Snapshot mode", F_DEC },      { "Per-cpu maps", F_DEC },
	{ "MTC bit", F_HEX },            { "MTC freq bits", F_HEX },
	{ "TSC:CTC numerator", F_UDEC }, { "TSC:CTC denominator", F_UDEC },
	{ "CYC bit", F_HEX },            { "Max non-turbo ratio", F_UDEC },
	{ "Filter string len.", F_UDEC },
};

static void print_fields(FILE *out, const uint64_t *priv, size_t from, size_t to)
{
	for (size_t i = from; i <= to; i++) {
		const char *name = info_fields[i].name;
		switch (info_fields[i].fmt) {
		case F_DEC: fprintf(out, "  %-20s%" PRId64 "\n", name, (int64_t)priv[i]); break;
		case F_UDEC: fprintf(out, "  %-20s%" PRIu64 "\n", name, priv[i]); break;
		default: fprintf(out, "  %-20s%#" PRIx64 "\n", name, priv[i]); break;
		}
	}
}

void print_pt_auxtrace_info(FILE *out, const uint64_t *priv, size_t nr_priv,
			    const uint8_t *raw_after_priv, size_t raw_len)
{
	/* perf prints the groups the record is long enough for */
	if (nr_priv < 10)
		return;
	print_fields(out, priv, 0, 9);
	if (nr_priv >= 15)
		print_fields(out, priv, 10, 14);
	if (nr_priv >= 16)
		print_fields(out, priv, 15, 15);
	if (nr_priv < 17)
		return;
	print_fields(out, priv, 16, 16);
	const char *filter = "";
	size_t flen = (size_t)priv[16];
	if (!raw_after_priv) {
		raw_after_priv = (const uint8_t *)(priv + 17);
		raw_len = (nr_priv - 17) * 8;
	}
	/* the string must fit and end with a NUL within its padded area */
	if (flen && flen < raw_len && !raw_after_priv[flen] &&
	    !memchr(raw_after_priv, 0, flen))
		filter = (const char *)raw_after_priv;
	fprintf(out, "  %-20s%s\n", "Filter string", filter);
}
