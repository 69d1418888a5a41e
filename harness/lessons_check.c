/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a config's claim may say (harness/lessons.h lab_lesson_check): the grammar accepts
 * `1 >= 0` or `cost(a) / 0 >= 1`, which the analyzer would judge as if they measured something.
 * The planner refuses them; the analyzer still reads whatever an older run.json holds.
 */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/lessons.h"

/* A quantity's magnitude as the overflow check counts it (costs in ns, rates, metrics). */
#define LC_QUANTITY_EXP 20.0
/* The largest |log10| of a value a claim may compute (doubles hold about 308). */
#define LC_EXP_MAX 300.0

struct lc_val {
	bool konst; /* no quantity below this node: v is its value */
	double v;
	double exp; /* an upper bound on |log10 |value|| of a product or quotient (0 for 0) */
};

static double lc_exp_of(double v)
{
	return v == 0 ? 0 : fabs(log10(fabs(v)));
}

/* The value of node n from its operands' (a, b); 0 or -LAB_ECONFIG. */
static int lc_node(const struct lab_lesson_node *n, const struct lc_val *a, const struct lc_val *b,
                   struct lc_val *out, struct lab_err *err)
{
	switch (n->op) {
	case LAB_LESSON_NUM:
		if (n->num != 0 && !(n->num >= LAB_LESSON_NUM_MIN && n->num <= LAB_LESSON_NUM_MAX))
			return lab_err_set(err, LAB_ECONFIG,
			                   "column %u: number %g out of range (allowed 0 or a "
			                   "magnitude from 1e-30 to 1e30)",
			                   n->col, n->num);
		*out = (struct lc_val){.konst = true, .v = n->num, .exp = lc_exp_of(n->num)};
		return 0;
	case LAB_LESSON_NEG:
		*out = (struct lc_val){.konst = a->konst, .v = -a->v, .exp = a->exp};
		return 0;
	case LAB_LESSON_ADD:
	case LAB_LESSON_SUB:
		out->exp = fmax(a->exp, b->exp) + 0.31; /* |a + b| <= 2 max(|a|, |b|) */
		out->v = n->op == LAB_LESSON_ADD ? a->v + b->v : a->v - b->v;
		break;
	case LAB_LESSON_MUL:
	case LAB_LESSON_DIV:
		if (n->op == LAB_LESSON_DIV && b->konst && b->v == 0)
			return lab_err_set(err, LAB_ECONFIG,
			                   "column %u: division by zero (the divisor is a constant "
			                   "0; allowed a nonzero number or a measured quantity)",
			                   n->col);
		out->exp = a->exp + b->exp;
		out->v = n->op == LAB_LESSON_MUL ? a->v * b->v : a->v / b->v;
		break;
	default: /* cost, throughput, speedup, metric */
		*out = (struct lc_val){.konst = false, .exp = LC_QUANTITY_EXP};
		return 0;
	}
	out->konst = a->konst && b->konst;
	if (out->konst)
		out->exp = lc_exp_of(out->v);
	if (!(out->exp <= LC_EXP_MAX))
		return lab_err_set(
		    err, LAB_ECONFIG,
		    "column %u: the value here can reach 1e%.0f or 1e-%.0f (allowed "
		    "magnitudes within 1e-300 .. 1e300, a measured quantity counted as "
		    "up to 1e20 or down to 1e-20)",
		    n->col, fmin(out->exp, 999), fmin(out->exp, 999));
	return 0;
}

int lab_lesson_check(const struct lab_lesson_claim *c, struct lab_err *err)
{
	struct lc_val val[LAB_LESSON_NODES_MAX];
	unsigned points = 0;

	for (unsigned i = 0; i < c->nnode; i++) {
		const struct lab_lesson_node *n = &c->node[i];
		/* operands come before the node that uses them */
		const struct lc_val *a = n->a >= 0 && (unsigned)n->a < i ? &val[n->a] : NULL;
		const struct lc_val *b = n->b >= 0 && (unsigned)n->b < i ? &val[n->b] : NULL;
		bool binary = n->op >= LAB_LESSON_ADD && n->op <= LAB_LESSON_DIV;
		if ((n->op == LAB_LESSON_NEG && !a) || (binary && (!a || !b)))
			return lab_err_set(err, LAB_ECONFIG, "column %u: malformed claim", n->col);
		if (lc_node(n, a, b, &val[i], err))
			return -LAB_ECONFIG;
		if (!lab_lesson_func_name(n->op))
			continue;
		points += n->op == LAB_LESSON_SPEEDUP ? 2 : 1;
		if (points > LAB_LESSON_POINTS_MAX)
			return lab_err_set(err, LAB_ECONFIG,
			                   "column %u: too many point means (allowed at most %d in "
			                   "one claim; a speedup counts two)",
			                   n->col, LAB_LESSON_POINTS_MAX);
	}
	if (!points)
		return lab_err_set(err, LAB_ECONFIG,
		                   "column 1: the claim measures nothing (allowed: a claim uses "
		                   "cost(...), throughput(...), speedup(...) or metric(...))");
	return 0;
}

/* The two sides of c at the variable values x into *l, *r. */
static void lc_sides(const struct lab_lesson_claim *c, const int *var, const int *base,
                     const double *x, double *l, double *r)
{
	double v[LAB_LESSON_NODES_MAX];

	for (unsigned i = 0; i < c->nnode; i++) {
		const struct lab_lesson_node *n = &c->node[i];
		double a = n->a >= 0 && (unsigned)n->a < i ? v[n->a] : NAN;
		double b = n->b >= 0 && (unsigned)n->b < i ? v[n->b] : NAN;

		switch (n->op) {
		case LAB_LESSON_NUM:
			v[i] = n->num;
			break;
		case LAB_LESSON_COST:
		case LAB_LESSON_METRIC:
			v[i] = x[var[i]];
			break;
		case LAB_LESSON_THROUGHPUT:
			v[i] = 1e9 / x[var[i]];
			break;
		case LAB_LESSON_SPEEDUP:
			v[i] = x[base[i]] / x[var[i]];
			break;
		case LAB_LESSON_NEG:
			v[i] = -a;
			break;
		case LAB_LESSON_ADD:
			v[i] = a + b;
			break;
		case LAB_LESSON_SUB:
			v[i] = a - b;
			break;
		case LAB_LESSON_MUL:
			v[i] = a * b;
			break;
		case LAB_LESSON_DIV:
			v[i] = a / b;
			break;
		}
	}
	*l = v[c->lhs];
	*r = v[c->rhs];
}

/* Whether a and b, computed from operands of magnitude up to scale, are one value: equal, both
 * NaN, or within the rounding of a few dozen operations (a relative 1e-9 took cost + 1e15 >
 * 1e15 + 500, whose verdict is cost > 500, for a constant). */
static bool lc_same(double a, double b, double scale)
{
	return a == b || (isnan(a) && isnan(b)) || fabs(a - b) <= 64 * DBL_EPSILON * scale;
}

int lab_lesson_constant(const struct lab_lesson_claim *c, const int *var, const int *base,
                        unsigned nvar, double *diff)
{
	double x[LAB_LESSON_VARS_MAX], l0 = NAN, r0 = NAN;
	uint64_t s = 0x9e3779b97f4a7c15ull; /* a fixed seed: the same answer every run */
	bool same_diff = true, same_ratio = true;

	if (nvar > LAB_LESSON_VARS_MAX || c->lhs < 0 || c->rhs < 0 ||
	    (unsigned)c->lhs >= c->nnode || (unsigned)c->rhs >= c->nnode)
		return 0;
	for (unsigned k = 0; k < LAB_LESSON_DRAWS && (same_diff || same_ratio); k++) {
		double l, r;

		/* log-uniform in [1e-3, 1e9): a cost in ns, a rate, a count or a share */
		for (unsigned i = 0; i < nvar; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			x[i] = pow(10, 12 * (double)(s >> 11) / 9007199254740992.0 - 3);
		}
		lc_sides(c, var, base, x, &l, &r);
		if (!k) {
			l0 = l;
			r0 = r;
			continue;
		}
		double scale = fmax(fmax(fabs(l), fabs(r)), fmax(fabs(l0), fabs(r0)));
		same_diff &= lc_same(l - r, l0 - r0, scale);
		/* sides in a fixed ratio (cost * 2 > cost): the verdict is their sign's */
		same_ratio &= r != 0 && r0 != 0 && isfinite(l / r) &&
		              lc_same(l / r, l0 / r0, fmax(fabs(l / r), fabs(l0 / r0)));
	}
	if (!same_diff && !same_ratio)
		return 0;
	*diff = same_diff ? l0 - r0 : NAN;
	return same_diff ? 1 : 2;
}

const char *lab_lesson_constant_why(int kind, double diff, char *buf, size_t len)
{
	if (kind == 2)
		snprintf(buf, len,
		         "the claim's verdict does not depend on what is measured: its two sides "
		         "keep one ratio whatever the means are (the same means on both)");
	else if (isfinite(diff))
		snprintf(buf, len,
		         "the claim's verdict does not depend on what is measured: its two sides "
		         "differ by %g whatever the means are (its means cancel)",
		         diff);
	else
		snprintf(buf, len,
		         "the claim's verdict does not depend on what is measured: it has no value "
		         "whatever the means are (its means cancel in a divisor)");
	return buf;
}

int lab_lesson_name_ok(const char *name)
{
	size_t n = strnlen(name, LAB_LESSON_NAME_MAX + 1);

	if (!n || n > LAB_LESSON_NAME_MAX)
		return 0;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
			return 0;
	return 1;
}
