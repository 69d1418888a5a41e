/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scalar variant; compiled with lab_kernel_file(ISA scalar): no auto-vectorization. */
#include "tests/kernels/isa_dot.h"

/* ISA scalar is the x86-64 baseline (-march=x86-64 after the build's own flags): no vector ISA
 * even where CFLAGS has some (test_isa). */
const unsigned isa_scalar_features = ISA_FILE_FEATURES;

double isa_dot_scalar(const double *a, const double *b, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}
