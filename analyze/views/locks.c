/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/locks.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

/* The metric columns, indexed by the enum of locks.h. */
static const char *const lk_metric[LAB_AN_LK_NMETRIC] = {"jain_fairness",  "handoff_ratio",
                                                         "acq_lat_p99_ns", "max_min_ratio",
                                                         "cs_achieved_ns", "delay_drift_pct"};
static const char *const lk_unit[LAB_AN_LK_NMETRIC] = {NULL, NULL, "ns", NULL, "ns", "%"};

/* The bounded intervals of e (see locks.h). */
static void lk_bounds(struct lab_an_lock_pt *e)
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

/* A duration param's value in ns ("1000", "1us", "2.5ms"); NaN when absent or unreadable. */
static double lk_ns(const char *params, const char *key)
{
	static const struct {
		const char *suffix;
		double ns;
	} unit[] = {{"", 1}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char v[64], *end;
	double x;

	if (!lab_an_params_get(params, key, v, sizeof(v)) || (x = strtod(v, &end), end == v))
		return NAN;
	for (size_t i = 0; i < sizeof(unit) / sizeof(unit[0]); i++)
		if (!strcmp(end, unit[i].suffix))
			return x * unit[i].ns;
	return NAN;
}

/* Appends one reason to e->delay_why ("; " between reasons). */
__attribute__((format(printf, 2, 3))) static void lk_why(struct lab_an_lock_pt *e, const char *fmt,
                                                         ...)
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
static void lk_delay(struct lab_an_lock_pt *e, const char *lock)
{
	const struct lab_an_msum *cs = &e->m[LAB_AN_LK_CS], *drift = &e->m[LAB_AN_LK_DRIFT];
	double tol = LAB_AN_LK_DELAY_TOL_PCT, off, lo;

	if (drift->n && fabs(drift->median) > tol)
		lk_why(e, "delay calibration drifted %+.0f %% (tolerance %.0f %%)", drift->median,
		       tol);
	/* Within 50 ns a short section is the clock reads' noise, not drift. */
	if (cs->n && e->cs_ns > 0 && fabs(cs->median - e->cs_ns) > LAB_AN_LK_DELAY_RES_NS &&
	    fabs(off = 100 * (cs->median / e->cs_ns - 1)) > tol)
		lk_why(e, "critical section achieved %.0f ns, %+.0f %% off cs_ns", cs->median, off);
	lo = isfinite(e->thr_lo) ? e->thr_lo : e->thr.mean;
	/* Readers share the lock: only exclusive locks are bounded by one section at a time. */
	if (e->thr.n && e->cs_ns > 0 && strcmp(lock, "rwlock_read") && lo > 1e9 / e->cs_ns)
		lk_why(e, "%.3g M/s lies above the limit 1/cs_ns = %.3g M/s", lo / 1e6,
		       1e3 / e->cs_ns);
}

/* Entry e of point p: throughput of each used sample = work/elapsed = 1e9/cost (cost in ns per
 * acquisition), the metric columns, the bounds and the delay checks. */
static int lk_point(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
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
			if (!strcmp(d->metric_name[m], lk_metric[j]) && p->msum[m].n)
				e->m[j] = p->msum[m];
	}
	e->cs_ns = lk_ns(p->params, "cs_ns");
	lk_bounds(e);
	lk_delay(e, lock);
	return 0;
}

/* Adds point p to the curve of its lock in the group of its conditions (both made when new). */
static int lk_add(struct lab_an_locks *l, const struct lab_an_data *d, const struct lab_an_point *p,
                  int inc)
{
	char *rest = lab_an_params_without(p->params, "lock"), lock[128];
	struct lab_an_lock_group *g = NULL;
	struct lab_an_lock_curve *c = NULL;

	if (!lab_an_params_get(p->params, "lock", lock, sizeof(lock)))
		strcpy(lock, "?");
	for (size_t i = 0; rest && i < l->ng && !g; i++)
		if (!strcmp(l->g[i].experiment, p->experiment) && !strcmp(l->g[i].params, rest))
			g = &l->g[i];
	if (rest && !g && !lab_an_grow(&l->g, &l->cap, l->ng + 1, sizeof(*l->g))) {
		g = memset(&l->g[l->ng++], 0, sizeof(*g));
		g->experiment = p->experiment;
		g->params = rest;
		rest = NULL;
	}
	free(rest);
	for (size_t j = 0; g && j < g->nc && !c; j++)
		if (!strcmp(g->c[j].lock, lock))
			c = &g->c[j];
	if (g && !c && !lab_an_grow(&g->c, &g->cap, g->nc + 1, sizeof(*g->c)) &&
	    (g->c[g->nc].lock = lab_an_strdup(lock))) {
		c = &g->c[g->nc++];
		c->pt = NULL;
		c->npt = c->cap = 0;
	}
	if (!c || lab_an_grow(&c->pt, &c->cap, c->npt + 1, sizeof(*c->pt)))
		return -LAB_ENOMEM;
	return lk_point(d, p, inc, lock, &c->pt[c->npt++]);
}

static int lk_cmp_pt(const void *a, const void *b)
{
	const struct lab_an_lock_pt *x = a, *y = b;

	return (x->pt->threads > y->pt->threads) - (x->pt->threads < y->pt->threads);
}

/* Declared by the run, or (older files) a `lock` param beside the jain_fairness metric. */
static int lk_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, v->name);
	char buf[8];

	if (decl >= 0)
		return decl;
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], lk_metric[LAB_AN_LK_JAIN]))
			return lab_an_params_get(p->params, "lock", buf, sizeof(buf)) != NULL;
	return 0;
}

static void lk_free(void *state)
{
	struct lab_an_locks *l = state;

	for (size_t i = 0; l && i < l->ng; i++) {
		for (size_t j = 0; j < l->g[i].nc; j++) {
			free(l->g[i].c[j].lock);
			free(l->g[i].c[j].pt);
		}
		free(l->g[i].c);
		free(l->g[i].params);
	}
	if (l)
		free(l->g);
	free(l);
}

/* Every point the view applies to (summarized with a->include_flagged); points that are not ok
 * stay in their curve with thr.n = 0. */
static int lk_compute(const struct lab_an_view *v, const struct lab_an_analysis *a, void **state,
                      struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_locks *l = calloc(1, sizeof(*l));
	int rc = l ? 0 : -LAB_ENOMEM;

	*state = NULL;
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (lk_applies(v, d, &d->pt[i]))
			rc = lk_add(l, d, &d->pt[i], a->include_flagged);
	if (rc || !l->ng) {
		lk_free(l);
		return rc ? lab_err_set(err, LAB_ENOMEM, "locks view: out of memory") : 0;
	}
	for (size_t i = 0; i < l->ng; i++)
		for (size_t j = 0; j < l->g[i].nc; j++)
			qsort(l->g[i].c[j].pt, l->g[i].c[j].npt, sizeof(*l->g[i].c[j].pt),
			      lk_cmp_pt);
	*state = l;
	return 0;
}

/* The figures of a group: what they show, their y axis (short: gnuplot cuts a long label). */
static const struct {
	const char *key, *y;
	int logy;
} lk_fig[3] = {{"throughput", "M acquisitions/s, all threads (95% CI)", 0},
               {"fairness", "Jain fairness index (95% CI)", 0},
               {"p99", "p99 acquire latency, ns (log scale)", 10}};

/* The table row of entry e; its points on the curves c (throughput, fairness, p99). */
static void lk_row(struct lab_doc *doc, struct lab_doc_table *t, struct lab_doc_curve **c,
                   const char *lock, const struct lab_an_lock_pt *e)
{
	const struct lab_an_modes *mo = &e->pt->modes;
	const char *x = lab_doc_printf(doc, "%d", e->pt->threads);
	char buf[LAB_ERR_MSG_MAX + 64], w[128];

	lab_doc_row(t);
	lab_doc_str(doc, lab_doc_at(t, 0), lock);
	lab_doc_str(doc, lab_doc_at(t, 1), x);
	lab_doc_num(lab_doc_at(t, 2), (double)e->thr.n);
	if (e->thr.n)
		lab_doc_ival(lab_doc_at(t, 3), e->thr.median / 1e6, e->thr.mean / 1e6,
		             e->thr_lo / 1e6, e->thr_hi / 1e6, e->thr.n);
	for (int j = 0; j < LAB_AN_LK_NMETRIC; j++) {
		const struct lab_an_msum *m = &e->m[j];
		int jain = j == LAB_AN_LK_JAIN; /* the interval inside [1/threads, 1], or none */

		if (m->n)
			lab_doc_ival(lab_doc_at(t, 4 + j), m->median, m->mean,
			             jain ? e->jain_lo : m->ci95_lo, jain ? e->jain_hi : m->ci95_hi,
			             m->n);
	}
	if (mo->count)
		lab_doc_num(lab_doc_at(t, 4 + LAB_AN_LK_NMETRIC), (double)mo->count);
	if (mo->count > 1) /* centers: of the cost, ns per acquisition */
		lab_doc_cnote(doc, lab_doc_at(t, 4 + LAB_AN_LK_NMETRIC), "%s at %s ns, weights %s",
		              lab_an_modes_multi(mo) ? "MULTIMODAL" : "close modes",
		              lab_an_modes_list(mo, 0, 1, buf, sizeof(buf)),
		              lab_an_modes_list(mo, 1, 1, w, sizeof(w)));
	lab_doc_num(lab_doc_at(t, 5 + LAB_AN_LK_NMETRIC), e->pt->id);
	if (!e->thr.n)
		lab_doc_rwhy(t, "%s", lab_an_missing_why(e->pt, buf, sizeof(buf)));
	if (e->delay_why[0])
		lab_doc_rnote(t, "DELAY FLAGGED: %s", e->delay_why);
	if (!e->thr.n) {
		for (int q = 0; q < 3; q++)
			lab_doc_gap(c[q], x,
			            lab_an_flagged_all(e->pt) ? "load-flagged" : "not run");
		return;
	}
	lab_doc_point(c[0], e->pt->threads, e->thr.mean / 1e6, e->thr_lo / 1e6, e->thr_hi / 1e6);
	if (e->m[LAB_AN_LK_JAIN].n)
		lab_doc_point(c[1], e->pt->threads, e->m[LAB_AN_LK_JAIN].mean, e->jain_lo,
		              e->jain_hi);
	if (e->m[LAB_AN_LK_P99].n) /* on a log axis: a t-interval's lower bound may be <= 0 */
		lab_doc_point(c[2], e->pt->threads, e->m[LAB_AN_LK_P99].mean,
		              e->m[LAB_AN_LK_P99].ci95_lo > 0 ? e->m[LAB_AN_LK_P99].ci95_lo : NAN,
		              e->m[LAB_AN_LK_P99].ci95_hi);
}

/* Per group of conditions: the table (one row per lock and thread count) and three figures
 * against threads, one curve per lock. */
static void lk_group(struct lab_doc *doc, const struct lab_an_lock_group *g)
{
	struct lab_doc_section *s = lab_doc_section(doc, g->experiment, g->params);
	struct lab_doc_table *t = lab_doc_table(s, "points", NULL);
	struct lab_doc_figure *f[3];

	lab_doc_col(t, "lock", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "n", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "throughput", "M acquisitions/s", LAB_DOC_INTERVAL);
	for (int j = 0; j < LAB_AN_LK_NMETRIC; j++)
		lab_doc_col(t, lk_metric[j], lk_unit[j], LAB_DOC_INTERVAL);
	lab_doc_col(t, "modes", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "point", NULL, LAB_DOC_COUNT);
	for (int q = 0; q < 3; q++)
		if ((f[q] = lab_doc_figure(
		         s, lk_fig[q].key,
		         lab_doc_printf(doc, "%s: %s vs threads", g->experiment, lk_fig[q].key),
		         "threads", lk_fig[q].y))) {
			f[q]->logx = 2;
			f[q]->logy = lk_fig[q].logy;
		}
	for (size_t j = 0; j < g->nc; j++) {
		struct lab_doc_curve *c[3];

		/* 8 colours, then dashes; a point shape per lock, so no two curves look alike. */
		for (int q = 0; q < 3; q++)
			if ((c[q] = lab_doc_curve(f[q], g->c[j].lock, LAB_DOC_LINES))) {
				c[q]->color = (int)j;
				c[q]->dash = (int)j / 8;
			}
		for (size_t k = 0; k < g->c[j].npt; k++)
			lk_row(doc, t, c, g->c[j].lock, &g->c[j].pt[k]);
	}
}

static int lk_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct lab_an_locks *l = state;

	(void)v;
	doc->title = "Locks under contention";
	lab_doc_about(
	    doc,
	    "Throughput = millions of acquisitions per second, all threads together (work / "
	    "elapsed of each sample; mean and 95 % interval on the log scale, so it stays "
	    "positive). Jain's fairness index over the threads' acquisition counts (1 = fair; "
	    "interval inside [1/threads, 1]). Hand-off ratio: the share of acquisitions that went "
	    "to another thread than the last holder (near 0: one thread keeps re-taking the lock). "
	    "Acquire latency p99 and the max/min ratio of per-thread acquisitions. "
	    "cs_achieved_ns: the critical section achieved; delay_drift_pct: the busy-loop "
	    "calibration's change since the run's first. Metrics: median over samples, and the "
	    "mean with its 95 % t-interval. A point whose delay moved beyond 10 % or whose "
	    "throughput exceeds 1/cs_ns is DELAY FLAGGED with the reason: compare it with care.",
	    lab_doc_printf(doc,
	                   "throughput: work/elapsed per sample, all threads together, interval "
	                   "on the log scale; jain_fairness: the per-sample index, interval inside "
	                   "[1/threads, 1]; handoff_ratio: share of acquisitions that went to "
	                   "another thread; the other columns: median | mean [95%% t-interval] "
	                   "over samples; cs_achieved_ns: the critical section achieved, "
	                   "delay_drift_pct: the busy-loop calibration's change since the run's "
	                   "first; a point whose delay moved beyond %.0f %% or whose throughput "
	                   "exceeds 1/cs_ns is DELAY FLAGGED: compare it with care; modes: of the "
	                   "cost (8 or more samples), MULTIMODAL with their centers",
	                   LAB_AN_LK_DELAY_TOL_PCT));
	for (size_t i = 0; i < l->ng; i++)
		lk_group(doc, &l->g[i]);
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_locks = {
    .name = "locks",
    .applies = lk_applies,
    .compute = lk_compute,
    .free = lk_free,
    .describe = lk_describe,
};
