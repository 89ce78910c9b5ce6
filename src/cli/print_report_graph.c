/* perf report --stdio's call graph ("graph" mode, absolute percentages;
 * "fractal", each level's percentages of what passes below its parent),
 * as perf 6.1's ui/stdio/hist.c draws it: a single root shown after
 * "---" with its frames one per line, then each level's children with a
 * "|" column per open level, a separator line before each child, and
 * "--NN.NN%--" before the first frame of each graph node. A graph node is
 * a run of frames without branches or chain ends inside. */
#include <inttypes.h>
#include <stdlib.h>

#include "cli/print_report.h"
#include "hwprof/perf_event.h"

static void margin(FILE *f, int left)
{
	fprintf(f, "            %*s", left, "");
}

/* perf's masks are ints shifted by the depth: on x86 the count wraps at 32 */
static int bit(int d)
{
	return (int)(1u << (d & 31));
}

static uint32_t run_next(const struct hwprof_hist *h, uint32_t t)
{
	if (hwprof_chain_hit(h, t) == 0 && hwprof_chain_nr_children(h, t) == 1)
		return hwprof_chain_first(h, t);
	return HWPROF_CHAIN_NONE;
}

static uint32_t run_end(const struct hwprof_hist *h, uint32_t t)
{
	for (uint32_t n; (n = run_next(h, t)) != HWPROF_CHAIN_NONE;)
		t = n;
	return t;
}

/* perf's callchain_list__sym_name() */
static void frame_name(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t t)
{
	const struct hwprof_hist_frame *fr = hwprof_chain_frame(h, t);
	if (fr->sym) {
		fputs(fr->sym->name, f);
		if (l->chain_srcline && fr->srcline)
			fprintf(f, " %s", fr->srcline);
		if (fr->sym->inlined)
			fputs(" (inlined)", f);
	} else
		fprintf(f, "%#llx", (unsigned long long)fr->ip);
}

static void graph_line(FILE *f, int depth, int mask, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & bit(i) ? "|          " : "           ", f);
	fputc('\n', f);
}

/* perf's callchain_node__fprintf_value(): a share of total, the period
 * itself, or the count of chains */
static void value(FILE *f, const struct report_layout *l, uint64_t v, uint32_t count, uint64_t total)
{
	if (l->value_count)
		fprintf(f, "%u", count);
	else if (l->value_period)
		fprintf(f, "%" PRIu64, v);
	else
		fprintf(f, "%.2f%%", total ? (double)v * 100.0 / (double)total : 0.0);
}

static void ipchain(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t t,
		    uint64_t node_cumul, uint32_t node_count, int depth, int mask, int idx, uint64_t total, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & bit(i) ? '|' : ' ', f);
		if (!idx && i == depth - 1) {
			fputs("--", f);
			value(f, l, node_cumul, node_count, total);
			fputs("--", f);
		} else {
			fputs("          ", f);
		}
	}
	frame_name(f, l, h, t);
	fputc('\n', f);
}

/* The line perf adds under a fractal level whose shown children do not
 * hold all of it: the rest, as "[...]" */
static void rest_line(FILE *f, const struct report_layout *l, uint64_t rest, uint32_t rest_count, int depth,
		      int mask, uint64_t total, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & bit(i) ? '|' : ' ', f);
		if (i == depth - 1) {
			fputs("--", f);
			value(f, l, rest, rest_count, total);
			fputs("--", f);
		} else {
			fputs("          ", f);
		}
	}
	fputs("[...]\n", f);
}

/* The sorted children of node (the end of a graph node), as graph nodes.
 * total is what percentages are of: the entry's or all samples' period
 * (graph), what passes below the node (fractal). */
static size_t level(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t node,
		    uint64_t total, int depth, int mask, int left)
{
	bool fractal = l->graph_mode == RG_FRACTAL;
	size_t printed = 0;
	uint32_t shown = 0;
	int new_mask = mask;
	uint64_t rest = total;
	/* the count's rest: what passes below node less the shown children */
	uint32_t rest_count = hwprof_chain_cumul_count(h, node) - hwprof_chain_count(h, node);
	for (uint32_t c = hwprof_chain_first(h, node); c != HWPROF_CHAIN_NONE;) {
		uint32_t next = hwprof_chain_next(h, c);
		uint64_t cum = hwprof_chain_cumul(h, c);
		uint32_t cnt = hwprof_chain_cumul_count(h, c);
		rest -= cum;
		rest_count -= cnt;
		/* the last child closes the level's column, unless a fractal
		 * rest line follows */
		if (next == HWPROF_CHAIN_NONE && (!fractal || !rest))
			new_mask &= ~bit(depth - 1);
		graph_line(f, depth, mask, left);
		int idx = 0;
		uint32_t t = c, last = c;
		for (; t != HWPROF_CHAIN_NONE; t = run_next(h, t)) {
			ipchain(f, l, h, t, cum, cnt, depth, new_mask, idx++, total, left);
			last = t;
		}
		printed++;
		uint64_t below = fractal ? hwprof_chain_cumul(h, last) - hwprof_chain_hit(h, last) : total;
		printed += level(f, l, h, last, below, depth + 1, new_mask | bit(depth), left);
		if (++shown == l->print_limit)
			break;
		c = next;
	}
	/* perf leaves the count's rest out when it is 0 */
	if (fractal && rest && rest != total && (!l->value_count || rest_count)) {
		rest_line(f, l, rest, rest_count, depth, new_mask & ~bit(depth - 1), total, left);
		printed++;
	}
	return printed;
}

void print_report_graph(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t root,
			uint64_t total, uint64_t parent)
{
	bool skip_first = l->graph_skip_first;
	int left = 0;
	size_t printed = 0;
	uint32_t first = hwprof_chain_first(h, root);
	if (first != HWPROF_CHAIN_NONE && hwprof_chain_next(h, first) == HWPROF_CHAIN_NONE &&
	    hwprof_chain_cumul(h, first) == parent) {
		/* one root holding all of the entry's period: its frames after
		 * "---", without a percentage */
		bool started = false;
		int i = 0;
		for (uint32_t t = first; t != HWPROF_CHAIN_NONE; t = run_next(h, t)) {
			if (!i++ && skip_first)
				continue;
			if (!started) {
				margin(f, left);
				fputs("|\n", f);
				margin(f, left);
				fputs("---", f);
				left += 3;
				started = true;
			} else {
				margin(f, left);
			}
			frame_name(f, l, h, t);
			fputc('\n', f);
			if (++printed == l->print_limit)
				break; /* perf stops the run, then goes on below it */
		}
		root = run_end(h, first);
	}
	if (l->graph_mode == RG_FRACTAL)
		total = parent; /* shares of the entry */
	printed += level(f, l, h, root, total, 1, 1, left);
	if (printed)
		fputc('\n', f);
}

/* One chain from the entry's root down to node: perf prints the frames
 * above first. Returns how many were printed. */
static size_t chain_path(FILE *f, const struct report_layout *l, const struct hwprof_hist *h, uint32_t node,
			 bool folded, size_t done)
{
	if (node == HWPROF_CHAIN_NONE || hwprof_chain_parent(h, node) == HWPROF_CHAIN_NONE)
		return done; /* the entry's root holds no frame */
	done = chain_path(f, l, h, hwprof_chain_parent(h, node), folded, done);
	if (hwprof_chain_frame(h, node)->ip >= HWPROF_CONTEXT_MAX)
		return done; /* perf leaves out context markers and the 0 - 1 frame */
	if (folded) {
		if (done) /* perf's -t separator, if any */
			fputs(l->field_sep ? l->field_sep : ";", f);
	} else {
		fputs("                ", f);
	}
	frame_name(f, l, h, node);
	if (!folded)
		fputc('\n', f);
	return done + 1;
}

void print_report_flat(FILE *f, const struct report_layout *l, struct hwprof_hist *h, uint32_t root, uint64_t total)
{
	uint32_t *v;
	size_t n;
	if (hwprof_hist_flat_chains(h, root, l->min_hit, &v, &n) < 0 || !v)
		return;
	bool folded = l->graph_mode == RG_FOLDED;
	for (size_t i = 0; i < n; i++) {
		/* flat shows what passes through the node too, folded only
		 * the chains ending there */
		uint64_t val = folded ? hwprof_chain_hit(h, v[i]) : hwprof_chain_cumul(h, v[i]);
		uint32_t cnt = folded ? hwprof_chain_count(h, v[i]) : hwprof_chain_cumul_count(h, v[i]);
		if (folded) {
			value(f, l, val, cnt, total);
			fputc(' ', f);
			chain_path(f, l, h, v[i], true, 0);
			fputc('\n', f);
		} else {
			fputs("           ", f);
			value(f, l, val, cnt, total);
			fputc('\n', f);
			chain_path(f, l, h, v[i], false, 0);
			fputc('\n', f);
		}
		if (i + 1 == l->print_limit)
			break;
	}
	free(v);
}
