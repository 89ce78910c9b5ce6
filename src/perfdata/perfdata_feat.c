/* Decoding of perf.data header feature payloads into struct hwprof_feat.
 * Reads go through a cursor that checks every length against the bytes
 * left in the section; arrays are sized from counts only after checking the
 * count against those bytes, so input can never make us allocate more than
 * a small multiple of the section itself. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/perfdata.h"
#include "hwprof/perfdata_feat.h"
#include "util/bytes.h"

static const char *const feat_names[HWPROF_FEAT_LAST] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
	"NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
	"BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

HWPROF_API const char *hwprof_feat_name(unsigned feat)
{
	return feat < HWPROF_FEAT_LAST ? feat_names[feat] : NULL;
}

static const char *feat_label(unsigned feat)
{
	const char *n = hwprof_feat_name(feat);
	return n ? n : "unknown";
}

/* Every allocation is a block on this list, freed together. */
struct blk { struct blk *next; max_align_t data[]; };

struct cur {
	const uint8_t *p;
	uint64_t size, pos;
	int swap;
	unsigned feat;
	struct blk *blocks;
	struct hwprof_error *err;
	int failed;              /* first error code (negative) */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct cur *c, int code, const char *fmt, ...)
{
	if (c->failed)
		return c->failed;
	c->failed = -code;
	if (c->err) {
		char what[160];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		c->err->code = -code;
		c->err->offset = c->pos;
		snprintf(c->err->msg, sizeof(c->err->msg), "%s feature, offset 0x%llx in section: %s",
			 feat_label(c->feat), (unsigned long long)c->pos, what);
	}
	return -code;
}

static uint64_t left(const struct cur *c) { return c->size - c->pos; }

static int need(struct cur *c, uint64_t n, const char *what)
{
	if (n > left(c))
		return fail(c, HWPROF_E_TRUNCATED, "%s needs %llu bytes, %llu left", what,
			    (unsigned long long)n, (unsigned long long)left(c));
	return 0;
}

static int u32_(struct cur *c, uint32_t *v, const char *what)
{
	if (need(c, 4, what))
		return c->failed;
	*v = ld32s(c->p + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

static int u64_(struct cur *c, uint64_t *v, const char *what)
{
	if (need(c, 8, what))
		return c->failed;
	*v = ld64s(c->p + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

static void *alloc(struct cur *c, uint64_t bytes)
{
	if (bytes > SIZE_MAX - sizeof(struct blk) - 1) {
		fail(c, HWPROF_E_NOMEM, "allocation of %llu bytes", (unsigned long long)bytes);
		return NULL;
	}
	struct blk *b = calloc(1, sizeof(*b) + (size_t)bytes + 1);
	if (!b) {
		fail(c, HWPROF_E_NOMEM, "allocation of %llu bytes", (unsigned long long)bytes);
		return NULL;
	}
	b->next = c->blocks;
	c->blocks = b;
	return b->data;
}

/* An array of n elements, each taking at least min_bytes of the payload:
 * refused before allocating when the payload cannot hold them. */
static void *array(struct cur *c, uint64_t n, size_t elem, uint64_t min_bytes, const char *what)
{
	if (min_bytes && n > left(c) / min_bytes)
		return fail(c, HWPROF_E_CORRUPT, "%s count %llu does not fit in %llu bytes", what,
			    (unsigned long long)n, (unsigned long long)left(c)), NULL;
	if (!n)
		return alloc(c, 0);
	return alloc(c, n * elem);
}

/* perf's string: u32 len, then len bytes holding a NUL-padded string. */
static int str_(struct cur *c, const char **out, const char *what)
{
	uint32_t len;
	if (u32_(c, &len, what))
		return c->failed;
	if (need(c, len, what))
		return c->failed;
	const uint8_t *s = c->p + c->pos;
	const uint8_t *nul = memchr(s, 0, len);
	size_t n = nul ? (size_t)(nul - s) : len;
	char *copy = alloc(c, n);
	if (!copy)
		return c->failed;
	memcpy(copy, s, n);
	copy[n] = 0;
	c->pos += len;
	*out = copy;
	return 0;
}

/* u32 count followed by count strings. Each string takes >= 4 bytes. */
static int str_list(struct cur *c, uint32_t *nr, const char ***list, const char *what)
{
	if (u32_(c, nr, what))
		return c->failed;
	const char **l = array(c, *nr, sizeof(*l), 4, what);
	if (!l)
		return c->failed;
	for (uint32_t i = 0; i < *nr; i++)
		if (str_(c, &l[i], what))
			return c->failed;
	*list = l;
	return 0;
}

/* ---- per-feature decoders ------------------------------------------------ */

static int p_event_desc(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr, sz;
	if (u32_(c, &nr, "nr_events") || u32_(c, &sz, "attr_size"))
		return c->failed;
	if (sz < HWPROF_ATTR_SIZE_VER0)
		return fail(c, HWPROF_E_CORRUPT, "attr size %u is below the smallest (64)", sz);
	/* each event: attr + u32 nr_ids + string (>= 4) */
	struct hwprof_feat_event *ev = array(c, nr, sizeof(*ev), (uint64_t)sz + 8, "events");
	if (!ev)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++) {
		uint8_t tmp[HWPROF_ATTR_SIZE_VER10] = { 0 };
		if (need(c, sz, "attr"))
			return c->failed;
		uint32_t take = sz < sizeof(tmp) ? sz : (uint32_t)sizeof(tmp);
		memcpy(tmp, c->p + c->pos, take);
		hwprof_attr_decode(&ev[i].attr, tmp, take, c->swap);
		c->pos += sz;
		if (u32_(c, &ev[i].nr_ids, "nr_ids") || str_(c, &ev[i].name, "event name"))
			return c->failed;
		uint64_t *ids = array(c, ev[i].nr_ids, 8, 8, "ids");
		if (!ids)
			return c->failed;
		for (uint32_t j = 0; j < ev[i].nr_ids; j++)
			u64_(c, &ids[j], "id");
		ev[i].ids = ids;
	}
	f->u.event_desc.nr = nr;
	f->u.event_desc.attr_size = sz;
	f->u.event_desc.events = ev;
	return c->failed;
}

/* Optional parts (per-cpu ids, dies) exist only if the section goes on:
 * older perf versions stop after the sibling lists. */
static int p_cpu_topology(struct cur *c, struct hwprof_feat *f, uint32_t nr_cpus)
{
	struct hwprof_feat_cpu_topology *t = &f->u.cpu_topology;
	if (str_list(c, &t->nr_core_sibs, &t->core_sibs, "core siblings") ||
	    str_list(c, &t->nr_thread_sibs, &t->thread_sibs, "thread siblings"))
		return c->failed;
	if (!left(c))
		return 0;
	t->cpus = array(c, nr_cpus, sizeof(*t->cpus), 8, "cpus (nr_cpus_avail)");
	if (!t->cpus)
		return c->failed;
	t->nr_cpus = nr_cpus;
	for (uint32_t i = 0; i < nr_cpus; i++)
		if (u32_(c, &t->cpus[i].core_id, "core_id") || u32_(c, &t->cpus[i].socket_id, "socket_id"))
			return c->failed;
	t->has_cpus = true;
	if (!left(c))
		return 0;
	if (str_list(c, &t->nr_die_sibs, &t->die_sibs, "die siblings"))
		return c->failed;
	if (nr_cpus > left(c) / 4)
		return need(c, (uint64_t)nr_cpus * 4, "die ids");
	for (uint32_t i = 0; i < nr_cpus; i++)
		u32_(c, &t->cpus[i].die_id, "die_id");
	t->has_dies = true;
	return c->failed;
}

static int p_numa(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "nr_nodes"))
		return c->failed;
	struct hwprof_feat_numa_node *n = array(c, nr, sizeof(*n), 24, "numa nodes");
	if (!n)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (u32_(c, &n[i].node, "node") || u64_(c, &n[i].mem_total, "mem_total") ||
		    u64_(c, &n[i].mem_free, "mem_free") || str_(c, &n[i].cpus, "cpus"))
			return c->failed;
	f->u.numa.nr = nr;
	f->u.numa.nodes = n;
	return 0;
}

static int p_pmu_mappings(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "nr_pmus"))
		return c->failed;
	struct hwprof_feat_pmu_map *m = array(c, nr, sizeof(*m), 8, "pmus");
	if (!m)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (u32_(c, &m[i].type, "type") || str_(c, &m[i].name, "pmu name"))
			return c->failed;
	f->u.pmu_mappings.nr = nr;
	f->u.pmu_mappings.pmus = m;
	return 0;
}

static int p_group_desc(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "nr_groups"))
		return c->failed;
	struct hwprof_feat_group *g = array(c, nr, sizeof(*g), 12, "groups");
	if (!g)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (str_(c, &g[i].name, "group name") || u32_(c, &g[i].leader_idx, "leader_idx") ||
		    u32_(c, &g[i].nr_members, "nr_members"))
			return c->failed;
	f->u.group_desc.nr = nr;
	f->u.group_desc.groups = g;
	return 0;
}

static int p_auxtrace(struct cur *c, struct hwprof_feat *f)
{
	uint64_t nr;
	if (u64_(c, &nr, "nr entries"))
		return c->failed;
	struct hwprof_feat_aux_entry *e = array(c, nr, sizeof(*e), 16, "auxtrace index entries");
	if (!e)
		return c->failed;
	for (uint64_t i = 0; i < nr; i++) {
		u64_(c, &e[i].offset, "offset");
		u64_(c, &e[i].size, "size");
	}
	f->u.auxtrace.nr = nr;
	f->u.auxtrace.entries = e;
	return c->failed;
}

static int p_cache(struct cur *c, struct hwprof_feat *f)
{
	uint32_t version, nr;
	if (u32_(c, &version, "version"))
		return c->failed;
	if (version != 1)
		return c->pos -= 4, fail(c, HWPROF_E_CORRUPT, "cache version %u (only 1 is known)", version);
	if (u32_(c, &nr, "nr caches"))
		return c->failed;
	struct hwprof_feat_cache *k = array(c, nr, sizeof(*k), 28, "caches");
	if (!k)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (u32_(c, &k[i].level, "level") || u32_(c, &k[i].line_size, "line_size") ||
		    u32_(c, &k[i].sets, "sets") || u32_(c, &k[i].ways, "ways") ||
		    str_(c, &k[i].type, "type") || str_(c, &k[i].size, "size") ||
		    str_(c, &k[i].map, "map"))
			return c->failed;
	f->u.cache.version = version;
	f->u.cache.nr = nr;
	f->u.cache.caches = k;
	return 0;
}

static int p_mem_topology(struct cur *c, struct hwprof_feat *f)
{
	uint64_t version, bsize, nr;
	if (u64_(c, &version, "version"))
		return c->failed;
	if (version != 1)
		return c->pos -= 8, fail(c, HWPROF_E_CORRUPT, "mem topology version %llu (only 1 is known)",
					 (unsigned long long)version);
	if (u64_(c, &bsize, "block_size") || u64_(c, &nr, "nr nodes"))
		return c->failed;
	struct hwprof_feat_mem_node *n = array(c, nr, sizeof(*n), 24, "memory nodes");
	if (!n)
		return c->failed;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t size, nbits;
		if (u64_(c, &n[i].node, "node") || u64_(c, &size, "size") || u64_(c, &nbits, "bitmap size"))
			return c->failed;
		uint64_t words = nbits / 64 + (nbits % 64 != 0);
		uint64_t *w = array(c, words, 8, 8, "bitmap words");
		if (!w)
			return c->failed;
		for (uint64_t j = 0; j < words; j++)
			u64_(c, &w[j], "bitmap word");
		n[i].nbits = nbits;
		n[i].bits = w;
	}
	f->u.mem_topology.version = version;
	f->u.mem_topology.block_size = bsize;
	f->u.mem_topology.nr = nr;
	f->u.mem_topology.nodes = n;
	return c->failed;
}

/* struct bpf_prog_info offsets (uapi) of what perf's listing uses; a
 * shorter info_len reads as zeros past its end, as perf pads it */
enum {
	BPI_NAME = 64, BPI_NR_JITED_KSYMS = 104, BPI_NR_JITED_FUNC_LENS = 108, BPI_JITED_KSYMS = 112,
	BPI_JITED_FUNC_LENS = 120, BPI_BTF_ID = 128, BPI_FUNC_INFO_REC_SIZE = 132, BPI_FUNC_INFO = 136,
	BPI_NR_FUNC_INFO = 144, BPI_NR_PROG_TAGS = 180, BPI_PROG_TAGS = 184,
};
/* perf's bpil `arrays` bits: which info fields are offsets into data */
enum { BPIL_JITED_KSYMS = 3, BPIL_JITED_FUNC_LENS = 4, BPIL_FUNC_INFO = 5, BPIL_PROG_TAGS = 8 };

static uint64_t info_u(const uint8_t *info, uint32_t info_len, uint32_t off, unsigned bytes, int swap)
{
	if (off + bytes > info_len)
		return 0;
	return bytes == 4 ? ld32s(info + off, swap) : ld64s(info + off, swap);
}

/* Where array `bit` (n elements of `elem` bytes) lies in data, or NULL. */
static const uint8_t *bpil_array(const struct hwprof_feat_bpf_prog *b, const uint8_t *info, const uint8_t *data,
				 int bit, uint32_t off_field, uint64_t n, uint64_t elem, int swap)
{
	if (!n)
		return data;
	if (!(b->arrays & (1ULL << bit)))
		return NULL;
	uint64_t off = info_u(info, b->info_len, off_field, 8, swap);
	if (off > b->data_len || n > (b->data_len - off) / elem)
		return NULL;
	return data + off;
}

static int bpf_subs(struct cur *c, struct hwprof_feat_bpf_prog *b, const uint8_t *info, const uint8_t *data)
{
	int sw = c->swap;
	memcpy(b->name, info + BPI_NAME, b->info_len >= BPI_NAME + 16 ? 16 : 0);
	b->btf_id = (uint32_t)info_u(info, b->info_len, BPI_BTF_ID, 4, sw);
	uint32_t n = (uint32_t)info_u(info, b->info_len, BPI_NR_JITED_KSYMS, 4, sw);
	if (n != info_u(info, b->info_len, BPI_NR_PROG_TAGS, 4, sw) ||
	    n != info_u(info, b->info_len, BPI_NR_JITED_FUNC_LENS, 4, sw))
		return 0;
	const uint8_t *ks = bpil_array(b, info, data, BPIL_JITED_KSYMS, BPI_JITED_KSYMS, n, 8, sw);
	const uint8_t *lens = bpil_array(b, info, data, BPIL_JITED_FUNC_LENS, BPI_JITED_FUNC_LENS, n, 4, sw);
	const uint8_t *tags = bpil_array(b, info, data, BPIL_PROG_TAGS, BPI_PROG_TAGS, n, 8, sw);
	uint32_t rec = (uint32_t)info_u(info, b->info_len, BPI_FUNC_INFO_REC_SIZE, 4, sw);
	uint32_t nfi = (uint32_t)info_u(info, b->info_len, BPI_NR_FUNC_INFO, 4, sw);
	const uint8_t *fi = rec >= 8 ? bpil_array(b, info, data, BPIL_FUNC_INFO, BPI_FUNC_INFO, nfi, rec, sw) : NULL;
	if (!ks || !lens || !tags)
		return 0;
	b->subs = array(c, n, sizeof(*b->subs), 0, "bpf sub-programs");
	if (!b->subs)
		return c->failed;
	for (uint32_t i = 0; i < n; i++) {
		b->subs[i].addr = ld64s(ks + 8 * i, sw);
		b->subs[i].len = ld32s(lens + 4 * i, sw);
		memcpy(b->subs[i].tag, tags + 8 * i, 8);
		if (fi && i < nfi) /* struct bpf_func_info { u32 insn_off, type_id; } */
			b->subs[i].func_type_id = ld32s(fi + (uint64_t)rec * i + 4, sw);
	}
	b->nr_subs = n;
	b->listed = true;
	return 0;
}

static int p_bpf_prog_info(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "count"))
		return c->failed;
	struct hwprof_feat_bpf_prog *b = array(c, nr, sizeof(*b), 16, "bpf programs");
	if (!b)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++) {
		if (u32_(c, &b[i].info_len, "info_len") || u32_(c, &b[i].data_len, "data_len") ||
		    u64_(c, &b[i].arrays, "arrays"))
			return c->failed;
		if (need(c, (uint64_t)b[i].info_len + b[i].data_len, "bpf_prog_info and data"))
			return c->failed;
		const uint8_t *info = c->p + c->pos;
		if (b[i].info_len >= 8) {
			b[i].type = ld32s(info, c->swap);
			b[i].id = ld32s(info + 4, c->swap);
		}
		if (bpf_subs(c, &b[i], info, info + b[i].info_len))
			return c->failed;
		c->pos += (uint64_t)b[i].info_len + b[i].data_len;
	}
	f->u.bpf_prog_info.nr = nr;
	f->u.bpf_prog_info.progs = b;
	return 0;
}

static int p_bpf_btf(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "count"))
		return c->failed;
	struct hwprof_feat_btf *b = array(c, nr, sizeof(*b), 8, "btf entries");
	if (!b)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++) {
		if (u32_(c, &b[i].id, "id") || u32_(c, &b[i].data_size, "data_size") ||
		    need(c, b[i].data_size, "btf data"))
			return c->failed;
		b[i].data = c->p + c->pos;
		c->pos += b[i].data_size;
	}
	f->u.bpf_btf.nr = nr;
	f->u.bpf_btf.btfs = b;
	return 0;
}

static int p_caps(struct cur *c, struct hwprof_feat_caps *k, bool with_pmu)
{
	if (u32_(c, &k->nr, "nr_caps"))
		return c->failed;
	k->names = array(c, k->nr, sizeof(char *), 8, "capabilities");
	if (!k->names)
		return c->failed;
	k->values = alloc(c, (uint64_t)k->nr * sizeof(char *));
	if (!k->values)
		return c->failed;
	for (uint32_t i = 0; i < k->nr; i++)
		if (str_(c, &k->names[i], "capability name") || str_(c, &k->values[i], "capability value"))
			return c->failed;
	if (with_pmu)
		return str_(c, &k->pmu, "pmu name");
	return 0;
}

static int p_pmu_caps(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "nr_pmus"))
		return c->failed;
	struct hwprof_feat_caps *k = array(c, nr, sizeof(*k), 8, "pmus");
	if (!k)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (p_caps(c, &k[i], true))
			return c->failed;
	f->u.pmu_caps.nr = nr;
	f->u.pmu_caps.pmus = k;
	return 0;
}

static int p_hybrid(struct cur *c, struct hwprof_feat *f)
{
	uint32_t nr;
	if (u32_(c, &nr, "nr_nodes"))
		return c->failed;
	struct hwprof_feat_hybrid_node *n = array(c, nr, sizeof(*n), 8, "hybrid nodes");
	if (!n)
		return c->failed;
	for (uint32_t i = 0; i < nr; i++)
		if (str_(c, &n[i].pmu, "pmu name") || str_(c, &n[i].cpus, "cpus"))
			return c->failed;
	f->u.hybrid.nr = nr;
	f->u.hybrid.nodes = n;
	return 0;
}

/* BUILD_ID: a run of build-id records {header, s32 pid, u8 id[24],
 * filename}. Files from before the pid field (2010) lack it; perf spots
 * them by the kernel entry's name appearing 4 bytes early. */
static int p_build_id(struct cur *c, struct hwprof_feat *f)
{
	enum { HDR = 8, NEW_FIXED = HDR + 4 + 24, OLD_FIXED = HDR + 24 };
	bool old = c->size >= NEW_FIXED + 13 && !memcmp(c->p + NEW_FIXED, "nel.kallsyms]", 13);
	uint32_t fixed = old ? OLD_FIXED : NEW_FIXED;
	struct hwprof_feat_build_id *b = array(c, left(c) / fixed, sizeof(*b), fixed, "build ids");
	if (!b)
		return c->failed;
	uint32_t nr = 0;
	while (left(c)) {
		if (need(c, fixed, "build-id record"))
			return c->failed;
		const uint8_t *r = c->p + c->pos;
		uint16_t size = ld16s(r + 6, c->swap);
		if (size < fixed)
			return fail(c, HWPROF_E_CORRUPT, "build-id record size %u below %u", size, fixed);
		if (need(c, size, "build-id record"))
			return c->failed;
		struct hwprof_feat_build_id *e = &b[nr++];
		e->misc = ld16s(r + 4, c->swap);
		const uint8_t *id = r + HDR;
		if (old) {
			/* guest kernel/user records of that era belonged to the default guest */
			e->pid = (e->misc & 7) == HWPROF_MISC_GUEST_KERNEL || (e->misc & 7) == HWPROF_MISC_GUEST_USER
				 ? 0 : -1;
		} else {
			e->pid = (int32_t)ld32s(r + HDR, c->swap);
			id += 4;
		}
		memcpy(e->id, id, 20);
		e->id_size = (e->misc & HWPROF_MISC_EXT_RESERVED) && id[20] <= 20 ? id[20] : 20;
		size_t n = size - fixed;
		const uint8_t *nul = memchr(r + fixed, 0, n);
		if (nul)
			n = (size_t)(nul - (r + fixed));
		char *name = alloc(c, n);
		if (!name)
			return c->failed;
		memcpy(name, r + fixed, n);
		e->filename = name;
		c->pos += size;
	}
	f->u.build_id.nr = nr;
	f->u.build_id.ids = b;
	return 0;
}

static int p_cmdline(struct cur *c, struct hwprof_feat *f)
{
	return str_list(c, &f->u.cmdline.nr, &f->u.cmdline.argv, "cmdline");
}

static int dispatch(struct cur *c, struct hwprof_feat *f, const struct hwprof_feat_ctx *ctx)
{
	switch (f->id) {
	case HWPROF_FEAT_TRACING_DATA:
		f->u.tracing_data_size = c->size;
		return 0;
	case HWPROF_FEAT_BRANCH_STACK:
	case HWPROF_FEAT_STAT:
		return 0;
	case HWPROF_FEAT_HOSTNAME: case HWPROF_FEAT_OSRELEASE: case HWPROF_FEAT_VERSION:
	case HWPROF_FEAT_ARCH: case HWPROF_FEAT_CPUDESC: case HWPROF_FEAT_CPUID:
		return str_(c, &f->u.str, "string");
	case HWPROF_FEAT_NRCPUS:
		if (u32_(c, &f->u.nrcpus.avail, "nr_cpus_avail"))
			return c->failed;
		return u32_(c, &f->u.nrcpus.online, "nr_cpus_online");
	case HWPROF_FEAT_TOTAL_MEM:
		return u64_(c, &f->u.total_mem, "total_mem");
	case HWPROF_FEAT_CMDLINE: return p_cmdline(c, f);
	case HWPROF_FEAT_EVENT_DESC: return p_event_desc(c, f);
	case HWPROF_FEAT_CPU_TOPOLOGY: return p_cpu_topology(c, f, ctx ? ctx->nr_cpus_avail : 0);
	case HWPROF_FEAT_NUMA_TOPOLOGY: return p_numa(c, f);
	case HWPROF_FEAT_PMU_MAPPINGS: return p_pmu_mappings(c, f);
	case HWPROF_FEAT_GROUP_DESC: return p_group_desc(c, f);
	case HWPROF_FEAT_AUXTRACE: return p_auxtrace(c, f);
	case HWPROF_FEAT_CACHE: return p_cache(c, f);
	case HWPROF_FEAT_SAMPLE_TIME:
		if (u64_(c, &f->u.sample_time.first, "first sample time"))
			return c->failed;
		return u64_(c, &f->u.sample_time.last, "last sample time");
	case HWPROF_FEAT_MEM_TOPOLOGY: return p_mem_topology(c, f);
	case HWPROF_FEAT_CLOCKID: return u64_(c, &f->u.clockid_res_ns, "clockid resolution");
	case HWPROF_FEAT_DIR_FORMAT: return u64_(c, &f->u.dir_version, "dir version");
	case HWPROF_FEAT_BPF_PROG_INFO: return p_bpf_prog_info(c, f);
	case HWPROF_FEAT_BPF_BTF: return p_bpf_btf(c, f);
	case HWPROF_FEAT_COMPRESSED:
		if (u32_(c, &f->u.compressed.version, "version") || u32_(c, &f->u.compressed.type, "type") ||
		    u32_(c, &f->u.compressed.level, "level") || u32_(c, &f->u.compressed.ratio, "ratio"))
			return c->failed;
		return u32_(c, &f->u.compressed.mmap_len, "mmap_len");
	case HWPROF_FEAT_CPU_PMU_CAPS: return p_caps(c, &f->u.cpu_pmu_caps, false);
	case HWPROF_FEAT_CLOCK_DATA:
		if (u32_(c, &f->u.clock_data.version, "version"))
			return c->failed;
		if (f->u.clock_data.version != 1)
			return c->pos -= 4, fail(c, HWPROF_E_CORRUPT, "clock data version %u (only 1 is known)",
						 f->u.clock_data.version);
		if (u32_(c, &f->u.clock_data.clockid, "clockid") ||
		    u64_(c, &f->u.clock_data.tod_ns, "tod_ns"))
			return c->failed;
		return u64_(c, &f->u.clock_data.clockid_ns, "clockid_ns");
	case HWPROF_FEAT_HYBRID_TOPOLOGY: return p_hybrid(c, f);
	case HWPROF_FEAT_PMU_CAPS: return p_pmu_caps(c, f);
	case HWPROF_FEAT_BUILD_ID: return p_build_id(c, f);
	default:
		return fail(c, HWPROF_E_UNSUPPORTED, "unknown feature %u", f->id);
	}
}

static void free_blocks(struct blk *b)
{
	while (b) {
		struct blk *n = b->next;
		free(b);
		b = n;
	}
}

HWPROF_API int hwprof_feat_parse(unsigned feat, const uint8_t *data, uint64_t size,
				 const struct hwprof_feat_ctx *ctx, struct hwprof_feat **out,
				 struct hwprof_error *err)
{
	static const uint8_t empty[1];
	struct cur c = { .p = data ? data : empty, .size = data ? size : 0, .feat = feat,
			 .swap = ctx && ctx->swap, .err = err };
	if (err)
		memset(err, 0, sizeof(*err));
	if (!out)
		return -HWPROF_E_INVAL;
	*out = NULL;
	if (!data && size)
		return -HWPROF_E_INVAL;
	struct hwprof_feat *f = alloc(&c, sizeof(*f));
	if (!f)
		return c.failed;
	f->id = feat;
	f->size = size;
	if (feat >= HWPROF_FEAT_LAST || feat == HWPROF_FEAT_RESERVED)
		fail(&c, HWPROF_E_UNSUPPORTED, "unknown feature %u", feat);
	else
		dispatch(&c, f, ctx);
	if (c.failed) {
		free_blocks(c.blocks);
		return c.failed;
	}
	f->priv = c.blocks;
	*out = f;
	return 0;
}

HWPROF_API void hwprof_feat_free(struct hwprof_feat *f)
{
	if (f)
		free_blocks(f->priv); /* f itself is one of the blocks */
}

HWPROF_API int hwprof_perfdata_feat(struct hwprof_perfdata *h, unsigned feat, struct hwprof_feat **out)
{
	const uint8_t *d;
	uint64_t size;
	struct hwprof_feat_ctx ctx = { .swap = hwprof_perfdata_info(h)->swapped };
	*out = NULL;
	if (feat == HWPROF_FEAT_CPU_TOPOLOGY) {
		struct hwprof_feat *n;
		if (hwprof_perfdata_feat(h, HWPROF_FEAT_NRCPUS, &n) != 1)
			return 0;
		ctx.nr_cpus_avail = n->u.nrcpus.avail;
		hwprof_feat_free(n);
	}
	if (hwprof_perfdata_feature(h, feat, &d, &size, NULL) != 1 ||
	    hwprof_feat_parse(feat, d, size, &ctx, out, NULL) < 0)
		return 0;
	return 1;
}

HWPROF_API enum hwprof_arch hwprof_perfdata_arch(struct hwprof_perfdata *h)
{
	const uint8_t *p;
	uint64_t size;
	if (hwprof_perfdata_feature(h, HWPROF_FEAT_ARCH, &p, &size, NULL) == 1 && size > 4) {
		/* a perf string: u32 length, then the bytes */
		char name[64];
		uint64_t n = size - 4 < sizeof(name) - 1 ? size - 4 : sizeof(name) - 1;
		memcpy(name, p + 4, n);
		name[n] = 0;
		enum hwprof_arch a = hwprof_arch_from_name(name);
		if (a != HWPROF_ARCH_UNKNOWN)
			return a;
		/* a named architecture without register names (riscv,
		 * loongarch, ...): perf prints "unknown" for each */
		if (name[0])
			return HWPROF_ARCH_OTHER;
	}
	return hwprof_arch_host();
}
