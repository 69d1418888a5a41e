/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The instruction-set extensions a compiler may use on its own (vectorizing, picking an
 * instruction) when the flags of the file that includes this allow them: one string per
 * extension the flags turn on, named as lab_cpuid_isa_has knows them. Include it inside an
 * array initializer: `const char *const x[] = {
 * #include "harness/isa_list.h"
 * NULL};`. Extensions reached only through intrinsics (AES, SHA, RDRAND, AMX, ...) are not
 * listed: the lab's code never names them. Read from GCC 12's and Clang 14's predefined macros.
 */
/* One name per #ifdef, at column 1: */
/* clang-format off */
#ifdef __SSE2__
"sse2",
#endif
#ifdef __SSE3__
"sse3",
#endif
#ifdef __SSSE3__
"ssse3",
#endif
#ifdef __SSE4_1__
"sse4.1",
#endif
#ifdef __SSE4_2__
"sse4.2",
#endif
#ifdef __SSE4A__
"sse4a",
#endif
#ifdef __GCC_HAVE_SYNC_COMPARE_AND_SWAP_16
"cx16",
#endif
#ifdef __LAHF_SAHF__
"lahf_lm",
#endif
#ifdef __POPCNT__
"popcnt",
#endif
#ifdef __LZCNT__
"lzcnt",
#endif
#ifdef __MOVBE__
"movbe",
#endif
#ifdef __BMI__
"bmi",
#endif
#ifdef __BMI2__
"bmi2",
#endif
#ifdef __TBM__
"tbm",
#endif
#ifdef __ADX__
"adx",
#endif
#ifdef __PRFCHW__
"prfchw",
#endif
#ifdef __PREFETCHWT1__
"prefetchwt1",
#endif
#ifdef __AVX__
"avx",
#endif
#ifdef __F16C__
"f16c",
#endif
#ifdef __FMA__
"fma",
#endif
#ifdef __FMA4__
"fma4",
#endif
#ifdef __XOP__
"xop",
#endif
#ifdef __AVX2__
"avx2",
#endif
#ifdef __AVXVNNI__
"avxvnni",
#endif
#ifdef __VAES__
"vaes",
#endif
#ifdef __VPCLMULQDQ__
"vpclmulqdq",
#endif
#ifdef __GFNI__
"gfni",
#endif
#ifdef __AVX512F__
"avx512f",
#endif
#ifdef __AVX512CD__
"avx512cd",
#endif
#ifdef __AVX512BW__
"avx512bw",
#endif
#ifdef __AVX512DQ__
"avx512dq",
#endif
#ifdef __AVX512VL__
"avx512vl",
#endif
#ifdef __AVX512IFMA__
"avx512ifma",
#endif
#ifdef __AVX512VBMI__
"avx512vbmi",
#endif
#ifdef __AVX512VBMI2__
"avx512vbmi2",
#endif
#ifdef __AVX512VNNI__
"avx512vnni",
#endif
#ifdef __AVX512BITALG__
"avx512bitalg",
#endif
#ifdef __AVX512VPOPCNTDQ__
"avx512vpopcntdq",
#endif
#ifdef __AVX512BF16__
"avx512bf16",
#endif
#ifdef __AVX512FP16__
"avx512fp16",
#endif
#ifdef __AVX512VP2INTERSECT__
"avx512vp2intersect",
#endif
#ifdef __AVX512ER__
"avx512er",
#endif
#ifdef __AVX512PF__
"avx512pf",
#endif
#ifdef __AVX5124FMAPS__
"avx5124fmaps",
#endif
#ifdef __AVX5124VNNIW__
"avx5124vnniw",
#endif
    /* clang-format on */
