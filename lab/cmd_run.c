/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>

#include "lab/cli.h"

#define LAB__TODO(fn)                                                                              \
	int fn(int argc, char **argv)                                                              \
	{                                                                                          \
		(void)argc;                                                                        \
		(void)argv;                                                                        \
		fprintf(stderr, "lab: not built yet\n");                                           \
		return LAB_EXIT_FAILURE;                                                           \
	}
LAB__TODO(lab_cmd_run)
LAB__TODO(lab_cmd_plan)
LAB__TODO(lab_cmd_list)
LAB__TODO(lab_cmd_describe)
LAB__TODO(lab_cmd_version)
