/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Known answers for the per-point statistics, the speedup interval and Karp–Flatt. */
#include "analyze/compare.h"
#include "analyze/fit.h"
#include "analyze/stats.h"
#include "tests/testlib.h"

LAB_TEST(t_quantiles)
{
	/* Values from research/analyzer.md App. A (and any t table). */
	CHECK_NEAR(lab_an_t_quantile(0.95, 4), 2.776445, 1e-6);
	CHECK_NEAR(lab_an_t_quantile(0.95, 9), 2.262157, 1e-6);
	CHECK_NEAR(lab_an_t_quantile(0.99, 9), 3.249836, 1e-6);
	CHECK_NEAR(lab_an_t_quantile(0.95, 1e9), 1.959964, 1e-6);
	CHECK(isnan(lab_an_t_quantile(0.95, 0)));
}

/* Hand-made vector: sorted 10..17, 30, 60. Type-7 quartiles 12.25 and 16.75 (IQR 4.5): mild
 * fences 5.5 / 23.5, severe fences -1.25 / 30.25, so 30 is a mild and 60 a severe outlier. */
LAB_TEST(tukey_and_descriptive)
{
	double x[] = {60, 10, 11, 12, 30, 13, 14, 15, 16, 17}, work[10];
	struct lab_an_stats st;

	lab_an_stats_compute(x, 10, work, &st);
	CHECK_EQ_U64(st.n, 10);
	CHECK_NEAR(st.q1, 12.25, 1e-12);
	CHECK_NEAR(st.q3, 16.75, 1e-12);
	CHECK_EQ_U64(st.outliers_mild, 1);
	CHECK_EQ_U64(st.outliers_severe, 1);
	CHECK_NEAR(st.mean, 19.8, 1e-12);
	CHECK_NEAR(st.median, 14.5, 1e-12);
	CHECK_NEAR(st.p95, 46.5, 1e-12);
	CHECK_NEAR(st.mad, 1.4826 * 2.5, 1e-12);
	CHECK_NEAR(st.min, 10, 0);
	CHECK_NEAR(st.max, 60, 0);
	CHECK_NEAR(x[0], 60, 0); /* the input is not reordered */
	/* sd of the vector by the two-pass formula, se and the t-interval. */
	CHECK_NEAR(st.sd, 15.200877167672484, 1e-9);
	CHECK_NEAR(st.se, st.sd / sqrt(10), 1e-12);
	CHECK_NEAR(st.ci95_hi - st.mean, 2.262157 * st.se, 1e-5);
	CHECK_NEAR(st.ci99_hi - st.mean, 3.249836 * st.se, 1e-5);
	CHECK_NEAR(st.cv, st.sd / st.mean, 1e-12);
}

LAB_TEST(one_rep_and_zero_variance)
{
	double one[] = {5}, same[] = {2, 2, 2, 2}, work[4];
	struct lab_an_stats st;
	struct lab_an_ratio r;

	lab_an_stats_compute(one, 1, work, &st);
	CHECK_EQ_U64(st.n, 1);
	CHECK_NEAR(st.sd, 0, 0);
	CHECK_NEAR(st.ci95_lo, 5, 0);
	CHECK_NEAR(st.ci95_hi, 5, 0);
	CHECK_EQ_U64(st.outliers_mild + st.outliers_severe, 0);
	lab_an_stats_compute(same, 4, work, &st);
	CHECK_NEAR(st.sd, 0, 0);
	CHECK_NEAR(st.ci99_hi, 2, 0);
	CHECK_NEAR(st.mad, 0, 0);
	/* A ratio with one repetition on a side has no interval; zero variance collapses it. */
	lab_an_ratio_fieller(4, 0, 1, 2, 0.01, 5, 0.95, &r);
	CHECK(!r.has_ci);
	CHECK_NEAR(r.est, 2, 1e-15);
	lab_an_ratio_fieller(4, 0, 4, 2, 0, 4, 0.95, &r);
	CHECK(r.has_ci);
	CHECK_NEAR(r.lo, 2, 0);
	CHECK_NEAR(r.hi, 2, 0);
}

LAB_TEST(fieller_interval)
{
	struct lab_an_ratio r, naive;
	double t;

	/* a = 10 (se 0.2), b = 2 (se 0.05), 5 reps each. */
	lab_an_ratio_fieller(10, 0.04, 5, 2, 0.0025, 5, 0.95, &r);
	CHECK(r.has_ci && !r.unbounded);
	CHECK_NEAR(r.est, 5, 1e-12);
	CHECK(r.lo < 5 && r.hi > 5);
	/* Welch df on relative variances: ra = 4e-4, rb = 6.25e-4. */
	CHECK_NEAR(r.df, (4e-4 + 6.25e-4) * (4e-4 + 6.25e-4) / ((16e-8 + 39.0625e-8) / 4), 1e-9);
	/* The closed form of research/analyzer.md §2.2. */
	t = lab_an_t_quantile(0.95, r.df);
	{
		double g = t * t * 0.0025 / 4;
		double half = t / 2 * sqrt(0.04 * (1 - g) + 25 * 0.0025);

		CHECK_NEAR(r.lo, (5 - half) / (1 - g), 1e-12);
		CHECK_NEAR(r.hi, (5 + half) / (1 - g), 1e-12);
	}
	/* The naive interval (baseline exact) is narrower. */
	lab_an_ratio_naive(10, 2, 0.0025, 5, 0.95, &naive);
	CHECK(naive.hi - naive.lo < r.hi - r.lo);
	/* A denominator not significantly non-zero gives an unbounded set. */
	lab_an_ratio_fieller(10, 0.04, 5, 0.1, 0.01, 5, 0.95, &r);
	CHECK(r.unbounded);
}

LAB_TEST(karp_flatt_identities)
{
	/* Under Amdahl e(N) = f; under USL e(N) = sigma + kappa N (research/analyzer.md §2.6). */
	for (int N = 2; N <= 64; N *= 2) {
		double f = 0.07, s = 0.05, k = 0.002;
		double sa = 1 / (f + (1 - f) / N);
		double su = N / (1 + s * (N - 1) + k * N * (N - 1));
		double xu[3] = {1, s, k}, xa[2] = {1, f};

		CHECK_NEAR(lab_an_karp_flatt(sa, N), f, 1e-12);
		CHECK_NEAR(lab_an_karp_flatt(su, N), s + k * N, 1e-12);
		CHECK_NEAR(lab_an_model_eval(LAB_AN_USL, xu, 1) /
		               lab_an_model_eval(LAB_AN_USL, xu, N),
		           su, 1e-12);
		CHECK_NEAR(lab_an_model_eval(LAB_AN_AMDAHL, xa, 1) /
		               lab_an_model_eval(LAB_AN_AMDAHL, xa, N),
		           sa, 1e-12);
	}
	CHECK(isnan(lab_an_karp_flatt(1, 1)));
}

LAB_TEST(welch_p_and_verdicts)
{
	CHECK_NEAR(lab_an_welch_p(1, 0.01, 5, 1, 0.01, 5), 1, 1e-12);
	CHECK(lab_an_welch_p(1, 0.0001, 5, 2, 0.0001, 5) < 1e-6);
	CHECK_NEAR(lab_an_welch_p(1, 0, 1, 2, 0, 5), 1, 0); /* one rep: no test */
	CHECK_EQ_STR(lab_an_compare_verdict(0.2, -0.5, -0.2, 0.01), "no change");
	CHECK_EQ_STR(lab_an_compare_verdict(0.01, -0.05, -0.02, 0.01), "improved");
	CHECK_EQ_STR(lab_an_compare_verdict(0.01, 0.02, 0.05, 0.01), "regressed");
	CHECK_EQ_STR(lab_an_compare_verdict(0.01, -0.02, -0.005, 0.01), "within noise");
	CHECK_EQ_STR(lab_an_compare_verdict(0.01, 0.005, 0.02, 0.01), "within noise");
}
