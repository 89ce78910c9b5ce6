/* Callchain tries of the report histograms: interned frames and trie
 * nodes shared by all entries of a hist; a node's children are found by
 * walking their insertion tree with perf's compare, as perf does (its
 * compare is not transitive where frames with and without symbols meet,
 * so an equal child can be missed and a second one made, as in perf). */
#ifndef HWPROF_REPORT_HIST_CHAIN_H
#define HWPROF_REPORT_HIST_CHAIN_H

#include "hwprof/report.h"
#include "util/ixtree.h"
#include "report/report_int.h"

struct hc_node {
	uint32_t frame, parent;
	uint32_t first_child, next_sibling;   /* unsorted, newest first */
	uint32_t sorted_first, sorted_next;
	uint32_t nr_children;
	uint32_t kids_root;                   /* its children's insertion tree
	                                       * (perf's rb_root_in), in kids */
	uint64_t ip;                          /* the raw address of the frame
	                                       * that made the node (perf
	                                       * compares it where a symbol is
	                                       * missing) */
	uint64_t hit, children_hit;
	uint32_t count, children_count;       /* perf's: chains appended ending
	                                       * here / passing through */
};

/* A chain being merged: frame ids and addresses from the root down. */
struct hc_path {
	uint32_t *frame;
	uint64_t *ip;
	size_t cap_frame, cap_ip;
};

/* perf's callchain_param.key: what makes two frames the same node */
enum hc_key { HC_KEY_FUNCTION, HC_KEY_SRCLINE, HC_KEY_ADDRESS };

struct hc_trie {
	enum hc_key key;
	struct hc_node *n;
	size_t nr, cap;
	struct ht_tree kids;            /* every node's children tree, one
	                                 * node array for all of them */
	struct hwprof_hist_frame *f;
	size_t nf, capf;
	/* per frame, what the function key's walk compares, so a step of it
	 * reads this small array instead of the frame's symbol */
	struct hc_fkey { uint64_t start; uint32_t rank; bool sym, inlined; } *fk;
	size_t capfk;
	struct rpt_map frame_map;       /* (dso, has sym, start or ip) -> frame */
	uint32_t *scratch;              /* sorting buffer */
	size_t cap_scratch;
};

void hc_free(struct hc_trie *t);
/* Frame id for a frame (interned: perf's match by DSO and symbol start,
 * or address without a symbol; by symbol and address with the srcline and
 * address keys, whose nodes compare frames by their contents). */
int hc_frame(struct hc_trie *t, const struct hwprof_hist_frame *fr, uint32_t *id);
int hc_new_root(struct hc_trie *t, uint32_t *root);
/* Appends a chain of frame ids (and the frames they came from, for their
 * addresses) below root with period. */
int hc_append(struct hc_trie *t, uint32_t root, const uint32_t *frames, const struct hwprof_hist_frame *chain,
	      size_t n, uint64_t period);
/* Adds every chain of src's trie into dst (perf's callchain_merge). */
int hc_merge(struct hc_trie *t, uint32_t dst, uint32_t src);
/* perf's flat and folded chain lists: the nodes below root where chains
 * end with at least min_hit, by those hits (*out to free). */
int hc_flat(struct hc_trie *t, uint32_t root, uint64_t min_hit, uint32_t **out, size_t *nr);
/* Sorted children lists below root, nodes under min_hit left out. */
int hc_sort(struct hc_trie *t, uint32_t root, uint64_t min_hit);
/* The same for perf's fractal graph: below each node only children with
 * at least min_percent of what passes below it. */
int hc_sort_rel(struct hc_trie *t, uint32_t root, double min_percent);

#endif
