/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Issue 21, numbers that must not teach the wrong thing, on hand-made fixtures
 * (tests/analyze/gen_fixtures_meaning.py holds the values and the hand computations):
 * finding 4, a SIMD speedup's baseline matches every other param, threads included, and a point
 * without one says so instead of reading 1; finding 7, no scaling metric for latencies and
 * overheads, and no made-up notes or values.
 */
#include <math.h>

#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* `lab analyze NAME --no-plots ARGS` on a copy of fixture NAME: stdout (malloc'd). */
static char *mn_run(const char *name, const char *args)
{
	char cmd[256], *out = NULL, *err = NULL;

	clitest_copy(name);
	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots %s", name, args);
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	free(err);
	return out ? out : strdup("");
}

static struct lab_an_json *mn_json(const char *name)
{
	char *out = mn_run(name, "--json");
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	return j;
}

/* The experiment named exp in analysis.json. */
static const struct lab_an_json *mn_exp(const struct lab_an_json *j, const char *exp)
{
	const struct lab_an_json *e;

	for (size_t i = 0; (e = clitest_at(j, "experiments", i)); i++)
		if (lab_an_json_str(e, "name") && !strcmp(lab_an_json_str(e, "name"), exp))
			return e;
	return NULL;
}

/* The simd_speedup entry of experiment exp whose group params contain cond, curve isa. */
static const struct lab_an_json *mn_simd(const struct lab_an_json *j, const char *exp,
                                         const char *cond, const char *isa)
{
	const struct lab_an_json *v = lab_an_json_get(mn_exp(j, exp), "simd_speedup"), *g, *c;

	for (size_t i = 0; (g = clitest_at(v, "groups", i)); i++) {
		if (!lab_an_json_str(g, "params") || !strstr(lab_an_json_str(g, "params"), cond))
			continue;
		for (size_t k = 0; (c = clitest_at(g, "curves", k)); k++)
			if (!strcmp(lab_an_json_str(c, "isa"), isa))
				return clitest_at(c, "points", 0);
	}
	return NULL;
}

/* Finding 4: at 2 threads avx2 over scalar is the vector gain 1.0 / 0.3565 (not 2.78 / 0.3565
 * = 7.8, the scalar point at 1 thread) and scalar over itself is 1 (not 2.78); [misalign] has
 * no scalar point: its speedup is null with a note, and the text says so, never 1. */
LAB_TEST(simd_speedup_baseline_same_threads)
{
	struct lab_an_json *j = mn_json("results-simd-speedup");
	const struct lab_an_json *p;
	char *out;

	REQUIRE(j);
	REQUIRE((p = mn_simd(j, "isa", "threads=2", "avx2")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 1.0 / 0.3565, 1e-3);
	REQUIRE((p = mn_simd(j, "isa", "threads=2", "scalar")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 1.0, 1e-9);
	REQUIRE((p = mn_simd(j, "isa", "threads=1", "avx2")));
	CHECK_NEAR(lab_an_json_num(p, "speedup", NAN), 2.78 / 0.99, 1e-3);
	for (int k = 0; k < 2; k++) {
		REQUIRE((p = mn_simd(j, "misalign", k ? "misalign=32" : "misalign=0", "avx512")));
		CHECK(lab_an_json_get(p, "speedup")->type == LAB_AN_JSON_NULL);
		CHECK_EQ_I64((long long)lab_an_json_num(p, "speedup_n", -1), 0);
		CHECK_EQ_STR(lab_an_json_str(p, "speedup_note"),
		             "no isa=scalar point at these params");
		CHECK_NEAR(lab_an_json_num(p, "ns_per_elem", NAN), k ? 0.9 : 0.5, 1e-9);
	}
	lab_an_json_free(j);
	out = mn_run("results-simd-speedup", "");
	CHECK(strstr(out, "no isa=scalar point at these params") != NULL);
	CHECK(strstr(out, "no used samples") == NULL);
	free(out);
}
