/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Temporaries a killed analysis left behind (SIGKILL mid-write or mid-render) are removed by
 * the next `lab analyze` of the directory: only names exactly like the analyzer's own, only
 * regular files and gnuplot's private directory, only when their process is gone and they are
 * not fresh. A link named like a temporary is left alone, and so is what it points at.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/wfile.h"
#include "analyze/wstale.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

#define ST_TAG "0123456789abcdef"

/* A PID no process has: a child that has exited and been reaped. */
static long st_dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	if (p < 0 || waitpid(p, NULL, 0) != p) {
		fprintf(stderr, "fork/waitpid: %s\n", strerror(errno));
		abort();
	}
	return (long)p;
}

static char *st_path(const char *rel)
{
	static char path[4][2048];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", testlib_tmpdir(), rel);
	return path[i];
}

static void st_write(const char *rel, const char *text)
{
	FILE *f = fopen(st_path(rel), "w");

	REQUIRE(f != NULL);
	fputs(text, f);
	REQUIRE(fclose(f) == 0);
}

/* Sets rel's modification time an hour back (a link's own, not its target's). */
static void st_age(const char *rel)
{
	struct timespec t[2] = {{.tv_sec = time(NULL) - 3600}, {.tv_sec = time(NULL) - 3600}};

	REQUIRE(utimensat(AT_FDCWD, st_path(rel), t, AT_SYMLINK_NOFOLLOW) == 0);
}

static int st_is_link(const char *rel)
{
	struct stat st;

	return lstat(st_path(rel), &st) == 0 && S_ISLNK(st.st_mode);
}

LAB_TEST(temp_name_pattern_exact)
{
	CHECK_EQ_I64(lab_an_stale_pid(".summary.csv.123-" ST_TAG ".lab-tmp"), 123);
	CHECK_EQ_I64(lab_an_stale_pid(".render.4194304-" ST_TAG ".lab-tmp"), 4194304);
	CHECK_EQ_I64(lab_an_stale_pid(".a.1-" ST_TAG ".lab-tmp"), 1);
	CHECK_EQ_I64(lab_an_stale_pid("..1-" ST_TAG ".lab-tmp"), 0);            /* no stem */
	CHECK_EQ_I64(lab_an_stale_pid("a.1-" ST_TAG ".lab-tmp"), 0);            /* no dot */
	CHECK_EQ_I64(lab_an_stale_pid(".a.01-" ST_TAG ".lab-tmp"), 0);          /* leading 0 */
	CHECK_EQ_I64(lab_an_stale_pid(".a.-" ST_TAG ".lab-tmp"), 0);            /* no PID */
	CHECK_EQ_I64(lab_an_stale_pid(".a1-" ST_TAG ".lab-tmp"), 0);            /* no dot */
	CHECK_EQ_I64(lab_an_stale_pid(".a.1-0123456789ABCDEF.lab-tmp"), 0);     /* upper case */
	CHECK_EQ_I64(lab_an_stale_pid(".a.1-0123456789abcde.lab-tmp"), 0);      /* 15 digits */
	CHECK_EQ_I64(lab_an_stale_pid(".a.1_" ST_TAG ".lab-tmp"), 0);           /* not '-' */
	CHECK_EQ_I64(lab_an_stale_pid(".a.1-" ST_TAG ".lab-tmp~"), 0);          /* suffix */
	CHECK_EQ_I64(lab_an_stale_pid(".a.99999999999-" ST_TAG ".lab-tmp"), 0); /* past int */
	CHECK_EQ_I64(lab_an_stale_pid("notes.lab-tmp"), 0);
}

/* The command: stale temporaries in DIR and plots/ go, a link named like one stays and its
 * target is untouched, a live writer's and a fresh one stay. */
LAB_TEST(analyze_removes_stale_temporaries)
{
	long dead = st_dead_pid();
	char name[6][128], *out = NULL, *err = NULL;

	clitest_copy("results-usl");
	REQUIRE(mkdir(st_path("results-usl/plots"), 0755) == 0 || errno == EEXIST);
	snprintf(name[0], sizeof(name[0]), "results-usl/.summary.csv.%ld-" ST_TAG ".lab-tmp", dead);
	snprintf(name[1], sizeof(name[1]), "results-usl/plots/.x.svg.%ld-" ST_TAG ".lab-tmp", dead);
	snprintf(name[2], sizeof(name[2]), "results-usl/plots/.render.%ld-" ST_TAG ".lab-tmp",
	         dead);
	snprintf(name[3], sizeof(name[3]), "results-usl/.report.html.%ld-" ST_TAG ".lab-tmp", dead);
	snprintf(name[4], sizeof(name[4]), "results-usl/.analysis.json.%ld-" ST_TAG ".lab-tmp",
	         (long)getpid());
	snprintf(name[5], sizeof(name[5]), "results-usl/.summary.csv.%ld-fedcba9876543210.lab-tmp",
	         dead);
	st_write(name[0], "half a summary");
	st_write(name[1], "<svg");
	REQUIRE(mkdir(st_path(name[2]), 0700) == 0);
	char inner[300];
	snprintf(inner, sizeof(inner), "%s/batch.gnuplot", name[2]);
	st_write(inner, "load 'x.gp'\n");
	st_write("victim.txt", "keep me\n");
	REQUIRE(symlink(st_path("victim.txt"), st_path(name[3])) == 0);
	st_write(name[4], "a live analysis is writing this");
	st_write(name[5], "fresh");
	for (int i = 0; i < 5; i++)
		st_age(name[i]);
	REQUIRE(clitest_run(NULL, "analyze results-usl", &out, &err) == 0);
	CHECK(!clitest_exists(name[0]));
	CHECK(!clitest_exists(name[1]));
	CHECK(!clitest_exists(name[2]));
	CHECK(st_is_link(name[3]));
	char *v = clitest_read("victim.txt");
	CHECK(v && !strcmp(v, "keep me\n"));
	free(v);
	CHECK(clitest_exists(name[4])); /* its process (this test) still runs */
	CHECK(clitest_exists(name[5])); /* younger than LAB_AN_STALE_AGE_S */
	free(out);
	free(err);
}

/* In plots/ a link named like gnuplot's private directory or like a file is not followed: the
 * directory it points to keeps its file, the file it points to its bytes. (`lab analyze`
 * refuses a link in plots/ before it sweeps; the sweep alone is held to the same.) */
LAB_TEST(sweep_follows_no_link_in_plots)
{
	long dead = st_dead_pid();
	char rd[128], rf[128];

	REQUIRE(mkdir(st_path("R"), 0755) == 0);
	REQUIRE(mkdir(st_path("R/plots"), 0755) == 0);
	REQUIRE(mkdir(st_path("outside"), 0755) == 0);
	st_write("outside/batch.gnuplot", "theirs\n");
	st_write("outside.txt", "theirs too\n");
	snprintf(rd, sizeof(rd), "R/plots/.render.%ld-" ST_TAG ".lab-tmp", dead);
	snprintf(rf, sizeof(rf), "R/plots/.x.png.%ld-" ST_TAG ".lab-tmp", dead);
	REQUIRE(symlink(st_path("outside"), st_path(rd)) == 0);
	REQUIRE(symlink(st_path("outside.txt"), st_path(rf)) == 0);
	st_age(rd);
	st_age(rf);
	CHECK_EQ_U64(lab_an_stale_sweep(st_path("R")), 0);
	CHECK(st_is_link(rd));
	CHECK(st_is_link(rf));
	CHECK(clitest_exists("outside/batch.gnuplot"));
	char *t = clitest_read("outside.txt");
	CHECK(t && !strcmp(t, "theirs too\n"));
	free(t);
	/* plots/ itself a link: not entered */
	REQUIRE(mkdir(st_path("R2"), 0755) == 0);
	REQUIRE(mkdir(st_path("elsewhere"), 0755) == 0);
	snprintf(rf, sizeof(rf), "elsewhere/.x.png.%ld-" ST_TAG ".lab-tmp", dead);
	st_write(rf, "not in R2");
	st_age(rf);
	REQUIRE(symlink(st_path("elsewhere"), st_path("R2/plots")) == 0);
	CHECK_EQ_U64(lab_an_stale_sweep(st_path("R2")), 0);
	CHECK(clitest_exists(rf));
}

/* The outputs run to hundreds of MB (analysis.json of 100 000 points: 200 MB) and were written
 * 4 KB at a time, a system call each: 75 000 of them. They now go out 1 MB at a time: 512 KB
 * written is still all in the buffer, and the file whole once closed. */
LAB_TEST(outputs_written_in_large_pieces)
{
	struct lab_an_wfile w;
	struct lab_err e = {0};
	char path[2048];
	struct stat st;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/analysis.json", testlib_tmpdir());
	REQUIRE(lab_an_wfile_open(&w, path, &e));
	while (n < LAB_AN_WFILE_BUF / 2)
		n += (size_t)fprintf(w.f, "%063zu\n", n);
	REQUIRE(fstat(fileno(w.f), &st) == 0);
	CHECK_EQ_I64(st.st_size, 0);
	CHECK_EQ_I64(lab_an_wfile_close(&w, 1, &e), 0);
	REQUIRE(stat(path, &st) == 0);
	CHECK_EQ_U64((size_t)st.st_size, n);
}

/* A write the disk refuses says why ("cannot write DIR/report.html" said nothing of a full
 * disk). A file size limit stands in for the full disk: the last flush fails with EFBIG. The
 * output is not kept. */
LAB_TEST(failed_write_says_why)
{
	char path[2048];
	pid_t pid;
	int status;

	snprintf(path, sizeof(path), "%s/report.html", testlib_tmpdir());
	REQUIRE((pid = fork()) >= 0);
	if (!pid) {
		struct rlimit lim = {4096, 4096};
		struct lab_an_wfile w;
		struct lab_err e = {0};
		int ok;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &lim) || !lab_an_wfile_open(&w, path, &e))
			_exit(3);
		for (int i = 0; i < 1000; i++)
			fprintf(w.f, "%063d\n", i);
		ok = lab_an_wfile_close(&w, 1, &e) == -LAB_EIO && strstr(e.msg, "report.html: ") &&
		     strstr(e.msg, strerror(EFBIG));
		if (!ok)
			fprintf(stderr, "%s\n", e.msg);
		_exit(ok ? 0 : 1);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(access(path, F_OK) != 0);
}
