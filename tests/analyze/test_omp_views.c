/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chapter-29 views (omp_overhead, omp_schedule, reduce, scan) end to end: `lab analyze` on
 * hand-made fixtures (tests/analyze/gen_fixtures_omp.py holds the values and the hand
 * computations) checks analysis.json's numbers, the text tables, the report section and its
 * escaping, and the plot files; then a tiny real `lab run` of quick.ini's OpenMP sections.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/units.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* t(0.975, 2) / sqrt(3): the 95 % margin of a mean of 3 samples is this times their sd. */
#define T2_SQRT3 (4.302652729749464 / 1.7320508075688772)

/* `lab analyze NAME --no-plots --json` in the case's tmpdir: the parsed document. */
static struct lab_an_json *ov_json_of(const char *name)
{
	char cmd[256], *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots --json", name);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	free(err);
	return j;
}

static struct lab_an_json *ov_json(const char *name)
{
	clitest_copy(name);
	return ov_json_of(name);
}

/* The "points" table of section g of view in experiments[0]. */
static const struct lab_an_json *ov_table(const struct lab_an_json *j, const char *view, size_t g)
{
	const struct lab_an_json *v = lab_an_json_get(clitest_at(j, "experiments", 0), view);

	return lab_an_json_get(lab_an_json_get(clitest_at(v, "sections", g), "tables"), "points");
}

/* How many leading columns of t name the curve: its key columns but the last (the x). */
static size_t ov_nkey(const struct lab_an_json *t)
{
	const struct lab_an_json *cols = lab_an_json_get(t, "columns");
	size_t n = 0;

	while (cols && n < cols->n &&
	       !strcmp(lab_an_json_str(&cols->items[n], "kind") ?: "", "key"))
		n++;
	return n ? n - 1 : 0;
}

/* 1 when rows a and b belong to one curve (the same values in its nkey curve columns). */
static int ov_same(const struct lab_an_json *t, size_t nkey, const struct lab_an_json *a,
                   const struct lab_an_json *b)
{
	const struct lab_an_json *cols = lab_an_json_get(t, "columns");

	for (size_t i = 0; i < nkey; i++) {
		const char *key = lab_an_json_str(&cols->items[i], "key");

		if (strcmp(lab_an_json_str(a, key) ?: "", lab_an_json_str(b, key) ?: ""))
			return 0;
	}
	return 1;
}

/* Entry k of curve c of section g of view in experiments[0]: the table's rows run curve after
 * curve, each curve's entries in ascending x. */
static const struct lab_an_json *ov_pt(const struct lab_an_json *j, const char *view, size_t g,
                                       size_t c, size_t k)
{
	const struct lab_an_json *t = ov_table(j, view, g), *rows = lab_an_json_get(t, "rows");
	size_t nkey = ov_nkey(t), cur = 0, first = 0;

	for (size_t r = 0; rows && r < rows->n; r++) {
		if (r && !ov_same(t, nkey, &rows->items[r - 1], &rows->items[r])) {
			cur++;
			first = r;
		}
		if (cur == c && r - first == k)
			return &rows->items[r];
	}
	return NULL;
}

/* The label of curve c of section g of view: its first key's value, then KEY=value of the
 * second ("parallel team=lab"), as the legend shows it. */
static const char *ov_label(const struct lab_an_json *j, const char *view, size_t g, size_t c)
{
	static char buf[256];
	const struct lab_an_json *t = ov_table(j, view, g), *p = ov_pt(j, view, g, c, 0);
	const struct lab_an_json *cols = lab_an_json_get(t, "columns");
	const char *k0, *k1;

	if (!p || !cols || !ov_nkey(t))
		return NULL;
	k0 = lab_an_json_str(&cols->items[0], "key");
	snprintf(buf, sizeof(buf), "%s", lab_an_json_str(p, k0) ?: "?");
	/* a second key the curve does not take (null: a serial scan's tile) is no part of it */
	if (ov_nkey(t) > 1 && (k1 = lab_an_json_str(&cols->items[1], "key")) &&
	    lab_an_json_get(p, k1)->type != LAB_AN_JSON_NULL)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s=%s", k1,
		         lab_an_json_str(p, k1) ?: "?");
	return buf;
}

/* The x of entry p as a number (the table carries the param's spelling: "64", "128K"). */
static double ov_x(const struct lab_an_json *p, const char *key)
{
	const char *s = lab_an_json_str(p, key);

	return s ? lab_an_size_bytes(s) : NAN;
}

static double ov_ci(const struct lab_an_json *p, const char *key, size_t i)
{
	const struct lab_an_json *a = clitest_at(p, key, i);

	return a ? a->num : NAN;
}

/* `lab analyze NAME ARGS` on a copy of fixture NAME: stdout (malloc'd). */
static char *ov_text(const char *name, const char *args)
{
	char cmd[256], *out = NULL, *err = NULL;

	clitest_copy(name);
	snprintf(cmd, sizeof(cmd), "analyze %s %s", name, args);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	free(err);
	return out ? out : strdup("");
}

/* The overhead fixture declares no views: the overhead_ns column picks the view. */
LAB_TEST(overhead_json_numbers)
{
	struct lab_an_json *j = ov_json("results-omp-overhead");
	const struct lab_an_json *p;

	REQUIRE(j);
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 0), "parallel team=openmp");
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 1), "barrier team=lab");
	REQUIRE((p = ov_pt(j, "omp_overhead", 0, 0, 0)));
	CHECK_EQ_I64((long long)ov_x(p, "threads"), 1);
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns", 0), 110, 1e-9);
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns_mean", 0), 110, 1e-9);
	CHECK_NEAR(ov_ci(p, "overhead_ns_ci95", 0), 110 - 10 * T2_SQRT3, 1e-6);
	CHECK_NEAR(ov_ci(p, "overhead_ns_ci95", 1), 110 + 10 * T2_SQRT3, 1e-6);
	CHECK_NEAR(ov_ci(p, "ref_ns_ci95", 0), 100, 1e-9);
	CHECK_NEAR(ov_ci(p, "ref_ns_ci95", 1), 100, 1e-9);
	REQUIRE((p = ov_pt(j, "omp_overhead", 0, 0, 1)));
	/* An overhead is never below 0 (issue 21 finding 6): the interval is clamped there and
	 * said to be not clearly above 0; a time is clipped at 0. */
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns", 1), 0, 1e-9);
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns_mean", 0), 5, 1e-9);
	CHECK_NEAR(ov_ci(p, "overhead_ns_ci95", 0), 0, 0);
	CHECK_NEAR(ov_ci(p, "overhead_ns_ci95", 1), 5 + sqrt(175) * T2_SQRT3, 1e-6);
	CHECK(strstr(lab_an_json_str(p, "overhead_ns_note") ?: "", "not clearly above 0") != NULL);
	CHECK_NEAR(ov_ci(p, "test_ns_ci95", 0), 0, 0);
	CHECK_NEAR(ov_ci(p, "test_ns_ci95", 1), 11 + sqrt(271) * T2_SQRT3, 1e-6);
	REQUIRE((p = ov_pt(j, "omp_overhead", 0, 1, 1)));
	CHECK(strncmp(lab_an_json_str(p, "why") ?: "", "skipped", 7) == 0);
	CHECK(lab_an_json_get(p, "overhead_ns")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_I64((long long)lab_an_json_num(p, "overhead_ns_n", -1), 0);
	lab_an_json_free(j);
}

LAB_TEST(overhead_text_table)
{
	char *out = ov_text("results-omp-overhead", "--no-plots");

	CHECK(strstr(out, "== Construct overhead: ovh  delay=100ns;placement=compact") != NULL);
	CHECK(strstr(out, "110 | 110 [85.16, 134.8]") != NULL);
	CHECK(strstr(out, "0 | 5 [0, 37.86] not clearly above 0") != NULL);
	CHECK(strstr(out, "-27.86") == NULL);
	CHECK(strstr(out, "2 | 11 [0, 51.89]") != NULL);
	CHECK(strstr(out, "skipped: needs 2 CPUs, 1 allowed") != NULL);
	free(out);
}

/* The fixture's barrier points as atomic ones, which the lab writes without a delay (the
 * kernel's delay applies to every construct but atomic). */
static void ov_atomic_without_delay(FILE *out, const char *line, void *ctx)
{
	const char *c = strstr(line, "construct=barrier;delay=100ns;");
	int *barrier = ctx;

	if (strstr(line, "\"construct\": \"barrier\"")) {
		*barrier = 1;
		fprintf(out, "      \"construct\": \"atomic\",\n");
	} else if (*barrier && strstr(line, "\"delay\": ")) {
		*barrier = 0;
	} else if (c) {
		fprintf(out, "%.*sconstruct=atomic;%s\n", (int)(c - line), line,
		        c + strlen("construct=barrier;delay=100ns;"));
	} else {
		fprintf(out, "%s\n", line);
	}
}

/* A point without delay (atomic) is in the table of the other constructs at the one delay of
 * its experiment, not in a table of its own. */
LAB_TEST(overhead_atomic_joins_its_delay)
{
	struct lab_an_json *j;
	const struct lab_an_json *v;
	int barrier = 0;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_atomic_without_delay,
	                        &barrier) == 0);
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_atomic_without_delay,
	                        &barrier) == 0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	v = lab_an_json_get(clitest_at(j, "experiments", 0), "omp_overhead");
	REQUIRE(lab_an_json_get(v, "sections"));
	CHECK_EQ_I64((long long)lab_an_json_get(v, "sections")->n, 1);
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 0), "parallel team=openmp");
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 1), "atomic team=lab");
	lab_an_json_free(j);
}

/* The fixture as a run of two delays with atomic between them in the data: point 1 atomic
 * (no delay), points 2 and 3 (barrier, team lab) at delay 0. */
static void ov_atomic_between_delays(FILE *out, const char *line, void *ctx)
{
	int *pt = ctx;
	const char *c;

	if ((c = strstr(line, "\"point\": ")))
		*pt = atoi(c + strlen("\"point\": "));
	if (!strncmp(line, "ovh,", 4))
		*pt = atoi(line + 4);
	if (*pt == 1 && strstr(line, "\"delay\": "))
		return;
	if (*pt == 1 && (c = strstr(line, "construct=parallel;delay=100ns;")))
		fprintf(out, "%.*sconstruct=atomic;%s\n", (int)(c - line), line,
		        c + strlen("construct=parallel;delay=100ns;"));
	else if (*pt == 1 && strstr(line, "\"construct\": \"parallel\""))
		fprintf(out, "      \"construct\": \"atomic\",\n");
	else if (*pt >= 2 && (c = strstr(line, "100ns")) && !strstr(line, "\"delay_ns\""))
		fprintf(out, "%.*s0%s\n", (int)(c - line), line, c + strlen("100ns"));
	else
		fprintf(out, "%s\n", line);
}

/* review37: sections go in the order of their first points, an atomic's own (two delays) among
 * them, not after every other (text, JSON and the plots take one order). */
LAB_TEST(overhead_sections_in_data_order)
{
	struct lab_an_json *j;
	int pt = -1;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_atomic_between_delays, &pt) ==
	        0);
	pt = -1;
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_atomic_between_delays,
	                        &pt) == 0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 0), "parallel team=openmp");
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 1, 0), "atomic team=openmp");
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 2, 0), "barrier team=lab");
	lab_an_json_free(j);
}

/* Points 0 and 1 (parallel, team openmp) as atomic ones, which take no delay. */
static void ov_atomic_first(FILE *out, const char *line, void *ctx)
{
	int *pt = ctx;
	const char *c;

	if ((c = strstr(line, "\"point\": ")))
		*pt = atoi(c + strlen("\"point\": "));
	if (!strncmp(line, "ovh,", 4))
		*pt = atoi(line + 4);
	if (*pt == 0 || *pt == 1) {
		if (strstr(line, "\"delay\": "))
			return;
		if ((c = strstr(line, "construct=parallel;delay=100ns;"))) {
			fprintf(out, "%.*sconstruct=atomic;%s\n", (int)(c - line), line,
			        c + strlen("construct=parallel;delay=100ns;"));
			return;
		}
		if (strstr(line, "\"construct\": \"parallel\"")) {
			fprintf(out, "      \"construct\": \"atomic\",\n");
			return;
		}
	}
	fprintf(out, "%s\n", line);
}

/* review38: within a section, curves in the order of their first points, an atomic's (which
 * joins its delay's table after the points with a delay are placed) among them. */
LAB_TEST(overhead_curves_in_data_order)
{
	struct lab_an_json *j;
	int pt = -1;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_atomic_first, &pt) == 0);
	pt = -1;
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_atomic_first, &pt) == 0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 0), "atomic team=openmp");
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 0, 1), "barrier team=lab");
	lab_an_json_free(j);
}

/* Point 1 (parallel, team openmp, at 2 threads) without its delay, as if edited by hand. */
static void ov_parallel_delay_gone(FILE *out, const char *line, void *ctx)
{
	int *at = ctx;

	if (strstr(line, "\"point\": 1,"))
		*at = 1;
	if (*at && strstr(line, "\"delay\": ")) {
		*at = 0;
		return;
	}
	if (!strncmp(line, "ovh,1,", 6) && strstr(line, "delay=100ns;")) {
		const char *c = strstr(line, "delay=100ns;");
		fprintf(out, "%.*s%s\n", (int)(c - line), line, c + strlen("delay=100ns;"));
		return;
	}
	fprintf(out, "%s\n", line);
}

/* A construct that takes a delay, its delay gone from one point, is not read as a row of
 * another delay's table (where its curve has rows at a delay): its points are a section of
 * their own (hostile37: two rows at one thread count, the plot zigzagging). */
LAB_TEST(overhead_point_without_its_delay_apart)
{
	struct lab_an_json *j;
	const struct lab_an_json *v, *sec;
	int at = 0;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_parallel_delay_gone, &at) == 0);
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_parallel_delay_gone, &at) ==
	        0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	v = lab_an_json_get(clitest_at(j, "experiments", 0), "omp_overhead");
	REQUIRE((sec = lab_an_json_get(v, "sections")));
	CHECK_EQ_I64((long long)sec->n, 2);
	REQUIRE(ov_pt(j, "omp_overhead", 0, 0, 0));
	CHECK(ov_pt(j, "omp_overhead", 0, 0, 1) == NULL); /* the delay's parallel: 1 thread */
	CHECK_EQ_STR(ov_label(j, "omp_overhead", 1, 0), "parallel team=openmp");
	CHECK_EQ_I64((long long)ov_x(ov_pt(j, "omp_overhead", 1, 0, 0), "threads"), 2);
	lab_an_json_free(j);
}

/* Sorted by chunk; the imbalance interval stops at 1. */
LAB_TEST(schedule_json_numbers)
{
	struct lab_an_json *j = ov_json("results-omp-schedule");
	const struct lab_an_json *p;
	const double chunk[3] = {1, 8, 64};

	REQUIRE(j);
	CHECK_EQ_STR(ov_label(j, "omp_schedule", 0, 0), "dynamic");
	CHECK_EQ_STR(ov_label(j, "omp_schedule", 0, 1), "static");
	for (size_t k = 0; k < 3; k++)
		CHECK_NEAR(ov_x(ov_pt(j, "omp_schedule", 0, 0, k), "chunk"), chunk[k], 0);
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 0, 0)));
	CHECK_NEAR(lab_an_json_num(p, "makespan_ns", 0), 1200, 1e-9);
	CHECK_NEAR(ov_ci(p, "makespan_ns_ci95", 1), 1200 + 100 * T2_SQRT3, 1e-6);
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns", 0), 200, 1e-9);
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 0, 1)));
	CHECK_NEAR(lab_an_json_num(p, "imbalance_mean", 0), 1.1, 1e-9);
	CHECK_NEAR(ov_ci(p, "imbalance_ci95", 0), 1, 0);
	CHECK_NEAR(ov_ci(p, "imbalance_ci95", 1), 1.1 + sqrt(0.03) * T2_SQRT3, 1e-6);
	lab_an_json_free(j);
}

/* The lab leaves chunk out of a static point's params (it applies only where the schedule
 * takes one): results-omp-schedule's point 3 as the lab writes it now. */
static void ov_static_without_chunk(FILE *out, const char *line, void *ctx)
{
	int *in3 = ctx;

	if (strstr(line, "\"point\": "))
		*in3 = strstr(line, "\"point\": 3,") != NULL;
	if (*in3 && strstr(line, "\"chunk\": "))
		return;
	const char *c = strstr(line, "chunk=1;cost=200ns;imbalance=ramp;iterations=1024;"
	                             "placement=compact;schedule=static");
	if (c)
		fprintf(out, "%.*s%s\n", (int)(c - line), line, c + strlen("chunk=1;"));
	else
		fprintf(out, "%s\n", line);
}

/* The declared view reads a static point without chunk (misfit: it has no x there): "-". */
LAB_TEST(schedule_static_point_without_chunk)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	int in3 = 0;

	clitest_copy("results-omp-schedule");
	REQUIRE(clitest_rewrite("results-omp-schedule/run.json", ov_static_without_chunk, &in3) ==
	        0);
	REQUIRE(clitest_rewrite("results-omp-schedule/samples.csv", ov_static_without_chunk,
	                        &in3) == 0);
	REQUIRE((j = ov_json_of("results-omp-schedule")));
	CHECK_EQ_STR(ov_label(j, "omp_schedule", 0, 1), "static");
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 1, 0)));
	CHECK(isnan(ov_x(p, "chunk")));
	CHECK(lab_an_json_num(p, "makespan_ns", NAN) > 0);
	lab_an_json_free(j);
}

/*
 * Issue 21 finding 6: no overhead is printed below 0 (gen_fixtures_drift.py). Chunk 1's mean is
 * -7,646 ns: not measurable, bounded by nothing; chunk 8's interval [-64.5, 84.5] starts at 0
 * and says so; chunk 64 (300 x3) is a plain result.
 */
LAB_TEST(schedule_overhead_never_negative)
{
	struct lab_an_json *j = ov_json("results-omp-schedule-negative");
	const struct lab_an_json *p;
	char *out;

	REQUIRE(j);
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 0, 0)));
	CHECK(lab_an_json_get(p, "overhead_ns") == NULL ||
	      lab_an_json_get(p, "overhead_ns")->type == LAB_AN_JSON_NULL);
	CHECK(strstr(lab_an_json_str(p, "overhead_ns_why") ?: "", "not measurable") != NULL);
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 0, 1)));
	CHECK_NEAR(ov_ci(p, "overhead_ns_ci95", 0), 0, 0);
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns_mean", 0), 10, 1e-9);
	CHECK(strstr(lab_an_json_str(p, "overhead_ns_note") ?: "", "not clearly above 0") != NULL);
	REQUIRE((p = ov_pt(j, "omp_schedule", 0, 0, 2)));
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns", 0), 300, 1e-9);
	CHECK(lab_an_json_str(p, "overhead_ns_note") == NULL);
	lab_an_json_free(j);
	out = ov_text("results-omp-schedule-negative", "--no-plots");
	CHECK(strstr(out, "not measurable (mean <= 0: below resolution or noise)") != NULL);
	CHECK(strstr(out, "10 | 10 [0, ") != NULL);
	CHECK(strstr(out, "not clearly above 0") != NULL);
	CHECK(strstr(out, "-7") == NULL);
	CHECK(strstr(out, "| -") == NULL && strstr(out, "[-") == NULL);
	free(out);
}

/* Each line with ",-8680," (chunk 1's second sample) as ",5000,". */
static void ov_one_above(FILE *out, const char *line, void *ctx)
{
	const char *at = strstr(line, ",-8680,");

	(void)ctx;
	if (at)
		fprintf(out, "%.*s,5000,%s\n", (int)(at - line), line, at + 7);
	else
		fprintf(out, "%s\n", line);
}

/* newcomer44: a mean at or below 0 whose interval ends above 0 said "< 72.62": what bound, in
 * what unit. Chunk 1 of -7600, 5000, -6649: mean -3083, the interval's end 1.435e+04. */
LAB_TEST(schedule_overhead_not_measurable_says_its_bound)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-omp-schedule-negative");
	REQUIRE(clitest_rewrite("results-omp-schedule-negative/samples.csv", ov_one_above, NULL) ==
	        0);
	CHECK_EQ_I64(
	    clitest_run(NULL, "analyze results-omp-schedule-negative --no-plots", &out, &err), 0);
	CHECK(strstr(out, "not measurable (mean <= 0: below resolution or noise; the 95 % "
	                  "interval ends at 1.435e+04)") != NULL);
	free(out);
	free(err);
}

LAB_TEST(reduce_json_numbers)
{
	struct lab_an_json *j = ov_json("results-reduce");
	const struct lab_an_json *p;

	REQUIRE(j);
	CHECK_EQ_STR(ov_label(j, "reduce", 0, 1), "packed_partials team=openmp");
	REQUIRE((p = ov_pt(j, "reduce", 0, 1, 1)));
	CHECK_NEAR(lab_an_json_num(p, "ns_per_elem", 0), 5, 1e-9);
	CHECK_NEAR(ov_ci(p, "ns_per_elem_ci95", 0), 5 - T2_SQRT3, 1e-6);
	REQUIRE((p = ov_pt(j, "reduce", 0, 0, 1)));
	CHECK_NEAR(lab_an_json_num(p, "ns_per_elem_mean", 0), 0.4, 1e-9);
	CHECK_NEAR(ov_ci(p, "ns_per_elem_ci95", 0), 0, 0);
	CHECK_NEAR(ov_ci(p, "ns_per_elem_ci95", 1), 0.4 + sqrt(0.27) * T2_SQRT3, 1e-6);
	lab_an_json_free(j);
}

/* The serial baseline at the same size; without one, the method's own 1-thread point. */
LAB_TEST(scan_speedup_numbers)
{
	struct lab_an_json *j = ov_json("results-scan");
	const struct lab_an_json *p;
	const double size[3] = {262144, 1048576, 4194304}, sp[3] = {2, 4, 1};

	REQUIRE(j);
	for (size_t k = 0; k < 3; k++) {
		REQUIRE((p = ov_pt(j, "scan", 0, 0, k)));
		CHECK_NEAR(ov_x(p, "size"), size[k], 0);
		CHECK_NEAR(lab_an_json_num(p, "speedup", 0), sp[k], 1e-9);
		CHECK_NEAR(lab_an_json_num(p, "speedup_mean", 0), sp[k], 1e-9);
		CHECK(ov_ci(p, "speedup_ci95", 0) > 0 && ov_ci(p, "speedup_ci95", 0) < sp[k]);
		CHECK(ov_ci(p, "speedup_ci95", 1) > sp[k]);
	}
	lab_an_json_free(j);
}

/* teach46: a chapter view over points of one setup each says so, as the series tables do (the
 * scan at 1 thread read 0.79 [0.789, 0.798] of serial, then 1.499 [1.32, 1.573] in a second
 * invocation, with no word that its intervals held no setup-to-setup spread). */
LAB_TEST(scan_one_setup_said)
{
	char *out = ov_text("results-scan", "--no-plots");
	const char *sec = out ? strstr(out, "== Prefix-sum speedup: scan") : NULL;
	const char *next = sec ? strstr(sec + 1, "\n== ") : NULL;
	const char *note = sec ? strstr(sec, "note: levels: one setup per point (runs = 1)") : NULL;

	CHECK(sec && note && (!next || note < next));
	free(out);
}

/* Point 1 (serial, 4M) load-flagged: its rows end with flagged. */
static void ov_flag_serial_4m(FILE *out, const char *line, void *ctx)
{
	int flag = !strncmp(line, "scan,1,", 7);

	(void)ctx;
	fprintf(out, "%.*s%s\n", (int)(strlen(line) - flag), line, flag ? "1" : "");
}

/* Red team: the serial point at 4M all load-flagged, two_pass at 4M read speedup 1 against
 * its own 1-thread point without a word (its other rows were against serial); now its row says
 * why the baseline has no usable samples, as the baseline's own row does. */
LAB_TEST(scan_speedup_without_its_serial)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;

	clitest_copy("results-scan");
	REQUIRE(clitest_rewrite("results-scan/samples.csv", ov_flag_serial_4m, NULL) == 0);
	REQUIRE((j = ov_json_of("results-scan")) != NULL);
	REQUIRE((p = ov_pt(j, "scan", 0, 0, 2)));
	CHECK_NEAR(ov_x(p, "size"), 4194304, 0);
	CHECK(lab_an_json_get(p, "speedup")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "speedup_why"),
	             "the method=serial point at these params (point 1): all 3 samples "
	             "load-flagged (--include-flagged keeps them)");
	lab_an_json_free(j);
}

/* The serial points without a tile (it applies at method = blocked alone), point 3 blocked at
 * tile 64K: serial's rows are its curve without a tile, and blocked at 256K reads 2 over serial
 * (review28: grouped by every param, blocked lost its serial baseline and read 1 over itself). */
static void ov_scan_blocked(FILE *out, const char *line, void *ctx)
{
	char buf[512];
	const char *s;

	(void)ctx;
	if ((s = strstr(line, "method=serial")) && strstr(line, ";tile=128K")) {
		size_t at = (size_t)(strstr(line, ";tile=128K") - line);
		snprintf(buf, sizeof(buf), "%.*s%s", (int)at, line, line + at + 10);
		fprintf(out, "%s\n", buf);
	} else if (!strncmp(line, "scan,3,", 7)) {
		size_t at = (size_t)(strstr(line, "two_pass") - line);
		s = strstr(line, "tile=128K");
		snprintf(buf, sizeof(buf), "%.*sblocked%.*stile=64K%s", (int)at, line,
		         (int)(s - line - at - 8), line + at + 8, s + 9);
		fprintf(out, "%s\n", buf);
	} else {
		fprintf(out, "%s\n", line);
	}
}

/* The same in run.json's points: serial's params without tile (the size before it loses its
 * comma), point 3's method and tile. ctx: the point of the lines so far. */
static void ov_scan_blocked_json(FILE *out, const char *line, void *ctx)
{
	int *pt = ctx;
	const char *q = strstr(line, "\"point\": ");
	size_t n = strlen(line);

	if (q)
		*pt = atoi(q + 9);
	if ((*pt == 1 || *pt == 2) && strstr(line, "\"tile\""))
		return;
	if ((*pt == 1 || *pt == 2) && strstr(line, "\"size\"") && n && line[n - 1] == ',')
		n--;
	else if (*pt == 3 && strstr(line, "\"two_pass\""))
		n = strlen(line = "      \"method\": \"blocked\",");
	else if (*pt == 3 && strstr(line, "\"tile\""))
		n = strlen(line = "      \"tile\": \"64K\"");
	fprintf(out, "%.*s\n", (int)n, line);
}

LAB_TEST(scan_blocked_over_serial)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	int pt = -1;

	clitest_copy("results-scan");
	REQUIRE(clitest_rewrite("results-scan/samples.csv", ov_scan_blocked, NULL) == 0);
	REQUIRE(clitest_rewrite("results-scan/run.json", ov_scan_blocked_json, &pt) == 0);
	REQUIRE((j = ov_json_of("results-scan")) != NULL);
	CHECK_EQ_STR(ov_label(j, "scan", 0, 1), "blocked tile=64K");
	REQUIRE((p = ov_pt(j, "scan", 0, 1, 0)));
	CHECK_NEAR(ov_x(p, "size"), 262144, 0);
	CHECK_EQ_STR(lab_an_json_str(p, "tile"), "64K");
	CHECK_NEAR(lab_an_json_num(p, "speedup_mean", 0), 2, 1e-9);
	CHECK_EQ_STR(ov_label(j, "scan", 1, 0), "serial");
	REQUIRE((p = ov_pt(j, "scan", 1, 0, 0)));
	CHECK(lab_an_json_get(p, "tile")->type == LAB_AN_JSON_NULL);
	lab_an_json_free(j);
}

/* Sample 0 of point 3 (two_pass, 256K, 2 threads) load-flagged. */
static void ov_flag_one(FILE *out, const char *line, void *ctx)
{
	int flag = !strncmp(line, "scan,3,", 7) && strstr(line, ",2,0,");

	(void)ctx;
	fprintf(out, "%.*s%s\n", (int)(strlen(line) - (flag != 0)), line, flag ? "1" : "");
}

/* load29: a view's row built without some flagged samples, or with them (--include-flagged),
 * said so nowhere but in the series tables (which the atomics view hides). */
LAB_TEST(view_rows_mark_flagged)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;

	clitest_copy("results-scan");
	REQUIRE(clitest_rewrite("results-scan/samples.csv", ov_flag_one, NULL) == 0);
	REQUIRE((j = ov_json_of("results-scan")) != NULL);
	REQUIRE((p = ov_pt(j, "scan", 0, 0, 0)));
	CHECK_NEAR(ov_x(p, "size"), 262144, 0);
	CHECK_EQ_I64((long long)lab_an_json_num(p, "speedup_n", 0), 2);
	CHECK_EQ_STR(lab_an_json_str(p, "note"), "load-flagged 1 left out");
	REQUIRE((p = ov_pt(j, "scan", 0, 0, 1)));
	CHECK(lab_an_json_get(p, "note") == NULL ||
	      lab_an_json_get(p, "note")->type == LAB_AN_JSON_NULL);
	lab_an_json_free(j);
	REQUIRE((j = ov_json_of("results-scan --include-flagged")) != NULL);
	REQUIRE((p = ov_pt(j, "scan", 0, 0, 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "note"), "load-flagged 1 kept (--include-flagged)");
	lab_an_json_free(j);
}

/* review30: results written when tile labelled every scan point (a serial point per tile):
 * each blocked point divides its own tile's serial point, not the first serial seen (the
 * baseline looked up without tile read 2 at 128K). Serial rows read 1 over themselves. */
LAB_TEST(scan_old_results_by_tile)
{
	struct lab_an_json *j = ov_json("results-scan-tiles");
	const struct lab_an_json *p;

	REQUIRE(j);
	REQUIRE((p = ov_pt(j, "scan", 0, 1, 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "tile"), "128K");
	CHECK_NEAR(lab_an_json_num(p, "speedup_mean", 0), 1, 1e-9);
	REQUIRE((p = ov_pt(j, "scan", 1, 0, 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "tile"), "64K");
	CHECK_NEAR(lab_an_json_num(p, "speedup_mean", 0), 2, 1e-9);
	REQUIRE((p = ov_pt(j, "scan", 1, 1, 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "tile"), "128K");
	CHECK_NEAR(lab_an_json_num(p, "speedup_mean", 0), 4, 1e-9);
	lab_an_json_free(j);
}

/* run.json's host with "hypervisor": "QEMU TCG". */
static void ov_tcg(FILE *out, const char *line, void *ctx)
{
	(void)ctx;
	fprintf(out, "%s\n", line);
	if (!strcmp(line, " \"host\": {"))
		fprintf(out, "  \"hypervisor\": \"QEMU TCG\",\n");
}

/* numa30: under an emulated CPU every view read as a machine's costs; the analysis now says
 * once, among its warnings, whose times they are. */
LAB_TEST(emulated_cpu_warned)
{
	struct lab_an_json *j;
	const struct lab_an_json *w;
	int found = 0;

	clitest_copy("results-scan");
	REQUIRE(clitest_rewrite("results-scan/run.json", ov_tcg, NULL) == 0);
	REQUIRE((j = ov_json_of("results-scan")) != NULL);
	w = lab_an_json_get(j, "warnings");
	for (size_t i = 0; w && i < w->n; i++)
		found += w->items[i].type == LAB_AN_JSON_STR &&
		         strstr(w->items[i].str,
		                "measured on an emulated CPU (QEMU TCG): every time and "
		                "rate here is the emulator's") != NULL;
	CHECK_EQ_I64(found, 1);
	lab_an_json_free(j);
}

/* The report's sections exist and escape what came from the files. */
LAB_TEST(report_sections_escape)
{
	const char *dirs[4] = {"results-omp-overhead", "results-omp-schedule", "results-reduce",
	                       "results-scan"};
	const char *h2[4] = {"<h2>Construct overhead</h2>", "<h2>Loop schedules</h2>",
	                     "<h2>Reductions</h2>", "<h2>Prefix-sum speedup</h2>"};
	char path[2048], *html = NULL;
	size_t len;
	struct lab_err e = {0};

	for (int i = 0; i < 4; i++) {
		free(ov_text(dirs[i], "--no-plots"));
		snprintf(path, sizeof(path), "%s/%s/report.html", testlib_tmpdir(), dirs[i]);
		REQUIRE(lab_an_file_read(path, &html, &len, &e) == 0);
		CHECK(strstr(html, h2[i]) != NULL);
		if (i == 2) {
			CHECK(strstr(html, "<td>&lt;b&gt;&amp;x</td>") != NULL);
			CHECK(strstr(html, "<b>&x") == NULL);
			CHECK(strstr(html, "packed_partials can false-share") != NULL);
		}
		free(html);
		html = NULL;
	}
}

/* One .dat and .gp per group; the curve titles go through the gnuplot quoting. */
LAB_TEST(plots_written)
{
	char *out = ov_text("results-reduce", ""), path[2048], *gp = NULL;
	size_t len;
	struct lab_err e = {0};

	free(out);
	free(ov_text("results-scan", ""));
	CHECK(clitest_exists("results-reduce/plots/reduce00-red-elems_1000_placement_compact.dat"));
	snprintf(path, sizeof(path), "%s/results-reduce/plots/%s", testlib_tmpdir(),
	         "reduce00-red-elems_1000_placement_compact.gp");
	REQUIRE(lab_an_file_read(path, &gp, &len, &e) == 0);
	CHECK(strstr(gp, "dt 2 title '<b>+x team=lab'") != NULL); /* team=lab dashed */
	CHECK(strstr(gp, "dt 2 title 'packed") == NULL);          /* openmp curves are solid */
	CHECK(strstr(gp, "set logscale y") != NULL);
	free(gp);
	/* A curve that lost a point says where and why in its legend entry (skipped here). */
	free(ov_text("results-omp-overhead", ""));
	snprintf(path, sizeof(path), "%s/results-omp-overhead/plots/%s", testlib_tmpdir(),
	         "omp_overhead00-ovh-delay_100ns_placement_compact.gp");
	REQUIRE(lab_an_file_read(path, &gp, &len, &e) == 0);
	CHECK(strstr(gp, "title 'barrier team=lab [no data at 2: skipped]'") != NULL);
	CHECK(strstr(gp, "title 'parallel team=openmp'") != NULL);
	free(gp);
	/* the tile is a curve's (blocked takes it alone), not the group's */
	CHECK(clitest_exists("results-scan/plots/scan00-scan-placement_compact_threads_2.gp"));
	CHECK(clitest_exists("results-scan/plots/scan01-scan-placement_compact_threads_1.gp"));
}

/* Point 0 in two runs, overhead_ns left out of run 1's rows (its reps 3-5): a hand edit. */
static void ov_second_run(FILE *out, const char *line, void *ctx)
{
	int *in0 = ctx;
	char buf[512];

	if (!strncmp(line, "experiment,", 11)) { /* samples.csv: a run column */
		fprintf(out, "%s,run\n", line);
		return;
	}
	if (!strncmp(line, "ovh,", 4)) {
		fprintf(out, "%s,0\n", line);
		/* ...,rep,...,overhead_ns,delay_ns: rep + 3, overhead_ns empty, run 1 */
		if (!strncmp(line, "ovh,0,", 6) && strlen(line) < sizeof(buf)) {
			const char *rep = strstr(line, "\",1,") + 4, *od = strrchr(line, ',');
			const char *ov = od - 1;

			while (*ov != ',')
				ov--;
			snprintf(buf, sizeof(buf), "%.*s%d%.*s%s,1", (int)(rep - line), line,
			         atoi(rep) + 3, (int)(ov + 1 - (rep + 1)), rep + 1, od);
			fprintf(out, "%s\n", buf);
		}
		return;
	}
	if (strstr(line, "\"point\": "))
		*in0 = strstr(line, "\"point\": 0,") != NULL;
	if (*in0 && strstr(line, "\"reps\": 3")) /* run.json: 6 samples in 2 runs */
		fprintf(out, "     \"reps\": 6,\n     \"runs\": 2\n");
	else
		fprintf(out, "%s\n", line);
}

/* hostile40: a point of two kept runs whose overhead_ns is in one of them: its interval is
 * that run's samples', and the cell says so (the footnote promised run means); the cost and
 * test_ns, in both runs, are run-level and carry no such note. */
LAB_TEST(overhead_in_one_of_two_runs_said)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	int in0 = 0;

	char cmd[512], *out = NULL, *err = NULL;
	struct lab_err e = {0};

	clitest_copy("results-omp-overhead");
	snprintf(cmd, sizeof(cmd), "cd %s && cp -r results-omp-overhead ovh-old", testlib_tmpdir());
	REQUIRE(system(cmd) == 0);
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_second_run, &in0) == 0);
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_second_run, &in0) == 0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	REQUIRE((p = ov_pt(j, "omp_overhead", 0, 0, 0)));
	CHECK_NEAR(lab_an_json_num(p, "overhead_ns_mean", NAN), 110, 1e-9);
	CHECK(strstr(lab_an_json_str(p, "overhead_ns_note") ?: "",
	             "ONE SETUP: values in one of the point's 2 kept runs") != NULL);
	CHECK(lab_an_json_str(p, "test_ns_note") == NULL);
	lab_an_json_free(j);
	/* lab compare holds the figure back there: one setup's values */
	REQUIRE(clitest_run(NULL, "compare ovh-old results-omp-overhead --json", &out, &err) == 0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	p = lab_an_json_get(clitest_at(j, "points", 0), "figure");
	CHECK_EQ_STR(lab_an_json_str(p, "verdict"),
	             "untested (one setup: values in one of a side's kept runs)");
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* Point 2's overhead_ns cells emptied (test_ns and ref_ns kept); with *all every point's. */
static void ov_no_overhead(FILE *out, const char *line, void *ctx)
{
	const char *od = strrchr(line, ','), *ov = od;
	const int *all = ctx;

	while (ov && ov > line && ov[-1] != ',')
		ov--;
	if (strncmp(line, *all ? "ovh," : "ovh,2,", *all ? 4 : 6) || !ov || ov == line)
		fprintf(out, "%s\n", line);
	else
		fprintf(out, "%.*s%s\n", (int)(ov - line), line, od);
}

/* hostile40: a point whose samples have no overhead_ns says so in that cell (it was "-");
 * where no point of the section has any (older files), the section says so once, not every
 * row (review40). */
LAB_TEST(overhead_missing_in_rows_said)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	char *out = NULL, *err = NULL;
	int all = 0;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_no_overhead, &all) == 0);
	REQUIRE((j = ov_json_of("results-omp-overhead")));
	REQUIRE((p = ov_pt(j, "omp_overhead", 0, 1, 0)));
	CHECK_EQ_STR(lab_an_json_str(p, "overhead_ns_why"), "no overhead_ns in its samples' rows");
	CHECK(lab_an_json_num(p, "test_ns", NAN) > 0);
	lab_an_json_free(j);
	all = 1;
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_no_overhead, &all) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-omp-overhead --no-plots", &out, &err), 0);
	CHECK(out && strstr(out, "in its samples' rows") == NULL);
	CHECK(strstr(out ?: "", "  note: no overhead_ns in these points' samples' rows\n") != NULL);
	free(out);
	free(err);
}

/* schedule(static) takes no chunk: its makespan is drawn flat across the chunks the other
 * schedules span (1..64), its interval in its legend, and its legend says why (plots38: it was
 * in no figure). The report's caption is the figure's title, not its file name. */
LAB_TEST(plots_static_drawn_flat)
{
	const char *base =
	    "results-omp-schedule/plots/omp_schedule00-sched-makespan-cost_200ns_imbalance_"
	    "ramp_iterations_1024_placement_compact_threads_2";
	char path[2048], *gp = NULL, *dat = NULL;
	size_t len;
	struct lab_err e = {0};

	free(ov_text("results-omp-schedule", ""));
	snprintf(path, sizeof(path), "%s/%s.gp", testlib_tmpdir(), base);
	REQUIRE(lab_an_file_read(path, &gp, &len, &e) == 0);
	/* its bars a little right of dynamic's at the same chunks (plots40), the .dat exact */
	CHECK(strstr(gp, "index 0 using ($1*0.986232704):2:3:4 with yerrorlines") != NULL);
	CHECK(strstr(gp,
	             "index 1 using ($1*1.01395948):2:3:4 with linespoints lc 2 pt 2 dt 1 "
	             "title 'static (takes no chunk: drawn flat; 95% CI 1500 .. 1500)'") != NULL);
	snprintf(path, sizeof(path), "%s/%s.dat", testlib_tmpdir(), base);
	REQUIRE(lab_an_file_read(path, &dat, &len, &e) == 0);
	CHECK(strstr(dat, "\n\n\n 1 1500 1500 1500\n 64 1500 1500 1500\n") != NULL);
	free(gp);
	free(dat);
	/* and the imbalance, which the ramp lesson reads, in a figure of its own (plots40) */
	CHECK_EQ_U64(clitest_count("results-omp-schedule/plots", "omp_schedule", ".gp", NULL), 2);
	/* the report's caption says what the figure shows, then where its files are */
	snprintf(path, sizeof(path), "%s/results-omp-schedule/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &dat, &len, &e) == 0);
	CHECK(strstr(dat, "<figcaption>sched: Loop schedules (cost=200ns;imbalance=ramp;"
	                  "iterations=1024;placement=compact;threads=2) <small>(<code>plots/"
	                  "omp_schedule00-sched-") != NULL);
	free(dat);
}

/* Chunk 64 spelled ctx ("abc", "0": a hand edit), in samples.csv and run.json. */
static void ov_chunk_as(FILE *out, const char *line, void *ctx)
{
	const char *c = strstr(line, "chunk=64;"), *j = strstr(line, "\"chunk\": \"64\"");

	if (c)
		fprintf(out, "%.*schunk=%s;%s\n", (int)(c - line), line, (const char *)ctx,
		        c + strlen("chunk=64;"));
	else if (j)
		fprintf(out, "%.*s\"chunk\": \"%s\"%s\n", (int)(j - line), line, (const char *)ctx,
		        j + strlen("\"chunk\": \"64\""));
	else
		fprintf(out, "%s\n", line);
}

/* review40: an entry whose x reads as no number is in the table and named in the figure's
 * legend (its curve drew the others and said nothing of it). */
LAB_TEST(plots_x_no_number_named)
{
	const char *base =
	    "results-omp-schedule/plots/omp_schedule00-sched-makespan-cost_200ns_imbalance_"
	    "ramp_iterations_1024_placement_compact_threads_2.gp";
	char *out = NULL, *err = NULL, *gp, abc[] = "abc", zero[] = "0";

	clitest_copy("results-omp-schedule");
	REQUIRE(clitest_rewrite("results-omp-schedule/samples.csv", ov_chunk_as, abc) == 0);
	REQUIRE(clitest_rewrite("results-omp-schedule/run.json", ov_chunk_as, abc) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-omp-schedule", &out, &err), 0);
	REQUIRE((gp = clitest_read(base)));
	CHECK(strstr(gp, "title 'dynamic [no data at abc: no number on this axis, see the "
	                 "table]'") != NULL);
	free(gp);
	free(out);
	free(err);
	/* chunk 0 has no place on the log axis: named too (hostile41) */
	clitest_copy("results-omp-schedule");
	REQUIRE(clitest_rewrite("results-omp-schedule/samples.csv", ov_chunk_as, zero) == 0);
	REQUIRE(clitest_rewrite("results-omp-schedule/run.json", ov_chunk_as, zero) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-omp-schedule", &out, &err), 0);
	REQUIRE((gp = clitest_read(base)));
	CHECK(strstr(gp, "[no data at 0: not above 0, no place on a log axis]'") != NULL);
	free(gp);
	/* and static's flat line spans the x the axis draws, from 1, not from 0 (hostile42:
	 * gnuplot dropped its end at 0, a line of one point) */
	REQUIRE((
	    gp = clitest_read("results-omp-schedule/plots/omp_schedule00-sched-makespan-cost_200ns_"
	                      "imbalance_ramp_iterations_1024_placement_compact_threads_2.dat")));
	CHECK(strstr(gp, "\n\n\n 1 1500 1500 1500\n") != NULL);
	CHECK(strstr(gp, "\n\n\n 0 1500") == NULL);
	free(gp);
	free(out);
	free(err);
}

/* Every team=lab made team=openmp (run.json and samples.csv). */
static void ov_all_openmp(FILE *out, const char *line, void *ctx)
{
	const char *a = strstr(line, "team=lab"), *b = strstr(line, "\"team\": \"lab\"");

	(void)ctx;
	if (a)
		fprintf(out, "%.*steam=openmp%s\n", (int)(a - line), line, a + strlen("team=lab"));
	else if (b)
		fprintf(out, "%.*s\"team\": \"openmp\"%s\n", (int)(b - line), line,
		        b + strlen("\"team\": \"lab\""));
	else
		fprintf(out, "%s\n", line);
}

/* plots40: a second curve key of one value in the whole section (team=openmp on every curve)
 * is said once, in the figure's second title line, not in every legend entry. */
LAB_TEST(plots_one_team_said_once)
{
	const char *base = "results-omp-overhead/plots/omp_overhead00-ovh-delay_100ns_placement_"
	                   "compact.gp";
	char *out = NULL, *err = NULL, *gp;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_all_openmp, NULL) == 0);
	REQUIRE(clitest_rewrite("results-omp-overhead/run.json", ov_all_openmp, NULL) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-omp-overhead", &out, &err), 0);
	REQUIRE((gp = clitest_read(base)));
	CHECK(strstr(gp, ".'delay=100ns;placement=compact;team=openmp' noenhanced") != NULL);
	CHECK(strstr(gp, "title 'barrier") != NULL);
	CHECK(strstr(gp, "title 'parallel team=openmp") == NULL);
	free(gp);
	free(out);
	free(err);
}

/* Point 0's samples flagged for foreign load. */
static void ov_flag_point0(FILE *out, const char *line, void *ctx)
{
	const char *f = strncmp(line, "ovh,0,", 6) ? NULL : strstr(line, ",0.01,0,");

	(void)ctx;
	if (f)
		fprintf(out, "%.*s,0.01,1,%s\n", (int)(f - line), line, f + strlen(",0.01,0,"));
	else
		fprintf(out, "%s\n", line);
}

/* plots40: a figure drawn with load-flagged samples in it (--include-flagged) says so under
 * its title; without the flag, nothing flagged is in it and it says nothing. */
LAB_TEST(plots_flagged_kept_said)
{
	const char *base = "results-omp-overhead/plots/omp_overhead00-ovh-delay_100ns_placement_"
	                   "compact.gp";
	char *out = NULL, *err = NULL, *gp;

	clitest_copy("results-omp-overhead");
	REQUIRE(clitest_rewrite("results-omp-overhead/samples.csv", ov_flag_point0, NULL) == 0);
	CHECK_EQ_I64(
	    clitest_run(NULL, "analyze results-omp-overhead --include-flagged", &out, &err), 0);
	REQUIRE((gp = clitest_read(base)));
	/* before the conditions: a long sub loses its end (hostile44) */
	CHECK(strstr(gp, ".'load-flagged samples kept in 1 point; delay=100ns;placement=compact' "
	                 "noenhanced") != NULL);
	free(gp);
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-omp-overhead", &out, &err), 0);
	REQUIRE((gp = clitest_read(base)));
	CHECK(strstr(gp, "load-flagged samples kept") == NULL);
	free(gp);
	free(out);
	free(err);
}

/* A real tiny run of quick.ini's OpenMP sections, then lab analyze: the four views appear. */
LAB_TEST(real_run_views_appear)
{
	char cmd[2048], *out = NULL, *err = NULL;
	const char *secs[4] = {"omp_overhead", "omp_schedule", "reduce", "scan"};
	size_t n = 0;

#ifndef LAB_HAVE_OPENMP
	SKIP("built without OpenMP (-DLAB_OPENMP=OFF)");
#endif
	n = (size_t)snprintf(cmd, sizeof(cmd),
	                     "run %s/configs/quick.ini -o run --no-progress "
	                     "--set global.retry_flagged=0",
	                     testlib_srcdir());
	for (int i = 0; i < 4; i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n,
		                      " --only %s --set %s.reps=2 --set %s.min_time=1ms --set "
		                      "%s.warmup=1ms --set %s.threads=1",
		                      secs[i], secs[i], secs[i], secs[i], secs[i]);
	REQUIRE(clitest_run(NULL, cmd, &out, &err) == 0);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze run --no-plots --include-flagged", &out, &err) == 0);
	CHECK(strstr(out, "== Construct overhead: omp_overhead") != NULL);
	CHECK(strstr(out, "== Loop schedules: omp_schedule") != NULL);
	CHECK(strstr(out, "== Reductions: reduce") != NULL);
	CHECK(strstr(out, "== Prefix-sum speedup: scan") != NULL);
	free(out);
	free(err);
}
