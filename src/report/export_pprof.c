/* pprof's profile.proto, encoded by hand and gzipped with zlib. Field
 * numbers are those of the published schema (perftools.profiles.Profile).
 * One location and one function per profile frame (ids frame + 1), one
 * mapping per DSO, one sample per (thread, event, stack) with values
 * [samples/count, then one per event] and pid, tid and thread labels.
 * Locations carry no addresses: the mappings say their functions are
 * already known, so pprof does not try to symbolize. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hwprof/profile.h"
#include "report/report_int.h"

struct pb {
	uint8_t *b;
	size_t n, cap;
	bool oom;
};

static void pb_put(struct pb *p, const void *d, size_t n)
{
	if (p->oom || rpt_grow(&p->b, &p->cap, p->n + n, 1) < 0) {
		p->oom = true;
		return;
	}
	memcpy(p->b + p->n, d, n);
	p->n += n;
}

static void pb_varint(struct pb *p, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;
	do {
		t[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_put(p, t, n);
}

/* Field with wire type 0 (varint); zero values are left out as proto3 does. */
static void pb_uint(struct pb *p, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(p, (uint64_t)field << 3);
	pb_varint(p, v);
}

/* Field with wire type 2 (length-delimited). */
static void pb_bytes(struct pb *p, unsigned field, const void *d, size_t n)
{
	pb_varint(p, ((uint64_t)field << 3) | 2);
	pb_varint(p, n);
	pb_put(p, d, n);
}

static void pb_msg(struct pb *p, unsigned field, struct pb *sub)
{
	if (sub->oom)
		p->oom = true;
	pb_bytes(p, field, sub->b, sub->n);
	sub->n = 0;
}

struct strtab {
	struct rpt_map map;   /* string pointer -> index */
	struct pb out;        /* the string_table fields, in index order */
	uint32_t nr;
};

static int64_t str_idx(struct strtab *t, const char *s)
{
	uint32_t idx = t->nr;
	int r = rpt_map_get(&t->map, (uint64_t)(uintptr_t)s, 0, &idx, true);
	if (r < 0) {
		t->out.oom = true;
		return 0;
	}
	if (r == 0) {
		pb_bytes(&t->out, 6, s, strlen(s));
		t->nr++;
	}
	return idx;
}

static void value_type(struct pb *p, struct pb *sub, unsigned field, struct strtab *st, const char *type,
		       const char *unit)
{
	pb_uint(sub, 1, (uint64_t)str_idx(st, type));
	pb_uint(sub, 2, (uint64_t)str_idx(st, unit));
	pb_msg(p, field, sub);
}

static int gzip_out(const struct pb *a, const struct pb *b, FILE *f)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -HWPROF_E_NOMEM;
	uint8_t buf[65536];
	const struct pb *parts[2] = { a, b };
	int r = 0;
	for (int i = 0; i < 2 && !r; i++) {
		z.next_in = parts[i]->b;
		z.avail_in = (uInt)parts[i]->n;
		int flush = i == 1 ? Z_FINISH : Z_NO_FLUSH;
		int zr;
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			zr = deflate(&z, flush);
			if (zr == Z_STREAM_ERROR) {
				r = -HWPROF_E_IO;
				break;
			}
			size_t n = sizeof(buf) - z.avail_out;
			if (n && fwrite(buf, 1, n, f) != n) {
				r = -HWPROF_E_IO;
				break;
			}
		} while (z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	}
	deflateEnd(&z);
	if (!r && (fflush(f) || ferror(f)))
		r = -HWPROF_E_IO;
	return r;
}

HWPROF_API int hwprof_export_pprof(const struct hwprof_profile *p, FILE *f)
{
	struct strtab st;
	struct pb body = { 0 }, sub = { 0 }, sub2 = { 0 }, packed = { 0 };
	struct rpt_map maps = { 0 };   /* dso pointer -> mapping id */
	uint32_t nr_maps = 0;
	uint32_t ne = hwprof_profile_nr_events(p);
	int r = 0;
	memset(&st, 0, sizeof(st));
	str_idx(&st, "");       /* string_table[0] must be empty */

	value_type(&body, &sub, 1, &st, "samples", "count");
	for (uint32_t e = 0; e < ne; e++) {
		const struct hwprof_profile_event *ev = hwprof_profile_event(p, e);
		const char *type = ev->period_is_ns && !strcmp(ev->name, "cpu-clock") ? "cpu" : ev->name;
		value_type(&body, &sub, 1, &st, type, ev->period_is_ns ? "nanoseconds" : "count");
	}
	/* Samples. */
	uint32_t *frames = NULL;
	uint32_t cap = 0;
	for (uint32_t i = 0; i < hwprof_profile_nr_entries(p); i++) {
		const struct hwprof_profile_entry *en = hwprof_profile_entry(p, i);
		uint32_t d = hwprof_profile_stack_depth(p, en->stack);
		if (d > cap) {
			uint32_t *n = realloc(frames, d * sizeof(*n));
			if (!n) {
				r = -HWPROF_E_NOMEM;
				break;
			}
			frames = n;
			cap = d;
		}
		hwprof_profile_stack_frames(p, en->stack, frames, cap);
		for (uint32_t k = d; k-- > 0;) /* leaf first */
			pb_varint(&packed, (uint64_t)frames[k] + 1);
		pb_msg(&sub, 1, &packed);
		pb_varint(&packed, en->nr_samples);
		for (uint32_t e = 0; e < ne; e++)
			pb_varint(&packed, e == en->event ? en->weight : 0);
		pb_msg(&sub, 2, &packed);
		const struct hwprof_profile_thread *t = hwprof_profile_thread(p, en->thread);
		pb_uint(&sub2, 1, (uint64_t)str_idx(&st, "pid"));
		pb_uint(&sub2, 3, (uint64_t)(int64_t)t->pid);
		pb_msg(&sub, 3, &sub2);
		pb_uint(&sub2, 1, (uint64_t)str_idx(&st, "tid"));
		pb_uint(&sub2, 3, (uint64_t)(int64_t)t->tid);
		pb_msg(&sub, 3, &sub2);
		pb_uint(&sub2, 1, (uint64_t)str_idx(&st, "thread"));
		pb_uint(&sub2, 2, (uint64_t)str_idx(&st, t->comm));
		pb_msg(&sub, 3, &sub2);
		pb_msg(&body, 2, &sub);
	}
	free(frames);
	/* Mappings, locations and functions. */
	for (uint32_t i = 0; i < hwprof_profile_nr_frames(p) && !r; i++) {
		const struct hwprof_profile_frame *fr = hwprof_profile_frame(p, i);
		uint32_t mid = 0;
		if (fr->dso) {
			mid = nr_maps + 1;
			int g = rpt_map_get(&maps, (uint64_t)(uintptr_t)fr->dso, 0, &mid, true);
			if (g < 0) {
				r = g;
				break;
			}
			if (g == 0) {
				nr_maps++;
				pb_uint(&sub, 1, mid);
				pb_uint(&sub, 5, (uint64_t)str_idx(&st, fr->dso));
				pb_uint(&sub, 7, 1); /* has_functions */
				pb_msg(&body, 3, &sub);
			}
		}
		pb_uint(&sub, 1, (uint64_t)i + 1);
		pb_uint(&sub, 2, mid);
		pb_uint(&sub2, 1, (uint64_t)i + 1);
		pb_msg(&sub, 4, &sub2);
		pb_msg(&body, 4, &sub);
		pb_uint(&sub, 1, (uint64_t)i + 1);
		pb_uint(&sub, 2, (uint64_t)str_idx(&st, fr->label));
		pb_uint(&sub, 3, (uint64_t)str_idx(&st, fr->name));
		if (fr->dso)
			pb_uint(&sub, 4, (uint64_t)str_idx(&st, fr->dso));
		pb_msg(&body, 5, &sub);
	}
	uint64_t first, last;
	hwprof_profile_time_range(p, &first, &last);
	pb_uint(&body, 10, last - first);
	if (ne) {
		const struct hwprof_profile_event *ev = hwprof_profile_event(p, 0);
		const char *type = ev->period_is_ns && !strcmp(ev->name, "cpu-clock") ? "cpu" : ev->name;
		value_type(&body, &sub, 11, &st, type, ev->period_is_ns ? "nanoseconds" : "count");
		pb_uint(&body, 12, ev->nr_samples ? ev->weight / ev->nr_samples : 0);
		pb_uint(&body, 14, (uint64_t)str_idx(&st, type));
	}
	if (!r && (body.oom || sub.oom || sub2.oom || packed.oom || st.out.oom))
		r = -HWPROF_E_NOMEM;
	/* string_table is field 6; protobuf accepts fields in any order. */
	if (!r)
		r = gzip_out(&body, &st.out, f);
	free(body.b);
	free(sub.b);
	free(sub2.b);
	free(packed.b);
	free(st.out.b);
	rpt_map_free(&st.map);
	rpt_map_free(&maps);
	return r;
}
