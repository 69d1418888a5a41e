/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Built with the auto variants' flags (-march=LAB_AUTO_MARCH, kernels/CMakeLists.txt) and
 * holding no code: the instruction-set extensions the compiler was allowed to use there, read
 * from its predefined macros, so check() can skip `auto` on a CPU that lacks one of them: the
 * twelve cpufeat.h knows (and LAB_CPU_MASK can hide) as bits, every one by name.
 */
#include "kernels/simd_isa.h"

#include "harness/cpufeat.h"

const unsigned lab_simd_auto_needs = 0
#ifdef __SSE2__
                                     | LAB_CPU_SSE2
#endif
#ifdef __SSE4_2__
                                     | LAB_CPU_SSE42
#endif
#ifdef __POPCNT__
                                     | LAB_CPU_POPCNT
#endif
#ifdef __AVX__
                                     | LAB_CPU_AVX
#endif
#ifdef __AVX2__
                                     | LAB_CPU_AVX2
#endif
#ifdef __FMA__
                                     | LAB_CPU_FMA
#endif
#ifdef __AVX512F__
                                     | LAB_CPU_AVX512F
#endif
#ifdef __AVX512BW__
                                     | LAB_CPU_AVX512BW
#endif
#ifdef __AVX512DQ__
                                     | LAB_CPU_AVX512DQ
#endif
#ifdef __AVX512VL__
                                     | LAB_CPU_AVX512VL
#endif
#ifdef __AVX512VNNI__
                                     | LAB_CPU_AVX512VNNI
#endif
#ifdef __AVX512VBMI__
                                     | LAB_CPU_AVX512VBMI
#endif
    ;

const char *const lab_simd_auto_isa[] = {
#include "harness/isa_list.h"
    NULL};
