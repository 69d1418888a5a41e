/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Expansion of an experiment's sweeps into points: product order, CPU lists, kernel checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/env.h"
#include "harness/json.h"
#include "harness/membind.h"
#include "harness/param.h"
#include "harness/plan_internal.h"
#include "harness/prov.h"

#define PLAN_PAIRS_MAX 65536

/* "k=v;k=v" of every kernel key that applies, then the placement (and the pair for pair
 * placements). */
static char *plan_params_text(const struct lab_experiment *e, const void *kparams,
                              const struct lab_hparams *h, const int *pair)
{
	size_t cap = 320, used = 0;
	char *s = malloc(cap), val[128];

	for (const struct lab_param *p = e->kernel->params; s && p->key; p++) {
		if (!lab_param_applies(e->kernel->params, p, kparams))
			continue; /* stride of a struct layout: no part of what the point is */
		lab_param_format(p, kparams, val, sizeof(val));
		size_t need = strlen(p->key) + strlen(val) + 3;
		if (used + need + 2 * LAB_STR_MAX + 64 > cap) {
			cap = 2 * (used + need) + 2 * LAB_STR_MAX + 64;
			char *grown = realloc(s, cap);
			if (!grown) {
				free(s);
				return NULL;
			}
			s = grown;
		}
		used += (size_t)snprintf(s + used, cap - used, "%s=%s;", p->key, val);
	}
	if (!s)
		return NULL;
	used += (size_t)snprintf(s + used, cap - used, "placement=%s", h->placement);
	/* Only when set: points that differ in membind are different series; the default adds
	 * nothing, so results without the key read as before. */
	if (strcmp(h->membind, "local") != 0)
		used += (size_t)snprintf(s + used, cap - used, ";membind=%s", h->membind);
	if (h->perf_c2c) /* perf's sampling costs time: its points are a series of their own */
		used += (size_t)snprintf(s + used, cap - used, ";perf_c2c=on");
	if (pair)
		snprintf(s + used, cap - used, ";pair=%d-%d", pair[0], pair[1]);
	return s;
}

static struct lab_point *plan_point_add(struct lab_plan *plan)
{
	if ((plan->npts & (plan->npts - 1)) == 0) {
		unsigned cap = plan->npts ? plan->npts * 2 : 16;
		struct lab_point *grown = realloc(plan->pts, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		plan->pts = grown;
	}
	struct lab_point *pt = &plan->pts[plan->npts];
	*pt = (struct lab_point){.id = plan->npts};
	plan->npts++;
	return pt;
}

/*
 * Reports a check() error. A message that starts "key = value: " names a key of e: it is
 * reported at the line that set the key, like any other bad value; otherwise at the section.
 */
static void plan_check_error(struct lab_diag *d, const struct lab_experiment *e, const char *msg)
{
	const char *eq = strstr(msg, " = ");
	char *line = NULL;

	for (unsigned k = 0; eq && k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		size_t n = strlen(r->param->key);
		if ((size_t)(eq - msg) != n || strncmp(msg, r->param->key, n) != 0)
			continue;
		const char *colon = strstr(eq + 3, ": ");
		if (!colon)
			break;
		char value[LAB_ERR_MSG_MAX];
		snprintf(value, sizeof(value), "%.*s", (int)(colon - eq - 3), eq + 3);
		if (r->nvals <= 1) {
			lab__plan_key_error(d, e, r, value, colon + 2);
			return;
		}
		/* A swept key: name the text as written and the value that failed. */
		if (asprintf(&line, "value %s: %s", value, colon + 2) >= 0)
			lab__plan_key_error(d, e, r, r->text, line);
		free(line);
		return;
	}
	if (asprintf(&line, "%s:%d: [%s]: %s", e->file, e->line, e->name, msg) >= 0)
		lab__plan_diag_once(d, line);
	free(line);
}

/*
 * membind = node:N on a machine without node N skips the point, like placement = node:N (the
 * kernel's own reason, checked first, wins), so one config serves 1- and 2-node machines.
 */
static int plan_membind_check(const struct lab_hparams *h, const struct lab_env *env,
                              struct lab_err *err)
{
	struct lab_membind m;

	LAB_BUG_ON(lab_membind_parse(h->membind, &m, err) != 0); /* checked when expanded */
	return lab_membind_check(&m, env->numa_nodes, err);
}

/* Adds one point on cpus (n of them; NULL: none yet, only to be skipped); runs the kernel's
 * check. */
static void plan_point_emit(struct lab_plan *plan, struct lab_experiment *e,
                            const struct lab_hparams *h, const void *kparams, const int *cpus,
                            unsigned n, const int *pair, struct lab_diag *d)
{
	struct lab_point *pt = plan_point_add(plan);
	struct lab_err err = {0};

	if (!pt)
		goto oom;
	pt->exp = (unsigned)(e - plan->exp);
	pt->h = *h;
	/* planned as written (messages quote it); recorded, selected and compared canonical */
	lab_placement_canon(h->placement, pt->h.placement, sizeof(pt->h.placement));
	pt->nthreads = n;
	pt->kparams = malloc(e->kernel->params_size ? e->kernel->params_size : 1);
	pt->cpus = malloc(n * sizeof(*pt->cpus));
	pt->params_text = plan_params_text(e, kparams, &pt->h, pair);
	if (!pt->kparams || !pt->cpus || !pt->params_text)
		goto oom;
	memcpy(pt->kparams, kparams, e->kernel->params_size);
	for (unsigned i = 0; i < n; i++)
		pt->cpus[i] = cpus ? cpus[i] : -1;
	pt->ncpus = cpus ? n : 0;
	int rc = lab_kernel_check(e->kernel, kparams, n, &plan->env, &err);
	if (rc == 0)
		rc = plan_membind_check(h, &plan->env, &err);
	if (rc == LAB_SKIP) {
		pt->state = LAB_POINT_SKIPPED;
		snprintf(pt->reason, sizeof(pt->reason), "%s", err.msg);
	} else if (rc < 0) {
		plan_check_error(d, e, err.msg);
	}
	return;
oom:
	lab__plan_diag_once(d, "lab: out of memory while planning");
}

static void plan_pairs(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                       const struct lab_hparams *h, const void *kparams, struct lab_diag *d)
{
	int(*pairs)[2] = malloc(PLAN_PAIRS_MAX * sizeof(*pairs));
	struct lab_err err;

	if (!pairs) {
		lab__plan_diag_once(d, "lab: out of memory while planning");
		return;
	}
	int n =
	    lab_topo_plan_pairs(topo, (unsigned)h->max_pairs, h->seed, pairs, PLAN_PAIRS_MAX, &err);
	if (n < 0)
		lab__plan_key_error(d, e, lab__plan_key(e, "placement"), h->placement, err.msg);
	else if (n == 0)
		lab__plan_key_error(d, e, lab__plan_key(e, "placement"), h->placement,
		                    "no CPU pairs (needs at least 2 usable CPUs)");
	else if (lab_topo_is_standin(topo) &&
	         ((unsigned)n > PLAN_PAIRS_MAX || (unsigned)n > LAB_POINTS_MAX - plan->npts))
		n = 0; /* the stand-in's 1024 CPUs' pairs, not the config's: nothing to report */
	else if ((unsigned)n > PLAN_PAIRS_MAX || (unsigned)n > LAB_POINTS_MAX - plan->npts) {
		char what[200];

		/* a point per pair: n of them (all pairs of 2,048 CPUs: 2 million) */
		unsigned room = LAB_POINTS_MAX - plan->npts;
		snprintf(what, sizeof(what),
		         "%d CPU pairs here, a point each (allowed at most %u%s; set max_pairs)", n,
		         room < PLAN_PAIRS_MAX ? room : PLAN_PAIRS_MAX,
		         room < PLAN_PAIRS_MAX ? " after the points before" : "");
		lab__plan_key_error(d, e, lab__plan_key(e, "placement"), h->placement, what);
		n = 0;
	}
	for (int i = 0; i < n; i++)
		plan_point_emit(plan, e, h, kparams, pairs[i], 2, pairs[i], d);
	free(pairs);
}

/* Adds one point (on cpus, as plan_point_emit) that does not run here, skipped with why unless
 * the kernel's check skipped it first (its reason is the better one) or found an error. */
static void plan_point_skip(struct lab_plan *plan, struct lab_experiment *e,
                            const struct lab_hparams *h, const void *kparams, const int *cpus,
                            unsigned n, const char *why, struct lab_diag *d)
{
	unsigned before = plan->npts;

	plan_point_emit(plan, e, h, kparams, cpus, n, NULL, d);
	if (plan->npts == before + 1 && plan->pts[before].state != LAB_POINT_SKIPPED) {
		plan->pts[before].state = LAB_POINT_SKIPPED;
		snprintf(plan->pts[before].reason, sizeof(plan->pts[before].reason), "%s", why);
	}
}

/*
 * min_cpus is more than the CPUs this process may use: the point is skipped with that reason
 * and has no CPUs; nothing runs. What lab_topo_plan would refuse on any machine (a list or an
 * expression of fewer CPUs than threads) is still an error: the config is wrong everywhere.
 */
static void plan_short(struct lab_plan *plan, struct lab_experiment *e, const struct lab_hparams *h,
                       const struct lab_placement *place, const void *kparams, unsigned n,
                       struct lab_diag *d)
{
	struct lab_err err;
	char why[128];

	if (lab_placement_check_threads(place, n, &err) < 0) {
		lab__plan_key_error(d, e, lab__plan_key(e, "placement"), h->placement, err.msg);
		return;
	}
	snprintf(why, sizeof(why),
	         "needs at least %u CPUs (min_cpus = %u); this process may use %u", e->cpus_short,
	         e->cpus_short, plan->env.ncpus);
	plan_point_skip(plan, e, h, kparams, NULL, n, why, d);
}

/* The checks of a point that hold on any machine, before a skip can hide them: a team kernel
 * cannot run on pairs. Returns false when it reported one. */
static bool plan_placement_fits(struct lab_experiment *e, const struct lab_hparams *h,
                                const struct lab_placement *place, struct lab_diag *d)
{
	char what[400];

	if (place->kind != LAB_PLACE_PAIRS || (e->kernel->flags & LAB_KF_PAIRS))
		return true;
	snprintf(what, sizeof(what),
	         "kernel '%s' runs a team, not CPU pairs (allowed compact, cores, scatter, "
	         "list:...)",
	         e->kernel->name);
	lab__plan_key_error(d, e, lab__plan_key(e, "placement"), h->placement, what);
	return false;
}

/* The topology refused placement value text at some thread count: one error per value (the
 * first, smallest thread count), not one per thread count of a sweep (730 lines for one
 * placement list past its CPUs, red team). */
static void plan_placement_refused(struct lab_experiment *e, const unsigned *vidx, const char *text,
                                   const char *msg, struct lab_diag *d)
{
	struct lab_resolved *r = lab__plan_key(e, "placement");
	unsigned k = (unsigned)(r - e->keys), v = vidx[k];

	if (!r->refused)
		r->refused = calloc(r->nvals ? r->nvals : 1, 1); /* NULL: say each */
	if (r->refused && r->refused[v])
		return;
	if (r->refused)
		r->refused[v] = 1;
	lab__plan_key_error(d, e, r, text, msg);
}

/* The CPU order of the placement value an experiment's points used last: a sweep of 100,000
 * points on 4,096 PUs ordered them once, not once a point (4 ms each, red team). */
struct plan_order_memo {
	long parsed; /* the placement value's index place holds; -1: none yet */
	struct lab_placement place;
	long vidx; /* the placement value's index order holds; -1: none yet */
	int rc;    /* of lab_topo_plan_order, with err */
	struct lab_err err;
	int *order;
	unsigned count;
};

static int plan_cpus(struct plan_order_memo *m, const struct lab_topo *topo,
                     const struct lab_placement *place, unsigned vidx, unsigned n, int *cpus,
                     struct lab_err *err)
{
	if (m->vidx != (long)vidx) {
		free(m->order);
		m->order = NULL;
		m->rc = lab_topo_plan_order(topo, place, &m->order, &m->count, &m->err);
		m->vidx = m->rc == -LAB_ENOMEM ? -1 : (long)vidx;
	}
	if (m->rc < 0) {
		*err = m->err;
		return m->rc;
	}
	return lab_topo_plan_take(topo, place, m->order, m->count, n, cpus, err);
}

/* The placement of value pv (text), parsed once for the points that share it: an expression of
 * 4,096 CPUs sorts them to be read. */
static void plan_place(struct plan_order_memo *m, const char *text, unsigned pv,
                       struct lab_placement *place)
{
	struct lab_err err;

	if (m->parsed != (long)pv) {
		LAB_BUG_ON(lab_placement_parse(text, &m->place, &err) != 0);
		m->parsed = pv;
	}
	*place = m->place;
}

/* The values of combination vidx into h and kparams; false when it repeats a point: a swept
 * key that does not apply there (stride of a struct layout) makes the point at its first
 * value only. */
static bool plan_values(const struct lab_experiment *e, const unsigned *vidx, struct lab_hparams *h,
                        void *kparams)
{
	struct lab_err err;

	for (unsigned k = 0; k < e->nkeys; k++) {
		const struct lab_resolved *r = &e->keys[k];
		int rc = lab_param_parse(r->param, r->vals[vidx[k]],
		                         r->harness ? (void *)h : kparams, &err);
		LAB_BUG_ON(rc != 0); /* every value was checked by plan_expand_keys */
	}
	for (unsigned k = 0; k < e->nkeys; k++)
		if (!e->keys[k].harness && vidx[k] &&
		    !lab_param_applies(e->kernel->params, e->keys[k].param, kparams))
			return false;
	return true;
}

/* Plans one combination of sweep values (vidx[k] indexes e->keys[k].vals). */
static void plan_combination(struct lab_plan *plan, struct lab_experiment *e,
                             const struct lab_topo *topo, const unsigned *vidx, void *kparams,
                             struct plan_order_memo *memo, struct lab_diag *d)
{
	struct lab_hparams h;
	struct lab_placement place;
	struct lab_err err;
	char what[400];
	int cpus[LAB_THREADS_MAX];

	if (!plan_values(e, vidx, &h, kparams))
		return;
	struct lab_resolved *pk = lab__plan_key(e, "placement");
	unsigned pv = vidx[pk - e->keys];
	plan_place(memo, h.placement, pv, &place);
	unsigned n = (unsigned)h.threads;
	struct lab_resolved *threads = lab__plan_key(e, "threads");
	char hint[200] = "";
	if (n > plan->env.ncpus && plan->env.thissystem)
		/* Under Slurm the usual cause is an allocation of fewer CPUs than the node has. */
		lab_prov_slurm_hint(plan->env.ncpus, n, hint, sizeof(hint));
	if (e->kernel->flags & LAB_KF_PAIRS) {
		/* Only a value set for this experiment counts: [global] threads = 1..max is fine.
		 */
		if ((threads->src == LAB_SRC_SECTION || threads->src == LAB_SRC_CLI) && n != 2) {
			snprintf(what, sizeof(what), "kernel '%s' runs on CPU pairs (allowed 2)",
			         e->kernel->name);
			lab__plan_key_error(d, e, threads, threads->vals[vidx[0]], what);
			return;
		}
		n = 2;
		h.threads = 2;
	}
	if (!plan_placement_fits(e, &h, &place, d))
		return;
	if (e->cpus_short) {
		plan_short(plan, e, &h, &place, kparams, n, d);
		return;
	}
	if (place.kind == LAB_PLACE_PAIRS) {
		plan_pairs(plan, e, topo, &h, kparams, d);
		return;
	}
	if (n > plan->env.ncpus && threads->nvals > 1) {
		/* One line for the key, however many values of the sweep are too large. */
		snprintf(
		    what, sizeof(what),
		    "values above %u are more than the CPUs this process may use (allowed 1 .. "
		    "%u, or max)%s%s",
		    plan->env.ncpus, plan->env.ncpus, hint[0] ? "; " : "", hint);
		lab__plan_key_error(d, e, threads, threads->text, what);
		return;
	}
	if (n > plan->env.ncpus) {
		snprintf(
		    what, sizeof(what),
		    "%u threads but this process may use %u CPU%s (allowed 1 .. %u, or max)%s%s", n,
		    plan->env.ncpus, plan->env.ncpus == 1 ? "" : "s", plan->env.ncpus,
		    hint[0] ? "; " : "", hint);
		lab__plan_key_error(d, e, threads, threads->vals[vidx[0]], what);
		return;
	}
	int rc = plan_cpus(memo, topo, &place, pv, n, cpus, &err);
	if (rc == -LAB_EUNSUP && place.kind == LAB_PLACE_NODE) {
		/* A machine without node N: skipped with the reason (unless the kernel skips it
		 * for a better one), so one config serves 1- and 2-node machines. No CPUs: it
		 * runs on none, and CPUs it never used would read as a placement in the results. */
		plan_point_skip(plan, e, &h, kparams, NULL, n, err.msg, d);
		return;
	}
	/* On the stand-in for a topology that did not load, what the placement cannot find is the
	 * stand-in's lack ("no domain S1" of a 4-package machine): the syntax was checked already
	 */
	if (rc && !lab_topo_is_standin(topo))
		plan_placement_refused(e, vidx, h.placement, err.msg, d);
	if (rc)
		return;
	plan_point_emit(plan, e, &h, kparams, cpus, n, NULL, d);
}

/* Reports an experiment whose sweeps expand to total points, after npts asked for before
 * (planned, or refused as too many: each experiment's count is its own). */
static void plan_too_many(struct lab_diag *d, const struct lab_experiment *e, uint64_t total,
                          uint64_t npts)
{
	char *msg = NULL, count[64];
	int rc;

	if (total == UINT64_MAX)
		snprintf(count, sizeof(count), "more than 2^64");
	else
		snprintf(count, sizeof(count), "%llu", (unsigned long long)total);
	if (total > LAB_COMBOS_MAX && lab_kernel_has_applies(e->kernel))
		rc = asprintf(&msg,
		              "%s:%d: [%s]: the sweeps name %s combinations of values (allowed at "
		              "most %d, and at most %d points once the values a key does not apply "
		              "at are left out)",
		              e->file, e->line, e->name, count, LAB_COMBOS_MAX, LAB_POINTS_MAX);
	else if (npts == 0 || total == UINT64_MAX)
		rc = asprintf(&msg,
		              "%s:%d: [%s]: the sweeps expand to %s points (allowed at most %d)",
		              e->file, e->line, e->name, count, LAB_POINTS_MAX);
	else if (npts > UINT64_MAX - total)
		rc =
		    asprintf(&msg,
		             "%s:%d: [%s]: the sweeps expand to %s points, more than 2^64 with the "
		             "experiments before (allowed at most %d in all)",
		             e->file, e->line, e->name, count, LAB_POINTS_MAX);
	else
		rc = asprintf(&msg,
		              "%s:%d: [%s]: the sweeps expand to %s points, %llu with the "
		              "experiments before (allowed at most %d in all)",
		              e->file, e->line, e->name, count, (unsigned long long)(total + npts),
		              LAB_POINTS_MAX);
	if (rc >= 0)
		lab__plan_diag_once(d, msg);
	free(msg);
}

bool lab__plan_pairs_fixed(const struct lab_experiment *e, unsigned k)
{
	const struct lab_resolved *r = &e->keys[k];

	return (e->kernel->flags & LAB_KF_PAIRS) && !strcmp(r->param->key, "threads") &&
	       r->src != LAB_SRC_SECTION && r->src != LAB_SRC_CLI;
}

void lab__plan_refuse(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                      uint64_t total, struct lab_diag *d)
{
	uint64_t before = plan->asked;

	e->first_point = plan->npts;
	plan->asked = total > UINT64_MAX - before ? UINT64_MAX : before + total;
	if (!lab_topo_is_standin(topo)) /* else the stand-in's 1024 CPUs, not the config */
		plan_too_many(d, e, total, before);
}

void lab__plan_points(struct lab_plan *plan, struct lab_experiment *e, const struct lab_topo *topo,
                      struct lab_diag *d)
{
	unsigned order[64], nd = 0, vidx[64] = {0};
	struct plan_order_memo memo = {.parsed = -1, .vidx = -1};
	uint64_t total = 1;
	void *kparams = calloc(1, e->kernel->params_size ? e->kernel->params_size : 1);

	LAB_BUG_ON(e->nkeys > 64);
	if (!kparams) {
		lab__plan_diag_once(d, "lab: out of memory while planning");
		return;
	}
	lab__plan_applies_check(e, &plan->env, kparams, d);
	/* Threads vary fastest (keys[0] is threads), so each scaling series finishes together. */
	for (unsigned k = e->nkeys; k-- > 0;)
		if (e->keys[k].nvals > 1 && !lab__plan_pairs_fixed(e, k))
			order[nd++] = k;
	/* Saturate: many long sweeps overflow 64 bits and would wrap to a few points. */
	for (unsigned i = 0; i < nd; i++)
		if (__builtin_mul_overflow(total, e->keys[order[i]].nvals, &total))
			total = UINT64_MAX;
	e->first_point = plan->npts;
	uint64_t planned = lab__plan_applying_count(e, order, nd, kparams, total);
	if (planned > LAB_POINTS_MAX - plan->npts || total > LAB_COMBOS_MAX) {
		lab__plan_refuse(plan, e, topo, total > LAB_COMBOS_MAX ? total : planned, d);
		free(kparams);
		return;
	}
	plan->asked = planned > UINT64_MAX - plan->asked ? UINT64_MAX : plan->asked + planned;
	struct lab__plan_skip skip;
	lab__plan_skip_init(&skip, e, kparams);
	for (uint64_t i = 0; i < total; i++) {
		uint64_t rest = i;
		for (unsigned j = nd; j-- > 0;) {
			unsigned k = order[j];
			vidx[k] = (unsigned)(rest % e->keys[k].nvals);
			rest /= e->keys[k].nvals;
		}
		if (!lab__plan_skipped(&skip, e, vidx))
			plan_combination(plan, e, topo, vidx, kparams, &memo, d);
	}
	e->npoints = plan->npts - e->first_point;
	free(memo.order);
	free(kparams);
}

void lab_plan_point_json(struct lab_json *j, const struct lab_point *pt)
{
	lab_json_uint(j, "point", pt->id);
	lab_json_uint(j, "threads", pt->nthreads);
	lab_json_arr_open(j, "cpus");
	for (unsigned i = 0; i < pt->ncpus; i++)
		lab_json_int(j, NULL, pt->cpus[i]);
	lab_json_arr_close(j);
	lab_json_str(j, "placement", pt->h.placement);
	/* A thread-domain expression beside the OS CPUs it resolved to (cpus, above). */
	if (!strncmp(pt->h.placement, "expr:", 5))
		lab_json_str(j, "placement_expr", pt->h.placement + 5);
	lab_json_kvlist(j, "params", pt->params_text);
}
