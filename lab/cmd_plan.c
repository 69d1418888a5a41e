/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab plan: the expanded points and CPU lists of a config; runs and binds nothing. */
#include <stddef.h>
#include <stdio.h>

#include "lab/cli.h"

static const struct lab_opt plan_opts[] = {
    {"--topology", NULL, LAB_OPT_VALUE, "SPEC", offsetof(struct lab_cli_args, topology), 0,
     "plan for another machine: synthetic:\"pack:2 core:8 pu:2\" or\n"
     "xml:FILE (its PUs are the CPUs `max` and lists refer to)"},
    LAB_CLI_OPT_SET,
    LAB_CLI_OPT_ONLY,
    LAB_CLI_OPT_CACHE,
    {"--json", NULL, LAB_OPT_FLAG, NULL, offsetof(struct lab_cli_args, json), 0,
     "one JSON document on stdout"},
    LAB_OPTS_END,
};

static const struct lab_cmd_opts plan_cmd = {
    .name = "plan",
    .synopsis = "CONFIG.ini [CONFIG.ini ...] [--topology SPEC] [--set SEC.KEY=VAL]...\n"
                "                [--only SEC]... [--cache LN=SIZE]... [--json]",
    .about = "Validates the config and prints every point it expands to: the threads, the CPU of\n"
             "each thread (in thread order) and the parameters. Nothing runs and nothing binds.\n",
    .opts = plan_opts,
    .pos_at = offsetof(struct lab_cli_args, configs),
    .npos_at = offsetof(struct lab_cli_args, nconfigs),
    .pos_max = LAB_CLI_LIST_MAX,
    .pos_what = "config files",
};

int lab_cmd_plan(int argc, char **argv)
{
	struct lab_cli_args a;
	struct lab_cli_setup s;
	int rc = lab_opts_parse(&plan_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
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
