/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The AVX2 + FMA variant of the test dot product; compiled with lab_kernel_file(ISA avx2). */
#include <immintrin.h>

#include "tests/kernels/isa_dot.h"

/* The build proves the helper's flags reached this file, and only this one (test_isa checks
 * that its own file was compiled without them). */
#if !defined(__AVX2__) || !defined(__FMA__)
#error "lab_kernel_file(ISA avx2) did not add -mavx2 -mfma"
#endif

double isa_dot_avx2(const double *a, const double *b, size_t n)
{
	__m256d acc = _mm256_setzero_pd();
	double out[4];

	for (size_t i = 0; i < n; i += 4)
		acc = _mm256_fmadd_pd(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i), acc);
	_mm256_storeu_pd(out, acc);
	return out[0] + out[1] + out[2] + out[3];
}
