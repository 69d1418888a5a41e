/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lab binary end to end: lab analyze / report / compare on fixture copies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

LAB_TEST(analyze_json_fields)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *s, *p;
	static const char *const fit_keys[][2] = {
	    {"amdahl", "f"},  {"amdahl", "f_ci95"},  {"usl", "sigma"}, {"usl", "sigma_ci95"},
	    {"usl", "kappa"}, {"usl", "kappa_ci95"}, {"usl", "n_star"}};

	clitest_copy("results-usl");
	REQUIRE(clitest_run(NULL, "analyze results-usl --json", &out, &err) == 0);
	/* stdout is one JSON document and nothing else. */
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_EQ_STR(lab_an_json_str(j, "schema"), "lab.analysis/3");
	s = clitest_at(j, "series", 0);
	REQUIRE(s);
	CHECK_EQ_STR(lab_an_json_str(s, "model"), "usl");
	for (size_t k = 0; k < sizeof(fit_keys) / sizeof(fit_keys[0]); k++) {
		const struct lab_an_json *v =
		    lab_an_json_get(lab_an_json_get(s, fit_keys[k][0]), fit_keys[k][1]);

		if (!v || v->type == LAB_AN_JSON_NULL)
			TL__FAIL("missing %s.%s", fit_keys[k][0], fit_keys[k][1]);
	}
	p = clitest_at(s, "points", 3);
	REQUIRE(p);
	CHECK(lab_an_json_num(p, "speedup", -1) > 3);
	CHECK(clitest_at(p, "speedup_ci95", 1) && clitest_at(p, "speedup_ci95", 1)->num > 3);
	CHECK(clitest_exists("results-usl/summary.csv"));
	CHECK(clitest_exists("results-usl/analysis.json"));
	CHECK(clitest_exists("results-usl/report.html"));
	CHECK(clitest_exists("results-usl/plots/series00-contend-speedup-placement_compact.gp"));
	CHECK(clitest_exists("results-usl/plots/series00-contend-speedup-placement_compact.dat"));
	CHECK(clitest_exists("results-usl/plots/stride00-false_sharing-stride.gp"));
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* The top-level unit is the one every point shares ("ns/op" of results-usl), and null when the
 * points measure different units of work (elements, instances, iterations, loads): each series
 * says its own in cost_unit, none is labelled with the first kernel's unit. */
LAB_TEST(analyze_json_unit_shared_or_null)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *u, *s;
	int seen_other = 0;

	clitest_copy("results-usl");
	clitest_copy("results-cost-kind");
	REQUIRE(clitest_run(NULL, "analyze results-usl --json --no-plots", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_EQ_STR(lab_an_json_str(j, "unit"), "ns/op");
	lab_an_json_free(j);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze results-cost-kind --json --no-plots", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	u = lab_an_json_get(j, "unit");
	REQUIRE(u != NULL); /* the key stays */
	CHECK_EQ_I64(u->type, LAB_AN_JSON_NULL);
	s = clitest_at(j, "series", 0);
	REQUIRE(s && lab_an_json_str(s, "cost_unit"));
	for (size_t i = 1; clitest_at(j, "series", i); i++)
		seen_other |= strcmp(lab_an_json_str(clitest_at(j, "series", i), "cost_unit"),
		                     lab_an_json_str(s, "cost_unit")) != 0;
	CHECK(seen_other);
	lab_an_json_free(j);
	free(out);
	free(err);
}

LAB_TEST(analyze_text_and_summary)
{
	char *out = NULL, *err = NULL, path[2048], *csv = NULL;
	const char *hdr =
	    "experiment,point,kernel,params,threads,status,n,n_flagged,n_flagged_kept,unit,mean,";
	size_t len;

	clitest_copy("results-usl");
	REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "peak N* =") != NULL);
	CHECK(strstr(out, "model: usl") != NULL);
	CHECK(strstr(out, "skipped: needs 64 CPUs") != NULL);
	CHECK(strstr(out, "Gustafson s =") != NULL);
	CHECK(strstr(out, "1 foreign-load-flagged samples excluded") != NULL);
	snprintf(path, sizeof(path), "%s/results-usl/summary.csv", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &csv, &len, NULL) == 0);
	CHECK(!strncmp(csv, hdr, strlen(hdr)));
	CHECK(strstr(csv, "ops_per_s_median,ops_per_s_mean,ops_per_s_ci95_lo") != NULL);
	CHECK(!clitest_exists("results-usl/plots"));
	free(csv);
	free(out);
	free(err);
}

LAB_TEST(analyze_without_gnuplot_warns_once)
{
	char *out = NULL, *err = NULL;
	const char *w;

	clitest_copy("results-usl");
	REQUIRE(clitest_run("PATH=/nonexistent", "analyze results-usl", &out, &err) == 0);
	w = strstr(err, "apt-get install gnuplot-nox");
	CHECK(w != NULL);
	CHECK(w && strstr(w + 1, "apt-get install gnuplot-nox") == NULL);
	CHECK(clitest_exists("results-usl/plots/series00-contend-speedup-placement_compact.gp"));
	CHECK(!clitest_exists("results-usl/plots/01-contend-placement_compact-speedup.svg"));
	CHECK(clitest_exists("results-usl/report.html"));
	free(out);
	free(err);
}

LAB_TEST(analyze_csv_errors_exit_2)
{
	char *out = NULL, *err = NULL, args[2048];

	snprintf(args, sizeof(args), "analyze --csv %s/tests/fixtures/csv/nan.csv",
	         testlib_srcdir());
	CHECK_EQ_I64(clitest_run(NULL, args, &out, &err), 2);
	CHECK(strstr(err, "nan.csv:4: seconds = 'nan'") != NULL);
	CHECK_EQ_STR(out, "");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "analyze --csv %s/tests/fixtures/csv/negative.csv --json",
	         testlib_srcdir());
	CHECK_EQ_I64(clitest_run(NULL, args, &out, &err), 2);
	CHECK(strstr(err, "negative.csv:5:") != NULL);
	CHECK_EQ_STR(out, "");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "analyze --csv %s/tests/fixtures/csv/amdahl.csv",
	         testlib_srcdir());
	CHECK_EQ_I64(clitest_run(NULL, args, &out, &err), 0);
	CHECK(strstr(out, "Amdahl   f =") != NULL);
	free(out);
	free(err);
}

/* A throughput past what the analyzer holds is quoted with the throughput's own bounds (it was
 * "1/throughput = '1e-300': allowed a cost per unit of ...", the value quoted as its inverse). */
LAB_TEST(analyze_csv_throughput_bounds_are_its_own)
{
	char *out = NULL, *err = NULL, path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tp.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("threads,throughput\n1,1e-300\n2,1e300\n", f);
	fclose(f);
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv tp.csv", &out, &err), 2);
	CHECK(err && strstr(err, "tp.csv:2: throughput = '1e-300': allowed 1e-100 .. 1e+100 (its "
	                         "inverse is the cost per unit; ") != NULL);
	free(out);
	free(err);
}

/* Red team: an Amdahl whose f lies outside [0, 1] beyond its noise was the series' model when
 * the F-test did not prefer the USL (a superlinear cost 1/N^1.5 read "model: amdahl"). */
LAB_TEST(amdahl_out_of_range_is_no_model)
{
	static const double wobble[] = {-1, 0, 1};
	char *out = NULL, *err = NULL, path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/super.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("threads,seconds\n", f);
	for (int n = 1; n <= 8; n *= 2)
		for (int r = 0; r < 3; r++)
			fprintf(f, "%d,%.9g\n", n, pow(n, -1.5) * (1 + 0.002 * wobble[r]));
	fclose(f);
	REQUIRE(clitest_run(NULL, "analyze --csv super.csv", &out, &err) == 0);
	CHECK(strstr(out, "outside [0, 1] beyond its noise") != NULL);
	CHECK(strstr(out, "model: amdahl") == NULL);
	CHECK(
	    strstr(out, "no fit: Amdahl's f lies outside [0, 1] beyond its noise (superlinear)") !=
	    NULL);
	free(out);
	free(err);
}

/* One sample has no spread: its sd and CV were 0 in the text, summary.csv and analysis.json. */
LAB_TEST(one_sample_has_no_spread)
{
	char *out = NULL, *err = NULL, path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/one.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("threads,seconds\n1,2\n2,1.1\n2,1.2\n", f);
	fclose(f);
	REQUIRE(clitest_run(NULL, "analyze --csv one.csv --json", &out, &err) == 0);
	const char *one = strstr(out, "\"threads\": 1,"), *two = strstr(out, "\"threads\": 2,");
	REQUIRE(one && two && one < two);
	const char *cv1 = strstr(one, "\"cv\": "), *sd1 = strstr(one, "\"sd\": ");
	REQUIRE(cv1 && sd1 && cv1 < two);
	CHECK(!strncmp(cv1, "\"cv\": null", 10) && !strncmp(sd1, "\"sd\": null", 10));
	CHECK(strncmp(strstr(two, "\"cv\": "), "\"cv\": null", 10) != 0);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze --csv one.csv", &out, &err) == 0);
	const char *row = strstr(out, "\n1 "), *end = row ? strchr(row + 1, '\n') : NULL;
	REQUIRE(row && end);
	const char *why = strstr(row, "one sample");
	CHECK(why && why < end);
	free(out);
	free(err);
}

/* Red team: a USL of sigma > 1 or kappa < 0 beyond the noise was chosen over Amdahl without a
 * word (kappa < 0 read "no retrograde region"): now each is a warning, and no model. */
LAB_TEST(usl_out_of_range_is_no_model)
{
	static const struct {
		const char *name;
		double sigma, kappa;
	} ser[] = {{"slower", 1.5, 0.1}, {"unbounded", 0.1, -0.004}, {"retro", 0.05, 0.02}};
	static const double wobble[] = {-1, -0.5, 0, 0.5, 1};
	static const int N[] = {1, 2, 4, 8, 16};
	char *out = NULL, *err = NULL, path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/usl.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("series,threads,rep,throughput\n", f);
	for (size_t s = 0; s < 3; s++)
		for (size_t i = 0; i < 5; i++)
			for (int r = 0; r < 5; r++) {
				double n = N[i],
				       d = 1 + ser[s].sigma * (n - 1) + ser[s].kappa * n * (n - 1);
				fprintf(f, "%s,%d,%d,%.6g\n", ser[s].name, N[i], r,
				        100 * n / d * (1 + 0.02 * wobble[(r + (int)i) % 5]));
			}
	fclose(f);
	REQUIRE(clitest_run(NULL, "analyze --csv usl.csv", &out, &err) == 0);
	CHECK(strstr(out, "> 1 beyond its noise: each thread added slows the whole") != NULL);
	CHECK(strstr(out, "< 0 beyond its noise: the fit's throughput grows without bound near "
	                  "N = ") != NULL);
	CHECK(strstr(out, "kappa < 0 beyond its noise: no retrograde region") != NULL);
	/* two series without a model, the well-behaved one keeps its USL */
	const char *a = strstr(out, "model: none"), *b = a ? strstr(a + 1, "model: none") : NULL;
	CHECK(a && b && !strstr(b + 1, "model: none"));
	CHECK(strstr(out, "model: usl") != NULL);
	/* Amdahl stays rejected by the F-test: its bound 1/f is offered for none of the three */
	size_t rejected = 0;
	for (const char *q = out; (q = strstr(q, "WARNING: Amdahl rejected")); q++)
		rejected++;
	CHECK_EQ_U64(rejected, 3);
	CHECK(strstr(out, "max speedup") == NULL);
	free(out);
	free(err);
}

/* --csv input goes through the base reader: a FIFO (which once blocked the analyzer) and a
 * directory are refused at once as bad usage; a missing file keeps the analyzer's wording. */
LAB_TEST(analyze_csv_not_a_file_exit_2)
{
	static const char *const cases[][2] = {
	    {"fifo.csv", "fifo.csv: not a regular file (a FIFO; allowed: a regular file)"},
	    {"dir.csv", "dir.csv: not a regular file (a directory; allowed: a regular file)"},
	    {"missing.csv", "cannot open missing.csv: No such file or directory"},
	};
	char *out = NULL, *err = NULL, path[1024], args[1200];

	snprintf(path, sizeof(path), "%s/fifo.csv", testlib_tmpdir());
	REQUIRE(mkfifo(path, 0600) == 0);
	snprintf(path, sizeof(path), "%s/dir.csv", testlib_tmpdir());
	REQUIRE(mkdir(path, 0700) == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(args, sizeof(args), "analyze --csv %s --json", cases[i][0]);
		CHECK_EQ_I64(clitest_run(NULL, args, &out, &err), 2);
		CHECK(strstr(err, cases[i][1]) != NULL);
		CHECK_EQ_STR(out, "");
		free(out);
		free(err);
	}
}

LAB_TEST(usage_and_help)
{
	char *out = NULL, *err = NULL;
	static const char *const ok[] = {"analyze --help", "report --help", "compare -h",
	                                 "help analyze"};
	/* `lab help analyze` is `lab analyze --help`; an unknown word after help is no help */
	static const char *const bad[] = {
	    "analyze",         "analyze --bogus x",     "analyze no-such-dir",
	    "compare onlyone", "compare a b --noise 2", "report",
	    "help frobnicate", "--help junk",           "help analyze report"};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_EQ_I64(clitest_run(NULL, ok[i], &out, &err), 0);
		CHECK(strstr(out, "usage: lab") != NULL);
		if (i == 3)
			CHECK(strstr(out, "usage: lab analyze DIR") == out);
		free(out);
		free(err);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_I64(clitest_run(NULL, bad[i], &out, &err), 2);
		CHECK(strlen(err) > 0);
		free(out);
		free(err);
	}
}

LAB_TEST(interrupted_run_and_report)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-interrupted");
	REQUIRE(clitest_run(NULL, "report results-interrupted", &out, &err) == 0);
	CHECK(strstr(err, "the run is 'interrupted'") != NULL);
	CHECK(strstr(err, "incomplete last line ignored") != NULL);
	CHECK(strstr(out, "report.html") != NULL);
	CHECK(clitest_exists("results-interrupted/report.html"));
	free(out);
	free(err);
}

LAB_TEST(compare_json_and_text)
{
	char *out = NULL, *err = NULL, args[4096];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-a "
	         "%s/tests/fixtures/results-compare-b --json",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "improved", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "regressed", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "within_noise", -1), 1, 0);
	lab_an_json_free(j);
	free(out);
	free(err);
	/* A wider noise band turns the 20 % changes into "within noise". */
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-a "
	         "%s/tests/fixtures/results-compare-b --noise 0.5",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "0 improved, 0 regressed, 3 within noise") != NULL);
	free(out);
	free(err);
}

/* Two runs of different builds (another compiler here; another -march for the auto kernels
 * alike): compare said nothing, and an isa=auto "improvement" of 52 % was the compiler's target.
 * Now a note names both builds, and analysis.json's "builds" says they differ. */
LAB_TEST(compare_names_different_builds)
{
	char *out = NULL, *err = NULL, path[2048], *text;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *b;
	FILE *f;

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "built differently") == NULL);
	free(out);
	free(err);
	REQUIRE((text = clitest_read("results-compare-b/run.json")));
	REQUIRE(strstr(text, "\"gcc 12.2.0\""));
	memcpy(strstr(text, "\"gcc 12.2.0\""), "\"gcc 13.1.0\"", 12);
	snprintf(path, sizeof(path), "%s/results-compare-b/run.json", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs(text, f);
	fclose(f);
	free(text);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "note: the runs were built differently, in compiler (old: lab 0.1.0 "
	                  "(fixture), gcc 12.2.0, RelWithDebInfo, C flags \"-O2 -g\", OpenMP; "
	                  "new: lab 0.1.0 (fixture), gcc 13.1.0, "
	                  "RelWithDebInfo, C flags \"-O2 -g\", OpenMP): a change "
	                  "may be the build's") != NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	REQUIRE((b = lab_an_json_get(j, "builds")));
	CHECK(lab_an_json_get(b, "differ") &&
	      lab_an_json_get(b, "differ")->type == LAB_AN_JSON_BOOL &&
	      lab_an_json_get(b, "differ")->num == 1);
	CHECK(lab_an_json_str(b, "new") && strstr(lab_an_json_str(b, "new"), "gcc 13.1.0"));
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* Writes FIXTURE/run.json again with its "openmp": true followed by an auto_march of flag. */
static void cli_auto_march(const char *fixture, const char *flag)
{
	char path[2048], rel[256], *text, *at;
	FILE *f;

	snprintf(rel, sizeof(rel), "%s/run.json", fixture);
	REQUIRE((text = clitest_read(rel)));
	REQUIRE((at = strstr(text, "\"openmp\": true")));
	at += strlen("\"openmp\": true");
	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE((f = fopen(path, "w")));
	fprintf(f, "%.*s, \"auto_march\": {\"flag\": \"%s\"}%s", (int)(at - text), text, flag, at);
	fclose(f);
	free(text);
}

/* Builds that differ only in the auto kernels' -march, of runs without an isa=auto point: the
 * note said a change of the isa=auto points may be the build's, of runs that have none. */
LAB_TEST(compare_auto_build_without_auto_points)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	cli_auto_march("results-compare-a", "x86-64");
	cli_auto_march("results-compare-b", "native");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "note: the runs were built differently, in -march of the auto kernels") !=
	      NULL);
	CHECK(strstr(out, "only isa=auto points ran code built differently, and these runs have "
	                  "none: no row's change is the build's") != NULL);
	CHECK(strstr(out, "may be the build's") == NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	CHECK(strstr(out, "\"scope\": \"isa=auto\"") && strstr(out, "\"auto_points_old\": 0") &&
	      strstr(out, "\"auto_points_new\": 0"));
	free(out);
	free(err);
}

/* Gives each point of a compare fixture stride = ctx ("8" or "8B") in samples.csv and run.json. */
static void ct_stride(FILE *out, const char *line, void *ctx)
{
	const char *at = strstr(line, "placement=compact");

	if (at)
		fprintf(out, "%.*splacement=compact;stride=%s%s\n", (int)(at - line), line,
		        (const char *)ctx, at + strlen("placement=compact"));
	else if (!strcmp(line, "      \"placement\": \"compact\""))
		fprintf(out, "%s, \"stride\": \"%s\"\n", line, (const char *)ctx);
	else
		fprintf(out, "%s\n", line);
}

/* Red team: stride=8 in one run and stride=8B in the other (one value to the analyzer, which
 * refuses the two as one point's duplicates within a run) were "only in old" and "only in
 * new": compare matched the params' text. It matches their amounts now. */
/* Where the cost is not what the points' view reports (omp_overhead: test + reference), the
 * compare says so: two runs read "regressed +14 %" where the overhead had not moved
 * (newcomer36). */
LAB_TEST(compare_says_a_cost_is_not_the_view_figure)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead results-omp-overhead", &out,
	                    &err) == 0);
	CHECK(strstr(out, "ovh: mean cost in ns/instance; the cost is test + reference per "
	                  "instance, not the construct's overhead") != NULL);
	CHECK(strstr(out, "overhead_ns (ns)   110         110          +0 [-22.67, +22.67]") !=
	      NULL);
	free(out);
	free(err);
	clitest_copy("results-compare-a");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-a", &out, &err) == 0);
	CHECK(strstr(out, "the cost is") == NULL);
	free(out);
	free(err);
}

/* Point 0's samples (omp_overhead at 1 thread) with their overhead_ns times *ctx, their cost
 * (elapsed_ns / work) kept: 2, the overhead grew and the test + reference did not; -1, below
 * 0 (a drifted reference). */
static void ct_overhead_times(FILE *out, const char *line, void *ctx)
{
	const char *last = strrchr(line, ','), *ovh = last;
	const double *k = ctx;

	while (ovh && ovh > line && ovh[-1] != ',')
		ovh--;
	if (strncmp(line, "ovh,0,", 6) || !ovh || ovh == line)
		fprintf(out, "%s\n", line);
	else
		fprintf(out, "%.*s%g%s\n", (int)(ovh - line), line, *k * strtod(ovh, NULL), last);
}

/* The barrier points as single ones. */
static void ct_barrier_single(FILE *out, const char *line, void *ctx)
{
	const char *c = strstr(line, "barrier");

	(void)ctx;
	if (c)
		fprintf(out, "%.*ssingle%s\n", (int)(c - line), line, c + strlen("barrier"));
	else
		fprintf(out, "%s\n", line);
}

/* The experiment declares no views. */
static void ct_no_views(FILE *out, const char *line, void *ctx)
{
	(void)ctx;
	fprintf(out, "%s\n", line);
	if (strstr(line, "\"name\": \"ovh\","))
		fprintf(out, "   \"views\": [],\n");
}

/* The figure's change is tested where the cost's is not its own: doubled overhead_ns under an
 * unchanged cost reads "regressed" in the figure's table, "no change" in the cost's (review of
 * newcomer36: compare judged only test + reference). */
LAB_TEST(compare_tests_the_view_figure_beside_the_cost)
{
	char *out = NULL, *err = NULL, cmd[2048];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	double two = 2, minus = -1;

	clitest_copy("results-omp-overhead");
	snprintf(cmd, sizeof(cmd), "cd %s && rm -rf ovh-new && cp -r results-omp-overhead ovh-new",
	         testlib_tmpdir());
	REQUIRE(system(cmd) == 0);
	REQUIRE(clitest_rewrite("ovh-new/samples.csv", ct_overhead_times, &two) == 0);
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead ovh-new", &out, &err) == 0);
	CHECK(strstr(out, "overhead_ns (ns)   110         220          +110 [+68.45, +151.6]") !=
	      NULL);
	CHECK(strstr(out, "(overhead_ns), compared below") != NULL);
	CHECK(strstr(out, "figures: 0 improved, 1 regressed, 0 within noise, 0 changed (size "
	                  "unclear), 2 no change, 0 not tested") != NULL);
	CHECK(strstr(out, "0 regressed, 0 within noise (+-1%), 3 no change") != NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead ovh-new --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	const struct lab_an_json *pts = lab_an_json_get(j, "points");
	REQUIRE(pts && pts->type == LAB_AN_JSON_ARR && pts->n == 4);
	const struct lab_an_json *fig = lab_an_json_get(&pts->items[0], "figure");
	CHECK_EQ_STR(lab_an_json_str(&pts->items[0], "verdict"), "no change");
	CHECK_EQ_STR(lab_an_json_str(&pts->items[0], "unit"), "ns/instance");
	CHECK(strncmp(lab_an_json_str(&pts->items[0], "cost_is") ?: "",
	              "test + reference per instance", 29) == 0);
	CHECK_EQ_STR(lab_an_json_str(fig, "metric"), "overhead_ns");
	CHECK_EQ_STR(lab_an_json_str(fig, "unit"), "ns");
	CHECK_EQ_STR(lab_an_json_str(fig, "verdict"), "regressed");
	CHECK_NEAR(lab_an_json_num(fig, "difference", NAN), 110, 1e-9);
	CHECK(lab_an_json_get(&pts->items[3], "figure") == NULL); /* did not run */
	lab_an_json_free(j);
	free(out);
	free(err);
	/* overhead_ns below 0 on a side is no value (analyze: "not measurable"): +110 -> -220
	 * is no gain (hostile40) */
	REQUIRE(clitest_rewrite("ovh-new/samples.csv", ct_overhead_times, &minus) == 0);
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead ovh-new --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	pts = lab_an_json_get(j, "points");
	REQUIRE(pts && pts->type == LAB_AN_JSON_ARR && pts->n == 4);
	CHECK_EQ_STR(lab_an_json_str(lab_an_json_get(&pts->items[0], "figure"), "verdict"),
	             "untested (mean <= 0 on a side: below resolution or noise)");
	lab_an_json_free(j);
	free(out);
	free(err);
	/* a views list edited on one side (none there): no figure, and the text does not say
	 * one is compared (it did from the old side's view alone: hostile38) */
	REQUIRE(clitest_rewrite("ovh-new/run.json", ct_no_views, NULL) == 0);
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead ovh-new", &out, &err) == 0);
	CHECK(strstr(out, "overhead_ns (ns)") == NULL);
	CHECK(strstr(out, "the cost is") == NULL);
	free(out);
	free(err);
	/* and with points only in old (barrier renamed on the new side): what their cost is, but
	 * no "compared below" without a figure row (review39) */
	REQUIRE(clitest_rewrite("ovh-new/run.json", ct_barrier_single, NULL) == 0);
	REQUIRE(clitest_rewrite("ovh-new/samples.csv", ct_barrier_single, NULL) == 0);
	REQUIRE(clitest_run(NULL, "compare results-omp-overhead ovh-new", &out, &err) == 0);
	CHECK(strstr(out, "the cost is test + reference per instance") != NULL);
	CHECK(strstr(out, "compared below") == NULL);
	free(out);
	free(err);
}

LAB_TEST(compare_matches_amounts_spelled_two_ways)
{
	char *out = NULL, *err = NULL, s8[] = "8", s8b[] = "8B", s16b[] = "16B";
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	REQUIRE(clitest_rewrite("results-compare-a/samples.csv", ct_stride, s8) == 0);
	REQUIRE(clitest_rewrite("results-compare-a/run.json", ct_stride, s8) == 0);
	REQUIRE(clitest_rewrite("results-compare-b/samples.csv", ct_stride, s8b) == 0);
	REQUIRE(clitest_rewrite("results-compare-b/run.json", ct_stride, s8b) == 0);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "unmatched", -1), 0, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "improved", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "regressed", -1), 1, 0);
	lab_an_json_free(j);
	free(out);
	free(err);
	/* another amount is another point */
	clitest_copy("results-compare-b");
	REQUIRE(clitest_rewrite("results-compare-b/samples.csv", ct_stride, s16b) == 0);
	REQUIRE(clitest_rewrite("results-compare-b/run.json", ct_stride, s16b) == 0);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "unmatched", -1), 8, 0);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* results-compare-b's run.json (copied) with its first from replaced by to. */
static void clitest_patch_run(const char *from, const char *to)
{
	char path[2048], *text, *at;
	FILE *f;

	REQUIRE((text = clitest_read("results-compare-b/run.json")));
	REQUIRE((at = strstr(text, from)));
	*at = '\0';
	snprintf(path, sizeof(path), "%s/results-compare-b/run.json", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fprintf(f, "%s%s%s", text, to, at + strlen(from));
	fclose(f);
	free(text);
}

/* Builds that differ in C flags, build type, sanitizer and OpenMP but not the compiler: compare
 * said nothing (its build text held only version, sha, compiler and -march); now its note and
 * --json say what differs. */
LAB_TEST(compare_names_build_flags)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *w;

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	clitest_patch_run("\"c_flags\": \"-O2 -g\"", "\"c_flags\": \"-O0 -g\"");
	clitest_patch_run("\"build_type\": \"RelWithDebInfo\"", "\"build_type\": \"Debug\"");
	clitest_patch_run("\"sanitize\": \"\",", "\"sanitize\": \"thread\",");
	clitest_patch_run("\"openmp\": true", "\"openmp\": false");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(strstr(out, "note: the runs were built differently, in C flags, build type, "
	                  "sanitizer, OpenMP (old: ") != NULL);
	CHECK(strstr(out, "; new: lab 0.1.0 (fixture), gcc 12.2.0, Debug, C flags \"-O0 -g\", "
	                  "sanitize=thread, no OpenMP)") != NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out,
	                    &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	w = lab_an_json_get(lab_an_json_get(j, "builds"), "what");
	REQUIRE(w && w->type == LAB_AN_JSON_ARR && w->n == 4);
	CHECK_EQ_STR(w->items[0].str, "c_flags");
	CHECK_EQ_STR(w->items[3].str, "openmp");
	lab_an_json_free(j);
	free(out);
	free(err);
	/* a sanitized run says so in lab analyze's text */
	REQUIRE(clitest_run(NULL, "analyze results-compare-b --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "build: sanitized (sanitize=thread): the times are the sanitizer's") !=
	      NULL);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze results-compare-a --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "sanitized") == NULL);
	free(out);
	free(err);
}

/* What isa=auto is depends on the build (its -march), which no table said: the text says it
 * when some point ran isa=auto, and not otherwise. */
LAB_TEST(analyze_names_the_auto_build)
{
	char cmd[1024], *out = NULL, *err = NULL;

	snprintf(cmd, sizeof(cmd),
	         "run %s/configs/quick.ini -o auto --no-progress --only stream "
	         "--set stream.threads=1 --set stream.reps=2 --set stream.min_time=1ms "
	         "--set stream.warmup=1ms --set global.retry_flagged=0",
	         testlib_srcdir());
	REQUIRE(clitest_run(NULL, cmd, &out, &err) == 0);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze auto --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "build: isa=auto is the compiler's code for lab ") != NULL);
	CHECK(strstr(out, ", auto -march=") != NULL);
	free(out);
	free(err);
	clitest_copy("results-compare-a");
	REQUIRE(clitest_run(NULL, "analyze results-compare-a --no-plots", &out, &err) == 0);
	CHECK(strstr(out, "build: isa=auto") == NULL);
	free(out);
	free(err);
}

/*
 * Issue 22: with runs = 3 on both sides, compare uses the run means. At 1 thread the new side is
 * 8 % dearer, but the runs differ by 10 %: the samples alone (30 a side) call it a regression,
 * the run level calls it no change; the 50 % change at 2 threads is a regression at both.
 * (tests/analyze/gen_fixtures_runs.py writes the fixtures.)
 */
LAB_TEST(compare_runs_uses_run_level)
{
	char *out = NULL, *err = NULL, args[4096];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *pts;

	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-runs-a "
	         "%s/tests/fixtures/results-compare-runs-b --json",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "regressed", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "no_change", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "by_runs", -1), 2, 0);
	pts = lab_an_json_get(j, "points");
	REQUIRE(pts && pts->n == 2);
	for (size_t i = 0; i < pts->n; i++) {
		const struct lab_an_json *p = &pts->items[i];
		int one = lab_an_json_num(p, "threads", 0) == 1;

		CHECK_EQ_STR(lab_an_json_str(p, "level"), "runs");
		CHECK_NEAR(lab_an_json_num(p, "old_runs", 0), 3, 0);
		CHECK_EQ_STR(lab_an_json_str(p, "samples_verdict"), "regressed");
		CHECK_EQ_STR(lab_an_json_str(p, "verdict"), one ? "no change" : "regressed");
		/* the interval of the change holds 0 at 1 thread: run-to-run noise */
		if (one)
			CHECK(lab_an_json_get(p, "change_ci95")->items[0].num < 0);
	}
	lab_an_json_free(j);
	free(out);
	free(err);
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-runs-a "
	         "%s/tests/fixtures/results-compare-runs-b",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "no change (run means, 3 vs 3 runs)") != NULL);
	CHECK(strstr(out, "2 compared on run means") != NULL);
	free(out);
	free(err);
}

/* Red team: reruns of one config (runs = 1) were called 20 % improved, then 20 % regressed
 * (p = 1e-9), and compare's text gave no word that its test knows no spread between runs. */
LAB_TEST(compare_one_run_a_side_says_what_its_test_knows)
{
	char *out = NULL, *err = NULL, args[4096];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-a %s/tests/fixtures/results-compare-b",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "4 compared on the samples of one run a side (runs = 1): the test knows "
	                  "the spread within a run, not between runs") != NULL);
	free(out);
	free(err);
	strcat(args, " --json");
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "by_samples", -1), 4, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "by_runs", -1), 0, 0);
	lab_an_json_free(j);
	free(out);
	free(err);
	/* on run means: none of one run */
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-runs-a "
	         "%s/tests/fixtures/results-compare-runs-b",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "of one run a side") == NULL);
	free(out);
	free(err);
}

/* Red team: a point of 3 planned runs that kept one (the others' samples flagged) was called
 * "improved" on that one setup's samples against the old side's run means, without a word:
 * its change (-10 %) was the old side's run-to-run spread. Now it is untested, says why, and
 * keeps the samples' verdict for the record. */
/* The stdout of lab compare of the fixture results-numa-runs against the edited copy of it
 * with args after (malloc'd); NULL when it failed. */
static char *ct_compare_copy(const char *args)
{
	char *out = NULL, *err = NULL, cmd[4096];

	snprintf(cmd, sizeof(cmd),
	         "compare %s/tests/fixtures/results-numa-runs results-numa-runs%s",
	         testlib_srcdir(), args);
	if (clitest_run(NULL, cmd, &out, &err) != 0) {
		TL__FAIL("lab %s: %s", cmd, err ? err : "");
		free(out);
		out = NULL;
	}
	free(err);
	return out;
}

/* The same with --json, parsed; NULL when it failed. */
static struct lab_an_json *ct_compare_copy_json(void)
{
	char *out = ct_compare_copy(" --json");
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	if (out && lab_an_json_parse("stdout", out, strlen(out), &j, &e) != 0)
		TL__FAIL("compare --json: %s", e.msg);
	free(out);
	return j;
}

/* Point 0's runs 1 and 2 flagged (",0,1" and ",0,2" end their rows). */
static void ct_flag_runs(FILE *out, const char *line, void *ctx)
{
	size_t n = strlen(line);
	int flag = !strncmp(line, "lat,0,", 6) && n > 4 &&
	           (!strcmp(line + n - 4, ",0,1") || !strcmp(line + n - 4, ",0,2"));

	(void)ctx;
	fprintf(out, "%.*s%s\n", (int)(flag ? n - 3 : n), line,
	        flag ? (line[n - 1] == '1' ? "1,1" : "1,2") : "");
}

LAB_TEST(compare_one_setup_is_untested)
{
	char *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	const struct lab_an_json *p;

	clitest_copy("results-numa-runs");
	REQUIRE(clitest_rewrite("results-numa-runs/samples.csv", ct_flag_runs, NULL) == 0);
	REQUIRE((j = ct_compare_copy_json()) != NULL);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "one_setup", -1), 1, 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "improved", -1), 0, 0);
	REQUIRE((p = clitest_at(j, "points", 0)) != NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "verdict"),
	             "untested (one setup: fewer than 2 of its runs kept)");
	CHECK_EQ_STR(lab_an_json_str(p, "one_setup"), "new: ONE SETUP: 1 of 3 runs kept");
	CHECK_EQ_STR(lab_an_json_str(p, "samples_verdict"), "improved");
	lab_an_json_free(j);
	REQUIRE((out = ct_compare_copy("")) != NULL);
	CHECK(strstr(out, "(new: ONE SETUP: 1 of 3 runs kept; the samples say improved)") != NULL);
	CHECK(strstr(out, "1 untested: one setup on a side") != NULL);
	free(out);
	free(err);
	/* both sides one setup: both named (the old side alone was) */
	REQUIRE(clitest_run(NULL, "compare results-numa-runs results-numa-runs", &out, &err) == 0);
	CHECK(strstr(out, "(old: ONE SETUP: 1 of 3 runs kept; new: ONE SETUP: 1 of 3 runs kept; "
	                  "the samples say no change)") != NULL);
	free(out);
	free(err);
}

/* The first run's rows alone (a row ends ",R"); the header stays. */
static void ct_run0(FILE *out, const char *line, void *ctx)
{
	size_t n = strlen(line);

	(void)ctx;
	if (!strncmp(line, "experiment,", 11) || (n > 2 && !strcmp(line + n - 2, ",0")))
		fprintf(out, "%s\n", line);
}

/* One run planned and measured: the runs, reps and samples of run 0 alone. */
static void ct_one_run(FILE *out, const char *line, void *ctx)
{
	char buf[4096], *p;

	(void)ctx;
	snprintf(buf, sizeof(buf), "%s", line);
	if ((p = strstr(buf, "\"runs\": 3")))
		p[8] = '1';
	if ((p = strstr(buf, "\"runs_planned\": 3")))
		p[16] = '1';
	if ((p = strstr(buf, "\"reps\": 18")))
		memcpy(p + 8, " 6", 2);
	fprintf(out, "%s\n", buf);
}

/* Red team: 3 runs (run means 90, 100, 110 ns) against one setup of the same point (its run
 * at 90, tight) read "improved -10 %" on samples, the old side's runs taken as independent
 * samples. Mixed as the speedups and lessons take it: the one setup's mean gets the other's
 * spread between runs, and the samples' verdict is kept for the record. */
LAB_TEST(compare_runs_against_one_setup_is_mixed)
{
	char *out = NULL;
	struct lab_an_json *j = NULL;
	const struct lab_an_json *p;

	clitest_copy("results-numa-runs");
	REQUIRE(clitest_rewrite("results-numa-runs/samples.csv", ct_run0, NULL) == 0);
	REQUIRE(clitest_rewrite("results-numa-runs/run.json", ct_one_run, NULL) == 0);
	REQUIRE((j = ct_compare_copy_json()) != NULL);
	REQUIRE((p = clitest_at(j, "points", 0)) != NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "level"), "mixed");
	CHECK(strcmp(lab_an_json_str(p, "verdict"), "improved") != 0);
	CHECK_EQ_STR(lab_an_json_str(p, "samples_verdict"), "improved");
	CHECK_NEAR(lab_an_json_num(p, "old_mean", NAN), 100, 0.5);
	lab_an_json_free(j);
	REQUIRE((out = ct_compare_copy("")) != NULL);
	CHECK(strstr(out, "(3 vs 1 runs: the one setup's mean with the other side's spread between "
	                  "runs)") != NULL);
	free(out);
}

/* Run 0's rows, all but each point's first flagged: one used sample per point. */
static void ct_run0_one(FILE *out, const char *line, void *ctx)
{
	static char seen[64];
	size_t n = strlen(line);
	int pt = -1;

	(void)ctx;
	if (!strncmp(line, "experiment,", 11)) {
		memset(seen, 0, sizeof(seen));
		fprintf(out, "%s\n", line);
		return;
	}
	if (n < 4 || strcmp(line + n - 2, ",0"))
		return;
	sscanf(strchr(line, ',') + 1, "%d", &pt);
	if (pt >= 0 && pt < 64 && seen[pt]++)
		fprintf(out, "%.*s1,0\n", (int)(n - 3), line);
	else
		fprintf(out, "%s\n", line);
}

/* Precision red team: the one setup of one used sample took the other side's between-run
 * variance and run count, and was tested (8 of 12 such points read "regressed"): it stays
 * untested, says nothing of a spread it did not take, and is not counted as compared. */
LAB_TEST(compare_runs_against_one_sample_is_untested)
{
	char *out = NULL;
	struct lab_an_json *j = NULL;
	const struct lab_an_json *p;

	clitest_copy("results-numa-runs");
	REQUIRE(clitest_rewrite("results-numa-runs/samples.csv", ct_run0_one, NULL) == 0);
	REQUIRE(clitest_rewrite("results-numa-runs/run.json", ct_one_run, NULL) == 0);
	REQUIRE((j = ct_compare_copy_json()) != NULL);
	REQUIRE((p = clitest_at(j, "points", 0)) != NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "level"), "mixed");
	CHECK_EQ_STR(lab_an_json_str(p, "verdict"), "untested (one sample a side)");
	CHECK(lab_an_json_num(lab_an_json_get(j, "counts"), "by_runs", NAN) == 0);
	lab_an_json_free(j);
	REQUIRE((out = ct_compare_copy("")) != NULL);
	CHECK(strstr(out, "(3 vs 1 runs)") != NULL);
	CHECK(strstr(out, "spread between runs") == NULL);
	CHECK(strstr(out, "compared on run means") == NULL);
	free(out);
}

/* Point 0's samples all flagged: a row's ",0,R" end (flagged, run) becomes ",1,R". */
static void ct_flag_point(FILE *out, const char *line, void *ctx)
{
	size_t n = strlen(line);
	int flag = !strncmp(line, "lat,0,", 6) && n > 4 && !strncmp(line + n - 4, ",0,", 3);

	(void)ctx;
	if (flag)
		fprintf(out, "%.*s1%s\n", (int)(n - 3), line, line + n - 2);
	else
		fprintf(out, "%s\n", line);
}

/* Red team: compare --include-flagged called points "improved" whose every sample of a side ran
 * under foreign load, where analyze held its lessons back on the same numbers. */
LAB_TEST(compare_mostly_flagged_side_is_untested)
{
	char *out = NULL, *err = NULL, args[4096];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *p;

	clitest_copy("results-numa-runs");
	REQUIRE(clitest_rewrite("results-numa-runs/samples.csv", ct_flag_point, NULL) == 0);
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-numa-runs results-numa-runs --json "
	         "--include-flagged",
	         testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	CHECK_NEAR(lab_an_json_num(lab_an_json_get(j, "counts"), "loaded", -1), 1, 0);
	REQUIRE((p = clitest_at(j, "points", 0)) != NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "verdict"), "untested (most samples load-flagged)");
	CHECK_EQ_STR(lab_an_json_str(p, "loaded"), "new: 18 of 18 samples load-flagged");
	REQUIRE((p = clitest_at(j, "points", 1)) != NULL);
	CHECK(lab_an_json_get(p, "loaded") == NULL);
	lab_an_json_free(j);
	free(out);
	free(err);
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-numa-runs results-numa-runs --include-flagged",
	         testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out,
	             "untested (most samples load-flagged) (run means, 3 vs 3 runs) (new: 18 of "
	             "18 samples load-flagged)") != NULL);
	CHECK(strstr(out, "1 untested: most samples of a side load-flagged") != NULL);
	free(out);
	free(err);
}

/*
 * --noise takes a plain decimal fraction in [0, 1), or a percentage below 100% (as the config's
 * precision is written), and nothing else: strtod's hex floats (0x0.1 and 0x1p-4 were read as
 * 1/16), inf, nan, blanks and trailing text are bad usage.
 */
LAB_TEST(compare_noise_decimal_or_percent)
{
	char *out = NULL, *err = NULL, args[4096];
	static const char *const bad[] = {
	    "0x0.1", "0x1p-4", "0X.8", "inf",   "nan",   "1e999", "1e-400", "' 0.1'", "0.1x", "1",
	    "-0.1",  "''",     ".",    "1e",    "0.1e+", "+0.1",  "0,1",    "1.5",    "100%", "%",
	    "-1%",   "1%%",    "0x1%", "'1 %'", "inf%",  "150%",  "-0",     "-0%"};
	static const char *const good[] = {"0",    "0.05",  ".05", "5e-2",
	                                   "5E-2", "0.999", "5%",  "0.5%"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args),
		         "compare %s/tests/fixtures/results-compare-a "
		         "%s/tests/fixtures/results-compare-b --noise %s",
		         testlib_srcdir(), testlib_srcdir(), bad[i]);
		if (clitest_run(NULL, args, &out, &err) != 2 || !strstr(err, "--noise") ||
		    strchr(err, '\n') != err + strlen(err) - 1 || out[0])
			TL__FAIL("--noise %s: want exit 2 and one line on --noise; got stderr '%s'",
			         bad[i], err);
		free(out);
		free(err);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(args, sizeof(args),
		         "compare %s/tests/fixtures/results-compare-a "
		         "%s/tests/fixtures/results-compare-b --noise=%s --json",
		         testlib_srcdir(), testlib_srcdir(), good[i]);
		if (clitest_run(NULL, args, &out, &err) != 0)
			TL__FAIL("--noise=%s: want exit 0; got stderr '%s'", good[i], err);
		free(out);
		free(err);
	}
	/* "5%" is the fraction 0.05, not 5 */
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-compare-a %s/tests/fixtures/results-compare-b "
	         "--noise 5%%",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "within noise (+-5%)") != NULL);
	free(out);
	free(err);
}

LAB_TEST(edge_dir_plots_cleanly)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-edge");
	REQUIRE(clitest_run(NULL, "analyze results-edge", &out, &err) == 0);
	CHECK(strstr(out, "all 3 samples load-flagged") != NULL);
	/* One top-level line on what was left out, and the real reason the speedup is missing. */
	CHECK(strstr(out, "load: ") == out);
	CHECK(strstr(out, "ran under foreign load and were left out; rerun when quiet or pass "
	                  "--include-flagged") != NULL);
	CHECK(strstr(out, "the threads=1 baseline's 3 samples were all load-flagged") != NULL);
	CHECK(strstr(out, "no threads=1 baseline") == NULL);
	CHECK(strstr(err, "gnuplot failed") == NULL);
	CHECK_EQ_U64(
	    clitest_count("results-edge/plots", "series", "-all_flagged-speedup-", ".gp", NULL), 0);
	/* A row saying "ok" has numbers: a point whose samples were all left out says why. */
	char *sum = clitest_read("results-edge/summary.csv"),
	     *js = clitest_read("results-edge/analysis.json");
	REQUIRE(sum && js);
	CHECK(strstr(sum, ",flagged,0,3,0,") != NULL);
	CHECK(strstr(sum, ",ok,0,") == NULL);
	CHECK(strstr(js, "\"status\": \"flagged\"") != NULL);
	CHECK(strstr(js, "all 3 samples load-flagged (--include-flagged keeps them)") != NULL);
	free(sum);
	free(js);
	/* A second analysis that keeps flagged samples replaces the plots of the first. */
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze results-edge --include-flagged", &out, &err) == 0);
	CHECK(strstr(err, "gnuplot failed") == NULL);
	CHECK_EQ_U64(
	    clitest_count("results-edge/plots", "series", "-all_flagged-speedup-", ".gp", NULL), 1);
	/* the rows whose numbers are the flagged samples say so (n_flagged 0: none left out) */
	sum = clitest_read("results-edge/summary.csv");
	REQUIRE(sum);
	CHECK(strstr(sum, ",ok,3,0,3,") != NULL);
	CHECK(strstr(out, "load-flagged 3 kept (--include-flagged)") != NULL);
	free(sum);
	free(out);
	free(err);
}

/* Compare on a run whose points are all flagged: no nan, no "unmatched", the reason instead;
 * --include-flagged compares them. */
LAB_TEST(compare_all_flagged)
{
	char *out = NULL, *err = NULL, args[1024];

	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-edge %s/tests/fixtures/results-edge",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "nan") == NULL);
	CHECK(strstr(out, "all samples load-flagged in both") != NULL);
	CHECK(strstr(out, "0 unmatched") != NULL);
	CHECK(strstr(out, "not compared: all samples load-flagged") != NULL);
	CHECK(strstr(err, "ran under foreign load and were left out") != NULL);
	free(out);
	free(err);
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-edge %s/tests/fixtures/results-edge "
	         "--include-flagged",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "load-flagged in both") == NULL);
	CHECK(strstr(err, "are included (--include-flagged)") != NULL);
	free(out);
	free(err);
}

/* A point that failed in new did not run there, whatever the load on the old side: it read "all
 * old samples load-flagged". */
LAB_TEST(compare_failed_before_flagged)
{
	char *out = NULL, *err = NULL, args[1024], path[2048], *run, *at;
	static const char ok[] = "\"status\": \"ok\",\n     \"verify\": \"pass\"",
	                  bad[] = "\"status\": \"failed\", \"reason\": \"x\", \"verify\": \"fail\"";
	FILE *f;

	clitest_copy("results-edge");
	REQUIRE((run = clitest_read("results-edge/run.json")) != NULL);
	/* the first point of the experiment whose samples are all flagged */
	REQUIRE((at = strstr(run, "\"name\": \"all_flagged\"")) && (at = strstr(at, ok)));
	snprintf(path, sizeof(path), "%s/results-edge/run.json", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")) != NULL);
	fprintf(f, "%.*s%s%s", (int)(at - run), run, bad, at + strlen(ok));
	fclose(f);
	snprintf(args, sizeof(args), "compare %s/tests/fixtures/results-edge %s/results-edge",
	         testlib_srcdir(), testlib_tmpdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "all_flagged                    1  -           -            -        "
	                  "                    -         did not run in new (failed)") != NULL);
	free(out);
	free(err);
	free(run);
}

/* results-usl as an interrupted run leaves it: point 8 ended while it ran (run.json says so,
 * samples.csv has none of its rows). */
static void cli_cut_point8(FILE *out, const char *line, void *ctx)
{
	int *in8 = ctx;

	if (strstr(line, "\"point\": "))
		*in8 = strstr(line, "\"point\": 8,") != NULL;
	if (strstr(line, "\"status\": \"complete\""))
		fputs(" \"status\": \"interrupted\",\n", out);
	else if (*in8 && strstr(line, "\"status\": \"ok\""))
		fputs("     \"status\": \"not_run\", \"reason\": \"the run ended while this point "
		      "ran; its samples were not kept\",\n",
		      out);
	else if (strncmp(line, "contend,8,", 10) != 0)
		fprintf(out, "%s\n", line);
}

/* Hostile-inputs red team: compare gave the reason run.json records for skipped and failed
 * points only; one an interrupted run did not finish was "not reached" without its own. */
LAB_TEST(compare_says_why_a_point_did_not_finish)
{
	char *out = NULL, *err = NULL, args[1024];
	int in8 = 0;

	clitest_copy("results-usl");
	REQUIRE(clitest_rewrite("results-usl/run.json", cli_cut_point8, &in8) == 0);
	REQUIRE(clitest_rewrite("results-usl/samples.csv", cli_cut_point8, &in8) == 0);
	snprintf(args, sizeof(args), "compare %s/tests/fixtures/results-usl results-usl",
	         testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "did not run in new (not finished: the run was interrupted, or is still "
	                  "going) (new: the run ended while this point ran; its samples were not "
	                  "kept)") != NULL);
	free(out);
	free(err);
	strncat(args, " --json", sizeof(args) - strlen(args) - 1);
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "\"new_reason\": \"the run ended while this point ran; its samples were "
	                  "not kept\"") != NULL);
	free(out);
	free(err);
}

/* A point skipped on both sides is matched, not "unmatched": it did not run. Each experiment's
 * mean says whose time it is (results-rates declares work_scope, results-usl does not). */
LAB_TEST(compare_not_run_and_units)
{
	char *out = NULL, *err = NULL, args[1024];

	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-usl %s/tests/fixtures/results-usl",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "did not run in either (skipped)") != NULL); /* run.json says which */
	CHECK(strstr(out, " 0 unmatched, 1 did not run (skipped, failed or not finished)\n") !=
	      NULL);
	CHECK(strstr(out, "\ncontend: mean cost in ns/op\n") != NULL);
	free(out);
	free(err);
	snprintf(args, sizeof(args),
	         "compare %s/tests/fixtures/results-rates %s/tests/fixtures/results-rates",
	         testlib_srcdir(), testlib_srcdir());
	REQUIRE(clitest_run(NULL, args, &out, &err) == 0);
	CHECK(strstr(out, "\ntriad: mean cost in ns/op, all threads together\n") != NULL);
	CHECK(strstr(out, "\ncopy: mean cost in ns/op, thread 0's units only\n") != NULL);
	free(out);
	free(err);
}

/* Two thread counts (the lock fixture's 1 and 2): no speedup, efficiency or Karp-Flatt plot of
 * a two-point series; the lock view's own plots stay. Three or more (results-usl): plotted. */
LAB_TEST(no_series_plots_below_three_counts)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-locks");
	REQUIRE(clitest_run(NULL, "analyze results-locks", &out, &err) == 0);
	CHECK_EQ_U64(clitest_count("results-locks/plots", "series", "-locks-karpflatt-", NULL), 0);
	CHECK_EQ_U64(clitest_count("results-locks/plots", "series", "-locks-speedup-", NULL), 0);
	CHECK_EQ_U64(clitest_count("results-locks/plots", "series", NULL), 0);
	CHECK(clitest_exists("results-locks/plots/"
	                     "locks00-locks-throughput-cs_ns_100_placement_compact_think_ns_0.gp"));
	free(out);
	free(err);
}

/* newcomer44: validation found a config's errors step by step (lines 8, 10, 9, 7 of one file
 * read out of order): listed by file and line, a path's own ':' or ":12:" no end of it
 * (review44, hostile45). */
LAB_TEST(config_errors_listed_by_line)
{
	char path[2048], *out = NULL, *err = NULL;
	const char *at[4];
	FILE *f;

	snprintf(path, sizeof(path), "%s/a:12:b", testlib_tmpdir());
	REQUIRE(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/a:12:b/c.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("[global]\nreps = 3\n[a]\nkernel = false_sharing\nop = stor\nplacement = core\n"
	      "stride = 8K\nmin_time = 5\n",
	      f);
	fclose(f);
	CHECK_EQ_I64(clitest_run(NULL, "plan a:12:b/c.ini", &out, &err), 2);
	REQUIRE(err);
	at[0] = strstr(err, "a:12:b/c.ini:5: ");
	at[1] = strstr(err, "a:12:b/c.ini:6: ");
	at[2] = strstr(err, "a:12:b/c.ini:7: ");
	at[3] = strstr(err, "a:12:b/c.ini:8: ");
	CHECK(at[0] && at[1] && at[2] && at[3]);
	CHECK(at[0] < at[1] && at[1] < at[2] && at[2] < at[3]);
	free(out);
	free(err);
	/* two configs: in the command line's order (b.ini's unknown key was found first) */
	snprintf(path, sizeof(path), "%s/b.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("[global]\nthreadz = 2\n", f);
	fclose(f);
	CHECK_EQ_I64(clitest_run(NULL, "plan a:12:b/c.ini b.ini", &out, &err), 2);
	REQUIRE(err);
	at[0] = strstr(err, "a:12:b/c.ini:8: ");
	at[1] = strstr(err, "b.ini:2: ");
	CHECK(at[0] && at[1] && at[0] < at[1]);
	free(out);
	free(err);
}
