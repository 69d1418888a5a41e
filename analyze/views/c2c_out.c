/* SPDX-License-Identifier: GPL-3.0-or-later */
/* c2c_matrix.csv and the "c2c" section of analysis.json. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "analyze/jsonw.h"
#include "analyze/output.h"
#include "analyze/views/c2c.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

static void an_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

/* A relation as 1/0, empty when unknown. */
static void an_rel(FILE *f, int v)
{
	if (v < 0)
		fputc(',', f);
	else
		fprintf(f, ",%d", v);
}

static void an_csv_cell(FILE *f, const struct lab_an_c2c_matrix *m, const struct lab_an_c2c_cell *c)
{
	char buf[160];

	lab_csv_field(f, m->experiment);
	fputc(',', f);
	lab_csv_field(f, m->method);
	fprintf(f, ",%d,%d,%zu", c->cpu_a, c->cpu_b, c->n);
	an_num(f, c->median_ns);
	an_num(f, c->ci95_lo);
	an_num(f, c->ci95_hi);
	if (c->modes.count) {
		fprintf(f, ",%zu,", c->modes.count);
		lab_csv_field(f, lab_an_modes_list(&c->modes, 0, 1, buf, sizeof(buf)));
		fputc(',', f);
		lab_csv_field(f, lab_an_modes_list(&c->modes, 1, 1, buf, sizeof(buf)));
	} else {
		fputs(",,,", f);
	}
	an_rel(f, c->smt_siblings);
	an_rel(f, c->same_package);
	an_rel(f, c->same_numa);
	/* Last, so the documented columns keep their places: tells apart matrices that differ in
	 * another swept parameter (layout, batch). */
	fputc(',', f);
	lab_csv_field(f, m->params);
	fputc('\n', f);
}

int lab_an_c2c_csv_write(const struct lab_an_c2c *c, const char *path, struct lab_err *err)
{
	struct lab_an_wfile w;
	FILE *f = lab_an_wfile_open(&w, path, err);

	if (!f)
		return -LAB_EIO;
	fputs(LAB_AN_C2C_COLUMNS "\n", f);
	for (size_t i = 0; i < c->nm; i++)
		for (size_t j = 0; j < c->m[i].ncell; j++)
			an_csv_cell(f, &c->m[i], &c->m[i].cell[j]);
	return lab_an_wfile_close(&w, 1, err);
}

static void an_json_rel(struct lab_json *w, const char *key, int v)
{
	if (v < 0)
		lab_json_str(w, key, NULL);
	else
		lab_json_bool(w, key, v);
}

static void an_json_cell(struct lab_json *w, const struct lab_an_c2c_cell *c)
{
	lab_json_obj_open(w, NULL);
	lab_json_int(w, "point", c->pt->id);
	lab_json_int(w, "cpu_a", c->cpu_a);
	lab_json_int(w, "cpu_b", c->cpu_b);
	lab_json_str(w, "status", c->pt->status);
	lab_json_int(w, "n", (long long)c->n);
	lab_json_num(w, "median_ns", c->median_ns);
	lab_json_pair(w, "median_ci95", c->ci95_lo, c->ci95_hi);
	lab_json_num(w, "mean_ns", c->mean_ns);
	lab_an_modes_json(w, &c->modes, 1);
	lab_json_num(w, "metric_one_way_ns_median", c->m_one_way);
	lab_json_num(w, "metric_one_way_p10_ns_median", c->m_p10);
	lab_json_num(w, "metric_one_way_p50_ns_median", c->m_p50);
	lab_json_num(w, "metric_one_way_p90_ns_median", c->m_p90);
	an_json_rel(w, "smt_siblings", c->smt_siblings);
	an_json_rel(w, "same_package", c->same_package);
	an_json_rel(w, "same_numa", c->same_numa);
	lab_json_obj_close(w);
}

void lab_an_c2c_json(struct lab_json *w, const struct lab_an_c2c *c, const char *exp)
{
	lab_json_obj_open(w, "c2c");
	lab_json_str(w, "latency", "one-way ns = elapsed_ns / work / 2 (work = round trips)");
	lab_json_str(w, "ci95_of", "median (distribution-free, order statistics)");
	lab_json_bool(w, "topology_detailed", c->topo_detailed);
	lab_json_arr_open(w, "matrices");
	for (size_t i = 0; i < c->nm; i++) {
		const struct lab_an_c2c_matrix *m = &c->m[i];

		if (strcmp(m->experiment, exp))
			continue;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "method", m->method);
		lab_json_str(w, "params", m->params);
		lab_json_arr_open(w, "cpus");
		for (size_t k = 0; k < m->ncpu; k++)
			lab_json_int(w, NULL, m->cpu[k]);
		lab_json_arr_close(w);
		lab_json_int(w, "multimodal_cells", (long long)m->multimodal);
		lab_json_num(w, "min_median_ns", m->min_ns);
		lab_json_num(w, "max_median_ns", m->max_ns);
		if (!(m->max_ns >= m->min_ns))
			lab_json_str(w, "no_median_reason", lab_an_c2c_no_median(m));
		lab_json_arr_open(w, "cells");
		for (size_t j = 0; j < m->ncell; j++)
			an_json_cell(w, &m->cell[j]);
		lab_json_arr_close(w);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}
