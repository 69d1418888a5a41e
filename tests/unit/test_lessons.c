/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lesson grammar (harness/lessons.h): claims parse into the tree the analyzer evaluates,
 * print back canonically, and bad claims fail with a column and a reason. */
#include <math.h>
#include <string.h>

#include "harness/lessons.h"
#include "tests/testlib.h"

/* Parses text and prints it back; the printed form parses to the same print. */
static void roundtrip(const char *text, const char *want)
{
	struct lab_lesson_claim c, c2;
	struct lab_err err = {0};
	char out[512], again[512];

	REQUIRE(lab_lesson_parse(text, &c, &err) == 0);
	lab_lesson_format(&c, -1, out, sizeof(out));
	CHECK_EQ_STR(out, want);
	REQUIRE(lab_lesson_parse(out, &c2, &err) == 0);
	lab_lesson_format(&c2, -1, again, sizeof(again));
	CHECK_EQ_STR(again, out);
	lab_lesson_claim_free(&c);
	lab_lesson_claim_free(&c2);
}

static void bad(const char *text, const char *col, const char *what)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};

	CHECK(lab_lesson_parse(text, &c, &err) == -LAB_ECONFIG);
	CHECK(strstr(err.msg, col) != NULL);
	CHECK(strstr(err.msg, what) != NULL);
	if (!strstr(err.msg, col) || !strstr(err.msg, what))
		fprintf(stderr, "  for '%s': got '%s'\n", text, err.msg);
	CHECK_EQ_U64(c.nnode, 0);
}

LAB_TEST(ratio_claim_parses)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};

	REQUIRE(lab_lesson_parse("cost(padded_rmw: stride=8, threads=2) / "
	                         "cost(padded_rmw: stride=128, threads=2) >= 2",
	                         &c, &err) == 0);
	CHECK_EQ_U64(c.nsel, 2);
	CHECK_EQ_STR(c.sel[0].experiment, "padded_rmw");
	CHECK_EQ_U64(c.sel[0].nparam, 2);
	CHECK_EQ_STR(c.sel[1].key[0], "stride");
	CHECK_EQ_STR(c.sel[1].value[0], "128");
	CHECK(c.cmp == LAB_LESSON_GE);
	CHECK(c.node[c.lhs].op == LAB_LESSON_DIV);
	CHECK(c.node[c.rhs].op == LAB_LESSON_NUM && c.node[c.rhs].num == 2);
	lab_lesson_claim_free(&c);
}

LAB_TEST(canonical_print)
{
	roundtrip("cost(a)/cost(b)>=2", "cost(a) / cost(b) >= 2");
	roundtrip("speedup( x : threads = 2 ) > 1.5", "speedup(x: threads=2) > 1.5");
	roundtrip("metric(jain, locks: lock=mcs, threads=2) - metric(jain, locks: lock=tas, "
	          "threads=2) > 0.1",
	          "metric(jain, locks: lock=mcs, threads=2) - metric(jain, locks: lock=tas, "
	          "threads=2) > 0.1");
	roundtrip("2 * (cost(a) - cost(b)) < -(1)", "2 * (cost(a) - cost(b)) < -1");
	roundtrip("cost(a) - (cost(b) - cost(c)) <= 1e-3",
	          "cost(a) - (cost(b) - cost(c)) <= 0.001");
	roundtrip("throughput(p: placement=\"list:0,1\") / throughput(p: placement=compact) < 2",
	          "throughput(p: placement=\"list:0,1\") / throughput(p: placement=compact) < 2");
	roundtrip("cost(a) / (cost(b) / cost(c)) >= 1", "cost(a) / (cost(b) / cost(c)) >= 1");
}

LAB_TEST(bad_claims_name_the_column)
{
	bad("cost(a) >> 1", "column 10", "expected a number");
	bad("cost(a)", "column 8", "expected a comparison");
	bad("cost(a) >= 1 >= 2", "column 14", "one comparison per lesson");
	bad("price(a) >= 1", "column 1", "unknown function 'price'");
	bad("cost(a: stride) >= 1", "column 15", "expected '='");
	bad("cost(a: stride=) >= 1", "column 16", "expected a value");
	bad("cost(a: s=1, s=2) >= 1", "column 14: 's' given twice", "column"); /* the item's */
	bad("cost(a >= 1", "column 8", "')' or ', KEY=VALUE'");
	bad("cost(: x=1) >= 1", "column 6", "expected an experiment name");
	bad("cost(a) >= 0x10", "column 12", "bad number (allowed a plain decimal like 1.5 or 2e3)");
	bad("cost(a) >= 1e309", "column 12",
	    "number 1e309 out of range (allowed 0 or a magnitude from 1e-30 to 1e30)");
	bad("cost(a) >= 1e-400", "column 12",
	    "number 1e-400 out of range (allowed 0 or a magnitude from 1e-30 to 1e30)");
	bad("cost(a) >= inf", "column 12", "unknown function 'inf'");
	bad("cost(a: p=\"list:0,1) >= 1", "column", "unterminated");
	bad("metric(cost(a)) > 1", "column 12", "',' after the metric name");
	bad("", "column 1", "expected a number");
}

LAB_TEST(hostile_claims_are_bounded)
{
	char deep[400], many[4096];
	struct lab_lesson_claim c;
	struct lab_err err = {0};
	size_t n = 0;

	/* nesting beyond the depth limit: an error, not a stack overflow */
	for (int i = 0; i < 100; i++)
		deep[n++] = '(';
	memcpy(deep + n, "1) >= 1", 8);
	CHECK(lab_lesson_parse(deep, &c, &err) == -LAB_ECONFIG);
	CHECK(strstr(err.msg, "nested too deeply (allowed at most 32 levels of parentheses and "
	                      "signs)") != NULL);
	memset(deep, '-', 200);
	memcpy(deep + 200, "1 >= 1", 7);
	CHECK(lab_lesson_parse(deep, &c, &err) == -LAB_ECONFIG);
	/* more terms than a claim may hold */
	n = 0;
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "%s1", i ? "+" : "");
	snprintf(many + n, sizeof(many) - n, " >= 1");
	CHECK(lab_lesson_parse(many, &c, &err) == -LAB_ECONFIG);
	CHECK(strstr(err.msg, "too long") != NULL);
	/* a truncated print still reports the length it needed */
	REQUIRE(lab_lesson_parse("cost(abc) >= 1", &c, &err) == 0);
	char small[8];
	CHECK_EQ_U64(lab_lesson_format(&c, -1, small, sizeof(small)), strlen("cost(abc) >= 1"));
	CHECK_EQ_U64(strlen(small), 7);
	lab_lesson_claim_free(&c);
}

/* What lab_lesson_check refuses of a parsed claim: col and what are in the message. */
static void nonsense(const char *text, const char *col, const char *what)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};

	REQUIRE(lab_lesson_parse(text, &c, &err) == 0);
	CHECK(lab_lesson_check(&c, &err) == -LAB_ECONFIG);
	if (!strstr(err.msg, col) || !strstr(err.msg, what)) {
		fprintf(stderr, "  for '%s': got '%s'\n", text, err.msg);
		testlib_fail();
	}
	lab_lesson_claim_free(&c);
}

static int sensible(const char *text)
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};

	if (lab_lesson_parse(text, &c, &err) != 0) {
		fprintf(stderr, "  '%s' does not parse: %s\n", text, err.msg);
		return -1;
	}
	int rc = lab_lesson_check(&c, &err);
	if (rc)
		fprintf(stderr, "  for '%s': got '%s'\n", text, err.msg);
	lab_lesson_claim_free(&c);
	return rc;
}

/* The grammar takes claims that measure nothing or cannot be computed; the planner refuses them
 * through lab_lesson_check (the analyzer still parses what an older run.json holds). */
LAB_TEST(nonsense_claims_are_refused)
{
	nonsense("1 >= 0", "column 1", "measures nothing");
	nonsense("(2 - 1) * 3 < 4", "column 1", "measures nothing");
	nonsense("cost(fs: stride=8) / 0 >= 1", "column 20", "division by zero");
	nonsense("cost(fs) >= 0/0", "column 14", "division by zero");
	nonsense("cost(fs) / (1 - 1) >= 1", "column 10", "division by zero");
	nonsense("cost(fs) / -0 >= 1", "column 10", "division by zero");
	nonsense("cost(fs) * 1e-300 * 1e-300 > 0", "column 12", "out of range");
	nonsense("cost(fs) * 1e308 * 1e308 >= 1", "column 12", "out of range");
	nonsense("cost(fs) >= 1e31", "column 13", "allowed 0 or a magnitude from 1e-30 to 1e30");
	/* each number in range, the product not */
	nonsense("cost(fs) * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 * 1e30 "
	         ">= 1",
	         "column 73", "can reach 1e320");
	CHECK(sensible("cost(a) / cost(b) >= 1.5") == 0);
	CHECK(sensible("cost(a) >= 0") == 0);
	CHECK(sensible("cost(a) > -0") == 0);
	CHECK(sensible("cost(a) * 1e-30 < 1e30") == 0);
	CHECK(sensible("1 <= speedup(a: threads=2)") == 0);
	CHECK(sensible("cost(a) - cost(a) >= 0") == 0);
}

/* The analyzer holds 64 point means per claim: a longer claim is refused, a speedup counting
 * two (its point and the baseline). */
LAB_TEST(claims_hold_at_most_64_point_means)
{
	char text[4096];
	size_t n = 0;

	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%scost(e: k=%d)", i ? " + " : "",
		                      i);
	snprintf(text + n, sizeof(text) - n, " > 0");
	CHECK(sensible(text) == 0);
	snprintf(text + n, sizeof(text) - n, " + cost(e: k=64) > 0");
	nonsense(text, "column", "too many point means (allowed at most 64");
	n = 0;
	for (int i = 0; i < 32; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%sspeedup(e: k=%d)",
		                      i ? " + " : "", i);
	snprintf(text + n, sizeof(text) - n, " > 0");
	CHECK(sensible(text) == 0);
	snprintf(text + n, sizeof(text) - n, " + cost(e) > 0");
	nonsense(text, "column", "a speedup counts two");
}

/* The ranges of a claim's leaves decide its verdict or not: Jain's index at 2 threads is in
 * [0.5, 1], so >= 0.5 always holds and < 0.5 never does, while >= 0.9 depends on the data; a
 * divisor whose range holds 0 bounds nothing. */
static void tf_leaf(void *ctx, const struct lab_lesson_claim *c, unsigned i, double r[2])
{
	(void)ctx;
	if (c->node[i].op == LAB_LESSON_METRIC) {
		r[0] = 0.5;
		r[1] = 1;
	} else {
		lab_lesson_leaf_positive(c->node[i].op, r);
	}
}

static int tf_fixed(const char *text, double d[2])
{
	struct lab_lesson_claim c;
	struct lab_err err = {0};
	int fixed;

	if (lab_lesson_parse(text, &c, &err)) {
		CHECK(!"the claim parses");
		return 99;
	}
	fixed = lab_lesson_fixed(&c, tf_leaf, NULL, d);
	lab_lesson_claim_free(&c);
	return fixed;
}

LAB_TEST(verdicts_their_ranges_decide)
{
	double d[2];

	CHECK_EQ_I64(tf_fixed("metric(jain_fairness, a) >= 0.5", d), 1);
	CHECK(d[0] == 0 && d[1] == 0.5);
	CHECK_EQ_I64(tf_fixed("metric(jain_fairness, a) < 0.5", d), -1);
	CHECK_EQ_I64(tf_fixed("metric(jain_fairness, a) > 0.5", d), 0);
	CHECK_EQ_I64(tf_fixed("metric(jain_fairness, a) >= 0.9", d), 0);
	CHECK_EQ_I64(tf_fixed("metric(jain_fairness, a) - metric(jain_fairness, b) <= 0.5", d), 1);
	CHECK_EQ_I64(tf_fixed("1 / (metric(jain_fairness, a) - 0.75) > -1e30", d), 0);
	CHECK(isinf(d[0]) && isinf(d[1]));
	CHECK_EQ_I64(tf_fixed("cost(a) * cost(b) > 0", d), 1);
	CHECK_EQ_I64(tf_fixed("cost(a) > 1e-30", d), 0);
}
