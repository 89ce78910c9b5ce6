/* An interactive SVG flame graph of one event, written by our own code:
 * stacks merged by frame label from the root, each frame as wide as its
 * weight, children in name order, the root at the bottom. Colours come
 * from a hash of the name, warm for user code and blue-green for kernel
 * code. A small embedded script zooms on click, searches by regular
 * expression and shows details on hover; <title> elements give native
 * tooltips with sample counts and percentages. */
#include <stdlib.h>
#include <string.h>

#include "hwprof/profile.h"
#include "report/report_int.h"

#define FRAME_H 16
#define PAD 10
#define TOP 48
#define BOTTOM 28
#define MIN_PX 0.1

struct fg_node {
	const char *label;
	uint32_t parent, first_child, next, depth;
	uint64_t weight, samples;
	bool kernel;
	double x;            /* start in weight units */
};

struct fg {
	struct fg_node *n;
	size_t nr, cap;
	struct rpt_map map;  /* (parent, label pointer) -> node */
	uint32_t max_depth;
};

static int fg_child(struct fg *g, uint32_t parent, const struct hwprof_profile_frame *fr, uint32_t *out)
{
	uint32_t id = (uint32_t)g->nr;
	int r = rpt_map_get(&g->map, parent, (uint64_t)(uintptr_t)fr->label, &id, true);
	if (r < 0)
		return r;
	if (r == 0) {
		if (rpt_grow(&g->n, &g->cap, g->nr + 1, sizeof(*g->n)) < 0)
			return -HWPROF_E_NOMEM;
		struct fg_node *n = &g->n[g->nr++];
		memset(n, 0, sizeof(*n));
		n->label = fr->label;
		n->kernel = fr->kernel;
		n->parent = parent;
		n->depth = g->n[parent].depth + 1;
		n->first_child = n->next = UINT32_MAX;
		if (n->depth > g->max_depth)
			g->max_depth = n->depth;
	}
	*out = id;
	return 0;
}

static int cmp_label(const void *a, const void *b)
{
	const struct fg_node *const *x = a, *const *y = b;
	return strcmp((*x)->label, (*y)->label);
}

/* Links children in label order and assigns x positions, iteratively
 * (parents come before their children in node order). */
static int fg_layout(struct fg *g)
{
	size_t nr = g->nr;
	struct fg_node **v = malloc(nr * sizeof(*v));
	uint32_t *cnt = calloc(nr + 1, sizeof(uint32_t));
	if (!v || !cnt) {
		free(v);
		free(cnt);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 1; i < nr; i++)
		v[i] = &g->n[i];
	/* Group by parent (a stable counting sort), then by label. */
	for (size_t i = 1; i < nr; i++)
		cnt[g->n[i].parent + 1]++;
	for (size_t i = 1; i <= nr; i++)
		cnt[i] += cnt[i - 1];
	struct fg_node **s = malloc(nr * sizeof(*s));
	if (!s) {
		free(v);
		free(cnt);
		return -HWPROF_E_NOMEM;
	}
	for (size_t i = 1; i < nr; i++)
		s[cnt[g->n[i].parent]++] = v[i];
	for (size_t i = 0; i < nr - 1;) {
		size_t j = i;
		while (j < nr - 1 && s[j]->parent == s[i]->parent)
			j++;
		qsort(s + i, j - i, sizeof(*s), cmp_label);
		for (size_t k = i; k < j; k++)
			s[k]->next = k + 1 < j ? (uint32_t)(s[k + 1] - g->n) : UINT32_MAX;
		g->n[s[i]->parent].first_child = (uint32_t)(s[i] - g->n);
		i = j;
	}
	free(s);
	free(v);
	free(cnt);
	/* Positions: a parent's children start at its x, side by side. A
	 * node's id is larger than its parent's, so one pass in id order
	 * sees every parent placed first. */
	g->n[0].x = 0;
	for (size_t i = 0; i < nr; i++) {
		double x = g->n[i].x;
		for (uint32_t c = g->n[i].first_child; c != UINT32_MAX; c = g->n[c].next) {
			g->n[c].x = x;
			x += (double)g->n[c].weight;
		}
	}
	return 0;
}

static void fg_color(const struct fg_node *n, unsigned *r, unsigned *gr, unsigned *b)
{
	uint64_t h = rpt_hash_bytes(n->label, strlen(n->label));
	unsigned a = (unsigned)(h & 0xffff), c = (unsigned)((h >> 16) & 0xffff), d = (unsigned)((h >> 32) & 0xffff);
	if (n->kernel) {
		*r = 50 + a % 60;
		*gr = 165 + c % 55;
		*b = 165 + d % 55;
	} else {
		*r = 205 + a % 50;
		*gr = c % 230;
		*b = d % 55;
	}
}

static const char fg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var W, PAD, TOTAL, frames, details, matchedText, zoomed = null;\n"
	"function init() {\n"
	"  var root = document.documentElement;\n"
	"  W = +root.getAttribute('width'); PAD = +root.getAttribute('data-pad');\n"
	"  TOTAL = +root.getAttribute('data-total');\n"
	"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
	"  details = document.getElementById('details');\n"
	"  matchedText = document.getElementById('matched');\n"
	"  frames.forEach(function (g) {\n"
	"    g.addEventListener('click', function (e) { zoom(g); e.stopPropagation(); });\n"
	"    g.addEventListener('mouseover', function () { details.textContent = g.querySelector('title').textContent; });\n"
	"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"  });\n"
	"  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
	"  document.getElementById('search').addEventListener('click', function () { search(); });\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); }\n"
	"    if (e.key === 'Escape') unzoom();\n"
	"  });\n"
	"  frames.forEach(fit);\n"
	"  /* #zoom=RE zooms on the widest frame matching RE; #search=RE highlights. */\n"
	"  location.hash.slice(1).split('&').forEach(function (kv) {\n"
	"    var i = kv.indexOf('='), k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));\n"
	"    if (i < 0 || !v) return;\n"
	"    if (k === 'search') search(v);\n"
	"    if (k === 'zoom') {\n"
	"      var re = new RegExp(v), best = null;\n"
	"      frames.forEach(function (g) {\n"
	"        if (re.test(g.getAttribute('data-n')) && (!best || +g.getAttribute('data-w') > +best.getAttribute('data-w'))) best = g;\n"
	"      });\n"
	"      if (best) zoom(best);\n"
	"    }\n"
	"  });\n"
	"}\n"
	"function fit(g) {\n"
	"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"  var w = +r.getAttribute('width'), name = g.getAttribute('data-n');\n"
	"  var max = Math.floor((w - 6) / 7);\n"
	"  t.setAttribute('x', +r.getAttribute('x') + 3);\n"
	"  t.textContent = max < 3 ? '' : (name.length <= max ? name : name.slice(0, max - 2) + '..');\n"
	"}\n"
	"function place(g, x, w, show, dim) {\n"
	"  var r = g.querySelector('rect');\n"
	"  g.style.display = show ? '' : 'none';\n"
	"  g.style.opacity = dim ? 0.6 : 1;\n"
	"  if (!show) return;\n"
	"  r.setAttribute('x', x); r.setAttribute('width', Math.max(w, 0));\n"
	"  fit(g);\n"
	"}\n"
	"function zoom(z) {\n"
	"  var x0 = +z.getAttribute('data-x'), w0 = +z.getAttribute('data-w'), d0 = +z.getAttribute('data-d');\n"
	"  /* Divide by w0 before scaling: w0 / w0 is exactly 1, so the zoomed\n"
	"   * frame fills the width exactly (1180/w0*w0 may be 1179.9999...). */\n"
	"  var span = W - 2 * PAD, eps = w0 * 1e-9;\n"
	"  zoomed = z;\n"
	"  frames.forEach(function (g) {\n"
	"    var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');\n"
	"    if (d >= d0 && x >= x0 - eps && x + w <= x0 + w0 + eps) place(g, PAD + (x - x0) / w0 * span, w / w0 * span, true, false);\n"
	"    else if (d < d0 && x <= x0 + eps && x + w >= x0 + w0 - eps) place(g, PAD, W - 2 * PAD, true, true);\n"
	"    else place(g, 0, 0, false, false);\n"
	"  });\n"
	"  document.getElementById('unzoom').style.opacity = 1;\n"
	"}\n"
	"function unzoom() {\n"
	"  var s = (W - 2 * PAD) / TOTAL;\n"
	"  zoomed = null;\n"
	"  frames.forEach(function (g) {\n"
	"    place(g, PAD + (+g.getAttribute('data-x')) * s, (+g.getAttribute('data-w')) * s, true, false);\n"
	"  });\n"
	"  document.getElementById('unzoom').style.opacity = 0;\n"
	"}\n"
	"function search(term) {\n"
	"  if (term === undefined) term = window.prompt('Search frames (regular expression)', '');\n"
	"  var re;\n"
	"  frames.forEach(function (g) { var r = g.querySelector('rect'); r.setAttribute('fill', r.getAttribute('data-fill')); });\n"
	"  if (!term) { matchedText.textContent = ' '; return; }\n"
	"  try { re = new RegExp(term); } catch (e) { matchedText.textContent = 'bad expression'; return; }\n"
	"  var hits = [];\n"
	"  frames.forEach(function (g) {\n"
	"    if (re.test(g.getAttribute('data-n'))) {\n"
	"      g.querySelector('rect').setAttribute('fill', 'rgb(230,0,230)');\n"
	"      hits.push([+g.getAttribute('data-x'), +g.getAttribute('data-w')]);\n"
	"    }\n"
	"  });\n"
	"  /* Count nested matches once: take the outermost range at each x. */\n"
	"  hits.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"  var sum = 0, end = -1;\n"
	"  hits.forEach(function (h) { if (h[0] >= end) { sum += h[1]; end = h[0] + h[1]; } });\n"
	"  matchedText.textContent = 'Matched: ' + (100 * sum / TOTAL).toFixed(2) + '%';\n"
	"}\n"
	"window.addEventListener('load', init);\n"
	"]]></script>\n";

static void fg_write(const struct fg *g, const struct hwprof_profile *p, const struct hwprof_flamegraph_opts *o,
		     const char *event, FILE *f)
{
	unsigned width = o && o->width ? o->width : 1200;
	const char *title = o && o->title ? o->title : "Flame Graph";
	double total = (double)g->n[0].weight;
	double scale = total > 0 ? (width - 2.0 * PAD) / total : 0;
	unsigned height = (g->max_depth + 1) * FRAME_H + TOP + BOTTOM;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		   "xmlns=\"http://www.w3.org/2000/svg\" data-pad=\"%d\" data-total=\"%llu\">\n",
		width, height, width, height, PAD, (unsigned long long)g->n[0].weight);
	fputs("<style>text { font-family: Verdana, 'DejaVu Sans', sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	      "g.f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
	      "#title { font-size: 17px; } .ctl { cursor: pointer; }</style>\n", f);
	fputs(fg_script, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(248,248,240)\"/>\n", width, height);
	fprintf(f, "<text id=\"title\" x=\"%u\" y=\"24\" text-anchor=\"middle\">", width / 2);
	rpt_xml_text(f, title, 0);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%u\" y=\"40\" text-anchor=\"middle\">", width / 2);
	rpt_xml_text(f, event, 0);
	fprintf(f, ", %llu samples; kernel frames in blue-green</text>\n", (unsigned long long)g->n[0].samples);
	fprintf(f, "<text id=\"unzoom\" class=\"ctl\" x=\"%d\" y=\"24\" style=\"opacity:0\">Reset Zoom</text>\n", PAD);
	fprintf(f, "<text id=\"search\" class=\"ctl\" x=\"%u\" y=\"24\" text-anchor=\"end\">Search</text>\n", width - PAD);
	fprintf(f, "<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"> </text>\n", width - PAD, height - 10);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", PAD, height - 10);
	for (size_t i = 0; i < g->nr; i++) {
		const struct fg_node *n = &g->n[i];
		double w = (double)n->weight * scale;
		if (w < MIN_PX && i)
			continue;
		double x = PAD + n->x * scale;
		unsigned y = height - BOTTOM - (n->depth + 1) * FRAME_H;
		unsigned r, gr, b;
		if (i == 0) {
			r = gr = b = 200;
		} else {
			fg_color(n, &r, &gr, &b);
		}
		fprintf(f, "<g class=\"f\" data-x=\"%.0f\" data-w=\"%llu\" data-d=\"%u\" data-n=\"", n->x,
			(unsigned long long)n->weight, n->depth);
		rpt_xml_text(f, n->label, 0);
		fputs("\"><title>", f);
		rpt_xml_text(f, n->label, 0);
		fprintf(f, " (%llu samples, %.2f%%)</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%d\" "
			   "rx=\"2\" fill=\"rgb(%u,%u,%u)\" data-fill=\"rgb(%u,%u,%u)\"/><text x=\"%.2f\" y=\"%u\">",
			(unsigned long long)n->samples, total > 0 ? 100.0 * (double)n->weight / total : 0.0, x, y, w,
			FRAME_H - 1, r, gr, b, r, gr, b, x + 3, y + FRAME_H - 4);
		/* Text as it fits before the script runs (and for viewers without scripts). */
		size_t fit = w > 6 ? (size_t)((w - 6) / 7) : 0;
		size_t len = strlen(n->label);
		if (fit >= 3 && len <= fit) {
			rpt_xml_text(f, n->label, 0);
		} else if (fit >= 3) {
			rpt_xml_text(f, n->label, fit - 2);
			fputs("..", f);
		}
		fputs("</text></g>\n", f);
	}
	(void)p;
	fputs("</svg>\n", f);
}

HWPROF_API int hwprof_flamegraph_svg(const struct hwprof_profile *p, const struct hwprof_flamegraph_opts *o,
				     FILE *f)
{
	struct fg g = { 0 };
	int r = 0;
	uint32_t event = o && o->event >= 0 ? (uint32_t)o->event : 0;
	const struct hwprof_profile_event *ev = hwprof_profile_event(p, event);
	if (rpt_grow(&g.n, &g.cap, 1, sizeof(*g.n)) < 0)
		return -HWPROF_E_NOMEM;
	memset(&g.n[0], 0, sizeof(g.n[0]));
	g.n[0].label = "all";
	g.n[0].parent = g.n[0].first_child = g.n[0].next = UINT32_MAX;
	g.nr = 1;
	uint32_t *frames = NULL, cap = 0;
	for (uint32_t i = 0; i < hwprof_profile_nr_entries(p) && !r; i++) {
		const struct hwprof_profile_entry *en = hwprof_profile_entry(p, i);
		if (en->event != event)
			continue;
		uint32_t d = hwprof_profile_stack_depth(p, en->stack);
		if (d > cap) {
			uint32_t *nf = realloc(frames, d * sizeof(*nf));
			if (!nf) {
				r = -HWPROF_E_NOMEM;
				break;
			}
			frames = nf;
			cap = d;
		}
		hwprof_profile_stack_frames(p, en->stack, frames, cap);
		uint32_t node = 0;
		g.n[0].weight += en->weight;
		g.n[0].samples += en->nr_samples;
		for (uint32_t k = 0; k < d; k++) {
			if ((r = fg_child(&g, node, hwprof_profile_frame(p, frames[k]), &node)) < 0)
				break;
			g.n[node].weight += en->weight;
			g.n[node].samples += en->nr_samples;
		}
	}
	free(frames);
	if (!r && g.nr > 1)
		r = fg_layout(&g);
	if (!r) {
		fg_write(&g, p, o, ev ? ev->name : "no samples", f);
		if (fflush(f) || ferror(f))
			r = -HWPROF_E_IO;
	}
	free(g.n);
	rpt_map_free(&g.map);
	return r;
}
