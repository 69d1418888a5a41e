/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>

#include "lab/cli.h"

int lab_cmd_analyze(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "lab analyze: not built yet\n");
	return LAB_EXIT_FAILURE;
}

int lab_cmd_report(int argc, char **argv)
{
	return lab_cmd_analyze(argc, argv);
}

int lab_cmd_compare(int argc, char **argv)
{
	return lab_cmd_analyze(argc, argv);
}
