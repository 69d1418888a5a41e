/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Curves of one quantity vs one knob (curves.h): the grouping and the columns. */
#include "analyze/views/curves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/domain.h"
#include "analyze/levels.h"
#include "analyze/units.h"
#include "analyze/views/view.h"

static int an_applies(const struct lab_an_cv_spec *s, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, s->view);
	char buf[8];

	if (s->keep && !s->keep(p))
		return 0;
	if (decl >= 0)
		return decl > 0;
	if (s->match_kept || !s->match_metric)
		return s->match_kept;
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], s->match_metric))
			return lab_an_params_get(p->params, s->curve[0], buf, sizeof(buf)) != NULL;
	return 0;
}

/* 1 when the curves of s are the thread counts. */
static int an_by_threads(const struct lab_an_cv_spec *s)
{
	return !strcmp(s->curve[0], "threads");
}

/* The conditions of p: params without the curve and x keys, plus threads when x is a param (and
 * the curves are not the thread counts). */
static char *an_cond(const struct lab_an_cv_spec *s, const struct lab_an_point *p)
{
	char *c = lab_an_strdup(p->params), *t;

	for (size_t k = 0; c && k < LAB_AN_CV_MAXKEY + 1; k++) {
		const char *key = k < LAB_AN_CV_MAXKEY ? s->curve[k] : s->x;

		if (!key)
			continue;
		t = lab_an_params_without(c, key);
		free(c);
		c = t;
	}
	if (c && s->x && !an_by_threads(s)) {
		t = lab_an_asprintf("%s%sthreads=%d", c, *c ? ";" : "", p->threads);
		free(c);
		c = t;
	}
	return c;
}

/* A group's key (experiment, conditions) against ctx; counted for the scale test. */
struct an_gkey {
	const struct lab_an_cv *v;
	const char *exp, *cond;
};

static int an_group_same(const void *ctx, size_t i)
{
	const struct an_gkey *k = ctx;

	lab_an_view_probe();
	return !strcmp(k->v->g[i].experiment, k->exp) && !strcmp(k->v->g[i].params, k->cond);
}

/* The group of p's experiment and conditions cond (taken: freed or kept), made when new with
 * spec s. */
static struct lab_an_cv_group *an_group(const struct lab_an_cv_spec *s, struct lab_an_cv *v,
                                        const struct lab_an_data *d, const struct lab_an_point *p,
                                        char *cond)
{
	struct an_gkey k = {v, p->experiment, cond};
	uint64_t h = lab_an_view_key(p->experiment, cond, 0);
	size_t i = lab_an_index_find(&v->ix, h, an_group_same, &k);
	struct lab_an_cv_group *g;

	if (i != (size_t)-1) {
		free(cond);
		return &v->g[i];
	}
	if (lab_an_grow(&v->g, &v->cap, v->ng + 1, sizeof(*v->g)) ||
	    lab_an_index_add(&v->ix, h, v->ng)) {
		free(cond);
		return NULL;
	}
	g = memset(&v->g[v->ng++], 0, sizeof(*g));
	g->spec = s;
	g->experiment = p->experiment;
	g->params = cond;
	lab_an_cost_label(d, p, g->unit, sizeof(g->unit));
	return g;
}

/* A curve's key values against ctx (val[0], val[1]). */
struct an_ckey {
	const struct lab_an_cv_group *g;
	const char (*val)[128];
};

static int an_curve_same(const void *ctx, size_t i)
{
	const struct an_ckey *k = ctx;

	lab_an_view_probe();
	return !strcmp(k->g->c[i].key[0], k->val[0]) && !strcmp(k->g->c[i].key[1], k->val[1]);
}

/* The index in g of p's curve (its curve keys' values, into val), (size_t)-1 when g has none;
 * its key's hash into *h. */
static size_t an_curve_find(const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g,
                            const struct lab_an_point *p, char val[][128], uint64_t *h)
{
	struct an_ckey k = {g, (const char(*)[128])val};

	for (size_t q = 0; q < LAB_AN_CV_MAXKEY; q++)
		if (!q && an_by_threads(s))
			snprintf(val[q], 128, "%d", p->threads);
		else if (!s->curve[q] || !lab_an_params_get(p->params, s->curve[q], val[q], 128))
			strcpy(val[q], q && s->curve1_some ? "" : "?");
	*h = lab_an_view_key(val[0], val[1], 0);
	return lab_an_index_find(&g->ix, *h, an_curve_same, &k);
}

/* The curve of p in g (its curve keys' values), made when new; its style comes with the
 * group's finish (an_styles). */
static struct lab_an_cv_curve *an_curve(const struct lab_an_cv_spec *s, struct lab_an_cv_group *g,
                                        const struct lab_an_point *p)
{
	char val[LAB_AN_CV_MAXKEY][128];
	struct lab_an_cv_curve *c;
	uint64_t h;
	size_t i;

	if ((i = an_curve_find(s, g, p, val, &h)) != (size_t)-1)
		return &g->c[i];
	if (lab_an_grow(&g->c, &g->cap, g->nc + 1, sizeof(*g->c)) ||
	    lab_an_index_add(&g->ix, h, g->nc))
		return NULL;
	c = memset(&g->c[g->nc++], 0, sizeof(*c));
	for (size_t q = 0; q < LAB_AN_CV_MAXKEY; q++)
		if (!(c->key[q] = lab_an_strdup(val[q])))
			return NULL;
	/* "2 threads" (not a bare "2" where a second key follows or is said once, plots40) */
	int n = an_by_threads(s)
	            ? snprintf(NULL, 0, "%s thread%s", val[0], p->threads == 1 ? "" : "s")
	            : (int)strlen(val[0]);

	c->lab0 = (size_t)n;
	if (s->curve[1] && (*val[1] || !s->curve1_some))
		c->label = an_by_threads(s)
		               ? lab_an_asprintf("%s thread%s, %s=%s", val[0],
		                                 p->threads == 1 ? "" : "s", s->curve[1], val[1])
		               : lab_an_asprintf("%s %s=%s", val[0], s->curve[1], val[1]);
	else if (an_by_threads(s))
		c->label = lab_an_asprintf("%s thread%s", val[0], p->threads == 1 ? "" : "s");
	else
		c->label = lab_an_strdup(val[0]);
	return c->label ? c : NULL;
}

/* The style index of each curve key: the first-seen index of its value among g's curves (one
 * colour per curve[0] value, one dash per curve[1] value). Returns 0 or -LAB_ENOMEM. */
static int an_styles(struct lab_an_cv_group *g)
{
	for (size_t q = 0; q < LAB_AN_CV_MAXKEY; q++) {
		struct lab_an_strset seen = {0};
		size_t k = 0;

		for (size_t j = 0; j < g->nc && k != (size_t)-1; j++)
			g->c[j].style[q] =
			    (int)(k = lab_an_strset_add(&seen, g->c[j].key[q], NULL));
		lab_an_strset_free(&seen);
		if (k == (size_t)-1)
			return -LAB_ENOMEM;
	}
	return 0;
}

/* A point measured in runs: the interval of x[0..n-1] (sample i of run run[i]) comes from its
 * run means (t on runs - 1 df), as the point's own interval does (levels.h); the samples of
 * one setup would give one too narrow when setups differ. Its mean is the mean of the run
 * means, the interval's centre (the samples' mean beside it differed where runs kept unequal
 * numbers of samples). work holds 3 n doubles. */
static void an_val_runs(const double *x, const int *run, size_t n, double *work,
                        struct lab_an_stats *st, struct lab_an_cv_val *v)
{
	struct lab_an_levels lv;

	if (lab_an_levels_compute(x, run, n, work, &lv))
		return;
	if (lv.runs < 2) /* the point kept several runs, this column's values sit in one */
		v->one_run = 1;
	if (lv.runs < 2 || !isfinite(lv.run_se))
		return;
	st->se = lv.run_se;
	st->mean = lv.mean;
	st->n = lv.runs;
	st->ci95_lo = lv.run_ci95_lo;
	st->ci95_hi = lv.run_ci95_hi;
}

/* Mean, median and the bounded 95 % interval of x[0..n-1] (of point p; values of a quantity of
 * domain dom; run[i]: sample i's run, NULL for one run) into v. work holds 3 n doubles. */
static void an_val(const struct lab_an_cv_col *col, enum lab_domain dom,
                   const struct lab_an_point *p, const double *x, const int *run, size_t n,
                   double *work, struct lab_an_cv_val *v)
{
	struct lab_an_stats st;

	v->n = n;
	v->median = v->mean = v->lo = v->hi = NAN;
	v->overflow = 0;
	v->one_run = 0;
	if (!n)
		return;
	lab_an_stats_compute(x, n, work, &st);
	if (run && p->levels.runs >= 2)
		an_val_runs(x, run, n, work, &st, v);
	v->median = st.median;
	v->mean = st.mean;
	v->lo = st.ci95_lo;
	v->hi = st.ci95_hi;
	if (col->src == LAB_AN_CV_RATE) { /* x are costs: the rate is their image */
		v->median = 1e9 / st.median;
		v->mean = 1e9 / st.mean;
	}
	if (n < 2) /* one sample: no spread to make an interval of (it read [x, x]) */
		v->lo = v->hi = NAN;
	/* Values near the largest double (a file's metric of 1.7e308): their spread is no double,
	 * so there is no interval, and none that reaches below 0 ("not clearly above 0"). */
	if (n >= 2 && (!isfinite(st.se) || isinf(st.ci95_lo) || isinf(st.ci95_hi))) {
		v->lo = v->hi = NAN;
		v->overflow = 1;
	} else if (col->src == LAB_AN_CV_RATE) { /* the cost's, on the log scale (> 0), inverted */
		double clo, chi;
		v->lo = v->hi = NAN;
		if (!lab_an_stats_ci_log(&st, 0.95, &clo, &chi)) {
			v->lo = 1e9 / chi;
			v->hi = 1e9 / clo;
		}
	} else if (col->bounded == LAB_AN_CV_LOWER && v->lo < col->lo_bound)
		v->lo = col->lo_bound;
	/* a metric's t-interval kept inside what its mean can take (Jain's index: [1/threads,
	 * 1]), as summary.csv's: the truth lies inside, so the clip keeps the coverage */
	if (col->src != LAB_AN_CV_RATE && !v->overflow)
		lab_an_domain_clip(dom, p->threads, st.min, &v->lo, &v->hi);
	if (col->resolution && !(v->mean > 0)) {
		v->below_res = 2;
		v->median = v->mean = NAN;
		v->hi = v->hi > 0 ? v->hi : NAN;
		v->lo = 0;
	} else if (col->resolution && v->lo < 0) {
		v->below_res = 1;
		v->lo = 0;
	}
	if (col->resolution && v->median < 0)
		v->median = 0;
}

static int an_cols(const struct lab_an_cv_spec *s, const struct lab_an_data *d,
                   const struct lab_an_cv_bases *b, const struct lab_an_point *p, int inc,
                   struct lab_an_cv_pt *e)
{
	double *x = malloc((4 * p->n + 1) * sizeof(*x));
	int *run = p->run ? malloc((p->n + 1) * sizeof(*run)) : NULL;
	int ok = !strcmp(p->status, "ok");

	if (!x || (p->run && !run)) {
		free(x);
		free(run);
		return -LAB_ENOMEM;
	}
	for (size_t c = 0; c < s->ncol; c++) {
		const struct lab_an_cv_col *col = &s->col[c];
		size_t k = 0, m = d->nmetric;

		if (col->src == LAB_AN_CV_SPEEDUP) {
			if (lab_an_cv_speedup(b, p, &e->v[c])) {
				free(x);
				free(run);
				return -LAB_ENOMEM;
			}
			continue;
		}
		if (col->src > LAB_AN_CV_RATE) /* table only */
			continue;
		if (col->src == LAB_AN_CV_METRIC)
			for (m = 0; m < d->nmetric && strcmp(d->metric_name[m], col->key); m++)
				;
		for (size_t i = 0; ok && i < p->n; i++) {
			double y = col->src == LAB_AN_CV_COST ? p->cost[i]
			           : m < d->nmetric           ? lab_an_metric(p, i, m)
			                                      : NAN;

			if (col->src == LAB_AN_CV_RATE) /* a cost of 0 has no rate */
				y = p->cost[i] > 0 ? p->cost[i] : NAN;
			if ((inc || !p->flagged[i]) && !isnan(y)) {
				if (run)
					run[k] = p->run[i];
				x[k++] = y;
			}
		}
		an_val(col,
		       col->src == LAB_AN_CV_COST        ? LAB_DOM_NONNEG
		       : m < d->nmetric && d->metric_dom ? (enum lab_domain)d->metric_dom[m]
		                                         : LAB_DOM_UNKNOWN,
		       p, x, run, k, x + p->n, &e->v[c]);
	}
	free(x);
	free(run);
	return 0;
}

static int an_cmp_pt(const void *a, const void *b)
{
	const struct lab_an_cv_pt *x = a, *y = b;

	if (isnan(x->x) != isnan(y->x)) /* a missing x last */
		return isnan(x->x) ? 1 : -1;
	if (x->x != y->x && !isnan(x->x))
		return (x->x > y->x) - (x->x < y->x);
	return (x->pt->threads > y->pt->threads) - (x->pt->threads < y->pt->threads);
}

/* Curves of thread counts: in ascending threads, coloured in that order. */
static int an_cmp_curve(const void *a, const void *b)
{
	int x = ((const struct lab_an_cv_curve *)a)->pt->pt->threads;
	int y = ((const struct lab_an_cv_curve *)b)->pt->pt->threads;

	return (x > y) - (x < y);
}

/* Curves by the first point each took, which is where the data have them. */
static int an_cmp_first(const void *a, const void *b)
{
	const struct lab_an_point *x = ((const struct lab_an_cv_curve *)a)->pt->pt;
	const struct lab_an_point *y = ((const struct lab_an_cv_curve *)b)->pt->pt;

	return (x > y) - (x < y);
}

/* The group's order: entries by x, curves of thread counts by threads (their colours in that
 * order), other curves as first seen with their styles (with cond_some, where the data have
 * them: the points without it were taken after the others, review35). Returns 0 or
 * -LAB_ENOMEM. */
static int an_sort(const struct lab_an_cv_spec *s, struct lab_an_cv_group *g)
{
	if (s->cond_some && g->nc > 1)
		qsort(g->c, g->nc, sizeof(*g->c), an_cmp_first);
	if (an_styles(g))
		return -LAB_ENOMEM;
	for (size_t j = 0; j < g->nc; j++)
		qsort(g->c[j].pt, g->c[j].npt, sizeof(*g->c[j].pt), an_cmp_pt);
	if (!an_by_threads(s))
		return 0;
	qsort(g->c, g->nc, sizeof(*g->c), an_cmp_curve);
	for (size_t j = 0; j < g->nc; j++)
		g->c[j].style[0] = (int)j;
	return 0;
}

/* The groups by experiment and conditions without spec.cond_some, for the points that lack it
 * (an_group_some); each group has its own copy of its conditions without it. */
struct an_some {
	const struct lab_an_cv *v;
	struct lab_an_index ix;
	char **bare;  /* per group: its conditions without cond_some */
	int *several; /* per group found under its key: another group has the same key */
	size_t *nc0;  /* per group: its curves of points with cond_some */
};

/* A key of m (experiment, conditions without cond_some) against ctx. */
struct an_skey {
	const struct an_some *m;
	const char *exp, *cond;
};

static int an_some_same(const void *ctx, size_t i)
{
	const struct an_skey *k = ctx;

	lab_an_view_probe();
	return !strcmp(k->m->v->g[i].experiment, k->exp) && !strcmp(k->m->bare[i], k->cond);
}

/* Fills m from the groups of v made so far (the points with cond_some). Returns 0 or -1. */
static int an_some_init(struct an_some *m, const struct lab_an_cv *v, const char *key)
{
	memset(m, 0, sizeof(*m));
	m->v = v;
	m->bare = calloc(v->ng + 1, sizeof(*m->bare));
	m->several = calloc(v->ng + 1, sizeof(*m->several));
	m->nc0 = calloc(v->ng + 1, sizeof(*m->nc0));
	for (size_t i = 0; m->bare && m->several && m->nc0 && i < v->ng; i++) {
		struct an_skey k = {m, v->g[i].experiment, NULL};
		uint64_t h;
		size_t j;

		m->nc0[i] = v->g[i].nc;
		if (!(m->bare[i] = lab_an_params_without(v->g[i].params, key)))
			return -1;
		k.cond = m->bare[i];
		h = lab_an_view_key(k.exp, k.cond, 0);
		if ((j = lab_an_index_find(&m->ix, h, an_some_same, &k)) != (size_t)-1)
			m->several[j] = 1;
		else if (lab_an_index_add(&m->ix, h, i))
			return -1;
	}
	return m->bare && m->several && m->nc0 ? 0 : -1;
}

static void an_some_free(struct an_some *m, size_t ng)
{
	for (size_t i = 0; m->bare && i < ng; i++)
		free(m->bare[i]);
	free(m->bare);
	free(m->several);
	free(m->nc0);
	lab_an_index_free(&m->ix);
}

/* The group of p, which lacks cond_some when m is given: the one group of its experiment whose
 * conditions without it are p's, unless a point with cond_some made p's curve there (a
 * construct that takes a delay, its delay removed by hand, read as another delay's rows:
 * hostile37), else its own. */
static struct lab_an_cv_group *an_group_some(const struct lab_an_cv_spec *s, struct lab_an_cv *v,
                                             const struct lab_an_data *d,
                                             const struct lab_an_point *p, char *cond,
                                             const struct an_some *m)
{
	struct an_skey k = {m, p->experiment, cond};
	size_t j =
	    m ? lab_an_index_find(&m->ix, lab_an_view_key(p->experiment, cond, 0), an_some_same, &k)
	      : (size_t)-1;
	char val[LAB_AN_CV_MAXKEY][128];
	uint64_t h;
	size_t c;

	if (j == (size_t)-1 || m->several[j] ||
	    ((c = an_curve_find(s, &v->g[j], p, val, &h)) != (size_t)-1 && c < m->nc0[j]))
		return an_group(s, v, d, p, cond);
	free(cond);
	return &v->g[j];
}

static int an_add(const struct lab_an_cv_spec *s, struct lab_an_cv *v, const struct lab_an_data *d,
                  const struct lab_an_cv_bases *b, const struct lab_an_point *p, int inc,
                  const struct an_some *m)
{
	char *cond = an_cond(s, p), xs[64];
	struct lab_an_cv_group *g;
	struct lab_an_cv_curve *c;
	struct lab_an_cv_pt *e;

	if (!cond || !(g = an_group_some(s, v, d, p, cond, m)) || !(c = an_curve(s, g, p)) ||
	    lab_an_grow(&c->pt, &c->cap, c->npt + 1, sizeof(*c->pt)))
		return -LAB_ENOMEM;
	e = &c->pt[c->npt++];
	memset(e, 0, sizeof(*e));
	e->pt = p;
	if (!s->x)
		e->x = p->threads;
	else if (s->x_ignored && s->x_ignored(p))
		e->x = NAN;
	else
		e->x = lab_an_params_get(p->params, s->x, xs, sizeof(xs)) ? lab_an_size_bytes(xs)
		                                                          : NAN;
	return an_cols(s, d, b, p, inc, e);
}

int lab_an_cv_applies(const struct lab_an_view *view, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	return an_applies(view->spec, d, p);
}

const char *lab_an_cv_misfit(const struct lab_an_view *view, const struct lab_an_data *d,
                             const struct lab_an_point *p, char *buf, size_t len)
{
	const struct lab_an_cv_spec *s = view->spec;
	const char *key[LAB_AN_CV_MAXKEY + 1] = {s->curve[0], s->curve[1], s->x};
	char tmp[8];

	(void)d;
	if (s->x_ignored && s->x_ignored(p))
		key[LAB_AN_CV_MAXKEY] = NULL; /* no x there: a static schedule's chunk */
	if (s->curve1_some)
		key[1] = NULL; /* no tile there: a serial scan */
	for (size_t k = 0; k < LAB_AN_CV_MAXKEY + 1; k++)
		if (key[k] && strcmp(key[k], "threads") &&
		    !lab_an_params_get(p->params, key[k], tmp, sizeof(tmp))) {
			snprintf(buf, len, "no '%s' param", key[k]);
			return buf;
		}
	return NULL;
}

/* Whether p lacks the spec's cond_some (a point that joins another's group). */
static int an_lone(const struct lab_an_cv_spec *s, const struct lab_an_point *p)
{
	char tmp[8];

	return s->cond_some && !lab_an_params_get(p->params, s->cond_some, tmp, sizeof(tmp));
}

/* The first point of a group: its curves' first (each curve's pt[0] is its first taken). */
static const struct lab_an_point *an_group_first(const struct lab_an_cv_group *g)
{
	const struct lab_an_point *p = NULL;

	for (size_t j = 0; j < g->nc; j++)
		if (g->c[j].npt && (!p || g->c[j].pt[0].pt < p))
			p = g->c[j].pt[0].pt;
	return p;
}

static int an_cmp_group(const void *a, const void *b)
{
	const struct lab_an_point *x = an_group_first(a), *y = an_group_first(b);

	return (x > y) - (x < y);
}

/* Per experiment: the first value of each candidate x (the spec's, then its alts') and
 * whether another came (an_pick). */
struct an_xexp {
	const char *exp;
	char first[LAB_AN_CV_MAXALT + 1][64];
	unsigned char seen[LAB_AN_CV_MAXALT + 1], two[LAB_AN_CV_MAXALT + 1];
};

struct an_xpick {
	struct an_xexp *e;
	size_t n, cap;
	struct lab_an_index ix; /* e by experiment */
};

struct an_xkey {
	const struct an_xpick *xp;
	const char *exp;
};

static int an_xexp_same(const void *ctx, size_t i)
{
	const struct an_xkey *k = ctx;

	lab_an_view_probe();
	return !strcmp(k->xp->e[i].exp, k->exp);
}

/* The entry of xp for experiment exp, (size_t)-1 when it has none. */
static size_t an_xexp_find(const struct an_xpick *xp, const char *exp)
{
	struct an_xkey k = {xp, exp};

	return lab_an_index_find(&xp->ix, lab_an_view_key(exp, "", 0), an_xexp_same, &k);
}

/* Counts p's values of each candidate x (s's, then its alts') in its experiment's entry of xp.
 * Returns 0 or -LAB_ENOMEM. */
static int an_xpick_add(const struct lab_an_cv_spec *s, struct an_xpick *xp,
                        const struct lab_an_point *p)
{
	size_t j = s->alt[0] ? an_xexp_find(xp, p->experiment) : 0;
	struct an_xexp *e;
	char val[64];

	if (!s->alt[0])
		return 0;
	if (j == (size_t)-1) {
		if (lab_an_grow(&xp->e, &xp->cap, xp->n + 1, sizeof(*xp->e)) ||
		    lab_an_index_add(&xp->ix, lab_an_view_key(p->experiment, "", 0), xp->n))
			return -LAB_ENOMEM;
		memset(&xp->e[j = xp->n++], 0, sizeof(*xp->e));
		xp->e[j].exp = p->experiment;
	}
	e = &xp->e[j];
	for (size_t k = 0; k <= LAB_AN_CV_MAXALT && (!k || s->alt[k - 1]); k++) {
		if (!lab_an_params_get(p->params, k ? s->alt[k - 1]->x : s->x, val, sizeof(val)))
			continue;
		e->two[k] |= e->seen[k] && strcmp(e->first[k], val);
		if (!e->seen[k]) {
			e->seen[k] = 1;
			snprintf(e->first[k], sizeof(e->first[k]), "%s", val);
		}
	}
	return 0;
}

/* The spec p is shown with: s, unless p's experiment runs one value of s's x and two or more
 * of an alt's (spec.alt). */
static const struct lab_an_cv_spec *an_pick(const struct lab_an_cv_spec *s,
                                            const struct an_xpick *xp, const struct lab_an_point *p)
{
	size_t j = s->alt[0] ? an_xexp_find(xp, p->experiment) : (size_t)-1;

	if (j == (size_t)-1 || xp->e[j].two[0])
		return s;
	for (size_t k = 0; k < LAB_AN_CV_MAXALT && s->alt[k]; k++)
		if (xp->e[j].two[k + 1])
			return s->alt[k];
	return s;
}

/* Every point the view takes into v: those with cond_some first, then those without it into
 * their groups, each with the spec its experiment takes (an_pick). Returns 0 or -LAB_ENOMEM. */
static int an_add_all(const struct lab_an_cv_spec *s, struct lab_an_cv *v,
                      const struct lab_an_data *d, const struct lab_an_cv_bases *b, int inc)
{
	struct an_some m;
	struct an_xpick xp = {0};
	size_t *take = NULL, nt = 0, cap = 0, nlone = 0, ng;
	int rc = 0;

	for (size_t i = 0; i < d->npt && !rc; i++) {
		if (!an_applies(s, d, &d->pt[i]))
			continue;
		if (lab_an_grow(&take, &cap, nt + 1, sizeof(*take)))
			rc = -LAB_ENOMEM;
		else if (!(rc = an_xpick_add(s, &xp, &d->pt[i]))) {
			take[nt++] = i;
			nlone += an_lone(s, &d->pt[i]);
		}
	}
	for (size_t k = 0; k < nt && !rc; k++)
		if (!an_lone(s, &d->pt[take[k]]))
			rc = an_add(an_pick(s, &xp, &d->pt[take[k]]), v, d, b, &d->pt[take[k]], inc,
			            NULL);
	if (!rc && nlone) {
		ng = v->ng;
		rc = an_some_init(&m, v, s->cond_some) ? -LAB_ENOMEM : 0;
		for (size_t k = 0; k < nt && !rc; k++)
			if (an_lone(s, &d->pt[take[k]]))
				rc = an_add(an_pick(s, &xp, &d->pt[take[k]]), v, d, b,
				            &d->pt[take[k]], inc, &m);
		an_some_free(&m, ng);
	}
	free(take);
	free(xp.e);
	lab_an_index_free(&xp.ix);
	return rc;
}

int lab_an_cv_compute(const struct lab_an_view *view, const struct lab_an_analysis *a, void **state,
                      struct lab_err *err)
{
	const struct lab_an_cv_spec *s = view->spec;
	const struct lab_an_data *d = a->data;
	int inc = a->include_flagged;
	struct lab_an_cv *v = calloc(1, sizeof(*v));
	struct lab_an_cv_bases b;
	int rc = lab_an_cv_bases_init(&b, s, d);

	*state = NULL;
	if (!v || rc) {
		free(v);
		lab_an_cv_bases_free(&b);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	v->spec = s;
	rc = an_add_all(s, v, d, &b, inc);
	lab_an_cv_bases_free(&b);
	if (!rc && s->cond_some && v->ng > 1) /* sections where the data have their first points */
		qsort(v->g, v->ng, sizeof(*v->g), an_cmp_group);
	for (size_t i = 0; i < v->ng && !rc; i++)
		rc = an_sort(v->g[i].spec, &v->g[i]);
	if (rc || !v->ng) {
		lab_an_cv_free(v);
		return rc ? lab_err_set(err, LAB_ENOMEM, "%s view: out of memory", s->view) : 0;
	}
	*state = v;
	return 0;
}

void lab_an_cv_free(void *state)
{
	struct lab_an_cv *v = state;

	for (size_t i = 0; v && i < v->ng; i++) {
		for (size_t j = 0; j < v->g[i].nc; j++) {
			for (size_t k = 0; k < LAB_AN_CV_MAXKEY; k++)
				free(v->g[i].c[j].key[k]);
			free(v->g[i].c[j].label);
			free(v->g[i].c[j].pt);
		}
		free(v->g[i].c);
		free(v->g[i].params);
		lab_an_index_free(&v->g[i].ix);
	}
	if (v) {
		free(v->g);
		lab_an_index_free(&v->ix);
	}
	free(v);
}
