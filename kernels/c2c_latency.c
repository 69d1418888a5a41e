/* SPDX-License-Identifier: GPL-3.0-or-later */
/* c2c_latency: core-to-core one-way latency by flag ping-pong between two pinned threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "harness/clock.h"
#include "harness/kernel_api.h"
#include "kernels/lat_hist.h"

static const char c2c_description[] =
    "Two threads pinned to a CPU pair bounce a flag: thread 0 writes it, thread 1 waits for the\n"
    "value and answers, thread 0 waits for the answer. Each hop moves the cache line from one\n"
    "core's cache to the other's, so a round trip costs two coherence transfers and one-way\n"
    "latency = round trip / 2. The unit of work is one round trip (thread 0 counts them; thread\n"
    "1 reports 0), so samples.csv's cost per unit is the round trip including barrier skew; the\n"
    "one_way_ns metric is the clean figure: thread 0 times batches of `batch` round trips (each\n"
    ">= 1000x the clock resolution) and removes the measured cost of its clock reads.\n"
    "one_way_p10/p50/p90_ns are percentiles over those batches. method = load_store uses\n"
    "acquire loads and release stores (the line moves on the answer's load and the next store);\n"
    "method = cas does every access as compare-and-swap (a waiter's failing CAS also pulls the\n"
    "line exclusive, which can delay the answer). Both wait with the CPU's spin-wait hint\n"
    "(pause) between tries, as a spin lock does; method = cas_tight retries its CAS at once,\n"
    "as a naive lock does, so the waiter pulls the line away more often: compare it with cas\n"
    "for what the pause saves (on many cores cas_tight is the dearer; a VM's modes can hide\n"
    "it). layout = one_slot puts the one\n"
    "flag both threads write on its own 128-byte slot; two_slots gives each direction its own\n"
    "slot (each thread writes one, reads the other). Compare pairs: SMT siblings share a\n"
    "core's caches and are the cheapest, pairs within a CCX or socket cost more, pairs across\n"
    "CCDs or sockets the most; the matrix over placement = pairs shows this machine's groups.\n"
    "On a VM the host moves vCPUs, so one pair can show several stable modes that switch\n"
    "within seconds: look at the distribution over samples, not one mean, and compare methods\n"
    "over runs >= 2 (their samples interleaved), not one after the other. On a mesh CPU the\n"
    "flag's line matters too (its home L3 slice), so two probes on different lines can differ\n"
    "by a few ns either way.";

enum c2c_method { C2C_LOAD_STORE, C2C_CAS, C2C_CAS_TIGHT };
enum c2c_layout { C2C_ONE_SLOT, C2C_TWO_SLOTS };

struct c2c_params {
	int method;
	int layout;
	uint64_t batch;
};

static const struct lab_enum_val c2c_methods[] = {
    {"load_store", C2C_LOAD_STORE, "acquire load / release store ping-pong"},
    {"cas", C2C_CAS, "every access a compare-and-swap, a pause between a waiter's tries"},
    {"cas_tight", C2C_CAS_TIGHT, "every access a compare-and-swap, a waiter retrying at once"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val c2c_layouts[] = {
    {"one_slot", C2C_ONE_SLOT, "one flag on its own 128-byte slot, written by both"},
    {"two_slots", C2C_TWO_SLOTS, "a flag per direction, each on its own 128-byte slot"},
    {NULL, 0, NULL},
};

static const struct lab_param c2c_params_table[] = {
    LAB_P_ENUM(struct c2c_params, method, "method", "load_store", c2c_methods,
               "How the flag is written and waited for."),
    LAB_P_ENUM(struct c2c_params, layout, "layout", "one_slot", c2c_layouts,
               "One shared flag, or one flag per direction."),
    LAB_P_U64(struct c2c_params, batch, "batch", "256", 16, 1000000, "round trips",
              "Round trips per internally timed batch (raised so a batch lasts >= 1000x the "
              "clock resolution)."),
    LAB_PARAM_END,
};

enum { C2C_M_ONE_WAY, C2C_M_P10, C2C_M_P50, C2C_M_P90, C2C_M_BATCHES };

static const struct lab_metric c2c_metrics[] = {
    [C2C_M_ONE_WAY] = {"one_way_ns", "ns", LAB_AGG_KERNEL,
                       "Round trip / 2 over the timed batches, clock-read cost removed."},
    [C2C_M_P10] = {"one_way_p10_ns", "ns", LAB_AGG_KERNEL, "10th percentile over batches."},
    [C2C_M_P50] = {"one_way_p50_ns", "ns", LAB_AGG_KERNEL, "Median over batches."},
    [C2C_M_P90] = {"one_way_p90_ns", "ns", LAB_AGG_KERNEL, "90th percentile over batches."},
    [C2C_M_BATCHES] = {"batches", "batches", LAB_AGG_SUM, "Timed batches in the sample."},
    LAB_METRIC_END,
};

/* The timed path is inlined into each stamped-out run function (C2C_DEFINE_RUN). */
#define C2C_INLINE static inline __attribute__((always_inline))

#define C2C_POLL 1024 /* spins between polls of the quit flags */

struct c2c_state {
	alignas(LAB_SLOT) _Atomic uint64_t ping; /* one_slot: the only flag */
	alignas(LAB_SLOT) _Atomic uint64_t pong;
	/* Where thread 0 ended run() number quit_run: after quit_seq round trips (maybe early). */
	alignas(LAB_SLOT) atomic_uint quit_run;
	_Atomic uint64_t quit_seq;
	alignas(LAB_SLOT) double read_cost_ns, floor_ns, min_batch_ns;
	uint64_t batch;
	int method, layout;
	/* Written by summarize on the main thread: the first impossible sample seen. */
	unsigned nsamples, bad_sample;
	double bad_ns;
};

/* Each thread's own state: its cumulative round trips and (thread 0) this sample's batches. */
struct c2c_thread {
	alignas(LAB_SLOT) uint64_t seq;
	unsigned run;

	double one_way_ns;      /* this sample, NaN when no time was taken */
	struct lh_ring batches; /* this sample's per-batch one-way ns (the most recent ones) */
};

/* The responder's position: its run() call and the round trips it has answered. Kept in a
 * local (registers), not in struct c2c_thread, so the timed loop does no memory access of its
 * own besides the flags. */
struct c2c_pos {
	unsigned run;
	uint64_t seq;
};

static bool c2c_quit(struct c2c_state *st, const struct c2c_pos *pos)
{
	return atomic_load_explicit(&st->quit_run, memory_order_acquire) == pos->run &&
	       atomic_load_explicit(&st->quit_seq, memory_order_relaxed) == pos->seq;
}

/*
 * Compare-and-swaps *f from `from` to `to`, retrying until the value is `from`: waiting and
 * writing in one locked operation (the CAS ping-pong of core-to-core-latency), with a pause
 * between tries (cas C2C_CAS) or none (C2C_CAS_TIGHT). The responder (quit != NULL) gives up
 * when thread 0 has ended this run with every round trip answered.
 */
C2C_INLINE bool c2c_cas_spin(_Atomic uint64_t *f, uint64_t from, uint64_t to, struct c2c_state *st,
                             const struct c2c_pos *quit, int cas)
{
	for (unsigned spins = 1;; spins++) {
		uint64_t e = from;
		if (atomic_compare_exchange_weak_explicit(f, &e, to, memory_order_acq_rel,
		                                          memory_order_acquire))
			return true;
		if (cas != C2C_CAS_TIGHT)
			lab_cpu_relax();
		if (quit && spins % C2C_POLL == 0 && c2c_quit(st, quit))
			return false;
	}
}

/*
 * Waits until *f == want. The responder (quit != NULL) gives up when thread 0 has ended this
 * run and every round trip it started was answered; returns false then.
 */
C2C_INLINE bool c2c_wait(_Atomic uint64_t *f, uint64_t want, int cas, struct c2c_state *st,
                         const struct c2c_pos *quit)
{
	if (cas)
		return c2c_cas_spin(f, want, want, st, quit, cas);
	for (unsigned spins = 1;; spins++) {
		if (atomic_load_explicit(f, memory_order_acquire) == want)
			return true;
		lab_cpu_relax();
		if (quit && spins % C2C_POLL == 0 && c2c_quit(st, quit))
			return false;
	}
}

C2C_INLINE void c2c_put(_Atomic uint64_t *f, uint64_t v, int cas)
{
	if (cas) {
		uint64_t e = atomic_load_explicit(f, memory_order_relaxed);
		while (!atomic_compare_exchange_weak_explicit(f, &e, v, memory_order_acq_rel,
		                                              memory_order_relaxed))
			;
	} else {
		atomic_store_explicit(f, v, memory_order_release);
	}
}

/*
 * Round trip number k (1-based, cumulative) from thread 0's side. With one slot and CAS, the
 * wait for answer k-1 and the write of ping k are one CAS (answer k is awaited by the next
 * call, or by c2c_settle at the end of a batch).
 */
C2C_INLINE void c2c_ping(struct c2c_state *st, uint64_t k, int cas, bool two)
{
	if (two) {
		c2c_put(&st->ping, k, cas);
		c2c_wait(&st->pong, k, cas, st, NULL);
	} else if (cas) {
		c2c_cas_spin(&st->ping, 2 * k - 2, 2 * k - 1, st, NULL, cas);
	} else {
		atomic_store_explicit(&st->ping, 2 * k - 1, memory_order_release);
		c2c_wait(&st->ping, 2 * k, C2C_LOAD_STORE, st, NULL);
	}
}

/* Thread 0: waits for the answer to round trip k where c2c_ping left it outstanding. */
C2C_INLINE void c2c_settle(struct c2c_state *st, uint64_t k, int cas, bool two)
{
	if (cas && !two)
		c2c_cas_spin(&st->ping, 2 * k, 2 * k, st, NULL, cas);
}

/* Answers round trip k; false when thread 0 ended the run before starting it. */
C2C_INLINE bool c2c_pong(struct c2c_state *st, const struct c2c_pos *ct, uint64_t k, int cas,
                         bool two)
{
	if (two) {
		if (!c2c_wait(&st->ping, k, cas, st, ct))
			return false;
		c2c_put(&st->pong, k, cas);
		return true;
	}
	if (cas)
		return c2c_cas_spin(&st->ping, 2 * k - 1, 2 * k, st, ct, cas);
	if (!c2c_wait(&st->ping, 2 * k - 1, C2C_LOAD_STORE, st, ct))
		return false;
	atomic_store_explicit(&st->ping, 2 * k, memory_order_release);
	return true;
}

/* Thread 0: iters round trips in timed batches; returns the round trips done. */
C2C_INLINE uint64_t c2c_initiate(struct c2c_state *st, struct c2c_thread *ct, struct lab_thread *t,
                                 int cas, bool two)
{
	uint64_t done = 0, reads = 0, t_first = lab_clock_ns(), t_prev = t_first, t_now = t_first;

	while (done < t->iters) {
		uint64_t n = t->iters - done < st->batch ? t->iters - done : st->batch;
		const uint64_t base = ct->seq + done; /* a local: no memory access per round trip */
		for (uint64_t i = 1; i <= n; i++)
			c2c_ping(st, base + i, cas, two);
		c2c_settle(st, base + n, cas, two);
		t_now = lab_clock_ns();
		reads++;
		/* A short last batch counts only if it too lasts 1000x the clock resolution. */
		if (n == st->batch || (double)(t_now - t_prev) >= st->min_batch_ns)
			lh_ring_add(&ct->batches,
			            ((double)(t_now - t_prev) - st->read_cost_ns) / (2.0 * n));
		t_prev = t_now;
		done += n;
		if (lab_thread_should_stop(t))
			break;
	}
	ct->one_way_ns =
	    done ? ((double)(t_now - t_first) - reads * st->read_cost_ns) / (2.0 * done) : NAN;
	return done;
}

/*
 * One thread's side of a run for a (method, layout) known at compile time: C2C_DEFINE_RUN stamps
 * out one run function per combination, so no method or layout test is left in the timed loop.
 */
C2C_INLINE void c2c_run_as(struct lab_ctx *ctx, struct lab_thread *t, const int cas, const bool two)
{
	struct c2c_state *st = ctx->priv;
	struct c2c_thread *ct = t->priv;

	ct->run++;
	if (t->id == 0) {
		lh_ring_reset(&ct->batches);
		t->work = c2c_initiate(st, ct, t, cas, two);
		ct->seq += t->work;
		t->metric[C2C_M_ONE_WAY] = ct->one_way_ns;
		t->metric[C2C_M_BATCHES] = (double)ct->batches.n;
		/* Tell the responder where this run ended, in case it ended early. */
		atomic_store_explicit(&st->quit_seq, ct->seq, memory_order_relaxed);
		atomic_store_explicit(&st->quit_run, ct->run, memory_order_release);
		return;
	}
	/* The responder's answers are not work units: a round trip is counted once, by thread 0. */
	struct c2c_pos pos = {ct->run, ct->seq};
	for (uint64_t i = 0; i < t->iters && c2c_pong(st, &pos, pos.seq + 1, cas, two); i++)
		pos.seq++;
	ct->seq = pos.seq;
	t->work = 0;
}

#define C2C_DEFINE_RUN(name, cas, two)                                                             \
	static void c2c_run_##name(struct lab_ctx *ctx, struct lab_thread *t)                      \
	{                                                                                          \
		c2c_run_as(ctx, t, cas, two);                                                      \
	}

C2C_DEFINE_RUN(load_store_one, C2C_LOAD_STORE, false)
C2C_DEFINE_RUN(load_store_two, C2C_LOAD_STORE, true)
C2C_DEFINE_RUN(cas_one, C2C_CAS, false)
C2C_DEFINE_RUN(cas_two, C2C_CAS, true)
C2C_DEFINE_RUN(cas_tight_one, C2C_CAS_TIGHT, false)
C2C_DEFINE_RUN(cas_tight_two, C2C_CAS_TIGHT, true)

static void (*const c2c_runs[3][2])(struct lab_ctx *, struct lab_thread *) = {
    [C2C_LOAD_STORE] =
        {[C2C_ONE_SLOT] = c2c_run_load_store_one, [C2C_TWO_SLOTS] = c2c_run_load_store_two},
    [C2C_CAS] = {[C2C_ONE_SLOT] = c2c_run_cas_one, [C2C_TWO_SLOTS] = c2c_run_cas_two},
    [C2C_CAS_TIGHT] =
        {[C2C_ONE_SLOT] = c2c_run_cas_tight_one, [C2C_TWO_SLOTS] = c2c_run_cas_tight_two},
};

/* One table lookup per run() call, never per round trip. */
static void c2c_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct c2c_state *st = ctx->priv;

	c2c_runs[st->method][st->layout](ctx, t);
}

static int c2c_check(const void *params, unsigned nthreads, const struct lab_env *env,
                     struct lab_err *err)
{
	(void)params;
	(void)env;
	if (nthreads != 2)
		return lab_err_set(err, LAB_ECONFIG, "c2c_latency runs on 2 threads, got %u",
		                   nthreads);
	return 0;
}

/* Round trips per timed batch: the configured count, raised so that a batch of the fastest
 * plausible round trips (10 ns, SMT siblings) still lasts 1000x the clock resolution. */
static uint64_t c2c_batch(uint64_t want, double resolution_ns)
{
	double need = ceil(1000.0 * resolution_ns / 10.0);

	return (double)want >= need ? want : (uint64_t)need;
}

static int c2c_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct c2c_params *p = ctx->params;
	struct c2c_state *st = lab_buf_obj_alloc(sizeof(*st), err);
	double res = ctx->env && ctx->env->clock_resolution_ns > 0 ? ctx->env->clock_resolution_ns
	                                                           : lab_clock_resolution_ns();

	if (!st)
		return -err->code;
	atomic_init(&st->ping, 0);
	atomic_init(&st->pong, 0);
	atomic_init(&st->quit_run, 0);
	atomic_init(&st->quit_seq, 0);
	st->read_cost_ns = lab_clock_read_cost_ns();
	st->floor_ns = res;
	st->min_batch_ns = 1000.0 * res;
	st->batch = c2c_batch(p->batch, res);
	st->method = p->method;
	st->layout = p->layout;
	ctx->priv = st;
	return 0;
}

static int c2c_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct c2c_thread *ct = lab_buf_obj_alloc(sizeof(*ct), err);

	(void)ctx;
	if (!ct)
		return -err->code;
	ct->one_way_ns = NAN;
	t->priv = ct;
	return 0;
}

static void c2c_summarize(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                          double *out)
{
	struct c2c_state *st = ctx->priv;
	struct c2c_thread *ct = threads[0]->priv;
	static const double q[] = {0.10, 0.50, 0.90};

	(void)n;
	st->nsamples++;
	out[C2C_M_ONE_WAY] = ct->one_way_ns;
	lh_ring_quantiles(&ct->batches, q, &out[C2C_M_P10], 3); /* P10, P50, P90 in a row */
	/* Below the clock's resolution (or not positive) is not a latency anything measured. */
	if (!st->bad_sample && !(ct->one_way_ns >= st->floor_ns)) {
		st->bad_sample = st->nsamples;
		st->bad_ns = ct->one_way_ns;
	}
}

static int c2c_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                      struct lab_err *err)
{
	struct c2c_state *st = ctx->priv;
	const struct c2c_thread *a = threads[0]->priv, *b = threads[1]->priv;
	uint64_t ping = atomic_load(&st->ping), pong = atomic_load(&st->pong);

	(void)n;
	if (a->seq != threads[0]->work_total)
		return lab_err_set(
		    err, LAB_EVERIFY, "thread 0 counted %llu round trips, the harness %llu",
		    (unsigned long long)a->seq, (unsigned long long)threads[0]->work_total);
	if (b->seq != a->seq)
		return lab_err_set(
		    err, LAB_EVERIFY,
		    "the responder answered %llu round trips, the initiator made %llu",
		    (unsigned long long)b->seq, (unsigned long long)a->seq);
	if (st->layout == C2C_TWO_SLOTS ? ping != a->seq || pong != a->seq : ping != 2 * a->seq)
		return lab_err_set(
		    err, LAB_EVERIFY,
		    "the flags hold %llu/%llu after %llu round trips (expected %llu)",
		    (unsigned long long)ping, (unsigned long long)pong, (unsigned long long)a->seq,
		    (unsigned long long)(st->layout == C2C_TWO_SLOTS ? a->seq : 2 * a->seq));
	if (st->bad_sample)
		return lab_err_set(
		    err, LAB_EVERIFY,
		    "sample %u: one-way latency %.3g ns is below the clock resolution "
		    "(%.3g ns): impossible, the measurement is broken (clock, or a "
		    "round trip that never crossed cores)",
		    st->bad_sample, st->bad_ns, st->floor_ns);
	return 0;
}

static void c2c_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		lab_buf_obj_free(threads[i]->priv);
	lab_buf_obj_free(ctx->priv);
	ctx->priv = NULL;
}

/* The analyzer shows the pairs as one matrix (analyze/views/c2c.c). */
static const char *const c2c_views[] = {"c2c", NULL};

static const char c2c_verifies[] =
    "thread 0 made the round trips the harness counted, the responder answered every one, "
    "the flags hold what that many round trips leave in them, and no sample's one-way "
    "latency is below the clock resolution";

const struct lab_kernel lab_kernel_c2c_latency = {
    .abi = LAB_KERNEL_ABI,
    .name = "c2c_latency",
    .summary = "core-to-core one-way latency: flag ping-pong between a CPU pair",
    .description = c2c_description,
    .flags = LAB_KF_PAIRS,
    .params = c2c_params_table,
    .params_size = sizeof(struct c2c_params),
    .metrics = c2c_metrics,
    .work_unit = "roundtrip",
    .work_scope = LAB_WORK_SHARED,
    .cost_kind = LAB_COST_LATENCY, /* ns per round trip */
    .views = c2c_views,
    .verifies = c2c_verifies,
    .check = c2c_check,
    .setup = c2c_setup,
    .thread_setup = c2c_thread_setup,
    .run = c2c_run,
    .summarize = c2c_summarize,
    .verify = c2c_verify,
    .teardown = c2c_teardown,
};
