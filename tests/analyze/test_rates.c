/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Rates from declared work per unit (fixture results-rates, tests/analyze/gen_fixtures.py): the
 * triad kernel declares 16 bytes read, 8 written, 8 write-allocate and 2 flops per unit; its
 * costs are hand-picked, so every expected value below is worked out by hand:
 *   N = 1: costs 2.0, 2.2, 1.8 ns/unit: mean 2, se 0.2/sqrt(3), t(0.975, 2) = 4.302653, cost
 *          interval [1.5031725, 2.4968275]; GB/s = 24/2 = 12 in [24/2.4968275, 24/1.5031725] =
 *          [9.6121977, 15.966232]; with write-allocate 32/2 = 16 in [12.816264, 21.288309];
 *          GFLOP/s 2/2 = 1 in [0.80101648, 1.3305193]; flops/byte 2/24.
 *   N = 2: one sample of 1.0: 24 GB/s with no interval.
 *   N = 4: costs 0.1, 3.0: mean 1.55, se 1.45, t(0.975, 1) = 12.706205, cost interval
 *          [-16.874, 19.974] reaches 0: GB/s 24/1.55 = 15.483871, lower end 24/19.973997 =
 *          1.2015622, upper end open (null).
 */
#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/output.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

static const struct lab_an_json *rates_point(const struct lab_an_json *j, size_t series, size_t i)
{
	return clitest_at(clitest_at(j, "series", series), "points", i);
}

static double rates_at(const struct lab_an_json *p, const char *key, size_t i)
{
	const struct lab_an_json *v = clitest_at(p, key, i);

	return v && v->type == LAB_AN_JSON_NUM ? v->num : NAN;
}

static int rates_null_at(const struct lab_an_json *p, const char *key, size_t i)
{
	const struct lab_an_json *v = clitest_at(p, key, i);

	return v && v->type == LAB_AN_JSON_NULL;
}

LAB_TEST(rates_in_analysis_json)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *p;

	clitest_copy("results-rates");
	REQUIRE(clitest_run(NULL, "analyze results-rates --no-plots --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	p = rates_point(j, 0, 0);
	REQUIRE(p);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s", -1), 12, 1e-9);
	CHECK_NEAR(rates_at(p, "gbytes_per_s_ci95", 0), 9.6121977, 1e-6);
	CHECK_NEAR(rates_at(p, "gbytes_per_s_ci95", 1), 15.966232, 1e-6);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s_wa", -1), 16, 1e-9);
	CHECK_NEAR(rates_at(p, "gbytes_per_s_wa_ci95", 0), 12.816264, 1e-6);
	CHECK_NEAR(rates_at(p, "gbytes_per_s_wa_ci95", 1), 21.288309, 1e-6);
	CHECK_NEAR(lab_an_json_num(p, "gflops_per_s", -1), 1, 1e-9);
	CHECK_NEAR(rates_at(p, "gflops_per_s_ci95", 0), 0.80101648, 1e-7);
	CHECK_NEAR(rates_at(p, "gflops_per_s_ci95", 1), 1.3305193, 1e-7);
	CHECK_NEAR(lab_an_json_num(p, "flops_per_byte", -1), 2.0 / 24, 1e-9);
	p = rates_point(j, 0, 1);
	REQUIRE(p);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s", -1), 24, 1e-9);
	CHECK(rates_null_at(p, "gbytes_per_s_ci95", 0) && rates_null_at(p, "gbytes_per_s_ci95", 1));
	p = rates_point(j, 0, 2);
	REQUIRE(p);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s", -1), 15.483871, 1e-6);
	CHECK_NEAR(rates_at(p, "gbytes_per_s_ci95", 0), 1.2015622, 1e-6);
	CHECK(rates_null_at(p, "gbytes_per_s_ci95", 1));
	/* A kernel that declares no work gets no rate keys. */
	p = rates_point(j, 1, 0);
	REQUIRE(p);
	CHECK(lab_an_json_get(p, "gbytes_per_s") == NULL);
	/* Declared 0 flops is an exact 0 GFLOP/s; no write-allocate declared: both GB/s agree. */
	p = rates_point(j, 2, 0);
	REQUIRE(p);
	CHECK_NEAR(lab_an_json_num(p, "gflops_per_s", -1), 0, 0);
	CHECK_NEAR(rates_at(p, "gflops_per_s_ci95", 1), 0, 0);
	CHECK_NEAR(lab_an_json_num(p, "flops_per_byte", -1), 0, 0);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s_wa", -1), 8, 1e-9);
	CHECK_NEAR(lab_an_json_num(p, "gbytes_per_s", -1), 8, 1e-9);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* The value of column name in the data row whose threads column is threads and whose
 * experiment is exp; NaN when empty. */
static double rates_csv(const char *path, const char *exp, int threads, const char *name)
{
	struct lab_an_csv r;
	struct lab_err e = {0};
	double v = -1;
	int ce, ct, cv;

	if (lab_an_csv_open(&r, path, &e) || lab_an_csv_next(&r, &e) != 1)
		return -1;
	ce = lab_an_csv_column(&r, "experiment");
	ct = lab_an_csv_column(&r, "threads");
	cv = lab_an_csv_column(&r, name);
	while (cv >= 0 && lab_an_csv_next(&r, &e) == 1)
		if (!strcmp(r.field[ce], exp) && atoi(r.field[ct]) == threads) {
			v = *r.field[cv] ? strtod(r.field[cv], NULL) : NAN;
			break;
		}
	lab_an_csv_close(&r);
	return v;
}

LAB_TEST(rates_in_summary_csv)
{
	char *out = NULL, *err = NULL, path[2048], *csv = NULL;
	size_t len;

	clitest_copy("results-rates");
	REQUIRE(clitest_run(NULL, "analyze results-rates --no-plots", &out, &err) == 0);
	snprintf(path, sizeof(path), "%s/results-rates/summary.csv", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &csv, &len, NULL) == 0);
	CHECK(strstr(csv, ",mode_centers," LAB_AN_RATE_COLUMNS) != NULL);
	CHECK_NEAR(rates_csv(path, "triad", 1, "gbytes_per_s"), 12, 1e-9);
	CHECK_NEAR(rates_csv(path, "triad", 1, "gbytes_per_s_ci95_lo"), 9.6121977, 1e-6);
	CHECK_NEAR(rates_csv(path, "triad", 1, "gbytes_per_s_wa_ci95_hi"), 21.288309, 1e-6);
	CHECK_NEAR(rates_csv(path, "triad", 1, "gflops_per_s"), 1, 1e-9);
	CHECK_NEAR(rates_csv(path, "triad", 1, "flops_per_byte"), 2.0 / 24, 1e-9);
	CHECK_NEAR(rates_csv(path, "triad", 2, "gbytes_per_s_wa"), 32, 1e-9);
	CHECK(isnan(rates_csv(path, "triad", 2, "gbytes_per_s_ci95_lo")));
	CHECK(isnan(rates_csv(path, "triad", 4, "gbytes_per_s_ci95_hi")));
	CHECK(isnan(rates_csv(path, "plain", 1, "gbytes_per_s")));
	/* One sample: the cost interval is absent too, not [x, x]. */
	CHECK(isnan(rates_csv(path, "triad", 2, "ci95_lo")));
	CHECK(strstr(out, "GB/s r+w [95% CI]") != NULL);
	CHECK(strstr(out, "15.48 [1.202, unbounded)") != NULL);
	CHECK(strstr(out, "GB/s r+w: the bytes") == NULL); /* bandwidth_bound not said: no note */
	free(csv);
	free(out);
	free(err);
}

/* Every work_per_unit declares its loop bound by something other than its bytes. */
static void rt_not_bound(FILE *out, const char *line, void *ctx)
{
	(void)ctx;
	fprintf(out, "%s%s\n", line,
	        strstr(line, "\"work_per_unit\": {") ? " \"bandwidth_bound\": false," : "");
}

/* teach46: false sharing's one counter "moved 57 GB/s" at one thread, read as memory
 * bandwidth: a kernel whose loop is not bound by its bytes says what its GB/s is. */
LAB_TEST(rates_of_a_loop_not_bound_by_its_bytes)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-rates");
	REQUIRE(clitest_rewrite("results-rates/run.json", rt_not_bound, NULL) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-rates --no-plots", &out, &err) == 0);
	CHECK(strstr(out ?: "", "note: GB/s r+w: the bytes the kernel declares per unit over the "
	                        "cost, the rate its loop touched them; the kernel declares that "
	                        "loop bound by something other than its bytes") != NULL);
	free(out);
	free(err);
}

/*
 * Units say whose time: run.json's work_scope puts "all threads together" (triad) or "thread
 * 0's units only" (copy) beside the unit in the table header, the report and analysis.json; an
 * experiment that does not say (plain, an older run.json) keeps the bare unit. A kernel without
 * flops gets no GFLOP/s column and no row of zeros.
 */
LAB_TEST(cost_says_whose_time)
{
	char *out = NULL, *err = NULL, path[2048], *text = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const char *copy;
	size_t len;

	clitest_copy("results-rates");
	REQUIRE(clitest_run(NULL, "analyze results-rates --no-plots", &out, &err) == 0);
	CHECK(strstr(out,
	             "== scaling: triad  placement=compact\nstrong scaling, cost in ns/op, all "
	             "threads together; ") != NULL);
	/* one thread count: the points, no scaling said of them */
	CHECK(strstr(out, "== points: plain  placement=compact\ncost in ns/op; threads = 1 only: "
	                  "no scaling to show\n") != NULL);
	REQUIRE((copy = strstr(out, "== points: copy  placement=compact\ncost in ns/op, thread 0's "
	                            "units only; ")) != NULL);
	{ /* no speedup or efficiency of 1 [1, 1] at one thread count */
		const char *next = strstr(copy + 3, "\n== ");
		size_t n = next ? (size_t)(next - copy) : strlen(copy);
		char *sec = strndup(copy, n);

		REQUIRE(sec);
		CHECK(!strstr(sec, "speedup") && !strstr(sec, "efficiency"));
		free(sec);
	}
	CHECK(strstr(copy, "GB/s r+w [95% CI]") != NULL);
	CHECK(strstr(copy, "GFLOP/s") == NULL);
	CHECK(strstr(copy, "write-alloc") == NULL);

	snprintf(path, sizeof(path), "%s/results-rates/analysis.json", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &text, &len, NULL) == 0);
	REQUIRE(lab_an_json_parse(path, text, len, &j, &e) == 0);
	free(text);
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "series", 0), "work_scope"), "team");
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "series", 0), "cost_unit"), "ns/op");
	CHECK(clitest_at(j, "series", 1) &&
	      lab_an_json_get(clitest_at(j, "series", 1), "work_scope")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "series", 2), "work_scope"), "one");
	/* The cost interval of N = 4 ([-16.87, 19.97] as a bare t-interval) stops at 0. */
	CHECK_NEAR(rates_at(rates_point(j, 0, 2), "mean_ci95", 0), 0, 0);
	CHECK_NEAR(rates_at(rates_point(j, 0, 2), "mean_ci95", 1), 19.973997, 1e-5);
	lab_an_json_free(j);
	snprintf(path, sizeof(path), "%s/results-rates/summary.csv", testlib_tmpdir());
	CHECK_NEAR(rates_csv(path, "triad", 4, "ci95_lo"), 0, 0);
	CHECK_NEAR(rates_csv(path, "triad", 4, "ci99_lo"), 0, 0);
	CHECK(rates_csv(path, "triad", 4, "ci99_hi") > 19.97);

	snprintf(path, sizeof(path), "%s/results-rates/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &text, &len, NULL) == 0);
	CHECK(strstr(text, "ns/op: wall time per unit of the whole team&#39;s work, all threads "
	                   "together") != NULL);
	CHECK(strstr(text, "ns/op, thread 0&#39;s units only") != NULL);
	free(text);
	free(out);
	free(err);
}
