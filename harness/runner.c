/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/runner.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/membind.h"
#include "harness/perf_c2c.h"
#include "harness/team.h"

#include "harness/runner_internal.h"

static void *runner_aligned(size_t size)
{
	size = (size + LAB_SLOT - 1) & ~(size_t)(LAB_SLOT - 1);
	void *p = aligned_alloc(LAB_SLOT, size);

	if (p)
		memset(p, 0, size);
	return p;
}

void lab_runner_init(struct lab_runner *r, const struct lab_topo *topo, const struct lab_env *env,
                     const atomic_int *interrupt)
{
	struct lab_err err;

	memset(r, 0, sizeof(*r));
	r->topo = topo;
	r->env = env;
	r->interrupt = interrupt;
	r->bind = lab_topo_is_thissystem(topo);
	lab_load_init(&r->load, NULL);
	r->load_ok = lab_load_snap(&r->load, &err) == 0;
	r->origin_ns = lab_clock_ns();
	r->ctr_host = lab_ctr_host_self();
	r->pe_ops = &lab_pe_ops_sys;
}

static void runner_thread_setup_fn(void *arg, unsigned tid)
{
	struct runner_point *p = arg;
	struct runner_slot *s = &p->slots[tid];

	s->rc = p->spec->kernel->thread_setup(&p->ctx, p->threads[tid], &s->err);
}

/* On each worker: its own schedstat, opened once per point (reads are then a pread). */
static void runner_runq_open_fn(void *arg, unsigned tid)
{
	struct runner_point *p = arg;

	p->slots[tid].runq_fd = lab_runq_open();
}

static void runner_ctr_open_fn(void *arg, unsigned tid)
{
	struct runner_point *p = arg;

	lab_ctr_thread_open(p->ctr, tid);
}

static int runner_alloc(struct runner_point *p, struct lab_point_rec *rec, struct lab_err *err)
{
	const struct lab_point_spec *spec = p->spec;
	unsigned n = p->nw, reps = lab__runner_pilot(spec->h);

	p->omp_cpus = malloc(spec->n * sizeof(*p->omp_cpus));
	if (p->omp_cpus)
		for (unsigned i = 0; i < spec->n; i++)
			p->omp_cpus[i] = -1;
	p->ctx.omp_cpus = p->omp_cpus;
	if (spec->kernel->flags & LAB_KF_OPENMP) {
		p->omp_runq_fd = malloc(spec->n * sizeof(*p->omp_runq_fd));
		p->omp_rq0 = calloc(spec->n, sizeof(*p->omp_rq0));
		for (unsigned i = 0; p->omp_runq_fd && i < spec->n; i++)
			p->omp_runq_fd[i] = -1; /* before any exit: the end closes what is >= 0 */
		if (!p->omp_runq_fd || !p->omp_rq0)
			return lab_err_set(err, LAB_ENOMEM, "out of memory for %u threads",
			                   spec->n);
		p->ctx.omp_runq_fd = p->omp_runq_fd;
	}
	p->threads = calloc(n, sizeof(*p->threads));
	p->slots = runner_aligned(n * sizeof(*p->slots));
	for (unsigned i = 0; p->slots && i < n; i++)
		p->slots[i].runq_fd = -1; /* before any exit: the end closes what is >= 0 */
	p->acc = calloc(n, sizeof(*p->acc));
	rec->samples = calloc(reps, sizeof(*rec->samples));
	rec->threads = calloc((size_t)reps * n, sizeof(*rec->threads));
	p->cap = reps;
	if (!p->threads || !p->slots || !rec->samples || !rec->threads || !p->omp_cpus || !p->acc)
		return lab_err_set(err, LAB_ENOMEM, "out of memory for %u threads x %u reps", n,
		                   reps);
	for (unsigned i = 0; i < n; i++) {
		struct lab_thread *t = runner_aligned(sizeof(*t));
		if (!t)
			return lab_err_set(err, LAB_ENOMEM, "out of memory for thread %u", i);
		t->id = i;
		t->cpu = spec->cpus[i];
		t->stop = &p->stop;
		p->threads[i] = t;
	}
	return 0;
}

/* Frees what runner_alloc took and closes the schedstat files (the record's arrays stay). */
static void runner_free(struct runner_point *p)
{
	free(p->omp_cpus);
	for (unsigned i = 0; p->threads && i < p->nw; i++)
		free(p->threads[i]);
	free(p->threads);
	for (unsigned i = 0; p->slots && i < p->nw; i++)
		if (p->slots[i].runq_fd >= 0)
			close(p->slots[i].runq_fd);
	for (unsigned i = 0; p->omp_runq_fd && i < p->spec->n; i++)
		if (p->omp_runq_fd[i] >= 0)
			close(p->omp_runq_fd[i]);
	free(p->omp_runq_fd);
	free(p->omp_rq0);
	free(p->slots);
	free(p->acc);
}

/* Setup on the main thread, then thread_setup on every pinned worker. */
static int runner_setup(struct runner_point *p, struct lab_err *err)
{
	const struct lab_kernel *k = p->spec->kernel;

	if (k->setup && k->setup(&p->ctx, err))
		return lab_err_prefix(err, "setup: ");
	if (!k->thread_setup)
		return 0;
	lab_team_run(p->team, runner_thread_setup_fn, p);
	for (unsigned i = 0; i < p->nw; i++)
		if (p->slots[i].rc) {
			*err = p->slots[i].err;
			return lab_err_prefix(err, "thread_setup of thread %u: ", i);
		}
	return 0;
}

/* Closes the counters into rec; with counters = require, an event never counted fails it. */
static int runner_ctr_end(struct runner_point *p, struct lab_point_rec *rec, int rc,
                          struct lab_err *err)
{
	struct lab_err cerr;

	if (!p->ctr)
		return rc;
	rec->ctr = malloc(sizeof(*rec->ctr));
	int crc = lab_ctr_point_end(p->ctr, rec->ctr, &cerr);
	p->ctr = NULL;
	if (crc && rc == 0 && rec->status == LAB_STATUS_OK) {
		*err = cerr;
		return crc;
	}
	return rc;
}

static void runner_fail(struct lab_point_rec *rec, const struct lab_err *err)
{
	rec->status = LAB_STATUS_FAILED;
	snprintf(rec->reason, sizeof(rec->reason), "%s", err->msg);
}

static int runner_measure(struct runner_point *p, struct lab_point_rec *rec, struct lab_err *err)
{
	const struct lab_kernel *k = p->spec->kernel;
	const struct lab_hparams *h = p->spec->h;

	if (h->counters != LAB_CTR_OFF) {
		int rc = lab_ctr_point_begin(&p->ctr, h->counters, h->events, p->r->ctr_host,
		                             p->r->pe_ops, p->nw, err);
		if (rc)
			return rc;
		lab_team_run(p->team, runner_ctr_open_fn, p);
	}
	rec->load_limit = lab_runner_load_limit(h, p->spec->n, p->r->load.ncpus);
	uint64_t iters = lab__runner_calibrate(p);
	/* run.json's iters_per_sample counts every chunk of the sample. */
	rec->iters = iters > UINT64_MAX / p->chunks ? UINT64_MAX : iters * p->chunks;
	/*
	 * No reset between points: /proc/stat counts in 10 ms ticks, so the first samples of a
	 * point read their foreign load over a window that reaches back into the last point.
	 */
	if (p->r->load_ok && !p->r->foreign)
		lab_load_snap(&p->r->load, err);
	p->ts_ns = lab_clock_ns();
	for (unsigned rep = 0; rep < p->cap; rep++) {
		int rc = lab__runner_take(p, rec, rep, iters, err);
		if (rc)
			return rc;
	}
	double target = 0;
	if (h->runs <= 1 && lab_prec_parse(h->precision, &target, err) == 0 && target > 0) {
		int rc = lab__runner_prec_samples(p, rec, iters, target, err);
		if (rc)
			return rc;
	}
	lab_ctr_select_pass(p->ctr, 0, false);
	if (!k->verify)
		return 0;
	if (k->verify(&p->ctx, p->threads, p->nw, err)) {
		rec->verify = LAB_VERIFY_FAIL;
		runner_fail(rec, err);
		return 0;
	}
	rec->verify = LAB_VERIFY_PASS;
	return 0;
}

int lab_runner_point(struct lab_runner *r, const struct lab_point_spec *spec,
                     struct lab_point_rec *rec, struct lab_err *err)
{
	struct runner_point p = {
	    .r = r, .spec = spec, .ctr_first = true, .ctr_last = true, .t0_ns = lab_clock_ns()};
	const struct lab_kernel *k = spec->kernel;
	struct lab_membind mb;
	struct lab_err mb_err;
	struct lab_c2c_session c2c = {0};
	bool set_up = false;
	int rc;

	memset(rec, 0, sizeof(*rec));
	rec->nthreads = spec->n;
	rec->pid = (int)getpid();
	rec->last_run = true;
	rec->runs_planned = 1;
	p.timed = (k->flags & LAB_KF_TIMED) != 0;
	p.nw = k->flags & LAB_KF_OPENMP ? 1 : spec->n;
	rec->windows = p.chunks = lab__runner_chunks(&p);
	rec->nworkers = p.nw;
	p.ctx = (struct lab_ctx){.params = spec->kparams,
	                         .nthreads = spec->n,
	                         .cpus = spec->cpus,
	                         .env = r->env,
	                         .seed = spec->h->seed,
	                         .facts = &rec->facts};
	if (k->work_per_unit) {
		k->work_per_unit(spec->kparams, &rec->work);
		rec->has_work = true;
	}
	rc = runner_alloc(&p, rec, err);
	if (rc == 0)
		rc = lab_team_create(&p.team, r->topo, spec->cpus, p.nw, r->bind, err);
	if (rc == 0 && !r->runq)
		lab_team_run(p.team, runner_runq_open_fn, &p);
	/* The planner checked the text; a spec built by hand without it means local. */
	if (lab_membind_parse(spec->h->membind, &mb, &mb_err))
		mb = (struct lab_membind){.kind = LAB_MEMBIND_LOCAL};
	lab_membind_begin(&mb);
	if (rc == 0) {
		set_up = true;
		rc = runner_setup(&p, err);
	}
	if (rc == 0 && spec->h->perf_c2c)
		lab_c2c_point_begin(&c2c, r->ctr_host, &p.ctx);
	if (rc == 0)
		rc = runner_measure(&p, rec, err);
	lab_c2c_point_end(&c2c, &p.ctx); /* stops perf whatever happened */
	/* Where the pages are after the samples, before teardown frees them; local says nothing. */
	if (rc == 0 && mb.kind != LAB_MEMBIND_LOCAL)
		lab_membind_facts(&p.ctx, spec->h->membind);
	rc = runner_ctr_end(&p, rec, rc, err);
	/* Consecutive points whose load outlasted every retry; a point that ran clean or whose
	 * retry found the machine quiet resets it. */
	if (rec->nreps) {
		struct lab_runner_persist *ps = lab_runner_persist(r, spec->n);
		ps->points = p.retries_spent ? ps->points + 1 : 0;
	}
	if (rc && rc != -LAB_EINTR) {
		runner_fail(rec, err);
		rc = 0;
	}
	if (set_up && k->teardown)
		k->teardown(&p.ctx, p.threads, p.nw);
	lab_membind_end();
	lab_team_destroy(p.team);
	if (k->flags & LAB_KF_OPENMP) {
		rec->omp_cpus = p.omp_cpus; /* the record owns them now */
		p.omp_cpus = NULL;
	}
	runner_free(&p);
	return rc;
}

void lab_point_rec_free(struct lab_point_rec *rec)
{
	free(rec->samples);
	free(rec->threads);
	free(rec->omp_cpus);
	free(rec->ctr);
	rec->ctr = NULL;
	lab_facts_clear(&rec->facts);
	rec->samples = NULL;
	rec->threads = NULL;
	rec->omp_cpus = NULL;
}

int lab_ctx_omp_bind(const struct lab_ctx *ctx, unsigned i)
{
	cpu_set_t set;

	if (i >= ctx->nthreads || !ctx->omp_cpus)
		return -LAB_EINVAL;
	/* Only on the machine we run on: a synthetic topology's CPUs do not exist here. */
	if (ctx->env->thissystem) {
		CPU_ZERO(&set);
		CPU_SET(ctx->cpus[i], &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			return -LAB_ESYS;
	}
	ctx->omp_cpus[i] = sched_getcpu();
	if (ctx->omp_runq_fd) { /* a second bind of i may come from another thread */
		if (ctx->omp_runq_fd[i] >= 0)
			close(ctx->omp_runq_fd[i]);
		ctx->omp_runq_fd[i] = lab_runq_open();
	}
	return 0;
}
