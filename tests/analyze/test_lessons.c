/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lessons with verdicts (analyze/lessons.h) on fixture data built in memory: no timing is
 * measured. A ratio clearly above its bound holds; the same data against an impossible bound
 * fails; a ratio near its bound with wide intervals is inconclusive; a missing or skipped point
 * is "not run" with the reason; speedup, throughput, metric and differences take the documented
 * interval (Fieller, t, delta).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/domain.h"
#include "analyze/lessons.h"
#include "analyze/levels.h"
#include "harness/json.h"
#include "tests/testlib.h"

struct fx {
	struct lab_an_data d;
	char json[8192];
	size_t used;
	const char *host;   /* run.json's "host" object, or NULL */
	const char *lab;    /* run.json's "lab" object, or NULL */
	const char *metric; /* the metric column's name ("fairness" when NULL) */
};

/* Adds a point whose n costs are mean +- spread (alternating), with one metric column. */
static struct lab_an_point *fx_point(struct fx *f, const char *exp, const char *params, int threads,
                                     double mean, double spread, size_t n)
{
	struct lab_an_data *d = &f->d;
	double *work = calloc(n ? n : 1, sizeof(double));

	d->pt = realloc(d->pt, (d->npt + 1) * sizeof(*d->pt));
	if (!d->pt || !work)
		abort();
	struct lab_an_point *p = &d->pt[d->npt++];
	memset(p, 0, sizeof(*p));
	p->experiment = strdup(exp);
	p->params = strdup(params);
	p->status = strdup("ok");
	p->threads = threads;
	p->n = n;
	p->cost = calloc(n ? n : 1, sizeof(double));
	for (size_t i = 0; i < n; i++)
		p->cost[i] = mean + (i % 2 ? spread : -spread) * (1 + 0.1 * (double)(i / 2));
	lab_an_stats_compute(p->cost, n, work, &p->st);
	p->nmc = 1; /* its one metric column, every sample's (mcol NULL: all columns) */
	p->msum = calloc(1, sizeof(*p->msum));
	p->msum[0] = (struct lab_an_msum){.n = n,
	                                  .mean = mean / 10,
	                                  .median = mean / 10,
	                                  .ci95_lo = p->st.ci95_lo / 10,
	                                  .ci95_hi = p->st.ci95_hi / 10};
	free(work);
	return p;
}

/* Labels p's samples with runs 0 .. k-1 in turn (samples.csv's run column), none flagged. */
static void fx_run_labels(struct lab_an_point *p, int k)
{
	p->run = calloc(p->n ? p->n : 1, sizeof(*p->run));
	p->flagged = calloc(p->n ? p->n : 1, 1);
	if (!p->run || !p->flagged)
		abort();
	for (size_t i = 0; i < p->n; i++)
		p->run[i] = (int)(i % (size_t)k);
}

static void fx_lesson(struct fx *f, const char *name, const char *expr)
{
	f->used += (size_t)snprintf(f->json + f->used, sizeof(f->json) - f->used,
	                            "%s{\"name\": \"%s\", \"claim\": \"%s\", \"expr\": \"%s\"}",
	                            f->used ? ", " : "", name, expr, expr);
}

static void fx_eval(struct fx *f, struct lab_an_lessons *ls)
{
	char doc[8400];
	struct lab_err err = {0};
	static char fairness[] = "fairness";
	static char *metric_names[1];
	static int metric_dom[1];

	metric_names[0] = f->metric ? (char *)f->metric : fairness;
	metric_dom[0] = (int)lab_domain_of(metric_names[0]); /* as the loader sets it */
	snprintf(doc, sizeof(doc), "{%s%s%s%s%s%s\"lessons\": [%s]}", f->host ? "\"host\": " : "",
	         f->host ? f->host : "", f->host ? ", " : "", f->lab ? "\"lab\": " : "",
	         f->lab ? f->lab : "", f->lab ? ", " : "", f->json);
	REQUIRE(lab_an_json_parse("run.json", doc, strlen(doc), &f->d.run, &err) == 0);
	f->d.metric_name = metric_names;
	f->d.metric_dom = metric_dom;
	f->d.nmetric = 1;
	REQUIRE(lab_an_lessons_eval(&f->d, ls, &err) == 0);
	for (size_t i = 0; i < ls->n; i++)
		fprintf(stderr, "  %-14s %s\n", ls->l[i].name, ls->l[i].text);
}

static void fx_free(struct fx *f, struct lab_an_lessons *ls)
{
	for (size_t i = 0; i < f->d.npt; i++) {
		struct lab_an_point *p = &f->d.pt[i];
		free(p->experiment);
		free(p->params);
		free(p->status);
		free(p->reason);
		free(p->cost);
		free(p->msum);
	}
	free(f->d.pt);
	lab_an_json_free(f->d.run);
	lab_an_lessons_free(ls);
}

/* Two false-sharing points: stride 8 costs 3x stride 128, a few percent noise. */
static void fx_sharing(struct fx *f)
{
	fx_point(f, "fs", "op=rmw;placement=compact;stride=8", 2, 30, 0.5, 10);
	fx_point(f, "fs", "op=rmw;placement=compact;stride=128", 2, 10, 0.2, 10);
	fx_point(f, "fs", "op=rmw;placement=compact;stride=8", 1, 9, 0.2, 10);
}

/* Two costs, the numerator's mean not distinguishable from 0 by its t-interval (2 samples, 0.1
 * and 9.9): Fieller's interval reaches below 0, where a ratio of costs cannot be; it starts at
 * 0, and the verdict stays inconclusive. */
LAB_TEST(cost_ratio_interval_stays_positive)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "n", "k=a", 2, 5, 4.9, 2);
	fx_point(&f, "n", "k=b", 2, 1, 0.01, 10);
	fx_lesson(&f, "noisy", "cost(n: k=a, threads=2) / cost(n: k=b, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(ls.l[0].method, "fieller");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(ls.l[0].lo == 0 && ls.l[0].hi > 5);
	fx_free(&f, &ls);
}

LAB_TEST(clear_ratio_holds_and_impossible_bound_fails)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_lesson(&f, "impossible",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 1000");
	fx_lesson(&f, "flipped",
	          "2 <= cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2)");
	fx_lesson(&f, "two_sides",
	          "cost(fs: stride=8, threads=2) > 2 * cost(fs: stride=128, threads=2)");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 4);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK_EQ_STR(ls.l[0].method, "fieller");
	CHECK_NEAR(ls.l[0].value, 3, 1e-9);
	CHECK(ls.l[0].lo < 3 && ls.l[0].hi > 3 && ls.l[0].lo > 2);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "fails");
	CHECK(strstr(ls.l[1].text, "violates") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds");
	CHECK_EQ_STR(ls.l[2].cmp, ">=");
	/* L > 2 R: compared as L / (2 R) > 1 with Fieller */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[3].verdict), "holds");
	CHECK_EQ_STR(ls.l[3].method, "fieller");
	CHECK_NEAR(ls.l[3].value, 1.5, 1e-9);
	fx_free(&f, &ls);
}

LAB_TEST(interval_across_the_bound_is_inconclusive)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "fs", "stride=8", 2, 21, 6, 4);
	fx_point(&f, "fs", "stride=128", 2, 10, 3, 4);
	fx_lesson(&f, "near", "cost(fs: stride=8) / cost(fs: stride=128) >= 2");
	fx_lesson(&f, "one", "cost(fs: stride=8) >= 1");
	fx_eval(&f, &ls);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(ls.l[0].lo < 2 && ls.l[0].hi > 2);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "holds");
	CHECK_EQ_STR(ls.l[1].method, "t");
	fx_free(&f, &ls);
}

/* A point measured in 5 runs of which one kept an unflagged sample: its interval is one setup's,
 * so a clear ratio is inconclusive with the reason (it "held" on the samples of that setup). A
 * point of one planned run is judged on its samples as before. */
LAB_TEST(one_setup_of_several_runs_is_inconclusive)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_json *five, *one;
	struct lab_err err;
	static const char runs5[] = "{\"runs\": 5}", runs1[] = "{\"runs\": 1}";

	fx_sharing(&f);
	REQUIRE(lab_an_json_parse("run.json", runs5, strlen(runs5), &five, &err) == 0);
	REQUIRE(lab_an_json_parse("run.json", runs1, strlen(runs1), &one, &err) == 0);
	f.d.pt[0].runjson = five;
	f.d.pt[0].id = 7;
	f.d.pt[0].levels.runs = 1; /* the other 4 runs' samples were flagged */
	fx_run_labels(&f.d.pt[0], 5);
	f.d.pt[1].runjson = one;
	f.d.pt[1].levels.runs = 1;
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_lesson(&f, "planned_one", "cost(fs: stride=128, threads=2) <= 100");
	/* red team: straddling, it still says the interval is one setup's (it said only that it
	 * straddles, as if a few more samples would tip it) */
	fx_lesson(&f, "straddles",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 3");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text, "point 7 kept 1 of its 5 runs (the others' samples were all "
	                           "flagged for load)") != NULL);
	CHECK(ls.l[0].lo > 2); /* the interval alone would hold */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "holds");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "inconclusive");
	CHECK(strstr(ls.l[2].text, "claim >= 3: the interval straddles the bound; point 7 kept 1 "
	                           "of its 5 runs") != NULL);
	lab_an_json_free(five);
	lab_an_json_free(one);
	free(f.d.pt[0].run);
	free(f.d.pt[0].flagged);
	fx_free(&f, &ls);
}

/* review37: a point that kept 3 runs whose metric has values in one of them (the others'
 * blank) held on that run's samples; it is one setup's metric, so inconclusive, said as such. A
 * metric over the 3 run means is judged. */
LAB_TEST(metric_of_one_kept_run_is_one_setup)
{
	for (int blank = 1; blank >= 0; blank--) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_an_point *p =
		    fx_point(&f, "h", "lock=ticket;placement=compact", 2, 10, 0.2, 12);

		p->id = 4;
		p->levels.runs = 3;
		p->msum[0] = (struct lab_an_msum){.n = blank ? 4 : 12,
		                                  .runs = blank ? 0 : 3,
		                                  .mean = 0.95,
		                                  .median = 0.95,
		                                  .se = 0.003};
		fx_lesson(&f, "hands_over", "metric(fairness, h: lock=ticket, threads=2) >= 0.8");
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 1);
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict),
		             blank ? "inconclusive" : "holds");
		CHECK((strstr(ls.l[0].text,
		              "point 4 has fairness values in one of its 3 kept runs, so "
		              "they are one setup's") != NULL) == blank);
		fx_free(&f, &ls);
	}
}

/* review44: a ratio of two points of 2 runs each (means of 200 samples, their run means far
 * apart) has no bounded interval: its means rest on 2 runs, not on 2 samples. */
LAB_TEST(no_interval_counts_runs_as_runs)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	for (int i = 0; i < 2; i++) {
		struct lab_an_point *p =
		    fx_point(&f, "fs", i ? "stride=128" : "stride=8", 2, i ? 10 : 40, 1, 200);

		p->levels = (struct lab_an_levels){.runs = 2,
		                                   .n = 200,
		                                   .mean = i ? 10 : 40,
		                                   .run_se = i ? 8 : 5,
		                                   .run_ci95_lo = i ? -90 : -20,
		                                   .run_ci95_hi = i ? 110 : 100};
	}
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK(strstr(ls.l[0].text, "no bounded 95 % interval (as few as 2 runs behind a mean") !=
	      NULL);
	fx_free(&f, &ls);
}

/* review37: two means of one point are its paired samples, which the intervals take as
 * independent (a ratio of them "held" where the paired interval straddled): inconclusive with
 * the reason; the same quantities of two points are judged. */
LAB_TEST(two_means_of_one_point_are_not_judged)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	f.d.pt[0].id = 3;
	fx_lesson(&f, "paired",
	          "cost(fs: stride=8, threads=2) / metric(fairness, fs: stride=8, threads=2) >= 5");
	fx_lesson(
	    &f, "apart",
	    "cost(fs: stride=8, threads=2) / metric(fairness, fs: stride=128, threads=2) >= 5");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 2);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text, "its cost and fairness are means of one point (3) over the same "
	                           "samples, which the interval takes as independent") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "holds");
	fx_free(&f, &ls);
}

/* A point that kept one run of one sample (the others flagged) has no interval: the verdict
 * says why (it guessed "a denominator not clearly away from 0" where the denominator was
 * 1.134 [1.113, 1.154]). */
LAB_TEST(one_sample_of_one_setup_says_why_no_interval)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_json *three;
	struct lab_err err;
	static const char runs3[] = "{\"runs\": 3}";

	fx_point(&f, "lat", "size=256M", 1, 90, 0, 1);
	fx_point(&f, "lat", "size=16K", 1, 1, 0.01, 10);
	REQUIRE(lab_an_json_parse("run.json", runs3, strlen(runs3), &three, &err) == 0);
	f.d.pt[0].runjson = three;
	f.d.pt[0].id = 24;
	f.d.pt[0].levels.runs = 1;
	fx_lesson(&f, "dwarfs", "cost(lat: size=256M) / cost(lat: size=16K) >= 10");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text, "no bounded 95 % interval (as few as 1 sample behind a mean: "
	                           "too few to bound it); point 24 kept 1 of its 3 runs") != NULL);
	CHECK(strstr(ls.l[0].text, "denominator") == NULL);
	lab_an_json_free(three);
	fx_free(&f, &ls);
}

/* Precision red team: a difference (the delta method) with a mean of one sample "held" on the
 * other mean's interval alone, its one sample's variance read as 0: no interval, inconclusive,
 * as the ratio of the same two means is. */
LAB_TEST(difference_with_one_sample_has_no_interval)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "noop", "delay_loops=0", 1, 4.244, 0, 1);
	fx_point(&f, "noop", "delay_loops=0", 2, 3.254, 0.1, 10);
	fx_lesson(&f, "diff", "cost(noop: threads=1) - cost(noop: threads=2) > 0");
	fx_lesson(&f, "ratio", "cost(noop: threads=1) / cost(noop: threads=2) > 1");
	fx_lesson(&f, "other_alone", "cost(noop: threads=2) * 2 > 6");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(isnan(ls.l[0].lo) && isnan(ls.l[0].hi));
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "inconclusive");
	/* a value that does not use the one-sample mean keeps its interval */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds");
	fx_free(&f, &ls);
}

/* The mixed level's two points: m k=a over 3 runs (mean 100, run_se 1, between-run variance
 * vb), m k=b one setup of 10 samples at 50; returns a (fx_point moves the array). */
static struct lab_an_point *fx_mixed(struct fx *f, double vb)
{
	struct lab_an_point *a;

	fx_point(f, "m", "k=a", 1, 100, 1, 9);
	fx_point(f, "m", "k=b", 1, 50, 0.3, 10);
	a = &f->d.pt[0];
	fx_run_labels(a, 3);
	a->levels = (struct lab_an_levels){.runs = 3,
	                                   .mean = 100,
	                                   .run_se = 1,
	                                   .var_between = vb,
	                                   .run_ci95_lo = 95.7,
	                                   .run_ci95_hi = 104.3};
	return a;
}

/* Review red team: a difference of a point over run means and one of one setup took the one
 * setup's samples alone (the delta method), and held where the same claim as a ratio, which
 * lends it the other's between-run variance, was inconclusive. It lends there too. */
LAB_TEST(difference_at_the_mixed_level_lends)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_point *a;

	/* a over 3 runs: their means agree to +-1 (run_se 1), the between-run variance
	 * estimated at 75 (rel 0.0075): b's one setup may be off by as much */
	a = fx_mixed(&f, 75);
	fx_lesson(&f, "diff", "cost(m: k=a) - cost(m: k=b) >= 40");
	fx_lesson(&f, "ratio", "cost(m: k=a) / cost(m: k=b) >= 1.8");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 2);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "inconclusive");
	/* on b's samples alone the difference held */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	free(a->run);
	free(a->flagged);
	fx_free(&f, &ls);
}

/* precision33: a metric over 3 run means beside one setup's metric lent the latter nothing, and
 * a difference and a ratio held on the one setup's small within-run spread; it now takes a's
 * between-run variance, with a's 2 df: relative to the mean for a scale-like metric (a count
 * per op), as it is for one of unknown scale (a share near 0 lent 50 % of a share at 0.95
 * relative, review34). */
LAB_TEST(metric_at_the_mixed_level_lends)
{
	/* t(0.975, 2) */
	const double t2 = 4.302652729749464;
	static const char *const names[] = {"retries_per_op", "xm"};

	for (int rel = 1; rel >= 0; rel--) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_an_point *a;
		char expr[2][160];

		a = fx_mixed(&f, 2);
		/* the metric: a's over 3 run means (se 0.3), b's one setup's 10 samples (se 0.05)
		 */
		a->msum[0] =
		    (struct lab_an_msum){.n = 9, .runs = 3, .mean = 10, .median = 10, .se = 0.3};
		f.d.pt[1].msum[0] =
		    (struct lab_an_msum){.n = 10, .mean = 7, .median = 7, .se = 0.05};
		f.metric = names[1 - rel];
		snprintf(expr[0], sizeof(expr[0]), "metric(%s, m: k=a) - metric(%s, m: k=b) > 1.5",
		         f.metric, f.metric);
		snprintf(expr[1], sizeof(expr[1]), "metric(%s, m: k=a) / metric(%s, m: k=b) > 1.2",
		         f.metric, f.metric);
		fx_lesson(&f, "mdiff", expr[0]);
		fx_lesson(&f, "mratio", expr[1]);
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 2);
		/* on b's samples alone: [1.72, 4.28] and [1.24, 1.61], both held */
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "inconclusive");
		/* lent: a's between-run variance 0.3^2 x 3 = 0.27, relative (0.27 / 10^2 of 7^2)
		 * or as it is */
		double lent = rel ? 0.27 / 100 * 49 : 0.27;
		CHECK_NEAR(ls.l[0].lo, 3 - t2 * sqrt(0.09 + 0.0025 + lent), 1e-3);
		CHECK(ls.l[1].lo < 1.2 && ls.l[1].lo > 0.5);
		free(a->run);
		free(a->flagged);
		fx_free(&f, &ls);
	}
}

/* A point that kept 2 of its 5 runs (the others' samples flagged) is judged on them, and the
 * verdict says its interval is over those setups alone; a point that kept all says nothing.
 * When samples.csv has rows of only 2 runs (the others removed), it says so, not "flagged"; an
 * interrupted run's point with 2 of 4 planned runs says that. */
LAB_TEST(some_runs_kept_is_said)
{
	static const char *const why[] = {
	    "; note: point 7 kept 2 of its 5 runs (the others' samples were all flagged for load): "
	    "its interval is over those setups alone",
	    "; note: point 7 kept 2 of its 5 runs (the others' rows are not in samples.csv): its "
	    "interval is over those setups alone",
	    "; note: point 7 has 2 of its 4 planned runs (the run ended first): its interval is "
	    "over those setups alone",
	    "; note: point 7 kept 2 of its 5 runs (some others' rows are not in samples.csv, the "
	    "rest's samples were all flagged for load)"};
	static const char runs5[] = "{\"runs\": 5}", cut[] = "{\"runs\": 2, \"runs_planned\": 4}";

	for (int k = 0; k < 4; k++) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_an_json *five, *two;
		struct lab_err err;

		fx_sharing(&f);
		REQUIRE(lab_an_json_parse("run.json", runs5, strlen(runs5), &five, &err) == 0);
		REQUIRE(lab_an_json_parse("run.json", cut, strlen(cut), &two, &err) == 0);
		f.d.pt[0].runjson = k == 2 ? two : five;
		f.d.pt[0].id = 7;
		f.d.pt[0].levels.runs = 2;
		fx_run_labels(&f.d.pt[0], k == 0 ? 5 : k == 3 ? 3 : 2);
		f.d.pt[1].runjson = five;
		f.d.pt[1].id = 8;
		f.d.pt[1].levels.runs = 5;
		fx_run_labels(&f.d.pt[1], 5);
		fx_lesson(&f, "costs",
		          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
		fx_lesson(&f, "all_kept", "cost(fs: stride=128, threads=2) <= 100");
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 2);
		if (!strstr(ls.l[0].text, why[k]))
			TL__FAIL("%d: %s", k, ls.l[0].text);
		CHECK(strstr(ls.l[1].text, "kept") == NULL);
		lab_an_json_free(five);
		lab_an_json_free(two);
		for (size_t i = 0; i < 2; i++) {
			free(f.d.pt[i].run);
			free(f.d.pt[i].flagged);
		}
		fx_free(&f, &ls);
	}
}

/* Lessons red team (ch28): every point of a claim that kept fewer runs is named, not the
 * first alone (the divisor's 2 of 5, which stretched the interval, went unsaid). */
LAB_TEST(every_point_that_kept_fewer_runs_is_said)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_json *five;
	struct lab_err err;
	static const char runs5[] = "{\"runs\": 5}";

	fx_sharing(&f);
	REQUIRE(lab_an_json_parse("run.json", runs5, strlen(runs5), &five, &err) == 0);
	for (size_t i = 0; i < 2; i++) {
		f.d.pt[i].runjson = five;
		f.d.pt[i].id = 7 + (long)i;
		f.d.pt[i].levels.runs = 4 - 2 * i; /* 4 and 2 of 5 */
		fx_run_labels(&f.d.pt[i], 5);
	}
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK(strstr(ls.l[0].text, "; note: point 7 kept 4 of its 5 runs") != NULL);
	CHECK(strstr(ls.l[0].text, "; note: point 8 kept 2 of its 5 runs") != NULL);
	lab_an_json_free(five);
	for (size_t i = 0; i < 2; i++) {
		free(f.d.pt[i].run);
		free(f.d.pt[i].flagged);
	}
	fx_free(&f, &ls);
}

/* A run interrupted after a point's first of 5 planned runs: one setup too, said as such. */
LAB_TEST(one_run_of_several_planned_is_inconclusive)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_json *cut;
	struct lab_err err;
	static const char runs[] = "{\"runs\": 1, \"runs_planned\": 5}";

	fx_sharing(&f);
	REQUIRE(lab_an_json_parse("run.json", runs, strlen(runs), &cut, &err) == 0);
	f.d.pt[1].runjson = cut;
	f.d.pt[1].id = 4;
	f.d.pt[1].levels.runs = 1;
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text, "point 4 has 1 run of the 5 planned (no more had run)") != NULL);
	lab_an_json_free(cut);
	fx_free(&f, &ls);
}

/* Means from flagged samples (--include-flagged: the levels counted every sample) say so after
 * the verdict, with how many. */
LAB_TEST(flagged_samples_in_a_verdict_are_said)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	for (size_t i = 0; i < 2; i++) {
		struct lab_an_point *p = &f.d.pt[i];
		p->flagged = calloc(p->n, 1);
		REQUIRE(p->flagged);
		p->levels.n = p->n; /* every sample used */
	}
	f.d.pt[0].flagged[0] = f.d.pt[0].flagged[3] = f.d.pt[1].flagged[9] = 1;
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK(strstr(ls.l[0].text, "note: 3 of the 20 samples these means are from were flagged "
	                           "for foreign load (kept by --include-flagged): a busy "
	                           "machine's numbers, which may read slow or noisy") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK(ls.l[0].flagged == 3 && ls.l[0].samples == 20);
	lab_an_lessons_free(&ls);
	/* most of them flagged: a busy machine's numbers decide nothing (a sharded counter
	 * "failed" on two loaded vCPUs where quiet runs held at 4x) */
	for (size_t i = 0; i < 10; i++)
		f.d.pt[0].flagged[i] = 1;
	f.d.pt[1].flagged[0] = 1;
	lab_an_json_free(f.d.run);
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text,
	             "; claim >= 2: the whole interval satisfies it, but 12 of the 20 samples "
	             "these means are from were flagged for load (foreign CPU time or run-queue "
	             "wait; kept by --include-flagged): a busy machine's numbers decide "
	             "nothing; rerun when quiet") &&
	      !strstr(ls.l[0].text, "note: 12"));
	CHECK(ls.l[0].flagged == 12 && ls.l[0].samples == 20);
	lab_an_lessons_free(&ls);
	/* one side all flagged, the other none: half of them, and that side decides the ratio */
	for (size_t i = 0; i < 10; i++)
		f.d.pt[1].flagged[i] = 0;
	lab_an_json_free(f.d.run);
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK(strstr(ls.l[0].text, "10 of the 20 samples these means are from were flagged for "
	                           "load, most of one point's (foreign CPU time or run-queue "
	                           "wait; kept by --include-flagged"));
	for (size_t i = 0; i < 2; i++)
		free(f.d.pt[i].flagged);
	fx_free(&f, &ls);
}

LAB_TEST(missing_or_skipped_point_is_not_run)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	struct lab_an_point *sk = fx_point(&f, "numa", "mem_node=1", 1, 0, 0, 0);
	free(sk->status);
	sk->status = strdup("skipped");
	sk->reason = strdup("needs 2 NUMA nodes (this machine has 1)");
	fx_point(&f, "numa", "mem_node=0", 1, 100, 1, 5);
	struct lab_an_point *fl = fx_point(&f, "fl", "x=1", 1, 0, 0, 0);
	fl->n_flagged = 5;
	fx_lesson(&f, "missing",
	          "cost(fs: stride=8, threads=4) / cost(fs: stride=128, threads=2) >= 2");
	fx_lesson(&f, "remote", "cost(numa: mem_node=1) / cost(numa: mem_node=0) >= 1.2");
	fx_lesson(&f, "flagged", "cost(fl: x=1) >= 1");
	fx_lesson(&f, "absent", "cost(nothere) >= 1");
	fx_lesson(&f, "no_base", "speedup(fs: stride=128, threads=2) >= 1");
	/* a claim that always holds says so first: a rerun on a quiet machine would not help */
	fx_lesson(&f, "always", "cost(fl: x=1) > 0");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 6);
	for (size_t i = 0; i < ls.n; i++)
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "not run");
	CHECK(strstr(ls.l[5].text, "does not depend on what is measured") != NULL);
	CHECK(strstr(ls.l[0].text, "no point with stride=8, threads=4") != NULL);
	CHECK(strstr(ls.l[1].text, "skipped: needs 2 NUMA nodes") != NULL);
	CHECK(strstr(ls.l[2].text, "no used samples (5 flagged") != NULL);
	CHECK(strstr(ls.l[3].text, "[nothere] was not run") != NULL);
	CHECK(strstr(ls.l[4].text, "threads=1") != NULL);
	fx_free(&f, &ls);
}

/* A speedup whose selector leaves threads open and finds a point at threads=1 is that point
 * over itself: 1 [1, 1] "held" `>= 1`. The planner refuses it; here it is not run, saying why. */
LAB_TEST(speedup_at_one_thread_is_not_run)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "solo", "x=1", 1, 10, 0.2, 10);
	fx_lesson(&f, "one", "speedup(solo: x=1) >= 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "not run");
	CHECK(strstr(ls.l[0].text, "speedup of [solo] at threads=1 is 1 by definition") != NULL);
	fx_free(&f, &ls);
}

/* Configs refuse a lesson name twice; an edited run.json may repeat one: the first is judged,
 * the second is not run and says why (two verdicts under one name would contradict). */
LAB_TEST(second_lesson_of_a_name_is_not_run)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_lesson(&f, "same", "cost(fs: stride=8, threads=2) >= 1");
	fx_lesson(&f, "other", "cost(fs: stride=8, threads=2) >= 1000");
	fx_lesson(&f, "same", "cost(fs: stride=8, threads=2) >= 1000");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "fails");
	CHECK_EQ_STR(ls.l[2].name, "same");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "not run");
	CHECK(strstr(ls.l[2].text, "not run: a second lesson of this name") != NULL);
	CHECK(isnan(ls.l[2].value) && ls.l[2].method == NULL);
	fx_free(&f, &ls);
}

LAB_TEST(speedup_throughput_metric_and_difference)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_lesson(&f, "speedup", "speedup(fs: stride=8, threads=2) < 0.5");
	fx_lesson(&f, "thr",
	          "throughput(fs: stride=128, threads=2) / throughput(fs: stride=8, "
	          "threads=2) >= 2");
	fx_lesson(&f, "metric", "metric(fairness, fs: stride=8, threads=2) > 2");
	fx_lesson(&f, "diff",
	          "cost(fs: stride=8, threads=2) - cost(fs: stride=128, threads=2) > 15");
	fx_lesson(&f, "sum",
	          "cost(fs: stride=8, threads=2) + cost(fs: stride=128, threads=2) < 30");
	fx_eval(&f, &ls);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds"); /* 9 / 30 = 0.3 */
	CHECK_EQ_STR(ls.l[0].method, "fieller");
	CHECK_NEAR(ls.l[0].value, 0.3, 1e-9);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "holds"); /* 30 / 10 */
	CHECK_NEAR(ls.l[1].value, 3, 1e-9);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds"); /* fairness 3 */
	CHECK_EQ_STR(ls.l[3].method, "delta");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[3].verdict), "holds"); /* 20 [19.6, 20.4] */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[4].verdict), "fails"); /* 40 */
	fx_free(&f, &ls);
}

/* A speedup whose interval lies above its thread count says SUPERLINEAR after its verdict (a
 * sharded counter at 2 threads read 2.073 [2.047, 2.101], said only in analysis.json); one
 * whose interval reaches its thread count does not. */
LAB_TEST(superlinear_speedup_said)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "at", "kind=sharded", 1, 20, 0.1, 10);
	fx_point(&f, "at", "kind=sharded", 2, 9, 0.1, 10);
	fx_point(&f, "at", "kind=shared", 1, 20, 0.1, 10);
	fx_point(&f, "at", "kind=shared", 2, 10.5, 1, 10);
	fx_lesson(&f, "scales", "speedup(at: kind=sharded, threads=2) >= 1.5");
	fx_lesson(&f, "flipped", "1.5 <= speedup(at: kind=sharded, threads=2)");
	fx_lesson(&f, "near", "speedup(at: kind=shared, threads=2) >= 1.5");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK(ls.l[0].lo > 2);
	CHECK(strstr(ls.l[0].text, "SUPERLINEAR: the speedup's interval lies above 2") != NULL);
	CHECK(strstr(ls.l[1].text, "SUPERLINEAR") != NULL);
	CHECK(ls.l[2].lo < 2);
	CHECK(strstr(ls.l[2].text, "SUPERLINEAR") == NULL);
	fx_free(&f, &ls);
}

/* A divisor whose own interval reaches 0: the delta method linearises 1 / x about x's mean and
 * gave 1 / (a - b) a tight interval, "holds", where a - b = 3271 [-11070, 17610]. Such a Q has
 * no bounded interval; the same form with a divisor well away from 0 keeps its verdict. */
LAB_TEST(delta_divisor_reaching_zero_is_inconclusive)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "lk", "lock=tas", 2, 5000, 4900, 3);
	fx_point(&f, "lk", "lock=mcs", 2, 1000, 10, 10);
	fx_point(&f, "lk", "lock=ticket", 2, 100, 1, 10);
	fx_lesson(&f, "recip", "1 / (cost(lk: lock=tas) - cost(lk: lock=mcs)) <= 0.01");
	fx_lesson(&f, "over_diff",
	          "cost(lk: lock=ticket) / (cost(lk: lock=tas) - cost(lk: lock=mcs)) <= 0.5");
	fx_lesson(&f, "diff_over",
	          "(cost(lk: lock=tas) - cost(lk: lock=mcs)) / cost(lk: lock=ticket) >= 0");
	fx_lesson(&f, "steady", "1 / (cost(lk: lock=mcs) - cost(lk: lock=ticket)) <= 0.01");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 4);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_STR(ls.l[i].method, "delta");
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "inconclusive");
		CHECK(strstr(ls.l[i].text, "no bounded 95 % interval") != NULL);
	}
	/* the difference on top is a numerator: its interval reaches 0 and says so */
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "inconclusive");
	CHECK(strstr(ls.l[2].text, "no bounded 95 % interval") == NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[3].verdict), "holds"); /* 1 / 900 */
	fx_free(&f, &ls);
}

/* A divisor not clearly away from 0 under a numerator that is: Fieller's set above 0 is one
 * ray [lo, inf), on which a lower-bound claim is judged ("no bounded interval" left 55 [20,
 * inf) inconclusive against >= 1.5); an upper-bound claim below the ray fails; a claim the ray
 * reaches stays inconclusive. */
LAB_TEST(fieller_ray_judges_lower_bounds)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "r", "strategy=critical", 2, 55, 1, 5);
	fx_point(&f, "r", "strategy=sum", 2, 1.4, 1.5, 5);
	fx_lesson(&f, "slow", "cost(r: strategy=critical) / cost(r: strategy=sum) >= 1.5");
	fx_lesson(&f, "fast", "cost(r: strategy=critical) / cost(r: strategy=sum) <= 1.5");
	fx_lesson(&f, "far", "cost(r: strategy=critical) / cost(r: strategy=sum) >= 1e6");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK(ls.l[0].lo > 1.5 && isinf(ls.l[0].hi));
	CHECK(strstr(ls.l[0].text, ", unbounded) (95 %, Fieller: the denominator is not "
	                           "clearly") != NULL &&
	      !strstr(ls.l[0].text, "inf"));
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "fails");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "inconclusive");
	fx_free(&f, &ls);
}

/* A ratio of two costs, one of three runs and one of a single run, has the interval the
 * speedup tables give it (the single run borrows the other's between-run share): the lesson
 * read 2.055 [1.99, 2.122] where the table beside it read [1.902, 2.227]. */
LAB_TEST(cost_ratio_as_the_tables_take_it)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_ratio want;

	fx_sharing(&f);
	f.d.pt[0].levels = (struct lab_an_levels){.runs = 3,
	                                          .n = 10,
	                                          .mean = 30,
	                                          .var_between = 4,
	                                          .run_se = 1.2,
	                                          .run_ci95_lo = 24.8,
	                                          .run_ci95_hi = 35.2};
	f.d.pt[1].levels.runs = 1;
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_cost_ratio(&f.d.pt[0], &f.d.pt[1], &want, NULL), "mixed");
	lab_an_ratio_positive(&want);
	CHECK_EQ_STR(ls.l[0].method, "fieller");
	CHECK_NEAR(ls.l[0].lo, want.lo, 1e-12);
	CHECK_NEAR(ls.l[0].hi, want.hi, 1e-12);
	fx_free(&f, &ls);
}

/* The inverse of one cost whose interval reaches 0 (its lower end is clipped there) lies on
 * the ray [1 / hi, inf): a lower bound below 1 / hi holds, an upper bound below it fails (a
 * throughput read "no bounded 95 % interval" for a cost of 15 [0, 34]). */
LAB_TEST(inverse_of_a_cost_near_zero_is_a_ray)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "n", "k=a", 2, 5, 4.9, 2);
	fx_lesson(&f, "thr", "throughput(n: k=a, threads=2) >= 1e6"); /* per second */
	fx_lesson(&f, "inv", "1 / cost(n: k=a, threads=2) <= 0.001");
	fx_lesson(&f, "far", "throughput(n: k=a, threads=2) >= 1e9");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	CHECK_EQ_STR(ls.l[0].method, "t");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK(ls.l[0].lo > 1e6 && ls.l[0].lo < 1e8 && isinf(ls.l[0].hi));
	CHECK(strstr(ls.l[0].text, ", unbounded) (95 %, t") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "fails");
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "inconclusive");
	fx_free(&f, &ls);
}

/* Selectors find their points through an index of the run's points; what they name is what
 * a comparison with every point names: threads as a number, keys a point's params leave out at
 * their default, more than one point, an experiment that did not run. */
LAB_TEST(selectors_name_points_as_a_scan_would)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_point(&f, "fs", "op=rmw;placement=compact;stride=8;stride=16", 4, 50, 1, 10);
	fx_lesson(&f, "three", "cost(fs: stride=8, threads=3) >= 1");
	fx_lesson(&f, "zero", "cost(fs: stride=8, threads=02) >= 1");
	fx_lesson(&f, "default", "cost(fs: stride=128, membind=local, perf_c2c=off) >= 1");
	fx_lesson(&f, "other", "cost(fs: stride=128, membind=bind) >= 1");
	fx_lesson(&f, "absent", "cost(gone: stride=8) >= 1");
	fx_lesson(&f, "first", "cost(fs: stride=16, threads=4) >= 1");
	fx_lesson(&f, "twice", "cost(fs: stride=8, threads=4) >= 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 7);
	CHECK(strstr(ls.l[0].text, "no point with stride=8, threads=3") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "holds");
	CHECK_NEAR(ls.l[1].value, 30, 1e-9);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds");
	CHECK_NEAR(ls.l[2].value, 10, 1e-9);
	CHECK(strstr(ls.l[3].text, "no point with stride=128, membind=bind") != NULL);
	CHECK(strstr(ls.l[4].text, "[gone] was not run") != NULL);
	/* a params string that names a key twice: its first value counts, as it always did */
	CHECK(strstr(ls.l[5].text, "no point with stride=16, threads=4") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[6].verdict), "holds");
	CHECK_NEAR(ls.l[6].value, 50, 1e-9);
	fx_free(&f, &ls);
}

/* A ratio of a point's cost to itself is 1 whatever is measured: not judged (a verdict that
 * cannot depend on the data teaches nothing; the planner refuses such a claim, an older one
 * wrote it), however noisy the point. */
LAB_TEST(means_that_cancel_are_not_run)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_point(&f, "fs", "stride=8", 2, 10, 9.5, 4); /* an interval reaching below 0 */
	fx_lesson(&f, "self", "cost(fs: stride=8) / cost(fs: stride=8) >= 1");
	fx_lesson(&f, "self2", "2 * cost(fs: stride=8) / cost(fs: stride=8) > 1.5");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 2);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "not run");
		CHECK(strstr(ls.l[i].text, "does not depend on what is measured") != NULL);
		CHECK(strstr(ls.l[i].text, i ? "differ by 0.5 " : "differ by 0 ") != NULL);
	}
	fx_free(&f, &ls);
}

/* f: the false-sharing fixture with one point, stride=8 at 4 threads, and one lesson, NAME with
 * claim, in its run.json (read from "R"). 0, or -1 when the run.json does not parse. */
static int fx_stride8_lesson(struct fx *f, const char *name, const char *claim)
{
	static char src[] = "R";
	struct lab_err err = {0};
	char doc[8400];

	fx_sharing(f);
	fx_point(f, "fs", "op=rmw;placement=compact;stride=8", 4, 50, 1, 10);
	fx_lesson(f, name, claim);
	snprintf(doc, sizeof(doc), "{\"lessons\": [%s]}", f->json);
	if (lab_an_json_parse("run.json", doc, strlen(doc), &f->d.run, &err))
		return -1;
	f->d.source = src;
	return 0;
}

/* What the planner refuses in a selector and only an edited run.json can hold is a data error
 * naming the lesson's line, never a lesson "not run": a selector of several points, a thread
 * count of 0, a control byte. */
LAB_TEST(selectors_the_planner_refuses_are_data_errors)
{
	static const char *const claim[][2] = {
	    {"cost(fs: stride=8) >= 1",
	     "[fs] stride=8 names 3 points (the selector must name one)"},
	    {"cost(fs: stride=8, threads=0) >= 1", "[fs]: threads=0 is no thread count"},
	    {"cost(fs: stride=\\\"8\\u001b\\\", threads=2) >= 1",
	     "[fs]: a selector with a control byte"},
	    /* an amount spelled otherwise than the points spell it (review34: it said "not in
	     * this run's plan") */
	    {"cost(fs: stride=8B, threads=2) >= 1",
	     "[fs] stride=8B, threads=2 names a point that writes stride=8: one amount spelled "
	     "two ways"},
	};

	for (size_t i = 0; i < sizeof(claim) / sizeof(claim[0]); i++) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_err err = {0};

		REQUIRE(fx_stride8_lesson(&f, "bad", claim[i][0]) == 0);
		CHECK_EQ_I64(lab_an_lessons_eval(&f.d, &ls, &err), -LAB_EDATA);
		if (!strstr(err.msg, "R/run.json:1: lesson 'bad': ") ||
		    !strstr(err.msg, claim[i][1]) ||
		    !strstr(err.msg, "allowed: a claim the planner accepts"))
			TL__FAIL("%zu: %s", i, err.msg);
		CHECK_EQ_U64(ls.n, 0);
		fx_free(&f, &ls);
	}
}

/* A selector with an amount spelled otherwise that names no point even respelled (another
 * item no point has, a team larger than any) is not run, as before the respelling check: it was
 * refused for "a point that writes stride=8" that did not exist (review35). */
LAB_TEST(respelled_selector_of_no_point_is_not_run)
{
	static const char *const claim[][2] = {
	    {"cost(fs: stride=8B, op=xyz, threads=2) >= 1", "has no point with stride=8B, op=xyz"},
	    {"cost(fs: stride=8B, threads=8) >= 1", "its teams here have at most 4 threads"},
	};

	for (size_t i = 0; i < sizeof(claim) / sizeof(claim[0]); i++) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_err err = {0};

		REQUIRE(fx_stride8_lesson(&f, "none", claim[i][0]) == 0);
		REQUIRE(lab_an_lessons_eval(&f.d, &ls, &err) == 0);
		REQUIRE(ls.n == 1);
		CHECK_EQ_I64(ls.l[0].verdict, LAB_AN_NOT_RUN);
		if (!strstr(ls.l[0].text, claim[i][1]))
			TL__FAIL("%zu: %s", i, ls.l[0].text);
		fx_free(&f, &ls);
	}
}

/* A claim on a point whose threads ran on two PUs of one core (compact on a machine with SMT)
 * says so after its verdict; a point on two cores adds nothing. */
LAB_TEST(threads_on_one_core_are_named)
{
	struct fx f = {.host = "{\"topology\": {\"pus_detail\": [{\"cpu\": 0, \"package\": 0, "
	                       "\"core\": 0}, {\"cpu\": 16, \"package\": 0, \"core\": 0}, "
	                       "{\"cpu\": 1, \"package\": 0, \"core\": 1}]}}"};
	struct lab_an_json *sib = NULL, *two = NULL;
	struct lab_an_lessons ls;
	struct lab_err err = {0};
	const char *js = "{\"cpus\": [16, 0]}", *jt = "{\"cpus\": [0, 1]}";

	fx_sharing(&f);
	REQUIRE(lab_an_json_parse("run.json", js, strlen(js), &sib, &err) == 0);
	REQUIRE(lab_an_json_parse("run.json", jt, strlen(jt), &two, &err) == 0);
	f.d.pt[0].id = 7; /* stride 8, 2 threads: on one core */
	f.d.pt[0].runjson = sib;
	f.d.pt[1].id = 8; /* stride 128, 2 threads: on two cores */
	f.d.pt[1].runjson = two;
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_lesson(&f, "apart", "cost(fs: stride=128, threads=2) >= 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 2);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "holds");
	CHECK(strstr(ls.l[0].text, "; note: point 7 ran threads on CPUs 0 and 16, PUs of one core "
	                           "(SMT siblings)") != NULL);
	CHECK(strstr(ls.l[1].text, "note") == NULL);
	fx_free(&f, &ls);
	lab_an_json_free(sib);
	lab_an_json_free(two);
}

/* Remote vs local points of a NUMA latency experiment that cost the same, as where the nodes
 * split one node's memory: a claim of remote >= 1.2x local fails, one of >= 0.5x holds. */
static void fx_numa(struct fx *f)
{
	fx_point(f, "lat", "mem_node=1;placement=node:0;size=256M", 1, 10, 0.2, 10);
	fx_point(f, "lat", "mem_node=0;placement=node:0;size=256M", 1, 10, 0.2, 10);
	fx_point(f, "ladder", "size=16K", 1, 1, 0.02, 10);
	fx_point(f, "ladder", "size=256M", 1, 10, 0.2, 10);
	fx_lesson(f, "remote", "cost(lat: mem_node=1) / cost(lat: mem_node=0) >= 1.2");
	fx_lesson(f, "ladder", "cost(ladder: size=256M) / cost(ladder: size=16K) >= 5");
	fx_lesson(f, "weak", "cost(lat: mem_node=1) / cost(lat: mem_node=0) >= 0.5");
}

/* In a virtual machine with NUMA nodes a NUMA claim that fails says the nodes may split one
 * node's memory; one that holds and other claims say nothing; under an emulated CPU every
 * claim says its times are the emulator's; on bare metal (no "hypervisor") nothing is said. */
LAB_TEST(virtual_machines_are_named)
{
	static const char *const hosts[] = {
	    "{\"hypervisor\": \"KVM\", \"topology\": {\"numa_nodes\": 2}}",
	    "{\"hypervisor\": \"KVM\", \"topology\": {\"numa_nodes\": 1}}",
	    "{\"hypervisor\": \"QEMU TCG\", \"topology\": {\"numa_nodes\": 2}}",
	    "{\"hypervisor\": null, \"topology\": {\"numa_nodes\": 2}}",
	    "{\"hypervisor\": [\"KVM\"], \"topology\": {\"numa_nodes\": 2}}",
	};
	const char *vm = "; note: measured in a virtual machine (KVM): its NUMA nodes may split";
	const char *tcg = "; note: measured on an emulated CPU (QEMU TCG)";

	for (size_t h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++) {
		struct fx f = {.host = hosts[h]};
		struct lab_an_lessons ls;

		fx_numa(&f);
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 3);
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "fails");
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds");
		CHECK((strstr(ls.l[0].text, vm) != NULL) == (h == 0));
		CHECK(strstr(ls.l[1].text, "virtual machine") == NULL);
		CHECK(strstr(ls.l[2].text, "virtual machine") == NULL);
		for (size_t i = 0; i < 3; i++)
			CHECK((strstr(ls.l[i].text, tcg) != NULL) == (h == 2));
		if (h >= 3)
			CHECK(strstr(ls.l[0].text, "note") == NULL);
		fx_free(&f, &ls);
	}
}

/* A run of a lab built with sanitizers (run.json lab.sanitize) says on every claim that its
 * times are the instrumented code's; one built without says nothing of it. */
LAB_TEST(a_sanitized_build_is_named)
{
	static const char *const labs[] = {"{\"sanitize\": \"address,undefined\"}",
	                                   "{\"sanitize\": \"\"}", NULL};
	const char *note = "; note: measured by a lab built with sanitizers (address,undefined): "
	                   "the times are the instrumented code's";

	for (size_t k = 0; k < sizeof(labs) / sizeof(labs[0]); k++) {
		struct fx f = {.lab = labs[k]};
		struct lab_an_lessons ls;

		fx_numa(&f);
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 3);
		for (size_t i = 0; i < 3; i++)
			CHECK((strstr(ls.l[i].text, note) != NULL) == (k == 0));
		fx_free(&f, &ls);
	}
}

/* Point p's samples as 5 runs of 2 with the given run means (+-1 %), its levels from them. */
static void fx_runs(struct lab_an_point *p, const double mean[5])
{
	double scratch[30];

	p->run = calloc(10, sizeof(int));
	p->flagged = calloc(10, 1);
	REQUIRE(p->run && p->flagged && p->n == 10);
	for (size_t i = 0; i < 10; i++) {
		p->run[i] = (int)(i / 2);
		p->cost[i] = mean[i / 2] * (i % 2 ? 1.01 : 0.99);
	}
	REQUIRE(lab_an_levels_compute(p->cost, p->run, 10, scratch, &p->levels) == 0);
}

/* An inconclusive claim whose interval one far run widened names that run; run means in two
 * clusters (two setups far from three) are said as such; without either the claim holds and
 * says nothing of runs. */
LAB_TEST(a_far_run_or_clusters_are_named)
{
	static const double ticket[4][5] = {{450, 165, 168, 171, 164},
	                                    {166, 165, 168, 171, 164},
	                                    {450, 165, 460, 168, 171},
	                                    {450, 165, 460, 168, 171}};
	static const double tas[] = {110, 113, 121, 120, 123};
	static const char *const note[4] = {
	    "; note: run 0 of point 215 (mean 450) lies far from its 4 other runs (164 .. 171)",
	    NULL,
	    "; note: the runs of point 215 fall into two clusters (3 at 165 .. 171, 2 at 450 .. "
	    "460 ns/acquire): its setups differ in something the lab does not see",
	    /* the load it saw is named, not a setup it cannot see */
	    "2 at 450 .. 460 ns/acquire): 4 of its samples ran under foreign load (kept by "
	    "--include-flagged), which may be all that sets them apart"};
	static char unit[] = "ns/acquire";

	for (int k = 0; k < 4; k++) {
		struct fx f = {0};
		struct lab_an_lessons ls;
		struct lab_an_point *a = fx_point(&f, "locks", "lock=ticket", 2, 1, 0, 10);
		a->id = 215;
		a->unit = k >= 2 ? unit : NULL; /* said with the means when known */
		fx_runs(a, ticket[k]);
		for (size_t i = 0; k == 3 && i < 6; i++)
			a->flagged[i] = i / 2 != 1; /* the samples of runs 0 and 2 (450, 460) */
		fx_runs(fx_point(&f, "locks", "lock=tas", 2, 1, 0, 10), tas);
		fx_lesson(
		    &f, "fair",
		    "cost(locks: lock=ticket, threads=2) / cost(locks: lock=tas, threads=2) >= 1");
		fx_eval(&f, &ls);
		REQUIRE(ls.n == 1);
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict),
		             k == 1 ? "holds" : "inconclusive");
		if (note[k] && !strstr(ls.l[0].text, note[k]))
			TL__FAIL("case %d: %s", k, ls.l[0].text);
		CHECK((strstr(ls.l[0].text, "; note:") != NULL) == (k != 1));
		for (size_t i = 0; i < f.d.npt; i++) {
			free(f.d.pt[i].run);
			free(f.d.pt[i].flagged);
		}
		fx_free(&f, &ls);
	}
}

/* A metric of a point measured in runs takes its interval from the run means, as a cost does:
 * values tight within each setup and apart between setups (1.0, 1.6, 0.9, 1.7, 1.0) hold
 * against 0.95 over the 10 samples ([0.98, 1.50]) and are inconclusive over the 5 runs
 * ([0.77, 1.71]), which is what the setups can show. */
LAB_TEST(metric_interval_over_runs)
{
	static const double cost[] = {10, 10, 10, 10, 10}, run_mean[] = {1.0, 1.6, 0.9, 1.7, 1.0};
	struct fx f = {0};
	struct lab_an_lessons ls;
	struct lab_an_point *p = fx_point(&f, "locks", "lock=ticket", 2, 10, 0, 10);
	double work[30];
	struct lab_an_stats st;
	struct lab_err err;

	fx_runs(p, cost);
	p->metric = calloc(10, sizeof(double));
	REQUIRE(p->metric);
	for (size_t i = 0; i < 10; i++)
		p->metric[i] = run_mean[i / 2] + (i % 2 ? 0.01 : -0.01);
	lab_an_stats_compute(p->metric, 10, work, &st);
	CHECK(st.ci95_lo > 0.95); /* the samples alone would hold */
	/* the loader's summary of the metric is from the run means (summary.csv, views) */
	REQUIRE(lab_an_data_summarize(&f.d, 0, &err) == 0);
	p = &f.d.pt[0];
	CHECK_EQ_U64(p->msum[0].runs, 5);
	CHECK_NEAR(p->msum[0].ci95_lo, 0.7706, 1e-3);
	CHECK_NEAR(p->msum[0].ci95_hi, 1.7094, 1e-3);
	fx_lesson(&f, "fair", "metric(fairness, locks: lock=ticket, threads=2) >= 0.95");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[0].verdict), "inconclusive");
	CHECK_NEAR(ls.l[0].value, 1.24, 1e-9);
	CHECK_NEAR(ls.l[0].lo, 0.7706, 1e-3);
	CHECK_NEAR(ls.l[0].hi, 1.7094, 1e-3);
	free(p->run);
	free(p->flagged);
	free(p->metric);
	fx_free(&f, &ls);
}

/* A run.json claim the ranges of its quantities decide alone (the planner refuses it; an older
 * run.json may hold one) is not run, with the reason: a share <= 1, a cost > 0. One such a range
 * does not decide is judged. */
LAB_TEST(claims_their_ranges_decide_are_not_run)
{
	struct fx f = {.metric = "handoff_ratio"};
	struct lab_an_lessons ls;

	fx_point(&f, "locks", "lock=mcs", 2, 10, 0.1, 4);
	f.d.pt[0].msum[0] =
	    (struct lab_an_msum){.n = 4, .mean = 0.995, .median = 0.995, .se = 0.01};
	fx_lesson(&f, "share", "metric(handoff_ratio, locks: lock=mcs, threads=2) <= 1");
	fx_lesson(&f, "cost", "cost(locks: lock=mcs, threads=2) > 0");
	fx_lesson(&f, "judged", "metric(handoff_ratio, locks: lock=mcs, threads=2) >= 0.9");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	for (size_t i = 0; i < 2; i++) {
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "not run");
		CHECK(strstr(ls.l[i].text, "does not depend on what is measured") &&
		      strstr(ls.l[i].text, "so it always holds"));
	}
	CHECK(strstr(ls.l[0].text, "lies in [-1, 0]") != NULL);
	CHECK(strstr(ls.l[1].text, "lies in (0, inf)") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "holds");
	fx_free(&f, &ls);
}

/* An interval stays inside the range its quantity can take (interval arithmetic over the means'
 * ranges): a share's t-interval reaching past 1 ends at 1, and so do those of a share minus a
 * share and of 1 minus a share; the other end stays as computed. */
LAB_TEST(intervals_stay_in_the_quantity_range)
{
	struct fx f = {.metric = "handoff_ratio"};
	struct lab_an_lessons ls;

	fx_point(&f, "locks", "lock=mcs", 2, 10, 0.1, 4);
	fx_point(&f, "locks", "lock=tas", 2, 10, 0.1, 4); /* moves the points: index them after */
	f.d.pt[0].msum[0] =
	    (struct lab_an_msum){.n = 4, .mean = 0.995, .median = 0.995, .se = 0.01};
	f.d.pt[1].msum[0] =
	    (struct lab_an_msum){.n = 4, .mean = 0.005, .median = 0.005, .se = 0.01};
	fx_lesson(&f, "one", "metric(handoff_ratio, locks: lock=mcs, threads=2) >= 0.9");
	fx_lesson(&f, "diff",
	          "metric(handoff_ratio, locks: lock=mcs, threads=2) - metric(handoff_ratio, "
	          "locks: lock=tas, threads=2) >= 0.5");
	fx_lesson(&f, "neg", "0.5 <= -metric(handoff_ratio, locks: lock=tas, threads=2) + 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	for (size_t i = 0; i < 3; i++) {
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "holds");
		CHECK(ls.l[i].lo < ls.l[i].value && ls.l[i].value < ls.l[i].hi);
	}
	CHECK_NEAR(ls.l[0].hi, 1, 0); /* 0.995 + 3.18 x 0.01, clipped */
	CHECK_NEAR(ls.l[1].hi, 1, 0); /* a share minus a share */
	CHECK_NEAR(ls.l[2].hi, 1, 0); /* 1 - a share */
	CHECK(ls.l[0].lo < 0.97);     /* the other end as computed */
	fx_free(&f, &ls);
	/* a negated cost's interval ends at 0, said "0", not "-0" */
	struct fx g = {0};
	fx_point(&g, "n", "k=a", 2, 5, 4.9, 2);
	fx_lesson(&g, "negcost", "-cost(n: k=a, threads=2) <= -1");
	fx_eval(&g, &ls);
	REQUIRE(ls.n == 1);
	CHECK(strstr(ls.l[0].text, "-0]") == NULL && strstr(ls.l[0].text, ", 0]") != NULL);
	fx_free(&g, &ls);
}

/* A claim with no value on the means (a quantity minus itself as divisor) says so without
 * printing inf or nan; a run.json claim a config could not state (a constant 0 divisor, a
 * literal past 1e30) is not run, with the planner's reason. */
LAB_TEST(claims_without_a_value)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_lesson(&f, "self",
	          "1 / (cost(fs: stride=8, threads=2) - cost(fs: stride=8, threads=2)) > 0");
	fx_lesson(&f, "zero", "cost(fs: stride=8, threads=2) / 0 > 1");
	fx_lesson(&f, "huge", "cost(fs: stride=8, threads=2) * 1e308 > 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	for (size_t i = 0; i < ls.n; i++)
		CHECK(!strstr(ls.l[i].text, "inf") && !strstr(ls.l[i].text, "nan"));
	CHECK(strstr(ls.l[0].text, "it has no value whatever the means are") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[1].verdict), "not run");
	CHECK(strstr(ls.l[1].text, "not one a config may state: column") != NULL);
	CHECK(strstr(ls.l[1].text, "division by zero") != NULL);
	CHECK_EQ_STR(lab_an_verdict_name(ls.l[2].verdict), "not run");
	CHECK(strstr(ls.l[2].text, "out of range") != NULL);
	fx_free(&f, &ls);
}

/* A product or quotient that divides is in parentheses: "A >= 0.5 * B" was said as "A / 0.5 *
 * B", which reads (A / 0.5) * B. */
LAB_TEST(divisor_in_parentheses)
{
	struct fx f = {0};
	struct lab_an_lessons ls;

	fx_sharing(&f);
	fx_lesson(&f, "half",
	          "cost(fs: stride=8, threads=2) >= 0.5 * cost(fs: stride=128, threads=2)");
	fx_lesson(&f, "sum",
	          "cost(fs: stride=8, threads=2) >= cost(fs: stride=128, threads=2) + 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 2);
	CHECK_EQ_STR(ls.l[0].quantity,
	             "cost(fs: stride=8, threads=2) / (0.5 * cost(fs: stride=128, threads=2))");
	CHECK_EQ_STR(ls.l[1].quantity,
	             "cost(fs: stride=8, threads=2) - (cost(fs: stride=128, threads=2) + 1)");
	fx_free(&f, &ls);
}

LAB_TEST(json_has_the_lessons_array)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	char *buf = NULL;
	size_t len = 0;

	fx_sharing(&f);
	fx_lesson(&f, "costs",
	          "cost(fs: stride=8, threads=2) / cost(fs: stride=128, threads=2) >= 2");
	fx_lesson(&f, "missing", "cost(fs: stride=4, threads=2) >= 2");
	fx_eval(&f, &ls);
	FILE *m = open_memstream(&buf, &len);
	struct lab_json w;
	lab_json_begin(&w, m);
	lab_json_obj_open(&w, NULL);
	lab_an_lessons_json(&w, &ls);
	lab_json_obj_close(&w);
	lab_json_end(&w);
	fclose(m);
	CHECK(strstr(buf, "\"lessons\"") != NULL);
	CHECK(strstr(buf, "\"verdict\": \"holds\"") != NULL ||
	      strstr(buf, "\"verdict\":\"holds\""));
	CHECK(strstr(buf, "\"ci95\"") != NULL && strstr(buf, "\"text\"") != NULL);
	CHECK(strstr(buf, "not run") != NULL);
	free(buf);
	fx_free(&f, &ls);
}

/* The lessons' text from run.json (name, claim, file, the selector values the reasons quote)
 * cannot start a line of its own in the text (a forged verdict) nor put a control byte into the
 * report: as text a newline or carriage return shows as \n, \r (other control bytes are escaped
 * by the stream `lab analyze` writes through); in HTML every control byte but a tab or a newline
 * shows as \xNN, a C1 control as \u00NN. */
LAB_TEST(lesson_text_from_run_json_is_escaped)
{
	struct fx f = {0};
	struct lab_an_lessons ls;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fx_sharing(&f);
	fx_lesson(&f, "a\\nholds        forged\\r\\u001b[2J\\u0007\\u0085",
	          "cost(fs: stride=8, threads=2) >= 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 1);
	/* a selector value with a control byte is refused by the loader now (a data error); the
	 * writers still escape whatever reaches them */
	free(ls.l[0].claim);
	REQUIRE((ls.l[0].claim = strdup("cost(fs: stride=8\nholds, threads=2) >= 1")));
	ls.l[0].verdict = LAB_AN_NOT_RUN;
	snprintf(ls.l[0].text, sizeof(ls.l[0].text),
	         "not run: [fs] has no point with stride=8\nholds, threads=2");
	free(ls.l[0].file);
	REQUIRE((ls.l[0].file = strdup("f.ini\n-- g.ini: 1 hold")));
	REQUIRE((ls.l = realloc(ls.l, 2 * sizeof(*ls.l))));
	ls.l[1] = ls.l[0];
	REQUIRE((ls.l[1].name = strdup("b")) && (ls.l[1].claim = strdup("c")) &&
	        (ls.l[1].file = strdup("g.ini")));
	ls.n = 2;
	REQUIRE((m = open_memstream(&buf, &len)));
	lab_an_lessons_text(m, &ls);
	fclose(m);
	fprintf(stderr, "%s", buf);
	CHECK(strstr(buf, "\nholds        forged") == NULL);
	CHECK(strstr(buf, "not run      a\\nholds        forged\\r") != NULL);
	CHECK(strstr(buf, "claim: cost(fs: stride=8\\nholds, threads=2) >= 1\n") != NULL);
	CHECK(strstr(buf, "stride=8\\nholds") != NULL);
	CHECK(strstr(buf, "\n-- f.ini\\n-- g.ini: 1 hold: 0 hold") != NULL);
	CHECK(strstr(buf, "\n-- g.ini: 1 hold") == NULL);
	CHECK(strchr(buf, '\r') == NULL);
	free(buf);
	buf = NULL;
	REQUIRE((m = open_memstream(&buf, &len)));
	lab_an_lessons_html(m, &ls);
	fclose(m);
	for (const unsigned char *p = (const unsigned char *)buf; *p; p++)
		CHECK(*p >= 0x20 ? *p != 0x7f && !(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		                 : *p == '\n');
	CHECK(strstr(buf, "<td>a\nholds        forged\\x0d\\x1b[2J\\x07\\u0085</td>") != NULL);
	free(buf);
	fx_free(&f, &ls);
}

/* A CPU listed twice in a point's "cpus" is not two PUs of one core, and two cores whose
 * (package, core) differ are not one core however the numbers compare: (0, 1000000) and (1, 0)
 * made one key as package * 1e6 + core. Three CPUs of which two are one core's still say so. */
LAB_TEST(threads_on_one_core_need_two_cpus)
{
	static const char *const cpus[] = {"{\"cpus\": [0, 0]}", "{\"cpus\": [2, 3]}",
	                                   "{\"cpus\": [0, 2, 0, 16]}"};
	struct fx f = {.host = "{\"topology\": {\"pus_detail\": [{\"cpu\": 0, \"package\": 0, "
	                       "\"core\": 0}, {\"cpu\": 16, \"package\": 0, \"core\": 0}, "
	                       "{\"cpu\": 2, \"package\": 0, \"core\": 1000000}, {\"cpu\": 3, "
	                       "\"package\": 1, \"core\": 0}]}}"};
	struct lab_an_json *j[3] = {NULL};
	struct lab_an_lessons ls;
	struct lab_err err = {0};

	fx_point(&f, "fs", "stride=8", 2, 30, 0.5, 10);
	fx_point(&f, "fs", "stride=16", 2, 30, 0.5, 10);
	fx_point(&f, "fs", "stride=32", 4, 30, 0.5, 10);
	for (size_t i = 0; i < 3; i++) {
		REQUIRE(lab_an_json_parse("run.json", cpus[i], strlen(cpus[i]), &j[i], &err) == 0);
		f.d.pt[i].id = (long)i;
		f.d.pt[i].runjson = j[i];
	}
	fx_lesson(&f, "same", "cost(fs: stride=8) >= 1");
	fx_lesson(&f, "apart", "cost(fs: stride=16) >= 1");
	fx_lesson(&f, "three", "cost(fs: stride=32) >= 1");
	fx_eval(&f, &ls);
	REQUIRE(ls.n == 3);
	for (size_t i = 0; i < 3; i++)
		CHECK_EQ_STR(lab_an_verdict_name(ls.l[i].verdict), "holds");
	CHECK(strstr(ls.l[0].text, "note") == NULL);
	CHECK(strstr(ls.l[1].text, "note") == NULL);
	CHECK(strstr(ls.l[2].text,
	             "; note: point 2 ran threads on CPUs 0 and 16, PUs of one core") != NULL);
	fx_free(&f, &ls);
	for (size_t i = 0; i < 3; i++)
		lab_an_json_free(j[i]);
}
