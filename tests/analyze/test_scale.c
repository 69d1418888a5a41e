/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer stays O(n log n) at scale (issue 19): work is counted, never timed. Each case
 * analyzes a small and a 4x larger results directory and compares the run.json keys looked up
 * (lab_an_json_compares) or the view hooks called: linear work grows 4x, the quadratic code
 * this replaced grew 16x (100 000 points took 95 s; 1 000 experiments 176 s).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/index.h"
#include "analyze/jsonr.h"
#include "analyze/lessons.h"
#include "analyze/output.h"
#include "analyze/plots.h"
#include "analyze/plots_int.h"
#include "analyze/render/doc.h"
#include "analyze/views/c2c.h"
#include "analyze/views/curves.h"
#include "analyze/views/numa.h"
#include "analyze/views/roofline.h"
#include "analyze/views/views.h"
#include "harness/json.h"
#include "tests/testlib.h"

/* The facts of a point as the harness records them with perf_c2c = on. */
#define SC_FACTS                                                                                   \
	"\"point_facts\": {\"perf_c2c\": \"ok\", \"perf_c2c_lines\": 2, \"perf_c2c_top\": "        \
	"\"0x40 rmt_hitm=7 lcl_hitm=23: +0x0 61.0%%/52.7%% [.] f (a.so)\"}"

/* Creates DIR = tmpdir/NAME and opens DIR/samples.csv and DIR/run.json for writing; -1 (nothing
 * left open) on failure. */
static int sc_open(const char *name, char *dir, size_t len, FILE **s, FILE **r)
{
	char path[4200];

	snprintf(dir, len, "%s/%s", testlib_tmpdir(), name);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	*s = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	*r = fopen(path, "w");
	if (*s && *r)
		return 0;
	if (*s)
		fclose(*s);
	if (*r)
		fclose(*r);
	return -1;
}

/* sc_open, then samples.csv's header. */
static int sc_create(const char *name, char *dir, size_t len, FILE **s, FILE **r)
{
	if (sc_open(name, dir, len, s, r))
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged\n",
	      *s);
	return 0;
}

/*
 * Writes DIR/NAME: n points with perf_c2c facts, in nexp experiments (round robin), threads
 * 1, 2, 4, 8, two samples each.
 */
static const char *sc_write(const char *name, long n, long nexp)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [", r);
	for (long e = 0; e < nexp; e++) {
		fprintf(r,
		        "%s\n{\"name\": \"x%ld\", \"kernel\": \"noop\", \"work_unit\": \"op\", "
		        "\"points\": [",
		        e ? "," : "", e);
		for (long p = e, k = 0; p < n; p += nexp, k++) {
			int threads = 1 << (k % 4);

			fprintf(r,
			        "%s\n{\"point\": %ld, \"threads\": %d, \"params\": {\"size\": "
			        "\"%ld\"}, \"placement\": \"compact\", \"status\": \"ok\", "
			        "\"reps\": 2, " SC_FACTS "}",
			        k ? "," : "", p, threads, k / 4);
			for (int rep = 0; rep < 2; rep++)
				fprintf(s,
				        "x%ld,%ld,noop,\"placement=compact;size=%ld\",%d,%d,%d,"
				        "1000,op,0.01,0\n",
				        e, p, k / 4, threads, rep, 1000000 / threads + 1000 * rep);
		}
		fputs("]}", r);
	}
	fputs("]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* Loads and summarizes dir into d; -1 (said on stderr) when it cannot. */
static int sc_load(const char *dir, struct lab_an_data *d)
{
	struct lab_err err = {0};

	if (dir && !lab_an_data_load_dir(d, dir, &err) && !lab_an_data_summarize(d, 0, &err))
		return 0;
	fprintf(stderr, "%s: %s\n", dir ? dir : "(no dir)", err.msg);
	return -1;
}

/* Prints the work counted at n and at 4n (what: "keys compared", item: "points") and checks
 * that it grew at most factor times (linear: x4; n log n: about x5; the scan each case
 * replaced: x16) and stayed within cap at 4n. */
static void sc_growth(const char *what, const char *item, long n, unsigned long long w1,
                      unsigned long long w4, unsigned long long factor, unsigned long long cap)
{
	fprintf(stderr, "%s: %ld %s %llu, %ld %s %llu (x%.2f)\n", what, n, item, w1, 4 * n, item,
	        w4, (double)w4 / (double)w1);
	CHECK(w4 <= factor * w1);
	CHECK(w4 <= cap);
}

/* The views' document bytes of the last sc_probes (their strings and blocks). */
static unsigned long long sc_doc_bytes;
static unsigned long long sc_probes(const char *dir,
                                    size_t (*count)(const struct lab_an_analysis *), size_t *made);

/* The run.json keys compared while analyzing dir and writing analysis.json (loading excluded). */
static unsigned long long sc_compares(const char *dir, size_t *nexp_json)
{
	struct lab_an_data d;
	struct lab_an_analysis a = {0};
	struct lab_err err = {0};
	unsigned long long before, after = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (sc_load(dir, &d))
		return 0;
	before = lab_an_json_compares();
	if (lab_an_analysis_run(&d, 0, &a, &err) == 0 && (f = open_memstream(&buf, &len))) {
		lab_an_analysis_json(&a, f);
		fclose(f);
		after = lab_an_json_compares();
	}
	*nexp_json = 0; /* the view's object per experiment (its rows name it only as a key) */
	for (const char *p = buf; p && (p = strstr(p, "\"perf_c2c\": {")); p++)
		(*nexp_json)++;
	free(buf);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	return after - before;
}

/* 100 000 points took 95 s: the perf_c2c view searched run.json for each point's facts. */
LAB_TEST(perf_c2c_facts_linear_in_points)
{
	size_t e1, e4;
	unsigned long long c1 = sc_compares(sc_write("p1", 1000, 1), &e1);
	unsigned long long c4 = sc_compares(sc_write("p4", 4000, 1), &e4);

	REQUIRE(c1 > 0 && c4 > 0);
	CHECK_EQ_U64(e1, 1);
	CHECK_EQ_U64(e4, 1);
	sc_growth("keys compared", "points", 1000, c1, c4, 5,
	          400ULL * 4000); /* a constant per point: about 150 */
}

/* 1 000 experiments of one point each took 176 s: each view's experiment hook was called for
 * every earlier group, and every point's views were looked up by scanning the experiments. */
LAB_TEST(perf_c2c_experiments_linear)
{
	size_t e1, e4;
	unsigned long long c1 = sc_compares(sc_write("e1", 250, 250), &e1);
	unsigned long long c4 = sc_compares(sc_write("e4", 1000, 1000), &e4);

	REQUIRE(c1 > 0 && c4 > 0);
	CHECK_EQ_U64(e1, 250);
	CHECK_EQ_U64(e4, 1000);
	sc_growth("keys compared", "experiments", 250, c1, c4, 5, 400ULL * 1000);
}

/* The plot files opened while writing the plots of dir (drawn by no gnuplot); *left: how many
 * plots were left out past the cap. */
static unsigned long long sc_plot_files(const char *dir, size_t *left)
{
	struct lab_an_data d;
	struct lab_an_analysis a = {0};
	struct lab_an_plots plots = {0};
	struct lab_an_warnings warn = {0};
	struct lab_err err = {0};
	unsigned long long before = lab_an_plot_files_opened(), n = 0;

	*left = 0;
	if (sc_load(dir, &d))
		return 0;
	if (lab_an_analysis_run(&d, 0, &a, &err) == 0 &&
	    lab_an_plots_write(&a, dir, 0, NULL, &plots, &warn, &err) == 0) {
		n = lab_an_plot_files_opened() - before;
		*left = plots.omitted;
	}
	lab_an_plots_free(&plots);
	lab_an_warnings_free(&warn);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	return n;
}

/* Every plot past the cap was written, then deleted: 120,000 files made and 119,000 removed
 * for 80,000 points (scale35). None past the cap is made. */
LAB_TEST(plots_past_the_cap_not_written)
{
	size_t l1, l4;
	unsigned long long w1 = sc_plot_files(sc_write("g1", 1000, 1), &l1);
	unsigned long long w4 = sc_plot_files(sc_write("g4", 4000, 1), &l4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK(l1 > 0 && l4 > l1);
	sc_growth("plot files opened", "points", 1000, w1, w4, 1, 2 * LAB_AN_PLOTS_MAX);
}

/*
 * Writes DIR/NAME with n points in each of four experiments whose views group them n / 2 ways
 * (threads 1 and 2 of each): "lk" a locks group per cs_ns, "lc" one locks group with a curve per
 * lock, "nm" a numa page-policy group per size, "cc" a c2c matrix per method. Two samples each.
 */
/* Writes DIR/NAME: n peak points at 1 thread, each its own ISA (a compute ceiling each), and n
 * triads of f64 at sizes 1 KiB .. n KiB (a bandwidth ceiling each: no cache levels known). */
static const char *sc_write_peaks(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [\n"
	      "{\"name\": \"pk\", \"kernel\": \"peak\", \"work_unit\": \"element\", "
	      "\"views\": [\"roofline\"], \"points\": [",
	      r);
	for (long p = 0; p < 2 * n; p++) {
		int peak = p < n;

		if (p == n)
			fputs("]},\n{\"name\": \"bw\", \"kernel\": \"stream\", \"work_unit\": "
			      "\"element\", \"views\": [\"roofline\"], \"points\": [",
			      r);
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {%s%ld%s}, \"status\": "
		        "\"ok\", \"reps\": 2, \"work_per_unit\": {\"bytes_read\": %d, "
		        "\"bytes_written\": %d, \"flops\": %d, \"bandwidth_bound\": %s}}",
		        p % n ? "," : "", p,
		        peak ? "\"op\": \"fma\", \"precision\": \"f64\", \"isa\": \"x"
		             : "\"op\": \"triad\", \"type\": \"f64\", \"size\": \"",
		        peak ? p : (p - n + 1) * 1024, "\"", peak ? 0 : 16, peak ? 0 : 8,
		        peak ? 16 : 2, peak ? "false" : "true");
		for (int rep = 0; rep < 2; rep++)
			fprintf(s, "%s,%ld,%s,\"%s%ld%s\",1,%d,%ld,1000000,element,0.01,0\n",
			        peak ? "pk" : "bw", p, peak ? "peak" : "stream",
			        peak ? "isa=x" : "op=triad;size=", peak ? p : (p - n + 1) * 1024,
			        peak ? ";op=fma;precision=f64" : ";type=f64", rep,
			        70000 + 1000L * rep + p % 97);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The points the roofline placed (under a roof or not): those with bytes and flops. */
static size_t sc_rl_points(const struct lab_an_analysis *a)
{
	const struct lab_an_rl *rl = lab_an_view_state(a, "roofline");

	return rl ? rl->np : 0;
}

/* A compute ceiling per ISA and precision, any number of them: each point scanned them all
 * (32k points under 16k ceilings: 6.5 s, x14 for x4 the input); now searched. */
LAB_TEST(roofline_compute_ceilings_n_log_n)
{
	size_t p1, p4;
	unsigned long long w1 = sc_probes(sc_write_peaks("k1", 300), sc_rl_points, &p1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_peaks("k4", 1200), sc_rl_points, &p4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("document bytes", "points", 600, b1, b4, 6, ~0ULL);
	CHECK_EQ_U64(p1, 300); /* the triads: a peak point moves no bytes */
	CHECK_EQ_U64(p4, 1200);
	sc_growth("ceilings examined", "points", 600, w1, w4, 6, 64ULL * 2400);
}

/* Writes DIR/NAME: n points of experiment x (sizes 0 .. n-1, two samples each) declaring their
 * bytes, listed in run.json from the last point to the first. */
static const char *sc_write_reversed(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [\n"
	      "{\"name\": \"x\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [",
	      r);
	for (long p = n - 1; p >= 0; p--)
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"size\": \"%ld\"}, "
		        "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 2, "
		        "\"work_per_unit\": {\"bytes_read\": 8}}",
		        p == n - 1 ? "" : ",", p, p);
	for (long p = 0; p < n; p++)
		for (int rep = 0; rep < 2; rep++)
			fprintf(
			    s, "x,%ld,noop,\"placement=compact;size=%ld\",1,%d,%d,1000,op,0.01,0\n",
			    p, p, rep, 1000 + rep);
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* A point's declared work is read from its own run.json entry: a search of run.json per point
 * (it resumed where the last ended) scanned the whole experiment for each when run.json did not
 * list the points in id order (64k points took 92 s). */
LAB_TEST(rates_read_in_any_order)
{
	size_t e1, e4;
	unsigned long long c1 = sc_compares(sc_write_reversed("r1", 1000), &e1);
	unsigned long long c4 = sc_compares(sc_write_reversed("r4", 4000), &e4);

	REQUIRE(c1 > 0 && c4 > 0);
	sc_growth("keys compared", "points", 1000, c1, c4, 5, 400ULL * 4000);
}

static const char *sc_write_groups(const char *name, long n)
{
	static const struct {
		const char *exp, *kernel, *view, *pre, *post; /* params: pre, the number, post */
		const char *unit;
	} x[] = {{"lk", "lock", "locks", "cs_ns=", ";lock=tas", "op"},
	         {"lc", "lock", "locks", "cs_ns=0;lock=l", "", "op"},
	         {"nm", "numa_policy", "numa", "init=first_touch;size=", "", "op"},
	         {"cc", "c2c_latency", "c2c", "method=m", ";pair=0-1", "roundtrip"}};
	static char dir[4096];
	FILE *s, *r;
	long id = 0;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [", r);
	for (size_t e = 0; e < sizeof(x) / sizeof(x[0]); e++) {
		fprintf(r,
		        "%s\n{\"name\": \"%s\", \"kernel\": \"%s\", \"work_unit\": \"%s\", "
		        "\"views\": [\"%s\"]}",
		        e ? "," : "", x[e].exp, x[e].kernel, x[e].unit, x[e].view);
		for (long p = 0; p < n; p++, id++) {
			char params[64];

			snprintf(params, sizeof(params), "%s%ld%s", x[e].pre, p / 2, x[e].post);
			for (int rep = 0; rep < 2; rep++)
				fprintf(s, "%s,%ld,%s,\"%s\",%ld,%d,%d,1000,%s,0.01,0\n", x[e].exp,
				        id, x[e].kernel, params, 1 + p % 2, rep,
				        100000 + 1000 * rep, x[e].unit);
		}
	}
	fputs("]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The keys the views compared (lab_an_view_probes) while analyzing dir, loading excluded;
 * *made: what count says the analysis made (groups, placed points...). */
static unsigned long long sc_probes(const char *dir,
                                    size_t (*count)(const struct lab_an_analysis *), size_t *made)
{
	struct lab_an_data d;
	struct lab_an_analysis a = {0};
	struct lab_err err = {0};
	unsigned long long before, after = 0;

	*made = 0;
	sc_doc_bytes = 0;
	if (sc_load(dir, &d))
		return 0;
	before = lab_an_view_probes();
	if (lab_an_analysis_run(&d, 0, &a, &err) == 0) {
		after = lab_an_view_probes();
		*made = count(&a);
		for (size_t i = 0; i < a.nviews; i++)
			sc_doc_bytes += lab_doc_bytes(a.views[i].doc);
	}
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	return after - before;
}

/* The groups the views made: locks' curves (lk's groups, lc's curves), numa's groups, c2c's
 * matrices. */
static size_t sc_groups(const struct lab_an_analysis *a)
{
	const struct lab_an_cv *lk = lab_an_view_state(a, "locks");
	const struct lab_an_numa *nm = lab_an_view_state(a, "numa");
	const struct lab_an_c2c *cc = lab_an_view_state(a, "c2c");
	size_t n = (nm ? nm->ng : 0) + (cc ? cc->nm : 0);

	for (size_t i = 0; lk && i < lk->ng; i++)
		n += lk->g[i].nc;
	return n;
}

/* The views' groups are found through a hash of their key: a run with a group (or a curve) per
 * point would otherwise compare each point with every group before it (n^2 / 2). */
LAB_TEST(view_groups_linear)
{
	size_t g1, g4;
	unsigned long long w1 = sc_probes(sc_write_groups("g1", 1000), sc_groups, &g1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_groups("g4", 4000), sc_groups, &g4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("document bytes", "points x 4 views", 1000, b1, b4, 6, ~0ULL);
	CHECK_EQ_U64(g1, 4 * 500);
	CHECK_EQ_U64(g4, 4 * 2000);
	sc_growth("group keys compared", "points x 4 views", 1000, w1, w4, 5,
	          8ULL * 4 * 4000); /* a few per point */
}

/* Writes DIR/NAME: n points of schedule(static) at chunks 1..n (a chunk it ignores: one curve
 * of points without an x), two samples each. */
static const char *sc_write_static(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"st\", \"kernel\": \"omp_schedule\", \"work_unit\": \"loop\", \"views\": "
	      "[\"omp_schedule\"]}]}\n",
	      r);
	for (long p = 0; p < n; p++)
		for (int rep = 0; rep < 2; rep++)
			fprintf(
			    s,
			    "st,%ld,omp_schedule,\"chunk=%ld;schedule=static\",2,%d,%d,1000,loop,"
			    "0.01,0\n",
			    p, p + 1, rep, 100000 + 1000 * rep);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The curves omp_schedule made. */
static size_t sc_static_curves(const struct lab_an_analysis *a)
{
	const struct lab_an_cv *v = lab_an_view_state(a, "omp_schedule");

	return v && v->ng ? v->g[0].nc : 0;
}

/* Whether a curve takes no x (drawn flat) was asked once per point of it, each time over all
 * its points: 16 000 static points took 101 s (review40). */
LAB_TEST(curve_without_x_linear)
{
	size_t c1, c4;
	unsigned long long w1 = sc_probes(sc_write_static("st1", 1000), sc_static_curves, &c1);
	unsigned long long w4 = sc_probes(sc_write_static("st4", 4000), sc_static_curves, &c4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK_EQ_U64(c1, 1);
	CHECK_EQ_U64(c4, 1);
	sc_growth("points asked for an x", "static points", 1000, w1, w4, 5, 8ULL * 4000);
}

/* Writes DIR/NAME: a numa matrix of k x k points (threads on node i, memory on node j) and a
 * page policy experiment of k * k inits whose pages all landed on node 0, two samples each: the
 * even ones 64 pages (one placement), each odd one its own count (a placement of its own). */
static const char *sc_write_numa(const char *name, long k)
{
	static char dir[4096];
	FILE *s, *r;
	long id = 0;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [\n"
	      "{\"name\": \"m\", \"kernel\": \"numa_lat\", \"work_unit\": \"load\", "
	      "\"views\": [\"numa\"], \"points\": [",
	      r);
	for (long i = 0; i < k; i++)
		for (long j = 0; j < k; j++, id++) {
			fprintf(
			    r,
			    "%s\n{\"point\": %ld, \"threads\": 1, \"status\": \"ok\", \"reps\": "
			    "2, \"params\": {\"mem_node\": \"%ld\", \"placement\": \"node:%ld\"}, "
			    "\"point_facts\": {\"cpu_node\": %ld, \"mem_node\": %ld}}",
			    id ? "," : "", id, j, i, i, j);
			for (int rep = 0; rep < 2; rep++)
				fprintf(
				    s,
				    "m,%ld,numa_lat,\"mem_node=%ld;placement=node:%ld\",1,%d,%ld,"
				    "1000,load,0.01,0\n",
				    id, j, i, rep, 100000L + 1000L * (i != j) + rep);
		}
	fputs("]},\n{\"name\": \"p\", \"kernel\": \"numa_policy\", \"work_unit\": "
	      "\"op\", \"views\": [\"numa\"], \"points\": [",
	      r);
	for (long i = 0; i < k * k; i++, id++) {
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 2, \"status\": \"ok\", \"reps\": 2, "
		        "\"params\": {\"init\": \"i%ld\"}, \"point_facts\": {\"init\": \"i%ld\", "
		        "\"pages_per_node\": [%ld, 0], \"pages_absent\": 0}}",
		        i ? "," : "", id, i, i, 64 + (i % 2 ? i : 0));
		for (int rep = 0; rep < 2; rep++)
			fprintf(s, "p,%ld,numa_policy,\"init=i%ld\",2,%d,%d,1000,op,0.01,0\n", id,
			        i, rep, 100000 + rep);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The numa view's rows, and (its first policy row's) how many rows share the placement of the
 * first. */
static size_t sc_numa_rows(const struct lab_an_analysis *a)
{
	const struct lab_an_numa *nm = lab_an_view_state(a, "numa");
	size_t n = 0;

	for (size_t i = 0; nm && i < nm->ng; i++)
		for (size_t r = 0; r < nm->g[i].nrow; r++)
			n += nm->g[i].kind == LAB_AN_NUMA_POLICY ? nm->g[i].row[r].same == 0 : 1;
	return n;
}

/* One node x node matrix of thousands of cells: each cell (its table row's ratio to the local
 * cell, the heat map's) is found by binary search, and the policy rows that share a placement
 * by hash; scanning the rows for each was quadratic (65,536 cells took 50 s). Counted: each step
 * of the search, each pair of rows whose pages are compared (an_same_pages, however the pairs
 * are made: the old pairwise grouping reads x15.6), and the document's bytes (a finding that
 * appended each of 16,000 shared rows to a copy of its list took 2.2 GB: x14.3). */
LAB_TEST(numa_rows_n_log_n)
{
	size_t n1, n4;
	unsigned long long w1 = sc_probes(sc_write_numa("nm1", 24), sc_numa_rows, &n1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_numa("nm4", 48), sc_numa_rows, &n4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("numa document bytes", "cells", 24 * 24, b1, b4, 6, 4096ULL * 4 * 24 * 24);
	CHECK_EQ_U64(n1, 24 * 24 + 24 * 24 / 2); /* the even policy rows share the first one's */
	CHECK_EQ_U64(n4, 48 * 48 + 48 * 48 / 2);
	sc_growth("numa rows compared", "cells", 24 * 24, w1, w4, 6, 64ULL * 4 * 24 * 24);
}

/* Writes DIR/NAME: n points of experiment e, size 0 .. n-1 at 1 thread, two samples each, and
 * n lessons, lesson k comparing size k with size k + 1 (the last one names a size no point
 * has). */
static const char *sc_write_lessons(const char *name, long n, long off)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"e\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(r,
		        "%s{\"point\": %ld, \"threads\": 1, \"params\": {\"size\": \"%ld\"}, "
		        "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": 2}",
		        p ? ", " : "", p, p);
		for (int rep = 0; rep < 2; rep++)
			fprintf(s,
			        "e,%ld,noop,\"placement=compact;size=%ld\",1,%d,%d,1000,op,0,0\n",
			        p, p, rep, 1000 + 10 * rep + (int)(p % 7));
	}
	fputs("]}], \"lessons\": [", r);
	for (long k = 0; k < n; k++)
		fprintf(r,
		        "%s{\"name\": \"l%ld\", \"claim\": \"cost(e: size=%ld, threads=1) / "
		        "cost(e: size=%ld, threads=1) >= 2\", \"expr\": \"cost(e: size=%ld, "
		        "threads=1) / cost(e: size=%ld, threads=1) >= 2\"}",
		        k ? ", " : "", k, k + off, k + 1 + off, k + off, k + 1 + off);
	fputs("]}\n", r);
	fclose(s);
	fclose(r);
	return dir;
}

/* The points compared with selectors while judging the lessons of dir; *judged: how many
 * lessons found their points (not "not run"). */
static unsigned long long sc_lesson_probes(const char *dir, size_t *judged)
{
	struct lab_an_data d;
	struct lab_an_lessons ls = {0};
	struct lab_err err = {0};
	unsigned long long before = lab_an_lessons_probes();

	*judged = 0;
	if (sc_load(dir, &d))
		return 0;
	if (lab_an_lessons_eval(&d, &ls, &err) == 0)
		for (size_t i = 0; i < ls.n; i++)
			*judged += ls.l[i].verdict != LAB_AN_NOT_RUN;
	lab_an_lessons_free(&ls);
	lab_an_data_free(&d);
	return lab_an_lessons_probes() - before;
}

/* Each selector of each lesson scanned every point: 2 000 lessons on 20 000 points took 17 s. */
LAB_TEST(lesson_selectors_linear)
{
	size_t j1, j4;
	unsigned long long w1 = sc_lesson_probes(sc_write_lessons("l1", 500, 0), &j1);
	unsigned long long w4 = sc_lesson_probes(sc_write_lessons("l4", 2000, 0), &j4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK_EQ_U64(j1, 499); /* the last names size 500, which no point has */
	CHECK_EQ_U64(j4, 1999);
	sc_growth("points compared", "lessons over as many points", 500, w1, w4, 5,
	          4ULL * 2 * 2000); /* the one point each selector names */
}

/* Selectors that name no point each looked at every point for the amount spelled otherwise
 * (hostile35: 2 000 such lessons over 16 000 points took 39 s): the points are listed once. */
LAB_TEST(lessons_naming_no_point_linear)
{
	size_t j1, j4;
	unsigned long long w1 = sc_lesson_probes(sc_write_lessons("m1", 500, 1000), &j1);
	unsigned long long w4 = sc_lesson_probes(sc_write_lessons("m4", 2000, 4000), &j4);

	REQUIRE(w1 > 0 && w4 > 0);
	CHECK_EQ_U64(j1, 0);
	CHECK_EQ_U64(j4, 0);
	sc_growth("points compared", "lessons naming no point over as many points", 500, w1, w4, 5,
	          2 * 2000);
}

/* Writes DIR/NAME: n triad points of n distinct sizes at 1 thread, declared bandwidth-bound
 * with flops, on a host whose caches are not known: each is a roofline ceiling of its own size
 * and a point placed under them. */
static const char *sc_write_roofs(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"host\": {\"topology\": "
	      "{\"pus\": 2}}, \"experiments\": [{\"name\": \"bw\", \"kernel\": \"stream\", "
	      "\"work_unit\": \"element\", \"views\": [\"roofline\"], \"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(
		    r,
		    "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"op\": \"triad\", "
		    "\"size\": \"%ld\"}, \"status\": \"ok\", \"work_per_unit\": {\"bytes_read\": "
		    "16, \"bytes_written\": 8, \"flops\": 2, \"bytes_write_allocate\": 0, "
		    "\"bandwidth_bound\": true}, \"reps\": 2}",
		    p ? "," : "", p, 1024 + 8 * p);
		for (int rep = 0; rep < 2; rep++)
			fprintf(
			    s,
			    "bw,%ld,stream,\"op=triad;size=%ld\",1,%d,%ld,1000000,element,0.01,0\n",
			    p, 1024 + 8 * p, rep, 70000 + 1000 * rep + p % 97);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The points the roofline placed under a roof. */
static size_t sc_placed(const struct lab_an_analysis *a)
{
	const struct lab_an_rl *rl = lab_an_view_state(a, "roofline");
	size_t n = 0;

	for (size_t i = 0; rl && i < rl->np; i++)
		n += rl->p[i].binds != NULL;
	return n;
}

/* A sweep of sizes without cache levels is a ceiling per size: the ceilings were grouped by
 * comparing each candidate with every other, and each point scanned every ceiling. */
LAB_TEST(roofline_sizes_n_log_n)
{
	size_t p1, p4;
	unsigned long long w1 = sc_probes(sc_write_roofs("r1", 500), sc_placed, &p1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_roofs("r4", 2000), sc_placed, &p4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("document bytes", "sizes", 500, b1, b4, 6, ~0ULL);
	CHECK_EQ_U64(p1, 500);
	CHECK_EQ_U64(p4, 2000);
	sc_growth("ceilings examined", "sizes", 500, w1, w4, 6, 64ULL * 2000); /* n log n: x4.9 */
}

/* Writes DIR/NAME: n simd points, isa scalar and avx2 at n / 2 sizes, one thread; the view
 * simd_speedup divides each by the scalar point of its size. */
static const char *sc_write_simd(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"v\", \"kernel\": \"simd\", \"work_unit\": \"element\", \"views\": "
	      "[\"simd_speedup\"]}]}\n",
	      r);
	for (long p = 0; p < n; p++)
		for (int rep = 0; rep < 2; rep++)
			fprintf(
			    s,
			    "v,%ld,simd,\"isa=%s;op=sum;size=%ld\",1,%d,%d,1000,element,0.01,0\n",
			    p, p % 2 ? "avx2" : "scalar", 1024 + 8 * (p / 2), rep,
			    (p % 2 ? 25000 : 100000) + 1000 * rep);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The simd_speedup entries with a speedup. */
static size_t sc_sped(const struct lab_an_analysis *a)
{
	const struct lab_an_cv *v = lab_an_view_state(a, "simd_speedup");
	size_t n = 0;

	for (size_t i = 0; v && i < v->ng; i++)
		for (size_t j = 0; j < v->g[i].nc; j++)
			for (size_t k = 0; k < v->g[i].c[j].npt; k++)
				n += v->g[i].c[j].pt[k].v[0].n > 0;
	return n;
}

/* A speedup column found each point's baseline by scanning every point of the run. */
LAB_TEST(speedup_baselines_linear)
{
	size_t s1, s4;
	unsigned long long w1 = sc_probes(sc_write_simd("s1", 1000), sc_sped, &s1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_simd("s4", 4000), sc_sped, &s4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("document bytes", "points", 1000, b1, b4, 6, ~0ULL);
	CHECK_EQ_U64(s1, 1000);
	CHECK_EQ_U64(s4, 4000);
	sc_growth("keys compared", "points", 1000, w1, w4, 5, 8ULL * 4000);
}

/* Writes DIR/NAME: n peak points, op fma and fma_add at n / 2 chain counts, one thread, for
 * the roofline's FMA+add sentences. */
static const char *sc_write_pipes(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"pk\", \"kernel\": \"peak\", \"work_unit\": \"step\", \"views\": [\"roofline\"], "
	      "\"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(
		    r,
		    "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"chains\": \"%ld\", "
		    "\"op\": \"%s\"}, \"status\": \"ok\", \"work_per_unit\": {\"bytes_read\": 0, "
		    "\"bytes_written\": 0, \"flops\": 16, \"bytes_write_allocate\": 0}, \"reps\": "
		    "2}",
		    p ? "," : "", p, p / 2, p % 2 ? "fma_add" : "fma");
		for (int rep = 0; rep < 2; rep++)
			fprintf(s, "pk,%ld,peak,\"chains=%ld;op=%s\",1,%d,%d,1000,step,0.01,0\n", p,
			        p / 2, p % 2 ? "fma_add" : "fma", rep, 100000 + 1000 * rep);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The roofline's FMA+add sentences. */
static size_t sc_said(const struct lab_an_analysis *a)
{
	const struct lab_an_rl *rl = lab_an_view_state(a, "roofline");

	return rl ? rl->npipes : 0;
}

/* Each FMA point looked for its FMA+add partner among every point of the run. */
LAB_TEST(roofline_pipes_linear)
{
	size_t s1, s4;
	unsigned long long w1 = sc_probes(sc_write_pipes("f1", 1000), sc_said, &s1),
	                   b1 = sc_doc_bytes;
	unsigned long long w4 = sc_probes(sc_write_pipes("f4", 4000), sc_said, &s4),
	                   b4 = sc_doc_bytes;

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("document bytes", "points", 1000, b1, b4, 6, ~0ULL);
	CHECK_EQ_U64(s1, 500);
	CHECK_EQ_U64(s4, 2000);
	sc_growth("keys compared", "points", 1000, w1, w4, 5, 8ULL * 4000);
}

/* A document of sc_ng sections, sc_rep per experiment ("g<k>"), as a view's describe makes it. */
static size_t sc_ng, sc_rep;

static int sc_view_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                           const struct lab_an_point *p)
{
	(void)v;
	(void)d;
	(void)p;
	return 0;
}

static const struct lab_an_view sc_view = {.name = "counting", .applies = sc_view_applies};
/* A second view: each view's key once in an experiment's object (JSON refuses a key twice). */
static const struct lab_an_view sc_view_b = {.name = "counting_b", .applies = sc_view_applies};

static struct lab_doc *sc_doc(const char *name)
{
	struct lab_doc *doc = lab_doc_new(name, "Counting");

	for (size_t g = 0; doc && g < sc_ng; g++) {
		char exp[24];
		struct lab_doc_table *t;

		snprintf(exp, sizeof(exp), "g%zu", g / sc_rep);
		t = lab_doc_table(lab_doc_section(doc, exp, NULL), "points", NULL);
		lab_doc_col(t, "group", NULL, LAB_DOC_COUNT);
		lab_doc_row(t);
		lab_doc_num(lab_doc_at(t, 0), (double)g);
	}
	return doc;
}

/*
 * analysis.json's experiments[]: the sections of a view's document bucketed by experiment once
 * (a counting sort), so each experiment's entry holds exactly its sections, in order, however
 * many experiments there are (the old hooks were O(groups^2)). Two views with a document, one
 * without.
 */
LAB_TEST(views_json_sections_per_experiment)
{
	struct lab_an_data d = {0};
	struct lab_an_view_run runs[3] = {{&sc_view, NULL, NULL, NULL, NULL, NULL},
	                                  {&sc_view, NULL, NULL, NULL, NULL, NULL},
	                                  {&sc_view_b, NULL, NULL, NULL, NULL, NULL}};
	struct lab_an_analysis a = {.data = &d, .views = runs, .nviews = 3};
	struct lab_err err = {0};
	struct lab_an_json *j = NULL;
	struct lab_json w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	REQUIRE(f != NULL);
	sc_ng = 4000;
	sc_rep = 2; /* sections 2k and 2k+1 are of experiment g<k>: 2000 experiments */
	runs[0].doc = sc_doc("counting");
	runs[2].doc = sc_doc("counting_b");
	REQUIRE(runs[0].doc && runs[2].doc);
	REQUIRE(lab_an_views_index(&a, &err) == 0);
	lab_json_begin(&w, f);
	lab_json_obj_open(&w, NULL);
	lab_an_views_json(&w, &a);
	lab_json_obj_close(&w);
	lab_json_end(&w);
	fclose(f);
	REQUIRE(lab_an_json_parse("analysis.json", buf, len, &j, &err) == 0);
	{
		const struct lab_an_json *e = lab_an_json_get(j, "experiments");

		REQUIRE(e && e->n == sc_ng / sc_rep);
		for (size_t k = 0; k < e->n; k++) {
			const struct lab_an_json *sec =
			    lab_an_json_get(lab_an_json_get(&e->items[k], "counting"), "sections");
			const struct lab_an_json *rows;
			char name[24];

			snprintf(name, sizeof(name), "g%zu", k);
			CHECK_EQ_STR(lab_an_json_str(&e->items[k], "name"), name);
			REQUIRE(sec && sec->n == sc_rep);
			rows = lab_an_json_get(
			    lab_an_json_get(lab_an_json_get(&sec->items[1], "tables"), "points"),
			    "rows");
			REQUIRE(rows && rows->n == 1);
			CHECK_NEAR(lab_an_json_num(&rows->items[0], "group", -1),
			           (double)(k * sc_rep + 1), 0);
		}
	}
	lab_an_json_free(j);
	free(buf);
	for (size_t i = 0; i < 3; i++) { /* runs is on the stack: free what the index made */
		lab_doc_free(runs[i].doc);
		free(runs[i].order);
		free(runs[i].start);
	}
	a.views = NULL;
	a.nviews = 0;
	lab_an_views_free(&a);
}

/* The points lab compare compared while matching dir with itself (each point against its
 * copy); 0 when it could not run. */
static size_t sc_compare_work(const char *dir, size_t *matched)
{
	struct lab_an_data d;
	struct lab_an_compare c = {0};
	struct lab_err err = {0};
	size_t work = 0;

	*matched = 0;
	if (!dir || lab_an_data_load_dir(&d, dir, &err) ||
	    lab_an_data_summarize_modes(&d, 0, 0, &err)) {
		fprintf(stderr, "%s: %s\n", dir ? dir : "(no dir)", err.msg);
		return 0;
	}
	if (lab_an_compare_run(&d, &d, 0.01, &c, &err) == 0) {
		work = c.compared;
		*matched = c.n - c.unmatched;
	}
	lab_an_compare_free(&c);
	lab_an_data_free(&d);
	return work;
}

/* DIR/NAME: n points whose one param's values share their first 150 bytes. */
static const char *sc_write_long_values(const char *name, long n)
{
	static char dir[4096];
	char pre[151];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	memset(pre, 'v', 150);
	pre[150] = '\0';
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"x\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"tag\": \"%s%ld\"}, "
		        "\"status\": \"ok\", \"reps\": 1}",
		        p ? "," : "", p, pre, p);
		fprintf(s, "x,%ld,noop,\"tag=%s%ld\",1,0,1000,10,op,0.01,0\n", p, pre, p);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The index slots looked at while loading dir; 0 when it could not load. */
static unsigned long long sc_load_probes(const char *dir)
{
	struct lab_an_data d;
	struct lab_err err = {0};
	unsigned long long before = lab_an_index_probes(), work = 0;

	if (dir && !lab_an_data_load_dir(&d, dir, &err)) {
		work = lab_an_index_probes() - before;
		lab_an_data_free(&d);
	} else {
		fprintf(stderr, "%s: %s\n", dir ? dir : "(no dir)", err.msg);
	}
	return work;
}

/* The check of one spelling per amount hashed a value's first 100 bytes: values that differ
 * only past them fell into one chain (64,000 points: 143 s, hostile37). */
LAB_TEST(spelling_check_linear_in_long_values)
{
	unsigned long long w1 = sc_load_probes(sc_write_long_values("lv1", 1000));
	unsigned long long w4 = sc_load_probes(sc_write_long_values("lv4", 4000));

	REQUIRE(w1 > 0 && w4 > 0);
	sc_growth("index slots looked at", "points", 1000, w1, w4, 6, 100 * 4000);
}

/* lab compare of 100 000 points x 10 took 83 s: each point was matched by a scan. */
LAB_TEST(compare_matches_linear)
{
	size_t m1, m4;
	size_t c1 = sc_compare_work(sc_write("c1", 1000, 1), &m1);
	size_t c4 = sc_compare_work(sc_write("c4", 4000, 1), &m4);

	REQUIRE(c1 > 0 && c4 > 0);
	CHECK_EQ_U64(m1, 1000);
	CHECK_EQ_U64(m4, 4000);
	sc_growth("points compared", "points", 1000, c1, c4, 5,
	          4 * 4000); /* about 2 per point: one side's index, then its match */
}

/* DIR/NAME: a c2c_latency experiment of n disjoint CPU pairs (0, 1), (2, 3), ...: 2n CPUs. */
static const char *sc_write_c2c(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_create(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"c2c\", \"kernel\": \"c2c_latency\", \"work_unit\": \"roundtrip\", \"views\": "
	      "[\"c2c\"], \"points\": [",
	      r);
	for (long p = 0; p < n; p++) {
		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 2, \"cpus\": [%ld, %ld], \"params\": "
		        "{\"pair\": \"%ld-%ld\"}, \"status\": \"ok\", \"reps\": 3}",
		        p ? "," : "", p, 2 * p, 2 * p + 1, 2 * p, 2 * p + 1);
		for (int rep = 0; rep < 3; rep++)
			fprintf(
			    s,
			    "c2c,%ld,c2c_latency,\"pair=%ld-%ld\",2,%d,%ld,100,roundtrip,0.01,0\n",
			    p, 2 * p, 2 * p + 1, rep, 8000 + 100 * (p % 7) + rep);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* The cells lab_an_c2c_find compared while analyzing dir (the view indexes its pairs and
 * describes its grid) and writing its plots (not rendered), and the size of the heatmap's .dat;
 * 0 when it could not run. */
static unsigned long long sc_c2c_work(const char *dir, long long *dat_bytes)
{
	struct lab_an_data d;
	struct lab_an_analysis a = {0};
	struct lab_an_plots plots = {0};
	struct lab_an_warnings warn = {0};
	struct lab_err err = {0};
	unsigned long long before, work = 0;
	char path[4200];
	struct stat st;

	*dat_bytes = 0;
	if (sc_load(dir, &d))
		return 0;
	before = lab_an_c2c_probes();
	if (lab_an_analysis_run(&d, 0, &a, &err) == 0 &&
	    lab_an_plots_write(&a, dir, 0, NULL, &plots, &warn, &err) == 0)
		work = lab_an_c2c_probes() - before;
	else
		fprintf(stderr, "%s: %s\n", dir, err.msg);
	snprintf(path, sizeof(path), "%s/plots/c2c00-c2c-heatmap.dat", dir);
	if (stat(path, &st) == 0)
		*dat_bytes = (long long)st.st_size;
	else
		fprintf(stderr, "%s: no heatmap .dat\n", path);
	lab_an_plots_free(&plots);
	lab_an_warnings_free(&warn);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	return work;
}

/* 2,000 pairs took 34 s and wrote a 215 MB .dat: every cell of the CPU x CPU grid scanned all
 * pairs, and the grid was written whole however sparse. */
LAB_TEST(c2c_heatmap_linear_in_pairs)
{
	long long b1, b4;
	unsigned long long w1 = sc_c2c_work(sc_write_c2c("h1", 300), &b1);
	unsigned long long w4 = sc_c2c_work(sc_write_c2c("h4", 1200), &b4);

	REQUIRE(w1 > 0 && w4 > 0 && b1 > 0 && b4 > 0);
	sc_growth("cells compared", "pairs", 300, w1, w4, 5, 8ULL * 1200);
	fprintf(stderr, ".dat: 300 pairs %lld bytes, 1200 pairs %lld bytes\n", b1, b4);
	CHECK(b4 <= 5 * b1);
	CHECK(b4 <= 64LL * 1200 + 4096); /* two grid points per pair, not (2 x 1200)^2 */
}

/* DIR/NAME: n points of 10 samples each, then one of 100 and one of 1, each point's rows
 * together (as lab run writes them), with the run column. */
static const char *sc_write_reps(const char *name, long n)
{
	static char dir[4096];
	FILE *s, *r;

	if (sc_open(name, dir, sizeof(dir), &s, &r))
		return NULL;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged,run\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"x\", \"kernel\": \"noop\", \"work_unit\": \"op\", \"points\": [",
	      r);
	for (long p = 0; p < n + 2; p++) {
		long reps = p < n ? 10 : p == n ? 100 : 1;

		fprintf(r,
		        "%s\n{\"point\": %ld, \"threads\": 1, \"params\": {\"size\": \"%ld\"}, "
		        "\"status\": \"ok\", \"reps\": %ld}",
		        p ? "," : "", p, p, reps);
		for (long rep = 0; rep < reps; rep++)
			fprintf(s, "x,%ld,noop,\"size=%ld\",1,%ld,%ld,1000,op,0.01,0,0\n", p, p,
			        rep, 1000000 + 1000 * rep);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? NULL : dir;
}

/* 100 000 points x 10 samples: each point's cost, flagged and run arrays started at 8 and were
 * reallocated to 16, a million small reallocations (14 % of `lab analyze`). A point now gets
 * room once for as many samples as the point before it had (up to 64), which the rows of a
 * point, together, fill exactly; other counts still grow. */
LAB_TEST(point_arrays_sized_once)
{
	struct lab_an_data d;
	size_t exact = 0;

	REQUIRE(sc_load(sc_write_reps("reps", 50), &d) == 0);
	REQUIRE(d.npt == 52);
	for (size_t i = 0; i < d.npt; i++) {
		const struct lab_an_point *p = &d.pt[i];

		CHECK_EQ_U64(p->n, p->id < 50 ? 10 : p->id == 50 ? 100 : 1);
		CHECK(p->cost[p->n - 1] == 1000 + (double)(p->n - 1)); /* the last sample's */
		if (p->id >= 1 && p->id < 50)
			exact += p->cap == 10 && p->run_cap == 10;
		if (p->id == 51) /* after 100 samples: grown from 8, not room for 100 */
			CHECK(p->cap == 8 && p->run_cap == 8);
	}
	CHECK_EQ_U64(exact, 49);
	lab_an_data_free(&d);
}
