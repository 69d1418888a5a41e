/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Compiled with the build's own flags and holding no code: the instruction-set extensions those
 * flags let the compiler use in every file of the lab, for the check of cpu_guard.c.
 */
#include <stddef.h>

extern const char *const lab_build_isa[];
const char *const lab_build_isa[] = {
#include "harness/isa_list.h"
    NULL};
