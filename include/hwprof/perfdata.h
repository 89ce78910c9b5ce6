/* Reading perf.data: file mode (mmapped) and pipe mode (streamed), any perf
 * version, either byte order.
 *
 *   hwprof_perfdata_open()     open a file, "-" for stdin, or a memory buffer
 *   hwprof_perfdata_next()     next record in file order (1, 0 at end, <0 error)
 *   hwprof_perfdata_evsel*()   the events (attrs, ids, names)
 *   hwprof_perfdata_feature()  a header feature section's payload
 *   hwprof_sample_parse()      a SAMPLE record's fields
 *   hwprof_sample_id_parse()   the sample_id_all trailer of other records
 *
 * Records handed out point into the mapped file or into the handle's own
 * buffers; they are in host byte order and valid until the next call to
 * hwprof_perfdata_next() on the same handle. COMPRESSED records are
 * unpacked transparently: their contents come out as ordinary records.
 */
#ifndef HWPROF_PERFDATA_H
#define HWPROF_PERFDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_perfdata;

/* One event (evsel): its attr, sample ids and name. */
struct hwprof_evsel {
	struct hwprof_attr attr;
	uint32_t idx;              /* position in the attr section / stream */
	const uint64_t *ids;       /* nr_ids sample ids (host order) */
	uint32_t nr_ids;
	const char *name;          /* from EVENT_DESC/EVENT_UPDATE, or NULL */
	const uint8_t *attr_tail;  /* bytes of attr beyond 176 (unknown fields) */
	uint32_t attr_tail_len;
};

/* File header facts. */
struct hwprof_perfdata_info {
	bool pipe;                 /* pipe-mode stream */
	bool swapped;              /* file is the other byte order */
	uint64_t file_size;        /* 0 for pipes */
	uint64_t header_size;      /* 104 (file) or 16 (pipe) */
	uint64_t attr_size;        /* attr entry size in the attr section */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t event_types_offset, event_types_size;
	uint64_t features[4];      /* adds_features bitmap */
	uint64_t nr_compressed;    /* COMPRESSED records unpacked so far */
};

/* A record as found in the input. */
struct hwprof_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;             /* header.size, includes the 8-byte header */
	const uint8_t *data;       /* size bytes, header included, host order */
	uint64_t offset;           /* file offset (pipe: offset after the 16-byte header) */
	const uint8_t *payload;    /* bytes after the record not counted in size:
	                            * AUXTRACE data, HEADER_TRACING_DATA; else NULL */
	uint64_t payload_size;
	uint32_t file_idx;         /* which input file (directory mode), see
	                            * hwprof_perfdata_file_path() */
	bool compressed;           /* came out of a COMPRESSED record */
	uint64_t container_offset; /* for compressed: offset of that record */
};

/* Opening. path "-" reads stdin (pipe mode or a regular file on stdin).
 * On failure *out is NULL and err (if given) says why, with the offset. */
HWPROF_API int hwprof_perfdata_open(struct hwprof_perfdata **out, const char *path,
				    struct hwprof_error *err);
HWPROF_API int hwprof_perfdata_open_mem(struct hwprof_perfdata **out, const void *buf,
					size_t len, const char *name, struct hwprof_error *err);
HWPROF_API void hwprof_perfdata_close(struct hwprof_perfdata *h);

HWPROF_API const struct hwprof_perfdata_info *hwprof_perfdata_info(const struct hwprof_perfdata *h);
HWPROF_API const char *hwprof_perfdata_name(const struct hwprof_perfdata *h);
/* The path of input file idx as perf names it in dumps: the path given,
 * "<dir>/data" and "<dir>/data.N" for a directory (perf record --threads),
 * "pipe" for a stream. */
HWPROF_API const char *hwprof_perfdata_file_path(const struct hwprof_perfdata *h, uint32_t idx);
HWPROF_API const struct hwprof_error *hwprof_perfdata_error(const struct hwprof_perfdata *h);

/* Events. In pipe mode they grow as HEADER_ATTR records are read. */
HWPROF_API uint32_t hwprof_perfdata_nr_evsels(const struct hwprof_perfdata *h);
HWPROF_API const struct hwprof_evsel *hwprof_perfdata_evsel(const struct hwprof_perfdata *h, uint32_t idx);
/* The evsel a sample id belongs to; NULL if unknown. */
HWPROF_API const struct hwprof_evsel *hwprof_perfdata_evsel_by_id(const struct hwprof_perfdata *h, uint64_t id);
/* The evsel a record belongs to (by IDENTIFIER/ID, or the only/first one). */
HWPROF_API const struct hwprof_evsel *hwprof_perfdata_record_evsel(const struct hwprof_perfdata *h,
								   const struct hwprof_record *rec);

/* The event's name: as recorded, else derived from the attr like perf
 * does ("cpu-clock", "cycles:u"); buf is used for derived names. */
HWPROF_API const char *hwprof_evsel_name(const struct hwprof_evsel *ev, char *buf, size_t len);

/* Feature sections. Returns 1 and sets data/size when present, 0 if not.
 * In pipe mode features appear as HEADER_FEATURE records are read. The
 * payload is in file byte order (see info->swapped). */
HWPROF_API int hwprof_perfdata_feature(const struct hwprof_perfdata *h, unsigned feat,
				       const uint8_t **data, uint64_t *size, uint64_t *offset);

/* Next record in input order: 1 = rec filled, 0 = end, < 0 = error (see
 * hwprof_perfdata_error()). After an error the handle is at its end. */
HWPROF_API int hwprof_perfdata_next(struct hwprof_perfdata *h, struct hwprof_record *rec);

/* ---- samples ------------------------------------------------------------ */

/* A register block (REGS_USER or REGS_INTR). */
struct hwprof_regs {
	uint64_t abi;              /* HWPROF_REGS_ABI_* bitmap; 0 = nothing follows */
	uint64_t mask;             /* the attr's sample_regs_{user,intr} */
	const uint8_t *regs;       /* popcount(mask) u64s, unaligned, host order */
	uint32_t nr;               /* popcount(mask) when abi != 0 */
	/* SIMD block, present when abi & HWPROF_REGS_ABI_SIMD */
	uint64_t nr_vectors, vector_qwords, nr_pred, pred_qwords;
	const uint8_t *simd_data;  /* nr_vectors*vector_qwords + nr_pred*pred_qwords u64s */
	uint64_t vec_mask;         /* the attr's sample_simd_vec_reg_{user,intr} */
	uint32_t pred_mask;        /* the attr's sample_simd_pred_reg_{user,intr} */
};

struct hwprof_read_value { uint64_t value, id, lost; };

struct hwprof_sample {
	uint64_t sample_type;      /* which fields below are present */
	const struct hwprof_evsel *evsel;
	uint16_t misc;
	uint64_t id;               /* IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	/* READ */
	uint64_t read_nr;          /* group: number of values; else 1 */
	uint64_t time_enabled, time_running;
	const uint8_t *read_values; /* GROUP: read_nr entries {value, [id], [lost]} */
	uint32_t read_value_stride; /* GROUP: bytes per entry */
	struct hwprof_read_value read_one; /* not GROUP: the one value, id, lost */
	/* CALLCHAIN */
	uint64_t callchain_nr;
	const uint8_t *callchain;  /* callchain_nr u64s */
	/* RAW */
	uint32_t raw_size;
	const uint8_t *raw;
	/* BRANCH_STACK */
	uint64_t branch_nr;
	bool branch_has_hw_idx;
	uint64_t branch_hw_idx;
	const uint8_t *branches;   /* branch_nr × {from, to, flags} u64s */
	const uint8_t *branch_counters; /* branch_nr u64s, or NULL */
	struct hwprof_regs user_regs, intr_regs;
	/* STACK_USER */
	uint64_t stack_size, stack_dyn_size;
	const uint8_t *stack_data;
	uint64_t weight;           /* WEIGHT, or WEIGHT_STRUCT var1 */
	uint16_t ins_lat, p_stage_cyc; /* WEIGHT_STRUCT var2/var3 */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
	uint64_t aux_size;
	const uint8_t *aux_data;
};

/* Parse a SAMPLE record against its evsel. Fields not in sample_type are 0.
 * A sample whose fields overrun the record is -HWPROF_E_CORRUPT with the
 * detail in hwprof_perfdata_error(). */
HWPROF_API int hwprof_sample_parse(struct hwprof_perfdata *h, const struct hwprof_record *rec,
				   struct hwprof_sample *s);
/* Parse the sample_id_all trailer of a non-SAMPLE kernel record (types
 * 1..21). Returns 1 if the evsel has sample_id_all and s is filled, 0 if
 * there is no trailer, < 0 on a corrupt record. */
HWPROF_API int hwprof_sample_id_parse(struct hwprof_perfdata *h, const struct hwprof_record *rec,
				      struct hwprof_sample *s);

/* Unaligned u64 array access for the pointers above. */
static inline uint64_t hwprof_u64_at(const uint8_t *p, uint64_t i)
{
	uint64_t v;
	__builtin_memcpy(&v, p + 8 * i, 8);
	return v;
}

#ifdef __cplusplus
}
#endif
#endif
