/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fleet's pieces that need no cluster: node names as path components, the values that may
 * reach sbatch, and fleet.json written and read back (a hostile node name in it is refused).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/fleet.h"
#include "tests/testlib.h"

LAB_TEST(node_names_are_plain_path_components)
{
	static const char *good[] = {"n1", "node-042", "gpu_a.rack3", "x+y", "A"};
	static const char *bad[] = {"",     ".",    "..",     ".hidden", "a/b",   "../etc",
	                            "a b",  "a'b",  "a\"b",   "a`id`",   "$(id)", "a;b",
	                            "a\nb", "a\\b", "n[1-2]", "@x",      "a*"};
	char longname[LAB_FLEET_NAME_MAX + 1];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(lab_an_fleet_node_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (lab_an_fleet_node_ok(bad[i]))
			TL__FAIL("node name '%s' was accepted", bad[i]);
	CHECK(!lab_an_fleet_node_ok(NULL));
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK(!lab_an_fleet_node_ok(longname));
	longname[LAB_FLEET_NAME_MAX - 1] = '\0';
	CHECK(lab_an_fleet_node_ok(longname));
}

LAB_TEST(sbatch_values_cannot_be_options_or_shell)
{
	CHECK(lab_an_fleet_arg_ok("n[1-4],gpu7"));
	CHECK(lab_an_fleet_arg_ok("skylake&ib|epyc"));
	CHECK(lab_an_fleet_arg_ok("1-00:30:00"));
	CHECK(lab_an_fleet_arg_ok(""));
	CHECK(!lab_an_fleet_arg_ok("--wrap=id"));
	CHECK(!lab_an_fleet_arg_ok("-p"));
	CHECK(!lab_an_fleet_arg_ok("debug x"));
	CHECK(!lab_an_fleet_arg_ok("a;id"));
	CHECK(!lab_an_fleet_arg_ok("$(id)"));
	CHECK(!lab_an_fleet_arg_ok("a\nb"));
}

LAB_TEST(fleet_json_round_trip)
{
	static struct lab_an_fleet f, g;
	struct lab_err err;
	const char *dir = testlib_tmpdir();

	memset(&f, 0, sizeof(f));
	snprintf(f.config, sizeof(f.config), "%s/config.ini", dir);
	snprintf(f.config_source, sizeof(f.config_source), "configs/a \"quoted\" name.ini");
	snprintf(f.run_job, sizeof(f.run_job), "41");
	snprintf(f.analyze_job, sizeof(f.analyze_job), "42");
	snprintf(f.state, sizeof(f.state), "COMPLETED");
	snprintf(f.nodelist, sizeof(f.nodelist), "n[1-2]");
	snprintf(f.partition, sizeof(f.partition), "debug");
	struct lab_an_fleet_task *t = lab_an_fleet_task_get(&f, "n1");
	REQUIRE(t);
	snprintf(t->state, sizeof(t->state), "COMPLETED");
	t->exit_code = 0;
	t = lab_an_fleet_task_get(&f, "n2");
	REQUIRE(t);
	snprintf(t->state, sizeof(t->state), "FAILED");
	t->exit_code = 3;
	CHECK(lab_an_fleet_task_get(&f, "n1") == &f.task[0]); /* no duplicate */
	CHECK(lab_an_fleet_task_get(&f, "../x") == NULL);
	CHECK_EQ_U64(f.ntask, 2);
	REQUIRE(lab_an_fleet_write(dir, &f, &err) == 0);
	REQUIRE(lab_an_fleet_read(dir, &g, &err) == 0);
	CHECK_EQ_STR(g.config, f.config);
	CHECK_EQ_STR(g.config_source, f.config_source);
	CHECK_EQ_STR(g.run_job, "41");
	CHECK_EQ_STR(g.analyze_job, "42");
	CHECK_EQ_STR(g.state, "COMPLETED");
	CHECK_EQ_STR(g.nodelist, "n[1-2]");
	CHECK_EQ_STR(g.partition, "debug");
	REQUIRE(g.ntask == 2);
	CHECK_EQ_STR(g.task[0].node, "n1");
	CHECK_EQ_I64(g.task[0].exit_code, 0);
	CHECK_EQ_STR(g.task[1].state, "FAILED");
	CHECK_EQ_I64(g.task[1].exit_code, 3);
	CHECK(lab_an_fleet_is_dir(dir));
}

/* Writes text as dir/fleet.json. */
static void ft_write(const char *dir, const char *text)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/fleet.json", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

LAB_TEST(fleet_json_refuses_hostile_node_names)
{
	static struct lab_an_fleet g;
	struct lab_err err;
	const char *dir = testlib_tmpdir();

	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"tasks\": [{\"node\": \"../../etc\", "
	              "\"state\": \"COMPLETED\", \"exit_code\": 0}]}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "not a plain name") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/9\"}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"tasks\": [{\"node\": \"n1\", \"exit_code\": "
	              "1e9}]}");
	REQUIRE(lab_an_fleet_read(dir, &g, &err) == 0);
	CHECK_EQ_I64(g.task[0].exit_code, -1); /* out of range: unknown, not truncated */
}
