/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The list of kernels known to `lab`: one line per kernel, sorted by name. */
#include "kernels/registry.h"

extern const struct lab_kernel lab_kernel_atomic_rmw;
extern const struct lab_kernel lab_kernel_c2c_latency;
extern const struct lab_kernel lab_kernel_false_sharing;
extern const struct lab_kernel lab_kernel_loaded_latency;
extern const struct lab_kernel lab_kernel_lock;
extern const struct lab_kernel lab_kernel_noop;
extern const struct lab_kernel lab_kernel_numa_bw;
extern const struct lab_kernel lab_kernel_numa_lat;
extern const struct lab_kernel lab_kernel_numa_policy;
extern const struct lab_kernel lab_kernel_omp_fractal;
extern const struct lab_kernel lab_kernel_omp_overhead;
extern const struct lab_kernel lab_kernel_omp_schedule;
extern const struct lab_kernel lab_kernel_omp_triad;
extern const struct lab_kernel lab_kernel_peak;
extern const struct lab_kernel lab_kernel_reduce;
extern const struct lab_kernel lab_kernel_scan;
extern const struct lab_kernel lab_kernel_simd;
extern const struct lab_kernel lab_kernel_stream;

/* One line per kernel, so adding one is a one-line diff. */
/* clang-format off */
const struct lab_kernel *const lab_kernels[] = {
	&lab_kernel_atomic_rmw,
	&lab_kernel_c2c_latency,
	&lab_kernel_false_sharing,
	&lab_kernel_loaded_latency,
	&lab_kernel_lock,
	&lab_kernel_noop,
	&lab_kernel_numa_bw,
	&lab_kernel_numa_lat,
	&lab_kernel_numa_policy,
	&lab_kernel_omp_fractal,
	&lab_kernel_omp_overhead,
	&lab_kernel_omp_schedule,
	&lab_kernel_omp_triad,
	&lab_kernel_peak,
	&lab_kernel_reduce,
	&lab_kernel_scan,
	&lab_kernel_simd,
	&lab_kernel_stream,
	NULL,
};
/* clang-format on */
