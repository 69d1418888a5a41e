/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline's rates and its FMA+add sentences (roofline.h): what a point does per second, and
 * whether separate add pipes help, said from the data. */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/index.h"
#include "analyze/levels.h"
#include "analyze/rates.h"
#include "analyze/views/roofline.h"
#include "analyze/views/view.h"

/* With two or more runs kept, p's interval is its run means' (lab_an_levels_apply made p->st
 * so: levels.h); into *v as rates, the cost's mapped to work / cost (the ends swap: one
 * glitched sample's huge rate cannot carry it), n the runs. 0 when it did. */
static int an_rl_runs(const struct lab_an_point *p, double work, struct lab_an_rl_val *v)
{
	double mean = p->st.mean, lo = p->st.ci95_lo, hi = p->st.ci95_hi;

	if (p->levels.runs < 2 || !isfinite(lo) || !isfinite(hi))
		return -1;
	*v = (struct lab_an_rl_val){mean > 0 ? work / mean : NAN,
	                            mean > 0 ? work / mean : NAN,
	                            hi > 0 ? work / hi : NAN,
	                            lo > 0 ? work / lo : INFINITY,
	                            p->levels.runs,
	                            p->levels.runs};
	return 0;
}

void lab_an_rl_rate(const struct lab_an_point *p, double work, int inc, struct lab_an_rl_val *v)
{
	double *c, clo, chi, median = p->st.median > 0 ? work / p->st.median : NAN;
	size_t n = 0;

	/* with two or more runs the interval is the run means' (levels.h), as every point's is:
	 * the samples' median interval ignores the setup-to-setup spread */
	if (!an_rl_runs(p, work, v)) {
		v->median = median;
		return;
	}
	*v = (struct lab_an_rl_val){median, p->st.mean > 0 ? work / p->st.mean : NAN, NAN, NAN, 0,
	                            0};
	c = malloc((p->n ? p->n : 1) * sizeof(*c));
	for (size_t i = 0; c && i < p->n; i++)
		if ((inc || !p->flagged[i]) && isfinite(p->cost[i]))
			c[n++] = p->cost[i];
	gsl_sort(c, 1, v->n = n);
	if (n && !lab_an_median_ci(c, n, 0.95, &clo, &chi) && chi > 0) {
		v->lo = work / chi;
		v->hi = clo > 0 ? work / clo : INFINITY;
	}
	free(c);
}

/* The interval compared (v->median the value): flops_per_cycle's mean and t-interval when the
 * point recorded it, else the median GFLOP/s and its interval; over the run means when it kept
 * two or more runs (v->runs). Returns the unit's name. */
static const char *an_pipes_val(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                                struct lab_an_rl_val *v)
{
	struct lab_an_rates r;

	for (size_t m = 0; m < d->nmetric; m++) {
		const struct lab_an_msum *ms = lab_an_msum_of(p, m);
		if (ms && ms->n >= 2 && !strcmp(d->metric_name[m], "flops_per_cycle")) {
			/* over the run means when it kept two or more (data.h: ms->runs) */
			*v = (struct lab_an_rl_val){ms->mean,
			                            ms->mean,
			                            ms->ci95_lo,
			                            ms->ci95_hi,
			                            ms->runs ? ms->runs : ms->n,
			                            ms->runs};
			return "flops/cycle";
		}
	}
	lab_an_rates_compute(d, p, &r);
	lab_an_rl_rate(p, r.has && r.flops > 0 ? r.flops : NAN, inc, v);
	if (v->runs) /* the value compared is the interval's: the mean of the run means */
		v->median = v->mean;
	return "GFLOP/s";
}

/* What FMA+add can show against FMA alone, from the point facts the peak kernel recorded:
 * whether fma is one instruction (SSE2's is a multiply and an add: the pair then tests no add
 * pipes) and the mix of mf FMA and ma add chains, FMA-pipe bound: separate add pipes add ma
 * adds to 2 mf flops in the same cycles (+ma/(2 mf)); shared ones spread the same flops over
 * mf + ma slots (-ma/(2 (mf + ma))). *up and *down are NaN for a run without the facts. */
static int an_pipes_mix(const struct lab_an_point *q, double *up, double *down, double *mf,
                        double *ma)
{
	const struct lab_an_json *fu = lab_an_json_get(q->facts, "fma_fused");

	*mf = lab_an_json_num(q->facts, "mix_fma", NAN);
	*ma = lab_an_json_num(q->facts, "mix_add", NAN);
	*up = *down = NAN;
	if (*mf > 0 && *ma > 0) {
		*up = *ma / (2 * *mf);
		*down = *ma / (2 * (*mf + *ma));
	}
	return !fu || fu->type != LAB_AN_JSON_BOOL || fu->num != 0;
}

/* The verdict of FMA+add interval b against FMA's a, told what the mix can show, into buf. */
static void an_pipes_verdict(const struct lab_an_point *p, const struct lab_an_point *q,
                             const struct lab_an_rl_val *a, const struct lab_an_rl_val *b,
                             char *buf, size_t len)
{
	double up, down, mf, ma;
	char isa[16] = "", one[96];

	lab_an_params_get(q->params, "isa", isa, sizeof(isa));
	if (!an_pipes_mix(q, &up, &down, &mf, &ma))
		snprintf(buf, len,
		         "this ISA's fma is a multiply and an add (no fused "
		         "instruction), so FMA+add against it tests no add pipes");
	else if (!strcmp(isa, "auto")) /* gcc: 2 packed and 16 scalar FMAs, the adds scalar */
		snprintf(buf, len,
		         "auto's loops are the compiler's packing of the chains (scalar and vector "
		         "mixed, or fewer vector chains), not the mix this test needs: no add-pipe "
		         "verdict");
	else if (isnan(a->lo) || isnan(a->hi) || isnan(b->lo) || isnan(b->hi))
		/* an end unbounded above still orders them: only a missing interval stops it */
		snprintf(buf, len, "no interval to tell them apart (%s)",
		         (!a->runs && a->n < 2) || (!b->runs && b->n < 2) ? "one sample"
		                                                          : "too few samples");
	else if (lab_an_one_setup_flag(p, one, sizeof(one)) ||
	         lab_an_one_setup_flag(q, one, sizeof(one)))
		snprintf(buf, len,
		         "%s: an interval of one setup says nothing of the setup-to-setup spread, "
		         "no verdict",
		         one);
	else if (b->lo > a->hi && isfinite(up) && b->lo / a->hi > 1 + up)
		snprintf(buf, len,
		         "above FMA alone by more than separate add pipes give this mix (at most "
		         "%+.0f %%): not the pipes alone (a slow FMA setup, the loop's code)",
		         100 * up);
	else if (b->lo > a->hi && isfinite(up))
		snprintf(buf, len,
		         "above FMA alone: separate add pipes help here (this mix "
		         "gains at most %+.0f %% from them)",
		         100 * up);
	else if (b->lo > a->hi)
		snprintf(buf, len, "above FMA alone: separate add pipes help here");
	else if (b->hi < a->lo && isfinite(down) && b->hi / a->lo < 1 - down)
		snprintf(buf, len,
		         "below FMA alone by more than shared pipes cost this mix (at most %.0f "
		         "%%): not the pipes alone (a slow FMA+add setup, the loop's code)",
		         100 * down);
	else if (b->hi < a->lo && isfinite(down))
		snprintf(buf, len,
		         "below FMA alone: the adds take FMA pipes here (this mix loses "
		         "%.0f %% where they share them)",
		         100 * down);
	else if (b->hi < a->lo)
		snprintf(buf, len, "below FMA alone: the adds take FMA pipes here");
	else if (isfinite(up))
		snprintf(buf, len,
		         "within noise of FMA alone: this mix (%.0f FMA and %.0f add "
		         "chains) gains at most %+.0f %% with separate add pipes and "
		         "loses %.0f %% with shared ones, and these intervals tell "
		         "neither",
		         mf, ma, 100 * up, 100 * down);
	else
		snprintf(buf, len, "within noise of FMA alone: neither told apart here");
}

/* v as "median [lo, hi] (n=N)", "[lo, unbounded)" above or absent as the tables say. */
static const char *an_pipes_ival(const struct lab_an_rl_val *v, char *buf, size_t len)
{
	char hi[32];

	snprintf(hi, sizeof(hi), isinf(v->hi) ? "unbounded)" : "%.4g]", v->hi);
	if (isnan(v->lo) || isnan(v->hi))
		snprintf(buf, len, "%.4g, no interval (n=%zu%s)", v->median,
		         v->runs ? v->runs : v->n, v->runs ? " runs" : "");
	else
		snprintf(buf, len, "%.4g [%.4g, %s (n=%zu%s)", v->median, v->lo, hi,
		         v->runs ? v->runs : v->n, v->runs ? " runs" : "");
	return buf;
}

/* The sentence of FMA point p against FMA+add point q (rest: their params but op) into buf;
 * 0 when one recorded flops_per_cycle and the other did not. */
static int an_pipes_note(const struct lab_an_data *d, int inc, const struct lab_an_point *p,
                         const struct lab_an_point *q, const char *rest, char *buf, size_t len)
{
	struct lab_an_rl_val a, b;
	const char *unit = an_pipes_val(d, p, inc, &a);
	char verdict[256], va[96], vb[96];

	if (strcmp(an_pipes_val(d, q, inc, &b), unit))
		return 0;
	an_pipes_verdict(p, q, &a, &b, verdict, sizeof(verdict));
	snprintf(buf, len, "%s %s, %d thread%s: FMA+add %s against FMA %s %s: %s", p->experiment,
	         rest, p->threads, p->threads == 1 ? "" : "s", an_pipes_ival(&b, vb, sizeof(vb)),
	         an_pipes_ival(&a, va, sizeof(va)), unit, verdict);
	return 1;
}

/* 1 when p ran fine with op = op. */
static int an_pipes_op(const struct lab_an_point *p, const char *op)
{
	char buf[16];

	return p->st.n && !strcmp(p->status, "ok") &&
	       lab_an_params_get(p->params, "op", buf, sizeof(buf)) && !strcmp(buf, op);
}

/* The FMA+add points of a run by (experiment, params without op, threads): the first of each. */
struct an_adds {
	const struct lab_an_data *d;
	char **rest; /* per point of d: an FMA+add point's params without op, else NULL */
	size_t *pt, n, cap;
	struct lab_an_index ix;
};

struct an_akey {
	const struct an_adds *a;
	const char *exp, *rest;
	int threads;
};

static int an_add_same(const void *ctx, size_t slot)
{
	const struct an_akey *k = ctx;
	const struct lab_an_point *q = &k->a->d->pt[k->a->pt[slot]];

	lab_an_view_probe();
	return q->threads == k->threads && !strcmp(q->experiment, k->exp) &&
	       !strcmp(k->a->rest[k->a->pt[slot]], k->rest);
}

/* The first FMA+add point at (exp, rest, threads) of a, NULL when none; *h the key's hash. */
static const struct lab_an_point *an_add_find(const struct an_adds *a, const char *exp,
                                              const char *rest, int threads, uint64_t *h)
{
	struct an_akey k = {a, exp, rest, threads};
	size_t slot;

	*h = lab_an_view_key(exp, rest, threads);
	slot = lab_an_index_find(&a->ix, *h, an_add_same, &k);
	return slot == (size_t)-1 ? NULL : &a->d->pt[a->pt[slot]];
}

static void an_adds_free(struct an_adds *a)
{
	for (size_t i = 0; a->rest && i < a->d->npt; i++)
		free(a->rest[i]);
	free(a->rest);
	free(a->pt);
	lab_an_index_free(&a->ix);
}

/* Fills a with d's FMA+add points. Returns 0 or -LAB_ENOMEM. */
static int an_adds_make(struct an_adds *a, const struct lab_an_data *d)
{
	uint64_t h;

	a->d = d;
	if (!(a->rest = calloc(d->npt ? d->npt : 1, sizeof(*a->rest))))
		return -LAB_ENOMEM;
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *q = &d->pt[i];

		if (!an_pipes_op(q, "fma_add"))
			continue;
		if (!(a->rest[i] = lab_an_params_without(q->params, "op")))
			return -LAB_ENOMEM;
		if (an_add_find(a, q->experiment, a->rest[i], q->threads, &h))
			continue;
		if (lab_an_grow(&a->pt, &a->cap, a->n + 1, sizeof(*a->pt)) ||
		    lab_an_index_add(&a->ix, h, a->n))
			return -LAB_ENOMEM;
		a->pt[a->n++] = i;
	}
	return 0;
}

/* FMA+add against FMA alone, said from the data: the add pipes help only where FMA+add's
 * interval lies above FMA's; below it or overlapping, they do not here. One sentence per FMA
 * point and the first FMA+add point that differs from it only in op, into s->pipes (d->npt). */
int lab_an_rl_pipes(const struct lab_an_data *d, int inc, struct lab_an_rl *s)
{
	struct an_adds a = {0};
	int rc = an_adds_make(&a, d);
	uint64_t h;

	for (size_t i = 0; !rc && a.n && i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i], *q;
		char *rest = an_pipes_op(p, "fma") ? lab_an_params_without(p->params, "op") : NULL;

		if (!rest && an_pipes_op(p, "fma"))
			rc = -LAB_ENOMEM;
		else if (rest && (q = an_add_find(&a, p->experiment, rest, p->threads, &h)))
			s->npipes += (size_t)an_pipes_note(d, inc, p, q, rest, s->pipes[s->npipes],
			                                   sizeof(s->pipes[0]));
		free(rest);
	}
	an_adds_free(&a);
	return rc;
}
