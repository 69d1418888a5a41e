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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/fileio.h"
#include "kernels/registry.h"
#include "lab/cli.h"
#include "lab/fleet_int.h"

#define LAB_FLEET_STR_(x) #x
#define LAB_FLEET_STR(x)  LAB_FLEET_STR_(x)
/* The longest string fleet.json's field m holds. */
#define FLEET_FIELD_MAX(m) (sizeof(((struct lab_an_fleet *)0)->m) - 1)

static const char fleet_help[] =
    "usage: lab fleet CONFIG [--nodes N | --nodelist LIST] [--partition P] [--constraint C]\n"
    "                 [--time T] [--topology SPEC] [-o DIR] [--dry-run]\n"
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
    "  --topology SPEC    validate and plan CONFIG for the nodes' topology (synthetic:\"...\"\n"
    "                     or xml:FILE, as lab plan takes it); default: this machine's\n"
    "  -o, --output DIR   the fleet directory (new or empty)\n"
    "  --dry-run          validate, print the scripts and the sbatch commands; submit and\n"
    "                     write nothing\n\n"
    "Then: lab fleet status DIR; lab analyze DIR; lab compare DIR/NODE_A DIR/NODE_B\n";

/* "lab fleet: WHAT 'VALUE'REST" on stderr with VALUE escaped (it may hold any byte). */
static void fleet_say(const char *what, const char *value, const char *rest)
{
	fprintf(stderr, "lab fleet: %s '", what);
	lab_fleet_put(stderr, value);
	fprintf(stderr, "'%s\n", rest);
}

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
		int out = !strcmp(a, "-o") || !strcmp(a, "--output"),
		    topo = !strcmp(a, "--topology");
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(fleet_help, stdout);
			return 1;
		} else if (!strcmp(a, "--dry-run")) {
			o->dry_run = 1;
		} else if ((k < FLEET_NOPT || out || topo) && i + 1 < argc) {
			const char *v = argv[++i];
			if (out || topo) {
				*(out ? &o->out : &o->topology) = v;
				continue;
			}
			if (!v[0] || !lab_an_fleet_arg_ok(v)) {
				fleet_say(a, v,
				          ": not a Slurm value (allowed letters, digits and "
				          "._+-:,[]&|*(), not starting with '-')");
				return -1;
			}
			*vals[k] = v;
		} else if (a[0] == '-' && a[1]) {
			fleet_say("unknown option or missing value:", a, " (see --help)");
			return -1;
		} else if (!o->config) {
			o->config = a;
		} else {
			fleet_say("one config only; also given:", a, "");
			return -1;
		}
	}
	return 0;
}

/*
 * --nodes as a count: decimal digits only (no sign, space, hex or exponent), 1 ..
 * LAB_FLEET_TASKS_MAX, never wrapped; o->nodes then names its canonical spelling.
 */
static int fleet_nodes(struct fleet_opts *o)
{
	const char *v = o->nodes;
	char *end = NULL;

	if (strspn(v, "0123456789") != strlen(v) || !v[0]) {
		fleet_say("--nodes", v,
		          ": not a count (allowed 1 .. " LAB_FLEET_STR(
		              LAB_FLEET_TASKS_MAX) ", decimal digits)");
		return -1;
	}
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (errno || *end || n < 1 || n > LAB_FLEET_TASKS_MAX) {
		fleet_say("--nodes", v,
		          ": out of range (allowed 1 .. " LAB_FLEET_STR(LAB_FLEET_TASKS_MAX) ")");
		return -1;
	}
	snprintf(o->nodes_buf, sizeof(o->nodes_buf), "%lu", n);
	o->nodes = o->nodes_buf;
	return 0;
}

/* Each Slurm value must fit the field fleet.json keeps it in: refused, never cut. */
static int fleet_lengths(const struct fleet_opts *o)
{
	const struct {
		const char *name, *v;
		size_t max;
	} vals[] = {
	    {"--nodelist", o->nodelist, FLEET_FIELD_MAX(nodelist)},
	    {"--partition", o->partition, FLEET_FIELD_MAX(partition)},
	    {"--constraint", o->constraint, FLEET_FIELD_MAX(constraint)},
	    {"--time", o->time, FLEET_FIELD_MAX(time)},
	};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		if (vals[i].v && strlen(vals[i].v) > vals[i].max) {
			fprintf(stderr, "lab fleet: %s: %zu characters (allowed at most %zu%s)\n",
			        vals[i].name, strlen(vals[i].v), vals[i].max,
			        i ? "" : "; a Slurm range such as n[1-400] is shorter");
			return -1;
		}
	return 0;
}

/* Checks what the scripts will contain; one line on stderr for the first problem. */
static int fleet_check(struct fleet_opts *o)
{
	if (!o->config) {
		fprintf(stderr, "lab fleet: give a CONFIG (see --help)\n");
		return -1;
	}
	if (o->nodes && o->nodelist) {
		fprintf(stderr, "lab fleet: --nodes and --nodelist: give one of them\n");
		return -1;
	}
	if ((o->nodes && fleet_nodes(o)) || fleet_lengths(o))
		return -1;
	if (strlen(o->config) > FLEET_FIELD_MAX(config_source)) {
		fprintf(stderr,
		        "lab fleet: CONFIG: a path of %zu characters (allowed at most %zu)\n",
		        strlen(o->config), FLEET_FIELD_MAX(config_source));
		return -1;
	}
	for (const char *p = o->config; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			fprintf(stderr, "lab fleet: CONFIG: a control character in a path (not "
			                "allowed in fleet.json and its messages)\n");
			return -1;
		}
	return 0;
}

/* Prints the config's errors, one line each, and the closing count. */
static void fleet_report(struct lab_diag *d, const struct fleet_opts *o, const char *topo)
{
	unsigned n = lab_diag_count(d);

	for (unsigned i = 0; i < d->n; i++) {
		lab_fleet_put(stderr, d->msg[i]);
		fputc('\n', stderr);
	}
	if (d->dropped)
		fprintf(stderr, "... and %u more error%s\n", d->dropped,
		        d->dropped == 1 ? "" : "s");
	fprintf(stderr, "lab fleet: %u error%s in ", n, n == 1 ? "" : "s");
	lab_fleet_put(stderr, o->config);
	fputs(" (checked for ", stderr);
	lab_fleet_put(stderr, topo);
	fputs(o->topology ? ")" : "; --topology SPEC checks it for the nodes' own)", stderr);
	fputs("; nothing was submitted\n", stderr);
}

/*
 * Reads CONFIG once into *text (a regular file of at most LAB_CFG_FILE_MAX bytes: a FIFO, a
 * device or a directory is refused before anything is read from it), then loads, validates and
 * plans it for --topology (default: this machine), as `lab plan` does. Returns LAB_EXIT_OK with
 * *text (the caller frees it), or the exit code after the errors on stderr.
 */
static int fleet_validate(const struct fleet_opts *o, char **text, size_t *len)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	struct lab_topo *topo = NULL;
	struct lab_plan *plan = NULL;
	int code = LAB_EXIT_USAGE;

	int rc = lab_file_read(o->config, LAB_CFG_FILE_MAX, text, len, &err);
	if (rc) {
		fputs("lab fleet: cannot read the config: ", stderr);
		lab_fleet_put(stderr, err.msg);
		fputs("; nothing was submitted\n", stderr);
		return rc == -LAB_ENOMEM ? LAB_EXIT_FAILURE : LAB_EXIT_USAGE;
	}
	if (lab_topo_open(&topo, o->topology, &err))
		lab_diag_add(&d, "--topology %s", err.msg);
	rc = lab_cfg_load_text(&cfg, o->config, *text, *len, &d, &err);
	if (!rc && topo)
		rc = lab_plan_build(&plan, &cfg, lab_kernels, topo, NULL, 0, &d, &err);
	if (rc == 0 && lab_diag_count(&d) == 0) {
		code = LAB_EXIT_OK;
	} else if (rc == 0 || rc == -LAB_ECONFIG) {
		fleet_report(&d, o, topo ? lab_topo_summary(topo) : "no topology");
	} else {
		fputs("lab fleet: ", stderr);
		lab_fleet_put(stderr, err.msg);
		fputc('\n', stderr);
		code = LAB_EXIT_FAILURE;
	}
	lab_plan_free(plan);
	lab_topo_close(topo);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	if (code) {
		free(*text);
		*text = NULL;
	}
	return code;
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
	*code = LAB_EXIT_USAGE;
	for (const char *p = abs; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '%') {
			fputs("lab fleet: the fleet directory '", stderr);
			lab_fleet_put(stderr, abs);
			fputs(*p == '%'
			          ? "': '%' not allowed (sbatch reads it in --output as a "
			            "pattern)\n"
			          : "': a control character in a path (not allowed in a batch "
			            "script)\n",
			      stderr);
			free(abs);
			return NULL;
		}
	if (strlen(abs) > LAB_FLEET_DIR_MAX) {
		fprintf(stderr,
		        "lab fleet: the fleet directory's absolute path is %zu characters (allowed "
		        "at most %d): give a shorter -o or start from a shorter directory\n",
		        strlen(abs), LAB_FLEET_DIR_MAX);
		free(abs);
		return NULL;
	}
	return abs;
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

/* fleet.json's first record. fleet_check made every value fit its field. */
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

/* Submits both jobs, each built, checked and submitted from an argument vector. */
static int fleet_sbatch_both(const struct fleet_opts *o, const char *dir, struct lab_an_fleet *f)
{
	struct lab_fleet_argv a;

	if (lab_fleet_argv(&a, o, dir, 0, NULL)) {
		fprintf(stderr, "lab fleet: out of memory; nothing was submitted\n");
		return -1;
	}
	int rc = lab_fleet_sbatch(a.av, f->run_job, sizeof(f->run_job));
	lab_fleet_argv_free(&a);
	if (rc)
		return -1;
	if (lab_fleet_argv(&a, o, dir, 1, f->run_job) == 0) {
		rc = lab_fleet_sbatch(a.av, f->analyze_job, sizeof(f->analyze_job));
		lab_fleet_argv_free(&a);
	} else {
		fprintf(stderr, "lab fleet: out of memory\n");
		rc = -1;
	}
	if (rc) {
		lab_fleet_scancel(f->run_job);
		fprintf(stderr, "lab fleet: cancelled job %s again\n", f->run_job);
	}
	return rc;
}

static int fleet_submit(const struct fleet_opts *o, const char *lab, const char *dir,
                        const char *text, size_t len, struct lab_fleet_made *m)
{
	static struct lab_an_fleet f;
	struct lab_err err;

	if (lab_fleet_dir_make(dir, m) < 0)
		goto fail;
	fleet_record(&f, o, dir);
	if (lab_fleet_file_write(dir, "config.ini", lab, text, len, NULL) ||
	    lab_fleet_file_write(dir, "fleet.sbatch", lab, NULL, 0, lab_fleet_script_run) ||
	    lab_fleet_file_write(dir, "analyze.sbatch", lab, NULL, 0, lab_fleet_script_analyze) ||
	    fleet_sbatch_both(o, dir, &f))
		goto unwind;
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
unwind:
	lab_fleet_dir_unwind(dir, m);
	return LAB_EXIT_FAILURE;
fail:
	if (m->results)
		rmdir("results");
	return LAB_EXIT_FAILURE;
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
	int rc = fleet_parse(argc, argv, &o);
	if (rc)
		return rc > 0 ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (fleet_check(&o))
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
	if ((rc = fleet_validate(&o, &text, &len)) != LAB_EXIT_OK)
		goto out;
	if (o.dry_run) {
		rc = fleet_dry_run(&o, lab, dir);
		goto out;
	}
	if (!o.out) {
		made.results = mkdir("results", 0755) == 0;
		if (!made.results && errno != EEXIST) {
			fprintf(stderr, "lab fleet: results: cannot create: %s\n", strerror(errno));
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
