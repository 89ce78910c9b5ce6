/* perf.data header feature sections (HOSTNAME, EVENT_DESC, CPU_TOPOLOGY, ...)
 * decoded from their raw payload into plain structs.
 *
 *   hwprof_feat_parse()  one payload (as hwprof_perfdata_feature() hands it
 *                        out, in file byte order) -> struct hwprof_feat
 *   hwprof_feat_free()   releases it (NULL ok)
 *   hwprof_feat_name()   "HOSTNAME", "EVENT_DESC", ... as perf names them
 *
 * Every length and count read from the payload is checked against the bytes
 * left before anything is allocated, so a hostile section costs at most a
 * small multiple of its own size. Errors carry the offset inside the section.
 * Strings are always NUL-terminated copies; all memory belongs to the
 * struct hwprof_feat and goes with hwprof_feat_free().
 */
#ifndef HWPROF_PERFDATA_FEAT_H
#define HWPROF_PERFDATA_FEAT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwprof/regs.h"

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a payload cannot say about itself. */
struct hwprof_feat_ctx {
	bool swap;               /* payload is the other byte order (info->swapped) */
	uint32_t nr_cpus_avail;  /* from NRCPUS; CPU_TOPOLOGY's per-cpu tables need it */
};

struct hwprof_feat_event {      /* EVENT_DESC entry */
	struct hwprof_attr attr;
	const char *name;
	uint32_t nr_ids;
	const uint64_t *ids;
};

struct hwprof_feat_cpu { uint32_t core_id, socket_id, die_id; };

struct hwprof_feat_cpu_topology {
	uint32_t nr_core_sibs;   const char **core_sibs;   /* "sibling sockets" lists */
	uint32_t nr_thread_sibs; const char **thread_sibs;
	bool has_cpus;           /* the per-cpu core/socket table is present */
	uint32_t nr_cpus;        struct hwprof_feat_cpu *cpus;
	bool has_dies;           /* the die tail is present (perf >= 5.3) */
	uint32_t nr_die_sibs;    const char **die_sibs;
};

struct hwprof_feat_numa_node { uint32_t node; uint64_t mem_total, mem_free; const char *cpus; };
struct hwprof_feat_pmu_map   { uint32_t type; const char *name; };
struct hwprof_feat_group     { const char *name; uint32_t leader_idx, nr_members; };
struct hwprof_feat_aux_entry { uint64_t offset, size; };
struct hwprof_feat_cache {
	uint32_t level, line_size, sets, ways;
	const char *type, *size, *map;
};
struct hwprof_feat_mem_node {
	uint64_t node, nbits;    /* bitmap of memory blocks, nbits bits */
	const uint64_t *bits;    /* (nbits + 63) / 64 words, host order */
};
struct hwprof_feat_bpf_sub {    /* one jited sub-program of a BPF program */
	uint64_t addr;           /* jited_ksyms[i] */
	uint32_t len;            /* jited_func_lens[i] */
	uint8_t tag[8];          /* prog_tags[i] */
	uint32_t func_type_id;   /* func_info[i].type_id (BTF FUNC), 0 if absent */
};
struct hwprof_feat_bpf_prog {
	uint32_t info_len, data_len;
	uint64_t arrays;
	uint32_t type, id;       /* first fields of bpf_prog_info, 0 if info_len < 8 */
	char name[17];           /* bpf_prog_info.name */
	uint32_t btf_id;         /* 0: none */
	/* listed: nr_jited_ksyms equals nr_prog_tags and nr_jited_func_lens
	 * and their arrays lie in the data (perf lists the program only then) */
	bool listed;
	uint32_t nr_subs;
	struct hwprof_feat_bpf_sub *subs;
};
struct hwprof_feat_btf { uint32_t id, data_size; const uint8_t *data; /* file order */ };
struct hwprof_feat_caps {       /* CPU_PMU_CAPS, or one PMU of PMU_CAPS */
	uint32_t nr;
	const char **names, **values;
	const char *pmu;         /* PMU_CAPS only; NULL for CPU_PMU_CAPS */
};
struct hwprof_feat_hybrid_node { const char *pmu, *cpus; };
struct hwprof_feat_build_id {
	uint16_t misc;
	int32_t pid;
	uint8_t id[20];
	uint8_t id_size;         /* from the record when misc has bit 15, else 20 */
	const char *filename;
};

struct hwprof_feat {
	unsigned id;             /* HWPROF_FEAT_* */
	uint64_t size;           /* payload size */
	union {
		/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
		const char *str;
		struct { uint32_t avail, online; } nrcpus;
		uint64_t total_mem;                         /* kB */
		struct { uint32_t nr; const char **argv; } cmdline;
		struct { uint32_t nr, attr_size; struct hwprof_feat_event *events; } event_desc;
		struct hwprof_feat_cpu_topology cpu_topology;
		struct { uint32_t nr; struct hwprof_feat_numa_node *nodes; } numa;
		struct { uint32_t nr; struct hwprof_feat_pmu_map *pmus; } pmu_mappings;
		struct { uint32_t nr; struct hwprof_feat_group *groups; } group_desc;
		struct { uint64_t nr; struct hwprof_feat_aux_entry *entries; } auxtrace;
		struct { uint32_t version, nr; struct hwprof_feat_cache *caches; } cache;
		struct { uint64_t first, last; } sample_time;
		struct { uint64_t version, block_size, nr; struct hwprof_feat_mem_node *nodes; } mem_topology;
		uint64_t clockid_res_ns;                    /* CLOCKID */
		uint64_t dir_version;                       /* DIR_FORMAT */
		struct { uint32_t nr; struct hwprof_feat_bpf_prog *progs; } bpf_prog_info;
		struct { uint32_t nr; struct hwprof_feat_btf *btfs; } bpf_btf;
		struct { uint32_t version, type, level, ratio, mmap_len; } compressed;
		struct hwprof_feat_caps cpu_pmu_caps;
		struct { uint32_t version, clockid; uint64_t tod_ns, clockid_ns; } clock_data;
		struct { uint32_t nr; struct hwprof_feat_hybrid_node *nodes; } hybrid;
		struct { uint32_t nr; struct hwprof_feat_caps *pmus; } pmu_caps;
		struct { uint32_t nr; struct hwprof_feat_build_id *ids; } build_id;
		uint64_t tracing_data_size;                 /* TRACING_DATA: not decoded */
		/* BRANCH_STACK and STAT carry no payload. */
	} u;
	void *priv;              /* the allocations */
};

/* Decode one feature payload. Returns 0 and sets *out, or -HWPROF_E_* with
 * *out NULL and err (if given) naming the offset inside the section:
 * TRUNCATED when a field runs past the end, CORRUPT for impossible values
 * (a count larger than the bytes left could hold, a bad version),
 * UNSUPPORTED for feature ids we do not know, NOMEM. */
HWPROF_API int hwprof_feat_parse(unsigned feat, const uint8_t *data, uint64_t size,
				 const struct hwprof_feat_ctx *ctx, struct hwprof_feat **out,
				 struct hwprof_error *err);
HWPROF_API void hwprof_feat_free(struct hwprof_feat *f);

/* The name of BTF type `type_id` in a BTF blob (a BPF_BTF entry's data),
 * or NULL when the blob does not parse as BTF or has no such type. */
HWPROF_API const char *hwprof_btf_type_name(const uint8_t *btf, uint64_t size, uint32_t type_id);

/* perf's name of a feature bit ("TRACING_DATA" ... "PMU_CAPS"), NULL past 31. */
HWPROF_API const char *hwprof_feat_name(unsigned feat);

struct hwprof_perfdata;
/* A feature of the file, decoded (free with hwprof_feat_free()): 1 with
 * *out, 0 when the file lacks it or it does not decode (*out NULL). The
 * context comes from the file: its byte order, and NRCPUS for the tables
 * of CPU_TOPOLOGY. */
HWPROF_API int hwprof_perfdata_feat(struct hwprof_perfdata *h, unsigned feat, struct hwprof_feat **out);
/* The recording machine's architecture from the ARCH feature ("x86_64",
 * "aarch64", ...), else this machine's (perf assumes the host's too). */
HWPROF_API enum hwprof_arch hwprof_perfdata_arch(struct hwprof_perfdata *h);

#ifdef __cplusplus
}
#endif
#endif
