/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The AVX-512 variant of the test dot product; compiled with lab_kernel_file(ISA avx512). */
#include <immintrin.h>

#include "tests/kernels/isa_dot.h"

#if !defined(__AVX512F__) || !defined(__AVX512VL__) || !defined(__AVX512BW__) ||                   \
    !defined(__AVX512DQ__)
#error "lab_kernel_file(ISA avx512) did not add the AVX-512 flags"
#endif

double isa_dot_avx512(const double *a, const double *b, size_t n)
{
	__m512d acc = _mm512_setzero_pd();

	for (size_t i = 0; i < n; i += 8)
		acc = _mm512_fmadd_pd(_mm512_loadu_pd(a + i), _mm512_loadu_pd(b + i), acc);
	return _mm512_reduce_add_pd(acc);
}
