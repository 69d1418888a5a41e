/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/kernels/kpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/env.h"
#include "harness/param.h"
#include "harness/plan.h"
#include "harness/topo.h"

static struct lab_topo *kp_topo;

static struct lab_topo *kp_topo_get(void)
{
	struct lab_err err = {0};

	if (!kp_topo && lab_topo_open(&kp_topo, NULL, &err) != 0)
		fprintf(stderr, "kpoint: topology: %s\n", err.msg);
	return kp_topo;
}

unsigned kpoint_ncpus(void)
{
	struct lab_topo *t = kp_topo_get();
	int cpus[LAB_THREADS_MAX];

	return t ? lab_topo_cpus_allowed(t, cpus, LAB_THREADS_MAX) : 0;
}

static int kp_params(const struct lab_kernel *k, const char *const *kv, void *kp)
{
	struct lab_err err = {0};

	if (lab_param_defaults(k->params, kp, &err) != 0) {
		fprintf(stderr, "kpoint: defaults of %s: %s\n", k->name, err.msg);
		return -1;
	}
	for (unsigned i = 0; kv && kv[i]; i++) {
		char key[64];
		const char *eq = strchr(kv[i], '=');
		if (!eq || (size_t)(eq - kv[i]) >= sizeof(key))
			return fprintf(stderr, "kpoint: bad override '%s'\n", kv[i]), -1;
		memcpy(key, kv[i], (size_t)(eq - kv[i]));
		key[eq - kv[i]] = '\0';
		const struct lab_param *p = lab_param_find(k->params, key);
		if (!p || lab_param_parse(p, eq + 1, kp, &err) != 0) {
			fprintf(stderr, "kpoint: %s: %s\n", kv[i], p ? err.msg : "unknown key");
			return -1;
		}
	}
	return 0;
}

static int kp_runq_unknown(void *ctx, unsigned tid, uint64_t *ns)
{
	(void)ctx;
	(void)tid;
	(void)ns;
	return -1;
}

static char kp_skip[LAB_ERR_MSG_MAX + 64];

const char *kpoint_skip_reason(void)
{
	return kp_skip;
}

int kpoint_run(const struct lab_kernel *k, const char *const *kv, const struct kpoint_opts *o,
               struct lab_point_rec *rec)
{
	struct lab_topo *topo = kp_topo_get();
	struct lab_err err = {0};
	struct lab_hparams h;
	struct lab_env env = {0};
	struct lab_runner r;
	int cpus[LAB_THREADS_MAX], rc = -1;
	void *kp = calloc(1, k->params_size ? k->params_size : 1);
	unsigned n = o->nthreads, have;

	memset(rec, 0, sizeof(*rec));
	if (!topo || !kp || kp_params(k, kv, kp) != 0)
		goto out;
	if (lab_env_probe(&env, topo, &err) != 0) {
		fprintf(stderr, "kpoint: %s\n", err.msg);
		goto out;
	}
	if (o->clock_resolution_ns > 0)
		env.clock_resolution_ns = o->clock_resolution_ns;
	if (lab_param_defaults(lab_hparam_table, &h, &err) != 0) {
		fprintf(stderr, "kpoint: harness defaults: %s\n", err.msg);
		goto out;
	}
	h.threads = n;
	h.reps = o->reps ? o->reps : 3;
	h.warmup = 1000000;
	h.min_time = o->min_time_ns ? o->min_time_ns : 10000000;
	/* The first n CPUs this process may use; fewer than n: share them (slow, still correct). */
	have = lab_topo_cpus_allowed(topo, cpus, LAB_THREADS_MAX);
	for (unsigned i = have; i < n && have > 0; i++)
		cpus[i] = cpus[i % have];
	if ((rc = lab_kernel_check(k, kp, n, &env, &err)) != 0) {
		fprintf(stderr, "kpoint: %s check: %s\n", k->name, err.msg);
		if (rc == LAB_SKIP)
			snprintf(kp_skip, sizeof(kp_skip), "%s: %s", k->name, err.msg);
		rc = rc == LAB_SKIP ? LAB_SKIP : -1;
		goto out;
	}
	lab_runner_init(&r, topo, &env, NULL);
	/* Kernel tests check status and verify, not timings: no retries of flagged samples
	 * (on a busy host they would only make the tests slow), unless a test asks. */
	h.retry_flagged = o->retry_flagged;
	h.quiet_wait = o->quiet_wait_ns;
	if (o->precision) {
		snprintf(h.precision, sizeof(h.precision), "%s", o->precision);
		h.budget = o->budget_ns;
	}
	if (o->max_runq_wait > 0)
		h.max_runq_wait = o->max_runq_wait;
	if (o->foreign) {
		r.foreign = o->foreign;
		r.foreign_ctx = o->foreign_ctx;
		r.runq = kp_runq_unknown;
	}
	lab_runner_persist(&r, n)->points = o->load_persistent;
	if (o->runq) {
		r.runq = o->runq;
		r.runq_ctx = o->runq_ctx;
	}
	struct lab_point_spec spec = {.kernel = k, .kparams = kp, .h = &h, .cpus = cpus, .n = n};
	rc = lab_runner_point(&r, &spec, rec, &err);
	if (rc != 0)
		fprintf(stderr, "kpoint: runner: %s\n", err.msg);
	else if (rec->status != LAB_STATUS_OK)
		fprintf(stderr, "kpoint: %s: %s\n", k->name, rec->reason);
out:
	free(kp);
	return rc;
}

void kpoint_free(struct lab_point_rec *rec)
{
	lab_point_rec_free(rec);
}

uint64_t kpoint_thread_work(const struct lab_point_rec *rec, unsigned i)
{
	uint64_t sum = 0;

	for (unsigned r = 0; r < rec->nreps; r++)
		sum += rec->threads[r * rec->nthreads + i].work;
	return sum;
}

int kpoint_metric(const struct lab_kernel *k, const char *name)
{
	for (int i = 0; k->metrics && k->metrics[i].name; i++)
		if (strcmp(k->metrics[i].name, name) == 0)
			return i;
	return -1;
}
