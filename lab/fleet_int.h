/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by lab/cmd_fleet.c and lab/fleet_*.c: running Slurm's commands, the per-node tasks. */
#ifndef LAB_LAB_FLEET_INT_H
#define LAB_LAB_FLEET_INT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/fleet.h"

/* What `lab fleet CONFIG ...` was given (NULL: not given). */
struct fleet_opts {
	const char *config, *out, *nodes, *nodelist, *partition, *constraint, *time;
	int dry_run;
};

/* The option values that go to sbatch, in order, with their sbatch names. */
#define FLEET_NOPT 5

/* s as one shell word: inside single quotes, each ' written as '\''. */
void lab_fleet_quote(FILE *f, const char *s);
/* The sbatch argument vector of the fleet job (analyze = 0) or of the analysis job that depends
 * on job (analyze = 1), NULL-terminated in av (16 entries); bufs holds the --opt=value texts. */
void lab_fleet_argv(const struct fleet_opts *o, const char *dir, int analyze, const char *job,
                    char bufs[8][4300], const char **av);
/* av as one line a shell would read back as the same words. */
void lab_fleet_print_argv(FILE *f, const char **av);
/* The fleet job's and the analysis job's batch scripts for the lab binary lab and fleet dir. */
void lab_fleet_script_run(FILE *f, const char *lab, const char *dir);
void lab_fleet_script_analyze(FILE *f, const char *lab, const char *dir);

/* Seconds a Slurm client command may take before it is killed (a dead slurmctld makes squeue
 * and scontrol retry for tens of seconds). */
#define LAB_FLEET_CMD_TIMEOUT_S 15

/*
 * Runs argv (argv[0] looked up in PATH, no shell) with stdin from /dev/null, its stdout captured
 * into out (NUL-terminated, cut at len-1) and its stderr into errbuf (when errbuf is not NULL,
 * else discarded). Kills it after timeout_s seconds. Returns its exit status (0..255), -1 when it
 * could not be started and -2 when it timed out or died by a signal.
 */
int lab_fleet_capture(const char *const argv[], int timeout_s, char *out, size_t len, char *errbuf,
                      size_t errlen);

/* lab fleet status DIR [--json]: asks the scheduler, updates DIR/fleet.json, prints the table. */
int lab_fleet_status(int argc, char **argv);

/* lab fleet task DIR: one node's task, started by srun inside the fleet job. */
int lab_fleet_task(int argc, char **argv);

/* Updates f's tasks and state from the scheduler and DIR/tasks/. Prints warnings on stderr. */
void lab_fleet_refresh(const char *dir, struct lab_an_fleet *f);

#endif
