/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Benchmark of config validation: reads and plans a config of 60 000 keys in one section (all
 * unknown, so every one is checked and the error list is capped) and one of 20 000 sections,
 * then prints the time of each. Both were quadratic (6.5 s each on the 2-vCPU build machine);
 * with the reader's hash index they should take well under a second. Usage: config_bench.
 * No assertion on time here or in the tests: tests/unit/test_config.c checks correctness at
 * these sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness/plan.h"
#include "kernels/registry.h"

static double b_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads and plans text; prints the time and the error count. */
static int b_run(const char *what, const char *text, size_t len, struct lab_topo *topo)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	struct lab_plan *plan = NULL;
	double t0 = b_now();

	if (lab_cfg_load_text(&cfg, what, text, len, &d, &err) != 0) {
		fprintf(stderr, "config_bench: %s\n", err.msg);
		return 1;
	}
	double t1 = b_now();
	int rc = lab_plan_build(&plan, &cfg, lab_kernels, topo, NULL, 0, &d, &err);
	double t2 = b_now();
	printf("%-22s read %.3f s, plan %.3f s, %u errors (%s)\n", what, t1 - t0, t2 - t1,
	       lab_diag_count(&d), rc == 0 ? "planned" : "rejected");
	lab_plan_free(plan);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	return 0;
}

int main(void)
{
	struct lab_topo *topo = NULL;
	struct lab_err err = {0};
	char *text = malloc(60000 * 24 + 64);
	size_t n = 0;
	int rc = 0;

	if (!text || lab_topo_open(&topo, "synthetic:pack:1 core:2 pu:1", &err) != 0) {
		fprintf(stderr, "config_bench: %s\n", text ? err.msg : "out of memory");
		return 1;
	}
	n = (size_t)sprintf(text, "[big]\nkernel = noop\n");
	for (int i = 0; i < 60000; i++)
		n += (size_t)sprintf(text + n, "k%d = %d\n", i, i);
	rc |= b_run("60000 keys", text, n, topo);
	n = 0;
	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(text + n, "[s%d]\nkernel = noop\n", i);
	rc |= b_run("20000 sections", text, n, topo);
	lab_topo_close(topo);
	free(text);
	return rc;
}
