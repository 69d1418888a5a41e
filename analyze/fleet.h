/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A fleet directory: one config run on many Slurm nodes. DIR/fleet.json names the config, the
 * job ids, the nodes and each task's state and exit code; DIR/<node>/ is that node's results
 * directory. Everything here is read from files (untrusted): node names must pass
 * lab_an_fleet_node_ok before they become a path component, and nothing from fleet.json reaches
 * a shell. Library code: returns errors, never prints.
 */
#ifndef LAB_ANALYZE_FLEET_H
#define LAB_ANALYZE_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/err.h"

#define LAB_FLEET_FILE      "fleet.json"
#define LAB_FLEET_SCHEMA    "lab.fleet/1"
#define LAB_FLEET_NAME_MAX  64
#define LAB_FLEET_TASKS_MAX 1024
/* The longest Slurm host list a fleet carries (with its NUL): every node of the largest fleet by
 * name, with room to spare. A longer one is refused, never cut. */
#define LAB_FLEET_NODELIST_MAX 65536

/* One node's task: its Slurm node name, state (PENDING, RUNNING, COMPLETED, FAILED, MISSING...)
 * and exit code (-1 while unknown). */
struct lab_an_fleet_task {
	char node[LAB_FLEET_NAME_MAX];
	char state[32];
	int exit_code;
};

struct lab_an_fleet {
	char config[4096];                 /* the config copied into DIR (run by every task) */
	char config_source[4096];          /* the path the user gave */
	char run_job[32], analyze_job[32]; /* Slurm job ids; "" before submission */
	char state[32];                    /* the run job's state */
	/* What was asked for: "" when not given. */
	char nodes[16], nodelist[LAB_FLEET_NODELIST_MAX], partition[128], constraint[256], time[64];
	char submitted_utc[32];
	struct lab_an_fleet_task task[LAB_FLEET_TASKS_MAX];
	size_t ntask;
};

/* The names the fleet itself gives files and directories in DIR: a node of one of these names
 * would have its results directory mixed with the fleet's own (DIR/plots, DIR/logs); and
 * run.json, whose presence tells a results directory from a fleet one (a node of that name made
 * DIR read as neither). */
#define LAB_FLEET_RESERVED                                                                         \
	"config.ini, fleet.sbatch, analyze.sbatch, fleet.json, fleet-analysis.json, "              \
	"analysis-files.txt, logs, tasks, plots, run.json"

/*
 * 1 when name may be a directory name under DIR: 1 .. LAB_FLEET_NAME_MAX-1 characters from
 * [A-Za-z0-9._+-], not starting with '.', and so never "." or "..", and none of
 * LAB_FLEET_RESERVED; else 0. Slurm node names are host-name-like, so this refuses nothing real
 * and keeps '/', quotes, spaces, control bytes and shell or gnuplot syntax out of paths, plots
 * and messages.
 */
int lab_an_fleet_node_ok(const char *name);

/* 1 when name is one of LAB_FLEET_RESERVED (exactly, case and all), else 0. */
int lab_an_fleet_node_reserved(const char *name);

/*
 * 1 when every character of s is one Slurm accepts in a partition, constraint, time or node list
 * ([A-Za-z0-9._+-:,[]&|*() and no leading '-'), so the value cannot be read as an sbatch option;
 * else 0. Empty strings are ok.
 */
int lab_an_fleet_arg_ok(const char *s);

/* 1 when s is a Slurm job state as squeue, scontrol and sacct print it: capitals and '_', then
 * an optional '+' and " by UID" (COMPLETED, OUT_OF_MEMORY, CANCELLED+, CANCELLED by 0), at most
 * 31 characters; else 0 ("failed" read as a healthy task, "<script>" too). */
int lab_an_fleet_state_ok(const char *s);

/* 1 when s is a Slurm job id: 1 .. 31 characters, digits, optionally "_" and the digits of an
 * array task ("123", "123_4"); else 0. So an id read from a file can never be an option of
 * squeue, scontrol or sacct. */
int lab_an_fleet_job_ok(const char *s);

/* The task of node, adding it (state "PENDING", exit -1) when absent. NULL when node is not a
 * valid name or the table is full. */
struct lab_an_fleet_task *lab_an_fleet_task_get(struct lab_an_fleet *f, const char *node);

/*
 * Reads dir/fleet.json into *f (zeroed first). A node name that fails lab_an_fleet_node_ok, a job
 * id that fails lab_an_fleet_job_ok (empty is allowed: not submitted), a "jobs" object that is
 * missing or whose run or analyze is missing or not a string, a string longer than its field
 * (never cut), or a wrong schema is -LAB_EDATA (with FILE:LINE where it has one), and so is a dir
 * that is no directory or has no fleet.json ("DIR: not a fleet directory (...)": bad input); an
 * unreadable file -LAB_EIO.
 */
int lab_an_fleet_read(const char *dir, struct lab_an_fleet *f, struct lab_err *err);

/* Writes *f as dir/fleet.json (a regular file, replaced atomically, never through a link).
 * Returns 0 or -LAB_EIO. */
int lab_an_fleet_write(const char *dir, const struct lab_an_fleet *f, struct lab_err *err);

/* Writes *f as the JSON document of fleet.json to out. */
void lab_an_fleet_json(const struct lab_an_fleet *f, FILE *out);

/* 1 when dir holds a fleet.json of any type (its reader refuses one that is no regular file)
 * and no run.json (a fleet, not a single run); else 0. */
int lab_an_fleet_is_dir(const char *dir);

#endif
