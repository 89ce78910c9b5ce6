/* Threads and maps for a session (see machine.h). Maps of one address space
 * are kept sorted by start; a new map replaces the parts of older maps it
 * overlaps, as a new mmap does in the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hwprof/perf_event.h"
#include "session/machine.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"

int sess_machine_init(struct sess_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->nbuckets = 1024;
	m->buckets = calloc(m->nbuckets, sizeof(*m->buckets));
	m->kmaps.refs = 1;
	return m->buckets ? 0 : -1;
}

static void maps_put(struct sess_maps *ms)
{
	if (ms && --ms->refs == 0) {
		free(ms->v);
		free(ms);
	}
}

void sess_machine_fini(struct sess_machine *m)
{
	for (size_t i = 0; i < m->nbuckets; i++) {
		struct sess_thread *t = m->buckets ? m->buckets[i] : NULL;
		while (t) {
			struct sess_thread *n = t->next;
			maps_put(t->maps);
			free(t->comm);
			free(t);
			t = n;
		}
	}
	free(m->buckets);
	free(m->kmaps.v);
	for (size_t i = 0; i < m->nstrings; i++)
		free(m->strings[i]);
	free(m->strings);
	free(m->ids);
	memset(m, 0, sizeof(*m));
}

/* The name's index in m->strings, adding it; < 0 on allocation failure. */
static ptrdiff_t intern_at(struct sess_machine *m, const char *s)
{
	/* Few distinct DSOs: a linear scan from the newest is fast enough and
	 * keeps this allocation-light. */
	for (size_t i = m->nstrings; i-- > 0;)
		if (!strcmp(m->strings[i], s))
			return (ptrdiff_t)i;
	if (m->nstrings == m->capstrings) {
		size_t n = m->capstrings ? m->capstrings * 2 : 64;
		char **v = realloc(m->strings, n * sizeof(*v));
		if (!v)
			return -1;
		m->strings = v;
		struct sess_dso_id *ids = realloc(m->ids, n * sizeof(*ids));
		if (!ids)
			return -1;
		m->ids = ids;
		m->capstrings = n;
	}
	char *c = strdup(s);
	if (!c)
		return -1;
	memset(&m->ids[m->nstrings], 0, sizeof(*m->ids));
	m->strings[m->nstrings++] = c;
	return (ptrdiff_t)m->nstrings - 1;
}

static const char *intern(struct sess_machine *m, const char *s)
{
	ptrdiff_t i = intern_at(m, s);
	return i < 0 ? NULL : m->strings[i];
}

static bool id_empty(const struct sess_dso_id *id)
{
	return !id->maj && !id->min && !id->ino && !id->ino_generation;
}

/* A new map's DSO name and id: the record's id, else the name's first */
static int map_dso(struct sess_machine *m, struct sess_map *mp, const char *name, const struct sess_dso_id *id)
{
	ptrdiff_t i = intern_at(m, name);
	if (i < 0)
		return -1;
	mp->dso = m->strings[i];
	if (id && !id_empty(id)) {
		mp->id = *id;
		if (id_empty(&m->ids[i]))
			m->ids[i] = *id;
	} else {
		mp->id = m->ids[i];
	}
	return 0;
}

static size_t bucket(const struct sess_machine *m, int32_t tid)
{
	return ((uint32_t)tid * 2654435761u) & (m->nbuckets - 1);
}

struct sess_thread *sess_find_thread(struct sess_machine *m, int32_t tid)
{
	for (struct sess_thread *t = m->buckets[bucket(m, tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static struct sess_maps *maps_new(void)
{
	struct sess_maps *ms = calloc(1, sizeof(*ms));
	if (ms)
		ms->refs = 1;
	return ms;
}

static struct sess_thread *thread_new(struct sess_machine *m, int32_t pid, int32_t tid)
{
	struct sess_thread *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->serial = ++m->serials;
	snprintf(t->defcomm, sizeof(t->defcomm), ":%d", tid);
	size_t b = bucket(m, tid);
	t->next = m->buckets[b];
	m->buckets[b] = t;
	m->nthreads++;
	return t;
}

/* A thread shares its process leader's address space. */
static int thread_init_maps(struct sess_machine *m, struct sess_thread *t)
{
	if (t->pid == t->tid || t->pid == -1) {
		t->maps = maps_new();
		return t->maps ? 0 : -1;
	}
	struct sess_thread *leader = sess_findnew_thread(m, t->pid, t->pid);
	if (!leader)
		return -1;
	t->maps = leader->maps;
	if (t->maps)
		t->maps->refs++;
	return 0;
}

static void remove_thread(struct sess_machine *m, struct sess_thread *t)
{
	struct sess_thread **pp = &m->buckets[bucket(m, t->tid)];
	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	maps_put(t->maps);
	free(t->comm);
	free(t);
	m->nthreads--;
}

struct sess_thread *sess_findnew_thread(struct sess_machine *m, int32_t pid, int32_t tid)
{
	struct sess_thread *t = sess_find_thread(m, tid);
	if (t) {
		/* A thread first seen without its pid learns it later. */
		if (t->pid == -1 && pid != -1 && pid != t->pid) {
			m->version++;
			t->pid = pid;
			if (pid != tid) {
				struct sess_thread *leader = sess_findnew_thread(m, pid, pid);
				if (leader && leader->maps && leader->maps != t->maps) {
					maps_put(t->maps);
					t->maps = leader->maps;
					t->maps->refs++;
				}
			}
		}
		return t;
	}
	m->version++;
	t = thread_new(m, pid, tid);
	if (!t)
		return NULL;
	if (thread_init_maps(m, t))
		return NULL;
	return t;
}

const char *sess_thread_comm(const struct sess_thread *t)
{
	return t->comm ? t->comm : t->defcomm;
}

static int set_comm(struct sess_thread *t, const char *comm)
{
	char *c = strdup(comm);
	if (!c)
		return -1;
	free(t->comm);
	t->comm = c;
	t->comm_set = true;
	return 0;
}

int sess_process_comm(struct sess_machine *m, int32_t pid, int32_t tid, const char *comm)
{
	struct sess_thread *t = sess_findnew_thread(m, pid, tid);
	if (!t)
		return -1;
	return set_comm(t, comm);
}

static int maps_reserve(struct sess_maps *ms, size_t n)
{
	if (n <= ms->cap)
		return 0;
	size_t c = ms->cap ? ms->cap * 2 : 16;
	while (c < n)
		c *= 2;
	struct sess_map *v = realloc(ms->v, c * sizeof(*v));
	if (!v)
		return -1;
	ms->v = v;
	ms->cap = c;
	return 0;
}

/* Insert, cutting away whatever the new map overlaps. */
static int maps_insert(struct sess_maps *ms, struct sess_map nm)
{
	if (maps_reserve(ms, ms->n + 2))
		return -1;
	size_t w = 0;
	struct sess_map *v = ms->v;
	size_t n = ms->n;
	/* Rebuild in place: at most one old map splits in two. */
	struct sess_map tail = { 0 };
	bool have_tail = false;
	for (size_t i = 0; i < n; i++) {
		struct sess_map o = v[i];
		if (o.end <= nm.start || o.start >= nm.end) {
			v[w++] = o;
			continue;
		}
		if (o.start < nm.start) {
			struct sess_map l = o;
			l.end = nm.start;
			v[w++] = l;
		}
		if (o.end > nm.end) {
			tail = o;
			tail.pgoff += nm.end - o.start;
			tail.start = nm.end;
			have_tail = true;
		}
	}
	n = w;
	/* insertion point */
	size_t pos = n;
	while (pos > 0 && v[pos - 1].start > nm.start)
		pos--;
	memmove(&v[pos + 1], &v[pos], (n - pos) * sizeof(*v));
	v[pos] = nm;
	n++;
	if (have_tail) {
		size_t p2 = n;
		while (p2 > 0 && v[p2 - 1].start > tail.start)
			p2--;
		memmove(&v[p2 + 1], &v[p2], (n - p2) * sizeof(*v));
		v[p2] = tail;
		n++;
	}
	ms->n = n;
	return 0;
}

static const struct sess_map *maps_find(const struct sess_maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ms->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct sess_map *mp = &ms->v[lo - 1];
	return addr < mp->end ? mp : NULL;
}

int sess_process_fork(struct sess_machine *m, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
		      bool clone_maps)
{
	struct sess_thread *old = sess_find_thread(m, tid);
	struct sess_thread *parent = sess_findnew_thread(m, ppid, ptid);
	if (!parent)
		return -1;
	if (old && old != parent)
		remove_thread(m, old);
	struct sess_thread *t = sess_findnew_thread(m, pid, tid);
	if (!t)
		return -1;
	if (parent->comm_set && set_comm(t, sess_thread_comm(parent)))
		return -1;
	t->ppid = parent->tid;
	/* A new process gets a copy of its parent's address space (not a
	 * task perf synthesized from /proc: its own MMAPs follow) */
	if (clone_maps && t->pid != parent->pid && parent->maps && t->maps && t->maps != parent->maps) {
		for (size_t i = 0; i < parent->maps->n; i++)
			if (maps_insert(t->maps, parent->maps->v[i]))
				return -1;
	}
	return 0;
}

static bool starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

int sess_process_mmap(struct sess_machine *m, unsigned cpumode, int32_t pid, int32_t tid, uint64_t start,
		      uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags, const struct sess_dso_id *id,
		      const char *filename)
{
	if (cpumode == HWPROF_MISC_KERNEL || cpumode == HWPROF_MISC_GUEST_KERNEL) {
		if (cpumode == HWPROF_MISC_GUEST_KERNEL)
			return 0; /* guest machines are not tracked */
		bool is_kernel = !strncmp(filename, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME) - 1);
		struct sess_map km = { start, start + len, pgoff, NULL, prot, flags, false, { 0 } };
		if (filename[0] == '/' || (!is_kernel && filename[0] == '[')) {
			if (map_dso(m, &km, filename, id) < 0)
				return -1;
		} else if (is_kernel) {
			km.dso = intern(m, KERNEL_MMAP_NAME);
			/* perf: the name after "[kernel.kallsyms]", even "" (which
			 * then matches no kallsyms entry), unless pgoff is 0 */
			if (pgoff) {
				size_t l = strlen(KERNEL_MMAP_NAME);
				snprintf(m->kref_name, sizeof(m->kref_name), "%s",
					 strlen(filename) >= l ? filename + l : "");
				m->kref_addr = pgoff;
				m->kref_set = true;
			}
			km.pgoff = 0;
			if (start == 0 && len == 0)
				km.end = ~0ULL;
			/* The kernel map moves: drop the previous one. */
			for (size_t i = 0; i < m->kmaps.n; i++)
				if (m->kmaps.v[i].dso == km.dso) {
					memmove(&m->kmaps.v[i], &m->kmaps.v[i + 1],
						(m->kmaps.n - i - 1) * sizeof(km));
					m->kmaps.n--;
					break;
				}
		} else {
			return 0;
		}
		if (!km.dso)
			return -1;
		return maps_insert(&m->kmaps, km);
	}
	struct sess_thread *t = sess_findnew_thread(m, pid, tid);
	if (!t || !t->maps)
		return -1;
	char buf[64];
	const char *name = filename;
	bool anon = starts_with(filename, "//anon") || starts_with(filename, "/dev/zero") ||
		    starts_with(filename, "/anon_hugepage") || (flags & 0x40000 /* MAP_HUGETLB */);
	bool no_dso = starts_with(filename, "[stack") || starts_with(filename, "/SYSV") ||
		      !strcmp(filename, "[heap]");
	if ((anon || no_dso) && (prot & PROT_EXEC)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", pid);
		name = buf;
	}
	struct sess_map nm = { start, start + len, pgoff, NULL, prot, flags, anon || no_dso, { 0 } };
	if (map_dso(m, &nm, name, id) < 0)
		return -1;
	if (!strcmp(filename, "[vdso]"))
		nm.pgoff = 0;
	return maps_insert(t->maps, nm);
}

int sess_process_ksymbol(struct sess_machine *m, uint64_t addr, uint32_t len, uint16_t flags, const char *name)
{
	const struct sess_map *hit = maps_find(&m->kmaps, addr);
	if (flags & 1) { /* unregister: drop the map, unless it is the kernel's own */
		if (!hit || !strcmp(hit->dso, KERNEL_MMAP_NAME))
			return 0;
		size_t i = (size_t)(hit - m->kmaps.v);
		memmove(&m->kmaps.v[i], &m->kmaps.v[i + 1], (m->kmaps.n - i - 1) * sizeof(*hit));
		m->kmaps.n--;
		return 0;
	}
	if (hit)
		return 0; /* already covered (e.g. by the kernel map): perf adds a symbol only */
	/* BPF images (trampolines, dispatchers) get an empty DSO name in perf */
	bool image = !strncmp(name, "bpf_trampoline_", 15) || !strncmp(name, "bpf_dispatcher_", 15);
	struct sess_map km = { addr, addr + len, 0, intern(m, image ? "" : name), 0, 0, false, { 0 } };
	if (!km.dso)
		return -1;
	return maps_insert(&m->kmaps, km);
}

const struct sess_map *sess_kernel_map(const struct sess_machine *m)
{
	for (size_t i = 0; i < m->kmaps.n; i++)
		if (!strcmp(m->kmaps.v[i].dso, KERNEL_MMAP_NAME))
			return &m->kmaps.v[i];
	return NULL;
}

const struct sess_map *sess_find_map(struct sess_machine *m, struct sess_thread *t, unsigned cpumode,
				     uint64_t addr, char *level)
{
	switch (cpumode) {
	case HWPROF_MISC_KERNEL:
		*level = 'k';
		return maps_find(&m->kmaps, addr);
	case HWPROF_MISC_USER:
		*level = '.';
		return t && t->maps ? maps_find(t->maps, addr) : NULL;
	default:
		/* Guests are not tracked (perf needs --guest for them). */
		*level = 'H';
		return NULL;
	}
}
