/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The run level: a point measured `runs` times, each a fresh setup (new buffers, first touch,
 * the team created and pinned again: lab_runner_point does all of that per call), the points of
 * each run visited in a shuffled order; and Stein's two-stage rule (harness/precision.h) adding
 * runs to a point with runs >= 2, within the point's budget. Samples added to a one-run point
 * are runner_prec.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/clock.h"
#include "harness/runner_internal.h"

/* The state of one point across its runs. */
struct runs_pt {
	unsigned want; /* runs to take: runs, then Stein's total within the budget */
	unsigned reps; /* samples handed over so far (the next run's rep0) */
	double target; /* precision, 0 when off */
	double *means; /* cost per unit of each ok run */
	unsigned nmeans, cap;
	uint64_t spent_ns; /* wall time of its runs, setups included */
	bool planned;      /* Stein's total is known (two run means or more after the pilot) */
	struct lab_prec_rec prec;
};

uint64_t lab_runner_order_seed(const struct lab_plan *plan)
{
	return plan->npts ? plan->pts[0].h.seed : 1;
}

bool lab_runner_shuffles(const struct lab_plan *plan)
{
	for (unsigned i = 0; i < plan->npts; i++)
		if (plan->pts[i].h.runs > 1)
			return true;
	return false;
}

/* After a run of a point with runs >= 2 and a target: the plan (after the pilot's last run),
 * the budget, and what the target came to so far. Returns the change of the planned visits. */
static long runs_prec_after(struct runs_pt *st, const struct lab_point *pt, unsigned done,
                            uint64_t elapsed_ns)
{
	struct lab_prec_rec *pr = &st->prec;
	unsigned k0 = (unsigned)pt->h.runs, before = st->want;
	double per_ns = (double)st->spent_ns / done, mean0;

	if (!pr->on) { /* from the first run: a run cut short in its pilot still names its target */
		pr->on = pr->by_runs = true;
		pr->target = st->target;
		pr->planned = k0;
	}
	if (done < k0) { /* the pilot so far: its interval is the runs' own */
		pr->pilot = st->nmeans;
		lab_prec_mean_sd(st->means, st->nmeans, &mean0, &pr->pilot_sd);
		pr->pilot_sd = st->nmeans < 2 ? NAN : pr->pilot_sd;
	}
	if (done >= k0 && !st->planned) {
		pr->pilot = st->nmeans;
		pr->pilot_sd = NAN;
		/* fewer than 2 runs with an unflagged sample (a busy machine): one more run, as
		 * long as the budget lasts, until two give a pilot */
		pr->planned = 2;
		st->want = done + 1;
	}
	if (done >= k0 && !st->planned && st->nmeans >= 2) {
		st->planned = true;
		lab_prec_mean_sd(st->means, st->nmeans, &mean0, &pr->pilot_sd);
		pr->planned =
		    lab_prec_stein_n(st->nmeans, pr->pilot_sd,
		                     st->target * fabs(mean0) * LAB_PREC_MARGIN, LAB_PREC_N_MAX);
		/* failed and all-flagged runs are no observations */
		st->want = done + (pr->planned - st->nmeans);
	}
	/* Stop when one more run would overrun the budget. */
	if (done >= k0 && done < st->want && (double)st->spent_ns + per_ns > (double)pt->h.budget) {
		pr->budget_exhausted = true;
		st->want = done;
	}
	/* ... or the config's total_budget (the whole lab run's wall time). */
	if (done >= k0 && done < st->want &&
	    lab_prec_total_spent(pt->h.total_budget, elapsed_ns, per_ns)) {
		pr->budget_exhausted = pr->total_exhausted = true;
		st->want = done;
	}
	lab__runner_prec_final(pr, st->means, st->nmeans);
	pr->runs = done;
	pr->spent_ns = st->spent_ns;
	return (long)st->want - (long)before;
}

/* One run of point pt: measured (or skipped), its run mean kept, handed to sink. */
static int runs_visit(struct lab_runner *r, const struct lab_plan *plan,
                      const struct lab_sink *sink, const struct lab_point *pt, struct runs_pt *st,
                      unsigned run, long *visits, struct lab_err *err)
{
	const struct lab_experiment *e = &plan->exp[pt->exp];
	struct lab_point_spec spec = {.kernel = e->kernel,
	                              .kparams = pt->kparams,
	                              .h = &pt->h,
	                              .cpus = pt->cpus,
	                              .n = pt->nthreads};
	struct lab_point_rec rec;
	int rc = 0;

	if (pt->state == LAB_POINT_SKIPPED) {
		memset(&rec, 0, sizeof(rec));
		rec.status = LAB_STATUS_SKIPPED;
		rec.nthreads = pt->nthreads;
		snprintf(rec.reason, sizeof(rec.reason), "%s", pt->reason);
	} else if (pt->h.fresh_process && !r->elsewhere) {
		memset(&rec, 0, sizeof(rec));
		rec.status = LAB_STATUS_FAILED;
		rec.nthreads = pt->nthreads;
		snprintf(rec.reason, sizeof(rec.reason),
		         "fresh_process = on: this runner cannot start processes (lab run can)");
	} else {
		uint64_t t0 = lab_clock_ns();
		rc = pt->h.fresh_process ? r->elsewhere(r->elsewhere_ctx, pt, &rec, err)
		                         : lab_runner_point(r, &spec, &rec, err);
		st->spent_ns += lab_clock_ns() - t0;
	}
	if (rc == 0 && rec.status == LAB_STATUS_OK && rec.nreps) {
		double *x = malloc(rec.nreps * sizeof(*x)), sd;
		/* a run whose samples were all flagged is no run mean, as in the analyzer */
		unsigned m = x ? lab__runner_costs(&rec, x, false) : 0;
		if (m && st->nmeans == st->cap) {
			unsigned cap = st->cap ? st->cap * 2 : 8;
			double *g = realloc(st->means, cap * sizeof(*g));
			if (g) {
				st->means = g;
				st->cap = cap;
			}
		}
		if (m && st->nmeans < st->cap)
			lab_prec_mean_sd(x, m, &st->means[st->nmeans++], &sd);
		free(x);
	} else if (rc == 0 && rec.status == LAB_STATUS_FAILED) {
		*visits -= (long)st->want - (long)(run + 1);
		st->want = run + 1; /* a failing point fails again: no more runs */
	}
	if (rc == 0 && st->target > 0 && rec.status == LAB_STATUS_OK)
		*visits += runs_prec_after(st, pt, run + 1,
		                           r->start_ns ? lab_clock_ns() - r->start_ns : 0);
	st->prec.samples += rec.nreps;
	rec.pt = pt;
	rec.run = run;
	rec.rep0 = st->reps;
	rec.last_run = run + 1 >= st->want;
	rec.runs_planned = st->want;
	if (st->target > 0 && pt->h.runs > 1)
		rec.prec = st->prec;
	st->reps += rec.nreps;
	if (rc == 0)
		rc = sink->point(sink->ctx, &rec, err);
	lab_point_rec_free(&rec);
	return rc;
}

int lab_runner_run(struct lab_runner *r, const struct lab_plan *plan, const struct lab_sink *sink,
                   struct lab_err *err)
{
	struct runs_pt *st = calloc(plan->npts ? plan->npts : 1, sizeof(*st));
	unsigned *order = malloc((plan->npts ? plan->npts : 1) * sizeof(*order)), done = 0;
	bool shuffle = lab_runner_shuffles(plan);
	long visits = 0;
	int rc = 0;

	if (!st || !order) {
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
		goto out;
	}
	r->start_ns = lab_clock_ns();
	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_hparams *h = &plan->pts[i].h;
		/* a skipped point is visited once, whatever its runs: the progress total says so */
		st[i].want = plan->pts[i].state == LAB_POINT_SKIPPED ? 1 : (unsigned)h->runs;
		if (h->runs > 1 && lab_prec_parse(h->precision, &st[i].target, err))
			st[i].target = 0; /* the planner checked it */
		visits += st[i].want;
	}
	for (unsigned run = 0;; run++) {
		unsigned n = 0;
		for (unsigned i = 0; i < plan->npts; i++)
			if (st[i].want > run)
				order[n++] = i;
		if (!n)
			break;
		if (shuffle)
			lab_prec_shuffle(order, n,
			                 lab_prec_order_seed(lab_runner_order_seed(plan), run));
		for (unsigned k = 0; k < n && rc == 0; k++) {
			const struct lab_point *pt = &plan->pts[order[k]];
			if (lab__runner_interrupted(r)) {
				rc = lab_err_set(err, LAB_EINTR, "interrupted");
				break;
			}
			if (sink->progress)
				sink->progress(sink->ctx, done, (unsigned)visits, pt);
			rc = runs_visit(r, plan, sink, pt, &st[order[k]], run, &visits, err);
			done++;
		}
		if (rc)
			break;
	}
out:
	for (unsigned i = 0; st && i < plan->npts; i++)
		free(st[i].means);
	free(st);
	free(order);
	return rc;
}
