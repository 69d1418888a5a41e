/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Descriptive statistics of one point's repetitions and the speedup of one point over the
 * one-thread baseline. Pure functions; no I/O. Methods and their evidence:
 * research/analyzer.md §2.1–2.2 and §2.6.
 */
#ifndef LAB_ANALYZE_STATS_H
#define LAB_ANALYZE_STATS_H

#include <stddef.h>

/* Summary of n values. Margins are 0 when n <= 1 or se == 0 (the interval collapses). */
struct lab_an_stats {
	size_t n;
	double mean, sd, se;     /* sd with n-1; 0 when n <= 1 */
	double ci95_lo, ci95_hi; /* t-interval of the mean, df = n-1 */
	double ci99_lo, ci99_hi;
	double median, mad; /* mad scaled by 1.4826 (consistent with sd for normal data) */
	double p95;         /* type-7 quantile */
	double min, max;
	double cv;              /* sd/mean; 0 when mean == 0 */
	double q1, q3;          /* type-7 quartiles (the Tukey fences use them) */
	size_t outliers_mild;   /* beyond 1.5 IQR but within 3 IQR of the quartiles */
	size_t outliers_severe; /* beyond 3 IQR */
};

/*
 * Computes the summary of x[0..n-1]; x is not modified. work must hold n doubles (scratch).
 * With n == 0 every field is 0 except n; callers check n first.
 */
void lab_an_stats_compute(const double *x, size_t n, double *work, struct lab_an_stats *st);

/* The median of sorted[0..n-1] (ascending), NaN when n is 0; the mean of the middle two halved
 * first, so two values near DBL_MAX give theirs, not inf (GSL's (a + b) / 2 overflows). */
double lab_an_median_sorted(const double *sorted, size_t n);

/*
 * A distribution-free interval for the median of sorted[0..n-1] (ascending): the order
 * statistics x(j) and x(n+1-j) (1-based) with the largest j such that P(Bin(n, 1/2) < j) <=
 * (1 - cl)/2. Its coverage is at least cl for any continuous distribution, a multimodal one
 * included, which the t-interval of the mean cannot promise. Returns 0, or -1 with *lo = *hi =
 * NaN when n is too small for the level (n < 6 at 95 %).
 */
int lab_an_median_ci(const double *sorted, size_t n, double cl, double *lo, double *hi);

/* The two-sided t quantile for confidence level cl (0.95, 0.99) and df degrees of freedom. */
double lab_an_t_quantile(double cl, double df);

/*
 * Welch–Satterthwaite degrees of freedom of a ratio of two independent means, computed on the
 * relative variances ra = va/a^2 and rb = vb/b^2 with na and nb repetitions. Returns 0 when a
 * side has fewer than 2 repetitions (no variance estimate), +inf when both variances are 0.
 */
double lab_an_welch_df(double ra, size_t na, double rb, size_t nb);

/* A ratio estimate a/b with its interval. */
struct lab_an_ratio {
	double est;
	double lo, hi;
	int has_ci;    /* 0: not enough repetitions for an interval */
	int unbounded; /* 1: Fieller's denominator is not significantly non-zero (g >= 1) */
	double df;
	/* unbounded, with a and b > 0 and a significantly so: the set is two rays, one below 0
	 * and [ray, inf); lab_an_ratio_positive keeps that one. NaN otherwise. */
	double ray;
};

/*
 * Fieller interval at level cl for the ratio of two independent means a (variance of the mean
 * va, na repetitions) and b (vb, nb), with Welch–Satterthwaite df. Used for speedup
 * S = c(1)/c(N): the baseline's noise enters through va.
 */
void lab_an_ratio_fieller(double a, double va, size_t na, double b, double vb, size_t nb, double cl,
                          struct lab_an_ratio *r);
/* The same with the df at most df_max: where one side's variance holds a share borrowed from the
 * other's (analyze/levels.h: the mixed level), the two are one estimate, worth the lender's df
 * alone, not independent ones (Welch's df then overstated it: 95 % intervals covered 0.90). */
void lab_an_ratio_fieller_cap(double a, double va, size_t na, double b, double vb, size_t nb,
                              double df_max, double cl, struct lab_an_ratio *r);

/*
 * Keeps r's interval inside the values a ratio of two positive means can take (costs: a
 * speedup, a change): the part below 0 holds no possible value and goes (lo = 0 when it was
 * below). Coverage is unchanged: the true ratio is never in the part cut off. An unbounded
 * interval becomes [ray, inf) where that is Fieller's set above 0, else [0, inf).
 */
void lab_an_ratio_positive(struct lab_an_ratio *r);

/*
 * The naive interval that treats a as exact: [a/(b + t*se_b), a/(b - t*se_b)], t with nb-1 df.
 * Kept only to show, in the coverage test, that it under-covers.
 */
void lab_an_ratio_naive(double a, double b, double vb, size_t nb, double cl,
                        struct lab_an_ratio *r);

/* Karp–Flatt experimentally determined serial fraction e(N) = (1/S - 1/N)/(1 - 1/N), N > 1. */
double lab_an_karp_flatt(double speedup, double threads);

/*
 * Two-sided Welch t-test of the means (ma, va = variance of the mean, na) and (mb, vb, nb);
 * returns the p-value, 1 when it cannot be computed (n < 2 on a side), 0 when both variances
 * are 0 and the means differ.
 */
double lab_an_welch_p(double ma, double va, size_t na, double mb, double vb, size_t nb);
/* The same with the df at most df_max (lab_an_ratio_fieller_cap). */
double lab_an_welch_p_cap(double ma, double va, size_t na, double mb, double vb, size_t nb,
                          double df_max);

/* ---- intervals that respect a quantity's bounds ---- */

/*
 * An interval at level cl for a positive quantity (a throughput, a rate, a cost) from its
 * estimate est > 0, the estimate's standard error se and df degrees of freedom: the t-interval
 * of log(est) (delta method: se/est) mapped back, [est e^-m, est e^m] with m = t se/est. It
 * stays above 0, where the plain t-interval est -+ t se can reach below 0 when the spread is
 * large, and it is symmetric in ratios (lo hi = est^2). se = 0 gives [est, est]. Returns 0, or
 * -1 with lo = hi = NaN when est <= 0, se < 0, a value is not finite or df <= 0 (one sample:
 * no interval).
 */
int lab_an_ci_log(double est, double se, double df, double cl, double *lo, double *hi);

/* lab_an_ci_log for the mean of a summary (est = mean, se, df = n - 1); -1 when n <= 1. A
 * quantity bounded on both sides (a share, Jain's index) takes its t-interval clipped to its
 * domain instead (analyze/domain.h), which keeps the t-interval's coverage; a logit interval,
 * from few samples near the bound, stretched across most of the domain. */
int lab_an_stats_ci_log(const struct lab_an_stats *st, double cl, double *lo, double *hi);

#endif
