/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compiled for baseline x86-64 whatever the build's flags (harness/CMakeLists.txt). */
#include "harness/cpuid_isa.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* The register state an extension's instructions need the OS to save (XCR0). */
enum { ISA_GPR, ISA_YMM, ISA_ZMM };

/* Where cpuid announces an extension: leaf, subleaf, register (0 eax .. 3 edx), bit. */
static const struct {
	const char *name;
	unsigned leaf, sub, reg, bit, state;
} isa_bits[] = {
    {"sse2", 1, 0, 3, 26, ISA_GPR},
    {"sse3", 1, 0, 2, 0, ISA_GPR},
    {"ssse3", 1, 0, 2, 9, ISA_GPR},
    {"sse4.1", 1, 0, 2, 19, ISA_GPR},
    {"sse4.2", 1, 0, 2, 20, ISA_GPR},
    {"cx16", 1, 0, 2, 13, ISA_GPR},
    {"popcnt", 1, 0, 2, 23, ISA_GPR},
    {"movbe", 1, 0, 2, 22, ISA_GPR},
    {"avx", 1, 0, 2, 28, ISA_YMM},
    {"f16c", 1, 0, 2, 29, ISA_YMM},
    {"fma", 1, 0, 2, 12, ISA_YMM},
    {"lahf_lm", 0x80000001, 0, 2, 0, ISA_GPR},
    {"lzcnt", 0x80000001, 0, 2, 5, ISA_GPR},
    {"sse4a", 0x80000001, 0, 2, 6, ISA_GPR},
    {"prfchw", 0x80000001, 0, 2, 8, ISA_GPR},
    {"xop", 0x80000001, 0, 2, 11, ISA_YMM},
    {"fma4", 0x80000001, 0, 2, 16, ISA_YMM},
    {"tbm", 0x80000001, 0, 2, 21, ISA_GPR},
    {"bmi", 7, 0, 1, 3, ISA_GPR},
    {"avx2", 7, 0, 1, 5, ISA_YMM},
    {"bmi2", 7, 0, 1, 8, ISA_GPR},
    {"avx512f", 7, 0, 1, 16, ISA_ZMM},
    {"avx512dq", 7, 0, 1, 17, ISA_ZMM},
    {"adx", 7, 0, 1, 19, ISA_GPR},
    {"avx512ifma", 7, 0, 1, 21, ISA_ZMM},
    {"avx512pf", 7, 0, 1, 26, ISA_ZMM},
    {"avx512er", 7, 0, 1, 27, ISA_ZMM},
    {"avx512cd", 7, 0, 1, 28, ISA_ZMM},
    {"avx512bw", 7, 0, 1, 30, ISA_ZMM},
    {"avx512vl", 7, 0, 1, 31, ISA_ZMM},
    {"prefetchwt1", 7, 0, 2, 0, ISA_GPR},
    {"avx512vbmi", 7, 0, 2, 1, ISA_ZMM},
    {"avx512vbmi2", 7, 0, 2, 6, ISA_ZMM},
    {"gfni", 7, 0, 2, 8, ISA_GPR},
    {"vaes", 7, 0, 2, 9, ISA_YMM},
    {"vpclmulqdq", 7, 0, 2, 10, ISA_YMM},
    {"avx512vnni", 7, 0, 2, 11, ISA_ZMM},
    {"avx512bitalg", 7, 0, 2, 12, ISA_ZMM},
    {"avx512vpopcntdq", 7, 0, 2, 14, ISA_ZMM},
    {"avx5124vnniw", 7, 0, 3, 2, ISA_ZMM},
    {"avx5124fmaps", 7, 0, 3, 3, ISA_ZMM},
    {"avx512vp2intersect", 7, 0, 3, 8, ISA_ZMM},
    {"avx512fp16", 7, 0, 3, 23, ISA_ZMM},
    {"avxvnni", 7, 1, 0, 4, ISA_YMM},
    {"avx512bf16", 7, 1, 0, 5, ISA_ZMM},
};

/* Whether the OS saves the registers of state (XCR0: XMM and YMM; then opmask and ZMM). */
static int isa_state(unsigned state)
{
	unsigned a, b, c, d, lo, hi;
	uint64_t xcr0;

	if (state == ISA_GPR)
		return 1;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	xcr0 = ((uint64_t)hi << 32) | lo;
	return state == ISA_YMM ? (xcr0 & 0x6) == 0x6 : (xcr0 & 0xe6) == 0xe6;
}

int lab_cpuid_isa_has(const char *name)
{
	unsigned r[4];

	for (size_t i = 0; i < sizeof(isa_bits) / sizeof(isa_bits[0]); i++) {
		if (strcmp(isa_bits[i].name, name))
			continue;
		/* unsigned in gcc's cpuid.h, int in clang's */
		if ((unsigned)__get_cpuid_max(isa_bits[i].leaf & 0x80000000u, NULL) <
		    isa_bits[i].leaf)
			return 0;
		__cpuid_count(isa_bits[i].leaf, isa_bits[i].sub, r[0], r[1], r[2], r[3]);
		return (r[isa_bits[i].reg] >> isa_bits[i].bit & 1) && isa_state(isa_bits[i].state);
	}
	return 0;
}

size_t lab_cpuid_isa_present(const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(isa_bits) / sizeof(isa_bits[0]); i++)
		if (lab_cpuid_isa_has(isa_bits[i].name)) {
			if (n < max)
				out[n] = isa_bits[i].name;
			n++;
		}
	return n;
}
#else
int lab_cpuid_isa_has(const char *name)
{
	(void)name;
	return 0;
}

size_t lab_cpuid_isa_present(const char **out, size_t max)
{
	(void)out;
	(void)max;
	return 0;
}
#endif

size_t lab_cpuid_isa_missing(const char *const *names, char *buf, size_t len)
{
	size_t n = 0, at = 0;

	if (len)
		buf[0] = '\0';
	for (; *names; names++) {
		if (lab_cpuid_isa_has(*names))
			continue;
		n++;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", *names);
	}
	return n;
}
