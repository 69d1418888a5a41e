/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The counters view (issue 11): on fixtures whose hardware counts are the intel_4wide vectors
 * of research/counters.md section 7.4 (tests/analyze/gen_fixtures_counters.py), the derived
 * metrics, top-down fractions and their invariants, the text, JSON, CSV and report; on a
 * fixture without hardware counters, the one "unavailable" line with its reason; the
 * pinned-thread warning only where the run-queue wait matters; and on a real tiny run here, the
 * software events. analysis.json has the document's shape (analyze/render/json.c): per
 * experiment "counters": {"note", "sections": [{"tables": {"points", "events", "derived",
 * "topdown"}, "findings", "notes"}]}, a row per point keyed by "point" (a string).
 */
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/csv.h"
#include "analyze/data.h"
#include "analyze/jsonr.h"
#include "analyze/views/counters.h"
#include "analyze/views/views.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

static int ct_load(const char *name, struct lab_an_data *d, struct lab_an_analysis *a)
{
	char path[1024];
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", testlib_srcdir(), name);
	if (lab_an_data_load_dir(d, path, &err) || lab_an_data_summarize(d, 0, &err) ||
	    lab_an_analysis_run(d, 0, a, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		return -1;
	}
	return 0;
}

/* Occurrences of needle in s. */
static size_t ct_count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; s && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The file tmpdir/rel into *buf (malloc'd). */
static int ct_read(const char *rel, char **buf)
{
	char path[2048];
	size_t len;
	struct lab_err e = {0};

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	return lab_an_file_read(path, buf, &len, &e);
}

/* Replaces every needle in tmpdir/DIR/FILE by with. */
static void ct_edit(const char *dir, const char *file, const char *needle, const char *with)
{
	char *s = NULL, rel[512], path[2048];
	FILE *f;

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	REQUIRE(ct_read(rel, &s) == 0);
	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	REQUIRE((f = fopen(path, "w")));
	for (const char *p = s, *q; *p; p = q + strlen(needle)) {
		if (!(q = strstr(p, needle))) {
			fputs(p, f);
			break;
		}
		fprintf(f, "%.*s%s", (int)(q - p), p, with);
	}
	fclose(f);
	free(s);
}

/* `lab analyze DIR --no-plots --json` on a copy of fixture dir: experiments[0].counters. */
static struct lab_an_json *ct_json(const char *dir, const struct lab_an_json **ctr)
{
	char cmd[256], *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	*ctr = NULL;
	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots --json", dir);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	if (out && lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0)
		*ctr = lab_an_json_get(clitest_at(j, "experiments", 0), "counters");
	free(out);
	free(err);
	return j;
}

/* Table key of section 0 of the counters object ctr. */
static const struct lab_an_json *ct_table(const struct lab_an_json *ctr, const char *key)
{
	return lab_an_json_get(lab_an_json_get(clitest_at(ctr, "sections", 0), "tables"), key);
}

/* The row of point id in table key of section 0 (with event: the row of that event). */
static const struct lab_an_json *ct_row(const struct lab_an_json *ctr, const char *key, long id,
                                        const char *event)
{
	const struct lab_an_json *rows = lab_an_json_get(ct_table(ctr, key), "rows");
	char pt[32];

	snprintf(pt, sizeof(pt), "%ld", id);
	for (size_t i = 0; rows && rows->type == LAB_AN_JSON_ARR && i < rows->n; i++)
		if (!strcmp(lab_an_json_str(&rows->items[i], "point") ?: "", pt) &&
		    (!event || !strcmp(lab_an_json_str(&rows->items[i], "event") ?: "", event)))
			return &rows->items[i];
	return NULL;
}

/* The median of event at point id ("task_clock"), NaN when absent: the events table has a
 * column per event, a row per point. */
static double ct_event(const struct lab_an_json *ctr, long id, const char *event)
{
	return lab_an_json_num(ct_row(ctr, "events", id, NULL), event, NAN);
}

LAB_TEST(view_is_listed_once)
{
	size_t n = 0;

	for (size_t i = 0; lab_an_views[i]; i++)
		n += !strcmp(lab_an_views[i]->name, "counters");
	CHECK_EQ_U64(n, 1);
}

/* The section 7.4 vectors come back as the known fractions, through two passes' medians. */
LAB_TEST(intel_4wide_fixture_numbers)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_ctrs *c;

	REQUIRE(ct_load("results-counters", &d, &a) == 0);
	c = lab_an_view_state(&a, "counters");
	REQUIRE(c && c->np == 2);
	CHECK(c->any_hw);
	CHECK_EQ_STR(c->method, "intel_4wide");
	for (size_t i = 0; i < c->np; i++) {
		const struct lab_an_ctr_pt *e = &c->p[i];

		CHECK_NEAR(e->dv[LAB_AN_CD_IPC].v, 2.5, 1e-12);
		CHECK_NEAR(e->dv[LAB_AN_CD_GHZ].v, 2.5, 1e-12);
		CHECK(!e->dv[LAB_AN_CD_GHZ].estimated);
		CHECK_NEAR(e->dv[LAB_AN_CD_CACHE_MPKI].v, 2.0, 1e-12);
		CHECK(isnan(e->dv[LAB_AN_CD_BRANCH_MPKI].v));
		CHECK(strstr(e->dv[LAB_AN_CD_BRANCH_MPKI].reason, "branch_misses: not requested"));
		CHECK_EQ_I64(e->tma.level, 2);
		CHECK_NEAR(e->tma.frontend_bound, 0.200, 1e-9);
		CHECK_NEAR(e->tma.bad_speculation, 0.075, 1e-9);
		CHECK_NEAR(e->tma.retiring, 0.500, 1e-9);
		CHECK_NEAR(e->tma.backend_bound, 0.225, 1e-9);
		CHECK_NEAR(e->tma.memory_bound, 0.116129, 1e-6);
		CHECK_NEAR(e->tma.core_bound, 0.108871, 1e-6);
	}
	CHECK_NEAR(c->p[0].mux_min, 1, 0);
	CHECK_NEAR(c->p[1].mux_min, 0.5, 0);
	CHECK_EQ_U64(c->p[0].csw_samples + c->p[0].mig_samples, 0);
	CHECK_EQ_U64(c->p[1].csw_samples, 2);
	CHECK_EQ_U64(c->p[1].mig_samples, 1);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* The Zen 4 vector of section 7.4 through the view's column names (width 6, cmask 6). */
LAB_TEST(amd_pipeline_fixture_numbers)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_ctrs *c;
	const struct lab_an_tma *t;

	REQUIRE(ct_load("results-counters-amd", &d, &a) == 0);
	c = lab_an_view_state(&a, "counters");
	REQUIRE(c && c->np == 1);
	t = &c->p[0].tma;
	CHECK_EQ_STR(t->method, "amd_pipeline");
	CHECK_EQ_I64(t->level, 2);
	CHECK_NEAR(t->frontend_bound, 0.20, 1e-9);
	CHECK_NEAR(t->bad_speculation, 0.05, 1e-9);
	CHECK_NEAR(t->backend_bound, 0.30, 1e-9);
	CHECK_NEAR(t->smt_contention, 0, 1e-12);
	CHECK_NEAR(t->retiring, 0.45, 1e-9);
	CHECK_NEAR(lab_an_tma_l1_sum(t), 1, 0.02);
	CHECK_NEAR(t->memory_bound, 0.18, 1e-9);
	CHECK_NEAR(t->core_bound, 0.12, 1e-9);
	CHECK_NEAR(t->fetch_latency, 0.10, 1e-9);
	CHECK_NEAR(t->fetch_bandwidth, 0.10, 1e-9);
	CHECK_NEAR(t->branch_mispredicts, 0.045, 1e-9);
	CHECK_NEAR(t->machine_clears, 0.005, 1e-9);
	/* No cycles column and no core_ghz: GHz null with the reason. */
	CHECK(isnan(c->p[0].dv[LAB_AN_CD_GHZ].v));
	CHECK(strstr(c->p[0].dv[LAB_AN_CD_GHZ].reason, "cycles: not requested"));
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* Level 1 sums to 1 +- 0.02 and every fraction lies in [0, 1], in analysis.json too. */
LAB_TEST(json_topdown_invariants)
{
	const struct lab_an_json *ctr, *td, *p;
	struct lab_an_json *j;
	static const char *const l1[] = {"retiring", "bad_speculation", "frontend_bound",
	                                 "backend_bound"};

	clitest_copy("results-counters");
	j = ct_json("results-counters", &ctr);
	REQUIRE(ctr);
	td = lab_an_json_get(ct_table(ctr, "topdown"), "rows");
	REQUIRE(td && td->type == LAB_AN_JSON_ARR && td->n == 2);
	for (long i = 0; i < 2; i++) {
		double sum = 0;

		REQUIRE((p = ct_row(ctr, "topdown", i, NULL)));
		CHECK_EQ_STR(lab_an_json_str(p, "method"), "intel_4wide");
		for (int k = 0; k < 4; k++) {
			double v = lab_an_json_num(p, l1[k], NAN);

			CHECK(v >= 0 && v <= 1);
			sum += v;
		}
		CHECK_NEAR(sum, 1, 0.02);
		CHECK_NEAR(lab_an_json_num(p, "frontend_bound", NAN), 0.2, 1e-9);
		CHECK_NEAR(lab_an_json_num(p, "memory_bound", NAN), 0.116129, 1e-6);
		CHECK_NEAR(lab_an_json_num(p, "core_bound", NAN), 0.108871, 1e-6);
		CHECK_NEAR(lab_an_json_num(ct_row(ctr, "derived", i, NULL), "ipc", NAN), 2.5, 1e-9);
		CHECK_NEAR(ct_event(ctr, i, "cycles"), 1e6 * (double)(i + 1), 0);
		CHECK_NEAR(ct_event(ctr, i, "task_clock"), 4e5 * (double)(i + 1), 1e-6);
	}
	/* multiplexed: the lowest mux ratio below 1, and the row says so */
	CHECK_NEAR(lab_an_json_num(ct_row(ctr, "points", 0, NULL), "mux_ratio_min", NAN), 1, 0);
	CHECK_NEAR(lab_an_json_num(ct_row(ctr, "points", 1, NULL), "mux_ratio_min", NAN), 0.5, 0);
	CHECK(!lab_an_json_str(ct_row(ctr, "derived", 0, NULL), "note"));
	CHECK(
	    strstr(lab_an_json_str(ct_row(ctr, "derived", 1, NULL), "note") ?: "", "MULTIPLEXED"));
	CHECK_NEAR(lab_an_json_num(ct_row(ctr, "points", 1, NULL), "samples_with_migrations", -1),
	           1, 0);
	lab_an_json_free(j);
}

/* The text: the derived and top-down rows, the multiplexing flag, the pinned-thread warning
 * (the fixture records no run-queue wait: it may matter); the CSV files and the report
 * section with its top-down figure. */
LAB_TEST(text_csv_report)
{
	char *out = NULL, *err = NULL, *csv = NULL, *html = NULL, *gp = NULL;

	clitest_copy("results-counters");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters", &out, &err), 0);
	CHECK(strstr(out, "== Counters: ctr\n")); /* a section per experiment, no params */
	CHECK_EQ_U64(ct_count(out, "2.5  2.5        cycles counted    2           branch_misses: "
	                           "not requested"),
	             2);
	CHECK_EQ_U64(ct_count(out, "intel_4wide  0.5       0.075            0.2             0.225"
	                           "          -               0.075                0.1161        "
	                           "0.1089"),
	             2);
	CHECK_EQ_U64(ct_count(out, "MULTIPLEXED (counted 50% of the time; scaled)"), 1);
	/* point 1 is marked in its row, point 0 is not; one warning line counts them */
	CHECK(strstr(out, "  [switched out 2/6, migrated 1/6]\n"));
	CHECK_EQ_U64(ct_count(out, "[switched out "), 1);
	CHECK(
	    strstr(out, "WARNING: in 1 of 2 points a pinned thread was switched out or migrated"));
	CHECK(strstr(
	    out, "(longest median run-queue wait recorded: 0 %; 1 point without a record of it)"));
	CHECK(!strstr(out, "unavailable"));
	REQUIRE(ct_read("results-counters/counters.csv", &csv) == 0);
	/* one params column: the table's own (an empty leading one came first) */
	CHECK(strstr(csv, "\nctr,0,1,6,,6,0,0,1,ok,\"delay_loops=0;placement=compact\",\n"));
	CHECK(strstr(csv, "experiment,point,threads,") == csv);
	free(csv);
	REQUIRE(ct_read("results-counters/counters_events.csv", &csv) == 0);
	/* a column per event, a row per point: task_clock, page faults, switches, migrations */
	CHECK(strstr(csv, "experiment,point,threads,task_clock,page_faults,context_switches,"
	                  "cpu_migrations,"));
	CHECK(strstr(csv, "\nctr,0,1,400000,10,0,0,"));
	free(csv);
	REQUIRE(ct_read("results-counters/counters_derived.csv", &csv) == 0);
	/* each cell's note after its column's key */
	CHECK(strstr(csv, "\nctr,0,1,2.5,2.5,,2,,,\"delay_loops=0;placement=compact\",\""
	                  "cycles_estimated: cycles counted; branch_mpki: branch_misses"));
	CHECK(!strstr(csv, "(estimated")); /* ghz_estimated 0: no note */
	free(csv);
	REQUIRE(ct_read("results-counters/counters_topdown.csv", &csv) == 0);
	CHECK(strstr(csv, "\nctr,,0,intel_4wide,0.5,0.075,0.2,"
	                  "0.225,,0.075,0.1161290323,0.1088709677,"));
	REQUIRE(ct_read("results-counters/report.html", &html) == 0);
	CHECK(strstr(html, "<h2>Counters</h2>"));
	REQUIRE(ct_read("results-counters/plots/counters00-ctr-topdown.gp", &gp) == 0);
	CHECK(strstr(gp, "title 'retiring'") && strstr(gp, "title 'back-end bound'"));
	CHECK(!strstr(gp, "SMT contention")); /* an AMD category */
	/* level 1 is a stacked bar per point, named by its tic (not by a label over it, which
	 * the chart unset: hostile42) */
	CHECK(!strstr(gp, "\nset label"));
	CHECK(strstr(gp, "set style histogram rowstacked\n"));
	CHECK(strstr(gp, "('point 0, 1 thr' 0, 'point 1, 2 thr' 1)\n"));
	free(gp);
	free(html);
	free(csv);
	free(out);
	free(err);
}

/* The pinned-thread warning is a finding only where the wait for the CPU matters (over 1 % of
 * the sample); a wait of 0.02 % is a plain count (issue 21, finding 9). */
LAB_TEST(pinned_warning_when_wait_matters)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-counters");
	ct_edit("results-counters", "samples.csv", "\n", ",0.0002\n");
	ct_edit("results-counters", "samples.csv", "ctr_mux_ratio,0.0002\n",
	        "ctr_mux_ratio,runq_wait\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters --no-plots", &out, &err), 0);
	CHECK(strstr(out, "  [switched out 2/6, migrated 1/6]\n"));
	CHECK(!strstr(out, "WARNING: in"));
	CHECK(strstr(out, "note: 1 of 2 points marked [...] waited under 1 % of the sample"));
	free(out);
	free(err);
	ct_edit("results-counters", "samples.csv", ",0.0002\n", ",0.05\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters --no-plots", &out, &err), 0);
	CHECK(
	    strstr(out, "WARNING: in 1 of 2 points a pinned thread was switched out or migrated"));
	CHECK(strstr(
	    out, "(longest median run-queue wait recorded: 5 %; 0 points without a record of it)"));
	CHECK(!strstr(out, "waited under 1 %"));
	free(out);
	free(err);
}

/* Without hardware counters: one line with the reason, no empty tables, nulls with reasons. */
LAB_TEST(no_hardware_one_line)
{
	const char *line =
	    "hardware counters unavailable here: cycles: unsupported: ENOENT: no PMU in this VM";
	char *out = NULL, *err = NULL, *html = NULL;
	const struct lab_an_json *ctr;
	struct lab_an_json *j;

	clitest_copy("results-counters-nohw");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters-nohw", &out, &err), 0);
	CHECK_EQ_U64(ct_count(out, line), 1);
	CHECK_EQ_U64(ct_count(out, "unavailable"), 1);
	CHECK(!strstr(out, "IPC"));
	CHECK(strstr(out, "core clock 3.5 GHz (estimated"));
	/* one table of the software events per experiment: no samples, mux ratio or status
	 * columns that say nothing here, the point's marks on its row */
	CHECK_EQ_U64(ct_count(out, "software events: median per sample\n"), 1);
	CHECK(strstr(out, "\npoint  threads  runq_wait (%)  task_clock (ns)  page_faults  "
	                  "context_switches  cpu_migrations  params"));
	CHECK(!strstr(out, "mux_ratio_min") && !strstr(out, "samples_with_context_switches"));
	CHECK(!strstr(out, "\nevents: median per sample\n"));
	CHECK_EQ_U64(ct_count(out, "  [switched out 1/5, migrated 0/5]\n"), 2);
	REQUIRE(ct_read("results-counters-nohw/report.html", &html) == 0);
	CHECK_EQ_U64(ct_count(html, "hardware counters unavailable"), 1);
	CHECK(!strstr(html, "<th>IPC</th>"));
	CHECK(!strstr(html, "<th>mux_ratio_min</th>") && strstr(html, "<th>task_clock (ns)</th>"));
	/* the files keep both tables in full, and no copy of the text's */
	free(html);
	CHECK(ct_read("results-counters-nohw/counters_software.csv", &html) != 0);
	REQUIRE(ct_read("results-counters-nohw/counters.csv", &html) == 0);
	CHECK(strstr(html, ",mux_ratio_min,status,"));
	j = ct_json("results-counters-nohw", &ctr);
	/* no hardware counter anywhere: no top-down table, and no derived one repeating the
	 * reason in every cell; the note says it once, with the estimated clock and why top-down
	 * is missing; the cycles the note promises are in a table of the clock and the estimated
	 * cycles alone (lessons red team: they were nowhere) */
	REQUIRE(ctr);
	CHECK(ct_row(ctr, "topdown", 0, NULL) == NULL);
	const struct lab_an_json *dv = ct_row(ctr, "derived", 0, NULL);
	CHECK(dv && lab_an_json_num(dv, "cycles_estimated", NAN) > 0 &&
	      !lab_an_json_get(dv, "ipc") && !lab_an_json_get(dv, "cache_mpki"));
	CHECK(strstr(out, "estimated: cycles = task-clock x the self-check's core clock (no cycle "
	                  "counter)\npoint  threads  ghz (GHz)  cycles_estimated  params"));
	CHECK(!ct_table(ctr, "software") && ct_table(ctr, "points") && ct_table(ctr, "events"));
	CHECK(!strncmp(lab_an_json_str(ctr, "note") ?: "", line, strlen(line)));
	CHECK(strstr(lab_an_json_str(ctr, "note") ?: "", "core clock 3.5 GHz (estimated"));
	CHECK(strstr(lab_an_json_str(ctr, "note") ?: "", "ls_not_halted_cyc: not requested"));
	CHECK_NEAR(ct_event(ctr, 0, "task_clock"), 12e6 + 2, 0);
	CHECK_NEAR(
	    lab_an_json_num(ct_row(ctr, "points", 0, NULL), "samples_with_context_switches", -1), 1,
	    0);
	lab_an_json_free(j);
	free(html);
	free(out);
	free(err);
}

/* load29: a point whose samples were all load-flagged is taken whole by the view, and every
 * table of it says so (the estimated-cycles and events tables did not). */
LAB_TEST(all_flagged_marked_in_every_table)
{
	const struct lab_an_json *ctr, *row;
	struct lab_an_json *j;

	clitest_copy("results-counters-nohw");
	ct_edit("results-counters-nohw", "samples.csv", "iteration,0.01,0,1200000",
	        "iteration,0.01,1,1200000");
	j = ct_json("results-counters-nohw", &ctr);
	REQUIRE(ctr);
	REQUIRE((row = ct_row(ctr, "derived", 0, NULL)));
	CHECK_EQ_STR(lab_an_json_str(row, "note"), "(all samples load-flagged)");
	REQUIRE((row = ct_row(ctr, "events", 0, NULL)));
	CHECK_EQ_STR(lab_an_json_str(row, "note"), "(all samples load-flagged)");
	REQUIRE((row = ct_row(ctr, "derived", 1, NULL)));
	CHECK(!lab_an_json_str(row, "note"));
	lab_an_json_free(j);
}

/* Red team: a self-check's core clock no CPU runs at (1e300 GHz in an edited run.json) was
 * printed and estimated cycles from; now it estimates nothing. */
LAB_TEST(implausible_core_clock_ignored)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-counters-nohw");
	ct_edit("results-counters-nohw", "run.json", "\"core_ghz\": 3.5", "\"core_ghz\": 1e300");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters-nohw --no-plots", &out, &err), 0);
	CHECK(out && !strstr(out, "1e+300") && !strstr(out, "core clock"));
	free(out);
	free(err);
}

/* A real tiny run here: the software events are counted and shown. */
LAB_TEST(real_run_software_events)
{
	char *out = NULL, *err = NULL;
	const struct lab_an_json *ctr, *p;
	struct lab_an_json *j;

	CHECK_EQ_I64(
	    clitest_run(NULL,
	                "run --only noop --set noop.threads=1 --set noop.reps=3 "
	                "--set noop.min_time=1ms --set global.retry_flagged=0 -o R --no-progress",
	                &out, &err),
	    0);
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots --include-flagged", &out, &err), 0);
	CHECK(strstr(out, "== Counters: noop"));
	CHECK(strstr(out, "runq_wait (%)") && strstr(out, "  task_clock (ns)  "));
	CHECK(strstr(out, "  page_faults  ") && strstr(out, "  context_switches  ") &&
	      strstr(out, "  cpu_migrations"));
	j = ct_json("R --include-flagged", &ctr);
	REQUIRE(ctr && (p = ct_row(ctr, "points", 0, NULL)));
	CHECK(ct_event(ctr, 0, "task_clock") > 0);
	/* The share a worker waited for its CPU, in %: a number, or null without schedstat. */
	{
		const struct lab_an_json *rq = lab_an_json_get(p, "runq_wait");
		REQUIRE(rq);
		if (rq->type == LAB_AN_JSON_NUM)
			CHECK(rq->num >= 0 && rq->num <= 100);
		else
			CHECK(rq->type == LAB_AN_JSON_NULL &&
			      access("/proc/thread-self/schedstat", R_OK) != 0);
	}
	CHECK(ct_event(ctr, 0, "page_faults") >= 0);
	CHECK(ct_event(ctr, 0, "cpu_migrations") >= 0);
	/* With a PMU the hardware metrics have values; without one, a reason. */
	if (strncmp(lab_an_json_str(ctr, "note") ?: "", "IPC", 3))
		CHECK(!strncmp(lab_an_json_str(ctr, "note") ?: "",
		               "hardware counters unavailable here: ", 36) &&
		      strlen(lab_an_json_str(ctr, "note")) > 36);
	lab_an_json_free(j);
	free(out);
	free(err);
}

/* Names from the files are HTML-escaped in the section and quoted in the plot script. */
/* Events past a table's room go on in a table of their own, in every output: the 21st of a
 * real catalogue (flops) was left out without a word (scale35). */
LAB_TEST(events_past_a_table_go_on)
{
	const struct lab_an_json *ctr;
	struct lab_an_json *j;
	char *csv = NULL;

	clitest_copy("results-counters");
	ct_edit("results-counters", "samples.csv", ",ctr_mux_ratio\n",
	        ",ctr_x0,ctr_x1,ctr_x2,ctr_x3,ctr_x4,ctr_x5,ctr_x6,ctr_x7,ctr_mux_ratio\n");
	ct_edit("results-counters", "samples.csv", ",1\n", ",7,7,7,7,7,7,7,7,1\n");
	ct_edit("results-counters", "samples.csv", ",0.5\n", ",7,7,7,7,7,7,7,7,0.5\n");
	REQUIRE((j = ct_json("results-counters", &ctr)));
	CHECK(ct_table(ctr, "events_2") != NULL);
	CHECK_NEAR(lab_an_json_num(ct_row(ctr, "events_2", 0, NULL), "x7", NAN), 7, 0);
	CHECK(isnan(ct_event(ctr, 0, "x7")));
	REQUIRE(ct_read("results-counters/counters_events_2.csv", &csv) == 0);
	CHECK(strstr(csv, "x7") != NULL);
	free(csv);
	lab_an_json_free(j);
}

LAB_TEST(untrusted_names_escaped)
{
	char *out = NULL, *err = NULL, *html = NULL, *gp = NULL;

	clitest_copy("results-counters");
	ct_edit("results-counters", "samples.csv", "\nctr,", "\n\"<i>x'y</i>\",");
	ct_edit("results-counters", "run.json", "\"name\": \"ctr\"", "\"name\": \"<i>x'y</i>\"");
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-counters", &out, &err), 0);
	REQUIRE(ct_read("results-counters/report.html", &html) == 0);
	CHECK(strstr(html, "<h3>&lt;i&gt;x&#39;y&lt;/i&gt; <small>"));
	CHECK(!strstr(html, "<i>x'y</i>"));
	REQUIRE(ct_read("results-counters/plots/"
	                "counters00-_i_x_y__i_-topdown.gp",
	                &gp) == 0);
	CHECK(strstr(gp, "set title '<i>x''y</i>: top-down level 1 (intel_4wide)'"));
	CHECK(strstr(gp, "noenhanced"));
	free(gp);
	free(html);
	free(out);
	free(err);
}
