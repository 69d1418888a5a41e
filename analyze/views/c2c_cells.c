/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The c2c matrices built from loaded data (c2c.h): cells, their CPUs, relations and index. */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/views/c2c.h"
#include "analyze/views/view.h"

/* The "cpus" of p's entry in run.json (the loader attached it: no search of run.json per
 * point, whatever the order of its points). */
static int an_run_cpus(const struct lab_an_point *p, int *a, int *b)
{
	const struct lab_an_json *c = lab_an_json_get(p->runjson, "cpus");

	if (!c || c->type != LAB_AN_JSON_ARR || c->n != 2 || c->items[0].type != LAB_AN_JSON_NUM ||
	    c->items[1].type != LAB_AN_JSON_NUM)
		return -1;
	*a = (int)c->items[0].num;
	*b = (int)c->items[1].num;
	return 0;
}

static void an_pair_param(const char *params, int *a, int *b)
{
	char buf[64], *end;

	*a = *b = -1;
	if (!lab_an_params_get(params, "pair", buf, sizeof(buf)))
		return;
	*a = (int)strtol(buf, &end, 10);
	if (end == buf || *end != '-' || (*b = (int)strtol(end + 1, &end, 10), *end))
		*a = *b = -1;
}

static double an_metric_median(const struct lab_an_data *d, const struct lab_an_point *p,
                               const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name)) {
			const struct lab_an_msum *ms = lab_an_msum_of(p, m); /* NULL: p has none */
			return ms && ms->n ? ms->median : NAN;
		}
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
	/* with two or more runs the point's interval is its run means' (levels.h), of the mean */
	c->ci_runs =
	    c->n && p->levels.runs >= 2 && isfinite(p->st.ci95_lo) && isfinite(p->st.ci95_hi);
	if (c->ci_runs) {
		c->ci95_lo = p->st.ci95_lo / 2;
		c->ci95_hi = p->st.ci95_hi / 2;
	}
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

/* A matrix's key (experiment, params) against ctx; counted for the scale test. */
struct an_mkey {
	const struct lab_an_c2c *c;
	const char *exp, *params;
};

static int an_matrix_same(const void *ctx, size_t i)
{
	const struct an_mkey *k = ctx;

	lab_an_view_probe();
	return !strcmp(k->c->m[i].experiment, k->exp) && !strcmp(k->c->m[i].params, k->params);
}

static struct lab_an_c2c_matrix *an_matrix(struct lab_an_c2c *c, const struct lab_an_point *p,
                                           const char *params)
{
	struct an_mkey k = {c, p->experiment, params};
	uint64_t h = lab_an_view_key(p->experiment, params, 0);
	size_t i = lab_an_index_find(&c->ix, h, an_matrix_same, &k);
	struct lab_an_c2c_matrix *m;
	char buf[128];

	if (i != (size_t)-1)
		return &c->m[i];
	if (lab_an_grow(&c->m, &c->cap, c->nm + 1, sizeof(*c->m)) ||
	    lab_an_index_add(&c->ix, h, c->nm))
		return NULL;
	m = memset(&c->m[c->nm], 0, sizeof(*m));
	m->experiment = p->experiment;
	m->params = lab_an_strdup(params);
	m->method = lab_an_strdup(lab_an_params_get(params, "method", buf, sizeof(buf)) ? buf : "");
	m->min_ns = INFINITY;
	m->max_ns = -INFINITY;
	c->nm++;
	return m->params && m->method ? m : NULL;
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

/* The pair index (c2c.h): the first cell of each ordered pair, the last of its repeats. */
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

int lab_an_c2c_finish(struct lab_an_c2c_matrix *m)
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
		m->rows_gone += lab_an_rows_gone(c->pt);
	}
	qsort(m->cpu, k, sizeof(*m->cpu), an_cmp_int);
	for (size_t i = 0; i < k; i++)
		if (!m->ncpu || m->cpu[m->ncpu - 1] != m->cpu[i])
			m->cpu[m->ncpu++] = m->cpu[i];
	return an_matrix_index(m);
}

int lab_an_c2c_add(struct lab_an_c2c *c, const struct lab_an_data *d,
                   const struct lab_an_cpurel *rel, const struct lab_an_point *p,
                   int include_flagged)
{
	char *params = lab_an_params_without(p->params, "pair");
	struct lab_an_c2c_matrix *m = params ? an_matrix(c, p, params) : NULL;
	struct lab_an_c2c_cell *cell;

	free(params);
	if (!m || lab_an_grow(&m->cell, &m->ccap, m->ncell + 1, sizeof(*m->cell)))
		return -LAB_ENOMEM;
	cell = memset(&m->cell[m->ncell++], 0, sizeof(*cell));
	if (an_run_cpus(p, &cell->cpu_a, &cell->cpu_b))
		an_pair_param(p->params, &cell->cpu_a, &cell->cpu_b);
	if (cell->cpu_a >= 0 && cell->cpu_b >= 0)
		lab_an_cpurel_get(rel, cell->cpu_a, cell->cpu_b, &cell->smt_siblings,
		                  &cell->same_package, &cell->same_numa, &cell->same_llc);
	else
		cell->smt_siblings = cell->same_package = cell->same_numa = cell->same_llc = -1;
	return an_cell(d, p, include_flagged, cell);
}

void lab_an_c2c_free(void *state)
{
	struct lab_an_c2c *c = state;

	for (size_t i = 0; c && i < c->nm; i++) {
		free(c->m[i].params);
		free(c->m[i].method);
		free(c->m[i].cell);
		free(c->m[i].cpu);
		free(c->m[i].last);
		lab_an_index_free(&c->m[i].ix);
	}
	if (c)
		lab_an_index_free(&c->ix);
	free(c ? c->m : NULL);
	free(c);
}

size_t lab_an_c2c_pos(const struct lab_an_c2c_matrix *m, int cpu)
{
	return (size_t)((int *)bsearch(&cpu, m->cpu, m->ncpu, sizeof(cpu), an_cmp_int) - m->cpu);
}

const struct lab_an_c2c_cell *lab_an_c2c_find(const struct lab_an_c2c_matrix *m, int a, int b)
{
	size_t i = an_pair_first(m, a, b);

	if (i != (size_t)-1)
		return &m->cell[i];
	i = an_pair_first(m, b, a);
	return i == (size_t)-1 ? NULL : &m->cell[m->last[i]];
}
