/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where a point's variance lives: between runs (fresh setups, `runs = K`) or within a run, and
 * the point's interval from the level that varies. Two-level model (research/precision.md):
 * y_rj = mu + a_r + e_rj with a_r ~ N(0, sb^2), e_rj ~ N(0, sw^2). One-way random effects,
 * method of moments (unbalanced runs allowed):
 *   MSW = sum_r sum_j (y_rj - ybar_r)^2 / (N - K)            -> var_within  = MSW
 *   MSB = sum_r n_r (ybar_r - ybar)^2 / (K - 1)
 *   n0  = (N - sum_r n_r^2 / N) / (K - 1)                    -> var_between = max(0, (MSB -
 * MSW)/n0) With K >= 2 the interval of the point's mean comes from the K run means (t with K - 1
 * df): an interval built from the samples alone ignores sb^2 and its coverage falls towards 0 as
 * the samples grow. The within-run interval (t over all N samples, N - 1 df) stays available,
 * labelled as such. Pure functions; no I/O.
 */
#ifndef LAB_ANALYZE_LEVELS_H
#define LAB_ANALYZE_LEVELS_H

#include <stddef.h>

#include "analyze/err.h"

struct lab_an_data;

/* The two levels of one point. Fields that cannot be estimated are NaN. */
struct lab_an_levels {
	size_t runs;          /* runs with at least one used sample */
	size_t n;             /* samples used */
	double n_per_run;     /* n0 above (the mean run size when balanced) */
	double var_between;   /* sb^2 estimate; NaN with one run */
	double var_within;    /* sw^2 estimate (MSW); with one run, the sample variance */
	double between_share; /* var_between / (var_between + var_within) */
	double mean_share;    /* share of a run mean's variance that is between runs */
	double mean;          /* mean of the run means (K >= 2), else of the samples */
	double run_ci95_lo, run_ci95_hi; /* t on run means, K - 1 df; NaN when K < 2 */
	double run_ci99_lo, run_ci99_hi;
	double within_ci95_lo, within_ci95_hi; /* t on all samples, N - 1 df (too narrow when
	                                        * sb^2 > 0) */
	double run_se; /* standard error of the mean of the run means (sd / sqrt(K), at least
	                * sqrt(MSW x sum(1 / n_j)) / K, the samples' own share); NaN when K < 2 */
};

/*
 * Decomposes x[0..n-1], sample i of run run[i] (labels >= 0 in any order; run NULL: one run).
 * scratch must hold 3 n doubles. O(n log n) in the samples, whatever the number of runs.
 * Returns 0, or -1 when n == 0 or out of memory.
 */
int lab_an_levels_compute(const double *x, const int *run, size_t n, double *scratch,
                          struct lab_an_levels *lv);

/* The run labels the calling thread's lab_an_levels_compute calls have compared so far (the
 * work a test counts; never timed). */
unsigned long long lab_an_levels_compares(void);

/*
 * The per-run sample count beyond which samples add little to the precision of the mean, for a
 * fresh run costing cost_ratio samples (Kalibera & Jones 2013): sqrt(cost_ratio sw^2 / sb^2),
 * at least 1; +inf when sb^2 is 0 (one long run is best), NaN when unknown.
 */
double lab_an_levels_n_opt(const struct lab_an_levels *lv, double cost_ratio);

/*
 * One sentence: which level carries the variance and how a next run should split its budget
 * (runs vs samples) into buf. Returns buf.
 */
const char *lab_an_levels_advice(const struct lab_an_levels *lv, char *buf, size_t len);

/*
 * For every point of d with two or more runs: computes its levels into p->levels (the samples
 * the summary used: flagged ones only with include_flagged) and makes the point's 95 % and 99 %
 * intervals the run-level ones (the within-run interval stays in p->levels). Points of one run
 * get their levels too, their intervals unchanged. Like the summary's, a run-level interval
 * that reaches below 0 is clipped there (a cost is > 0). Returns 0 or -LAB_ENOMEM.
 */
int lab_an_levels_apply(struct lab_an_data *d, int include_flagged, struct lab_err *err);

struct lab_an_point;
struct lab_an_ratio;

/*
 * 1 when p was planned to measure in two or more runs but kept fewer than two (its other runs'
 * samples flagged, or the run ended first): its interval is one setup's. *kept: the runs it
 * kept; *runs: the runs it had (run.json's runs); *planned: its runs_planned (each may be
 * NULL). 0 else.
 */
int lab_an_point_one_setup(const struct lab_an_point *p, size_t *kept, double *runs,
                           double *planned);
/* 1 when p has samples and was planned for one run and kept one (runs = 1: its interval is one
 * setup's by design), 0 when it had or was planned for more or has no samples, -1 when it has
 * no record in run.json to tell. */
int lab_an_point_single_setup(const struct lab_an_point *p);
/* The note of a section whose every point is single-setup (series and chapter views). */
#define LAB_AN_ONE_SETUP_NOTE                                                                      \
	"levels: one setup per point (runs = 1): the intervals hold the spread of its samples, "   \
	"not of setups (buffers, first touch, the team pinned again), which can move a mean by "   \
	"more; runs >= 2 puts it in"
/* A table row's flag for such a point ("ONE SETUP: 1 of 3 runs kept"; "NO SETUP: 0 of 3 runs
 * kept" when every run's samples were flagged) into buf, or NULL. */
const char *lab_an_one_setup_flag(const struct lab_an_point *p, char *buf, size_t len);

/* The most runs of a point lab_an_runs_apart looks at (run labels 0 .. 4 x this): a config's
 * `runs` at most (it looked at 64 of 100 and missed a run 50x the others at run 80). */
#define LAB_AN_APART_RUNS 1000

enum { LAB_AN_APART_NONE, LAB_AN_APART_FAR, LAB_AN_APART_CLUSTERS };

/* How a point's run means (its setups) fall apart (levels_apart.c). */
struct lab_an_apart {
	int kind;    /* LAB_AN_APART_* */
	int nruns;   /* runs with used samples */
	int run;     /* FAR: the far run's number (samples.csv's run column) and mean, */
	double mean; /* the other runs' means from lo to hi */
	double lo, hi;
	double c[6]; /* CLUSTERS: the low side's count, lowest, highest mean; the high side's */
};

/* Whether point p's run means (3 or more runs with used samples; cost means only) fall apart:
 * one run's mean farther from the median of the others than 3 times their range and 10 % of
 * it (FAR), else two clusters, the widest gap leaving 2 or more runs each side over 3 times
 * either side's spread and 10 % of the median (CLUSTERS). Returns a->kind. */
int lab_an_runs_apart(const struct lab_an_point *p, struct lab_an_apart *a);
/* A table row's flag for such a point ("RUN APART: run 2 at 0.79 ns/op, the other 4 at 0.34 ..
 * 0.37 ns/op") into buf, or NULL; the means in unit, else p's own (none when NULL too). */
const char *lab_an_runs_apart_flag(const struct lab_an_point *p, const char *unit, char *buf,
                                   size_t len);

/*
 * The ratio a/b of two points' mean costs (a speedup: a is the baseline) and its Fieller
 * interval into r (analyze/stats.h), after lab_an_levels_apply. Both with two or more runs:
 * from the run means ("runs"). One of them: the other's mean, measured in one setup, takes
 * besides its samples' variance the between-run variance of the one with runs, relative to its
 * mean, and that one's run count ("mixed": the spread within one setup says nothing of setups;
 * on samples alone such intervals covered 1 time in 4); the interval's df is then at most the
 * lender's runs - 1, the df of the one estimate both sides' variances rest on (Welch's, which
 * takes them as independent, covered 0.90 with 3 runs: precision33). Neither:
 * from the samples ("samples"). Returns the level; *lent (when not NULL): a between-run
 * variance above 0 was lent ("mixed" lends none when the runs' means agree).
 */
const char *lab_an_cost_ratio(const struct lab_an_point *a, const struct lab_an_point *b,
                              struct lab_an_ratio *r, int *lent);

/* The two means, the variances of the means and their observations lab_an_cost_ratio takes
 * (a of a, b of b), for a test of the same two means (lab compare's Welch p). */
struct lab_an_moments {
	double ma, va;
	size_t na;
	double mb, vb;
	size_t nb;
	int lent;      /* "mixed" with a between-run variance above 0 added to the one-run side */
	double df_max; /* lent: the lender's runs - 1 (lab_an_ratio_fieller_cap); else inf */
};
const char *lab_an_cost_moments(const struct lab_an_point *a, const struct lab_an_point *b,
                                struct lab_an_moments *m);
/* p's mean cost at its own level: of its run means with two or more runs, else of its samples. */
double lab_an_point_level_mean(const struct lab_an_point *p);

/* Whether p's level of record is its runs: two or more kept, with a run-level standard error. */
int lab_an_point_by_runs(const struct lab_an_point *p);

#endif
