/* SPDX-License-Identifier: GPL-3.0-or-later */
/* atomic_rmw: read-modify-write atomics on one shared line vs lines of their own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"

static const char arw_description[] =
    "Atomic read-modify-write operations: fetch_add (lock xadd), a compare-and-swap loop that\n"
    "adds one, and exchange. With target = shared every thread hits one counter, so each\n"
    "operation must own the line exclusively and the line keeps moving between the cores: cost\n"
    "per operation rises with threads (serialisation plus transfer latency), and CAS loops also\n"
    "retry (see retries_per_op). With target = sharded each thread has a 128-byte slot of its\n"
    "own: each thread's own time per operation stays at the uncontended atomic's (the 1-thread\n"
    "point) whatever the thread count, so the team's cost per operation falls as 1/threads.\n"
    "target = packed puts per-thread counters 8 bytes apart in one line: no logical\n"
    "sharing, the same ping-pong as shared (false sharing with atomics). Compare, at the same\n"
    "thread count, shared and packed against sharded: the ratio is what contention on one line\n"
    "costs on this machine (the owner often runs bursts of operations before the line moves, so\n"
    "it is less than a line transfer per operation); the config's lessons check it with an\n"
    "interval. Knobs: op, target, threads.";

enum arw_op { ARW_OP_FETCH_ADD, ARW_OP_CAS, ARW_OP_XCHG };
enum arw_target { ARW_SHARED, ARW_SHARDED, ARW_PACKED };

struct arw_params {
	int op;
	int target;
};

static const struct lab_enum_val arw_ops[] = {
    {"fetch_add", ARW_OP_FETCH_ADD, "atomic_fetch_add (one locked instruction)"},
    {"cas", ARW_OP_CAS, "load, then compare_exchange until it succeeds"},
    {"xchg", ARW_OP_XCHG, "atomic_exchange of a fresh value"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val arw_targets[] = {
    {"shared", ARW_SHARED, "one counter for all threads"},
    {"sharded", ARW_SHARDED, "one counter per thread, each on its own 128 B"},
    {"packed", ARW_PACKED, "one counter per thread, 8 bytes apart in one line"},
    {NULL, 0, NULL},
};

static const struct lab_param arw_params_table[] = {
    LAB_P_ENUM(struct arw_params, op, "op", "fetch_add", arw_ops, "The atomic operation."),
    LAB_P_ENUM(struct arw_params, target, "target", "shared", arw_targets,
               "Which counter each thread operates on."),
    LAB_PARAM_END,
};

enum { ARW_M_RETRIES, ARW_M_RETRIES_PER_OP };

static const struct lab_metric arw_metrics[] = {
    {"retries", "retries", LAB_AGG_SUM, "Failed compare_exchange attempts (op = cas)."},
    {"retries_per_op", "retries/op", LAB_AGG_KERNEL, "Failed CAS attempts per success."},
    LAB_METRIC_END,
};

/* What a thread wrote and got back, for the exchange check; in the thread's own slot. */
struct arw_thread {
	alignas(LAB_SLOT) uint64_t written_sum;
	uint64_t returned_sum;
	uint64_t seq;
};

struct arw_state {
	struct lab_buf mem;
	_Atomic uint64_t **counter; /* per thread (all the same for shared) */
	unsigned ncounters;
	_Atomic uint64_t **distinct; /* the distinct counters, for verify */
};

static size_t arw_offset(int target, unsigned i)
{
	return target == ARW_SHARED ? 0 : target == ARW_PACKED ? i * 8u : i * (size_t)LAB_SLOT;
}

static int arw_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct arw_params *p = ctx->params;
	struct arw_state *st = calloc(1, sizeof(*st));
	size_t bytes = arw_offset(p->target, ctx->nthreads) + LAB_SLOT;
	struct lab_buf_opts o = {.align_bytes = 4096};
	int rc;

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	st->counter = calloc(ctx->nthreads, sizeof(*st->counter));
	st->distinct = calloc(ctx->nthreads, sizeof(*st->distinct));
	if (!st->counter || !st->distinct)
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	else
		rc = lab_buf_alloc(&st->mem, bytes, &o, err);
	if (rc) {
		free(st->counter);
		free(st->distinct);
		free(st);
		return rc;
	}
	st->ncounters = p->target == ARW_SHARED ? 1 : ctx->nthreads;
	for (unsigned i = 0; i < ctx->nthreads; i++) {
		st->counter[i] = (_Atomic uint64_t *)((char *)st->mem.p + arw_offset(p->target, i));
		atomic_init(st->counter[i], 0);
	}
	for (unsigned i = 0; i < st->ncounters; i++)
		st->distinct[i] = st->counter[i];
	ctx->priv = st;
	return 0;
}

static int arw_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct arw_thread *at = lab_buf_obj_alloc(sizeof(*at), err);

	(void)ctx;
	if (!at)
		return -err->code;
	t->priv = at;
	return 0;
}

static uint64_t arw_loop_fetch_add(_Atomic uint64_t *c, const struct lab_thread *t)
{
	uint64_t done = 0;

	do {
		for (int k = 0; k < 256; k++)
			atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
		done += 256;
	} while (!lab_thread_should_stop(t));
	return done;
}

static uint64_t arw_loop_cas(_Atomic uint64_t *c, struct lab_thread *t)
{
	uint64_t done = 0, retries = 0;

	do {
		for (int k = 0; k < 256; k++) {
			uint64_t v = atomic_load_explicit(c, memory_order_relaxed);
			while (!atomic_compare_exchange_weak_explicit(
			    c, &v, v + 1, memory_order_relaxed, memory_order_relaxed))
				retries++;
		}
		done += 256;
	} while (!lab_thread_should_stop(t));
	t->metric[ARW_M_RETRIES] = (double)retries;
	return done;
}

/* Each value written is unique to (thread, sequence), so sums can prove nothing was lost. */
static uint64_t arw_loop_xchg(_Atomic uint64_t *c, struct lab_thread *t)
{
	struct arw_thread *at = t->priv;
	uint64_t done = 0, wsum = at->written_sum, rsum = at->returned_sum, seq = at->seq;
	const uint64_t tag = (uint64_t)(t->id + 1) << 40;

	do {
		for (int k = 0; k < 256; k++) {
			uint64_t v = tag | ++seq;
			wsum += v;
			rsum += atomic_exchange_explicit(c, v, memory_order_relaxed);
		}
		done += 256;
	} while (!lab_thread_should_stop(t));
	at->written_sum = wsum;
	at->returned_sum = rsum;
	at->seq = seq;
	return done;
}

static void arw_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct arw_params *p = ctx->params;
	struct arw_state *st = ctx->priv;
	_Atomic uint64_t *c = st->counter[t->id];

	switch (p->op) {
	case ARW_OP_CAS:
		t->work = arw_loop_cas(c, t);
		break;
	case ARW_OP_XCHG:
		t->work = arw_loop_xchg(c, t);
		t->metric[ARW_M_RETRIES] = NAN; /* no retry loop: none, not 0 (arw_summarize) */
		break;
	default:
		t->work = arw_loop_fetch_add(c, t);
		t->metric[ARW_M_RETRIES] = NAN;
	}
}

/* Retries per success, for CAS alone: fetch_add and xchg have no retry loop, so none (NaN,
 * printed "-"), not a measured 0 that reads as a CAS that never failed. */
static void arw_summarize(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                          double *out)
{
	const struct arw_params *p = ctx->params;
	double retries = 0, ops = 0;

	if (p->op != ARW_OP_CAS) {
		out[ARW_M_RETRIES_PER_OP] = NAN;
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		retries += threads[i]->metric[ARW_M_RETRIES];
		ops += (double)threads[i]->work;
	}
	out[ARW_M_RETRIES_PER_OP] = ops > 0 ? retries / ops : 0;
}

/* Adds and CAS: each counter holds exactly the increments made on it. */
static int arw_verify_counts(struct arw_state *st, struct lab_thread *const *threads, unsigned n,
                             struct lab_err *err)
{
	uint64_t total = 0, sum = 0;

	for (unsigned i = 0; i < n; i++)
		total += threads[i]->work_total;
	for (unsigned i = 0; i < st->ncounters; i++)
		sum += atomic_load(st->distinct[i]);
	if (sum != total)
		return lab_err_set(err, LAB_EVERIFY, "counters hold %llu after %llu increments",
		                   (unsigned long long)sum, (unsigned long long)total);
	for (unsigned i = 0; st->ncounters > 1 && i < n; i++)
		if (atomic_load(st->counter[i]) != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY, "thread %u's counter is off", i);
	return 0;
}

/* Exchanges: every value written was either returned to some thread or is still there. */
static int arw_verify_xchg(struct arw_state *st, struct lab_thread *const *threads, unsigned n,
                           struct lab_err *err)
{
	uint64_t written = 0, seen = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct arw_thread *at = threads[i]->priv;
		written += at->written_sum;
		seen += at->returned_sum;
		if (at->seq != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u: %llu exchanges, harness %llu", i,
			                   (unsigned long long)at->seq,
			                   (unsigned long long)threads[i]->work_total);
	}
	for (unsigned i = 0; i < st->ncounters; i++)
		seen += atomic_load(st->distinct[i]);
	if (seen != written)
		return lab_err_set(err, LAB_EVERIFY,
		                   "exchanged values do not add up (a lost update)");
	return 0;
}

static int arw_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                      struct lab_err *err)
{
	const struct arw_params *p = ctx->params;

	if (p->op == ARW_OP_XCHG)
		return arw_verify_xchg(ctx->priv, threads, n, err);
	return arw_verify_counts(ctx->priv, threads, n, err);
}

static void arw_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct arw_state *st = ctx->priv;

	for (unsigned i = 0; i < n; i++)
		lab_buf_obj_free(threads[i]->priv);
	if (!st)
		return;
	lab_buf_free(&st->mem);
	free(st->counter);
	free(st->distinct);
	free(st);
}

static void arw_work(const void *params, struct lab_work *w)
{
	(void)params;
	w->bytes_read = 8;
	w->bytes_written = 8;
	w->flops = 0;
}

static const char *const arw_views[] = {"atomics", NULL};

static const char arw_verifies[] =
    "op = fetch_add and cas: the counters hold exactly the increments made (their sum "
    "equals every thread's operations; with target = sharded or packed each thread's "
    "counter equals its own); op = xchg: each thread made the exchanges it counted, and "
    "the values written add up to those returned plus those left in the counters (none "
    "lost)";

const struct lab_kernel lab_kernel_atomic_rmw = {
    .abi = LAB_KERNEL_ABI,
    .name = "atomic_rmw",
    .summary = "fetch_add / CAS / exchange on a shared line vs per-thread lines",
    .description = arw_description,
    .flags = LAB_KF_TIMED,
    .params = arw_params_table,
    .params_size = sizeof(struct arw_params),
    .metrics = arw_metrics,
    .work_unit = "operation",
    .views = arw_views,
    .verifies = arw_verifies,
    .work_per_unit = arw_work,
    .setup = arw_setup,
    .thread_setup = arw_thread_setup,
    .run = arw_run,
    .summarize = arw_summarize,
    .verify = arw_verify,
    .teardown = arw_teardown,
};
