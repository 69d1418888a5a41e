/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab fleet's options: parsed, checked against what fleet.json and sbatch can hold, and the
 * config read once, validated and planned before anything is written (fleet_int.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    "(job ids, nodes, each task's state and exit code), logs/, and DIR/<node>/ per node.\n"
    "A CONFIG whose name starts with '-' goes after \"--\".\n\n"
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

int lab_fleet_parse(int argc, char **argv, struct fleet_opts *o)
{
	static const char *names[FLEET_NOPT] = {"--nodes", "--nodelist", "--partition",
	                                        "--constraint", "--time"};
	const char **vals[FLEET_NOPT] = {&o->nodes, &o->nodelist, &o->partition, &o->constraint,
	                                 &o->time};

	int options = 1; /* until "--": after it a config may be named "-x.ini" */

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k = 0;
		while (options && k < FLEET_NOPT && strcmp(a, names[k]))
			k++;
		int out = options && (!strcmp(a, "-o") || !strcmp(a, "--output")),
		    topo = options && !strcmp(a, "--topology");
		if (!options) {
			k = FLEET_NOPT;
		} else if (!strcmp(a, "--")) {
			options = 0;
			continue;
		}
		if (options && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			fputs(fleet_help, stdout);
			return 1;
		} else if (options && !strcmp(a, "--dry-run")) {
			o->dry_run = 1;
		} else if ((k < FLEET_NOPT || out || topo) && i + 1 < argc) {
			const char *v = argv[++i];
			const char **dst = out ? &o->out : topo ? &o->topology : vals[k];
			if (*dst) {
				fleet_say(a, v, ": given twice (allowed once)");
				return -1;
			}
			if (out || topo) {
				*dst = v;
				continue;
			}
			if (!v[0] || !lab_an_fleet_arg_ok(v)) {
				fleet_say(a, v,
				          ": not a Slurm value (allowed letters, digits and "
				          "._+-:,[]&|*(), not starting with '-')");
				return -1;
			}
			*dst = v;
		} else if (options && a[0] == '-' && a[1]) {
			fleet_say("unknown option or missing value:", a, " (see lab fleet --help)");
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

/* The number at r[*k..n), moving *k past it; 0 when none or past 9 digits (leading zeros
 * aside: no node list numbers a billion nodes, and a cap would misorder a range's ends). */
static int fleet_num(const char *r, size_t n, size_t *k, unsigned long *v)
{
	size_t i = *k, digits = 0;

	for (*v = 0; *k < n && r[*k] >= '0' && r[*k] <= '9'; (*k)++) {
		digits += *v || r[*k] != '0';
		*v = digits > 9 ? *v : *v * 10 + (unsigned long)(r[*k] - '0');
	}
	return *k > i && digits <= 9;
}

/* The nodes one [..] of a Slurm host list names (1-4,7: 5), at most LAB_FLEET_TASKS_MAX + 1;
 * 0 for "[]" and for what is not numbers and ascending ranges ("[5-1]", "[1-]", "[a]": Slurm
 * would refuse them at submission, after the fleet directory was made). */
static unsigned long fleet_range_count(const char *r, size_t n)
{
	unsigned long count = 0, a, b;
	size_t k = 0;

	while (k < n && count <= LAB_FLEET_TASKS_MAX) {
		if (!fleet_num(r, n, &k, &a))
			return 0;
		b = a;
		if (k < n && r[k] == '-' && (++k, !fleet_num(r, n, &k, &b)))
			return 0;
		if (b < a || (k < n && r[k] != ',') || (k + 1 == n && r[k] == ','))
			return 0;
		count += b - a + 1;
		k++;
	}
	return count;
}

/* The nodes the item of n characters at p names: the product of its ranges' counts; 0 when a
 * bracket is left open or closes none. */
static unsigned long fleet_item_count(const char *p, size_t n)
{
	unsigned long count = 1;

	for (size_t i = 0; i < n && count && count <= LAB_FLEET_TASKS_MAX; i++)
		if (p[i] == ']')
			return 0;
		else if (p[i] == '[') {
			size_t k = strcspn(p + i + 1, "]");
			if (k >= n - i - 1)
				return 0;
			count *= fleet_range_count(p + i + 1, k);
			i += k + 1;
		}
	return count;
}

/* The longest node name the item of n characters at p expands to: its text outside brackets
 * plus, per range, its longest number as written (a zero-padded range keeps its width). */
static size_t fleet_item_maxlen(const char *p, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] != '[') {
			len++;
			continue;
		}
		size_t widest = 0, run = 0;
		for (i++; i < n && p[i] != ']'; i++) {
			run = isdigit((unsigned char)p[i]) ? run + 1 : 0;
			widest = run > widest ? run : widest;
		}
		len += widest;
	}
	return len;
}

/*
 * A node the --nodelist names plainly (an item between top-level commas without a [range]) may
 * not take a name the fleet gives its own files: its results would be DIR/plots or DIR/logs. A
 * name reached only through a range is refused by the task on its node (lab fleet task). An
 * empty item (",,") is no node, and the list names at most LAB_FLEET_TASKS_MAX, as --nodes.
 */
static int fleet_nodelist_reserved(const char *list)
{
	char item[LAB_FLEET_NAME_MAX];
	unsigned long nodes = 0;

	for (const char *p = list; p && *p;) {
		size_t n = 0;
		int depth = 0, range = 0;

		for (; p[n] && (depth || p[n] != ','); n++) {
			depth += p[n] == '[' ? 1 : p[n] == ']' ? -1 : 0;
			range |= p[n] == '[';
		}
		unsigned long count = n ? fleet_item_count(p, n) : 0;
		if (!count || (p[n] == ',' && !p[n + 1])) {
			fleet_say("--nodelist", list,
			          ": an empty or malformed node name or range (allowed: names and "
			          "ascending ranges of numbers up to 9 digits such as n[1-4] or "
			          "n[01-03,7], separated by ',')");
			return -1;
		}
		if (fleet_item_maxlen(p, n) > LAB_FLEET_NAME_MAX - 1) {
			char rest[160];

			snprintf(rest, sizeof(rest),
			         ": a node name of more than %d characters (allowed 1 .. %d: each "
			         "node's "
			         "results are DIR/<node>)",
			         LAB_FLEET_NAME_MAX - 1, LAB_FLEET_NAME_MAX - 1);
			fleet_say("--nodelist", list, rest);
			return -1;
		}
		if ((nodes += count) > LAB_FLEET_TASKS_MAX) {
			fleet_say(
			    "--nodelist", list,
			    ": more than " LAB_FLEET_STR(
			        LAB_FLEET_TASKS_MAX) " nodes (allowed 1 "
			                             ".. " LAB_FLEET_STR(
			                                 LAB_FLEET_TASKS_MAX) ", as --nodes)");
			return -1;
		}
		/* each node becomes a directory DIR/<node> (lab fleet task refused '.', 'a*' or
		 * 'a|b' on the node, after the jobs were queued) */
		size_t bad = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		                       "0123456789._+-[],");
		if (bad < n || *p == '.') {
			fleet_say("--nodelist", list,
			          ": a node name that cannot be a directory of the fleet (allowed "
			          "[A-Za-z0-9._+-] and ranges such as n[1-4], no leading '.')");
			return -1;
		}
		if (!range && n < sizeof(item)) {
			memcpy(item, p, n);
			item[n] = '\0';
			if (lab_an_fleet_node_reserved(item)) {
				fleet_say("--nodelist: node", item,
				          " is a name the fleet directory uses itself "
				          "(reserved: " LAB_FLEET_RESERVED ")");
				return -1;
			}
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Checks what the scripts will contain; one line on stderr for the first problem. */
int lab_fleet_check(struct fleet_opts *o)
{
	if (!o->config) {
		fprintf(stderr, "lab fleet: give a CONFIG (see --help)\n");
		return -1;
	}
	if (o->out && !o->out[0]) {
		fprintf(stderr, "lab fleet: -o '': empty output directory name (give -o a "
		                "directory, e.g. -o results/mine)\n");
		return -1;
	}
	if (o->nodes && o->nodelist) {
		fprintf(stderr, "lab fleet: --nodes and --nodelist: give one of them\n");
		return -1;
	}
	if ((o->nodes && fleet_nodes(o)) || fleet_lengths(o) ||
	    fleet_nodelist_reserved(o->nodelist))
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
int lab_fleet_validate(const struct fleet_opts *o, char **text, size_t *len)
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
	/* the nodes inherit the environment: their lab run would plan on it, and refuse to run */
	char vars[96];
	if (lab_topo_hwloc_env() || lab_topo_discovery_env(vars, sizeof(vars))) {
		fprintf(
		    stderr,
		    "lab fleet: %s %s set: every node's lab run would plan on it instead of its "
		    "own machine, and refuse to run (allowed: unset it; --topology SPEC checks a "
		    "config for another machine); nothing was submitted\n",
		    lab_topo_hwloc_env() ? lab_topo_hwloc_env() : vars,
		    lab_topo_hwloc_env() || !strchr(vars, ',') ? "is" : "are");
		free(*text);
		*text = NULL;
		return LAB_EXIT_USAGE;
	}
	if (lab_topo_open(&topo, o->topology, &err)) { /* the option's error, not the config's */
		fputs("lab fleet: --topology ", stderr);
		lab_fleet_put(stderr, err.msg);
		fputs("; nothing was submitted\n", stderr);
		free(*text);
		*text = NULL;
		return LAB_EXIT_USAGE;
	}
	rc = lab_cfg_load_text(&cfg, o->config, *text, *len, &d, &err);
	if (!rc && topo)
		rc = lab_plan_build(&plan, &cfg, lab_kernels, topo, NULL, 0, &d, &err);
	if (rc == 0 && lab_diag_count(&d) == 0) {
		/* the nodes inherit LAB_CPU_MASK too (on this machine's build) */
		code = plan && !o->topology ? lab_cli_mask_check(&plan->env) : LAB_EXIT_OK;
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
