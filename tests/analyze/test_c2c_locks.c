/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The c2c matrix and the lock tables on hand-made fixtures (tests/analyze/
 * gen_fixtures_c2c_locks.py holds the values and the hand computations), per-point modes, the
 * median interval and the topology relations.
 */
#include <gsl/gsl_sort.h>
#include <math.h>

#include "analyze/analysis.h"
#include "analyze/cpurel.h"
#include "analyze/data.h"
#include "analyze/jsonr.h"
#include "analyze/levels.h"
#include "analyze/render/doc.h"
#include "analyze/views/c2c.h"
#include "analyze/views/curves.h"
#include "analyze/views/locks_delay.h"
#include "analyze/views/views.h"
#include "tests/testlib.h"

/* The states of the c2c and locks views (empty ones when the view applies to nothing). */
static const struct lab_an_c2c *ck_c2c(const struct lab_an_analysis *a)
{
	static const struct lab_an_c2c none;
	const struct lab_an_c2c *c = lab_an_view_state(a, "c2c");

	return c ? c : &none;
}

static const struct lab_an_cv *ck_locks(const struct lab_an_analysis *a)
{
	static const struct lab_an_cv none;
	const struct lab_an_cv *l = lab_an_view_state(a, "locks");

	return l ? l : &none;
}

/* t(0.975, 2) / sqrt(3): the 95 % margin of a mean of 3 samples is this times their sd. */
#define T2_SQRT3 (4.302652729749464 / 1.7320508075688772)

static int ck_load(const char *name, struct lab_an_data *d, struct lab_an_analysis *a)
{
	char path[1024];
	struct lab_err err = {0};

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", testlib_srcdir(), name);
	if (lab_an_data_load_dir(d, path, &err) || lab_an_data_summarize(d, 0, &err) ||
	    lab_an_analysis_run(d, 0, a, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		return -1;
	}
	return 0;
}

static const struct lab_an_c2c_matrix *ck_matrix(const struct lab_an_c2c *c, const char *method)
{
	for (size_t i = 0; i < c->nm; i++)
		if (!strcmp(c->m[i].method, method))
			return &c->m[i];
	return NULL;
}

LAB_TEST(median_ci_order_statistics)
{
	double x[20], lo, hi;

	for (int i = 0; i < 20; i++)
		x[i] = i + 1;
	/* n = 20: P(Bin(20, 1/2) <= 5) = 0.0207 <= 0.025 < P(<= 6) = 0.0577, so x(6), x(15). */
	REQUIRE(lab_an_median_ci(x, 20, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 6, 0);
	CHECK_NEAR(hi, 15, 0);
	/* n = 6: x(1), x(6) (coverage 1 - 2/64); n = 5 cannot reach 95 %. */
	REQUIRE(lab_an_median_ci(x, 6, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 1, 0);
	CHECK_NEAR(hi, 6, 0);
	CHECK_EQ_I64(lab_an_median_ci(x, 5, 0.95, &lo, &hi), -1);
	CHECK(isnan(lo) && isnan(hi));
}

LAB_TEST(c2c_matrix_cells)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_c2c_matrix *ls, *cas;
	const struct lab_an_c2c_cell *c;

	REQUIRE(ck_load("results-c2c", &d, &a) == 0);
	CHECK(ck_c2c(&a)->topo_detailed);
	REQUIRE(ck_c2c(&a)->nm == 2);
	ls = ck_matrix(ck_c2c(&a), "load_store");
	cas = ck_matrix(ck_c2c(&a), "cas");
	REQUIRE(ls && cas);
	CHECK_EQ_U64(ls->ncell, 6);
	CHECK_EQ_U64(cas->ncell, 3);
	CHECK_EQ_U64(ls->ncpu, 4);
	CHECK_EQ_U64(ls->multimodal, 1);
	/* Unimodal SMT pair: 12.0 .. 13.9 ns, median 12.95, CI [x(6), x(15)] = [12.5, 13.4]. */
	c = lab_an_c2c_find(ls, 0, 1);
	REQUIRE(c);
	CHECK_EQ_U64(c->n, 20);
	CHECK_NEAR(c->median_ns, 12.95, 1e-9);
	CHECK_NEAR(c->ci95_lo, 12.5, 1e-9);
	CHECK_NEAR(c->ci95_hi, 13.4, 1e-9);
	CHECK_EQ_U64(c->modes.count, 1);
	CHECK_EQ_I64(c->smt_siblings, 1);
	CHECK_EQ_I64(c->same_package, 1);
	CHECK_EQ_I64(c->same_numa, 1);
	CHECK_NEAR(c->m_one_way, 12.45, 1e-9); /* the kernel's column: one-way - 0.5 */
	CHECK_NEAR(c->m_p90, 13.95, 1e-9);
	CHECK(lab_an_c2c_find(ls, 1, 0) == c); /* either order */
	/* Bimodal pair: 12 samples at 28.0 .. 30.2 and 8 at 108 .. 111.5. */
	c = lab_an_c2c_find(ls, 0, 2);
	REQUIRE(c);
	REQUIRE(c->modes.count == 2);
	/* centers are medians taken on the log scale: the geometric mean of the middle two */
	CHECK_NEAR(c->modes.mode[0].center, sqrt(29.0 * 29.2), 1e-9);
	CHECK_NEAR(c->modes.mode[1].center, sqrt(109.5 * 110), 1e-9);
	CHECK_NEAR(c->modes.mode[0].weight, 0.6, 1e-12);
	CHECK_NEAR(c->modes.mode[1].weight, 0.4, 1e-12);
	CHECK_EQ_I64(c->smt_siblings, 0);
	/* Cross-package pair; cas has no metric columns. */
	c = lab_an_c2c_find(ls, 3, 0);
	REQUIRE(c);
	CHECK_EQ_I64(c->same_package, 0);
	CHECK_EQ_I64(c->same_numa, 0);
	c = lab_an_c2c_find(cas, 0, 3);
	REQUIRE(c);
	CHECK(isnan(c->m_one_way));
	CHECK_NEAR(c->median_ns, 172.375, 1e-9);
	CHECK(lab_an_c2c_find(cas, 1, 2) == NULL);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* Red team: a pair of runs = 4 (each run 2 ns above the one before) has the run means'
 * interval, of the mean (the point's, halved), not the 20 samples' median interval. */
LAB_TEST(c2c_cell_of_several_runs_uses_run_means)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_c2c_cell *c;

	struct lab_err err = {0};
	char path[1024];

	/* as lab analyze loads it: the levels applied before the views run */
	snprintf(path, sizeof(path), "%s/tests/fixtures/results-c2c-runs", testlib_srcdir());
	REQUIRE(lab_an_data_load_dir(&d, path, &err) == 0 &&
	        lab_an_data_summarize(&d, 0, &err) == 0 && lab_an_levels_apply(&d, 0, &err) == 0 &&
	        lab_an_analysis_run(&d, 0, &a, &err) == 0);
	c = lab_an_c2c_find(ck_matrix(ck_c2c(&a), "load_store"), 0, 1);
	REQUIRE(c);
	CHECK(c->ci_runs);
	CHECK_EQ_U64(c->pt->levels.runs, 4);
	CHECK_NEAR(c->ci95_lo, c->pt->st.ci95_lo / 2, 1e-9);
	CHECK_NEAR(c->ci95_hi, c->pt->st.ci95_hi / 2, 1e-9);
	CHECK(c->ci95_lo < 13 && c->ci95_hi > 19); /* run means about 13, 15, 17, 19 ns */
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(c2c_without_topology_detail)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_c2c_cell *c;

	/* No "cpus" in run.json (the pair comes from the `pair` param), no pus_detail, two
	 * packages with SMT on: every relation is unknown. */
	REQUIRE(ck_load("results-c2c-nodetail", &d, &a) == 0);
	CHECK(!ck_c2c(&a)->topo_detailed);
	REQUIRE(ck_c2c(&a)->nm == 2);
	c = lab_an_c2c_find(&ck_c2c(&a)->m[0], 0, 2);
	REQUIRE(c);
	CHECK_EQ_U64(c->modes.count, 2);
	CHECK_EQ_I64(c->smt_siblings, -1);
	CHECK_EQ_I64(c->same_package, -1);
	CHECK_EQ_I64(c->same_numa, -1);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(cpurel_from_summary_counts)
{
	static const char doc[] = "{\"host\": {\"smt\": \"on\", \"topology\": {\"packages\": 1,"
	                          " \"numa_nodes\": 1, \"cores\": 2, \"pus\": 2}}}";
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};
	struct lab_an_cpurel r;
	int smt, pkg, numa, llc;

	REQUIRE(lab_an_json_parse("doc", doc, strlen(doc), &j, &err) == 0);
	lab_an_cpurel_init(&r, j);
	lab_an_cpurel_get(&r, 0, 1, &smt, &pkg, &numa, &llc);
	/* One package and one node are proven; cores == pus proves no SMT siblings. */
	CHECK_EQ_I64(smt, 0);
	CHECK_EQ_I64(pkg, 1);
	CHECK_EQ_I64(numa, 1);
	lab_an_json_free(j);
	lab_an_cpurel_init(&r, NULL);
	lab_an_cpurel_get(&r, 0, 1, &smt, &pkg, &numa, &llc);
	CHECK_EQ_I64(smt, -1);
	CHECK_EQ_I64(pkg, -1);
	CHECK_EQ_I64(numa, -1);
}

/* pus_detail, in any order and with a CPU listed twice (hostile): the first listing counts, as
 * a scan would find it; a CPU not listed is unknown. */
LAB_TEST(cpurel_from_pus_detail)
{
	static const char doc[] = "{\"host\": {\"topology\": {\"pus_detail\": ["
	                          "{\"cpu\": 16, \"package\": 0, \"numa\": 0, \"core\": 0, "
	                          "\"llc\": 0},"
	                          "{\"cpu\": 1, \"package\": 0, \"numa\": 0, \"core\": 1, "
	                          "\"llc\": 1},"
	                          "{\"cpu\": 0, \"package\": 0, \"numa\": 0, \"core\": 0, "
	                          "\"llc\": 0},"
	                          "{\"cpu\": 8, \"package\": 1, \"numa\": 1, \"core\": 8},"
	                          "{\"cpu\": 1, \"package\": 1, \"numa\": 1, \"core\": 9}]}}}";
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};
	struct lab_an_cpurel r;
	int smt, pkg, numa, llc;

	REQUIRE(lab_an_json_parse("doc", doc, strlen(doc), &j, &err) == 0);
	lab_an_cpurel_init(&r, j);
	lab_an_cpurel_get(&r, 0, 16, &smt, &pkg, &numa, &llc);
	CHECK(smt == 1 && pkg == 1 && numa == 1 && llc == 1);
	lab_an_cpurel_get(&r, 0, 1, &smt, &pkg, &numa, &llc); /* cpu 1's first listing: package 0 */
	CHECK(smt == 0 && pkg == 1 && numa == 1);
	CHECK_EQ_I64(llc, 0); /* one node, two last-level caches (two CCXs) */
	lab_an_cpurel_get(&r, 8, 1, &smt, &pkg, &numa, &llc);
	CHECK(smt == 0 && pkg == 0 && numa == 0);
	CHECK_EQ_I64(llc, -1); /* cpu 8 has no llc: a lab before it was recorded */
	lab_an_cpurel_get(&r, 8, 5, &smt, &pkg, &numa, &llc); /* 5 is not listed */
	CHECK(smt == -1 && pkg == -1 && numa == -1);
	lab_an_cpurel_free(&r);
	lab_an_json_free(j);
}

static const struct lab_an_cv_pt *ck_lock(const struct lab_an_cv_group *g, const char *lock,
                                          int threads)
{
	for (size_t j = 0; j < g->nc; j++)
		for (size_t k = 0; k < g->c[j].npt && !strcmp(g->c[j].key[0], lock); k++)
			if (g->c[j].pt[k].pt->threads == threads)
				return &g->c[j].pt[k];
	return NULL;
}

/* The locks view. */
static const struct lab_an_view *ck_locks_view(void)
{
	for (size_t i = 0; lab_an_views[i]; i++)
		if (!strcmp(lab_an_views[i]->name, "locks"))
			return lab_an_views[i];
	return NULL;
}

/* The index of the locks view's column key (LAB_AN_CV_MAXCOL when there is none). */
static size_t ck_col(const char *key)
{
	const struct lab_an_cv_spec *s = ck_locks_view() ? ck_locks_view()->spec : NULL;

	for (size_t k = 0; s && k < s->ncol; k++)
		if (!strcmp(s->col[k].key, key))
			return k;
	return LAB_AN_CV_MAXCOL;
}

/* Column key of lock entry e (a value no check accepts when there is no such column). */
static const struct lab_an_cv_val *ck_val(const struct lab_an_cv_pt *e, const char *key)
{
	static const struct lab_an_cv_val none = {.n = 999, .median = NAN, .mean = NAN};
	size_t k = ck_col(key);

	return k < LAB_AN_CV_MAXCOL ? &e->v[k] : &none;
}

LAB_TEST(lock_tables_hand_computed)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	const struct lab_an_cv_group *g;
	const struct lab_an_cv_pt *e;
	int jain = 0;

	REQUIRE(ck_load("results-locks", &d, &a) == 0);
	REQUIRE(ck_locks(&a)->ng == 2);
	g = &ck_locks(&a)->g[0];
	CHECK_EQ_STR(g->params, "cs_ns=100;placement=compact;think_ns=0");
	REQUIRE(g->nc == 2);
	CHECK_EQ_STR(g->c[0].key[0], "mcs");
	CHECK_EQ_STR(g->c[1].key[0], "tas");
	CHECK_EQ_U64(ck_locks(&a)->g[1].nc, 1);
	/* mcs, 1 thread: 170, 171, 172 M acquisitions in 1 s samples. */
	e = ck_lock(g, "mcs", 1);
	REQUIRE(e);
	CHECK_EQ_U64(ck_val(e, "throughput")->n, 3);
	/* 1e9 / the mean cost (1e9 / 170e6 ns, ...): the rates' harmonic mean, as a lesson's
	 * throughput() reads it; the cost's t-margin on the log scale (delta method: / the mean),
	 * inverted */
	double c[3] = {1e9 / 170e6, 1e9 / 171e6, 1e9 / 172e6}, cm = (c[0] + c[1] + c[2]) / 3,
	       cs = 0;
	for (int i = 0; i < 3; i++)
		cs += (c[i] - cm) * (c[i] - cm) / 2;
	CHECK_NEAR(ck_val(e, "throughput")->mean, 1e9 / cm, 1e-3);
	CHECK_NEAR(ck_val(e, "throughput")->mean, 3 / (1 / 170e6 + 1 / 171e6 + 1 / 172e6), 1e-3);
	CHECK_NEAR(ck_val(e, "throughput")->hi, 1e9 / cm * exp(sqrt(cs) * T2_SQRT3 / cm), 1);
	CHECK_NEAR(ck_val(e, "throughput")->lo, 1e9 / cm * exp(-sqrt(cs) * T2_SQRT3 / cm), 1);
	CHECK_NEAR(ck_val(e, "jain_fairness")->median, 1, 0);
	/* No handoff_ratio column in this older fixture: no value, not a zero. */
	CHECK_EQ_U64(ck_val(e, "handoff_ratio")->n, 0);
	/* tas, 2 threads: Jain 0.6, 0.7, 0.65; p99 900, 1000, 1100; max/min 9, 5, 7. */
	e = ck_lock(g, "tas", 2);
	REQUIRE(e);
	CHECK_NEAR(ck_val(e, "throughput")->mean, 3 / (1 / 86e6 + 1 / 87e6 + 1 / 88e6), 1e-3);
	CHECK_NEAR(ck_val(e, "jain_fairness")->median, 0.65, 1e-12);
	CHECK_NEAR(ck_val(e, "jain_fairness")->mean, 0.65, 1e-12);
	/* the t-interval, inside [1/2, 1], and summary.csv's the same */
	CHECK_NEAR(ck_val(e, "jain_fairness")->lo, 0.65 - 0.05 * T2_SQRT3, 1e-9);
	CHECK_NEAR(ck_val(e, "jain_fairness")->hi, 0.65 + 0.05 * T2_SQRT3, 1e-9);
	for (size_t m = 0; m < d.nmetric; m++)
		if (!strcmp(d.metric_name[m], "jain_fairness")) {
			const struct lab_an_msum *ms = lab_an_msum_of(e->pt, m);

			REQUIRE(ms);
			CHECK_NEAR(ck_val(e, "jain_fairness")->lo, ms->ci95_lo, 1e-12);
			CHECK_NEAR(ck_val(e, "jain_fairness")->hi, ms->ci95_hi, 1e-12);
			jain++;
		}
	CHECK_EQ_I64(jain, 1);
	CHECK_NEAR(ck_val(e, "acq_lat_p99_ns")->median, 1000, 1e-9);
	CHECK_NEAR(ck_val(e, "max_min_ratio")->median, 7, 1e-12);
	/* Thread counts ascend within a curve. */
	CHECK_EQ_I64(g->c[0].pt[0].pt->threads, 1);
	CHECK_EQ_I64(g->c[0].pt[1].pt->threads, 2);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/*
 * Bounded intervals: no throughput bound is negative (log scale), no Jain bound leaves
 * [1/threads, 1] (its t-interval clipped there). The fixture's tas 2-thread Jain t-interval reaches
 * 0.65 +- 0.05 * 4.3 = [0.43, 0.87]; the throughput t-intervals of 3 samples at 2 threads span
 * tens of M/s around the mean. A wider spread would push the t-intervals past the bounds;
 * these must not, whatever the spread.
 */
LAB_TEST(lock_intervals_respect_bounds)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	size_t checked = 0, jain = 0;

	REQUIRE(ck_load("results-locks", &d, &a) == 0);
	const struct lab_an_cv *l = ck_locks(&a);
	for (size_t i = 0; i < l->ng; i++)
		for (size_t j = 0; j < l->g[i].nc; j++)
			for (size_t k = 0; k < l->g[i].c[j].npt; k++) {
				const struct lab_an_cv_pt *e = &l->g[i].c[j].pt[k];
				const struct lab_an_cv_val *thr = ck_val(e, "throughput");
				const struct lab_an_cv_val *fair = ck_val(e, "jain_fairness");
				if (isfinite(thr->lo)) {
					CHECK(thr->lo > 0);
					CHECK(thr->lo <= thr->mean && thr->mean <= thr->hi);
					checked++;
				}
				if (isfinite(fair->lo)) {
					CHECK(fair->hi <= 1);
					CHECK(fair->lo >= 1.0 / e->pt->threads);
					jain++;
				}
			}
	CHECK(checked > 0);
	CHECK(jain > 0);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/* A throughput with a huge spread: the t-interval goes negative, the bounded one does not. */
LAB_TEST(lock_bounded_interval_formulas)
{
	double lo, hi;
	struct lab_an_stats st = {0};
	double x[3] = {1e6, 50e6, 100e6}, w[3];

	lab_an_stats_compute(x, 3, w, &st);
	CHECK(st.ci95_lo < 0); /* the plain t-interval would say negative throughput */
	REQUIRE(lab_an_stats_ci_log(&st, 0.95, &lo, &hi) == 0);
	CHECK(lo > 0 && hi > st.mean);
}

LAB_TEST(point_modes_need_eight_samples)
{
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};

	REQUIRE(ck_load("results-c2c", &d, &a) == 0);
	/* point 1 is the bimodal pair: the point's cost (round trip) has the same two modes. */
	for (size_t i = 0; i < d.npt; i++)
		if (d.pt[i].id == 1) {
			CHECK_EQ_U64(d.pt[i].modes.count, 2);
			CHECK_NEAR(d.pt[i].modes.mode[0].center, 2 * sqrt(29.0 * 29.2), 1e-9);
		}
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	/* 3 repetitions per lock point: too few to tell modes, so unknown (count 0). */
	REQUIRE(ck_load("results-locks", &d, &a) == 0);
	for (size_t i = 0; i < d.npt; i++)
		CHECK_EQ_U64(d.pt[i].modes.count, 0);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

/*
 * The locks document carries what the old tables showed beside the numbers: a point without
 * numbers says why (its status and reason) in its row and in its curves' legends, a
 * multimodal point says so with its modes' centers and weights, a delay flag is the row's note
 * (here a drift of +20 %; 2 M/s lies below the limit 1/cs_ns = 10 M/s).
 */
LAB_TEST(lock_document_says_why_and_flags)
{
	char ok[] = "ok", skipped[] = "skipped", reason[] = "needs 2 CPUs", tas[] = "tas";
	char exp[] = "locks", params[] = "cs_ns=100", pparams[] = "cs_ns=100;lock=tas",
	     none[] = "?";
	struct lab_an_point p[2] = {
	    {.id = 7, .threads = 1, .status = ok, .params = pparams},
	    {.id = 8, .threads = 2, .status = skipped, .reason = reason, .params = pparams}};
	struct lab_an_cv_pt e[2] = {{.pt = &p[0], .x = 1}, {.pt = &p[1], .x = 2}};
	struct lab_an_cv_curve c = {.key = {tas, none}, .label = tas, .pt = e, .npt = 2};
	struct lab_an_cv_group g = {.experiment = exp, .params = params, .c = &c, .nc = 1};
	const struct lab_an_view *v = ck_locks_view();
	struct lab_an_cv l = {.spec = v ? v->spec : NULL, .g = &g, .ng = 1};
	size_t thr = ck_col("throughput"), drift = ck_col("delay_drift_pct");
	const struct lab_doc_table *t;
	const struct lab_doc_figure *f;
	struct lab_doc *doc;
	size_t modes = 0;

	REQUIRE(v && v->describe && thr < LAB_AN_CV_MAXCOL && drift < LAB_AN_CV_MAXCOL);
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < LAB_AN_CV_MAXCOL; j++)
			e[k].v[j].median = e[k].v[j].mean = e[k].v[j].lo = e[k].v[j].hi = NAN;
	e[0].v[thr].n = e[0].v[drift].n = 3;
	e[0].v[thr].mean = e[0].v[thr].median = 2e6;
	e[0].v[drift].mean = e[0].v[drift].median = 20;
	p[0].modes.count = 2;
	p[0].modes.mode[0].center = 30;
	p[0].modes.mode[0].weight = 0.6;
	p[0].modes.mode[1].center = 110;
	p[0].modes.mode[1].weight = 0.4;
	REQUIRE((doc = lab_doc_new("locks", "locks")));
	REQUIRE(v->describe(v, &l, doc) == 0);
	REQUIRE(doc->ns == 1 && doc->s[0]->nb == 5 && doc->s[0]->b[0].type == LAB_DOC_TABLE);
	t = doc->s[0]->b[0].u.table;
	REQUIRE(t->nrow == 2);
	while (modes < t->ncol && strcmp(t->col[modes].key, "modes"))
		modes++;
	REQUIRE(modes < t->ncol);
	CHECK_NEAR(t->cell[modes].mean, 2, 0);
	CHECK_EQ_STR(t->cell[modes].note, "MULTIMODAL at 30;110 ns, weights 0.6;0.4");
	CHECK_EQ_STR(
	    t->rnote[0],
	    "DELAY FLAGGED: delay calibration +20 % off the run's fastest (tolerance 10 %)");
	CHECK(t->rwhy[0] == NULL);
	CHECK_EQ_STR(t->rwhy[1], "skipped: needs 2 CPUs");
	CHECK(t->rnote[1] == NULL);
	for (size_t b = 1; b < 4; b++) { /* throughput, fairness, p99: a gap at 2 threads */
		REQUIRE(doc->s[0]->b[b].type == LAB_DOC_FIGURE);
		f = doc->s[0]->b[b].u.figure;
		REQUIRE(f->nc == 1);
		/* as the row says (plots38); p99 has no value at 1 thread here, which its legend
		 * says too; fairness draws from 2 threads (plots43) */
		CHECK_EQ_STR(f->c[0]->missing,
		             b != 3 ? "2: skipped" : "1: no value, see the table; 2: skipped");
	}
	CHECK_EQ_U64(doc->s[0]->b[1].u.figure->c[0]->n, 1); /* the 1-thread throughput */
	lab_doc_free(doc);
}

/* A cs_ns a file holds that is no duration ("inf" and "1e400" read as an infinite section gave
 * "1/cs_ns = 0 M/s"; "0x10" read as 16 ns, "-5" and "100 " went unchecked) is a reason of its
 * own; a duration in any of the config's units is read; a section below the clock's resolution
 * (NaN) is not read as a time. */
LAB_TEST(lock_delay_cs_ns_read_as_config_durations)
{
	static const char *const bad[] = {
	    "inf", "1e400", "0x10", "-5", "100 ", "nan", "1us!", "us",
	    /* 1000 ns, too long to read whole: cut, it read as 100 */
	    "0000000000000000000000000000000000000000000000000000000000001000ns"};
	struct lab_an_delay at = {.cs_median = 1000, .cs_n = 5, .thr_lo = 0.5e6, .thr_n = 5};
	char params[160], buf[448];
	const char *why;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(params, sizeof(params), "cs_ns=%s;lock=tas;think_ns=0", bad[i]);
		why = lab_an_delay_flag(params, &at, buf, sizeof(buf));
		CHECK(why && !strcmp(why, "DELAY FLAGGED: cs_ns is no duration, so the section and "
		                          "the 1/cs_ns limit go unchecked"));
	}
	CHECK(lab_an_delay_flag("cs_ns=1us;lock=tas;think_ns=0", &at, buf, sizeof(buf)) == NULL);
	CHECK(lab_an_delay_flag("cs_ns=1000;lock=tas;think_ns=0", &at, buf, sizeof(buf)) == NULL);
	CHECK(lab_an_delay_flag("cs_ns=0.001ms;lock=tas", &at, buf, sizeof(buf)) == NULL);
	why = lab_an_delay_flag("cs_ns=2us;lock=tas;think_ns=0", &at, buf, sizeof(buf));
	CHECK(why && strstr(why, "critical section achieved 1000 ns, -50 % off cs_ns"));
	/* a section longer than asked is no flag: a fair lock's holds the protected line's move
	 * at each hand-off (ticket at cs_ns = 100 ns read 224 ns; the drift says if the delay
	 * moved) */
	CHECK(lab_an_delay_flag("cs_ns=500ns;lock=ticket;think_ns=0", &at, buf, sizeof(buf)) ==
	      NULL);
	at.cs_median = NAN;
	CHECK(lab_an_delay_flag("cs_ns=2us;lock=tas;think_ns=0", &at, buf, sizeof(buf)) == NULL);
	/* a section of 0 asks for no delay: a drifted calibration does not matter to it */
	at = (struct lab_an_delay){.drift_median = 30, .drift_n = 5, .thr_lo = NAN};
	CHECK(lab_an_delay_flag("cs_ns=0;lock=tas;think_ns=0ns", &at, buf, sizeof(buf)) == NULL);
	CHECK(lab_an_delay_flag("cs_ns=inf;lock=tas;think_ns=0", &at, buf, sizeof(buf)) != NULL);
}
