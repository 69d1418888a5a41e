/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's output files in an untrusted results directory. A hard link planted under an
 * output's name (summary.csv, a plot's .dat/.gp/.png, render-batch.gnuplot, gnuplot.log) is
 * replaced, never written through: the file it links to keeps its bytes. The record
 * (analysis-files.txt, analyze/manifest.h) lets the next analysis remove what an earlier one
 * wrote and this one does not (old views' CSV files and plots), never a user's own file, never
 * an input, never through a link, whatever a crafted record lists. The report embeds only SVGs
 * rendered by this analysis. A failed re-analysis says that the outputs left are an earlier
 * one's. A fake gnuplot on PATH (tmpdir/bin) stands in for the real one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/manifest.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define OT_PLOT "results-usl/plots/series00-contend-speedup-placement_compact"
/* The fake gnuplot's .png, a printf format: a PNG's end (its IEND chunk) after "fake png". */
#define OT_FAKE_PNG "fake png\\000\\000\\000\\000IEND\\256B`\\202"

static void ot_path(char *buf, size_t len, const char *rel)
{
	if ((size_t)snprintf(buf, len, "%s/%s", testlib_tmpdir(), rel) >= len)
		testlib_fail();
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

/* A gnuplot (tmpdir/bin) that renders each script its batch loads as a fake but whole .svg (its
 * closing tag) and .png (its IEND chunk) in its working directory and says so on stdout (its
 * log); with skip, the plot whose base is skip gets no .svg; with cut, every image is cut short
 * (an empty .png, an .svg without its end: gnuplot on a full disk, exiting 0). */
static void ot_fake_gnuplot_as(const char *skip, int cut)
{
	char text[2048], path[2048];

	ot_mkdir("bin");
	snprintf(text, sizeof(text),
	         "#!/bin/sh\n"
	         "for f in $(sed -n \"s/^load '\\(.*\\)\\.gp'$/\\1/p\" \"$1\"); do\n"
	         "  echo \"rendered $f\"\n"
	         "  [ \"$f\" = '%s' ] || printf '%s' > \"$f.svg\"\n"
	         "  printf '%s' > \"$f.png\"\n"
	         "done\n",
	         skip ? skip : "", cut ? "<svg>fake" : "<svg>fake</svg>\\n",
	         cut ? "" : OT_FAKE_PNG);
	ot_write("bin/gnuplot", text);
	ot_path(path, sizeof(path), "bin/gnuplot");
	chmod(path, 0755);
}

static void ot_fake_gnuplot(const char *skip)
{
	ot_fake_gnuplot_as(skip, 0);
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
	                                  "results-usl/report.html",
	                                  "results-usl/analysis-files.txt"};
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
	CHECK_EQ_STR(text, "fake png"); /* then the IEND chunk, from a NUL on */
	free(text);
	text = ot_read("results-usl/plots/gnuplot.log");
	CHECK(strstr(text, "rendered series00-contend-speedup-placement_compact") != NULL);
	free(text);
	CHECK_EQ_U64(clitest_count("results-usl/plots", ".lab-tmp", NULL), 0);
}

/* Replaces DIR's data with fixture from's (another set of experiments). */
static void ot_swap_data(const char *dir, const char *from)
{
	static const char *const f[] = {"run.json", "samples.csv", "config.ini"};
	char src[2048], dst[2048], *buf = NULL;
	size_t len;

	for (size_t i = 0; i < 3; i++) {
		snprintf(src, sizeof(src), "%s/tests/fixtures/%s/%s", testlib_srcdir(), from, f[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, f[i]);
		REQUIRE(lab_an_file_read(src, &buf, &len, NULL) == 0);
		ot_write(dst, buf);
		free(buf);
	}
}

/* The data changes (the locks experiments are gone): the locks view's CSV file and plots of the
 * first analysis go, the user's own files stay. */
LAB_TEST(stale_outputs_removed_user_files_kept)
{
	static const char *const mine[] = {"results-locks/plots/notes.txt",
	                                   "results-locks/plots/important.png",
	                                   "results-locks/mydata.csv", "results-locks/notes.gp"};
	char *record;

	clitest_copy("results-locks");
	ot_fake_gnuplot(NULL);
	ot_lab("analyze results-locks", 0, NULL);
	REQUIRE(clitest_exists("results-locks/locks_points.csv"));
	REQUIRE(clitest_count("results-locks/plots", "locks", ".png", NULL) > 0);
	for (size_t i = 0; i < 4; i++)
		ot_write(mine[i], "precious\n");
	ot_swap_data("results-locks", "results-usl");
	ot_lab("analyze results-locks", 0, NULL);
	CHECK(!clitest_exists("results-locks/locks_points.csv"));
	CHECK_EQ_U64(clitest_count("results-locks/plots", "locks", NULL), 0);
	CHECK(clitest_count("results-locks/plots", "series", ".png", NULL) > 0);
	CHECK(clitest_exists("results-locks/stride_points.csv"));
	for (size_t i = 0; i < 4; i++)
		ot_precious(mine[i]);
	record = ot_read("results-locks/analysis-files.txt");
	CHECK(strstr(record, "locks") == NULL);
	CHECK(strstr(record, "\nplots/series00-contend-speedup-placement_compact.png\t") != NULL);
	CHECK(strstr(record, "\nsummary.csv\t") != NULL);
	free(record);
	/* --no-plots: the plots of the analysis before are not this one's */
	ot_lab("analyze results-locks --no-plots", 0, NULL);
	CHECK_EQ_U64(clitest_count("results-locks/plots", "series", NULL), 0);
	ot_precious("results-locks/plots/important.png");
}

/* "\tSIZE\tMTIME_NS" of REL as the record writes it (plus add to the size: a wrong stamp). */
static const char *ot_stamp(const char *rel, int add, char *buf, size_t len)
{
	char path[2048];
	struct stat st;

	ot_path(path, sizeof(path), rel);
	if (lstat(path, &st) != 0)
		testlib_fail();
	snprintf(buf, len, "\t%llu\t%llu", (unsigned long long)st.st_size + (unsigned)add,
	         (unsigned long long)st.st_mtim.tv_sec * 1000000000ull +
	             (unsigned long long)st.st_mtim.tv_nsec);
	return buf;
}

/* A crafted record: inputs, paths out of DIR, a user's files, links and directories under
 * analyzer names. Only regular files named as the analyzer names its own outputs, of the size
 * and mtime the record gives (as when it was written), go. */
LAB_TEST(record_is_untrusted)
{
	char rec[4096], path[2048], link_at[2048], s1[64], s2[64], s3[64], s4[64], *err = NULL;

	clitest_copy("results-usl");
	ot_mkdir("results-usl/plots");
	ot_mkdir("results-usl/plots/sub");
	ot_mkdir("results-usl/plots/locks00-dir.png");
	ot_write("victim", "precious\n");
	ot_write("results-usl/plots/notes.txt", "precious\n");
	ot_write("results-usl/plots/important.png", "precious\n");
	ot_write("results-usl/plots/sub/locks00-x-y.png", "precious\n");
	ot_write("results-usl/mydata.csv", "precious\n");
	ot_write("results-usl/locks.txt", "precious\n");
	ot_write("results-usl/plots/locks00-old-plot.png", "stale\n");
	ot_write("results-usl/locks_points.csv", "stale\n");
	ot_hardlink("victim", "results-usl/plots/locks01-hard-link.png");
	/* a user's files of analyzer names: none listed with its stamp */
	ot_write("results-usl/c2c_points.csv", "precious\n");
	ot_write("results-usl/atomics_points.csv", "precious, made after the record\n");
	ot_path(path, sizeof(path), "victim");
	ot_path(link_at, sizeof(link_at), "results-usl/c2c_x.csv");
	REQUIRE(symlink(path, link_at) == 0);
	snprintf(rec, sizeof(rec),
	         "run.json\nsamples.csv\nconfig.ini\nthreads.csv\n../victim\n%s\n"
	         "plots/../../victim\nplots/notes.txt\nplots/important.png\nmydata.csv\n"
	         "locks.txt\nplots/sub/locks00-x-y.png\nplots/locks00-dir.png\nc2c_x.csv\n"
	         "plots\n/results-usl/locks_points.csv\n.\n\nplots/locks00-old-plot.png%s\n"
	         "plots/locks01-hard-link.png%s\nlocks_points.csv%s\nc2c_points.csv\n"
	         "atomics_points.csv%s\n",
	         path, ot_stamp("results-usl/plots/locks00-old-plot.png", 0, s1, sizeof(s1)),
	         ot_stamp("results-usl/plots/locks01-hard-link.png", 0, s2, sizeof(s2)),
	         ot_stamp("results-usl/locks_points.csv", 1, s3, sizeof(s3)),
	         ot_stamp("results-usl/locks_points.csv", 0, s4, sizeof(s4)));
	ot_write("results-usl/analysis-files.txt", rec);
	ot_fake_gnuplot(NULL);
	ot_lab("analyze results-usl", 0, &err);
	CHECK(strstr(err, "names ignored (not files the analyzer writes)") != NULL);
	free(err);
	ot_precious("victim");
	ot_precious("results-usl/plots/notes.txt");
	ot_precious("results-usl/plots/important.png");
	ot_precious("results-usl/plots/sub/locks00-x-y.png");
	ot_precious("results-usl/mydata.csv");
	ot_precious("results-usl/locks.txt");
	CHECK(clitest_exists("results-usl/run.json") && clitest_exists("results-usl/samples.csv"));
	CHECK(clitest_exists("results-usl/config.ini"));
	CHECK(clitest_exists("results-usl/plots/locks00-dir.png"));
	CHECK(clitest_exists("results-usl/c2c_x.csv")); /* a link: not removed */
	ot_precious("results-usl/c2c_points.csv");
	CHECK(clitest_exists("results-usl/atomics_points.csv"));
	CHECK(clitest_exists("results-usl/locks_points.csv")); /* its size differs */
	/* what the analyzer would have written, regular files as recorded: removed (the name) */
	CHECK(!clitest_exists("results-usl/plots/locks00-old-plot.png"));
	CHECK(!clitest_exists("results-usl/plots/locks01-hard-link.png"));
}

LAB_TEST(record_names)
{
	static const char *const ok[] = {
	    "summary.csv",
	    "analysis.json",
	    "report.html",
	    "fleet-analysis.json",
	    "locks_points.csv",
	    "counters.csv",
	    "c2c_matrix.csv",
	    "omp_overhead_points.csv",
	    "plots/gnuplot.log",
	    "plots/render-batch.gnuplot",
	    "plots/series00-contend-speedup-placement_compact.svg",
	    "plots/c2c00-c2c-batch_256.png",
	    "plots/perf_c2c12-x.dat",
	    "plots/fs_layout100-a.b-c.gp",
	    "plots/fleet-01-fs-layout_stride.png",
	};
	static const char *const bad[] = {
	    "",
	    "run.json",
	    "samples.csv",
	    "threads.csv",
	    "config.ini",
	    "fleet.json",
	    "analysis-files.txt",
	    "mydata.csv",
	    "locks.txt",
	    "locks_.csv",
	    "locks_a.b.csv",
	    ".summary.csv",
	    "/summary.csv",
	    "../summary.csv",
	    "x/summary.csv",
	    "plots",
	    "plots/",
	    "plots/notes.txt",
	    "plots/important.png",
	    "plots/locks0-x.png",
	    "plots/locks00x.png",
	    "plots/locks00-.png",
	    "plots/locks00-x.txt",
	    "plots/locks00-x.csv",
	    "plots/nolock00-x.png",
	    "plots/sub/locks00-x.png",
	    "plots/../locks00-x.png",
	    "plots/locks00-a..b.png",
	    "plots/.locks00-x.png",
	    "plots/locks00-x y.png",
	    "plots/fleet01-x.png",
	    "plots//locks00-x.png",
	    "plotsx/locks00-x.png",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!lab_an_manifest_name_ok(ok[i]))
			TL__FAIL("'%s' refused", ok[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (lab_an_manifest_name_ok(bad[i]))
			TL__FAIL("'%s' accepted", bad[i]);
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
	CHECK(strstr(report, "data:image/svg+xml;base64,PHN2Zz5mYWtlPC9zdmc+Cg==") != NULL);
	CHECK(strstr(report, "PHN2Zz5TVEFMRTwvc3ZnPg") == NULL); /* base64 of the stale file */
	free(report);
}

/* gnuplot exits 0 on a full disk with images cut short (an empty .png, an .svg without its
 * end): they are not moved into plots/ nor counted as drawn nor embedded, and a warning says
 * so (they were counted as 4 plots drawn, 7 of 8 images empty). */
LAB_TEST(cut_images_left_out)
{
	char *err = NULL, *report;

	clitest_copy("results-usl");
	ot_fake_gnuplot_as(NULL, 1);
	ot_lab("analyze results-usl", 0, &err);
	CHECK(strstr(err, "images left out of results-usl/plots: cut short or empty") != NULL);
	CHECK(strstr(err, "drew no image") == NULL);
	free(err);
	CHECK_EQ_U64(clitest_count("results-usl/plots", ".png", NULL), 0);
	CHECK_EQ_U64(clitest_count("results-usl/plots", ".svg", NULL), 0);
	report = ot_read("results-usl/report.html");
	CHECK(strstr(report, "data:image/svg+xml") == NULL);
	free(report);
}

/* A re-analysis that fails on its data writes nothing, and says that the outputs in DIR are
 * from an earlier analysis; a first analysis that fails says nothing of the kind. */
LAB_TEST(failed_reanalysis_says_outputs_are_earlier)
{
	char *err = NULL, *samples;

	clitest_copy("results-usl");
	samples = ot_read("results-usl/samples.csv");
	ot_write("results-usl/samples.csv",
	         "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	         "foreign_cpu,flagged\ne,zz,noop,,1,0,1000,10,op,0,0\n");
	ot_lab("analyze results-usl", 2, &err);
	CHECK(strstr(err, "earlier analysis") == NULL);
	free(err);
	/* nor when a link stands where report.html goes (refused: it is no analysis's output) */
	{
		char path[2048], link_at[2048];
		ot_write("victim", "precious\n");
		ot_path(path, sizeof(path), "victim");
		ot_path(link_at, sizeof(link_at), "results-usl/report.html");
		REQUIRE(symlink(path, link_at) == 0);
		ot_write("results-usl/samples.csv", samples);
		ot_lab("analyze results-usl --no-plots", 1, &err);
		CHECK(strstr(err, "earlier analysis") == NULL);
		free(err);
		unlink(link_at);
	}
	ot_write("results-usl/samples.csv", samples);
	free(samples);
	ot_fake_gnuplot(NULL);
	ot_lab("analyze results-usl", 0, NULL);
	ot_write("results-usl/samples.csv",
	         "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
	         "foreign_cpu,flagged\ne,zz,noop,,1,0,1000,10,op,0,0\n");
	ot_lab("analyze results-usl", 2, &err);
	CHECK(strstr(err, "point = 'zz'") != NULL);
	CHECK(strstr(err, "are from an earlier analysis: not updated") != NULL);
	free(err);
	CHECK(clitest_exists("results-usl/summary.csv"));
	CHECK(clitest_exists("results-usl/report.html"));
}

/* Writing stops part-way (files over 40 blocks of the shell's ulimit cannot be written:
 * summary.csv is, analysis.json is not): what stays is this analysis's alone, and a line says
 * it is incomplete; no plot or report of the analysis before is left beside it. */
LAB_TEST(failed_part_way_leaves_only_this_analysis)
{
	char *out = NULL, *err = NULL, *record;

	clitest_copy("results-usl");
	ot_fake_gnuplot(NULL);
	ot_lab("analyze results-usl", 0, NULL);
	REQUIRE(clitest_exists("results-usl/report.html"));
	CHECK_EQ_I64(clitest_run("trap '' XFSZ; ulimit -f 40;", "analyze results-usl --no-plots",
	                         &out, &err),
	             1);
	CHECK(strstr(err, "cannot write results-usl/analysis.json") != NULL);
	CHECK(strstr(err, "are incomplete: writing stopped part-way") != NULL);
	CHECK(clitest_exists("results-usl/summary.csv"));
	CHECK(!clitest_exists("results-usl/analysis.json"));
	CHECK(!clitest_exists("results-usl/report.html"));
	CHECK_EQ_U64(clitest_count("results-usl/plots", "series", NULL), 0);
	CHECK_EQ_U64(clitest_count("results-usl", ".lab-tmp", NULL), 0);
	record = ot_read("results-usl/analysis-files.txt");
	CHECK(strstr(record, "\nsummary.csv\t") != NULL);
	CHECK(strstr(record, "report.html") == NULL);
	free(record);
	free(out);
	free(err);
}
