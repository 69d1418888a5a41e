/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kernels/simd_isa.h"

#include <stdlib.h>
#include <string.h>

const struct lab_enum_val lab_simd_isa_choices[] = {
    {"scalar", LAB_ISA_SCALAR, "plain C, auto-vectorization off (one lane)"},
    {"auto", LAB_ISA_AUTO, "the same C at -O3 for the build machine (the compiler's choice)"},
    {"sse2", LAB_ISA_SSE2, "128-bit SSE2 intrinsics"},
    {"avx2", LAB_ISA_AVX2, "256-bit AVX2 + FMA intrinsics"},
    {"avx512", LAB_ISA_AVX512, "512-bit AVX-512 intrinsics"},
    {NULL, 0, NULL},
};

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

/* True when LAB_CPU_MASK (comma-separated feature names) lists word: tests take skip paths. */
static bool isa_masked_word(const char *word)
{
	const char *m = getenv("LAB_CPU_MASK");
	size_t n = strlen(word);

	for (const char *p = m; p && *p; p += strcspn(p, ",")) {
		p += strspn(p, ", ");
		if (!strncmp(p, word, n) && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return true;
	}
	return false;
}

/* A feature hides what is built on it, so a mask looks like a real older CPU. */
static bool isa_masked(const char *what)
{
	if (!strcmp(what, "sse2"))
		return isa_masked_word("sse2");
	if (!strcmp(what, "fma"))
		return isa_masked_word("fma") || isa_masked_word("avx");
	if (!strcmp(what, "avx2"))
		return isa_masked_word("avx2") || isa_masked_word("avx");
	return isa_masked_word("avx512f") || isa_masked_word("avx2") || isa_masked_word("avx");
}

#if defined(__x86_64__) || defined(__i386__)
static bool isa_has(const char *what)
{
	/* __builtin_cpu_supports takes a string literal only, hence the list. */
	__builtin_cpu_init();
	if (isa_masked(what))
		return false;
	if (what[0] == 's')
		return __builtin_cpu_supports("sse2");
	if (what[0] == 'f')
		return __builtin_cpu_supports("fma");
	if (what[3] == '2')
		return __builtin_cpu_supports("avx2");
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
#define ISA_X86 1
#else
static bool isa_has(const char *what)
{
	(void)isa_masked(what);
	return false;
}
#define ISA_X86 0
#endif

int lab_simd_isa_check(int isa, bool needs_fma, const struct lab_env *env, struct lab_err *err)
{
	static const char *const need[LAB_ISA_N] = {NULL, NULL, "sse2", "avx2", "avx512"};

	if (env && !env->thissystem)
		return 0; /* planning for another machine: nothing runs here */
	if (isa < 0 || isa >= LAB_ISA_N)
		return lab_err_set(err, LAB_ECONFIG, "isa %d: unknown", isa);
	if (need[isa] && !ISA_X86) {
		lab_err_set(err, LAB_EUNSUP, "isa = %s: x86 intrinsics, this is not an x86 build",
		            need[isa]);
		return LAB_SKIP;
	}
	if (need[isa] && !isa_has(need[isa])) {
		lab_err_set(err, LAB_EUNSUP, "isa = %s: this CPU lacks %s", need[isa],
		            isa == LAB_ISA_AVX512 ? "avx512f/bw/dq/vl" : need[isa]);
		return LAB_SKIP;
	}
	if ((needs_fma || isa == LAB_ISA_AVX2 || isa == LAB_ISA_AVX512) && ISA_X86 &&
	    isa != LAB_ISA_AUTO && !isa_has("fma")) {
		lab_err_set(err, LAB_EUNSUP, "isa = %s with FMA: this CPU lacks fma",
		            lab_simd_isa_choices[isa].name);
		return LAB_SKIP;
	}
	return 0;
}
