/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Taking one kept sample: record what the workers did, judge it by the load guards (foreign CPU
 * load over the point's limit, a worker waiting for its CPU over max_runq_wait), and retake a
 * flagged one after a quiet wait, as many times as retry_flagged allows (fewer once the load has
 * outlasted the retries of earlier points of the same team size).
 */
#include <math.h>
#include <string.h>

#include "harness/clock.h"
#include "harness/runner_internal.h"

/* Combines per-thread metrics by each metric's rule, then lets the kernel fill its own. */
static void runner_metrics(struct runner_point *p, double *out)
{
	const struct lab_metric *m = p->spec->kernel->metrics;
	unsigned n = p->nw;

	for (unsigned k = 0; m && m[k].name && k < LAB_METRICS_MAX; k++) {
		double acc = m[k].agg == LAB_AGG_MIN   ? INFINITY
		             : m[k].agg == LAB_AGG_MAX ? -INFINITY
		                                       : 0;
		for (unsigned i = 0; i < n; i++) {
			double v = p->threads[i]->metric[k];
			if (m[k].agg == LAB_AGG_MIN)
				acc = v < acc ? v : acc;
			else if (m[k].agg == LAB_AGG_MAX)
				acc = v > acc ? v : acc;
			else
				acc += v;
		}
		out[k] = m[k].agg == LAB_AGG_MEAN     ? acc / n
		         : m[k].agg == LAB_AGG_KERNEL ? NAN
		                                      : acc;
	}
	if (p->spec->kernel->summarize)
		p->spec->kernel->summarize(&p->ctx, p->threads, n, out);
}

/* One foreign-load reading, from the injected source or the guard; NaN when unknown. */
static double runner_foreign(struct lab_runner *r)
{
	struct lab_err err;

	if (r->foreign)
		return r->foreign(r->foreign_ctx);
	if (r->load_ok && lab_load_snap(&r->load, &err) == 0)
		return lab_load_foreign(&r->load);
	return NAN;
}

double lab_runner_load_limit(const struct lab_hparams *h, unsigned nthreads, unsigned ncpus)
{
	return h->load_threshold + (ncpus > nthreads ? ncpus - nthreads : 0);
}

/* Writes the sample just taken into the next slot of rec, without keeping it yet. */
static void runner_record(struct runner_point *p, struct lab_point_rec *rec, uint64_t elapsed)
{
	struct lab_runner *r = p->r;
	struct lab_sample_rec *s = &rec->samples[rec->nreps];
	unsigned n = p->nw;

	s->elapsed_ns = elapsed;
	s->work = 0;
	s->runq_wait = 0;
	for (unsigned i = 0; i < n; i++) {
		struct lab_thread_rec *t = &rec->threads[rec->nreps * n + i];
		const struct runner_slot *sl = &p->slots[i];
		t->cpu_start = sl->cpu_start;
		t->cpu_end = sl->cpu_end;
		t->start_ns = sl->start_ns - r->origin_ns;
		t->end_ns = sl->end_ns - r->origin_ns;
		t->work = p->threads[i]->work;
		t->runq_wait = lab__runner_slot_runq(sl);
		/* The sample's reading is its worst worker; unknown if any is unknown. */
		if (!(t->runq_wait <= s->runq_wait))
			s->runq_wait = isnan(s->runq_wait) ? NAN : t->runq_wait;
		memcpy(t->metric, p->threads[i]->metric, sizeof(t->metric));
		s->work += t->work;
	}
	runner_metrics(p, s->metric);
	lab_ctr_record(p->ctr, rec->threads + rec->nreps * n, n, s);
	s->foreign_cpu = runner_foreign(r);
	s->flagged_runq = lab__runner_runq_over(p->spec->h, s->runq_wait);
	s->flagged = s->foreign_cpu > rec->load_limit || s->flagged_runq;
}

/*
 * Waits up to quiet_wait for the foreign load to fall to the limit, reading it every 100 ms
 * (the guard's readings span 200 ms, so the retry's own reading starts from quiet ones).
 */
static void runner_quiet_wait(struct runner_point *p, double limit, uint64_t wait)
{
	uint64_t t0 = lab_clock_ns();

	while (!lab__runner_interrupted(p->r)) {
		uint64_t spent = lab_clock_ns() - t0;
		if (spent >= wait)
			break;
		lab__runner_sleep_ns(wait - spent < 100000000 ? wait - spent : 100000000);
		if (!(runner_foreign(p->r) > limit))
			break;
	}
}

struct lab_runner_persist *lab_runner_persist(struct lab_runner *r, unsigned n)
{
	struct lab_runner_persist *empty = NULL, *low = &r->persist[0], *slot;

	for (unsigned i = 0; i < LAB_RUNNER_PERSIST_MAX; i++) {
		struct lab_runner_persist *ps = &r->persist[i];
		if (ps->nthreads == n)
			return ps;
		if (!ps->nthreads && !empty)
			empty = ps; /* team sizes are >= 1: 0 marks a free slot */
		if (ps->points < low->points)
			low = ps;
	}
	/* A new size: a free slot, else the size with the fewest points. */
	slot = empty ? empty : low;
	*slot = (struct lab_runner_persist){.nthreads = n};
	return slot;
}

/*
 * Sample rep of the point, kept in rec: a flagged one is taken again after a quiet wait, up to
 * retry_flagged times; the last attempt is kept, flagged or not. Once one sample stays flagged
 * after every retry, the point's later samples are taken once. Returns 0 or -LAB_EINTR.
 */
int lab__runner_take(struct runner_point *p, struct lab_point_rec *rec, unsigned rep,
                     uint64_t iters, struct lab_err *err)
{
	struct lab_sample_rec *s = &rec->samples[rec->nreps];
	uint64_t elapsed, wait = p->spec->h->quiet_wait, retries = p->spec->h->retry_flagged;

	/* The load outlasted the retries of the last points: one short look, not the full
	 * waits at every point (a neighbour that stays would multiply the run time). */
	if (lab_runner_persist(p->r, p->spec->n)->points >= RUNNER_PERSISTENT_POINTS) {
		retries = retries < 1 ? retries : 1;
		wait = wait < RUNNER_PERSISTENT_WAIT_NS ? wait : RUNNER_PERSISTENT_WAIT_NS;
	}
	for (unsigned attempt = 0;; attempt++) {
		if (attempt > 0)
			runner_quiet_wait(p, rec->load_limit, wait);
		if (lab__runner_interrupted(p->r))
			return lab_err_set(err, LAB_EINTR, "interrupted");
		lab_ctr_select_pass(p->ctr, rep, true);
		if (!lab__runner_sample_whole(p, iters, &elapsed))
			return lab_err_set(err, LAB_EINTR, "interrupted");
		runner_record(p, rec, elapsed);
		s->attempts = attempt + 1;
		if (!s->flagged || p->retries_spent)
			break;
		if (attempt >= retries) {
			/* The load outlasted every retry: it is persistent, and retrying each later
			 * sample of the point would only multiply the run time by the waits. */
			p->retries_spent = true;
			break;
		}
	}
	rec->attempts += s->attempts;
	rec->nflagged += s->flagged;
	rec->nflagged_runq += s->flagged && s->flagged_runq;
	rec->nreps++;
	return 0;
}
