/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lessons writers and the counters view stay linear at scale (as test_scale.c, work is
 * counted, never timed): each case writes or analyzes n and 4n items and compares the work, which
 * grows 4x when linear and grew 16x in the quadratic code each case replaced.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analysis.h"
#include "analyze/jsonr.h"
#include "analyze/lessons.h"
#include "analyze/output.h"
#include "tests/testlib.h"

/* Prints the work at n and 4n and checks it grew at most 5x and stayed within cap at 4n. */
static void so_growth(const char *what, long n, unsigned long long w1, unsigned long long w4,
                      unsigned long long cap)
{
	fprintf(stderr, "%s: n = %ld: %llu, 4n: %llu (x%.2f)\n", what, n, w1, w4,
	        (double)w4 / (double)w1);
	CHECK(w4 <= 5 * w1);
	CHECK(w4 <= cap);
}

/* n lessons, lesson i from file "f<i / per>.ini" (per = n: one file for all), verdicts in turn. */
static int so_lessons(struct lab_an_lessons *ls, size_t n, size_t per)
{
	char buf[64];

	ls->n = 0;
	if (!(ls->l = calloc(n, sizeof(*ls->l))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct lab_an_lesson *l = &ls->l[ls->n++];

		snprintf(buf, sizeof(buf), "f%zu.ini", i / per);
		l->file = strdup(buf);
		snprintf(buf, sizeof(buf), "l%zu", i);
		l->name = strdup(buf);
		l->claim = strdup("cost(e) > 1");
		l->verdict = (enum lab_an_verdict)(i % 4);
		l->value = l->lo = l->hi = NAN;
		snprintf(l->text, sizeof(l->text), "not run: test");
		if (!l->file || !l->name || !l->claim)
			return -1;
	}
	return 0;
}

/* The lessons visited writing n lessons (per a file) as text and as HTML; *heads: the per-file
 * heading lines of the text. */
static unsigned long long so_lessons_out(size_t n, size_t per, int html, size_t *heads)
{
	struct lab_an_lessons ls = {0};
	unsigned long long before = lab_an_lessons_out_visits(), work = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	*heads = 0;
	if (so_lessons(&ls, n, per) == 0 && (f = open_memstream(&buf, &len))) {
		if (html)
			lab_an_lessons_html(f, &ls);
		else
			lab_an_lessons_text(f, &ls);
		fclose(f);
		work = lab_an_lessons_out_visits() - before;
		for (const char *p = buf; p && (p = strstr(p, html ? "colspan" : "\n-- ")); p++)
			(*heads)++;
	}
	free(buf);
	lab_an_lessons_free(&ls);
	return work;
}

/* The lessons writers at 2 000 and 8 000 lessons, per_file of them from each file (0: all from
 * one): the file headings they write, and lessons visited at most linearly. */
static void so_case(const char *what, int per_file, int html)
{
	size_t h1, h4;
	unsigned long long w1 = so_lessons_out(2000, per_file ? per_file : 2000, html, &h1),
	                   w4 = so_lessons_out(8000, per_file ? per_file : 8000, html, &h4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK_EQ_U64(h1, per_file ? 2000 : 0);
	CHECK_EQ_U64(h4, per_file ? 8000 : 0);
	so_growth(what, 2000, w1, w4, 8ULL * 8000);
}

/* 40 000 lessons each from its own file took 11 s as text: each looked for an earlier one of
 * its file. */
LAB_TEST(lessons_text_linear_in_files)
{
	so_case("lessons visited (text, a file each)", 1, 0);
}

/* 40 000 lessons from one file took 5.9 s as HTML: each row asked whether the lessons come
 * from more than one file. */
LAB_TEST(lessons_html_linear)
{
	so_case("lessons visited (HTML, one file)", 0, 1);
	so_case("lessons visited (HTML, a file each)", 1, 1);
}

/* Text of lessons of one file: no per-file headings, and each lesson visited a few times. */
LAB_TEST(lessons_text_one_file_linear)
{
	so_case("lessons visited (text, one file)", 0, 0);
}

/* Lessons of interleaved files (a, b, a) are shown per file, in the order the files first
 * appear, each file's lessons in their own order, with each file's counts: as text and as HTML. */
LAB_TEST(lessons_grouped_by_file)
{
	static const char *const file[] = {"a.ini", "b.ini", "a.ini"};
	struct lab_an_lessons ls = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	REQUIRE(so_lessons(&ls, 3, 1) == 0);
	for (size_t i = 0; i < 3; i++) {
		free(ls.l[i].file);
		REQUIRE((ls.l[i].file = strdup(file[i])));
	}
	REQUIRE((f = open_memstream(&buf, &len)));
	lab_an_lessons_text(f, &ls);
	lab_an_lessons_html(f, &ls);
	fclose(f);
	const char *a = strstr(buf, "-- a.ini: 1 hold, 0 fail, 1 inconclusive, 0 not run\n"),
	           *l0 = strstr(buf, "holds        l0\n"), *l2 = strstr(buf, "inconclusive l2\n"),
	           *b = strstr(buf, "-- b.ini: 0 hold, 1 fail, 0 inconclusive, 0 not run\n"),
	           *l1 = strstr(buf, "fails        l1\n");
	CHECK(a && l0 && l2 && b && l1 && a < l0 && l0 < l2 && l2 < b && b < l1);
	const char *ha = strstr(buf, "colspan=\"4\">a.ini<"),
	           *hb = strstr(buf, "colspan=\"4\">b.ini<");
	const char *h0 = strstr(buf, "<td>l0<"), *h1 = strstr(buf, "<td>l1<"),
	           *h2 = strstr(buf, "<td>l2<");
	CHECK(ha && hb && h0 && h1 && h2 && ha < h0 && h0 < h2 && h2 < hb && hb < h1);
	if (!(a && b && ha && hb))
		fprintf(stderr, "%s", buf);
	free(buf);
	lab_an_lessons_free(&ls);
}

/* Writes DIR/NAME: n points of one experiment, sizes 0 .. n-1 at 1 thread, two samples each
 * with cycles counted and instructions refused (its event's status in run.json), so each point's
 * IPC asks run.json why. */
static const char *so_write_counters(const char *name, long n)
{
	static char dir[4096];
	char path[4200];
	FILE *s, *r;

	snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), name);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return NULL;
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	if (!(s = fopen(path, "w")))
		return NULL;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (!(r = fopen(path, "w"))) {
		fclose(s);
		return NULL;
	}
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged,ctr_cycles,ctr_instructions\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"size\": \"%ld\"}, "
		        "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 2, "
		        "\"counters\": {\"events\": [{\"name\": \"cycles\", "
		        "\"column\": \"ctr_cycles\", \"status\": \"ok\"}, {\"name\": "
		        "\"instructions\", \"column\": \"ctr_instructions\", \"status\": "
		        "\"unsupported\", \"reason\": \"refused %ld\"}]}}",
		        p ? "," : "", p, p, p);
		for (int rep = 0; rep < 2; rep++)
			fprintf(
			    s,
			    "e,%ld,noop,\"placement=compact;size=%ld\",1,%d,%d,1000,op,0,0,%d,\n",
			    p, p, rep, 1000 + rep, 2000 + rep);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The run.json keys compared while analyzing dir (loading excluded) and writing analysis.json;
 * *found: whether the last point's IPC gave its own event's reason. */
static unsigned long long so_counters_compares(const char *dir, long n, int *found)
{
	struct lab_an_data d;
	struct lab_an_analysis a = {0};
	struct lab_err err = {0};
	unsigned long long before, work = 0;
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f;

	*found = 0;
	if (!dir || lab_an_data_load_dir(&d, dir, &err) || lab_an_data_summarize(&d, 0, &err)) {
		fprintf(stderr, "%s: %s\n", dir ? dir : "(no dir)", err.msg);
		return 0;
	}
	before = lab_an_json_compares();
	if (lab_an_analysis_run(&d, 0, &a, &err) == 0 && (f = open_memstream(&buf, &len))) {
		lab_an_analysis_json(&a, f);
		fclose(f);
		work = lab_an_json_compares() - before;
		snprintf(want, sizeof(want), "instructions: unsupported: refused %ld\"", n - 1);
		*found = buf && strstr(buf, want);
	} else {
		fprintf(stderr, "%s: %s\n", dir, err.msg);
	}
	free(buf);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	return work;
}

/* 16 000 points of one experiment took 8.5 s: the reason of each point's missing counter was
 * looked up by scanning the experiment's points in run.json for the point's id. */
LAB_TEST(counters_reasons_linear_in_points)
{
	int f1, f4;
	unsigned long long w1 = so_counters_compares(so_write_counters("c1", 1000), 1000, &f1);
	unsigned long long w4 = so_counters_compares(so_write_counters("c4", 4000), 4000, &f4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK(f1);
	CHECK(f4);
	so_growth("run.json keys compared (counters, one experiment)", 1000, w1, w4, 400ULL * 4000);
}
