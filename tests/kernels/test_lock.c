/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lock kernel through the real runner: every lock kind at 1 and 2 threads keeps mutual
 * exclusion (verify passes), a kernel with no lock at all is caught by verify, the fairness
 * metrics are what their definitions say at 1 thread, and the latency histogram's quantiles.
 * No timing assertions.
 */
#include "kernels/lat_hist.h"
#include "kernels/lock_run.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

extern const struct lab_kernel lab_kernel_lock;

/*
 * A test-only lock kind, `none`: the lock kernel's loop with no lock at all, so a test can show
 * that verify catches lost updates (a test that cannot fail proves nothing). It lives here, not
 * in the production library: configs can never name it.
 */
#define TL_NONE LK_NKINDS

LK_DEFINE_RUN(none, (void)0, (void)0, LK_CS_WRITE)

static const struct lab_enum_val tl_kinds[] = {
    {"ticket", LK_TICKET, "ticket lock"},
    {"none", TL_NONE, "no lock at all: verify must fail"},
    {NULL, 0, NULL},
};

static const struct lab_param tl_params[] = {
    LAB_P_ENUM(struct lk_params, lock, "lock", "none", tl_kinds, "The lock."),
    LK_COMMON_PARAMS,
    LAB_PARAM_END,
};

static void tl_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct lk_params *p = ctx->params;

	lk_run_with(ctx, t, p->lock == TL_NONE ? lk_run_none : lk_run_of(p->lock));
}

/* The production descriptor with the test's lock choices and run hook. */
static struct lab_kernel tl_kernel(void)
{
	struct lab_kernel k = lab_kernel_lock;

	k.name = "lock_no_lock";
	k.params = tl_params;
	k.check = NULL;
	k.run = tl_run;
	return k;
}

/* Runs lock kind `kind` (plus extra "key=value") at n threads; true when it ran and verified. */
static void check_kind_n(const char *kind, const char *extra, unsigned n)
{
	char lock[64];
	const char *kv[] = {lock, extra, NULL};
	struct kpoint_opts o = {.nthreads = n, .reps = 3, .min_time_ns = 20000000};
	struct lab_point_rec rec;

	snprintf(lock, sizeof(lock), "lock=%s", kind);
	int rc = kpoint_run(&lab_kernel_lock, kv, &o, &rec);
	if (rc == LAB_SKIP)
		SKIP("lock=%s at %u threads: %s", kind, n, kpoint_skip_reason());
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	CHECK_EQ_U64(rec.nreps, 3);
	uint64_t total = 0;
	for (unsigned i = 0; i < n && rec.threads; i++) {
		uint64_t w = kpoint_thread_work(&rec, i);
		fprintf(stderr, "%s n=%u thread %u: %llu acquisitions\n", kind, n, i,
		        (unsigned long long)w);
		total += w;
	}
	CHECK(total > 0);
	kpoint_free(&rec);
}

static void check_kind(const char *kind)
{
	check_kind_n(kind, NULL, 1);
	check_kind_n(kind, NULL, 2);
}

LAB_TEST(tas)
{
	check_kind("tas");
}
LAB_TEST(ttas)
{
	check_kind("ttas");
}
LAB_TEST(ttas_backoff)
{
	check_kind("ttas_backoff");
}
LAB_TEST(ticket)
{
	check_kind("ticket");
}
LAB_TEST(mcs)
{
	check_kind("mcs");
}
LAB_TEST(clh)
{
	check_kind("clh");
}
LAB_TEST(pthread_mutex)
{
	check_kind("pthread_mutex");
}
LAB_TEST(pthread_spin)
{
	check_kind("pthread_spin");
}
LAB_TEST(rwlock_read)
{
	check_kind("rwlock_read");
	check_kind_n("rwlock_read", "cs_lines=4", 2);
}
LAB_TEST(rwlock_write)
{
	check_kind("rwlock_write");
}
LAB_TEST(ck_fas)
{
	check_kind("ck_fas");
}
LAB_TEST(ck_cas)
{
	check_kind("ck_cas");
}
LAB_TEST(ck_ticket)
{
	check_kind("ck_ticket");
}
LAB_TEST(ck_mcs)
{
	check_kind("ck_mcs");
}
LAB_TEST(ck_clh)
{
	check_kind("ck_clh");
}

/* Shared lines in the critical section are verified too; think time spaces acquisitions. */
LAB_TEST(cs_lines_and_think)
{
	check_kind_n("mcs", "cs_lines=8", 2);
	check_kind_n("ttas", "think_ns=200ns", 2);
	check_kind_n("ticket", "cs_ns=100ns", 2);
}

/*
 * With no lock, two threads doing load, work, store on one counter lose updates; verify must
 * say so. Concurrency (or preemption inside the 200 ns window) is near certain within 60 ms;
 * a few attempts make a spurious pass practically impossible.
 */
LAB_TEST(no_lock_fails_verify)
{
	const char *kv[] = {"lock=none", "cs_ns=200ns", NULL};
	struct kpoint_opts o = {.nthreads = 2, .reps = 3, .min_time_ns = 20000000};
	bool failed = false;

	const struct lab_kernel k = tl_kernel();

	for (int attempt = 0; attempt < 5 && !failed; attempt++) {
		struct lab_point_rec rec;
		REQUIRE(kpoint_run(&k, kv, &o, &rec) == 0);
		if (rec.verify == LAB_VERIFY_FAIL) {
			failed = true;
			CHECK_EQ_I64(rec.status, LAB_STATUS_FAILED);
			CHECK(strstr(rec.reason, "mutual exclusion failed") != NULL);
			fprintf(stderr, "verify said: %s\n", rec.reason);
		}
		kpoint_free(&rec);
	}
	CHECK(failed);
}

/* The same harness path with a real lock passes: the failure above is the lock's absence. */
LAB_TEST(test_descriptor_with_lock_passes)
{
	const char *kv[] = {"lock=ticket", "cs_ns=200ns", NULL};
	struct kpoint_opts o = {.nthreads = 2, .reps = 2, .min_time_ns = 10000000};
	struct lab_point_rec rec;
	const struct lab_kernel k = tl_kernel();

	REQUIRE(kpoint_run(&k, kv, &o, &rec) == 0);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	kpoint_free(&rec);
}

/* At 1 thread the fairness metrics are exact by definition; latencies were sampled. */
LAB_TEST(metrics_one_thread)
{
	const char *kv[] = {"lock=tas", "lat_every=16", NULL};
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 5000000};
	struct lab_point_rec rec;
	int jain = kpoint_metric(&lab_kernel_lock, "jain_fairness");
	int ratio = kpoint_metric(&lab_kernel_lock, "max_min_ratio");
	int p50 = kpoint_metric(&lab_kernel_lock, "acq_lat_p50_ns");
	int p99 = kpoint_metric(&lab_kernel_lock, "acq_lat_p99_ns");
	int ns = kpoint_metric(&lab_kernel_lock, "lat_samples");
	int handoff = kpoint_metric(&lab_kernel_lock, "handoff_ratio");

	REQUIRE(jain >= 0 && ratio >= 0 && p50 >= 0 && p99 >= 0 && ns >= 0 && handoff >= 0);
	REQUIRE(kpoint_run(&lab_kernel_lock, kv, &o, &rec) == 0);
	for (unsigned r = 0; r < rec.nreps; r++) {
		const double *m = rec.samples[r].metric;
		CHECK_NEAR(m[jain], 1.0, 1e-12);
		CHECK_NEAR(m[ratio], 1.0, 1e-12);
		CHECK(m[ns] > 0);
		CHECK(m[p50] > 0 && m[p99] >= m[p50]);
		/* Alone, a thread takes the lock from itself: at most the very first is a hand-off.
		 */
		CHECK(m[handoff] * (double)rec.samples[r].work <= 1.0);
	}
	kpoint_free(&rec);
}

LAB_TEST(lat_hist_quantiles)
{
	struct lh_hist h;

	lh_reset(&h);
	CHECK(isnan(lh_quantile(&h, 0.5)));
	for (uint64_t v = 1; v <= 1000; v++)
		lh_add(&h, v);
	CHECK_EQ_U64(h.count, 1000);
	/* Buckets are at most 1/8 of an octave wide: within 7 % of the true quantile. */
	CHECK_NEAR(lh_quantile(&h, 0.50), 500, 35);
	CHECK_NEAR(lh_quantile(&h, 0.99), 990, 70);
	CHECK_NEAR(lh_quantile(&h, 0.001), 1, 0.01);
	/* Small values are exact; huge ones land in the last bucket, not out of bounds. */
	CHECK_EQ_U64(lh_index(5), 5);
	CHECK_EQ_U64(lh_index(UINT64_MAX), LH_BUCKETS - 1);
	for (uint64_t v = 8; v < 100000; v = v * 5 / 4 + 1) {
		unsigned i = lh_index(v);
		CHECK(lh_index(v + 1) >= i);
		CHECK(fabs(lh_bucket_mid(i) - (double)v) <= (double)v / 8 + 1);
	}
}

LAB_TEST(lat_ring_quantiles)
{
	static struct lh_ring r; /* 128 KiB: not on the stack */
	static const double q[] = {0.0, 0.10, 0.50, 0.95, 1.0};
	double out[5];

	lh_ring_reset(&r);
	lh_ring_quantiles(&r, q, out, 1);
	CHECK(isnan(out[0]));
	for (int v = 101; v >= 1; v--)
		lh_ring_add(&r, v);
	lh_ring_quantiles(&r, q, out, 5);
	CHECK_NEAR(out[0], 1, 1e-12);
	CHECK_NEAR(out[1], 11, 1e-12);
	CHECK_NEAR(out[2], 51, 1e-12);
	CHECK_NEAR(out[3], 96, 1e-12);
	CHECK_NEAR(out[4], 101, 1e-12);
	/* Type 7 interpolates: of {1, 2}, the median is 1.5. */
	lh_ring_reset(&r);
	lh_ring_add(&r, 2);
	lh_ring_add(&r, 1);
	lh_ring_quantiles(&r, &q[2], out, 1);
	CHECK_NEAR(out[0], 1.5, 1e-12);
	/* Past LH_RING_MAX values only the most recent are kept. */
	lh_ring_reset(&r);
	for (int i = 0; i < LH_RING_MAX; i++)
		lh_ring_add(&r, 1000);
	for (int i = 0; i < LH_RING_MAX; i++)
		lh_ring_add(&r, 7);
	CHECK_EQ_U64(r.n, 2 * LH_RING_MAX);
	lh_ring_quantiles(&r, q, out, 5);
	CHECK_NEAR(out[4], 7, 1e-12);
}

/*
 * Every kind runs a 1 us critical section at 1 thread, verifies, and records the critical
 * section it really spent (cs_achieved_ns, from the timed acquisitions). Whether that length is
 * the same in every kind is a measurement, not a unit test: bench/lock_cs.py prints max/min over
 * kinds (bench/RESULTS.md). Here only that each kind has a figure.
 */
LAB_TEST(cs_achieved_recorded_in_every_kind)
{
	static const char *const kinds[] = {
	    "tas",    "ttas",          "ttas_backoff", "ticket",      "mcs",
	    "clh",    "pthread_mutex", "pthread_spin", "rwlock_read", "rwlock_write",
	    "ck_fas", "ck_cas",        "ck_ticket",    "ck_mcs",      "ck_clh"};
	int cs = kpoint_metric(&lab_kernel_lock, "cs_achieved_ns");

	REQUIRE(cs >= 0);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char lock[64];
		const char *kv[] = {lock, "cs_ns=1us", "lat_every=4", NULL};
		struct kpoint_opts o = {.nthreads = 1, .reps = 3, .min_time_ns = 3000000};
		struct lab_point_rec rec;

		snprintf(lock, sizeof(lock), "lock=%s", kinds[i]);
		int rc = kpoint_run(&lab_kernel_lock, kv, &o, &rec);
		if (rc == LAB_SKIP) {
			SKIP_PART("lock=%s: %s", kinds[i], kpoint_skip_reason());
			continue;
		}
		REQUIRE(rc == 0);
		CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
		CHECK_EQ_U64(rec.nreps, 3);
		for (unsigned r = 0; r < rec.nreps; r++) {
			double v = rec.samples[r].metric[cs];
			fprintf(stderr, "%-14s sample %u: cs_achieved_ns %.0f\n", kinds[i], r, v);
			CHECK(isfinite(v));
		}
		kpoint_free(&rec);
	}
}

/* Each point records its calibration of the busy loop; no timed acquisitions, no cs figure. */
LAB_TEST(delay_calibration_recorded)
{
	const char *kv[] = {"lock=tas", "cs_ns=200ns", "lat_every=0", NULL};
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 2000000};
	struct lab_point_rec rec;
	int per = kpoint_metric(&lab_kernel_lock, "delay_ns_per_loop");
	int drift = kpoint_metric(&lab_kernel_lock, "delay_drift_pct");
	int cs = kpoint_metric(&lab_kernel_lock, "cs_achieved_ns");

	REQUIRE(per >= 0 && drift >= 0 && cs >= 0);
	REQUIRE(kpoint_run(&lab_kernel_lock, kv, &o, &rec) == 0);
	for (unsigned r = 0; r < rec.nreps; r++) {
		const double *m = rec.samples[r].metric;
		CHECK(m[per] > 0 && isfinite(m[per]));
		CHECK(isfinite(m[drift]));
		/* drift is this point's value against the fastest calibration so far, in
		 * percent: never below it */
		CHECK(m[drift] >= 0);
		CHECK(m[drift] <= 100 * (m[per] / lab_delay_fastest(NAN) - 1) + 1e-9);
		CHECK(isnan(m[cs]));
	}
	kpoint_free(&rec);
}

/* Durations to loop counts, and the calibration's bookkeeping. */
LAB_TEST(delay_loops_for)
{
	struct lab_delay_cal cal = {.ns_per_loop = 0.25};
	struct lab_delay_cal bad = {.ns_per_loop = 0};

	CHECK_EQ_U64(lab_delay_loops_for(&cal, 1000), 4000);
	CHECK_EQ_U64(lab_delay_loops_for(&cal, 0), 0);
	CHECK_EQ_U64(lab_delay_loops_for(&bad, 1000), 0);
	/* the fastest so far: a slower value leaves it, a faster one takes its place */
	double f = lab_delay_fastest(NAN);
	CHECK(!(f <= 0));
	if (isfinite(f)) {
		CHECK(lab_delay_fastest(f * 2) == f);
		CHECK(lab_delay_fastest(f / 2) == f / 2);
		CHECK(lab_delay_fastest(0) == f / 2 && lab_delay_fastest(-1) == f / 2);
	}
	lab_delay_calibrate(&cal, 100, 100000); /* rounds are capped */
	CHECK_EQ_U64(cal.rounds, LAB_DELAY_ROUNDS_MAX);
	CHECK(cal.ns_per_loop > 0 && cal.loops_per_round >= 4096);
	lab_delay_loops(0); /* returns at once */
}
