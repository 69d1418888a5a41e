/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Retrying samples flagged for foreign load: the noop kernel through the real runner with a fake
 * load source that replays a sequence of readings. Counts attempts and readings, never time.
 */
#include <math.h>
#include <string.h>

#include "harness/clock.h"
#include "harness/param.h"
#include "harness/plan.h"
#include "kernels/registry.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

#define RT_BUSY 1e6 /* vCPUs: above any limit */

/* Readings in order; past the end, the last one repeats. */
struct rt_seq {
	const double *v;
	unsigned n, calls;
};

static double rt_read(void *ctx)
{
	struct rt_seq *s = ctx;
	double v = s->v[s->calls < s->n ? s->calls : s->n - 1];

	s->calls++;
	return v;
}

static const struct lab_kernel *rt_noop(void)
{
	return lab_plan_kernel_find(lab_kernels, "noop");
}

static int rt_run(struct rt_seq *s, unsigned retry, uint64_t wait_ns, struct lab_point_rec *rec)
{
	struct kpoint_opts o = {.nthreads = 1,
	                        .reps = 3,
	                        .min_time_ns = 100000,
	                        .foreign = rt_read,
	                        .foreign_ctx = s,
	                        .retry_flagged = retry,
	                        .quiet_wait_ns = wait_ns};

	return kpoint_run(rt_noop(), NULL, &o, rec);
}

/* The first sample is flagged twice, then quiet: it is kept from its third attempt. */
LAB_TEST(flagged_sample_retried_until_quiet)
{
	static const double v[] = {RT_BUSY, RT_BUSY, 0};
	struct rt_seq s = {v, 3, 0};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_run(&s, 3, 0, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK);
	CHECK_EQ_U64(rec.nreps, 3);
	CHECK_EQ_U64(rec.nflagged, 0);
	CHECK_EQ_U64(rec.samples[0].attempts, 3);
	CHECK_EQ_U64(rec.samples[1].attempts, 1);
	CHECK_EQ_U64(rec.samples[2].attempts, 1);
	CHECK_EQ_U64(rec.attempts, 5);
	CHECK_EQ_U64(s.calls, 5);
	CHECK(!rec.samples[0].flagged);
	kpoint_free(&rec);
}

/* Load that never drops: the first sample is taken 1 + retry_flagged times and kept flagged;
 * the load is then persistent, and the point's later samples are taken once each (retrying
 * every one would multiply the run time by the waits and change nothing). */
LAB_TEST(flagged_sample_kept_after_bound)
{
	static const double v[] = {RT_BUSY};
	struct rt_seq s = {v, 1, 0};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_run(&s, 3, 0, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK);
	CHECK_EQ_U64(rec.nreps, 3);
	CHECK_EQ_U64(rec.nflagged, 3);
	CHECK_EQ_U64(rec.attempts, 6);
	for (unsigned i = 0; i < rec.nreps; i++) {
		CHECK_EQ_U64(rec.samples[i].attempts, i == 0 ? 4 : 1);
		CHECK(rec.samples[i].flagged);
		CHECK(rec.samples[i].foreign_cpu == RT_BUSY);
	}
	kpoint_free(&rec);
}

/* After two points whose load outlasted every retry, a point retries its flagged sample once,
 * after a short look (not 3 x 60 s): a neighbour that stays does not multiply the run time. */
LAB_TEST(persistent_load_shortens_retries)
{
	static const double v[] = {RT_BUSY};
	struct rt_seq s = {v, 1, 0};
	struct lab_point_rec rec;
	struct kpoint_opts o = {.nthreads = 1,
	                        .reps = 3,
	                        .min_time_ns = 100000,
	                        .foreign = rt_read,
	                        .foreign_ctx = &s,
	                        .retry_flagged = 3,
	                        .quiet_wait_ns = 60000000000ull,
	                        .load_persistent = 2};

	REQUIRE(rt_noop() != NULL);
	REQUIRE(kpoint_run(rt_noop(), NULL, &o, &rec) == 0);
	CHECK_EQ_U64(rec.nflagged, 3);
	CHECK_EQ_U64(rec.samples[0].attempts, 2);
	CHECK_EQ_U64(rec.attempts, 4);
	/* each sample's reading, and at most two in the 200 ms look (one per 100 ms) */
	CHECK(s.calls <= 4 + 2);
	kpoint_free(&rec);
}

/* retry_flagged = 0 keeps the old behaviour: one attempt, flagged. */
LAB_TEST(no_retry_when_bound_is_zero)
{
	static const double v[] = {RT_BUSY};
	struct rt_seq s = {v, 1, 0};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_run(&s, 0, 0, &rec) == 0);
	CHECK_EQ_U64(rec.nflagged, 3);
	CHECK_EQ_U64(rec.attempts, 3);
	CHECK_EQ_U64(s.calls, 3);
	kpoint_free(&rec);
}

/*
 * The quiet wait reads the load and ends as soon as it drops: busy sample, one quiet reading
 * in the wait, quiet retry. A wait of 60 s that did not end early would read the load ~600
 * times, so the count of readings shows it ended (and the test would take a minute).
 */
LAB_TEST(quiet_wait_ends_when_load_drops)
{
	static const double v[] = {RT_BUSY, 0};
	struct rt_seq s = {v, 2, 0};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_run(&s, 3, 60000000000ull, &rec) == 0);
	CHECK_EQ_U64(rec.samples[0].attempts, 2);
	CHECK_EQ_U64(rec.nflagged, 0);
	CHECK_EQ_U64(s.calls, 2 + 1 + 2);
	kpoint_free(&rec);
}

/* Unknown load (NaN) never flags and never retries. */
LAB_TEST(unknown_load_not_flagged)
{
	static const double v[] = {NAN};
	struct rt_seq s = {v, 1, 0};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_run(&s, 3, 0, &rec) == 0);
	CHECK_EQ_U64(rec.nflagged, 0);
	CHECK_EQ_U64(rec.attempts, 3);
	kpoint_free(&rec);
}

/* The limit is the threshold plus the CPUs the team leaves idle. */
LAB_TEST(load_limit_scales_with_team_and_cpus)
{
	struct lab_hparams h;
	struct lab_err err = {0};

	REQUIRE(lab_param_defaults(lab_hparam_table, &h, &err) == 0);
	CHECK_NEAR(h.load_threshold, 0.25, 0);
	CHECK_EQ_U64(h.retry_flagged, 3);
	CHECK_EQ_U64(h.quiet_wait, 2000000000ull);
	CHECK_NEAR(lab_runner_load_limit(&h, 1, 2), 1.25, 1e-12);
	CHECK_NEAR(lab_runner_load_limit(&h, 2, 2), 0.25, 1e-12);
	CHECK_NEAR(lab_runner_load_limit(&h, 4, 2), 0.25, 1e-12);
	CHECK_NEAR(lab_runner_load_limit(&h, 8, 64), 56.25, 1e-12);
	CHECK_NEAR(lab_runner_load_limit(&h, 1, 0), 0.25, 1e-12);
}

/*
 * A fake run-queue source: each worker's total wait grows at `share` of the wall clock while
 * fewer than busy_records samples were recorded (the foreign reading, taken once per recorded
 * sample, counts them), then stops growing. Readings stay monotonic, like run_delay.
 */
struct rt_runq {
	double share;
	unsigned busy_records, records;
	uint64_t last[2];
	double total[2];
};

static int rt_runq_read(void *ctx, unsigned tid, uint64_t *ns)
{
	struct rt_runq *q = ctx;
	uint64_t now = lab_clock_ns();

	if (q->last[tid] && q->records < q->busy_records)
		q->total[tid] += q->share * (double)(now - q->last[tid]);
	q->last[tid] = now;
	*ns = (uint64_t)q->total[tid];
	return 0;
}

static double rt_runq_foreign(void *ctx)
{
	((struct rt_runq *)ctx)->records++;
	return 0; /* no machine-wide load: only the run queue flags */
}

static int rt_runq_run(struct rt_runq *q, unsigned retry, double max_wait,
                       struct lab_point_rec *rec)
{
	struct kpoint_opts o = {.nthreads = 1,
	                        .reps = 3,
	                        .min_time_ns = 100000,
	                        .foreign = rt_runq_foreign,
	                        .foreign_ctx = q,
	                        .runq = rt_runq_read,
	                        .runq_ctx = q,
	                        .retry_flagged = retry,
	                        .max_runq_wait = max_wait};

	return kpoint_run(rt_noop(), NULL, &o, rec);
}

/* A worker that waited half of its sample for its CPU flags the sample although the machine's
 * foreign load reads 0: two such attempts, then a quiet one that is kept. */
LAB_TEST(runq_wait_flags_and_retries)
{
	struct rt_runq q = {.share = 0.5, .busy_records = 2};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_runq_run(&q, 3, 0, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK);
	CHECK_EQ_U64(rec.samples[0].attempts, 3);
	CHECK_EQ_U64(rec.nflagged, 0);
	CHECK_EQ_U64(rec.nflagged_runq, 0);
	CHECK(rec.samples[0].runq_wait == 0);
	CHECK(rec.threads[0].runq_wait == 0);
	kpoint_free(&rec);
}

/* Waiting that never stops: every sample kept flagged, each counted as a run-queue flag, with
 * its share recorded (above the 5 % default). The share is of the span between the two reads
 * of the wait, which hold the fake's growth: 0.5 of slightly less than that span. */
LAB_TEST(runq_wait_kept_flagged)
{
	struct rt_runq q = {.share = 0.5, .busy_records = 1000};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_runq_run(&q, 1, 0, &rec) == 0);
	CHECK_EQ_U64(rec.nflagged, 3);
	CHECK_EQ_U64(rec.nflagged_runq, 3);
	for (unsigned i = 0; i < rec.nreps; i++) {
		CHECK(rec.samples[i].flagged && rec.samples[i].flagged_runq);
		CHECK(rec.samples[i].runq_wait > 0.25 && rec.samples[i].runq_wait <= 0.5);
		CHECK(rec.samples[i].foreign_cpu == 0);
	}
	kpoint_free(&rec);
}

/* max_runq_wait = 1 turns the run-queue flag off (the share is still recorded). */
LAB_TEST(runq_wait_off_at_one)
{
	struct rt_runq q = {.share = 0.5, .busy_records = 1000};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_runq_run(&q, 3, 1, &rec) == 0);
	CHECK_EQ_U64(rec.nflagged, 0);
	CHECK_EQ_U64(rec.attempts, 3);
	CHECK(rec.samples[0].runq_wait > 0.25 && rec.samples[0].runq_wait <= 0.5);
	kpoint_free(&rec);
}

/* A worker that waits all the time (the fake's wait grows with the wall clock) waited a share
 * of 1 at most: the wait read outside the timed window over the timed span came to 1.18 on a
 * loaded machine, a value the analyzer rightly refuses. */
LAB_TEST(runq_wait_at_most_one)
{
	struct rt_runq q = {.share = 1.0, .busy_records = 1000};
	struct lab_point_rec rec;

	REQUIRE(rt_noop() != NULL);
	REQUIRE(rt_runq_run(&q, 1, 1, &rec) == 0);
	for (unsigned i = 0; i < rec.nreps; i++) {
		CHECK(rec.samples[i].runq_wait > 0.5 && rec.samples[i].runq_wait <= 1.0);
		CHECK(rec.threads[i].runq_wait <= 1.0);
	}
	kpoint_free(&rec);
}

/* The persistence count is kept per team size: 1-thread points that run clean between them do
 * not reset the count of the 2-thread ones; a ninth size takes the slot with the fewest. */
LAB_TEST(persistence_by_team_size)
{
	struct lab_runner r = {0};

	lab_runner_persist(&r, 2)->points = 2;
	lab_runner_persist(&r, 1)->points = 0;
	CHECK_EQ_U64(lab_runner_persist(&r, 2)->points, 2);
	for (unsigned n = 3; n <= 8; n++)
		lab_runner_persist(&r, n)->points = 5;
	lab_runner_persist(&r, 9)->points = 1; /* takes the slot of size 1 (0 points) */
	CHECK_EQ_U64(lab_runner_persist(&r, 2)->points, 2);
	CHECK_EQ_U64(lab_runner_persist(&r, 9)->points, 1);
	CHECK_EQ_U64(lab_runner_persist(&r, 1)->points, 0); /* back as new, taking 9's slot */
	CHECK_EQ_U64(lab_runner_persist(&r, 9)->points, 0);
}

/* Quiet for the pilot, then every other sample flagged (retry_flagged = 0: kept, left out): a
 * precision target takes samples until the planned number of them COUNT, not until the count
 * of samples taken reaches it (that left a point short of its target with budget to spare).
 * At 0.1 % the noop's plan is some hundred samples of 0.1 ms: well inside the budget. */
static double rt_alternate(void *ctx)
{
	struct rt_seq *s = ctx;

	return s->calls++ < 10 ? 0 : s->calls % 2 ? RT_BUSY : 0;
}

/* A noop point with a precision target within 2 s, loads from foreign, into rec; *used: the
 * samples it kept unflagged. False when it did not run with its target. */
static bool rt_prec_run(double (*foreign)(void *), const char *precision, struct lab_point_rec *rec,
                        unsigned *used)
{
	struct rt_seq s = {NULL, 0, 0};
	struct kpoint_opts o = {.nthreads = 1,
	                        .reps = 3,
	                        .min_time_ns = 100000,
	                        .foreign = foreign,
	                        .foreign_ctx = &s,
	                        .precision = precision,
	                        .budget_ns = 2000000000ull};

	*used = 0;
	if (!rt_noop() || kpoint_run(rt_noop(), NULL, &o, rec) != 0)
		return false;
	for (unsigned i = 0; i < rec->nreps; i++)
		*used += !rec->samples[i].flagged;
	return rec->status == LAB_STATUS_OK && rec->prec.on;
}

LAB_TEST(precision_counts_only_used_samples)
{
	struct lab_point_rec rec;
	unsigned used;

	REQUIRE(rt_prec_run(rt_alternate, "0.1%", &rec, &used));
	/* either the planned samples count, or the budget said so (when the pilot alone met the
	 * plan nothing is taken after it: then nothing was flagged either) */
	CHECK(rec.nreps == rec.prec.pilot || rec.nflagged > 0);
	CHECK(used >= rec.prec.planned || rec.prec.budget_exhausted);
	CHECK(rec.prec.achieved <= 0.01 || rec.prec.budget_exhausted);
	fprintf(stderr, "pilot %u, planned %u, taken %u, used %u, flagged %u, budget out %d\n",
	        rec.prec.pilot, rec.prec.planned, rec.nreps, used, rec.nflagged,
	        rec.prec.budget_exhausted);
	kpoint_free(&rec);
}

/* Load through the whole pilot, then quiet: the flagged pilot is no observation: as many clean
 * samples are taken, they are the pilot, and the target's samples are unflagged ones, as many as
 * planned; the record's interval is theirs (it counted the flagged pilot as used, took no clean
 * sample and reported a precision from samples the analyzer leaves out). */
static double rt_busy_pilot(void *ctx)
{
	struct rt_seq *s = ctx;

	return s->calls++ < 10 ? RT_BUSY : 0;
}

LAB_TEST(precision_flagged_pilot_is_no_observation)
{
	struct lab_point_rec rec;
	unsigned used;

	REQUIRE(rt_prec_run(rt_busy_pilot, "50%", &rec, &used));
	CHECK_EQ_U64(rec.nflagged, 10);
	CHECK_EQ_U64(rec.prec.pilot, 10); /* the first 10 clean samples */
	CHECK(!rec.prec.budget_exhausted);
	CHECK(used >= rec.prec.planned && used >= 2);
	CHECK_EQ_U64(rec.prec.kept, used);
	CHECK(rec.prec.achieved <= 0.5);
	kpoint_free(&rec);
}

/* The load stays after the pilot but for three samples: the budget runs out before a clean pilot
 * of ten, and the record's pilot is the clean samples there are (the flagged pilot's s0 set the
 * half-width). */
static double rt_three_quiet(void *ctx)
{
	struct rt_seq *s = ctx;

	s->calls++;
	return s->calls > 10 && s->calls <= 13 ? 0 : RT_BUSY;
}

LAB_TEST(precision_flagged_pilot_budget_out)
{
	struct lab_point_rec rec;
	unsigned used;

	REQUIRE(rt_prec_run(rt_three_quiet, "0.1%", &rec, &used));
	CHECK(rec.prec.budget_exhausted);
	CHECK_EQ_U64(used, 3);
	CHECK_EQ_U64(rec.prec.pilot, 3);
	CHECK_EQ_U64(rec.prec.kept, 3);
	CHECK(rec.prec.spent_ns > 0);
	kpoint_free(&rec);
}

/* The noop kernel but for its first two calls, which stall 60 and 25 ms whatever their
 * iterations: what the hypervisor's stretch of a guest does, unseen by the run queue. */
static unsigned rt_stall_calls;

static void rt_stall_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	unsigned call = ++rt_stall_calls;

	if (call <= 2) {
		uint64_t t0 = lab_clock_ns(), stall = call == 1 ? 60000000 : 25000000;
		while (lab_clock_ns() - t0 < stall)
			;
	}
	rt_noop()->run(ctx, t);
}

/* Two calibration samples stretched unlike each other (60 and 25 ms at one iteration, past a
 * 20 ms target) are no calibration: it grows on (a 2-thread peak point was left at one
 * iteration per sample, its samples 1.6 us long against a 5 ms min_time). */
LAB_TEST(calibration_ignores_unlike_stretched_samples)
{
	struct lab_kernel k;
	struct lab_point_rec rec;
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 20000000};

	REQUIRE(rt_noop() != NULL);
	k = *rt_noop();
	k.run = rt_stall_run;
	rt_stall_calls = 0;
	REQUIRE(kpoint_run(&k, NULL, &o, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK);
	CHECK(rt_stall_calls > 4);
	/* an empty loop's iteration takes well under 20 us: 20 ms is over a thousand of them */
	CHECK(rec.iters > 1000);
	kpoint_free(&rec);
}
