/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fleet's pieces that need no cluster: node names as path components, the values that may
 * reach sbatch, and fleet.json written and read back (a hostile node name in it is refused), job
 * ids checked, long values carried whole or refused (never cut), and terminal text escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fleet.h"
#include "lab/fleet_int.h"
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

/* A node named as a file or directory the fleet writes in DIR would get DIR/plots or DIR/logs as
 * its results directory, mixed with the fleet's own files: every name in the list is refused. */
LAB_TEST(node_names_reserved_by_the_fleet)
{
	char list[] = LAB_FLEET_RESERVED;
	size_t n = 0;

	for (char *name = strtok(list, ", "); name; name = strtok(NULL, ", "), n++) {
		if (!lab_an_fleet_node_reserved(name) || lab_an_fleet_node_ok(name))
			TL__FAIL("reserved node name '%s' was accepted", name);
	}
	CHECK_EQ_U64(n, 10);
	/* what the fleet code writes, by its own constants */
	CHECK(lab_an_fleet_node_reserved(LAB_FLEET_FILE));
	CHECK(lab_an_fleet_node_reserved("plots") && lab_an_fleet_node_reserved("logs"));
	CHECK(lab_an_fleet_node_reserved("tasks") && lab_an_fleet_node_reserved("run.json"));
	CHECK(!lab_an_fleet_node_reserved("plots2") && lab_an_fleet_node_ok("plots2"));
	CHECK(!lab_an_fleet_node_reserved("Plots") && !lab_an_fleet_node_reserved(NULL));
	static struct lab_an_fleet f;
	memset(&f, 0, sizeof(f));
	CHECK(lab_an_fleet_task_get(&f, "plots") == NULL);
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

	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": \"\"}, "
	              "\"tasks\": [{\"node\": \"../../etc\", "
	              "\"state\": \"COMPLETED\", \"exit_code\": 0}]}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "not a plain name") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": \"\"}, "
	              "\"tasks\": [{\"node\": \"n1\"}, {\"node\": "
	              "\"logs\", \"state\": \"COMPLETED\", \"exit_code\": 0}]}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "task 2: node name 'logs' is one the fleet directory uses itself "
	                      "(reserved: config.ini, ") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/9\"}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": \"\"}, "
	              "\"tasks\": [{\"node\": \"n1\", \"exit_code\": "
	              "1e9}]}");
	/* out of range: refused, as a job id that is not a string is (it was read as unknown) */
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "task 1: \"exit_code\": allowed: null or a whole number 0 .. 255"));
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": \"\"}, "
	              "\"tasks\": [{\"node\": \"n1\", \"exit_code\": null}, {\"node\": \"n2\", "
	              "\"exit_code\": 3}]}");
	REQUIRE(lab_an_fleet_read(dir, &g, &err) == 0);
	CHECK_EQ_I64(g.task[0].exit_code, -1); /* null: not ended yet */
	CHECK_EQ_I64(g.task[1].exit_code, 3);
}

/* More tasks than a fleet has nodes: one error with the task and what is allowed. */
LAB_TEST(fleet_json_task_limit_says_what_is_allowed)
{
	static struct lab_an_fleet g;
	struct lab_err err;
	const char *dir = testlib_tmpdir();
	size_t cap = 64 * (LAB_FLEET_TASKS_MAX + 1) + 64, at = 0;
	char *doc = malloc(cap);

	REQUIRE(doc);
	at += (size_t)snprintf(doc, cap,
	                       "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", "
	                       "\"analyze\": \"\"}, \"tasks\": [");
	for (int i = 0; i <= LAB_FLEET_TASKS_MAX; i++)
		at +=
		    (size_t)snprintf(doc + at, cap - at, "%s{\"node\": \"n%d\"}", i ? ", " : "", i);
	snprintf(doc + at, cap - at, "]}");
	ft_write(dir, doc);
	free(doc);
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg,
	             "fleet.json:1: task 1025: more than 1024 tasks (allowed at most 1024,") !=
	      NULL);
}

LAB_TEST(job_ids_are_digits_with_an_optional_array_index)
{
	static const char *good[] = {"1", "41", "123_4", "0", "9999999999"};
	static const char *bad[] = {"",    "--cluster=x", "-1",  "12_", "_3",  "1_2_3",
	                            "x12", "12 3",        "1;2", "1\n", "1e3", "0x10"};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(lab_an_fleet_job_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (lab_an_fleet_job_ok(bad[i]))
			TL__FAIL("job id '%s' was accepted", bad[i]);
	CHECK(!lab_an_fleet_job_ok(NULL));
	CHECK(!lab_an_fleet_job_ok("12345678901234567890123456789012")); /* 32 digits */
}

LAB_TEST(fleet_json_refuses_option_like_job_ids)
{
	static struct lab_an_fleet g;
	struct lab_err err;
	const char *dir = testlib_tmpdir();

	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"--cluster=x\", "
	              "\"analyze\": \"\"}}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "jobs.run is not a Slurm job id") != NULL);
	ft_write(dir,
	         "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"7\", \"analyze\": \"-x\"}}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	ft_write(dir,
	         "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"7_2\", \"analyze\": \"\"}}");
	REQUIRE(lab_an_fleet_read(dir, &g, &err) == 0);
	CHECK_EQ_STR(g.run_job, "7_2");
}

/* A job id written as a number was read as "" (and fleet.json rewritten so), and a missing
 * "jobs" passed: both lose the job. One FILE:LINE error each, saying what is allowed. */
LAB_TEST(fleet_json_refuses_jobs_that_are_no_strings)
{
	static struct lab_an_fleet g;
	struct lab_err err;
	const char *dir = testlib_tmpdir();

	ft_write(dir, "{\"schema\": \"lab.fleet/1\",\n\"jobs\": {\"run\": 1, \"analyze\": \"\"}}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "fleet.json:2: jobs.run is not a string (allowed: digits, "
	                      "optionally _N)") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"1\", \"analyze\": 2}}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "fleet.json:1: jobs.analyze is not a string") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"1\"}}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "jobs.analyze is missing") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"tasks\": []}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "fleet.json:1: \"jobs\" is missing (allowed: an object") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": [\"1\"]}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "\"jobs\" is not an object") != NULL);
}

/* A list of n characters: "n00001,n00002,..." cut at a comma. */
static void ft_nodelist(char *buf, size_t n)
{
	size_t used = 0;

	for (int i = 1; used + 7 <= n; i++)
		used += (size_t)sprintf(buf + used, "%sn%05d", i > 1 ? "," : "", i);
	buf[used] = '\0';
}

LAB_TEST(fleet_json_keeps_a_long_nodelist_whole)
{
	static struct lab_an_fleet f, g;
	static char list[LAB_FLEET_NODELIST_MAX + 64];
	struct lab_err err;
	const char *dir = testlib_tmpdir();

	memset(&f, 0, sizeof(f));
	ft_nodelist(list, 5399);
	REQUIRE(strlen(list) > 5300);
	memcpy(f.nodelist, list, strlen(list) + 1);
	REQUIRE(lab_an_fleet_write(dir, &f, &err) == 0);
	REQUIRE(lab_an_fleet_read(dir, &g, &err) == 0);
	CHECK_EQ_U64(strlen(g.nodelist), strlen(list));
	CHECK_EQ_STR(g.nodelist, list);
	/* One that does not fit is refused, not cut. */
	ft_nodelist(list, LAB_FLEET_NODELIST_MAX + 20);
	char *text = NULL;
	REQUIRE(asprintf(&text,
	                 "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": "
	                 "\"\"}, \"request\": {\"nodelist\": \"%s\"}}",
	                 list) > 0);
	ft_write(dir, text);
	free(text);
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
	CHECK(strstr(err.msg, "\"nodelist\" is") != NULL);
	ft_write(dir, "{\"schema\": \"lab.fleet/1\", \"jobs\": {\"run\": \"\", \"analyze\": \"\"}, "
	              "\"state\": \"0123456789012345678901234567890123\"}");
	CHECK_EQ_I64(lab_an_fleet_read(dir, &g, &err), -LAB_EDATA);
}

LAB_TEST(sbatch_argv_carries_every_value_whole)
{
	static char list[8192], dir[4000];
	struct fleet_opts o = {0};
	struct lab_fleet_argv a;
	char want[8300];

	ft_nodelist(list, 5399);
	memset(dir, 'd', sizeof(dir) - 1);
	dir[0] = '/';
	o.nodelist = list;
	o.partition = "debug";
	REQUIRE(lab_fleet_argv(&a, &o, dir, 0, NULL) == 0);
	int found = 0;
	snprintf(want, sizeof(want), "--nodelist=%s", list);
	for (int i = 0; a.av[i]; i++)
		found += !strcmp(a.av[i], want);
	CHECK_EQ_I64(found, 1);
	int n = 0;
	while (a.av[n])
		n++;
	CHECK_EQ_U64(strlen(a.av[n - 1]), strlen(dir) + strlen("/fleet.sbatch"));
	lab_fleet_argv_free(&a);
	REQUIRE(lab_fleet_argv(&a, &o, dir, 1, "41_2") == 0);
	found = 0;
	for (int i = 0; a.av[i]; i++)
		found += !strcmp(a.av[i], "--dependency=afterany:41_2") +
		         !strncmp(a.av[i], "--nodelist=", 11);
	CHECK_EQ_I64(found, 1); /* the analysis job: the dependency, no node list */
	lab_fleet_argv_free(&a);
}

/* What lab_fleet_put writes for s. */
static char *ft_put(const char *s)
{
	static char buf[256];
	memset(buf, 0, sizeof(buf));
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	lab_fleet_put(f, s);
	fclose(f);
	return buf;
}

LAB_TEST(terminal_text_escapes_control_bytes)
{
	CHECK_EQ_STR(ft_put("n1 COMPLETED"), "n1 COMPLETED");
	CHECK_EQ_STR(ft_put("a\x1b[2K\rOK"), "a\\x1b[2K\\x0dOK");
	CHECK_EQ_STR(ft_put("tab\there\n\x7f"), "tab\\x09here\\x0a\\x7f");
	CHECK_EQ_STR(ft_put("c1 \xc2\x9b"
	                    "2K"),
	             "c1 \\xc2\\x9b2K"); /* U+009B, a CSI */
	CHECK_EQ_STR(ft_put("caf\xc3\xa9 \xe2\x82\xac"),
	             "caf\xc3\xa9 \xe2\x82\xac");         /* text stays */
	CHECK_EQ_STR(ft_put("a\xc2\xa0"), "a\\xc2\\xa0"); /* a space that is none */
	CHECK_EQ_STR(ft_put("back\\x1b"), "back\\\\x1b"); /* no faked escape either */
	/* a raw C1 byte (8-bit CSI) and a bidi override, as the other writers see them */
	CHECK_EQ_STR(ft_put("a\x9b"
	                    "2K"),
	             "a\\x9b2K");
	CHECK_EQ_STR(ft_put("n\xe2\x80\xae"
	                    "exe.gpj"),
	             "n\\xe2\\x80\\xaeexe.gpj");
	CHECK_EQ_STR(ft_put(""), "");
	char *e = lab_fleet_esc("x\x1by");
	CHECK_EQ_STR(e, "x\\x1by");
	lab_fleet_esc_free(e);
}
