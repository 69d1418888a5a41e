/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lock: acquisitions of one lock under contention; throughput, fairness and acquire latency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "harness/clock.h"
#include "kernels/lock_internal.h"

static const char lk_description[] =
    "Every thread loops: acquire one shared lock, do the critical section (a read-modify-write\n"
    "of a protected counter around cs_ns of calibrated busy loop and cs_lines shared cache\n"
    "lines), release, then think_ns of private work. The unit of work is one acquisition. Lock\n"
    "kinds written in the lab with C11 atomics: tas (exchange until it returns 0), ttas (spin\n"
    "on a load, exchange when free), ttas_backoff (exponential PAUSE backoff), ticket (FIFO,\n"
    "all waiters spin on one word), mcs and clh (FIFO queues, each waiter spins on its own\n"
    "line); references: pthread_mutex (futex), pthread_spin, pthread rwlock in read and write\n"
    "mode, and Concurrency Kit's ck_fas, ck_cas (both TTAS-style), ck_ticket, ck_mcs, ck_clh.\n"
    "What to compare: at 1 thread a spinlock costs about one atomic (tas, ttas, ticket, clh),\n"
    "mcs about two, the mutex a call more. At 2+ threads with a short critical section the\n"
    "fair locks (ticket, mcs, clh) hand the lock to another core on every acquisition\n"
    "(handoff_ratio near 1), so each acquisition pays a line transfer and their throughput\n"
    "falls below the 1-thread figure; tas and ttas can keep theirs because the releasing thread\n"
    "re-acquires from its own cache before the waiter's request lands (handoff_ratio well\n"
    "below 1). How large the gap is depends on the machine: the config's lessons check it\n"
    "with an interval. Whether that evens out over a sample or starves\n"
    "threads shows in jain_fairness ((sum x)^2 / (n sum x^2) over per-thread acquisitions; 1 =\n"
    "fair, 1/n = one thread gets all), max_min_ratio (most / fewest acquisitions; a thread with\n"
    "none counts as 1) and the per-thread counts in threads.csv: how even tas is depends on the\n"
    "machine (measure it), and with more threads and across sockets it can starve some.\n"
    "acq_lat_p50_ns / acq_lat_p99_ns\n"
    "time a sampled subset of acquires (1 in lat_every, jittered) with two clock reads (a third\n"
    "ends the timed critical section, for cs_achieved_ns); a clock read has a cost\n"
    "(run.json: read_cost_ns), which bounds what they resolve: uncontended acquires read as the\n"
    "clock's cost, so use them for the contended tail, not for the uncontended few ns. The\n"
    "clock read before a timed acquire and the bookkeeping after its release open a gap in\n"
    "which a waiter takes a lock the holder would have taken again: an unfair lock's\n"
    "handoff_ratio reads higher with lat_every > 0 than untimed (read it, and the fairness\n"
    "that follows from it, at lat_every = 0), and its timed acquisitions are not typical ones.\n"
    "Larger think_ns lowers contention; larger cs_ns makes the hand-off cost a smaller share.\n"
    "cs_ns and think_ns are loops of one out-of-line busy-wait routine (the same cost in every\n"
    "lock kind), calibrated anew for each point: delay_ns_per_loop is that calibration,\n"
    "delay_drift_pct how much slower it is than the process's fastest calibration so far\n"
    "(beyond 10 % the host's speed moved: compare points with care), cs_achieved_ns the\n"
    "critical section the timed acquisitions really got.";

static const struct lab_enum_val lk_kinds[] = {
    {"tas", LK_TAS, "test-and-set: spin on atomic exchange"},
    {"ttas", LK_TTAS, "test-and-test-and-set: spin on a load, exchange when free"},
    {"ttas_backoff", LK_TTAS_BACKOFF, "TTAS with exponential backoff (4 .. 1024 PAUSEs)"},
    {"ticket", LK_TICKET, "ticket lock: fetch_add a number, wait for your turn"},
    {"mcs", LK_MCS, "MCS queue lock: each waiter spins on its own node"},
    {"clh", LK_CLH, "CLH queue lock: each waiter spins on its predecessor's node"},
    {"pthread_mutex", LK_PTHREAD_MUTEX, "pthread_mutex_t (glibc, futex-based)"},
    {"pthread_spin", LK_PTHREAD_SPIN, "pthread_spinlock_t (glibc)"},
    {"rwlock_read", LK_RWLOCK_READ, "pthread_rwlock_t, every thread takes the read lock"},
    {"rwlock_write", LK_RWLOCK_WRITE, "pthread_rwlock_t, every thread takes the write lock"},
    {"ck_fas", LK_CK_FAS, "Concurrency Kit fetch-and-store lock (TTAS-style)"},
    {"ck_cas", LK_CK_CAS, "Concurrency Kit compare-and-swap lock (TTAS-style)"},
    {"ck_ticket", LK_CK_TICKET, "Concurrency Kit ticket lock"},
    {"ck_mcs", LK_CK_MCS, "Concurrency Kit MCS lock"},
    {"ck_clh", LK_CK_CLH, "Concurrency Kit CLH lock"},
    {NULL, 0, NULL},
};

static const struct lab_param lk_params_table[] = {
    LAB_P_ENUM(struct lk_params, lock, "lock", "ticket", lk_kinds, "The lock implementation."),
    LK_COMMON_PARAMS,
    LAB_PARAM_END,
};

static const struct lab_metric lk_metrics[] = {
    [LK_M_LAT_SAMPLES] = {"lat_samples", "acquisitions", LAB_AGG_SUM,
                          "Acquires timed for the latency percentiles."},
    [LK_M_LAT_P50] = {"acq_lat_p50_ns", "ns", LAB_AGG_KERNEL,
                      "Median acquire latency of the timed subset (includes one clock read)."},
    [LK_M_LAT_P99] = {"acq_lat_p99_ns", "ns", LAB_AGG_KERNEL,
                      "99th percentile acquire latency of the timed subset."},
    [LK_M_JAIN] = {"jain_fairness", "", LAB_AGG_KERNEL,
                   "Jain's index over per-thread acquisitions: 1 fair, 1/threads unfair."},
    [LK_M_MAX_MIN] = {"max_min_ratio", "", LAB_AGG_KERNEL,
                      "Most / fewest acquisitions of any thread (none counts as 1)."},
    [LK_M_HANDOFFS] = {"handoffs", "acquisitions", LAB_AGG_SUM,
                       "Acquisitions whose previous holder was another thread."},
    [LK_M_HANDOFF_RATIO] = {"handoff_ratio", "", LAB_AGG_KERNEL,
                            "Hand-offs / acquisitions: 1 = the lock changes hands every time."},
    [LK_M_CS_ACHIEVED] = {"cs_achieved_ns", "ns", LAB_AGG_KERNEL,
                          "Typical time inside the timed critical sections (the mean of "
                          "those within an octave of the median; one clock read's cost "
                          "removed): compare with cs_ns. NaN with lat_every = 0."},
    [LK_M_DELAY_NS_PER_LOOP] = {"delay_ns_per_loop", "ns", LAB_AGG_KERNEL,
                                "This point's calibration of the busy loop behind cs_ns and "
                                "think_ns (median of 5 rounds of >= 0.5 ms, in setup)."},
    [LK_M_DELAY_DRIFT] = {"delay_drift_pct", "%", LAB_AGG_KERNEL,
                          "How much slower this point's calibration is than the process's "
                          "fastest so far; beyond 10 % the host's speed changed."},
    LAB_METRIC_END,
};

static int lk_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct lk_params *p = params;

	(void)nthreads;
	(void)env;
	if (p->lock < 0 || p->lock >= LK_NKINDS)
		return lab_err_set(err, LAB_ECONFIG, "lock kind %d: unknown", p->lock);
	if (!lk_run_of(p->lock)) {
		lab_err_set(err, LAB_EUNSUP, "%s", lk_ck_missing);
		return LAB_SKIP;
	}
	return 0;
}

static int lk_pthread_init(struct lk_state *st, struct lab_err *err)
{
	int rc = pthread_mutex_init(&st->mutex, NULL);

	if (rc)
		return lab_err_set(err, LAB_ESYS, "pthread_mutex_init: %s", strerror(rc));
	st->pthread_ready[0] = true;
	if ((rc = pthread_spin_init(&st->spin, PTHREAD_PROCESS_PRIVATE)))
		return lab_err_set(err, LAB_ESYS, "pthread_spin_init: %s", strerror(rc));
	st->pthread_ready[1] = true;
	if ((rc = pthread_rwlock_init(&st->rwlock, NULL)))
		return lab_err_set(err, LAB_ESYS, "pthread_rwlock_init: %s", strerror(rc));
	st->pthread_ready[2] = true;
	return 0;
}

/* The lab's and ck's locks, in their unlocked state; queue locks get a pool of n + 1 nodes. */
static int lk_locks_init(struct lk_state *st, unsigned n, struct lab_err *err)
{
	atomic_init(&st->tas.held, 0);
	atomic_init(&st->ticket.next, 0);
	atomic_init(&st->ticket.owner, 0);
	atomic_init(&st->mcs.tail, NULL);
	st->clh_nodes = lab_buf_obj_alloc((n + 1) * sizeof(*st->clh_nodes), err);
	if (!st->clh_nodes)
		return -err->code;
	for (unsigned i = 0; i < n; i++)
		atomic_init(&st->clh_nodes[i].locked, false);
	lab_lock_clh_init(&st->clh, &st->clh_nodes[n]);
	if (lk_ck_setup(st, n, err) != 0)
		return -err->code;
	return lk_pthread_init(st, err);
}

/* Batches short enough that a thread notices the stop flag within ~50 us of its own work. */
static unsigned lk_batch(const struct lk_params *p)
{
	uint64_t per = p->cs_ns + p->think_ns + 20 * p->cs_lines + 50;
	uint64_t b = 50000 / per;

	return b < 1 ? 1 : b > 256 ? 256 : (unsigned)b;
}

static void lk_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n);

/*
 * cs_ns and think_ns as loop counts from a calibration measured now, for this point: the
 * host's speed changes under load (a count fixed once per process turned 1 us into 0.6 us), so
 * each point re-measures, records the value and how much slower it is than the fastest
 * calibration of the process (lab_delay_fastest) as metrics (delay_ns_per_loop,
 * delay_drift_pct), and cs_achieved_ns shows what came of it.
 */
static void lk_calibrate(struct lk_state *st, const struct lk_params *p)
{
	struct lab_delay_cal now;
	double fastest;

	lab_delay_calibrate(&now, 5, 500000);
	fastest = lab_delay_fastest(now.ns_per_loop);
	st->ns_per_loop = now.ns_per_loop;
	/* a point that busy-waits no time uses no calibration: its drift is no number of it */
	st->drift_pct = fastest > 0 && (p->cs_ns || p->think_ns)
	                    ? 100.0 * (now.ns_per_loop / fastest - 1.0)
	                    : NAN;
	st->cs_loops = lab_delay_loops_for(&now, p->cs_ns);
	st->think_loops = lab_delay_loops_for(&now, p->think_ns);
	st->read_cost_ns = p->lat_every ? lab_clock_read_cost_ns() : 0;
}

static int lk_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct lk_params *p = ctx->params;
	struct lk_state *st = lab_buf_obj_alloc(sizeof(*st), err);
	int rc;

	if (!st)
		return -err->code;
	ctx->priv = st;
	st->nthreads = ctx->nthreads;
	lk_calibrate(st, p);
	st->nlines = p->cs_lines;
	st->lat_every = p->lat_every;
	st->batch = lk_batch(p);
	atomic_init(&st->counter, 0);
	atomic_init(&st->pair[0], 0x5eed);
	atomic_init(&st->pair[1], 0x5eed);
	rc = p->cs_lines ? lab_buf_alloc(&st->lines_buf, p->cs_lines * LAB_CACHELINE,
	                                 &(struct lab_buf_opts){.align_bytes = 4096}, err)
	                 : 0;
	st->lines = st->lines_buf.p;
	if (rc == 0)
		rc = lk_locks_init(st, ctx->nthreads, err);
	if (rc)
		lk_teardown(ctx, NULL, 0);
	return rc;
}

static int lk_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct lk_state *st = ctx->priv;
	struct lk_thread *lt = lab_buf_obj_alloc(sizeof(*lt), err);

	if (!lt)
		return -err->code;
	atomic_init(&lt->mcs.next, NULL);
	atomic_init(&lt->mcs.locked, false);
	lt->clh_mine = &st->clh_nodes[t->id];
	t->priv = lt;
	if (lk_ck_thread_setup(st, lt, t->id, err) != 0)
		return -err->code;
	lt->rng = (ctx->seed ^ 0x9e3779b97f4a7c15ull) * (2 * t->id + 1) | 1;
	lt->countdown = lk_next_countdown(lt, st->lat_every);
	return 0;
}

/*
 * The typical critical section: the exact mean of the timed ones within an octave of the
 * median bucket (sums kept per bucket). A preempted critical section (milliseconds) would
 * dominate a plain mean; a bucket middle alone is only good to its 9 % width.
 */
static double lk_cs_typical(const struct lh_hist *h, const uint64_t *sum)
{
	uint64_t need = (h->count + 1) / 2, seen = 0, n = 0;
	double total = 0;
	unsigned mid = 0;

	if (h->count == 0)
		return NAN;
	while (mid < LH_BUCKETS - 1 && (seen += h->bucket[mid]) < need)
		mid++;
	for (unsigned b = mid > LH_SUB ? mid - LH_SUB : 0; b <= mid + LH_SUB && b < LH_BUCKETS;
	     b++) {
		n += h->bucket[b];
		total += (double)sum[b];
	}
	return total / (double)n;
}

void lk_run_with(struct lab_ctx *ctx, struct lab_thread *t, lk_run_fn fn)
{
	const struct lk_params *p = ctx->params;
	const struct lk_state *st = ctx->priv;
	struct lk_thread *lt = t->priv;

	lh_reset(&lt->hist);
	lh_reset(&lt->cs_hist);
	memset(lt->cs_sum, 0, sizeof(lt->cs_sum));
	t->work = fn(ctx->priv, lt, t);
	t->metric[LK_M_LAT_SAMPLES] = (double)lt->hist.count;
	t->metric[LK_M_LAT_P50] = lh_quantile(&lt->hist, 0.50);
	t->metric[LK_M_LAT_P99] = lh_quantile(&lt->hist, 0.99);
	t->metric[LK_M_JAIN] = NAN;
	t->metric[LK_M_MAX_MIN] = NAN;
	t->metric[LK_M_HANDOFFS] = (double)lt->handoffs;
	t->metric[LK_M_HANDOFF_RATIO] =
	    p->lock == LK_RWLOCK_READ || !t->work ? NAN : (double)lt->handoffs / (double)t->work;
	t->metric[LK_M_CS_ACHIEVED] = lk_cs_typical(&lt->cs_hist, lt->cs_sum) - st->read_cost_ns;
	t->metric[LK_M_DELAY_NS_PER_LOOP] = st->ns_per_loop;
	t->metric[LK_M_DELAY_DRIFT] = st->drift_pct;
}

static void lk_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct lk_params *p = ctx->params;

	lk_run_with(ctx, t, lk_run_of(p->lock));
}

static void lk_summarize(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                         double *out)
{
	struct lk_state *st = ctx->priv;
	struct lh_hist all;
	double sum = 0, sum2 = 0, handoffs = 0;
	struct lh_hist cs;
	uint64_t cs_sum[LH_BUCKETS] = {0};
	uint64_t most = 0, fewest = UINT64_MAX;

	lh_reset(&all);
	lh_reset(&cs);
	for (unsigned i = 0; i < n; i++) {
		const struct lk_thread *lt = threads[i]->priv;
		double x = (double)threads[i]->work;
		lh_merge(&all, &lt->hist);
		handoffs += (double)lt->handoffs;
		lh_merge(&cs, &lt->cs_hist);
		for (unsigned b = 0; b < LH_BUCKETS; b++)
			cs_sum[b] += lt->cs_sum[b];
		sum += x;
		sum2 += x * x;
		most = threads[i]->work > most ? threads[i]->work : most;
		fewest = threads[i]->work < fewest ? threads[i]->work : fewest;
	}
	out[LK_M_LAT_P50] = lh_quantile(&all, 0.50);
	out[LK_M_LAT_P99] = lh_quantile(&all, 0.99);
	out[LK_M_JAIN] = sum2 > 0 ? sum * sum / ((double)n * sum2) : NAN;
	out[LK_M_MAX_MIN] = n ? (double)most / (double)(fewest ? fewest : 1) : NAN;
	out[LK_M_HANDOFF_RATIO] = sum > 0 && atomic_load(&st->last_holder) ? handoffs / sum : NAN;
	out[LK_M_CS_ACHIEVED] = lk_cs_typical(&cs, cs_sum) - st->read_cost_ns;
	out[LK_M_DELAY_NS_PER_LOOP] = st->ns_per_loop;
	out[LK_M_DELAY_DRIFT] = st->drift_pct;
}

/* Readers share the lock, so only the pair and the read counts can be checked. */
static int lk_verify_read(struct lk_state *st, struct lab_thread *const *threads, unsigned n,
                          struct lab_err *err)
{
	for (unsigned i = 0; i < n; i++) {
		const struct lk_thread *lt = threads[i]->priv;
		if (lt->torn)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u saw the protected pair torn %llu times", i,
			                   (unsigned long long)lt->torn);
		if (lt->reads != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u counted %llu reads, the harness %llu", i,
			                   (unsigned long long)lt->reads,
			                   (unsigned long long)threads[i]->work_total);
	}
	if (atomic_load(&st->pair[0]) != 0x5eed || atomic_load(&st->pair[1]) != 0x5eed)
		return lab_err_set(err, LAB_EVERIFY, "the pair changed under read locks");
	return 0;
}

static int lk_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct lk_params *p = ctx->params;
	struct lk_state *st = ctx->priv;
	uint64_t total = 0, got = atomic_load(&st->counter);

	if (p->lock == LK_RWLOCK_READ)
		return lk_verify_read(st, threads, n, err);
	for (unsigned i = 0; i < n; i++)
		total += threads[i]->work_total;
	if (got != total)
		return lab_err_set(
		    err, LAB_EVERIFY,
		    "mutual exclusion failed: the protected counter holds %llu after "
		    "%llu acquisitions (%lld updates lost)",
		    (unsigned long long)got, (unsigned long long)total, (long long)(total - got));
	for (uint64_t i = 0; i < st->nlines; i++) {
		uint64_t v = atomic_load(st->lines + i * (LAB_CACHELINE / sizeof(uint64_t)));
		if (v != total)
			return lab_err_set(
			    err, LAB_EVERIFY,
			    "mutual exclusion failed: shared line %llu holds %llu after "
			    "%llu acquisitions",
			    (unsigned long long)i, (unsigned long long)v,
			    (unsigned long long)total);
	}
	return 0;
}

static void lk_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct lk_state *st = ctx->priv;

	for (unsigned i = 0; threads && i < n; i++) {
		if (threads[i]->priv)
			lk_ck_thread_teardown(threads[i]->priv);
		lab_buf_obj_free(threads[i]->priv);
	}
	if (!st)
		return;
	if (st->pthread_ready[0])
		pthread_mutex_destroy(&st->mutex);
	if (st->pthread_ready[1])
		pthread_spin_destroy(&st->spin);
	if (st->pthread_ready[2])
		pthread_rwlock_destroy(&st->rwlock);
	lk_ck_teardown(st);
	lab_buf_obj_free(st->clh_nodes);
	lab_buf_free(&st->lines_buf);
	lab_buf_obj_free(st);
	ctx->priv = NULL;
}

/* The analyzer's lock tables and plots: one curve per lock kind (analyze/views/locks.c). */
static const char *const lk_views[] = {"locks", NULL};

static const char lk_verifies[] =
    "the protected counter and each of the cs_lines shared lines equal the total "
    "acquisitions (no lost update: mutual exclusion held); lock = rwlock_read, where "
    "readers write nothing: no read saw the protected pair torn, the pair is unchanged "
    "and each thread's reads equal its acquisitions";
static const char *const lk_needs[] = {
    "lock = ck_fas, ck_cas, ck_ticket, ck_mcs or ck_clh: a lab built with Concurrency Kit "
    "(libck-dev; ThreadSanitizer builds leave it out)",
    NULL,
};

const struct lab_kernel lab_kernel_lock = {
    .abi = LAB_KERNEL_ABI,
    .name = "lock",
    .summary = "one lock, N threads: acquisitions/s, fairness, acquire latency p50/p99",
    .description = lk_description,
    .flags = LAB_KF_TIMED,
    .params = lk_params_table,
    .params_size = sizeof(struct lk_params),
    .metrics = lk_metrics,
    .work_unit = "acquire",
    .views = lk_views,
    .verifies = lk_verifies,
    .needs = lk_needs,
    .check = lk_check,
    .setup = lk_setup,
    .thread_setup = lk_thread_setup,
    .run = lk_run,
    .summarize = lk_summarize,
    .verify = lk_verify,
    .teardown = lk_teardown,
};
