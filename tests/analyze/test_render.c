/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The renderers (analyze/render/) on one document fixture: text, HTML, JSON, CSV and gnuplot
 * against golden files in tests/analyze/render/ (LAB_UPDATE_GOLDEN=1 rewrites them), and the
 * escaping of hostile text in each format.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/csv.h"
#include "analyze/jsonr.h"
#include "analyze/plots_int.h"
#include "analyze/render/render.h"
#include "harness/json.h"
#include "tests/testlib.h"

/* Text a results file could carry into a document: markup, quotes, a gnuplot backquote, a
 * newline. */
#define HOSTILE "<script>x</script> 'q' \"d\" `id` a\\b\nline2"

/* Stacked shares: two bars (x 0 and 3), one named by hostile text, the other by its x; the
 * second share has no value at x 3; a curve of another style is not drawn. */
static void rd_stack(struct lab_doc_section *s)
{
	struct lab_doc_figure *f = lab_doc_figure(s, "shares", "slots", "point", "fraction");
	struct lab_doc_curve *c = lab_doc_curve(f, "retiring", LAB_DOC_STACK);

	lab_doc_point(c, 0, 0.5, NAN, NAN);
	lab_doc_point(c, 3, 0.25, NAN, NAN);
	c = lab_doc_curve(f, HOSTILE, LAB_DOC_STACK);
	c->color = 1;
	lab_doc_point(c, 0, 0.5, NAN, NAN);
	lab_doc_gap(c, "3", "not counted");
	c = lab_doc_curve(f, "back-end bound", LAB_DOC_STACK);
	c->color = 2;
	lab_doc_point(c, 3, 0.75, NAN, NAN);
	lab_doc_point(lab_doc_curve(f, "not drawn", LAB_DOC_LINES), 1, 1, NAN, NAN);
	lab_doc_flabel(f, 0, 1.02, HOSTILE);
}

/* The fixture's table: every kind of column, a full row, a row with a note and a why, an
 * interval of the median, a row that did not run. */
static void rd_table(struct lab_doc *d, struct lab_doc_table *t)
{
	lab_doc_col(t, "lock", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "cost", "ns", LAB_DOC_INTERVAL);
	lab_doc_col(t, "n", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "share", NULL, LAB_DOC_RATIO);
	lab_doc_col(t, "rate", "GB/s", LAB_DOC_VALUE);
	lab_doc_col(t, "label", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "gain", NULL, LAB_DOC_ESTIMATE);
	lab_doc_col(t, "size_bytes", NULL, LAB_DOC_BYTES); /* 16 KiB in text, 16384 in JSON */
	lab_doc_col(t, "wait", "ns", LAB_DOC_INTERVAL);    /* means alone: "mean [95% CI]" */
	lab_doc_row(t);
	lab_doc_str(d, lab_doc_at(t, 0), "tas");
	lab_doc_str(d, lab_doc_at(t, 1), "1");
	lab_doc_ival(lab_doc_at(t, 2), 10, 10.5, 9.75, 11.25, 7);
	lab_doc_num(lab_doc_at(t, 3), 7);
	lab_doc_num(lab_doc_at(t, 4), 0.25);
	lab_doc_num(lab_doc_at(t, 5), 123.456789);
	lab_doc_str(d, lab_doc_at(t, 6), HOSTILE);
	lab_doc_num(lab_doc_at(t, 7), 1.9);
	lab_doc_at(t, 7)->lo = 1.8;
	lab_doc_at(t, 7)->hi = 2;
	lab_doc_num(lab_doc_at(t, 8), 16384);
	lab_doc_ival(lab_doc_at(t, 9), NAN, 3, 2, 4, 5);
	lab_doc_row(t);
	lab_doc_str(d, lab_doc_at(t, 0), "tas");
	lab_doc_str(d, lab_doc_at(t, 1), "2");
	lab_doc_ival(lab_doc_at(t, 2), NAN, 5, NAN, NAN, 1);
	lab_doc_cnote(d, lab_doc_at(t, 2), "below resolution");
	lab_doc_why(d, lab_doc_at(t, 4), "no baseline");
	lab_doc_rnote(t, "DELAY FLAGGED: drifted +16 %%");
	lab_doc_num(lab_doc_at(t, 7), 2); /* unbounded above */
	lab_doc_at(t, 7)->lo = 1.5;
	lab_doc_at(t, 7)->hi = INFINITY;
	lab_doc_num(lab_doc_at(t, 8), 1572864);
	lab_doc_row(t); /* the interval of the median, which the mean lies outside */
	lab_doc_str(d, lab_doc_at(t, 0), "mcs");
	lab_doc_str(d, lab_doc_at(t, 1), "2");
	lab_doc_ival_median(lab_doc_at(t, 2), 12, 20, 11, 13, 9);
	lab_doc_num(lab_doc_at(t, 8), 100);
	lab_doc_row(t);
	lab_doc_str(d, lab_doc_at(t, 0), "ticket");
	lab_doc_str(d, lab_doc_at(t, 1), "2");
	lab_doc_rwhy(t, "skipped: needs 2 CPUs, 1 allowed");
}

static struct lab_doc *rd_fixture(void)
{
	struct lab_doc *d = lab_doc_new("fixture", "A fixture view");
	struct lab_doc_section *s = lab_doc_section(d, "exp1", "size=16K;team=lab");
	struct lab_doc_table *t = lab_doc_table(s, "points", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "exp1: cost", "size (bytes)", "ns");
	struct lab_doc_curve *c;
	struct lab_doc_matrix *m;

	lab_doc_about(d, "What it shows, with <b>markup</b> & an ampersand.", "the footnote");
	lab_doc_lead(s, "strong scaling; cost in ns per element");
	rd_table(d, t);
	f->logx = 2;
	c = lab_doc_curve(f, "tas", LAB_DOC_LINES);
	lab_doc_point(c, 16384, 10.5, 9.75, 11.25);
	lab_doc_point(c, 32768, 5, NAN, NAN);
	lab_doc_point(c, NAN, 1, 0, 2); /* left out: no x */
	c = lab_doc_curve(f, HOSTILE, LAB_DOC_POINTS);
	c->color = 1;
	lab_doc_gap(c, "2", "not run");
	lab_doc_gap(c, "4", "load-flagged");
	c = lab_doc_curve(f, "roof", LAB_DOC_ROOF);
	c->a = 100;
	c->b = 2.5;
	lab_doc_flabel(f, 16384, 10.5, HOSTILE);
	lab_doc_finding(s, LAB_DOC_WARN, "n = 7", "a finding with %s", "evidence");
	lab_doc_note(s, "a note");
	s = lab_doc_section(d, NULL, NULL);
	m = lab_doc_matrix(s, "latency", "one-way latency", 2, 3);
	m->unit = "ns";
	m->rname = "from cpu";
	m->cname = "to cpu";
	m->legend = "median over samples";
	for (size_t i = 0; i < 2; i++)
		m->rlab[i] = lab_doc_printf(d, "%zu", i);
	for (size_t j = 0; j < 3; j++)
		m->clab[j] = lab_doc_printf(d, "%zu", j);
	lab_doc_num(lab_doc_mat(m, 0, 1), 40);
	lab_doc_num(lab_doc_mat(m, 0, 2), 80.5);
	lab_doc_num(lab_doc_mat(m, 1, 0), 41);
	lab_doc_cnote(d, lab_doc_mat(m, 1, 0), "M: 38\"41");
	f = lab_doc_figure(s, "heat", "one-way latency", NULL, NULL);
	f->heat = m;
	rd_stack(s);
	return d;
}

/* The file name's contents from the case's tmpdir (malloc'd, NULL when absent). */
static char *rd_read(const char *name)
{
	char path[2048], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", testlib_tmpdir(), name);
	return lab_an_file_read(path, &buf, &len, NULL) ? NULL : buf;
}

/* Writes d's plots into the case's tmpdir (their files: rd_read). 0, or -1 when it failed. */
static int rd_plot(const struct lab_doc *d)
{
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	int rc = pdir.fd >= 0 ? lab_render_gnuplot(d, &pdir, &plots, &err) : -1;

	lab_an_plots_free(&plots);
	if (pdir.fd >= 0)
		close(pdir.fd);
	return rc ? -1 : 0;
}

/* Compares text with tests/analyze/render/NAME; LAB_UPDATE_GOLDEN=1 writes it instead. */
static void rd_golden(const char *name, const char *text)
{
	char path[2048], *want = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/tests/analyze/render/%s", testlib_srcdir(), name);
	if (getenv("LAB_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		REQUIRE(f != NULL);
		fputs(text, f);
		fclose(f);
		return;
	}
	REQUIRE(lab_an_file_read(path, &want, &len, NULL) == 0);
	if (strcmp(want, text))
		fprintf(stderr, "%s differs; got:\n%s\n", name, text);
	CHECK(strcmp(want, text) == 0);
	free(want);
}

/* fn's output into a string (malloc'd). */
#define RD_CAPTURE(buf, f, stmt)                                                                   \
	do {                                                                                       \
		size_t len_;                                                                       \
		FILE *f = open_memstream(&(buf), &len_);                                           \
		REQUIRE(f != NULL);                                                                \
		stmt;                                                                              \
		fclose(f);                                                                         \
	} while (0)

/* Sizes in binary units with the digits that tell them apart: 16385 B did read "16 KiB" as
 * 16384 did, 1048575 B "1024 KiB". */
LAB_TEST(bytes_cells_tell_sizes_apart)
{
	static const struct lab_doc_col col = {"size_bytes", NULL, LAB_DOC_BYTES};
	static const struct {
		double v;
		const char *want;
	} cases[] = {{16384, "16 KiB"},          {16385, "16.00098 KiB"}, {1048575, "1023.999 KiB"},
	             {1048576, "1 MiB"},         {100, "100 B"},          {0, "0 B"},
	             {3 * 1073741824.0, "3 GiB"}};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lab_doc_cell c = {.mean = cases[i].v, .has = 1};
		CHECK_EQ_STR(lab_render_cell(&col, &c, buf, sizeof(buf)), cases[i].want);
	}
}

/* From 10 000 a value is a whole number: 1234567 ns beside 987654, not 1.235e+06 beside
 * 9.877e+05 (newcomer44); below it %.4g as before. */
LAB_TEST(large_cells_are_whole_numbers)
{
	static const struct lab_doc_col val = {"makespan_ns", NULL, LAB_DOC_VALUE};
	static const struct lab_doc_col est = {"makespan_ns", NULL, LAB_DOC_ESTIMATE};
	static const struct {
		double v;
		const char *want;
	} cases[] = {{1234567.4, "1234567"}, {987654.5, "987655"}, {9999.4, "9999"},
	             {9999.6, "10000"},      {-25000, "-25000"},   {0.000123456, "0.0001235"},
	             {2e15, "2e+15"},        {12.5, "12.5"}};
	struct lab_doc_cell e = {.mean = 2.5e6, .lo = 2.25e6, .hi = 2.75e6, .has = 1};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lab_doc_cell c = {.mean = cases[i].v, .has = 1};
		CHECK_EQ_STR(lab_render_cell(&val, &c, buf, sizeof(buf)), cases[i].want);
	}
	CHECK_EQ_STR(lab_render_cell(&est, &e, buf, sizeof(buf)), "2500000 [2250000, 2750000]");
}

LAB_TEST(text_golden)
{
	struct lab_doc *d = rd_fixture();
	char *out = NULL;

	REQUIRE(d && !lab_doc_failed(d));
	RD_CAPTURE(out, f, lab_render_text(f, d));
	rd_golden("fixture.txt", out);
	free(out);
	lab_doc_free(d);
}

LAB_TEST(html_golden_and_escaping)
{
	struct lab_doc *d = rd_fixture();
	char *out = NULL;

	REQUIRE(d);
	RD_CAPTURE(out, f, lab_render_html(f, d, NULL, testlib_tmpdir()));
	rd_golden("fixture.html", out);
	CHECK(strstr(out, "<script>") == NULL);
	CHECK(strstr(out, "&lt;script&gt;x&lt;/script&gt; &#39;q&#39; &quot;d&quot;") != NULL);
	CHECK(strstr(out, "<b>markup") == NULL);
	free(out);
	lab_doc_free(d);
}

LAB_TEST(json_golden_parses)
{
	struct lab_doc *d = rd_fixture();
	struct lab_an_json *j = NULL;
	struct lab_json w;
	const size_t all[] = {0}, top[] = {1};
	char *out = NULL;
	size_t len;
	FILE *f;

	REQUIRE(d);
	REQUIRE((f = open_memstream(&out, &len)) != NULL);
	lab_json_begin_digits(&w, f, 10);
	lab_json_obj_open(&w, NULL);
	lab_render_json(&w, d, all, 1);
	lab_json_obj_open(&w, "top");
	lab_render_json(&w, d, top, 1);
	lab_json_obj_close(&w);
	lab_json_obj_close(&w);
	lab_json_end(&w);
	fclose(f);
	rd_golden("fixture.json", out);
	REQUIRE(lab_an_json_parse("fixture.json", out, strlen(out), &j, NULL) == 0);
	{
		const struct lab_an_json *rows = lab_an_json_get(
		    lab_an_json_get(
		        lab_an_json_get(
		            &lab_an_json_get(lab_an_json_get(j, "fixture"), "sections")->items[0],
		            "tables"),
		        "points"),
		    "rows");

		REQUIRE(rows && rows->n == 4);
		CHECK_EQ_STR(lab_an_json_str(&rows->items[0], "label"), HOSTILE);
		CHECK_NEAR(lab_an_json_num(&rows->items[0], "cost", NAN), 10, 0);
		CHECK(lab_an_json_get(&rows->items[0], "cost_ci95_of") == NULL); /* the mean's */
		CHECK_NEAR(lab_an_json_num(&rows->items[1], "cost", NAN), 5, 0); /* no median */
		CHECK_EQ_STR(lab_an_json_str(&rows->items[1], "share_why"), "no baseline");
		CHECK_EQ_STR(lab_an_json_str(&rows->items[2], "cost_ci95_of"), "median");
		CHECK_EQ_STR(lab_an_json_str(&rows->items[3], "why"),
		             "skipped: needs 2 CPUs, 1 allowed");
	}
	lab_an_json_free(j);
	free(out);
	lab_doc_free(d);
}

LAB_TEST(csv_golden)
{
	struct lab_doc *d = rd_fixture();
	struct lab_err err = {0};
	char *names[4], *csv;

	REQUIRE(d);
	CHECK_EQ_U64(lab_render_csv_names(d, names, 4), 1);
	CHECK_EQ_STR(names[0], "fixture_points.csv");
	free(names[0]);
	REQUIRE(lab_render_csv(d, testlib_tmpdir(), NULL, &err) == 0);
	REQUIRE((csv = rd_read("fixture_points.csv")));
	rd_golden("fixture_points.csv", csv);
	free(csv);
	lab_doc_free(d);
}

/* A full matrix of one row or column is drawn as boxes: gnuplot draws no image of one, and a
 * 1-node NUMA matrix was a blank square (plots38). */
LAB_TEST(gnuplot_one_cell_matrix_drawn)
{
	struct lab_doc *d = lab_doc_new("one", "One cell");
	struct lab_doc_section *s = lab_doc_section(d, "lat", NULL);
	struct lab_doc_matrix *m = lab_doc_matrix(s, "nodes", "latency", 1, 1);
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	struct lab_doc_figure *f;
	char *gp;

	REQUIRE(d && m && pdir.fd >= 0);
	m->rlab[0] = m->clab[0] = "0";
	lab_doc_num(lab_doc_mat(m, 0, 0), 897.6);
	f = lab_doc_figure(s, "heat", "latency", NULL, NULL);
	f->heat = m;
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE(plots.n == 1);
	REQUIRE((gp = rd_read("one00-lat-heat.gp")));
	CHECK(strstr(gp, "with boxxyerror") != NULL);
	CHECK(strstr(gp, "image pixels") == NULL);
	free(gp);
	lab_an_plots_free(&plots);
	close(pdir.fd);
	lab_doc_free(d);
}

/* plots38: a linear y axis over two decades of values > 0 is drawn on a log scale; one whose
 * interval reaches 0 (a log axis has no 0) or that spans less stays linear. */
LAB_TEST(gnuplot_decades_drawn_on_a_log_axis)
{
	struct lab_doc *d = lab_doc_new("decades", "Decades");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f[3] = {lab_doc_figure(s, "wide", "e: wide", "threads", "ns"),
	                               lab_doc_figure(s, "zero", "e: zero", "threads", "ns"),
	                               lab_doc_figure(s, "narrow", "e: narrow", "threads", "ns")};
	const char *name[3] = {"decades00-e-wide.gp", "decades01-e-zero.gp",
	                       "decades02-e-narrow.gp"};

	REQUIRE(d && f[0] && f[1] && f[2]);
	for (int i = 0; i < 3; i++) {
		struct lab_doc_curve *c = lab_doc_curve(f[i], "c", LAB_DOC_LINES);

		REQUIRE(c);
		if (i == 2)
			lab_doc_point(c, 1, 20, 15, 25);
		else
			lab_doc_point(c, 1, 2, i == 1 ? 0 : 1.5, 3);
		lab_doc_point(c, 2, 400, 350, 450);
		if (i == 1) /* an interval to 0 runs to the frame (plots40); a value of 0 cannot */
			lab_doc_point(c, 3, 0, 0, 1);
	}
	REQUIRE(rd_plot(d) == 0);
	for (int i = 0; i < 3; i++) {
		char *gp = rd_read(name[i]);

		REQUIRE(gp);
		CHECK_EQ_I64(strstr(gp, "set logscale y 10\n") != NULL, i == 0);
		free(gp);
	}
	/* the same as "zero" without its value of 0: its interval to 0 no longer keeps it linear */
	{
		struct lab_doc_figure *z = lab_doc_figure(s, "reach", "e: reach", "threads", "ns");
		struct lab_doc_curve *c = lab_doc_curve(z, "c", LAB_DOC_LINES);
		char *gp;

		REQUIRE(c);
		lab_doc_point(c, 1, 2, 0, 3);
		lab_doc_point(c, 2, 400, 350, 450);
		REQUIRE(rd_plot(d) == 0);
		REQUIRE((gp = rd_read("decades03-e-reach.gp")));
		CHECK(strstr(gp, "set logscale y 10\nset format y '%g'\n") != NULL);
		free(gp);
	}
	lab_doc_free(d);
}

/* review39: a speedup's 1 at one thread, a power of the log axis's base, lay on the bottom
 * frame (autoscale ends the axis there): a margin below and above its values; on a linear axis
 * a margin below a lowest value well above 0 or below 0, none below a 0 (review40,
 * review41). */
LAB_TEST(gnuplot_log_margin_at_a_power)
{
	struct lab_doc *d = lab_doc_new("margin", "Margin");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: speedup", "threads", "x");
	struct lab_doc_curve *c = lab_doc_curve(f, "c", LAB_DOC_LINES);
	char *gp;

	REQUIRE(d && c);
	f->logx = f->logy = 2;
	lab_doc_point(c, 1, 1, NAN, NAN);
	lab_doc_point(c, 2, 1.8, 1.7, 1.9);
	/* linear: a margin below 1 (of 1..3.5), none below a 0 */
	for (int i = 0; i < 2; i++) {
		struct lab_doc_figure *lf =
		    lab_doc_figure(s, i ? "zero" : "one", "e: lin", "n", "x");
		struct lab_doc_curve *lc = lab_doc_curve(lf, "c", LAB_DOC_LINES);

		REQUIRE(lc);
		lab_doc_point(lc, 1, i ? 0 : 1, NAN, NAN);
		lab_doc_point(lc, 2, 3.5, 3.4, 3.6);
	}
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("margin00-e-curves.gp")));
	/* the log axis ends at the values with a margin past both (gnuplot's own autoscale
	 * ran it to the next power: review41); tics at an even step where fewer than three
	 * powers of the base lie in it (1 .. 1.9 read "1" alone) */
	CHECK(strstr(gp, "set autoscale yfixmin\nset autoscale yfixmax\nset ytics (1, 1.2, 1.4, "
	                 "1.6, 1.8)\n") != NULL);
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n") != NULL);
	CHECK(strstr(gp, "set xtics (1, 2)\n") != NULL); /* a tic at each x (plots43) */
	free(gp);
	REQUIRE((gp = rd_read("margin01-e-one.gp")));
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("margin02-e-zero.gp")));
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, 0\n") != NULL);
	free(gp);
	/* an x axis from 0 ends a twentieth past it (offsets of 0 bytes began at the tic of -5,
	 * plots40; on the frame its bar lay on the frame's line): fixed at its values;
	 * the sixth ceiling has a colour of its own, not the first's (ten drew five pairs alike) */
	{
		struct lab_doc_figure *xf = lab_doc_figure(s, "x0", "e: x0", "bytes", "ns");
		struct lab_doc_curve *xc = lab_doc_curve(xf, "c", LAB_DOC_LINES);

		REQUIRE(xc);
		lab_doc_point(xc, 0, 2, NAN, NAN);
		lab_doc_point(xc, 32, 3, NAN, NAN);
		for (int k = 0; k < 6; k++) {
			struct lab_doc_curve *r = lab_doc_curve(xf, "roof", LAB_DOC_ROOF);

			REQUIRE(r);
			r->a = 10 + k;
			r->dash = k;
		}
		REQUIRE(rd_plot(d) == 0);
		REQUIRE((gp = rd_read("margin03-e-x0.gp")));
		CHECK(strstr(gp, "set autoscale xfixmin\nset autoscale xfixmax\n") != NULL);
		CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n") !=
		      NULL);
		CHECK(strstr(gp, "15 with lines lw 2 dt 1 lc rgb '#1f5fa8'") != NULL);
		free(gp);
	}
	lab_doc_free(d);
}

/* review41: 4.5 .. 71 on a log axis: 1, 2 and 5 times the powers of 10 (gnuplot labelled 10
 * alone); a linear axis of a value below 0 has a margin below it (its bar sat on the frame);
 * a linear axis spans its values and as much again, not one interval's end. */
LAB_TEST(gnuplot_log_tics_and_margin_below_0)
{
	struct lab_doc *d = lab_doc_new("tics", "Tics");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *df = lab_doc_figure(s, "dec", "e: dec", "n", "ns");
	struct lab_doc_figure *nf = lab_doc_figure(s, "neg", "e: neg", "n", "ns");
	struct lab_doc_curve *dc = lab_doc_curve(df, "c", LAB_DOC_LINES);
	struct lab_doc_curve *nc = lab_doc_curve(nf, "c", LAB_DOC_LINES);
	char *gp;

	REQUIRE(dc && nc);
	df->logy = 10;
	lab_doc_point(dc, 1, 4.5, NAN, NAN);
	lab_doc_point(dc, 2, 71, NAN, NAN);
	lab_doc_point(nc, 1, -2, -3, -1);
	lab_doc_point(nc, 2, 5, 4, 6);
	/* plots43: means of 0.7 to 6.8 lay flat under one interval's 172 on a linear axis */
	struct lab_doc_curve *wc =
	    lab_doc_curve(lab_doc_figure(s, "wide", "e: w", "n", "x"), "c", LAB_DOC_LINES);
	REQUIRE(wc);
	lab_doc_point(wc, 1, 0.7, 0.6, 0.8);
	lab_doc_point(wc, 2, 6.8, 0, 172);
	/* plots43: one value on a log axis had no labelled tic */
	struct lab_doc_figure *ff = lab_doc_figure(s, "flat", "e: f", "n", "x");
	struct lab_doc_curve *fc = lab_doc_curve(ff, "c", LAB_DOC_LINES);
	REQUIRE(fc);
	ff->logy = 10;
	lab_doc_point(fc, 1, 5, NAN, NAN);
	lab_doc_point(fc, 2, 5, NAN, NAN);
	for (int i = 0; i < 2; i++) {
		struct lab_doc_figure *tf =
		    lab_doc_figure(s, i ? "roof" : "three", "e: 3", "n", "x");
		struct lab_doc_curve *tc = lab_doc_curve(tf, "c", LAB_DOC_LINES);
		struct lab_doc_curve *rc = i ? lab_doc_curve(tf, "peak", LAB_DOC_ROOF) : NULL;

		REQUIRE(tc && (!i || rc));
		tf->logy = 10;
		lab_doc_point(tc, 1, i ? 4.5 : 1, NAN, NAN);
		lab_doc_point(tc, 2, i ? 71 : 100, NAN, NAN);
		if (rc)
			rc->a = 1000;
	}
	/* a fixed range: no margin past it (gnuplot moved a fixed end by it too) */
	struct lab_doc_figure *xf = lab_doc_figure(s, "fixed", "e: j", "n", "x");
	struct lab_doc_curve *xc = lab_doc_curve(xf, "c", LAB_DOC_LINES);
	REQUIRE(xc);
	xf->ymin = 0;
	xf->ymax = 1.05;
	lab_doc_point(xc, 1, 0.5, NAN, NAN);
	lab_doc_point(xc, 2, 0.9, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("tics00-e-dec.gp")));
	CHECK(strstr(gp, "set ytics (5, 10, 20, 50)\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics02-e-wide.gp")));
	CHECK(strstr(gp, "set yrange [*:13.6]\n") != NULL);
	CHECK(strstr(gp, "(a bar to the frame: its interval reaches past the axis, twice the "
	                 "values)") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics03-e-flat.gp")));
	CHECK(strstr(gp, "set yrange [2.5:10]\nset ytics (5)\n") != NULL); /* hostile44 */
	free(gp);
	/* three powers of 10 or more: gnuplot's own tics; ceilings: gnuplot's range and tics */
	REQUIRE((gp = rd_read("tics04-e-three.gp")));
	CHECK(strstr(gp, "set ytics") == NULL);
	CHECK(strstr(gp, "set autoscale yfixmin\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics05-e-roof.gp")));
	CHECK(strstr(gp, "set ytics") == NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics06-e-fixed.gp")));
	CHECK(strstr(gp, "set yrange [0:1.05]\nset offsets graph 0.05, graph 0.05, 0, 0\n") !=
	      NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics01-e-neg.gp")));
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n") != NULL);
	CHECK(strstr(gp, "set ytics") == NULL);
	free(gp);
	lab_doc_free(d);
}

/* newcomer44: a roofline of 1.4 to 30 read "10" alone; with its x range fixed, the ceilings'
 * ends at it count (min(10 x, 20) at 0.1 and 2: 1 and 20). hostile44: one value on a linear
 * axis: gnuplot warned "empty y range" and labelled 4.95 .. 5.05. */
LAB_TEST(gnuplot_roofline_tics_and_one_linear_value)
{
	struct lab_doc *d = lab_doc_new("tics2", "Tics");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *rf = lab_doc_figure(s, "roofx", "e: r", "n", "x");
	struct lab_doc_curve *rp = lab_doc_curve(rf, "c", LAB_DOC_POINTS),
	                     *rr = lab_doc_curve(rf, "roof", LAB_DOC_ROOF),
	                     *lc = lab_doc_curve(lab_doc_figure(s, "flatlin", "e: l", "n", "x"),
	                                         "c", LAB_DOC_LINES);
	char *gp;

	REQUIRE(rp && rr && lc);
	rf->logx = rf->logy = 10;
	rf->xmin = 0.1;
	rf->xmax = 2;
	rr->a = 20;
	rr->b = 10;
	lab_doc_point(rp, 0.5, 4.5, NAN, NAN);
	lab_doc_point(rp, 1, 7, NAN, NAN);
	lab_doc_point(lc, 1, 5, NAN, NAN);
	lab_doc_point(lc, 2, 5, NAN, NAN);
	/* plots44: 5 .. 99 on an axis whose margin runs to 115 had no tic at 100 */
	struct lab_doc_figure *mf = lab_doc_figure(s, "margin", "e: m", "n", "x");
	struct lab_doc_curve *mc = lab_doc_curve(mf, "c", LAB_DOC_LINES);

	REQUIRE(mc);
	mf->logy = 10;
	lab_doc_point(mc, 1, 5, NAN, NAN);
	lab_doc_point(mc, 2, 99, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("tics200-e-roofx.gp")));
	CHECK(strstr(gp, "set ytics (1, 2, 5, 10, 20)\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics201-e-flatlin.gp")));
	CHECK(strstr(gp, "set yrange [4.5:5.5]\n") != NULL);
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, 0, 0\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("tics202-e-margin.gp")));
	CHECK(strstr(gp, "set ytics (5, 10, 20, 50, 100)\n") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots40: curves that share one x (every lock at 2 threads) were lines of one point on an
 * axis of one value: one bar a curve, its interval x:y:low:high (four columns read as
 * x:y:ydelta:xdelta drew other bars' intervals), its name under it. */
LAB_TEST(gnuplot_one_x_drawn_as_bars)
{
	struct lab_doc *d = lab_doc_new("onex", "One x");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: handoff", "threads", "ratio");
	const char *name[3] = {"tas", "ticket", "mcs"};
	char *gp;

	REQUIRE(d && f);
	for (int i = 0; i < 3; i++) {
		struct lab_doc_curve *c = lab_doc_curve(f, name[i], LAB_DOC_LINES);

		REQUIRE(c);
		c->color = i;
		lab_doc_point(c, 2, 0.2 + 0.3 * i, 0.1 + 0.3 * i, 0.3 + 0.3 * i);
	}
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("onex00-e-curves.gp")));
	CHECK(strstr(gp, "set xlabel 'threads'.' = 2 (one bar a curve)'") != NULL);
	CHECK(strstr(gp, "set xtics rotate by -30 ('tas' 0, 'ticket' 1, 'mcs' 2)\n") != NULL);
	CHECK(strstr(gp, "index 1 using (1):2:3:4:(0.6) with boxerrorbars lc 2 notitle") != NULL);
	CHECK(strstr(gp, "set logscale x") == NULL);
	/* bars from 0 (on an axis from 0.8, 1.58 read 2.5 times 1.12: review42) */
	CHECK(strstr(gp, "set yrange [0:]\nplot ") != NULL);
	/* gnuplot moves a fixed end by the margin where the other is autoscaled: no margin
	 * below the bars' 0 (the axis began at -0.04) */
	CHECK(strstr(gp, "set offsets 0, 0, graph 0.05, 0\n") != NULL);
	free(gp);
	/* a log axis has no 0: points with their intervals there, no bars */
	f->logy = 10;
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("onex00-e-curves.gp")));
	CHECK(strstr(gp, "index 1 using (1):2:3:4 with yerrorbars pt 7 lc 2 notitle") != NULL);
	CHECK(strstr(gp, "set yrange [0:]") == NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots43: one curve of one point (locks at 1 thread only) went to gnuplot as a line of one
 * point, its log2 axis widened to 0.5 .. 2 threads (a linear one to 1.98 .. 2.02 with five
 * tics): it is one bar, as curves sharing one x are. */
LAB_TEST(gnuplot_one_point_is_one_bar)
{
	struct lab_doc *d = lab_doc_new("onep", "One point");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: cost", "threads", "ns");
	struct lab_doc_curve *c;
	char *gp;

	REQUIRE(d && f && (c = lab_doc_curve(f, "tas", LAB_DOC_LINES)));
	f->logx = 2;
	lab_doc_point(c, 1, 40, 38, 43);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("onep00-e-curves.gp")));
	CHECK(strstr(gp, "set xlabel 'threads'.' = 1 (one bar a curve)'") != NULL);
	CHECK(strstr(gp, "index 0 using (0):2:3:4:(0.6) with boxerrorbars lc 1") != NULL);
	CHECK(strstr(gp, "set logscale x") == NULL);
	free(gp);
	lab_doc_free(d);
}

/* review42: a bar chart's canvas grew for legend rows it does not draw (50 bars, each named
 * under itself, no legend: 565 pixels high, mostly empty). */
LAB_TEST(gnuplot_bar_chart_canvas_has_no_legend_rows)
{
	struct lab_doc *d = lab_doc_new("onexh", "One x");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: many", "threads", "ratio");
	char name[16], *gp;

	REQUIRE(d && f);
	for (int i = 0; i < 50; i++) {
		struct lab_doc_curve *c;

		snprintf(name, sizeof(name), "c%d", i);
		REQUIRE((c = lab_doc_curve(f, name, LAB_DOC_LINES)));
		lab_doc_point(c, 2, 1 + i, i + 0.5, i + 1.5);
	}
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("onexh00-e-curves.gp")));
	CHECK(strstr(gp, "(one bar a curve)") != NULL);
	CHECK(strstr(gp, "size 720,480 ") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* review41/hostile41: a curve with no point before the drawn ones moved them all one way (its
 * block counted in their places), far off with 20 of them; the drawn two spread around the
 * true x. plots40: a heat map of one value colours from 0. */
LAB_TEST(gnuplot_dodge_and_one_value_heat)
{
	struct lab_doc *d = lab_doc_new("dodge", "Dodge");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: cost", "chunk", "ns");
	struct lab_doc_figure *h = lab_doc_figure(s, "heat", "e: pairs", NULL, NULL);
	struct lab_doc_matrix *m = lab_doc_matrix(s, "latency", "one-way latency", 2, 2);
	char *gp;

	REQUIRE(d && f && h && m);
	f->logx = 2;
	f->dodge = 1;
	for (int i = 0; i < 20; i++)
		lab_doc_gap(lab_doc_curve(f, "skipped", LAB_DOC_LINES), "1", "skipped");
	for (int i = 0; i < 2; i++) {
		struct lab_doc_curve *c = lab_doc_curve(f, i ? "guided" : "dynamic", LAB_DOC_LINES);

		REQUIRE(c);
		lab_doc_point(c, 1, 100 + i, 90, 110);
		lab_doc_point(c, 4, 200 + i, 190, 210);
	}
	h->heat = m;
	lab_doc_num(lab_doc_mat(m, 0, 1), 121);
	lab_doc_num(lab_doc_mat(m, 1, 0), 121);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("dodge00-e-curves.gp")));
	/* (the empty curves have no block: review43) */
	CHECK(strstr(gp, "index 0 using ($1*0.995389679):2:3:4") != NULL);
	CHECK(strstr(gp, "index 1 using ($1*1.00463167):2:3:4") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("dodge01-e-heat.gp")));
	CHECK(strstr(gp, "set cbrange [0:*]\n") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* hostile41: a caption's conditions cut at 100 bytes say so. */
LAB_TEST(gnuplot_caption_cut_says_so)
{
	char sub[260]; /* past the caption's 220 bytes of conditions */
	struct lab_doc *d = lab_doc_new("cap", "Cap");
	struct lab_doc_section *s;
	struct lab_doc_figure *f;
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};

	memset(sub, 'a', sizeof(sub) - 1);
	sub[sizeof(sub) - 1] = '\0';
	REQUIRE(d && (s = lab_doc_section(d, "e", sub)) && pdir.fd >= 0);
	REQUIRE((f = lab_doc_figure(s, "curves", "e: cost", "n", "ns")));
	lab_doc_point(lab_doc_curve(f, "c", LAB_DOC_LINES), 1, 2, NAN, NAN);
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE(plots.n == 1);
	CHECK(strlen(plots.p[0].title) > 5 &&
	      !strcmp(plots.p[0].title + strlen(plots.p[0].title) - 5, "a...)"));
	lab_an_plots_free(&plots);
	close(pdir.fd);
	lab_doc_free(d);
}

/* A document of one figure with a log y axis and one curve, *c (NULL: out of memory). */
static struct lab_doc *rd_log_doc(const char *key, struct lab_doc_curve **c)
{
	struct lab_doc *d = lab_doc_new(key, "Log");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: cost", "threads", "ns");

	*c = lab_doc_curve(f, "c", LAB_DOC_LINES);
	if (f)
		f->logy = 10;
	return d;
}

/* plots40: one interval of 3.5e-5 .. 2.3e5 around 2.85 made a log axis twelve decades; the
 * axis spans a decade past the values, the bar runs to the frame, the x label says so. */
LAB_TEST(gnuplot_log_range_follows_the_values)
{
	struct lab_doc_curve *c;
	struct lab_doc *d = rd_log_doc("wide", &c);
	char *gp;

	REQUIRE(d && c);
	lab_doc_point(c, 1, 2, 1.5, 2.5);
	lab_doc_point(c, 2, 2.85, 3.5e-5, 2.3e5);
	lab_doc_point(c, 4, 30, 25, 35);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("wide00-e-curves.gp")));
	CHECK(strstr(gp, "set yrange [0.2:300]\n") != NULL);
	CHECK(strstr(gp, "'(a bar to the frame: its interval reaches past the axis, a decade "
	                 "beyond the values)'") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots46: a log axis from 10 to 2e7 read "1e+07, 1e+06, 100000": whole numbers throughout;
 * one reaching below 2 keeps %g (0.5 would read 0). */
LAB_TEST(gnuplot_log_axis_whole_numbers)
{
	struct lab_doc_curve *c;
	struct lab_doc *d = rd_log_doc("logw", &c);
	char *gp;

	REQUIRE(d && c);
	lab_doc_point(c, 1, 10, NAN, NAN);
	lab_doc_point(c, 2, 2e7, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("logw00-e-curves.gp")));
	CHECK(strstr(gp, "set logscale y 10\nset format y '%.0f'\n") != NULL);
	free(gp);
	lab_doc_point(c, 4, 0.5, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("logw00-e-curves.gp")));
	CHECK(strstr(gp, "set logscale y 10\nset format y '%g'\n") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots44: a log axis cut at the top, with a bar to 0 below it, says both. */
LAB_TEST(gnuplot_cut_and_zero_both_said)
{
	struct lab_doc_curve *c;
	struct lab_doc *d = rd_log_doc("both", &c);
	char *gp;

	REQUIRE(d && c);
	lab_doc_point(c, 1, 2, 0, 3);
	lab_doc_point(c, 2, 3, 2.5, 3.5e5);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("both00-e-curves.gp")));
	/* on two lines: one of 115 bytes lost both ends (plots46) */
	CHECK(strstr(gp, "'(a bar to the frame: its interval reaches past the axis, a decade "
	                 "beyond the values; '.\"\\n\".'or reaches 0, below a log axis)'") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots38: on a log axis an interval that reaches 0 is drawn to the bottom of the frame, not
 * from its point up; one open above to the top, not as a bare point; a size axis reads KiB. */
LAB_TEST(gnuplot_bars_past_the_axis_reach_the_frame)
{
	struct lab_doc *d = lab_doc_new("ends", "Ends");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "e: cost", "size (bytes)", "ns");
	struct lab_doc_curve *c = lab_doc_curve(f, "c", LAB_DOC_LINES);
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	char *gp, *dat;

	REQUIRE(d && c && pdir.fd >= 0);
	f->logx = 2;
	f->logy = 10;
	f->xbytes = 1;
	lab_doc_point(c, 1024, 17.5, NAN, 45); /* [0, 45]: 0 has no place on a log axis */
	lab_doc_point(c, 4096, 10, 6, INFINITY);
	lab_doc_point(c, 16384, 3, 2, 4);
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE((gp = rd_read("ends00-e-curves.gp")) && (dat = rd_read("ends00-e-curves.dat")));
	/* a tic at each measured size (powers alone left 8 MiB unlabelled, plots43) */
	CHECK(strstr(gp, "set xtics ('1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384)\n") != NULL);
	CHECK(strstr(gp, "set yrange [0.666666667:135]\n") != NULL);
	/* no margin past an end the bars run to (gnuplot moves a fixed end by it too where
	 * the other is autoscaled) */
	CHECK(strstr(gp, "set offsets graph 0.05, graph 0.05, 0, 0\n") != NULL);
	/* said under the x label, where it covers no point (review39) */
	CHECK(strstr(gp, "set xlabel 'size (bytes)'.\"\\n\".'(a bar to the frame: its interval "
	                 "reaches past it") != NULL);
	CHECK(strstr(dat, " 1024 17.5 0.666666667 45\n") != NULL);
	CHECK(strstr(dat, " 4096 10 6 135\n") != NULL);
	CHECK(strstr(dat, " 16384 3 2 4\n") != NULL);
	free(gp);
	free(dat);
	lab_an_plots_free(&plots);
	close(pdir.fd);
	lab_doc_free(d);
}

/* plots44: a linear axis of few x has a tic at each (offsets 0, 8 and 32 bytes had tics at
 * 5, 10, 15, ...), none where labels would run together; a linear y axis that reaches a million
 * is in whole numbers throughout ("500000" stood beside "1e+06"), up to 1e10. */
LAB_TEST(gnuplot_linear_tics_at_the_values)
{
	struct lab_doc *d = lab_doc_new("lin", "Lin");
	struct lab_doc_section *s = lab_doc_section(d, "l", NULL);
	struct lab_doc_figure *f = lab_doc_figure(s, "curves", "l: cost", "offset (bytes)", "ns");
	struct lab_doc_figure *g = lab_doc_figure(s, "crowd", "l: crowd", "threads", "ns");
	struct lab_doc_curve *c = lab_doc_curve(f, "c", LAB_DOC_LINES);
	struct lab_doc_curve *k = lab_doc_curve(g, "k", LAB_DOC_LINES);
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	char *gp;

	REQUIRE(d && c && k && pdir.fd >= 0);
	f->xbytes = 1;
	lab_doc_point(c, 0, 5e5, NAN, NAN);
	lab_doc_point(c, 4608, 1.5e6, NAN, NAN);
	lab_doc_point(c, 9000, 2.5e6, NAN, NAN);
	lab_doc_point(k, 100, 2e10, NAN, NAN);
	lab_doc_point(k, 1234567, 3e10, NAN, NAN);
	lab_doc_point(k, 1300000, 2.5e10, NAN, NAN); /* a 10th of the span from the one before */
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE((gp = rd_read("lin00-l-curves.gp")));
	CHECK(strstr(gp, "set xtics ('0 B' 0, '4.5 KiB' 4608, '9000 B' 9000)\n") != NULL);
	CHECK(strstr(gp, "set format y '%.0f'\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("lin01-l-crowd.gp")));
	CHECK(strstr(gp, "set xtics") == NULL);    /* labels that would run together: gnuplot's */
	CHECK(strstr(gp, "set format y") == NULL); /* past 1e10 %g is alike on every tic */
	free(gp);
	/* a size in full, not 1.23457e+06 B (review46): the two far apart */
	k->n = 2;
	g->xbytes = 1;
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE((gp = rd_read("lin01-l-crowd.gp")));
	CHECK(strstr(gp, "set xtics ('100 B' 100, '1234567 B' 1234567)\n") != NULL);
	free(gp);
	lab_an_plots_free(&plots);
	close(pdir.fd);
	lab_doc_free(d);
}

LAB_TEST(gnuplot_golden_and_quoting)
{
	struct lab_doc *d = rd_fixture();
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	char *gp, *dat;

	REQUIRE(d && pdir.fd >= 0);
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE(plots.n == 3);
	CHECK_EQ_STR(plots.p[0].base, "fixture00-exp1-size_16K_team_lab");
	CHECK_EQ_STR(plots.p[0].kind, "curves");
	CHECK_EQ_STR(plots.p[0].view, "fixture");
	CHECK_EQ_U64(plots.p[1].group, 1);
	CHECK_EQ_STR(plots.p[1].kind, "heatmap");
	REQUIRE((gp = rd_read("fixture00-exp1-size_16K_team_lab.gp")));
	REQUIRE((dat = rd_read("fixture00-exp1-size_16K_team_lab.dat")));
	rd_golden("fixture00.gp", gp);
	rd_golden("fixture00.dat", dat);
	CHECK(strstr(gp, "`id`") == NULL || strstr(gp, "'<script>x</script> ''q''") != NULL);
	CHECK(strstr(gp, "\nline2") == NULL); /* a newline never ends a command */
	free(gp);
	free(dat);
	REQUIRE((gp = rd_read("fixture01-all-heat.gp")));
	REQUIRE((dat = rd_read("fixture01-all-heat.dat")));
	rd_golden("fixture01.gp", gp);
	rd_golden("fixture01.dat", dat);
	free(gp);
	free(dat);
	/* stacked shares: a bar per x, the hostile label a quoted tic, no curve of another style */
	CHECK_EQ_STR(plots.p[2].kind, "curves");
	REQUIRE((gp = rd_read("fixture02-all-shares.gp")));
	REQUIRE((dat = rd_read("fixture02-all-shares.dat")));
	rd_golden("fixture02.gp", gp);
	rd_golden("fixture02.dat", dat);
	CHECK(strstr(gp, "set style histogram rowstacked\n") != NULL);
	CHECK(strstr(gp, "('<script>x</script> ''q'' \"d\" _id_ a\\b line2' 0, '3' 1)\n") != NULL);
	CHECK(strstr(gp, "`") == NULL && strstr(gp, "\nline2") == NULL);
	CHECK(strstr(gp, "not drawn") == NULL);
	CHECK(strstr(dat, "\n 0 0.5 0.5 NaN\n 3 0.25 NaN 0.75\n") != NULL);
	free(gp);
	free(dat);
	close(pdir.fd);
	lab_an_plots_free(&plots);
	lab_doc_free(d);
}

/* Out of memory part way: the builders stop, the document says so, freeing is safe. */
LAB_TEST(null_handles_are_safe)
{
	struct lab_doc_table *t = lab_doc_table(NULL, "k", NULL);

	lab_doc_col(t, "a", NULL, LAB_DOC_VALUE);
	lab_doc_row(t);
	lab_doc_num(lab_doc_at(t, 0), 1);
	lab_doc_rnote(t, "x");
	lab_doc_point(
	    lab_doc_curve(lab_doc_figure(NULL, "f", NULL, NULL, NULL), "c", LAB_DOC_LINES), 1, 2,
	    NAN, NAN);
	lab_doc_num(lab_doc_mat(lab_doc_matrix(NULL, "m", NULL, 2, 2), 0, 0), 1);
	CHECK(lab_doc_failed(NULL));
	lab_doc_free(NULL);
}

/* A column whose names (key, key_mean, key_ci95, ...) another column's or a row's own hold
 * gets a number: a counter column named point, or a metric a_ci95 beside an interval a, made a
 * JSON row with a key twice and a CSV header with a column twice. */
LAB_TEST(column_keys_stay_distinct)
{
	struct lab_doc *d = lab_doc_new("k", "Keys");
	struct lab_doc_table *t = lab_doc_table(lab_doc_section(d, "e", NULL), "t", NULL);

	REQUIRE(t);
	lab_doc_col(t, "point", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "a", NULL, LAB_DOC_INTERVAL);
	lab_doc_col(t, "point", NULL, LAB_DOC_VALUE);
	lab_doc_col(t, "a_ci95", NULL, LAB_DOC_VALUE);
	lab_doc_col(t, "note", NULL, LAB_DOC_VALUE);
	lab_doc_col(t, "b", NULL, LAB_DOC_VALUE);
	lab_doc_col(t, "b_2", NULL, LAB_DOC_VALUE); /* its own name, b's is not taken */
	/* only the names a kind gives: a text c has no c_n, an interval c has */
	lab_doc_col(t, "c_n", NULL, LAB_DOC_VALUE);
	lab_doc_col(t, "c", NULL, LAB_DOC_TEXT);
	lab_doc_col(t, "c", NULL, LAB_DOC_INTERVAL);
	REQUIRE(t->ncol == 10);
	CHECK_EQ_STR(t->col[8].key, "c");
	CHECK_EQ_STR(t->col[9].key, "c_2");
	CHECK_EQ_STR(t->col[0].key, "point");
	CHECK_EQ_STR(t->col[1].key, "a");
	CHECK_EQ_STR(t->col[2].key, "point_2");
	CHECK_EQ_STR(t->col[3].key, "a_ci95_2");
	CHECK_EQ_STR(t->col[4].key, "note_2");
	CHECK_EQ_STR(t->col[5].key, "b");
	CHECK_EQ_STR(t->col[6].key, "b_2");
	lab_doc_free(d);
}

/* A table for tools (the data in full) goes to JSON and CSV alone, a table for people (its
 * shorter view) to the text and HTML alone. */
LAB_TEST(tables_by_audience)
{
	struct lab_doc *d = lab_doc_new("aud", "Audience");
	struct lab_doc_section *s = lab_doc_section(d, "exp1", NULL);
	struct lab_doc_table *full = lab_doc_table(s, "full", "the full table");
	struct lab_doc_table *brief = lab_doc_table(s, "brief", "the brief table");
	struct lab_json w;
	char *text = NULL, *html = NULL, *json = NULL, *names[4];
	size_t len;
	FILE *f;

	REQUIRE(full && brief);
	full->audience = LAB_DOC_TOOLS;
	brief->audience = LAB_DOC_PEOPLE;
	lab_doc_col(full, "samples_in_full", NULL, LAB_DOC_COUNT);
	lab_doc_row(full);
	lab_doc_num(lab_doc_at(full, 0), 3);
	lab_doc_col(brief, "brief_col", NULL, LAB_DOC_COUNT);
	lab_doc_row(brief);
	lab_doc_num(lab_doc_at(brief, 0), 4);
	REQUIRE(!lab_doc_failed(d));
	RD_CAPTURE(text, g, lab_render_text(g, d));
	RD_CAPTURE(html, g, lab_render_html(g, d, NULL, testlib_tmpdir()));
	REQUIRE((f = open_memstream(&json, &len)) != NULL);
	lab_json_begin_digits(&w, f, 10);
	lab_json_obj_open(&w, NULL);
	lab_render_json(&w, d, (const size_t[]){0}, 1);
	lab_json_obj_close(&w);
	lab_json_end(&w);
	fclose(f);
	CHECK(strstr(text, "brief_col") && !strstr(text, "samples_in_full"));
	CHECK(strstr(html, "brief_col") && !strstr(html, "samples_in_full"));
	CHECK(!strstr(json, "brief") && strstr(json, "\"samples_in_full\": 3"));
	REQUIRE(lab_render_csv_names(d, names, 4) == 1);
	CHECK_EQ_STR(names[0], "aud_full.csv");
	free(names[0]);
	free(json);
	free(html);
	free(text);
	lab_doc_free(d);
}

/* A sweep of many points stays readable and small: a curve of 5000 points is drawn as each x
 * step's lowest and highest (a spike among them kept, the legend saying so), the report shows
 * the first 1000 rows of a table and the later rows with a warning, the first 200 sections of
 * a view and the later ones with a warning; each says how many there were. */
/* A figure of thousands of curves (a hand-made scan, one tile each) draws the first 100 and says
 * how many more there are: gnuplot reads the .dat once per curve (16 000: 28 s, hostile33). A
 * ceiling is a function, not a block: it is drawn past the cap. */
LAB_TEST(many_curves_are_capped)
{
	struct lab_doc *d = lab_doc_new("many", "Many");
	struct lab_doc_section *s = lab_doc_section(d, "e", "one");
	struct lab_doc_figure *g = lab_doc_figure(s, "curve", "cost", "x", "y");
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	char *gp, *dat;
	size_t blocks = 1;

	REQUIRE(pdir.fd >= 0);
	for (int i = 0; i < 150; i++) {
		struct lab_doc_curve *c =
		    lab_doc_curve(g, lab_doc_printf(d, "tile=%d", i), LAB_DOC_LINES);
		lab_doc_point(c, 1, i, NAN, NAN);
		lab_doc_point(c, 2, i + 1, NAN, NAN);
	}
	struct lab_doc_curve *roof = lab_doc_curve(g, "roof", LAB_DOC_ROOF);
	roof->a = 5;
	roof->b = NAN;
	REQUIRE(!lab_doc_failed(d));
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE((gp = rd_read("many00-e-one.gp")) && (dat = rd_read("many00-e-one.dat")));
	for (const char *p = dat; (p = strstr(p, "\n\n\n")); p += 3)
		blocks++;
	CHECK_EQ_U64(blocks, 100);
	CHECK(strstr(gp, "index 99 ") != NULL && strstr(gp, "index 100 ") == NULL);
	CHECK(strstr(gp, "'tile=99'") != NULL && strstr(gp, "'tile=100'") == NULL);
	CHECK(strstr(gp, "(50 more curves not drawn: the tables have them)") != NULL);
	CHECK(strstr(gp, "'roof'") != NULL);
	free(gp);
	free(dat);
	close(pdir.fd);
	lab_an_plots_free(&plots);
	lab_doc_free(d);
}

/* hostile42: a bar chart of 101 curves became 100 points on one vertical line, its legend off
 * the canvas; 300 stacked bars (a top-down chart of 20 000 points made a 60 MB SVG) were all
 * drawn and named; 4 000 curves that draw nothing made the canvas height quadratic. */
LAB_TEST(bar_charts_are_capped_and_linear)
{
	struct lab_doc *d = lab_doc_new("capb", "Cap");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *g = lab_doc_figure(s, "bars", "e: locks", "threads", "ops");
	struct lab_doc_figure *h = lab_doc_figure(s, "stack", "e: topdown", NULL, "share");
	struct lab_doc_figure *q = lab_doc_figure(s, "empty", "e: gaps", "chunk", "ns"), *r;
	struct lab_doc_curve *c;
	char *gp, *dat;
	size_t lines = 0;
	unsigned long long probes;

	REQUIRE(d && g && h && q);
	for (int i = 0; i < 101; i++) {
		REQUIRE((c = lab_doc_curve(g, lab_doc_printf(d, "L%d", i), LAB_DOC_LINES)));
		lab_doc_point(c, 2, 10 + i, 9.5 + i, 10.5 + i);
	}
	for (int k = 0; k < 2; k++) {
		REQUIRE((c = lab_doc_curve(h, k ? "back-end" : "retiring", LAB_DOC_STACK)));
		for (int i = 0; i < 300; i++)
			lab_doc_point(c, i, 0.5, NAN, NAN);
	}
	for (int i = 0; i < 300; i++)
		lab_doc_flabel(h, i, 0, lab_doc_printf(d, "point %d", i));
	/* review43: 300 series drew 300 legend rows */
	REQUIRE((r = lab_doc_figure(s, "series", "e: series", NULL, "share")));
	for (int k = 0; k < 300; k++) {
		REQUIRE((c = lab_doc_curve(r, lab_doc_printf(d, "c%d", k), LAB_DOC_STACK)));
		for (int i = 0; i < 3; i++)
			lab_doc_point(c, i, 0.001, NAN, NAN);
	}
	REQUIRE((c = lab_doc_curve(q, "dynamic", LAB_DOC_LINES)));
	lab_doc_point(c, 1, 5, 4, 6);
	lab_doc_point(c, 4, 3, 2, 4);
	for (int i = 0; i < 4000; i++)
		REQUIRE(lab_doc_curve(q, lab_doc_printf(d, "s%d", i), LAB_DOC_LINES));
	REQUIRE(!lab_doc_failed(d));
	probes = lab_render_gnuplot_probes();
	REQUIRE(rd_plot(d) == 0);
	/* every figure looks at each curve a few times, not once for each other curve */
	CHECK(lab_render_gnuplot_probes() - probes < 50 * 4400);
	REQUIRE((gp = rd_read("capb00-e-bars.gp")));
	CHECK(strstr(gp, "(one bar a curve)") != NULL);
	CHECK(strstr(gp, "index 99 using (99):2:3:4:(0.6) with boxerrorbars") != NULL);
	CHECK(strstr(gp, "index 100 ") == NULL);
	CHECK(strstr(gp, "(1 more bars not drawn: the tables have them)") != NULL);
	CHECK(strstr(gp, "'L0' 0, 'L5' 5, ") != NULL); /* 100 bars: every fifth named */
	free(gp);
	REQUIRE((gp = rd_read("capb01-e-stack.gp")) && (dat = rd_read("capb01-e-stack.dat")));
	for (const char *p = dat; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK_EQ_U64(lines, 101); /* the header and 100 bars */
	CHECK(strstr(gp, "(200 more bars not drawn: the tables have them)") != NULL);
	CHECK(strstr(gp, "'point 5' 5, ") != NULL && strstr(gp, "'point 1' 1,") == NULL);
	CHECK(strstr(gp, "\nset label") == NULL);
	CHECK(strstr(gp, "size 720,480 ") != NULL);
	free(gp);
	free(dat);
	REQUIRE((gp = rd_read("capb03-e-series.gp")));
	CHECK(strstr(gp, "using 101 lc ") != NULL && strstr(gp, "using 102 ") == NULL);
	CHECK(strstr(gp, "(200 more series not drawn: the tables have them)") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots43: a figure's conditions and its load-flag note ran to 110 characters, both ends cut
 * on 720 pixels (the number of flagged points went): lines of 76 at most, broken after ';'. */
LAB_TEST(gnuplot_long_sub_wraps)
{
	char sub[256] = "";
	struct lab_doc *d = lab_doc_new("wrap", "Wrap");
	struct lab_doc_section *s;
	struct lab_doc_curve *c;
	char *gp;

	for (int i = 0; i < 12; i++)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "%sparam%02d=value",
		         i ? ";" : "", i);
	s = lab_doc_section(d, "e", sub);
	REQUIRE((c = lab_doc_curve(lab_doc_figure(s, "c", "e: t", "n", "y"), "c", LAB_DOC_LINES)));
	lab_doc_point(c, 1, 1, NAN, NAN);
	lab_doc_point(c, 2, 2, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("wrap00-e-param00_value_param01_value_param02_value_param03_value_"
	                      "param04_value_param05_va.gp")));
	/* lines of 76 bytes: 88 lost their ends where gnuplot centres the title (plots44) */
	CHECK(strstr(gp, "set title 'e: t'.\"\\n\".'param00=value;param01=value;param02=value;"
	                 "param03=value;param04=value;'.\"\\n\".'param05=value;param06=value;"
	                 "param07=value;param08=value;param09=value;'.\"\\n\".'param10=value;"
	                 "param11=value' noenhanced\n") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* plots43: a rotated y label longer than the plot is high ran into the subtitle: lines of
 * 40 bytes at most, broken after a ',' or ';' past half of them, else a space. */
LAB_TEST(gnuplot_long_ylabel_wraps)
{
	struct lab_doc *d = lab_doc_new("ylab", "Y label");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_curve *c;
	char *gp;

	REQUIRE((c = lab_doc_curve(
	             lab_doc_figure(s, "h", "e: t", "threads",
	                            "hand-off ratio, acquisitions by another thread (95% CI)"),
	             "c", LAB_DOC_LINES)));
	lab_doc_point(c, 1, 1, NAN, NAN);
	lab_doc_point(c, 2, 2, NAN, NAN);
	REQUIRE(
	    (c = lab_doc_curve(lab_doc_figure(s, "s", "e: short", "n", "ns"), "c", LAB_DOC_LINES)));
	lab_doc_point(c, 1, 1, NAN, NAN);
	lab_doc_point(c, 2, 2, NAN, NAN);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("ylab00-e-h.gp")));
	CHECK(strstr(gp, "set ylabel 'hand-off ratio, '.\"\\n\".'acquisitions by another thread "
	                 "(95% CI)'\n") != NULL);
	free(gp);
	REQUIRE((gp = rd_read("ylab01-e-s.gp")));
	CHECK(strstr(gp, "set ylabel 'ns'\n") != NULL);
	free(gp);
	lab_doc_free(d);
}

/* review43: curves without points took blocks of the .dat, so 60 of them before 90 bars drew
 * 40 bars and said 50 more were not drawn; one curve after 20 000 empty ones never drew. */
LAB_TEST(empty_curves_take_no_block)
{
	struct lab_doc *d = lab_doc_new("eblk", "Empty");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *g = lab_doc_figure(s, "bars", "e: locks", "threads", "ops");
	struct lab_doc_figure *h = lab_doc_figure(s, "late", "e: late", "chunk", "ns");
	struct lab_doc_curve *c;
	char *gp;

	REQUIRE(d && g && h);
	for (int i = 0; i < 150; i++) {
		REQUIRE((c = lab_doc_curve(g, lab_doc_printf(d, "L%d", i), LAB_DOC_LINES)));
		if (i >= 60)
			lab_doc_point(c, 2, 10 + i, 9.5 + i, 10.5 + i);
	}
	for (int i = 0; i < 20000; i++)
		REQUIRE(lab_doc_curve(h, "skipped", LAB_DOC_LINES));
	REQUIRE((c = lab_doc_curve(h, "dynamic", LAB_DOC_LINES)));
	lab_doc_point(c, 1, 5, 4, 6);
	lab_doc_point(c, 4, 3, 2, 4);
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("eblk00-e-bars.gp")));
	CHECK(strstr(gp, "index 89 using (89):2:3:4:(0.6) with boxerrorbars") != NULL);
	CHECK(strstr(gp, "more bars not drawn") == NULL);
	free(gp);
	REQUIRE((gp = rd_read("eblk01-e-late.gp")));
	CHECK(strstr(gp, "index 0 using 1:2:3:4 with yerrorlines") != NULL);
	CHECK(strstr(gp, "more curves not drawn") == NULL);
	free(gp);
	lab_doc_free(d);
}

/* hostile44: a roofline's points, in point order, shared no x step with their neighbours,
 * so 20 000 of them were all drawn (an 8 MB SVG): a scatter keeps a point a grid cell. */
LAB_TEST(large_scatter_is_thinned)
{
	struct lab_doc *d = lab_doc_new("scat", "Scatter");
	struct lab_doc_section *s = lab_doc_section(d, "e", NULL);
	struct lab_doc_figure *g = lab_doc_figure(s, "roof", "e: r", "flops per byte", "GFLOP/s");
	struct lab_doc_curve *c = lab_doc_curve(g, "points", LAB_DOC_POINTS);
	char *gp, *dat;
	size_t lines = 0;

	REQUIRE(d && g && c);
	g->logx = g->logy = 10;
	for (int i = 0; i < 20000; i++) /* intensities that cycle: no two neighbours alike */
		lab_doc_point(c, 0.01 * (1 + (i * 7919) % 997), 1 + (i * 104729) % 1009, NAN, NAN);
	lab_doc_point(c, 0.5, 1e6, NAN, NAN); /* one far point: its cell alone */
	REQUIRE(rd_plot(d) == 0);
	REQUIRE((gp = rd_read("scat00-e-roof.gp")) && (dat = rd_read("scat00-e-roof.dat")));
	for (const char *p = dat; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(lines > 100 && lines <= 65 * 65 + 1);
	CHECK(strstr(dat, " 0.5 1000000 ") != NULL);
	CHECK(strstr(gp, "of 20001 points: one a cell of a grid]") != NULL);
	free(gp);
	free(dat);
	lab_doc_free(d);
}

LAB_TEST(large_documents_are_capped)
{
	struct lab_doc *d = lab_doc_new("big", "Big");
	struct lab_doc_section *s = lab_doc_section(d, "e", "one");
	struct lab_doc_figure *g = lab_doc_figure(s, "curve", "cost", "x", "y");
	struct lab_doc_curve *c = lab_doc_curve(g, "sweep", LAB_DOC_LINES);
	struct lab_doc_table *t = lab_doc_table(s, "rows", NULL);
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(testlib_tmpdir(), O_RDONLY | O_DIRECTORY), testlib_tmpdir(),
	                           NULL};
	struct lab_err err = {0};
	char *gp, *dat, *html = NULL, *text = NULL;
	size_t lines = 0;

	REQUIRE(pdir.fd >= 0);
	for (int i = 1; i <= 5000; i++)
		lab_doc_point(c, i, i == 3777 ? 1e6 : 10 + i % 7, NAN, NAN);
	lab_doc_point(c, -1e6, 10, NAN, NAN); /* no place on a log axis: no part of its span */
	g->logx = 2;
	lab_doc_col(t, "k", NULL, LAB_DOC_KEY);
	for (int i = 0; i < 1500; i++) {
		lab_doc_row(t);
		lab_doc_str(d, lab_doc_at(t, 0), lab_doc_printf(d, "row%d", i));
		if (i == 1400)
			lab_doc_rnote(t, "LATE WARNING");
	}
	for (int i = 0; i < 150; i++) /* a precision line per point (scale35: 23 MB of them) */
		lab_doc_note(s, "note%d.", i);
	for (int i = 0; i < 300; i++) {
		struct lab_doc_section *x = lab_doc_section(d, "e", lab_doc_printf(d, "sec%d", i));
		if (i == 250)
			lab_doc_finding(x, LAB_DOC_WARN, NULL, "LATE SECTION WARNING");
	}
	REQUIRE(!lab_doc_failed(d));
	REQUIRE(lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
	REQUIRE((gp = rd_read("big00-e-one.gp")) && (dat = rd_read("big00-e-one.dat")));
	for (const char *p = dat; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(lines > 100 && lines <= 2001);
	CHECK(strstr(dat, " 3777 1000000 ") != NULL); /* the spike is drawn */
	CHECK(strstr(gp, "of 5001 points: x-step extremes]") != NULL);
	RD_CAPTURE(html, f, lab_render_html(f, d, NULL, testlib_tmpdir()));
	CHECK(strstr(html, ">row999<") != NULL && strstr(html, ">row1000<") == NULL);
	CHECK(strstr(html, ">row1400<") != NULL && strstr(html, "LATE WARNING") != NULL);
	CHECK(strstr(html, "1500 rows, the first 1000 shown") != NULL);
	CHECK(strstr(html, "sec198") != NULL && strstr(html, "sec199") == NULL);
	CHECK(strstr(html, "sec250") != NULL && strstr(html, "LATE SECTION WARNING") != NULL);
	CHECK(strstr(html, "301 sections, the first 200 shown") != NULL);
	CHECK(strstr(html, "note99.") != NULL && strstr(html, "note100.") == NULL);
	CHECK(strstr(html, "50 more notes") != NULL);
	/* the text output keeps everything */
	RD_CAPTURE(text, f, lab_render_text(f, d));
	CHECK(strstr(text, "row1499") != NULL && strstr(text, "sec299") != NULL);
	CHECK(strstr(text, "note149.") != NULL);
	free(gp);
	free(dat);
	free(html);
	free(text);
	close(pdir.fd);
	lab_an_plots_free(&plots);
	lab_doc_free(d);
}
