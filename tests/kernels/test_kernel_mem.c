/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernels that map more than the memory left fail their point in setup or thread_setup with
 * the MemAvailable reason, before a sample is timed: each buffer below fits alone in the
 * stand-in's 64 MiB of MemAvailable, their sum does not (three untouched arrays an OpenMP team
 * touches later, a copy made after the first arrays, two threads allocating at once).
 */
#include <stdio.h>
#include <string.h>

#include "harness/kernel_api.h"
#include "harness/memavail.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

extern const struct lab_kernel lab_kernel_omp_triad;
extern const struct lab_kernel lab_kernel_scan;
extern const struct lab_kernel lab_kernel_reduce;
extern const struct lab_kernel lab_kernel_numa_policy;
extern const struct lab_kernel lab_kernel_simd;
extern const struct lab_kernel lab_kernel_stream;

/* /proc/meminfo with MemAvailable = 64 MiB, for the rest of the case. */
static void mem_fake_64mib(void)
{
	static char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/meminfo", testlib_tmpdir());
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs("MemTotal:       1048576 kB\nMemAvailable:     65536 kB\n", f);
	fclose(f);
	lab_mem_meminfo_path(path);
}

/* Runs k with kv on n threads: the point must fail with the MemAvailable reason, untimed. */
static void mem_refused(const struct lab_kernel *k, const char *const *kv, unsigned n)
{
	struct kpoint_opts o = {.nthreads = n, .reps = 1, .min_time_ns = 1000000};
	struct lab_point_rec rec;
	int rc;

	if (n > kpoint_ncpus())
		SKIP("needs %u CPUs, this process may use %u", n, kpoint_ncpus());
	mem_fake_64mib();
	rc = kpoint_run(k, kv, &o, &rec);
	lab_mem_meminfo_path(NULL);
	if (rc == LAB_SKIP)
		SKIP("%s", kpoint_skip_reason());
	REQUIRE(rc == 0);
	fprintf(stderr, "%s: %s\n", k->name, rec.reason);
	CHECK_EQ_I64(rec.status, LAB_STATUS_FAILED);
	CHECK(strstr(rec.reason, "of memory available (MemAvailable)") != NULL);
	CHECK(strstr(rec.reason, "allowed: a smaller size") != NULL);
	CHECK_EQ_U64(rec.nreps, 0);
	kpoint_free(&rec);
}

LAB_TEST(omp_triad_three_untouched_arrays)
{
	mem_refused(&lab_kernel_omp_triad, (const char *const[]){"size=32MiB", NULL}, 1);
}

/* Runs k with kv on one thread under the stand-in's 64 MiB: the point must run. */
static void mem_fits(const struct lab_kernel *k, const char *const *kv)
{
	struct kpoint_opts o = {.nthreads = 1, .reps = 1, .min_time_ns = 1000000};
	struct lab_point_rec rec;
	int rc;

	mem_fake_64mib();
	rc = kpoint_run(k, kv, &o, &rec);
	lab_mem_meminfo_path(NULL);
	if (rc == LAB_SKIP)
		SKIP("%s", kpoint_skip_reason());
	REQUIRE(rc == 0);
	if (rec.status != LAB_STATUS_OK)
		fprintf(stderr, "%s: %s\n", k->name, rec.reason);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_U64(rec.nreps, 1);
	kpoint_free(&rec);
}

/* The control: the same kernel at half the size fits and runs. */
LAB_TEST(omp_triad_fits)
{
	mem_fits(&lab_kernel_omp_triad, (const char *const[]){"size=16MiB", NULL});
}

LAB_TEST(scan_two_untouched_arrays)
{
	mem_refused(&lab_kernel_scan, (const char *const[]){"size=48MiB", NULL}, 1);
}

LAB_TEST(reduce_array)
{
	mem_refused(&lab_kernel_reduce, (const char *const[]){"elems=12582912", NULL}, 1);
}

LAB_TEST(numa_policy_untouched_buffers)
{
	mem_refused(&lab_kernel_numa_policy, (const char *const[]){"size=32MiB", NULL}, 1);
}

/* saxpy keeps a copy of y for verify: x and y (size = both) fit, the copy of y does not. */
LAB_TEST(simd_saxpy_copy_of_y)
{
	mem_refused(&lab_kernel_simd, (const char *const[]){"op=saxpy", "size=48MiB", NULL}, 1);
}

/* Two threads each map 48 MiB (size = a thread's three arrays) in thread_setup at once. */
LAB_TEST(stream_threads_allocating_together)
{
	mem_refused(&lab_kernel_stream, (const char *const[]){"size=48MiB", NULL}, 2);
}

/* A thread maps only the arrays its op uses: a load or a store of 48 MiB takes 48 MiB (three
 * arrays of it, 144 MiB, did not fit), and verifies. */
LAB_TEST(stream_maps_only_the_arrays_of_its_op)
{
	mem_fits(&lab_kernel_stream, (const char *const[]){"op=load", "size=48MiB", NULL});
	mem_fits(&lab_kernel_stream, (const char *const[]){"op=store", "size=48MiB", NULL});
	mem_fits(&lab_kernel_stream, (const char *const[]){"op=update", "size=48MiB", NULL});
	mem_fits(&lab_kernel_stream, (const char *const[]){"op=copy", "size=48MiB", NULL});
}
