/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fits: exact recovery on noise-free data, codahale/usl known answers, refusals, model choice. */
#include "analyze/analysis.h"
#include "analyze/fit.h"
#include "analyze/stats.h"
#include "tests/testlib.h"

/* Noise-free samples of model x at the given thread counts, reps copies each. */
static size_t fit_synth(enum lab_an_model m, const double *x, const int *N, size_t nN, int reps,
                        double *t, double *y)
{
	size_t k = 0;

	for (size_t i = 0; i < nN; i++)
		for (int r = 0; r < reps; r++) {
			t[k] = N[i];
			y[k++] = lab_an_model_eval(m, x, N[i]);
		}
	return k;
}

LAB_TEST(exact_recovery_noise_free)
{
	static const int N[] = {1, 2, 4, 8, 12, 16, 24, 32, 48};
	double t[64], y[64], xa[2] = {3.5, 0.07}, xu[3] = {10, 0.05, 0.002}, xg[2] = {2, 0.1};
	struct lab_an_fit fit;
	struct lab_an_peak pk;
	size_t n;

	lab_an_gsl_quiet();
	n = fit_synth(LAB_AN_AMDAHL, xa, N, 9, 3, t, y);
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[0], 3.5, 1e-9);
	CHECK_NEAR(fit.x[1], 0.07, 1e-9);
	CHECK_NEAR(fit.hi[1] - fit.lo[1], 0, 1e-6); /* chi2 = 0: the interval collapses */

	n = fit_synth(LAB_AN_USL, xu, N, 9, 2, t, y);
	REQUIRE(lab_an_fit_run(LAB_AN_USL, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[0], 10, 1e-8);
	CHECK_NEAR(fit.x[1], 0.05, 1e-9);
	CHECK_NEAR(fit.x[2], 0.002, 1e-11);
	lab_an_usl_peak(&fit, &pk);
	CHECK_NEAR(pk.n_star, sqrt(0.95 / 0.002), 1e-6);

	n = fit_synth(LAB_AN_GUSTAFSON, xg, N, 9, 1, t, y);
	REQUIRE(lab_an_fit_run(LAB_AN_GUSTAFSON, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[0], 2, 1e-8);
	CHECK_NEAR(fit.x[1], 0.1, 1e-9);
}

/*
 * codahale/usl (Go, MIT), commit 513b3f3: cmd/usl/example.csv with the README's result
 * (sigma 0.0277299, kappa 0.000104343, lambda 89.9878, max concurrency 96) and model_test.go's
 * 32 measurements (sigma 0.02671591, kappa 7.690945e-4, lambda 995.6486, max concurrency 35).
 * Their fit is unweighted least squares on throughput X(N) = lambda N / D(N).
 */
static const double usl_readme[][2] = {{1, 65},     {18, 996},   {36, 1652}, {72, 1853},
                                       {108, 1829}, {144, 1775}, {216, 1702}};
static const double usl_model_test[] = {
    955.16,   1878.91,  2688.01,  3548.68,  4315.54,  5130.43,  5931.37, 6531.08,
    7219.8,   7867.61,  8278.71,  8646.7,   9047.84,  9426.55,  9645.37, 9897.24,
    10097.6,  10240.5,  10532.39, 10798.52, 11151.43, 11518.63, 11806,   12089.37,
    12075.41, 12177.29, 12211.41, 12158.93, 12155.27, 12118.04, 12140.4, 12074.39};

LAB_TEST(codahale_usl_reference)
{
	double t[32], y[32];
	struct lab_an_fit fit;
	struct lab_an_peak pk;

	lab_an_gsl_quiet();
	for (int i = 0; i < 7; i++) {
		t[i] = usl_readme[i][0];
		y[i] = usl_readme[i][1];
	}
	REQUIRE(lab_an_fit_run(LAB_AN_USL_THROUGHPUT, t, y, 7, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[1], 0.0277299, 2e-6);
	CHECK_NEAR(fit.x[2], 0.000104343, 2e-8);
	CHECK_NEAR(fit.x[0], 89.9878, 2e-3);
	lab_an_usl_peak(&fit, &pk);
	CHECK_EQ_I64((long long)floor(pk.n_star), 96);

	for (int i = 0; i < 32; i++) {
		t[i] = i + 1;
		y[i] = usl_model_test[i];
	}
	REQUIRE(lab_an_fit_run(LAB_AN_USL_THROUGHPUT, t, y, 32, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[1], 0.02671591, 1e-6);
	CHECK_NEAR(fit.x[2], 7.690945e-4, 1e-8);
	CHECK_NEAR(fit.x[0], 995.6486, 1e-3);
	lab_an_usl_peak(&fit, &pk);
	CHECK_EQ_I64((long long)floor(pk.n_star), 35);
	CHECK(pk.retrograde);

	/* The lab's own cost-domain fit (weights 1/c^2) on 1/X lands near the same answer. */
	for (int i = 0; i < 32; i++)
		y[i] = 1 / usl_model_test[i];
	REQUIRE(lab_an_fit_run(LAB_AN_USL, t, y, 32, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[1], 0.0267, 0.01);
	CHECK_NEAR(fit.x[2], 7.69e-4, 2e-4);
}

LAB_TEST(refuses_too_few_thread_counts)
{
	double t[] = {1, 1, 2, 2, 4, 4}, y[] = {4, 4.1, 2.1, 2.2, 1.2, 1.1};
	struct lab_an_fit fit;

	lab_an_gsl_quiet();
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, 6, &fit) == 0);
	CHECK(!fit.ok);
	CHECK(strstr(fit.reason, "at least 4 distinct thread counts, has 3") != NULL);
	REQUIRE(lab_an_fit_run(LAB_AN_USL, t, y, 2, &fit) == 0);
	CHECK(!fit.ok);
	CHECK(strstr(fit.reason, "has 1") != NULL);
	y[3] = -1;
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, 6, &fit) == 0);
	CHECK(!fit.ok);
}

/* Exactly linear costs (c(N) = c(1) / N) fit f = 0 [0, 0], not 5.5e-18 with a "max speedup" of
 * 1.8e17; flat costs fit f = 1. */
LAB_TEST(exact_fit_lands_on_the_bound)
{
	double t[] = {1, 1, 2, 2, 4, 4, 8, 8}, y[8], z[8];
	struct lab_an_fit fit;

	for (size_t i = 0; i < 8; i++) {
		y[i] = 10.0 / t[i];
		z[i] = 10.0;
	}
	lab_an_gsl_quiet();
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, 8, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK(fit.x[1] == 0 && fit.lo[1] == 0 && fit.hi[1] == 0);
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, z, 8, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK(fit.x[1] == 1 && fit.hi[1] == 1);
}

LAB_TEST(model_choice_and_peak_rule)
{
	static const int N[] = {1, 2, 4, 8, 16, 32};
	double t[64], y[64], xa[2] = {1, 0.05}, xu[3] = {1, 0.05, 0.004};
	struct lab_an_fit a, u;
	struct lab_an_choice ch;
	struct lab_an_peak pk;
	size_t n;

	lab_an_gsl_quiet();
	/* Amdahl truth with a little deterministic jitter: USL not chosen, no retrograde. */
	n = fit_synth(LAB_AN_AMDAHL, xa, N, 6, 4, t, y);
	for (size_t i = 0; i < n; i++)
		y[i] *= 1 + 0.01 * ((double)((i * 7) % 5) - 2);
	REQUIRE(!lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &a) && a.ok);
	REQUIRE(!lab_an_fit_run(LAB_AN_USL, t, y, n, &u) && u.ok);
	lab_an_fit_choose(&a, &u, &ch);
	CHECK(ch.ok);
	CHECK(ch.chosen == LAB_AN_AMDAHL);
	CHECK(ch.p_value >= 0.05);
	lab_an_usl_peak(&u, &pk);
	CHECK(!pk.retrograde);
	/* USL truth: chosen, retrograde, N* near sqrt(0.95/0.004) = 15.4. */
	n = fit_synth(LAB_AN_USL, xu, N, 6, 4, t, y);
	for (size_t i = 0; i < n; i++)
		y[i] *= 1 + 0.01 * ((double)((i * 7) % 5) - 2);
	REQUIRE(!lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &a) && a.ok);
	REQUIRE(!lab_an_fit_run(LAB_AN_USL, t, y, n, &u) && u.ok);
	lab_an_fit_choose(&a, &u, &ch);
	CHECK(ch.chosen == LAB_AN_USL);
	CHECK(ch.aicc_usl < ch.aicc_amdahl);
	lab_an_usl_peak(&u, &pk);
	CHECK(pk.retrograde);
	CHECK(pk.lo < 15.41 && pk.hi > 15.41);
}

/* A USL peak is past one thread or there is none: sigma + kappa >= 1 puts sqrt((1 - sigma) /
 * kappa) at or below 1 ("peak N* = 0.7" was printed for sigma 0.48, kappa 1.0), where the
 * throughput is already highest at N = 1. */
LAB_TEST(usl_peak_below_one_thread_is_none)
{
	struct lab_an_fit u = {.model = LAB_AN_USL, .ok = 1, .df_ci = 10};
	struct lab_an_peak pk;

	u.x[1] = 0.4826, u.x[2] = 1.002, u.lo[2] = 0.9, u.hi[2] = 1.1;
	u.cov[1][1] = u.cov[2][2] = 1e-4;
	lab_an_usl_peak(&u, &pk);
	CHECK(pk.no_peak);
	CHECK(!pk.retrograde);
	CHECK(isnan(pk.n_star));
	u.x[1] = 1 - 1e-16, u.x[2] = 1e-9, u.lo[2] = 1e-10; /* sigma just under 1 */
	lab_an_usl_peak(&u, &pk);
	CHECK(pk.no_peak && isnan(pk.n_star));
	u.x[1] = 1.2, u.x[2] = -0.1; /* sigma over 1, kappa below 0 */
	lab_an_usl_peak(&u, &pk);
	CHECK(pk.no_peak);
	u.x[1] = 0.05, u.x[2] = 0.004, u.lo[2] = 0.003; /* N* = 15.4 */
	lab_an_usl_peak(&u, &pk);
	CHECK(!pk.no_peak && pk.retrograde);
	CHECK_NEAR(pk.n_star, sqrt(0.95 / 0.004), 1e-9);
}

/* The throughput form of Amdahl (the absolute objective on throughput input) recovers its truth;
 * the absolute objective on cost gives the same estimates as the relative one on noise-free
 * data, and records which it used. */
LAB_TEST(throughput_amdahl_and_objective)
{
	static const int N[] = {1, 2, 4, 8, 16, 32};
	double t[64], y[64], xt[2] = {250, 0.04}, xa[2] = {3.5, 0.07};
	struct lab_an_fit fit;
	size_t n;

	lab_an_gsl_quiet();
	n = fit_synth(LAB_AN_AMDAHL_THROUGHPUT, xt, N, 6, 2, t, y);
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL_THROUGHPUT, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK_NEAR(fit.x[0], 250, 1e-7);
	CHECK_NEAR(fit.x[1], 0.04, 1e-10);
	CHECK(fit.objective == LAB_AN_OBJ_ABSOLUTE); /* throughput forms are always unweighted */
	n = fit_synth(LAB_AN_AMDAHL, xa, N, 6, 2, t, y);
	REQUIRE(lab_an_fit_run_obj(LAB_AN_AMDAHL, LAB_AN_OBJ_ABSOLUTE, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK(fit.objective == LAB_AN_OBJ_ABSOLUTE);
	CHECK_NEAR(fit.x[1], 0.07, 1e-10);
	CHECK_EQ_STR(lab_an_objective_name(fit.objective), "absolute");
}

/*
 * Lack of fit by hand. Amdahl truth c1 = 2, f = 0.1 at N = 1, 2, 4, 8; three repetitions at
 * mean*(1 - d), mean, mean*(1 + d), unweighted (absolute). The means lie on the curve, so the
 * fit is the truth, the lack-of-fit sum is 0 and F = 0 with (4 - 2, 12 - 4) df. Moving the N = 8
 * triple up by a constant puts it off the curve: F grows and p falls below 0.05.
 */
LAB_TEST(lack_of_fit_by_hand)
{
	static const double N[] = {1, 2, 4, 8}, d = 0.01;
	double t[12], y[12], x[2] = {2, 0.1};
	struct lab_an_fit fit;

	lab_an_gsl_quiet();
	for (size_t i = 0; i < 4; i++)
		for (int r = 0; r < 3; r++) {
			t[3 * i + r] = N[i];
			y[3 * i + r] =
			    lab_an_model_eval(LAB_AN_AMDAHL, x, N[i]) * (1 + d * (r - 1));
		}
	REQUIRE(lab_an_fit_run_obj(LAB_AN_AMDAHL, LAB_AN_OBJ_ABSOLUTE, t, y, 12, &fit) == 0);
	REQUIRE(fit.ok && fit.lof.ok);
	CHECK_NEAR(fit.lof.df1, 2, 0);
	CHECK_NEAR(fit.lof.df2, 8, 0);
	CHECK_NEAR(fit.lof.F, 0, 1e-9);
	CHECK_NEAR(fit.lof.p, 1, 1e-9);
	for (int r = 0; r < 3; r++)
		y[9 + r] += 0.2;
	REQUIRE(lab_an_fit_run_obj(LAB_AN_AMDAHL, LAB_AN_OBJ_ABSOLUTE, t, y, 12, &fit) == 0);
	REQUIRE(fit.ok && fit.lof.ok);
	CHECK(fit.lof.F > 10);
	CHECK(fit.lof.p < 0.05);
	{
		char f[64];

		CHECK(strncmp(lab_an_lof_f_text(&fit.lof, f, sizeof(f)), "F = ", 4) == 0);
		/* repetitions that agree exactly (an edited file): pure error 0, F infinite, said
		 * in words rather than "F = inf" */
		for (size_t i = 0; i < 12; i++)
			y[i] = y[i - i % 3];
		REQUIRE(lab_an_fit_run_obj(LAB_AN_AMDAHL, LAB_AN_OBJ_ABSOLUTE, t, y, 12, &fit) ==
		        0);
		REQUIRE(fit.ok && fit.lof.ok);
		CHECK(isinf(fit.lof.F));
		CHECK_EQ_STR(lab_an_lof_f_text(&fit.lof, f, sizeof(f)),
		             "F unbounded (no spread within the points)");
	}
	/* One sample per N: no pure error, no test. */
	for (size_t i = 0; i < 4; i++) {
		t[i] = N[i];
		y[i] = lab_an_model_eval(LAB_AN_AMDAHL, x, N[i]) * (1 + d * (double)(i % 2));
	}
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, 4, &fit) == 0);
	REQUIRE(fit.ok);
	CHECK(!fit.lof.ok);
}

/*
 * Amdahl's f is a fraction: its interval stays inside [0, 1]. Nearly serial data (f = 0.97,
 * +-4 % noise at 5 thread counts, 2 reps) give a t-interval f +- t se reaching past 1: it is
 * kept inside [0, 1] and so reaches 1 (the data cannot tell f = 0.97 from 1; a logit interval,
 * open at 1, never held a truth of 1). Data that get slower with threads beyond the noise
 * (f > 1 with its whole interval past 1: not Amdahl at all) get no interval.
 */
LAB_TEST(amdahl_f_interval_inside_0_1)
{
	static const int N[] = {1, 2, 4, 8, 16};
	static const double noise[] = {1.04, 0.96, 0.97, 1.03, 1.04, 0.96, 0.96, 1.04, 1.03, 0.97};
	double t[10], y[10], x[2] = {10, 0.97};
	struct lab_an_fit fit;
	size_t n = 0;

	lab_an_gsl_quiet();
	for (size_t i = 0; i < 5; i++)
		for (int r = 0; r < 2; r++, n++) {
			t[n] = N[i];
			y[n] = lab_an_model_eval(LAB_AN_AMDAHL, x, N[i]) * noise[n];
		}
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	fprintf(stderr, "f = %.4f se %.4f [%.4f, %.4f]\n", fit.x[1], fit.se[1], fit.lo[1],
	        fit.hi[1]);
	CHECK(fit.x[1] + lab_an_t_quantile(0.95, fit.dof) * fit.se[1] > 1); /* the old interval */
	CHECK(fit.hi[1] == 1 && fit.lo[1] > 0);
	CHECK(fit.lo[1] < fit.x[1] && fit.x[1] < fit.hi[1]);
	CHECK(!fit.by_means); /* the means lie on the curve: the samples are the unit */

	/* Cost rising with threads: f = 1.3, so c(16) = 1.28 c(1). */
	x[1] = 1.3;
	for (size_t i = 0; i < n; i++)
		y[i] = lab_an_model_eval(LAB_AN_AMDAHL, x, t[i]) * noise[i];
	REQUIRE(lab_an_fit_run(LAB_AN_AMDAHL, t, y, n, &fit) == 0);
	REQUIRE(fit.ok);
	fprintf(stderr, "f = %.4f se %.4f [%.4f, %.4f]\n", fit.x[1], fit.se[1], fit.lo[1],
	        fit.hi[1]);
	CHECK(fit.x[1] > 1);
	/* An interval wholly past 1 is none (a clipped one, [1, 1], missed the estimate). */
	CHECK(isnan(fit.lo[1]) && isnan(fit.hi[1]));
	/* ... and no "max speedup 1/f" below 1 with an interval that misses it. */
	static struct lab_an_series ser;
	char text[160];
	ser.amdahl = fit;
	fprintf(stderr, "%s\n", lab_an_amdahl_bound_text(&ser, text, sizeof(text)));
	CHECK(strstr(text, "f > 1 beyond its noise (slower with more threads)") != NULL);
}

/* A deterministic N(1, sd) draw (Box-Muller on a 64-bit LCG). */
static double tf_gauss(uint64_t *s, double sd)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u[i] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	}
	return 1 + sd * sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/*
 * The cost at N = 1 is positive: its interval stops at 0. USL-shaped costs with 25 % noise per
 * point and 1 % per sample (5 thread counts, 5 reps) fail the lack-of-fit test, so the points'
 * means are the unit, with 2 df: the t-interval of c1 reached below 0 (-480 for a cost of
 * about 1,500) in a third of such series.
 */
LAB_TEST(c1_interval_stops_at_0)
{
	static const int N[] = {1, 2, 3, 4, 6};
	enum lab_an_model models[] = {LAB_AN_USL, LAB_AN_AMDAHL};
	double t[25], y[25];
	unsigned below = 0;
	uint64_t s = 42;

	lab_an_gsl_quiet();
	for (int series = 0; series < 40; series++) {
		size_t n = 0;
		for (size_t i = 0; i < 5; i++) {
			double point = tf_gauss(&s, 0.25);
			for (int r = 0; r < 5; r++, n++) {
				t[n] = N[i];
				y[n] = 1000 * (1 + 0.3 * (N[i] - 1) + 0.05 * N[i] * (N[i] - 1)) /
				       N[i] * fabs(point) * tf_gauss(&s, 0.01);
			}
		}
		for (int m = 0; m < 2; m++) {
			struct lab_an_fit fit;
			double c1, lo, hi;

			REQUIRE(lab_an_fit_run(models[m], t, y, n, &fit) == 0);
			if (!fit.ok)
				continue;
			if (fit.x[0] - lab_an_t_quantile(0.95, fit.df_ci) * fit.se[0] < 0)
				below++; /* where the t-interval reached below 0 */
			lab_an_fit_c1(&fit, &c1, &lo, &hi);
			CHECK(lo >= 0 && lo <= c1 && c1 <= hi);
		}
	}
	fprintf(stderr, "%u of 80 fits had a t-interval of c1 below 0\n", below);
	CHECK(below > 0); /* the case is exercised */
}
