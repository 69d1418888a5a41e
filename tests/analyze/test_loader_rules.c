/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the loader holds a results directory to (red-team round on the analyzer's loader): a
 * key twice in a run.json object, a point's "cpus" that are no OS CPUs of its threads, more
 * params than a kernel has, point facts and a cache table the views would print or label
 * wrongly, a precision that prints as inf, values whose spread overflows a double. Each is a
 * data error with FILE:LINE (exit 2, nothing written) or, where the value is in range, a number
 * printed finite and said to have no interval. Each case writes a small crafted directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/data.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define LR_HEADER                                                                                  \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged\n"
#define LR_ROWS                                                                                    \
	LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,op,0.01,0\n"                             \
	          "e,0,noop,placement=compact,2,1,1010,10,op,0.01,0\n"

/* Writes tmpdir/R/name. */
static void lr_file(const char *name, const char *text)
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

/* Loads R with this samples.csv and run.json; the loader's code, its message in msg. */
static int lr_load(const char *samples, const char *run, char *msg, size_t len)
{
	struct lab_an_data d;
	struct lab_err err = {0};
	char dir[2048];
	int rc;

	lr_file("samples.csv", samples);
	lr_file("run.json", run);
	snprintf(dir, sizeof(dir), "%s/R", testlib_tmpdir());
	rc = lab_an_data_load_dir(&d, dir, &err);
	snprintf(msg, len, "%s", rc ? err.msg : "");
	lab_an_data_free(&d);
	return rc;
}

/* run.json of one experiment "e" whose points are points, after top (members and commas). */
static char *lr_run(const char *top, const char *points)
{
	char *run = NULL;

	if (asprintf(&run,
	             "{\"schema\": \"lab.run/1\", \"status\": \"complete\", %s\n\"experiments\": "
	             "[{\"name\": \"e\", \"kernel\": \"noop\", \"points\": [\n%s]}]}\n",
	             top, points) < 0)
		testlib_fail();
	return run;
}

static void lr_expect(int ok, const char *top, const char *points, const char *want)
{
	char *run = lr_run(top, points), msg[1024];
	int rc = lr_load(LR_ROWS, run, msg, sizeof(msg));

	if (ok && rc)
		TL__FAIL("refused %s%s: %s", top, points, msg);
	else if (!ok && rc != -LAB_EDATA)
		TL__FAIL("accepted %s%s (code %d)", top, points, rc);
	else if (!ok && !strstr(msg, want))
		TL__FAIL("%s%s: message '%s' lacks '%s'", top, points, msg, want);
	free(run);
}

#define LR_PT "{\"point\": 0, \"threads\": 2, \"params\": {}, \"placement\": \"compact\", "

/* A key twice in one object was read as its first value (Python's json takes the last): a
 * run.json with "experiments" twice analyzed other experiments than other tools see. Exit 2,
 * nothing written. */
LAB_TEST(repeated_key_is_a_data_error)
{
	char *out = NULL, *err = NULL;

	lr_expect(0, "\"status\": \"x\",", LR_PT "\"status\": \"ok\"}",
	          "R/run.json:1: key \"status\" again in one object (first at line 1), allowed: "
	          "each key once");
	lr_expect(0, "", LR_PT "\n\"threads\": 1}", "R/run.json:4: key \"threads\" again");
	lr_expect(1, "",
	          "{\"point\": 0, \"threads\": 2, \"placement\": \"compact\", \"status\": "
	          "\"ok\", \"params\": {\"status\": \"x\"}}",
	          NULL);
	lr_file("samples.csv", LR_ROWS);
	lr_file("run.json", "{\"experiments\": [],\n\"experiments\": [{\"name\": \"e\"}]}\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	CHECK(err && strstr(err, "R/run.json:2: key \"experiments\" again") != NULL);
	CHECK(!clitest_exists("R/summary.csv") && !clitest_exists("R/analysis.json"));
	free(out);
	free(err);
}
