/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/numa.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/rates.h"
#include "analyze/stats.h"
#include "analyze/views/view.h"

/* A whole-number fact in [0, max], else -1 (absent, another type, out of range). */
static int an_fact_node(const struct lab_an_json *facts, const char *key)
{
	const struct lab_an_json *v = lab_an_json_get(facts, key);

	if (!v || v->type != LAB_AN_JSON_NUM || !(v->num >= 0) || v->num >= LAB_AN_NUMA_NODES_MAX ||
	    v->num != floor(v->num))
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
	return *end || v >= LAB_AN_NUMA_NODES_MAX ? -1 : (int)v;
}

/* A size param "16K", "4MiB", "65536" in bytes (binary suffixes), NaN when absent or bad. */
static double an_param_size(const char *params)
{
	static const char *const suf[] = {"", "K", "M", "G", "T"};
	char buf[64], *end;
	double v;

	if (!lab_an_params_get(params, "size", buf, sizeof(buf)))
		return NAN;
	v = strtod(buf, &end);
	if (end == buf || !(v >= 0))
		return NAN;
	for (size_t i = 0; i < sizeof(suf) / sizeof(*suf); i++) {
		size_t k = strlen(suf[i]);

		if (!strncmp(end, suf[i], k) &&
		    (!end[k] || !strcmp(end + k, "iB") || (!*suf[i] && !strcmp(end, "B"))))
			return v * pow(1024, (double)i);
	}
	return NAN;
}

static size_t an_metric(const struct lab_an_data *d, const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return m;
	return (size_t)-1;
}

/* 1 when some sample of p recorded metric m. */
static int an_has_metric(const struct lab_an_data *d, const struct lab_an_point *p, size_t m)
{
	for (size_t i = 0; m != (size_t)-1 && i < p->n; i++)
		if (!isnan(p->metric[i * d->nmetric + m]))
			return 1;
	return 0;
}

/* A loaded-latency point: its samples record the chase's latency and the streams' bandwidth. */
static int an_loaded_point(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return an_has_metric(d, p, an_metric(d, "ns_per_load")) &&
	       an_has_metric(d, p, an_metric(d, "stream_gb_per_s"));
}

/* The kind of point p, or -1 when the view has nothing to show for it. */
static int an_kind(const struct lab_an_data *d, const struct lab_an_point *p)
{
	char buf[64];
	int init = lab_an_json_get(p->facts, "init") ||
	           lab_an_params_get(p->params, "init", buf, sizeof(buf));

	if (init)
		return LAB_AN_NUMA_POLICY;
	if (an_loaded_point(d, p))
		return LAB_AN_NUMA_LOADED;
	/* A point without samples (skipped) belongs where its experiment's others are. */
	for (size_t i = 0; !p->n && i < d->npt; i++)
		if (!strcmp(d->pt[i].experiment, p->experiment) && an_loaded_point(d, &d->pt[i]))
			return LAB_AN_NUMA_LOADED;
	if (an_param_node(p->params, "placement", "node:") >= 0)
		return LAB_AN_NUMA_MATRIX;
	if (isfinite(an_param_size(p->params)))
		return LAB_AN_NUMA_LADDER;
	return -1;
}

int lab_an_numa_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, "numa");

	if (decl >= 0)
		return decl;
	return lab_an_json_get(p->facts, "pages_per_node") != NULL;
}

/* The keys a group of kind k sweeps (left out of its params). */
static char *an_group_params(const char *params, int k)
{
	static const char *const swept[][3] = {
	    [LAB_AN_NUMA_MATRIX] = {"placement", "mem_node", NULL},
	    [LAB_AN_NUMA_POLICY] = {"init", NULL, NULL},
	    [LAB_AN_NUMA_LADDER] = {"size", NULL, NULL},
	    [LAB_AN_NUMA_LOADED] = {NULL, NULL, NULL},
	};
	char *s = lab_an_strdup(params), *t;

	for (size_t i = 0; s && i < 3 && swept[k][i]; i++, s = t) {
		t = lab_an_params_without(s, swept[k][i]);
		free(s);
	}
	return s;
}

static struct lab_an_numa_group *an_group(struct lab_an_numa *v, size_t *cap,
                                          const struct lab_an_point *p, int k)
{
	int threads = k == LAB_AN_NUMA_MATRIX || k == LAB_AN_NUMA_LADDER ? p->threads : 0;
	char *params = an_group_params(p->params, k);
	struct lab_an_numa_group *g;

	if (!params)
		return NULL;
	for (size_t i = 0; i < v->ng; i++) {
		g = &v->g[i];
		if ((int)g->kind == k && g->threads == threads &&
		    !strcmp(g->experiment, p->experiment) && !strcmp(g->params, params)) {
			free(params);
			return g;
		}
	}
	if (lab_an_grow(&v->g, cap, v->ng + 1, sizeof(*v->g))) {
		free(params);
		return NULL;
	}
	g = &v->g[v->ng++];
	memset(g, 0, sizeof(*g));
	g->kind = (enum lab_an_numa_kind)k;
	g->experiment = p->experiment;
	g->params = params;
	g->threads = threads;
	return g;
}

/* The 95 % interval of sorted x[0..k): the median's order-statistics one, or with 2 to 5
 * values (too few for it) the mean's t-interval, *mean set to 1 and *centre to the mean. */
static void an_interval(const double *x, size_t k, double *centre, double *lo, double *hi,
                        int *mean)
{
	double m = 0, ss = 0, h;

	*mean = 0;
	if (!lab_an_median_ci(x, k, 0.95, lo, hi) || k < 2)
		return;
	for (size_t i = 0; i < k; i++)
		m += x[i] / (double)k;
	for (size_t i = 0; i < k; i++)
		ss += (x[i] - m) * (x[i] - m);
	h = lab_an_t_quantile(0.95, (double)(k - 1)) * sqrt(ss / (double)(k - 1) / (double)k);
	*centre = m, *lo = m - h, *hi = m + h, *mean = 1;
}

/* Median of the used costs with its 95 % interval (an_interval). */
static int an_cost(const struct lab_an_point *p, int inc, struct lab_an_numa_row *r)
{
	double *x = malloc((p->n ? p->n : 1) * sizeof(*x));
	size_t k = 0;

	if (!x)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (inc || !p->flagged[i])
			x[k++] = p->cost[i];
	gsl_sort(x, 1, k);
	r->n = strcmp(p->status, "ok") ? 0 : k;
	r->med = r->n ? p->st.median : NAN;
	r->lo = r->hi = NAN;
	an_interval(x, r->n, &r->med, &r->lo, &r->hi, &r->mean_ci);
	free(x);
	return 0;
}

/* bytes / cost: a decreasing map, so the interval's ends swap. */
static void an_to_gbs(double bytes, double med, double lo, double hi, double *v, double *vlo,
                      double *vhi)
{
	*v = med > 0 ? bytes / med : NAN;
	*vlo = hi > 0 ? bytes / hi : NAN;
	*vhi = lo > 0 ? bytes / lo : NAN;
}

static void an_facts(const struct lab_an_point *p, struct lab_an_numa_row *r)
{
	const struct lab_an_json *f = p->facts, *v;

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
}

/* The median of metric m over p's used samples with its 95 % interval (an_interval). */
static int an_metric_med(const struct lab_an_data *d, const struct lab_an_point *p, size_t m,
                         int inc, double out[3], int *mean)
{
	double *x = malloc((p->n ? p->n : 1) * sizeof(*x));
	size_t k = 0;

	if (!x)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if ((inc || !p->flagged[i]) && !isnan(p->metric[i * d->nmetric + m]))
			x[k++] = p->metric[i * d->nmetric + m];
	gsl_sort(x, 1, k);
	out[0] = k ? (k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2) : NAN;
	an_interval(x, k, &out[0], &out[1], &out[2], mean);
	free(x);
	return 0;
}

/* The chasing thread's own latency (not the team's elapsed) against the streams' bandwidth. */
static int an_loaded(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                     struct lab_an_numa_row *r)
{
	const struct lab_an_json *s = lab_an_json_get(p->facts, "streams");
	double lat[3], bw[3];
	int lat_mean = 0, bw_mean = 0;

	r->streams = s && s->type == LAB_AN_JSON_NUM && s->num >= 0 && s->num < 1e7
	                 ? (int)s->num
	                 : p->threads - 1;
	if (an_metric_med(d, p, an_metric(d, "ns_per_load"), inc, lat, &lat_mean) ||
	    an_metric_med(d, p, an_metric(d, "stream_gb_per_s"), inc, bw, &bw_mean))
		return -LAB_ENOMEM;
	if (r->n && !isnan(lat[0]))
		r->med = lat[0], r->lo = lat[1], r->hi = lat[2], r->mean_ci = lat_mean;
	if (r->n)
		r->gbs = bw[0], r->gbs_lo = bw[1], r->gbs_hi = bw[2];
	return 0;
}

static int an_add(struct lab_an_numa *v, size_t *cap, const struct lab_an_data *d,
                  const struct lab_an_point *p, int inc, size_t hint[2])
{
	int k = an_kind(d, p);
	struct lab_an_numa_group *g;
	struct lab_an_numa_row *r;
	struct lab_an_rates rt;

	if (k < 0)
		return 0;
	if (!(g = an_group(v, cap, p, k)) ||
	    lab_an_grow(&g->row, &g->cap, g->nrow + 1, sizeof(*g->row)))
		return -LAB_ENOMEM;
	r = &g->row[g->nrow++];
	memset(r, 0, sizeof(*r));
	r->pt = p;
	an_facts(p, r);
	if (lab_an_json_str(p->facts, "init"))
		snprintf(r->init, sizeof(r->init), "%s", lab_an_json_str(p->facts, "init"));
	else if (!lab_an_params_get(p->params, "init", r->init, sizeof(r->init)))
		r->init[0] = 0;
	r->size = an_param_size(p->params);
	r->gbs = r->gbs_lo = r->gbs_hi = NAN;
	if (an_cost(p, inc, r))
		return -LAB_ENOMEM;
	lab_an_rates_compute(d, p, &rt, hint);
	if (!g->unit || p->unit)
		g->unit = lab_an_point_unit(d, p);
	if (k == LAB_AN_NUMA_LOADED) {
		if (an_loaded(d, p, inc, r))
			return -LAB_ENOMEM;
		g->unit = "ns/load";
	} else if (rt.has && rt.bytes > 0 && k != LAB_AN_NUMA_LADDER) {
		g->bw = 1;
		an_to_gbs(rt.bytes, r->med, r->lo, r->hi, &r->gbs, &r->gbs_lo, &r->gbs_hi);
		if (k == LAB_AN_NUMA_MATRIX) {
			r->med = r->gbs, r->lo = r->gbs_lo, r->hi = r->gbs_hi;
			g->unit = "GB/s";
		}
	}
	g->mismatched += r->placement_ok == 0;
	return 0;
}

int lab_an_numa_run(const struct lab_an_data *d, int include_flagged, struct lab_an_numa *v,
                    struct lab_err *err)
{
	size_t cap = 0, hint[2] = {0, 0};
	int rc = 0;

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (lab_an_numa_applies(d, &d->pt[i]))
			rc = an_add(v, &cap, d, &d->pt[i], include_flagged, hint);
	if (!rc)
		rc = lab_an_numa_finish(d, v);
	return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

void lab_an_numa_free(struct lab_an_numa *v)
{
	for (size_t i = 0; i < v->ng; i++) {
		free(v->g[i].params);
		free(v->g[i].row);
	}
	free(v->g);
	free(v->dist);
	memset(v, 0, sizeof(*v));
}

static int an_numa_compute(const struct lab_an_data *d, int include_flagged, void **state,
                           struct lab_err *err)
{
	struct lab_an_numa *v = calloc(1, sizeof(*v));
	int rc;

	*state = NULL;
	if (!v)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = lab_an_numa_run(d, include_flagged, v, err);
	if (rc || !v->ng) {
		lab_an_numa_free(v);
		free(v);
		return rc;
	}
	*state = v;
	return 0;
}

static void an_numa_free(void *state)
{
	lab_an_numa_free(state);
	free(state);
}

static const char *an_numa_experiment(const void *state, size_t i)
{
	const struct lab_an_numa *v = state;

	return i < v->ng ? v->g[i].experiment : NULL;
}

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return lab_an_numa_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_numa_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_numa = {
    .name = "numa",
    .applies = an_view_applies,
    .hides_series = 0, /* the thread scaling of the policy and loaded points still tells */
    .compute = an_view_compute,
    .free = an_numa_free,
    .experiment = an_numa_experiment,
    .json = lab_an_numa_json,
    .csv_name = LAB_AN_FILE_NUMA,
    .csv = lab_an_numa_csv,
    .text = lab_an_numa_text,
    .html = lab_an_numa_html,
    .plots = lab_an_numa_plots,
};
