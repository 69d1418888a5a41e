/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the config layer: INI text -> lab_cfg_load_text -> lab_plan_build against
 * the real kernel registry, on a synthetic 2 x 8 x 2 topology opened once. Errors are expected
 * and fine; a crash, a sanitizer report, a leak or a hang is a bug.
 *
 * Leading comment lines "#set SEC.KEY=VAL" and "#only NAME" are also passed as --set and
 * --only, so the command-line layers are fuzzed together with the file (they stay comments to
 * the INI reader, so the file is read unchanged).
 *
 * Built only with LAB_FUZZ=ON and clang (-fsanitize=fuzzer,address,undefined); libFuzzer
 * supplies main(), so tests/testlib.c is not linked in.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/config.h"
#include "harness/plan.h"
#include "harness/topo.h"
#include "kernels/registry.h"

#define FZ_ARGS_MAX 8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lab_topo *fz_topo;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct lab_err err = {0};

	(void)argc;
	(void)argv;
	if (lab_topo_open(&fz_topo, "synthetic:pack:2 core:8 pu:2", &err) != 0) {
		fprintf(stderr, "fuzz_config: %s\n", err.msg);
		abort();
	}
	return 0;
}

/*
 * Collects the "#set " and "#only " lines at the start of text into sets and only (copies
 * that the caller frees).
 */
static void fz_options(const char *text, size_t len, char **sets, unsigned *nsets, char **only,
                       unsigned *nonly)
{
	size_t pos = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + 1;
		if (n > 5 && !memcmp(line, "#set ", 5) && *nsets < FZ_ARGS_MAX)
			sets[(*nsets)++] = strndup(line + 5, n - 5);
		else if (n > 6 && !memcmp(line, "#only ", 6) && *nonly < FZ_ARGS_MAX)
			only[(*nonly)++] = strndup(line + 6, n - 6);
		else
			return;
	}
}

/* Reads everything a run would read from the plan, so a bad pointer in it shows here. */
static void fz_walk(const struct lab_plan *plan)
{
	size_t sum = 0;

	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_point *pt = &plan->pts[i];
		const struct lab_experiment *e = &plan->exp[pt->exp];
		if (!pt->params_text || pt->exp >= plan->nexp || pt->nthreads == 0)
			abort();
		sum += strlen(pt->params_text) + strlen(e->name) + strlen(pt->reason);
		for (unsigned t = 0; t < pt->nthreads; t++)
			sum += (size_t)pt->cpus[t];
	}
	for (unsigned e = 0; e < plan->nexp; e++)
		for (unsigned k = 0; k < plan->exp[e].nkeys; k++) {
			const struct lab_resolved *r = &plan->exp[e].keys[k];
			sum += strlen(r->text) + strlen(lab_src_name(r->src));
			for (unsigned v = 0; v < r->nvals; v++)
				sum += strlen(r->vals[v]);
		}
	if (sum == (size_t)-1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	struct lab_plan *plan = NULL;
	char *sets[FZ_ARGS_MAX], *only[FZ_ARGS_MAX];
	unsigned nsets = 0, nonly = 0;
	const char *text = (const char *)data;

	fz_options(text, size, sets, &nsets, only, &nonly);
	if (lab_cfg_load_text(&cfg, "fuzz.ini", text, size, &d, &err) != 0)
		goto out;
	for (unsigned i = 0; i < nsets; i++)
		if (sets[i])
			lab_cfg_add_set(&cfg, sets[i], &d);
	for (unsigned i = 0; i < d.n; i++)
		if (!d.msg[i] || !d.msg[i][0])
			abort();
	if (lab_diag_count(&d) == 0) {
		unsigned n = 0;
		const char *names[FZ_ARGS_MAX];
		for (unsigned i = 0; i < nonly; i++)
			if (only[i])
				names[n++] = only[i];
		int rc = lab_plan_build(&plan, &cfg, lab_kernels, fz_topo, names, n, &d, &err);
		/* Either a plan and no errors, or errors and no plan. */
		if ((rc == 0) != (plan != NULL) || (rc == 0) != (lab_diag_count(&d) == 0))
			abort();
		if (plan)
			fz_walk(plan);
	}
out:
	lab_plan_free(plan);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	for (unsigned i = 0; i < nsets; i++)
		free(sets[i]);
	for (unsigned i = 0; i < nonly; i++)
		free(only[i]);
	return 0;
}
