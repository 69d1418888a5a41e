/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The c2c_latency kernel through the real runner on this machine's first two CPUs: every
 * method and layout completes with matching round-trip counts and flags (verify passes) and
 * yields finite latencies; a clock that claims a coarse resolution makes every real latency
 * "impossible", and verify must reject it. No timing assertions.
 */
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

extern const struct lab_kernel lab_kernel_c2c_latency;

static void check_c2c(const char *method, const char *layout)
{
	const char *kv[] = {method, layout, NULL};
	struct kpoint_opts o = {.nthreads = 2, .reps = 3, .min_time_ns = 10000000};
	struct lab_point_rec rec;
	int one_way = kpoint_metric(&lab_kernel_c2c_latency, "one_way_ns");
	int p50 = kpoint_metric(&lab_kernel_c2c_latency, "one_way_p50_ns");

	REQUIRE(one_way >= 0 && p50 >= 0);
	if (kpoint_ncpus() < 2) {
		fprintf(stderr, "skipped: c2c_latency needs 2 CPUs, this process may use %u\n",
		        kpoint_ncpus());
		return;
	}
	REQUIRE(kpoint_run(&lab_kernel_c2c_latency, kv, &o, &rec) == 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	CHECK_EQ_U64(rec.nreps, 3);
	for (unsigned r = 0; r < rec.nreps; r++) {
		const struct lab_sample_rec *s = &rec.samples[r];
		CHECK(s->work > 0);
		CHECK(isfinite(s->metric[one_way]) && s->metric[one_way] > 0);
		CHECK(isfinite(s->metric[p50]) && s->metric[p50] > 0);
		fprintf(stderr, "%s %s rep %u: %llu round trips, one-way %.1f ns (p50 %.1f)\n",
		        method, layout, r, (unsigned long long)s->work, s->metric[one_way],
		        s->metric[p50]);
	}
	/* Round trips are counted once, by the initiator. */
	CHECK(kpoint_thread_work(&rec, 0) > 0);
	CHECK_EQ_U64(kpoint_thread_work(&rec, 1), 0);
	kpoint_free(&rec);
}

LAB_TEST(load_store_one_slot)
{
	check_c2c("method=load_store", "layout=one_slot");
}
LAB_TEST(load_store_two_slots)
{
	check_c2c("method=load_store", "layout=two_slots");
}
LAB_TEST(cas_one_slot)
{
	check_c2c("method=cas", "layout=one_slot");
}
LAB_TEST(cas_two_slots)
{
	check_c2c("method=cas", "layout=two_slots");
}

/*
 * A clock that claims 20 us resolution: every cross-core latency (tens to hundreds of ns) is
 * below it, so each sample is impossible by the kernel's rule and verify must fail, naming it.
 */
LAB_TEST(below_resolution_fails_verify)
{
	const char *kv[] = {"method=load_store", NULL};
	struct kpoint_opts o = {.nthreads = 2, .reps = 2, .clock_resolution_ns = 20000};
	struct lab_point_rec rec;

	if (kpoint_ncpus() < 2) {
		fprintf(stderr, "skipped: c2c_latency needs 2 CPUs\n");
		return;
	}
	REQUIRE(kpoint_run(&lab_kernel_c2c_latency, kv, &o, &rec) == 0);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_FAIL);
	CHECK_EQ_I64(rec.status, LAB_STATUS_FAILED);
	CHECK(strstr(rec.reason, "below the clock resolution") != NULL);
	fprintf(stderr, "verify said: %s\n", rec.reason);
	kpoint_free(&rec);
}
