/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fits end to end (issue 7, "what external data showed"): --csv throughput, --objective
 * absolute against published coefficients, the analysis.json fixes, what the data shows (findings,
 * lack of fit) and the rates derived from declared work.
 */
#include <math.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* Runs `lab ARGS` (fixture paths relative to the source tree's tests/fixtures) and parses stdout
 * as JSON; NULL on failure (the case has failed then). */
static struct lab_an_json *fits_json(const char *args)
{
	char *out = NULL, *err = NULL, cmd[4096];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	snprintf(cmd, sizeof(cmd), "analyze --json %s", args);
	if (clitest_run(NULL, cmd, &out, &err) != 0 ||
	    lab_an_json_parse("stdout", out, strlen(out), &j, &e) != 0) {
		fprintf(stderr, "lab %s failed: %s\n", cmd, err ? err : "");
		testlib_fail();
		j = NULL;
	}
	free(out);
	free(err);
	return j;
}

/* `lab analyze --csv tests/fixtures/csv/NAME.csv EXTRA` as text on stdout (caller frees). */
static char *fits_text(const char *name, const char *extra)
{
	char *out = NULL, *err = NULL, cmd[4096];

	snprintf(cmd, sizeof(cmd), "analyze --csv %s/tests/fixtures/csv/%s.csv %s",
	         testlib_srcdir(), name, extra);
	if (clitest_run(NULL, cmd, &out, &err) != 0) {
		fprintf(stderr, "lab %s failed: %s\n", cmd, err ? err : "");
		testlib_fail();
	}
	free(err);
	return out;
}

static struct lab_an_json *fits_csv_json(const char *name, const char *extra)
{
	char args[4096];

	snprintf(args, sizeof(args), "--csv %s/tests/fixtures/csv/%s.csv %s", testlib_srcdir(),
	         name, extra);
	return fits_json(args);
}

/* x equals a published value ref to the significant digits ref is printed with (digits). */
#define CHECK_SIG(x, ref, digits)                                                                  \
	CHECK_NEAR((x), (ref), 0.5 * pow(10, floor(log10(fabs(ref))) - ((digits)-1)))

static double fits_num(const struct lab_an_json *j, const char *obj, const char *key)
{
	return lab_an_json_num(obj ? lab_an_json_get(j, obj) : j, key, NAN);
}

/* Half-width over t(0.975, dof) of key_ci95: the standard error the interval was built from. */
static double fits_se(const struct lab_an_json *fit, const char *key, double t)
{
	char k[64];
	const struct lab_an_json *lo, *hi;

	snprintf(k, sizeof(k), "%s_ci95", key);
	lo = clitest_at(fit, k, 0);
	hi = clitest_at(fit, k, 1);
	return lo && hi ? (hi->num - lo->num) / 2 / t : NAN;
}

/* A boolean member: 0 or 1, -1 when absent or not a boolean. */
static int fits_bool(const struct lab_an_json *j, const char *key)
{
	const struct lab_an_json *v = j ? lab_an_json_get(j, key) : NULL;

	return v && v->type == LAB_AN_JSON_BOOL ? (int)v->num : -1;
}

static int fits_is_null(const struct lab_an_json *j, const char *key)
{
	const struct lab_an_json *v = lab_an_json_get(j, key);

	return v && v->type == LAB_AN_JSON_NULL;
}

/* An interval that is absent: [null, null], the writer's form for a pair. */
static int fits_no_interval(const struct lab_an_json *j, const char *key)
{
	const struct lab_an_json *lo = clitest_at(j, key, 0), *hi = clitest_at(j, key, 1);

	return lo && hi && lo->type == LAB_AN_JSON_NULL && hi->type == LAB_AN_JSON_NULL;
}

/* R's usl package on its specsdm91 data (README of smoeding/usl 3.0): alpha 0.0277285 (SE
 * 0.0091217), beta 0.0001044 (SE 0.0000199), gamma 89.9952330 (SE 14.2134894), peak at
 * 96.51956 (tests/peak-scalability.R). */
LAB_TEST(specsdm91_absolute_matches_r_usl)
{
	struct lab_an_json *j = fits_csv_json("specsdm91", "--objective absolute");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *u;
	const double t4 = 2.776445105; /* t(0.975, 4): 7 points, 3 parameters */

	REQUIRE(s);
	CHECK_EQ_STR(lab_an_json_str(j, "objective"), "absolute");
	CHECK_EQ_STR(lab_an_json_str(j, "input"), "throughput");
	CHECK_EQ_STR(lab_an_json_str(s, "objective"), "absolute");
	CHECK_EQ_STR(lab_an_json_str(s, "fit_domain"), "throughput");
	CHECK(strstr(lab_an_json_str(s, "error_model"), "unweighted least squares on throughput"));
	u = lab_an_json_get(s, "usl");
	CHECK_SIG(fits_num(u, NULL, "sigma"), 0.0277285, 6);
	CHECK_SIG(fits_num(u, NULL, "kappa"), 0.0001044, 4);
	CHECK_SIG(fits_num(u, NULL, "x1"), 89.9952330, 6);
	CHECK_SIG(fits_num(u, NULL, "n_star"), 96.51956, 6);
	CHECK_SIG(fits_se(u, "sigma", t4), 0.0091217, 4);
	CHECK_SIG(fits_se(u, "kappa", t4), 0.0000199, 3);
	CHECK_SIG(fits_se(u, "x1", t4), 14.2134894, 4);
	CHECK_NEAR(fits_num(u, NULL, "c1"), 1 / 89.9952330, 1e-6);
	lab_an_json_free(j);
}

/* codahale/usl's README on cmd/usl/example.csv (the same data rounded): sigma 0.0277299, kappa
 * 0.000104343, lambda 89.9878, max concurrency 96. */
LAB_TEST(codahale_example_absolute)
{
	struct lab_an_json *j = fits_csv_json("codahale-example", "--objective absolute");
	const struct lab_an_json *u = j ? lab_an_json_get(clitest_at(j, "series", 0), "usl") : NULL;

	REQUIRE(u);
	CHECK_SIG(fits_num(u, NULL, "sigma"), 0.0277299, 4);
	CHECK_SIG(fits_num(u, NULL, "kappa"), 0.000104343, 4);
	CHECK_SIG(fits_num(u, NULL, "x1"), 89.9878, 4);
	CHECK_NEAR(floor(fits_num(u, NULL, "n_star")), 96, 0);
	lab_an_json_free(j);
}

/* The default stays the lab's relative fit on cost: on SPEC SDM91 it lands near sigma 0.0134,
 * not the published 0.0277, and says which error model it used. */
LAB_TEST(default_objective_is_relative)
{
	struct lab_an_json *j = fits_csv_json("specsdm91", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL;
	char *text = fits_text("specsdm91", "");

	REQUIRE(s);
	CHECK_EQ_STR(lab_an_json_str(j, "objective"), "relative");
	CHECK_EQ_STR(lab_an_json_str(s, "fit_domain"), "cost");
	CHECK_NEAR(fits_num(s, "usl", "sigma"), 0.0134, 0.0005);
	CHECK(text && strstr(text, "fit: least squares on relative error in cost"));
	lab_an_json_free(j);
	free(text);
}

/* threads,throughput is read as cost 1/X(N) (not N/X(N)); a point with one sample has no
 * interval: [null, null] in JSON, "—" in text, never [x, x]. */
LAB_TEST(throughput_input_and_single_samples)
{
	struct lab_an_json *j = fits_csv_json("specsdm91", "");
	const struct lab_an_json *p =
	    j ? clitest_at(clitest_at(j, "series", 0), "points", 1) : NULL;
	char *text = fits_text("specsdm91", "");

	REQUIRE(p);
	CHECK_EQ_STR(lab_an_json_str(j, "unit"), "1/throughput");
	CHECK_NEAR(lab_an_json_num(p, "mean", -1), 1 / 995.9, 1e-12);
	CHECK_NEAR(lab_an_json_num(p, "speedup", -1), 995.9 / 64.9, 1e-9);
	CHECK(fits_no_interval(p, "mean_ci95"));
	CHECK(fits_no_interval(p, "speedup_ci95"));
	CHECK(fits_no_interval(p, "efficiency_ci95"));
	CHECK(fits_no_interval(p, "karp_flatt_ci95"));
	CHECK(text && strstr(text, "0.001004 | 0.001004 [no CI]"));
	CHECK(text && strstr(text, "1 [1, 1]") == NULL); /* the baseline too */
	CHECK(text && !strstr(text, "[0.001004, 0.001004]"));
	lab_an_json_free(j);
	free(text);
}

LAB_TEST(bad_objective_is_usage_error)
{
	char *out = NULL, *err = NULL, cmd[4096];

	snprintf(cmd, sizeof(cmd), "analyze --csv %s/tests/fixtures/csv/four.csv --objective l2",
	         testlib_srcdir());
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 2);
	CHECK(strstr(err, "--objective 'l2': allowed relative, absolute") != NULL);
	CHECK_EQ_STR(out, "");
	free(out);
	free(err);
}

/* The outlier and mode keys of a point are three keys, not one copied from the CSV header. */
LAB_TEST(point_keys_outliers_and_modes)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;

	clitest_copy("results-compare-a");
	j = fits_json("results-compare-a --no-plots");
	p = j ? clitest_at(clitest_at(j, "series", 0), "points", 0) : NULL;
	REQUIRE(p);
	CHECK(lab_an_json_get(p, "outliers_severe,modes,mode_centers") == NULL);
	CHECK(lab_an_json_get(p, "outliers_severe") &&
	      lab_an_json_get(p, "outliers_severe")->type == LAB_AN_JSON_NUM);
	CHECK_NEAR(lab_an_json_num(p, "modes", -1), 1, 0); /* 30 samples: modes are computed */
	CHECK(clitest_at(p, "mode_centers", 0) != NULL);
	lab_an_json_free(j);
}

/* Newcomer red team: a row's "outliers 1/0" had no legend; it says which fences. */
LAB_TEST(outliers_flag_says_what_it_counts)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-edge");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-edge --no-plots", &out, &err), 0);
	CHECK(out && strstr(out, "outliers: 1 mild, 1 severe (Tukey)"));
	free(out);
	free(err);
}

/* A refused model has null criteria and a null retrograde flag, not 0 and false. */
LAB_TEST(refused_usl_is_null)
{
	struct lab_an_json *j = fits_csv_json("four", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *mc;

	REQUIRE(s);
	CHECK_EQ_I64(fits_bool(lab_an_json_get(s, "usl"), "ok"), 0);
	CHECK(fits_is_null(lab_an_json_get(s, "usl"), "retrograde"));
	mc = lab_an_json_get(s, "model_choice");
	CHECK(fits_is_null(mc, "aicc_usl"));
	CHECK_NEAR(lab_an_json_num(mc, "aicc_amdahl", 0), fits_num(s, "amdahl", "aicc"), 1e-9);
	CHECK(fits_num(s, "amdahl", "aicc") != 0);
	/* a fit that did not run has no degrees of freedom (n - p before the checks gave -3) */
	CHECK(fits_is_null(lab_an_json_get(s, "usl"), "dof"));
	lab_an_json_free(j);
}

/* A series measured in runs is fitted on its run means: the intervals' unit says so
 * ("samples" did), and where the lack of fit makes it the points' means, the note says the curve
 * misses them (the runs' scatter is in the pure error already: "runs = 3 or more tell which" was
 * said of a series of 3 runs a point). */
LAB_TEST(fits_on_run_means)
{
	char *out = NULL, *err = NULL, args[4096];
	struct lab_an_json *j;
	const struct lab_an_json *s;

	clitest_copy("results-usl-runs");
	snprintf(args, sizeof(args), "%s/results-usl-runs", testlib_tmpdir());
	j = fits_json(args);
	s = j ? clitest_at(j, "series", 0) : NULL;
	REQUIRE(s);
	CHECK_EQ_STR(lab_an_json_str(s, "fit_level"), "runs");
	CHECK_EQ_STR(lab_an_json_str(lab_an_json_get(s, "usl"), "interval_unit"), "run_means");
	CHECK_EQ_STR(lab_an_json_str(lab_an_json_get(s, "amdahl"), "interval_unit"), "point_means");
	CHECK_NEAR(fits_num(s, "usl", "dof"), 18 - 3, 1e-9);
	lab_an_json_free(j);
	snprintf(args, sizeof(args), "analyze %s/results-usl-runs", testlib_tmpdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out,
	             "intervals of Amdahl: from the scatter of the points' means (lack of "
	             "fit: the curve misses the means by more than their runs scatter)") != NULL);
	CHECK(strstr(out, "tell which") == NULL);
	free(out);
	free(err);
}

/* Keeps every line of samples.csv but point 5's rows past its first run (its last column). */
static void fits_drop_runs(FILE *out, const char *line, void *ctx)
{
	const char *run = strrchr(line, ',');
	(void)ctx;
	if (!strncmp(line, "locks,5,", 8) && run && strcmp(run, ",0"))
		return;
	fprintf(out, "%s\n", line);
}

/* One point kept one run of its three: the speedups of the others are on run means, the fits on
 * samples, and the notes say both, and that the runs cannot tell a misfit from noise here. */
LAB_TEST(fits_on_samples_where_a_point_lost_its_runs)
{
	char *out = NULL, *err = NULL, args[4096];

	clitest_copy("results-usl-runs");
	REQUIRE(clitest_rewrite("results-usl-runs/samples.csv", fits_drop_runs, NULL) == 0);
	snprintf(args, sizeof(args), "analyze %s/results-usl-runs", testlib_tmpdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "ONE SETUP: 1 of 3 runs kept") != NULL);
	CHECK(strstr(out, "levels: speedup intervals from run means where both points have runs; "
	                  "fits on samples (not every point has runs)") != NULL);
	CHECK(strstr(out, "levels: where one point of a speedup has one run and the other "
	                  "several") != NULL);
	CHECK(strstr(out, "the fits are on samples, as not every point kept 2 runs or more, so "
	                  "its runs cannot tell which") != NULL);
	CHECK(strstr(out, "runs = 3 or more tell which") == NULL);
	free(out);
	free(err);
}

/* Superlinear data (the whole efficiency interval above 1): points flagged, with no cache
 * claim that nothing in the data supports (issue 21, finding 5); f < 0 gives no max speedup,
 * said the same way in text and JSON (never "inf"). */
LAB_TEST(superlinear_is_flagged)
{
	struct lab_an_json *j = fits_csv_json("superlinear", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *a, *f0;
	char *text = fits_text("superlinear", "");

	REQUIRE(s && text);
	a = lab_an_json_get(s, "amdahl");
	CHECK(fits_num(a, NULL, "f") < 0);
	CHECK(fits_is_null(a, "max_speedup"));
	/* The model does not describe a step at N = 2 (lack of fit): f's interval is from the
	 * points' means and reaches 0, so no "f < 0" is claimed from the estimate alone; the
	 * points' own intervals say superlinear (below). */
	CHECK_EQ_STR(lab_an_json_str(a, "interval_unit"), "point_means");
	CHECK(clitest_at(a, "f_ci95", 0) && clitest_at(a, "f_ci95", 0)->num == 0);
	CHECK(strstr(lab_an_json_str(a, "max_speedup_text"), "unbounded within the noise"));
	CHECK(strstr(text, "f = -0.004541 [0, 0.008434] (the estimate is below 0 within its "
	                   "noise)") != NULL);
	CHECK(strstr(text, "inf") == NULL);
	CHECK(strstr(text, "SUPERLINEAR") != NULL);
	CHECK_EQ_I64(fits_bool(clitest_at(s, "points", 2), "superlinear"), 1);
	f0 = clitest_at(s, "findings", 0);
	CHECK(f0 && f0->type == LAB_AN_JSON_STR && strstr(f0->str, "efficiency interval above 1"));
	CHECK(f0 && f0->type == LAB_AN_JSON_STR &&
	      strstr(f0->str, "only if the per-thread working set shrinks"));
	CHECK(strstr(text, "aggregate cache") == NULL);
	CHECK(strstr(text, "WARNING: superlinear at N = 2, 4, 8, 16") != NULL);
	lab_an_json_free(j);
	free(text);
}

/* Efficiency above 1 within noise is not called superlinear (issue 21, finding 5). */
LAB_TEST(superlinear_only_beyond_noise)
{
	struct lab_an_json *j = fits_csv_json("superlinear-noise", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *p, *f0;
	char *text = fits_text("superlinear-noise", "");

	REQUIRE(s && text);
	p = clitest_at(s, "points", 1);
	REQUIRE(p);
	CHECK(fits_num(p, NULL, "efficiency") > 1);
	CHECK_EQ_I64(fits_bool(p, "superlinear"), 0);
	CHECK(strstr(text, "SUPERLINEAR") == NULL);
	CHECK(strstr(text, "superlinear at") == NULL);
	f0 = clitest_at(s, "findings", 0);
	CHECK(f0 && f0->type == LAB_AN_JSON_STR && strstr(f0->str, "within noise"));
	/* e(N) says it as the interval does: its bound 0 within noise, as Amdahl's f (it read
	 * "speedup above the threads" beside "within noise", then "no serial fraction") */
	CHECK(fits_is_null(p, "karp_flatt_why"));
	CHECK_NEAR(lab_an_json_num(p, "karp_flatt", NAN), 0, 0);
	CHECK_EQ_STR(lab_an_json_str(p, "karp_flatt_note"),
	             "(the estimate is below 0 within its noise)");
	CHECK(strstr(text, "(the estimate is below 0 within its noise)") != NULL);
	lab_an_json_free(j);
	free(text);
	j = fits_csv_json("superlinear", "");
	REQUIRE((p = j ? clitest_at(clitest_at(j, "series", 0), "points", 1) : NULL));
	CHECK(fits_is_null(p, "karp_flatt"));
	CHECK_EQ_STR(lab_an_json_str(p, "karp_flatt_why"),
	             "speedup above the threads: better than no serial part (e(N) below 0)");
	lab_an_json_free(j);
}

/* One time per thread count gives no interval: efficiency 20 at N = 5 was called "within noise
 * (its interval holds 1)", an interval that does not exist. */
LAB_TEST(superlinear_without_interval_is_not_called_noise)
{
	struct lab_an_json *j = fits_csv_json("superlinear-once", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *f0;
	char *text = fits_text("superlinear-once", "");

	REQUIRE(s && text);
	CHECK(fits_num(clitest_at(s, "points", 4), NULL, "efficiency") > 10);
	CHECK(strstr(text, "within noise") == NULL);
	CHECK(strstr(text, "efficiency above 1 at N = 2, 3, 4, 5 with no interval to judge it") !=
	      NULL);
	f0 = clitest_at(s, "findings", 0);
	CHECK(f0 && f0->type == LAB_AN_JSON_STR && strstr(f0->str, "no interval to judge it"));
	lab_an_json_free(j);
	free(text);
}

/* A cost at N not told apart from 0 under a tight one-thread cost: the speedup's interval is
 * Fieller's ray [10.2, unbounded), all above 2, so the point is superlinear (the finding said
 * "no interval to judge it by ... measure each point twice" with three samples a point). */
LAB_TEST(superlinear_on_a_ray)
{
	struct lab_an_json *j = fits_csv_json("superlinear-ray", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL;
	char *text = fits_text("superlinear-ray", "");

	REQUIRE(s && text);
	CHECK_EQ_I64(fits_bool(clitest_at(s, "points", 1), "superlinear"), 1);
	CHECK(strstr(text, "unbounded)") != NULL);
	CHECK(strstr(text, "superlinear at N = 2 (efficiency interval above 1)") != NULL);
	CHECK(strstr(text, "no interval to judge it") == NULL);
	lab_an_json_free(j);
	free(text);
}

/* A USL peak past the largest measured N is called an extrapolation; with USL chosen the Amdahl
 * line is marked rejected instead of offering its bound. */
LAB_TEST(peak_beyond_data_and_amdahl_rejected)
{
	struct lab_an_json *j = fits_csv_json("beyond", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL;
	char *text = fits_text("beyond", "");

	REQUIRE(s && text);
	CHECK_EQ_STR(lab_an_json_str(s, "model"), "usl");
	CHECK(fits_num(s, "usl", "n_star") > 32);
	CHECK_EQ_I64(fits_bool(lab_an_json_get(s, "usl"), "n_star_beyond_data"), 1);
	CHECK_EQ_I64(fits_bool(lab_an_json_get(s, "amdahl"), "rejected"), 1);
	CHECK(strstr(text, "lies beyond the largest measured N = 32: an extrapolation") != NULL);
	CHECK(strstr(text, "(rejected: USL fits better") != NULL);
	CHECK(strstr(text, "(max speedup") == NULL);
	lab_an_json_free(j);
	free(text);
}

/* With replicates each model gets a lack-of-fit test: 8 thread counts x 3 repetitions give
 * df = (8 - p, 24 - 8). The data are USL exactly (up to +-1 % per repetition), so USL passes and
 * Amdahl fails. */
LAB_TEST(lack_of_fit_with_replicates)
{
	struct lab_an_json *j = fits_csv_json("beyond", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *la, *lu;
	char *text = fits_text("beyond", "");

	REQUIRE(s && text);
	la = lab_an_json_get(lab_an_json_get(s, "amdahl"), "lack_of_fit");
	lu = lab_an_json_get(lab_an_json_get(s, "usl"), "lack_of_fit");
	REQUIRE(la && lu && la->type == LAB_AN_JSON_OBJ && lu->type == LAB_AN_JSON_OBJ);
	CHECK_NEAR(fits_num(la, NULL, "df1"), 6, 0);
	CHECK_NEAR(fits_num(la, NULL, "df2"), 16, 0);
	CHECK_NEAR(fits_num(lu, NULL, "df1"), 5, 0);
	CHECK(fits_num(la, NULL, "p") < 0.001);
	CHECK(fits_num(lu, NULL, "p") > 0.5);
	CHECK(strstr(text, "lack of fit: F =") != NULL);
	lab_an_json_free(j);
	free(text);
	/* Without replicates there is nothing to test. */
	j = fits_csv_json("specsdm91", "");
	s = j ? clitest_at(j, "series", 0) : NULL;
	REQUIRE(s);
	CHECK(fits_is_null(lab_an_json_get(s, "usl"), "lack_of_fit"));
	lab_an_json_free(j);
}

/* The report shows a one-sample point's mean and speedup without an interval: not [x, x], and
 * not "[unbounded]" (which means Fieller's denominator is not significant). */
LAB_TEST(report_single_sample_has_no_interval)
{
	char *out = NULL, *err = NULL, path[2048], *html = NULL;
	size_t len;

	clitest_copy("results-edge");
	REQUIRE(clitest_run(NULL, "report results-edge", &out, &err) == 0);
	snprintf(path, sizeof(path), "%s/results-edge/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &html, &len, NULL) == 0);
	/* one_rep at 1 thread: 3/1 + 0.1 */
	CHECK(strstr(html, "<td>3.1 | 3.1 [no CI]</td>") != NULL);
	CHECK(strstr(html, "[3.1, 3.1]") == NULL);
	CHECK(strstr(html, "unbounded") == NULL);
	CHECK(strstr(html, "fit: least squares on relative error in cost") != NULL);
	free(html);
	free(out);
	free(err);
}

/* On seconds the absolute objective fits the cost itself, unweighted, and says so. */
LAB_TEST(absolute_on_seconds_fits_cost)
{
	struct lab_an_json *j = fits_csv_json("amdahl", "--objective absolute");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL;
	char *text = fits_text("amdahl", "--objective absolute");

	REQUIRE(s && text);
	CHECK_EQ_STR(lab_an_json_str(s, "fit_domain"), "cost");
	CHECK(lab_an_json_get(lab_an_json_get(s, "amdahl"), "x1") == NULL);
	CHECK_NEAR(fits_num(s, "amdahl", "f"), 0.05, 0.01); /* the fixture's truth */
	CHECK(strstr(text, "fit: unweighted least squares on cost") != NULL);
	lab_an_json_free(j);
	free(text);
}

/* Flat costs repeated exactly (an exact fit of both models, chi^2 at rounding level): no "F =
 * inf", no Amdahl "rejected" by a 0/0 residual ratio, and f = 1 (it came out 1 + 2e-16, "outside
 * [0, 1]") is said as what it is. */
LAB_TEST(flat_costs_fit_exactly)
{
	struct lab_an_json *j = fits_csv_json("flat", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *a;
	char *text = fits_text("flat", "--no-plots");

	REQUIRE(s && text);
	a = lab_an_json_get(s, "amdahl");
	CHECK_EQ_I64(fits_num(a, NULL, "f") == 1, 1);
	CHECK_EQ_STR(lab_an_json_str(a, "max_speedup_text"),
	             "no speedup: f = 1 (the cost does not fall with threads)");
	CHECK_EQ_I64(fits_bool(a, "rejected"), 0);
	CHECK_EQ_STR(lab_an_json_str(s, "model"), "amdahl");
	CHECK(strstr(text, "inf") == NULL);
	CHECK(strstr(text, "outside [0, 1]") == NULL);
	CHECK(strstr(text, "rejected") == NULL);
	CHECK(strstr(text, "lack of fit: F = 0 (3, 5 df), p = 1") != NULL);
	lab_an_json_free(j);
	free(text);
}

/* Costs that rise a little with threads, within the noise (tests/fixtures/csv/rising.csv): f =
 * 1.04 with its interval [0.96, 1]. 1/f = 0.96 is no bound on a speedup and lay below its own
 * interval [1, 1.04]: no max_speedup, the interval stays. */
LAB_TEST(max_speedup_none_for_f_past_1)
{
	struct lab_an_json *j = fits_csv_json("rising", "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *a, *lo;

	REQUIRE(s && (a = lab_an_json_get(s, "amdahl")));
	CHECK(fits_num(s, "amdahl", "f") > 1);
	CHECK(isnan(fits_num(s, "amdahl", "max_speedup")));
	REQUIRE((lo = clitest_at(a, "max_speedup_ci95", 0)) && lo->type == LAB_AN_JSON_NUM);
	CHECK_NEAR(lo->num, 1, 1e-9);
	lab_an_json_free(j);
}

/* Counts the points of the first series of csv fixture name whose speedup is under 1 within
 * noise (e(N) = 1, said so), under it beyond noise (no e(N), said why), and the others (e(N)
 * and its interval in [0, 1]). */
static void kf_points(const char *name, size_t *noise, size_t *none, size_t *some)
{
	struct lab_an_json *j = fits_csv_json(name, "");
	const struct lab_an_json *s = j ? clitest_at(j, "series", 0) : NULL, *p, *lo, *hi;

	REQUIRE(s);
	for (size_t i = 1; (p = clitest_at(s, "points", i)); i++) {
		double S = lab_an_json_num(p, "speedup", NAN),
		       e = lab_an_json_num(p, "karp_flatt", -1);
		const struct lab_an_json *shi = clitest_at(p, "speedup_ci95", 1);

		if (S < 1 && shi && shi->num >= 1) {
			(*noise)++;
			CHECK_NEAR(e, 1, 0);
			CHECK_EQ_STR(lab_an_json_str(p, "karp_flatt_note"),
			             "(the estimate is above 1 within its noise)");
			continue;
		}
		if (S < 1) {
			(*none)++;
			CHECK(fits_is_null(p, "karp_flatt"));
			CHECK_EQ_STR(lab_an_json_str(p, "karp_flatt_why"),
			             "slower than 1 thread: worse than all serial (e(N) above 1)");
			continue;
		}
		(*some)++;
		lo = clitest_at(p, "karp_flatt_ci95", 0);
		hi = clitest_at(p, "karp_flatt_ci95", 1);
		CHECK(e >= 0 && e <= 1 && lo && hi && lo->num >= 0 && lo->num <= e &&
		      e <= hi->num && hi->num <= 1);
	}
	lab_an_json_free(j);
}

/* Karp-Flatt's e(N) is a serial fraction, in [0, 1]: a speedup below 1 beyond noise has none
 * (a lock's 0.36 read e = 4.5 [2.3, 7.5]) and says it is worse than all serial; within noise
 * it is 1, as Amdahl's f (lessons red team: fully serial data read "no serial fraction" where
 * S was 0.3 % under 1); an interval is clipped to [0, 1] (an end of -0.23). */
LAB_TEST(karp_flatt_stays_a_fraction)
{
	struct lab_an_json *j;
	const struct lab_an_json *s, *p, *lo, *hi;
	size_t none = 0, some = 0, noise = 0;

	kf_points("rising", &noise, &none, &some);
	kf_points("slowdown", &noise, &none, &some); /* 1 s, 1.5 s, 2.5 s */
	CHECK(none > 0 && noise > 0);
	some = 0;
	j = fits_csv_json("amdahl", "");
	s = j ? clitest_at(j, "series", 0) : NULL;
	REQUIRE(s);
	for (size_t i = 1; (p = clitest_at(s, "points", i)); i++) {
		double e = lab_an_json_num(p, "karp_flatt", -1);

		lo = clitest_at(p, "karp_flatt_ci95", 0);
		hi = clitest_at(p, "karp_flatt_ci95", 1);
		some += e >= 0;
		CHECK(e >= 0 && e <= 1 &&
		      (!lo || lo->type != LAB_AN_JSON_NUM || (lo->num >= 0 && hi && hi->num <= 1)));
	}
	CHECK(some > 0);
	lab_an_json_free(j);
}

/* The F-test picks the model; where AICc (lower is better) would pick the other, the note says
 * so (a newcomer read "usl" beside a lower AICc for Amdahl as a contradiction). */
LAB_TEST(aicc_disagreeing_with_the_f_test_is_said)
{
	char *out = fits_text("aicc_disagrees", "");

	REQUIRE(out);
	CHECK(strstr(out, "model: usl (F-test p = 0.0303; AICc Amdahl -27.4, USL -21.5: AICc "
	                  "prefers Amdahl; the F-test decides)") != NULL);
	free(out);
}

/* The printed analysis starts with its first section, not with a blank line (the gap belongs
 * between sections). */
LAB_TEST(text_starts_with_its_first_section)
{
	char *out = fits_text("four", "");

	REQUIRE(out);
	CHECK(!strncmp(out, "== ", 3));
	free(out);
}

/* Newcomer red team: the note of too few thread counts said "Amdahl and USL: 4", where USL
 * needs 5 (its three parameters + 2, as the fit itself says). */
LAB_TEST(few_counts_note_names_each_models_need)
{
	char *out = fits_text("superlinear-ray", "");

	REQUIRE(out);
	CHECK(strstr(out, "fewer distinct thread counts than a fit needs (Amdahl 4, USL 5)") !=
	      NULL);
	free(out);
}
