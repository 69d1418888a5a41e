/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab fleet: one config on many Slurm nodes. Writes two batch scripts into DIR and submits them
 * with sbatch from an argument vector (no shell ever sees user text): the fleet job (whole nodes,
 * one task per node through srun, each running `lab run CONFIG -o DIR/<node>` via `lab fleet
 * task`) and an afterany job that updates fleet.json and analyzes the fleet. The scripts quote
 * every path; the values of --partition and the like go to sbatch as --opt=value arguments only.
 * Nothing is written or submitted before the config is read once (a regular file of bounded
 * size), validated and planned, and every option is checked: what DIR receives is exactly the
 * text that was validated, and no value is ever cut.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/cli.h"
#include "lab/fleet_int.h"

/* s without empty and "." components or a trailing '/', in place: the paths printed, written
 * into the scripts and given to sbatch read "/x/f", not "/x//f/" (s is absolute). */
static void fleet_tidy(char *s)
{
	char *w = s;

	for (const char *r = s; *r;) {
		if (r[0] == '/' && r[1] == '/')
			r++;
		else if (r[0] == '/' && r[1] == '.' && (r[2] == '/' || !r[2]))
			r += 2;
		else
			*w++ = *r++;
	}
	while (w - s > 1 && w[-1] == '/')
		w--;
	if (w == s)
		*w++ = '/';
	*w = '\0';
}

/*
 * An absolute spelling of path (the jobs may start elsewhere), carried whole however long the
 * working directory is, and checked as a whole (the working directory too) for what a batch
 * script and sbatch --output cannot hold: a fresh string, or NULL after one line on stderr (exit
 * code in *code).
 */
static char *fleet_abs(const char *path, int *code)
{
	char *cwd = NULL, *abs = NULL;

	*code = LAB_EXIT_FAILURE;
	if (path[0] != '/' && !(cwd = getcwd(NULL, 0))) {
		fprintf(stderr, "lab fleet: cannot name the working directory: %s\n",
		        strerror(errno));
		return NULL;
	}
	if (asprintf(&abs, "%s%s%s", cwd ? cwd : "", cwd ? "/" : "", path) < 0) {
		free(cwd);
		fprintf(stderr, "lab fleet: out of memory\n");
		return NULL;
	}
	free(cwd);
	fleet_tidy(abs);
	*code = LAB_EXIT_USAGE;
	for (const char *p = abs; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '%' || *p == '\\') {
			fputs("lab fleet: the fleet directory '", stderr);
			lab_fleet_put(stderr, abs);
			fputs(
			    *p == '%' ? "': '%' not allowed (sbatch reads it in --output as a "
			                "pattern)\n"
			    : *p == '\\'
			        ? "': '\\' not allowed (sbatch reads it in --output as an escape)\n"
			        : "': a control character in a path (not allowed in a batch "
			          "script)\n",
			    stderr);
			free(abs);
			return NULL;
		}
	if (strlen(abs) > LAB_FLEET_DIR_MAX) {
		fprintf(stderr,
		        "lab fleet: the fleet directory's absolute path is %zu characters (allowed "
		        "at most %d: each node runs lab run -o DIR/<node>, which takes %d, with "
		        "node names of up to %d): give a shorter -o or start from a shorter "
		        "directory\n",
		        strlen(abs), LAB_FLEET_DIR_MAX, LAB_RUN_DIR_MAX - 1,
		        LAB_FLEET_NAME_MAX - 1);
		free(abs);
		return NULL;
	}
	return abs;
}

/* The default DIR: results/fleet-<UTC stamp>-<config stem>, the stem's first 64 bytes
 * (lab_cli_stem: a config named "pct%j.ini" made a directory sbatch's --output could not take,
 * an error about a name nobody gave). */
static void fleet_default_dir(const char *config, char *buf, size_t len)
{
	char stamp[32], stem[65];
	time_t now = time(NULL);
	struct tm tm;

	lab_cli_stem(config, stem, sizeof(stem));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "results/fleet-%s-%s", stamp, stem);
}

/* fleet.json's first record. lab_fleet_check made every value fit its field. */
static void fleet_record(struct lab_an_fleet *f, const struct fleet_opts *o, const char *dir)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(f, 0, sizeof(*f));
	snprintf(f->config, sizeof(f->config), "%s/config.ini", dir);
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

/* The signal (SIGINT, SIGTERM or SIGHUP) that arrived while the jobs were submitted, or 0. */
static volatile sig_atomic_t fleet_signal;

static void fleet_on_signal(int sig)
{
	fleet_signal = sig;
}

/*
 * Ctrl-C, SIGTERM and a closed terminal during the submission are recorded, not fatal: a lab
 * killed between sbatch and fleet.json left a job running that nothing tracked. Each step looks
 * at the record, and an interrupted submission cancels its jobs and removes its files.
 */
static void fleet_signals(void (*on)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Submits both jobs, each built, checked and submitted from an argument vector; stops before
 * the second when a signal came during the first. The ids submitted are in f either way. */
static int fleet_sbatch_both(const struct fleet_opts *o, const char *dir, struct lab_an_fleet *f)
{
	struct lab_fleet_argv a;

	if (lab_fleet_argv(&a, o, dir, 0, NULL)) {
		fprintf(stderr, "lab fleet: out of memory; nothing was submitted\n");
		return -1;
	}
	int rc = lab_fleet_sbatch(a.av, f->run_job, sizeof(f->run_job));
	lab_fleet_argv_free(&a);
	if (rc || fleet_signal)
		return -1;
	if (lab_fleet_argv(&a, o, dir, 1, f->run_job) == 0) {
		rc = lab_fleet_sbatch(a.av, f->analyze_job, sizeof(f->analyze_job));
		lab_fleet_argv_free(&a);
	} else {
		fprintf(stderr, "lab fleet: out of memory\n");
		rc = -1;
	}
	return rc;
}

/* Cancels the jobs f names, removes what the submission wrote and says so in one line. */
static int fleet_unwind(const char *dir, struct lab_fleet_made *m, struct lab_an_fleet *f)
{
	const char *jobs[] = {f->run_job, f->analyze_job};
	char said[64] = "";

	for (int i = 0; i < 2; i++)
		if (jobs[i][0]) {
			lab_fleet_scancel(jobs[i]);
			snprintf(said + strlen(said), sizeof(said) - strlen(said), "%s%s",
			         said[0] ? " and " : "", jobs[i]);
		}
	lab_fleet_dir_unwind(dir, m);
	int sig = fleet_signal;
	fleet_signals(SIG_DFL);
	if (sig) {
		fprintf(stderr, "lab fleet: interrupted (%s)%s%s; %s\n",
		        sig == SIGINT    ? "SIGINT"
		        : sig == SIGTERM ? "SIGTERM"
		                         : "SIGHUP",
		        said[0] ? ": cancelled job " : "", said,
		        m->dir && access(dir, F_OK) == 0
		            ? "the fleet directory stays: a job had written into it"
		            : "what this command wrote is removed");
		return 128 + sig;
	}
	if (said[0])
		fprintf(stderr, "lab fleet: cancelled job %s again\n", said);
	return LAB_EXIT_FAILURE;
}

static int fleet_submit(const struct fleet_opts *o, const char *lab, const char *dir,
                        const char *text, size_t len, struct lab_fleet_made *m)
{
	static struct lab_an_fleet f;
	struct lab_err err;

	int rc = lab_fleet_dir_make(dir, o->out != NULL, m);
	if (rc < 0) {
		if (m->results)
			rmdir("results");
		fleet_signals(SIG_DFL);
		return fleet_signal ? 128 + fleet_signal
		       : rc == -2   ? LAB_EXIT_USAGE
		                    : LAB_EXIT_FAILURE;
	}
	fleet_record(&f, o, dir);
	if (fleet_signal || lab_fleet_file_write(dir, "config.ini", lab, text, len, NULL) ||
	    lab_fleet_file_write(dir, "fleet.sbatch", lab, NULL, 0, lab_fleet_script_run) ||
	    lab_fleet_file_write(dir, "analyze.sbatch", lab, NULL, 0, lab_fleet_script_analyze) ||
	    fleet_signal || fleet_sbatch_both(o, dir, &f) || fleet_signal)
		return fleet_unwind(dir, m, &f);
	if (lab_an_fleet_write(dir, &f, &err)) {
		fleet_signals(SIG_DFL);
		fprintf(stderr, "lab fleet: %s (jobs %s and %s are submitted)\n", err.msg,
		        f.run_job, f.analyze_job);
		return LAB_EXIT_FAILURE;
	}
	if (fleet_signal)
		return fleet_unwind(dir, m, &f);
	fleet_signals(SIG_DFL);
	printf("submitted fleet job %s (%s %s) and analysis job %s (afterany)\n"
	       "results: %s/<node>/, merged analysis in %s\n"
	       "follow:  ",
	       f.run_job, o->nodelist ? "nodes" : "node count", o->nodelist ? o->nodelist : f.nodes,
	       f.analyze_job, dir, dir);
	/* A line to paste: DIR as one shell word, as --dry-run prints the sbatch lines (a DIR
	 * of "o $(touch x)" ran the command when pasted). */
	const char *follow[] = {"lab", "fleet", "status", dir, NULL};
	lab_fleet_print_argv(stdout, follow);
	return LAB_EXIT_OK;
}

/* --dry-run: the scripts and the sbatch command lines, as they would be written and run. */
static int fleet_dry_run(const struct fleet_opts *o, const char *lab, const char *dir)
{
	struct lab_fleet_argv a;

	printf("# %s/fleet.sbatch\n", dir);
	lab_fleet_script_run(stdout, lab, dir);
	printf("\n# %s/analyze.sbatch\n", dir);
	lab_fleet_script_analyze(stdout, lab, dir);
	printf("\n# submitted with (nothing was submitted: --dry-run)\n");
	for (int analyze = 0; analyze < 2; analyze++) {
		if (lab_fleet_argv(&a, o, dir, analyze, "FLEET_JOB_ID")) {
			fprintf(stderr, "lab fleet: out of memory\n");
			return LAB_EXIT_FAILURE;
		}
		lab_fleet_print_argv(stdout, a.av);
		lab_fleet_argv_free(&a);
	}
	return LAB_EXIT_OK;
}

/* The lab binary's own path into buf (whole, or an error). */
static int fleet_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len);

	if (n <= 0 || (size_t)n >= len) {
		fprintf(stderr, "lab fleet: cannot find the lab binary: %s\n",
		        n <= 0 ? strerror(errno) : "its path is too long");
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

int lab_cmd_fleet(int argc, char **argv)
{
	struct fleet_opts o = {0};
	struct lab_fleet_made made = {0};
	char lab[4096], rel[4096], *dir = NULL, *text = NULL;
	size_t len = 0;

	if (argc > 1 && !strcmp(argv[1], "status"))
		return lab_fleet_status(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "task"))
		return lab_fleet_task(argc - 1, argv + 1);
	int rc = lab_fleet_parse(argc, argv, &o);
	if (rc)
		return rc > 0 ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (lab_fleet_check(&o))
		return LAB_EXIT_USAGE;
	if (!o.out)
		fleet_default_dir(o.config, rel, sizeof(rel));
	if (!(dir = fleet_abs(o.out ? o.out : rel, &rc)))
		return rc;
	if (fleet_self(lab, sizeof(lab))) {
		rc = LAB_EXIT_FAILURE;
		goto out;
	}
	/* Everything is checked before anything is written or submitted. */
	if ((rc = lab_fleet_validate(&o, &text, &len)) != LAB_EXIT_OK)
		goto out;
	if (o.dry_run) {
		rc = lab_fleet_dir_check(dir, o.out != NULL);
		if (rc)
			rc = rc == -2 ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
		else
			rc = fleet_dry_run(&o, lab, dir);
		goto out;
	}
	fleet_signals(fleet_on_signal);
	if (!o.out) {
		made.results = mkdir("results", 0755) == 0;
		if (!made.results && errno != EEXIST) {
			fprintf(stderr, "lab fleet: results: cannot create: %s\n", strerror(errno));
			fleet_signals(SIG_DFL);
			rc = LAB_EXIT_FAILURE;
			goto out;
		}
	}
	rc = fleet_submit(&o, lab, dir, text, len, &made);
out:
	free(text);
	free(dir);
	return rc;
}
