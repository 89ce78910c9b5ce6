/* hwprof: hardware-assisted profiling, perf-compatible.
 *
 * This header holds what every part of the library shares: the version,
 * the export macro and the error codes. Each concern has its own header:
 *   perfdata.h  reading perf.data (file and pipe mode), records, samples
 *   regs.h      register tables and the SIMD/eGPR/SSP sampling ABI
 *   intel_pt.h  Intel PT packets: decoder and encoder
 *   arm_spe.h   Arm SPE packets: decoder and encoder
 *
 * Conventions: calls return an int, >= 0 on success and -HWPROF_E_* on
 * failure; hwprof_strerror() gives the text. Handles are opaque, created by
 * hwprof_<x>_open/create and released by hwprof_<x>_close/free (NULL ok).
 * There is no global mutable state: one handle per thread.
 */
#ifndef HWPROF_HWPROF_H
#define HWPROF_HWPROF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HWPROF_VERSION "0.1.0"
#define HWPROF_API __attribute__((visibility("default")))

/* Error codes. Explicitly numbered; never renumber, only append. */
enum hwprof_err {
	HWPROF_OK = 0,
	HWPROF_E_NOMEM = 1,       /* allocation failed or a size limit was hit */
	HWPROF_E_IO = 2,          /* read/write/open failed (see errno) */
	HWPROF_E_MAGIC = 3,       /* not a perf.data file */
	HWPROF_E_TRUNCATED = 4,   /* input ends inside a structure */
	HWPROF_E_CORRUPT = 5,     /* a field is inconsistent or out of bounds */
	HWPROF_E_INVAL = 6,       /* bad argument from the caller */
	HWPROF_E_UNSUPPORTED = 7, /* valid input we do not handle */
	HWPROF_E_DECOMPRESS = 8,  /* zstd data could not be decompressed */
	HWPROF_E_NOENT = 9,       /* no such item (feature, event, file) */
	HWPROF_E_BAD_PACKET = 10, /* a trace packet could not be decoded */
	HWPROF_E_NEED_MORE = 11,  /* a trace packet runs past the buffer end */
	HWPROF_E_NOSYNC = 12,     /* no synchronisation point found */
	HWPROF_E_EOS = 13,        /* end of stream */
	HWPROF_E_PERM = 14,       /* permission denied (e.g. perf_event_paranoid) */
	HWPROF_E_OPNOTSUPP = 15,  /* the kernel or PMU does not support this */
	HWPROF_E_2BIG = 16,       /* the kernel's attr is smaller than ours */
};

/* Text for an error code (positive or negative). Never NULL. */
HWPROF_API const char *hwprof_strerror(int err);

/* Detail of the last failure on a handle: code, where and what. */
struct hwprof_error {
	int code;          /* -HWPROF_E_*, 0 when no error */
	uint64_t offset;   /* byte offset in the input the error refers to */
	char msg[256];     /* one line, no trailing newline */
};

#ifdef __cplusplus
}
#endif
#endif
