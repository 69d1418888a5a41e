/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The numa view's groups put in order, the matrices' size, the firmware distance table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "analyze/views/numa.h"

static int an_cmp_row(const void *x, const void *y)
{
	const struct lab_an_numa_row *a = x, *b = y;

	if (a->key[0] != b->key[0])
		return a->key[0] < b->key[0] ? -1 : 1;
	return (a->key[1] > b->key[1]) - (a->key[1] < b->key[1]);
}

/* Matrix rows by (cpu node, memory node); policy rows by init in the order the run first met
 * them, then threads; ladder rows by size; loaded rows by threads. */
static void an_sort(struct lab_an_numa_group *g)
{
	for (size_t i = 0; i < g->nrow; i++) {
		struct lab_an_numa_row *r = &g->row[i];
		size_t first = 0;

		while (g->kind == LAB_AN_NUMA_POLICY && strcmp(g->row[first].init, r->init))
			first++;
		r->key[0] = g->kind == LAB_AN_NUMA_MATRIX   ? r->cpu_node
		            : g->kind == LAB_AN_NUMA_POLICY ? (double)first
		            : g->kind == LAB_AN_NUMA_LADDER ? r->size
		                                            : r->pt->threads;
		r->key[1] = g->kind == LAB_AN_NUMA_MATRIX   ? r->mem_node
		            : g->kind == LAB_AN_NUMA_POLICY ? r->pt->threads
		                                            : 0;
	}
	qsort(g->row, g->nrow, sizeof(*g->row), an_cmp_row);
}

/* 1 when rows a and b ran (same thread count) with the same known pages per node (and as many
 * absent), all of them on one node. */
static int an_same_pages(const struct lab_an_numa_row *a, const struct lab_an_numa_row *b)
{
	size_t nodes = 0;

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

/* POLICY: the rows of g whose pages ended up identical, grouped (row->same). Two rows share a
 * placement when they ran at the same thread count and pages_per_node (and pages_absent) are
 * equal with every page on one node: on a one-node machine every policy does. Equal histograms
 * spread over nodes are not grouped: which thread's data is local can differ. */
static void an_same(struct lab_an_numa_group *g)
{
	for (size_t i = 0; i < g->nrow; i++)
		g->row[i].same = -1;
	for (size_t i = 0; g->kind == LAB_AN_NUMA_POLICY && i < g->nrow; i++) {
		if (g->row[i].same >= 0)
			continue;
		for (size_t k = i + 1; k < g->nrow; k++)
			if (g->row[k].same < 0 && an_same_pages(&g->row[i], &g->row[k]))
				g->row[k].same = g->row[i].same = (long)i;
	}
}

/* host.topology.numa_distances: a square array of arrays of positive numbers, else none; and
 * host.hypervisor. */
static int an_distances(const struct lab_an_data *d, struct lab_an_numa *v)
{
	const struct lab_an_json *t = lab_an_json_get(lab_an_json_get(d->run, "host"), "topology");
	const struct lab_an_json *m = lab_an_json_get(t, "numa_distances");
	const char *hv = lab_an_json_str(lab_an_json_get(d->run, "host"), "hypervisor");
	size_t n = m && m->type == LAB_AN_JSON_ARR ? m->n : 0;

	snprintf(v->hypervisor, sizeof(v->hypervisor), "%.40s", hv ? hv : "");
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
	for (size_t i = 0; i < v->ng; i++) {
		an_sort(&v->g[i]);
		an_matrix_size(&v->g[i]);
		an_same(&v->g[i]);
	}
	return an_distances(d, v);
}

const struct lab_an_numa_row *lab_an_numa_cell(const struct lab_an_numa_group *g, int i, int j)
{
	for (size_t k = 0; k < g->nrow; k++)
		if (g->row[k].cpu_node == i && g->row[k].mem_node == j)
			return &g->row[k];
	return NULL;
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
