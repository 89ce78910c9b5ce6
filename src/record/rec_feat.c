/* Header features perf record writes, gathered from this machine:
 * hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid, total_mem,
 * cmdline, cpu_topology, pmu_mappings, sample_time, compressed, build ids
 * of the kernel and of the DSOs mapped while recording. EVENT_DESC and the
 * AUXTRACE index come from the writer. File mode adds them at the end (the
 * build ids and sample times are known then); pipe mode before the first
 * record, like perf. */
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record/rec_int.h"
#include "util/bytes.h"

struct sbuf {
	uint8_t *p;
	size_t n, cap;
	bool bad;
};

static void sb_put(struct sbuf *b, const void *s, size_t n)
{
	if (b->bad)
		return;
	if (b->n + n > b->cap) {
		size_t c = b->cap ? b->cap : 256;
		while (c < b->n + n)
			c *= 2;
		uint8_t *t = realloc(b->p, c);
		if (!t) {
			b->bad = true;
			return;
		}
		b->p = t;
		b->cap = c;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}
static void sb_u32(struct sbuf *b, uint32_t v) { uint8_t t[4]; st32(t, v); sb_put(b, t, 4); }
/* perf's string: u32 len (strlen+1 rounded to 64), NUL-padded */
static void sb_str(struct sbuf *b, const char *s)
{
	static const uint8_t z[64];
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;
	sb_u32(b, (uint32_t)padded);
	sb_put(b, s, n);
	sb_put(b, z, padded - n);
}

static int add_sb(struct hwprof_recorder *r, unsigned feat, struct sbuf *b)
{
	int rc = b->bad ? -HWPROF_E_NOMEM : hwprof_writer_add_feature(r->w, feat, b->p, b->n);
	free(b->p);
	memset(b, 0, sizeof(*b));
	return rc;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return (int)n;
}

/* "field : value" from /proc/cpuinfo (first cpu) */
static int cpuinfo(const char *field, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[1024];
	int found = -1;
	size_t fl = strlen(field);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, field, fl) || (line[fl] != ' ' && line[fl] != '\t' && line[fl] != ':'))
			continue;
		const char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ')
			v++;
		/* perf squeezes runs of blanks into one */
		size_t o = 0;
		for (; *v && *v != '\n' && o + 1 < len; v++)
			if (!(*v == ' ' && o && out[o - 1] == ' '))
				out[o++] = *v == '\t' ? ' ' : *v;
		while (o && out[o - 1] == ' ')
			o--;
		out[o] = 0;
		found = 0;
		break;
	}
	if (f)
		fclose(f);
	return found;
}

static void cpu_strings(char *desc, size_t dlen, char *id, size_t ilen)
{
	char vendor[128], fam[32], model[32], step[32];
	if (cpuinfo("model name", desc, dlen))
		snprintf(desc, dlen, "unknown");
	if (!cpuinfo("vendor_id", vendor, sizeof(vendor)) && !cpuinfo("cpu family", fam, sizeof(fam)) &&
	    !cpuinfo("model", model, sizeof(model)) && !cpuinfo("stepping", step, sizeof(step))) {
		snprintf(id, ilen, "%s,%s,%s,%s", vendor, fam, model, step);
		return;
	}
	char midr[64];
	if (read_text("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", midr, sizeof(midr)) > 0) {
		snprintf(id, ilen, "0x%016llx", strtoull(midr, NULL, 0));
		return;
	}
	snprintf(id, ilen, "unknown");
}

static int add_cmdline(struct hwprof_recorder *r)
{
	struct sbuf b = { 0 };
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	int argc = r->o.cmd_argc;
	sb_u32(&b, (uint32_t)(argc > 0 ? argc : 1));
	sb_str(&b, n > 0 ? exe : (argc > 0 ? r->o.cmd_argv[0] : "hwprof"));
	for (int i = 1; i < argc; i++)
		sb_str(&b, r->o.cmd_argv[i]);
	return add_sb(r, HWPROF_FEAT_CMDLINE, &b);
}

/* Unique topology sibling lists in cpu order. */
static void sibling_lists(struct sbuf *b, const int *cpus, int n, const char *file)
{
	char (*seen)[256] = calloc((size_t)n + 1, sizeof(*seen));
	uint32_t nr = 0;
	size_t at = b->n;
	sb_u32(b, 0);
	for (int i = 0; seen && i < n; i++) {
		char path[128], s[256];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpus[i], file);
		if (read_text(path, s, sizeof(s)) <= 0)
			continue;
		bool dup = false;
		for (uint32_t k = 0; k < nr; k++)
			dup |= !strcmp(seen[k], s);
		if (dup)
			continue;
		snprintf(seen[nr++], sizeof(seen[0]), "%s", s);
		sb_str(b, s);
	}
	if (!b->bad)
		st32(b->p + at, nr);
	free(seen);
}

static int topo_id(int cpu, const char *file)
{
	char path[128], s[64];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	return read_text(path, s, sizeof(s)) > 0 ? atoi(s) : -1;
}

static int add_topology(struct hwprof_recorder *r)
{
	int *on, non, avail = rec_cpus_possible();
	if (rec_cpus_online(&on, &non))
		return 0;
	struct sbuf b = { 0 };
	sibling_lists(&b, on, non, "core_siblings_list");
	sibling_lists(&b, on, non, "thread_siblings_list");
	for (int c = 0; c < avail; c++) {
		sb_u32(&b, (uint32_t)topo_id(c, "core_id"));
		sb_u32(&b, (uint32_t)topo_id(c, "physical_package_id"));
	}
	sibling_lists(&b, on, non, "die_cpus_list");
	for (int c = 0; c < avail; c++)
		sb_u32(&b, (uint32_t)topo_id(c, "die_id"));
	free(on);
	return add_sb(r, HWPROF_FEAT_CPU_TOPOLOGY, &b);
}

static int add_pmu_mappings(struct hwprof_recorder *r)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	if (!d)
		return 0;
	struct sbuf b = { 0 };
	uint32_t nr = 0;
	sb_u32(&b, 0);
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[512], s[32];
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (read_text(path, s, sizeof(s)) <= 0)
			continue;
		sb_u32(&b, (uint32_t)atoi(s));
		sb_str(&b, de->d_name);
		nr++;
	}
	closedir(d);
	if (!b.bad)
		st32(b.p, nr);
	return add_sb(r, HWPROF_FEAT_PMU_MAPPINGS, &b);
}

/* GNU build id from an ELF file's notes; size in bytes or 0. */
static size_t elf_build_id(const char *path, uint8_t id[20])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t got = 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	while (e && !got && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz > 0) {
				got = nh.n_descsz > 20 ? 20 : nh.n_descsz;
				memcpy(id, (uint8_t *)data->d_buf + desc_off, got);
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return got;
}

/* The kernel's build id from /sys/kernel/notes (raw ELF notes). */
static size_t kernel_build_id(uint8_t id[20])
{
	uint8_t buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	for (ssize_t at = 0; n > 0 && at + 12 <= n;) {
		uint32_t nsz = ld32(buf + at), dsz = ld32(buf + at + 4), type = ld32(buf + at + 8);
		size_t name = (size_t)at + 12, desc = name + ((nsz + 3) & ~3u);
		if (desc + dsz > (size_t)n)
			break;
		if (type == NT_GNU_BUILD_ID && nsz == 4 && !memcmp(buf + name, "GNU", 4)) {
			size_t k = dsz > 20 ? 20 : dsz;
			memcpy(id, buf + desc, k);
			return k;
		}
		at = (ssize_t)(desc + ((dsz + 3) & ~3u));
	}
	return 0;
}

static void build_id_entry(struct sbuf *b, uint16_t cpumode, const uint8_t *id, size_t idlen, const char *name)
{
	static const uint8_t z[64];
	size_t n = strlen(name) + 1, padded = (n + 63) & ~(size_t)63;
	uint8_t h[36] = { 0 };
	st32(h, 0);
	st16(h + 4, (uint16_t)(cpumode | (1u << 15))); /* BUILD_ID_SIZE: size at byte 20 */
	st16(h + 6, (uint16_t)(36 + padded));
	st32(h + 8, (uint32_t)-1);
	memcpy(h + 12, id, idlen);
	h[12 + 20] = (uint8_t)idlen;
	sb_put(b, h, 36);
	sb_put(b, name, n);
	sb_put(b, z, padded - n);
}

static int add_build_ids(struct hwprof_recorder *r)
{
	struct sbuf b = { 0 };
	uint8_t id[20];
	size_t n = kernel_build_id(id);
	if (n)
		build_id_entry(&b, HWPROF_MISC_KERNEL, id, n, "[kernel.kallsyms]");
	for (size_t i = 0; i < r->nr_hit; i++)
		if (r->hit_dsos[i][0] == '/' && (n = elf_build_id(r->hit_dsos[i], id)) > 0)
			build_id_entry(&b, HWPROF_MISC_USER, id, n, r->hit_dsos[i]);
	if (!b.n)
		return 0;
	return add_sb(r, HWPROF_FEAT_BUILD_ID, &b);
}

/* GROUP_DESC: each group of more than one event (perf's readers build
 * the group view from it): name, leader index, member count. Our groups
 * have no names; perf writes "{anon_group}" for those. */
static int add_group_desc(struct hwprof_recorder *r)
{
	struct sbuf b = { 0 };
	uint32_t nr = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			sb_u32(&b, nr);
		for (uint32_t i = 0; i < r->o.nr_events; i++) {
			if (r->ev[i].leader >= 0 && (uint32_t)r->ev[i].leader != i)
				continue;
			uint32_t members = 1;
			for (uint32_t k = 0; k < r->o.nr_events; k++)
				members += k != i && r->ev[k].leader == (int)i;
			if (members < 2)
				continue;
			if (!pass) {
				nr++;
				continue;
			}
			sb_str(&b, "{anon_group}");
			sb_u32(&b, i);
			sb_u32(&b, members);
		}
	}
	if (!nr) {
		free(b.p);
		return 0;
	}
	return add_sb(r, HWPROF_FEAT_GROUP_DESC, &b);
}

int rec_feat_add_all(struct hwprof_recorder *r, bool at_end)
{
	struct utsname u;
	char buf[512], buf2[256];
	int rc = 0;
	if (r->o.no_features)
		return 0;
	if (at_end && !r->o.pipe)
		rc = add_build_ids(r);
	if (!uname(&u)) {
		if (!rc)
			rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_HOSTNAME, u.nodename);
		if (!rc)
			rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_OSRELEASE, u.release);
	}
	if (!rc)
		rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_VERSION, "hwprof " HWPROF_VERSION);
	if (!rc && !uname(&u))
		rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_ARCH, u.machine);
	if (!rc) {
		int *on, non = 0;
		if (!rec_cpus_online(&on, &non))
			free(on);
		uint8_t nr[8];
		st32(nr, (uint32_t)rec_cpus_possible());
		st32(nr + 4, (uint32_t)non);
		rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_NRCPUS, nr, 8);
	}
	if (!rc) {
		cpu_strings(buf, sizeof(buf), buf2, sizeof(buf2));
		rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_CPUDESC, buf);
		if (!rc)
			rc = hwprof_writer_add_feature_string(r->w, HWPROF_FEAT_CPUID, buf2);
	}
	if (!rc) {
		FILE *f = fopen("/proc/meminfo", "re");
		unsigned long long kb = 0;
		while (f && fgets(buf, sizeof(buf), f))
			if (sscanf(buf, "MemTotal: %llu kB", &kb) == 1)
				break;
		if (f)
			fclose(f);
		uint8_t m[8];
		st64(m, kb);
		rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_TOTAL_MEM, m, 8);
	}
	if (!rc)
		rc = add_cmdline(r);
	if (!rc)
		rc = add_topology(r);
	if (!rc)
		rc = add_pmu_mappings(r);
	if (!rc)
		rc = add_group_desc(r);
	if (!rc && at_end && r->first_time) {
		uint8_t t[16];
		st64(t, r->first_time);
		st64(t + 8, r->last_time);
		rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_SAMPLE_TIME, t, 16);
	}
	if (!rc && r->o.use_clockid) {
		uint8_t res[8], cd[24];
		st64(res, r->o.clockid_res_ns);
		st32(cd, 1); /* version */
		st32(cd + 4, (uint32_t)r->o.clockid);
		st64(cd + 8, r->tod_ns);
		st64(cd + 16, r->clockid_ns);
		rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_CLOCKID, res, 8);
		if (!rc)
			rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_CLOCK_DATA, cd, 24);
	}
	if (!rc && r->o.zstd_level) {
		/* version 0, type 1 (zstd), level, ratio, mmap_len */
		uint8_t z[20];
		uint64_t ratio = r->st.bytes && r->st.bytes_raw ? r->st.bytes_raw / (r->st.bytes ? r->st.bytes : 1) : 1;
		st32(z, 0);
		st32(z + 4, 1);
		st32(z + 8, (uint32_t)r->o.zstd_level);
		st32(z + 12, (uint32_t)(ratio ? ratio : 1));
		st32(z + 16, (uint32_t)(r->rings ? r->rings[0].len : (r->o.mmap_pages + 1) * 4096u));
		rc = hwprof_writer_add_feature(r->w, HWPROF_FEAT_COMPRESSED, z, 20);
	}
	return rc;
}
