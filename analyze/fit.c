/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "analyze/fit_int.h"
#include "analyze/stats.h"

void lab_an_gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

/* Value and gradient of each model; the gradients are analytic (research/analyzer.md §2.4). */
static double an_model_grad(enum lab_an_model m, const double *x, double N, double *g)
{
	double D, G;

	switch (m) {
	case LAB_AN_AMDAHL:
		if (g) {
			g[0] = x[1] + (1 - x[1]) / N;
			g[1] = x[0] * (1 - 1 / N);
		}
		return x[0] * (x[1] + (1 - x[1]) / N);
	case LAB_AN_USL:
		D = 1 + x[1] * (N - 1) + x[2] * N * (N - 1);
		if (g) {
			g[0] = D / N;
			g[1] = x[0] * (N - 1) / N;
			g[2] = x[0] * (N - 1);
		}
		return x[0] * D / N;
	case LAB_AN_GUSTAFSON:
		G = x[1] + (1 - x[1]) * N;
		if (g) {
			g[0] = 1 / G;
			g[1] = x[0] * (N - 1) / (G * G);
		}
		return x[0] / G;
	case LAB_AN_USL_THROUGHPUT:
		D = 1 + x[1] * (N - 1) + x[2] * N * (N - 1);
		if (g) {
			g[0] = N / D;
			g[1] = -x[0] * N * (N - 1) / (D * D);
			g[2] = -x[0] * N * N * (N - 1) / (D * D);
		}
		return x[0] * N / D;
	case LAB_AN_AMDAHL_THROUGHPUT:
		D = 1 + x[1] * (N - 1);
		if (g) {
			g[0] = N / D;
			g[1] = -x[0] * N * (N - 1) / (D * D);
		}
		return x[0] * N / D;
	}
	abort();
}

double lab_an_model_eval(enum lab_an_model model, const double *x, double threads)
{
	return an_model_grad(model, x, threads, NULL);
}

static size_t an_model_p(enum lab_an_model m)
{
	return m == LAB_AN_USL || m == LAB_AN_USL_THROUGHPUT ? 3 : 2;
}

struct an_nls {
	enum lab_an_model model;
	const double *N, *y;
};

static int an_nls_f(const gsl_vector *x, void *params, gsl_vector *f)
{
	const struct an_nls *d = params;

	for (size_t i = 0; i < f->size; i++)
		gsl_vector_set(f, i, an_model_grad(d->model, x->data, d->N[i], NULL) - d->y[i]);
	return GSL_SUCCESS;
}

static int an_nls_df(const gsl_vector *x, void *params, gsl_matrix *J)
{
	const struct an_nls *d = params;
	double g[LAB_AN_FIT_MAXP];

	for (size_t i = 0; i < J->size1; i++) {
		an_model_grad(d->model, x->data, d->N[i], g);
		for (size_t j = 0; j < J->size2; j++)
			gsl_matrix_set(J, i, j, g[j]);
	}
	return GSL_SUCCESS;
}

/* Weights 1/mean(y at N)^2 from the group means (never from the single sample, which would
 * pull the fit toward low outliers) for the relative objective; 1 for the absolute one. Also
 * counts the distinct thread counts. Sorting indices keeps this O(n log n) for large inputs. */
struct an_key {
	double N;
	size_t i;
};

static int an_cmp_key(const void *a, const void *b)
{
	double x = ((const struct an_key *)a)->N, y = ((const struct an_key *)b)->N;

	return (x > y) - (x < y);
}

static int an_weights(int relative, const double *N, const double *y, size_t n, double *w,
                      size_t *distinct)
{
	struct an_key *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return -LAB_ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = (struct an_key){N[i], i};
	qsort(idx, n, sizeof(*idx), an_cmp_key);
	*distinct = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0;

		while (j < n && idx[j].N == idx[i].N)
			sum += y[idx[j++].i];
		for (size_t k = i; k < j; k++) {
			double mean = sum / (double)(j - i);

			w[idx[k].i] = relative ? 1 / (mean * mean) : 1;
		}
		(*distinct)++;
		i = j;
	}
	free(idx);
	return 0;
}

/* Start values from a weighted linear fit: Amdahl and USL are linear in {1, 1/N[, N]};
 * Gustafson's 1/c is linear in {1, N}; the throughput form's 1/X is USL's basis again. */
static int an_start(enum lab_an_model m, const double *N, const double *y, const double *w,
                    size_t n, double *x0)
{
	size_t p = an_model_p(m);
	gsl_matrix *X = gsl_matrix_alloc(n, p), *cov = gsl_matrix_alloc(p, p);
	gsl_vector *yy = gsl_vector_alloc(n), *ww = gsl_vector_alloc(n), *c = gsl_vector_alloc(p);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, p);
	double chi2, T;
	int rc = -LAB_ENOMEM;

	if (!X || !cov || !yy || !ww || !c || !ws)
		goto out;
	for (size_t i = 0; i < n; i++) {
		int inv = m == LAB_AN_GUSTAFSON || lab_an_model_is_throughput(m);
		double v = inv ? 1 / y[i] : y[i];

		gsl_matrix_set(X, i, 0, 1);
		gsl_matrix_set(X, i, 1, m == LAB_AN_GUSTAFSON ? N[i] : 1 / N[i]);
		if (p == 3)
			gsl_matrix_set(X, i, 2, N[i]);
		gsl_vector_set(yy, i, v);
		gsl_vector_set(ww, i, inv ? y[i] * y[i] : w[i]);
	}
	rc = -LAB_EMATH;
	if (gsl_multifit_wlinear(X, ww, yy, c, cov, &chi2, ws))
		goto out;
	T = gsl_vector_get(c, 0) + gsl_vector_get(c, 1);
	if (m == LAB_AN_GUSTAFSON || m == LAB_AN_AMDAHL_THROUGHPUT) {
		x0[0] = 1 / T;
		x0[1] = gsl_vector_get(c, 0) / T;
	} else if (m == LAB_AN_AMDAHL) {
		x0[0] = T;
		x0[1] = gsl_vector_get(c, 0) / T;
	} else {
		T += gsl_vector_get(c, 2);
		x0[0] = m == LAB_AN_USL ? T : 1 / T;
		x0[1] = (gsl_vector_get(c, 0) + gsl_vector_get(c, 2)) / T;
		x0[2] = gsl_vector_get(c, 2) / T;
	}
	rc = 0;
out:
	gsl_matrix_free(X);
	gsl_matrix_free(cov);
	gsl_vector_free(yy);
	gsl_vector_free(ww);
	gsl_vector_free(c);
	if (ws)
		gsl_multifit_linear_free(ws);
	return rc;
}

/* Amdahl's f and Gustafson's s are fractions of the one-thread work, so within [0, 1]. */
static int an_model_has_fraction(enum lab_an_model m)
{
	return m == LAB_AN_AMDAHL || m == LAB_AN_AMDAHL_THROUGHPUT || m == LAB_AN_GUSTAFSON;
}

/* Covariance, intervals and information criteria once the position and the lack-of-fit test
 * are known (fit.h: the scale, and a fraction's interval). */
static void an_fit_finish(struct lab_an_fit *fit, const gsl_matrix *C)
{
	double scale = fit->chi2 / fit->dof, t, n = (double)fit->n, k = (double)fit->p;

	fit->df_ci = fit->dof;
	if (fit->lof.ok && fit->lof.p < 0.05 && isfinite(fit->lof.ms_lof)) {
		fit->by_means = 1;
		scale = fit->lof.ms_lof;
		fit->df_ci = fit->lof.df1;
	}
	t = lab_an_t_quantile(0.95, fit->df_ci);
	for (size_t i = 0; i < fit->p; i++) {
		for (size_t j = 0; j < fit->p; j++)
			fit->cov[i][j] = gsl_matrix_get(C, i, j) * scale;
		fit->se[i] = sqrt(fit->cov[i][i]);
		fit->lo[i] = fit->x[i] - t * fit->se[i];
		fit->hi[i] = fit->x[i] + t * fit->se[i];
	}
	/* A fraction's interval kept inside [0, 1]; one that misses [0, 1] wholly is a series
	 * the model does not describe (faster than linear, or slower with more threads beyond
	 * the noise): no interval. A rounding near a bound is on it: an exact fit of flat costs
	 * gave 1 + 2e-16, one of linear costs 5.5e-18 (printed with a "max speedup" of 1.8e17,
	 * where linear is f = 0). */
	if (an_model_has_fraction(fit->model)) {
		double *v[3] = {&fit->x[1], &fit->lo[1], &fit->hi[1]};
		for (int i = 0; i < 3; i++)
			if (fabs(*v[i]) <= 1e-12 || fabs(*v[i] - 1) <= 1e-12)
				*v[i] = fabs(*v[i]) <= 1e-12 ? 0 : 1;
		fit->lo[1] = fmax(fit->lo[1], 0);
		fit->hi[1] = fmin(fit->hi[1], 1);
		if (!(fit->lo[1] <= fit->hi[1]))
			fit->lo[1] = fit->hi[1] = NAN;
	}
	/* x[0] is the cost or the throughput at N = 1: its interval stops at 0 (a t-interval on
	 * the points' means with few df reached -480 for a cost of 1,500). */
	fit->lo[0] = fmax(fit->lo[0], 0);
	if (!(fit->lo[0] <= fit->hi[0]))
		fit->lo[0] = fit->hi[0] = NAN;
	/* chi2 of an exact fit is 0: clamp the log so the criteria stay finite. */
	fit->aicc = n * log(fmax(fit->chi2, 1e-300) / n) + 2 * k;
	fit->aicc += n - k - 1 > 0 ? 2 * k * (k + 1) / (n - k - 1) : INFINITY;
	fit->bic = n * log(fmax(fit->chi2, 1e-300) / n) + k * log(n);
}

static int an_nls_run(struct lab_an_fit *fit, const double *N, const double *y, const double *w,
                      const double *x0)
{
	struct an_nls d = {fit->model, N, y};
	gsl_multifit_nlinear_fdf fdf = {an_nls_f, an_nls_df, NULL, fit->n, fit->p, &d, 0, 0, 0};
	gsl_multifit_nlinear_parameters prm = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *ws;
	gsl_vector_const_view xv = gsl_vector_const_view_array(x0, fit->p);
	gsl_vector_const_view wv = gsl_vector_const_view_array(w, fit->n);
	gsl_matrix *C = gsl_matrix_alloc(fit->p, fit->p);
	int info = 0, st, rc = 0;

	prm.trs = gsl_multifit_nlinear_trs_lm;
	prm.solver = gsl_multifit_nlinear_solver_qr;
	ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm, fit->n, fit->p);
	if (!ws || !C) {
		rc = -LAB_ENOMEM;
		goto out;
	}
	gsl_multifit_nlinear_winit(&xv.vector, &wv.vector, &fdf, ws);
	st = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 0.0, NULL, NULL, &info, ws);
	/* Started at the optimum (the linear basis is exact for Amdahl and USL), GSL reports
	 * GSL_EMAXITER with info GSL_ENOPROG after one iteration: that is convergence. */
	if (st != GSL_SUCCESS && !(st == GSL_EMAXITER && info == GSL_ENOPROG)) {
		snprintf(fit->reason, sizeof(fit->reason), "nonlinear fit did not converge (%s)",
		         gsl_strerror(st));
		goto out;
	}
	for (size_t i = 0; i < fit->p; i++)
		fit->x[i] = gsl_vector_get(gsl_multifit_nlinear_position(ws), i);
	gsl_blas_ddot(gsl_multifit_nlinear_residual(ws), gsl_multifit_nlinear_residual(ws),
	              &fit->chi2);
	fit->iters = (int)gsl_multifit_nlinear_niter(ws);
	lab_an_fit_lof(fit, N, y, w);
	if (gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(ws), 0.0, C)) {
		snprintf(fit->reason, sizeof(fit->reason), "singular covariance matrix");
		goto out;
	}
	an_fit_finish(fit, C);
	fit->ok = 1;
out:
	if (ws)
		gsl_multifit_nlinear_free(ws);
	gsl_matrix_free(C);
	return rc;
}

int lab_an_fit_run(enum lab_an_model model, const double *threads, const double *y, size_t n,
                   struct lab_an_fit *fit)
{
	return lab_an_fit_run_obj(model, LAB_AN_OBJ_RELATIVE, threads, y, n, fit);
}

int lab_an_fit_run_obj(enum lab_an_model model, enum lab_an_objective obj, const double *threads,
                       const double *y, size_t n, struct lab_an_fit *fit)
{
	double *w = NULL, x0[LAB_AN_FIT_MAXP] = {0};
	int rc;

	lab_an_gsl_quiet();
	memset(fit, 0, sizeof(*fit));
	fit->model = model;
	fit->objective = lab_an_model_is_throughput(model) ? LAB_AN_OBJ_ABSOLUTE : obj;
	fit->n = n;
	fit->p = an_model_p(model);
	fit->dof = (double)n - (double)fit->p;
	for (size_t i = 0; i < n; i++)
		if (!(y[i] > 0) || !(threads[i] >= 1) || !isfinite(y[i])) {
			snprintf(fit->reason, sizeof(fit->reason),
			         "a sample has a non-positive value or thread count");
			return 0;
		}
	w = malloc((n ? n : 1) * sizeof(*w));
	if (!w)
		return -LAB_ENOMEM;
	rc = an_weights(fit->objective == LAB_AN_OBJ_RELATIVE, threads, y, n, w, &fit->distinct);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++) /* relative residuals of 1e-12 are a double's rounding */
		fit->chi2_floor += 1e-24 * w[i] * y[i] * y[i];
	if (fit->distinct < fit->p + 2) {
		snprintf(fit->reason, sizeof(fit->reason),
		         "needs at least %zu distinct thread counts, has %zu", fit->p + 2,
		         fit->distinct);
		goto out;
	}
	rc = an_start(model, threads, y, w, n, x0);
	if (rc == -LAB_EMATH) {
		snprintf(fit->reason, sizeof(fit->reason), "linear start fit failed");
		rc = 0;
		goto out;
	}
	if (rc)
		goto out;
	rc = an_nls_run(fit, threads, y, w, x0);
out:
	free(w);
	return rc;
}

/* Speedup c(1)/c(N) under each model and its gradient with respect to x. */
static double an_speedup_grad(const struct lab_an_fit *fit, double N, double *g)
{
	const double *x = fit->x;
	double S, D;

	memset(g, 0, LAB_AN_FIT_MAXP * sizeof(*g));
	switch (fit->model) {
	case LAB_AN_AMDAHL:
	case LAB_AN_AMDAHL_THROUGHPUT:
		S = 1 / (x[1] + (1 - x[1]) / N);
		g[1] = -S * S * (1 - 1 / N);
		return S;
	case LAB_AN_GUSTAFSON:
		g[1] = 1 - N;
		return x[1] + (1 - x[1]) * N;
	case LAB_AN_USL:
	case LAB_AN_USL_THROUGHPUT:
		D = 1 + x[1] * (N - 1) + x[2] * N * (N - 1);
		g[1] = -N * (N - 1) / (D * D);
		g[2] = -N * N * (N - 1) / (D * D);
		return N / D;
	}
	abort();
}

int lab_an_fit_speedup(const struct lab_an_fit *fit, double threads, double *s, double *lo,
                       double *hi)
{
	double g[LAB_AN_FIT_MAXP], var = 0, t;

	if (!fit->ok)
		return -1;
	*s = an_speedup_grad(fit, threads, g);
	for (size_t i = 0; i < fit->p; i++)
		for (size_t j = 0; j < fit->p; j++)
			var += g[i] * fit->cov[i][j] * g[j];
	t = lab_an_t_quantile(0.95, fit->df_ci);
	*lo = *s - t * sqrt(fmax(var, 0));
	*hi = *s + t * sqrt(fmax(var, 0));
	return 0;
}
