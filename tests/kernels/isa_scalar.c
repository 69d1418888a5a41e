/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scalar variant; compiled with lab_kernel_file(ISA scalar): no auto-vectorization. */
#include "tests/kernels/isa_dot.h"

/* ISA scalar adds no vector ISA flags: test_isa compares this with the build's own (isa_base.c;
 * none, unless CFLAGS has some). */
const unsigned isa_scalar_features = ISA_FILE_FEATURES;

double isa_dot_scalar(const double *a, const double *b, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}
