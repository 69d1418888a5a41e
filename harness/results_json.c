/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.json: provenance, the config as written and resolved, and every point's outcome. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/counters.h"
#include "harness/json.h"
#include "harness/param.h"
#include "harness/record_schema.h"
#include "harness/results_internal.h"

static const char *const json_status_names[] = {"ok", "skipped", "failed"};
static const char *const json_verify_names[] = {"none", "pass", "fail"};
static const char *const json_agg_names[] = {"sum", "mean", "max", "min", "kernel"};

static void json_utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void json_resolved(struct lab_json *j, const struct lab_experiment *e)
{
	lab_json_obj_open(j, "resolved");
	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		lab_json_obj_open(j, r->param->key);
		lab_json_str(j, "value", r->text);
		lab_json_str(j, "source", lab_src_name(r->src));
		lab_json_str(j, "file", r->file);
		lab_json_int(j, "line", r->line);
		lab_json_bool(j, "harness", r->harness);
		lab_json_obj_close(j);
	}
	lab_json_obj_close(j);
}

/*
 * A point that has not finished: its plan, and whether it is still to come ("planned"), under
 * way ("running"), or will never run because the run ended ("not_run"). The keys of a finished
 * point are all there, with nothing measured.
 */
static void json_point_pending(struct lab_json *j, const struct lab_results *res,
                               const struct lab_point *pt, bool ended)
{
	const struct lab_results_pt *p = &res->pts[pt->id];
	bool omp = (res->plan->exp[pt->exp].kernel->flags & LAB_KF_OPENMP) != 0;

	lab_json_obj_open(j, NULL);
	lab_plan_point_json(j, pt);
	lab_json_str(j, LAB_KEY_TEAM, omp ? "openmp" : "threads");
	/* a point the plan skipped is skipped whether or not the run reached it (and has no CPUs:
	 * "not_run" with "cpus" [] was refused by the analyzer) */
	bool skip = pt->state == LAB_POINT_SKIPPED;
	lab_json_str(j, "status",
	             skip         ? "skipped"
	             : ended      ? "not_run"
	             : p->running ? "running"
	                          : "planned");
	lab_json_str(j, "reason",
	             skip         ? pt->reason
	             : !ended     ? ""
	             : p->running ? "the run ended while this point ran; its samples were not kept"
	                          : "the run ended before this point");
	lab_json_str(j, LAB_KEY_VERIFY, "none");
	lab_json_uint(j, "iters_per_sample", 0);
	lab_json_uint(j, LAB_KEY_REPS, 0);
	lab_json_uint(j, "flagged", 0);
	lab_json_obj_close(j);
}

/* The run level and the precision target of a point (harness/precision.h). */
static void json_point_levels(struct lab_json *j, const struct lab_results_pt *p)
{
	const struct lab_prec_rec *pr = &p->prec;

	lab_json_uint(j, LAB_KEY_RUNS, p->runs);
	lab_json_uint(j, LAB_KEY_RUNS_PLANNED, p->runs_planned);
	if (p->wall_ns)
		lab_json_num(j, LAB_KEY_WALL_S, (double)p->wall_ns / 1e9);
	if (p->pids) {
		lab_json_arr_open(j, LAB_KEY_PROCESSES);
		for (unsigned i = 0; i < p->runs; i++)
			lab_json_int(j, NULL, p->pids[i]);
		lab_json_arr_close(j);
	}
	if (!pr->on)
		return;
	lab_json_num(j, LAB_KEY_PRECISION_TARGET, pr->target);
	lab_json_num(j, LAB_KEY_PRECISION_ACHIEVED, pr->achieved);
	lab_json_uint(j, LAB_KEY_SAMPLES, pr->samples);
	lab_json_bool(j, LAB_KEY_BUDGET_EXHAUSTED, pr->budget_exhausted);
	if (pr->total_exhausted) /* the config's total_budget, not the point's, ran out */
		lab_json_bool(j, LAB_KEY_TOTAL_EXHAUSTED, true);
	lab_json_obj_open(j, "precision");
	lab_json_str(j, "rule", "stein_two_stage");
	lab_json_str(j, "level", pr->by_runs ? "runs" : "samples");
	lab_json_uint(j, "pilot", pr->pilot);
	lab_json_num(j, "pilot_sd", pr->pilot_sd);
	lab_json_uint(j, "planned", pr->planned);
	lab_json_num(j, "mean", pr->mean);
	lab_json_num(j, "halfwidth", pr->halfwidth);
	lab_json_uint(j, "kept", pr->kept);
	lab_json_num(j, "spent_s", (double)pr->spent_ns / 1e9);
	lab_json_obj_close(j);
}

/* 1 when some kept sample of p was taken more than once. */
static int json_any_retried(const struct lab_results_pt *p)
{
	for (unsigned i = 0; i < p->nreps; i++)
		if (p->sample_attempts[i] > 1)
			return 1;
	return 0;
}

/*
 * Why a finished point is as it is: the reason its runs gave, or, once the run ended before the
 * point's last planned run, that it has fewer runs than planned (its status stays the one its
 * runs earned: what they measured is good, there is less of it).
 */
static const char *json_point_reason(const struct lab_results_pt *p, const struct lab_point *pt,
                                     bool ended, char *buf, size_t len)
{
	if (p->reason[0] || !ended || p->complete)
		return p->reason;
	if (strcmp(pt->h.precision, "off")) /* runs_planned is the target's cap, not a plan */
		snprintf(buf, len,
		         "the run ended after %u of this point's runs, before its precision target "
		         "or budget did",
		         p->runs);
	else
		snprintf(buf, len, "the run ended after %u of this point's %u planned runs",
		         p->runs, p->runs_planned);
	return buf;
}

static void json_point(struct lab_json *j, const struct lab_results *res,
                       const struct lab_point *pt, bool ended)
{
	const struct lab_results_pt *p = &res->pts[pt->id];
	/* from the kernel, as the runner decides it (one worker row per sample in threads.csv),
	 * not from omp_cpus, which a failed allocation leaves out */
	bool omp = (res->plan->exp[pt->exp].kernel->flags & LAB_KF_OPENMP) != 0;
	char why[160];

	lab_json_obj_open(j, NULL);
	lab_plan_point_json(j, pt);
	lab_json_str(j, LAB_KEY_TEAM, omp ? "openmp" : "threads");
	if (p->omp_cpus) {
		lab_json_arr_open(j, "omp_cpus");
		for (unsigned i = 0; i < pt->nthreads; i++)
			lab_json_int(j, NULL, p->omp_cpus[i]);
		lab_json_arr_close(j);
	}
	lab_json_str(j, LAB_KEY_STATUS, json_status_names[p->status]);
	lab_json_str(j, LAB_KEY_REASON, json_point_reason(p, pt, ended, why, sizeof(why)));
	lab_json_str(j, LAB_KEY_VERIFY, json_verify_names[p->verify]);
	lab_json_uint(j, "iters_per_sample", p->iters);
	if (p->windows)
		lab_json_uint(j, LAB_KEY_SAMPLE_WINDOWS, p->windows);
	lab_json_uint(j, LAB_KEY_REPS, p->nreps);
	lab_json_uint(j, "flagged", p->nflagged);
	lab_json_uint(j, LAB_KEY_FLAGGED_RUNQ, p->nflagged_runq);
	lab_json_uint(j, "attempts", p->attempts);
	/* per kept sample, only where one was retried: all 1s made a point of 100,000 reps
	 * 100,000 values, and 170 such points more than the analyzer reads */
	if (p->sample_attempts && json_any_retried(p)) {
		lab_json_arr_open(j, "sample_attempts");
		for (unsigned i = 0; i < p->nreps; i++)
			lab_json_uint(j, NULL, p->sample_attempts[i]);
		lab_json_arr_close(j);
	}
	if (p->status == LAB_STATUS_OK)
		lab_json_num(j, "load_limit_cpus", p->load_limit);
	if (p->ctr)
		lab_ctr_info_json(j, p->ctr);
	if (p->has_work) {
		lab_json_obj_open(j, "work_per_unit");
		lab_json_num(j, "bytes_read", p->work.bytes_read);
		lab_json_num(j, "bytes_written", p->work.bytes_written);
		lab_json_num(j, "flops", p->work.flops);
		lab_json_num(j, "bytes_write_allocate", p->work.bytes_write_allocate);
		lab_json_bool(j, "bandwidth_bound", p->work.bandwidth_bound);
		lab_json_bool(j, "adds_only", p->work.adds_only);
		lab_json_obj_close(j);
	}
	lab_facts_json(j, "point_facts", p->facts);
	json_point_levels(j, p);
	lab_json_obj_close(j);
}

static const char *lab_work_scope_name(unsigned scope)
{
	static const char *const names[] = LAB_WORK_SCOPE_NAMES;

	return scope < sizeof(names) / sizeof(names[0]) ? names[scope] : names[LAB_WORK_TEAM];
}

static const char *lab_cost_kind_name(unsigned kind)
{
	static const char *const names[] = LAB_COST_KIND_NAMES;

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : names[LAB_COST_WORK];
}

static void json_experiment(struct lab_json *j, const struct lab_results *res,
                            const struct lab_experiment *e, bool ended)
{
	const struct lab_metric *m = e->kernel->metrics;

	lab_json_obj_open(j, NULL);
	lab_json_str(j, LAB_KEY_NAME, e->name);
	lab_json_str(j, LAB_KEY_KERNEL, e->kernel->name);
	lab_json_str(j, "file", e->file);
	lab_json_int(j, "line", e->line);
	lab_json_str(j, LAB_KEY_WORK_UNIT, e->kernel->work_unit ? e->kernel->work_unit : "iter");
	lab_json_str(j, LAB_KEY_WORK_SCOPE, lab_work_scope_name(e->kernel->work_scope));
	lab_json_str(j, LAB_KEY_COST_KIND, lab_cost_kind_name(e->kernel->cost_kind));
	if (e->kernel->views) {
		lab_json_arr_open(j, LAB_KEY_VIEWS);
		for (const char *const *v = e->kernel->views; *v; v++)
			lab_json_str(j, NULL, *v);
		lab_json_arr_close(j);
	}
	lab_json_str(j, LAB_KEY_SCALING,
	             e->npoints && res->plan->pts[e->first_point].h.scaling == LAB_SCALING_WEAK
	                 ? "weak"
	                 : "strong");
	lab_json_arr_open(j, "metrics");
	for (unsigned k = 0; m && m[k].name; k++) {
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "name", m[k].name);
		lab_json_str(j, "unit", m[k].unit);
		lab_json_str(j, "agg", json_agg_names[m[k].agg]);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
	json_resolved(j, e);
	lab_json_arr_open(j, LAB_KEY_POINTS);
	for (unsigned i = 0; i < e->npoints; i++) {
		const struct lab_point *pt = &res->plan->pts[e->first_point + i];
		if (res->pts[pt->id].done)
			json_point(j, res, pt, ended);
		else
			json_point_pending(j, res, pt, ended);
	}
	lab_json_arr_close(j);
	lab_json_obj_close(j);
}

static void json_config(struct lab_json *j, const struct lab_cfg *cfg)
{
	lab_json_obj_open(j, "config");
	lab_json_arr_open(j, "files");
	for (unsigned i = 0; i < cfg->nfiles; i++)
		lab_json_str(j, NULL, cfg->files[i]);
	lab_json_arr_close(j);
	lab_json_arr_open(j, "sets");
	for (unsigned i = 0; i < cfg->nset; i++) {
		char *s = NULL;
		if (asprintf(&s, "%s.%s=%s", cfg->set_section[i], cfg->set[i].key,
		             cfg->set[i].value) >= 0)
			lab_json_str(j, NULL, s);
		free(s);
	}
	lab_json_arr_close(j);
	lab_json_str(j, "text", cfg->text ? cfg->text : "");
	lab_json_obj_close(j);
}

/* The [lessons] claims: as written, and with canonical values for the analyzer. */
static void json_lessons(struct lab_json *j, const struct lab_plan *plan)
{
	lab_json_arr_open(j, "lessons");
	for (unsigned i = 0; i < plan->nlessons; i++) {
		const struct lab_plan_lesson *l = &plan->lessons[i];
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "name", l->name);
		lab_json_str(j, "claim", l->claim);
		lab_json_str(j, "expr", l->expr);
		lab_json_str(j, "file", l->file);
		lab_json_int(j, "line", l->line);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

static void json_selfcheck(struct lab_json *j, const struct lab_selfcheck *sc)
{
	lab_json_obj_open(j, "self_check");
	if (sc) {
		lab_json_num(j, "overhead_ns_per_iter", sc->overhead_ns_per_iter);
		lab_json_num(j, "spin_50us_ns", sc->spin_50us_ns);
		lab_json_num(j, "spin_error", sc->spin_error);
		lab_json_num(j, "core_ghz", sc->core_ghz);
		lab_json_str(j, "core_ghz_method", LAB_SELFCHECK_GHZ_METHOD);
	} else {
		lab_json_null(j, "overhead_ns_per_iter");
		lab_json_null(j, "spin_50us_ns");
		lab_json_null(j, "spin_error");
		lab_json_null(j, "core_ghz");
	}
	lab_json_obj_close(j);
}

void lab__results_run_json(FILE *f, const struct lab_results *res, const char *status)
{
	const struct lab_results_info *in = &res->info;
	struct lab_json j;
	char now[32];

	json_utc_now(now, sizeof(now));
	lab_json_begin(&j, f);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, LAB_KEY_SCHEMA, LAB_SCHEMA_RUN);
	lab_json_str(&j, LAB_KEY_STATUS, status);
	if (res->error[0])
		lab_json_str(&j, "error", res->error);
	lab_prov_write_build(&j);
	lab_json_str(&j, "started_utc", in->started_utc);
	lab_json_str(&j, "finished_utc", strcmp(status, "running") ? now : NULL);
	lab_json_arr_open(&j, "command_line");
	for (int i = 0; i < in->argc; i++)
		lab_json_str(&j, NULL, in->argv[i]);
	lab_json_arr_close(&j);
	lab_prov_write_host(in->prov, in->topo, &j);
	json_selfcheck(&j, in->selfcheck);
	lab_json_obj_open(&j, "run_order");
	lab_json_bool(&j, "shuffled", lab_runner_shuffles(res->plan));
	lab_json_uint(&j, "seed", lab_runner_order_seed(res->plan));
	lab_json_obj_close(&j);
	lab_json_obj_open(&j, LAB_KEY_PROGRESS);
	lab_json_uint(&j, "points_done", res->ndone);
	lab_json_uint(&j, "points_planned", res->plan->npts);
	lab_json_obj_close(&j);
	json_config(&j, in->cfg);
	json_lessons(&j, res->plan);
	lab_json_arr_open(&j, LAB_KEY_EXPERIMENTS);
	for (unsigned e = 0; e < res->plan->nexp; e++)
		if (res->plan->exp[e].npoints)
			json_experiment(&j, res, &res->plan->exp[e],
			                strcmp(status, "running") != 0);
	lab_json_arr_close(&j);
	lab_json_obj_close(&j);
	lab_json_end(&j);
}
