/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Precision-targeted sampling (`precision = 2%`, `budget = 20s`) and the run level (`runs = K`):
 * pure functions, no clock, no I/O, so the Monte Carlo test drives exactly what the runner does.
 *
 * The stopping rule is Stein's two-stage procedure (1945), not "stop when the t-interval is
 * narrow" (that rule looks at s_n as it goes and under-covers): a pilot of n0 observations gives
 * s0; the total is fixed from the pilot alone, n = max(n0, ceil((t(0.975, n0 - 1) s0 / d)^2)),
 * and the interval is mean_n -+ t(0.975, n0 - 1) s0 / sqrt(n), whose half-width is <= d. Under
 * normality the mean of the n observations is independent of s0 given n, so the coverage is
 * exactly 95 % whatever n the pilot chose. The observations are samples (one run per point) or
 * run means (runs >= 2: every run takes the same reps samples, so run means are identically
 * distributed and carry the between-run variance). docs/measurement.md says why this rule and
 * not a confidence sequence.
 */
#ifndef LAB_HARNESS_PRECISION_H
#define LAB_HARNESS_PRECISION_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/err.h"
#include "harness/record_schema.h"

/* Pilot samples of a one-run point under a precision target: at least this many, or reps. */
#define LAB_PREC_PILOT_MIN 10
/* The absolute half-width is planned for this share of target x |pilot mean|, so a final mean
 * up to 5 % below the pilot's still meets the relative target. */
#define LAB_PREC_MARGIN 0.95
/* The most observations a Stein plan asks for (samples or runs). */
#define LAB_PREC_N_MAX 100000u
_Static_assert(LAB_PREC_N_MAX <= LAB_RUNS_PLANNED_MAX, "run.json's runs_planned holds it");

/*
 * Parses a precision target: "2%" (a percentage), "0.02" (a fraction, a plain decimal: no hex,
 * inf or nan), "off" or any spelling of zero (0, 0.0, -0, 0e5, 0%: no target) into *frac (may be
 * NULL to check only). Allowed: 0.01% .. 50%. Returns 0 or -LAB_ECONFIG with what is allowed.
 */
int lab_prec_parse(const char *text, double *frac, struct lab_err *err);

/*
 * Checks the run-level harness keys of one experiment: key (runs, precision, budget,
 * fresh_process) with nvals values, val the first. They do not sweep (one point would be
 * measured under two stopping rules). Returns 0, or -LAB_ECONFIG with what is allowed; other
 * keys return 0.
 */
int lab_prec_key_check(const char *key, const char *val, unsigned nvals, struct lab_err *err);

/* t(0.975, df), the two-sided 95 % t quantile; df >= 1. */
double lab_prec_t975(double df);

/* Mean and sample sd (n - 1) of x[0..n-1]; sd 0 when n < 2. */
void lab_prec_mean_sd(const double *x, unsigned n, double *mean, double *sd);

/*
 * Stein's total for a pilot of n0 >= 2 observations with sd s0 and absolute half-width d > 0:
 * max(n0, ceil((t(0.975, n0 - 1) s0 / d)^2)), at most nmax (and LAB_PREC_N_MAX).
 */
unsigned lab_prec_stein_n(unsigned n0, double s0, double d, unsigned nmax);

/* The half-width of Stein's interval after n observations: t(0.975, n0 - 1) s0 / sqrt(n). */
double lab_prec_stein_halfwidth(unsigned n0, double s0, unsigned n);

/* What a point's precision target came to (run.json and the analyzer report it). */
struct lab_prec_rec {
	bool on;                /* precision was set */
	bool by_runs;           /* observations are run means (runs >= 2), else samples */
	double target;          /* relative half-width asked for */
	double achieved;        /* halfwidth / |mean| (NaN: unknown) */
	double halfwidth, mean; /* Stein's interval: mean -+ halfwidth (cost per unit) */
	double pilot_sd;        /* s0 */
	unsigned pilot;         /* n0: samples or runs of the pilot */
	unsigned planned;       /* Stein's total (before the budget) */
	unsigned samples, runs; /* taken in all */
	unsigned kept;          /* observations the final interval is from (clean samples or
	                         * run means of runs with a clean sample) */
	bool budget_exhausted;  /* the budget ran out before the planned total */
	bool total_exhausted;   /* ... and it was the config's total_budget that ran out */
	uint64_t spent_ns;      /* wall time of the point, setups included */
};

/*
 * Shuffles idx[0..n-1] in place (Fisher-Yates) with a generator seeded by seed: the same seed
 * gives the same order on every machine.
 */
void lab_prec_shuffle(unsigned *idx, unsigned n, uint64_t seed);

/* The seed of run r's visiting order, derived from the config's seed. */
uint64_t lab_prec_order_seed(uint64_t seed, unsigned r);

/*
 * The plan's estimate of one point: run_ns (one setup with its samples) times runs is the part
 * that always runs (*base_ns += it); with a precision target the point may go on up to its
 * budget, so budget_ns beyond that part is added to *extra_ns (0 when the pilot alone exceeds
 * the budget).
 */
void lab_prec_point_estimate(double run_ns, uint64_t runs, bool precision, uint64_t budget_ns,
                             double *base_ns, double *extra_ns);

/*
 * The plan's total: base_ns plus the precision extras, these at most what the config's
 * total_budget leaves after base_ns (total_ns 0: no total).
 */
double lab_prec_total_estimate(double base_ns, double extra_ns, uint64_t total_ns);

/*
 * Whether a precision sample or run costing next_ns, started elapsed_ns after the lab run
 * began, would overrun the config's total_budget total_ns (0: no total, never).
 */
bool lab_prec_total_spent(uint64_t total_ns, uint64_t elapsed_ns, double next_ns);

#endif
