/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every registered kernel, tiny, at 1 and 2 threads: it runs, and verify() passes or fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/param.h"
#include "kernels/registry.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

/*
 * The declared work_scope matches who counted the work (the analyzer labels whose time the cost
 * is from it): a unit shared by the pair or counted by thread 0 alone leaves thread 1 at 0; a
 * team kernel gives thread 1 its share (over every sample: a timed one runs 3 x 2 ms).
 */
static void kernels_check_scope(const struct lab_kernel *k, const struct lab_point_rec *rec)
{
	uint64_t w1 = kpoint_thread_work(rec, 1);

	if (k->work_scope != LAB_WORK_TEAM && w1 != 0)
		fprintf(stderr, "%s: work_scope is not team, yet thread 1 counted %llu units\n",
		        k->name, (unsigned long long)w1);
	if (k->work_scope != LAB_WORK_TEAM)
		CHECK_EQ_U64(w1, 0);
	else
		CHECK(w1 > 0);
}

/*
 * Kernels that need more than any machine has (LAB_KF_NUMA: 2 NUMA nodes) are run by their own
 * cases, so a 1-node machine reports those as Skipped and the rest as Passed.
 */
static bool kernels_numa(const struct lab_kernel *k)
{
	return (k->flags & LAB_KF_NUMA) != 0;
}

/*
 * Every kernel with (numa) or without (!numa) LAB_KF_NUMA at n threads: runs and verifies.
 * Returns how many were not skipped.
 */
static unsigned kernels_verify_all(unsigned n, bool numa)
{
	unsigned ran = 0;

	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		if (kernels_numa(*k) != numa)
			continue;
		struct lab_point_rec rec;
		unsigned threads = (*k)->flags & LAB_KF_PAIRS ? 2 : n;
		struct kpoint_opts o = {.nthreads = threads, .min_time_ns = 2000000};
		int rc = kpoint_run(*k, NULL, &o, &rec);
		if (rc == LAB_SKIP) {
			SKIP_PART("%s (at %u thread%s)", kpoint_skip_reason(), threads,
			          threads == 1 ? "" : "s");
			continue;
		}
		ran++;
		CHECK_EQ_I64(rc, 0);
		if (rec.status != LAB_STATUS_OK)
			fprintf(stderr, "%s at %u threads: %s\n", (*k)->name, threads, rec.reason);
		CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
		CHECK_EQ_I64(rec.verify, (*k)->verify ? LAB_VERIFY_PASS : LAB_VERIFY_NONE);
		CHECK_EQ_U64(rec.nreps, 3);
		for (unsigned r = 0; r < rec.nreps; r++) {
			CHECK(rec.samples[r].work > 0);
			CHECK(rec.samples[r].elapsed_ns > 0);
		}
		if (threads == 2 && !((*k)->flags & LAB_KF_OPENMP))
			kernels_check_scope(*k, &rec);
		lab_point_rec_free(&rec);
	}
	return ran;
}

/* Every choice of every enum parameter of the kernels with (numa) or without LAB_KF_NUMA, at 2
 * threads, or at 1 where the kernel skips it at 2: none fails (a choice this CPU lacks is
 * skipped, and the case says so). */
static void kernels_verify_every_choice(bool numa)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		if (kernels_numa(*k) != numa)
			continue;
		for (const struct lab_param *p = (*k)->params; p->key; p++) {
			if (p->type != LAB_PT_ENUM)
				continue;
			for (const struct lab_enum_val *c = p->choices; c->name; c++) {
				char kv[128];
				const char *ov[] = {kv, NULL};
				struct lab_point_rec rec;
				struct kpoint_opts o = {.nthreads = 2, .min_time_ns = 2000000};
				snprintf(kv, sizeof(kv), "%s=%s", p->key, c->name);
				int rc = kpoint_run(*k, ov, &o, &rec);
				/* a choice for one thread only (scan's serial): verified there */
				if (rc == LAB_SKIP && !((*k)->flags & LAB_KF_PAIRS)) {
					o.nthreads = 1;
					rc = kpoint_run(*k, ov, &o, &rec);
				}
				if (rc == LAB_SKIP) {
					SKIP_PART("%s: %s", kv, kpoint_skip_reason());
					continue;
				}
				CHECK_EQ_I64(rc, 0);
				if (rec.status == LAB_STATUS_FAILED)
					fprintf(stderr, "%s %s: %s\n", (*k)->name, kv, rec.reason);
				CHECK(rec.status != LAB_STATUS_FAILED);
				if (rec.status == LAB_STATUS_OK)
					CHECK(rec.verify != LAB_VERIFY_FAIL);
				lab_point_rec_free(&rec);
			}
		}
	}
}

LAB_TEST(verify_all_1_thread)
{
	kernels_verify_all(1, false);
}

LAB_TEST(verify_all_2_threads)
{
	kernels_verify_all(2, false);
}

LAB_TEST(verify_every_choice)
{
	kernels_verify_every_choice(false);
}

/*
 * The NUMA kernels (numa_bw): at 1 and 2 threads and every choice. On one node the first round
 * says Skipped with the reason, and the rest would only repeat it (make test-vm runs them in a
 * 2- and 4-node QEMU guest).
 */
LAB_TEST(verify_numa_kernels)
{
	if (kernels_verify_all(1, true) == 0)
		return;
	kernels_verify_all(2, true);
	kernels_verify_every_choice(true);
}

/*
 * verify() must catch work that was not done: after setup, claim each thread did 1000 units
 * when none ran. A verify hook that passes this is not checking anything.
 */
LAB_TEST(verify_catches_missing_work)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		if (!(*k)->verify)
			continue;
		/* An OpenMP kernel has one harness worker; its team of 2 records where it ran. */
		unsigned n = (*k)->flags & LAB_KF_OPENMP ? 1 : 2;
		int cpus[2] = {0, 0}, omp_cpus[2] = {-1, -1};
		struct lab_env env = {.ncpus = 1, .clock_resolution_ns = 1, .openmp = true};
		struct lab_err err = {0};
		void *params = calloc(1, (*k)->params_size ? (*k)->params_size : 1);
		struct lab_thread *t[2];
		atomic_int stop = 0;
		REQUIRE(params && lab_param_defaults((*k)->params, params, &err) == 0);
		struct lab_ctx ctx = {.params = params,
		                      .nthreads = 2,
		                      .cpus = cpus,
		                      .env = &env,
		                      .omp_cpus = omp_cpus};
		for (unsigned i = 0; i < n; i++) {
			t[i] = aligned_alloc(LAB_SLOT, sizeof(struct lab_thread));
			memset(t[i], 0, sizeof(*t[i]));
			t[i]->id = i;
			t[i]->stop = &stop;
		}
		REQUIRE(!(*k)->setup || (*k)->setup(&ctx, &err) == 0);
		for (unsigned i = 0; i < n; i++)
			REQUIRE(!(*k)->thread_setup || (*k)->thread_setup(&ctx, t[i], &err) == 0);
		for (unsigned i = 0; i < n; i++)
			t[i]->work_total = 1000;
		int rc = (*k)->verify(&ctx, t, n, &err);
		if (rc != -LAB_EVERIFY)
			fprintf(stderr, "%s: verify returned %d for work never done\n", (*k)->name,
			        rc);
		CHECK_EQ_I64(rc, -LAB_EVERIFY);
		CHECK(err.msg[0] != '\0');
		if ((*k)->teardown)
			(*k)->teardown(&ctx, t, n);
		for (unsigned i = 0; i < n; i++)
			free(t[i]);
		free(params);
	}
}

/*
 * A long iteration-count sample runs in chunks (so Ctrl-C can stop it): the chunks of a sample
 * add up to iters_per_sample units per thread, and the kernel still verifies. The record says
 * how many timed windows a sample's elapsed_ns adds up (run.json sample_windows): the analyzer
 * holds threads.csv to elapsed_ns = max(end_ns) - min(start_ns) with one window, and to a span
 * at least elapsed_ns with several (the gaps between chunks are in the span, not timed).
 */
LAB_TEST(chunked_samples_add_up)
{
	const struct lab_kernel *noop = lab_plan_kernel_find(lab_kernels, "noop");
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 150000000};
	struct lab_point_rec rec;

	REQUIRE(noop != NULL);
	REQUIRE(kpoint_run(noop, NULL, &o, &rec) == 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_U64(rec.nreps, 2);
	CHECK_EQ_U64(rec.windows, 3); /* 150 ms in chunks of at most 50 ms */
	for (unsigned r = 0; r < rec.nreps; r++) {
		CHECK_EQ_U64(rec.samples[r].work, rec.iters);
		CHECK(rec.threads[r].end_ns > rec.threads[r].start_ns);
		CHECK(rec.threads[r].end_ns - rec.threads[r].start_ns >= rec.samples[r].elapsed_ns);
	}
	CHECK(rec.verify != LAB_VERIFY_FAIL);
	kpoint_free(&rec);
	o = (struct kpoint_opts){.nthreads = kpoint_ncpus() >= 2 ? 2 : 1, .reps = 2};
	REQUIRE(kpoint_run(noop, NULL, &o, &rec) == 0);
	CHECK_EQ_U64(rec.windows, 1);
	for (unsigned r = 0; r < rec.nreps; r++) {
		uint64_t first = UINT64_MAX, last = 0;

		for (unsigned t = 0; t < rec.nworkers; t++) {
			const struct lab_thread_rec *tr = &rec.threads[r * rec.nworkers + t];
			first = tr->start_ns < first ? tr->start_ns : first;
			last = tr->end_ns > last ? tr->end_ns : last;
		}
		CHECK_EQ_U64(last - first, rec.samples[r].elapsed_ns);
	}
	kpoint_free(&rec);
}

extern const struct lab_kernel lab_kernel_atomic_rmw;

/* retries_per_op is CAS's: fetch_add and xchg have no retry loop, so none (NaN, printed "-"), not
 * a 0 that reads as a CAS that never failed; CAS's is a count, at least 0. */
LAB_TEST(atomic_retries_only_for_cas)
{
	static const char *const ops[] = {"op=fetch_add", "op=xchg", "op=cas"};
	int m = kpoint_metric(&lab_kernel_atomic_rmw, "retries_per_op");
	int mr = kpoint_metric(&lab_kernel_atomic_rmw, "retries");

	REQUIRE(m >= 0 && mr >= 0);
	for (size_t i = 0; i < 3; i++) {
		const char *kv[] = {ops[i], NULL};
		struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 1000000};
		struct lab_point_rec rec;

		REQUIRE(kpoint_run(&lab_kernel_atomic_rmw, kv, &o, &rec) == 0);
		CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
		for (unsigned r = 0; r < rec.nreps; r++) {
			double v = rec.samples[r].metric[m], n = rec.samples[r].metric[mr];
			if (i < 2)
				CHECK(isnan(v) && isnan(n));
			else
				CHECK(v >= 0 && n >= 0);
		}
		kpoint_free(&rec);
	}
}
