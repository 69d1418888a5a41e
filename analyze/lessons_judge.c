/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A lesson's quantity Q from its point means, Q's 95 % interval (Fieller for a ratio of two
 * means, t for one, the delta method otherwise) and the verdict (analyze/lessons.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyze/domain.h"
#include "analyze/lessons_int.h"
#include "analyze/stats.h"

const char *lab_an_verdict_name(enum lab_an_verdict v)
{
	static const char *const names[] = {"holds", "fails", "inconclusive", "not run"};

	return names[v];
}

static double ev_eval(const struct ev *e, int id, double *g)
{
	const struct lab_lesson_node *n = &e->c->node[id];
	double ga[EV_VARS_MAX], gb[EV_VARS_MAX], a, b;

	memset(g, 0, e->nvar * sizeof(*g));
	switch (n->op) {
	case LAB_LESSON_NUM:
		return n->num;
	case LAB_LESSON_COST:
	case LAB_LESSON_METRIC:
		g[e->leaf[id]] = 1;
		return e->var[e->leaf[id]].mean;
	case LAB_LESSON_THROUGHPUT: { /* 1e9 / cost: units per second */
		double x = e->var[e->leaf[id]].mean;
		g[e->leaf[id]] = -1e9 / (x * x);
		return 1e9 / x;
	}
	case LAB_LESSON_SPEEDUP: {
		double x = e->var[e->leaf[id]].mean, base = e->var[e->base[id]].mean;
		if (e->base[id] == e->leaf[id])
			return 1; /* the point is its own baseline */
		g[e->base[id]] = 1 / x;
		g[e->leaf[id]] = -base / (x * x);
		return base / x;
	}
	case LAB_LESSON_NEG:
		a = ev_eval(e, n->a, ga);
		for (unsigned i = 0; i < e->nvar; i++)
			g[i] = -ga[i];
		return -a;
	default:
		break;
	}
	a = ev_eval(e, n->a, ga);
	b = ev_eval(e, n->b, gb);
	for (unsigned i = 0; i < e->nvar; i++)
		g[i] = n->op == LAB_LESSON_ADD   ? ga[i] + gb[i]
		       : n->op == LAB_LESSON_SUB ? ga[i] - gb[i]
		       : n->op == LAB_LESSON_MUL ? ga[i] * b + a * gb[i]
		                                 : (ga[i] * b - a * gb[i]) / (b * b);
	return n->op == LAB_LESSON_ADD   ? a + b
	       : n->op == LAB_LESSON_SUB ? a - b
	       : n->op == LAB_LESSON_MUL ? a * b
	                                 : a / b;
}

/* Q = k * prod var_i^p[i]: fills k and p; -1 when the side is not such a product. */
static int ev_mono(const struct ev *e, int id, double *k, int *p)
{
	const struct lab_lesson_node *n = &e->c->node[id];
	double kb;
	int pb[EV_VARS_MAX];

	memset(p, 0, e->nvar * sizeof(*p));
	*k = 1;
	switch (n->op) {
	case LAB_LESSON_NUM:
		*k = n->num;
		return 0;
	case LAB_LESSON_COST:
	case LAB_LESSON_METRIC:
		p[e->leaf[id]] = 1;
		return 0;
	case LAB_LESSON_THROUGHPUT:
		*k = 1e9;
		p[e->leaf[id]] = -1;
		return 0;
	case LAB_LESSON_SPEEDUP:
		p[e->base[id]] += 1;
		p[e->leaf[id]] -= 1;
		return 0;
	case LAB_LESSON_NEG:
		if (ev_mono(e, n->a, k, p))
			return -1;
		*k = -*k;
		return 0;
	case LAB_LESSON_MUL:
	case LAB_LESSON_DIV:
		if (ev_mono(e, n->a, k, p) || ev_mono(e, n->b, &kb, pb))
			return -1;
		for (unsigned i = 0; i < e->nvar; i++)
			p[i] += n->op == LAB_LESSON_MUL ? pb[i] : -pb[i];
		*k = n->op == LAB_LESSON_MUL ? *k * kb : *k / kb;
		return 0;
	default:
		return -1;
	}
}

static int ev_has_data(const struct ev *e, int id)
{
	const struct lab_lesson_node *n = &e->c->node[id];

	if (lab_lesson_func_name(n->op))
		return 1;
	if (n->op == LAB_LESSON_NUM)
		return 0;
	return ev_has_data(e, n->a) || (n->op != LAB_LESSON_NEG && ev_has_data(e, n->b));
}

/* The range r[0..1] that node id can take whatever the samples (interval arithmetic over the
 * ranges of its means: a cost, a throughput or a speedup >= 0, a metric its domain at its
 * point's threads, a number itself): the true value of Q lies in it, so clipping Q's interval
 * to it never loses coverage (a difference of two shares is in [-1, 1]). */
static void ev_leaf(void *ctx, const struct lab_lesson_claim *c, unsigned id, double r[2])
{
	const struct ev *e = ctx;

	r[0] = -INFINITY;
	r[1] = INFINITY;
	if (c->node[id].op != LAB_LESSON_METRIC) {
		r[0] = 0; /* a cost, a throughput or a speedup */
		return;
	}
	const struct ev_var *v = &e->var[e->leaf[id]];
	if (v->metric >= 0 && (size_t)v->metric < e->d->nmetric && e->d->metric_dom)
		lab_domain_range((enum lab_domain)e->d->metric_dom[v->metric], v->pt->threads,
		                 &r[0], &r[1]);
}

static void ev_range(const struct ev *e, int id, double r[2])
{
	lab_lesson_range(e->c, id, ev_leaf, (void *)e, r);
}

struct ev_q {
	double value, lo, hi;
	double k;
	int p[EV_VARS_MAX];
	int mono;
	const char *method;
	int unbounded; /* an interval exists but is not bounded: inconclusive */
};

/* The interval of Q from its product form, or -1 when the form has more than two means. */
static int ev_ci_mono(const struct ev *e, struct ev_q *q)
{
	int up = -1, down = -1, other = 0;

	for (unsigned i = 0; i < e->nvar; i++) {
		if (q->p[i] == 1 && up < 0)
			up = (int)i;
		else if (q->p[i] == -1 && down < 0)
			down = (int)i;
		else if (q->p[i] != 0)
			other = 1;
	}
	if (other || (up < 0 && down < 0))
		return -1;
	double lo, hi;
	if (up >= 0 && down >= 0) {
		const struct ev_var *x = &e->var[up], *y = &e->var[down];
		struct lab_an_ratio r;
		/* two costs: as the speedup tables take them (one of a single run borrows the
		 * other's between-run share: the table and the lesson gave one speedup two
		 * intervals), and their ratio is positive */
		if (x->metric < 0 && y->metric < 0) {
			lab_an_cost_ratio(x->pt, y->pt, &r, NULL);
			lab_an_ratio_positive(&r);
		} else {
			lab_an_ratio_fieller_cap(x->mean, x->v, x->n, y->mean, y->v, y->n,
			                         e->df_max, 0.95, &r);
		}
		q->method = "fieller";
		if (!r.has_ci)
			return 0; /* lo, hi stay NaN */
		/* unbounded: judged on its one ray [lo, inf) where that is what is left of
		 * Fieller's set above 0 */
		if (r.unbounded && !(r.lo > 0 && isfinite(r.lo))) {
			q->unbounded = 1;
			return 0;
		}
		lo = r.lo;
		hi = r.hi;
	} else {
		const struct ev_var *x = &e->var[up >= 0 ? up : down];
		q->method = "t";
		if (x->n < 2)
			return 0;
		double m = lab_an_t_quantile(0.95, (double)x->n - 1) * sqrt(x->v);
		lo = x->mean - m;
		hi = x->mean + m;
		if (down >= 0) {
			/* a cost is positive: an interval reaching 0 leaves its inverse the ray
			 * [1 / hi, inf), as Fieller's does */
			if (x->metric < 0 && lo <= 0 && hi > 0)
				lo = 0;
			else if (lo <= 0 && hi >= 0) {
				q->unbounded = 1;
				return 0;
			}
			double t = 1 / hi;
			hi = lo > 0 ? 1 / lo : INFINITY;
			lo = t;
		}
	}
	q->lo = q->k >= 0 ? q->k * lo : q->k * hi;
	q->hi = q->k >= 0 ? q->k * hi : q->k * lo;
	return 0;
}

/* The delta-method interval of Q from its gradient g. */
static void ev_ci_delta(const struct ev *e, const double *g, struct ev_q *q)
{
	double var = 0, denom = 0;

	q->method = "delta";
	for (unsigned i = 0; i < e->nvar; i++) {
		double part = g[i] * g[i] * e->var[i].v;
		/* a mean of one sample that the value depends on: no interval (its variance reads
		 * 0, and a difference "held" on the other mean's noise alone) */
		if (g[i] != 0 && e->var[i].n < 2)
			return;
		if (part == 0)
			continue;
		var += part;
		denom += part * part / ((double)e->var[i].n - 1);
	}
	if (var == 0) {
		q->lo = q->hi = q->value;
		return;
	}
	double m = lab_an_t_quantile(0.95, fmin(var * var / denom, e->df_max)) * sqrt(var);
	q->lo = q->value - m;
	q->hi = q->value + m;
}

/* Whether the 95 % interval of node id's value reaches 0 (t for one mean, the delta method
 * otherwise); a value without an interval (one sample) cannot be said to stay off it. */
static int ev_spans_zero(const struct ev *e, int id)
{
	double g[EV_VARS_MAX];
	struct ev_q t = {.lo = NAN, .hi = NAN};

	t.value = ev_eval(e, id, g);
	ev_ci_delta(e, g, &t);
	return !(t.lo > 0 || t.hi < 0);
}

/* Whether a divisor inside node id may be 0 at 95 %: the delta method linearises 1 / x about x's
 * mean, which says nothing when x's own interval reaches 0 (1 / (a - b) with a - b = 3271
 * [-11070, 17610] "held" <= 0.01). Such a Q has no bounded interval. */
static int ev_divisor_at_zero(const struct ev *e, int id)
{
	const struct lab_lesson_node *n = &e->c->node[id];
	const struct ev_var *x;

	switch (n->op) {
	case LAB_LESSON_NUM:
	case LAB_LESSON_COST:
	case LAB_LESSON_METRIC:
		return 0;
	case LAB_LESSON_THROUGHPUT:
	case LAB_LESSON_SPEEDUP: /* a mean in the divisor */
		x = &e->var[e->leaf[id]];
		if (n->op == LAB_LESSON_SPEEDUP && e->base[id] == e->leaf[id])
			return 0;
		return x->n < 2 ||
		       x->mean - lab_an_t_quantile(0.95, (double)x->n - 1) * sqrt(x->v) <= 0;
	case LAB_LESSON_NEG:
		return ev_divisor_at_zero(e, n->a);
	case LAB_LESSON_DIV:
		if (ev_spans_zero(e, n->b))
			return 1;
		break;
	default:
		break;
	}
	return ev_divisor_at_zero(e, n->a) || ev_divisor_at_zero(e, n->b);
}

/* Clips Q's interval to the range Q can take (ev_range): Q is the side with data when the other
 * is a number (dl, dr: the sides have data), else lhs / rhs or lhs - rhs as ev_judge forms it. */
static void ev_clip(const struct ev *e, const struct lab_lesson_claim *c, int dl, int dr,
                    struct ev_q *q)
{
	double l[2], r[2], t[2];

	if (isnan(q->lo) || isnan(q->hi))
		return;
	ev_range(e, dl ? c->lhs : c->rhs, l);
	if (dl && dr) {
		ev_range(e, c->rhs, r);
		lab_lesson_range_op(q->mono ? LAB_LESSON_DIV : LAB_LESSON_SUB, l, r, t);
		l[0] = t[0];
		l[1] = t[1];
	}
	if (!isnan(l[0]) && q->lo < l[0])
		q->lo = l[0];
	if (!isnan(l[1]) && q->hi > l[1])
		q->hi = l[1];
}

/* Writes a side of the claim into buf, in parentheses when it is a sum, or, as the divisor
 * (divisor 1), a product or quotient too ("A / (0.5 * B)": it read "A / 0.5 * B", (A/0.5)·B). */
static void ev_side(const struct lab_lesson_claim *c, int id, int divisor, char *buf, size_t len)
{
	enum lab_lesson_op op = c->node[id].op;
	int paren = op == LAB_LESSON_ADD || op == LAB_LESSON_SUB ||
	            (divisor && (op == LAB_LESSON_MUL || op == LAB_LESSON_DIV));

	if (paren && len > 2) {
		buf[0] = '(';
		lab_lesson_format(c, id, buf + 1, len - 2);
		strcat(buf, ")");
	} else {
		lab_lesson_format(c, id, buf, len);
	}
}

/* Q, c and the comparison of the claim; the interval; the verdict. */
static void ev_judge(struct ev *e, struct lab_an_lesson *out)
{
	const struct lab_lesson_claim *c = e->c;
	enum lab_lesson_cmp cmp = c->cmp;
	static const enum lab_lesson_cmp flip[] = {LAB_LESSON_LE, LAB_LESSON_LT, LAB_LESSON_GE,
	                                           LAB_LESSON_GT};
	double g[EV_VARS_MAX], gb[EV_VARS_MAX], kb;
	int pb[EV_VARS_MAX];
	struct ev_q q = {.lo = NAN, .hi = NAN};
	int dl = ev_has_data(e, c->lhs), dr = ev_has_data(e, c->rhs);
	char a[256], b[256];

	if (!dl || !dr) { /* one side is a constant: Q is the other */
		int qs = dl ? c->lhs : c->rhs, cs = dl ? c->rhs : c->lhs;
		if (!dl)
			cmp = flip[cmp];
		out->bound = ev_eval(e, cs, gb);
		q.value = ev_eval(e, qs, g);
		q.mono = ev_mono(e, qs, &q.k, q.p) == 0;
		lab_lesson_format(c, qs, out->quantity, sizeof(out->quantity));
	} else if (ev_mono(e, c->lhs, &q.k, q.p) == 0 && ev_mono(e, c->rhs, &kb, pb) == 0 &&
	           kb != 0) { /* a ratio of products, compared with 1 */
		double vl = ev_eval(e, c->lhs, g), vr = ev_eval(e, c->rhs, gb);
		for (unsigned i = 0; i < e->nvar; i++) {
			q.p[i] -= pb[i];
			g[i] = (g[i] * vr - vl * gb[i]) / (vr * vr);
		}
		q.k /= kb;
		q.mono = 1;
		q.value = vl / vr;
		out->bound = 1;
		ev_side(c, c->lhs, 0, a, sizeof(a));
		ev_side(c, c->rhs, 1, b, sizeof(b));
		snprintf(out->quantity, sizeof(out->quantity), "%s / %s", a, b);
	} else { /* a difference, compared with 0 */
		double vl = ev_eval(e, c->lhs, g), vr = ev_eval(e, c->rhs, gb);
		for (unsigned i = 0; i < e->nvar; i++)
			g[i] -= gb[i];
		q.value = vl - vr;
		out->bound = 0;
		lab_lesson_format(c, c->lhs, a, sizeof(a));
		ev_side(c, c->rhs, 0, b, sizeof(b));
		snprintf(out->quantity, sizeof(out->quantity), "%s - %s", a, b);
	}
	/* (a claim whose means cancel, C / C, is not judged: lessons.c) */
	if (!(q.mono && ev_ci_mono(e, &q) == 0)) {
		ev_ci_delta(e, g, &q);
		/* Q = lhs / rhs when both are products with data (out->bound 1) */
		q.unbounded = ev_divisor_at_zero(e, c->lhs) || ev_divisor_at_zero(e, c->rhs) ||
		              (dl && dr && q.mono && ev_spans_zero(e, c->rhs));
		if (q.unbounded) /* no interval to show: the delta method's is not one */
			q.lo = q.hi = NAN;
	}
	ev_clip(e, c, dl, dr, &q);
	out->cmp = lab_lesson_cmp_name(cmp);
	out->value = q.value;
	out->lo = q.lo;
	out->hi = q.hi;
	out->method = q.method;
	double x = out->bound;
	int ge = cmp == LAB_LESSON_GE || cmp == LAB_LESSON_GT,
	    strict = cmp == LAB_LESSON_GT || cmp == LAB_LESSON_LT;
	/* one end may be infinite (Fieller's ray), never both */
	if (!isfinite(q.value) || q.unbounded || isnan(q.lo) || isnan(q.hi) ||
	    (isinf(q.lo) && isinf(q.hi)))
		out->verdict = LAB_AN_INCONCLUSIVE;
	else if (ge ? (strict ? q.lo > x : q.lo >= x) : (strict ? q.hi < x : q.hi <= x))
		out->verdict = LAB_AN_HOLDS;
	else if (ge ? (strict ? q.hi <= x : q.hi < x) : (strict ? q.lo >= x : q.lo > x))
		out->verdict = LAB_AN_FAILS;
	else
		out->verdict = LAB_AN_INCONCLUSIVE;
}

/* The verdict sentence; why: the reason a verdict is inconclusive other than its interval, after
 * lead where there is an interval to read (where it lay), else in place of the guess at why
 * there is none; nmin: the fewest samples behind one of its means (runs where nruns). 1 when
 * the sentence holds why. */
static int ev_text(struct lab_an_lesson *l, const char *lead, const char *why, size_t nmin,
                   int nruns)
{
	const char *how = !l->method                      ? ""
	                  : !strcmp(l->method, "fieller") ? ", Fieller"
	                  : !strcmp(l->method, "t")       ? ", t"
	                                                  : ", delta method";
	const char *vn = lab_an_verdict_name(l->verdict);

	/* -0 (a negated cost's end at 0) is said as 0 */
	l->value += 0.0;
	l->lo += 0.0;
	l->hi += 0.0;
	int bounded = isfinite(l->value) && !isnan(l->lo) && !isnan(l->hi) &&
	              (isfinite(l->lo) || isfinite(l->hi));

	if (bounded) {
		char lo[32] = "unbounded", hi[32] = "unbounded"; /* never "inf" as a value */

		if (isfinite(l->lo))
			snprintf(lo, sizeof(lo), "%.4g", l->lo);
		if (isfinite(l->hi))
			snprintf(hi, sizeof(hi), "%.4g", l->hi);
		snprintf(l->text, sizeof(l->text),
		         "%s: %s = %.4g %s%s, %s%s (95 %%%s%s); claim %s %g%s%s", vn, l->quantity,
		         l->value, isfinite(l->lo) ? "[" : "(", lo, hi, isfinite(l->hi) ? "]" : ")",
		         how,
		         isfinite(l->lo) && isfinite(l->hi)
		             ? ""
		             : ": the denominator is not clearly away from 0, the numerator is",
		         l->cmp, l->bound, why[0] ? lead : "",
		         why[0]                       ? why
		         : l->verdict == LAB_AN_HOLDS ? ": the whole interval satisfies it"
		         : l->verdict == LAB_AN_FAILS ? ": the whole interval violates it"
		                                      : ": the interval straddles the bound");
	} else if (isfinite(l->value)) {
		/* the samples behind it first: 2 a side read as if the load alone had left no
		 * interval (newcomer44); then the reason known (one kept setup, samples under
		 * load): a point of one kept sample read "a denominator not clearly away from 0" */
		char few[96] = " (a denominator not clearly away from 0)";

		if (nmin <= 3)
			snprintf(few, sizeof(few),
			         " (as few as %zu %s%s behind a mean: too few to bound it)", nmin,
			         nruns ? "run" : "sample", nmin == 1 ? "" : "s");
		snprintf(l->text, sizeof(l->text),
		         "%s: %s = %.4g, no bounded 95 %% interval%s%s%s; claim %s %g", vn,
		         l->quantity, l->value, why[0] && nmin > 3 ? "" : few, why[0] ? ";" : "",
		         why, l->cmp, l->bound);
		return why[0] != 0;
	} else /* never "inf" or "nan" as if they were values */
		snprintf(l->text, sizeof(l->text),
		         "%s: %s has no value on these means (a division by 0, or past the range "
		         "of a double); claim %s %g",
		         vn, l->quantity, l->cmp, l->bound);
	return bounded && why[0];
}

/* Whether two of e's means are one point's (two metrics, or its cost and a metric): their
 * samples are paired, and the intervals here take means as independent, too wide where the
 * two move together and too narrow where they move apart (review37: test_ns / ref_ns "held"
 * on samples whose paired interval straddled), said into why. */
static int ev_paired(const struct ev *e, char *why, size_t len)
{
	for (unsigned i = 0; i < e->nvar; i++)
		for (unsigned j = i + 1; j < e->nvar; j++) {
			const struct ev_var *a = &e->var[i], *b = &e->var[j];

			if (a->pt != b->pt || a->metric == b->metric)
				continue;
			snprintf(why, len,
			         " %s and %s are means of one point (%ld) over the same samples, "
			         "which the interval takes as independent: write the claim on a "
			         "column the kernel records per sample (a difference or a ratio "
			         "of the two)",
			         a->metric < 0 ? "its cost" : e->d->metric_name[a->metric],
			         b->metric < 0 ? "its cost" : e->d->metric_name[b->metric],
			         a->pt->id);
			return 1;
		}
	return 0;
}

void lab__lesson_judge(struct ev *e, struct lab_an_lesson *out)
{
	/* why: the reason the verdict is inconclusive other than its interval (" point 7 kept
	 * ..."), after lead, which says where the interval lay */
	char why[400] = "", one[300];
	const char *lead = "";
	int loaded;

	ev_judge(e, out);
	out->loaded = loaded = lab__lesson_flagged(e, &out->flagged, &out->samples);
	/* said whenever it applies: a narrow straddling interval of one setup reads as if a few
	 * more samples would tip it */
	if (lab__lesson_one_setup(e, one, sizeof(one))) {
		lead = out->verdict == LAB_AN_INCONCLUSIVE ? ": the interval straddles the bound;"
		                                           : ":";
		snprintf(why, sizeof(why), "%s", one + 1); /* one: ": point ..." */
	} else if (ev_paired(e, why, sizeof(why))) {
		lead = out->verdict == LAB_AN_INCONCLUSIVE ? ": the interval straddles the bound;"
		                                           : ":";
	}
	/* Most of its samples under foreign load: the loaded machine's numbers decide nothing (a
	 * sharded counter "failed" to beat a shared one at 1.14 where quiet runs read 4.0: on a
	 * vCPU shared with other tasks the shards lose their 1/threads scaling). After a one-setup
	 * reason, or where the text has no room for a reason, the note says it
	 * (lessons_notes.c). */
	else if ((out->load_said = loaded)) {
		/* which side its interval lay on, though it decides nothing */
		lead = out->verdict == LAB_AN_HOLDS   ? ": the whole interval satisfies it, but"
		       : out->verdict == LAB_AN_FAILS ? ": the whole interval violates it, but"
		                                      : ": the interval straddles the bound;";
		snprintf(why, sizeof(why),
		         " %zu of the %zu samples these means are from were flagged for load%s "
		         "(foreign CPU time or run-queue wait; kept by --include-flagged): a busy "
		         "machine's numbers decide nothing; rerun when quiet",
		         out->flagged, out->samples,
		         2 * out->flagged > out->samples ? "" : ", most of one point's");
	}
	if (loaded)
		out->verdict = LAB_AN_INCONCLUSIVE;
	if (why[0])
		out->verdict = LAB_AN_INCONCLUSIVE;
	size_t nmin = SIZE_MAX; /* the fewest samples (or runs) behind one of its means */
	int nruns = 0;          /* 1: that n counts runs (review44) */

	for (unsigned i = 0; i < e->nvar; i++)
		if (e->var[i].n < nmin) {
			nmin = e->var[i].n;
			nruns = e->var[i].runs;
		}
	out->load_said = ev_text(out, lead, why, nmin, nruns) && out->load_said;
}
