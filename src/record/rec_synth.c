/* The records perf record writes before (and after) the kernel's: ID_INDEX,
 * the kernel MMAP, EVENT_UPDATE (unit, scale; name in pipe mode),
 * THREAD_MAP, CPU_MAP, then COMM/FORK/MMAP2 for tasks that already exist
 * (read from /proc), FINISHED_INIT; LOST_SAMPLES at the end. Synthesized
 * kernel records carry a zero sample_id trailer, as perf's do. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/rec_int.h"
#include "util/bytes.h"

int rec_write(struct hwprof_recorder *r, const void *rec, int size)
{
	if (size < 0)
		return size;
	r->st.bytes_raw += (uint64_t)size;
	return hwprof_writer_write(r->w, rec, (size_t)size);
}

static const struct hwprof_attr *attr0(struct hwprof_recorder *r)
{
	return &r->ev[0].attr;
}

static int id_index(struct hwprof_recorder *r)
{
	const size_t per = (65535 - 16) / 32;
	for (size_t at = 0; at < r->nr_fds; at += per) {
		size_t n = r->nr_fds - at < per ? r->nr_fds - at : per;
		uint8_t *b = r->tmp;
		st32(b, HWPROF_RECORD_ID_INDEX);
		st16(b + 4, 0);
		st16(b + 6, (uint16_t)(16 + 32 * n));
		st64(b + 8, n);
		for (size_t i = 0; i < n; i++) {
			const struct rec_fd *f = &r->fds[at + i];
			int cpu_idx = 0;
			for (int c = 0; c < r->nr_cpus; c++)
				if (r->cpus[c] == f->cpu)
					cpu_idx = c;
			uint8_t *e = b + 16 + 32 * i;
			st64(e, f->id);
			st64(e + 8, (uint64_t)cpu_idx);
			st64(e + 16, (uint64_t)(int64_t)f->cpu);
			st64(e + 24, (uint64_t)(int64_t)f->tid);
		}
		int rc = rec_write(r, b, (int)(16 + 32 * n));
		if (rc)
			return rc;
	}
	return 0;
}

/* [kernel.kallsyms]_text: _text to _etext from /proc/kallsyms. */
static int kernel_mmap(struct hwprof_recorder *r)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	uint64_t text = 0, etext = 0;
	char line[512];
	while (f && fgets(line, sizeof(line), f) && !(text && etext)) {
		unsigned long long a;
		char t, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		else if (!strcmp(name, "_etext"))
			etext = a;
	}
	if (f)
		fclose(f);
	if (!text)
		return 0; /* kptr_restrict: perf then writes no kernel map either */
	uint64_t len = etext > text ? etext - text : 0;
	return rec_write(r, r->tmp,
			 hwprof_build_mmap(r->tmp, sizeof(r->tmp), attr0(r), NULL, HWPROF_MISC_KERNEL,
					   (uint32_t)-1, 0, text, len, text, "[kernel.kallsyms]_text"));
}

/* EVENT_UPDATE: u64 type, u64 id, payload; sized like perf's (40 bytes of
 * fixed part, then rounded up to 8). */
static int event_update(struct hwprof_recorder *r, uint64_t type, uint64_t id, const void *p, size_t n)
{
	size_t size = (40 + n + 7) & ~(size_t)7;
	if (size > 65535)
		return 0;
	uint8_t *b = r->tmp;
	memset(b, 0, size);
	st32(b, HWPROF_RECORD_EVENT_UPDATE);
	st16(b + 6, (uint16_t)size);
	st64(b + 8, type);
	st64(b + 16, id);
	memcpy(b + 24, p, n);
	return rec_write(r, b, (int)size);
}

static uint64_t first_id(struct hwprof_recorder *r, uint32_t ev)
{
	for (size_t i = 0; i < r->nr_fds; i++)
		if (r->fds[i].ev == ev)
			return r->fds[i].id;
	return 0;
}

static int event_updates(struct hwprof_recorder *r)
{
	int rc = 0;
	for (uint32_t i = 0; i < r->o.nr_events && !rc; i++) {
		const struct hwprof_record_event *e = &r->ev[i];
		uint64_t id = first_id(r, i);
		if (e->unit)
			rc = event_update(r, 0, id, e->unit, strlen(e->unit) + 1);
		if (!rc && e->scale != 0) {
			uint8_t d[8];
			memcpy(d, &e->scale, 8);
			rc = event_update(r, 1, id, d, 8);
		}
		if (!rc && r->o.pipe && e->name)
			rc = event_update(r, 2, id, e->name, strlen(e->name) + 1);
	}
	return rc;
}

static int thread_map(struct hwprof_recorder *r)
{
	const size_t per = (65535 - 16) / 24;
	size_t n = (size_t)r->nr_threads < per ? (size_t)r->nr_threads : per;
	uint8_t *b = r->tmp;
	memset(b, 0, 16 + 24 * n);
	st32(b, HWPROF_RECORD_THREAD_MAP);
	st16(b + 6, (uint16_t)(16 + 24 * n));
	st64(b + 8, n);
	for (size_t i = 0; i < n; i++)
		st64(b + 16 + 24 * i, (uint64_t)(int64_t)r->threads[i]);
	return rec_write(r, b, (int)(16 + 24 * n));
}

static int cpu_map(struct hwprof_recorder *r)
{
	uint8_t *b = r->tmp;
	bool range = r->nr_cpus > 0 && r->cpus[0] >= 0;
	for (int i = 1; i < r->nr_cpus && range; i++)
		range = r->cpus[i] == r->cpus[i - 1] + 1;
	memset(b, 0, 8 + 8 + 2 * (size_t)r->nr_cpus);
	st32(b, HWPROF_RECORD_CPU_MAP);
	size_t size;
	if (range) {
		st16(b + 8, 2); /* RANGE_CPUS: any_cpu, pad, start, end */
		st16(b + 12, (uint16_t)r->cpus[0]);
		st16(b + 14, (uint16_t)r->cpus[r->nr_cpus - 1]);
		size = 16;
	} else {
		st16(b + 8, 0); /* CPUS: nr, cpu[nr] */
		st16(b + 10, (uint16_t)r->nr_cpus);
		for (int i = 0; i < r->nr_cpus; i++)
			st16(b + 12 + 2 * i, (uint16_t)r->cpus[i]);
		size = (12 + 2 * (size_t)r->nr_cpus + 7) & ~(size_t)7;
	}
	st16(b + 6, (uint16_t)size);
	return rec_write(r, b, (int)size);
}

int rec_synth_header_records(struct hwprof_recorder *r)
{
	int rc = id_index(r);
	if (!rc && !r->o.no_synth)
		rc = kernel_mmap(r);
	if (!rc)
		rc = event_updates(r);
	if (!rc)
		rc = thread_map(r);
	if (!rc)
		rc = cpu_map(r);
	return rc;
}

/* ---- tasks from /proc ---------------------------------------------------- */

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return (int)n;
}

static int task_comm(int pid, int tid, char *comm, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (read_file(path, comm, len) <= 0)
		return -1;
	comm[strcspn(comm, "\n")] = 0;
	return 0;
}

static int task_ppid(int pid)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	const char *p = strstr(buf, "\nPPid:");
	return p ? atoi(p + 6) : 0;
}

static int mmaps(struct hwprof_recorder *r, int pid)
{
	char path[64], line[4352];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0; /* gone, or a kernel thread */
	bool data = HWPROF_ATTR_HAS(attr0(r), HWPROF_ATTR_MMAP_DATA);
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perm[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff, &maj, &min, &ino,
			   &name_at) < 7)
			continue;
		bool exec = perm[2] == 'x';
		if (!exec && !data)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		if (!*name)
			name = (char *)"//anon";
		uint32_t prot = (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) | (exec ? 4 : 0);
		uint32_t flags = perm[3] == 's' ? 1 : 2;
		uint16_t misc = HWPROF_MISC_USER | (exec ? 0 : HWPROF_MISC_MMAP_DATA);
		rc = rec_write(r, r->tmp,
			       hwprof_build_mmap2(r->tmp, sizeof(r->tmp), attr0(r), NULL, misc, (uint32_t)pid,
						  (uint32_t)pid, start, end - start, pgoff, maj, min, ino, 0, prot,
						  flags, name));
	}
	fclose(f);
	return rc;
}

/* COMM (+ FORK system-wide) for each thread of pid, then its maps. */
static int one_process(struct hwprof_recorder *r, int pid, bool forks, int only_tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int ppid = forks ? task_ppid(pid) : 0, rc = 0;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		int tid = atoi(de->d_name);
		if (only_tid && tid != only_tid)
			continue;
		char comm[64];
		if (task_comm(pid, tid, comm, sizeof(comm)))
			continue;
		if (forks) {
			int pp = tid == pid ? ppid : pid;
			int n = hwprof_build_task(r->tmp, sizeof(r->tmp), attr0(r), NULL, HWPROF_RECORD_FORK,
						  (uint32_t)pid, (uint32_t)pp, (uint32_t)tid, (uint32_t)pp, 0);
			if (n > 0)
				st16(r->tmp + 4, 1u << 13); /* perf's synthesized FORKs carry misc bit 13 */
			rc = rec_write(r, r->tmp, n);
		}
		if (!rc)
			rc = rec_write(r, r->tmp,
				       hwprof_build_comm(r->tmp, sizeof(r->tmp), attr0(r), NULL, (uint32_t)pid,
							 (uint32_t)tid, comm, 0));
	}
	closedir(d);
	if (!rc)
		rc = mmaps(r, pid);
	return rc;
}

static int tgid_of(int tid)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return tid;
	const char *p = strstr(buf, "\nTgid:");
	return p ? atoi(p + 6) : tid;
}

int rec_synth_tasks(struct hwprof_recorder *r)
{
	int rc = 0;
	/* the target's tasks from /proc (none for a workload alone) */
	if (r->o.no_synth) {
	} else if (r->o.pid > 0) {
		rc = one_process(r, r->o.pid, false, 0);
	} else if (r->o.tid > 0) {
		rc = one_process(r, tgid_of(r->o.tid), false, r->o.tid);
	} else if (r->o.system_wide || r->o.cpus || r->child <= 0) {
		DIR *d = opendir("/proc");
		struct dirent *de;
		while (d && !rc && (de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				rc = one_process(r, atoi(de->d_name), true, 0);
		if (d)
			closedir(d);
	}
	/* then the workload before exec: its COMM only, as perf writes */
	if (!rc && !r->o.no_synth && r->child > 0)
		rc = rec_write(r, r->tmp,
			       hwprof_build_comm(r->tmp, sizeof(r->tmp), attr0(r), NULL, (uint32_t)r->child,
						 (uint32_t)r->child, "hwprof-exec", 0));
	if (!rc) {
		uint8_t fin[8];
		rc = rec_write(r, fin, hwprof_build_user_record(fin, sizeof(fin), HWPROF_RECORD_FINISHED_INIT, NULL, 0));
	}
	return rc;
}

/* perf reads each counter's lost count (read_format LOST) at the end and
 * writes a LOST_SAMPLES record for every non-zero one. */
int rec_synth_lost_samples(struct hwprof_recorder *r)
{
	for (size_t i = 0; i < r->nr_fds; i++) {
		const struct rec_fd *f = &r->fds[i];
		const struct hwprof_attr *a = &r->ev[f->ev].attr;
		if (!(a->read_format & HWPROF_FORMAT_LOST) || (a->read_format & HWPROF_FORMAT_GROUP))
			continue;
		uint64_t v[8] = { 0 };
		long n = r->sys.read(f->fd, v, sizeof(v));
		unsigned k = 1 + !!(a->read_format & HWPROF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(a->read_format & HWPROF_FORMAT_TOTAL_TIME_RUNNING) + !!(a->read_format & HWPROF_FORMAT_ID);
		if (n < (long)(8 * (k + 1)) || !v[k])
			continue;
		struct hwprof_sample id = { 0 };
		id.id = f->id;
		id.cpu = f->cpu < 0 ? 0 : (uint32_t)f->cpu;
		id.pid = id.tid = f->tid < 0 ? 0 : (uint32_t)f->tid;
		uint8_t body[8];
		st64(body, v[k]);
		r->st.lost_samples += v[k];
		int rc = rec_write(r, r->tmp,
				   hwprof_build_kernel_record(r->tmp, sizeof(r->tmp), a, &id,
							      HWPROF_RECORD_LOST_SAMPLES, 0, body, 8));
		if (rc)
			return rc;
	}
	return 0;
}
