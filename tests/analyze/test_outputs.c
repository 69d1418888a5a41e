/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's output files in an untrusted results directory. A hard link planted under an
 * output's name (summary.csv, a plot's .dat/.gp/.png, render-batch.gnuplot, gnuplot.log) is
 * replaced, never written through: the file it links to keeps its bytes. The report embeds only
 * SVGs rendered by this analysis. A fake gnuplot on PATH (tmpdir/bin) stands in for the real
 * one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define OT_PLOT "results-usl/plots/series00-contend-speedup-placement_compact"

static void ot_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", testlib_tmpdir(), rel);
}

static void ot_write(const char *rel, const char *text)
{
	char path[2048];
	FILE *f;

	ot_path(path, sizeof(path), rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		testlib_fail();
	}
}

/* The text of tmpdir/rel, malloc'd ("" when it cannot be read). */
static char *ot_read(const char *rel)
{
	char path[2048], *buf = NULL;
	size_t len;

	ot_path(path, sizeof(path), rel);
	if (lab_an_file_read(path, &buf, &len, NULL) != 0)
		return calloc(1, 1);
	return buf;
}

static void ot_mkdir(const char *rel)
{
	char path[2048];

	ot_path(path, sizeof(path), rel);
	mkdir(path, 0755);
}

/* tmpdir/rel is a hard link to tmpdir/to. */
static void ot_hardlink(const char *to, const char *rel)
{
	char a[2048], b[2048];

	ot_path(a, sizeof(a), to);
	ot_path(b, sizeof(b), rel);
	if (link(a, b) != 0) {
		fprintf(stderr, "link %s %s: failed\n", a, b);
		testlib_fail();
	}
}

/* A gnuplot (tmpdir/bin) that renders each script its batch loads as "fake svg" and "fake png"
 * files in its working directory and says so on stdout (its log); with skip, the plot whose
 * base is skip gets no .svg. */
static void ot_fake_gnuplot(const char *skip)
{
	char text[2048], path[2048];

	ot_mkdir("bin");
	snprintf(text, sizeof(text),
	         "#!/bin/sh\n"
	         "for f in $(sed -n \"s/^load '\\(.*\\)\\.gp'$/\\1/p\" \"$1\"); do\n"
	         "  echo \"rendered $f\"\n"
	         "  [ \"$f\" = '%s' ] || echo 'fake svg' > \"$f.svg\"\n"
	         "  echo 'fake png' > \"$f.png\"\n"
	         "done\n",
	         skip ? skip : "");
	ot_write("bin/gnuplot", text);
	ot_path(path, sizeof(path), "bin/gnuplot");
	chmod(path, 0755);
}

static const char *ot_env(void)
{
	static char env[4096];

	snprintf(env, sizeof(env), "PATH=%s/bin:$PATH", testlib_tmpdir());
	return env;
}

/* lab ARGS with the fake gnuplot; the exit code must be code. */
static void ot_lab(const char *args, int code, char **err_out)
{
	char *out = NULL, *err = NULL;
	int rc = clitest_run(ot_env(), args, &out, &err);

	if (rc != code)
		TL__FAIL("lab %s exited %d, expected %d: %s", args, rc, code, err ? err : "");
	free(out);
	if (err_out)
		*err_out = err;
	else
		free(err);
}

static void ot_precious(const char *rel)
{
	char *text = ot_read(rel);

	if (strcmp(text, "precious\n"))
		TL__FAIL("%s was written through a link: now '%.60s'", rel, text);
	free(text);
}

/* Every output name a hard link to a file outside DIR: each is replaced by a fresh file and
 * the files outside keep their bytes. */
LAB_TEST(hard_links_are_replaced_not_written_through)
{
	static const char *const out[] = {OT_PLOT ".png",
	                                  OT_PLOT ".svg",
	                                  OT_PLOT ".dat",
	                                  OT_PLOT ".gp",
	                                  "results-usl/plots/render-batch.gnuplot",
	                                  "results-usl/plots/gnuplot.log",
	                                  "results-usl/summary.csv",
	                                  "results-usl/report.html"};
	char victim[64], *text;
	struct stat st;
	char path[2048];

	clitest_copy("results-usl");
	ot_mkdir("results-usl/plots");
	ot_fake_gnuplot(NULL);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		snprintf(victim, sizeof(victim), "victim%zu", i);
		ot_write(victim, "precious\n");
		ot_hardlink(victim, out[i]);
	}
	ot_lab("analyze results-usl", 0, NULL);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		snprintf(victim, sizeof(victim), "victim%zu", i);
		ot_precious(victim);
		ot_path(path, sizeof(path), out[i]);
		CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1);
	}
	text = ot_read(OT_PLOT ".png");
	CHECK_EQ_STR(text, "fake png\n");
	free(text);
	text = ot_read("results-usl/plots/gnuplot.log");
	CHECK(strstr(text, "rendered series00-contend-speedup-placement_compact") != NULL);
	free(text);
	CHECK_EQ_U64(clitest_count("results-usl/plots", ".lab-tmp", NULL), 0);
}

/* A plot gnuplot did not render this time: the report does not embed an SVG left under its
 * name (here a file the analyzer did not write, so it also stays). */
LAB_TEST(report_embeds_only_fresh_svgs)
{
	char *report;

	clitest_copy("results-usl");
	ot_mkdir("results-usl/plots");
	ot_write(OT_PLOT ".svg", "<svg>STALE</svg>");
	ot_fake_gnuplot("series00-contend-speedup-placement_compact");
	ot_lab("analyze results-usl", 0, NULL);
	report = ot_read("results-usl/report.html");
	CHECK(strstr(report, "data:image/svg+xml;base64,ZmFrZSBzdmcK") != NULL);
	CHECK(strstr(report, "PHN2Zz5TVEFMRTwvc3ZnPg") == NULL); /* base64 of the stale file */
	free(report);
}
