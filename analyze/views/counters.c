/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/views/counters.h"
#include "harness/record_schema.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/views/view.h"

#define AN_CTR_MUX "ctr_mux_ratio"

static int an_is_ctr(const char *name)
{
	return !strncmp(name, "ctr_", 4);
}

/* Software events work without a PMU; every other ctr_ column is a hardware event. */
static int an_is_sw(const char *col)
{
	static const char *const sw[] = {"ctr_task_clock", "ctr_page_faults",
	                                 "ctr_context_switches", "ctr_cpu_migrations", AN_CTR_MUX};

	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
		if (!strcmp(col, sw[i]))
			return 1;
	return 0;
}

int lab_an_ctrs_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (an_is_ctr(d->metric_name[m]) && strcmp(d->metric_name[m], AN_CTR_MUX))
			for (size_t i = 0; i < p->n; i++)
				if (!isnan(p->metric[i * d->nmetric + m]))
					return 1;
	return 0;
}

/* run.json's record of point p: experiments[name = p's].points[point = p's id]. */
static const struct lab_an_json *an_run_point(const struct lab_an_data *d,
                                              const struct lab_an_point *p)
{
	const struct lab_an_json *exps = lab_an_json_get(d->run, "experiments");

	for (size_t e = 0; exps && exps->type == LAB_AN_JSON_ARR && e < exps->n; e++) {
		const char *n = lab_an_json_str(&exps->items[e], "name");
		const struct lab_an_json *pts = lab_an_json_get(&exps->items[e], "points");

		if (!n || strcmp(n, p->experiment) || !pts || pts->type != LAB_AN_JSON_ARR)
			continue;
		for (size_t i = 0; i < pts->n; i++)
			if (lab_an_json_num(&pts->items[i], "point", -1) == (double)p->id)
				return &pts->items[i];
	}
	return NULL;
}

void lab_an_ctrs_why(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                     const struct lab_an_point *p, const char *name, char *buf, size_t len)
{
	const struct lab_an_json *ev =
	    lab_an_json_get(lab_an_json_get(an_run_point(d, p), "counters"), "events");
	int known = 0;

	for (size_t k = 0; k < c->ncol && !known; k++)
		known = !strcmp(c->col[k], name);
	for (size_t i = 0; ev && ev->type == LAB_AN_JSON_ARR && i < ev->n; i++) {
		const char *col = lab_an_json_str(&ev->items[i], "column");
		const char *st = lab_an_json_str(&ev->items[i], "status");
		const char *why = lab_an_json_str(&ev->items[i], "reason");
		const char *en = lab_an_json_str(&ev->items[i], "name");

		if (col && !strcmp(col, name) && st && strcmp(st, "ok")) {
			snprintf(buf, len, "%s: %s%s%s", en ? en : name + 4, st,
			         why && *why ? ": " : "", why ? why : "");
			return;
		}
	}
	snprintf(buf, len, "%s: %s", name + 4,
	         known ? "not counted at this point" : "not requested (no column in samples.csv)");
}

double lab_an_ctrs_med(const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e, const char *name)
{
	for (size_t k = 0; k < c->ncol; k++)
		if (!strcmp(c->col[k], name))
			return e->med[k];
	return NAN;
}

static int an_cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double an_median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), an_cmp_d);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* A sample's value of data metric m, NaN when empty. */
static double an_val(const struct lab_an_data *d, const struct lab_an_point *p, size_t i, long m)
{
	return m < 0 ? NAN : p->metric[i * d->nmetric + (size_t)m];
}

static long an_metric(const struct lab_an_data *d, const char *name)
{
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return (long)m;
	return -1;
}

static void an_hw_why(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                      const struct lab_an_point *p, char *buf, size_t len);

/* The medians, counts and warnings of point p into e; tmp holds p->n doubles. */
static void an_point(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                     const struct lab_an_point *p, int inc, double *tmp, struct lab_an_ctr_pt *e)
{
	long csw = an_metric(d, "ctr_context_switches"), mig = an_metric(d, "ctr_cpu_migrations");
	long rq = an_metric(d, LAB_COL_RUNQ_WAIT);
	size_t nrq = 0;

	e->pt = p;
	for (size_t i = 0; i < p->n; i++)
		e->n += inc || !p->flagged[i];
	e->all_flagged = !e->n && p->n;
	if (e->all_flagged)
		inc = 1, e->n = p->n;
	e->mux_min = NAN;
	for (size_t i = 0; i < p->n; i++) {
		double x = an_val(d, p, i, c->mux_m);

		e->csw_samples += an_val(d, p, i, csw) > 0;
		e->mig_samples += an_val(d, p, i, mig) > 0;
		if ((inc || !p->flagged[i]) && !isnan(x) && !(x >= e->mux_min))
			e->mux_min = x;
	}
	for (size_t i = 0; i < p->n; i++) {
		double x = an_val(d, p, i, rq);

		if ((inc || !p->flagged[i]) && !isnan(x))
			tmp[nrq++] = x;
	}
	e->runq_med = an_median(tmp, nrq);
	for (size_t k = 0; k < c->ncol; k++) {
		size_t q = 0;

		for (size_t i = 0; i < p->n; i++) {
			double x = an_val(d, p, i, (long)c->mcol[k]);

			if ((inc || !p->flagged[i]) && !isnan(x))
				tmp[q++] = x;
		}
		e->nval[k] = q;
		e->med[k] = an_median(tmp, q);
		e->has_hw |= q && !an_is_sw(c->col[k]);
	}
	if (!e->has_hw)
		an_hw_why(d, c, p, e->hw_reason, sizeof(e->hw_reason));
}

static int an_columns(const struct lab_an_data *d, struct lab_an_ctrs *c)
{
	c->col = calloc(d->nmetric + 1, sizeof(*c->col));
	c->mcol = calloc(d->nmetric + 1, sizeof(*c->mcol));
	if (!c->col || !c->mcol)
		return -LAB_ENOMEM;
	c->mux_m = an_metric(d, AN_CTR_MUX);
	for (size_t m = 0; m < d->nmetric; m++)
		if (an_is_ctr(d->metric_name[m]) && (long)m != c->mux_m) {
			c->col[c->ncol] = d->metric_name[m]; /* the data's, not owned */
			c->mcol[c->ncol++] = m;
		}
	return 0;
}

static void an_add_exp(struct lab_an_ctrs *c, const char *exp)
{
	for (size_t i = 0; i < c->nexp; i++)
		if (!strcmp(c->exp[i], exp))
			return;
	c->exp[c->nexp++] = (char *)exp; /* the point's, not owned */
}

/* Why point p has no hardware value: its first hardware column's status, else the host's. */
static void an_hw_why(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                      const struct lab_an_point *p, char *buf, size_t len)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	const char *why = lab_an_json_str(h, "reason");
	const struct lab_an_json *av = lab_an_json_get(h, "available");

	for (size_t k = 0; k < c->ncol; k++)
		if (!an_is_sw(c->col[k])) {
			lab_an_ctrs_why(d, c, p, c->col[k], buf, len);
			return;
		}
	if (why && *why && av && av->type == LAB_AN_JSON_BOOL && !av->num)
		snprintf(buf, len, "%s", why);
	else
		snprintf(buf, len, "no hardware events requested (events = sw)");
}

/* The host facts of run.json: the self-check's core clock and the top-down method. */
static void an_host(const struct lab_an_data *d, struct lab_an_ctrs *c)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	const char *m = lab_an_json_str(h, "topdown_method");

	c->core_ghz = lab_an_json_num(lab_an_json_get(d->run, "self_check"), "core_ghz", NAN);
	c->method = m ? m : "none";
}

int lab_an_ctrs_run(const struct lab_an_data *d, int include_flagged, struct lab_an_ctrs *c,
                    struct lab_err *err)
{
	size_t maxn = 1;
	double *tmp = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	an_host(d, c);
	for (size_t i = 0; i < d->npt; i++)
		maxn = d->pt[i].n > maxn ? d->pt[i].n : maxn;
	rc = an_columns(d, c);
	if (!rc && (!(c->p = calloc(d->npt + 1, sizeof(*c->p))) ||
	            !(c->exp = calloc(d->npt + 1, sizeof(*c->exp))) ||
	            !(tmp = malloc(maxn * sizeof(*tmp)))))
		rc = -LAB_ENOMEM;
	for (size_t i = 0; i < d->npt && !rc; i++) {
		struct lab_an_ctr_pt *e = &c->p[c->np];

		if (!lab_an_ctrs_applies(d, &d->pt[i]))
			continue;
		c->np++;
		if (!(e->med = calloc(c->ncol + 1, sizeof(*e->med))) ||
		    !(e->nval = calloc(c->ncol + 1, sizeof(*e->nval)))) {
			rc = -LAB_ENOMEM;
			break;
		}
		an_point(d, c, &d->pt[i], include_flagged, tmp, e);
		lab_an_ctrs_derive(d, c, e);
		c->any_hw |= e->has_hw;
		if (!e->has_hw && !*c->hw_reason)
			memcpy(c->hw_reason, e->hw_reason, sizeof(c->hw_reason));
		an_add_exp(c, d->pt[i].experiment);
	}
	free(tmp);
	return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

void lab_an_ctrs_free(struct lab_an_ctrs *c)
{
	for (size_t i = 0; i < c->np; i++) {
		free(c->p[i].med);
		free(c->p[i].nval);
	}
	free(c->p);
	free(c->col);
	free(c->mcol);
	free(c->exp);
	memset(c, 0, sizeof(*c));
}

static int an_ctrs_compute(const struct lab_an_data *d, int include_flagged, void **state,
                           struct lab_err *err)
{
	struct lab_an_ctrs *c = calloc(1, sizeof(*c));
	int rc;

	*state = NULL;
	if (!c)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = lab_an_ctrs_run(d, include_flagged, c, err);
	if (rc || !c->np) {
		lab_an_ctrs_free(c);
		free(c);
		return rc;
	}
	*state = c;
	return 0;
}

static void an_ctrs_free(void *state)
{
	lab_an_ctrs_free(state);
	free(state);
}

static const char *an_ctrs_experiment(const void *state, size_t i)
{
	const struct lab_an_ctrs *c = state;

	return i < c->nexp ? c->exp[i] : NULL;
}

/* Until the view describes itself (view.h): its hooks without the view. */
static int an_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	return lab_an_ctrs_applies(d, p);
}

static int an_view_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                           void **state, struct lab_err *err)
{
	(void)v;
	return an_ctrs_compute(a->data, a->include_flagged, state, err);
}

const struct lab_an_view lab_an_view_counters = {
    .name = "counters",
    .applies = an_view_applies,
    .compute = an_view_compute,
    .free = an_ctrs_free,
    .experiment = an_ctrs_experiment,
    .json = lab_an_ctrs_json,
    .csv_name = "counters.csv",
    .csv = lab_an_ctrs_csv,
    .text = lab_an_ctrs_text,
    .html = lab_an_ctrs_html,
    .plots = lab_an_ctrs_plots,
};
