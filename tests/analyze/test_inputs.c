/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Results directories are untrusted input (issue 12): every column of samples.csv and run.json
 * is checked with FILE:LINE, a cut last line is dropped wherever it was cut, and --json output
 * is valid JSON whatever bytes the files hold. Each case writes a small crafted directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analysis.h"
#include "analyze/data.h"
#include "analyze/data_int.h"
#include "harness/record_schema.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define UT_HEADER                                                                                  \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged\n"
#define UT_HEADER_RUN                                                                              \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged,run\n"
#define UT_ROW1 "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0\n"
#define UT_RUN                                                                                     \
	"{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "      \
	"\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [{\"point\": 0, "         \
	"\"threads\": 1, \"params\": {}, \"placement\": \"compact\", \"status\": \"ok\", "         \
	"\"reps\": 1}]}]}\n"

static char ut_dir[1024];

/* Writes DIR/name with len bytes of text (len may cover NUL bytes). */
static void ut_file(const char *name, const char *text, size_t len)
{
	char path[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ut_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		testlib_fail();
	}
}

/* A results directory R in the case's tmpdir with this samples.csv and run.json. */
static const char *ut_results(const char *samples, size_t len, const char *run)
{
	snprintf(ut_dir, sizeof(ut_dir), "%s/R", testlib_tmpdir());
	mkdir(ut_dir, 0755);
	ut_file("samples.csv", samples, len);
	ut_file("run.json", run, strlen(run));
	return ut_dir;
}

/* Loads the directory; returns the loader's code with its message in msg. */
static int ut_load(const char *samples, const char *run, char *msg, size_t *nsamples)
{
	struct lab_an_data d;
	struct lab_err err = {0};
	int rc = lab_an_data_load_dir(&d, ut_results(samples, strlen(samples), run), &err);

	snprintf(msg, 512, "%s", rc ? err.msg : (d.warn.n ? d.warn.msg[0] : ""));
	if (nsamples)
		*nsamples = d.nsamples;
	lab_an_data_free(&d);
	return rc;
}

/* The row UT_ROW1 with one field replaced: prefix + value + suffix. */
static void ut_expect_bad(const char *row, const char *want)
{
	char text[4096], msg[512];

	snprintf(text, sizeof(text), "%s%s%s", UT_HEADER, UT_ROW1, row);
	if (ut_load(text, UT_RUN, msg, NULL) == 0)
		TL__FAIL("accepted row '%s'", row);
	else if (!strstr(msg, "R/samples.csv:3:") || !strstr(msg, want))
		TL__FAIL("row '%s': message '%s' lacks 'samples.csv:3:' or '%s'", row, msg, want);
}

LAB_TEST(threads_out_of_range)
{
	ut_expect_bad("e,1,noop,placement=compact,2147483648,0,1000,10,op,0.01,0\n", "threads");
	ut_expect_bad("e,1,noop,placement=compact,4294967297,0,1000,10,op,0.01,0\n", "threads");
	ut_expect_bad("e,1,noop,placement=compact,0,0,1000,10,op,0.01,0\n", "threads");
	ut_expect_bad("e,1,noop,placement=compact, 2,0,1000,10,op,0.01,0\n", "threads");
	ut_expect_bad("e,99999999999999999999,noop,x=1,2,0,1000,10,op,0.01,0\n", "point");
}

LAB_TEST(columns_checked)
{
	ut_expect_bad("e,0,noop,placement=compact,1,1.5,1000,10,op,0.01,0\n", "rep");
	ut_expect_bad("e,0,noop,placement=compact,1,-1,1000,10,op,0.01,0\n", "rep");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000,10,op,0.01,2\n", "flagged");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000,10,op,0.01,\n", "flagged");
	ut_expect_bad("e,0,noop,placement=compact,1,1,0,10,op,0.01,0\n", "elapsed_ns");
	ut_expect_bad("e,0,noop,placement=compact,1,1,0x10,10,op,0.01,0\n", "elapsed_ns");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000,inf,op,0.01,0\n", "work");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000,10,op,nan,0\n", "foreign_cpu");
	ut_expect_bad("e,0,noop,noequals,1,1,1000,10,op,0.01,0\n", "params");
	ut_expect_bad(",0,noop,x=1,1,1,1000,10,op,0.01,0\n", "experiment");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000,10,op,0.01,0,extra\n", "fields");
	ut_expect_bad("e,0,noop,placement=compact,1,1,1000\n", "fields");
}

LAB_TEST(duplicate_point_rep)
{
	ut_expect_bad(UT_ROW1, "first at line 2");
	/* both rows named: which of the two was edited, the reader cannot tell */
	ut_expect_bad(
	    "e,0,noop,placement=compact,2,1,1000,10,op,0.01,0\n",
	    "samples.csv:3: point 0 with threads = 2, params = 'placement=compact', where "
	    "line 2 says threads = 1, params = 'placement=compact'; allowed: the same");
	ut_expect_bad("e,0,noop,placement=scatter,1,1,1000,10,op,0.01,0\n",
	              "where line 2 says threads = 1, params = 'placement=compact'");
}

LAB_TEST(unnamed_column_refused)
{
	char msg[512];

	CHECK(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	              "foreign_cpu,flagged,\n" UT_ROW1,
	              UT_RUN, msg, NULL) < 0);
	CHECK(strstr(msg, "samples.csv:1: column 12 = '': allowed: a metric name") != NULL);
	CHECK(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	              "foreign_cpu,flagged,m,m\n" UT_ROW1,
	              UT_RUN, msg, NULL) < 0);
	CHECK(strstr(msg, "'m' appears twice") != NULL);
	/* a name goes into the outputs' headers: plain, and never a fixed column's again */
	CHECK(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	              "foreign_cpu,flagged,\"a,b\nc\"\n" UT_ROW1,
	              UT_RUN, msg, NULL) < 0);
	CHECK(strstr(msg, "samples.csv:1: column 12 = 'a,b") != NULL);
	CHECK(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	              "foreign_cpu,flagged,\x1b[2Kok\n" UT_ROW1,
	              UT_RUN, msg, NULL) < 0);
	CHECK(strstr(msg, "column 12 = ") != NULL);
	CHECK(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	              "foreign_cpu,flagged,flagged\n" UT_ROW1,
	              UT_RUN, msg, NULL) < 0);
	CHECK(strstr(msg, "not a name of the fixed columns") != NULL);
	/* nor a rate's: summary.csv had two gbytes_per_s_ci95_lo columns (the rate's, the
	 * metric's) */
	static const char *const rate[] = {"gbytes_per_s", "gbytes_per_s_wa", "gflops_per_s"};
	for (size_t i = 0; i < sizeof(rate) / sizeof(rate[0]); i++) {
		char head[256];
		snprintf(head, sizeof(head),
		         "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
		         "foreign_cpu,flagged,%s\ne,0,noop,placement=compact,1,0,1000,10,op,"
		         "0.01,0,1\n",
		         rate[i]);
		CHECK(ut_load(head, UT_RUN, msg, NULL) < 0);
		CHECK(strstr(msg, "column 12 = ") != NULL);
	}
}

/* run is the last column when present: a column after it names itself (any of them was blamed
 * on run, "column 12 = 'run': ... not a name of the fixed columns", while the same before run
 * was a metric). */
LAB_TEST(column_after_run_named)
{
	static const char *const after[] = {"foo", "m", "", "run", "runq_wait"};
	char text[1024], msg[512], want[128];

	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		snprintf(text, sizeof(text), "%.*s,%s\n%.*s,0,1\n", (int)strlen(UT_HEADER_RUN) - 1,
		         UT_HEADER_RUN, after[i], (int)strlen(UT_ROW1) - 1, UT_ROW1);
		snprintf(want, sizeof(want),
		         "samples.csv:1: column 13 = '%s': allowed: no column after run (column 12",
		         after[i]);
		if (ut_load(text, UT_RUN, msg, NULL) != -LAB_EDATA || !strstr(msg, want))
			TL__FAIL("'run,%s': '%s', wanted '%s'", after[i], msg, want);
	}
	/* before run, a metric column */
	CHECK_EQ_I64(ut_load("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	                     "foreign_cpu,flagged,foo,run\n"
	                     "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0,1,0\n",
	                     UT_RUN, msg, NULL),
	             0);
}

LAB_TEST(nul_byte_refused)
{
	static const char text[] = UT_HEADER "e,0,noop,placement=comp\0act,1,0,1000,10,op,0.01,0\n";
	struct lab_an_data d;
	struct lab_err err = {0};

	REQUIRE(lab_an_data_load_dir(&d, ut_results(text, sizeof(text) - 1, UT_RUN), &err) < 0);
	CHECK(strstr(err.msg, "samples.csv:2: NUL byte") != NULL);
	lab_an_data_free(&d);
}

LAB_TEST(bom_accepted)
{
	char msg[512];
	size_t n = 0;

	CHECK_EQ_I64(ut_load("\xEF\xBB\xBF" UT_HEADER UT_ROW1, "\xEF\xBB\xBF" UT_RUN, msg, &n), 0);
	CHECK_EQ_U64(n, 1);
}

/* What SIGKILL or a full disk leaves: the last line cut anywhere, even inside quotes; dropped in
 * a run that did not complete, refused in one that did (lab wrote every line whole: the
 * warning was lost behind the error a missing row then caused, which named the wrong file). */
LAB_TEST(cut_last_line_dropped)
{
	static const char *const cut[] = {"e,1,noop,\"placement=comp", "e,1,noop,\"a=1;b",
	                                  "e,1,noop,placement=compact,1,1,1000,10,op,0.01,0",
	                                  "e,1,noop,placement=compact,1,1,10"};
	char text[1024], msg[512], run[1024];
	const char *at = strstr(UT_RUN, "\"complete\"");
	size_t n = 0;

	REQUIRE(at != NULL);
	snprintf(run, sizeof(run), "%.*s\"interrupted\"%s", (int)(at - UT_RUN), UT_RUN,
	         at + strlen("\"complete\""));
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		snprintf(text, sizeof(text), "%s%s%s", UT_HEADER, UT_ROW1, cut[i]);
		CHECK_EQ_I64(ut_load(text, run, msg, &n), 0);
		CHECK_EQ_U64(n, 1);
		if (!strstr(msg, "samples.csv:3: incomplete last line ignored"))
			TL__FAIL("cut '%s': warning '%s'", cut[i], msg);
		CHECK_EQ_I64(ut_load(text, UT_RUN, msg, &n), -LAB_EDATA);
		if (!strstr(msg, "samples.csv:3: the last line has no newline"))
			TL__FAIL("cut '%s' in a complete run: '%s'", cut[i], msg);
	}
}

/* A row repeated at once is refused at its line, before the rest of the file is read. */
LAB_TEST(repeated_row_refused_at_its_line)
{
	char msg[512];

	CHECK_EQ_I64(
	    ut_load(UT_HEADER UT_ROW1 UT_ROW1 "junk that is never read\n", UT_RUN, msg, NULL),
	    -LAB_EDATA);
	CHECK(strstr(msg, "samples.csv:3: point 0 rep 0 again (first at line 2)") != NULL);
}

static void ut_run_bad(const char *points, const char *want)
{
	char run[2048], msg[512];

	snprintf(run, sizeof(run),
	         "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n\"experiments\": "
	         "[{\"name\": \"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": "
	         "[\n%s]}]}\n",
	         points);
	if (ut_load(UT_HEADER UT_ROW1, run, msg, NULL) == 0)
		TL__FAIL("accepted run.json points %s", points);
	else if (!strstr(msg, want))
		TL__FAIL("points %s: message '%s' lacks '%s'", points, msg, want);
}

LAB_TEST(run_json_checked)
{
	char run[2048], msg[512];

	ut_run_bad("{\"point\": -1, \"threads\": 1}", "R/run.json:3: \"point\"");
	ut_run_bad("{\"point\": 1.5, \"threads\": 1}", "run.json:3: \"point\"");
	ut_run_bad("{\"point\": 0,\n\"threads\": 4294967297}", "run.json:4: \"threads\"");
	ut_run_bad("{\"point\": 5}", "run.json:3: \"threads\"");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"status\": \"bogus\"}", "allowed: ok|skipped");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"params\": 3}", "\"params\"");
	ut_run_bad(
	    "{\"point\": 5, \"threads\": 1, \"status\": \"planned\", \"reps\": 0, \"params\": "
	    "{}},\n{\"point\": 5, \"threads\": 1, \"status\": \"planned\", \"reps\": 0, "
	    "\"params\": {}}",
	    "run.json:4: point 5 again");
	ut_run_bad("3", "a point");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"params\": {\"a=b\": \"1\"}}", "param 'a=b'");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"params\": {\"a\": \"1;b=2\"}}", "param 'a'");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"params\": {\"a\": [1]}}", "param 'a'");
	/* statuses of the run side's whole plan are known words */
	snprintf(run, sizeof(run),
	         "{\"experiments\": [{\"name\": \"e\", \"points\": [{\"point\": 0, \"threads\": 1, "
	         "\"params\": {}, \"placement\": \"compact\"}, {\"point\": 1, \"threads\": 2, "
	         "\"status\": \"planned\"}, {\"point\": 2, \"threads\": 4, \"status\": "
	         "\"not_run\"}]}]}");
	CHECK_EQ_I64(ut_load(UT_HEADER UT_ROW1, run, msg, NULL), 0);
}

/* A point's run level and precision target: hostile values printed "precision: +-inf% asked,
 * +--inf% reached with -3 samples". Accepted: what the harness writes (harness/precision.c). */
LAB_TEST(run_json_precision_checked)
{
	char run[2048], msg[512];

	ut_run_bad("{\"point\": 0, \"threads\": 1,\n\"precision_target\": 1e308}",
	           "R/run.json:4: \"precision_target\": allowed: a fraction 0.0001 .. 0.5");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"precision_target\": \"2%\"}",
	           "\"precision_target\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"precision_achieved\": -1e308}",
	           "\"precision_achieved\": allowed: a number >= 0 whose percentage is finite, or "
	           "null");
	/* printed as a percentage: 1.7e308 reached "+-inf%" */
	ut_run_bad("{\"point\": 0, \"threads\": 1,\n\"precision_achieved\": 1.7e308}",
	           "R/run.json:4: \"precision_achieved\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"samples\": -3}",
	           "\"samples\": allowed: a whole number 0 .. 4294967295");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"samples\": 1e30}", "\"samples\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"samples\": 2.5}", "\"samples\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"runs\": \"3\"}", "\"runs\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"budget_exhausted\": \"yes\"}",
	           "\"budget_exhausted\": allowed: true or false");
	snprintf(run, sizeof(run),
	         "{\"experiments\": [{\"name\": \"e\", \"points\": [{\"point\": 0, \"threads\": 1, "
	         "\"params\": {}, \"placement\": \"compact\", \"runs\": 3, \"precision_target\": "
	         "0.02, \"precision_achieved\": null, \"samples\": 40, \"budget_exhausted\": "
	         "true}, {\"point\": 1, \"threads\": 2, \"precision_target\": 0.0001, "
	         "\"precision_achieved\": 0, \"runs\": 0, \"samples\": 0}]}]}");
	CHECK_EQ_I64(ut_load(UT_HEADER UT_ROW1, run, msg, NULL), 0);
}

/*
 * A point an interrupted run cut short: run.json's "runs" below its "runs_planned" (checked as
 * a count like "runs") loads with one warning that names it; one that got every run, none.
 */
LAB_TEST(run_json_runs_planned)
{
	static const char pts[] =
	    "{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	    "\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [{\"point\": 0, "
	    "\"threads\": 1, \"params\": {}, \"placement\": \"compact\", \"status\": \"ok\", "
	    "\"reps\": %d, \"runs\": %d, \"runs_planned\": 3}]}]}";
	char run[2048], msg[512];

	ut_run_bad("{\"point\": 0, \"threads\": 1, \"runs_planned\": -1}",
	           "\"runs_planned\": allowed: a whole number 0 .. 4294967295");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"runs_planned\": \"3\"}",
	           "\"runs_planned\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"runs_planned\": 1e9}",
	           "\"runs_planned\": allowed: a whole number 0 .. 100000");
	snprintf(run, sizeof(run), pts, 1, 1);
	CHECK_EQ_I64(ut_load(UT_HEADER UT_ROW1, run, msg, NULL), 0);
	CHECK(strstr(msg, "R/run.json: 1 point got fewer runs than planned, the run ended first "
	                  "(point 0, [e] threads=1: 1 of 3 runs)") != NULL);
	snprintf(run, sizeof(run), pts, 3, 3); /* a sample in each run */
	CHECK_EQ_I64(ut_load(UT_HEADER_RUN "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0,0\n"
	                                   "e,0,noop,placement=compact,1,1,1000,10,op,0.01,0,1\n"
	                                   "e,0,noop,placement=compact,1,2,1000,10,op,0.01,0,2\n",
	                     run, msg, NULL),
	             0);
	CHECK_EQ_STR(msg, "");
	/* with a precision target, runs_planned is its cap, not a plan: "43 of 100000 runs" */
	static const char prec[] =
	    "{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	    "\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [{\"point\": 0, "
	    "\"threads\": 1, \"params\": {}, \"placement\": \"compact\", \"status\": \"ok\", "
	    "\"reps\": 1, \"runs\": 1, \"runs_planned\": 100000, \"precision_target\": 0.01, "
	    "\"precision_achieved\": null, \"samples\": 1}]}]}";
	CHECK_EQ_I64(ut_load(UT_HEADER UT_ROW1, prec, msg, NULL), 0);
	if (!strstr(msg, "(point 0, [e] threads=1: 1 run, before its precision target or budget)"))
		TL__FAIL("%s", msg);
}

/* The amounts per unit of work become GB/s and flops/byte: bytes_read = -8 gave 0 GB/s [0, 0],
 * 1e308 bytes a flops/byte of 0. */
LAB_TEST(run_json_work_per_unit_checked)
{
	char run[2048], msg[512];

	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\n\"bytes_read\": -8}}",
	           "R/run.json:4: work_per_unit \"bytes_read\": allowed: 0 or a number 1e-06 .. "
	           "1e+15");
	/* a subnormal byte count: a ceiling of 1e-320 GB/s, a point "inf%" above its roof */
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\"bytes_read\": 1e-320}}",
	           "work_per_unit \"bytes_read\": allowed: 0 or a number 1e-06");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\"flops\": 1e308}}",
	           "work_per_unit \"flops\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\"bytes_written\": "
	           "\"8\"}}",
	           "work_per_unit \"bytes_written\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\"bytes_write_allocate\": "
	           "null}}",
	           "work_per_unit \"bytes_write_allocate\": allowed");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": 8}",
	           "\"work_per_unit\": allowed: an object");
	ut_run_bad("{\"point\": 0, \"threads\": 1, \"work_per_unit\": {\"bandwidth_bound\": "
	           "\"x\"}}",
	           "work_per_unit \"bandwidth_bound\": allowed: true or false");
	snprintf(run, sizeof(run),
	         "{\"experiments\": [{\"name\": \"e\", \"points\": [{\"point\": 0, \"threads\": 1, "
	         "\"params\": {}, \"placement\": \"compact\", \"work_per_unit\": {\"bytes_read\": "
	         "16, \"bytes_written\": 8, \"flops\": 0, \"bytes_write_allocate\": 1e15, "
	         "\"bandwidth_bound\": true}}]}]}");
	CHECK_EQ_I64(ut_load(UT_HEADER UT_ROW1, run, msg, NULL), 0);
}

/* Red team: elapsed_ns (1 .. 2^63) and work (at most 2^64 - 1) were held to their limits as
 * doubles, so 2^63 + 1 ns, 2^64 + 1 and 2^64 + 0.5 units (each the limit as a double) were
 * taken. Decimal text is held to the limits exactly; an exponent form is checked as a double. */
LAB_TEST(samples_counts_held_to_their_limits_exactly)
{
	static const char *const bad[][2] = {
	    {"9223372036854775809,10", "elapsed_ns = '9223372036854775809': allowed: a whole "
	                               "number of ns, 1 .. 2^63"},
	    {"9223372036854775808.5,10", "elapsed_ns = '9223372036854775808.5': allowed"},
	    {"123456789012345678.5,10", "elapsed_ns = '123456789012345678.5': allowed"},
	    {"0009223372036854775809,10", "elapsed_ns = '0009223372036854775809': allowed"},
	    {"1e19,10", "elapsed_ns = '1e19': allowed"},
	    {"1000,18446744073709551617",
	     "work = '18446744073709551617': allowed: a whole number of units, 1 .. 2^64 - 1"},
	    /* hostile46: a count, so whole and below 2^64, which no uint64 holds */
	    {"1000,18446744073709551616", "work = '18446744073709551616': allowed"},
	    {"1000,18446744073709551616.0", "work = '18446744073709551616.0': allowed"},
	    {"1000,18446744073709551615.999", "work = '18446744073709551615.999': allowed"},
	    {"1000,0.5", "work = '0.5': allowed"},
	    {"1000,2.5e0", "work = '2.5e0'"},
	    {"1000,1.8446744073709551616e19", "work = '1.8446744073709551616e19': allowed"},
	    {"1000,18446744073709551616.5", "work = '18446744073709551616.5': allowed"},
	    {"1000,18446744073709551616.0000001", "work = '18446744073709551616.0000001'"},
	    {"1000,100000000000000000000", "work = '100000000000000000000': allowed"},
	    {"1000,1.9e19", "work = '1.9e19': allowed"},
	};
	static const char *const good[] = {
	    "9223372036854775808,18446744073709551615",
	    "9223372036854775808.000,10",
	    "+9223372036854775807,10",
	    "1e3,10",
	    "1000,18446744073709551615.000",
	    "1000,1.8e19",
	    "1000,1e3",
	};
	char text[512], msg[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
		         UT_HEADER "e,0,noop,placement=compact,1,0,%s,op,0.01,0\n", bad[i][0]);
		CHECK_EQ_I64(ut_load(text, UT_RUN, msg, NULL), -LAB_EDATA);
		if (!strstr(msg, "samples.csv:2: ") || !strstr(msg, bad[i][1]))
			TL__FAIL("row '%s': message '%s' lacks '%s'", bad[i][0], msg, bad[i][1]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text),
		         UT_HEADER "e,0,noop,placement=compact,1,0,%s,op,0.01,0\n", good[i]);
		if (ut_load(text, UT_RUN, msg, NULL) != 0)
			TL__FAIL("row '%s' refused: %s", good[i], msg);
	}
}

/* Loads R (UT_ROW1, UT_RUN) with this threads.csv; the loader's code, its message in msg. */
static int ut_load_threads(const char *threads, char *msg)
{
	struct lab_an_data d;
	struct lab_err err = {0};
	int rc;

	ut_results(UT_HEADER UT_ROW1, strlen(UT_HEADER UT_ROW1), UT_RUN);
	ut_file("threads.csv", threads, strlen(threads));
	rc = lab_an_data_load_dir(&d, ut_dir, &err);
	snprintf(msg, 512, "%s", rc ? err.msg : "");
	lab_an_data_free(&d);
	return rc;
}

/* threads.csv numbers are refused as samples.csv's are: work = nan was passed over silently. */
LAB_TEST(threads_csv_nonfinite_refused)
{
	static const char *const rows[][2] = {
	    {"0,0,0,0,0,100,1100,nan,\n",
	     "R/threads.csv:2: work = 'nan': allowed: a finite number"},
	    {"0,0,0,0,0,100,inf,10,\n", "threads.csv:2: end_ns = 'inf': allowed"},
	    {"0,0,0,0,0,0x10,1100,10,\n", "threads.csv:2: start_ns = '0x10': allowed"},
	    {"0,0,0,0,0,100,1100,10,nan\n", "runq_wait = 'nan': allowed: a finite number or empty"},
	    {"x,0,0,0,0,100,1100,10,\n", "threads.csv:2: point, rep = 'x', '0': allowed"},
	    /* a share of the sample: 1.7e308 was taken (and printed "inf %" once) */
	    {"0,0,0,0,0,100,1100,10,1.7e308\n",
	     "threads.csv:2: runq_wait = '1.7e308': allowed: a share from 0 to 1, or empty"},
	    {"0,0,0,0,0,100,1100,10,-0.1\n", "runq_wait = '-0.1': allowed: a share from 0 to 1"},
	    /* an end of 1e308 made a thread 1e300 times slower than its team */
	    {"0,0,0,0,0,100,1e308,10,\n",
	     "threads.csv:2: start_ns, end_ns = '100', '1e308': allowed: nanoseconds 0 .. 2^63"},
	    {"0,0,0,0,0,1100,100,10,\n", "end_ns = '1100', '100': allowed"},
	    /* 2^63 + 1 is 2^63 as a double: held to the limit on its text */
	    {"0,0,0,0,0,100,9223372036854775809,10,\n",
	     "end_ns = '100', '9223372036854775809': allowed: nanoseconds 0 .. 2^63"},
	    {"0,0,0,0,0,-5,100,10,\n", "end_ns = '-5', '100': allowed"},
	    {"0,0,0,0,0,100,1100,-10,\n", "threads.csv:2: work = '-10': allowed: a count >= 0"},
	};
	char text[512], msg[512];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(text, sizeof(text), "%s,%s\n%s", LAB_THREADS_COLUMNS, LAB_COL_RUNQ_WAIT,
		         rows[i][0]);
		CHECK_EQ_I64(ut_load_threads(text, msg), -LAB_EDATA);
		if (!strstr(msg, rows[i][1]))
			TL__FAIL("row '%s': message '%s' lacks '%s'", rows[i][0], msg, rows[i][1]);
	}
	snprintf(text, sizeof(text), "%s,%s\n0,0,0,0,0,100,1100,10,0.3\n", LAB_THREADS_COLUMNS,
	         LAB_COL_RUNQ_WAIT);
	CHECK_EQ_I64(ut_load_threads(text, msg), 0);
}

/* Red team: threads.csv's columns after runq_wait were never read: abc, nan, 1e400, a count of
 * -1 and ctr_mux_ratio = 2 gave exit 0, though samples.csv refuses each and docs/counters.md
 * says threads.csv is held to the same per thread. A team's figure (Jain's index) is held to
 * no range in one thread's row, and a metric the lab does not know to none. */
LAB_TEST(threads_csv_metric_columns_checked)
{
	static const char *const bad[][2] = {
	    {"abc,,,", "threads.csv:2: ctr_cycles = 'abc': allowed: a finite number or empty"},
	    {",nan,,", "threads.csv:2: ctr_mux_ratio = 'nan': allowed: a finite number or empty"},
	    {"1e400,,,", "threads.csv:2: ctr_cycles = '1e400': allowed: a finite number"},
	    {"-1,,,", "threads.csv:2: ctr_cycles = '-1': allowed: a finite number >= 0, or empty"},
	    {",2,,", "threads.csv:2: ctr_mux_ratio = '2': allowed: a number in [0, 1], or empty"},
	    {",-0.5,,", "ctr_mux_ratio = '-0.5': allowed: a number in [0, 1]"},
	    {",,0x10,", "threads.csv:2: jain_fairness = '0x10': allowed: a finite number"},
	    {",,,inf", "threads.csv:2: my_metric = 'inf': allowed: a finite number or empty"},
	};
	static const char *const good[] = {",,,", "12345,1,5,-3.5", "0,0,0.01,1e300", "1e18,0.5,,"};
	char text[512], msg[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
		         "%s,%s,ctr_cycles,ctr_mux_ratio,jain_fairness,my_metric\n"
		         "0,0,0,0,0,100,1100,10,0.5,%s\n",
		         LAB_THREADS_COLUMNS, LAB_COL_RUNQ_WAIT, bad[i][0]);
		CHECK_EQ_I64(ut_load_threads(text, msg), -LAB_EDATA);
		if (!strstr(msg, bad[i][1]))
			TL__FAIL("row '%s': message '%s' lacks '%s'", bad[i][0], msg, bad[i][1]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text),
		         "%s,ctr_cycles,ctr_mux_ratio,jain_fairness,my_metric,%s\n"
		         "0,0,0,0,0,100,1100,10,%s,0.5\n",
		         LAB_THREADS_COLUMNS, LAB_COL_RUNQ_WAIT, good[i]);
		if (ut_load_threads(text, msg) != 0)
			TL__FAIL("row '%s' refused: %s", good[i], msg);
	}
}

/* One point's rows name one kernel and one unit of work: a row of another kernel (or unit) in
 * a point was averaged into it. */
LAB_TEST(point_rows_of_another_kernel_refused)
{
	static const struct {
		const char *row2, *want;
	} bad[] = {
	    {"e,0,c2c_latency,placement=compact,1,1,1000,10,op,0.01,0\n",
	     "samples.csv:3: point 0: kernel 'c2c_latency', work_unit 'op', where an earlier row "
	     "of it says 'noop', 'op'; allowed: the same"},
	    {"e,0,noop,placement=compact,1,1,1000,10,roundtrip,0.01,0\n",
	     "samples.csv:3: point 0: kernel 'noop', work_unit 'roundtrip'"},
	};
	char text[512], *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), UT_HEADER UT_ROW1 "%s", bad[i].row2);
		ut_results(text, strlen(text), UT_RUN);
		CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
		if (!err || !strstr(err, bad[i].want))
			TL__FAIL("case %zu: %s", i, err ? err : "");
		CHECK(!clitest_exists("R/summary.csv"));
		free(out);
		free(err);
	}
}

LAB_TEST(cli_bad_threads_exit_2)
{
	static const char text[] = UT_HEADER "e,0,noop,x=1,4294967297,0,1000,10,op,0.01,0\n";
	char *out = NULL, *err = NULL;

	ut_results(text, strlen(text), UT_RUN);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	CHECK(strstr(err, "R/samples.csv:2: threads = '4294967297': allowed 1 ..") != NULL);
	CHECK(!clitest_exists("R/summary.csv"));
	free(out);
	free(err);
}

/* Bytes that are not UTF-8 and control bytes in names reach analysis.json and --json. */
LAB_TEST(json_output_valid_on_any_bytes)
{
	static const char text[] = UT_HEADER
	    "e\xff\xfe\x01\x7f\xc3,0,k\xed\xa0\x80,x=\xf4\x90\x80\x80,1,0,1000,10,\x1b,0,0\n"
	    "e\xff\xfe\x01\x7f\xc3,1,k\xed\xa0\x80,x=\xf4\x90\x80\x80,2,0,600,10,\x1b,0,0\n";
	char cmd[2048], *out = NULL, *err = NULL;

	/* the warnings about run.json's schema and status quote them into --json too (\u0000, a
	 * raw control byte and half a surrogate pair are refused where they stand: test_io) */
	ut_results(text, sizeof(text) - 1,
	           "{\"schema\": \"\xff\xfe\", \"status\": \"x\\u0001y\\u001b\xed\xa0\x80\", "
	           "\"experiments\": []}");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots --json", &out, &err), 0);
	free(out);
	free(err);
	snprintf(cmd, sizeof(cmd),
	         "cd %s && python3 -c 'import json,sys; json.load(open(\"out.txt\", "
	         "encoding=\"utf-8\")); json.load(open(\"R/analysis.json\", encoding=\"utf-8\"))'",
	         testlib_tmpdir());
	CHECK_EQ_I64(system(cmd), 0);
}

LAB_TEST(external_csv_cut_in_quote)
{
	char *out = NULL, *err = NULL;

	ut_results("", 0, "{}");
	static const char text[] = "series,threads,seconds\na,1,2\na,2,1.1\n\"b";

	ut_file("x.csv", text, strlen(text));
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv R/x.csv --json", &out, &err), 0);
	CHECK(strstr(err, "x.csv:4: incomplete last line ignored") != NULL);
	free(out);
	free(err);
	/* a quote left open over lines took every row after it: an error, not a cut line */
	static const char open[] = "threads,seconds\n1,1.0\n\"2,0.5\n4,0.3\n4,0.3\n";
	ut_file("x.csv", open, strlen(open));
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv R/x.csv --json", &out, &err), 2);
	CHECK(strstr(err, "x.csv:3: a quoted field is not closed before the end of the file") !=
	      NULL);
	free(out);
	free(err);
	/* a cut first row leaves no data: an error (it exited 0 with 0 samples) */
	static const char cut[] = "series,threads,seconds\n\"ab";
	ut_file("x.csv", cut, strlen(cut));
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv R/x.csv --json", &out, &err), 2);
	CHECK(strstr(err, "x.csv: no data rows") != NULL);
	free(out);
	free(err);
}

/* External rows: a field past the header was dropped without a word, an empty series was
 * merged with one named csv, and a thread count past the limit did not say the limit. */
LAB_TEST(external_csv_rows_checked)
{
	static const char *const bad[][2] = {
	    {"threads,seconds,rep\n1,1,0,zz\n2,1,0\n",
	     "R/x.csv:2: 4 fields where the header has 3 (allowed: one per column)"},
	    {"series,threads,seconds,rep\n,1,1,0\ncsv,1,1,0\n",
	     "R/x.csv:2: series is empty (allowed: a name)"},
	    {"threads,seconds\n1048577,1\n",
	     "R/x.csv:2: threads = '1048577': allowed 1 .. 1048576"},
	};

	ut_results("", 0, "{}");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *out = NULL, *err = NULL;

		ut_file("x.csv", bad[i][0], strlen(bad[i][0]));
		CHECK_EQ_I64(clitest_run(NULL, "analyze --csv R/x.csv --no-plots", &out, &err), 2);
		if (!strstr(err, bad[i][1]))
			fprintf(stderr, "got: %s\nwant: %s\n", err, bad[i][1]);
		CHECK(strstr(err, bad[i][1]) != NULL);
		free(out);
		free(err);
	}
}

/* No rows at all: nothing to sort or group (the fuzzer found qsort called on NULL here). */
LAB_TEST(header_only)
{
	char msg[512];
	size_t n = 1;

	CHECK_EQ_I64(ut_load(UT_HEADER, "{\"experiments\": []}", msg, &n), 0);
	CHECK_EQ_U64(n, 0);
	CHECK(ut_load(UT_HEADER,
	              "{\"experiments\": [{\"name\": \"e\", \"points\": []}, "
	              "{\"name\": \"e\"}]}",
	              msg, NULL) < 0);
	CHECK(strstr(msg, "experiment 'e' again") != NULL);
}

/* Many distinct points go through the hash index: each lands in its own point and series. */
LAB_TEST(many_distinct_points_grouped)
{
	enum { NPT = 8000 };
	size_t cap = 1 << 20, len;
	char *text = malloc(cap), *run = malloc(cap);
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};
	size_t k = 0;

	REQUIRE(text && run);
	len = (size_t)snprintf(text, cap, "%s", UT_HEADER);
	for (int p = 0; p < NPT; p++)
		len += (size_t)snprintf(text + len, cap - len,
		                        "e%d,%d,noop,stride=%d,%d,0,%d,10,op,0,0\n", p % 3, p,
		                        p / 4, 1 << (p % 4), 1000 + p % 7);
	k = (size_t)snprintf(run, cap, "{\"experiments\": [");
	for (int e = 0; e < 3; e++)
		k +=
		    (size_t)snprintf(run + k, cap - k, "%s{\"name\": \"e%d\", \"scaling\": \"%s\"}",
		                     e ? ", " : "", e, e == 1 ? "weak" : "strong");
	snprintf(run + k, cap - k, "]}");
	REQUIRE(lab_an_data_load_dir(&d, ut_results(text, len, run), &err) == 0);
	CHECK_EQ_U64(d.npt, NPT);
	REQUIRE(lab_an_data_summarize(&d, 0, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 0, &a, &err) == 0);
	/* stride = p/4 with experiment p%3: every (experiment, stride) pair is its own series */
	k = 0;
	for (size_t i = 0; i < a.ns; i++) {
		k += a.s[i].nrow;
		if (a.s[i].weak != !strcmp(a.s[i].experiment, "e1"))
			TL__FAIL("series %s: weak = %d", a.s[i].experiment, a.s[i].weak);
	}
	CHECK_EQ_U64(k, NPT);
	CHECK_EQ_U64(a.ns, NPT / 4 * 3);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	free(text);
	free(run);
}

/* Points come in the plan's order (their ids), not the order their first samples were taken in
 * (the runner interleaves points), and every lookup still finds its point after the move. */
LAB_TEST(points_in_plan_order)
{
	static const char text[] = UT_HEADER "e,2,noop,placement=compact,3,0,1000,10,op,0,0\n"
	                                     "e,0,noop,placement=compact,1,0,1000,10,op,0,0\n"
	                                     "e,1,noop,placement=compact,2,0,1000,10,op,0,0\n"
	                                     "e,2,noop,placement=compact,3,1,3000,10,op,0,0\n"
	                                     "e,0,noop,placement=compact,1,1,2000,10,op,0,0\n";
	struct lab_an_data d;
	struct lab_err err = {0};

	REQUIRE(lab_an_data_load_dir(&d, ut_results(text, sizeof(text) - 1, "{}"), &err) == 0);
	REQUIRE(d.npt == 3);
	for (long i = 0; i < 3; i++) {
		CHECK_EQ_U64((size_t)d.pt[i].id, (size_t)i);
		CHECK(lab_an_point_by_id(&d, "e", i) == &d.pt[i]);
	}
	CHECK_EQ_U64(d.pt[0].n, 2); /* rows still with their own point */
	CHECK(d.pt[0].cost[1] == 200 && d.pt[2].cost[1] == 300 && d.pt[1].threads == 2);
	lab_an_data_free(&d);
}

/* run.json lists points (as every file `lab run` writes does): rows of an experiment it does not
 * name, or names without points, were not measured by this run (six appended rows read as a
 * full scaling table). */
LAB_TEST(rows_of_unlisted_experiment_refused)
{
	static const char *const exp2[] = {
	    "", ", {\"name\": \"forged\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": "
	        "[]}"};
	char run[1024];

	for (size_t k = 0; k < 2; k++) {
		snprintf(
		    run, sizeof(run),
		    "{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": "
		    "[{\"name\": \"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": "
		    "[{\"point\": 0, \"threads\": 1, \"params\": {}, \"placement\": \"compact\", "
		    "\"status\": \"ok\", \"reps\": 1}]}%s]}\n",
		    exp2[k]);
		char text[1024], msg[512];

		snprintf(text, sizeof(text), "%s%s%s", UT_HEADER, UT_ROW1,
		         "forged,100,noop,placement=compact,1,0,1000,10,op,0.01,0\n");
		CHECK(ut_load(text, run, msg, NULL) < 0);
		CHECK(strstr(msg, "R/samples.csv:3: point 100 of [forged] is not in run.json") !=
		      NULL);
	}
}
