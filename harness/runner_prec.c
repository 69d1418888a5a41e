/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A one-run point's precision target: after the pilot samples, Stein's two-stage rule
 * (harness/precision.h) says how many samples the point needs, and they are taken within its
 * budget. Also what the run level (runner_runs.c) shares with it: the costs of a point's kept
 * samples and the final fields of a precision record.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/clock.h"
#include "harness/runner_internal.h"

int lab__runner_reserve(struct runner_point *p, struct lab_point_rec *rec, unsigned n,
                        struct lab_err *err)
{
	unsigned cap = p->cap * 2 > n ? p->cap * 2 : n;
	struct lab_sample_rec *s;
	struct lab_thread_rec *t;

	if (n <= p->cap)
		return 0;
	s = realloc(rec->samples, cap * sizeof(*s));
	if (!s)
		return lab_err_set(err, LAB_ENOMEM, "out of memory for %u samples", cap);
	rec->samples = s;
	t = realloc(rec->threads, (size_t)cap * p->nw * sizeof(*t));
	if (!t)
		return lab_err_set(err, LAB_ENOMEM, "out of memory for %u samples", cap);
	rec->threads = t;
	memset(s + p->cap, 0, (cap - p->cap) * sizeof(*s));
	memset(t + (size_t)p->cap * p->nw, 0, (size_t)(cap - p->cap) * p->nw * sizeof(*t));
	p->cap = cap;
	return 0;
}

unsigned lab__runner_costs(const struct lab_point_rec *rec, double *x)
{
	unsigned n = 0;
	bool any_clean = false;

	for (unsigned i = 0; i < rec->nreps; i++)
		any_clean = any_clean || !rec->samples[i].flagged;
	/* The analyzer leaves flagged samples out; so does the rule, unless all are flagged. */
	for (unsigned i = 0; i < rec->nreps; i++) {
		const struct lab_sample_rec *s = &rec->samples[i];
		if (s->work && (!any_clean || !s->flagged))
			x[n++] = (double)s->elapsed_ns / (double)s->work;
	}
	return n;
}

void lab__runner_prec_final(struct lab_prec_rec *pr, const double *x, unsigned n)
{
	double mean, sd;

	lab_prec_mean_sd(x, n, &mean, &sd);
	pr->mean = mean;
	pr->halfwidth = lab_prec_stein_halfwidth(pr->pilot, pr->pilot_sd, n);
	pr->achieved = fabs(mean) > 0 ? pr->halfwidth / fabs(mean) : NAN;
}

int lab__runner_prec_samples(struct runner_point *p, struct lab_point_rec *rec, uint64_t iters,
                             double target, struct lab_err *err)
{
	struct lab_prec_rec *pr = &rec->prec;
	uint64_t budget = p->spec->h->budget, ts = lab_clock_ns();
	double *x = malloc((rec->nreps ? rec->nreps : 1) * sizeof(*x)), mean0, per_ns;
	unsigned m, used;
	int rc = 0;

	if (!x)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	m = lab__runner_costs(rec, x);
	*pr = (struct lab_prec_rec){.on = true, .target = target, .pilot = m};
	lab_prec_mean_sd(x, m, &mean0, &pr->pilot_sd);
	free(x);
	if (m < 2) {
		pr->samples = rec->nreps;
		pr->runs = 1;
		pr->achieved = NAN;
		return 0;
	}
	pr->planned = lab_prec_stein_n(m, pr->pilot_sd, target * fabs(mean0) * LAB_PREC_MARGIN,
	                               LAB_PREC_N_MAX);
	/* What one more sample costs: the pilot's samples with their retries and guards. */
	per_ns = (double)(ts - p->ts_ns) / rec->nreps;
	/* Until planned samples count: a flagged one (left out, like the analyzer does) is taken
	 * again, in the pilot or after it, as far as the budget goes. */
	for (used = m; used < pr->planned; used += !rec->samples[rec->nreps - 1].flagged) {
		uint64_t now = lab_clock_ns();
		if ((double)(now - p->t0_ns) + per_ns > (double)budget) {
			pr->budget_exhausted = true;
			break;
		}
		if (p->r->start_ns &&
		    lab_prec_total_spent(p->spec->h->total_budget, now - p->r->start_ns, per_ns)) {
			pr->budget_exhausted = pr->total_exhausted = true;
			break;
		}
		if ((rc = lab__runner_reserve(p, rec, rec->nreps + 1, err)) ||
		    (rc = lab__runner_take(p, rec, rec->nreps, iters, err)))
			return rc;
	}
	x = malloc(rec->nreps * sizeof(*x));
	if (!x)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	lab__runner_prec_final(pr, x, lab__runner_costs(rec, x));
	free(x);
	pr->samples = rec->nreps;
	pr->runs = 1;
	pr->spent_ns = lab_clock_ns() - p->t0_ns;
	return 0;
}
