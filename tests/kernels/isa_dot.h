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

/*
 * The vector extensions a file was compiled for, from its predefined macros. The build's own
 * flags may hold some (CFLAGS=-march=x86-64-v4): what a file must not have is more than
 * isa_base.c, compiled in another target with those flags alone, has.
 */
#ifdef __AVX__
#define ISA_F_AVX 1u
#else
#define ISA_F_AVX 0u
#endif
#ifdef __AVX2__
#define ISA_F_AVX2 2u
#else
#define ISA_F_AVX2 0u
#endif
#ifdef __FMA__
#define ISA_F_FMA 4u
#else
#define ISA_F_FMA 0u
#endif
#ifdef __AVX512F__
#define ISA_F_AVX512F 8u
#else
#define ISA_F_AVX512F 0u
#endif
#define ISA_FILE_FEATURES (ISA_F_AVX | ISA_F_AVX2 | ISA_F_FMA | ISA_F_AVX512F)

extern const unsigned isa_base_features;   /* isa_base.c: the build's flags alone */
extern const unsigned isa_scalar_features; /* isa_scalar.c: lab_kernel_file(ISA scalar) */

#endif
