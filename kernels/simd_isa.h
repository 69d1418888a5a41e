/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The instruction-set variants shared by the stream, peak and simd kernels, and the one place
 * they ask whether this CPU can run one. Each variant's loops live in their own source file,
 * compiled with that ISA's flags (kernels/CMakeLists.txt), and are reached through a table of
 * function pointers chosen before the timed loop starts.
 */
#ifndef LAB_KERNELS_SIMD_ISA_H
#define LAB_KERNELS_SIMD_ISA_H

#include <stdbool.h>

#include "harness/kernel_api.h"

enum lab_simd_isa {
	LAB_ISA_SCALAR, /* plain C, auto-vectorization off: really one lane */
	LAB_ISA_AUTO,   /* the same plain C at -O3 -march=LAB_AUTO_MARCH: the compiler's choice */
	LAB_ISA_SSE2,   /* 128-bit intrinsics */
	LAB_ISA_AVX2,   /* 256-bit intrinsics with FMA */
	LAB_ISA_AVX512, /* 512-bit intrinsics (AVX-512 F, BW, DQ, VL) */
	LAB_ISA_N,
};

/* What the auto files were built to use (LAB_CPU_* bits of their -march; simd_auto_needs.c). */
extern const unsigned lab_simd_auto_needs;
/* The same by name, with the extensions cpufeat.h has no bit for (XOP, TBM, BMI2, ...): a
 * NULL-terminated list (harness/isa_list.h). */
extern const char *const lab_simd_auto_isa[];

/* The `isa = ...` choices, in enum order. */
extern const struct lab_enum_val lab_simd_isa_choices[];

/* What each isa choice needs (the skips of lab_simd_isa_check), as lines of the needs of the
 * stream, peak and simd descriptors ("isa = avx2: a CPU with avx2 and fma ..."). */
extern const char lab_simd_needs_sse2[];
extern const char lab_simd_needs_avx2[];
extern const char lab_simd_needs_avx512[];
extern const char lab_simd_needs_auto[];

/* Whether the stream and simd files of isa compute a*b+c as one FMA: the avx2 and avx512
 * intrinsics do; the scalar, auto and sse2 files make it a multiply and an add
 * (-ffp-contract=off). The point fact "fma_fused" says it to the roofline. */
bool lab_simd_isa_fused(int isa);

/* Vector lanes of width elem_bytes in one register of isa (1 for scalar and auto). */
unsigned lab_simd_isa_lanes(int isa, unsigned elem_bytes);

/*
 * For check(): 0 when this CPU runs isa (and FMA where needs_fma), else LAB_SKIP with the
 * reason in err: the features each ISA file was built for (cmake lab_kernel_file), asked of
 * the harness's feature set (env->cpu_features, less what LAB_CPU_MASK hides).
 */
int lab_simd_isa_check(int isa, bool needs_fma, const struct lab_env *env, struct lab_err *err);

#endif
