/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/analysis.h"

#include "analyze/flagged.h"

#include "analyze/views/views.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/index.h"
#include "analyze/levels.h"

static int an_cmp_row(const void *a, const void *b)
{
	const struct lab_an_row *x = a, *y = b;

	return (x->pt->threads > y->pt->threads) - (x->pt->threads < y->pt->threads);
}

struct an_series_key {
	const struct lab_an_analysis *a;
	const struct lab_an_point *p;
};

static int an_series_same(const void *ctx, size_t i)
{
	const struct an_series_key *k = ctx;

	return !strcmp(k->a->s[i].experiment, k->p->experiment) &&
	       !strcmp(k->a->s[i].params, k->p->params);
}

/* The series of p (same experiment and params), appended when new; ix makes the lookup O(1)
 * however many series there are. */
static struct lab_an_series *an_series_find(struct lab_an_analysis *a, size_t *cap,
                                            struct lab_an_index *ix, const struct lab_an_point *p)
{
	struct an_series_key k = {a, p};
	uint64_t h = lab_an_hash_str(lab_an_hash_str(LAB_AN_HASH_INIT, p->experiment), p->params);
	size_t i = lab_an_index_find(ix, h, an_series_same, &k);
	struct lab_an_series *s;

	if (i != (size_t)-1)
		return &a->s[i];
	if (lab_an_grow(&a->s, cap, a->ns + 1, sizeof(*a->s)) || lab_an_index_add(ix, h, a->ns))
		return NULL;
	s = &a->s[a->ns];
	memset(s, 0, sizeof(*s));
	a->ns++;
	s->experiment = lab_an_strdup(p->experiment);
	s->params = lab_an_strdup(p->params);
	if (!s->experiment || !s->params)
		return NULL;
	return s;
}

/* The series and their rows take what they hold, not the room grown for them (100,000 series
 * of one row each had room for 131,072 series of 8 rows). */
static void an_series_trim(struct lab_an_analysis *a)
{
	struct lab_an_series *s = a->ns ? realloc(a->s, a->ns * sizeof(*a->s)) : NULL;

	if (s)
		a->s = s;
	for (size_t i = 0; i < a->ns; i++) {
		struct lab_an_row *r = realloc(a->s[i].row, a->s[i].nrow * sizeof(*r));
		if (r)
			a->s[i].row = r;
	}
}

static int an_usable(const struct lab_an_point *p)
{
	return !strcmp(p->status, "ok") && p->st.n > 0;
}

/* Speedup on cost per unit: S = c(1)/c(N), Fieller interval with the baseline's variance;
 * efficiency and Karp–Flatt intervals are the images of S's interval (both are monotone). */
static void an_row_speedup(const struct lab_an_point *base, struct lab_an_row *r)
{
	const struct lab_an_stats *a = &base->st;
	double N = r->pt->threads;

	r->kf = r->kf_lo = r->kf_hi = NAN;
	r->kf_why = r->kf_note = NULL;
	if (r->pt == base) {
		r->speedup_level = lab_an_point_by_runs(base) ? "runs" : "samples";
		memset(&r->speedup, 0, sizeof(r->speedup));
		r->speedup.est = r->speedup.lo = r->speedup.hi = 1;
		/* Exactly 1 by definition, but with one sample no point has an interval: say the
		 * same of the baseline rather than print [1, 1] beside the others' absent ones. */
		r->speedup.has_ci = a->n > 1;
	} else {
		/* the run means carry the run-to-run noise (analyze/levels.h) */
		r->speedup_level = lab_an_cost_ratio(base, r->pt, &r->speedup, NULL);
	}
	lab_an_ratio_positive(&r->speedup); /* costs are positive: so is their ratio */
	r->has_speedup = 1;
	r->eff = r->speedup.est / N;
	r->eff_lo = r->speedup.lo / N;
	r->eff_hi = r->speedup.hi / N;
	/* Only when the interval excludes linear: an efficiency above 1 within noise is none. */
	/* (an unbounded set's ray [lo, inf) above 1 is superlinear too) */
	r->superlinear = r->speedup.has_ci && r->eff_lo > 1;
	if (N > 1) {
		r->kf = lab_an_karp_flatt(r->speedup.est, N);
		r->kf_lo = lab_an_karp_flatt(r->speedup.hi, N);
		r->kf_hi = r->speedup.lo > 0 ? lab_an_karp_flatt(r->speedup.lo, N) : INFINITY;
		/* a speedup of 1 or of N but for rounding (it prints as 1) is that: e of 1 or 0 */
		if (fabs(r->kf - 1) < 1e-9 || fabs(r->kf) < 1e-9)
			r->kf = round(r->kf);
		/* A serial fraction lies in [0, 1]. Past a bound within the speedup's noise (its
		 * interval holds 1, or N) it is that bound, with the interval clipped, as Amdahl's
		 * f is printed: fully serial data read "no serial fraction" where noise put S 0.3 %
		 * under 1. Past it beyond noise it is none, and says which side: a slowdown is
		 * worse than all serial (S < 1 read e = 4.5), a speedup past N better than none. */
		if (isfinite(r->kf) && !(r->kf >= 0 && r->kf <= 1)) {
			int above = r->kf > 1;
			if (r->speedup.has_ci &&
			    (above ? r->speedup.hi >= 1 : r->speedup.lo <= N)) {
				r->kf = above ? 1 : 0;
				r->kf_note = above ? "(the estimate is above 1 within its noise)"
				                   : "(the estimate is below 0 within its noise)";
			} else {
				r->kf_why =
				    above ? "slower than 1 thread: worse than all serial "
				            "(e(N) above 1)"
				          : "speedup above the threads: better than no serial "
				            "part (e(N) below 0)";
				r->kf = r->kf_lo = r->kf_hi = NAN;
				return;
			}
		}
		r->kf_lo = fmin(fmax(r->kf_lo, 0), r->kf);
		r->kf_hi = fmax(fmin(r->kf_hi, 1), r->kf);
	}
}

long lab_an_series_samples(const struct lab_an_series *s, int include_flagged, double **threads,
                           double **cost)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < s->nrow; i++)
		n += s->row[i].pt->n;
	*threads = malloc((n ? n : 1) * sizeof(double));
	*cost = malloc((n ? n : 1) * sizeof(double));
	if (!*threads || !*cost) {
		free(*threads);
		free(*cost);
		return -1;
	}
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_point *p = s->row[i].pt;

		if (!an_usable(p))
			continue;
		for (size_t j = 0; j < p->n; j++) {
			if (p->flagged[j] && !include_flagged)
				continue;
			(*threads)[k] = p->threads;
			(*cost)[k++] = p->cost[j];
		}
	}
	return (long)k;
}

/* Runs the fits. The absolute objective on throughput input fits the throughput forms on X(N)
 * itself (the costs hold 1/X); everything else fits the cost. */
static int an_series_fit_models(struct lab_an_series *s, int throughput, double *N, double *y,
                                size_t n)
{
	enum lab_an_objective o = s->objective;
	int tp = throughput && o == LAB_AN_OBJ_ABSOLUTE, rc;

	s->domain = tp ? "throughput" : "cost";
	for (size_t i = 0; tp && i < n; i++)
		y[i] = 1 / y[i];
	rc = lab_an_fit_run_obj(tp ? LAB_AN_AMDAHL_THROUGHPUT : LAB_AN_AMDAHL, o, N, y, n,
	                        &s->amdahl);
	if (!rc)
		rc = lab_an_fit_run_obj(tp ? LAB_AN_USL_THROUGHPUT : LAB_AN_USL, o, N, y, n,
		                        &s->usl);
	if (!rc && s->weak)
		rc = lab_an_fit_run_obj(LAB_AN_GUSTAFSON, o, N, y, n, &s->gustafson);
	return rc;
}

/* The labels of p's runs lie in [*lo, *hi]; returns 0 when the span exceeds the samples (labels
 * from a hostile file), so the sums below stay O(n). */
static int an_run_span(const struct lab_an_point *p, int *lo, int *hi)
{
	*lo = INT_MAX;
	*hi = -1;
	for (size_t j = 0; j < p->n; j++) {
		*lo = p->run[j] < *lo ? p->run[j] : *lo;
		*hi = p->run[j] > *hi ? p->run[j] : *hi;
	}
	return *hi >= *lo && (size_t)((long long)*hi - *lo) < p->n;
}

/*
 * With every usable point of s at K >= 2 runs, replaces the samples (N, y)[0..n-1] from
 * lab_an_series_samples by one run mean per run and point (the fits' chi^2 scaling then holds
 * the run-to-run noise) and sets s->fit_level "runs"; returns the new count, or n unchanged.
 */
static size_t an_series_run_means(struct lab_an_series *s, int include_flagged, double *N,
                                  double *y, size_t n)
{
	size_t k = 0, maxn = 1;
	double *sum, *cnt;
	int lo, hi;

	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_point *p = s->row[i].pt;
		if (an_usable(p) &&
		    (!lab_an_point_by_runs(p) || !p->run || !an_run_span(p, &lo, &hi)))
			return n;
		maxn = p->n > maxn ? p->n : maxn;
	}
	sum = calloc(maxn, sizeof(*sum));
	cnt = calloc(maxn, sizeof(*cnt));
	if (!sum || !cnt) { /* out of memory: the samples, labelled so */
		free(sum);
		free(cnt);
		return n;
	}
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_point *p = s->row[i].pt;

		if (!an_usable(p) || !an_run_span(p, &lo, &hi))
			continue;
		for (size_t j = 0; j < p->n; j++)
			if (!p->flagged[j] || include_flagged) {
				sum[p->run[j] - lo] += p->cost[j];
				cnt[p->run[j] - lo]++;
			}
		for (int r = 0; r <= hi - lo; r++) {
			if (cnt[r] > 0 && k < n) {
				N[k] = p->threads;
				y[k++] = sum[r] / cnt[r];
			}
			sum[r] = cnt[r] = 0;
		}
	}
	free(sum);
	free(cnt);
	s->fit_level = "runs";
	return k;
}

static int an_series_fit(struct lab_an_series *s, int include_flagged, int throughput)
{
	double *N, *y;
	long n = lab_an_series_samples(s, include_flagged, &N, &y);
	int rc;

	s->fit_level = "samples";
	if (n > 0)
		n = (long)an_series_run_means(s, include_flagged, N, y, (size_t)n);

	if (n < 0)
		return -LAB_ENOMEM;
	s->n_fit = (size_t)n;
	for (size_t i = 0; i < s->nrow; i++)
		s->n_excluded += an_usable(s->row[i].pt) ? s->row[i].pt->n_flagged : 0;
	rc = an_series_fit_models(s, throughput, N, y, (size_t)n);
	free(N);
	free(y);
	if (rc)
		return rc;
	lab_an_usl_peak(&s->usl, &s->peak);
	lab_an_fit_choose(&s->amdahl, &s->usl, &s->choice);
	if (s->weak)
		s->model = s->gustafson.ok ? "gustafson" : "none";
	else if (!s->choice.ok)
		s->model = "none";
	else
		s->model = s->choice.chosen == LAB_AN_USL ? "usl" : "amdahl";
	char why[256];
	/* a USL of sigma > 1 or kappa < 0 beyond the noise was chosen over Amdahl, or an Amdahl
	 * whose f lies outside [0, 1] beyond it (its interval NaN) over the USL */
	if (!strcmp(s->model, "usl") && lab_an_usl_out_of_range(&s->usl, why, sizeof(why))) {
		s->model = "none";
		snprintf(
		    s->note, sizeof(s->note),
		    "no fit: the F-test prefers the USL to Amdahl, and the USL's parameters lie "
		    "outside their range (a finding says which)");
	} else if (!strcmp(s->model, "amdahl") && isnan(s->amdahl.lo[1])) {
		s->model = "none";
		snprintf(s->note, sizeof(s->note),
		         "no fit: Amdahl's f lies outside [0, 1] beyond its noise (%s), and the "
		         "F-test does not prefer the USL",
		         s->amdahl.x[1] < 0 ? "superlinear" : "slower with more threads");
	} else if (!strcmp(s->model, "none"))
		snprintf(s->note, sizeof(s->note), "no fit: %s",
		         s->weak ? s->gustafson.reason : s->amdahl.reason);
	/* the F-test's verdict on kappa = 0, whether or not the USL it prefers is kept */
	s->amdahl_rejected = !s->weak && s->choice.ok && s->choice.chosen == LAB_AN_USL;
	return 0;
}

/* A latency or per-instance overhead: more threads do not divide it, so no speedup,
 * efficiency, Karp-Flatt or fit; the rows keep their costs and intervals. */
static int an_series_latency(struct lab_an_series *s)
{
	for (size_t i = 0; i < s->nrow; i++) {
		s->row[i].kf = s->row[i].kf_lo = s->row[i].kf_hi = NAN;
		s->n_excluded += an_usable(s->row[i].pt) ? s->row[i].pt->n_flagged : 0;
	}
	s->model = "none";
	snprintf(s->note, sizeof(s->note), "%s", LAB_AN_LATENCY_NOTE);
	return 0;
}

static int an_series_compute(struct lab_an_series *s, int include_flagged, int throughput)
{
	const struct lab_an_point *base = NULL;

	qsort(s->row, s->nrow, sizeof(*s->row), an_cmp_row);
	if (s->latency)
		return an_series_latency(s);
	for (size_t i = 0; i < s->nrow; i++)
		if (s->row[i].pt->threads == 1 && an_usable(s->row[i].pt))
			base = s->row[i].pt;
	s->has_baseline = base != NULL;
	for (size_t i = 0; i < s->nrow; i++) {
		struct lab_an_row *r = &s->row[i];

		r->kf = r->kf_lo = r->kf_hi = NAN;
		if (base && an_usable(r->pt))
			an_row_speedup(base, r);
		/* Karp-Flatt's serial fraction assumes a fixed total work (Amdahl's): of a weak
		 * series' scaled speedup it is no serial fraction (the Gustafson fit's is) */
		if (s->weak) {
			r->kf = r->kf_lo = r->kf_hi = NAN;
			r->kf_why = r->kf_note = NULL;
		}
	}
	if (an_series_fit(s, include_flagged, throughput))
		return -LAB_ENOMEM;
	lab_an_series_findings(s);
	if (!base) {
		size_t k = strlen(s->note);
		const struct lab_an_point *one = NULL;

		for (size_t i = 0; i < s->nrow; i++)
			if (s->row[i].pt->threads == 1)
				one = s->row[i].pt;
		if (one && lab_an_flagged_all(one))
			snprintf(s->note + k, sizeof(s->note) - k,
			         "%sthe threads=1 baseline's %zu samples were all load-flagged "
			         "(--include-flagged keeps them): speedup not computed",
			         k ? "; " : "", one->n_flagged);
		else if (one)
			snprintf(s->note + k, sizeof(s->note) - k,
			         "%sthe threads=1 baseline has no usable sample (%s): speedup not "
			         "computed",
			         k ? "; " : "", one->status);
		else
			snprintf(s->note + k, sizeof(s->note) - k,
			         "%sno threads=1 point in the series: speedup not computed",
			         k ? "; " : "");
	}
	return 0;
}

int lab_an_analysis_run(struct lab_an_data *d, int include_flagged, struct lab_an_analysis *a,
                        struct lab_err *err)
{
	return lab_an_analysis_run_obj(d, include_flagged, LAB_AN_OBJ_RELATIVE, a, err);
}

int lab_an_analysis_run_obj(struct lab_an_data *d, int include_flagged, enum lab_an_objective obj,
                            struct lab_an_analysis *a, struct lab_err *err)
{
	return lab_an_analysis_run_plots(d, include_flagged, obj, 0, a, err);
}

int lab_an_analysis_run_plots(struct lab_an_data *d, int include_flagged, enum lab_an_objective obj,
                              int no_plots, struct lab_an_analysis *a, struct lab_err *err)
{
	size_t cap = 0, *rcap = NULL, rcap_cap = 0;
	struct lab_an_index ix = {0};
	int rc = 0;

	memset(a, 0, sizeof(*a));
	a->data = d;
	a->include_flagged = include_flagged;
	a->objective = obj;
	a->no_plots = no_plots;
	lab_an_gsl_quiet();
	for (size_t i = 0; i < d->npt && !rc; i++) {
		struct lab_an_series *s = an_series_find(a, &cap, &ix, &d->pt[i]);

		/* rcap[k]: the row capacity of series k, so rows grow geometrically */
		if (!s || lab_an_grow(&rcap, &rcap_cap, a->ns, sizeof(*rcap)))
			rc = -1;
		else if (s->nrow == 0)
			rcap[s - a->s] = 0;
		if (!rc && lab_an_grow(&s->row, &rcap[s - a->s], s->nrow + 1, sizeof(*s->row)))
			rc = -1;
		if (!rc) {
			memset(&s->row[s->nrow], 0, sizeof(*s->row));
			lab_an_rates_compute(d, &d->pt[i], &s->row[s->nrow].rates);
			s->row[s->nrow++].pt = &d->pt[i];
		}
	}
	free(rcap);
	lab_an_index_free(&ix);
	if (rc)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	an_series_trim(a);
	for (size_t i = 0; i < a->ns; i++) {
		a->s[i].weak = lab_an_data_is_weak(d, a->s[i].experiment);
		a->s[i].latency = lab_an_cost_latency(d, a->s[i].experiment);
		a->s[i].objective = obj;
		if (an_series_compute(&a->s[i], include_flagged, d->throughput))
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	if (lab_an_lessons_eval(d, &a->lessons, err))
		return -LAB_ENOMEM;
	return lab_an_views_run(a, err);
}

void lab_an_analysis_free(struct lab_an_analysis *a)
{
	for (size_t i = 0; i < a->ns; i++) {
		free(a->s[i].experiment);
		free(a->s[i].params);
		free(a->s[i].row);
		lab_an_series_findings_free(&a->s[i]);
	}
	free(a->s);
	lab_an_views_free(a);
	lab_an_lessons_free(&a->lessons);
	memset(a, 0, sizeof(*a));
}
