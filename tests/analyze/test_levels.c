/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Levels of variance and precision targets (issue 22). The variance decomposition on hand-worked
 * data, then a seeded Monte Carlo of a simulated two-level process (run offsets N(0, sb^2),
 * samples N(0, sw^2); no timing anywhere): with sb dominant the interval from run means covers
 * 93-97 % and the within-run interval far less; Stein's two-stage rule (what the runner does
 * under `precision =`, harness/precision.h) keeps 93-97 % at both levels, and the naive rule
 * (stop at the first n whose t-interval is narrow enough) is printed beside it.
 */
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/levels.h"
#include "analyze/levels_out.h"
#include "analyze/output.h"
#include "analyze/stats.h"
#include "harness/precision.h"
#include "tests/testlib.h"

#define MC_M  4000
#define MC_LO 0.93
#define MC_HI 0.97
#define MC_N  4096

LAB_TEST(balanced_by_hand)
{
	/* runs {1,2,3} and {4,5,6}: MSW = 1, MSB = 13.5, n0 = 3, sb^2 = 12.5/3 */
	double x[] = {1, 2, 3, 4, 5, 6}, scratch[18];
	int run[] = {0, 0, 0, 1, 1, 1};
	struct lab_an_levels lv;

	REQUIRE(lab_an_levels_compute(x, run, 6, scratch, &lv) == 0);
	CHECK_EQ_U64(lv.runs, 2);
	CHECK_NEAR(lv.var_within, 1, 1e-12);
	CHECK_NEAR(lv.var_between, 12.5 / 3, 1e-12);
	CHECK_NEAR(lv.between_share, (12.5 / 3) / (12.5 / 3 + 1), 1e-12);
	CHECK_NEAR(lv.mean, 3.5, 1e-12);
	/* run means 2 and 5: sd 2.1213, se 1.5, t(0.975, 1) = 12.7062 */
	CHECK_NEAR(lv.run_ci95_lo, 3.5 - 12.7062047 * 1.5, 1e-5);
	CHECK_NEAR(lv.run_ci95_hi, 3.5 + 12.7062047 * 1.5, 1e-5);
	CHECK(lv.within_ci95_hi - lv.within_ci95_lo < lv.run_ci95_hi - lv.run_ci95_lo);
}

LAB_TEST(unbalanced_and_one_run)
{
	/* labels in any order and unequal runs: n0 = (N - sum n_r^2 / N) / (K - 1) */
	double x[] = {10, 20, 11, 21, 12, 30, 9}, scratch[21];
	int run[] = {7, 3, 7, 3, 7, 5, 7};
	struct lab_an_levels lv;

	REQUIRE(lab_an_levels_compute(x, run, 7, scratch, &lv) == 0);
	CHECK_EQ_U64(lv.runs, 3);
	CHECK_NEAR(lv.n_per_run, (7 - (16 + 4 + 1) / 7.0) / 2, 1e-12);
	CHECK(lv.var_between > lv.var_within);
	/* run means 10.5, 20.5, 30; squared deviations within 5 + 0.5 + 0 over N - K = 4 */
	CHECK_NEAR(lv.mean, 61 / 3.0, 1e-12);
	CHECK_NEAR(lv.var_within, 5.5 / 4, 1e-12);
	/* no run column: one run, the between part unknown, no run-level interval */
	REQUIRE(lab_an_levels_compute(x, NULL, 7, scratch, &lv) == 0);
	CHECK_EQ_U64(lv.runs, 1);
	CHECK(isnan(lv.var_between) && isnan(lv.run_ci95_lo));
	CHECK(lv.var_within > 0 && lv.within_ci95_lo < lv.within_ci95_hi);
	/* runs that agree exactly: the between part is 0, never negative */
	double y[] = {1, 2, 1, 2}, s2[12];
	int r2[] = {0, 0, 1, 1};
	REQUIRE(lab_an_levels_compute(y, r2, 4, s2, &lv) == 0);
	CHECK_NEAR(lv.var_between, 0, 0);
	CHECK(lab_an_levels_n_opt(&lv, 10) == INFINITY);
	/* Precision red team: run means that agree exactly (a quantised p99, 864 or 800 ns, each
	 * run 864, 800, 800, 800: all means 816) gave [816, 816], and claims on both sides held.
	 * A run mean varies by at least var_within / n: MSW = 1024 over 12 samples. */
	double q[12], s3[36];
	int r3[12];
	for (int i = 0; i < 12; i++) {
		q[i] = i % 4 ? 800 : 864;
		r3[i] = i / 4;
	}
	REQUIRE(lab_an_levels_compute(q, r3, 12, s3, &lv) == 0);
	CHECK_NEAR(lv.mean, 816, 1e-9);
	CHECK_NEAR(lv.run_se, sqrt(1024.0 / 12), 1e-9);
	CHECK_NEAR(lv.run_ci95_hi - 816, lab_an_t_quantile(0.95, 2) * sqrt(1024.0 / 12), 1e-9);
	CHECK(lv.run_ci95_lo < 800 && lv.run_ci99_lo < lv.run_ci95_lo);
	/* runs of 4, 4 and 24 samples: the mean of the run means varies by MSW x (1/4 + 1/4 +
	 * 1/24) / 9, not MSW / 32 (review: [793.9, 838.1] held claims on both sides) */
	double u[32], s4[96];
	int r4[32];
	for (int i = 0; i < 32; i++) {
		u[i] = i % 4 ? 800 : 864;
		r4[i] = i < 4 ? 0 : i < 8 ? 1 : 2;
	}
	REQUIRE(lab_an_levels_compute(u, r4, 32, s4, &lv) == 0);
	CHECK_EQ_U64(lv.runs, 3);
	CHECK_NEAR(lv.run_se, sqrt(lv.var_within * (0.25 + 0.25 + 1 / 24.0) / 9), 1e-9);
}

/* A point of one run whose samples spread wide: the t-interval of its samples reaches below 0,
 * which a cost cannot. analysis.json printed within_run_ci95 [-2.5, 3.3] for a noop point of two
 * samples; the run-level path clipped it, the one-run path did not. */
LAB_TEST(within_run_interval_of_a_cost_stays_nonnegative)
{
	double cost[] = {0.5, 0.6, 40}, one[] = {7};
	unsigned char flagged[] = {0, 0, 0};
	struct lab_an_point pt[2] = {{.n = 3, .cost = cost, .flagged = flagged},
	                             {.n = 1, .cost = one, .flagged = flagged}};
	struct lab_an_data d = {.pt = pt, .npt = 2};
	struct lab_err err;

	REQUIRE(lab_an_levels_apply(&d, 0, &err) == 0);
	CHECK_EQ_U64(pt[0].levels.runs, 1);
	CHECK(pt[0].levels.within_ci95_lo >= 0);
	CHECK(pt[0].levels.within_ci95_hi > 40);
	/* one sample: no interval, and it stays unknown rather than becoming [0, NaN] */
	CHECK(isnan(pt[1].levels.within_ci95_lo) && isnan(pt[1].levels.within_ci95_hi));
}

/* Run labels compared by lab_an_levels_compute for n samples, each in its own run, in an order
 * that is neither sorted nor reversed. */
static unsigned long long lv_work(size_t n)
{
	double *x = malloc(n * sizeof(*x)), *scratch = malloc(3 * n * sizeof(*scratch));
	int *run = malloc(n * sizeof(*run));
	struct lab_an_levels lv = {0};
	unsigned long long before = lab_an_levels_compares(), w = 0;

	if (x && scratch && run) {
		for (size_t i = 0; i < n; i++) {
			x[i] = 1e6 + (double)((i * 7919) % 1000);
			run[i] = (int)((i * 7919) % n); /* n is a power of 2: a permutation */
		}
		if (lab_an_levels_compute(x, run, n, scratch, &lv) == 0 && lv.runs == n)
			w = lab_an_levels_compares() - before;
	}
	free(x);
	free(scratch);
	free(run);
	return w;
}

/* A point of 200 000 samples, each in its own run (hostile run labels), took 24 s: every sample
 * searched the labels seen so far. Work is counted at n and 4n, never timed: the search grew
 * x16, sorting grows about x5. */
LAB_TEST(runs_per_point_n_log_n)
{
	unsigned long long w1 = lv_work(1024), w4 = lv_work(4096);

	fprintf(stderr, "run labels compared: 1024 runs %llu, 4096 runs %llu (x%.2f)\n", w1, w4,
	        (double)w4 / (double)w1);
	REQUIRE(w1 > 0 && w4 > 0);
	CHECK(w4 <= 6 * w1);
	CHECK(w4 <= 14ULL * 4096);
}

LAB_TEST(precision_parse_and_stein)
{
	struct lab_err err;
	double f = -1;

	CHECK(lab_prec_parse("2%", &f, &err) == 0 && fabs(f - 0.02) < 1e-15);
	CHECK(lab_prec_parse(" 0.5 % ", &f, &err) == 0 && fabs(f - 0.005) < 1e-15);
	CHECK(lab_prec_parse("0.02", &f, &err) == 0 && fabs(f - 0.02) < 1e-15);
	CHECK(lab_prec_parse("off", &f, &err) == 0 && f == 0);
	CHECK(lab_prec_parse("80%", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_parse("2 percent", &f, &err) == -LAB_ECONFIG);
	/* strtod reads hex: refused as everywhere else; every spelling of zero means off */
	CHECK(lab_prec_parse("0x1p-6", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_parse("0x.04p0", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_parse("inf", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_parse("1e", &f, &err) == -LAB_ECONFIG);
	CHECK(strstr(err.msg, "0 means off") != NULL);
	static const char *const zeros[] = {"0", "0.0", "0e5", "-0", "0%", "0 %", ".0", "00"};
	for (size_t i = 0; i < sizeof(zeros) / sizeof(zeros[0]); i++) {
		f = -1;
		CHECK(lab_prec_parse(zeros[i], &f, &err) == 0 && f == 0);
	}
	CHECK(lab_prec_parse("2 %", &f, &err) == 0 && fabs(f - 0.02) < 1e-15);
	CHECK(lab_prec_parse("2e-2", &f, &err) == 0 && fabs(f - 0.02) < 1e-15);
	/* below the smallest double is no zero: it was off */
	CHECK(lab_prec_parse("1e-400", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_parse("1e400%", &f, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_key_check("fresh_process", "on", 1, &err) == 0);
	CHECK(lab_prec_key_check("fresh_process", "on", 2, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_key_check("runs", "3", 2, &err) == -LAB_ECONFIG);
	CHECK(lab_prec_key_check("reps", "3", 2, &err) == 0);
	/* (t(0.975, 9) s0 / d)^2 = (2.2622 * 5 / 1)^2 = 127.9 -> 128; never below the pilot */
	CHECK_EQ_U64(lab_prec_stein_n(10, 5, 1, 100000), 128);
	CHECK_EQ_U64(lab_prec_stein_n(10, 0.01, 1, 100000), 10);
	CHECK_EQ_U64(lab_prec_stein_n(10, 5, 1, 50), 50);
	CHECK(lab_prec_stein_halfwidth(10, 5, 128) <= 1);
	/* the same seed gives the same order, and every index once */
	unsigned a[10], b[10], seen = 0;
	for (unsigned i = 0; i < 10; i++)
		a[i] = b[i] = i;
	lab_prec_shuffle(a, 10, lab_prec_order_seed(1, 0));
	lab_prec_shuffle(b, 10, lab_prec_order_seed(1, 0));
	for (unsigned i = 0; i < 10; i++) {
		CHECK_EQ_U64(a[i], b[i]);
		seen |= 1u << a[i];
	}
	CHECK_EQ_U64(seen, 0x3ff);
}

/* The plan's estimate (issue 22): runs multiply a point's setups, a precision target costs at
 * most its budget beyond the part that always runs, and total_budget caps those extras. */
LAB_TEST(precision_estimate_and_total)
{
	double base = 0, extra = 0;
	struct lab_err err;

	lab_prec_point_estimate(2e9, 3, false, 20000000000ull, &base, &extra);
	CHECK_NEAR(base, 6e9, 0);
	CHECK_NEAR(extra, 0, 0);
	lab_prec_point_estimate(2e9, 1, true, 20000000000ull, &base, &extra);
	CHECK_NEAR(base, 8e9, 0);
	CHECK_NEAR(extra, 18e9, 0);
	/* a pilot that alone overruns the budget adds nothing */
	lab_prec_point_estimate(2e9, 3, true, 5000000000ull, &base, &extra);
	CHECK_NEAR(base, 14e9, 0);
	CHECK_NEAR(extra, 18e9, 0);
	CHECK_NEAR(lab_prec_total_estimate(14e9, 18e9, 0), 32e9, 0);
	CHECK_NEAR(lab_prec_total_estimate(14e9, 18e9, 20000000000ull), 20e9, 0);
	CHECK_NEAR(lab_prec_total_estimate(14e9, 18e9, 10000000000ull), 14e9, 0);
	CHECK_NEAR(lab_prec_total_estimate(14e9, 18e9, 60000000000ull), 32e9, 0);
	/* the runner's total check: 0 is no total; stop when the next one would overrun */
	CHECK(!lab_prec_total_spent(0, 1000, 1e12));
	CHECK(!lab_prec_total_spent(10000, 8000, 2000));
	CHECK(lab_prec_total_spent(10000, 8000, 2001));
	CHECK(lab_prec_key_check("total_budget", "10s", 2, &err) == -LAB_ECONFIG);
}

/* results-compare-runs-a (2 points of 3 runs) loaded, summarized and analyzed into d and a; with
 * one_run, the 2-thread point's runs 1 and 2 flagged first. False when a step failed. */
static bool lv_runs_fixture_scaled(struct lab_an_data *d, struct lab_an_analysis *a, bool one_run,
                                   double scale2)
{
	char dir[4096];
	struct lab_err err;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/results-compare-runs-a", testlib_srcdir());
	if (lab_an_data_load_dir(d, dir, &err))
		return false;
	for (size_t i = 0; i < d->npt; i++)
		for (size_t j = 0; d->pt[i].threads == 2 && d->pt[i].run && j < d->pt[i].n; j++) {
			d->pt[i].flagged[j] = one_run && d->pt[i].run[j] != 0;
			d->pt[i].cost[j] *= scale2;
		}
	return !lab_an_data_summarize(d, 0, &err) && !lab_an_levels_apply(d, 0, &err) &&
	       !lab_an_analysis_run(d, 0, a, &err) && a->ns == 1 && a->s[0].nrow == 2;
}

static bool lv_runs_fixture(struct lab_an_data *d, struct lab_an_analysis *a, bool one_run)
{
	return lv_runs_fixture_scaled(d, a, one_run, 1);
}

/* The 2-thread point's costs cut to a fifth: superlinear at N = 2, by its run means; on one
 * setup (its runs 1 and 2 flagged) the warning says so (precision33: it gave a cause with no
 * word of it where the lesson on the same point was inconclusive for that reason), and the
 * precision line of a target over runs reads no run-level interval, not the setup's own. */
LAB_TEST(superlinear_on_one_setup_is_said)
{
	static const char rj[] = "{\"precision_target\": 0.02, \"precision_achieved\": 0.3, "
	                         "\"samples\": 60, \"runs\": 3, \"runs_planned\": 3}";
	for (int one = 0; one < 2; one++) {
		struct lab_an_data d = {0};
		struct lab_an_analysis a = {0};
		const char *f = NULL;
		char buf[512];

		REQUIRE(lv_runs_fixture_scaled(&d, &a, one, 0.2));
		const struct lab_an_series *s = &a.s[0];
		CHECK(s->row[1].superlinear);
		for (size_t i = 0; i < s->nfinding; i++)
			if (strstr(s->finding[i], "superlinear at N = 2"))
				f = s->finding[i];
		REQUIRE(f != NULL);
		CHECK_EQ_I64(strstr(f, "on one setup's samples only (ONE SETUP") != NULL, one);
		CHECK_EQ_I64(strstr(f, "(efficiency interval above 1)") != NULL, !one);
		struct lab_an_point p = *s->row[1].pt;
		struct lab_an_json *j = NULL;
		struct lab_err err;
		REQUIRE(lab_an_json_parse("run.json", rj, strlen(rj), &j, &err) == 0);
		p.runjson = j;
		REQUIRE(lab_an_precision_line(&p, buf, sizeof(buf)) != NULL);
		CHECK_EQ_I64(
		    strstr(buf, "asked, no run-level interval (one setup kept: not met)") != NULL,
		    one);
		lab_an_json_free(j);
		lab_an_analysis_free(&a);
		lab_an_data_free(&d);
	}
}

/* lab compare at the mixed level (review34): old over 3 runs, new's 2-thread point one setup
 * (its runs 1 and 2 flagged, run.json's runs not said: planned once). Its p and interval are at
 * the old side's 2 df, not Welch's, which took the lent variance as independent. */
LAB_TEST(compare_at_the_mixed_level_caps_df)
{
	struct lab_an_data d0 = {0}, d1 = {0};
	struct lab_an_analysis a0 = {0}, a1 = {0};
	struct lab_an_compare c;
	struct lab_an_moments m;
	struct lab_an_ratio q;
	struct lab_err err;
	int seen = 0;

	REQUIRE(lv_runs_fixture(&d0, &a0, false));
	REQUIRE(lv_runs_fixture(&d1, &a1, true));
	for (size_t i = 0; i < d1.npt; i++)
		if (d1.pt[i].threads == 2)
			d1.pt[i].runjson = NULL; /* planned once: tested, not ONE SETUP */
	REQUIRE(lab_an_compare_run(&d0, &d1, 0.01, &c, &err) == 0);
	for (size_t i = 0; i < c.n; i++) {
		const struct lab_an_cmp_row *r = &c.row[i];
		if (!r->old || !r->new_ || r->new_->threads != 2)
			continue;
		seen++;
		CHECK_EQ_STR(r->level, "mixed");
		CHECK(r->lent);
		CHECK_EQ_STR(lab_an_cost_moments(r->new_, r->old, &m), "mixed");
		CHECK_NEAR(m.df_max, 2, 0);
		CHECK_NEAR(r->p, lab_an_welch_p_cap(m.ma, m.va, m.na, m.mb, m.vb, m.nb, 2), 1e-12);
		CHECK(fabs(r->p - lab_an_welch_p(m.ma, m.va, m.na, m.mb, m.vb, m.nb)) > 1e-6);
		lab_an_ratio_fieller_cap(m.ma, m.va, m.na, m.mb, m.vb, m.nb, 2, 0.95, &q);
		lab_an_ratio_positive(&q);
		CHECK_NEAR(r->lo, q.lo - 1, 1e-12);
		CHECK_NEAR(r->hi, q.hi - 1, 1e-12);
	}
	CHECK_EQ_I64(seen, 1);
	lab_an_compare_free(&c);
	lab_an_analysis_free(&a0);
	lab_an_analysis_free(&a1);
	lab_an_data_free(&d0);
	lab_an_data_free(&d1);
}

/* Issue 22: with runs at every point the speedup's Fieller interval takes the run means (their
 * means, squared standard errors and K), and the fits take one run mean per run and point. */
LAB_TEST(speedup_and_fits_use_run_means)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_an_ratio q;

	REQUIRE(lv_runs_fixture(&d, &a, false));
	const struct lab_an_series *s = &a.s[0];
	const struct lab_an_point *p1 = s->row[0].pt, *p2 = s->row[1].pt;
	CHECK_EQ_U64(p1->levels.runs, 3);
	CHECK_EQ_STR(s->fit_level, "runs");
	CHECK_EQ_U64(s->n_fit, 6); /* 2 points x 3 run means, not 60 samples */
	CHECK_EQ_STR(s->row[1].speedup_level, "runs");
	lab_an_ratio_fieller(p1->levels.mean, p1->levels.run_se * p1->levels.run_se, 3,
	                     p2->levels.mean, p2->levels.run_se * p2->levels.run_se, 3, 0.95, &q);
	CHECK_NEAR(s->row[1].speedup.est, q.est, 1e-12);
	CHECK_NEAR(s->row[1].speedup.lo, q.lo, 1e-12);
	CHECK_NEAR(s->row[1].speedup.hi, q.hi, 1e-12);
	CHECK_NEAR(s->row[1].eff_lo, q.lo / 2, 1e-12);
	/* the run means' sd is ~0.1 of 1.0 (run means 1.00, 1.10, 0.90), so se ~0.058 */
	CHECK_NEAR(p1->levels.run_se, 0.1 / sqrt(3), 0.002);
	/* wider than the samples' interval, which ignores the run-to-run noise */
	lab_an_ratio_fieller(p1->st.mean, p1->st.se * p1->st.se, p1->st.n, p2->st.mean,
	                     p2->st.se * p2->st.se, p2->st.n, 0.95, &q);
	CHECK(s->row[1].speedup.hi - s->row[1].speedup.lo > 2 * (q.hi - q.lo));
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* summary.csv's se is at the level of its interval: with runs, the run means' standard error
 * (the sample one, 20 samples per run, was several times smaller beside a run-level ci95), and
 * ci_level says which; a point left with one run says samples and its samples' se. */
static void lv_summary_row(const char *path, int threads, double *se, char *level, size_t cap)
{
	struct lab_an_csv r;
	struct lab_err e = {0};
	int ct, cs, cl;

	*se = -1;
	*level = 0;
	if (lab_an_csv_open(&r, path, &e) || lab_an_csv_next(&r, &e) != 1)
		return;
	ct = lab_an_csv_column(&r, "threads");
	cs = lab_an_csv_column(&r, "se");
	cl = lab_an_csv_column(&r, "ci_level");
	while (ct >= 0 && cs >= 0 && cl >= 0 && lab_an_csv_next(&r, &e) == 1)
		if (atoi(r.field[ct]) == threads) {
			*se = strtod(r.field[cs], NULL);
			snprintf(level, cap, "%s", r.field[cl]);
			break;
		}
	lab_an_csv_close(&r);
}

LAB_TEST(summary_se_at_the_level_of_its_interval)
{
	for (int one_run = 0; one_run < 2; one_run++) {
		struct lab_an_data d = {0};
		struct lab_an_analysis a = {0};
		struct lab_err err;
		char path[4096], level[16];
		double se;

		REQUIRE(lv_runs_fixture(&d, &a, one_run));
		snprintf(path, sizeof(path), "%s/summary-levels.csv", testlib_tmpdir());
		REQUIRE(lab_an_summary_write(&a, path, &err) == 0);
		const struct lab_an_point *p1 = a.s[0].row[0].pt, *p2 = a.s[0].row[1].pt;
		lv_summary_row(path, 1, &se, level, sizeof(level));
		CHECK_EQ_STR(level, "runs");
		CHECK_NEAR(se, p1->levels.run_se, 1e-6 * p1->levels.run_se);
		CHECK(se > 2 * p1->st.se);
		lv_summary_row(path, 2, &se, level, sizeof(level));
		CHECK_EQ_STR(level, one_run ? "samples" : "runs");
		CHECK_NEAR(se, one_run ? p2->st.se : p2->levels.run_se, 1e-6 * se);
		lab_an_analysis_free(&a);
		lab_an_data_free(&d);
	}
}

/* The same data with the 2-thread point's runs 1 and 2 flagged: one run there, three at the
 * baseline. Its mean's variance takes the baseline's between-run share besides its samples'
 * (on samples alone such intervals covered 1 time in 4), with the baseline's 3 runs, and the
 * interval at most their 2 df (mc_mixed_level_interval_covers says why). */
LAB_TEST(speedup_of_one_run_against_runs_is_mixed)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_an_ratio q;

	REQUIRE(lv_runs_fixture(&d, &a, true));
	const struct lab_an_series *s = &a.s[0];
	const struct lab_an_point *p1 = s->row[0].pt, *p2 = s->row[1].pt;
	REQUIRE(p1->levels.runs == 3 && p2->levels.runs == 1);
	CHECK_EQ_STR(s->row[1].speedup_level, "mixed");
	double rel = p1->levels.var_between / (p1->levels.mean * p1->levels.mean);
	CHECK(rel > 0);
	lab_an_ratio_fieller_cap(
	    p1->levels.mean, p1->levels.run_se * p1->levels.run_se, 3, p2->st.mean,
	    p2->st.se * p2->st.se + rel * p2->st.mean * p2->st.mean, 3, 2, 0.95, &q);
	CHECK_NEAR(q.df, 2, 0);
	CHECK_NEAR(s->row[1].speedup.lo, q.lo, 1e-12);
	CHECK_NEAR(s->row[1].speedup.hi, q.hi, 1e-12);
	/* wider than the samples' interval (what it was) */
	lab_an_ratio_fieller(p1->st.mean, p1->st.se * p1->st.se, p1->st.n, p2->st.mean,
	                     p2->st.se * p2->st.se, p2->st.n, 0.95, &q);
	CHECK(s->row[1].speedup.hi - s->row[1].speedup.lo > 2 * (q.hi - q.lo));
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* Precision red team: a one-setup side of one sample has no variance of its own; lent the other
 * side's between-run share and run count it got an interval and a test (lab compare called 8 of
 * 12 such points "regressed"). It stays without one; two samples get the lent share. */
LAB_TEST(mixed_one_sample_side_lends_nothing)
{
	struct lab_an_point a = {0}, b = {0};
	struct lab_an_moments m;
	struct lab_an_ratio r;

	a.levels = (struct lab_an_levels){.runs = 3, .mean = 10, .run_se = 0.5, .var_between = 0.6};
	b.st.n = 1;
	b.st.mean = 20;
	b.st.se = 0;
	CHECK_EQ_STR(lab_an_cost_moments(&a, &b, &m), "mixed");
	CHECK(!m.lent && m.nb == 1 && m.vb == 0);
	lab_an_cost_ratio(&a, &b, &r, NULL);
	CHECK(!r.has_ci);
	b.st.n = 2;
	b.st.se = 0.1;
	lab_an_cost_moments(&a, &b, &m);
	CHECK(m.lent && m.nb == 3 && m.vb > 0.01);
}

/* A running mean and sum of squares, so the naive rule's look after every step is O(1). */
struct mc_welford {
	unsigned n;
	double mean, ss;
};

static void mc_add(struct mc_welford *w, double v)
{
	double d = v - w->mean;

	w->n++;
	w->mean += d / w->n;
	w->ss += d * (v - w->mean);
}

/* t(0.975, df) memoized: the naive rule asks after every sample. */
static double mc_t975(unsigned df)
{
	static double t[MC_N];

	if (df >= MC_N)
		return lab_prec_t975(df);
	if (!t[df])
		t[df] = lab_prec_t975(df);
	return t[df];
}

/* One run of n samples around mu with its run offset; returns the run mean. */
static double mc_run(gsl_rng *g, double mu, double sb, double sw, unsigned n, double *x)
{
	double a = gsl_ran_gaussian(g, sb), s = 0;

	for (unsigned j = 0; j < n; j++) {
		x[j] = mu + a + gsl_ran_gaussian(g, sw);
		s += x[j];
	}
	return s / n;
}

LAB_TEST(mc_run_level_interval_covers)
{
	/* sb = 2, sw = 1, K = 5 runs of n = 10: 97.6 % of a run mean's variance is between runs */
	const double mu = 100, sb = 2, sw = 1;
	const unsigned K = 5, n = 10;
	double x[50], scratch[150];
	int run[50];
	unsigned in_run = 0, in_within = 0;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(g, 22);
	for (unsigned m = 0; m < MC_M; m++) {
		struct lab_an_levels lv;
		for (unsigned r = 0; r < K; r++) {
			mc_run(g, mu, sb, sw, n, x + r * n);
			for (unsigned j = 0; j < n; j++)
				run[r * n + j] = (int)r;
		}
		REQUIRE(lab_an_levels_compute(x, run, K * n, scratch, &lv) == 0);
		in_run += lv.run_ci95_lo <= mu && mu <= lv.run_ci95_hi;
		in_within += lv.within_ci95_lo <= mu && mu <= lv.within_ci95_hi;
	}
	gsl_rng_free(g);
	double c_run = (double)in_run / MC_M, c_within = (double)in_within / MC_M;
	printf("two-level process, sb = 2, sw = 1, K = 5 x n = 10, %d data sets: run-level "
	       "interval covers %.3f, within-run interval %.3f\n",
	       MC_M, c_run, c_within);
	CHECK(c_run >= MC_LO && c_run <= MC_HI);
	CHECK(c_within < 0.6);
}

/*
 * The mixed level (precision33): a cost over 3 run means against one setup's 12 samples, equal
 * true costs, run offsets of 10 %, samples 1 %. The one-setup side borrows the other's
 * between-run variance, so both variances rest on one 2-df estimate: with Welch's df (about 3.2,
 * as if they were independent) the ratio's interval covered 0.90; at the lender's runs - 1 it
 * keeps 0.95. The same df gives lab compare's p.
 */
LAB_TEST(mc_mixed_level_interval_covers)
{
	const double mu = 10, sb = 1, sw = 0.1;
	const unsigned K = 3, n = 4, n1 = 12;
	double x[12], y[12], scratch[36];
	int run[12];
	unsigned in = 0, rejected = 0, lent = 0;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(g, 33);
	for (unsigned m = 0; m < MC_M; m++) {
		struct lab_an_point a = {0}, b = {0};
		struct lab_an_moments mo;
		struct lab_an_ratio r;
		for (unsigned k = 0; k < K; k++) {
			mc_run(g, mu, sb, sw, n, x + k * n);
			for (unsigned j = 0; j < n; j++)
				run[k * n + j] = (int)k;
		}
		REQUIRE(lab_an_levels_compute(x, run, K * n, scratch, &a.levels) == 0);
		mc_run(g, mu, sb, sw, n1, y);
		lab_an_stats_compute(y, n1, scratch, &b.st);
		CHECK_EQ_STR(lab_an_cost_ratio(&a, &b, &r, NULL), "mixed");
		in += r.has_ci && r.lo <= 1 && 1 <= r.hi;
		lab_an_cost_moments(&a, &b, &mo);
		/* none lent where the run means agree closer than their samples say */
		CHECK(!mo.lent || (mo.df_max == K - 1 && r.df <= K - 1));
		lent += mo.lent;
		rejected +=
		    lab_an_welch_p_cap(mo.ma, mo.va, mo.na, mo.mb, mo.vb, mo.nb, mo.df_max) < 0.05;
	}
	gsl_rng_free(g);
	double c = (double)in / MC_M, p = (double)rejected / MC_M;
	printf(
	    "mixed level, 3 runs x 4 against one setup of 12, %d data sets: the ratio's interval "
	    "covers %.3f, the test rejects %.3f\n",
	    MC_M, c, p);
	CHECK(c >= MC_LO && c <= MC_HI);
	CHECK(p >= 1 - MC_HI && p <= 1 - MC_LO);
	CHECK(lent > MC_M * 9 / 10);
}

/*
 * Stein on run means (the runner's rule with runs >= 2): a pilot of K0 runs fixes the total;
 * the naive rule adds runs until its own t-interval is narrow enough. Returns the coverages.
 */
static void mc_seq_runs(gsl_rng *g, double *c_stein, double *c_naive, double *k_stein,
                        double *k_naive)
{
	const double mu = 100, sb = 2, sw = 1, target = 0.02;
	const unsigned K0 = 3, n = 5;
	double x[5], means[MC_N];
	unsigned in_s = 0, in_n = 0;
	double ks = 0, kn = 0;

	for (unsigned m = 0; m < MC_M; m++) {
		double mean0, s0, mean, sd;
		for (unsigned r = 0; r < K0; r++)
			means[r] = mc_run(g, mu, sb, sw, n, x);
		lab_prec_mean_sd(means, K0, &mean0, &s0);
		unsigned K = lab_prec_stein_n(K0, s0, target * mean0 * LAB_PREC_MARGIN, MC_N);
		for (unsigned r = K0; r < K; r++)
			means[r] = mc_run(g, mu, sb, sw, n, x);
		lab_prec_mean_sd(means, K, &mean, &sd);
		double h = lab_prec_stein_halfwidth(K0, s0, K);
		in_s += fabs(mean - mu) <= h;
		ks += K;
		/* naive: from K0 on, stop at the first K whose own t-interval is narrow enough */
		struct mc_welford w = {0};
		unsigned k;
		for (k = 0; k < K0; k++)
			mc_add(&w, mc_run(g, mu, sb, sw, n, x));
		for (;; k++) {
			mean = w.mean;
			h = mc_t975(k - 1) * sqrt(w.ss / (k - 1.0) / k);
			if (h <= target * mean || k == MC_N)
				break;
			mc_add(&w, mc_run(g, mu, sb, sw, n, x));
		}
		in_n += fabs(mean - mu) <= h;
		kn += k;
	}
	*c_stein = (double)in_s / MC_M;
	*c_naive = (double)in_n / MC_M;
	*k_stein = ks / MC_M;
	*k_naive = kn / MC_M;
}

LAB_TEST(mc_sequential_runs_keep_coverage)
{
	double cs, cn, ks, kn;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(g, 2213);
	mc_seq_runs(g, &cs, &cn, &ks, &kn);
	gsl_rng_free(g);
	printf("precision = 2%% on run means (sb = 2, sw = 1, mu = 100, 5 samples per run, pilot "
	       "3 runs), %d data sets: Stein two-stage covers %.3f with %.1f runs on average; "
	       "naive stop-when-narrow covers %.3f with %.1f runs\n",
	       MC_M, cs, ks, cn, kn);
	CHECK(cs >= MC_LO && cs <= MC_HI);
	CHECK(cn < cs);
}

LAB_TEST(mc_sequential_samples_keep_coverage)
{
	/* one run (sb = 0): Stein on samples with the runner's pilot of LAB_PREC_PILOT_MIN */
	const double mu = 100, sw = 6, target = 0.01;
	const unsigned n0 = LAB_PREC_PILOT_MIN;
	static double x[MC_N];
	unsigned in_s = 0, in_n = 0;
	double ns = 0, nn = 0;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(g, 7);
	for (unsigned m = 0; m < MC_M; m++) {
		double mean0, s0, mean, sd, h;
		for (unsigned j = 0; j < n0; j++)
			x[j] = mu + gsl_ran_gaussian(g, sw);
		lab_prec_mean_sd(x, n0, &mean0, &s0);
		unsigned n = lab_prec_stein_n(n0, s0, target * mean0 * LAB_PREC_MARGIN, MC_N);
		for (unsigned j = n0; j < n; j++)
			x[j] = mu + gsl_ran_gaussian(g, sw);
		lab_prec_mean_sd(x, n, &mean, &sd);
		in_s += fabs(mean - mu) <= lab_prec_stein_halfwidth(n0, s0, n);
		ns += n;
		struct mc_welford w = {0};
		unsigned k;
		for (k = 0; k < n0; k++)
			mc_add(&w, mu + gsl_ran_gaussian(g, sw));
		for (;; k++) {
			mean = w.mean;
			h = mc_t975(k - 1) * sqrt(w.ss / (k - 1.0) / k);
			if (h <= target * mean || k == MC_N)
				break;
			mc_add(&w, mu + gsl_ran_gaussian(g, sw));
		}
		in_n += fabs(mean - mu) <= h;
		nn += k;
	}
	gsl_rng_free(g);
	double cs = (double)in_s / MC_M, cn = (double)in_n / MC_M;
	printf("precision = 1%% on samples (sw = 6, mu = 100, pilot %u), %d data sets: Stein "
	       "two-stage covers %.3f with %.0f samples on average; naive covers %.3f with %.0f\n",
	       n0, MC_M, cs, ns / MC_M, cn, nn / MC_M);
	CHECK(cs >= MC_LO && cs <= MC_HI);
}

/* Red team: a point planned in runs that kept one printed its one-setup interval in the tables
 * like any other; now its row says so. One of one planned run is not flagged. */
LAB_TEST(one_setup_flagged_in_rows)
{
	static const char *const doc[] = {"{\"runs\": 3, \"runs_planned\": 3}",
	                                  "{\"runs\": 1, \"runs_planned\": 5}",
	                                  "{\"runs\": 1, \"runs_planned\": 1}"};
	static const char *const want[] = {"ONE SETUP: 1 of 3 runs kept",
	                                   "ONE SETUP: 1 of 5 planned runs", NULL};
	struct lab_an_point p = {0};
	struct lab_an_json *j;
	struct lab_err err;
	char buf[96];

	for (size_t i = 0; i < 3; i++) {
		REQUIRE(lab_an_json_parse("run.json", doc[i], strlen(doc[i]), &j, &err) == 0);
		p.runjson = j;
		p.levels.runs = 1;
		if (want[i])
			CHECK_EQ_STR(lab_an_one_setup_flag(&p, buf, sizeof(buf)), want[i]);
		else
			CHECK(lab_an_one_setup_flag(&p, buf, sizeof(buf)) == NULL);
		p.levels.runs = 2; /* two kept: its interval is from run means */
		CHECK(lab_an_one_setup_flag(&p, buf, sizeof(buf)) == NULL);
		lab_an_json_free(j);
	}
}

/* Setups that fall apart (what the guest cannot see: the host's other vCPUs on its cores) are
 * flagged in the tables as the lessons' notes already said: one run far from the others, or
 * two clusters of runs; runs that agree, or fewer than 3, are not. A point of no kept run says
 * NO SETUP. */
LAB_TEST(runs_apart_flagged_in_rows)
{
	static const struct {
		double mean[5];
		int nr;
		const char *want;
	} c[] = {
	    {{0.35, 0.36, 0.80, 0.37, 0.34},
	     5,
	     "RUN APART: run 2 at 0.8, the other 4 at 0.34 .. 0.37"},
	    {{0.35, 0.80, 0.82, 0.81, 0.36},
	     5,
	     "RUNS IN 2 CLUSTERS: 2 at 0.35 .. 0.36, 3 at 0.8 .. 0.82"},
	    {{0.35, 0.36, 0.37, 0.34, 0.35}, 5, NULL},
	    {{0.35, 0.80}, 2, NULL},
	};
	double cost[10];
	int run[10];
	unsigned char flagged[10] = {0};
	char buf[128];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct lab_an_point p = {.cost = cost, .run = run, .flagged = flagged};

		for (int r = 0; r < c[i].nr; r++)
			for (int k = 0; k < 2; k++) {
				cost[p.n] = c[i].mean[r];
				run[p.n++] = r;
			}
		p.levels.runs = (size_t)c[i].nr;
		p.levels.n = p.n;
		if (c[i].want)
			CHECK_EQ_STR(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)), c[i].want);
		else
			CHECK(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)) == NULL);
	}
}

/* Red team: 3 runs of 5 samples with a spread of 0.17 within each (a run mean's standard error
 * 0.076) and no setup apart read "RUN APART: run 0 at 0.36, the other 2 at 0.479 .. 0.49". A run
 * mean is far only beyond what the spread within runs moves it by; with a tight spread the same
 * means are apart. */
LAB_TEST(runs_apart_beyond_within_run_noise)
{
	static const double mean[3] = {0.36, 0.479, 0.49}, dev[5] = {-2, -1, 0, 1, 2};
	double cost[15], scratch[45];
	int run[15];
	unsigned char flagged[15] = {0};
	char buf[128];

	for (int wide = 0; wide < 2; wide++) {
		struct lab_an_point p = {.cost = cost, .run = run, .flagged = flagged};

		for (int r = 0; r < 3; r++)
			for (int k = 0; k < 5; k++) {
				/* sd of dev is 1.58: 0.107 a step gives 0.17 */
				cost[p.n] = mean[r] + dev[k] * (wide ? 0.107 : 0.001);
				run[p.n++] = r;
			}
		REQUIRE(lab_an_levels_compute(cost, run, p.n, scratch, &p.levels) == 0);
		if (wide)
			CHECK(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)) == NULL);
		else
			CHECK_EQ_STR(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)),
			             "RUN APART: run 0 at 0.36, the other 2 at 0.479 .. 0.49");
	}
}

/* runs = 100 (a config allows 1000): every run is looked at (only the first 64 were: "the other
 * 63", and a run 50 times the others at run 80 went unflagged). */
LAB_TEST(runs_apart_sees_every_run)
{
	enum { N = 1000 };
	static double cost[2 * N];
	static int run[2 * N];
	static unsigned char flagged[2 * N];
	struct lab_an_point p = {.cost = cost, .run = run, .flagged = flagged};
	char buf[128];

	for (int r = 0; r < N; r++)
		for (int k = 0; k < 2; k++) {
			cost[p.n] = r == 800 ? 17.5 : 0.35 + 0.01 * (r % 3);
			run[p.n++] = r;
		}
	p.levels.runs = N;
	p.levels.n = p.n;
	CHECK_EQ_STR(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)),
	             "RUN APART: run 800 at 17.5, the other 999 at 0.35 .. 0.37");
	/* in the cost's unit, beside columns of others (makespan_ns read the run means as its) */
	char unit[] = "ns/iteration";
	p.unit = unit;
	CHECK_EQ_STR(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)),
	             "RUN APART: run 800 at 17.5 ns/iteration, the other 999 at 0.35 .. 0.37 "
	             "ns/iteration");
	/* a point without its own: the set's, as the table's column says it */
	p.unit = NULL;
	CHECK_EQ_STR(lab_an_runs_apart_flag(&p, "ns/op", buf, sizeof(buf)),
	             "RUN APART: run 800 at 17.5 ns/op, the other 999 at 0.35 .. 0.37 ns/op");
}

/* Runs of one sample each (reps = 1): no spread within runs, so a run far from the others
 * cannot be told from a noisy sample and none is called apart (3 such runs at a CV of 20 % read
 * "RUN APART" one time in two); the advice says why the split is unknown, not "one run". */
LAB_TEST(runs_of_one_sample_not_called_apart)
{
	double cost[] = {1.0, 1.02, 1.5}, scratch[9];
	int run[] = {0, 1, 2};
	unsigned char flagged[3] = {0};
	struct lab_an_point p = {.cost = cost, .run = run, .flagged = flagged, .n = 3};
	char buf[256];

	REQUIRE(lab_an_levels_compute(cost, run, 3, scratch, &p.levels) == 0);
	CHECK(p.levels.runs == 3 && isnan(p.levels.var_within));
	CHECK(lab_an_runs_apart_flag(&p, NULL, buf, sizeof(buf)) == NULL);
	CHECK(strstr(lab_an_levels_advice(&p.levels, buf, sizeof(buf)),
	             "one sample per run: the within-run variance is unknown") == buf);
	/* two samples a run: the same far run is apart */
	double cost2[] = {1.0, 1.001, 1.02, 1.021, 1.5, 1.501};
	int run2[] = {0, 0, 1, 1, 2, 2};
	unsigned char flagged2[6] = {0};
	struct lab_an_point q = {.cost = cost2, .run = run2, .flagged = flagged2, .n = 6};
	double scratch2[18];

	REQUIRE(lab_an_levels_compute(cost2, run2, 6, scratch2, &q.levels) == 0);
	CHECK(lab_an_runs_apart_flag(&q, NULL, buf, sizeof(buf)) != NULL);
}

LAB_TEST(no_setup_kept_flagged)
{
	static const char doc[] = "{\"runs\": 5, \"runs_planned\": 5}",
	                  one[] = "{\"runs\": 1, \"runs_planned\": 2}";
	struct lab_an_point p = {0};
	struct lab_an_json *j;
	struct lab_err err;
	char buf[96];

	REQUIRE(lab_an_json_parse("run.json", doc, strlen(doc), &j, &err) == 0);
	p.runjson = j;
	CHECK_EQ_STR(lab_an_one_setup_flag(&p, buf, sizeof(buf)), "NO SETUP: 0 of 5 runs kept");
	char failed[] = "failed", ok[] = "ok";

	p.status = failed; /* it says its status, not how many setups it kept */
	CHECK(lab_an_one_setup_flag(&p, buf, sizeof(buf)) == NULL);
	lab_an_json_free(j);
	REQUIRE(lab_an_json_parse("run.json", one, strlen(one), &j, &err) == 0);
	p.runjson = j;
	p.status = ok;
	CHECK_EQ_STR(lab_an_one_setup_flag(&p, buf, sizeof(buf)), "NO SETUP: 0 of 2 planned runs");
	lab_an_json_free(j);
}

/* "(not met)" when either the analyzer's interval or run.json's own figure (Stein's half-width
 * may be the wider) is over the target: the text never says met where run.json says not, and
 * names the run's figure when it alone decides; a run that reached no interval (null: its
 * samples all flagged, kept here by --include-flagged) did not meet it either. */
LAB_TEST(precision_line_not_met_by_either_figure)
{
	static const char *const rj[] = {
	    "{\"precision_target\": 0.02, \"precision_achieved\": 0.015, \"samples\": 30, "
	    "\"runs\": 1}",
	    "{\"precision_target\": 0.02, \"precision_achieved\": 0.03, \"samples\": 30, "
	    "\"runs\": 1}",
	    "{\"precision_target\": 0.02, \"precision_achieved\": null, \"samples\": 30, "
	    "\"runs\": 1}"};
	static const char *const why[] = {
	    NULL, "+-1% reached (not met: the run's own figure, +-3%)",
	    "+-1% reached (not met: the run itself reached no interval)"};
	char buf[512];

	for (int i = 0; i < 3; i++) {
		struct lab_an_point p = {0};
		struct lab_an_json *j = NULL;
		struct lab_err err = {0};

		REQUIRE(lab_an_json_parse("run.json", rj[i], strlen(rj[i]), &j, &err) == 0);
		p.runjson = j;
		p.st.n = 30;
		p.st.mean = 100;
		p.st.ci95_lo = 99; /* +-1 % by the analyzer's interval */
		p.st.ci95_hi = 101;
		REQUIRE(lab_an_precision_line(&p, buf, sizeof(buf)) != NULL);
		if (why[i] ? !strstr(buf, why[i]) : !!strstr(buf, "not met"))
			TL__FAIL("%d: %s", i, buf);
		/* one used sample: its mean +- 0 is no interval (it read "+-0% reached") */
		p.st.n = 1;
		p.st.ci95_lo = p.st.ci95_hi = 100;
		REQUIRE(lab_an_precision_line(&p, buf, sizeof(buf)) != NULL);
		CHECK(strstr(buf, "asked, no interval with") != NULL);
		lab_an_json_free(j);
	}
}
