/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A point of the numa view as a row of its group: its kind, facts and statistics. */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/rates.h"
#include "analyze/stats.h"
#include "analyze/units.h"
#include "analyze/views/numa.h"
#include "analyze/views/view.h"

#define AN_COST ((size_t)-1) /* an_val's "metric" for the point's cost */

/* A whole-number fact in [0, LAB_AN_NUMA_NODE_NUM_MAX], else -1 (absent, another type, out
 * of range). */
static int an_fact_node(const struct lab_an_json *facts, const char *key)
{
	const struct lab_an_json *v = lab_an_json_get(facts, key);

	if (!v || v->type != LAB_AN_JSON_NUM || !(v->num >= 0) ||
	    v->num > LAB_AN_NUMA_NODE_NUM_MAX || v->num != floor(v->num))
		return -1;
	return (int)v->num;
}

/* "N" of a params value "node:N" (prefix "node:") or "N" (prefix ""), else -1. */
static int an_param_node(const char *params, const char *key, const char *prefix)
{
	char buf[64], *end;
	long v;
	size_t k = strlen(prefix);

	if (!lab_an_params_get(params, key, buf, sizeof(buf)) || strncmp(buf, prefix, k) ||
	    buf[k] < '0' || buf[k] > '9')
		return -1;
	v = strtol(buf + k, &end, 10);
	return *end || v > LAB_AN_NUMA_NODE_NUM_MAX ? -1 : (int)v;
}

/* The size param ("16K", "4MiB", "65536") in bytes, NaN when absent or not a size. */
static double an_param_size(const char *params)
{
	char buf[64];

	return lab_an_params_get(params, "size", buf, sizeof(buf)) ? lab_an_size_bytes(buf) : NAN;
}

static size_t an_metric(const struct lab_an_data *d, const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return m;
	return AN_COST;
}

/* A loaded-latency point: its samples record the chase's latency and the streams' bandwidth. */
static int an_loaded_point(const struct lab_an_data *d, const struct lab_an_point *p)
{
	size_t m[2] = {an_metric(d, "ns_per_load"), an_metric(d, "stream_gb_per_s")}, has = 0;

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; m[k] != AN_COST && i < p->n && has == k; i++)
			has += !isnan(lab_an_metric(p, i, m[k]));
	return has == 2;
}

/* 1 when an experiment of p has a loaded-latency point (v->loaded, made at the first ask),
 * -1 when memory ran out. */
static int an_loaded_exp(struct lab_an_numa *v, const struct lab_an_data *d,
                         const struct lab_an_point *p)
{
	for (size_t i = 0; !v->loaded_made && i < d->npt; i++)
		if (an_loaded_point(d, &d->pt[i]) &&
		    lab_an_strset_add(&v->loaded, d->pt[i].experiment, NULL) == (size_t)-1)
			return -1;
	v->loaded_made = 1;
	return lab_an_strset_find(&v->loaded, p->experiment) != (size_t)-1;
}

/* The kind of point p, or -1 when the view has nothing to show for it (-2: out of memory). */
static int an_kind(struct lab_an_numa *v, const struct lab_an_data *d, const struct lab_an_point *p)
{
	char buf[64];
	int lx;

	if (lab_an_json_get(p->facts, "init") || lab_an_params_get(p->params, "init", buf, 64))
		return LAB_AN_NUMA_POLICY;
	if (an_loaded_point(d, p))
		return LAB_AN_NUMA_LOADED;
	/* A point without samples (skipped) belongs where its experiment's others are. */
	if (!p->n && (lx = an_loaded_exp(v, d, p)) != 0)
		return lx < 0 ? -2 : LAB_AN_NUMA_LOADED;
	if (an_param_node(p->params, "placement", "node:") >= 0)
		return LAB_AN_NUMA_MATRIX;
	if (isfinite(an_param_size(p->params)))
		return LAB_AN_NUMA_LADDER;
	return -1;
}

/* A group's key against ctx; counted for the scale test. */
struct an_gkey {
	const struct lab_an_numa *v;
	const char *exp, *params;
	int kind, threads;
};

static int an_group_same(const void *ctx, size_t i)
{
	const struct an_gkey *k = ctx;
	const struct lab_an_numa_group *g = &k->v->g[i];

	lab_an_view_probe();
	return (int)g->kind == k->kind && g->threads == k->threads &&
	       !strcmp(g->experiment, k->exp) && !strcmp(g->params, k->params);
}

/* The params of p without the keys kind k sweeps (malloc'd; NULL: out of memory). */
static char *an_group_params(const struct lab_an_point *p, int k)
{
	static const char *const swept[][2] = {[LAB_AN_NUMA_MATRIX] = {"placement", "mem_node"},
	                                       [LAB_AN_NUMA_POLICY] = {"init", NULL},
	                                       [LAB_AN_NUMA_LADDER] = {"size", NULL},
	                                       [LAB_AN_NUMA_LOADED] = {NULL, NULL}};
	char *params = lab_an_strdup(p->params), *t;

	for (size_t i = 0; params && i < 2 && swept[k][i]; i++, params = t) {
		t = lab_an_params_without(params, swept[k][i]);
		free(params);
	}
	return params;
}

/* The group of p (kind k) in v, added when new. */
static struct lab_an_numa_group *an_group(struct lab_an_numa *v, const struct lab_an_point *p,
                                          int k)
{
	int threads = k == LAB_AN_NUMA_MATRIX || k == LAB_AN_NUMA_LADDER ? p->threads : 0;
	char *params = an_group_params(p, k);
	struct an_gkey key = {v, p->experiment, params, k, threads};
	uint64_t h = params ? lab_an_view_key(p->experiment, params, 64L * threads + k) : 0;
	size_t i = params ? lab_an_index_find(&v->ix, h, an_group_same, &key) : (size_t)-1;
	struct lab_an_numa_group *g;

	if (i != (size_t)-1) {
		free(params);
		return &v->g[i];
	}
	if (!params || lab_an_grow(&v->g, &v->cap, v->ng + 1, sizeof(*v->g)) ||
	    lab_an_index_add(&v->ix, h, v->ng)) {
		free(params);
		return NULL;
	}
	g = memset(&v->g[v->ng++], 0, sizeof(*g));
	g->kind = (enum lab_an_numa_kind)k;
	g->experiment = p->experiment;
	g->params = params;
	g->threads = threads;
	return g;
}

/* x[0..k) sorted: the median with its order-statistics 95 % interval, or with 2 to 5 values
 * (too few for it) the mean with its t-interval (mean_ci = 1), clipped at 0: every quantity
 * here (a cost, a latency, a bandwidth) is >= 0 (analyze/domain.h). */
static void an_stat(double *x, size_t k, struct lab_an_numa_val *s)
{
	double m = 0, ss = 0, h;

	gsl_sort(x, 1, k);
	for (size_t i = 0; i < k; i++)
		m += x[i] / (double)k;
	s->mean = k ? m : NAN;
	s->med = lab_an_median_sorted(x, k);
	s->lo = s->hi = NAN;
	s->mean_ci = 0;
	if (!lab_an_median_ci(x, k, 0.95, &s->lo, &s->hi) || k < 2)
		return;
	for (size_t i = 0; i < k; i++)
		ss += (x[i] - m) * (x[i] - m);
	h = lab_an_t_quantile(0.95, (double)(k - 1)) * sqrt(ss / (double)(k - 1) / (double)k);
	*s = (struct lab_an_numa_val){m, fmax(0, m - h), m + h, m, 1};
}

/* The statistic of metric m (AN_COST: the cost) over p's used samples (none unless p is ok);
 * with two or more runs the interval is the run means' (of the mean), as every point's is:
 * lab_an_levels_apply made p->st's so, and the summary each metric's (levels.h, data.h).
 * Returns how many samples, or -1 when out of memory. */
static long an_val(const struct lab_an_point *p, size_t m, int inc, struct lab_an_numa_val *s)
{
	const struct lab_an_msum *ms = m == AN_COST ? NULL : lab_an_msum_of(p, m);
	double *x = malloc((p->n ? p->n : 1) * sizeof(*x));
	size_t k = 0;

	if (!x)
		return -1;
	for (size_t i = 0; i < p->n && !strcmp(p->status, "ok"); i++) {
		double y = m == AN_COST ? p->cost[i] : lab_an_metric(p, i, m);

		if ((inc || !p->flagged[i]) && !isnan(y))
			x[k++] = y;
	}
	an_stat(x, k, s);
	free(x);
	if (k && m == AN_COST && p->levels.runs >= 2 && isfinite(p->st.ci95_lo) &&
	    isfinite(p->st.ci95_hi))
		*s = (struct lab_an_numa_val){p->st.mean, p->st.ci95_lo, p->st.ci95_hi, p->st.mean,
		                              2};
	else if (k && ms && ms->runs)
		*s = (struct lab_an_numa_val){ms->mean, ms->ci95_lo, ms->ci95_hi, ms->mean, 2};
	return (long)k;
}

/* bytes / cost: a decreasing map, so the interval's ends swap; a cost interval reaching 0
 * leaves the bandwidth's unbounded above (+inf: "unbounded" in tables, null in JSON). */
static struct lab_an_numa_val an_to_gbs(double bytes, struct lab_an_numa_val c)
{
	return (struct lab_an_numa_val){c.med > 0 ? bytes / c.med : NAN,
	                                c.hi > 0 ? bytes / c.hi : NAN,
	                                c.lo > 0      ? bytes / c.lo
	                                : isnan(c.lo) ? NAN
	                                              : INFINITY,
	                                c.mean > 0 ? bytes / c.mean : NAN, c.mean_ci};
}

static void an_facts(const struct lab_an_point *p, struct lab_an_numa_row *r)
{
	const struct lab_an_json *f = p->facts, *v;
	const char *init = lab_an_json_str(f, "init");
	char buf[8];

	r->cpu_node = an_fact_node(f, "cpu_node");
	r->mem_node = an_fact_node(f, "mem_node");
	if (r->cpu_node < 0)
		r->cpu_node = an_param_node(p->params, "placement", "node:");
	if (r->mem_node < 0)
		r->mem_node = an_param_node(p->params, "mem_node", "");
	v = lab_an_json_get(f, "pages_per_node");
	r->pages = v && v->type == LAB_AN_JSON_ARR ? v : NULL;
	v = lab_an_json_get(f, "pages_absent");
	r->pages_absent = v && v->type == LAB_AN_JSON_NUM ? v->num : NAN;
	v = lab_an_json_get(f, "placement_ok");
	r->placement_ok = v && v->type == LAB_AN_JSON_BOOL ? (int)v->num : -1;
	r->note = lab_an_json_str(f, "placement_note");
	/* a point that asked for huge pages (a file's fact on another point is not read) */
	r->huge_pct =
	    lab_an_params_get(p->params, "hugepages", buf, sizeof(buf)) && !strcmp(buf, "on")
	        ? lab_an_json_num(f, "huge_pct", NAN) + 0.0 /* -0 is 0 */
	        : NAN;
	if (init)
		snprintf(r->init, sizeof(r->init), "%s", init);
	else if (!lab_an_params_get(p->params, "init", r->init, sizeof(r->init)))
		r->init[0] = 0;
	v = lab_an_json_get(f, "streams");
	r->streams = v && v->type == LAB_AN_JSON_NUM && v->num >= 0 && v->num < 1e7
	                 ? (int)v->num
	                 : p->threads - 1;
	r->size = an_param_size(p->params);
}

/* The chasing thread's own latency (not the team's elapsed) against the streams' bandwidth. */
static int an_loaded(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                     struct lab_an_numa_row *r)
{
	struct lab_an_numa_val lat, bw;

	if (an_val(p, an_metric(d, "ns_per_load"), inc, &lat) < 0 ||
	    an_val(p, an_metric(d, "stream_gb_per_s"), inc, &bw) < 0)
		return -LAB_ENOMEM;
	if (r->n && !isnan(lat.med))
		r->v = lat;
	if (r->n)
		r->gbs = bw;
	return 0;
}

int lab_an_numa_add(struct lab_an_numa *v, const struct lab_an_data *d,
                    const struct lab_an_point *p, int inc)
{
	int k = an_kind(v, d, p);
	struct lab_an_numa_group *g;
	struct lab_an_numa_row *r;
	struct lab_an_rates rt;
	long n;

	if (k < 0)
		return k == -2 ? -LAB_ENOMEM : 0;
	if (!(g = an_group(v, p, k)) || lab_an_grow(&g->row, &g->cap, g->nrow + 1, sizeof(*g->row)))
		return -LAB_ENOMEM;
	r = memset(&g->row[g->nrow++], 0, sizeof(*r));
	r->pt = p;
	an_facts(p, r);
	r->gbs = (struct lab_an_numa_val){NAN, NAN, NAN, NAN, 0};
	if ((n = an_val(p, AN_COST, inc, &r->v)) < 0)
		return -LAB_ENOMEM;
	r->n = (size_t)n;
	lab_an_rates_compute(d, p, &rt);
	if (!g->unit || (p->unit && p->n)) /* a point without samples sets no unit */
		g->unit = lab_an_point_unit(d, p);
	if (k == LAB_AN_NUMA_LOADED) {
		g->unit = "ns/load";
		return an_loaded(d, p, inc, r);
	}
	if (rt.has && rt.bytes > 0 && k != LAB_AN_NUMA_LADDER) {
		g->bw = 1;
		r->gbs = an_to_gbs(rt.bytes, r->v);
		if (k == LAB_AN_NUMA_MATRIX) {
			r->v = r->gbs;
			g->unit = "GB/s";
		}
	}
	return 0;
}
