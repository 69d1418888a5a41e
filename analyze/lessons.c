/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Evaluation of lessons (analyze/lessons.h): selectors -> point means -> Q, its interval, the
 * verdict. */
#include "analyze/lessons.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "harness/lessons.h"

#define EV_VARS_MAX 64

/* One point mean the claim uses: a cost (metric < 0) or a metric of one point. */
struct ev_var {
	const struct lab_an_point *pt;
	int metric;
	double mean, v; /* v: variance of the mean */
	size_t n;       /* samples (or runs) behind it: df = n - 1 */
};

struct ev {
	const struct lab_an_data *d;
	const struct lab_lesson_claim *c;
	struct ev_var var[EV_VARS_MAX];
	unsigned nvar;
	int leaf[LAB_LESSON_NODES_MAX], base[LAB_LESSON_NODES_MAX]; /* var of each leaf */
	char why[512];                                              /* why not run */
};

const char *lab_an_verdict_name(enum lab_an_verdict v)
{
	static const char *const names[] = {"holds", "fails", "inconclusive", "not run"};

	return names[v];
}

__attribute__((format(printf, 2, 3))) static int ev_notrun(struct ev *e, const char *fmt, ...)
{
	va_list ap;

	if (!*e->why) {
		va_start(ap, fmt);
		vsnprintf(e->why, sizeof(e->why), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* "stride=8, threads=2" of sel, threads replaced by threads_at when >= 0. */
static void ev_sel_text(const struct lab_lesson_sel *sel, int threads_at, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < sel->nparam && used < len; i++) {
		int th = !strcmp(sel->key[i], "threads");
		if (th && threads_at >= 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "",
		                         sel->key[i], sel->value[i]);
	}
	if (threads_at >= 0 && used < len)
		snprintf(buf + used, len - used, "%sthreads=%d", used ? ", " : "", threads_at);
}

static int ev_point_matches(const struct lab_an_point *p, const struct lab_lesson_sel *sel,
                            int threads_at)
{
	char buf[256];

	if (strcmp(p->experiment, sel->experiment) != 0)
		return 0;
	if (threads_at >= 0 && p->threads != threads_at)
		return 0;
	for (unsigned i = 0; i < sel->nparam; i++) {
		const char *key = sel->key[i], *want = sel->value[i];
		if (!strcmp(key, "threads")) {
			if (threads_at < 0 && strtol(want, NULL, 10) != p->threads)
				return 0;
			continue;
		}
		const char *have = lab_an_params_get(p->params, key, buf, sizeof(buf));
		if (!have) /* keys the params text leaves out at their default */
			have = !strcmp(key, "membind")    ? "local"
			       : !strcmp(key, "perf_c2c") ? "off"
			                                  : "";
		if (strcmp(have, want) != 0)
			return 0;
	}
	return 1;
}

/* The one point sel names (threads_at >= 0: at that thread count), or NULL with the reason. */
static const struct lab_an_point *ev_point(struct ev *e, const struct lab_lesson_sel *sel,
                                           int threads_at)
{
	const struct lab_an_point *found = NULL;
	size_t n = 0;
	char what[320];

	ev_sel_text(sel, threads_at, what, sizeof(what));
	for (size_t i = 0; i < e->d->npt; i++)
		if (ev_point_matches(&e->d->pt[i], sel, threads_at) && !n++)
			found = &e->d->pt[i];
	if (n == 1)
		return found;
	if (n > 1) {
		ev_notrun(e, "[%s] %s names %zu points (the selector must name one)",
		          sel->experiment, what, n);
		return NULL;
	}
	if (!lab_an_data_experiment(e->d, sel->experiment)) {
		int any = 0;
		for (size_t i = 0; i < e->d->npt && !any; i++)
			any = !strcmp(e->d->pt[i].experiment, sel->experiment);
		if (!any) {
			ev_notrun(e, "experiment [%s] was not run (--only, or an older run.json)",
			          sel->experiment);
			return NULL;
		}
	}
	ev_notrun(e, "[%s] has no point with %s (a --set may have narrowed the sweep)",
	          sel->experiment, what);
	return NULL;
}

/* The var of point p (metric < 0: its cost), added when new; -1 with the reason. */
static int ev_var_of(struct ev *e, const struct lab_an_point *p, int metric,
                     const struct lab_lesson_sel *sel, const char *metric_name)
{
	char what[320];

	for (unsigned i = 0; i < e->nvar; i++)
		if (e->var[i].pt == p && e->var[i].metric == metric)
			return (int)i;
	ev_sel_text(sel, p->threads, what, sizeof(what));
	if (p->status && strcmp(p->status, "ok") != 0)
		return ev_notrun(e, "[%s] %s was %s%s%s", p->experiment, what, p->status,
		                 p->reason ? ": " : "", p->reason ? p->reason : "");
	if (e->nvar == EV_VARS_MAX)
		return ev_notrun(e, "the claim uses more than %d point means", EV_VARS_MAX);
	struct ev_var *v = &e->var[e->nvar];
	*v = (struct ev_var){.pt = p, .metric = metric};
	if (p->st.n == 0)
		return ev_notrun(e,
		                 "[%s] %s has no used samples (%zu flagged for foreign load: rerun "
		                 "on a quiet machine or analyze with --include-flagged)",
		                 p->experiment, what, p->n_flagged);
	if (metric >= 0) {
		const struct lab_an_msum *m = &p->msum[metric];
		if (m->n == 0)
			return ev_notrun(e, "[%s] %s recorded no %s", p->experiment, what,
			                 metric_name);
		double se = lab_an_se_of_tci(m->ci95_lo, m->ci95_hi, m->n, 0.95);
		v->mean = m->mean;
		v->v = isfinite(se) ? se * se : 0;
		v->n = m->n;
	} else if (p->levels.runs >= 2 && isfinite(p->levels.run_ci95_hi) &&
	           isfinite(p->levels.run_ci95_lo)) {
		double t = lab_an_t_quantile(0.95, (double)p->levels.runs - 1);
		double se = (p->levels.run_ci95_hi - p->levels.run_ci95_lo) / (2 * t);
		v->mean = p->levels.mean;
		v->v = se * se;
		v->n = p->levels.runs;
	} else {
		v->mean = p->st.mean;
		v->v = p->st.se * p->st.se;
		v->n = p->st.n;
	}
	return (int)e->nvar++;
}

static int ev_metric_index(const struct lab_an_data *d, const char *name)
{
	for (size_t i = 0; i < d->nmetric; i++)
		if (!strcmp(d->metric_name[i], name))
			return (int)i;
	return -1;
}

/* Resolves every leaf of the claim to its point means. */
static int ev_resolve(struct ev *e)
{
	const struct lab_lesson_claim *c = e->c;

	for (unsigned i = 0; i < c->nnode; i++) {
		const struct lab_lesson_node *n = &c->node[i];
		const struct lab_lesson_sel *sel =
		    n->sel >= 0 && (unsigned)n->sel < c->nsel && lab_lesson_func_name(n->op)
		        ? &c->sel[n->sel]
		        : NULL;
		e->leaf[i] = e->base[i] = -1;
		if (!sel)
			continue;
		int metric = -1;
		if (n->op == LAB_LESSON_METRIC && (metric = ev_metric_index(e->d, n->metric)) < 0)
			return ev_notrun(e, "no metric '%s' in samples.csv", n->metric);
		const struct lab_an_point *p = ev_point(e, sel, -1);
		if (!p || (e->leaf[i] = ev_var_of(e, p, metric, sel, n->metric)) < 0)
			return -1;
		if (n->op != LAB_LESSON_SPEEDUP)
			continue;
		const struct lab_an_point *b = ev_point(e, sel, 1);
		if (!b || (e->base[i] = ev_var_of(e, b, -1, sel, NULL)) < 0)
			return -1;
	}
	return 0;
}

/* ---- Q as a value with its gradient over the vars ---- */

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
		lab_an_ratio_fieller(x->mean, x->v, x->n, y->mean, y->v, y->n, 0.95, &r);
		q->method = "fieller";
		if (!r.has_ci)
			return 0; /* lo, hi stay NaN */
		if (r.unbounded) {
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
			if (lo <= 0 && hi >= 0) {
				q->unbounded = 1;
				return 0;
			}
			double t = 1 / hi;
			hi = 1 / lo;
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
		if (part == 0)
			continue;
		if (e->var[i].n < 2)
			return; /* a mean of one sample: no interval */
		var += part;
		denom += part * part / ((double)e->var[i].n - 1);
	}
	if (var == 0) {
		q->lo = q->hi = q->value;
		return;
	}
	double m = lab_an_t_quantile(0.95, var * var / denom) * sqrt(var);
	q->lo = q->value - m;
	q->hi = q->value + m;
}

/* Writes a side of the claim into buf, in parentheses when it is a sum. */
static void ev_side(const struct lab_lesson_claim *c, int id, char *buf, size_t len)
{
	enum lab_lesson_op op = c->node[id].op;
	int paren = op == LAB_LESSON_ADD || op == LAB_LESSON_SUB;

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
		ev_side(c, c->lhs, a, sizeof(a));
		ev_side(c, c->rhs, b, sizeof(b));
		snprintf(out->quantity, sizeof(out->quantity), "%s / %s", a, b);
	} else { /* a difference, compared with 0 */
		double vl = ev_eval(e, c->lhs, g), vr = ev_eval(e, c->rhs, gb);
		for (unsigned i = 0; i < e->nvar; i++)
			g[i] -= gb[i];
		q.value = vl - vr;
		out->bound = 0;
		lab_lesson_format(c, c->lhs, a, sizeof(a));
		ev_side(c, c->rhs, b, sizeof(b));
		snprintf(out->quantity, sizeof(out->quantity), "%s - %s", a, b);
	}
	if (!(q.mono && ev_ci_mono(e, &q) == 0))
		ev_ci_delta(e, g, &q);
	out->cmp = lab_lesson_cmp_name(cmp);
	out->value = q.value;
	out->lo = q.lo;
	out->hi = q.hi;
	out->method = q.method;
	double x = out->bound;
	int ge = cmp == LAB_LESSON_GE || cmp == LAB_LESSON_GT,
	    strict = cmp == LAB_LESSON_GT || cmp == LAB_LESSON_LT;
	if (!isfinite(q.value) || q.unbounded || !isfinite(q.lo) || !isfinite(q.hi))
		out->verdict = LAB_AN_INCONCLUSIVE;
	else if (ge ? (strict ? q.lo > x : q.lo >= x) : (strict ? q.hi < x : q.hi <= x))
		out->verdict = LAB_AN_HOLDS;
	else if (ge ? (strict ? q.hi <= x : q.hi < x) : (strict ? q.lo >= x : q.lo > x))
		out->verdict = LAB_AN_FAILS;
	else
		out->verdict = LAB_AN_INCONCLUSIVE;
}

static void ev_text(struct lab_an_lesson *l)
{
	const char *how = !l->method                      ? ""
	                  : !strcmp(l->method, "fieller") ? ", Fieller"
	                  : !strcmp(l->method, "t")       ? ", t"
	                                                  : ", delta method";
	const char *vn = lab_an_verdict_name(l->verdict);

	if (isfinite(l->lo) && isfinite(l->hi))
		snprintf(l->text, sizeof(l->text),
		         "%s: %s = %.4g [%.4g, %.4g] (95 %%%s); claim %s %g%s", vn, l->quantity,
		         l->value, l->lo, l->hi, how, l->cmp, l->bound,
		         l->verdict == LAB_AN_HOLDS   ? ": the whole interval satisfies it"
		         : l->verdict == LAB_AN_FAILS ? ": the whole interval violates it"
		                                      : ": the interval straddles the bound");
	else
		snprintf(l->text, sizeof(l->text),
		         "%s: %s = %.4g, no bounded 95 %% interval (too "
		         "few samples or a denominator not clearly away from 0); claim %s %g",
		         vn, l->quantity, l->value, l->cmp, l->bound);
}

static void ev_lesson(const struct lab_an_data *d, const struct lab_an_json *jl,
                      struct lab_an_lesson *out)
{
	const char *expr = lab_an_json_str(jl, "expr");
	struct lab_lesson_claim *c = calloc(1, sizeof(*c));
	struct ev *e = calloc(1, sizeof(*e));
	struct lab_err err = {0};

	out->verdict = LAB_AN_NOT_RUN;
	out->value = out->lo = out->hi = NAN;
	out->cmp = "";
	if (!c || !e) {
		snprintf(out->text, sizeof(out->text), "not run: out of memory");
		goto out;
	}
	if (!expr || lab_lesson_parse(expr, c, &err)) {
		snprintf(out->text, sizeof(out->text),
		         "not run: run.json gives no claim that parses%s%s", expr ? ": " : "",
		         expr ? err.msg : "");
		goto out;
	}
	*e = (struct ev){.d = d, .c = c};
	if (ev_resolve(e)) {
		snprintf(out->text, sizeof(out->text), "not run: %s", e->why);
	} else {
		ev_judge(e, out);
		ev_text(out);
	}
	lab_lesson_claim_free(c);
out:
	free(c);
	free(e);
}

int lab_an_lessons_eval(const struct lab_an_data *d, struct lab_an_lessons *out,
                        struct lab_err *err)
{
	const struct lab_an_json *arr = d->run ? lab_an_json_get(d->run, "lessons") : NULL;

	memset(out, 0, sizeof(*out));
	if (!arr || arr->type != LAB_AN_JSON_ARR || !arr->n)
		return 0;
	out->l = calloc(arr->n, sizeof(*out->l));
	if (!out->l)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < arr->n; i++) {
		const struct lab_an_json *jl = &arr->items[i];
		const char *name = lab_an_json_str(jl, "name"),
		           *claim = lab_an_json_str(jl, "claim");
		struct lab_an_lesson *l = &out->l[out->n++];
		l->name = strdup(name ? name : "(unnamed)");
		l->claim = strdup(claim ? claim : "");
		l->file = strdup(lab_an_json_str(jl, "file") ? lab_an_json_str(jl, "file") : "");
		if (!l->name || !l->claim || !l->file) {
			lab_an_lessons_free(out);
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		}
		ev_lesson(d, jl, l);
	}
	return 0;
}

void lab_an_lessons_free(struct lab_an_lessons *ls)
{
	for (size_t i = 0; i < ls->n; i++) {
		free(ls->l[i].name);
		free(ls->l[i].claim);
		free(ls->l[i].file);
	}
	free(ls->l);
	memset(ls, 0, sizeof(*ls));
}
