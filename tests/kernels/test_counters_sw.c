/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Software counters collected for real by pinned workers through the runner: page faults equal
 * the fresh pages a test kernel touches, and a pinned sample shows no CPU migration.
 */
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/counters.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

#define CT_PAGES 64

/* ThreadSanitizer touches shadow pages of its own in the counted window: at least N there. */
#if defined(__SANITIZE_THREAD__)
#define CT_EXACT 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CT_EXACT 0
#endif
#endif
#ifndef CT_EXACT
#define CT_EXACT 1
#endif

/* Each unit of work maps CT_PAGES fresh pages, touches each once and unmaps them. */
static void ct_pages_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = CT_PAGES * page;

	(void)ctx;
	for (uint64_t i = 0; i < t->iters; i++) {
		char *p =
		    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			t->work = i;
			return;
		}
		/* Huge pages would turn 512 faults into one. */
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t k = 0; k < CT_PAGES; k++)
			((volatile char *)p)[k * page] = 1;
		munmap(p, len);
	}
}

static const struct lab_param ct_params[] = {LAB_PARAM_END};

static const struct lab_kernel ct_pages = {
    .abi = LAB_KERNEL_ABI,
    .name = "test_touch_pages",
    .params = ct_params,
    .work_unit = "mapping",
    .run = ct_pages_run,
};

static unsigned ct_ev(const char *name)
{
	int e = lab_ctr_event_find(name);
	return e < 0 ? 0 : (unsigned)e;
}

LAB_TEST(page_faults_equal_pages_touched)
{
	struct lab_point_rec rec;
	struct kpoint_opts o = {.nthreads = 1, .reps = 4, .min_time_ns = 2000000};
	unsigned pf = ct_ev("page-faults");

	REQUIRE(kpoint_run(&ct_pages, NULL, &o, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK && rec.ctr);
	CHECK_EQ_STR(lab_ctr_status_name(rec.ctr->av[pf].st), "ok");
	for (unsigned r = 0; r < rec.nreps; r++) {
		double want = (double)(rec.samples[r].work * CT_PAGES);
		if (CT_EXACT) {
			CHECK_EQ_U64(rec.samples[r].ctr[pf], want);
			CHECK_EQ_U64(rec.threads[r].ctr[pf], want);
		} else {
			CHECK(rec.samples[r].ctr[pf] >= want);
		}
	}
	kpoint_free(&rec);
}

LAB_TEST(pinned_samples_show_no_migration)
{
	struct lab_point_rec rec;
	unsigned n = kpoint_ncpus() >= 2 ? 2 : 1;
	struct kpoint_opts o = {.nthreads = n, .reps = 3, .min_time_ns = 2000000};
	unsigned mig = ct_ev("cpu-migrations"), tc = ct_ev("task-clock");

	REQUIRE(kpoint_run(&ct_pages, NULL, &o, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK && rec.ctr);
	for (unsigned i = 0; i < rec.nreps * n; i++) {
		CHECK_EQ_U64(rec.threads[i].ctr[mig], 0);
		CHECK(rec.threads[i].ctr[tc] > 0);
		CHECK_EQ_I64(rec.threads[i].cpu_start, rec.threads[i].cpu_end);
	}
	CHECK_EQ_U64(rec.ctr->mig_samples, 0);
	kpoint_free(&rec);
}

/* Without a core PMU (a VM like the build machines) cycles is unsupported with ENOENT; with
 * one it counts. Either way the point runs in auto mode. */
LAB_TEST(hardware_events_here_are_counted_or_explained)
{
	struct lab_point_rec rec;
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 1000000};
	unsigned cyc = ct_ev("cycles");

	REQUIRE(kpoint_run(&ct_pages, NULL, &o, &rec) == 0);
	REQUIRE(rec.status == LAB_STATUS_OK && rec.ctr);
	if (lab_ctr_host_self()->cpu_pmu) {
		CHECK_EQ_STR(lab_ctr_status_name(rec.ctr->av[cyc].st), "ok");
	} else {
		CHECK_EQ_STR(lab_ctr_status_name(rec.ctr->av[cyc].st), "unsupported");
		CHECK_EQ_I64(rec.ctr->av[cyc].err, 2 /* ENOENT */);
		CHECK(isnan(rec.samples[0].ctr[cyc]));
	}
	kpoint_free(&rec);
}
