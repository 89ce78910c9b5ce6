/* Arm SPE (Statistical Profiling Extension) packets: decoder, record
 * assembler, text descriptions and encoder.
 *
 *   hwprof_spe_pkt_decode()     one packet from a byte buffer (pure, no state)
 *   hwprof_spe_decoder_*()      iterate packets of a buffer, fold PAD runs,
 *                               step over garbage one byte at a time
 *   hwprof_spe_record_next()    packets -> records (split at END or TIMESTAMP)
 *   hwprof_spe_pkt_desc()       the text perf 6.1 `report -D` prints per packet
 *   hwprof_spe_writer_*(), hwprof_spe_put_*()   encode packets and records
 *
 * Nothing here allocates: the decoder and writer are caller-owned structs
 * (fields are private; use the functions). SPE data is little endian.
 * Semantics follow Debian perf 6.1 (the test oracle), including its quirks,
 * which are named where they matter.
 */
#ifndef HWPROF_ARM_SPE_H
#define HWPROF_ARM_SPE_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Packets ---------------------------------------------------------- */

enum hwprof_spe_pkt_type {
	HWPROF_SPE_BAD = 0,
	HWPROF_SPE_PAD,        /* 0x00, and the extended ALIGNMENT packet */
	HWPROF_SPE_END,        /* 0x01: end of record without timestamp */
	HWPROF_SPE_TIMESTAMP,  /* 0x71: 8-byte timestamp, ends a record */
	HWPROF_SPE_ADDRESS,    /* 0xb0-0xb7 (+extended): index = address kind */
	HWPROF_SPE_COUNTER,    /* 0x98-0x9f (+extended): index = counter kind */
	HWPROF_SPE_CONTEXT,    /* 0x64-0x67: index 0 CONTEXTIDR_EL1, 1 _EL2 */
	HWPROF_SPE_OP_TYPE,    /* 0x48-0x4b: index = operation class */
	HWPROF_SPE_EVENTS,     /* 0x42/52/62/72: index = payload bytes */
	HWPROF_SPE_DATA_SOURCE,/* 0x43/53/63/73 */
};

/* ADDRESS packet index. */
enum {
	HWPROF_SPE_ADDR_INS = 0,         /* PC of the sampled instruction */
	HWPROF_SPE_ADDR_BRANCH = 1,      /* branch target */
	HWPROF_SPE_ADDR_DATA_VIRT = 2,   /* data virtual address (+tag) */
	HWPROF_SPE_ADDR_DATA_PHYS = 3,   /* data physical address */
	HWPROF_SPE_ADDR_PREV_BRANCH = 4, /* previous branch target (SPEv1p2) */
};

/* COUNTER packet index. */
enum {
	HWPROF_SPE_CNT_TOTAL = 0,        /* total latency, cycles */
	HWPROF_SPE_CNT_ISSUE = 1,        /* issue latency */
	HWPROF_SPE_CNT_TRANSLATION = 2,  /* translation latency */
};

/* OP_TYPE packet class (index). */
enum {
	HWPROF_SPE_OP_CLASS_OTHER = 0,
	HWPROF_SPE_OP_CLASS_LDST = 1,    /* load, store, atomic */
	HWPROF_SPE_OP_CLASS_BRANCH = 2,  /* branch or exception return */
};

/* EVENTS bits (architectural; bit numbers of the EVENTS payload). */
enum {
	HWPROF_SPE_EV_EXCEPTION_GEN = 0,
	HWPROF_SPE_EV_RETIRED = 1,
	HWPROF_SPE_EV_L1D_ACCESS = 2,
	HWPROF_SPE_EV_L1D_REFILL = 3,
	HWPROF_SPE_EV_TLB_ACCESS = 4,
	HWPROF_SPE_EV_TLB_WALK = 5,      /* "TLB-REFILL" */
	HWPROF_SPE_EV_NOT_TAKEN = 6,
	HWPROF_SPE_EV_MISPRED = 7,
	HWPROF_SPE_EV_LLC_ACCESS = 8,
	HWPROF_SPE_EV_LLC_MISS = 9,      /* "LLC-REFILL" */
	HWPROF_SPE_EV_REMOTE_ACCESS = 10,
	HWPROF_SPE_EV_ALIGNMENT = 11,
	HWPROF_SPE_EV_TXN = 16,          /* FEAT_TME (perf 6.1 does not print it) */
	HWPROF_SPE_EV_PARTIAL_PRED = 17,
	HWPROF_SPE_EV_EMPTY_PRED = 18,
	HWPROF_SPE_EV_L2D_ACCESS = 19,   /* SPEv1p4, not printed by perf 6.1 */
	HWPROF_SPE_EV_L2D_MISS = 20,
	HWPROF_SPE_EV_CACHE_DATA_MODIFIED = 21,
	HWPROF_SPE_EV_RECENTLY_FETCHED = 22,
	HWPROF_SPE_EV_DATA_SNOOPED = 23,
};

/* One decoded packet. */
struct hwprof_spe_pkt {
	uint8_t type;          /* enum hwprof_spe_pkt_type */
	uint8_t index;         /* see the type's comment above; 0 otherwise */
	uint8_t len;           /* bytes taken from the buffer, headers included */
	uint8_t hdr_len;       /* 1, or 2 for the extended header form */
	uint64_t payload;      /* little-endian payload, zero-extended */
	uint64_t offset;       /* where it starts (set by the decoder iterator) */
};

/* Decodes one packet at buf. `addr` is the address perf would see for buf[0]
 * (only its low 4 bits matter): perf sizes an ALIGNMENT packet from the
 * memory address of the buffer, so pass the file offset of the byte when
 * mimicking perf on an mmapped perf.data, or 0.
 * Does not fold PAD runs. Returns the packet length (>= 1),
 * -HWPROF_E_BAD_PACKET for an unknown header, -HWPROF_E_NEED_MORE if the
 * packet runs past buf+len (or len == 0), -HWPROF_E_INVAL for NULL. */
HWPROF_API int hwprof_spe_pkt_decode(const void *buf, size_t len, uint64_t addr,
				     struct hwprof_spe_pkt *pkt);

/* Iterator over a buffer. Private fields; set up with hwprof_spe_decoder_init. */
struct hwprof_spe_decoder {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	uint64_t addr;            /* address of buf[0], see hwprof_spe_pkt_decode */
	struct hwprof_error err;  /* last failure */
};

HWPROF_API void hwprof_spe_decoder_init(struct hwprof_spe_decoder *dec, const void *buf,
					size_t len, uint64_t addr);

/* Next packet, perf style: a PAD (or ALIGNMENT) swallows the 0x00 bytes that
 * follow it, up to 16 bytes in all. Returns 1 with *pkt filled, 0 at the end,
 * or -HWPROF_E_BAD_PACKET / -HWPROF_E_NEED_MORE: then pkt->type is
 * HWPROF_SPE_BAD, pkt->len 1, pkt->offset where, the decoder has stepped one
 * byte past it (perf's resync) and the next call continues there. */
HWPROF_API int hwprof_spe_decoder_next(struct hwprof_spe_decoder *dec, struct hwprof_spe_pkt *pkt);

/* Current offset in the buffer. */
HWPROF_API size_t hwprof_spe_decoder_offset(const struct hwprof_spe_decoder *dec);
HWPROF_API const struct hwprof_error *hwprof_spe_decoder_error(const struct hwprof_spe_decoder *dec);

/* Address helpers (payload of an ADDRESS packet). */
#define HWPROF_SPE_ADDR_VA(p)   ((uint64_t)((p) & 0x00ffffffffffffffULL)) /* bits 55:0 */
#define HWPROF_SPE_ADDR_EL(p)   ((unsigned)(((p) >> 61) & 3))   /* INS/BRANCH/PBT */
#define HWPROF_SPE_ADDR_NS(p)   ((unsigned)((p) >> 63))         /* INS/BRANCH/PBT/PA */
#define HWPROF_SPE_ADDR_CH(p)   ((unsigned)(((p) >> 62) & 1))   /* PA: checked */
#define HWPROF_SPE_ADDR_PAT(p)  ((unsigned)(((p) >> 56) & 0xf)) /* PA: MTE tag */
#define HWPROF_SPE_ADDR_TAG(p)  ((unsigned)((p) >> 56))         /* VA: top-byte tag */

/* The address perf 6.1 derives from an ADDRESS payload (its calc_ip): INS
 * and BRANCH drop the top byte and set it to 0xff for NS EL1/EL2; VA drops
 * the tag and sets 0xff when bits 55:52 are 0xf; PA keeps bits 55:0.
 * Other indexes: payload unchanged. */
HWPROF_API uint64_t hwprof_spe_addr_value(unsigned index, uint64_t payload);

/* ---- Descriptions ----------------------------------------------------- */

/* Writes the text perf 6.1 prints for a packet ("PC 0x... el0 ns=1",
 * "EV RETIRED", "LAT 5 ISSUE", "ADDR 0x... (4)" for unknown indexes...).
 * Always NUL-terminates when size > 0. Returns the length of the full text
 * (like snprintf), -HWPROF_E_INVAL for NULL or an unknown type. */
HWPROF_API int hwprof_spe_pkt_desc(const struct hwprof_spe_pkt *pkt, char *buf, size_t size);

/* ---- Records ---------------------------------------------------------- */

/* What a record holds (bits of hwprof_spe_record.present). */
enum {
	HWPROF_SPE_HAS_PC = 1u << 0,
	HWPROF_SPE_HAS_TARGET = 1u << 1,
	HWPROF_SPE_HAS_VA = 1u << 2,
	HWPROF_SPE_HAS_PA = 1u << 3,
	HWPROF_SPE_HAS_PREV_BRANCH = 1u << 4,
	HWPROF_SPE_HAS_LAT_TOTAL = 1u << 5,
	HWPROF_SPE_HAS_LAT_ISSUE = 1u << 6,
	HWPROF_SPE_HAS_LAT_XLAT = 1u << 7,
	HWPROF_SPE_HAS_EVENTS = 1u << 8,
	HWPROF_SPE_HAS_OP = 1u << 9,
	HWPROF_SPE_HAS_DATA_SOURCE = 1u << 10,
	HWPROF_SPE_HAS_CONTEXT = 1u << 11,
	HWPROF_SPE_HAS_TIMESTAMP = 1u << 12,
};

/* How a record ended. */
enum {
	HWPROF_SPE_REC_END = 1,        /* END packet (no timestamp) */
	HWPROF_SPE_REC_TIMESTAMP = 2,  /* TIMESTAMP packet */
	HWPROF_SPE_REC_TRUNCATED = 3,  /* buffer ended first (perf drops these) */
};

/* One SPE record (one sampled operation). Addresses are as perf 6.1 uses
 * them (hwprof_spe_addr_value); the raw bits are kept alongside. When a
 * packet repeats in a record, the last one wins (as in perf). */
struct hwprof_spe_record {
	uint64_t offset;          /* buffer offset of the first packet */
	uint64_t size;            /* bytes up to and including the END/TS */
	uint32_t present;         /* HWPROF_SPE_HAS_* */
	uint8_t end;              /* HWPROF_SPE_REC_* */
	uint8_t pc_el, pc_ns;     /* exception level and NS bit of the PC */
	uint8_t target_el, target_ns;
	uint8_t va_tag;           /* VA bits 63:56 */
	uint8_t pa_ns, pa_ch, pa_pat;
	uint8_t op_class;         /* HWPROF_SPE_OP_CLASS_* (3 = unknown) */
	uint8_t op;               /* OP_TYPE payload */
	uint8_t context_el;       /* CONTEXT index: 0 = EL1, 1 = EL2 */
	uint64_t pc;
	uint64_t target;
	uint64_t prev_branch;     /* bits 55:0 */
	uint64_t va;
	uint64_t pa;
	uint64_t events;          /* EVENTS payload, bit n = HWPROF_SPE_EV_* n */
	uint64_t timestamp;       /* TS payload, 0 if none */
	uint64_t context_id;      /* (uint64_t)-1 if none, as in perf */
	uint16_t lat_total, lat_issue, lat_xlat;
	uint16_t data_source;     /* DATA_SOURCE payload (perf keeps 16 bits) */
	uint8_t ldst_seen;        /* perf 6.1 op bits: bit 0 load (or SVE other), bit 1
	                           * store (perf 6.1 ORs them; set by the sample
	                           * synthesizer's assembler, 0 elsewhere) */
};

/* Next record. Returns 1 with *rec filled, 0 at the end of the buffer (no
 * more packets), or a negative error: a bad or cut packet throws away the
 * record being built (as perf 6.1 does), the decoder steps one byte past
 * the bad byte, its error names the offset, and the next call starts a
 * fresh record there. A record cut by the buffer end comes back with
 * end == HWPROF_SPE_REC_TRUNCATED (perf ignores those). */
HWPROF_API int hwprof_spe_record_next(struct hwprof_spe_decoder *dec, struct hwprof_spe_record *rec);

/* Empty record: context_id = -1, everything else 0. */
HWPROF_API void hwprof_spe_record_init(struct hwprof_spe_record *rec);

/* ---- Encoder ---------------------------------------------------------- */

/* Output buffer. Private fields; set up with hwprof_spe_writer_init. A
 * writer that ran out of room stays failed (err = -HWPROF_E_NOMEM) and
 * writes nothing more, so callers may check once at the end. */
struct hwprof_spe_writer {
	uint8_t *buf;
	size_t cap;
	size_t pos;
	int err;
};

HWPROF_API void hwprof_spe_writer_init(struct hwprof_spe_writer *w, void *buf, size_t cap);
/* Bytes written so far, or the writer's error (negative). */
HWPROF_API long hwprof_spe_writer_len(const struct hwprof_spe_writer *w);

/* Writes one packet. For ADDRESS and COUNTER an index above 7 uses the
 * extended 2-byte header. payload_len (1, 2, 4, 8) applies to EVENTS and
 * DATA_SOURCE; other types have a fixed size and ignore it. PAD writes one
 * 0x00, END one 0x01. Returns bytes written or -HWPROF_E_NOMEM /
 * -HWPROF_E_INVAL (unknown type, bad size or index). */
HWPROF_API int hwprof_spe_put_packet(struct hwprof_spe_writer *w, unsigned type, unsigned index,
				     uint64_t payload, unsigned payload_len);

/* ADDRESS payload builders. */
HWPROF_API uint64_t hwprof_spe_addr_ins(uint64_t va, unsigned el, unsigned ns);
HWPROF_API uint64_t hwprof_spe_addr_pa(uint64_t pa, unsigned ns, unsigned ch, unsigned pat);

/* Writes a record's packets in the order real hardware uses: PC, issue
 * latency, EVENTS, OP_TYPE, VA, translation latency, PA, total latency,
 * DATA_SOURCE, CONTEXT, target, previous branch, then TIMESTAMP if present
 * else END. Only fields flagged in rec->present are written; addresses are
 * taken from pc/target/va/pa with the *_el/_ns/tag/pat fields. EVENTS use
 * the smallest payload that holds rec->events. Returns bytes written or a
 * negative error. */
HWPROF_API int hwprof_spe_put_record(struct hwprof_spe_writer *w, const struct hwprof_spe_record *rec);

/* OP_TYPE payloads for common operations (class in the comment). */
#define HWPROF_SPE_OP_LD_GP       0x00  /* LDST: load to general registers */
#define HWPROF_SPE_OP_ST_GP       0x01  /* LDST: store */
#define HWPROF_SPE_OP_LD_SIMD     0x04  /* LDST: SIMD&FP load */
#define HWPROF_SPE_OP_ST_SIMD     0x05  /* LDST: SIMD&FP store */
#define HWPROF_SPE_OP_LD_EXCL     0x0a  /* LDST: load exclusive */
#define HWPROF_SPE_OP_ST_EXCL     0x0b  /* LDST: store exclusive */
#define HWPROF_SPE_OP_LD_SVE(evl_code, pred) (0x08 | ((evl_code) << 4) | ((pred) ? 4 : 0))
#define HWPROF_SPE_OP_BR          0x00  /* BRANCH: unconditional direct */
#define HWPROF_SPE_OP_BR_COND     0x01  /* BRANCH: conditional */
#define HWPROF_SPE_OP_BR_IND      0x02  /* BRANCH: indirect */
#define HWPROF_SPE_OP_OTHER       0x00  /* OTHER: other instruction */
#define HWPROF_SPE_OP_COND_SELECT 0x01  /* OTHER: conditional select */
/* OTHER: SVE/SIMD data processing; EVLEN = 32 << evl_code bits. */
#define HWPROF_SPE_OP_SVE_OTHER(evl_code, fp, pred) \
	(0x08 | ((evl_code) << 4) | ((fp) ? 2 : 0) | ((pred) ? 4 : 0))

#ifdef __cplusplus
}
#endif
#endif
