/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The CLI's subcommands. Each takes the arguments after its name (argv[0] is the subcommand)
 * and returns the process exit code: 0 done (skips included), 1 a runtime failure, 2 bad usage
 * or bad config. Only lab/ prints to the user and decides exit codes.
 */
#ifndef LAB_LAB_CLI_H
#define LAB_LAB_CLI_H

#define LAB_EXIT_OK	 0
#define LAB_EXIT_FAILURE 1
#define LAB_EXIT_USAGE	 2

int lab_cmd_run(int argc, char **argv);
int lab_cmd_plan(int argc, char **argv);
int lab_cmd_topo(int argc, char **argv);
int lab_cmd_list(int argc, char **argv);
int lab_cmd_describe(int argc, char **argv);
int lab_cmd_version(int argc, char **argv);
/* lab/cmd_analyze.c: analyze, report, compare. */
int lab_cmd_analyze(int argc, char **argv);
int lab_cmd_report(int argc, char **argv);
int lab_cmd_compare(int argc, char **argv);

#endif
