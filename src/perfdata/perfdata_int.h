/* Internal state of the perf.data reader, shared by perfdata_read.c (header,
 * sections, record iteration), record_swap.c (cross-endian records),
 * perfdata_decomp.c (COMPRESSED records) and sample_parse.c. */
#ifndef HWPROF_PERFDATA_INT_H
#define HWPROF_PERFDATA_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwprof/perfdata.h"

#define PDATA_FILE_HEADER_SIZE 104
#define PDATA_PIPE_HEADER_SIZE 16
#define PDATA_MAGIC 0x32454c4946524550ULL /* "PERFILE2" */
#define PDATA_MAX_EVSELS 65536
#define PDATA_MAX_IDS (1u << 24)
#define PDATA_MAX_PAYLOAD (1ULL << 32)   /* largest AUXTRACE/TRACING payload we buffer from a pipe */
#define PDATA_MAX_DECOMP (256u << 20)    /* largest decompressed COMPRESSED batch we hold */

struct pdata_feat { uint64_t offset, size; uint8_t *copy; /* pipe mode: owned payload */ };

/* A growable byte buffer. */
struct pdata_buf { uint8_t *p; size_t len, cap; };
int pdata_buf_reserve(struct pdata_buf *b, size_t cap);

struct pdata_decomp {
	void *dctx;              /* ZSTD_DCtx */
	struct pdata_buf out;    /* decompressed records of the current batch */
	size_t pos;              /* next record in out */
	uint64_t container;      /* file offset of the COMPRESSED record */
	bool active;
};

/* One input file of the data: the perf.data itself, or in directory mode
 * (perf record --threads) also each data.N file. */
struct pdata_src {
	const uint8_t *map;
	size_t len;
	bool unmap;
	char *path;              /* as perf prints it before "@": "<dir>/data.1" */
	uint64_t pos, end;       /* next record, end of records */
	uint64_t released;       /* mapped bytes before this were given back */
	uint64_t turn;           /* bytes read in this round-robin turn */
	bool done;
	struct pdata_decomp decomp;
};

struct hwprof_perfdata {
	char *name;
	struct hwprof_perfdata_info info;
	struct hwprof_error err;

	/* file mode: the whole file mapped (or the caller's buffer) */
	const uint8_t *map;
	size_t map_len;
	bool unmap;
	/* pipe mode: a stream */
	int fd;
	bool own_fd;
	struct pdata_buf rbuf;   /* current record (+ payload) read from the pipe */

	uint64_t pos, end;       /* set up by open; copied into srcs[0] */
	struct pdata_src *srcs;  /* srcs[0] is the main file (or the stream) */
	uint32_t nsrc, cur;      /* sources, and whose turn it is */
	uint32_t batch_src;      /* source of the compressed batch being unpacked */
	uint64_t truncated_at;   /* file ends inside the data section here, or 0 */
	uint64_t claimed_end;    /* where the header says the data ends */
	bool done;

	/* events */
	struct hwprof_evsel *evsels;
	uint32_t nr_evsels, cap_evsels;
	uint8_t **owned;         /* allocations owned by evsels (ids, names, tails) */
	size_t nr_owned, cap_owned;
	/* id -> evsel index, open addressing; key 0 marks empty, id 0 kept aside */
	uint64_t *id_keys;
	uint32_t *id_vals;
	size_t id_cap, id_count;
	int32_t id_zero;         /* evsel idx of id 0, or -1 */
	/* position of IDENTIFIER/ID in samples and trailers, -1 if absent */
	int sample_id_pos;       /* in SAMPLE body, in u64 units after header */
	int trailer_id_pos;      /* from the end of non-sample records, in u64 units */
	bool id_layout_known;

	struct pdata_feat feat[HWPROF_FEAT_BITS];
	bool feat_present[HWPROF_FEAT_BITS];

	struct pdata_buf swapbuf; /* cross-endian: swapped copy of the current record */
};

/* Sets the handle's error (code, offset, printf message); returns -code. */
int pdata_error(struct hwprof_perfdata *h, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The file byte offset an error about a record names: record offsets in
 * pipe mode count from after the 16-byte pipe header (as perf's dump
 * prints them), a file offset does not. */
#define pdata_rec_off(h, rec_offset) ((rec_offset) + ((h)->info.pipe ? PDATA_PIPE_HEADER_SIZE : 0))

int pdata_add_evsel(struct hwprof_perfdata *h, const uint8_t *attr, uint32_t avail,
		    const uint8_t *ids, uint64_t nr_ids, uint64_t offset);
void pdata_set_evsel_name(struct hwprof_perfdata *h, uint64_t id, const char *name, size_t len);
void pdata_update_id_layout(struct hwprof_perfdata *h);
int pdata_keep(struct hwprof_perfdata *h, void *p);
void pdata_load_event_desc(struct hwprof_perfdata *h);

/* Cross-endian: write a host-order copy of rec into h->swapbuf. */
int pdata_swap_record(struct hwprof_perfdata *h, const uint8_t *src, uint32_t size, uint64_t offset);
/* Swap a record in place: to host order (to_host) or from it (for writing
 * other-endian test files). Layouts come from h's events. */
void pdata_swap_inplace(const struct hwprof_perfdata *h, uint8_t *rec, uint32_t size, bool to_host);
/* Swap an encoded perf_event_attr of `size` bytes in place. */
void pdata_attr_swap(uint8_t *attr, uint32_t size);

/* Whether a record points into a mapped input file (stable memory). */
bool pdata_record_in_map(const struct hwprof_perfdata *h, const struct hwprof_record *r);

/* COMPRESSED records (of the current source). */
int pdata_decomp_start(struct hwprof_perfdata *h, const uint8_t *rec, uint32_t size, uint64_t offset,
		       uint32_t type);
int pdata_decomp_next(struct hwprof_perfdata *h, struct hwprof_record *rec);
void pdata_decomp_free(struct pdata_decomp *d);

#endif
