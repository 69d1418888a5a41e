/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by lab/cmd_fleet.c and lab/fleet_*.c: running Slurm's commands, the per-node tasks. */
#ifndef LAB_LAB_FLEET_INT_H
#define LAB_LAB_FLEET_INT_H

#include <stddef.h>

#include "analyze/fleet.h"

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
