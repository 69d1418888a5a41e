/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The list of kernels known to `lab`: one line per kernel, sorted by name. */
#include "kernels/registry.h"

const struct lab_kernel *const lab_kernels[] = {
	NULL,
};
