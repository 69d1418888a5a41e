/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * CPU features (instruction-set extensions) that kernel variants may need: detected with cpuid,
 * confirmed usable with xgetbv (the OS must save the wider registers, or AVX faults), then
 * reduced by a mask so tests can take the "this CPU lacks it" path on any CPU. A kernel file
 * compiled for an ISA (cmake: lab_kernel_file) runs only after check() saw the feature here.
 */
#ifndef LAB_HARNESS_CPUFEAT_H
#define LAB_HARNESS_CPUFEAT_H

#include <stddef.h>

#include "harness/err.h"

/* One bit per feature, in the order they are printed. */
enum lab_cpu_feature {
	LAB_CPU_SSE2 = 1u << 0,
	LAB_CPU_SSE42 = 1u << 1,
	LAB_CPU_AVX = 1u << 2,
	LAB_CPU_AVX2 = 1u << 3,
	LAB_CPU_FMA = 1u << 4,
	LAB_CPU_AVX512F = 1u << 5,
	LAB_CPU_AVX512BW = 1u << 6,
	LAB_CPU_AVX512DQ = 1u << 7,
	LAB_CPU_AVX512VL = 1u << 8,
	LAB_CPU_AVX512VNNI = 1u << 9,
	LAB_CPU_POPCNT = 1u << 10, /* compilers emit it for -march=x86-64-v2 and later */
	/* byte permutes (vpermt2b): clang 14 at -march=native on Zen 4/5 emits them in auto */
	LAB_CPU_AVX512VBMI = 1u << 11,
	LAB_CPU_ALL = (1u << 12) - 1,
};

/* What `-mavx512f -mavx512bw -mavx512dq -mavx512vl` code needs (cmake ISA avx512). */
#define LAB_CPU_AVX512                                                                             \
	(LAB_CPU_AVX512F | LAB_CPU_AVX512BW | LAB_CPU_AVX512DQ | LAB_CPU_AVX512VL | LAB_CPU_AVX2 | \
	 LAB_CPU_FMA)

/* The environment variable that hides features: "avx512f,avx2" (names as lab_cpu_name). */
#define LAB_CPU_MASK_ENV "LAB_CPU_MASK"

/* The features this CPU has and the OS lets a process use (cpuid + xgetbv). Never fails. */
unsigned lab_cpu_detect(void);

/*
 * Parses a comma-separated list of feature names ("avx512f,avx2"; spaces allowed; "all"; empty
 * is none) into *mask, adding the features built on each (avx2 also hides avx512f and the other
 * AVX-512 bits; avx hides avx2 and fma too), so a mask looks like a real older CPU. Returns 0, or
 * -LAB_ECONFIG naming the unknown word and the names allowed.
 */
int lab_cpu_parse(const char *list, unsigned *mask, struct lab_err *err);

/* The bit of one feature name alone ("avx2": LAB_CPU_AVX2, nothing built on it); 0 for a name
 * the lab does not know ("bmi2"). */
unsigned lab_cpu_bit(const char *name);

/*
 * The hypervisor this process runs under, when cpuid says there is one (leaf 1 ECX bit 31):
 * its name from the signature of leaf 0x40000000 ("KVM", "QEMU TCG" for an emulated CPU,
 * "Hyper-V", "VMware", "Xen", ...; "unknown" otherwise) into buf; "" on bare metal.
 */
void lab_cpu_hypervisor(char *buf, size_t len);

/* The name the signature sig (leaf 0x40000000's EBX, ECX, EDX as 12 bytes) stands for, or NULL. */
const char *lab_cpu_hypervisor_name(const char sig[12]);

/* The name of one feature bit ("sse4.2", "avx512f"), or NULL for anything else. */
const char *lab_cpu_name(unsigned bit);

/* Writes the names of the features in set, space-separated ("none" when empty), into buf. */
void lab_cpu_format(unsigned set, char *buf, size_t len);

/*
 * Reads LAB_CPU_MASK into *masked (0 when unset). Returns 0, or -LAB_ECONFIG with the variable
 * named in the message when its value does not parse (*masked is then 0).
 */
int lab_cpu_mask_from_env(unsigned *masked, struct lab_err *err);

/*
 * For check(): 0 when every feature in need is in have, else LAB_SKIP with the reason in err,
 * "needs avx512f avx512bw; this CPU has sse2 sse4.2 avx avx2 fma" plus which of the needed ones
 * are only hidden by the mask (masked may be 0).
 */
int lab_cpu_require(unsigned need, unsigned have, unsigned masked, struct lab_err *err);

#endif
