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
#include <unistd.h>

#include "analyze/data.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define LR_HEADER                                                                                  \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged\n"
#define LR_HEADER_RUN                                                                              \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged,run\n"
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
	             "[{\"name\": \"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": "
	             "[\n%s]}]}\n",
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

/* Case i: R with these rows and run (freed here) loads when want is NULL, else is refused
 * with a message holding want. */
static void lr_case(size_t i, const char *rows, char *run, const char *want)
{
	char msg[1024];
	int rc = lr_load(rows, run, msg, sizeof(msg));

	if (!want && rc)
		TL__FAIL("case %zu refused: %s", i, msg);
	else if (want && (rc != -LAB_EDATA || !strstr(msg, want)))
		TL__FAIL("case %zu: '%s' lacks '%s'", i, msg, want);
	free(run);
}

#define LR_PT0                                                                                     \
	"{\"point\": 0, \"threads\": 2, \"placement\": \"compact\", "                              \
	"\"status\": \"ok\", \"reps\": 2, \"params\": {%s}}"

/* lr_case with run.json of experiment e's point 0 (LR_PT0) whose params are params. */
static void lr_point_case(size_t i, const char *rows, const char *params, const char *want)
{
	char point[512], *run;

	snprintf(point, sizeof(point), LR_PT0, params);
	if (asprintf(&run,
	             "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n"
	             "\"experiments\": [{\"name\": \"e\", \"kernel\": \"noop\", "
	             "\"work_unit\": \"op\", \"points\": [\n%s]}]}\n",
	             point) < 0)
		testlib_fail();
	lr_case(i, rows, run, want);
}

/* A point of the 2 rows of LR_ROWS, as lab run writes it but for its status and what follows. */
#define LR_PT                                                                                      \
	"{\"point\": 0, \"threads\": 2, \"params\": {}, \"placement\": \"compact\", \"reps\": 2, "

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
	/* an id past 2^53 names its bound ("a whole number >= 0" read wrong for 1e308) */
	lr_expect(0, "",
	          "{\"point\": 1e308, \"threads\": 2, \"params\": {}, \"placement\": "
	          "\"compact\", \"reps\": 2, \"status\": \"ok\"}",
	          "\"point\": allowed: a whole number 0 .. 9007199254740992");
	lr_case(0, LR_HEADER "e,0,noop,placement=compact;status=x,2,0,1000,10,op,0.01,0\n",
	        lr_run("", "{\"point\": 0, \"threads\": 2, \"placement\": \"compact\", \"status\": "
	                   "\"ok\", \"reps\": 1, \"params\": {\"status\": \"x\"}}"),
	        NULL);
	lr_file("samples.csv", LR_ROWS);
	lr_file("run.json", "{\"experiments\": [],\n\"experiments\": [{\"name\": \"e\"}]}\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	CHECK(err && strstr(err, "R/run.json:2: key \"experiments\" again") != NULL);
	CHECK(!clitest_exists("R/summary.csv") && !clitest_exists("R/analysis.json"));
	free(out);
	free(err);
}

/* A point's "cpus" are the OS CPUs its threads ran on: the c2c matrix printed cpu_b =
 * -2147483648 for 4294967297, a CPU paired with itself for [3, 3], 0 and 1 for [0.5, 1.5];
 * the placement warning a 309-digit CPU for 1e308 and 100,000 CPUs for a 2-thread point. */
LAB_TEST(cpus_are_os_cpus_of_the_threads)
{
	static const char *const bad[][2] = {
	    {"\"cpus\": [0,\n4294967297]}",
	     "R/run.json:4: \"cpus\" item 2: allowed: a whole number "
	     "0 .. 65535"},
	    {"\"cpus\": [1e308, -1e308]}", "run.json:3: \"cpus\" item 1: allowed"},
	    {"\"cpus\": [0.5, 1.5]}", "\"cpus\" item 1: allowed"},
	    {"\"cpus\": [0, 65536]}", "\"cpus\" item 2: allowed"},
	    {"\"cpus\": [3,\n3]}",
	     "run.json:4: \"cpus\" lists CPU 3 again, allowed: each CPU once"},
	    {"\"cpus\": [0, 1, 2]}",
	     "\"cpus\": allowed: an array of one CPU per thread (2), or []"},
	    {"\"cpus\": [0]}", "\"cpus\": allowed: an array of one CPU per thread"},
	    {"\"cpus\": \"0,1\"}", "\"cpus\": allowed"},
	    {"\"cpus\": [0, \"1\"]}", "\"cpus\" item 2: allowed"},
	    {"\"cpus\": [[0], 1]}", "\"cpus\" item 1: allowed"},
	    /* none is for a point that never ran: one that ran had its CPUs */
	    {"\"cpus\": [], \"status\": \"ok\"}", "\"cpus\": allowed: an array of one CPU per"},
	    {"\"cpus\": []}", "\"cpus\": allowed: an array of one CPU per thread (2), or []"},
	};
	static const char *const good[] = {"\"cpus\": [0, 1], \"status\": \"ok\"}",
	                                   "\"cpus\": [65535, 7], \"status\": \"ok\"}",
	                                   "\"x\": 0, \"status\": \"ok\"}"};
	char pt[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(pt, sizeof(pt), LR_PT "%s", bad[i][0]);
		lr_expect(0, "", pt, bad[i][1]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(pt, sizeof(pt), LR_PT "%s", good[i]);
		lr_expect(1, "", pt, NULL);
	}
	/* skipped before it had CPUs: no CPUs, and no samples (point 0 has rows) */
	lr_expect(1, "",
	          LR_PT "\"status\": \"ok\"}, {\"point\": 1, \"threads\": 1, \"params\": {}, "
	                "\"placement\": \"compact\", \"cpus\": [], \"status\": \"skipped\", "
	                "\"reps\": 0}",
	          NULL);
	/* not reached by a cut run (the analysis of a Ctrl-C'd run of a node:1 point on one node
	 * was refused), or still to come in a run going on: no CPUs either */
	static const char *const idle[] = {"not_run", "planned", "running"};
	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++) {
		snprintf(pt, sizeof(pt),
		         LR_PT "\"status\": \"ok\"}, {\"point\": 1, \"threads\": 1, "
		               "\"params\": {}, \"placement\": \"compact\", \"cpus\": [], "
		               "\"status\": \"%s\", \"reps\": 0}",
		         idle[i]);
		lr_expect(1, "", pt, NULL);
	}
	/* a point to come whose rows were written: it ran, on CPUs (review) */
	lr_expect(0, "", LR_PT "\"cpus\": [], \"status\": \"running\"}",
	          "point 0 has no \"cpus\" but samples.csv has 2 samples of it (allowed: a CPU "
	          "per thread for a point that ran)");
	lr_expect(0, "", LR_PT "\"cpus\": [], \"status\": \"skipped\"}",
	          "point 0 is \"skipped\" but samples.csv has 2 samples of it (allowed: a skipped "
	          "point has none)");
}

/* One point with 50,000 params took the placement check 54 s: a point may have at most 256
 * (in run.json and in samples.csv), and more is a data error. */
LAB_TEST(params_per_point_capped)
{
	size_t cap = 64 * 1024, used;
	char *pt = malloc(cap), *rows = malloc(cap), *run, msg[1024];

	REQUIRE(pt && rows);
	for (int n = 256; n <= 257; n++) {
		/* both files: placement and k1 .. k(n-1), n items */
		used =
		    (size_t)snprintf(pt, cap,
		                     "{\"point\": 0, \"threads\": 2, \"status\": \"ok\", \"reps\": "
		                     "1,\n\"params\": {\"placement\": \"compact\"");
		for (int i = 1; i < n; i++)
			used += (size_t)snprintf(pt + used, cap - used, ", \"k%d\": \"v\"", i);
		snprintf(pt + used, cap - used, "}}");
		used = (size_t)snprintf(rows, cap, LR_HEADER "e,0,noop,\"placement=compact");
		for (int i = 1; i < n; i++)
			used += (size_t)snprintf(rows + used, cap - used, ";k%d=v", i);
		snprintf(rows + used, cap - used, "\",2,0,1000,10,op,0.01,0\n");
		run = lr_run("", pt);
		CHECK_EQ_I64(lr_load(rows, run, msg, sizeof(msg)), n == 256 ? 0 : -LAB_EDATA);
		free(run);
		CHECK(n == 256 ||
		      strstr(msg, "R/samples.csv:2: params = 'placement=compact;k1=v;"));
		CHECK(n == 256 ||
		      strstr(msg, "allowed: key=value items separated by ';' (none empty or "
		                  "without '=', at most 256)"));
		if (n == 257)
			lr_expect(0, "", pt,
			          "R/run.json:4: \"params\" holds 257 items, allowed: at most 256");
	}
	free(pt);
	free(rows);
}

/* The facts the numa view prints: pages_per_node [1e308, -1, 0.5] printed "1e308/-1/0" and
 * pages_absent = -3 was taken as it was. */
LAB_TEST(point_facts_held_to_their_kind)
{
	static const char *const bad[][2] = {
	    {"{\"pages_per_node\": [1e308, 0]}", "point fact 'pages_per_node': allowed: an array "
	                                         "of at most 64 page counts"},
	    {"{\"pages_per_node\": [\n-1]}", "run.json:4: point fact 'pages_per_node'"},
	    {"{\"pages_per_node\": [0.5]}", "point fact 'pages_per_node'"},
	    {"{\"pages_absent\": -3}", "point fact 'pages_absent': allowed: a page count"},
	    {"{\"cpu_node\": 4e9}", "point fact 'cpu_node': allowed: a NUMA node number"},
	    {"{\"placement_ok\": 1}", "point fact 'placement_ok': allowed: true or false"},
	    {"{\"own\": {\"x\": 1}}", "point fact 'own': allowed: a number, boolean"},
	    /* more threads on the nodes than the point has (2) */
	    {"{\"threads_per_node\": [1e10, 1]}",
	     "point fact 'threads_per_node' counts 10000000001 threads, allowed: at most the "
	     "point's 2"},
	    {"{\"threads_per_node\": [2, 1]}", "counts 3 threads, allowed: at most the point's 2"},
	    /* peak's: the add-pipes verdict printed a gain of 200 digits from mix_add 1e200 */
	    {"{\"mix_add\": 1e200}", "point fact 'mix_add': allowed: a count of chains 0 .. 256"},
	    {"{\"mix_fma\": 2.5}", "point fact 'mix_fma': allowed: a count of chains"},
	    {"{\"fma_fused\": 1}", "point fact 'fma_fused': allowed: true or false"},
	    /* perf c2c's: a line count of -5, 1.5 or 1e300 was printed as it was */
	    {"{\"perf_c2c_lines\": -5}", "point fact 'perf_c2c_lines': allowed: a count of cache "
	                                 "lines"},
	    {"{\"perf_c2c_lines\": 1.5}", "point fact 'perf_c2c_lines'"},
	    {"{\"perf_c2c_lines\": 1e300}", "point fact 'perf_c2c_lines'"},
	    {"{\"perf_c2c\": 1}", "point fact 'perf_c2c': allowed: a string"},
	};
	char pt[512], *big;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(pt, sizeof(pt), LR_PT "\"point_facts\": %s}", bad[i][0]);
		lr_expect(0, "", pt, bad[i][1]);
	}
	/* the hottest lines in more than the harness's 2048 bytes (100 000 of them made 1.6
	 * million lines of text); 2047 bytes pass */
	for (size_t len = 2047; len <= 2048; len++) {
		REQUIRE((big = malloc(len + 256)) != NULL);
		int k = snprintf(
		    big, 256, LR_PT "\"status\": \"ok\", \"point_facts\": {\"perf_c2c_top\": \"");
		memset(big + k, 'x', len);
		snprintf(big + k + len, 64, "\"}}");
		lr_expect(len == 2047, "", big,
		          len == 2047 ? NULL
		                      : "point fact 'perf_c2c_top': allowed: a string of at most "
		                        "2047 bytes");
		free(big);
	}
	lr_expect(1, "",
	          LR_PT "\"status\": \"ok\", \"point_facts\": {\"pages_per_node\": [0, 512], "
	                "\"pages_absent\": 0, "
	                "\"cpu_node\": -1, \"mem_node\": 1, \"placement_ok\": true, "
	                "\"placement_note\": \"x\", \"init\": \"serial\", \"own\": [1.5, -2], "
	                "\"threads_per_node\": [1, 1], \"fma_fused\": false, \"mix_fma\": 10, "
	                "\"mix_add\": 2}}",
	          NULL);
}

/* The roofline names its bandwidth ceilings by the cache a size fits in: a table of caches of
 * size 0 and level 1e308 labelled every ceiling DRAM. */
LAB_TEST(cache_table_checked)
{
	static const char *const bad[][2] = {
	    {"[{\"level\": 1, \"size\": 0}]", "run.json:1: cache \"size\": allowed: a whole "
	                                      "number of bytes 1 .. 9007199254740992"},
	    /* 2^60 is a whole number of bytes > 0: the message says the range */
	    {"[{\"level\": 3, \"size\": 1152921504606846976}]",
	     "cache \"size\": allowed: a whole number of bytes 1 .. 9007199254740992"},
	    {"[{\"level\": 1e308, \"size\": 32768}]", "cache \"level\": allowed: a whole number "
	                                              "1 .. 5"},
	    {"[{\"level\": 1, \"size\": -5}]", "cache \"size\": allowed"},
	    {"[{\"level\": 2, \"size\": 1.5}]", "cache \"size\": allowed"},
	    {"[{\"level\": 1, \"size\": 32768}, {\"level\": 1, \"size\": 65536}]",
	     "cache level 1 again, allowed: each level once"},
	    {"[{\"size\": 32768}]", "cache \"level\": allowed"},
	    {"[{\"level\": 1, \"size\": 32768, \"linesize\": -64}]", "\"linesize\""},
	    {"[3]", "a cache of host.topology.caches: allowed: an object"},
	    {"{}", "host.topology.caches: allowed: an array"},
	};
	char top[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(top, sizeof(top), "\"host\": {\"topology\": {\"caches\": %s}},",
		         bad[i][0]);
		lr_expect(0, top, LR_PT "\"status\": \"ok\"}", bad[i][1]);
	}
	lr_expect(1,
	          "\"host\": {\"topology\": {\"caches\": [{\"level\": 1, \"size\": 32768, "
	          "\"linesize\": 64, \"pus_sharing\": 1}, {\"level\": 5, \"size\": 1e9}]}},",
	          LR_PT "\"status\": \"ok\"}", NULL);
}

/* text with the first from replaced by to, in fresh memory (the test fails without from).
 * noinline: inlined twice into one test, gcc 12 -O3 took one call's text for the other's out
 * (-Wdangling-pointer). */
__attribute__((noinline)) static char *lr_replace(char *text, const char *from, const char *to)
{
	char *at = strstr(text, from), *out = NULL;

	if (!at || asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) < 0)
		testlib_fail();
	free(text);
	return out;
}

/* Values in range whose spread overflows a double: a cs_achieved_ns mean of 5.7e307 was called
 * "below resolution" (now "not clearly above 0"; its interval [-inf, inf] clamped at 0; such a
 * section is now refused, it does not fit in its sample), a drift of 1e300 % printed 301 digits.
 * Now: no interval, said so (max_min_ratio, which has no upper end); the drift in %.3g. */
LAB_TEST(overflowing_spread_has_no_interval)
{
	char *csv, *at, *out = NULL, *err = NULL, path[2048];
	FILE *f;

	clitest_copy("results-locks-drift");
	REQUIRE((csv = clitest_read("results-locks-drift/samples.csv")));
	csv = lr_replace(csv, "2,0,925925926,1000000,acquire,0.01,0,1,1000,1,855,3,20\n",
	                 "2,0,925925926,1000000,acquire,0.01,0,1,1000,1.7e308,855,3,1e300\n");
	csv = lr_replace(csv, "2,1,917431193,1000000,acquire,0.01,0,1,1000,1,855,3,20\n",
	                 "2,1,917431193,1000000,acquire,0.01,0,1,1000,1,855,3,1e300\n");
	csv = lr_replace(csv, "2,2,909090909,1000000,acquire,0.01,0,1,1000,1,855,3,20\n",
	                 "2,2,909090909,1000000,acquire,0.01,0,1,1000,1,855,3,1e300\n");
	snprintf(path, sizeof(path), "%s/results-locks-drift/samples.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs(csv, f);
	fclose(f);
	free(csv);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-locks-drift --no-plots", &out, &err), 0);
	REQUIRE(out && (at = strstr(out, "\ntas ")));
	*strchrnul(at + 1, '\n') = '\0';
	CHECK(strstr(at, "no interval: the samples' spread overflows a double") != NULL);
	CHECK(strstr(at, "below resolution") == NULL && strstr(at, "not clearly above 0") == NULL);
	CHECK(strstr(at, "delay calibration +1e+300 % off") != NULL);
	CHECK(strstr(at, "inf") == NULL && strstr(at, "nan") == NULL);
	free(out);
	free(err);
}

/* samples.csv and run.json describe the same points: rows relabelled (other params, threads,
 * kernel or unit of work than run.json's point), added (more samples than a complete run
 * counted: a narrower interval), of a point run.json's experiment does not list, or naming a
 * key twice were analyzed as if measured. Each is a data error naming where. */
LAB_TEST(samples_agree_with_run_json)
{
	static const struct {
		const char *rows, *params, *want;
	} c[] = {
	    {LR_HEADER "e,0,noop,lock=tas;placement=compact,2,0,1000,10,op,0.01,0\n",
	     "\"lock\": \"tas\"", NULL},
	    /* a lab.run/1 file lists every param in both files: a key left out of one hid a
	       relabelled value */
	    {LR_ROWS, "\"lock\": \"tas\"",
	     "R/run.json:3: point 0 of [e]: param 'lock' is not in samples.csv:2's params, "
	     "allowed: the same keys in both files"},
	    {LR_HEADER "e,0,noop,lock=ticket;placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "R/run.json:3: point 0 of [e]: param 'lock' of samples.csv:2 is not in its "
	     "\"params\", allowed: the same keys in both files"},
	    {LR_HEADER "e,0,noop,lock=ticket;placement=compact,2,0,1000,10,op,0.01,0\n",
	     "\"lock\": \"tas\"",
	     "R/run.json:3: point 0 of [e]: its threads and params differ from samples.csv:2's "
	     "(threads = 2, params 'lock=ticket;placement=compact'), allowed: the same point in "
	     "both files"},
	    {LR_HEADER "e,0,noop,placement=scatter,2,0,1000,10,op,0.01,0\n", "",
	     "its threads and params differ from samples.csv:2's"},
	    {LR_HEADER "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0\n", "",
	     "its threads and params differ from samples.csv:2's (threads = 1"},
	    {LR_HEADER "e,0,lock,placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "R/run.json:3: point 0 of [e]: its kernel differ"},
	    {LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,byte,0.01,0\n", "",
	     "R/run.json:3: point 0 of [e]: its unit of work differ"},
	    {LR_ROWS "e,0,noop,placement=compact,2,2,1000,10,op,0.01,0\n", "",
	     "R/run.json:3: point 0 of [e]: samples.csv has 3 samples of it, run.json counts 2, "
	     "allowed: at most that many"},
	    /* as many rows as reps, one of them past reps - 1 (red team): a sample run.json
	       never counted */
	    {LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,op,0.01,0\n"
	               "e,0,noop,placement=compact,2,7,1000,10,op,0.01,0\n",
	     "",
	     "R/run.json:3: point 0 of [e]: samples.csv has its rep 7, run.json counts 2 reps, "
	     "allowed: reps 0 .. reps - 1"},
	    /* a foreign load below 0 is no load anyone measured */
	    {LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,op,-1,0\n", "",
	     "R/samples.csv:2: foreign_cpu = '-1': allowed: a finite number >= 0 or empty"},
	    {LR_ROWS "e,7,noop,placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "R/samples.csv:4: point 7 of [e] is not in run.json, allowed: the points run.json "
	     "lists"},
	    {LR_HEADER "e,0,noop,lock=mcs;lock=clh;placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "R/samples.csv:2: params = 'lock=mcs;lock=clh;placement=compact': key 'lock' twice, "
	     "allowed: each key once"},
	    /* c2c's CPU pair: a 32-bit wrap read 4294967297-1 as the pair 1-1 */
	    {LR_HEADER "e,0,noop,pair=4294967297-1;placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "R/samples.csv:2: params pair = '4294967297-1': allowed: two different CPU numbers "
	     "0 .. 65535 as A-B"},
	    {LR_HEADER "e,0,noop,pair=3-3;placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "params pair = '3-3': allowed"},
	    {LR_HEADER "e,0,noop,pair=0-70000;placement=compact,2,0,1000,10,op,0.01,0\n", "",
	     "params pair = '0-70000': allowed"},
	    {LR_HEADER "e,0,noop,pair=0-1;placement=compact,2,0,1000,10,op,0.01,0\n",
	     "\"pair\": \"0-1\"", NULL},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		lr_point_case(i, c[i].rows, c[i].params, c[i].want);
}

/* A size param is a size: 1e308 drew a ceiling "DRAM 1e308" and a ladder row of 309 digits,
 * banana took the row away without a word. */
LAB_TEST(size_params_are_sizes)
{
	static const struct {
		const char *rows, *params, *want;
	} c[] = {
	    {LR_HEADER "e,0,noop,placement=compact;size=1e308,2,0,1000,10,op,0.01,0\n", "",
	     "R/samples.csv:2: params size = '1e308': allowed: a size, a whole number of bytes 0 "
	     ".. 2^40"},
	    {LR_HEADER "e,0,noop,placement=compact;size=banana,2,0,1000,10,op,0.01,0\n", "",
	     "params size = 'banana': allowed: a size"},
	    {LR_HEADER "e,0,noop,placement=compact;size=-5,2,0,1000,10,op,0.01,0\n", "",
	     "params size = '-5': allowed: a size"},
	    {LR_HEADER "e,0,noop,placement=compact;size=16K16K,2,0,1000,10,op,0.01,0\n", "",
	     "params size = '16K16K': allowed: a size"},
	    {LR_HEADER "e,0,noop,placement=compact;stream_size=1.5,2,0,1000,10,op,0.01,0\n", "",
	     "params stream_size = '1.5': allowed: a size"},
	    {LR_HEADER "e,0,noop,placement=compact;size=2048G,2,0,1000,10,op,0.01,0\n", "",
	     "params size = '2048G': allowed: a size"},
	    /* a valid start cut from a longer value is no size */
	    {LR_HEADER "e,0,noop,placement=compact;size=0000000000000000000000000000000000000000"
	               "00000000000000000000001banana,2,0,1000,10,op,0.01,0\n",
	     "", "params size = '00000000000000000000000000000000000000000000000000000000000"},
	    {LR_HEADER "e,0,noop,placement=compact;size=1.5K,2,0,1000,10,op,0.01,0\n",
	     "\"size\": \"1.5K\"", NULL},
	    {LR_HEADER "e,0,noop,placement=compact;size=64MiB,2,0,1000,10,op,0.01,0\n",
	     "\"size\": \"64MiB\"", NULL},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		lr_point_case(i, c[i].rows, c[i].params, c[i].want);
}

/* A param value of 600 bytes, the same in both files, agrees: it was compared through a
 * 512-byte copy, cut, and refused as differing; one byte more on one side still differs. */
LAB_TEST(long_param_values_compared_whole)
{
	char v[601], *rows, *run, point[1024];

	memset(v, 'x', 600);
	v[600] = 0;
	for (int differ = 0; differ < 2; differ++) {
		if (asprintf(&rows,
		             LR_HEADER
		             "e,0,noop,lock=%s%s;placement=compact,2,0,1000,10,op,0.01,0\n",
		             v, differ ? "y" : "") < 0)
			testlib_fail();
		snprintf(point, sizeof(point), LR_PT0, "");
		char *at = strstr(point, "\"params\": {}");
		REQUIRE(at != NULL);
		if (asprintf(&run,
		             "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n"
		             "\"experiments\": [{\"name\": \"e\", \"kernel\": \"noop\", "
		             "\"work_unit\": \"op\", \"points\": [\n%.*s\"params\": {\"lock\": "
		             "\"%s\"}%s]}]}\n",
		             (int)(at - point), point, v, at + strlen("\"params\": {}")) < 0)
			testlib_fail();
		lr_case((size_t)differ, rows, run,
		        differ ? "its threads and params differ from samples.csv:2's" : NULL);
		free(rows);
	}
}

/* An experiment's work_scope, cost_kind, scaling and views are names the run side writes (a
 * work_scope of "everyone" or 5 was read as absent), and a point gets no more runs than
 * planned. */
LAB_TEST(run_json_enums_and_runs_checked)
{
	static const struct {
		const char *exp, *pt, *want;
	} c[] = {
	    {"\"work_scope\": \"everyone\",", "",
	     "R/run.json:2: \"work_scope\": allowed: team, shared, one"},
	    {"\"work_scope\": 5,", "", "\"work_scope\": allowed: team, shared, one"},
	    {"\"cost_kind\": \"speed\",", "", "\"cost_kind\": allowed: work, latency"},
	    /* scaling chooses strong or weak (Gustafson) series: "sideways" read as strong */
	    {"\"scaling\": \"sideways\",", "", "R/run.json:2: \"scaling\": allowed: strong, weak"},
	    {"\"scaling\": null,", "", "\"scaling\": allowed: strong, weak"},
	    {"\"scaling\": \"weak\",", "", NULL},
	    /* views: each view asks of every point whether its experiment declares it, so a list of
	     * 200,000 names made 500 points take 6.7 s; names of views, each once */
	    {"\"views\": [\"locks\", \"nosuch\"],", "",
	     "R/run.json:2: \"views\" item 2: not a view name, allowed: each of locks, c2c, "},
	    {"\"views\": [\"locks\", \"locks\"],", "", "\"views\" item 2: a view named twice"},
	    {"\"views\": [1],", "", "\"views\" item 1: not a view name"},
	    {"\"views\": \"locks\",", "", "\"views\": allowed: an array of view names (locks, "},
	    {"\"views\": [\"locks\", \"series\"],", "", NULL},
	    {"", ", \"runs\": 3, \"runs_planned\": 2",
	     "\"runs\": allowed: at most \"runs_planned\""},
	    {"\"work_scope\": \"shared\", \"cost_kind\": \"latency\",",
	     ", \"runs\": 2, \"runs_planned\": 2", NULL},
	    /* verify: an ok point's numbers were used whatever it said */
	    {"", ", \"verify\": \"fail\"",
	     "R/run.json:3: point 0 is \"ok\" but its verify is \"fail\": allowed: an ok point's "
	     "verify is pass or none"},
	    {"", ", \"verify\": \"banana\"",
	     "R/run.json:3: point 0: verify = 'banana': allowed: none, pass or fail"},
	    {"", ", \"verify\": 1", "verify = '(not a string)': allowed: none, pass or fail"},
	    {"", ", \"verify\": \"pass\"", NULL},
	    {"", ", \"verify\": \"none\"", NULL},
	};
	char *run;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (asprintf(
		        &run,
		        "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n"
		        "\"experiments\": [{\"name\": \"e\", \"kernel\": \"noop\", "
		        "\"work_unit\": \"op\", %s\n\"points\": [{\"point\": 0, \"threads\": 2, "
		        "\"placement\": \"compact\", \"params\": {}, \"status\": \"ok\", \"reps\": "
		        "2%s}]}]}\n",
		        c[i].exp, c[i].pt) < 0)
			testlib_fail();
		lr_case(i, LR_ROWS, run, c[i].want);
	}
}

/* samples.csv's runs of a point agree with run.json's: none past "runs" (runs = 0 read "0 of 3
 * planned runs" over samples of 3 runs; runs = 1 used them as 3 run means), no more runs than
 * reps, and no point of a complete run that is still "planned" has samples. */
LAB_TEST(run_json_runs_agree_with_samples)
{
	char *run;
	static const struct {
		const char *pt, *want;
	} r[] = {
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 0, \"runs_planned\": 3",
	     "R/run.json:3: point 0 of [e]: samples.csv has samples of its run 2, run.json counts "
	     "0 runs, allowed: runs 0 .. runs - 1"},
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 1, \"runs_planned\": 1",
	     "samples.csv has samples of its run 2, run.json counts 1 runs"},
	    {"\"status\": \"planned\", \"reps\": 0",
	     "R/run.json:3: point 0 of [e] is \"planned\" in a complete run, yet samples.csv has 3 "
	     "samples of it, allowed: ok, skipped or failed"},
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 3, \"runs_planned\": 3", NULL},
	    /* red team: 100000 runs of 18 reps was echoed as runs_recorded without a word */
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 4, \"runs_planned\": 4",
	     "R/run.json:3: point 0 of [e]: run.json counts 4 runs of 3 reps, allowed: runs <= "
	     "reps "
	     "(each run takes a sample)"},
	    /* red team: a precision point's samples were echoed ("9 of 0 samples", "of 1000") */
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 3, \"runs_planned\": 3, \"samples\": 0",
	     "R/run.json:3: point 0 of [e]: run.json counts 0 samples, samples.csv has 3, allowed: "
	     "the same (fewer in samples.csv only while the run is not complete)"},
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 3, \"runs_planned\": 3, \"samples\": 1000",
	     "run.json counts 1000 samples, samples.csv has 3"},
	    {"\"status\": \"ok\", \"reps\": 3, \"runs\": 3, \"runs_planned\": 3, \"samples\": 3",
	     NULL},
	};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (asprintf(&run,
		             "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n"
		             "\"experiments\": [{\"name\": \"e\", \"kernel\": \"noop\", "
		             "\"work_unit\": \"op\", \"points\": [\n{\"point\": 0, \"threads\": 2, "
		             "\"placement\": \"compact\", \"params\": {}, %s}]}]}\n",
		             r[i].pt) < 0)
			testlib_fail();
		lr_case(100 + i,
		        LR_HEADER_RUN "e,0,noop,placement=compact,2,0,1000,10,op,0.01,0,0\n"
		                      "e,0,noop,placement=compact,2,1,1010,10,op,0.01,0,1\n"
		                      "e,0,noop,placement=compact,2,2,1020,10,op,0.01,0,2\n",
		        run, r[i].want);
	}
}

/* lr_case with LR_ROWS and a run.json whose host.topology.key is value. */
static void lr_topology_case(size_t i, const char *key, const char *value, const char *want)
{
	char top[512];

	snprintf(top, sizeof(top), "\"host\": {\"topology\": {\"%s\": %s}},", key, value);
	lr_case(i, LR_ROWS, lr_run(top, LR_PT "\"status\": \"ok\"}"), want);
}

/* host.topology.numa_distances is the firmware's table as hwloc reports it: square, whole
 * distances (1e308 gave a remote-to-local ratio of 0; a 1 x 1 table stood beside a 2-node
 * matrix only where it was square). */
LAB_TEST(numa_distances_checked)
{
	static const struct {
		const char *table, *want;
	} c[] = {
	    {"[[10, 1e308], [1e308, 10]]",
	     "host.topology.numa_distances: allowed: whole distances 1 .. 65535"},
	    {"[[10, 20], [20]]", "host.topology.numa_distances: allowed: n rows of n distances"},
	    {"[[10, 0.5], [20, 10]]", "allowed: whole distances"},
	    {"{}", "allowed: n rows of n distances"},
	    {"[[10, 21], [21, 10]]", NULL},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		lr_topology_case(i, "numa_distances", c[i].table, c[i].want);
}

/* host.topology.pus_detail names the CPUs the c2c view and the lessons relate: a numa of 1e400
 * read "other NUMA node" on a 1-node host, a cpu of 0.5 passed as CPU 0. */
LAB_TEST(pus_detail_checked)
{
	static const struct {
		const char *pus, *want;
	} c[] = {
	    {"[{\"cpu\": 0.5}]", "a PU of host.topology.pus_detail: allowed: an object whose "
	                         "\"cpu\" is a whole number 0 .. 65535"},
	    {"[{\"cpu\": 4294967296}]", "\"cpu\" is a whole number 0 .. 65535"},
	    {"[{\"cpu\": 0, \"numa\": 1e300}]", "PU \"numa\": allowed: a whole number -1"},
	    {"[{\"cpu\": 0, \"core\": -2}]", "PU \"core\": allowed"},
	    {"[{\"cpu\": 1},\n{\"cpu\": 1}]",
	     "R/run.json:2: host.topology.pus_detail lists CPU 1 again, allowed: each CPU once"},
	    {"[3]", "a PU of host.topology.pus_detail: allowed"},
	    {"{}", "host.topology.pus_detail: allowed: an array"},
	    {"[{\"cpu\": 0, \"package\": 0, \"numa\": 0, \"numa_os\": 0, \"llc\": -1, "
	     "\"core\": 0, \"smt_rank\": 0}, {\"cpu\": 1}]",
	     NULL},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		lr_topology_case(i, "pus_detail", c[i].pus, c[i].want);
}

/* A run.json that says it is lab run's (schema lab.run/1) has every key lab run writes that
 * samples.csv is checked against: without the run's status, an experiment's kernel or unit of
 * work, or a point's status, reps or params, those checks were skipped and relabelled or added
 * rows passed. A file of another schema or none is hand-made data: read with a warning. */
LAB_TEST(lab_run_keys_required)
{
	static const struct {
		const char *schema, *status, *exp, *pt, *want;
	} c[] = {
	    {"lab.run/1", "complete", "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}", NULL},
	    {"lab.run/1", NULL, "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}",
	     "R/run.json:1: \"status\" missing, allowed: running, complete, interrupted or failed "
	     "(a lab.run/1 file has it)"},
	    {"lab.run/1", "done", "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}",
	     "R/run.json:1: \"status\" is none of them, allowed: running, complete"},
	    {"lab.run/1", "complete", "\"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}",
	     "R/run.json:2: experiment 'e': \"kernel\" missing, allowed: a name (a lab.run/1 file "
	     "has it)"},
	    {"lab.run/1", "complete", "\"kernel\": \"noop\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}",
	     "R/run.json:2: experiment 'e': \"work_unit\" missing"},
	    {"lab.run/1", "complete", "\"kernel\": \"noop\", \"work_unit\": \"\"",
	     "\"status\": \"ok\", \"reps\": 2, \"params\": {}",
	     "experiment 'e': \"work_unit\" empty"},
	    {"lab.run/1", "complete", "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"params\": {}",
	     "R/run.json:3: point 0: \"reps\" missing, allowed: a point with it (a lab.run/1 file "
	     "has it)"},
	    {"lab.run/1", "complete", "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"reps\": 2, \"params\": {}", "R/run.json:3: point 0: \"status\" missing"},
	    {"lab.run/1", "complete", "\"kernel\": \"noop\", \"work_unit\": \"op\"",
	     "\"status\": \"ok\", \"reps\": 2", "R/run.json:3: point 0: \"params\" missing"},
	    /* reps is a count in any file: "2" was read as absent */
	    {"x", "complete", "\"kernel\": \"noop\"", "\"status\": \"ok\", \"reps\": \"2\"",
	     "R/run.json:3: \"reps\": allowed: a whole number 0 .. 4294967295"},
	    /* hand-made data (another schema, or none): read with a warning */
	    {"x", NULL, "", "", NULL},
	    {NULL, NULL, "\"kernel\": \"noop\"", "\"reps\": 2", NULL},
	};
	char schema[64], status[64], *run;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(schema, sizeof(schema), "\"schema\": \"%s\", ", c[i].schema);
		snprintf(status, sizeof(status), "\"status\": \"%s\", ", c[i].status);
		if (asprintf(&run,
		             "{%s%s\n\"experiments\": [{\"name\": \"e\", %s%s\"points\": [\n"
		             "{\"point\": 0, \"threads\": 2, \"placement\": \"compact\"%s%s}]}]}\n",
		             c[i].schema ? schema : "", c[i].status ? status : "", c[i].exp,
		             *c[i].exp ? ", " : "", *c[i].pt ? ", " : "", c[i].pt) < 0)
			testlib_fail();
		lr_case(i, LR_ROWS, run, c[i].want);
	}
}

/* Two points with one experiment, thread count and params (an older lab swept a run setting,
 * or a file was edited) made one series with two rows at a thread count, and lab compare
 * matched them with each other: refused at the second one's line. */
LAB_TEST(points_differ_in_threads_or_params)
{
	static const char *rows = LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,op,0.01,0\n"
	                                    "e,1,noop,placement=compact,2,0,1000,10,op,0.01,0\n";
	static const char *rows2 = LR_HEADER "e,0,noop,placement=compact,2,0,1000,10,op,0.01,0\n"
	                                     "e,1,noop,placement=compact,1,0,1000,10,op,0.01,0\n";
	char msg[1024];

	lr_case(0, rows,
	        lr_run("", "{\"point\": 0, \"threads\": 2, \"placement\": \"compact\", \"status\": "
	                   "\"ok\", \"reps\": 1, \"params\": {}},\n{\"point\": 1, \"threads\": 2, "
	                   "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 1, "
	                   "\"params\": {}}"),
	        "R/run.json:4: point 1 of [e] has the threads (2) and params of point 0, allowed: "
	        "each (threads, params) once per experiment");
	lr_case(1, rows2,
	        lr_run("", "{\"point\": 0, \"threads\": 2, \"placement\": \"compact\", \"status\": "
	                   "\"ok\", \"reps\": 1, \"params\": {}},\n{\"point\": 1, \"threads\": 1, "
	                   "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 1, "
	                   "\"params\": {}}"),
	        NULL);
	/* samples.csv alone (a run.json that lists no points) */
	CHECK_EQ_I64(lr_load(rows, "{\"experiments\": []}\n", msg, sizeof(msg)), -LAB_EDATA);
	CHECK(strstr(msg, "R/samples.csv:3: point 1 of [e] has the threads (2)") != NULL);
	/* one amount spelled two ways is one point: a size in bytes, a duration in ns */
	static const char *const twice[][2] = {
	    {"stride=8", "stride=8B"}, {"size=1KiB", "size=1024"}, {"cost=1us", "cost=1000ns"}};
	for (size_t i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		char text[1024], want[256];

		snprintf(text, sizeof(text),
		         LR_HEADER "e,0,noop,%s,2,0,1000,10,op,0.01,0\n"
		                   "e,1,noop,%s,2,0,1000,10,op,0.01,0\n",
		         twice[i][0], twice[i][1]);
		snprintf(want, sizeof(want), "('%s' is '%s')", twice[i][1], twice[i][0]);
		CHECK_EQ_I64(lr_load(text, "{\"experiments\": []}\n", msg, sizeof(msg)),
		             -LAB_EDATA);
		if (!strstr(msg, want))
			TL__FAIL("%s: got '%s'", twice[i][1], msg);
	}
	/* different amounts, and a word that only looks like one, stay apart */
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"cost=1us\",2,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"cost=1ms\",2,0,1000,10,op,0.01,0\n"
	                               "e,2,noop,\"op=1s\",2,0,1000,10,op,0.01,0\n"
	                               "e,3,noop,\"op=1sec\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             0);
}

/* One amount spelled two ways at two points of an experiment (hostile33: tile=4096 at the serial
 * point, tile=4K at the blocked one; the views match params as text, so the blocked scan lost its
 * baseline and read speedup 1 [1, 1]) is a data error; in two experiments, or spelled one way,
 * it is not. */
LAB_TEST(amount_spelled_one_way_per_experiment)
{
	char msg[1024];

	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"m=a;tile=4096\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"m=b;tile=4K\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             -LAB_EDATA);
	CHECK(strstr(msg, "R/samples.csv:3: point 1 of [e] writes tile=4K where point 0 writes "
	                  "tile=4096: one amount spelled two ways (allowed: one spelling") != NULL);
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"cost=1us\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"cost=1000ns\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             -LAB_EDATA);
	/* spellings that start with no digit are amounts too (hostile35) */
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"m=a;size=262144\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"m=b;size=.25M\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             -LAB_EDATA);
	CHECK(strstr(msg, "writes size=.25M where point 0 writes size=262144") != NULL);
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"cost=100ns\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"cost=+100ns\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             -LAB_EDATA);
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"m=a;tile=4K\",1,0,1000,10,op,0.01,0\n"
	                               "f,1,noop,\"m=b;tile=4096\",2,0,1000,10,op,0.01,0\n"
	                               "e,2,noop,\"m=b;tile=4K\",2,0,1000,10,op,0.01,0\n"
	                               "e,3,noop,\"m=b;tile=8K\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             0);
}

/* A duration key's amounts: zero one amount bare and in every unit, a bare number ns, any
 * other value refused; another key's bare zero a value like any other. */
LAB_TEST(duration_amounts_and_values)
{
	char msg[1024];

	/* zero is one amount in every unit and bare, as the planner writes it (hostile37:
	 * cs_ns=0ns beside cs_ns=0 split a lock series in two) */
	static const char *const zero[] = {"0ns", "0us", "0.0", "0s"};
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
		char text[1024], want[128];

		snprintf(text, sizeof(text),
		         LR_HEADER "e,0,noop,\"cs_ns=0;m=a\",1,0,1000,10,op,0.01,0\n"
		                   "e,1,noop,\"cs_ns=%s;m=a\",2,0,1000,10,op,0.01,0\n",
		         zero[i]);
		snprintf(want, sizeof(want), "writes cs_ns=%s where point 0 writes cs_ns=0",
		         zero[i]);
		CHECK_EQ_I64(lr_load(text, "{\"experiments\": []}\n", msg, sizeof(msg)),
		             -LAB_EDATA);
		if (!strstr(msg, want))
			TL__FAIL("%s: got '%s'", zero[i], msg);
	}
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"cs_ns=0;m=a\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"cs_ns=1ns;m=a\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             0);
	/* a duration key's bare number is ns (older results); another key's bare zero is a
	 * value like any other (review38: misalign=0.0 was refused beside misalign=0) */
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"cs_ns=100;m=a\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"cs_ns=100ns;m=a\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             -LAB_EDATA);
	CHECK_EQ_I64(lr_load(LR_HEADER "e,0,noop,\"misalign=0;m=a\",1,0,1000,10,op,0.01,0\n"
	                               "e,1,noop,\"misalign=0.0;m=a\",2,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             0);
	/* a duration key's value is a duration (hostile38: cs_ns=banana, "0 ns" and 0Ns split a
	 * lock series in two); older results' bare numbers of ns are */
	static const char *const nodur[] = {"banana", "0 ns", "0Ns", "0nsx", "-0ns", "-5ns", "inf"};
	for (size_t i = 0; i < sizeof(nodur) / sizeof(nodur[0]); i++) {
		char text[1024], want[128];

		snprintf(text, sizeof(text),
		         LR_HEADER "e,0,noop,\"delay=%s;m=a\",1,0,1000,10,op,0.01,0\n", nodur[i]);
		snprintf(want, sizeof(want),
		         "R/samples.csv:2: params delay = '%s': allowed: a duration, a number >= 0",
		         nodur[i]);
		CHECK_EQ_I64(lr_load(text, "{\"experiments\": []}\n", msg, sizeof(msg)),
		             -LAB_EDATA);
		if (!strstr(msg, want))
			TL__FAIL("%s: got '%s'", nodur[i], msg);
	}
	CHECK_EQ_I64(lr_load(LR_HEADER
	                     "e,0,noop,\"cs_ns=100;think_ns=2.5us\",1,0,1000,10,op,0.01,0\n",
	                     "{\"experiments\": []}\n", msg, sizeof(msg)),
	             0);
}

/* A view declared for data it does not read (an edited "views": the c2c view read false
 * sharing costs as one-way latencies of 0.3 ns, the locks view a noop as lock "?") is refused
 * with the line of "views"; the kernel's own params pass. */
LAB_TEST(declared_view_reads_its_data)
{
	static const struct {
		const char *view, *params, *json, *want;
	} c[] = {
	    {"c2c", "stride=8", "\"stride\": 8",
	     "experiment 'e' declares view 'c2c', but its point 0 has a cost in ns/op, not in "
	     "ns/roundtrip"},
	    {"c2c", "batch=256;method=cas", "\"batch\": 256, \"method\": \"cas\"", NULL},
	    {"c2c", "pair=0-1", "\"pair\": \"0-1\"", NULL},
	    {"locks", "stride=8", "\"stride\": 8",
	     "declares view 'locks', but its point 0 has no 'lock' param"},
	    {"locks", "lock=tas", "\"lock\": \"tas\"", NULL},
	    {"omp_schedule", "schedule=dynamic", "\"schedule\": \"dynamic\"", "no 'chunk' param"},
	    /* the lab leaves out a param where it does not apply: static takes no chunk, a struct
	     * layout has no stride */
	    {"omp_schedule", "schedule=static", "\"schedule\": \"static\"", NULL},
	    {"stride", "stride=8", "\"stride\": 8", NULL},
	    {"stride", "op=rmw", "\"op\": \"rmw\"", "no 'stride' param"},
	    {"stride", "layout=struct", "\"layout\": \"struct\"", NULL},
	    {"numa", "size=8M", "\"size\": \"8M\"", "no 'mem_node', 'init' or 'stream_size' param"},
	    {"numa", "init=serial;size=8M", "\"init\": \"serial\", \"size\": \"8M\"", NULL},
	    /* it draws the points whose work it can rate */
	    {"roofline", "stride=8", "\"stride\": 8", NULL},
	};
	char *out = NULL, *err = NULL, rows[512], run[1024], path[2048];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		/* the c2c view's cases that fit are round trips */
		const char *unit = !strcmp(c[i].view, "c2c") && !c[i].want ? "roundtrip" : "op";

		snprintf(rows, sizeof(rows),
		         LR_HEADER "e,0,noop,placement=compact;%s,2,0,1000,10,%s,0.01,0\n",
		         c[i].params, unit);
		snprintf(run, sizeof(run),
		         "{\"schema\": \"lab.run/1\", \"status\": \"complete\",\n\"experiments\": "
		         "[{\"name\": \"e\", \"kernel\": \"noop\", \"work_unit\": \"%s\",\n"
		         "\"views\": [\"%s\"], \"points\": [{\"point\": 0, \"threads\": 2, "
		         "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 1, "
		         "\"params\": {%s}}]}]}\n",
		         unit, c[i].view, c[i].json);
		lr_file("samples.csv", rows);
		lr_file("run.json", run);
		snprintf(path, sizeof(path), "%s/R/summary.csv", testlib_tmpdir());
		unlink(path);
		snprintf(path, sizeof(path), "%s/R/analysis.json", testlib_tmpdir());
		unlink(path);
		CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err),
		             (c[i].want ? 2 : 0));
		if (c[i].want) {
			CHECK(err && strstr(err, "R/run.json:3: ") && strstr(err, c[i].want));
			CHECK(!clitest_exists("R/summary.csv") &&
			      !clitest_exists("R/analysis.json"));
		}
		free(out);
		free(err);
		out = err = NULL;
	}
}

/* A point whose verify failed keeps its rows in samples.csv (the runner writes what it took):
 * its cost was printed as any other row's. Its samples are left out, its row gives the status
 * and reason, one warning counts it. */
LAB_TEST(failed_point_shows_its_status)
{
	char *out = NULL, *err = NULL,
	     *run = lr_run("", LR_PT "\"status\": \"failed\", \"verify\": \"fail\", "
	                             "\"reason\": \"verify: sum 7, expected 8\"}");

	lr_file("samples.csv", LR_ROWS);
	lr_file("run.json", run);
	free(run);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
	CHECK(out && strstr(out, "failed: verify: sum 7, expected 8") != NULL);
	CHECK(out && !strstr(out, "1005")); /* the mean cost of its two samples */
	CHECK(err && strstr(err, "1 point that did not end ok (point 0, [e] threads=2: failed: "
	                         "verify: sum 7, expected 8) has 2 samples: left out") != NULL);
	free(out);
	free(err);
}

/* A point placed on a CPU pair ran on the pair's CPUs: "cpus" [7, 9] beside pair 0-1 drew a c2c
 * pair that never ran. */
LAB_TEST(pair_point_runs_on_its_pair)
{
	static const struct {
		const char *cpus, *want;
	} c[] = {
	    {"[7, 9]", "\"cpus\" [7, 9] beside params pair '0-1', allowed: the pair's two CPUs"},
	    {"[0, 2]", "beside params pair '0-1'"},
	    {"[1, 0]", NULL},
	    {"[0, 1]", NULL},
	};
	char pt[512];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(
		    pt, sizeof(pt),
		    "{\"point\": 0, \"threads\": 2, \"params\": {\"pair\": \"0-1\"}, "
		    "\"placement\": \"compact\", \"reps\": 2, \"status\": \"ok\", \"cpus\": %s}",
		    c[i].cpus);
		lr_case(i,
		        LR_HEADER "e,0,noop,placement=compact;pair=0-1,2,0,1000,10,op,0.01,0\n"
		                  "e,0,noop,placement=compact;pair=0-1,2,1,1010,10,op,0.01,0\n",
		        lr_run("", pt), c[i].want);
	}
}
