/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether a [lessons] claim can depend on the data at all: each cost, throughput, metric and
 * speedup baseline becomes a variable (the same point however its selectors spell it), and
 * lab_lesson_constant (lessons_check.c) takes the sides' gradients at random values of them. A
 * claim whose sides keep one difference or one ratio measures nothing and is refused at its line;
 * so is one the ranges its quantities can take decide alone (metric(jain_fairness, ...) >= 0.5 at
 * 2 threads, cost(...) > 0: lessons_range.c).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/lessons.h"
#include "harness/metric_domain.h"
#include "harness/plan_lessons_int.h"

/* The variable of quantity node i of c for lab_lesson_constant: one per point (cost and
 * throughput) and per point and metric, numbered as first seen in key[0 .. *nvar). A selector
 * of no planned point (threads=3 on a machine of 2 CPUs) is its own point, the same as another
 * that names the same values: whether a claim cancels does not depend on the machine. */
struct pl_var {
	unsigned exp, pt;
	const struct lab_lesson_sel *sel; /* a point not planned: by its selector's values; a
	                                     planned one: its items relative to the machine */
	const char *metric;               /* NULL: the point's cost */
};

/* Whether the items of a written relative to the machine (threads=max) are b's, as written. */
static bool pl_written_in(const struct lab_lesson_sel *a, const struct lab_lesson_sel *b)
{
	for (unsigned i = 0; i < a->nparam; i++) {
		unsigned j = 0;
		if (!a->written[i])
			continue;
		while (j < b->nparam && strcmp(a->key[i], b->key[j]))
			j++;
		if (j == b->nparam || !b->written[j] || strcasecmp(a->written[i], b->written[j]))
			return false;
	}
	return true;
}

/* Whether a and b (NULL: a speedup's baseline, written plainly) write the same items relative
 * to the machine alike. */
static bool pl_written_same(const struct lab_lesson_sel *a, const struct lab_lesson_sel *b)
{
	static const struct lab_lesson_sel plain;

	a = a ? a : &plain;
	b = b ? b : &plain;
	return pl_written_in(a, b) && pl_written_in(b, a);
}

/* Whether selectors a and b name the same values (canonical: pl_value; as written where that
 * is relative to the machine), in any order. */
static bool pl_sel_same(const struct lab_lesson_sel *a, const struct lab_lesson_sel *b)
{
	if (strcmp(a->experiment, b->experiment) || a->nparam != b->nparam)
		return false;
	for (unsigned i = 0; i < a->nparam; i++) {
		unsigned j = 0;
		while (j < b->nparam && strcmp(a->key[i], b->key[j]))
			j++;
		if (j == b->nparam || strcmp(a->value[i], b->value[j]))
			return false;
	}
	return pl_written_in(a, b) && pl_written_in(b, a);
}

/* The var of the point sel resolved to at (a point not planned: by its selector's values). Of
 * one planned point, the items written relative to the machine tell vars apart too: on 2 CPUs
 * threads=max is threads=2's point, and a claim that compares them cancels there only; a key
 * that changes nothing (lock=tas of a sweep of tas alone) does not. */
static int pl_var(struct pl_var *key, unsigned *nvar, struct lab__pl_at at,
                  const struct lab_lesson_sel *sel, const char *metric)
{
	for (unsigned v = 0; v < *nvar; v++)
		if (key[v].exp == at.exp && key[v].pt == at.pt &&
		    (at.pt != PL_NOPOINT ? pl_written_same(key[v].sel, sel)
		     : sel               ? key[v].sel && pl_sel_same(key[v].sel, sel)
		                         : !key[v].sel) &&
		    (metric ? key[v].metric && !strcmp(key[v].metric, metric) : !key[v].metric))
			return (int)v;
	key[*nvar] = (struct pl_var){at.exp, at.pt, sel, metric};
	return (int)(*nvar)++;
}

/* The point a speedup of sel divides by: sel at threads = 1 (PL_NOPOINT: none planned). */
static struct lab__pl_at pl_base(struct lab__pl_ctx *x, const struct lab_lesson_sel *sel,
                                 struct lab__pl_at at)
{
	static char threads[] = "threads", one_thread[] = "1";
	struct lab_lesson_sel one = *sel;
	unsigned i = 0;

	while (i < one.nparam && strcmp(one.key[i], "threads"))
		i++;
	if (i == LAB_LESSON_PARAMS_MAX || !x->index[at.exp]) { /* an experiment of no points */
		at.pt = PL_NOPOINT;
		return at;
	}
	if (i == one.nparam)
		one.key[one.nparam++] = threads;
	one.value[i] = one_thread;
	if (lab__sel_count(x->index[at.exp], &one, &at.pt) != 1)
		at.pt = PL_NOPOINT;
	return at;
}

/* The thread count of the point sel resolved to at: the selector's threads=N; else 0 where the
 * experiment's threads depend on the machine (max: a Jain claim at threads=max was refused on
 * 1 CPU and planned on 4), a range then the widest of any team; else the planned point's. A
 * threads=N is N on every machine that runs it (Jain >= 0.5 at threads=2 planned where the
 * sweep named max). */
static long pl_sel_threads(const struct lab__pl_ctx *x, const struct lab_lesson_sel *sel,
                           struct lab__pl_at at)
{
	long n = lab_lesson_sel_threads(sel);
	if (n > 0 || at.exp >= x->plan->nexp)
		return n;
	struct lab_experiment *ep = &x->plan->exp[at.exp];
	const struct lab_resolved *r = lab__plan_key(ep, "threads");

	if (r && r->text && strcasestr(r->text, "max"))
		return 0;
	if (at.pt != PL_NOPOINT && at.pt < ep->npoints)
		return (long)x->plan->pts[ep->first_point + at.pt].nthreads;
	return 0;
}

struct pl_leaves {
	const struct lab__pl_ctx *x;
	const struct lab__pl_at *at;
};

/* The range of leaf i: a cost, throughput or speedup above 0, a metric its domain at its
 * point's threads (harness/metric_domain.h). */
static void pl_leaf(void *ctx, const struct lab_lesson_claim *c, unsigned i, double r[2])
{
	const struct pl_leaves *p = ctx;
	const struct lab_lesson_node *n = &c->node[i];

	if (n->op != LAB_LESSON_METRIC) {
		lab_lesson_leaf_positive(n->op, r);
		return;
	}
	lab_domain_range(lab_domain_of(n->metric),
	                 pl_sel_threads(p->x, &c->sel[n->sel], p->at[n->sel]), &r[0], &r[1]);
}

bool lab__plan_claim_cancels(struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                             const struct lab__pl_at *at, char *why, size_t len)
{
	struct pl_var key[LAB_LESSON_VARS_MAX]; /* 8 KiB */
	int var[LAB_LESSON_NODES_MAX], base[LAB_LESSON_NODES_MAX];
	unsigned nvar = 0, fresh = 0;
	double diff;

	for (unsigned i = 0; i < c->nnode; i++) {
		const struct lab_lesson_node *n = &c->node[i];
		struct lab__pl_at b;

		if (!lab_lesson_func_name(n->op))
			continue;
		var[i] = pl_var(key, &nvar, at[n->sel], &c->sel[n->sel],
		                n->op == LAB_LESSON_METRIC ? n->metric : NULL);
		if (n->op != LAB_LESSON_SPEEDUP)
			continue;
		b = pl_base(x, &c->sel[n->sel], at[n->sel]);
		if (b.pt == PL_NOPOINT) /* a variable of its own */
			b = (struct lab__pl_at){PL_NOPOINT - 1, fresh++};
		base[i] = pl_var(key, &nvar, b, NULL, NULL);
	}
	struct pl_leaves p = {x, at};
	int kind = lab_lesson_constant(c, var, base, nvar, pl_leaf, &p, &diff);
	if (kind)
		lab_lesson_constant_why(kind, diff, why, len);
	return kind != 0;
}

bool lab__plan_claim_fixed(const struct lab__pl_ctx *x, const struct lab_lesson_claim *c,
                           const struct lab__pl_at *at, char *why, size_t len)
{
	struct pl_leaves p = {x, at};
	double d[2];
	int fixed = lab_lesson_fixed(c, pl_leaf, &p, d);

	if (fixed)
		lab_lesson_fixed_why(fixed, d, why, len);
	return fixed != 0;
}
