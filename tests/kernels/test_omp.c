/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chapter-29 OpenMP kernels through the real runner: every variant runs, verifies, and its
 * OpenMP (or lab) team ran on the planned CPUs; metric columns hang together. No timings.
 */
#include <math.h>
#include <sched.h>
#include <string.h>

#include "harness/kernel_api.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

extern const struct lab_kernel lab_kernel_omp_fractal;
extern const struct lab_kernel lab_kernel_omp_overhead;
extern const struct lab_kernel lab_kernel_omp_schedule;
extern const struct lab_kernel lab_kernel_omp_triad;
extern const struct lab_kernel lab_kernel_reduce;
extern const struct lab_kernel lab_kernel_scan;

/* The team size the tests use: 2 where the process may use 2 CPUs, else 1. */
static unsigned omp_n(void)
{
	return kpoint_ncpus() >= 2 ? 2 : 1;
}

/* The CPUs kpoint plans: the first n this process may use, in order. */
static void omp_planned(int *cpus, unsigned n)
{
	cpu_set_t set;
	unsigned k = 0;

	CPU_ZERO(&set);
	REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (int c = 0; c < CPU_SETSIZE && k < n; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = c;
	REQUIRE(k == n);
}

/*
 * Runs k with the overrides kv on omp_n() threads and checks what every OpenMP kernel owes:
 * status ok, verify pass, one harness worker, each OpenMP thread found on its planned CPU.
 */
static void omp_point(const struct lab_kernel *k, const char *const *kv, struct lab_point_rec *rec)
{
	unsigned n = omp_n();
	struct kpoint_opts o = {.nthreads = n, .reps = 2, .min_time_ns = 1000000};
	int want[2];

	omp_planned(want, n);
	REQUIRE(kpoint_run(k, kv, &o, rec) == 0);
	CHECK_EQ_I64(rec->status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec->verify, LAB_VERIFY_PASS);
	CHECK_EQ_U64(rec->nworkers, 1);
	REQUIRE(rec->omp_cpus != NULL);
	for (unsigned i = 0; i < n; i++)
		CHECK_EQ_I64(rec->omp_cpus[i], want[i]);
	for (unsigned r = 0; r < rec->nreps; r++)
		CHECK(rec->samples[r].work > 0);
}

LAB_TEST(omp_overhead_every_construct)
{
	static const char *const constructs[] = {
	    "parallel", "for",    "parallel_for", "barrier", "single",   "critical",
	    "lock",     "atomic", "reduction",    "ordered", "taskloop",
	};
	int mt = kpoint_metric(&lab_kernel_omp_overhead, "test_ns");
	int mr = kpoint_metric(&lab_kernel_omp_overhead, "ref_ns");
	int mo = kpoint_metric(&lab_kernel_omp_overhead, "overhead_ns");

	REQUIRE(mt >= 0 && mr >= 0 && mo >= 0);
	for (size_t c = 0; c < sizeof(constructs) / sizeof(*constructs); c++) {
		char kv0[64];
		const char *kv[] = {kv0, "delay=50ns", NULL};
		struct lab_point_rec rec;

		snprintf(kv0, sizeof(kv0), "construct=%s", constructs[c]);
		fprintf(stderr, "construct %s\n", constructs[c]);
		omp_point(&lab_kernel_omp_overhead, kv, &rec);
		for (unsigned r = 0; r < rec.nreps; r++) {
			const double *m = rec.samples[r].metric;
			/* The overhead is the paired difference of the same sample's halves. */
			CHECK_NEAR(m[mo], m[mt] - m[mr], 1e-6 * (fabs(m[mt]) + 1));
			CHECK(m[mt] > 0 && m[mr] > 0);
		}
		kpoint_free(&rec);
	}
}

LAB_TEST(omp_overhead_lab_team)
{
	static const char *const constructs[] = {"parallel", "barrier", "critical",
	                                         "lock",     "atomic",  "reduction"};
	const char *skip[] = {"construct=for", "team=lab", NULL};
	struct kpoint_opts o = {.nthreads = 1};
	struct lab_point_rec rec;

	for (size_t c = 0; c < sizeof(constructs) / sizeof(*constructs); c++) {
		char kv0[64];
		const char *kv[] = {kv0, "team=lab", "delay=50ns", NULL};

		snprintf(kv0, sizeof(kv0), "construct=%s", constructs[c]);
		fprintf(stderr, "lab team, construct %s\n", constructs[c]);
		omp_point(&lab_kernel_omp_overhead, kv, &rec);
		kpoint_free(&rec);
	}
	/* A construct the lab team has no version of is skipped, not faked. */
	CHECK_EQ_I64(kpoint_run(&lab_kernel_omp_overhead, skip, &o, &rec), LAB_SKIP);
}

LAB_TEST(omp_schedule_every_schedule_and_imbalance)
{
	static const char *const scheds[] = {"static", "static_chunk", "dynamic", "guided",
	                                     "monotonic_dynamic"};
	static const char *const imbs[] = {"uniform", "ramp", "random", "spike"};
	int mx = kpoint_metric(&lab_kernel_omp_schedule, "busy_max_ns");
	int mm = kpoint_metric(&lab_kernel_omp_schedule, "busy_mean_ns");
	int mn = kpoint_metric(&lab_kernel_omp_schedule, "busy_min_ns");
	int mi = kpoint_metric(&lab_kernel_omp_schedule, "imbalance");
	int mid = kpoint_metric(&lab_kernel_omp_schedule, "ideal_ns");

	REQUIRE(mx >= 0 && mm >= 0 && mn >= 0 && mi >= 0 && mid >= 0);
	for (size_t s = 0; s < 5; s++)
		for (size_t b = 0; b < 4; b++) {
			char k0[64], k1[64];
			const char *kv[] = {k0, k1, "iterations=64", "cost=200ns", "chunk=4", NULL};
			struct lab_point_rec rec;

			snprintf(k0, sizeof(k0), "schedule=%s", scheds[s]);
			snprintf(k1, sizeof(k1), "imbalance=%s", imbs[b]);
			omp_point(&lab_kernel_omp_schedule, kv, &rec);
			for (unsigned r = 0; r < rec.nreps; r++) {
				const double *m = rec.samples[r].metric;
				CHECK(m[mn] <= m[mm] && m[mm] <= m[mx]);
				CHECK(m[mi] >= 1.0 - 1e-9);
				/* Work is iterations: a multiple of the loop's 64. */
				CHECK_EQ_U64(rec.samples[r].work % 64, 0);
				/* cost is the mean of every pattern (spike's was 95/64 of it): the
				 * calibrated work of a loop is 64 x 200 ns over the team, whatever
				 * the clock (the rate cancels; integer delay loops round it).
				 * Random's mean over 64 draws is not exactly 1. */
				if (strcmp(imbs[b], "random"))
					CHECK_NEAR(m[mid] * omp_n() / (64 * 200.0), 1.0, 0.1);
			}
			kpoint_free(&rec);
		}
}

LAB_TEST(reduce_every_strategy_on_both_teams)
{
	static const char *const strategies[] = {"omp_reduction", "padded_partials",
	                                         "packed_partials", "atomic", "critical"};
	static const char *const teams[] = {"openmp", "lab"};

	for (size_t s = 0; s < 5; s++)
		for (size_t t = 0; t < 2; t++) {
			char k0[64], k1[64];
			/* An odd size: the blocks of the two threads differ by one element. */
			const char *kv[] = {k0, k1, "elems=4097", NULL};
			struct lab_point_rec rec;

			snprintf(k0, sizeof(k0), "strategy=%s", strategies[s]);
			snprintf(k1, sizeof(k1), "team=%s", teams[t]);
			fprintf(stderr, "%s %s\n", k0, k1);
			omp_point(&lab_kernel_reduce, kv, &rec);
			kpoint_free(&rec);
		}
}

LAB_TEST(scan_every_method_verifies)
{
	static const char *const methods[] = {"two_pass", "blocked"};
	const char *serial[] = {"method=serial", "size=24584", NULL};
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 1000000};
	struct lab_point_rec one;

	/* serial runs on one thread: measured at threads = 1, skipped with its reason at more (its
	 * time with a waiting team against one thread read as a speedup of a serial pass) */
	REQUIRE(kpoint_run(&lab_kernel_scan, serial, &o, &one) == 0);
	CHECK_EQ_I64(one.verify, LAB_VERIFY_PASS);
	kpoint_free(&one);
	o.nthreads = 2;
	CHECK_EQ_I64(kpoint_run(&lab_kernel_scan, serial, &o, &one), LAB_SKIP);
	for (size_t m = 0; m < 2; m++) {
		char k0[64];
		/* Tiles of 1 KiB per thread over 24 KiB: many tiles and a partial last one. */
		const char *kv[] = {k0, "size=24584", "tile=1K", NULL};
		struct lab_point_rec rec;

		snprintf(k0, sizeof(k0), "method=%s", methods[m]);
		omp_point(&lab_kernel_scan, kv, &rec);
		kpoint_free(&rec);
	}
}

/* Weak scaling: per_thread multiplies the work of one pass by the team size. */
static void omp_weak(const struct lab_kernel *k, const char *key, uint64_t unit_per_pass,
                     const char *per_thread_metric)
{
	int mp = kpoint_metric(k, per_thread_metric);
	char k0[64];
	const char *strong[] = {k0, "per_thread=false", NULL};
	const char *weak[] = {k0, "per_thread=true", NULL};
	struct lab_point_rec rec;

	snprintf(k0, sizeof(k0), "%s", key);
	REQUIRE(mp >= 0);
	omp_point(k, strong, &rec);
	for (unsigned r = 0; r < rec.nreps; r++)
		CHECK_EQ_U64(rec.samples[r].work % unit_per_pass, 0);
	kpoint_free(&rec);
	omp_point(k, weak, &rec);
	for (unsigned r = 0; r < rec.nreps; r++) {
		CHECK_EQ_U64(rec.samples[r].work % (unit_per_pass * omp_n()), 0);
		/* Weak: every thread's share is one whole pass of the per-thread size. */
		CHECK_NEAR(rec.samples[r].metric[mp], (double)unit_per_pass, 1e-9);
	}
	kpoint_free(&rec);
}

LAB_TEST(omp_triad_strong_and_weak)
{
	omp_weak(&lab_kernel_omp_triad, "size=24K", 3072, "elems_per_thread");
}

LAB_TEST(omp_fractal_strong_and_weak_both_schedules)
{
	const char *kv[] = {"schedule=static", "pixels=2048", "max_iter=64", NULL};
	struct lab_point_rec rec;
	int mi = kpoint_metric(&lab_kernel_omp_fractal, "iters_per_pixel");

	omp_weak(&lab_kernel_omp_fractal, "pixels=2048", 2048, "pixels_per_thread");
	omp_point(&lab_kernel_omp_fractal, kv, &rec);
	REQUIRE(mi >= 0);
	for (unsigned r = 0; r < rec.nreps; r++)
		CHECK(rec.samples[r].metric[mi] >= 1 && rec.samples[r].metric[mi] <= 64);
	kpoint_free(&rec);
}
