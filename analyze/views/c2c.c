/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/c2c.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/cpurel.h"
#include "analyze/flagged.h"
#include "analyze/views/view.h"

/* The "cpus" of run.json's point (experiment exp, id); *hint speeds up points in id order. */
static int an_run_cpus(const struct lab_an_data *d, const char *exp, long id, size_t *hint, int *a,
                       int *b)
{
	const struct lab_an_json *pts = lab_an_json_get(lab_an_data_experiment(d, exp), "points");

	if (!pts || pts->type != LAB_AN_JSON_ARR || !pts->n)
		return -1;
	for (size_t k = 0; k < pts->n; k++) {
		size_t i = (*hint + k) % pts->n;
		const struct lab_an_json *c = lab_an_json_get(&pts->items[i], "cpus");

		if ((long)lab_an_json_num(&pts->items[i], "point", -1) != id)
			continue;
		*hint = i + 1;
		if (!c || c->type != LAB_AN_JSON_ARR || c->n != 2 ||
		    c->items[0].type != LAB_AN_JSON_NUM || c->items[1].type != LAB_AN_JSON_NUM)
			return -1;
		*a = (int)c->items[0].num;
		*b = (int)c->items[1].num;
		return 0;
	}
	return -1;
}

static void an_pair_param(const char *params, int *a, int *b)
{
	char buf[64], *end;

	*a = *b = -1;
	if (!lab_an_params_get(params, "pair", buf, sizeof(buf)))
		return;
	*a = (int)strtol(buf, &end, 10);
	if (end == buf || *end != '-' || (*b = (int)strtol(end + 1, &end, 10), *end)) {
		*a = *b = -1;
	}
}

static double an_metric_median(const struct lab_an_data *d, const struct lab_an_point *p,
                               const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return p->msum && p->msum[m].n ? p->msum[m].median : NAN;
	return NAN;
}

/* The cell of point p: one-way = cost/2, so the point's statistics and modes scale by 1/2. */
static int an_cell(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                   struct lab_an_c2c_cell *c)
{
	double *x = malloc((p->n ? p->n : 1) * sizeof(*x));
	size_t k = 0;

	if (!x)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (inc || !p->flagged[i])
			x[k++] = p->cost[i] / 2;
	gsl_sort(x, 1, k);
	c->pt = p;
	c->n = strcmp(p->status, "ok") ? 0 : k;
	c->median_ns = c->n ? p->st.median / 2 : NAN;
	c->mean_ns = c->n ? p->st.mean / 2 : NAN;
	lab_an_median_ci(x, c->n, 0.95, &c->ci95_lo, &c->ci95_hi);
	free(x);
	c->modes = p->modes;
	for (size_t i = 0; i < c->modes.count; i++) {
		struct lab_an_mode *m = &c->modes.mode[i];

		m->center /= 2;
		m->peak /= 2;
		m->lo /= 2;
		m->hi /= 2;
	}
	if (!c->n)
		c->modes.count = 0;
	c->m_one_way = an_metric_median(d, p, "one_way_ns");
	c->m_p10 = an_metric_median(d, p, "one_way_p10_ns");
	c->m_p50 = an_metric_median(d, p, "one_way_p50_ns");
	c->m_p90 = an_metric_median(d, p, "one_way_p90_ns");
	return 0;
}

static struct lab_an_c2c_matrix *an_matrix(struct lab_an_c2c *c, size_t *cap,
                                           const struct lab_an_point *p, const char *params)
{
	struct lab_an_c2c_matrix *m;
	char buf[128];

	for (size_t i = 0; i < c->nm; i++)
		if (!strcmp(c->m[i].experiment, p->experiment) && !strcmp(c->m[i].params, params))
			return &c->m[i];
	if (lab_an_grow(&c->m, cap, c->nm + 1, sizeof(*c->m)))
		return NULL;
	m = &c->m[c->nm];
	memset(m, 0, sizeof(*m));
	m->experiment = p->experiment;
	m->params = lab_an_strdup(params);
	m->method = lab_an_strdup(lab_an_params_get(params, "method", buf, sizeof(buf)) ? buf : "");
	m->min_ns = INFINITY;
	m->max_ns = -INFINITY;
	c->nm++;
	return m->params && m->method ? m : NULL;
}

const char *lab_an_c2c_no_median(const struct lab_an_c2c_matrix *m)
{
	if (m->flagged_out && m->flagged_out == m->ncell)
		return "no pair median: every sample ran under foreign load and was left out "
		       "(rerun "
		       "when quiet or pass --include-flagged)";
	if (m->flagged_out)
		return "no pair median: the pairs' samples were load-flagged or their points did "
		       "not run (see run.json)";
	return "no pair median: no pair's point ran (see run.json status and reason)";
}

static int an_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static _Thread_local unsigned long long an_c2c_probes;

unsigned long long lab_an_c2c_probes(void)
{
	return an_c2c_probes;
}

struct an_pair_key {
	const struct lab_an_c2c_matrix *m;
	int a, b;
};

static uint64_t an_pair_hash(int a, int b)
{
	return lab_an_hash_long(lab_an_hash_long(LAB_AN_HASH_INIT, a), b);
}

static int an_pair_same(const void *ctx, size_t i)
{
	const struct an_pair_key *k = ctx;

	an_c2c_probes++;
	return k->m->cell[i].cpu_a == k->a && k->m->cell[i].cpu_b == k->b;
}

/* The first cell of the ordered pair (a, b), or (size_t)-1. */
static size_t an_pair_first(const struct lab_an_c2c_matrix *m, int a, int b)
{
	struct an_pair_key k = {m, a, b};

	return lab_an_index_find(&m->ix, an_pair_hash(a, b), an_pair_same, &k);
}

static int an_matrix_index(struct lab_an_c2c_matrix *m)
{
	if (!(m->last = malloc((m->ncell ? m->ncell : 1) * sizeof(*m->last))))
		return -LAB_ENOMEM;
	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];
		size_t f = an_pair_first(m, c->cpu_a, c->cpu_b);

		if (f != (size_t)-1)
			m->last[f] = i;
		else if (lab_an_index_add(&m->ix, an_pair_hash(c->cpu_a, c->cpu_b), i))
			return -LAB_ENOMEM;
		else
			m->last[i] = i;
	}
	return 0;
}

/* The distinct CPUs of the matrix, and the range and mode count of its cells. */
static int an_matrix_finish(struct lab_an_c2c_matrix *m)
{
	size_t k = 0;

	m->cpu = malloc((2 * m->ncell + 1) * sizeof(*m->cpu));
	if (!m->cpu)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];

		if (c->cpu_a >= 0 && c->cpu_b >= 0) {
			m->cpu[k++] = c->cpu_a;
			m->cpu[k++] = c->cpu_b;
		}
		m->multimodal += lab_an_modes_multi(&c->modes);
		if (c->n) {
			m->min_ns = fmin(m->min_ns, c->median_ns);
			m->max_ns = fmax(m->max_ns, c->median_ns);
		}
		m->flagged_out += lab_an_flagged_all(c->pt);
	}
	qsort(m->cpu, k, sizeof(*m->cpu), an_cmp_int);
	for (size_t i = 0; i < k; i++)
		if (!m->ncpu || m->cpu[m->ncpu - 1] != m->cpu[i])
			m->cpu[m->ncpu++] = m->cpu[i];
	return an_matrix_index(m);
}

static int an_add_point(struct lab_an_c2c *c, size_t *cap, const struct lab_an_data *d,
                        const struct lab_an_cpurel *rel, const struct lab_an_point *p, int inc,
                        size_t *hint)
{
	char *params = lab_an_params_without(p->params, "pair");
	struct lab_an_c2c_matrix *m = params ? an_matrix(c, cap, p, params) : NULL;
	struct lab_an_c2c_cell *cell;
	size_t ccap;

	free(params);
	if (!m)
		return -LAB_ENOMEM;
	ccap = m->ncell;
	if (lab_an_grow(&m->cell, &ccap, m->ncell + 1, sizeof(*m->cell)))
		return -LAB_ENOMEM;
	cell = &m->cell[m->ncell++];
	memset(cell, 0, sizeof(*cell));
	if (an_run_cpus(d, p->experiment, p->id, hint, &cell->cpu_a, &cell->cpu_b))
		an_pair_param(p->params, &cell->cpu_a, &cell->cpu_b);
	if (cell->cpu_a >= 0 && cell->cpu_b >= 0)
		lab_an_cpurel_get(rel, cell->cpu_a, cell->cpu_b, &cell->smt_siblings,
		                  &cell->same_package, &cell->same_numa);
	else
		cell->smt_siblings = cell->same_package = cell->same_numa = -1;
	return an_cell(d, p, inc, cell);
}

int lab_an_c2c_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, "c2c");
	char buf[16];

	if (decl >= 0)
		return decl;
	/* Older files: points placed as CPU pairs. */
	return lab_an_params_get(p->params, "pair", buf, sizeof(buf)) ||
	       (lab_an_params_get(p->params, "placement", buf, sizeof(buf)) &&
	        !strcmp(buf, "pairs"));
}

int lab_an_c2c_run(const struct lab_an_data *d, int include_flagged, struct lab_an_c2c *c,
                   struct lab_err *err)
{
	struct lab_an_cpurel rel;
	size_t cap = 0, hint = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	lab_an_cpurel_init(&rel, d->run);
	c->topo_detailed = lab_an_cpurel_detailed(&rel);
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (lab_an_c2c_applies(d, &d->pt[i]))
			rc = an_add_point(c, &cap, d, &rel, &d->pt[i], include_flagged, &hint);
	for (size_t i = 0; i < c->nm && !rc; i++)
		rc = an_matrix_finish(&c->m[i]);
	return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

void lab_an_c2c_free(struct lab_an_c2c *c)
{
	for (size_t i = 0; i < c->nm; i++) {
		free(c->m[i].params);
		free(c->m[i].method);
		free(c->m[i].cell);
		free(c->m[i].cpu);
		free(c->m[i].last);
		lab_an_index_free(&c->m[i].ix);
	}
	free(c->m);
	memset(c, 0, sizeof(*c));
}

const struct lab_an_c2c_cell *lab_an_c2c_find(const struct lab_an_c2c_matrix *m, int a, int b)
{
	size_t i = an_pair_first(m, a, b);

	if (i != (size_t)-1)
		return &m->cell[i];
	i = an_pair_first(m, b, a);
	return i == (size_t)-1 ? NULL : &m->cell[m->last[i]];
}

static int an_c2c_compute(const struct lab_an_data *d, int include_flagged, void **state,
                          struct lab_err *err)
{
	struct lab_an_c2c *c = calloc(1, sizeof(*c));
	int rc;

	*state = NULL;
	if (!c)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = lab_an_c2c_run(d, include_flagged, c, err);
	if (rc || !c->nm) {
		lab_an_c2c_free(c);
		free(c);
		return rc;
	}
	*state = c;
	return 0;
}

static void an_c2c_free(void *state)
{
	lab_an_c2c_free(state);
	free(state);
}

static const char *an_c2c_experiment(const void *state, size_t i)
{
	const struct lab_an_c2c *c = state;

	return i < c->nm ? c->m[i].experiment : NULL;
}

static void an_c2c_json(struct lab_json *w, const void *state, const char *exp)
{
	lab_an_c2c_json(w, state, exp);
}

static int an_c2c_csv(const void *state, const char *path, struct lab_err *err)
{
	return lab_an_c2c_csv_write(state, path, err);
}

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return lab_an_c2c_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_c2c_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_c2c = {
    .name = "c2c",
    .applies = an_view_applies,
    .hides_series = 1, /* one pair per series: the matrix shows them */
    .compute = an_view_compute,
    .free = an_c2c_free,
    .experiment = an_c2c_experiment,
    .json = an_c2c_json,
    .csv_name = LAB_AN_FILE_C2C,
    .csv = an_c2c_csv,
    .text = lab_an_c2c_text,
    .html = lab_an_c2c_html,
    .plots = lab_an_c2c_plots,
};
