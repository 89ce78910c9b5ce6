/* Printers for Intel PT data in perf 6.1's `perf report -D` format:
 * the AUXTRACE buffer packet dump and the AUXTRACE_INFO private fields. */
#ifndef HWPROF_CLI_PRINT_PT_H
#define HWPROF_CLI_PRINT_PT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ".\n. ... Intel Processor Trace data: size N bytes\n" then one line per
 * packet, offsets relative to buf, exactly as perf 6.1 (no PSB sync). */
void print_pt_dump(FILE *out, const uint8_t *buf, size_t len);

/* One packet line as above, at `offset`, for a packet of `size` bytes
 * (desc NULL prints " Bad packet!"). Shared with `hwprof pt dump`. */
void print_pt_line(FILE *out, uint64_t offset, const uint8_t *bytes, size_t size,
		   const char *desc);

/* The "  PMU Type            8" ... "  Filter string       " lines perf 6.1
 * prints after "PERF_RECORD_AUXTRACE_INFO type: 1". priv points at the u64
 * words at record offset 16; nr_priv is how many are present (older records
 * have 10, 15 or 16 fields; perf prints only the groups present). The filter
 * string (when priv[16] > 0) is read from raw_after_priv[0..raw_len), the
 * bytes following the 17 fields; pass NULL/0 to take it from priv[17...] when
 * nr_priv counts those words too. */
void print_pt_auxtrace_info(FILE *out, const uint64_t *priv, size_t nr_priv,
			    const uint8_t *raw_after_priv, size_t raw_len);

#endif
