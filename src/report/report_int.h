/* Internals shared by the profile model and its exporters: a hash map from
 * two-word keys to indexes, growable arrays, text escaping for JSON and
 * XML output, and a disk spool that regroups a sample stream by lane. */
#ifndef HWPROF_REPORT_INT_H
#define HWPROF_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Open-addressing map (k1, k2) -> u32. */
struct rpt_map {
	struct rpt_slot { uint64_t k1, k2; uint32_t val, used; } *slots;
	size_t cap, len;
};
/* Finds the key; if absent, inserts it with *val (when insert) . Returns
 * 1 found (*val set), 0 inserted/absent, < 0 on allocation failure. */
int rpt_map_get(struct rpt_map *m, uint64_t k1, uint64_t k2, uint32_t *val, bool insert);
void rpt_map_free(struct rpt_map *m);

/* Grows *arr (element size es) to hold at least n elements. */
int rpt_grow(void *arr, size_t *cap, size_t n, size_t es);

/* A 64-bit finalizer (murmur3's): spreads every input bit. */
uint64_t rpt_mix64(uint64_t x);
uint64_t rpt_hash_bytes(const void *p, size_t n);

/* Interned NUL-terminated strings: equal strings get one pointer. */
struct rpt_strings {
	struct rpt_map map;
	char **strs;
	size_t nr, cap;
};
const char *rpt_intern(struct rpt_strings *t, const char *s);
void rpt_strings_free(struct rpt_strings *t);

/* Text output. rpt_json_str writes a quoted JSON string (invalid UTF-8
 * bytes become U+FFFD); rpt_xml_text escapes for XML text and attributes,
 * at most max bytes of s (0: all). */
void rpt_json_str(FILE *f, const char *s);
void rpt_xml_text(FILE *f, const char *s, size_t max);
/* Basename of a path ("" for NULL). */
const char *rpt_basename(const char *path);

/* Spool: records {lane, a, b, c} appended in any lane order, read back
 * lane by lane in append order. Buffers a few records per lane and the
 * rest in an unlinked temporary file. */
struct rpt_spool_rec { uint32_t lane, a; uint64_t b, c; };
struct rpt_spool;
int rpt_spool_create(struct rpt_spool **out);
int rpt_spool_add(struct rpt_spool *sp, const struct rpt_spool_rec *r);
uint32_t rpt_spool_nr_lanes(const struct rpt_spool *sp);
/* Calls fn for each record of lane in order; stops on a negative return. */
int rpt_spool_read(struct rpt_spool *sp, uint32_t lane,
		   int (*fn)(void *ctx, const struct rpt_spool_rec *r), void *ctx);
void rpt_spool_free(struct rpt_spool *sp);

#endif
