/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/selfcheck.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "harness/clock.h"
#include "harness/coreclock.h"

static void sc_empty_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	for (uint64_t i = 0; i < t->iters; i++)
		lab_do_not_optimize(i);
}

static void sc_spin_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	for (uint64_t i = 0; i < t->iters; i++)
		lab_clock_spin_ns(LAB_SELFCHECK_SPIN_NS);
}

static const struct lab_param sc_no_params[] = {LAB_PARAM_END};

static const struct lab_kernel sc_empty = {
    .abi = LAB_KERNEL_ABI,
    .name = "selfcheck_empty",
    .params = sc_no_params,
    .work_unit = "iteration",
    .run = sc_empty_run,
};

static const struct lab_kernel sc_spin = {
    .abi = LAB_KERNEL_ABI,
    .name = "selfcheck_spin",
    .params = sc_no_params,
    .work_unit = "spin",
    .run = sc_spin_run,
};

static int sc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median over samples of elapsed_ns / work. */
static int sc_measure(struct lab_runner *r, const struct lab_kernel *k, int cpu, double *out,
                      struct lab_err *err)
{
	struct lab_hparams h = {.threads = 1,
	                        .reps = 11,
	                        .warmup = 5000000,
	                        .min_time = 10000000,
	                        .load_threshold = INFINITY,
	                        .max_runq_wait = 1};
	struct lab_point_spec spec = {.kernel = k, .kparams = NULL, .h = &h, .cpus = &cpu, .n = 1};
	struct lab_point_rec rec;
	double per[11];

	int rc = lab_runner_point(r, &spec, &rec, err);
	if (rc == 0 && rec.status != LAB_STATUS_OK)
		rc = lab_err_set(err, LAB_ESYS, "%s", rec.reason);
	if (rc == 0) {
		for (unsigned i = 0; i < rec.nreps; i++)
			per[i] = (double)rec.samples[i].elapsed_ns / (double)rec.samples[i].work;
		qsort(per, rec.nreps, sizeof(per[0]), sc_cmp);
		*out = per[rec.nreps / 2];
	}
	lab_point_rec_free(&rec);
	return rc;
}

int lab_selfcheck_run(struct lab_runner *r, int cpu, struct lab_selfcheck *out, struct lab_err *err)
{
	int rc = sc_measure(r, &sc_empty, cpu, &out->overhead_ns_per_iter, err);

	if (rc == 0)
		rc = sc_measure(r, &sc_spin, cpu, &out->spin_50us_ns, err);
	if (rc)
		return lab_err_prefix(err, "self-check: ");
	out->core_ghz = lab_coreclock_ghz();
	out->spin_error = (out->spin_50us_ns - LAB_SELFCHECK_SPIN_NS) / LAB_SELFCHECK_SPIN_NS;
	return 0;
}
