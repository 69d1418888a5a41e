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

/* The value of every node of c at the variable values x into v. */
static void lc_values(const struct lab_lesson_claim *c, const int *var, const int *base,
                      const double *x, double *v)
{
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
}

/* A node's adjoint (the derivative of the root by it) and the same sum of absolute terms, the
 * scale its rounding is measured against. */
struct lc_adj {
	double d, m;
};

/* Passes node i's adjoint t to its operand k, times f. */
static void lc_pass(struct lc_adj *adj, int k, unsigned i, struct lc_adj t, double f)
{
	if (k >= 0 && (unsigned)k < i) {
		adj[k].d += t.d * f;
		adj[k].m += t.m * fabs(f);
	}
}

/* The gradient of node root over the variables at x (node values v) into g[0 .. nvar), by
 * reverse accumulation: operands come before the nodes that use them. */
static void lc_grad(const struct lab_lesson_claim *c, const int *var, const int *base,
                    const double *x, const double *v, int root, struct lc_adj *g, unsigned nvar)
{
	struct lc_adj adj[LAB_LESSON_NODES_MAX] = {{0}};

	memset(g, 0, nvar * sizeof(*g));
	adj[root] = (struct lc_adj){1, 1};
	for (unsigned i = (unsigned)root + 1; i-- > 0;) {
		const struct lab_lesson_node *n = &c->node[i];
		struct lc_adj t = adj[i];

		if (t.d == 0 && t.m == 0)
			continue;
		switch (n->op) {
		case LAB_LESSON_COST:
		case LAB_LESSON_METRIC:
			lc_pass(g, var[i], nvar, t, 1);
			break;
		case LAB_LESSON_THROUGHPUT: /* 1e9 / x */
			lc_pass(g, var[i], nvar, t, -v[i] / x[var[i]]);
			break;
		case LAB_LESSON_SPEEDUP: /* x[base] / x */
			lc_pass(g, base[i], nvar, t, 1 / x[var[i]]);
			lc_pass(g, var[i], nvar, t, -v[i] / x[var[i]]);
			break;
		case LAB_LESSON_NEG:
			lc_pass(adj, n->a, i, t, -1);
			break;
		case LAB_LESSON_ADD:
		case LAB_LESSON_SUB:
			lc_pass(adj, n->a, i, t, 1);
			lc_pass(adj, n->b, i, t, n->op == LAB_LESSON_ADD ? 1 : -1);
			break;
		case LAB_LESSON_MUL:
			lc_pass(adj, n->a, i, t, v[n->b]);
			lc_pass(adj, n->b, i, t, v[n->a]);
			break;
		case LAB_LESSON_DIV:
			lc_pass(adj, n->a, i, t, 1 / v[n->b]);
			lc_pass(adj, n->b, i, t, -v[i] / v[n->b]);
			break;
		default:
			break;
		}
	}
}

/* Whether the derivative d, a sum of terms of absolute sum m, is 0 but for its rounding: a few
 * hundred operations' (a claim of 256 nodes), relative to its terms and not to the constants
 * beside them (cost > 1e20 was taken for a constant when its values were compared). */
static bool lc_zero(double d, double m)
{
	return isfinite(d) && isfinite(m) && fabs(d) <= 1024 * DBL_EPSILON * m;
}

/* Whether, at x, neither the sides' difference (*diff_flat) nor their ratio (*ratio_flat)
 * changes with any variable: their gradients are 0. Clears the flags that do not hold. */
static void lc_flat(const struct lab_lesson_claim *c, const int *var, const int *base,
                    const double *x, const double *v, unsigned nvar, bool *diff_flat,
                    bool *ratio_flat)
{
	struct lc_adj gl[LAB_LESSON_VARS_MAX], gr[LAB_LESSON_VARS_MAX];
	double l = v[c->lhs], r = v[c->rhs];

	lc_grad(c, var, base, x, v, c->lhs, gl, nvar);
	lc_grad(c, var, base, x, v, c->rhs, gr, nvar);
	*ratio_flat &= isfinite(l) && isfinite(r) && r != 0;
	for (unsigned k = 0; k < nvar; k++) {
		*diff_flat &= lc_zero(gl[k].d - gr[k].d, gl[k].m + gr[k].m);
		/* (l / r)' = 0 where l' r - l r' = 0 */
		*ratio_flat &=
		    lc_zero(gl[k].d * r - l * gr[k].d, gl[k].m * fabs(r) + fabs(l) * gr[k].m);
	}
}

/* Whether node id's range keeps one sign: above 0 throughout, or below. */
static bool lc_signed(const struct lab_lesson_claim *c, int id, lab_lesson_leaf_range *leaf,
                      void *ctx)
{
	double r[2];

	lab_lesson_range(c, id, leaf, ctx, r);
	return r[0] > 0 || r[1] < 0;
}

int lab_lesson_constant(const struct lab_lesson_claim *c, const int *var, const int *base,
                        unsigned nvar, lab_lesson_leaf_range *leaf, void *ctx, double *diff)
{
	double x[LAB_LESSON_VARS_MAX], v[LAB_LESSON_NODES_MAX], d0 = NAN;
	uint64_t s = 0x9e3779b97f4a7c15ull; /* a fixed seed: the same answer every run */
	bool same_diff = true, same_ratio = true, none = true;

	if (nvar > LAB_LESSON_VARS_MAX || c->lhs < 0 || c->rhs < 0 ||
	    (unsigned)c->lhs >= c->nnode || (unsigned)c->rhs >= c->nnode)
		return 0;
	for (unsigned k = 0; k < LAB_LESSON_DRAWS && (same_diff || same_ratio || none); k++) {
		/* log-uniform in [1e-3, 1e9): a cost in ns, a rate, a count or a share */
		for (unsigned i = 0; i < nvar; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			x[i] = pow(10, 12 * (double)(s >> 11) / 9007199254740992.0 - 3);
		}
		lc_values(c, var, base, x, v);
		double d = v[c->lhs] - v[c->rhs];
		if (!isfinite(d))
			continue;
		if (none)
			d0 = d;
		none = false;
		lc_flat(c, var, base, x, v, nvar, &same_diff, &same_ratio);
	}
	if (none) { /* no value at any means: a divisor that cancels to 0 */
		*diff = NAN;
		return 1;
	}
	/* a fixed ratio fixes the verdict only where each side keeps its sign */
	same_ratio = same_ratio && !same_diff && lc_signed(c, c->lhs, leaf, ctx) &&
	             lc_signed(c, c->rhs, leaf, ctx);
	if (!same_diff && !same_ratio)
		return 0;
	*diff = same_diff ? d0 : NAN;
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
