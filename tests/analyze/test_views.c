/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Analyzer views (issue 7) end to end: a view is chosen by run.json's experiments[].views, not
 * by the kernel's name; files without the key fall back to recorded properties; the list holds
 * the views of views.def; plots carry their view and group.
 */
#include "analyze/csv.h"
#include "analyze/flagged.h"
#include "analyze/jsonr.h"
#include "analyze/placement.h"
#include "analyze/plots_int.h"
#include "analyze/units.h"
#include "analyze/views/views.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* Replaces every needle in tmpdir/DIR/FILE by with. */
static void vw_edit(const char *dir, const char *file, const char *needle, const char *with)
{
	char path[2048], *s = NULL;
	size_t len;
	struct lab_err e = {0};
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", testlib_tmpdir(), dir, file);
	REQUIRE(lab_an_file_read(path, &s, &len, &e) == 0);
	f = fopen(path, "w");
	REQUIRE(f);
	for (const char *p = s, *q; *p; p = q + strlen(needle)) {
		if (!(q = strstr(p, needle))) {
			fputs(p, f);
			break;
		}
		fprintf(f, "%.*s%s", (int)(q - p), p, with);
	}
	fclose(f);
	free(s);
}

/* `lab analyze DIR --no-plots --json`: the names of the views in experiments[k]. */
static void vw_views_of(const char *dir, size_t k, char *buf, size_t len)
{
	char cmd[256], *out = NULL, *err = NULL;
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};
	const struct lab_an_json *x;

	buf[0] = 0;
	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots --json", dir);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e) == 0 &&
	    (x = clitest_at(j, "experiments", k)) && x->type == LAB_AN_JSON_OBJ)
		for (size_t i = 0; i < x->n; i++)
			if (strcmp(x->keys[i], "name") && strcmp(x->keys[i], "kernel"))
				snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				         *buf ? "," : "", x->keys[i]);
	lab_an_json_free(j);
	free(out);
	free(err);
}

LAB_TEST(list_names_the_views)
{
	const char *want[] = {"locks",        "c2c",          "atomics",      "stride",
	                      "fs_layout",    "omp_overhead", "omp_schedule", "reduce",
	                      "scan",         "counters",     "numa",         "roofline",
	                      "simd_speedup", "perf_c2c",     "series"};
	size_t n = 0;

	for (; lab_an_views[n]; n++) {
		REQUIRE(n < 15);
		CHECK_EQ_STR(lab_an_views[n]->name, want[n]);
		CHECK(lab_an_views[n]->applies && lab_an_views[n]->compute &&
		      lab_an_views[n]->free);
	}
	CHECK_EQ_U64(n, 15);
}

/* A lock experiment whose run declares no views gets no lock tables, whatever its params. */
LAB_TEST(declared_views_win)
{
	char got[256];

	clitest_copy("results-locks");
	vw_views_of("results-locks", 0, got, sizeof(got));
	CHECK_EQ_STR(got, "locks"); /* the series are analysis.json's own "series" key */
	vw_edit("results-locks", "run.json", "\"kernel\": \"lock\",",
	        "\"kernel\": \"lock\", \"views\": [],");
	vw_views_of("results-locks", 0, got, sizeof(got));
	CHECK_EQ_STR(got, ""); /* its points are a scaling series only */
}

/* The kernel's name plays no part: renamed, the lock and c2c results keep their views (by
 * declaration, and by recorded properties in files without "views"). */
LAB_TEST(not_by_kernel_name)
{
	char got[256];

	clitest_copy("results-locks");
	vw_edit("results-locks", "samples.csv", ",lock,\"", ",mutex_bench,\"");
	vw_edit("results-locks", "run.json", "\"kernel\": \"lock\"", "\"kernel\": \"mutex_bench\"");
	vw_views_of("results-locks", 0, got, sizeof(got));
	CHECK_EQ_STR(got, "locks");
	clitest_copy("results-c2c");
	vw_edit("results-c2c", "samples.csv", ",c2c_latency,", ",pingpong,");
	vw_edit("results-c2c", "run.json", "\"kernel\": \"c2c_latency\",",
	        "\"kernel\": \"pingpong\", \"views\": [\"c2c\"],");
	vw_views_of("results-c2c", 0, got, sizeof(got));
	CHECK_EQ_STR(got, "c2c");
}

/* The plots of fixture name, rendered or not (render = 0), into *p. */
static int vw_plots(const char *name, struct lab_an_data *d, struct lab_an_analysis *a,
                    struct lab_an_plots *p)
{
	char dir[2048];
	struct lab_err e = {0};
	struct lab_an_warnings w = {0};
	int rc;

	clitest_copy(name);
	snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), name);
	rc = lab_an_data_load_dir(d, dir, &e);
	if (!rc)
		rc = lab_an_data_summarize(d, 0, &e);
	if (!rc)
		rc = lab_an_analysis_run(d, 0, a, &e);
	if (!rc)
		rc = lab_an_plots_write(a, dir, 0, NULL, p, &w, &e);
	if (rc)
		fprintf(stderr, "%s\n", e.msg);
	lab_an_warnings_free(&w);
	return rc;
}

/* Plots are described by their struct: kind, title, base name, view and group. */
LAB_TEST(plots_carry_view_and_group)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_an_plots p = {0};
	size_t heat = 0;

	REQUIRE(vw_plots("results-c2c", &d, &a, &p) == 0);
	for (size_t i = 0; i < p.n; i++) {
		/* the pairs are not drawn as series */
		CHECK(p.p[i].view != NULL && strcmp(p.p[i].view, "series"));
		if (p.p[i].view && !strcmp(p.p[i].kind, "heatmap")) {
			CHECK_EQ_STR(p.p[i].view, "c2c");
			CHECK_EQ_U64(p.p[i].group, heat);
			heat++;
		}
	}
	CHECK_EQ_U64(heat, 2);
	/* the experiment once, the conditions after the title */
	CHECK_EQ_STR(p.p[1].title, "c2c: one-way latency, median ns (M: modes; b: batch median) "
	                           "(layout=own_line;method=cas;placement=pairs)");
	CHECK_EQ_STR(p.p[1].base, "c2c01-c2c-layout_own_line_method_cas_placement_pairs");
	lab_an_plots_free(&p);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);

	memset(&d, 0, sizeof(d));
	REQUIRE(vw_plots("results-usl", &d, &a, &p) == 0);
	REQUIRE(p.n > 3);
	/* the views in views.def order, the scaling series last */
	CHECK_EQ_STR(p.p[0].kind, "curves");
	CHECK_EQ_STR(p.p[0].view, "stride");
	CHECK_EQ_STR(p.p[0].base, "stride00-false_sharing-stride");
	CHECK_EQ_STR(p.p[1].view, "series");
	CHECK_EQ_STR(p.p[1].kind, "curves");
	CHECK_EQ_U64(p.p[1].group, 0);
	CHECK_EQ_STR(p.p[1].title, "contend: speedup (placement=compact)");
	CHECK_EQ_STR(p.p[1].base, "series00-contend-speedup-placement_compact");
	CHECK_EQ_STR(p.p[p.n - 1].view, "series");
	lab_an_plots_free(&p);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* Sizes as the configs write them (issue 13: strtod read 4K as 4). */
LAB_TEST(size_suffixes)
{
	CHECK_NEAR(lab_an_size_bytes("64"), 64, 0);
	CHECK_NEAR(lab_an_size_bytes("4K"), 4096, 0);
	CHECK_NEAR(lab_an_size_bytes("4k"), 4096, 0);
	CHECK_NEAR(lab_an_size_bytes("2KiB"), 2048, 0);
	CHECK_NEAR(lab_an_size_bytes("1M"), 1048576, 0);
	CHECK_NEAR(lab_an_size_bytes("1MiB"), 1048576, 0);
	CHECK_NEAR(lab_an_size_bytes("1G"), 1073741824.0, 0);
	CHECK_NEAR(lab_an_size_bytes("8B"), 8, 0);
	CHECK(isnan(lab_an_size_bytes("4X")));
	CHECK(isnan(lab_an_size_bytes("0x40")));
	CHECK(isnan(lab_an_size_bytes("")));
	CHECK(isnan(lab_an_size_bytes("K")));
	CHECK(isnan(lab_an_size_bytes("-4K")));
}

/* The stride chart places stride=1K at 1024 bytes, not at 1. */
LAB_TEST(stride_chart_reads_suffixes)
{
	char *out = NULL, *err = NULL, path[2048], *dat = NULL;
	size_t len;
	struct lab_err e = {0};

	clitest_copy("results-usl");
	vw_edit("results-usl", "samples.csv", "stride=64\"", "stride=1K\"");
	vw_edit("results-usl", "run.json", "\"stride\": \"64\"", "\"stride\": \"1K\"");
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "analyze results-usl", &out, &err), 0);
	snprintf(path, sizeof(path), "%s/results-usl/plots/stride00-false_sharing-stride.dat",
	         testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &dat, &len, &e) == 0);
	CHECK(strstr(dat, "\n 1024 ") != NULL);
	CHECK(strstr(dat, "\n 1 ") == NULL);
	CHECK(strstr(dat, "\n 64 ") == NULL);
	free(dat);
	free(out);
	free(err);
}

/* The false_sharing points (10 and on) without placement: run.json's lines that record it
 * left out (ctx: the point last read), samples.csv's params without it. */
static void vw_no_placement(FILE *out, const char *line, void *ctx)
{
	const char *t = line + strspn(line, " "), *p = strstr(line, "placement=compact;");
	long *point = ctx;

	if (!strncmp(t, "\"point\": ", 9))
		*point = strtol(t + 9, NULL, 10);
	if (p)
		fprintf(out, "%.*s%s\n", (int)(p - line), line, p + strlen("placement=compact;"));
	else if (*point < 10 || strcmp(t, "\"placement\": \"compact\","))
		fprintf(out, "%s\n", line);
}

/* review43: the stride view names curves by placement too; points without one (older and
 * hand-made files) said "placement=?" in every legend entry and the figure's title. */
LAB_TEST(stride_chart_without_placement)
{
	char *out = NULL, *err = NULL, *gp;

	long point = -1;

	clitest_copy("results-usl");
	REQUIRE(clitest_rewrite("results-usl/run.json", vw_no_placement, &point) == 0);
	REQUIRE(clitest_rewrite("results-usl/samples.csv", vw_no_placement, &point) == 0);
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "analyze results-usl", &out, &err), 0);
	CHECK(out && strstr(out, "placement=?") == NULL);
	REQUIRE((gp = clitest_read("results-usl/plots/stride00-false_sharing-stride.gp")));
	CHECK(strstr(gp, "title '1 thread'") != NULL);
	CHECK(strstr(gp, "?") == NULL);
	free(gp);
	free(out);
	free(err);
}

/* Point 19's samples flagged: the flagged column is the one before the last (ops_per_s). */
static void vw_flag_point19(FILE *out, const char *line, void *ctx)
{
	const char *last = strrchr(line, ','), *prev = last;

	(void)ctx;
	while (prev && prev > line && prev[-1] != ',')
		prev--;
	if (strncmp(line, "false_sharing,19,", 17) || !last || prev == line)
		fprintf(out, "%s\n", line);
	else
		fprintf(out, "%.*s1%s\n", (int)(prev - line), line, last);
}

/* newcomer44: on 2 CPUs compact and cores ran on CPUs 0,1, and their curves, apart by noise,
 * read as a placement effect: the curve and the sections say whose CPUs they ran on (the
 * fixture's scatter ran on 0,2: said nowhere; five more placements ran on 0,1). */
LAB_TEST(stride_chart_says_same_cpus)
{
	char *out = NULL, *err = NULL, *gp;

	clitest_copy("results-same-cpus");
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "analyze results-same-cpus", &out, &err), 0);
	CHECK(strstr(out, "note: placement=cores ran on the same CPUs as placement=compact "
	                  "(threads 2): this machine cannot tell them apart") != NULL);
	CHECK(strstr(out, "placement=scatter ran") == NULL);
	/* four placements named, the rest counted (hostile45) */
	CHECK(strstr(out, "placement=list:1,0 ran on the same CPUs as placement=compact") != NULL);
	CHECK(strstr(out, "placement=expr:N:0-1 ran") == NULL);
	CHECK(strstr(out, "note: 2 more points ran on the same CPUs as another placement's") !=
	      NULL);
	CHECK(strstr(out, "note: threads 2: ran on the same CPUs as placement=compact") != NULL);
	REQUIRE((gp = clitest_read("results-same-cpus/plots/stride00-fs-stride.gp")));
	CHECK(strstr(gp, "title '2 threads, placement=cores (same CPUs as compact)'") != NULL);
	CHECK(strstr(gp, "title '2 threads, placement=scatter'") != NULL);
	CHECK(strstr(gp, "title '2 threads, placement=compact'") != NULL);
	free(gp);
	free(out);
	free(err);
}

/* Red team: a point of the stride chart without used samples left its row out without a word
 * (ch25's loaded threads = 2 curve vanished); it keeps its row, saying why, as other views do. */
LAB_TEST(stride_chart_says_a_point_without_samples)
{
	char *out = NULL, *err = NULL;
	const char *at;

	clitest_copy("results-usl");
	REQUIRE(clitest_rewrite("results-usl/samples.csv", vw_flag_point19, NULL) == 0);
	CHECK_EQ_I64(clitest_run("PATH=/nonexistent", "analyze results-usl", &out, &err), 0);
	REQUIRE((at = strstr(out, "== Cost vs stride: false_sharing")) != NULL);
	at = strstr(at, "\n2        compact    128 ");
	REQUIRE(at != NULL);
	at += strlen("\n2        compact    128 ");
	CHECK(!strncmp(at + strspn(at, " "), "all 5 samples load-flagged", 26));
	free(out);
	free(err);
}

/* A real run records each experiment's declared views in run.json (an empty list for noop, so
 * no view matches its points by their properties), and the analyzer picks them up from there. */
LAB_TEST(run_records_views)
{
	char *out = NULL, *err = NULL, path[2048], *run = NULL;
	size_t len;
	struct lab_err e = {0};
	struct lab_an_json *j = NULL;
	const struct lab_an_json *x;
	size_t i;

	CHECK_EQ_I64(
	    clitest_run(NULL,
	                "run --only false_sharing --only noop --set false_sharing.threads=1 "
	                "--set false_sharing.reps=1 --set false_sharing.min_time=1ms "
	                "--set noop.threads=1 --set noop.reps=1 --set global.retry_flagged=0 -o R "
	                "--no-progress",
	                &out, &err),
	    0);
	snprintf(path, sizeof(path), "%s/R/run.json", testlib_tmpdir());
	REQUIRE(lab_an_file_read(path, &run, &len, &e) == 0);
	REQUIRE(lab_an_json_parse(path, run, len, &j, &e) == 0);
	for (i = 0; (x = clitest_at(j, "experiments", i)); i++) {
		const struct lab_an_json *v = lab_an_json_get(x, "views");

		if (!strcmp(lab_an_json_str(x, "name"), "noop")) {
			REQUIRE(v && v->type == LAB_AN_JSON_ARR);
			CHECK_EQ_U64(v->n, 0);
		} else {
			REQUIRE(v && v->type == LAB_AN_JSON_ARR && v->n == 2);
			CHECK_EQ_STR(v->items[0].str, "stride");
			CHECK_EQ_STR(v->items[1].str, "fs_layout");
		}
	}
	CHECK_EQ_U64(i, 2);
	lab_an_json_free(j);
	free(run);
	free(out);
	free(err);
}

/* Atomics: one chart per op with a curve per target, and no per-series speedup plots. */
LAB_TEST(atomics_one_chart_per_op)
{
	char *out = NULL, *err = NULL, path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/a.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")) != NULL);
	fputs("[atomics]\nkernel = atomic_rmw\nop = fetch_add, xchg\n"
	      "target = shared, sharded, packed\nthreads = 1\nreps = 1\nmin_time = 1ms\n"
	      "warmup = 0\nretry_flagged = 0\n",
	      f);
	fclose(f);
	CHECK_EQ_I64(clitest_run(NULL, "run a.ini -o A --no-progress", &out, &err), 0);
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "analyze A --include-flagged", &out, &err), 0);
	CHECK(strstr(out, "== Atomic read-modify-write under contention: atomics  "
	                  "op=fetch_add;placement=compact") != NULL);
	CHECK(strstr(out, "op=xchg;placement=compact") != NULL);
	CHECK(strstr(out, "ns per operation, all threads together") != NULL);
	/* each target's speedup over its fewest threads, which the hidden series gave alone
	 * (newcomer red team: a thread sweep of atomics showed none) */
	CHECK(strstr(out, "ns_per_op median | mean [95% CI]  speedup median | mean [95% CI]") !=
	      NULL);
	CHECK(strstr(out, "speedup: the same target's mean at the fewest threads / this mean") !=
	      NULL);
	/* the (op, target) series are not listed or plotted again */
	CHECK(strstr(out, "== scaling: atomics") == NULL);
	CHECK(clitest_exists("A/plots/atomics00-atomics-op_fetch_add_placement_compact.gp"));
	CHECK(clitest_exists("A/plots/atomics01-atomics-op_xchg_placement_compact.gp"));
	free(out);
	free(err);
}

/* Two placements on the same CPUs (a 2-CPU machine) are said once per pair; placements that
 * gave other CPUs, or points with other params, are not. */
LAB_TEST(same_cpus_placements_said)
{
	static const char run[] =
	    "{\"experiments\": [{\"name\": \"fs\", \"points\": ["
	    "{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"compact\","
	    " \"params\": {\"stride\": \"8\", \"placement\": \"compact\"}},"
	    "{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"cores\","
	    " \"params\": {\"stride\": \"8\", \"placement\": \"cores\"}},"
	    "{\"threads\": 2, \"cpus\": [0, 2], \"placement\": \"scatter\","
	    " \"params\": {\"stride\": \"8\", \"placement\": \"scatter\"}},"
	    "{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"compact\","
	    " \"params\": {\"stride\": \"128\", \"placement\": \"compact\"}},"
	    "{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"cores\","
	    " \"params\": {\"stride\": \"128\", \"placement\": \"cores\"}},"
	    /* one thread: on the first CPU under every placement, nothing to say (review44) */
	    "{\"threads\": 1, \"cpus\": [0], \"placement\": \"compact\","
	    " \"params\": {\"stride\": \"8\", \"placement\": \"compact\"}},"
	    "{\"threads\": 1, \"cpus\": [0], \"placement\": \"cores\","
	    " \"params\": {\"stride\": \"8\", \"placement\": \"cores\"}}]}]}";
	struct lab_an_data d = {0};
	struct lab_err e = {0};
	struct lab_an_point pt[7] = {{0}};
	const struct lab_an_json *pts;

	REQUIRE(lab_an_json_parse("run.json", run, strlen(run), &d.run, &e) == 0);
	pts = lab_an_json_get(clitest_at(d.run, "experiments", 0), "points");
	for (size_t i = 0; i < 7; i++)
		pt[i].runjson = &pts->items[i];
	d.pt = pt;
	d.npt = 7;
	lab_an_placement_same(&d);
	REQUIRE(d.warn.n == 1);
	CHECK(strstr(d.warn.msg[0], "[fs] placement compact and cores ran on the same CPUs "
	                            "(threads=2: cpus 0,1)") != NULL);
	/* each point of a later placement on the same CPUs names the first (newcomer44) */
	CHECK(!pt[0].same_cpus_as && !pt[2].same_cpus_as && !pt[3].same_cpus_as);
	CHECK(pt[1].same_cpus_as && !strcmp(pt[1].same_cpus_as, "compact"));
	CHECK(pt[4].same_cpus_as && !strcmp(pt[4].same_cpus_as, "compact"));
	CHECK(!pt[5].same_cpus_as && !pt[6].same_cpus_as);
	d.pt = NULL;
	lab_an_json_free(d.run);
	d.run = NULL;
	lab_an_warnings_free(&d.warn);
}

/* Three placements on the same CPUs make one line naming all three, in run.json's order,
 * however many points of a large experiment repeat them (grouped by hash, not pair by pair). */
LAB_TEST(same_cpus_placements_one_line)
{
	char *run = malloc(2000000), *p = run;
	static const char *const pl[] = {"scatter", "compact", "cores"};
	struct lab_an_data d = {0};
	struct lab_err e = {0};

	REQUIRE(run);
	p += sprintf(p, "{\"experiments\": [{\"name\": \"big\", \"points\": [");
	for (int i = 0; i < 12000; i++)
		p += sprintf(p,
		             "%s{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"%s\","
		             " \"params\": {\"placement\": \"%s\", \"size\": \"%d\"}}",
		             i ? "," : "", pl[i % 3], pl[i % 3], i / 3);
	p += sprintf(p, "]}]}");
	REQUIRE(lab_an_json_parse("run.json", run, (size_t)(p - run), &d.run, &e) == 0);
	lab_an_placement_same(&d);
	REQUIRE(d.warn.n == 1);
	CHECK(strstr(d.warn.msg[0], "[big] placement scatter, compact and cores ran on the same "
	                            "CPUs (threads=2: cpus 0,1)") != NULL);
	lab_an_json_free(d.run);
	lab_an_warnings_free(&d.warn);
	free(run);
}

/* Long placement names are cut and past the room counted: eight list placements of 100
 * bytes each made the warning go unsaid (hostile45). */
LAB_TEST(same_cpus_long_placements_said)
{
	char run[8192], *p = run, name[128];
	struct lab_an_data d = {0};
	struct lab_err e = {0};

	p += sprintf(p, "{\"experiments\": [{\"name\": \"long\", \"points\": [");
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "list:%d,%.96s", i,
		         "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,"
		         "0,1,0,1,0,1,0,1,0,1,0,1");
		p += sprintf(p,
		             "%s{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"%s\","
		             " \"params\": {\"placement\": \"%s\"}}",
		             i ? "," : "", name, name);
	}
	p += sprintf(p, "]}]}");
	REQUIRE(lab_an_json_parse("run.json", run, (size_t)(p - run), &d.run, &e) == 0);
	lab_an_placement_same(&d);
	REQUIRE(d.warn.n == 1);
	CHECK(strstr(d.warn.msg[0], "[long] placement list:0,0,1,0,1") != NULL);
	CHECK(strstr(d.warn.msg[0], "1,0,1,0..., list:1,0,1") != NULL); /* cut, said so */
	CHECK(strstr(d.warn.msg[0], " more ran on the same CPUs (threads=2: cpus 0,1)") != NULL);
	lab_an_json_free(d.run);
	lab_an_warnings_free(&d.warn);
}

/* Past 20 sets of placements on the same CPUs, one line counts the rest (16,000 lines made most
 * of an analysis's time). */
LAB_TEST(same_cpus_placements_capped)
{
	char *run = malloc(200000), *p = run;
	struct lab_an_data d = {0};
	struct lab_err e = {0};

	REQUIRE(run);
	p += sprintf(p, "{\"experiments\": [{\"name\": \"pl\", \"points\": [");
	for (int i = 0; i < 100; i++)
		p += sprintf(
		    p,
		    "%s{\"threads\": 2, \"cpus\": [0, 1], \"placement\": \"a%d\", "
		    "\"params\": {\"placement\": \"a%d\", \"size\": \"%d\"}}, {\"threads\": "
		    "2, \"cpus\": [0, 1], \"placement\": \"b%d\", \"params\": "
		    "{\"placement\": \"b%d\", \"size\": \"%d\"}}",
		    i ? "," : "", i, i, i, i, i, i);
	p += sprintf(p, "]}]}");
	REQUIRE(lab_an_json_parse("run.json", run, (size_t)(p - run), &d.run, &e) == 0);
	lab_an_placement_same(&d);
	REQUIRE(d.warn.n == 21);
	CHECK(strstr(d.warn.msg[20], "80 more sets of placements ran on the same CPUs") != NULL);
	lab_an_json_free(d.run);
	lab_an_warnings_free(&d.warn);
	free(run);
}

/* False sharing in structs: packed and aligned layouts in one chart per op; the stride layout's
 * points are not in it. */
LAB_TEST(fs_layout_side_by_side)
{
	char *out = NULL, *err = NULL, path[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/f.ini", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")) != NULL);
	fputs("[sl]\nkernel = false_sharing\nop = rmw\nlayout = struct, struct_aligned, stride\n"
	      "threads = 1\nreps = 1\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n",
	      f);
	fclose(f);
	CHECK_EQ_I64(clitest_run(NULL, "run f.ini -o F --no-progress", &out, &err), 0);
	free(out);
	free(err);
	CHECK_EQ_I64(clitest_run(NULL, "analyze F --include-flagged", &out, &err), 0);
	/* no stride in the struct layouts' params: it applies to layout = stride only */
	const char *v = strstr(
	    out, "== False sharing in structs: packed vs aligned: sl  op=rmw;placement=compact\n");
	REQUIRE(v != NULL);
	const char *end = strstr(v, "(ns per increment");
	REQUIRE(end != NULL);
	CHECK(strstr(v, "\nstruct ") && strstr(v, "\nstruct ") < end);
	CHECK(strstr(v, "\nstruct_aligned ") && strstr(v, "\nstruct_aligned ") < end);
	CHECK(!strstr(v, "\nstride ") || strstr(v, "\nstride ") > end);
	CHECK(clitest_exists("F/plots/fs_layout00-sl-op_rmw_placement_compact.gp"));
	/* the stride view draws the stride layout only: in a struct the stride plays no part */
	CHECK(strstr(out, "== Cost vs stride: sl  layout=stride;") != NULL);
	CHECK(strstr(out, "== Cost vs stride: sl  layout=struct") == NULL);
	free(out);
	free(err);
}

/* A legend entry says where its curve has no number and why (load-flagged, not run). */
LAB_TEST(key_says_missing_points)
{
	char ok[] = "ok", sk[] = "skipped", why[] = "needs 2 NUMA nodes";
	struct lab_an_point flagged = {.status = ok, .n = 3, .n_flagged = 3};
	struct lab_an_point skipped = {.status = sk, .reason = why};
	struct lab_an_key k;
	char buf[128];

	lab_an_key_begin(&k, buf, sizeof(buf), "ticket");
	CHECK_EQ_STR(lab_an_key_end(&k), "ticket");
	lab_an_key_begin(&k, buf, sizeof(buf), "ticket");
	lab_an_key_missing(&k, 2, &flagged);
	CHECK_EQ_STR(lab_an_key_end(&k), "ticket [no data at 2: load-flagged]");
	lab_an_key_begin(&k, buf, sizeof(buf), "mcs");
	lab_an_key_missing(&k, 2, &flagged);
	lab_an_key_missing(&k, 4, &skipped);
	CHECK_EQ_STR(lab_an_key_end(&k), "mcs [no data at 2, 4: load-flagged or not run]");
	lab_an_key_begin(&k, buf, sizeof(buf), "clh");
	for (int x = 1; x <= 16; x *= 2)
		lab_an_key_missing(&k, x, &skipped);
	CHECK_EQ_STR(lab_an_key_end(&k), "clh [no data at 1, 2, 4, ...: not run]");
}

/* The top-level line says how many flagged samples were flagged because a worker waited for
 * its CPU (run.json's flagged_runq, capped at the point's flagged rows). */
LAB_TEST(flagged_line_counts_runq)
{
	unsigned char fl[4] = {1, 1, 0, 0};
	char ok[] = "ok", line[256];
	struct lab_an_point p = {.status = ok, .n = 4, .flagged = fl, .flagged_runq = 5};
	struct lab_an_data d = {.pt = &p, .npt = 1};

	REQUIRE(lab_an_flagged_line(&d, 0, line, sizeof(line)) == 1);
	CHECK_EQ_STR(line, "50 % of samples (2 of 4) ran under foreign load (2 of them: a worker "
	                   "waited for its CPU) and were left out; rerun when quiet or pass "
	                   "--include-flagged");
	p.flagged_runq = 0;
	REQUIRE(lab_an_flagged_line(&d, 1, line, sizeof(line)) == 1);
	CHECK_EQ_STR(line, "50 % of samples (2 of 4) ran under foreign load and are included "
	                   "(--include-flagged): numbers may read slow or noisy");
}
