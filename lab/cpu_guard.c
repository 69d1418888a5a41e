/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Before any code built for the build's flags runs: does this CPU have every extension those
 * flags let the compiler use (build_isa.c)? A lab built with -march=bdver4 (XOP, TBM) died of
 * SIGILL on a Zen 5 in its first function, with no word said. This file is compiled for
 * baseline x86-64 (lab/CMakeLists.txt), and its check runs as the first constructor.
 */
#include <stdio.h>
#include <unistd.h>

#include "build_info.h"
#include "cpu_guard.h"
#include "harness/cpuid_isa.h"

extern const char *const lab_build_isa[];

__attribute__((constructor(101))) void lab_cpu_guard(void)
{
	char missing[512];

	if (!lab_cpuid_isa_missing(lab_build_isa, missing, sizeof(missing)))
		return;
	fprintf(stderr,
	        "lab: this lab was built with C flags '%s', which let the compiler use extensions "
	        "this CPU lacks (%s): build the lab for this machine (the default flags do)\n",
	        LAB_C_FLAGS, missing);
	_exit(1);
}
