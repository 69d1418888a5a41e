/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scalar variant; compiled with lab_kernel_file(ISA scalar): no auto-vectorization. */
#include "tests/kernels/isa_dot.h"

#if defined(__AVX__)
#error "lab_kernel_file(ISA scalar) must not add vector ISA flags"
#endif

double isa_dot_scalar(const double *a, const double *b, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}
