/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet's batch scripts and sbatch command lines. Paths enter a script only as single-quoted
 * shell words; option values enter sbatch only as --opt=value arguments of an argument vector.
 */
#include <stdio.h>
#include <string.h>

#include "lab/fleet_int.h"

/* s as one shell word: inside single quotes, each ' written as '\''. */
void lab_fleet_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* The sbatch argument vectors; av must hold 16 entries. bufs holds the --opt=value strings. */
void lab_fleet_argv(const struct fleet_opts *o, const char *dir, int analyze, const char *job,
                    char bufs[8][4300], const char **av)
{
	const char *names[FLEET_NOPT] = {"nodes", "nodelist", "partition", "constraint", "time"};
	const char *vals[FLEET_NOPT] = {o->nodes      ? o->nodes
	                                : o->nodelist ? NULL
	                                              : "1",
	                                o->nodelist, o->partition, o->constraint, o->time};
	int n = 0, b = 0;

	av[n++] = "sbatch";
	av[n++] = "--parsable";
	av[n++] = analyze ? "--job-name=lab-fleet-analyze" : "--job-name=lab-fleet";
	if (!analyze)
		av[n++] = "--exclusive";
	for (int k = 0; k < FLEET_NOPT; k++) {
		if (!vals[k] || (analyze && k != 2))
			continue;
		snprintf(bufs[b], sizeof(bufs[b]), "--%s=%s", names[k], vals[k]);
		av[n++] = bufs[b++];
	}
	if (analyze) {
		av[n++] = "--nodes=1";
		snprintf(bufs[b], sizeof(bufs[b]), "--dependency=afterany:%s", job);
		av[n++] = bufs[b++];
		av[n++] = "--kill-on-invalid-dep=yes";
	}
	snprintf(bufs[b], sizeof(bufs[b]), "--output=%s/logs/%s-%%j.out", dir,
	         analyze ? "analyze" : "fleet");
	av[n++] = bufs[b++];
	snprintf(bufs[b], sizeof(bufs[b]), "%s/%s", dir,
	         analyze ? "analyze.sbatch" : "fleet.sbatch");
	av[n++] = bufs[b++];
	av[n] = NULL;
}

void lab_fleet_print_argv(FILE *f, const char **av)
{
	for (int i = 0; av[i]; i++) {
		if (i)
			fputc(' ', f);
		if (strspn(av[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		                  "-_=.,:/%[]") == strlen(av[i]))
			fputs(av[i], f);
		else
			lab_fleet_quote(f, av[i]);
	}
	fputc('\n', f);
}

void lab_fleet_script_run(FILE *f, const char *lab, const char *dir)
{
	fputs("#!/bin/sh\n"
	      "# Written by `lab fleet`: the fleet job. One task per node on whole nodes; each\n"
	      "# task runs `lab run DIR/config.ini -o DIR/<Slurm node name>` (lab fleet task)\n"
	      "# and records its state and exit code in DIR/tasks/<node>.json.\n"
	      "# --cpu-bind=none: the lab pins its own threads to the CPUs of the whole node.\n"
	      "set -eu\n"
	      "exec srun --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks-per-node=1 "
	      "--ntasks=\"$SLURM_JOB_NUM_NODES\" \\\n"
	      "\t--whole --cpu-bind=none --kill-on-bad-exit=0 \\\n\t",
	      f);
	lab_fleet_quote(f, lab);
	fputs(" fleet task ", f);
	lab_fleet_quote(f, dir);
	fputc('\n', f);
}

void lab_fleet_script_analyze(FILE *f, const char *lab, const char *dir)
{
	fputs("#!/bin/sh\n"
	      "# Written by `lab fleet`: runs after every task of the fleet job has ended "
	      "(afterany),\n"
	      "# so a failed node still leaves the others analyzed.\n",
	      f);
	lab_fleet_quote(f, lab);
	fputs(" fleet status ", f);
	lab_fleet_quote(f, dir);
	fputs(" || true\nexec ", f);
	lab_fleet_quote(f, lab);
	fputs(" analyze ", f);
	lab_fleet_quote(f, dir);
	fputc('\n', f);
}
