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

unsigned lab__runner_costs(const struct lab_point_rec *rec, double *x, bool fallback)
{
	unsigned n = 0;
	bool any_clean = false;

	for (unsigned i = 0; i < rec->nreps; i++)
		any_clean = any_clean || !rec->samples[i].flagged;
	/* The analyzer leaves flagged samples out; so does the rule, unless all are flagged. */
	for (unsigned i = 0; i < rec->nreps; i++) {
		const struct lab_sample_rec *s = &rec->samples[i];
		if (s->work && (!s->flagged || (fallback && !any_clean)))
			x[n++] = (double)s->elapsed_ns / (double)s->work;
	}
	return n;
}

void lab__runner_prec_final(struct lab_prec_rec *pr, const double *x, unsigned n)
{
	double mean, sd;

	lab_prec_mean_sd(x, n, &mean, &sd);
	pr->mean = mean;
	pr->kept = n;
	if (n < 2 || pr->pilot < 2) {
		pr->halfwidth = pr->achieved = NAN;
		return;
	}
	pr->halfwidth = fmax(lab_prec_stein_halfwidth(pr->pilot, pr->pilot_sd, n),
	                     lab_prec_stein_halfwidth(n, sd, n));
	pr->achieved = fabs(mean) > 0 ? pr->halfwidth / fabs(mean) : NAN;
}

/* Takes samples of p until *used (the kept ones) reaches pr->planned: a flagged one (left out,
 * like the analyzer does) is taken again, as far as the point's and the run's budgets go (per_ns:
 * what one more sample costs). Returns 0 or a negative code. */
static int prec_take(struct runner_point *p, struct lab_point_rec *rec, uint64_t iters,
                     double per_ns, unsigned *used, struct lab_err *err)
{
	struct lab_prec_rec *pr = &rec->prec;
	uint64_t budget = p->spec->h->budget;
	int rc = 0;

	for (; *used < pr->planned; *used += !rec->samples[rec->nreps - 1].flagged) {
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
	return 0;
}

/* The precision record of rec's kept samples (lab__runner_prec_final). 0 or -LAB_ENOMEM. */
static int prec_final(struct lab_point_rec *rec, struct lab_err *err)
{
	double *x = malloc((rec->nreps ? rec->nreps : 1) * sizeof(*x));

	if (!x)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	lab__runner_prec_final(&rec->prec, x, lab__runner_costs(rec, x, false));
	free(x);
	return 0;
}

/* The record's last fields: the final interval of the kept samples, what was taken, the time. */
static int prec_done(struct runner_point *p, struct lab_point_rec *rec, struct lab_err *err)
{
	rec->prec.samples = rec->nreps;
	rec->prec.runs = 1;
	rec->prec.spent_ns = lab_clock_ns() - p->t0_ns;
	return prec_final(rec, err);
}

/* The pilot's kept costs into pr (pilot, pilot_sd) and *mean0; their count (fallback: every
 * sample when all are flagged, lab__runner_costs). -1: no memory. */
static long prec_pilot(struct lab_point_rec *rec, double *mean0, bool fallback)
{
	double *x = malloc((rec->nreps ? rec->nreps : 1) * sizeof(*x));
	unsigned m;

	if (!x)
		return -1;
	m = lab__runner_costs(rec, x, fallback);
	rec->prec.pilot = m;
	lab_prec_mean_sd(x, m, mean0, &rec->prec.pilot_sd);
	free(x);
	return m;
}

int lab__runner_prec_samples(struct runner_point *p, struct lab_point_rec *rec, uint64_t iters,
                             double target, struct lab_err *err)
{
	struct lab_prec_rec *pr = &rec->prec;
	/* What one more sample costs: the pilot's samples with their retries and guards. */
	double per_ns = (double)(lab_clock_ns() - p->ts_ns) / (rec->nreps ? rec->nreps : 1), mean0;
	unsigned used;
	long m;

	*pr = (struct lab_prec_rec){.on = true, .target = target};
	if ((m = prec_pilot(rec, &mean0, true)) < 0)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (m < 2 && rec->nreps >= 2) { /* one kept sample among flagged ones: a second one */
		int rc;

		used = (unsigned)m;
		pr->planned = 2;
		if ((rc = prec_take(p, rec, iters, per_ns, &used, err)))
			return rc;
		if ((m = prec_pilot(rec, &mean0, true)) < 0)
			return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	if (m < 2) { /* nothing to plan from: the record of what there is, no half-width */
		pr->pilot_sd = NAN;
		return prec_done(p, rec, err);
	}
	pr->planned = lab_prec_stein_n((unsigned)m, pr->pilot_sd,
	                               target * fabs(mean0) * LAB_PREC_MARGIN, LAB_PREC_N_MAX);
	used = 0; /* the clean samples: a flagged pilot planned, it is no observation */
	for (unsigned i = 0; i < rec->nreps; i++)
		used += rec->samples[i].work && !rec->samples[i].flagged;
	/* A pilot of flagged samples only: first as many clean ones as it had, which become the
	 * pilot (its spread, of a busy machine, planned 92,363 samples for a point whose clean
	 * samples met the target with ten). */
	bool flagged_pilot = used == 0;
	if (flagged_pilot)
		pr->planned = (unsigned)m;
	/* The plan is for the pilot's mean: where the final mean fell further than the margin
	 * allows (a busy machine), the half-width is planned again against it, until it is met, the
	 * budget runs out or the plan reaches LAB_PREC_N_MAX (each round takes a sample or more).
	 */
	for (;;) {
		int rc = prec_take(p, rec, iters, per_ns, &used, err);
		unsigned again;

		if (!rc && flagged_pilot) { /* the clean pilot, also when the budget ran out */
			flagged_pilot = false;
			if ((m = prec_pilot(rec, &mean0, false)) < 0)
				return lab_err_set(err, LAB_ENOMEM, "out of memory");
			pr->pilot_sd = m < 2 ? NAN : pr->pilot_sd;
			pr->planned = m < 2
			                  ? pr->planned
			                  : lab_prec_stein_n((unsigned)m, pr->pilot_sd,
			                                     target * fabs(mean0) * LAB_PREC_MARGIN,
			                                     LAB_PREC_N_MAX);
			if (!pr->budget_exhausted && m >= 2)
				continue;
		}
		if (rc || (rc = prec_final(rec, err)))
			return rc;
		if (pr->budget_exhausted || !(pr->achieved > target) ||
		    pr->planned >= LAB_PREC_N_MAX)
			break;
		again = lab_prec_stein_n((unsigned)m, pr->pilot_sd,
		                         target * fabs(pr->mean) * LAB_PREC_MARGIN, LAB_PREC_N_MAX);
		/* past Stein's total (the spread grew): a sixteenth more a round, so the rounds'
		 * passes over the samples stay O(n log n) */
		pr->planned = again > used ? again : used + 1 + used / 16;
		if (pr->planned > LAB_PREC_N_MAX)
			pr->planned = LAB_PREC_N_MAX;
	}
	return prec_done(p, rec, err);
}
