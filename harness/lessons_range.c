/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The range a claim's side can take whatever is measured (interval arithmetic over the ranges
 * of its means), and a claim whose verdict that range alone decides (harness/lessons.h). The
 * analyzer clips a lesson's interval to it; the planner refuses a claim it decides
 * (metric(jain_fairness, ...) >= 0.5 at 2 threads, cost(...) > 0: they measure nothing).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/lessons.h"

/* The product of two interval ends, with 0 x inf = 0 (an end of a closed range). */
static double lr_mul(double a, double b)
{
	return a == 0 || b == 0 ? 0 : a * b;
}

/* The quotient of two interval ends for a divisor range of one sign: x / 0 = +-inf (0 / 0 =
 * 0) and inf / inf = inf, the widest value either end could take. */
static double lr_div(double a, double b)
{
	if (b == 0)
		return a == 0 ? 0 : a > 0 ? INFINITY : -INFINITY;
	if (isinf(a) && isinf(b))
		return (a > 0) == (b > 0) ? INFINITY : -INFINITY;
	return a / b;
}

void lab_lesson_range_op(enum lab_lesson_op op, const double a[2], const double b[2], double r[2])
{
	double c[4];

	r[0] = -INFINITY;
	r[1] = INFINITY;
	if (op == LAB_LESSON_ADD || op == LAB_LESSON_SUB) {
		int s = op == LAB_LESSON_SUB;
		c[0] = a[0] + (s ? -b[1] : b[0]);
		c[1] = a[1] + (s ? -b[0] : b[1]);
		if (!isnan(c[0]) && !isnan(c[1])) { /* inf - inf: no bound */
			r[0] = c[0];
			r[1] = c[1];
		}
		return;
	}
	if (op == LAB_LESSON_DIV && b[0] < 0 && b[1] > 0)
		return; /* a divisor of either sign: no bound */
	for (int i = 0; i < 4; i++)
		c[i] =
		    op == LAB_LESSON_MUL ? lr_mul(a[i / 2], b[i % 2]) : lr_div(a[i / 2], b[i % 2]);
	r[0] = fmin(fmin(c[0], c[1]), fmin(c[2], c[3]));
	r[1] = fmax(fmax(c[0], c[1]), fmax(c[2], c[3]));
}

void lab_lesson_range(const struct lab_lesson_claim *c, int id, lab_lesson_leaf_range *leaf,
                      void *ctx, double r[2])
{
	const struct lab_lesson_node *n;
	double a[2], b[2];

	r[0] = -INFINITY;
	r[1] = INFINITY;
	if (id < 0 || (unsigned)id >= c->nnode)
		return;
	n = &c->node[id];
	if (n->op == LAB_LESSON_NUM) {
		r[0] = r[1] = n->num;
		return;
	}
	if (lab_lesson_func_name(n->op)) {
		leaf(ctx, c, (unsigned)id, r);
		return;
	}
	/* operands come before the node that uses them (lab_lesson_parse) */
	if (n->a >= id || (n->op != LAB_LESSON_NEG && n->b >= id))
		return;
	lab_lesson_range(c, n->a, leaf, ctx, a);
	if (n->op == LAB_LESSON_NEG) {
		r[0] = -a[1];
		r[1] = -a[0];
		return;
	}
	lab_lesson_range(c, n->b, leaf, ctx, b);
	lab_lesson_range_op(n->op, a, b, r);
}

void lab_lesson_leaf_positive(enum lab_lesson_op op, double r[2])
{
	const double lo = LAB_LESSON_COST_LO, hi = LAB_LESSON_COST_HI;

	r[0] = -INFINITY;
	r[1] = INFINITY;
	if (op == LAB_LESSON_COST) {
		r[0] = lo;
		r[1] = hi;
	} else if (op == LAB_LESSON_THROUGHPUT) {
		r[0] = 1e9 / hi;
		r[1] = 1e9 / lo;
	} else if (op == LAB_LESSON_SPEEDUP) {
		r[0] = lo / hi;
		r[1] = hi / lo;
	}
}

int lab_lesson_fixed(const struct lab_lesson_claim *c, lab_lesson_leaf_range *leaf, void *ctx,
                     double d[2])
{
	double l[2], r[2];

	lab_lesson_range(c, c->lhs, leaf, ctx, l);
	lab_lesson_range(c, c->rhs, leaf, ctx, r);
	lab_lesson_range_op(LAB_LESSON_SUB, l, r, d);
	if (isnan(d[0]) || isnan(d[1]))
		return 0;
	switch (c->cmp) {
	case LAB_LESSON_GE:
		return d[0] >= 0 ? 1 : d[1] < 0 ? -1 : 0;
	case LAB_LESSON_GT:
		return d[0] > 0 ? 1 : d[1] <= 0 ? -1 : 0;
	case LAB_LESSON_LE:
		return d[1] <= 0 ? 1 : d[0] > 0 ? -1 : 0;
	case LAB_LESSON_LT:
		return d[1] < 0 ? 1 : d[0] >= 0 ? -1 : 0;
	}
	return 0;
}

/* Range d as text: "[0, 0.5]", "(0, inf)" where an end is past what a quantity can reach (a
 * cost's LAB_LESSON_COST_LO and _HI stand for above 0 and no bound). */
static const char *lr_text(const double d[2], char *buf, size_t len)
{
	const double far = 1e80, near = 1e-80; /* past any quantity times a number (1e30) */
	char lo[40], hi[40];

	if (d[0] <= -far)
		snprintf(lo, sizeof(lo), "(-inf");
	else if (d[0] > 0 && d[0] < near)
		snprintf(lo, sizeof(lo), "(0");
	else
		snprintf(lo, sizeof(lo), "[%.4g", d[0]);
	if (d[1] >= far)
		snprintf(hi, sizeof(hi), "inf)");
	else if (d[1] < 0 && d[1] > -near)
		snprintf(hi, sizeof(hi), "0)");
	else
		snprintf(hi, sizeof(hi), "%.4g]", d[1]);
	snprintf(buf, len, "%s, %s", lo, hi);
	return buf;
}

const char *lab_lesson_fixed_why(int fixed, const double d[2], char *buf, size_t len)
{
	char range[96];

	snprintf(buf, len,
	         "the claim's verdict does not depend on what is measured: its left side less its "
	         "right lies in %s at any means its quantities can take (a cost, throughput or "
	         "speedup is above 0, a metric within its domain, as jain_fairness in [1/threads, "
	         "1]), so it %s",
	         lr_text(d, range, sizeof(range)), fixed > 0 ? "always holds" : "never holds");
	return buf;
}

long lab_lesson_sel_threads(const struct lab_lesson_sel *sel)
{
	for (unsigned i = 0; i < sel->nparam; i++)
		if (!strcmp(sel->key[i], "threads")) {
			if (sel->written[i])
				return 0;
			char *end;
			long t = strtol(sel->value[i], &end, 10);
			return *end || t < 1 ? 0 : t;
		}
	return 0;
}
