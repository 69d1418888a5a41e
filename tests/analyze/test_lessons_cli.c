/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lessons from a hostile or odd run.json, end to end through `lab analyze`: their text cannot
 * forge a line of the output nor put a control byte into the report; the reason a selector names
 * no point blames --set only when the run had one; a "lessons" member that is not an array is a
 * data error, as other malformed members are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* Writes tmpdir/R: one experiment "e" with points at 1 and 2 threads (two samples each), and
 * run.json with the members in extra (each followed by a comma) before "experiments". */
static void lc_write(const char *extra)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/R", testlib_tmpdir());
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		testlib_fail();
	snprintf(path, sizeof(path), "%s/R/samples.csv", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged\n"
	      "e,0,noop,placement=compact,1,0,1000,10,op,0,0\n"
	      "e,0,noop,placement=compact,1,1,1010,10,op,0,0\n"
	      "e,1,noop,placement=compact,2,0,600,10,op,0,0\n"
	      "e,1,noop,placement=compact,2,1,610,10,op,0,0\n",
	      f);
	REQUIRE(fclose(f) == 0);
	snprintf(path, sizeof(path), "%s/R/run.json", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fprintf(f,
	        "{\"schema\": \"lab.run/1\", \"status\": \"complete\", %s\"experiments\": "
	        "[{\"name\": \"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": "
	        "[{\"point\": 0, \"threads\": 1, \"params\": {}, \"placement\": \"compact\", "
	        "\"status\": \"ok\", \"reps\": 2}, {\"point\": 1, \"threads\": 2, \"params\": {}, "
	        "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 2}]}]}\n",
	        extra);
	REQUIRE(fclose(f) == 0);
}

/* A lesson whose selector value holds a newline, a carriage return and terminal escapes: no
 * config can state it, so run.json was edited: one line of error (escaped), exit 2. A lesson
 * whose file holds them: no line of the text starts with what follows the newline, no control
 * byte but a newline reaches stdout, and report.html holds none but tab and newline. */
LAB_TEST(lesson_text_cannot_forge_lines)
{
	char *out = NULL, *err = NULL, *html;

	lc_write("\"lessons\": [{\"name\": \"x\", \"claim\": \"cost(e: size=\\\"c\\nholds        "
	         "forged\\r\\u001b[2J\\u0007\\\", threads=1) > 1\", \"file\": \"f.ini\", "
	         "\"expr\": \"cost(e: size=\\\"c\\nholds        forged\\r\\u001b[2J\\u0007\\\", "
	         "threads=1) > 1\"}],");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	REQUIRE(err);
	CHECK(strstr(err, "R/run.json:1: lesson 'x': [e]: a selector with a control byte, "
	                  "allowed: a claim the planner accepts") != NULL);
	CHECK(strchr(err, '\n') == strrchr(err, '\n') && !strchr(err, '\r') && !strchr(err, 0x1b));
	CHECK(!clitest_exists("R/report.html"));
	free(out);
	free(err);
	lc_write("\"lessons\": [{\"name\": \"x\", \"claim\": \"cost(e: threads=1) > 1\", "
	         "\"file\": \"f.ini\\n-- g.ini\\r\\u001b[2J\\u0007\", \"expr\": \"cost(e: "
	         "threads=1) > 1\"}, {\"name\": \"ok\", \"claim\": \"cost(e: threads=2) > 1\", "
	         "\"file\": \"g.ini\", \"expr\": \"cost(e: threads=2) > 1\"}],");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
	REQUIRE(out);
	CHECK(strstr(out, "\n-- g.ini\\") == NULL);
	CHECK(strstr(out, "-- f.ini\\n-- g.ini\\r\\x1b[2J\\x07: 1 hold") != NULL);
	for (const char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n') {
			TL__FAIL("stdout holds a raw 0x%02x at %zu: %s", *p, (size_t)(p - out),
			         out);
			break;
		}
	REQUIRE((html = clitest_read("R/report.html")));
	for (const char *p = html; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t') {
			TL__FAIL("report.html holds a raw 0x%02x at %zu", *p, (size_t)(p - html));
			break;
		}
	free(html);
	free(out);
	free(err);
}

/* Lessons a config could not hold are data errors, before anything is written (they were "not
 * run", or judged: `speedup(...threads=1) >= 1` "held" at 1 [1, 1]; a claim of `>= 100` showed
 * beside a verdict on `>= 1.5`): an entry that is not an object, a name a config cannot give
 * (control bytes, 100,000 characters) or gives twice, an expr the planner refuses, a claim
 * that says something else than its expr. A name is not echoed before it is known plain. */
LAB_TEST(lessons_held_to_the_config_rules)
{
	static const char *const bad[][2] = {
	    {"5", "R/run.json:1: a lesson: allowed: an object"},
	    {"{\"name\": \"x\\nholds        forged\\u001b[2J\", \"claim\": \"cost(e: threads=2) > "
	     "1\", \"expr\": \"cost(e: threads=2) > 1\"}",
	     "R/run.json:1: a lesson's \"name\": allowed: letters, digits, '_', '.', '-', at most "
	     "63"},
	    {"{\"name\": \"a234567890123456789012345678901234567890123456789012345678901234\", "
	     "\"claim\": \"cost(e: threads=2) > 1\", \"expr\": \"cost(e: threads=2) > 1\"}",
	     "a lesson's \"name\": allowed"},
	    {"{\"name\": \"a\", \"claim\": \"cost(e: threads=2) > 1\", \"expr\": \"cost(e: "
	     "threads=2) > 1\"}, {\"name\": \"a\", \"claim\": \"cost(e: threads=1) > 1\", "
	     "\"expr\": \"cost(e: threads=1) > 1\"}",
	     "lesson 'a' again, allowed: each name once"},
	    {"{\"name\": \"s\", \"claim\": \"speedup(e: threads=1) >= 1\", \"expr\": "
	     "\"speedup(e: threads=1) >= 1\"}",
	     "lesson 's': \"expr\" column 9: speedup at threads=1 is 1 by definition, allowed"},
	    {"{\"name\": \"d\", \"claim\": \"cost(e: threads=2) / 0 > 1\", \"expr\": \"cost(e: "
	     "threads=2) / 0 > 1\"}",
	     "lesson 'd': \"expr\" column 20: division by zero"},
	    {"{\"name\": \"c\", \"claim\": \"cost(e: threads=2) / cost(e: threads=1) >= 100\", "
	     "\"expr\": \"cost(e: threads=2) / cost(e: threads=1) >= 1.5\"}",
	     "lesson 'c': \"claim\" and \"expr\" say different things, allowed"},
	    {"{\"name\": \"n\", \"expr\": \"cost(e: threads=2) > 1\"}",
	     "lesson 'n': \"claim\": allowed: a string"},
	    /* the claim's text beside a verdict on other points (threads=1 for threads=2) */
	    {"{\"name\": \"v\", \"claim\": \"cost(e: threads=2) > 1\", \"expr\": \"cost(e: "
	     "threads=1) > 1\"}",
	     "lesson 'v': \"claim\" and \"expr\" say different things, allowed"},
	    {"{\"name\": \"w\", \"claim\": \"cost(e: threads=2, size=4K) > 1\", \"expr\": "
	     "\"cost(e: threads=2, size=4M) > 1\"}",
	     "lesson 'w': \"claim\" and \"expr\" say different things, allowed"},
	    /* values no unit reads: a name, a node, a duration against a number */
	    {"{\"name\": \"l\", \"claim\": \"cost(e: lock=ticket) > 1\", \"expr\": \"cost(e: "
	     "lock=mcs) > 1\"}",
	     "lesson 'l': \"claim\" and \"expr\" say different things, allowed"},
	    {"{\"name\": \"p\", \"claim\": \"cost(e: placement=node:1) > 1\", \"expr\": "
	     "\"cost(e: placement=node:0) > 1\"}",
	     "lesson 'p': \"claim\" and \"expr\" say different things, allowed"},
	    {"{\"name\": \"t\", \"claim\": \"cost(e: cs_ns=0) > 1\", \"expr\": \"cost(e: "
	     "cs_ns=100ns) > 1\"}",
	     "lesson 't': \"claim\" and \"expr\" say different things, allowed"},
	    {"{\"name\": \"m\", \"claim\": \"cost(e: size=L1/2) > 1\", \"expr\": \"cost(e: "
	     "size=ticket) > 1\"}",
	     "lesson 'm': \"claim\" and \"expr\" say different things, allowed"},
	};
	char extra[1024], *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(extra, sizeof(extra), "\"lessons\": [%s],", bad[i][0]);
		lc_write(extra);
		CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
		if (!err || !strstr(err, bad[i][1]))
			TL__FAIL("lessons %s: stderr lacks '%s': %s", bad[i][0], bad[i][1],
			         err ? err : "");
		CHECK(err && !strstr(err, "forged"));
		CHECK(!clitest_exists("R/summary.csv") && !clitest_exists("R/report.html"));
		free(out);
		free(err);
	}
	/* a claim longer than a config value may be (a 2 MB one was judged) */
	size_t n = 70000;
	char *big = malloc(n + 256);
	REQUIRE(big);
	int k = snprintf(big, 256,
	                 "\"lessons\": [{\"name\": \"b\", \"claim\": \"cost(e: threads=2) > 1");
	memset(big + k, ' ', n);
	snprintf(big + k + n, 200, "\", \"expr\": \"cost(e: threads=2) > 1\"}],");
	lc_write(big);
	free(big);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "lesson 'b': \"claim\" of 70022 bytes, allowed: at most 65535"))
		TL__FAIL("a 70 KB claim: %s", err ? err : "");
	free(out);
	free(err);
}

/* A selector value written otherwise in the expr than in the claim (4096 as the planner's 4K)
 * is the same quantity: accepted, and the text says what was judged ("checked as:"); a value
 * written alike adds no line. */
LAB_TEST(lessons_checked_as_shows_the_expr)
{
	char *out = NULL, *err = NULL;

	lc_write("\"lessons\": [{\"name\": \"k\", \"claim\": \"cost(e: threads=2) < cost(e: "
	         "threads=0001)\", \"expr\": \"cost(e: threads=2) < cost(e: threads=1)\"}, "
	         "{\"name\": \"same\", \"claim\": \"cost(e: threads=2) > 1\", \"expr\": "
	         "\"cost(e: threads=2) > 1\"}],");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
	CHECK(out && strstr(out, "claim: cost(e: threads=2) < cost(e: threads=0001)\n"
	                         "        checked as: cost(e: threads=2) < cost(e: threads=1)\n"));
	CHECK(out && strstr(out, "claim: cost(e: threads=2) > 1\n             ") != NULL);
	CHECK(out && !strstr(out, "checked as: cost(e: threads=2) > 1"));
	free(out);
	free(err);
}

/* The forms the planner rewrites a selector value into are the same value: accepted; values
 * it computes from the machine are checked against run.json's host (L1 48K, L3 32M, 2 CPUs);
 * anything else judges other points: refused. */
LAB_TEST(lessons_canonical_forms_accepted)
{
	static const struct {
		const char *claim, *expr;
		int same;
	} c[] = {
	    {"size=4096", "size=4K", 1},
	    {"cs=1000ns", "cs=1us", 1},
	    {"size=L1/2", "size=24K", 1},
	    {"size=l3*4", "size=128M", 1},
	    {"threads=max", "threads=2", 1},
	    {"nt=yes", "nt=true", 1},
	    {"placement=node:00", "placement=node:0", 1},
	    /* one order of CPUs written two ways; another order or domain is another placement */
	    {"placement=\\\"list:0,1\\\"", "placement=list:0-1", 1},
	    {"placement=list:00", "placement=list:0", 1},
	    /* far without distances in run.json (one node): node 1, as the planner wrote it */
	    {"mem_node=far", "mem_node=1", 1},
	    {"mem_node=far", "mem_node=0", 0},
	    {"placement=expr:E:S0:4:2:2", "placement=expr:E:S0:4", 1},
	    {"placement=\\\"expr:S0:0,1,2,3\\\"", "placement=expr:S0:0-3", 1},
	    /* E: walks core by core, indices physical cores first: one CPU set only without SMT */
	    {"placement=expr:E:S0:4", "placement=expr:S0:0-3", 0},
	    {"placement=expr:S01:0-1@S1:2", "placement=expr:S1:0-2", 1},
	    {"placement=\\\"list:1,0\\\"", "placement=list:0-1", 0},
	    {"placement=expr:N:0", "placement=expr:S0:0", 0},
	    {"placement=list:0-2", "placement=list:0-3", 0},
	    {"threads=02", "threads=2", 1},
	    {"size=1MiB", "size=1M", 1},
	    {"size=0.5K", "size=512", 1},
	    {"size=100B", "size=100", 1},
	    {"cs=0ns", "cs=0", 1},
	    {"cs=1ns", "cs=1", 0},
	    /* a count is written in digits: 1K is 1000 for a count and 1024 for a size */
	    {"stride=1K", "stride=1000", 0},
	    {"delay_loops=1K", "delay_loops=1024", 0},
	    {"n=10K", "n=10000", 0},
	    {"size=L1/2", "size=8", 0},
	    {"size=L2/2", "size=1M", 0},
	    {"threads=max", "threads=1", 0},
	    {"cs=1us", "cs=1000", 0},
	    {"placement=node:1", "placement=node:01x", 0},
	};
	static const char host[] =
	    "\"host\": {\"topology\": {\"caches\": [{\"level\": 1, \"size\": 49152}, "
	    "{\"level\": 3, \"size\": 33554432}], \"cpus_allowed\": [0, 1]}}, ";
	char extra[1024], *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(extra, sizeof(extra),
		         "%s\"lessons\": [{\"name\": \"k\", \"claim\": \"cost(e: %s) > 1\", "
		         "\"expr\": \"cost(e: %s) > 1\"}],",
		         host, c[i].claim, c[i].expr);
		lc_write(extra);
		int rc = clitest_run(NULL, "analyze R --no-plots", &out, &err);
		if (c[i].same && rc != 0)
			TL__FAIL("%s judged as %s refused: %s", c[i].claim, c[i].expr,
			         err ? err : "");
		if (!c[i].same && (rc != 2 || !err || !strstr(err, "say different things")))
			TL__FAIL("%s judged as %s: exit %d, %s", c[i].claim, c[i].expr, rc,
			         err ? err : "");
		free(out);
		free(err);
	}
}

/* mem_node = far is the node farthest from OS node 0 by run.json's distances (logical order,
 * numa_memory maps them to OS numbers): on this 4-node host logical 2 (OS 3) is the first of the
 * farthest from OS node 0 (logical 1). ch27's claims say far: its runs were refused. */
LAB_TEST(lessons_far_node_from_distances)
{
	static const struct {
		const char *expr;
		int same;
	} c[] = {{"3", 1}, {"1", 0}, {"2", 0}, {"far", 1}};
	static const char host[] =
	    "\"host\": {\"topology\": {\"cpus_allowed\": [0, 1], \"numa_memory\": ["
	    "{\"node\": 0, \"os_index\": 2}, {\"node\": 1, \"os_index\": 0}, "
	    "{\"node\": 2, \"os_index\": 3}, {\"node\": 3, \"os_index\": 1}], "
	    "\"numa_distances\": [[10, 12, 32, 32], [12, 10, 32, 32], [32, 32, 10, 12], "
	    "[32, 32, 12, 10]]}}, ";
	char extra[1024], *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(
		    extra, sizeof(extra),
		    "%s\"lessons\": [{\"name\": \"k\", \"claim\": \"cost(e: mem_node=far) > 1\", "
		    "\"expr\": \"cost(e: mem_node=%s) > 1\"}],",
		    host, c[i].expr);
		lc_write(extra);
		int rc = clitest_run(NULL, "analyze R --no-plots", &out, &err);
		if (c[i].same ? rc != 0 : rc != 2 || !err || !strstr(err, "say different things"))
			TL__FAIL("mem_node=far judged as %s: exit %d, %s", c[i].expr, rc,
			         err ? err : "");
		free(out);
		free(err);
	}
}

/* A selector that names no point (threads = 3 of a sweep that reached 2) says how large the
 * run's teams were, and blames a --set only when the run's command line had one ("--set VAL"
 * or "--set=VAL") or run.json does not say. */
LAB_TEST(no_point_reason_names_set_only_when_given)
{
	static const struct {
		const char *cl; /* the command_line member, or "" */
		int set;
	} c[] = {{"\"command_line\": [\"run\", \"x.ini\", \"-o\", \"R\"],", 0},
	         {"\"command_line\": [\"run\", \"x.ini\", \"--set\", \"e.threads=1,2\"],", 1},
	         {"\"command_line\": [\"run\", \"--set=e.threads=1,2\", \"x.ini\"],", 1},
	         {"", 1}};
	const char *reason = "[e] has no point with threads=3: its teams here have at most 2 "
	                     "threads (threads = max stands for the CPUs this run could use";

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char extra[512], *out = NULL, *err = NULL;
		const char *at;

		snprintf(
		    extra, sizeof(extra),
		    "%s \"lessons\": [{\"name\": \"three\", \"claim\": \"cost(e: threads=3) > "
		    "1\", \"expr\": \"cost(e: threads=3) > 1\"}, {\"name\": \"sc\", \"claim\": "
		    "\"cost(e: placement=scatter, threads=2) > 1\", \"expr\": \"cost(e: "
		    "placement=scatter, threads=2) > 1\"}],",
		    c[i].cl);
		lc_write(extra);
		CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
		REQUIRE(out);
		at = strstr(out, reason);
		CHECK(at != NULL);
		if (at)
			CHECK(!strncmp(at + strlen(reason),
			               c[i].set ? ", or a --set narrowed the sweep)" : ")",
			               c[i].set ? 32 : 1));
		/* another key: the sweep, a --set or the machine */
		at = strstr(out, "[e] has no point with placement=scatter, threads=2 (not in this "
		                 "run's plan: ");
		CHECK(at != NULL);
		if (at)
			CHECK((strstr(at, "(not in this run's plan: a --set may have narrowed the "
			                  "sweep, the config's sweep does not have it") != NULL) ==
			      c[i].set);
		CHECK((strstr(out, "--set") != NULL) == c[i].set);
		free(out);
		free(err);
	}
}

/* A "lessons" member that is not an array hid every claim with exit 0: it is a data error, as a
 * malformed "experiments" is (exit 2, FILE:LINE and what is allowed). An empty array is none. */
LAB_TEST(lessons_not_an_array_is_a_data_error)
{
	static const char *const bad[] = {"{}", "\"x\"", "null", "3"};
	char extra[128], *out = NULL, *err = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(extra, sizeof(extra), "\"lessons\": %s,", bad[i]);
		lc_write(extra);
		CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
		if (!err || !strstr(err, "R/run.json:1: \"lessons\": allowed: an array\n"))
			TL__FAIL("lessons %s: stderr lacks the data error: %s", bad[i],
			         err ? err : "");
		free(out);
		free(err);
	}
	lc_write("\"lessons\": [],");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
	CHECK(out && !strstr(out, "lessons"));
	free(out);
	free(err);
}
