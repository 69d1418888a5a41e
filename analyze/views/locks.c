/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/locks.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/jsonw.h"
#include "analyze/views/view.h"

const char *const lab_an_lock_metric[LAB_AN_LK_NMETRIC] = {"jain_fairness", "handoff_ratio",
                                                           "acq_lat_p99_ns", "max_min_ratio"};

/* The bounded intervals of e (see locks.h). */
static void an_lock_bounds(struct lab_an_lock_pt *e)
{
	const struct lab_an_msum *m = &e->m[LAB_AN_LK_JAIN];
	double lo, hi;

	e->thr_lo = e->thr_hi = e->jain_lo = e->jain_hi = NAN;
	if (e->thr.n && lab_an_stats_ci_log(&e->thr, 0.95, &lo, &hi) == 0) {
		e->thr_lo = lo;
		e->thr_hi = hi;
	}
	if (m->n > 1 && e->pt->threads > 1 &&
	    lab_an_ci_logit(m->mean, lab_an_se_of_tci(m->ci95_lo, m->ci95_hi, m->n, 0.95),
	                    (double)(m->n - 1), 0.95, 1.0 / e->pt->threads, 1.0, &lo, &hi) == 0) {
		e->jain_lo = lo;
		e->jain_hi = hi;
	}
}

/* params without the `lock` item into out (at least strlen(params) + 1 bytes). */
static struct lab_an_lock_group *an_group(struct lab_an_locks *l, size_t *cap, const char *exp,
                                          const char *params)
{
	struct lab_an_lock_group *g;

	for (size_t i = 0; i < l->ng; i++)
		if (!strcmp(l->g[i].experiment, exp) && !strcmp(l->g[i].params, params))
			return &l->g[i];
	if (lab_an_grow(&l->g, cap, l->ng + 1, sizeof(*l->g)))
		return NULL;
	g = &l->g[l->ng++];
	memset(g, 0, sizeof(*g));
	g->experiment = exp;
	g->params = lab_an_strdup(params);
	return g->params ? g : NULL;
}

static struct lab_an_lock_curve *an_curve(struct lab_an_lock_group *g, const char *lock)
{
	struct lab_an_lock_curve *c;
	size_t cap = g->nc;

	for (size_t i = 0; i < g->nc; i++)
		if (!strcmp(g->c[i].lock, lock))
			return &g->c[i];
	if (lab_an_grow(&g->c, &cap, g->nc + 1, sizeof(*g->c)))
		return NULL;
	c = &g->c[g->nc++];
	memset(c, 0, sizeof(*c));
	c->lock = lab_an_strdup(lock);
	return c->lock ? c : NULL;
}

/* A duration param's value in ns ("1000", "1us", "2.5ms"); NaN when absent or unreadable. */
static double an_lock_ns(const char *params, const char *key)
{
	char v[64], *end;
	double x;

	if (!lab_an_params_get(params, key, v, sizeof(v)))
		return NAN;
	x = strtod(v, &end);
	if (end == v)
		return NAN;
	if (!strcmp(end, "") || !strcmp(end, "ns"))
		return x;
	if (!strcmp(end, "us"))
		return x * 1e3;
	if (!strcmp(end, "ms"))
		return x * 1e6;
	return !strcmp(end, "s") ? x * 1e9 : NAN;
}

/* Appends one reason to e->delay_why ("; " between reasons). */
__attribute__((format(printf, 2, 3))) static void an_lock_why(struct lab_an_lock_pt *e,
                                                              const char *fmt, ...)
{
	size_t len = strlen(e->delay_why);
	va_list ap;

	if (len)
		len += (size_t)snprintf(e->delay_why + len, sizeof(e->delay_why) - len, "; ");
	va_start(ap, fmt);
	if (len < sizeof(e->delay_why))
		vsnprintf(e->delay_why + len, sizeof(e->delay_why) - len, fmt, ap);
	va_end(ap);
}

/* The delay checks of e (locks.h): drift, achieved vs asked critical section, 1/cs_ns. */
static void an_lock_delay(struct lab_an_lock_pt *e, const char *lock)
{
	double tol = LAB_AN_LK_DELAY_TOL_PCT, off, lo;

	e->delay_why[0] = '\0';
	if (e->drift.n && fabs(e->drift.median) > tol)
		an_lock_why(e, "delay calibration drifted %+.0f %% (tolerance %.0f %%)",
		            e->drift.median, tol);
	/* Within 50 ns a short section is the clock reads' noise, not drift. */
	if (e->cs.n && e->cs_ns > 0 && fabs(e->cs.median - e->cs_ns) > LAB_AN_LK_DELAY_RES_NS &&
	    fabs(off = 100 * (e->cs.median / e->cs_ns - 1)) > tol)
		an_lock_why(e, "critical section achieved %.0f ns, %+.0f %% off cs_ns",
		            e->cs.median, off);
	lo = isfinite(e->thr_lo) ? e->thr_lo : e->thr.mean;
	/* Readers share the lock: only exclusive locks are bounded by one section at a time. */
	if (e->thr.n && e->cs_ns > 0 && strcmp(lock, "rwlock_read") && lo > 1e9 / e->cs_ns)
		an_lock_why(e, "%.3g M/s lies above the limit 1/cs_ns = %.3g M/s", lo / 1e6,
		            1e3 / e->cs_ns);
}

/* Throughput of each used sample: work/elapsed = 1e9/cost (cost in ns per acquisition). */
static int an_lock_pt(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                      const char *lock, struct lab_an_lock_pt *e)
{
	double *x = malloc((2 * p->n + 1) * sizeof(*x));
	size_t k = 0;

	if (!x)
		return -LAB_ENOMEM;
	memset(e, 0, sizeof(*e));
	e->pt = p;
	for (size_t i = 0; i < p->n && !strcmp(p->status, "ok"); i++)
		if ((inc || !p->flagged[i]) && p->cost[i] > 0)
			x[k++] = 1e9 / p->cost[i];
	lab_an_stats_compute(x, k, x + p->n, &e->thr);
	free(x);
	for (int j = 0; j < LAB_AN_LK_NMETRIC; j++) {
		e->m[j].median = e->m[j].mean = e->m[j].ci95_lo = e->m[j].ci95_hi = NAN;
		for (size_t m = 0; m < d->nmetric && p->msum; m++)
			if (!strcmp(d->metric_name[m], lab_an_lock_metric[j]) && p->msum[m].n)
				e->m[j] = p->msum[m];
	}
	for (size_t m = 0; m < d->nmetric && p->msum; m++) {
		if (!strcmp(d->metric_name[m], "cs_achieved_ns"))
			e->cs = p->msum[m];
		if (!strcmp(d->metric_name[m], "delay_drift_pct"))
			e->drift = p->msum[m];
	}
	e->cs_ns = an_lock_ns(p->params, "cs_ns");
	an_lock_bounds(e);
	an_lock_delay(e, lock);
	return 0;
}

static int an_cmp_pt(const void *a, const void *b)
{
	const struct lab_an_lock_pt *x = a, *y = b;

	return (x->pt->threads > y->pt->threads) - (x->pt->threads < y->pt->threads);
}

static int an_add(struct lab_an_locks *l, size_t *cap, const struct lab_an_data *d,
                  const struct lab_an_point *p, int inc)
{
	char *rest = lab_an_params_without(p->params, "lock"), lock[128];
	struct lab_an_lock_group *g;
	struct lab_an_lock_curve *c;
	size_t pcap;

	if (!rest)
		return -LAB_ENOMEM;
	g = an_group(l, cap, p->experiment, rest);
	free(rest);
	if (!lab_an_params_get(p->params, "lock", lock, sizeof(lock)))
		strcpy(lock, "?");
	if (!g || !(c = an_curve(g, lock)))
		return -LAB_ENOMEM;
	pcap = c->npt;
	if (lab_an_grow(&c->pt, &pcap, c->npt + 1, sizeof(*c->pt)))
		return -LAB_ENOMEM;
	return an_lock_pt(d, p, inc, lock, &c->pt[c->npt++]);
}

int lab_an_locks_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, "locks");
	char buf[8];

	if (decl >= 0)
		return decl;
	/* Older files: a `lock` param beside the lock kernel's fairness metric column. */
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], lab_an_lock_metric[LAB_AN_LK_JAIN]))
			return lab_an_params_get(p->params, "lock", buf, sizeof(buf)) != NULL;
	return 0;
}

int lab_an_locks_run(const struct lab_an_data *d, int include_flagged, struct lab_an_locks *l,
                     struct lab_err *err)
{
	size_t cap = 0;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (lab_an_locks_applies(d, &d->pt[i]))
			rc = an_add(l, &cap, d, &d->pt[i], include_flagged);
	for (size_t i = 0; i < l->ng; i++)
		for (size_t j = 0; j < l->g[i].nc; j++)
			qsort(l->g[i].c[j].pt, l->g[i].c[j].npt, sizeof(*l->g[i].c[j].pt),
			      an_cmp_pt);
	return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

void lab_an_locks_free(struct lab_an_locks *l)
{
	for (size_t i = 0; i < l->ng; i++) {
		for (size_t j = 0; j < l->g[i].nc; j++) {
			free(l->g[i].c[j].lock);
			free(l->g[i].c[j].pt);
		}
		free(l->g[i].c);
		free(l->g[i].params);
	}
	free(l->g);
	memset(l, 0, sizeof(*l));
}

static void an_json_msum(struct lab_json *w, const char *key, const struct lab_an_msum *m)
{
	char k[80];

	lab_json_num(w, key, m->n ? m->median : NAN);
	snprintf(k, sizeof(k), "%s_mean", key);
	lab_json_num(w, k, m->n ? m->mean : NAN);
	snprintf(k, sizeof(k), "%s_ci95", key);
	lab_json_pair(w, k, m->n ? m->ci95_lo : NAN, m->n ? m->ci95_hi : NAN);
}

static void an_json_pt(struct lab_json *w, const struct lab_an_lock_pt *e)
{
	int h = e->thr.n > 0;

	lab_json_obj_open(w, NULL);
	lab_json_int(w, "point", e->pt->id);
	lab_json_int(w, "threads", e->pt->threads);
	lab_json_str(w, "status", e->pt->status);
	lab_json_int(w, "n", (long long)e->thr.n);
	lab_json_num(w, "acquisitions_per_s", h ? e->thr.mean : NAN);
	lab_json_pair(w, "acquisitions_per_s_ci95", e->thr_lo, e->thr_hi);
	lab_json_num(w, "acquisitions_per_s_median", h ? e->thr.median : NAN);
	for (int j = 0; j < LAB_AN_LK_NMETRIC; j++) {
		struct lab_an_msum m = e->m[j];
		if (j == LAB_AN_LK_JAIN) { /* the interval inside [1/threads, 1], or none */
			m.ci95_lo = e->jain_lo;
			m.ci95_hi = e->jain_hi;
		}
		an_json_msum(w, lab_an_lock_metric[j], &m);
	}
	an_json_msum(w, "cs_achieved_ns", &e->cs);
	an_json_msum(w, "delay_drift_pct", &e->drift);
	lab_json_bool(w, "delay_flagged", e->delay_why[0] != '\0');
	if (e->delay_why[0])
		lab_json_str(w, "delay_flag", e->delay_why);
	lab_an_modes_json(w, &e->pt->modes, 1);
	lab_json_obj_close(w);
}

void lab_an_locks_json(struct lab_json *w, const struct lab_an_locks *l, const char *exp)
{
	lab_json_obj_open(w, "locks");
	lab_json_str(w, "throughput",
	             "acquisitions/s = work/elapsed per sample; mean, 95% CI on the log scale");
	lab_json_str(w, "metrics", "median over samples; _mean and _ci95: mean and 95% t-CI");
	lab_json_num(w, "delay_tolerance_pct", LAB_AN_LK_DELAY_TOL_PCT);
	lab_json_arr_open(w, "groups");
	for (size_t i = 0; i < l->ng; i++) {
		const struct lab_an_lock_group *g = &l->g[i];

		if (strcmp(g->experiment, exp))
			continue;
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "params", g->params);
		lab_json_arr_open(w, "locks");
		for (size_t j = 0; j < g->nc; j++) {
			lab_json_obj_open(w, NULL);
			lab_json_str(w, "lock", g->c[j].lock);
			lab_json_arr_open(w, "points");
			for (size_t k = 0; k < g->c[j].npt; k++)
				an_json_pt(w, &g->c[j].pt[k]);
			lab_json_arr_close(w);
			lab_json_obj_close(w);
		}
		lab_json_arr_close(w);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

static int an_locks_compute(const struct lab_an_data *d, int include_flagged, void **state,
                            struct lab_err *err)
{
	struct lab_an_locks *l = calloc(1, sizeof(*l));
	int rc;

	*state = NULL;
	if (!l)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = lab_an_locks_run(d, include_flagged, l, err);
	if (rc || !l->ng) {
		lab_an_locks_free(l);
		free(l);
		return rc;
	}
	*state = l;
	return 0;
}

static void an_locks_free(void *state)
{
	lab_an_locks_free(state);
	free(state);
}

static const char *an_locks_experiment(const void *state, size_t i)
{
	const struct lab_an_locks *l = state;

	return i < l->ng ? l->g[i].experiment : NULL;
}

static void an_locks_json(struct lab_json *w, const void *state, const char *exp)
{
	lab_an_locks_json(w, state, exp);
}

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return lab_an_locks_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_locks_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_locks = {
    .name = "locks",
    .applies = an_view_applies,
    .compute = an_view_compute,
    .free = an_locks_free,
    .experiment = an_locks_experiment,
    .json = an_locks_json,
    .text = lab_an_locks_text,
    .html = lab_an_locks_html,
    .plots = lab_an_lock_plots,
};
