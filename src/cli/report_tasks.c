/* The task tree of report --tasks (see report_tasks.h). perf lists its
 * threads from a table of 256 buckets by tid, each sorted by tid, walks
 * each thread up to its root linking every thread into its parent's
 * children on the way, and prints the roots in the order they were met. */
#include <stdlib.h>
#include <string.h>

#include "cli/report_tasks.h"

struct task {
	struct hwprof_thread_info t;
	bool listed;       /* in a parent's children or the roots */
	size_t *kids, nkids, capkids;
};

/* perf's iteration order: bucket tid % 256 (as unsigned), then tid */
static int by_bucket(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	uint32_t bx = (uint32_t)x->t.tid % 256, by = (uint32_t)y->t.tid % 256;
	if (bx != by)
		return bx < by ? -1 : 1;
	return (x->t.tid > y->t.tid) - (x->t.tid < y->t.tid);
}

static int add_kid(struct task *p, size_t k)
{
	if (p->nkids == p->capkids) {
		size_t c = p->capkids ? p->capkids * 2 : 4;
		size_t *v = realloc(p->kids, c * sizeof(*v));
		if (!v)
			return -1;
		p->kids = v;
		p->capkids = c;
	}
	p->kids[p->nkids++] = k;
	return 0;
}

/* the task of thread tid (tids are unique in perf's table) */
static long find_tid(const struct task *v, size_t n, int32_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].t.tid == tid)
			return (long)i;
	return -1;
}

static void print_maps(FILE *out, struct hwprof_session *s, int32_t tid, int indent)
{
	size_t n = hwprof_session_thread_maps(s, tid, NULL, 0);
	struct hwprof_map_info *m = n ? calloc(n, sizeof(*m)) : NULL;
	if (!m)
		return;
	n = hwprof_session_thread_maps(s, tid, m, n);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%*s  %llx-%llx %c%c%c%c %08llx %llu %s\n", indent, "", (unsigned long long)m[i].start,
			(unsigned long long)m[i].end, m[i].prot & 1 ? 'r' : '-', m[i].prot & 2 ? 'w' : '-',
			m[i].prot & 4 ? 'x' : '-', m[i].flags & 1 /* MAP_SHARED */ ? 's' : 'p',
			(unsigned long long)m[i].pgoff, (unsigned long long)m[i].ino, m[i].dso);
	free(m);
}

/* depth-first, children in the order they were linked; a stack of
 * (task, next child) instead of recursion for deep trees */
static int print_tree(FILE *out, struct hwprof_session *s, struct task *v, size_t root, bool mmaps)
{
	struct frame { size_t task, next; } *st = NULL;
	size_t depth = 0, cap = 0;
	int rc = 0;
	for (size_t cur = root;;) {
		const struct hwprof_thread_info *t = &v[cur].t;
		int indent = fprintf(out, "  %8d %8d %8d |%*s", (int)t->pid, (int)t->tid, (int)t->ppid, (int)depth, "");
		fprintf(out, "%s\n", t->comm);
		if (mmaps)
			print_maps(out, s, t->tid, indent);
		if (depth == cap) {
			size_t c = cap ? cap * 2 : 16;
			struct frame *f = realloc(st, c * sizeof(*f));
			if (!f) {
				rc = -1;
				break;
			}
			st = f;
			cap = c;
		}
		st[depth++] = (struct frame){ cur, 0 };
		/* the next unvisited child up the stack */
		while (depth && st[depth - 1].next >= v[st[depth - 1].task].nkids)
			depth--;
		if (!depth)
			break;
		struct frame *f = &st[depth - 1];
		cur = v[f->task].kids[f->next++];
	}
	free(st);
	return rc;
}

int print_tasks(FILE *out, struct hwprof_session *s, bool mmaps)
{
	size_t n = hwprof_session_threads(s, NULL, 0);
	struct task *v = calloc(n ? n : 1, sizeof(*v));
	size_t *roots = calloc(n ? n : 1, sizeof(*roots));
	struct hwprof_thread_info *ti = calloc(n ? n : 1, sizeof(*ti));
	int rc = -1;
	size_t nroots = 0;
	if (!v || !roots || !ti)
		goto out;
	n = hwprof_session_threads(s, ti, n);
	for (size_t i = 0; i < n; i++)
		v[i].t = ti[i];
	qsort(v, n, sizeof(*v), by_bucket);
	for (size_t i = 0; i < n; i++) {
		/* up to the first thread already listed, or a root */
		size_t cur = i;
		for (;;) {
			if (v[cur].listed)
				break;
			if (v[cur].t.ppid == -1) {
				v[cur].listed = true;
				roots[nroots++] = cur;
				break;
			}
			long p = find_tid(v, n, v[cur].t.ppid);
			if (p < 0) {
				fprintf(stderr, "Error: failed to process tasks\n");
				goto out;
			}
			if (add_kid(&v[p], cur))
				goto out;
			v[cur].listed = true;
			cur = (size_t)p;
		}
	}
	fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	rc = 0;
	for (size_t i = 0; i < nroots && !rc; i++)
		rc = print_tree(out, s, v, roots[i], mmaps);
out:
	for (size_t i = 0; v && i < n; i++)
		free(v[i].kids);
	free(v);
	free(roots);
	free(ti);
	return rc;
}
