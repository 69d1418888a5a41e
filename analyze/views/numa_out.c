/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numa_matrix.csv and the "numa" object of analysis.json (README "Chapter 27: NUMA"). */
#include <math.h>
#include <string.h>

#include "analyze/jsonw.h"
#include "analyze/output.h"
#include "analyze/views/numa.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

static void an_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

static void an_csv_row(FILE *f, const struct lab_an_numa *v, const struct lab_an_numa_group *g,
                       const struct lab_an_numa_row *r)
{
	int i = r->cpu_node, j = r->mem_node;

	lab_csv_field(f, g->experiment);
	fputc(',', f);
	lab_csv_field(f, g->params);
	fprintf(f, ",%d,%s,%d,%d,%zu", g->threads, g->bw ? "GB/s" : "ns", i, j, r->n);
	an_num(f, r->n ? r->med : NAN);
	an_num(f, r->lo);
	an_num(f, r->hi);
	an_num(f, lab_an_numa_ratio(g, i, j));
	an_num(f, i >= 0 && j >= 0 && i < v->ndist && j < v->ndist
	              ? v->dist[(size_t)i * (size_t)v->ndist + (size_t)j]
	              : NAN);
	an_num(f, lab_an_numa_slit_ratio(v, i, j));
	fputs(r->placement_ok < 0 ? "," : r->placement_ok ? ",1" : ",0", f);
	fputc(',', f);
	lab_csv_field(f, r->note ? r->note : "");
	fputc('\n', f);
}

int lab_an_numa_csv(const void *state, const char *path, struct lab_err *err)
{
	const struct lab_an_numa *v = state;
	struct lab_an_wfile w;
	FILE *f = lab_an_wfile_open(&w, path, err);

	if (!f)
		return -LAB_EIO;
	fputs(LAB_AN_NUMA_COLUMNS "\n", f);
	for (size_t i = 0; i < v->ng; i++)
		for (size_t k = 0; v->g[i].kind == LAB_AN_NUMA_MATRIX && k < v->g[i].nrow; k++)
			an_csv_row(f, v, &v->g[i], &v->g[i].row[k]);
	return lab_an_wfile_close(&w, 1, err);
}

/* What every row carries: point, status, where it ran and where its pages are. */
static void an_json_place(struct lab_json *w, const struct lab_an_numa_row *r)
{
	lab_json_int(w, "point", r->pt->id);
	lab_json_int(w, "threads", r->pt->threads);
	lab_json_str(w, "status", r->pt->status);
	if (r->pt->reason)
		lab_json_str(w, "reason", r->pt->reason);
	lab_json_int(w, "n", (long long)r->n);
	if (r->cpu_node >= 0)
		lab_json_int(w, "cpu_node", r->cpu_node);
	if (r->mem_node >= 0)
		lab_json_int(w, "mem_node", r->mem_node);
	if (r->pages) {
		lab_json_arr_open(w, "pages_per_node");
		for (size_t k = 0; k < r->pages->n; k++)
			lab_json_num(w, NULL, r->pages->items[k].num);
		lab_json_arr_close(w);
	}
	if (isfinite(r->pages_absent))
		lab_json_num(w, "pages_absent", r->pages_absent);
	if (r->placement_ok >= 0)
		lab_json_bool(w, "placement_ok", r->placement_ok);
	if (r->note)
		lab_json_str(w, "placement_note", r->note);
}

static void an_json_value(struct lab_json *w, const char *key, const char *ci,
                          const struct lab_an_numa_row *r)
{
	lab_json_num(w, key, r->n ? r->med : NAN);
	lab_json_pair(w, ci, r->lo, r->hi);
	/* Which statistic key and ci are: "mean" (t-interval) with fewer than 6 samples. */
	lab_json_str(w, "stat", r->mean_ci ? "mean" : "median");
}

static void an_json_row(struct lab_json *w, const struct lab_an_numa *v,
                        const struct lab_an_numa_group *g, const struct lab_an_numa_row *r)
{
	lab_json_obj_open(w, NULL);
	an_json_place(w, r);
	switch (g->kind) {
	case LAB_AN_NUMA_MATRIX:
		an_json_value(w, "median", "median_ci95", r);
		lab_json_num(w, "ratio_to_local", lab_an_numa_ratio(g, r->cpu_node, r->mem_node));
		lab_json_num(w, "slit_ratio", lab_an_numa_slit_ratio(v, r->cpu_node, r->mem_node));
		break;
	case LAB_AN_NUMA_POLICY:
		lab_json_str(w, "init", r->init);
		an_json_value(w, "median_cost", "median_cost_ci95", r);
		if (r->same >= 0)
			lab_json_int(w, "same_placement_as", g->row[r->same].pt->id);
		lab_json_num(w, "gb_per_s", r->gbs);
		lab_json_pair(w, "gb_per_s_ci95", r->gbs_lo, r->gbs_hi);
		break;
	case LAB_AN_NUMA_LADDER:
		lab_json_num(w, "size_bytes", r->size);
		an_json_value(w, "median_ns", "median_ci95", r);
		break;
	case LAB_AN_NUMA_LOADED:
		lab_json_int(w, "streams", r->streams);
		lab_json_num(w, "stream_gb_per_s", r->gbs);
		lab_json_pair(w, "stream_gb_per_s_ci95", r->gbs_lo, r->gbs_hi);
		an_json_value(w, "latency_ns", "latency_ci95", r);
		break;
	}
	lab_json_obj_close(w);
}

/* "same_placement": one entry per placement that two or more policy rows share. */
static void an_json_same(struct lab_json *w, const struct lab_an_numa_group *g)
{
	lab_json_arr_open(w, "same_placement");
	for (size_t i = 0; i < g->nrow; i++) {
		if (g->row[i].same != (long)i)
			continue;
		lab_json_obj_open(w, NULL);
		lab_json_int(w, "threads", g->row[i].pt->threads);
		lab_json_arr_open(w, "pages_per_node");
		for (size_t k = 0; k < g->row[i].pages->n; k++)
			lab_json_num(w, NULL, g->row[i].pages->items[k].num);
		lab_json_arr_close(w);
		lab_json_arr_open(w, "inits");
		for (size_t k = i; k < g->nrow; k++)
			if (g->row[k].same == (long)i)
				lab_json_str(w, NULL, g->row[k].init);
		lab_json_arr_close(w);
		lab_json_arr_open(w, "points");
		for (size_t k = i; k < g->nrow; k++)
			if (g->row[k].same == (long)i)
				lab_json_int(w, NULL, g->row[k].pt->id);
		lab_json_arr_close(w);
		lab_json_str(w, "text", LAB_AN_NUMA_SAME);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
}

static void an_json_dist(struct lab_json *w, const struct lab_an_numa *v)
{
	if (!v->ndist) {
		lab_json_null(w, "numa_distances");
		return;
	}
	lab_json_arr_open(w, "numa_distances");
	for (int i = 0; i < v->ndist; i++) {
		lab_json_arr_open(w, NULL);
		for (int j = 0; j < v->ndist; j++)
			lab_json_num(w, NULL, v->dist[i * v->ndist + j]);
		lab_json_arr_close(w);
	}
	lab_json_arr_close(w);
}

void lab_an_numa_json(struct lab_json *w, const void *state, const char *exp)
{
	const struct lab_an_numa *v = state;

	lab_json_obj_open(w, "numa");
	an_json_dist(w, v);
	lab_json_arr_open(w, "groups");
	for (size_t i = 0; i < v->ng; i++) {
		const struct lab_an_numa_group *g = &v->g[i];

		if (strcmp(g->experiment, exp))
			continue;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "kind", lab_an_numa_kind_name(g->kind));
		lab_json_str(w, "params", g->params);
		if (g->threads)
			lab_json_int(w, "threads", g->threads);
		lab_json_str(w, "unit", g->unit);
		if (g->kind == LAB_AN_NUMA_LADDER || g->kind == LAB_AN_NUMA_LOADED)
			lab_json_str(w, "cost_whose", lab_an_numa_load_label(g));
		if (g->kind == LAB_AN_NUMA_MATRIX)
			lab_json_int(w, "nodes", g->nnode);
		lab_json_int(w, "placement_mismatches", (long long)g->mismatched);
		if (g->kind == LAB_AN_NUMA_POLICY)
			an_json_same(w, g);
		lab_json_arr_open(w, "rows");
		for (size_t k = 0; k < g->nrow; k++)
			an_json_row(w, v, g, &g->row[k]);
		lab_json_arr_close(w);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}
