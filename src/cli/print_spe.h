/* Printers for Arm SPE data in perf 6.1's `report -D` text: the AUXTRACE
 * buffer dump and the arm_spe AUXTRACE_INFO lines. */
#ifndef HWPROF_CLI_PRINT_SPE_H
#define HWPROF_CLI_PRINT_SPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ".\n. ... ARM SPE data: size 0x.. bytes\n" then one line per packet.
 * Assumes buf[0] sits on a 16-byte boundary (matters only for ALIGNMENT
 * packets); print_spe_dump_at() takes the address perf would see, i.e. the
 * file offset of the AUXTRACE data for a file-mode perf.data. */
void print_spe_dump(FILE *out, const uint8_t *buf, size_t len);
void print_spe_dump_at(FILE *out, const uint8_t *buf, size_t len, uint64_t addr);

/* One packet line without the leading "." (used by both). */
void print_spe_packet_line(FILE *out, const uint8_t *pkt_bytes, size_t pkt_len,
			   uint64_t offset, const char *desc);

/* The lines after "PERF_RECORD_AUXTRACE_INFO type: 4". priv = the u64s
 * after the record's {type, reserved}. */
void print_spe_auxtrace_info(FILE *out, const uint64_t *priv, size_t nr_priv);
/* Exactly what perf 6.1 prints for any layout: "  PMU Type  <priv[0]>"
 * (for the versioned layout that is the version number). */
void print_spe_auxtrace_info_61(FILE *out, const uint64_t *priv, size_t nr_priv);

#endif
