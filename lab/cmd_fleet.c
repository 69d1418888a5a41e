/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet: one config on many Slurm nodes. Writes two batch scripts into DIR and submits them
 * with sbatch from an argument vector (no shell ever sees user text): the fleet job (whole nodes,
 * one task per node through srun, each running `lab run CONFIG -o DIR/<node>` via `lab fleet
 * task`) and an afterany job that updates fleet.json and analyzes the fleet. The scripts quote
 * every path; the values of --partition and the like go to sbatch as --opt=value arguments only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/cli.h"
#include "lab/fleet_int.h"

static const char fleet_help[] =
    "usage: lab fleet CONFIG [--nodes N | --nodelist LIST] [--partition P] [--constraint C]\n"
    "                 [--time T] [-o DIR] [--dry-run]\n"
    "       lab fleet status DIR [--json]\n\n"
    "Runs CONFIG on whole Slurm nodes, one task per node, and analyzes the fleet when every\n"
    "task has ended. Writes DIR (default results/fleet-<UTC stamp>-<config>/): config.ini (the\n"
    "config every node runs), fleet.sbatch and analyze.sbatch (the batch scripts), fleet.json\n"
    "(job ids, nodes, each task's state and exit code), logs/, and DIR/<node>/ per node.\n\n"
    "  --nodes N          this many nodes (default 1)\n"
    "  --nodelist LIST    exactly these nodes (a Slurm host list such as n[1-4])\n"
    "  --partition P      sbatch --partition\n"
    "  --constraint C     sbatch --constraint (node features)\n"
    "  --time T           sbatch --time for the fleet job\n"
    "  -o, --output DIR   the fleet directory (new or empty)\n"
    "  --dry-run          print the scripts and the sbatch commands; submit and write nothing\n\n"
    "Then: lab fleet status DIR; lab analyze DIR; lab compare DIR/NODE_A DIR/NODE_B\n";

static int fleet_parse(int argc, char **argv, struct fleet_opts *o)
{
	static const char *names[FLEET_NOPT] = {"--nodes", "--nodelist", "--partition",
	                                        "--constraint", "--time"};
	const char **vals[FLEET_NOPT] = {&o->nodes, &o->nodelist, &o->partition, &o->constraint,
	                                 &o->time};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k = 0;
		while (k < FLEET_NOPT && strcmp(a, names[k]))
			k++;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(fleet_help, stdout);
			return 1;
		} else if (!strcmp(a, "--dry-run")) {
			o->dry_run = 1;
		} else if ((k < FLEET_NOPT || !strcmp(a, "-o") || !strcmp(a, "--output")) &&
		           i + 1 < argc) {
			const char *v = argv[++i];
			if (k == FLEET_NOPT) {
				o->out = v;
				continue;
			}
			if (!v[0] || !lab_an_fleet_arg_ok(v)) {
				fprintf(stderr,
				        "lab fleet: %s '%s': not a Slurm value (allowed letters, "
				        "digits and ._+-:,[]&|*(), not starting with '-')\n",
				        a, v);
				return -1;
			}
			*vals[k] = v;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr,
			        "lab fleet: unknown option '%s' or missing value (see "
			        "--help)\n",
			        a);
			return -1;
		} else if (!o->config) {
			o->config = a;
		} else {
			fprintf(stderr, "lab fleet: one config only ('%s')\n", a);
			return -1;
		}
	}
	return 0;
}

/* Checks what the scripts will contain; one line on stderr for the first problem. */
static int fleet_check(const struct fleet_opts *o)
{
	if (!o->config) {
		fprintf(stderr, "lab fleet: give a CONFIG (see --help)\n");
		return -1;
	}
	if (o->nodes && o->nodelist) {
		fprintf(stderr, "lab fleet: --nodes and --nodelist: give one of them\n");
		return -1;
	}
	if (o->nodes && strspn(o->nodes, "0123456789") != strlen(o->nodes)) {
		fprintf(stderr, "lab fleet: --nodes '%s': not a count (allowed 1 .. %d)\n",
		        o->nodes, LAB_FLEET_TASKS_MAX);
		return -1;
	}
	if (o->nodes && (atoi(o->nodes) < 1 || atoi(o->nodes) > LAB_FLEET_TASKS_MAX)) {
		fprintf(stderr, "lab fleet: --nodes %s: out of range (allowed 1 .. %d)\n", o->nodes,
		        LAB_FLEET_TASKS_MAX);
		return -1;
	}
	const char *paths[2] = {o->config, o->out};
	if (strlen(o->config) > 2000 || (o->out && strlen(o->out) > 2000)) {
		fprintf(stderr, "lab fleet: a path longer than 2000 characters\n");
		return -1;
	}
	for (int i = 0; i < 2; i++)
		for (const char *p = paths[i]; p && *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				fprintf(stderr,
				        "lab fleet: %s: a control character in a path "
				        "(not allowed in a batch script)\n",
				        i ? "-o" : "CONFIG");
				return -1;
			}
	if (o->out && strchr(o->out, '%')) {
		fprintf(stderr,
		        "lab fleet: -o %s: '%%' not allowed (sbatch reads it in --output as "
		        "a pattern)\n",
		        o->out);
		return -1;
	}
	if (access(o->config, R_OK) != 0) {
		fprintf(stderr, "lab fleet: %s: cannot read: %s\n", o->config, strerror(errno));
		return -1;
	}
	return 0;
}

/* An absolute spelling of path (the jobs may start elsewhere); path need not exist. */
static void fleet_abs(const char *path, char *buf, size_t len)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%.2000s/%.2000s", cwd, path);
}

/* The default DIR: results/fleet-<UTC stamp>-<config stem>. */
static void fleet_default_dir(const char *config, char *buf, size_t len)
{
	const char *base = strrchr(config, '/') ? strrchr(config, '/') + 1 : config;
	size_t n = strlen(base);
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "results/fleet-%s-%.*s", stamp, (int)(n > 64 ? 64 : n), base);
}

/* Creates DIR (new or empty) and DIR/logs; 1 when DIR was created here. */
static int fleet_mkdir(const char *dir)
{
	char cmd[4200];
	int created = mkdir(dir, 0755) == 0;

	if (!created && errno != EEXIST) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", dir, strerror(errno));
		return -1;
	}
	if (!created && rmdir(dir) == 0)
		created = mkdir(dir, 0755) == 0; /* it was empty: ours now */
	if (!created) {
		fprintf(stderr, "lab fleet: -o %s: not a new or empty directory\n", dir);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s/logs", dir);
	if (mkdir(cmd, 0755) != 0) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", cmd, strerror(errno));
		rmdir(dir);
		return -1;
	}
	return 1;
}

/* Removes what fleet_files wrote, so a failed submission leaves nothing behind. */
static void fleet_unwind(const char *dir)
{
	static const char *names[] = {"config.ini", "fleet.sbatch", "analyze.sbatch", "fleet.json"};
	char path[4200];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/logs", dir);
	rmdir(path);
	rmdir(dir);
}

/* Writes dir/name through fn, or copies src when fn is NULL. */
static int fleet_write(const char *dir, const char *name, const char *lab, const char *src,
                       void (*fn)(FILE *, const char *, const char *))
{
	char path[4200], buf[8192];
	size_t n;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wx");
	if (!f) {
		fprintf(stderr, "lab fleet: %s: cannot create: %s\n", path, strerror(errno));
		return -1;
	}
	if (fn) {
		fn(f, lab, dir);
	} else {
		FILE *in = fopen(src, "r");
		ok = in != NULL;
		while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, f);
		if (in && ferror(in))
			ok = 0;
		if (in)
			fclose(in);
		if (!ok) {
			fclose(f);
			fprintf(stderr, "lab fleet: %s: cannot read\n", src);
			return -1;
		}
	}
	ok = !ferror(f);
	if (fclose(f) != 0 || !ok || (fn && chmod(path, 0755) != 0)) {
		fprintf(stderr, "lab fleet: %s: cannot write: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Runs sbatch; the job id (digits before any ";cluster") into job. 0 or -1 with a message. */
static int fleet_sbatch(const char **av, char *job, size_t len)
{
	char out[256], err[2048];
	int rc = lab_fleet_capture(av, 60, out, sizeof(out), err, sizeof(err));
	size_t n = strspn(out, "0123456789");

	if (rc == 0 && n > 0 && n < len) {
		snprintf(job, len, "%.*s", (int)n, out);
		return 0;
	}
	err[strcspn(err, "\n")] = '\0';
	if (rc == -1)
		fprintf(stderr, "lab fleet: sbatch: cannot run it (is Slurm's client installed and "
		                "on PATH?); nothing was submitted\n");
	else
		fprintf(stderr, "lab fleet: sbatch %s: %s\n", rc == -2 ? "timed out" : "failed",
		        err[0] ? err : "no job id in its output");
	return -1;
}

static void fleet_scancel(const char *job)
{
	char out[256];
	const char *av[] = {"scancel", job, NULL};

	lab_fleet_capture(av, LAB_FLEET_CMD_TIMEOUT_S, out, sizeof(out), NULL, 0);
}

static void fleet_record(struct lab_an_fleet *f, const struct fleet_opts *o, const char *dir)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(f, 0, sizeof(*f));
	snprintf(f->config, sizeof(f->config), "%.4000s/config.ini", dir);
	snprintf(f->config_source, sizeof(f->config_source), "%s", o->config);
	snprintf(f->nodes, sizeof(f->nodes), "%s", o->nodes ? o->nodes : o->nodelist ? "" : "1");
	snprintf(f->nodelist, sizeof(f->nodelist), "%s", o->nodelist ? o->nodelist : "");
	snprintf(f->partition, sizeof(f->partition), "%s", o->partition ? o->partition : "");
	snprintf(f->constraint, sizeof(f->constraint), "%s", o->constraint ? o->constraint : "");
	snprintf(f->time, sizeof(f->time), "%s", o->time ? o->time : "");
	snprintf(f->state, sizeof(f->state), "PENDING");
	gmtime_r(&now, &tm);
	strftime(f->submitted_utc, sizeof(f->submitted_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int fleet_submit(const struct fleet_opts *o, const char *lab, const char *dir)
{
	static struct lab_an_fleet f;
	struct lab_err err;
	char bufs[8][4300];
	const char *av[16];

	if (fleet_mkdir(dir) < 0)
		return LAB_EXIT_FAILURE;
	fleet_record(&f, o, dir);
	if (fleet_write(dir, "config.ini", lab, o->config, NULL) ||
	    fleet_write(dir, "fleet.sbatch", lab, NULL, lab_fleet_script_run) ||
	    fleet_write(dir, "analyze.sbatch", lab, NULL, lab_fleet_script_analyze))
		goto fail;
	lab_fleet_argv(o, dir, 0, NULL, bufs, av);
	if (fleet_sbatch(av, f.run_job, sizeof(f.run_job)))
		goto fail;
	lab_fleet_argv(o, dir, 1, f.run_job, bufs, av);
	if (fleet_sbatch(av, f.analyze_job, sizeof(f.analyze_job))) {
		fleet_scancel(f.run_job);
		fprintf(stderr, "lab fleet: cancelled job %s again\n", f.run_job);
		goto fail;
	}
	if (lab_an_fleet_write(dir, &f, &err)) {
		fprintf(stderr, "lab fleet: %s (jobs %s and %s are submitted)\n", err.msg,
		        f.run_job, f.analyze_job);
		return LAB_EXIT_FAILURE;
	}
	printf("submitted fleet job %s (%s %s) and analysis job %s (afterany)\n"
	       "results: %s/<node>/, merged analysis in %s\n"
	       "follow:  lab fleet status %s\n",
	       f.run_job, o->nodelist ? "nodes" : "node count", o->nodelist ? o->nodelist : f.nodes,
	       f.analyze_job, dir, dir, dir);
	return LAB_EXIT_OK;
fail:
	fleet_unwind(dir);
	return LAB_EXIT_FAILURE;
}

int lab_cmd_fleet(int argc, char **argv)
{
	struct fleet_opts o = {0};
	char dir[4096], lab[4096], rel[4096];

	if (argc > 1 && !strcmp(argv[1], "status"))
		return lab_fleet_status(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "task"))
		return lab_fleet_task(argc - 1, argv + 1);
	int rc = fleet_parse(argc, argv, &o);
	if (rc)
		return rc > 0 ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (fleet_check(&o))
		return LAB_EXIT_USAGE;
	if (!o.out) {
		fleet_default_dir(o.config, rel, sizeof(rel));
		if (!o.dry_run && mkdir("results", 0755) != 0 && errno != EEXIST) {
			fprintf(stderr, "lab fleet: results: cannot create: %s\n", strerror(errno));
			return LAB_EXIT_FAILURE;
		}
	}
	fleet_abs(o.out ? o.out : rel, dir, sizeof(dir));
	ssize_t n = readlink("/proc/self/exe", lab, sizeof(lab) - 1);
	if (n <= 0) {
		fprintf(stderr, "lab fleet: cannot find the lab binary: %s\n", strerror(errno));
		return LAB_EXIT_FAILURE;
	}
	lab[n] = '\0';
	if (o.dry_run) {
		char bufs[8][4300];
		const char *av[16];
		printf("# %s/fleet.sbatch\n", dir);
		lab_fleet_script_run(stdout, lab, dir);
		printf("\n# %s/analyze.sbatch\n", dir);
		lab_fleet_script_analyze(stdout, lab, dir);
		printf("\n# submitted with (nothing was submitted: --dry-run)\n");
		lab_fleet_argv(&o, dir, 0, NULL, bufs, av);
		lab_fleet_print_argv(stdout, av);
		lab_fleet_argv(&o, dir, 1, "FLEET_JOB_ID", bufs, av);
		lab_fleet_print_argv(stdout, av);
		return LAB_EXIT_OK;
	}
	return fleet_submit(&o, lab, dir);
}
