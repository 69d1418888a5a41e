/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_KERNELS_REGISTRY_H
#define LAB_KERNELS_REGISTRY_H

#include "harness/kernel_api.h"

/* Every kernel the lab knows, sorted by name, NULL-terminated. lab/main.c hands it to the runner.
 */
extern const struct lab_kernel *const lab_kernels[];

#endif
