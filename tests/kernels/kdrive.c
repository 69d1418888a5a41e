/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/kernels/kdrive.h"

#include <stdlib.h>
#include <string.h>

#include "harness/param.h"
#include "harness/plan.h"
#include "harness/topo.h"
#include "tests/testlib.h"

unsigned kdrive_ncpus(void)
{
	struct lab_topo *topo;
	struct lab_err err;
	int cpus[1];

	if (lab_topo_open(&topo, NULL, &err))
		return 1;
	unsigned n = lab_topo_cpus_allowed(topo, cpus, 1);
	lab_topo_close(topo);
	return n;
}

int kdrive_run(const struct lab_kernel *k, unsigned n, const char *const *overrides,
               struct lab_point_rec *rec)
{
	struct lab_hparams h;
	struct lab_topo *topo;
	struct lab_err err = {0};
	struct lab_env env;
	struct lab_runner r;
	int cpus[64];
	void *params = calloc(1, k->params_size ? k->params_size : 1);
	int rc;

	if (!params || lab_param_defaults(lab_hparam_table, &h, &err) ||
	    lab_param_defaults(k->params, params, &err)) {
		fprintf(stderr, "kdrive: defaults of %s: %s\n", k->name, err.msg);
		abort();
	}
	for (const char *const *o = overrides; o && *o; o++) {
		char key[64];
		const char *eq = strchr(*o, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *o), *o);
		const struct lab_param *p = lab_param_find(k->params, key);
		if (!p || lab_param_parse(p, eq + 1, params, &err)) {
			fprintf(stderr, "kdrive: override %s: %s\n", *o,
			        p ? err.msg : "unknown key");
			abort();
		}
	}
	h.threads = n;
	h.reps = 3;
	h.warmup = 1000000;
	h.min_time = 2000000;
	if (lab_topo_open(&topo, NULL, &err))
		abort();
	lab_topo_env(topo, &env);
	env.clock_resolution_ns = 1;
	unsigned have = lab_topo_cpus_allowed(topo, cpus, 64);
	for (unsigned i = 0; i < n; i++)
		cpus[i] = cpus[i % (have ? have : 1)];
	struct lab_point_spec spec = {
	    .kernel = k, .kparams = params, .h = &h, .cpus = cpus, .n = n};
	lab_runner_init(&r, topo, &env, NULL);
	rc = k->check ? k->check(params, n, &env, &err) : 0;
	if (rc == 0) {
		rc = lab_runner_point(&r, &spec, rec, &err);
	} else {
		memset(rec, 0, sizeof(*rec));
		rec->status = LAB_STATUS_SKIPPED;
		snprintf(rec->reason, sizeof(rec->reason), "%s", err.msg);
		rc = 0;
	}
	lab_topo_close(topo);
	free(params);
	return rc;
}
