/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every view of views.def, on data it applies to, yields every format: text tables, a report
 * section, its analysis.json object, CSV files for its tables and plots for its figures, all
 * written by the renderers from the view's one document.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/jsonr.h"
#include "analyze/plots_int.h"
#include "analyze/render/render.h"
#include "analyze/views/views.h"
#include "harness/json.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* Fixtures that between them reach every view (with the run below: atomics, fs_layout and
 * perf_c2c). */
static const char *const fm_fixtures[] = {
    "results-usl",        "results-c2c",      "results-locks",        "results-counters",
    "results-numa-2node", "results-roofline", "results-omp-overhead", "results-omp-schedule",
    "results-reduce",     "results-scan",     "results-chapters",     NULL};

/* What fn wrote into a string (malloc'd). */
static char *fm_text(const struct lab_doc *d, int html)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (html)
		lab_render_html(f, d, NULL, testlib_tmpdir());
	else
		lab_render_text(f, d);
	fclose(f);
	return buf;
}

/* 1 when d's JSON (all its sections) parses and holds the view's key. */
static int fm_json(const struct lab_doc *d)
{
	size_t *all = calloc(d->ns ? d->ns : 1, sizeof(*all)), len;
	struct lab_an_json *j = NULL;
	struct lab_json w;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	int ok;

	for (size_t i = 0; i < d->ns; i++)
		all[i] = i;
	lab_json_begin(&w, f);
	lab_json_obj_open(&w, NULL);
	lab_render_json(&w, d, all, d->ns);
	lab_json_obj_close(&w);
	lab_json_end(&w);
	fclose(f);
	ok = lab_an_json_parse("view.json", buf, len, &j, NULL) == 0 &&
	     lab_an_json_get(lab_an_json_get(j, d->view), "sections") != NULL;
	lab_an_json_free(j);
	free(buf);
	free(all);
	return ok;
}

/* How many blocks of type d has. */
static size_t fm_count(const struct lab_doc *d, enum lab_doc_btype type)
{
	size_t n = 0;

	for (size_t i = 0; i < d->ns; i++)
		for (size_t j = 0; j < d->s[i]->nb; j++)
			n += d->s[i]->b[j].type == type;
	return n;
}

/* Checks every format of view run r's document; dir is a fresh directory for its files. */
static void fm_check(const struct lab_an_view_run *r, const char *dir)
{
	const struct lab_doc *d = r->doc;
	struct lab_an_plots plots = {0};
	struct lab_an_pdir pdir = {open(dir, O_RDONLY | O_DIRECTORY), dir, NULL};
	struct lab_err err = {0};
	char *text = fm_text(d, 0), *html = fm_text(d, 1), *names[32];
	size_t ncsv = lab_render_csv_names(d, names, 32);

	fprintf(stderr, "view %s: %zu sections, %zu tables, %zu figures\n", d->view, d->ns,
	        fm_count(d, LAB_DOC_TABLE), fm_count(d, LAB_DOC_FIGURE));
	CHECK(d->ns > 0);
	CHECK(text && strstr(text, "\n== ") != NULL);
	CHECK(html && strstr(html, "<h2>") != NULL);
	CHECK(fm_json(d));
	CHECK(fm_count(d, LAB_DOC_TABLE) > 0);
	CHECK(ncsv > 0);
	CHECK(lab_render_csv(d, dir, NULL, &err) == 0);
	for (size_t i = 0; i < ncsv; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		CHECK(stat(path, &st) == 0 && st.st_size > 0);
		free(names[i]);
	}
	if (fm_count(d, LAB_DOC_FIGURE)) {
		CHECK(pdir.fd >= 0 && lab_render_gnuplot(d, &pdir, &plots, &err) == 0);
		CHECK(plots.n > 0);
	}
	if (pdir.fd >= 0)
		close(pdir.fd);
	lab_an_plots_free(&plots);
	free(text);
	free(html);
}

/* Analyzes tmpdir/name and checks each view that applies; marks them in seen. */
static void fm_dir(const char *name, int *seen)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_err err = {0};
	char dir[2048], out[2100];

	snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), name);
	if (lab_an_data_load_dir(&d, dir, &err) || lab_an_data_summarize(&d, 1, &err) ||
	    lab_an_analysis_run(&d, 1, &a, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		CHECK(0);
		lab_an_data_free(&d);
		return;
	}
	for (size_t i = 0; i < a.nviews; i++) {
		if (!a.views[i].doc)
			continue;
		seen[i] = 1;
		snprintf(out, sizeof(out), "%s-%s", dir, a.views[i].v->name);
		REQUIRE(mkdir(out, 0700) == 0);
		fm_check(&a.views[i], out);
	}
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(every_view_every_format)
{
	int seen[64] = {0};
	size_t n = 0;
	char *out = NULL, *err = NULL, path[2048];
	FILE *f;

	while (lab_an_views[n])
		n++;
	REQUIRE(n <= 64);
	for (size_t i = 0; i < n; i++)
		CHECK(lab_an_views[i]->describe != NULL);
	for (size_t i = 0; fm_fixtures[i]; i++) {
		clitest_copy(fm_fixtures[i]);
		fm_dir(fm_fixtures[i], seen);
	}
	/* atomics, fs_layout and perf_c2c (here perf is not found): a tiny real run */
	snprintf(path, sizeof(path), "%s/a.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")) != NULL);
	fputs("[global]\nthreads = 1\nreps = 1\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n\n"
	      "[atomics]\nkernel = atomic_rmw\nop = fetch_add\ntarget = shared, sharded\n\n"
	      "[sl]\nkernel = false_sharing\nop = rmw\nlayout = struct, struct_aligned, stride\n\n"
	      "[pc]\nkernel = noop\nperf_c2c = on\n",
	      f);
	fclose(f);
	REQUIRE(clitest_run("PATH=/nonexistent", "run a.ini -o A --no-progress", &out, &err) == 0);
	free(out);
	free(err);
	fm_dir("A", seen);
	for (size_t i = 0; i < n; i++) {
		if (!seen[i])
			fprintf(stderr, "view %s: no fixture reached it\n", lab_an_views[i]->name);
		CHECK(seen[i]);
	}
}
