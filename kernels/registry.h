/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_KERNELS_REGISTRY_H
#define LAB_KERNELS_REGISTRY_H

#include "harness/kernel_api.h"

/*
 * Every kernel the lab knows, sorted by name, NULL-terminated (kernels/kernels.def lists them).
 * lab/cli_common.c hands it to the planner (lab_plan_build); lab/cmd_list.c lists and describes
 * its kernels.
 */
extern const struct lab_kernel *const lab_kernels[];

#endif
