/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A kernel's declared work per unit (work_per_unit) for "key=value" settings over its defaults. */
#ifndef LAB_TESTS_KERNELS_KWORK_H
#define LAB_TESTS_KERNELS_KWORK_H

#include "harness/kernel_api.h"

/* kv: NULL-terminated "key=value" strings. Returns 0, or -1 with the cause printed. */
int kwork_declared(const char *kernel, const char *const *kv, struct lab_work *w);

#endif
