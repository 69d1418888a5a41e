/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Curves of one quantity vs one knob (curves.h): grouping, the columns and the document. */
#include "analyze/views/curves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

double lab_an_cv_num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return NAN;
	if (*end == 'K' || *end == 'k')
		v *= 1024.0;
	else if (*end == 'M')
		v *= 1048576.0;
	else if (*end == 'G')
		v *= 1073741824.0;
	return v;
}

static int an_applies(const struct lab_an_cv_spec *s, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, s->view);
	char buf[8];

	if (s->keep && !s->keep(p))
		return 0;
	if (decl >= 0 || !s->match_metric)
		return decl > 0;
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], s->match_metric))
			return lab_an_params_get(p->params, s->curve[0], buf, sizeof(buf)) != NULL;
	return 0;
}

/* The conditions of p: params without the curve and x keys, plus threads when x is a param. */
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
	if (c && s->x) {
		t = lab_an_asprintf("%s%sthreads=%d", c, *c ? ";" : "", p->threads);
		free(c);
		c = t;
	}
	return c;
}

static struct lab_an_cv_group *an_group(struct lab_an_cv *v, size_t *cap, const char *exp,
                                        char *cond)
{
	struct lab_an_cv_group *g;

	for (size_t i = 0; i < v->ng; i++)
		if (!strcmp(v->g[i].experiment, exp) && !strcmp(v->g[i].params, cond)) {
			free(cond);
			return &v->g[i];
		}
	if (lab_an_grow(&v->g, cap, v->ng + 1, sizeof(*v->g))) {
		free(cond);
		return NULL;
	}
	g = &v->g[v->ng++];
	memset(g, 0, sizeof(*g));
	g->experiment = exp;
	g->params = cond;
	return g;
}

static struct lab_an_cv_curve *an_curve(const struct lab_an_cv_spec *s, struct lab_an_cv_group *g,
                                        const struct lab_an_point *p)
{
	char val[LAB_AN_CV_MAXKEY][128];
	struct lab_an_cv_curve *c;
	size_t cap = g->nc, i;

	for (size_t k = 0; k < LAB_AN_CV_MAXKEY; k++)
		if (!s->curve[k] ||
		    !lab_an_params_get(p->params, s->curve[k], val[k], sizeof(val[k])))
			strcpy(val[k], "?");
	for (i = 0; i < g->nc; i++)
		if (!strcmp(g->c[i].key[0], val[0]) && !strcmp(g->c[i].key[1], val[1]))
			return &g->c[i];
	if (lab_an_grow(&g->c, &cap, g->nc + 1, sizeof(*g->c)))
		return NULL;
	c = &g->c[g->nc++];
	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < LAB_AN_CV_MAXKEY; k++) {
		int mx = -1;

		if (!(c->key[k] = lab_an_strdup(val[k])))
			return NULL;
		/* The style index: that of an earlier curve with the same value, else a new one. */
		c->style[k] = -1;
		for (i = 0; i + 1 < g->nc; i++) {
			if (!strcmp(g->c[i].key[k], val[k]))
				c->style[k] = g->c[i].style[k];
			mx = g->c[i].style[k] > mx ? g->c[i].style[k] : mx;
		}
		if (c->style[k] < 0)
			c->style[k] = mx + 1;
	}
	c->label = s->curve[1] ? lab_an_asprintf("%s %s=%s", val[0], s->curve[1], val[1])
	                       : lab_an_strdup(val[0]);
	return c->label ? c : NULL;
}

/* Mean, median and the clipped 95 % interval of x[0..n-1] into v. */
static void an_val(const struct lab_an_cv_col *col, const double *x, size_t n, double *work,
                   struct lab_an_cv_val *v)
{
	struct lab_an_stats st;

	v->n = n;
	v->median = v->mean = v->lo = v->hi = NAN;
	if (!n)
		return;
	lab_an_stats_compute(x, n, work, &st);
	v->median = st.median;
	v->mean = st.mean;
	v->lo = st.ci95_lo;
	v->hi = st.ci95_hi;
	if (col->bounded && v->lo < col->lo_bound)
		v->lo = col->lo_bound;
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
                   const struct lab_an_point *p, int inc, struct lab_an_cv_pt *e)
{
	double *x = malloc((2 * p->n + 1) * sizeof(*x));
	int ok = !strcmp(p->status, "ok");

	if (!x)
		return -LAB_ENOMEM;
	for (size_t c = 0; c < s->ncol; c++) {
		const struct lab_an_cv_col *col = &s->col[c];
		size_t k = 0, m = d->nmetric;

		if (col->src == LAB_AN_CV_SPEEDUP) {
			if (lab_an_cv_speedup(s, d, p, inc, &e->v[c])) {
				free(x);
				return -LAB_ENOMEM;
			}
			continue;
		}
		if (col->src == LAB_AN_CV_METRIC)
			for (m = 0; m < d->nmetric && strcmp(d->metric_name[m], col->key); m++)
				;
		for (size_t i = 0; ok && i < p->n; i++) {
			double y = col->src == LAB_AN_CV_COST ? p->cost[i]
			           : m < d->nmetric           ? p->metric[i * d->nmetric + m]
			                                      : NAN;

			if ((inc || !p->flagged[i]) && !isnan(y))
				x[k++] = y;
		}
		an_val(col, x, k, x + p->n, &e->v[c]);
	}
	free(x);
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

static int an_add(const struct lab_an_cv_spec *s, struct lab_an_cv *v, size_t *cap,
                  const struct lab_an_data *d, const struct lab_an_point *p, int inc)
{
	char *cond = an_cond(s, p), xs[64];
	struct lab_an_cv_group *g;
	struct lab_an_cv_curve *c;
	struct lab_an_cv_pt *e;
	size_t pcap;

	if (!cond || !(g = an_group(v, cap, p->experiment, cond)) || !(c = an_curve(s, g, p)))
		return -LAB_ENOMEM;
	pcap = c->npt;
	if (lab_an_grow(&c->pt, &pcap, c->npt + 1, sizeof(*c->pt)))
		return -LAB_ENOMEM;
	e = &c->pt[c->npt++];
	memset(e, 0, sizeof(*e));
	e->pt = p;
	if (!s->x)
		e->x = p->threads;
	else if (s->x_ignored && s->x_ignored(p))
		e->x = NAN;
	else
		e->x = lab_an_params_get(p->params, s->x, xs, sizeof(xs)) ? lab_an_cv_num(xs) : NAN;
	return an_cols(s, d, p, inc, e);
}

int lab_an_cv_applies(const struct lab_an_view *view, const struct lab_an_data *d,
                      const struct lab_an_point *p)
{
	return an_applies(view->spec, d, p);
}

int lab_an_cv_compute(const struct lab_an_view *view, const struct lab_an_analysis *a, void **state,
                      struct lab_err *err)
{
	const struct lab_an_cv_spec *s = view->spec;
	const struct lab_an_data *d = a->data;
	int inc = a->include_flagged;
	struct lab_an_cv *v = calloc(1, sizeof(*v));
	size_t cap = 0;
	int rc = 0;

	*state = NULL;
	if (!v)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	v->spec = s;
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (an_applies(s, d, &d->pt[i]))
			rc = an_add(s, v, &cap, d, &d->pt[i], inc);
	for (size_t i = 0; i < v->ng; i++)
		for (size_t j = 0; j < v->g[i].nc; j++)
			qsort(v->g[i].c[j].pt, v->g[i].c[j].npt, sizeof(*v->g[i].c[j].pt),
			      an_cmp_pt);
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
	}
	if (v)
		free(v->g);
	free(v);
}

/* Why entry e has no numbers at all (not run, every sample left out), NULL when it has some. */
static const char *an_row_why(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                              const struct lab_an_cv_pt *e)
{
	if (strcmp(e->pt->status, "ok"))
		return lab_doc_printf(doc, "%s%s%s", e->pt->status, e->pt->reason ? ": " : "",
		                      e->pt->reason ? e->pt->reason : "");
	for (size_t k = 0; k < s->ncol; k++)
		if (e->v[k].n)
			return NULL;
	/* a column empty for another reason (no baseline, no metric) says so itself */
	return e->pt->n > 0 && e->pt->n_flagged > 0
	           ? "no used samples (load-flagged; --include-flagged keeps them)"
	           : NULL;
}

static void an_cell(struct lab_doc *doc, const struct lab_an_cv_spec *s, struct lab_doc_cell *c,
                    const struct lab_an_cv_val *v)
{
	if (v->nobase)
		lab_doc_why(doc, c, "no %s=%s point at these params", s->curve[0], s->base);
	else if (v->below_res == 2 && isfinite(v->hi))
		lab_doc_why(doc, c, "not measurable (< %.4g, below resolution)", v->hi);
	else if (v->below_res == 2)
		lab_doc_why(doc, c, "not measurable (below resolution)");
	else if (v->n)
		lab_doc_ival(c, v->median, v->mean, v->below_res ? 0 : v->lo, v->hi, v->n);
	if (v->below_res == 1)
		lab_doc_cnote(doc, c, "below resolution");
}

/* The x of an entry as the table shows it: the param's own spelling, or the thread count. */
static const char *an_x(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                        const struct lab_an_cv_pt *e)
{
	char buf[64];

	if (s->x && s->x_ignored && s->x_ignored(e->pt))
		return "-";
	if (s->x && lab_an_params_get(e->pt->params, s->x, buf, sizeof(buf)))
		return lab_doc_printf(doc, "%s", buf);
	return lab_doc_printf(doc, "%d", e->pt->threads);
}

static void an_group_doc(struct lab_doc *doc, const struct lab_an_cv_spec *s,
                         const struct lab_an_cv_group *g)
{
	struct lab_doc_section *sec = lab_doc_section(doc, g->experiment, g->params);
	struct lab_doc_table *t = lab_doc_table(sec, "points", NULL);
	struct lab_doc_figure *f =
	    lab_doc_figure(sec, "curves", lab_doc_printf(doc, "%s: %s", g->experiment, s->title),
	                   s->xlabel, s->ylabel);
	size_t nkey = s->curve[1] ? 2 : 1;

	for (size_t k = 0; k < nkey; k++)
		lab_doc_col(t, s->curve[k], NULL, LAB_DOC_KEY);
	lab_doc_col(t, s->x ? s->x : "threads", NULL, LAB_DOC_KEY);
	for (size_t k = 0; k < s->ncol; k++)
		lab_doc_col(t, s->col[k].key, NULL, LAB_DOC_INTERVAL);
	if (f) {
		f->logx = s->logx ? 2 : 0;
		f->logy = s->logy ? 10 : 0;
	}
	for (size_t j = 0; j < g->nc; j++) {
		const struct lab_an_cv_curve *c = &g->c[j];
		struct lab_doc_curve *dc = lab_doc_curve(f, c->label, LAB_DOC_LINES);

		if (dc) {
			dc->color = c->style[0];
			dc->dash = c->style[1];
		}
		for (size_t k = 0; k < c->npt; k++) {
			const struct lab_an_cv_pt *e = &c->pt[k];
			const struct lab_an_cv_val *v = &e->v[s->plot_col];
			const char *why = an_row_why(doc, s, e);

			lab_doc_row(t);
			for (size_t q = 0; q < nkey; q++)
				lab_doc_str(doc, lab_doc_at(t, q), c->key[q]);
			if (!s->x || !s->x_ignored || !s->x_ignored(e->pt)) /* else "-", null */
				lab_doc_str(doc, lab_doc_at(t, nkey), an_x(doc, s, e));
			for (size_t q = 0; q < s->ncol; q++)
				an_cell(doc, s, lab_doc_at(t, nkey + 1 + q), &e->v[q]);
			if (why)
				lab_doc_rwhy(t, "%s", why);
			if (v->n && isfinite(v->mean))
				lab_doc_point(dc, e->x, v->mean, v->lo, v->hi);
			else if (isfinite(e->x))
				lab_doc_gap(dc, an_x(doc, s, e),
				            lab_an_flagged_all(e->pt) ? "load-flagged" : "not run");
		}
	}
}

int lab_an_cv_describe(const struct lab_an_view *view, const void *state, struct lab_doc *doc)
{
	const struct lab_an_cv *v = state;
	const struct lab_an_cv_spec *s = view->spec;

	doc->title = s->title;
	lab_doc_about(doc,
	              lab_doc_printf(doc,
	                             "%s Per column: the median over the used samples, and "
	                             "their mean with its 95 %% t-interval.",
	                             s->about),
	              s->note);
	for (size_t i = 0; i < v->ng; i++)
		an_group_doc(doc, s, &v->g[i]);
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}
