/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planner's check of [lessons] against hostile input, on a synthetic 2 x 8 x 2 topology with
 * one fake kernel: bounded work for many bad selectors, claims that say nothing measurable,
 * speedup's baseline, lesson names, where a duplicate is reported, long names.
 * Work is counted (probe counters), never timed.
 */
#include "harness/param.h"
#include "harness/plan.h"
#include "tests/testlib.h"

#define SYN_2S "synthetic:pack:2 core:8 pu:2"
/* The topology tl_build plans on. */
static const char *tl_topo = SYN_2S;

struct tl_params {
	uint64_t size;
};

static const struct lab_param tl_table[] = {
    LAB_P_SIZE(struct tl_params, size, "size", "8", 1, 1048576, "Bytes."),
    LAB_PARAM_END,
};

static void tl_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	(void)t;
}

/* Jain's index, whose range depends on the point's threads ([1/threads, 1]) */
static const struct lab_metric tl_metrics[] = {
    {"jain_fairness", "", LAB_AGG_KERNEL, "test"},
    LAB_METRIC_END,
};

static const struct lab_kernel tl_fake = {
    .abi = LAB_KERNEL_ABI,
    .metrics = tl_metrics,
    .name = "fake",
    .summary = "a test kernel",
    .description = "test",
    .params = tl_table,
    .params_size = sizeof(struct tl_params),
    .work_unit = "unit",
    .run = tl_run,
};

static const struct lab_kernel *const tl_registry[] = {&tl_fake, NULL};

struct tl {
	struct lab_cfg cfg;
	struct lab_diag d;
	struct lab_topo *topo;
	struct lab_plan *plan;
	int rc;
};

/* Plans the files texts[0..ntexts) (named a.ini, b.ini, ...) with --set arguments. */
static void tl_build(struct tl *t, const char *const *texts, unsigned ntexts,
                     const char *const *sets, unsigned nsets)
{
	struct lab_err err = {0};
	char name[8];

	memset(t, 0, sizeof(*t));
	if (lab_topo_open(&t->topo, tl_topo, &err)) {
		fprintf(stderr, "topology: %s\n", err.msg);
		testlib_fail();
		t->rc = -1;
		return;
	}
	for (unsigned i = 0; i < ntexts; i++) {
		snprintf(name, sizeof(name), "%c.ini", 'a' + i);
		if (lab_cfg_load_text(&t->cfg, name, texts[i], strlen(texts[i]), &t->d, &err))
			fprintf(stderr, "load: %s\n", err.msg);
	}
	for (unsigned i = 0; i < nsets; i++)
		lab_cfg_add_set(&t->cfg, sets[i], &t->d);
	t->rc = lab_plan_build(&t->plan, &t->cfg, tl_registry, t->topo, NULL, 0, &t->d, &err);
}

static void tl_free(struct tl *t)
{
	lab_plan_free(t->plan);
	lab_topo_close(t->topo);
	lab_cfg_free(&t->cfg);
	lab_diag_free(&t->d);
}

/* The config cfg with claim appended plans, with its one lesson. */
static void tl_plans_one_lesson(const char *cfg, const char *claim)
{
	char text[512];
	const char *texts[] = {text};
	struct tl t;

	snprintf(text, sizeof(text), "%s%s\n", cfg, claim);
	tl_build(&t, texts, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	CHECK(t.plan && t.plan->nlessons == 1);
	tl_free(&t);
}

/* Expects exactly one error, want, from one file and sets. */
static void tl_fails_with(const char *text, const char *const *sets, unsigned nsets,
                          const char *want)
{
	struct tl t;

	tl_build(&t, &text, 1, sets, nsets);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	CHECK_EQ_U64(lab_diag_count(&t.d), 1);
	CHECK_EQ_STR(t.d.n ? t.d.msg[0] : "(none)", want);
	for (unsigned i = 1; i < t.d.n; i++)
		fprintf(stderr, "  also: %s\n", t.d.msg[i]);
	tl_free(&t);
}

/* Edit distances for nexp experiments and nbad lessons that each name a different unknown
 * experiment; every lesson is still reported. */
static unsigned long long tl_suggest_work(unsigned nexp, unsigned nbad)
{
	size_t len = 64 + (size_t)(nexp + nbad) * 64;
	char *text = malloc(len);
	size_t used = 0;
	struct tl t;

	if (!text)
		return ~0ull;
	used += (size_t)snprintf(text, len, "[global]\nthreads = 1\n");
	for (unsigned i = 0; i < nexp; i++)
		used += (size_t)snprintf(text + used, len - used, "[e%05u]\nkernel = fake\n", i);
	used += (size_t)snprintf(text + used, len - used, "[lessons]\n");
	for (unsigned i = 0; i < nbad; i++)
		used += (size_t)snprintf(text + used, len - used, "l%u = cost(q%05u) > 1\n", i, i);
	unsigned long long before = lab_plan_lesson_suggest_probes();
	const char *texts[] = {text};
	tl_build(&t, texts, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	CHECK_EQ_U64(lab_diag_count(&t.d), nbad);
	tl_free(&t);
	free(text);
	return lab_plan_lesson_suggest_probes() - before;
}

/* A did-you-mean costs an edit distance per experiment: it is worked out for a bounded number
 * of distinct unknown names, not per bad selector (2000 x 2000 took 39 s). */
LAB_TEST(unknown_experiments_suggest_in_bounded_work)
{
	unsigned long long few = tl_suggest_work(100, 50), many = tl_suggest_work(100, 400);

	CHECK(few > 0);
	CHECK(few <= 16 * 100);
	CHECK(many <= 16 * 100);
	/* one name repeated is looked up once, and still suggested in every line */
	struct tl t;
	const char *texts[] = {"[abc]\nkernel = fake\n[lessons]\nx = cost(abd) > 1\n"
	                       "y = cost(abd) > 1\n"};
	unsigned long long before = lab_plan_lesson_suggest_probes();
	tl_build(&t, texts, 1, NULL, 0);
	CHECK_EQ_U64(lab_plan_lesson_suggest_probes() - before, 1);
	CHECK_EQ_U64(t.d.n, 2);
	CHECK_EQ_STR(t.d.n > 1 ? t.d.msg[1] : "",
	             "a.ini:5: [lessons] y: column 6: unknown experiment 'abd' (did you mean "
	             "'abc'?)");
	tl_free(&t);
}

/* speedup divides by the same point at threads = 1: at 1 thread it says nothing, and an
 * experiment whose config never runs 1 thread has no baseline. A --set that narrowed threads
 * is no error (the analyzer says the lesson was not run, as for any other narrowed key). */
LAB_TEST(speedup_needs_a_baseline_and_more_threads)
{
	static const char cfg[] = "[x]\nkernel = fake\nthreads = 1,2\n[y]\nkernel = fake\n"
	                          "threads = 2\n[lessons]\n";
	char text[512];

	snprintf(text, sizeof(text), "%sl = speedup(x: threads=1) >= 1\n", cfg);
	tl_fails_with(
	    text, NULL, 0,
	    "a.ini:8: [lessons] l: column 9: speedup at threads=1 is 1 by definition "
	    "(allowed: a selector at threads=N with N > 1; its baseline is the same point "
	    "at threads=1)");
	snprintf(text, sizeof(text), "%sl = 2 * speedup(y) >= 1\n", cfg);
	tl_fails_with(text, NULL, 0,
	              "a.ini:8: [lessons] l: column 13: [y] runs no point at threads=1, the "
	              "baseline of speedup (allowed: add 1 to its threads, or compare cost(...) at "
	              "two thread counts)");
	/* an experiment at threads = 1 only: the selector names its one point, at 1 thread */
	static const char *const one[] = {"x.threads=1"};
	snprintf(text, sizeof(text), "%sl = speedup(x) >= 1\n", cfg);
	tl_fails_with(
	    text, one, 1,
	    "a.ini:8: [lessons] l: column 9: speedup at threads=1 is 1 by definition "
	    "(allowed: a selector at threads=N with N > 1; its baseline is the same point "
	    "at threads=1)");
	static const char *const widen[] = {"y.threads=1,2"};
	snprintf(text, sizeof(text), "%sl = speedup(y: threads=2) >= 1\n", cfg);
	struct tl t;
	const char *texts[] = {text};
	tl_build(&t, texts, 1, widen, 1);
	CHECK_EQ_I64(t.rc, 0);
	tl_free(&t);
	/* --only x --set x.threads=2 on a chapter config was refused; --set stride=... was not */
	static const char *const narrow[] = {"x.threads=2"};
	snprintf(text, sizeof(text), "%sl = speedup(x: threads=2) >= 1\n", cfg);
	tl_build(&t, texts, 1, narrow, 1);
	CHECK_EQ_I64(t.rc, 0);
	tl_free(&t);
}

/* A lesson name is what a section name may be, at most 63 bytes; the message echoes it cut. */
LAB_TEST(lesson_names_are_checked)
{
	tl_fails_with("[x]\nkernel = fake\n[lessons]\nb c = cost(x) > 1\n", NULL, 0,
	              "a.ini:4: [lessons] b c: bad lesson name (allowed letters, digits, '_', '.', "
	              "'-'; at most 63 characters)");
	tl_fails_with("[x]\nkernel = fake\n[lessons]\na\x1b[31m = cost(x) > 1\n", NULL, 0,
	              "a.ini:4: [lessons] a\x1b[31m: bad lesson name (allowed letters, digits, "
	              "'_', '.', '-'; at most 63 characters)");
	char set[100100], want[256];
	memcpy(set, "lessons.", 8);
	memset(set + 8, 'n', 100000);
	memcpy(set + 8 + 100000, "=cost(x) > 1", 13);
	const char *const sets[] = {set};
	snprintf(want, sizeof(want),
	         "--set lessons.%.63s...: bad lesson name (allowed letters, digits, '_', '.', '-'; "
	         "at most 63 characters)",
	         set + 8);
	tl_fails_with("[x]\nkernel = fake\n", sets, 1, want);
	/* 63 bytes are a name */
	memcpy(set + 8 + 63, "=cost(x) > 1", 13);
	struct tl t;
	const char *texts[] = {"[x]\nkernel = fake\n"};
	tl_build(&t, texts, 1, sets, 1);
	CHECK_EQ_I64(t.rc, 0);
	tl_free(&t);
	/* a name with dots, as a config may give it ("no experiment [lessons.x]" before) */
	const char *const dotted[] = {"lessons.x.y=cost(x) > 1"};
	tl_build(&t, texts, 1, dotted, 1);
	CHECK_EQ_I64(t.rc, 0);
	tl_free(&t);
}

/* A name defined in two files is reported at the second with the first file's line, also when
 * --set replaces the lesson (it said "first at --set:0"). */
LAB_TEST(duplicate_lesson_names_the_first_file)
{
	const char *texts[] = {"[b]\nkernel = fake\n[lessons]\nx = cost(b) > 1\n",
	                       "[a]\nkernel = fake\n[lessons]\nx = cost(a) > 1\n"};
	static const char *const sets[] = {"lessons.x=cost(a) > 1"};
	struct tl t;

	tl_build(&t, texts, 2, sets, 1);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	CHECK_EQ_U64(lab_diag_count(&t.d), 1);
	CHECK_EQ_STR(t.d.n ? t.d.msg[0] : "(none)",
	             "b.ini:4: [lessons] x: duplicate lesson (first at a.ini:4)");
	tl_free(&t);
}

/* kernel in a selector is the experiment's kernel: no "did you mean 'kernel'?". */
LAB_TEST(selector_kernel_key_is_explained)
{
	tl_fails_with("[x]\nkernel = fake\n[lessons]\nl = cost(x: kernel=fake) > 1\n", NULL, 0,
	              "a.ini:4: [lessons] l: column 9: 'kernel' is [x]'s kernel ('fake'), not a "
	              "point parameter (allowed threads, placement, membind, perf_c2c and the keys "
	              "of kernel 'fake')");
	tl_fails_with("[x]\nkernel = fake\n[lessons]\nl = cost(x: kernal=fake) > 1\n", NULL, 0,
	              "a.ini:4: [lessons] l: column 9: [x] has no point parameter 'kernal' (did "
	              "you mean 'kernel'?) (allowed threads, placement, membind, perf_c2c and the "
	              "keys of kernel 'fake')");
}

/* A count in a lesson is written in digits: the analyzer reads the values back without the
 * keys' types, and K is 1000 for a count, 1024 for a size. threads = 1000 still reads. */
LAB_TEST(selector_count_in_digits)
{
	tl_fails_with(
	    "[x]\nkernel = fake\nthreads = 1,2\n[lessons]\nl = cost(x: threads=1K) > 1\n", NULL, 0,
	    "a.ini:5: [lessons] l: column 9: threads=1K: a count in a lesson is written in "
	    "digits (allowed: e.g. threads=1000, not 1K: K is 1000 for a count, 1024 for "
	    "a size)");
}

/* A claim that measures nothing is refused at its line (lab_lesson_check). */
LAB_TEST(claims_that_measure_nothing_are_refused)
{
	tl_fails_with(
	    "[x]\nkernel = fake\n[lessons]\nl = 1 >= 0\n", NULL, 0,
	    "a.ini:4: [lessons] l: column 1: the claim measures nothing (allowed: a claim "
	    "uses cost(...), throughput(...), speedup(...) or metric(...))");
	tl_fails_with("[x]\nkernel = fake\n[lessons]\nl = cost(x) / 0 >= 1\n", NULL, 0,
	              "a.ini:4: [lessons] l: column 9: division by zero (the divisor is a constant "
	              "0; allowed a nonzero number or a measured quantity)");
}

/* A claim whose verdict cannot depend on the data is refused: the same point's mean on both
 * sides of '/' or '-', however the selectors write it (size=8 and size=8B, keys in another
 * order), a throughput times its own cost, a speedup times its cost over its baseline's, a
 * divisor that is a difference of one mean. Claims over different points pass. */
LAB_TEST(claims_whose_means_cancel_are_refused)
{
	static const char cfg[] =
	    "[x]\nkernel = fake\nthreads = 1,2\nsize = 8, 64\n[lessons]\nl = ";
	static const char *const cancel[] = {
	    "cost(x: size=8, threads=2) / cost(x: threads=2, size=8B) >= 1",
	    "cost(x: size=8, threads=1) - cost(x: size=8, threads=1) > 0",
	    "throughput(x: size=8, threads=1) * cost(x: size=8, threads=1) >= 1",
	    ("speedup(x: size=8, threads=2) * cost(x: size=8, threads=2) / cost(x: size=8, "
	     "threads=1) >= 1"),
	    "2 * cost(x: size=64, threads=1) / cost(x: size=64, threads=1) > 1.5",
	};
	static const char *const diff[] = {"0", "0", "1e+09", "0", "0.5"};
	static const char *const fine[] = {
	    "cost(x: size=8, threads=2) / cost(x: size=8, threads=1) >= 1",
	    "speedup(x: size=8, threads=2) >= 1.2",
	    "cost(x: size=8, threads=1) - cost(x: size=64, threads=1) > 0",
	    "speedup(x: size=8, threads=2) * cost(x: size=8, threads=2) >= 1",
	    /* cost > 500 beside large numbers: it depends on the cost */
	    "cost(x: size=8, threads=2) + 1e15 > 1e15 + 500",
	    "cost(x: size=8, threads=2) >= 2 * cost(x: size=64, threads=2)",
	};
	/* sides in one ratio whatever the means: the verdict is their signs' */
	static const char *const ratio[] = {
	    "cost(x: size=8, threads=2) * 2 > cost(x: size=8, threads=2)",
	    "throughput(x: size=8, threads=2) >= 2 / cost(x: size=8, threads=2)",
	    ("speedup(x: size=8, threads=2) * cost(x: size=8, threads=2) >= 0.5 * cost(x: size=8, "
	     "threads=1)"),
	};
	char text[512], want[512];

	for (size_t i = 0; i < sizeof(cancel) / sizeof(cancel[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", cfg, cancel[i]);
		snprintf(
		    want, sizeof(want),
		    "a.ini:6: [lessons] l: column 1: the claim's verdict does not depend on "
		    "what is measured: its two sides differ by %s whatever the means are (its "
		    "means cancel) (allowed: a claim that compares different points or metrics)",
		    diff[i]);
		tl_fails_with(text, NULL, 0, want);
	}
	/* a point this machine does not plan (threads=100 of 1..max) cancels as on one that does:
	 * whether a claim measures something does not depend on the machine */
	tl_fails_with("[y]\nkernel = fake\nthreads = 1..max\n[lessons]\n"
	              "l = cost(y: threads=100) / cost(y: threads=100) >= 1\n",
	              NULL, 0,
	              "a.ini:5: [lessons] l: column 1: the claim's verdict does not depend on what "
	              "is measured: its two sides differ by 0 whatever the means are (its means "
	              "cancel) (allowed: a claim that compares different points or metrics)");
	for (size_t i = 0; i < sizeof(ratio) / sizeof(ratio[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", cfg, ratio[i]);
		tl_fails_with(
		    text, NULL, 0,
		    "a.ini:6: [lessons] l: column 1: the claim's verdict does not depend on "
		    "what is measured: its two sides keep one ratio whatever the means are "
		    "(the same means on both) (allowed: a claim that compares different "
		    "points or metrics)");
	}
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		tl_plans_one_lesson(cfg, fine[i]);
}

/* A claim the ranges of its quantities decide alone is refused: a cost, throughput or speedup
 * above 0 (or a negated one above 0: never). Its verdict on a constant far from the means is
 * the data's: cost > 1e20 was refused as "its means cancel" (the constant's rounding hid the
 * cost's changes when the sides' values were compared). */
LAB_TEST(claims_their_ranges_decide_are_refused)
{
	static const char cfg[] = "[x]\nkernel = fake\nthreads = 1,2\n[lessons]\nl = ";
	static const struct {
		const char *claim, *range, *verdict;
	} fixed[] = {
	    {"metric(jain_fairness, x: threads=2) >= 0.5", "[0, 0.5]", "always holds"},
	    {"cost(x: threads=2) > 0", "(0, inf)", "always holds"},
	    {"throughput(x: threads=2) >= 0", "(0, inf)", "always holds"},
	    {"speedup(x: threads=2) > 0", "(0, inf)", "always holds"},
	    {"-cost(x: threads=2) > 0", "(-inf, 0)", "never holds"},
	    {"cost(x: threads=1) + cost(x: threads=2) < 0", "(0, inf)", "never holds"},
	};
	static const char *const fine[] = {
	    "cost(x: threads=2) > 1e20",
	    "cost(x: threads=2) * 1e-30 > 1",
	    "cost(x: threads=2) + 1e30 > cost(x: threads=1)",
	    "-cost(x: threads=2) > -5",
	    /* a side of 0 keeps the sides' ratio 0; the verdict is the difference's sign */
	    "0 < cost(x: threads=2) - cost(x: threads=1)",
	    "metric(jain_fairness, x: threads=2) >= 0.9",
	};
	char text[256], want[640];

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", cfg, fixed[i].claim);
		snprintf(
		    want, sizeof(want),
		    "a.ini:5: [lessons] l: column 1: the claim's verdict does not depend on "
		    "what is measured: its left side less its right lies in %s at any means its "
		    "quantities can take (a cost, throughput or speedup is above 0, a metric "
		    "within its domain, as jain_fairness in [1/threads, 1]), so it %s (allowed: "
		    "a bound that what is measured can fall on either side of)",
		    fixed[i].range, fixed[i].verdict);
		tl_fails_with(text, NULL, 0, want);
	}
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		tl_plans_one_lesson(cfg, fine[i]);
}

/* A metric's range at threads = max is the widest of any team: whether a claim measures
 * something does not depend on the machine (Jain's index < 0.9 at max was refused on 1 CPU,
 * where max is 1 and the index 1, and planned on 4). */
LAB_TEST(ranges_at_threads_max_do_not_depend_on_the_machine)
{
	static const char *const cfg[] = {"[x]\nkernel = fake\nthreads = 1..max\n[lessons]\nl = "
	                                  "metric(jain_fairness, x: threads=max) < 0.9\n"};
	static const char *const topos[] = {"synthetic:pack:1 core:1 pu:1", SYN_2S};

	for (size_t i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		struct tl t;

		tl_topo = topos[i];
		tl_build(&t, cfg, 1, NULL, 0);
		CHECK_EQ_I64(t.rc, 0);
		CHECK(t.plan && t.plan->nlessons == 1);
		tl_free(&t);
	}
	tl_topo = SYN_2S;
}

/* A selector's threads=N is N on every machine that runs it, whatever the sweep names: Jain's
 * index >= 0.5 at threads=2 always holds and is refused where the sweep is 1..max too (it was
 * planned there, and the analyzer then showed it "not run"); < 0.9 at threads=2 measures. */
LAB_TEST(ranges_at_threads_n_in_a_max_sweep)
{
	static const char *const always[] = {"[x]\nkernel = fake\nthreads = 1..max\n[lessons]\nl = "
	                                     "metric(jain_fairness, x: threads=2) >= 0.5\n"};
	static const char *const measures[] = {"[x]\nkernel = fake\nthreads = 1..max\n[lessons]\n"
	                                       "l = metric(jain_fairness, x: threads=2) < 0.9\n"};
	static const char *const topos[] = {"synthetic:pack:1 core:1 pu:1", SYN_2S};

	for (size_t i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		struct tl t;

		tl_topo = topos[i];
		tl_build(&t, always, 1, NULL, 0);
		CHECK(t.rc != 0);
		CHECK(t.d.n == 1 && strstr(t.d.msg[0], "always holds"));
		tl_free(&t);
		tl_build(&t, measures, 1, NULL, 0);
		CHECK_EQ_I64(t.rc, 0);
		tl_free(&t);
	}
	tl_topo = SYN_2S;
}

/* Whether a claim with threads=max plans does not depend on the machine: threads=max is
 * threads=2's point on 2 CPUs and threads=1's on 1 (a claim comparing them was refused there as
 * cancelling, a speedup at max as "1 by definition"); the same max on both sides cancels
 * everywhere, though one side names a key that changes nothing. */
LAB_TEST(selectors_at_max_plan_alike_on_every_machine)
{
	static const char *const plans[] = {
	    "cost(x: threads=2) / cost(x: threads=max) > 1.1",
	    "cost(x: threads=1) / cost(x: threads=max) > 1.1",
	    "speedup(x: threads=max) > 1.1",
	};
	/* the same max on both sides, beside a key that changes nothing (size=8 is the one size) */
	static const char *const cancels[] = {
	    "cost(x: threads=max) / cost(x: threads=max) >= 1",
	    "cost(x: threads=max) / cost(x: size=8B, threads=max) >= 1",
	};
	static const char *const topos[] = {"synthetic:pack:1 core:1 pu:1",
	                                    "synthetic:pack:1 core:2 pu:1", SYN_2S};
	char text[256];
	const char *texts[] = {text};

	for (size_t i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		struct tl t;

		tl_topo = topos[i];
		for (size_t k = 0; k < sizeof(plans) / sizeof(plans[0]); k++) {
			snprintf(text, sizeof(text),
			         "[x]\nkernel = fake\nthreads = 1..max\n[lessons]\nl = %s\n",
			         plans[k]);
			tl_build(&t, texts, 1, NULL, 0);
			if (t.rc != 0)
				fprintf(stderr, "  %s on %s: %s\n", plans[k], topos[i],
				        t.d.n ? t.d.msg[0] : "");
			CHECK_EQ_I64(t.rc, 0);
			tl_free(&t);
		}
		for (size_t k = 0; k < sizeof(cancels) / sizeof(cancels[0]); k++) {
			snprintf(text, sizeof(text),
			         "[x]\nkernel = fake\nthreads = 1..max\n[lessons]\nl = %s\n",
			         cancels[k]);
			tl_build(&t, texts, 1, NULL, 0);
			CHECK(t.rc != 0 && t.d.n == 1 && strstr(t.d.msg[0], "cancel"));
			tl_free(&t);
		}
	}
	tl_topo = SYN_2S;
}

/* A claim on continuation lines: an error names the line that holds its column, and the column
 * in that line's text (it named the claim's first line, with a column of the joined text). */
LAB_TEST(claim_errors_name_their_continuation_line)
{
	static const char *const texts[] = {
	    "[x]\nkernel = fake\nthreads = 1,2\n[lessons]\nl = cost(x: threads=2)\n"
	    "    / cost(x: threads=1)\n    >= foo(1)\nm = cost(x: threads=3)\n    > 1\n"
	    "n = cost(x: threads=2) >\n  1 * cost(x: threads=1) +\n  cost(y: threads=1)\n"
	    "o = cost(x: threads=2) > cost(x:\n    threads=3)\n"};
	struct tl t;

	tl_build(&t, texts, 1, NULL, 0);
	REQUIRE(t.d.n == 4);
	CHECK(!strncmp(t.d.msg[0], "a.ini:7: [lessons] l: column 4: unknown function 'foo'", 54));
	CHECK(!strncmp(t.d.msg[1], "a.ini:8: [lessons] m: column 9: threads=3", 41)); /* line 1 */
	CHECK(!strncmp(t.d.msg[2], "a.ini:12: [lessons] n: column 6: unknown experiment 'y'", 55));
	/* an item's own error names the item, not its experiment on the line before */
	CHECK(!strncmp(t.d.msg[3], "a.ini:14: [lessons] o: column 1: threads=3", 42));
	tl_free(&t);
}

/* A claim the plan cannot judge (a --set narrowed the sweep its selector names, or the point is
 * skipped on this machine) plans, and says why up front: lab plan listed it as "checked against
 * this plan" and the run found out only at the analysis. */
LAB_TEST(unjudged_claims_say_why)
{
	static const char *const texts[] = {
	    "[x]\nkernel = fake\nthreads = 1,2\n[y]\nkernel = fake\nthreads = 1,2\n"
	    "min_cpus = 1024\n[lessons]\nl = cost(x: threads=2) / cost(x: threads=1) >= 1.5\n"
	    "m = cost(y: threads=2) / cost(x: threads=2) >= 1.5\n"
	    "n = cost(x: threads=1) / cost(x: size=8, threads=2) >= 1.5\n"};
	static const char *const sets[] = {"x.threads=1"}, *const two[] = {"x.threads=2"};
	static const char *const lst[] = {
	    "[x]\nkernel = fake\nthreads = 1,2\nplacement = list:1,0\n[lessons]\n"
	    "o = cost(x: placement=\"list:1,0\", threads=2) / cost(x: threads=1) >= 1.5\n"};
	static const char *const sp[] = {
	    "[x]\nkernel = fake\nthreads = 1,2\n[lessons]\ns = speedup(x: threads=2) >= 1.5\n"};
	struct tl t;

	tl_build(&t, sp, 1, two, 1); /* the point runs, its baseline does not */
	REQUIRE(t.rc == 0 && t.plan->nlessons == 1);
	CHECK_EQ_STR(t.plan->lessons[0].unplanned ?: "(none)",
	             "[x] threads=1, the baseline of speedup: no planned point");
	tl_free(&t);
	tl_build(&t, sp, 1, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->nlessons == 1);
	CHECK(t.plan->lessons[0].unplanned == NULL);
	tl_free(&t);
	tl_build(&t, texts, 1, sets, 1);
	REQUIRE(t.rc == 0 && t.plan->nlessons == 3);
	CHECK_EQ_STR(t.plan->lessons[0].unplanned ?: "(none)", "[x] threads=2: no planned point");
	CHECK(t.plan->lessons[1].unplanned &&
	      strstr(t.plan->lessons[1].unplanned, "[y] threads=2 is point ") &&
	      strstr(t.plan->lessons[1].unplanned, ", skipped: "));
	CHECK_EQ_STR(t.plan->lessons[2].unplanned ?: "(none)",
	             "[x] size=8, threads=2: no planned point");
	tl_free(&t);
	tl_build(&t, texts, 1, NULL, 0); /* x runs both: only m's [y] is skipped */
	REQUIRE(t.rc == 0 && t.plan->nlessons == 3);
	CHECK(t.plan->lessons[0].unplanned == NULL && t.plan->lessons[2].unplanned == NULL);
	CHECK(t.plan->lessons[1].unplanned != NULL);
	tl_free(&t);
	/* whole, quoted as written: it read placement=list:1,0, which is no selector */
	tl_build(&t, lst, 1, sets, 1);
	for (unsigned i = 0; i < t.d.n; i++)
		fprintf(stderr, "diag: %s\n", t.d.msg[i]);
	REQUIRE(t.rc == 0 && t.plan->nlessons == 1);
	CHECK_EQ_STR(t.plan->lessons[0].unplanned ?: "(none)",
	             "[x] placement=\"list:1,0\", threads=2: no planned point");
	tl_free(&t);
}

/* lab_edit_distance measures at most 100 bytes and says 100 beyond: a longer name is close to
 * nothing (a 3000-byte key was "did you mean 'threads'?"). */
LAB_TEST(long_names_get_no_suggestion)
{
	static char key[512], lesson[512], kernel[512];
	const char *const sets[] = {key, lesson, kernel};
	const char *texts[] = {"[x]\nkernel = fake\n[y]\nkernel = fake\n"};
	struct tl t;

	snprintf(key, sizeof(key), "x.%0400d=1", 0);
	snprintf(lesson, sizeof(lesson), "lessons.l=cost(x%0400d) > 1", 0);
	snprintf(kernel, sizeof(kernel), "y.kernel=f%0400d", 0);
	tl_build(&t, texts, 1, sets, 3);
	CHECK_EQ_U64(t.d.n, 3);
	for (unsigned i = 0; i < t.d.n; i++)
		if (strstr(t.d.msg[i], "did you mean")) {
			fprintf(stderr, "  suggests: %.60s...\n", t.d.msg[i]);
			testlib_fail();
		}
	tl_free(&t);
}

/* A selector names a placement in any of its forms: the expr carries the canonical text the
 * points record (list:0,1 -> list:0-1, expr:S00:0,1 -> expr:S0:0-1), so it names that point. */
LAB_TEST(selector_placement_in_another_form)
{
	static const char text[] =
	    "[x]\nkernel = fake\nthreads = 2\nplacement = list:0-1, list:1,0, expr:S0:0-1\n"
	    "[lessons]\na = cost(x: placement=\"list:0,1\") < cost(x: placement=\"list:1,0\")\n"
	    "b = cost(x: placement=\"expr:S00:0,1\") > 1\n";
	const char *texts[] = {text};
	struct tl t;

	tl_build(&t, texts, 1, NULL, 0);
	for (unsigned i = 0; i < t.d.n; i++)
		fprintf(stderr, "  diag: %s\n", t.d.msg[i]);
	REQUIRE(t.rc == 0 && t.plan->nlessons == 2);
	CHECK_EQ_STR(t.plan->lessons[0].expr,
	             "cost(x: placement=list:0-1) < cost(x: placement=\"list:1,0\")");
	CHECK_EQ_STR(t.plan->lessons[1].expr, "cost(x: placement=expr:S0:0-1) > 1");
	tl_free(&t);
	/* two forms of one placement in a sweep are one point: the selector names one, not two */
	static const char twice[] =
	    "[x]\nkernel = fake\nthreads = 2\nplacement = list:0,1, list:0-1\n"
	    "[lessons]\na = cost(x) > 1\n";
	texts[0] = twice;
	tl_build(&t, texts, 1, NULL, 0);
	for (unsigned i = 0; i < t.d.n; i++)
		fprintf(stderr, "  diag: %s\n", t.d.msg[i]);
	CHECK_EQ_I64(t.rc, 0);
	tl_free(&t);
	/* E: walks a domain core by core, indices number it physical cores first: E:S0:2 is two
	 * threads of one core where S0:0-1 is two cores, so it names no point of that sweep */
	static const char other[] =
	    "[x]\nkernel = fake\nthreads = 2\nplacement = list:0-1, expr:S0:0-1\n"
	    "[lessons]\nb = cost(x: placement=\"expr:E:S0:2\") > 1\n";
	texts[0] = other;
	tl_build(&t, texts, 1, NULL, 0);
	CHECK(t.rc != 0);
	CHECK(t.d.n == 1 && strstr(t.d.msg[0], "placement=expr:E:S0:2 names no point of [x]"));
	tl_free(&t);
}

/* The plan's lessons grow geometrically: 5,000 lessons cost a few dozen reallocations, not one
 * each (quadratic in copies where realloc cannot grow in place: 50,000 lessons ran out a
 * minute under AddressSanitizer). */
LAB_TEST(many_lessons_grow_geometrically)
{
	unsigned n = 5000;
	size_t len = 128 + (size_t)n * 48, used = 0;
	char *text = malloc(len);
	struct tl t;

	REQUIRE(text != NULL);
	used += (size_t)snprintf(text, len, "[e]\nkernel = fake\nthreads = 1\n[lessons]\n");
	for (unsigned i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, len - used, "l%u = cost(e: size=8) > 1\n", i);
	unsigned long long before = lab_plan_lesson_grows();
	const char *texts[] = {text};
	tl_build(&t, texts, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	REQUIRE(t.plan != NULL);
	CHECK_EQ_U64(t.plan->nlessons, n);
	CHECK(lab_plan_lesson_grows() - before < 64);
	tl_free(&t);
	free(text);
}
