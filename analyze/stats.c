/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

/* Every point asks for the same few (cl, df): the last ones asked are kept per thread (a
 * pure function, so the answer is the same bits), which spares 100 000 points 200 000
 * inversions of the t distribution. */
#define AN_TQ_CACHE 8

double lab_an_t_quantile(double cl, double df)
{
	static _Thread_local struct {
		double cl, df, q;
	} memo[AN_TQ_CACHE];
	static _Thread_local unsigned next;
	double q;

	if (!(df > 0))
		return NAN;
	for (unsigned i = 0; i < AN_TQ_CACHE; i++)
		if (memo[i].df == df && memo[i].cl == cl)
			return memo[i].q;
	q = isinf(df) ? gsl_cdf_ugaussian_Pinv(0.5 + cl / 2) : gsl_cdf_tdist_Pinv(0.5 + cl / 2, df);
	memo[next % AN_TQ_CACHE].cl = cl;
	memo[next % AN_TQ_CACHE].df = df;
	memo[next % AN_TQ_CACHE].q = q;
	next++;
	return q;
}

int lab_an_median_ci(const double *sorted, size_t n, double cl, double *lo, double *hi)
{
	size_t j = 0;

	*lo = *hi = NAN;
	/* P(B <= k - 1) for B ~ Bin(n, 1/2) is the chance that x(k) lies above the median. */
	while (j + 1 <= n / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n) <= (1 - cl) / 2)
		j++;
	if (j == 0)
		return -1;
	*lo = sorted[j - 1];
	*hi = sorted[n - j];
	return 0;
}

static void an_stats_margins(struct lab_an_stats *st)
{
	double m95 = 0, m99 = 0;

	/* samples whose spread overflows a double (values near 1.8e308): no interval, never one
	 * of zero width beside a median it leaves out */
	if (st->n > 1 && (!isfinite(st->se) || !isfinite(st->mean)))
		m95 = m99 = NAN;
	else if (st->n > 1 && st->se > 0) {
		m95 = lab_an_t_quantile(0.95, (double)(st->n - 1)) * st->se;
		m99 = lab_an_t_quantile(0.99, (double)(st->n - 1)) * st->se;
	}
	st->ci95_lo = st->mean - m95;
	st->ci95_hi = st->mean + m95;
	st->ci99_lo = st->mean - m99;
	st->ci99_hi = st->mean + m99;
}

/* The fences are the classic Tukey ones: mild beyond 1.5 IQR, severe beyond 3 IQR. */
static void an_stats_tukey(const double *sorted, struct lab_an_stats *st)
{
	double iqr = st->q3 - st->q1;

	for (size_t i = 0; i < st->n; i++) {
		double v = sorted[i];

		if (v < st->q1 - 3 * iqr || v > st->q3 + 3 * iqr)
			st->outliers_severe++;
		else if (v < st->q1 - 1.5 * iqr || v > st->q3 + 1.5 * iqr)
			st->outliers_mild++;
	}
}

double lab_an_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	return n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
}

void lab_an_stats_compute(const double *x, size_t n, double *work, struct lab_an_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	if (n == 0)
		return;
	memcpy(work, x, n * sizeof(*x));
	gsl_sort(work, 1, n);
	st->mean = gsl_stats_mean(work, 1, n);
	st->sd = n > 1 ? gsl_stats_sd_m(work, 1, n, st->mean) : 0;
	st->se = st->sd / sqrt((double)n);
	st->median = lab_an_median_sorted(work, n);
	st->p95 = gsl_stats_quantile_from_sorted_data(work, 1, n, 0.95);
	st->q1 = gsl_stats_quantile_from_sorted_data(work, 1, n, 0.25);
	st->q3 = gsl_stats_quantile_from_sorted_data(work, 1, n, 0.75);
	st->min = work[0];
	st->max = work[n - 1];
	st->cv = st->mean != 0 ? st->sd / st->mean : 0;
	an_stats_margins(st);
	an_stats_tukey(work, st);
	/* MAD last: it reuses work as the absolute deviations. */
	for (size_t i = 0; i < n; i++)
		work[i] = fabs(work[i] - st->median);
	gsl_sort(work, 1, n);
	st->mad = 1.4826 * lab_an_median_sorted(work, n);
}

double lab_an_welch_df(double ra, size_t na, double rb, size_t nb)
{
	double den, s = fmax(ra, rb);

	if (na < 2 || nb < 2 || !isfinite(s))
		return 0;
	/* The df does not depend on the variances' scale: on the larger one's scale, squaring
	 * cannot overflow (variances of costs near 1e80 squared to inf, and the p-value with it).
	 */
	if (s > 0) {
		ra /= s;
		rb /= s;
	}
	den = ra * ra / (double)(na - 1) + rb * rb / (double)(nb - 1);
	if (den == 0)
		return INFINITY;
	return (ra + rb) * (ra + rb) / den;
}

/* With g >= 1 Fieller's set {rho: (a - rho b)^2 <= t^2 (va + rho^2 vb)} is the whole line or,
 * where a is significantly non-zero (h = t^2 va / a^2 < 1), the two rays outside the roots
 * rho = est u of (1 - g) u^2 - 2 u + (1 - h) = 0: with a, b > 0 one below 0 and one from
 * est (1 - h) / (1 + sqrt(g + h - g h)) up (the root's form that holds at g = 1 too). A
 * lesson whose claim is a lower bound is then judged on that ray ("no bounded interval" had
 * left a ratio of 55 [20, inf) inconclusive against >= 1.5). */
static void an_fieller_ray(double a, double va, double t, double g, struct lab_an_ratio *r)
{
	double h;

	if (!(a > 0) || !(r->est > 0) || !isfinite(r->est))
		return;
	h = t * t * (va / a) / a;
	if (h < 1)
		r->ray = r->est * (1 - h) / (1 + sqrt(g + h - g * h));
}

void lab_an_ratio_fieller(double a, double va, size_t na, double b, double vb, size_t nb, double cl,
                          struct lab_an_ratio *r)
{
	lab_an_ratio_fieller_cap(a, va, na, b, vb, nb, INFINITY, cl, r);
}

void lab_an_ratio_fieller_cap(double a, double va, size_t na, double b, double vb, size_t nb,
                              double df_max, double cl, struct lab_an_ratio *r)
{
	double t, g, half;

	memset(r, 0, sizeof(*r));
	r->est = a / b;
	r->lo = r->hi = r->est;
	r->ray = NAN;
	r->df = fmin(lab_an_welch_df(va / (a * a), na, vb / (b * b), nb), df_max);
	if (!(r->df > 0))
		return;
	r->has_ci = 1;
	if (isinf(r->df))
		return; /* both variances 0: the interval collapses, as for a single point */
	t = lab_an_t_quantile(cl, r->df);
	g = t * t * vb / (b * b);
	if (g >= 1) {
		r->unbounded = 1;
		r->lo = -INFINITY;
		r->hi = INFINITY;
		an_fieller_ray(a, va, t, g, r);
		return;
	}
	/* t / |b| sqrt(va (1 - g) + est^2 vb), as relative variances: est^2 overflowed at a
	 * ratio of 1e198 (1e99 / 1e-99, each inside the loader's range) */
	if (a != 0) {
		double ra = sqrt(va) / fabs(a), rb = sqrt(vb) / fabs(b);
		half = t * fabs(r->est) * sqrt(ra * ra * (1 - g) + rb * rb);
	} else {
		half = t / fabs(b) * sqrt(va * (1 - g));
	}
	r->lo = (r->est - half) / (1 - g);
	r->hi = (r->est + half) / (1 - g);
}

void lab_an_ratio_positive(struct lab_an_ratio *r)
{
	if (r->has_ci && r->unbounded && r->ray > 0)
		r->lo = r->ray; /* the other ray lies below 0 */
	if (r->has_ci && r->lo < 0)
		r->lo = 0;
}

void lab_an_ratio_naive(double a, double b, double vb, size_t nb, double cl, struct lab_an_ratio *r)
{
	double m;

	memset(r, 0, sizeof(*r));
	r->est = a / b;
	r->lo = r->hi = r->est;
	if (nb < 2)
		return;
	r->has_ci = 1;
	r->df = (double)(nb - 1);
	m = lab_an_t_quantile(cl, r->df) * sqrt(vb);
	r->lo = a / (b + m);
	r->hi = m < b ? a / (b - m) : INFINITY;
	r->unbounded = !(m < b);
}

double lab_an_karp_flatt(double speedup, double threads)
{
	if (!(threads > 1))
		return NAN;
	return (1 / speedup - 1 / threads) / (1 - 1 / threads);
}

double lab_an_welch_p(double ma, double va, size_t na, double mb, double vb, size_t nb)
{
	return lab_an_welch_p_cap(ma, va, na, mb, vb, nb, INFINITY);
}

double lab_an_welch_p_cap(double ma, double va, size_t na, double mb, double vb, size_t nb,
                          double df_max)
{
	double df, t;

	if (na < 2 || nb < 2 || !(df_max > 0))
		return 1;
	if (va + vb == 0)
		return ma == mb ? 1 : 0;
	df = fmin(lab_an_welch_df(va, na, vb, nb), df_max);
	t = fabs(ma - mb) / sqrt(va + vb);
	return 2 * gsl_cdf_tdist_Q(t, df);
}

int lab_an_ci_log(double est, double se, double df, double cl, double *lo, double *hi)
{
	double m;

	*lo = *hi = NAN;
	if (!(est > 0) || !isfinite(est) || !(se >= 0) || !isfinite(se) || !(df > 0))
		return -1;
	/* Delta method: the standard error of log(est) is se/est. */
	m = lab_an_t_quantile(cl, df) * se / est;
	*lo = est * exp(-m);
	*hi = est * exp(m);
	return 0;
}

int lab_an_stats_ci_log(const struct lab_an_stats *st, double cl, double *lo, double *hi)
{
	return lab_an_ci_log(st->mean, st->se, st->n > 1 ? (double)(st->n - 1) : 0, cl, lo, hi);
}
