/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet's batch scripts and sbatch command lines. Paths enter a script only as single-quoted
 * shell words; option values enter sbatch only as --opt=value arguments of an argument vector.
 */
#include <stdio.h>
#include <stdlib.h>
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

/* A fresh "--name=value" (or "prefix" "value" "suffix") string, or NULL when out of memory. */
static char *fleet_arg(const char *a, const char *b, const char *c)
{
	char *s = NULL;

	return asprintf(&s, "%s%s%s", a, b, c) < 0 ? NULL : s;
}

int lab_fleet_argv(struct lab_fleet_argv *a, const struct fleet_opts *o, const char *dir,
                   int analyze, const char *job)
{
	const char *names[FLEET_NOPT] = {
	    "--nodes=", "--nodelist=", "--partition=", "--constraint=", "--time="};
	const char *vals[FLEET_NOPT] = {o->nodes      ? o->nodes
	                                : o->nodelist ? NULL
	                                              : "1",
	                                o->nodelist, o->partition, o->constraint, o->time};
	int n = 0, b = 0;

	memset(a, 0, sizeof(*a));
	a->av[n++] = "sbatch";
	a->av[n++] = "--parsable";
	a->av[n++] = analyze ? "--job-name=lab-fleet-analyze" : "--job-name=lab-fleet";
	if (!analyze)
		a->av[n++] = "--exclusive";
	for (int k = 0; k < FLEET_NOPT; k++) {
		if (!vals[k] || (analyze && k != 2))
			continue;
		if (!(a->buf[b] = fleet_arg(names[k], vals[k], "")))
			goto oom;
		a->av[n++] = a->buf[b++];
	}
	if (analyze) {
		a->av[n++] = "--nodes=1";
		if (!(a->buf[b] = fleet_arg("--dependency=afterany:", job, "")))
			goto oom;
		a->av[n++] = a->buf[b++];
		a->av[n++] = "--kill-on-invalid-dep=yes";
	}
	if (!(a->buf[b] = fleet_arg("--output=", dir,
	                            analyze ? "/logs/analyze-%j.out" : "/logs/fleet-%j.out")))
		goto oom;
	a->av[n++] = a->buf[b++];
	if (!(a->buf[b] = fleet_arg(dir, "/", analyze ? "analyze.sbatch" : "fleet.sbatch")))
		goto oom;
	a->av[n++] = a->buf[b++];
	a->av[n] = NULL;
	return 0;
oom:
	lab_fleet_argv_free(a);
	return -1;
}

void lab_fleet_argv_free(struct lab_fleet_argv *a)
{
	for (int i = 0; i < 8; i++)
		free(a->buf[i]);
	memset(a, 0, sizeof(*a));
}

/* Bytes of s from p that print as they are: not a control byte, not a backslash, and not the
 * UTF-8 form of a C1 control (0xc2 0x80..0x9f), which terminals read as ESC [ and the like. */
static size_t fleet_plain(const unsigned char *p)
{
	size_t n = 0;

	while (p[n] >= 0x20 && p[n] != 0x7f && p[n] != '\\' &&
	       !(p[n] == 0xc2 && p[n + 1] >= 0x80 && p[n + 1] <= 0x9f))
		n++;
	return n;
}

void lab_fleet_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (;;) {
		size_t n = fleet_plain(p);
		fwrite(p, 1, n, f);
		p += n;
		if (!*p)
			return;
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == 0xc2)
			fprintf(f, "\\xc2\\x%02x", *++p);
		else
			fprintf(f, "\\x%02x", *p);
		p++;
	}
}

static char fleet_oom[] = "(out of memory)";

char *lab_fleet_esc(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return fleet_oom;
	lab_fleet_put(f, s);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return fleet_oom;
	}
	return buf;
}

void lab_fleet_esc_free(char *e)
{
	if (e != fleet_oom)
		free(e);
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
