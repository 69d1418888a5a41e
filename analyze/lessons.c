/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Evaluation of lessons (analyze/lessons.h): selectors -> point means; Q, its interval and the
 * verdict are lessons_judge.c's. */
#include "analyze/lessons.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/domain.h"
#include "analyze/lessons_int.h"
#include "analyze/levels.h"
#include "analyze/stats.h"
#include "harness/lessons.h"
#include "harness/record_schema.h"

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

/* What the planner refuses in a selector, found only in a run.json edited by hand: a data
 * error (lab_an_lessons_eval), never a lesson "not run". */
__attribute__((format(printf, 2, 3))) static int ev_refuse(struct ev *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	e->refused = 1;
	return -1;
}

/* 1 when s holds a control byte (no config can). */
static int ev_has_control(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* The selectors of e's claim as the planner checks them: no control byte (no config can hold
 * one) and threads a whole number >= 1. 0, or -1 with e refused. (A key the experiment's
 * points do not have is "not run": older and hand-made files write fewer params.) */
static int ev_sels_planned(struct ev *e)
{
	const struct lab_lesson_claim *c = e->c;

	for (unsigned s = 0; s < c->nsel; s++) {
		const struct lab_lesson_sel *sel = &c->sel[s];
		char *end;

		if (ev_has_control(sel->experiment))
			return ev_refuse(e, "an experiment name with a control byte");
		for (unsigned k = 0; k < sel->nparam; k++) {
			const char *key = sel->key[k], *v = sel->value[k];
			long t;

			if (ev_has_control(key) || ev_has_control(v))
				return ev_refuse(e, "[%s]: a selector with a control byte",
				                 sel->experiment);
			if (strcmp(key, "threads"))
				continue;
			t = strtol(v, &end, 10);
			if (*end || end == v || t < 1 || t > 1048576)
				return ev_refuse(
				    e, "[%s]: threads=%.32s is no thread count (1 .. 1048576)",
				    sel->experiment, v);
		}
	}
	return 0;
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

/* The number of points sel names at threads_at (the candidates the index gives, each once). */
static size_t ev_named(const struct ev *e, const struct lab_lesson_sel *sel, int threads_at,
                       const struct lab_an_point **found)
{
	const size_t *list;
	size_t m = lab__lesson_candidates(e->px, sel, threads_at, &list), prev = (size_t)-1, n = 0;

	/* m == (size_t)-1 without a list: no index, or no item to look up; 0: none named */
	for (size_t k = 0; k < (list ? m : m ? e->d->npt : 0); k++) {
		size_t i = list ? e->px->pt[list[k]] : k;

		if (i == prev) /* a point whose params name the same item twice */
			continue;
		prev = i;
		lab__lesson_probe();
		if (ev_point_matches(&e->d->pt[i], sel, threads_at) && !n++)
			*found = &e->d->pt[i];
	}
	return n;
}

/* 1 when a point of sel's experiment is the one sel names but with an amount spelled otherwise
 * (tile=4K where sel writes tile=4096): the expr is not the planner's canonical form, a data
 * error (review34: it said "not in this run's plan"); the point's spelling into spelled. The
 * selector with each such item spelled as the points spell it must name a point (review35: a
 * selector of a key no point has, respelled alone, was refused for a point that was not there).
 * A not-run path only. */
static int ev_spelled_otherwise(const struct ev *e, const struct lab_lesson_sel *sel,
                                int threads_at, char *spelled, size_t len)
{
	struct lab_lesson_sel as = *sel;
	char have[LAB_LESSON_PARAMS_MAX][320];
	const struct lab_an_point *p;
	unsigned first = LAB_LESSON_PARAMS_MAX;

	for (unsigned k = 0; k < sel->nparam && k < LAB_LESSON_PARAMS_MAX; k++)
		if (lab__lesson_spelled(e->px, e->d, sel->experiment, sel->key[k], sel->value[k],
		                        have[k], sizeof(have[k])) &&
		    strlen(have[k]) > strlen(sel->key[k])) { /* "key=value", not cut in the key */
			first = first < k ? first : k;
			as.value[k] = have[k] + strlen(sel->key[k]) + 1; /* "key=value" */
		}
	if (first == LAB_LESSON_PARAMS_MAX || !ev_named(e, &as, threads_at, &p))
		return 0;
	size_t l = strlen(have[first]);

	l = l < len ? l : len - 1; /* len > 0: the caller's buffer */
	memcpy(spelled, have[first], l);
	spelled[l] = '\0';
	return 1;
}

/* The one point sel names (threads_at >= 0: at that thread count), or NULL with the reason. */
static const struct lab_an_point *ev_point(struct ev *e, const struct lab_lesson_sel *sel,
                                           int threads_at)
{
	const struct lab_an_point *found = NULL;
	char what[320];
	size_t n = ev_named(e, sel, threads_at, &found);

	ev_sel_text(sel, threads_at, what, sizeof(what));
	if (n == 1)
		return found;
	if (n > 1) { /* the planner refuses a selector of several points */
		ev_refuse(e, "[%s] %s names %zu points (the selector must name one)",
		          sel->experiment, what, n);
		return NULL;
	}
	if (!lab_an_data_experiment(e->d, sel->experiment)) {
		int any = lab__lesson_has_experiment(e->px, sel->experiment);
		for (size_t i = 0; !e->px->ok && i < e->d->npt && !any; i++)
			any = !strcmp(e->d->pt[i].experiment, sel->experiment);
		if (!any) {
			ev_notrun(e, "experiment [%s] was not run (--only, or an older run.json)",
			          sel->experiment);
			return NULL;
		}
	}
	char spelled[320];
	if (ev_spelled_otherwise(e, sel, threads_at, spelled, sizeof(spelled))) {
		ev_refuse(e,
		          "[%s] %s names a point that writes %s: one amount spelled two ways, "
		          "which the planner's expr never is",
		          sel->experiment, what, spelled);
		return NULL;
	}
	/* the planner lets a selector name no point; what planned none is then the config's
	 * sweep, a --set (only when the command line had one) or the machine */
	long want = lab_lesson_sel_threads(sel),
	     most = want > 0 ? lab__lesson_max_team(e->px, sel->experiment) : 0;
	if (most > 0 && want > most) {
		ev_notrun(e,
		          "[%s] has no point with %s: its teams here have at most %ld thread%s "
		          "(threads = max stands for the CPUs this run could use%s)",
		          sel->experiment, what, most, most == 1 ? "" : "s",
		          e->px->no_set ? "" : ", or a --set narrowed the sweep");
		return NULL;
	}
	ev_notrun(e,
	          "[%s] has no point with %s (not in this run's plan: %sthe config's sweep does "
	          "not have it, or depends on the machine, as threads = 1..max does)",
	          sel->experiment, what,
	          e->px->no_set ? "" : "a --set may have narrowed the sweep, ");
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
	/* said after whether the claim measures anything at all (ev_cancels): a rerun does not
	 * help a claim that always holds */
	if (p->st.n == 0) {
		ev_notrun(e,
		          "[%s] %s has no used samples (%zu flagged for foreign load or "
		          "run-queue wait: rerun on a quiet machine; --include-flagged shows "
		          "their numbers, but a busy machine's numbers decide no lesson)",
		          p->experiment, what, p->n_flagged);
		e->nodata = 1;
		return (int)e->nvar++;
	}
	if (metric >= 0) {
		const struct lab_an_msum *m = lab_an_msum_of(p, (size_t)metric);
		if (!m || m->n == 0) {
			ev_notrun(e, "[%s] %s recorded no %s", p->experiment, what, metric_name);
			e->nodata = 1;
			return (int)e->nvar++;
		}
		/* the se itself: the interval is clipped to the metric's domain */
		double se = m->se;
		v->mean = m->mean;
		v->v = isfinite(se) ? se * se : 0;
		v->n = m->runs ? m->runs : m->n; /* from run means: runs - 1 df */
		v->runs = m->runs != 0;
	} else if (p->levels.runs >= 2 && isfinite(p->levels.run_ci95_hi) &&
	           isfinite(p->levels.run_ci95_lo)) {
		v->mean = p->levels.mean;
		v->v = p->levels.run_se * p->levels.run_se;
		v->n = p->levels.runs;
		v->runs = 1;
	} else {
		v->mean = p->st.mean;
		v->v = p->st.se * p->st.se;
		v->n = p->st.n;
	}
	return (int)e->nvar++;
}

/* The column of metric name in the data (through the index when it was built); -1: none. */
static int ev_metric_index(const struct ev *e, const char *name)
{
	const struct lab_an_data *d = e->d;

	if (e->px->ok) { /* the loader refused a name twice: the set's numbers are the columns */
		size_t i = lab_an_strset_find(&e->px->metrics, name);
		return i < d->nmetric ? (int)i : -1;
	}
	for (size_t i = 0; i < d->nmetric; i++)
		if (!strcmp(d->metric_name[i], name))
			return (int)i;
	return -1;
}

/* Whether v is a mean over run means, and its between-run variance into *sb2: a cost's from its
 * point's levels (one sample a run leaves it unknown: the run means' own variance bounds it); a
 * metric's from the variance of its run means (its se^2 x runs), which bounds it so too. */
static int ev_var_between(const struct ev_var *v, double *sb2)
{
	const struct lab_an_levels *lv = &v->pt->levels;
	const struct lab_an_msum *m =
	    v->metric >= 0 ? lab_an_msum_of(v->pt, (size_t)v->metric) : NULL;

	if (v->metric >= 0) {
		if (!m || m->runs < 2 || v->n != m->runs)
			return 0;
		*sb2 = v->v * (double)v->n;
		return 1;
	}
	if (!lab_an_point_by_runs(v->pt) || v->n != lv->runs)
		return 0;
	*sb2 = isfinite(lv->var_between) ? lv->var_between
	                                 : lv->run_se * lv->run_se * (double)lv->runs;
	return 1;
}

/* Whether metric column m spreads in proportion to its size (a count, a latency, a time, a
 * rate: its between-run variance lent relative to the mean), or by amounts (a share, an index, a
 * drift: lent as it is; a share near 0 lent 50 % of a share at 0.95 relative, review34). */
static int ev_scale_like(const struct ev *e, int m)
{
	enum lab_domain dom = e->d->metric_dom && m >= 0 && (size_t)m < e->d->nmetric
	                          ? (enum lab_domain)e->d->metric_dom[m]
	                          : LAB_DOM_UNKNOWN;

	return m < 0 || dom == LAB_DOM_NONNEG || dom == LAB_DOM_SPAN;
}

/* The mixed level, as lab_an_cost_moments takes a ratio of two costs: where some means of one
 * quantity (the cost, or one metric) are over run means and others one setup's samples, each
 * one-setup mean of two or more samples takes, besides its samples' variance, the largest
 * between-run variance of the others of that quantity (relative to the mean where it is
 * scale-like, ev_scale_like) and their run count (one setup's samples say nothing of setups: a
 * difference held where the same claim as a ratio was inconclusive; a metric's one-setup mean
 * lent nothing and held 14 % of the time at the true value, precision33). The claim's df is
 * then at most that run count - 1 (e->df_max): both variances rest on that one estimate. A
 * ratio of two costs (ev_ci_mono) lends by itself, from the points. */
static void ev_lend_mixed(struct ev *e)
{
	for (unsigned k = 0; k < e->nvar; k++) {
		int q = e->var[k].metric, first = 1, rel = ev_scale_like(e, q);
		double lend = 0, sb2;
		size_t runs = 0;

		for (unsigned i = 0; i < k && first; i++)
			first = e->var[i].metric != q;
		for (unsigned i = k; first && i < e->nvar; i++) {
			const struct ev_var *v = &e->var[i];
			double r;
			if (v->metric != q || !ev_var_between(v, &sb2))
				continue;
			r = rel ? sb2 / (v->mean * v->mean) : sb2;
			if (isfinite(r) && r > lend) {
				lend = r;
				runs = v->n;
			}
		}
		for (unsigned i = k; lend > 0 && i < e->nvar; i++) {
			struct ev_var *v = &e->var[i];
			if (v->metric != q || ev_var_between(v, &sb2) || v->n < 2)
				continue;
			v->v += rel ? lend * v->mean * v->mean : lend;
			v->n = runs;
			v->runs = 1;
			e->df_max = fmin(e->df_max, (double)runs - 1);
		}
	}
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
		/* samples.csv names every metric of every experiment run.json lists */
		if (n->op == LAB_LESSON_METRIC && (metric = ev_metric_index(e, n->metric)) < 0)
			return lab_an_data_experiment(e->d, sel->experiment)
			           ? ev_refuse(e, "no metric '%.64s' in samples.csv", n->metric)
			           : ev_notrun(e, "no metric '%.64s' in samples.csv", n->metric);
		const struct lab_an_point *p = ev_point(e, sel, -1);
		if (!p || (e->leaf[i] = ev_var_of(e, p, metric, sel, n->metric)) < 0)
			return -1;
		if (n->op != LAB_LESSON_SPEEDUP)
			continue;
		if (p->threads == 1) /* the planner refuses it; its baseline is itself */
			return ev_notrun(
			    e,
			    "speedup of [%s] at threads=1 is 1 by definition (a speedup "
			    "needs a point at threads=N with N > 1)",
			    sel->experiment);
		const struct lab_an_point *b = ev_point(e, sel, 1);
		if (!b || (e->base[i] = ev_var_of(e, b, -1, sel, NULL)) < 0)
			return -1;
	}
	ev_lend_mixed(e);
	return 0;
}

/* The range of leaf i for lab_lesson_fixed: a cost, throughput or speedup above 0, a metric its
 * domain at its point's threads. */
static void ev_fixed_leaf(void *ctx, const struct lab_lesson_claim *c, unsigned i, double r[2])
{
	const struct ev *e = ctx;
	const struct ev_var *v = &e->var[e->leaf[i]];

	lab_lesson_leaf_positive(c->node[i].op, r);
	if (c->node[i].op == LAB_LESSON_METRIC && v->metric >= 0 &&
	    (size_t)v->metric < e->d->nmetric && e->d->metric_dom)
		lab_domain_range((enum lab_domain)e->d->metric_dom[v->metric], v->pt->threads,
		                 &r[0], &r[1]);
}

/* A claim whose verdict cannot depend on the data (cost(a) / cost(a) >= 1: its means cancel;
 * cost(a) > 0: its quantities' ranges decide it) is not judged; the planner refuses it, an
 * older one did not. 0, or -1 with the reason. */
static int ev_cancels(struct ev *e)
{
	double diff, d[2];
	char why[320];

	int kind = lab_lesson_constant(e->c, e->leaf, e->base, e->nvar, ev_fixed_leaf, e, &diff);
	int fixed = kind ? 0 : lab_lesson_fixed(e->c, ev_fixed_leaf, e, d);

	if (kind || fixed) { /* the reason before a point's missing data */
		e->why[0] = '\0';
		return ev_notrun(e, "%s",
		                 kind ? lab_lesson_constant_why(kind, diff, why, sizeof(why))
		                      : lab_lesson_fixed_why(fixed, d, why, sizeof(why)));
	}
	return e->nodata ? -1 : 0;
}

/* ---- Q as a value with its gradient over the vars ---- */

/* Judges lesson jl into out; 1 when run.json states a claim the planner refuses (out->text
 * then says why), else 0. */
static int ev_lesson(const struct lab_an_data *d, struct ev_pindex *px,
                     const struct lab_an_json *jl, struct lab_an_lesson *out)
{
	int refused = 0;

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
	if (lab_lesson_check(c, &err)) { /* what the planner refuses, from a run.json by hand */
		snprintf(out->text, sizeof(out->text),
		         "not run: run.json's claim is not one a config may state: %s", err.msg);
		lab_lesson_claim_free(c);
		goto out;
	}
	*e = (struct ev){.d = d, .px = px, .c = c, .df_max = INFINITY};
	if (ev_sels_planned(e) || ev_resolve(e) || ev_cancels(e)) {
		snprintf(out->text, sizeof(out->text), "%s%s",
		         e->refused ? "" : "not run: ", e->why);
		refused = e->refused;
	} else {
		lab__lesson_judge(e, out);
		lab__lesson_notes(e, out);
	}
	lab_lesson_claim_free(c);
out:
	free(c);
	free(e);
	return refused;
}

/* The expr of lesson jl when a selector value of it is written otherwise than in its claim (the
 * planner's canonical form: L1/2 as 24K, max as 2), so the reader sees what was judged; NULL
 * when they are written alike, or on no memory. */
static char *ev_checked_as(const struct lab_an_json *jl)
{
	const char *claim = lab_an_json_str(jl, "claim"), *expr = lab_an_json_str(jl, "expr");
	struct lab_lesson_claim *c = calloc(2, sizeof(*c));
	struct lab_err err = {0};
	int differ = 0;

	if (!c || !claim || !expr || lab_lesson_parse(expr, &c[1], &err)) {
		free(c);
		return NULL;
	}
	if (lab_lesson_parse(claim, &c[0], &err) || c[0].nsel != c[1].nsel)
		differ = 1;
	for (unsigned i = 0; !differ && i < c[0].nsel; i++)
		for (unsigned k = 0; k < c[0].sel[i].nparam && k < c[1].sel[i].nparam; k++)
			differ |= strcmp(c[0].sel[i].value[k], c[1].sel[i].value[k]) != 0;
	lab_lesson_claim_free(&c[0]);
	lab_lesson_claim_free(&c[1]);
	free(c);
	return differ ? strdup(expr) : NULL;
}

/* A lesson whose name an earlier one has: configs refuse that, so run.json was edited; the first
 * is judged, and this one says why it is not (two verdicts under one name would contradict). */
static void ev_lesson_again(struct lab_an_lesson *out)
{
	out->verdict = LAB_AN_NOT_RUN;
	out->value = out->lo = out->hi = NAN;
	out->cmp = "";
	snprintf(out->text, sizeof(out->text),
	         "not run: a second lesson of this name (a config names each lesson once; the "
	         "first is judged)");
}

int lab_an_lessons_eval(const struct lab_an_data *d, struct lab_an_lessons *out,
                        struct lab_err *err)
{
	const struct lab_an_json *arr = d->run ? lab_an_json_get(d->run, "lessons") : NULL;
	struct lab_an_strset names = {0}; /* borrowed from run.json */
	struct ev_pindex px;
	int added = 1;

	memset(out, 0, sizeof(*out));
	if (!arr || arr->type != LAB_AN_JSON_ARR || !arr->n)
		return 0;
	out->l = calloc(arr->n, sizeof(*out->l));
	if (!out->l)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (lab__lesson_index(&px, d)) { /* out of memory: the selectors scan every point */
		lab__lesson_index_free(&px);
		px.ok = 0;
	}
	for (size_t i = 0; i < arr->n; i++) {
		const struct lab_an_json *jl = &arr->items[i];
		const char *name = lab_an_json_str(jl, "name"),
		           *claim = lab_an_json_str(jl, "claim");
		struct lab_an_lesson *l = &out->l[out->n++];
		l->name = strdup(name ? name : "(unnamed)");
		l->claim = strdup(claim ? claim : "");
		l->file = strdup(lab_an_json_str(jl, "file") ? lab_an_json_str(jl, "file") : "");
		if (!l->name || !l->claim || !l->file ||
		    (name && lab_an_strset_add(&names, name, &added) == (size_t)-1)) {
			lab__lesson_index_free(&px);
			lab_an_strset_free(&names);
			lab_an_lessons_free(out);
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
		}
		if (name && !added) {
			ev_lesson_again(l);
			continue;
		}
		if (ev_lesson(d, &px, jl, l)) {
			int rc =
			    lab_err_set(err, LAB_EDATA,
			                "%s/%s:%u: lesson '%s': %s, allowed: a claim the planner "
			                "accepts for this run's experiments",
			                d->source, LAB_FILE_RUN, jl->line, l->name, l->text);
			lab__lesson_index_free(&px);
			lab_an_strset_free(&names);
			lab_an_lessons_free(out);
			return rc;
		}
		l->checked = ev_checked_as(jl);
	}
	lab__lesson_index_free(&px);
	lab_an_strset_free(&names);
	return 0;
}

void lab_an_lessons_free(struct lab_an_lessons *ls)
{
	for (size_t i = 0; i < ls->n; i++) {
		free(ls->l[i].name);
		free(ls->l[i].claim);
		free(ls->l[i].file);
		free(ls->l[i].checked);
	}
	free(ls->l);
	memset(ls, 0, sizeof(*ls));
}
