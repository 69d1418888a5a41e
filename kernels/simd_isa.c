/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kernels/simd_isa.h"

#include "build_info.h"
#include "harness/cpuid_isa.h"

const struct lab_enum_val lab_simd_isa_choices[] = {
    {"scalar", LAB_ISA_SCALAR, "plain C, auto-vectorization off (one lane)"},
    {"auto", LAB_ISA_AUTO,
     "the same C at -O3 -march=" LAB_AUTO_MARCH " (cmake LAB_AUTO_MARCH; the compiler's choice)"},
    {"sse2", LAB_ISA_SSE2, "128-bit SSE2 intrinsics"},
    {"avx2", LAB_ISA_AVX2, "256-bit AVX2 + FMA intrinsics"},
    {"avx512", LAB_ISA_AVX512, "512-bit AVX-512 intrinsics"},
    {NULL, 0, NULL},
};

const char lab_simd_needs_sse2[] = "isa = sse2: a CPU with sse2 (not hidden by LAB_CPU_MASK)";
const char lab_simd_needs_avx2[] =
    "isa = avx2: a CPU with avx2 and fma (neither hidden by LAB_CPU_MASK)";
const char lab_simd_needs_avx512[] = "isa = avx512: a CPU with avx512f, avx512bw, avx512dq, "
                                     "avx512vl, avx2 and fma (none hidden by LAB_CPU_MASK)";
const char lab_simd_needs_auto[] =
    "isa = auto: a CPU with every extension the auto files' -march let the compiler use "
    "(`lab version` names it; none hidden by LAB_CPU_MASK)";

bool lab_simd_isa_fused(int isa)
{
	return isa == LAB_ISA_AVX2 || isa == LAB_ISA_AVX512;
}

unsigned lab_simd_isa_lanes(int isa, unsigned elem_bytes)
{
	switch (isa) {
	case LAB_ISA_SSE2:
		return 16 / elem_bytes;
	case LAB_ISA_AVX2:
		return 32 / elem_bytes;
	case LAB_ISA_AVX512:
		return 64 / elem_bytes;
	default:
		return 1;
	}
}

int lab_simd_isa_check(int isa, bool needs_fma, const struct lab_env *env, struct lab_err *err)
{
	static const unsigned need[LAB_ISA_N] = {
	    [LAB_ISA_SSE2] = LAB_CPU_SSE2,
	    [LAB_ISA_AVX2] = LAB_CPU_AVX2 | LAB_CPU_FMA,
	    [LAB_ISA_AVX512] = LAB_CPU_AVX512,
	};

	if (isa < 0 || isa >= LAB_ISA_N)
		return lab_err_set(err, LAB_ECONFIG, "isa %d: unknown", isa);
	/* auto is built for -march=LAB_AUTO_MARCH (native: the build machine): it runs where the
	 * CPU has what that target allowed the compiler to use. */
	if (isa == LAB_ISA_AUTO) {
		char lacks[256];
		int rc = lab_env_require_cpu(env, lab_simd_auto_needs, err);

		if (rc == LAB_SKIP && err)
			lab_err_prefix(err, "auto was built with -march=%s: ", LAB_AUTO_MARCH);
		if (rc || !lab_cpuid_isa_missing(lab_simd_auto_isa, lacks, sizeof(lacks)))
			return rc;
		lab_err_set(err, LAB_EUNSUP,
		            "auto was built with -march=%s, which lets the compiler use extensions "
		            "this CPU lacks (%s)",
		            LAB_AUTO_MARCH, lacks);
		return LAB_SKIP;
	}
	return lab_env_require_cpu(env, need[isa] | (needs_fma ? LAB_CPU_FMA : 0), err);
}
