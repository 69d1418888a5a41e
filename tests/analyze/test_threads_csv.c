/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.csv is held to the sample each row belongs to (analyze/data_threads.c): a thread's
 * span inside its sample's elapsed_ns (one timed window) or its starts and ends within it (any
 * number), a thread of the point's team once per sample, a sample samples.csv has, the header's
 * columns in every row, the samples one after another. Each is a data error with FILE:LINE and
 * what is allowed (exit 2, nothing written). Each case writes a small crafted directory R: one
 * point of 2 threads, 2 samples of elapsed_ns 1 ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/data.h"
#include "harness/record_schema.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define TC_SAMPLES                                                                                 \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged\n"                                                                                \
	"e,0,noop,placement=compact,2,0,1000000,10,op,0.01,0\n"                                    \
	"e,0,noop,placement=compact,2,1,1000000,10,op,0.01,0\n"
#define TC_HEADER LAB_THREADS_COLUMNS "," LAB_COL_RUNQ_WAIT "\n"
/* Two samples as `lab run` writes them: each spans its elapsed_ns, one after the other. */
#define TC_REP0 "0,0,0,0,0,100000,1100000,5,0\n0,0,1,1,1,300000,900000,5,0\n"
#define TC_REP1 "0,1,0,0,0,2000000,3000000,5,0\n0,1,1,1,1,2000000,2500000,5,\n"

/* Writes tmpdir/R/name. */
static void tc_file(const char *name, const char *text)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/R", testlib_tmpdir());
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/R/%s", testlib_tmpdir(), name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		testlib_fail();
	}
}

/* run.json of the point with these extra members (after a comma) and run status. */
static void tc_run(const char *status, const char *point)
{
	char run[2048];

	snprintf(run, sizeof(run),
	         "{\"schema\": \"lab.run/1\", \"status\": \"%s\", \"experiments\": [{\"name\": "
	         "\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [{\"point\": 0, "
	         "\"threads\": 2, \"params\": {\"placement\": \"compact\"}, \"status\": \"ok\", "
	         "\"reps\": 2%s}]}]}\n",
	         status, point);
	tc_file("run.json", run);
}

/* samples.csv as tc_load writes it: TC_SAMPLES unless a case says otherwise */
static const char *tc_samples = TC_SAMPLES;

/* Loads R with this threads.csv (and run.json as tc_run writes it); the loader's code, its
 * error message or its warnings in msg. */
static int tc_load(const char *status, const char *point, const char *threads, char *msg,
                   size_t len)
{
	struct lab_an_data d;
	struct lab_err err = {0};
	char dir[2048];
	int rc;

	tc_file("samples.csv", tc_samples);
	tc_run(status, point);
	tc_file("threads.csv", threads);
	snprintf(dir, sizeof(dir), "%s/R", testlib_tmpdir());
	rc = lab_an_data_load_dir(&d, dir, &err);
	snprintf(msg, len, "%s", rc ? err.msg : "");
	for (size_t i = 0; !rc && i < d.warn.n; i++) /* every warning, one a line */
		snprintf(msg + strlen(msg), len - strlen(msg), "%s\n", d.warn.msg[i]);
	lab_an_data_free(&d);
	return rc;
}

/* threads.csv (after the header) is refused with a message holding want, or (want NULL)
 * accepted. */
static void tc_expect(const char *status, const char *point, const char *rows, const char *want)
{
	char text[4096], msg[1024];
	int rc;

	snprintf(text, sizeof(text), "%s%s", TC_HEADER, rows);
	rc = tc_load(status, point, text, msg, sizeof(msg));
	if (!want && rc)
		TL__FAIL("refused (%s) %s: %s", point, rows, msg);
	else if (want && rc != -LAB_EDATA)
		TL__FAIL("accepted (%s) %s (code %d)", point, rows, rc);
	else if (want && !strstr(msg, want))
		TL__FAIL("(%s) %s: message '%s' lacks '%s'", point, rows, msg, want);
}

#define ONE_WINDOW ", \"sample_windows\": 1"

LAB_TEST(valid_threads_load)
{
	tc_expect("complete", ONE_WINDOW, TC_REP0 TC_REP1, NULL);
	tc_expect("complete", "", TC_REP0 TC_REP1, NULL);
	/* a sample may lack its threads (a run cut between the two files) */
	tc_expect("complete", ONE_WINDOW, TC_REP0, NULL);
	/* an OpenMP point writes one row per sample: the harness worker */
	tc_expect("complete", ONE_WINDOW ", \"team\": \"openmp\"",
	          "0,0,0,0,0,100000,1100000,10,0\n0,1,0,0,0,2000000,3000000,10,0\n", NULL);
}

/* hostile46: a sample's work is its threads' total, as the harness adds them up: a work edited
 * a thousandfold moved its point's cost with it, unchecked. */
LAB_TEST(sample_work_is_its_threads_sum)
{
	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,0,0,100000,1100000,5,0\n0,0,1,1,1,300000,900000,6,0\n" TC_REP1,
	          "R/threads.csv:2: point 0 rep 0: its 2 threads did 11 units, the sample's work "
	          "is 10 (");
	tc_expect("complete", ONE_WINDOW ", \"team\": \"openmp\"",
	          "0,0,0,0,0,100000,1100000,10,0\n0,1,0,0,0,2000000,3000000,5,0\n",
	          "R/threads.csv:3: point 0 rep 1: its 1 thread did 5 units");
	/* one unit off a work of 10^10 (review46: a relative tolerance let it pass) */
	tc_samples = "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	             "foreign_cpu,flagged\n"
	             "e,0,noop,placement=compact,2,0,1000000,10000000001,op,0.01,0\n"
	             "e,0,noop,placement=compact,2,1,1000000,10,op,0.01,0\n";
	tc_expect(
	    "complete", ONE_WINDOW,
	    "0,0,0,0,0,100000,1100000,5000000000,0\n0,0,1,1,1,300000,900000,5000000000,0\n" TC_REP1,
	    "its 2 threads did 10000000000 units, the sample's work is 10000000001");
	tc_samples = TC_SAMPLES;
}

/* A thread's span far past its sample's elapsed_ns: 9e18 ns in a sample of 1 ms was read. */
LAB_TEST(span_held_to_elapsed)
{
	/* one timed window: the threads' times lie inside elapsed_ns */
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,0,0,0,2000000,9000000000000000000,5,0\n",
	          "R/threads.csv:4: point 0 rep 1: its threads span ");
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,0,0,0,2000000,9000000000000000000,5,0\n",
	          "ns, more than the sample's elapsed_ns 1000000 (");
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,0,0,0,2000000,3002000,5,0\n",
	          "threads.csv:4: point 0 rep 1: its threads span 1002000 ns, more than the "
	          "sample's elapsed_ns 1000000 (");
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,0,0,0,2000000,3002000,5,0\n",
	          "R/samples.csv:3), allowed: at most that (a sample of one timed window");
	/* 1 us over is within the slack: no rounding of a real file trips it */
	tc_expect("complete", ONE_WINDOW,
	          TC_REP0 "0,1,0,0,0,2000000,3001000,5,0\n0,1,1,1,1,2000000,2500000,5,0\n", NULL);
	/* a chunked sample (3 windows): spans past elapsed_ns hold the gaps between chunks ... */
	tc_expect("complete", ", \"sample_windows\": 3",
	          "0,0,0,0,0,100000,1600000,5,0\n0,0,1,1,1,150000,1650000,5,0\n" TC_REP1, NULL);
	/* ... but its threads start in the first window and end in the last */
	tc_expect("complete", ", \"sample_windows\": 3",
	          "0,0,0,0,0,100000,1600000,5,0\n0,0,1,1,1,1500000,5600000,5,0\n",
	          "threads.csv:3: point 0 rep 0: its threads start 1400000 ns apart, more than");
	tc_expect("complete", "", "0,0,0,0,0,100000,1600000,5,0\n0,0,1,1,1,150000,9000000,5,0\n",
	          "threads.csv:3: point 0 rep 0: its threads end 7400000 ns apart");
	/* a whole team spans at least elapsed_ns (the timed windows lie inside its span) */
	tc_expect("complete", "", "0,0,0,0,0,100000,600000,5,0\n0,0,1,1,1,100000,500000,5,0\n",
	          "threads.csv:2: point 0 rep 0: its 2 threads span 500000 ns, less than the "
	          "sample's elapsed_ns 1000000");
	/* an elapsed_ns past 2^53 is quoted without digits a double does not hold (2^63 - 1 read
	 * 9223372036854775808, a value not in the file) */
	tc_samples = "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	             "foreign_cpu,flagged\n"
	             "e,0,noop,placement=compact,2,0,9223372036854775807,10,op,0.01,0\n";
	tc_expect("complete", "", "0,0,0,0,0,100000,600000,5,0\n0,0,1,1,1,100000,500000,5,0\n",
	          "threads span 500000 ns, less than the sample's elapsed_ns 9.22337203685478e+18");
	tc_samples = TC_SAMPLES;
	/* a team of one row is not the whole team (whole_team_per_sample) */
	tc_expect("complete", "", "0,0,0,0,0,100000,600000,5,0\n",
	          "threads.csv:2: point 0 rep 0: ");
	/* a chunked sample's threads span its windows and the untimed gaps between them: a run
	 * stopped (Ctrl-Z) between two chunks of its last sample wrote an hour over 1 ms */
	tc_expect("complete", ", \"sample_windows\": 3",
	          TC_REP0
	          "0,1,0,0,0,2000000,3600002000000,5,0\n0,1,1,1,1,2000100,3600002100000,5,0\n",
	          NULL);
	/* without sample_windows (older files) the next sample's start bounds the span */
	tc_expect("complete", "",
	          "0,0,0,0,0,100000,9000000000000000000,5,0\n"
	          "0,0,1,1,1,100000,9000000000000000000,5,0\n" TC_REP1,
	          "threads.csv:4: start_ns = '2000000': before end_ns 9000000000000000000 of the "
	          "sample before it (line 2), allowed: samples one after another");
}

/* run.json's team and sample_windows, which the rows are held to, are what the harness writes;
 * so is the point's placement. */
LAB_TEST(team_and_windows_checked)
{
	tc_expect("complete", ", \"sample_windows\": 0", TC_REP0, "\"sample_windows\": allowed");
	tc_expect("complete", ", \"sample_windows\": 1.5", TC_REP0, "\"sample_windows\": allowed");
	tc_expect("complete", ", \"team\": \"lab\"", TC_REP0, "\"team\": allowed: threads, openmp");
	/* and its placement, matched against samples.csv's params (a number skipped that check) */
	tc_expect("complete", ", \"placement\": -1", TC_REP0,
	          "\"placement\": allowed: a placement's text (not empty, no ';')");
	tc_expect("complete", ", \"placement\": {}", TC_REP0, "\"placement\": allowed");
}

/* A thread of the point's team, once per sample; each sample's rows together. */
LAB_TEST(threads_of_the_team_once)
{
	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,0,0,100000,1100000,5,0\n0,0,5,1,1,300000,900000,5,0\n",
	          "threads.csv:3: thread = '5': allowed: 0 .. 1 (point 0's team)");
	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,0,0,100000,1100000,5,0\n0,0,-1,1,1,300000,900000,5,0\n",
	          "threads.csv:3: thread = '-1': allowed: a whole number >= 0");
	tc_expect("complete", ONE_WINDOW ", \"team\": \"openmp\"", TC_REP0,
	          "threads.csv:3: thread = '1': allowed: 0 .. 0 (point 0's one worker row: an "
	          "OpenMP team)");
	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,0,0,100000,1100000,5,0\n0,0,0,1,1,300000,900000,5,0\n",
	          "threads.csv:3: thread 0 of point 0 rep 0 again (first at line 2), allowed: each "
	          "thread once per sample");
	tc_expect("complete", ONE_WINDOW, TC_REP0 TC_REP1 "0,0,0,0,0,3100000,3500000,5,0\n",
	          "threads.csv:6: point 0 rep 0 again (first at line 2)");
	tc_expect("complete", ONE_WINDOW, "0,0,0,70000,0,100000,1100000,5,0\n",
	          "threads.csv:2: cpu_start, cpu_end = '70000', '0': allowed: CPU numbers 0 .. "
	          "65535, or -1");
	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,-1,-1,100000,1100000,5,0\n0,0,1,1,1,300000,900000,5,0\n", NULL);
}

/* Every thread of the team, once per sample: lab writes a row for each worker of each sample
 * it records (threads 0 .. threads - 1, the harness worker alone for OpenMP). A team of fewer
 * rows is refused, but as the last rows of a run that did not complete (cut while writing
 * them), where it is dropped with a warning; a sample without any row is the cut end too. */
LAB_TEST(whole_team_per_sample)
{
	char msg[1024], text[1024];

	tc_expect(
	    "complete", ONE_WINDOW, "0,0,0,0,0,100000,1100000,5,0\n" TC_REP1,
	    "threads.csv:2: point 0 rep 0: 1 of its 2 threads (thread 1 has no row), allowed: "
	    "every thread of its team");
	tc_expect("complete", ONE_WINDOW, "0,0,1,1,1,300000,1300000,5,0\n" TC_REP1,
	          "threads.csv:2: point 0 rep 0: 1 of its 2 threads (thread 0 has no row)");
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,1,1,1,2000000,3000000,5,0\n",
	          "threads.csv:4: point 0 rep 1: 1 of its 2 threads (thread 0 has no row)");
	/* not at the end of a cut run's file: the writer writes a sample's rows together */
	tc_expect("running", ONE_WINDOW, "0,0,0,0,0,100000,1100000,5,0\n" TC_REP1,
	          "threads.csv:2: point 0 rep 0: 1 of its 2 threads (thread 1 has no row)");
	snprintf(text, sizeof(text), "%s%s0,1,0,0,0,2000000,3000000,5,0\n", TC_HEADER, TC_REP0);
	CHECK_EQ_I64(tc_load("running", ONE_WINDOW, text, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "threads.csv:4: point 0 rep 1: 1 of its 2 threads (the run was cut "
	                  "while writing them): ignored") != NULL);
	/* the OpenMP point's one worker row is its whole team */
	tc_expect("complete", ONE_WINDOW ", \"team\": \"openmp\"",
	          "0,0,0,0,0,100000,1100000,10,0\n0,1,0,0,0,2000000,3000000,10,0\n", NULL);
	/* and so may be one row where run.json has no record of the point to say its team */
	tc_file("run.json", "{\"schema\": \"lab.run/2\"}\n");
	tc_file("samples.csv", TC_SAMPLES);
	snprintf(text, sizeof(text),
	         "%s0,0,0,0,0,100000,1100000,5,0\n0,1,0,0,0,2000000,3000000,5,"
	         "0\n",
	         TC_HEADER);
	tc_file("threads.csv", text);
	struct lab_an_data d;
	struct lab_err err = {0};
	char dir[2048];
	snprintf(dir, sizeof(dir), "%s/R", testlib_tmpdir());
	CHECK_EQ_I64(lab_an_data_load_dir(&d, dir, &err), 0);
	lab_an_data_free(&d);
}

/* Rows of a sample samples.csv lacks: refused, but at the end of a run that did not complete
 * (the writer buffers the two files apart, so threads.csv may get ahead when the run is
 * killed), where they are dropped with a warning. */
LAB_TEST(rows_without_a_sample)
{
	char msg[1024], text[1024];

	tc_expect("complete", ONE_WINDOW, TC_REP0 "7,0,0,0,0,2000000,3000000,5,0\n",
	          "threads.csv:4: point 7: not a point of run.json or samples.csv");
	tc_expect("running", ONE_WINDOW, TC_REP0 "7,0,0,0,0,2000000,3000000,5,0\n",
	          "threads.csv:4: point 7: not a point of run.json or samples.csv");
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,5,0,0,0,2000000,3000000,5,0\n",
	          "threads.csv:4: point 0 rep 5 has no row in samples.csv, allowed: the threads of "
	          "its samples");
	tc_expect("running", ONE_WINDOW, "0,5,0,0,0,10,30,5,0\n" TC_REP0,
	          "threads.csv:2: point 0 rep 5 has no row in samples.csv, yet samples follow "
	          "(line 3)");
	snprintf(text, sizeof(text),
	         "%s%s0,5,0,0,0,2000000,3000000,5,0\n0,5,1,1,1,2000000,3000000,5,0\n", TC_HEADER,
	         TC_REP0);
	CHECK_EQ_I64(tc_load("running", ONE_WINDOW, text, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "threads.csv:4: 2 rows from here on have no row in samples.csv") != NULL);
	/* such rows still name a thread of the team once */
	tc_expect("running", ONE_WINDOW, TC_REP0 "0,5,3,0,0,2000000,3000000,5,0\n",
	          "threads.csv:4: thread = '3': allowed: 0 .. 1");
}

/* A thread that ran off the CPU run.json planned for it is said once, with the first such row
 * and their count (cpu_start 0 for both threads of a c2c pair left its matrix unchanged without
 * a word); CPUs not known (-1) and rows on their CPUs are not. */
LAB_TEST(threads_off_their_cpus_said)
{
	char text[1024], msg[1024];

	snprintf(text, sizeof(text), "%s%s%s", TC_HEADER, TC_REP0, TC_REP1);
	CHECK_EQ_I64(tc_load("complete", ", \"cpus\": [0, 1]", text, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "another CPU") == NULL);
	snprintf(text, sizeof(text), "%s%s%s", TC_HEADER, TC_REP0,
	         "0,1,0,-1,-1,2000000,3000000,5,0\n0,1,1,0,0,2000000,2500000,5,\n");
	CHECK_EQ_I64(tc_load("complete", ", \"cpus\": [0, 1]", text, msg, sizeof(msg)), 0);
	if (!strstr(msg, "threads.csv:5: 1 thread row ran on another CPU than run.json planned "
	                 "for the thread (first: point 0 thread 1 on CPU 0, planned 1)"))
		TL__FAIL("warnings: %s", msg);
}

/* The header's columns, in every row: a short row was passed over silently, an extra field
 * read as nothing. A cut last line is dropped with a warning, as in samples.csv. */
LAB_TEST(columns_strict)
{
	char msg[1024], text[1024];

	tc_expect("complete", ONE_WINDOW,
	          "0,0,0,0,0,100000,1100000,5\n0,0,1,1,1,300000,900000,5,0\n",
	          "threads.csv:2: 8 fields, allowed: 9 (the header's columns)");
	tc_expect("complete", ONE_WINDOW, "0,0,0,0,0,100000,1100000,5,0,7\n",
	          "threads.csv:2: 10 fields, allowed: 9");
	snprintf(text, sizeof(text), "point,rep,thr,cpu_start,cpu_end,start_ns,end_ns,work\n%s",
	         TC_REP0);
	CHECK_EQ_I64(tc_load("complete", ONE_WINDOW, text, msg, sizeof(msg)), -LAB_EDATA);
	CHECK(strstr(msg, "threads.csv:1: expected column 3 to be 'thread'") != NULL);
	snprintf(text, sizeof(text), "%s%s0,1,0,0,0,20", TC_HEADER, TC_REP0);
	CHECK_EQ_I64(tc_load("running", ONE_WINDOW, text, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "threads.csv:4: incomplete last line ignored") != NULL);
	/* a run that completed wrote every line whole */
	CHECK_EQ_I64(tc_load("complete", ONE_WINDOW, text, msg, sizeof(msg)), -LAB_EDATA);
	CHECK(strstr(msg, "threads.csv:4: the last line has no newline") != NULL);
}

/* The columns after the fixed ones are named as samples.csv's: each once, a plain name, none
 * of the fixed columns' (runq_wait twice was read from its first column alone, an unnamed or a
 * second point column taken without a word). A column lab does not write is let be, as an
 * unknown metric column of samples.csv. */
LAB_TEST(header_names_checked)
{
	static const char *const bad[][2] = {
	    {",runq_wait",
	     "threads.csv:1: column 'runq_wait' appears twice, allowed: each name once"},
	    {",point", "threads.csv:1: column 10 = 'point': allowed: a metric name of 1 .. 64"},
	    {",", "threads.csv:1: column 10 = '': allowed: a metric name"},
	    {",a b", "threads.csv:1: column 10 = 'a b': allowed: a metric name"},
	};
	char msg[1024], text[1024];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s,%s%s\n0,0,0,0,0,100000,1100000,5,0,7\n",
		         LAB_THREADS_COLUMNS, LAB_COL_RUNQ_WAIT, bad[i][0]);
		if (tc_load("complete", ONE_WINDOW, text, msg, sizeof(msg)) != -LAB_EDATA ||
		    !strstr(msg, bad[i][1]))
			TL__FAIL("header '...%s': '%s', wanted '%s'", bad[i][0], msg, bad[i][1]);
	}
	CHECK_EQ_I64(tc_load("complete", ONE_WINDOW,
	                     LAB_THREADS_COLUMNS "," LAB_COL_RUNQ_WAIT ",foo\n"
	                                         "0,0,0,0,0,100000,1100000,5,0,7\n"
	                                         "0,0,1,1,1,300000,900000,5,0,7\n",
	                     msg, sizeof(msg)),
	             0);
}

/* Samples one after another: a run takes them in turn. */
LAB_TEST(samples_in_turn)
{
	tc_expect("complete", ONE_WINDOW, TC_REP0 "0,1,0,0,0,500000,1500000,5,0\n",
	          "threads.csv:4: start_ns = '500000': before end_ns 1100000 of the sample before "
	          "it (line 2)");
}

/* The command: exit 2, one line naming FILE:LINE, nothing written into DIR. */
LAB_TEST(cli_refuses_with_exit_2)
{
	char *out = NULL, *err = NULL;

	tc_file("samples.csv", TC_SAMPLES);
	tc_run("complete", ONE_WINDOW);
	tc_file("threads.csv", TC_HEADER TC_REP0 "0,1,0,0,0,2000000,9000000000000000000,5,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	CHECK(strstr(err, "R/threads.csv:4: point 0 rep 1: its threads span") != NULL);
	CHECK(!clitest_exists("R/summary.csv"));
	CHECK(!clitest_exists("R/analysis.json"));
	free(out);
	free(err);
}
