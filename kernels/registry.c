/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry, made from kernels/kernels.def: one line there per kernel, sorted by name. */
#include "kernels/registry.h"

#define LAB_KERNEL(name) extern const struct lab_kernel lab_kernel_##name;
#include "kernels/kernels.def"
#undef LAB_KERNEL

const struct lab_kernel *const lab_kernels[] = {
#define LAB_KERNEL(name) &lab_kernel_##name,
#include "kernels/kernels.def"
#undef LAB_KERNEL
    NULL,
};
