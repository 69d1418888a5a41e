/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Scaling-law fits of cost per unit of work c(N) against thread count N, on all raw
 * repetitions (research/analyzer.md §2.3–2.7):
 *
 *   Amdahl     c(N) = c1 (f + (1-f)/N)                        x = (c1, f)
 *   USL        c(N) = c1 (1 + sigma (N-1) + kappa N (N-1)) / N x = (c1, sigma, kappa)
 *   Gustafson  c(N) = c1 / (s + (1-s) N)   (weak scaling)      x = (c1, s)
 *
 * The default objective (relative) weights each sample by 1/mean(c at its N)^2: timing noise is
 * roughly constant-CV, so this is least squares on relative error. The absolute objective is
 * unweighted least squares in the domain of the data given (cost, or throughput for the
 * throughput forms below): the error model of R's usl package and codahale/usl, whose published
 * coefficients it reproduces. Either way the covariance is scaled by chi^2/(n-p) and the
 * intervals use t with n-p df, unless the lack-of-fit test (below) finds the points' means
 * scattering around the curve more than their samples scatter around them (p < 0.05): then each
 * point carries noise of its own (one run's setup: placement, page layout), its samples are not
 * independent draws, and the covariance is scaled by the lack-of-fit mean square with its df
 * (groups - p), as a fit of the points' means would be. A fraction (Amdahl's f, Gustafson's s)
 * gets the t-interval kept inside [0, 1]: a truth on a bound (f = 0, linear scaling) is then
 * covered, which a logit interval, open at both ends, never does. Starting values come from the
 * linear basis ({1, 1/N} and {1, 1/N, N}); nonlinear least squares (GSL) then refines them.
 * Pure functions: no I/O; GSL's abort handler must be off (lab_an_gsl_quiet).
 */
#ifndef LAB_ANALYZE_FIT_H
#define LAB_ANALYZE_FIT_H

#include <stddef.h>

enum lab_an_model {
	LAB_AN_AMDAHL,
	LAB_AN_USL,
	LAB_AN_GUSTAFSON,
	/* X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)), unweighted: the form of
	 * codahale/usl, kept for its known-answer tests. x = (lambda, sigma, kappa). */
	LAB_AN_USL_THROUGHPUT,
	/* X(N) = lambda N / (1 + f (N-1)): Amdahl in the throughput domain. x = (lambda, f). */
	LAB_AN_AMDAHL_THROUGHPUT,
};

/* What the least squares minimizes (see the top of this file). */
enum lab_an_objective {
	LAB_AN_OBJ_RELATIVE, /* weights 1/mean(y at N)^2: constant-CV errors */
	LAB_AN_OBJ_ABSOLUTE, /* unweighted: constant-SD errors in the domain of y */
};

/* "relative" or "absolute". */
const char *lab_an_objective_name(enum lab_an_objective obj);
/* One sentence naming the error model of obj for input in the domain named by domain
 * ("cost" or "throughput"), into buf. */
const char *lab_an_objective_text(enum lab_an_objective obj, const char *domain, char *buf,
                                  size_t len);

/* Lack-of-fit F-test: with replicates, the residual sum of squares splits into pure error
 * (scatter around each N's mean) and lack of fit (the means around the model). */
struct lab_an_lof {
	int ok; /* 0: no replicates, or as many distinct N as parameters */
	double F, df1, df2, p;
	double ms_lof; /* the lack-of-fit mean square, ss_lof / df1 */
};

/* "F = 3.2" of a lack-of-fit test into buf; "F unbounded (no spread within the points)" where
 * the repetitions of every point agree exactly (pure error 0: "F = inf" read as a number). */
const char *lab_an_lof_f_text(const struct lab_an_lof *lof, char *buf, size_t len);

#define LAB_AN_FIT_MAXP 3

struct lab_an_fit {
	enum lab_an_model model;
	int ok; /* 0: refused or failed, see reason */
	char reason[160];
	size_t n, p, distinct;     /* samples, parameters, distinct thread counts */
	double dof;                /* n - p */
	double x[LAB_AN_FIT_MAXP]; /* estimates */
	double se[LAB_AN_FIT_MAXP];
	/* 95 % t-intervals; a fraction's kept inside [0, 1], NAN when it misses [0, 1] wholly
	 * (the estimate lies beyond a bound by more than its noise) */
	double lo[LAB_AN_FIT_MAXP], hi[LAB_AN_FIT_MAXP];
	double cov[LAB_AN_FIT_MAXP][LAB_AN_FIT_MAXP]; /* scaled by chi^2/(n-p) or ms_lof */
	double df_ci;      /* the t's df of every interval: dof, or lof.df1 when by_means */
	int by_means;      /* the points' means are the unit of the intervals (see the top) */
	double chi2;       /* weighted residual sum of squares */
	double chi2_floor; /* 1e-24 x the weighted sum of y^2: a chi2 below it is rounding */
	double aicc, bic;
	int iters;
	enum lab_an_objective objective;
	struct lab_an_lof lof;
};

/* Turns GSL's abort-on-error handler off once; every GSL caller checks return codes instead. */
void lab_an_gsl_quiet(void);

/*
 * Fits model to (threads[i], y[i]), i < n. Refuses (ok = 0 with a reason, return 0) when there
 * are fewer than p + 2 distinct thread counts or a non-positive y. Returns a negative code only
 * when memory runs out.
 */
int lab_an_fit_run(enum lab_an_model model, const double *threads, const double *y, size_t n,
                   struct lab_an_fit *fit);
/* The same with the objective chosen (the throughput forms are always unweighted). */
int lab_an_fit_run_obj(enum lab_an_model model, enum lab_an_objective obj, const double *threads,
                       const double *y, size_t n, struct lab_an_fit *fit);

/* 1 when the model is a throughput form (x[0] is the throughput at N = 1, not a cost). */
int lab_an_model_is_throughput(enum lab_an_model model);

/* The cost at N = 1 with its 95 % interval: x[0], or for a throughput form 1/x[0] and the image
 * of its interval (the upper end is +inf when the throughput interval reaches 0). */
void lab_an_fit_c1(const struct lab_an_fit *fit, double *c1, double *lo, double *hi);

/* The model's value at N with parameters x. */
double lab_an_model_eval(enum lab_an_model model, const double *x, double threads);

/*
 * The model's speedup c(1)/c(N) at N with a delta-method 95 % band (Var = g' Cov g); for
 * Gustafson the scaled speedup. Returns 0, or -1 when the fit is not ok.
 */
int lab_an_fit_speedup(const struct lab_an_fit *fit, double threads, double *s, double *lo,
                       double *hi);

/* The USL peak N* = sqrt((1 - sigma)/kappa) with a 95 % interval by the delta method on
 * log N* (N* > 0, and its interval as skewed as kappa's image). */
struct lab_an_peak {
	int retrograde; /* sigma < 1, kappa > 0 and kappa's 95 % interval excludes 0 */
	/* sigma + kappa >= 1 (N* <= 1): the throughput is highest at N = 1, no peak past it */
	int no_peak;
	double n_star, lo, hi;
};
void lab_an_usl_peak(const struct lab_an_fit *usl, struct lab_an_peak *pk);

/* Why a USL fit describes no contention: sigma above 1 or kappa below 0 beyond their noise
 * (95 % interval wholly past the bound), into buf; NULL when its parameters are in range (or it
 * has no fit). */
const char *lab_an_usl_out_of_range(const struct lab_an_fit *usl, char *buf, size_t len);

/* Nested model choice between Amdahl (kappa = 0) and USL. */
struct lab_an_choice {
	int ok;
	/* F = (chi2_A - chi2_U)/(chi2_U/(n-3)), F(1, n-3); when USL's intervals are by the
	 * points' means, F = (chi2_A - chi2_U)/ms_lof(USL), F(1, groups - 3) */
	double f_stat, p_value;
	double aicc_amdahl, aicc_usl;
	enum lab_an_model chosen; /* USL when p < 0.05 */
};
void lab_an_fit_choose(const struct lab_an_fit *amdahl, const struct lab_an_fit *usl,
                       struct lab_an_choice *ch);

#endif
