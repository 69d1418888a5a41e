/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Issue 21, numbers that must not teach the wrong thing, on hand-made fixtures
 * (tests/analyze/gen_fixtures_meaning.py holds the values and the hand computations):
 * finding 4, a SIMD speedup's baseline matches every other param, threads included, and a point
 * without one says so instead of reading 1; finding 7, no scaling metric for latencies and
 * overheads, and no made-up notes or values; finding 5, samples with asymmetric threads.
 */
#include <math.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* `lab analyze NAME --no-plots ARGS` on a copy of fixture NAME: stdout (malloc'd). */
static char *mn_run(const char *name, const char *args)
{
	char cmd[256], *out = NULL, *err = NULL;

	clitest_copy(name);
	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots %s", name, args);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	free(err);
	return out ? out : strdup("");
}

static struct lab_an_json *mn_json(const char *name)
{
	char *out = mn_run(name, "--json");
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	return j;
}

/* The experiment named exp in analysis.json. */
static const struct lab_an_json *mn_exp(const struct lab_an_json *j, const char *exp)
{
	const struct lab_an_json *e;

	for (size_t i = 0; (e = clitest_at(j, "experiments", i)); i++)
		if (lab_an_json_str(e, "name") && !strcmp(lab_an_json_str(e, "name"), exp))
			return e;
	return NULL;
}

/* The simd_speedup entry of experiment exp whose section params contain cond, isa isa, its
 * smallest size. */
static const struct lab_an_json *mn_simd(const struct lab_an_json *j, const char *exp,
                                         const char *cond, const char *isa)
{
	return clitest_row(lab_an_json_get(mn_exp(j, exp), "simd_speedup"), cond, "points", "isa",
	                   isa);
}

/* The key of column k of the first simd_speedup table of experiment exp, or "". */
static const char *mn_col(const struct lab_an_json *j, const char *exp, size_t k)
{
	const struct lab_an_json *sec =
	    clitest_at(lab_an_json_get(mn_exp(j, exp), "simd_speedup"), "sections", 0);
	const struct lab_an_json *c =
	    lab_an_json_get(lab_an_json_get(lab_an_json_get(sec, "tables"), "points"), "columns");

	return c && c->type == LAB_AN_JSON_ARR && k < c->n ? lab_an_json_str(&c->items[k], "key")
	                                                   : "";
}

/* Finding 4: at 2 threads avx2 over scalar is the vector gain 1.0 / 0.3565 (not 2.78 / 0.3565
 * = 7.8, the scalar point at 1 thread) and scalar over itself is 1 (not 2.78); [misalign] has
 * no scalar point: its speedup is null with a note, and the text says so, never 1. */
LAB_TEST(simd_speedup_baseline_same_threads)
{
	struct lab_an_json *j = mn_json("results-simd-speedup");
	const struct lab_an_json *p;
	char *out;

	REQUIRE(j);
	REQUIRE((p = mn_simd(j, "isa", "threads=2", "avx2")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 1.0 / 0.3565, 1e-3);
	REQUIRE((p = mn_simd(j, "isa", "threads=2", "scalar")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 1.0, 1e-9);
	/* over itself exactly 1: no interval around it as if two points were divided */
	{
		const struct lab_an_json *ci = lab_an_json_get(p, "speedup_ci95");

		REQUIRE(ci && ci->type == LAB_AN_JSON_ARR && ci->n == 2);
		CHECK(ci->items[0].num == 1 && ci->items[1].num == 1);
	}
	REQUIRE((p = mn_simd(j, "isa", "threads=1", "avx2")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 2.78 / 0.99, 1e-3);
	/* [misalign] runs one size and two offsets: its rows are drawn against the offset (a
	 * one-point figure per offset said nothing, plots38); [isa] sweeps neither: by size */
	CHECK_EQ_STR(mn_col(j, "misalign", 1), "misalign");
	CHECK_EQ_STR(mn_col(j, "isa", 1), "size");
	for (int k = 0; k < 2; k++) {
		REQUIRE((p = clitest_row(lab_an_json_get(mn_exp(j, "misalign"), "simd_speedup"),
		                         "size=16K", "points", "misalign", k ? "32" : "0")));
		CHECK_EQ_STR(lab_an_json_str(p, "isa"), "avx512");
		CHECK(lab_an_json_get(p, "speedup")->type == LAB_AN_JSON_NULL);
		CHECK_EQ_I64((long long)lab_an_json_num(p, "speedup_n", -1), 0);
		CHECK_EQ_STR(lab_an_json_str(p, "speedup_why"),
		             "no isa=scalar point at these params");
		CHECK_NEAR(lab_an_json_num(p, "ns_per_elem", NAN), k ? 0.9 : 0.5, 1e-9);
	}
	lab_an_json_free(j);
	out = mn_run("results-simd-speedup", "");
	CHECK(strstr(out, "no isa=scalar point at these params") != NULL);
	CHECK(strstr(out, "no used samples") == NULL);
	free(out);
	/* the CSV file heads every section's x column, each value under its own (the offsets
	 * were written under size, by position: review40) */
	REQUIRE((out = clitest_read("results-simd-speedup/simd_speedup_points.csv")));
	CHECK(strncmp(out, "experiment,params,isa,size,speedup,", 35) == 0);
	CHECK(strstr(out, ",ns_per_elem_n,misalign,note\n") != NULL);
	CHECK(strstr(out, "misalign,\"op=sum;placement=compact;size=16K;type=f64;threads=1\","
	                  "avx512,,,,,,0,0.9,0.9,") != NULL);
	CHECK(strstr(out, ",3,32,speedup: no isa=scalar point") != NULL);
	free(out);
}

/* The scalar point at 2 threads with every sample load-flagged: avx2's row there says the
 * baseline has no usable samples, not that there is no scalar point (the point exists). */
LAB_TEST(simd_speedup_flagged_baseline_named)
{
	char *csv, *out = NULL, *err = NULL, path[2048];
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *p;
	FILE *f;

	clitest_copy("results-simd-speedup");
	REQUIRE((csv = clitest_read("results-simd-speedup/samples.csv")));
	snprintf(path, sizeof(path), "%s/results-simd-speedup/samples.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n")) {
		size_t n = strlen(line);
		if (!strncmp(line, "isa,1,", 6) && n > 2 && !strcmp(line + n - 2, ",0"))
			line[n - 1] = '1';
		fprintf(f, "%s\n", line);
	}
	fclose(f);
	free(csv);
	REQUIRE(clitest_run(NULL, "analyze results-simd-speedup --no-plots --json", &out, &err) ==
	        0);
	REQUIRE(lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0);
	REQUIRE((p = mn_simd(j, "isa", "threads=2", "avx2")));
	CHECK(lab_an_json_get(p, "speedup")->type == LAB_AN_JSON_NULL);
	CHECK_EQ_STR(lab_an_json_str(p, "speedup_why"),
	             "the isa=scalar point at these params (point 1): all 3 samples load-flagged "
	             "(--include-flagged keeps them)");
	REQUIRE((p = mn_simd(j, "isa", "threads=1", "avx2"))); /* its baseline is usable */
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 2.78 / 0.99, 1e-3);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* Writes text to the copied fixture's file rel (under the test's tmpdir). */
static void mn_write(const char *rel, const char *text)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE((f = fopen(path, "w")));
	fputs(text, f);
	fclose(f);
}

/* Red team: the scalar point measured in 3 runs, avx2 in one: the speedup's interval lends the
 * runs' spread to the one-run side (mixed level), so it is wider than either cost's interval;
 * the cell says so (a [0, 35.67] beside two cost intervals clearly above 0 read as a mistake). */
LAB_TEST(simd_speedup_of_mixed_levels_said)
{
	char *csv, *run, *out = NULL, *err = NULL, *line, *save = NULL, *p;
	size_t used = 0, cap;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *row;

	clitest_copy("results-simd-speedup");
	REQUIRE((csv = clitest_read("results-simd-speedup/samples.csv")));
	REQUIRE((run = clitest_read("results-simd-speedup/run.json")));
	cap = strlen(csv) * 2 + 64;
	char *nc = calloc(cap, 1);
	REQUIRE(nc);
	/* a run column: point 0's three samples are three runs (10 % apart), the others one */
	for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		used +=
		    (size_t)snprintf(nc + used, cap - used, "%s,%s\n", line,
		                     used == 0                     ? "run"
		                     : !strncmp(line, "isa,0,", 6) ? (strstr(line, ",1,0,")   ? "0"
		                                                      : strstr(line, ",1,1,") ? "1"
		                                                                              : "2")
		                                                   : "0");
	mn_write("results-simd-speedup/samples.csv", nc);
	REQUIRE((p = strstr(run, "\"point\": 0,")));
	size_t off = (size_t)(p - run) + strlen("\"point\": 0,");
	char *nr = calloc(strlen(run) + 32, 1);
	REQUIRE(nr);
	memcpy(nr, run, off);
	strcat(nr, " \"runs\": 3,");
	strcat(nr, run + off);
	mn_write("results-simd-speedup/run.json", nr);
	REQUIRE(clitest_run(NULL, "analyze results-simd-speedup --no-plots --json", &out, &err) ==
	        0);
	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		TL__FAIL("%s: %s", e.msg, err);
	REQUIRE(j && (row = mn_simd(j, "isa", "threads=1", "avx2")));
	const char *note = lab_an_json_str(row, "speedup_note");
	if (!note || !strstr(note, "one side has one run: the other's run-to-run spread is lent"))
		TL__FAIL("speedup_note: %s", note ? note : "(none)");
	REQUIRE((row = mn_simd(j, "isa", "threads=2", "avx2"))); /* both sides one run */
	CHECK(lab_an_json_str(row, "speedup_note") == NULL);
	lab_an_json_free(j);
	free(csv);
	free(run);
	free(nc);
	free(nr);
	free(out);
	free(err);
}

/* Review: a speedup whose Fieller set is open above ([lo, unbounded): avx2's samples 0.1 .. 2
 * ns) says so in every format: the text's "unbounded)", JSON [lo, null], the view CSV's inf,
 * and no bar in the plot's data (one stopping at the estimate read as a bounded interval). */
LAB_TEST(simd_speedup_open_above_in_every_format)
{
	char *csv, *out = NULL, *err = NULL, *p;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *row, *ci;

	clitest_copy("results-simd-speedup");
	REQUIRE((csv = clitest_read("results-simd-speedup/samples.csv")));
	REQUIRE((p = strstr(csv, ",1,0,980100,")));
	memcpy(p, ",1,0,100000,", 12); /* 0.1 ns, the same length */
	REQUIRE((p = strstr(csv, ",1,2,999900,")));
	size_t len = strlen(csv) + 8, at = (size_t)(p - csv);
	char *nc = calloc(len, 1);
	REQUIRE(nc);
	snprintf(nc, len, "%.*s,1,2,2000000,%s", (int)at, csv, p + 12); /* 2 ns */
	mn_write("results-simd-speedup/samples.csv", nc);
	free(nc);
	free(csv);
	REQUIRE(clitest_run(NULL, "analyze results-simd-speedup --json", &out, &err) == 0);
	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		TL__FAIL("%s: %s", e.msg, err);
	REQUIRE(j && (row = mn_simd(j, "isa", "threads=1", "avx2")));
	ci = lab_an_json_get(row, "speedup_ci95");
	REQUIRE(ci && ci->type == LAB_AN_JSON_ARR && ci->n == 2);
	CHECK(ci->items[0].type == LAB_AN_JSON_NUM && ci->items[0].num > 0);
	CHECK(ci->items[1].type == LAB_AN_JSON_NULL);
	lab_an_json_free(j);
	REQUIRE((csv = clitest_read("results-simd-speedup/simd_speedup_points.csv")));
	CHECK(strstr(csv, ",inf,3,") != NULL);
	free(csv);
	free(out);
	free(err);
	REQUIRE(clitest_run(NULL, "analyze results-simd-speedup --no-plots", &out, &err) == 0);
	CHECK(strstr(out, ", unbounded)") != NULL);
	free(out);
	free(err);
}

/* The series of experiment exp in analysis.json. */
static const struct lab_an_json *mn_series(const struct lab_an_json *j, const char *exp)
{
	const struct lab_an_json *s;

	for (size_t i = 0; (s = clitest_at(j, "series", i)); i++)
		if (!strcmp(lab_an_json_str(s, "experiment"), exp))
			return s;
	return NULL;
}

/* Finding 7: a cost_kind latency experiment gets no speedup, efficiency, Karp-Flatt or fit in
 * the JSON, the text or the report; an older run.json without the key is work (speedup 2). */
LAB_TEST(latency_has_no_scaling_metrics)
{
	struct lab_an_json *j = mn_json("results-cost-kind");
	const struct lab_an_json *s, *p;
	char *out, *lat, *html, path[2048];
	size_t len;

	REQUIRE(j);
	REQUIRE((s = mn_series(j, "lat")));
	CHECK_EQ_STR(lab_an_json_str(s, "cost_kind"), "latency");
	CHECK(lab_an_json_get(s, "amdahl") == NULL && lab_an_json_get(s, "usl") == NULL);
	CHECK_EQ_STR(lab_an_json_str(s, "model"), "none");
	for (size_t k = 0; (p = clitest_at(s, "points", k)); k++) {
		CHECK(lab_an_json_get(p, "speedup")->type == LAB_AN_JSON_NULL);
		CHECK(lab_an_json_get(p, "efficiency")->type == LAB_AN_JSON_NULL);
		CHECK(lab_an_json_get(p, "karp_flatt")->type == LAB_AN_JSON_NULL);
	}
	REQUIRE((s = mn_series(j, "work")));
	CHECK_EQ_STR(lab_an_json_str(s, "cost_kind"), "work");
	CHECK_NEAR(lab_an_json_num(clitest_at(s, "points", 1), "speedup", NAN), 2, 1e-9);
	lab_an_json_free(j);
	out = mn_run("results-cost-kind", "");
	REQUIRE((lat = strstr(out, "== scaling: work "))); /* the work series has them */
	CHECK(strstr(lat, "speedup [95% CI]") != NULL);
	CHECK(strstr(lat, "efficiency [95% CI]") != NULL &&
	      strstr(lat, "e(N) (Karp-Flatt)") != NULL);
	REQUIRE((lat = strstr(out, "== scaling: lat ")));
	REQUIRE(strstr(lat, "\n== scaling: work "));
	strstr(lat, "\n== scaling: work ")[0] = 0;
	CHECK(strstr(lat, "speedup [95% CI]") == NULL && strstr(lat, "Amdahl") == NULL);
	CHECK(strstr(lat, "efficiency [95% CI]") == NULL &&
	      strstr(lat, "e(N) (Karp-Flatt)") == NULL);
	CHECK(strstr(lat, "do not apply") != NULL);
	free(out);
	snprintf(path, sizeof(path), "%s/results-cost-kind/report.html", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &html, &len, NULL) == 0);
	REQUIRE((lat = strstr(html, "<h3>lat <small>")));
	REQUIRE(strstr(lat + 1, "<h"));
	strstr(lat + 1, "<h")[0] = 0; /* the lat section alone */
	CHECK(strstr(lat, "do not apply") != NULL);
	CHECK(strstr(lat, "speedup [95% CI]") == NULL && strstr(lat, "Amdahl") == NULL);
	CHECK(strstr(lat, "efficiency [95% CI]") == NULL &&
	      strstr(lat, "e(N) (Karp-Flatt)") == NULL);
	free(html);
}

/* Finding 7: schedule(static) takes no chunk, so its row shows none (text "-", JSON null); a
 * point that recorded no overhead_ns is not said to have "no used samples" (none was left out). */
LAB_TEST(static_has_no_chunk_and_no_false_left_out)
{
	struct lab_an_json *j = mn_json("results-cost-kind");
	const struct lab_an_json *v, *e;
	char *out;

	REQUIRE(j);
	v = lab_an_json_get(mn_exp(j, "sched"), "omp_schedule");
	REQUIRE((e = clitest_row(v, NULL, "points", "schedule", "static")));
	CHECK(lab_an_json_get(e, "chunk")->type == LAB_AN_JSON_NULL);
	CHECK_NEAR(lab_an_json_num(e, "makespan_ns", NAN), 1000, 1e-6);
	lab_an_json_free(j);
	out = mn_run("results-cost-kind", "");
	CHECK(strstr(out, "\nstatic    -      1000 | 1000") != NULL); /* chunk: none */
	CHECK(strstr(out, "no used samples") == NULL);
	free(out);
}

/* The finding of series exp that contains what, or NULL. */
static const char *mn_finding(const struct lab_an_json *j, const char *exp, const char *what)
{
	const struct lab_an_json *s, *f;

	for (size_t i = 0; (s = clitest_at(j, "series", i)); i++) {
		if (!lab_an_json_str(s, "experiment") ||
		    strcmp(lab_an_json_str(s, "experiment"), exp))
			continue;
		for (size_t k = 0; (f = clitest_at(s, "findings", k)); k++)
			if (f->type == LAB_AN_JSON_STR && strstr(f->str, what))
				return f->str;
	}
	return NULL;
}

/* The point of series exp with threads t in analysis.json. */
static const struct lab_an_json *mn_point(const struct lab_an_json *j, const char *exp, int t)
{
	const struct lab_an_json *s, *p;

	for (size_t i = 0; (s = clitest_at(j, "series", i)); i++) {
		if (!lab_an_json_str(s, "experiment") ||
		    strcmp(lab_an_json_str(s, "experiment"), exp))
			continue;
		for (size_t k = 0; (p = clitest_at(s, "points", k)); k++)
			if (lab_an_json_num(p, "threads", 0) == t)
				return p;
	}
	return NULL;
}

/* Finding 5, detection: threads doing identical work 1.45x apart in two samples mark those
 * samples asymmetric (1.1x does not; a shared-scope team, uneven work or a thread that waited for
 * its CPU never does), the top
 * line counts them, analysis.json carries asymmetric_samples per point, and the superlinear
 * finding names them as its likely cause instead of cache capacity. */
LAB_TEST(asymmetric_threads_are_detected_and_named)
{
	struct lab_an_json *j = mn_json("results-asymmetric");
	const char *f;
	char *out;

	REQUIRE(j);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "sum", 2), "asymmetric_samples", -1), 2, 0);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "sum", 2), "asymmetric_ratio", -1), 1.45, 1e-9);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "sum", 1), "asymmetric_samples", -1), 0, 0);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "shared", 2), "asymmetric_samples", -1), 0, 0);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "uneven", 2), "asymmetric_samples", -1), 0, 0);
	CHECK_NEAR(lab_an_json_num(mn_point(j, "waited", 2), "asymmetric_samples", -1), 0, 0);
	f = mn_finding(j, "sum", "superlinear at N = 2");
	REQUIRE(f);
	CHECK(strstr(f, "asymmetric CPUs") != NULL);
	CHECK(strstr(f, "cache") == NULL);
	lab_an_json_free(j);
	out = mn_run("results-asymmetric", "");
	CHECK(strstr(out, "2 samples with asymmetric threads: the slowest thread took 1.45x the "
	                  "fastest") != NULL);
	/* the text says it under the series too, though 2 thread counts are too few to fit */
	CHECK(strstr(out, "WARNING: superlinear at N = 2 (efficiency interval above 1): likely "
	                  "asymmetric CPUs") != NULL);
	free(out);
}

/* One command for several chapters: a run of two config files (tests/fixtures/results-chapters,
 * `lab run configs/cha.ini configs/chb.ini` of the noop kernel with one lesson each, chb's made
 * impossible) shows each file's lessons under its name, lessons first, then a section per
 * chapter; analysis.json names each lesson's file. */
LAB_TEST(several_configs_report_per_chapter)
{
	struct lab_an_json *j = mn_json("results-chapters");
	char *out = mn_run("results-chapters", ""), *a, *b, *ca, *cb;

	REQUIRE(j);
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "lessons", 0), "file"), "configs/cha.ini");
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "lessons", 1), "file"), "configs/chb.ini");
	CHECK_EQ_STR(lab_an_json_str(clitest_at(j, "lessons", 1), "verdict"), "fails");
	lab_an_json_free(j);
	REQUIRE((a = strstr(out, "-- configs/cha.ini: 1 hold, 0 fail")));
	REQUIRE((b = strstr(out, "-- configs/chb.ini: 0 hold, 1 fail")));
	REQUIRE((ca = strstr(out, "=== chapter: configs/cha.ini\n\n== points: alpha")));
	REQUIRE((cb = strstr(out, "=== chapter: configs/chb.ini\n\n== points: beta")));
	CHECK(a < b && b < ca && ca < cb);
	free(out);
}

/* Replaces from by to in the case's copy of file: every occurrence, or (all 0) the first. */
static void mn_edit(const char *file, const char *from, const char *to, int all)
{
	char path[2048], *buf = NULL, *p, *at;
	size_t len, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), file);
	REQUIRE(lab_an_file_read(path, &buf, &len, NULL) == 0);
	REQUIRE((f = fopen(path, "w")));
	for (p = buf; (at = strstr(p, from)) && (all || !n); p = at + strlen(from), n++) {
		fwrite(p, 1, (size_t)(at - p), f);
		fputs(to, f);
	}
	fputs(p, f);
	CHECK(fclose(f) == 0);
	CHECK(n > 0);
	free(buf);
}

/* Inside a chapter: the sections every view has of its experiments (a stride chart of alpha
 * under cha.ini, before chb.ini's heading), not only the scaling series, which come after the
 * chapter's own views (issue 21: the chapter's tables lead, the generic ones below). */
LAB_TEST(chapter_holds_its_views_sections)
{
	char *out = NULL, *err = NULL, *ca, *cb, *st;

	clitest_copy("results-chapters");
	mn_edit("results-chapters/run.json", "\"views\": [],", "\"views\": [\"stride\"],", 0);
	mn_edit("results-chapters/samples.csv", "alpha,0,noop,\"delay_loops=0;placement=compact\"",
	        "alpha,0,noop,\"delay_loops=0;placement=compact;stride=64\"", 1);
	/* point 0's params in run.json name the same keys (a lab.run/1 file lists every one) */
	mn_edit("results-chapters/run.json", "\"delay_loops\": \"0\",",
	        "\"delay_loops\": \"0\", \"stride\": \"64\",", 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-chapters --no-plots", &out, &err), 0);
	REQUIRE(out);
	REQUIRE((ca = strstr(out, "=== chapter: configs/cha.ini\n")));
	REQUIRE((cb = strstr(out, "=== chapter: configs/chb.ini\n")));
	REQUIRE((st = strstr(out, "== Cost vs stride: alpha  delay_loops=0")));
	CHECK(ca < st && st < cb);
	CHECK(st < strstr(ca, "== points: alpha")); /* the chapter's own view, then the series */
	/* report.html in the same order: the declared view, the series, then counters (which
	 * came before the chapter's own views there) */
	char *html = clitest_read("results-chapters/report.html"), *h_st, *h_se, *h_ct;
	REQUIRE(html);
	REQUIRE((h_st = strstr(html, "<h2>Cost vs stride")) &&
	        (h_se = strstr(html, "<h2>scaling")) && (h_ct = strstr(html, "<h2>Counters")));
	CHECK(h_st < h_se && h_se < h_ct);
	free(html);
	free(out);
	free(err);
}
