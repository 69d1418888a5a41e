/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether this CPU has an instruction-set extension, asked by name (harness/isa_list.h's
 * names): cpuid, and for the AVX and AVX-512 families xgetbv (the OS must save their
 * registers). Unlike cpufeat.h's twelve features it knows every extension a compiler may use
 * without being asked (XOP, TBM, BMI2, AVX512-FP16, ...), cannot be masked, and its file is
 * compiled for baseline x86-64 (harness/CMakeLists.txt): lab/cpu_guard.c calls it before any
 * code built with the build's own -march may run.
 */
#ifndef LAB_HARNESS_CPUID_ISA_H
#define LAB_HARNESS_CPUID_ISA_H

#include <stddef.h>

/* 1 when this CPU has extension name and the OS lets a process use it; 0 when not, or when the
 * name is not one it knows (an extension it cannot check is one it cannot promise). */
int lab_cpuid_isa_has(const char *name);

/* The names of every extension it knows that this CPU has (as lab_cpuid_isa_has), in its
 * table's order, into out (at most max); returns how many there are. run.json records them:
 * what an auto build (-march=native) may use beyond cpufeat.h's twelve. */
size_t lab_cpuid_isa_present(const char **out, size_t max);

/* The names of the NULL-terminated list that this CPU lacks, space-separated into buf ("" when
 * none); returns how many. */
size_t lab_cpuid_isa_missing(const char *const *names, char *buf, size_t len);

#endif
