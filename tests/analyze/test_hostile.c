/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hostile inputs, round 3 (issue 19), the analyzer's items: the number of plots is capped and
 * gnuplot runs on one script; samples.csv is streamed (a sparse file is refused at its first NUL
 * byte with memory bounded by the data); control bytes from the files are escaped in text
 * output; costs that overflow are input errors; input files that are links are not followed;
 * --csv columns are strict; a failed write to stdout is exit 1; SIGTERM takes gnuplot down too;
 * temporary names are unique per writer. Assertions are on behaviour and counts, never times.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/plots.h"
#include "analyze/wfile.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define HO_HEADER                                                                                  \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged\n"
#define HO_RUN                                                                                     \
	"{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "      \
	"\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [{\"point\": 0, "         \
	"\"threads\": 1, \"params\": {}, \"placement\": \"compact\", \"status\": \"ok\", "         \
	"\"reps\": 3}, {\"point\": 1, \"threads\": 2, \"params\": {}, \"placement\": "             \
	"\"compact\", \"status\": \"ok\", \"reps\": 3}]}]}\n"

/* Writes tmpdir/rel with len bytes. */
static void ho_file(const char *rel, const char *text, size_t len)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		testlib_fail();
	}
}

static void ho_str(const char *rel, const char *text)
{
	ho_file(rel, text, strlen(text));
}

static void ho_mkdir(const char *rel)
{
	char path[2048];

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	mkdir(path, 0755);
}

/* A results directory R with two points of one series (a valid analysis). */
static void ho_results_small(void)
{
	ho_mkdir("R");
	ho_str("R/samples.csv", HO_HEADER "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0\n"
	                                  "e,0,noop,placement=compact,1,1,1010,10,op,0.01,0\n"
	                                  "e,1,noop,placement=compact,2,0,600,10,op,0.01,0\n"
	                                  "e,1,noop,placement=compact,2,1,610,10,op,0.01,0\n");
	ho_str("R/run.json", HO_RUN);
}

/* Counts the files in tmpdir/rel whose names end in ext. */
static size_t ho_count(const char *rel, const char *ext)
{
	char path[2048];
	DIR *d;
	struct dirent *e;
	size_t n = 0, el = strlen(ext);

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), rel);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		n += len > el && !strcmp(e->d_name + len - el, ext);
	}
	closedir(d);
	return n;
}

/* A gnuplot on PATH (tmpdir/bin) that logs one line per run: its argument count and arguments
 * (or, with body, runs body instead). */
static void ho_fake_gnuplot(const char *body)
{
	char text[2048];

	ho_mkdir("bin");
	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n",
	         body ? body : "echo \"$#:$*\" >> \"$HO_LOG\"");
	ho_str("bin/gnuplot", text);
	snprintf(text, sizeof(text), "%s/bin/gnuplot", testlib_tmpdir());
	chmod(text, 0755);
}

static char *ho_env(const char *extra)
{
	static char env[4096];

	snprintf(env, sizeof(env), "PATH=%s/bin:$PATH HO_LOG=%s/gnuplot-runs.log %s",
	         testlib_tmpdir(), testlib_tmpdir(), extra ? extra : "");
	return env;
}

/* 150 series (one params value each) measured at 1, 2 and 4 threads: 3 plots each, 450 in all,
 * more than LAB_AN_PLOTS_MAX. */
LAB_TEST(plots_capped_one_gnuplot_script)
{
	size_t cap = 1 << 20, len = 0, series = 150, lines = 0;
	char *csv = malloc(cap), *out = NULL, *err = NULL, *log = NULL, path[2048], want[128];
	int code;

	REQUIRE(csv && 3 * series > LAB_AN_PLOTS_MAX);
	len += (size_t)snprintf(csv + len, cap - len, "%s", HO_HEADER);
	for (size_t s = 0; s < series; s++)
		for (int t = 0; t < 3; t++)
			for (int rep = 0; rep < 2; rep++)
				len += (size_t)snprintf(
				    csv + len, cap - len, "e,%zu,noop,k=%zu,%d,%d,%d,100,op,0,0\n",
				    3 * s + (size_t)t, s, 1 << t, rep, 4000 / (1 << t) + 10 * rep);
	ho_mkdir("R");
	ho_file("R/samples.csv", csv, len);
	free(csv);
	ho_fake_gnuplot(NULL);
	code = clitest_run(ho_env(NULL), "analyze R", &out, &err);
	CHECK_EQ_I64(code, 0);
	/* the plots past the cap are not written, and the message says how many and why */
	CHECK_EQ_U64(ho_count("R/plots", ".gp"), LAB_AN_PLOTS_MAX);
	snprintf(want, sizeof(want), "%d of %zu plots left out", 3 * (int)series - LAB_AN_PLOTS_MAX,
	         3 * series);
	if (!err || !strstr(err, want))
		TL__FAIL("stderr lacks '%s': %s", want, err ? err : "(none)");
	/* gnuplot ran once, on one script (not one argument per plot) */
	snprintf(path, sizeof(path), "%s/gnuplot-runs.log", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &log, &len, NULL) == 0);
	for (char *p = log; *p; p++)
		lines += *p == '\n';
	CHECK_EQ_U64(lines, 1);
	CHECK(!strncmp(log, "1:", 2));
	free(log);
	free(out);
	free(err);
}

/* gnuplot stops at the first failing plot: the others still render, one restart per failure. */
LAB_TEST(plots_batch_resumes_after_a_failure)
{
	char *out = NULL, *err = NULL, *log = NULL, path[2048];
	size_t len, runs = 0;

	clitest_copy("results-usl");
	/* The first run renders its first plot (a .png that is only a PNG's end) and fails on the
	 * second; later runs render every plot they are given. */
	ho_fake_gnuplot("echo run >> \"$HO_LOG\"; n=0\n"
	                "for f in $(sed -n \"s/^load '\\(.*\\)\\.gp'$/\\1/p\" \"$1\"); do\n"
	                "  n=$((n+1)); if [ $n = 2 ] && [ ! -e \"$HO_LOG.failed\" ]; then\n"
	                "    : > \"$HO_LOG.failed\"; exit 1; fi\n"
	                "  printf '\\000\\000\\000\\000IEND\\256B`\\202' > \"$f.png\"; done");
	CHECK_EQ_I64(clitest_run(ho_env(NULL), "analyze results-usl", &out, &err), 0);
	snprintf(path, sizeof(path), "%s/gnuplot-runs.log", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &log, &len, NULL) == 0);
	for (char *p = log; *p; p++)
		runs += *p == '\n';
	CHECK_EQ_U64(runs, 2); /* the batch, then the rest after the failed plot */
	CHECK(ho_count("results-usl/plots", ".gp") >= 3);
	CHECK_EQ_U64(ho_count("results-usl/plots", ".png") + 1,
	             ho_count("results-usl/plots", ".gp"));
	if (!strstr(err, "gnuplot failed on 1 of "))
		TL__FAIL("stderr lacks 'gnuplot failed on 1 of': %s", err);
	free(log);
	free(out);
	free(err);
}

/* The largest resident set of the children run so far, in MiB. */
static long ho_child_rss_mib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_CHILDREN, &ru) == 0 ? ru.ru_maxrss / 1024 : -1;
}

/* A sparse samples.csv: head, then zeros (a hole) up to size bytes. */
static void ho_sparse(const char *head, off_t size)
{
	char path[2048];
	int fd;

	ho_mkdir("R");
	ho_str("R/samples.csv", head);
	snprintf(path, sizeof(path), "%s/R/samples.csv", testlib_tmpdir());
	fd = open(path, O_WRONLY);
	REQUIRE(fd >= 0 && ftruncate(fd, size) == 0);
	close(fd);
}

LAB_TEST(sparse_samples_refused_at_first_nul)
{
	char *out = NULL, *err = NULL;

	ho_sparse("", (off_t)1 << 30);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!strstr(err, "samples.csv:1: NUL byte"))
		TL__FAIL("stderr: %s", err);
	CHECK(ho_child_rss_mib() < 200);
	free(out);
	free(err);
}

LAB_TEST(bad_line_refused_without_reading_the_rest)
{
	char *out = NULL, *err = NULL;

	ho_sparse(HO_HEADER "e,zero,noop,,1,0,1000,10,op,0,0\n", (off_t)1 << 30);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!strstr(err, "samples.csv:2: point = 'zero'"))
		TL__FAIL("stderr: %s", err);
	CHECK(ho_child_rss_mib() < 200);
	free(out);
	free(err);
}

/* A record longer than the reader holds is refused with its line, not read to its end. */
LAB_TEST(overlong_record_refused)
{
	size_t n = 20u << 20;
	char *big = malloc(n + 2), *out = NULL, *err = NULL;

	REQUIRE(big);
	memset(big, 'a', n);
	big[n] = '\n';
	ho_mkdir("R");
	ho_str("R/samples.csv", HO_HEADER);
	{
		char path[2048];
		FILE *f;

		snprintf(path, sizeof(path), "%s/R/samples.csv", testlib_tmpdir());
		f = fopen(path, "ab");
		REQUIRE(f && fwrite(big, 1, n + 1, f) == n + 1 && fclose(f) == 0);
	}
	free(big);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!strstr(err, "samples.csv:2: a record longer than"))
		TL__FAIL("stderr: %s", err);
	free(out);
	free(err);
}

/* No byte of the ESC sequences reaches the terminal; their escaped form does. */
static void ho_no_esc(const char *what, const char *s)
{
	if (!s)
		return;
	for (const char *p = s; *p; p++)
		if (*p == 0x1b || *p == '\r' ||
		    ((unsigned char)*p == 0xc2 && (unsigned char)p[1] >= 0x80 &&
		     (unsigned char)p[1] <= 0x9f)) {
			TL__FAIL("%s holds a raw control byte 0x%02x at %zu: %s", what,
			         (unsigned char)*p, (size_t)(p - s), s);
			return;
		}
}

LAB_TEST(text_output_escapes_control_bytes)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("R");
	ho_str("R/samples.csv",
	       HO_HEADER "\"e\x1b[2K\rOK\",0,noop,placement=\x1b[31m,1,0,1000,10,op\xc2\x9b,0,0\n"
	                 "\"e\x1b[2K\rOK\",0,noop,placement=\x1b[31m,1,1,1010,10,op\xc2\x9b,0,0\n"
	                 "\"e\x1b[2K\rOK\",1,noop,placement=\x1b[31m,2,0,600,10,op\xc2\x9b,0,0\n");
	ho_str("R/run.json",
	       "{\"schema\": \"lab.run/1\\u001b[2K\", \"status\": \"complete\", "
	       "\"experiments\": [{\"name\": \"e\\u001b[2K\\rOK\", \"kernel\": \"noop\", "
	       "\"points\": [{\"point\": 0, \"threads\": 1, \"params\": {}, \"placement\": "
	       "\"\\u001b[31m\", \"status\": \"ok\"}, {\"point\": 1, \"threads\": 2, "
	       "\"params\": {}, \"placement\": \"\\u001b[31m\", \"status\": \"ok\"}, "
	       "{\"point\": 2, \"threads\": 4, \"params\": {}, \"placement\": \"\\u001b[31m\", "
	       "\"status\": \"skipped\", \"reason\": \"\\u001b[2K\\rOK fake\"}]}]}\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 0);
	ho_no_esc("analyze stdout", out);
	ho_no_esc("analyze stderr", err);
	if (!out || !strstr(out, "\\x1b[2K"))
		TL__FAIL("analyze stdout lacks the escaped form \\x1b[2K: %s", out ? out : "");
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare R R", &out, &err), 0);
	ho_no_esc("compare stdout", out);
	ho_no_esc("compare stderr", err);
	if (!out || !strstr(out, "\\x1b"))
		TL__FAIL("compare stdout lacks the escaped form \\x1b: %s", out ? out : "");
	free(out);
	free(err);
}

/* No line of s starts with forged (a newline from a file that began a row of its own). */
static void ho_no_line(const char *what, const char *s, const char *forged)
{
	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		if (!strncmp(p, forged, strlen(forged))) {
			TL__FAIL("%s has a line of its own starting with %s: %s", what, forged, s);
			return;
		}
}

/* A newline in an experiment's name, a params value or a work unit stays on its line, as \n,
 * in the column headers of `lab analyze` and in every line of `lab compare` (a forged row
 * "improved" printed as one of compare's own). */
LAB_TEST(text_output_keeps_newlines_on_their_line)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("N");
	ho_str("N/samples.csv", HO_HEADER
	       "\"e\nFAKE exp\",0,noop,\"p=1\nFAKE row\",1,0,1000,10,\"op\nFAKE unit\",0,0\n"
	       "\"e\nFAKE exp\",0,noop,\"p=1\nFAKE row\",1,1,1010,10,\"op\nFAKE unit\",0,0\n"
	       "\"e\nFAKE exp\",1,noop,\"p=1\nFAKE row\",2,0,600,10,\"op\nFAKE unit\",0,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze N --no-plots", &out, &err), 0);
	ho_no_line("analyze stdout", out, "FAKE");
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare N N", &out, &err), 0);
	ho_no_line("compare stdout", out, "FAKE");
	if (!out || !strstr(out, "\\nFAKE row"))
		TL__FAIL("compare stdout lacks the escaped form \\n: %s", out ? out : "");
	free(out);
	free(err);
}

/* Matched points whose costs are not one quantity (a work unit or kernel edited in one of the
 * directories) are not compared: "not comparable", never a change of -90 %; the footer names
 * both units, not the old side's alone. */
LAB_TEST(compare_refuses_unlike_costs)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("U1");
	ho_mkdir("U2");
	ho_str("U1/samples.csv",
	       HO_HEADER "e,0,noop,,1,0,1000,10,op,0,0\ne,0,noop,,1,1,1010,10,op,0,0\n");
	ho_str("U2/samples.csv",
	       HO_HEADER "e,0,noop,,1,0,100,10,line,0,0\ne,0,noop,,1,1,101,10,line,0,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "compare U1 U2", &out, &err), 0);
	if (!out || !strstr(out, "not comparable: another unit of work") ||
	    strstr(out, "improved ") ||
	    !strstr(out, "e: mean cost in ns/op (old), ns/line (new)\n"))
		TL__FAIL("compare stdout: %s", out ? out : "");
	free(out);
	free(err);
}

/* The same point as a team's time in one directory and thread 0's, or none said, in the other:
 * not one quantity (a cost of one thread's units against the team's reads as a change of about
 * the threads); a directory that says no scope was compared as if it matched any. */
static void ho_scope_one(FILE *out, const char *line, void *ctx)
{
	(void)ctx;
	fprintf(out, "%s\n",
	        strstr(line, "\"work_scope\": \"team\"") ? "   \"work_scope\": \"one\"" : line);
}

static void ho_scope_none(FILE *out, const char *line, void *ctx)
{
	const char *s = strstr(line, "\"work_scope\"");

	(void)ctx;
	fprintf(out, "%s\n", s ? "   \"work_scope_\": 0" : line);
}

LAB_TEST(compare_refuses_unlike_or_unsaid_scopes)
{
	char *out = NULL, *err = NULL;

	char from[1024], to[1024];

	snprintf(from, sizeof(from), "%s/results-asymmetric", testlib_tmpdir());
	snprintf(to, sizeof(to), "%s/S1", testlib_tmpdir());
	clitest_copy("results-asymmetric");
	REQUIRE(rename(from, to) == 0);
	clitest_copy("results-asymmetric");
	REQUIRE(clitest_rewrite("results-asymmetric/run.json", ho_scope_one, NULL) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "compare S1 results-asymmetric", &out, &err), 0);
	CHECK(out && strstr(out, "not comparable: another scope (whose time the cost is)"));
	free(out);
	free(err);
	REQUIRE(clitest_rewrite("results-asymmetric/run.json", ho_scope_none, NULL) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "compare S1 results-asymmetric", &out, &err), 0);
	CHECK(out &&
	      strstr(out, "not comparable: new does not say whose time its cost is (no known "
	                  "work_scope)"));
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare results-asymmetric S1", &out, &err), 0);
	CHECK(out && strstr(out, "not comparable: old does not say"));
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare S1 S1", &out, &err), 0);
	CHECK(out && !strstr(out, "not comparable"));
	free(out);
	free(err);
}

/* A complete run's threads.csv deleted, emptied or cut in its header: the checks it feeds are
 * skipped, and the analyzer says so (it said nothing). A missing one is said only of a run.json
 * with "progress" (the lab that writes it writes threads.csv): a hand-made one may have none. */
LAB_TEST(complete_run_without_threads_csv_warns)
{
	static const char *const how[] = {"missing", "empty", "its header is cut",
	                                  "a header without rows"};

	for (int i = 0; i < 5; i++) {
		const char *dir = i < 4 ? "results-chapters" : "results-asymmetric";
		char path[2048], cmd[256], *out = NULL, *err = NULL;
		FILE *f;

		clitest_copy(dir);
		snprintf(path, sizeof(path), "%s/%s/threads.csv", testlib_tmpdir(), dir);
		if (i == 0 || i == 4)
			REQUIRE(unlink(path) == 0);
		else {
			REQUIRE((f = fopen(path, "w")) != NULL);
			fputs(i == 1 ? ""
			      : i == 2
			          ? "point,re"
			          : "point,rep,thread,cpu_start,cpu_end,start_ns,end_ns,work\n",
			      f);
			fclose(f);
		}
		snprintf(cmd, sizeof(cmd), "analyze %s --no-plots", dir);
		CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
		if (i < 4)
			CHECK(err && strstr(err, how[i]) &&
			      strstr(err, "though run.json says the run completed"));
		else
			CHECK(!err || !strstr(err, "threads.csv"));
		free(out);
		free(err);
	}
}

/* One sample a side: no interval and no test. A threefold change read "-66.67% [no interval]
 * p 1 no change", a verdict (and a p-value) no test had found. */
LAB_TEST(compare_one_sample_is_untested)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("O1");
	ho_mkdir("O2");
	ho_str("O1/samples.csv", HO_HEADER "e,0,noop,,1,0,3000,10,op,0,0\n");
	ho_str("O2/samples.csv", HO_HEADER "e,0,noop,,1,0,1000,10,op,0,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "compare O1 O2", &out, &err), 0);
	if (!out || !strstr(out, "-66.67% [no interval]") ||
	    !strstr(out, "untested (one sample a side)") || strstr(out, " 1         no change") ||
	    !strstr(out, "0 no change, 0 unmatched, 1 untested: one sample on a side"))
		TL__FAIL("compare stdout: %s", out ? out : "");
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare O1 O2 --json", &out, &err), 0);
	if (!out || !strstr(out, "\"untested\": 1") || !strstr(out, "\"p_value\": null"))
		TL__FAIL("compare --json: %s", out ? out : "");
	free(out);
	free(err);
}

/* An old mean not told apart from 0 under a new one that is: the change's interval is Fieller's
 * ray, [lo, unbounded) (it printed "[no interval]", as for one sample a side, beside the JSON's
 * [lo, null]). */
LAB_TEST(compare_one_sided_interval_printed)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("R1");
	ho_mkdir("R2");
	ho_str("R1/samples.csv", HO_HEADER "e,0,noop,,1,0,1000,10,op,0,0\n"
	                                   "e,0,noop,,1,1,1010,10,op,0,0\n"
	                                   "e,0,noop,,1,2,5000000,10,op,0,0\n");
	ho_str("R2/samples.csv", HO_HEADER "e,0,noop,,1,0,2000,10,op,0,0\n"
	                                   "e,0,noop,,1,1,2010,10,op,0,0\n"
	                                   "e,0,noop,,1,2,1990,10,op,0,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "compare R1 R2", &out, &err), 0);
	if (!out || !strstr(out, "%, unbounded)") || strstr(out, "[no interval]"))
		TL__FAIL("compare stdout: %s", out ? out : "");
	free(out);
	free(err);
}

/* Runs of two machines: a note says so, in the text and the JSON (a change read as the code's
 * when the other run had 2 PUs instead of 64). */
LAB_TEST(compare_says_other_machine)
{
	char *out = NULL, *err = NULL, *run, *at;

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	run = clitest_read("results-compare-b/run.json");
	REQUIRE(run && (at = strstr(run, "\"hostname\": \"fixture\"")));
	memcpy(at + strlen("\"hostname\": \""), "elsewh", 6);
	ho_str("results-compare-b/run.json", run);
	free(run);
	CHECK_EQ_I64(clitest_run(NULL, "compare results-compare-a results-compare-a", &out, &err),
	             0);
	CHECK(out && !strstr(out, "different machines"));
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err),
	             0);
	if (!out || !strstr(out, "note: the runs were on different machines (old: fixture, ") ||
	    !strstr(out, "; new: elsewhe, "))
		TL__FAIL("compare stdout: %s", out ? out : "");
	free(out);
	free(err);
	CHECK_EQ_I64(
	    clitest_run(NULL, "compare results-compare-a results-compare-b --json", &out, &err), 0);
	CHECK(out && strstr(out, "\"hosts\": {") && strstr(out, "\"differ\": true"));
	free(out);
	free(err);
	/* a side that does not name its machine is not said to be another one */
	run = clitest_read("results-compare-b/run.json");
	REQUIRE(run && (at = strstr(run, "\"hostname\"")));
	memcpy(at, "\"hostnamX\"", 10);
	ho_str("results-compare-b/run.json", run);
	free(run);
	CHECK_EQ_I64(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err),
	             0);
	CHECK(out && !strstr(out, "different machines"));
	free(out);
	free(err);
}

/* Costs of 2^-64 and 2^63 per unit (the extremes samples.csv allows: a work of 2^64 - 1, 2^64
 * as a double, in 1 ns, 2^63 ns for one unit): a change of 1.7e40 % is a few digits wide, not
 * dozens; large costs that triple are a regression whatever the unit (near 1e80, before the
 * 64-bit bounds, the Welch df squared variances to inf, lost the p-value and said no change). */
LAB_TEST(compare_at_extreme_scales)
{
	char *out = NULL, *err = NULL;

	ho_mkdir("A");
	ho_mkdir("B");
	ho_str("A/run.json", HO_RUN);
	ho_str("B/run.json", HO_RUN);
	ho_str("A/samples.csv",
	       HO_HEADER "e,0,noop,placement=compact,1,0,1,18446744073709551615,op,"
	                 "0,0\n"
	                 "e,1,noop,placement=compact,2,0,1e18,1,op,0,0\n"
	                 "e,1,noop,placement=compact,2,1,1.02e18,1,op,0,0\n"
	                 "e,1,noop,placement=compact,2,2,0.98e18,1,op,0,0\n");
	ho_str("B/samples.csv", HO_HEADER "e,0,noop,placement=compact,1,0,9223372036854775808,1,op,"
	                                  "0,0\n"
	                                  "e,1,noop,placement=compact,2,0,3e18,1,op,0,0\n"
	                                  "e,1,noop,placement=compact,2,1,3.06e18,1,op,0,0\n"
	                                  "e,1,noop,placement=compact,2,2,2.94e18,1,op,0,0\n");
	CHECK_EQ_I64(clitest_run(NULL, "compare A B", &out, &err), 0);
	if (!out || !strstr(out, "+1.7e+40% [no interval]"))
		TL__FAIL("the huge change is not short: %s", out ? out : "");
	if (!out || !strstr(out, "regressed"))
		TL__FAIL("tripled costs near 1e18 are not a regression: %s", out ? out : "");
	free(out);
	free(err);
}

static void ho_expect_bad_cost(const char *rows, const char *want)
{
	char text[2048], *out = NULL, *err = NULL;

	snprintf(text, sizeof(text), "%s%s", HO_HEADER, rows);
	ho_mkdir("R");
	ho_str("R/samples.csv", text);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, want))
		TL__FAIL("rows '%s': stderr lacks '%s': %s", rows, want, err ? err : "");
	ho_no_esc("out", out);
	if (out && (strstr(out, "inf") || strstr(out, "nan") || strstr(out, "SUPERLINEAR")))
		TL__FAIL("rows '%s' printed a non-finite value: %s", rows, out);
	free(out);
	free(err);
}

LAB_TEST(nonfinite_cost_is_input_error)
{
	ho_expect_bad_cost("e,0,noop,,1,0,1.5,1,op,0,0\n",
	                   "samples.csv:2: elapsed_ns = '1.5': allowed: a whole number");
	ho_expect_bad_cost(
	    "e,0,noop,,1,0,1e308,1,op,0,0\n",
	    "samples.csv:2: elapsed_ns = '1e308': allowed: a whole number of ns, 1 .. "
	    "2^63");
	ho_expect_bad_cost("e,0,noop,,1,0,1,1e-300,op,0,0\n",
	                   "samples.csv:2: work = '1e-300': allowed: a whole number of units");
	ho_expect_bad_cost("e,0,noop,,1,0,1000,10,op,0,0\n"
	                   "e,1,noop,,2,0,1,1e300,op,0,0\n",
	                   "samples.csv:3: work = '1e300': allowed: a whole number of units, 1 .. "
	                   "2^64 - 1");
	/* --csv: a throughput whose cost 1/X overflows */
	{
		char *out = NULL, *err = NULL;

		ho_str("x.csv", "threads,throughput\n1,1e-320\n2,2\n");
		CHECK_EQ_I64(clitest_run(NULL, "analyze --csv x.csv", &out, &err), 2);
		if (!err || !strstr(err, "x.csv:2:"))
			TL__FAIL("stderr: %s", err ? err : "");
		free(out);
		free(err);
	}
}

LAB_TEST(input_links_not_followed)
{
	char *out = NULL, *err = NULL, a[2048], b[2048];

	ho_mkdir("outside");
	ho_str("outside/samples.csv", HO_HEADER "secret,0,noop,,1,0,1000,10,op,0,0\n");
	ho_mkdir("R");
	snprintf(a, sizeof(a), "%s/outside/samples.csv", testlib_tmpdir());
	snprintf(b, sizeof(b), "%s/R/samples.csv", testlib_tmpdir());
	REQUIRE(symlink(a, b) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "R/samples.csv: a symbolic link"))
		TL__FAIL("stderr: %s", err ? err : "");
	CHECK(!out || !strstr(out, "secret"));
	free(out);
	free(err);
	/* run.json as a link: bad input too, not read, nothing analyzed (exit 2) */
	unlink(b);
	ho_results_small();
	ho_str("outside/run.json", HO_RUN);
	snprintf(a, sizeof(a), "%s/outside/run.json", testlib_tmpdir());
	snprintf(b, sizeof(b), "%s/R/run.json", testlib_tmpdir());
	unlink(b);
	REQUIRE(symlink(a, b) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "R/run.json: a symbolic link"))
		TL__FAIL("stderr: %s", err ? err : "");
	CHECK(!clitest_exists("R/summary.csv"));
	free(out);
	free(err);
	/* threads.csv as a link that leads nowhere: a link too (it was taken for an absent file) */
	unlink(b);
	ho_results_small();
	snprintf(b, sizeof(b), "%s/R/threads.csv", testlib_tmpdir());
	unlink(b);
	REQUIRE(symlink("/nonexistent/threads.csv", b) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "R/threads.csv: a symbolic link"))
		TL__FAIL("stderr: %s", err ? err : "");
	CHECK(!clitest_exists("R/summary.csv"));
	free(out);
	free(err);
	/* samples.csv a directory or a FIFO: bad input, exit 2, without waiting for a writer */
	unlink(b);
	ho_results_small();
	snprintf(b, sizeof(b), "%s/R/samples.csv", testlib_tmpdir());
	REQUIRE(unlink(b) == 0 && mkfifo(b, 0600) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "R/samples.csv: not a regular file (a FIFO"))
		TL__FAIL("stderr: %s", err ? err : "");
	free(out);
	free(err);
	REQUIRE(unlink(b) == 0 && mkdir(b, 0700) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze R --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "R/samples.csv: not a regular file (a directory"))
		TL__FAIL("stderr: %s", err ? err : "");
	free(out);
	free(err);
}

static void ho_csv_bad(const char *text, const char *want)
{
	char *out = NULL, *err = NULL;

	ho_str("x.csv", text);
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv x.csv", &out, &err), 2);
	if (!err || !strstr(err, want))
		TL__FAIL("'%s': stderr lacks '%s': %s", text, want, err ? err : "");
	free(out);
	free(err);
}

LAB_TEST(csv_columns_strict)
{
	char *out = NULL, *err = NULL;

	ho_csv_bad("threads,seconds,seconds\n1,2,9\n2,1,9\n", "x.csv:1: column 'seconds' again");
	ho_csv_bad("threads,threads,seconds\n1,2,9\n2,1,9\n", "x.csv:1: column 'threads' again");
	ho_csv_bad("threads,seconds,colour\n1,2,red\n2,1,red\n",
	           "x.csv:1: unknown column 'colour'");
	ho_csv_bad("threads,seconds,throughput\n1,2,1\n2,1,2\n", "x.csv:1: column 'throughput'");
	ho_csv_bad("threads,seconds,\n1,2,\n2,1,\n", "x.csv:1: column 3 has no name");
	ho_str("x.csv", "seconds,rep,threads,series\n2,0,1,a\n1,0,2,a\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv x.csv", &out, &err), 0);
	free(out);
	free(err);
}

/* A rep column is read: each (series, threads, rep) once, as samples.csv refuses a repeated
 * (point, rep); a row given twice would count one measurement twice. */
LAB_TEST(csv_rep_once)
{
	char *out = NULL, *err = NULL;

	ho_csv_bad("threads,seconds,rep\n1,10,0\n1,11,0\n2,5,0\n",
	           "x.csv:3: threads 1 rep 0 again (first at line 2), allowed: one row per "
	           "threads and rep");
	ho_csv_bad("series,threads,seconds,rep\na,1,2,0\nb,1,2,0\na,2,1,0\na,1,3,0\n",
	           "x.csv:5: series 'a' threads 1 rep 0 again (first at line 2), allowed: one row "
	           "per series, threads and rep");
	ho_csv_bad("threads,seconds,rep\n1,10,0\n1,11,-1\n",
	           "x.csv:3: rep = '-1': allowed: a whole number >= 0");
	ho_csv_bad("threads,seconds,rep\n1,10,0\n1,11,\n", "x.csv:3: rep = '': allowed");
	/* the same rep in another series or at another thread count is no repeat */
	ho_str("x.csv", "series,threads,seconds,rep\na,1,2,0\nb,1,2,0\na,2,1,0\na,1,3,1\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv x.csv", &out, &err), 0);
	free(out);
	free(err);
}

/* samples.csv refuses a repeated (point, rep) the same way, wherever the copy is. */
LAB_TEST(samples_rep_once)
{
	ho_expect_bad_cost("e,0,noop,placement=compact,1,0,1000,10,op,0.01,0\n"
	                   "e,1,noop,placement=compact,2,0,600,10,op,0.01,0\n"
	                   "e,0,noop,placement=compact,1,1,1010,10,op,0.01,0\n"
	                   "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0\n",
	                   "R/samples.csv:5: point 0 rep 0 again (first at line 2), allowed: one "
	                   "row per point and rep");
}

LAB_TEST(stdout_write_errors)
{
	static const char *const cmd[] = {
	    "analyze R --no-plots --json > /dev/full",
	    "analyze R --no-plots > /dev/full",
	    "analyze R --no-plots --json >&-",
	    "compare R R > /dev/full",
	    "compare R R --json >&-",
	    "list --json > /dev/full",
	};
	char *err = NULL;

	ho_results_small();
	for (size_t i = 0; i < sizeof(cmd) / sizeof(cmd[0]); i++) {
		char sh[4096];
		int st;

		snprintf(sh, sizeof(sh), "cd %s && %s/lab/lab %s 2>err.txt", testlib_tmpdir(),
		         testlib_bindir(), cmd[i]);
		st = system(sh);
		snprintf(sh, sizeof(sh), "%s/err.txt", testlib_tmpdir());
		REQUIRE(lab_an_file_read(sh, &err, &(size_t){0}, NULL) == 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 1)
			TL__FAIL("lab %s: exit is not 1 (stderr: %s)", cmd[i], err);
		else if (!strstr(err, "cannot write standard output"))
			TL__FAIL("lab %s: stderr lacks 'cannot write standard output': %s", cmd[i],
			         err);
		free(err);
		err = NULL;
	}
	/* EPIPE (SIGPIPE ignored) stays silent */
	{
		char c[2048];
		int st;

		snprintf(
		    c, sizeof(c),
		    "cd %s && (trap '' PIPE; sleep 0.2; %s/lab/lab analyze R --no-plots --json "
		    "2>pipe-err.txt) | true",
		    testlib_tmpdir(), testlib_bindir());
		st = system(c);
		CHECK(WIFEXITED(st));
		snprintf(
		    c, sizeof(c),
		    "cd %s && (trap '' PIPE; sleep 0.2; %s/lab/lab analyze R --no-plots --json "
		    "2>>pipe-err.txt; echo $? >pipe-rc.txt) | true",
		    testlib_tmpdir(), testlib_bindir());
		CHECK(system(c) != -1);
		snprintf(c, sizeof(c), "%s/pipe-rc.txt", testlib_tmpdir());
		REQUIRE(lab_an_file_read(c, &err, &(size_t){0}, NULL) == 0);
		CHECK_EQ_STR(err, "0\n"); /* the analysis was done: its own code, not 1 */
		free(err);
		snprintf(c, sizeof(c), "%s/pipe-err.txt", testlib_tmpdir());
		REQUIRE(lab_an_file_read(c, &err, &(size_t){0}, NULL) == 0);
		CHECK(!strstr(err, "standard output"));
		free(err);
	}
}

/* SIGTERM (or SIGHUP: a closed terminal) while gnuplot renders: lab ends, and so does its gnuplot;
 * no temporary is left, and no private directory gnuplot rendered in. The analysis ends as one that
 * failed part-way: the earlier analysis's report.html does not stay beside the new files, what was
 * written is recorded (a later analysis removes it; the plots were left unlisted), and a line says
 * so. */
static void ho_signal_takes_gnuplot_down(int sig, const char *name)
{
	char cmd[8192], pidfile[2048], *text = NULL, *out = NULL, *err = NULL;
	size_t len;
	pid_t lab, gp = 0;
	int st;

	clitest_copy("results-usl");
	REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
	free(out);
	free(err);
	REQUIRE(clitest_exists("results-usl/report.html"));
	/* each start adds its pid: the one ended must be the last (the batch loop once started
	 * another gnuplot for the plots after the one it ended, and lab waited for it) */
	ho_fake_gnuplot("echo $$ >> \"$HO_LOG.pid\"; exec sleep 120");
	snprintf(pidfile, sizeof(pidfile), "%s/gnuplot-runs.log.pid", testlib_tmpdir());
	snprintf(cmd, sizeof(cmd),
	         "cd %s && %s exec %s/lab/lab analyze results-usl >/dev/null 2>term-err.txt",
	         testlib_tmpdir(), ho_env(NULL), testlib_bindir());
	lab = fork();
	REQUIRE(lab >= 0);
	if (lab == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	/* wait for the fake gnuplot to start (bounded; not a timing assertion) */
	for (int i = 0; i < 600 && !gp; i++) {
		if (lab_an_file_read(pidfile, &text, &len, NULL) == 0 && len > 1)
			gp = (pid_t)atol(text);
		free(text);
		text = NULL;
		if (!gp)
			usleep(100000);
	}
	REQUIRE(gp > 0);
	kill(lab, sig);
	REQUIRE(waitpid(lab, &st, 0) == lab);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sig);
	for (int i = 0; i < 100 && kill(gp, 0) == 0; i++)
		usleep(100000);
	if (kill(gp, 0) == 0) {
		TL__FAIL("gnuplot (pid %d) still runs after lab got %s", (int)gp, name);
		kill(gp, SIGKILL);
	}
	REQUIRE(lab_an_file_read(pidfile, &text, &len, NULL) == 0);
	if (strchr(text, '\n') != text + len - 1)
		TL__FAIL("gnuplot started again after %s: pids %s", name, text);
	free(text);
	text = NULL;
	CHECK_EQ_U64(ho_count("results-usl", ".lab-tmp"), 0);
	/* nor gnuplot's private directory (analyze/plots_render.c) */
	CHECK_EQ_U64(ho_count("results-usl/plots", ".lab-tmp"), 0);
	snprintf(cmd, sizeof(cmd), "%s/term-err.txt", testlib_tmpdir());
	REQUIRE(lab_an_file_read(cmd, &err, &len, NULL) == 0);
	snprintf(cmd, sizeof(cmd), "interrupted (%s)", name);
	if (!strstr(err, "are incomplete: writing stopped part-way") || !strstr(err, cmd))
		TL__FAIL("stderr: %s", err);
	free(err);
	CHECK(!clitest_exists("results-usl/report.html"));
	snprintf(cmd, sizeof(cmd), "%s/results-usl/analysis-files.txt", testlib_tmpdir());
	REQUIRE(lab_an_file_read(cmd, &text, &len, NULL) == 0);
	CHECK(strstr(text, "summary.csv") && strstr(text, ".gp\t"));
	free(text);
}

LAB_TEST(sigterm_takes_gnuplot_down)
{
	ho_signal_takes_gnuplot_down(SIGTERM, "SIGTERM");
}

/* A hangup was not handled: new and old outputs stayed mixed, temporaries and gnuplot left. */
LAB_TEST(sighup_takes_gnuplot_down)
{
	ho_signal_takes_gnuplot_down(SIGHUP, "SIGHUP");
}

/* Red team: a run.json past the size limit was read whole before it was refused (1.2 GB: 7 s,
 * 1.6 GB of memory). Its size is read first now: a sparse file of 1 GiB + 1 is refused by
 * size, not at the NUL bytes of its hole. */
LAB_TEST(oversized_run_json_refused_by_size)
{
	char path[2048], *out = NULL, *err = NULL;
	int fd;

	clitest_copy("results-usl");
	snprintf(path, sizeof(path), "%s/results-usl/run.json", testlib_tmpdir());
	REQUIRE((fd = open(path, O_WRONLY)) >= 0);
	REQUIRE(ftruncate(fd, ((off_t)1 << 30) + 1) == 0);
	close(fd);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err), 2);
	if (!err || !strstr(err, "run.json: larger than 1 GiB, allowed: at most that"))
		TL__FAIL("stderr: %s", err ? err : "(none)");
	free(out);
	free(err);
}

/* Red team: a gnuplot that exits 0 having drawn nothing was counted as having drawn every
 * plot ("1 plots ... (.svg, .png, .dat, .gp)" with no image in plots/). */
LAB_TEST(gnuplot_drawing_nothing_said)
{
	char *out = NULL, *err = NULL;

	clitest_copy("results-usl");
	ho_fake_gnuplot("exit 0");
	REQUIRE(clitest_run(ho_env(NULL), "analyze results-usl", &out, &err) == 0);
	CHECK_EQ_U64(ho_count("results-usl/plots", ".png"), 0);
	if (!err || !strstr(err, "gnuplot drew no image for ") ||
	    !strstr(err, "(.dat and .gp only)"))
		TL__FAIL("stderr: %s", err ? err : "(none)");
	free(out);
	free(err);
}

/* A row that ends with an empty field loses it (its last comma). */
static void ho_drop_empty_run(FILE *out, const char *line, void *ctx)
{
	size_t n = strlen(line);

	(void)ctx;
	fprintf(out, "%.*s\n", (int)(n && line[n - 1] == ',' ? n - 1 : n), line);
}

/* Red team: rows removed from a copy of a complete run (samples.csv kept its other points')
 * were analyzed as the whole point without a word; now one warning names the first. */
/* samples.csv: the header only. */
static void ho_header_only(FILE *out, const char *line, void *ctx)
{
	int *first = ctx;

	if ((*first)++ == 0)
		fprintf(out, "%s\n", line);
}

/* Every row of a complete run removed: each point's row says its rows are gone, not that the
 * run was interrupted (it read "no samples recorded (interrupted run?)", and compare "not
 * reached: the run was interrupted"). */
LAB_TEST(rows_all_removed_from_complete_run_said)
{
	char *out = NULL, *err = NULL;
	int first = 0;

	clitest_copy("results-compare-a");
	REQUIRE(clitest_rewrite("results-compare-a/samples.csv", ho_header_only, &first) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-compare-a --no-plots", &out, &err) == 0);
	CHECK(out &&
	      strstr(out, "missing: no rows in samples.csv, though the complete run says it "
	                  "ran ok (removed after the run?)") &&
	      !strstr(out, "interrupted"));
	free(out);
	free(err);
	clitest_copy("results-compare-b");
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(out &&
	      strstr(out, "not in old's samples.csv, though its complete run says it ran ok") &&
	      !strstr(out, "interrupted"));
	free(out);
	free(err);
	first = 0; /* both sides' rows gone */
	REQUIRE(clitest_rewrite("results-compare-b/samples.csv", ho_header_only, &first) == 0);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(out &&
	      strstr(out, "not in either samples.csv, though both complete runs say it ran") &&
	      !strstr(out, "interrupted"));
	/* the summary counts them apart from points that did not run */
	CHECK(out && strstr(out, " not in a samples.csv whose complete run says they ran ok") &&
	      !strstr(out, "did not run (skipped, failed or not finished)"));
	free(out);
	free(err);
}

/* run.json: every point skipped (its rows are none). */
static void ho_all_skipped(FILE *out, const char *line, void *ctx)
{
	const char *at = strstr(line, "\"status\": \"ok\"");

	(void)ctx;
	if (at)
		fprintf(out, "%.*s\"status\": \"skipped\", \"reason\": \"x\"%s\n", (int)(at - line),
		        line, at + strlen("\"status\": \"ok\""));
	else
		fprintf(out, "%s\n", line);
}

/* Old's rows removed after its complete run, new's point skipped: both are said (it read "did
 * not run in either (skipped or failed)"). */
LAB_TEST(rows_gone_on_one_side_skipped_on_the_other)
{
	char *out = NULL, *err = NULL;
	int first = 0;

	clitest_copy("results-compare-a");
	clitest_copy("results-compare-b");
	REQUIRE(clitest_rewrite("results-compare-a/samples.csv", ho_header_only, &first) == 0);
	first = 0;
	REQUIRE(clitest_rewrite("results-compare-b/samples.csv", ho_header_only, &first) == 0);
	REQUIRE(clitest_rewrite("results-compare-b/run.json", ho_all_skipped, NULL) == 0);
	REQUIRE(clitest_run(NULL, "compare results-compare-a results-compare-b", &out, &err) == 0);
	CHECK(out &&
	      strstr(out, "not in old's samples.csv, though its complete run says it ran ok "
	                  "(removed after the run?); did not run in new (skipped)") &&
	      !strstr(out, "did not run in either"));
	free(out);
	free(err);
}

/* A c2c matrix whose rows were all removed after a complete run says so (it read "no pair's
 * point ran"). */
LAB_TEST(c2c_rows_removed_said)
{
	char *out = NULL, *err = NULL;
	int first = 0;

	clitest_copy("results-c2c");
	REQUIRE(clitest_rewrite("results-c2c/samples.csv", ho_header_only, &first) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-c2c --no-plots", &out, &err) == 0);
	CHECK(out &&
	      strstr(out, "no pair median: samples.csv has no rows of any pair, though the "
	                  "complete run says they ran ok") &&
	      !strstr(out, "no pair's point ran"));
	free(out);
	free(err);
}

LAB_TEST(rows_removed_from_complete_run_warned)
{
	char path[2048], *text = NULL, *out = NULL, *err = NULL, *cut;
	size_t len;

	clitest_copy("results-usl");
	snprintf(path, sizeof(path), "%s/results-usl/samples.csv", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &text, &len, NULL) == 0);
	/* drop the second row (point 0's rep 1 of 5) */
	REQUIRE((cut = strchr(strchr(text, '\n') + 1, '\n')));
	memmove(cut + 1, strchr(cut + 1, '\n') + 1, strlen(strchr(cut + 1, '\n') + 1) + 1);
	ho_str("results-usl/samples.csv", text);
	free(text);
	REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
	if (!err || !strstr(err, "1 point of this complete run has fewer samples in samples.csv "
	                         "than it counts (point 0, [contend] threads=1: 4 of 5)"))
		TL__FAIL("stderr: %s", err ? err : "(none)");
	free(out);
	free(err);
	clitest_copy("results-usl");
	REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
	CHECK(!err || !strstr(err, "fewer samples"));
	free(out);
	free(err);
	/* runs relabelled (point 0's run 2 said to be run 1): 2 runs of 3 analyzed as the whole
	 * point without a word; an empty run merged its samples into run 0 */
	clitest_copy("results-numa-runs");
	snprintf(path, sizeof(path), "%s/results-numa-runs/samples.csv", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &text, &len, NULL) == 0);
	for (char *row = text; (row = strstr(row, "\nlat,0,")); row++)
		if ((cut = strchr(row + 1, '\n')) && cut[-1] == '2' && cut[-2] == ',')
			cut[-1] = '1';
	ho_str("results-numa-runs/samples.csv", text);
	REQUIRE(clitest_run(NULL, "analyze results-numa-runs --no-plots", &out, &err) == 0);
	if (!err || !strstr(err, "1 point of this complete run has fewer runs of samples in "
	                         "samples.csv than it counts (point 0, [lat] threads=1: 2 of 3)"))
		TL__FAIL("stderr: %s", err ? err : "(none)");
	free(out);
	free(err);
	for (char *row = text; (row = strstr(row, "\nlat,0,")); row++)
		if ((cut = strchr(row + 1, '\n')) && cut[-1] == '1' && cut[-2] == ',')
			memmove(cut - 1, cut, strlen(cut) + 1); /* the run left empty */
	ho_str("results-numa-runs/samples.csv", text);
	free(text);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-numa-runs --no-plots", &out, &err), 2);
	CHECK(err &&
	      strstr(err, "results-numa-runs/samples.csv:8: run = '': allowed 0 .. 1000000"));
	free(out);
	free(err);
	/* and a row without the field (its last comma gone): said so, not "run = ''" */
	REQUIRE(clitest_rewrite("results-numa-runs/samples.csv", ho_drop_empty_run, NULL) == 0);
	CHECK_EQ_I64(clitest_run(NULL, "analyze results-numa-runs --no-plots", &out, &err), 2);
	CHECK(err && strstr(err, "results-numa-runs/samples.csv:8: no run field, allowed: a run 0 "
	                         ".. 1000000 on every row (the header names the column)"));
	free(out);
	free(err);
}

/* Two writers of one file (two `lab analyze` of one DIR): each has its own temporary, both
 * finish, the file is whole. */
LAB_TEST(temp_names_unique_per_writer)
{
	struct lab_an_wfile w1, w2;
	struct lab_err e = {0};
	char path[2048], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/summary.csv", testlib_tmpdir());
	REQUIRE(lab_an_wfile_open(&w1, path, &e));
	REQUIRE(lab_an_wfile_open(&w2, path, &e));
	CHECK(strcmp(w1.tmp, w2.tmp) != 0);
	fputs("one\n", w1.f);
	fputs("two\n", w2.f);
	CHECK_EQ_I64(lab_an_wfile_close(&w1, 1, &e), 0);
	CHECK_EQ_I64(lab_an_wfile_close(&w2, 1, &e), 0);
	REQUIRE(lab_an_file_read(path, &text, &len, NULL) == 0);
	CHECK_EQ_STR(text, "two\n");
	free(text);
	CHECK_EQ_U64(ho_count(".", ".lab-tmp"), 0);
}

/* The same through the command: four analyses of one DIR at once, three times; all succeed. */
LAB_TEST(concurrent_analyses_of_one_dir)
{
	char cmd[4096];
	int st;

	ho_results_small();
	snprintf(cmd, sizeof(cmd),
	         "cd %s && for i in 1 2 3; do for j in 1 2 3 4; do "
	         "(%s/lab/lab analyze R --no-plots >/dev/null 2>>conc-err.txt || echo fail >> "
	         "conc-fail.txt) & done; wait; done",
	         testlib_tmpdir(), testlib_bindir());
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(!clitest_exists("conc-fail.txt"));
	CHECK_EQ_U64(ho_count("R", ".lab-tmp"), 0);
}

/* run.json's host name replaced by 200 000 bytes: report.html shows the first 400 bytes of a
 * provenance string, saying how much more there was (a 30 MB host name made a report of
 * 30 MB). */
static void ho_long_host(FILE *out, const char *line, void *ctx)
{
	(void)ctx;
	if (strstr(line, "\"hostname\"")) {
		fputs("  \"hostname\": \"", out);
		for (int i = 0; i < 200000; i++)
			fputc('h', out);
		fputs("\",\n", out);
	} else
		fprintf(out, "%s\n", line);
}

LAB_TEST(report_cuts_long_provenance)
{
	char *out = NULL, *err = NULL, *html;
	struct stat st;
	char path[2048];

	clitest_copy("results-usl");
	REQUIRE(clitest_rewrite("results-usl/run.json", ho_long_host, NULL) == 0);
	REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
	REQUIRE((html = clitest_read("results-usl/report.html")));
	CHECK(strstr(html, "hhhh <i>... (199600 bytes more)</i>") != NULL);
	snprintf(path, sizeof(path), "%s/results-usl/report.html", testlib_tmpdir());
	REQUIRE(stat(path, &st) == 0);
	CHECK(st.st_size < 150000);
	free(html);
	free(out);
	free(err);
}

/* run.json's self-check spin time as ctx says. */
static void ho_spin(FILE *out, const char *line, void *ctx)
{
	if (strstr(line, "\"spin_50us_ns\""))
		fprintf(out, "  \"spin_50us_ns\": %s,\n", (const char *)ctx);
	else
		fprintf(out, "%s\n", line);
}

/* A self-check spin time no spin takes (1e308 was printed as 309 digits in report.html, a
 * negative one as read: hostile38) is said to be no reading. */
LAB_TEST(report_self_check_out_of_range)
{
	static const char *const v[] = {"1e308", "-5"};

	for (size_t i = 0; i < 2; i++) {
		char *out = NULL, *err = NULL, *html;

		clitest_copy("results-usl");
		REQUIRE(clitest_rewrite("results-usl/run.json", ho_spin, (void *)v[i]) == 0);
		REQUIRE(clitest_run(NULL, "analyze results-usl --no-plots", &out, &err) == 0);
		REQUIRE((html = clitest_read("results-usl/report.html")));
		CHECK(strstr(html, "50 us spin read") == NULL);
		CHECK(strstr(html, "50 us spin time (") != NULL &&
		      strstr(html, ") is no reading of one"));
		free(html);
		free(out);
		free(err);
	}
}

/* A speedup of 1 but for rounding (costs 1 and 1.0000000000000002: it prints as 1) has a serial
 * fraction of 1, not "speedup below 1" beside a speedup of 1 (red team). */
LAB_TEST(speedup_of_one_but_rounding)
{
	char *out = NULL, *err = NULL;

	ho_str("kf.csv", "threads,seconds\n1,1\n1,1\n2,1.0000000000000002\n2,1.0000000000000002\n");
	CHECK_EQ_I64(clitest_run(NULL, "analyze --csv kf.csv", &out, &err), 0);
	REQUIRE(out);
	CHECK(strstr(out, "speedup below 1") == NULL);
	CHECK(strstr(out, "0.5 [0.5, 0.5]       1 [1, 1]") != NULL);
	free(out);
	free(err);
}
