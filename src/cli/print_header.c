/* `perf report --header-only` output, byte for byte as perf 6.1 prints it:
 * the file facts, one block per feature section in bit order (or in
 * HEADER_FEATURE order for pipes), then the missing features. Payloads are
 * decoded by hwprof_feat_parse(); this file only formats. */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/print_header.h"

/* Features perf prints only with -I; without it a one-line hint. */
static bool full_only(unsigned f)
{
	return f == HWPROF_FEAT_CPU_TOPOLOGY || f == HWPROF_FEAT_NUMA_TOPOLOGY ||
	       f == HWPROF_FEAT_CACHE || f == HWPROF_FEAT_MEM_TOPOLOGY ||
	       f == HWPROF_FEAT_HYBRID_TOPOLOGY;
}

struct ctx {
	FILE *out;
	const struct hdr_view *v;
	bool full;
	struct hwprof_feat_ctx fctx;
	struct hwprof_feat *events; /* EVENT_DESC, for group names */
};

/* ---- small formatters ---------------------------------------------------- */

/* perf's cpu map text: sorted, deduplicated, runs as a-b. */
#define MAX_CPU 65536
static void print_cpu_list(FILE *out, const char *s)
{
	static const size_t words = MAX_CPU / 64;
	uint64_t *set = calloc(words, 8);
	if (!set) {
		fputc('\n', out);
		return;
	}
	const char *p = s;
	while (*p) {
		char *e;
		unsigned long a = strtoul(p, &e, 10), b = a;
		if (e == p)
			break;
		p = e;
		if (*p == '-') {
			b = strtoul(p + 1, &e, 10);
			if (e == p + 1)
				break;
			p = e;
		}
		for (unsigned long c = a; c <= b && c < MAX_CPU; c++)
			set[c / 64] |= 1ULL << (c % 64);
		if (*p == ',')
			p++;
		else if (*p)
			break;
	}
	const char *sep = "";
	for (long c = 0; c < MAX_CPU; c++) {
		if (!(set[c / 64] & (1ULL << (c % 64))))
			continue;
		long end = c;
		while (end + 1 < MAX_CPU && (set[(end + 1) / 64] & (1ULL << ((end + 1) % 64))))
			end++;
		if (end > c)
			fprintf(out, "%s%ld-%ld", sep, c, end);
		else
			fprintf(out, "%s%ld", sep, c);
		sep = ",";
		c = end;
	}
	fputc('\n', out);
	free(set);
}

static bool bit_set(const uint64_t *w, uint64_t i) { return (w[i / 64] >> (i % 64)) & 1; }

/* Ranges of a bitmap into a 100-byte buffer, truncated like perf's. */
static void bitmap_ranges(char *buf, size_t size, const uint64_t *w, uint64_t nbits)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint64_t i = 0; i < nbits; i++) {
		if (!bit_set(w, i))
			continue;
		uint64_t end = i;
		while (end + 1 < nbits && bit_set(w, end + 1))
			end++;
		int k = end > i ? snprintf(buf + n, size - n, "%s%" PRIu64 "-%" PRIu64, n ? "," : "", i, end)
				: snprintf(buf + n, size - n, "%s%" PRIu64, n ? "," : "", i);
		if (k < 0 || (size_t)k >= size - n) {
			buf[size - 1] = 0;
			return;
		}
		n += (size_t)k;
		i = end;
	}
}

static uint64_t popcount_bits(const uint64_t *w, uint64_t nbits)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < nbits / 64; i++)
		n += (uint64_t)__builtin_popcountll(w[i]);
	if (nbits % 64)
		n += (uint64_t)__builtin_popcountll(w[nbits / 64] & ((1ULL << (nbits % 64)) - 1));
	return n;
}

static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

/* ---- one feature --------------------------------------------------------- */

static void print_cpu_topology(struct ctx *c, const struct hwprof_feat *f)
{
	const struct hwprof_feat_cpu_topology *t = &f->u.cpu_topology;
	for (uint32_t i = 0; i < t->nr_core_sibs; i++)
		fprintf(c->out, "# sibling sockets : %s\n", t->core_sibs[i]);
	if (t->nr_die_sibs)
		for (uint32_t i = 0; i < t->nr_die_sibs; i++)
			fprintf(c->out, "# sibling dies    : %s\n", t->die_sibs[i]);
	for (uint32_t i = 0; i < t->nr_thread_sibs; i++)
		fprintf(c->out, "# sibling threads : %s\n", t->thread_sibs[i]);
	if (t->nr_die_sibs) {
		if (!t->has_cpus)
			fprintf(c->out, "# Core ID, Die ID and Socket ID information is not available\n");
		for (uint32_t i = 0; t->has_cpus && i < t->nr_cpus; i++)
			fprintf(c->out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)t->cpus[i].core_id, (int)t->cpus[i].die_id, (int)t->cpus[i].socket_id);
	} else {
		if (!t->has_cpus)
			fprintf(c->out, "# Core ID and Socket ID information is not available\n");
		for (uint32_t i = 0; t->has_cpus && i < t->nr_cpus; i++)
			fprintf(c->out, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)t->cpus[i].core_id, (int)t->cpus[i].socket_id);
	}
}

static void print_event_desc(struct ctx *c, const struct hwprof_feat *f)
{
	for (uint32_t i = 0; i < f->u.event_desc.nr; i++) {
		const struct hwprof_feat_event *e = &f->u.event_desc.events[i];
		if (!e->attr.size)
			break; /* perf's list ends at the first attr of size 0 */
		fprintf(c->out, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fprintf(c->out, ", id = {");
			for (uint32_t j = 0; j < e->nr_ids; j++)
				fprintf(c->out, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fprintf(c->out, " }");
		}
		print_attr_fields(c->out, &e->attr);
		fputc('\n', c->out);
	}
}

static void print_group_desc(struct ctx *c, const struct hwprof_feat *f)
{
	const struct hwprof_feat *ev = c->events;
	/* without EVENT_DESC perf names the events from their attrs */
	uint32_t nr_ev = ev ? ev->u.event_desc.nr : c->v->evsel_names ? c->v->nr_evsels : 0;
	/* Walk the events as perf walks its evlist: a leader opens "{", its
	 * nr_members - 1 followers are appended, the last one closes. */
	uint32_t left = 0;
	for (uint32_t i = 0; i < nr_ev; i++) {
		const char *name = ev ? ev->u.event_desc.events[i].name : c->v->evsel_names[i];
		const struct hwprof_feat_group *g = NULL;
		for (uint32_t k = 0; k < f->u.group_desc.nr; k++)
			if (f->u.group_desc.groups[k].leader_idx == i)
				g = &f->u.group_desc.groups[k];
		if (g && g->nr_members > 1) {
			const char *gname = strcmp(g->name, "{anon_group}") ? g->name : "";
			fprintf(c->out, "# group: %s{%s", gname, name);
			left = g->nr_members - 1;
		} else if (left) {
			fprintf(c->out, ",%s", name);
			if (--left == 0)
				fprintf(c->out, "}\n");
		}
	}
}

static void print_caps(FILE *out, const struct hwprof_feat_caps *k, const char *pmu)
{
	if (!k->nr) {
		fprintf(out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(out, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < k->nr; i++)
		fprintf(out, "%s%s=%s", i ? ", " : "", k->names[i], k->values[i]);
	fputc('\n', out);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void print_btf(struct ctx *c, const struct hwprof_feat *f)
{
	uint32_t n = f->u.bpf_btf.nr;
	uint32_t *ids = malloc((size_t)n * 4 + 4);
	if (!ids)
		return;
	for (uint32_t i = 0; i < n; i++)
		ids[i] = f->u.bpf_btf.btfs[i].id;
	qsort(ids, n, 4, cmp_u32); /* perf keeps them in a tree by id, no duplicates */
	for (uint32_t i = 0; i < n; i++)
		if (!i || ids[i] != ids[i - 1])
			fprintf(c->out, "# btf info of id %u\n", ids[i]);
	free(ids);
}

static int cmp_prog_id(const void *a, const void *b)
{
	const struct hwprof_feat_bpf_prog *x = *(const struct hwprof_feat_bpf_prog *const *)a;
	const struct hwprof_feat_bpf_prog *y = *(const struct hwprof_feat_bpf_prog *const *)b;
	return x->id < y->id ? -1 : x->id > y->id ? 1 : (x < y ? -1 : x > y);
}

/* perf's name of a BPF sub-program: bpf_prog_<tag>, then _<BTF function
 * name> when the program's BTF is in the file, else _<prog name> for a
 * program with one sub-program (none if empty), else _F. */
static void bpf_sub_name(char *buf, size_t n, const struct hwprof_feat_bpf_prog *p, uint32_t i,
			 const struct hwprof_feat_btf *btf)
{
	const uint8_t *t = p->subs[i].tag;
	int k = snprintf(buf, n, "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x", t[0], t[1], t[2], t[3], t[4], t[5],
			 t[6], t[7]);
	const char *fn = btf ? hwprof_btf_type_name(btf->data, btf->data_size, p->subs[i].func_type_id) : NULL;
	const char *short_name = fn ? fn : p->nr_subs == 1 ? (p->name[0] ? p->name : NULL) : "F";
	if (short_name && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "_%s", short_name);
}

/* perf's listing of the BPF programs seen while recording: by program id
 * (the first of equal ids), each jited sub-program with its address and
 * size. perf skips the section in a file of the other byte order. */
static void print_bpf_progs(struct ctx *c, const struct hwprof_feat *f)
{
	uint32_t n = f->u.bpf_prog_info.nr;
	if (c->fctx.swap || !n)
		return;
	/* in a pipe perf prints each feature as its record arrives, before
	 * the BPF_BTF one: no function names from BTF there */
	struct hwprof_feat *btf = NULL;
	if (c->v->feat_present[HWPROF_FEAT_BPF_BTF] && !c->v->pipe)
		hwprof_feat_parse(HWPROF_FEAT_BPF_BTF, c->v->feat_data[HWPROF_FEAT_BPF_BTF],
				  c->v->feat_size[HWPROF_FEAT_BPF_BTF], &c->fctx, &btf, NULL);
	const struct hwprof_feat_bpf_prog **by_id = malloc((size_t)n * sizeof(*by_id));
	if (!by_id) {
		hwprof_feat_free(btf);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		by_id[i] = &f->u.bpf_prog_info.progs[i];
	qsort(by_id, n, sizeof(*by_id), cmp_prog_id);
	for (uint32_t i = 0; i < n; i++) {
		const struct hwprof_feat_bpf_prog *p = by_id[i];
		if ((i && p->id == by_id[i - 1]->id) || !p->listed)
			continue;
		const struct hwprof_feat_btf *b = NULL;
		for (uint32_t k = 0; btf && p->btf_id && k < btf->u.bpf_btf.nr && !b; k++)
			if (btf->u.bpf_btf.btfs[k].id == p->btf_id)
				b = &btf->u.bpf_btf.btfs[k];
		char name[128];
		if (p->nr_subs == 1) {
			bpf_sub_name(name, sizeof(name), p, 0, b);
			fprintf(c->out, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", p->id, name,
				p->subs[0].addr, p->subs[0].len);
			continue;
		}
		fprintf(c->out, "# bpf_prog_info %u:\n", p->id);
		for (uint32_t k = 0; k < p->nr_subs; k++) {
			bpf_sub_name(name, sizeof(name), p, k, b);
			fprintf(c->out, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", k, name, p->subs[k].addr,
				p->subs[k].len);
		}
	}
	free(by_id);
	hwprof_feat_free(btf);
}

static void print_clock_data(struct ctx *c, const struct hwprof_feat *f)
{
	uint64_t tod = f->u.clock_data.tod_ns, clk = f->u.clock_data.clockid_ns;
	time_t sec = (time_t)(tod / 1000000000);
	int usec = (int)(tod % 1000000000 / 1000);
	char date[64], tstr[96];
	struct tm tm;
	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	const char *name = clockid_name(f->u.clock_data.clockid);
	fprintf(c->out, "# clockid: %s (%u)\n", name, f->u.clock_data.clockid);
	fprintf(c->out, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec, usec,
		(long)(clk / 1000000000), (long)(clk % 1000000000), name);
}

static void print_mem_topology(struct ctx *c, const struct hwprof_feat *f)
{
	uint64_t bsize = f->u.mem_topology.block_size;
	fprintf(c->out, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n",
		(int)f->u.mem_topology.nr, bsize);
	for (uint64_t i = 0; i < f->u.mem_topology.nr; i++) {
		const struct hwprof_feat_mem_node *n = &f->u.mem_topology.nodes[i];
		char map[100], size[50];
		uint64_t bytes = bsize * popcount_bits(n->bits, n->nbits);
		static const char unit[] = "BKMG";
		int u = 0;
		while (bytes / 1024 > 1 && u < 3) {
			bytes /= 1024;
			u++;
		}
		snprintf(size, sizeof(size), "%" PRIu64 "%c", bytes, unit[u]);
		bitmap_ranges(map, sizeof(map), n->bits, n->nbits);
		fprintf(c->out, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

static void print_feature(struct ctx *c, const struct hwprof_feat *f)
{
	FILE *o = c->out;
	switch (f->id) {
	case HWPROF_FEAT_HOSTNAME: fprintf(o, "# hostname : %s\n", f->u.str); break;
	case HWPROF_FEAT_OSRELEASE: fprintf(o, "# os release : %s\n", f->u.str); break;
	case HWPROF_FEAT_VERSION: fprintf(o, "# perf version : %s\n", f->u.str); break;
	case HWPROF_FEAT_ARCH: fprintf(o, "# arch : %s\n", f->u.str); break;
	case HWPROF_FEAT_NRCPUS:
		fprintf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", f->u.nrcpus.online,
			f->u.nrcpus.avail);
		break;
	case HWPROF_FEAT_CPUDESC: fprintf(o, "# cpudesc : %s\n", f->u.str); break;
	case HWPROF_FEAT_CPUID: fprintf(o, "# cpuid : %s\n", f->u.str); break;
	case HWPROF_FEAT_TOTAL_MEM: fprintf(o, "# total memory : %" PRIu64 " kB\n", f->u.total_mem); break;
	case HWPROF_FEAT_CMDLINE:
		fprintf(o, "# cmdline : ");
		for (uint32_t i = 0; i < f->u.cmdline.nr; i++) {
			/* perf escapes single quotes as \' */
			for (const char *s = f->u.cmdline.argv[i]; *s; s++)
				if (*s == '\'')
					fputs("\\'", o);
				else
					fputc(*s, o);
			fputc(' ', o);
		}
		fputc('\n', o);
		break;
	case HWPROF_FEAT_EVENT_DESC: print_event_desc(c, f); break;
	case HWPROF_FEAT_CPU_TOPOLOGY: print_cpu_topology(c, f); break;
	case HWPROF_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < f->u.numa.nr; i++) {
			const struct hwprof_feat_numa_node *n = &f->u.numa.nodes[i];
			fprintf(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
				n->node, n->mem_total, n->mem_free);
			fprintf(o, "# node%u cpu list : ", n->node);
			print_cpu_list(o, n->cpus);
		}
		break;
	case HWPROF_FEAT_BRANCH_STACK: fprintf(o, "# contains samples with branch stack\n"); break;
	case HWPROF_FEAT_PMU_MAPPINGS:
		if (!f->u.pmu_mappings.nr) {
			fprintf(o, "# pmu mappings: not available\n");
			break;
		}
		for (uint32_t i = 0; i < f->u.pmu_mappings.nr; i++)
			fprintf(o, "%s%s = %u", i ? ", " : "# pmu mappings: ", f->u.pmu_mappings.pmus[i].name,
				f->u.pmu_mappings.pmus[i].type);
		fputc('\n', o);
		break;
	case HWPROF_FEAT_GROUP_DESC: print_group_desc(c, f); break;
	case HWPROF_FEAT_AUXTRACE: fprintf(o, "# contains AUX area data (e.g. instruction trace)\n"); break;
	case HWPROF_FEAT_STAT: fprintf(o, "# contains stat data\n"); break;
	case HWPROF_FEAT_CACHE:
		fprintf(o, "# CPU cache info:\n");
		for (uint32_t i = 0; i < f->u.cache.nr; i++) {
			const struct hwprof_feat_cache *k = &f->u.cache.caches[i];
			fprintf(o, "#  L%d %-15s %8s [%s]\n", (int)k->level, k->type, k->size, k->map);
		}
		break;
	case HWPROF_FEAT_SAMPLE_TIME: {
		uint64_t a = f->u.sample_time.first, b = f->u.sample_time.last;
		fprintf(o, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", a / 1000000000,
			a % 1000000000 / 1000);
		fprintf(o, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", b / 1000000000,
			b % 1000000000 / 1000);
		fprintf(o, "# sample duration : %10.3f ms\n", (double)(b - a) / 1000000);
		break;
	}
	case HWPROF_FEAT_MEM_TOPOLOGY: print_mem_topology(c, f); break;
	case HWPROF_FEAT_CLOCKID:
		fprintf(o, "# clockid frequency: %" PRIu64 " MHz\n", f->u.clockid_res_ns * 1000);
		break;
	case HWPROF_FEAT_DIR_FORMAT:
		fprintf(o, "# directory data version : %" PRIu64 "\n", f->u.dir_version);
		break;
	case HWPROF_FEAT_BPF_PROG_INFO: print_bpf_progs(c, f); break;
	case HWPROF_FEAT_BPF_BTF: print_btf(c, f); break;
	case HWPROF_FEAT_COMPRESSED:
		fprintf(o, "# compressed : %s, level = %d, ratio = %d\n",
			f->u.compressed.type == 1 ? "Zstd" : "Unknown", (int)f->u.compressed.level,
			(int)f->u.compressed.ratio);
		break;
	case HWPROF_FEAT_CPU_PMU_CAPS: print_caps(o, &f->u.cpu_pmu_caps, "cpu"); break;
	case HWPROF_FEAT_CLOCK_DATA: print_clock_data(c, f); break;
	case HWPROF_FEAT_HYBRID_TOPOLOGY:
		fprintf(o, "# hybrid cpu system:\n");
		for (uint32_t i = 0; i < f->u.hybrid.nr; i++)
			fprintf(o, "# %s cpu list : %s\n", f->u.hybrid.nodes[i].pmu, f->u.hybrid.nodes[i].cpus);
		break;
	case HWPROF_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < f->u.pmu_caps.nr; i++)
			print_caps(o, &f->u.pmu_caps.pmus[i], f->u.pmu_caps.pmus[i].pmu);
		break;
	default: /* TRACING_DATA, BUILD_ID: perf prints nothing */
		break;
	}
}

/* What perf prints when a section does not decode: mostly nothing (its
 * print functions then show empty defaults we do not imitate), except for
 * the few that say so. */
static void print_unreadable(struct ctx *c, unsigned feat)
{
	if (feat == HWPROF_FEAT_EVENT_DESC)
		fprintf(c->out, "# event desc: not available or unable to read\n");
	else if (feat == HWPROF_FEAT_CLOCK_DATA)
		fprintf(c->out, "# reference time disabled\n");
}

static void print_one(struct ctx *c, unsigned feat)
{
	const struct hdr_view *v = c->v;
	if (feat == HWPROF_FEAT_TRACING_DATA || feat == HWPROF_FEAT_BUILD_ID)
		return; /* no printer in perf */
	if (full_only(feat) && !c->full) {
		fprintf(c->out, "# %s info available, use -I to display\n", hwprof_feat_name(feat));
		return;
	}
	struct hwprof_feat *f = NULL;
	if (hwprof_feat_parse(feat, v->feat_data[feat], v->feat_size[feat], &c->fctx, &f, NULL) < 0) {
		print_unreadable(c, feat);
		return;
	}
	print_feature(c, f);
	hwprof_feat_free(f);
}

int print_header_view(FILE *out, const struct hdr_view *v, bool header_only, bool full)
{
	(void)header_only; /* perf 6.1 prints the same header for --header and --header-only */
	struct ctx c = { .out = out, .v = v, .full = full, .fctx = { .swap = v->swapped } };
	struct hwprof_feat *nr = NULL;
	if (v->feat_present[HWPROF_FEAT_NRCPUS] &&
	    hwprof_feat_parse(HWPROF_FEAT_NRCPUS, v->feat_data[HWPROF_FEAT_NRCPUS],
			      v->feat_size[HWPROF_FEAT_NRCPUS], &c.fctx, &nr, NULL) == 0) {
		c.fctx.nr_cpus_avail = nr->u.nrcpus.avail;
		hwprof_feat_free(nr);
	}
	if (v->feat_present[HWPROF_FEAT_EVENT_DESC])
		hwprof_feat_parse(HWPROF_FEAT_EVENT_DESC, v->feat_data[HWPROF_FEAT_EVENT_DESC],
				  v->feat_size[HWPROF_FEAT_EVENT_DESC], &c.fctx, &c.events, NULL);

	char when[64];
	struct tm tm;
	/* ctime() format: "Sun Nov 22 23:41:07 2026\n" */
	if (localtime_r(&v->mtime, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	else
		snprintf(when, sizeof(when), "?");
	fprintf(out, "# ========\n");
	fprintf(out, "# captured on    : %s\n", when);
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %" PRIu64 "\n", v->data_offset);
	fprintf(out, "# data size      : %" PRIu64 "\n", v->data_size);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", v->pipe ? 0 : v->data_offset + v->data_size);
	if (!v->pipe) {
		for (unsigned f = 1; f < HWPROF_FEAT_LAST; f++)
			if (v->feat_present[f])
				print_one(&c, f);
		fprintf(out, "# missing features: ");
		for (unsigned f = 1; f < HWPROF_FEAT_LAST; f++)
			if (!((v->features[f / 64] >> (f % 64)) & 1))
				fprintf(out, "%s ", hwprof_feat_name(f));
		fputc('\n', out);
		fprintf(out, "# ========\n#\n");
	} else {
		/* Pipes: the header block closes first; the features follow as
		 * perf meets their HEADER_FEATURE records (in bit order). */
		fprintf(out, "# ========\n#\n");
		for (unsigned f = 1; f < HWPROF_FEAT_LAST; f++)
			if (v->feat_present[f])
				print_one(&c, f);
	}
	hwprof_feat_free(c.events);
	return ferror(out) ? -HWPROF_E_IO : 0;
}
