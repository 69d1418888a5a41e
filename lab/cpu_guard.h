/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CPU_GUARD_H
#define LAB_CPU_GUARD_H

/*
 * The check that this CPU has every extension the build's flags let the compiler use; it runs
 * by itself as the first constructor of lab and of every test program (cpu_guard.c). Named here
 * so that a test program linked without it fails to link (tests/testlib.c refers to it).
 */
void lab_cpu_guard(void);

#endif
