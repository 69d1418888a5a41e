/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The OpenMP team shape of the kernel contract (LAB_KF_OPENMP), through the real runner with a
 * test-only kernel: one harness worker, an OpenMP team of ctx->nthreads that binds itself to the
 * plan with lab_ctx_omp_bind, the CPUs it ran on recorded, and verify() on the summed result.
 */
#include <omp.h>
#include <stdlib.h>

#include "harness/clock.h"
#include "harness/kernel_api.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

struct omps_params {
	uint64_t elems;
};

static const struct lab_param omps_params_table[] = {
    LAB_P_U64(struct omps_params, elems, "elems", "4096", 1, 1u << 24, "elements",
              "Elements summed per unit of work."),
    LAB_PARAM_END,
};

struct omps_state {
	uint64_t *v;
	uint64_t sum; /* of every run, checked by verify */
	int team_size;
};

static int omps_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct omps_params *p = ctx->params;
	struct omps_state *st = calloc(1, sizeof(*st));

	if (!st || !(st->v = malloc(p->elems * sizeof(*st->v)))) {
		free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	for (uint64_t i = 0; i < p->elems; i++)
		st->v[i] = i + 1;
	ctx->priv = st;
	return 0;
}

static int omps_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct omps_state *st = ctx->priv;
	int bad = 0;

	(void)t;
#pragma omp parallel num_threads(ctx->nthreads) reduction(| : bad)
	{
		bad |= lab_ctx_omp_bind(ctx, (unsigned)omp_get_thread_num()) != 0;
#pragma omp single
		st->team_size = omp_get_num_threads();
	}
	return bad ? lab_err_set(err, LAB_ESYS, "an OpenMP thread could not bind") : 0;
}

static void omps_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct omps_params *p = ctx->params;
	struct omps_state *st = ctx->priv;
	const uint64_t *v = st->v;
	uint64_t sum = 0;

	for (uint64_t it = 0; it < t->iters; it++) {
#pragma omp parallel for num_threads(ctx->nthreads) reduction(+ : sum)
		for (uint64_t i = 0; i < p->elems; i++)
			sum += v[i];
	}
	st->sum += sum;
}

static int omps_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                       struct lab_err *err)
{
	const struct omps_params *p = ctx->params;
	struct omps_state *st = ctx->priv;
	uint64_t want = threads[0]->work_total * (p->elems * (p->elems + 1) / 2);

	if (n != 1 || st->team_size != (int)ctx->nthreads)
		return lab_err_set(err, LAB_EVERIFY, "%u workers, OpenMP team of %d", n,
		                   st->team_size);
	if (st->sum != want)
		return lab_err_set(err, LAB_EVERIFY, "sum %llu, expected %llu",
		                   (unsigned long long)st->sum, (unsigned long long)want);
	return 0;
}

static void omps_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct omps_state *st = ctx->priv;

	(void)threads;
	(void)n;
	if (st)
		free(st->v);
	free(st);
}

static const struct lab_metric omps_metrics[] = {LAB_METRIC_END};

static const struct lab_kernel omps_kernel = {
    .abi = LAB_KERNEL_ABI,
    .name = "omp_sum_test_only",
    .summary = "test-only: an OpenMP reduction",
    .description = "Sums an array with an OpenMP team pinned to the plan.",
    .flags = LAB_KF_OPENMP,
    .params = omps_params_table,
    .params_size = sizeof(struct omps_params),
    .metrics = omps_metrics,
    .work_unit = "sum",
    .setup = omps_setup,
    .thread_setup = omps_thread_setup,
    .run = omps_run,
    .verify = omps_verify,
    .teardown = omps_teardown,
};

LAB_TEST(openmp_team_follows_the_plan)
{
	unsigned n = kpoint_ncpus() >= 2 ? 2 : 1;
	struct kpoint_opts o = {.nthreads = n, .min_time_ns = 2000000};
	struct lab_point_rec rec;

	REQUIRE(kpoint_run(&omps_kernel, NULL, &o, &rec) == 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	CHECK_EQ_U64(rec.nthreads, n);
	CHECK_EQ_U64(rec.nworkers, 1);
	REQUIRE(rec.omp_cpus != NULL);
	/* kpoint plans the first n CPUs this process may use: 0 and 1 here. */
	for (unsigned i = 0; i < n; i++)
		CHECK(rec.omp_cpus[i] >= 0);
	if (n == 2)
		CHECK(rec.omp_cpus[0] != rec.omp_cpus[1]);
	for (unsigned r = 0; r < rec.nreps; r++)
		CHECK(rec.samples[r].work > 0);
	kpoint_free(&rec);
}

/* A fake run-queue source: OpenMP thread 1's total grows at half the wall clock, thread 0's
 * (the harness worker's) stays 0. */
struct omps_runq {
	uint64_t last[2];
	double total[2];
	unsigned asked[2];
};

static int omps_runq_read(void *ctx, unsigned tid, uint64_t *ns)
{
	struct omps_runq *q = ctx;
	uint64_t now = lab_clock_ns();

	if (tid >= 2)
		return -1;
	if (tid == 1 && q->last[tid])
		q->total[tid] += 0.5 * (double)(now - q->last[tid]);
	q->last[tid] = now;
	q->asked[tid]++;
	*ns = (uint64_t)q->total[tid];
	return 0;
}

static double omps_quiet(void *ctx)
{
	(void)ctx;
	return 0;
}

/* The one harness worker waited for nothing, OpenMP thread 1 for half of each sample: the run
 * queue guard flags every sample (it read only the worker's wait, and kept them all clean). */
LAB_TEST(openmp_team_thread_waiting_flags_the_sample)
{
	struct omps_runq q = {0};
	struct kpoint_opts o = {.nthreads = 2,
	                        .min_time_ns = 1000000,
	                        .foreign = omps_quiet,
	                        .runq = omps_runq_read,
	                        .runq_ctx = &q};
	struct lab_point_rec rec;

	if (kpoint_ncpus() < 2)
		SKIP("needs 2 CPUs for a team of 2");
	REQUIRE(kpoint_run(&omps_kernel, NULL, &o, &rec) == 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK(q.asked[1] > 0);
	CHECK_EQ_U64(rec.nflagged, rec.nreps);
	CHECK_EQ_U64(rec.nflagged_runq, rec.nreps);
	for (unsigned r = 0; r < rec.nreps; r++)
		CHECK(rec.samples[r].runq_wait > 0.3);
	kpoint_free(&rec);
}

LAB_TEST(openmp_bind_rejects_a_bad_index)
{
	int cpus[1] = {0}, omp_cpus[1] = {-1};
	struct lab_env env = {.thissystem = false};
	struct lab_ctx ctx = {.nthreads = 1, .cpus = cpus, .env = &env, .omp_cpus = omp_cpus};

	CHECK_EQ_I64(lab_ctx_omp_bind(&ctx, 1), -LAB_EINVAL);
	CHECK_EQ_I64(lab_ctx_omp_bind(&ctx, 0), 0); /* not this system: records, binds nothing */
	CHECK(omp_cpus[0] >= 0);
}
