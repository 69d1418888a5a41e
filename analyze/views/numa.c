/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The numa view (numa.h): which points it takes, its groups computed, and its document. */
#include "analyze/views/numa.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

/* Declared "numa", or (older files) a point with point_facts recording pages_per_node. */
static int an_numa_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, v->name);

	return decl >= 0 ? decl : lab_an_json_get(p->facts, "pages_per_node") != NULL;
}

/* The numa kernels' points name a memory node, a page policy or the loaded streams' size. */
static const char *an_numa_misfit(const struct lab_an_view *v, const struct lab_an_data *d,
                                  const struct lab_an_point *p, char *buf, size_t len)
{
	static const char *const key[] = {"mem_node", "init", "stream_size"};

	(void)v;
	(void)d;
	for (size_t k = 0; k < sizeof(key) / sizeof(key[0]); k++)
		if (lab_an_params_get(p->params, key[k], buf, len))
			return NULL;
	return "no 'mem_node', 'init' or 'stream_size' param";
}

static void an_numa_free(void *state)
{
	struct lab_an_numa *v = state;

	for (size_t i = 0; v && i < v->ng; i++) {
		free(v->g[i].params);
		free(v->g[i].row);
	}
	if (v) {
		free(v->g);
		free(v->dist);
		lab_an_index_free(&v->ix);
		lab_an_strset_free(&v->loaded);
	}
	free(v);
}

static int an_numa_compute(const struct lab_an_view *view, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_numa *v = calloc(1, sizeof(*v));
	int rc = v ? 0 : -LAB_ENOMEM;

	*state = NULL;
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (an_numa_applies(view, d, &d->pt[i]))
			rc = lab_an_numa_add(v, d, &d->pt[i], a->include_flagged);
	if (!rc && v->ng)
		rc = lab_an_numa_finish(d, v);
	if (rc || !v->ng) {
		an_numa_free(v);
		return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
	}
	*state = v;
	return 0;
}

/* What a table column holds: numbers first (an_cell), 0 ends a kind's list (an_kcols). */
// clang-format off
enum an_what { W_END, W_THREADS, W_CPU, W_MEM, W_SIZE, W_STREAMS, W_POINT, W_RATIO, W_DIST,
	       W_SLIT, W_ABSENT, W_OK, W_SAME, W_NUM, W_INIT = W_NUM, W_QUANTITY, W_VALUE, W_STAT,
	       W_GBS, W_PAGES };
// clang-format on

static const struct {
	const char *key;
	enum lab_doc_kind kind;
} an_col[] = {
    [W_THREADS] = {"threads", LAB_DOC_COUNT},
    [W_CPU] = {"cpu_node", LAB_DOC_COUNT},
    [W_MEM] = {"mem_node", LAB_DOC_COUNT},
    [W_SIZE] = {"size_bytes", LAB_DOC_BYTES},
    [W_STREAMS] = {"streams", LAB_DOC_COUNT},
    [W_POINT] = {"point", LAB_DOC_COUNT},
    [W_RATIO] = {"ratio_to_local", LAB_DOC_RATIO},
    [W_DIST] = {"slit_distance", LAB_DOC_VALUE},
    [W_SLIT] = {"slit_ratio", LAB_DOC_RATIO},
    [W_ABSENT] = {"pages_absent", LAB_DOC_COUNT},
    [W_OK] = {"placement_ok", LAB_DOC_COUNT},
    [W_SAME] = {"same_placement_as", LAB_DOC_COUNT},
    [W_INIT] = {"init", LAB_DOC_KEY},
    [W_QUANTITY] = {"quantity", LAB_DOC_TEXT},
    [W_VALUE] = {NULL, LAB_DOC_INTERVAL}, /* an_vkey */
    [W_STAT] = {"stat", LAB_DOC_TEXT},
    [W_GBS] = {NULL, LAB_DOC_INTERVAL}, /* an_gkey */
    [W_PAGES] = {"pages_per_node", LAB_DOC_TEXT},
};

/* Per kind: the table's columns, its value's and its bandwidth's keys, the table's key. */
static const unsigned char an_kcols[][14] = {
    [LAB_AN_NUMA_MATRIX] = {W_THREADS, W_CPU, W_MEM, W_QUANTITY, W_POINT, W_VALUE, W_STAT, W_RATIO,
                            W_DIST, W_SLIT, W_PAGES, W_ABSENT, W_OK},
    [LAB_AN_NUMA_POLICY] = {W_INIT, W_THREADS, W_POINT, W_VALUE, W_STAT, W_GBS, W_PAGES, W_ABSENT,
                            W_OK, W_SAME},
    [LAB_AN_NUMA_LADDER] = {W_THREADS, W_SIZE, W_POINT, W_VALUE, W_STAT, W_PAGES, W_ABSENT, W_OK},
    [LAB_AN_NUMA_LOADED] = {W_THREADS, W_STREAMS, W_POINT, W_GBS, W_VALUE, W_STAT},
};
static const char *const an_vkey[] = {"median", "median_cost", "median_ns", "latency_ns"};
/* Their headers in the text and the HTML: a column may hold means (points of runs), said in
 * the header's statistic and each row's stat, so the key's "median" is no part of them. */
static const char *const an_vtitle[] = {"value", "cost", "latency", NULL};
static const char *const an_gkey[] = {NULL, "gb_per_s", NULL, "stream_gb_per_s"};
static const char *const an_table_key[] = {"matrix", "policy", "ladder", "loaded"};
static const char *const an_title[] = {"numa node x node", "numa page policy",
                                       "numa latency ladder", "numa loaded latency"};

/* A statistic of row r as an interval cell, or why it has none. */
static void an_ival(struct lab_doc *doc, struct lab_doc_cell *c, const struct lab_an_numa_row *r,
                    const struct lab_an_numa_val *s)
{
	if (r->n && isfinite(s->med)) {
		/* with mean_ci no median: the interval is the mean's */
		lab_doc_ival_median(c, s->mean_ci ? NAN : s->med, s->mean_ci ? s->med : s->mean,
		                    s->lo, s->hi, r->n);
		if (s->lo <= 0) /* stopped at 0: a bandwidth of [0, 94] GB/s read as measured */
			lab_doc_cnote(doc, c, "not clearly above 0");
	} else if (r->pt->n && !strcmp(r->pt->status, "ok"))
		lab_doc_why(doc, c, "flagged (--include-flagged)");
	else if (strcmp(r->pt->status, "ok"))
		lab_doc_why(doc, c, "%s%s%s", r->pt->status, r->pt->reason ? ": " : "",
		            r->pt->reason ? r->pt->reason : "");
}

/* Column w of row r of group g. */
static void an_cell(struct lab_doc *doc, struct lab_doc_cell *c, const struct lab_an_numa *v,
                    const struct lab_an_numa_group *g, const struct lab_an_numa_row *r, int w)
{
	int i = r->cpu_node, j = r->mem_node;
	const double num[W_NUM] = {
	    [W_THREADS] = r->pt->threads,
	    [W_CPU] = i >= 0 ? i : NAN,
	    [W_MEM] = j >= 0 ? j : NAN,
	    [W_SIZE] = r->size,
	    [W_STREAMS] = r->streams,
	    [W_POINT] = (double)r->pt->id,
	    [W_RATIO] = w == W_RATIO ? lab_an_numa_ratio(g, i, j) : NAN,
	    [W_DIST] = lab_an_numa_dist(v, i, j),
	    [W_SLIT] = lab_an_numa_dist(v, i, j) / lab_an_numa_dist(v, i, i),
	    [W_ABSENT] = r->pages_absent,
	    [W_OK] = r->placement_ok >= 0 ? r->placement_ok : NAN,
	    [W_SAME] = r->same >= 0 ? (double)g->row[r->same].pt->id : NAN,
	};
	const char *s = "";

	if (w < W_NUM)
		lab_doc_num(c, num[w]);
	else if (w == W_INIT || w == W_QUANTITY || w == W_STAT)
		lab_doc_str(doc, c,
		            w == W_INIT       ? r->init
		            : w == W_QUANTITY ? (g->bw ? "GB/s" : "ns")
		            : !r->n           ? NULL
		            : r->v.mean_ci    ? "mean"
		                              : "median");
	else if (w == W_GBS && g->kind == LAB_AN_NUMA_LOADED && r->streams == 0)
		lab_doc_why(doc, c, "no streams: the chase alone"); /* read "0 [0, 0]" */
	else if (w == W_VALUE || w == W_GBS)
		an_ival(doc, c, r, w == W_VALUE ? &r->v : &r->gbs);
	else if (r->pages) {
		for (size_t k = 0; k < r->pages->n; k++)
			s = lab_doc_printf(doc, "%s%s%.0f", s, k ? "/" : "",
			                   r->pages->items[k].num);
		lab_doc_str(doc, c, s);
	}
}

/* The group's rows as its kind's table, each row whose pages are not where asked marked. */
static void an_table(struct lab_doc_section *sec, const struct lab_an_numa *v,
                     const struct lab_an_numa_group *g)
{
	struct lab_doc_table *t = lab_doc_table(sec, an_table_key[g->kind], NULL);
	const unsigned char *col = an_kcols[g->kind];
	size_t ncol = 0, mean = 0, runs = 0, bad = 0;

	if (t && g->kind == LAB_AN_NUMA_MATRIX)
		t->csv = LAB_AN_NUMA_CSV;
	for (; ncol < 14 && col[ncol]; ncol++) {
		lab_doc_col(t,
		            col[ncol] == W_VALUE ? an_vkey[g->kind]
		            : col[ncol] == W_GBS ? an_gkey[g->kind]
		                                 : an_col[col[ncol]].key,
		            col[ncol] == W_VALUE ? g->unit
		            : col[ncol] == W_GBS ? "GB/s"
		            /* counted a base page at a time, with huge pages too (1024 for a
		             * 4 MiB buffer on 2 MiB pages, probes42) */
		            : col[ncol] == W_PAGES ? "base pages"
		                                   : NULL,
		            an_col[col[ncol]].kind);
		if (col[ncol] == W_VALUE)
			lab_doc_col_title(t, an_vtitle[g->kind]);
	}
	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];

		lab_doc_row(t);
		for (size_t i = 0; i < ncol; i++)
			an_cell(sec->doc, lab_doc_at(t, i), v, g, r, col[i]);
		/* samples the load guard left out or kept; pages not where asked; THP is advice:
		 * off, or memory fragmented, the buffer got base pages */
		char note[768] = "", fl[96];
		size_t nk = 0;
		if (r->n && lab_an_flagged_mark(r->pt, fl, sizeof(fl)))
			lab_an_cat(note, sizeof(note), &nk, "%s", fl);
		if (r->placement_ok == 0)
			lab_an_cat(note, sizeof(note), &nk,
			           "%splacement differs from what was asked: %s", nk ? "; " : "",
			           r->note ? r->note : "(no note recorded)");
		if (r->huge_pct < 50)
			lab_an_cat(note, sizeof(note), &nk,
			           "%shugepages = on, yet %.0f %% of its memory was in huge pages "
			           "(transparent huge pages off or memory fragmented): it measured "
			           "base pages",
			           nk ? "; " : "", r->huge_pct);
		if (*note)
			lab_doc_rnote(t, "%s", note);
		mean += r->n && r->v.mean_ci == 1;
		runs += r->n && r->v.mean_ci == 2;
		bad += r->placement_ok == 0;
	}
	if (bad)
		lab_doc_finding(
		    sec, LAB_DOC_WARN, "placement_ok false",
		    "%zu point%s whose pages are not where they were asked: kept, marked "
		    "in the table",
		    bad, bad == 1 ? "" : "s");
	if (mean)
		lab_doc_note(sec,
		             "stat mean: fewer than 6 samples, too few for a median's interval: "
		             "the mean with its 95 %% t-interval");
	if (runs)
		lab_doc_note(sec,
		             "stat mean: a point of two or more runs: the mean of its run means "
		             "with their 95 %% t-interval (the setups vary, not only the samples)");
}

/* A placement's finding names this many of its rows at most ("and N more"). */
#define AN_SAME_NAMED 8

/* POLICY: a finding per placement that rows share (row[].same, numa_group.c), naming the first
 * AN_SAME_NAMED of its inits and points; O(rows) through a chain from each row to the next of
 * its placement (16,000 policies of one placement on a one-node machine took 32 s and 2.2 GB
 * when each name was appended to a copy of the list so far). */
static void an_same(struct lab_doc_section *sec, const struct lab_an_numa_group *g)
{
	struct lab_doc *doc = sec->doc;
	size_t n = g->kind == LAB_AN_NUMA_POLICY ? g->nrow : 0;
	size_t *next = malloc((n ? n : 1) * sizeof(*next)),
	       *last = malloc((n ? n : 1) * sizeof(*last));

	if (!next || !last)
		doc->failed = 1;
	for (size_t k = n; next && last && k-- > 0;) /* backwards: each chain in row order */
		last[k] = (size_t)-1;
	for (size_t k = n; next && last && k-- > 0;)
		if (g->row[k].same >= 0) {
			next[k] = last[g->row[k].same];
			last[g->row[k].same] = k;
		}
	for (size_t i = 0; next && last && i < n; i++) {
		char inits[1024], pts[256], pages[256];
		size_t ui = 0, up = 0, ug = 0, named = 0, rows = 0;

		if (g->row[i].same != (long)i)
			continue;
		inits[0] = pts[0] = pages[0] = 0;
		for (size_t k = i; k != (size_t)-1; k = next[k], rows++)
			if (named++ < AN_SAME_NAMED) {
				lab_an_cat(inits, sizeof(inits), &ui, "%s%s", ui ? ", " : "",
				           g->row[k].init);
				lab_an_cat(pts, sizeof(pts), &up, " %ld", g->row[k].pt->id);
			}
		if (rows > AN_SAME_NAMED) {
			lab_an_cat(inits, sizeof(inits), &ui, " and %zu more",
			           rows - AN_SAME_NAMED);
			lab_an_cat(pts, sizeof(pts), &up, " and %zu more", rows - AN_SAME_NAMED);
		}
		for (size_t k = 0; k < g->row[i].pages->n; k++)
			lab_an_cat(pages, sizeof(pages), &ug, "%s%.0f", k ? "/" : "",
			           g->row[i].pages->items[k].num);
		lab_doc_finding(
		    sec, LAB_DOC_WARN, lab_doc_printf(doc, "points%s", pts),
		    "%s (threads=%d, pages %s): one placement here: the pages ended up "
		    "on the same node, so cost differences between these rows are not a "
		    "NUMA effect",
		    inits, g->row[i].pt->threads, pages);
	}
	free(next);
	free(last);
}

/* MATRIX: the node x node cells (and their heat map), then the firmware's distance table. */
static void an_matrix(struct lab_doc_section *sec, const struct lab_an_numa *v,
                      const struct lab_an_numa_group *g)
{
	struct lab_doc *doc = sec->doc;
	size_t n = (size_t)g->nnode, nd = (size_t)v->ndist, outside = 0, past = 0, ran = 0,
	       means = 0;
	struct lab_doc_matrix *m = NULL, *dm = NULL;
	struct lab_doc_figure *f;

	for (size_t k = 0; k < g->nrow; k++) {
		const struct lab_an_numa_row *r = &g->row[k];
		int top = lab_an_numa_row_top(r);

		past += top >= LAB_AN_NUMA_NODES_MAX;
		outside += top >= g->nnode && top < LAB_AN_NUMA_NODES_MAX;
		ran += r->n > 0 || !strcmp(r->pt->status, "ok");
		means += r->n > 0 && r->v.mean_ci;
	}
	/* No cell with a number (a 2-node config on a 1-node machine): a grid of dashes would
	 * only repeat the table's reasons. */
	if (!ran)
		lab_doc_note(sec, "no cell was measured (every point's reason is in the table)");
	else if ((m = lab_doc_matrix(
	              sec, "cells",
	              means ? "median, or mean where the table's stat says so" : "median", n, n)) &&
	         (f = lab_doc_figure(
	              sec, "heatmap",
	              lab_doc_printf(doc, "%s: node x node (%s)", g->experiment, g->unit),
	              "memory node", "cpu node")))
		f->heat = m;
	if (nd)
		dm = lab_doc_matrix(
		    sec, "distances",
		    "firmware distance table (ACPI SLIT, host.topology.numa_distances)", nd, nd);
	if (m) {
		m->unit = lab_doc_printf(doc, "%s", g->unit);
		m->rname = "cpu node";
		m->cname = "memory node";
		m->legend =
		    "rows: the threads' node; columns: the memory's node; each cell's interval "
		    "and n in the table; -: no value (a pair the sweep left out, or a point the "
		    "table gives the reason of)";
	}
	for (size_t i = 0; m && i < n; i++) {
		m->rlab[i] = m->clab[i] = lab_doc_printf(doc, "node%zu", i);
		for (size_t j = 0; j < n; j++) {
			const struct lab_an_numa_row *r = lab_an_numa_cell(g, (int)i, (int)j);

			lab_doc_num(lab_doc_mat(m, i, j), r && r->n ? r->v.med : NAN);
		}
	}
	for (size_t i = 0; dm && i < nd; i++) {
		dm->rlab[i] = dm->clab[i] = lab_doc_printf(doc, "node%zu", i);
		for (size_t j = 0; j < nd; j++)
			lab_doc_num(lab_doc_mat(dm, i, j), v->dist[i * nd + j]);
	}
	if (outside)
		lab_doc_note(sec,
		             "%zu points on nodes outside the matrix (not on this machine: their "
		             "reasons are in the table)",
		             outside);
	if (past)
		lab_doc_note(sec,
		             "%zu points on nodes past node %d (a matrix shows at most %d nodes: "
		             "their values are in the table)",
		             past, LAB_AN_NUMA_NODES_MAX - 1, LAB_AN_NUMA_NODES_MAX);
	if (!nd && v->host_nodes == 1) /* no table to have: it read as missing data */
		lab_doc_note(sec, "one NUMA node on this machine: no distance table, and every "
		                  "access is local");
	else if (!nd)
		lab_doc_note(sec, "firmware distance table: not in run.json");
	if (v->hypervisor[0] && v->host_nodes != 1) /* one node splits nothing */
		lab_doc_note(sec,
		             "measured in a virtual machine (%s): the distance table is what the "
		             "hypervisor announces, and the nodes may split one physical node's "
		             "memory (remote then costs what local does)",
		             v->hypervisor);
}

/* The most sections of one experiment whose curves share a figure (hugepages off and on, read
 * and write: two figures with two y scales, plots40); a longer run draws a figure each. */
#define AN_CURVES_SHARED 8

/* Whether groups a and b draw into one figure: one experiment, kind and team size. */
static int an_same_figure(const struct lab_an_numa_group *a, const struct lab_an_numa_group *b)
{
	return a->kind == b->kind && a->threads == b->threads &&
	       !strcmp(a->experiment, b->experiment);
}

/* The params of g that all groups all[0..n) share (shared 1: "placement=compact") or those
 * they do not (0: "hugepages=on"); NULL: none, or out of memory. */
static const char *an_params_part(struct lab_doc *doc, const struct lab_an_numa_group *all,
                                  size_t n, const struct lab_an_numa_group *g, int shared)
{
	char *part = malloc(strlen(g->params) + 1), *w = part;
	const char *out;

	for (const char *q = g->params; w && *q; q = strchr(q, ';') ? strchr(q, ';') + 1 : "") {
		size_t len = strcspn(q, ";"), k = 0;

		while (k < n && lab_an_params_has(all[k].params, q, len))
			k++;
		if ((k == n) == shared && len)
			w += sprintf(w, "%s%.*s", w > part ? ";" : "", (int)len, q);
	}
	out = w && w > part ? lab_doc_printf(doc, "%.*s", (int)(w - part), part) : NULL;
	free(part);
	return out;
}

/* LADDER, LOADED: ns per load against size or against the streams' bandwidth, a curve for
 * each of the n groups from g (one experiment's sections). */
static void an_curve(struct lab_doc_section *sec, const struct lab_an_numa_group *g, size_t n)
{
	int ladder = g->kind == LAB_AN_NUMA_LADDER;
	struct lab_doc_figure *f =
	    lab_doc_figure(sec, ladder ? "ladder" : "loaded",
	                   lab_doc_printf(sec->doc, "%s: %s", g->experiment, an_title[g->kind] + 5),
	                   ladder ? "chain size (bytes)" : "achieved stream bandwidth (GB/s)",
	                   lab_an_numa_load_label(g->kind, g->threads));

	if (f && n > 1) { /* its conditions those the sections share, the rest in its curves */
		f->dodge = ladder; /* the loaded curves' x is measured: not moved */
		f->sub = an_params_part(sec->doc, g, n, g, 1);
		f->name = f->sub ? f->sub : "all";
	}
	if (f) {
		f->logx = ladder ? 2 : 0;
		f->xbytes = ladder;
	}
	size_t kept = 0;

	for (size_t j = 0; j < n; j++) {
		const char *name = n > 1 ? an_params_part(sec->doc, g, n, &g[j], 0) : NULL;
		/* one curve: its params are the figure's conditions already (the key repeated
		 * them, cut at 64 bytes, newcomer44) */
		struct lab_doc_curve *c =
		    lab_doc_curve(f, name ? name : g[j].experiment, LAB_DOC_LINES);

		if (c)
			c->color = (int)j;
		for (size_t k = 0; k < g[j].nrow; k++) {
			const struct lab_an_numa_row *r = &g[j].row[k];
			double x = ladder ? r->size : r->gbs.med;

			kept += r->n && lab_an_flagged_kept(r->pt) > 0;
			if (r->n && isfinite(x) && isfinite(r->v.med) && (!ladder || x > 0))
				lab_doc_point(c, x, r->v.med, r->v.lo, r->v.hi);
			else /* a size of 0 from a hand-made file: gnuplot dropped it unsaid */
				/* its threads, not an x, off the ladder; a point that ran ok with
				 * no sample kept was load-flagged ("[no data at 2: ok]", plots46)
				 */
				lab_doc_gap(
				    c,
				    ladder ? lab_doc_printf(sec->doc, "%g", r->size)
				           : lab_doc_printf(sec->doc, "threads=%d", r->pt->threads),
				    !r->n && lab_an_flagged_all(r->pt) ? "load-flagged"
				    : !r->n                            ? r->pt->status
				    : ladder && x <= 0 ? "not above 0, no place on a log axis"
				                       : "no value");
		}
	}
	lab_doc_flagged(f, kept);
}

static int an_numa_describe(const struct lab_an_view *view, const void *state, struct lab_doc *doc)
{
	const struct lab_an_numa *v = state;

	(void)view;
	doc->title = "NUMA";
	lab_doc_about(
	    doc,
	    "Medians with a distribution-free 95 % interval (with fewer than 6 samples: "
	    "the mean with its t-interval, stat mean). Matrix rows: the node the threads "
	    "ran on; columns: the node of the memory; each cell's remote/local ratio "
	    "stands beside the firmware's distance ratio (ACPI SLIT). Pages per node are "
	    "what the kernel found after setup (move_pages). Every cell is in " LAB_AN_FILE_NUMA
	    ".",
	    v->host_nodes == 1
	        /* said once up front: the sections' skips and notes said it 35 times, never
	         * what still teaches */
	        ? "this machine has one NUMA node: no remote memory, so the node x node and "
	          "policy experiments show no remote cost here (their remote points are "
	          "skipped); the latency ladder (caches against DRAM) and the loaded latency "
	          "(DRAM latency under bandwidth load) still teach. The interval of a median is "
	          "its order-statistics one; GB/s maps bytes / cost, so a cost interval's ends "
	          "swap"
	        : "the interval of a median is its order-statistics one; GB/s maps bytes / cost, "
	          "so a cost interval's ends swap");
	for (size_t i = 0, start = 0, run = 0; i < v->ng; i++) {
		const struct lab_an_numa_group *g = &v->g[i];
		struct lab_doc_section *sec = lab_doc_section(doc, g->experiment, g->params);

		if (sec)
			sec->title = an_title[g->kind];
		lab_doc_lead(sec, "%s%s%s%s", g->unit, g->kind >= LAB_AN_NUMA_LADDER ? ", " : "",
		             g->kind >= LAB_AN_NUMA_LADDER
		                 ? lab_an_numa_load_label(g->kind, g->threads)
		                 : "",
		             g->threads ? lab_doc_printf(doc, "; threads=%d", g->threads) : "");
		if (g->kind == LAB_AN_NUMA_MATRIX)
			an_matrix(sec, v, g);
		an_table(sec, v, g);
		an_same(sec, g);
		/* the sections of one experiment that follow each other share a figure, drawn
		 * with the first of them (a run is measured once, to AN_CURVES_SHARED + 1) */
		if (!i || !an_same_figure(&v->g[i - 1], g))
			for (start = i, run = 1; run <= AN_CURVES_SHARED && i + run < v->ng &&
			                         an_same_figure(g, &v->g[i + run]);
			     run++)
				;
		if (g->kind >= LAB_AN_NUMA_LADDER && run > AN_CURVES_SHARED)
			an_curve(sec, g, 1);
		else if (g->kind >= LAB_AN_NUMA_LADDER && i == start)
			an_curve(sec, g, run);
	}
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_numa = {
    .name = "numa",
    .applies = an_numa_applies,
    .hides_series = 0, /* the thread scaling of the policy and loaded points still tells */
    .compute = an_numa_compute,
    .free = an_numa_free,
    .describe = an_numa_describe,
    .misfit = an_numa_misfit,
};
