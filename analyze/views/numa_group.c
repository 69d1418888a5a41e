/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The numa view's groups put in order, the matrices' size, the firmware distance table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "analyze/views/numa.h"
#include "analyze/views/view.h"

static int an_cmp_row(const void *x, const void *y)
{
	const struct lab_an_numa_row *a = x, *b = y;

	if (a->key[0] != b->key[0])
		return a->key[0] < b->key[0] ? -1 : 1;
	return (a->key[1] > b->key[1]) - (a->key[1] < b->key[1]);
}

/* Matrix rows by (cpu node, memory node); policy rows by init in the order the run first met
 * them, then threads; ladder rows by size; loaded rows by threads. 0 or -LAB_ENOMEM. */
static int an_sort(struct lab_an_numa_group *g)
{
	struct lab_an_strset inits = {0}; /* borrows the rows' inits until they move */
	int rc = 0;

	for (size_t i = 0; i < g->nrow && !rc; i++) {
		struct lab_an_numa_row *r = &g->row[i];
		size_t first =
		    g->kind == LAB_AN_NUMA_POLICY ? lab_an_strset_add(&inits, r->init, NULL) : 0;

		rc = first == (size_t)-1 ? -LAB_ENOMEM : 0;
		r->key[0] = g->kind == LAB_AN_NUMA_MATRIX   ? r->cpu_node
		            : g->kind == LAB_AN_NUMA_POLICY ? (double)first
		            : g->kind == LAB_AN_NUMA_LADDER ? r->size
		                                            : r->pt->threads;
		r->key[1] = g->kind == LAB_AN_NUMA_MATRIX   ? r->mem_node
		            : g->kind == LAB_AN_NUMA_POLICY ? r->pt->threads
		                                            : 0;
	}
	lab_an_strset_free(&inits);
	if (!rc)
		qsort(g->row, g->nrow, sizeof(*g->row), an_cmp_row);
	return rc;
}

/* 1 when rows a and b ran (same thread count) with the same known pages per node (and as many
 * absent), all of them on one node. */
static int an_same_pages(const struct lab_an_numa_row *a, const struct lab_an_numa_row *b)
{
	size_t nodes = 0;

	lab_an_view_probe(); /* every comparison of two rows' pages counts, however they are paired
	                      */

	if (!a->pages || !b->pages || a->pages->n != b->pages->n || !a->n || !b->n ||
	    a->pt->threads != b->pt->threads ||
	    !(a->pages_absent == b->pages_absent ||
	      (isnan(a->pages_absent) && isnan(b->pages_absent))))
		return 0;
	for (size_t k = 0; k < a->pages->n; k++) {
		const struct lab_an_json *x = &a->pages->items[k], *y = &b->pages->items[k];

		if (x->type != LAB_AN_JSON_NUM || y->type != LAB_AN_JSON_NUM || x->num != y->num)
			return 0;
		nodes += x->num > 0;
	}
	return nodes == 1;
}

/* A number into hash h as its bits (equal numbers hash alike: 0 and -0, every NaN). */
static uint64_t an_hash_num(uint64_t h, double x)
{
	uint64_t bits = 0;

	if (x == x && x != 0)
		memcpy(&bits, &x, sizeof(bits));
	return lab_an_hash_long(h, (long)bits);
}

/* Row r's pages as an_same_pages compares them, hashed. */
static uint64_t an_pages_hash(const struct lab_an_numa_row *r)
{
	uint64_t h = lab_an_hash_long(LAB_AN_HASH_INIT, r->pt->threads);

	h = an_hash_num(h, r->pages_absent);
	for (size_t k = 0; k < r->pages->n; k++)
		h = an_hash_num(h, r->pages->items[k].num);
	return h;
}

struct an_same_key {
	const struct lab_an_numa_group *g;
	size_t row;
};

static int an_same_row(const void *ctx, size_t item)
{
	const struct an_same_key *k = ctx;

	return an_same_pages(&k->g->row[item], &k->g->row[k->row]);
}

/* POLICY: the rows of g whose pages ended up identical, grouped (row->same: the first of them).
 * Two rows share a placement when they ran at the same thread count and pages_per_node (and
 * pages_absent) are equal with every page on one node: on a one-node machine every policy
 * does. Equal histograms spread over nodes are not grouped: which thread's data is local can
 * differ. Found by hash (thousands of rows compared pairwise were quadratic). 0 or
 * -LAB_ENOMEM. */
static int an_same(struct lab_an_numa_group *g)
{
	struct lab_an_index ix = {0};
	int rc = 0;

	for (size_t i = 0; i < g->nrow; i++)
		g->row[i].same = -1;
	for (size_t i = 0; g->kind == LAB_AN_NUMA_POLICY && i < g->nrow && !rc; i++) {
		struct an_same_key key = {g, i};
		uint64_t h;
		size_t first;

		if (!an_same_pages(&g->row[i], &g->row[i]))
			continue; /* no known pages on one node: shares with no row */
		h = an_pages_hash(&g->row[i]);
		first = lab_an_index_find(&ix, h, an_same_row, &key);
		if (first == (size_t)-1)
			rc = lab_an_index_add(&ix, h, i) ? -LAB_ENOMEM : 0;
		else
			g->row[i].same = g->row[first].same = (long)first;
	}
	lab_an_index_free(&ix);
	return rc;
}

/* host.topology.numa_distances: a square array of arrays of positive numbers, else none; and
 * host.hypervisor. */
static int an_distances(const struct lab_an_data *d, struct lab_an_numa *v)
{
	const struct lab_an_json *t = lab_an_json_get(lab_an_json_get(d->run, "host"), "topology");
	const struct lab_an_json *m = lab_an_json_get(t, "numa_distances");
	const char *hv = lab_an_json_str(lab_an_json_get(d->run, "host"), "hypervisor");
	size_t n = m && m->type == LAB_AN_JSON_ARR ? m->n : 0;

	double nodes = lab_an_json_num(t, "numa_nodes", NAN);

	v->host_nodes = nodes >= 1 && nodes <= 1e6 && nodes == floor(nodes) ? (int)nodes : 0;
	snprintf(v->hypervisor, sizeof(v->hypervisor), "%.*s", hv ? lab_an_utf8_fit(hv, 40) : 0,
	         hv ? hv : "");
	if (!n || n > LAB_AN_NUMA_NODES_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct lab_an_json *r = &m->items[i];

		if (r->type != LAB_AN_JSON_ARR || r->n != n)
			return 0;
		for (size_t j = 0; j < n; j++)
			if (r->items[j].type != LAB_AN_JSON_NUM || !(r->items[j].num > 0) ||
			    !isfinite(r->items[j].num))
				return 0;
	}
	if (!(v->dist = malloc(n * n * sizeof(*v->dist))))
		return -LAB_ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			v->dist[i * n + j] = m->items[i].items[j].num;
	v->ndist = (int)n;
	return 0;
}

/* The nodes of the cells that ran: one config serves 1-, 2- and 4-node machines, and the
 * points of nodes this machine lacks (skipped) would only pad the matrix. All cells when none
 * ran; never past LAB_AN_NUMA_NODES_MAX. */
static void an_matrix_size(struct lab_an_numa_group *g)
{
	for (int pass = 0; g->kind == LAB_AN_NUMA_MATRIX && pass < 2 && !g->nnode; pass++)
		for (size_t k = 0; k < g->nrow; k++) {
			const struct lab_an_numa_row *r = &g->row[k];
			int top = lab_an_numa_row_top(r);

			if ((pass || !strcmp(r->pt->status, "ok")) && top >= g->nnode &&
			    top < LAB_AN_NUMA_NODES_MAX)
				g->nnode = top + 1;
		}
}

int lab_an_numa_finish(const struct lab_an_data *d, struct lab_an_numa *v)
{
	int rc = 0;

	for (size_t i = 0; i < v->ng && !rc; i++) {
		rc = an_sort(&v->g[i]);
		an_matrix_size(&v->g[i]);
		rc = rc ? rc : an_same(&v->g[i]);
	}
	return rc ? rc : an_distances(d, v);
}

const struct lab_an_numa_row *lab_an_numa_cell(const struct lab_an_numa_group *g, int i, int j)
{
	const struct lab_an_numa_row want = {.key = {i, j}};
	size_t lo = 0, hi = g->kind == LAB_AN_NUMA_MATRIX ? g->nrow : 0;

	/* the first row at (i, j): the rows are in that order (an_sort), a matrix has thousands */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		lab_an_view_probe();
		if (an_cmp_row(&g->row[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nrow && g->kind == LAB_AN_NUMA_MATRIX && g->row[lo].cpu_node == i &&
	               g->row[lo].mem_node == j
	           ? &g->row[lo]
	           : NULL;
}

double lab_an_numa_ratio(const struct lab_an_numa_group *g, int i, int j)
{
	const struct lab_an_numa_row *a = lab_an_numa_cell(g, i, j), *l = lab_an_numa_cell(g, i, i);

	return a && l && a->n && l->n && l->v.med > 0 ? a->v.med / l->v.med : NAN;
}

double lab_an_numa_dist(const struct lab_an_numa *v, int i, int j)
{
	if (i < 0 || j < 0 || i >= v->ndist || j >= v->ndist)
		return NAN;
	return v->dist[(size_t)i * (size_t)v->ndist + (size_t)j];
}

const char *lab_an_numa_load_label(enum lab_an_numa_kind kind, int threads)
{
	if (kind == LAB_AN_NUMA_LOADED)
		return "ns per load of the chasing thread";
	return threads > 1 ? "ns per load, all threads together (not a latency)" : "ns per load";
}
