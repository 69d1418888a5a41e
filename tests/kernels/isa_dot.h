/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test kernel's variants, each in a file compiled for its ISA by cmake's lab_kernel_file:
 * a dot product of n doubles (n a multiple of 8) whose inputs are small integers, so every
 * variant's sum is exact and must equal the scalar one.
 */
#ifndef LAB_TESTS_KERNELS_ISA_DOT_H
#define LAB_TESTS_KERNELS_ISA_DOT_H

#include <stddef.h>

double isa_dot_scalar(const double *a, const double *b, size_t n);
double isa_dot_avx2(const double *a, const double *b, size_t n);
double isa_dot_avx512(const double *a, const double *b, size_t n);

#endif
