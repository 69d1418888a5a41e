/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Samples: the start barrier, timed slices, chunked iteration counts, calibration. */
#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "harness/clock.h"
#include "harness/runner_internal.h"
#include "harness/team.h"

/* The run-queue total of worker tid, or for an OpenMP kernel of OpenMP thread tid (injected,
 * or its schedstat); false when unknown. */
static bool runner_runq(struct runner_point *p, unsigned tid, uint64_t *ns)
{
	struct lab_runner *r = p->r;

	if (r->runq)
		return r->runq(r->runq_ctx, tid, ns) == 0;
	return lab_runq_read(p->omp_rq0 ? p->omp_runq_fd[tid] : p->slots[tid].runq_fd, ns) == 0;
}

/*
 * The run-queue wait of worker tid since runner_runq_start, in *ns; false when unknown. An
 * OpenMP kernel's one worker answers for its team: the longest any OpenMP thread waited (the
 * injected source then takes the OpenMP thread's number). Its workers sleep in the runtime
 * between constructs, and the wait to be woken back onto a CPU that another task holds is
 * theirs, not the worker's: a busy other vCPU made fork-join 5x dearer while the worker's
 * own reading stayed clean.
 */
static bool runner_runq_start(struct runner_point *p, unsigned tid, uint64_t *rq0)
{
	bool ok = true;

	if (!p->omp_rq0)
		return runner_runq(p, tid, rq0);
	for (unsigned i = 0; i < p->spec->n; i++)
		ok = runner_runq(p, i, &p->omp_rq0[i]) && ok;
	return ok;
}

static bool runner_runq_wait(struct runner_point *p, unsigned tid, uint64_t rq0, uint64_t *ns)
{
	unsigned n = p->omp_rq0 ? p->spec->n : 1;
	uint64_t rq1;
	bool ok = true;

	*ns = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t base = p->omp_rq0 ? p->omp_rq0[i] : rq0;
		ok = runner_runq(p, p->omp_rq0 ? i : tid, &rq1) && rq1 >= base && ok;
		if (ok && rq1 - base > *ns)
			*ns = rq1 - base;
	}
	*ns = ok ? *ns : 0;
	return ok;
}

static void runner_sample_fn(void *arg, unsigned tid)
{
	struct runner_point *p = arg;
	struct runner_slot *s = &p->slots[tid];
	struct lab_thread *t = p->threads[tid];
	uint64_t rq0 = 0, w0;
	bool rq_ok;

	t->work = t->iters;
	memset(t->metric, 0, sizeof(t->metric));
	s->cpu_start = sched_getcpu();
	lab_team_sync(p->team);
	if (p->ctr_first)
		lab_ctr_sample_start(p->ctr, tid);
	/* Outside the timed window, like the counters: a pread of a proc file. The wait it
	 * counts is the wait between the two reads (a worker switched out after end_ns waits
	 * before its second read returns), so it is a share of their span, not of the sample's:
	 * over the sample's span it came to 1.18 under load. */
	w0 = lab_clock_ns();
	rq_ok = runner_runq_start(p, tid, &rq0);
	s->start_ns = lab_clock_ns();
	atomic_fetch_add_explicit(&p->started, 1, memory_order_release);
	p->spec->kernel->run(&p->ctx, t);
	s->end_ns = lab_clock_ns();
	s->runq_ok = runner_runq_wait(p, tid, rq0, &s->runq_ns) && rq_ok;
	s->runq_ns = s->runq_ok ? s->runq_ns : 0;
	s->runq_span_ns = lab_clock_ns() - w0;
	s->cpu_end = sched_getcpu();
	if (p->ctr_last)
		lab_ctr_sample_stop(
		    p->ctr, tid, p->ctr_first ? s->cpu_start : p->acc[tid].cpu_start, s->cpu_end);
	t->work_total += t->work;
}

void lab__runner_sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
	                      .tv_nsec = (long)(ns % 1000000000u)};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0)
		;
}

/* One sample of iters per thread (or of duration_ns for timed kernels); returns elapsed ns. */
uint64_t lab__runner_sample(struct runner_point *p, uint64_t iters, uint64_t duration_ns)
{
	unsigned n = p->nw;
	uint64_t first = UINT64_MAX, last = 0;

	for (unsigned i = 0; i < n; i++)
		p->threads[i]->iters = p->timed ? UINT64_MAX : iters;
	atomic_store_explicit(&p->started, 0, memory_order_relaxed);
	if (p->timed) {
		lab_team_start(p->team, runner_sample_fn, p);
		/* The sample's time counts from when every worker runs, not from when it was woken.
		 */
		while (atomic_load_explicit(&p->started, memory_order_acquire) < n)
			lab__runner_sleep_ns(20000);
		/* In slices, so Ctrl-C ends a long timed sample within 50 ms. */
		for (uint64_t t0 = lab_clock_ns(), left = duration_ns; left > 0;) {
			lab__runner_sleep_ns(left < 50000000 ? left : 50000000);
			uint64_t spent = lab_clock_ns() - t0;
			left = spent >= duration_ns || lab__runner_interrupted(p->r)
			           ? 0
			           : duration_ns - spent;
		}
		atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
		lab_team_wait(p->team);
		atomic_store_explicit(&p->stop, 0, memory_order_relaxed);
	} else {
		lab_team_run(p->team, runner_sample_fn, p);
	}
	for (unsigned i = 0; i < n; i++) {
		if (p->slots[i].start_ns < first)
			first = p->slots[i].start_ns;
		if (p->slots[i].end_ns > last)
			last = p->slots[i].end_ns;
	}
	return last - first;
}

/*
 * True when a worker of the sample just taken waited for its CPU more than max_runq_wait of
 * it (the run-queue guard; never when the reading is unknown or the guard is off).
 */
static bool runner_disturbed(const struct runner_point *p)
{
	for (unsigned i = 0; i < p->nw; i++)
		if (lab__runner_runq_over(p->spec->h, lab__runner_slot_runq(&p->slots[i])))
			return true;
	return false;
}

/* Calibration samples a worker spent waiting for its CPU that are not counted (then they are:
 * under persistent load calibration must still end). */
#define RUNNER_CALIB_DISTURBED_MAX 20

/*
 * Warm-up and calibration in one: grow the iteration count until a sample lasts the target,
 * then keep running untimed until the warm-up time is spent. Returns the iterations per sample.
 */
uint64_t lab__runner_calibrate(struct runner_point *p)
{
	const struct lab_hparams *h = p->spec->h;
	double target = (double)h->min_time / p->chunks;
	double floor_ns = 1000.0 * p->r->env->clock_resolution_ns;
	uint64_t iters = 1, t0 = lab_clock_ns();

	if (target < floor_ns)
		target = floor_ns;
	if (p->timed) {
		if (h->warmup)
			lab__runner_sample(p, 0, h->warmup);
		return 0;
	}
	/*
	 * Two samples in a row must reach the target, within 1.5x of each other, and a sample a
	 * worker spent waiting for its CPU does not count: one that was preempted reads long and
	 * would leave the count too small for the real samples. A stretch the guest does not see
	 * (the hypervisor ran another guest) left a 2-thread peak point at 1 iteration per sample:
	 * 12 ms and 5 ms in calibration, 1.6 us measured; two such stretches rarely agree.
	 */
	uint64_t last = 0;
	for (unsigned reached = 0, disturbed = 0, unlike = 0;;) {
		uint64_t e = lab__runner_sample(p, iters, 0);
		if (lab__runner_interrupted(p->r))
			break;
		/* A sample stretched by another task on a worker's CPU says nothing about how
		 * long the work takes (one such sample left a c2c point at 1 round trip). */
		if (runner_disturbed(p) && ++disturbed <= RUNNER_CALIB_DISTURBED_MAX) {
			reached = 0;
			continue;
		}
		if ((double)e >= target) {
			/* unlike its predecessor at these iterations: one of them was stretched */
			if (reached && (e > last + last / 2 || last > e + e / 2) &&
			    ++unlike <= RUNNER_CALIB_DISTURBED_MAX)
				reached = 0;
			last = e;
			if (++reached == 2)
				break;
			continue;
		}
		reached = 0;
		double grow = e > 0 ? 1.2 * target / (double)e : 16.0;
		grow = grow < 1.5 ? 1.5 : grow > 16.0 ? 16.0 : grow;
		if ((double)iters * grow > (double)(UINT64_MAX / 4))
			break;
		iters = (uint64_t)ceil((double)iters * grow);
	}
	while (lab_clock_ns() - t0 < h->warmup && !lab__runner_interrupted(p->r))
		lab__runner_sample(p, iters, 0);
	return iters;
}

/*
 * Chunks per iteration-count sample: 1 unless min_time is over two chunks. Kernels with a
 * summarize hook compute sample-level metrics that need not combine across chunks: their
 * samples stay whole (a documented limit: Ctrl-C waits for such a sample to end).
 */
unsigned lab__runner_chunks(const struct runner_point *p)
{
	uint64_t t = p->spec->h->min_time;

	if (p->timed || p->spec->kernel->summarize || t <= 2 * RUNNER_CHUNK_NS)
		return 1;
	return (unsigned)((t + RUNNER_CHUNK_NS - 1) / RUNNER_CHUNK_NS);
}

/* Adds chunk c of a sample to each worker's running totals, by each metric's rule. */
static void runner_acc_add(struct runner_point *p, unsigned c)
{
	const struct lab_metric *m = p->spec->kernel->metrics;

	for (unsigned i = 0; i < p->nw; i++) {
		struct runner_acc *a = &p->acc[i];
		const struct lab_thread *t = p->threads[i];
		if (c == 0) {
			*a = (struct runner_acc){.start_ns = p->slots[i].start_ns,
			                         .cpu_start = p->slots[i].cpu_start,
			                         .runq_ok = true};
			memcpy(a->metric, t->metric, sizeof(a->metric));
		}
		a->work += t->work;
		a->runq_ok = a->runq_ok && p->slots[i].runq_ok;
		a->runq_ns += p->slots[i].runq_ns;
		a->runq_span_ns += p->slots[i].runq_span_ns;
		for (unsigned k = 0; c > 0 && m && m[k].name && k < LAB_METRICS_MAX; k++) {
			double v = t->metric[k];
			if (m[k].agg == LAB_AGG_MAX)
				a->metric[k] = v > a->metric[k] ? v : a->metric[k];
			else if (m[k].agg == LAB_AGG_MIN)
				a->metric[k] = v < a->metric[k] ? v : a->metric[k];
			else if (m[k].agg == LAB_AGG_MEAN)
				a->metric[k] += (v - a->metric[k]) / (c + 1);
			else
				a->metric[k] += v;
		}
	}
}

/*
 * One recorded sample. An iteration-count sample of several chunks reports the sum of the
 * chunks' elapsed times (the barrier between chunks is not counted), the work and metrics
 * combined over the chunks, and per thread the start of its first chunk and the end of its
 * last. Returns false when interrupted between chunks (the sample is dropped).
 */
bool lab__runner_sample_whole(struct runner_point *p, uint64_t iters, uint64_t *elapsed)
{
	*elapsed = 0;
	if (p->timed || p->chunks == 1) {
		*elapsed = lab__runner_sample(p, iters, p->spec->h->min_time);
		return true;
	}
	bool done = true;
	for (unsigned c = 0; c < p->chunks; c++) {
		if (c > 0 && lab__runner_interrupted(p->r)) {
			done = false;
			break;
		}
		p->ctr_first = c == 0;
		p->ctr_last = c + 1 == p->chunks;
		*elapsed += lab__runner_sample(p, iters, 0);
		runner_acc_add(p, c);
	}
	p->ctr_first = p->ctr_last = true;
	if (!done)
		return false;
	for (unsigned i = 0; i < p->nw; i++) {
		p->threads[i]->work = p->acc[i].work;
		memcpy(p->threads[i]->metric, p->acc[i].metric, sizeof(p->acc[i].metric));
		p->slots[i].start_ns = p->acc[i].start_ns;
		p->slots[i].cpu_start = p->acc[i].cpu_start;
		p->slots[i].runq_ok = p->acc[i].runq_ok;
		p->slots[i].runq_ns = p->acc[i].runq_ns;
		p->slots[i].runq_span_ns = p->acc[i].runq_span_ns;
	}
	return true;
}
