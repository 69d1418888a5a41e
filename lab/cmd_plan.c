/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab plan: the expanded points and CPU lists of a config; runs and binds nothing. */
#include <stdio.h>

#include "lab/cli.h"

static void plan_usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: lab plan CONFIG.ini [CONFIG.ini ...] [--topology SPEC] [--set SEC.KEY=VAL]...\n"
	    "                [--only SEC]... [--json]\n\n"
	    "Validates the config and prints every point it expands to: the threads, the CPU of\n"
	    "each thread (in thread order) and the parameters. Nothing runs and nothing binds.\n\n"
	    "  --topology SPEC  plan for another machine: synthetic:\"pack:2 core:8 pu:2\" or\n"
	    "                   xml:FILE (its PUs are the CPUs `max` and lists refer to)\n"
	    "  --set SEC.KEY=VAL  override a key of one experiment\n"
	    "  --only SEC       plan only this experiment (repeatable)\n"
	    "  --json           one JSON document on stdout\n");
}

int lab_cmd_plan(int argc, char **argv)
{
	struct lab_cli_args a;
	struct lab_cli_setup s;
	int rc = lab_cli_parse(argc, argv, "plan", &a);

	if (rc)
		return rc;
	if (a.help) {
		plan_usage(stdout);
		return LAB_EXIT_OK;
	}
	if (a.out_dir || a.dry_run || a.no_progress) {
		fprintf(stderr, "lab plan: -o, --dry-run and --no-progress belong to lab run\n");
		return LAB_EXIT_USAGE;
	}
	if (a.nconfigs == 0) {
		fprintf(stderr,
		        "lab plan: which config? (usage: lab plan CONFIG.ini; see --help)\n");
		return LAB_EXIT_USAGE;
	}
	rc = lab_cli_prepare(&a, &s);
	if (rc == LAB_EXIT_OK)
		lab_cli_print_plan(&s, a.json);
	lab_cli_release(&s);
	return rc;
}
