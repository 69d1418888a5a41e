/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Monte-Carlo coverage of the 95 % intervals (research/analyzer.md §2.9): synthetic data with
 * known truth, multiplicative Gaussian noise, fixed seed, M = 400 data sets per scenario, the
 * production code path (lab_an_stats_compute, lab_an_ratio_fieller, lab_an_fit_run). M = 1000
 * data sets per scenario (the issue asks for >= 400) so the band can be DESIGN.md §9's
 * 0.95 +- 3 sqrt(0.95 0.05 / 1000) = [0.93, 0.97], inside the issue's [0.92, 0.98]. Checked: f,
 * sigma, kappa, N*, the measured speedup's Fieller interval and the fitted model's delta-method
 * speedup band at one thread count. The naive speedup interval that
 * treats the baseline as exact must under-cover (below 0.92): the guard that the baseline's
 * variance really reaches the interval.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/fit.h"
#include "analyze/stats.h"
#include "tests/testlib.h"

#define MC_M   1000
#define MC_LO  0.93
#define MC_HI  0.97
#define MC_MAX 512

struct mc_scenario {
	const char *name;
	enum lab_an_model truth;
	double x[3]; /* c1, f or sigma, kappa */
	const int *N;
	size_t nN;
	int reps;
	double cv;
	int probe; /* the thread count whose speedup interval is checked */
};

struct mc_counts {
	int f, sigma, kappa, n_star, s_fieller, s_naive, s_model, usl_ok, amdahl_ok;
};

static int mc_in(double v, double lo, double hi)
{
	return lo <= v && v <= hi;
}

/* One data set: fits and the speedup interval at the probe thread count. */
static void mc_one(const struct mc_scenario *sc, gsl_rng *rng, struct mc_counts *c)
{
	double t[MC_MAX], y[MC_MAX], work[64], s_true;
	struct lab_an_stats base, probe;
	struct lab_an_ratio r;
	struct lab_an_fit fit;
	struct lab_an_peak pk;
	double sm, sm_lo, sm_hi;
	size_t n = 0, b0 = 0, p0 = 0;

	for (size_t i = 0; i < sc->nN; i++) {
		double mu = lab_an_model_eval(sc->truth, sc->x, sc->N[i]);

		if (sc->N[i] == 1)
			b0 = n;
		if (sc->N[i] == sc->probe)
			p0 = n;
		for (int k = 0; k < sc->reps; k++) {
			t[n] = sc->N[i];
			y[n++] = mu * (1 + sc->cv * gsl_ran_gaussian(rng, 1));
		}
	}
	lab_an_stats_compute(y + b0, (size_t)sc->reps, work, &base);
	lab_an_stats_compute(y + p0, (size_t)sc->reps, work, &probe);
	s_true =
	    lab_an_model_eval(sc->truth, sc->x, 1) / lab_an_model_eval(sc->truth, sc->x, sc->probe);
	lab_an_ratio_fieller(base.mean, base.se * base.se, base.n, probe.mean, probe.se * probe.se,
	                     probe.n, 0.95, &r);
	c->s_fieller += mc_in(s_true, r.lo, r.hi);
	lab_an_ratio_naive(base.mean, probe.mean, probe.se * probe.se, probe.n, 0.95, &r);
	c->s_naive += mc_in(s_true, r.lo, r.hi);
	if (lab_an_fit_run(sc->truth, t, y, n, &fit) || !fit.ok)
		return;
	lab_an_fit_speedup(&fit, sc->probe, &sm, &sm_lo, &sm_hi);
	c->s_model += mc_in(s_true, sm_lo, sm_hi);
	if (sc->truth == LAB_AN_AMDAHL) {
		c->amdahl_ok++;
		c->f += mc_in(sc->x[1], fit.lo[1], fit.hi[1]);
	} else {
		c->usl_ok++;
		c->sigma += mc_in(sc->x[1], fit.lo[1], fit.hi[1]);
		c->kappa += mc_in(sc->x[2], fit.lo[2], fit.hi[2]);
		lab_an_usl_peak(&fit, &pk);
		c->n_star += mc_in(sqrt((1 - sc->x[1]) / sc->x[2]), pk.lo, pk.hi);
	}
}

static void mc_check(const char *sc, const char *what, int hits, int lo_only)
{
	double cov = (double)hits / MC_M;

	fprintf(stderr, "  %-24s %-16s coverage %.3f\n", sc, what, cov);
	if (lo_only ? !(cov < MC_LO) : !(cov >= MC_LO && cov <= MC_HI))
		TL__FAIL("%s %s: coverage %.3f outside %s", sc, what, cov,
		         lo_only ? "(< 0.93 expected: naive must under-cover)" : "[0.93, 0.97]");
}

static void mc_run(const struct mc_scenario *sc, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct mc_counts c = {0};

	lab_an_gsl_quiet();
	gsl_rng_set(rng, seed);
	for (int m = 0; m < MC_M; m++)
		mc_one(sc, rng, &c);
	gsl_rng_free(rng);
	if (sc->truth == LAB_AN_AMDAHL) {
		CHECK_EQ_I64(c.amdahl_ok, MC_M);
		mc_check(sc->name, "f", c.f, 0);
	} else {
		CHECK_EQ_I64(c.usl_ok, MC_M);
		mc_check(sc->name, "sigma", c.sigma, 0);
		mc_check(sc->name, "kappa", c.kappa, 0);
		mc_check(sc->name, "N*", c.n_star, 0);
	}
	mc_check(sc->name, "S(N) model band", c.s_model, 0);
	mc_check(sc->name, "S(N) Fieller", c.s_fieller, 0);
	mc_check(sc->name, "S(N) naive", c.s_naive, 1);
}

static const int mc_pow2[] = {1, 2, 4, 8, 16, 32};
static const int mc_usl_N[] = {1, 2, 4, 8, 12, 16, 24, 32, 48};

LAB_TEST(coverage_amdahl_cv3_r5)
{
	struct mc_scenario sc = {
	    "amdahl f=.05 cv=3% R=5", LAB_AN_AMDAHL, {1, 0.05, 0}, mc_pow2, 6, 5, 0.03, 8};

	mc_run(&sc, 1);
}

LAB_TEST(coverage_amdahl_cv5_r10)
{
	struct mc_scenario sc = {
	    "amdahl f=.2 cv=5% R=10", LAB_AN_AMDAHL, {1, 0.2, 0}, mc_pow2, 6, 10, 0.05, 8};

	mc_run(&sc, 2);
}

LAB_TEST(coverage_usl_cv3_r5)
{
	struct mc_scenario sc = {
	    "usl s=.05 k=.002 cv=3% R=5", LAB_AN_USL, {1, 0.05, 0.002}, mc_usl_N, 9, 5, 0.03, 16};

	mc_run(&sc, 3);
}

LAB_TEST(coverage_usl_cv4_r10)
{
	struct mc_scenario sc = {
	    "usl s=.05 k=.002 cv=4% R=10", LAB_AN_USL, {1, 0.05, 0.002}, mc_usl_N, 9, 10, 0.04, 16};

	mc_run(&sc, 4);
}

/*
 * Amdahl's f alone (red team, issue 20 round: a logit interval, open at 0 and 1, never held a
 * truth on a bound, and the samples of a point that carries noise of its own were taken for
 * independent draws). Each point gets a multiplicative offset of point_cv (one run's setup) and
 * each sample cv on top; *beyond counts fits whose interval misses [0, 1] wholly.
 */
static void mc_f_only(double f, double cv, double point_cv, unsigned long seed, int *cover,
                      int *beyond)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double x[2] = {1, f}, t[6 * 5], y[6 * 5];

	lab_an_gsl_quiet();
	gsl_rng_set(rng, seed);
	*cover = *beyond = 0;
	for (int m = 0; m < MC_M; m++) {
		struct lab_an_fit fit;
		size_t n = 0;

		for (size_t i = 0; i < 6; i++) {
			double mu = lab_an_model_eval(LAB_AN_AMDAHL, x, mc_pow2[i]) *
			            (1 + point_cv * gsl_ran_gaussian(rng, 1));

			for (int k = 0; k < 5; k++, n++) {
				t[n] = mc_pow2[i];
				y[n] = mu * (1 + cv * gsl_ran_gaussian(rng, 1));
			}
		}
		if (lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &fit) || !fit.ok)
			continue;
		*cover += mc_in(f, fit.lo[1], fit.hi[1]);
		*beyond += isnan(fit.lo[1]);
	}
	gsl_rng_free(rng);
}

/* A truth on a bound: the interval kept inside [0, 1] holds it whenever the t-interval does (at
 * least 95 %), and the fit says "beyond its noise" no more often than a one-sided 2.5 % test. */
LAB_TEST(coverage_amdahl_f_on_bounds)
{
	static const double truth[] = {0, 1};
	int cover, beyond;

	for (size_t i = 0; i < 2; i++) {
		mc_f_only(truth[i], 0.05, 0, 11 + i, &cover, &beyond);
		fprintf(stderr, "  amdahl f=%g cv=5%%: coverage %.3f, beyond [0, 1] %.3f\n",
		        truth[i], (double)cover / MC_M, (double)beyond / MC_M);
		CHECK((double)cover / MC_M >= MC_LO);
		CHECK((double)beyond / MC_M <= 0.05);
	}
}

/* Points with noise of their own (3 %) over 1 % sample noise: the lack-of-fit test finds it and
 * the intervals come from the points' means; from the samples they held f about 45 % of the
 * time. */
LAB_TEST(coverage_amdahl_point_noise)
{
	int cover, beyond;

	mc_f_only(0.05, 0.01, 0.03, 13, &cover, &beyond);
	mc_check("amdahl f=.05 point cv=3% cv=1%", "f", cover, 0);
}
