/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fit.h"
#include "analyze/flagged.h"
#include "analyze/levels.h"
#include "analyze/stats.h"
#include "analyze/views/views.h"
#include "harness/json.h"

/* The verdict of a point with one sample (or one run mean) on a side: no interval, no test. */
#define AN_UNTESTED "untested (one sample a side)"
/* a side planned 2+ runs kept fewer than 2 (an_cmp_one_setup) */
#define AN_ONE_SETUP "untested (one setup: fewer than 2 of its runs kept)"
/* most of a side's samples load-flagged and kept (an_cmp_loaded) */
#define AN_LOADED "untested (most samples load-flagged)"

const char *lab_an_compare_verdict(double p, double lo, double hi, double noise)
{
	if (!(p < 0.05))
		return "no change";
	if (hi < -noise)
		return "improved";
	if (lo > noise)
		return "regressed";
	/* significant, and inside the band: small for sure; reaching past it, its size is not
	 * known (-1.82 % [-3.52 %, -0.10 %] read "within noise (+-1%)", precision33) */
	if (lo >= -noise && hi <= noise)
		return "within noise";
	return "changed (size unclear)";
}

void lab_an_host_text(const struct lab_an_json *run, char *buf, size_t len)
{
	const struct lab_an_json *h = lab_an_json_get(run, "host");
	const char *name = lab_an_json_str(h, "hostname"), *cpu = lab_an_json_str(h, "cpu_model");
	double pus = lab_an_json_num(lab_an_json_get(h, "topology"), "pus", NAN);

	*buf = '\0'; /* a side that does not name its machine is not said to be another one */
	if (run && name && cpu && isfinite(pus))
		snprintf(buf, len, "%s, %s, %.0f PUs", name, cpu, pus);
}

/* The points of one side by (experiment, params, threads), the first loaded of each, so every
 * point is matched in O(1) expected time (a scan per point took 83 s at 100 000 points). Params
 * are matched by their amounts (lab_an_params_amounts): "stride=8" on one side is "stride=8B" on
 * the other, as within a run. */
struct an_cmp_side {
	const struct lab_an_data *d;
	struct lab_an_index ix;
	size_t *compared;
	char **amt; /* per point: its params with amounts in one unit */
};

struct an_cmp_key {
	const struct an_cmp_side *side;
	const struct lab_an_point *p;
	const char *amt;
};

static uint64_t an_cmp_hash(const struct lab_an_point *p, const char *amt)
{
	return lab_an_hash_str(
	    lab_an_hash_long(lab_an_hash_str(LAB_AN_HASH_INIT, p->experiment), p->threads), amt);
}

static int an_cmp_same(const void *ctx, size_t i)
{
	const struct an_cmp_key *k = ctx;
	const struct lab_an_point *q = &k->side->d->pt[i];

	(*k->side->compared)++;
	return q->threads == k->p->threads && !strcmp(q->experiment, k->p->experiment) &&
	       !strcmp(k->side->amt[i], k->amt);
}

/* The point of side s that matches point p, whose amounts are amt, or NULL. */
static const struct lab_an_point *an_match(const struct an_cmp_side *s,
                                           const struct lab_an_point *p, const char *amt)
{
	struct an_cmp_key k = {s, p, amt};
	size_t i = lab_an_index_find(&s->ix, an_cmp_hash(p, amt), an_cmp_same, &k);

	return i == (size_t)-1 ? NULL : &s->d->pt[i];
}

static int an_cmp_side_index(struct an_cmp_side *s)
{
	if (!(s->amt = calloc(s->d->npt + 1, sizeof(*s->amt))))
		return -1;
	for (size_t i = 0; i < s->d->npt; i++)
		if (!(s->amt[i] = lab_an_params_amounts(s->d->pt[i].params)))
			return -1;
	for (size_t i = 0; i < s->d->npt; i++)
		if (!an_match(s, &s->d->pt[i], s->amt[i]) &&
		    lab_an_index_add(&s->ix, an_cmp_hash(&s->d->pt[i], s->amt[i]), i))
			return -1;
	return 0;
}

static void an_cmp_side_free(struct an_cmp_side *s)
{
	for (size_t i = 0; s->amt && i < s->d->npt; i++)
		free(s->amt[i]);
	free(s->amt);
	lab_an_index_free(&s->ix);
}

/* The side whose rows are gone from a complete run's samples.csv (0 both, 1 old, 2 new) when
 * that is why matched points o and n have no samples there, else -1. */
static int an_gone(const struct lab_an_point *o, const struct lab_an_point *n)
{
	int go = !o->n && lab_an_rows_gone(o), gn = !n->n && lab_an_rows_gone(n);

	return go && gn ? 0 : go ? 1 : gn ? 2 : -1;
}

/* Why a point of status st did not run, as an_not_run's tables index it. */
static int an_not_run_k(const char *st)
{
	return !st                      ? 0
	       : !strcmp(st, "skipped") ? 1
	       : !strcmp(st, "failed")  ? 2
	       : !strcmp(st, "missing") || !strcmp(st, "not_run") || !strcmp(st, "planned") ||
	               !strcmp(st, "interrupted")
	           ? 3
	           : 0;
}

#define AN_GONE_OLD                                                                                \
	"not in old's samples.csv, though its complete run says it ran ok (removed after the "     \
	"run?)"
#define AN_GONE_NEW                                                                                \
	"not in new's samples.csv, though its complete run says it ran ok (removed after the "     \
	"run?)"
#define AN_NOT_REACHED "not finished: the run was interrupted, or is still going"

/* The verdict of a matched point with no samples on a side (skipped: say no second NUMA node;
 * failed; not reached by an interrupted run; its rows removed from a complete run): which side,
 * and why from run.json's status. */
static const char *an_not_run(const struct lab_an_point *o, const struct lab_an_point *n)
{
	static const char *const why[3][4] = {
	    {"did not run in either (skipped or failed)", "did not run in either (skipped)",
	     "did not run in either (failed)", "did not run in either (" AN_NOT_REACHED ")"},
	    {"did not run in old (skipped or failed)", "did not run in old (skipped)",
	     "did not run in old (failed)", "did not run in old (" AN_NOT_REACHED ")"},
	    {"did not run in new (skipped or failed)", "did not run in new (skipped)",
	     "did not run in new (failed)", "did not run in new (" AN_NOT_REACHED ")"}};
	/* one side's rows gone, the other not run (skipped there) */
	static const char *const mixed[2][4] = {
	    {AN_GONE_OLD "; did not run in new (skipped or failed)",
	     AN_GONE_OLD "; did not run in new (skipped)",
	     AN_GONE_OLD "; did not run in new (failed)",
	     AN_GONE_OLD "; did not run in new (" AN_NOT_REACHED ")"},
	    {AN_GONE_NEW "; did not run in old (skipped or failed)",
	     AN_GONE_NEW "; did not run in old (skipped)",
	     AN_GONE_NEW "; did not run in old (failed)",
	     AN_GONE_NEW "; did not run in old (" AN_NOT_REACHED ")"}};
	int side = !o->n && !n->n ? 0 : !o->n ? 1 : 2, gone = an_gone(o, n);
	const char *st = side == 2 ? n->status : o->status;
	int k = an_not_run_k(st);

	if (side == 0 && (!n->status || !st || strcmp(st, n->status)))
		k = 0; /* the two sides did not run for different reasons */
	if (gone == 0)
		return "not in either samples.csv, though both complete runs say it ran ok "
		       "(removed after the runs?)";
	if (gone > 0 && side == 0)
		return mixed[gone - 1][an_not_run_k(gone == 1 ? n->status : o->status)];
	if (gone > 0)
		return gone == 1 ? AN_GONE_OLD : AN_GONE_NEW;
	return why[side][k];
}

/* Why the costs of matched points o (of old) and n (of new_) are not the same quantity (a
 * results directory may have been edited, or come from another lab), or NULL. */
static const char *an_cmp_unlike(const struct lab_an_data *old, const struct lab_an_point *o,
                                 const struct lab_an_data *new_, const struct lab_an_point *n)
{
	const char *wo = lab_an_cost_whose(old, o), *wn = lab_an_cost_whose(new_, n);
	const char *uo = lab_an_point_unit(old, o), *un = lab_an_point_unit(new_, n);

	if (o->kernel && n->kernel && strcmp(o->kernel, n->kernel))
		return "not comparable: another kernel";
	if (uo && un && strcmp(uo, un))
		return "not comparable: another unit of work";
	if (wo && wn && strcmp(wo, wn))
		return "not comparable: another scope (whose time the cost is)";
	if (!wo != !wn) /* a per-thread cost against a team's could read as a change of x threads */
		return wo ? "not comparable: new does not say whose time its cost is (no known "
		            "work_scope)"
		          : "not comparable: old does not say whose time its cost is (no known "
		            "work_scope)";
	return NULL;
}

/* A side that planned two or more runs and kept fewer (lab_an_point_one_setup) is compared on
 * one setup's samples: their interval holds none of the setup-to-setup spread its runs were to
 * measure, so the verdict is held back (as a lesson is inconclusive) and the samples' kept in
 * samples_verdict; r->one_setup says which side and why. */
static void an_cmp_one_setup(struct lab_an_cmp_row *r, bool runs)
{
	char bo[96], bn[96];
	const char *o = runs ? NULL : lab_an_one_setup_flag(r->old, bo, sizeof(bo));
	const char *n = runs ? NULL : lab_an_one_setup_flag(r->new_, bn, sizeof(bn));

	if (!o && !n)
		return;
	snprintf(r->one_setup, sizeof(r->one_setup), "%s%s%s%s%s", o ? "old: " : "", o ? o : "",
	         o && n ? "; " : "", n ? "new: " : "", n ? n : "");
	if (!r->samples_verdict) /* a mixed row has the samples' own verdict already */
		r->samples_verdict = r->verdict;
	r->verdict = AN_ONE_SETUP;
}

/* How many of p's used samples were flagged for load and kept (--include-flagged),
 * into buf as "SIDE: F of N samples load-flagged" when more than half: a busy machine's
 * numbers, which a lesson does not judge either (lab__lesson_flagged). */
static bool an_side_loaded(const struct lab_an_point *p, const char *side, char *buf, size_t len)
{
	size_t mine = lab_an_flagged_kept(p);

	if (2 * mine <= p->n)
		return false;
	snprintf(buf, len, "%s: %zu of %zu samples load-flagged", side, mine, p->n);
	return true;
}

/* A side most of whose samples ran under foreign load: the verdict is held back, r->loaded
 * says which side. */
static void an_cmp_loaded(struct lab_an_cmp_row *r)
{
	char bo[72], bn[72];
	bool o = an_side_loaded(r->old, "old", bo, sizeof(bo));
	bool n = an_side_loaded(r->new_, "new", bn, sizeof(bn));

	if (!o && !n)
		return;
	snprintf(r->loaded, sizeof(r->loaded), "%s%s%s", o ? bo : "", o && n ? "; " : "",
	         n ? bn : "");
	r->verdict = AN_LOADED;
}

/* Counts row r by its verdict; a tested one of one run a side (runs: on run means) in
 * by_samples too. */
static void an_cmp_count(struct lab_an_compare *c, const struct lab_an_cmp_row *r, bool runs)
{
	if (r->one_setup[0])
		c->one_setup++;
	else if (r->loaded[0])
		c->loaded++;
	else if (!strcmp(r->verdict, AN_UNTESTED))
		c->untested++;
	else { /* tested: on run means (or mixed), or on samples */
		c->by_runs += runs;
		c->by_samples += !runs;
		if (!strcmp(r->verdict, "improved"))
			c->improved++;
		else if (!strcmp(r->verdict, "regressed"))
			c->regressed++;
		else if (!strcmp(r->verdict, "within noise"))
			c->within_noise++;
		else if (!strcmp(r->verdict, "changed (size unclear)"))
			c->unclear++;
		else
			c->no_change++;
	}
}

static void an_cmp_row(struct lab_an_compare *c, struct lab_an_cmp_row *r, const char *unlike)
{
	const struct lab_an_stats *a = &r->old->st, *b = &r->new_->st;
	struct lab_an_ratio q;

	r->change = r->lo = r->hi = NAN;
	r->p = NAN;
	if (unlike) {
		r->verdict = unlike;
		c->unlike++;
		return;
	}
	/* a side that did not end ok (failed, skipped) did not run, whatever the other's load */
	if (!strcmp(r->old->status, "ok") && !strcmp(r->new_->status, "ok") &&
	    (lab_an_flagged_all(r->old) || lab_an_flagged_all(r->new_))) {
		r->verdict = lab_an_flagged_all(r->old) && lab_an_flagged_all(r->new_)
		                 ? "all samples load-flagged in both"
		             : lab_an_flagged_all(r->old) ? "all old samples load-flagged"
		                                          : "all new samples load-flagged";
		c->flagged++;
		return;
	}
	if (!a->n || !b->n) {
		/* matched, just not comparable: counted apart from unmatched ones */
		r->verdict = an_not_run(r->old, r->new_);
		*(an_gone(r->old, r->new_) >= 0 ? &c->rows_gone : &c->not_run) += 1;
		return;
	}
	/* The run means carry the run-to-run noise the samples do not: both sides with runs
	 * compare them; one side with runs lends the other its between-run variance ("mixed",
	 * as the speedups and lessons take it: one setup's samples say nothing of setups). */
	struct lab_an_moments m;
	const char *level = lab_an_cost_moments(r->new_, r->old, &m);
	bool runs = strcmp(level, "samples") != 0;

	r->level = level;
	r->lent = m.lent;
	lab_an_ratio_fieller_cap(m.ma, m.va, m.na, m.mb, m.vb, m.nb, m.df_max, 0.95, &q);
	lab_an_ratio_positive(&q); /* a cost cannot fall by more than 100 % */
	r->change = q.est - 1;
	r->lo = q.has_ci ? q.lo - 1 : NAN;
	r->hi = q.has_ci ? q.hi - 1 : NAN;
	r->p = q.has_ci ? lab_an_welch_p_cap(m.ma, m.va, m.na, m.mb, m.vb, m.nb, m.df_max) : NAN;
	r->verdict = q.has_ci ? lab_an_compare_verdict(r->p, r->lo, r->hi, c->noise) : AN_UNTESTED;
	if (runs) { /* the within-run verdict, for the record: too eager when runs differ */
		double p =
		    lab_an_welch_p(b->mean, b->se * b->se, b->n, a->mean, a->se * a->se, a->n);
		lab_an_ratio_fieller(b->mean, b->se * b->se, b->n, a->mean, a->se * a->se, a->n,
		                     0.95, &q);
		lab_an_ratio_positive(&q);
		r->samples_verdict = q.has_ci
		                         ? lab_an_compare_verdict(p, q.lo - 1, q.hi - 1, c->noise)
		                         : AN_UNTESTED;
	}
	an_cmp_one_setup(r, !strcmp(level, "runs")); /* a side that kept one of its runs */
	if (!r->one_setup[0])
		an_cmp_loaded(r);
	an_cmp_count(c, r, runs);
}

/* The view that shows o (of old) and n (of new_; either NULL: not asked) whose cost is not its
 * figure (lab_an_view.cost_is), else NULL. */
static const struct lab_an_view *an_fig_view(const struct lab_an_data *old,
                                             const struct lab_an_point *o,
                                             const struct lab_an_data *new_,
                                             const struct lab_an_point *n)
{
	char why[128];

	for (size_t i = 0; lab_an_views[i]; i++) {
		const struct lab_an_view *v = lab_an_views[i];

		/* a view declared for data it does not read (refused by lab analyze) is none */
		if (v->cost_is && (!o || v->applies(v, old, o)) && (!n || v->applies(v, new_, n)) &&
		    (!v->misfit || ((!o || !v->misfit(v, old, o, why, sizeof(why))) &&
		                    (!n || !v->misfit(v, new_, n, why, sizeof(why))))))
			return v;
	}
	return NULL;
}

/* What the cost of o and n is where their view's figure is not it (either may be NULL: a
 * point of one side), else NULL. */
static const char *an_cost_is(const struct lab_an_data *old, const struct lab_an_point *o,
                              const struct lab_an_data *new_, const struct lab_an_point *n)
{
	const struct lab_an_view *v = an_fig_view(old, o, new_, n);

	return v ? v->cost_is : NULL;
}

/* The summary of metric name at p of d, NULL when p has no value of it; its unit from run.json
 * into *unit (NULL when not said). */
static const struct lab_an_msum *an_fig_sum(const struct lab_an_data *d,
                                            const struct lab_an_point *p, const char *name,
                                            const char **unit)
{
	const struct lab_an_json *ms =
	    lab_an_json_get(lab_an_data_experiment(d, p->experiment), "metrics");

	for (size_t i = 0; ms && ms->type == LAB_AN_JSON_ARR && i < ms->n && !*unit; i++) {
		const char *mn = lab_an_json_str(&ms->items[i], "name");
		if (mn && !strcmp(mn, name))
			*unit = lab_an_json_str(&ms->items[i], "unit");
	}
	for (size_t m = 0; m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], name))
			return lab_an_msum_of(p, m);
	return NULL;
}

/* Row r's figure (compare.h), where its cost was compared: the difference of the figure's means
 * with a Welch interval, on run means where both sides have them and on samples where neither
 * has; not tested where only one has (its interval would hold one side's run-to-run spread and
 * not the other's) or where the cost's row was held back. */
static void an_cmp_fig(const struct lab_an_compare *c, struct lab_an_cmp_row *r,
                       const struct lab_an_data *old, const struct lab_an_data *new_)
{
	struct lab_an_cmp_fig *f = &r->fig;
	const struct lab_an_msum *a, *b;
	const char *uo = NULL, *un = NULL;

	const struct lab_an_view *v = an_fig_view(old, r->old, new_, r->new_);

	f->old_mean = f->new_mean = f->diff = f->lo = f->hi = f->p = NAN;
	r->cost_is = v ? v->cost_is : NULL;
	if (!v || !r->old->st.n || !r->new_->st.n || !(f->fig = v->figure))
		return;
	a = an_fig_sum(old, r->old, f->fig, &uo);
	b = an_fig_sum(new_, r->new_, f->fig, &un);
	f->unit = uo && un && !strcmp(uo, un) ? uo : NULL;
	if (!a || !b || !a->n || !b->n || (!uo != !un) || (uo && un && !f->unit)) {
		f->verdict = !a || !b || !a->n || !b->n ? "not compared: no value on a side"
		             : !uo != !un               ? "not comparable: a unit on one side only"
		                                        : "not comparable: another unit";
		return;
	}
	f->old_mean = a->mean;
	f->new_mean = b->mean;
	f->diff = b->mean - a->mean;
	if (r->one_setup[0] || r->loaded[0]) {
		f->verdict = r->verdict; /* held back as the cost's row is */
		return;
	}
	/* values in one of a side's 2 or more kept runs: one setup's, as a lesson takes them */
	if ((r->old->levels.runs >= 2 && !a->runs) || (r->new_->levels.runs >= 2 && !b->runs)) {
		f->verdict = "untested (one setup: values in one of a side's kept runs)";
		return;
	}
	if (!a->runs != !b->runs) {
		f->verdict = "untested (run means on one side only)";
		return;
	}
	/* a figure is a cost, >= 0 in truth: a mean at or below 0 is no value, as analyze says
	 * ("not measurable"), so 0 -> 300 ns is no regression and +707 -> -708 no gain (hostile40)
	 */
	if (!(a->mean > 0) || !(b->mean > 0)) {
		f->verdict = "untested (mean <= 0 on a side: below resolution or noise)";
		return;
	}
	size_t na = a->runs ? a->runs : a->n, nb = b->runs ? b->runs : b->n;
	double va = a->se * a->se, vb = b->se * b->se;
	double df = lab_an_welch_df(va, na, vb, nb);

	if (na < 2 || nb < 2 || !(df > 0) || !isfinite(va) || !isfinite(vb)) {
		f->verdict = AN_UNTESTED;
		return;
	}
	double t = isfinite(df) ? lab_an_t_quantile(0.95, df) : 1.959963984540054;
	double half = t * sqrt(va + vb);

	f->lo = f->diff - half;
	f->hi = f->diff + half;
	f->p = lab_an_welch_p(b->mean, vb, nb, a->mean, va, na);
	/* the noise band is relative to old's mean */
	f->verdict = lab_an_compare_verdict(f->p, f->lo / a->mean, f->hi / a->mean, c->noise);
}

int lab_an_compare_run(const struct lab_an_data *old, const struct lab_an_data *new_, double noise,
                       struct lab_an_compare *c, struct lab_err *err)
{
	struct an_cmp_side so = {old, {0}, NULL, NULL}, sn = {new_, {0}, NULL, NULL};
	int rc = 0;

	lab_an_gsl_quiet();
	memset(c, 0, sizeof(*c));
	so.compared = sn.compared = &c->compared;
	c->noise = noise;
	lab_an_build_text_vs(old->run, new_->run, c->build_old, sizeof(c->build_old));
	lab_an_build_text_vs(new_->run, old->run, c->build_new, sizeof(c->build_new));
	c->build_what = lab_an_build_diff(old->run, new_->run);
	c->builds_differ = c->build_what != 0;
	c->auto_old = lab_an_build_auto_points(old);
	c->auto_new = lab_an_build_auto_points(new_);
	lab_an_build_sanitize_pair(old->run, new_->run, c->sanitized, sizeof(c->sanitized));
	lab_an_host_text(old->run, c->host_old, sizeof(c->host_old));
	lab_an_host_text(new_->run, c->host_new, sizeof(c->host_new));
	c->hosts_differ = *c->host_old && *c->host_new && strcmp(c->host_old, c->host_new);
	c->row = calloc(old->npt + new_->npt + 1, sizeof(*c->row));
	if (!c->row || an_cmp_side_index(&so) || an_cmp_side_index(&sn)) {
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < old->npt; i++) {
		struct lab_an_cmp_row *r = &c->row[c->n++];

		r->old = &old->pt[i];
		r->new_ = an_match(&sn, r->old, so.amt[i]);
		r->unit = lab_an_point_unit(old, r->old);
		if (r->new_) {
			const char *unlike = an_cmp_unlike(old, r->old, new_, r->new_);

			an_cmp_row(c, r, unlike);
			if (!unlike)
				an_cmp_fig(c, r, old, new_);
			else /* its cost, test + reference, whatever the other side's is */
				r->cost_is = an_cost_is(old, r->old, NULL, NULL);
		} else {
			r->change = r->lo = r->hi = r->p = NAN;
			r->verdict = "only in old";
			r->cost_is = an_cost_is(old, r->old, NULL, NULL);
			c->unmatched++;
		}
	}
	for (size_t i = 0; i < new_->npt; i++) {
		struct lab_an_cmp_row *r;

		if (an_match(&so, &new_->pt[i], sn.amt[i]))
			continue;
		r = &c->row[c->n++];
		r->new_ = &new_->pt[i];
		r->unit = lab_an_point_unit(new_, r->new_);
		r->cost_is = an_cost_is(NULL, NULL, new_, r->new_);
		r->change = r->lo = r->hi = r->p = NAN;
		r->verdict = "only in new";
		c->unmatched++;
	}
out:
	an_cmp_side_free(&so);
	an_cmp_side_free(&sn);
	return rc;
}

/* --json's "builds": the builds run.json names (null for --csv input), the parts that differ,
 * the points that can change for it and the sanitizer note. */
static void an_json_builds(struct lab_json *w, const struct lab_an_compare *c)
{
	lab_json_obj_open(w, "builds");
	lab_json_str(w, "old", *c->build_old ? c->build_old : NULL);
	lab_json_str(w, "new", *c->build_new ? c->build_new : NULL);
	lab_json_bool(w, "differ", c->builds_differ);
	lab_json_arr_open(w, "what"); /* run.json's keys under "lab" that differ */
	for (unsigned i = 0; lab_an_build_part(i, 0); i++)
		if (c->build_what & 1u << i)
			lab_json_str(w, NULL, lab_an_build_part(i, 0));
	lab_json_arr_close(w);
	/* the points the difference can change: all, isa=auto or openmp */
	lab_json_str(w, "scope", c->builds_differ ? lab_an_build_diff_scope(c->build_what) : NULL);
	/* the isa=auto points of each side: with none, an auto kernels' difference changes none */
	lab_json_int(w, "auto_points_old", (long long)c->auto_old);
	lab_json_int(w, "auto_points_new", (long long)c->auto_new);
	/* either side's lab built with sanitizers: the note compare's text says, else null */
	lab_json_str(w, "sanitized", *c->sanitized ? c->sanitized : NULL);
	lab_json_obj_close(w);
}

/* A row's "figure" (compare.h), where its cost is not its view's figure. */
static void an_json_fig(struct lab_json *w, const struct lab_an_cmp_fig *g)
{
	if (!g->fig)
		return;
	lab_json_obj_open(w, "figure");
	lab_json_str(w, "metric", g->fig);
	lab_json_str(w, "unit", g->unit);
	lab_json_num(w, "old_mean", g->old_mean);
	lab_json_num(w, "new_mean", g->new_mean);
	lab_json_num(w, "difference", g->diff);
	lab_json_pair(w, "difference_ci95", g->lo, g->hi);
	lab_json_num(w, "p_value", g->p);
	lab_json_str(w, "verdict", g->verdict);
	lab_json_obj_close(w);
}

void lab_an_compare_json(const struct lab_an_compare *c, const char *old_dir, const char *new_dir,
                         FILE *f)
{
	struct lab_json w;

	lab_json_begin_digits(&w, f, 10);
	lab_json_obj_open(&w, NULL);
	lab_json_str(&w, "old", old_dir);
	lab_json_str(&w, "new", new_dir);
	lab_json_num(&w, "noise", c->noise);
	an_json_builds(&w, c);
	lab_json_obj_open(&w, "hosts"); /* the machines run.json names; null for --csv input */
	lab_json_str(&w, "old", *c->host_old ? c->host_old : NULL);
	lab_json_str(&w, "new", *c->host_new ? c->host_new : NULL);
	lab_json_bool(&w, "differ", c->hosts_differ);
	lab_json_obj_close(&w);
	lab_json_obj_open(&w, "counts");
	lab_json_int(&w, "improved", (long long)c->improved);
	lab_json_int(&w, "regressed", (long long)c->regressed);
	lab_json_int(&w, "within_noise", (long long)c->within_noise);
	lab_json_int(&w, "size_unclear", (long long)c->unclear);
	lab_json_int(&w, "no_change", (long long)c->no_change);
	lab_json_int(&w, "untested", (long long)c->untested);
	lab_json_int(&w, "one_setup", (long long)c->one_setup);
	lab_json_int(&w, "loaded", (long long)c->loaded);
	lab_json_int(&w, "unmatched", (long long)c->unmatched);
	lab_json_int(&w, "flagged", (long long)c->flagged);
	lab_json_int(&w, "not_run", (long long)c->not_run);
	lab_json_int(&w, "rows_gone", (long long)c->rows_gone);
	lab_json_int(&w, "not_comparable", (long long)c->unlike);
	lab_json_int(&w, "by_runs", (long long)c->by_runs);
	lab_json_int(&w, "by_samples", (long long)c->by_samples);
	lab_json_obj_close(&w);
	lab_json_arr_open(&w, "points");
	for (size_t i = 0; i < c->n; i++) {
		const struct lab_an_cmp_row *r = &c->row[i];
		const struct lab_an_point *p = r->old ? r->old : r->new_;

		lab_json_obj_open(&w, NULL);
		lab_json_str(&w, "experiment", p->experiment);
		lab_json_str(&w, "params", p->params);
		lab_json_int(&w, "threads", p->threads);
		/* the means compared: a side's run means where it has runs */
		bool runs = r->level && strcmp(r->level, "samples");
		lab_json_num(&w, "old_mean",
		             runs                     ? lab_an_point_level_mean(r->old)
		             : r->old && r->old->st.n ? r->old->st.mean
		                                      : NAN);
		lab_json_num(&w, "new_mean",
		             runs                       ? lab_an_point_level_mean(r->new_)
		             : r->new_ && r->new_->st.n ? r->new_->st.mean
		                                        : NAN);
		/* the cost's unit (old's where both) and what it is where it is not the view's
		 * figure (null: it is, no view shows it, or the sides' views differ) */
		lab_json_str(&w, "unit", r->unit);
		lab_json_str(&w, "cost_is", r->cost_is);
		lab_json_num(&w, "change", r->change);
		lab_json_pair(&w, "change_ci95", r->lo, r->hi);
		lab_json_num(&w, "p_value", r->p);
		lab_json_str(&w, "verdict", r->verdict);
		if (lab_an_cmp_not_run_reason(r, 0))
			lab_json_str(&w, "old_reason", lab_an_cmp_not_run_reason(r, 0));
		if (lab_an_cmp_not_run_reason(r, 1))
			lab_json_str(&w, "new_reason", lab_an_cmp_not_run_reason(r, 1));
		an_json_fig(&w, &r->fig);
		if (r->level) {
			lab_json_str(&w, "level", r->level);
			lab_json_int(&w, "old_runs", (long long)r->old->levels.runs);
			lab_json_int(&w, "new_runs", (long long)r->new_->levels.runs);
			if (r->samples_verdict)
				lab_json_str(&w, "samples_verdict", r->samples_verdict);
			if (r->one_setup[0])
				lab_json_str(&w, "one_setup", r->one_setup);
			if (r->loaded[0])
				lab_json_str(&w, "loaded", r->loaded);
		}
		lab_json_obj_close(&w);
	}
	lab_json_arr_close(&w);
	lab_json_obj_close(&w);
	lab_json_end(&w); /* the closing newline; FILE errors are checked by the caller */
}

const char *lab_an_cmp_not_run_reason(const struct lab_an_cmp_row *r, int side)
{
	const struct lab_an_point *p = side ? r->new_ : r->old;
	int k;

	if (!r->old || !r->new_ || p->n)
		return NULL;
	k = an_not_run_k(p->status);
	return k && p->reason && *p->reason ? p->reason : NULL;
}

void lab_an_compare_free(struct lab_an_compare *c)
{
	free(c->row);
	memset(c, 0, sizeof(*c));
}
